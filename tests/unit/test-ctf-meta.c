// SPDX-License-Identifier: MIT
/*
 * Unit tests of CTF 1.8 metadata semantics (src/ctf/ctf-meta.c and ctf-resolve.c), driven
 * through ctf_meta_build() on small metadata texts.
 *
 * Each test checks the model built from one construct against the rules of CTF 1.8.3 and the
 * reference notes (ctf.md): integer attributes and their defaults, `native` byte order,
 * enumeration values, one leading underscore dropped from field names, sequences and variants
 * resolved to earlier fields, clock offsets, the implicit `default` clock; and that malformed
 * metadata is refused with a cause. Decoding is tested in test-ctf-prog.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/error.h"
#include "ctf-fixture.h"
#include "ctf/ctf-fc-priv.h"

static const struct model_enum_mapping *mapping(const struct model_fc *en, const char *label)
{
	uint32_t i;

	assert_int_equal(en->kind, MODEL_FC_ENUM);
	for (i = 0; i < en->u.en.count; i++)
		if (!strcmp(en->u.en.maps[i].label, label))
			return &en->u.en.maps[i];
	print_error("no mapping labelled \"%s\"\n", label);
	fail();
	return NULL;
}

static void check_range_u(const struct model_enum_mapping *m, uint32_t i, uint64_t lo, uint64_t hi)
{
	assert_true(i < m->nranges);
	assert_int_equal(m->ranges[i].lo.u, lo);
	assert_int_equal(m->ranges[i].hi.u, hi);
}

static void check_range_i(const struct model_enum_mapping *m, uint32_t i, int64_t lo, int64_t hi)
{
	assert_true(i < m->nranges);
	assert_int_equal(m->ranges[i].lo.i, lo);
	assert_int_equal(m->ranges[i].hi.i, hi);
}

/* ---- the model: integers, floats, strings -------------------------------------------------- */

static void test_integer_attributes_and_defaults(void **state)
{
	struct model_fc *p, *fc;
	const struct model_member *mb;

	(void) state;
	build_ok(INTS TRACE_LE EVENT(
		"integer { size = 16; } a;"
		"integer { size = 5; } b;"
		"integer { size = 3; signed = true; byte_order = be; } c;"
		"integer { size = 32; byte_order = native; base = hex; } d;"
		"integer { size = 8; encoding = UTF8; base = 8; } _e;"
		"integer { size = 64; align = 32; base = 2; } __f;"
		"integer { size = 12; byte_order = network; signed = 1; base = x; } g;"
		"integer { size = 24; signed = TRUE; base = decimal; encoding = ASCII; } h;"));
	p = payload();
	assert_int_equal(p->u.st.count, 8);

	fc = member(p, "a");
	assert_int_equal(fc->kind, MODEL_FC_INT);
	assert_int_equal(fc->size, 16);
	assert_int_equal(fc->align, 8); /* size % 8 == 0 */
	assert_int_equal(fc->byte_order, TK_BYTE_ORDER_LE);
	assert_int_equal(fc->is_signed, 0);
	assert_int_equal(fc->base, 10);
	assert_int_equal(fc->encoding, MODEL_ENCODING_NONE);

	fc = member(p, "b");
	assert_int_equal(fc->size, 5);
	assert_int_equal(fc->align, 1); /* size % 8 != 0 */

	fc = member(p, "c");
	assert_int_equal(fc->is_signed, 1);
	assert_int_equal(fc->byte_order, TK_BYTE_ORDER_BE);
	assert_int_equal(fc->align, 1);

	fc = member(p, "d");
	assert_int_equal(fc->byte_order, TK_BYTE_ORDER_LE); /* native = the trace's */
	assert_int_equal(fc->base, 16);

	/* one leading underscore is dropped from the shown name, not from the written one */
	mb = member_entry(p, "e");
	assert_string_equal(mb->orig_name, "_e");
	assert_int_equal(mb->fc->encoding, MODEL_ENCODING_UTF8);
	assert_int_equal(mb->fc->base, 8);
	mb = member_entry(p, "_f");
	assert_string_equal(mb->orig_name, "__f");
	assert_int_equal(mb->fc->align, 32);
	assert_int_equal(mb->fc->size, 64);
	assert_int_equal(mb->fc->base, 2);

	fc = member(p, "g");
	assert_int_equal(fc->byte_order, TK_BYTE_ORDER_BE); /* network = be */
	assert_int_equal(fc->is_signed, 1);
	assert_int_equal(fc->base, 16);

	fc = member(p, "h");
	assert_int_equal(fc->is_signed, 1);
	assert_int_equal(fc->base, 10);
	assert_int_equal(fc->align, 8);
	assert_true(fc->encoding != MODEL_ENCODING_NONE);

	/* a structure is aligned like its most aligned member */
	assert_int_equal(p->align, 32);
}

