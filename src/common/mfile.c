// SPDX-License-Identifier: MIT
/* Mapped files and whole-file reads; see mfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "mfile.h"

#define MFILE_RELEASE_STEP (8u << 20)

enum tk_status mfile_open(struct mfile *f, const char *path)
{
	struct stat st;
	void *p;

	mfile_init(f);
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return TK_FAIL(errno == ENOENT ? TK_ERR_NOTFOUND : TK_ERR_IO,
			       "Cannot open file: path=%s, errno=%s", path, strerror(errno));
	if (fstat(f->fd, &st)) {
		int err = errno;

		close(f->fd);
		f->fd = -1;
		return TK_FAIL(TK_ERR_IO, "Cannot stat file: path=%s, errno=%s", path,
			       strerror(err));
	}
	if (!S_ISREG(st.st_mode)) {
		close(f->fd);
		f->fd = -1;
		return TK_FAIL(TK_ERR_IO, "Cannot map file: path=%s, reason=not a regular file",
			       path);
	}
	f->size = (size_t) st.st_size;
	if (f->size == 0)
		return TK_OK;
	p = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, f->fd, 0);
	if (p == MAP_FAILED) {
		int err = errno;

		close(f->fd);
		f->fd = -1;
		return TK_FAIL(TK_ERR_IO, "Cannot map file: path=%s, size=%zu, errno=%s", path,
			       f->size, strerror(err));
	}
	madvise(p, f->size, MADV_SEQUENTIAL);
	f->data = p;
	f->mapped = 1;
	return TK_OK;
}

void mfile_init(struct mfile *f)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

void mfile_borrow(struct mfile *f, const void *data, size_t size)
{
	mfile_init(f);
	f->data = size ? data : NULL;
	f->size = size;
}

void mfile_close(struct mfile *f)
{
	if (f->mapped && f->data)
		munmap((void *) f->data, f->size);
	if (f->fd >= 0)
		close(f->fd);
	mfile_init(f);
}

void mfile_release_before(struct mfile *f, size_t offset)
{
	size_t page = 4096, end;

	if (!f->mapped || offset > f->size || offset - f->released < MFILE_RELEASE_STEP)
		return;
	end = offset & ~(page - 1);
	if (end <= f->released)
		return;
	madvise((void *) (f->data + f->released), end - f->released, MADV_DONTNEED);
	f->released = end;
}

enum tk_status file_read_all(const char *path, char **out, size_t *len)
{
	struct mfile f;
	enum tk_status st;
	char *buf;

	st = mfile_open(&f, path);
	if (st < 0)
		return st;
	buf = malloc(f.size + 1);
	if (!buf) {
		mfile_close(&f);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read file: path=%s, size=%zu", path, f.size);
	}
	if (f.size)
		memcpy(buf, f.data, f.size);
	buf[f.size] = '\0';
	*out = buf;
	*len = f.size;
	mfile_close(&f);
	return TK_OK;
}
