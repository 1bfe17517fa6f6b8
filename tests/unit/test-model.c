// SPDX-License-Identifier: MIT
/*
 * Unit tests of the clock arithmetic of the trace model (src/model/model.c).
 *
 * Timestamps must match babeltrace2 to the nanosecond. Per the CTF notes (reference ctf.md,
 * section 8), nanoseconds from the origin are offset_s * 1e9 + ns(offset) + ns(cycles), after
 * offset cycles of a second or more are moved into offset_s, with ns(x) = x at 1 GHz and
 * otherwise (uint64) (1e9 * (double) x / freq): double precision and truncation. Every expected
 * value below is worked out in its comment; the double-rounded ones were also checked with
 * plain IEEE 754 doubles outside this code. Results that do not fit in int64 are reported.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"

static struct tk_clock make_clock(uint64_t freq, int64_t offset_s, uint64_t offset_cycles)
{
	struct tk_clock c;

	memset(&c, 0, sizeof(c));
	c.name = "test";
	c.freq = freq;
	c.offset_s = offset_s;
	c.offset_cycles = offset_cycles;
	model_clock_finish(&c);
	return c;
}

static int64_t ns_of(const struct tk_clock *c, uint64_t cycles)
{
	int64_t ns = 0x5A5A5A5A;

	assert_int_equal(model_clock_ns(c, cycles, &ns), 0);
	return ns;
}

static void test_1ghz_cycles_are_nanoseconds(void **state)
{
	struct tk_clock c = make_clock(1000000000, 0, 0);

	(void) state;
	assert_int_equal(c.base_ns, 0);
	assert_int_equal(ns_of(&c, 0), 0);
	assert_int_equal(ns_of(&c, 123456789), 123456789);
	/* 2^60 + 1 keeps its last bit: no double rounding at 1 GHz */
	assert_int_equal(ns_of(&c, (UINT64_C(1) << 60) + 1), INT64_C(1152921504606846977));
}

static void test_1ghz_offset_is_normalised(void **state)
{
	/* LTTng puts everything in offset: 1564079206484157378 cycles = that many ns */
	struct tk_clock c = make_clock(1000000000, 0, UINT64_C(1564079206484157378));

	(void) state;
	assert_int_equal(c.offset_s, 1564079206);
	assert_int_equal(c.offset_cycles, 484157378);
	assert_int_equal(c.base_ns, INT64_C(1564079206484157378));
	assert_int_equal(ns_of(&c, 1000), INT64_C(1564079206484158378));
	/* offset_s and offset together: 1 s + 2.5 s */
	c = make_clock(1000000000, 1, 2500000000);
	assert_int_equal(c.offset_s, 3);
	assert_int_equal(c.offset_cycles, 500000000);
	assert_int_equal(c.base_ns, INT64_C(3500000000));
}

static void test_1mhz_clock_with_offsets(void **state)
{
	/* offset 10 s + 500000 cycles of 1 us = 10.5 s */
	struct tk_clock c = make_clock(1000000, 10, 500000);

	(void) state;
	assert_int_equal(c.offset_s, 10);
	assert_int_equal(c.offset_cycles, 500000);
	assert_int_equal(c.base_ns, INT64_C(10500000000));
	/* 1 cycle = 1000 ns; 1234567 cycles = 1.234567 s */
	assert_int_equal(ns_of(&c, 1), INT64_C(10500001000));
	assert_int_equal(ns_of(&c, 1234567), INT64_C(11734567000));
}

static void test_1mhz_large_count_uses_double_precision(void **state)
{
	/*
	 * 123456789012345 cycles at 1 MHz are exactly 123456789012345000 ns, but 1e9 * cycles
	 * needs 77 bits: in doubles the product rounds, the quotient rounds to a multiple of 16
	 * (doubles near 1.2e17 are 16 apart), and the result is 123456789012344992, as in
	 * babeltrace2.
	 */
	struct tk_clock c = make_clock(1000000, 0, 0);

	(void) state;
	assert_int_equal(ns_of(&c, UINT64_C(123456789012345)), INT64_C(123456789012344992));
}

