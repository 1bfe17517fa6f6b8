// SPDX-License-Identifier: MIT
/*
 * Unit tests of the EventHeader decoder and JSON formatter (src/eventheader) on events
 * written here byte by byte from the layout (../shared/reference/eventheader.md): the
 * 8-byte header, the extension blocks, the metadata (event name, then per field its name,
 * encoding byte, format byte, tag, constant count) and the payload. What each item and each
 * text must be is written next to the bytes by hand: every encoding, the formats' texts,
 * arrays of each kind, nested structs, the JSON of whole events in both layouts; then the
 * failures: a truncated payload, unknown flags, no metadata, names outside the convention,
 * the nesting and move-next limits. Typed classes: an event of every shape, its class,
 * its values, its bytes written again from them; metadata that gives no class.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/error.h"
#include "common/vec.h"
#include "eventheader/eventheader.h"
#include "eventheader/interceptor.h"

/* An event under construction: header, optional activity IDs, metadata, payload. */
struct ev {
	uint8_t b[1024];
	size_t n;
	uint8_t meta[512];
	size_t meta_n;
	uint8_t pay[512];
	size_t pay_n;
	int be;
};

static void put_n(uint8_t *buf, size_t *n, uint64_t v, unsigned int size, int be)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		buf[(*n)++] = (uint8_t) (v >> (8 * (be ? size - 1 - i : i)));
}

static void put_bytes(uint8_t *buf, size_t *n, const void *p, size_t len)
{
	memcpy(buf + *n, p, len);
	*n += len;
}

/* Header with the extension flag (little-endian flag unless @be) and the event name. */
static void ev_init(struct ev *e, int be, uint8_t level, const char *event_name)
{
	memset(e, 0, sizeof(*e));
	e->be = be;
	e->b[0] = (uint8_t) (0x01 | 0x04 | (be ? 0 : 0x02));
	e->b[7] = level;
	e->n = 8;
	put_bytes(e->meta, &e->meta_n, event_name, strlen(event_name) + 1);
}

/* A field definition: name, encoding, then format (-1: none) and tag (0: none). */
static void ev_field(struct ev *e, const char *name, uint8_t enc, int fmt, uint16_t tag)
{
	put_bytes(e->meta, &e->meta_n, name, strlen(name) + 1);
	if (fmt < 0 && !tag) {
		e->meta[e->meta_n++] = enc;
		return;
	}
	e->meta[e->meta_n++] = (uint8_t) (enc | 0x80);
	e->meta[e->meta_n++] = (uint8_t) ((fmt < 0 ? 0 : fmt) | (tag ? 0x80 : 0));
	if (tag)
		put_n(e->meta, &e->meta_n, tag, 2, e->be);
}

static void ev_meta_u16(struct ev *e, uint16_t v)
{
	put_n(e->meta, &e->meta_n, v, 2, e->be);
}

static void ev_pay(struct ev *e, uint64_t v, unsigned int size)
{
	put_n(e->pay, &e->pay_n, v, size, e->be);
}

static void ev_pay_bytes(struct ev *e, const void *p, size_t n)
{
	put_bytes(e->pay, &e->pay_n, p, n);
}

/* Close the event: the metadata extension, then the payload. */
static void ev_finish(struct ev *e)
{
	put_n(e->b, &e->n, e->meta_n, 2, e->be);
	put_n(e->b, &e->n, 1, 2, e->be); /* kind: metadata, no chain */
	put_bytes(e->b, &e->n, e->meta, e->meta_n);
	put_bytes(e->b, &e->n, e->pay, e->pay_n);
}

static enum tk_status start(struct eventheader_enum *en, const char *tp, const struct ev *e)
{
	return eventheader_start(en, tp, strlen(tp), e->b, e->n, EVENTHEADER_MOVE_NEXT_LIMIT);
}

/* Move to the next item, which must be of @state and named @name. */
static void expect_item(struct eventheader_enum *en, enum eventheader_state state, const char *name,
			struct eventheader_item *it)
{
	assert_int_equal(eventheader_next(en), TK_OK);
	assert_int_equal(en->state, state);
	eventheader_item_get(en, it);
	assert_int_equal(it->name_len, strlen(name));
	assert_memory_equal(it->name, name, it->name_len);
}

static void test_every_scalar_encoding_le(void **state)
{
	static const uint8_t v128[16] = {0xf0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
	struct eventheader_enum en;
	struct eventheader_item it;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 5, "Scalars");
	ev_field(&e, "v8", 2, -1, 0);
	ev_field(&e, "v16", 3, -1, 0);
	ev_field(&e, "v32", 4, -1, 0);
	ev_field(&e, "v64", 5, -1, 0);
	ev_field(&e, "v128", 6, -1, 0);
	ev_pay(&e, 0xAB, 1);
	ev_pay(&e, 0x1234, 2);
	ev_pay(&e, 0x89ABCDEF, 4);
	ev_pay(&e, 0x0102030405060708, 8);
	ev_pay_bytes(&e, v128, 16);
	ev_finish(&e);

	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	assert_int_equal(en.state, EVENTHEADER_STATE_BEFORE_FIRST);
	assert_int_equal(en.info.level, 5);
	assert_int_equal(en.info.provider_len, 4);
	assert_string_equal(en.info.name, "Scalars");
	expect_item(&en, EVENTHEADER_STATE_VALUE, "v8", &it);
	assert_int_equal(it.encoding, 2);
	assert_int_equal(it.value_size, 1);
	assert_int_equal(it.value[0], 0xAB);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "v16", &it);
	assert_int_equal(it.encoding, 3);
	assert_int_equal(it.value_size, 2);
	assert_memory_equal(it.value, "\x34\x12", 2);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "v32", &it);
	assert_int_equal(it.value_size, 4);
	assert_memory_equal(it.value, "\xEF\xCD\xAB\x89", 4);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "v64", &it);
	assert_int_equal(it.value_size, 8);
	assert_memory_equal(it.value, "\x08\x07\x06\x05\x04\x03\x02\x01", 8);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "v128", &it);
	assert_int_equal(it.encoding, 6);
	assert_int_equal(it.value_size, 16);
	assert_memory_equal(it.value, v128, 16);
	assert_int_equal(it.array_flags, 0);
	assert_int_equal(eventheader_next(&en), TK_END);
	assert_int_equal(en.state, EVENTHEADER_STATE_AFTER_LAST);
}

static void test_every_string_encoding(void **state)
{
	struct eventheader_enum en;
	struct eventheader_item it;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 4, "Strings");
	ev_field(&e, "z8", 7, -1, 0);
	ev_field(&e, "z16", 8, -1, 0);
	ev_field(&e, "z32", 9, -1, 0);
	ev_field(&e, "s8", 10, -1, 0);
	ev_field(&e, "s16", 11, -1, 0);
	ev_field(&e, "s32", 12, -1, 0);
	ev_field(&e, "bin", 13, -1, 0);
	ev_pay_bytes(&e, "hi\0", 3);
	ev_pay_bytes(&e, "o\0k\0\0\0", 6);
	ev_pay_bytes(&e, "Z\0\0\0\0\0\0\0", 8);
	ev_pay_bytes(&e, "\x03\0abc", 5);
	ev_pay_bytes(&e, "\x01\0x\0", 4);
	ev_pay_bytes(&e, "\x01\0y\0\0\0", 6);
	ev_pay_bytes(&e, "\x02\0\xff\x00", 4);
	ev_finish(&e);

	assert_int_equal(start(&en, "Prov_L4K0", &e), TK_OK);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "z8", &it);
	assert_int_equal(it.value_size, 2); /* the terminator is not part of the value */
	assert_memory_equal(it.value, "hi", 2);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "z16", &it);
	assert_int_equal(it.value_size, 4);
	assert_memory_equal(it.value, "o\0k\0", 4);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "z32", &it);
	assert_int_equal(it.value_size, 4);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "s8", &it);
	assert_int_equal(it.value_size, 3); /* the count prefix is not either */
	assert_memory_equal(it.value, "abc", 3);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "s16", &it);
	assert_int_equal(it.value_size, 2); /* a count of units, not bytes */
	expect_item(&en, EVENTHEADER_STATE_VALUE, "s32", &it);
	assert_int_equal(it.value_size, 4);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "bin", &it);
	assert_int_equal(it.encoding, 13);
	assert_int_equal(it.value_size, 2);
	assert_memory_equal(it.value, "\xff\x00", 2);
	assert_int_equal(eventheader_next(&en), TK_END);
}

