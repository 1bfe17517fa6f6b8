/* SPDX-License-Identifier: MIT */
/*
 * The print-fmt language of event `format` files ("print fmt: \"%d\", REC->x"), compiled once
 * per event class and run per record to produce the text `trace-cmd report` prints after an
 * event's name -- byte for byte what libtraceevent 1.7.1 writes (trace-cmd 3.1.6 on Debian 12).
 * Reference: ../shared/reference/tracedat.md section 6.
 *
 *	for each event of the context, after ftrace_ctx_finish() (once):
 *		st = ftrace_print_compile(ctx, ev);      // < 0 only when out of memory
 *	or, to compile each one when first used:
 *		ftrace_print_lazily(ctx);
 *	per record (in time order: some plugins keep state between records):
 *		ftrace_print_info_next(ctx, ev, rec, size, cpu, ts, next, next_size, w);
 *		                                         // default report text; true: skip next
 *		ftrace_print_raw(ctx, ev, rec, size, w); // trace-cmd report -R
 *		n = ftrace_print_comms(ctx, ev, rec, size, refs); // comms trace-cmd learns
 *
 * Plugin handlers of Debian's libtraceevent1-plugin 1.7.1 and trace-cmd's own ones replace
 * the print fmt of their events (sched_switch, sched_wakeup, hrtimer_*, kmem, function,
 * funcgraph_*, kernel_stack, tlb_flush, sys_enter_futex, kvm...), with their default options.
 * The evaluator never reads outside the record: where libtraceevent would read past it (a
 * string without its NUL, a location or length pointing out), bytes past the end read as
 * zeros; output per record is capped. Implementation notes: printfmt-int.h.
 */
#ifndef TK_FTRACE_PRINTFMT_H
#define TK_FTRACE_PRINTFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/writer.h"
#include "ftrace.h"

/*
 * Compile @ev->print_fmt into ev->print (in @ctx's arena; ftrace_ctx_fini() calls
 * ftrace_print_free()). A print fmt libtraceevent cannot parse compiles too: its records
 * print as "[FAILED TO PARSE]" and their fields, like trace-cmd's (ftrace_print_failed()
 * tells). Fails only when out of memory, with a cause, leaving ev->print NULL. Call it after
 * ftrace_ctx_finish() (symbols and the other events are looked up).
 */
enum tk_status ftrace_print_compile(struct ftrace_ctx *ctx, struct ftrace_event *ev);

/*
 * Compile each print fmt of @ctx when it is first needed (a record of its event printed, its
 * comms asked for), instead of ftrace_print_compile() for every event at once: a file of 2,000
 * formats usually has events of a few dozen. Call it after ftrace_ctx_finish().
 */
void ftrace_print_lazily(struct ftrace_ctx *ctx);

/* Free a compiled print fmt (ftrace_ctx_fini() calls it for every event). */
void ftrace_print_free(void *print);

/*
 * The INFO text of one record of @ev (@rec, @size bytes, recorded on @cpu), as trace-cmd
 * report prints it after "name: " (no newline added; the text may end with one, which
 * trace-cmd drops at the end of the line, as the caller must). It never contains a NUL: a
 * NUL libtraceevent prints ends the text. @size must be the record length the ring buffer
 * gives (padding included), as libtraceevent sees it. Events without a compiled print fmt
 * print what libtraceevent prints for a failed one. Not thread-safe per event: some plugins
 * keep state (the function plugin's call stacks), as libtraceevent's do.
 */
void ftrace_print_info(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
		       const uint8_t *rec, size_t size, int cpu, struct writer *w);

/*
 * The fields of one record as `trace-cmd report -R` prints them (no newline): " name=value"
 * for each field that is not a common one, each starting with its space.
 */
void ftrace_print_raw(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
		      const uint8_t *rec, size_t size, struct writer *w);

/*
 * ftrace_print_info() for events whose text shows the record's time: the function plugin's
 * func_repeats prints "last_ts:" as the record's timestamp (@ts, in ns) minus its delta.
 */
void ftrace_print_info_ts(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
			  const uint8_t *rec, size_t size, int cpu, uint64_t ts, struct writer *w);

/*
 * ftrace_print_info_ts() with the record trace-cmd reads after this one (@next, @next_size:
 * the next record in time order over all CPUs; NULL at the end). trace-cmd's funcgraph_entry
 * handler looks at it: when it is the funcgraph_exit of the same function and pid, the pair
 * prints as one leaf line ("func();" with the duration) and trace-cmd does not print @next
 * itself. Returns true in that case: the caller must skip @next. Other events ignore @next.
 */
bool ftrace_print_info_next(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
			    const uint8_t *rec, size_t size, int cpu, uint64_t ts,
			    const uint8_t *next, size_t next_size, struct writer *w);

/*
 * ftrace_print_info() as libtraceevent prints it with no plugin loaded, as perf script 6.1
 * does (it looks for plugins in ~/.local/lib/traceevent/plugins only): the print fmt's own
 * text for every event (sched_switch's "prev_comm=... ==> next_comm=..."), and "[FAILED TO
 * PARSE]" with the fields for a print fmt that calls a function only a plugin defines.
 */
void ftrace_print_info_plain(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
			     const uint8_t *rec, size_t size, int cpu, struct writer *w);

/* Does printing a record of @ev look at the record after it (ftrace_print_info_next())? */
bool ftrace_print_wants_next(const struct ftrace_ctx *ctx, const struct ftrace_event *ev);

/*
 * Whether libtraceevent would fail on @ev's print fmt, so that its records print as
 * "[FAILED TO PARSE]" and the raw fields (true too when it was never compiled). Such events
 * still compile (TK_OK): failing is the behaviour we reproduce, not an error of ours.
 */
bool ftrace_print_failed(const struct ftrace_event *ev);

/*
 * A task name the sched plugin learns from a record (sched_switch: both tasks, prev first;
 * sched_wakeup/_new: the woken task). trace-cmd adds each to its pid -> comm table unless
 * the pid already has one, so later events of that pid show this comm in their header
 * instead of "<...>". Only in the default (not -R) output, after the record is printed.
 */
struct ftrace_comm_ref {
	int32_t pid;
	const char *comm; /* borrowed from the record; not NUL-terminated */
	size_t len;
};

/* The comms @rec teaches (0, 1 or 2, in the order trace-cmd registers them). */
unsigned int ftrace_print_comms(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
				const uint8_t *rec, size_t size, struct ftrace_comm_ref out[2]);

#endif /* TK_FTRACE_PRINTFMT_H */
