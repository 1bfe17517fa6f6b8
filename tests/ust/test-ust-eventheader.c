// SPDX-License-Identifier: MIT
/*
 * Unit tests of the application tracer's EventHeader output (src/ust/ust-eventheader.c),
 * without the kernel: event descriptions (struct tk_tp_event) built here by hand with every
 * kind and format, CTF-layout payloads written here byte by byte from known values, then
 * transcoded, and the result read by tracekit's EventHeader decoder. What the decoder must
 * find (encodings, formats, the JSON text of each value) is written next to the values by
 * hand, never computed by the code under test. Also: the exact bytes of a small event and of
 * its interceptor record, counts cut to 65535, the copy when iovecs run out, payloads that
 * do not match their description (every truncation), and what EventHeader cannot describe.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/vec.h"
#include "eventheader/eventheader.h"
#include "ust/ust-eventheader.h"

/* ---- descriptions --------------------------------------------------------------------------- */

#define F(n, k, fmt, sz, sg)                                                                       \
	{                                                                                          \
		.name = n, .kind = k, .format = fmt, .size = sz, .is_signed = sg                   \
	}

static const struct tk_tp_field pt_fields[] = {
	F("x", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 4, 1),
	F("tag", TK_TP_KIND_STRING, 0, 0, 0),
};
static const struct tk_tp_struct pt_struct = {"pt", pt_fields, 2};

static const struct tk_tp_field inner_fields[] = {
	{.name = "p", .kind = TK_TP_KIND_STRUCT, .struct_desc = &pt_struct},
	F("z", TK_TP_KIND_INT, TK_TP_FORMAT_HEX, 2, 0),
};
static const struct tk_tp_struct inner_struct = {"inner", inner_fields, 2};

static const struct tk_tp_enum_entry color_entries[] = {{"red", 0, 0}, {"warm", 1, 9}};
static const struct tk_tp_enum color_enum = {"color", color_entries, 2};

static const struct tk_tp_field all_fields[] = {
	F("s8", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 1, 1),
	F("u16", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 2, 0),
	F("s32", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 4, 1),
	F("s64", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 8, 1),
	F("u64", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 8, 0),
	F("x32", TK_TP_KIND_INT, TK_TP_FORMAT_HEX, 4, 0),
	F("x8", TK_TP_KIND_INT, TK_TP_FORMAT_HEX, 1, 0),
	F("ptr", TK_TP_KIND_INT, TK_TP_FORMAT_POINTER, 8, 0),
	F("err", TK_TP_KIND_INT, TK_TP_FORMAT_ERRNO, 4, 1),
	F("when", TK_TP_KIND_INT, TK_TP_FORMAT_TIME, 8, 0),
	F("f", TK_TP_KIND_FLOAT, 0, 4, 1),
	F("d", TK_TP_KIND_FLOAT, 0, 8, 1),
	F("yes", TK_TP_KIND_BOOL, 0, 1, 0),
	F("no", TK_TP_KIND_BOOL, 0, 1, 0),
	F("s", TK_TP_KIND_STRING, 0, 0, 0),
	F("es", TK_TP_KIND_STRING, 0, 0, 0),
	F("c", TK_TP_KIND_COUNTED, 0, 1, 0),
	F("ec", TK_TP_KIND_COUNTED, 0, 1, 0),
	F("blob", TK_TP_KIND_BLOB, TK_TP_FORMAT_HEX, 1, 0),
	{.name = "arr", .kind = TK_TP_KIND_ARRAY, .size = 2, .is_signed = 1, .count = 3},
	{.name = "xarr",
	 .kind = TK_TP_KIND_ARRAY,
	 .format = TK_TP_FORMAT_HEX,
	 .size = 1,
	 .count = 2},
	F("seq", TK_TP_KIND_SEQUENCE, TK_TP_FORMAT_DEFAULT, 4, 0),
	F("none", TK_TP_KIND_SEQUENCE, TK_TP_FORMAT_DEFAULT, 1, 1),
	{.name = "color", .kind = TK_TP_KIND_ENUM, .size = 1, .enum_desc = &color_enum},
	{.name = "sign",
	 .kind = TK_TP_KIND_ENUM,
	 .size = 2,
	 .is_signed = 1,
	 .enum_desc = &color_enum},
	{.name = "in", .kind = TK_TP_KIND_STRUCT, .struct_desc = &inner_struct},
	F("last", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 1, 0),
};

static struct tk_tp_event all_event = {
	.provider = "tkeh",
	.name = "all",
	.level = TK_TP_LEVEL_INFO,
	.keyword = 0x5,
	.fields = all_fields,
	.n_fields = sizeof(all_fields) / sizeof(all_fields[0]),
	.fixed_size = TK_TP_SIZE_VARIABLE,
};

/* ---- payloads written by hand, in the inline serializer's layout -------------------------- */

struct pay {
	uint8_t b[256 * 1024];
	size_t n;
};

static void put(struct pay *p, const void *v, size_t n)
{
	assert_true(n <= sizeof(p->b) - p->n);
	memcpy(p->b + p->n, v, n);
	p->n += n;
}

#define PUT(p, type, v)                                                                            \
	do {                                                                                       \
		type v_ = (v);                                                                     \
		put(p, &v_, sizeof(v_));                                                           \
	} while (0)

static void put_str(struct pay *p, const char *s)
{
	put(p, s, strlen(s) + 1);
}

static void put_counted(struct pay *p, const void *s, uint32_t n)
{
	PUT(p, uint32_t, n);
	put(p, s, n);
}

static void all_payload(struct pay *p)
{
	static const uint8_t blob[] = {0x01, 0x02, 0x0a};

	p->n = 0;
	PUT(p, int8_t, -5);
	PUT(p, uint16_t, 65000);
	PUT(p, int32_t, -100000);
	PUT(p, int64_t, -1234567890123LL);
	PUT(p, uint64_t, UINT64_MAX);
	PUT(p, uint32_t, 0xC8);
	PUT(p, uint8_t, 0xAB);
	PUT(p, uint64_t, 0x7F0012345678ull);
	PUT(p, int32_t, 2);
	PUT(p, uint64_t, 1700000000123456789ull);
	PUT(p, float, 1.5f);
	PUT(p, double, -0.25);
	PUT(p, uint8_t, 1);
	PUT(p, uint8_t, 0);
	put_str(p, "hello");
	put_str(p, "");
	put_counted(p, "abc", 3);
	put_counted(p, "", 0);
	put_counted(p, blob, 3);
	PUT(p, int16_t, -1);
	PUT(p, int16_t, 2);
	PUT(p, int16_t, 300);
	PUT(p, uint8_t, 0x10);
	PUT(p, uint8_t, 0xFF);
	PUT(p, uint32_t, 2);
	PUT(p, uint32_t, 7);
	PUT(p, uint32_t, 4000000000u);
	PUT(p, uint32_t, 0);
	PUT(p, uint8_t, 3);
	PUT(p, int16_t, -7);
	PUT(p, int32_t, -3);
	put_str(p, "t");
	PUT(p, uint16_t, 0x1F);
	PUT(p, uint8_t, 42);
}

