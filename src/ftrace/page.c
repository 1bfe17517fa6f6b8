// SPDX-License-Identifier: MIT
/*
 * Decoder of one kernel ring-buffer sub-buffer ("page"), as trace.dat files and
 * trace_pipe_raw carry it: a header (timestamp, commit word) and 4-byte aligned records.
 *
 * The rules follow the kernel's writer (kernel/trace/ring_buffer.c) and libtraceevent's
 * kbuffer reader, which trace-cmd uses, so timestamps come out exactly as `trace-cmd report`
 * prints them (reference/tracedat.md section 5):
 *
 *   - the page header timestamp is the base of the first record's delta;
 *   - a data record adds its 27-bit delta to the running timestamp, and so does a discarded
 *     event (padding with a non-zero delta), as kbuffer does;
 *   - a time extend adds (array[0] << 27) + delta before the next record;
 *   - an absolute time stamp replaces the low 59 bits and keeps the top 5 bits of the running
 *     timestamp (the TAI clock may use them; the record has no room for them);
 *   - padding with a zero delta ends the page: the kernel leaves no room for a length there.
 *
 * Everything is bounded by the committed bytes, which init checks against the page size, so
 * no load ever leaves the page; a record that runs past the committed bytes is a format
 * error naming its offset in the page, reported after every good record before it.
 * trace-cmd refuses only a commit larger than the whole page ("bad page read"), header
 * included, and then reads past the page; init refuses any commit past the page's data.
 *
 * What trace-cmd prints as "[N EVENTS DROPPED]" comes from pg->missed, but kbuffer reports
 * it only when the page's first record starts the data (no time record or discarded event
 * before it); the reader decides, with rec.data, whether to copy that quirk.
 */
#include "../common/error.h"
#include "page.h"

#define COMMIT_MASK	((UINT32_C(1) << 27) - 1) /* bytes of data; the bits above are flags */
#define MISSED_EVENTS	(UINT64_C(1) << 31)	  /* events were lost before this page */
#define MISSED_STORED	(UINT64_C(1) << 30)	  /* ... and their count follows the data */
#define TS_TOP_BITS	(UINT64_C(0xf8) << 56)	  /* not carried by absolute time stamps */
#define DELTA_BITS	27
#define TYPE_PADDING	29
#define TYPE_TIME_EXT	30
#define TYPE_TIME_STAMP 31

static uint64_t load_long(const uint8_t *p, uint32_t size, enum tk_byte_order bo)
{
	return size == 8 ? tk_load_u64(p, bo) : tk_load_u32(p, bo);
}

/*
 * Check the header_page layout once per page: it comes from the file, so a damaged one is
 * bad input, not a bug. The header fields must lie before the data, inside @limit bytes.
 */
static enum tk_status check_layout(const struct ftrace_page_layout *l, size_t limit)
{
	if (l->ts_size != 8 || (l->commit_size != 4 && l->commit_size != 8) ||
	    l->ts_offset > l->data_offset || l->data_offset - l->ts_offset < 8 ||
	    l->commit_offset > l->data_offset || l->data_offset - l->commit_offset < l->commit_size)
		return TK_FAIL(
			TK_ERR_FORMAT,
			"Cannot use ring-buffer page layout: timestamp-offset=%u, "
			"timestamp-size=%u, commit-offset=%u, commit-size=%u, data-offset=%u",
			l->ts_offset, l->ts_size, l->commit_offset, l->commit_size, l->data_offset);
	if (l->data_offset > limit)
		return TK_FAIL(
			TK_ERR_FORMAT,
			"Cannot read ring-buffer page header: data-offset=%u, page-bytes=%zu",
			l->data_offset, limit);
	return TK_OK;
}

enum tk_status ftrace_page_init(struct ftrace_page *pg, const struct ftrace_page_layout *layout,
				enum tk_byte_order bo, const uint8_t *data, size_t size)
{
	uint64_t commit;
	uint32_t committed;
	int64_t missed = 0;
	size_t limit;
	enum tk_status st;

	TK_ASSERT_PRE(pg && layout && (data || !size));
	/* a full page is the sub-buffer; a shorter buffer (a file cut short) bounds it further */
	limit = (size_t) layout->data_offset + layout->data_size;
	if (limit > size)
		limit = size;
	st = check_layout(layout, limit);
	if (st < 0)
		return st;

