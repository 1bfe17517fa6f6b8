// SPDX-License-Identifier: MIT
/*
 * Unit tests of the field walk (src/model/walk.c): model_walk()'s order of callbacks, the
 * values it hands each field and the count it returns, a callback stopping it, and
 * model_fc_fixed_values(). The field classes and their values are built by hand below, in
 * the flat pre-order layout of model.h, and every expected log and count is written out
 * from that layout, not from the code under test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/walk.h"

/* ---- field classes ------------------------------------------------------------------------ */

static struct model_fc fc_kind(uint8_t kind)
{
	struct model_fc fc;

	memset(&fc, 0, sizeof(fc));
	fc.kind = kind;
	return fc;
}

/*
 * struct {
 *	int a; string s; char t[4] (text);
 *	struct { int x; float y; } arr[2];
 *	int seq[] (a sequence);
 *	variant { int o0; struct { int p; int q[] (a sequence); } o1; } var;
 *	struct { } empty;
 * }
 */
static struct model_fc f_int, f_float, f_string, f_text, f_pt, f_arr, f_seq, f_o1, f_var, f_empty,
	f_top;
static struct model_member m_pt[2], m_o1[2], m_var[2], m_top[7];

static void build_classes(void)
{
	f_int = fc_kind(MODEL_FC_INT);
	f_int.size = 32;
	f_int.is_signed = 1;
	f_float = fc_kind(MODEL_FC_FLOAT);
	f_string = fc_kind(MODEL_FC_STRING);
	f_text = fc_kind(MODEL_FC_ARRAY);
	f_text.is_text = 1;
	f_text.u.arr.length = 4;
	f_text.u.arr.elem = &f_int;

	m_pt[0] = (struct model_member){"x", "x", &f_int};
	m_pt[1] = (struct model_member){"y", "y", &f_float};
	f_pt = fc_kind(MODEL_FC_STRUCT);
	f_pt.u.st.members = m_pt;
	f_pt.u.st.count = 2;

	f_arr = fc_kind(MODEL_FC_ARRAY);
	f_arr.u.arr.length = 2;
	f_arr.u.arr.elem = &f_pt;

	f_seq = fc_kind(MODEL_FC_SEQUENCE);
	f_seq.u.arr.elem = &f_int;

	m_o1[0] = (struct model_member){"p", "p", &f_int};
	m_o1[1] = (struct model_member){"q", "q", &f_seq};
	f_o1 = fc_kind(MODEL_FC_STRUCT);
	f_o1.u.st.members = m_o1;
	f_o1.u.st.count = 2;

	m_var[0] = (struct model_member){"o0", "o0", &f_int};
	m_var[1] = (struct model_member){"o1", "_o1", &f_o1};
	f_var = fc_kind(MODEL_FC_VARIANT);
	f_var.u.var.options = m_var;
	f_var.u.var.count = 2;

	f_empty = fc_kind(MODEL_FC_STRUCT);

	m_top[0] = (struct model_member){"a", "a", &f_int};
	m_top[1] = (struct model_member){"s", "s", &f_string};
	m_top[2] = (struct model_member){"t", "t", &f_text};
	m_top[3] = (struct model_member){"arr", "arr", &f_arr};
	m_top[4] = (struct model_member){"seq", "seq", &f_seq};
	m_top[5] = (struct model_member){"var", "var", &f_var};
	m_top[6] = (struct model_member){"empty", "empty", &f_empty};
	f_top = fc_kind(MODEL_FC_STRUCT);
	f_top.u.st.members = m_top;
	f_top.u.st.count = 7;
}

/* ---- values ------------------------------------------------------------------------------- */

#define N_VALUES 17

/*
 * One event of f_top: a = 7, s = "hi", t = "abc", arr = { {1, 1.5}, {2, 2.5} },
 * seq = [10, 11, 12], var = option o1 { p = 5, q = [20, 21] }, empty = {}.
 * 1 + 1 + 1 + (1 + 4) + (1 + 3) + (1 + 1 + 1 + 2) + 0 = 17 values.
 */
