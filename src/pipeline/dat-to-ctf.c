// SPDX-License-Identifier: MIT
/*
 * trace.dat to CTF (tk_convert() with TK_CONVERT_CTF): kernel events as typed CTF events
 * that babeltrace2 and Trace Compass read.
 *
 * The mapping, stream by stream (one CPU after the other: see convert_stream()):
 *   - one CTF stream class per ring buffer (the top one, then instances), one stream per CPU,
 *     its number in the packet context's cpu_id;
 *   - the ftrace common fields (common_type, common_flags, common_preempt_count, common_pid)
 *     as the stream class's event context, the event's own fields as its payload;
 *   - integers with their size and sign, in hexadecimal when they are pointers; char arrays
 *     and __data_loc strings as strings (up to their first NUL); u8 and s8 arrays (an IPv4
 *     address) as bytes in hexadecimal, zeros included; other fixed arrays as CTF
 *     arrays and dynamic arrays (__data_loc, __rel_loc) and flexible ones (print's "buf[]",
 *     to the end of the record, and kernel_stack's "caller[8]", which holds as many frames
 *     as the record has room for) as sequences of their element size (bytes when the element
 *     size is unknown); fields of other sizes as byte arrays, and
 *     scalars of size 0 (old bprint formats' "u32 buf") as an 8-bit 0, as the model reads them;
 *   - one event class per ftrace event met, named as the event ("sched_switch"); records of
 *     no known format as "ftrace_unknown" with their bytes;
 *   - the trace clock as the CTF clock: 1 GHz (tracekit's nanoseconds; raw counters keep
 *     their count), its offset the file's DATE and OFFSET so wall-clock times agree, absolute
 *     when there is a DATE; event timestamps are the time before that offset;
 *   - losses before an event as discarded events of its stream (an unknown number as 1);
 *   - environment: hostname, sysname and kernel release from the UNAME option, domain
 *     "kernel", tracer_name "tracekit", and the ftrace metadata that turns the trace back
 *     into the same trace.dat file (src/tracedat/tracedat-env.c).
 * A record whose time is before its CPU's previous one (clock trouble the kernel allows) is
 * written at that previous time, since a CTF stream cannot go back.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <tracekit/tracekit.h>

#include "../common/error.h"
#include "../ftrace/ftrace.h"
#include "../model/model.h"
#include "../ctf/ctf.h"
#include "../tracedat/source.h"
#include "../tracedat/tracedat-env.h"
#include "pipeline.h"

#define MAX_FIELDS 512

/*
 * One step of a copy plan: how the CTF bytes of one or more fields come from the record when
 * both are in the host's byte order. The writer lays fields out byte after byte, as ftrace
 * does where its fields follow each other, so adjacent integers and arrays are one copy.
 */
#define PLAN_MAX 32 /* steps; events that need more go field by field */

enum plan_kind {
	PLAN_COPY, /* @len bytes at @off, as they are */
	PLAN_STR,  /* a char array at @off of @len bytes: its text up to a NUL, then a NUL */
	PLAN_DSTR, /* a __data_loc string: its text, then a NUL */
	PLAN_DSEQ, /* a dynamic array of @es-byte elements: u32 count, then the elements */
};

struct plan_step {
	uint8_t kind; /* enum plan_kind */
	uint8_t es;
	uint32_t off;
	uint32_t len;
	const struct ftrace_field *f;
};

struct ec_map {
	uint64_t id; /* CTF event class id; UINT64_MAX until first seen */
	uint32_t n;  /* payload fields mapped */
	int wide;    /* some field is an array or sequence of elements wider than a byte */
	const struct ftrace_field *fields[MAX_FIELDS];
	struct tk_ctf_field_decl decl[MAX_FIELDS];
	/* the copy plan of the event context and payload (plan_build()), when there is one */
	int plan;
	int copy_only; /* every step is a PLAN_COPY */
	uint32_t n_steps;
	uint32_t min_size; /* record bytes the plan reads at fixed offsets */
	uint32_t fixed;	   /* body bytes of the PLAN_COPY steps */
	struct plan_step steps[PLAN_MAX];
};

