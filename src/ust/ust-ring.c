/* SPDX-License-Identifier: MIT */
/*
 * Readers of ring files and stream files (ust-ring.h), shared by the runtime, which writes
 * the ring files, and the recovery, which reads them after a crash: the header, the complete
 * packets of the sub-buffers, how much of a stream file is whole packets. Everything works on
 * bytes in memory so that the fuzz harness (tests/fuzz/fuzz-ust-ring.c) drives it directly.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "ust-priv.h"
#include "ust-ring.h"

/* A NUL-terminated string within the @max bytes at @p, not empty: its length, else -1. */
static long field_string(const uint8_t *p, size_t max)
{
	const uint8_t *nul = memchr(p, 0, max);

	return nul && nul != p ? (long) (nul - p) : -1;
}

enum tk_status ust_ring_parse(struct ust_ring_info *out, const void *data, size_t size)
{
	const uint8_t *p = data;
	enum tk_byte_order bo = TK_BYTE_ORDER_LE;
	uint32_t version;
	long len;

	if (size < UST_RING_HEADER)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot read ring header: size=%zu, reason=truncated",
			       size);
	if (memcmp(p, UST_RING_MAGIC, 8))
		return TK_FAIL(TK_ERR_FORMAT, "Cannot read ring header: reason=bad magic");
	if (tk_load_u32(p + UST_RING_OFF_ORDER, TK_BYTE_ORDER_BE) == UST_RING_ORDER_MARK)
		bo = TK_BYTE_ORDER_BE;
	else if (tk_load_u32(p + UST_RING_OFF_ORDER, TK_BYTE_ORDER_LE) != UST_RING_ORDER_MARK)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ring header: reason=bad byte-order mark");
	version = tk_load_u32(p + UST_RING_OFF_VERSION, bo);
	if (version != UST_RING_VERSION)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ring header: version=%" PRIu32
			       ", reason=unknown version",
			       version);
	memset(out, 0, sizeof(*out));
	out->order = bo;
	out->data_off = tk_load_u32(p + UST_RING_OFF_DATA, bo);
	out->count = tk_load_u32(p + UST_RING_OFF_COUNT, bo);
	out->size = tk_load_u64(p + UST_RING_OFF_SIZE, bo);
	/* the runtime's own limits (tk_ust_session_start()) */
	if (out->size < 4096 || out->size > (64u << 20) || out->size % 8 || out->count < 2 ||
	    out->count > 1024)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ring header: subbuf-size=%" PRIu64
			       ", subbuf-count=%u, reason=sizes out of range",
			       out->size, out->count);
	if (out->data_off < UST_RING_HEADER || out->data_off > size ||
	    (uint64_t) out->count * out->size > size - out->data_off)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ring header: data-offset=%" PRIu64
			       ", subbuf-size=%" PRIu64 ", subbuf-count=%u, file-size=%zu, "
			       "reason=sub-buffers beyond the file",
			       out->data_off, out->size, out->count, size);
	out->instance = tk_load_u64(p + UST_RING_OFF_INST, bo);
	out->pid = (int32_t) tk_load_u32(p + UST_RING_OFF_PID, bo);
	out->tid = (int32_t) tk_load_u32(p + UST_RING_OFF_TID, bo);
	out->start_time = tk_load_u64(p + UST_RING_OFF_START, bo);
	memcpy(out->uuid, p + UST_RING_OFF_UUID, 16);
	memcpy(out->boot_id, p + UST_RING_OFF_BOOT, 16);
	if (out->pid <= 0)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ring header: pid=%" PRId32 ", reason=not a process ID",
			       out->pid);
	len = field_string(p + UST_RING_OFF_STREAM, UST_RING_STREAM_MAX);
	out->stream = (const char *) p + UST_RING_OFF_STREAM;
	if (len < 0 || out->stream[0] == '.' || strchr(out->stream, '/') ||
	    !strcmp(out->stream, "metadata"))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ring header: reason=stream name is not a file name");
	out->first_ts = tk_load_u64(p + UST_RING_OFF_FIRST, bo);
	len = field_string(p + UST_RING_OFF_DIR, UST_RING_DIR_MAX);
	out->trace_dir = (const char *) p + UST_RING_OFF_DIR;
	if (len < 0 || out->trace_dir[0] != '/')
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ring header: reason=trace directory is not an absolute "
			       "path");
	return TK_OK;
}

/*
 * Check the whole packet header at @p (@avail bytes from there) against the stream's UUID;
 * its size in bytes in *@bytes. @what names it in causes.
 */
static enum tk_status packet_check(const uint8_t *p, uint64_t avail, enum tk_byte_order bo,
				   const uint8_t uuid[16], uint64_t *bytes, const char *what,
				   uint64_t where)
{
	uint64_t psize = tk_load_u64(p + UST_OFF_PACKET, bo);
	uint64_t csize = tk_load_u64(p + UST_OFF_CONTENT, bo);

	if (tk_load_u32(p + UST_OFF_MAGIC, bo) != UST_MAGIC)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read packet: %s=%" PRIu64 ", reason=bad magic", what, where);
	if (memcmp(p + UST_OFF_UUID, uuid, 16))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read packet: %s=%" PRIu64 ", reason=UUID of another trace",
			       what, where);
	if (psize % 8 || psize / 8 < UST_PACKET_HEADER || psize / 8 > avail || csize > psize ||
	    csize / 8 < UST_PACKET_HEADER)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read packet: %s=%" PRIu64 ", packet-size=%" PRIu64
			       ", content-size=%" PRIu64 ", room=%" PRIu64 ", reason=sizes out of "
			       "range",
			       what, where, psize, csize, avail * 8);
	if (tk_load_u64(p + UST_OFF_TS_END, bo) < tk_load_u64(p + UST_OFF_TS_BEGIN, bo))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read packet: %s=%" PRIu64 ", reason=ends before it begins",
			       what, where);
	*bytes = psize / 8;
	return TK_OK;
}