static void test_3ghz_clock_truncates(void **state)
{
	struct tk_clock c = make_clock(3000000000, 0, 0);

	(void) state;
	assert_int_equal(ns_of(&c, 1), 0);		     /* 0.333 ns */
	assert_int_equal(ns_of(&c, 2), 0);		     /* 0.667 ns: truncated, not rounded */
	assert_int_equal(ns_of(&c, 3), 1);		     /* 1 ns */
	assert_int_equal(ns_of(&c, 10), 3);		     /* 3.333 ns */
	assert_int_equal(ns_of(&c, 3000000000), 1000000000); /* 1 s */
	/* 12345678901 cycles = 4115226300.33 ns */
	assert_int_equal(ns_of(&c, UINT64_C(12345678901)), INT64_C(4115226300));
}

static void test_3ghz_offset_cycles_beyond_a_second_are_normalised(void **state)
{
	/* 1 s + 7500000000 cycles (2.5 s) = 3 s + 1500000000 cycles; base = 3 s + 0.5 s */
	struct tk_clock c = make_clock(3000000000, 1, 7500000000);

	(void) state;
	assert_int_equal(c.offset_s, 3);
	assert_int_equal(c.offset_cycles, 1500000000);
	assert_int_equal(c.base_ns, INT64_C(3500000000));
	assert_int_equal(ns_of(&c, 3), INT64_C(3500000001));
	/* exactly one second of cycles becomes one second */
	c = make_clock(1000, 0, 1000);
	assert_int_equal(c.offset_s, 1);
	assert_int_equal(c.offset_cycles, 0);
	assert_int_equal(c.base_ns, INT64_C(1000000000));
}

static void test_2_5ghz_clock_with_negative_offset_s(void **state)
{
	/* -2 s + 1250000000 cycles of 0.4 ns (0.5 s) = -1.5 s */
	struct tk_clock c = make_clock(2500000000, -2, 1250000000);

	(void) state;
	assert_int_equal(c.offset_s, -2);
	assert_int_equal(c.offset_cycles, 1250000000);
	assert_int_equal(c.base_ns, -INT64_C(1500000000));
	assert_int_equal(ns_of(&c, 0), -INT64_C(1500000000));
	assert_int_equal(ns_of(&c, 5), -INT64_C(1499999998));	      /* 2 ns */
	assert_int_equal(ns_of(&c, 7), -INT64_C(1499999998));	      /* 2.8 ns, truncated */
	assert_int_equal(ns_of(&c, 2500000000), -INT64_C(500000000)); /* 1 s */
	assert_int_equal(ns_of(&c, 3750000000), 0);		      /* 1.5 s */
	/* 1234567890123 cycles = 493827156049.2 ns, minus 1.5 s */
	assert_int_equal(ns_of(&c, UINT64_C(1234567890123)), INT64_C(492327156049));
}

static void test_negative_offset_at_1ghz(void **state)
{
	struct tk_clock c = make_clock(1000000000, -10, 0);

	(void) state;
	assert_int_equal(c.base_ns, -INT64_C(10000000000));
	assert_int_equal(ns_of(&c, 3000000000), -INT64_C(7000000000));
	assert_int_equal(ns_of(&c, 10000000000), 0);
	assert_int_equal(ns_of(&c, 12000000000), INT64_C(2000000000));
}

static void test_1hz_clock_scales_up(void **state)
{
	/* 9e9 cycles of 1 s = 9e18 ns: fits (INT64_MAX is about 9.22e18), exact in doubles */
	struct tk_clock c = make_clock(1, 0, 0);
	int64_t ns;

	(void) state;
	assert_int_equal(ns_of(&c, 9000000000), INT64_C(9000000000000000000));
	/* 1e10 s = 1e19 ns does not fit */
	assert_int_equal(model_clock_ns(&c, 10000000000, &ns), -1);
}

