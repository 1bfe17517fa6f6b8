// SPDX-License-Identifier: MIT
/*
 * Unit tests of the CTF 1.8 writer's nested declarations (structures, enumerations,
 * variants, arrays and sequences of any kind), classes without a clock, the stream classes'
 * own packet-context fields and loss ranges (src/ctf/ctf-write*.c,
 * include/tracekit/ctf-writer.h). The flat kinds, headers and packets are in
 * test-ctf-write.c; both read traces back through the oracles of ctf-write-oracle.c (the
 * project's CTF reader, and the index files and packet contexts walked by hand), and the
 * clockless trace's bytes and TSDL are checked against expectations worked out by hand.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <tracekit/tracekit.h>

#include "ctf-write-oracle.h"
#include "model/model.h"

/* ---- nested declarations, classes without a clock, packet contexts, loss ranges ---------- */

static const struct tk_ctf_field_decl one_int[] = {INT_F("x", 32, 0, 0)};

#define LABEL_U(l, a, b)                                                                           \
	{                                                                                          \
		.label = (l), .lo = {.u = (a)}, .hi = {.u = (b) }                                  \
	}
#define LABEL_S(l, a, b)                                                                           \
	{                                                                                          \
		.label = (l), .lo = {.i = (a)}, .hi = {.i = (b) }                                  \
	}
#define STRUCT_F(nm, m)                                                                            \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_STRUCT, .members = (m),                    \
		.n_members = ARRAY_SIZE(m)                                                         \
	}

static const struct tk_ctf_enum_label color_labels[] = {
	LABEL_U("RED", 0, 0),
	LABEL_U("GREEN", 1, 1),
	LABEL_U("BLUE: 2 to 9", 2, 9),
	LABEL_U("GREEN", 20, 22), /* a second range of a label */
	LABEL_U("odd \"quoted\" \\ label", 30, 30),
};
static const struct tk_ctf_enum_label signed_labels[] = {
	LABEL_S("NEG", -100, -1),
	LABEL_S("ZERO", 0, 0),
	LABEL_S("POS", 1, 1000),
};
static const struct tk_ctf_enum_label tag_labels[] = {
	LABEL_U("str", 0, 0),	 LABEL_U("num", 1, 3),	  LABEL_U("pair", 4, 4),
	LABEL_U("none", 5, 5),	 LABEL_U("nested", 6, 6), LABEL_U("_align", 7, 7),
	LABEL_U("unused", 8, 8),
};

#define COLOR_F(nm)                                                                                \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_ENUM, .bits = 8, .base = 16,               \
		.labels = color_labels, .n_labels = ARRAY_SIZE(color_labels)                       \
	}
#define TAG_F(nm)                                                                                  \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_ENUM, .bits = 8, .labels = tag_labels,     \
		.n_labels = ARRAY_SIZE(tag_labels)                                                 \
	}

static const struct tk_ctf_field_decl u16_elem = INT_F(NULL, 16, 0, 16);
static const struct tk_ctf_field_decl pair_members[] = {
	INT_F("a", 16, 0, 0),
	{.name = "b", .kind = TK_CTF_FIELD_KIND_FLOAT, .bits = 32},
};
static const struct tk_ctf_field_decl nested_members[] = {
	INT_F("n", 8, 0, 0),
	{.name = "w", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "n", .elem = &u16_elem},
};
/* options named as the tag's labels; "_align" is a keyword once read without "_" */
static const struct tk_ctf_field_decl options[] = {
	{.name = "str", .kind = TK_CTF_FIELD_KIND_STRING},
	INT_F("num", 32, 1, 0),
	{.name = "pair", .kind = TK_CTF_FIELD_KIND_STRUCT, .members = pair_members, .n_members = 2},
	{.name = "none", .kind = TK_CTF_FIELD_KIND_STRUCT},
	{.name = "nested",
	 .kind = TK_CTF_FIELD_KIND_STRUCT,
	 .members = nested_members,
	 .n_members = 2},
	INT_F("_align", 3, 1, 0),
};
static const struct tk_ctf_field_decl inner_empty[] = {
	INT_F("x", 32, 1, 0),
	INT_F("y", 64, 1, 0),
	{.name = "inner", .kind = TK_CTF_FIELD_KIND_STRUCT},
	{.name = "f", .kind = TK_CTF_FIELD_KIND_FLOAT, .bits = 64},
};
static const struct tk_ctf_field_decl bit_elem = INT_F(NULL, 1, 0, 0);
static const struct tk_ctf_field_decl s12_elem = INT_F(NULL, 12, 1, 0);
static const struct tk_ctf_field_decl row_elem = {
	.kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 3, .elem = &s12_elem};
static const struct tk_ctf_field_decl color_elem = COLOR_F(NULL);
static const struct tk_ctf_field_decl char_elem = {.kind = TK_CTF_FIELD_KIND_CHAR};
static const struct tk_ctf_field_decl name_elem = {
	.kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "len", .elem = &char_elem};
