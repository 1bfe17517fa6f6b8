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
 *
 * Enumerations: print plans pre-render an enumeration's labels, per value for small spans
 * and per segment of values for wide ones (src/output/pretty-plan.c); a plan's line must
 * show what pretty_put_enum(), which searches the mappings per value, shows, and what
 * babeltrace2 shows for hand-picked values: every matching label in mapping order, or
 * <unknown>.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

/* The @n bytes at @s as letters, then with an escape at each position in turn. */
static void check_letters_and_each_escape(unsigned char *s, size_t n)
{
	size_t pos;

	for (pos = 0; pos < n; pos++)
		s[pos] = (unsigned char) ('a' + pos % 26);
	check(s, n);
	for (pos = 0; pos < n; pos++) {
		s[pos] = pos % 2 ? '"' : 1;
		check(s, n);
		s[pos] = (unsigned char) ('a' + pos % 26);
	}
}

/*
 * Short strings alone in a heap block of their exact size, clean and with an escape at each
 * position: the tail of a string is read by overlapping loads (tail_words()), which must
 * stay inside it (a sanitizer build reports a byte read past it; other builds may load the
 * 16 bytes from the tail on when they lie in one page, see the next test).
 */
static void test_short_strings_read_inside(void **state)
{
	size_t n;

	(void) state;
	for (n = 1; n <= 40; n++) {
		unsigned char *s = malloc(n);

		assert_non_null(s);
		check_letters_and_each_escape(s, n);
		free(s);
	}
}

/*
 * Strings that end where an inaccessible page begins, at every length up to 40 and with an
 * escape at each position: a load past the string's end must not reach that page (a fault
 * fails the test), whatever way the build reads tails.
 */
static void test_strings_before_a_page_end(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *m;
	size_t n;

	(void) state;
	assert_true(page > 0);
	m = mmap(NULL, (size_t) page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		 0);
	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + page, (size_t) page, PROT_NONE), 0);
	for (n = 1; n <= 40; n++)
		check_letters_and_each_escape(m + page - n, n);
	munmap(m, (size_t) page * 2);
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

/* ---- enumerations in print plans ----------------------------------------------------------- */

/* Lines of a plan for events "e" with one payload field "x" of class @en, one per value. */
static void plan_line(struct model_fc *en, const uint64_t *u, size_t n_values, char **lines)
{
	struct model_member mb = {"x", "x", en};
	struct model_fc payload;
	struct model_stream_class sc;
	struct tk_event_class ec;
	struct tk_printer p;
	struct tk_event ev;
	struct model_value v[1];
	struct plan *pl;
	size_t i;

	memset(&payload, 0, sizeof(payload));
	payload.kind = MODEL_FC_STRUCT;
	payload.u.st.members = &mb;
	payload.u.st.count = 1;
	memset(&sc, 0, sizeof(sc));
	memset(&ec, 0, sizeof(ec));
	ec.name = "e";
	ec.payload = &payload;
	ec.sc = &sc;
	memset(&p, 0, sizeof(p));
	p.flags = TK_PRINT_NAMES_PAYLOAD;
	assert_int_equal(writer_init(&p.out, -1, 1 << 16), TK_OK);
	assert_int_equal(plan_build(&p, &ec, &pl), TK_OK);
	memset(&ev, 0, sizeof(ev));
	ev.ec = &ec;
	ev.scope[MODEL_SCOPE_PAYLOAD] = v;
	for (i = 0; i < n_values; i++) {
		p.out.len = 0;
		v[0].v.u = u[i];
		plan_run(&p, pl, &ev);
		lines[i] = strndup(p.out.buf, p.out.len);
		assert_non_null(lines[i]);
	}
	plan_free(pl);
	writer_fini(&p.out);
}

/* What the line must be: the slow path's text of the value inside the fixed parts. */
static void check_enum_lines(struct model_fc *en, const uint64_t *u, size_t n)
{
	char **lines = calloc(n, sizeof(*lines));
	struct writer w;
	size_t i;

	assert_non_null(lines);
	plan_line(en, u, n, lines);
	assert_int_equal(writer_init(&w, -1, 0), TK_OK);
	for (i = 0; i < n; i++) {
		w.len = 0;
		writer_write(&w, "e: { x = ", 9);
		pretty_put_enum(&w, en, u[i]);
		writer_write(&w, " }\n", 3);
		if (strlen(lines[i]) != w.len || memcmp(lines[i], w.buf, w.len)) {
			print_error("value %#" PRIx64 ": got \"%s\", want \"%.*s\"\n", u[i],
				    lines[i], (int) w.len, w.buf);
			fail();
		}
		free(lines[i]);
	}
	writer_fini(&w);
	free(lines);
}