static void test_native_byte_order_follows_big_endian_trace(void **state)
{
	struct model_fc *p;

	(void) state;
	build_ok(INTS TRACE_BE EVENT("uint32_t a;"
				     "integer { size = 16; byte_order = native; } b;"
				     "integer { size = 16; byte_order = le; } c;"
				     "floating_point { exp_dig = 8; mant_dig = 24; } f;"));
	p = payload();
	assert_int_equal(trace_of()->bo, TK_BYTE_ORDER_BE);
	/* the alias was declared without a byte order: it takes the trace's */
	assert_int_equal(member(p, "a")->byte_order, TK_BYTE_ORDER_BE);
	assert_int_equal(member(p, "b")->byte_order, TK_BYTE_ORDER_BE);
	assert_int_equal(member(p, "c")->byte_order, TK_BYTE_ORDER_LE);
	assert_int_equal(member(p, "f")->byte_order, TK_BYTE_ORDER_BE);
}

static void test_floats_and_strings(void **state)
{
	struct model_fc *p, *fc;

	(void) state;
	build_ok(INTS TRACE_LE EVENT(
		"floating_point { exp_dig = 8; mant_dig = 24; } f32;"
		"floating_point { exp_dig = 11; mant_dig = 53; align = 64; byte_order = be; } f64;"
		"string s;"
		"string { encoding = ASCII; } s2;"));
	p = payload();
	fc = member(p, "f32");
	assert_int_equal(fc->kind, MODEL_FC_FLOAT);
	assert_int_equal(fc->size, 32);
	assert_int_equal(fc->align, 8);
	assert_int_equal(fc->byte_order, TK_BYTE_ORDER_LE);
	fc = member(p, "f64");
	assert_int_equal(fc->size, 64);
	assert_int_equal(fc->align, 64);
	assert_int_equal(fc->byte_order, TK_BYTE_ORDER_BE);
	fc = member(p, "s");
	assert_int_equal(fc->kind, MODEL_FC_STRING);
	assert_int_equal(fc->align, 8);
	assert_int_equal(fc->encoding, MODEL_ENCODING_UTF8);
	assert_int_equal(member(p, "s2")->kind, MODEL_FC_STRING);
	assert_true(member(p, "s2")->encoding != MODEL_ENCODING_NONE);
}

/* ---- enumerations -------------------------------------------------------------------------- */

static void test_enum_implicit_values_and_ranges(void **state)
{
	struct model_fc *p, *en;
	const struct model_enum_mapping *m;

	(void) state;
	/*
	 * A value-less entry is the previous end + 1, starting at 0: A = 0, B = 1, C = 10,
	 * D = 11, E = 20 ... 30, F = 31, G = 5; A appears again with 40, adding a second range.
	 */
	build_ok(INTS TRACE_LE EVENT(
		"enum : uint8_t { A, B, C = 10, D, E = 20 ... 30, F, G = 5, A = 40 } e1;"
		"enum : int8_t { N = -5 ... -1, Z, \"P q\" = 3 } e2;"));
	p = payload();
	en = member(p, "e1");
	assert_int_equal(en->kind, MODEL_FC_ENUM);
	assert_int_equal(en->size, 8);
	assert_int_equal(en->is_signed, 0);
	assert_int_equal(en->u.en.count, 7);
	m = mapping(en, "A");
	assert_int_equal(m->nranges, 2);
	check_range_u(m, 0, 0, 0);
	check_range_u(m, 1, 40, 40);
	check_range_u(mapping(en, "B"), 0, 1, 1);
	check_range_u(mapping(en, "C"), 0, 10, 10);
	check_range_u(mapping(en, "D"), 0, 11, 11);
	check_range_u(mapping(en, "E"), 0, 20, 30);
	check_range_u(mapping(en, "F"), 0, 31, 31);
	check_range_u(mapping(en, "G"), 0, 5, 5);

	/* signed container: negative ranges, then -1 + 1 = 0 */
	en = member(p, "e2");
	assert_int_equal(en->is_signed, 1);
	assert_int_equal(en->u.en.count, 3);
	check_range_i(mapping(en, "N"), 0, -5, -1);
	check_range_i(mapping(en, "Z"), 0, 0, 0);
	check_range_i(mapping(en, "P q"), 0, 3, 3);
}

