/* SPDX-License-Identifier: MIT */
/*
 * Fills a thread's ring with no consumer thread running (tk_ust_opts.no_consumer), so that
 * events are dropped, flushes (which frees the ring), writes an event larger than a
 * sub-buffer (dropped too), writes more, and stops. Prints the
 * number of events it emitted; tests/ust/ust-discard.sh checks that the events babeltrace2
 * reads plus the losses it reports equal that number.
 *
 * With "nofd", the first flush runs with every file descriptor taken: it must fail, the
 * packets stay in the ring (events written meanwhile are dropped and counted), and a flush
 * once descriptors are free again writes them.
 *
 * Usage: ust-discard DIR EVENTS-BEFORE-FLUSH EVENTS-AFTER [nofd]
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracekit/ust.h>

static void emit(long n, long *count)
{
	long i;

	for (i = 0; i < n; i++, (*count)++)
		tk_tracepoint(tktest, ints, (int8_t) i, (int16_t) i, (int32_t) *count, (int64_t) i,
			      (uint8_t) i, (uint16_t) i, (uint32_t) i, (uint64_t) i);
}

/* Flush with no descriptor left: it must fail; then free them and flush again. */
static int flush_without_fds(long *count)
{
	int fds[4096], n = 0, ok;

	while (n < (int) (sizeof(fds) / sizeof(fds[0])) && (fds[n] = dup(2)) >= 0)
		n++;
	if (errno != EMFILE) {
		fprintf(stderr, "ust-discard: cannot use up the descriptors (limit too high)\n");
		return -1;
	}
	ok = tk_ust_flush() < 0;
	emit(100, count); /* the ring is still full: dropped, counted */
	while (n)
		close(fds[--n]);
	if (!ok) {
		fprintf(stderr, "ust-discard: a flush without descriptors did not fail\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	long count = 0;

	if (argc != 4 && !(argc == 5 && !strcmp(argv[4], "nofd"))) {
		fprintf(stderr, "usage: ust-discard DIR BEFORE AFTER\n");
		return 2;
	}
	o.subbuf_size = 4096;
	o.subbuf_count = 2;
	o.no_consumer = 1;
	if (tk_ust_session_start(argv[1], &o) < 0) {
		fprintf(stderr, "ust-discard: cannot start: %s\n",
			tk_error_count() ? tk_error_cause(0) : "?");
		return 1;
	}
	/* discard mode writes packets as they come: nothing to snapshot */
	if (tk_ust_snapshot() != TK_ERR_INVAL) {
		fprintf(stderr, "ust-discard: a snapshot in discard mode was not refused\n");
		return 1;
	}
	emit(atol(argv[2]), &count);
	if (argc == 5 && flush_without_fds(&count) < 0)
		return 1;
	if (tk_ust_flush() < 0)
		return 1;
	{
		/* larger than a sub-buffer: dropped and counted, whatever room the ring has */
		static char big[5000];

		memset(big, 'x', sizeof(big) - 1);
		tk_tracepoint(tktest, strings, big, "", "", 0, (const uint8_t *) "", 0);
		count++;
	}
	emit(atol(argv[3]), &count);
	if (tk_ust_session_stop() < 0)
		return 1;
	/* disabled now: not counted, not written */
	emit(10, &count);
	printf("%ld\n", count - 10);
	return 0;
}
