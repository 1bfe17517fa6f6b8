// SPDX-License-Identifier: MIT
/*
 * The trace.dat writer (tracedat-write.h): version 6 and version 7 files laid out the way
 * trace-cmd 3.1.6 lays them out (reference sections 2 to 4), from the metadata texts and the
 * ring-buffer pages that the recorder or a converter hands over.
 *
 * Why it is built this way:
 *  - Pages are streamed. Uncompressed pages reach the file through a small output buffer, or
 *    in the kernel with copy_file_range() from a CPU file; compressed pages are gathered one
 *    chunk (ten pages) at a time. What is known only later (v7 section sizes, chunk counts,
 *    the links between options sections, the v6 CPU tables of instances) is patched in place
 *    with pwrite(), so memory never grows with the trace.
 *  - Version 6 keeps every option, the BUFFER options of instances included, in one block
 *    before the top buffer's CPU table, but instances are named only after the top buffer's
 *    pages are written. So the v6 head (file header, metadata, options, top CPU table and
 *    clock) is written last, at offset 0, into room left before the first page: the head's
 *    size without instances plus V6_HEAD_ROOM bytes for their BUFFER options. The bytes
 *    between the head and the first page are never read (CPU data is found by offset).
 *  - Nothing a reader takes for a finished file exists before close: a v6 file has no header
 *    until then, a v7 file has its header from the start but its first-options offset stays 0.
 *  - Metadata is copied and kept until the data begins (v7) or until close (v6): it is small
 *    next to the pages, and the v6 head needs it last.
 *  - The output buffer is this file's own (src/common/writer.c writes text streams forward;
 *    this one also patches earlier bytes and jumps over alignment padding).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "tracedat-priv.h"
#include "tracedat-write.h"

#define OUT_BUF_SIZE   (256u << 10) /* output buffer */
#define PAGES_IN_CHUNK 10	    /* pages per compressed chunk, as trace-cmd */
#define V6_HEAD_ROOM   16384u	    /* v6: head bytes kept for the BUFFER options of instances */
#define MAX_CPUS       65536u	    /* CPU numbers this writer (and tracekit's reader) accepts */
#define V7_DONE_SIZE   14u	    /* v7 DONE option: u16 id, u32 size 8, u64 next */

/* Metadata parts set whole, each at most once. */
enum part {
	PART_HEADER_PAGE,
	PART_HEADER_EVENT,
	PART_KALLSYMS,
	PART_PRINTK,
	PART_CMDLINES,
	PART_CLOCK,
	PART_N,
};

static const char *const part_names[PART_N] = {
	"header_page",	  "header_event",   "kallsyms",
	"printk_formats", "saved_cmdlines", "trace_clock",
};

struct wblob {
	uint8_t *data;
	size_t size;
};

struct wsystem {
	char *name;
	struct vec formats; /* struct wblob */
};

struct woption {
	uint16_t id;
	struct wblob b;
};

struct wcpu {
	uint32_t cpu;
	uint64_t offset; /* first page, or (compressed) the chunk count */
	uint64_t size;	 /* bytes written */
};

struct wbuffer {
	char *name;	  /* "" for the top buffer */
	char *clock;	  /* clock name: v7 BUFFER option, v6 clock text */
	uint64_t start;	  /* v7: its section header; v6 instances: its "flyrecord" marker */
	int64_t last_cpu; /* last CPU begun, -1 before the first */
	struct vec cpus;  /* struct wcpu: the CPUs with data, in order */
};

enum wstate {
	WS_META, /* metadata and options may still be given */
	WS_DATA, /* between CPUs */
	WS_CPU,	 /* between cpu_begin and cpu_end */
};

struct tracedat_writer {
	struct tracedat_write_opts o;
	char *path;
	int fd;
	enum wstate state;
	enum tk_status failed; /* the first failure; every later call fails too */

	/* output: pos = buf_off + len, the file offset of the next byte */
	uint8_t *buf;
	size_t len;
	uint64_t buf_off;
	uint64_t pos;
	uint64_t high; /* end of the bytes written to the file so far */

	/* metadata */
	struct wblob part[PART_N];
	uint8_t part_set[PART_N];
	struct vec ftrace;  /* struct wblob */
	struct vec systems; /* struct wsystem */
	struct vec options; /* struct woption */
	uint32_t cpus;
	uint8_t cpus_set;
	char *clock_name; /* from the trace_clock text, NULL when none was given or found */

	/* layout */
	struct vec buffers;    /* struct wbuffer; the last one is being written */
	uint64_t v6_head;      /* v6: head size without the BUFFER options of instances */
	uint64_t v6_extra;     /* v6: bytes of those BUFFER options */
	uint64_t v6_room;      /* v6: file offset where data starts (room for the head) */
	uint64_t v7_head_link; /* v7: offset of the header's first-options field */
	uint64_t v7_first;     /* v7: the first options section */
	uint64_t v7_link;      /* v7: the "next" field of the last DONE option, 0 before one */
	struct vec strings;    /* v7: section descriptions, NUL-terminated, concatenated */

	/* the CPU being written */
	uint32_t cpu;
	uint8_t cpu_started; /* aligned, offset taken (and chunk count reserved) */
	uint64_t cpu_before; /* pos before the alignment, to undo an empty CPU */
	uint64_t cpu_off;
	uint64_t cpu_pages;
	uint32_t chunks;

	/* compression */
	uint8_t *chunk; /* pages of the chunk being gathered */
	size_t chunk_len, chunk_cap;
	uint8_t *zbuf; /* compressed output */
	size_t zcap;
	ZSTD_CCtx *zstd;
	z_stream zlib;
	uint8_t zlib_ready;
};

/* ---- in-memory pieces (options, section payloads, the v6 head) ------------------------------- */

/*
 * Bytes built in memory with integers in the file's byte order. With count_only set it only
 * measures (the v6 head's size before its content is final); out of memory is remembered and
 * checked once at the end.
 */
struct bb {
	uint8_t *p;
	size_t len, cap;
	enum tk_byte_order bo;
	uint8_t count_only;
	uint8_t nomem;
};