static const struct tk_ctf_field_decl pt_members[] = {
	INT_F("a", 8, 0, 0),
	{.name = "s", .kind = TK_CTF_FIELD_KIND_STRING},
};
static const struct tk_ctf_field_decl pt_elem = {
	.kind = TK_CTF_FIELD_KIND_STRUCT, .members = pt_members, .n_members = 2};
static const struct tk_ctf_field_decl item_members[] = {
	INT_F("k", 8, 0, 0),
	TAG_F("t"),
	{.name = "v",
	 .kind = TK_CTF_FIELD_KIND_VARIANT,
	 .ref = "t",
	 .members = options,
	 .n_members = ARRAY_SIZE(options)},
};
static const struct tk_ctf_field_decl item_elem = {
	.kind = TK_CTF_FIELD_KIND_STRUCT, .members = item_members, .n_members = 3};

/* Every kind, nested every way the writer allows. */
static const struct tk_ctf_field_decl nested_payload_members[] = {
	INT_F("len", 8, 0, 0),
	COLOR_F("color"),
	{.name = "sgn",
	 .kind = TK_CTF_FIELD_KIND_ENUM,
	 .bits = 16,
	 .is_signed = 1,
	 .labels = signed_labels,
	 .n_labels = ARRAY_SIZE(signed_labels)},
	STRUCT_F("pt", inner_empty),
	{.name = "empty", .kind = TK_CTF_FIELD_KIND_STRUCT},
	TAG_F("tag"),
	{.name = "v",
	 .kind = TK_CTF_FIELD_KIND_VARIANT,
	 .ref = "tag",
	 .members = options,
	 .n_members = ARRAY_SIZE(options)},
	{.name = "bytes", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "len", .elem = &u16_elem},
	{.name = "text", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "len", .elem = &char_elem},
	{.name = "bits", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 192, .elem = &bit_elem},
	{.name = "pts", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 3, .elem = &pt_elem},
	{.name = "grid", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 2, .elem = &row_elem},
	{.name = "colors", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 2, .elem = &color_elem},
	{.name = "items", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .elem = &item_elem},
	{.name = "names", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 2, .elem = &name_elem},
	INT_F("tail", 12, 0, 16), /* ends inside a byte: so does the packet content */
};
static const struct tk_ctf_field_decl nested_payload = STRUCT_F(NULL, nested_payload_members);
static const struct tk_ctf_field_decl ec_ctx_members[] = {
	INT_F("vpid", 32, 1, 0),
	INT_F("ip", 64, 0, 16),
};
static const struct tk_ctf_field_decl ec_ctx = STRUCT_F(NULL, ec_ctx_members);
static const struct tk_ctf_field_decl sc_ctx_members[] = {INT_F("tid", 32, 1, 0)};
static const struct tk_ctf_field_decl sc_ctx = STRUCT_F(NULL, sc_ctx_members);
static const struct tk_ctf_field_decl pctx_members[] = {
	INT_F("cpu_id", 32, 0, 0),
	{.name = "host", .kind = TK_CTF_FIELD_KIND_STRING},
	COLOR_F("mode"),
	INT_F("packet_size", 16, 0, 0), /* the writer's own name: renamed packet_size_2 */
};
static const struct tk_ctf_field_decl pctx = STRUCT_F(NULL, pctx_members);
static const struct tk_ctf_field_decl empty_scope = {.kind = TK_CTF_FIELD_KIND_STRUCT};

/* The member of a structure shown as @name, with its value (the structure's values @v). */
static const struct model_value *pctx_value(const struct tk_event *ev, const char *name,
					    const struct model_fc **fc)
{
	const struct model_fc *pc = ev->stream->sc->packet_context;
	const struct model_value *v = ev->scope[MODEL_SCOPE_PACKET_CONTEXT];
	uint32_t i;

	*fc = NULL;
	for (i = 0; i < pc->u.st.count; i++) {
		*fc = pc->u.st.members[i].fc;
		if (!strcmp(pc->u.st.members[i].name, name))
			return v;
		v += (*fc)->kind == MODEL_FC_STRUCT ? 0 : 1; /* scalars and strings only here */
	}
	print_error("no packet-context member %s\n", name);
	fail();
	return NULL;
}

/*
 * Nested kinds through the reader: every declaration kind inside structures, variants,
 * arrays and sequences, in three scopes and a packet context of the caller's fields, both
 * byte orders and packets small enough that events span many of them; each event read back
 * value for value by an oracle that walks the reader's field classes (ctf-write-oracle.c).
 */
