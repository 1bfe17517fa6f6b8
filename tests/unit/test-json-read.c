// SPDX-License-Identifier: MIT
/*
 * Unit tests of the JSON reader (src/common/json-read.c), which reads CTF 2 metadata.
 *
 * Expected values are written here by hand from RFC 8259 and the Unicode standard's table of
 * well-formed UTF-8 (chapter 3, table 3-7). Every text is copied into a heap block of exactly
 * its length, so a read past the end shows under AddressSanitizer, and the reader is also
 * given buffers whose next byte would change the answer if it were read. Bad texts must fail
 * with TK_ERR_FORMAT at the offset written beside them.
 */
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/json-read.h"

/* Parse the @len bytes of @text from an exact-size heap copy; the status. */
static enum tk_status read_exact(struct arena *a, const char *text, size_t len,
				 struct json_value **out, size_t *where)
{
	char *copy = malloc(len ? len : 1);
	enum tk_status st;

	assert_non_null(copy);
	memcpy(copy, text, len);
	st = json_read(a, copy, len, out, where);
	free(copy);
	return st;
}

/* Parse NUL-terminated @text, which must be valid, into @a; the root. */
static struct json_value *read_ok(struct arena *a, const char *text)
{
	struct json_value *root = NULL;
	size_t where = 12345;

	assert_int_equal(read_exact(a, text, strlen(text), &root, &where), TK_OK);
	assert_non_null(root);
	assert_int_equal(where, 12345); /* untouched on success */
	return root;
}

static void test_nested_document_all_kinds(void **state)
{
	struct arena a;
	struct json_value *r;
	const struct json_value *l, *o;

	(void) state;
	arena_init(&a);
	r = read_ok(&a,
		    " \t\r\n{\"type\":\"preamble\",\"version\":2,\"list\":[null,true,false,[],{}"
		    ",[[\"x\"]]],\"o\":{\"x\":-1,\"y\":{\"z\":[]}}}\n");
	assert_int_equal(r->kind, JSON_OBJECT);
	assert_int_equal(r->n, 4);
	assert_true(json_is_string(json_member(r, "type"), "preamble"));
	assert_false(json_is_string(json_member(r, "type"), "preambl"));
	assert_false(json_is_string(json_member(r, "version"), "2"));
	assert_int_equal(json_member(r, "version")->u, 2);
	l = json_member(r, "list");
	assert_non_null(l);
	assert_int_equal(l->kind, JSON_ARRAY);
	assert_int_equal(l->n, 6);
	assert_int_equal(l->items[0].kind, JSON_NULL);
	assert_int_equal(l->items[1].kind, JSON_TRUE);
	assert_int_equal(l->items[2].kind, JSON_FALSE);
	assert_int_equal(l->items[3].kind, JSON_ARRAY);
	assert_int_equal(l->items[3].n, 0);
	assert_int_equal(l->items[4].kind, JSON_OBJECT);
	assert_int_equal(l->items[4].n, 0);
	assert_int_equal(l->items[5].items[0].kind, JSON_ARRAY);
	assert_int_equal(l->items[5].items[0].n, 1);
	assert_string_equal(l->items[5].items[0].items[0].s, "x");
	o = json_member(r, "o");
	assert_int_equal(o->kind, JSON_OBJECT);
	assert_int_equal(json_member(o, "x")->neg, 1);
	assert_int_equal(json_member(o, "x")->u, 1);
	assert_int_equal(json_member(json_member(o, "y"), "z")->kind, JSON_ARRAY);
	assert_null(json_member(o, "type"));
	assert_null(json_member(l, "x")); /* not an object */
	assert_null(json_member(NULL, "x"));
	assert_false(json_is_string(NULL, ""));
	arena_fini(&a);
}

static void test_member_order_and_offsets(void **state)
{
	struct arena a;
	struct json_value *r;

	(void) state;
	arena_init(&a);
	/* offsets: { at 0, [ at 5, 1 at 6, true at 8, null at 18 */
	r = read_ok(&a, "{\"a\":[1,true],\"b\":null}");
	assert_int_equal(r->offset, 0);
	assert_int_equal(r->n, 2);
	assert_string_equal(r->members[0].key, "a");
	assert_int_equal(r->members[0].key_len, 1);
	assert_string_equal(r->members[1].key, "b");
	assert_int_equal(r->members[0].value.offset, 5);
	assert_int_equal(r->members[0].value.items[0].offset, 6);
	assert_int_equal(r->members[0].value.items[1].offset, 8);
	assert_int_equal(r->members[1].value.offset, 18);
	r = read_ok(&a, "{\"z\":1,\"a\":2,\"m\":3}");
	assert_string_equal(r->members[0].key, "z");
	assert_string_equal(r->members[1].key, "a");
	assert_string_equal(r->members[2].key, "m");
	assert_int_equal(r->members[2].value.u, 3);
	r = read_ok(&a, "  \"s\"");
	assert_int_equal(r->offset, 2);
	arena_fini(&a);
}

