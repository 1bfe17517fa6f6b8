// SPDX-License-Identifier: MIT
/*
 * The pages of the trace.dat writer: each CPU's data, page-aligned, given page by page or
 * read to its end from a descriptor (copy_file_range() when the kernel can move the bytes
 * itself), and, when the file is compressed, gathered into chunks of ten pages that are
 * compressed one at a time behind a chunk count patched at the CPU's end (reference section
 * 4, "Compression"). The compressor is here because chunks are its main user; the version 7
 * metadata sections (tracedat-write-layout.c) compress through it too. This is the part whose
 * memory must not grow with the trace, so it is kept apart from the metadata and layouts:
 * at most one chunk and its compressed form are held at a time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "tracedat-write-priv.h"

#define PAGES_IN_CHUNK 10 /* pages per compressed chunk, as trace-cmd */

/* ---- compression (reference section 4, "Compression") ---------------------------------------- */

static enum tk_status zbuf_reserve(struct tracedat_writer *w, size_t n)
{
	uint8_t *p;

	if (n <= w->zcap)
		return TK_OK;
	p = realloc(w->zbuf, n);
	if (!p)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot compress trace.dat data: path=%s, size=%zu",
			       w->path, n);
	w->zbuf = p;
	w->zcap = n;
	return TK_OK;
}

/*
 * Compress @n bytes into w->zbuf as trace-cmd does: one zstd frame without a content size
 * (default level unless the options give one), or one zlib stream at the best level.
 */
enum tk_status tracedat_w_compress_block(struct tracedat_writer *w, const uint8_t *src, size_t n,
					 size_t *zsize)
{
	enum tk_status st;
	size_t r;
	uLong bound;
	int level = w->o.compression_level, ret;

	if (w->o.comp == TRACEDAT_COMP_ZSTD) {
		if (!w->zstd) {
			w->zstd = ZSTD_createCCtx();
			if (!w->zstd)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot set up zstd: path=%s",
					       w->path);
			r = ZSTD_CCtx_setParameter(w->zstd, ZSTD_c_contentSizeFlag, 0);
			if (!ZSTD_isError(r) && level)
				r = ZSTD_CCtx_setParameter(w->zstd, ZSTD_c_compressionLevel, level);
			if (ZSTD_isError(r))
				return TK_FAIL(TK_ERR_INVAL,
					       "Cannot set up zstd: path=%s, reason=%s", w->path,
					       ZSTD_getErrorName(r));
		}
		st = zbuf_reserve(w, ZSTD_compressBound(n));
		if (st < 0)
			return st;
		r = ZSTD_compress2(w->zstd, w->zbuf, w->zcap, src, n);
		if (ZSTD_isError(r))
			return TK_FAIL(TK_ERR_NOMEM,
				       "Cannot compress trace.dat data: path=%s, size=%zu, "
				       "compression=zstd, reason=%s",
				       w->path, n, ZSTD_getErrorName(r));
		*zsize = r;
		return TK_OK;
	}
	if (!w->zlib_ready) {
		memset(&w->zlib, 0, sizeof(w->zlib));
		if (deflateInit(&w->zlib, level ? level : Z_BEST_COMPRESSION) != Z_OK)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot set up zlib: path=%s", w->path);
		w->zlib_ready = 1;
	} else if (deflateReset(&w->zlib) != Z_OK) {
		return TK_FAIL(TK_ERR_NOMEM, "Cannot set up zlib: path=%s", w->path);
	}
	bound = deflateBound(&w->zlib, (uLong) n);
	if (bound > UINT32_MAX)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot compress trace.dat data: path=%s, size=%zu, "
			       "reason=block too large for zlib",
			       w->path, n);
	st = zbuf_reserve(w, bound);
	if (st < 0)
		return st;
	w->zlib.next_in = (Bytef *) src;
	w->zlib.avail_in = (uInt) n;
	w->zlib.next_out = w->zbuf;
	w->zlib.avail_out = (uInt) bound;
	ret = deflate(&w->zlib, Z_FINISH);
	if (ret != Z_STREAM_END)
		return TK_FAIL(TK_ERR_NOMEM,
			       "Cannot compress trace.dat data: path=%s, size=%zu, "
			       "compression=zlib, reason=%s",
			       w->path, n, w->zlib.msg ? w->zlib.msg : "deflate did not finish");
	*zsize = (size_t) bound - w->zlib.avail_out;
	return TK_OK;
}

/* The gathered pages as one chunk: u32 compressed size, u32 size, the compressed bytes. */
static enum tk_status chunk_flush(struct tracedat_writer *w)
{
	enum tk_status st;
	uint8_t hdr[8];
	size_t z = 0;

