/* SPDX-License-Identifier: MIT */
/*
 * ftrace event descriptions, shared by the trace.dat reader, the tracefs recorder and the
 * trace-cmd-style printer: event `format` files, the ring-buffer sub-buffer ("page") layout
 * from header_page, and the per-trace lookup tables (kernel symbols, printk formats, saved
 * command lines). Reference: ../shared/reference/tracedat.md sections 5 and 6.
 *
 * Everything here is plain data parsed once per trace; the hot paths (page decoding, print
 * formats) live in page.h and printfmt.h and only read these structures.
 *
 *	struct ftrace_ctx ctx;
 *	ftrace_ctx_init(&ctx, TK_BYTE_ORDER_LE);
 *	st = ftrace_page_layout_parse(header_page, len, &ctx.layout);
 *	st = ftrace_event_parse(&ctx, "sched", format_text, format_len, &ev);   // once per file
 *	st = ftrace_ctx_finish(&ctx);                                          // sort, index
 *	ev = ftrace_event_find(&ctx, id);
 *	...
 *	ftrace_ctx_fini(&ctx);
 */
#ifndef TK_FTRACE_FTRACE_H
#define TK_FTRACE_FTRACE_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/arena.h"
#include "../common/bytes.h"

enum ftrace_field_flag {
	FTRACE_FIELD_SIGNED = 1u << 0,	 /* "signed:1" */
	FTRACE_FIELD_ARRAY = 1u << 1,	 /* fixed array "name[N]": arraylen elements */
	FTRACE_FIELD_POINTER = 1u << 2,	 /* type ends with '*' */
	FTRACE_FIELD_STRING = 1u << 3,	 /* array (fixed or dynamic) of char, u8 or s8 */
	FTRACE_FIELD_DYNAMIC = 1u << 4,	 /* __data_loc or __rel_loc: u32 (len << 16 | offset) */
	FTRACE_FIELD_RELATIVE = 1u << 5, /* __rel_loc: offset counted from the end of the field */
	FTRACE_FIELD_LONG = 1u << 6,	 /* type long or unsigned long */
};

/* One `field:` line of a format file. */
struct ftrace_field {
	const char *name;
	const char *type;  /* the declaration without the name: "unsigned long", "char[16]",
			      "__data_loc char[]", "pid_t" */
	uint32_t offset;   /* bytes from the start of the record payload */
	uint32_t size;	   /* bytes */
	uint32_t arraylen; /* ARRAY: number of elements; else 0 */
	uint32_t elemsize; /* ARRAY and DYNAMIC: bytes per element (size / arraylen, or the
			      element type's size); else size */
	uint32_t flags;	   /* enum ftrace_field_flag */
};

/* One event `format` file. Strings and arrays live in the context's arena. */
struct ftrace_event {
	const char *system; /* "ftrace" for ftrace's own events */
	const char *name;
	uint32_t id;
	struct ftrace_field *fields; /* common fields first, then the event's own */
	uint32_t n_fields;
	uint32_t n_common;
	const char *print_fmt; /* everything after "print fmt: " up to the end of that line,
				  or NULL when the file has none */
	void *print;	       /* printfmt.c: the compiled print fmt, or NULL */
	void *priv;	       /* the reader's own per-event data */
};

/* Layout of a ring-buffer sub-buffer, from the header_page text. */
struct ftrace_page_layout {
	uint32_t ts_offset;	/* "u64 timestamp": 0 */
	uint32_t ts_size;	/* 8 */
	uint32_t commit_offset; /* "local_t commit": 8 */
	uint32_t commit_size;	/* sizeof(long) of the traced kernel: 8 or 4 */
	uint32_t data_offset;	/* "char data": 16 or 12 */
	uint32_t data_size;	/* bytes of data: sub-buffer size - data_offset */
};

struct ftrace_sym {
	uint64_t addr;
	const char *name;
	const char *module; /* "[module]" column of kallsyms without brackets, or NULL */
};

struct ftrace_printk {
	uint64_t addr;
	const char *fmt; /* unquoted, escapes kept as written ("\n" is two characters) */
};

struct ftrace_comm {
	int32_t pid;
	const char *comm;
};

/* Everything the decoders and the print-fmt evaluator need to know about one trace. */
struct ftrace_ctx {
	struct arena arena; /* every string and array below */
	enum tk_byte_order bo;
	uint32_t long_size; /* layout.commit_size once header_page is parsed, else 8 */
	struct ftrace_page_layout layout;
	struct ftrace_event **events; /* sorted by id after ftrace_ctx_finish() */
	size_t n_events;
	struct ftrace_sym *syms; /* sorted by address */
	size_t n_syms;
	struct ftrace_printk *printk; /* sorted by address */
	size_t n_printk;
	struct ftrace_comm *comms; /* sorted by pid; the last one wins for a repeated pid */
	size_t n_comms;
	size_t events_cap, syms_cap, printk_cap, comms_cap; /* private */
};

void ftrace_ctx_init(struct ftrace_ctx *ctx, enum tk_byte_order bo);
void ftrace_ctx_fini(struct ftrace_ctx *ctx); /* frees compiled print fmts too */

/* Sort and index what was added; call once after the last *_parse() call. */
enum tk_status ftrace_ctx_finish(struct ftrace_ctx *ctx);

/* header_page text -> layout (also sets ctx->long_size when called through the ctx). */
enum tk_status ftrace_page_layout_parse(const char *text, size_t len,
					struct ftrace_page_layout *out);

/*
 * Parse one `format` file of @system and add the event to @ctx. *out (may be NULL) borrows
 * the event from the context.
 */
enum tk_status ftrace_event_parse(struct ftrace_ctx *ctx, const char *system, const char *text,
				  size_t len, struct ftrace_event **out);

/* /proc/kallsyms, printk_formats and saved_cmdlines texts, added to @ctx. */
enum tk_status ftrace_kallsyms_parse(struct ftrace_ctx *ctx, const char *text, size_t len);
enum tk_status ftrace_printk_parse(struct ftrace_ctx *ctx, const char *text, size_t len);
enum tk_status ftrace_cmdlines_parse(struct ftrace_ctx *ctx, const char *text, size_t len);

/* Lookups; NULL when absent. ftrace_sym_find() returns the symbol at or below @addr. */
const struct ftrace_event *ftrace_event_find(const struct ftrace_ctx *ctx, uint32_t id);
const struct ftrace_sym *ftrace_sym_find(const struct ftrace_ctx *ctx, uint64_t addr);
const struct ftrace_printk *ftrace_printk_find(const struct ftrace_ctx *ctx, uint64_t addr);
const char *ftrace_comm_find(const struct ftrace_ctx *ctx, int32_t pid);
const struct ftrace_field *ftrace_field_find(const struct ftrace_event *ev, const char *name);

/*
 * The integer value of a scalar field (sizes 1, 2, 4, 8) in the trace's byte order,
 * sign-extended when the field is signed. The caller has checked offset + size <= @size.
 */
uint64_t ftrace_field_u64(const struct ftrace_ctx *ctx, const struct ftrace_field *f,
			  const uint8_t *rec);

/*
 * Where the data of a DYNAMIC field is: offset from the start of @rec and length in bytes.
 * Returns -1 when the location word points outside the @size bytes of the record.
 */
int ftrace_field_dynamic(const struct ftrace_ctx *ctx, const struct ftrace_field *f,
			 const uint8_t *rec, size_t size, uint32_t *offset, uint32_t *len);

#endif /* TK_FTRACE_FTRACE_H */
