// SPDX-License-Identifier: MIT
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "bigmem.h"

#define HUGE_PAGE ((size_t) 2 << 20)

static size_t rounded(size_t size)
{
	return (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

void *bigmem_alloc(size_t size)
{
	size_t len;
	uintptr_t start, aligned;
	void *p;

	if (size < BIGMEM_MIN)
		return calloc(1, size ? size : 1);
	if (size > SIZE_MAX - 2 * HUGE_PAGE)
		return NULL;
	len = rounded(size);
	/* map one huge page more, then trim to a 2 MiB boundary on both sides */
	p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	start = (uintptr_t) p;
	aligned = (start + HUGE_PAGE - 1) & ~(uintptr_t) (HUGE_PAGE - 1);
	if (aligned > start)
		munmap(p, aligned - start);
	if (start + HUGE_PAGE > aligned)
		munmap((void *) (aligned + len), start + HUGE_PAGE - aligned);
#ifdef MADV_HUGEPAGE
	(void) madvise((void *) aligned, len, MADV_HUGEPAGE); /* advice: refused is fine */
#endif
	return (void *) aligned;
}

void bigmem_free(void *p, size_t size)
{
	if (!p)
		return;
	if (size < BIGMEM_MIN)
		free(p);
	else
		munmap(p, rounded(size));
}
