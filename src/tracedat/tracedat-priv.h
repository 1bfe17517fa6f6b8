/* SPDX-License-Identifier: MIT */
/*
 * What the files of the trace.dat container share and nobody else sees: the state behind
 * struct tracedat, the limits that keep hostile files from costing unbounded memory or time,
 * the decompressors and the walker over compressed chunks (reference section 4,
 * "Compression").
 */
#ifndef TK_TRACEDAT_PRIV_H
#define TK_TRACEDAT_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "../common/arena.h"
#include "../common/mfile.h"
#include "../common/vec.h"
#include "tracedat.h"

/*
 * Limits. trace-cmd writes chunks of 10 pages and metadata blocks the size of kallsyms (a few
 * MiB); these bounds are far above that and far below what would hurt.
 */
#define TRACEDAT_MAX_PAGE_SIZE	  (64u << 20)  /* sub-buffer size */
#define TRACEDAT_MAX_CHUNK	  (64u << 20)  /* one inflated per-CPU chunk */
#define TRACEDAT_MAX_BLOCK	  (128u << 20) /* one inflated metadata block */
#define TRACEDAT_MAX_INFLATED	  (256u << 20) /* all inflated metadata of one file */
#define TRACEDAT_MAX_LATENCY	  (128u << 20) /* one inflated latency text */
#define TRACEDAT_MAX_RATIO	  1024u	       /* metadata and text: inflated / compressed */
#define TRACEDAT_MAX_OPT_SECTIONS 4096	       /* options sections in the v7 chain */
#define TRACEDAT_MAX_OPTIONS	  (1u << 20)   /* options in one file */
#define TRACEDAT_MAX_CPU_ENTRIES  (1u << 21)   /* CPU table entries, all buffers together */

/*
 * Whether @usize bytes may come out of @zsize compressed ones. Text compresses about ten to
 * one; far more means a decompression bomb, refused before any memory is taken for it.
 */
static inline int tracedat_ratio_ok(uint32_t zsize, uint32_t usize)
{
	return usize <= (64u << 10) || usize / TRACEDAT_MAX_RATIO <= zsize;
}

#define TRACEDAT_SECTION_HEADER_SIZE 16
#define TRACEDAT_SEC_FL_COMPRESS     1u

enum tracedat_codec {
	TRACEDAT_CODEC_NONE,
	TRACEDAT_CODEC_ZSTD,
	TRACEDAT_CODEC_ZLIB,
	TRACEDAT_CODEC_OTHER, /* named in the file, not known here: fails on first use */
};

/* A decompressor, reused from block to block (contexts are costly to set up). */
struct tracedat_inflater {
	enum tracedat_codec codec;
	ZSTD_DCtx *zstd;
	z_stream zlib;
	uint8_t zlib_ready;
};

/* Per-buffer facts the public struct does not carry. */
struct tracedat_buffer_priv {
	uint64_t text_offset; /* latency: file offset of the text (or of its chunk count) */
	uint64_t text_size;   /* latency: bytes there */
	struct tracedat_blob inflated; /* latency text once inflated (heap, freed at close) */
	uint8_t text_inflated;
};

/* An inflated metadata block (bigmem.h). */
struct tracedat_block {
	uint8_t *data;
	size_t size;
};

struct tracedat_priv {
	struct mfile mf;
	struct arena arena;
	enum tracedat_codec codec;
	struct vec blocks;   /* struct tracedat_block: inflated metadata, freed at close */
	size_t inflated;     /* bytes of metadata inflated so far (TRACEDAT_MAX_INFLATED) */
	struct vec options;  /* struct tracedat_option */
	struct vec cpustats; /* struct tracedat_blob */
	struct vec buffers;  /* struct tracedat_buffer */
	struct vec bprivs;   /* struct tracedat_buffer_priv, parallel to buffers */
	struct vec sections; /* struct tracedat_section */
	uint8_t *strings;    /* heap copy of the string table */
};

static inline struct tracedat_priv *tracedat_priv(const struct tracedat *td)
{
	return td->priv;
}

void tracedat_inflater_init(struct tracedat_inflater *z, enum tracedat_codec codec);
void tracedat_inflater_fini(struct tracedat_inflater *z);

/*
 * Decompress the first zstd frame or zlib stream of @src into @dst (@cap bytes) and stop
 * there: trace-cmd 3.0 padded blocks with junk after the frame. *@len is the number of bytes
 * produced. On failure returns TK_ERR_FORMAT (TK_ERR_NOMEM, TK_ERR_UNSUPPORTED) with *@reason
 * set to a static text and nothing pushed on the error chain: the caller, which knows where
 * the data came from, writes the one cause.
 */
enum tk_status tracedat_inflate(struct tracedat_inflater *z, const uint8_t *src, size_t n,
				uint8_t *dst, size_t cap, size_t *len, const char **reason);

/*
 * A walk over compressed per-CPU data: u32 count, then count x {u32 zsize, u32 usize, zsize
 * bytes}, integers in file order. The walk is bounded by the file, never by the size the
 * BUFFER option gives (4 bytes short in files of trace-cmd <= 3.1).
 */
struct tracedat_chunks {
	const uint8_t *file;
	uint64_t file_size;
	uint64_t pos;  /* file offset of the next chunk header */
	uint32_t left; /* chunks not yet returned */
	enum tk_byte_order bo;
};

struct tracedat_chunk {
	uint64_t offset; /* of the chunk header */
	const uint8_t *zdata;
	uint32_t zsize;
	uint32_t usize;
	uint8_t last; /* no chunk follows */
};

/* Start at @offset (the chunk count); a reason when the count itself is not in the file. */
enum tk_status tracedat_chunks_init(struct tracedat_chunks *w, const struct mfile *mf,
				    uint64_t offset, enum tk_byte_order bo, const char **reason);

