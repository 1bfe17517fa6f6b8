/* SPDX-License-Identifier: MIT */
/*
 * The application tracer's runtime, shared by ust-buf.c (each thread's ring of packets: the
 * slow path of the reserve, opening and closing packets, the thread's end) and ust-session.c
 * (providers, sessions, the consumer thread, the metadata through the CTF writer). doc/ust.md
 * tells the design; this header holds the state both files touch.
 */
#ifndef TK_UST_PRIV_H
#define TK_UST_PRIV_H

#include <pthread.h>
#include <stdint.h>

#include <tracekit/tracepoint.h>
#include <tracekit/ust.h>

/*
 * Packet header and context, as the CTF writer declares them for a stream class with a clock,
 * cpu_id and two more packet-context fields, vpid and vtid (tk_ctf_writer.h): every field
 * byte-aligned.
 */
#define UST_MAGIC	  0xC1FC1FC1u
#define UST_OFF_MAGIC	  0
#define UST_OFF_UUID	  4
#define UST_OFF_STREAM_ID 20
#define UST_OFF_INSTANCE  24
#define UST_OFF_TS_BEGIN  32
#define UST_OFF_TS_END	  40
#define UST_OFF_CONTENT	  48
#define UST_OFF_PACKET	  56
#define UST_OFF_SEQ	  64
#define UST_OFF_DISC	  72
#define UST_OFF_CPU	  80
#define UST_OFF_VPID	  84
#define UST_OFF_VTID	  88
#define UST_PACKET_HEADER 92

/*
 * Overwrite mode keeps the rings of threads that ended, for snapshots, but not without end:
 * past this many, the ring of the thread that ended first goes (a process that starts and
 * ends threads all day keeps the newest dead threads' last events, in bounded memory).
 */
#define UST_ENDED_MAX 64

/*
 * Discard mode: a ring whose thread ended, once written, waits for a new thread to adopt it
 * (its stream goes on, packets carrying the new thread's vtid), so that threads that come and
 * go make no more streams than were alive at once; at most this many wait, the rest are freed.
 */
#define UST_IDLE_MAX 64

/* Sub-buffer states: the producer's to fill, or the consumer's to write. */
#define UST_SUB_FREE 0u
#define UST_SUB_FULL 1u

/*
 * One thread's ring: @count sub-buffers of @size bytes at @mem. The producer (the thread)
 * owns every field it alone writes (@cur, @seq, @discarded, @disc_written, @open); it hands a
 * sub-buffer over with a release store of its state (UST_SUB_FULL) and the consumer gives it
 * back with a release store of UST_SUB_FREE, having written it. @tls points at the thread's
 * struct tk_ust_tls so that the session's stop can read its commit and move its end.
 */
struct ust_buf {
	uint8_t *mem;
	size_t size;
	unsigned int count;
	uint32_t *state;	/* per sub-buffer: UST_SUB_FREE or UST_SUB_FULL */
	unsigned int cur;	/* producer: sub-buffer of the open packet, or the next one */
	unsigned int populated; /* producer: sub-buffers [0, populated) have their pages */
	int open;		/* producer: a packet is open in sub-buffer @cur */
	uint64_t seq;		/* producer: packet_seq_num of the next packet */
	uint64_t discarded;	/* events dropped so far (relaxed atomic: the stop reads it) */
	uint64_t disc_written;	/* the count the last closed packet carries */
	unsigned int next_read; /* consumer: next sub-buffer to write */
	uint64_t instance;	/* stream_instance_id: process ID << 32 | the thread's number */
	int32_t vpid;
	int32_t vtid;
	int exited;	     /* release-stored when the thread's last packet is handed over */
	uint64_t ended;	     /* overwrite mode: the order in which threads ended (from 1) */
	uint64_t last_ts;    /* ended: the stream's last time written (its next thread's floor) */
	int idle;	     /* discard mode: ended, all written, for a new thread to adopt */
	int orphan;	     /* the session ended: the thread frees the ring */
	uint64_t generation; /* the session this ring belongs to */
	int fd;		     /* consumer: the stream file during a pass, else -1 */
	int created;	     /* consumer: the stream file exists */
	struct tk_ust_tls *tls;
	struct ust_buf *next; /* the session's list, under ust_lock */
	/*
	 * Overwrite mode only (NULL, 0 otherwise), what a snapshot reads while the thread
	 * writes: per sub-buffer, the packet_seq_num + 1 of the closed packet it holds, 0 while
	 * a packet is open or being written there (release-stored at the close, zeroed before
	 * a release fence at the open); and @gen, 2 * seq + 1 while packet seq is being opened,
	 * 2 * seq + 2 once it is (release), so that a snapshot reads @tls->commit and the open
	 * packet's seq as one pair. @first_ts (both modes): the thread's first event's time,
	 * packet 0's (empty, ust-buf.c).
	 */
	uint64_t *closed;
	uint64_t gen;
	uint64_t first_ts;
	struct ust_shm *shm; /* the ring's file (shm_dir), or NULL: anonymous memory */
};

