/* SPDX-License-Identifier: MIT */
/*
 * Each thread's ring of packets: what the inline fast path of <tracekit/tracepoint.h> cannot
 * do alone. The fast path writes an event header and a payload with plain stores into the
 * open packet and publishes its end; everything else comes here: the thread's first event
 * (its ring is made), a packet that is full (closed, handed to the consumer, the next one
 * opened), a gap of 2^32 cycles or more since the previous event (the header's extended
 * form), a ring that is full (the event is dropped and counted), a session that ended.
 *
 * Only the thread writes its ring, so nothing here takes a lock per event; the session's lock
 * is taken once per thread, to join the session, and when the thread ends.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../common/bytes.h"
#include "ust-priv.h"

TK_EXPORT __thread struct tk_ust_tls tk_ust_tls_state TK_UST_TLS_MODEL;
TK_EXPORT int tk_ust_clock_tsc;

uint32_t ust_wake_seq;

static pthread_key_t buf_key;
static pthread_once_t buf_key_once = PTHREAD_ONCE_INIT;
static int buf_key_ok;

TK_EXPORT uint64_t tk_ust_clock_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

void ust_consumer_wake(void)
{
	__atomic_fetch_add(&ust_wake_seq, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &ust_wake_seq, 1 /* FUTEX_WAKE */ | 128 /* PRIVATE */, 1, NULL, NULL, 0);
}

/*
 * The event header: LTTng's large form (16-bit ID, low 32 bits of the time) when the time is
 * less than 2^32 cycles after the previous event's (readers add the wrap back), else the
 * extended form (ID 65535, 32-bit ID, 64-bit time).
 */
static size_t header_size(const struct tk_ust_tls *t, uint32_t id, uint64_t ts)
{
	return ((ts - t->last_ts) >> 32) == 0 && id < 65535 ? TK_UST_HEADER_SIZE
							    : TK_UST_HEADER_EXT_SIZE;
}

static uint8_t *put_header(struct tk_ust_tls *t, uint8_t *p, uint32_t id, uint64_t ts)
{
	if (header_size(t, id, ts) == TK_UST_HEADER_SIZE) {
		tk_store_u16(p, (uint16_t) id, TK_BYTE_ORDER_HOST);
		tk_store_u32(p + 2, (uint32_t) ts, TK_BYTE_ORDER_HOST);
		p += TK_UST_HEADER_SIZE;
	} else {
		tk_store_u16(p, 65535, TK_BYTE_ORDER_HOST);
		tk_store_u32(p + 2, id, TK_BYTE_ORDER_HOST);
		tk_store_u64(p + 6, ts, TK_BYTE_ORDER_HOST);
		p += TK_UST_HEADER_EXT_SIZE;
	}
	t->last_ts = ts;
	return p;
}

/*
 * Write a packet header and context at @p: what is known when the packet opens; the end
 * time, sizes and loss count are written when it closes (ust_packet_finish()).
 */
static void packet_init(const struct ust_buf *b, uint8_t *p, uint64_t ts, uint64_t seq)
{
	int cpu = sched_getcpu();

	/*
	 * packet_size first: 0 marks the packet open (incomplete) for a recovery that finds the
	 * ring after the process was killed (ust-ring.h), so the sub-buffer's previous packet
	 * is no longer taken for whole while its header is rewritten
	 */
	tk_store_u64(p + UST_OFF_PACKET, 0, TK_BYTE_ORDER_HOST);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	memset(p, 0, UST_PACKET_HEADER);
	tk_store_u32(p + UST_OFF_MAGIC, UST_MAGIC, TK_BYTE_ORDER_HOST);
	memcpy(p + UST_OFF_UUID, ust_sess.uuid, 16);
	tk_store_u64(p + UST_OFF_INSTANCE, b->instance, TK_BYTE_ORDER_HOST);
	tk_store_u64(p + UST_OFF_TS_BEGIN, ts, TK_BYTE_ORDER_HOST);
	tk_store_u64(p + UST_OFF_SEQ, seq, TK_BYTE_ORDER_HOST);
	tk_store_u32(p + UST_OFF_CPU, cpu < 0 ? 0 : (uint32_t) cpu, TK_BYTE_ORDER_HOST);
	tk_store_u32(p + UST_OFF_VPID, (uint32_t) b->vpid, TK_BYTE_ORDER_HOST);
	tk_store_u32(p + UST_OFF_VTID, (uint32_t) b->vtid, TK_BYTE_ORDER_HOST);
}

