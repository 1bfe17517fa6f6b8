// SPDX-License-Identifier: MIT
/*
 * CTF to CTF by copy (tk_convert() with TK_CONVERT_CTF from CTF traces, nothing selected):
 * each trace's metadata file, data stream files and sound LTTng index files (index/NAME.idx)
 * copied byte for byte to where the CTF sink would write that trace (ctf_sink_out_dir(), so
 * the directory layout below the input is kept), instead of every event being decoded into
 * values and encoded again by the sink. Readers read the copy as they read the input, and
 * as they read what the sink writes: the sink's own path gives the same events, times,
 * losses and names, in a trace of its own making.
 *
 * The input may be damaged, and the copy must fail where the sink's path fails, so nothing is
 * written that was not read first as the conversion reads it: each stream is read to its end
 * by ctf_stream_read() (packet headers and contexts against the file and its index, losses,
 * every event header, bodies of fixed size skipped, the others decoded, times never going
 * back), and a stream of one file is copied up to the end of its last packet read, a few MiB
 * at a time, so its pages are still in the page cache; a file of a stream of several files
 * (which are read in time order) once the stream is read whole, and an index file once its
 * data file is. Streams are read and copied by worker threads, one per core up to
 * CP_THREADS, largest first; CPU time per event is what reading the stream costs, and memory
 * stays flat (the reader maps and releases, copy_file_range(2) copies in the kernel).
 *
 * ctf_copy_recognises() takes only what the copy writes as the sink's path would: one input,
 * every source a CTF trace of the CTF reader in one directory (not the chunks of an LTTng
 * session rotation, which the reader merges into one trace that the sink writes once), its
 * metadata read without a warning or a tolerance (the sink writes metadata babeltrace2 reads
 * without a word; a copy would keep what it warns about), and nothing selected. Then
 * ctf_copy() asks what the sink's path would refuse before reading an event: streams whose
 * clocks cannot be read together (model_trace_check_clocks()), and classes or streams the
 * sink cannot declare, which it learns by opening the sink itself on the output and dropping
 * it (the sink, not a second list here, knows what the writer takes). Whenever the copy
 * cannot go on -- that, or a stream that fails to read, or a file that fails to copy -- it
 * removes what it wrote and returns TK_AGAIN: the sink's own path then runs and fails with
 * its own causes where it fails (or writes a trace, when the copy was stricter). Only a stop
 * the caller asked for ends it as a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/error.h"
#include "../common/outfile.h"
#include "../common/worker.h"
#include "../model/filter.h"
#include "../model/sink.h"
#include "ctf-sink.h"
#include "ctf.h"

/* Bytes read and not yet copied before a stream of one file copies them. */
#define CP_CHUNK (4u << 20)

/*
 * Threads reading and copying at once, the caller's included. Each maps the part of its
 * file the reader has not released yet (8 MiB and a packet at most, src/common/mfile.c), so
 * memory stays flat only with a bound that does not grow with the cores; past a few threads
 * the copy waits for the disk anyway.
 */
#define CP_THREADS 4

/* One file of a stream, and its copy. */
struct cp_file {
	const char *in;	     /* borrowed from the reader */
	char *out;	     /* where it goes */
	char *idx_in;	     /* its index file, when sound, else NULL */
	char *idx_out;	     /* where that goes */
	int from, to;	     /* open while being copied, else -1 */
	uint64_t size, done; /* bytes in all, bytes copied */
};

/* One stream: the unit of work of a thread. */
struct cp_job {
	struct tk_stream *s;
	struct cp_file *files;
	size_t n_files;
	uint64_t bytes;
	enum tk_status st;
};

struct cp {
	struct cp_job *jobs;
	size_t n_jobs;
	atomic_size_t next;	    /* the next job to take */
	atomic_uint_least64_t done; /* bytes copied, by every thread */
	uint64_t total;
	atomic_int failed; /* a job failed or stopped: the others stop at their next packet */
	const volatile sig_atomic_t *stop;
	const struct tk_convert_opts *o;
};

/* A thread at work on a job. */
struct cp_run {
	struct cp *c;
	struct cp_job *job;
	int reports; /* the caller's thread: it may call the progress callback */
};

/* ---- what the copy takes ---------------------------------------------------------------- */

/* Whether @path is a file directly in directory @dir. */
static int directly_in(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/' && path[n + 1] &&
	       !strchr(path + n + 1, '/');
}

