// SPDX-License-Identifier: MIT
/*
 * Unit tests of the CTF decode programs (src/ctf/ctf-prog.c): metadata built with
 * ctf_meta_build(), which compiles a program per scope, then ctf_prog_run() on hand-made byte
 * buffers, each laid out in comments with its expected values worked out by hand.
 *
 * Every proper prefix of a valid buffer must fail with TK_ERR_FORMAT and never read past its
 * end: the prefixes are copied to heap blocks of their exact size for AddressSanitizer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/error.h"
#include "ctf-fixture.h"

/* ---- helpers -------------------------------------------------------------------------------- */

static const struct ctf_prog *payload_prog(void)
{
	const struct ctf_ec *cec = ec_at(0, 0)->fmt;

	assert_non_null(cec);
	assert_non_null(cec->payload_prog);
	return cec->payload_prog;
}

/* Start decoding @len bytes at @buf from bit @pos, as a packet reader does. */
static void dec_start(struct ctf_dec *d, const uint8_t *buf, size_t len, uint64_t pos)
{
	memset(d, 0, sizeof(*d));
	d->stored = calloc(trace_of()->n_stored + 1, sizeof(uint64_t));
	assert_non_null(d->stored);
	d->base = buf;
	d->limit = (uint64_t) len * 8;
	d->pos = pos;
	d->last_bo = -1;
}

static void dec_end(struct ctf_dec *d)
{
	ctf_dec_fini(d);
	free(d->stored);
	d->stored = NULL;
}

static enum tk_status run(const struct ctf_prog *prog, struct ctf_dec *d)
{
	enum tk_status st;

	error_reset();
	st = ctf_prog_run(prog, d);
	if (st < 0 && st != TK_ERR_FORMAT)
		print_causes();
	return st;
}

static void run_ok(const struct ctf_prog *prog, struct ctf_dec *d)
{
	enum tk_status st = run(prog, d);

	if (st != TK_OK) {
		print_error("ctf_prog_run() = %s\n", tk_status_str(st));
		print_causes();
		fail();
	}
}

/*
 * Every proper prefix of @buf must fail with TK_ERR_FORMAT and a cause, and so must the whole
 * buffer with a limit one bit short of where a full decode ends. Each prefix is copied to a heap
 * block of exactly its size. @buf must end in the byte holding the last decoded bit.
 */
static void check_truncations_fail(const struct ctf_prog *prog, const uint8_t *buf, size_t len)
{
	struct ctf_dec d;
	uint64_t end;
	size_t l;

	dec_start(&d, buf, len, 0);
	run_ok(prog, &d);
	end = d.pos;
	dec_end(&d);
	assert_int_equal((end + 7) / 8, len);

	for (l = 0; l < len; l++) {
		uint8_t *copy = malloc(l ? l : 1);
		enum tk_status st;

		assert_non_null(copy);
		memcpy(copy, buf, l);
		dec_start(&d, copy, l, 0);
		st = run(prog, &d);
		if (st != TK_ERR_FORMAT) {
			print_error("prefix of %zu bytes: %s, want TK_ERR_FORMAT\n", l,
				    tk_status_str(st));
			fail();
		}
		assert_true(tk_error_count() >= 1);
		dec_end(&d);
		free(copy);
	}
	/* the full buffer but a limit one bit short */
	dec_start(&d, buf, len, 0);
	d.limit = end - 1;
	assert_int_equal(run(prog, &d), TK_ERR_FORMAT);
	dec_end(&d);
}