static void test_named_enum_and_default_int_container(void **state)
{
	struct model_fc *p, *en;

	(void) state;
	/* without a container type, an enumeration uses the `int` alias declared before */
	build_ok(INTS "typealias integer { size = 32; signed = true; } := int;\n"
		      "enum color { RED, GREEN = 4, BLUE };\n" TRACE_LE EVENT(
			      "enum color c; enum color d;"));
	p = payload();
	en = member(p, "c");
	assert_int_equal(en->kind, MODEL_FC_ENUM);
	assert_int_equal(en->size, 32);
	assert_int_equal(en->is_signed, 1);
	check_range_i(mapping(en, "RED"), 0, 0, 0);
	check_range_i(mapping(en, "GREEN"), 0, 4, 4);
	check_range_i(mapping(en, "BLUE"), 0, 5, 5);
	/* each use owns its copy */
	assert_true(member(p, "c") != member(p, "d"));
}

/* ---- arrays, sequences, variants ----------------------------------------------------------- */

static void test_arrays_text_and_sequences(void **state)
{
	struct model_fc *p, *fc, *len;

	(void) state;
	build_ok(INTS TRACE_LE "env { big = 5; name = \"x\"; };\n" EVENT(
		"uint8_t arr[4];"
		"integer { size = 8; encoding = UTF8; } txt[5];"
		"uint8_t m[2][3];"
		"uint32_t _len;"
		"uint16_t seq[_len];"
		"integer { size = 8; encoding = UTF8; } tseq[_len];"
		"uint32_t __x_length;"
		"int32_t _x[__x_length];"
		"uint8_t abs[event.fields._len];"
		"uint8_t envarr[env.big];"));
	p = payload();

	fc = member(p, "arr");
	assert_int_equal(fc->kind, MODEL_FC_ARRAY);
	assert_int_equal(fc->u.arr.length, 4);
	assert_int_equal(fc->u.arr.elem->kind, MODEL_FC_INT);
	assert_int_equal(fc->u.arr.elem->size, 8);
	assert_int_equal(fc->is_text, 0); /* no encoding: numbers */
	assert_int_equal(fc->align, 8);

	fc = member(p, "txt");
	assert_int_equal(fc->kind, MODEL_FC_ARRAY);
	assert_int_equal(fc->u.arr.length, 5);
	assert_int_equal(fc->is_text, 1);

	/* m[2][3] is two arrays of three */
	fc = member(p, "m");
	assert_int_equal(fc->kind, MODEL_FC_ARRAY);
	assert_int_equal(fc->u.arr.length, 2);
	assert_int_equal(fc->u.arr.elem->kind, MODEL_FC_ARRAY);
	assert_int_equal(fc->u.arr.elem->u.arr.length, 3);
	assert_int_equal(fc->u.arr.elem->u.arr.elem->kind, MODEL_FC_INT);

	/* sequences point at their length field and the length gets a stored slot */
	len = member(p, "len");
	fc = member(p, "seq");
	assert_int_equal(fc->kind, MODEL_FC_SEQUENCE);
	assert_ptr_equal(fc->u.arr.length_fc, len);
	assert_int_equal(fc->u.arr.elem->size, 16);
	assert_true(ctf_fc_store(len) >= 0);
	assert_true((uint32_t) ctf_fc_store(len) < trace_of()->n_stored);
	fc = member(p, "tseq");
	assert_int_equal(fc->kind, MODEL_FC_SEQUENCE);
	assert_int_equal(fc->is_text, 1);
	assert_ptr_equal(fc->u.arr.length_fc, len);

	/* the LTTng pattern: __x_length is shown as _x_length, _x as x */
	fc = member(p, "x");
	assert_int_equal(fc->kind, MODEL_FC_SEQUENCE);
	assert_ptr_equal(fc->u.arr.length_fc, member(p, "_x_length"));

	/* an absolute path reaches the same field */
	assert_ptr_equal(member(p, "abs")->u.arr.length_fc, len);

	/* [env.KEY] is a static array sized by the environment */
	fc = member(p, "envarr");
	assert_int_equal(fc->kind, MODEL_FC_ARRAY);
	assert_int_equal(fc->u.arr.length, 5);
	assert_int_equal(src.n_env, 2);
}

