// SPDX-License-Identifier: MIT
/*
 * Unit tests of the public field API (src/model/field.c, include/tracekit/field.h) over both
 * kinds of input.
 *
 * CTF: a hand-made trace in memory, with every kind of field (integers signed, unsigned and
 * hexadecimal, an enumeration whose labels overlap, two floats, a string, a structure, arrays
 * of integers and of characters, a sequence, a variant, an array of structures holding
 * strings) and two events whose sequence, variant and strings differ in size, so that finding
 * the later members depends on the data. The bytes were written from the metadata by hand
 * (see the comments) and babeltrace2 printed both events with the values checked here.
 *
 * trace.dat: a gen-dat file (argv[1], made by the build) opened from memory with
 * tk_trace_open_mem(); the values of every sched_switch, sys_enter and irq_handler_entry event
 * are compared with what `trace-cmd report -R` prints for the same file (skipped without
 * trace-cmd).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include <tracekit/tracekit.h>

#include "common/error.h"
#include "ctf/ctf.h"
#include "ftrace/ftrace.h"
#include "model/model.h"
#include "pipeline/pipeline.h"
#include "tracedat/source.h"
#include "common/writer.h"

static const char *dat_path;

/* ---- CTF fixture ------------------------------------------------------------------------ */

static const char metadata[] =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
	"trace { major = 1; minor = 8; byte_order = le; };\n"
	"stream { event.context := struct { uint16_t ctx; }; };\n"
	"event {\n"
	"	name = e;\n"
	"	fields := struct {\n"
	"		uint32_t u;\n"
	"		int32_t i;\n"
	"		integer { size = 16; align = 8; signed = false; base = 16; } h;\n"
	"		enum : uint8_t { ZERO = 0, LOW = 1 ... 5, THREE = 3 } en;\n"
	"		floating_point { exp_dig = 8; mant_dig = 24; align = 8; } f;\n"
	"		floating_point { exp_dig = 11; mant_dig = 53; align = 8; } d;\n"
	"		string s;\n"
	"		struct { uint8_t a; uint16_t b; } inner;\n"
	"		uint16_t arr[3];\n"
	"		integer { size = 8; align = 8; signed = false; encoding = UTF8; } txt[4];\n"
	"		uint8_t n;\n"
	"		uint32_t seq[n];\n"
	"		enum : uint8_t { X = 0, Y = 1 } tag;\n"
	"		variant <tag> { uint8_t X; string Y; } var;\n"
	"		struct { uint8_t k; string w; } recs[2];\n"
	"		uint8_t after;\n"
	"	};\n"
	"};\n";

/* Two events, little-endian, byte-aligned. */
static const uint8_t stream_bytes[] = {
	/* event 1: ctx = 7 */
	0x07,
	0x00,
	/* u = 4000000000, i = -5, h = 0xbeef, en = 3 */
	0x00,
	0x28,
	0x6b,
	0xee,
	0xfb,
	0xff,
	0xff,
	0xff,
	0xef,
	0xbe,
	0x03,
	/* f = 1.5 (0x3fc00000), d = -2.25 (0xc002000000000000) */
	0x00,
	0x00,
	0xc0,
	0x3f,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x02,
	0xc0,
	/* s = "hello" */
	'h',
	'e',
	'l',
	'l',
	'o',
	0x00,
	/* inner = { a = 9, b = 513 }, arr = [1, 2, 65535], txt = "ab\0\0" */
	0x09,
	0x01,
	0x02,
	0x01,
	0x00,
	0x02,
	0x00,
	0xff,
	0xff,
	'a',
	'b',
	0x00,
	0x00,
	/* n = 3, seq = [10, 20, 30] */
	0x03,
	0x0a,
	0x00,
	0x00,
	0x00,
	0x14,
	0x00,
	0x00,
	0x00,
	0x1e,
	0x00,
	0x00,
	0x00,
	/* tag = X, var = 42 */
	0x00,
	0x2a,
	/* recs = [{1, "x"}, {2, "yz"}], after = 99 */
	0x01,
	'x',
	0x00,
	0x02,
	'y',
	'z',
	0x00,
	0x63,
	/* event 2: ctx = 8 */
	0x08,
	0x00,
	/* u = 1, i = 2147483647, h = 0, en = 7 */
	0x01,
	0x00,
	0x00,
	0x00,
	0xff,
	0xff,
	0xff,
	0x7f,
	0x00,
	0x00,
	0x07,
	/* f = 0, d = 1e100 (0x54b249ad2594c37d) */
	0x00,
	0x00,
	0x00,
	0x00,
	0x7d,
	0xc3,
	0x94,
	0x25,
	0xad,
	0x49,
	0xb2,
	0x54,
	/* s = "" */
	0x00,
	/* inner = { 0, 0 }, arr = [0, 0, 0], txt = "wxyz" */
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	'w',
	'x',
	'y',
	'z',
	/* n = 0 */
	0x00,
	/* tag = Y, var = "opt" */
	0x01,
	'o',
	'p',
	't',
	0x00,
	/* recs = [{3, ""}, {4, "long"}], after = 100 */
	0x03,
	0x00,
	0x04,
	'l',
	'o',
	'n',
	'g',
	0x00,
	0x64,
};

struct ctf_fix {
	struct tk_source *src;
	struct tk_trace trace;
	struct tk_iter *it;
	const struct tk_event *ev;
};