static void run_nested(enum tk_ctf_byte_order order, const char *name)
{
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ctf_stream_class_desc scd = TK_CTF_STREAM_CLASS_DESC_INIT;
	struct tk_ctf_event_class_desc ecd = TK_CTF_EVENT_CLASS_DESC_INIT;
	struct tk_ctf_stream_desc sd = TK_CTF_STREAM_DESC_INIT;
	static struct vgen g;
	struct tk_ctf_writer_stream *s[2];
	struct tk_ctf_value pv[4];
	struct tk_ctf_writer *w;
	struct tk_trace *trace;
	struct tk_iter *it;
	const struct tk_event *ev;
	uint64_t clk, sc, ec, ec_empty, ts = 1000, times[300];
	size_t i, count = 0;
	char dir[256];
	const char *paths[1] = {dir};
	const char *hosts[2] = {"alpha", "beta \"b\""};
	enum tk_status st;

	snprintf(dir, sizeof(dir), "%s/%s", ctfw_tmpdir, name);
	g.tags = tag_labels;
	o.byte_order = order;
	o.packet_size = 512;
	OK(tk_ctf_writer_create(&w, dir, &o));
	OK(tk_ctf_writer_add_clock(w, "c", 1000000000, 0, 0, NULL, 0, &clk));
	scd.clock_id = clk;
	scd.has_cpu_id = 0;
	scd.packet_context = &pctx;
	scd.event_context = &sc_ctx;
	OK(tk_ctf_writer_add_stream_class_desc(w, &scd, &sc));
	ecd.name = "nested";
	ecd.context = &ec_ctx;
	ecd.payload = &nested_payload;
	ecd.emf_uri = "https://example.org/emf";
	OK(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &ec));
	ecd = (struct tk_ctf_event_class_desc) TK_CTF_EVENT_CLASS_DESC_INIT;
	ecd.name = "empty";
	ecd.payload = &empty_scope;
	OK(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &ec_empty));
	for (i = 0; i < 2; i++) {
		sd.has_id = 1;
		sd.id = 40 + i;
		sd.name = i ? "second" : "first";
		OK(tk_ctf_writer_add_stream_desc(w, sc, &sd, &s[i]));
	}
	for (i = 0; i < 300; i++) {
		size_t k = i % 2;

		vgen_reset(&g);
		if (i % 50 < 2) { /* the packet context changes now and then */
			memset(pv, 0, sizeof(pv));
			pv[0].v.u = (uint32_t) (k + 10 * (i / 50));
			pv[1].data = hosts[k];
			pv[1].len = strlen(hosts[k]);
			pv[2].v.u = i / 50;
			pv[3].v.u = 7;
			OK(tk_ctf_writer_set_packet_context(w, s[k], pv));
		}
		ts += 1 + (i * 7919) % 100000; /* strictly later: read back in this order */
		times[i] = ts;
		if (i % 10 == 9) {
			OK(tk_ctf_writer_append_scopes(w, s[k], ec_empty, ts,
						       vgen_scope(&g, &sc_ctx, i), NULL, NULL));
			continue;
		}
		OK(tk_ctf_writer_append_scopes(w, s[k], ec, ts, vgen_scope(&g, &sc_ctx, i),
					       vgen_scope(&g, &ec_ctx, i + 1000),
					       vgen_scope(&g, &nested_payload, i + 2000)));
	}
	OK(tk_ctf_writer_close(w));

	OK(tk_trace_open(&trace, paths, 1, NULL));
	OK(tk_iter_create(&it, trace));
	while ((st = tk_iter_next(it, &ev)) == TK_OK) {
		const struct model_fc *fc;
		const struct model_value *v;
		uint64_t cpu;

		i = count++;
		vgen_reset(&g);
		OK(model_event_values(ev));
		assert_true(i < 300);
		assert_int_equal(tk_event_get_clock_value(ev), times[i]);
		assert_int_equal(tk_stream_get_id(ev->stream), 40 + i % 2);
		assert_non_null(
			strstr(tk_stream_get_path(ev->stream), i % 2 ? "/second" : "/first"));
		check_scope(ev->stream->sc->event_context,
			    ev->scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT], &sc_ctx,
			    vgen_scope(&g, &sc_ctx, i));
		if (i % 10 == 9) {
			assert_string_equal(ev->ec->name, "empty");
			assert_non_null(ev->ec->payload); /* present, empty: shown as { } */
			assert_int_equal(ev->ec->payload->u.st.count, 0);
			assert_null(ev->ec->context);
		} else {
			assert_string_equal(ev->ec->emf_uri, "https://example.org/emf");
			check_scope(ev->ec->context, ev->scope[MODEL_SCOPE_EVENT_CONTEXT], &ec_ctx,
				    vgen_scope(&g, &ec_ctx, i + 1000));
			check_scope(ev->ec->payload, ev->scope[MODEL_SCOPE_PAYLOAD],
				    &nested_payload, vgen_scope(&g, &nested_payload, i + 2000));
		}
		/* the packet context: the caller's fields shown, the writer's hidden */
		v = pctx_value(ev, "cpu_id", &fc);
		assert_false(fc->hidden);
		cpu = v->v.u;
		assert_int_equal(cpu % 10, tk_stream_get_id(ev->stream) - 40);
		assert_int_equal(cpu / 10, i / 50);
		v = pctx_value(ev, "host", &fc);
		assert_false(fc->hidden);
		assert_string_equal(v->v.s, hosts[cpu % 10]);
		v = pctx_value(ev, "mode", &fc);
		assert_int_equal(fc->kind, MODEL_FC_ENUM);
		assert_int_equal(v->v.u, i / 50);
		v = pctx_value(ev, "packet_size_2", &fc);
		assert_false(fc->hidden);
		assert_int_equal(v->v.u, 7);
		pctx_value(ev, "packet_size", &fc);
		assert_true(fc->hidden);
		pctx_value(ev, "timestamp_begin", &fc);
		assert_true(fc->hidden);
	}
	assert_int_equal(st, TK_END);
	assert_int_equal(count, 300);
	tk_iter_destroy(it);
	tk_trace_close(trace);
}