static void build_values(struct model_value *v)
{
	memset(v, 0, N_VALUES * sizeof(*v));
	v[0].v.i = 7;	  /* a */
	v[1].v.s = "hi";  /* s */
	v[1].n = 2;	  /* */
	v[2].v.s = "abc"; /* t */
	v[2].n = 3;	  /* */
	v[3].n = 2;	  /* arr: length */
	v[4].v.i = 1;	  /* arr[0].x */
	v[5].v.d = 1.5;	  /* arr[0].y */
	v[6].v.i = 2;	  /* arr[1].x */
	v[7].v.d = 2.5;	  /* arr[1].y */
	v[8].n = 3;	  /* seq: length */
	v[9].v.i = 10;	  /* seq[0] */
	v[10].v.i = 11;	  /* seq[1] */
	v[11].v.i = 12;	  /* seq[2] */
	v[12].n = 1;	  /* var: option o1 */
	v[13].v.i = 5;	  /* var.o1.p */
	v[14].n = 2;	  /* var.o1.q: length */
	v[15].v.i = 20;	  /* var.o1.q[0] */
	v[16].v.i = 21;	  /* var.o1.q[1] */
}

/* ---- a visitor that logs -------------------------------------------------------------------- */

struct log {
	char text[1024];
	size_t len;
	const struct model_value *base; /* the first value, to log positions */
	/* stop the walk with this status at the callback of this number (0: never) */
	int stop_at;
	enum tk_status stop_with;
	int calls;
};

__attribute__((format(printf, 2, 3))) static void put(struct log *lg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lg->len += (size_t) vsnprintf(lg->text + lg->len, sizeof(lg->text) - lg->len, fmt, ap);
	va_end(ap);
	assert_true(lg->len < sizeof(lg->text));
}

/* NAME, #INDEX for an element, or nothing where the walk started, then @@position. */
static void put_field(struct log *lg, const struct model_walk_field *f)
{
	if (lg->len)
		put(lg, " ");
	if (f->name)
		put(lg, "%s", f->name);
	else if (f->up)
		put(lg, "#%llu", (unsigned long long) f->index);
	put(lg, "@%td", f->v - lg->base);
}

static enum tk_status counted(struct log *lg)
{
	return ++lg->calls == lg->stop_at ? lg->stop_with : TK_OK;
}

static enum tk_status log_scalar(const struct model_walk_field *f, void *payload)
{
	struct log *lg = payload;

	put_field(lg, f);
	switch (f->fc->kind) {
	case MODEL_FC_INT:
		put(lg, "=%lld", (long long) f->v->v.i);
		break;
	case MODEL_FC_FLOAT:
		put(lg, "=%g", f->v->v.d);
		break;
	default:
		put(lg, "='%.*s'", (int) f->v->n, f->v->v.s);
		break;
	}
	return counted(lg);
}

static enum tk_status log_enter_struct(const struct model_walk_field *f, void *payload)
{
	struct log *lg = payload;

	put_field(lg, f);
	put(lg, "{");
	return counted(lg);
}

static enum tk_status log_leave_struct(const struct model_walk_field *f, void *payload)
{
	struct log *lg = payload;

	put(lg, " }");
	return counted(lg);
}

static enum tk_status log_enter_array(const struct model_walk_field *f, void *payload)
{
	struct log *lg = payload;

	put_field(lg, f);
	put(lg, "[%llu", (unsigned long long) f->v->n);
	return counted(lg);
}

static enum tk_status log_leave_array(const struct model_walk_field *f, void *payload)
{
	struct log *lg = payload;

	put(lg, " ]");
	return counted(lg);
}

static enum tk_status log_enter_variant(const struct model_walk_field *f, void *payload)
{
	struct log *lg = payload;

	put_field(lg, f);
	put(lg, "<%llu", (unsigned long long) f->v->n);
	return counted(lg);
}

static enum tk_status log_leave_variant(const struct model_walk_field *f, void *payload)
{
	struct log *lg = payload;

	put(lg, " >");
	return counted(lg);
}

static const struct model_visitor log_visitor = {
	.scalar = log_scalar,
	.enter_struct = log_enter_struct,
	.leave_struct = log_leave_struct,
	.enter_array = log_enter_array,
	.leave_array = log_leave_array,
	.enter_variant = log_enter_variant,
	.leave_variant = log_leave_variant,
};

static int setup(void **state)
{
	(void) state;
	build_classes();
	return 0;
}

/* ---- model_walk() --------------------------------------------------------------------------- */