static int ctf_setup(void **state)
{
	static struct ctf_fix fx;
	const uint8_t *streams[1] = {stream_bytes};
	size_t sizes[1] = {sizeof(stream_bytes)};

	memset(&fx, 0, sizeof(fx));
	error_reset();
	if (ctf_source_open_mem(&fx.src, (const uint8_t *) metadata, strlen(metadata), streams,
				sizes, 1) < 0)
		return -1;
	fx.trace.sources = &fx.src;
	fx.trace.n_sources = 1;
	if (model_trace_finish(&fx.trace) < 0 || tk_iter_create(&fx.it, &fx.trace) < 0)
		return -1;
	*state = &fx;
	return 0;
}

static int ctf_teardown(void **state)
{
	struct ctf_fix *fx = *state;

	tk_iter_destroy(fx->it);
	free(fx->trace.streams);
	free(fx->trace.ecs);
	ctf_source_destroy(fx->src);
	return 0;
}

/* The next event of the fixture trace. */
static const struct tk_event *next_event(struct ctf_fix *fx)
{
	assert_int_equal(tk_iter_next(fx->it, &fx->ev), TK_OK);
	return fx->ev;
}

static struct tk_field payload_field(const struct tk_event *ev, const char *name)
{
	struct tk_field f;

	assert_int_equal(tk_event_get_field(ev, TK_SCOPE_PAYLOAD, name, &f), TK_OK);
	return f;
}

static uint64_t uint_of(const struct tk_field *f)
{
	uint64_t u = 0;

	assert_int_equal(tk_field_get_uint(f, &u), TK_OK);
	return u;
}

static int64_t int_of(const struct tk_field *f)
{
	int64_t i = 0;

	assert_int_equal(tk_field_get_int(f, &i), TK_OK);
	return i;
}

/* The text of @f as a NUL-terminated string in @buf. */
static const char *text_of(const struct tk_field *f, char *buf, size_t size)
{
	const char *s = NULL;
	size_t len = 0;

	assert_int_equal(tk_field_get_string(f, &s, &len), TK_OK);
	assert_true(len < size);
	memcpy(buf, s, len);
	buf[len] = '\0';
	return buf;
}

/* A failure has the status asked for, one cause or more, and leaves @out untouched. */
static void assert_fails_with(enum tk_status st, enum tk_status want)
{
	assert_int_equal(st, want);
	assert_true(tk_error_count() >= 1);
	assert_memory_equal(tk_error_cause(0), "Cannot ", 7);
}

