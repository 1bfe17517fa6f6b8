// SPDX-License-Identifier: MIT
/*
 * Rebuilding ftrace records from decoded values (src/tracedat/tracedat-sink-record.c), the heart of
 * converting CTF traces to trace.dat. Field classes and values are made by hand as a CTF
 * reader would give them; the expected records are written out byte by byte here, from the
 * format's offsets and the __data_loc/__rel_loc rules (reference/tracedat.md section 6), in
 * both byte orders.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracedat/tracedat-sink-record.h"
#include "ftrace/ftrace.h"
#include "model/model.h"

/* ---- field classes and values as a CTF reader makes them ---- */

static struct model_fc *fc_int(unsigned int bits, int is_signed, int base)
{
	struct model_fc *fc = calloc(1, sizeof(*fc));

	assert_non_null(fc);
	fc->kind = MODEL_FC_INT;
	fc->size = bits;
	fc->is_signed = (uint8_t) is_signed;
	fc->base = (uint8_t) base;
	fc->align = 8;
	return fc;
}

static struct model_fc *fc_kind(enum model_fc_kind kind)
{
	struct model_fc *fc = calloc(1, sizeof(*fc));

	assert_non_null(fc);
	fc->kind = (uint8_t) kind;
	fc->align = 8;
	return fc;
}

static struct model_fc *fc_array(enum model_fc_kind kind, struct model_fc *elem, uint64_t len,
				 struct model_fc *length_fc, int text)
{
	struct model_fc *fc = fc_kind(kind);

	fc->u.arr.elem = elem;
	fc->u.arr.length = len;
	fc->u.arr.length_fc = length_fc;
	fc->is_text = (uint8_t) text;
	return fc;
}

/* A structure or variant of @n members named and typed by the varargs (name, fc, ...). */
static struct model_fc *fc_compound(enum model_fc_kind kind, uint32_t n, ...)
{
	struct model_fc *fc = fc_kind(kind);
	struct model_member *m = calloc(n, sizeof(*m));
	va_list ap;
	uint32_t i;

	assert_non_null(m);
	va_start(ap, n);
	for (i = 0; i < n; i++) {
		m[i].name = va_arg(ap, const char *);
		m[i].orig_name = m[i].name;
		m[i].fc = va_arg(ap, struct model_fc *);
	}
	va_end(ap);
	if (kind == MODEL_FC_STRUCT) {
		fc->u.st.members = m;
		fc->u.st.count = n;
	} else {
		fc->u.var.options = m;
		fc->u.var.count = n;
	}
	return fc;
}

/* Free a tree made above (members, elements, options). */
static void fc_free(struct model_fc *fc)
{
	uint32_t i;

	if (!fc)
		return;
	if (fc->kind == MODEL_FC_STRUCT || fc->kind == MODEL_FC_VARIANT) {
		struct model_member *m =
			fc->kind == MODEL_FC_STRUCT ? fc->u.st.members : fc->u.var.options;
		uint32_t n = fc->kind == MODEL_FC_STRUCT ? fc->u.st.count : fc->u.var.count;

		for (i = 0; i < n; i++)
			fc_free(m[i].fc);
		free(m);
	} else if (fc->kind == MODEL_FC_ARRAY || fc->kind == MODEL_FC_SEQUENCE) {
		fc_free(fc->u.arr.elem);
	}
	free(fc);
}

static struct model_value vu(uint64_t u)
{
	struct model_value v = {.v.u = u};

	return v;
}

static struct model_value vs(const char *s, uint64_t n)
{
	struct model_value v = {.v.s = s, .n = n};

	return v;
}

static struct model_value vn(uint64_t n)
{
	struct model_value v = {.n = n};

	return v;
}

static struct model_value vd(double d)
{
	struct model_value v = {.v.d = d};

	return v;
}

/* Whether some cause of the error chain contains @needle. */
static int cause_says(const char *needle)
{
	size_t i;

	for (i = 0; i < tk_error_count(); i++)
		if (strstr(tk_error_cause(i), needle))
			return 1;
	for (i = 0; i < tk_error_count(); i++)
		print_error("cause: %s\n", tk_error_cause(i));
	return 0;
}