/* The JSON the decoder must write for all_payload(), compact layout, default meta. */
static const char all_json[] =
	"{\"n\":\"tkeh:all\",\"s8\":-5,\"u16\":65000,\"s32\":-100000,\"s64\":-1234567890123,"
	"\"u64\":18446744073709551615,\"x32\":\"0xC8\",\"x8\":\"0xAB\",\"ptr\":\"0x7F0012345678\","
	"\"err\":\"ENOENT(2)\",\"when\":1700000000123456789,\"f\":1.5,\"d\":-0.25,\"yes\":true,"
	"\"no\":false,\"s\":\"hello\",\"es\":\"\",\"c\":\"abc\",\"ec\":\"\",\"blob\":\"01 02 0a\","
	"\"arr\":[-1,2,300],\"xarr\":[\"0x10\",\"0xFF\"],\"seq\":[7,4000000000],\"none\":[],"
	"\"color\":3,\"sign\":-7,\"in\":{\"p\":{\"x\":-3,\"tag\":\"t\"},\"z\":\"0x1F\"},"
	"\"last\":42,\"meta\":{\"level\":4,\"keyword\":\"0x5\"}}";

/* ---- helpers ------------------------------------------------------------------------------ */

/* The whole event (head + payload pieces) in one buffer, as user_events would receive it. */
static size_t gather(const struct ust_eh_event *eh, const struct ust_eh_payload *p, uint8_t *dst,
		     size_t cap)
{
	size_t n = eh->head_size;

	assert_true(n <= cap);
	memcpy(dst, eh->head, n);
	for (size_t i = 0; i < p->n; i++) {
		assert_true(p->iov[i].iov_len <= cap - n);
		memcpy(dst + n, p->iov[i].iov_base, p->iov[i].iov_len);
		n += p->iov[i].iov_len;
	}
	assert_int_equal(n, eh->head_size + p->size);
	return n;
}

static void expect_json(const struct ust_eh_event *eh, const uint8_t *ev, size_t n,
			const char *json)
{
	struct eventheader_enum en;
	struct vec v = VEC_INIT;

	assert_int_equal(eventheader_start(&en, eh->tp_name, eh->tp_name_len, ev, n,
					   EVENTHEADER_MOVE_NEXT_LIMIT),
			 TK_OK);
	assert_int_equal(eventheader_json_event(&v, &en, 0, EVENTHEADER_META_DEFAULT), TK_OK);
	if (v.len != strlen(json) || memcmp(v.data, json, v.len) != 0) {
		print_error("got      %.*s\nexpected %s\n", (int) v.len, (char *) v.data, json);
		fail();
	}
	vec_fini(&v);
}

static uint8_t *big_buf(size_t n)
{
	uint8_t *b = malloc(n);

	assert_non_null(b);
	return b;
}

/* ---- tests -------------------------------------------------------------------------------- */

/* A one-field event, byte by byte: header, metadata extension, payload; name and command. */
static void test_small_event_bytes(void **state)
{
	static const struct tk_tp_field f[] = {F("a", TK_TP_KIND_INT, 0, 1, 0),
					       F("b", TK_TP_KIND_INT, TK_TP_FORMAT_HEX, 2, 0)};
	struct tk_tp_event ev = {.provider = "prov",
				 .name = "ev",
				 .level = 5,
				 .keyword = 0x2a,
				 .fields = f,
				 .n_fields = 2};
	static const uint8_t expect_head[] = {
		0x07, 0,   0,	 0,    0, 0, 0, 5, /* flags: 64-bit, LE, extension; level 5 */
		10,   0,   1,	 0,		   /* metadata block: 10 bytes */
		'e',  'v', 0,			   /* event name */
		'a',  0,   0x02,		   /* VALUE8, no format */
		'b',  0,   0x83, 0x03,		   /* VALUE16 | chain, HEX_INT */
	};
	static const uint8_t payload[] = {0x09, 0x34, 0x12};
	struct ust_eh_event eh;
	struct ust_eh_payload p;

	(void) state;
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	assert_string_equal(eh.tp_name, "prov_L5K2a");
	assert_int_equal(eh.tp_name_len, 10);
	assert_string_equal(eh.command, "prov_L5K2a u8 eventheader_flags; u8 version; u16 id; "
					"u16 tag; u8 opcode; u8 level");
	assert_int_equal(eh.head_size, sizeof(expect_head));
	assert_memory_equal(eh.head, expect_head, sizeof(expect_head));

	assert_int_equal(ust_eh_transcode(&ev, payload, sizeof(payload), &p, NULL, 0), TK_OK);
	assert_int_equal(p.n, 1); /* fixed-size values: the source's bytes, as they are */
	assert_ptr_equal(p.iov[0].iov_base, payload);
	assert_int_equal(p.size, 3);
	ust_eh_event_fini(&eh);
}

/* An event without fields (tk_tracepoint(p, tick, )): no payload, nothing read. */
static void test_empty_payload(void **state)
{
	static const struct tk_tp_field f[] = {F("s", TK_TP_KIND_STRING, 0, 0, 0)};
	struct tk_tp_event ev = {.provider = "P", .name = "tick"};
	static const uint8_t want[] = {0x07, 0, 0, 0,	0,   0,	  0,   0, 5,
				       0,    1, 0, 't', 'i', 'c', 'k', 0};
	struct ust_eh_event eh;
	struct ust_eh_payload p;

	(void) state;
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	assert_string_equal(eh.tp_name, "P_L0K0");
	assert_int_equal(eh.head_size, sizeof(want));
	assert_memory_equal(eh.head, want, sizeof(want));
	assert_int_equal(ust_eh_transcode(&ev, NULL, 0, &p, NULL, 0), TK_OK);
	assert_int_equal(p.n, 0);
	assert_int_equal(p.size, 0);
	expect_json(&eh, eh.head, eh.head_size, "{\"n\":\"P:tick\",\"meta\":{}}");
	ev.fields = f; /* a string field and no byte at all */
	ev.n_fields = 1;
	assert_int_equal(ust_eh_transcode(&ev, NULL, 0, &p, NULL, 0), TK_ERR_INVAL);
	ust_eh_event_fini(&eh);
}

