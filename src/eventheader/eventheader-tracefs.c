// SPDX-License-Identifier: MIT
/*
 * Samples of ordinary tracepoints (sched:sched_switch, ...) in the reference decoder's JSON.
 * perf-decode has no printf-style formatter for tracefs events: it guesses each field's
 * kind from the words of its declaration in the format file (long, unsigned, char, u32,
 * a '*', __data_loc, ...), then writes its bytes as that kind. tracekit must print the same
 * text, guesses included: a pid_t is an unknown name, hence hex; a signed char prints as
 * unsigned; an unsigned long is hex.
 *
 * The declaration reaches us in libtraceevent's normalised form, without the field's name
 * (struct ftrace_field's type, written by src/ftrace, which this folder may not include).
 * The reference reads the whole "TYPE NAME[N]" and takes the identifier before the name as
 * the base type; here the name is known to come after the type's words and before its
 * brackets, so the base type is the type's last word that is not a keyword, which is the
 * same for every form the normaliser writes ("__data_loc char[] name" included).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "eventheader.h"

/* The reference splits at bytes up to ' ', and at bytes >= 0x80 (char is signed there). */
static bool is_blank(unsigned char c)
{
	return c <= ' ' || c >= 0x80;
}

static bool is_word_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_word_byte(unsigned char c)
{
	return is_word_start(c) || (c >= '0' && c <= '9');
}

static bool word_is(const char *w, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(w, lit, n) == 0;
}

/* Past a quoted string entered after its quote @q; a backslash hides the byte after it. */
static const char *skip_quoted(const char *p, char q)
{
	while (*p) {
		char c = *p++;

		if (c == q)
			break;
		if (c == '\\') {
			if (!*p)
				break;
			p++;
		}
	}
	return p;
}

/* Past the ')' matching a '(' already read; nested pairs counted. */
static const char *skip_parens(const char *p)
{
	unsigned int depth = 1;

	while (*p) {
		char c = *p++;

		if (c == '(') {
			depth++;
		} else if (c == ')' && --depth == 0) {
			break;
		}
	}
	return p;
}

/*
 * The count of "[N]" from the byte after '[': the number that starts there, read as
 * strtoul(.., 0) reads it ("0x10" is 16, "010" is 8, "8 + 8" is 8, "TASK_COMM_LEN" is 0),
 * and 0 when it does not fit 16 bits ("-1" included), as the reference has it.
 */
static uint16_t bracket_count(const char *p)
{
	unsigned long v = strtoul(p, NULL, 0);

	return v > 0xFFFF ? 0 : (uint16_t) v;
}

/* Element sizes of the fixed-width integer names the reference knows; 0: not one. */
static unsigned int fixed_width(const char *w, size_t n, bool *is_signed)
{
	static const struct {
		const char *name;
		uint8_t size, is_signed;
	} names[] = {
		{"u8", 1, 0},	    {"__u8", 1, 0},    {"uint8_t", 1, 0},  {"s8", 1, 1},
		{"__s8", 1, 1},	    {"int8_t", 1, 1},  {"u16", 2, 0},	   {"__u16", 2, 0},
		{"uint16_t", 2, 0}, {"s16", 2, 1},     {"__s16", 2, 1},	   {"int16_t", 2, 1},
		{"u32", 4, 0},	    {"__u32", 4, 0},   {"uint32_t", 4, 0}, {"s32", 4, 1},
		{"__s32", 4, 1},    {"int32_t", 4, 1}, {"u64", 8, 0},	   {"__u64", 8, 0},
		{"uint64_t", 8, 0}, {"s64", 8, 1},     {"__s64", 8, 1},	   {"int64_t", 8, 1},
	};
	size_t i;

	for (i = 0; i < TK_ARRAY_SIZE(names); i++) {
		if (word_is(w, n, names[i].name)) {
			*is_signed = names[i].is_signed;
			return names[i].size;
		}
	}
	return 0;
}

/* 1, 2, 4 or 8 when @n is one of them, else 0. */
static unsigned int power_size(uint32_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8 ? n : 0;
}

/*
 * The words that matter are counted as they come: long (twice: long long), short,
 * unsigned, signed, struct, __data_loc, __rel_loc, a '*'; const, volatile and __attribute__
 * (with its parentheses) are skipped; any other word is remembered as the base type, so the
 * last one wins. The first '[' ends the type.
 *
 *	"unsigned long[6]"	hex, long_size bytes, fixed array of 6
 *	"pid_t"			hex, sized by the field's size
 *	"__data_loc char[]"	string, dynamic
 */