static const struct ftrace_event *parse(struct ftrace_ctx *ctx, const char *system,
					const char *text, enum tk_byte_order bo)
{
	struct ftrace_event *ev = NULL;

	ftrace_ctx_init(ctx, bo);
	if (ftrace_event_parse(ctx, system, text, strlen(text), &ev) < 0) {
		print_error("cannot parse: %s\n", tk_error_cause(0));
		fail();
	}
	assert_int_equal(ftrace_ctx_finish(ctx), TK_OK);
	return ev;
}

/* ---- a format carried from a trace.dat file (CONVERT_RECORD_ENV) ---- */

static const char env_format[] =
	"name: sample\nID: 42\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char comm[8];\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s16 delta;\toffset:16;\tsize:2;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc u32[] vals;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:u64 big;\toffset:28;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 arr[3];\toffset:36;\tsize:12;\tsigned:0;\n"
	"\n"
	"print fmt: \"%s\", REC->comm\n";

/*
 * The record of the format above for: common fields 42 (replaced by the format's id), 1, 2,
 * 1234; comm "bash"; delta -5; name "hello" (6 bytes with its NUL at 48: word 0x00060030);
 * vals {7, 9} (8 bytes at 54, 26 bytes after the end of the field: word 0x0008001a); big
 * 0x0102030405060708; arr {1, 2, 3}.
 */
static const uint8_t env_le[62] = {
	42,   0,    1,	 2,   0xd2, 0x04, 0,	0, 'b',	 'a', 's',  'h', 0, 0, 0, 0,
	0xfb, 0xff, 0,	 0,   0x30, 0,	  0x06, 0, 0x1a, 0,   0x08, 0,	 8, 7, 6, 5,
	4,    3,    2,	 1,   1,    0,	  0,	0, 2,	 0,   0,    0,	 3, 0, 0, 0,
	'h',  'e',  'l', 'l', 'o',  0,	  7,	0, 0,	 0,   9,    0,	 0, 0,
};
static const uint8_t env_be[62] = {
	0,    42, 1,	2, 0,	 0, 0x04, 0xd2, 'b', 'a', 's', 'h', 0, 0, 0, 0, 0xff, 0xfb, 0, 0, 0,
	0x06, 0,  0x30, 0, 0x08, 0, 0x1a, 1,	2,   3,	  4,   5,   6, 7, 8, 0, 0,    0,    1, 0, 0,
	0,    2,  0,	0, 0,	 3, 'h',  'e',	'l', 'l', 'o', 0,   0, 0, 0, 7, 0,    0,    0, 9,
};

struct env_class {
	struct model_stream_class sc;
	struct tk_event_class ec;
	struct model_fc *vals_len;
};

/* The CTF event class src/pipeline/dat-to-ctf.c writes for the format above. */
static void env_class_make(struct env_class *k)
{
	memset(k, 0, sizeof(*k));
	k->sc.event_context = fc_compound(MODEL_FC_STRUCT, 4, "common_type", fc_int(16, 0, 10),
					  "common_flags", fc_int(8, 0, 10), "common_preempt_count",
					  fc_int(8, 0, 10), "common_pid", fc_int(32, 1, 10));
	k->vals_len = fc_int(32, 0, 10);
	k->ec.payload = fc_compound(
		MODEL_FC_STRUCT, 7, "comm", fc_kind(MODEL_FC_STRING), "delta", fc_int(16, 1, 10),
		"name", fc_kind(MODEL_FC_STRING), "_vals_length", k->vals_len, "vals",
		fc_array(MODEL_FC_SEQUENCE, fc_int(32, 0, 10), 0, k->vals_len, 0), "big",
		fc_int(64, 0, 10), "arr", fc_array(MODEL_FC_ARRAY, fc_int(32, 0, 10), 3, NULL, 0));
	k->ec.name = "sample";
	k->ec.sc = &k->sc;
}

static void env_class_free(struct env_class *k)
{
	fc_free(k->sc.event_context);
	fc_free(k->ec.payload);
}

