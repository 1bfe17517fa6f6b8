// SPDX-License-Identifier: MIT
/*
 * bench/ust.sh adapter for LTTng-UST 2.13: each event is one lttng_ust_tracepoint() call,
 * the enabled check inlined here and the probe in lttng-ust-tp.c. The session around the run
 * (per-UID buffers, sub-buffer size, enable, start, stop, counting what was recorded) is
 * bench/ust.sh's work; without a session that enables tkbench:* the tracepoints are
 * disabled, which is how bench/ust.sh measures lttng-ust-disabled. Events LTTng drops are
 * not visible to the application: bench/ust.sh counts them from the trace.
 */
#include "adapter.h"
#include "lttng-ust-tp.h"

#ifndef ADAPTER_NAME
#define ADAPTER_NAME "lttng-ust"
#endif
#define ADAPTER_CAN_COUNT_DISCARDS 0

static int adapter_setup(int max_threads, const char *out_dir)
{
	(void) max_threads;
	(void) out_dir; /* the session decides where the trace goes */
	return 0;
}

static int adapter_thread_setup(int thread)
{
	(void) thread;
	return 0;
}

static inline void adapter_emit1(uint32_t a)
{
	lttng_ust_tracepoint(tkbench, ev1, a);
}

static inline void adapter_emit4(uint32_t id, uint64_t addr, int32_t ret, uint16_t flags)
{
	lttng_ust_tracepoint(tkbench, ev4, id, addr, ret, flags);
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
	return 0;
}
