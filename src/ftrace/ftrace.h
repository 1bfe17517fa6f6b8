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
 *	ctx.long_size = ctx.layout.commit_size;                                // see below
 *	st = ftrace_event_parse(&ctx, "sched", format_text, format_len, &ev);   // once per file
 *	st = ftrace_ctx_finish(&ctx);                                          // sort, index
 *	ev = ftrace_event_find(&ctx, id);
 *	...
 *	ftrace_ctx_fini(&ctx);
 *
 * Every table reproduces what libtraceevent 1.7.1 (the library of Debian's trace-cmd 3.1.6)
 * builds from the same text -- the same fields, type strings and flags, the same symbols kept
 * and the same entry found by each lookup, duplicates included -- because trace-cmd-style
 * output is compared with trace-cmd byte for byte. Where libtraceevent reads out of bounds or
 * crashes on garbage, these parsers report an error instead.
 */
#ifndef TK_FTRACE_FTRACE_H
#define TK_FTRACE_FTRACE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tracekit/status.h>

#include "../common/arena.h"
#include "../common/bytes.h"

/*
 * Field flags, set exactly as libtraceevent sets its TEP_FIELD_IS_* flags (its printer tests
 * them, so ours must see the same bits):
 * - ARRAY: the declaration has brackets: "char comm[16]", "u32 buf[]", and also every
 *   "__data_loc char[] name"; plus a legacy size-2 __data_loc without brackets.
 * - STRING: ARRAY and the type string contains "char", "u8" or "s8" anywhere (so "__u8[4]",
 *   "unsigned char[6]" and "__data_loc char[]" are strings); plus legacy size-2 __data_loc.
 * - LONG: the type string contains "long" anywhere: "long", "unsigned long", "long long",
 *   "unsigned long[8]", "__data_loc unsigned long[]".
 * - POINTER: a '*' token anywhere in the type ("const char *", "struct iocb * *").
 * - DYNAMIC: the type starts with "__data_loc" or "__rel_loc" (with or without brackets:
 *   "__data_loc cpumask_t" is DYNAMIC but not ARRAY); RELATIVE: it starts with "__rel_loc".
 */
enum ftrace_field_flag {
	FTRACE_FIELD_SIGNED = 1u << 0,	 /* "signed:" followed by a non-zero number */
	FTRACE_FIELD_ARRAY = 1u << 1,	 /* brackets in the declaration (fixed, [] or dynamic) */
	FTRACE_FIELD_POINTER = 1u << 2,	 /* a '*' in the type */
	FTRACE_FIELD_STRING = 1u << 3,	 /* ARRAY of char, u8 or s8 (substring match) */
	FTRACE_FIELD_DYNAMIC = 1u << 4,	 /* __data_loc or __rel_loc: u32 (len << 16 | offset) */
	FTRACE_FIELD_RELATIVE = 1u << 5, /* __rel_loc: offset counted from the end of the field */
	FTRACE_FIELD_LONG = 1u << 6,	 /* "long" in the type (long, unsigned long, long long) */
	FTRACE_FIELD_FLEXIBLE = 1u << 7, /* see ftrace_field_flexible() */
};

/*
 * One `field:` line of a format file.
 *
 * type is libtraceevent's type string: the type tokens joined by one space, then the brackets
 * with no space before them and their tokens joined as written ("unsigned long[8]",
 * "char[TASK_COMM_LEN]", "u32[]", "__data_loc char[]", "__rel_loc char[]",
 * "__data_loc cpumask_t", "const char *", "struct iocb * *", "void __seg_gs *",
 * "char __attribute__((user)) *").
 *
 * arraylen is the value of the LAST token inside the brackets read like strtoul(.., 0):
 * "[16]" -> 16, "[0x10]" -> 16, "[TASK_COMM_LEN]" -> 0, "[]" -> 0, "[8 + 8]" -> 8; 0 without
 * brackets.
 *
 * elemsize: for ARRAY or DYNAMIC fields, size / arraylen when arraylen is not 0; else, for
 * DYNAMIC fields, the size of the element type when it is exactly one of u8 u16 u32 u64 s8
 * s16 s32 s64 char ("__data_loc char[]" -> 1, "__data_loc u64[]" -> 8, "__data_loc unsigned
 * int[]" -> 0, "__data_loc cpumask_t" -> 0); else 1 for STRING; else the context's long_size
 * (at parse time) for LONG ("unsigned long args[]"); else 0. For all other fields, size.
 */
struct ftrace_field {
	const char *name;
	const char *type;  /* see above */
	uint32_t offset;   /* bytes from the start of the record payload */
	uint32_t size;	   /* bytes */
	uint32_t arraylen; /* see above */
	uint32_t elemsize; /* see above */
	uint32_t flags;	   /* enum ftrace_field_flag */
};

/*
 * An array declared without a length, of size 0 ("char buf[]; size:0" of ftrace's print
 * event, "u32 buf[]" of bprint), or a "char" of size 0 (older kernels' print event): a flexible array member, whose bytes run from its offset to the end of the
 * record, as the print fmt evaluator and libtraceevent read it. ("u8 b[0]", an empty array,
 * is not one, nor older bprint's "u32 buf; size:0", which trace-cmd -R shows as 0.)
 */
static inline int ftrace_field_flexible(const struct ftrace_field *f)
{
	return (f->flags & FTRACE_FIELD_FLEXIBLE) != 0;
}

/*
 * Whether the field holds text: arrays of char, u8 or s8 (STRING), and older print events'
 * flexible "char buf" (not flagged STRING, which would change how trace-cmd -R shows it).
 */
static inline int ftrace_field_text(const struct ftrace_field *f)
{
	return (f->flags & FTRACE_FIELD_STRING) ||
	       ((f->flags & (FTRACE_FIELD_FLEXIBLE | FTRACE_FIELD_ARRAY)) == FTRACE_FIELD_FLEXIBLE);
}

/*
 * Whether a text field (ftrace_field_text()) holds bytes rather than characters: a fixed or
 * dynamic array of u8 or s8 ("__u8 src[4]" of fib_table_lookup, an IPv4 address). libtraceevent
 * flags it as a string, which is how trace-cmd -R shows it, but its zeros are data: conversions
 * carry it as bytes. Only char arrays (and the legacy 2-byte __data_loc strings) are text.
 */
static inline int ftrace_field_bytes(const struct ftrace_field *f)
{
	return (f->flags & (FTRACE_FIELD_STRING | FTRACE_FIELD_ARRAY)) ==
		       (FTRACE_FIELD_STRING | FTRACE_FIELD_ARRAY) &&
	       !strstr(f->type, "char") && !((f->flags & FTRACE_FIELD_DYNAMIC) && f->size == 2);
}

enum ftrace_event_flag {
	/*
	 * libtraceevent could not read the whole format (its TEP_EVENT_FL_FAILED, which makes
	 * trace-cmd print "[FAILED TO PARSE]" and the raw fields): a bad field line (the fields
	 * before it are kept; ftrace_event_parse() also returns an error) or no well-formed
	 * `print fmt: "` after the fields (print_fmt is then NULL).
	 */
	FTRACE_EVENT_FAILED = 1u << 0,
	/* private: ftrace_print_lazily() contexts: the print fmt was compiled on first use */
	FTRACE_EVENT_PRINT_TRIED = 1u << 1,
	/*
	 * The first field of the event's own is eventheader_flags: a user_events tracepoint
	 * whose records hold an EventHeader event from that field on (src/eventheader).
	 */
	FTRACE_EVENT_EVENTHEADER = 1u << 2,
};

/* One event `format` file. Strings and arrays live in the context's arena. */
struct ftrace_event {
	const char *system; /* "ftrace" for ftrace's own events */
	const char *name;
	uint32_t id;
	struct ftrace_field *fields; /* common fields first, then the event's own */
	uint32_t n_fields;
	uint32_t n_common;
	const char *print_fmt; /* everything after "print fmt: " to the end of the text (it
				  may span lines: a string literal can hold a raw newline, as in
				  ext4_fsmap_*), cut at a NUL byte, trailing whitespace removed;
				  not parsed. NULL when the file has none (FAILED is then set) */
	void *print;	       /* printfmt.c: the compiled print fmt, or NULL */
	void *priv;	       /* the reader's own per-event data */
	uint32_t flags;	       /* enum ftrace_event_flag */
	/*
	 * private: declared (ftrace_event_declare()) but not read past its ID yet: fields,
	 * n_common, print_fmt and FAILED are unset until ftrace_event_load(); text, text_len,
	 * body_pos and body_line say where the rest of the format lies.
	 */
	uint8_t pending;
	uint32_t body_line;
	const char *text;
	size_t text_len, body_pos;
};

/*
 * Whether @f of @ev is ftrace's kernel_stack "caller": `unsigned long caller[8]` in the format,
 * but the kernel stores as many frames as the stack had, so the elements run to the end of the
 * record (0 to many), as trace-cmd's stack handler reads them. Checked once per event class.
 */
static inline int ftrace_field_to_end(const struct ftrace_event *ev, const struct ftrace_field *f)
{
	return (f->flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC | FTRACE_FIELD_STRING)) ==
		       FTRACE_FIELD_ARRAY &&
	       ev->n_fields && f == &ev->fields[ev->n_fields - 1] && ev->system &&
	       !strcmp(ev->system, "ftrace") && !strcmp(ev->name, "kernel_stack") &&
	       !strcmp(f->name, "caller");
}