static void test_sequence_length_in_enclosing_structure(void **state)
{
	struct model_fc *p, *inner;

	(void) state;
	/* a relative path searches the enclosing structures outward */
	build_ok(INTS TRACE_LE EVENT("uint8_t n; struct { uint8_t s[n]; } in;"
				     "struct { uint8_t k; } h; uint8_t t[h.k];"));
	p = payload();
	inner = member(p, "in");
	assert_ptr_equal(member(inner, "s")->u.arr.length_fc, member(p, "n"));
	assert_ptr_equal(member(p, "t")->u.arr.length_fc, member(member(p, "h"), "k"));
}

static void test_variant_options_and_selection_ranges(void **state)
{
	struct model_fc *p, *v, *tag;
	const struct model_variant_range *r;

	(void) state;
	build_ok(INTS TRACE_LE EVENT("enum : uint8_t { A, B, C = 5 ... 7, D } tag;"
				     "variant <tag> { uint8_t A; uint16_t B; string C; } v;"
				     "variant <tag> { string C; uint8_t A; } w;"));
	p = payload();
	tag = member(p, "tag");
	v = member(p, "v");
	assert_int_equal(v->kind, MODEL_FC_VARIANT);
	assert_int_equal(v->u.var.count, 3);
	assert_ptr_equal(v->u.var.tag, tag);
	assert_true(ctf_fc_store(tag) >= 0);
	assert_string_equal(v->u.var.options[0].name, "A");
	assert_int_equal(v->u.var.options[1].fc->size, 16);
	assert_int_equal(v->u.var.options[2].fc->kind, MODEL_FC_STRING);
	/* A = 0 selects option 0, B = 1 option 1, C = 5...7 option 2; D selects nothing */
	assert_int_equal(v->u.var.nranges, 3);
	r = v->u.var.ranges;
	assert_int_equal(r[0].lo.u, 0);
	assert_int_equal(r[0].hi.u, 0);
	assert_int_equal(r[0].option, 0);
	assert_int_equal(r[1].lo.u, 1);
	assert_int_equal(r[1].option, 1);
	assert_int_equal(r[2].lo.u, 5);
	assert_int_equal(r[2].hi.u, 7);
	assert_int_equal(r[2].option, 2);

	/* options in another order: ranges stay sorted by value, options follow the labels */
	v = member(p, "w");
	assert_int_equal(v->u.var.nranges, 2);
	r = v->u.var.ranges;
	assert_int_equal(r[0].lo.u, 0);
	assert_int_equal(r[0].option, 1); /* A is the second option */
	assert_int_equal(r[1].lo.u, 5);
	assert_int_equal(r[1].option, 0); /* C is the first */
}

static void test_variant_with_signed_tag_and_named_variant(void **state)
{
	struct model_fc *p, *v;
	const struct model_variant_range *r;

	(void) state;
	build_ok(INTS "variant opt { uint8_t POS; uint32_t NEG; };\n" TRACE_LE EVENT(
		"enum : int8_t { NEG = -10 ... -1, POS = 0 ... 10 } t;"
		"variant opt <t> v;"));
	p = payload();
	v = member(p, "v");
	assert_int_equal(v->kind, MODEL_FC_VARIANT);
	assert_ptr_equal(v->u.var.tag, member(p, "t"));
	assert_int_equal(v->u.var.nranges, 2);
	r = v->u.var.ranges;
	/* sorted as signed values: -10 comes first */
	assert_int_equal(r[0].lo.i, -10);
	assert_int_equal(r[0].hi.i, -1);
	assert_int_equal(r[0].option, 1);
	assert_int_equal(r[1].lo.i, 0);
	assert_int_equal(r[1].hi.i, 10);
	assert_int_equal(r[1].option, 0);
}

