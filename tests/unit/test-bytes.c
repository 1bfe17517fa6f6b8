// SPDX-License-Identifier: MIT
/*
 * Unit tests of src/common/bytes.h, the only place where bytes become integers.
 *
 * Trace data is packed, so every load and store is tried at each offset of a buffer, including
 * odd ones, and in both byte orders; expected values are the byte sequences written out by
 * hand, independent of the host's own order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/bytes.h"

static const uint8_t seq[8] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF};

static void test_host_order_matches_compiler(void **state)
{
	uint32_t one = 1;
	uint8_t first;

	(void) state;
	memcpy(&first, &one, 1);
	assert_int_equal(TK_BYTE_ORDER_HOST, first ? TK_BYTE_ORDER_LE : TK_BYTE_ORDER_BE);
}

static void test_loads_at_every_offset_both_orders(void **state)
{
	uint8_t buf[32];
	size_t off;

	(void) state;
	for (off = 0; off < 16; off++) {
		memset(buf, 0xEE, sizeof(buf));
		memcpy(buf + off, seq, sizeof(seq));
		assert_int_equal(tk_load_u16(buf + off, TK_BYTE_ORDER_LE), 0x2301);
		assert_int_equal(tk_load_u16(buf + off, TK_BYTE_ORDER_BE), 0x0123);
		assert_int_equal(tk_load_u32(buf + off, TK_BYTE_ORDER_LE), 0x67452301);
		assert_int_equal(tk_load_u32(buf + off, TK_BYTE_ORDER_BE), 0x01234567);
		assert_int_equal(tk_load_u64(buf + off, TK_BYTE_ORDER_LE), 0xEFCDAB8967452301);
		assert_int_equal(tk_load_u64(buf + off, TK_BYTE_ORDER_BE), 0x0123456789ABCDEF);
		assert_int_equal(tk_load_le16(buf + off), 0x2301);
		assert_int_equal(tk_load_be16(buf + off), 0x0123);
		assert_int_equal(tk_load_le32(buf + off), 0x67452301);
		assert_int_equal(tk_load_be32(buf + off), 0x01234567);
		assert_int_equal(tk_load_le64(buf + off), 0xEFCDAB8967452301);
		assert_int_equal(tk_load_be64(buf + off), 0x0123456789ABCDEF);
	}
}

static void test_loads_of_high_bit_values(void **state)
{
	static const uint8_t ff80[8] = {0x80, 0, 0, 0, 0, 0, 0, 0xFF};

	(void) state;
	/* no sign extension: these are unsigned */
	assert_int_equal(tk_load_u16(ff80, TK_BYTE_ORDER_LE), 0x0080);
	assert_int_equal(tk_load_u16(ff80, TK_BYTE_ORDER_BE), 0x8000);
	assert_int_equal(tk_load_u32(ff80 + 4, TK_BYTE_ORDER_LE), 0xFF000000);
	assert_int_equal(tk_load_u32(ff80 + 4, TK_BYTE_ORDER_BE), 0x000000FF);
	assert_int_equal(tk_load_u64(ff80, TK_BYTE_ORDER_LE), 0xFF00000000000080);
	assert_int_equal(tk_load_u64(ff80, TK_BYTE_ORDER_BE), 0x80000000000000FF);
}

/* Store at @off of a 0xEE-filled buffer; the bytes around the value must stay 0xEE. */
static void check_store(size_t off, size_t width, const uint8_t *buf, const uint8_t *want)
{
	size_t i;

	assert_memory_equal(buf + off, want, width);
	for (i = 0; i < 32; i++)
		if (i < off || i >= off + width)
			assert_int_equal(buf[i], 0xEE);
}

static void test_stores_at_every_offset_both_orders(void **state)
{
	static const uint8_t be16[] = {0x01, 0x23}, le16[] = {0x23, 0x01};
	static const uint8_t be32[] = {0x01, 0x23, 0x45, 0x67}, le32[] = {0x67, 0x45, 0x23, 0x01};
	static const uint8_t le64[] = {0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01};
	uint8_t buf[32];
	size_t off;

	(void) state;
	for (off = 0; off < 16; off++) {
		memset(buf, 0xEE, sizeof(buf));
		tk_store_u16(buf + off, 0x0123, TK_BYTE_ORDER_BE);
		check_store(off, 2, buf, be16);
		memset(buf, 0xEE, sizeof(buf));
		tk_store_u16(buf + off, 0x0123, TK_BYTE_ORDER_LE);
		check_store(off, 2, buf, le16);
		memset(buf, 0xEE, sizeof(buf));
		tk_store_u32(buf + off, 0x01234567, TK_BYTE_ORDER_BE);
		check_store(off, 4, buf, be32);
		memset(buf, 0xEE, sizeof(buf));
		tk_store_u32(buf + off, 0x01234567, TK_BYTE_ORDER_LE);
		check_store(off, 4, buf, le32);
		memset(buf, 0xEE, sizeof(buf));
		tk_store_u64(buf + off, 0x0123456789ABCDEF, TK_BYTE_ORDER_BE);
		check_store(off, 8, buf, seq);
		memset(buf, 0xEE, sizeof(buf));
		tk_store_u64(buf + off, 0x0123456789ABCDEF, TK_BYTE_ORDER_LE);
		check_store(off, 8, buf, le64);
	}
}

