// SPDX-License-Identifier: MIT
/*
 * Unit tests of ftrace events in the trace model (src/ftrace/ftrace-model.c): the event class
 * of a format, the values of a record and the fields field predicates read, which any
 * container of ftrace records (trace.dat, perf.data tracepoints) shares.
 *
 * The format and the record are made by hand below; expected values are the numbers written
 * into the record, laid out as model.h describes (pre-order, an array's length before its
 * elements). Records are handed over in heap buffers of their exact size, so that an
 * address-sanitizer build catches a read past the end.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/bytes.h"
#include "common/error.h"
#include "common/vec.h"
#include "ftrace/ftrace-model.h"
#include "model/walk.h"

static const char demo_format[] =
	"name: demo\n"
	"ID: 7\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char comm[8];\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int delta;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:void * ptr;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:u16 vals[3];\toffset:36;\tsize:6;\tsigned:0;\n"
	"\tfield:__data_loc u32[] ids;\toffset:44;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"delta=%d\", REC->delta\n";

enum { REC_SIZE = 60 };

static struct ftrace_ctx ctx;
static struct ftrace_event *fev;
static struct arena arena;

static int setup(void **state)
{
	char *text = malloc(sizeof(demo_format) - 1);

	(void) state;
	error_reset();
	ftrace_ctx_init(&ctx, TK_BYTE_ORDER_LE);
	arena_init(&arena);
	assert_non_null(text);
	memcpy(text, demo_format, sizeof(demo_format) - 1);
	assert_int_equal(ftrace_event_parse(&ctx, "test", text, sizeof(demo_format) - 1, &fev),
			 TK_OK);
	free(text);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	return 0;
}

static int teardown(void **state)
{
	(void) state;
	arena_fini(&arena);
	ftrace_ctx_fini(&ctx);
	return 0;
}

/* The demo record: pid -5, comm "ab", delta -3, a pointer, "xyz", {1, 2, 0xffff}, {10, 20}. */
static uint8_t *demo_record(void)
{
	uint8_t *r = calloc(1, REC_SIZE);

	assert_non_null(r);
	tk_store_u16(r + 0, 7, TK_BYTE_ORDER_LE);
	r[2] = 1;
	r[3] = 2;
	tk_store_u32(r + 4, (uint32_t) -5, TK_BYTE_ORDER_LE);
	memcpy(r + 8, "ab", 2);
	tk_store_u32(r + 16, (uint32_t) -3, TK_BYTE_ORDER_LE);
	tk_store_u64(r + 24, UINT64_C(0xffff888012345678), TK_BYTE_ORDER_LE);
	tk_store_u32(r + 32, 4u << 16 | 48, TK_BYTE_ORDER_LE);
	tk_store_u16(r + 36, 1, TK_BYTE_ORDER_LE);
	tk_store_u16(r + 38, 2, TK_BYTE_ORDER_LE);
	tk_store_u16(r + 40, 0xffff, TK_BYTE_ORDER_LE);
	tk_store_u32(r + 44, 8u << 16 | 52, TK_BYTE_ORDER_LE);
	memcpy(r + 48, "xyz", 4);
	tk_store_u32(r + 52, 10, TK_BYTE_ORDER_LE);
	tk_store_u32(r + 56, 20, TK_BYTE_ORDER_LE);
	return r;
}

static void event_class_scopes(void **state)
{
	struct tk_event_class ec = {0};
	const struct model_fc *p, *c;

	(void) state;
	assert_int_equal(ftrace_model_event_class(&arena, &ctx, fev, &ec), TK_OK);
	assert_string_equal(ec.name, "demo");
	assert_string_equal(ec.system, "test");
	assert_int_equal(ec.id, 7);
	assert_ptr_equal(ec.fmt, fev);
	c = ec.common;
	assert_int_equal(c->kind, MODEL_FC_STRUCT);
	assert_int_equal(c->u.st.count, 4);
	assert_string_equal(c->u.st.members[3].name, "common_pid");
	assert_int_equal(c->u.st.members[3].fc->is_signed, 1);
	assert_int_equal(c->u.st.members[0].fc->size, 16);
	p = ec.payload;
	assert_int_equal(p->u.st.count, 6);
	/* comm: a fixed char array shown as text */
	assert_int_equal(p->u.st.members[0].fc->kind, MODEL_FC_ARRAY);
	assert_int_equal(p->u.st.members[0].fc->is_text, 1);
	assert_int_equal(p->u.st.members[0].fc->u.arr.length, 8);
	/* delta: a signed int; ptr: a pointer in hex */
	assert_int_equal(p->u.st.members[1].fc->kind, MODEL_FC_INT);
	assert_int_equal(p->u.st.members[1].fc->size, 32);
	assert_int_equal(p->u.st.members[1].fc->base, 10);
	assert_int_equal(p->u.st.members[2].fc->base, 16);
	assert_int_equal(p->u.st.members[2].fc->size, 64);
	/* name: a dynamic string; vals: 3 u16; ids: a sequence of u32 */
	assert_int_equal(p->u.st.members[3].fc->kind, MODEL_FC_STRING);
	assert_int_equal(p->u.st.members[4].fc->kind, MODEL_FC_ARRAY);
	assert_int_equal(p->u.st.members[4].fc->u.arr.length, 3);
	assert_int_equal(p->u.st.members[4].fc->u.arr.elem->size, 16);
	assert_int_equal(p->u.st.members[5].fc->kind, MODEL_FC_SEQUENCE);
	assert_int_equal(p->u.st.members[5].fc->u.arr.elem->size, 32);
}