static void ctf_classes(void **state)
{
	struct ctf_fix *fx = *state;
	const struct tk_event_class *ec = tk_trace_get_event_class(&fx->trace, 0);
	const struct tk_field_class *p = tk_event_class_get_field_class(ec, TK_SCOPE_PAYLOAD);
	const struct tk_field_class *c, *e;
	static const char *const names[] = {"u",   "i",	    "h",    "en",   "f", "d",
					    "s",   "inner", "arr",  "txt",  "n", "seq",
					    "tag", "var",   "recs", "after"};
	static const enum tk_field_kind kinds[] = {
		TK_FIELD_KIND_INT,    TK_FIELD_KIND_INT,     TK_FIELD_KIND_INT,
		TK_FIELD_KIND_ENUM,   TK_FIELD_KIND_FLOAT,   TK_FIELD_KIND_FLOAT,
		TK_FIELD_KIND_STRING, TK_FIELD_KIND_STRUCT,  TK_FIELD_KIND_ARRAY,
		TK_FIELD_KIND_ARRAY,  TK_FIELD_KIND_INT,     TK_FIELD_KIND_SEQUENCE,
		TK_FIELD_KIND_ENUM,   TK_FIELD_KIND_VARIANT, TK_FIELD_KIND_ARRAY,
		TK_FIELD_KIND_INT};
	const char *name, *label;
	size_t i, idx, nranges;
	uint64_t lo, hi;

	assert_non_null(p);
	assert_int_equal(tk_field_class_get_kind(p), TK_FIELD_KIND_STRUCT);
	assert_int_equal(tk_field_class_get_member_count(p), 16);
	for (i = 0; i < 16; i++) {
		assert_int_equal(tk_field_class_get_member(p, i, &name, &c), TK_OK);
		assert_string_equal(name, names[i]);
		assert_int_equal(tk_field_class_get_kind(c), kinds[i]);
		assert_int_equal(tk_field_class_find_member(p, names[i], &idx), TK_OK);
		assert_int_equal(idx, i);
	}
	assert_fails_with(tk_field_class_find_member(p, "nope", &idx), TK_ERR_NOTFOUND);
	assert_fails_with(tk_field_class_get_member(p, 16, &name, &c), TK_ERR_INVAL);

	/* integers: size, signedness, base */
	tk_field_class_get_member(p, 0, NULL, &c);
	assert_int_equal(tk_field_class_get_size(c), 32);
	assert_false(tk_field_class_is_signed(c));
	assert_int_equal(tk_field_class_get_base(c), 10);
	tk_field_class_get_member(p, 1, NULL, &c);
	assert_true(tk_field_class_is_signed(c));
	tk_field_class_get_member(p, 2, NULL, &c);
	assert_int_equal(tk_field_class_get_size(c), 16);
	assert_int_equal(tk_field_class_get_base(c), 16);

	/* enumeration: labels in order, ranges */
	tk_field_class_get_member(p, 3, NULL, &c);
	assert_int_equal(tk_field_class_get_size(c), 8);
	assert_int_equal(tk_field_class_get_mapping_count(c), 3);
	assert_int_equal(tk_field_class_get_mapping(c, 1, &label, &nranges), TK_OK);
	assert_string_equal(label, "LOW");
	assert_int_equal(nranges, 1);
	assert_int_equal(tk_field_class_get_mapping_range(c, 1, 0, &lo, &hi), TK_OK);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 5);
	assert_fails_with(tk_field_class_get_mapping(c, 3, &label, &nranges), TK_ERR_INVAL);
	assert_fails_with(tk_field_class_get_mapping_range(c, 1, 1, &lo, &hi), TK_ERR_INVAL);

	/* floats */
	tk_field_class_get_member(p, 4, NULL, &c);
	assert_int_equal(tk_field_class_get_size(c), 32);
	tk_field_class_get_member(p, 5, NULL, &c);
	assert_int_equal(tk_field_class_get_size(c), 64);
	assert_int_equal(tk_field_class_get_mapping_count(c), 0);

	/* string and text */
	tk_field_class_get_member(p, 6, NULL, &c);
	assert_true(tk_field_class_is_text(c));
	assert_int_equal(tk_field_class_get_size(c), 0);
	tk_field_class_get_member(p, 9, NULL, &c);
	assert_true(tk_field_class_is_text(c));
	assert_int_equal(tk_field_class_get_length(c), 4);

	/* structure in a structure */
	tk_field_class_get_member(p, 7, NULL, &c);
	assert_int_equal(tk_field_class_get_member_count(c), 2);
	assert_int_equal(tk_field_class_get_member(c, 1, &name, &e), TK_OK);
	assert_string_equal(name, "b");
	assert_int_equal(tk_field_class_get_size(e), 16);

	/* array and sequence elements */
	tk_field_class_get_member(p, 8, NULL, &c);
	assert_false(tk_field_class_is_text(c));
	assert_int_equal(tk_field_class_get_length(c), 3);
	e = tk_field_class_get_element(c);
	assert_non_null(e);
	assert_int_equal(tk_field_class_get_kind(e), TK_FIELD_KIND_INT);
	assert_int_equal(tk_field_class_get_size(e), 16);
	tk_field_class_get_member(p, 11, NULL, &c);
	assert_int_equal(tk_field_class_get_length(c), 0);
	assert_int_equal(tk_field_class_get_size(tk_field_class_get_element(c)), 32);
	assert_null(tk_field_class_get_element(p));

	/* variant options */
	tk_field_class_get_member(p, 13, NULL, &c);
	assert_int_equal(tk_field_class_get_option_count(c), 2);
	assert_int_equal(tk_field_class_get_option(c, 1, &name, &e), TK_OK);
	assert_string_equal(name, "Y");
	assert_int_equal(tk_field_class_get_kind(e), TK_FIELD_KIND_STRING);
	assert_fails_with(tk_field_class_get_option(c, 2, &name, &e), TK_ERR_INVAL);
	assert_fails_with(tk_field_class_get_option(p, 0, &name, &e), TK_ERR_INVAL);
	assert_int_equal(tk_field_class_get_option_count(p), 0);

	/* the other scopes */
	c = tk_event_class_get_field_class(ec, TK_SCOPE_EVENT_COMMON_CONTEXT);
	assert_non_null(c);
	assert_int_equal(tk_field_class_get_member(c, 0, &name, NULL), TK_OK);
	assert_string_equal(name, "ctx");
	assert_null(tk_event_class_get_field_class(ec, TK_SCOPE_EVENT_CONTEXT));
}