static void test_store_then_load_round_trips(void **state)
{
	static const uint64_t values[] = {0,
					  1,
					  0x80,
					  0xFF,
					  0x8000,
					  0xFFFF,
					  0x80000000,
					  0xFFFFFFFF,
					  0x8000000000000000,
					  UINT64_MAX,
					  0x0123456789ABCDEF};
	uint8_t buf[16];
	size_t i, off;
	int o;

	(void) state;
	for (o = 0; o < 2; o++) {
		enum tk_byte_order order = o ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE;

		for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
			for (off = 0; off < 8; off++) {
				tk_store_u16(buf + off, (uint16_t) values[i], order);
				assert_int_equal(tk_load_u16(buf + off, order),
						 (uint16_t) values[i]);
				tk_store_u32(buf + off, (uint32_t) values[i], order);
				assert_int_equal(tk_load_u32(buf + off, order),
						 (uint32_t) values[i]);
				tk_store_u64(buf + off, values[i], order);
				assert_int_equal(tk_load_u64(buf + off, order), values[i]);
			}
		}
	}
}

/* Each access reads or writes exactly its width: exact-size heap blocks for AddressSanitizer. */
static void test_accesses_stay_within_their_width(void **state)
{
	uint8_t *p2 = malloc(2), *p4 = malloc(4), *p8 = malloc(8);

	(void) state;
	assert_non_null(p2);
	assert_non_null(p4);
	assert_non_null(p8);
	tk_store_u16(p2, 0xA1B2, TK_BYTE_ORDER_BE);
	tk_store_u32(p4, 0xA1B2C3D4, TK_BYTE_ORDER_LE);
	tk_store_u64(p8, 0xA1B2C3D4E5F60718, TK_BYTE_ORDER_BE);
	assert_int_equal(p2[0], 0xA1);
	assert_int_equal(p4[0], 0xD4);
	assert_int_equal(p8[7], 0x18);
	assert_int_equal(tk_load_u16(p2, TK_BYTE_ORDER_LE), 0xB2A1);
	assert_int_equal(tk_load_u32(p4, TK_BYTE_ORDER_BE), 0xD4C3B2A1);
	assert_int_equal(tk_load_u64(p8, TK_BYTE_ORDER_LE), 0x1807F6E5D4C3B2A1);
	free(p2);
	free(p4);
	free(p8);
}

/* Sized loads: the four sizes in both orders, sign extension, and 0 for other sizes. */
static void test_sized_loads(void **state)
{
	static const uint8_t b[8] = {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x80};

	(void) state;
	assert_int_equal(tk_load_uint(b, 1, TK_BYTE_ORDER_LE), 0xfe);
	assert_int_equal(tk_load_uint(b, 2, TK_BYTE_ORDER_LE), 0xfffe);
	assert_int_equal(tk_load_uint(b, 2, TK_BYTE_ORDER_BE), 0xfeff);
	assert_int_equal(tk_load_uint(b, 4, TK_BYTE_ORDER_BE), 0xfeffffffu);
	assert_true(tk_load_uint(b, 8, TK_BYTE_ORDER_LE) == UINT64_C(0x80fffffffffffffe));
	assert_true(tk_load_uint(b, 8, TK_BYTE_ORDER_BE) == UINT64_C(0xfeffffffffffff80));
	assert_int_equal(tk_load_uint(b, 3, TK_BYTE_ORDER_LE), 0);
	assert_int_equal(tk_load_uint(b, 0, TK_BYTE_ORDER_LE), 0);
	assert_true((int64_t) tk_load_int(b, 1, 1, TK_BYTE_ORDER_LE) == -2);
	assert_true((int64_t) tk_load_int(b, 2, 1, TK_BYTE_ORDER_LE) == -2);
	assert_true((int64_t) tk_load_int(b, 4, 1, TK_BYTE_ORDER_LE) == -2);
	assert_true((int64_t) tk_load_int(b, 4, 1, TK_BYTE_ORDER_BE) == -16777217);
	assert_true(tk_load_int(b, 4, 0, TK_BYTE_ORDER_LE) == UINT64_C(0xfffffffe));
	assert_true(tk_load_int(b, 8, 1, TK_BYTE_ORDER_LE) == UINT64_C(0x80fffffffffffffe));
	assert_true(tk_load_int(b + 1, 1, 1, TK_BYTE_ORDER_LE) == UINT64_MAX);
	assert_int_equal(tk_load_int(b, 3, 1, TK_BYTE_ORDER_LE), 0);
	assert_true(tk_int_size_ok(8) && !tk_int_size_ok(3) && !tk_int_size_ok(16));
}

/* Every character, signed and unsigned, against the digit tables written out here. */
static void test_hex_value_of_every_character(void **state)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";

	(void) state;
	for (int c = -128; c < 256; c++) {
		const char *l = c > 0 ? memchr(lower, c, 16) : NULL;
		const char *u = c > 0 ? memchr(upper, c, 16) : NULL;
		int want = l ? (int) (l - lower) : u ? (int) (u - upper) : -1;

		assert_int_equal(tk_hex_value(c), want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_order_matches_compiler),
		cmocka_unit_test(test_loads_at_every_offset_both_orders),
		cmocka_unit_test(test_loads_of_high_bit_values),
		cmocka_unit_test(test_stores_at_every_offset_both_orders),
		cmocka_unit_test(test_store_then_load_round_trips),
		cmocka_unit_test(test_accesses_stay_within_their_width),
		cmocka_unit_test(test_sized_loads),
		cmocka_unit_test(test_hex_value_of_every_character),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
