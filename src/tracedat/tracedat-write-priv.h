/* SPDX-License-Identifier: MIT */
/*
 * What the files of the trace.dat writer share and nobody else sees: the state behind struct
 * tracedat_writer, the in-memory byte builder and the calls between the three files. The
 * writer is one object cut along its seams: tracedat-write.c has the API, the order of calls
 * and the buffered file output every other part writes through; tracedat-write-layout.c knows
 * where version 6 and version 7 put each piece (the v6 head, the v7 sections and options
 * chain); tracedat-write-cpu.c streams each CPU's pages, gathering and compressing chunks with
 * the compressor that v7 metadata sections also use.
 */
#ifndef TK_TRACEDAT_TRACEDAT_WRITE_PRIV_H
#define TK_TRACEDAT_TRACEDAT_WRITE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "../common/outfile.h"
#include "../common/vec.h"
#include "tracedat-priv.h"
#include "tracedat-write.h"

#define TRACEDAT_W_OUT_BUF_SIZE (256u << 10) /* output buffer */

/* Metadata parts set whole, each at most once. */
enum tracedat_w_part {
	TRACEDAT_W_PART_HEADER_PAGE,
	TRACEDAT_W_PART_HEADER_EVENT,
	TRACEDAT_W_PART_KALLSYMS,
	TRACEDAT_W_PART_PRINTK,
	TRACEDAT_W_PART_CMDLINES,
	TRACEDAT_W_PART_CLOCK,
	TRACEDAT_W_PART_N,
};

struct tracedat_w_blob {
	uint8_t *data;
	size_t size;
};

struct tracedat_w_system {
	char *name;
	struct vec formats; /* struct tracedat_w_blob */
};

struct tracedat_w_option {
	uint16_t id;
	struct tracedat_w_blob b;
};

struct tracedat_w_cpu {
	uint32_t cpu;
	uint64_t offset; /* first page, or (compressed) the chunk count */
	uint64_t size;	 /* bytes written */
};

struct tracedat_w_buffer {
	char *name;	  /* "" for the top buffer */
	char *clock;	  /* clock name: v7 BUFFER option, v6 clock text */
	uint64_t start;	  /* v7: its section header; v6 instances: its "flyrecord" marker */
	int64_t last_cpu; /* last CPU begun, -1 before the first */
	struct vec cpus;  /* struct tracedat_w_cpu: the CPUs with data, in order */
};

enum tracedat_w_state {
	TRACEDAT_W_STATE_META, /* metadata and options may still be given */
	TRACEDAT_W_STATE_DATA, /* between CPUs */
	TRACEDAT_W_STATE_CPU,  /* between tracedat_w_cpu_begin and tracedat_w_cpu_end */
};

struct tracedat_writer {
	struct tracedat_write_opts o;
	char *path;
	struct outfile of; /* the file, nameless until finish() commits it */
	int fd;		   /* of.fd while writing */
	enum tracedat_w_state state;
	enum tk_status failed; /* the first failure; every later call fails too */

	/* output: pos = buf_off + len, the file offset of the next byte */
	uint8_t *buf;
	size_t len;
	uint64_t buf_off;
	uint64_t pos;
	uint64_t high; /* end of the bytes written to the file so far */

	/* metadata */
	struct tracedat_w_blob part[TRACEDAT_W_PART_N];
	uint8_t part_set[TRACEDAT_W_PART_N];
	struct vec ftrace;  /* struct tracedat_w_blob */
	struct vec systems; /* struct tracedat_w_system */
	struct vec options; /* struct tracedat_w_option */
	uint32_t cpus;
	uint8_t cpus_set;
	char *clock_name; /* from the trace_clock text, NULL when none was given or found */

	/* layout */
	struct vec buffers;    /* struct tracedat_w_buffer; the last one is being written */
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

/*
 * Bytes built in memory with integers in the file's byte order. With count_only set it only
 * measures (the v6 head's size before its content is final); out of memory is remembered and
 * checked once at the end.
 */
struct tracedat_w_bb {
	uint8_t *p;
	size_t len, cap;
	enum tk_byte_order bo;
	uint8_t count_only;
	uint8_t nomem;
};

/* The buffer being written: the last one begun. */
static inline struct tracedat_w_buffer *tracedat_w_cur_buffer(struct tracedat_writer *w)
{
	return &VEC_AT(&w->buffers, struct tracedat_w_buffer, w->buffers.len - 1);
}

/* ----------------------------------------------------------- buffered output (tracedat-write.c) */

enum tk_status tracedat_w_write_fail(const struct tracedat_writer *w, int err);
enum tk_status tracedat_w_out_flush(struct tracedat_writer *w);
enum tk_status tracedat_w_out_write(struct tracedat_writer *w, const void *p, size_t n);
enum tk_status tracedat_w_out_zeros(struct tracedat_writer *w, uint64_t n);
enum tk_status tracedat_w_out_rewind(struct tracedat_writer *w, uint64_t off);
enum tk_status tracedat_w_out_align(struct tracedat_writer *w, uint64_t align);
enum tk_status tracedat_w_out_patch(struct tracedat_writer *w, uint64_t off, const void *p,
				    size_t n);
enum tk_status tracedat_w_out_patch_u32(struct tracedat_writer *w, uint64_t off, uint32_t v);
enum tk_status tracedat_w_out_patch_u64(struct tracedat_writer *w, uint64_t off, uint64_t v);

/* The metadata is complete: lay it out, start the top buffer (tracedat-write.c, buffers). */
enum tk_status tracedat_w_begin_data(struct tracedat_writer *w, int at_close);

/* ------------------------------------------ byte layouts of v6 and v7 (tracedat-write-layout.c) */

void tracedat_w_bb_fini(struct tracedat_w_bb *b);
enum tk_status tracedat_w_out_bb(struct tracedat_writer *w, const struct tracedat_w_bb *b);

uint32_t tracedat_w_v6_buffer_option_size(const char *name);
void tracedat_w_v6_head(const struct tracedat_writer *w, struct tracedat_w_bb *b);
enum tk_status tracedat_w_v6_start_instance(struct tracedat_writer *w,
					    struct tracedat_w_buffer *buf);
enum tk_status tracedat_w_v6_end_instance(struct tracedat_writer *w,
					  const struct tracedat_w_buffer *buf);

enum tk_status tracedat_w_v7_header(struct tracedat_writer *w);
enum tk_status tracedat_w_v7_metadata(struct tracedat_writer *w);
enum tk_status tracedat_w_v7_start_buffer(struct tracedat_writer *w, struct tracedat_w_buffer *buf);
enum tk_status tracedat_w_v7_end_buffer(struct tracedat_writer *w,
					const struct tracedat_w_buffer *buf);
enum tk_status tracedat_w_v7_finish(struct tracedat_writer *w);

/* ---------------------------------------------- CPU data and compression (tracedat-write-cpu.c) */

enum tk_status tracedat_w_compress_block(struct tracedat_writer *w, const uint8_t *src, size_t n,
					 size_t *zsize);

enum tk_status tracedat_w_cpu_begin(struct tracedat_writer *w, uint32_t cpu);
enum tk_status tracedat_w_cpu_page(struct tracedat_writer *w, const void *page, size_t size);
enum tk_status tracedat_w_cpu_fd(struct tracedat_writer *w, int fd);
enum tk_status tracedat_w_cpu_end(struct tracedat_writer *w);

#endif /* TK_TRACEDAT_TRACEDAT_WRITE_PRIV_H */