void ust_packet_finish(uint8_t *p, size_t content, uint64_t ts_end, uint64_t discarded)
{
	if (ts_end < tk_load_u64(p + UST_OFF_TS_BEGIN, TK_BYTE_ORDER_HOST))
		ts_end = tk_load_u64(p + UST_OFF_TS_BEGIN, TK_BYTE_ORDER_HOST);
	tk_store_u64(p + UST_OFF_TS_END, ts_end, TK_BYTE_ORDER_HOST);
	tk_store_u64(p + UST_OFF_CONTENT, (uint64_t) content * 8, TK_BYTE_ORDER_HOST);
	tk_store_u64(p + UST_OFF_DISC, discarded, TK_BYTE_ORDER_HOST);
	/*
	 * packet_size last, after a release fence: nonzero, it says the packet is whole, to a
	 * recovery reading the ring of a killed process (ust-ring.h); the events and the fields
	 * above are stored before it whatever instruction the process dies at
	 */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	tk_store_u64(p + UST_OFF_PACKET, (uint64_t) content * 8, TK_BYTE_ORDER_HOST);
}

void ust_packet_empty(struct ust_buf *b, uint8_t *p, uint64_t ts, uint64_t seq)
{
	packet_init(b, p, ts, seq);
	ust_packet_finish(p, UST_PACKET_HEADER, ts,
			  __atomic_load_n(&b->discarded, __ATOMIC_RELAXED));
}

void ust_packet_zero(struct ust_buf *b, uint8_t *p)
{
	packet_init(b, p, b->first_ts, 0);
	ust_packet_finish(p, UST_PACKET_HEADER, b->first_ts, 0);
}

static void tls_detach(struct tk_ust_tls *t)
{
	t->pos = NULL;
	__atomic_store_n(&t->end, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&t->commit, NULL, __ATOMIC_RELEASE);
}

/*
 * Fault in the pages of sub-buffer @i the first time it is used, so that the fast path never
 * takes a page fault, and a thread that emits a few events holds one sub-buffer, not the
 * whole ring (sub-buffers are first used in order).
 */
static void subbuf_populate(struct ust_buf *b, unsigned int i)
{
	uint8_t *p = b->mem + (size_t) i * b->size;
	size_t off, page = (size_t) sysconf(_SC_PAGESIZE);

	if (i < b->populated)
		return;
	b->populated = i + 1;
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif
	if (madvise(p, b->size, MADV_POPULATE_WRITE) == 0)
		return;
	for (off = 0; off < b->size; off += page) /* older kernels: a write per page */
		__atomic_store_n(p + off, 0, __ATOMIC_RELAXED);
}

/*
 * Open a packet in sub-buffer @cur. In overwrite mode the sub-buffer may hold a closed packet
 * a snapshot is copying (seqlock): its closed word is zeroed and @gen made odd before a
 * release fence, then the packet is written, so that a copy that read any new byte sees
 * either change after its acquire fence and is left out.
 */