	if (!w->chunk_len)
		return TK_OK;
	st = tracedat_w_compress_block(w, w->chunk, w->chunk_len, &z);
	if (st < 0)
		return TK_FAIL(st, "Cannot write trace.dat CPU data: path=%s, cpu=%" PRIu32,
			       w->path, w->cpu);
	tk_store_u32(hdr, (uint32_t) z, w->o.bo);
	tk_store_u32(hdr + 4, (uint32_t) w->chunk_len, w->o.bo);
	st = tracedat_w_out_write(w, hdr, 8);
	if (st >= 0)
		st = tracedat_w_out_write(w, w->zbuf, z);
	w->chunk_len = 0;
	w->chunks++;
	return st;
}

/* ---- CPUs ------------------------------------------------------------------------------------ */

/* The CPU's first bytes: page-aligned, with a chunk count to patch when compressed. */
static enum tk_status cpu_start(struct tracedat_writer *w)
{
	static const uint8_t zero[4];
	enum tk_status st;

	if (w->cpu_started)
		return TK_OK;
	w->cpu_before = w->pos;
	st = tracedat_w_out_align(w, w->o.page_size);
	if (st < 0)
		return st;
	w->cpu_off = w->pos;
	w->cpu_started = 1;
	if (w->o.comp == TRACEDAT_COMP_NONE)
		return TK_OK;
	if (!w->chunk) {
		uint32_t pages = TRACEDAT_MAX_CHUNK / w->o.page_size;

		w->chunk_cap =
			(size_t) (pages < PAGES_IN_CHUNK ? pages : PAGES_IN_CHUNK) * w->o.page_size;
		w->chunk = malloc(w->chunk_cap);
		if (!w->chunk)
			return TK_FAIL(TK_ERR_NOMEM,
				       "Cannot write trace.dat CPU data: path=%s, chunk-size=%zu",
				       w->path, w->chunk_cap);
	}
	w->chunk_len = 0;
	w->chunks = 0;
	return tracedat_w_out_write(w, zero, 4);
}

enum tk_status tracedat_w_cpu_begin(struct tracedat_writer *w, uint32_t cpu)
{
	struct tracedat_w_buffer *b;
	enum tk_status st;

	if (w->state == TRACEDAT_W_STATE_CPU)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot begin trace.dat CPU: path=%s, cpu=%" PRIu32
			       ", reason=CPU %" PRIu32 " was not ended",
			       w->path, cpu, w->cpu);
	if (cpu >= w->cpus)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot begin trace.dat CPU: path=%s, cpu=%" PRIu32 ", cpus=%" PRIu32
			       ", reason=the CPU is not below the CPU count",
			       w->path, cpu, w->cpus);
	st = tracedat_w_begin_data(w, 0);
	if (st < 0)
		return st;
	b = tracedat_w_cur_buffer(w);
	if ((int64_t) cpu <= b->last_cpu)
		return TK_FAIL(
			TK_ERR_INVAL,
			"Cannot begin trace.dat CPU: path=%s, buffer=%s, cpu=%" PRIu32
			", reason=CPUs of a buffer come in increasing order, after CPU %" PRId64,
			w->path, b->name, cpu, b->last_cpu);
	b->last_cpu = cpu;
	w->cpu = cpu;
	w->cpu_started = 0;
	w->cpu_pages = 0;
	w->state = TRACEDAT_W_STATE_CPU;
	return TK_OK;
}

static enum tk_status not_in_cpu(const struct tracedat_writer *w, const char *what)
{
	return TK_FAIL(TK_ERR_INVAL,
		       "Cannot write trace.dat %s: path=%s, "
		       "reason=no CPU begun (tracedat_writer_cpu_begin)",
		       what, w->path);
}

enum tk_status tracedat_w_cpu_page(struct tracedat_writer *w, const void *page, size_t size)
{
	enum tk_status st;

	if (w->state != TRACEDAT_W_STATE_CPU)
		return not_in_cpu(w, "page");
	if (size > w->o.page_size)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot write trace.dat page: path=%s, cpu=%" PRIu32
			       ", size=%zu, page-size=%" PRIu32 ", reason=larger than a page",
			       w->path, w->cpu, size, w->o.page_size);
	st = cpu_start(w);
	if (st < 0)
		return st;
	w->cpu_pages++;
	if (w->o.comp == TRACEDAT_COMP_NONE) {
		st = tracedat_w_out_write(w, page, size);
		return st < 0 ? st : tracedat_w_out_zeros(w, w->o.page_size - size);
	}
	if (size)
		memcpy(w->chunk + w->chunk_len, page, size);
	memset(w->chunk + w->chunk_len + size, 0, w->o.page_size - size);
	w->chunk_len += w->o.page_size;
	return w->chunk_len == w->chunk_cap ? chunk_flush(w) : TK_OK;
}

static enum tk_status read_fail(const struct tracedat_writer *w, int fd, int err)
{
	return TK_FAIL(TK_ERR_IO, "Cannot read CPU data: path=%s, cpu=%" PRIu32 ", fd=%d, errno=%s",
		       w->path, w->cpu, fd, strerror(err));
}