/* Every kind and format, decoded: each value's text as the reference formatter writes it. */
static void test_all_kinds_json(void **state)
{
	static struct pay pay;
	uint8_t ev[4096];
	struct ust_eh_event eh;
	struct ust_eh_payload p;
	size_t n;

	(void) state;
	all_payload(&pay);
	assert_int_equal(ust_eh_event_init(&eh, &all_event), TK_OK);
	assert_string_equal(eh.tp_name, "tkeh_L4K5");
	assert_int_equal(ust_eh_transcode(&all_event, pay.b, pay.n, &p, NULL, 0), TK_OK);
	/* 5 u32 lengths became u16: 10 bytes fewer; every piece points into the source or lens */
	assert_int_equal(p.size, pay.n - 10);
	assert_int_equal(p.n_lens, 5);
	for (size_t i = 0; i < p.n; i++) {
		uintptr_t b = (uintptr_t) p.iov[i].iov_base, src = (uintptr_t) pay.b;
		uintptr_t lens = (uintptr_t) &p.lens;

		assert_true((b >= src && b + p.iov[i].iov_len <= src + pay.n) ||
			    (b >= lens && b + p.iov[i].iov_len <= lens + sizeof(p.lens)));
	}
	n = gather(&eh, &p, ev, sizeof(ev));
	expect_json(&eh, ev, n, all_json);
	ust_eh_event_fini(&eh);
}

/* The encodings and formats the metadata gives, item by item (the mapping's table). */
static void test_all_kinds_encodings(void **state)
{
	static const struct {
		enum eventheader_state state;
		const char *name;
		uint8_t encoding, format, array_flags;
	} want[] = {
		{EVENTHEADER_STATE_VALUE, "s8", EVENTHEADER_ENC_VALUE8, EVENTHEADER_FMT_SIGNED_INT,
		 0},
		{EVENTHEADER_STATE_VALUE, "u16", EVENTHEADER_ENC_VALUE16, 0, 0},
		{EVENTHEADER_STATE_VALUE, "s32", EVENTHEADER_ENC_VALUE32,
		 EVENTHEADER_FMT_SIGNED_INT, 0},
		{EVENTHEADER_STATE_VALUE, "s64", EVENTHEADER_ENC_VALUE64,
		 EVENTHEADER_FMT_SIGNED_INT, 0},
		{EVENTHEADER_STATE_VALUE, "u64", EVENTHEADER_ENC_VALUE64, 0, 0},
		{EVENTHEADER_STATE_VALUE, "x32", EVENTHEADER_ENC_VALUE32, EVENTHEADER_FMT_HEX_INT,
		 0},
		{EVENTHEADER_STATE_VALUE, "x8", EVENTHEADER_ENC_VALUE8, EVENTHEADER_FMT_HEX_INT, 0},
		{EVENTHEADER_STATE_VALUE, "ptr", EVENTHEADER_ENC_VALUE64, EVENTHEADER_FMT_HEX_INT,
		 0},
		{EVENTHEADER_STATE_VALUE, "err", EVENTHEADER_ENC_VALUE32, EVENTHEADER_FMT_ERRNO, 0},
		{EVENTHEADER_STATE_VALUE, "when", EVENTHEADER_ENC_VALUE64, 0, 0},
		{EVENTHEADER_STATE_VALUE, "f", EVENTHEADER_ENC_VALUE32, EVENTHEADER_FMT_FLOAT, 0},
		{EVENTHEADER_STATE_VALUE, "d", EVENTHEADER_ENC_VALUE64, EVENTHEADER_FMT_FLOAT, 0},
		{EVENTHEADER_STATE_VALUE, "yes", EVENTHEADER_ENC_VALUE8, EVENTHEADER_FMT_BOOLEAN,
		 0},
		{EVENTHEADER_STATE_VALUE, "no", EVENTHEADER_ENC_VALUE8, EVENTHEADER_FMT_BOOLEAN, 0},
		{EVENTHEADER_STATE_VALUE, "s", EVENTHEADER_ENC_ZSTRING_CHAR8, 0, 0},
		{EVENTHEADER_STATE_VALUE, "es", EVENTHEADER_ENC_ZSTRING_CHAR8, 0, 0},
		{EVENTHEADER_STATE_VALUE, "c", EVENTHEADER_ENC_STRING16_CHAR8, 0, 0},
		{EVENTHEADER_STATE_VALUE, "ec", EVENTHEADER_ENC_STRING16_CHAR8, 0, 0},
		{EVENTHEADER_STATE_VALUE, "blob", EVENTHEADER_ENC_BINARY16_CHAR8, 0, 0},
		{EVENTHEADER_STATE_ARRAY_BEGIN, "arr", EVENTHEADER_ENC_VALUE16,
		 EVENTHEADER_FMT_SIGNED_INT, EVENTHEADER_ENC_CARRAY},
		{EVENTHEADER_STATE_ARRAY_BEGIN, "xarr", EVENTHEADER_ENC_VALUE8,
		 EVENTHEADER_FMT_HEX_INT, EVENTHEADER_ENC_CARRAY},
		{EVENTHEADER_STATE_ARRAY_BEGIN, "seq", EVENTHEADER_ENC_VALUE32, 0,
		 EVENTHEADER_ENC_VARRAY},
		{EVENTHEADER_STATE_ARRAY_BEGIN, "none", EVENTHEADER_ENC_VALUE8,
		 EVENTHEADER_FMT_SIGNED_INT, EVENTHEADER_ENC_VARRAY},
		{EVENTHEADER_STATE_VALUE, "color", EVENTHEADER_ENC_VALUE8,
		 EVENTHEADER_FMT_UNSIGNED_INT, 0},
		{EVENTHEADER_STATE_VALUE, "sign", EVENTHEADER_ENC_VALUE16,
		 EVENTHEADER_FMT_SIGNED_INT, 0},
		{EVENTHEADER_STATE_STRUCT_BEGIN, "in", EVENTHEADER_ENC_STRUCT, 2, 0},
		{EVENTHEADER_STATE_STRUCT_BEGIN, "p", EVENTHEADER_ENC_STRUCT, 2, 0},
		{EVENTHEADER_STATE_VALUE, "x", EVENTHEADER_ENC_VALUE32, EVENTHEADER_FMT_SIGNED_INT,
		 0},
		{EVENTHEADER_STATE_VALUE, "tag", EVENTHEADER_ENC_ZSTRING_CHAR8, 0, 0},
		{EVENTHEADER_STATE_VALUE, "z", EVENTHEADER_ENC_VALUE16, EVENTHEADER_FMT_HEX_INT, 0},
		{EVENTHEADER_STATE_VALUE, "last", EVENTHEADER_ENC_VALUE8, 0, 0},
	};
	static struct pay pay;
	uint8_t ev[4096];
	struct ust_eh_event eh;
	struct ust_eh_payload p;
	struct eventheader_enum en;
	struct eventheader_item it;
	enum tk_status st;
	size_t n, k = 0;

	(void) state;
	all_payload(&pay);
	assert_int_equal(ust_eh_event_init(&eh, &all_event), TK_OK);
	assert_int_equal(ust_eh_transcode(&all_event, pay.b, pay.n, &p, NULL, 0), TK_OK);
	n = gather(&eh, &p, ev, sizeof(ev));
	assert_int_equal(eventheader_start(&en, eh.tp_name, eh.tp_name_len, ev, n, 4096), TK_OK);
	assert_int_equal(en.info.level, 4);
	assert_int_equal(en.info.keyword, 5);
	while ((st = eventheader_next(&en)) == TK_OK) {
		if (en.state != EVENTHEADER_STATE_STRUCT_BEGIN &&
		    en.state != EVENTHEADER_STATE_ARRAY_BEGIN &&
		    !(en.state == EVENTHEADER_STATE_VALUE && en.top.array_flags == 0))
			continue;
		eventheader_item_get(&en, &it);
		assert_true(k < sizeof(want) / sizeof(want[0]));
		assert_int_equal(en.state, want[k].state);
		assert_int_equal(it.name_len, strlen(want[k].name));
		assert_memory_equal(it.name, want[k].name, it.name_len);
		assert_int_equal(it.encoding, want[k].encoding);
		assert_int_equal(it.format, want[k].format);
		assert_int_equal(it.array_flags, want[k].array_flags);
		k++;
	}
	assert_int_equal(st, TK_END);
	assert_int_equal(k, sizeof(want) / sizeof(want[0]));
	ust_eh_event_fini(&eh);
}

