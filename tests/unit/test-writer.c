// SPDX-License-Identifier: MIT
/*
 * Unit tests of the buffered writer and the hand-written number formatters
 * (src/common/writer.h).
 *
 * The formatters replace printf on the per-event path, so the C library's snprintf is the
 * independent oracle here: every formatter must produce exactly the bytes snprintf gives for the
 * matching conversion. The writer is checked by sending output to a temporary file or a pipe
 * and comparing what arrives with the bytes that were written, whatever the buffer size.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/writer.h"

/* ---- formatters ---------------------------------------------------------------------------- */

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* The formatters may write up to 20 bytes (their documented room), never one more. */
static void check_room(const char *got)
{
	for (size_t i = 20; i < 48; i++)
		assert_int_equal((unsigned char) got[i], 0x5a);
}

/*
 * fmt_u64() and fmt_u64_vec() of @v, or with @sgn fmt_i64() and fmt_i64_vec() of @v as
 * signed, against snprintf().
 */
static void check_dec(uint64_t v, bool sgn)
{
	char got[48], want[32];
	size_t n;

	if (sgn)
		snprintf(want, sizeof(want), "%" PRId64, (int64_t) v);
	else
		snprintf(want, sizeof(want), "%" PRIu64, v);
	for (int vec = 0; vec < 2; vec++) {
		memset(got, 0x5a, sizeof(got));
		if (sgn)
			n = vec ? fmt_i64_vec(got, (int64_t) v) : fmt_i64(got, (int64_t) v);
		else
			n = vec ? fmt_u64_vec(got, v) : fmt_u64(got, v);
		assert_int_equal(n, strlen(want));
		assert_memory_equal(got, want, n);
		check_room(got);
	}
}

static void check_u64(uint64_t v)
{
	check_dec(v, false);
}

static void check_i64(int64_t v)
{
	check_dec((uint64_t) v, true);
}

static void check_pad(uint64_t v, unsigned int width)
{
	char got[64], want[64];
	size_t n;

	memset(got, 0, sizeof(got));
	n = fmt_u64_pad(got, v, width);
	snprintf(want, sizeof(want), "%0*" PRIu64, (int) width, v);
	if (n != strlen(want) || memcmp(got, want, n)) {
		print_error("fmt_u64_pad(%" PRIu64 ", %u): got \"%.*s\", want \"%s\"\n", v, width,
			    (int) n, got, want);
		fail();
	}
}

static void test_fmt_u64_powers_of_ten_and_neighbours(void **state)
{
	uint64_t p = 1;
	int k;

	(void) state;
	check_u64(0);
	for (k = 0; k <= 19; k++) {
		check_u64(p - 1);
		check_u64(p);
		check_u64(p + 1);
		if (k < 19)
			p *= 10;
	}
	check_u64(UINT64_MAX);
	check_u64(UINT64_MAX - 1);
}

/*
 * fmt_u64() shifts the leading zeros of eight digits out by the count, so every leading
 * digit at every length matters: all values below 10^6, then each length with every
 * leading digit and pseudo-random digits after it.
 */
static void test_fmt_u64_every_leading_digit(void **state)
{
	uint64_t x = UINT64_C(0x9E3779B97F4A7C15), v, p = 1;

	(void) state;
	for (v = 0; v < 1000000; v++)
		check_u64(v);
	for (int k = 1; k <= 19; k++) {
		p *= 10; /* 10^k: values of k + 1 digits */
		for (uint64_t lead = 1; lead <= 9; lead++) {
			if (k == 19 && lead > 1)
				break; /* 2 * 10^19 is past UINT64_MAX */
			for (int r = 0; r < 64; r++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				v = lead * p + x % p;
				if (k == 19 && v < lead * p)
					continue;
				check_u64(v);
			}
		}
	}
}

/*
 * fmt_count_digits32() reads a table by bit length: each power of two and of ten and
 * their neighbours (where the count or the entry changes), then pseudo-random values of
 * each bit length, against the length snprintf() gives.
 */
