// SPDX-License-Identifier: MIT
/*
 * CTF to CTF (tk_convert() with TK_CONVERT_CTF from a CTF input): a trace rewritten through
 * the public CTF writer, so that readers print it as they print the original.
 *
 * The mapping, from the reader's model:
 *   - one CTF trace per source (a trace directory, or the chunks of one LTTng rotation that
 *     share a UUID), written in OUTPUT/PATH where PATH is the source's directory relative to
 *     the input it was found in (OUTPUT itself for a lone trace), so that babeltrace2 finds
 *     and names them as the originals, and merges them the same way;
 *   - the trace UUID (or none), environment, and clocks as they are (frequency, offset,
 *     precision, origin, UUID, description);
 *   - stream classes, event classes and streams with their IDs, which decide the order of
 *     events of equal time, and data files under their names;
 *   - every field class the reader knows, as a writer declaration of the same kind, size,
 *     sign, base and names: structures, enumerations with their labels, variants with their
 *     tags, arrays and sequences (of text, or of any element), strings, floats;
 *   - the packet context's fields readers show (cpu_id and the like): the writer writes
 *     those readers interpret itself; each event's packet values are set on its stream when
 *     they change;
 *   - each kept event with its clock value (so times print the same), its stream and event
 *     class contexts and payload, value for value, in the reader's flat order;
 *   - discarded events and packets reported by the reader, over the same time ranges, and
 *     events lost just before an event (trace.dat pages: tk_event.missed, an unknown number
 *     as 1) as discarded events of its stream, as trace.dat to CTF writes them;
 *   - the fields a format keeps apart (ftrace's common fields, tk_event_class.common), which
 *     CTF has no scope for, as the stream class's event context when every event class of
 *     the stream has the same ones, else before each event class's own context.
 * A field a reader would hide (an integer mapped to a clock outside the packet context and
 * event header) has no writer equivalent: such a trace is refused with TK_ERR_UNSUPPORTED.
 *
 * Inputs of several formats (trace.dat files with CTF traces, or several trace.dat files,
 * or one trace.dat file) are merged into one CTF trace instead, the generic path from the
 * model: one clock counting nanoseconds (a lone source's own clock, its name and offset,
 * when its clocks agree; else "tracekit", from the origin the model gives every event,
 * absolute when every input's clock is); only the stream classes, event classes and streams
 * the kept events use, declared when first met and numbered in that order (the streams come
 * one after the other: sink_class.by_stream), so that the output is in proportion to what
 * is selected; the field classes and values as above; the losses over the same times. A
 * packet context readers see as the CPU alone (trace.dat's) is the writer's own cpu_id.
 * The environment holds the number of inputs and their paths, since no one input's speaks
 * for the others; a lone input's reader says what it holds instead (export_env, once the
 * events are written: for trace.dat, the host and the ftrace metadata of the formats
 * written). The trace.dat-to-CTF shortcut (src/pipeline/dat-to-ctf.c) is this sink with
 * copy plans for the events they fit (ctf-sink.h), and gives the same bytes.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <tracekit/tracekit.h>

#include "../common/arena.h"
#include "../common/error.h"
#include "../model/model.h"
#include "../model/sink.h"
#include "../model/walk.h"
#include "ctf-sink-priv.h"
#include "ctf-sink.h"
#include "ctf.h"

/* Structures nest this deep at most in a converted scope (the writer's own limit). */
#define CC_MAX_DEPTH 32

/*
 * Where the fields a format keeps apart (tk_event_class.common: ftrace's common_type, flags,
 * preempt count and pid) go in CTF, which has no such scope: the stream class's event
 * context when every event class of the stream has the same ones and the stream has no
 * event context of its own (as a trace.dat file converted to CTF has them), else each event
 * class's context, before its own context fields.
 */
enum cc_common {
	CC_COMMON_NONE,
	CC_COMMON_STREAM,
	CC_COMMON_EVENT,
};

void *ctf_sink_line_alloc(size_t n)
{
	size_t size = (n + CC_LINE - 1) / CC_LINE * CC_LINE;
	void *p = aligned_alloc(CC_LINE, size);

	if (p)
		memset(p, 0, size);
	return p;
}

/* ---- declarations ------------------------------------------------------------------------- */

/*
 * The structures enclosing the field being declared, innermost last, with the member being
 * declared in each: where the writer looks a length or tag up by name.
 */
struct cc_frames {
	const struct model_fc *st[CC_MAX_DEPTH];
	uint32_t at[CC_MAX_DEPTH];
	unsigned int n;
};

/*
 * The name under which the writer finds @target, the length or tag of a field declared now:
 * the nearest earlier member of that name in the enclosing structures, innermost first. NULL
 * when the writer would find another field or none (the reader found it elsewhere, by an
 * absolute path into another scope, say).
 */
static const char *ref_name(const struct cc_frames *fr, const struct model_fc *target)
{
	const char *name = NULL;
	unsigned int k;
	uint32_t j;

	for (k = fr->n; k-- > 0 && !name;)
		for (j = 0; j < fr->at[k]; j++)
			if (fr->st[k]->u.st.members[j].fc == target)
				name = fr->st[k]->u.st.members[j].name;
	if (!name)
		return NULL;
	for (k = fr->n; k-- > 0;)
		for (j = fr->at[k]; j-- > 0;)
			if (!strcmp(fr->st[k]->u.st.members[j].name, name))
				return fr->st[k]->u.st.members[j].fc == target ? name : NULL;
	return NULL;
}

static enum tk_status decl_of(struct cc *c, const struct model_fc *fc, const char *name,
			      struct tk_ctf_field_decl *d, struct cc_frames *fr);

/*
 * Whether @fc is a sequence whose length no field holds (ftrace's dynamic arrays: the record
 * says where the data is and how long): it is written after a length member of its own,
 * "_NAME_length", which readers show as they show LTTng's.
 */
static int own_length(const struct model_fc *fc)
{
	return fc->kind == MODEL_FC_SEQUENCE && !fc->u.arr.length_fc;
}

static enum tk_status decl_members(struct cc *c, const struct model_fc *st,
				   struct tk_ctf_field_decl *d, struct cc_frames *fr)
{
	struct tk_ctf_field_decl *m;
	enum tk_status st_ = TK_OK;
	uint32_t i, n = st->u.st.count;

	for (i = 0; i < st->u.st.count; i++)
		n += own_length(st->u.st.members[i].fc);
	d->kind = TK_CTF_FIELD_KIND_STRUCT;
	d->n_members = n;
	m = arena_alloc(&c->arena, (n + 1) * sizeof(*m));
	if (!m)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare structure");
	d->members = m;
	if (fr->n >= CC_MAX_DEPTH)
		return TK_FAIL(TK_ERR_UNSUPPORTED, "Cannot declare structure: reason=nested too "
						   "deeply");
	fr->st[fr->n] = st;
	fr->n++;
	for (i = 0; i < st->u.st.count && st_ >= 0; i++) {
		const struct model_member *mb = &st->u.st.members[i];

		fr->at[fr->n - 1] = i;
		if (own_length(mb->fc)) {
			size_t len = strlen(mb->name) + 9;
			char *name = arena_alloc(&c->arena, len);

			if (!name)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot declare structure");
			snprintf(name, len, "_%s_length", mb->name);
			memset(m, 0, sizeof(*m));
			m->kind = TK_CTF_FIELD_KIND_INT;
			m->name = name;
			m->bits = 32;
			m->base = 10;
			c->own_ref = name;
			m++;
		}
		st_ = decl_of(c, mb->fc, mb->name, m++, fr);
	}
	fr->n--;
	return st_;
}

