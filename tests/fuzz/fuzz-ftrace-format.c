// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the ftrace description readers (src/ftrace/ftrace-format.c and ftrace.c):
 * event format files, header_page, kallsyms, printk_formats and saved_cmdlines, then every
 * lookup and field reader on what they built.
 *
 *	u8 mode | text
 *
 * mode bits 0-2 pick the reader: 0 a format file of system "ftrace" (its quirks on), 1 of
 * system "sched", 2 header_page, 3 kallsyms, 4 printk_formats, 5 saved_cmdlines, 6 and 7
 * several format files separated by NUL bytes (6 also reads the last part as kallsyms).
 * Modes 0 and 1 also read the file declared then loaded, as the trace.dat reader does, and
 * trap unless that gives what the whole parse gave.
 * Bit 7: big-endian context; bit 6: long size 4. The text itself serves as the record for the
 * field readers, so a dynamic field that claims bytes outside it shows under ASan. It must
 * never crash, hang or leak.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <tracekit/status.h>

#include "common/error.h"
#include "ftrace/ftrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* where values go, so the compiler cannot drop the loads */
static volatile uint64_t sink;

static void exercise_event(struct ftrace_ctx *ctx, const struct ftrace_event *ev,
			   const uint8_t *rec, size_t size)
{
	uint64_t acc = 0;
	uint32_t i, off, len, k;

	if (ftrace_event_find(ctx, ev->id) == NULL)
		__builtin_trap(); /* an added event must be found by its id */
	for (i = 0; i < ev->n_fields; i++) {
		const struct ftrace_field *f = &ev->fields[i];

		if (!ftrace_field_find(ev, f->name))
			__builtin_trap();
		acc += strlen(f->type) + f->arraylen + f->elemsize;
		if (f->offset <= size && f->size <= size - f->offset)
			acc += ftrace_field_u64(ctx, f, rec);
		if ((f->flags & FTRACE_FIELD_DYNAMIC) &&
		    ftrace_field_dynamic(ctx, f, rec, size, &off, &len) == 0)
			for (k = 0; k < len; k++)
				acc += rec[off + k];
	}
	if (ev->print_fmt)
		acc += strlen(ev->print_fmt);
	sink = acc;
}

static void exercise(struct ftrace_ctx *ctx, const uint8_t *rec, size_t size)
{
	uint64_t acc = 0;
	size_t i, n;

	if (ftrace_ctx_finish(ctx) < 0)
		return;
	for (i = 0; i < ctx->n_events; i++)
		exercise_event(ctx, ctx->events[i], rec, size);
	for (i = 0; i < ctx->n_syms; i++) {
		const struct ftrace_sym *s = ftrace_sym_find(ctx, ctx->syms[i].addr);

		/* a symbol's own address finds a symbol at that address */
		if (!s || s->addr != ctx->syms[i].addr)
			__builtin_trap();
		acc += strlen(s->name) + (s->module ? strlen(s->module) : 0);
		s = ftrace_sym_find(ctx, ctx->syms[i].addr + 1);
		acc += s ? s->addr : 0;
		s = ftrace_sym_find(ctx, ctx->syms[i].addr - 1);
		acc += s ? s->addr : 0;
	}
	for (i = 0; i < ctx->n_printk; i++) {
		const struct ftrace_printk *p = ftrace_printk_find(ctx, ctx->printk[i].addr);

		if (!p || p->addr != ctx->printk[i].addr)
			__builtin_trap();
		acc += strlen(p->fmt);
	}
	n = ctx->n_comms;
	for (i = 0; i < n; i++) {
		const char *c = ftrace_comm_find(ctx, ctx->comms[i].pid);

		if (!c)
			__builtin_trap();
		acc += strlen(c);
	}
	/* what the sched_switch plugin does while printing; inserts move entries around */
	for (i = 0; i < n && i < 16; i++) {
		int32_t pid = ctx->comms[i].pid;

		if (pid == INT32_MAX)
			continue;
		if (ftrace_comm_register(ctx, pid + 1, "x", 1) == TK_OK && pid + 1 != 0 &&
		    !ftrace_comm_find(ctx, pid + 1))
			__builtin_trap();
	}
	sink = acc;
}

static int str_differ(const char *a, const char *b)
{
	return (a == NULL) != (b == NULL) || (a && strcmp(a, b));
}