static void test_decode_byte_aligned_integers_both_orders(void **state)
{
	static const uint8_t buf[] = {
		0x81,						/* a u8 */
		0x34, 0x12,					/* b u16 le = 0x1234 */
		0x12, 0x34,					/* c u16 be = 0x1234 */
		0x78, 0x56, 0x34, 0x12,				/* d u32 le */
		0x12, 0x34, 0x56, 0x78,				/* e u32 be */
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, /* f u64 le */
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, /* g u64 be */
		0xFE,						/* h s8 = -2 */
		0xFF, 0x38,					/* i s16 be 0xFF38 = -200 */
		0x00, 0x36, 0x65, 0xC4,				/* j s32 le 0xC4653600 = -1e9 */
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, /* k s64 be = -1 */
	};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT(
		"uint8_t a; uint16_t b; integer { size = 16; byte_order = be; } c;"
		"uint32_t d; integer { size = 32; byte_order = be; } e;"
		"uint64_t f; integer { size = 64; byte_order = be; } g;"
		"int8_t h; integer { size = 16; signed = true; byte_order = be; } i;"
		"int32_t j; integer { size = 64; signed = true; byte_order = be; } k;"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 11);
	assert_int_equal(d.pos, sizeof(buf) * 8);
	assert_int_equal(d.vals[0].v.u, 0x81);
	assert_int_equal(d.vals[1].v.u, 0x1234);
	assert_int_equal(d.vals[2].v.u, 0x1234);
	assert_int_equal(d.vals[3].v.u, 0x12345678);
	assert_int_equal(d.vals[4].v.u, 0x12345678);
	assert_int_equal(d.vals[5].v.u, 0x0102030405060708);
	assert_int_equal(d.vals[6].v.u, 0x0102030405060708);
	assert_int_equal(d.vals[7].v.i, -2);
	assert_int_equal(d.vals[8].v.i, -200);
	assert_int_equal(d.vals[9].v.i, -1000000000);
	assert_int_equal(d.vals[10].v.i, -1);
	dec_end(&d);
	check_truncations_fail(payload_prog(), buf, sizeof(buf));
}

static void test_decode_big_endian_trace_defaults(void **state)
{
	static const uint8_t buf[] = {
		0x12, 0x34,		/* a u16, trace order be */
		0x34, 0x12,		/* b u16 le */
		0xDE, 0xAD, 0xBE, 0xEF, /* c u32 be */
	};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_BE EVENT("uint16_t a; integer { size = 16; byte_order = le; } b;"
				     "uint32_t c;"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 3);
	assert_int_equal(d.vals[0].v.u, 0x1234);
	assert_int_equal(d.vals[1].v.u, 0x1234);
	assert_int_equal(d.vals[2].v.u, 0xDEADBEEF);
	dec_end(&d);
}

static void test_decode_bit_fields_le(void **state)
{
	/*
	 * a = 5 (3 bits), b = -3 (5 bits, 11101), c = 0xABC (12 bits), d = 9 (4 bits), first
	 * field in the low bits: byte 0 = 101 | 11101 << 3 = 0xED, byte 1 = 0xBC (low 8 bits of
	 * c), byte 2 = 0xA (rest of c) | 9 << 4 = 0x9A.
	 */
	static const uint8_t buf[] = {0xED, 0xBC, 0x9A};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("integer { size = 3; } a;"
				     "integer { size = 5; signed = true; } b;"
				     "integer { size = 12; } c; integer { size = 4; } d;"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 4);
	assert_int_equal(d.pos, 24);
	assert_int_equal(d.vals[0].v.u, 5);
	assert_int_equal(d.vals[1].v.i, -3);
	assert_int_equal(d.vals[2].v.u, 0xABC);
	assert_int_equal(d.vals[3].v.u, 9);
	dec_end(&d);
	check_truncations_fail(payload_prog(), buf, sizeof(buf));
}

static void test_decode_bit_fields_be(void **state)
{
	/* the same values MSB first: 101 11101 | 1010 1011 | 1100 1001 = 0xBD 0xAB 0xC9 */
	static const uint8_t buf[] = {0xBD, 0xAB, 0xC9};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_BE EVENT("integer { size = 3; } a;"
				     "integer { size = 5; signed = true; } b;"
				     "integer { size = 12; } c; integer { size = 4; } d;"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 4);
	assert_int_equal(d.vals[0].v.u, 5);
	assert_int_equal(d.vals[1].v.i, -3);
	assert_int_equal(d.vals[2].v.u, 0xABC);
	assert_int_equal(d.vals[3].v.u, 9);
	dec_end(&d);
}

