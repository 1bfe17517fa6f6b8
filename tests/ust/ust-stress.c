/* SPDX-License-Identifier: MIT */
/*
 * Many threads on small rings while the consumer runs: each thread emits EVENTS `ints`
 * events numbered from 0 (s32) with its index (u8), so that packets are closed, handed over,
 * written and reused concurrently, and some are dropped when the consumer falls behind.
 * Prints the number emitted; tests/ust/ust-stress.sh checks the trace.
 *
 * Usage: ust-stress DIR THREADS EVENTS
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <tracekit/ust.h>

static long events;

static void *work(void *arg)
{
	uint8_t idx = (uint8_t) (uintptr_t) arg;
	long i;

	for (i = 0; i < events; i++)
		tk_tracepoint(tktest, ints, 0, 0, (int32_t) i, 0, idx, 0, 0, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	pthread_t th[64];
	int n, i;

	if (argc != 4) {
		fprintf(stderr, "usage: ust-stress DIR THREADS EVENTS\n");
		return 2;
	}
	n = atoi(argv[2]);
	events = atol(argv[3]);
	if (n < 1 || n > 64)
		return 2;
	o.subbuf_size = 4096;
	o.subbuf_count = 3;
	if (tk_ust_session_start(argv[1], &o) < 0)
		return 1;
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, work, (void *) (uintptr_t) i))
			return 1;
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (tk_ust_session_stop() < 0)
		return 1;
	printf("%ld\n", (long) n * events);
	return 0;
}
