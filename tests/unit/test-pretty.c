// SPDX-License-Identifier: MIT
/*
 * Unit tests of string escaping in the text printer (src/output/pretty.c).
 *
 * pretty_put_escaped() checks and copies 16 bytes at a time and only falls back to a byte loop
 * for blocks holding a character to escape, so its edge cases are lengths around 16 and 32
 * and escapes at every position. The oracle is a byte-at-a-time implementation of the rule
 * babeltrace2 follows, written here from its documented output: backslash, both quotes and
 * '?' get a backslash, the C control characters their letter (ESC is \e), other control
 * characters and DEL \xHH, and every other byte (UTF-8 included) is printed as it is.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "output/pretty.h"

static size_t reference_escape(char *out, const unsigned char *s, size_t n)
{
	size_t i, k = 0;

	out[k++] = '"';
	for (i = 0; i < n; i++) {
		const char *letters = "abtnvfr";
		unsigned char c = s[i];

		if (c == '\\' || c == '\'' || c == '"' || c == '?') {
			out[k++] = '\\';
			out[k++] = (char) c;
		} else if (c >= 7 && c <= 13) {
			out[k++] = '\\';
			out[k++] = letters[c - 7];
		} else if (c == 27) {
			out[k++] = '\\';
			out[k++] = 'e';
		} else if (c < 32 || c == 127) {
			k += (size_t) sprintf(out + k, "\\x%02x", c);
		} else {
			out[k++] = (char) c;
		}
	}
	out[k++] = '"';
	return k;
}

/* What pretty_put_escaped() writes for @s, read back from a temporary file. */
static size_t escaped(char *out, size_t cap, const unsigned char *s, size_t n)
{
	FILE *f = tmpfile();
	struct writer w;
	size_t got;

	assert_non_null(f);
	assert_int_equal(writer_init(&w, fileno(f), 0), TK_OK);
	pretty_put_escaped(&w, (const char *) s, n);
	assert_int_equal(writer_flush(&w), TK_OK);
	writer_fini(&w);
	rewind(f);
	got = fread(out, 1, cap, f);
	fclose(f);
	return got;
}

static void check(const unsigned char *s, size_t n)
{
	static char want[4 * 9000 + 2], got[4 * 9000 + 2];
	size_t nw = reference_escape(want, s, n);
	size_t ng = escaped(got, sizeof(got), s, n);

	if (ng != nw || memcmp(got, want, nw)) {
		print_error("length %zu: got %zu bytes, want %zu: \"%.*s\" vs \"%.*s\"\n", n, ng,
			    nw, (int) (ng < 200 ? ng : 200), got, (int) (nw < 200 ? nw : 200),
			    want);
		fail();
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

/* Every byte value alone, and at every position of strings of every length up to 48. */
static void test_each_byte_at_each_position(void **state)
{
	unsigned char s[64];
	size_t n, pos;
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
			static const unsigned char specials[] = {
				'"', '\\', '\'', '?', 0, '\n', 27, 31, 127, 0x80, 0xe2, ' ', '~'};
			size_t k;

			for (k = 0; k < sizeof(specials); k++) {
				s[pos] = specials[k];
				check(s, n);
			}
			s[pos] = 'a';
		}
	}
}

/* Random strings, mostly printable, of lengths beyond the writer's reservation chunk. */
static void test_random_strings(void **state)
{
	static unsigned char s[9000];
	uint64_t seed = UINT64_C(0x9e3779b97f4a7c15);
	int round;

	(void) state;
	for (round = 0; round < 3000; round++) {
		uint64_t r = xorshift(&seed);
		size_t n = round < 2900 ? r % 80 : r % sizeof(s), i;
		unsigned int rare = (unsigned int) (r >> 32) % 4; /* 0: no special bytes */

		for (i = 0; i < n; i++) {
			uint64_t x = xorshift(&seed);

			s[i] = rare && x % (8 * rare) == 0 ? (unsigned char) (x >> 8)
							   : (unsigned char) (' ' + (x >> 8) % 95);
		}
		check(s, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_byte_at_each_position),
		cmocka_unit_test(test_random_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
