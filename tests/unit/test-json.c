// SPDX-License-Identifier: MIT
/*
 * Unit tests of the JSON value formatters (src/output/json.c).
 *
 * Strings: the oracle is a byte-at-a-time encoder written here from RFC 8259 (section 7:
 * quotation mark, reverse solidus and control characters escaped) and from the Unicode
 * standard's table of well-formed UTF-8 byte sequences (chapter 3, table 3-7) with its
 * "maximal subpart" replacement practice, checked itself on the standard's own example. The
 * encoder under test checks 16 bytes at a time, so the cases put every interesting byte at
 * every position of strings up to 48 bytes, and long strings cross the writer's reservation
 * chunk with multi-byte characters on every boundary. Doubles must read back (strtod) as the
 * same value and stay floats; microsecond times are checked on hand-made values.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/json.h"

/* Table 3-7: for each lead byte, the ranges of the bytes that may follow it. */
struct seq {
	unsigned char lo, hi;  /* lead bytes */
	unsigned char n;       /* following bytes */
	unsigned char r[3][2]; /* their ranges */
};

static const struct seq table37[] = {
	{0xc2, 0xdf, 1, {{0x80, 0xbf}}},
	{0xe0, 0xe0, 2, {{0xa0, 0xbf}, {0x80, 0xbf}}},
	{0xe1, 0xec, 2, {{0x80, 0xbf}, {0x80, 0xbf}}},
	{0xed, 0xed, 2, {{0x80, 0x9f}, {0x80, 0xbf}}},
	{0xee, 0xef, 2, {{0x80, 0xbf}, {0x80, 0xbf}}},
	{0xf0, 0xf0, 3, {{0x90, 0xbf}, {0x80, 0xbf}, {0x80, 0xbf}}},
	{0xf1, 0xf3, 3, {{0x80, 0xbf}, {0x80, 0xbf}, {0x80, 0xbf}}},
	{0xf4, 0xf4, 3, {{0x80, 0x8f}, {0x80, 0xbf}, {0x80, 0xbf}}},
};

/* The reference: the JSON string of @s, at @out; returns its length. */
static size_t reference(char *out, const unsigned char *s, size_t n)
{
	size_t i = 0, k = 0, j, t;

	out[k++] = '"';
	while (i < n) {
		unsigned char c = s[i];
		const struct seq *q = NULL;

		if (c == '"' || c == '\\') {
			out[k++] = '\\';
			out[k++] = (char) c;
			i++;
			continue;
		}
		if (c < 0x20) {
			const char *named = strchr("\bb\ff\nn\rr\tt", c);

			if (c && named)
				k += (size_t) sprintf(out + k, "\\%c", named[1]);
			else
				k += (size_t) sprintf(out + k, "\\u%04x", c);
			i++;
			continue;
		}
		if (c < 0x80) {
			out[k++] = (char) c;
			i++;
			continue;
		}
		for (t = 0; t < sizeof(table37) / sizeof(table37[0]); t++)
			if (c >= table37[t].lo && c <= table37[t].hi)
				q = &table37[t];
		/* the longest start of a well-formed sequence: copied whole, else one U+FFFD */
		for (j = 0; q && j < q->n && i + 1 + j < n; j++)
			if (s[i + 1 + j] < q->r[j][0] || s[i + 1 + j] > q->r[j][1])
				break;
		if (q && j == q->n) {
			memcpy(out + k, s + i, j + 1);
			k += j + 1;
		} else {
			memcpy(out + k, "\\ufffd", 6);
			k += 6;
		}
		i += j + 1;
	}
	out[k++] = '"';
	return k;
}

static char *got_buf, *want_buf;
static struct writer w; /* never flushed: output stays in w.buf */

/* json_put_string() of @s through a writer, compared with the reference. */
static void check(const unsigned char *s, size_t n)
{
	size_t nw = reference(want_buf, s, n);

	w.len = 0;
	json_put_string(&w, (const char *) s, n);
	if (w.len != nw || memcmp(w.buf, want_buf, nw)) {
		print_error("length %zu: got %zu bytes, want %zu: %.*s vs %.*s\n", n, w.len, nw,
			    (int) (w.len < 200 ? w.len : 200), w.buf, (int) (nw < 200 ? nw : 200),
			    want_buf);
		fail();
	}
	/* the direct form gives the same text */
	assert_ptr_equal(json_put_quoted(got_buf, (const char *) s, n), got_buf + nw);
	assert_memory_equal(got_buf, want_buf, nw);
}

