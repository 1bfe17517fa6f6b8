/* SPDX-License-Identifier: MIT */
/*
 * Cost of one event, run by hand (no test runs it: timings never decide a test):
 * the `ints` event of tests/ust/ust-tp.h (30 payload bytes, 36 with the header), emitted in
 * batches of 1000 on one thread; prints the median and the 10th/90th percentiles of the
 * per-event time of the batches, for a disabled event, then enabled with the session's
 * clock (argv: monotonic or tsc).
 *
 * Usage: ust-bench DIR monotonic|tsc [BATCHES]
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tracekit/ust.h>

#define BATCH 1000

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

static void run(const char *what, int batches)
{
	double *per = calloc((size_t) batches, sizeof(*per));
	int b, i;

	for (b = 0; b < batches; b++) {
		double t0 = now_ns();

		for (i = 0; i < BATCH; i++)
			tk_tracepoint(tktest, ints, (int8_t) i, (int16_t) i, i, (int64_t) i,
				      (uint8_t) i, (uint16_t) i, (uint32_t) i, (uint64_t) i);
		per[b] = (now_ns() - t0) / BATCH;
	}
	qsort(per, (size_t) batches, sizeof(*per), cmp);
	printf("%-28s p10 %6.2f ns  p50 %6.2f ns  p90 %6.2f ns\n", what, per[batches / 10],
	       per[batches / 2], per[batches * 9 / 10]);
	free(per);
}

int main(int argc, char **argv)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	int batches = argc > 3 ? atoi(argv[3]) : 2000;
	char what[64];

	if (argc < 3) {
		fprintf(stderr, "usage: ust-bench DIR monotonic|tsc [BATCHES]\n");
		return 2;
	}
	run("disabled", batches);
	o.clock = strcmp(argv[2], "tsc") ? TK_UST_CLOCK_MONOTONIC : TK_UST_CLOCK_TSC;
	o.subbuf_size = 1 << 20;
	o.subbuf_count = 8;
	if (tk_ust_session_start(argv[1], &o) < 0)
		return 1;
	snprintf(what, sizeof(what), "enabled, %s", argv[2]);
	run(what, batches);
	tk_ust_session_stop();
	return 0;
}