/* Lengths over 65535 elements: the u16 says 65535, the elements after it are left out. */
static void test_long_values_cut(void **state)
{
	static const struct tk_tp_field f[] = {
		F("c", TK_TP_KIND_COUNTED, 0, 1, 0),
		F("seq", TK_TP_KIND_SEQUENCE, TK_TP_FORMAT_DEFAULT, 2, 0),
		F("end", TK_TP_KIND_INT, 0, 1, 0),
	};
	struct tk_tp_event ev = {
		.provider = "P", .name = "long", .level = 1, .fields = f, .n_fields = 3};
	const uint32_t nc = 70000, ns = 65536;
	size_t size = 4 + nc + 4 + 2 * (size_t) ns + 1, n;
	uint8_t *pay = big_buf(size), *out = big_buf(size + 64);
	struct ust_eh_event eh;
	struct ust_eh_payload p;
	struct eventheader_enum en;
	struct eventheader_item it;

	(void) state;
	memcpy(pay, &nc, 4);
	for (uint32_t i = 0; i < nc; i++)
		pay[4 + i] = (uint8_t) ('a' + i % 26);
	memcpy(pay + 4 + nc, &ns, 4);
	for (uint32_t i = 0; i < ns; i++) {
		uint16_t v = (uint16_t) i;

		memcpy(pay + 8 + nc + 2 * (size_t) i, &v, 2);
	}
	pay[size - 1] = 0x77;
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	assert_int_equal(ust_eh_transcode(&ev, pay, size, &p, NULL, 0), TK_OK);
	assert_int_equal(p.size, 2 + 65535 + 2 + 2 * 65535 + 1);
	n = gather(&eh, &p, out, size + 64);

	assert_int_equal(eventheader_start(&en, eh.tp_name, eh.tp_name_len, out, n, 200000), TK_OK);
	assert_int_equal(eventheader_next(&en), TK_OK);
	eventheader_item_get(&en, &it);
	assert_int_equal(it.value_size, 65535);
	assert_int_equal(it.value[0], 'a');
	assert_int_equal(it.value[65534], 'a' + 65534 % 26);
	assert_int_equal(eventheader_next(&en), TK_OK);
	assert_int_equal(en.state, EVENTHEADER_STATE_ARRAY_BEGIN);
	eventheader_item_get(&en, &it);
	assert_int_equal(it.array_count, 65535);
	assert_int_equal(tk_load_u16(it.value + 2 * 65534, TK_BYTE_ORDER_LE), 65534);
	while (eventheader_next(&en) == TK_OK && en.state != EVENTHEADER_STATE_ARRAY_END)
		;
	assert_int_equal(eventheader_next(&en), TK_OK);
	eventheader_item_get(&en, &it);
	assert_int_equal(it.name_len, 3);
	assert_int_equal(it.value[0], 0x77); /* the field after the cut one is where it must be */
	assert_int_equal(eventheader_next(&en), TK_END);
	ust_eh_event_fini(&eh);
	free(pay);
	free(out);
}

/* 20 counted strings need more than UST_EH_IOV_MAX pieces: copied into the scratch. */
static void test_many_pieces_copied(void **state)
{
	struct tk_tp_field f[20];
	char names[20][4];
	struct tk_tp_event ev = {
		.provider = "P", .name = "many", .level = 2, .fields = f, .n_fields = 20};
	static struct pay pay;
	uint8_t scratch[512], out[1024];
	char json[1024];
	size_t k, n;
	struct ust_eh_event eh;
	struct ust_eh_payload p;

	(void) state;
	pay.n = 0;
	k = (size_t) snprintf(json, sizeof(json), "{\"n\":\"P:many\"");
	for (int i = 0; i < 20; i++) {
		snprintf(names[i], sizeof(names[i]), "c%d", i);
		f[i] = (struct tk_tp_field) F(names[i], TK_TP_KIND_COUNTED, 0, 1, 0);
		put_counted(&pay, "xy", 2);
		k += (size_t) snprintf(json + k, sizeof(json) - k, ",\"c%d\":\"xy\"", i);
	}
	snprintf(json + k, sizeof(json) - k, ",\"meta\":{\"level\":2}}");
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	assert_int_equal(ust_eh_transcode(&ev, pay.b, pay.n, &p, scratch, pay.n - 1), TK_ERR_INVAL);
	assert_int_equal(ust_eh_transcode(&ev, pay.b, pay.n, &p, NULL, 0), TK_ERR_INVAL);
	assert_int_equal(ust_eh_transcode(&ev, pay.b, pay.n, &p, scratch, sizeof(scratch)), TK_OK);
	assert_int_equal(p.n, 1);
	assert_ptr_equal(p.iov[0].iov_base, scratch);
	assert_int_equal(p.size, 20 * 4);
	n = gather(&eh, &p, out, sizeof(out));
	expect_json(&eh, out, n, json);
	ust_eh_event_fini(&eh);
}

