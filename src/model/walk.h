/* SPDX-License-Identifier: MIT */
/*
 * One walk over a field class tree and its decoded values, for every module that reads
 * values field by field (CSV cells, the CTF sink's writer values, skipping a field), so
 * that the layout of model.h -- values flat, in pre-order of the tree -- is followed in one
 * place instead of in a recursive switch per module. Callers say what to do at each field
 * with a struct model_visitor; model_walk() keeps the value position, the array lengths and
 * the variant selections.
 *
 * The number of values a field of a class always decodes to, when the data cannot change it,
 * is model_fc_fixed_values(): it turns skipping such fields into an addition.
 *
 * Print plans (src/output/pretty-plan.c) and the trace.dat writer's record plans compile
 * their own walk once per event class, for speed; they do not use this one per event.
 */
#ifndef TK_MODEL_WALK_H
#define TK_MODEL_WALK_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/*
 * A field met by model_walk(). The struct lives on the walk's stack: a callback may keep
 * what it points to (classes and values outlive the walk), never the struct itself.
 */
struct model_walk_field {
	const struct model_fc *fc; /* its class */
	/*
	 * The member or option name as shown (struct model_member.name); NULL for an element
	 * of an array or sequence and for the field the walk started at.
	 */
	const char *name;
	/* the structure, array, sequence or variant holding it; NULL where the walk started */
	const struct model_walk_field *up;
	/* its member index, element index or option index in @up; 0 where the walk started */
	uint64_t index;
	/*
	 * Its first value: a scalar's value, an array's or sequence's length (v->n), a variant's
	 * selected option (v->n). A structure has no value of its own: v is its first member's.
	 */
	const struct model_value *v;
};

/*
 * What to do at each field; a NULL callback does nothing. Scalars are integers,
 * enumerations, floats, strings and text arrays and sequences (fc->is_text), one value each.
 * Each callback returns TK_OK to go on; any other status stops the walk, which returns it:
 * an error (negative), or an outcome (positive, such as TK_END for "found what I looked
 * for").
 *
 * Order, for a structure { a, b[2], v } whose variant v selects option o:
 *	enter_struct(top) scalar(a) enter_array(b) scalar(b[0]) scalar(b[1]) leave_array(b)
 *	enter_variant(v) scalar(o) leave_variant(v) leave_struct(top)
 * A variant whose selected option is out of range (v->n >= fc->u.var.count) is entered and
 * left with no option visited; it takes its one value.
 */
struct model_visitor {
	enum tk_status (*scalar)(const struct model_walk_field *f, void *payload);
	enum tk_status (*enter_struct)(const struct model_walk_field *f, void *payload);
	enum tk_status (*leave_struct)(const struct model_walk_field *f, void *payload);
	/* arrays and sequences that are not text: f->v->n elements follow */
	enum tk_status (*enter_array)(const struct model_walk_field *f, void *payload);
	enum tk_status (*leave_array)(const struct model_walk_field *f, void *payload);
	/* f->v->n is the selected option */
	enum tk_status (*enter_variant)(const struct model_walk_field *f, void *payload);
	enum tk_status (*leave_variant)(const struct model_walk_field *f, void *payload);
};

/* Integers, enumerations, floats and strings come first in enum model_fc_kind. */
static_assert(MODEL_FC_INT < MODEL_FC_STRING && MODEL_FC_ENUM < MODEL_FC_STRING &&
		      MODEL_FC_FLOAT < MODEL_FC_STRING && MODEL_FC_STRING < MODEL_FC_STRUCT &&
		      MODEL_FC_STRING < MODEL_FC_ARRAY && MODEL_FC_STRING < MODEL_FC_SEQUENCE &&
		      MODEL_FC_STRING < MODEL_FC_VARIANT,
	      "scalar kinds first");

/* model_walk() of any other field than an integer, enumeration, float or string. */
enum tk_status model_walk_nested(const struct model_fc *fc, const struct model_value *v,
				 const struct model_visitor *vis, void *payload, size_t *used);

/*
 * Walk the field of class @fc whose decoded values start at @v, in pre-order, calling @vis's
 * callbacks with @payload. @vis may be NULL (nothing to call: the walk only counts).
 *
 *	size_t n;
 *
 *	if (model_walk(fc, v, &csv_cell, &cell, &n) == TK_OK)
 *		v += n;	// the next field's values
 *
 * Most fields are integers or strings: those are visited here, inline, where a visitor
 * known to the compiler costs a direct call; the rest goes through model_walk_nested().
 *
 * Return: TK_OK with *@used (when not NULL) set to the number of values the field took, or
 * the status a callback stopped the walk with (*@used left unchanged).
 */
static inline enum tk_status model_walk(const struct model_fc *fc, const struct model_value *v,
					const struct model_visitor *vis, void *payload,
					size_t *used)
{
	if (fc->kind <= MODEL_FC_STRING) {
		struct model_walk_field top = {fc, NULL, NULL, 0, v};
		enum tk_status st = vis && vis->scalar ? vis->scalar(&top, payload) : TK_OK;

		if (st == TK_OK && used)
			*used = 1;
		return st;
	}
	return model_walk_nested(fc, v, vis, payload, used);
}

/* Fields of more values than this are not counted as fixed by model_fc_fixed_values(). */
#define MODEL_FIXED_VALUES_MAX UINT32_MAX

/*
 * The number of values every field of class @fc decodes to, whatever the data: 1 for a
 * scalar (a text array or sequence included), the sum of the members' for a structure, 1
 * plus length times the element's for an array. -1 when the data decides (a sequence or
 * variant that is not text, anywhere inside, even in an array of length 0) or when the count
 * passes MODEL_FIXED_VALUES_MAX. An empty structure decodes to 0 values.
 */
int64_t model_fc_fixed_values(const struct model_fc *fc);

#endif /* TK_MODEL_WALK_H */