/* Layout of a ring-buffer sub-buffer, from the header_page text. */
struct ftrace_page_layout {
	uint32_t ts_offset;	/* "u64 timestamp": 0 */
	uint32_t ts_size;	/* 8 */
	uint32_t commit_offset; /* "local_t commit": 8 */
	uint32_t commit_size;	/* sizeof(long) of the traced kernel: 8 or 4 */
	uint32_t data_offset;	/* "char data": 16 or 12 */
	uint32_t data_size;	/* bytes of data: sub-buffer size - data_offset */
};

/* A symbol as lookups give it (ftrace_sym_find(), ftrace_sym_at()). */
struct ftrace_sym {
	uint64_t addr;
	const char *name;
	const char *module; /* "[module]" column of kallsyms without brackets, or NULL */
};

/*
 * A symbol as the table keeps it (private): where its name begins in the kallsyms text, and
 * the rest of its line, from which a lookup takes the name and module the first time it
 * returns the symbol (122k symbols for one lookup in a hundred).
 */
struct ftrace_ksym {
	uint64_t addr;
	const char *name; /* in the kallsyms text: the name's first byte, never a blank */
	size_t rest;	  /* bytes from there to the end of the line */
};

struct ftrace_printk {
	uint64_t addr;
	const char *fmt; /* as written in printk_formats, escapes NOT processed ("\t" is two
			    characters; libtraceevent's printer interprets them later), minus
			    one leading '"' and one trailing '"' and, only when that trailing
			    quote was there, a final two-character "\n" */
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
	struct ftrace_ksym *syms; /* sorted by address (bigmem.h, syms_cap entries) */
	size_t n_syms;
	struct ftrace_sym **syms_made; /* private: the symbols lookups returned, by index */
	struct ftrace_printk *printk;  /* sorted by address */
	size_t n_printk;
	struct ftrace_comm *comms; /* sorted by pid */
	size_t n_comms;
	const char *syms_text; /* private: kallsyms text to parse at the first lookup */
	size_t syms_text_len;
	/* private: ftrace_kallsyms_defer_fetch(): where that text comes from, asked then */
	const char *(*syms_fetch)(void *payload, size_t *len);
	void *syms_payload;
	/*
	 * private: ftrace_kallsyms_defer_stream(): the text read so far, parsed up to
	 * syms_parsed, its symbols in the order read; while syms_in_order, each at or above
	 * the one before, the highest syms_last
	 */
	const char *(*syms_more)(void *payload, size_t *len);
	const char *syms_read; /* the text read so far, syms_read_len bytes */
	size_t syms_read_len, syms_parsed;
	uint64_t syms_last;
	uint8_t syms_streaming, syms_in_order, syms_eof;
	int print_lazy;		 /* private: print fmts compile on first use (printfmt.h) */
	int format_general_only; /* private: tests read every field line the general way */
	int print_general_only;	 /* private: tests print without fast plans (printfmt-fast.c) */
	size_t n_print_compiled; /* print fmts compiled so far (tests count them) */
	size_t n_formats_loaded; /* declared formats read past their ID so far (tests) */
	pthread_mutex_t lock;	 /* private: ftrace_event_load() */
	size_t events_cap, syms_cap, printk_cap, comms_cap; /* private */
	int finished;					    /* private: ftrace_ctx_finish() ran */
	int events_unsorted; /* private: events declared since, in the order declared */
};

