// SPDX-License-Identifier: MIT
/*
 * Whole-or-nothing output files (outfile.h). O_TMPFILE (Linux 3.11; ext4, xfs, btrfs, tmpfs
 * and most local file systems) gives a file with no name; linkat() names it when it is done.
 * linkat() of such a file takes either AT_EMPTY_PATH, which needs CAP_DAC_READ_SEARCH, or
 * its /proc/self/fd link with AT_SYMLINK_FOLLOW, which needs /proc: both are tried. The name
 * it gets is a temporary one in the same directory, then rename(2) puts it in place at once,
 * so a reader never sees a half-written file under the final name.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "outfile.h"

/* The directory part of @path ("." for a bare name), malloc'ed. */
static char *dir_of(const char *path)
{
	char *copy = strdup(path), *dir;

	if (!copy)
		return NULL;
	dir = strdup(dirname(copy));
	free(copy);
	return dir;
}

/* "DIR/.BASE.tmp-PID" for @path, malloc'ed. */
static char *tmp_name(const char *path)
{
	char *copy = strdup(path), *dir = dir_of(path), *out = NULL;
	size_t len;

	if (copy && dir) {
		len = strlen(path) + 48;
		out = malloc(len);
		if (out)
			snprintf(out, len, "%s/.%s.tmp-%ld", dir, basename(copy), (long) getpid());
	}
	free(copy);
	free(dir);
	return out;
}

/*
 * The file the symbolic link @path names, malloc'ed: resolved whole when it exists, else
 * (a link to a file still to be made) its target read once, relative to the link's directory.
 */
static char *link_target(const char *path)
{
	char target[4096], *dir, *out;
	ssize_t n;
	size_t len;

	out = realpath(path, NULL);
	if (out)
		return out;
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	if (target[0] == '/')
		return strdup(target);
	dir = dir_of(path);
	len = (dir ? strlen(dir) : 0) + (size_t) n + 2;
	out = dir ? malloc(len) : NULL;
	if (out)
		snprintf(out, len, "%s/%s", dir, target);
	free(dir);
	return out;
}

/*
 * Write straight into @path: a device, a pipe or a terminal ("-o /dev/stdout"), which must
 * not be replaced by a file of the same name.
 */
static enum tk_status open_direct(struct outfile *of, const char *path)
{
	enum tk_status st;

	of->direct = 1;
	of->fd = open(path, O_WRONLY | O_CLOEXEC);
	if (of->fd >= 0)
		return TK_OK;
	st = TK_FAIL(TK_ERR_IO, "Cannot open file: path=%s, errno=%s", path, strerror(errno));
	outfile_abort(of); /* frees @path */
	return st;
}

enum tk_status outfile_open(struct outfile *of, const char *path)
{
	struct stat sb;
	char *dir;