static void packet_open(struct ust_buf *b, struct tk_ust_tls *t, uint64_t ts)
{
	uint8_t *p = b->mem + (size_t) b->cur * b->size;

	subbuf_populate(b, b->cur);
	if (b->closed) {
		__atomic_store_n(&b->gen, 2 * b->seq + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&b->closed[b->cur], 0, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_RELEASE);
	}
	packet_init(b, p, ts, b->seq++);
	b->open = 1;
	t->last_ts = ts;
	t->pos = p + UST_PACKET_HEADER;
	__atomic_store_n(&t->commit, t->pos, __ATOMIC_RELEASE);
	__atomic_store_n(&t->end, p + b->size, __ATOMIC_RELAXED);
	if (b->closed)
		__atomic_store_n(&b->gen, 2 * b->seq, __ATOMIC_RELEASE);
}

/* Close the open packet at time @ts and hand it to the consumer. */
static void packet_close(struct ust_buf *b, struct tk_ust_tls *t, uint64_t ts)
{
	uint8_t *p = b->mem + (size_t) b->cur * b->size;
	uint64_t disc = __atomic_load_n(&b->discarded, __ATOMIC_RELAXED);

	ust_packet_finish(p, (size_t) (t->pos - p), ts < t->last_ts ? t->last_ts : ts, disc);
	b->disc_written = disc;
	b->open = 0;
	tls_detach(t);
	if (b->closed) {
		/* overwrite mode: kept for snapshots, nothing for the consumer to do */
		__atomic_store_n(&b->closed[b->cur], b->seq, __ATOMIC_RELEASE);
		b->cur = (b->cur + 1) % b->count;
		return;
	}
	__atomic_store_n(&b->state[b->cur], UST_SUB_FULL, __ATOMIC_RELEASE);
	b->cur = (b->cur + 1) % b->count;
	ust_consumer_wake();
}

/*
 * The thread's last packets: the open one, and one without events when events were dropped
 * after it (so that the count reaches the trace), if a sub-buffer is free for it.
 */
static void buf_close(struct ust_buf *b, struct tk_ust_tls *t, uint64_t ts)
{
	if (b->open)
		packet_close(b, t, ts);
	if (__atomic_load_n(&b->discarded, __ATOMIC_RELAXED) != b->disc_written &&
	    (b->closed || __atomic_load_n(&b->state[b->cur], __ATOMIC_ACQUIRE) == UST_SUB_FREE)) {
		packet_open(b, t, ts);
		packet_close(b, t, ts);
	}
}

void ust_buf_free(struct ust_buf *b)
{
	if (!b)
		return;
	if (b->fd >= 0)
		close(b->fd);
	free(b->state);
	free(b->closed);
	if (b->shm)
		ust_shm_destroy(b->shm); /* the file goes too: the ring is written or dropped */
	else if (b->mem)
		munmap(b->mem, b->size * b->count);
	free(b);
}

/*
 * Overwrite mode, under ust_lock: past UST_ENDED_MAX rings of threads that ended, free the
 * one whose thread ended first.
 */
static void ended_trim(void)
{
	struct ust_buf **pp, **oldest = NULL;
	unsigned int n = 0;

	for (pp = &ust_sess.bufs; *pp; pp = &(*pp)->next) {
		if (!__atomic_load_n(&(*pp)->exited, __ATOMIC_RELAXED))
			continue;
		n++;
		if (!oldest || (*pp)->ended < (*oldest)->ended)
			oldest = pp;
	}
	if (n > UST_ENDED_MAX) {
		struct ust_buf *b = *oldest;

		*oldest = b->next;
		ust_buf_free(b);
	}
}

/* The thread ends: its last packets go to the consumer, which frees the ring. */
static void buf_key_destroy(void *arg)
{
	struct ust_buf *b = arg;
	struct tk_ust_tls *t = &tk_ust_tls_state;

	pthread_mutex_lock(&ust_lock);
	if (__atomic_load_n(&b->orphan, __ATOMIC_ACQUIRE)) {
		ust_buf_free(b);
	} else {
		uint64_t ts = tk_ust_clock_read();

		buf_close(b, t, ts);
		b->last_ts = ts < t->last_ts ? t->last_ts : ts;
		b->ended = ++ust_sess.ended;
		__atomic_store_n(&b->exited, 1, __ATOMIC_RELEASE);
		if (ust_sess.overwrite)
			ended_trim();
		ust_consumer_wake();
	}
	if (t->buf == b) {
		t->buf = NULL;
		tls_detach(t);
	}
	pthread_mutex_unlock(&ust_lock);
}

