// SPDX-License-Identifier: MIT
/*
 * The per-CPU recorder (recorder.h): reader threads that move ring-buffer pages from
 * tracefs into temporary files.
 *
 * The kernel gives trace_pipe_raw to splice(2) a whole sub-buffer at a time, and only full
 * ones (or, with SPLICE_F_NONBLOCK, EAGAIN until one is full), so the files grow by whole
 * pages while recording. When recording stops, the page the kernel is still writing is only
 * available through read(2), which returns it partly filled (its commit says how much);
 * stop() reads those last pages and pads each to the page size, so every file is a run of
 * pages the trace.dat writer copies as they are. A kernel that refuses splice on the file
 * (EINVAL) gets read(2) for the whole recording.
 *
 * Threads report failures through their CPU's slot (errno and what failed), since the error
 * chain is per thread; stop() turns the first one into causes on the caller's thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/error.h"
#include "../common/outfile.h"
#include "recorder.h"

#define POLL_MS	   100
#define PIPE_BYTES (1u << 20) /* asked for; the kernel may give less */
#define DRAIN_MAX  (1u << 20) /* pages read at stop, at most: a bound if tracing goes on */

struct rec_cpu {
	struct ftrace_recorder *r;
	uint32_t cpu;
	int in;	      /* per_cpu/cpuN/trace_pipe_raw, non-blocking */
	int out;      /* the temporary file */
	int pipe[2];  /* splice: trace_pipe_raw -> pipe -> file; -1 when read() is used */
	size_t chunk; /* bytes asked of one splice: the pipe's size in whole pages */
	pthread_t thread;
	int started;
	pid_t tid; /* the thread's ID, set before it signals ready */
	uint64_t bytes;
	int err;	  /* errno of the first failure, 0 if none */
	const char *what; /* what failed: "splice from", "write to", ... */
	char in_path[4096];
	char out_path[4096];
};

struct ftrace_recorder {
	sem_t ready; /* posted by each thread once its tid is set */
	uint32_t page_size;
	atomic_int stop;
	int stopped;
	size_t n;
	struct rec_cpu *cpus;
	uint8_t *page; /* stop(): one page for read() */
};

static int fail_cpu(struct rec_cpu *c, const char *what, int err)
{
	if (!c->err) {
		c->err = err ? err : EIO;
		c->what = what;
	}
	return -1;
}

/* Write @n bytes of @p to the CPU's file. */
static int put_bytes(struct rec_cpu *c, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(c->out, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return fail_cpu(c, "write to", w < 0 ? errno : ENOSPC);
		p += w;
		n -= (size_t) w;
		c->bytes += (uint64_t) w;
	}
	return 0;
}

/* Move @n bytes waiting in the pipe into the file. */
static int drain_pipe(struct rec_cpu *c, size_t n)
{
	while (n) {
		ssize_t m = splice(c->pipe[0], NULL, c->out, NULL, n, SPLICE_F_MOVE);

		if (m < 0 && errno == EINTR)
			continue;
		if (m <= 0)
			return fail_cpu(c, "write to", m < 0 ? errno : ENOSPC);
		n -= (size_t) m;
		c->bytes += (uint64_t) m;
	}
	return 0;
}

static void use_read(struct rec_cpu *c)
{
	close(c->pipe[0]);
	close(c->pipe[1]);
	c->pipe[0] = c->pipe[1] = -1;
}

/*
 * Every whole page the kernel has now, by splice. Returns 0 when there is nothing more
 * (EAGAIN), -1 on failure. Falls back to read() for good when splice is refused.
 */
static int splice_pages(struct rec_cpu *c)
{
	for (;;) {
		ssize_t n = splice(c->in, NULL, c->pipe[1], NULL, c->chunk,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n > 0) {
			if (drain_pipe(c, (size_t) n) < 0)
				return -1;
			continue;
		}
		if (n == 0 || errno == EAGAIN)
			return 0;
		if (errno == EINTR)
			continue;
		if ((errno == EINVAL || errno == ENOSYS) && c->bytes == 0) {
			use_read(c);
			return 0;
		}
		return fail_cpu(c, "splice from", errno);
	}
}

/*
 * Pages by read(): each call returns at most one page, possibly partly filled (the kernel
 * sets its commit); it is padded with zeros to the page size. Returns 0 when the buffer is
 * empty, -1 on failure. At most @max pages.
 */
