// SPDX-License-Identifier: MIT
/*
 * The JSON reader behind json-read.h: CTF 2 metadata is a sequence of JSON fragments, and
 * this turns one fragment into a tree the CTF 2 reader can walk. The grammar is RFC 8259,
 * strictly: a producer that writes something else is wrong, and guessing what it meant would
 * hide the mistake until a trace is read differently by another tool.
 *
 * The parser is recursive descent, bounded by JSON_MAX_DEPTH. Items of the arrays and members
 * of the objects still open are kept on two heap stacks (vecs) shared by all levels; when a
 * container closes its items are copied to the arena at once, so each value is copied once
 * per container and the whole parse stays linear. Strings are decoded straight into the
 * arena: their decoded form is never longer than their text.
 */
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "json-read.h"
#include "str.h"
#include "vec.h"

/* an object member while its object is open, with where its key starts (for causes) */
struct pending_member {
	struct json_member m;
	size_t key_off;
};

struct parser {
	struct arena *a;
	const char *text;
	size_t len;
	size_t pos;	 /* next byte to read; pos <= len always */
	size_t where;	 /* offset of the error, once failed */
	unsigned depth;	 /* arrays and objects open */
	struct vec vals; /* struct json_value: items of the open arrays, innermost last */
	struct vec mems; /* struct pending_member: members of the open objects, innermost last */
	struct vec num;	 /* char: a number's text, NUL-terminated for strtod() */
};

/* objects with at most this many members are checked for duplicate keys pair by pair */
#define JSON_DUP_PAIRWISE_MAX 16

static enum tk_status json_fail(struct parser *ps, size_t off, const char *reason)
{
	ps->where = off;
	return TK_FAIL(TK_ERR_FORMAT, "Cannot read JSON: offset=%zu, reason=%s", off, reason);
}

static enum tk_status json_nomem(struct parser *ps)
{
	ps->where = ps->pos;
	return TK_FAIL(TK_ERR_NOMEM, "Cannot read JSON: offset=%zu, reason=out of memory", ps->pos);
}

/* RFC 8259 section 2: white space is space, horizontal tab, line feed and carriage return. */
static void skip_ws(struct parser *ps)
{
	while (ps->pos < ps->len) {
		char c = ps->text[ps->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		ps->pos++;
	}
}

static enum tk_status parse_value(struct parser *ps, struct json_value *v);

/*
 * The length of the well-formed UTF-8 sequence of a non-ASCII character at @p, of which
 * @avail bytes may be read, or 0 when it is not one. The ranges are those of the Unicode
 * standard's table of well-formed byte sequences (chapter 3, table 3-7): this refuses
 * overlong forms, UTF-16 surrogates encoded in UTF-8 and code points above U+10FFFF.
 */
static size_t utf8_len(const unsigned char *p, size_t avail)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xBF;
	size_t n, i;

	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4;
	else
		return 0;
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	if (avail < n || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return n;
}

/* The 4 hexadecimal digits at @p as a number, or -1. */
static long hex4(const char *p)
{
	long v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		int d = str_hex_digit((unsigned char) p[i]);

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Write code point @cp (not a surrogate, at most U+10FFFF) as UTF-8 at @out; its length. */
static size_t utf8_put(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char) cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char) (0xC0 | (cp >> 6));
		out[1] = (char) (0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char) (0xE0 | (cp >> 12));
		out[1] = (char) (0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char) (0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char) (0xF0 | (cp >> 18));
	out[1] = (char) (0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char) (0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char) (0x80 | (cp & 0x3F));
	return 4;
}

/*
 * Decode the \u escape at @off (the backslash) of a string whose closing quote is at @end:
 * one code point, or a UTF-16 surrogate pair (RFC 8259 section 7). Sets *@cp and *@used (6
 * or 12 bytes of text). A lone surrogate or \u0000 is an error.
 */
