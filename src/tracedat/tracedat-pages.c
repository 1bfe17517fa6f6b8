// SPDX-License-Identifier: MIT
/*
 * Reading the per-CPU ring-buffer pages of a trace.dat buffer, and the text of latency
 * buffers (reference section 4, "Compression").
 *
 * Uncompressed pages are pointers into the mapping; once the reader is past a region it asks
 * the kernel to drop it, so resident memory stays flat on files of many GiB. Compressed data
 * is a run of chunks (ten pages each when trace-cmd writes them), inflated one at a time into
 * a buffer of the reader: memory is bounded by the largest chunk, never by the file.
 *
 * Inflating takes as long as reading the events, so once a reader is past its first chunk a
 * thread of its own inflates the next chunk into a second buffer while the caller reads the
 * current one (read-ahead). The caller takes the buffer when it needs the next chunk and
 * gives the one it is done with back; at most one batch is read ahead, and failures found
 * ahead are reported when the caller reaches them, exactly as without the thread. There are
 * at most as many such threads in a process as cores (at least two): readers beyond that
 * inflate in the caller's thread, as before.
 */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../common/error.h"
#include "../common/worker.h"
#include "tracedat-priv.h"

/* Drop mapped data behind a reader in steps of this size, not page by page. */
#define RELEASE_STEP (8u << 20)

/* ---- decompression ------------------------------------------------------------------------ */

void tracedat_inflater_init(struct tracedat_inflater *z, enum tracedat_codec codec)
{
	memset(z, 0, sizeof(*z));
	z->codec = codec;
}

void tracedat_inflater_fini(struct tracedat_inflater *z)
{
	ZSTD_freeDCtx(z->zstd);
	if (z->zlib_ready)
		inflateEnd(&z->zlib);
	memset(z, 0, sizeof(*z));
}

/*
 * zstd: decode exactly the first frame, in one shot straight into @dst. Finding the frame's
 * end first is what skips the junk trace-cmd 3.0 left after it; decoding in one shot needs no
 * window buffer, so a hostile frame header cannot make zstd allocate its window.
 */
static enum tk_status inflate_zstd(struct tracedat_inflater *z, const uint8_t *src, size_t n,
				   uint8_t *dst, size_t cap, size_t *len, const char **reason)
{
	size_t frame, ret;

	if (!z->zstd) {
		z->zstd = ZSTD_createDCtx();
		if (!z->zstd) {
			*reason = "out of memory";
			return TK_ERR_NOMEM;
		}
	}
	frame = ZSTD_findFrameCompressedSize(src, n);
	if (ZSTD_isError(frame)) {
		*reason = ZSTD_getErrorName(frame);
		return TK_ERR_FORMAT;
	}
	ret = ZSTD_decompressDCtx(z->zstd, dst, cap, src, frame);
	if (ZSTD_isError(ret)) {
		*reason = ZSTD_getErrorCode(ret) == ZSTD_error_dstSize_tooSmall
				  ? "decompressed data larger than the size given"
				  : ZSTD_getErrorName(ret);
		return TK_ERR_FORMAT;
	}
	*len = ret;
	return TK_OK;
}

/* zlib: inflate the first stream; whatever follows its end is ignored. */
static enum tk_status inflate_zlib(struct tracedat_inflater *z, const uint8_t *src, size_t n,
				   uint8_t *dst, size_t cap, size_t *len, const char **reason)
{
	int ret;

	if (n > UINT32_MAX || cap > UINT32_MAX) {
		*reason = "block too large";
		return TK_ERR_FORMAT;
	}
	if (!z->zlib_ready) {
		memset(&z->zlib, 0, sizeof(z->zlib));
		if (inflateInit(&z->zlib) != Z_OK) {
			*reason = "out of memory";
			return TK_ERR_NOMEM;
		}
		z->zlib_ready = 1;
	} else if (inflateReset(&z->zlib) != Z_OK) {
		*reason = "cannot reset the zlib stream";
		return TK_ERR_FORMAT;
	}
	z->zlib.next_in = (Bytef *) src;
	z->zlib.avail_in = (uInt) n;
	z->zlib.next_out = dst;
	z->zlib.avail_out = (uInt) cap;
	ret = inflate(&z->zlib, Z_FINISH);
	if (ret == Z_STREAM_END) {
		*len = cap - z->zlib.avail_out;
		return TK_OK;
	}
	if (ret == Z_MEM_ERROR) {
		*reason = "out of memory";
		return TK_ERR_NOMEM;
	}
	if (ret == Z_BUF_ERROR || ret == Z_OK)
		*reason = z->zlib.avail_out == 0 ? "decompressed data larger than the size given"
						 : "compressed data ends inside the stream";
	else
		*reason = z->zlib.msg ? z->zlib.msg : "invalid zlib data";
	return TK_ERR_FORMAT;
}