	commit = load_long(data + layout->commit_offset, layout->commit_size, bo);
	committed = (uint32_t) commit & COMMIT_MASK;
	if (committed > limit - layout->data_offset)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ring-buffer page: commit=%u, data-offset=%u, "
			       "page-bytes=%zu",
			       committed, layout->data_offset, limit);

	if (commit & MISSED_EVENTS) {
		missed = -1;
		if (commit & MISSED_STORED) {
			size_t at = (size_t) layout->data_offset + committed;

			if (layout->commit_size > limit - at)
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot read missed-events count: offset=%zu, "
					       "page-bytes=%zu",
					       at, limit);
			missed = (int64_t) load_long(data + at, layout->commit_size, bo);
		}
	}
	pg->missed = missed;
	pg->data = data;
	pg->pos = layout->data_offset;
	pg->end = layout->data_offset + committed;
	pg->ts = tk_load_u64(data + layout->ts_offset, bo);
	pg->bo = bo;
	pg->layout = layout;
	return TK_OK;
}

static enum tk_status bad_record(const struct ftrace_page *pg, const char *what, uint32_t type_len,
				 uint64_t len)
{
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot read ring-buffer %s: offset=%u, type-len=%u, length=%llu, end=%u",
		       what, pg->pos, type_len, (unsigned long long) len, pg->end);
}

enum tk_status ftrace_page_next_slow(struct ftrace_page *pg, struct ftrace_record *rec)
{
	TK_ASSERT_PRE(pg && rec && pg->data);
	while (pg->pos < pg->end) {
		const uint8_t *p = pg->data + pg->pos;
		uint32_t avail = pg->end - pg->pos;
		uint32_t word, type_len, delta, array0, len;

		if (avail < 4)
			return bad_record(pg, "event header", 0, 4);
		word = tk_load_u32(p, pg->bo);
		/* the bit-field order follows the byte order (kbuffer type_len4host, ts4host) */
		if (pg->bo == TK_BYTE_ORDER_LE) {
			type_len = word & 0x1f;
			delta = word >> 5;
		} else {
			type_len = word >> DELTA_BITS;
			delta = word & ((UINT32_C(1) << DELTA_BITS) - 1);
		}

		if (type_len >= 1 && type_len <= 28) {
			len = type_len * 4;
			if (len > avail - 4)
				return bad_record(pg, "event", type_len, len);
			pg->ts += delta;
			rec->ts = pg->ts;
			rec->data = p + 4;
			rec->size = len;
			pg->pos += 4 + len;
			return TK_OK;
		}

		if (type_len == TYPE_PADDING && delta == 0) {
			pg->pos = pg->end; /* the rest of the page is padding */
			break;
		}

		/* every other record has a 32-bit array[0] after the header word */
		if (avail < 8)
			return bad_record(pg, "event", type_len, 8);
		array0 = tk_load_u32(p + 4, pg->bo);

		switch (type_len) {
		case 0:
			/* array[0] counts itself; the payload is padded to 4 bytes */
			if (array0 < 4)
				return bad_record(pg, "event", type_len, array0);
			len = ((array0 - 4) + 3) & ~UINT32_C(3);
			if (len > avail - 8)
				return bad_record(pg, "event", type_len, array0);
			pg->ts += delta;
			rec->ts = pg->ts;
			rec->data = p + 8;
			rec->size = len;
			pg->pos += 8 + len;
			return TK_OK;
		case TYPE_PADDING:
			/* a discarded event: skip it, keep its delta as kbuffer does */
			if (array0 > avail - 4)
				return bad_record(pg, "discarded event", type_len, array0);
			pg->ts += delta;
			pg->pos += 4 + array0;
			break;
		case TYPE_TIME_EXT:
			pg->ts += ((uint64_t) array0 << DELTA_BITS) + delta;
			pg->pos += 8;
			break;
		default: /* TYPE_TIME_STAMP */
			pg->ts = ((uint64_t) array0 << DELTA_BITS | delta) | (pg->ts & TS_TOP_BITS);
			pg->pos += 8;
			break;
		}
	}
	return TK_END;
}