/*
 * A payload that does not match its description is refused, never read past its end: each
 * truncation of the all-kinds payload (in a buffer of exactly that size, for ASan), a
 * length running past the end, a string without NUL, bytes left over.
 */
static void test_bad_payloads(void **state)
{
	static struct pay pay;
	struct ust_eh_payload p;
	uint8_t scratch[4096];
	size_t at;

	(void) state;
	all_payload(&pay);
	for (size_t n = 0; n < pay.n; n++) {
		uint8_t *b = big_buf(n ? n : 1);

		memcpy(b, pay.b, n);
		assert_int_equal(ust_eh_transcode(&all_event, b, n, &p, scratch, sizeof(scratch)),
				 TK_ERR_INVAL);
		free(b);
	}
	pay.b[pay.n++] = 0;
	error_reset();
	assert_int_equal(ust_eh_transcode(&all_event, pay.b, pay.n, &p, NULL, 0), TK_ERR_INVAL);
	assert_non_null(strstr(tk_error_cause(0), "bytes left after the last field"));

	/* the counted "c" (after 54 bytes of fixed values and the strings) claims too much */
	all_payload(&pay);
	at = 1 + 2 + 4 + 8 + 8 + 4 + 1 + 8 + 4 + 8 + 4 + 8 + 1 + 1 + 6 + 1;
	assert_int_equal(tk_load_u32(pay.b + at, TK_BYTE_ORDER_HOST), 3);
	tk_store_u32(pay.b + at, 0xFFFFFFF0u, TK_BYTE_ORDER_HOST);
	error_reset();
	assert_int_equal(ust_eh_transcode(&all_event, pay.b, pay.n, &p, NULL, 0), TK_ERR_INVAL);
	assert_non_null(strstr(tk_error_cause(0), "field=c,"));

	/* no NUL in the last string field ("tag" of the nested struct) */
	{
		static const struct tk_tp_field f[] = {F("s", TK_TP_KIND_STRING, 0, 0, 0)};
		struct tk_tp_event ev = {.provider = "P", .name = "s", .fields = f, .n_fields = 1};
		uint8_t *b = big_buf(3);

		memcpy(b, "abc", 3);
		error_reset();
		assert_int_equal(ust_eh_transcode(&ev, b, 3, &p, NULL, 0), TK_ERR_INVAL);
		assert_non_null(strstr(tk_error_cause(0), "string without NUL"));
		free(b);
	}
}

static enum tk_status init_fails(const struct tk_tp_event *ev, const char *reason)
{
	struct ust_eh_event eh;
	enum tk_status st;

	error_reset();
	st = ust_eh_event_init(&eh, ev);

	if (st == TK_OK || !strstr(tk_error_cause(0), reason)) {
		print_error("status %d, cause %s; expected %s\n", st,
			    tk_error_count() ? tk_error_cause(0) : "(none)", reason);
		fail();
	}
	ust_eh_event_fini(&eh);
	return st;
}

/* What EventHeader cannot say fails at registration, with the field named. */
static void test_unsupported(void **state)
{
	static struct tk_tp_field many[128], deep[10][1], big[400];
	static struct tk_tp_struct many_s = {"many", many, 128}, deep_s[10];
	static char names[400][200];
	struct tk_tp_field one[1];
	struct tk_tp_event ev = {
		.provider = "P", .name = "bad", .level = 4, .fields = one, .n_fields = 1};
	struct ust_eh_event eh;
	uint8_t pay[16] = {0};
	struct ust_eh_payload p;

	(void) state;
	one[0] = (struct tk_tp_field){.name = "a", .kind = TK_TP_KIND_ARRAY, .size = 4};
	assert_int_equal(init_fails(&ev, "field=a, kind=7, size=4, format=0, count=0"),
			 TK_ERR_UNSUPPORTED);
	one[0].count = 65536;
	init_fails(&ev, "an array holds 1 to 65535 elements");
	one[0].count = 65535;
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	ust_eh_event_fini(&eh);
	one[0] = (struct tk_tp_field) F("i3", TK_TP_KIND_INT, 0, 3, 0);
	init_fails(&ev, "field=i3");
	one[0] = (struct tk_tp_field) F("e8", TK_TP_KIND_INT, TK_TP_FORMAT_ERRNO, 8, 1);
	init_fails(&ev, "no EventHeader format");
	one[0] = (struct tk_tp_field) F("f2", TK_TP_KIND_FLOAT, 0, 2, 1);
	init_fails(&ev, "field=f2");
	one[0] = (struct tk_tp_field) F("k", 42, 0, 1, 0);
	init_fails(&ev, "no such kind");
	one[0] = (struct tk_tp_field) F("x;y", TK_TP_KIND_INT, 0, 1, 0);
	init_fails(&ev, "';'");

	/* a struct of 128 fields; of 127 fields it is fine */
	for (int i = 0; i < 128; i++)
		many[i] = (struct tk_tp_field) F("m", TK_TP_KIND_INT, 0, 1, 0);
	one[0] = (struct tk_tp_field){
		.name = "st", .kind = TK_TP_KIND_STRUCT, .struct_desc = &many_s};
	init_fails(&ev, "a struct has 1 to 127 fields");
	many_s.n_fields = 127;
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	ust_eh_event_fini(&eh);

	/*
	 * Structs nested 8 deep (the decoder's limit) are described, and decode; 9 deep fail.
	 * deep_s[i] holds deep[i], a struct of deep_s[i + 1]; deep_s[9] holds one u8.
	 */
	for (int i = 0; i < 10; i++) {
		deep_s[i] = (struct tk_tp_struct){"d", deep[i], 1};
		deep[i][0] = i < 9 ? (struct tk_tp_field){.name = "d",
							  .kind = TK_TP_KIND_STRUCT,
							  .struct_desc = &deep_s[i + 1]}
				   : (struct tk_tp_field) F("v", TK_TP_KIND_INT, 0, 1, 0);
	}
	one[0] = (struct tk_tp_field){.name = "top",
				      .kind = TK_TP_KIND_STRUCT,
				      .struct_desc = &deep_s[1]}; /* 9 structs */
	init_fails(&ev, "structs nested too deep");
	assert_int_equal(ust_eh_transcode(&ev, pay, 1, &p, NULL, 0), TK_ERR_INVAL);
	one[0].struct_desc = &deep_s[2]; /* 8 structs */
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	{
		uint8_t out[512];
		size_t n;

		pay[0] = 9;
		assert_int_equal(ust_eh_transcode(&ev, pay, 1, &p, NULL, 0), TK_OK);
		n = gather(&eh, &p, out, sizeof(out));
		expect_json(&eh, out, n,
			    "{\"n\":\"P:bad\",\"top\":{\"d\":{\"d\":{\"d\":{\"d\":{\"d\":{\"d\":"
			    "{\"d\":{\"v\":9}}}}}}}},\"meta\":{\"level\":4}}");
	}
	ust_eh_event_fini(&eh);

	/* metadata over 64 KiB: 400 fields of 199-character names */
	for (int i = 0; i < 400; i++) {
		memset(names[i], 'n', 199);
		big[i] = (struct tk_tp_field) F(names[i], TK_TP_KIND_INT, 0, 1, 0);
	}
	ev.fields = big;
	ev.n_fields = 400;
	init_fails(&ev, "Cannot describe event as EventHeader: provider=P, event=bad");
	assert_non_null(strstr(tk_error_cause(1), "metadata over 65535 bytes"));

	/* a provider the tracepoint naming refuses */
	ev.fields = one;
	ev.n_fields = 1;
	one[0] = (struct tk_tp_field) F("a", TK_TP_KIND_INT, 0, 1, 0);
	ev.provider = "my prov";
	init_fails(&ev, "no tracepoint name");
}