enum tk_status tracedat_inflate(struct tracedat_inflater *z, const uint8_t *src, size_t n,
				uint8_t *dst, size_t cap, size_t *len, const char **reason)
{
	*len = 0;
	switch (z->codec) {
	case TRACEDAT_CODEC_ZSTD:
		return inflate_zstd(z, src, n, dst, cap, len, reason);
	case TRACEDAT_CODEC_ZLIB:
		return inflate_zlib(z, src, n, dst, cap, len, reason);
	case TRACEDAT_CODEC_NONE:
		*reason = "compressed data in a file without compression";
		return TK_ERR_FORMAT;
	default:
		*reason = "compression algorithm not supported";
		return TK_ERR_UNSUPPORTED;
	}
}

/* ---- chunks -------------------------------------------------------------------------------- */

enum tk_status tracedat_chunks_init(struct tracedat_chunks *w, const struct mfile *mf,
				    uint64_t offset, enum tk_byte_order bo, const char **reason)
{
	memset(w, 0, sizeof(*w));
	w->file = mf->data;
	w->file_size = mf->size;
	w->bo = bo;
	if (offset > w->file_size || w->file_size - offset < 4) {
		*reason = "chunk count runs past the end of the file";
		return TK_ERR_FORMAT;
	}
	w->left = tk_load_u32(w->file + offset, bo);
	w->pos = offset + 4;
	return TK_OK;
}

enum tk_status tracedat_chunks_next(struct tracedat_chunks *w, struct tracedat_chunk *c,
				    const char **reason)
{
	if (!w->left)
		return TK_END;
	if (w->file_size - w->pos < 8) {
		*reason = "chunk header runs past the end of the file";
		return TK_ERR_FORMAT;
	}
	c->offset = w->pos;
	c->zsize = tk_load_u32(w->file + w->pos, w->bo);
	c->usize = tk_load_u32(w->file + w->pos + 4, w->bo);
	if (c->zsize > w->file_size - w->pos - 8) {
		*reason = "compressed chunk runs past the end of the file";
		return TK_ERR_FORMAT;
	}
	c->zdata = w->file + w->pos + 8;
	w->pos += 8 + (uint64_t) c->zsize;
	w->left--;
	c->last = w->left == 0;
	return TK_OK;
}

/* ---- page reader --------------------------------------------------------------------------- */

/*
 * Read ahead this many inflated bytes at a time (whole chunks), to wake the thread seldom;
 * the first batch is AHEAD_FIRST, and each next one twice the one before up to AHEAD_BYTES,
 * so that a reader that stops soon (a time window) has not had much inflated for nothing.
 */
#define AHEAD_BYTES (512u << 10)
#define AHEAD_FIRST (64u << 10)
#define AHEAD_MAX   64 /* chunks in one batch */

/*
 * Inflated chunks, one after the other, then why no more could be had: TK_OK when the next
 * chunks were merely left for the next batch.
 */
struct chunk_buf {
	uint8_t *data;
	size_t cap;
	size_t len;
	uint32_t n;		     /* chunks */
	uint32_t at;		     /* the chunk being read */
	size_t start[AHEAD_MAX + 1]; /* where each chunk begins in data; start[n] = len */
	uint64_t offsets[AHEAD_MAX]; /* file offset of each chunk's header */
	uint64_t offset;	     /* of the failure when st < 0 */
	enum tk_status st;	     /* TK_OK, TK_END, or the failure */
	const char *reason;	     /* of a failure */
	uint8_t inflate;	     /* the failure is the decompressor's */
};

/* Read-ahead threads running in the process (limited in ahead_start()). */
static atomic_int n_ahead;