static void bb_put(struct bb *b, const void *p, size_t n)
{
	size_t cap;
	uint8_t *np;

	if (b->count_only) {
		b->len += n;
		return;
	}
	if (b->nomem || !n)
		return;
	if (n > b->cap - b->len) {
		cap = b->cap ? b->cap : 256;
		while (cap - b->len < n) {
			if (cap > SIZE_MAX / 2) {
				b->nomem = 1;
				return;
			}
			cap *= 2;
		}
		np = realloc(b->p, cap);
		if (!np) {
			b->nomem = 1;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void bb_u16(struct bb *b, uint16_t v)
{
	uint8_t t[2];

	tk_store_u16(t, v, b->bo);
	bb_put(b, t, 2);
}

static void bb_u32(struct bb *b, uint32_t v)
{
	uint8_t t[4];

	tk_store_u32(t, v, b->bo);
	bb_put(b, t, 4);
}

static void bb_u64(struct bb *b, uint64_t v)
{
	uint8_t t[8];

	tk_store_u64(t, v, b->bo);
	bb_put(b, t, 8);
}

static void bb_cstr(struct bb *b, const char *s)
{
	bb_put(b, s, strlen(s) + 1);
}

static void bb_fini(struct bb *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* ---- output ---------------------------------------------------------------------------------- */

static enum tk_status write_fail(const struct tracedat_writer *w, int err)
{
	return TK_FAIL(TK_ERR_IO, "Cannot write trace.dat: path=%s, errno=%s", w->path,
		       strerror(err));
}

static enum tk_status out_pwrite(struct tracedat_writer *w, const void *p, size_t n, uint64_t off)
{
	const uint8_t *c = p;
	ssize_t r;

	while (n) {
		r = pwrite(w->fd, c, n > (1u << 30) ? (1u << 30) : n, (off_t) off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return write_fail(w, errno);
		if (r == 0)
			return write_fail(w, ENOSPC);
		c += r;
		n -= (size_t) r;
		off += (uint64_t) r;
	}
	if (off > w->high)
		w->high = off;
	return TK_OK;
}

static enum tk_status out_flush(struct tracedat_writer *w)
{
	enum tk_status st = TK_OK;

	if (w->len)
		st = out_pwrite(w, w->buf, w->len, w->buf_off);
	w->buf_off += w->len;
	w->len = 0;
	return st;
}

static enum tk_status out_write(struct tracedat_writer *w, const void *p, size_t n)
{
	enum tk_status st;

	if (n > OUT_BUF_SIZE - w->len) {
		st = out_flush(w);
		if (st < 0)
			return st;
		if (n >= OUT_BUF_SIZE) {
			st = out_pwrite(w, p, n, w->pos);
			w->pos += n;
			w->buf_off = w->pos;
			return st;
		}
	}
	if (n)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
	w->pos += n;
	return TK_OK;
}

static enum tk_status out_zeros(struct tracedat_writer *w, uint64_t n)
{
	enum tk_status st;
	size_t k;

	while (n) {
		if (w->len == OUT_BUF_SIZE) {
			st = out_flush(w);
			if (st < 0)
				return st;
		}
		k = OUT_BUF_SIZE - w->len;
		if (k > n)
			k = (size_t) n;
		memset(w->buf + w->len, 0, k);
		w->len += k;
		w->pos += k;
		n -= k;
	}
	return TK_OK;
}

/* Continue writing at @off (forward: a hole the file system keeps sparse; back: overwrite). */
static enum tk_status out_seek(struct tracedat_writer *w, uint64_t off)
{
	enum tk_status st = out_flush(w);

	w->pos = off;
	w->buf_off = off;
	return st;
}

/* Forget what was written from @off on (a CPU that turned out empty). */
static enum tk_status out_rewind(struct tracedat_writer *w, uint64_t off)
{
	if (off >= w->buf_off) {
		w->len = (size_t) (off - w->buf_off);
		w->pos = off;
		return TK_OK;
	}
	return out_seek(w, off);
}

/* Pad to a multiple of @align: zeros when few, a hole when many (data always follows). */
static enum tk_status out_align(struct tracedat_writer *w, uint64_t align)
{
	uint64_t pad = (align - w->pos % align) % align;

	if (pad <= OUT_BUF_SIZE - w->len)
		return out_zeros(w, pad);
	return out_seek(w, w->pos + pad);
}

/* Overwrite @n bytes at @off, already written or still buffered. */
static enum tk_status out_patch(struct tracedat_writer *w, uint64_t off, const void *p, size_t n)
{
	enum tk_status st;

	if (off >= w->buf_off && n <= w->len && off - w->buf_off <= w->len - n) {
		memcpy(w->buf + (off - w->buf_off), p, n);
		return TK_OK;
	}
	if (off + n > w->buf_off) {
		st = out_flush(w);
		if (st < 0)
			return st;
	}
	return out_pwrite(w, p, n, off);
}

static enum tk_status out_patch_u32(struct tracedat_writer *w, uint64_t off, uint32_t v)
{
	uint8_t t[4];

	tk_store_u32(t, v, w->o.bo);
	return out_patch(w, off, t, 4);
}

static enum tk_status out_patch_u64(struct tracedat_writer *w, uint64_t off, uint64_t v)
{
	uint8_t t[8];

	tk_store_u64(t, v, w->o.bo);
	return out_patch(w, off, t, 8);
}

static enum tk_status out_bb(struct tracedat_writer *w, const struct bb *b)
{
	if (b->nomem)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	return out_write(w, b->p, b->len);
}

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
static enum tk_status compress_block(struct tracedat_writer *w, const uint8_t *src, size_t n,
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
	st = compress_block(w, w->chunk, w->chunk_len, &z);
	if (st < 0)
		return TK_FAIL(st, "Cannot write trace.dat CPU data: path=%s, cpu=%" PRIu32,
			       w->path, w->cpu);
	tk_store_u32(hdr, (uint32_t) z, w->o.bo);
	tk_store_u32(hdr + 4, (uint32_t) w->chunk_len, w->o.bo);
	st = out_write(w, hdr, 8);
	if (st >= 0)
		st = out_write(w, w->zbuf, z);
	w->chunk_len = 0;
	w->chunks++;
	return st;
}

/* ---- metadata -------------------------------------------------------------------------------- */

static const struct wblob *part(const struct tracedat_writer *w, enum part k)
{
	return &w->part[k];
}

/*
 * The payload of metadata part @id (16..21): what v6 writes in sequence and v7 puts in a
 * section each (reference section 2, items 7 to 13).
 */
static void part_payload(const struct tracedat_writer *w, unsigned int id, struct bb *b)
{
	const struct wblob *p;
	size_t i, j;

	switch (id) {
	case TRACEDAT_OPTION_HEADER_INFO:
		p = part(w, PART_HEADER_PAGE);
		bb_put(b, "header_page", 12);
		bb_u64(b, p->size);
		bb_put(b, p->data, p->size);
		p = part(w, PART_HEADER_EVENT);
		bb_put(b, "header_event", 13);
		bb_u64(b, p->size);
		bb_put(b, p->data, p->size);
		break;
	case TRACEDAT_OPTION_FTRACE_EVENTS:
		bb_u32(b, (uint32_t) w->ftrace.len);
		for (i = 0; i < w->ftrace.len; i++) {
			p = &VEC_AT(&w->ftrace, struct wblob, i);
			bb_u64(b, p->size);
			bb_put(b, p->data, p->size);
		}
		break;
	case TRACEDAT_OPTION_EVENT_FORMATS:
		bb_u32(b, (uint32_t) w->systems.len);
		for (i = 0; i < w->systems.len; i++) {
			const struct wsystem *s = &VEC_AT(&w->systems, struct wsystem, i);

			bb_cstr(b, s->name);
			bb_u32(b, (uint32_t) s->formats.len);
			for (j = 0; j < s->formats.len; j++) {
				p = &VEC_AT(&s->formats, struct wblob, j);
				bb_u64(b, p->size);
				bb_put(b, p->data, p->size);
			}
		}
		break;
	case TRACEDAT_OPTION_KALLSYMS:
	case TRACEDAT_OPTION_PRINTK:
		p = part(w, id == TRACEDAT_OPTION_KALLSYMS ? PART_KALLSYMS : PART_PRINTK);
		bb_u32(b, (uint32_t) p->size); /* checked when set */
		bb_put(b, p->data, p->size);
		break;
	case TRACEDAT_OPTION_CMDLINES:
		p = part(w, PART_CMDLINES);
		bb_u64(b, p->size);
		bb_put(b, p->data, p->size);
		break;
	}
}

static int clock_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * The clock in use in a trace_clock text: the word in brackets ("[local] global" gives
 * "local"), else the text itself when it is one bare word; NULL in *@out when neither.
 */
static enum tk_status clock_name_of(const uint8_t *t, size_t n, char **out)
{
	size_t i = 0, start, end;

	*out = NULL;
	while (i < n && t[i] && t[i] != '[')
		i++;
	if (i < n && t[i] == '[') {
		start = ++i;
		while (i < n && t[i] && t[i] != ']' && !clock_space(t[i]))
			i++;
		end = i;
	} else {
		start = 0;
		while (start < n && clock_space(t[start]))
			start++;
		end = start;
		while (end < n && t[end] && !clock_space(t[end]))
			end++;
		i = end;
		while (i < n && clock_space(t[i]))
			i++;
		if (i < n && t[i])
			return TK_OK; /* several words, none chosen */
	}
	if (end == start)
		return TK_OK;
	*out = strndup((const char *) t + start, end - start);
	return *out ? TK_OK : TK_FAIL(TK_ERR_NOMEM, "Cannot read trace clock text");
}

/* TRACECLOCK: the whole trace_clock text with its NUL, as trace-cmd saves it. */
static void clock_option(const struct tracedat_writer *w, struct bb *b)
{
	const struct wblob *c = part(w, PART_CLOCK);
	int nul = c->size && c->data[c->size - 1] == '\0';

	bb_u16(b, TRACEDAT_OPTION_TRACECLOCK);
	bb_u32(b, (uint32_t) (c->size + !nul));
	bb_put(b, c->data, c->size);
	if (!nul)
		bb_put(b, "", 1);
}

/* The options given by the caller, in call order, after TRACECLOCK. */
static void user_options(const struct tracedat_writer *w, struct bb *b)
{
	size_t i;

	if (w->part_set[PART_CLOCK])
		clock_option(w, b);
	for (i = 0; i < w->options.len; i++) {
		const struct woption *o = &VEC_AT(&w->options, struct woption, i);

		bb_u16(b, o->id);
		bb_u32(b, (uint32_t) o->b.size);
		bb_put(b, o->b.data, o->b.size);
	}
}

/* The clock text after a v6 CPU table: u64 length, "[name]" (trace-cmd's save_clock). */
static void clock_blob_v6(const struct wbuffer *buf, struct bb *b)
{
	bb_u64(b, strlen(buf->clock) + 2);
	bb_put(b, "[", 1);
	bb_put(b, buf->clock, strlen(buf->clock));
	bb_put(b, "]", 1);
}

static struct wbuffer *cur_buffer(struct tracedat_writer *w)
{
	return &VEC_AT(&w->buffers, struct wbuffer, w->buffers.len - 1);
}

/* ---- version 6 ------------------------------------------------------------------------------- */

static uint32_t v6_buffer_option_size(const char *name)
{
	return 6 + 8 + (uint32_t) strlen(name) + 1;
}

/*
 * The v6 head (reference section 2): file header, metadata parts, CPU count, the options
 * block (TRACECLOCK, the caller's options, a BUFFER option per instance, DONE without size),
 * "flyrecord", the top buffer's CPU table (offset and size 0 for CPUs without data) and, when
 * TRACECLOCK was written, the clock text.
 */
static void v6_head(const struct tracedat_writer *w, struct bb *b)
{
	const struct wbuffer *top = &VEC_AT(&w->buffers, struct wbuffer, 0);
	uint8_t hb[2] = {w->o.bo == TK_BYTE_ORDER_BE, (uint8_t) w->o.long_size};
	unsigned int id;
	uint32_t cpu;
	size_t i, k;

	bb_put(b, "\x17\x08\x44tracing6", 12);
	bb_put(b, hb, 2);
	bb_u32(b, w->o.page_size);
	for (id = TRACEDAT_OPTION_HEADER_INFO; id <= TRACEDAT_OPTION_CMDLINES; id++)
		part_payload(w, id, b);
	bb_u32(b, w->cpus);
	bb_put(b, "options  ", 10);
	user_options(w, b);
	for (i = 1; i < w->buffers.len; i++) {
		const struct wbuffer *ib = &VEC_AT(&w->buffers, struct wbuffer, i);

		bb_u16(b, TRACEDAT_OPTION_BUFFER);
		bb_u32(b, v6_buffer_option_size(ib->name) - 6);
		bb_u64(b, ib->start);
		bb_cstr(b, ib->name);
	}
	bb_u16(b, TRACEDAT_OPTION_DONE);
	bb_put(b, "flyrecord", 10);
	for (cpu = 0, k = 0; cpu < w->cpus; cpu++) {
		const struct wcpu *c =
			k < top->cpus.len ? &VEC_AT(&top->cpus, struct wcpu, k) : NULL;

		if (c && c->cpu == cpu) {
			bb_u64(b, c->offset);
			bb_u64(b, c->size);
			k++;
		} else {
			bb_u64(b, 0);
			bb_u64(b, 0);
		}
	}
	if (w->part_set[PART_CLOCK])
		clock_blob_v6(top, b);
}

/* An instance's own "flyrecord" marker, CPU table (filled in by v6_end_instance) and clock. */
static enum tk_status v6_start_instance(struct tracedat_writer *w, struct wbuffer *buf)
{
	struct bb b = {.bo = w->o.bo};
	enum tk_status st;

	buf->start = w->pos;
	bb_put(&b, "flyrecord", 10);
	if (w->part_set[PART_CLOCK])
		clock_blob_v6(buf, &b);
	if (b.nomem) {
		bb_fini(&b);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	}
	st = out_write(w, b.p, 10);
	if (st >= 0)
		st = out_zeros(w, (uint64_t) w->cpus * 16);
	if (st >= 0)
		st = out_write(w, b.p + 10, b.len - 10);
	bb_fini(&b);
	return st;
}

static enum tk_status v6_end_instance(struct tracedat_writer *w, const struct wbuffer *buf)
{
	uint8_t *table;
	enum tk_status st;
	size_t i;

	if (!buf->cpus.len)
		return TK_OK;
	table = calloc(w->cpus, 16);
	if (!table)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s, cpus=%" PRIu32,
			       w->path, w->cpus);
	for (i = 0; i < buf->cpus.len; i++) {
		const struct wcpu *c = &VEC_AT(&buf->cpus, struct wcpu, i);

		tk_store_u64(table + 16 * (size_t) c->cpu, c->offset, w->o.bo);
		tk_store_u64(table + 16 * (size_t) c->cpu + 8, c->size, w->o.bo);
	}
	st = out_patch(w, buf->start + 10, table, (size_t) w->cpus * 16);
	free(table);
	return st;
}

/* ---- version 7 ------------------------------------------------------------------------------- */

/* A string of the v7 string table; its offset there, the section description id. */
static enum tk_status add_string(struct tracedat_writer *w, const char *s, uint32_t *id)
{
	size_t n = strlen(s) + 1;

	if (w->strings.len > UINT32_MAX - n || vec_reserve(&w->strings, 1, n) < 0)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat strings: path=%s", w->path);
	*id = (uint32_t) w->strings.len;
	memcpy((char *) w->strings.data + w->strings.len, s, n);
	w->strings.len += n;
	return TK_OK;
}

static enum tk_status section_header(struct tracedat_writer *w, uint16_t id, int compress,
				     uint32_t desc, uint64_t size)
{
	uint8_t h[TRACEDAT_SECTION_HEADER_SIZE];

	tk_store_u16(h, id, w->o.bo);
	tk_store_u16(h + 2, compress ? TRACEDAT_SEC_FL_COMPRESS : 0, w->o.bo);
	tk_store_u32(h + 4, desc, w->o.bo);
	tk_store_u64(h + 8, size, w->o.bo);
	return out_write(w, h, sizeof(h));
}

/* A section holding @n bytes, compressed as one block when the file is compressed. */
static enum tk_status v7_section(struct tracedat_writer *w, uint16_t id, uint32_t desc,
				 const uint8_t *payload, size_t n)
{
	uint8_t sizes[8];
	enum tk_status st;
	size_t z = 0;

	if (w->o.comp == TRACEDAT_COMP_NONE) {
		st = section_header(w, id, 0, desc, n);
		return st < 0 ? st : out_write(w, payload, n);
	}
	if (n > TRACEDAT_MAX_BLOCK)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot write trace.dat section: path=%s, id=%u (%s), size=%zu, "
			       "reason=compressed metadata is limited to %u bytes",
			       w->path, id, tracedat_option_name(id), n, TRACEDAT_MAX_BLOCK);
	st = compress_block(w, payload, n, &z);
	if (st < 0)
		return TK_FAIL(st, "Cannot write trace.dat section: path=%s, id=%u (%s)", w->path,
			       id, tracedat_option_name(id));
	tk_store_u32(sizes, (uint32_t) z, w->o.bo);
	tk_store_u32(sizes + 4, (uint32_t) n, w->o.bo);
	st = section_header(w, id, 1, desc, 8 + (uint64_t) z);
	if (st >= 0)
		st = out_write(w, sizes, 8);
	return st < 0 ? st : out_write(w, w->zbuf, z);
}

/*
 * An options section (id 0, never compressed, as trace-cmd writes them) with @opts and a DONE
 * option whose "next" is filled in when another options section follows; the one before
 * now links here (the first is named by the file header at close).
 */
static enum tk_status v7_options_section(struct tracedat_writer *w, const struct bb *opts)
{
	uint8_t done[V7_DONE_SIZE];
	uint64_t at = w->pos;
	enum tk_status st;
	uint32_t desc;

	if (opts->nomem)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat options: path=%s", w->path);
	st = add_string(w, "options", &desc);
	if (st < 0)
		return st;
	if (w->v7_link)
		st = out_patch_u64(w, w->v7_link, at);
	else
		w->v7_first = at;
	if (st >= 0)
		st = section_header(w, TRACEDAT_OPTION_DONE, 0, desc, opts->len + V7_DONE_SIZE);
	if (st >= 0)
		st = out_write(w, opts->p, opts->len);
	tk_store_u16(done, TRACEDAT_OPTION_DONE, w->o.bo);
	tk_store_u32(done + 2, 8, w->o.bo);
	tk_store_u64(done + 6, 0, w->o.bo);
	w->v7_link = w->pos + 6;
	return st < 0 ? st : out_write(w, done, sizeof(done));
}

/*
 * The metadata sections (16 to 21), then the first options section: their offsets, the
 * caller's options and CPUCOUNT, in trace-cmd record's order (reference section 4).
 */
static enum tk_status v7_metadata(struct tracedat_writer *w)
{
	static const char *const desc[6] = {"headers",	"ftrace events", "events format",
					    "kallsyms", "printk",	 "command lines"};
	struct bb opts = {.bo = w->o.bo};
	uint64_t sec[6];
	enum tk_status st = TK_OK;
	unsigned int k;
	uint32_t id;

	for (k = 0; k < 6 && st >= 0; k++) {
		struct bb b = {.bo = w->o.bo};

		part_payload(w, TRACEDAT_OPTION_HEADER_INFO + k, &b);
		sec[k] = w->pos;
		st = b.nomem ? TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path)
			     : add_string(w, desc[k], &id);
		if (st >= 0)
			st = v7_section(w, (uint16_t) (TRACEDAT_OPTION_HEADER_INFO + k), id, b.p,
					b.len);
		bb_fini(&b);
	}
	if (st < 0)
		return st;
	for (k = 0; k < 6; k++) {
		bb_u16(&opts, (uint16_t) (TRACEDAT_OPTION_HEADER_INFO + k));
		bb_u32(&opts, 8);
		bb_u64(&opts, sec[k]);
	}
	user_options(w, &opts);
	bb_u16(&opts, TRACEDAT_OPTION_CPUCOUNT);
	bb_u32(&opts, 4);
	bb_u32(&opts, w->cpus);
	st = v7_options_section(w, &opts);
	bb_fini(&opts);
	return st;
}

/* A flyrecord buffer section, "buffer flyrecord NAME"; its size is patched at its end. */
static enum tk_status v7_start_buffer(struct tracedat_writer *w, struct wbuffer *buf)
{
	enum tk_status st;
	uint32_t desc;
	char *s;

	s = malloc(strlen(buf->name) + sizeof("buffer flyrecord "));
	if (!s)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	strcpy(s, "buffer flyrecord ");
	strcat(s, buf->name);
	st = add_string(w, s, &desc);
	free(s);
	if (st < 0)
		return st;
	buf->start = w->pos;
	return section_header(w, TRACEDAT_OPTION_BUFFER, w->o.comp != TRACEDAT_COMP_NONE, desc, 0);
}

/*
 * The end of a buffer section: its size, then an options section with its BUFFER option
 * (section offset, name, clock, page size and, per CPU with data, cpu, offset and size).
 */
static enum tk_status v7_end_buffer(struct tracedat_writer *w, const struct wbuffer *buf)
{
	struct bb o = {.bo = w->o.bo};
	enum tk_status st;
	uint32_t size;
	size_t i;

	st = out_patch_u64(w, buf->start + 8, w->pos - buf->start - TRACEDAT_SECTION_HEADER_SIZE);
	if (st < 0)
		return st;
	size = 8 + (uint32_t) strlen(buf->name) + 1 + (uint32_t) strlen(buf->clock) + 1 + 8 +
	       20 * (uint32_t) buf->cpus.len;
	bb_u16(&o, TRACEDAT_OPTION_BUFFER);
	bb_u32(&o, size);
	bb_u64(&o, buf->start);
	bb_cstr(&o, buf->name);
	bb_cstr(&o, buf->clock);
	bb_u32(&o, w->o.page_size);
	bb_u32(&o, (uint32_t) buf->cpus.len);
	for (i = 0; i < buf->cpus.len; i++) {
		const struct wcpu *c = &VEC_AT(&buf->cpus, struct wcpu, i);

		bb_u32(&o, c->cpu);
		bb_u64(&o, c->offset);
		bb_u64(&o, c->size);
	}
	st = v7_options_section(w, &o);
	bb_fini(&o);
	return st;
}

/* The string table (compressed when the file is) and the header's first-options offset. */
static enum tk_status v7_finish(struct tracedat_writer *w)
{
	enum tk_status st;
	uint32_t desc;

	st = add_string(w, "strings", &desc);
	if (st >= 0)
		st = v7_section(w, TRACEDAT_OPTION_STRINGS, desc, w->strings.data, w->strings.len);
	if (st >= 0)
		st = out_patch_u64(w, w->v7_head_link, w->v7_first);
	return st;
}

/* ---- buffers --------------------------------------------------------------------------------- */

static enum tk_status buffer_push(struct tracedat_writer *w, const char *name, const char *clock)
{
	struct wbuffer *b = vec_push(&w->buffers, sizeof(*b));

	if (!b)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	b->last_cpu = -1;
	b->name = strdup(name);
	b->clock = strdup(clock);
	if (!b->name || !b->clock)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	return TK_OK;
}

/*
 * The metadata is complete: v6 measures its head and moves past the room it needs, v7 writes
 * the metadata sections and the first options section; both start the top buffer. @at_close:
 * no data will follow, so v6 needs no room for instances.
 */
static enum tk_status begin_data(struct tracedat_writer *w, int at_close)
{
	struct bb head = {.bo = w->o.bo, .count_only = 1};
	enum tk_status st;
	uint64_t room;

	if (w->state != WS_META)
		return TK_OK;
	w->state = WS_DATA;
	st = buffer_push(w, "", w->clock_name ? w->clock_name : "local");
	if (st < 0)
		return st;
	if (w->o.version == 7) {
		st = v7_metadata(w);
		return st < 0 ? st : v7_start_buffer(w, cur_buffer(w));
	}
	v6_head(w, &head);
	w->v6_head = head.len;
	room = at_close ? head.len : head.len + V6_HEAD_ROOM;
	w->v6_room = (room + w->o.page_size - 1) / w->o.page_size * w->o.page_size;
	return out_seek(w, w->v6_room);
}

static enum tk_status end_buffer(struct tracedat_writer *w)
{
	struct wbuffer *b = cur_buffer(w);

	if (w->o.version == 7)
		return v7_end_buffer(w, b);
	return w->buffers.len > 1 ? v6_end_instance(w, b) : TK_OK;
}

static enum tk_status start_instance(struct tracedat_writer *w, const char *name, const char *clock)
{
	enum tk_status st;
	char *cname = NULL;
	size_t i;

	if (!name[0])
		return TK_FAIL(
			TK_ERR_INVAL,
			"Cannot start trace.dat buffer: path=%s, reason=an instance needs a name",
			w->path);
	for (i = 0; i < w->buffers.len; i++)
		if (!strcmp(VEC_AT(&w->buffers, struct wbuffer, i).name, name))
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot start trace.dat buffer: path=%s, name=%s, "
				       "reason=a buffer of that name was written already",
				       w->path, name);
	if (w->o.version == 6) {
		uint32_t n = v6_buffer_option_size(name);

		if (w->v6_head + w->v6_extra + n > w->v6_room)
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot start trace.dat buffer: path=%s, name=%s, "
				       "reason=no room left in the version 6 options (%u bytes)",
				       w->path, name, V6_HEAD_ROOM);
		w->v6_extra += n;
	}
	if (clock) {
		st = clock_name_of((const uint8_t *) clock, strlen(clock), &cname);
		if (st < 0)
			return st;
	}
	st = buffer_push(w, name, cname ? cname : w->clock_name ? w->clock_name : "local");
	free(cname);
	if (st < 0)
		return st;
	if (w->o.version == 7)
		return v7_start_buffer(w, cur_buffer(w));
	return v6_start_instance(w, cur_buffer(w));
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
	st = out_align(w, w->o.page_size);
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
	return out_write(w, zero, 4);
}