static void test_typedef_array_and_pointer_alias(void **state)
{
	struct model_fc *p, *fc;

	(void) state;
	build_ok(INTS "typealias integer { size = 64; } := void *;\n" TRACE_LE
		      "typedef uint8_t mac_t[6];\n" EVENT("mac_t m; void *ptr;"));
	p = payload();
	/* a typedef with a dimension names an array type */
	fc = member(p, "m");
	assert_int_equal(fc->kind, MODEL_FC_ARRAY);
	assert_int_equal(fc->u.arr.length, 6);
	assert_int_equal(fc->u.arr.elem->size, 8);
	/* a pointer declarator names the "void *" alias, shown in hexadecimal */
	fc = member(p, "ptr");
	assert_int_equal(fc->kind, MODEL_FC_INT);
	assert_int_equal(fc->size, 64);
	assert_int_equal(fc->base, 16);
}

/* ---- streams, events, clocks --------------------------------------------------------------- */

static void test_stream_and_event_classes(void **state)
{
	struct model_stream_class *sc1, *sc2;
	const struct ctf_trace *ct;

	(void) state;
	build_ok(INTS "trace { major = 1; minor = 8; byte_order = le;\n"
		      "  uuid = \"0123abcd-ef01-2345-6789-abcdef012345\";\n"
		      "  packet.header := struct { uint32_t magic; uint8_t stream_id; }; };\n"
		      "stream { id = 2; event.header := struct { uint8_t id; }; };\n"
		      "stream { id = 1; };\n"
		      "event { name = \"b\"; id = 5; stream_id = 2; loglevel = 13; };\n"
		      "event { name = \"a\"; id = 3; stream_id = 2; model.emf.uri = \"u\"; };\n"
		      "event { name = \"c\"; stream_id = 1; };\n");
	ct = trace_of();
	assert_int_equal(src.has_uuid, 1);
	assert_int_equal(src.uuid[0], 0x01);
	assert_int_equal(src.uuid[3], 0xCD);
	assert_int_equal(src.uuid[15], 0x45);
	/* stream classes sorted by id, event classes by id */
	assert_int_equal(src.n_scs, 2);
	sc1 = src.scs[0];
	sc2 = src.scs[1];
	assert_int_equal(sc1->id, 1);
	assert_int_equal(sc2->id, 2);
	assert_int_equal(sc2->n_ecs, 2);
	assert_int_equal(sc2->ecs[0]->id, 3);
	assert_string_equal(sc2->ecs[0]->name, "a");
	assert_string_equal(sc2->ecs[0]->emf_uri, "u");
	assert_int_equal(sc2->ecs[1]->id, 5);
	assert_string_equal(sc2->ecs[1]->name, "b");
	assert_int_equal(sc2->ecs[1]->has_loglevel, 1);
	assert_int_equal(sc2->ecs[1]->loglevel, 13);
	assert_ptr_equal(sc2->ecs[1]->sc, sc2);
	assert_int_equal(sc1->n_ecs, 1);
	assert_string_equal(sc1->ecs[0]->name, "c");
	assert_int_equal(sc1->ecs[0]->id, 0);
	assert_ptr_equal(model_stream_class_find_ec(sc2, 5), sc2->ecs[1]);
	assert_null(model_stream_class_find_ec(sc2, 4));
	/* fields with a meaning */
	assert_int_equal(ctf_fc_meaning(member(ct->packet_header, "magic")), CTF_MEANING_MAGIC);
	assert_int_equal(ctf_fc_meaning(member(ct->packet_header, "stream_id")),
			 CTF_MEANING_STREAM_CLASS_ID);
	assert_int_equal(ctf_fc_meaning(member(sc2->event_header, "id")),
			 CTF_MEANING_EVENT_CLASS_ID);
}

static void test_single_event_gets_stream_zero(void **state)
{
	(void) state;
	build_ok(INTS TRACE_LE "event { name = only; };\n");
	assert_int_equal(src.n_scs, 1);
	assert_int_equal(src.scs[0]->id, 0);
	assert_int_equal(src.scs[0]->n_ecs, 1);
	assert_string_equal(src.scs[0]->ecs[0]->name, "only");
	assert_null(src.scs[0]->ecs[0]->payload);
	assert_int_equal(src.n_clocks, 0);
}