static void test_fmt_count_digits32(void **state)
{
	uint64_t seed = 7;
	char want[16];

	(void) state;
	for (int k = 0; k < 32; k++) {
		uint64_t two = UINT64_C(1) << k, ten = k < 10 ? writer_pow10[k] : 0;
		uint64_t probes[] = {two - 1, two, two + 1, ten ? ten - 1 : 0, ten, ten + 1};

		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
			uint32_t v = (uint32_t) probes[i];

			snprintf(want, sizeof(want), "%" PRIu32, v);
			assert_int_equal(fmt_count_digits32(v), strlen(want));
		}
		for (int r = 0; r < 4096; r++) {
			uint32_t v = (uint32_t) ((xorshift(&seed) & (two - 1)) | two);

			snprintf(want, sizeof(want), "%" PRIu32, v);
			assert_int_equal(fmt_count_digits32(v), strlen(want));
		}
	}
	assert_int_equal(fmt_count_digits32(0), 1);
	assert_int_equal(fmt_count_digits32(UINT32_MAX), 10);
}

static void test_fmt_u64_known_strings(void **state)
{
	char buf[32];

	(void) state;
	assert_int_equal(fmt_u64(buf, 0), 1);
	assert_memory_equal(buf, "0", 1);
	assert_int_equal(fmt_u64(buf, 1000000000), 10);
	assert_memory_equal(buf, "1000000000", 10);
	assert_int_equal(fmt_u64(buf, UINT64_MAX), 20);
	assert_memory_equal(buf, "18446744073709551615", 20);
}

/*
 * fmt_ascii8() divides by 100 and 10 with multiplications that are exact only below a
 * bound: compare it, for every value below 10^8, with a decimal counter kept by hand.
 */
static void test_fmt_ascii8_every_value(void **state)
{
	char want[8] = {'0', '0', '0', '0', '0', '0', '0', '0'}, got[8];
	uint32_t v;
	int i;

	(void) state;
	for (v = 0; v < 100000000; v++) {
		tk_store_u64(got, fmt_ascii8(v), TK_BYTE_ORDER_LE);
		if (memcmp(got, want, 8)) {
			print_error("fmt_ascii8(%u): got \"%.8s\", want \"%.8s\"\n", v, got, want);
			fail();
		}
		for (i = 7; i >= 0 && want[i] == '9'; i--)
			want[i] = '0';
		if (i >= 0)
			want[i]++;
	}
}

/* fmt_put_ascii8x2() against fmt_ascii8(), every value in both places. */
static void test_fmt_put_ascii8x2_every_value(void **state)
{
	char got[16], want[16];
	uint32_t v;

	(void) state;
	for (v = 0; v < 100000000; v++) {
		uint32_t w = 99999999 - v;

		fmt_put_ascii8x2(got, v, got + 8, w);
		tk_store_u64(want, fmt_ascii8(v), TK_BYTE_ORDER_LE);
		tk_store_u64(want + 8, fmt_ascii8(w), TK_BYTE_ORDER_LE);
		if (memcmp(got, want, 16)) {
			print_error("fmt_put_ascii8x2(%u, %u): got \"%.16s\", want \"%.16s\"\n", v,
				    w, got, want);
			fail();
		}
	}
}

static void test_fmt_ascii4_every_value(void **state)
{
	char want[5], got[4];
	uint32_t v;

	(void) state;
	for (v = 0; v < 10000; v++) {
		snprintf(want, sizeof(want), "%04u", v);
		tk_store_u32(got, fmt_ascii4(v), TK_BYTE_ORDER_LE);
		if (memcmp(got, want, 4)) {
			print_error("fmt_ascii4(%u): got \"%.4s\", want \"%s\"\n", v, got, want);
			fail();
		}
	}
}

static void test_fmt_u64_i64_every_small_value(void **state)
{
	int64_t v;

	(void) state;
	for (v = 0; v < (1 << 20); v++) {
		check_u64((uint64_t) v);
		check_i64(-v);
	}
}

static void test_fmt_u64_random_values(void **state)
{
	uint64_t seed = 0x1234567;
	int i;

	(void) state;
	for (i = 0; i < 100000; i++) {
		uint64_t v = xorshift(&seed);

		/* spread over all magnitudes, not only 20-digit numbers */
		check_u64(v >> (i % 64));
		check_i64((int64_t) v >> (i % 64)); /* both signs, all magnitudes */
	}
}

