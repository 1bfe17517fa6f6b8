// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for what the in-memory harnesses cannot reach: trace directories. Discovery
 * (nested folders, symbolic links, loops, unreadable entries), metadata files, several stream
 * files, LTTng index files, UUID groups and streams of several files are read from a real
 * tree, built under a per-process temporary directory from the input, opened with the public
 * API as `tracekit print DIR` does, every event printed into /dev/null (and its perf-decode
 * JSON made, which typed EventHeader classes write from their values), converted to CTF as
 * `tracekit convert DIR -o OUT` does (a copy of the files, when it applies) and as `convert
 * --generic` does, the two compared, then removed.
 *
 * Input: a sequence of entries, each
 *
 *	u8 kind | u8 name length N | N name bytes | u16 LE data length L | L data bytes
 *
 * kind % 3: 0 a directory, 1 a regular file holding the data, 2 a symbolic link whose target
 * is the data. A name is a path below the tree's root: each byte picks one component from
 * the table below ("metadata", "index", stream and index file names, plain names), so the
 * fuzzer writes trees, not strings. A link target is made the same way from its data bytes,
 * with "." and ".." too, but never climbs above the root: a link may loop, never leave the
 * tree. Entries whose parent is missing are created with their parents; an entry whose name
 * is taken is skipped. Work is capped: 48 entries, 8 components, 256 KiB per file and 1 MiB
 * in all, 20000 events.
 *
 * Seeds (corpus/ctf-dir): make-dir-seeds.py. It must never crash, hang, leak or print.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracekit/tracekit.h>

#include "common/vec.h"
#include "model/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
	MAX_ENTRIES = 48,
	MAX_DEPTH = 8,
	MAX_FILE = 256 << 10,
	MAX_TOTAL = 1 << 20,
	MAX_EVENTS = 20000,
};

/* Path components: what CTF and LTTng trees are made of. "." and ".." only in link targets. */
static const char *const names[] = {
	"metadata",	"index",      "stream_0",   "stream_1", "chan_0", "chan_1", "stream_0.idx",
	"stream_1.idx", "chan_0.idx", "chan_1.idx", "a",	"b",	  "kernel", "ust",
	"uid",		"64-bit",     ".hidden",    "x",	".",	  "..",
};
#define N_PLAIN (sizeof(names) / sizeof(names[0]) - 2) /* without "." and ".." */

static char root[2048], tree[2051]; /* the temporary directory, and "<root>/t" in it */
static int devnull = -1;

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void) sb;
	(void) flag;
	(void) ftw;
	remove(path);
	return 0;
}