static void test_env_record_both_orders(void **state)
{
	static const enum tk_byte_order orders[] = {TK_BYTE_ORDER_LE, TK_BYTE_ORDER_BE};
	struct model_value ctx[4] = {vu(7), vu(1), vu(2), vu(1234)};
	struct model_value pay[] = {
		vs("bash", 4),	vu((uint64_t) -5),
		vs("hello", 5), vu(2),
		vn(2),		vu(7),
		vu(9),		vu(UINT64_C(0x0102030405060708)),
		vn(3),		vu(1),
		vu(2),		vu(3),
	};
	struct convert_record rec = {.max = 4000};
	struct env_class k;
	size_t i;

	(void) state;
	env_class_make(&k);
	for (i = 0; i < 2; i++) {
		struct ftrace_ctx fctx;
		const struct ftrace_event *fev = parse(&fctx, "test", env_format, orders[i]);
		struct convert_record_plan *p = NULL;
		struct tk_event ev = {.ec = &k.ec};

		ev.scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT] = ctx;
		ev.scope[MODEL_SCOPE_PAYLOAD] = pay;
		assert_int_equal(convert_record_plan(&p, &k.ec, fev, CONVERT_RECORD_ENV, orders[i]),
				 TK_OK);
		assert_ptr_equal(convert_record_plan_format(p), fev);
		if (rec.cap) /* no byte may stay from an earlier record */
			memset(rec.data, 0xee, rec.cap);
		assert_int_equal(convert_record_build(p, &ev, &rec), TK_OK);
		assert_int_equal(rec.size, sizeof(env_le));
		assert_memory_equal(rec.data, i == 0 ? env_le : env_be, sizeof(env_le));
		/* what the trace.dat reader makes of it */
		{
			const struct ftrace_field *f = ftrace_field_find(fev, "vals");
			uint32_t off, len;

			assert_int_equal(
				ftrace_field_dynamic(&fctx, f, rec.data, rec.size, &off, &len), 0);
			assert_int_equal(off, 54);
			assert_int_equal(len, 8);
			assert_int_equal((int64_t) ftrace_field_u64(
						 &fctx, ftrace_field_find(fev, "delta"), rec.data),
					 -5);
		}
		convert_record_plan_destroy(p);
		ftrace_ctx_fini(&fctx);
	}
	free(rec.data);
	env_class_free(&k);
}

/* A text longer than a char array is cut to it; an empty string still has its NUL. */
static void test_env_record_cut_and_empty(void **state)
{
	struct model_value ctx[4] = {vu(42), vu(0), vu(0), vu(1)};
	struct model_value pay[] = {
		vs("a-much-longer-name", 18),
		vu(0),
		vs("", 0),
		vu(0),
		vn(0),
		vu(0),
		vn(3),
		vu(0),
		vu(0),
		vu(0),
	};
	struct convert_record rec = {.max = 4000};
	struct ftrace_ctx fctx;
	const struct ftrace_event *fev = parse(&fctx, "test", env_format, TK_BYTE_ORDER_LE);
	struct convert_record_plan *p = NULL;
	struct tk_event ev = {0};
	struct env_class k;

	(void) state;
	env_class_make(&k);
	ev.ec = &k.ec;
	ev.scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT] = ctx;
	ev.scope[MODEL_SCOPE_PAYLOAD] = pay;
	assert_int_equal(convert_record_plan(&p, &k.ec, fev, CONVERT_RECORD_ENV, TK_BYTE_ORDER_LE),
			 TK_OK);
	assert_int_equal(convert_record_build(p, &ev, &rec), TK_OK);
	assert_int_equal(rec.size, 49);
	assert_memory_equal(rec.data + 8, "a-much-l", 8);
	/* name: 1 byte (the NUL) at 48; vals: 0 bytes at 49, 21 after its field's end */
	assert_memory_equal(rec.data + 20, "\x30\x00\x01\x00\x15\x00\x00\x00", 8);
	assert_int_equal(rec.data[48], 0);
	/* a record larger than allowed is refused with a cause */
	rec.max = 48;
	assert_int_equal(convert_record_build(p, &ev, &rec), TK_ERR_UNSUPPORTED);
	tk_error_clear();
	convert_record_plan_destroy(p);
	ftrace_ctx_fini(&fctx);
	free(rec.data);
	env_class_free(&k);
}

