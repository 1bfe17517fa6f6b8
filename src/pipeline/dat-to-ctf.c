// SPDX-License-Identifier: MIT
/*
 * trace.dat to CTF, the shortcut (tk_convert() with TK_CONVERT_CTF from one trace.dat file):
 * the CTF sink (src/ctf/ctf-sink.c) decides everything the CTF trace holds -- its clock,
 * classes, streams, environment, and the layout of each event -- and this file writes the
 * events whose bytes it can copy from their records instead of having them decoded into
 * values first. It must give the same bytes as `tracekit convert --generic`, which takes
 * the sink alone (tests/interop/convert-generic.sh compares them).
 *
 * A copy plan, made per event class the first time one of its events is met, lays the
 * class's declared scopes (the common fields as the stream event context, then the payload)
 * over the ftrace fields of its format, field for field: integers and byte arrays are copied
 * as they are, adjacent ones at once; char arrays and __data_loc strings become their text up
 * to a NUL, and a NUL; dynamic arrays their length, then their elements. A plan needs the
 * record and the CTF trace in the same (the host's) byte order and every field in that list;
 * events of other classes, and records too short for their plan, go through the sink.
 *
 * With nothing selected and more than one core, the CPUs are converted on threads, each CPU
 * by one, into lanes of the sink (ctf_sink_share(), ctf-sink.h), with the bytes the CPUs one
 * after the other give: the sink orders what depends on the order of the CPUs (stream and
 * event class IDs). CPU time per event stays what it is (each thread writes its own packets,
 * the writer's thread is not started); a thread that fails, whatever the reason (damage
 * included), makes them all stop, and the output is emptied for the one loop to write it,
 * or fail where and as it fails.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracekit/tracekit.h>

#include "../common/error.h"
#include "../common/outfile.h"
#include "../common/worker.h"
#include "../ctf/ctf-sink.h"
#include "../ctf/ctf.h"
#include "../ftrace/ftrace.h"
#include "../model/model.h"
#include "../tracedat/source.h"
#include "pipeline.h"

/*
 * One step of a copy plan: how the CTF bytes of one or more fields come from the record when
 * both are in the host's byte order. The writer lays fields out byte after byte, as ftrace
 * does where its fields follow each other, so adjacent integers and arrays are one copy.
 */
#define PLAN_MAX 32 /* steps; events that need more go through the sink */

enum plan_kind {
	PLAN_COPY, /* @len bytes at @off, as they are */
	PLAN_TEXT, /* a char array at @off of @len bytes: its text up to a NUL, zeros after */
	PLAN_STR,  /* a char array at @off of @len bytes: its text up to a NUL, then a NUL */
	PLAN_DSTR, /* a __data_loc string: its text, then a NUL */
	PLAN_DSEQ, /* a dynamic array of @es-byte elements: u32 count, then the elements */
	PLAN_RSTR, /* text from @off to the end of the record: up to a NUL, then a NUL */
	PLAN_RSEQ, /* @es-byte elements from @off to the end: u32 count, then the elements */
};

struct plan_step {
	uint8_t kind; /* enum plan_kind */
	uint8_t es;
	uint32_t off;
	uint32_t len;
	const struct ftrace_field *f;
};

/* The copy plan of one event class (plan_build()). */
struct ec_map {
	int plan;	/* 0: its events go through the sink */
	int fixed_only; /* every step is a PLAN_COPY or PLAN_TEXT */
	uint32_t n_steps;
	uint32_t min_size; /* record bytes the plan reads at fixed offsets */
	uint32_t fixed;	   /* body bytes of the PLAN_COPY and PLAN_TEXT steps */
	struct plan_step steps[PLAN_MAX];
};

struct dat_ctf {
	void *sink; /* the CTF sink's state */
	const struct ftrace_ctx *ctx;
	struct ec_map **ecs; /* by the trace's event class index, made when first met */
	size_t n_ecs;
};

