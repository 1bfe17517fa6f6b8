// SPDX-License-Identifier: MIT
/*
 * CSV (RFC 4180) and TSV: one row per event and one column per field, for spreadsheets and
 * data frames (pandas.read_csv, R, SQLite's .import). The header row names the columns:
 *
 *	ts,cpu,event,lost,FIELD...
 *
 * ts is tk_event_get_timestamp() (empty without a clock), cpu the CPU the reader knows (empty
 * when unknown), event the class name, lost the events lost just before this one (empty for
 * none, "?" for an unknown number). Then one column per top-level field of the common
 * context, the event context and the payload of the event classes shown (those the printer's
 * filter may keep, else all), in the order they are first met, named as the field is, or "fields.NAME"
 * for a field named like one of the first four columns; a row leaves empty the columns its
 * class does not have, and a class that has a name twice (in two scopes) fills the column with
 * the first. Integers are decimal, enumerations their first label (else the number), floats
 * shortest round-trip decimals, text arrays strings, other arrays and structures their
 * values separated by spaces, variants the selected option. Losses the reader reports as
 * notices are rows of their own: event "lost events" or "lost packets", ts the start of the
 * range, lost the count.
 *
 * CSV quotes a cell holding a comma, a quote or a line break, doubling the quotes; TSV
 * writes \t, \n, \r and \\ for a tab, a line break, a carriage return and a backslash, as
 * PostgreSQL's and MySQL's text formats read them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "../common/writer.h"
#include "../model/filter.h"
#include "../model/model.h"
#include "../model/walk.h"
#include "pretty.h"
#include "sink.h"

#define FIXED_COLUMNS 4

static const char *const fixed[FIXED_COLUMNS] = {"ts", "cpu", "event", "lost"};

/* The scopes with columns, in column order: common fields, the two contexts, the payload. */
static const int scopes[] = {MODEL_SCOPE_COMMON, MODEL_SCOPE_EVENT_COMMON_CONTEXT,
			     MODEL_SCOPE_EVENT_CONTEXT, MODEL_SCOPE_PAYLOAD};

#define N_SCOPES (MODEL_SCOPE_COMMON + 1)

/* Where a class finds the value of a column: scope and top-level member, or none. */
struct cell_ref {
	int8_t scope; /* enum model_scope, -1 when the class has no such field */
	uint32_t member;
};

struct csv_state {
	char sep;
	const char **columns; /* field columns, in order */
	size_t n_columns;
	struct cell_ref **refs; /* by event class index: n_columns each, built on first use */
	size_t n_refs;
	/* per event: where each top-level member's values start, by scope */
	const struct model_value **starts[N_SCOPES];
	size_t n_starts[N_SCOPES];
};

static int is_struct(const struct model_fc *fc)
{
	return fc && fc->kind == MODEL_FC_STRUCT;
}

static int find_column(const struct csv_state *cs, const char *name)
{
	size_t i;

	for (i = 0; i < cs->n_columns; i++)
		if (!strcmp(cs->columns[i], name))
			return (int) i;
	return -1;
}

static enum tk_status add_columns(struct csv_state *cs, struct vec *cols,
				  const struct tk_event_class *ec)
{
	size_t k;
	uint32_t i;

	for (k = 0; k < TK_ARRAY_SIZE(scopes); k++) {
		const struct model_fc *fc = model_scope_fc(ec, scopes[k]);

		for (i = 0; is_struct(fc) && i < fc->u.st.count; i++) {
			const char *name = fc->u.st.members[i].name, **slot;

			cs->columns = cols->data;
			cs->n_columns = cols->len;
			if (find_column(cs, name) >= 0)
				continue;
			slot = vec_push(cols, sizeof(*slot));
			if (!slot)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot write CSV header");
			*slot = name;
		}
	}
	cs->columns = cols->data;
	cs->n_columns = cols->len;
	return TK_OK;
}

static int is_fixed(const char *name)
{
	size_t i;

	for (i = 0; i < FIXED_COLUMNS; i++)
		if (!strcmp(name, fixed[i]))
			return 1;
	return 0;
}

/* A cell as CSV or TSV wants it. */
static void put_text(struct writer *w, char sep, const char *s, size_t n)
{
	size_t i;

	if (sep == '\t') {
		for (i = 0; i < n && s[i]; i++) {
			char c = s[i];

			if (c == '\t' || c == '\n' || c == '\r' || c == '\\') {
				writer_putc(w, '\\');
				c = c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' : '\\';
			}
			writer_putc(w, c);
		}
		return;
	}
	n = strnlen(s, n);
	if (!memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\n', n) &&
	    !memchr(s, '\r', n)) {
		writer_write(w, s, n);
		return;
	}
	writer_putc(w, '"');
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			writer_putc(w, '"');
		writer_putc(w, s[i]);
	}
	writer_putc(w, '"');
}

static void put_u64(struct writer *w, uint64_t u)
{
	char *q = writer_reserve(w, 24);

	writer_commit_to(w, q + fmt_u64(q, u));
}

static void put_i64(struct writer *w, int64_t i)
{
	char *q = writer_reserve(w, 24);

	writer_commit_to(w, q + fmt_i64(q, i));
}