int ctf_copy_recognises(const struct tk_trace *t, const struct sink_ctx *cx)
{
	const struct tk_source *src;
	size_t i, j, k;

	if (!model_filter_all(cx->tf) || cx->n_inputs != 1 || !t->n_sources)
		return 0;
	for (i = 0; i < t->n_sources; i++) {
		const struct ctf_trace *ct;

		src = t->sources[i];
		if (!ctf_source_is(src) || !src->path)
			return 0;
		ct = src->fmt;
		if (ct->n_warnings || (ct->metadata_flags & CTF_METADATA_LENIENT))
			return 0;
		if (ct->ctf2) /* the sink writes CTF 1.8, which more tools read */
			return 0;
		for (j = 0; j < src->n_streams; j++) {
			const char *path;
			uint64_t size;
			int indexed;

			for (k = 0; ctf_stream_file(src->streams[j], k, &path, &size, &indexed);
			     k++)
				if (!path || !directly_in(path, src->path))
					return 0; /* in memory, or another chunk of the trace */
		}
	}
	return 1;
}

/*
 * Whether the sink's path takes @t as far as its classes and streams go: it opens the sink on
 * @output and drops it, leaving @output empty. A failure is the sink's, with its causes.
 */
static enum tk_status sink_takes(struct tk_trace *t, const char *output, struct sink_ctx *cx)
{
	void *state = NULL;
	enum tk_status st = ctf_sink.open(&state, t, output, cx);

	if (st >= 0) {
		size_t depth = error_depth();

		(void) ctf_sink.close(state, TK_ERR_CANCELED); /* dropped, not finished */
		error_truncate(depth);
	}
	outdir_empty(output);
	return st;
}

/* ---- the plan: jobs, files and paths ------------------------------------------------------ */

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* "@dir/@a@b@c", malloc'ed. */
static char *join(const char *dir, const char *a, const char *b, const char *c)
{
	size_t n = strlen(dir) + strlen(a) + strlen(b) + strlen(c) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s%s%s", dir, a, b, c);
	return p;
}

/* The paths of file @f (@in, its index if @indexed), its copy to go into @dst. */
static enum tk_status plan_file(struct cp_file *f, const char *in, uint64_t size, int indexed,
				const char *dst, int *has_index)
{
	const char *name = base_name(in);
	size_t dir_len = (size_t) (name - in) - 1;

	f->in = in;
	f->size = size;
	f->from = f->to = -1;
	f->out = join(dst, name, "", "");
	if (f->out && indexed) {
		char *dir = strndup(in, dir_len);

		f->idx_in = dir ? join(dir, "index/", name, ".idx") : NULL;
		f->idx_out = join(dst, "index/", name, ".idx");
		free(dir);
		*has_index = 1;
	}
	if (!f->out || (indexed && (!f->idx_in || !f->idx_out)))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot plan copy: path=%s", in);
	return TK_OK;
}

static int cmp_job_bytes(const void *a, const void *b)
{
	const struct cp_job *x = a, *y = b;

	return x->bytes > y->bytes ? -1 : x->bytes < y->bytes;
}

static enum tk_status copy_whole(const char *from, const char *to);

/*
 * The jobs of source @src, to be copied into @dst (made here, with index/ when a file has a
 * sound index, and the metadata file copied), appended at c->jobs + *@n.
 */
static enum tk_status plan_source(struct cp *c, const struct tk_source *src, const char *dst,
				  size_t *n)
{
	char *meta_in = join(src->path, "metadata", "", ""),
	     *meta_out = join(dst, "metadata", "", "");
	enum tk_status st = meta_in && meta_out ? outfile_make_dirs(dst)
						: TK_FAIL(TK_ERR_NOMEM, "Cannot plan copy");
	int has_index = 0;
	size_t i, k;

	if (st >= 0)
		st = copy_whole(meta_in, meta_out);
	free(meta_in);
	free(meta_out);
	for (i = 0; i < src->n_streams && st >= 0; i++) {
		struct cp_job *job = &c->jobs[(*n)++];
		const char *path;
		uint64_t size;
		int indexed;

		job->s = src->streams[i];
		for (k = 0; ctf_stream_file(job->s, k, &path, &size, &indexed); k++)
			;
		job->files = calloc(k + 1, sizeof(*job->files));
		if (!job->files)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot plan copy: files=%zu", k);
		for (k = 0; st >= 0 && ctf_stream_file(job->s, k, &path, &size, &indexed); k++) {
			st = plan_file(&job->files[k], path, size, indexed, dst, &has_index);
			job->n_files = k + 1;
			job->bytes += size;
			c->total += size;
		}
	}
	if (st >= 0 && has_index) {
		char *idx = join(dst, "index", "", "");

		st = idx ? outfile_make_dirs(idx) : TK_FAIL(TK_ERR_NOMEM, "Cannot plan copy");
		free(idx);
	}
	return st;
}

