// SPDX-License-Identifier: MIT
/*
 * Unit tests of src/common/outfile.c: an output file appears under its name whole or not at
 * all. Each test works in a fresh temporary directory and checks it with readdir and stat,
 * not through the code under test: no entry while the file is written, the bytes after the
 * commit, nothing after an abort or a SIGKILL, an older file of the name untouched until the
 * commit, devices written in place, links followed; byte ranges copied between files, in the
 * kernel and through the buffer; an output directory emptied.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/error.h"
#include "common/outfile.h"

static char dir[64];

static int setup(void **state)
{
	(void) state;
	snprintf(dir, sizeof(dir), "/tmp/tk-outfile-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

/* Empty the directory (any test may leave files) and remove it. */
static int teardown(void **state)
{
	char path[512];
	struct dirent *d;
	DIR *dp = opendir(dir);

	(void) state;
	while (dp && (d = readdir(dp))) {
		if (d->d_name[0] == '.' && (!d->d_name[1] || !strcmp(d->d_name, "..")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		unlink(path);
	}
	if (dp)
		closedir(dp);
	return rmdir(dir);
}

/* Number of entries in the directory, "." and ".." aside. */
static int entries(void)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int n = 0;

	assert_non_null(dp);
	while ((d = readdir(dp)))
		n += strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
	closedir(dp);
	return n;
}

static char *in_dir(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
	return buf;
}

/* @path must hold exactly @want. */
static void expect_content(const char *path, const char *want)
{
	char buf[256];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = '\0';
	assert_string_equal(buf, want);
}

static void write_all(int fd, const char *text)
{
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t) strlen(text));
}

static void assert_ok(enum tk_status st)
{
	if (st != TK_OK) {
		for (size_t i = 0; i < tk_error_count(); i++)
			print_message("  cause: %s\n", tk_error_cause(i));
		fail_msg("status %s", tk_status_str(st));
	}
}

static void test_named_only_when_committed(void **state)
{
	struct outfile of;
	char path[512];

	(void) state;
	assert_ok(outfile_open(&of, in_dir(path, sizeof(path), "t.dat")));
	write_all(of.fd, "whole");
	assert_int_equal(entries(), 0);
	assert_ok(outfile_commit(&of));
	assert_int_equal(entries(), 1);
	expect_content(path, "whole");
}