static enum tk_status decl_labels(struct cc *c, const struct model_fc *fc,
				  struct tk_ctf_field_decl *d)
{
	struct tk_ctf_enum_label *l;
	size_t n = 0, k = 0;
	uint32_t i, j;

	for (i = 0; i < fc->u.en.count; i++)
		n += fc->u.en.maps[i].nranges;
	l = arena_alloc(&c->arena, (n + 1) * sizeof(*l));
	if (!l)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare enumeration");
	for (i = 0; i < fc->u.en.count; i++)
		for (j = 0; j < fc->u.en.maps[i].nranges; j++, k++) {
			l[k].label = fc->u.en.maps[i].label;
			l[k].lo.u = fc->u.en.maps[i].ranges[j].lo.u;
			l[k].hi.u = fc->u.en.maps[i].ranges[j].hi.u;
		}
	d->labels = l;
	d->n_labels = n;
	return TK_OK;
}

/*
 * The variant of the tree @fc whose selector is the plain integer @tag (CTF 2 selects options
 * by ranges of any integer; CTF 1.8 by the labels of an enumeration), or NULL; with @tag NULL,
 * any such variant.
 */
static const struct model_fc *int_tag_variant(const struct model_fc *fc, const struct model_fc *tag)
{
	const struct model_fc *v = NULL;
	uint32_t i;

	switch (fc->kind) {
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count && !v; i++)
			v = int_tag_variant(fc->u.st.members[i].fc, tag);
		return v;
	case MODEL_FC_VARIANT:
		if (fc->u.var.tag && fc->u.var.tag->kind == MODEL_FC_INT &&
		    (!tag || fc->u.var.tag == tag))
			return fc;
		for (i = 0; i < fc->u.var.count && !v; i++)
			v = int_tag_variant(fc->u.var.options[i].fc, tag);
		return v;
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		return int_tag_variant(fc->u.arr.elem, tag);
	default:
		return NULL;
	}
}

/* An integer selecting @var's options: an enumeration of their names over their ranges. */
static enum tk_status decl_tag_labels(struct cc *c, const struct model_fc *var,
				      struct tk_ctf_field_decl *d)
{
	struct tk_ctf_enum_label *l;
	uint32_t i;

	l = arena_alloc(&c->arena, (var->u.var.nranges + 1) * sizeof(*l));
	if (!l)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare enumeration");
	for (i = 0; i < var->u.var.nranges; i++) {
		l[i].label = var->u.var.options[var->u.var.ranges[i].option].orig_name;
		l[i].lo.u = var->u.var.ranges[i].lo.u;
		l[i].hi.u = var->u.var.ranges[i].hi.u;
	}
	d->kind = TK_CTF_FIELD_KIND_ENUM;
	d->labels = l;
	d->n_labels = var->u.var.nranges;
	return TK_OK;
}

/* The element of an array or sequence: text, or a declaration of its own. */
static enum tk_status decl_elem(struct cc *c, const struct model_fc *fc,
				struct tk_ctf_field_decl *d, struct cc_frames *fr)
{
	struct tk_ctf_field_decl *e;

	if (fc->is_text) {
		d->elem_kind = TK_CTF_FIELD_KIND_CHAR;
		return TK_OK;
	}
	e = arena_alloc(&c->arena, sizeof(*e));
	if (!e)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare array");
	d->elem = e;
	return decl_of(c, fc->u.arr.elem, "element", e, fr);
}

/* The writer's declaration of the field class @fc, shown as @name. */
static enum tk_status decl_of(struct cc *c, const struct model_fc *fc, const char *name,
			      struct tk_ctf_field_decl *d, struct cc_frames *fr)
{
	uint32_t i;

	memset(d, 0, sizeof(*d));
	d->name = name;
	if (fc->clock)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot convert field: name=%s, reason=an integer mapped to a "
			       "clock outside the event header and packet context",
			       name);
	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_ENUM:
		d->kind =
			fc->kind == MODEL_FC_ENUM ? TK_CTF_FIELD_KIND_ENUM : TK_CTF_FIELD_KIND_INT;
		d->bits = fc->size;
		d->is_signed = fc->is_signed;
		d->base = fc->base;
		if (fc->kind == MODEL_FC_INT && c->int_tags && fr->n) {
			const struct model_fc *var = int_tag_variant(fr->st[0], fc);

			if (var)
				return decl_tag_labels(c, var, d);
		}
		return fc->kind == MODEL_FC_ENUM ? decl_labels(c, fc, d) : TK_OK;
	case MODEL_FC_FLOAT:
		d->kind = TK_CTF_FIELD_KIND_FLOAT;
		if (fc->mant_dig == 24 && fc->exp_dig == 8)
			d->bits = 32;
		else if (fc->mant_dig == 53 && fc->exp_dig == 11)
			d->bits = 64;
		else
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot convert field: name=%s, exp-dig=%u, mant-dig=%u, "
				       "reason=only 32 and 64-bit IEEE 754 floats are written",
				       name, fc->exp_dig, fc->mant_dig);
		return TK_OK;
	case MODEL_FC_STRING:
		d->kind = TK_CTF_FIELD_KIND_STRING;
		return TK_OK;
	case MODEL_FC_STRUCT:
		return decl_members(c, fc, d, fr);
	case MODEL_FC_ARRAY:
		d->kind = TK_CTF_FIELD_KIND_ARRAY;
		d->array_len = fc->u.arr.length;
		return decl_elem(c, fc, d, fr);
	case MODEL_FC_SEQUENCE:
		d->kind = TK_CTF_FIELD_KIND_SEQUENCE;
		d->ref = own_length(fc) ? c->own_ref : ref_name(fr, fc->u.arr.length_fc);
		if (!d->ref)
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot convert sequence: name=%s, length=%s, reason=its "
				       "length is not an earlier member of an enclosing structure",
				       name, fc->ref ? fc->ref : "");
		return decl_elem(c, fc, d, fr);
	case MODEL_FC_VARIANT: {
		struct tk_ctf_field_decl *o;
		enum tk_status st = TK_OK;

		d->kind = TK_CTF_FIELD_KIND_VARIANT;
		d->ref = ref_name(fr, fc->u.var.tag);
		if (!d->ref)
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot convert variant: name=%s, tag=%s, reason=its tag is "
				       "not an earlier member of an enclosing structure",
				       name, fc->ref ? fc->ref : "");
		o = arena_alloc(&c->arena, (fc->u.var.count + 1) * sizeof(*o));
		if (!o)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot declare variant");
		d->members = o;
		d->n_members = fc->u.var.count;
		/* options keep their written names: readers choose them by the tag's labels */
		for (i = 0; i < fc->u.var.count && st >= 0; i++)
			st = decl_of(c, fc->u.var.options[i].fc, fc->u.var.options[i].orig_name,
				     &o[i], fr);
		return st;
	}
	default:
		return TK_FAIL(TK_ERR_UNSUPPORTED, "Cannot convert field: name=%s, kind=%u", name,
			       fc->kind);
	}
}