static void test_big_endian_header_and_values(void **state)
{
	struct eventheader_enum en;
	struct eventheader_item it;
	struct ev e;

	(void) state;
	ev_init(&e, 1, 3, "Be");
	e.b[1] = 9;		      /* version */
	e.b[2] = 0x03, e.b[3] = 0xE8; /* id 1000, big-endian */
	e.b[4] = 0x12, e.b[5] = 0x34; /* tag */
	e.b[6] = 2;		      /* opcode */
	ev_field(&e, "v16", 3, 3, 0xBEEF);
	ev_pay(&e, 0x0102, 2);
	ev_finish(&e);

	assert_int_equal(start(&en, "P_L3Kabc", &e), TK_OK);
	assert_int_equal(en.info.order, TK_BYTE_ORDER_BE);
	assert_int_equal(en.info.id, 1000);
	assert_int_equal(en.info.tag, 0x1234);
	assert_int_equal(en.info.version, 9);
	assert_int_equal(en.info.opcode, 2);
	assert_true(en.info.keyword == 0xABC);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "v16", &it);
	assert_int_equal(it.format, 3);
	assert_int_equal(it.tag, 0xBEEF);
	assert_memory_equal(it.value, "\x01\x02", 2);
	assert_int_equal(eventheader_next(&en), TK_END);
}

static void test_arrays_of_each_kind(void **state)
{
	struct eventheader_enum en;
	struct eventheader_item it;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 5, "Arrays");
	ev_field(&e, "c", 3 | 0x20, -1, 0); /* constant array of 3 value16 */
	ev_meta_u16(&e, 3);
	ev_field(&e, "v", 7 | 0x40, -1, 0); /* variable array of zstring_char8 */
	ev_field(&e, "empty", 4 | 0x40, -1, 0);
	ev_pay(&e, 10, 2);
	ev_pay(&e, 20, 2);
	ev_pay(&e, 30, 2);
	ev_pay(&e, 2, 2);
	ev_pay_bytes(&e, "A\0BC\0", 5);
	ev_pay(&e, 0, 2);
	ev_finish(&e);

	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_BEGIN, "c", &it);
	assert_int_equal(it.array_count, 3);
	assert_int_equal(it.array_flags, 0x20);
	assert_int_equal(it.element_size, 2);
	assert_int_equal(it.value_size, 6); /* all the elements */
	expect_item(&en, EVENTHEADER_STATE_VALUE, "c", &it);
	assert_int_equal(it.array_index, 0);
	assert_memory_equal(it.value, "\x0a\x00", 2);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "c", &it);
	assert_int_equal(it.array_index, 1);
	assert_memory_equal(it.value, "\x14\x00", 2);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "c", &it);
	assert_int_equal(it.array_index, 2);
	assert_memory_equal(it.value, "\x1e\x00", 2);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_END, "c", &it);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_BEGIN, "v", &it);
	assert_int_equal(it.array_count, 2);
	assert_int_equal(it.array_flags, 0x40);
	assert_int_equal(it.element_size, 0);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "v", &it);
	assert_int_equal(it.value_size, 1);
	assert_memory_equal(it.value, "A", 1);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "v", &it);
	assert_int_equal(it.value_size, 2);
	assert_memory_equal(it.value, "BC", 2);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_END, "v", &it);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_BEGIN, "empty", &it);
	assert_int_equal(it.array_count, 0);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_END, "empty", &it);
	assert_int_equal(eventheader_next(&en), TK_END);
}

/* outer { a: value8, inner { b: value8 } }, then after: value8; and an array of 2 structs */
static void test_nested_struct_and_struct_array(void **state)
{
	struct eventheader_enum en;
	struct eventheader_item it;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 5, "Nested");
	ev_field(&e, "outer", 1, 2, 0x77);
	ev_field(&e, "a", 2, -1, 0);
	ev_field(&e, "inner", 1, 1, 0);
	ev_field(&e, "b", 2, -1, 0);
	ev_field(&e, "arr", 1 | 0x40, 1, 0);
	ev_field(&e, "x", 2, -1, 0);
	ev_field(&e, "after", 2, -1, 0);
	ev_pay(&e, 1, 1);
	ev_pay(&e, 2, 1);
	ev_pay(&e, 2, 2); /* arr: 2 elements */
	ev_pay(&e, 3, 1);
	ev_pay(&e, 4, 1);
	ev_pay(&e, 5, 1);
	ev_finish(&e);

	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_BEGIN, "outer", &it);
	assert_int_equal(it.tag, 0x77);
	assert_int_equal(it.format, 2);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "a", &it);
	assert_int_equal(it.value[0], 1);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_BEGIN, "inner", &it);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "b", &it);
	assert_int_equal(it.value[0], 2);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_END, "inner", &it);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_END, "outer", &it);
	assert_int_equal(it.tag, 0x77);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_BEGIN, "arr", &it);
	assert_int_equal(it.array_count, 2);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_BEGIN, "arr", &it);
	assert_int_equal(it.array_index, 0);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "x", &it);
	assert_int_equal(it.value[0], 3);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_END, "arr", &it);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_BEGIN, "arr", &it);
	assert_int_equal(it.array_index, 1);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "x", &it);
	assert_int_equal(it.value[0], 4);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_END, "arr", &it);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_END, "arr", &it);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "after", &it);
	assert_int_equal(it.value[0], 5);
	assert_int_equal(eventheader_next(&en), TK_END);
}

/*
 * A constant-count array of 2 structs: the member definitions follow the count in the
 * metadata and are read again for the second element (the reference decoder re-reads them
 * from the count's bytes there; tracekit does not follow it into that).
 */
static void test_constant_array_of_structs(void **state)
{
	struct eventheader_enum en;
	struct eventheader_item it;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 5, "CStructs");
	ev_field(&e, "pair", 1 | 0x20, 1, 0);
	ev_meta_u16(&e, 2);
	ev_field(&e, "v", 3, -1, 0);
	ev_field(&e, "end", 2, -1, 0);
	ev_pay(&e, 0x1111, 2);
	ev_pay(&e, 0x2222, 2);
	ev_pay(&e, 9, 1);
	ev_finish(&e);

	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_BEGIN, "pair", &it);
	assert_int_equal(it.array_count, 2);
	assert_int_equal(it.array_flags, 0x20);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_BEGIN, "pair", &it);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "v", &it);
	assert_memory_equal(it.value, "\x11\x11", 2);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_END, "pair", &it);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_BEGIN, "pair", &it);
	assert_int_equal(it.array_index, 1);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "v", &it);
	assert_memory_equal(it.value, "\x22\x22", 2);
	expect_item(&en, EVENTHEADER_STATE_STRUCT_END, "pair", &it);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_END, "pair", &it);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "end", &it);
	assert_int_equal(it.value[0], 9);
	assert_int_equal(eventheader_next(&en), TK_END);
}