static void test_decode_wide_bit_field_at_odd_offset(void **state)
{
	/*
	 * x = 6 (3 bits) then y = 0xF23456789A (40 bits, explicitly 1-bit aligned: a multiple
	 * of 8 bits would default to 8), little-endian: x | y << 3 = 0x791A2B3C4D6, bytes
	 * D6 C4 B3 A2 91 07; then z, a byte-aligned u8 0x5A.
	 */
	static const uint8_t buf[] = {0xD6, 0xC4, 0xB3, 0xA2, 0x91, 0x07, 0x5A};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("integer { size = 3; } x;"
				     "integer { size = 40; align = 1; } y; uint8_t z;"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 3);
	assert_int_equal(d.vals[0].v.u, 6);
	assert_int_equal(d.vals[1].v.u, 0xF23456789A);
	assert_int_equal(d.vals[2].v.u, 0x5A);
	assert_int_equal(d.pos, 56);
	dec_end(&d);
	check_truncations_fail(payload_prog(), buf, sizeof(buf));
}

static void test_decode_byte_order_change_inside_a_byte_fails(void **state)
{
	static const uint8_t buf[] = {0x21, 0xAB, 0xC0};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("integer { size = 4; byte_order = le; } a;"
				     "integer { size = 4; byte_order = be; } b;"));
	dec_start(&d, buf, sizeof(buf), 0);
	assert_int_equal(run(payload_prog(), &d), TK_ERR_FORMAT);
	assert_true(tk_error_count() >= 1);
	dec_end(&d);

	/* at a byte boundary it is allowed: a = 1, a2 = 2, then 12 bits MSB first = 0xABC */
	src_reset();
	build_ok(INTS TRACE_LE EVENT("integer { size = 4; byte_order = le; } a;"
				     "integer { size = 4; byte_order = le; } a2;"
				     "integer { size = 12; byte_order = be; } b;"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.vals[0].v.u, 1);
	assert_int_equal(d.vals[1].v.u, 2);
	assert_int_equal(d.vals[2].v.u, 0xABC);
	dec_end(&d);
}

static void test_decode_floats(void **state)
{
	/*
	 * f: 1.5f = 0x3FC00000 (sign 0, exponent 127, fraction .5), little-endian.
	 * g: -2.25 = 0xC002000000000000 (sign 1, exponent 1024, fraction .125), big-endian.
	 * x: 3 bits = 2, then h, a 1-bit-aligned float -0.15625f = 0xBE200000 (exponent 124,
	 * fraction .25): x | h << 3 = 0x5F1000002, bytes 02 00 00 F1 05.
	 */
	static const uint8_t buf[] = {
		0x00, 0x00, 0xC0, 0x3F,				/* f */
		0xC0, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* g */
		0x02, 0x00, 0x00, 0xF1, 0x05,			/* x and h */
	};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT(
		"floating_point { exp_dig = 8; mant_dig = 24; } f;"
		"floating_point { exp_dig = 11; mant_dig = 53; byte_order = be; } g;"
		"integer { size = 3; } x;"
		"floating_point { exp_dig = 8; mant_dig = 24; align = 1; } h;"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 4);
	assert_true(d.vals[0].v.d == 1.5);
	assert_true(d.vals[1].v.d == -2.25);
	assert_int_equal(d.vals[2].v.u, 2);
	assert_true(d.vals[3].v.d == -0.15625);
	assert_int_equal(d.pos, 12 * 8 + 35);
	dec_end(&d);
	check_truncations_fail(payload_prog(), buf, sizeof(buf));
}

