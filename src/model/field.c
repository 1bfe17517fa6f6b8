// SPDX-License-Identifier: MIT
/*
 * Field classes and field values in the public API (include/tracekit/field.h): the model's
 * struct model_fc seen as struct tk_field_class, and handles into an event's flat values.
 *
 * A scope's values are one array in pre-order of its class tree (model.h): a structure has no
 * value of its own, so its members follow each other; an array or sequence that is not text
 * has its length, then its elements; a variant has the selected option, then that option's
 * values. A handle is the pair (class, first value); finding member or element i means
 * skipping the values of those before it, which model_value_skip() does, or a multiplication
 * when the elements have a fixed number of values (model_fc_fixed_values()).
 */
#include <assert.h>
#include <string.h>

#include <tracekit/field.h>

#include "../common/error.h"
#include "model.h"
#include "walk.h"

static_assert((int) TK_SCOPE_PACKET_CONTEXT == (int) MODEL_SCOPE_PACKET_CONTEXT &&
		      (int) TK_SCOPE_EVENT_COMMON_CONTEXT ==
			      (int) MODEL_SCOPE_EVENT_COMMON_CONTEXT &&
		      (int) TK_SCOPE_EVENT_CONTEXT == (int) MODEL_SCOPE_EVENT_CONTEXT &&
		      (int) TK_SCOPE_PAYLOAD == (int) MODEL_SCOPE_PAYLOAD &&
		      (int) TK_SCOPE_COMMON_FIELDS == (int) MODEL_SCOPE_COMMON,
	      "public scopes are the model's");

static const char *const scope_names[] = {"packet-context", "event-common-context", "event-context",
					  "payload", "common-fields"};

static const char *const kind_names[] = {"integer",   "enumeration", "float",	 "string",
					 "structure", "array",	     "sequence", "variant"};

/* The public class is the model's; the public type only hides it. */
static const struct model_fc *fc_of(const struct tk_field_class *fc)
{
	return (const struct model_fc *) (const void *) fc;
}

static const struct tk_field_class *pub_of(const struct model_fc *fc)
{
	return (const struct tk_field_class *) (const void *) fc;
}

static const struct model_fc *field_fc(const struct tk_field *f)
{
	return f->priv[0];
}

static const struct model_value *field_value(const struct tk_field *f)
{
	return f->priv[1];
}

static void field_set(struct tk_field *out, const struct model_fc *fc, const struct model_value *v)
{
	out->priv[0] = fc;
	out->priv[1] = v;
	out->priv[2] = NULL;
}

/* Fail a getter: the chain holds this failure only (getters do not reset it on success). */
#define GET_FAIL(st, ...) (error_reset(), TK_FAIL((st), __VA_ARGS__))

/* ---- Field classes -------------------------------------------------------------------------- */

const struct tk_field_class *tk_event_class_get_field_class(const struct tk_event_class *ec,
							    enum tk_scope scope)
{
	switch (scope) {
	case TK_SCOPE_PACKET_CONTEXT:
		return pub_of(ec->sc->packet_context);
	case TK_SCOPE_EVENT_COMMON_CONTEXT:
		return pub_of(ec->sc->event_context);
	case TK_SCOPE_EVENT_CONTEXT:
		return pub_of(ec->context);
	case TK_SCOPE_PAYLOAD:
		return pub_of(ec->payload);
	case TK_SCOPE_COMMON_FIELDS:
		return pub_of(ec->common);
	}
	return NULL;
}

enum tk_field_kind tk_field_class_get_kind(const struct tk_field_class *fc)
{
	return (enum tk_field_kind)(fc_of(fc)->kind + 1);
}

static int is_integer(const struct model_fc *fc)
{
	return fc->kind == MODEL_FC_INT || fc->kind == MODEL_FC_ENUM;
}

static int is_text(const struct model_fc *fc)
{
	return fc->kind == MODEL_FC_STRING ||
	       ((fc->kind == MODEL_FC_ARRAY || fc->kind == MODEL_FC_SEQUENCE) && fc->is_text);
}

uint32_t tk_field_class_get_size(const struct tk_field_class *fc)
{
	const struct model_fc *m = fc_of(fc);

	return is_integer(m) || m->kind == MODEL_FC_FLOAT ? m->size : 0;
}

int tk_field_class_is_signed(const struct tk_field_class *fc)
{
	return is_integer(fc_of(fc)) && fc_of(fc)->is_signed;
}

unsigned int tk_field_class_get_base(const struct tk_field_class *fc)
{
	const struct model_fc *m = fc_of(fc);

	if (!is_integer(m))
		return 0;
	return m->base ? m->base : 10;
}

int tk_field_class_is_text(const struct tk_field_class *fc)
{
	return is_text(fc_of(fc));
}

