/* SPDX-License-Identifier: MIT */
/*
 * tk_ust_recover(): the complete packets a killed process left in its ring files
 * (TRACEKIT_UST_SHM_DIR, ust-ring.h) appended to its trace, as `tracekit ust-recover` does.
 * Part of libtracekit (not of the runtime): it reads files another process wrote.
 *
 * Everything is read and checked first (ring headers and packets, each trace's metadata
 * UUID, each stream file's packets); only then is anything written, each stream file as a new
 * file renamed over the old one (src/common/outfile.c), so damage fails the call with the
 * traces untouched and a recovery that is itself killed leaves every file whole.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracekit/ust-recover.h>

#include "../common/error.h"
#include "../common/outfile.h"
#include "../common/str.h"
#include "ust-ring.h"

/* A mapped file, read only; @len 0 maps nothing. */
struct rmap {
	int fd;
	const uint8_t *p;
	size_t len;
};

/* One ring file and what is to be done with it. */
struct ring {
	char *path;
	struct rmap file;
	struct ust_ring_info info;
	struct ust_ring_packet *pk;
	unsigned int n;
	int alive;
	char *stream_path;  /* the trace's stream file */
	struct rmap stream; /* its bytes, or fd -1 when there is none */
	uint64_t good;	    /* its whole packets' length */
	unsigned int first; /* pk[first..n) are to be appended */
	unsigned int trace; /* index in the traces */
	char *out_dir;	    /* the trace's copy, with an output directory */
};

struct recover {
	struct ring *rings;
	size_t n;
};

static void rmap_close(struct rmap *m)
{
	if (m->len)
		munmap((void *) m->p, m->len);
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
	m->p = NULL;
	m->len = 0;
}

/* Map @path; with @may_miss, a missing file gives fd -1 and TK_OK. */
static enum tk_status rmap_open(struct rmap *m, const char *path, int may_miss)
{
	struct stat sb;
	void *p;

	m->fd = open(path, O_RDONLY | O_CLOEXEC);
	m->p = NULL;
	m->len = 0;
	if (m->fd < 0) {
		if (may_miss && errno == ENOENT)
			return TK_OK;
		return TK_FAIL(TK_ERR_IO, "Cannot open file: path=%s, errno=%s", path,
			       strerror(errno));
	}
	if (fstat(m->fd, &sb) || !S_ISREG(sb.st_mode)) {
		rmap_close(m);
		return TK_FAIL(TK_ERR_IO, "Cannot open file: path=%s, reason=not a regular file",
			       path);
	}
	if (sb.st_size == 0)
		return TK_OK;
	p = mmap(NULL, (size_t) sb.st_size, PROT_READ, MAP_PRIVATE, m->fd, 0);
	if (p == MAP_FAILED) {
		int err = errno;

		rmap_close(m);
		return TK_FAIL(TK_ERR_IO, "Cannot map file: path=%s, errno=%s", path,
			       strerror(err));
	}
	m->p = p;
	m->len = (size_t) sb.st_size;
	return TK_OK;
}

static char *path_join(const char *dir, const char *name)
{
	char *s;

	return asprintf(&s, "%s/%s", dir, name) < 0 ? NULL : s;
}

/*
 * Whether the process that wrote @r still runs: its PID is taken, by a process that started
 * when it did, in this boot. A PID freed and taken again by another process is not it.
 */
static int process_alive(const struct ust_ring_info *r)
{
	static const uint8_t zero[16];
	uint8_t boot[16];
	uint64_t start;
	char state;

	if (memcmp(r->boot_id, zero, 16) && ust_boot_id(boot) == 0 && memcmp(boot, r->boot_id, 16))
		return 0;
	if (kill(r->pid, 0) && errno == ESRCH)
		return 0;
	start = ust_proc_start_time(r->pid, &state);
	if (state == 'Z' || state == 'X')
		return 0; /* dead, its parent has not waited for it yet */
	return !(r->start_time && start && start != r->start_time);
}

/*
 * The trace UUID of the metadata text at @p: the first `uuid = "..."` after `trace {`, as
 * the CTF writer puts it (the clocks' UUIDs come later). -1 when there is none.
 */
static int metadata_uuid(const uint8_t *p, size_t len, uint8_t out[16])
{
	static const char key[] = "uuid = \"";
	const size_t klen = sizeof(key) - 1;
	size_t i, at = len;

	for (i = 0; i + 7 <= len; i++)
		if (!memcmp(p + i, "trace {", 7)) {
			at = i + 7;
			break;
		}
	for (; at < len && len - at >= klen + 36; at++)
		if (!memcmp(p + at, key, klen))
			break;
	if (at >= len || len - at < klen + 36)
		return -1;
	return str_uuid_parse((const char *) p + at + klen, out);
}