static void ctf_values_first_event(void **state)
{
	struct ctf_fix *fx = *state;
	const struct tk_event *ev = next_event(fx);
	struct tk_field f, g, h;
	const char *label;
	char buf[32];
	double x = 0;
	size_t opt = 9;
	uint64_t len = 0;

	assert_int_equal(tk_event_get_field(ev, TK_SCOPE_EVENT_COMMON_CONTEXT, "ctx", &f), TK_OK);
	assert_int_equal(uint_of(&f), 7);

	f = payload_field(ev, "u");
	assert_int_equal(tk_field_get_kind(&f), TK_FIELD_KIND_INT);
	assert_int_equal(uint_of(&f), 4000000000u);
	assert_int_equal(int_of(&f), 4000000000);
	f = payload_field(ev, "i");
	assert_int_equal(int_of(&f), -5);
	assert_fails_with(tk_field_get_uint(&f, &len), TK_ERR_INVAL);
	f = payload_field(ev, "h");
	assert_int_equal(uint_of(&f), 0xbeef);

	/* enumeration: value and both labels that hold 3, in class order */
	f = payload_field(ev, "en");
	assert_int_equal(uint_of(&f), 3);
	assert_int_equal(tk_field_get_enum_label(&f, 0, &label), TK_OK);
	assert_string_equal(label, "LOW");
	assert_int_equal(tk_field_get_enum_label(&f, 1, &label), TK_OK);
	assert_string_equal(label, "THREE");
	assert_int_equal(tk_field_get_enum_label(&f, 2, &label), TK_END);

	f = payload_field(ev, "f");
	assert_int_equal(tk_field_get_double(&f, &x), TK_OK);
	assert_true(x == 1.5);
	f = payload_field(ev, "d");
	assert_int_equal(tk_field_get_double(&f, &x), TK_OK);
	assert_true(x == -2.25);

	f = payload_field(ev, "s");
	assert_string_equal(text_of(&f, buf, sizeof(buf)), "hello");

	f = payload_field(ev, "inner");
	assert_int_equal(tk_field_find_member(&f, "b", &g), TK_OK);
	assert_int_equal(uint_of(&g), 513);
	assert_int_equal(tk_field_get_member(&f, 0, &g), TK_OK);
	assert_int_equal(uint_of(&g), 9);

	f = payload_field(ev, "arr");
	assert_int_equal(tk_field_get_length(&f, &len), TK_OK);
	assert_int_equal(len, 3);
	assert_int_equal(tk_field_get_element(&f, 2, &g), TK_OK);
	assert_int_equal(uint_of(&g), 65535);
	assert_int_equal(tk_field_get_element(&f, 0, &g), TK_OK);
	assert_int_equal(uint_of(&g), 1);
	assert_fails_with(tk_field_get_element(&f, 3, &g), TK_ERR_INVAL);

	f = payload_field(ev, "txt");
	assert_string_equal(text_of(&f, buf, sizeof(buf)), "ab");
	assert_fails_with(tk_field_get_length(&f, &len), TK_ERR_INVAL);

	f = payload_field(ev, "seq");
	assert_int_equal(tk_field_get_length(&f, &len), TK_OK);
	assert_int_equal(len, 3);
	assert_int_equal(tk_field_get_element(&f, 1, &g), TK_OK);
	assert_int_equal(uint_of(&g), 20);

	f = payload_field(ev, "var");
	assert_int_equal(tk_field_get_option(&f, &opt, &g), TK_OK);
	assert_int_equal(opt, 0);
	assert_int_equal(tk_field_get_kind(&g), TK_FIELD_KIND_INT);
	assert_int_equal(uint_of(&g), 42);

	/* elements of varying size: strings inside */
	f = payload_field(ev, "recs");
	assert_int_equal(tk_field_get_element(&f, 1, &g), TK_OK);
	assert_int_equal(tk_field_find_member(&g, "w", &h), TK_OK);
	assert_string_equal(text_of(&h, buf, sizeof(buf)), "yz");
	assert_int_equal(tk_field_find_member(&g, "k", &h), TK_OK);
	assert_int_equal(uint_of(&h), 2);

	f = payload_field(ev, "after");
	assert_int_equal(uint_of(&f), 99);

	/* by position: the first and the last member */
	assert_int_equal(tk_event_get_field_at(ev, TK_SCOPE_PAYLOAD, 0, &f), TK_OK);
	assert_int_equal(uint_of(&f), 4000000000u);
	assert_int_equal(tk_event_get_field_at(ev, TK_SCOPE_PAYLOAD, 15, &f), TK_OK);
	assert_int_equal(uint_of(&f), 99);
}

static void ctf_values_second_event(void **state)
{
	struct ctf_fix *fx = *state;
	const struct tk_event *ev;
	struct tk_field f, g, h;
	const char *label;
	char buf[32];
	double x = 0;
	size_t opt = 9;
	uint64_t len = 9;

	next_event(fx);
	ev = next_event(fx);
	assert_int_equal(tk_event_get_field(ev, TK_SCOPE_EVENT_COMMON_CONTEXT, "ctx", &f), TK_OK);
	assert_int_equal(uint_of(&f), 8);
	f = payload_field(ev, "i");
	assert_int_equal(int_of(&f), 2147483647);
	f = payload_field(ev, "en");
	assert_int_equal(uint_of(&f), 7);
	assert_int_equal(tk_field_get_enum_label(&f, 0, &label), TK_END);
	f = payload_field(ev, "d");
	assert_int_equal(tk_field_get_double(&f, &x), TK_OK);
	assert_true(x == 1e100);
	f = payload_field(ev, "s");
	assert_string_equal(text_of(&f, buf, sizeof(buf)), "");
	f = payload_field(ev, "txt");
	assert_string_equal(text_of(&f, buf, sizeof(buf)), "wxyz");
	f = payload_field(ev, "seq");
	assert_int_equal(tk_field_get_length(&f, &len), TK_OK);
	assert_int_equal(len, 0);
	assert_fails_with(tk_field_get_element(&f, 0, &g), TK_ERR_INVAL);
	f = payload_field(ev, "var");
	assert_int_equal(tk_field_get_option(&f, &opt, &g), TK_OK);
	assert_int_equal(opt, 1);
	assert_string_equal(text_of(&g, buf, sizeof(buf)), "opt");
	f = payload_field(ev, "recs");
	assert_int_equal(tk_field_get_element(&f, 0, &g), TK_OK);
	assert_int_equal(tk_field_find_member(&g, "w", &h), TK_OK);
	assert_string_equal(text_of(&h, buf, sizeof(buf)), "");
	assert_int_equal(tk_field_get_element(&f, 1, &g), TK_OK);
	assert_int_equal(tk_field_get_member(&g, 1, &h), TK_OK);
	assert_string_equal(text_of(&h, buf, sizeof(buf)), "long");
	/* after a shorter sequence and a string option, the last member still lines up */
	f = payload_field(ev, "after");
	assert_int_equal(uint_of(&f), 100);
	assert_int_equal(tk_iter_next(fx->it, &fx->ev), TK_END);
}