size_t tk_field_class_get_mapping_count(const struct tk_field_class *fc)
{
	return fc_of(fc)->kind == MODEL_FC_ENUM ? fc_of(fc)->u.en.count : 0;
}

enum tk_status tk_field_class_get_mapping(const struct tk_field_class *fc, size_t index,
					  const char **label, size_t *nranges)
{
	const struct model_fc *m = fc_of(fc);

	if (m->kind != MODEL_FC_ENUM || index >= m->u.en.count)
		return GET_FAIL(TK_ERR_INVAL, "Cannot get enumeration label: kind=%s, index=%zu",
				kind_names[m->kind], index);
	*label = m->u.en.maps[index].label;
	*nranges = m->u.en.maps[index].nranges;
	return TK_OK;
}

enum tk_status tk_field_class_get_mapping_range(const struct tk_field_class *fc, size_t mapping,
						size_t range, uint64_t *lo, uint64_t *hi)
{
	const struct model_fc *m = fc_of(fc);

	if (m->kind != MODEL_FC_ENUM || mapping >= m->u.en.count ||
	    range >= m->u.en.maps[mapping].nranges)
		return GET_FAIL(TK_ERR_INVAL,
				"Cannot get enumeration range: kind=%s, mapping=%zu, range=%zu",
				kind_names[m->kind], mapping, range);
	*lo = m->u.en.maps[mapping].ranges[range].lo.u;
	*hi = m->u.en.maps[mapping].ranges[range].hi.u;
	return TK_OK;
}

size_t tk_field_class_get_member_count(const struct tk_field_class *fc)
{
	return fc_of(fc)->kind == MODEL_FC_STRUCT ? fc_of(fc)->u.st.count : 0;
}

enum tk_status tk_field_class_get_member(const struct tk_field_class *fc, size_t index,
					 const char **name, const struct tk_field_class **cls)
{
	const struct model_fc *m = fc_of(fc);

	if (m->kind != MODEL_FC_STRUCT || index >= m->u.st.count)
		return GET_FAIL(TK_ERR_INVAL, "Cannot get member: kind=%s, index=%zu",
				kind_names[m->kind], index);
	if (name)
		*name = m->u.st.members[index].name;
	if (cls)
		*cls = pub_of(m->u.st.members[index].fc);
	return TK_OK;
}

/* Index of the member called @name (shown or written name), or -1. */
static long member_index(const struct model_fc *st, const char *name)
{
	uint32_t i;

	for (i = 0; i < st->u.st.count; i++)
		if (!strcmp(st->u.st.members[i].name, name))
			return (long) i;
	for (i = 0; i < st->u.st.count; i++)
		if (st->u.st.members[i].orig_name && !strcmp(st->u.st.members[i].orig_name, name))
			return (long) i;
	return -1;
}

enum tk_status tk_field_class_find_member(const struct tk_field_class *fc, const char *name,
					  size_t *index)
{
	const struct model_fc *m = fc_of(fc);
	long i;

	TK_ASSERT_PRE(name && index);
	if (m->kind != MODEL_FC_STRUCT)
		return GET_FAIL(TK_ERR_INVAL, "Cannot find member: name=%s, kind=%s", name,
				kind_names[m->kind]);
	i = member_index(m, name);
	if (i < 0)
		return GET_FAIL(TK_ERR_NOTFOUND, "Cannot find member: name=%s", name);
	*index = (size_t) i;
	return TK_OK;
}

const struct tk_field_class *tk_field_class_get_element(const struct tk_field_class *fc)
{
	const struct model_fc *m = fc_of(fc);

	if (m->kind != MODEL_FC_ARRAY && m->kind != MODEL_FC_SEQUENCE)
		return NULL;
	return pub_of(m->u.arr.elem);
}

uint64_t tk_field_class_get_length(const struct tk_field_class *fc)
{
	return fc_of(fc)->kind == MODEL_FC_ARRAY ? fc_of(fc)->u.arr.length : 0;
}

size_t tk_field_class_get_option_count(const struct tk_field_class *fc)
{
	return fc_of(fc)->kind == MODEL_FC_VARIANT ? fc_of(fc)->u.var.count : 0;
}

enum tk_status tk_field_class_get_option(const struct tk_field_class *fc, size_t index,
					 const char **name, const struct tk_field_class **cls)
{
	const struct model_fc *m = fc_of(fc);

	if (m->kind != MODEL_FC_VARIANT || index >= m->u.var.count)
		return GET_FAIL(TK_ERR_INVAL, "Cannot get variant option: kind=%s, index=%zu",
				kind_names[m->kind], index);
	if (name)
		*name = m->u.var.options[index].name;
	if (cls)
		*cls = pub_of(m->u.var.options[index].fc);
	return TK_OK;
}

