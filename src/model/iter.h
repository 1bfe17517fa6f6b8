/* SPDX-License-Identifier: MIT */
/*
 * The iterator's state (iter.c), shown so that a loop taking every event can run the usual
 * step of the merge inline: model_iter_next_inline(). Only iter.c changes it otherwise.
 */
#ifndef TK_MODEL_ITER_H
#define TK_MODEL_ITER_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct iter_slot {
	struct model_cursor *cursor;
	struct tk_stream *stream;
	struct model_item item;
	int64_t k1;	  /* time */
	uint64_t k2_base; /* the stream's part of the tie breaks (slot_k2()) */
};

struct tk_iter {
	struct tk_trace *trace;
	struct iter_slot *slots;
	uint32_t *heap;
	size_t n_slots;
	size_t heap_len;
	int64_t last_ts;
	int pending; /* the top slot was returned and must advance first */
	int started;
	int merging;	  /* started, by the heap, no error: model_iter_next() checks only this */
	int quick;	  /* merging, no window, at most two streams: model_iter_next_inline() */
	int by_stream;	  /* one stream after the other (model_iter_create_by_stream()) */
	size_t next_slot; /* by_stream: the next stream to read */
	struct iter_slot *cur; /* by_stream: the stream being read, or NULL */
	int windowed;	       /* model_iter_set_window() */
	int has_begin, has_end;
	int64_t begin, end;
	enum tk_status error;
	tk_notice_cb notice_cb;
	void *notice_payload;
};

/*
 * model_iter_next() after the inline step below had the top stream's cursor give @st (its
 * item in the slot): the rest of that step and of the call, out of line.
 */
enum tk_status model_iter_next_advanced(struct tk_iter *it, enum tk_status st,
					const struct tk_event **out);

/*
 * model_iter_next() with its usual step inline, for the loops that take every event (the
 * text printer's, pretty-plan.c), to save a call and its frame per event: one or two
 * streams merged without a time window, the stream of the event returned last giving an
 * event of its own with a time, strictly before or after the other stream's item, then the
 * first of the two an event in time order. Anything else -- an end, a failure, another
 * item, equal times (the tie breaks), more streams -- is model_iter_next()'s, from where
 * this step left it.
 */
static inline enum tk_status model_iter_next_inline(struct tk_iter *it, const struct tk_event **out)
{
	struct iter_slot *s, *top;
	enum tk_status st;
	int64_t ts;

	if (TK_UNLIKELY(!it->quick || !it->pending))
		return model_iter_next(it, out);
	s = &it->slots[it->heap[0]];
	st = s->cursor->ops->next(s->cursor, &s->item);
	if (TK_UNLIKELY(st != TK_OK || s->item.kind != MODEL_ITEM_EVENT || !s->item.has_ts))
		return model_iter_next_advanced(it, st, out);
	top = s;
	ts = s->item.ts_ns;
	if (it->heap_len == 2) { /* a lone stream is never compared */
		struct iter_slot *other = &it->slots[it->heap[1]];

		s->k1 = ts;
		if (TK_UNLIKELY(other->k1 == ts))
			return model_iter_next_advanced(it, st, out);
		if (other->k1 < ts) {
			it->heap[1] = it->heap[0];
			it->heap[0] = (uint32_t) (other - it->slots);
			top = other;
			if (TK_UNLIKELY(other->item.kind != MODEL_ITEM_EVENT ||
					!other->item.has_ts))
				goto merge;
			ts = other->item.ts_ns;
		}
	}
	if (TK_LIKELY(ts >= it->last_ts)) {
		it->last_ts = ts;
		*out = top->item.event;
		return TK_OK; /* still pending: its stream advances first next time */
	}
merge:
	it->pending = 0;
	return model_iter_next(it, out);
}

#endif /* TK_MODEL_ITER_H */