static enum tk_status cpu_begin(struct tracedat_writer *w, uint32_t cpu)
{
	struct wbuffer *b;
	enum tk_status st;

	if (w->state == WS_CPU)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot begin trace.dat CPU: path=%s, cpu=%" PRIu32
			       ", reason=CPU %" PRIu32 " was not ended",
			       w->path, cpu, w->cpu);
	if (cpu >= w->cpus)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot begin trace.dat CPU: path=%s, cpu=%" PRIu32 ", cpus=%" PRIu32
			       ", reason=the CPU is not below the CPU count",
			       w->path, cpu, w->cpus);
	st = begin_data(w, 0);
	if (st < 0)
		return st;
	b = cur_buffer(w);
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
	w->state = WS_CPU;
	return TK_OK;
}

static enum tk_status not_in_cpu(const struct tracedat_writer *w, const char *what)
{
	return TK_FAIL(TK_ERR_INVAL,
		       "Cannot write trace.dat %s: path=%s, "
		       "reason=no CPU begun (tracedat_writer_cpu_begin)",
		       what, w->path);
}

static enum tk_status cpu_page(struct tracedat_writer *w, const void *page, size_t size)
{
	enum tk_status st;

	if (w->state != WS_CPU)
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
		st = out_write(w, page, size);
		return st < 0 ? st : out_zeros(w, w->o.page_size - size);
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

