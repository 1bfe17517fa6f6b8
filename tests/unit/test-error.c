// SPDX-License-Identifier: MIT
/*
 * Unit tests of the per-thread error chain (src/common/error.c, include/tracekit/status.h).
 *
 * The chain is how every failure explains itself, so its contract is pinned down here as the
 * public header states it: causes are pushed innermost first and read outermost first, the
 * chain has a fixed size and keeps the innermost causes while counting the others, a reset
 * forgets everything, and each thread has its own chain.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/error.h"

static enum tk_status inner(void)
{
	return TK_FAIL(TK_ERR_FORMAT, "Cannot read event payload: offset=%zu, length=%u",
		       (size_t) 4096, 70000u);
}

static enum tk_status middle(void)
{
	enum tk_status st = inner();

	if (st < 0)
		return TK_FAIL(st, "Cannot read packet: stream=%d, index=%d", 2, 7);
	return TK_OK;
}

static enum tk_status outer(void)
{
	enum tk_status st = middle();

	if (st < 0)
		return TK_FAIL(st, "Cannot convert trace: input=%s", "run1");
	return TK_OK;
}

static void test_fail_returns_its_status(void **state)
{
	(void) state;
	error_reset();
	assert_int_equal(TK_FAIL(TK_ERR_NOMEM, "Cannot allocate: size=%d", 1), TK_ERR_NOMEM);
	assert_int_equal(TK_FAIL(TK_ERR_IO, "Cannot write"), TK_ERR_IO);
	assert_int_equal(tk_error_count(), 2);
}

static void test_causes_read_outermost_first(void **state)
{
	(void) state;
	error_reset();
	assert_int_equal(outer(), TK_ERR_FORMAT);
	assert_int_equal(tk_error_count(), 3);
	assert_int_equal(tk_error_dropped(), 0);
	assert_string_equal(tk_error_cause(0), "Cannot convert trace: input=run1");
	assert_string_equal(tk_error_cause(1), "Cannot read packet: stream=2, index=7");
	assert_string_equal(tk_error_cause(2),
			    "Cannot read event payload: offset=4096, length=70000");
	assert_null(tk_error_cause(3));
	assert_null(tk_error_cause((size_t) -1));
}

static void test_reset_and_clear_forget_causes(void **state)
{
	(void) state;
	error_reset();
	outer();
	assert_int_equal(tk_error_count(), 3);
	error_reset();
	assert_int_equal(tk_error_count(), 0);
	assert_int_equal(tk_error_dropped(), 0);
	assert_null(tk_error_cause(0));
	outer();
	tk_error_clear();
	assert_int_equal(tk_error_count(), 0);
	assert_null(tk_error_cause(0));
	/* a new chain after a reset starts from its own first cause */
	inner();
	assert_int_equal(tk_error_count(), 1);
	assert_string_equal(tk_error_cause(0),
			    "Cannot read event payload: offset=4096, length=70000");
}

static void test_overflow_keeps_innermost_and_counts_dropped(void **state)
{
	const size_t total = 100;
	char want[64];
	size_t i, kept;

	(void) state;
	error_reset();
	for (i = 0; i < total; i++)
		TK_FAIL(TK_ERR_FORMAT, "Cannot step: n=%zu", i);
	kept = tk_error_count();
	/* fixed capacity: some are stored, the rest counted; none disappears silently */
	assert_true(kept >= 1);
	assert_true(kept < total);
	assert_int_equal(kept + tk_error_dropped(), total);
	/* the innermost (first pushed) causes are the ones kept */
	snprintf(want, sizeof(want), "Cannot step: n=%zu", (size_t) 0);
	assert_string_equal(tk_error_cause(kept - 1), want);
	snprintf(want, sizeof(want), "Cannot step: n=%zu", kept - 1);
	assert_string_equal(tk_error_cause(0), want);
	assert_null(tk_error_cause(kept));
	/* a reset clears the dropped count as well */
	error_reset();
	assert_int_equal(tk_error_dropped(), 0);
	/* and the chain fills again to the same capacity */
	for (i = 0; i < kept + 1; i++)
		TK_FAIL(TK_ERR_IO, "Cannot again: n=%zu", i);
	assert_int_equal(tk_error_count(), kept);
	assert_int_equal(tk_error_dropped(), 1);
}

static void test_long_cause_is_cut_not_overflowed(void **state)
{
	char big[2000];
	const char *c;

	(void) state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	error_reset();
	TK_FAIL(TK_ERR_FORMAT, "Cannot read: text=%s", big);
	c = tk_error_cause(0);
	assert_non_null(c);
	assert_true(strlen(c) < strlen(big));
	assert_memory_equal(c, "Cannot read: text=xxxx", 22);
}

/* A name read from a damaged file may hold newlines: a cause stays one line. */
static void test_cause_is_one_line(void **state)
{
	(void) state;
	error_reset();
	TK_FAIL(TK_ERR_FORMAT, "Cannot read buffer: name=%s",
		"a\nb\tc\x7f\x01"
		"d");
	assert_string_equal(tk_error_cause(0), "Cannot read buffer: name=a?b?c??d");
}