/* A CTF class that does not match the carried format is refused, naming the field. */
static void test_env_mismatch(void **state)
{
	struct ftrace_ctx fctx;
	const struct ftrace_event *fev = parse(&fctx, "test", env_format, TK_BYTE_ORDER_LE);
	struct convert_record_plan *p = NULL;
	struct env_class k;
	struct model_fc *saved;

	(void) state;
	env_class_make(&k);
	/* "delta" a string */
	saved = k.ec.payload->u.st.members[1].fc;
	k.ec.payload->u.st.members[1].fc = fc_kind(MODEL_FC_STRING);
	assert_int_equal(convert_record_plan(&p, &k.ec, fev, CONVERT_RECORD_ENV, TK_BYTE_ORDER_LE),
			 TK_ERR_FORMAT);
	assert_true(cause_says("field=delta"));
	tk_error_clear();
	fc_free(k.ec.payload->u.st.members[1].fc);
	k.ec.payload->u.st.members[1].fc = saved;
	/* one field less in the class */
	k.ec.payload->u.st.count--;
	assert_int_equal(convert_record_plan(&p, &k.ec, fev, CONVERT_RECORD_ENV, TK_BYTE_ORDER_LE),
			 TK_ERR_FORMAT);
	assert_true(cause_says("field=arr, reason=missing"));
	tk_error_clear();
	k.ec.payload->u.st.count++;
	/* another name */
	k.ec.payload->u.st.members[5].name = "huge";
	assert_int_equal(convert_record_plan(&p, &k.ec, fev, CONVERT_RECORD_ENV, TK_BYTE_ORDER_LE),
			 TK_ERR_FORMAT);
	tk_error_clear();
	k.ec.payload->u.st.members[5].name = "big";
	assert_null(p);
	ftrace_ctx_fini(&fctx);
	env_class_free(&k);
}

/* Records of no known format: the bytes of the only sequence are the record. */
static void test_raw_record(void **state)
{
	struct model_fc *len = fc_int(32, 0, 10);
	struct model_fc *pl = fc_compound(MODEL_FC_STRUCT, 2, "_data_length", len, "data",
					  fc_array(MODEL_FC_SEQUENCE, fc_int(8, 0, 16), 0, len, 0));
	struct model_value pay[] = {vu(5), vn(5), vu(1), vu(2), vu(3), vu(4), vu(5)};
	struct tk_event_class ec = {.name = "ftrace_unknown", .payload = pl};
	struct tk_event ev = {.ec = &ec};
	struct convert_record rec = {.max = 4000};
	struct convert_record_plan *p = convert_record_plan_raw(&ec);

	(void) state;
	assert_non_null(p);
	ev.scope[MODEL_SCOPE_PAYLOAD] = pay;
	assert_int_equal(convert_record_build(p, &ev, &rec), TK_OK);
	assert_int_equal(rec.size, 5);
	assert_memory_equal(rec.data, "\x01\x02\x03\x04\x05", 5);
	assert_null(convert_record_plan_format(p));
	convert_record_plan_destroy(p);
	free(rec.data);
	/* a class with another field is not one */
	pl->u.st.members[0].fc = fc_int(32, 0, 10);
	assert_null(convert_record_plan_raw(&ec));
	fc_free(pl->u.st.members[0].fc);
	pl->u.st.members[0].fc = len;
	fc_free(pl);
}

/* ---- formats made for CTF event classes (CONVERT_RECORD_SYNTH) ---- */

/*
 * Stream event context {vtid: i32, procname: string}; payload {s: {a: u8, b: i64 hex},
 * f: double, t: char[4] text, tag: enum u8, v: variant {x: u16, y: string}, _seq_length:
 * u32, seq: i8[_seq_length], 9lives: u5}.
 */
static const char synth_lines[] =
	"\tfield:int32_t vtid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] procname;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:uint8_t s_a;\toffset:16;\tsize:1;\tsigned:0;\n"
	"\tfield:int64_t s_b;\toffset:24;\tsize:8;\tsigned:1;\n"
	"\tfield:uint64_t f;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:char t[4];\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:uint8_t tag;\toffset:44;\tsize:1;\tsigned:0;\n"
	"\tfield:uint16_t v_x;\toffset:46;\tsize:2;\tsigned:0;\n"
	"\tfield:__data_loc char[] v_y;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\tfield:uint32_t _seq_length;\toffset:52;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc int8_t[] seq;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:uint8_t _9lives;\toffset:60;\tsize:1;\tsigned:0;\n"
	"\n"
	"print fmt: \"vtid=%d procname=%s s_a=%u s_b=0x%llx f=%s%s%.*llx%s%.*u t=%s tag=%u "
	"v_x=%u v_y=%s _seq_length=%u seq=";

