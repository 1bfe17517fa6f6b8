/* SPDX-License-Identifier: MIT */
/*
 * A JSON reader (RFC 8259) for metadata texts: CTF 2 fragments. The text is parsed into a
 * tree whose nodes, strings and arrays all live in an arena, so one arena_fini() frees it.
 *
 *	struct json_value *root;
 *	size_t where;
 *	st = json_read(&arena, text, len, &root, &where);
 *	if (st < 0) ... where is the byte offset of the error in text, the cause says what
 *	const struct json_value *v = json_member(root, "type");
 *	if (json_is_string(v, "preamble")) ...
 *
 * Strict: one value, surrounded by white space only; no comments, no trailing commas, no
 * leading zeros, no NaN; strings must be valid UTF-8 and their escapes valid (\uD800-\uDFFF
 * only as pairs; \u0000 is refused: names and labels are C strings). Duplicate object keys
 * are refused. Nesting deeper than JSON_MAX_DEPTH is refused (no recursion without bound).
 */
#ifndef TK_COMMON_JSON_READ_H
#define TK_COMMON_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "arena.h"

#define JSON_MAX_DEPTH 128

enum json_kind {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json_member;

struct json_value {
	uint8_t kind; /* enum json_kind */
	/*
	 * JSON_NUMBER: is_int when the number has no fraction and no exponent and fits in
	 * int64_t (negative) or uint64_t (not negative): then neg and u give it (u is the
	 * magnitude: -5 is neg = 1, u = 5; -0 is neg = 1, u = 0). d is the number as a double
	 * in every case, read the same under any locale; a number too large for a double
	 * (1e400) is accepted with d infinite.
	 */
	uint8_t is_int;
	uint8_t neg;
	uint64_t u;
	double d;
	/* JSON_STRING: the unescaped UTF-8 text, NUL-terminated (no NUL inside), len bytes */
	const char *s;
	size_t len;
	/* JSON_ARRAY: n items; JSON_OBJECT: n members, in the text's order */
	size_t n;
	struct json_value *items;
	struct json_member *members;
	size_t offset; /* where the value starts in the text (for causes) */
};

struct json_member {
	const char *key; /* unescaped, NUL-terminated */
	size_t key_len;
	struct json_value value;
};

/*
 * json_read() - Parse the JSON text @text of @len bytes (not NUL-terminated) into *out.
 * On failure *where (may be NULL) is the byte offset of the error and the cause is
 * "Cannot read JSON: offset=N, reason=...". TK_ERR_FORMAT for bad text, TK_ERR_NOMEM.
 */
enum tk_status json_read(struct arena *a, const char *text, size_t len, struct json_value **out,
			 size_t *where);

/* The value of member @key of object @obj, or NULL (also when @obj is NULL or no object). */
const struct json_value *json_member(const struct json_value *obj, const char *key);

/* 1 when @v is a string equal to @s. */
int json_is_string(const struct json_value *v, const char *s);

/*
 * @v as an unsigned or a signed integer: 0 on success, -1 when @v is NULL, not
 * a number, not an integer or out of range.
 */
int json_uint(const struct json_value *v, uint64_t *out);
int json_int(const struct json_value *v, int64_t *out);

#endif /* TK_COMMON_JSON_READ_H */