/* The read-ahead thread and the buffer it fills. */
struct ahead {
	struct worker wk;
	struct chunk_buf buf;
	int ready; /* buf holds the next chunk (or its failure) */
	int stop;
	int idle;     /* the thread waits for the buffer back: wake it */
	int waiting;  /* the reader waits for the buffer: wake it */
	size_t batch; /* bytes of the next batch: the thread's own */
};

struct tracedat_pages {
	struct tracedat *td;
	const struct tracedat_buffer *buf;
	const struct tracedat_cpu_data *cd;
	const struct mfile *mf;
	uint32_t page_size;
	uint8_t compressed;
	uint64_t pos, end; /* uncompressed: next page, end of the data */
	struct tracedat_chunks chunks;
	struct tracedat_inflater z; /* used by the read-ahead thread once it runs */
	struct chunk_buf cur;	    /* compressed: the chunk being read */
	size_t chunk_at;
	struct ahead *ahead; /* NULL until the second chunk, or when no thread could start */
	int ahead_failed;    /* no thread: inflate in the caller's thread */
	uint64_t last;	     /* tracedat_pages_offset() */
	uint64_t released;   /* mapped bytes before this were dropped by this reader */
	uint64_t sys_page;   /* the system's page size (madvise granularity) */
};

/*
 * Drop the mapped pages of this CPU's data that the reader has passed. Only whole pages
 * inside the data are dropped (another CPU's data may share the first or last page), and
 * pointers stay valid: a dropped page comes back from the page cache if touched.
 */
static void release_upto(struct tracedat_pages *pr, uint64_t off)
{
	uint64_t start, end, mask;

	if (!pr->mf->mapped || off < pr->released || off - pr->released < RELEASE_STEP)
		return;
	mask = pr->sys_page - 1;
	start = (pr->released + mask) & ~mask;
	end = off & ~mask;
	if (end > start && end <= pr->mf->size)
		madvise((void *) (pr->mf->data + start), (size_t) (end - start), MADV_DONTNEED);
	pr->released = off;
}

static enum tk_status pages_fail(const struct tracedat_pages *pr, uint64_t offset,
				 const char *reason)
{
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot read trace.dat CPU data: " TRACEDAT_BUF_FMT "cpu=%" PRIu32
		       ", offset=%" PRIu64 ", reason=%s",
		       TRACEDAT_BUF_ARGS(pr->buf), pr->cd->cpu, offset, reason);
}

enum tk_status tracedat_pages_open(struct tracedat *td, size_t buffer, size_t cpu,
				   struct tracedat_pages **out)
{
	struct tracedat_pages *pr;
	const char *reason = NULL;

	TK_ASSERT_PRE(td && out && buffer < td->info.n_buffers &&
		      cpu < td->info.buffers[buffer].n_cpus);
	pr = calloc(1, sizeof(*pr));
	if (!pr)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat CPU data");
	pr->td = td;
	pr->buf = &td->info.buffers[buffer];
	pr->cd = &pr->buf->cpus[cpu];
	pr->mf = &tracedat_priv(td)->mf;
	pr->page_size = pr->buf->page_size;
	pr->compressed = pr->buf->compressed;
	pr->pos = pr->cd->offset;
	pr->end = pr->cd->offset + pr->cd->size; /* no overflow: checked when opening */
	pr->last = pr->cd->offset;
	pr->released = pr->cd->offset;
	pr->sys_page = sysconf(_SC_PAGESIZE) > 0 ? (uint64_t) sysconf(_SC_PAGESIZE) : 4096;
	if (pr->compressed && pr->cd->size) {
		tracedat_inflater_init(&pr->z, tracedat_priv(td)->codec);
		if (tracedat_chunks_init(&pr->chunks, pr->mf, pr->cd->offset, td->info.bo,
					 &reason) < 0) {
			enum tk_status st = pages_fail(pr, pr->cd->offset, reason);

			tracedat_pages_close(pr);
			return st;
		}
	}
	*out = pr;
	return TK_OK;
}

/*
 * Inflate the next non-empty chunk into @b, or note in @b why not (no error is recorded
 * here: this may run in the read-ahead thread). Every chunk but the last holds whole pages;
 * the last may end with a short page, as an uncompressed file may.
 */
