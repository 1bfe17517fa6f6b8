// SPDX-License-Identifier: MIT
/*
 * Unit tests of the tracefs fields of the reference decoder's JSON (eventheader-tracefs.c).
 * The typings expected below were worked out by hand from how LinuxTracepoints' perf-decode
 * reads a format file's "field:TYPE NAME[N];" line (its PerfFieldMetadata), the values from
 * how its EventFormatter writes each kind; the sched_switch record is the first sample of
 * the corpus perf.data (shared/corpus/eventheader), its expected text that file's
 * perf.data.linux.json line. Then hand-made records: __data_loc and __rel_loc fields of both
 * sizes, arrays, size-0 fields, big-endian data and records cut short, where nothing past
 * the record may be read (the ASan build checks it) and the reference writes null, "" or [].
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/error.h"
#include "common/vec.h"
#include "eventheader/eventheader.h"

#define NONE	 EVENTHEADER_TRACEFS_FMT_NONE
#define UNSIGNED EVENTHEADER_TRACEFS_FMT_UNSIGNED
#define SIGNED	 EVENTHEADER_TRACEFS_FMT_SIGNED
#define HEX	 EVENTHEADER_TRACEFS_FMT_HEX
#define STRING	 EVENTHEADER_TRACEFS_FMT_STRING
#define SCALAR	 EVENTHEADER_TRACEFS_ARRAY_NONE
#define FIXED	 EVENTHEADER_TRACEFS_ARRAY_FIXED
#define DYN	 EVENTHEADER_TRACEFS_ARRAY_DYNAMIC
#define RELDYN	 EVENTHEADER_TRACEFS_ARRAY_RELDYN

struct typing_case {
	const char *type; /* libtraceevent's normalised type (struct ftrace_field.type) */
	const char *line; /* the format file's declaration it comes from */
	uint32_t size;
	int is_signed;
	unsigned int long_size;
	uint8_t format, array, element_size;
	uint16_t fixed_count;
};