/* What the session holds, under ust_lock unless said otherwise. */
struct ust_session {
	int active;	     /* relaxed atomic: events may be written */
	uint64_t generation; /* relaxed atomic: changes at each start */
	size_t subbuf_size;
	unsigned int subbuf_count;
	uint8_t uuid[16];
	uint64_t next_instance;
	int child;		/* a forked child writing into its parent's trace (no metadata) */
	int need_consumer;	/* start the consumer thread at the first ring (forked child) */
	int overwrite;		/* TK_UST_MODE_OVERWRITE: rings kept, written by snapshots */
	unsigned int snapshots; /* snapshots taken so far */
	uint64_t ended;		/* overwrite mode: threads ended so far */
	unsigned int idle;	/* discard mode: idle rings in @bufs */
	struct ust_buf *bufs;
	char *dir;
	int dirfd;
	char *shm_dir;	/* rings in files there (tk_ust_opts.shm_dir), or NULL */
	char *real_dir; /* @dir's absolute path, which ring files name */
};

extern pthread_mutex_t ust_lock;
extern struct ust_session ust_sess;

/* ust-session.c: start the consumer thread, under ust_lock, if the session wants one. */
void ust_consumer_start_locked(void);
/* Write @n bytes at @p to the stream file @name (of the session or a snapshot) open at @fd. */
enum tk_status ust_write_all(int fd, const uint8_t *p, size_t n, const char *name);
/* Say the error chain's causes on stderr, as "tracekit-ust: CAUSE" lines. */
void ust_say_causes(void);

/*
 * ust-snapshot.c: write every ring of the session (overwrite mode) as stream files into the
 * snapshot directory @dirfd, under ust_lock while the threads keep writing.
 */
enum tk_status ust_snapshot_write(int dirfd);
/*
 * Tests only (tests/ust/ust-overwrite-race, which compiles the runtime in): called halfway
 * through each packet's copy, so that a test can overwrite the packet meanwhile. NULL.
 */
extern void (*ust_snapshot_hook)(void);

/* ust-buf.c */

/* Close the calling thread's open packet (if any) and hand it to the consumer. */
void ust_buf_close_own(uint64_t ts);
/* Forget the calling thread's ring without touching it (a forked child's copy). */
void ust_buf_forget_own(void);
/* Wake the consumer thread (a packet is ready, or it must stop). */
void ust_consumer_wake(void);
/* Fill the end of the packet at @p: end time, sizes (@content bytes), loss count. */
void ust_packet_finish(uint8_t *p, size_t content, uint64_t ts_end, uint64_t discarded);
/* Write at @p a packet of ring @b without events, carrying its loss count. */
void ust_packet_empty(struct ust_buf *b, uint8_t *p, uint64_t ts, uint64_t seq);
/*
 * Write at @p packet 0 of ring @b's stream (doc/ust.md, Buffers): no event, no loss, at the
 * thread's first event; the consumer and snapshots begin each stream file with it.
 */
void ust_packet_zero(struct ust_buf *b, uint8_t *p);
/* Bumped, then woken, when the consumer has work (a futex word). */
extern uint32_t ust_wake_seq;
/* Free a ring. */
void ust_buf_free(struct ust_buf *b);
/* The pthread key whose destructor ends a thread's ring; made once. */
int ust_buf_key_init(void);

/* ust-shm.c: rings in a file mapping (ust-ring.h) */

/*
 * Make @b's ring file in ust_sess.shm_dir (@b's size, count, instance, vpid and vtid set)
 * and map it: the first sub-buffer's address, or MAP_FAILED.
 */
uint8_t *ust_shm_create(struct ust_shm **out, const struct ust_buf *b);
/* Remove the ring's file, the mapping kept (the trace is complete); NULL does nothing. */
void ust_shm_unlink(struct ust_shm *s);
/* Unmap and remove the ring's file (only the process that made it); NULL does nothing. */
void ust_shm_destroy(struct ust_shm *s);

/* ust-eh-hook.c: the EventHeader output's share of the runtime (doc/ust.md) */

/* Read TRACEKIT_UST_EVENTHEADER and TRACEKIT_UST_INTERCEPTOR (the library's constructor). */
void ust_eh_hook_env(void);
/* Give @p's events (their IDs set) their EventHeader form, registered or intercepted. */
void ust_eh_hook_provider_add(struct tk_tp_provider *p);
/* Unregister and forget @p's events' EventHeader forms; bit 1 cleared. */
void ust_eh_hook_provider_remove(struct tk_tp_provider *p);
/* Events the EventHeader output dropped (no memory, a failed write). */
uint64_t ust_eh_hook_dropped(void);
/* pthread_atfork()'s three handlers' shares, and the process's end (interceptor closed). */
void ust_eh_hook_fork_prepare(void);
void ust_eh_hook_fork_parent(void);
void ust_eh_hook_fork_child(void);
void ust_eh_hook_exit(void);

#endif /* TK_UST_PRIV_H */