static void load_chunk(struct tracedat_pages *pr, struct chunk_buf *b)
{
	struct tracedat_chunk c;
	const char *reason = NULL;
	size_t got = 0;
	enum tk_status st;

	b->inflate = 0;
	b->reason = NULL;
	do {
		st = tracedat_chunks_next(&pr->chunks, &c, &reason);
		if (st == TK_END) {
			b->st = TK_END;
			return;
		}
		b->st = TK_ERR_FORMAT;
		b->offset = st < 0 ? pr->chunks.pos : c.offset;
		if (st < 0) {
			b->reason = reason;
			return;
		}
		if (c.usize > TRACEDAT_MAX_CHUNK) {
			b->reason = "chunk larger than 64 MiB uncompressed";
			return;
		}
		if (!c.last && c.usize % pr->page_size) {
			b->reason = "chunk size is not a multiple of the page size";
			return;
		}
	} while (c.usize == 0);
	if (c.usize > b->cap - b->len) {
		uint8_t *p = realloc(b->data, b->len + c.usize);

		if (!p) {
			b->st = TK_ERR_NOMEM;
			b->offset = c.usize;
			return;
		}
		b->data = p;
		b->cap = b->len + c.usize;
	}
	release_upto(pr, c.offset);
	st = tracedat_inflate(&pr->z, c.zdata, c.zsize, b->data + b->len, c.usize, &got, &reason);
	if (st < 0) {
		b->st = st;
		b->reason = reason;
		b->inflate = 1;
		return;
	}
	if (got != c.usize) {
		b->reason = "decompressed chunk shorter than its header says";
		return;
	}
	b->offsets[b->n] = c.offset;
	b->start[b->n++] = b->len;
	b->len += c.usize;
	b->start[b->n] = b->len;
	b->st = TK_OK;
}

/* Empty @b and fill it with chunks: at least one, up to @bytes (0: one only). */
static void load_batch(struct tracedat_pages *pr, struct chunk_buf *b, size_t bytes)
{
	b->len = 0;
	b->n = 0;
	b->at = 0;
	b->start[0] = 0;
	do
		load_chunk(pr, b);
	while (b->st == TK_OK && b->n < AHEAD_MAX && b->len < bytes);
}

/* The status of the chunk in @b, its failure recorded with causes. */
static enum tk_status chunk_status(const struct tracedat_pages *pr, const struct chunk_buf *b)
{
	if (b->st >= 0 || b->st == TK_END)
		return b->st;
	if (b->st == TK_ERR_NOMEM)
		return TK_FAIL(TK_ERR_NOMEM,
			       "Cannot read trace.dat CPU data: cpu=%" PRIu32
			       ", chunk-size=%" PRIu64,
			       pr->cd->cpu, b->offset);
	if (b->inflate)
		return TK_FAIL(b->st,
			       "Cannot decompress trace.dat CPU data: " TRACEDAT_BUF_FMT
			       "cpu=%" PRIu32 ", offset=%" PRIu64 ", compression=%s, reason=%s",
			       TRACEDAT_BUF_ARGS(pr->buf), pr->cd->cpu, b->offset,
			       pr->td->info.compression, b->reason);
	return pages_fail(pr, b->offset, b->reason);
}

static void *ahead_main(void *arg)
{
	struct tracedat_pages *pr = arg;
	struct ahead *a = pr->ahead;
	int done = 0;

	pthread_mutex_lock(&a->wk.lock);
	while (!a->stop && !done) {
		if (a->ready) {
			a->idle = 1;
			pthread_cond_wait(&a->wk.cond, &a->wk.lock);
			a->idle = 0;
			continue;
		}
		pthread_mutex_unlock(&a->wk.lock);
		load_batch(pr, &a->buf, a->batch);
		if (a->batch < AHEAD_BYTES)
			a->batch *= 2;
		done = a->buf.st != TK_OK; /* nothing follows the end or a failure */
		pthread_mutex_lock(&a->wk.lock);
		a->ready = 1;
		if (a->waiting) /* waking nobody costs a system call per batch */
			pthread_cond_broadcast(&a->wk.cond);
	}
	pthread_mutex_unlock(&a->wk.lock);
	return NULL;
}

