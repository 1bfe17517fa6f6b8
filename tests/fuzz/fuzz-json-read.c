// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the JSON reader that reads CTF 2 metadata (src/common/json-read.c). The
 * input is given without a terminating NUL, exactly as long as it is, so a read past its end
 * shows under AddressSanitizer. A tree that parses is walked to check what the header
 * promises: strings NUL-terminated with no NUL inside, integers consistent with their double,
 * offsets inside the text, no duplicate keys, nesting within JSON_MAX_DEPTH. A broken promise
 * aborts, which the fuzzer reports as a crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/error.h"
#include "common/json-read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
	if (!cond)
		abort();
}

static void check_string(const char *s, size_t len)
{
	check(s != NULL);
	check(strlen(s) == len);
}

static void walk(const struct json_value *v, size_t size, unsigned depth)
{
	size_t i, j;

	check(v->offset < size);
	switch (v->kind) {
	case JSON_NULL:
	case JSON_FALSE:
	case JSON_TRUE:
		break;
	case JSON_NUMBER:
		if (v->is_int) {
			check(!v->neg || v->u <= (uint64_t) 1 << 63);
			check(v->d == (v->neg ? -(double) v->u : (double) v->u));
		}
		check(v->d == v->d); /* never NaN */
		break;
	case JSON_STRING:
		check_string(v->s, v->len);
		break;
	case JSON_ARRAY:
		check(depth < JSON_MAX_DEPTH);
		check(v->n == 0 || v->items != NULL);
		for (i = 0; i < v->n; i++)
			walk(&v->items[i], size, depth + 1);
		break;
	case JSON_OBJECT:
		check(depth < JSON_MAX_DEPTH);
		check(v->n == 0 || v->members != NULL);
		for (i = 0; i < v->n; i++) {
			check_string(v->members[i].key, v->members[i].key_len);
			walk(&v->members[i].value, size, depth + 1);
		}
		/* small objects only: the check is quadratic */
		for (i = 0; i < v->n && v->n <= 256; i++)
			for (j = 0; j < i; j++)
				check(strcmp(v->members[i].key, v->members[j].key) != 0);
		if (v->n)
			check(json_member(v, v->members[v->n - 1].key) ==
			      &v->members[v->n - 1].value);
		break;
	default:
		check(0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_value *root = NULL;
	struct arena a;
	size_t where = SIZE_MAX;
	char *text;

	if (size > (1u << 20))
		return 0;
	/* an exact copy: no NUL after it, and reading past it is caught */
	text = malloc(size ? size : 1);
	if (!text)
		return 0;
	if (size)
		memcpy(text, data, size);
	error_reset();
	arena_init(&a);
	if (json_read(&a, text, size, &root, &where) == TK_OK)
		walk(root, size, 0);
	else
		check(where <= size);
	arena_fini(&a);
	free(text);
	return 0;
}