static enum tk_status decode_u(struct parser *ps, size_t off, size_t end, uint32_t *cp,
			       size_t *used)
{
	const char *t = ps->text;
	long hi, lo;

	if (end - off < 6 || (hi = hex4(t + off + 2)) < 0)
		return json_fail(ps, off, "\\u needs 4 hexadecimal digits");
	if (hi == 0)
		return json_fail(ps, off, "\\u0000 in a string");
	if (hi >= 0xDC00 && hi <= 0xDFFF)
		return json_fail(ps, off, "low surrogate without a high surrogate");
	if (hi < 0xD800 || hi > 0xDBFF) {
		*cp = (uint32_t) hi;
		*used = 6;
		return TK_OK;
	}
	if (end - off < 12 || t[off + 6] != '\\' || t[off + 7] != 'u' ||
	    (lo = hex4(t + off + 8)) < 0 || lo < 0xDC00 || lo > 0xDFFF)
		return json_fail(ps, off, "high surrogate without a low surrogate");
	*cp = 0x10000 + (((uint32_t) hi - 0xD800) << 10) + ((uint32_t) lo - 0xDC00);
	*used = 12;
	return TK_OK;
}

/*
 * Read the string whose opening quote is at ps->pos into the arena: *@out is its unescaped
 * UTF-8 text, NUL-terminated, *@out_len bytes. A first pass finds the closing quote, which
 * bounds the second (decoding and checking) pass and the arena block it writes: every escape
 * is longer than what it stands for. An unclosed string is reported at its opening quote.
 */
static enum tk_status parse_string(struct parser *ps, const char **out, size_t *out_len)
{
	const unsigned char *t = (const unsigned char *) ps->text;
	size_t start = ps->pos, end = start + 1, i, k = 0;
	char *s;

	while (end < ps->len && t[end] != '"') {
		if (t[end] == '\\')
			end++;
		end++;
	}
	if (end >= ps->len)
		return json_fail(ps, start, "string not closed");
	s = arena_alloc(ps->a, end - start);
	if (!s)
		return json_nomem(ps);
	for (i = start + 1; i < end;) {
		unsigned char c = t[i];
		uint32_t cp = 0;
		size_t n;
		enum tk_status st;

		if (c >= 0x20 && c < 0x80 && c != '\\') {
			s[k++] = (char) c;
			i++;
			continue;
		}
		if (c < 0x20)
			return json_fail(ps, i, "control character in a string");
		if (c >= 0x80) {
			n = utf8_len(t + i, end - i);
			if (!n)
				return json_fail(ps, i, "invalid UTF-8");
			memcpy(s + k, t + i, n);
			k += n;
			i += n;
			continue;
		}
		/* a backslash; the first pass made sure a byte follows it before end */
		switch (t[i + 1]) {
		case '"':
		case '\\':
		case '/':
			s[k++] = (char) t[i + 1];
			break;
		case 'b':
			s[k++] = '\b';
			break;
		case 'f':
			s[k++] = '\f';
			break;
		case 'n':
			s[k++] = '\n';
			break;
		case 'r':
			s[k++] = '\r';
			break;
		case 't':
			s[k++] = '\t';
			break;
		case 'u':
			st = decode_u(ps, i, end, &cp, &n);
			if (st < 0)
				return st;
			k += utf8_put(s + k, cp);
			i += n;
			continue;
		default:
			return json_fail(ps, i, "invalid escape");
		}
		i += 2;
	}
	s[k] = '\0';
	*out = s;
	*out_len = k;
	ps->pos = end + 1;
	return TK_OK;
}

static int is_digit(const struct parser *ps, size_t i)
{
	return i < ps->len && ps->text[i] >= '0' && ps->text[i] <= '9';
}

/*
 * Read the number at ps->pos (RFC 8259 section 6), checking its grammar by hand:
 * -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?. Integers without fraction or exponent that
 * fit get is_int (magnitudes up to UINT64_MAX, or 2^63 when negative). d comes from strtod()
 * on a copy of the text where the '.' is spelled as the locale's decimal point, so it does not
 * depend on LC_NUMERIC; an exponent too large for a double gives an infinite d.
 */
static enum tk_status parse_number(struct parser *ps, struct json_value *v)
{
	const char *t = ps->text;
	const char *dp;
	size_t start = ps->pos, i = start, frac = 0, dp_len, n;
	int overflow = 0, is_int = 1;
	uint64_t u = 0;
	char *end;