/* The bytes of one element of array or sequence @d; 0 when not a whole-byte integer. */
static uint32_t elem_bytes(const struct tk_ctf_field_decl *d)
{
	uint32_t bits = d->elem ? (d->elem->kind == TK_CTF_FIELD_KIND_INT ? d->elem->bits : 0)
				: (d->elem_kind == TK_CTF_FIELD_KIND_INT ? d->elem_bits : 0);

	return bits && bits % 8 == 0 && bits <= 64 ? bits / 8 : 0;
}

/* Add the step of field @f declared as @d to @m's plan; 0 when the field has none. */
static int plan_field(struct ec_map *m, const struct ftrace_field *f,
		      const struct tk_ctf_field_decl *d)
{
	struct plan_step st = {0, 0, f->offset, f->size, f};
	uint32_t end = f->offset + f->size;

	if (f->offset > UINT32_MAX - f->size || m->n_steps == TK_ARRAY_SIZE(m->steps))
		return 0;
	if ((d->kind == TK_CTF_FIELD_KIND_ARRAY || d->kind == TK_CTF_FIELD_KIND_SEQUENCE) &&
	    !elem_bytes(d) && (d->elem || d->elem_kind != TK_CTF_FIELD_KIND_CHAR))
		return 0;
	if (!(f->flags & FTRACE_FIELD_DYNAMIC) &&
	    (ftrace_field_flexible(f) || d->kind == TK_CTF_FIELD_KIND_SEQUENCE)) {
		/* to the end of the record: print's text, kernel_stack's frames */
		if (d->kind == TK_CTF_FIELD_KIND_STRING)
			st.kind = PLAN_RSTR;
		else if (d->kind == TK_CTF_FIELD_KIND_SEQUENCE)
			st.kind = PLAN_RSEQ;
		else
			return 0;
		st.es = (uint8_t) elem_bytes(d);
		end = f->offset;
	} else if (f->flags & FTRACE_FIELD_DYNAMIC) {
		if (f->size != 4)
			return 0;
		if (d->kind == TK_CTF_FIELD_KIND_STRING) {
			st.kind = PLAN_DSTR;
		} else if (d->kind == TK_CTF_FIELD_KIND_SEQUENCE) {
			st.kind = PLAN_DSEQ;
			st.es = (uint8_t) elem_bytes(d);
		} else {
			return 0;
		}
	} else if (d->kind == TK_CTF_FIELD_KIND_INT) {
		if (!f->size || d->bits != 8 * f->size || f->size > 8)
			return 0;
		st.kind = PLAN_COPY;
	} else if (d->kind == TK_CTF_FIELD_KIND_ARRAY && !d->elem &&
		   d->elem_kind == TK_CTF_FIELD_KIND_CHAR) {
		if (d->array_len != f->size)
			return 0;
		st.kind = PLAN_TEXT;
		m->fixed += st.len;
	} else if (d->kind == TK_CTF_FIELD_KIND_ARRAY) {
		if (d->array_len > f->size / elem_bytes(d))
			return 0;
		st.kind = PLAN_COPY;
		st.len = (uint32_t) d->array_len * elem_bytes(d);
	} else if (d->kind == TK_CTF_FIELD_KIND_STRING) {
		st.kind = PLAN_STR;
	} else {
		return 0;
	}
	if (end > m->min_size)
		m->min_size = end;
	if (st.kind == PLAN_COPY) {
		struct plan_step *prev = m->n_steps ? &m->steps[m->n_steps - 1] : NULL;

		m->fixed += st.len;
		if (prev && prev->kind == PLAN_COPY && prev->off + prev->len == st.off) {
			prev->len += st.len;
			return 1;
		}
	}
	m->steps[m->n_steps++] = st;
	return 1;
}

/* Whether member @j of @st is the length of the sequence after it (the sink's own). */
static int length_of_next(const struct tk_ctf_field_decl *st, uint32_t j)
{
	const struct tk_ctf_field_decl *n = j + 1 < st->n_members ? &st->members[j + 1] : NULL;

	return n && n->kind == TK_CTF_FIELD_KIND_SEQUENCE && n->ref &&
	       !strcmp(n->ref, st->members[j].name);
}

/*
 * The copy plan of @fev's events as the sink declared them (@at): the stream event context
 * its common fields, no context, the payload its own fields, all in the host's byte order.
 */