/*
 * The kinds and formats added for issue 14 point 3, byte by byte: the metadata (encodings and
 * formats from the reference tables), the payload (a port swapped to network order, the u32
 * count of NUL-terminated UTF-16 dropped and its 0 unit kept, a counted UTF-32 length made a
 * u16) and the decoder's text; then payloads and descriptions that do not fit.
 */
static void test_new_formats_bytes(void **state)
{
	static const struct tk_tp_field f[] = {
		F("port", TK_TP_KIND_INT, TK_TP_FORMAT_PORT, 2, 0),
		F("w", TK_TP_KIND_WSTRING, 0, 2, 0),
		F("pid", TK_TP_KIND_INT, TK_TP_FORMAT_PID, 4, 1),
		{.name = "id",
		 .kind = TK_TP_KIND_ARRAY,
		 .format = TK_TP_FORMAT_UUID,
		 .size = 1,
		 .count = 16},
		F("l", TK_TP_KIND_STRING, TK_TP_FORMAT_LATIN1, 0, 0),
		F("c", TK_TP_KIND_COUNTED, 0, 4, 0),
	};
	struct tk_tp_event ev = {
		.provider = "P", .name = "ev", .level = 4, .fields = f, .n_fields = 6};
	static const uint8_t want_head[] = {
		0x07, 0,   0,	 0,    0,    0,	   0,	 4, /* flags, level 4 */
		33,   0,   1,	 0,			    /* metadata block: 33 bytes */
		'e',  'v', 0,				    /* event name */
		'p',  'o', 'r',	 't',  0,    0x83, 0x10,    /* VALUE16, PORT */
		'w',  0,   0x88, 0x0b,			    /* ZSTRING_CHAR16, STRING_UTF */
		'p',  'i', 'd',	 0,    0x84, 0x05,	    /* VALUE32, PID */
		'i',  'd', 0,	 0x86, 0x0f,		    /* VALUE128, UUID */
		'l',  0,   0x87, 0x0a,			    /* ZSTRING_CHAR8, STRING8 */
		'c',  0,   0x8c, 0x0b,			    /* STRING16_CHAR32, STRING_UTF */
	};
	static const uint8_t src[] = {
		0x90, 0x1f,					  /* port 8080, host (LE) */
		3,    0,    0,	0,  'h', 0,   0xe9, 0,	  0,   0, /* count 3, "hé", 0 unit */
		0x92, 0x10, 0,	0,				  /* pid 4242 */
		0,    1,    2,	3,  4,	 5,   6,    7,	  8,   9, 10, 11,
		12,   13,   14, 15, 'c', 'a', 'f',  0xe9, 0,		 /* Latin-1 "café" */
		2,    0,    0,	0,  'x', 0,   0,    0,	  'y', 0, 0,  0, /* u32 2, "xy" */
	};
	static const uint8_t want_pay[] = {
		0x1f, 0x90,		      /* network order */
		'h',  0,    0xe9, 0,  0,   0, /* the units and the 0 unit */
		0x92, 0x10, 0,	  0,  0,   1,  2,   3,	 4,   5,    6, 7, 8, 9,
		10,   11,   12,	  13, 14,  15, 'c', 'a', 'f', 0xe9, 0, 2, 0, /* u16 2 */
		'x',  0,    0,	  0,  'y', 0,  0,   0,
	};
	uint8_t ev_bytes[512], *b;
	struct ust_eh_event eh;
	struct ust_eh_payload p;
	size_t n;

	(void) state;
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	assert_int_equal(eh.head_size, sizeof(want_head));
	assert_memory_equal(eh.head, want_head, sizeof(want_head));
	assert_int_equal(ust_eh_transcode(&ev, src, sizeof(src), &p, NULL, 0), TK_OK);
	n = gather(&eh, &p, ev_bytes, sizeof(ev_bytes));
	assert_int_equal(n - eh.head_size, sizeof(want_pay));
	assert_memory_equal(ev_bytes + eh.head_size, want_pay, sizeof(want_pay));
	expect_json(&eh, ev_bytes, n,
		    "{\"n\":\"P:ev\",\"port\":8080,\"w\":\"h\xc3\xa9\",\"pid\":4242,"
		    "\"id\":\"00010203-0405-0607-0809-0a0b0c0d0e0f\",\"l\":\"caf\xc3\xa9\","
		    "\"c\":\"xy\",\"meta\":{\"level\":4}}");

	/*
	 * the wide text's last unit is not 0, a unit before it is 0 (a reader would end the
	 * text there and take the rest for the next fields), its count is 0, or the port is cut
	 */
	b = big_buf(sizeof(src));
	memcpy(b, src, sizeof(src));
	b[10] = 'x'; /* the 0 unit */
	error_reset();
	assert_int_equal(ust_eh_transcode(&ev, b, sizeof(src), &p, NULL, 0), TK_ERR_INVAL);
	assert_non_null(strstr(tk_error_cause(0), "field=w,"));
	memcpy(b, src, sizeof(src));
	b[8] = 0; /* 'é' */
	error_reset();
	assert_int_equal(ust_eh_transcode(&ev, b, sizeof(src), &p, NULL, 0), TK_ERR_INVAL);
	assert_non_null(strstr(tk_error_cause(0), "field=w,"));
	memcpy(b, src, sizeof(src));
	b[2] = 0;
	assert_int_equal(ust_eh_transcode(&ev, b, sizeof(src), &p, NULL, 0), TK_ERR_INVAL);
	assert_int_equal(ust_eh_transcode(&ev, b, 1, &p, NULL, 0), TK_ERR_INVAL);
	free(b);
	ust_eh_event_fini(&eh);

	/* formats that do not suit their field's size or kind */
	ev.n_fields = 1;
	ev.fields = (const struct tk_tp_field[]){F("p8", TK_TP_KIND_INT, TK_TP_FORMAT_PID, 8, 1)};
	init_fails(&ev, "field=p8");
	ev.fields = (const struct tk_tp_field[]){F("pt", TK_TP_KIND_INT, TK_TP_FORMAT_PORT, 4, 0)};
	init_fails(&ev, "field=pt");
	ev.fields = (const struct tk_tp_field[]){
		F("l2", TK_TP_KIND_COUNTED, TK_TP_FORMAT_LATIN1, 2, 0)};
	init_fails(&ev, "field=l2");
	ev.fields = (const struct tk_tp_field[]){F("w1", TK_TP_KIND_WSTRING, 0, 1, 0)};
	init_fails(&ev, "field=w1");
}

