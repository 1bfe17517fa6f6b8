// SPDX-License-Identifier: MIT
/*
 * The one walk over a field class tree and its flat values (walk.h), and the number of
 * values a class always decodes to. Every module that reads values field by field goes
 * through model_walk(), so the layout of model.h is followed here only: one value per
 * scalar, one per array or sequence holding its length (a text one is a scalar), one per
 * variant holding its selected option, and none for a structure.
 */
#include "../common/error.h"
#include "walk.h"

/* A NULL visitor: nothing to call, the walk only counts. */
static const struct model_visitor none;

static enum tk_status walk_field(const struct model_visitor *vis, void *payload,
				 const struct model_walk_field *f, const struct model_value **end);

/*
 * The member or element @f, whose values start at *@v: a scalar here (most are), anything
 * else through walk_field(). *@v moves past it.
 */
static inline enum tk_status step(const struct model_visitor *vis, void *payload,
				  const struct model_walk_field *f, const struct model_value **v)
{
	enum tk_status st;

	if (f->fc->kind > MODEL_FC_STRING)
		return walk_field(vis, payload, f, v);
	if (vis->scalar && (st = vis->scalar(f, payload)) != TK_OK)
		return st;
	(*v)++;
	return TK_OK;
}

/*
 * Visit @f (its class, name, place and first value filled in) and everything inside it with
 * @vis and @payload; set *@end to the value after its last. Returns TK_OK, or the status a
 * callback stopped the walk with (*@end then unset).
 */
static TK_NOINLINE enum tk_status walk_field(const struct model_visitor *vis, void *payload,
					     const struct model_walk_field *f,
					     const struct model_value **end)
{
	const struct model_fc *fc = f->fc;
	const struct model_value *v = f->v;
	struct model_walk_field in;
	enum tk_status st;
	uint64_t k, n;
	uint32_t i;

	if (fc->kind <= MODEL_FC_STRING)
		goto scalar;
	switch (fc->kind) {
	case MODEL_FC_STRUCT:
		if (vis->enter_struct && (st = vis->enter_struct(f, payload)) != TK_OK)
			return st;
		in.up = f;
		for (i = 0; i < fc->u.st.count; i++) {
			in.fc = fc->u.st.members[i].fc;
			in.name = fc->u.st.members[i].name;
			in.index = i;
			in.v = v;
			if ((st = step(vis, payload, &in, &v)) != TK_OK)
				return st;
		}
		if (vis->leave_struct && (st = vis->leave_struct(f, payload)) != TK_OK)
			return st;
		*end = v;
		return TK_OK;
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		if (fc->is_text)
			goto scalar;
		if (vis->enter_array && (st = vis->enter_array(f, payload)) != TK_OK)
			return st;
		n = v->n;
		v++;
		in.up = f;
		in.fc = fc->u.arr.elem;
		in.name = NULL;
		if (in.fc->kind <= MODEL_FC_STRING && !vis->scalar) {
			v += n; /* scalars with nothing to call: counted */
		} else {
			for (k = 0; k < n; k++) {
				in.index = k;
				in.v = v;
				if ((st = step(vis, payload, &in, &v)) != TK_OK)
					return st;
			}
		}
		if (vis->leave_array && (st = vis->leave_array(f, payload)) != TK_OK)
			return st;
		*end = v;
		return TK_OK;
	case MODEL_FC_VARIANT:
		if (vis->enter_variant && (st = vis->enter_variant(f, payload)) != TK_OK)
			return st;
		k = v->n;
		v++;
		if (k < fc->u.var.count) {
			in.up = f;
			in.fc = fc->u.var.options[k].fc;
			in.name = fc->u.var.options[k].name;
			in.index = k;
			in.v = v;
			if ((st = step(vis, payload, &in, &v)) != TK_OK)
				return st;
		}
		if (vis->leave_variant && (st = vis->leave_variant(f, payload)) != TK_OK)
			return st;
		*end = v;
		return TK_OK;
	default:
		break;
	}
scalar: /* integer, enumeration, float, string, text array or sequence */
	if (vis->scalar && (st = vis->scalar(f, payload)) != TK_OK)
		return st;
	*end = v + 1;
	return TK_OK;
}

enum tk_status model_walk_nested(const struct model_fc *fc, const struct model_value *v,
				 const struct model_visitor *vis, void *payload, size_t *used)
{
	struct model_walk_field top = {fc, NULL, NULL, 0, v};
	const struct model_value *end;
	enum tk_status st = walk_field(vis ? vis : &none, payload, &top, &end);

	if (st == TK_OK && used)
		*used = (size_t) (end - v);
	return st;
}

/* model_value_skip() of a field that is not an integer, enumeration, float or string. */
static TK_NOINLINE const struct model_value *skip_compound(const struct model_fc *fc,
							   const struct model_value *v)
{
	struct model_walk_field f = {fc, NULL, NULL, 0, v};
	const struct model_value *end = v + 1;

	walk_field(&none, NULL, &f, &end); /* nothing to call: never stopped */
	return end;
}

/* As model_walk(), a scalar without a call: skipped at every member by some printers. */
const struct model_value *model_value_skip(const struct model_fc *fc, const struct model_value *v)
{
	if (fc->kind <= MODEL_FC_STRING)
		return v + 1;
	return skip_compound(fc, v);
}

int64_t model_fc_fixed_values(const struct model_fc *fc)
{
	uint64_t sum = 0;
	int64_t one;
	uint32_t i;

	switch (fc->kind) {
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count; i++) {
			one = model_fc_fixed_values(fc->u.st.members[i].fc);
			if (one < 0)
				return -1;
			sum += (uint64_t) one; /* each at most the maximum: no wrap */
			if (sum > MODEL_FIXED_VALUES_MAX)
				return -1;
		}
		return (int64_t) sum;
	case MODEL_FC_ARRAY:
		if (fc->is_text)
			return 1;
		one = model_fc_fixed_values(fc->u.arr.elem);
		if (one < 0 || fc->u.arr.length > MODEL_FIXED_VALUES_MAX)
			return -1;
		/* both factors below 2^32: the product fits */
		sum = 1 + (uint64_t) one * fc->u.arr.length;
		return sum > MODEL_FIXED_VALUES_MAX ? -1 : (int64_t) sum;
	case MODEL_FC_SEQUENCE:
		return fc->is_text ? 1 : -1;
	case MODEL_FC_VARIANT:
		return -1;
	default:
		return 1;
	}
}