static void test_decode_strings(void **state)
{
	static const uint8_t buf[] = {
		0x68, 0x69, 0x00, /* s = "hi" */
		0x07,		  /* after */
		0x00,		  /* empty */
		0x6F, 0x6B, 0x00, /* t = "ok" */
	};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("string s; uint8_t after; string empty;"
				     "string { encoding = ASCII; } t;"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 4);
	assert_ptr_equal(d.vals[0].v.s, (const char *) buf);
	assert_int_equal(d.vals[0].n, 2);
	assert_int_equal(d.vals[1].v.u, 7);
	assert_int_equal(d.vals[2].n, 0);
	assert_ptr_equal(d.vals[3].v.s, (const char *) buf + 5);
	assert_int_equal(d.vals[3].n, 2);
	assert_int_equal(d.pos, 64);
	dec_end(&d);
	check_truncations_fail(payload_prog(), buf, sizeof(buf));
}

static void test_decode_text_arrays_and_sequences(void **state)
{
	static const uint8_t buf[] = {
		0x61, 0x62, 0x63, 0x00, 0x78, 0x79, /* t[6] = "abc\0xy", shown up to the NUL */
		0x11,				    /* after */
		0x04,				    /* n */
		0x77, 0x78, 0x79, 0x7A,		    /* ts[n] = "wxyz" */
		0x22,				    /* tail */
	};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("integer { size = 8; encoding = UTF8; } t[6];"
				     "uint8_t after; uint8_t n;"
				     "integer { size = 8; encoding = UTF8; } ts[n];"
				     "uint8_t tail;"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	/* a text array or sequence is one value */
	assert_int_equal(d.nv, 5);
	assert_ptr_equal(d.vals[0].v.s, (const char *) buf);
	assert_int_equal(d.vals[0].n, 3);
	assert_int_equal(d.vals[1].v.u, 0x11);
	assert_int_equal(d.vals[2].v.u, 4);
	assert_ptr_equal(d.vals[3].v.s, (const char *) buf + 8);
	assert_int_equal(d.vals[3].n, 4);
	assert_int_equal(d.vals[4].v.u, 0x22);
	assert_int_equal(d.pos, sizeof(buf) * 8);
	dec_end(&d);
	check_truncations_fail(payload_prog(), buf, sizeof(buf));
}

static void test_decode_sequences(void **state)
{
	static const uint8_t buf[] = {
		3,				    /* n */
		0x01, 0x00, 0x02, 0x00, 0x03, 0x00, /* s[3] */
		0xEE,				    /* tail */
		0,				    /* z */
		0x55,				    /* end, right after the empty e[0] */
	};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("uint8_t n; uint16_t s[n]; uint8_t tail;"
				     "uint8_t z; uint16_t e[z]; uint8_t end;"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	/* pre-order: the sequence value carries the length, then its elements */
	assert_int_equal(d.nv, 9);
	assert_int_equal(d.vals[0].v.u, 3);
	assert_int_equal(d.vals[1].n, 3);
	assert_int_equal(d.vals[2].v.u, 1);
	assert_int_equal(d.vals[3].v.u, 2);
	assert_int_equal(d.vals[4].v.u, 3);
	assert_int_equal(d.vals[5].v.u, 0xEE);
	assert_int_equal(d.vals[6].v.u, 0);
	assert_int_equal(d.vals[7].n, 0);
	assert_int_equal(d.vals[8].v.u, 0x55);
	assert_int_equal(d.pos, sizeof(buf) * 8);
	dec_end(&d);
	check_truncations_fail(payload_prog(), buf, sizeof(buf));
}

static void test_decode_huge_sequence_length_fails_fast(void **state)
{
	static const uint8_t buf[] = {0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("uint32_t n; uint8_t s[n];"));
	dec_start(&d, buf, sizeof(buf), 0);
	assert_int_equal(run(payload_prog(), &d), TK_ERR_FORMAT);
	dec_end(&d);
}

static void test_decode_huge_sequence_of_empty_structs_fails(void **state)
{
	static const uint8_t buf[] = {0xFF, 0xFF, 0xFF, 0xFF};
	struct ctf_dec d;

	(void) state;
	/* elements that take no bits cannot be bounded by the buffer: a cap applies */
	build_ok(INTS TRACE_LE EVENT("uint32_t n; struct { } s[n];"));
	dec_start(&d, buf, sizeof(buf), 0);
	assert_int_equal(run(payload_prog(), &d), TK_ERR_FORMAT);
	dec_end(&d);
}

static void test_decode_array_of_aligned_structs(void **state)
{
	/*
	 * The element struct { u8 a; u16 b (align 16); u8 z; } is aligned to 16 bits and 5 bytes
	 * long, so each element realigns: c @0, pad @1, a0 @2, pad @3, b0 @4-5, z0 @6, pad @7,
	 * a1 @8, pad @9, b1 @10-11, z1 @12, t @13.
	 */
	static const uint8_t buf[] = {0xC0, 0xFF, 0xA0, 0xFF, 0x34, 0x12, 0xB0,
				      0xFF, 0xA1, 0xFF, 0x78, 0x56, 0xB1, 0x77};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("uint8_t c;"
				     "struct { uint8_t a; integer { size = 16; align = 16; } b;"
				     " uint8_t z; } arr[2];"
				     "uint8_t t;"));
	assert_int_equal(member(payload(), "arr")->align, 16);
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 9);
	assert_int_equal(d.vals[0].v.u, 0xC0);
	assert_int_equal(d.vals[1].n, 2);
	assert_int_equal(d.vals[2].v.u, 0xA0);
	assert_int_equal(d.vals[3].v.u, 0x1234);
	assert_int_equal(d.vals[4].v.u, 0xB0);
	assert_int_equal(d.vals[5].v.u, 0xA1);
	assert_int_equal(d.vals[6].v.u, 0x5678);
	assert_int_equal(d.vals[7].v.u, 0xB1);
	assert_int_equal(d.vals[8].v.u, 0x77);
	assert_int_equal(d.pos, 112);
	dec_end(&d);
	check_truncations_fail(payload_prog(), buf, sizeof(buf));
}