/* An empty array of structs: its member definitions, nested ones too, are skipped. */
static void test_empty_array_of_structs_skips_members(void **state)
{
	struct eventheader_enum en;
	struct eventheader_item it;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 5, "Empty");
	ev_field(&e, "none", 1 | 0x40, 2, 0);
	ev_field(&e, "inner", 1, 1, 0);
	ev_field(&e, "c", 2 | 0x20, -1, 0);
	ev_meta_u16(&e, 4);
	ev_field(&e, "z", 7, -1, 0);
	ev_field(&e, "after", 2, -1, 0);
	ev_pay(&e, 0, 2);
	ev_pay(&e, 0x5A, 1);
	ev_finish(&e);

	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_BEGIN, "none", &it);
	assert_int_equal(it.array_count, 0);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_END, "none", &it);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "after", &it);
	assert_int_equal(it.value[0], 0x5A);
	assert_int_equal(eventheader_next(&en), TK_END);
}

/* A member definition of encoding 0 is damage even where it is skipped. */
static void test_encoding_0_definition_is_damage(void **state)
{
	struct eventheader_enum en;
	struct eventheader_item it;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 5, "Zero");
	ev_field(&e, "none", 1 | 0x40, 1, 0);
	ev_field(&e, "bad", 0, 1, 0);
	ev_pay(&e, 0, 2);
	ev_finish(&e);

	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_BEGIN, "none", &it);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_END, "none", &it);
	assert_int_equal(eventheader_next(&en), TK_ERR_FORMAT);
	assert_int_equal(en.error, EVENTHEADER_ERROR_INVALID_DATA);
	error_reset();
}

static void test_activity_ids(void **state)
{
	static const uint8_t ids[32] = {1,  2,	3,  4,	5,  6,	7,  8,	9,  10, 11,
					12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
					23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
	struct eventheader_enum en;
	uint8_t b[64] = {0x07, 0, 0, 0, 0, 0, 0, 5, 32, 0, 0x02, 0x80};
	size_t n = 12;

	(void) state;
	memcpy(b + n, ids, 32);
	n += 32;
	memcpy(b + n,
	       "\x03\x00\x01\x00"
	       "Ev\0",
	       7); /* metadata: the name only */
	n += 7;
	assert_int_equal(eventheader_start(&en, "P_L5K0", 6, b, n, 100), TK_OK);
	assert_ptr_equal(en.info.activity_id, b + 12);
	assert_ptr_equal(en.info.related_id, b + 28);
	assert_int_equal(eventheader_next(&en), TK_END);
}

static void test_truncated_payload(void **state)
{
	struct eventheader_enum en;
	struct eventheader_item it;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 5, "Cut");
	ev_field(&e, "ok", 2, -1, 0);
	ev_field(&e, "cut", 4, -1, 0);
	ev_pay(&e, 7, 1);
	ev_pay(&e, 0xFFFF, 2); /* value32 needs 4 */
	ev_finish(&e);

	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "ok", &it); /* what is valid comes first */
	assert_int_equal(eventheader_next(&en), TK_ERR_FORMAT);
	assert_int_equal(en.state, EVENTHEADER_STATE_ERROR);
	assert_int_equal(en.error, EVENTHEADER_ERROR_INVALID_DATA);
	assert_non_null(strstr(tk_error_cause(0), "Cannot read EventHeader field"));
	assert_int_equal(eventheader_next(&en), TK_ERR_FORMAT); /* and it stays so */
	error_reset();
}

static void test_unterminated_zstring(void **state)
{
	struct eventheader_enum en;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 5, "Z");
	ev_field(&e, "z", 8, -1, 0);
	ev_pay_bytes(&e, "a\0b", 3); /* no 0 unit */
	ev_finish(&e);
	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	assert_int_equal(eventheader_next(&en), TK_ERR_FORMAT);
	assert_int_equal(en.error, EVENTHEADER_ERROR_INVALID_DATA);
	error_reset();
}

static void test_bad_flags(void **state)
{
	struct eventheader_enum en;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 5, "F");
	ev_finish(&e);
	e.b[0] |= 0x08;
	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_ERR_UNSUPPORTED);
	assert_int_equal(en.state, EVENTHEADER_STATE_NONE);
	assert_int_equal(en.error, EVENTHEADER_ERROR_NOT_SUPPORTED);
	error_reset();
}

static void test_missing_metadata(void **state)
{
	static const uint8_t no_ext[10] = {0x03, 0, 0, 0, 0, 0, 0, 5, 1, 2};
	static const uint8_t activity_only[28] = {0x07, 0, 0, 0, 0, 0, 0, 5, 16, 0, 2, 0};
	struct eventheader_enum en;

	(void) state;
	assert_int_equal(eventheader_start(&en, "P_L5K0", 6, no_ext, sizeof(no_ext), 100),
			 TK_ERR_UNSUPPORTED);
	assert_int_equal(en.error, EVENTHEADER_ERROR_NOT_SUPPORTED);
	assert_int_equal(
		eventheader_start(&en, "P_L5K0", 6, activity_only, sizeof(activity_only), 100),
		TK_ERR_UNSUPPORTED);
	assert_int_equal(en.error, EVENTHEADER_ERROR_NOT_SUPPORTED);
	/* shorter than a header */
	assert_int_equal(eventheader_start(&en, "P_L5K0", 6, no_ext, 7, 100), TK_ERR_FORMAT);
	assert_int_equal(en.error, EVENTHEADER_ERROR_INVALID_PARAMETER);
	error_reset();
}

static void test_names_outside_the_convention(void **state)
{
	static const char *const bad[] = {
		"Prov_K1",     /* no L */
		"ProvL5K1",    /* no underscore */
		"Prov_L5",     /* no K */
		"Prov_L4K1",   /* level 4, header says 5 */
		"Prov_L5K1g",  /* an option must start upper-case */
		"Prov_L5K1G!", /* option characters are [0-9a-z] */
		"Prov_L5K1_x", /* the last '_' starts the attributes */
	};
	struct eventheader_enum en;
	struct ev e;
	size_t i;

	(void) state;
	ev_init(&e, 0, 5, "N");
	ev_finish(&e);
	for (i = 0; i < TK_ARRAY_SIZE(bad); i++) {
		assert_int_equal(start(&en, bad[i], &e), TK_ERR_UNSUPPORTED);
		assert_int_equal(en.error, EVENTHEADER_ERROR_NOT_SUPPORTED);
	}
	assert_int_equal(start(&en, "My_Prov_L5Kff00Gabc1Hx", &e), TK_OK);
	assert_int_equal(en.info.provider_len, 7);
	assert_true(en.info.keyword == 0xff00);
	assert_int_equal(en.info.options_off, 15);
	error_reset();
}

static void test_nesting_limit(void **state)
{
	struct eventheader_enum en;
	struct ev e;
	enum tk_status st;
	int i, begins = 0;

	(void) state;
	ev_init(&e, 0, 5, "Deep");
	for (i = 0; i < 9; i++)
		ev_field(&e, "s", 1, 1, 0);
	ev_field(&e, "v", 2, -1, 0);
	ev_pay(&e, 1, 1);
	ev_finish(&e);
	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	while ((st = eventheader_next(&en)) == TK_OK)
		begins += en.state == EVENTHEADER_STATE_STRUCT_BEGIN;
	assert_int_equal(begins, 9); /* the ninth begins, then cannot be entered */
	assert_int_equal(st, TK_ERR_UNSUPPORTED);
	assert_int_equal(en.error, EVENTHEADER_ERROR_NEST);
	error_reset();
}

static void test_move_next_limit(void **state)
{
	struct eventheader_enum en;
	struct ev e;
	int i;

	(void) state;
	ev_init(&e, 0, 5, "Many");
	for (i = 0; i < 5; i++) {
		ev_field(&e, "v", 2, -1, 0);
		ev_pay(&e, (uint64_t) i, 1);
	}
	ev_finish(&e);
	assert_int_equal(eventheader_start(&en, "Prov_L5K0", 9, e.b, e.n, 3), TK_OK);
	for (i = 0; i < 3; i++)
		assert_int_equal(eventheader_next(&en), TK_OK);
	assert_int_equal(eventheader_next(&en), TK_ERR_UNSUPPORTED);
	assert_int_equal(en.error, EVENTHEADER_ERROR_LIMIT);
	error_reset();
}

