// SPDX-License-Identifier: MIT
/*
 * Packets written in the background. A CTF writer spends a good part of its time in write(2)
 * (the kernel copying packets into the page cache); one thread per writer does those writes
 * while the caller fills the next packet, so converting a trace uses two cores even when all
 * its events are in one stream.
 *
 * Each stream has a few packet buffers (CW_IO_DEPTH at most, allocated as needed): the caller
 * fills one while the others wait for their write or are written, so that a write delayed by
 * the scheduler does not stop the caller. Packets are written in the order they were queued,
 * so a stream's packets reach its file in order, and a buffer is filled again only once its
 * write is done. The first failed write is kept and reported by the next submission or by
 * the final wait; the writer then refuses further events, as with a failed synchronous write.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/error.h"
#include "../common/worker.h"
#include "ctf-write-priv.h"

#define IO_QUEUE 16

struct io_job {
	struct tk_ctf_writer_stream *s;
	uint8_t *buf;
	size_t cap; /* of buf, which goes back to the stream's free buffers */
	size_t size;
};

struct cw_io {
	struct worker wk; /* its condition: a job was queued or done, or the thread must stop */
	struct io_job q[IO_QUEUE];
	size_t head;
	size_t len;
	int stop;
	int idle;	      /* the thread waits for a job: wake it */
	int waiters;	      /* callers wait for a write to end: wake them */
	int err;	      /* errno of the first failed write, 0 when none failed */
	const char *err_name; /* its stream */
};

/* Write all @n bytes at @p; 0 or an errno value (EIO when write makes no progress). */
static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? errno : EIO;
		p += k;
		n -= (size_t) k;
	}
	return 0;
}

static void *io_main(void *arg)
{
	struct cw_io *io = arg;

	pthread_mutex_lock(&io->wk.lock);
	for (;;) {
		struct io_job job;
		int err;

		while (!io->len && !io->stop) {
			io->idle = 1;
			pthread_cond_wait(&io->wk.cond, &io->wk.lock);
			io->idle = 0;
		}
		if (!io->len)
			break;
		job = io->q[io->head];
		pthread_mutex_unlock(&io->wk.lock);
		err = write_all(job.s->fd, job.buf, job.size);
		pthread_mutex_lock(&io->wk.lock);
		io->head = (io->head + 1) % IO_QUEUE;
		io->len--;
		job.s->io_busy--;
		job.s->free_buf[job.s->n_free] = job.buf;
		job.s->free_cap[job.s->n_free++] = job.cap;
		if (err && !io->err) {
			io->err = err;
			io->err_name = job.s->name;
		}
		if (io->waiters) /* waking nobody costs a system call per packet */
			pthread_cond_broadcast(&io->wk.cond);
	}
	pthread_mutex_unlock(&io->wk.lock);
	return NULL;
}

/* The cause of the first failed write, as TK_ERR_IO; TK_OK when none failed. Lock held. */
static enum tk_status io_status(const struct cw_io *io)
{
	if (!io->err)
		return TK_OK;
	return TK_FAIL(TK_ERR_IO, "Cannot write packet: name=%s, errno=%s", io->err_name,
		       strerror(io->err));
}

enum tk_status ctf_write_io_submit(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				   size_t size)
{
	struct cw_io *io = w->io;
	enum tk_status st;
	uint8_t *b;
	size_t cap = 0;

	if (!io && !w->io_failed) {
		io = calloc(1, sizeof(*io));
		if (io && !worker_start(&io->wk, io_main, io)) {
			w->io = io;
		} else {
			free(io);
			io = NULL;
			w->io_failed = 1; /* no thread: write in the caller's thread */
		}
	}
	if (!io)
		return ctf_write_all(s->fd, s->buf, size, "packet", s->name);
	pthread_mutex_lock(&io->wk.lock);
	/* a buffer to fill next: a free one, a new one, or the first one written */
	b = NULL;
	if (!s->n_free && s->n_bufs < CW_IO_DEPTH - 1 && (b = malloc(w->packet_size)) != NULL) {
		cap = w->packet_size;
		s->n_bufs++;
	}
	while (!b && !s->n_free && s->io_busy && !io->err) {
		io->waiters++;
		pthread_cond_wait(&io->wk.cond, &io->wk.lock);
		io->waiters--;
	}
	while (io->len == IO_QUEUE && !io->err) {
		io->waiters++;
		pthread_cond_wait(&io->wk.cond, &io->wk.lock);
		io->waiters--;
	}
	st = io_status(io);
	if (st >= 0 && !b && !s->n_free) {
		/* no buffer and nothing queued to give one back: out of memory, write here */
		pthread_mutex_unlock(&io->wk.lock);
		return ctf_write_all(s->fd, s->buf, size, "packet", s->name);
	}
	if (st >= 0) {
		if (!b) {
			b = s->free_buf[--s->n_free];
			cap = s->free_cap[s->n_free];
		}
		io->q[(io->head + io->len) % IO_QUEUE] = (struct io_job){s, s->buf, s->cap, size};
		io->len++;
		s->io_busy++;
		if (io->idle)
			pthread_cond_broadcast(&io->wk.cond);
	} else if (b) {
		s->free_buf[s->n_free] = b; /* kept for destroy to free */
		s->free_cap[s->n_free++] = cap;
	}
	pthread_mutex_unlock(&io->wk.lock);
	if (st < 0)
		return st;
	/* fill the next buffer meanwhile, with the packet header (it never changes) */
	memcpy(b, s->buf, w->header_size);
	s->buf = b;
	s->cap = cap;
	return TK_OK;
}

enum tk_status ctf_write_io_wait(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s)
{
	struct cw_io *io = w->io;
	enum tk_status st;

	if (!io)
		return TK_OK;
	pthread_mutex_lock(&io->wk.lock);
	while (s ? s->io_busy != 0 : io->len != 0) {
		io->waiters++;
		pthread_cond_wait(&io->wk.cond, &io->wk.lock);
		io->waiters--;
	}
	st = io_status(io);
	pthread_mutex_unlock(&io->wk.lock);
	return st;
}

void ctf_write_io_stop(struct tk_ctf_writer *w)
{
	struct cw_io *io = w->io;

	if (!io)
		return;
	worker_stop(&io->wk, &io->stop);
	free(io);
	w->io = NULL;
}
