// SPDX-License-Identifier: MIT
/*
 * Unit tests of the CTF bit reader and writer (src/common/bits.h).
 *
 * Every decoded integer that is not a byte-aligned 8/16/32/64-bit field goes through these
 * three functions, in both byte orders, so they are checked two ways. Known answers were worked
 * out by hand from the CTF 1.8.3 integer layout (section 4.1.5): in a little-endian field the
 * first bit is the least significant bit of the first byte and bytes rise in significance; in a
 * big-endian field the first bit is the most significant bit of the first byte and the value is
 * read most significant bit first. Exhaustive round trips compare the code under test with a
 * one-bit-at-a-time model written from those two sentences (ref_*() below), never with itself.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/bits.h"

#define BUF_SIZE 32

/* ---- the one-bit-at-a-time model of the specification -------------------------------------- */

/* Bit @i of the stream: LE counts from the LSB of each byte, BE from the MSB. */
static unsigned int ref_get(const uint8_t *buf, uint64_t i, enum tk_byte_order order)
{
	unsigned int shift =
		order == TK_BYTE_ORDER_LE ? (unsigned int) (i % 8) : 7 - (unsigned int) (i % 8);

	return (buf[i / 8] >> shift) & 1;
}

static void ref_set(uint8_t *buf, uint64_t i, unsigned int bit, enum tk_byte_order order)
{
	unsigned int shift =
		order == TK_BYTE_ORDER_LE ? (unsigned int) (i % 8) : 7 - (unsigned int) (i % 8);

	buf[i / 8] = (uint8_t) ((buf[i / 8] & ~(1u << shift)) | (bit << shift));
}

/*
 * LE: the first stream bit is value bit 0 (least significant). BE: the first stream bit is
 * value bit len - 1 (most significant).
 */
static uint64_t ref_read(const uint8_t *buf, uint64_t pos, unsigned int len,
			 enum tk_byte_order order)
{
	uint64_t v = 0;
	unsigned int k;

	for (k = 0; k < len; k++) {
		uint64_t bit = ref_get(buf, pos + k, order);

		if (order == TK_BYTE_ORDER_LE)
			v |= bit << k;
		else
			v = (v << 1) | bit;
	}
	return v;
}

static void ref_write(uint8_t *buf, uint64_t pos, unsigned int len, uint64_t v,
		      enum tk_byte_order order)
{
	unsigned int k;

	for (k = 0; k < len; k++) {
		unsigned int vbit = order == TK_BYTE_ORDER_LE ? k : len - 1 - k;

		ref_set(buf, pos + k, (unsigned int) ((v >> vbit) & 1), order);
	}
}

static uint64_t mask_of(unsigned int len)
{
	return len == 64 ? UINT64_MAX : (UINT64_C(1) << len) - 1;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* ---- known answers, computed by hand ------------------------------------------------------- */

static void test_le_read_5_bits_at_bit_3_of_one_byte(void **state)
{
	/* 0xA8 = 1010 1000; bits 3..7 (from the LSB) are 10101 = 21 */
	static const uint8_t buf[] = {0xA8};

	(void) state;
	assert_int_equal(tk_bits_read(buf, 3, 5, TK_BYTE_ORDER_LE), 21);
}

static void test_le_read_5_bits_crossing_a_byte(void **state)
{
	/*
	 * Field at bit 6: bits 6 and 7 of byte 0 (0x40 = 0100 0000 gives 1, 0) are value bits 0
	 * and 1; bits 0..2 of byte 1 (0x05 = 0000 0101 gives 1, 0, 1) are value bits 2..4.
	 * Value = 101 01 = 21.
	 */
	static const uint8_t buf[] = {0x40, 0x05};

	(void) state;
	assert_int_equal(tk_bits_read(buf, 6, 5, TK_BYTE_ORDER_LE), 21);
}

static void test_be_read_13_bits_at_bit_2(void **state)
{
	/*
	 * Bytes 0x3A 0xC5 0xFF as a bit string, MSB first: 00111010 11000101 11111111.
	 * Bits 2..14 are 111010 + 1100010 = 1 1101 0110 0010 = 0x1D62 = 7522.
	 */
	static const uint8_t buf[] = {0x3A, 0xC5, 0xFF};

	(void) state;
	assert_int_equal(tk_bits_read(buf, 2, 13, TK_BYTE_ORDER_BE), 0x1D62);
}

static void test_le_read_13_bits_at_bit_2(void **state)
{
	/*
	 * The same bytes as one little-endian number are 0xFFC53A. Shifted right by 2 that is
	 * 0x3FF14E, whose low 13 bits are 1 0001 0100 1110 = 0x114E = 4430.
	 */
	static const uint8_t buf[] = {0x3A, 0xC5, 0xFF};

	(void) state;
	assert_int_equal(tk_bits_read(buf, 2, 13, TK_BYTE_ORDER_LE), 0x114E);
}

static const uint8_t nine[] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0xF1};