/*
 * The four tables are heap arrays and every string lives in the arena; ftrace_ctx_fini()
 * frees them all, and the compiled print fmts through ftrace_print_free().
 */
void ftrace_ctx_init(struct ftrace_ctx *ctx, enum tk_byte_order bo);
void ftrace_ctx_fini(struct ftrace_ctx *ctx); /* frees compiled print fmts too */

/*
 * Sort and index what was added; call once after the last *_parse() call (a second call does
 * nothing). Lookups are valid only after it. Later ftrace_event_parse() calls keep the events
 * sorted; the kallsyms, printk and cmdlines parsers must not be called after it.
 */
enum tk_status ftrace_ctx_finish(struct ftrace_ctx *ctx);

/*
 * header_page text -> layout. It touches no context: the caller then sets
 * ctx->long_size = ctx->layout.commit_size (or keeps the trace.dat header's long size, which
 * is what libtraceevent's printer uses: trace-cmd copies that byte into tep->long_size and
 * writes sizeof(long) of the recording tool there). "timestamp", "commit" and "data" lines are
 * required, "overwrite" is optional; fails unless the timestamp is 8 bytes, commit is 4 or 8
 * bytes and both lie before data.
 */
enum tk_status ftrace_page_layout_parse(const char *text, size_t len,
					struct ftrace_page_layout *out);