void eventheader_tracefs_type(const char *type, uint32_t size, int is_signed,
			      unsigned int long_size, struct eventheader_tracefs *out)
{
	unsigned int longs = 0, es = 0;
	bool is_short = false, is_unsigned = false, is_signed_word = false, is_struct = false;
	bool data_loc = false, rel_loc = false, brackets = false, pointer = false;
	bool unknown = false, sgn;
	const char *base = NULL, *p = type;
	size_t base_len = 0;
	uint16_t count = 0;
	uint8_t fmt;

	while (*p) {
		unsigned char c = (unsigned char) *p;

		if (is_blank(c)) {
			p++;
		} else if (is_word_start(c)) {
			const char *w = p;
			size_t n;

			while (is_word_byte((unsigned char) *p))
				p++;
			n = (size_t) (p - w);
			if (word_is(w, n, "long"))
				longs++;
			else if (word_is(w, n, "short"))
				is_short = true;
			else if (word_is(w, n, "unsigned"))
				is_unsigned = true;
			else if (word_is(w, n, "signed"))
				is_signed_word = true;
			else if (word_is(w, n, "struct"))
				is_struct = true;
			else if (word_is(w, n, "__data_loc"))
				data_loc = true;
			else if (word_is(w, n, "__rel_loc"))
				rel_loc = true;
			else if (!word_is(w, n, "const") && !word_is(w, n, "volatile") &&
				 !word_is(w, n, "__attribute__")) {
				base = w;
				base_len = n;
			}
		} else if (c == '"' || c == '\'') {
			p = skip_quoted(p + 1, (char) c);
		} else if (c == '(') {
			p = skip_parens(p + 1);
		} else if (c == '[') {
			brackets = true;
			count = bracket_count(p + 1);
			break;
		} else {
			pointer |= c == '*';
			p++;
		}
	}

	if (pointer) {
		fmt = EVENTHEADER_TRACEFS_FMT_HEX;
		es = long_size == 8 ? 8 : 4;
	} else if (is_struct) {
		fmt = EVENTHEADER_TRACEFS_FMT_NONE;
		es = 1;
	} else if (!base || word_is(base, base_len, "int")) {
		/* "unsigned", "long", "short int", ...: an int of some width */
		fmt = is_unsigned ? EVENTHEADER_TRACEFS_FMT_UNSIGNED
				  : EVENTHEADER_TRACEFS_FMT_SIGNED;
		if (longs >= 2) {
			es = 8;
		} else if (longs == 1) {
			es = long_size == 8 ? 8 : 4;
			if (is_unsigned)
				fmt = EVENTHEADER_TRACEFS_FMT_HEX;
		} else {
			es = is_short ? 2 : 4;
		}
	} else if (word_is(base, base_len, "char")) {
		fmt = is_unsigned      ? EVENTHEADER_TRACEFS_FMT_UNSIGNED
		      : is_signed_word ? EVENTHEADER_TRACEFS_FMT_SIGNED
				       : EVENTHEADER_TRACEFS_FMT_STRING;
		es = 1;
	} else if ((es = fixed_width(base, base_len, &sgn)) != 0) {
		fmt = sgn ? EVENTHEADER_TRACEFS_FMT_SIGNED : EVENTHEADER_TRACEFS_FMT_UNSIGNED;
	} else {
		/* a typedef it does not know (pid_t, bool, cpumask_t): hex, sized below */
		fmt = EVENTHEADER_TRACEFS_FMT_HEX;
		unknown = true;
	}

	/* signed: overrides the guess for integers only */
	if ((fmt == EVENTHEADER_TRACEFS_FMT_UNSIGNED || fmt == EVENTHEADER_TRACEFS_FMT_SIGNED) &&
	    is_signed >= 0)
		fmt = is_signed ? EVENTHEADER_TRACEFS_FMT_SIGNED : EVENTHEADER_TRACEFS_FMT_UNSIGNED;

	out->format = fmt;
	if (rel_loc || data_loc) {
		out->array = rel_loc ? EVENTHEADER_TRACEFS_ARRAY_RELDYN
				     : EVENTHEADER_TRACEFS_ARRAY_DYNAMIC;
		count = 0;
	} else if (brackets) {
		out->array = EVENTHEADER_TRACEFS_ARRAY_FIXED;
		/* an unknown element type takes its size from size / count when that is 1 to 8 */
		if (unknown && count && size % count == 0 && power_size(size / count)) {
			es = size / count;
			unknown = false;
		}
	} else {
		out->array = EVENTHEADER_TRACEFS_ARRAY_NONE;
		count = 0;
		/* a scalar's size wins over the type's when it is 1, 2, 4 or 8 */
		if (power_size(size)) {
			es = size;
			unknown = false;
		}
	}
	if (unknown)
		es = 1;
	out->element_size = (uint8_t) es;
	out->fixed_count = count;
}

/*
 * The bytes of the field in @rec, as the reference finds them; *@n = 0 (and NULL) when they
 * lie outside @rec. Size 0 means the rest of the record. A __data_loc or __rel_loc field of
 * size 4 is u32 (length << 16 | offset), the offset counted from the record's start or, for
 * __rel_loc, from the field's end; of size 2 (older kernels) it is the offset of a
 * NUL-terminated string, whose bytes are the text without the NUL (none without a NUL). Any
 * other size of such a field has no bytes.
 */