/* An interceptor file: records of exact bytes, and nothing of a record whose write failed. */
static void test_interceptor_records(void **state)
{
	static const struct tk_tp_field f[] = {F("a", TK_TP_KIND_COUNTED, 0, 1, 0)};
	struct tk_tp_event ev = {.provider = "pv",
				 .name = "e",
				 .level = 3,
				 .keyword = 1,
				 .fields = f,
				 .n_fields = 1};
	static const uint8_t pay1[] = {2, 0, 0, 0, 'h', 'i'};
	static const uint8_t pay2[] = {0, 0, 0, 0};
	static const uint8_t want[] =
		{
			33,   0, 0,   0,   'p', 'v', '_', 'L', '3', 'K', '1', 0, /* size, name */
			0x07, 0, 0,   0,   0,	0,   0,	  3,   5,   0,	 1,   0, 'e',  0, 'a', 0,
			0x0a,		   /* head */
			2,    0, 'h', 'i', /* payload */
			31,   0, 0,   0,   'p', 'v', '_', 'L', '3', 'K', '1', 0, 0x07, 0, 0,   0,
			0,    0, 0,   3,   5,	0,   1,	  0,   'e', 0,	 'a', 0, 0x0a, 0, 0,
		};
	char path[] = "/tmp/ust-eh-test-XXXXXX";
	struct ust_eh_interceptor *ic;
	struct ust_eh_event eh;
	uint8_t got[256];
	int fd = mkstemp(path);
	ssize_t n;

	(void) state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	assert_int_equal(ust_eh_interceptor_open(&ic, path), TK_OK);
	assert_int_equal(ust_eh_interceptor_write(ic, &eh, pay1, sizeof(pay1), NULL, 0), TK_OK);
	/* a payload that is not the event's: refused before anything is written */
	assert_int_equal(ust_eh_interceptor_write(ic, &eh, pay1, 5, NULL, 0), TK_ERR_INVAL);
	assert_int_equal(ust_eh_interceptor_write(ic, &eh, pay2, sizeof(pay2), NULL, 0), TK_OK);
	assert_int_equal(ust_eh_interceptor_close(ic), TK_OK);
	assert_int_equal(ust_eh_interceptor_close(NULL), TK_OK);

	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, got, sizeof(got));
	close(fd);
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(got, want, sizeof(want));

	assert_int_equal(ust_eh_interceptor_open(&ic, "/nonexistent-dir/x.dat"), TK_ERR_IO);
	unlink(path);
	ust_eh_event_fini(&eh);
}

/*
 * Several threads append records at once: the file must hold every record whole, in some
 * order, each with its own bytes (records written by hand: a u32 counter per event).
 */
#define IC_THREADS 4
#define IC_EVENTS  500

struct ic_worker {
	pthread_t th;
	struct ust_eh_interceptor *ic;
	const struct ust_eh_event *eh;
	uint32_t base;
	int failed;
};

static void *ic_worker(void *arg)
{
	struct ic_worker *w = arg;

	for (uint32_t i = 0; i < IC_EVENTS; i++) {
		uint32_t v = w->base + i;

		if (ust_eh_interceptor_write(w->ic, w->eh, &v, sizeof(v), NULL, 0) != TK_OK)
			w->failed = 1;
	}
	return NULL;
}

static void test_interceptor_threads(void **state)
{
	static const struct tk_tp_field f[] = {F("v", TK_TP_KIND_INT, 0, 4, 0)};
	struct tk_tp_event ev = {
		.provider = "thr", .name = "e", .level = 5, .fields = f, .n_fields = 1};
	/* "thr_L5K0\0", header, metadata block "e\0" "v\0" 0x04: 4 + 9 + 12 + 5 + 4 bytes */
	static const uint8_t head[] = {34,  0,	 0, 0,	  't', 'h', 'r', '_', 'L', '5',
				       'K', '0', 0, 0x07, 0,   0,   0,	 0,   0,   0,
				       5,   5,	 0, 1,	  0,   'e', 0,	 'v', 0,   4};
	char path[] = "/tmp/ust-eh-test-XXXXXX";
	struct ic_worker w[IC_THREADS];
	struct ust_eh_interceptor *ic;
	struct ust_eh_event eh;
	static uint8_t seen[IC_THREADS * IC_EVENTS];
	uint8_t *buf;
	struct stat sb;
	size_t off = 0, n = 0;
	int fd = mkstemp(path);

	(void) state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	assert_int_equal(ust_eh_interceptor_open(&ic, path), TK_OK);
	for (int t = 0; t < IC_THREADS; t++) {
		w[t] = (struct ic_worker){.ic = ic, .eh = &eh, .base = (uint32_t) t * IC_EVENTS};
		assert_int_equal(pthread_create(&w[t].th, NULL, ic_worker, &w[t]), 0);
	}
	for (int t = 0; t < IC_THREADS; t++) {
		pthread_join(w[t].th, NULL);
		assert_false(w[t].failed);
	}
	assert_int_equal(ust_eh_interceptor_close(ic), TK_OK);

	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(sb.st_size, (off_t) IC_THREADS * IC_EVENTS * 34);
	buf = big_buf((size_t) sb.st_size);
	assert_int_equal(read(fd, buf, (size_t) sb.st_size), sb.st_size);
	close(fd);
	memset(seen, 0, sizeof(seen));
	while (off < (size_t) sb.st_size) {
		uint32_t v;

		assert_memory_equal(buf + off, head, sizeof(head));
		memcpy(&v, buf + off + sizeof(head), 4);
		assert_true(v < IC_THREADS * IC_EVENTS);
		assert_int_equal(seen[v], 0);
		seen[v] = 1;
		off += 34;
		n++;
	}
	assert_int_equal(n, IC_THREADS * IC_EVENTS);
	free(buf);
	unlink(path);
	ust_eh_event_fini(&eh);
}

