// SPDX-License-Identifier: MIT
/*
 * Passes run once the metadata is parsed, in the order their results depend on each other:
 *
 *  1. each stream class gets its default clock (the one its integer fields map to);
 *  2. special fields get their meaning by name (magic, stream_id, timestamp_begin, ...);
 *  3. stream classes learn what their packets carry (times, loss counters);
 *  4. arrays and sequences of 8-bit UTF-8 integers become text;
 *  5. structures take the alignment of their most aligned member, arrays of their element;
 *  6. sequence lengths and variant tags are resolved from their paths (CTF 1.8.3 section
 *     7.3.2: relative to the enclosing structures, or absolute from a scope root) and checked
 *     to come before their user;
 *  7. fields shown to users are marked (babeltrace2 hides meaningful and clock-mapped
 *     integers, unless a shown sequence or variant needs them);
 *  8. lengths and tags get a stored-value slot, and the decode programs are compiled.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "ctf-fc-priv.h"
#include "ctf.h"

/* Where a class was described in the metadata text, for causes (0 when unknown). */
static int sc_line(const struct model_stream_class *sc)
{
	return sc->fmt ? ((const struct ctf_sc *) sc->fmt)->line : 0;
}

static int ec_line(const struct tk_event_class *ec)
{
	return ec->fmt ? ((const struct ctf_ec *) ec->fmt)->line : 0;
}

enum scope_id {
	SCOPE_PACKET_HEADER,
	SCOPE_PACKET_CONTEXT,
	SCOPE_EVENT_HEADER,
	SCOPE_EVENT_COMMON_CONTEXT,
	SCOPE_EVENT_CONTEXT,
	SCOPE_EVENT_PAYLOAD,
	SCOPE_COUNT,
};

static const char *const scope_prefix[SCOPE_COUNT] = {
	"trace.packet.header.",	 "stream.packet.context.", "stream.event.header.",
	"stream.event.context.", "event.context.",	   "event.fields.",
};

static const char *const scope_name[SCOPE_COUNT] = {
	"packet header",	"packet context", "event header",
	"stream event context", "event context",  "event payload",
};

#define MAX_PATH 64

struct resolve {
	struct model_fc *roots[SCOPE_COUNT];
	enum scope_id scope;
	/* enclosing compound classes of the field being resolved, and the child index in each */
	const struct model_fc *stack[MAX_PATH];
	int64_t index[MAX_PATH];
	int depth;
	uint32_t n_stored;
};

/* ---- 1. default clocks ----------------------------------------------------------------- */

static enum tk_status find_clock(const struct model_fc *fc, struct tk_clock **clock)
{
	uint32_t i;
	enum tk_status st;

	if (!fc)
		return TK_OK;
	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_ENUM:
		if (fc->clock) {
			if (*clock && *clock != fc->clock)
				return TK_FAIL(
					TK_ERR_FORMAT,
					"Cannot choose stream clock: "
					"clocks=%s and %s, reason=fields map to several clocks",
					(*clock)->name, fc->clock->name);
			*clock = fc->clock;
		}
		return TK_OK;
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count; i++) {
			st = find_clock(fc->u.st.members[i].fc, clock);
			if (st < 0)
				return st;
		}
		return TK_OK;
	case MODEL_FC_VARIANT:
		for (i = 0; i < fc->u.var.count; i++) {
			st = find_clock(fc->u.var.options[i].fc, clock);
			if (st < 0)
				return st;
		}
		return TK_OK;
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		return find_clock(fc->u.arr.elem, clock);
	default:
		return TK_OK;
	}
}

static enum tk_status set_default_clocks(struct tk_source *src, struct ctf_trace *ct)
{
	struct tk_clock *clock = NULL;
	size_t i, j;
	enum tk_status st;

	st = find_clock(ct->packet_header, &clock);
	if (st < 0)
		return st;
	if (clock)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read packet header: clock=%s, "
			       "reason=packet header fields cannot map to a clock",
			       clock->name);
	for (i = 0; i < src->n_scs; i++) {
		struct model_stream_class *sc = src->scs[i];

		clock = NULL;
		st = find_clock(sc->packet_context, &clock);
		if (st >= 0)
			st = find_clock(sc->event_header, &clock);
		if (st >= 0)
			st = find_clock(sc->event_context, &clock);
		for (j = 0; st >= 0 && j < sc->n_ecs; j++) {
			st = find_clock(sc->ecs[j]->context, &clock);
			if (st >= 0)
				st = find_clock(sc->ecs[j]->payload, &clock);
		}
		if (st < 0)
			return TK_FAIL(st, "Cannot read stream class: id=%llu, line=%d",
				       (unsigned long long) sc->id, sc_line(sc));
		sc->clock = clock;
	}
	return TK_OK;
}