static const struct typing_case typing_cases[] = {
	/* sched_switch */
	{"char[16]", "char prev_comm[16]", 16, 0, 8, STRING, FIXED, 1, 16},
	{"pid_t", "pid_t prev_pid", 4, 1, 8, HEX, SCALAR, 4, 0},
	{"int", "int prev_prio", 4, 1, 8, SIGNED, SCALAR, 4, 0},
	{"long", "long prev_state", 8, 1, 8, SIGNED, SCALAR, 8, 0},
	/* int words: long follows long_size, unsigned long is hex, long long is 8 bytes */
	{"long", "long x", 4, 1, 4, SIGNED, SCALAR, 4, 0},
	{"long", "long x (no signed:, odd size)", 3, -1, 4, SIGNED, SCALAR, 4, 0},
	{"unsigned long", "unsigned long x", 8, 0, 8, HEX, SCALAR, 8, 0},
	{"unsigned long", "unsigned long x (signed:1 does not touch hex)", 8, 1, 8, HEX, SCALAR, 8,
	 0},
	{"unsigned long", "unsigned long x (odd size: long_size)", 3, 0, 8, HEX, SCALAR, 8, 0},
	{"long unsigned int", "long unsigned int x", 8, 0, 8, HEX, SCALAR, 8, 0},
	{"long int", "long int x", 8, 1, 8, SIGNED, SCALAR, 8, 0},
	{"long long", "long long x", 8, 1, 4, SIGNED, SCALAR, 8, 0},
	{"unsigned long long", "unsigned long long x (not hex)", 8, 0, 8, UNSIGNED, SCALAR, 8, 0},
	{"unsigned long long", "unsigned long long x (odd size)", 5, -1, 4, UNSIGNED, SCALAR, 8, 0},
	{"unsigned int", "unsigned int x", 4, 0, 8, UNSIGNED, SCALAR, 4, 0},
	{"unsigned int", "unsigned int x; signed:1", 4, 1, 8, SIGNED, SCALAR, 4, 0},
	{"int", "int x; signed:0", 4, 0, 8, UNSIGNED, SCALAR, 4, 0},
	{"unsigned", "unsigned x", 4, -1, 8, UNSIGNED, SCALAR, 4, 0},
	{"signed", "signed x", 4, -1, 8, SIGNED, SCALAR, 4, 0},
	{"short", "short x", 2, 1, 8, SIGNED, SCALAR, 2, 0},
	{"unsigned short", "unsigned short x", 2, 0, 8, UNSIGNED, SCALAR, 2, 0},
	{"short unsigned int", "short unsigned int x", 2, 0, 8, UNSIGNED, SCALAR, 2, 0},
	{"short", "short x (size wins: 4)", 4, 1, 8, SIGNED, SCALAR, 4, 0},
	{"const volatile int", "const volatile int x", 4, 1, 8, SIGNED, SCALAR, 4, 0},
	{"", "x (no type words)", 4, -1, 8, SIGNED, SCALAR, 4, 0},
	/* char: text unless unsigned or signed is written; signed: does not make it a number */
	{"char", "char c", 1, 1, 8, STRING, SCALAR, 1, 0},
	{"unsigned char", "unsigned char c", 1, 0, 8, UNSIGNED, SCALAR, 1, 0},
	{"signed char", "signed char c", 1, -1, 8, SIGNED, SCALAR, 1, 0},
	{"unsigned char[6]", "unsigned char mac[6]", 6, 0, 8, UNSIGNED, FIXED, 1, 6},
	{"const char *", "const char * name", 8, 0, 8, HEX, SCALAR, 8, 0},
	{"const char *", "const char * name (size 4 wins)", 4, 0, 8, HEX, SCALAR, 4, 0},
	{"char __attribute__((user)) *", "char __attribute__((user)) * buf", 8, 0, 8, HEX, SCALAR,
	 8, 0},
	/* fixed-width names; signed: overrides their signedness */
	{"u8", "u8 x", 1, 0, 8, UNSIGNED, SCALAR, 1, 0},
	{"u8", "u8 x; signed:1", 1, 1, 8, SIGNED, SCALAR, 1, 0},
	{"__u8", "__u8 x", 1, -1, 8, UNSIGNED, SCALAR, 1, 0},
	{"uint8_t", "uint8_t x", 1, -1, 8, UNSIGNED, SCALAR, 1, 0},
	{"s8", "s8 x", 1, -1, 8, SIGNED, SCALAR, 1, 0},
	{"__s8", "__s8 x", 1, -1, 8, SIGNED, SCALAR, 1, 0},
	{"int8_t", "int8_t x", 1, -1, 8, SIGNED, SCALAR, 1, 0},
	{"u16", "u16 x", 2, -1, 8, UNSIGNED, SCALAR, 2, 0},
	{"__s16", "__s16 x; signed:0", 2, 0, 8, UNSIGNED, SCALAR, 2, 0},
	{"int16_t", "int16_t x", 2, -1, 8, SIGNED, SCALAR, 2, 0},
	{"uint32_t", "uint32_t x", 4, -1, 8, UNSIGNED, SCALAR, 4, 0},
	{"s32", "s32 x", 4, 1, 8, SIGNED, SCALAR, 4, 0},
	{"__u32", "__u32 x (size wins: 8)", 8, 0, 8, UNSIGNED, SCALAR, 8, 0},
	{"u64", "u64 x", 8, 0, 8, UNSIGNED, SCALAR, 8, 0},
	{"__s64", "__s64 x", 8, 1, 8, SIGNED, SCALAR, 8, 0},
	{"int64_t", "int64_t x", 8, 1, 8, SIGNED, SCALAR, 8, 0},
	{"uint64_t", "uint64_t x (odd size)", 12, 0, 8, UNSIGNED, SCALAR, 8, 0},
	{"__u64[4]", "__u64 v[4]", 32, 0, 8, UNSIGNED, FIXED, 8, 4},
	{"u64[2]", "u64 v[2] (size does not fix typed arrays)", 8, 0, 8, UNSIGNED, FIXED, 8, 2},
	/* unknown names: hex, sized by the size (scalars) or size / count (arrays), else 1 */
	{"bool", "bool b", 1, 0, 8, HEX, SCALAR, 1, 0},
	{"gfp_t", "gfp_t flags", 4, 0, 8, HEX, SCALAR, 4, 0},
	{"cpumask_t", "cpumask_t mask", 16, 0, 8, HEX, SCALAR, 1, 0},
	{"enum foo", "enum foo e", 4, 0, 8, HEX, SCALAR, 4, 0},
	{"pid_t[3]", "pid_t pids[3]", 12, 1, 8, HEX, FIXED, 4, 3},
	{"pid_t[3]", "pid_t pids[3] (size not a multiple)", 10, 1, 8, HEX, FIXED, 1, 3},
	{"gfp_t[0x10]", "gfp_t v[0x10]", 64, 0, 8, HEX, FIXED, 4, 16},
	{"foo_t[TASK_COMM_LEN]", "foo_t v[TASK_COMM_LEN] (no count)", 16, 0, 8, HEX, FIXED, 1, 0},
	{"foo_t[2]", "foo_t v[2] (size / count is 3)", 6, 0, 8, HEX, FIXED, 1, 2},
	/* ftrace's own events: "int graph_ent.depth" has the base type graph_ent */
	{"int graph_ent .", "int graph_ent.depth", 4, 1, 8, HEX, SCALAR, 4, 0},
	/* struct: raw bytes, sized by the size when it is 1 to 8 */
	{"struct foo", "struct foo s", 16, 0, 8, NONE, SCALAR, 1, 0},
	{"struct foo", "struct foo s", 8, 0, 8, NONE, SCALAR, 8, 0},
	{"struct foo[2]", "struct foo s[2]", 32, 0, 8, NONE, FIXED, 1, 2},
	{"struct iocb * *", "struct iocb * * iocbpp (a pointer first)", 8, 0, 8, HEX, SCALAR, 8, 0},
	/* pointers: long_size, or the size for scalars */
	{"void *[4]", "void *ptrs[4]", 32, 0, 8, HEX, FIXED, 8, 4},
	{"void *[4]", "void *ptrs[4]", 16, 0, 4, HEX, FIXED, 4, 4},
	{"unsigned long[6]", "unsigned long args[6]", 48, 0, 8, HEX, FIXED, 8, 6},
	{"unsigned long[6]", "unsigned long args[6]", 24, 0, 4, HEX, FIXED, 4, 6},
	/* brackets: the number that starts them, as strtoul reads it, 0 above 16 bits */
	{"int[2*8]", "int v[2 * 8]", 64, 1, 8, SIGNED, FIXED, 4, 2},
	{"char[010]", "char v[010]", 8, 0, 8, STRING, FIXED, 1, 8},
	{"char[-1]", "char v[-1]", 8, 0, 8, STRING, FIXED, 1, 0},
	{"char[70000]", "char v[70000]", 8, 0, 8, STRING, FIXED, 1, 0},
	{"u8[]", "u8 buf[]", 0, 0, 8, UNSIGNED, FIXED, 1, 0},
	{"char[]", "char buf[]", 0, 0, 8, STRING, FIXED, 1, 0},
	/* __data_loc and __rel_loc: dynamic, no count, element size from the type only */
	{"__data_loc char[]", "__data_loc char[] name", 4, 0, 8, STRING, DYN, 1, 0},
	{"__data_loc char[]", "__data_loc char[] name (2-byte form)", 2, 0, 8, STRING, DYN, 1, 0},
	{"__rel_loc char[]", "__rel_loc char[] name", 4, 0, 8, STRING, RELDYN, 1, 0},
	{"__data_loc u32[]", "__data_loc u32[] v", 4, 0, 8, UNSIGNED, DYN, 4, 0},
	{"__data_loc unsigned long[]", "__data_loc unsigned long[] v", 4, 0, 8, HEX, DYN, 8, 0},
	{"__data_loc cpumask_t", "__data_loc cpumask_t mask", 4, 0, 8, HEX, DYN, 1, 0},
	{"__data_loc pid_t[]", "__data_loc pid_t[] v (no size fix-up)", 4, 1, 8, HEX, DYN, 1, 0},
	{"__rel_loc int[]", "__rel_loc int[] v; signed:0", 4, 0, 8, UNSIGNED, RELDYN, 4, 0},
	/* a byte above 0x7F splits words where char is signed (x86-64) */
	{"u32\x80x", "u32<0x80>x v", 4, 0, 8, HEX, SCALAR, 4, 0},
};