static void test_nested_kinds_little_endian(void **state)
{
	(void) state;
	run_nested(TK_CTF_BYTE_ORDER_LE, "nested-le");
}

static void test_nested_kinds_big_endian(void **state)
{
	(void) state;
	run_nested(TK_CTF_BYTE_ORDER_BE, "nested-be");
}

/*
 * The bytes of a trace without a UUID and a stream class without a clock, against the layout
 * tk_ctf_writer.h documents, worked out here by hand: a 16-byte packet header, a packet
 * context of content_size, packet_size, packet_seq_num, events_discarded and the caller's
 * field, events of a 32-bit id and their payload, the content ending at the last bit of the
 * last field. IDs and the file name are the ones given.
 */
static void test_clockless_bytes(void **state)
{
	static const struct tk_ctf_enum_label ab[] = {LABEL_U("A", 0, 0), LABEL_U("B", 1, 1)};
	static const struct tk_ctf_field_decl u8e = INT_F(NULL, 8, 0, 16);
	static const struct tk_ctf_field_decl opts[] = {
		{.name = "A", .kind = TK_CTF_FIELD_KIND_STRING},
		INT_F("B", 16, 0, 0),
	};
	static const struct tk_ctf_field_decl m[] = {
		{.name = "e",
		 .kind = TK_CTF_FIELD_KIND_ENUM,
		 .bits = 8,
		 .labels = ab,
		 .n_labels = 2},
		{.name = "v",
		 .kind = TK_CTF_FIELD_KIND_VARIANT,
		 .ref = "e",
		 .members = opts,
		 .n_members = 2},
		INT_F("n", 8, 0, 0),
		{.name = "q", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "n", .elem = &u8e},
		{.name = "s", .kind = TK_CTF_FIELD_KIND_STRUCT},
		INT_F("t", 4, 0, 0),
	};
	static const struct tk_ctf_field_decl payload = STRUCT_F(NULL, m);
	static const struct tk_ctf_field_decl pm[] = {INT_F("p", 8, 0, 0)};
	static const struct tk_ctf_field_decl pc = STRUCT_F(NULL, pm);
	/* e = B, v = B: 0x1234, n = 2, q = AA BB, s = nothing, t = 5 */
	static const struct tk_ctf_value vals[] = {
		{.v.u = 1}, {.len = 1},	   {.v.u = 0x1234}, {.v.u = 2},
		{.len = 2}, {.v.u = 0xAA}, {.v.u = 0xBB},   {.v.u = 5},
	};
	static const struct tk_ctf_value pvals[] = {{.v.u = 0x7F}};
	/* one row per field */
	/* clang-format off */
	static const uint8_t want[] = {
		0xC1, 0x1F, 0xFC, 0xC1,					/* magic */
		3, 0, 0, 0,						/* stream_id */
		5, 0, 0, 0, 0, 0, 0, 0,					/* stream_instance_id */
		(60 * 8 - 4) & 0xff, (60 * 8 - 4) >> 8, 0, 0, 0, 0, 0, 0, /* content_size */
		0, 4, 0, 0, 0, 0, 0, 0,					/* packet_size: 1024 bits */
		0, 0, 0, 0, 0, 0, 0, 0,					/* packet_seq_num */
		0, 0, 0, 0, 0, 0, 0, 0,					/* events_discarded */
		0x7F,							/* p */
		9, 0, 0, 0,						/* event header: id */
		1, 0x34, 0x12, 2, 0xAA, 0xBB, 5,			/* e, v, n, q, t */
	};
	/* clang-format on */
	/* the TSDL of that layout (CTF 1.8.3 section 7): names with their "_", references by
	   written name, the tag's labels quoted with their values */
	static const char *const want_tsdl[] = {
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint32_t stream_id;\n"
		"\t\tuint64_t stream_instance_id;\n\t};",
		"\tpacket.context := struct {\n\t\tuint64_t content_size;\n"
		"\t\tuint64_t packet_size;\n\t\tuint64_t packet_seq_num;\n"
		"\t\tuint64_t events_discarded;\n"
		"\t\tinteger { size = 8; align = 8; signed = false; } _p;\n\t};",
		"\tevent.header := struct {\n\t\tuint32_t id;\n\t};",
		"\tid = 9;\n\tstream_id = 3;\n\tloglevel = 2;\n",
		"\"A\" = 0,",
		"\"B\" = 1,",
		"} _e;",
		"variant <_e> {",
		"string A;",
		"integer { size = 16; align = 8; signed = false; } B;",
		"} _v;",
		"integer { size = 8; align = 8; signed = false; base = 16; } _q[_n];",
		"} _s;",
		"integer { size = 4; align = 8; signed = false; } _t;",
	};
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ctf_stream_class_desc scd = TK_CTF_STREAM_CLASS_DESC_INIT;
	struct tk_ctf_event_class_desc ecd = TK_CTF_EVENT_CLASS_DESC_INIT;
	struct tk_ctf_stream_desc sd = TK_CTF_STREAM_DESC_INIT;
	struct tk_ctf_writer_stream *st;
	struct tk_ctf_writer *w;
	struct tk_trace *trace;
	struct tk_iter *it;
	const struct tk_event *ev;
	const struct tk_source *src;
	uint64_t sc, ec;
	uint8_t *data, *text;
	size_t size, i;
	char dir[256], path[300];
	const char *paths[1] = {dir};

	(void) state;
	snprintf(dir, sizeof(dir), "%s/clockless", ctfw_tmpdir);
	o.byte_order = TK_CTF_BYTE_ORDER_LE;
	o.packet_size = 128;
	o.no_uuid = 1;
	OK(tk_ctf_writer_create(&w, dir, &o));
	scd.has_id = 1;
	scd.id = 3;
	scd.has_cpu_id = 0;
	scd.packet_context = &pc;
	OK(tk_ctf_writer_add_stream_class_desc(w, &scd, &sc));
	assert_int_equal(sc, 3);
	ecd.name = "ev";
	ecd.has_id = 1;
	ecd.id = 9;
	ecd.loglevel = 2;
	ecd.payload = &payload;
	OK(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &ec));
	assert_int_equal(ec, 9);
	sd.has_id = 1;
	sd.id = 5;
	sd.name = "mystream";
	OK(tk_ctf_writer_add_stream_desc(w, sc, &sd, &st));
	OK(tk_ctf_writer_set_packet_context(w, st, pvals));
	OK(tk_ctf_writer_append_scopes(w, st, ec, 12345, NULL, NULL, vals));
	OK(tk_ctf_writer_close(w));

	snprintf(path, sizeof(path), "%s/mystream", dir);
	data = slurp(path, &size);
	assert_int_equal(size, 128);
	assert_memory_equal(data, want, sizeof(want));
	for (i = sizeof(want); i < size; i++)
		assert_int_equal(data[i], 0);
	free(data);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	text = slurp(path, &size);
	text[size] = 0;
	assert_null(strstr((const char *) text, "uuid"));      /* no UUID anywhere */
	assert_null(strstr((const char *) text, "timestamp")); /* nor times */
	for (i = 0; i < ARRAY_SIZE(want_tsdl); i++)
		if (!strstr((const char *) text, want_tsdl[i])) {
			print_error("metadata lacks: %s\n", want_tsdl[i]);
			fail();
		}
	free(text);

	/* and the reader agrees: no time, the values given, the IDs given */
	OK(tk_trace_open(&trace, paths, 1, NULL));
	src = tk_trace_get_source(trace, 0);
	assert_null(tk_source_get_uuid(src));
	OK(tk_iter_create(&it, trace));
	OK(tk_iter_next(it, &ev));
	OK(model_event_values(ev));
	assert_false(tk_event_has_timestamp(ev));
	assert_int_equal(tk_stream_get_class_id(ev->stream), 3);
	/* readers number streams without times themselves (babeltrace2 too): its ID is in the
	   packet header above */
	assert_int_equal(tk_event_class_get_id(ev->ec), 9);
	assert_int_equal(ev->ec->loglevel, 2);
	check_scope(ev->ec->payload, ev->scope[MODEL_SCOPE_PAYLOAD], &payload, vals);
	assert_int_equal(tk_iter_next(it, &ev), TK_END);
	tk_iter_destroy(it);
	tk_trace_close(trace);
}