static void ctf_wrong_kinds_and_names(void **state)
{
	struct ctf_fix *fx = *state;
	const struct tk_event *ev = next_event(fx);
	struct tk_field f, g, before;
	const char *s, *label;
	size_t len, opt;
	double x;
	uint64_t u;
	int64_t i;

	f = payload_field(ev, "u");
	assert_fails_with(tk_field_get_string(&f, &s, &len), TK_ERR_INVAL);
	assert_fails_with(tk_field_get_double(&f, &x), TK_ERR_INVAL);
	assert_fails_with(tk_field_get_length(&f, &u), TK_ERR_INVAL);
	assert_fails_with(tk_field_get_element(&f, 0, &g), TK_ERR_INVAL);
	assert_fails_with(tk_field_get_member(&f, 0, &g), TK_ERR_INVAL);
	assert_fails_with(tk_field_find_member(&f, "a", &g), TK_ERR_INVAL);
	assert_fails_with(tk_field_get_enum_label(&f, 0, &label), TK_ERR_INVAL);
	assert_fails_with(tk_field_get_option(&f, &opt, &g), TK_ERR_INVAL);
	f = payload_field(ev, "s");
	assert_fails_with(tk_field_get_uint(&f, &u), TK_ERR_INVAL);
	assert_fails_with(tk_field_get_int(&f, &i), TK_ERR_INVAL);
	f = payload_field(ev, "inner");
	assert_fails_with(tk_field_find_member(&f, "c", &g), TK_ERR_NOTFOUND);
	assert_fails_with(tk_field_get_member(&f, 2, &g), TK_ERR_INVAL);

	/* a missing name or scope leaves the handle as it was */
	before = f;
	assert_fails_with(tk_event_get_field(ev, TK_SCOPE_PAYLOAD, "nope", &f), TK_ERR_NOTFOUND);
	assert_memory_equal(&f, &before, sizeof(f));
	assert_fails_with(tk_event_get_field(ev, TK_SCOPE_EVENT_CONTEXT, "u", &f), TK_ERR_NOTFOUND);
	assert_fails_with(tk_event_get_scope(ev, TK_SCOPE_PACKET_CONTEXT, &f), TK_ERR_NOTFOUND);
	assert_fails_with(tk_event_get_field_at(ev, TK_SCOPE_PAYLOAD, 16, &f), TK_ERR_INVAL);
	assert_memory_equal(&f, &before, sizeof(f));
}

/* ---- trace.dat, against trace-cmd report -R ----------------------------------------------- */

struct dat_fix {
	uint8_t *data;
	size_t size;
	struct tk_trace *trace;
};

static int dat_setup(void **state)
{
	static struct dat_fix fx;
	FILE *fp = fopen(dat_path, "rb");
	long n;

	memset(&fx, 0, sizeof(fx));
	if (!fp || fseek(fp, 0, SEEK_END) || (n = ftell(fp)) <= 0 || fseek(fp, 0, SEEK_SET))
		return -1;
	fx.size = (size_t) n;
	fx.data = malloc(fx.size);
	if (!fx.data || fread(fx.data, 1, fx.size, fp) != fx.size)
		return -1;
	fclose(fp);
	if (tk_trace_open_mem(&fx.trace, fx.data, fx.size, "field-test.dat", NULL) < 0)
		return -1;
	*state = &fx;
	return 0;
}

static int dat_teardown(void **state)
{
	struct dat_fix *fx = *state;

	tk_trace_close(fx->trace);
	free(fx->data);
	return 0;
}

/*
 * The text after "KEY=" in @line up to " NEXT=" (or the end of the line when @next is NULL),
 * in @buf.
 */
static const char *kv(const char *line, const char *key, const char *next, char *buf, size_t size)
{
	char pat[64];
	const char *p, *end;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	assert_non_null(p);
	p += strlen(pat);
	if (next) {
		snprintf(pat, sizeof(pat), " %s=", next);
		end = strstr(p, pat);
		assert_non_null(end);
	} else {
		end = p + strcspn(p, "\n");
	}
	assert_true((size_t) (end - p) < size);
	memcpy(buf, p, (size_t) (end - p));
	buf[end - p] = '\0';
	return buf;
}

/* One line of trace-cmd report -R per event of the names checked, in file order. */
struct tc_lines {
	char **line;
	size_t n;
};

static int tc_report(struct tc_lines *out, const char *event)
{
	char cmd[4096], buf[8192], pat[64];
	FILE *p;

	out->line = NULL;
	out->n = 0;
	if (system("command -v trace-cmd >/dev/null 2>&1") != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "trace-cmd report -R '%s' 2>/dev/null", dat_path);
	snprintf(pat, sizeof(pat), " %s: ", event);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(buf, sizeof(buf), p)) {
		if (!strstr(buf, pat))
			continue;
		out->line = realloc(out->line, (out->n + 1) * sizeof(*out->line));
		assert_non_null(out->line);
		out->line[out->n++] = strdup(strstr(buf, pat) + strlen(pat) - 1);
	}
	assert_int_equal(pclose(p), 0);
	return 0;
}

static void tc_free(struct tc_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
}

static void dat_source_is_named(void **state)
{
	struct dat_fix *fx = *state;
	const struct tk_source *src = tk_trace_get_source(fx->trace, 0);

	assert_int_equal(tk_trace_get_source_count(fx->trace), 1);
	assert_string_equal(tk_source_get_path(src), "field-test.dat");
}

static void dat_open_mem_refuses_other_bytes(void **state)
{
	static const uint8_t junk[64] = "not a trace.dat file";
	struct tk_trace *t = NULL;
	size_t i;
	int named = 0;

	(void) state;
	assert_true(tk_trace_open_mem(&t, junk, sizeof(junk), "junk-name", NULL) < 0);
	assert_null(t);
	for (i = 0; i < tk_error_count(); i++)
		named |= strstr(tk_error_cause(i), "junk-name") != NULL;
	assert_true(named);
}

