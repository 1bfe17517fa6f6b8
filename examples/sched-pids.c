// SPDX-License-Identifier: MIT
/*
 * sched-pids: print the task switches of a trace, one line per sched_switch event:
 *
 *	PREV_PID NEXT_PID
 *
 * The same program reads a trace-cmd trace.dat file and an LTTng kernel trace (CTF): both
 * give the event's fields through the same calls. ftrace names the fields prev_pid and
 * next_pid, LTTng prev_tid and next_tid; both are tried.
 *
 * It uses only the installed library, found with pkg-config:
 *
 *	cc -o sched-pids sched-pids.c $(pkg-config --cflags --libs tracekit)
 *	./sched-pids trace.dat
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <tracekit/tracekit.h>

/* The first of two payload fields that exists, as a signed integer. */
static enum tk_status get_pid(const struct tk_event *ev, const char *name, const char *alt,
			      int64_t *pid)
{
	struct tk_field f;
	enum tk_status st;

	st = tk_event_get_field(ev, TK_SCOPE_PAYLOAD, name, &f);
	if (st == TK_ERR_NOTFOUND)
		st = tk_event_get_field(ev, TK_SCOPE_PAYLOAD, alt, &f);
	if (st < 0)
		return st;
	return tk_field_get_int(&f, pid);
}

static int report(const char *what)
{
	size_t i;

	fprintf(stderr, "sched-pids: %s", what);
	for (i = 0; i < tk_error_count(); i++)
		fprintf(stderr, ": %s", tk_error_cause(i));
	fputc('\n', stderr);
	return 1;
}

int main(int argc, char **argv)
{
	struct tk_trace *trace;
	struct tk_iter *it;
	const struct tk_event *ev;
	enum tk_status st;
	int64_t prev, next;
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: sched-pids TRACE...\n");
		return 2;
	}
	if (tk_trace_open(&trace, (const char *const *) argv + 1, (size_t) argc - 1, NULL) < 0)
		return report("cannot open the trace");
	if (tk_iter_create(&it, trace) < 0) {
		tk_trace_close(trace);
		return report("cannot read the trace");
	}
	while ((st = tk_iter_next(it, &ev)) == TK_OK) {
		const char *name = tk_event_class_get_name(tk_event_get_class(ev));

		if (!name || strcmp(name, "sched_switch"))
			continue;
		if (get_pid(ev, "prev_pid", "prev_tid", &prev) < 0 ||
		    get_pid(ev, "next_pid", "next_tid", &next) < 0) {
			rc = report("cannot read a sched_switch event");
			break;
		}
		printf("%" PRId64 " %" PRId64 "\n", prev, next);
	}
	if (st < 0)
		rc = report("cannot read the trace");
	tk_iter_destroy(it);
	tk_trace_close(trace);
	return rc;
}