static void test_le_read_64_bits_at_odd_offset_spans_nine_bytes(void **state)
{
	/*
	 * Little-endian, the nine bytes are the 72-bit number 0xF1EFCDAB8967452301. Shifted right
	 * by 3: ...2301 >> 3 ends in 0x460, and the low 64 bits are 0x3DF9B5712CE8A460.
	 */
	(void) state;
	assert_int_equal(tk_bits_read(nine, 3, 64, TK_BYTE_ORDER_LE), 0x3DF9B5712CE8A460);
	/* and at bit 7, one more bit of 0xF1 comes in at the top: 0xE3DF9B5712CE8A46 */
	assert_int_equal(tk_bits_read(nine, 7, 64, TK_BYTE_ORDER_LE), 0xE3DF9B5712CE8A46);
}

static void test_be_read_64_bits_at_odd_offset_spans_nine_bytes(void **state)
{
	/*
	 * Big-endian, the nine bytes are 0x0123456789ABCDEFF1; bits 5..68 (MSB first) are that
	 * number shifted right by 72 - 5 - 64 = 3 with the top bits dropped: 0x2468ACF13579BDFE.
	 */
	(void) state;
	assert_int_equal(tk_bits_read(nine, 5, 64, TK_BYTE_ORDER_BE), 0x2468ACF13579BDFE);
	/* at bit 1 the shift is 7: 0x02468ACF13579BDF */
	assert_int_equal(tk_bits_read(nine, 1, 64, TK_BYTE_ORDER_BE), 0x02468ACF13579BDF);
}

static void test_byte_aligned_reads_match_plain_byte_order(void **state)
{
	(void) state;
	/* whole bytes: the LE value is the little-endian number, BE the big-endian one */
	assert_int_equal(tk_bits_read(nine, 0, 8, TK_BYTE_ORDER_LE), 0x01);
	assert_int_equal(tk_bits_read(nine, 8, 16, TK_BYTE_ORDER_LE), 0x4523);
	assert_int_equal(tk_bits_read(nine, 8, 16, TK_BYTE_ORDER_BE), 0x2345);
	assert_int_equal(tk_bits_read(nine, 0, 32, TK_BYTE_ORDER_BE), 0x01234567);
	assert_int_equal(tk_bits_read(nine, 0, 64, TK_BYTE_ORDER_LE), 0xEFCDAB8967452301);
	assert_int_equal(tk_bits_read(nine, 8, 64, TK_BYTE_ORDER_BE), 0x23456789ABCDEFF1);
	/* one bit: LE bit 0 is the LSB of 0x01, BE bit 7 is the LSB of 0x01 */
	assert_int_equal(tk_bits_read(nine, 0, 1, TK_BYTE_ORDER_LE), 1);
	assert_int_equal(tk_bits_read(nine, 0, 1, TK_BYTE_ORDER_BE), 0);
	assert_int_equal(tk_bits_read(nine, 7, 1, TK_BYTE_ORDER_BE), 1);
}

static void test_be_write_13_bits_at_bit_2_keeps_other_bits(void **state)
{
	/*
	 * 7522 = 1110101100010 written MSB first at bit 2 over 11000000 00000000 00000001:
	 * byte 0 keeps its first two bits: 11 + 111010 = 0xFA; byte 1 takes the other seven
	 * bits and keeps its last: 1100010 + 0 = 0xC4; byte 2 is not touched.
	 */
	uint8_t buf[] = {0xC0, 0x00, 0x01};
	static const uint8_t want[] = {0xFA, 0xC4, 0x01};

	(void) state;
	tk_bits_write(buf, 2, 13, 7522, TK_BYTE_ORDER_BE);
	assert_memory_equal(buf, want, sizeof(want));
}