/* ---- Field values --------------------------------------------------------------------------- */

enum tk_status tk_event_get_scope(const struct tk_event *ev, enum tk_scope scope,
				  struct tk_field *out)
{
	const struct model_fc *fc;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(ev && out);
	TK_ASSERT_PRE((unsigned int) scope <= TK_SCOPE_COMMON_FIELDS);
	fc = fc_of(tk_event_class_get_field_class(ev->ec, scope));
	st = model_event_values(ev);
	if (st < 0)
		return TK_FAIL(st, "Cannot get event fields: event=%s",
			       ev->ec->name ? ev->ec->name : "");
	if (!fc || !ev->scope[scope])
		return TK_FAIL(TK_ERR_NOTFOUND, "Cannot get event fields: event=%s, scope=%s",
			       ev->ec->name ? ev->ec->name : "", scope_names[scope]);
	field_set(out, fc, ev->scope[scope]);
	return TK_OK;
}

enum tk_status tk_event_get_field(const struct tk_event *ev, enum tk_scope scope, const char *name,
				  struct tk_field *out)
{
	struct tk_field s;
	enum tk_status st;

	TK_ASSERT_PRE(name);
	st = tk_event_get_scope(ev, scope, &s);
	if (st < 0)
		return st;
	st = tk_field_find_member(&s, name, out);
	if (st < 0)
		return TK_FAIL(st, "Cannot get event field: event=%s, scope=%s, name=%s",
			       ev->ec->name ? ev->ec->name : "", scope_names[scope], name);
	return TK_OK;
}

enum tk_status tk_event_get_field_at(const struct tk_event *ev, enum tk_scope scope, size_t index,
				     struct tk_field *out)
{
	struct tk_field s;
	enum tk_status st;

	st = tk_event_get_scope(ev, scope, &s);
	if (st < 0)
		return st;
	st = tk_field_get_member(&s, index, out);
	if (st < 0)
		return TK_FAIL(st, "Cannot get event field: event=%s, scope=%s, index=%zu",
			       ev->ec->name ? ev->ec->name : "", scope_names[scope], index);
	return TK_OK;
}

const struct tk_field_class *tk_field_get_class(const struct tk_field *f)
{
	return pub_of(field_fc(f));
}

enum tk_field_kind tk_field_get_kind(const struct tk_field *f)
{
	return (enum tk_field_kind)(field_fc(f)->kind + 1);
}

enum tk_status tk_field_get_uint(const struct tk_field *f, uint64_t *out)
{
	const struct model_fc *fc = field_fc(f);
	const struct model_value *v = field_value(f);

	if (!is_integer(fc))
		return GET_FAIL(TK_ERR_INVAL, "Cannot get unsigned integer: kind=%s",
				kind_names[fc->kind]);
	if (fc->is_signed && v->v.i < 0)
		return GET_FAIL(TK_ERR_INVAL, "Cannot get unsigned integer: value=%lld",
				(long long) v->v.i);
	*out = v->v.u;
	return TK_OK;
}

enum tk_status tk_field_get_int(const struct tk_field *f, int64_t *out)
{
	const struct model_fc *fc = field_fc(f);
	const struct model_value *v = field_value(f);

	if (!is_integer(fc))
		return GET_FAIL(TK_ERR_INVAL, "Cannot get signed integer: kind=%s",
				kind_names[fc->kind]);
	if (!fc->is_signed && v->v.u > (uint64_t) INT64_MAX)
		return GET_FAIL(TK_ERR_INVAL, "Cannot get signed integer: value=%llu",
				(unsigned long long) v->v.u);
	*out = v->v.i;
	return TK_OK;
}

enum tk_status tk_field_get_double(const struct tk_field *f, double *out)
{
	const struct model_fc *fc = field_fc(f);

	if (fc->kind != MODEL_FC_FLOAT)
		return GET_FAIL(TK_ERR_INVAL, "Cannot get float: kind=%s", kind_names[fc->kind]);
	*out = field_value(f)->v.d;
	return TK_OK;
}

enum tk_status tk_field_get_string(const struct tk_field *f, const char **str, size_t *len)
{
	const struct model_fc *fc = field_fc(f);
	const struct model_value *v = field_value(f);

	if (!is_text(fc))
		return GET_FAIL(TK_ERR_INVAL, "Cannot get string: kind=%s", kind_names[fc->kind]);
	*str = v->v.s;
	*len = (size_t) v->n;
	return TK_OK;
}

