// SPDX-License-Identifier: MIT
/*
 * Unit tests of the bump allocator behind every metadata object (src/common/arena.c).
 *
 * The arena promises zeroed memory aligned to 16 bytes, allocations that never overlap, large
 * requests that get memory of their own, and failure rather than a wrapped size for absurd
 * requests. Zeroing is checked after a fini and a new start, when the C library is likely to
 * hand back the dirty chunks of the previous arena.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/arena.h"

static int all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static void test_allocations_are_16_byte_aligned(void **state)
{
	struct arena a;
	size_t size;

	(void) state;
	arena_init(&a);
	for (size = 1; size <= 200; size++) {
		void *p = arena_alloc(&a, size);

		assert_non_null(p);
		assert_int_equal((uintptr_t) p % 16, 0);
	}
	/* also after a chunk of its own and across chunk boundaries */
	for (size = 1; size < 5000; size += 997) {
		void *p = arena_alloc(&a, size * 61);

		assert_non_null(p);
		assert_int_equal((uintptr_t) p % 16, 0);
	}
	arena_fini(&a);
}

static void test_allocations_do_not_overlap(void **state)
{
	struct arena a;
	unsigned char *ptrs[3000];
	size_t sizes[3000];
	size_t i, k;

	(void) state;
	arena_init(&a);
	/* about 300 KiB in total: several chunks */
	for (i = 0; i < 3000; i++) {
		sizes[i] = 1 + (i * 37) % 200;
		ptrs[i] = arena_alloc(&a, sizes[i]);
		assert_non_null(ptrs[i]);
		memset(ptrs[i], (int) (i % 251) + 1, sizes[i]);
	}
	for (i = 0; i < 3000; i++)
		for (k = 0; k < sizes[i]; k++)
			assert_int_equal(ptrs[i][k], (i % 251) + 1);
	arena_fini(&a);
}

static void test_allocations_are_zeroed_even_on_reused_memory(void **state)
{
	struct arena a;
	int round;
	size_t i;

	(void) state;
	for (round = 0; round < 3; round++) {
		arena_init(&a);
		for (i = 0; i < 2000; i++) {
			size_t n = 1 + (i * 53) % 300;
			unsigned char *p = arena_alloc(&a, n);

			assert_non_null(p);
			assert_true(all_zero(p, n));
			memset(p, 0xCD, n); /* dirty it for the next round */
		}
		arena_fini(&a);
	}
}

static void test_large_allocation_is_usable_and_small_ones_continue(void **state)
{
	struct arena a;
	size_t big = 1u << 20; /* larger than any chunk */
	unsigned char *small1, *large, *small2;

	(void) state;
	arena_init(&a);
	small1 = arena_alloc(&a, 40);
	assert_non_null(small1);
	memset(small1, 1, 40);
	large = arena_alloc(&a, big);
	assert_non_null(large);
	assert_int_equal((uintptr_t) large % 16, 0);
	assert_true(all_zero(large, big));
	memset(large, 2, big); /* every byte belongs to the caller */
	small2 = arena_alloc(&a, 40);
	assert_non_null(small2);
	assert_true(all_zero(small2, 40));
	memset(small2, 3, 40);
	assert_int_equal(small1[39], 1);
	assert_int_equal(large[0], 2);
	assert_int_equal(large[big - 1], 2);
	assert_int_equal(small2[0], 3);
	arena_fini(&a);
}

static void test_absurd_sizes_fail(void **state)
{
	struct arena a;

	(void) state;
	arena_init(&a);
	assert_null(arena_alloc(&a, SIZE_MAX));
	assert_null(arena_alloc(&a, SIZE_MAX - 8));
	assert_null(arena_alloc(&a, SIZE_MAX - 15));
	assert_null(arena_strndup(&a, "x", SIZE_MAX));
	/* the arena still works afterwards */
	assert_non_null(arena_alloc(&a, 8));
	arena_fini(&a);
}

static void test_strdup_and_strndup_copy_and_terminate(void **state)
{
	struct arena a;
	char src[] = "hello, world";
	const char raw[3] = {'a', 'b', 'c'};
	char *s;

	(void) state;
	arena_init(&a);
	s = arena_strdup(&a, src);
	assert_non_null(s);
	assert_string_equal(s, "hello, world");
	assert_true(s != src);
	s = arena_strndup(&a, src, 5);
	assert_string_equal(s, "hello");
	s = arena_strndup(&a, src, 0);
	assert_string_equal(s, "");
	/* bytes past n are not read: n can cut an unterminated buffer */
	s = arena_strndup(&a, raw, sizeof(raw));
	assert_string_equal(s, "abc");
	src[0] = 'j';
	assert_string_equal(arena_strdup(&a, src), "jello, world");
	arena_fini(&a);
}

static void test_fini_resets_and_arena_can_be_reused(void **state)
{
	struct arena a;

	(void) state;
	arena_init(&a);
	assert_non_null(arena_alloc(&a, 100));
	arena_fini(&a);
	assert_null(a.head);
	arena_fini(&a); /* twice is harmless */
	assert_non_null(arena_alloc(&a, 100));
	arena_fini(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_allocations_are_16_byte_aligned),
		cmocka_unit_test(test_allocations_do_not_overlap),
		cmocka_unit_test(test_allocations_are_zeroed_even_on_reused_memory),
		cmocka_unit_test(test_large_allocation_is_usable_and_small_ones_continue),
		cmocka_unit_test(test_absurd_sizes_fail),
		cmocka_unit_test(test_strdup_and_strndup_copy_and_terminate),
		cmocka_unit_test(test_fini_resets_and_arena_can_be_reused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