/* Each event of @fx named @name in order, with @check run against the matching line. */
static void each_event(struct dat_fix *fx, const char *name,
		       void (*check)(const struct tk_event *ev, const char *line))
{
	struct tc_lines tc;
	struct tk_iter *it;
	const struct tk_event *ev;
	size_t n = 0;
	enum tk_status st;

	if (tc_report(&tc, name) < 0)
		skip();
	assert_true(tc.n > 0);
	assert_int_equal(tk_iter_create(&it, fx->trace), TK_OK);
	while ((st = tk_iter_next(it, &ev)) == TK_OK) {
		const char *en = tk_event_class_get_name(tk_event_get_class(ev));

		if (!en || strcmp(en, name))
			continue;
		assert_true(n < tc.n);
		check(ev, tc.line[n++]);
	}
	assert_int_equal(st, TK_END);
	assert_int_equal(n, tc.n);
	tk_iter_destroy(it);
	tc_free(&tc);
}

static void check_sched_switch(const struct tk_event *ev, const char *line)
{
	static const char *const keys[] = {"prev_comm", "prev_pid", "prev_prio", "prev_state",
					   "next_comm", "next_pid", "next_prio", NULL};
	char want[64], got[64];
	struct tk_field f;
	size_t i;

	for (i = 0; keys[i]; i++) {
		kv(line, keys[i], keys[i + 1], want, sizeof(want));
		f = payload_field(ev, keys[i]);
		if (strstr(keys[i], "comm")) {
			assert_int_equal(tk_field_get_kind(&f), TK_FIELD_KIND_ARRAY);
			text_of(&f, got, sizeof(got));
		} else {
			assert_int_equal(tk_field_get_kind(&f), TK_FIELD_KIND_INT);
			assert_true(tk_field_class_is_signed(tk_field_get_class(&f)));
			snprintf(got, sizeof(got), "%lld", (long long) int_of(&f));
		}
		assert_string_equal(got, want);
	}
	/* the CPU is the packet context of a trace.dat event */
	assert_int_equal(tk_event_get_field(ev, TK_SCOPE_PACKET_CONTEXT, "cpu_id", &f), TK_OK);
	assert_int_equal(uint_of(&f), (uint64_t) tk_event_get_cpu(ev));
	assert_fails_with(tk_event_get_field(ev, TK_SCOPE_PAYLOAD, "common_pid", &f),
			  TK_ERR_NOTFOUND);
	assert_fails_with(tk_event_get_scope(ev, TK_SCOPE_EVENT_CONTEXT, &f), TK_ERR_NOTFOUND);
	f = payload_field(ev, "prev_comm");
	assert_fails_with(tk_field_get_int(&f, &(int64_t){0}), TK_ERR_INVAL);
	assert_fails_with(tk_field_get_element(&f, 0, &f), TK_ERR_INVAL);
}

static void dat_sched_switch(void **state)
{
	each_event(*state, "sched_switch", check_sched_switch);
}

/* args=ARRAY[e4, 38, ...]: trace-cmd prints an array of longs as its bytes, in file order. */
static void check_sys_enter(const struct tk_event *ev, const char *line)
{
	char want[512];
	struct tk_field f, e;
	const char *p;
	uint64_t len = 0, k;

	kv(line, "id", "args", want, sizeof(want));
	f = payload_field(ev, "id");
	assert_int_equal(int_of(&f), strtoll(want, NULL, 10));
	kv(line, "args", NULL, want, sizeof(want));
	assert_memory_equal(want, "ARRAY[", 6);
	p = want + 6;
	f = payload_field(ev, "args");
	assert_int_equal(tk_field_get_kind(&f), TK_FIELD_KIND_ARRAY);
	assert_int_equal(tk_field_get_length(&f, &len), TK_OK);
	assert_int_equal(len, 6);
	for (k = 0; k < len; k++) {
		uint64_t v = 0;
		int b;

		for (b = 0; b < 8; b++) { /* the file is little-endian */
			char *end;

			v |= (uint64_t) strtoul(p, &end, 16) << (8 * b);
			p = end + strspn(end, ", ");
		}
		assert_int_equal(tk_field_get_element(&f, k, &e), TK_OK);
		assert_int_equal(tk_field_class_get_size(tk_field_get_class(&e)), 64);
		assert_int_equal(uint_of(&e), v);
	}
	assert_string_equal(p, "]");
}

static void dat_sys_enter(void **state)
{
	each_event(*state, "sys_enter", check_sys_enter);
}

static void check_irq_entry(const struct tk_event *ev, const char *line)
{
	char want[128], got[128];
	struct tk_field f;

	kv(line, "irq", "name", want, sizeof(want));
	f = payload_field(ev, "irq");
	snprintf(got, sizeof(got), "%lld", (long long) int_of(&f));
	assert_string_equal(got, want);
	kv(line, "name", NULL, want, sizeof(want));
	f = payload_field(ev, "name");
	assert_int_equal(tk_field_get_kind(&f), TK_FIELD_KIND_STRING);
	assert_string_equal(text_of(&f, got, sizeof(got)), want);
}

static void dat_irq_handler_entry(void **state)
{
	each_event(*state, "irq_handler_entry", check_irq_entry);
}

/*
 * ---- CTF: the CPU of an event, from a cpu_id the packet context keeps after a sequence ----
 *
 * Two streams of one class, a packet each, no clock: the packet context's sequence before
 * cpu_id is empty in the first and two bytes long in the second, so where cpu_id lies depends
 * on the data. Expected by hand from the bytes.
 */