/* The double's sign, the first of its pieces (the rest: tests/interop/convert-dat-values.sh). */
static const char synth_args[] = "\", REC->vtid, __get_str(procname), REC->s_a, REC->s_b, "
				 "(REC->f >> 63) ? \"-\" : \"\", ";

/*
 * The signed sequence, once the plan built a record where it had 2 elements: each element
 * guarded by the length, the one byte read as the high byte of the 8 ending with it.
 */
static const char synth_seq_fmt[] = "seq=%.*hhd%s%.*hhd _9lives=%u\", ";
static const char synth_seq_args[] =
	"(__get_dynamic_array_len(seq) > 0) ? 1 : 0, (__get_dynamic_array_len(seq) > 0) ? "
	"((__get_dynamic_array(seq))[4294967289] >> 56) : 0, (__get_dynamic_array_len(seq) > 1) "
	"? \" \" : \"\", (__get_dynamic_array_len(seq) > 1) ? 1 : 0, "
	"(__get_dynamic_array_len(seq) > 1) ? ((__get_dynamic_array(seq))[4294967290] >> 56) : 0, "
	"REC->_9lives\n";

/*
 * The record for vtid 77, procname "sh", s {5, -2}, f 1.5, t "abcd", tag 1 (option y
 * selected: v_x stays 0), v_y "yy", seq {-1, 2}, 9lives 31: fixed part 61 bytes, then
 * "sh\0" at 61 (word 0x0003003d), "yy\0" at 64 (0x00030040), the two bytes at 67
 * (0x00020043); common_type is the id (3) and common_pid the vtid.
 */
static const uint8_t synth_le[69] = {
	3, 0, 0,    0,	  77,  0,   0,	  0,	77,   0,    0,	  0,	0x3d, 0,    3, 0, 5, 0,
	0, 0, 0,    0,	  0,   0,   0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0,
	0, 0, 0xf8, 0x3f, 'a', 'b', 'c',  'd',	1,    0,    0,	  0,	0x40, 0,    3, 0, 2, 0,
	0, 0, 0x43, 0,	  2,   0,   31,	  's',	'h',  0,    'y',  'y',	0,    0xff, 2,
};