/* A scope (a STRUCT field class) as a declaration, or NULL when absent. */
static enum tk_status decl_scope(struct cc *c, const struct model_fc *fc,
				 const struct tk_ctf_field_decl **out)
{
	struct cc_frames fr = {.n = 0};
	struct tk_ctf_field_decl *d;

	*out = NULL;
	if (!fc)
		return TK_OK;
	if (fc->kind != MODEL_FC_STRUCT)
		return TK_FAIL(TK_ERR_UNSUPPORTED, "Cannot convert scope: kind=%u", fc->kind);
	d = arena_alloc(&c->arena, sizeof(*d));
	if (!d)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare scope");
	*out = d;
	c->int_tags = int_tag_variant(fc, NULL) != NULL;
	return decl_members(c, fc, d, &fr);
}

/* Whether readers show some of the packet context's fields. */
static int pctx_shown(const struct model_fc *pc)
{
	uint32_t i;

	for (i = 0; pc && pc->kind == MODEL_FC_STRUCT && i < pc->u.st.count; i++)
		if (!pc->u.st.members[i].fc->hidden)
			return 1;
	return 0;
}

/*
 * The packet-context fields readers show (the writer writes those they interpret), as a
 * structure of their own; NULL when there are none.
 */
static enum tk_status decl_packet_context(struct cc *c, const struct model_fc *pc,
					  const struct tk_ctf_field_decl **out)
{
	struct cc_frames fr = {.n = 1};
	struct tk_ctf_field_decl *d, *m;
	uint32_t i, n = 0;
	enum tk_status st = TK_OK;

	*out = NULL;
	if (!pctx_shown(pc))
		return TK_OK;
	for (i = 0; i < pc->u.st.count; i++)
		n += !pc->u.st.members[i].fc->hidden;
	d = arena_alloc(&c->arena, sizeof(*d));
	m = arena_alloc(&c->arena, n * sizeof(*m));
	if (!d || !m)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare packet context");
	d->kind = TK_CTF_FIELD_KIND_STRUCT;
	d->members = m;
	fr.st[0] = pc;
	for (i = 0; i < pc->u.st.count && st >= 0; i++) {
		const struct model_member *mm = &pc->u.st.members[i];

		if (mm->fc->hidden)
			continue;
		fr.at[0] = i;
		st = decl_of(c, mm->fc, mm->name, &m[d->n_members++], &fr);
	}
	*out = d;
	return st;
}

/* ---- values ------------------------------------------------------------------------------- */

static struct tk_ctf_value *next_val(struct cc *c)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		struct tk_ctf_value *v = realloc(c->vals, cap * sizeof(*v));

		if (!v)
			return NULL;
		c->vals = v;
		c->cap = cap;
	}
	memset(&c->vals[c->n], 0, sizeof(c->vals[0]));
	return &c->vals[c->n++];
}

static int find_len(const struct cc *c, const struct model_fc *fc, uint64_t *v)
{
	size_t i;

	for (i = c->n_lens; i-- > 0;)
		if (c->lens[i].fc == fc) {
			*v = c->lens[i].value;
			return 1;
		}
	return 0;
}

static void note_len(struct cc *c, const struct model_fc *fc, uint64_t v)
{
	size_t i;

	for (i = 0; i < c->n_lens; i++)
		if (c->lens[i].fc == fc) {
			c->lens[i].value = v;
			return;
		}
	if (c->n_lens < TK_ARRAY_SIZE(c->lens)) {
		c->lens[c->n_lens].fc = fc;
		c->lens[c->n_lens++].value = v;
	}
}

/*
 * The writer's values of the fields model_walk() visits, appended to c->vals. The layouts
 * match value for value (model.h and struct tk_ctf_value) but for a structure member whose
 * sequence has no length field (own_length()): its length member's value goes first. Text
 * is one value either way, and a text sequence is given with all the bytes its length
 * member says (the reader's value stops at the first NUL; the bytes after it are in the
 * packet all the same).
 */
static struct tk_ctf_value *conv_next(struct cc *c, const struct model_walk_field *f)
{
	struct tk_ctf_value *x;

	if (own_length(f->fc) && f->up && f->up->fc->kind == MODEL_FC_STRUCT) {
		x = next_val(c);
		if (!x)
			return NULL;
		x->v.u = f->v->n;
	}
	return next_val(c);
}

/* A scalar but an integer that is no length or tag, or any scalar when c->vals is full. */
static TK_NOINLINE enum tk_status conv_other(const struct model_walk_field *f, struct cc *c)
{
	const struct model_fc *fc = f->fc;
	const struct model_value *v = f->v;
	struct tk_ctf_value *x = conv_next(c, f);
	uint64_t len;

	if (!x)
		return TK_ERR_NOMEM;
	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_ENUM:
		x->v.u = v->v.u;
		if (fc->dep)
			note_len(c, fc, v->v.u);
		break;
	case MODEL_FC_FLOAT:
		x->v.d = v->v.d;
		break;
	default: /* strings, text arrays and sequences */
		x->data = v->v.s;
		x->len = (size_t) v->n;
		if (fc->kind == MODEL_FC_SEQUENCE && find_len(c, fc->u.arr.length_fc, &len))
			x->len = (size_t) len;
		break;
	}
	return TK_OK;
}

/* Most values are integers, copied here without a frame; the rest is conv_other()'s. */
static enum tk_status conv_scalar(const struct model_walk_field *f, void *payload)
{
	struct cc *c = payload;
	const struct model_fc *fc = f->fc;
	struct tk_ctf_value *x;

	if ((fc->kind != MODEL_FC_INT && fc->kind != MODEL_FC_ENUM) || fc->dep || c->n == c->cap)
		return conv_other(f, c);
	x = &c->vals[c->n++];
	x->v.u = f->v->v.u;
	x->data = NULL;
	x->len = 0;
	return TK_OK;
}

/* An array's or sequence's value is its length, a variant's its selected option. */
static enum tk_status conv_count(const struct model_walk_field *f, void *payload)
{
	struct tk_ctf_value *x = conv_next(payload, f);

	if (!x)
		return TK_ERR_NOMEM;
	x->len = (size_t) f->v->n;
	return TK_OK;
}

/* A structure has no value of its own. */
static const struct model_visitor conv_visitor = {
	.scalar = conv_scalar,
	.enter_array = conv_count,
	.enter_variant = conv_count,
};

/*
 * The writer's values of scope @fc (decoded values @v) in c->vals from *@first; *@has is
 * 0 for an absent scope. Pointers into c->vals are taken once every scope is converted.
 */
static enum tk_status conv_scope(struct cc *c, const struct model_fc *fc,
				 const struct model_value *v, size_t *first, int *has)
{
	enum tk_status st;

	*first = c->n;
	*has = fc && v;
	if (!*has)
		return TK_OK;
	c->n_lens = 0;
	st = model_walk(fc, v, &conv_visitor, c, NULL);
	if (st < 0)
		return TK_FAIL(st, "Cannot convert event values");
	return TK_OK;
}

/* ---- packet contexts ---------------------------------------------------------------------- */