static void test_typing_of_declarations(void **state)
{
	struct eventheader_tracefs t;
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(typing_cases) / sizeof(typing_cases[0]); i++) {
		const struct typing_case *c = &typing_cases[i];

		memset(&t, 0xAA, sizeof(t));
		eventheader_tracefs_type(c->type, c->size, c->is_signed, c->long_size, &t);
		if (t.format != c->format || t.array != c->array ||
		    t.element_size != c->element_size || t.fixed_count != c->fixed_count)
			fail_msg("\"%s\" (%s; size %u): format %u array %u element %u count %u, "
				 "expected %u %u %u %u",
				 c->type, c->line, c->size, t.format, t.array, t.element_size,
				 t.fixed_count, c->format, c->array, c->element_size,
				 c->fixed_count);
	}
}

/* One field written alone in an object: what comes between '{' and '}'. */
static char *field_json(unsigned int flags, const char *type, uint32_t size, int is_signed,
			uint32_t offset, const uint8_t *rec, size_t rec_size,
			enum tk_byte_order order)
{
	struct vec v = VEC_INIT;
	struct eventheader_json j;
	struct eventheader_tracefs t;
	char *s;

	eventheader_tracefs_type(type, size, is_signed, 8, &t);
	eventheader_json_begin(&j, &v, flags);
	assert_int_equal(
		eventheader_json_tracefs_field(&j, "f", 1, &t, offset, size, rec, rec_size, order),
		TK_OK);
	assert_int_equal(eventheader_json_end(&j), TK_OK);
	s = malloc(v.len + 1);
	assert_non_null(s);
	memcpy(s, v.data, v.len);
	s[v.len] = '\0';
	vec_fini(&v);
	return s;
}