struct seen_loss {
	uint64_t stream;
	int kind;
	uint64_t count;
	int has_range;
	int64_t begin, end;
};

static void collect_loss(const struct tk_notice *n, void *payload)
{
	struct seen_loss *l = payload;

	while (l->kind)
		l++;
	l->stream = tk_stream_get_id(tk_notice_get_stream(n));
	l->kind = (int) tk_notice_get_kind(n);
	l->count = tk_notice_get_count(n);
	l->has_range = tk_notice_get_range(n, &l->begin, &l->end);
}

/*
 * Losses over the ranges given, as readers report them: events lost between two times
 * (after events, before any, with events inside the range or none after it), packets lost,
 * and a first packet's loss of unknown size.
 */
static void test_loss_ranges(void **state)
{
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ctf_writer_stream *s[5];
	struct tk_ctf_writer *w;
	struct tk_trace *trace;
	struct tk_iter *it;
	const struct tk_event *ev;
	struct seen_loss seen[16];
	uint64_t clk, sc, ec, got[5][8], ngot[5] = {0};
	static const uint64_t want_ts[5][8] = {
		{100, 200, 300, 350, 500, 800}, {10, 20}, {55, 70}, {100}, {3000, 3600}};
	static const uint64_t want_n[5] = {6, 2, 2, 1, 2};
	char dir[256];
	const char *paths[1] = {dir};
	size_t i, k;
	enum tk_status st;

	(void) state;
	memset(seen, 0, sizeof(seen));
	snprintf(dir, sizeof(dir), "%s/loss-ranges", ctfw_tmpdir);
	o.packet_size = 4096;
	OK(tk_ctf_writer_create(&w, dir, &o));
	OK(tk_ctf_writer_add_clock(w, "c", 1000000000, 0, 0, NULL, 0, &clk));
	OK(tk_ctf_writer_add_stream_class(w, clk, &sc));
	OK(tk_ctf_writer_add_event_class(w, sc, "e", -1, NULL, 0, &ec));
	for (i = 0; i < 5; i++)
		OK(tk_ctf_writer_add_stream(w, sc, (uint32_t) i, &s[i]));
	/* stream 0: events, 5 lost in [250, 400] with events inside, 2 packets lost */
	OK(tk_ctf_writer_append(w, s[0], ec, 100, NULL, NULL));
	OK(tk_ctf_writer_append(w, s[0], ec, 200, NULL, NULL));
	OK(tk_ctf_writer_add_discarded_range(w, s[0], 5, 250, 400));
	OK(tk_ctf_writer_append(w, s[0], ec, 300, NULL, NULL));
	OK(tk_ctf_writer_append(w, s[0], ec, 350, NULL, NULL));
	OK(tk_ctf_writer_append(w, s[0], ec, 500, NULL, NULL));
	OK(tk_ctf_writer_add_discarded_packets(w, s[0], 2, 600, 700));
	OK(tk_ctf_writer_append(w, s[0], ec, 800, NULL, NULL));
	/* stream 1: a loss of unknown size before anything */
	OK(tk_ctf_writer_add_discarded(w, s[1], UINT64_MAX));
	OK(tk_ctf_writer_append(w, s[1], ec, 10, NULL, NULL));
	OK(tk_ctf_writer_append(w, s[1], ec, 20, NULL, NULL));
	/* stream 2: 3 lost in [50, 60] before its first event */
	OK(tk_ctf_writer_add_discarded_range(w, s[2], 3, 50, 60));
	OK(tk_ctf_writer_append(w, s[2], ec, 55, NULL, NULL));
	OK(tk_ctf_writer_append(w, s[2], ec, 70, NULL, NULL));
	/* stream 3: 4 lost in [1000, 2000] after its last event, nothing after */
	OK(tk_ctf_writer_append(w, s[3], ec, 100, NULL, NULL));
	OK(tk_ctf_writer_add_discarded_range(w, s[3], 4, 1000, 2000));
	/* stream 4: two ranges back to back with no event between, then packets lost at the
	   end, with nothing after them (an empty packet shows the gap) */
	OK(tk_ctf_writer_append(w, s[4], ec, 3000, NULL, NULL));
	OK(tk_ctf_writer_add_discarded_range(w, s[4], 6, 3100, 3200));
	OK(tk_ctf_writer_add_discarded_range(w, s[4], 7, 3200, 3500));
	OK(tk_ctf_writer_append(w, s[4], ec, 3600, NULL, NULL));
	OK(tk_ctf_writer_add_discarded_packets(w, s[4], 3, 3700, 3900));
	/* refused: going back, a range ending before it begins */
	INVAL(tk_ctf_writer_add_discarded_range(w, s[0], 1, 700, 900));
	INVAL(tk_ctf_writer_add_discarded_range(w, s[0], 1, 900, 850));
	INVAL(tk_ctf_writer_add_discarded_packets(w, s[0], 0, 900, 950));
	OK(tk_ctf_writer_close(w));

	OK(tk_trace_open(&trace, paths, 1, NULL));
	OK(tk_iter_create(&it, trace));
	tk_iter_set_notice_cb(it, collect_loss, seen);
	while ((st = tk_iter_next(it, &ev)) == TK_OK) {
		k = tk_stream_get_id(ev->stream);
		assert_true(ngot[k] < 8);
		got[k][ngot[k]++] = tk_event_get_clock_value(ev);
	}
	assert_int_equal(st, TK_END);
	for (k = 0; k < 5; k++) {
		assert_int_equal(ngot[k], want_n[k]);
		for (i = 0; i < ngot[k]; i++)
			assert_int_equal(got[k][i], want_ts[k][i]);
	}
	/* in time order: unknown [10..], [50, 60], [250, 400], [600, 700], [1000, 2000], then
	   stream 4's [3100, 3200], [3200, 3500], packets [3700, 3900] */
	assert_int_equal(seen[0].stream, 1);
	assert_int_equal(seen[0].count, UINT64_MAX);
	assert_int_equal(seen[1].stream, 2);
	assert_int_equal(seen[1].count, 3);
	assert_true(seen[1].has_range);
	assert_int_equal(seen[1].begin, 50);
	assert_int_equal(seen[1].end, 60);
	assert_int_equal(seen[2].stream, 0);
	assert_int_equal(seen[2].kind, TK_NOTICE_DISCARDED_EVENTS);
	assert_int_equal(seen[2].count, 5);
	assert_int_equal(seen[2].begin, 250);
	assert_int_equal(seen[2].end, 400);
	assert_int_equal(seen[3].stream, 0);
	assert_int_equal(seen[3].kind, TK_NOTICE_DISCARDED_PACKETS);
	assert_int_equal(seen[3].count, 2);
	assert_int_equal(seen[3].begin, 600);
	assert_int_equal(seen[3].end, 700);
	assert_int_equal(seen[4].stream, 3);
	assert_int_equal(seen[4].count, 4);
	assert_int_equal(seen[4].begin, 1000);
	assert_int_equal(seen[4].end, 2000);
	assert_int_equal(seen[5].stream, 4);
	assert_int_equal(seen[5].count, 6);
	assert_int_equal(seen[5].begin, 3100);
	assert_int_equal(seen[5].end, 3200);
	assert_int_equal(seen[6].count, 7);
	assert_int_equal(seen[6].begin, 3200);
	assert_int_equal(seen[6].end, 3500);
	assert_int_equal(seen[7].kind, TK_NOTICE_DISCARDED_PACKETS);
	assert_int_equal(seen[7].count, 3);
	assert_int_equal(seen[7].begin, 3700);
	assert_int_equal(seen[7].end, 3900);
	assert_int_equal(seen[8].kind, 0);
	tk_iter_destroy(it);
	tk_trace_close(trace);
}