/*
 * The layout libtraceevent assumes when a trace.dat file has an empty header_page (kernels
 * without one): timestamp 0/8, commit 8/@long_size, data at 8 + @long_size up to @page_size.
 */
void ftrace_page_layout_default(struct ftrace_page_layout *out, uint32_t long_size,
				uint32_t page_size);

/*
 * Parse one `format` file of @system (@text need not be NUL-terminated) and add the event to
 * @ctx. *out (may be NULL) borrows the event from the context. The system "ftrace" accepts
 * libtraceevent's two ftrace quirks: a "special" token after "field" and '.' in types.
 *
 * Errors: TK_ERR_FORMAT with a cause naming system, event, line and reason. When the name and
 * ID were read but a field line is bad, the event is still added, with the fields before
 * that line and FTRACE_EVENT_FAILED, and *out is set -- libtraceevent keeps such events too
 * and trace-cmd goes on -- so a caller that wants trace-cmd's output may carry on.
 */
enum tk_status ftrace_event_parse(struct ftrace_ctx *ctx, const char *system, const char *text,
				  size_t len, struct ftrace_event **out);

/*
 * Read one `format` file as far as its name and ID and add the event to @ctx, pending: the
 * rest (fields, print fmt) is read by ftrace_event_load() when the event is first used. A
 * file of 2,300 formats (trace-cmd record -e all) opens in the time of its few used ones.
 * @text is borrowed and must outlive @ctx. Declare before ftrace_ctx_finish(), which sorts
 * the events declared by ID (ftrace_event_parse() keeps them sorted as it adds). Errors:
 * those of ftrace_event_parse() before the ID (no event is added then); whether the rest
 * reads is known only once it is loaded, and a rest that does not read makes the event
 * FTRACE_EVENT_FAILED, as ftrace_event_parse() does.
 */
enum tk_status ftrace_event_declare(struct ftrace_ctx *ctx, const char *system, const char *text,
				    size_t len);

void ftrace_event_load_slow(const struct ftrace_ctx *ctx, const struct ftrace_event *ev);

/*
 * Make sure @ev of @ctx is read whole (its fields and print fmt): every use of a declared
 * event's fields, print fmt or FAILED flag comes after it. Cheap when it is (one load); safe
 * from several threads at once. ftrace_event_find() does it for the event it returns.
 */
static inline void ftrace_event_load(const struct ftrace_ctx *ctx, const struct ftrace_event *ev)
{
	if (__builtin_expect(__atomic_load_n(&ev->pending, __ATOMIC_ACQUIRE), 0))
		ftrace_event_load_slow(ctx, ev);
}