/* ---- 2. meanings ----------------------------------------------------------------------- */

static struct model_fc *member_int(const struct model_fc *st, const char *name)
{
	uint32_t i;

	if (!st || st->kind != MODEL_FC_STRUCT)
		return NULL;
	for (i = 0; i < st->u.st.count; i++) {
		struct model_fc *fc = st->u.st.members[i].fc;

		if (!strcmp(st->u.st.members[i].name, name))
			return fc->kind == MODEL_FC_INT || fc->kind == MODEL_FC_ENUM ? fc : NULL;
	}
	return NULL;
}

static struct model_fc *member_any(const struct model_fc *st, const char *name, uint32_t *index)
{
	uint32_t i;

	if (!st || st->kind != MODEL_FC_STRUCT)
		return NULL;
	for (i = 0; i < st->u.st.count; i++) {
		if (!strcmp(st->u.st.members[i].name, name)) {
			if (index)
				*index = i;
			return st->u.st.members[i].fc;
		}
	}
	return NULL;
}

/* Every integer named "id" in the event header, at any depth, but not a bare variant option. */
static void mark_event_ids(struct model_fc *fc, const char *name)
{
	uint32_t i;

	if (!fc)
		return;
	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_ENUM:
		if (name && !strcmp(name, "id"))
			ctf_fc(fc)->meaning = CTF_MEANING_EVENT_CLASS_ID;
		break;
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count; i++)
			mark_event_ids(fc->u.st.members[i].fc, fc->u.st.members[i].name);
		break;
	case MODEL_FC_VARIANT:
		for (i = 0; i < fc->u.var.count; i++)
			mark_event_ids(fc->u.var.options[i].fc, NULL);
		break;
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		mark_event_ids(fc->u.arr.elem, NULL);
		break;
	default:
		break;
	}
}

static void set_meanings(struct tk_source *src, struct ctf_trace *ct)
{
	struct model_fc *fc;
	size_t i;

	if ((fc = member_int(ct->packet_header, "magic")))
		ctf_fc(fc)->meaning = CTF_MEANING_MAGIC;
	if ((fc = member_int(ct->packet_header, "stream_id")))
		ctf_fc(fc)->meaning = CTF_MEANING_STREAM_CLASS_ID;
	if ((fc = member_int(ct->packet_header, "stream_instance_id")))
		ctf_fc(fc)->meaning = CTF_MEANING_DATA_STREAM_ID;
	fc = member_any(ct->packet_header, "uuid", NULL);
	if (fc && fc->kind == MODEL_FC_ARRAY)
		ctf_fc(fc)->meaning = CTF_MEANING_UUID;
	for (i = 0; i < src->n_scs; i++) {
		struct model_stream_class *sc = src->scs[i];
		const struct model_fc *pc = sc->packet_context;

		if ((fc = member_int(pc, "timestamp_begin")))
			ctf_fc(fc)->meaning = CTF_MEANING_PACKET_BEGIN_TIME;
		if ((fc = member_int(pc, "timestamp_end"))) {
			ctf_fc(fc)->meaning = CTF_MEANING_PACKET_END_TIME;
			fc->clock = NULL; /* the end time must not move the clock while decoding */
		}
		if ((fc = member_int(pc, "events_discarded")))
			ctf_fc(fc)->meaning = CTF_MEANING_DISCARDED_EVENTS;
		if ((fc = member_int(pc, "packet_seq_num")))
			ctf_fc(fc)->meaning = CTF_MEANING_PACKET_SEQ_NUM;
		if ((fc = member_int(pc, "packet_size")))
			ctf_fc(fc)->meaning = CTF_MEANING_PACKET_SIZE;
		if ((fc = member_int(pc, "content_size")))
			ctf_fc(fc)->meaning = CTF_MEANING_CONTENT_SIZE;
		mark_event_ids(sc->event_header, NULL);
	}
}

/* ---- 3. stream class configuration ----------------------------------------------------- */