/* Where a cell is being written (the payload of put_value()'s walk). */
struct cell {
	struct writer *w;
	char sep;
};

/* The space between the members of a structure and the elements of an array in a cell. */
static void put_space(struct writer *w, const struct model_walk_field *f)
{
	if (f->index && f->up && f->up->fc->kind != MODEL_FC_VARIANT)
		writer_putc(w, ' ');
}

/* The first label of enumeration @fc for @v, or NULL. */
static const char *first_label(const struct model_fc *fc, const struct model_value *v)
{
	uint32_t i, r;

	for (i = 0; i < fc->u.en.count; i++) {
		const struct model_enum_mapping *m = &fc->u.en.maps[i];

		for (r = 0; r < m->nranges; r++)
			if (fc->is_signed
				    ? v->v.i >= m->ranges[r].lo.i && v->v.i <= m->ranges[r].hi.i
				    : v->v.u >= m->ranges[r].lo.u && v->v.u <= m->ranges[r].hi.u)
				return m->label;
	}
	return NULL;
}

/* A scalar but an integer: an enumeration's first label (else its number), a float, text. */
static TK_NOINLINE void put_other(struct writer *w, char sep, const struct model_fc *fc,
				  const struct model_value *v)
{
	const char *label;
	char num[40];

	switch (fc->kind) {
	case MODEL_FC_ENUM:
		label = first_label(fc, v);
		if (label)
			put_text(w, sep, label, strlen(label));
		else if (fc->is_signed)
			put_i64(w, v->v.i);
		else
			put_u64(w, v->v.u);
		return;
	case MODEL_FC_FLOAT:
		snprintf(num, sizeof(num), "%.17g", v->v.d);
		writer_puts(w, num);
		return;
	default: /* strings, text arrays and sequences */
		put_text(w, sep, v->v.s, v->n);
		return;
	}
}

/* A scalar: integers (most cells) in decimal here, the others by put_other(). */
static enum tk_status cell_scalar(const struct model_walk_field *f, void *payload)
{
	const struct cell *c = payload;
	const struct model_fc *fc = f->fc;

	put_space(c->w, f);
	if (fc->kind != MODEL_FC_INT)
		put_other(c->w, c->sep, fc, f->v);
	else if (fc->is_signed)
		put_i64(c->w, f->v->v.i);
	else
		put_u64(c->w, f->v->v.u);
	return TK_OK;
}

/* A structure, array or variant: its space; its values come as scalars. */
static enum tk_status cell_enter(const struct model_walk_field *f, void *payload)
{
	const struct cell *c = payload;

	put_space(c->w, f);
	return TK_OK;
}

/* Structures and arrays: values separated by spaces; variants: the selected option. */
static const struct model_visitor cell_visitor = {
	.scalar = cell_scalar,
	.enter_struct = cell_enter,
	.enter_array = cell_enter,
	.enter_variant = cell_enter,
};

/* The value of @fc at @v into the cell. */
static void put_value(struct writer *w, char sep, const struct model_fc *fc,
		      const struct model_value *v)
{
	struct cell c = {w, sep};

	model_walk(fc, v, &cell_visitor, &c, NULL); /* the callbacks never stop it */
}

static struct csv_state *state(struct tk_printer *p)
{
	return p->state;
}

static enum tk_status begin(struct tk_printer *p, const struct tk_trace *t, char sep)
{
	struct vec cols = VEC_INIT;
	struct csv_state *cs = calloc(1, sizeof(*cs));
	enum tk_status st = TK_OK;
	size_t i;

	if (!cs)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write CSV header");
	p->state = cs;
	cs->sep = sep;
	for (i = 0; i < t->n_ecs && st >= 0; i++)
		if (model_filter_keeps_class(p->filter, t->ecs[i]) &&
		    (st = model_class_load(t->ecs[i])) >= 0)
			st = add_columns(cs, &cols, t->ecs[i]);
	if (st < 0)
		return st;
	for (i = 0; i < FIXED_COLUMNS + cs->n_columns; i++) {
		const char *name = i < FIXED_COLUMNS ? fixed[i] : cs->columns[i - FIXED_COLUMNS];

		if (i)
			writer_putc(&p->out, sep);
		if (i >= FIXED_COLUMNS && is_fixed(name))
			writer_puts(&p->out, "fields.");
		put_text(&p->out, sep, name, strlen(name));
	}
	writer_putc(&p->out, '\n');
	return TK_OK;
}

static enum tk_status begin_csv(struct tk_printer *p, const struct tk_trace *t)
{
	return begin(p, t, ',');
}

static enum tk_status begin_tsv(struct tk_printer *p, const struct tk_trace *t)
{
	return begin(p, t, '\t');
}

