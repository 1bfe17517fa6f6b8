// SPDX-License-Identifier: MIT
/*
 * Packets written in the background. A CTF writer spends a good part of its time in write(2)
 * (the kernel copying packets into the page cache); one thread per writer does those writes
 * while the caller fills the next packet, so converting a trace uses two cores even when all
 * its events are in one stream.
 *
 * Each stream has two packet buffers: the caller fills one while the other waits for or is
 * in its write. A stream has at most one packet queued, so its packets reach the file in
 * order and a buffer is never reused before its write is done. The first failed write is
 * kept and reported by the next submission or by the final wait; the writer then refuses
 * further events, as with a failed synchronous write.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/error.h"
#include "ctf-write-priv.h"

#define IO_QUEUE 16

struct io_job {
	struct tk_ctf_writer_stream *s;
	const uint8_t *buf;
	size_t size;
};

struct cw_io {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* a job was queued or done, or the thread must stop */
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

	pthread_mutex_lock(&io->lock);
	for (;;) {
		struct io_job job;
		int err;

		while (!io->len && !io->stop) {
			io->idle = 1;
			pthread_cond_wait(&io->cond, &io->lock);
			io->idle = 0;
		}
		if (!io->len)
			break;
		job = io->q[io->head];
		pthread_mutex_unlock(&io->lock);
		err = write_all(job.s->fd, job.buf, job.size);
		pthread_mutex_lock(&io->lock);
		io->head = (io->head + 1) % IO_QUEUE;
		io->len--;
		job.s->io_busy = 0;
		if (err && !io->err) {
			io->err = err;
			io->err_name = job.s->name;
		}
		if (io->waiters) /* waking nobody costs a system call per packet */
			pthread_cond_broadcast(&io->cond);
	}
	pthread_mutex_unlock(&io->lock);
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
	size_t cap;

	if (!io && !w->io_failed) {
		io = calloc(1, sizeof(*io));
		if (io && !pthread_mutex_init(&io->lock, NULL)) {
			if (!pthread_cond_init(&io->cond, NULL)) {
				if (!pthread_create(&io->thread, NULL, io_main, io)) {
					w->io = io;
				} else {
					pthread_cond_destroy(&io->cond);
					pthread_mutex_destroy(&io->lock);
				}
			} else {
				pthread_mutex_destroy(&io->lock);
			}
		}
		if (!w->io) {
			free(io);
			io = NULL;
			w->io_failed = 1; /* no thread: write in the caller's thread */
		}
	}
	if (!s->spare && (s->spare = malloc(w->packet_size)) != NULL)
		s->spare_cap = w->packet_size;
	if (!s->spare)
		io = NULL; /* no second buffer: this packet goes synchronously */
	if (!io)
		return ctf_write_all(s->fd, s->buf, size, "packet", s->name);
	pthread_mutex_lock(&io->lock);
	while ((s->io_busy || io->len == IO_QUEUE) && !io->err) {
		io->waiters++;
		pthread_cond_wait(&io->cond, &io->lock);
		io->waiters--;
	}
	st = io_status(io);
	if (st >= 0) {
		io->q[(io->head + io->len) % IO_QUEUE] = (struct io_job){s, s->buf, size};
		io->len++;
		s->io_busy = 1;
		if (io->idle)
			pthread_cond_broadcast(&io->cond);
	}
	pthread_mutex_unlock(&io->lock);
	if (st < 0)
		return st;
	/* fill the other buffer meanwhile, with the header (it never changes) */
	b = s->spare;
	cap = s->spare_cap;
	memcpy(b, s->buf, w->header_size);
	s->spare = s->buf;
	s->spare_cap = s->cap;
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
	pthread_mutex_lock(&io->lock);
	while (s ? s->io_busy != 0 : io->len != 0) {
		io->waiters++;
		pthread_cond_wait(&io->cond, &io->lock);
		io->waiters--;
	}
	st = io_status(io);
	pthread_mutex_unlock(&io->lock);
	return st;
}

void ctf_write_io_stop(struct tk_ctf_writer *w)
{
	struct cw_io *io = w->io;

	if (!io)
		return;
	pthread_mutex_lock(&io->lock);
	io->stop = 1;
	pthread_cond_broadcast(&io->cond);
	pthread_mutex_unlock(&io->lock);
	pthread_join(io->thread, NULL);
	pthread_cond_destroy(&io->cond);
	pthread_mutex_destroy(&io->lock);
	free(io);
	w->io = NULL;
}