static void set_stream_config(struct tk_source *src)
{
	size_t i;

	for (i = 0; i < src->n_scs; i++) {
		struct model_stream_class *sc = src->scs[i];
		const struct model_fc *pc = sc->packet_context;
		const struct model_fc *fc;

		fc = member_int(pc, "timestamp_begin");
		sc->packets_have_ts_begin =
			fc && ctf_fc_meaning(fc) == CTF_MEANING_PACKET_BEGIN_TIME;
		fc = member_int(pc, "timestamp_end");
		sc->packets_have_ts_end = fc && ctf_fc_meaning(fc) == CTF_MEANING_PACKET_END_TIME;
		fc = member_int(pc, "events_discarded");
		sc->has_discarded_events = fc && ctf_fc_meaning(fc) == CTF_MEANING_DISCARDED_EVENTS;
		sc->discarded_events_have_ts = sc->has_discarded_events &&
					       sc->packets_have_ts_begin && sc->packets_have_ts_end;
		fc = member_int(pc, "packet_seq_num");
		sc->has_discarded_packets = fc && ctf_fc_meaning(fc) == CTF_MEANING_PACKET_SEQ_NUM;
		sc->discarded_packets_have_ts = sc->has_discarded_packets &&
						sc->packets_have_ts_begin &&
						sc->packets_have_ts_end;
	}
}

/* ---- 4 and 5. text arrays and alignments ----------------------------------------------- */

static void set_text_and_align(struct model_fc *fc)
{
	uint32_t i;

	if (!fc)
		return;
	switch (fc->kind) {
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count; i++) {
			struct model_fc *c = fc->u.st.members[i].fc;

			set_text_and_align(c);
			if (c->align > fc->align)
				fc->align = c->align;
		}
		break;
	case MODEL_FC_VARIANT:
		for (i = 0; i < fc->u.var.count; i++)
			set_text_and_align(fc->u.var.options[i].fc);
		break;
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE: {
		struct model_fc *e = fc->u.arr.elem;

		if ((e->kind == MODEL_FC_INT || e->kind == MODEL_FC_ENUM) && e->align == 8 &&
		    e->size == 8 && e->encoding == MODEL_ENCODING_UTF8) {
			fc->is_text = 1;
			e->is_signed = 0;
		}
		set_text_and_align(e);
		if (e->align > fc->align) /* CTF 2 arrays may ask for more (minimum-alignment) */
			fc->align = e->align;
		break;
	}
	default:
		break;
	}
}

/* ---- 6. sequence lengths and variant tags ---------------------------------------------- */

static int64_t compound_find(const struct model_fc *fc, const char *orig_name)
{
	uint32_t i, n;
	const struct model_member *mb;

	if (fc->kind == MODEL_FC_STRUCT) {
		n = fc->u.st.count;
		mb = fc->u.st.members;
	} else if (fc->kind == MODEL_FC_VARIANT) {
		n = fc->u.var.count;
		mb = fc->u.var.options;
	} else {
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(mb[i].orig_name, orig_name))
			return i;
	return -1;
}

static const struct model_fc *compound_child(const struct model_fc *fc, int64_t i)
{
	if (fc->kind == MODEL_FC_STRUCT)
		return fc->u.st.members[i].fc;
	if (fc->kind == MODEL_FC_VARIANT)
		return fc->u.var.options[i].fc;
	return fc->u.arr.elem;
}

/*
 * Follow path tokens (dot-separated, written names) from @fc, descending arrays and
 * sequences transparently. The first token must name a child before @src_index.
 * Appends the child indexes to @path; returns the target or NULL.
 */
static const struct model_fc *follow(const struct model_fc *fc, const char *tokens,
				     int64_t src_index, int64_t *path, int *plen)
{
	char tok[256];
	int first = 1;

	while (*tokens) {
		const char *dot = strchr(tokens, '.');
		size_t n = dot ? (size_t) (dot - tokens) : strlen(tokens);
		int64_t idx;

		while (fc->kind == MODEL_FC_ARRAY || fc->kind == MODEL_FC_SEQUENCE) {
			if (*plen >= MAX_PATH)
				return NULL;
			path[(*plen)++] = -1;
			fc = fc->u.arr.elem;
		}
		if (n >= sizeof(tok) || *plen >= MAX_PATH)
			return NULL;
		memcpy(tok, tokens, n);
		tok[n] = '\0';
		idx = compound_find(fc, tok);
		if (idx < 0 || (first && idx >= src_index))
			return NULL;
		path[(*plen)++] = idx;
		fc = compound_child(fc, idx);
		first = 0;
		tokens += n;
		if (*tokens == '.')
			tokens++;
	}
	return first ? NULL : fc;
}

/*
 * Resolve @ref for the field at the top of the resolution stack: absolute paths start at a
 * scope root, relative ones search the enclosing structures from the innermost outward.
 */