static int read_pages(struct rec_cpu *c, uint8_t *page, size_t max)
{
	uint32_t ps = c->r->page_size;

	while (max--) {
		ssize_t n = read(c->in, page, ps);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (n < 0 && errno == EAGAIN))
			return 0;
		if (n < 0)
			return fail_cpu(c, "read from", errno);
		memset(page + n, 0, ps - (size_t) n);
		if (put_bytes(c, page, ps) < 0)
			return -1;
	}
	return 0;
}

static void *rec_thread(void *arg)
{
	struct rec_cpu *c = arg;
	struct ftrace_recorder *r = c->r;
	uint8_t *page = NULL;

	c->tid = gettid();
	sem_post(&r->ready);

	while (!atomic_load_explicit(&r->stop, memory_order_acquire)) {
		struct pollfd p = {.fd = c->in, .events = POLLIN};

		if (poll(&p, 1, POLL_MS) < 0 && errno != EINTR) {
			fail_cpu(c, "poll", errno);
			break;
		}
		if (c->pipe[0] >= 0) {
			if (splice_pages(c) < 0)
				break;
			continue;
		}
		if (!page && !(page = malloc(r->page_size))) {
			fail_cpu(c, "read from", ENOMEM);
			break;
		}
		if (read_pages(c, page, SIZE_MAX) < 0)
			break;
	}
	free(page);
	return NULL;
}

static void cpu_close(struct rec_cpu *c)
{
	if (c->in >= 0)
		close(c->in);
	if (c->out >= 0)
		close(c->out);
	if (c->pipe[0] >= 0)
		close(c->pipe[0]);
	if (c->pipe[1] >= 0)
		close(c->pipe[1]);
	c->in = c->out = c->pipe[0] = c->pipe[1] = -1;
}

static enum tk_status cpu_open(struct ftrace_recorder *r, struct rec_cpu *c, const char *dir,
			       uint32_t cpu, const char *tmp_dir)
{
	int sz;

	c->r = r;
	c->cpu = cpu;
	c->in = c->out = c->pipe[0] = c->pipe[1] = -1;
	if ((size_t) snprintf(c->in_path, sizeof(c->in_path),
			      "%s/per_cpu/cpu%" PRIu32 "/trace_pipe_raw", dir,
			      cpu) >= sizeof(c->in_path) ||
	    (size_t) snprintf(c->out_path, sizeof(c->out_path),
			      "(temporary file of cpu%" PRIu32 " in %s)", cpu,
			      tmp_dir) >= sizeof(c->out_path))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot record CPU: cpu=%" PRIu32 ", reason=path too long", cpu);
	c->in = open(c->in_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->in < 0)
		return TK_FAIL(TK_ERR_IO, "Cannot open tracefs file: path=%s, errno=%s", c->in_path,
			       strerror(errno));
	/* no name: nothing outlives the recorder, even a SIGKILL */
	c->out = outfile_scratch(tmp_dir);
	if (c->out < 0)
		return TK_FAIL(TK_ERR_IO, "Cannot create temporary file: dir=%s, errno=%s", tmp_dir,
			       strerror(errno));
	if (pipe2(c->pipe, O_CLOEXEC) < 0) {
		c->pipe[0] = c->pipe[1] = -1;
		return TK_FAIL(TK_ERR_IO, "Cannot create pipe: errno=%s", strerror(errno));
	}
	/* a bigger pipe moves more pages a call; the default (16 pages) is the floor */
	(void) fcntl(c->pipe[1], F_SETPIPE_SZ, (int) PIPE_BYTES);
	sz = fcntl(c->pipe[1], F_GETPIPE_SZ);
	c->chunk = sz > 0 ? (size_t) sz / r->page_size * r->page_size : 0;
	if (!c->chunk)
		c->chunk = r->page_size;
	return TK_OK;
}