	st = out_flush(w);
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
					return write_fail(w, err);
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
			r = read(fd, w->buf + w->len, OUT_BUF_SIZE - w->len);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return read_fail(w, fd, errno);
			if (r == 0)
				return TK_OK;
			w->len += (size_t) r;
			w->pos += (uint64_t) r;
			if (w->len == OUT_BUF_SIZE) {
				st = out_flush(w);
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

static enum tk_status cpu_fd(struct tracedat_writer *w, int fd)
{
	uint64_t total = 0, rem;
	enum tk_status st;

	if (w->state != WS_CPU)
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
		return out_zeros(w, w->o.page_size - rem);
	memset(w->chunk + w->chunk_len, 0, w->o.page_size - rem);
	w->chunk_len += w->o.page_size - rem;
	return w->chunk_len == w->chunk_cap ? chunk_flush(w) : TK_OK;
}

static enum tk_status cpu_end(struct tracedat_writer *w)
{
	struct wcpu *c;
	enum tk_status st;

	if (w->state != WS_CPU)
		return not_in_cpu(w, "CPU end");
	w->state = WS_DATA;
	if (!w->cpu_started)
		return TK_OK;
	if (!w->cpu_pages) /* nothing came: the CPU has no data, as if never begun */
		return out_rewind(w, w->cpu_before);
	if (w->o.comp != TRACEDAT_COMP_NONE) {
		st = chunk_flush(w);
		if (st >= 0)
			st = out_patch_u32(w, w->cpu_off, w->chunks);
		if (st < 0)
			return st;
	}
	c = vec_push(&cur_buffer(w)->cpus, sizeof(*c));
	if (!c)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	c->cpu = w->cpu;
	c->offset = w->cpu_off;
	c->size = w->pos - w->cpu_off;
	return TK_OK;
}

/* ---- metadata calls -------------------------------------------------------------------------- */

static enum tk_status meta_check(const struct tracedat_writer *w, const char *what)
{
	if (w->state != WS_META)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot set trace.dat %s: path=%s, "
			       "reason=the data has begun (metadata comes first)",
			       what, w->path);
	return TK_OK;
}

static enum tk_status blob_copy(const struct tracedat_writer *w, struct wblob *b, const void *data,
				size_t size)
{
	b->data = malloc(size ? size : 1);
	if (!b->data)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot copy trace.dat metadata: path=%s, size=%zu",
			       w->path, size);
	if (size)
		memcpy(b->data, data, size);
	b->size = size;
	return TK_OK;
}