static void plan_build(const struct dat_ctf *c, const struct ftrace_event *fev,
		       const struct ctf_sink_decl *d, struct ec_map *m)
{
	const struct tk_ctf_field_decl *sc = d->stream_context, *pl = d->payload;
	uint32_t j, k;

	m->plan = 0;
	if (!fev || c->ctx->bo != TK_BYTE_ORDER_HOST || !d->common_in_stream || d->context || !sc ||
	    sc->n_members != fev->n_common)
		return;
	for (k = 0; k < fev->n_common; k++)
		if (strcmp(sc->members[k].name, fev->fields[k].name) ||
		    !plan_field(m, &fev->fields[k], &sc->members[k]))
			return;
	for (j = 0; pl && j < pl->n_members; j++) {
		if (length_of_next(pl, j))
			continue; /* PLAN_DSEQ writes it */
		if (k == fev->n_fields || !plan_field(m, &fev->fields[k], &pl->members[j]))
			return;
		k++;
	}
	if (k != fev->n_fields)
		return;
	m->plan = 1;
	m->fixed_only = 1;
	for (k = 0; k < m->n_steps; k++)
		if (m->steps[k].kind != PLAN_COPY && m->steps[k].kind != PLAN_TEXT)
			m->fixed_only = 0;
}

/*
 * Copy @n bytes from @s to @d. Most steps are a few adjacent integers (1 to 16 bytes): two
 * overlapping fixed-size copies do them without a call to memcpy().
 */
static inline void copy_bytes(uint8_t *d, const uint8_t *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n >= 2 && n < 4) {
		memcpy(d, s, 2);
		memcpy(d + n - 2, s + n - 2, 2);
	} else {
		memcpy(d, s, n);
	}
}

/*
 * Eight bytes of a char array as text: up to its first NUL, zeros from there (all zeros
 * once *@ended). On little-endian hosts the first NUL is the lowest zero byte of the word,
 * which the usual zero-byte test finds exactly (its false hits are only above a true one).
 */
static inline void text_word(uint8_t *d, const uint8_t *s, int *ended)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
	uint64_t x, z;

	memcpy(&x, s, 8);
	if (*ended) {
		x = 0;
	} else if ((z = (x - ones) & ~x & highs) != 0) {
		/* the bytes before the NUL */
		unsigned int keep = (unsigned int) __builtin_ctzll(z) / 8;

		x = keep ? x & (UINT64_MAX >> (64 - 8 * keep)) : 0;
		*ended = 1;
	}
	memcpy(d, &x, 8);
}

/* The bytes of fixed step @sp (PLAN_COPY or PLAN_TEXT) of record @rec at @p; the end. */
static inline uint8_t *put_fixed(uint8_t *p, const uint8_t *rec, const struct plan_step *sp)
{
	size_t n = sp->len;

	if (sp->kind == PLAN_TEXT) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (n == 16) { /* TASK_COMM_LEN: every comm field */
			int ended = 0;

			text_word(p, rec + sp->off, &ended);
			text_word(p + 8, rec + sp->off + 8, &ended);
			return p + 16;
		}
#endif
		n = strnlen((const char *) rec + sp->off, sp->len);
		memset(p + n, 0, sp->len - n);
	}
	copy_bytes(p, rec + sp->off, n);
	return p + sp->len;
}

/*
 * Write the event @ev of @m by its plan: measure the variable parts, reserve the bytes in
 * the packet, copy. Returns 0 (nothing written) when the record is too short for the plan.
 */
static int append_planned(const struct dat_ctf *c, const struct ec_map *m,
			  const struct tk_event *ev, const struct ctf_sink_at *at,
			  enum tk_status *st)
{
	const uint8_t *rec = ev->raw;
	uint32_t off[TK_ARRAY_SIZE(m->steps)], len[TK_ARRAY_SIZE(m->steps)];
	size_t body = m->fixed, k;
	uint8_t *p;

