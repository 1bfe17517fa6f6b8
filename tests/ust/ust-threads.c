/* SPDX-License-Identifier: MIT */
/*
 * Thousands of threads alive at once: THREADS threads start, wait until all have started,
 * each emits EVENTS `ints` events (s32 = its event number, u32 = its index), and waits until
 * all have emitted before ending, so that every ring is live at the same time, and packets
 * are written while their threads live. Prints the number of events emitted, then the
 * process's peak resident memory in KiB (VmHWM); tests/ust/ust-threads.sh checks the trace.
 *
 * Usage: ust-threads DIR THREADS EVENTS SUBBUF_SIZE
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
static pthread_barrier_t started, emitted;

static void *work(void *arg)
{
	uint32_t idx = (uint32_t) (uintptr_t) arg;
	long i;

	pthread_barrier_wait(&started);
	for (i = 0; i < events; i++)
		tk_tracepoint(tktest, ints, 0, 0, (int32_t) i, 0, 0, 0, idx, 0);
	pthread_barrier_wait(&emitted);
	return NULL;
}

int main(int argc, char **argv)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	pthread_attr_t attr;
	pthread_t *th;
	long n, i;

	if (argc != 5) {
		fprintf(stderr, "usage: ust-threads DIR THREADS EVENTS SUBBUF_SIZE\n");
		return 2;
	}
	n = atol(argv[2]);
	events = atol(argv[3]);
	o.subbuf_size = (size_t) atol(argv[4]);
	if (n < 1 || n > 100000 || events < 0)
		return 2;
	th = calloc((size_t) n, sizeof(*th));
	if (!th || pthread_barrier_init(&started, NULL, (unsigned int) n) ||
	    pthread_barrier_init(&emitted, NULL, (unsigned int) n))
		return 1;
	/* small stacks: the memory measured is the tracer's, not the threads' */
	if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, 64 * 1024))
		return 1;
	if (tk_ust_session_start(argv[1], &o) < 0) {
		fprintf(stderr, "ust-threads: the session did not start\n");
		return 1;
	}
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], &attr, work, (void *) (uintptr_t) i)) {
			fprintf(stderr, "ust-threads: thread %ld not created\n", i);
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (tk_ust_session_stop() < 0) {
		fprintf(stderr, "ust-threads: the session did not stop cleanly\n");
		return 1;
	}
	printf("%ld\n%ld\n", n * events, peak_rss_kib());
	free(th);
	return 0;
}