enum tk_status ftrace_recorder_start(struct ftrace_recorder **out, const char *dir,
				     const uint32_t *cpus, size_t n, uint32_t page_size,
				     const char *tmp_dir)
{
	struct ftrace_recorder *r;
	sigset_t all, old;
	enum tk_status st = TK_OK;
	size_t i;
	int err;

	if (!page_size || (page_size & (page_size - 1)) || !n)
		return TK_FAIL(TK_ERR_INVAL, "Cannot start recorder: cpus=%zu, page-size=%" PRIu32,
			       n, page_size);
	r = calloc(1, sizeof(*r));
	if (r)
		r->cpus = calloc(n, sizeof(*r->cpus));
	if (r)
		r->page = malloc(page_size);
	if (!r || !r->cpus || !r->page) {
		if (r)
			free(r->cpus);
		free(r);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot start recorder: cpus=%zu", n);
	}
	r->page_size = page_size;
	sem_init(&r->ready, 0, 0);
	atomic_init(&r->stop, 0);
	for (i = 0; i < n; i++) {
		r->cpus[i].in = r->cpus[i].out = r->cpus[i].pipe[0] = r->cpus[i].pipe[1] = -1;
	}
	r->n = n;
	for (i = 0; i < n && st >= 0; i++)
		st = cpu_open(r, &r->cpus[i], dir, cpus[i], tmp_dir);
	if (st < 0) {
		ftrace_recorder_destroy(r);
		return st;
	}
	/* the threads take no signals: the caller's thread handles them */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < n; i++) {
		err = pthread_create(&r->cpus[i].thread, NULL, rec_thread, &r->cpus[i]);
		if (err) {
			st = TK_FAIL(TK_ERR_IO,
				     "Cannot start recorder thread: cpu=%" PRIu32 ", errno=%s",
				     r->cpus[i].cpu, strerror(err));
			break;
		}
		r->cpus[i].started = 1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (i = 0; i < n && r->cpus[i].started; i++)
		while (sem_wait(&r->ready) < 0 && errno == EINTR)
			;
	if (st < 0) {
		ftrace_recorder_destroy(r);
		return st;
	}
	*out = r;
	return TK_OK;
}

/* Join every thread (they see the stop flag within POLL_MS). */
static void join_all(struct ftrace_recorder *r)
{
	size_t i;

	atomic_store_explicit(&r->stop, 1, memory_order_release);
	for (i = 0; i < r->n; i++) {
		if (r->cpus[i].started)
			pthread_join(r->cpus[i].thread, NULL);
		r->cpus[i].started = 0;
	}
}

enum tk_status ftrace_recorder_stop(struct ftrace_recorder *r)
{
	size_t i;

	if (r->stopped)
		return TK_OK;
	r->stopped = 1;
	join_all(r);
	/* what is left: whole pages by splice, then the partly filled ones by read() */
	for (i = 0; i < r->n; i++) {
		struct rec_cpu *c = &r->cpus[i];

		if (c->err)
			continue;
		if (c->pipe[0] >= 0 && splice_pages(c) < 0)
			continue;
		(void) read_pages(c, r->page, DRAIN_MAX);
	}
	for (i = 0; i < r->n; i++) {
		struct rec_cpu *c = &r->cpus[i];

		if (c->err) {
			(void) TK_FAIL(TK_ERR_IO, "Cannot %s file: path=%s, errno=%s", c->what,
				       strcmp(c->what, "write to") ? c->in_path : c->out_path,
				       strerror(c->err));
			return TK_FAIL(TK_ERR_IO, "Cannot record CPU: cpu=%" PRIu32, c->cpu);
		}
		if (lseek(c->out, 0, SEEK_SET) < 0)
			return TK_FAIL(TK_ERR_IO, "Cannot rewind file: path=%s, errno=%s",
				       c->out_path, strerror(errno));
	}
	return TK_OK;
}

size_t ftrace_recorder_count(const struct ftrace_recorder *r)
{
	return r->n;
}

uint32_t ftrace_recorder_cpu(const struct ftrace_recorder *r, size_t i)
{
	return r->cpus[i].cpu;
}

int ftrace_recorder_fd(const struct ftrace_recorder *r, size_t i)
{
	return r->cpus[i].out;
}

uint64_t ftrace_recorder_bytes(const struct ftrace_recorder *r, size_t i)
{
	return r->cpus[i].bytes;
}

pid_t ftrace_recorder_tid(const struct ftrace_recorder *r, size_t i)
{
	return r->cpus[i].tid;
}

void ftrace_recorder_destroy(struct ftrace_recorder *r)
{
	size_t i;

	if (!r)
		return;
	join_all(r);
	for (i = 0; i < r->n; i++)
		cpu_close(&r->cpus[i]);
	sem_destroy(&r->ready);
	free(r->cpus);
	free(r->page);
	free(r);
}