static const uint8_t *field_bytes(const struct eventheader_tracefs *t, uint32_t offset,
				  uint32_t size, const uint8_t *rec, size_t rec_size,
				  enum tk_byte_order order, size_t *n)
{
	bool rel = t->array == EVENTHEADER_TRACEFS_ARRAY_RELDYN;
	const uint8_t *nul;
	size_t at, len;

	*n = 0;
	if (offset > rec_size || size > rec_size - offset)
		return NULL;
	if (size == 0) {
		*n = rec_size - offset;
		return rec + offset;
	}
	if (t->array != EVENTHEADER_TRACEFS_ARRAY_DYNAMIC && !rel) {
		*n = size;
		return rec + offset;
	}
	if (size == 4) {
		uint32_t loc = tk_load_u32(rec + offset, order);

		at = (loc & 0xFFFF) + (rel ? (size_t) offset + size : 0);
		len = loc >> 16;
		if (at > rec_size || len > rec_size - at)
			return NULL;
		*n = len;
		return rec + at;
	}
	if (size == 2) {
		at = tk_load_u16(rec + offset, order) + (rel ? (size_t) offset + size : 0);
		if (at >= rec_size)
			return NULL;
		nul = memchr(rec + at, 0, rec_size - at);
		if (!nul)
			return NULL;
		*n = (size_t) (nul - (rec + at));
		return rec + at;
	}
	return NULL;
}

enum tk_status eventheader_json_tracefs_field(struct eventheader_json *j, const char *name,
					      size_t name_len, const struct eventheader_tracefs *t,
					      uint32_t offset, uint32_t size, const uint8_t *rec,
					      size_t rec_size, enum tk_byte_order order)
{
	unsigned int es = t->element_size, enc = eventheader_value_encoding(es), fmt;

	if (!enc) /* other sizes: the widest */
		enc = EVENTHEADER_ENC_VALUE64;
	const uint8_t *b;
	size_t n, i;

	if (!power_size(es) || t->format > EVENTHEADER_TRACEFS_FMT_STRING ||
	    t->array > EVENTHEADER_TRACEFS_ARRAY_RELDYN)
		return TK_FAIL(
			TK_ERR_INVAL,
			"Cannot format tracefs field: field=%.*s, element-size=%u, format=%u, "
			"array=%u",
			(int) name_len, name, es, t->format, t->array);
	if (offset > 0xFFFF || size > 0xFFFF)
		return TK_OK;
	b = field_bytes(t, offset, size, rec, rec_size, order, &n);
	eventheader_json_member(j, name, name_len);

	switch (t->format) {
	case EVENTHEADER_TRACEFS_FMT_STRING: {
		const uint8_t *nul = n ? memchr(b, 0, n) : NULL;

		if (nul)
			n = (size_t) (nul - b);
		return eventheader_json_put(j, b, n, EVENTHEADER_ENC_ZSTRING_CHAR8,
					    EVENTHEADER_FMT_STRING8, order);
	}
	case EVENTHEADER_TRACEFS_FMT_NONE:
		if (t->array == EVENTHEADER_TRACEFS_ARRAY_NONE || es == 1) {
			eventheader_json_hex_bytes(j, b, n);
			return TK_OK;
		}
		fmt = EVENTHEADER_FMT_HEX_INT; /* an array of wider unknown values: hex */
		break;
	case EVENTHEADER_TRACEFS_FMT_HEX:
		fmt = EVENTHEADER_FMT_HEX_INT;
		break;
	case EVENTHEADER_TRACEFS_FMT_SIGNED:
		/* the reference prints 1- and 2-byte values zero-extended, even when signed */
		fmt = es >= 4 ? EVENTHEADER_FMT_SIGNED_INT : EVENTHEADER_FMT_UNSIGNED_INT;
		break;
	default:
		fmt = EVENTHEADER_FMT_UNSIGNED_INT;
		break;
	}

	if (t->array == EVENTHEADER_TRACEFS_ARRAY_NONE) {
		/* only the first element's bytes count; too few of them: null */
		if (n < es) {
			eventheader_json_null(j);
			return TK_OK;
		}
		return eventheader_json_put(j, b, es, enc, fmt, order);
	}
	/* every whole element; a partial one at the end is left out */
	eventheader_json_open(j, '[');
	for (i = 0; i < n / es; i++) {
		eventheader_json_element(j);
		eventheader_json_put(j, b + i * es, es, enc, fmt, order);
	}
	eventheader_json_close(j, ']');
	return TK_OK;
}

enum tk_status eventheader_json_raw(struct eventheader_json *j, const uint8_t *raw, size_t size)
{
	eventheader_json_member(j, "raw", 3);
	eventheader_json_hex_bytes(j, raw, size);
	return TK_OK;
}