	if (ev->raw_size < m->min_size)
		return 0;
	if (m->fixed_only) { /* the usual case: copies of adjacent integers and arrays */
		p = ctf_writer_event_reserve(at->w, at->ws, at->ec_id, at->ts, m->fixed, st);
		if (!p)
			return 1;
		for (k = 0; k < m->n_steps; k++)
			p = put_fixed(p, rec, &m->steps[k]);
		*st = TK_OK;
		return 1;
	}
	for (k = 0; k < m->n_steps; k++) {
		const struct plan_step *sp = &m->steps[k];

		off[k] = sp->off;
		len[k] = sp->len;
		switch (sp->kind) {
		case PLAN_COPY:
		case PLAN_TEXT:
			continue;
		case PLAN_STR:
			len[k] = (uint32_t) strnlen((const char *) rec + sp->off, sp->len);
			body += len[k] + 1;
			continue;
		case PLAN_RSTR:
		case PLAN_RSEQ:
			len[k] = ev->raw_size > sp->off ? ev->raw_size - sp->off : 0;
			if (sp->kind == PLAN_RSTR) {
				len[k] = (uint32_t) strnlen((const char *) rec + sp->off, len[k]);
				body += len[k] + 1;
			} else {
				len[k] -= len[k] % sp->es;
				body += 4 + (size_t) len[k];
			}
			continue;
		default:
			if (ftrace_field_dynamic(c->ctx, sp->f, rec, ev->raw_size, &off[k],
						 &len[k]) < 0)
				off[k] = len[k] = 0;
			if (sp->kind == PLAN_DSTR) {
				len[k] = len[k] ? (uint32_t) strnlen((const char *) rec + off[k],
								     len[k])
						: 0;
				body += len[k] + 1;
			} else {
				len[k] -= len[k] % sp->es;
				body += 4 + (size_t) len[k];
			}
		}
	}
	p = ctf_writer_event_reserve(at->w, at->ws, at->ec_id, at->ts, body, st);
	if (!p)
		return 1;
	for (k = 0; k < m->n_steps; k++) {
		switch (m->steps[k].kind) {
		case PLAN_COPY:
		case PLAN_TEXT:
			p = put_fixed(p, rec, &m->steps[k]);
			continue;
		case PLAN_DSEQ:
		case PLAN_RSEQ: {
			uint32_t n = len[k] / m->steps[k].es;

			memcpy(p, &n, 4);
			p += 4;
			break;
		}
		default:
			break;
		}
		memcpy(p, rec + off[k], len[k]);
		p += len[k];
		if (m->steps[k].kind == PLAN_STR || m->steps[k].kind == PLAN_DSTR ||
		    m->steps[k].kind == PLAN_RSTR)
			*p++ = 0;
	}
	*st = TK_OK;
	return 1;
}

/* The plan of @ev's class (placed in the sink), made when first met; NULL when out of memory. */
static TK_NOINLINE const struct ec_map *plan_new(struct dat_ctf *c, const struct tk_event *ev)
{
	size_t i = ev->ec->index;
	struct ctf_sink_decl d;

	if (i >= c->n_ecs)
		return NULL;
	c->ecs[i] = calloc(1, sizeof(*c->ecs[i]));
	if (c->ecs[i]) {
		ctf_sink_decl(c->sink, ev, &d);
		plan_build(c, ev->ec->fmt, &d, c->ecs[i]);
	}
	return c->ecs[i];
}

static inline const struct ec_map *plan_of(struct dat_ctf *c, const struct tk_event *ev)
{
	size_t i = ev->ec->index;

	return i < c->n_ecs && c->ecs[i] ? c->ecs[i] : plan_new(c, ev);
}

static enum tk_status dc_event(void *state, const struct tk_event *ev)
{
	struct dat_ctf *c = state;
	const struct ec_map *m;
	struct ctf_sink_at at;
	enum tk_status st;

	st = ctf_sink_place(c->sink, ev, &at);
	if (st >= 0) {
		m = plan_of(c, ev);
		if (!m)
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot plan the copy");
		else if (!m->plan || !append_planned(c, m, ev, &at, &st))
			st = ctf_sink_write(c->sink, ev, &at);
	}
	if (st < 0)
		return TK_FAIL(st, "Cannot convert event: stream=%s, name=%s",
			       ev->stream->path ? ev->stream->path : "",
			       ev->ec->name ? ev->ec->name : "");
	return TK_OK;
}