static void test_fmt_i64_extremes_and_boundaries(void **state)
{
	int64_t p = 1;
	int k;

	(void) state;
	check_i64(0);
	check_i64(-1);
	check_i64(1);
	check_i64(INT64_MIN);
	check_i64(INT64_MIN + 1);
	check_i64(INT64_MAX);
	for (k = 0; k <= 18; k++) {
		check_i64(p - 1);
		check_i64(p);
		check_i64(-p);
		check_i64(-(p - 1));
		check_i64(-p - 1);
		if (k < 18)
			p *= 10;
	}
}

static void test_fmt_i64_known_strings(void **state)
{
	char buf[32];

	(void) state;
	assert_int_equal(fmt_i64(buf, INT64_MIN), 20);
	assert_memory_equal(buf, "-9223372036854775808", 20);
	assert_int_equal(fmt_i64(buf, -1), 2);
	assert_memory_equal(buf, "-1", 2);
	assert_int_equal(fmt_i64(buf, -10), 3);
	assert_memory_equal(buf, "-10", 3);
}

static void test_fmt_u64_pad_widths(void **state)
{
	static const unsigned int widths[] = {0, 1, 2, 9, 12, 20, 25};
	static const uint64_t values[] = {
		0,	    1, 9, 10, 999999999, 1000000000, 123456789, 999999999999, 1000000000000,
		UINT64_MAX, 42};
	size_t i, j;

	(void) state;
	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		for (j = 0; j < sizeof(values) / sizeof(values[0]); j++)
			check_pad(values[j], widths[i]);
}

static void test_fmt_u64_pad_never_truncates(void **state)
{
	char buf[32];

	(void) state;
	/* nine-digit nanoseconds field: a ten-digit value keeps all ten digits */
	assert_int_equal(fmt_u64_pad(buf, 1234567890, 9), 10);
	assert_memory_equal(buf, "1234567890", 10);
	assert_int_equal(fmt_u64_pad(buf, 5, 9), 9);
	assert_memory_equal(buf, "000000005", 9);
	assert_int_equal(fmt_u64_pad(buf, 76267, 12), 12);
	assert_memory_equal(buf, "000000076267", 12);
	assert_int_equal(fmt_u64_pad(buf, 1967640810463, 20), 20);
	assert_memory_equal(buf, "00000001967640810463", 20);
}

/*
 * A hex text made at @got (filled with 0x5a first) against the C library's @want: the count,
 * the digits, and nothing written from byte 16 on (the room of the hex forms).
 */
static void check_hex(const char *got, size_t n, const char *want, size_t size)
{
	assert_int_equal(n, strlen(want));
	assert_memory_equal(got, want, n);
	for (size_t k = 16; k < size; k++)
		assert_int_equal((unsigned char) got[k], 0x5a);
}

/* Hex in both cases, zero-padded hex and octal against the C library. */
static void test_fmt_hex_upper_and_oct(void **state)
{
	uint64_t seed = 99;
	char got[32], want[32];
	size_t n;
	int i;

	(void) state;
	for (i = 0; i < 20000; i++) {
		uint64_t v = i < 70 ? (i < 64 ? UINT64_C(1) << i : (uint64_t) (i - 64))
				    : xorshift(&seed) >> (i % 64);

		snprintf(want, sizeof(want), "%" PRIX64, v);
		memset(got, 0x5a, sizeof(got));
		check_hex(got, fmt_hex_upper(got, v), want, sizeof(got));
		memset(got, 0x5a, sizeof(got));
		check_hex(got, fmt_hex_vec(got, v, true), want, sizeof(got));
		snprintf(want, sizeof(want), "%" PRIx64, v);
		memset(got, 0x5a, sizeof(got));
		check_hex(got, fmt_hex(got, v, false), want, sizeof(got));
		memset(got, 0x5a, sizeof(got));
		check_hex(got, fmt_hex_vec(got, v, false), want, sizeof(got));
		for (unsigned int w = 1; w <= 16; w++) { /* "%0*lx": zeros up to the width */
			snprintf(want, sizeof(want), "%0*" PRIx64, (int) w, v);
			memset(got, 0x5a, sizeof(got));
			check_hex(got, fmt_hex_pad(got, v, w, false), want, sizeof(got));
			snprintf(want, sizeof(want), "%0*" PRIX64, (int) w, v);
			memset(got, 0x5a, sizeof(got));
			check_hex(got, fmt_hex_pad(got, v, w, true), want, sizeof(got));
		}
		n = fmt_oct(got, v);
		snprintf(want, sizeof(want), "%" PRIo64, v);
		assert_int_equal(n, strlen(want));
		assert_memory_equal(got, want, n);
	}
	n = fmt_hex(got, UINT64_C(0xabcdef0123456789), false);
	assert_int_equal(n, 16);
	assert_memory_equal(got, "abcdef0123456789", 16);
	n = fmt_hex_upper(got, UINT64_MAX);
	assert_int_equal(n, 16);
	assert_memory_equal(got, "FFFFFFFFFFFFFFFF", 16);
	n = fmt_oct(got, UINT64_MAX);
	assert_int_equal(n, 22);
	assert_memory_equal(got, "1777777777777777777777", 22);
	assert_int_equal(fmt_hex_upper(got, 0), 1);
	assert_int_equal(got[0], '0');
	assert_int_equal(fmt_oct(got, 0), 1);
	assert_int_equal(got[0], '0');
}

