// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the field predicate parser (src/model/filter-expr.c): the input is one
 * `-F` argument, "EVENTS[:EXPRESSION]", parsed (event regular expressions compiled, the
 * expression built into its tree) and printed back, then freed. A parse that succeeds must
 * print something; one that fails must leave a cause. It must never crash, hang or leak.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "model/filter-expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model_pred *p = NULL;
	char out[256];
	char *text;

	if (size > 8192)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0'; /* an argument ends at its first NUL */
	error_reset();
	if (model_pred_parse(&p, text) == TK_OK) {
		model_pred_format(p, out, sizeof(out));
		if (!p || !out[0]) /* every event name is not empty */
			__builtin_trap();
		model_pred_destroy(p);
	} else if (p || error_depth() == 0) {
		__builtin_trap();
	}
	free(text);
	return 0;
}