static int key_put(struct cc *c, const void *p, size_t n)
{
	if (n > c->key_cap - c->key_len) {
		size_t cap = c->key_cap ? 2 * c->key_cap : 256;
		uint8_t *k;

		while (cap - c->key_len < n)
			cap *= 2;
		k = realloc(c->key, cap);
		if (!k)
			return -1;
		c->key = k;
		c->key_cap = cap;
	}
	memcpy(c->key + c->key_len, p, n);
	c->key_len += n;
	return 0;
}

/*
 * The values of the packet-context fields readers show, for @ev's packet, in c->vals from
 * @first, and serialized in c->key for a cheap comparison with the last ones set.
 */
static enum tk_status pctx_values(struct cc *c, const struct tk_event *ev, size_t *first)
{
	const struct model_fc *pc = ev->stream->sc->packet_context;
	const struct model_value *v = ev->scope[MODEL_SCOPE_PACKET_CONTEXT];
	enum tk_status st = TK_OK;
	size_t i, k, used;

	*first = c->n;
	c->key_len = 0;
	c->n_lens = 0;
	for (i = 0; v && i < pc->u.st.count && st >= 0; i++) {
		const struct model_fc *m = pc->u.st.members[i].fc;
		size_t at = c->n;

		/* a field readers do not show is converted all the same (its lengths) and dropped */
		st = model_walk(m, v, &conv_visitor, c, &used);
		if (st < 0)
			break;
		v += used;
		if (m->hidden) {
			c->n = at;
			continue;
		}
		for (k = at; k < c->n && st >= 0; k++) {
			const struct tk_ctf_value *x = &c->vals[k];

			if (key_put(c, &x->v.u, 8) < 0 || key_put(c, &x->len, sizeof(x->len)) < 0 ||
			    (x->data && key_put(c, x->data, x->len) < 0))
				st = TK_ERR_NOMEM;
		}
	}
	if (st < 0)
		return TK_FAIL(st, "Cannot convert packet context");
	return TK_OK;
}

/* Set @s's packet-context values to @ev's when they changed. */
static enum tk_status update_pctx(struct cc *c, struct cc_stream *s, const struct tk_event *ev)
{
	size_t first;
	enum tk_status st;
	uint8_t *k;

	c->n = 0;
	st = pctx_values(c, ev, &first);
	if (st < 0)
		return st;
	if (s->pctx_key && s->pctx_key_len == c->key_len &&
	    !memcmp(s->pctx_key, c->key, c->key_len))
		return TK_OK;
	st = tk_ctf_writer_set_packet_context(s->out->w, s->ws, c->vals + first);
	if (st < 0)
		return st;
	k = realloc(s->pctx_key, c->key_len + 1);
	if (!k)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert packet context");
	if (c->key_len)
		memcpy(k, c->key, c->key_len);
	s->pctx_key = k;
	s->pctx_key_len = c->key_len;
	return TK_OK;
}

/* ---- events and losses -------------------------------------------------------------------- */

static enum tk_status declare_sc(struct cc *c, struct cc_out *o, size_t i, int cpu_known);
static enum tk_status declare_ec(struct cc *c, struct cc_out *o, const struct tk_event_class *ec);
static size_t sc_index(const struct tk_source *src, const struct model_stream_class *sc);

/*
 * The clock value written for @ev: its own, or when merged nanoseconds from the clock's
 * origin. A stream cannot go back: a time before the stream's last is written as that
 * (trace.dat records may go back a little, a clock trouble the kernel allows).
 */
static uint64_t event_time(const struct cc *c, struct cc_stream *s, const struct tk_event *ev)
{
	uint64_t t = ev->cycles;

	if (c->merged)
		t = ev->ns > c->time_base ? (uint64_t) (ev->ns - c->time_base) : 0;
	if (!ev->has_ts)
		return t;
	if (t < s->last_ev)
		t = s->last_ev;
	s->last_ev = t;
	return t;
}

/*
 * Merged: the output stream of input stream @is, made when first needed (with its stream
 * class): its CPU is @ev's when the writer's cpu_id holds the packet context, else the
 * input stream's ID.
 */
enum tk_status ctf_sink_open_stream(struct cc *c, struct cc_stream *s, const struct tk_stream *is,
				    const struct tk_event *ev)
{
	struct tk_ctf_stream_desc d = TK_CTF_STREAM_DESC_INIT;
	struct cc_out *o = s->out;
	size_t i = s->sci;
	enum tk_status st;

	if (o->sc_ids[i] == UINT64_MAX && (st = declare_sc(c, o, i, ev && ev->cpu >= 0)) < 0)
		return st;
	d.cpu_id = ev && ev->cpu >= 0 ? (uint32_t) ev->cpu : (uint32_t) is->id;
	s->has_pctx = !o->sc_cpu[i] && pctx_shown(is->sc->packet_context);
	st = tk_ctf_writer_add_stream_desc(o->w, o->sc_ids[i], &d, &s->ws);
	if (st < 0)
		return TK_FAIL(st, "Cannot convert stream: path=%s, id=%" PRIu64,
			       is->path ? is->path : "", is->id);
	return TK_OK;
}

/* Open @s when it is not: in its order when on threads. */
static inline enum tk_status ensure_stream(struct cc *c, struct cc_stream *s,
					   const struct tk_stream *is, const struct tk_event *ev)
{
	if (s->ws)
		return TK_OK;
	return c->main ? ctf_sink_lane_open_stream(c, s, is, ev)
		       : ctf_sink_open_stream(c, s, is, ev);
}

enum tk_status ctf_sink_place(void *state, const struct tk_event *ev, struct ctf_sink_at *at)
{
	struct cc *c = state;
	struct cc_stream *s = &c->streams[ev->stream->index];
	size_t k = ev->ec->index;
	enum tk_status st;
	int64_t missed;

	if (c->err < 0)
		return c->err;
	if (!s->ws && (st = ensure_stream(c, s, ev->stream, ev)) < 0)
		return st;
	if (c->ec_ids[k] == UINT64_MAX &&
	    (st = c->main ? ctf_sink_lane_class(c, s, ev->ec) : declare_ec(c, s->out, ev->ec)) < 0)
		return st;
	if (s->has_pctx) {
		st = model_event_values(ev);
		if (st >= 0 && ev->scope[MODEL_SCOPE_PACKET_CONTEXT])
			st = update_pctx(c, s, ev);
		if (st < 0)
			return st;
	}
	missed = model_missed_add(s->missed, ev->missed);
	if (missed) {
		/* events lost just before (trace.dat pages): an unknown number counts 1 */
		s->missed = 0;
		st = tk_ctf_writer_add_discarded(s->out->w, s->ws,
						 missed > 0 ? (uint64_t) missed : 1);
		if (st < 0)
			return st;
	}
	at->ts = event_time(c, s, ev);
	if (ev->has_ts)
		s->last = at->ts;
	at->w = s->out->w;
	at->ws = s->ws;
	at->ec_id = c->ec_ids[k];
	return TK_OK;
}

void ctf_sink_decl(void *state, const struct tk_event *ev, struct ctf_sink_decl *d)
{
	const struct cc *c = state;
	const struct cc_stream *s = &c->streams[ev->stream->index];
	size_t k = ev->ec->index;

	d->stream_context = s->out->sc_ctx[s->sci];
	d->common_in_stream = c->ec_common[k] == CC_COMMON_STREAM;
	d->context = c->ec_ctx[k];
	d->payload = c->ec_pay[k];
}