#define LE TK_BYTE_ORDER_LE
#define BE TK_BYTE_ORDER_BE

static void expect_field(const char *want, const char *type, uint32_t size, int is_signed,
			 uint32_t offset, const uint8_t *rec, size_t rec_size,
			 enum tk_byte_order order)
{
	char *got = field_json(0, type, size, is_signed, offset, rec, rec_size, order);

	assert_string_equal(got, want);
	free(got);
}

/* The first sample of the corpus perf.data: its PERF_SAMPLE_RAW bytes, padding included. */
static const uint8_t sched_switch_raw[68] = {
	0x87, 0x01, 0x01, 0x03, 0x50, 0x09, 0x00, 0x00, 'p',  'e',  'r',  'f',	0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x50, 0x09, 0x00, 0x00,
	0x78, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 'm',  'i',
	'g',  'r',  'a',  't',	'i',  'o',  'n',  '/',	'0',  0x00, 0x00, 0x00, 0x00, 0x00,
	0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static void test_sched_switch_as_corpus(void **state)
{
	/* the format's fields after the common ones, with their normalised types */
	static const struct {
		const char *name, *type;
		uint32_t offset, size;
		int is_signed;
	} fields[] = {
		{"prev_comm", "char[16]", 8, 16, 0},  {"prev_pid", "pid_t", 24, 4, 1},
		{"prev_prio", "int", 28, 4, 1},	      {"prev_state", "long", 32, 8, 1},
		{"next_comm", "char[16]", 40, 16, 0}, {"next_pid", "pid_t", 56, 4, 1},
		{"next_prio", "int", 60, 4, 1},
	};
	static const char want[] =
		"{\"n\":\"sched:sched_switch\",\"prev_comm\":\"perf\",\"prev_pid\":\"0x950\","
		"\"prev_prio\":120,\"prev_state\":2,\"next_comm\":\"migration/0\","
		"\"next_pid\":\"0x11\",\"next_prio\":0,\"meta\":{\"time\":"
		"\"2024-03-28T00:45:12.640913120Z\",\"cpu\":0,\"pid\":2002,\"tid\":2002}}";
	struct eventheader_sample s = {1, 1, 1, 1, 1711586712, 640913120, 0, 2002, 2002};
	struct eventheader_tracefs t;
	struct eventheader_json j;
	struct vec v = VEC_INIT;
	size_t i;

	(void) state;
	eventheader_json_begin(&j, &v, 0);
	eventheader_json_n(&j, "sched", 5, "sched_switch", 12);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		eventheader_tracefs_type(fields[i].type, fields[i].size, fields[i].is_signed, 8,
					 &t);
		assert_int_equal(eventheader_json_tracefs_field(
					 &j, fields[i].name, strlen(fields[i].name), &t,
					 fields[i].offset, fields[i].size, sched_switch_raw,
					 sizeof(sched_switch_raw), LE),
				 TK_OK);
	}
	eventheader_json_meta(&j, &s, EVENTHEADER_META_DEFAULT);
	assert_int_equal(eventheader_json_end(&j), TK_OK);
	assert_int_equal(v.len, strlen(want));
	assert_memory_equal(v.data, want, v.len);
	vec_fini(&v);
}

