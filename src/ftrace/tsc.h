/* SPDX-License-Identifier: MIT */
/*
 * The x86-tsc trace clock in nanoseconds. A recording on that clock stamps events with the raw
 * time-stamp counter; trace.dat readers turn it into nanoseconds with the file's TSC2NSEC
 * option, ns = (tsc * mult) >> shift, whose mult and shift come from here.
 *
 *	struct ftrace_tsc tsc;
 *
 *	if (ftrace_tsc_probe(&tsc) == TK_OK)
 *		offset = ftrace_tsc_realtime_offset(&tsc);   (CLOCK_REALTIME less converted TSC)
 */
#ifndef TK_FTRACE_TSC_H
#define TK_FTRACE_TSC_H

#include <stdint.h>

#include <tracekit/status.h>

/*
 * @mult, @shift: ns = (tsc * mult) >> shift; shift is at most 32 (trace-cmd's reader needs
 * that). @measured: 0 when the kernel gave them (perf), 1 when measured here.
 */
struct ftrace_tsc {
	uint32_t mult;
	uint32_t shift;
	int measured;
};

/*
 * Find the conversion: the kernel's, from the first page of a perf event mapped in (what
 * `trace-cmd record -C tsc2nsec` stores), the same on every online CPU; else, where the
 * kernel's clocksource is the TSC, measured against CLOCK_MONOTONIC_RAW over 100 ms.
 * Return: TK_OK, or TK_ERR_UNSUPPORTED (not x86, or neither way works) with a cause.
 */
enum tk_status ftrace_tsc_probe(struct ftrace_tsc *out);

/* The TSC now, converted with @tsc, in nanoseconds (0 off x86). */
uint64_t ftrace_tsc_now_ns(const struct ftrace_tsc *tsc);

/*
 * CLOCK_REALTIME less the converted TSC, in nanoseconds rounded down to whole microseconds
 * (a DATE option's unit): of three readings, the one whose TSC bracket is the tightest.
 */
int64_t ftrace_tsc_realtime_offset(const struct ftrace_tsc *tsc);

#endif