enum tk_status ctf_sink_write(void *state, const struct tk_event *ev, const struct ctf_sink_at *at)
{
	struct cc *c = state;
	size_t f0, f1, f2;
	int h0, h1, h2;
	enum tk_status st;
	uint8_t common;

	st = model_event_values(ev);
	if (st < 0)
		return st;
	c->n = 0;
	common = c->ec_common[ev->ec->index];
	if (common == CC_COMMON_STREAM)
		st = conv_scope(c, ev->ec->common, ev->scope[MODEL_SCOPE_COMMON], &f0, &h0);
	else
		st = conv_scope(c, ev->stream->sc->event_context,
				ev->scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT], &f0, &h0);
	if (st >= 0 && common == CC_COMMON_EVENT) {
		size_t fx;
		int hx = 0;

		st = conv_scope(c, ev->ec->common, ev->scope[MODEL_SCOPE_COMMON], &f1, &h1);
		if (st >= 0)
			st = conv_scope(c, ev->ec->context, ev->scope[MODEL_SCOPE_EVENT_CONTEXT],
					&fx, &hx);
		h1 |= hx;
	} else if (st >= 0) {
		st = conv_scope(c, ev->ec->context, ev->scope[MODEL_SCOPE_EVENT_CONTEXT], &f1, &h1);
	}
	if (st >= 0)
		st = conv_scope(c, ev->ec->payload, ev->scope[MODEL_SCOPE_PAYLOAD], &f2, &h2);
	if (st < 0)
		return st;
	return tk_ctf_writer_append_scopes(at->w, at->ws, at->ec_id, at->ts,
					   h0 ? c->vals + f0 : NULL, h1 ? c->vals + f1 : NULL,
					   h2 ? c->vals + f2 : NULL);
}

/*
 * A loss the reader reported, over the same time range when it has one. The range starts no
 * earlier than what the stream's output holds (quirky packets may end before their last
 * event), and the writer checks the rest.
 */
static void on_notice(const struct tk_notice *n, void *payload)
{
	struct cc *c = payload;
	struct cc_stream *s;
	uint64_t b = n->begin_cycles, e = n->end_cycles;
	int has_begin, has_end;
	int64_t begin, end;
	enum tk_status st;

	if (c->err < 0 || !n->stream || n->stream->index >= c->n_streams)
		return;
	model_filter_window(c->filter->tf, &has_begin, &begin, &has_end, &end);
	if (n->has_range && ((has_begin && n->end_ns < begin) || (has_end && n->begin_ns > end)))
		return; /* outside the time window */
	s = &c->streams[n->stream->index];
	if (!s->out)
		return; /* a stream of a source not converted here */
	if (!s->ws && (st = ensure_stream(c, s, n->stream, NULL)) < 0) {
		c->err = st;
		return;
	}
	if (c->merged) {
		b = n->begin_ns > c->time_base ? (uint64_t) (n->begin_ns - c->time_base) : 0;
		e = n->end_ns > c->time_base ? (uint64_t) (n->end_ns - c->time_base) : 0;
	}
	if (b < s->last)
		b = s->last;
	if (e < b)
		e = b;
	if (n->kind == TK_NOTICE_DISCARDED_PACKETS)
		st = tk_ctf_writer_add_discarded_packets(s->out->w, s->ws, n->count, b, e);
	else if (n->has_range)
		st = tk_ctf_writer_add_discarded_range(s->out->w, s->ws, n->count, b, e);
	else
		st = tk_ctf_writer_add_discarded(s->out->w, s->ws, n->count);
	if (st < 0)
		c->err = TK_FAIL(st, "Cannot convert discarded %s: stream=%s",
				 n->kind == TK_NOTICE_DISCARDED_PACKETS ? "packets" : "events",
				 n->stream->path ? n->stream->path : "");
	if (n->has_range)
		s->last = n->kind == TK_NOTICE_DISCARDED_PACKETS ? e : b;
}

/* ---- traces ------------------------------------------------------------------------------- */

char *ctf_sink_out_dir(const struct tk_source *src, const char *const *inputs, size_t n_inputs,
		       const char *output, size_t n_sources)
{
	char *real = src->path ? realpath(src->path, NULL) : NULL;
	const char *rel = NULL;
	char *dir, *in;
	size_t i, n;

	for (i = 0; real && i < n_inputs && !rel; i++) {
		in = realpath(inputs[i], NULL);
		n = in ? strlen(in) : 0;
		if (in && !strncmp(real, in, n) && (real[n] == '/' || !real[n]))
			rel = real + n + (real[n] == '/');
		free(in);
	}
	if (rel && !rel[0] && n_sources > 1)
		rel = NULL; /* several traces: none at the top */
	if (!rel && real)
		rel = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	n = strlen(output) + (rel ? strlen(rel) : 0) + 2;
	dir = malloc(n);
	if (dir)
		snprintf(dir, n, "%s%s%s", output, rel && rel[0] ? "/" : "", rel ? rel : "");
	free(real);
	return dir;
}

static int is_ctf(const struct tk_source *src)
{
	return src->format && !strncmp(src->format, "CTF", 3);
}

/* Whether two field classes are the same scalar, or structures of the same scalars. */
static int same_layout(const struct model_fc *a, const struct model_fc *b)
{
	uint32_t i;

	if (a->kind != b->kind || a->size != b->size || a->is_signed != b->is_signed ||
	    a->base != b->base || a->byte_order != b->byte_order || a->align != b->align)
		return 0;
	switch (a->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_FLOAT:
	case MODEL_FC_STRING:
		return 1;
	case MODEL_FC_STRUCT:
		if (a->u.st.count != b->u.st.count)
			return 0;
		for (i = 0; i < a->u.st.count; i++)
			if (strcmp(a->u.st.members[i].orig_name, b->u.st.members[i].orig_name) ||
			    !same_layout(a->u.st.members[i].fc, b->u.st.members[i].fc))
				return 0;
		return 1;
	default:
		return 0;
	}
}

/* The common fields every event class of @sc has alike, or NULL (enum cc_common). */
static const struct model_fc *shared_common(const struct model_stream_class *sc)
{
	const struct model_fc *first = NULL;
	size_t j;

	if (sc->event_context || !sc->n_ecs)
		return NULL;
	for (j = 0; j < sc->n_ecs; j++) {
		const struct model_fc *fc = sc->ecs[j]->common;

		if (!fc || (first && !same_layout(first, fc)))
			return NULL;
		if (!first)
			first = fc;
	}
	return first;
}

