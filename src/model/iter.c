// SPDX-License-Identifier: MIT
/*
 * The time-ordered iterator: a k-way merge of data streams on a binary heap.
 *
 * Each stream is a cursor yielding items (events, packet boundaries, loss reports) in stream
 * order. The heap orders the current item of every stream by (time, rank of trace and stream
 * IDs, kind of item, event class rank, rank of stream path), which reproduces babeltrace2's
 * muxer, including its tie breaks. Like babeltrace2, the merge fails when the next item is
 * older than the previous one (a stream going back in time), and it checks that all streams
 * agree on what kind of clock they use.
 *
 * After an item is returned, its stream is advanced only on the next call, so a returned event
 * stays valid until then; a stream error therefore surfaces right after the last good item
 * of that stream, as in babeltrace2.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "iter.h"

enum clock_expect {
	EXPECT_ANY,
	EXPECT_NONE,
	EXPECT_ABSOLUTE,
	EXPECT_NOT_ABS_NO_UUID,
	EXPECT_NOT_ABS_UUID,
};

/* babeltrace2's message type weights: a heavier message goes first on equal time. */
static unsigned int item_weight(uint8_t kind)
{
	switch (kind) {
	case MODEL_ITEM_PACKET_BEGIN:
		return 6;
	case MODEL_ITEM_EVENT:
		return 5;
	case MODEL_ITEM_DISCARDED_EVENTS:
		return 4;
	case MODEL_ITEM_PACKET_END:
		return 3;
	default:
		return 1; /* discarded packets */
	}
}

/*
 * Sort keys of a stream's current item: k1 is its time (or the last time returned, for items
 * without one), kept; the tie breaks (slot_k2()) are packed only when two times are equal.
 */
static inline void slot_key(struct tk_iter *it, struct iter_slot *s)
{
	s->k1 = s->item.has_ts ? s->item.ts_ns : it->last_ts;
}

/* The tie breaks of a stream's current item: stream ranks, item kind, event class rank. */
static uint64_t slot_k2(const struct iter_slot *s)
{
	if (TK_LIKELY(s->item.kind == MODEL_ITEM_EVENT))
		return s->k2_base | ((uint64_t) (7 - 5) << 39) |
		       ((uint64_t) s->item.event->ec->rank << 20);
	return s->k2_base | ((uint64_t) (7 - item_weight(s->item.kind)) << 39);
}

static inline int slot_less(const struct iter_slot *a, const struct iter_slot *b)
{
	return a->k1 < b->k1 || (a->k1 == b->k1 && slot_k2(a) < slot_k2(b));
}

static TK_NOINLINE void heap_sift_down_many(struct tk_iter *it, size_t i)
{
	uint32_t *h = it->heap;
	size_t n = it->heap_len;
	uint32_t v = h[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && slot_less(&it->slots[h[c + 1]], &it->slots[h[c]]))
			c++;
		if (!slot_less(&it->slots[h[c]], &it->slots[v]))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = v;
}

/* The common one- and two-stream cases inline, once per event; more streams call. */
static inline void heap_sift_down(struct tk_iter *it, size_t i)
{
	uint32_t *h = it->heap;
	uint32_t v = h[i];

	if (TK_LIKELY(it->heap_len <= 2)) {
		if (it->heap_len == 2 && i == 0 && slot_less(&it->slots[h[1]], &it->slots[v])) {
			h[0] = h[1];
			h[1] = v;
		}
		return;
	}
	heap_sift_down_many(it, i);
}

