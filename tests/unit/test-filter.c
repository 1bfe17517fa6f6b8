// SPDX-License-Identifier: MIT
/*
 * Unit tests of tk_time_parse() (src/model/filter.c), the reader of --begin, --end and
 * --timerange for print and convert.
 *
 * Every accepted form is checked against a value worked out by hand: seconds with and without
 * a fraction and sign, the units s, ms, us and ns, times of day, and dates in UTC and in a
 * local time zone (2012-10-29 17:48:17 UTC is 1351532897, and 18:48:17 in Paris that day,
 * after the end of summer time); then inputs that must be refused with a cause.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <tracekit/filter.h>

#define S INT64_C(1000000000)

static void check(const char *text, unsigned int flags, unsigned int kind, int64_t ns)
{
	struct tk_time t = {TK_TIME_NONE, -1};

	if (tk_time_parse(&t, text, flags) != TK_OK)
		fail_msg("'%s' refused: %s", text, tk_error_count() ? tk_error_cause(0) : "");
	assert_int_equal(t.kind, kind);
	assert_int_equal(t.ns, ns);
}

static void refused(const char *text)
{
	struct tk_time t = {TK_TIME_NONE, 0};

	if (tk_time_parse(&t, text, 0) != TK_ERR_INVAL)
		fail_msg("'%s' accepted", text);
	assert_true(tk_error_count() >= 1);
	assert_memory_equal(tk_error_cause(0), "Cannot read time: time=", 23);
	assert_non_null(strstr(tk_error_cause(0), text));
}

static void test_seconds_with_and_without_fraction(void **state)
{
	(void) state;
	check("1234", 0, TK_TIME_FROM_ORIGIN, 1234 * S);
	check("0", 0, TK_TIME_FROM_ORIGIN, 0);
	check("-3", 0, TK_TIME_FROM_ORIGIN, -3 * S);
	check("+5", 0, TK_TIME_FROM_ORIGIN, 5 * S);
	check("  7", 0, TK_TIME_FROM_ORIGIN, 7 * S);
	check("1234.5", 0, TK_TIME_FROM_ORIGIN, 1234 * S + 500000000);
	check("1.000000001", 0, TK_TIME_FROM_ORIGIN, S + 1);
	check("-1.25", 0, TK_TIME_FROM_ORIGIN, -(S + 250000000));
	check("1351532897.5897", 0, TK_TIME_FROM_ORIGIN, 1351532897 * S + 589700000);
}

static void test_units(void **state)
{
	(void) state;
	check("210s", 0, TK_TIME_FROM_ORIGIN, 210 * S);
	check("1.5s", 0, TK_TIME_FROM_ORIGIN, 1500000000);
	check("1.5ms", 0, TK_TIME_FROM_ORIGIN, 1500000);
	check("20ms", 0, TK_TIME_FROM_ORIGIN, 20000000);
	check("20us", 0, TK_TIME_FROM_ORIGIN, 20000);
	check("0.5us", 0, TK_TIME_FROM_ORIGIN, 500);
	check("123ns", 0, TK_TIME_FROM_ORIGIN, 123);
	check("1351532897589000000ns", 0, TK_TIME_FROM_ORIGIN, 1351532897589000000);
	check("-2ms", 0, TK_TIME_FROM_ORIGIN, -2000000);
}

static void test_times_of_day(void **state)
{
	(void) state;
	check("17:48", 0, TK_TIME_OF_DAY, (17 * 3600 + 48 * 60) * S);
	check("17:48:17", 0, TK_TIME_OF_DAY, (17 * 3600 + 48 * 60 + 17) * S);
	check("17:48:17.588", 0, TK_TIME_OF_DAY, (17 * 3600 + 48 * 60 + 17) * S + 588000000);
	check("7:05", 0, TK_TIME_OF_DAY, (7 * 3600 + 5 * 60) * S);
	check("00:00:00.000000001", 0, TK_TIME_OF_DAY, 1);
	check("23:59:60", TK_FILTER_GMT, TK_TIME_OF_DAY, (23 * 3600 + 59 * 60 + 60) * S);
}

static void test_dates_in_utc_and_local_time(void **state)
{
	(void) state;
	check("2012-10-29 17:48:17.588", TK_FILTER_GMT, TK_TIME_FROM_ORIGIN,
	      1351532897 * S + 588000000);
	check("2012-10-29 17:48", TK_FILTER_GMT, TK_TIME_FROM_ORIGIN, (1351532897 - 17) * S);
	check("1970-01-01 00:00:01", TK_FILTER_GMT, TK_TIME_FROM_ORIGIN, S);
	setenv("TZ", "UTC", 1);
	tzset();
	check("2012-10-29 17:48:17", 0, TK_TIME_FROM_ORIGIN, 1351532897 * S);
	setenv("TZ", "Europe/Paris", 1);
	tzset();
	check("2012-10-29 18:48:17", 0, TK_TIME_FROM_ORIGIN, 1351532897 * S);
	/* the flag wins over the zone */
	check("2012-10-29 17:48:17", TK_FILTER_GMT, TK_TIME_FROM_ORIGIN, 1351532897 * S);
	setenv("TZ", "UTC", 1);
	tzset();
}

static void test_bad_inputs_are_refused(void **state)
{
	static const char *const bad[] = {
		"",
		"0000-01-01 00:00", /* before 1678: no int64 nanoseconds from 1970 */
		"abc",
		"12x",
		"12 ms",
		"1.",
		".5",
		"1.0000000001",
		"5m",
		"5sec",
		"--1",
		"99999999999999999999",
		"9223372036s",
		"24:00",
		"17:60",
		"17:4",
		"17:48:1",
		"17:48:17.",
		"17:48:17.5x",
		"2012-13-01 00:00",
		"2012-00-10 00:00",
		"2012-10-00 00:00",
		"2012-10-29",
		"2012-10-29T17:48",
		"2012-10-29 17:48 ",
	};
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seconds_with_and_without_fraction),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_times_of_day),
		cmocka_unit_test(test_dates_in_utc_and_local_time),
		cmocka_unit_test(test_bad_inputs_are_refused),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