static int setup(void **state)
{
	(void) state;
	got_buf = malloc(JSON_QUOTED_ROOM(100000));
	want_buf = malloc(JSON_QUOTED_ROOM(100000));
	return got_buf && want_buf && writer_init(&w, -1, JSON_QUOTED_ROOM(100000)) == TK_OK ? 0
											     : -1;
}

static int teardown(void **state)
{
	(void) state;
	free(got_buf);
	free(want_buf);
	writer_fini(&w);
	return 0;
}

/* The reference on the Unicode standard's example (chapter 3, "U+FFFD Substitution"). */
static void test_reference_on_the_standard_example(void **state)
{
	static const unsigned char in[] = "\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64";
	static const char want[] = "\"a\\ufffd\\ufffd\\ufffdb\\ufffdc\\ufffd\\ufffdd\"";
	char out[128];
	size_t n;

	(void) state;
	n = reference(out, in, sizeof(in) - 1);
	assert_int_equal(n, strlen(want));
	assert_memory_equal(out, want, n);
	check(in, sizeof(in) - 1);
}

/* Hand-made cases: escapes, overlong forms, surrogates, the largest code point, truncation. */
static void test_known_strings(void **state)
{
	static const struct {
		const char *in;
		size_t n;
		const char *want;
	} cases[] = {
		{"", 0, "\"\""},
		{"a\"b\\c/", 6, "\"a\\\"b\\\\c/\""},
		{"\b\f\n\r\t", 5, "\"\\b\\f\\n\\r\\t\""},
		{"\x00\x01\x1f\x7f", 4, "\"\\u0000\\u0001\\u001f\x7f\""},
		{"\xc3\xa9", 2, "\"\xc3\xa9\""},
		{"\xc0\xaf", 2, "\"\\ufffd\\ufffd\""},			     /* overlong '/' */
		{"\xe0\x80\xaf", 3, "\"\\ufffd\\ufffd\\ufffd\""},	     /* overlong */
		{"\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\""},	     /* a surrogate */
		{"\xf4\x8f\xbf\xbf", 4, "\"\xf4\x8f\xbf\xbf\""},	     /* U+10FFFF */
		{"\xf4\x90\x80\x80", 4, "\"\\ufffd\\ufffd\\ufffd\\ufffd\""}, /* above it */
		{"\xe2\x82", 2, "\"\\ufffd\""},				     /* cut short */
		{"\xef\xbf\xbd", 3, "\"\xef\xbf\xbd\""},		     /* U+FFFD itself */
		{"\xff\xfe", 2, "\"\\ufffd\\ufffd\""},
	};
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *end = json_put_quoted(got_buf, cases[i].in, cases[i].n);

		assert_int_equal((size_t) (end - got_buf), strlen(cases[i].want));
		assert_memory_equal(got_buf, cases[i].want, strlen(cases[i].want));
		check((const unsigned char *) cases[i].in, cases[i].n);
	}
}