static void test_le_write_5_bits_at_bit_6_keeps_other_bits(void **state)
{
	/*
	 * 21 = 10101: value bits 0 and 1 (1, 0) go to bits 6 and 7 of byte 0, so 0x3F becomes
	 * 0x7F; value bits 2..4 (101) go to bits 0..2 of byte 1, so 0xF8 becomes 0xFD.
	 */
	uint8_t buf[] = {0x3F, 0xF8};
	static const uint8_t want[] = {0x7F, 0xFD};

	(void) state;
	tk_bits_write(buf, 6, 5, 21, TK_BYTE_ORDER_LE);
	assert_memory_equal(buf, want, sizeof(want));
}

static void test_write_zero_field_clears_only_its_bits(void **state)
{
	/* 7 bits at bit 5 of all-ones bytes */
	uint8_t le[] = {0xFF, 0xFF, 0xFF};
	uint8_t be[] = {0xFF, 0xFF, 0xFF};
	/* LE: bits 5..7 of byte 0 (0xE0) and bits 0..3 of byte 1 (0x0F) are cleared */
	static const uint8_t want_le[] = {0x1F, 0xF0, 0xFF};
	/* BE: the last three bits of byte 0 (0x07) and the first four of byte 1 (0xF0) */
	static const uint8_t want_be[] = {0xF8, 0x0F, 0xFF};

	(void) state;
	tk_bits_write(le, 5, 7, 0, TK_BYTE_ORDER_LE);
	tk_bits_write(be, 5, 7, 0, TK_BYTE_ORDER_BE);
	assert_memory_equal(le, want_le, sizeof(want_le));
	assert_memory_equal(be, want_be, sizeof(want_be));
}

static void test_write_ignores_value_bits_above_length(void **state)
{
	/* only the low 4 bits (0x5) of 0xF5 are written, LE at bit 2 of a zero byte: 0x14 */
	uint8_t buf[] = {0x00, 0x00};

	(void) state;
	tk_bits_write(buf, 2, 4, 0xF5, TK_BYTE_ORDER_LE);
	assert_int_equal(buf[0], 0x14);
	assert_int_equal(buf[1], 0x00);
	/* BE at bit 2: 0101 in bits 2..5 from the MSB: 0001 0100 = 0x14 as well */
	buf[0] = 0;
	tk_bits_write(buf, 2, 4, UINT64_MAX - 10, TK_BYTE_ORDER_BE);
	assert_int_equal(buf[0], 0x14);
	assert_int_equal(buf[1], 0x00);
}

static void test_write_64_bits_at_odd_offset_spans_nine_bytes(void **state)
{
	uint8_t le[9], be[9];
	static const uint8_t bg[9] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

	(void) state;
	/*
	 * Writing the values read in the tests above back onto all-ones bytes gives the original
	 * bytes wherever the field lies, and keeps the bits outside it set: LE at bit 3 keeps bits
	 * 0..2 of byte 0 (0x01 | 0x07 = 0x07) and bits 3..7 of byte 8 (0xF1 | 0xF8 = 0xF9).
	 */
	memcpy(le, bg, sizeof(le));
	tk_bits_write(le, 3, 64, 0x3DF9B5712CE8A460, TK_BYTE_ORDER_LE);
	assert_int_equal(le[0], 0x07);
	assert_memory_equal(le + 1, nine + 1, 7);
	assert_int_equal(le[8], 0xF9);
	/* BE at bit 5 keeps the first five bits of byte 0 (0x01 | 0xF8) and last three of byte 8 */
	memcpy(be, bg, sizeof(be));
	tk_bits_write(be, 5, 64, 0x2468ACF13579BDFE, TK_BYTE_ORDER_BE);
	assert_int_equal(be[0], 0xF9);
	assert_memory_equal(be + 1, nine + 1, 7);
	assert_int_equal(be[8], 0xF7);
}

/* ---- exhaustive round trips against the model ---------------------------------------------- */

static const uint64_t extra_starts[] = {64, 65, 66, 67, 68, 69, 70, 71, 100, 127};