static void test_scalar_values(void **state)
{
	static const uint8_t r[16] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF,
				      0xFF, 0xFF, 0xFF, 0xFF, 0x80, 0x01, 0x02, 0x03};

	(void) state;
	expect_field("{\"f\":-1}", "int", 4, 1, 0, r, sizeof(r), LE);
	expect_field("{\"f\":4294967295}", "int", 4, 0, 0, r, sizeof(r), LE);
	expect_field("{\"f\":\"0xFFFFFFFF\"}", "pid_t", 4, 1, 0, r, sizeof(r), LE);
	expect_field("{\"f\":-2}", "long", 8, 1, 4, r, sizeof(r), LE);
	expect_field("{\"f\":\"0xFFFFFFFFFFFFFFFE\"}", "unsigned long", 8, 0, 4, r, sizeof(r), LE);
	expect_field("{\"f\":\"0xFEFFFFFFFFFFFFFF\"}", "unsigned long", 8, 0, 4, r, sizeof(r), BE);
	expect_field("{\"f\":18446744073709551614}", "u64", 8, 0, 4, r, sizeof(r), LE);
	/* 1- and 2-byte signed values print zero-extended, as the reference's %d of a u8 */
	expect_field("{\"f\":128}", "s8", 1, 1, 12, r, sizeof(r), LE);
	expect_field("{\"f\":65535}", "short", 2, 1, 0, r, sizeof(r), LE);
	expect_field("{\"f\":\"0x80\"}", "bool", 1, 0, 12, r, sizeof(r), LE);
	expect_field("{\"f\":\"0x8001\"}", "gfp_t", 2, 0, 12, r, sizeof(r), BE);
	/* a size that is not 1, 2, 4 or 8: the type's width, which 3 bytes do not hold */
	expect_field("{\"f\":null}", "unsigned int", 3, 0, 13, r, sizeof(r), LE);
	/* a struct is its bytes; an unknown name of odd size, its first byte in hex */
	expect_field("{\"f\":\"80 01 02\"}", "struct foo", 3, 0, 12, r, sizeof(r), LE);
	expect_field("{\"f\":\"0x1\"}", "cpumask_t", 3, 0, 13, r, sizeof(r), LE);
	/* char: text up to the first NUL, bytes as Latin-1, escaped for JSON */
	{
		static const uint8_t t[8] = {'a', '"', 0xE9, '\n', 0, 'z', 'z', 'z'};

		expect_field("{\"f\":\"a\\\"\xC3\xA9\\n\"}", "char[8]", 8, 0, 0, t, 8, LE);
		expect_field("{\"f\":\"a\\\"\xC3\xA9\"}", "char[3]", 3, 0, 0, t, 8, LE);
		expect_field("{\"f\":\"zzz\"}", "char[3]", 3, 0, 5, t, 8, LE);
	}
}