static void values_of_a_record(void **state)
{
	uint8_t *rec = demo_record();
	struct vec vals = VEC_INIT;
	const struct model_value *v;
	size_t payload;

	(void) state;
	/* after a value of the container's own (a CPU), as trace.dat puts its packet context */
	assert_int_equal(vec_reserve(&vals, sizeof(struct model_value), 1), 0);
	vals.len = 1;
	assert_int_equal(ftrace_model_values(&ctx, fev, rec, REC_SIZE, &vals, &payload), TK_OK);
	v = vals.data;
	assert_int_equal(payload, 5);
	assert_int_equal(vals.len, 5 + 1 + 1 + 1 + 1 + 4 + 3);
	assert_int_equal(v[1].v.u, 7);
	assert_int_equal(v[2].v.u, 1);
	assert_int_equal(v[3].v.u, 2);
	assert_int_equal(v[4].v.i, -5);
	v += payload;
	assert_int_equal(v[0].n, 2);
	assert_memory_equal(v[0].v.s, "ab", 2);
	assert_int_equal(v[1].v.i, -3);
	assert_int_equal(v[2].v.u, UINT64_C(0xffff888012345678));
	assert_int_equal(v[3].n, 3);
	assert_memory_equal(v[3].v.s, "xyz", 3);
	assert_int_equal(v[4].n, 3);
	assert_int_equal(v[5].v.u, 1);
	assert_int_equal(v[6].v.u, 2);
	assert_int_equal(v[7].v.u, 0xffff);
	assert_int_equal(v[8].n, 2);
	assert_int_equal(v[9].v.u, 10);
	assert_int_equal(v[10].v.u, 20);
	vec_fini(&vals);
	free(rec);
}

/*
 * A record cut after delta: what it lacks reads 0 and empty text; the fixed array keeps the
 * length of its class in zeros (model_fc_fixed_values() counts on it), the sequence has no
 * elements.
 */
static void values_of_a_short_record(void **state)
{
	uint8_t *full = demo_record(), *rec = malloc(20);
	struct vec vals = VEC_INIT;
	const struct model_value *v;
	size_t payload;

	(void) state;
	assert_non_null(rec);
	memcpy(rec, full, 20);
	assert_int_equal(ftrace_model_values(&ctx, fev, rec, 20, &vals, &payload), TK_OK);
	assert_int_equal(payload, 4);
	assert_int_equal(vals.len, 4 + 1 + 1 + 1 + 1 + 4 + 1);
	v = (const struct model_value *) vals.data + payload;
	assert_int_equal(v[0].n, 2);
	assert_int_equal(v[1].v.i, -3);
	assert_int_equal(v[2].v.u, 0);
	assert_int_equal(v[3].n, 0);
	assert_int_equal(v[4].n, 3); /* vals: three zeros */
	assert_int_equal(v[5].v.u, 0);
	assert_int_equal(v[6].v.u, 0);
	assert_int_equal(v[7].v.u, 0);
	assert_int_equal(v[8].n, 0); /* ids: no elements */
	vec_fini(&vals);
	free(rec);
	free(full);
}

