/* SPDX-License-Identifier: MIT */
/*
 * The ring-buffer page encoder: records (timestamp, payload) back into sub-buffers laid out
 * as the kernel writes them (reference/tracedat.md section 5), for tools that rewrite a
 * trace.dat file with some events left out (`tracekit convert -e/--begin/--end`) or write
 * one from events of another format. The pages it makes decode with ftrace_page_next() to the
 * same records and timestamps.
 *
 *	struct ftrace_page_writer pw;
 *	ftrace_page_writer_init(&pw, &layout, bo, page_size, emit, payload);
 *	ftrace_page_writer_add(&pw, ts, data, size, 0);      per record, times not decreasing
 *	ftrace_page_writer_flush(&pw);                       emits the last page
 *	ftrace_page_writer_fini(&pw);
 *
 * emit() receives each finished page (page_size bytes) and returns a status; an error stops
 * the writer and is returned by the call that emitted.
 */
#ifndef TK_FTRACE_PAGE_WRITE_H
#define TK_FTRACE_PAGE_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "ftrace.h"

typedef enum tk_status (*ftrace_page_emit_fn)(const uint8_t *page, size_t size, void *payload);

struct ftrace_page_writer {
	struct ftrace_page_layout layout;
	enum tk_byte_order bo;
	uint32_t page_size;
	ftrace_page_emit_fn emit;
	void *payload;
	uint8_t *page;
	uint32_t used;	/* data bytes in the page */
	uint64_t ts;	/* time of the last record */
	int64_t missed; /* losses to flag on the current page (-1: an unknown number) */
	int empty;	/* no record in the page yet */
};

/* Set up for pages of @page_size bytes (at least the layout's data offset plus 16). */
enum tk_status ftrace_page_writer_init(struct ftrace_page_writer *pw,
				       const struct ftrace_page_layout *layout,
				       enum tk_byte_order bo, uint32_t page_size,
				       ftrace_page_emit_fn emit, void *payload);

/*
 * Add one record: @size bytes of payload (common fields first) at time @ts (not before the
 * previous record's). @missed_before: events lost just before this record (0 none, -1 an
 * unknown number), flagged on the page it starts, which then begins with it.
 */
enum tk_status ftrace_page_writer_add(struct ftrace_page_writer *pw, uint64_t ts,
				      const uint8_t *data, uint32_t size, int64_t missed_before);

/*
 * The largest record payload a page of @page_size bytes holds: the data area less the
 * header word and the length word of a large record (the kernel's BUF_MAX_DATA_SIZE, 4072
 * bytes in a 4 KiB page with a 64-bit commit field); 0 for a page too small for any.
 */
uint32_t ftrace_page_max_record(const struct ftrace_page_layout *layout, uint32_t page_size);

/* Emit the page in progress, if it holds anything. */
enum tk_status ftrace_page_writer_flush(struct ftrace_page_writer *pw);

void ftrace_page_writer_fini(struct ftrace_page_writer *pw);

#endif /* TK_FTRACE_PAGE_WRITE_H */