static void test_decode_struct_align_attribute(void **state)
{
	/* align(64) raises the structure's alignment: s.a is at byte 8, y right after it */
	static const uint8_t buf[] = {
		0x01, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, /* x, pad */
		0x02, 0x03,					/* s.a, y */
	};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("uint8_t x; struct { uint8_t a; } align(64) s; uint8_t y;"));
	assert_int_equal(member(payload(), "s")->align, 64);
	assert_int_equal(payload()->align, 64);
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 3);
	assert_int_equal(d.vals[0].v.u, 1);
	assert_int_equal(d.vals[1].v.u, 2);
	assert_int_equal(d.vals[2].v.u, 3);
	assert_int_equal(d.pos, 80);
	dec_end(&d);
	check_truncations_fail(payload_prog(), buf, sizeof(buf));
}

static void test_decode_variants_select_by_tag(void **state)
{
	/* tag 1 selects B, a 32-bit integer aligned to 32 bits: bytes 1-3 are padding */
	static const uint8_t b[] = {
		0x01, 0xFF, 0xFF, 0xFF, /* tag, pad */
		0x78, 0x56, 0x34, 0x12, /* v.B */
		0x0D, 0x0C, 0x0B, 0x0A, /* tail */
	};
	/*
	 * tag 0 selects A, one byte; tail (align 32) must then skip bytes 2-3, even though the
	 * other option would have left the position aligned
	 */
	static const uint8_t a[] = {0, 0x42, 0xFF, 0xFF, 0x0D, 0x0C, 0x0B, 0x0A};
	static const uint8_t bad[] = {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("enum : uint8_t { A, B } tag;"
				     "variant <tag> { uint8_t A;"
				     " integer { size = 32; align = 32; } B; } v;"
				     "integer { size = 32; align = 32; } tail;"));
	dec_start(&d, b, sizeof(b), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 4);
	assert_int_equal(d.vals[0].v.u, 1);
	assert_int_equal(d.vals[1].n, 1); /* option B */
	assert_int_equal(d.vals[2].v.u, 0x12345678);
	assert_int_equal(d.vals[3].v.u, 0x0A0B0C0D);
	assert_int_equal(d.pos, 96);
	dec_end(&d);
	check_truncations_fail(payload_prog(), b, sizeof(b));

	dec_start(&d, a, sizeof(a), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 4);
	assert_int_equal(d.vals[0].v.u, 0);
	assert_int_equal(d.vals[1].n, 0); /* option A */
	assert_int_equal(d.vals[2].v.u, 0x42);
	assert_int_equal(d.vals[3].v.u, 0x0A0B0C0D);
	assert_int_equal(d.pos, 64);
	dec_end(&d);
	check_truncations_fail(payload_prog(), a, sizeof(a));

	/* 2 has no label, so no option: bad data, not a crash */
	dec_start(&d, bad, sizeof(bad), 0);
	assert_int_equal(run(payload_prog(), &d), TK_ERR_FORMAT);
	dec_end(&d);
}