static enum tk_status resolve_ref(struct resolve *r, const struct model_fc *user,
				  const struct model_fc **out)
{
	const char *ref = user->ref;
	int64_t tpath[MAX_PATH], spath[MAX_PATH];
	int tlen = 0, slen, i, k;
	int tscope = -1;
	const struct model_fc *target = NULL;

	if (!ref)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot resolve %s: reason=untagged variant",
			       scope_name[r->scope]);
	for (k = 0; k < SCOPE_COUNT; k++) {
		if (!strncmp(ref, scope_prefix[k], strlen(scope_prefix[k]))) {
			tscope = k;
			break;
		}
	}
	if (tscope >= 0) {
		if (tscope > (int) r->scope || !r->roots[tscope])
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot resolve field path: path=%s, "
				       "reason=scope not available before the %s",
				       ref, scope_name[r->scope]);
		target = follow(r->roots[tscope], ref + strlen(scope_prefix[tscope]), INT64_MAX,
				tpath, &tlen);
	} else {
		tscope = (int) r->scope;
		for (i = r->depth - 1; i >= 0 && !target; i--) {
			if (r->index[i] < 0)
				continue; /* inside an array element: search further out */
			tlen = 0;
			for (k = 0; k < i; k++)
				tpath[tlen++] = r->index[k];
			target = follow(r->stack[i], ref, r->index[i], tpath, &tlen);
		}
	}
	if (!target)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot resolve field path: path=%s, scope=%s, "
			       "reason=no earlier field has this name",
			       ref, scope_name[r->scope]);
	/* the target must come before its user in decode order */
	slen = r->depth;
	for (k = 0; k < slen; k++)
		spath[k] = r->index[k];
	if (tscope == (int) r->scope) {
		for (k = 0; k < tlen && k < slen && tpath[k] == spath[k]; k++)
			;
		if (k == tlen || k == slen || tpath[k] >= spath[k])
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot resolve field path: path=%s, "
				       "reason=target does not precede its user",
				       ref);
	}
	if (user->kind == MODEL_FC_VARIANT) {
		/* CTF 2 gives the options' ranges (u.var.ranges): any integer selects */
		if (target->kind != MODEL_FC_ENUM &&
		    !(user->u.var.ranges && target->kind == MODEL_FC_INT))
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot resolve variant tag: path=%s, "
				       "reason=tag is not an enumeration",
				       ref);
	} else if ((target->kind != MODEL_FC_INT && target->kind != MODEL_FC_ENUM) ||
		   target->is_signed) {
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot resolve sequence length: path=%s, "
			       "reason=length is not an unsigned integer",
			       ref);
	}
	*out = target;
	return TK_OK;
}

static int cmp_vrange(const void *pa, const void *pb)
{
	const struct model_variant_range *a = pa, *b = pb;

	return a->lo.u < b->lo.u ? -1 : a->lo.u > b->lo.u;
}

static int cmp_vrange_signed(const void *pa, const void *pb)
{
	const struct model_variant_range *a = pa, *b = pb;

	return a->lo.i < b->lo.i ? -1 : a->lo.i > b->lo.i;
}

/* Variant options are selected by the tag's labels equal to their written names. */
static enum tk_status set_variant_ranges(struct arena *a, struct model_fc *var,
					 struct model_fc *tag)
{
	uint32_t i, j, k, n = 0;
	struct model_variant_range *r;

	for (i = 0; i < var->u.var.count; i++)
		for (j = 0; j < tag->u.en.count; j++)
			if (!strcmp(tag->u.en.maps[j].label, var->u.var.options[i].orig_name))
				n += tag->u.en.maps[j].nranges;
	r = arena_alloc(a, (n + 1) * sizeof(*r));
	if (!r)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot resolve variant");
	n = 0;
	for (i = 0; i < var->u.var.count; i++) {
		for (j = 0; j < tag->u.en.count; j++) {
			const struct model_enum_mapping *mp = &tag->u.en.maps[j];

			if (strcmp(mp->label, var->u.var.options[i].orig_name))
				continue;
			for (k = 0; k < mp->nranges; k++) {
				r[n].lo = mp->ranges[k].lo;
				r[n].hi = mp->ranges[k].hi;
				r[n].option = i;
				n++;
			}
		}
	}
	sort_array(r, n, sizeof(*r), tag->is_signed ? cmp_vrange_signed : cmp_vrange);
	var->u.var.tag = tag;
	var->u.var.ranges = r;
	var->u.var.nranges = n;
	return TK_OK;
}

/*
 * CTF 2: the options' ranges come with the variant (in selector values); sorted as the
 * selector is signed or not, they must not overlap.
 */
