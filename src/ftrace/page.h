/* SPDX-License-Identifier: MIT */
/*
 * The kernel ring buffer's sub-buffer ("page") format: a header (timestamp, commit word) and
 * 4-byte aligned records of every type_len (data, padding, time extend, absolute time stamp).
 * trace.dat files carry these pages as the kernel wrote them, and the recorder reads them
 * from trace_pipe_raw. Reference: ../shared/reference/tracedat.md section 5.
 *
 *	struct ftrace_page pg;
 *	struct ftrace_record rec;
 *
 *	st = ftrace_page_init(&pg, &ctx->layout, ctx->bo, data, page_size);
 *	if (pg.missed)  ... report "[N EVENTS DROPPED]" before the first record
 *	while ((st = ftrace_page_next(&pg, &rec)) == TK_OK)
 *		... rec.ts, rec.data, rec.size
 *	st is TK_END at the end of the page, or an error with its cause
 */
#ifndef TK_FTRACE_PAGE_H
#define TK_FTRACE_PAGE_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "ftrace.h"

/* One data record: a payload (common fields first) and its absolute timestamp. */
struct ftrace_record {
	uint64_t ts;	     /* ring-buffer clock units (ns for the usual clocks) */
	const uint8_t *data; /* payload, inside the page */
	uint32_t size;	     /* payload bytes (may include alignment padding at the end) */
};

struct ftrace_page {
	const uint8_t *data; /* start of the sub-buffer (its header) */
	uint32_t pos;	     /* offset in data of the next record */
	uint32_t end;	     /* data_offset + committed bytes */
	uint64_t ts;	     /* timestamp the next delta applies to */
	int64_t missed;	     /* events lost before this page: 0 none, -1 an unknown number */
	enum tk_byte_order bo;
	const struct ftrace_page_layout *layout;
};

/*
 * Read the header of the sub-buffer at @data (@size bytes available, at least the layout's
 * sub-buffer size for a full page). Fails with a cause when the commit count is larger than
 * the page.
 */
enum tk_status ftrace_page_init(struct ftrace_page *pg, const struct ftrace_page_layout *layout,
				enum tk_byte_order bo, const uint8_t *data, size_t size);

/* ftrace_page_next() for every record but the common one it handles inline. */
enum tk_status ftrace_page_next_slow(struct ftrace_page *pg, struct ftrace_record *rec);

/*
 * The next data record of the page: TK_OK, TK_END after the last one, or TK_ERR_FORMAT with
 * a cause naming the offset in the page when a record runs past the committed bytes.
 * Padding and time records are consumed here, never returned. Inline for the usual record
 * of a little-endian page (a data record whose length is in its header word), which is most
 * of every trace: millions per second go through here.
 */
static inline enum tk_status ftrace_page_next(struct ftrace_page *pg, struct ftrace_record *rec)
{
	if (__builtin_expect(
		    pg->bo == TK_BYTE_ORDER_LE && pg->end - pg->pos >= 4 && pg->pos < pg->end, 1)) {
		const uint8_t *p = pg->data + pg->pos;
		uint32_t word = tk_load_u32(p, TK_BYTE_ORDER_LE), type_len = word & 0x1f;
		uint32_t len = type_len * 4;

		if (type_len >= 1 && type_len <= 28 && len <= pg->end - pg->pos - 4) {
			pg->ts += word >> 5;
			rec->ts = pg->ts;
			rec->data = p + 4;
			rec->size = len;
			pg->pos += 4 + len;
			return TK_OK;
		}
	}
	return ftrace_page_next_slow(pg, rec);
}

#endif /* TK_FTRACE_PAGE_H */