/* The JSON text of one value, NUL-terminated in @buf. */
static const char *json_of(const void *p, size_t n, unsigned int enc, unsigned int fmt,
			   enum tk_byte_order order)
{
	static char buf[256];
	struct vec v = VEC_INIT;

	assert_int_equal(eventheader_json_value(&v, p, n, enc, fmt, order, true), TK_OK);
	assert_true(v.len < sizeof(buf));
	memcpy(buf, v.data, v.len);
	buf[v.len] = 0;
	vec_fini(&v);
	return buf;
}

#define LE TK_BYTE_ORDER_LE
#define BE TK_BYTE_ORDER_BE

static void test_json_values_of_fixed_sizes(void **state)
{
	static const uint8_t uuid[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
	static const uint8_t ip6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};

	(void) state;
	assert_string_equal(json_of("\x80", 1, 2, 0, LE), "128");
	assert_string_equal(json_of("\x80", 1, 2, 2, LE), "-128");
	assert_string_equal(json_of("\xc8", 1, 2, 3, LE), "\"0xC8\"");
	assert_string_equal(json_of("\x02", 1, 2, 7, LE), "2");
	assert_string_equal(json_of("\x01", 1, 2, 7, LE), "true");
	assert_string_equal(json_of("\x00", 1, 2, 7, LE), "false");
	assert_string_equal(json_of("\xfe", 1, 2, 10, LE), "\"\xc3\xbe\"");
	assert_string_equal(json_of("\x0a", 1, 2, 9, LE), "\"0a\"");
	assert_string_equal(json_of("\x0a", 1, 2, 4, LE), "10"); /* errno: not for 1 byte */
	assert_string_equal(json_of("\x00\x50", 2, 3, 16, LE), "80");
	assert_string_equal(json_of("\x30\x75", 2, 3, 0, LE), "30000");
	assert_string_equal(json_of("\x75\x30", 2, 3, 0, BE), "30000");
	assert_string_equal(json_of("\x3a\x26", 2, 3, 11, LE), "\"\xe2\x98\xba\"");
	assert_string_equal(json_of("\x01\x00\x00\x00", 4, 4, 4, LE), "\"EPERM(1)\"");
	assert_string_equal(json_of("\x29\x00\x00\x00", 4, 4, 4, LE), "\"ERRNO(41)\"");
	assert_string_equal(json_of("\x00\x00\x00\x80", 4, 4, 4, LE), "\"ERRNO(-2147483648)\"");
	assert_string_equal(json_of("\x00\x00\x00\x00", 4, 4, 6, LE), "\"1970-01-01T00:00:00\"");
	assert_string_equal(json_of("\xff\xff\xff\x7f", 4, 4, 6, LE), "\"2038-01-19T03:14:07\"");
	assert_string_equal(json_of("\xff\xff\xff\xff", 4, 4, 5, LE), "-1");
	assert_string_equal(json_of("\xc3\xf5\x48\x40", 4, 4, 8, LE), "3.14");
	assert_string_equal(json_of("\x00\x00\xc0\xff", 4, 4, 8, LE), "\"-nan\"");
	assert_string_equal(json_of("\x00\x00\x80\x7f", 4, 4, 8, LE), "\"inf\"");
	assert_string_equal(json_of("\x01\x00\x00\x00", 4, 4, 8, LE), "1e-45");
	assert_string_equal(json_of("\x7f\x00\x00\x01", 4, 4, 17, LE), "\"127.0.0.1\"");
	assert_string_equal(json_of("\xfc\xfd\xfe\xff", 4, 4, 11, LE),
			    "\"\xfe\x83\xbf\xbf\xaf\xb7\xbc\"");
	assert_string_equal(json_of("\x00\x00\x00\x00\x00\x00\xf0\x3f", 8, 5, 8, LE), "1");
	assert_string_equal(json_of("\x00\x00\x00\x00\x00\x00\x59\x40", 8, 5, 8, LE), "100");
	/*
	 * integers in fixed notation get their exact digits (2^63, 2^33 as a float), and 2^70
	 * is fixed too: 22 characters either way, and a tie goes to fixed
	 */
	assert_string_equal(json_of("\x00\x00\x00\x00\x00\x00\xe0\x43", 8, 5, 8, LE),
			    "9223372036854775808");
	assert_string_equal(json_of("\x00\x00\x00\x50", 4, 4, 8, LE), "8589934592");
	assert_string_equal(json_of("\x00\x00\x00\x00\x00\x00\x50\x44", 8, 5, 8, LE),
			    "1180591620717411303424");
	assert_string_equal(json_of("\x00\x00\x00\x00\x00\x00\x00\x80", 8, 5, 8, LE), "-0");
	assert_string_equal(json_of("\x3f\xf8\x00\x00\x00\x00\x00\x00", 8, 5, 8, BE), "1.5");
	assert_string_equal(json_of("\xff\xff\xff\xff\xff\xff\xff\xff", 8, 5, 2, LE), "-1");
	assert_string_equal(json_of("\xff\xff\xff\xff\xff\xff\xff\xff", 8, 5, 0, LE),
			    "18446744073709551615");
	assert_string_equal(json_of("\x00\x00\x00\x00\x00\x00\x00\x80", 8, 5, 6, LE),
			    "\"TIME(-9223372036854775808)\"");
	assert_string_equal(json_of(uuid, 16, 6, 15, LE),
			    "\"01020304-0506-0708-090a-0b0c0d0e0f10\"");
	assert_string_equal(json_of(ip6, 16, 6, 18, LE), "\"2001:db8::1\"");
	assert_string_equal(json_of(ip6, 16, 6, 2, LE),
			    "\"20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01\"");
}

static void test_json_values_of_strings(void **state)
{
	(void) state;
	assert_string_equal(json_of("a\"\\\n\x01", 5, 7, 0, LE), "\"a\\\"\\\\\\n\\u0001\"");
	assert_string_equal(json_of("\xe9t\xc3\xa9", 4, 7, 11, LE), "\"\xc3\xa9t\xc3\xa9\"");
	assert_string_equal(json_of("\xe9", 1, 7, 10, LE), "\"\xc3\xa9\"");
	assert_string_equal(json_of("hi", 2, 7, 9, LE), "\"68 69\"");
	assert_string_equal(json_of("\xef\xbb\xbfok", 5, 7, 12, LE), "\"ok\"");
	assert_string_equal(json_of("\xfe\xff\x00h", 4, 7, 14, LE), "\"h\"");
	/* UTF-16: a pair joined, a lone high surrogate passed through */
	assert_string_equal(json_of("\x3d\xd8\x00\xde\x00\xd8", 6, 8, 0, LE),
			    "\"\xf0\x9f\x98\x80\xed\xa0\x80\"");
	assert_string_equal(json_of("\x00h\x00i", 4, 11, 0, BE), "\"hi\"");
	assert_string_equal(json_of("\xff\xff\x10\x00", 4, 9, 0, LE), "\"\xf4\x8f\xbf\xbf\"");
	/* counted char8 and binary: null when empty for sized formats, else by size */
	assert_string_equal(json_of("", 0, 10, 1, LE), "null");
	assert_string_equal(json_of("", 0, 13, 15, LE), "null");
	assert_string_equal(json_of("", 0, 13, 0, LE), "\"\"");
	assert_string_equal(json_of("", 0, 10, 11, LE), "\"\"");
	assert_string_equal(json_of("\xf0\xf1", 2, 13, 2, LE), "-3600");
	assert_string_equal(json_of("\x01\x00\x00", 3, 13, 1, LE), "\"01 00 00\"");
	assert_string_equal(json_of("\x01\x00\x00", 3, 10, 1, LE), "\"\\u0001\\u0000\\u0000\"");
	assert_string_equal(json_of("\x01\x00\x00\x00", 4, 10, 4, LE), "\"EPERM(1)\"");
	assert_string_equal(json_of("\xf0", 1, 13, 11, LE), "\"\xc3\xb0\"");
}