static enum tk_status plan(struct cp *c, struct tk_trace *t, const char *output,
			   const struct sink_ctx *cx)
{
	enum tk_status st = TK_OK;
	size_t i, n = 0;

	c->jobs = calloc(t->n_streams + 1, sizeof(*c->jobs));
	if (!c->jobs)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot plan copy: streams=%zu", t->n_streams);
	for (i = 0; i < t->n_sources && st >= 0; i++) {
		char *dst = ctf_sink_out_dir(t->sources[i], cx->inputs, cx->n_inputs, output,
					     t->n_sources);

		st = dst ? plan_source(c, t->sources[i], dst, &n)
			 : TK_FAIL(TK_ERR_NOMEM, "Cannot plan copy");
		free(dst);
		c->n_jobs = n;
	}
	if (c->n_jobs > 1)
		qsort(c->jobs, c->n_jobs, sizeof(*c->jobs), cmp_job_bytes);
	return st;
}

static void cp_free(struct cp *c)
{
	size_t i, k;

	for (i = 0; i < c->n_jobs; i++) {
		for (k = 0; c->jobs[i].files && k < c->jobs[i].n_files; k++) {
			struct cp_file *f = &c->jobs[i].files[k];

			if (f->from >= 0)
				close(f->from);
			if (f->to >= 0)
				close(f->to);
			free(f->out);
			free(f->idx_in);
			free(f->idx_out);
		}
		free(c->jobs[i].files);
	}
	free(c->jobs);
}

/* ---- copying -------------------------------------------------------------------------------- */

/* A new file @path for the copy, 0666 less the umask; -1 with a cause. */
static int create_out(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);

	if (fd < 0)
		(void) TK_FAIL(TK_ERR_IO, "Cannot create file: path=%s, errno=%s", path,
			       strerror(errno));
	return fd;
}

/* The whole of a small file (metadata, an index) at @from into the new file @to. */
static enum tk_status copy_whole(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	enum tk_status st;
	struct stat sb;

	if (in < 0 || fstat(in, &sb) < 0) {
		st = TK_FAIL(TK_ERR_IO, "Cannot read file: path=%s, errno=%s", from,
			     strerror(errno));
		if (in >= 0)
			close(in);
		return st;
	}
	out = create_out(to);
	st = out < 0 ? TK_ERR_IO : outfile_copy(out, in, 0, (uint64_t) sb.st_size);
	if (out >= 0 && close(out) < 0 && st >= 0)
		st = TK_FAIL(TK_ERR_IO, "Cannot write file: path=%s, errno=%s", to,
			     strerror(errno));
	close(in);
	if (st < 0)
		return TK_FAIL(st, "Cannot copy file: path=%s, to=%s", from, to);
	return TK_OK;
}

/* Copy the bytes of @f from what it copied up to @end; a file copied whole is closed. */
static enum tk_status copy_part(struct cp_run *r, struct cp_file *f, uint64_t end)
{
	enum tk_status st;

	if (f->from < 0) {
		f->from = open(f->in, O_RDONLY | O_CLOEXEC);
		if (f->from < 0)
			return TK_FAIL(TK_ERR_IO, "Cannot read file: path=%s, errno=%s", f->in,
				       strerror(errno));
		f->to = create_out(f->out);
		if (f->to < 0)
			return TK_ERR_IO;
	}
	st = outfile_copy(f->to, f->from, f->done, end - f->done);
	if (st < 0)
		return TK_FAIL(st, "Cannot copy file: path=%s, to=%s", f->in, f->out);
	atomic_fetch_add_explicit(&r->c->done, end - f->done, memory_order_relaxed);
	f->done = end;
	if (end < f->size)
		return TK_OK;
	close(f->from);
	f->from = -1;
	st = close(f->to) < 0 ? TK_FAIL(TK_ERR_IO, "Cannot write file: path=%s, errno=%s", f->out,
					strerror(errno))
			      : TK_OK;
	f->to = -1;
	if (st >= 0 && f->idx_in) /* the index agreed with every packet read */
		st = copy_whole(f->idx_in, f->idx_out);
	return st;
}

