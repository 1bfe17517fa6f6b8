/* SPDX-License-Identifier: MIT */
/*
 * A growable array of fixed-size elements on the heap (doubling growth), for lists whose
 * length is known only after parsing: tokens, members, streams, packets.
 */
#ifndef TK_COMMON_VEC_H
#define TK_COMMON_VEC_H

#include <stddef.h>
#include <stdlib.h>

struct vec {
	void *data;
	size_t len;
	size_t cap;
};

#define VEC_INIT                                                                                   \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/* Make room for @extra more elements of @elem_size bytes; 0 or -1 when out of memory. */
int vec_reserve(struct vec *v, size_t elem_size, size_t extra);

/* Append one zeroed element and return it, or NULL when out of memory. */
void *vec_push(struct vec *v, size_t elem_size);

void vec_fini(struct vec *v);

/*
 * A per-class cache: a zeroed table of *@n elements of @elem_size bytes, indexed by
 * tk_event_class.index and grown as classes are met. Returns @table grown (new elements
 * zeroed) so that it holds index @i, *@n updated; NULL when out of memory (@table and *@n
 * unchanged). Callers check `i < n` inline first and call this only to grow.
 */
void *table_hold(void *table, size_t *n, size_t elem_size, size_t i);

#define VEC_AT(v, type, i) (((type *) (v)->data)[i])

/* qsort() for arrays that may be empty (and then NULL, which qsort() may not be given). */
static inline void sort_array(void *base, size_t n, size_t size,
			      int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

#endif /* TK_COMMON_VEC_H */