/* ---- the writer ---------------------------------------------------------------------------- */

/* Everything in @fd from offset 0; the caller frees it. */
static char *slurp_file(int fd, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	ssize_t r;

	assert_non_null(buf);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t) r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	assert_true(r == 0);
	*len = n;
	return buf;
}

/* Growable expectation built with snprintf, independent of the writer. */
struct expect {
	char *buf;
	size_t len, cap;
};

static void expect_add(struct expect *e, const char *p, size_t n)
{
	if (e->len + n > e->cap) {
		e->cap = (e->len + n) * 2;
		e->buf = realloc(e->buf, e->cap);
		assert_non_null(e->buf);
	}
	memcpy(e->buf + e->len, p, n);
	e->len += n;
}

static void test_writer_init_raises_small_buffers(void **state)
{
	struct writer w;

	(void) state;
	assert_int_equal(writer_init(&w, -1, 16), TK_OK);
	assert_true(w.cap >= WRITER_MAX_RESERVE);
	assert_int_equal(w.len, 0);
	writer_fini(&w);
	assert_null(w.buf);
}

static void test_writer_many_small_writes_to_file(void **state)
{
	FILE *f = tmpfile();
	struct writer w;
	struct expect e = {NULL, 0, 0};
	char tmp[64];
	size_t len;
	char *got;
	int i;

	(void) state;
	assert_non_null(f);
	assert_int_equal(writer_init(&w, fileno(f), WRITER_MAX_RESERVE), TK_OK);
	for (i = 0; i < 50000; i++) {
		char *p;
		int n;

		/* a number through reserve/commit, a string, a character */
		p = writer_reserve(&w, 24);
		assert_non_null(p);
		p += fmt_i64(p, (int64_t) i * -7919);
		writer_commit_to(&w, p);
		writer_puts(&w, " = value");
		writer_putc(&w, i % 10 == 9 ? '\n' : ' ');
		n = snprintf(tmp, sizeof(tmp), "%" PRId64 " = value%c", (int64_t) i * -7919,
			     i % 10 == 9 ? '\n' : ' ');
		expect_add(&e, tmp, (size_t) n);
	}
	assert_int_equal(writer_flush(&w), TK_OK);
	assert_int_equal(w.len, 0);
	got = slurp_file(fileno(f), &len);
	assert_int_equal(len, e.len);
	assert_memory_equal(got, e.buf, len);
	free(got);
	free(e.buf);
	writer_fini(&w);
	fclose(f);
}