	if (i < ps->len && t[i] == '-')
		i++;
	if (!is_digit(ps, i))
		return json_fail(ps, i, "digit expected");
	if (t[i] == '0') {
		i++;
		if (is_digit(ps, i))
			return json_fail(ps, i, "leading zero");
	} else {
		while (is_digit(ps, i)) {
			unsigned d = (unsigned) (t[i] - '0');

			if (u > (UINT64_MAX - d) / 10)
				overflow = 1;
			else
				u = u * 10 + d;
			i++;
		}
	}
	if (i < ps->len && t[i] == '.') {
		frac = i;
		is_int = 0;
		i++;
		if (!is_digit(ps, i))
			return json_fail(ps, i, "digit expected after the decimal point");
		while (is_digit(ps, i))
			i++;
	}
	if (i < ps->len && (t[i] == 'e' || t[i] == 'E')) {
		is_int = 0;
		i++;
		if (i < ps->len && (t[i] == '+' || t[i] == '-'))
			i++;
		if (!is_digit(ps, i))
			return json_fail(ps, i, "digit expected in the exponent");
		while (is_digit(ps, i))
			i++;
	}
	v->kind = JSON_NUMBER;
	v->neg = t[start] == '-';
	ps->pos = i;
	if (is_int && !overflow && (!v->neg || u <= (uint64_t) 1 << 63)) {
		/* conversion rounds to nearest as strtod() does */
		v->is_int = 1;
		v->u = u;
		v->d = v->neg ? -(double) u : (double) u;
		return TK_OK;
	}

	/* the text, its '.' replaced by the locale's decimal point, and a NUL */
	dp = localeconv()->decimal_point;
	dp_len = strlen(dp);
	n = i - start;
	ps->num.len = 0;
	if (vec_reserve(&ps->num, 1, n + dp_len + 1))
		return json_nomem(ps);
	end = ps->num.data;
	if (frac) {
		memcpy(end, t + start, frac - start);
		memcpy(end + (frac - start), dp, dp_len);
		memcpy(end + (frac - start) + dp_len, t + frac + 1, i - frac - 1);
		n += dp_len - 1;
	} else {
		memcpy(end, t + start, n);
	}
	end[n] = '\0';
	v->d = strtod(ps->num.data, &end);
	if (end != (char *) ps->num.data + n)
		return json_fail(ps, start, "number not understood by strtod");
	return TK_OK;
}

/* Read the literal @word (true, false or null) at ps->pos. */
static enum tk_status parse_literal(struct parser *ps, const char *word, enum json_kind kind,
				    struct json_value *v)
{
	size_t n = strlen(word);

	if (ps->len - ps->pos < n || memcmp(ps->text + ps->pos, word, n))
		return json_fail(ps, ps->pos, "invalid literal");
	v->kind = (uint8_t) kind;
	ps->pos += n;
	return TK_OK;
}

/* Copy the @n elements of @size bytes at @src to the arena: *@out, NULL when @n is 0. */
static enum tk_status copy_out(struct parser *ps, const void *src, size_t n, size_t size,
			       void **out)
{
	*out = NULL;
	if (!n)
		return TK_OK;
	if (n > SIZE_MAX / size)
		return json_nomem(ps);
	*out = arena_alloc(ps->a, n * size);
	if (!*out)
		return json_nomem(ps);
	memcpy(*out, src, n * size);
	return TK_OK;
}

static enum tk_status enter(struct parser *ps)
{
	if (ps->depth >= JSON_MAX_DEPTH)
		return json_fail(ps, ps->pos, "nesting deeper than 128");
	ps->depth++;
	ps->pos++; /* the bracket or brace */
	return TK_OK;
}

/* Read the array whose '[' is at ps->pos. */
static enum tk_status parse_array(struct parser *ps, struct json_value *v)
{
	size_t base = ps->vals.len;
	enum tk_status st;
	void *items;