/* A whole event, both layouts: field tags, arrays, a struct, meta. */
static void test_json_event_layouts(void **state)
{
	struct eventheader_enum en;
	struct vec v = VEC_INIT;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 4, "Ev;attr=1");
	e.b[1] = 2; /* version */
	e.b[2] = 7; /* id 7 */
	e.b[6] = 1; /* opcode */
	ev_field(&e, "n8", 2, -1, 0x12);
	ev_field(&e, "st", 1, 2, 0);
	ev_field(&e, "s", 7, -1, 0);
	ev_field(&e, "arr", 3 | 0x40, 3, 0);
	ev_field(&e, "empty", 7 | 0x40, -1, 0);
	ev_pay(&e, 5, 1);
	ev_pay_bytes(&e, "x\0", 2);
	ev_pay(&e, 2, 2);
	ev_pay(&e, 0xA, 2);
	ev_pay(&e, 0xB, 2);
	ev_pay(&e, 0, 2);
	ev_finish(&e);

	assert_int_equal(start(&en, "Pr_L4K2aGx", &e), TK_OK);
	assert_int_equal(eventheader_json_event(&v, &en,
						EVENTHEADER_JSON_SPACE | EVENTHEADER_JSON_FIELD_TAG,
						EVENTHEADER_META_DEFAULT),
			 TK_OK);
	assert_int_equal(v.len, strlen(" { \"n\": \"Pr:Ev\", \"n8;tag=0x12\": 5, \"st\": { \"s\": "
				       "\"x\", \"arr\": [ \"0xA\", \"0xB\" ] }, \"empty\": [ ], "
				       "\"meta\": { \"id\": 7, \"version\": 2, \"level\": 4, "
				       "\"keyword\": \"0x2A\", \"opcode\": 1 } }"));
	assert_memory_equal(
		v.data,
		" { \"n\": \"Pr:Ev\", \"n8;tag=0x12\": 5, \"st\": { \"s\": \"x\", \"arr\": "
		"[ \"0xA\", \"0xB\" ] }, \"empty\": [ ], \"meta\": { \"id\": 7, "
		"\"version\": 2, \"level\": 4, \"keyword\": \"0x2A\", \"opcode\": 1 } }",
		v.len);

	v.len = 0;
	assert_int_equal(start(&en, "Pr_L4K2aGx", &e), TK_OK);
	assert_int_equal(eventheader_json_event(&v, &en, EVENTHEADER_JSON_NAME,
						EVENTHEADER_META_N | EVENTHEADER_META_OPTIONS |
							EVENTHEADER_META_FLAGS),
			 TK_OK);
	assert_int_equal(v.len,
			 strlen("\"Ev;attr=1\":{\"n\":\"Pr:Ev\",\"n8\":5,\"st\":{\"s\":\"x\","
				"\"arr\":[\"0xA\",\"0xB\"]},\"empty\":[],\"meta\":{"
				"\"options\":\"Gx\",\"flags\":\"0x7\"}}"));
	assert_memory_equal(
		v.data,
		"\"Ev;attr=1\":{\"n\":\"Pr:Ev\",\"n8\":5,\"st\":{\"s\":\"x\",\"arr\":[\"0xA\","
		"\"0xB\"]},\"empty\":[],\"meta\":{\"options\":\"Gx\",\"flags\":\"0x7\"}}",
		v.len);
	vec_fini(&v);
}

/* ---- writing (eventheader-write.c) ------------------------------------------------------- */

/*
 * The event of test_json_event_layouts() again, its metadata and header made by the writer:
 * the bytes must be the hand-laid ones, so the decoder reads it as that test says.
 */
static void test_write_matches_hand_laid_event(void **state)
{
	static const struct eventheader_def defs[] = {
		{"n8", EVENTHEADER_ENC_VALUE8, 0, 0x12, 0},
		{"st", EVENTHEADER_ENC_STRUCT, 2, 0, 0},
		{"s", EVENTHEADER_ENC_ZSTRING_CHAR8, 0, 0, 0},
		{"arr", EVENTHEADER_ENC_VALUE16 | EVENTHEADER_ENC_VARRAY, 3, 0, 0},
		{"empty", EVENTHEADER_ENC_ZSTRING_CHAR8 | EVENTHEADER_ENC_VARRAY, 0, 0, 0},
	};
	struct eventheader_head h = {.id = 7, .version = 2, .opcode = 1, .level = 4};
	struct vec meta = VEC_INIT;
	uint8_t b[1024];
	size_t n;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 4, "Ev;attr=1");
	e.b[1] = 2;
	e.b[2] = 7;
	e.b[6] = 1;
	ev_field(&e, "n8", 2, -1, 0x12);
	ev_field(&e, "st", 1, 2, 0);
	ev_field(&e, "s", 7, -1, 0);
	ev_field(&e, "arr", 3 | 0x40, 3, 0);
	ev_field(&e, "empty", 7 | 0x40, -1, 0);
	ev_finish(&e); /* no payload: the writer makes what comes before it */

	assert_int_equal(eventheader_meta_write(&meta, "Ev;attr=1", defs, 5), TK_OK);
	assert_int_equal(meta.len, e.meta_n);
	assert_memory_equal(meta.data, e.meta, e.meta_n);
	h.meta_size = (uint16_t) meta.len;
	n = eventheader_prefix_write(b, &h);
	assert_int_equal(n, 12);
	memcpy(b + n, meta.data, meta.len);
	n += meta.len;
	assert_int_equal(n, e.n);
	assert_memory_equal(b, e.b, n);
	vec_fini(&meta);
}

/* A constant-count array keeps its count after the format; activity IDs come first. */
static void test_write_carray_and_activity_ids(void **state)
{
	static const uint8_t ids[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, [31] = 32};
	static const struct eventheader_def defs[] = {
		{"c", EVENTHEADER_ENC_VALUE32 | EVENTHEADER_ENC_CARRAY, 0, 0, 3},
		{"t", EVENTHEADER_ENC_VALUE8 | EVENTHEADER_ENC_CARRAY, EVENTHEADER_FMT_HEX_INT,
		 0x1234, 2},
	};
	static const uint8_t want_meta[] = {'E', 0,    'c',  0,	   0x24, 3, 0, 't',
					    0,	 0xa2, 0x83, 0x34, 0x12, 2, 0};
	static const uint8_t pay[] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0xab, 0xcd};
	struct eventheader_head h = {.level = 5, .activity_id = ids, .related_id = ids + 16};
	struct eventheader_enum en;
	struct eventheader_item it;
	struct vec meta = VEC_INIT;
	uint8_t b[256];
	size_t n;

	(void) state;
	assert_int_equal(eventheader_meta_write(&meta, "E", defs, 2), TK_OK);
	assert_int_equal(meta.len, sizeof(want_meta));
	assert_memory_equal(meta.data, want_meta, sizeof(want_meta));
	h.meta_size = (uint16_t) meta.len;
	n = eventheader_prefix_write(b, &h);
	assert_int_equal(n, 8 + 4 + 32 + 4);
	assert_int_equal(b[0], 0x07);
	assert_memory_equal(b + 8, "\x20\x00\x02\x80", 4);  /* 32 bytes, activity, chained */
	assert_memory_equal(b + 44, "\x0f\x00\x01\x00", 4); /* metadata, last */
	memcpy(b + n, meta.data, meta.len);
	n += meta.len;
	memcpy(b + n, pay, sizeof(pay));
	n += sizeof(pay);

	assert_int_equal(eventheader_start(&en, "P_L5K0", 6, b, n, 100), TK_OK);
	assert_ptr_equal(en.info.activity_id, b + 12);
	assert_ptr_equal(en.info.related_id, b + 28);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_BEGIN, "c", &it);
	assert_int_equal(it.array_count, 3);
	assert_int_equal(it.array_flags, EVENTHEADER_ENC_CARRAY);
	for (int i = 0; i < 3; i++) {
		expect_item(&en, EVENTHEADER_STATE_VALUE, "c", &it);
		assert_int_equal(tk_load_le32(it.value), (uint32_t) i + 1);
	}
	expect_item(&en, EVENTHEADER_STATE_ARRAY_END, "c", &it);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_BEGIN, "t", &it);
	assert_int_equal(it.tag, 0x1234);
	assert_int_equal(it.format, EVENTHEADER_FMT_HEX_INT);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "t", &it);
	assert_int_equal(it.value[0], 0xab);
	expect_item(&en, EVENTHEADER_STATE_VALUE, "t", &it);
	assert_int_equal(it.value[0], 0xcd);
	expect_item(&en, EVENTHEADER_STATE_ARRAY_END, "t", &it);
	assert_int_equal(eventheader_next(&en), TK_END);
	vec_fini(&meta);
}