/* TK_OK with *@c, TK_END after the last chunk, TK_ERR_FORMAT with a reason. */
enum tk_status tracedat_chunks_next(struct tracedat_chunks *w, struct tracedat_chunk *c,
				    const char **reason);

/* ---- parsing, shared by tracedat.c and tracedat-options.c --------------------------------- */

#define TRACEDAT_CLOCK_SEEN_NONE  0
#define TRACEDAT_CLOCK_SEEN_EMPTY 1 /* TRACECLOCK with an empty payload (trace-cmd < 3.0) */
#define TRACEDAT_CLOCK_SEEN_TEXT  2

/*
 * A cursor over one region: the whole mapped file, one v7 section, or the inflated data of a
 * compressed section. Offsets in messages are file offsets for mapped regions and offsets in
 * the decompressed data (with the section's file offset) for inflated ones.
 */
struct tracedat_cur {
	const uint8_t *p;
	size_t size;
	size_t off;
	uint64_t base;	   /* file offset of p[0]; of the section header when inflated */
	size_t rel;	   /* inflated: offset of p[0] in the decompressed data */
	uint8_t inflated;  /* p is decompressed data */
	const char *limit; /* "file", "section", "option": what a read may not run past */
	enum tk_byte_order bo;
};

static inline size_t tracedat_cur_left(const struct tracedat_cur *c)
{
	return c->size - c->off;
}

/* The @len bytes at @at of @parent (already checked to be there) as a region of their own. */
void tracedat_cur_sub(struct tracedat_cur *c, const struct tracedat_cur *parent, size_t at,
		      size_t len, const char *limit);
/* A cause "Cannot read trace.dat @what: offset=..., reason=@reason"; returns @st. */
enum tk_status tracedat_cur_fail(const struct tracedat_cur *c, enum tk_status st, const char *what,
				 size_t at, const char *reason);
/* Bounded reads: each fails with a cause naming @what when the region ends first. */
enum tk_status tracedat_cur_bytes(struct tracedat_cur *c, uint64_t len, const uint8_t **out,
				  const char *what);
enum tk_status tracedat_cur_u8(struct tracedat_cur *c, uint8_t *v, const char *what);
enum tk_status tracedat_cur_u16(struct tracedat_cur *c, uint16_t *v, const char *what);
enum tk_status tracedat_cur_u32(struct tracedat_cur *c, uint32_t *v, const char *what);
enum tk_status tracedat_cur_u64(struct tracedat_cur *c, uint64_t *v, const char *what);
/* A NUL-terminated string inside the region; *@s points at it (borrowed). */
enum tk_status tracedat_cur_cstr(struct tracedat_cur *c, const char **s, const char *what);

/* What tracedat_open() knows while it parses; gone when it returns. */
struct tracedat_open {
	struct tracedat *td;
	struct tracedat_priv *p;
	struct tracedat_info *info;
	const uint8_t *file;
	size_t size;
	enum tk_byte_order bo;
	int clock_seen;	       /* TRACEDAT_CLOCK_SEEN_* */
	uint32_t v6_cpus;      /* the v6 CPU count field: size of the top CPU table */
	size_t cpu_entries;    /* CPU table entries read, against TRACEDAT_MAX_CPU_ENTRIES */
	long last_buffer;      /* v6: buffer of the option just before, or -1 */
	uint8_t have_cpucount; /* a CPUCOUNT applied to info.cpus */
	uint8_t tracing_only;  /* perf.data's tracing data: the metadata parts alone */
	uint64_t sec_off[6];   /* v7: section offsets from options 16..21 */
	uint8_t have_sec[6];
	struct vec v6_instances;    /* v6: struct tracedat_v6_instance */
	struct tracedat_inflater z; /* metadata blocks */
};

struct tracedat_v6_instance {
	size_t buffer;	 /* index in p->buffers */
	uint64_t offset; /* of its "flyrecord" marker */
	uint32_t ncpu;
};

static inline struct tracedat_buffer *tracedat_buf(struct tracedat_open *o, size_t i)
{
	return &VEC_AT(&o->p->buffers, struct tracedat_buffer, i);
}

static inline struct tracedat_buffer_priv *tracedat_bpriv(struct tracedat_open *o, size_t i)
{
	return &VEC_AT(&o->p->bprivs, struct tracedat_buffer_priv, i);
}

static inline int tracedat_page_size_ok(uint32_t page_size)
{
	return page_size != 0 && page_size <= TRACEDAT_MAX_PAGE_SIZE;
}

/* A new buffer (zeroed) with its private part; returns its index or -1 when out of memory. */
long tracedat_buffer_add(struct tracedat_open *o);
/* A copy of option text in the arena: up to the first NUL, trailing newlines dropped. */
char *tracedat_dup_text(struct tracedat_open *o, const uint8_t *data, size_t len);
/*
 * The v7 section at @off, which must have id @want: a cursor over its payload, inflated when
 * compressed and @inflate is set; *@flags_out (if not NULL) gets its flags.
 */
enum tk_status tracedat_open_section(struct tracedat_open *o, uint64_t off, uint16_t want,
				     const char *what, int inflate, struct tracedat_cur *out,
				     uint16_t *flags_out);
/*
 * Options until DONE: v6 DONE is a bare u16 0; v7 DONE has size 8 and the file offset of the
 * next options section (0 for none), returned in *@next. Each option lands in info.options.
 */
enum tk_status tracedat_read_options(struct tracedat_open *o, struct tracedat_cur *c,
				     uint64_t *next);

#endif /* TK_TRACEDAT_PRIV_H */