static enum tk_status set_part(struct tracedat_writer *w, enum part k, const void *data,
			       size_t size)
{
	enum tk_status st = meta_check(w, part_names[k]);

	if (st < 0)
		return st;
	if (w->part_set[k])
		return TK_FAIL(TK_ERR_INVAL, "Cannot set trace.dat %s: path=%s, reason=set twice",
			       part_names[k], w->path);
	if ((k == PART_KALLSYMS || k == PART_PRINTK || k == PART_CLOCK) && size >= UINT32_MAX)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot set trace.dat %s: path=%s, size=%zu, "
			       "reason=its length is a 32-bit field",
			       part_names[k], w->path, size);
	if (k == PART_CLOCK) {
		st = clock_name_of(data, size, &w->clock_name);
		if (st < 0)
			return st;
	}
	st = blob_copy(w, &w->part[k], data, size);
	if (st >= 0)
		w->part_set[k] = 1;
	return st;
}

static enum tk_status add_format(struct tracedat_writer *w, struct vec *v, const char *what,
				 const void *data, size_t size)
{
	struct wblob *b;
	enum tk_status st = meta_check(w, what);

	if (st < 0)
		return st;
	if (v->len >= UINT32_MAX)
		return TK_FAIL(TK_ERR_INVAL, "Cannot add trace.dat %s: path=%s, reason=too many",
			       what, w->path);
	b = vec_push(v, sizeof(*b));
	if (!b)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add trace.dat %s: path=%s", what, w->path);
	st = blob_copy(w, b, data, size);
	if (st < 0)
		v->len--;
	return st;
}

