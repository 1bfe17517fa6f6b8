/* SPDX-License-Identifier: MIT */
/*
 * Threads that come and go: THREADS threads, one after the other, each emits EVENTS `ints`
 * events (s32 = the thread's number, u32 = the event's) and ends; then the session stops.
 * In overwrite mode the rings of ended threads are kept for snapshots, but only the
 * newest-ended UST_ENDED_MAX (64): tests/ust/ust-churn.sh checks that the stop's snapshot holds
 * exactly the last 64 threads, whole. In discard mode ("discard") a flush after each thread
 * has its ring written, and the next thread takes it over: one stream for all, each thread's
 * events whole. Prints the peak resident memory in KiB (VmHWM).
 *
 * Usage: ust-churn DIR THREADS EVENTS [discard]
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracekit/ust.h>

#include "ust-rss.h"

static long events;

static void *work(void *arg)
{
	int32_t idx = (int32_t) (intptr_t) arg;
	long i;

	for (i = 0; i < events; i++)
		tk_tracepoint(tktest, ints, 0, 0, idx, 0, 0, 0, (uint32_t) i, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	pthread_t th;
	long n, i;

	if (argc != 4 && !(argc == 5 && !strcmp(argv[4], "discard"))) {
		fprintf(stderr, "usage: ust-churn DIR THREADS EVENTS [discard]\n");
		return 2;
	}
	n = atol(argv[2]);
	events = atol(argv[3]);
	o.mode = argc == 5 ? TK_UST_MODE_DISCARD : TK_UST_MODE_OVERWRITE;
	o.subbuf_size = 4096;
	o.subbuf_count = 4;
	if (tk_ust_session_start(argv[1], &o) < 0)
		return 1;
	for (i = 0; i < n; i++) {
		if (pthread_create(&th, NULL, work, (void *) (intptr_t) i) ||
		    pthread_join(th, NULL))
			return 1;
		/* discard mode: the ended thread's ring written now, for the next to take */
		if (o.mode == TK_UST_MODE_DISCARD && tk_ust_flush() < 0) {
			fprintf(stderr, "ust-churn: flush: %s\n",
				tk_error_count() ? tk_error_cause(0) : "?");
			return 1;
		}
	}
	if (tk_ust_session_stop() < 0)
		return 1;
	printf("%ld\n", peak_rss_kib());
	return 0;
}