/* The trace of @r has its metadata, of the ring's UUID. */
static enum tk_status check_trace(const struct ring *r)
{
	struct rmap m;
	uint8_t uuid[16];
	enum tk_status st;
	char *path = path_join(r->info.trace_dir, "metadata");

	if (!path)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot check trace: dir=%s", r->info.trace_dir);
	st = rmap_open(&m, path, 0);
	free(path);
	if (st < 0)
		return TK_FAIL(st, "Cannot check trace: dir=%s", r->info.trace_dir);
	if (metadata_uuid(m.p, m.len, uuid) < 0 || memcmp(uuid, r->info.uuid, 16))
		st = TK_FAIL(TK_ERR_FORMAT,
			     "Cannot check trace: dir=%s, reason=its metadata does not have the "
			     "ring's UUID",
			     r->info.trace_dir);
	rmap_close(&m);
	return st;
}

/* Read ring file @r->path and its header. */
static enum tk_status ring_read(struct ring *r)
{
	enum tk_status st = rmap_open(&r->file, r->path, 0);

	if (st < 0)
		return st;
	return ust_ring_parse(&r->info, r->file.p, r->file.len);
}

/* The complete packets of @r (a process that is gone: its rings no longer change). */
static enum tk_status ring_packets(struct ring *r)
{
	r->pk = calloc(r->info.count, sizeof(*r->pk));
	if (!r->pk)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read ring packets");
	return ust_ring_packets(&r->info, r->file.p, r->file.len, r->pk, &r->n);
}

/* Read the stream file @r's packets go to and choose those to append. */
static enum tk_status ring_plan(struct ring *r)
{
	uint64_t last = 0;
	int has_last = 0;
	enum tk_status st;

	r->stream_path = path_join(r->info.trace_dir, r->info.stream);
	if (!r->stream_path)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot plan recovery");
	st = rmap_open(&r->stream, r->stream_path, 1);
	if (st >= 0 && r->stream.len)
		st = ust_stream_scan(r->stream.p, r->stream.len, r->info.order, r->info.uuid,
				     &r->good, &has_last, &last);
	if (st < 0)
		return TK_FAIL(st, "Cannot read stream file: path=%s", r->stream_path);
	for (r->first = 0; has_last && r->first < r->n && r->pk[r->first].seq <= last; r->first++)
		;
	return TK_OK;
}

static enum tk_status write_at(int fd, const uint8_t *p, uint64_t n, uint64_t off, const char *path)
{
	while (n) {
		ssize_t k = pwrite(fd, p, n, (off_t) off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return TK_FAIL(TK_ERR_IO, "Cannot write stream file: path=%s, errno=%s",
				       path, k < 0 ? strerror(errno) : "no progress");
		p += k;
		n -= (uint64_t) k;
		off += (uint64_t) k;
	}
	return TK_OK;
}

/* The stream file's whole packets, then the ring's new ones, into @fd. */
static enum tk_status stream_write(const struct ring *r, int fd, const char *path)
{
	uint64_t off = r->good;
	enum tk_status st = TK_OK;
	unsigned int i;

	if (r->good)
		st = outfile_copy(fd, r->stream.fd, 0, r->good);
	if (!r->good && r->first < r->n && r->pk[r->first].seq > 0) {
		/* a new stream begins with packet 0, as the consumer and snapshots begin it */
		uint8_t p0[92];

		ust_ring_packet0(&r->info, r->file.p + r->pk[r->first].off, p0);
		st = write_at(fd, p0, sizeof(p0), 0, path);
		off = sizeof(p0);
	}
	for (i = r->first; i < r->n && st >= 0; i++) {
		st = write_at(fd, r->file.p + r->pk[i].off, r->pk[i].size, off, path);
		off += r->pk[i].size;
	}
	return st;
}

/* Write the stream file of @r under @path (a new file renamed over the old one). */
static enum tk_status stream_replace(const struct ring *r, const char *path)
{
	struct outfile of = OUTFILE_INIT;
	enum tk_status st = outfile_open(&of, path);