	TK_ASSERT_PRE(of && path);
	memset(of, 0, sizeof(*of));
	of->fd = -1;
	/* through a symbolic link, the file it names is the one replaced */
	of->path = lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode) ? link_target(path) : NULL;
	if (!of->path)
		of->path = strdup(path);
	if (of->path && stat(of->path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		outfile_abort(of);
		return TK_FAIL(TK_ERR_INVAL, "Cannot create file: path=%s, reason=is a directory",
			       path);
	}
	if (of->path && stat(of->path, &sb) == 0 && !S_ISREG(sb.st_mode))
		return open_direct(of, of->path);
	dir = dir_of(of->path ? of->path : path);
	if (!of->path || !dir) {
		free(dir);
		outfile_abort(of);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create file: path=%s", path);
	}
	of->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
	free(dir);
	if (of->fd >= 0)
		return TK_OK;
	/* no O_TMPFILE on this file system: a named temporary file */
	of->tmp = tmp_name(of->path);
	if (!of->tmp) {
		outfile_abort(of);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create file: path=%s", path);
	}
	of->fd = open(of->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (of->fd < 0) {
		int err = errno;

		free(of->tmp);
		of->tmp = NULL; /* not ours to remove */
		outfile_abort(of);
		return TK_FAIL(TK_ERR_IO, "Cannot create file: path=%s, errno=%s", path,
			       strerror(err));
	}
	return TK_OK;
}

/* Give the nameless file the temporary name; 0 or an errno. */
static int link_tmpfile(struct outfile *of)
{
	char proc[64];

	of->tmp = tmp_name(of->path);
	if (!of->tmp)
		return ENOMEM;
	unlink(of->tmp); /* a leftover of a process that had our pid */
	if (linkat(of->fd, "", AT_FDCWD, of->tmp, AT_EMPTY_PATH) == 0)
		return 0;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", of->fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, of->tmp, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	free(of->tmp);
	of->tmp = NULL;
	return errno;
}

enum tk_status outfile_commit(struct outfile *of)
{
	int err = 0;

	TK_ASSERT_PRE(of && of->fd >= 0);
	if (of->direct) {
		enum tk_status st = TK_OK;

		if (close(of->fd) < 0)
			st = TK_FAIL(TK_ERR_IO, "Cannot write file: path=%s, errno=%s", of->path,
				     strerror(errno));
		of->fd = -1;
		outfile_abort(of);
		return st;
	}
	if (!of->tmp)
		err = link_tmpfile(of);
	if (!err && close(of->fd) < 0)
		err = errno;
	else if (err)
		close(of->fd);
	of->fd = -1;
	if (!err && rename(of->tmp, of->path) < 0)
		err = errno;
	if (err) {
		enum tk_status st = TK_FAIL(TK_ERR_IO, "Cannot write file: path=%s, errno=%s",
					    of->path, strerror(err));

		outfile_abort(of);
		return st;
	}
	free(of->tmp);
	free(of->path);
	of->tmp = of->path = NULL;
	return TK_OK;
}

void outfile_abort(struct outfile *of)
{
	if (!of)
		return;
	if (of->fd >= 0)
		close(of->fd);
	if (of->tmp)
		unlink(of->tmp);
	free(of->tmp);
	free(of->path);
	of->fd = -1;
	of->direct = 0;
	of->tmp = of->path = NULL;
}

int outfile_scratch(const char *dir)
{
	char name[4096];
	int fd, err;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	/* named for an instant only */
	snprintf(name, sizeof(name), "%s/.tracekit-scratch-%ld-XXXXXX", dir, (long) getpid());
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (unlink(name) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* mkdir -p: every missing directory of @path. */
enum tk_status outfile_make_dirs(const char *path)
{
	size_t n = strlen(path), i;
	enum tk_status st = TK_OK;
	char *p = malloc(n + 1);

	if (!p)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create directory: path=%s", path);
	memcpy(p, path, n + 1);
	for (i = 1; i <= n && st >= 0; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			st = TK_FAIL(TK_ERR_IO, "Cannot create directory: path=%s, errno=%s", p,
				     strerror(errno));
		p[i] = i < n ? '/' : '\0';
	}
	free(p);
	return st;
}

/* An output directory must not exist, or be empty. */
static enum tk_status check_empty_dir(const char *path)
{
	struct dirent *de;
	struct stat sb;
	DIR *d;

	if (stat(path, &sb) < 0)
		return errno == ENOENT ? TK_OK
				       : TK_FAIL(TK_ERR_IO, "Cannot use output: path=%s, errno=%s",
						 path, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot use output: path=%s, reason=exists and is not a directory",
			       path);
	d = opendir(path);
	if (!d)
		return TK_FAIL(TK_ERR_IO, "Cannot use output: path=%s, errno=%s", path,
			       strerror(errno));
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			break;
	closedir(d);
	if (de)
		return TK_FAIL(
			TK_ERR_INVAL,
			"Cannot use output: path=%s, reason=directory not empty; remove it or "
			"name another",
			path);
	return TK_OK;
}

static int remove_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void) sb;
	(void) type;
	(void) ftw;
	(void) remove(path);
	return 0; /* go on whatever happens */
}

enum tk_status outdir_open(struct outdir *od, const char *path)
{
	enum tk_status st;
	size_t n;

	TK_ASSERT_PRE(od && path);
	od->path = od->tmp = NULL;
	st = check_empty_dir(path);
	if (st < 0)
		return st;
	/* "out/" names "out": the temporary name goes beside it, not into it */
	od->path = strdup(path);
	for (n = od->path ? strlen(od->path) : 0; n > 1 && od->path[n - 1] == '/'; n--)
		od->path[n - 1] = '\0';
	od->tmp = od->path ? tmp_name(od->path) : NULL;
	if (!od->tmp) {
		outdir_abort(od);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create directory: path=%s", path);
	}
	(void) nftw(od->tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS); /* a dead namesake's */
	{
		char *parent = dir_of(od->path);

		st = parent ? outfile_make_dirs(parent)
			    : TK_FAIL(TK_ERR_NOMEM, "Cannot create directory: path=%s", path);
		free(parent);
	}
	if (st < 0) {
		outdir_abort(od);
		return st;
	}
	if (mkdir(od->tmp, 0777) < 0) {
		st = TK_FAIL(TK_ERR_IO, "Cannot create directory: path=%s, errno=%s", od->tmp,
			     strerror(errno));
		free(od->tmp);
		od->tmp = NULL; /* not ours to remove */
		outdir_abort(od);
		return st;
	}
	return TK_OK;
}

enum tk_status outdir_commit(struct outdir *od)
{
	enum tk_status st;

	TK_ASSERT_PRE(od && od->tmp);
	/* an empty directory of that name is replaced; one filled since outdir_open() is not */
	if (rename(od->tmp, od->path) < 0) {
		st = TK_FAIL(TK_ERR_IO, "Cannot name directory: path=%s, errno=%s", od->path,
			     strerror(errno));
		outdir_abort(od);
		return st;
	}
	free(od->tmp);
	free(od->path);
	od->tmp = od->path = NULL;
	return TK_OK;
}

static int remove_below(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	if (ftw->level > 0)
		remove_one(path, sb, type, ftw);
	return 0;
}

void outdir_empty(const char *dir)
{
	(void) nftw(dir, remove_below, 16, FTW_DEPTH | FTW_PHYS);
}

void outdir_abort(struct outdir *od)
{
	if (!od)
		return;
	if (od->tmp)
		(void) nftw(od->tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(od->tmp);
	free(od->path);
	od->tmp = od->path = NULL;
}

int outfile_same(const char *path, const char *other_path)
{
	struct stat a, b;

	return stat(path, &a) == 0 && stat(other_path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* The slow way of outfile_copy(): through a buffer, for kernels and file systems without
 * copy_file_range(2) between these two files. */
static enum tk_status copy_through(int to, int from, uint64_t off, uint64_t len)
{
	size_t cap = len < (1 << 20) ? (size_t) len : (1 << 20);
	uint8_t *buf = malloc(cap ? cap : 1);
	enum tk_status st = TK_OK;

	if (!buf)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot copy bytes: length=%zu", cap);
	while (len && st >= 0) {
		size_t want = len < cap ? (size_t) len : cap;
		ssize_t n = pread(from, buf, want, (off_t) off), w = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			st = TK_FAIL(TK_ERR_IO, "Cannot read bytes to copy: offset=%llu, errno=%s",
				     (unsigned long long) off, n ? strerror(errno) : "end of file");
			break;
		}
		while (w < n) {
			ssize_t k = pwrite(to, buf + w, (size_t) (n - w), (off_t) off + w);

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				st = TK_FAIL(TK_ERR_IO,
					     "Cannot write copied bytes: offset=%llu, errno=%s",
					     (unsigned long long) off + (unsigned long long) w,
					     k ? strerror(errno) : "nothing written");
				break;
			}
			w += k;
		}
		off += (uint64_t) n;
		len -= (uint64_t) n;
	}
	free(buf);
	return st;
}

enum tk_status outfile_copy(int to, int from, uint64_t off, uint64_t len)
{
	loff_t in = (loff_t) off, out = (loff_t) off;

	while (len) {
		size_t want = len < (UINT64_C(1) << 30) ? (size_t) len : (size_t) 1 << 30;
		ssize_t n = copy_file_range(from, &in, to, &out, want, 0);

		if (n > 0) {
			len -= (uint64_t) n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EOPNOTSUPP ||
			      errno == EINVAL || errno == EBADF || errno == ETXTBSY))
			return copy_through(to, from, (uint64_t) in, len);
		return TK_FAIL(TK_ERR_IO, "Cannot copy bytes: offset=%llu, length=%llu, errno=%s",
			       (unsigned long long) in, (unsigned long long) len,
			       n ? strerror(errno) : "end of file");
	}
	return TK_OK;
}