static enum tk_status check_variant_ranges(struct model_fc *var, struct model_fc *tag)
{
	struct model_variant_range *r = var->u.var.ranges;
	uint32_t i, n = var->u.var.nranges;

	sort_array(r, n, sizeof(*r), tag->is_signed ? cmp_vrange_signed : cmp_vrange);
	for (i = 1; i < n; i++)
		if (tag->is_signed ? r[i].lo.i <= r[i - 1].hi.i : r[i].lo.u <= r[i - 1].hi.u)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot resolve variant: path=%s, reason=options %u and %u "
				       "share selector values",
				       var->ref, r[i - 1].option, r[i].option);
	var->u.var.tag = tag;
	return TK_OK;
}

static enum tk_status resolve_fc(struct resolve *r, struct arena *a, struct model_fc *fc)
{
	const struct model_fc *target;
	uint32_t i, n;
	enum tk_status st;

	if (!fc)
		return TK_OK;
	if (fc->kind == MODEL_FC_SEQUENCE || fc->kind == MODEL_FC_VARIANT) {
		st = resolve_ref(r, fc, &target);
		if (st < 0)
			return st;
		if (fc->kind == MODEL_FC_SEQUENCE) {
			fc->u.arr.length_fc = (struct model_fc *) target;
		} else if (fc->u.var.ranges) {
			st = check_variant_ranges(fc, (struct model_fc *) target);
			if (st < 0)
				return st;
		} else {
			st = set_variant_ranges(a, fc, (struct model_fc *) target);
			if (st < 0)
				return st;
		}
	}
	switch (fc->kind) {
	case MODEL_FC_STRUCT:
	case MODEL_FC_VARIANT:
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		if (r->depth >= MAX_PATH)
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot resolve %s: reason=nested too "
				       "deeply",
				       scope_name[r->scope]);
		n = fc->kind == MODEL_FC_STRUCT	   ? fc->u.st.count
		    : fc->kind == MODEL_FC_VARIANT ? fc->u.var.count
						   : 1;
		r->stack[r->depth] = fc;
		r->depth++;
		for (i = 0; i < n; i++) {
			int is_arr = fc->kind == MODEL_FC_ARRAY || fc->kind == MODEL_FC_SEQUENCE;

			r->index[r->depth - 1] = is_arr ? -1 : (int64_t) i;
			st = resolve_fc(r, a, (struct model_fc *) compound_child(fc, i));
			if (st < 0)
				return st;
		}
		r->depth--;
		break;
	default:
		break;
	}
	return TK_OK;
}

static enum tk_status resolve_scope(struct resolve *r, struct arena *a, enum scope_id scope)
{
	enum tk_status st;

	r->scope = scope;
	r->depth = 0;
	st = resolve_fc(r, a, r->roots[scope]);
	if (st < 0)
		return TK_FAIL(st, "Cannot resolve %s", scope_name[scope]);
	return TK_OK;
}

static enum tk_status resolve_all(struct tk_source *src, struct ctf_trace *ct)
{
	struct resolve r;
	size_t i, j;
	enum tk_status st;

	memset(&r, 0, sizeof(r));
	r.roots[SCOPE_PACKET_HEADER] = ct->packet_header;
	st = resolve_scope(&r, &src->arena, SCOPE_PACKET_HEADER);
	if (st < 0)
		return st;
	for (i = 0; i < src->n_scs; i++) {
		struct model_stream_class *sc = src->scs[i];

		r.roots[SCOPE_PACKET_CONTEXT] = sc->packet_context;
		r.roots[SCOPE_EVENT_HEADER] = sc->event_header;
		r.roots[SCOPE_EVENT_COMMON_CONTEXT] = sc->event_context;
		r.roots[SCOPE_EVENT_CONTEXT] = NULL;
		r.roots[SCOPE_EVENT_PAYLOAD] = NULL;
		st = resolve_scope(&r, &src->arena, SCOPE_PACKET_CONTEXT);
		if (st >= 0)
			st = resolve_scope(&r, &src->arena, SCOPE_EVENT_HEADER);
		if (st >= 0)
			st = resolve_scope(&r, &src->arena, SCOPE_EVENT_COMMON_CONTEXT);
		for (j = 0; st >= 0 && j < sc->n_ecs; j++) {
			struct tk_event_class *ec = sc->ecs[j];

			r.roots[SCOPE_EVENT_CONTEXT] = ec->context;
			r.roots[SCOPE_EVENT_PAYLOAD] = ec->payload;
			st = resolve_scope(&r, &src->arena, SCOPE_EVENT_CONTEXT);
			if (st >= 0)
				st = resolve_scope(&r, &src->arena, SCOPE_EVENT_PAYLOAD);
			if (st < 0)
				st = TK_FAIL(st, "Cannot read event class: name=%s, line=%d",
					     ec->name ? ec->name : "", ec_line(ec));
		}
		if (st < 0)
			return TK_FAIL(st, "Cannot read stream class: id=%llu, line=%d",
				       (unsigned long long) sc->id, sc_line(sc));
	}
	return TK_OK;
}

