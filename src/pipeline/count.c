// SPDX-License-Identifier: MIT
/*
 * tk_trace_count(): every event of a trace counted, by class and by stream, with the losses
 * and the time range (what `tracekit info` prints). Counting needs no time order, so with
 * several streams and several cores the streams are read on threads, each by an iterator
 * of its own (model_iter_create_stream()), and the counts added up: the same as one merged
 * loop, since each stream's items are the same whatever the order the streams are read in.
 * Only a failure depends on the order (the merged loop stops at the first damaged item in
 * time order, having returned the events before it from every stream): when any stream
 * fails, the counts are thrown away and one merged iterator reads the trace again, so that
 * the counts and the error are exactly that loop's.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracekit/tracekit.h>

#include "../common/error.h"
#include "../common/worker.h"
#include "../model/model.h"

/* Threads counting at once, the caller's included; each holds one stream's cursor. */
#define COUNT_THREADS 4

static void on_notice(const struct tk_notice *n, void *payload)
{
	struct tk_trace_counts *c = payload;

	if (n->kind == TK_NOTICE_DISCARDED_PACKETS)
		c->lost_packets += n->count;
	else if (n->count == UINT64_MAX)
		c->lost_events_unknown++;
	else
		c->lost_events += n->count;
}

/*
 * Count the events of @it into @c. A thread counts into counts of its own (but for the
 * stream entries, which only the thread reading a stream writes), added up by the caller.
 */
static enum tk_status count_loop(struct tk_iter *it, struct tk_trace_counts *c)
{
	const struct tk_event *ev;
	enum tk_status st;

	tk_iter_set_notice_cb(it, on_notice, c);
	while ((st = model_iter_next(it, &ev)) == TK_OK) {
		c->class_events[ev->ec->index]++;
		c->stream_events[ev->stream->index]++;
		c->events++;
		if (ev->missed < 0)
			c->lost_events_unknown++;
		else
			c->lost_events += (uint64_t) ev->missed;
		if (ev->has_ts) {
			/* ftrace CPU buffers may go back in time: keep the extremes */
			if (!c->has_time || ev->ns < c->first_ns)
				c->first_ns = ev->ns;
			if (!c->has_time || ev->ns > c->last_ns)
				c->last_ns = ev->ns;
			c->has_time = 1;
		}
	}
	return st == TK_END ? TK_OK : st;
}

/* ---- streams on threads ---------------------------------------------------------------- */

struct count_par {
	struct tk_trace *t;
	atomic_size_t next;
	atomic_int failed;
};

struct count_lane {
	struct count_par *p;
	struct tk_trace_counts part;
	enum tk_status st;
};

/* Take streams until none is left, or one failed (worker_run_lanes()). */
static void lane_run(void *arg)
{
	struct count_lane *l = arg;
	struct count_par *p = l->p;
	size_t i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->t->n_streams) {
		struct tk_iter *it = NULL;

		if (atomic_load(&p->failed)) {
			l->st = TK_ERR_CANCELED;
			return;
		}
		l->st = model_iter_create_stream(&it, p->t, i);
		if (l->st >= 0)
			l->st = count_loop(it, &l->part);
		tk_iter_destroy(it);
		if (l->st < 0) {
			atomic_store(&p->failed, 1);
			return;
		}
	}
}

/*
 * The streams of @t counted by @n threads into @out (zeroed, its arrays allocated): TK_OK,
 * or a failure, after which @out holds partial counts.
 */
static enum tk_status count_lanes(struct tk_trace *t, struct tk_trace_counts *out, size_t n)
{
	struct count_par p = {.t = t};
	struct count_lane *ls = calloc(n, sizeof(*ls));
	enum tk_status st = TK_OK;
	size_t i, k;

	atomic_init(&p.next, 0);
	atomic_init(&p.failed, 0);
	if (!ls)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot count events: streams=%zu", t->n_streams);
	for (i = 0; i < n; i++) {
		ls[i].p = &p;
		ls[i].part.class_events = calloc(t->n_ecs + 1, sizeof(uint64_t));
		ls[i].part.stream_events = out->stream_events; /* shared: one writer per stream */
		if (!ls[i].part.class_events)
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot count events: streams=%zu",
				     t->n_streams);
	}
	if (st >= 0)
		worker_run_lanes(ls, sizeof(*ls), n, lane_run);
	for (i = 0; i < n; i++) {
		const struct tk_trace_counts *c = &ls[i].part;

		if (st >= 0 && ls[i].st < 0)
			st = ls[i].st;
		if (st >= 0) {
			out->events += c->events;
			for (k = 0; k < t->n_ecs; k++)
				out->class_events[k] += c->class_events[k];
			out->lost_events += c->lost_events;
			out->lost_events_unknown += c->lost_events_unknown;
			out->lost_packets += c->lost_packets;
			if (c->has_time && (!out->has_time || c->first_ns < out->first_ns))
				out->first_ns = c->first_ns;
			if (c->has_time && (!out->has_time || c->last_ns > out->last_ns))
				out->last_ns = c->last_ns;
			out->has_time |= c->has_time;
		}
		free(ls[i].part.class_events);
	}
	free(ls);
	return st;
}

/* ---- the entry point ------------------------------------------------------------------- */

/* Zero @out and give it arrays for @t; false when out of memory. */
static int counts_init(struct tk_trace_counts *out, const struct tk_trace *t)
{
	tk_trace_counts_fini(out);
	memset(out, 0, sizeof(*out));
	out->class_events = calloc(t->n_ecs + 1, sizeof(uint64_t));
	out->stream_events = calloc(t->n_streams + 1, sizeof(uint64_t));
	return out->class_events && out->stream_events;
}

/* One merged iterator over @t, as a tk_iter_next() loop counts. */
static enum tk_status count_serial(struct tk_trace *t, struct tk_trace_counts *out)
{
	struct tk_iter *it = NULL;
	enum tk_status st;

	st = tk_iter_create(&it, t);
	if (st < 0) { /* no stream could be opened: nothing was read */
		tk_trace_counts_fini(out);
		return st;
	}
	st = count_loop(it, out);
	tk_iter_destroy(it);
	return st;
}

enum tk_status tk_trace_count(struct tk_trace *trace, struct tk_trace_counts *out)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n, depth;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(trace && out);
	memset(out, 0, sizeof(*out));
	if (!counts_init(out, trace))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot count events: classes=%zu, streams=%zu",
			       trace->n_ecs, trace->n_streams);
	n = cores > COUNT_THREADS ? COUNT_THREADS : cores > 1 ? (size_t) cores : 1;
	if (n > trace->n_streams)
		n = trace->n_streams;
	if (n < 2)
		return count_serial(trace, out);
	depth = error_depth();
	st = count_lanes(trace, out, n);
	if (st >= 0)
		return TK_OK;
	/* the events before the failure in time order: the merged loop's, from the start */
	error_truncate(depth);
	if (!counts_init(out, trace))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot count events: classes=%zu, streams=%zu",
			       trace->n_ecs, trace->n_streams);
	return count_serial(trace, out);
}

void tk_trace_counts_fini(struct tk_trace_counts *counts)
{
	if (!counts)
		return;
	free(counts->class_events);
	free(counts->stream_events);
	counts->class_events = NULL;
	counts->stream_events = NULL;
}