static void test_decode_variant_with_signed_tag(void **state)
{
	static const uint8_t neg[] = {0xFB, 0x44, 0x33, 0x22, 0x11}; /* -5 selects NEG */
	static const uint8_t pos[] = {0x07, 0x99};		     /* 7 selects POS */
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("enum : int8_t { NEG = -10 ... -1, POS = 0 ... 10 } t;"
				     "variant <t> { uint8_t POS; uint32_t NEG; } v;"));
	dec_start(&d, neg, sizeof(neg), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.vals[0].v.i, -5);
	assert_int_equal(d.vals[1].n, 1);
	assert_int_equal(d.vals[2].v.u, 0x11223344);
	dec_end(&d);
	dec_start(&d, pos, sizeof(pos), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.vals[0].v.i, 7);
	assert_int_equal(d.vals[1].n, 0);
	assert_int_equal(d.vals[2].v.u, 0x99);
	dec_end(&d);
}

static void test_decode_variant_tag_from_event_header(void **state)
{
	/* the header holds the tag (1 = B); the payload's variant reads it by absolute path */
	static const uint8_t buf[] = {0x01, 0x44, 0x33, 0x22, 0x11};
	const struct ctf_sc *csc;
	const struct model_fc *v;
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE
		 "stream { event.header := struct { enum : uint8_t { A, B } tag; }; };\n" EVENT(
			 "variant <stream.event.header.tag> { uint8_t A; uint32_t B; } v;"));
	csc = src.scs[0]->fmt;
	v = member(payload(), "v");
	assert_ptr_equal(v->u.var.tag, member(src.scs[0]->event_header, "tag"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(csc->header_prog, &d);
	assert_int_equal(d.pos, 8);
	d.nv = 0;
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 2);
	assert_int_equal(d.vals[0].n, 1);
	assert_int_equal(d.vals[1].v.u, 0x11223344);
	assert_int_equal(d.pos, 40);
	dec_end(&d);
}

static void test_decode_alignment_padding(void **state)
{
	/*
	 * a u8 @0; b (align 32) @4-7; c 3 bits @64 (low bits of byte 8, 0xFD -> 101 = 5);
	 * d (align 16) @bit 80 = bytes 10-11; e (align 64) @16-23. Padding bytes hold junk.
	 */
	static const uint8_t buf[] = {
		0x11, 0xEE, 0xEE, 0xEE, 0x11, 0x22, 0x33, 0x44, /* a, pad, b */
		0xFD, 0xEE, 0xCD, 0xAB, 0xEE, 0xEE, 0xEE, 0xEE, /* c, pad, d, pad */
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, /* e */
	};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("uint8_t a; integer { size = 32; align = 32; } b;"
				     "integer { size = 3; } c;"
				     "integer { size = 16; align = 16; } d;"
				     "integer { size = 64; align = 64; } e;"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 5);
	assert_int_equal(d.vals[0].v.u, 0x11);
	assert_int_equal(d.vals[1].v.u, 0x44332211);
	assert_int_equal(d.vals[2].v.u, 5);
	assert_int_equal(d.vals[3].v.u, 0xABCD);
	assert_int_equal(d.vals[4].v.u, 0x0807060504030201);
	assert_int_equal(d.pos, 192);
	dec_end(&d);
	check_truncations_fail(payload_prog(), buf, sizeof(buf));
}