/* What the format has no room for is refused, the output left as it was. */
static void test_write_refuses_what_the_format_cannot_say(void **state)
{
	static const struct eventheader_def bad[][2] = {
		{{NULL, EVENTHEADER_ENC_VALUE8, 0, 0, 0}},
		{{"x", EVENTHEADER_ENC_INVALID, 0, 0, 0}},
		{{"x", EVENTHEADER_ENC_MAX, 0, 0, 0}},
		{{"x", EVENTHEADER_ENC_VALUE8 | EVENTHEADER_ENC_CHAIN, 0, 0, 0}},
		{{"x", EVENTHEADER_ENC_VALUE8 | EVENTHEADER_ENC_CARRAY | EVENTHEADER_ENC_VARRAY, 0,
		  0, 0}},
		{{"x", EVENTHEADER_ENC_VALUE8 | EVENTHEADER_ENC_CARRAY, 0, 0, 0}},
		{{"x", EVENTHEADER_ENC_VALUE8, 0, 0, 4}},
		{{"x", EVENTHEADER_ENC_VALUE8, 0x80, 0, 0}},
		{{"x", EVENTHEADER_ENC_STRUCT, 0, 0, 0}},
		{{"x", EVENTHEADER_ENC_STRUCT, 2, 0, 0}, {"m", EVENTHEADER_ENC_VALUE8, 0, 0, 0}},
	};
	struct eventheader_def deep[EVENTHEADER_NEST_MAX + 2];
	struct vec meta = VEC_INIT;
	size_t i;

	(void) state;
	assert_int_equal(vec_reserve(&meta, 1, 1), 0);
	meta.len = 1;
	for (i = 0; i < TK_ARRAY_SIZE(bad); i++) {
		size_t n = bad[i][1].name ? 2 : 1;

		assert_int_equal(eventheader_meta_write(&meta, "E", bad[i], n), TK_ERR_INVAL);
		assert_int_equal(meta.len, 1);
		error_reset();
	}
	assert_int_equal(eventheader_meta_write(&meta, "", bad[0] + 1, 0), TK_ERR_INVAL);
	error_reset();
	/* structs nested as deep as the decoder follows, then one more */
	for (i = 0; i < TK_ARRAY_SIZE(deep); i++)
		deep[i] = (struct eventheader_def){"s", EVENTHEADER_ENC_STRUCT, 1, 0, 0};
	deep[EVENTHEADER_NEST_MAX] = (struct eventheader_def){"v", EVENTHEADER_ENC_VALUE8, 0, 0, 0};
	assert_int_equal(eventheader_meta_write(&meta, "E", deep, EVENTHEADER_NEST_MAX + 1), TK_OK);
	{
		struct eventheader_enum en;
		uint8_t b[256];
		struct eventheader_head h = {.level = 1, .meta_size = (uint16_t) (meta.len - 1)};
		size_t n = eventheader_prefix_write(b, &h);

		memcpy(b + n, (char *) meta.data + 1, meta.len - 1);
		n += meta.len - 1;
		b[n++] = 9; /* the value */
		assert_int_equal(eventheader_start(&en, "P_L1K0", 6, b, n, 100), TK_OK);
		for (i = 0; i < EVENTHEADER_NEST_MAX; i++) {
			assert_int_equal(eventheader_next(&en), TK_OK);
			assert_int_equal(en.state, EVENTHEADER_STATE_STRUCT_BEGIN);
		}
		assert_int_equal(eventheader_next(&en), TK_OK);
		assert_int_equal(en.state, EVENTHEADER_STATE_VALUE);
	}
	meta.len = 1;
	deep[EVENTHEADER_NEST_MAX] = deep[0];
	deep[EVENTHEADER_NEST_MAX + 1] =
		(struct eventheader_def){"v", EVENTHEADER_ENC_VALUE8, 0, 0, 0};
	assert_int_equal(eventheader_meta_write(&meta, "E", deep, EVENTHEADER_NEST_MAX + 2),
			 TK_ERR_INVAL);
	assert_int_equal(meta.len, 1);
	error_reset();
	vec_fini(&meta);
}

/* Tracepoint names and registration commands as user_events and the convention want them. */
static void test_write_names(void **state)
{
	char b[300];
	static char longp[300];

	(void) state;
	assert_int_equal(eventheader_tp_name(b, sizeof(b), "MyProvider", 3, 0x2a, ""), 16);
	assert_string_equal(b, "MyProvider_L3K2a");
	assert_int_equal(eventheader_tp_name(b, sizeof(b), "OtherProvider", 5, 1, "Gperf"), 23);
	assert_string_equal(b, "OtherProvider_L5K1Gperf");
	assert_int_equal(eventheader_tp_name(b, sizeof(b), "P", 0xff, UINT64_MAX, ""), 22);
	assert_string_equal(b, "P_LffKffffffffffffffff");
	assert_int_equal(eventheader_tp_name(b, sizeof(b), "a b", 1, 1, ""), 0);
	assert_int_equal(eventheader_tp_name(b, sizeof(b), "a:b", 1, 1, ""), 0);
	assert_int_equal(eventheader_tp_name(b, sizeof(b), "", 1, 1, ""), 0);
	assert_int_equal(eventheader_tp_name(b, sizeof(b), "P", 1, 1, "gx"), 0);
	assert_int_equal(eventheader_tp_name(b, sizeof(b), "P", 1, 1, "G-"), 0);
	assert_int_equal(eventheader_tp_name(b, 8, "Provider", 1, 1, ""), 0);
	memset(longp, 'p', 250); /* with "_L1K1": 255 bytes and the NUL fit */
	assert_int_equal(eventheader_tp_name(b, sizeof(b), longp, 1, 1, ""), 255);
	longp[250] = 'p';
	assert_int_equal(eventheader_tp_name(b, sizeof(b), longp, 1, 1, ""), 0);
	assert_int_equal(eventheader_reg_command(b, sizeof(b), "P_L5K1"), 77);
	assert_string_equal(b, "P_L5K1 u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 "
			       "opcode; u8 level");
	assert_int_equal(eventheader_reg_command(b, 10, "P_L5K1"), 0);
}