/*
 * /proc/kallsyms, printk_formats and saved_cmdlines texts, added to @ctx. The text ends at
 * @len or at its first NUL byte, lines are split at '\n' and empty lines are skipped.
 *
 * - kallsyms: "<hex addr> <type char> <name>[\t[<module>]]". Symbols of type 'A' or 'a'
 *   (absolute) and names starting with '$' are skipped; every other one is kept, repeated
 *   addresses included. module is the word after "\t[" minus its last character (the ']').
 * - printk_formats: "<hex addr> : <fmt>" (see struct ftrace_printk for what fmt keeps).
 * - saved_cmdlines: "<decimal pid> <comm>": comm is the rest of the line after the blanks
 *   following the pid and may contain spaces; "123abc" gives pid 123, comm "abc".
 *
 * A line that does not parse stops the parse with TK_ERR_FORMAT and its line number; the
 * entries of the lines before it stay added. That is exactly the table libtraceevent keeps
 * (trace-cmd ignores the error), so a caller after trace-cmd's output may ignore the error.
 */
enum tk_status ftrace_kallsyms_parse(struct ftrace_ctx *ctx, const char *text, size_t len);

/*
 * Keep the kallsyms @text (borrowed: it must outlive @ctx) and parse it at the first symbol
 * lookup instead: tens of thousands of lines that most reads (conversions, raw output,
 * events without %pS) never look at. Call instead of ftrace_kallsyms_parse(), before or
 * after ftrace_ctx_finish(). A bad line ends the table there, as ftrace_kallsyms_parse()
 * stops there.
 */
void ftrace_kallsyms_defer(struct ftrace_ctx *ctx, const char *text, size_t len);

/*
 * ftrace_kallsyms_defer() of a text that is not read yet: @fetch(@payload, &len) is called
 * once, at the first symbol lookup, and returns the kallsyms text (borrowed: it must outlive
 * @ctx) or NULL for none. For symbols found outside the trace (perf.data: the kernel's
 * symbols as perf script finds them), which only some prints need.
 */
void ftrace_kallsyms_defer_fetch(struct ftrace_ctx *ctx,
				 const char *(*fetch)(void *payload, size_t *len), void *payload);

/*
 * ftrace_kallsyms_defer_fetch() of a text read a part at a time, for /proc/kallsyms, which
 * the kernel writes line by line as it is read (tens of milliseconds for 120k lines): each
 * call of @more(@payload, &len) reads more and returns the whole text read so far, at the
 * same address every time (borrowed: it must outlive @ctx), and its length, the same as
 * before at the end; NULL for no text at all.
 *
 * A lookup (ftrace_sym_find()) of an address among the kernel's own symbols, which come
 * first and in address order, reads only until the table has one above it, and answers
 * when the whole table's answer is known already: the modules' symbols (after the kernel's,
 * in no order) lie outside the kernel's image, so never between two of its symbols, and the
 * one found is its address's only symbol or the address is past it. Anything else (an
 * address below the first symbol or past the kernel's, several symbols at the address,
 * symbols out of order, ftrace_syms_count(), ftrace_sym_at(), ftrace_sym_addr()) reads the
 * whole text first, as ftrace_kallsyms_defer_fetch() does.
 */
void ftrace_kallsyms_defer_stream(struct ftrace_ctx *ctx,
				  const char *(*more)(void *payload, size_t *len), void *payload);

/*
 * The number of symbols, parsed first if they were deferred; ftrace_sym_at() gives symbol @i
 * by address order (NULL when out of memory), valid as long as @ctx.
 */
size_t ftrace_syms_count(const struct ftrace_ctx *ctx);
const struct ftrace_sym *ftrace_sym_at(const struct ftrace_ctx *ctx, size_t i);

/* The address of the first symbol (by address) named @name, or 0. */
uint64_t ftrace_sym_addr(const struct ftrace_ctx *ctx, const char *name);
enum tk_status ftrace_printk_parse(struct ftrace_ctx *ctx, const char *text, size_t len);
enum tk_status ftrace_cmdlines_parse(struct ftrace_ctx *ctx, const char *text, size_t len);

