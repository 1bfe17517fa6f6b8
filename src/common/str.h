/* SPDX-License-Identifier: MIT */
/* Small string helpers shared by the folders. */
#ifndef TK_COMMON_STR_H
#define TK_COMMON_STR_H

#include <stdint.h>
#include <string.h>

/* Whether @s ends with @suffix. */
static inline int str_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* The value of the hexadecimal digit @c (either case), or -1. */
static inline int str_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The 16 bytes of the UUID written in the 36 characters at @s (8-4-4-4-12 hexadecimal digits,
 * dashes between), into @out. Return: 0, or -1 when they are not one (@out then undefined).
 */
static inline int str_uuid_parse(const char *s, uint8_t out[16])
{
	int i, n = 0;

	for (i = 0; i < 36; i++) {
		int hi, lo;

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return -1;
			continue;
		}
		hi = str_hex_digit((unsigned char) s[i]);
		lo = str_hex_digit((unsigned char) s[i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[n++] = (uint8_t) (hi * 16 + lo);
		i++;
	}
	return 0;
}

#endif /* TK_COMMON_STR_H */
