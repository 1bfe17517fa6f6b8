/* SPDX-License-Identifier: MIT */
/*
 * The filter stage: which events of a trace go on to the output. One filter serves every
 * input format and every command (tracekit print, tk_convert()); it sits between the
 * time-ordered iterator and the sink:
 *
 *	struct tk_filter_opts fo = TK_FILTER_OPTS_INIT;
 *	const char *ev[] = {"sched_switch"};
 *
 *	fo.events = ev;
 *	fo.n_events = 1;
 *	if (tk_time_parse(&fo.begin, "1234.5", 0) < 0 ||
 *	    tk_filter_create(&f, trace, &fo) < 0)
 *		return error;
 *	while ((st = tk_iter_next(it, &e)) == TK_OK) {
 *		if ((st = tk_filter_match(f, e, &keep)) < 0)
 *			break;
 *		if (keep)
 *			print(e);
 *	}
 */
#ifndef TRACEKIT_FILTER_H
#define TRACEKIT_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/export.h>
#include <tracekit/iter.h>
#include <tracekit/status.h>
#include <tracekit/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tk_filter;

/**
 * enum tk_time_kind - What a struct tk_time holds.
 * @TK_TIME_NONE:        No time (no bound).
 * @TK_TIME_FROM_ORIGIN: Nanoseconds from the clock origin, as tk_event_get_timestamp()
 *                       gives them (for the usual absolute clocks, from the Unix epoch).
 * @TK_TIME_OF_DAY:      Nanoseconds since midnight, on the day of the trace's first event
 *                       (in local time, or UTC with TK_FILTER_GMT), as babeltrace2 takes
 *                       "hh:mm[:ss[.n]]".
 */
enum tk_time_kind {
	TK_TIME_NONE,
	TK_TIME_FROM_ORIGIN,
	TK_TIME_OF_DAY,
};

/**
 * struct tk_time - A bound of a time window, as the user wrote it.
 * @kind: An enum tk_time_kind.
 * @ns:   Nanoseconds, read as @kind says.
 */
struct tk_time {
	unsigned int kind;
	int64_t ns;
};

/**
 * enum tk_filter_flags - Choices of tk_time_parse() and tk_filter_create().
 * @TK_FILTER_GMT: Dates and times of day are in UTC, not in the local time zone
 *                 (babeltrace2's --clock-gmt).
 */
enum tk_filter_flags {
	TK_FILTER_GMT = 1u << 0,
};

/**
 * tk_time_parse() - Read a time as `--begin` and `--end` take it.
 * @out:   Set to the time on success.
 * @text:  The time: seconds from the clock origin with an optional fraction and sign
 *         ("1234", "-3", "1234.5", as babeltrace2 takes them); a number with a unit ("210s",
 *         "1.5ms", "20us", "123ns"); a date and time of day "YYYY-MM-DD hh:mm[:ss[.n]]"; or
 *         a time of day "hh:mm[:ss[.n]]" on the trace's first day. At most nine decimals.
 * @flags: TK_FILTER_GMT: a date and time of day is in UTC (else the local time zone).
 *
 * Return: TK_OK, or TK_ERR_INVAL with a cause when @text is none of these.
 * Ownership: @text is borrowed for the call.
 */
TK_EXPORT enum tk_status tk_time_parse(struct tk_time *out, const char *text, unsigned int flags);