/* An interceptor record: u32 size counting itself, the name and its NUL, the event. */
static void test_write_interceptor_record(void **state)
{
	uint8_t b[64];
	size_t n;

	(void) state;
	n = interceptor_record_head(b, "P_L5K1", 6, 20);
	assert_int_equal(n, 11);
	assert_memory_equal(b, "\x1f\x00\x00\x00P_L5K1\0", 11);
	memset(b + n, 0, 20);
	b[n] = 0x07;
	b[n + 7] = 5;
	assert_int_equal(interceptor_probe(b, n + 20), 1);
	assert_int_equal(interceptor_record_head(b, "P_L5K1", 6, UINT32_MAX - 10), 0);
}

/* The text of fields for trace-cmd-like lines: pairs, arrays in brackets, structs in braces. */
static void test_text_fields(void **state)
{
	static const char want[] =
		" n8=5 st={s=x arr=[0xA,0xB]} empty=[] outer=[{x=3},{x=4}] after=9";
	struct eventheader_enum en;
	struct vec v = VEC_INIT;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 4, "Ev");
	ev_field(&e, "n8", 2, -1, 0);
	ev_field(&e, "st", 1, 2, 0);
	ev_field(&e, "s", 7, -1, 0);
	ev_field(&e, "arr", 3 | 0x40, 3, 0);
	ev_field(&e, "empty", 7 | 0x40, -1, 0);
	ev_field(&e, "outer", 1 | 0x40, 1, 0);
	ev_field(&e, "x", 2, -1, 0);
	ev_field(&e, "after", 2, -1, 0);
	ev_pay(&e, 5, 1);
	ev_pay_bytes(&e, "x\0", 2);
	ev_pay(&e, 2, 2);
	ev_pay(&e, 0xA, 2);
	ev_pay(&e, 0xB, 2);
	ev_pay(&e, 0, 2);
	ev_pay(&e, 2, 2); /* outer: 2 structs */
	ev_pay(&e, 3, 1);
	ev_pay(&e, 4, 1);
	ev_pay(&e, 9, 1);
	ev_finish(&e);

	assert_int_equal(start(&en, "Pr_L4K2", &e), TK_OK);
	assert_int_equal(eventheader_text_fields(&v, &en), TK_OK);
	assert_int_equal(v.len, strlen(want));
	assert_memory_equal(v.data, want, v.len);

	/* cut inside the payload: nothing kept, the error says where */
	e.n -= 3;
	v.len = 0;
	assert_int_equal(start(&en, "Pr_L4K2", &e), TK_OK);
	assert_int_equal(eventheader_text_fields(&v, &en), TK_ERR_FORMAT);
	assert_int_equal(v.len, 0);
	vec_fini(&v);
}

/* A failing event leaves nothing in the output and says why. */
static void test_json_event_failure_leaves_nothing(void **state)
{
	struct eventheader_enum en;
	struct vec v = VEC_INIT;
	struct ev e;

	(void) state;
	ev_init(&e, 0, 5, "Cut");
	ev_field(&e, "ok", 2, -1, 0);
	ev_field(&e, "cut", 5, -1, 0);
	ev_pay(&e, 1, 1);
	ev_finish(&e);
	assert_int_equal(vec_reserve(&v, 1, 4), 0);
	memcpy(v.data, "abc", 3);
	v.len = 3;
	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	assert_int_equal(eventheader_json_event(&v, &en, 0, EVENTHEADER_META_DEFAULT),
			 TK_ERR_FORMAT);
	assert_int_equal(v.len, 3);
	assert_true(tk_error_count() >= 2);
	assert_non_null(strstr(tk_error_cause(0), "Cannot format EventHeader event"));
	vec_fini(&v);
	error_reset();
}

/* ---- typed classes (eventheader-model.c) ------------------------------------------------ */

/* Member @i of struct @st: named @name, of kind @kind. */
static const struct model_fc *member(const struct model_fc *st, uint32_t i, const char *name,
				     enum model_fc_kind kind)
{
	assert_int_equal(st->kind, MODEL_FC_STRUCT);
	assert_true(i < st->u.st.count);
	assert_string_equal(st->u.st.members[i].name, name);
	assert_int_equal(st->u.st.members[i].fc->kind, kind);
	return st->u.st.members[i].fc;
}

/*
 * One event of every shape: a hex u32 with a tag, a port (network order), a float, a UTF-16
 * zero-terminated string (with a pair), counted 8-bit text, counted text shown as a number
 * (errno: its bytes), value128, binary, a variable array of structs of a signed u16 and a
 * UTF-32 string, and a constant array of 2 u8. Its class, its values, and the same bytes
 * written again from them.
 */