static enum tk_status add_event_format(struct tracedat_writer *w, const char *system,
				       const void *data, size_t size)
{
	struct wsystem *s = NULL;
	enum tk_status st = meta_check(w, "event format");
	size_t i;

	if (st < 0)
		return st;
	for (i = 0; i < w->systems.len && !s; i++)
		if (!strcmp(VEC_AT(&w->systems, struct wsystem, i).name, system))
			s = &VEC_AT(&w->systems, struct wsystem, i);
	if (!s) {
		s = vec_push(&w->systems, sizeof(*s));
		if (!s)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot add trace.dat event format: path=%s",
				       w->path);
		s->name = strdup(system);
		if (!s->name) {
			w->systems.len--;
			return TK_FAIL(TK_ERR_NOMEM, "Cannot add trace.dat event format: path=%s",
				       w->path);
		}
	}
	return add_format(w, &s->formats, "event format", data, size);
}

/* Options the writer makes itself, and section offsets that would point nowhere. */
static int option_reserved(uint16_t id)
{
	switch (id) {
	case TRACEDAT_OPTION_DONE:
	case TRACEDAT_OPTION_BUFFER:
	case TRACEDAT_OPTION_TRACECLOCK:
	case TRACEDAT_OPTION_CPUCOUNT:
	case TRACEDAT_OPTION_BUFFER_TEXT:
	case TRACEDAT_OPTION_BTF_FILE:
	case TRACEDAT_OPTION_MODULES_FILE:
		return 1;
	}
	return id >= TRACEDAT_OPTION_STRINGS && id <= TRACEDAT_OPTION_CMDLINES;
}