struct dat_ctf {
	struct tk_ctf_writer *w;
	const struct tk_source *src;
	const struct ftrace_ctx *ctx;
	uint64_t clock;
	int64_t offset_ns;
	/* by model stream class id (= buffer), stream index, event class index */
	uint64_t *sc;
	size_t n_sc;
	struct tk_ctf_writer_stream **streams;
	uint64_t *last_ts;
	size_t n_streams;
	struct ec_map **ecs;
	size_t n_ecs;
	/* the event context: common fields by name, from the first format that has them */
	const struct ftrace_field *common[4];
	struct tk_ctf_field_decl common_decl[4];
	size_t n_common;
	struct model_env_out env; /* into the writer's environment */
	uint8_t *scratch;	  /* array and sequence elements in host order */
	size_t scratch_cap;
};

static const char *const common_names[4] = {"common_type", "common_flags", "common_preempt_count",
					    "common_pid"};

/*
 * A field as a CTF declaration (the name is the ftrace field's); @to_end: an array whose
 * elements run to the end of the record (ftrace_field_to_end()), a sequence.
 */
static void decl_of(const struct ftrace_field *f, int to_end, struct tk_ctf_field_decl *d)
{
	uint32_t es = f->elemsize;

	memset(d, 0, sizeof(*d));
	d->name = f->name;
	d->is_signed = (f->flags & FTRACE_FIELD_SIGNED) != 0;
	d->base = (f->flags & FTRACE_FIELD_POINTER) ? 16 : 10;
	if (ftrace_field_text(f) && !ftrace_field_bytes(f)) {
		d->kind = TK_CTF_FIELD_KIND_STRING;
		return;
	}
	if (f->flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC)) {
		if (es != 1 && es != 2 && es != 4 && es != 8)
			es = 1;
		d->kind = (f->flags & FTRACE_FIELD_DYNAMIC) || ftrace_field_flexible(f) || to_end
				  ? TK_CTF_FIELD_KIND_SEQUENCE
				  : TK_CTF_FIELD_KIND_ARRAY;
		d->elem_kind = TK_CTF_FIELD_KIND_INT;
		d->elem_bits = es * 8;
		d->elem_signed = es > 1 && d->is_signed;
		d->elem_base = d->base; /* as the model shows them: decimal unless pointers */
		if (ftrace_field_bytes(f) || to_end)
			d->elem_base = 16; /* u8 arrays: the hex bytes trace-cmd -R shows; frames */
		d->array_len = f->size / es;
		return;
	}
	if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) {
		d->kind = TK_CTF_FIELD_KIND_INT;
		d->bits = f->size * 8;
		return;
	}
	if (f->size == 0) {
		/* "u32 buf; size:0" of old bprint formats: no bytes, read as 0 as the model does */
		d->kind = TK_CTF_FIELD_KIND_INT;
		d->bits = 8;
		return;
	}
	d->kind = TK_CTF_FIELD_KIND_ARRAY; /* odd sizes: the bytes */
	d->elem_kind = TK_CTF_FIELD_KIND_INT;
	d->elem_bits = 8;
	d->elem_base = 16;
	d->array_len = f->size;
}

static void *scratch(struct dat_ctf *c, size_t need)
{
	if (need > c->scratch_cap) {
		uint8_t *p = realloc(c->scratch, need);

		if (!p)
			return NULL;
		c->scratch = p;
		c->scratch_cap = need;
	}
	return c->scratch;
}

/*
 * The common case, per field and event: a whole integer inside the record, loaded at its
 * place and sign-extended. Returns 0 for anything else (value_of() then does it all).
 */
static inline int fast_int(const struct dat_ctf *c, const struct ftrace_field *f,
			   const struct tk_ctf_field_decl *d, const uint8_t *rec, size_t size,
			   struct tk_ctf_value *v)
{
	const uint8_t *p = rec + f->offset;
	uint64_t x;