static void raw_fields_for_predicates(void **state)
{
	uint8_t *rec = demo_record();
	struct model_raw_field f;
	struct model_raw_value r;

	(void) state;
	assert_int_equal(ftrace_model_raw_field(fev, 0, &f), 1);
	assert_string_equal(f.name, "common_type");
	assert_int_equal(f.kind, MODEL_FC_INT);
	assert_int_equal(ftrace_model_raw_field(fev, 4, &f), 1);
	assert_string_equal(f.name, "comm");
	assert_int_equal(f.kind, MODEL_FC_STRING);
	assert_int_equal(ftrace_model_raw_field(fev, 8, &f), 1);
	assert_int_equal(f.kind, MODEL_FC_ARRAY);
	assert_int_equal(ftrace_model_raw_field(fev, 10, &f), 0);
	assert_int_equal(ftrace_model_raw_field(NULL, 0, &f), 0);

	ftrace_model_raw_value(&ctx, fev, 3, rec, REC_SIZE, &r);
	assert_int_equal((int64_t) r.u, -5);
	ftrace_model_raw_value(&ctx, fev, 4, rec, REC_SIZE, &r);
	assert_int_equal(r.n, 2);
	assert_memory_equal(r.s, "ab", 2);
	ftrace_model_raw_value(&ctx, fev, 7, rec, REC_SIZE, &r);
	assert_int_equal(r.n, 3);
	assert_memory_equal(r.s, "xyz", 3);
	ftrace_model_raw_value(&ctx, fev, 8, rec, REC_SIZE, &r); /* an array: no value */
	assert_int_equal(r.u, 0);
	assert_int_equal(r.n, 0);
	ftrace_model_raw_value(&ctx, fev, 6, rec, 20, &r); /* past a short record */
	assert_int_equal(r.u, 0);
	ftrace_model_raw_value(&ctx, fev, 7, rec, 20, &r);
	assert_int_equal(r.n, 0);
	assert_string_equal(r.s, "");
	free(rec);
}

/*
 * A damaged format (found by fuzz-tracedat-print): "cher x[98]" in 16 bytes, an integer
 * array whose brackets say more elements than its size holds, before a field at a fixed
 * place. The class has the 16 elements the bytes hold, and every record, whole or cut,
 * decodes to the number of values the class promises: a reader that finds "after" by
 * counting (the Chrome writer's field lookup) must land on it.
 */
static const char damaged_format[] =
	"name: damaged\n"
	"ID: 9\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:cher x[98];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:int after;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"after=%d\", REC->after\n";

static void array_longer_than_its_size(void **state)
{
	static const size_t sizes[] = {28, 20, 6};
	struct tk_event_class ec = {0};
	struct ftrace_event *dev;
	const struct model_fc *x;
	char *text = malloc(sizeof(damaged_format) - 1);

	(void) state;
	assert_non_null(text);
	memcpy(text, damaged_format, sizeof(damaged_format) - 1);
	assert_int_equal(ftrace_event_parse(&ctx, "test", text, sizeof(damaged_format) - 1, &dev),
			 TK_OK);
	free(text);
	assert_int_equal(ftrace_model_event_class(&arena, &ctx, dev, &ec), TK_OK);
	assert_int_equal(ec.payload->u.st.count, 2);
	x = ec.payload->u.st.members[0].fc;
	assert_int_equal(x->kind, MODEL_FC_ARRAY);
	assert_int_equal(x->is_text, 0);
	assert_int_equal(x->u.arr.length, 16);
	assert_int_equal(model_fc_fixed_values(ec.payload), 1 + 16 + 1);
	for (size_t i = 0; i < TK_ARRAY_SIZE(sizes); i++) {
		uint8_t *rec = calloc(1, sizes[i]);
		struct vec vals = VEC_INIT;
		const struct model_value *v;
		size_t payload;

		assert_non_null(rec);
		for (size_t b = 8; b < 24 && b < sizes[i]; b++)
			rec[b] = (uint8_t) b;
		if (sizes[i] >= 28)
			tk_store_u32(rec + 24, (uint32_t) -9, TK_BYTE_ORDER_LE);
		assert_int_equal(ftrace_model_values(&ctx, dev, rec, sizes[i], &vals, &payload),
				 TK_OK);
		assert_int_equal(vals.len - payload, 1 + 16 + 1);
		v = (const struct model_value *) vals.data + payload;
		assert_int_equal(v[0].n, 16);
		/* the elements where the record holds the whole field, else zeros */
		assert_int_equal(v[1].v.u, sizes[i] >= 24 ? 8 : 0);
		assert_int_equal(v[16].v.u, sizes[i] >= 24 ? 23 : 0);
		assert_int_equal(v[17].v.i, sizes[i] >= 28 ? -9 : 0);
		vec_fini(&vals);
		free(rec);
	}
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(event_class_scopes),	       T(values_of_a_record),
		T(values_of_a_short_record),   T(raw_fields_for_predicates),
		T(array_longer_than_its_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