	st = enter(ps);
	if (st < 0)
		return st;
	skip_ws(ps);
	if (ps->pos < ps->len && ps->text[ps->pos] == ']') {
		ps->pos++;
	} else {
		for (;;) {
			struct json_value item, *slot;

			st = parse_value(ps, &item);
			if (st < 0)
				return st;
			slot = vec_push(&ps->vals, sizeof(*slot));
			if (!slot)
				return json_nomem(ps);
			*slot = item;
			skip_ws(ps);
			if (ps->pos >= ps->len)
				return json_fail(ps, ps->pos, "array not closed");
			if (ps->text[ps->pos] == ']') {
				ps->pos++;
				break;
			}
			if (ps->text[ps->pos] != ',')
				return json_fail(ps, ps->pos, "',' or ']' expected");
			ps->pos++;
		}
	}
	v->kind = JSON_ARRAY;
	v->n = ps->vals.len - base;
	/* an empty vector has no data: no address into it (UBSan: offset on NULL) */
	st = copy_out(ps, v->n ? &VEC_AT(&ps->vals, struct json_value, base) : NULL, v->n,
		      sizeof(struct json_value), &items);
	if (st < 0)
		return st;
	v->items = items;
	ps->vals.len = base;
	ps->depth--;
	return TK_OK;
}

struct key_ref {
	const char *key;
	size_t len;
	size_t off;
};

static int key_ref_cmp(const void *pa, const void *pb)
{
	const struct key_ref *a = pa, *b = pb;
	int c;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	c = memcmp(a->key, b->key, a->len);
	if (c)
		return c;
	return a->off < b->off ? -1 : a->off > b->off;
}

/*
 * Refuse an object with two members of the same key, at the key of the first member (in
 * the text's order) that repeats an earlier one. Small objects compare every pair; larger
 * ones sort references to their keys, so a huge object costs n log n, not n^2.
 */
static enum tk_status check_duplicates(struct parser *ps, const struct pending_member *m, size_t n)
{
	struct key_ref *refs;
	size_t i, j, dup = SIZE_MAX;

	if (n <= JSON_DUP_PAIRWISE_MAX) {
		for (j = 1; j < n; j++)
			for (i = 0; i < j; i++)
				if (m[i].m.key_len == m[j].m.key_len &&
				    !memcmp(m[i].m.key, m[j].m.key, m[j].m.key_len))
					return json_fail(ps, m[j].key_off, "duplicate key");
		return TK_OK;
	}
	refs = malloc(n * sizeof(*refs));
	if (!refs)
		return json_nomem(ps);
	for (i = 0; i < n; i++) {
		refs[i].key = m[i].m.key;
		refs[i].len = m[i].m.key_len;
		refs[i].off = m[i].key_off;
	}
	sort_array(refs, n, sizeof(*refs), key_ref_cmp);
	for (i = 1; i < n; i++)
		if (refs[i].len == refs[i - 1].len &&
		    !memcmp(refs[i].key, refs[i - 1].key, refs[i].len) && refs[i].off < dup)
			dup = refs[i].off;
	free(refs);
	if (dup != SIZE_MAX)
		return json_fail(ps, dup, "duplicate key");
	return TK_OK;
}

/* Read the object whose '{' is at ps->pos. */
static enum tk_status parse_object(struct parser *ps, struct json_value *v)
{
	size_t base = ps->mems.len, n, i;
	struct pending_member *pm;
	struct json_member *out;
	enum tk_status st;

	st = enter(ps);
	if (st < 0)
		return st;
	skip_ws(ps);
	if (ps->pos < ps->len && ps->text[ps->pos] == '}') {
		ps->pos++;
	} else {
		for (;;) {
			struct pending_member m;

			memset(&m, 0, sizeof(m));
			skip_ws(ps);
			if (ps->pos >= ps->len || ps->text[ps->pos] != '"')
				return json_fail(ps, ps->pos, "string key expected");
			m.key_off = ps->pos;
			st = parse_string(ps, &m.m.key, &m.m.key_len);
			if (st < 0)
				return st;
			skip_ws(ps);
			if (ps->pos >= ps->len || ps->text[ps->pos] != ':')
				return json_fail(ps, ps->pos, "':' expected");
			ps->pos++;
			st = parse_value(ps, &m.m.value);
			if (st < 0)
				return st;
			pm = vec_push(&ps->mems, sizeof(*pm));
			if (!pm)
				return json_nomem(ps);
			*pm = m;
			skip_ws(ps);
			if (ps->pos >= ps->len)
				return json_fail(ps, ps->pos, "object not closed");
			if (ps->text[ps->pos] == '}') {
				ps->pos++;
				break;
			}
			if (ps->text[ps->pos] != ',')
				return json_fail(ps, ps->pos, "',' or '}' expected");
			ps->pos++;
		}
	}
	n = ps->mems.len - base;
	pm = n ? &VEC_AT(&ps->mems, struct pending_member, base) : NULL;
	st = check_duplicates(ps, pm, n);
	if (st < 0)
		return st;
	v->kind = JSON_OBJECT;
	v->n = n;
	if (n) {
		if (n > SIZE_MAX / sizeof(*out))
			return json_nomem(ps);
		out = arena_alloc(ps->a, n * sizeof(*out));
		if (!out)
			return json_nomem(ps);
		for (i = 0; i < n; i++)
			out[i] = pm[i].m;
		v->members = out;
	}
	ps->mems.len = base;
	ps->depth--;
	return TK_OK;
}