/* Whether @x_ctx and @b_ctx hold the same events: ids, names, print fmts, flags, fields. */
static int same_events(const struct ftrace_ctx *x_ctx, const struct ftrace_ctx *b_ctx)
{
	size_t i;

	if (x_ctx->n_events != b_ctx->n_events)
		return 0;
	for (i = 0; i < x_ctx->n_events; i++) {
		const struct ftrace_event *a = x_ctx->events[i], *b = b_ctx->events[i];

		if (a->id != b->id || a->n_fields != b->n_fields || a->n_common != b->n_common ||
		    a->flags != b->flags || str_differ(a->name, b->name) ||
		    str_differ(a->print_fmt, b->print_fmt))
			return 0;
		for (uint32_t k = 0; k < a->n_fields; k++) {
			const struct ftrace_field *x = &a->fields[k], *y = &b->fields[k];

			if (str_differ(x->name, y->name) || str_differ(x->type, y->type) ||
			    x->offset != y->offset || x->size != y->size ||
			    x->arraylen != y->arraylen || x->elemsize != y->elemsize ||
			    x->flags != y->flags)
				return 0;
		}
	}
	return 1;
}

/*
 * The format file @text declared as far as its ID (ftrace_event_declare(), what the trace.dat
 * reader does) and loaded (ftrace_event_load(), at the first event met), which must give the
 * events, fields and flags ftrace_event_parse() gave in @eager.
 */
static void same_when_declared(const struct ftrace_ctx *eager, const char *system, const char *text,
			       size_t len)
{
	struct ftrace_ctx ctx;
	size_t i;

	ftrace_ctx_init(&ctx, eager->bo);
	ctx.long_size = eager->long_size;
	if (ftrace_event_declare(&ctx, system, text, len) < 0)
		error_reset(); /* no name or ID: nothing declared, as nothing was parsed */
	if (ftrace_ctx_finish(&ctx) < 0)
		__builtin_trap();
	for (i = 0; i < ctx.n_events; i++)
		ftrace_event_load(&ctx, ctx.events[i]);
	if (!same_events(&ctx, eager) || ctx.n_formats_loaded != ctx.n_events)
		__builtin_trap();
	ftrace_ctx_fini(&ctx);
}

/*
 * The format file @text read again with every field line taken the general way, which must
 * give what the usual-line reader gave (ftrace-format.c reads most lines without tokens):
 * the same status, causes, events and fields.
 */
static void same_both_ways(const struct ftrace_ctx *fast, enum tk_byte_order bo, uint32_t long_size,
			   const char *system, const char *text, size_t len, enum tk_status want)
{
	struct ftrace_ctx ctx;
	struct ftrace_event *ev = NULL;
	char cause[512];

	snprintf(cause, sizeof(cause), "%s", tk_error_count() ? tk_error_cause(0) : "");
	error_reset();
	ftrace_ctx_init(&ctx, bo);
	ctx.long_size = long_size;
	ctx.format_general_only = 1;
	if (ftrace_event_parse(&ctx, system, text, len, &ev) != want ||
	    strcmp(cause, tk_error_count() ? tk_error_cause(0) : "") || !same_events(&ctx, fast))
		__builtin_trap();
	ftrace_ctx_fini(&ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const systems[] = {"ftrace", "sched", "ftrace", "irq"};
	struct ftrace_page_layout layout;
	struct ftrace_ctx ctx;
	const char *text;
	size_t len, start, end, part = 0;
	uint8_t mode;

	if (size < 1 || size > (1u << 20))
		return 0;
	mode = data[0];
	text = (const char *) data + 1;
	len = size - 1;
	error_reset();
	ftrace_ctx_init(&ctx, mode & 0x80 ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE);
	if (mode & 0x40)
		ctx.long_size = 4;
	switch (mode & 7) {
	case 0:
	case 1: {
		enum tk_status st = ftrace_event_parse(&ctx, systems[mode & 1], text, len, NULL);

		same_both_ways(&ctx, ctx.bo, ctx.long_size, systems[mode & 1], text, len, st);
		same_when_declared(&ctx, systems[mode & 1], text, len);
		break;
	}
	case 2:
		if (ftrace_page_layout_parse(text, len, &layout) == TK_OK)
			sink = layout.data_offset + layout.data_size;
		break;
	case 3:
		ftrace_kallsyms_parse(&ctx, text, len);
		break;
	case 4:
		ftrace_printk_parse(&ctx, text, len);
		break;
	case 5:
		ftrace_cmdlines_parse(&ctx, text, len);
		break;
	default:
		for (start = 0; start <= len; start = end + 1, part++) {
			const char *nul = memchr(text + start, '\0', len - start);

			end = nul ? (size_t) (nul - text) : len;
			if (!nul && (mode & 7) == 6)
				ftrace_kallsyms_parse(&ctx, text + start, end - start);
			else
				ftrace_event_parse(&ctx, systems[part & 3], text + start,
						   end - start, NULL);
		}
		break;
	}
	exercise(&ctx, (const uint8_t *) text, len);
	ftrace_ctx_fini(&ctx);
	return 0;
}