/* Misuse of the nested declarations and the new calls fails with a cause, writing nothing. */
static void test_nested_misuse_is_refused(void **state)
{
	static const struct tk_ctf_field_decl u8e = INT_F(NULL, 8, 0, 0);
	static const struct tk_ctf_enum_label bad_range[] = {LABEL_U("X", 5, 4)};
	static const struct tk_ctf_enum_label no_label[] = {LABEL_U(NULL, 0, 0)};
	static const struct tk_ctf_enum_label one[] = {LABEL_U("one", 1, 1)};
	static const struct tk_ctf_field_decl opt_kw[] = {{.name = "int", .kind = 3}};
	static const struct tk_ctf_field_decl opt_bad[] = {{.name = "a b", .kind = 3}};
	static const struct tk_ctf_field_decl opt_dup[] = {{.name = "a", .kind = 3},
							   {.name = "a", .kind = 3}};
	static const struct tk_ctf_field_decl opt_seq[] = {
		{.name = "a", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .elem = &u8e}};
	static const struct tk_ctf_field_decl bad[][3] = {
		/* a length that is signed, after its user, missing, or a tag not an enum */
		{INT_F("n", 8, 1, 0), {.name = "q", .kind = 5, .ref = "n", .elem = &u8e}},
		{{.name = "q", .kind = 5, .ref = "n", .elem = &u8e}, INT_F("n", 8, 0, 0)},
		{{.name = "q", .kind = 5, .ref = "nope", .elem = &u8e}},
		{INT_F("t", 8, 0, 0),
		 {.name = "v", .kind = 9, .ref = "t", .members = one_int, .n_members = 1}},
		/* enumerations: a range upside down, a label missing */
		{{.name = "e", .kind = 7, .bits = 8, .labels = bad_range, .n_labels = 1}},
		{{.name = "e", .kind = 7, .bits = 8, .labels = no_label, .n_labels = 1}},
		/* variants: options named as keywords, not identifiers, twice, none; a sequence
		   option without a length member */
		{{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		 {.name = "v", .kind = 9, .ref = "t", .members = opt_kw, .n_members = 1}},
		{{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		 {.name = "v", .kind = 9, .ref = "t", .members = opt_bad, .n_members = 1}},
		{{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		 {.name = "v", .kind = 9, .ref = "t", .members = opt_dup, .n_members = 2}},
		{{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		 {.name = "v", .kind = 9, .ref = "t", .members = opt_dup, .n_members = 0}},
		{{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		 {.name = "v", .kind = 9, .ref = "t", .members = opt_seq, .n_members = 1}},
		/* a sequence element without a length member */
		{{.name = "a", .kind = 4, .array_len = 2, .elem = &opt_seq[0]}},
	};
	static const struct tk_ctf_field_decl seq_m[] = {
		INT_F("n", 8, 0, 0),
		{.name = "q", .kind = 5, .ref = "n", .elem = &u8e},
		{.name = "a", .kind = 4, .array_len = 2, .elem = &u8e},
	};
	static const struct tk_ctf_field_decl seq_st = STRUCT_F(NULL, seq_m);
	static const struct tk_ctf_field_decl var_m[] = {
		{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		{.name = "v", .kind = 9, .ref = "t", .members = opt_bad, .n_members = 0},
	};
	struct tk_ctf_field_decl vm[2];
	struct tk_ctf_field_decl scope;
	struct tk_ctf_value v[8];
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ctf_stream_class_desc scd = TK_CTF_STREAM_CLASS_DESC_INIT;
	struct tk_ctf_event_class_desc ecd = TK_CTF_EVENT_CLASS_DESC_INIT;
	struct tk_ctf_stream_desc sd = TK_CTF_STREAM_DESC_INIT;
	struct tk_ctf_writer_stream *st, *st2;
	struct tk_ctf_writer *w;
	uint64_t sc, sc_nc, ec, ec_v, id;
	size_t i, n;
	char dir[256];

	(void) state;
	snprintf(dir, sizeof(dir), "%s/nested-misuse", ctfw_tmpdir);
	OK(tk_ctf_writer_create(&w, dir, &o));
	OK(tk_ctf_writer_add_clock(w, "c", 1000000000, 0, 0, NULL, 0, &id));
	scd.clock_id = id;
	scd.has_id = 1;
	scd.id = 4;
	OK(tk_ctf_writer_add_stream_class_desc(w, &scd, &sc));
	INVAL(tk_ctf_writer_add_stream_class_desc(w, &scd, &id)); /* ID in use */
	scd.id = UINT64_C(1) << 32;
	INVAL(tk_ctf_writer_add_stream_class_desc(w, &scd, &id)); /* too large */
	scd.has_id = 0;
	scd.clock_id = 7;
	INVAL(tk_ctf_writer_add_stream_class_desc(w, &scd, &id)); /* no such clock */
	scd.clock_id = TK_CTF_WRITER_NO_CLOCK;
	OK(tk_ctf_writer_add_stream_class_desc(w, &scd, &sc_nc));
	assert_int_equal(sc_nc, 5); /* one more than the largest */
	scope.kind = TK_CTF_FIELD_KIND_INT;
	ecd.payload = &scope;
	INVAL(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &id)); /* a scope is a STRUCT */
	memset(&scope, 0, sizeof(scope));
	scope.kind = TK_CTF_FIELD_KIND_STRUCT;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		for (n = 0; n < 3 && bad[i][n].name; n++)
			;
		scope.members = bad[i];
		scope.n_members = n;
		INVAL(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &id));
	}
	ecd.payload = &seq_st;
	ecd.has_id = 1;
	ecd.id = 40;
	OK(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &ec));
	INVAL(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &id)); /* ID in use */
	memcpy(vm, var_m, sizeof(vm));
	vm[1].members = options;
	vm[1].n_members = ARRAY_SIZE(options);
	scope.members = vm;
	scope.n_members = 2;
	ecd.payload = &scope;
	ecd.id = 41;
	OK(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &ec_v));
	sd.name = "a/b";
	INVAL(tk_ctf_writer_add_stream_desc(w, sc, &sd, &st));
	sd.name = "metadata";
	INVAL(tk_ctf_writer_add_stream_desc(w, sc, &sd, &st));
	sd.name = "s";
	sd.has_id = 1;
	sd.id = 1;
	OK(tk_ctf_writer_add_stream_desc(w, sc, &sd, &st));
	sd.name = "s2";
	INVAL(tk_ctf_writer_add_stream_desc(w, sc, &sd, &st2)); /* ID in use in its class */
	OK(tk_ctf_writer_add_stream_desc(w, sc_nc, &sd, &st2)); /* another class: fine */
	/* values: the length member says 3, the sequence has 2; an array of 3 for 2 */
	memset(v, 0, sizeof(v));
	v[0].v.u = 3;
	v[1].len = 2;
	INVAL(tk_ctf_writer_append_scopes(w, st, ec, 10, NULL, NULL, v));
	v[0].v.u = 0;
	v[1].len = 0;
	v[2].len = 3;
	INVAL(tk_ctf_writer_append_scopes(w, st, ec, 10, NULL, NULL, v));
	/* the tag says "one" (option index 1 has no label "num" = 1 here), option 0 given */
	memset(v, 0, sizeof(v));
	v[0].v.u = 1;
	v[1].len = 0;
	INVAL(tk_ctf_writer_append_scopes(w, st, ec_v, 10, NULL, NULL, v));
	v[1].len = 99;
	INVAL(tk_ctf_writer_append_scopes(w, st, ec_v, 10, NULL, NULL, v));
	/* losses over a range need a clock; no packet context to set in this class */
	INVAL(tk_ctf_writer_add_discarded_range(w, st2, 1, 5, 6));
	INVAL(tk_ctf_writer_set_packet_context(w, st, v));
	/* the good event still goes in alone */
	memset(v, 0, sizeof(v));
	v[0].v.u = 1;
	v[1].len = 1;
	v[2].v.u = 9;
	v[3].len = 2;
	OK(tk_ctf_writer_append_scopes(w, st, ec, 10, NULL, NULL, v));
	OK(tk_ctf_writer_close(w));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_kinds_little_endian),
		cmocka_unit_test(test_nested_kinds_big_endian),
		cmocka_unit_test(test_clockless_bytes),
		cmocka_unit_test(test_loss_ranges),
		cmocka_unit_test(test_nested_misuse_is_refused),
	};

	return cmocka_run_group_tests(tests, ctfw_setup, ctfw_teardown);
}