static void test_clock_attributes_and_offset_normalisation(void **state)
{
	struct tk_clock *c;
	struct model_stream_class *sc;

	(void) state;
	/* the clock block comes last in the text; integers may still map to it */
	build_ok(INTS TRACE_LE
		 "typealias integer { size = 64; map = clock.mono.value; } := clk64_t;\n"
		 "stream { event.header := struct { clk64_t timestamp; }; };\n"
		 "event { name = e; };\n"
		 "clock { name = mono; freq = 1000; offset_s = 5; offset = 2500;\n"
		 "  precision = 3; absolute = true; description = \"monotonic\";\n"
		 "  uuid = \"00112233-4455-6677-8899-aabbccddeeff\"; };\n");
	assert_int_equal(src.n_clocks, 1);
	c = src.clocks[0];
	assert_string_equal(c->name, "mono");
	assert_string_equal(c->description, "monotonic");
	assert_int_equal(c->freq, 1000);
	assert_int_equal(c->precision, 3);
	assert_int_equal(c->absolute, 1);
	assert_int_equal(c->has_uuid, 1);
	assert_int_equal(c->uuid[1], 0x11);
	assert_int_equal(c->uuid[15], 0xFF);
	/* 5 s + 2500 ms = 7 s + 500 cycles; 7.5 s */
	assert_int_equal(c->offset_s, 7);
	assert_int_equal(c->offset_cycles, 500);
	assert_int_equal(c->base_ns, INT64_C(7500000000));
	sc = src.scs[0];
	assert_ptr_equal(sc->clock, c);
	assert_ptr_equal(member(sc->event_header, "timestamp")->clock, c);
}

static void test_implicit_default_clock_for_timestamps(void **state)
{
	struct model_stream_class *sc;
	struct tk_clock *c;

	(void) state;
	build_ok(INTS TRACE_LE
		 "stream {\n"
		 "  packet.context := struct { uint64_t timestamp_begin; uint64_t timestamp_end;"
		 "    uint64_t packet_size; uint64_t content_size; };\n"
		 "  event.header := struct { uint32_t timestamp; uint8_t id; };\n"
		 "};\n"
		 "event { name = e; id = 0; };\n");
	assert_int_equal(src.n_clocks, 1);
	c = src.clocks[0];
	assert_string_equal(c->name, "default");
	assert_int_equal(c->freq, 1000000000);
	assert_int_equal(c->offset_s, 0);
	assert_int_equal(c->offset_cycles, 0);
	sc = src.scs[0];
	assert_ptr_equal(sc->clock, c);
	assert_ptr_equal(member(sc->event_header, "timestamp")->clock, c);
	assert_ptr_equal(member(sc->packet_context, "timestamp_begin")->clock, c);
	assert_int_equal(ctf_fc_meaning(member(sc->packet_context, "timestamp_begin")),
			 CTF_MEANING_PACKET_BEGIN_TIME);
	assert_int_equal(ctf_fc_meaning(member(sc->packet_context, "timestamp_end")),
			 CTF_MEANING_PACKET_END_TIME);
	assert_int_equal(ctf_fc_meaning(member(sc->packet_context, "packet_size")),
			 CTF_MEANING_PACKET_SIZE);
	assert_int_equal(ctf_fc_meaning(member(sc->packet_context, "content_size")),
			 CTF_MEANING_CONTENT_SIZE);
	assert_int_equal(sc->packets_have_ts_begin, 1);
	assert_int_equal(sc->packets_have_ts_end, 1);
}

static void test_single_declared_clock_is_used_without_map(void **state)
{
	(void) state;
	build_ok(INTS TRACE_LE "clock { name = only; freq = 100; };\n"
			       "stream { event.header := struct { uint32_t timestamp; }; };\n"
			       "event { name = e; };\n");
	assert_int_equal(src.n_clocks, 1);
	assert_string_equal(src.clocks[0]->name, "only");
	assert_ptr_equal(src.scs[0]->clock, src.clocks[0]);
	assert_ptr_equal(member(src.scs[0]->event_header, "timestamp")->clock, src.clocks[0]);
}

/* ---- refused metadata ---------------------------------------------------------------------- */

static void test_refuses_bad_trace_blocks(void **state)
{
	(void) state;
	/* no trace block at all */
	build_fails(INTS "event { name = e; };\n");
	/* two of them */
	build_fails(INTS TRACE_LE TRACE_LE);
	/* CTF 2 or 1.9 are not this format */
	build_fails(INTS "trace { major = 2; minor = 8; byte_order = le; };\n");
	build_fails(INTS "trace { major = 1; minor = 9; byte_order = le; };\n");
	build_fails(INTS "trace { minor = 8; byte_order = le; };\n");
	/* byte_order: required, and only be, le or network in the trace block */
	build_fails(INTS "trace { major = 1; minor = 8; byte_order = middle; };\n");
	build_fails(INTS "trace { major = 1; minor = 8; byte_order = native; };\n");
	build_fails(INTS "trace { major = 1; minor = 8; };\n");
	build_fails(INTS "trace { major = 1; minor = 8; byte_order = le;"
			 " uuid = \"not-a-uuid\"; };\n");
}

