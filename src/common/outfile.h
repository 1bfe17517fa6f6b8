/* SPDX-License-Identifier: MIT */
/*
 * Files that appear whole or not at all. A trace file tracekit writes (a recording, a
 * conversion) is built without a name -- an O_TMPFILE file in the destination's directory --
 * and only gets its final name when it is complete, by a link and a rename. Whatever stops
 * the writer half-way (an error, a full disk, SIGKILL, a crash) leaves neither a partial file
 * under the final name nor a temporary file behind, and an existing file of that name stays
 * as it was until the new one replaces it. File systems without O_TMPFILE get a named
 * temporary file ".NAME.tmp-PID" instead, removed on every path but a SIGKILL.
 *
 *	struct outfile of;
 *	st = outfile_open(&of, "trace.dat");       (of.fd is open for writing)
 *	... pwrite(of.fd, ...) ...
 *	st = outfile_commit(&of);                  (now "trace.dat"; of.fd closed)
 *	or outfile_abort(&of);                      (nothing left; "trace.dat" untouched)
 *
 * An existing @path that is a device, a pipe or a socket (-o /dev/stdout) is written in
 * place, never replaced; through a symbolic link, the file it points to is replaced.
 *
 * outfile_scratch() opens a file that never gets a name at all (the recorder's per-CPU page
 * files): closing it, or the process dying, frees it.
 */
#ifndef TK_COMMON_OUTFILE_H
#define TK_COMMON_OUTFILE_H

#include <stdint.h>

#include <tracekit/status.h>

struct outfile {
	int fd;
	char *path; /* the final name */
	char *tmp;  /* the named temporary file, or NULL with O_TMPFILE */
	int direct; /* @path is a device or a pipe: written in place */
};

#define OUTFILE_INIT                                                                               \
	{                                                                                          \
		.fd = -1                                                                           \
	}

/* Open a nameless file to become @path (mode 0666 less the umask). */
enum tk_status outfile_open(struct outfile *of, const char *path);

/* Give the complete file its name, replacing any file @path names; closes of->fd. On
 * failure nothing is left and @path is untouched. */
enum tk_status outfile_commit(struct outfile *of);

/* Drop the file: nothing is left, @path is untouched. Safe after a failed outfile_open() or
 * commit, and on an outfile set to OUTFILE_INIT. */
void outfile_abort(struct outfile *of);

/*
 * A read-write file with no name in @dir (so that its space is taken where the output will
 * go, and a full disk shows while recording), mode 0600; -1 with errno on failure.
 */
int outfile_scratch(const char *dir);

/*
 * Directories that appear whole or not at all (CTF traces): built under a temporary name
 * ".NAME.tmp-PID" beside @path and renamed to @path when complete. @path must not exist or be
 * an empty directory (which the rename replaces), checked by outdir_open() before anything is
 * written, so that removing what a failed conversion left never touches anything else.
 *
 *	struct outdir od;
 *	st = outdir_open(&od, "trace-ctf");        (write into od.tmp)
 *	st = outdir_commit(&od);                   (now "trace-ctf")
 *	or outdir_abort(&od);                       (od.tmp and what it holds removed)
 */
struct outdir {
	char *path; /* the final name */
	char *tmp;  /* where to write */
};

#define OUTDIR_INIT                                                                                \
	{                                                                                          \
		NULL, NULL                                                                         \
	}

enum tk_status outdir_open(struct outdir *od, const char *path);
/* mkdir -p: every missing directory of @path, @path included. */
enum tk_status outfile_make_dirs(const char *path);
enum tk_status outdir_commit(struct outdir *od);
void outdir_abort(struct outdir *od);

/* Remove whatever the directory @dir holds, keeping @dir (a shortcut that gave up its work
 * half-way leaves the directory to the path that writes it instead). */
void outdir_empty(const char *dir);

/*
 * Copy the @len bytes at @off of the file open as @from to the same offset of the file open
 * as @to: in the kernel (copy_file_range(2), which some file systems share without copying),
 * else through a buffer. A file shorter than @off + @len fails with TK_ERR_IO.
 */
enum tk_status outfile_copy(int to, int from, uint64_t off, uint64_t len);

/* Do @path and @other_path name the same file (never write over an input)? 0 when either
 * does not exist or cannot be examined. */
int outfile_same(const char *path, const char *other_path);

#endif /* TK_COMMON_OUTFILE_H */