/* Start reading ahead (the caller has pr->cur); on failure, go on without. */
static void ahead_start(struct tracedat_pages *pr)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int limit = cpus > 2 ? (int) (cpus < 1024 ? cpus : 1024) : 2;
	struct ahead *a;

	/* a file of many CPUs read on a small machine: threads for as many readers as cores */
	if (atomic_fetch_add(&n_ahead, 1) >= limit) {
		atomic_fetch_sub(&n_ahead, 1);
		pr->ahead_failed = 1;
		return;
	}
	a = calloc(1, sizeof(*a));
	pr->ahead = a;
	if (a)
		a->batch = AHEAD_FIRST;
	if (!a || worker_start(&a->wk, ahead_main, pr)) {
		free(a);
		atomic_fetch_sub(&n_ahead, 1);
		pr->ahead = NULL;
		pr->ahead_failed = 1;
	}
}

static void ahead_stop(struct tracedat_pages *pr)
{
	struct ahead *a = pr->ahead;

	if (!a)
		return;
	worker_stop(&a->wk, &a->stop);
	free(a->buf.data);
	free(a);
	atomic_fetch_sub(&n_ahead, 1);
	pr->ahead = NULL;
}

/*
 * The next chunks into pr->cur (the one it held is read): from the read-ahead thread once it
 * runs. TK_OK when pr->cur has at least one chunk.
 */
static enum tk_status next_chunk(struct tracedat_pages *pr)
{
	struct ahead *a = pr->ahead;
	struct chunk_buf t;

	if (pr->cur.st != TK_OK) /* the end or a failure was reached: nothing follows */
		return chunk_status(pr, &pr->cur);
	if (!a) {
		load_batch(pr, &pr->cur, 0);
		if (pr->cur.st == TK_OK && pr->chunks.left && !pr->ahead_failed)
			ahead_start(pr);
	} else {
		pthread_mutex_lock(&a->wk.lock);
		while (!a->ready) {
			a->waiting = 1;
			pthread_cond_wait(&a->wk.cond, &a->wk.lock);
			a->waiting = 0;
		}
		t = pr->cur; /* swap: the thread fills the buffer just read */
		pr->cur = a->buf;
		a->buf = t;
		a->ready = 0;
		if (a->idle)
			pthread_cond_broadcast(&a->wk.cond);
		pthread_mutex_unlock(&a->wk.lock);
	}
	pr->chunk_at = 0;
	return pr->cur.n ? TK_OK : chunk_status(pr, &pr->cur);
}

enum tk_status tracedat_pages_next(struct tracedat_pages *pr, const uint8_t **page, size_t *size)
{
	uint64_t n;
	enum tk_status st;

	TK_ASSERT_PRE(pr && page && size);
	if (pr->compressed) {
		if (!pr->cd->size)
			return TK_END;
		if (pr->chunk_at >= pr->cur.len) {
			st = next_chunk(pr);
			if (st != TK_OK)
				return st;
		}
		while (pr->chunk_at >= pr->cur.start[pr->cur.at + 1])
			pr->cur.at++;
		/* pages do not cross chunks: the last chunk may end with a short one */
		n = pr->cur.start[pr->cur.at + 1] - pr->chunk_at;
		if (n > pr->page_size)
			n = pr->page_size;
		*page = pr->cur.data + pr->chunk_at;
		*size = (size_t) n;
		pr->chunk_at += (size_t) n;
		pr->last = pr->cur.offsets[pr->cur.at];
		return TK_OK;
	}
	if (pr->pos >= pr->end)
		return TK_END;
	n = pr->end - pr->pos;
	if (n > pr->page_size)
		n = pr->page_size;
	if (pr->pos > pr->mf->size || n > pr->mf->size - pr->pos)
		return pages_fail(pr, pr->pos, "data runs past the end of the file");
	release_upto(pr, pr->pos);
	*page = pr->mf->data + pr->pos;
	*size = (size_t) n;
	pr->last = pr->pos;
	pr->pos += n;
	return TK_OK;
}

/* ---- seeking ------------------------------------------------------------------------------ */

/* A chunk as the search sees it: where its header is, and the chunks left from it on. */
struct chunk_at {
	uint64_t offset;
	uint32_t left;
	uint32_t usize;
};

/*
 * Whether compressed chunk @k begins before the place sought: 0 also when it cannot be read
 * (a 0 only makes the search start earlier, where reading reports the problem).
 */