static void test_walk_visits_in_pre_order(void **state)
{
	struct model_value v[N_VALUES];
	struct log lg = {.base = v};
	size_t used = 0;

	(void) state;
	build_values(v);
	assert_int_equal(model_walk(&f_top, v, &log_visitor, &lg, &used), TK_OK);
	assert_int_equal(used, N_VALUES);
	assert_string_equal(lg.text, "@0{ a@0=7 s@1='hi' t@2='abc'"
				     " arr@3[2 #0@4{ x@4=1 y@5=1.5 } #1@6{ x@6=2 y@7=2.5 } ]"
				     " seq@8[3 #0@9=10 #1@10=11 #2@11=12 ]"
				     " var@12<1 o1@13{ p@13=5 q@14[2 #0@15=20 #1@16=21 ] } >"
				     " empty@17{ } }");
	/* 22 fields (the top, 7 members, 2 + 4 in arr, 3 in seq, o1 and its 2 + 2) and 9 leaves */
	assert_int_equal(lg.calls, 31);
}

static void test_walk_starts_at_any_field(void **state)
{
	struct model_value v[N_VALUES];
	struct log lg = {.base = v};
	size_t used = 0;

	(void) state;
	build_values(v);
	/* the variant alone: its option, then o1's p and q (length and two elements) */
	assert_int_equal(model_walk(&f_var, v + 12, &log_visitor, &lg, &used), TK_OK);
	assert_int_equal(used, 5);
	assert_string_equal(lg.text, "@12<1 o1@13{ p@13=5 q@14[2 #0@15=20 #1@16=21 ] } >");
	/* a scalar is one value, with nothing around it */
	lg.len = 0;
	lg.text[0] = 0;
	assert_int_equal(model_walk(&f_int, v + 9, &log_visitor, &lg, &used), TK_OK);
	assert_int_equal(used, 1);
	assert_string_equal(lg.text, "@9=10");
	/* an empty structure takes no value */
	lg.len = 0;
	lg.text[0] = 0;
	assert_int_equal(model_walk(&f_empty, v + 3, &log_visitor, &lg, &used), TK_OK);
	assert_int_equal(used, 0);
	assert_string_equal(lg.text, "@3{ }");
}

/* The names of the fields above @f and its own, "/"-separated, elements by index. */
static enum tk_status path_scalar(const struct model_walk_field *f, void *payload)
{
	struct log *lg = payload;
	const struct model_walk_field *chain[16];
	size_t n = 0;

	for (; f; f = f->up) {
		assert_true(n < 16);
		chain[n++] = f;
	}
	if (lg->len)
		put(lg, " ");
	while (n-- > 1) { /* the top has no name */
		if (chain[n - 1]->name)
			put(lg, "/%s", chain[n - 1]->name);
		else
			put(lg, "/%llu", (unsigned long long) chain[n - 1]->index);
		/* the index is the place in the field above */
		if (chain[n]->fc->kind == MODEL_FC_STRUCT && chain[n - 1]->name)
			assert_string_equal(chain[n]->fc->u.st.members[chain[n - 1]->index].name,
					    chain[n - 1]->name);
	}
	return TK_OK;
}

static void test_walk_tells_where_each_field_is(void **state)
{
	static const struct model_visitor paths = {.scalar = path_scalar};
	struct model_value v[N_VALUES];
	struct log lg = {.base = v};

	(void) state;
	build_values(v);
	assert_int_equal(model_walk(&f_top, v, &paths, &lg, NULL), TK_OK);
	assert_string_equal(lg.text, "/a /s /t /arr/0/x /arr/0/y /arr/1/x /arr/1/y /seq/0 /seq/1 "
				     "/seq/2 /var/o1/p /var/o1/q/0 /var/o1/q/1");
}

static void test_walk_without_visitor_counts(void **state)
{
	struct model_value v[N_VALUES];
	size_t used = 0;

	(void) state;
	build_values(v);
	assert_int_equal(model_walk(&f_top, v, NULL, NULL, &used), TK_OK);
	assert_int_equal(used, N_VALUES);
	/* model_value_skip() is the same walk */
	assert_ptr_equal(model_value_skip(&f_top, v), v + N_VALUES);
	assert_ptr_equal(model_value_skip(&f_arr, v + 3), v + 8);
	assert_ptr_equal(model_value_skip(&f_seq, v + 8), v + 12);
	assert_ptr_equal(model_value_skip(&f_text, v + 2), v + 3);
	assert_ptr_equal(model_value_skip(&f_var, v + 12), v + 17);
	/* option o0 selected instead: the tag and one integer */
	v[12].n = 0;
	assert_ptr_equal(model_value_skip(&f_var, v + 12), v + 14);
}