/* ---- 7. shown fields ------------------------------------------------------------------- */

/* Hide (@hidden 1) or show @fc and everything it holds. */
static void force_hidden(struct model_fc *fc, uint8_t hidden)
{
	uint32_t i;

	if (!fc)
		return;
	fc->hidden = hidden;
	switch (fc->kind) {
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count; i++)
			force_hidden(fc->u.st.members[i].fc, hidden);
		break;
	case MODEL_FC_VARIANT:
		for (i = 0; i < fc->u.var.count; i++)
			force_hidden(fc->u.var.options[i].fc, hidden);
		break;
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		force_hidden(fc->u.arr.elem, hidden);
		break;
	default:
		break;
	}
}

/*
 * babeltrace2's rules for what its trace IR keeps: field classes start hidden (fc_new())
 * and are shown here; members are visited last to first so users mark their targets first.
 */
static void update_shown(struct model_fc *fc)
{
	uint32_t i;

	if (!fc)
		return;
	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_ENUM:
		if ((!fc->clock && ctf_fc_meaning(fc) == CTF_MEANING_NONE) || fc->dep)
			fc->hidden = 0;
		break;
	case MODEL_FC_STRUCT:
		if (fc->u.st.count == 0)
			fc->hidden = 0;
		for (i = fc->u.st.count; i > 0; i--) {
			update_shown(fc->u.st.members[i - 1].fc);
			if (!fc->u.st.members[i - 1].fc->hidden)
				fc->hidden = 0;
		}
		break;
	case MODEL_FC_VARIANT:
		for (i = fc->u.var.count; i > 0; i--) {
			update_shown(fc->u.var.options[i - 1].fc);
			if (!fc->u.var.options[i - 1].fc->hidden)
				fc->hidden = 0;
		}
		if (!fc->hidden) {
			for (i = 0; i < fc->u.var.count; i++)
				fc->u.var.options[i].fc->hidden = 0;
			fc->u.var.tag->dep = 1;
		}
		break;
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		update_shown(fc->u.arr.elem);
		fc->hidden = fc->u.arr.elem->hidden;
		if (fc->kind == MODEL_FC_ARRAY && ctf_fc_meaning(fc) == CTF_MEANING_UUID) {
			fc->hidden = 1;
			fc->u.arr.elem->hidden = 1;
		}
		if (fc->kind == MODEL_FC_SEQUENCE && !fc->hidden)
			fc->u.arr.length_fc->dep = 1;
		break;
	default:
		fc->hidden = 0;
		break;
	}
}

static void set_shown(struct tk_source *src, struct ctf_trace *ct)
{
	size_t i, j;

	for (i = 0; i < src->n_scs; i++) {
		struct model_stream_class *sc = src->scs[i];

		for (j = 0; j < sc->n_ecs; j++) {
			update_shown(sc->ecs[j]->payload);
			update_shown(sc->ecs[j]->context);
		}
		update_shown(sc->event_context);
		force_hidden(sc->event_header, 1);
		update_shown(sc->packet_context);
	}
	force_hidden(ct->packet_header, 1);
}

/* ---- 8. stored values ------------------------------------------------------------------ */

static void set_stored(struct model_fc *fc, uint32_t *n)
{
	uint32_t i;

	if (!fc)
		return;
	switch (fc->kind) {
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count; i++)
			set_stored(fc->u.st.members[i].fc, n);
		break;
	case MODEL_FC_VARIANT:
		if (ctf_fc(fc->u.var.tag)->store < 0)
			ctf_fc(fc->u.var.tag)->store = (int32_t) (*n)++;
		for (i = 0; i < fc->u.var.count; i++)
			set_stored(fc->u.var.options[i].fc, n);
		break;
	case MODEL_FC_SEQUENCE:
		if (ctf_fc(fc->u.arr.length_fc)->store < 0)
			ctf_fc(fc->u.arr.length_fc)->store = (int32_t) (*n)++;
		/* fall through */
	case MODEL_FC_ARRAY:
		set_stored(fc->u.arr.elem, n);
		break;
	default:
		break;
	}
}