static void dc_free(struct dat_ctf *c)
{
	size_t i;

	for (i = 0; c->ecs && i < c->n_ecs; i++)
		free(c->ecs[i]);
	free(c->ecs);
	free(c);
}

static enum tk_status dc_open(void **state, struct tk_trace *t, const char *output,
			      struct sink_ctx *cx)
{
	struct dat_ctf *c = calloc(1, sizeof(*c));
	enum tk_status st;

	if (!c || !(c->ecs = calloc(t->n_ecs + 1, sizeof(*c->ecs)))) {
		free(c);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to CTF");
	}
	c->n_ecs = t->n_ecs;
	c->ctx = tracedat_source_ftrace(t->sources[0]);
	st = ctf_sink.open(&c->sink, t, output, cx);
	if (st < 0) {
		dc_free(c);
		return st;
	}
	*state = c;
	return TK_OK;
}

static void dc_skip(void *state, const struct tk_event *ev)
{
	ctf_sink.skip(((struct dat_ctf *) state)->sink, ev);
}

static void dc_notice(void *state, const struct tk_notice *n)
{
	ctf_sink.notice(((struct dat_ctf *) state)->sink, n);
}

static enum tk_status dc_close(void *state, enum tk_status st)
{
	struct dat_ctf *c = state;

	st = ctf_sink.close(c->sink, st);
	dc_free(c);
	return st;
}

/* The CTF sink with copy plans for the events they fit. */
static const struct sink_class dat_ctf_sink = {
	.name = "ctf",
	.dir = 1,
	.by_stream = 1,
	.open = dc_open,
	.event = dc_event,
	.skip = dc_skip,
	.notice = dc_notice,
	.close = dc_close,
};

/* ---- CPUs on threads ----------------------------------------------------------------------- */

/*
 * Threads converting CPUs at once, the caller's included. Each maps or inflates a little of
 * its CPU's pages and fills a packet at a time, so memory stays flat only with a bound that
 * does not grow with the cores.
 */
#define DC_THREADS 4

/* What the threads share: the sink and the next stream to take. */
struct dc_par {
	struct dat_ctf *c;
	struct tk_trace *t;
	struct sink_ctx *cx;
	atomic_size_t next;
	atomic_uint_fast64_t events;
	atomic_int failed;
};

/* A thread: its lane of the CTF sink, with copy plans of its own. */
struct dc_lane {
	struct dc_par *p;
	struct dat_ctf c;
	enum tk_status st;
	int reports; /* the caller's thread tells the progress */
};

static void lane_notice(const struct tk_notice *n, void *payload)
{
	ctf_sink.notice(payload, n);
}

/* Convert stream @i of the trace into @l's lane: TK_OK, or why it could not. */
static enum tk_status lane_stream(struct dc_lane *l, size_t i)
{
	struct dc_par *p = l->p;
	const struct tk_convert_opts *o = p->cx->o;
	const struct tk_event *ev;
	struct tk_iter *it = NULL;
	uint64_t n = 0;
	enum tk_status st;

	ctf_sink_lane_begin(l->c.sink, i);
	st = atomic_load(&p->failed) ? TK_ERR_CANCELED : model_iter_create_stream(&it, p->t, i);
	if (st >= 0)
		tk_iter_set_notice_cb(it, lane_notice, l->c.sink);
	while (st >= 0 && (st = model_iter_next(it, &ev)) == TK_OK) {
		st = dc_event(&l->c, ev);
		if (st < 0 || ++n % 4096)
			continue;
		st = ctf_sink_lane_poll(l->c.sink); /* fewer provisional IDs, as soon as it may */
		if (st < 0 || n % 65536)
			continue;
		atomic_fetch_add(&p->events, 65536);
		if (p->cx->stop && *p->cx->stop)
			st = TK_ERR_CANCELED;
		if (st >= 0 && l->reports && o->progress)
			o->progress(atomic_load(&p->events), p->cx->total, o->payload);
	}
	if (st == TK_END)
		st = TK_OK;
	atomic_fetch_add(&p->events, n % 65536);
	tk_iter_destroy(it);
	return ctf_sink_lane_end(l->c.sink, st);
}