static void test_walk_stops_on_error(void **state)
{
	struct model_value v[N_VALUES];
	struct log lg = {.base = v, .stop_at = 7, .stop_with = TK_ERR_NOMEM};
	size_t used = 12345;

	(void) state;
	build_values(v);
	/* calls: top{ a s t arr[ #0{ x -- the 7th stops it, nothing after it is called */
	assert_int_equal(model_walk(&f_top, v, &log_visitor, &lg, &used), TK_ERR_NOMEM);
	assert_int_equal(used, 12345);
	assert_int_equal(lg.calls, 7);
	assert_string_equal(lg.text, "@0{ a@0=7 s@1='hi' t@2='abc' arr@3[2 #0@4{ x@4=1");
}

static void test_walk_stops_on_outcome(void **state)
{
	struct model_value v[N_VALUES];
	struct log lg = {.base = v, .stop_at = 2, .stop_with = TK_END};
	size_t used = 12345;

	(void) state;
	build_values(v);
	/* from the variant: enter_variant, then enter_struct(o1) says "found" */
	assert_int_equal(model_walk(&f_var, v + 12, &log_visitor, &lg, &used), TK_END);
	assert_int_equal(used, 12345);
	assert_string_equal(lg.text, "@12<1 o1@13{");
	/* the last element stops it before the sequence is left */
	lg = (struct log){.base = v, .stop_at = 4, .stop_with = TK_ERR_FORMAT};
	assert_int_equal(model_walk(&f_seq, v + 8, &log_visitor, &lg, &used), TK_ERR_FORMAT);
	assert_string_equal(lg.text, "@8[3 #0@9=10 #1@10=11 #2@11=12");
	/* a leave callback stops it too */
	lg = (struct log){.base = v, .stop_at = 5, .stop_with = TK_ERR_FORMAT};
	assert_int_equal(model_walk(&f_seq, v + 8, &log_visitor, &lg, &used), TK_ERR_FORMAT);
	assert_string_equal(lg.text, "@8[3 #0@9=10 #1@10=11 #2@11=12 ]");
}

static void test_walk_variant_option_out_of_range(void **state)
{
	struct model_value v[3];
	struct log lg = {.base = v};
	size_t used = 0;

	(void) state;
	memset(v, 0, sizeof(v));
	v[0].n = 2; /* options 0 and 1 only */
	assert_int_equal(model_walk(&f_var, v, &log_visitor, &lg, &used), TK_OK);
	assert_int_equal(used, 1);
	assert_string_equal(lg.text, "@0<2 >");
	assert_ptr_equal(model_value_skip(&f_var, v), v + 1);
}

static void test_walk_empty_sequence(void **state)
{
	struct model_value v[1];
	struct log lg = {.base = v};
	size_t used = 0;

	(void) state;
	memset(v, 0, sizeof(v));
	assert_int_equal(model_walk(&f_seq, v, &log_visitor, &lg, &used), TK_OK);
	assert_int_equal(used, 1);
	assert_string_equal(lg.text, "@0[0 ]");
}

/* ---- model_fc_fixed_values() ------------------------------------------------------------- */

static void test_fixed_values_of_the_example(void **state)
{
	struct model_fc text_seq = fc_kind(MODEL_FC_SEQUENCE);

	(void) state;
	text_seq.is_text = 1;
	assert_int_equal(model_fc_fixed_values(&f_int), 1);
	assert_int_equal(model_fc_fixed_values(&f_float), 1);
	assert_int_equal(model_fc_fixed_values(&f_string), 1);
	assert_int_equal(model_fc_fixed_values(&f_text), 1);
	assert_int_equal(model_fc_fixed_values(&text_seq), 1);
	assert_int_equal(model_fc_fixed_values(&f_pt), 2);  /* x, y */
	assert_int_equal(model_fc_fixed_values(&f_arr), 5); /* length, 2 x (x, y) */
	assert_int_equal(model_fc_fixed_values(&f_empty), 0);
	assert_int_equal(model_fc_fixed_values(&f_seq), -1);
	assert_int_equal(model_fc_fixed_values(&f_var), -1);
	assert_int_equal(model_fc_fixed_values(&f_o1), -1); /* a sequence inside */
	assert_int_equal(model_fc_fixed_values(&f_top), -1);
}

