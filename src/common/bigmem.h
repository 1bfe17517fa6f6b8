/* SPDX-License-Identifier: MIT */
/*
 * Memory for large blocks that are filled once and read until the owner goes (inflated
 * trace.dat sections, symbol tables, big arena chunks). A block of at least
 * BIGMEM_MIN bytes is mapped on its own, aligned to and rounded up to 2 MiB, and the kernel
 * is asked for transparent huge pages (madvise(MADV_HUGEPAGE)): where it grants them, a
 * megabyte costs one page fault instead of 256, and faults are most of what filling such a
 * block costs on a virtual machine (bench/RESULTS.md). Smaller blocks come from malloc().
 */
#ifndef TK_COMMON_BIGMEM_H
#define TK_COMMON_BIGMEM_H

#include <stddef.h>

#define BIGMEM_MIN ((size_t) 1 << 20)

/* @size bytes, zeroed, aligned to 16 bytes at least; NULL when out of memory. */
void *bigmem_alloc(size_t size);

/* Free a block of bigmem_alloc() with the same @size; NULL is fine. */
void bigmem_free(void *p, size_t size);

#endif /* TK_COMMON_BIGMEM_H */