static void check_one(uint64_t pos, unsigned int len, uint64_t v, const uint8_t *background,
		      enum tk_byte_order order)
{
	uint8_t got[BUF_SIZE], want[BUF_SIZE];
	uint64_t r;

	memcpy(got, background, BUF_SIZE);
	memcpy(want, background, BUF_SIZE);
	tk_bits_write(got, pos, len, v, order);
	ref_write(want, pos, len, v & mask_of(len), order);
	if (memcmp(got, want, BUF_SIZE)) {
		print_error("write mismatch: order=%s pos=%llu len=%u value=0x%llx\n",
			    order == TK_BYTE_ORDER_LE ? "le" : "be", (unsigned long long) pos, len,
			    (unsigned long long) v);
		fail();
	}
	r = tk_bits_read(got, pos, len, order);
	if (r != (v & mask_of(len))) {
		print_error("read mismatch: order=%s pos=%llu len=%u value=0x%llx read=0x%llx\n",
			    order == TK_BYTE_ORDER_LE ? "le" : "be", (unsigned long long) pos, len,
			    (unsigned long long) (v & mask_of(len)), (unsigned long long) r);
		fail();
	}
	/* reading a background the model wrote must agree with the model too */
	if (tk_bits_read(background, pos, len, order) != ref_read(background, pos, len, order)) {
		print_error("read of background mismatch: order=%s pos=%llu len=%u\n",
			    order == TK_BYTE_ORDER_LE ? "le" : "be", (unsigned long long) pos, len);
		fail();
	}
}

static void round_trip_all(enum tk_byte_order order)
{
	uint8_t bgs[3][BUF_SIZE];
	uint64_t seed = UINT64_C(0x9E3779B97F4A7C15);
	uint64_t starts[64 + sizeof(extra_starts) / sizeof(extra_starts[0])];
	size_t ns = 0, si, b, i;
	unsigned int len;

	memset(bgs[0], 0x00, BUF_SIZE);
	memset(bgs[1], 0xFF, BUF_SIZE);
	for (i = 0; i < BUF_SIZE; i++)
		bgs[2][i] = (uint8_t) xorshift(&seed);
	for (i = 0; i < 64; i++)
		starts[ns++] = i;
	for (i = 0; i < sizeof(extra_starts) / sizeof(extra_starts[0]); i++)
		starts[ns++] = extra_starts[i];

	for (si = 0; si < ns; si++) {
		for (len = 1; len <= 64; len++) {
			uint64_t m = mask_of(len);
			const uint64_t patterns[] = {
				0,
				m,
				UINT64_C(0x5555555555555555) & m,
				UINT64_C(0xAAAAAAAAAAAAAAAA) & m,
				UINT64_C(1) << (len - 1),
				1,
				xorshift(&seed) & m,
				xorshift(&seed), /* bits above len must be ignored */
			};

			for (b = 0; b < 3; b++)
				for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
					check_one(starts[si], len, patterns[i], bgs[b], order);
		}
	}
}

static void test_round_trip_every_start_and_length_le(void **state)
{
	(void) state;
	round_trip_all(TK_BYTE_ORDER_LE);
}

static void test_round_trip_every_start_and_length_be(void **state)
{
	(void) state;
	round_trip_all(TK_BYTE_ORDER_BE);
}

/*
 * A field needs (pos % 8 + len + 7) / 8 bytes from byte pos / 8 and no more: each buffer here
 * is allocated with exactly that size so AddressSanitizer catches any access past it.
 */
static void test_read_and_write_touch_only_the_bytes_of_the_field(void **state)
{
	uint64_t seed = 12345;
	unsigned int sh, len, o;

	(void) state;
	for (o = 0; o < 2; o++) {
		enum tk_byte_order order = o ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE;

		for (sh = 0; sh < 8; sh++) {
			for (len = 1; len <= 64; len++) {
				size_t nb = (sh + len + 7) / 8, i;
				uint8_t *p = malloc(nb);
				uint8_t *q = malloc(nb);
				uint64_t v = xorshift(&seed);

				assert_non_null(p);
				assert_non_null(q);
				for (i = 0; i < nb; i++)
					p[i] = (uint8_t) xorshift(&seed);
				memcpy(q, p, nb);
				assert_int_equal(tk_bits_read(p, sh, len, order),
						 ref_read(p, sh, len, order));
				tk_bits_write(p, sh, len, v, order);
				ref_write(q, sh, len, v & mask_of(len), order);
				assert_memory_equal(p, q, nb);
				free(p);
				free(q);
			}
		}
	}
}