	if (d->kind != TK_CTF_FIELD_KIND_INT || (f->flags & FTRACE_FIELD_DYNAMIC) ||
	    f->offset > size || f->size > size - f->offset || !tk_int_size_ok(f->size))
		return 0;
	x = tk_load_uint(p, f->size, c->ctx->bo);
	if (d->is_signed && d->bits < 64 && (x >> (d->bits - 1)) & 1)
		x |= ~UINT64_C(0) << d->bits;
	v->v.u = x;
	return 1;
}

/*
 * The value of @f in record @rec: numbers read in the trace's byte order; strings, byte
 * arrays and elements in the host's order point into the record; other wider elements are
 * copied in host order to the scratch buffer at @*used.
 */
static enum tk_status value_of(struct dat_ctf *c, const struct ftrace_field *f,
			       const struct tk_ctf_field_decl *d, const uint8_t *rec, size_t size,
			       struct tk_ctf_value *v, size_t *used)
{
	uint32_t off, len, es, i;

	memset(v, 0, sizeof(*v));
	ftrace_field_span(c->ctx, f,
			  ftrace_field_flexible(f) || d->kind == TK_CTF_FIELD_KIND_SEQUENCE, rec,
			  size, &off, &len);
	if (d->kind == TK_CTF_FIELD_KIND_INT) {
		v->v.u = len ? ftrace_field_u64(c->ctx, f, rec) : 0;
		if (d->is_signed && d->bits < 64 && (v->v.u >> (d->bits - 1)) & 1)
			v->v.u |= ~UINT64_C(0) << d->bits;
		return TK_OK;
	}
	if (d->kind == TK_CTF_FIELD_KIND_STRING) {
		v->data = rec + off;
		v->len = len ? strnlen((const char *) rec + off, len) : 0;
		return TK_OK;
	}
	es = d->elem_bits / 8;
	v->len = len / es;
	if (d->kind == TK_CTF_FIELD_KIND_ARRAY && v->len > d->array_len)
		v->len = (size_t) d->array_len;
	/* bytes, and elements already in the host's order, are taken where they are */
	if (es == 1 || !v->len || c->ctx->bo == TK_BYTE_ORDER_HOST) {
		v->data = v->len ? rec + off : NULL;
		return TK_OK;
	}
	/* wider elements: in host order, in the scratch buffer after those of earlier fields */
	if (!scratch(c, *used + v->len * es))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert field: name=%s", f->name);
	for (i = 0; i < v->len; i++) {
		const uint8_t *p = rec + off + i * es;
		uint8_t *q = c->scratch + *used + (size_t) i * es;
		uint64_t x = es == 2   ? tk_load_u16(p, c->ctx->bo)
			     : es == 4 ? tk_load_u32(p, c->ctx->bo)
				       : tk_load_u64(p, c->ctx->bo);

		if (es == 2) {
			uint16_t y = (uint16_t) x;

			memcpy(q, &y, 2);
		} else if (es == 4) {
			uint32_t y = (uint32_t) x;

			memcpy(q, &y, 4);
		} else {
			memcpy(q, &x, 8);
		}
	}
	/* the pointer is set once the buffer stops moving (see append) */
	v->data = (const void *) (uintptr_t) (*used + 1);
	*used += v->len * es;
	return TK_OK;
}