/* Take streams in order until none is left, or one failed (worker_run_lanes()). */
static void lane_run(void *arg)
{
	struct dc_lane *l = arg;
	struct dc_par *p = l->p;
	size_t i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->t->n_streams) {
		l->st = lane_stream(l, i);
		if (l->st < 0) {
			atomic_store(&p->failed, 1);
			break;
		}
	}
}

static void lane_fini(struct dc_lane *l)
{
	size_t i;

	for (i = 0; l->c.ecs && i < l->c.n_ecs; i++)
		free(l->c.ecs[i]);
	free(l->c.ecs);
	ctf_sink_lane_destroy(l->c.sink);
}

/*
 * Every CPU by a thread of its own, up to one per core and DC_THREADS, into the sink @c
 * (shared already): TK_OK, or the first failure.
 */
static enum tk_status run_lanes(struct dat_ctf *c, struct tk_trace *t, struct sink_ctx *cx,
				size_t n)
{
	struct dc_par p = {.c = c, .t = t, .cx = cx};
	struct dc_lane *ls = calloc(n, sizeof(*ls));
	enum tk_status st = TK_OK;
	size_t i;

	atomic_init(&p.next, 0);
	atomic_init(&p.events, 0);
	atomic_init(&p.failed, 0);
	if (!ls)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to CTF");
	for (i = 0; i < n; i++) {
		ls[i].p = &p;
		ls[i].c = *c;
		ls[i].c.sink = ctf_sink_lane_create(c->sink);
		ls[i].c.ecs = calloc(t->n_ecs + 1, sizeof(*ls[i].c.ecs));
		if (!ls[i].c.sink || !ls[i].c.ecs)
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot convert to CTF");
	}
	ls[0].reports = 1;
	if (st >= 0)
		worker_run_lanes(ls, sizeof(*ls), n, lane_run);
	for (i = 0; i < n; i++) {
		if (st >= 0 && ls[i].st < 0)
			st = ls[i].st;
		lane_fini(&ls[i]);
	}
	free(ls);
	cx->events = atomic_load(&p.events);
	return st;
}

/*
 * The CPUs of a lone trace.dat file on threads, nothing selected: the same bytes as the
 * streams one after the other (ctf_sink_share() says how). TK_AGAIN, having written
 * nothing, when the trace is not for it or anything fails on the way: the one loop then
 * writes the output, and fails where and as it fails.
 */
static enum tk_status dat_to_ctf_threads(struct tk_trace *t, const char *output,
					 struct sink_ctx *cx)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = cores > DC_THREADS ? DC_THREADS : cores > 1 ? (size_t) cores : 1;
	size_t depth = error_depth();
	void *state = NULL;
	enum tk_status st;

	if (n > t->n_streams)
		n = t->n_streams;
	if (n < 2 || !model_filter_all(cx->tf))
		return TK_AGAIN;
	st = dc_open(&state, t, output, cx);
	if (st >= 0)
		st = ctf_sink_share(((struct dat_ctf *) state)->sink);
	if (st >= 0 && st != TK_AGAIN)
		st = run_lanes(state, t, cx, n);
	if (state)
		st = dc_close(state, st == TK_AGAIN ? TK_ERR_CANCELED : st);
	if (st >= 0)
		return st;
	outdir_empty(output);
	cx->events = 0;
	error_truncate(depth);
	if (cx->stop && *cx->stop)
		return sink_stopped(cx->stop);
	return TK_AGAIN;
}

enum tk_status convert_dat_to_ctf(struct tk_trace *t, const char *output, struct sink_ctx *cx)
{
	enum tk_status st;

	if (t->n_sources != 1 || !tracedat_source_container(t->sources[0]))
		return TK_FAIL(
			TK_ERR_UNSUPPORTED,
			"Cannot convert to CTF: sources=%zu, reason=one trace.dat input only",
			t->n_sources);
	st = dat_to_ctf_threads(t, output, cx);
	if (st != TK_AGAIN)
		return st;
	return pipeline_run_sink(t, output, &dat_ctf_sink, cx);
}
