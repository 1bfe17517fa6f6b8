/* SPDX-License-Identifier: MIT */
/*
 * The print-fmt language of event `format` files ("print fmt: \"%d\", REC->x"), compiled once
 * per event class and run per record to produce the text `trace-cmd report` prints after an
 * event's name -- byte for byte what libtraceevent 1.7.1 writes (trace-cmd 3.1.6 on Debian 12).
 * Reference: ../shared/reference/tracedat.md section 6.
 *
 *	for each event of the context (once):
 *		if (ftrace_print_compile(ctx, ev) < 0)
 *			... ev->print stays NULL: ftrace_print_info() prints the raw fields
 *	per record:
 *		ftrace_print_info(ctx, ev, rec, size, cpu, w);   // default report text
 *		ftrace_print_raw(ctx, ev, rec, size, w);         // trace-cmd report -R
 *
 * The evaluator never reads outside the record: a field, dynamic array or string that does
 * not fit prints the way libtraceevent prints a bad value, never bytes from elsewhere.
 */
#ifndef TK_FTRACE_PRINTFMT_H
#define TK_FTRACE_PRINTFMT_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/writer.h"
#include "ftrace.h"

/*
 * Compile @ev->print_fmt into ev->print (owned by @ctx, freed by ftrace_ctx_fini()). On a
 * print fmt it cannot handle, returns an error with a cause and leaves ev->print NULL.
 */
enum tk_status ftrace_print_compile(struct ftrace_ctx *ctx, struct ftrace_event *ev);

/* Free a compiled print fmt (ftrace_ctx_fini() calls it for every event). */
void ftrace_print_free(void *print);

/*
 * The INFO text of one record of @ev (@rec, @size bytes, recorded on @cpu), as trace-cmd
 * report prints it after "name: " (no newline). Events without a compiled print fmt print
 * what libtraceevent prints for them (their fields, raw).
 */
void ftrace_print_info(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
		       const uint8_t *rec, size_t size, int cpu, struct writer *w);

/* The fields of one record as `trace-cmd report -R` prints them (no newline). */
void ftrace_print_raw(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
		      const uint8_t *rec, size_t size, struct writer *w);

#endif /* TK_FTRACE_PRINTFMT_H */