	if (st >= 0)
		st = stream_write(r, of.fd, path);
	if (st >= 0)
		st = outfile_commit(&of);
	if (st < 0) {
		outfile_abort(&of);
		return TK_FAIL(st, "Cannot write stream file: path=%s", path);
	}
	return TK_OK;
}

/* Copy the file @name of directory @from to @to, whole. */
static enum tk_status copy_file(const char *from, const char *to, const char *name)
{
	char *src = path_join(from, name), *dst = path_join(to, name);
	enum tk_status st = TK_OK;
	struct rmap m = {-1, NULL, 0};
	int fd = -1;

	if (!src || !dst)
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot copy file: name=%s", name);
	if (st >= 0)
		st = rmap_open(&m, src, 0);
	if (st >= 0) {
		fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0)
			st = TK_FAIL(TK_ERR_IO, "Cannot create file: path=%s, errno=%s", dst,
				     strerror(errno));
	}
	if (st >= 0 && m.len)
		st = outfile_copy(fd, m.fd, 0, m.len);
	if (fd >= 0 && close(fd) && st >= 0)
		st = TK_FAIL(TK_ERR_IO, "Cannot close file: path=%s, errno=%s", dst,
			     strerror(errno));
	rmap_close(&m);
	free(src);
	free(dst);
	return st;
}

/*
 * The trace of rings @first.. (those with the same trace index) copied to @out: metadata and
 * every stream file, those with a ring written with its recovered packets.
 */
static enum tk_status trace_copy(struct recover *rc, size_t first, const char *out)
{
	const char *dir = rc->rings[first].info.trace_dir;
	struct outdir od = OUTDIR_INIT;
	enum tk_status st;
	struct dirent *de;
	DIR *d = NULL;
	size_t i;

	st = outdir_open(&od, out);
	if (st >= 0 && !(d = opendir(dir)))
		st = TK_FAIL(TK_ERR_IO, "Cannot read trace directory: dir=%s, errno=%s", dir,
			     strerror(errno));
	while (st >= 0 && (de = readdir(d))) {
		struct stat sb;
		char *p;
		int ours = 0;

		if (de->d_name[0] == '.')
			continue;
		for (i = first; i < rc->n; i++)
			if (!rc->rings[i].alive && rc->rings[i].trace == rc->rings[first].trace &&
			    !strcmp(rc->rings[i].info.stream, de->d_name))
				ours = 1;
		if (ours)
			continue; /* written below */
		p = path_join(dir, de->d_name);
		if (p && !stat(p, &sb) && S_ISREG(sb.st_mode))
			st = copy_file(dir, od.tmp, de->d_name);
		free(p);
	}
	if (d)
		closedir(d);
	for (i = first; i < rc->n && st >= 0; i++) {
		struct ring *r = &rc->rings[i];
		char *p;

		if (r->alive || r->trace != rc->rings[first].trace)
			continue;
		p = path_join(od.tmp, r->info.stream);
		if (!p)
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot write stream file");
		else
			st = stream_replace(r, p);
		free(p);
	}
	if (st >= 0)
		st = outdir_commit(&od);
	if (st < 0) {
		outdir_abort(&od);
		return TK_FAIL(st, "Cannot copy trace: dir=%s, output=%s", dir, out);
	}
	return TK_OK;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The names of @dir's ring files, sorted, in *@out (*@n of them). */
static enum tk_status list_rings(const char *dir, char ***out, size_t *n)
{
	size_t cap = 0, k = 0, len, sl = strlen(UST_RING_SUFFIX);
	char **names = NULL, **grown;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return TK_FAIL(TK_ERR_IO, "Cannot read ring directory: dir=%s, errno=%s", dir,
			       strerror(errno));
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len <= sl ||
		    strcmp(de->d_name + len - sl, UST_RING_SUFFIX))
			continue;
		if (k == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(names, cap * sizeof(*names));
			if (!grown)
				break;
			names = grown;
		}
		if (!(names[k] = path_join(dir, de->d_name)))
			break;
		k++;
	}
	closedir(d);
	if (de) {
		while (k)
			free(names[--k]);
		free(names);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read ring directory: dir=%s", dir);
	}
	if (k)
		qsort(names, k, sizeof(*names), name_cmp);
	*out = names;
	*n = k;
	return TK_OK;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* Give each ring its trace's index, and with @out_dir the trace's copy's path. */
static enum tk_status group_traces(struct recover *rc, const char *out_dir)
{
	size_t i, j;
	unsigned int traces = 0;