static void test_array_values(void **state)
{
	static const uint8_t r[20] = {1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x80, 0x7F,
				      5, 0, 0, 0, 0,	0,    0,    0,	  0xAB, 0xCD};
	char *got;

	(void) state;
	expect_field("{\"f\":[1,-1]}", "int[2]", 8, 1, 0, r, sizeof(r), LE);
	expect_field("{\"f\":[\"0x1\",\"0xFFFFFFFF\"]}", "pid_t[2]", 8, 1, 0, r, sizeof(r), LE);
	expect_field("{\"f\":[128,127]}", "s8[2]", 2, 1, 8, r, sizeof(r), LE);
	/* unsigned long[2] of size 2 has 8-byte elements: none whole, so [] */
	expect_field("{\"f\":[]}", "unsigned long[1]", 2, 0, 9, r, sizeof(r), LE);
	expect_field("{\"f\":[\"0xFFFFFFFF00000001\"]}", "unsigned long[1]", 8, 0, 0, r, sizeof(r),
		     LE);
	/* a partial last element is left out */
	expect_field("{\"f\":[1,4294967295]}", "u32[3]", 10, 0, 0, r, sizeof(r), LE);
	/* arrays of structs are one run of hex bytes; of unknown names, 1-byte hex values */
	expect_field("{\"f\":\"80 7f\"}", "struct foo[2]", 2, 0, 8, r, sizeof(r), LE);
	expect_field("{\"f\":[\"0x80\",\"0x7F\"]}", "foo_t[TASK_COMM_LEN]", 2, 0, 8, r, sizeof(r),
		     LE);
	expect_field("{\"f\":[\"0x80\",\"0x7F\"]}", "foo_t[2]", 2, 0, 8, r, sizeof(r), LE);
	/* size 0: the rest of the record */
	expect_field("{\"f\":[171,205]}", "u8[]", 0, 0, 18, r, sizeof(r), LE);
	expect_field("{\"f\":\"\xC2\xAB\xC3\x8D\"}", "char[]", 0, 0, 18, r, sizeof(r), LE);
	/* spaced layout */
	got = field_json(EVENTHEADER_JSON_SPACE, "int[2]", 8, 1, 0, r, sizeof(r), LE);
	assert_string_equal(got, " { \"f\": [ 1, -1 ] }");
	free(got);
	got = field_json(EVENTHEADER_JSON_SPACE, "int[2]", 0, 1, 20, r, sizeof(r), LE);
	assert_string_equal(got, " { \"f\": [ ] }");
	free(got);
}

