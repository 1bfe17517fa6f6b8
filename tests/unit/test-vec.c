// SPDX-License-Identifier: MIT
/*
 * Unit tests of the growable array (src/common/vec.c).
 *
 * Tokens, members, streams and packets all live in vecs, so growth must keep every element,
 * vec_push() must hand out a zeroed element even where an earlier one was written, and size
 * overflow must fail cleanly instead of wrapping.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/vec.h"

/* an odd-sized element, so byte offsets are not powers of two */
struct item {
	uint64_t key;
	char tag[13];
};

static void test_init_is_empty_and_fini_resets(void **state)
{
	struct vec v = VEC_INIT;

	(void) state;
	assert_null(v.data);
	assert_int_equal(v.len, 0);
	assert_int_equal(v.cap, 0);
	assert_non_null(vec_push(&v, sizeof(struct item)));
	vec_fini(&v);
	assert_null(v.data);
	assert_int_equal(v.len, 0);
	assert_int_equal(v.cap, 0);
	/* fini of an empty vec is harmless */
	vec_fini(&v);
}

static void test_push_grows_and_keeps_elements(void **state)
{
	struct vec v = VEC_INIT;
	size_t i;

	(void) state;
	for (i = 0; i < 10000; i++) {
		struct item *it = vec_push(&v, sizeof(*it));

		assert_non_null(it);
		assert_int_equal(v.len, i + 1);
		assert_true(v.cap >= v.len);
		it->key = i * 2654435761u;
		memset(it->tag, (int) (i & 0x7F), sizeof(it->tag));
	}
	for (i = 0; i < 10000; i++) {
		const struct item *it = &VEC_AT(&v, struct item, i);
		size_t k;

		assert_int_equal(it->key, i * 2654435761u);
		for (k = 0; k < sizeof(it->tag); k++)
			assert_int_equal((unsigned char) it->tag[k], i & 0x7F);
	}
	vec_fini(&v);
}

static void test_push_returns_zeroed_element_over_old_contents(void **state)
{
	struct vec v = VEC_INIT;
	struct item *it;
	static const struct item zero;

	(void) state;
	it = vec_push(&v, sizeof(*it));
	assert_non_null(it);
	assert_memory_equal(it, &zero, sizeof(zero));
	memset(it, 0xA5, sizeof(*it));
	/* drop it and push again: the same slot must come back zeroed */
	v.len--;
	it = vec_push(&v, sizeof(*it));
	assert_non_null(it);
	assert_memory_equal(it, &zero, sizeof(zero));
	vec_fini(&v);
}

static void test_reserve_makes_room_without_moving(void **state)
{
	struct vec v = VEC_INIT;
	void *data;
	size_t i;

	(void) state;
	assert_int_equal(vec_reserve(&v, sizeof(uint32_t), 1000), 0);
	assert_true(v.cap >= 1000);
	assert_int_equal(v.len, 0);
	data = v.data;
	for (i = 0; i < 1000; i++) {
		uint32_t *p = vec_push(&v, sizeof(*p));

		assert_ptr_equal(p, (uint32_t *) data + i);
		*p = (uint32_t) i;
	}
	assert_ptr_equal(v.data, data);
	/* reserving what is already there changes nothing */
	assert_int_equal(vec_reserve(&v, sizeof(uint32_t), 0), 0);
	assert_ptr_equal(v.data, data);
	for (i = 0; i < 1000; i++)
		assert_int_equal(VEC_AT(&v, uint32_t, i), i);
	vec_fini(&v);
}

static void test_reserve_overflow_fails_and_keeps_vec(void **state)
{
	struct vec v = VEC_INIT;
	uint64_t *p;

	(void) state;
	p = vec_push(&v, sizeof(*p));
	assert_non_null(p);
	*p = 77;
	/* len + extra elements of 16 bytes cannot be counted in a size_t */
	assert_int_equal(vec_reserve(&v, 16, SIZE_MAX / 8), -1);
	assert_int_equal(vec_reserve(&v, 8, SIZE_MAX), -1);
	assert_int_equal(vec_reserve(&v, 1, SIZE_MAX), -1);
	assert_int_equal(v.len, 1);
	assert_int_equal(VEC_AT(&v, uint64_t, 0), 77);
	vec_fini(&v);
}

/* The per-class table: grown to hold an index, new slots zeroed, old ones kept. */
static void test_table_hold_grows_zeroed(void **state)
{
	uint64_t *t = NULL, *u;
	size_t n = 0, i;

	(void) state;
	t = table_hold(t, &n, sizeof(*t), 3);
	assert_non_null(t);
	assert_true(n > 3);
	for (i = 0; i < n; i++)
		assert_int_equal(t[i], 0);
	t[3] = 33;
	u = table_hold(t, &n, sizeof(*t), 2); /* held already: the same table */
	assert_ptr_equal(u, t);
	t = table_hold(t, &n, sizeof(*t), 1000);
	assert_non_null(t);
	assert_true(n > 1000);
	assert_int_equal(t[3], 33);
	for (i = 4; i < n; i++)
		assert_int_equal(t[i], 0);
	/* too large for memory: NULL, the table and its size unchanged */
	i = n;
	assert_null(table_hold(t, &n, sizeof(*t), SIZE_MAX / 4));
	assert_int_equal(n, i);
	assert_int_equal(t[3], 33);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_is_empty_and_fini_resets),
		cmocka_unit_test(test_push_grows_and_keeps_elements),
		cmocka_unit_test(test_push_returns_zeroed_element_over_old_contents),
		cmocka_unit_test(test_reserve_makes_room_without_moving),
		cmocka_unit_test(test_reserve_overflow_fails_and_keeps_vec),
		cmocka_unit_test(test_table_hold_grows_zeroed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