static int chunk_before(struct tracedat_pages *pr, const struct chunk_at *k,
			int (*before)(void *, const uint8_t *, size_t), void *arg, uint8_t **buf,
			size_t *cap)
{
	struct tracedat_chunks w = pr->chunks;
	struct tracedat_chunk c;
	const char *reason = NULL;
	size_t got = 0;

	w.pos = k->offset;
	w.left = k->left;
	if (tracedat_chunks_next(&w, &c, &reason) != TK_OK || c.usize > TRACEDAT_MAX_CHUNK)
		return 0;
	if (c.usize > *cap) {
		uint8_t *p = realloc(*buf, c.usize);

		if (!p)
			return 0;
		*buf = p;
		*cap = c.usize;
	}
	if (tracedat_inflate(&pr->z, c.zdata, c.zsize, *buf, c.usize, &got, &reason) < 0 ||
	    got != c.usize)
		return 0;
	return before(arg, *buf, got < pr->page_size ? got : pr->page_size);
}

/*
 * The 8-byte header of the chunk at @pos: read with pread() from a mapped file, so that a
 * walk over every header of a large file neither faults in nor keeps its pages (the mapping
 * would bring the whole file into memory, 64 KiB around each header). 0 when it is not there.
 */
static int chunk_header(const struct tracedat_pages *pr, uint64_t pos, uint8_t h[8])
{
	const struct mfile *mf = pr->mf;

	if (pos > mf->size || mf->size - pos < 8)
		return 0;
	if (mf->mapped && mf->fd >= 0)
		return pread(mf->fd, h, 8, (off_t) pos) == 8;
	memcpy(h, mf->data + pos, 8);
	return 1;
}

/* The chunks of the CPU's data that hold pages, in file order; NULL when there are none. */
static enum tk_status list_chunks(const struct tracedat_pages *pr, struct chunk_at **out, size_t *n)
{
	struct chunk_at *v = NULL;
	size_t cap = 0;
	uint64_t pos = pr->chunks.pos;
	uint32_t left = pr->chunks.left, zsize, usize;
	uint8_t h[8];

	*out = NULL;
	*n = 0;
	/* up to the end, or to damage that reading will report */
	for (; left && chunk_header(pr, pos, h); left--) {
		zsize = tk_load_u32(h, pr->chunks.bo);
		usize = tk_load_u32(h + 4, pr->chunks.bo);
		if (zsize > pr->mf->size - pos - 8)
			break;
		if (usize) {
			if (*n == cap) {
				struct chunk_at *p;

				cap = cap ? 2 * cap : 256;
				p = realloc(v, cap * sizeof(*v));
				if (!p) {
					free(v);
					return TK_FAIL(TK_ERR_NOMEM,
						       "Cannot seek in trace.dat CPU data");
				}
				v = p;
			}
			v[(*n)++] = (struct chunk_at){pos, left, usize};
		}
		pos += 8 + (uint64_t) zsize;
	}
	*out = v;
	return TK_OK;
}

enum tk_status tracedat_pages_seek(struct tracedat_pages *pr,
				   int (*before)(void *arg, const uint8_t *page, size_t size),
				   void *arg, uint64_t *skipped)
{
	size_t lo = 0, hi, mid, n, i;

	TK_ASSERT_PRE(pr && before && skipped && !pr->cur.len && !pr->ahead);
	*skipped = 0;
	if (!pr->compressed) {
		/* pages are page_size apart: search them in place */
		if (pr->pos != pr->cd->offset || pr->end > pr->mf->size)
			return TK_OK;
		n = (size_t) ((pr->end - pr->pos + pr->page_size - 1) / pr->page_size);
		hi = n;
		while (lo < hi) { /* the first page that does not begin before */
			uint64_t off = pr->pos + (uint64_t) (lo + (hi - lo) / 2) * pr->page_size;
			uint64_t len =
				pr->end - off < pr->page_size ? pr->end - off : pr->page_size;

			mid = lo + (hi - lo) / 2;
			if (before(arg, pr->mf->data + off, (size_t) len))
				lo = mid + 1;
			else
				hi = mid;
		}
		i = lo >= 2 ? lo - 2 : 0; /* the page before the last one that begins before */
		pr->pos += (uint64_t) i * pr->page_size;
		pr->last = pr->pos;
		*skipped = i;
		return TK_OK;
	}
	if (pr->cd->size) {
		struct chunk_at *v;
		uint8_t *buf = NULL;
		size_t cap = 0;
		enum tk_status st = list_chunks(pr, &v, &n);

		if (st < 0)
			return st;
		hi = n;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (chunk_before(pr, &v[mid], before, arg, &buf, &cap))
				lo = mid + 1;
			else
				hi = mid;
		}
		free(buf);
		i = lo >= 2 ? lo - 2 : 0;
		if (i) {
			pr->chunks.pos = v[i].offset;
			pr->chunks.left = v[i].left;
			for (mid = 0; mid < i; mid++)
				*skipped += v[mid].usize / pr->page_size;
		}
		free(v);
	}
	return TK_OK;
}