/* Read one value after optional white space into *@v (zeroed first). */
static enum tk_status parse_value(struct parser *ps, struct json_value *v)
{
	memset(v, 0, sizeof(*v));
	skip_ws(ps);
	if (ps->pos >= ps->len)
		return json_fail(ps, ps->pos, "value expected");
	v->offset = ps->pos;
	switch (ps->text[ps->pos]) {
	case '{':
		return parse_object(ps, v);
	case '[':
		return parse_array(ps, v);
	case '"':
		v->kind = JSON_STRING;
		return parse_string(ps, &v->s, &v->len);
	case 't':
		return parse_literal(ps, "true", JSON_TRUE, v);
	case 'f':
		return parse_literal(ps, "false", JSON_FALSE, v);
	case 'n':
		return parse_literal(ps, "null", JSON_NULL, v);
	case '-':
	case '0':
	case '1':
	case '2':
	case '3':
	case '4':
	case '5':
	case '6':
	case '7':
	case '8':
	case '9':
		return parse_number(ps, v);
	default:
		return json_fail(ps, ps->pos, "value expected");
	}
}

enum tk_status json_read(struct arena *a, const char *text, size_t len, struct json_value **out,
			 size_t *where)
{
	struct parser ps = {.a = a, .text = text, .len = len};
	struct json_value v, *root;
	enum tk_status st;

	TK_ASSERT_PRE(a && out && (text || !len));
	ps.vals = (struct vec) VEC_INIT;
	ps.mems = (struct vec) VEC_INIT;
	ps.num = (struct vec) VEC_INIT;
	st = parse_value(&ps, &v);
	if (st < 0)
		goto out;
	skip_ws(&ps);
	if (ps.pos < ps.len) {
		st = json_fail(&ps, ps.pos, "text after the value");
		goto out;
	}
	root = arena_alloc(a, sizeof(*root));
	if (!root) {
		st = json_nomem(&ps);
		goto out;
	}
	*root = v;
	*out = root;
out:
	if (st < 0 && where)
		*where = ps.where;
	vec_fini(&ps.vals);
	vec_fini(&ps.mems);
	vec_fini(&ps.num);
	return st;
}

const struct json_value *json_member(const struct json_value *obj, const char *key)
{
	size_t i;

	if (!obj || obj->kind != JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->members[i].key, key))
			return &obj->members[i].value;
	return NULL;
}

int json_is_string(const struct json_value *v, const char *s)
{
	return v && v->kind == JSON_STRING && !strcmp(v->s, s);
}

int json_uint(const struct json_value *v, uint64_t *out)
{
	/* -0 is zero */
	if (!v || v->kind != JSON_NUMBER || !v->is_int || (v->neg && v->u))
		return -1;
	*out = v->u;
	return 0;
}

int json_int(const struct json_value *v, int64_t *out)
{
	if (!v || v->kind != JSON_NUMBER || !v->is_int)
		return -1;
	if (!v->neg) {
		if (v->u > INT64_MAX)
			return -1;
		*out = (int64_t) v->u;
	} else if (v->u == (uint64_t) 1 << 63) {
		*out = INT64_MIN;
	} else {
		*out = -(int64_t) v->u;
	}
	return 0;
}
