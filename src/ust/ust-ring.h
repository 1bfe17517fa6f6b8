/* SPDX-License-Identifier: MIT */
/*
 * Ring files: a thread's ring of packets kept in a file mapping (TRACEKIT_UST_SHM_DIR), so
 * that what a killed process held is still there for `tracekit ust-recover` (doc/ust.md,
 * "Crash recovery"). The runtime (ust-shm.c, libtracekit-ust) writes the header once, when it
 * makes the ring; the recovery (ust-recover.c, libtracekit) reads it back. Both sides share
 * this layout and the readers below (ust-ring.c, compiled into both libraries).
 *
 * A ring file is a header, then, at @data_off (a page boundary), @count sub-buffers of @size
 * bytes, each one CTF packet as the thread writes it (ust-priv.h's UST_OFF_*). Every field is
 * in the writing process's byte order, which the order mark tells.
 *
 *	offset	size	field
 *	0	8	magic "TKUSTRNG"
 *	8	4	version (1)
 *	12	4	order mark 0x01020304
 *	16	4	data_off: where sub-buffer 0 starts
 *	20	4	count: sub-buffers
 *	24	8	size: bytes per sub-buffer
 *	32	8	stream_instance_id of the packets
 *	40	4	pid (vpid of the packets)
 *	44	4	tid (vtid)
 *	48	8	the process's start time (/proc/PID/stat field 22, clock ticks), 0: unknown
 *	56	16	the trace's UUID (each packet's header carries it)
 *	72	16	the kernel's boot ID when the ring was made
 *	88	64	the stream file's name in the trace directory, NUL-terminated
 *	152	8	the thread's first event's time: packet 0's (doc/ust.md, Buffers)
 *	160	4096	the trace directory's absolute path, NUL-terminated
 *
 * A sub-buffer holds a complete packet when its packet_size is not 0: the thread zeroes it
 * before anything else when it opens a packet and stores it last, with a release store, when
 * it closes one (ust-buf.c), so a process killed at any instruction leaves each sub-buffer
 * either complete or marked incomplete.
 */
#ifndef TK_UST_RING_H
#define TK_UST_RING_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/bytes.h"

#define UST_RING_MAGIC	     "TKUSTRNG"
#define UST_RING_VERSION     1u
#define UST_RING_ORDER_MARK  0x01020304u
#define UST_RING_OFF_VERSION 8
#define UST_RING_OFF_ORDER   12
#define UST_RING_OFF_DATA    16
#define UST_RING_OFF_COUNT   20
#define UST_RING_OFF_SIZE    24
#define UST_RING_OFF_INST    32
#define UST_RING_OFF_PID     40
#define UST_RING_OFF_TID     44
#define UST_RING_OFF_START   48
#define UST_RING_OFF_UUID    56
#define UST_RING_OFF_BOOT    72
#define UST_RING_OFF_STREAM  88
#define UST_RING_STREAM_MAX  64
#define UST_RING_OFF_FIRST   152
#define UST_RING_OFF_DIR     160
#define UST_RING_DIR_MAX     4096
#define UST_RING_HEADER	     (UST_RING_OFF_DIR + UST_RING_DIR_MAX)
/* Ring files are named PREFIX-PID-SESSION-N.ring in the directory. */
#define UST_RING_SUFFIX ".ring"

/* What a ring file's header says; the strings point into the file's bytes. */
struct ust_ring_info {
	enum tk_byte_order order;
	uint64_t data_off;
	unsigned int count;
	uint64_t size;
	uint64_t instance;
	int32_t pid;
	int32_t tid;
	uint64_t start_time;
	uint8_t uuid[16];
	uint8_t boot_id[16];
	const char *stream;
	uint64_t first_ts;
	const char *trace_dir;
};

/* One complete packet of a ring: its packet_seq_num, where it is and its bytes. */
struct ust_ring_packet {
	uint64_t seq;
	uint64_t off;
	uint64_t size;
};

/*
 * Read the header of the ring file whose @size bytes are at @data. Every size is checked
 * against the file (the sub-buffers must all be there), the strings must end within their
 * fields, the stream name must be a plain file name and the directory absolute.
 * Return: TK_OK, or TK_ERR_FORMAT with a cause.
 */
enum tk_status ust_ring_parse(struct ust_ring_info *out, const void *data, size_t size);

/*
 * The complete packets of a ring (@r from ust_ring_parse() on the same bytes), sorted by
 * packet_seq_num, into @out (room for r->count). A sub-buffer whose packet_size is 0 holds an
 * open packet or none and is left out; one whose packet_size is set must be a whole packet
 * of this ring (magic, UUID, stream_instance_id, sizes within the sub-buffer, times in order,
 * sequence numbers unique), else the ring is damaged.
 * Return: TK_OK and *@n set, or TK_ERR_FORMAT with a cause.
 */
enum tk_status ust_ring_packets(const struct ust_ring_info *r, const void *data, size_t size,
				struct ust_ring_packet *out, unsigned int *n);

/*
 * Scan a stream file's @size bytes (packets as the consumer writes them, in @order, each
 * carrying @uuid): *@good is the length of its whole packets from the start, *@has_last and
 * *@last the packet_seq_num of the last one. A file that ends in the middle of a packet (the
 * consumer killed while writing) gives the length before it.
 * Return: TK_OK, or TK_ERR_FORMAT when a whole packet is not one of this stream's.
 */
enum tk_status ust_stream_scan(const void *data, size_t size, enum tk_byte_order order,
			       const uint8_t uuid[16], uint64_t *good, int *has_last,
			       uint64_t *last);

/*
 * Stream packet 0 (doc/ust.md, Buffers) of ring @r into the 92 bytes at @out: the header of
 * @first (a complete packet of the ring) with no event, no loss, packet_seq_num 0 and both
 * times the ring's first event's (not after @first's beginning).
 */
void ust_ring_packet0(const struct ust_ring_info *r, const uint8_t *first, uint8_t *out);

/* The kernel's boot ID (/proc/sys/kernel/random/boot_id) as 16 bytes; -1 if unknown. */
int ust_boot_id(uint8_t out[16]);

/*
 * Process @pid's start time in clock ticks after boot (/proc/PID/stat), 0 if unknown; its
 * state letter in *@state when @state is not NULL ('Z' for a zombie, 0 if unknown).
 */
uint64_t ust_proc_start_time(int pid, char *state);

#endif /* TK_UST_RING_H */