static void test_typed_class_values_and_round_trip(void **state)
{
	static const uint8_t u16s[] = {'h', 0, 0x3D, 0xD8, 0x00, 0xDE, 0, 0}; /* "h" U+1F600 */
	static const uint8_t guid[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
	struct eventheader_enum en;
	struct eventheader_model_class mc;
	struct eventheader_class_key k1, k2;
	struct eventheader_classes set;
	struct tk_event_class ec;
	struct model_stream_class sc;
	struct tk_event ev;
	struct vec vals = VEC_INIT, text = VEC_INIT, again = VEC_INIT;
	struct arena a;
	const struct model_value *v;
	const struct model_fc *fc;
	const char *tp;
	size_t at, tp_len;
	struct ev e;
	int dummy;

	(void) state;
	arena_init(&a);
	ev_init(&e, 0, 5, "Shapes;attr=1");
	ev_field(&e, "h32;x", 4, 3, 0x12); /* value32, hex, tagged */
	ev_field(&e, "port", 3, 16, 0);
	ev_field(&e, "f", 4, 8, 0);
	ev_field(&e, "z16", 8, -1, 0);
	ev_field(&e, "s8", 10, -1, 0);
	ev_field(&e, "err", 10, 4, 0); /* counted char8 as errno */
	ev_field(&e, "uuid", 6, 15, 0);
	ev_field(&e, "bin", 13, -1, 0);
	ev_field(&e, "pts", 1 | 0x40, 2, 0); /* variable array of struct of 2 */
	ev_field(&e, "x", 3, 2, 0);
	ev_field(&e, "w", 9, -1, 0);
	ev_field(&e, "two", 2 | 0x20, -1, 0);
	ev_meta_u16(&e, 2);
	ev_pay(&e, 0xBEEF, 4);
	ev_pay_bytes(&e, "\x01\xBB", 2); /* 443, network order */
	ev_pay(&e, 0x40490FDB, 4);	 /* 3.1415927f */
	ev_pay_bytes(&e, u16s, sizeof(u16s));
	ev_pay(&e, 3, 2);
	ev_pay_bytes(&e, "a\0b", 3);
	ev_pay(&e, 4, 2);
	ev_pay(&e, 2, 4);
	ev_pay_bytes(&e, guid, 16);
	ev_pay(&e, 2, 2);
	ev_pay_bytes(&e, "\x7F\x80", 2);
	ev_pay(&e, 2, 2); /* pts: 2 elements */
	ev_pay(&e, (uint16_t) -7, 2);
	ev_pay(&e, 0x1F600, 4);
	ev_pay(&e, 0, 4);
	ev_pay(&e, 9, 2);
	ev_pay(&e, 0, 4);
	ev_pay_bytes(&e, "\x05\x06", 2);
	ev_finish(&e);

	assert_int_equal(start(&en, "Prov_L5K1f", &e), TK_OK);
	assert_int_equal(eventheader_model_class(&a, &en, &mc), TK_OK);
	assert_string_equal(mc.name, "Prov:Shapes");
	assert_non_null(strstr(mc.uri, "eventheader:Prov_L5K1f?flags=0x07&meta=536861706573"));
	fc = member(mc.payload, 0, "h32", MODEL_FC_INT);
	assert_int_equal(fc->size, 32);
	assert_int_equal(fc->base, 16);
	assert_int_equal(member(mc.payload, 1, "port", MODEL_FC_INT)->byte_order, TK_BYTE_ORDER_BE);
	assert_int_equal(member(mc.payload, 2, "f", MODEL_FC_FLOAT)->size, 32);
	member(mc.payload, 3, "z16", MODEL_FC_STRING);
	assert_true(member(mc.payload, 4, "s8", MODEL_FC_SEQUENCE)->is_text);
	assert_false(member(mc.payload, 5, "err", MODEL_FC_SEQUENCE)->is_text);
	assert_int_equal(member(mc.payload, 6, "uuid", MODEL_FC_ARRAY)->u.arr.length, 16);
	assert_false(member(mc.payload, 7, "bin", MODEL_FC_SEQUENCE)->is_text);
	fc = member(mc.payload, 8, "pts", MODEL_FC_SEQUENCE)->u.arr.elem;
	assert_true(member(fc, 0, "x", MODEL_FC_INT)->is_signed);
	member(fc, 1, "w", MODEL_FC_STRING);
	assert_int_equal(member(mc.payload, 9, "two", MODEL_FC_ARRAY)->u.arr.length, 2);
	assert_int_equal(mc.payload->u.st.count, 10);
	member(mc.context, 6, "keyword", MODEL_FC_INT);
	assert_int_equal(mc.context->u.st.count, 7); /* no activity IDs */

	/* values: the context's 7, then the payload's in pre-order */
	assert_int_equal(eventheader_model_values(&en, mc.payload, &vals, &at, &text), TK_OK);
	v = vals.data;
	assert_int_equal(at, 7);
	assert_int_equal(v[5].v.u, 5);	  /* level */
	assert_int_equal(v[6].v.u, 0x1f); /* keyword */
	v += at;
	assert_int_equal(v[0].v.u, 0xBEEF);
	assert_int_equal(v[1].v.u, 443);
	assert_true(v[2].v.d > 3.14159 && v[2].v.d < 3.1416);
	assert_int_equal(v[3].n, 5);
	assert_memory_equal(v[3].v.s, "h\xF0\x9F\x98\x80", 5);
	assert_int_equal(v[4].n, 3);
	assert_memory_equal(v[4].v.s, "a\0b", 3);
	assert_int_equal(v[5].n, 4); /* err: 4 bytes */
	assert_int_equal(v[6].v.u, 2);
	assert_int_equal(v[10].n, 16); /* uuid */
	assert_int_equal(v[11].v.u, 1);
	assert_int_equal(v[27].n, 2); /* bin */
	assert_int_equal(v[29].v.u, 0x80);
	assert_int_equal(v[30].n, 2); /* pts */
	assert_int_equal(v[31].v.i, -7);
	assert_int_equal(v[32].n, 4);
	assert_memory_equal(v[32].v.s, "\xF0\x9F\x98\x80", 4);
	assert_int_equal(v[33].v.i, 9);
	assert_int_equal(v[34].n, 0);
	assert_int_equal(v[35].n, 2); /* two */
	assert_int_equal(v[37].v.u, 6);
	assert_int_equal(vals.len, at + 38);

	/* written again from the values: the same bytes (the metadata block comes first) */
	memset(&sc, 0, sizeof(sc));
	memset(&ec, 0, sizeof(ec));
	memset(&ev, 0, sizeof(ev));
	ec.sc = &sc;
	ec.context = mc.context;
	ec.payload = mc.payload;
	ec.emf_uri = mc.uri;
	ev.ec = &ec;
	ev.scope[MODEL_SCOPE_EVENT_CONTEXT] = vals.data;
	ev.scope[MODEL_SCOPE_PAYLOAD] = (const struct model_value *) vals.data + at;
	assert_int_equal(eventheader_model_event(&ev, &again, &tp, &tp_len), TK_OK);
	assert_int_equal(tp_len, 10);
	assert_memory_equal(tp, "Prov_L5K1f", 10);
	assert_int_equal(again.len, e.n);
	assert_memory_equal(again.data, e.b, e.n);

	/* keys: equal for the same metadata, and found again */
	eventheader_class_key(&en, &dummy, &k1);
	assert_int_equal(start(&en, "Prov_L5K1f", &e), TK_OK);
	eventheader_class_key(&en, &dummy, &k2);
	assert_int_equal(k1.hash, k2.hash);
	eventheader_classes_init(&set);
	assert_null(eventheader_classes_find(&set, &k1));
	assert_int_equal(eventheader_classes_put(&set, &k1, &ec), TK_OK);
	assert_ptr_equal(eventheader_classes_find(&set, &k2), &ec);
	k2.owner = &e; /* another tracepoint: another class */
	k2.hash = k1.hash;
	assert_null(eventheader_classes_find(&set, &k2));
	eventheader_classes_fini(&set);

	/* a payload cut short: an error, and the values as they were */
	e.n -= 3;
	vals.len = 0;
	assert_int_equal(start(&en, "Prov_L5K1f", &e), TK_OK);
	assert_true(eventheader_model_values(&en, mc.payload, &vals, &at, &text) < 0);
	assert_int_equal(vals.len, 0);
	error_reset();
	vec_fini(&vals);
	vec_fini(&text);
	vec_fini(&again);
	arena_fini(&a);
}

/* Metadata the enumerator refuses gives no class: a struct of 0 members, encoding 14. */
static void test_typed_class_refused(void **state)
{
	struct eventheader_enum en;
	struct eventheader_model_class mc;
	struct arena a;
	struct ev e;

	(void) state;
	arena_init(&a);
	ev_init(&e, 0, 5, "Bad");
	ev_field(&e, "s", 1, 0, 0);
	ev_finish(&e);
	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	assert_int_equal(eventheader_model_class(&a, &en, &mc), TK_ERR_UNSUPPORTED);
	error_reset();
	ev_init(&e, 0, 5, "Bad");
	ev_field(&e, "x", 14, -1, 0);
	ev_finish(&e);
	assert_int_equal(start(&en, "Prov_L5K0", &e), TK_OK);
	assert_int_equal(eventheader_model_class(&a, &en, &mc), TK_ERR_UNSUPPORTED);
	error_reset();
	arena_fini(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_scalar_encoding_le),
		cmocka_unit_test(test_every_string_encoding),
		cmocka_unit_test(test_big_endian_header_and_values),
		cmocka_unit_test(test_arrays_of_each_kind),
		cmocka_unit_test(test_nested_struct_and_struct_array),
		cmocka_unit_test(test_constant_array_of_structs),
		cmocka_unit_test(test_empty_array_of_structs_skips_members),
		cmocka_unit_test(test_encoding_0_definition_is_damage),
		cmocka_unit_test(test_activity_ids),
		cmocka_unit_test(test_truncated_payload),
		cmocka_unit_test(test_unterminated_zstring),
		cmocka_unit_test(test_bad_flags),
		cmocka_unit_test(test_missing_metadata),
		cmocka_unit_test(test_names_outside_the_convention),
		cmocka_unit_test(test_nesting_limit),
		cmocka_unit_test(test_move_next_limit),
		cmocka_unit_test(test_json_values_of_fixed_sizes),
		cmocka_unit_test(test_json_values_of_strings),
		cmocka_unit_test(test_text_fields),
		cmocka_unit_test(test_json_event_layouts),
		cmocka_unit_test(test_write_matches_hand_laid_event),
		cmocka_unit_test(test_write_carray_and_activity_ids),
		cmocka_unit_test(test_write_refuses_what_the_format_cannot_say),
		cmocka_unit_test(test_write_names),
		cmocka_unit_test(test_write_interceptor_record),
		cmocka_unit_test(test_json_event_failure_leaves_nothing),
		cmocka_unit_test(test_typed_class_values_and_round_trip),
		cmocka_unit_test(test_typed_class_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