static void test_refuses_bad_integers(void **state)
{
	(void) state;
	build_fails(INTS TRACE_LE EVENT("integer { size = 0; } a;"));
	build_fails(INTS TRACE_LE EVENT("integer { size = 65; } a;"));
	build_fails(INTS TRACE_LE EVENT("integer { signed = true; } a;"));
	build_fails(INTS TRACE_LE EVENT("integer { size = 8; size = 16; } a;"));
	build_fails(INTS TRACE_LE EVENT("integer { size = 8; align = 3; } a;"));
	build_fails(INTS TRACE_LE EVENT("integer { size = 8; align = 0; } a;"));
	build_fails(INTS TRACE_LE EVENT("integer { size = 8; align = 12; } a;"));
	build_fails(INTS TRACE_LE EVENT("integer { size = 8; byte_order = middle; } a;"));
	build_fails(INTS TRACE_LE EVENT("integer { size = 8; base = 7; } a;"));
	build_fails(INTS TRACE_LE EVENT("integer { size = 8; encoding = EBCDIC; } a;"));
	build_fails(INTS TRACE_LE EVENT("integer { size = 8; map = clock.nope.value; } a;"));
	build_fails(INTS TRACE_LE EVENT("floating_point { exp_dig = 5; mant_dig = 11; } f;"));
	build_fails(INTS TRACE_LE EVENT("floating_point { exp_dig = 8; } f;"));
	build_fails(INTS TRACE_LE EVENT("struct { uint8_t a; } align(3) s;"));
}

static void test_refuses_unknown_and_duplicate_names(void **state)
{
	(void) state;
	/* words that name no alias */
	build_fails(INTS TRACE_LE EVENT("unsigned long x;"));
	build_fails(INTS TRACE_LE EVENT("struct nosuch x;"));
	build_fails(INTS TRACE_LE EVENT("enum nosuch x;"));
	build_fails(INTS TRACE_LE EVENT("variant nosuch <x> v;"));
	/* two members with one shown name */
	build_fails(INTS TRACE_LE EVENT("uint8_t a; uint16_t a;"));
	build_fails(INTS TRACE_LE EVENT("uint8_t _a; uint8_t a;"));
	/* an alias declared twice in one scope */
	build_fails(INTS "typealias integer { size = 8; } := uint8_t;\n" TRACE_LE);
	/* an enumeration without container and no int alias */
	build_fails(INTS TRACE_LE EVENT("enum { A } e;"));
}

static void test_refuses_bad_sequence_lengths(void **state)
{
	(void) state;
	/* signed length */
	build_fails(INTS TRACE_LE EVENT("int32_t n; uint8_t s[n];"));
	/* length declared after the sequence, relative or absolute */
	build_fails(INTS TRACE_LE EVENT("uint8_t s[n]; uint32_t n;"));
	build_fails(INTS TRACE_LE EVENT("uint8_t s[event.fields.n]; uint32_t n;"));
	/* length that is not an integer, or nothing at all */
	build_fails(INTS TRACE_LE EVENT("string n; uint8_t s[n];"));
	build_fails(INTS TRACE_LE EVENT("uint8_t s[nope];"));
	/* a sequence cannot be its own length */
	build_fails(INTS TRACE_LE EVENT("uint8_t s[s];"));
	/* an environment entry that is a string cannot size an array */
	build_fails(INTS TRACE_LE "env { k = \"x\"; };\n" EVENT("uint8_t a[env.k];"));
}

static void test_refuses_bad_variants(void **state)
{
	(void) state;
	/* the tag must be an enumeration */
	build_fails(INTS TRACE_LE EVENT("uint8_t tag; variant <tag> { uint8_t a; } v;"));
	/* and must come first */
	build_fails(INTS TRACE_LE EVENT("variant <tag> { uint8_t A; } v;"
					"enum : uint8_t { A } tag;"));
	/* an untagged variant cannot be decoded */
	build_fails(INTS TRACE_LE EVENT("variant { uint8_t a; } v;"));
}