static void test_dynamic_values(void **state)
{
	uint8_t r[40] = {0};

	(void) state;
	/* __data_loc at 8: 6 bytes at 16, "hello" and its NUL */
	r[8] = 16, r[10] = 6;
	memcpy(r + 16, "hello", 6);
	expect_field("{\"f\":\"hello\"}", "__data_loc char[]", 4, 0, 8, r, sizeof(r), LE);
	/* the same, big-endian: 0x0006_0010 */
	{
		uint8_t b[40];

		memcpy(b, r, sizeof(b));
		b[8] = 0, b[9] = 6, b[10] = 0, b[11] = 16;
		expect_field("{\"f\":\"hello\"}", "__data_loc char[]", 4, 0, 8, b, sizeof(b), BE);
	}
	/* __rel_loc at 8: its offset 4 counts from the field's end (12): 16 again */
	r[8] = 4;
	expect_field("{\"f\":\"hello\"}", "__rel_loc char[]", 4, 0, 8, r, sizeof(r), LE);
	/* the length counts: 3 bytes, no NUL among them */
	r[8] = 16, r[10] = 3;
	expect_field("{\"f\":\"hel\"}", "__data_loc char[]", 4, 0, 8, r, sizeof(r), LE);
	/* past the record: no bytes, so "" */
	r[10] = 25; /* 16 + 25 > 40 */
	expect_field("{\"f\":\"\"}", "__data_loc char[]", 4, 0, 8, r, sizeof(r), LE);
	r[10] = 24; /* 16 + 24 == 40: the last byte is in */
	expect_field("{\"f\":\"hello\"}", "__data_loc char[]", 4, 0, 8, r, sizeof(r), LE);
	/* a dynamic array of u32: 3 values, then 10 bytes = 2 whole ones */
	memset(r + 16, 0, 24);
	r[16] = 1, r[20] = 2, r[24] = 0xFF, r[25] = 0xFF, r[26] = 0xFF, r[27] = 0xFF;
	r[10] = 12;
	expect_field("{\"f\":[1,2,4294967295]}", "__data_loc u32[]", 4, 0, 8, r, sizeof(r), LE);
	expect_field("{\"f\":[1,2,-1]}", "__data_loc int[]", 4, 1, 8, r, sizeof(r), LE);
	r[10] = 10;
	expect_field("{\"f\":[1,2]}", "__data_loc u32[]", 4, 0, 8, r, sizeof(r), LE);
	r[10] = 0;
	expect_field("{\"f\":[]}", "__data_loc u32[]", 4, 0, 8, r, sizeof(r), LE);
	/* a dynamic unknown type: 1-byte hex values */
	r[10] = 2;
	expect_field("{\"f\":[\"0x1\",\"0x0\"]}", "__data_loc cpumask_t", 4, 0, 8, r, sizeof(r),
		     LE);
	/* the 2-byte form: an offset, the text up to its NUL */
	memcpy(r + 30, "abc", 4);
	r[6] = 30, r[7] = 0;
	expect_field("{\"f\":\"abc\"}", "__data_loc char[]", 2, 0, 6, r, sizeof(r), LE);
	r[6] = 0, r[7] = 30;
	expect_field("{\"f\":\"abc\"}", "__data_loc char[]", 2, 0, 6, r, sizeof(r), BE);
	/* __rel_loc of 2 bytes: from the field's end (8) */
	r[6] = 22, r[7] = 0;
	expect_field("{\"f\":\"abc\"}", "__rel_loc char[]", 2, 0, 6, r, sizeof(r), LE);
	/* no NUL before the record's end: nothing */
	r[6] = 30, r[7] = 0;
	expect_field("{\"f\":\"\"}", "__data_loc char[]", 2, 0, 6, r, 33, LE);
	r[6] = 40;
	expect_field("{\"f\":\"\"}", "__data_loc char[]", 2, 0, 6, r, sizeof(r), LE);
	/* other sizes of a dynamic field have no bytes */
	expect_field("{\"f\":\"\"}", "__data_loc char[]", 8, 0, 8, r, sizeof(r), LE);
	expect_field("{\"f\":[]}", "__data_loc u32[]", 1, 0, 8, r, sizeof(r), LE);
}