static void test_decode_alignment_is_relative_to_packet_start(void **state)
{
	static const uint8_t buf[] = {0xEE, 0xEE, 0xEE, 0xEE, 0x04, 0x03, 0x02, 0x01};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("integer { size = 32; align = 32; } x;"));
	/* a scope starting at bit 8 of the packet still aligns x to byte 4 of the packet */
	dec_start(&d, buf, sizeof(buf), 8);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.vals[0].v.u, 0x01020304);
	assert_int_equal(d.pos, 64);
	dec_end(&d);
	/* starting on an aligned position there is no padding */
	dec_start(&d, buf, sizeof(buf), 32);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.vals[0].v.u, 0x01020304);
	dec_end(&d);
	/* and at bit 3 of a bit-field trail */
	dec_start(&d, buf, sizeof(buf), 3);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.vals[0].v.u, 0x01020304);
	dec_end(&d);
}

static void test_decode_everything_truncated_never_crashes(void **state)
{
	static const uint8_t buf[] = {
		0x02,			/* n */
		0xE3, 0xD5,		/* bits = 3, more = 0x1ABC: 3 | 0x1ABC << 3 */
		0x61, 0x62, 0x00,	/* s = "ab" */
		0x02, 0x01, 0x04, 0x03, /* seq[2] = 0x0102, 0x0304 */
		0x01,			/* tag = B */
		0xEF, 0xBE, 0xAD, 0xDE, /* v.B = 0xDEADBEEF */
		0x00, 0x00, 0x00, 0x00, /* f = 0.5 = 0x3FE0000000000000, */
		0x00, 0x00, 0xE0, 0x3F, /* little-endian */
		0x78, 0x79, 0x7A,	/* txt[3] = "xyz" */
	};
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("uint8_t n; integer { size = 3; } bits;"
				     "integer { size = 13; } more; string s; uint16_t seq[n];"
				     "enum : uint8_t { A, B } tag;"
				     "variant <tag> { uint8_t A; uint32_t B; } v;"
				     "floating_point { exp_dig = 11; mant_dig = 53; } f;"
				     "integer { size = 8; encoding = UTF8; } txt[3];"));
	dec_start(&d, buf, sizeof(buf), 0);
	run_ok(payload_prog(), &d);
	assert_int_equal(d.nv, 12);
	assert_int_equal(d.vals[0].v.u, 2);
	assert_int_equal(d.vals[1].v.u, 3);
	assert_int_equal(d.vals[2].v.u, 0x1ABC);
	assert_int_equal(d.vals[3].n, 2);
	assert_memory_equal(d.vals[3].v.s, "ab", 2);
	assert_int_equal(d.vals[4].n, 2);
	assert_int_equal(d.vals[5].v.u, 0x0102);
	assert_int_equal(d.vals[6].v.u, 0x0304);
	assert_int_equal(d.vals[7].v.u, 1);
	assert_int_equal(d.vals[8].n, 1);
	assert_int_equal(d.vals[9].v.u, 0xDEADBEEF);
	assert_true(d.vals[10].v.d == 0.5);
	assert_int_equal(d.vals[11].n, 3);
	assert_memory_equal(d.vals[11].v.s, "xyz", 3);
	assert_int_equal(d.pos, sizeof(buf) * 8);
	dec_end(&d);
	check_truncations_fail(payload_prog(), buf, sizeof(buf));
}