/* Remove the tree: depth first, links removed as links (FTW_PHYS). */
static void clear_tree(void)
{
	nftw(tree, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_root(void)
{
	clear_tree();
	rmdir(root);
}

/* The path of @n component bytes below the root into @out; 0, or -1 when not creatable. */
static int make_path(const uint8_t *p, size_t n, char *out, size_t size)
{
	size_t len = (size_t) snprintf(out, size, "%s", tree), i;

	if (n == 0 || n > MAX_DEPTH)
		return -1;
	for (i = 0; i < n; i++) {
		const char *c = names[p[i] % N_PLAIN];
		int k = snprintf(out + len, size - len, "/%s", c);

		if (k < 0 || (size_t) k >= size - len)
			return -1;
		len += (size_t) k;
	}
	return 0;
}

/* mkdir -p of the directories above @path. */
static void make_parents(char *path)
{
	char *s = path + strlen(tree);

	while ((s = strchr(s + 1, '/'))) {
		*s = '\0';
		(void) mkdir(path, 0755);
		*s = '/';
	}
}

/*
 * A relative link target from @n component bytes, for a link in a directory @depth levels
 * below the tree's root (its real depth, links resolved). Leading ".." components climb at
 * most @depth levels; after the first other component, ".." is left out, since a component
 * may itself be a link to a shallower place and ".." after it would climb from there. So a
 * link never leaves the tree, whatever links it goes through.
 */
static void make_target(const uint8_t *p, size_t n, size_t depth, char *out, size_t size)
{
	size_t len = 0, i, up = 0;
	int descended = 0;

	out[0] = '\0';
	for (i = 0; i < n && i < MAX_DEPTH; i++) {
		const char *c = names[p[i] % (sizeof(names) / sizeof(names[0]))];
		int k;

		if (!strcmp(c, "..")) {
			if (descended || up == depth)
				continue;
			up++;
		} else if (strcmp(c, ".")) {
			descended = 1;
		}
		k = snprintf(out + len, size - len, "%s%s", len ? "/" : "", c);
		if (k < 0 || (size_t) k >= size - len)
			break;
		len += (size_t) k;
	}
	if (!len)
		snprintf(out, size, ".");
}

/*
 * How many levels the directory holding @path lies below the tree's root, links resolved;
 * -1 if it is not in the tree.
 */
static long real_depth(const char *path)
{
	char dir[4096], *slash, *real;
	size_t tl = strlen(tree);
	long depth = 0;
	const char *s;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	real = realpath(dir, NULL);
	if (!real)
		return -1;
	if (strncmp(real, tree, tl) || (real[tl] != '\0' && real[tl] != '/')) {
		free(real);
		return -1;
	}
	for (s = real + tl; *s; s++)
		depth += *s == '/';
	free(real);
	return depth;
}

static void write_file(const char *path, const uint8_t *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return;
	while (len) {
		ssize_t w = write(fd, data, len);

		if (w <= 0)
			break;
		data += w;
		len -= (size_t) w;
	}
	close(fd);
}

/* Build the tree the input describes. */
static void build_tree(const uint8_t *data, size_t size)
{
	size_t off = 0, total = 0, entries = 0;
	char path[4096], target[512];

	(void) mkdir(tree, 0755);
	while (off + 2 <= size && entries++ < MAX_ENTRIES) {
		unsigned int kind = data[off] % 3;
		size_t n = data[off + 1], len;
		const uint8_t *name = data + off + 2, *body;

		if (n > size - off - 2 || size - off - 2 - n < 2)
			break;
		len = (size_t) data[off + 2 + n] | (size_t) data[off + 3 + n] << 8;
		body = data + off + 4 + n;
		if (len > size - off - 4 - n)
			len = size - off - 4 - n;
		off += 4 + n + len;
		if (make_path(name, n, path, sizeof(path)) < 0)
			continue;
		make_parents(path);
		switch (kind) {
		case 0:
			(void) mkdir(path, 0755);
			break;
		case 1:
			if (len > MAX_FILE || len > MAX_TOTAL - total)
				break;
			total += len;
			write_file(path, body, len);
			break;
		case 2: {
			long depth = real_depth(path);

			if (depth < 0)
				break;
			make_target(body, len, (size_t) depth, target, sizeof(target));
			(void) symlink(target, path);
			break;
		}
		}
	}
}

static void ignore_warning(const char *text, void *payload)
{
	(void) text;
	(void) payload;
}

static void print_notice(const struct tk_notice *n, void *payload)
{
	tk_printer_print_notice(payload, n);
}

/* What `tracekit print DIR` does, output into /dev/null. */
static void read_tree(void)
{
	struct tk_trace_opts topts = TK_TRACE_OPTS_INIT;
	struct tk_print_opts po = TK_PRINT_OPTS_INIT;
	struct tk_trace *trace = NULL;
	struct tk_printer *pr = NULL;
	struct tk_iter *it = NULL;
	const struct tk_event *ev;
	const char *paths[1] = {tree};
	unsigned int events = 0;
	int64_t seek = 0;
	int has_seek = 0;
	const struct model_text_ops *text;
	struct vec json = VEC_INIT;

	topts.warning = ignore_warning;
	po.out_fd = devnull;
	po.err_fd = devnull;
	if (tk_trace_open(&trace, paths, 1, &topts) < 0)
		return;
	if (tk_printer_open(&pr, &po) < 0 || tk_iter_create(&it, trace) < 0)
		goto out;
	tk_iter_set_notice_cb(it, print_notice, pr);
	if (tk_printer_begin(pr, trace) < 0)
		goto out;
	while (events++ < MAX_EVENTS && tk_iter_next(it, &ev) == TK_OK) {
		if (events == 8 && ev->has_ts) {
			has_seek = 1;
			seek = ev->ns;
		}
		(void) tk_printer_print(pr, ev);
		text = ev->stream->source->ops->text;
		if (text && text->decode_json) { /* perf-decode JSON: typed EventHeader events */
			json.len = 0;
			(void) text->decode_json(ev, events & 1 ? MODEL_DECODE_SPACE : 0, &json);
		}
	}
	/* the same again through a time window, which seeks to its packets */
	tk_iter_destroy(it);
	it = NULL;
	if (has_seek && tk_iter_create(&it, trace) == TK_OK) {
		model_iter_set_window(it, 1, seek, 1, seek + (INT64_C(1) << 24));
		tk_iter_set_notice_cb(it, print_notice, pr);
		for (events = 0; events++ < MAX_EVENTS && tk_iter_next(it, &ev) == TK_OK;)
			(void) tk_printer_print(pr, ev);
	}
out:
	vec_fini(&json);
	tk_iter_destroy(it);
	tk_printer_close(pr);
	tk_trace_close(trace);
}

static void remove_out(const char *out)
{
	nftw(out, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The events of the traces below @path (at most MAX_EVENTS), or -1 when they fail to read. */
static long count_events(const char *path)
{
	struct tk_trace_opts topts = TK_TRACE_OPTS_INIT;
	struct tk_trace *trace = NULL;
	struct tk_iter *it = NULL;
	const struct tk_event *ev;
	const char *paths[1] = {path};
	enum tk_status st = TK_OK;
	long n = 0;

	topts.warning = ignore_warning;
	if (tk_trace_open(&trace, paths, 1, &topts) < 0)
		return -1;
	if (tk_iter_create(&it, trace) == TK_OK)
		while (n < MAX_EVENTS && (st = tk_iter_next(it, &ev)) == TK_OK)
			n++;
	else
		st = TK_ERR_NOMEM;
	tk_iter_destroy(it);
	tk_trace_close(trace);
	return st < 0 ? -1 : n;
}

/*
 * What `tracekit convert DIR -o OUT` does, which copies CTF traces file by file when it can
 * (src/ctf/ctf-copy.c), and the same through the CTF writer (`--generic`): both must succeed
 * or both fail (the copy reads what it copies as the writer's path reads it), and two
 * outputs must read back alike, as many events in each.
 */
static void convert_tree(void)
{
	struct tk_convert_opts co = TK_CONVERT_OPTS_INIT;
	const char *paths[1] = {tree};
	char copy[4096], generic[4096];
	enum tk_status a, b;

	snprintf(copy, sizeof(copy), "%s/copy", root);
	snprintf(generic, sizeof(generic), "%s/generic", root);
	co.to = TK_CONVERT_CTF;
	a = tk_convert(paths, 1, copy, &co);
	co.flags = TK_CONVERT_GENERIC;
	b = tk_convert(paths, 1, generic, &co);
	if ((a < 0) != (b < 0))
		__builtin_trap();
	if (a >= 0 && count_events(copy) != count_events(generic))
		__builtin_trap();
	remove_out(copy);
	remove_out(generic);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!root[0]) {
		const char *tmp = getenv("TMPDIR");
		char made[4096], *real;

		snprintf(made, sizeof(made), "%s/fuzz-ctf-dir-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(made) || !(real = realpath(made, NULL)))
			return 0;
		if (strlen(real) >= sizeof(root)) {
			rmdir(real);
			free(real);
			return 0;
		}
		/* links resolved, as real_depth() compares resolved paths with it */
		memcpy(root, real, strlen(real) + 1);
		memcpy(tree, root, strlen(root));
		memcpy(tree + strlen(root), "/t", 3);
		free(real);
		atexit(remove_root);
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	}
	if (size > (2u << 20) || devnull < 0)
		return 0;
	clear_tree();
	build_tree(data, size);
	read_tree();
	convert_tree();
	clear_tree();
	return 0;
}
