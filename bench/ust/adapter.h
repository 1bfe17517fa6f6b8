/* SPDX-License-Identifier: MIT */
/*
 * The interface between bench/ust/driver.c and one application tracer. bench/ust.sh compiles
 * the driver once per tracer with `-include bench/ust/<tracer>.c`, so the adapter's emit
 * functions are inlined into the timed loop the way a tracepoint is inlined into application
 * code; whatever the tracer itself keeps out of line (barectf's generated functions, LTTng's
 * probe) stays out of line, as in a real program.
 *
 * The two events every tracer records:
 *
 *	ev1: one u32 (a counter)
 *	ev4: u32 id, u64 addr, s32 ret, u16 flags: the shape of a syscall-like or request-like
 *	     event (an identifier, an address or size, a return value, a small flag set). All
 *	     four are fixed-size integers, so the comparison is of the tracers' write paths and
 *	     not of how each one encodes strings.
 *
 * Calling sequence, from the driver:
 *
 *	adapter_setup(max_threads, out_dir)	once, before any thread starts
 *	adapter_thread_setup(t)			in thread t, before each measurement it runs
 *	adapter_emit1() / adapter_emit4()	in the timed loops, from any set-up thread
 *	adapter_thread_teardown(t)		in thread t, after each measurement
 *	adapter_discarded()			events the tracer says it dropped so far
 *	adapter_teardown()			once, after every thread has ended
 *
 * Each adapter file defines ADAPTER_CAN_COUNT_DISCARDS to 1 when adapter_discarded() knows
 * the tracer's drops in-process, or 0 when they are counted outside (LTTng: bench/ust.sh
 * compares the events babeltrace2 reads with the events the driver emitted).
 */
#ifndef BENCH_UST_ADAPTER_H
#define BENCH_UST_ADAPTER_H

#include <stdint.h>

#define ADAPTER_MAX_THREADS 64

static int adapter_setup(int max_threads, const char *out_dir);
static int adapter_thread_setup(int thread);
static inline void adapter_emit1(uint32_t a);
static inline void adapter_emit4(uint32_t id, uint64_t addr, int32_t ret, uint16_t flags);
static void adapter_thread_teardown(int thread);
static uint64_t adapter_discarded(void);
static int adapter_teardown(void);

#endif /* BENCH_UST_ADAPTER_H */