static void test_writer_writes_larger_than_buffer(void **state)
{
	FILE *f = tmpfile();
	struct writer w;
	struct expect e = {NULL, 0, 0};
	size_t big = 3 * WRITER_MAX_RESERVE + 123, i, len;
	char *blob = malloc(big);
	char *got;

	(void) state;
	assert_non_null(f);
	assert_non_null(blob);
	for (i = 0; i < big; i++)
		blob[i] = (char) ('a' + i % 26);
	assert_int_equal(writer_init(&w, fileno(f), WRITER_MAX_RESERVE), TK_OK);
	/* a few buffered bytes, then a block larger than the whole buffer, then more */
	writer_puts(&w, "head:");
	expect_add(&e, "head:", 5);
	writer_write(&w, blob, big);
	expect_add(&e, blob, big);
	writer_write(&w, blob, 7);
	expect_add(&e, blob, 7);
	writer_write(&w, blob, WRITER_MAX_RESERVE);
	expect_add(&e, blob, WRITER_MAX_RESERVE);
	writer_puts(&w, ":tail");
	expect_add(&e, ":tail", 5);
	assert_int_equal(writer_flush(&w), TK_OK);
	got = slurp_file(fileno(f), &len);
	assert_int_equal(len, e.len);
	assert_memory_equal(got, e.buf, len);
	free(got);
	free(e.buf);
	free(blob);
	writer_fini(&w);
	fclose(f);
}

static void test_writer_to_pipe_and_flush_empty(void **state)
{
	int fds[2];
	struct writer w;
	struct expect e = {NULL, 0, 0};
	char tmp[32];
	char got[16384];
	size_t n = 0;
	ssize_t r;
	int i;

	(void) state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(writer_init(&w, fds[1], WRITER_MAX_RESERVE), TK_OK);
	/* flushing nothing writes nothing and succeeds */
	assert_int_equal(writer_flush(&w), TK_OK);
	/* about 9 KiB: fits in a pipe, needs more than one buffer */
	for (i = 0; i < 1000; i++) {
		char *p = writer_reserve(&w, 32);
		int k;

		p += fmt_u64_pad(p, (uint64_t) i * 1000003, 9);
		*p++ = '\n';
		writer_commit_to(&w, p);
		k = snprintf(tmp, sizeof(tmp), "%09" PRIu64 "\n", (uint64_t) i * 1000003);
		expect_add(&e, tmp, (size_t) k);
	}
	assert_int_equal(writer_flush(&w), TK_OK);
	close(fds[1]);
	while ((r = read(fds[0], got + n, sizeof(got) - n)) > 0)
		n += (size_t) r;
	close(fds[0]);
	assert_int_equal(n, e.len);
	assert_memory_equal(got, e.buf, n);
	free(e.buf);
	writer_fini(&w);
}

static void test_writer_reports_failed_write_and_stays_usable(void **state)
{
	int fds[2];
	struct writer w;
	const char *cause;
	int i;

	(void) state;
	assert_int_equal(pipe(fds), 0);
	/* the read end of a pipe cannot be written: write() fails with EBADF */
	assert_int_equal(writer_init(&w, fds[0], WRITER_MAX_RESERVE), TK_OK);
	tk_error_clear();
	writer_puts(&w, "lost");
	assert_int_equal(writer_flush(&w), TK_ERR_IO);
	assert_true(tk_error_count() >= 1);
	cause = tk_error_cause(0);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "Cannot "));
	assert_non_null(strstr(cause, "errno="));
	/* later output is discarded, never crashes, and the failure is reported again */
	for (i = 0; i < 3 * WRITER_MAX_RESERVE; i++) {
		char *p = writer_reserve(&w, 16);

		assert_non_null(p);
		p += fmt_u64(p, (uint64_t) i);
		writer_commit_to(&w, p);
	}
	assert_int_equal(writer_flush(&w), TK_ERR_IO);
	writer_fini(&w);
	close(fds[0]);
	close(fds[1]);
}

static void check_double(double v)
{
	char got[64], want[64];
	size_t n, i;

	memset(got, 0x5a, sizeof(got));
	n = fmt_double_g(got, v);
	snprintf(want, sizeof(want), "%g", v);
	if (n != strlen(want) || memcmp(got, want, n)) {
		print_error("fmt_double_g(%a): got \"%.*s\", want \"%s\"\n", v, (int) n, got, want);
		fail();
	}
	for (i = 32; i < sizeof(got); i++) /* its room is 32 bytes */
		assert_int_equal((unsigned char) got[i], 0x5a);
}

/*
 * %g, as babeltrace2 prints floating-point fields: special values, exact ties (which round
 * to even in glibc), carries into a new digit, both notations and their boundaries, and a
 * million random bit patterns (every exponent) and denormals of every length.
 */