static int packet_cmp(const void *a, const void *b)
{
	const struct ust_ring_packet *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

enum tk_status ust_ring_packets(const struct ust_ring_info *r, const void *data, size_t size,
				struct ust_ring_packet *out, unsigned int *n)
{
	const uint8_t *base = data;
	enum tk_status st;
	unsigned int i, k = 0;
	uint64_t bytes = 0;

	(void) size; /* ust_ring_parse() checked that every sub-buffer is within it */
	for (i = 0; i < r->count; i++) {
		uint64_t off = r->data_off + (uint64_t) i * r->size;
		const uint8_t *p = base + off;

		if (tk_load_u64(p + UST_OFF_PACKET, r->order) == 0)
			continue; /* open, or never used */
		st = packet_check(p, r->size, r->order, r->uuid, &bytes, "subbuf", i);
		if (st < 0)
			return st;
		if (tk_load_u64(p + UST_OFF_INSTANCE, r->order) != r->instance)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read packet: subbuf=%u, reason=another stream's", i);
		out[k].seq = tk_load_u64(p + UST_OFF_SEQ, r->order);
		out[k].off = off;
		out[k].size = bytes;
		k++;
	}
	qsort(out, k, sizeof(*out), packet_cmp);
	for (i = 1; i < k; i++)
		if (out[i].seq == out[i - 1].seq)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read packets: seq=%" PRIu64 ", reason=found twice",
				       out[i].seq);
	*n = k;
	return TK_OK;
}

enum tk_status ust_stream_scan(const void *data, size_t size, enum tk_byte_order order,
			       const uint8_t uuid[16], uint64_t *good, int *has_last,
			       uint64_t *last)
{
	const uint8_t *p = data;
	uint64_t off = 0, bytes = 0, psize;
	enum tk_status st;

	*has_last = 0;
	*last = 0;
	while (size - off >= UST_PACKET_HEADER) {
		psize = tk_load_u64(p + off + UST_OFF_PACKET, order);
		if (psize % 8 == 0 && psize / 8 >= UST_PACKET_HEADER && psize / 8 > size - off &&
		    tk_load_u32(p + off + UST_OFF_MAGIC, order) == UST_MAGIC)
			break; /* the last packet, cut short */
		st = packet_check(p + off, size - off, order, uuid, &bytes, "offset", off);
		if (st < 0)
			return st;
		*has_last = 1;
		*last = tk_load_u64(p + off + UST_OFF_SEQ, order);
		off += bytes;
	}
	*good = off;
	return TK_OK;
}

void ust_ring_packet0(const struct ust_ring_info *r, const uint8_t *first, uint8_t *out)
{
	uint64_t ts = tk_load_u64(first + UST_OFF_TS_BEGIN, r->order);

	if (r->first_ts < ts)
		ts = r->first_ts;
	memcpy(out, first, UST_PACKET_HEADER);
	tk_store_u64(out + UST_OFF_TS_BEGIN, ts, r->order);
	tk_store_u64(out + UST_OFF_TS_END, ts, r->order);
	tk_store_u64(out + UST_OFF_CONTENT, UST_PACKET_HEADER * 8, r->order);
	tk_store_u64(out + UST_OFF_PACKET, UST_PACKET_HEADER * 8, r->order);
	tk_store_u64(out + UST_OFF_SEQ, 0, r->order);
	tk_store_u64(out + UST_OFF_DISC, 0, r->order);
}

int ust_boot_id(uint8_t out[16])
{
	char s[64];
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	size_t n = 0, i;

	if (!f)
		return -1;
	if (!fgets(s, sizeof(s), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	memset(out, 0, 16);
	for (i = 0; s[i] && n < 32; i++) {
		int c = s[i], v;

		if (c == '-')
			continue;
		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v = c - 'A' + 10;
		else
			break;
		out[n / 2] = (uint8_t) (out[n / 2] | v << (n % 2 ? 0 : 4));
		n++;
	}
	return n == 32 ? 0 : -1;
}

uint64_t ust_proc_start_time(int pid, char *state)
{
	char path[64], buf[1024], *s;
	unsigned long long v = 0;
	FILE *f;
	size_t n;
	int field;

	if (state)
		*state = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* after the command name, which may hold spaces and parentheses: field 3 on */
	s = strrchr(buf, ')');
	if (!s)
		return 0;
	if (state && s[1] == ' ')
		*state = s[2];
	for (field = 2; field < 22 && s; field++)
		s = strchr(s + 1, ' ');
	if (!s || sscanf(s + 1, "%llu", &v) != 1)
		return 0;
	return v;
}