static void test_overflow_is_detected(void **state)
{
	struct tk_clock c;
	int64_t ns;

	(void) state;
	/* offset_s beyond +/- 9.22e9 s cannot be expressed in int64 nanoseconds */
	c = make_clock(1000000000, INT64_C(9300000000), 0);
	assert_int_equal(model_clock_ns(&c, 0, &ns), -1);
	c = make_clock(1000000000, -INT64_C(9300000000), 0);
	assert_int_equal(model_clock_ns(&c, 0, &ns), -1);
	c = make_clock(1000000000, INT64_MAX, 0);
	assert_int_equal(model_clock_ns(&c, 0, &ns), -1);
	c = make_clock(1000000000, INT64_MIN, 0);
	assert_int_equal(model_clock_ns(&c, 0, &ns), -1);

	/* base 9e18 ns: + 2e17 = 9.2e18 fits, + 3e17 = 9.3e18 does not */
	c = make_clock(1000000000, INT64_C(9000000000), 0);
	assert_int_equal(ns_of(&c, UINT64_C(200000000000000000)), INT64_C(9200000000000000000));
	assert_int_equal(model_clock_ns(&c, UINT64_C(300000000000000000), &ns), -1);

	/* cycles alone beyond int64 at 1 GHz */
	c = make_clock(1000000000, 0, 0);
	assert_int_equal(model_clock_ns(&c, UINT64_MAX, &ns), -1);
	assert_int_equal(model_clock_ns(&c, UINT64_C(1) << 63, &ns), -1);

	/* a negative base brings a large value back into range: -9e18 + 9e18 = 0 */
	c = make_clock(1000000000, -INT64_C(9000000000), 0);
	assert_int_equal(ns_of(&c, UINT64_C(9000000000000000000)), 0);
}

/*
 * Offsets too large for int64 nanoseconds must be reported however they are split between
 * offset_s and offset (cycles): moving whole seconds of offset into offset_s must neither
 * overflow int64 (undefined behaviour, caught by UBSan) nor wrap around to a small value.
 */
static void test_offset_seconds_overflowing_during_normalisation_is_reported(void **state)
{
	/* INT64_MAX s + 2000000000 cycles at 1 GHz = INT64_MAX + 2 s */
	struct tk_clock c = make_clock(1000000000, INT64_MAX, 2000000000);
	int64_t ns;

	(void) state;
	assert_int_equal(model_clock_ns(&c, 0, &ns), -1);
	/* and the same on the negative side cannot end up in range either */
	c = make_clock(1000000000, INT64_MIN, 2000000000);
	assert_int_equal(model_clock_ns(&c, 0, &ns), -1);
}

static void test_offset_cycles_beyond_int64_seconds_are_reported(void **state)
{
	/*
	 * At 1 Hz an offset of 2^64 - 1 cycles is 18446744073709551615 s after the origin,
	 * about 2000 times what int64 nanoseconds can hold: every timestamp overflows.
	 */
	struct tk_clock c = make_clock(1, 0, UINT64_MAX);
	int64_t ns = 0;

	(void) state;
	if (model_clock_ns(&c, 0, &ns) != -1) {
		print_error("offset of 2^64 - 1 s gave %lld ns (offset_s=%lld)\n", (long long) ns,
			    (long long) c.offset_s);
		fail();
	}
	/* 2^63 s as well */
	c = make_clock(1, 0, UINT64_C(1) << 63);
	assert_int_equal(model_clock_ns(&c, 0, &ns), -1);
	/* and 5 s + (2^64 - 1) s */
	c = make_clock(1, 5, UINT64_MAX);
	assert_int_equal(model_clock_ns(&c, 0, &ns), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_1ghz_cycles_are_nanoseconds),
		cmocka_unit_test(test_1ghz_offset_is_normalised),
		cmocka_unit_test(test_1mhz_clock_with_offsets),
		cmocka_unit_test(test_1mhz_large_count_uses_double_precision),
		cmocka_unit_test(test_3ghz_clock_truncates),
		cmocka_unit_test(test_3ghz_offset_cycles_beyond_a_second_are_normalised),
		cmocka_unit_test(test_2_5ghz_clock_with_negative_offset_s),
		cmocka_unit_test(test_negative_offset_at_1ghz),
		cmocka_unit_test(test_1hz_clock_scales_up),
		cmocka_unit_test(test_overflow_is_detected),
		cmocka_unit_test(test_offset_cycles_beyond_int64_seconds_are_reported),
		cmocka_unit_test(test_offset_seconds_overflowing_during_normalisation_is_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