/* Every interesting byte, and pairs and triples of them, at every position up to 48. */
static void test_bytes_at_each_position(void **state)
{
	static const unsigned char specials[] = {
		0,    9,    0x1f, ' ',	'"',  '\\', 'a',  0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0,
		0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff,
	};
	unsigned char s[64];
	size_t n, pos, a, b;
	int c;

	(void) state;
	for (c = 0; c < 256; c++) {
		s[0] = (unsigned char) c;
		check(s, 1);
	}
	for (n = 0; n <= 48; n++) {
		memset(s, 'a', sizeof(s));
		check(s, n);
		for (pos = 0; pos < n; pos++) {
			for (a = 0; a < sizeof(specials); a++) {
				s[pos] = specials[a];
				check(s, n);
				for (b = 0; pos + 1 < n && b < sizeof(specials); b++) {
					s[pos + 1] = specials[b];
					check(s, n);
					if (pos + 2 < n) {
						s[pos + 2] = 0x80;
						check(s, n);
						s[pos + 2] = 'a';
					}
				}
				if (pos + 1 < n)
					s[pos + 1] = 'a';
			}
			s[pos] = 'a';
		}
	}
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

/* Long strings of multi-byte characters: the writer's chunks never cut one. */
static void test_long_strings(void **state)
{
	static const char *const chars[] = {"a",  "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
					    "\"", "\n",	      "\xff",	      "\xe2\x82"};
	static unsigned char s[20000];
	uint64_t seed = UINT64_C(0x9e3779b97f4a7c15);
	int round;

	(void) state;
	for (round = 0; round < 400; round++) {
		size_t n = 0, len = 600 + xorshift(&seed) % 19000;
		unsigned int mix = (unsigned int) (round % 4);

		while (n < len) {
			const char *ch = chars[xorshift(&seed) % (mix == 0 ? 4 : 8)];
			size_t k = strlen(ch);

			if (n + k > len)
				break;
			memcpy(s + n, ch, k);
			n += k;
		}
		check(s, n);
	}
}

/* Doubles read back as themselves and stay floats; NaN and infinities become strings. */
static void test_doubles(void **state)
{
	static const struct {
		double d;
		const char *want;
	} cases[] = {
		{0.0, "0.0"},
		{-0.0, "-0.0"},
		{1.0, "1.0"},
		{-42.0, "-42.0"},
		{9007199254740991.0, "9007199254740991.0"},
		{9007199254740992.0, "9007199254740992.0"},
		{0.5, "0.5"},
		{1e300, "1.0000000000000001e+300"},
	};
	uint64_t seed = 12345, bits;
	char buf[64];
	size_t i, n;
	double d, back;

	(void) state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = json_fmt_double(buf, cases[i].d);
		buf[n] = '\0';
		assert_string_equal(buf, cases[i].want);
	}
	n = json_fmt_double(buf, 0.0 / 0.0);
	assert_memory_equal(buf, "\"NaN\"", n);
	n = json_fmt_double(buf, 1.0 / 0.0);
	assert_memory_equal(buf, "\"Infinity\"", n);
	n = json_fmt_double(buf, -1.0 / 0.0);
	assert_memory_equal(buf, "\"-Infinity\"", n);
	for (i = 0; i < 200000; i++) {
		bits = xorshift(&seed);
		if (i % 4 == 0) /* small magnitudes, integral ones included */
			bits = (bits & UINT64_C(0x800fffffffffffff)) | (UINT64_C(1020) + bits % 60)
									       << 52;
		memcpy(&d, &bits, sizeof(d));
		if (d != d || d - d != 0)
			continue;
		n = json_fmt_double(buf, d);
		assert_true(n < 40);
		buf[n] = '\0';
		back = strtod(buf, NULL);
		if (memcmp(&back, &d, sizeof(d)) || !strpbrk(buf, ".e") ||
		    strspn(buf, "-0123456789.e+") != n) {
			print_error("%a printed as %s\n", d, buf);
			fail();
		}
	}
}

static void test_microseconds(void **state)
{
	static const struct {
		int64_t ns;
		const char *want;
	} cases[] = {
		{0, "0.000"},
		{1, "0.001"},
		{999, "0.999"},
		{1000, "1.000"},
		{1234567, "1234.567"},
		{-1, "-0.001"},
		{-1000, "-1.000"},
		{INT64_MAX, "9223372036854775.807"},
		{INT64_MIN, "-9223372036854775.808"},
	};
	char buf[32];
	size_t i, n;

	(void) state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = json_fmt_us(buf, cases[i].ns);
		buf[n] = '\0';
		assert_string_equal(buf, cases[i].want);
	}
}

/* Every label whose range holds the value, in mapping order; none is []. */
static void test_enumerations(void **state)
{
	struct model_range r_a = {{.i = -5}, {.i = 0}},
			   r_b[2] = {{{.i = 0}, {.i = 0}}, {{.i = 7}, {.i = 9}}};
	struct model_enum_mapping maps[2] = {{"A\"", &r_a, 1}, {"B", r_b, 2}};
	struct model_fc fc;
	struct writer ew;
	static const struct {
		int64_t v;
		const char *want;
	} cases[] = {
		{-5, "{\"value\":-5,\"labels\":[\"A\\\"\"]}"},
		{0, "{\"value\":0,\"labels\":[\"A\\\"\",\"B\"]}"},
		{8, "{\"value\":8,\"labels\":[\"B\"]}"},
		{3, "{\"value\":3,\"labels\":[]}"},
	};
	size_t i;

	(void) state;
	memset(&fc, 0, sizeof(fc));
	fc.kind = MODEL_FC_ENUM;
	fc.is_signed = 1;
	fc.size = 32;
	fc.u.en.maps = maps;
	fc.u.en.count = 2;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(writer_init(&ew, -1, 0), TK_OK);
		json_put_enum(&ew, &fc, (uint64_t) cases[i].v);
		assert_int_equal(ew.len, strlen(cases[i].want));
		assert_memory_equal(ew.buf, cases[i].want, ew.len);
		writer_fini(&ew);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_on_the_standard_example),
		cmocka_unit_test(test_known_strings),
		cmocka_unit_test(test_bytes_at_each_position),
		cmocka_unit_test(test_long_strings),
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_microseconds),
		cmocka_unit_test(test_enumerations),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