static const char cpu_metadata[] =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"trace { major = 1; minor = 8; byte_order = le; };\n"
	"stream { packet.context := struct { uint8_t n; uint8_t skip[n]; uint32_t cpu_id; }; };\n"
	"event { name = e; fields := struct { uint8_t x; }; };\n";
static const uint8_t cpu_stream_a[] = {0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x02}; /* cpu 3 */
static const uint8_t cpu_stream_b[] = {0x02, 0xaa, 0xbb, 0x05, 0x00, 0x00, 0x00, 0x07};

static void ctf_cpu_after_a_sequence(void **state)
{
	const uint8_t *streams[2] = {cpu_stream_a, cpu_stream_b};
	size_t sizes[2] = {sizeof(cpu_stream_a), sizeof(cpu_stream_b)};
	struct tk_filter_opts fo = TK_FILTER_OPTS_INIT;
	const unsigned int five[] = {5};
	struct tk_trace trace = {0};
	struct tk_source *src = NULL;
	struct tk_filter *filter = NULL;
	struct tk_iter *it = NULL;
	const struct tk_event *ev;
	int cpus[4], xs[4], kept[4], keep;
	size_t n = 0;

	(void) state;
	assert_int_equal(ctf_source_open_mem(&src, (const uint8_t *) cpu_metadata,
					     strlen(cpu_metadata), streams, sizes, 2),
			 TK_OK);
	trace.sources = &src;
	trace.n_sources = 1;
	assert_int_equal(model_trace_finish(&trace), TK_OK);
	fo.cpus = five;
	fo.n_cpus = 1;
	assert_int_equal(tk_filter_create(&filter, &trace, &fo), TK_OK);
	assert_int_equal(tk_iter_create(&it, &trace), TK_OK);
	while (n < 4 && tk_iter_next(it, &ev) == TK_OK) {
		struct tk_field f = payload_field(ev, "x");

		cpus[n] = tk_event_get_cpu(ev);
		xs[n] = (int) uint_of(&f);
		assert_int_equal(tk_filter_match(filter, ev, &keep), TK_OK);
		kept[n++] = keep;
	}
	assert_int_equal(n, 3);
	/* stream a, then stream b (no clock: the order of the streams) */
	assert_int_equal(xs[0], 1);
	assert_int_equal(cpus[0], 3);
	assert_int_equal(kept[0], 0);
	assert_int_equal(xs[1], 2);
	assert_int_equal(cpus[1], 3);
	assert_int_equal(kept[1], 0);
	assert_int_equal(xs[2], 7);
	assert_int_equal(cpus[2], 5);
	assert_int_equal(kept[2], 1);
	tk_iter_destroy(it);
	tk_filter_destroy(filter);
	free(trace.streams);
	free(trace.ecs);
	ctf_source_destroy(src);
}

/*
 * Print fmts compile on first use: opening the gen-dat file and printing one record compiles
 * that record's format only, not one per format of the file (issue: a `-e all` file holds
 * 2,000 formats and events of a few dozen).
 */