	for (i = 0; i < rc->n; i++) {
		struct ring *r = &rc->rings[i];

		if (r->alive)
			continue;
		for (j = 0; j < i; j++)
			if (!rc->rings[j].alive &&
			    !strcmp(rc->rings[j].info.trace_dir, r->info.trace_dir))
				break;
		if (j < i) {
			r->trace = rc->rings[j].trace;
			continue;
		}
		r->trace = traces++;
		if (!out_dir)
			continue;
		for (j = 0; j < i; j++)
			if (rc->rings[j].out_dir && !strcmp(base_name(rc->rings[j].info.trace_dir),
							    base_name(r->info.trace_dir)))
				return TK_FAIL(TK_ERR_INVAL,
					       "Cannot copy traces: name=%s, reason=two traces of "
					       "that name",
					       base_name(r->info.trace_dir));
		r->out_dir = path_join(out_dir, base_name(r->info.trace_dir));
		if (!r->out_dir)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot copy traces");
	}
	return TK_OK;
}

static void recover_free(struct recover *rc)
{
	size_t i;

	for (i = 0; i < rc->n; i++) {
		struct ring *r = &rc->rings[i];

		rmap_close(&r->file);
		rmap_close(&r->stream);
		free(r->path);
		free(r->pk);
		free(r->stream_path);
		free(r->out_dir);
	}
	free(rc->rings);
}

TK_EXPORT enum tk_status tk_ust_recover(const char *shm_dir, const struct tk_ust_recover_opts *opts)
{
	struct tk_ust_recover_opts o = TK_UST_RECOVER_OPTS_INIT;
	struct recover rc = {NULL, 0};
	enum tk_status st;
	char **names = NULL;
	size_t i, n = 0;

	error_reset();
	TK_ASSERT_PRE(shm_dir);
	if (opts)
		memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
	st = list_rings(shm_dir, &names, &n);
	if (st < 0)
		return st;
	rc.rings = calloc(n ? n : 1, sizeof(*rc.rings));
	if (!rc.rings) {
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot recover rings");
		goto out;
	}
	/* read and check everything before writing anything */
	for (i = 0; i < n; i++) {
		struct ring *r = &rc.rings[rc.n++];

		r->path = names[i];
		names[i] = NULL;
		r->file.fd = r->stream.fd = -1;
		st = ring_read(r);
		if (st < 0) {
			st = TK_FAIL(st, "Cannot read ring file: path=%s", r->path);
			goto out;
		}
		r->alive = !o.force && process_alive(&r->info);
		if (r->alive)
			continue;
		st = ring_packets(r);
		if (st < 0) {
			st = TK_FAIL(st, "Cannot read ring file: path=%s", r->path);
			goto out;
		}
		st = check_trace(r);
		if (st >= 0)
			st = ring_plan(r);
		if (st < 0) {
			st = TK_FAIL(st, "Cannot recover ring file: path=%s", r->path);
			goto out;
		}
	}
	st = group_traces(&rc, o.out_dir);
	if (st >= 0 && o.out_dir) {
		for (i = 0; i < rc.n && st >= 0; i++)
			if (rc.rings[i].out_dir)
				st = trace_copy(&rc, i, rc.rings[i].out_dir);
	}
	for (i = 0; i < rc.n && st >= 0 && !o.out_dir; i++) {
		struct ring *r = &rc.rings[i];

		if (!r->alive && (r->first < r->n || r->good < r->stream.len))
			st = stream_replace(r, r->stream_path);
	}
	if (st < 0)
		goto out;
	for (i = 0; i < rc.n; i++) {
		struct ring *r = &rc.rings[i];
		struct tk_ust_recover_ring rep = {r->path,
						  r->info.trace_dir,
						  r->info.stream,
						  r->info.pid,
						  r->info.tid,
						  r->alive,
						  0,
						  0,
						  0};

		if (!r->alive) {
			size_t j;

			for (j = 0; j < i && o.out_dir; j++)
				if (rc.rings[j].out_dir && rc.rings[j].trace == r->trace)
					break;
			if (o.out_dir)
				rep.trace_dir = j < i ? rc.rings[j].out_dir : r->out_dir;
			rep.packets = r->n - r->first;
			rep.present = r->first;
			rep.cut = r->stream.len - r->good;
			if (!o.keep && !o.out_dir && unlink(r->path) && st >= 0)
				st = TK_FAIL(TK_ERR_IO,
					     "Cannot remove ring file: path=%s, errno=%s", r->path,
					     strerror(errno));
		}
		if (o.report)
			o.report(&rep, o.payload);
	}
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	recover_free(&rc);
	return st;
}
