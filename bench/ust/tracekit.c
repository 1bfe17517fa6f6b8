/* SPDX-License-Identifier: MIT */
/*
 * bench/ust.sh adapter for tracekit's application tracer (<tracekit/tracepoint.h>,
 * libtracekit-ust): the events of tracekit-tp.h, in a session started in the driver's --out
 * directory, or in a temporary one removed at the end. Each thread gets its ring at its first
 * event (in the driver's warm-up); rings of 8 x 8 MiB per thread, as the LTTng rows use, with
 * the consumer thread writing full packets to the trace's files as in real use.
 *
 * tracekit-tsc.c and tracekit-disabled.c include this file with another clock, or with no
 * session (the events stay off: one load and one branch each). Drops are counted in the
 * trace (events_discarded), not in-process, so ADAPTER_CAN_COUNT_DISCARDS is 0.
 *
 * On merge with main: bench/ust.sh's TRACERS needs the lines
 *	tracekit-disabled tracekit-disabled.c tracekit
 *	tracekit-clock tracekit.c tracekit
 *	tracekit-tsc tracekit-tsc.c tracekit
 */
#define TK_TRACEPOINT_DEFINE
#include "tracekit-tp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracekit/ust.h>

#include "adapter.h"

#ifndef BENCH_TRACEKIT_CLOCK
#define BENCH_TRACEKIT_CLOCK TK_UST_CLOCK_MONOTONIC
#define ADAPTER_NAME	     "tracekit-clock"
#endif
#ifndef BENCH_TRACEKIT_SESSION
#define BENCH_TRACEKIT_SESSION 1
#endif
#define ADAPTER_CAN_COUNT_DISCARDS 0

static char tk_bench_tmp[64];

static int adapter_setup(int max_threads, const char *out_dir)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;

	if (max_threads > ADAPTER_MAX_THREADS)
		return -1;
	if (!BENCH_TRACEKIT_SESSION)
		return 0;
	if (!out_dir) {
		snprintf(tk_bench_tmp, sizeof(tk_bench_tmp), "/tmp/tk-bench-ust-XXXXXX");
		if (!mkdtemp(tk_bench_tmp))
			return -1;
		out_dir = tk_bench_tmp;
	}
	o.clock = BENCH_TRACEKIT_CLOCK;
	o.subbuf_size = 8u << 20;
	o.subbuf_count = 8;
	return tk_ust_session_start(out_dir, &o) < 0 ? -1 : 0;
}

static int adapter_thread_setup(int thread)
{
	(void) thread;
	return 0;
}

static inline void adapter_emit1(uint32_t a)
{
	tk_tracepoint(bench, ev1, a);
}

static inline void adapter_emit4(uint32_t id, uint64_t addr, int32_t ret, uint16_t flags)
{
	tk_tracepoint(bench, ev4, id, addr, ret, flags);
}

static void adapter_thread_teardown(int thread)
{
	(void) thread;
}

static uint64_t adapter_discarded(void)
{
	return 0;
}

static int adapter_teardown(void)
{
	int err = tk_ust_session_stop() < 0 ? -1 : 0;

	if (tk_bench_tmp[0]) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tk_bench_tmp);
		if (system(cmd) != 0)
			err = -1;
	}
	return err;
}