static void buf_key_make(void)
{
	buf_key_ok = pthread_key_create(&buf_key, buf_key_destroy) == 0;
}

int ust_buf_key_init(void)
{
	pthread_once(&buf_key_once, buf_key_make);
	return buf_key_ok ? 0 : -1;
}

/*
 * Discard mode, under ust_lock: the calling thread takes over an idle ring (its thread ended,
 * everything written), whose stream goes on: the same file and sequence numbers, packets with
 * this thread's vtid, times from the stream's last one on.
 */
static struct ust_buf *buf_adopt(struct tk_ust_tls *t)
{
	struct ust_buf *b;

	for (b = ust_sess.bufs; b && !b->idle; b = b->next)
		;
	if (!b || pthread_setspecific(buf_key, b))
		return NULL;
	b->idle = 0;
	ust_sess.idle--;
	b->vtid = (int32_t) syscall(SYS_gettid);
	b->tls = t;
	__atomic_store_n(&b->exited, 0, __ATOMIC_RELAXED);
	t->buf = b;
	t->last_ts = b->last_ts; /* the slow path raises a time behind it */
	return b;
}

/* The calling thread joins the running session with a ring of its own, its first event at @ts. */
static struct ust_buf *buf_create(struct tk_ust_tls *t, uint64_t ts)
{
	struct ust_buf *b = NULL;
	void *mem = MAP_FAILED;
	size_t len;

	if (ust_buf_key_init() < 0)
		return NULL;
	pthread_mutex_lock(&ust_lock);
	if (!__atomic_load_n(&ust_sess.active, __ATOMIC_RELAXED))
		goto out;
	if (ust_sess.idle) {
		b = buf_adopt(t);
		if (b)
			goto out;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		goto err;
	b->size = ust_sess.subbuf_size;
	b->count = ust_sess.subbuf_count;
	b->vpid = (int32_t) getpid();
	b->instance = (uint64_t) (uint32_t) b->vpid << 32 | ust_sess.next_instance++;
	b->vtid = (int32_t) syscall(SYS_gettid);
	b->first_ts = ts; /* packet 0's time, also in a ring file's header */
	/*
	 * Pages come in a sub-buffer at a time, when it is first opened (subbuf_populate()):
	 * faulting them in on the fast path would cost a fault per 4 KiB of events, more than
	 * the events themselves, and populating the whole ring at once would cost every thread
	 * the whole ring, however little it writes. With a shm_dir, the ring is a file there
	 * (ust-shm.c), left behind if the process is killed.
	 */
	len = ust_sess.subbuf_size * ust_sess.subbuf_count;
	if (ust_sess.shm_dir)
		mem = ust_shm_create(&b->shm, b);
	else
		mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED)
		goto err;
	b->mem = mem;
	b->state = calloc(b->count, sizeof(*b->state));
	if (!b->state)
		goto err;
	if (ust_sess.overwrite) {
		b->closed = calloc(b->count, sizeof(*b->closed));
		if (!b->closed)
			goto err;
	}
	/*
	 * Packet 0 of every stream is empty, at the thread's first event (written by the
	 * consumer as it makes the stream file, or by each snapshot): readers report the
	 * events dropped before the first packet with events ended, and the packets overwritten
	 * before the oldest one kept, only after a packet (the first's count is unknown to them).
	 */
	b->seq = 1;
	b->generation = ust_sess.generation;
	b->fd = -1;
	b->tls = t;
	if (pthread_setspecific(buf_key, b))
		goto err;
	b->next = ust_sess.bufs;
	ust_sess.bufs = b;
	ust_consumer_start_locked();
	t->buf = b;
	goto out;
err:
	if (b) {
		free(b->state);
		free(b->closed);
	}
	if (b && b->shm)
		ust_shm_destroy(b->shm);
	else if (mem != MAP_FAILED)
		munmap(mem, len);
	free(b);
	b = NULL;
out:
	pthread_mutex_unlock(&ust_lock);
	return b;
}