static void test_abort_leaves_old_file(void **state)
{
	struct outfile of;
	char path[512];
	int fd;

	(void) state;
	fd = open(in_dir(path, sizeof(path), "t.dat"), O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	write_all(fd, "old");
	close(fd);

	assert_ok(outfile_open(&of, path));
	write_all(of.fd, "half");
	expect_content(path, "old");
	outfile_abort(&of);
	expect_content(path, "old");
	assert_int_equal(entries(), 1);

	/* a commit replaces it */
	assert_ok(outfile_open(&of, path));
	write_all(of.fd, "new");
	expect_content(path, "old");
	assert_ok(outfile_commit(&of));
	expect_content(path, "new");
	assert_int_equal(entries(), 1);
}

/* A writer killed half-way leaves nothing, neither under the name nor beside it. */
static void test_sigkill_leaves_nothing(void **state)
{
	char path[512];
	int ready[2], status;
	pid_t pid;
	char c;

	(void) state;
	in_dir(path, sizeof(path), "killed.dat");
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct outfile of;
		int scratch;

		if (outfile_open(&of, path) < 0)
			_exit(1);
		scratch = outfile_scratch(dir);
		if (scratch < 0 || write(of.fd, "partial", 7) != 7 || write(scratch, "x", 1) != 1 ||
		    write(ready[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(entries(), 0);
}

static void test_scratch_has_no_name(void **state)
{
	char buf[4];
	int fd;

	(void) state;
	fd = outfile_scratch(dir);
	assert_true(fd >= 0);
	write_all(fd, "abc");
	assert_int_equal(entries(), 0);
	assert_int_equal(pread(fd, buf, 3, 0), 3);
	assert_memory_equal(buf, "abc", 3);
	close(fd);
}

/* -o /dev/null: written in place, the device stays a device */
static void test_device_written_in_place(void **state)
{
	struct outfile of;
	struct stat sb;

	(void) state;
	if (access("/dev/null", W_OK))
		skip();
	assert_ok(outfile_open(&of, "/dev/null"));
	write_all(of.fd, "gone");
	assert_ok(outfile_commit(&of));
	assert_int_equal(stat("/dev/null", &sb), 0);
	assert_true(S_ISCHR(sb.st_mode));
}

static void test_link_target_replaced(void **state)
{
	struct outfile of;
	char target[512], link_path[512];
	struct stat sb;

	(void) state;
	in_dir(target, sizeof(target), "target.dat");
	in_dir(link_path, sizeof(link_path), "link.dat");
	assert_int_equal(symlink("target.dat", link_path), 0);
	assert_ok(outfile_open(&of, link_path));
	write_all(of.fd, "via link");
	assert_ok(outfile_commit(&of));
	assert_int_equal(lstat(link_path, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	expect_content(target, "via link");
}

static void test_directory_refused(void **state)
{
	struct outfile of;

	(void) state;
	tk_error_clear();
	assert_int_equal(outfile_open(&of, dir), TK_ERR_INVAL);
	assert_non_null(strstr(tk_error_cause(0), "is a directory"));
	outfile_abort(&of);
	tk_error_clear();
	assert_int_equal(outfile_open(&of, "/nonexistent-dir/x.dat"), TK_ERR_IO);
	assert_non_null(strstr(tk_error_cause(0), "No such file or directory"));
	tk_error_clear();
}

static void test_same_file(void **state)
{
	char a[512], b[512];
	int fd;

	(void) state;
	fd = open(in_dir(a, sizeof(a), "a.dat"), O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(link(a, in_dir(b, sizeof(b), "b.dat")), 0);
	assert_true(outfile_same(a, b));
	assert_true(outfile_same(a, a));
	assert_false(outfile_same(a, "/dev/null"));
	assert_false(outfile_same(a, in_dir(b, sizeof(b), "none.dat")));
}

/* @n bytes of a pattern that differs at every offset a copy could shift it by. */
static uint8_t *pattern(size_t n)
{
	uint8_t *p = malloc(n);
	uint32_t x = 2463534242u;

	assert_non_null(p);
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t) x;
	}
	return p;
}

static int new_file(const char *path, const uint8_t *data, size_t n)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, data, n, 0), (ssize_t) n);
	return fd;
}

/* The @len bytes at @off of @from land at @off of @to, and nothing past them. */
static void check_copy(const char *from_path, const char *to_path)
{
	size_t n = (3u << 20) + 77, off = 4097, len = (2u << 20) + 3;
	uint8_t *data = pattern(n), *got = malloc(n);
	int from = new_file(from_path, data, n);
	int to = open(to_path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct stat sb;

	assert_true(to >= 0);
	assert_non_null(got);
	assert_ok(outfile_copy(to, from, 0, 5));
	assert_ok(outfile_copy(to, from, off, len));
	assert_int_equal(fstat(to, &sb), 0);
	assert_int_equal(sb.st_size, (off_t) (off + len));
	assert_int_equal(pread(to, got, off + len, 0), (ssize_t) (off + len));
	assert_memory_equal(got, data, 5);
	for (size_t i = 5; i < off; i++)
		assert_int_equal(got[i], 0); /* a hole: not copied */
	assert_memory_equal(got + off, data + off, len);
	/* a file shorter than asked: a failure, not a short copy */
	tk_error_clear();
	assert_int_equal(outfile_copy(to, from, n - 10, 20), TK_ERR_IO);
	assert_true(tk_error_count() > 0);
	tk_error_clear();
	close(from);
	close(to);
	free(data);
	free(got);
}

static void test_copy_range(void **state)
{
	char a[512], b[512];

	(void) state;
	check_copy(in_dir(a, sizeof(a), "from"), in_dir(b, sizeof(b), "to"));
}

/* Between two file systems of other kinds copy_file_range(2) refuses: the buffer copies. */
static void test_copy_range_across_file_systems(void **state)
{
	char a[512], b[512];
	struct stat sa, sb;

	(void) state;
	snprintf(a, sizeof(a), "/dev/shm/tk-outfile-%ld", (long) getpid());
	if (stat("/dev/shm", &sa) || stat(dir, &sb) || sa.st_dev == sb.st_dev ||
	    access("/dev/shm", W_OK))
		skip();
	check_copy(a, in_dir(b, sizeof(b), "to"));
	unlink(a);
}

/* outdir_empty(): everything below goes, nested directories included; the directory stays. */
static void test_outdir_empty(void **state)
{
	char path[512];
	int fd;

	(void) state;
	assert_int_equal(mkdir(in_dir(path, sizeof(path), "a"), 0755), 0);
	assert_int_equal(mkdir(in_dir(path, sizeof(path), "a/index"), 0755), 0);
	fd = open(in_dir(path, sizeof(path), "a/index/s.idx"), O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	fd = open(in_dir(path, sizeof(path), "metadata"), O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(symlink("a", in_dir(path, sizeof(path), "link")), 0);
	assert_int_equal(entries(), 3);
	outdir_empty(dir);
	assert_int_equal(entries(), 0);
	assert_int_equal(access(dir, F_OK), 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_named_only_when_committed),
		T(test_abort_leaves_old_file),
		T(test_sigkill_leaves_nothing),
		T(test_scratch_has_no_name),
		T(test_device_written_in_place),
		T(test_link_target_replaced),
		T(test_directory_refused),
		T(test_same_file),
		T(test_copy_range),
		T(test_copy_range_across_file_systems),
		T(test_outdir_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