/* A number that must be an integer of sign @neg and magnitude @u, and equal @d. */
static void check_int(struct arena *a, const char *text, int neg, uint64_t u, double d)
{
	struct json_value *r = read_ok(a, text);

	assert_int_equal(r->kind, JSON_NUMBER);
	assert_int_equal(r->is_int, 1);
	assert_int_equal(r->neg, neg);
	assert_int_equal(r->u, u);
	assert_true(r->d == d);
}

/* A number that must not be an integer, of value @d. */
static void check_float(struct arena *a, const char *text, double d)
{
	struct json_value *r = read_ok(a, text);
	uint64_t u;
	int64_t i;

	assert_int_equal(r->kind, JSON_NUMBER);
	assert_int_equal(r->is_int, 0);
	assert_true(r->d == d);
	assert_int_equal(json_uint(r, &u), -1);
	assert_int_equal(json_int(r, &i), -1);
}

static void test_numbers_at_the_limits(void **state)
{
	struct arena a;
	struct json_value *r;

	(void) state;
	arena_init(&a);
	check_int(&a, "0", 0, 0, 0.0);
	check_int(&a, "7", 0, 7, 7.0);
	check_int(&a, "18446744073709551615", 0, UINT64_MAX, 18446744073709551615.0);
	check_int(&a, "-9223372036854775808", 1, (uint64_t) 1 << 63, -9223372036854775808.0);
	check_int(&a, "-5", 1, 5, -5.0);
	check_float(&a, "18446744073709551616", 18446744073709551616.0);
	check_float(&a, "-9223372036854775809", -9223372036854775809.0);
	check_float(&a, "1.5", 1.5);
	check_float(&a, "1e3", 1000.0);
	check_float(&a, "1E+3", 1000.0);
	check_float(&a, "-2.5e-1", -0.25);
	check_float(&a, "0.0", 0.0);
	check_float(&a, "123456789012345678901234567890", 123456789012345678901234567890.0);
	check_float(&a, "1e400", HUGE_VAL);
	/* -0: an integer, negative, of magnitude 0; d keeps the sign */
	r = read_ok(&a, "-0");
	assert_int_equal(r->is_int, 1);
	assert_int_equal(r->neg, 1);
	assert_int_equal(r->u, 0);
	assert_true(r->d == 0.0);
	assert_true(signbit(r->d));
	arena_fini(&a);
}