void ust_buf_forget_own(void)
{
	if (buf_key_ok)
		pthread_setspecific(buf_key, NULL);
}

void ust_buf_close_own(uint64_t ts)
{
	struct tk_ust_tls *t = &tk_ust_tls_state;
	struct ust_buf *b = t->buf;

	if (b && !__atomic_load_n(&b->orphan, __ATOMIC_ACQUIRE))
		buf_close(b, t, ts);
}

/*
 * The slow path of tk_ust_reserve(): the event's header written, the first byte of its
 * payload returned, or NULL when the event is dropped (counted when the thread has a ring).
 */
static uint8_t *reserve_slow(struct tk_ust_tls *t, const struct tk_tp_event *ev, size_t size,
			     uint64_t ts)
{
	struct ust_buf *b = t->buf;
	size_t need;

	if (b && __atomic_load_n(&b->orphan, __ATOMIC_ACQUIRE)) {
		/* the session ended: the ring is ours to free (forgotten first: see below) */
		t->buf = NULL;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		pthread_setspecific(buf_key, NULL);
		ust_buf_free(b);
		b = NULL;
		tls_detach(t);
		t->last_ts = 0;
	}
	if (!__atomic_load_n(&ust_sess.active, __ATOMIC_RELAXED))
		return NULL;
	if (!b) {
		b = buf_create(t, ts < t->last_ts ? t->last_ts : ts);
		if (!b)
			return NULL;
	}
	if (ts < t->last_ts)
		ts = t->last_ts; /* a clock read on another CPU, a little behind */
	if (UST_PACKET_HEADER + TK_UST_HEADER_EXT_SIZE + size > b->size)
		goto drop; /* larger than any packet: the open one stays open */
	if (b->open) {
		need = header_size(t, ev->id, ts) + size;
		if ((size_t) (t->pos ? b->mem + (size_t) b->cur * b->size + b->size - t->pos : 0) >=
		    need)
			return put_header(t, t->pos, ev->id, ts);
		packet_close(b, t, ts);
	}
	if (!b->closed && __atomic_load_n(&b->state[b->cur], __ATOMIC_ACQUIRE) != UST_SUB_FREE)
		goto drop; /* the ring is full: discard mode (overwrite mode takes the oldest) */
	packet_open(b, t, ts);
	return put_header(t, t->pos, ev->id, ts);
drop:
	__atomic_fetch_add(&b->discarded, 1, __ATOMIC_RELAXED);
	return NULL;
}

TK_EXPORT uint8_t *tk_ust_reserve_slow(const struct tk_tp_event *ev, size_t size, uint64_t ts)
{
	struct tk_ust_tls *t = &tk_ust_tls_state;
	struct ust_buf *b;
	uint8_t *p;

	if (t->nest > 1) {
		/*
		 * A signal handler's event while this thread was inside another (its reserve,
		 * its fields, this slow path): dropped, counted in the ring if there is one. An
		 * add that cannot be torn: the interrupted code may be counting a drop too. The
		 * ring is not freed under us: t->buf is cleared before it is.
		 */
		b = t->buf;
		if (b)
			__atomic_fetch_add(&b->discarded, 1, __ATOMIC_RELAXED);
		t->nest--;
		return NULL;
	}
	p = reserve_slow(t, ev, size, ts);
	if (!p)
		t->nest = 0; /* no event to commit */
	return p;
}