static void test_fmt_double_g_matches_snprintf(void **state)
{
	/* clang-format off */
	static const double fixed[] = {
		0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 1e-4, 9.99999e-5, 1e-5, 123456.0, 999999.0,
		999999.5, 1e6, 1234567.0, 0.000123456, 2.5, 1.5, 0.15, 9.9999949, 9.9999951, 1e100,
		1e-100, 1.7976931348623157e308, 4.9e-324, 2.2250738585072014e-308, 3.0517578125e-05,
		65536.5, 100000.5, 3.14159265, 1234565.0, 1234575.0, 12345.25, 12345.75, 0.03125,
		7.62939453125e-06, 0.000244140625, 1e-310, 1.5e-323, 9.8813129168249309e-324,
		-6.94279e-82, 6.942785e-82, 1.234565e200, 9.999995e-300, 1e300, 1.2345650000000001e22,
	};
	/* clang-format on */
	uint64_t seed = UINT64_C(0x243f6a8885a308d3);
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		check_double(fixed[i]);
		check_double(-fixed[i]);
	}
	/* around each power of ten, where the first guess of the exponent may be one off */
	for (i = 0; i <= 60; i++) {
		static const double from[] = {1e-30, 1e-20, 1e-10, 1e0, 1e10, 1e20, 1e30};
		double p10 = from[i / 10], below, above;
		uint64_t b;

		for (size_t j = 0; j < i % 10; j++)
			p10 *= 10.0; /* near 10^(i - 30), which is all this needs */
		memcpy(&b, &p10, sizeof(b));
		b--;
		memcpy(&below, &b, sizeof(b));
		b += 2;
		memcpy(&above, &b, sizeof(b));
		check_double(p10);
		check_double(below);
		check_double(above);
		check_double(p10 * (1.0 - 5e-7));
		check_double(p10 * (1.0 + 5e-7));
		check_double(p10 * 0.9999994999);
		check_double((double) (float) p10);
	}
	check_double((double) INFINITY);
	check_double(-(double) INFINITY);
	check_double((double) NAN);
	check_double(-(double) NAN);
	for (i = 0; i < 1000000; i++) {
		uint64_t bits = xorshift(&seed);
		double d;

		memcpy(&d, &bits, sizeof(d));
		check_double(d);
		/* subnormals, whose first guess of the exponent comes from their top bit */
		{
			uint64_t sub = (bits & ((UINT64_C(1) << 52) - 1)) >> (bits >> 58);

			memcpy(&d, &sub, sizeof(d));
			check_double(d);
		}
		/* values with few significant digits, where ties and carries happen */
		check_double((double) (int64_t) (bits % 20000001 - 10000000) /
			     (double) (UINT64_C(1) << (bits >> 58)));
		/* single-precision fields: few binary digits, so many exact decimal ties */
		{
			uint32_t fbits = (uint32_t) (bits >> 32);
			float f;

			memcpy(&f, &fbits, sizeof(f));
			check_double((double) f);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_u64_powers_of_ten_and_neighbours),
		cmocka_unit_test(test_fmt_u64_every_leading_digit),
		cmocka_unit_test(test_fmt_count_digits32),
		cmocka_unit_test(test_fmt_u64_known_strings),
		cmocka_unit_test(test_fmt_ascii8_every_value),
		cmocka_unit_test(test_fmt_put_ascii8x2_every_value),
		cmocka_unit_test(test_fmt_ascii4_every_value),
		cmocka_unit_test(test_fmt_u64_i64_every_small_value),
		cmocka_unit_test(test_fmt_u64_random_values),
		cmocka_unit_test(test_fmt_i64_extremes_and_boundaries),
		cmocka_unit_test(test_fmt_i64_known_strings),
		cmocka_unit_test(test_fmt_u64_pad_widths),
		cmocka_unit_test(test_fmt_u64_pad_never_truncates),
		cmocka_unit_test(test_fmt_hex_upper_and_oct),
		cmocka_unit_test(test_fmt_double_g_matches_snprintf),
		cmocka_unit_test(test_writer_init_raises_small_buffers),
		cmocka_unit_test(test_writer_many_small_writes_to_file),
		cmocka_unit_test(test_writer_writes_larger_than_buffer),
		cmocka_unit_test(test_writer_to_pipe_and_flush_empty),
		cmocka_unit_test(test_writer_reports_failed_write_and_stays_usable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