static void heap_sift_up(struct tk_iter *it, size_t i)
{
	uint32_t *h = it->heap;
	uint32_t v = h[i];

	while (i) {
		size_t p = (i - 1) / 2;

		if (!slot_less(&it->slots[v], &it->slots[h[p]]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = v;
}

enum tk_status model_trace_check_clocks(const struct tk_trace *trace)
{
	enum clock_expect expect = EXPECT_ANY;
	const uint8_t *uuid = NULL;
	size_t i;

	for (i = 0; i < trace->n_streams; i++) {
		const struct tk_stream *s = trace->streams[i];
		const struct tk_clock *c = s->sc->clock;
		enum clock_expect kind;

		if (!c)
			kind = EXPECT_NONE;
		else if (c->absolute)
			kind = EXPECT_ABSOLUTE;
		else if (c->has_uuid)
			kind = EXPECT_NOT_ABS_UUID;
		else
			kind = EXPECT_NOT_ABS_NO_UUID;
		if (expect == EXPECT_ANY) {
			expect = kind;
			uuid = c && c->has_uuid ? c->uuid : NULL;
			continue;
		}
		if (kind != expect || (kind == EXPECT_NOT_ABS_UUID && memcmp(uuid, c->uuid, 16)))
			return TK_FAIL(
				TK_ERR_UNSUPPORTED,
				"Cannot merge streams with unrelated clocks: stream=%s, "
				"clock=%s, reason=%s",
				s->path, c ? c->name : "(none)",
				!c ? "stream has no clock while others have one"
				: kind == EXPECT_NONE
					? "stream has a clock while others have none"
					: "clocks are neither all absolute nor share a UUID");
	}
	return TK_OK;
}

enum tk_status model_iter_create_by_stream(struct tk_iter **out, struct tk_trace *trace)
{
	enum tk_status st = tk_iter_create(out, trace);

	if (st >= 0)
		(*out)->by_stream = 1;
	return st;
}

/* An iterator over @n streams of @trace from index @first. */
static enum tk_status iter_create(struct tk_iter **out, struct tk_trace *trace, size_t first,
				  size_t n)
{
	struct tk_iter *it;
	size_t i;
	enum tk_status st;

	it = calloc(1, sizeof(*it));
	if (!it)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create iterator");
	it->trace = trace;
	it->n_slots = n;
	it->slots = calloc(it->n_slots ? it->n_slots : 1, sizeof(*it->slots));
	it->heap = calloc(it->n_slots ? it->n_slots : 1, sizeof(*it->heap));
	if (!it->slots || !it->heap) {
		tk_iter_destroy(it);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create iterator: streams=%zu", it->n_slots);
	}
	it->last_ts = INT64_MIN;
	for (i = 0; i < it->n_slots; i++) {
		struct tk_stream *s = trace->streams[first + i];

		it->slots[i].stream = s;
		it->slots[i].k2_base = ((uint64_t) s->rank_major << 42) | s->rank_minor;
		st = s->source->ops->cursor_open(s, &it->slots[i].cursor);
		if (st < 0) {
			tk_iter_destroy(it);
			return TK_FAIL(st, "Cannot create iterator: stream=%s", s->path);
		}
	}
	*out = it;
	return TK_OK;
}

enum tk_status tk_iter_create(struct tk_iter **out, struct tk_trace *trace)
{
	error_reset();
	TK_ASSERT_PRE(out && trace);
	return iter_create(out, trace, 0, trace->n_streams);
}

enum tk_status model_iter_create_stream(struct tk_iter **out, struct tk_trace *trace, size_t i)
{
	enum tk_status st;

	if (i >= trace->n_streams)
		return TK_FAIL(TK_ERR_INVAL, "Cannot create iterator: stream=%zu", i);
	st = iter_create(out, trace, i, 1);
	if (st >= 0)
		(*out)->by_stream = 1;
	return st;
}

void tk_iter_set_notice_cb(struct tk_iter *it, tk_notice_cb cb, void *payload)
{
	it->notice_cb = cb;
	it->notice_payload = payload;
}

void tk_iter_destroy(struct tk_iter *it)
{
	size_t i;

	if (!it)
		return;
	for (i = 0; i < it->n_slots; i++)
		if (it->slots && it->slots[i].cursor)
			it->slots[i].cursor->ops->destroy(it->slots[i].cursor);
	free(it->slots);
	free(it->heap);
	free(it);
}

/* The cause naming the stream that failed: its path (a CTF stream file, a trace.dat file). */
static enum tk_status stream_fail(const struct iter_slot *s, enum tk_status st)
{
	return TK_FAIL(st, "Cannot read stream: path=%s, id=%llu", s->stream->path,
		       (unsigned long long) s->stream->id);
}

/* Put the first item of stream @i in the heap (none when it has none). */
static enum tk_status iter_load(struct tk_iter *it, size_t i)
{
	struct iter_slot *s = &it->slots[i];
	enum tk_status st = s->cursor->ops->next(s->cursor, &s->item);

	if (st == TK_END)
		return TK_OK;
	if (st < 0)
		return stream_fail(s, st);
	slot_key(it, s);
	it->heap[it->heap_len++] = (uint32_t) i;
	heap_sift_up(it, it->heap_len - 1);
	return TK_OK;
}

void model_iter_set_window(struct tk_iter *it, int has_begin, int64_t begin, int has_end,
			   int64_t end)
{
	if (!it || it->started) /* too late: the streams were read from where they are */
		return;
	it->has_begin = has_begin;
	it->begin = begin;
	it->has_end = has_end;
	it->end = end;
	it->windowed = has_begin || has_end;
}

void tk_iter_set_window(struct tk_iter *it, int64_t begin_ns, int64_t end_ns)
{
	model_iter_set_window(it, begin_ns != INT64_MIN, begin_ns, end_ns != INT64_MAX, end_ns);
}

static enum tk_status iter_start(struct tk_iter *it)
{
	size_t i;
	enum tk_status st;

	st = model_trace_check_clocks(it->trace);
	if (st < 0)
		return st;
	for (i = 0; it->has_begin && i < it->n_slots; i++) {
		struct iter_slot *s = &it->slots[i];

		if (s->cursor->ops->seek && (st = s->cursor->ops->seek(s->cursor, it->begin)) < 0)
			return stream_fail(s, st);
	}
	if (it->by_stream)
		return TK_OK; /* no heap: iter_next_by_stream() reads one stream at a time */
	for (i = 0; i < it->n_slots; i++) {
		st = iter_load(it, i);
		if (st < 0)
			return st;
	}
	return TK_OK;
}

/* The stream whose item was returned last, @s, gave its next item, or @st. */
static enum tk_status iter_advanced(struct tk_iter *it, struct iter_slot *s, enum tk_status st)
{
	if (st == TK_END) {
		it->heap[0] = it->heap[--it->heap_len];
		if (it->heap_len)
			heap_sift_down(it, 0);
		return TK_OK;
	}
	if (st < 0)
		return stream_fail(s, st);
	if (it->heap_len > 1) { /* a lone stream is never compared */
		slot_key(it, s);
		heap_sift_down(it, 0);
	}
	return TK_OK;
}

/* Advance the stream whose item was returned last. */
static enum tk_status iter_advance_top(struct tk_iter *it)
{
	struct iter_slot *s = &it->slots[it->heap[0]];

	return iter_advanced(it, s, s->cursor->ops->next(s->cursor, &s->item));
}

/* The next item of @s is older than the last one returned: name it and where it is. */
static TK_NOINLINE TK_COLD enum tk_status time_goes_back(const struct tk_iter *it,
							 const struct iter_slot *s, int64_t ts)
{
	char where[512] = "";

	if (s->cursor->ops->where)
		s->cursor->ops->where(s->cursor, &s->item, where, sizeof(where));
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot order events: stream=%s, %s%stime-ns=%lld, previous-time-ns=%lld, "
		       "reason=time goes backwards",
		       s->stream->path, where, where[0] ? ", " : "", (long long) ts,
		       (long long) it->last_ts);
}

/* What iter_take() says of an item past the window's end: its stream is read no further. */
#define ITER_STREAM_DONE 2

/*
 * Take the item @s holds, in time order: 1 with *@out set for an event, 0 for a loss (told
 * to the notice callback), another item or one before the window, ITER_STREAM_DONE for one
 * after the window, or the failure when its time goes back.
 */
static inline int iter_take(struct tk_iter *it, const struct iter_slot *s,
			    const struct tk_event **out)
{
	int64_t ts = s->item.has_ts ? s->item.ts_ns : it->last_ts;

	if (TK_UNLIKELY(it->windowed) && s->item.has_ts) {
		/* a loss is in the window when its range meets it */
		int loss = s->item.kind == MODEL_ITEM_DISCARDED_EVENTS ||
			   s->item.kind == MODEL_ITEM_DISCARDED_PACKETS;
		int64_t last = loss && s->item.notice->has_range ? s->item.notice->end_ns : ts;

		if (it->has_begin && last < it->begin)
			return 0;
		if (it->has_end && ts > it->end)
			return ITER_STREAM_DONE;
	}
	if (TK_UNLIKELY(ts < it->last_ts) && !s->stream->source->time_may_go_back)
		return time_goes_back(it, s, ts);
	it->last_ts = ts;
	switch (s->item.kind) {
	case MODEL_ITEM_EVENT:
		*out = s->item.event;
		return 1;
	case MODEL_ITEM_DISCARDED_EVENTS:
	case MODEL_ITEM_DISCARDED_PACKETS:
		if (it->notice_cb)
			it->notice_cb(s->item.notice, it->notice_payload);
		return 0;
	default:
		return 0;
	}
}

/*
 * By stream: the next item of the stream being read, else of the next stream, its time
 * checked against its own stream's only; no heap, no keys.
 */
static enum tk_status iter_next_by_stream(struct tk_iter *it, const struct tk_event **out)
{
	struct iter_slot *s = it->cur;
	enum tk_status st;
	int taken;

	for (;;) {
		if (!s) {
			if (it->next_slot == it->n_slots)
				return TK_END;
			s = it->cur = &it->slots[it->next_slot++];
			it->last_ts = INT64_MIN;
		}
		st = s->cursor->ops->next(s->cursor, &s->item);
		if (st == TK_END) {
			s = it->cur = NULL;
			continue;
		}
		if (st < 0)
			return stream_fail(s, st);
		taken = iter_take(it, s, out);
		if (taken == ITER_STREAM_DONE) {
			s = it->cur = NULL;
			continue;
		}
		if (taken)
			return taken > 0 ? TK_OK : (enum tk_status) taken;
	}
}

enum tk_status model_iter_next_advanced(struct tk_iter *it, enum tk_status st,
					const struct tk_event **out)
{
	it->pending = 0;
	st = iter_advanced(it, &it->slots[it->heap[0]], st);
	if (st < 0) {
		it->error = st;
		it->merging = 0;
		it->quick = 0;
		return st;
	}
	return model_iter_next(it, out);
}

enum tk_status model_iter_next(struct tk_iter *it, const struct tk_event **out)
{
	enum tk_status st;

	if (TK_LIKELY(it->merging))
		goto merge;
	if (TK_UNLIKELY(it->error))
		return TK_FAIL(it->error, "Cannot read past an earlier error");
	if (TK_UNLIKELY(!it->started)) {
		it->started = 1;
		st = iter_start(it);
		if (st < 0)
			goto fail;
		it->merging = !it->by_stream;
		it->quick = it->merging && !it->windowed && it->heap_len <= 2;
	}
	if (it->by_stream) {
		st = iter_next_by_stream(it, out);
		if (st < 0)
			goto fail;
		return st;
	}
merge:
	for (;;) {
		int taken;

		if (it->pending) {
			it->pending = 0;
			st = iter_advance_top(it);
			if (st < 0)
				goto fail;
		}
		if (!it->heap_len)
			return TK_END;
		taken = iter_take(it, &it->slots[it->heap[0]], out);
		if (taken < 0) {
			st = (enum tk_status) taken;
			goto fail;
		}
		if (taken == ITER_STREAM_DONE) { /* its stream is read no further */
			it->heap[0] = it->heap[--it->heap_len];
			if (it->heap_len)
				heap_sift_down(it, 0);
			continue;
		}
		it->pending = 1;
		if (taken)
			return TK_OK;
	}
fail:
	it->error = st;
	it->merging = 0;
	it->quick = 0;
	return st;
}

enum tk_status tk_iter_next(struct tk_iter *it, const struct tk_event **out)
{
	error_reset();
	return model_iter_next(it, out);
}
