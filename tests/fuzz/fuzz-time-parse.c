// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the time parser of --begin, --end and --timerange (tk_time_parse() in
 * src/model/filter.c): the input is one TIME argument, parsed in local time and in UTC. A
 * parse either succeeds with a time whose kind is one tk_time knows, or fails leaving a
 * cause, and the two time zones agree on which inputs parse. It must never crash, hang or
 * overflow (the sanitizer build replays the corpus).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tracekit/tracekit.h>

#include "common/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tk_time local, utc;
	enum tk_status a, b;
	char *text;

	if (size > 256)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0'; /* an argument ends at its first NUL */
	a = tk_time_parse(&local, text, 0);
	if (a < 0 && error_depth() == 0)
		__builtin_trap();
	b = tk_time_parse(&utc, text, TK_FILTER_GMT);
	if (b < 0 && error_depth() == 0)
		__builtin_trap();
	if ((a < 0) != (b < 0) || (a >= 0 && local.kind != utc.kind))
		__builtin_trap();
	free(text);
	return 0;
}