/* ---- sign extension ------------------------------------------------------------------------ */

static void test_sign_extend_1_bit(void **state)
{
	(void) state;
	assert_int_equal(tk_bits_sign_extend(0, 1), 0);
	assert_int_equal(tk_bits_sign_extend(1, 1), -1);
}

static void test_sign_extend_7_bits(void **state)
{
	(void) state;
	assert_int_equal(tk_bits_sign_extend(0x3F, 7), 63);  /* largest positive */
	assert_int_equal(tk_bits_sign_extend(0x40, 7), -64); /* most negative */
	assert_int_equal(tk_bits_sign_extend(0x7F, 7), -1);
	assert_int_equal(tk_bits_sign_extend(0x7D, 7), -3); /* 111 1101 = -3 */
	assert_int_equal(tk_bits_sign_extend(0x00, 7), 0);
}

static void test_sign_extend_33_bits(void **state)
{
	(void) state;
	assert_int_equal(tk_bits_sign_extend(UINT64_C(0xFFFFFFFF), 33), INT64_C(4294967295));
	assert_int_equal(tk_bits_sign_extend(UINT64_C(0x100000000), 33), -INT64_C(4294967296));
	assert_int_equal(tk_bits_sign_extend(UINT64_C(0x1FFFFFFFF), 33), -1);
	assert_int_equal(tk_bits_sign_extend(UINT64_C(0x1FFFFFFFE), 33), -2);
}

static void test_sign_extend_64_bits_is_identity(void **state)
{
	(void) state;
	assert_int_equal(tk_bits_sign_extend(UINT64_C(0x8000000000000000), 64), INT64_MIN);
	assert_int_equal(tk_bits_sign_extend(UINT64_MAX, 64), -1);
	assert_int_equal(tk_bits_sign_extend(UINT64_C(0x7FFFFFFFFFFFFFFF), 64), INT64_MAX);
}

static void test_sign_extend_of_a_read_signed_bit_field(void **state)
{
	/* a 5-bit LE field at bit 3 of 0xE8 (1110 1000) is 11101 = -3 in two's complement */
	static const uint8_t buf[] = {0xE8};

	(void) state;
	assert_int_equal(tk_bits_sign_extend(tk_bits_read(buf, 3, 5, TK_BYTE_ORDER_LE), 5), -3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_le_read_5_bits_at_bit_3_of_one_byte),
		cmocka_unit_test(test_le_read_5_bits_crossing_a_byte),
		cmocka_unit_test(test_be_read_13_bits_at_bit_2),
		cmocka_unit_test(test_le_read_13_bits_at_bit_2),
		cmocka_unit_test(test_le_read_64_bits_at_odd_offset_spans_nine_bytes),
		cmocka_unit_test(test_be_read_64_bits_at_odd_offset_spans_nine_bytes),
		cmocka_unit_test(test_byte_aligned_reads_match_plain_byte_order),
		cmocka_unit_test(test_be_write_13_bits_at_bit_2_keeps_other_bits),
		cmocka_unit_test(test_le_write_5_bits_at_bit_6_keeps_other_bits),
		cmocka_unit_test(test_write_zero_field_clears_only_its_bits),
		cmocka_unit_test(test_write_ignores_value_bits_above_length),
		cmocka_unit_test(test_write_64_bits_at_odd_offset_spans_nine_bytes),
		cmocka_unit_test(test_round_trip_every_start_and_length_le),
		cmocka_unit_test(test_round_trip_every_start_and_length_be),
		cmocka_unit_test(test_read_and_write_touch_only_the_bytes_of_the_field),
		cmocka_unit_test(test_sign_extend_1_bit),
		cmocka_unit_test(test_sign_extend_7_bits),
		cmocka_unit_test(test_sign_extend_33_bits),
		cmocka_unit_test(test_sign_extend_64_bits_is_identity),
		cmocka_unit_test(test_sign_extend_of_a_read_signed_bit_field),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