/*
 * A record that does not fit (the file size limit, RLIMIT_FSIZE, stands in for a full disk:
 * the kernel writes what fits, then refuses) is taken back whole: the file ends with the
 * last record that was written entirely, and later records that fit are still written.
 */
static void test_interceptor_short_write(void **state)
{
	static const struct tk_tp_field f[] = {F("b", TK_TP_KIND_BLOB, TK_TP_FORMAT_HEX, 1, 0)};
	struct tk_tp_event ev = {
		.provider = "sw", .name = "e", .level = 5, .fields = f, .n_fields = 1};
	/* record: 4 + "sw_L5K0\0" (8) + head 8 + 4 + "e\0b\0" 0x0d (5) + 2 + blob */
	static uint8_t pay[4 + 200];
	uint32_t len;
	char path[] = "/tmp/ust-eh-test-XXXXXX";
	struct ust_eh_interceptor *ic;
	struct ust_eh_event eh;
	struct rlimit old, lim;
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_sa;
	struct stat sb;
	enum tk_status st;
	int fd = mkstemp(path);

	(void) state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	assert_int_equal(ust_eh_interceptor_open(&ic, path), TK_OK);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < 4096)
		skip();
	lim = old;
	lim.rlim_cur = 100;
	assert_int_equal(sigaction(SIGXFSZ, &ign, &old_sa), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);

	len = 10; /* a record of 41 bytes: fits */
	memcpy(pay, &len, 4);
	st = ust_eh_interceptor_write(ic, &eh, pay, 4 + len, NULL, 0);
	assert_int_equal(st, TK_OK);
	len = 100; /* 131 bytes: 59 of them would fit */
	memcpy(pay, &len, 4);
	error_reset();
	st = ust_eh_interceptor_write(ic, &eh, pay, 4 + len, NULL, 0);
	assert_int_equal(st, TK_ERR_IO);
	assert_non_null(strstr(tk_error_cause(0), "Cannot write interceptor record: name=sw_L5K0"));
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_size, 41);
	len = 20; /* 51 bytes: fits after the first (92) */
	memcpy(pay, &len, 4);
	st = ust_eh_interceptor_write(ic, &eh, pay, 4 + len, NULL, 0);

	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(sigaction(SIGXFSZ, &old_sa, NULL), 0);
	assert_int_equal(st, TK_OK);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_size, 41 + 51);
	assert_int_equal(ust_eh_interceptor_close(ic), TK_OK);
	unlink(path);
	ust_eh_event_fini(&eh);
}

/*
 * What ust_eh_write() hands to user_events, seen through a pipe standing in for
 * user_events_data: the write index, then the event, in one write; a closed descriptor
 * (EBADF, the kernel's answer when nobody records the tracepoint) drops the event.
 */
static void test_write_layout(void **state)
{
	static const struct tk_tp_field f[] = {F("s", TK_TP_KIND_COUNTED, 0, 1, 0)};
	struct tk_tp_event ev = {.provider = "wl",
				 .name = "e",
				 .level = 2,
				 .keyword = 0xf,
				 .fields = f,
				 .n_fields = 1};
	static const uint8_t pay[] = {3, 0, 0, 0, 'x', 'y', 'z'};
	static const uint8_t want[] = {0x78, 0x56, 0x34, 0x12, /* write index */
				       0x07, 0,	   0,	 0,    0, 0,	0, 2, 5,   0,	1,
				       0,    'e',  0,	 's',  0, 0x0a, 3, 0, 'x', 'y', 'z'};
	struct ust_eh_event eh;
	uint8_t got[64];
	int p[2];

	(void) state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	eh.fd = p[1]; /* as ust_eh_register() leaves it */
	eh.write_index = 0x12345678;
	assert_int_equal(ust_eh_write(&eh, pay, sizeof(pay), NULL, 0), TK_OK);
	assert_int_equal(read(p[0], got, sizeof(got)), sizeof(want));
	assert_memory_equal(got, want, sizeof(want));
	close(p[0]);
	close(p[1]);
	assert_int_equal(ust_eh_write(&eh, pay, sizeof(pay), NULL, 0), TK_AGAIN);
	eh.fd = -1;
	ust_eh_event_fini(&eh);
}

/* Without a registration nothing is unregistered; ust_eh_open() gives the same answer twice. */
static void test_user_events_state(void **state)
{
	static const struct tk_tp_field f[] = {F("a", TK_TP_KIND_INT, 0, 1, 0)};
	struct tk_tp_event ev = {.provider = "P", .name = "e", .fields = f, .n_fields = 1};
	struct ust_eh_event eh;
	enum tk_status a, b;
	int fd1 = -1, fd2 = -1;

	(void) state;
	assert_int_equal(ust_eh_event_init(&eh, &ev), TK_OK);
	assert_int_equal(eh.fd, -1);
	assert_int_equal(ust_eh_unregister(&eh), TK_OK);
	a = ust_eh_open(&fd1);
	b = ust_eh_open(&fd2);
	assert_int_equal(a, b);
	assert_int_equal(fd1, fd2);
	if (a < 0)
		assert_true(a == TK_ERR_NOTFOUND || a == TK_ERR_IO);
	ust_eh_event_fini(&eh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_event_bytes),
		cmocka_unit_test(test_empty_payload),
		cmocka_unit_test(test_all_kinds_json),
		cmocka_unit_test(test_all_kinds_encodings),
		cmocka_unit_test(test_long_values_cut),
		cmocka_unit_test(test_many_pieces_copied),
		cmocka_unit_test(test_bad_payloads),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_new_formats_bytes),
		cmocka_unit_test(test_interceptor_records),
		cmocka_unit_test(test_interceptor_threads),
		cmocka_unit_test(test_interceptor_short_write),
		cmocka_unit_test(test_write_layout),
		cmocka_unit_test(test_user_events_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
