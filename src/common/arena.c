// SPDX-License-Identifier: MIT
/*
 * Arena chunks are at least 64 KiB; larger requests get a chunk of their own. Requests are
 * rounded up to 16 bytes so every object is suitably aligned.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "bigmem.h"

#define ARENA_CHUNK_MIN (64 * 1024)
#define ARENA_CHUNK_MAX ((size_t) 2 << 20) /* one huge page (bigmem.h) */

struct arena_chunk {
	struct arena_chunk *next;
	size_t size; /* bytes allocated; keeps data 16-byte aligned */
	_Alignas(16) unsigned char data[];
};

/* Chunks of this size and more come zeroed from bigmem.h, smaller ones from malloc(). */
static int chunk_is_big(size_t size)
{
	return size >= BIGMEM_MIN;
}

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->used = 0;
	a->cap = 0;
	a->next_cap = ARENA_CHUNK_MIN;
}

void arena_fini(struct arena *a)
{
	struct arena_chunk *c = a->head;

	while (c) {
		struct arena_chunk *next = c->next;

		if (chunk_is_big(c->size))
			bigmem_free(c, c->size);
		else
			free(c);
		c = next;
	}
	arena_init(a);
}

/*
 * Chunks double from 64 KiB to 2 MiB, so that a big trace's metadata takes few chunks (and
 * huge pages), a small one little memory. Big chunks come zeroed and are never handed out
 * twice, so their allocations need no clearing.
 */
void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_chunk *c;
	size_t cap;
	void *p;

	if (size > SIZE_MAX - 15 - sizeof(struct arena_chunk) - ARENA_CHUNK_MAX)
		return NULL;
	size = (size + 15) & ~(size_t) 15;
	if (!a->head || a->cap - a->used < size) {
		if (a->next_cap < ARENA_CHUNK_MIN) /* an arena zeroed, not arena_init()ed */
			a->next_cap = ARENA_CHUNK_MIN;
		cap = a->next_cap - sizeof(*c);
		if (a->next_cap < ARENA_CHUNK_MAX)
			a->next_cap *= 2;
		if (size > cap)
			cap = size;
		c = chunk_is_big(sizeof(*c) + cap) ? bigmem_alloc(sizeof(*c) + cap)
						   : malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->size = sizeof(*c) + cap;
		c->next = a->head;
		a->head = c;
		a->used = 0;
		a->cap = cap;
	}
	p = a->head->data + a->used;
	a->used += size;
	if (!chunk_is_big(a->head->size)) /* a big chunk came zeroed and is never reused */
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
