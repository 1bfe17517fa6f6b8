/* SPDX-License-Identifier: MIT */
/*
 * A bump allocator for objects that live exactly as long as their owner (a trace's metadata:
 * names, field classes, event classes). One arena_fini() frees them all, so the metadata
 * parser has no per-object cleanup paths to get wrong on malformed input.
 */
#ifndef TK_COMMON_ARENA_H
#define TK_COMMON_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *head;
	size_t used;
	size_t cap;
	size_t next_cap; /* of the next chunk */
};

void arena_init(struct arena *a);
void arena_fini(struct arena *a);

/* Zeroed memory aligned to 16 bytes, or NULL when out of memory. */
void *arena_alloc(struct arena *a, size_t size);

/* Copy of @n bytes of @s plus a terminating NUL, or NULL when out of memory. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);

#endif /* TK_COMMON_ARENA_H */