static void test_decode_packet_header_magic_and_stream_id(void **state)
{
	static const uint8_t good[] = {
		0xC1, 0x1F, 0xFC, 0xC1, /* magic 0xC1FC1FC1, little-endian */
		0x00, 0x01, 0x02, 0x03, /* uuid[16] */
		0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B,
		0x0C, 0x0D, 0x0E, 0x0F, 0x03, 0x00, 0x00, 0x00, /* stream_id = 3 */
	};
	uint8_t bad[sizeof(good)];
	const struct ctf_trace *ct;
	struct ctf_dec d;

	(void) state;
	build_ok(INTS "trace { major = 1; minor = 8; byte_order = le;"
		      " packet.header := struct { uint32_t magic; uint8_t uuid[16];"
		      " uint32_t stream_id; }; };\n"
		      "stream { id = 3; };\nevent { name = e; stream_id = 3; };\n");
	ct = trace_of();
	dec_start(&d, good, sizeof(good), 0);
	d.stream_class_id = UINT64_MAX;
	run_ok(ct->header_prog, &d);
	/* magic, the uuid array and its 16 elements, stream_id */
	assert_int_equal(d.nv, 19);
	assert_int_equal(d.vals[0].v.u, 0xC1FC1FC1);
	assert_int_equal(d.vals[1].n, 16);
	assert_int_equal(d.vals[17].v.u, 15);
	assert_int_equal(d.vals[18].v.u, 3);
	assert_int_equal(d.stream_class_id, 3);
	dec_end(&d);

	memcpy(bad, good, sizeof(bad));
	bad[0] = 0xC0;
	dec_start(&d, bad, sizeof(bad), 0);
	assert_int_equal(run(ct->header_prog, &d), TK_ERR_FORMAT);
	dec_end(&d);
	check_truncations_fail(ct->header_prog, good, sizeof(good));
}

static void test_decode_clock_field_updates_stream_clock(void **state)
{
	static const uint8_t t1[] = {0x10, 0x00, 0x00, 0x00, 0x07};
	static const uint8_t t2[] = {0x20, 0x00, 0x00, 0x00, 0x08};
	const struct ctf_sc *csc;
	struct ctf_dec d;

	(void) state;
	build_ok(INTS TRACE_LE
		 "clock { name = c; };\n"
		 "stream { event.header := struct {"
		 " integer { size = 32; map = clock.c.value; } timestamp; uint8_t id; }; };\n"
		 "event { name = e; id = 7; };\nevent { name = f; id = 8; };\n");
	csc = src.scs[0]->fmt;
	/*
	 * A 32-bit value updates the low 32 bits of the clock; a value below the current low
	 * bits means one wrap (ctf.md section 8): 0x1FFFFFFF0 then 0x10 gives 0x200000010.
	 */
	dec_start(&d, t1, sizeof(t1), 0);
	d.clock = UINT64_C(0x1FFFFFFF0);
	run_ok(csc->header_prog, &d);
	assert_int_equal(d.clock, UINT64_C(0x200000010));
	assert_int_equal(d.event_id, 7);
	/* then 0x20 is above 0x10: no wrap */
	d.base = t2;
	d.pos = 0;
	d.nv = 0;
	run_ok(csc->header_prog, &d);
	assert_int_equal(d.clock, UINT64_C(0x200000020));
	assert_int_equal(d.event_id, 8);
	dec_end(&d);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_decode_byte_aligned_integers_both_orders),
		T(test_decode_big_endian_trace_defaults),
		T(test_decode_bit_fields_le),
		T(test_decode_bit_fields_be),
		T(test_decode_wide_bit_field_at_odd_offset),
		T(test_decode_byte_order_change_inside_a_byte_fails),
		T(test_decode_floats),
		T(test_decode_strings),
		T(test_decode_text_arrays_and_sequences),
		T(test_decode_sequences),
		T(test_decode_huge_sequence_length_fails_fast),
		T(test_decode_huge_sequence_of_empty_structs_fails),
		T(test_decode_array_of_aligned_structs),
		T(test_decode_struct_align_attribute),
		T(test_decode_variants_select_by_tag),
		T(test_decode_variant_with_signed_tag),
		T(test_decode_variant_tag_from_event_header),
		T(test_decode_alignment_padding),
		T(test_decode_alignment_is_relative_to_packet_start),
		T(test_decode_everything_truncated_never_crashes),
		T(test_decode_packet_header_magic_and_stream_id),
		T(test_decode_clock_field_updates_stream_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