/* Whether @fc is an array or sequence read element by element (not text). */
static enum tk_status check_elements(const struct model_fc *fc, const char *what)
{
	if ((fc->kind != MODEL_FC_ARRAY && fc->kind != MODEL_FC_SEQUENCE) || fc->is_text)
		return GET_FAIL(TK_ERR_INVAL, "Cannot get %s: kind=%s%s", what,
				kind_names[fc->kind], fc->is_text ? ", reason=text" : "");
	return TK_OK;
}

enum tk_status tk_field_get_length(const struct tk_field *f, uint64_t *out)
{
	enum tk_status st = check_elements(field_fc(f), "length");

	if (st < 0)
		return st;
	*out = field_value(f)->n;
	return TK_OK;
}

enum tk_status tk_field_get_element(const struct tk_field *f, uint64_t index, struct tk_field *out)
{
	const struct model_fc *fc = field_fc(f);
	const struct model_value *v = field_value(f);
	const struct model_fc *elem;
	int64_t each;
	uint64_t k;
	enum tk_status st = check_elements(fc, "element");

	if (st < 0)
		return st;
	if (index >= v->n)
		return GET_FAIL(TK_ERR_INVAL, "Cannot get element: index=%llu, length=%llu",
				(unsigned long long) index, (unsigned long long) v->n);
	elem = fc->u.arr.elem;
	each = model_fc_fixed_values(elem);
	if (each >= 0) {
		v += 1 + index * (uint64_t) each;
	} else {
		v++;
		for (k = 0; k < index; k++)
			v = model_value_skip(elem, v);
	}
	field_set(out, elem, v);
	return TK_OK;
}

enum tk_status tk_field_get_member(const struct tk_field *f, size_t index, struct tk_field *out)
{
	const struct model_fc *fc = field_fc(f);
	const struct model_value *v = field_value(f);
	size_t i;

	if (fc->kind != MODEL_FC_STRUCT || index >= fc->u.st.count)
		return GET_FAIL(TK_ERR_INVAL, "Cannot get member: kind=%s, index=%zu",
				kind_names[fc->kind], index);
	for (i = 0; i < index; i++)
		v = model_value_skip(fc->u.st.members[i].fc, v);
	field_set(out, fc->u.st.members[index].fc, v);
	return TK_OK;
}

enum tk_status tk_field_find_member(const struct tk_field *f, const char *name,
				    struct tk_field *out)
{
	const struct model_fc *fc = field_fc(f);
	long i;

	TK_ASSERT_PRE(name && out);
	if (fc->kind != MODEL_FC_STRUCT)
		return GET_FAIL(TK_ERR_INVAL, "Cannot find member: name=%s, kind=%s", name,
				kind_names[fc->kind]);
	i = member_index(fc, name);
	if (i < 0)
		return GET_FAIL(TK_ERR_NOTFOUND, "Cannot find member: name=%s", name);
	return tk_field_get_member(f, (size_t) i, out);
}

/* Whether the value @v of enumeration @fc is in @r. */
static int in_range(const struct model_fc *fc, const struct model_range *r,
		    const struct model_value *v)
{
	if (fc->is_signed)
		return r->lo.i <= v->v.i && v->v.i <= r->hi.i;
	return r->lo.u <= v->v.u && v->v.u <= r->hi.u;
}

enum tk_status tk_field_get_enum_label(const struct tk_field *f, size_t nth, const char **label)
{
	const struct model_fc *fc = field_fc(f);
	const struct model_value *v = field_value(f);
	uint32_t i, j;

	if (fc->kind != MODEL_FC_ENUM)
		return GET_FAIL(TK_ERR_INVAL, "Cannot get enumeration label: kind=%s",
				kind_names[fc->kind]);
	for (i = 0; i < fc->u.en.count; i++) {
		const struct model_enum_mapping *m = &fc->u.en.maps[i];

		for (j = 0; j < m->nranges; j++)
			if (in_range(fc, &m->ranges[j], v))
				break;
		if (j == m->nranges)
			continue;
		if (nth-- == 0) {
			*label = m->label;
			return TK_OK;
		}
	}
	return TK_END;
}

enum tk_status tk_field_get_option(const struct tk_field *f, size_t *index, struct tk_field *out)
{
	const struct model_fc *fc = field_fc(f);
	const struct model_value *v = field_value(f);

	if (fc->kind != MODEL_FC_VARIANT)
		return GET_FAIL(TK_ERR_INVAL, "Cannot get variant option: kind=%s",
				kind_names[fc->kind]);
	if (v->n >= fc->u.var.count)
		return GET_FAIL(TK_ERR_FORMAT, "Cannot get variant option: option=%llu, count=%u",
				(unsigned long long) v->n, fc->u.var.count);
	if (index)
		*index = (size_t) v->n;
	if (out)
		field_set(out, fc->u.var.options[v->n].fc, v + 1);
	return TK_OK;
}