static void test_refuses_bad_streams_and_events(void **state)
{
	(void) state;
	/* two events with one id in one stream */
	build_fails(INTS TRACE_LE "event { name = a; id = 1; };\nevent { name = b; id = 1; };\n");
	/* an event without id after another event of its stream (its id 0 would be free) */
	build_fails(INTS TRACE_LE "stream { event.header := struct { uint8_t id; }; };\n"
				  "event { name = a; id = 1; };\nevent { name = b; };\n");
	/* the implicit id 0 of the first event clashes with an explicit 0 */
	build_fails(INTS TRACE_LE "stream { event.header := struct { uint8_t id; }; };\n"
				  "event { name = a; };\nevent { name = b; id = 0; };\n");
	/* several events and no id field to tell them apart */
	build_fails(INTS TRACE_LE "event { name = a; };\nevent { name = b; id = 1; };\n");
	/* an event without name */
	build_fails(INTS TRACE_LE "event { id = 1; };\n");
	/* an event of a stream that does not exist */
	build_fails(INTS TRACE_LE "event { name = a; stream_id = 4; };\n");
	/* stream ids need a stream_id field in the packet header */
	build_fails(INTS TRACE_LE "stream { id = 1; };\n");
	/* two streams where one has no id */
	build_fails(INTS
		    "trace { major = 1; minor = 8; byte_order = le;"
		    " packet.header := struct { uint8_t stream_id; }; };\n"
		    "stream { id = 1; };\nstream { event.header := struct { uint8_t id; }; };\n");
	/* duplicate stream ids */
	build_fails(INTS "trace { major = 1; minor = 8; byte_order = le;"
			 " packet.header := struct { uint8_t stream_id; }; };\n"
			 "stream { id = 1; };\nstream { id = 1; };\n");
	/* magic must be the first field and 32 bits */
	build_fails(INTS "trace { major = 1; minor = 8; byte_order = le;"
			 " packet.header := struct { uint8_t x; uint32_t magic; }; };\n");
	build_fails(INTS "trace { major = 1; minor = 8; byte_order = le;"
			 " packet.header := struct { uint16_t magic; }; };\n");
	/* scopes must be structures */
	build_fails(INTS TRACE_LE "event { name = e; fields := uint8_t; };\n");
}

static void test_refuses_ambiguous_and_bad_clocks(void **state)
{
	(void) state;
	/* a timestamp without map when two clocks exist */
	build_fails(INTS TRACE_LE "clock { name = a; };\nclock { name = b; };\n"
				  "stream { event.header := struct { uint32_t timestamp; }; };\n"
				  "event { name = e; };\n");
	/* clocks need a name, a unique one, and a usable frequency */
	build_fails(INTS TRACE_LE "clock { freq = 1000; };\n");
	build_fails(INTS TRACE_LE "clock { name = a; };\nclock { name = a; };\n");
	build_fails(INTS TRACE_LE "clock { name = a; freq = 0; };\n");
	build_fails(INTS TRACE_LE "clock { name = a; uuid = \"0011\"; };\n");
}

static void test_refuses_syntax_errors(void **state)
{
	(void) state;
	build_fails(INTS TRACE_LE "event { name = e }\n");
	build_fails("");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_integer_attributes_and_defaults),
		T(test_native_byte_order_follows_big_endian_trace),
		T(test_floats_and_strings),
		T(test_enum_implicit_values_and_ranges),
		T(test_named_enum_and_default_int_container),
		T(test_arrays_text_and_sequences),
		T(test_sequence_length_in_enclosing_structure),
		T(test_variant_options_and_selection_ranges),
		T(test_variant_with_signed_tag_and_named_variant),
		T(test_typedef_array_and_pointer_alias),
		T(test_stream_and_event_classes),
		T(test_single_event_gets_stream_zero),
		T(test_clock_attributes_and_offset_normalisation),
		T(test_implicit_default_clock_for_timestamps),
		T(test_single_declared_clock_is_used_without_map),
		T(test_refuses_bad_trace_blocks),
		T(test_refuses_bad_integers),
		T(test_refuses_unknown_and_duplicate_names),
		T(test_refuses_bad_sequence_lengths),
		T(test_refuses_bad_variants),
		T(test_refuses_bad_streams_and_events),
		T(test_refuses_ambiguous_and_bad_clocks),
		T(test_refuses_syntax_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
