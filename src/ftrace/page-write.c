// SPDX-License-Identifier: MIT
/*
 * The ring-buffer page encoder (page-write.h), the inverse of page.c. Each page starts with
 * the time of its first record (whose delta is then 0); a record whose delta does not fit the
 * 27-bit field is preceded by a time-extend record carrying the high bits; payloads of up to
 * 112 bytes keep their length in type_len, longer ones in array[0]; the commit word holds the
 * data bytes and, for a page that follows lost events, the missed-events flag and the count
 * after the data (MISSED_STORED), as the kernel writes them; the encoder keeps room for the
 * count on such a page (the kernel stores it only when there is room).
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "page-write.h"

#define DELTA_BITS    27
#define MAX_DELTA     ((UINT64_C(1) << DELTA_BITS) - 1)
#define SMALL_MAX     112 /* payload bytes that fit type_len 1..28 */
#define TYPE_TIME_EXT 30
#define MISSED_EVENTS (UINT64_C(1) << 31)
#define MISSED_STORED (UINT64_C(1) << 30)

enum tk_status ftrace_page_writer_init(struct ftrace_page_writer *pw,
				       const struct ftrace_page_layout *layout,
				       enum tk_byte_order bo, uint32_t page_size,
				       ftrace_page_emit_fn emit, void *payload)
{
	memset(pw, 0, sizeof(*pw));
	if ((layout->commit_size != 4 && layout->commit_size != 8) || layout->ts_size != 8 ||
	    page_size < layout->data_offset + 16 || page_size > (UINT32_C(1) << 27))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot write ring-buffer pages: page-size=%u, data-offset=%u, "
			       "commit-size=%u",
			       page_size, layout->data_offset, layout->commit_size);
	pw->page = calloc(1, page_size);
	if (!pw->page)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write ring-buffer pages: page-size=%u",
			       page_size);
	pw->layout = *layout;
	pw->bo = bo;
	pw->page_size = page_size;
	pw->emit = emit;
	pw->payload = payload;
	pw->empty = 1;
	return TK_OK;
}

static void store_long(uint8_t *p, uint32_t size, uint64_t v, enum tk_byte_order bo)
{
	if (size == 8)
		tk_store_u64(p, v, bo);
	else
		tk_store_u32(p, (uint32_t) v, bo);
}

/* The header word of a record: type_len and delta, in the bit order of the byte order. */
static void store_head(uint8_t *p, uint32_t type_len, uint32_t delta, enum tk_byte_order bo)
{
	uint32_t w =
		bo == TK_BYTE_ORDER_LE ? (delta << 5) | type_len : (type_len << DELTA_BITS) | delta;

	tk_store_u32(p, w, bo);
}

enum tk_status ftrace_page_writer_flush(struct ftrace_page_writer *pw)
{
	const struct ftrace_page_layout *l = &pw->layout;
	uint64_t commit;
	enum tk_status st;

	if (pw->empty)
		return TK_OK;
	commit = pw->used;
	if (pw->missed) {
		uint32_t at = l->data_offset + pw->used;

		commit |= MISSED_EVENTS;
		if (pw->missed > 0 && l->commit_size <= pw->page_size - at) {
			store_long(pw->page + at, l->commit_size, (uint64_t) pw->missed, pw->bo);
			commit |= MISSED_STORED;
		}
	}
	store_long(pw->page + l->commit_offset, l->commit_size, commit, pw->bo);
	st = pw->emit(pw->page, pw->page_size, pw->payload);
	memset(pw->page, 0, pw->page_size);
	pw->used = 0;
	pw->missed = 0;
	pw->empty = 1;
	return st;
}

uint32_t ftrace_page_max_record(const struct ftrace_page_layout *layout, uint32_t page_size)
{
	return page_size > layout->data_offset + 8 ? page_size - layout->data_offset - 8 : 0;
}

enum tk_status ftrace_page_writer_add(struct ftrace_page_writer *pw, uint64_t ts,
				      const uint8_t *data, uint32_t size, int64_t missed_before)
{
	const struct ftrace_page_layout *l = &pw->layout;
	uint32_t room = pw->page_size - l->data_offset, padded = (size + 3) & ~UINT32_C(3);
	uint32_t need, ext, keep;
	uint64_t delta;
	uint8_t *p;
	enum tk_status st;

	if (!pw->empty && ts < pw->ts)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot write ring-buffer record: time=%llu, previous-time=%llu",
			       (unsigned long long) ts, (unsigned long long) pw->ts);
	need = (size && padded <= SMALL_MAX ? 4 : 8) + padded;
	if (size > ftrace_page_max_record(l, pw->page_size) || need > room)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot write ring-buffer record: size=%u, page-size=%u", size,
			       pw->page_size);
	delta = pw->empty ? 0 : ts - pw->ts;
	ext = delta > MAX_DELTA ? 8 : 0;
	/*
	 * A loss starts a page; a record that does not fit ends one, and so does a gap of 2^59
	 * or more, which a time extend cannot carry (the page header holds any time). A page
	 * after a counted loss keeps room for the count after its data, so that it is kept.
	 */
	keep = pw->missed > 0 ? l->commit_size : 0;
	if (!pw->empty && (missed_before || pw->used + ext + need + keep > room ||
			   (delta >> (DELTA_BITS + 32)) != 0)) {
		st = ftrace_page_writer_flush(pw);
		if (st < 0)
			return st;
		delta = 0;
		ext = 0;
	}
	if (pw->empty) {
		tk_store_u64(pw->page + l->ts_offset, ts, pw->bo);
		pw->missed = missed_before;
		pw->empty = 0;
	}
	p = pw->page + l->data_offset + pw->used;
	if (ext) {
		store_head(p, TYPE_TIME_EXT, (uint32_t) (delta & MAX_DELTA), pw->bo);
		tk_store_u32(p + 4, (uint32_t) (delta >> DELTA_BITS), pw->bo);
		p += 8;
		pw->used += 8;
		delta = 0;
	}
	if (size && padded <= SMALL_MAX) {
		store_head(p, padded / 4, (uint32_t) delta, pw->bo);
		p += 4;
	} else {
		store_head(p, 0, (uint32_t) delta, pw->bo);
		tk_store_u32(p + 4, size + 4, pw->bo);
		p += 8;
	}
	memcpy(p, data, size);
	memset(p + size, 0, padded - size);
	pw->used += need;
	pw->ts = ts;
	return TK_OK;
}

void ftrace_page_writer_fini(struct ftrace_page_writer *pw)
{
	free(pw->page);
	pw->page = NULL;
}