uint64_t tracedat_pages_offset(const struct tracedat_pages *pr)
{
	return pr ? pr->last : 0;
}

void tracedat_pages_close(struct tracedat_pages *pr)
{
	if (!pr)
		return;
	ahead_stop(pr);
	tracedat_inflater_fini(&pr->z);
	free(pr->cur.data);
	free(pr);
}

/* ---- latency text -------------------------------------------------------------------------- */

/* Inflate every chunk of a compressed latency text into one heap buffer. */
static enum tk_status inflate_text(struct tracedat *td, const struct tracedat_buffer *b,
				   struct tracedat_buffer_priv *bp)
{
	struct tracedat_priv *p = tracedat_priv(td);
	struct tracedat_inflater z;
	struct tracedat_chunks w;
	struct tracedat_chunk c;
	struct vec text = VEC_INIT;
	const char *reason = NULL;
	enum tk_status st;
	size_t got;

	tracedat_inflater_init(&z, p->codec);
	st = tracedat_chunks_init(&w, &p->mf, bp->text_offset, td->info.bo, &reason);
	while (st >= 0 && (st = tracedat_chunks_next(&w, &c, &reason)) == TK_OK) {
		if (c.usize > TRACEDAT_MAX_CHUNK || c.usize > TRACEDAT_MAX_LATENCY - text.len ||
		    !tracedat_ratio_ok(c.zsize, c.usize)) {
			reason = "more latency text than this reader accepts";
			st = TK_ERR_UNSUPPORTED;
			break;
		}
		if (c.usize == 0)
			continue;
		if (vec_reserve(&text, 1, c.usize) < 0) {
			reason = "out of memory";
			st = TK_ERR_NOMEM;
			break;
		}
		st = tracedat_inflate(&z, c.zdata, c.zsize, (uint8_t *) text.data + text.len,
				      c.usize, &got, &reason);
		if (st >= 0 && got != c.usize) {
			reason = "decompressed chunk shorter than its header says";
			st = TK_ERR_FORMAT;
		}
		text.len += got;
	}
	tracedat_inflater_fini(&z);
	if (st < 0) {
		vec_fini(&text);
		return TK_FAIL(st,
			       "Cannot read trace.dat latency text: " TRACEDAT_BUF_FMT
			       "offset=%" PRIu64 ", reason=%s",
			       TRACEDAT_BUF_ARGS(b),
			       st == TK_ERR_FORMAT && w.pos ? w.pos : bp->text_offset, reason);
	}
	bp->inflated.data = text.data;
	bp->inflated.len = text.len;
	bp->text_inflated = 1;
	return TK_OK;
}

enum tk_status tracedat_latency_text(struct tracedat *td, size_t buffer, struct tracedat_blob *out)
{
	const struct tracedat_buffer *b;
	struct tracedat_buffer_priv *bp;
	enum tk_status st;

	TK_ASSERT_PRE(td && out && buffer < td->info.n_buffers);
	b = &td->info.buffers[buffer];
	bp = &VEC_AT(&tracedat_priv(td)->bprivs, struct tracedat_buffer_priv, buffer);
	if (!b->latency)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot read trace.dat latency text: " TRACEDAT_BUF_FMT
			       "reason=not a latency "
			       "buffer",
			       TRACEDAT_BUF_ARGS(b));
	if (!b->compressed) {
		*out = b->latency_text;
		return TK_OK;
	}
	if (!bp->text_inflated) {
		st = inflate_text(td, b, bp);
		if (st < 0)
			return st;
	}
	*out = bp->inflated;
	return TK_OK;
}
