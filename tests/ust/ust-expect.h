/* SPDX-License-Identifier: MIT */
/*
 * What the test programs of tests/ust print of the values they give the tracepoints of
 * ust-tp.h, in babeltrace2's text, so that their scripts compare it with what babeltrace2 and
 * `tracekit print` read back: shared by ust-writer.c and ust-dlopen.c so that both print an
 * enumeration or a list of integers the same way. The labels are ust-tp.h's ranges, written
 * again here (not taken from the descriptions under test).
 */
#ifndef UST_EXPECT_H
#define UST_EXPECT_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* tktest:color's label of @c, or NULL */
static inline const char *color_label(unsigned c)
{
	return c == 0 ? "red" : c == 1 ? "green" : c <= 9 ? "warm" : NULL;
}

/* tktest:sign's label of @s, or NULL */
static inline const char *sign_label(int s)
{
	return s < -100 || s > 100 ? NULL : s < 0 ? "neg" : s == 0 ? "zero" : "pos";
}

/* an enumeration's value @v with its @label (NULL: none) */
static inline void print_enum(FILE *f, const char *label, long long v)
{
	if (label)
		fprintf(f, "( \"%s\" : container = %lld )", label, v);
	else
		fprintf(f, "( <unknown> : container = %lld )", v);
}

/* "NAME = [ [0] = V, ... ]" as babeltrace2 writes an array of @n unsigned values */
static inline void print_list(FILE *f, const char *name, const uint32_t *v, size_t n, int hex)
{
	fprintf(f, "%s = [", name);
	for (size_t k = 0; k < n; k++)
		fprintf(f, hex ? "%s [%zu] = 0x%" PRIX32 : "%s [%zu] = %" PRIu32, k ? "," : "", k,
			v[k]);
	fprintf(f, " ]");
}

/* "TID tktest:enums: { ... }" for the values @c and @s */
static inline void print_enums(FILE *f, int tid, unsigned c, int s)
{
	fprintf(f, "%d tktest:enums: { color = ", tid);
	print_enum(f, color_label(c), c);
	fprintf(f, ", sign = ");
	print_enum(f, sign_label(s), s);
	fprintf(f, " }\n");
}

#endif