static void test_fixed_values_of_arrays(void **state)
{
	struct model_fc a = fc_kind(MODEL_FC_ARRAY), b = fc_kind(MODEL_FC_ARRAY);

	(void) state;
	/* length 0: the length value alone, unless the element depends on the data */
	a.u.arr.elem = &f_int;
	assert_int_equal(model_fc_fixed_values(&a), 1);
	a.u.arr.elem = &f_seq;
	assert_int_equal(model_fc_fixed_values(&a), -1);
	a.u.arr.elem = &f_var;
	assert_int_equal(model_fc_fixed_values(&a), -1);
	/* 3 arrays of 4 points: 1 + 3 x (1 + 4 x 2) = 28 */
	b.u.arr.elem = &f_pt;
	b.u.arr.length = 4;
	a.u.arr.elem = &b;
	a.u.arr.length = 3;
	assert_int_equal(model_fc_fixed_values(&b), 9);
	assert_int_equal(model_fc_fixed_values(&a), 28);
}

static void test_fixed_values_limit(void **state)
{
	struct model_fc a = fc_kind(MODEL_FC_ARRAY), b = fc_kind(MODEL_FC_ARRAY),
			st = fc_kind(MODEL_FC_STRUCT);
	struct model_member two[2];

	(void) state;
	/* 1 + (2^32 - 2) = 2^32 - 1: the largest count */
	a.u.arr.elem = &f_int;
	a.u.arr.length = UINT32_MAX - 1;
	assert_int_equal(model_fc_fixed_values(&a), INT64_C(4294967295));
	/* 1 + (2^32 - 1) = 2^32: one too many */
	a.u.arr.length = UINT32_MAX;
	assert_int_equal(model_fc_fixed_values(&a), -1);
	a.u.arr.length = (uint64_t) UINT32_MAX + 1;
	assert_int_equal(model_fc_fixed_values(&a), -1);
	a.u.arr.length = UINT64_MAX; /* no product that wraps */
	assert_int_equal(model_fc_fixed_values(&a), -1);
	/* arrays of arrays: inner 1 + 65535 = 65536; outer 1 + 65535 x 65536 = 4294901761 */
	b.u.arr.elem = &f_int;
	b.u.arr.length = 65535;
	a.u.arr.elem = &b;
	a.u.arr.length = 65535;
	assert_int_equal(model_fc_fixed_values(&a), INT64_C(4294901761));
	/* 1 + 65536 x 65536 = 2^32 + 1 */
	a.u.arr.length = 65536;
	assert_int_equal(model_fc_fixed_values(&a), -1);
	/* a structure of two arrays of 2^31 values each (1 + 2^31 - 1): 2^32 in all */
	a.u.arr.elem = &f_int;
	a.u.arr.length = (UINT64_C(1) << 31) - 1;
	assert_int_equal(model_fc_fixed_values(&a), INT64_C(2147483648));
	two[0] = (struct model_member){"a", "a", &a};
	two[1] = (struct model_member){"b", "b", &a};
	st.u.st.members = two;
	st.u.st.count = 2;
	assert_int_equal(model_fc_fixed_values(&st), -1);
	/* with a point instead of the second array: 2^31 + 2 */
	two[1].fc = &f_pt;
	assert_int_equal(model_fc_fixed_values(&st), INT64_C(2147483650));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_visits_in_pre_order),
		cmocka_unit_test(test_walk_starts_at_any_field),
		cmocka_unit_test(test_walk_tells_where_each_field_is),
		cmocka_unit_test(test_walk_without_visitor_counts),
		cmocka_unit_test(test_walk_stops_on_error),
		cmocka_unit_test(test_walk_stops_on_outcome),
		cmocka_unit_test(test_walk_variant_option_out_of_range),
		cmocka_unit_test(test_walk_empty_sequence),
		cmocka_unit_test(test_fixed_values_of_the_example),
		cmocka_unit_test(test_fixed_values_of_arrays),
		cmocka_unit_test(test_fixed_values_limit),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