/* ---- checks of special fields ---------------------------------------------------------- */

static enum tk_status check_unsigned_member(const struct model_fc *st, const char *name,
					    const char *scope)
{
	const struct model_fc *fc = member_any(st, name, NULL);

	if (!fc)
		return TK_OK;
	if ((fc->kind != MODEL_FC_INT && fc->kind != MODEL_FC_ENUM) || fc->is_signed)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read %s: field=%s, "
			       "reason=not an unsigned integer",
			       scope, name);
	return TK_OK;
}

static enum tk_status validate(struct tk_source *src, struct ctf_trace *ct)
{
	static const char *const pctx_fields[] = {
		"timestamp_begin", "timestamp_end", "events_discarded",
		"packet_seq_num",  "packet_size",   "content_size",
	};
	const struct model_fc *ph = ct->packet_header, *fc;
	uint32_t index;
	size_t i, k;
	enum tk_status st;

	fc = member_any(ph, "magic", &index);
	if (fc && (index != 0 || (fc->kind != MODEL_FC_INT && fc->kind != MODEL_FC_ENUM) ||
		   fc->is_signed || fc->size != 32))
		st = TK_FAIL(TK_ERR_FORMAT,
			     "Cannot read packet header: field=magic, "
			     "reason=must be the first field, a 32-bit unsigned integer");
	else
		st = check_unsigned_member(ph, "stream_id", "packet header");
	if (st >= 0)
		st = check_unsigned_member(ph, "stream_instance_id", "packet header");
	if (st >= 0 && !member_any(ph, "stream_id", NULL) && src->n_scs > 1)
		st = TK_FAIL(TK_ERR_FORMAT,
			     "Cannot read packet header: reason=no stream_id "
			     "field but %zu stream classes",
			     src->n_scs);
	fc = member_any(ph, "uuid", NULL);
	if (st >= 0 && fc &&
	    (fc->kind != MODEL_FC_ARRAY || fc->u.arr.length != 16 ||
	     (fc->u.arr.elem->kind != MODEL_FC_INT && fc->u.arr.elem->kind != MODEL_FC_ENUM) ||
	     fc->u.arr.elem->size != 8 || fc->u.arr.elem->is_signed || fc->u.arr.elem->align != 8))
		st = TK_FAIL(TK_ERR_FORMAT, "Cannot read packet header: field=uuid, "
					    "reason=must be an array of 16 unsigned bytes");
	if (st < 0)
		return TK_FAIL(st, "Cannot read trace block: line=%d", ct->line);
	for (i = 0; i < src->n_scs; i++) {
		const struct model_stream_class *sc = src->scs[i];

		for (k = 0; k < TK_ARRAY_SIZE(pctx_fields) && st >= 0; k++)
			st = check_unsigned_member(sc->packet_context, pctx_fields[k],
						   "packet context");
		if (st >= 0)
			st = check_unsigned_member(sc->event_header, "id", "event header");
		if (st >= 0 && !member_any(sc->event_header, "id", NULL) && sc->n_ecs > 1)
			st = TK_FAIL(TK_ERR_FORMAT,
				     "Cannot read event header: reason=no id field but %zu event "
				     "classes",
				     sc->n_ecs);
		if (st < 0)
			return TK_FAIL(st, "Cannot read stream class: id=%llu, line=%d",
				       (unsigned long long) sc->id, sc_line(sc));
	}
	return TK_OK;
}

/* ---- quirks of known tracer versions (babeltrace2 applies the same ones) ---------------- */

static int env_int(const struct tk_source *src, const char *key, int64_t *out)
{
	size_t i;

	for (i = 0; i < src->n_env; i++) {
		if (!strcmp(src->env[i].key, key)) {
			if (src->env[i].str)
				return 0;
			*out = src->env[i].integer;
			return 1;
		}
	}
	return 0;
}