static void test_uint_and_int_ranges(void **state)
{
	struct arena a;
	uint64_t u = 99;
	int64_t i = 99;

	(void) state;
	arena_init(&a);
	assert_int_equal(json_uint(read_ok(&a, "18446744073709551615"), &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(json_int(read_ok(&a, "18446744073709551615"), &i), -1);
	assert_int_equal(json_int(read_ok(&a, "9223372036854775807"), &i), 0);
	assert_true(i == INT64_MAX);
	assert_int_equal(json_int(read_ok(&a, "9223372036854775808"), &i), -1);
	assert_int_equal(json_int(read_ok(&a, "-9223372036854775808"), &i), 0);
	assert_true(i == INT64_MIN);
	assert_int_equal(json_int(read_ok(&a, "-42"), &i), 0);
	assert_true(i == -42);
	assert_int_equal(json_uint(read_ok(&a, "-42"), &u), -1);
	assert_int_equal(json_uint(read_ok(&a, "-0"), &u), 0);
	assert_true(u == 0);
	assert_int_equal(json_int(read_ok(&a, "-0"), &i), 0);
	assert_true(i == 0);
	assert_int_equal(json_uint(read_ok(&a, "\"1\""), &u), -1);
	assert_int_equal(json_int(read_ok(&a, "true"), &i), -1);
	assert_int_equal(json_uint(NULL, &u), -1);
	assert_int_equal(json_int(NULL, &i), -1);
	arena_fini(&a);
}

static void test_string_escapes_and_utf8(void **state)
{
	struct arena a;
	struct json_value *r;

	(void) state;
	arena_init(&a);
	r = read_ok(&a, "\"q\\\"b\\\\s\\/b\\bf\\fn\\nr\\rt\\tA\\u0041e\\u00E9E\\u20ac\"");
	assert_int_equal(r->kind, JSON_STRING);
	assert_string_equal(r->s, "q\"b\\s/b\bf\fn\nr\rt\tAAe\xc3\xa9"
				  "E\xe2\x82\xac");
	/* 16 one-byte characters, A A e, 2 bytes of U+00E9, E, 3 bytes of U+20AC */
	assert_int_equal(r->len, 25);
	assert_int_equal(strlen(r->s), r->len);
	/* U+1F600 as a surrogate pair, and U+10FFFF, the last code point */
	r = read_ok(&a, "\"\\uD83D\\uDE00|\\udbff\\udfff\"");
	assert_string_equal(r->s, "\xf0\x9f\x98\x80|\xf4\x8f\xbf\xbf");
	assert_int_equal(r->len, 9);
	/* \u0001 and \u007f are fine: only U+0000 is refused */
	r = read_ok(&a, "\"\\u0001\\u007F\\u0080\\u07ff\\u0800\\uFFFF\"");
	assert_string_equal(r->s, "\x01\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf");
	/* raw UTF-8 at the edges of table 3-7 passes through unchanged */
	r = read_ok(&a, "\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf0\x90\x80\x80"
			"\xf4\x8f\xbf\xbf\x7f\"");
	/* 2 + 2 + 3 + 3 + 3 + 4 + 4 + 1 bytes */
	assert_int_equal(r->len, 22);
	assert_memory_equal(r->s,
			    "\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf0\x90\x80"
			    "\x80\xf4\x8f\xbf\xbf\x7f",
			    23); /* with the NUL */
	r = read_ok(&a, "\"\"");
	assert_int_equal(r->len, 0);
	assert_string_equal(r->s, "");
	r = read_ok(&a, "{\"k\\u00e9y\":1}");
	assert_string_equal(r->members[0].key, "k\xc3\xa9y");
	assert_int_equal(r->members[0].key_len, 4);
	assert_non_null(json_member(r, "k\xc3\xa9y"));
	arena_fini(&a);
}

struct bad {
	const char *text;
	size_t len; /* 0: strlen(text) */
	size_t where;
};

static const struct bad bad_texts[] = {
	{"", 0, 0},
	{"  \n", 0, 3},
	{"[1,2,]", 0, 5},
	{"{\"a\":1,}", 0, 7},
	{"01", 0, 1},
	{"-01", 0, 2},
	{"1.", 0, 2},
	{"1.e5", 0, 2},
	{".5", 0, 0},
	{"+1", 0, 0},
	{"-", 0, 1},
	{"[-]", 0, 2},
	{"1e", 0, 2},
	{"1e+", 0, 3},
	{"1e5.5", 0, 3},
	{"NaN", 0, 0},
	{"Infinity", 0, 0},
	{"\"\\uD800\"", 0, 1},
	{"\"ab\\uDC00\"", 0, 3},
	{"\"\\uD800\\u0041\"", 0, 1},
	{"\"\\uD800\\n\"", 0, 1},
	{"\"\\uD800", 0, 0},
	{"\"a\\u0000\"", 0, 2},
	{"\"\\u12\"", 0, 1},
	{"\"\\u12G4\"", 0, 1},
	{"\"\\x\"", 0, 1},
	{"\"\\U0041\"", 0, 1},
	{"\"a\x01\"", 0, 2},
	{"\"\t\"", 0, 1},
	{"\"a\nb\"", 0, 2},
	{"\"\x7f\x1f\"", 0, 2},
	{"\"a\0b\"", 5, 2},
	{"\"\xc0\x80\"", 0, 1},		/* overlong U+0000 */
	{"\"\xc1\xbf\"", 0, 1},		/* overlong U+007F */
	{"\"\xe0\x9f\xbf\"", 0, 1},	/* overlong U+07FF */
	{"\"\xf0\x8f\xbf\xbf\"", 0, 1}, /* overlong U+FFFF */
	{"\"\xed\xa0\x80\"", 0, 1},	/* U+D800 in UTF-8 */
	{"\"\xed\xbf\xbf\"", 0, 1},	/* U+DFFF in UTF-8 */
	{"\"\xf4\x90\x80\x80\"", 0, 1}, /* U+110000 */
	{"\"\xf5\x80\x80\x80\"", 0, 1},
	{"\"\xff\"", 0, 1},
	{"\"ab\x80\"", 0, 3},	    /* lone continuation byte */
	{"\"\xe2\x82\"", 0, 1},	    /* truncated before the quote */
	{"\"\xe2\x82x\"", 0, 1},    /* truncated by an ASCII byte */
	{"\"\xc3\xa9\xc3\"", 0, 3}, /* good, then truncated */
	{"{\"a\":1,\"b\":2,\"a\":3}", 0, 13},
	{"{\"a\":1,\"a\":2,\"b\":3,\"b\":4}", 0, 7},
	{"{\"\\u0061\":1,\"a\":2}", 0, 12},
	{"\"abc", 0, 0},
	{"[\"abc", 0, 1},
	{"\"abc\\\"", 0, 0},
	{"\"abc\\", 0, 0},
	{"1 x", 0, 2},
	{"{} {}", 0, 3},
	{"truex", 0, 4},
	{"[1]]", 0, 3},
	{"nul", 0, 0},
	{"tRue", 0, 0},
	{"fals", 0, 0},
	{"[1 2]", 0, 3},
	{"[", 0, 1},
	{"[1", 0, 2},
	{"[1,", 0, 3},
	{"{", 0, 1},
	{"{\"a\"", 0, 4},
	{"{\"a\":", 0, 5},
	{"{\"a\":1", 0, 6},
	{"{\"a\" 1}", 0, 5},
	{"{1:2}", 0, 1},
	{"{'a':2}", 0, 1},
	{"{\"a\":1 \"b\":2}", 0, 7},
	{"\f1", 0, 0}, /* form feed is not white space */
	{"\xef\xbb\xbf"
	 "1",
	 0, 0},		  /* no byte order mark */
	{"1 // c", 0, 2}, /* no comments */
	{"[1,,2]", 0, 3},
	{"\"a\"\"b\"", 0, 3},
};

static void test_bad_texts_fail_at_their_offset(void **state)
{
	struct arena a;
	size_t i;

	(void) state;
	arena_init(&a);
	for (i = 0; i < TK_ARRAY_SIZE(bad_texts); i++) {
		const struct bad *b = &bad_texts[i];
		size_t len = b->len ? b->len : strlen(b->text), where = 9999;
		struct json_value *r = NULL;
		enum tk_status st;

		error_reset();
		st = read_exact(&a, b->text, len, &r, &where);
		if (st != TK_ERR_FORMAT || where != b->where)
			fail_msg("case %zu: status %d at %zu, expected %d at %zu", i, st, where,
				 TK_ERR_FORMAT, b->where);
		assert_null(r);
		/* where may be NULL */
		assert_int_equal(read_exact(&a, b->text, len, &r, NULL), TK_ERR_FORMAT);
	}
	arena_fini(&a);
}

static void test_error_cause_names_offset(void **state)
{
	struct arena a;
	struct json_value *r;
	char line[256];

	(void) state;
	arena_init(&a);
	error_reset();
	assert_int_equal(read_exact(&a, "[1,2,]", 6, &r, NULL), TK_ERR_FORMAT);
	error_format(0, line, sizeof(line));
	assert_non_null(strstr(line, "Cannot read JSON: offset=5, reason="));
	arena_fini(&a);
}

/*
 * The reader must stop at @len: the bytes after it, here chosen so that reading them would
 * change the answer, are not part of the text.
 */
static void test_text_is_not_nul_terminated(void **state)
{
	static const char quote[] = "\"abc\"";
	static const char digits[] = "1234";
	static const char word[] = "truex";
	static const char arr[] = "[1]";
	struct arena a;
	struct json_value *r = NULL;
	size_t where = 0;

	(void) state;
	arena_init(&a);
	assert_int_equal(json_read(&a, quote, 4, &r, &where), TK_ERR_FORMAT);
	assert_int_equal(where, 0);
	assert_int_equal(json_read(&a, digits, 2, &r, &where), TK_OK);
	assert_int_equal(r->u, 12);
	assert_int_equal(json_read(&a, word, 4, &r, &where), TK_OK);
	assert_int_equal(r->kind, JSON_TRUE);
	assert_int_equal(json_read(&a, word, 3, &r, &where), TK_ERR_FORMAT);
	assert_int_equal(where, 0);
	assert_int_equal(json_read(&a, arr, 2, &r, &where), TK_ERR_FORMAT);
	assert_int_equal(where, 2);
	/* a zero-length text may be NULL */
	assert_int_equal(json_read(&a, NULL, 0, &r, &where), TK_ERR_FORMAT);
	assert_int_equal(where, 0);
	arena_fini(&a);
}

/* @depth arrays, one in the other; or objects {"a":...} around a 1 when @objects. */
static char *nest(size_t depth, int objects)
{
	char *s = malloc(depth * 6 + 2), *p = s;
	size_t i;

	assert_non_null(s);
	for (i = 0; i < depth; i++) {
		memcpy(p, objects ? "{\"a\":" : "[", objects ? 5 : 1);
		p += objects ? 5 : 1;
	}
	if (objects)
		*p++ = '1';
	for (i = 0; i < depth; i++)
		*p++ = objects ? '}' : ']';
	*p = '\0';
	return s;
}

static void test_depth_128_accepted_129_refused(void **state)
{
	struct arena a;
	struct json_value *r = NULL;
	const struct json_value *v;
	size_t where = 0, i;
	char *s;

	(void) state;
	arena_init(&a);
	s = nest(128, 0);
	r = read_ok(&a, s);
	for (v = r, i = 1; i < 128; i++) {
		assert_int_equal(v->n, 1);
		v = &v->items[0];
	}
	assert_int_equal(v->kind, JSON_ARRAY);
	assert_int_equal(v->n, 0);
	free(s);
	s = nest(129, 0);
	assert_int_equal(read_exact(&a, s, strlen(s), &r, &where), TK_ERR_FORMAT);
	assert_int_equal(where, 128);
	free(s);
	s = nest(128, 1);
	read_ok(&a, s);
	free(s);
	s = nest(129, 1);
	assert_int_equal(read_exact(&a, s, strlen(s), &r, &where), TK_ERR_FORMAT);
	assert_int_equal(where, 128 * 5);
	free(s);
	arena_fini(&a);
}

/*
 * 100,000 members: accepted in order, and a repeated key found (at its offset) without
 * comparing every pair, which would take minutes.
 */
static void test_large_object(void **state)
{
	enum { N = 100000 };
	struct arena a;
	struct json_value *r = NULL;
	char *s = malloc((size_t) N * 24 + 64), *p = s;
	size_t where = 0, dup_off, i;

	(void) state;
	assert_non_null(s);
	arena_init(&a);
	*p++ = '{';
	for (i = 0; i < N; i++)
		p += sprintf(p, "%s\"k%zu\":%zu", i ? "," : "", i, i);
	strcpy(p, "}");
	r = read_ok(&a, s);
	assert_int_equal(r->n, N);
	assert_string_equal(r->members[N - 1].key, "k99999");
	assert_int_equal(json_member(r, "k77777")->u, 77777);
	dup_off = (size_t) (p - s) + 1;
	strcpy(p, ",\"k5\":0}");
	assert_int_equal(read_exact(&a, s, strlen(s), &r, &where), TK_ERR_FORMAT);
	assert_int_equal(where, dup_off);
	/* two repeats: the one first in the text is reported */
	memcpy(s + 1, "\"k7\"", 4); /* "k0" becomes "k7", before the last "k5" */
	assert_int_equal(read_exact(&a, s, strlen(s), &r, &where), TK_ERR_FORMAT);
	assert_int_equal(where, 50); /* member 7's key: 1 + 6 bytes + 6 members of 7 + 1 */
	free(s);
	arena_fini(&a);
}

/* strtod() reads "1.5" only under a locale whose decimal point is '.'; the reader must not. */
static void test_numbers_ignore_locale(void **state)
{
	static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
					    "fr_FR.utf8"};
	struct arena a;
	size_t i;

	(void) state;
	for (i = 0; i < TK_ARRAY_SIZE(names); i++)
		if (setlocale(LC_NUMERIC, names[i]))
			break;
	if (i == TK_ARRAY_SIZE(names))
		skip(); /* no locale with a decimal comma on this machine */
	arena_init(&a);
	assert_true(read_ok(&a, "1.5")->d == 1.5);
	assert_true(read_ok(&a, "-0.25e1")->d == -2.5);
	setlocale(LC_NUMERIC, "C");
	arena_fini(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_document_all_kinds),
		cmocka_unit_test(test_member_order_and_offsets),
		cmocka_unit_test(test_numbers_at_the_limits),
		cmocka_unit_test(test_uint_and_int_ranges),
		cmocka_unit_test(test_string_escapes_and_utf8),
		cmocka_unit_test(test_bad_texts_fail_at_their_offset),
		cmocka_unit_test(test_error_cause_names_offset),
		cmocka_unit_test(test_text_is_not_nul_terminated),
		cmocka_unit_test(test_depth_128_accepted_129_refused),
		cmocka_unit_test(test_large_object),
		cmocka_unit_test(test_numbers_ignore_locale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