static void test_truncate_forgets_later_causes(void **state)
{
	size_t depth, i;

	(void) state;
	error_reset();
	(void) TK_FAIL(TK_ERR_IO, "kept");
	depth = error_depth();
	assert_int_equal(depth, 1);
	(void) TK_FAIL(TK_ERR_FORMAT, "handled inside");
	error_truncate(depth);
	assert_int_equal(tk_error_count(), 1);
	assert_string_equal(tk_error_cause(0), "kept");
	/* past the fixed size: the dropped count goes back too */
	for (i = 0; i < 40; i++)
		(void) TK_FAIL(TK_ERR_IO, "cause %zu", i);
	depth = error_depth();
	assert_int_equal(depth, 41);
	(void) TK_FAIL(TK_ERR_IO, "one more");
	error_truncate(depth);
	assert_int_equal(error_depth(), 41);
	error_truncate(0);
	assert_int_equal(tk_error_count(), 0);
	assert_int_equal(tk_error_dropped(), 0);
}

static void test_format_joins_causes_after_depth(void **state)
{
	char buf[64];
	size_t depth;

	(void) state;
	error_reset();
	(void) TK_FAIL(TK_ERR_IO, "before");
	depth = error_depth();
	assert_int_equal(error_format(depth, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	(void) TK_FAIL(TK_ERR_FORMAT, "Cannot read kallsyms: offset=7");
	(void) TK_FAIL(TK_ERR_FORMAT, "Cannot read section: id=17");
	/* outermost first, ": " between them, the cause before @depth left out */
	assert_int_equal(error_format(depth, NULL, 0), 58);
	assert_int_equal(error_format(depth, buf, sizeof(buf)), 58);
	assert_string_equal(buf, "Cannot read section: id=17: Cannot read kallsyms: offset=7");
	/* a short buffer: cut, NUL-terminated, and the whole length still returned */
	assert_int_equal(error_format(depth, buf, 12), 58);
	assert_string_equal(buf, "Cannot read");
	assert_int_equal(error_format(0, buf, sizeof(buf)), 66);
	assert_string_equal(buf + 50, "offset=7: bef"); /* 63 of the 66 characters */
	/* reading does not change the chain */
	assert_int_equal(tk_error_count(), 3);
}

static void test_status_names(void **state)
{
	(void) state;
	assert_string_equal(tk_status_str(TK_OK), "TK_OK");
	assert_string_equal(tk_status_str(TK_END), "TK_END");
	assert_string_equal(tk_status_str(TK_AGAIN), "TK_AGAIN");
	assert_string_equal(tk_status_str(TK_ERR_NOMEM), "TK_ERR_NOMEM");
	assert_string_equal(tk_status_str(TK_ERR_IO), "TK_ERR_IO");
	assert_string_equal(tk_status_str(TK_ERR_FORMAT), "TK_ERR_FORMAT");
	assert_string_equal(tk_status_str(TK_ERR_UNSUPPORTED), "TK_ERR_UNSUPPORTED");
	assert_string_equal(tk_status_str(TK_ERR_INVAL), "TK_ERR_INVAL");
	assert_string_equal(tk_status_str(TK_ERR_NOTFOUND), "TK_ERR_NOTFOUND");
	assert_string_equal(tk_status_str(TK_ERR_CANCELED), "TK_ERR_CANCELED");
	assert_string_equal(tk_status_str((enum tk_status) 42), "TK_UNKNOWN");
	/* errors are negative, outcomes positive */
	assert_true(TK_ERR_NOMEM < 0 && TK_ERR_IO < 0 && TK_ERR_FORMAT < 0);
	assert_true(TK_END > 0 && TK_AGAIN > 0 && TK_OK == 0);
}

static void *thread_main(void *arg)
{
	size_t *seen = arg;

	/* a fresh thread starts with an empty chain, and its causes stay in it */
	seen[0] = tk_error_count();
	TK_FAIL(TK_ERR_IO, "Cannot in thread");
	seen[1] = tk_error_count();
	return NULL;
}

static void test_chain_is_per_thread(void **state)
{
	pthread_t t;
	size_t seen[2] = {99, 99};

	(void) state;
	error_reset();
	outer();
	assert_int_equal(pthread_create(&t, NULL, thread_main, seen), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(seen[0], 0);
	assert_int_equal(seen[1], 1);
	assert_int_equal(tk_error_count(), 3);
	assert_string_equal(tk_error_cause(0), "Cannot convert trace: input=run1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fail_returns_its_status),
		cmocka_unit_test(test_truncate_forgets_later_causes),
		cmocka_unit_test(test_format_joins_causes_after_depth),
		cmocka_unit_test(test_causes_read_outermost_first),
		cmocka_unit_test(test_reset_and_clear_forget_causes),
		cmocka_unit_test(test_overflow_keeps_innermost_and_counts_dropped),
		cmocka_unit_test(test_long_cause_is_cut_not_overflowed),
		cmocka_unit_test(test_cause_is_one_line),
		cmocka_unit_test(test_status_names),
		cmocka_unit_test(test_chain_is_per_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