static void test_synth_format_and_record(void **state)
{
	struct model_fc *seq_len = fc_int(32, 0, 10);
	struct model_fc *tag = fc_kind(MODEL_FC_ENUM);
	struct model_fc *dbl = fc_kind(MODEL_FC_FLOAT);
	struct model_stream_class sc = {0};
	struct tk_event_class ec = {.name = "prov:ev-1", .sc = &sc};
	struct model_value ctx[] = {vu(77), vs("sh", 2)};
	struct model_value pay[] = {
		vu(5), vu((uint64_t) -2), vd(1.5), vs("abcd", 4), vu(1), vn(1), vs("yy", 2), vu(2),
		vn(2), vu((uint64_t) -1), vu(2),   vu(31),
	};
	struct tk_event ev = {.ec = &ec};
	struct convert_record rec = {.max = 4000};
	struct convert_record_plan *p = NULL;
	struct vec text = VEC_INIT;
	struct ftrace_ctx fctx;
	const struct ftrace_event *fev;
	char *t;

	(void) state;
	tag->size = 8;
	dbl->size = 64;
	dbl->mant_dig = 53;
	dbl->exp_dig = 11;
	sc.event_context = fc_compound(MODEL_FC_STRUCT, 2, "vtid", fc_int(32, 1, 10), "procname",
				       fc_kind(MODEL_FC_STRING));
	ec.payload = fc_compound(
		MODEL_FC_STRUCT, 8, "s",
		fc_compound(MODEL_FC_STRUCT, 2, "a", fc_int(8, 0, 10), "b", fc_int(64, 1, 16)), "f",
		dbl, "t", fc_array(MODEL_FC_ARRAY, fc_int(8, 0, 10), 4, NULL, 1), "tag", tag, "v",
		fc_compound(MODEL_FC_VARIANT, 2, "x", fc_int(16, 0, 10), "y",
			    fc_kind(MODEL_FC_STRING)),
		"_seq_length", seq_len, "seq",
		fc_array(MODEL_FC_SEQUENCE, fc_int(8, 1, 10), 0, seq_len, 0), "9lives",
		fc_int(5, 0, 10));
	assert_int_equal(convert_record_format(&ec, 3, "ev_1", NULL, &text), TK_OK);
	t = calloc(1, text.len + 1);
	assert_non_null(t);
	memcpy(t, text.data, text.len);
	assert_non_null(strstr(t, "name: ev_1\nID: 3\nformat:\n"
				  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;"));
	assert_non_null(strstr(t, "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"));
	/* no record built yet: the sequence shows no element */
	if (!strstr(t, synth_lines) || !strstr(t, "seq= _9lives=%u\"") || !strstr(t, synth_args)) {
		print_error("format made:\n%s\n", t);
		fail();
	}
	fev = parse(&fctx, "prov", t, TK_BYTE_ORDER_LE);
	assert_int_equal(fev->id, 3);
	assert_int_equal(fev->n_fields - fev->n_common, 12);
	assert_int_equal(fev->flags & FTRACE_EVENT_FAILED, 0);
	assert_int_equal(convert_record_plan(&p, &ec, fev, CONVERT_RECORD_SYNTH, TK_BYTE_ORDER_LE),
			 TK_OK);
	ev.scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT] = ctx;
	ev.scope[MODEL_SCOPE_PAYLOAD] = pay;
	assert_int_equal(convert_record_build(p, &ev, &rec), TK_OK);
	assert_int_equal(rec.size, sizeof(synth_le));
	assert_memory_equal(rec.data, synth_le, sizeof(synth_le));
	/* the same fields, the print fmt showing the two elements the sequence had */
	text.len = 0;
	assert_int_equal(convert_record_format(&ec, 3, "ev_1", p, &text), TK_OK);
	free(t);
	t = calloc(1, text.len + 1);
	assert_non_null(t);
	memcpy(t, text.data, text.len);
	if (!strstr(t, synth_lines) || !strstr(t, synth_seq_fmt) || !strstr(t, synth_seq_args)) {
		print_error("format made:\n%s\n", t);
		fail();
	}
	/* the other option selected: v_x holds it, v_y is empty */
	pay[5] = vn(0);
	pay[6] = vu(0x1234);
	assert_int_equal(convert_record_build(p, &ev, &rec), TK_OK);
	assert_int_equal(rec.data[46], 0x34);
	assert_int_equal(rec.data[47], 0x12);
	assert_memory_equal(rec.data + 48, "\0\0\0\0", 4); /* not written: empty */
	convert_record_plan_destroy(p);
	ftrace_ctx_fini(&fctx);
	free(t);
	free(rec.data);
	vec_fini(&text);
	fc_free(sc.event_context);
	fc_free(ec.payload);
}

/* What no format can hold is refused, naming the event and the field. */
static void test_synth_refused(void **state)
{
	struct model_fc *pl =
		fc_compound(MODEL_FC_STRUCT, 1, "names",
			    fc_array(MODEL_FC_ARRAY, fc_kind(MODEL_FC_STRING), 2, NULL, 0));
	struct model_stream_class sc = {0};
	struct tk_event_class ec = {.name = "e", .sc = &sc, .payload = pl};
	struct vec text = VEC_INIT;

	(void) state;
	assert_int_equal(convert_record_format(&ec, 1, "e", NULL, &text), TK_ERR_UNSUPPORTED);
	assert_true(cause_says("event=e, field=names"));
	tk_error_clear();
	vec_fini(&text);
	fc_free(pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_record_both_orders),
		cmocka_unit_test(test_env_record_cut_and_empty),
		cmocka_unit_test(test_env_mismatch),
		cmocka_unit_test(test_raw_record),
		cmocka_unit_test(test_synth_format_and_record),
		cmocka_unit_test(test_synth_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
