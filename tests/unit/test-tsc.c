// SPDX-License-Identifier: MIT
/*
 * src/ftrace/tsc.c: the x86-tsc clock's conversion to nanoseconds (TSC2NSEC) and its DATE
 * offset, checked against the kernel's clocks: converted TSC time must run at the rate of
 * CLOCK_MONOTONIC_RAW, and the offset must turn it into CLOCK_REALTIME. Skipped off x86 and
 * where neither the kernel (perf) nor a TSC clocksource gives a conversion.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "common/error.h"
#include "ftrace/tsc.h"

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int probe(struct ftrace_tsc *tsc)
{
	enum tk_status st = ftrace_tsc_probe(tsc);

	if (st == TK_ERR_UNSUPPORTED)
		return 0;
	assert_int_equal(st, TK_OK);
	return 1;
}

/* mult and shift fit trace-cmd's reader: shift at most 32, mult not 0. */
static void conversion_fits_trace_cmd(void **state)
{
	struct ftrace_tsc tsc;

	(void) state;
	if (!probe(&tsc))
		skip();
	assert_true(tsc.mult > 0);
	assert_true(tsc.shift <= 32);
}

/* Over 200 ms the converted TSC advances as CLOCK_MONOTONIC_RAW does, within 0.1 %. */
static void converted_time_runs_at_the_raw_clock_rate(void **state)
{
	struct timespec pause = {0, 200 * 1000 * 1000};
	struct ftrace_tsc tsc;
	int64_t r0, r1, t0, t1, diff;

	(void) state;
	if (!probe(&tsc))
		skip();
	r0 = clock_ns(CLOCK_MONOTONIC_RAW);
	t0 = (int64_t) ftrace_tsc_now_ns(&tsc);
	nanosleep(&pause, NULL);
	r1 = clock_ns(CLOCK_MONOTONIC_RAW);
	t1 = (int64_t) ftrace_tsc_now_ns(&tsc);
	diff = (t1 - t0) - (r1 - r0);
	assert_true(r1 - r0 >= 200000000);
	assert_true(diff < 200000 && diff > -200000);
}

/* The DATE offset is whole microseconds and turns the converted TSC into CLOCK_REALTIME. */
static void realtime_offset_gives_the_wall_clock(void **state)
{
	struct ftrace_tsc tsc;
	int64_t off, real, diff;

	(void) state;
	if (!probe(&tsc))
		skip();
	off = ftrace_tsc_realtime_offset(&tsc);
	assert_int_equal(off % 1000, 0);
	diff = (int64_t) ftrace_tsc_now_ns(&tsc) + off;
	real = clock_ns(CLOCK_REALTIME);
	diff -= real;
	assert_true(diff < 1000000 && diff > -1000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(conversion_fits_trace_cmd),
		cmocka_unit_test(converted_time_runs_at_the_raw_clock_rate),
		cmocka_unit_test(realtime_offset_gives_the_wall_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