/* An event class's context in CTF: its common fields (CC_COMMON_EVENT), then its own. */
static enum tk_status decl_context(struct cc *c, const struct tk_event_class *ec,
				   const struct tk_ctf_field_decl **out)
{
	const struct model_fc *a = ec->common, *b = ec->context;
	struct model_fc *both;

	if (c->ec_common[ec->index] != CC_COMMON_EVENT || !b)
		return decl_scope(c, c->ec_common[ec->index] == CC_COMMON_EVENT ? a : b, out);
	if (a->kind != MODEL_FC_STRUCT || b->kind != MODEL_FC_STRUCT)
		return TK_FAIL(TK_ERR_UNSUPPORTED, "Cannot convert scope: name=%s",
			       ec->name ? ec->name : "");
	both = arena_alloc(&c->arena, sizeof(*both));
	if (!both)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare scope");
	*both = *a;
	both->u.st.count = a->u.st.count + b->u.st.count;
	both->u.st.members =
		arena_alloc(&c->arena, (both->u.st.count + 1) * sizeof(*both->u.st.members));
	if (!both->u.st.members)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare scope");
	memcpy(both->u.st.members, a->u.st.members, a->u.st.count * sizeof(*a->u.st.members));
	memcpy(both->u.st.members + a->u.st.count, b->u.st.members,
	       b->u.st.count * sizeof(*b->u.st.members));
	if (b->align > both->align)
		both->align = b->align;
	return decl_scope(c, both, out);
}

/* The file name of stream @i of @src: its own, unless another stream of the source has it. */
static const char *stream_name(const struct tk_source *src, size_t i)
{
	const char *p = src->streams[i]->path, *b;
	size_t j;

	if (!p)
		return NULL;
	b = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
	for (j = 0; j < src->n_streams; j++) {
		const char *q = src->streams[j]->path;

		if (j != i && q && !strcmp(strrchr(q, '/') ? strrchr(q, '/') + 1 : q, b))
			return NULL;
	}
	if (!b[0] || b[0] == '.' || !strcmp(b, "metadata") || !strcmp(b, "index"))
		return NULL;
	return b;
}

/* Whether readers see the packet context @pc as one field: the CPU, in cpu_id. */
static int pctx_is_cpu(const struct model_fc *pc)
{
	const struct model_member *cpu = NULL;
	uint32_t i;

	for (i = 0; pc && pc->kind == MODEL_FC_STRUCT && i < pc->u.st.count; i++) {
		if (pc->u.st.members[i].fc->hidden)
			continue;
		if (cpu)
			return 0;
		cpu = &pc->u.st.members[i];
	}
	return cpu && !strcmp(cpu->name, "cpu_id") && cpu->fc->kind == MODEL_FC_INT &&
	       !cpu->fc->is_signed && cpu->fc->size <= 32;
}

/*
 * Declare stream class @i of @o's source. Merged, it gets the next free ID, and when the
 * reader knows each event's CPU (@cpu_known) and readers see no other packet-context field,
 * the writer's own cpu_id holds it, set once per stream.
 */
static enum tk_status declare_sc(struct cc *c, struct cc_out *o, size_t i, int cpu_known)
{
	const struct tk_source *src = o->src;
	const struct model_stream_class *sc = src->scs[i];
	struct tk_ctf_stream_class_desc d = TK_CTF_STREAM_CLASS_DESC_INIT;
	const struct model_fc *common = NULL;
	enum tk_status st = TK_OK;
	uint64_t id;
	size_t j;

	for (j = 0; sc->clock && j < src->n_clocks; j++)
		if (src->clocks[j] == sc->clock)
			d.clock_id = o->clock_ids[j];
	d.has_id = !c->merged;
	d.id = sc->id;
	o->sc_cpu[i] = c->merged && cpu_known && pctx_is_cpu(sc->packet_context);
	d.has_cpu_id = o->sc_cpu[i];
	if (sc->n_ecs && c->ec_common[sc->ecs[0]->index] == CC_COMMON_STREAM)
		common = sc->ecs[0]->common;
	if (!o->sc_cpu[i])
		st = decl_packet_context(c, sc->packet_context, &d.packet_context);
	if (st >= 0)
		st = decl_scope(c, common ? common : sc->event_context, &d.event_context);
	if (st >= 0)
		st = tk_ctf_writer_add_stream_class_desc(o->w, &d, &id);
	if (st < 0)
		return TK_FAIL(st, "Cannot convert stream class: id=%" PRIu64, sc->id);
	o->sc_ids[i] = id;
	o->sc_ctx[i] = d.event_context;
	return TK_OK;
}

/*
 * Declare event class @ec of @o's source (merged: with the next free ID of its stream class),
 * or with @prov, as a provisional class of a shared writer, its ID in *@prov (TK_AGAIN when
 * not yet possible, ctf_writer_add_provisional()).
 */
enum tk_status ctf_sink_declare_ec(struct cc *c, struct cc_out *o, const struct tk_event_class *ec,
				   uint64_t *prov)
{
	struct tk_ctf_event_class_desc e = TK_CTF_EVENT_CLASS_DESC_INIT;
	uint64_t id;
	enum tk_status st;

	e.name = ec->name;
	if (c->merged && !e.name)
		e.name = "UNKNOWN_EVENT"; /* readers need one (trace.dat: no format) */
	e.has_id = !c->merged;
	e.id = ec->id;
	e.loglevel = ec->has_loglevel ? ec->loglevel : -1;
	e.emf_uri = ec->emf_uri;
	st = decl_context(c, ec, &e.context);
	if (st >= 0)
		st = decl_scope(c, ec->payload, &e.payload);
	if (st >= 0 && prov) {
		st = ctf_writer_add_provisional(o->w, o->sc_ids[sc_index(o->src, ec->sc)], &e,
						prov);
		if (st == TK_AGAIN)
			return st;
	} else if (st >= 0) {
		st = tk_ctf_writer_add_event_class_desc(o->w, o->sc_ids[sc_index(o->src, ec->sc)],
							&e, &id);
	}
	if (st < 0)
		return TK_FAIL(st, "Cannot convert event class: name=%s, id=%" PRIu64,
			       ec->name ? ec->name : "", ec->id);
	c->ec_ctx[ec->index] = e.context;
	c->ec_pay[ec->index] = e.payload;
	if (prov)
		return TK_OK;
	if (c->par)
		ctf_sink_lane_declared(c, ec->index, id);
	c->ec_ids[ec->index] = id;
	return TK_OK;
}

static enum tk_status declare_ec(struct cc *c, struct cc_out *o, const struct tk_event_class *ec)
{
	return ctf_sink_declare_ec(c, o, ec, NULL);
}

/*
 * The classes of @o's source: where each event class's common fields go; and unless merged,
 * every stream class and event class with its own ID (merged, each is declared when first
 * needed, so that the output holds only what the events use).
 */
static enum tk_status describe_classes(struct cc *c, struct cc_out *o)
{
	const struct tk_source *src = o->src;
	enum tk_status st = TK_OK;
	size_t i, j;

	for (i = 0; i < src->n_scs; i++) {
		const struct model_stream_class *sc = src->scs[i];
		const struct model_fc *common = shared_common(sc);

		o->sc_ids[i] = UINT64_MAX;
		for (j = 0; j < sc->n_ecs; j++) {
			c->ec_common[sc->ecs[j]->index] = common	       ? CC_COMMON_STREAM
							  : sc->ecs[j]->common ? CC_COMMON_EVENT
									       : CC_COMMON_NONE;
			c->ec_ids[sc->ecs[j]->index] = UINT64_MAX;
		}
	}
	for (i = 0; !c->merged && i < src->n_scs && st >= 0; i++) {
		st = declare_sc(c, o, i, 0);
		for (j = 0; j < src->scs[i]->n_ecs && st >= 0; j++)
			st = declare_ec(c, o, src->scs[i]->ecs[j]);
	}
	return st;
}

