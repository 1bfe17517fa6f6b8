/* SPDX-License-Identifier: MIT */
/*
 * Read-only memory-mapped files. Traces are read in place (zero copy); once a reader is past a
 * region it tells the kernel to drop those pages, so resident memory stays flat however large
 * the file is.
 */
#ifndef TK_COMMON_MFILE_H
#define TK_COMMON_MFILE_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

struct mfile {
	int fd;		     /* -1 when none */
	const uint8_t *data; /* NULL when size is 0 */
	size_t size;
	size_t released; /* bytes before this offset were dropped from memory */
	uint8_t mapped;	 /* data is our mapping (not borrowed memory) */
};

/* Map @path whole; on failure @f is left closed and a cause names the path. */
enum tk_status mfile_open(struct mfile *f, const char *path);

/* Use @size bytes at @data (kept by the caller) as if they were a mapped file. */
void mfile_borrow(struct mfile *f, const void *data, size_t size);

/* Unmap and close; safe on a closed, borrowed or mfile_init()ed mfile. */
void mfile_close(struct mfile *f);

/* A closed mfile. */
void mfile_init(struct mfile *f);

/*
 * Tell the kernel the bytes before @offset will not be needed soon. Cheap to call often: it
 * acts only when at least a few MiB more can be dropped. Pointers stay valid (the pages come
 * back from the page cache if touched).
 */
void mfile_release_before(struct mfile *f, size_t offset);

/* Read a whole (small) file into a NUL-terminated heap buffer the caller frees. */
enum tk_status file_read_all(const char *path, char **out, size_t *len);

#endif /* TK_COMMON_MFILE_H */