static void dat_print_fmts_compile_when_used(void **state)
{
	struct dat_fix *fx = *state;
	struct tk_trace *t = NULL;
	const struct tk_event *ev;
	struct ftrace_ctx *ctx;
	struct tk_iter *it = NULL;
	struct writer w;
	int fd = open("/dev/null", O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(tk_trace_open_mem(&t, fx->data, fx->size, "lazy.dat", NULL), TK_OK);
	ctx = tracedat_source_ftrace(t->sources[0]);
	assert_true(ctx->n_events >= 10);
	assert_int_equal(ctx->n_print_compiled, 0);
	assert_int_equal(tk_iter_create(&it, t), TK_OK);
	assert_int_equal(tk_iter_next(it, &ev), TK_OK);
	assert_int_equal(ctx->n_print_compiled, 0); /* reading decodes nothing */
	assert_int_equal(writer_init(&w, fd, 4096), TK_OK);
	(void) t->sources[0]->ops->text->event(ev, NULL, 0, &w);
	assert_true(w.len > 0);
	assert_int_equal(ctx->n_print_compiled, 1);
	(void) t->sources[0]->ops->text->event(ev, NULL, 0, &w);
	assert_int_equal(ctx->n_print_compiled, 1); /* once */
	writer_fini(&w);
	close(fd);
	tk_iter_destroy(it);
	tk_trace_close(t);
}

/*
 * Formats are read past their ID when an event of theirs is first met (issue: a `-e all` file
 * holds 2,300 formats and events of a few dozen). A lazy open (tk_print()'s) of the gen-dat
 * file reads one format whole, the first, whose common fields give the layout of every
 * record; reading records then reads the formats of the classes met besides (and of the
 * records the time merge holds, one per other CPU). A library open reads them all.
 */
static void dat_formats_read_when_met(void **state)
{
	const char *paths[] = {dat_path};
	const struct tk_event_class *met[3];
	size_t n_met = 0, i, first_met = 0, pending = 0, n_events;
	struct tk_trace *t = NULL;
	struct ftrace_ctx *ctx;
	struct tk_iter *it = NULL;
	const struct tk_event *ev;

	(void) state;
	assert_int_equal(pipeline_trace_open(&t, paths, 1, NULL, 1), TK_OK);
	ctx = tracedat_source_ftrace(t->sources[0]);
	n_events = ctx->n_events;
	assert_true(n_events >= 10);
	assert_int_equal(ctx->n_formats_loaded, 1);
	assert_int_equal(ctx->events[0]->pending, 0);
	for (i = 1; i < n_events; i++)
		assert_int_equal(ctx->events[i]->pending, 1);
	for (i = 0; i < t->n_ecs; i++)
		pending += t->ecs[i]->pending;
	assert_int_equal(pending, n_events); /* not the class of unknown events */
	assert_int_equal(tk_iter_create(&it, t), TK_OK);
	for (i = 0; i < 3 && tk_iter_next(it, &ev) == TK_OK; i++) {
		const struct tk_event_class *ec = tk_event_get_class(ev);
		size_t k;

		assert_int_equal(ec->pending, 0);
		assert_non_null(tk_event_class_get_field_class(ec, TK_SCOPE_PAYLOAD));
		for (k = 0; k < n_met && met[k] != ec; k++)
			;
		if (k == n_met) {
			met[n_met++] = ec;
			first_met |= ec->fmt == ctx->events[0];
		}
		/* and those of the records the merge holds, one per other CPU at most */
		assert_true(ctx->n_formats_loaded >= n_met + !first_met);
		assert_true(ctx->n_formats_loaded <= n_met + !first_met + t->n_streams - 1);
	}
	assert_int_equal(i, 3);
	tk_iter_destroy(it);
	tk_trace_close(t);

	assert_int_equal(tk_trace_open(&t, paths, 1, NULL), TK_OK);
	ctx = tracedat_source_ftrace(t->sources[0]);
	assert_int_equal(ctx->n_formats_loaded, ctx->n_events);
	for (i = 0; i < t->n_ecs; i++)
		assert_int_equal(t->ecs[i]->pending, 0);
	tk_trace_close(t);
}

/* The events of a full read: times and streams, in order. */
struct ev_list {
	int64_t ns[1024];
	size_t stream[1024];
	size_t n;
};

static void read_events(struct tk_trace *t, int64_t begin, int64_t end, int windowed,
			struct ev_list *out)
{
	struct tk_iter *it;
	const struct tk_event *ev;
	enum tk_status st;

	out->n = 0;
	assert_int_equal(tk_iter_create(&it, t), TK_OK);
	if (windowed)
		tk_iter_set_window(it, begin, end);
	while ((st = tk_iter_next(it, &ev)) == TK_OK) {
		int64_t ns = tk_event_get_timestamp(ev);

		if (!windowed && (ns < begin || ns > end))
			continue;
		assert_true(out->n < 1024);
		out->ns[out->n] = ns;
		out->stream[out->n++] = tk_stream_get_index(tk_event_get_stream(ev));
	}
	assert_int_equal(st, TK_END);
	/* too late to set a window: nothing changes */
	tk_iter_set_window(it, 0, 0);
	assert_int_equal(tk_iter_next(it, &ev), TK_END);
	tk_iter_destroy(it);
}

/* tk_iter_set_window(): the events of a full read in the window, in the same order. */
static void dat_window_is_a_filtered_full_read(void **state)
{
	struct dat_fix *fx = *state;
	static struct ev_list all, want, got;
	int64_t w[5][2];

	read_events(fx->trace, INT64_MIN, INT64_MAX, 0, &all);
	assert_true(all.n >= 400);
	w[0][0] = all.ns[100], w[0][1] = all.ns[250];
	w[1][0] = all.ns[0], w[1][1] = all.ns[0];
	w[2][0] = INT64_MIN, w[2][1] = all.ns[50];
	w[3][0] = all.ns[all.n - 10], w[3][1] = INT64_MAX;
	w[4][0] = all.ns[all.n - 1] + 1, w[4][1] = INT64_MAX; /* after the last event */
	for (int k = 0; k < 5; k++) {
		read_events(fx->trace, w[k][0], w[k][1], 0, &want);
		read_events(fx->trace, w[k][0], w[k][1], 1, &got);
		assert_int_equal(got.n, want.n);
		assert_memory_equal(got.ns, want.ns, want.n * sizeof(want.ns[0]));
		assert_memory_equal(got.stream, want.stream, want.n * sizeof(want.stream[0]));
		assert_true(k == 4 || want.n > 0);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest ctf[] = {
		cmocka_unit_test_setup_teardown(ctf_classes, ctf_setup, ctf_teardown),
		cmocka_unit_test_setup_teardown(ctf_values_first_event, ctf_setup, ctf_teardown),
		cmocka_unit_test_setup_teardown(ctf_values_second_event, ctf_setup, ctf_teardown),
		cmocka_unit_test_setup_teardown(ctf_wrong_kinds_and_names, ctf_setup, ctf_teardown),
		cmocka_unit_test(ctf_cpu_after_a_sequence),
	};
	const struct CMUnitTest dat[] = {
		cmocka_unit_test(dat_source_is_named),
		cmocka_unit_test(dat_print_fmts_compile_when_used),
		cmocka_unit_test(dat_formats_read_when_met),
		cmocka_unit_test(dat_open_mem_refuses_other_bytes),
		cmocka_unit_test(dat_sched_switch),
		cmocka_unit_test(dat_sys_enter),
		cmocka_unit_test(dat_irq_handler_entry),
		cmocka_unit_test(dat_window_is_a_filtered_full_read),
	};
	int rc;

	if (argc < 2) {
		fprintf(stderr, "usage: test-field GEN-DAT-FILE\n");
		return 1;
	}
	dat_path = argv[1];
	rc = cmocka_run_group_tests_name("ctf", ctf, NULL, NULL);
	rc |= cmocka_run_group_tests_name("tracedat", dat, dat_setup, dat_teardown);
	return rc;
}