/* ctf_read_cb: the bytes of file @k before @end are read; copy them when there are enough. */
static enum tk_status on_read(void *payload, size_t k, uint64_t end)
{
	struct cp_run *r = payload;
	struct cp *c = r->c;
	struct cp_file *f;
	enum tk_status st;

	if ((c->stop && *c->stop) || atomic_load_explicit(&c->failed, memory_order_relaxed))
		return TK_ERR_CANCELED; /* the cause is the caller's (ctf_copy()) */
	if (k >= r->job->n_files || end > r->job->files[k].size)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot copy stream: path=%s, file=%zu",
			       r->job->s->path, k);
	f = &r->job->files[k];
	if (end <= f->done || (end - f->done < CP_CHUNK && end < f->size))
		return TK_OK;
	st = copy_part(r, f, end);
	if (st >= 0 && r->reports && c->o->progress)
		c->o->progress(atomic_load_explicit(&c->done, memory_order_relaxed), c->total,
			       c->o->payload);
	return st;
}

/* Take jobs until none is left, or one failed. */
static void take_jobs(struct cp *c, int reports)
{
	struct cp_run r = {c, NULL, reports};
	size_t i;

	while ((i = atomic_fetch_add(&c->next, 1)) < c->n_jobs) {
		if (atomic_load(&c->failed))
			break;
		r.job = &c->jobs[i];
		r.job->st = ctf_stream_read(r.job->s, on_read, &r);
		if (r.job->st < 0)
			atomic_store(&c->failed, 1);
	}
}

struct cp_worker {
	struct worker wk;
	struct cp *c;
	int stop; /* set by worker_stop(): the thread ends by itself when the jobs do */
	int started;
};

static void *worker_main(void *arg)
{
	struct cp_worker *w = arg;

	take_jobs(w->c, 0);
	return NULL;
}

/*
 * Every job, by the caller's thread and one worker per other core: TK_OK, TK_ERR_CANCELED when
 * the caller stopped it, else the failure of a job (its causes in its thread are dropped: the
 * sink's path tells them).
 */
static enum tk_status run_jobs(struct cp *c)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = cores > 1 ? (size_t) cores - 1 : 0, i;
	struct cp_worker *ws = NULL;

	if (n > CP_THREADS - 1)
		n = CP_THREADS - 1;
	if (n >= c->n_jobs) /* a thread per job at most, the caller's included */
		n = c->n_jobs ? c->n_jobs - 1 : 0;
	if (n)
		ws = calloc(n, sizeof(*ws));
	for (i = 0; ws && i < n; i++) {
		ws[i].c = c;
		ws[i].started = !worker_start(&ws[i].wk, worker_main, &ws[i]);
	}
	take_jobs(c, 1); /* the caller's thread works too, and tells the progress */
	for (i = 0; ws && i < n; i++)
		if (ws[i].started)
			worker_stop(&ws[i].wk, &ws[i].stop);
	free(ws);
	if (c->stop && *c->stop)
		return TK_ERR_CANCELED;
	for (i = 0; i < c->n_jobs; i++)
		if (c->jobs[i].st < 0)
			return c->jobs[i].st;
	return TK_OK;
}

enum tk_status ctf_copy(struct tk_trace *t, const char *output, struct sink_ctx *cx)
{
	struct cp c = {.stop = cx->stop, .o = cx->o};
	size_t depth = error_depth();
	enum tk_status st;

	atomic_init(&c.next, 0);
	atomic_init(&c.done, 0);
	atomic_init(&c.failed, 0);
	st = model_trace_check_clocks(t);
	if (st >= 0)
		st = sink_takes(t, output, cx);
	if (st >= 0)
		st = plan(&c, t, output, cx);
	if (st >= 0 && cx->stop && *cx->stop)
		st = TK_ERR_CANCELED;
	if (st >= 0)
		st = run_jobs(&c);
	cp_free(&c);
	if (st == TK_ERR_CANCELED && cx->stop && *cx->stop) {
		error_truncate(depth);
		return sink_stopped(cx->stop);
	}
	if (st < 0) { /* the sink's path says what is wrong, or writes what it can */
		outdir_empty(output);
		error_truncate(depth);
		return TK_AGAIN;
	}
	if (c.o->progress && c.total)
		c.o->progress(c.total, c.total, c.o->payload);
	return TK_OK;
}