/*
 * Add one pid -> comm mapping the way libtraceevent's tep_register_comm() does; its
 * sched_switch and sched_wakeup plugins call that for every prev/next/wakee they print, so
 * trace-cmd names later records of those pids. Before ftrace_ctx_finish() the entry is added
 * like a saved_cmdlines line; after it, pid 0 and pids already present are left alone and a
 * new pid is inserted in order. @comm is @len bytes, copied.
 */
enum tk_status ftrace_comm_register(struct ftrace_ctx *ctx, int32_t pid, const char *comm,
				    size_t len);

/*
 * Lookups, after ftrace_ctx_finish(); NULL when absent. Each finds the entry libtraceevent's
 * sort (stable) and glibc's bsearch() find, so a repeated id, address or pid answers the same
 * entry as trace-cmd does. Which of several entries with one key that is depends on where
 * they sit in the table (events keep their parse order among equals; symbols, printk formats
 * and comms are in reverse order, as libtraceevent lists them before sorting).
 *
 * ftrace_sym_find(): the symbol whose address is @addr, or else the one with the greatest
 * address below @addr -- but NULL below the first symbol and, past the last symbol, NULL
 * unless @addr equals its address (libtraceevent has no size for the last symbol).
 * ftrace_comm_find(): the table only; trace-cmd prints "<idle>" for pid 0 before looking and
 * "<...>" when the pid is absent.
 * ftrace_field_find(): common fields first, then the event's (libtraceevent's
 * tep_find_any_field()).
 */
const struct ftrace_event *ftrace_event_find(const struct ftrace_ctx *ctx, uint32_t id);
const struct ftrace_sym *ftrace_sym_find(const struct ftrace_ctx *ctx, uint64_t addr);
const struct ftrace_printk *ftrace_printk_find(const struct ftrace_ctx *ctx, uint64_t addr);
const char *ftrace_comm_find(const struct ftrace_ctx *ctx, int32_t pid);
const struct ftrace_field *ftrace_field_find(const struct ftrace_event *ev, const char *name);

/*
 * The integer value of a scalar field (sizes 1, 2, 4, 8) in the trace's byte order,
 * sign-extended when the field is signed; 0 for other sizes (as libtraceevent's
 * tep_read_number()). The caller has checked offset + size <= the record size.
 */
uint64_t ftrace_field_u64(const struct ftrace_ctx *ctx, const struct ftrace_field *f,
			  const uint8_t *rec);

/*
 * Where the data of a DYNAMIC field is: offset from the start of @rec and length in bytes.
 * The location word (read unsigned, of the field's size) holds the offset in its low 16 bits
 * and the length in the next 16; a size-2 word holds only the offset, and the length is then
 * @size - offset; RELATIVE adds the field's offset + size to the offset.
 *
 * Returns 0 when [offset, offset + len) lies within the @size bytes of the record, else -1.
 * Either way *offset and *len are what libtraceevent computes (0 when the field itself does
 * not fit; offset 0 when past the record; len 0 when offset + len is past it; the RELATIVE
 * adjustment after those checks), so a printer can reproduce its output -- but after -1 it
 * must not read the range.
 */
int ftrace_field_dynamic(const struct ftrace_ctx *ctx, const struct ftrace_field *f,
			 const uint8_t *rec, size_t size, uint32_t *offset, uint32_t *len);

/*
 * Where the bytes of @f are in a record of @size bytes, as every reader of values takes
 * them: a dynamic field where its location word says, a field running to the end of the
 * record (@to_end: print's flexible text, kernel_stack's frames) from its offset on, any
 * other at its offset for its size; *@off and *@len 0 when the record does not hold it.
 */
static inline void ftrace_field_span(const struct ftrace_ctx *ctx, const struct ftrace_field *f,
				     int to_end, const uint8_t *rec, size_t size, uint32_t *off,
				     uint32_t *len)
{
	int fits = f->offset <= size && f->size <= size - f->offset;

	*off = f->offset;
	*len = f->size;
	if (f->flags & FTRACE_FIELD_DYNAMIC) {
		if (!fits || ftrace_field_dynamic(ctx, f, rec, size, off, len) < 0)
			*off = *len = 0;
	} else if (to_end) {
		if (*off > size)
			*off = *len = 0;
		else
			*len = (uint32_t) (size - *off);
	} else if (!fits) {
		*off = *len = 0;
	}
}

#endif /* TK_FTRACE_FTRACE_H */