/* Where @ec finds each column, built on its first event. */
static const struct cell_ref *refs_of(struct csv_state *cs, const struct tk_event_class *ec)
{
	struct cell_ref *r;
	size_t k, j;
	uint32_t i;

	if (ec->index >= cs->n_refs) {
		struct cell_ref **v = table_hold(cs->refs, &cs->n_refs, sizeof(*v), ec->index);

		if (!v)
			return NULL;
		cs->refs = v;
	}
	if (cs->refs[ec->index])
		return cs->refs[ec->index];
	r = malloc((cs->n_columns + 1) * sizeof(*r));
	if (!r)
		return NULL;
	for (k = 0; k < cs->n_columns; k++)
		r[k].scope = -1;
	for (j = TK_ARRAY_SIZE(scopes); j-- > 0;) {
		int s = scopes[j];
		const struct model_fc *fc = model_scope_fc(ec, s);

		/* the last scope first, so that the first one met wins a name */
		for (i = fc && is_struct(fc) ? fc->u.st.count : 0; i-- > 0;) {
			int c = find_column(cs, fc->u.st.members[i].name);

			if (c >= 0) {
				r[c].scope = (int8_t) s;
				r[c].member = i;
			}
		}
	}
	cs->refs[ec->index] = r;
	return r;
}

/* Where each top-level member of scope @s of @ev starts in its values. */
static int index_scope(struct csv_state *cs, const struct tk_event *ev, size_t s)
{
	const struct model_fc *fc = model_scope_fc(ev->ec, (int) s);
	const struct model_value *v;
	uint32_t i;

	if (s >= TK_ARRAY_SIZE(ev->scope) || !is_struct(fc) || !(v = ev->scope[s]))
		return 0;
	if (fc->u.st.count > cs->n_starts[s]) {
		const struct model_value **n = realloc(cs->starts[s], fc->u.st.count * sizeof(*n));

		if (!n)
			return -1;
		cs->starts[s] = n;
		cs->n_starts[s] = fc->u.st.count;
	}
	for (i = 0; i < fc->u.st.count; i++) {
		cs->starts[s][i] = v;
		v = model_value_skip(fc->u.st.members[i].fc, v);
	}
	return 0;
}

static enum tk_status print(struct tk_printer *p, const struct tk_event *ev)
{
	struct csv_state *cs = state(p);
	struct writer *w = &p->out;
	const struct cell_ref *refs;
	enum tk_status st;
	size_t k;

	st = model_event_values(ev);
	if (st < 0)
		return st;
	refs = refs_of(cs, ev->ec);
	if (!refs)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write CSV row");
	for (k = 0; k < TK_ARRAY_SIZE(scopes); k++)
		if (index_scope(cs, ev, (size_t) scopes[k]) < 0)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot write CSV row");
	if (ev->has_ts)
		put_i64(w, ev->ns);
	writer_putc(w, cs->sep);
	if (ev->cpu >= 0)
		put_i64(w, ev->cpu);
	writer_putc(w, cs->sep);
	if (ev->ec->name)
		put_text(w, cs->sep, ev->ec->name, strlen(ev->ec->name));
	writer_putc(w, cs->sep);
	if (ev->missed > 0)
		put_i64(w, ev->missed);
	else if (ev->missed < 0)
		writer_putc(w, '?');
	for (k = 0; k < cs->n_columns; k++) {
		writer_putc(w, cs->sep);
		if (refs[k].scope >= 0) {
			const struct model_fc *fc = model_scope_fc(ev->ec, refs[k].scope);

			put_value(w, cs->sep, fc->u.st.members[refs[k].member].fc,
				  cs->starts[refs[k].scope][refs[k].member]);
		}
	}
	writer_putc(w, '\n');
	if (TK_UNLIKELY(w->err))
		return writer_flush(w);
	return TK_OK;
}

static enum tk_status notice(struct tk_printer *p, const struct tk_notice *n)
{
	struct csv_state *cs = state(p);
	struct writer *w = &p->out;
	size_t k;

	if (n->has_range)
		put_i64(w, n->begin_ns);
	writer_putc(w, cs->sep);
	writer_putc(w, cs->sep);
	writer_puts(w, n->kind == TK_NOTICE_DISCARDED_EVENTS ? "lost events" : "lost packets");
	writer_putc(w, cs->sep);
	if (n->count == UINT64_MAX)
		writer_putc(w, '?');
	else
		put_u64(w, n->count);
	for (k = 0; k < cs->n_columns; k++)
		writer_putc(w, cs->sep);
	writer_putc(w, '\n');
	if (TK_UNLIKELY(w->err))
		return writer_flush(w);
	return TK_OK;
}

static void destroy(struct tk_printer *p)
{
	struct csv_state *cs = state(p);
	size_t i;

	if (!cs)
		return;
	for (i = 0; i < cs->n_refs; i++)
		free(cs->refs[i]);
	free(cs->refs);
	for (i = 0; i < N_SCOPES; i++)
		free(cs->starts[i]);
	free(cs->columns);
	free(cs);
	p->state = NULL;
}

const struct sink_ops sink_csv = {
	.begin = begin_csv,
	.event = print,
	.notice = notice,
	.destroy = destroy,
	.plan = plan_build,
	.carry_losses = 1,
};

const struct sink_ops sink_tsv = {
	.begin = begin_tsv,
	.event = print,
	.notice = notice,
	.destroy = destroy,
	.plan = plan_build,
	.carry_losses = 1,
};
