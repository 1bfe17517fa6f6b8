// SPDX-License-Identifier: MIT
/*
 * Arena chunks are at least 64 KiB; larger requests get a chunk of their own. Requests are
 * rounded up to 16 bytes so every object is suitably aligned.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define ARENA_CHUNK_MIN (64 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	size_t pad; /* keeps data 16-byte aligned */
	_Alignas(16) unsigned char data[];
};

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->used = 0;
	a->cap = 0;
}

void arena_fini(struct arena *a)
{
	struct arena_chunk *c = a->head;

	while (c) {
		struct arena_chunk *next = c->next;

		free(c);
		c = next;
	}
	arena_init(a);
}

void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_chunk *c;
	size_t cap;
	void *p;

	if (size > SIZE_MAX - 15 - sizeof(struct arena_chunk))
		return NULL;
	size = (size + 15) & ~(size_t) 15;
	if (!a->head || a->cap - a->used < size) {
		cap = size > ARENA_CHUNK_MIN ? size : ARENA_CHUNK_MIN;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = a->head;
		a->head = c;
		a->used = 0;
		a->cap = cap;
	}
	p = a->head->data + a->used;
	a->used += size;
	memset(p, 0, size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p;

	if (n == SIZE_MAX)
		return NULL;
	p = arena_alloc(a, n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}
