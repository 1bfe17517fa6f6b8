// SPDX-License-Identifier: MIT
/*
 * Unit tests of the field predicate parser (src/model/filter-expr.c), trace-cmd report -F's
 * syntax.
 *
 * Each parse is printed back fully parenthesised (model_pred_format()) and compared with the
 * grouping written by hand from what trace-cmd 3.1.6 does (measured in
 * tests/interop/filter-pred.sh): && and || at one precedence, grouped from the left; ! on
 * the comparison or group after it; comparisons binding tighter than both. Then every error
 * the parser gives, with its offset where it has one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/filter-expr.h"

static void parses_as(const char *text, const char *want)
{
	struct model_pred *p = NULL;
	char got[512];

	if (model_pred_parse(&p, text) != TK_OK)
		fail_msg("'%s' refused: %s", text, tk_error_count() ? tk_error_cause(0) : "");
	model_pred_format(p, got, sizeof(got));
	if (strcmp(got, want))
		fail_msg("'%s' parsed as '%s', want '%s'", text, got, want);
	model_pred_destroy(p);
}

static void refused(const char *text, const char *why)
{
	struct model_pred *p = NULL;
	enum tk_status st = model_pred_parse(&p, text);

	if (st != TK_ERR_INVAL)
		fail_msg("'%s' gave %d, want TK_ERR_INVAL", text, (int) st);
	assert_null(p);
	assert_true(tk_error_count() >= 1);
	if (!strstr(tk_error_cause(0), why))
		fail_msg("'%s': cause '%s' lacks '%s'", text, tk_error_cause(0), why);
	tk_error_clear();
}

static void test_and_or_group_from_the_left(void **state)
{
	(void) state;
	parses_as("x: a == 1 || b == 2 && c == 3", "x: ((a == 1 || b == 2) && c == 3)");
	parses_as("x: a == 1 && b == 2 || c == 3", "x: ((a == 1 && b == 2) || c == 3)");
	parses_as("x: a == 1 || (b == 2 && c == 3)", "x: (a == 1 || (b == 2 && c == 3))");
	parses_as("x: a==1&&b==2&&c==3", "x: ((a == 1 && b == 2) && c == 3)");
	parses_as("x: ((a == 1))", "x: a == 1");
}

static void test_not_takes_one_operand(void **state)
{
	(void) state;
	parses_as("x: !a == 1 && b == 2", "x: (!(a == 1) && b == 2)");
	parses_as("x: ! (a == 1 || b == 2)", "x: !((a == 1 || b == 2))");
	parses_as("x: !!a == 1", "x: !(!(a == 1))");
	parses_as("x: a == 1 || !b & 4", "x: (a == 1 || !(b & 4))");
}

static void test_operators_and_values(void **state)
{
	(void) state;
	parses_as("x: a != 1 && b < 2 && c <= 3 && d > 4 && e >= 5",
		  "x: ((((a != 1 && b < 2) && c <= 3) && d > 4) && e >= 5)");
	parses_as("x: a == 0x1f", "x: a == 31");
	parses_as("x: a == 0X10", "x: a == 16");
	parses_as("x: a == 010", "x: a == 8");
	parses_as("x: a == -1", "x: a == -1");
	parses_as("x: a == 18446744073709551615", "x: a == 18446744073709551615");
	parses_as("x: a & 0x4", "x: a & 4");
	parses_as("x: c =~ \"^ba.h$\" || c !~ 'k'", "x: (c =~ \"^ba.h$\" || c !~ \"k\")");
	parses_as("x: c == \"a b\" \"c\"", "x: c == \"a bc\"");
	parses_as("x: c == \"a\\\"b\"", "x: c == \"a\\\"b\"");
	parses_as("x: COMM != \"trace-cmd\" && CPU == 1", "x: (COMM != \"trace-cmd\" && CPU == 1)");
}

static void test_event_part(void **state)
{
	(void) state;
	parses_as("sched_switch", "sched_switch");
	parses_as(" sched / sched_switch , irq : a == 1", "sched/sched_switch,irq: a == 1");
	parses_as(".*:common_pid == 12", ".*: common_pid == 12");
	parses_as("sched/", "sched");
	parses_as("/sched_switch", "sched_switch");
	parses_as("sched_w.*,irq/softirq_.*", "sched_w.*,irq/softirq_.*");
}

static void test_errors(void **state)
{
	char deep[256], longer[16384];
	size_t i, n;

	(void) state;
	refused("x: a == 1 b == 2", "offset=10, reason=expected && or ||");
	refused("x: a ~ \"b\"", "offset=5, reason=unknown operator '~'");
	refused("x: a = 1", "equality is ==");
	refused("x: a + 1", "unknown operator");
	refused("x: a", "a field alone is not a test");
	refused("x: a && b == 1", "a field alone is not a test");
	refused("x: (a == 1", "expected ')'");
	refused("x: a == 1)", "unbalanced ')'");
	refused("x:", "offset=2, reason=expected a comparison");
	refused("x: a == 1 &&", "expected a comparison");
	refused("x: 5 == a", "expected a field name");
	refused("x: a == b", "not with other fields");
	refused("x: a == ", "expected a number or a quoted string");
	refused("x: a < \"s\"", "offset=5, reason=strings compare with");
	refused("x: a & \"s\"", "strings compare with");
	refused("x: a =~ 1", "=~ and !~ take a quoted regular expression");
	refused("x: a == 12abc", "offset=8, reason=bad number");
	refused("x: a == 08", "bad number");
	refused("x: a == 18446744073709551616", "bad number");
	refused("x: a == -b", "expected a number after '-'");
	refused("x: a == \"open", "unterminated string");
	refused("x: a =~ \"[\"", "bad regular expression");
	refused("x: a == 1, b == 2", "offset=9, reason=expected && or ||");
	refused("x: , a == 1", "offset=3, reason=unexpected ','");
	refused(",x: a == 1", "an empty event name");
	refused("x,: a == 1", "an empty event name");
	refused("/: a == 1", "an empty event name");
	refused("x[: a == 1", "event=x[, reason=not a regular expression");
	refused("a\\(/x: a == 1", "event=a\\(, reason=not a regular expression");
	n = (size_t) snprintf(deep, sizeof(deep), "x: ");
	for (i = 0; i < 70; i++)
		deep[n++] = '(';
	snprintf(deep + n, sizeof(deep) - n, "a == 1");
	refused(deep, "nested too deeply");
	n = (size_t) snprintf(longer, sizeof(longer), "x: a == 1");
	for (i = 0; i < 1100 && n + 16 < sizeof(longer); i++)
		n += (size_t) snprintf(longer + n, sizeof(longer) - n, " || a == 1");
	refused(longer, "too long");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_and_or_group_from_the_left),
		cmocka_unit_test(test_not_takes_one_operand),
		cmocka_unit_test(test_operators_and_values),
		cmocka_unit_test(test_event_part),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