/* Describe a source's clocks in its writer (when merged: the one clock, made once). */
static enum tk_status describe_clocks(struct cc *c, struct cc_out *o, uint64_t *merged_clock)
{
	const struct tk_source *src = o->src;
	enum tk_status st = TK_OK;
	size_t i;

	for (i = 0; i < src->n_clocks && st >= 0; i++) {
		const struct tk_clock *k = src->clocks[i];
		struct tk_ctf_clock_desc d = TK_CTF_CLOCK_DESC_INIT;

		if (c->merged) {
			o->clock_ids[i] = *merged_clock;
			continue;
		}
		d.name = k->name;
		d.frequency = k->freq;
		d.offset_s = k->offset_s;
		d.offset_cycles = k->offset_cycles;
		d.precision = k->precision;
		d.description = k->description;
		d.is_absolute = k->absolute;
		d.has_uuid = k->has_uuid;
		memcpy(d.uuid, k->uuid, 16);
		st = tk_ctf_writer_add_clock_desc(o->w, &d, &o->clock_ids[i]);
	}
	return st;
}

/* The index of @sc in its source's stream classes. */
static size_t sc_index(const struct tk_source *src, const struct model_stream_class *sc)
{
	size_t i;

	for (i = 0; i < src->n_scs && src->scs[i] != sc; i++)
		;
	return i;
}

/* Describe one source in its writer (o->w): environment, clocks, classes, streams. */
static enum tk_status open_out(struct cc *c, struct cc_out *o, uint64_t *merged_clock)
{
	const struct tk_source *src = o->src;
	enum tk_status st = TK_OK;
	size_t i;

	o->clock_ids = calloc(src->n_clocks + 1, sizeof(*o->clock_ids));
	o->sc_ids = calloc(src->n_scs + 1, sizeof(*o->sc_ids));
	o->sc_ctx = calloc(src->n_scs + 1, sizeof(*o->sc_ctx));
	o->sc_cpu = calloc(src->n_scs + 1, sizeof(*o->sc_cpu));
	if (!o->clock_ids || !o->sc_ids || !o->sc_ctx || !o->sc_cpu)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert trace: path=%s", src->path);
	for (i = 0; !c->merged && i < src->n_env && st >= 0; i++) {
		const struct model_env *e = &src->env[i];

		st = e->str ? tk_ctf_writer_set_env_string(o->w, e->key, e->str)
			    : tk_ctf_writer_set_env_int(o->w, e->key, e->integer);
	}
	if (st >= 0)
		st = describe_clocks(c, o, merged_clock);
	if (st >= 0)
		st = describe_classes(c, o);
	for (i = 0; i < src->n_streams && st >= 0; i++) {
		const struct tk_stream *is = src->streams[i];
		struct tk_ctf_stream_desc d = TK_CTF_STREAM_DESC_INIT;
		struct cc_stream *s = &c->streams[is->index];

		s->out = o;
		s->sci = sc_index(src, is->sc);
		if (c->merged)
			continue; /* made when first needed (open_stream()) */
		d.has_id = 1;
		d.id = is->id;
		d.name = stream_name(src, i);
		s->has_pctx = pctx_shown(is->sc->packet_context);
		st = tk_ctf_writer_add_stream_desc(o->w, o->sc_ids[s->sci], &d, &s->ws);
	}
	if (st < 0)
		return TK_FAIL(st, "Cannot convert trace: path=%s", src->path);
	return TK_OK;
}

/* A writer for the trace of @src in @dir, with its UUID. */
static enum tk_status create_writer(struct tk_ctf_writer **w, const struct tk_source *src,
				    const char *dir)
{
	struct tk_ctf_writer_opts wo = TK_CTF_WRITER_OPTS_INIT;

	if (src) {
		wo.has_uuid = src->has_uuid;
		wo.no_uuid = !src->has_uuid;
		memcpy(wo.uuid, src->uuid, 16);
	}
	return tk_ctf_writer_create(w, dir, &wo);
}

/* @in as a CTF identifier in @out (@n bytes): letters, digits past the first, else '_'. */
static void clock_name(const char *in, char *out, size_t n)
{
	size_t i;

	for (i = 0; in[i] && i < n - 1; i++)
		out[i] = (in[i] >= 'a' && in[i] <= 'z') || (in[i] >= 'A' && in[i] <= 'Z') ||
					 (in[i] >= '0' && in[i] <= '9' && i)
				 ? in[i]
				 : '_';
	out[i] = '\0';
	if (!i)
		snprintf(out, n, "clock");
}

/* The clock of a lone source whose clocks all agree (name, origin, kind), or NULL. */
static const struct tk_clock *lone_clock(const struct tk_trace *t)
{
	const struct tk_source *src = t->n_sources == 1 ? t->sources[0] : NULL;
	const struct tk_clock *k = src && src->n_clocks ? src->clocks[0] : NULL;
	size_t i;

	for (i = 1; k && i < src->n_clocks; i++) {
		const struct tk_clock *x = src->clocks[i];

		if (strcmp(x->name ? x->name : "", k->name ? k->name : "") ||
		    x->base_ns != k->base_ns || x->absolute != k->absolute ||
		    x->has_uuid != k->has_uuid || (k->has_uuid && memcmp(x->uuid, k->uuid, 16)))
			return NULL;
	}
	return k && !k->base_overflows && k->name ? k : NULL;
}

/*
 * The one writer of a merged trace in @output, and its clock counting ns: a lone source's
 * own clock when its clocks agree (named and described as it is, from the same origin), else
 * "tracekit", from the origin of the model's times (absolute when every source's clocks
 * are). The environment names the inputs, unless a lone source's reader gives its own
 * (export_env(), at the end).
 */
static enum tk_status open_merged(struct cc *c, struct tk_trace *t, const char *output,
				  struct tk_ctf_writer **w, uint64_t *clock)
{
	struct tk_ctf_clock_desc d = TK_CTF_CLOCK_DESC_INIT;
	const struct tk_clock *k = lone_clock(t);
	enum tk_status st;
	char key[48], name[64];
	size_t i, j;

	st = create_writer(w, NULL, output);
	d.name = "tracekit";
	d.description = "nanoseconds from the origin of the merged inputs' clocks";
	d.is_absolute = 1;
	for (i = 0; i < t->n_sources; i++)
		for (j = 0; j < t->sources[i]->n_clocks; j++)
			d.is_absolute &= t->sources[i]->clocks[j]->absolute;
	if (k) {
		clock_name(k->name, name, sizeof(name));
		d.name = name;
		d.description = k->description;
		d.is_absolute = k->absolute;
		d.has_uuid = k->has_uuid;
		memcpy(d.uuid, k->uuid, 16);
		d.offset_s = k->base_ns / 1000000000;
		d.offset_cycles = (uint64_t) (k->base_ns % 1000000000);
		if (k->base_ns < 0 && d.offset_cycles) {
			d.offset_s--;
			d.offset_cycles = (uint64_t) (k->base_ns % 1000000000 + 1000000000);
		}
		c->time_base = k->base_ns;
	}
	if (st >= 0)
		st = tk_ctf_writer_add_clock_desc(*w, &d, clock);
	if (t->n_sources == 1 && t->sources[0]->ops->export_env)
		return st; /* the source's environment instead (export_env()) */
	if (st >= 0)
		st = tk_ctf_writer_set_env_int(*w, "tracekit_inputs", (int64_t) t->n_sources);
	for (i = 0; i < t->n_sources && st >= 0; i++) {
		snprintf(key, sizeof(key), "tracekit_input_%zu", i);
		st = tk_ctf_writer_set_env_string(*w, key,
						  t->sources[i]->path ? t->sources[i]->path : "");
	}
	return st;
}

