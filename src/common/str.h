/* SPDX-License-Identifier: MIT */
/* Small string helpers shared by the folders. */
#ifndef TK_COMMON_STR_H
#define TK_COMMON_STR_H

#include <string.h>

/* Whether @s ends with @suffix. */
static inline int str_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

#endif /* TK_COMMON_STR_H */