static enum tk_status add_option(struct tracedat_writer *w, uint16_t id, const void *data,
				 size_t size)
{
	struct woption *o;
	enum tk_status st = meta_check(w, "option");

	if (st < 0)
		return st;
	if (option_reserved(id))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add trace.dat option: path=%s, id=%u (%s), "
			       "reason=the writer makes this option itself",
			       w->path, id, tracedat_option_name(id));
	if (size > UINT32_MAX)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add trace.dat option: path=%s, id=%u (%s), size=%zu, "
			       "reason=larger than 4 GiB",
			       w->path, id, tracedat_option_name(id), size);
	o = vec_push(&w->options, sizeof(*o));
	if (!o)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add trace.dat option: path=%s", w->path);
	o->id = id;
	st = blob_copy(w, &o->b, data, size);
	if (st < 0)
		w->options.len--;
	return st;
}

static enum tk_status set_cpus(struct tracedat_writer *w, uint32_t cpus)
{
	enum tk_status st = meta_check(w, "CPU count");

	if (st < 0)
		return st;
	if (w->cpus_set)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot set trace.dat CPU count: path=%s, reason=set twice",
			       w->path);
	if (cpus > MAX_CPUS)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot set trace.dat CPU count: path=%s, cpus=%" PRIu32
			       ", reason=more than %u",
			       w->path, cpus, MAX_CPUS);
	w->cpus = cpus;
	w->cpus_set = 1;
	return TK_OK;
}

/* ---- public calls ---------------------------------------------------------------------------- */

/* The status of a call; its failure is remembered so that every later call fails too. */
static enum tk_status settle(struct tracedat_writer *w, enum tk_status st)
{
	if (st < 0 && !w->failed)
		w->failed = st;
	return st;
}

static enum tk_status failed_before(const struct tracedat_writer *w)
{
	return TK_FAIL(w->failed, "Cannot write trace.dat: path=%s, reason=an earlier call failed",
		       w->path);
}

static enum tk_status check_opts(const struct tracedat_write_opts *o)
{
	const char *reason = NULL;

	if (o->version != 6 && o->version != 7)
		reason = "version is neither 6 nor 7";
	else if (o->comp != TRACEDAT_COMP_NONE && o->comp != TRACEDAT_COMP_ZSTD &&
		 o->comp != TRACEDAT_COMP_ZLIB)
		reason = "unknown compression";
	else if (o->version == 6 && o->comp != TRACEDAT_COMP_NONE)
		reason = "version 6 has no compression";
	else if (o->bo != TK_BYTE_ORDER_LE && o->bo != TK_BYTE_ORDER_BE)
		reason = "unknown byte order";
	else if (o->long_size != 4 && o->long_size != 8)
		reason = "long size is neither 4 nor 8";
	else if (o->page_size < 4096 || o->page_size > TRACEDAT_MAX_PAGE_SIZE ||
		 (o->page_size & (o->page_size - 1)))
		reason = "page size is not a power of two from 4096 to 64 MiB";
	else if (o->comp == TRACEDAT_COMP_ZSTD && o->compression_level &&
		 (o->compression_level < ZSTD_minCLevel() ||
		  o->compression_level > ZSTD_maxCLevel()))
		reason = "zstd compression level out of range";
	else if (o->comp == TRACEDAT_COMP_ZLIB &&
		 (o->compression_level < 0 || o->compression_level > 9))
		reason = "zlib compression level out of range (1 to 9)";
	if (reason)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot use trace.dat writer options: version=%u, page-size=%" PRIu32
			       ", long-size=%u, reason=%s",
			       o->version, o->page_size, o->long_size, reason);
	return TK_OK;
}

/* v7 file header: magic, version, byte order, long size, page size, compression, options. */
static enum tk_status v7_header(struct tracedat_writer *w)
{
	struct bb b = {.bo = w->o.bo};
	uint8_t hb[2] = {w->o.bo == TK_BYTE_ORDER_BE, (uint8_t) w->o.long_size};
	enum tk_status st;

	bb_put(&b, "\x17\x08\x44tracing7", 12);
	bb_put(&b, hb, 2);
	bb_u32(&b, w->o.page_size);
	switch (w->o.comp) {
	case TRACEDAT_COMP_ZSTD:
		bb_cstr(&b, "zstd");
		bb_cstr(&b, ZSTD_versionString());
		break;
	case TRACEDAT_COMP_ZLIB:
		bb_cstr(&b, "zlib");
		bb_cstr(&b, zlibVersion());
		break;
	default:
		bb_cstr(&b, "none");
		bb_cstr(&b, "");
		break;
	}
	w->v7_head_link = b.len;
	bb_u64(&b, 0); /* the first options section, written at close */
	st = out_bb(w, &b);
	bb_fini(&b);
	return st;
}

enum tk_status tracedat_writer_open(struct tracedat_writer **out, const char *path,
				    const struct tracedat_write_opts *opts)
{
	static const struct tracedat_write_opts defaults = TRACEDAT_WRITE_OPTS_INIT;
	struct tracedat_writer *w;
	enum tk_status st;

	TK_ASSERT_PRE(out && path);
	st = check_opts(opts ? opts : &defaults);
	if (st < 0)
		return TK_FAIL(st, "Cannot create trace.dat: path=%s", path);
	w = calloc(1, sizeof(*w));
	if (!w)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create trace.dat: path=%s", path);
	w->fd = -1;
	w->o = opts ? *opts : defaults;
	w->path = strdup(path);
	w->buf = malloc(OUT_BUF_SIZE);
	if (!w->path || !w->buf) {
		tracedat_writer_destroy(w);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create trace.dat: path=%s", path);
	}
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (w->fd < 0) {
		int err = errno;

		tracedat_writer_destroy(w);
		return TK_FAIL(TK_ERR_IO, "Cannot create trace.dat: path=%s, errno=%s", path,
			       strerror(err));
	}
	if (w->o.version == 7) {
		st = v7_header(w);
		if (st < 0) {
			tracedat_writer_destroy(w);
			return st;
		}
	}
	*out = w;
	return TK_OK;
}

enum tk_status tracedat_writer_set_header_page(struct tracedat_writer *w, const void *data,
					       size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, PART_HEADER_PAGE, data, size));
}

enum tk_status tracedat_writer_set_header_event(struct tracedat_writer *w, const void *data,
						size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, PART_HEADER_EVENT, data, size));
}

enum tk_status tracedat_writer_add_ftrace_format(struct tracedat_writer *w, const void *data,
						 size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, add_format(w, &w->ftrace, "ftrace format", data, size));
}