/**
 * struct tk_filter_opts - What tk_filter_create() keeps; every part given must hold.
 * @size:     sizeof(struct tk_filter_opts), set by TK_FILTER_OPTS_INIT.
 * @flags:    A combination of enum tk_filter_flags.
 * @begin:    Drop events before this time (TK_TIME_NONE: no bound).
 * @end:      Drop events after this time (included).
 * @events:   Event specs (@n_events; none: every event): "all", "SYSTEM", "SYSTEM:EVENT",
 *            "EVENT", globs allowed, as `tracekit record -e` takes them. A CTF event named
 *            "provider:event" counts as system and event.
 * @n_events: Number of @events.
 * @pids:     Keep events of these tasks (@n_pids; none: every task): trace.dat common_pid;
 *            for CTF the tid context field, else vtid, else pid, else vpid.
 * @n_pids:   Number of @pids.
 * @comms:    Keep events of tasks with these names, globs allowed (@n_comms): for trace.dat
 *            the name the file's saved command lines give the pid ("<idle>" for pid 0,
 *            "<...>" when unknown, as trace-cmd report shows them); for CTF the procname
 *            context field.
 * @n_comms:  Number of @comms.
 * @cpus:     Keep events of these CPUs (@n_cpus): trace.dat the buffer's CPU, CTF the
 *            packet context's cpu_id. On trace.dat files, as `trace-cmd report --cpu`, it
 *            also leaves out the events of instance buffers.
 * @n_cpus:   Number of @cpus.
 * @predicates:   Field predicates in `trace-cmd report -F` syntax (@n_predicates; none: no
 *            predicate), "EVENTS[:EXPRESSION]": EVENTS is a comma-separated list of
 *            SYSTEM/EVENT or EVENT, each a POSIX basic regular expression matched whole and
 *            without case (EVENT alone matches a system or an event name; a CTF event
 *            "provider:event" is provider/event); EXPRESSION compares fields with numbers
 *            (decimal, 0x hex, 0 octal) or quoted strings: == != < <= > >= & (bitwise
 *            test) on numbers (trace.dat: unsigned 64-bit after sign extension, as
 *            trace-cmd; CTF signed fields: signed), == != =~ !~ (regular expression) on strings, joined by !,
 *            parentheses, && and || (one level: "a || b && c" is "(a || b) && c", as
 *            trace-cmd reads it). An event kept must match one of them; events of classes
 *            none lists are dropped. A field an event lacks makes its comparison false;
 *            COMM and CPU, when not field names, are the task's name and the CPU; a
 *            field no listed class has is an error. Read only when @size covers them.
 * @n_predicates: Number of @predicates.
 */
struct tk_filter_opts {
	size_t size;
	unsigned int flags;
	struct tk_time begin;
	struct tk_time end;
	const char *const *events;
	size_t n_events;
	const int64_t *pids;
	size_t n_pids;
	const char *const *comms;
	size_t n_comms;
	const unsigned int *cpus;
	size_t n_cpus;
	const char *const *predicates;
	size_t n_predicates;
};

#define TK_FILTER_OPTS_INIT                                                                        \
	{                                                                                          \
		.size = sizeof(struct tk_filter_opts)                                              \
	}

/**
 * tk_filter_create() - Check a selection against a trace and make its filter.
 * @out:   Set to the new filter on success.
 * @trace: The trace whose events will be matched.
 * @opts:  What to keep, or NULL to keep everything.
 *
 * Each part is checked against @trace: an event spec that names no event class fails with
 * TK_ERR_NOTFOUND and a cause suggesting the nearest names ("did you mean sched_switch?");
 * so does a pid, comm or CPU selection when no event class of @trace has the field it
 * needs, and a time window on a trace with a stream without a clock. A predicate that does
 * not parse fails with TK_ERR_INVAL and a cause giving the offset; one whose events name no
 * class, or with a field no class it lists has, fails with TK_ERR_NOTFOUND and the nearest
 * names. A time of day is placed on the day of the first event (read with an iterator of its
 * own); a window whose end comes before its begin fails with TK_ERR_INVAL.
 *
 * Return: TK_OK, or a negative status with its causes in the error chain.
 * Ownership: @opts is borrowed for the call. @trace is borrowed for the life of the filter.
 * *@out belongs to the caller, who releases it with tk_filter_destroy().
 */
TK_EXPORT enum tk_status tk_filter_create(struct tk_filter **out, struct tk_trace *trace,
					  const struct tk_filter_opts *opts);

/**
 * tk_filter_match() - Whether an event passes the filter.
 * @f:    A filter.
 * @ev:   An event of the filter's trace.
 * @keep: Set to 1 when @ev passes, 0 when it does not.
 *
 * Event classes are decided once, when the filter is made; an event of a class that has
 * a pid, comm or CPU field asked for, or a field a predicate reads from its scopes (CTF),
 * has its values decoded.
 * Return: TK_OK, or a negative status when the values of @ev could not be decoded.
 * Ownership: @ev is borrowed for the call.
 */
TK_EXPORT enum tk_status tk_filter_match(struct tk_filter *f, const struct tk_event *ev, int *keep);

/**
 * tk_filter_destroy() - Free a filter.
 * @f: A filter, or NULL.
 *
 * Return: Nothing.
 * Ownership: @f is invalid afterwards.
 */
TK_EXPORT void tk_filter_destroy(struct tk_filter *f);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_FILTER_H */