/* Every range bound, its neighbours and values between, in both signednesses. */
static void test_enum_plans_match_slow_path(void **state)
{
	struct model_range r_neg = {{.i = -100}, {.i = -1}}, r_ok = {{.i = 0}, {.i = 0}},
			   r_a = {{.i = 10}, {.i = 20}},
			   r_b[2] = {{{.i = 15}, {.i = 25}}, {{.i = INT64_MIN}, {.i = -1000}}},
			   r_big = {{.i = 1000000}, {.i = 1000000}},
			   r_max = {{.i = INT64_MAX - 1}, {.i = INT64_MAX}};
	struct model_enum_mapping maps[6] = {
		{"NEG", &r_neg, 1}, {"OK", &r_ok, 1},	{"A", &r_a, 1},
		{"B?", r_b, 2},	    {"big", &r_big, 1}, {"max", &r_max, 1},
	};
	static const int64_t bounds[] = {INT64_MIN, -1000,   -100,	    -1,	      0, 10, 15, 20,
					 25,	    1000000, INT64_MAX - 1, INT64_MAX};
	uint64_t values[200];
	size_t n = 0, i;
	struct model_fc en;
	int sign;

	(void) state;
	for (i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		values[n++] = (uint64_t) bounds[i] - 1;
		values[n++] = (uint64_t) bounds[i];
		values[n++] = (uint64_t) bounds[i] + 1;
	}
	for (i = 0; i < 50; i++)
		values[n++] = (uint64_t) (i * 7919 % 1001) - 500;
	for (sign = 0; sign < 2; sign++) {
		memset(&en, 0, sizeof(en));
		en.kind = MODEL_FC_ENUM;
		en.is_signed = (uint8_t) sign;
		en.size = 64;
		en.base = 10;
		en.u.en.maps = maps;
		en.u.en.count = 6;
		check_enum_lines(&en, values, n);
		en.base = 16;
		check_enum_lines(&en, values, n);
	}
}

/* Hand-written lines: overlapping ranges list both labels, in mapping order. */
static void test_enum_plan_known_lines(void **state)
{
	struct model_range r_a = {{.i = 10}, {.i = 20}}, r_b = {{.i = 15}, {.i = 25}},
			   r_n = {{.i = -100}, {.i = -1}}, r_big = {{.i = 1000000}, {.i = 1000000}};
	struct model_enum_mapping maps[4] = {
		{"NEG", &r_n, 1}, {"RANGE_A", &r_a, 1}, {"RANGE_B", &r_b, 1}, {"big", &r_big, 1}};
	const uint64_t values[] = {(uint64_t) -5, 12, 17, 25, 26, 1000000};
	static const char *const want[] = {
		"e: { x = ( \"NEG\" : container = -5 ) }\n",
		"e: { x = ( \"RANGE_A\" : container = 12 ) }\n",
		"e: { x = ( \"RANGE_A\", \"RANGE_B\" : container = 17 ) }\n",
		"e: { x = ( \"RANGE_B\" : container = 25 ) }\n",
		"e: { x = ( <unknown> : container = 26 ) }\n",
		"e: { x = ( \"big\" : container = 1000000 ) }\n",
	};
	char *lines[6];
	struct model_fc en;
	size_t i;

	(void) state;
	memset(&en, 0, sizeof(en));
	en.kind = MODEL_FC_ENUM;
	en.is_signed = 1;
	en.size = 32;
	en.base = 10;
	en.u.en.maps = maps;
	en.u.en.count = 4;
	plan_line(&en, values, 6, lines);
	for (i = 0; i < 6; i++) {
		assert_string_equal(lines[i], want[i]);
		free(lines[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_byte_at_each_position),
		cmocka_unit_test(test_short_strings_read_inside),
		cmocka_unit_test(test_strings_before_a_page_end),
		cmocka_unit_test(test_random_strings),
		cmocka_unit_test(test_enum_plans_match_slow_path),
		cmocka_unit_test(test_enum_plan_known_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
