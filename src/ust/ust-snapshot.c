/* SPDX-License-Identifier: MIT */
/*
 * Snapshots of an overwrite-mode (flight-recorder) session: each thread's ring holds its
 * newest packets, and a snapshot copies them into a trace of their own while the thread
 * keeps writing, without a lock or an atomic read-modify-write on the thread's side.
 *
 * A closed packet is copied seqlock-style: its sub-buffer's closed word (the packet's
 * sequence number + 1, release-stored at the close) is read with acquire before the copy and
 * again after an acquire fence; the thread zeroes the word before a release fence when it
 * reopens the sub-buffer, so a copy that read a byte of the new packet sees the word change
 * and is left out. The open packet is copied as far as the thread's commit, read together
 * with the packet's sequence number through the ring's @gen word, and is good when the
 * thread has not reopened its sub-buffer since (@gen tells that too). Packets left out are
 * gaps in packet_seq_num, which readers report as lost packets: exactly those overwritten
 * before or during the copy. Each stream starts with an empty packet 0 (at the thread's first
 * event) so that readers report the packets overwritten before the oldest one kept, a gap
 * they do not report before a stream's first packet.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/bytes.h"
#include "../common/error.h"
#include "ust-priv.h"

/* A packet copied and found whole: its sequence number, bytes and content size. */
struct snap_pkt {
	uint64_t seq;
	uint8_t *p;
	size_t n;
};

void (*ust_snapshot_hook)(void);

/* Copy @n bytes of a packet the thread may be overwriting (validated afterwards). */
static void copy_packet(uint8_t *dst, const uint8_t *src, size_t n)
{
	memcpy(dst, src, n / 2);
	if (ust_snapshot_hook)
		ust_snapshot_hook();
	memcpy(dst + n / 2, src + n / 2, n - n / 2);
}

static int by_seq(const void *a, const void *b)
{
	const struct snap_pkt *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The live thread's open packet: *@commit (the end of its committed events) and *@seq, read
 * as one pair: @gen, even and unchanged around the load of commit, says no packet was opened
 * in between. Returns 0 when the thread has no open packet (before its first, or after the
 * stop's close of the caller's), or when the thread stays in the middle of an open.
 */
static int open_packet(struct ust_buf *b, uint8_t **commit, uint64_t *seq)
{
	unsigned int tries;

	for (tries = 0; tries < 100000; tries++) {
		uint64_t g1 = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE), g2;
		uint8_t *c = __atomic_load_n(&b->tls->commit, __ATOMIC_ACQUIRE);

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		g2 = __atomic_load_n(&b->gen, __ATOMIC_RELAXED);
		if (g1 == g2 && g1 % 2 == 0) {
			if (!g1 || !c || c <= b->mem || c > b->mem + b->size * b->count)
				return 0;
			*commit = c;
			*seq = g1 / 2 - 1;
			return 1;
		}
		if (tries % 64 == 63)
			sched_yield(); /* the thread is opening a packet: let it finish */
	}
	return 0;
}

/*
 * Copy ring @b into @copy ((count + 1) sub-buffers of room) and write its stream file in
 * @dirfd: packet 0, then the packets found whole in sequence order, the open one last. A
 * ring without any packet gets no file.
 */
static enum tk_status snapshot_buf(struct ust_buf *b, int dirfd, uint8_t *copy, struct snap_pkt *pk)
{
	uint8_t hdr[UST_PACKET_HEADER], *c = NULL;
	uint64_t seq = 0, disc = 0, ts_end = 0;
	enum tk_status st = TK_OK;
	size_t nk = 0, i;
	int open = 0, fd;
	char name[64];