static enum tk_status open_outs(struct cc *c, struct tk_trace *t, const char *const *inputs,
				size_t n_inputs, const char *output)
{
	struct tk_ctf_writer *shared = NULL;
	uint64_t clock = 0;
	enum tk_status st = TK_OK;
	size_t i;

	c->outs = calloc(t->n_sources + 1, sizeof(*c->outs));
	c->streams = ctf_sink_line_alloc((t->n_streams + 1) * sizeof(*c->streams));
	if (!c->outs || !c->streams)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to CTF");
	c->n_streams = t->n_streams;
	if (c->merged) {
		st = open_merged(c, t, output, &shared, &clock);
		if (st < 0) {
			tk_ctf_writer_destroy(shared);
			return TK_FAIL(st, "Cannot convert to CTF: output=%s", output);
		}
	}
	for (i = 0; i < t->n_sources && st >= 0; i++) {
		struct cc_out *o = &c->outs[i];

		o->src = t->sources[i];
		c->n_outs = i + 1;
		if (shared) {
			o->w = shared;
		} else {
			char *dir =
				ctf_sink_out_dir(o->src, inputs, n_inputs, output, t->n_sources);

			st = dir ? create_writer(&o->w, o->src, dir)
				 : TK_FAIL(TK_ERR_NOMEM, "Cannot convert to CTF");
			if (st < 0)
				st = TK_FAIL(st, "Cannot convert trace: path=%s, output=%s",
					     o->src->path, dir ? dir : output);
			free(dir);
		}
		if (st >= 0)
			st = open_out(c, o, &clock);
	}
	return st;
}

/*
 * Merged from a lone source whose reader keeps what it holds in the environment: that, for
 * the classes the output has (trace.dat: the host, and the ftrace metadata of its formats).
 */
static enum tk_status export_env(struct cc *c, struct tk_trace *t)
{
	const struct tk_source *src = t->n_sources == 1 ? t->sources[0] : NULL;
	const struct model_env_out env = {ctf_writer_put_env, c->n_outs ? c->outs[0].w : NULL};
	uint8_t *used;
	enum tk_status st;
	size_t i;

	if (!c->merged || !src || !src->ops->export_env || !c->n_outs)
		return TK_OK;
	used = calloc(t->n_ecs + 1, 1);
	if (!used)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert the environment");
	for (i = 0; i < t->n_ecs; i++)
		used[i] = c->ec_ids[i] != UINT64_MAX;
	st = src->ops->export_env(src, c->outs[0].sc_ids, used, t->n_ecs, &env);
	free(used);
	if (st < 0)
		return TK_FAIL(st, "Cannot convert the environment: path=%s", src->path);
	return TK_OK;
}

/* Finish every trace; after a failure (@st < 0), drop them without finishing. */
static enum tk_status close_outs(struct cc *c, enum tk_status st)
{
	size_t i;

	for (i = 0; i < c->n_outs; i++) {
		if (c->merged && i > 0) {
			/* the one writer, closed with the first source */
		} else if (st >= 0) {
			enum tk_status st2 = tk_ctf_writer_close(c->outs[i].w);

			if (st2 < 0)
				st = st2;
		} else {
			tk_ctf_writer_destroy(c->outs[i].w);
		}
		free(c->outs[i].clock_ids);
		free(c->outs[i].sc_ids);
		free(c->outs[i].sc_ctx);
		free(c->outs[i].sc_cpu);
	}
	return st;
}

static void cc_free(struct cc *c)
{
	size_t i;

	ctf_sink_par_free(c->par);
	for (i = 0; i < c->n_streams; i++)
		free(c->streams[i].pctx_key);
	free(c->streams);
	free(c->outs);
	free(c->ec_ids);
	free(c->ec_common);
	free(c->ec_ctx);
	free(c->ec_pay);
	free(c->vals);
	free(c->key);
	arena_fini(&c->arena);
	free(c);
}

static enum tk_status cc_open(void **state, struct tk_trace *t, const char *output,
			      struct sink_ctx *cx)
{
	struct cc *c = calloc(1, sizeof(*c));
	enum tk_status st;
	size_t i;

	if (!c)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to CTF");
	arena_init(&c->arena);
	for (i = 0; i < t->n_sources; i++)
		if (!is_ctf(t->sources[i]))
			c->merged = 1;
	c->filter = cx;
	c->t = t;
	c->ec_ids = calloc(t->n_ecs + 1, sizeof(*c->ec_ids));
	c->ec_common = calloc(t->n_ecs + 1, sizeof(*c->ec_common));
	c->ec_ctx = calloc(t->n_ecs + 1, sizeof(*c->ec_ctx));
	c->ec_pay = calloc(t->n_ecs + 1, sizeof(*c->ec_pay));
	if (!c->ec_ids || !c->ec_common || !c->ec_ctx || !c->ec_pay) {
		cc_free(c);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to CTF");
	}
	st = open_outs(c, t, cx->inputs, cx->n_inputs, output);
	if (st < 0) {
		(void) close_outs(c, st);
		cc_free(c);
		return st;
	}
	*state = c;
	return TK_OK;
}

static enum tk_status cc_event(void *state, const struct tk_event *ev)
{
	struct cc *c = state;
	struct ctf_sink_at at;
	enum tk_status st;

	st = ctf_sink_place(c, ev, &at);
	if (st >= 0)
		st = ctf_sink_write(c, ev, &at);
	if (st < 0)
		return TK_FAIL(st, "Cannot convert event: stream=%s, name=%s",
			       ev->stream->path ? ev->stream->path : "",
			       ev->ec->name ? ev->ec->name : "");
	return TK_OK;
}

static void cc_skip(void *state, const struct tk_event *ev)
{
	struct cc *c = state;

	if (ev->missed && ev->stream->index < c->n_streams)
		c->streams[ev->stream->index].missed =
			model_missed_add(c->streams[ev->stream->index].missed, ev->missed);
}

static void cc_notice(void *state, const struct tk_notice *n)
{
	on_notice(n, state);
}

static enum tk_status cc_close(void *state, enum tk_status st)
{
	struct cc *c = state;

	if (st >= 0 && c->err < 0)
		st = c->err;
	if (st >= 0)
		st = export_env(c, c->t);
	st = close_outs(c, st);
	cc_free(c);
	return st;
}

/*
 * The CTF writer as a sink: each source into a CTF trace of its own, or every source into one
 * merged trace when they are not all CTF (the file comment says how).
 */
const struct sink_class ctf_sink = {
	.name = "ctf",
	.dir = 1,
	.by_stream = 1,
	.open = cc_open,
	.event = cc_event,
	.skip = cc_skip,
	.notice = cc_notice,
	.close = cc_close,
};