enum tk_status tracedat_writer_add_event_format(struct tracedat_writer *w, const char *system,
						const void *data, size_t size)
{
	TK_ASSERT_PRE(w && system && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, add_event_format(w, system, data, size));
}

enum tk_status tracedat_writer_set_kallsyms(struct tracedat_writer *w, const void *data,
					    size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, PART_KALLSYMS, data, size));
}

enum tk_status tracedat_writer_set_printk(struct tracedat_writer *w, const void *data, size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, PART_PRINTK, data, size));
}

enum tk_status tracedat_writer_set_cmdlines(struct tracedat_writer *w, const void *data,
					    size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, PART_CMDLINES, data, size));
}

enum tk_status tracedat_writer_set_trace_clock(struct tracedat_writer *w, const void *data,
					       size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, PART_CLOCK, data, size));
}

enum tk_status tracedat_writer_add_option(struct tracedat_writer *w, uint16_t id, const void *data,
					  size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, add_option(w, id, data, size));
}

enum tk_status tracedat_writer_set_cpus(struct tracedat_writer *w, uint32_t cpus)
{
	TK_ASSERT_PRE(w);
	if (w->failed)
		return failed_before(w);
	return settle(w, set_cpus(w, cpus));
}

enum tk_status tracedat_writer_cpu_begin(struct tracedat_writer *w, uint32_t cpu)
{
	TK_ASSERT_PRE(w);
	if (w->failed)
		return failed_before(w);
	return settle(w, cpu_begin(w, cpu));
}

enum tk_status tracedat_writer_cpu_page(struct tracedat_writer *w, const void *page, size_t size)
{
	TK_ASSERT_PRE(w && (page || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, cpu_page(w, page, size));
}

enum tk_status tracedat_writer_cpu_fd(struct tracedat_writer *w, int fd)
{
	TK_ASSERT_PRE(w && fd >= 0);
	if (w->failed)
		return failed_before(w);
	return settle(w, cpu_fd(w, fd));
}

enum tk_status tracedat_writer_cpu_end(struct tracedat_writer *w)
{
	TK_ASSERT_PRE(w);
	if (w->failed)
		return failed_before(w);
	return settle(w, cpu_end(w));
}

static enum tk_status buffer_begin(struct tracedat_writer *w, const char *name, const char *clock)
{
	enum tk_status st;

	if (w->state == WS_CPU)
		return TK_FAIL(
			TK_ERR_INVAL,
			"Cannot start trace.dat buffer: path=%s, name=%s, reason=CPU %" PRIu32
			" was not ended",
			w->path, name, w->cpu);
	st = begin_data(w, 0);
	if (st >= 0)
		st = end_buffer(w);
	return st < 0 ? st : start_instance(w, name, clock);
}

enum tk_status tracedat_writer_buffer_begin(struct tracedat_writer *w, const char *name,
					    const char *clock)
{
	TK_ASSERT_PRE(w && name);
	if (w->failed)
		return failed_before(w);
	return settle(w, buffer_begin(w, name, clock));
}

/*
 * Cut what lies past @end: bytes of an empty CPU that were flushed before it was found empty
 * (readers of v7 scan sections up to the end of the file). Only regular files are cut.
 */
static enum tk_status cut_tail(struct tracedat_writer *w, uint64_t end)
{
	struct stat sb;

	if (w->high <= end || fstat(w->fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		return TK_OK;
	if (ftruncate(w->fd, (off_t) end) < 0)
		return write_fail(w, errno);
	return TK_OK;
}

static enum tk_status finish(struct tracedat_writer *w)
{
	struct bb head = {.bo = w->o.bo};
	enum tk_status st;
	uint64_t end = 0;

	if (w->state == WS_CPU)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot finish trace.dat: path=%s, reason=CPU %" PRIu32
			       " was not ended",
			       w->path, w->cpu);
	st = begin_data(w, 1);
	if (st >= 0)
		st = end_buffer(w);
	if (st >= 0 && w->o.version == 7)
		st = v7_finish(w);
	end = w->pos;
	if (st >= 0 && w->o.version == 6) {
		/* the head, now that the instances are known, in the room left for it */
		v6_head(w, &head);
		if (head.len > w->v6_room)
			st = TK_FAIL(TK_ERR_INVAL,
				     "Cannot finish trace.dat: path=%s, "
				     "reason=the version 6 head outgrew its room",
				     w->path);
		if (st >= 0)
			st = out_seek(w, 0);
		if (st >= 0)
			st = out_bb(w, &head);
		bb_fini(&head);
	}
	if (st >= 0)
		st = out_flush(w);
	if (st >= 0)
		st = cut_tail(w, end > w->pos ? end : w->pos);
	if (st >= 0) {
		int fd = w->fd;

		w->fd = -1;
		if (close(fd) < 0)
			st = TK_FAIL(TK_ERR_IO, "Cannot close trace.dat: path=%s, errno=%s",
				     w->path, strerror(errno));
	}
	return st;
}

enum tk_status tracedat_writer_close(struct tracedat_writer *w)
{
	enum tk_status st;

	if (!w)
		return TK_OK;
	st = w->failed ? failed_before(w) : finish(w);
	tracedat_writer_destroy(w);
	return st;
}

void tracedat_writer_destroy(struct tracedat_writer *w)
{
	size_t i, j;

	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	for (i = 0; i < PART_N; i++)
		free(w->part[i].data);
	for (i = 0; i < w->ftrace.len; i++)
		free(VEC_AT(&w->ftrace, struct wblob, i).data);
	vec_fini(&w->ftrace);
	for (i = 0; i < w->systems.len; i++) {
		struct wsystem *s = &VEC_AT(&w->systems, struct wsystem, i);

		for (j = 0; j < s->formats.len; j++)
			free(VEC_AT(&s->formats, struct wblob, j).data);
		vec_fini(&s->formats);
		free(s->name);
	}
	vec_fini(&w->systems);
	for (i = 0; i < w->options.len; i++)
		free(VEC_AT(&w->options, struct woption, i).b.data);
	vec_fini(&w->options);
	for (i = 0; i < w->buffers.len; i++) {
		struct wbuffer *b = &VEC_AT(&w->buffers, struct wbuffer, i);

		free(b->name);
		free(b->clock);
		vec_fini(&b->cpus);
	}
	vec_fini(&w->buffers);
	vec_fini(&w->strings);
	free(w->clock_name);
	free(w->chunk);
	free(w->zbuf);
	ZSTD_freeCCtx(w->zstd);
	if (w->zlib_ready)
		deflateEnd(&w->zlib);
	free(w->buf);
	free(w->path);
	free(w);
}