	/* a thread that ended closed its last packet under ust_lock, which we hold */
	if (!__atomic_load_n(&b->exited, __ATOMIC_ACQUIRE)) {
		open = open_packet(b, &c, &seq);
		if (open) {
			/* losses before the end time, which follows every event up to commit */
			disc = __atomic_load_n(&b->discarded, __ATOMIC_RELAXED);
			ts_end = tk_ust_clock_read();
		}
	}
	for (i = 0; i < b->count; i++) {
		uint64_t c1 = 0, c2 = 1;
		uint8_t *dst = copy + i * b->size;
		unsigned int tries;
		size_t n;

		/*
		 * Reopened while copied: the packet is gone (a gap), but the sub-buffer may hold
		 * a newer closed one by now (the copier was preempted while the thread went round
		 * its ring): a few tries, so that a thread faster than one copy still has packets.
		 */
		for (tries = 0; tries < 3 && c1 != c2; tries++) {
			c1 = __atomic_load_n(&b->closed[i], __ATOMIC_ACQUIRE);
			if (!c1)
				break;
			copy_packet(dst, b->mem + i * b->size, b->size);
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			c2 = __atomic_load_n(&b->closed[i], __ATOMIC_RELAXED);
		}
		if (!c1 || c1 != c2)
			continue;
		n = (size_t) (tk_load_u64(dst + UST_OFF_CONTENT, TK_BYTE_ORDER_HOST) / 8);
		if (n < UST_PACKET_HEADER || n > b->size)
			continue;
		pk[nk].seq = c1 - 1;
		pk[nk].p = dst;
		pk[nk++].n = n;
	}
	qsort(pk, nk, sizeof(*pk), by_seq);
	for (i = 0; open && i < nk; i++)
		if (pk[i].seq >= seq)
			open = 0; /* closed since (copied whole), or newer packets follow: a gap */
	if (open) {
		size_t j = (size_t) (c - 1 - b->mem) / b->size;
		uint8_t *p = b->mem + j * b->size, *dst = copy + (size_t) b->count * b->size;
		size_t n = (size_t) (c - p);

		/* an open packet without events says nothing, unless it carries new losses */
		if (n > UST_PACKET_HEADER ||
		    (n == UST_PACKET_HEADER &&
		     disc != (nk ? tk_load_u64(pk[nk - 1].p + UST_OFF_DISC, TK_BYTE_ORDER_HOST)
				 : 0))) {
			copy_packet(dst, p, n);
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			/* good unless packet seq + count, in the same sub-buffer, began */
			if (__atomic_load_n(&b->gen, __ATOMIC_RELAXED) <= 2 * (seq + b->count) &&
			    tk_load_u64(dst + UST_OFF_SEQ, TK_BYTE_ORDER_HOST) == seq) {
				ust_packet_finish(dst, n, ts_end, disc);
				pk[nk].seq = seq;
				pk[nk].p = dst;
				pk[nk++].n = n;
			}
		}
	}
	if (!nk)
		return TK_OK;
	snprintf(name, sizeof(name), "channel0_%d_%" PRIu64, (int) b->vpid,
		 b->instance & UINT32_MAX);
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return TK_FAIL(TK_ERR_IO, "Cannot create snapshot stream file: name=%s, errno=%s",
			       name, strerror(errno));
	ust_packet_zero(b, hdr);
	st = ust_write_all(fd, hdr, sizeof(hdr), name);
	for (i = 0; i < nk && st >= 0; i++)
		st = ust_write_all(fd, pk[i].p, pk[i].n, name);
	if (close(fd) && st >= 0)
		st = TK_FAIL(TK_ERR_IO, "Cannot close snapshot stream file: name=%s, errno=%s",
			     name, strerror(errno));
	return st;
}

enum tk_status ust_snapshot_write(int dirfd)
{
	size_t size = ust_sess.subbuf_size, count = ust_sess.subbuf_count;
	uint8_t *copy = malloc(size * (count + 1));
	struct snap_pkt *pk = calloc(count + 1, sizeof(*pk));
	enum tk_status st = TK_OK, st2;
	struct ust_buf *b;

	if (!copy || !pk) {
		free(copy);
		free(pk);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot copy rings: bytes=%zu", size * (count + 1));
	}
	for (b = ust_sess.bufs; b; b = b->next) {
		if (!b->closed)
			continue;
		st2 = snapshot_buf(b, dirfd, copy, pk);
		if (st2 < 0 && st >= 0)
			st = st2; /* the other threads' streams are still worth writing */
	}
	free(copy);
	free(pk);
	return st;
}