/* Records cut before a field's end: nothing read past them, and null, "" or [] written. */
static void test_truncated_records(void **state)
{
	uint8_t *r = malloc(26);

	(void) state;
	assert_non_null(r);
	memset(r, 0x41, 26);
	/* exactly the record's bytes, on the heap, so ASan sees any read past them */
	expect_field("{\"f\":null}", "int", 4, 1, 24, r, 26, LE);
	expect_field("{\"f\":null}", "pid_t", 4, 1, 24, r, 26, LE);
	expect_field("{\"f\":null}", "u8", 1, 0, 26, r, 26, LE);
	expect_field("{\"f\":\"\"}", "char[16]", 16, 0, 16, r, 26, LE);
	expect_field("{\"f\":[]}", "int[4]", 16, 1, 16, r, 26, LE);
	expect_field("{\"f\":\"\"}", "struct foo", 4, 0, 24, r, 26, LE);
	expect_field("{\"f\":\"\"}", "__data_loc char[]", 4, 0, 24, r, 26, LE);
	expect_field("{\"f\":\"\"}", "__data_loc char[]", 2, 0, 25, r, 26, LE);
	expect_field("{\"f\":null}", "int", 4, 1, 0xFFFF, r, 26, LE);
	expect_field("{\"f\":null}", "int", 4, 1, 0, NULL, 0, LE);
	/* size 0 at the end: no bytes */
	expect_field("{\"f\":\"\"}", "char[]", 0, 0, 26, r, 26, LE);
	expect_field("{\"f\":\"AA\"}", "char[]", 0, 0, 24, r, 26, LE);
	/* a string without NUL ends with the field */
	expect_field("{\"f\":\"AA\"}", "char[2]", 2, 0, 24, r, 26, LE);
	free(r);
}

/* A field line with an offset or size above 16 bits is dropped by the reference: no member. */
static void test_fields_beyond_16_bits_are_left_out(void **state)
{
	static const uint8_t r[8];

	(void) state;
	expect_field("{}", "int", 4, 1, 0x10000, r, sizeof(r), LE);
	expect_field("{}", "char[]", 0x10000, 0, 0, r, sizeof(r), LE);
	expect_field("{\"f\":null}", "int", 4, 1, 0xFFFF, r, sizeof(r), LE);
}

static void test_raw_and_bad_typing(void **state)
{
	static const uint8_t raw[3] = {0x01, 0xAB, 0x00};
	struct eventheader_tracefs t = {0, 3, HEX, SCALAR};
	struct eventheader_json j;
	struct vec v = VEC_INIT;

	(void) state;
	eventheader_json_begin(&j, &v, 0);
	eventheader_json_n(&j, "", 0, "", 0);
	assert_int_equal(eventheader_json_raw(&j, raw, sizeof(raw)), TK_OK);
	assert_int_equal(eventheader_json_end(&j), TK_OK);
	assert_int_equal(v.len, strlen("{\"n\":\":\",\"raw\":\"01 ab 00\"}"));
	assert_memory_equal(v.data, "{\"n\":\":\",\"raw\":\"01 ab 00\"}", v.len);
	v.len = 0;

	eventheader_json_begin(&j, &v, 0);
	assert_int_equal(eventheader_json_raw(&j, NULL, 0), TK_OK);
	assert_int_equal(eventheader_json_end(&j), TK_OK);
	assert_memory_equal(v.data, "{\"raw\":\"\"}", v.len);
	v.len = 0;

	/* a typing eventheader_tracefs_type() never gives is refused with a cause */
	error_reset();
	eventheader_json_begin(&j, &v, 0);
	assert_int_equal(eventheader_json_tracefs_field(&j, "f", 1, &t, 0, 3, raw, 3, LE),
			 TK_ERR_INVAL);
	t.element_size = 4;
	t.format = 7;
	assert_int_equal(eventheader_json_tracefs_field(&j, "f", 1, &t, 0, 3, raw, 3, LE),
			 TK_ERR_INVAL);
	error_reset();
	vec_fini(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typing_of_declarations),
		cmocka_unit_test(test_sched_switch_as_corpus),
		cmocka_unit_test(test_scalar_values),
		cmocka_unit_test(test_array_values),
		cmocka_unit_test(test_dynamic_values),
		cmocka_unit_test(test_truncated_records),
		cmocka_unit_test(test_fields_beyond_16_bits_are_left_out),
		cmocka_unit_test(test_raw_and_bad_typing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