static void set_quirks(struct tk_source *src, struct ctf_trace *ct)
{
	const char *tracer = NULL;
	int64_t major = 0, minor = 0, patch = 0;
	size_t i;

	for (i = 0; i < src->n_env; i++)
		if (!strcmp(src->env[i].key, "tracer_name"))
			tracer = src->env[i].str;
	if (!tracer || !env_int(src, "tracer_major", &major))
		return;
	if (env_int(src, "tracer_minor", &minor) && !env_int(src, "tracer_patch", &patch))
		env_int(src, "tracer_patchlevel", &patch);
	if (!strcmp(tracer, "lttng-ust")) {
		ct->quirk_lttng_crash = 1;
		ct->quirk_event_after_packet = major < 2 || (major == 2 && minor < 11);
	} else if (!strcmp(tracer, "lttng-modules")) {
		ct->quirk_lttng_crash = 1;
		ct->quirk_event_after_packet =
			major < 2 || (major == 2 && ((minor == 10 && patch < 10) ||
						     (minor == 9 && patch < 13) || minor < 9));
	} else if (!strcmp(tracer, "barectf")) {
		ct->quirk_barectf_event_before_packet =
			major < 2 || (major == 2 && (minor < 3 || (minor == 3 && patch < 1)));
	}
}

/* ---- driver ---------------------------------------------------------------------------- */

static enum tk_status compile_all(struct tk_source *src, struct ctf_trace *ct)
{
	size_t i, j;
	enum tk_status st;

	st = ctf_prog_compile(&src->arena, ct->packet_header, "packet header", &ct->header_prog);
	if (st < 0)
		return st;
	for (i = 0; i < src->n_scs; i++) {
		struct model_stream_class *sc = src->scs[i];
		struct ctf_sc *csc = sc->fmt ? sc->fmt : arena_alloc(&src->arena, sizeof(*csc));

		if (!csc)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot compile decoder");
		sc->fmt = csc;
		st = ctf_prog_compile(&src->arena, sc->packet_context, "packet context",
				      &csc->pctx_prog);
		if (st >= 0)
			st = ctf_prog_compile_header(&src->arena, sc->event_header,
						     &csc->header_prog, &csc->header_kind);
		if (st >= 0)
			st = ctf_prog_compile(&src->arena, sc->event_context,
					      "stream event context", &csc->ectx_prog);
		for (j = 0; st >= 0 && j < sc->n_ecs; j++) {
			struct tk_event_class *ec = sc->ecs[j];
			struct ctf_ec *cec =
				ec->fmt ? ec->fmt : arena_alloc(&src->arena, sizeof(*cec));

			if (!cec)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot compile decoder");
			ec->fmt = cec;
			st = ctf_prog_compile(&src->arena, ec->context, "event context",
					      &cec->ctx_prog);
			if (st >= 0)
				st = ctf_prog_compile(&src->arena, ec->payload, "event payload",
						      &cec->payload_prog);
			if (st >= 0)
				st = ctf_prog_compile_body(&src->arena, sc->event_context,
							   ec->context, ec->payload, cec);
			ec->fixed =
				st >= 0 && (cec->body_static || cec->laid_n) ? cec->fixed : NULL;
			if (st < 0)
				st = TK_FAIL(st, "Cannot read event class: name=%s, line=%d",
					     ec->name ? ec->name : "", ec_line(ec));
		}
		if (st < 0)
			return TK_FAIL(st, "Cannot read stream class: id=%llu, line=%d",
				       (unsigned long long) sc->id, sc_line(sc));
	}
	return TK_OK;
}

enum tk_status ctf_resolve_trace(struct tk_source *src)
{
	struct ctf_trace *ct = src->fmt;
	size_t i, j;
	enum tk_status st;

	st = set_default_clocks(src, ct);
	if (st < 0)
		return st;
	set_meanings(src, ct);
	set_stream_config(src);
	set_text_and_align(ct->packet_header);
	for (i = 0; i < src->n_scs; i++) {
		struct model_stream_class *sc = src->scs[i];

		set_text_and_align(sc->packet_context);
		set_text_and_align(sc->event_header);
		set_text_and_align(sc->event_context);
		for (j = 0; j < sc->n_ecs; j++) {
			set_text_and_align(sc->ecs[j]->context);
			set_text_and_align(sc->ecs[j]->payload);
		}
	}
	st = resolve_all(src, ct);
	if (st < 0)
		return st;
	set_shown(src, ct);
	ct->n_stored = 0;
	set_stored(ct->packet_header, &ct->n_stored);
	for (i = 0; i < src->n_scs; i++) {
		struct model_stream_class *sc = src->scs[i];

		set_stored(sc->packet_context, &ct->n_stored);
		set_stored(sc->event_header, &ct->n_stored);
		set_stored(sc->event_context, &ct->n_stored);
		for (j = 0; j < sc->n_ecs; j++) {
			set_stored(sc->ecs[j]->context, &ct->n_stored);
			set_stored(sc->ecs[j]->payload, &ct->n_stored);
		}
	}
	st = validate(src, ct);
	if (st < 0)
		return st;
	set_quirks(src, ct);
	return compile_all(src, ct);
}