/* Whether copy_file_range() failed because it cannot serve these files (read and write then). */
static int cfr_unsupported(int err)
{
	return err == EXDEV || err == EINVAL || err == ENOSYS || err == EOPNOTSUPP ||
	       err == EBADF || err == ETXTBSY || err == EPERM;
}

/*
 * Uncompressed: everything from @fd's position to its end, in the kernel when it can
 * (copy_file_range), else through the output buffer. Returns the byte count in *@total.
 */
static enum tk_status copy_plain(struct tracedat_writer *w, int fd, uint64_t *total)
{
	enum tk_status st;
	int use_cfr = 1;
	ssize_t r;

	st = tracedat_w_out_flush(w);
	if (st < 0)
		return st;
	*total = 0;
	for (;;) {
		if (use_cfr) {
			loff_t off = (loff_t) w->pos;

			r = copy_file_range(fd, NULL, w->fd, &off, 1u << 30, 0);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && *total == 0 && cfr_unsupported(errno)) {
				use_cfr = 0;
				continue;
			}
			if (r < 0) {
				int err = errno;

				if (err == ENOSPC || err == EDQUOT || err == EFBIG)
					return tracedat_w_write_fail(w, err);
				return TK_FAIL(TK_ERR_IO,
					       "Cannot copy CPU data: path=%s, cpu=%" PRIu32
					       ", fd=%d, errno=%s",
					       w->path, w->cpu, fd, strerror(err));
			}
			if (r == 0)
				return TK_OK;
			w->pos += (uint64_t) r;
			w->buf_off = w->pos;
			if (w->pos > w->high)
				w->high = w->pos;
		} else {
			r = read(fd, w->buf + w->len, TRACEDAT_W_OUT_BUF_SIZE - w->len);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return read_fail(w, fd, errno);
			if (r == 0)
				return TK_OK;
			w->len += (size_t) r;
			w->pos += (uint64_t) r;
			if (w->len == TRACEDAT_W_OUT_BUF_SIZE) {
				st = tracedat_w_out_flush(w);
				if (st < 0)
					return st;
			}
		}
		*total += (uint64_t) r;
	}
}

/* Compressed: read whole chunks from @fd, compress each as it fills. */
static enum tk_status copy_compressed(struct tracedat_writer *w, int fd, uint64_t *total)
{
	enum tk_status st;
	ssize_t r;

	*total = 0;
	for (;;) {
		r = read(fd, w->chunk + w->chunk_len, w->chunk_cap - w->chunk_len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return read_fail(w, fd, errno);
		if (r == 0)
			return TK_OK;
		w->chunk_len += (size_t) r;
		*total += (uint64_t) r;
		if (w->chunk_len == w->chunk_cap) {
			st = chunk_flush(w);
			if (st < 0)
				return st;
		}
	}
}

enum tk_status tracedat_w_cpu_fd(struct tracedat_writer *w, int fd)
{
	uint64_t total = 0, rem;
	enum tk_status st;

	if (w->state != TRACEDAT_W_STATE_CPU)
		return not_in_cpu(w, "CPU data");
	st = cpu_start(w);
	if (st < 0)
		return st;
	if (w->o.comp == TRACEDAT_COMP_NONE)
		st = copy_plain(w, fd, &total);
	else
		st = copy_compressed(w, fd, &total);
	if (st < 0)
		return st;
	w->cpu_pages += (total + w->o.page_size - 1) / w->o.page_size;
	rem = total % w->o.page_size;
	if (!rem)
		return TK_OK;
	/* a last partial page is padded to a whole one */
	if (w->o.comp == TRACEDAT_COMP_NONE)
		return tracedat_w_out_zeros(w, w->o.page_size - rem);
	memset(w->chunk + w->chunk_len, 0, w->o.page_size - rem);
	w->chunk_len += w->o.page_size - rem;
	return w->chunk_len == w->chunk_cap ? chunk_flush(w) : TK_OK;
}

enum tk_status tracedat_w_cpu_end(struct tracedat_writer *w)
{
	struct tracedat_w_cpu *c;
	enum tk_status st;

	if (w->state != TRACEDAT_W_STATE_CPU)
		return not_in_cpu(w, "CPU end");
	w->state = TRACEDAT_W_STATE_DATA;
	if (!w->cpu_started)
		return TK_OK;
	if (!w->cpu_pages) /* nothing came: the CPU has no data, as if never begun */
		return tracedat_w_out_rewind(w, w->cpu_before);
	if (w->o.comp != TRACEDAT_COMP_NONE) {
		st = chunk_flush(w);
		if (st >= 0)
			st = tracedat_w_out_patch_u32(w, w->cpu_off, w->chunks);
		if (st < 0)
			return st;
	}
	c = vec_push(&tracedat_w_cur_buffer(w)->cpus, sizeof(*c));
	if (!c)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	c->cpu = w->cpu;
	c->offset = w->cpu_off;
	c->size = w->pos - w->cpu_off;
	return TK_OK;
}