/* Add the step of field @f declared as @d to @m's plan; 0 when the field has none. */
static int plan_field(struct ec_map *m, const struct ftrace_field *f,
		      const struct tk_ctf_field_decl *d)
{
	struct plan_step st = {0, 0, f->offset, f->size, f};
	uint32_t end = f->offset + f->size;

	if (f->offset > UINT32_MAX - f->size || m->n_steps == TK_ARRAY_SIZE(m->steps) ||
	    ftrace_field_flexible(f)) /* print's text: field by field */
		return 0;
	if (d->kind == TK_CTF_FIELD_KIND_SEQUENCE && !(f->flags & FTRACE_FIELD_DYNAMIC))
		return 0; /* kernel_stack's frames, to the end of the record */
	if (f->flags & FTRACE_FIELD_DYNAMIC) {
		if (f->size != 4)
			return 0;
		if (d->kind == TK_CTF_FIELD_KIND_STRING) {
			st.kind = PLAN_DSTR;
		} else if (d->kind == TK_CTF_FIELD_KIND_SEQUENCE) {
			st.kind = PLAN_DSEQ;
			st.es = (uint8_t) (d->elem_bits / 8);
		} else {
			return 0;
		}
	} else if (d->kind == TK_CTF_FIELD_KIND_INT) {
		if (!f->size || d->bits != 8 * f->size || f->size > 8)
			return 0;
		st.kind = PLAN_COPY;
	} else if (d->kind == TK_CTF_FIELD_KIND_ARRAY) {
		st.kind = PLAN_COPY;
		st.len = (uint32_t) d->array_len * (d->elem_bits / 8);
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

/*
 * The copy plan of @m: every common field and payload field as a step, when the record and
 * the CTF trace both hold integers in the host's byte order (the writer's default).
 */
static void plan_build(const struct dat_ctf *c, struct ec_map *m)
{
	size_t k;

	m->plan = 0;
	m->n_steps = m->min_size = m->fixed = 0;
	if (c->ctx->bo != TK_BYTE_ORDER_HOST)
		return;
	for (k = 0; k < c->n_common; k++)
		if (!plan_field(m, c->common[k], &c->common_decl[k]))
			return;
	for (k = 0; k < m->n; k++)
		if (!plan_field(m, m->fields[k], &m->decl[k]))
			return;
	m->plan = 1;
	m->copy_only = 1;
	for (k = 0; k < m->n_steps; k++)
		if (m->steps[k].kind != PLAN_COPY)
			m->copy_only = 0;
}

/*
 * Write the event @ev of @m by its plan: measure the variable parts, reserve the bytes in
 * the packet, copy. Returns 0 (nothing written) when the record is too short for the plan.
 */
static int append_planned(struct dat_ctf *c, const struct ec_map *m, const struct tk_event *ev,
			  struct tk_ctf_writer_stream *s, uint64_t ts, enum tk_status *st)
{
	const uint8_t *rec = ev->raw;
	uint32_t off[TK_ARRAY_SIZE(m->steps)], len[TK_ARRAY_SIZE(m->steps)];
	size_t body = m->fixed, k;
	uint8_t *p;

	if (ev->raw_size < m->min_size)
		return 0;
	if (m->copy_only) { /* the usual case: one copy of adjacent integers and arrays */
		p = ctf_writer_event_reserve(c->w, s, m->id, ts, m->fixed, st);
		if (!p)
			return 1;
		for (k = 0; k < m->n_steps; k++) {
			memcpy(p, rec + m->steps[k].off, m->steps[k].len);
			p += m->steps[k].len;
		}
		*st = TK_OK;
		return 1;
	}
	for (k = 0; k < m->n_steps; k++) {
		const struct plan_step *sp = &m->steps[k];

		off[k] = sp->off;
		len[k] = sp->len;
		switch (sp->kind) {
		case PLAN_COPY:
			continue;
		case PLAN_STR:
			len[k] = (uint32_t) strnlen((const char *) rec + sp->off, sp->len);
			body += len[k] + 1;
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
	p = ctf_writer_event_reserve(c->w, s, m->id, ts, body, st);
	if (!p)
		return 1;
	for (k = 0; k < m->n_steps; k++) {
		switch (m->steps[k].kind) {
		case PLAN_DSEQ: {
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
		if (m->steps[k].kind == PLAN_STR || m->steps[k].kind == PLAN_DSTR)
			*p++ = 0;
	}
	*st = TK_OK;
	return 1;
}

/* The CTF stream class of buffer @b (made on first use, with the common fields). */
static enum tk_status stream_class(struct dat_ctf *c, uint64_t b, uint64_t *out)
{
	enum tk_status st;

	if (b >= c->n_sc || b >= 64)
		return TK_FAIL(TK_ERR_UNSUPPORTED, "Cannot convert buffer: index=%" PRIu64, b);
	if (c->sc[b] == UINT64_MAX) {
		st = tk_ctf_writer_add_stream_class(c->w, c->clock, &c->sc[b]);
		if (st >= 0 && c->n_common)
			st = tk_ctf_writer_set_event_context(c->w, c->sc[b], c->common_decl,
							     c->n_common);
		if (st < 0)
			return st;
	}
	*out = c->sc[b];
	return TK_OK;
}

/* The CTF event class of @ev's class (made on first use). */
static enum tk_status event_class(struct dat_ctf *c, const struct tk_event *ev, uint64_t sc,
				  struct ec_map **out)
{
	size_t i = ev->ec->index;
	const struct ftrace_event *fev = ev->ec->fmt;
	struct ec_map *m;
	enum tk_status st;
	uint32_t k;

	if (i >= c->n_ecs)
		return TK_FAIL(TK_ERR_INVAL, "Cannot convert event class: index=%zu", i);
	if (c->ecs[i]) {
		*out = c->ecs[i];
		return TK_OK;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert event class: index=%zu", i);
	if (fev) {
		for (k = fev->n_common; k < fev->n_fields && m->n < MAX_FIELDS; k++) {
			m->fields[m->n] = &fev->fields[k];
			decl_of(&fev->fields[k], ftrace_field_to_end(fev, &fev->fields[k]),
				&m->decl[m->n]);
			if ((m->decl[m->n].kind == TK_CTF_FIELD_KIND_ARRAY ||
			     m->decl[m->n].kind == TK_CTF_FIELD_KIND_SEQUENCE) &&
			    m->decl[m->n].elem_bits > 8)
				m->wide = 1;
			m->n++;
		}
		st = tk_ctf_writer_add_event_class(c->w, sc, fev->name, -1, m->decl, m->n, &m->id);
	} else {
		m->decl[0] = (struct tk_ctf_field_decl){.name = "data",
							.kind = TK_CTF_FIELD_KIND_SEQUENCE,
							.elem_kind = TK_CTF_FIELD_KIND_INT,
							.elem_bits = 8,
							.elem_base = 16};
		m->n = 1;
		st = tk_ctf_writer_add_event_class(c->w, sc, "ftrace_unknown", -1, m->decl, 1,
						   &m->id);
	}
	if (st < 0) {
		free(m);
		return st;
	}
	if (fev)
		plan_build(c, m);
	c->ecs[i] = m;
	*out = m;
	return TK_OK;
}

/*
 * Write @ev of @m at @ts into @s field by field, through tk_ctf_writer_append(): events
 * without a copy plan. Kept out of append() so that its large value arrays do not weigh on
 * the planned path.
 */
static TK_NOINLINE enum tk_status append_values(struct dat_ctf *c, const struct ec_map *m,
						const struct tk_event *ev,
						struct tk_ctf_writer_stream *s, uint64_t ts)
{
	const struct ftrace_event *fev = ev->ec->fmt;
	struct tk_ctf_value ctxv[4], pay[MAX_FIELDS];
	enum tk_status st = TK_OK;
	size_t used = 0, k;

	for (k = 0; k < c->n_common; k++)
		if (!fast_int(c, c->common[k], &c->common_decl[k], ev->raw, ev->raw_size, &ctxv[k]))
			ctxv[k].v.u = 0; /* a record too short for its common fields */
	if (fev) {
		for (k = 0; st >= 0 && k < m->n; k++)
			if (!fast_int(c, m->fields[k], &m->decl[k], ev->raw, ev->raw_size, &pay[k]))
				st = value_of(c, m->fields[k], &m->decl[k], ev->raw, ev->raw_size,
					      &pay[k], &used);
	} else {
		memset(&pay[0], 0, sizeof(pay[0]));
		pay[0].data = ev->raw;
		pay[0].len = ev->raw_size;
	}
	if (st < 0)
		return st;
	/* element arrays in the scratch buffer: offsets (plus one) until now */
	for (k = 0; fev && m->wide && c->ctx->bo != TK_BYTE_ORDER_HOST && k < m->n; k++)
		if ((m->decl[k].kind == TK_CTF_FIELD_KIND_ARRAY ||
		     m->decl[k].kind == TK_CTF_FIELD_KIND_SEQUENCE) &&
		    m->decl[k].elem_bits > 8)
			pay[k].data =
				pay[k].len ? c->scratch + ((uintptr_t) pay[k].data - 1) : NULL;
	return tk_ctf_writer_append(c->w, s, m->id, ts, c->n_common ? ctxv : NULL, pay);
}

/* Write @ev, after @missed events lost (-1: an unknown number). */
static enum tk_status append(struct dat_ctf *c, const struct tk_event *ev, int64_t missed)
{
	size_t si = ev->stream->index;
	struct ec_map *m = NULL;
	uint64_t sc = 0, ts;
	enum tk_status st;

	st = stream_class(c, ev->stream->sc->id, &sc);
	if (st >= 0)
		st = event_class(c, ev, sc, &m);
	if (st < 0)
		return st;
	if (!c->streams[si]) {
		st = tk_ctf_writer_add_stream(c->w, sc, ev->cpu < 0 ? 0 : (uint32_t) ev->cpu,
					      &c->streams[si]);
		if (st < 0)
			return st;
	}
	if (missed) {
		st = tk_ctf_writer_add_discarded(c->w, c->streams[si],
						 missed > 0 ? (uint64_t) missed : 1);
		if (st < 0)
			return st;
	}
	ts = (uint64_t) (ev->ns - c->offset_ns);
	if (ts < c->last_ts[si])
		ts = c->last_ts[si];
	c->last_ts[si] = ts;
	if (m->plan && append_planned(c, m, ev, c->streams[si], ts, &st))
		return st;
	return append_values(c, m, ev, c->streams[si], ts);
}

/*
 * Convert the events of one data stream (one CPU of one buffer), in its own order. CTF
 * streams are written one per CPU, so the time order across CPUs that a merge would give
 * changes nothing in the output: each stream is read on its own, without the merge's cost.
 * Losses before an event that is not selected go with the next selected event.
 */
static enum tk_status convert_stream(struct dat_ctf *c, struct tk_stream *stream,
				     struct sink_ctx *filter)
{
	struct model_cursor *cur = NULL;
	struct model_item item;
	const struct tk_event *ev;
	int64_t missed = 0;
	enum tk_status st;
	int keep;

	st = stream->source->ops->cursor_open(stream, &cur);
	if (st < 0)
		return TK_FAIL(st, "Cannot read stream: path=%s", stream->path);
	for (;;) {
		st = cur->ops->next(cur, &item);
		if (st != TK_OK) {
			if (st == TK_END)
				st = TK_OK;
			else
				st = TK_FAIL(st, "Cannot read stream: path=%s", stream->path);
			break;
		}
		if (item.kind != MODEL_ITEM_EVENT)
			continue;
		ev = item.event;
		if (ev->missed)
			missed = model_missed_add(missed, ev->missed);
		keep = sink_keep(filter, ev);
		if (keep < 0) {
			st = (enum tk_status) keep;
			break;
		}
		if (!keep)
			continue;
		st = append(c, ev, missed);
		if (st < 0)
			break;
		missed = 0;
		st = sink_progress(filter);
		if (st < 0)
			break;
	}
	cur->ops->destroy(cur);
	return st;
}

/* The clock, its offset, and the environment, from the file's options. */
static enum tk_status describe(struct dat_ctf *c, const struct tracedat_info *in)
{
	char name[64];
	const char *clock = in->n_buffers && in->buffers[0].clock ? in->buffers[0].clock : "local";
	int64_t off =
		(in->has_date ? in->date_offset_ns : 0) + (in->has_offset ? in->offset_ns : 0);
	int64_t sec = off / 1000000000, sub = off % 1000000000;
	enum tk_status st;
	size_t i;

	for (i = 0; clock[i] && i < sizeof(name) - 1; i++)
		name[i] = (clock[i] >= 'a' && clock[i] <= 'z') ||
					  (clock[i] >= 'A' && clock[i] <= 'Z') ||
					  (clock[i] >= '0' && clock[i] <= '9' && i)
				  ? clock[i]
				  : '_';
	name[i] = '\0';
	if (sub < 0) {
		sec--;
		sub += 1000000000;
	}
	c->offset_ns = off;
	st = tk_ctf_writer_add_clock(c->w, name, 1000000000, sec, (uint64_t) sub,
				     "trace-cmd trace clock", in->has_date, &c->clock);
	if (st >= 0)
		st = convert_env_host(&c->env, in);
	return st;
}

/* The common fields, from the first format that has common_type. */
static void find_common(struct dat_ctf *c)
{
	size_t i, k;

	for (i = 0; i < c->ctx->n_events; i++)
		if (ftrace_field_find(c->ctx->events[i], "common_type"))
			break;
	if (i == c->ctx->n_events)
		return;
	for (k = 0; k < 4; k++) {
		const struct ftrace_field *f =
			ftrace_field_find(c->ctx->events[i], common_names[k]);

		if (!f)
			continue;
		c->common[c->n_common] = f;
		decl_of(f, 0, &c->common_decl[c->n_common]);
		c->n_common++;
	}
}

enum tk_status convert_dat_to_ctf(struct tk_trace *t, const char *output, struct sink_ctx *filter)
{
	struct dat_ctf c = {0};
	enum tk_status st, st2;
	size_t i;

	if (t->n_sources != 1 || !tracedat_source_container(t->sources[0]))
		return TK_FAIL(
			TK_ERR_UNSUPPORTED,
			"Cannot convert to CTF: sources=%zu, reason=one trace.dat input only "
			"for now",
			t->n_sources);
	c.src = t->sources[0];
	c.ctx = tracedat_source_ftrace(c.src);
	c.n_sc = 64;
	c.n_streams = t->n_streams;
	c.n_ecs = t->n_ecs;
	c.sc = malloc(c.n_sc * sizeof(*c.sc));
	c.streams = calloc(c.n_streams + 1, sizeof(*c.streams));
	c.last_ts = calloc(c.n_streams + 1, sizeof(*c.last_ts));
	c.ecs = calloc(c.n_ecs + 1, sizeof(*c.ecs));
	if (!c.sc || !c.streams || !c.last_ts || !c.ecs) {
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot convert to CTF");
		goto out;
	}
	for (i = 0; i < c.n_sc; i++)
		c.sc[i] = UINT64_MAX;
	find_common(&c);
	st = tk_ctf_writer_create(&c.w, output, NULL);
	c.env.put = ctf_writer_put_env;
	c.env.payload = c.w;
	if (st >= 0)
		st = describe(&c, tracedat_source_info(c.src));
	for (i = 0; st >= 0 && i < t->n_streams; i++)
		st = convert_stream(&c, t->streams[i], filter);
	if (st >= 0)
		st = convert_env_write(&c.env, c.src, c.sc, c.n_sc, (const void *const *) c.ecs,
				       c.n_ecs);
	if (st >= 0) {
		st = tk_ctf_writer_close(c.w);
	} else if (c.w) {
		/* keep the cause of the failure: close would add its own */
		st2 = st;
		tk_ctf_writer_destroy(c.w);
		st = st2;
	}
out:
	for (i = 0; c.ecs && i < c.n_ecs; i++)
		free(c.ecs[i]);
	free(c.ecs);
	free(c.sc);
	free(c.streams);
	free(c.last_ts);
	free(c.scratch);
	return st;
}
