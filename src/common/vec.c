// SPDX-License-Identifier: MIT
/* Growable arrays: see vec.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

int vec_reserve(struct vec *v, size_t elem_size, size_t extra)
{
	size_t need, cap;
	void *p;

	if (extra > SIZE_MAX / elem_size - v->len)
		return -1;
	need = v->len + extra;
	if (need <= v->cap)
		return 0;
	cap = v->cap ? v->cap : 8;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 / elem_size ? need : cap * 2;
	p = realloc(v->data, cap * elem_size);
	if (!p)
		return -1;
	v->data = p;
	v->cap = cap;
	return 0;
}

void *vec_push(struct vec *v, size_t elem_size)
{
	void *p;

	if (vec_reserve(v, elem_size, 1))
		return NULL;
	p = (char *) v->data + v->len * elem_size;
	memset(p, 0, elem_size);
	v->len++;
	return p;
}

void vec_fini(struct vec *v)
{
	free(v->data);
	v->data = NULL;
	v->len = 0;
	v->cap = 0;
}

void *table_hold(void *table, size_t *n, size_t elem_size, size_t i)
{
	size_t want = i + 16;
	char *t;

	if (i < *n)
		return table;
	if (want < i || want > SIZE_MAX / elem_size)
		return NULL;
	t = realloc(table, want * elem_size);
	if (!t)
		return NULL;
	memset(t + *n * elem_size, 0, (want - *n) * elem_size);
	*n = want;
	return t;
}
