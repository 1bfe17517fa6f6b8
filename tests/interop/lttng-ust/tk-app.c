/* SPDX-License-Identifier: MIT */
/*
 * The traced program of tests/interop/lttng-ust.sh. It fires every "tracekit_interop"
 * tracepoint (tk-probes.h) several times with values picked to hit edge cases: integer limits
 * and negative numbers in every width and base, floats that are negative, tiny, huge, not
 * integral, infinite or NaN, strings that need escaping or are not valid UTF-8, empty and
 * full arrays and sequences, and enumeration values that match one label, two overlapping
 * labels or none.
 *
 * Between groups of events the thread moves to the next CPU it may run on, so the events
 * land in several per-CPU streams whose timestamps interleave, and readers must merge them.
 *
 * The _network macros take values already in network byte order: LTTng stores the bytes
 * unchanged and describes the field as big-endian. Host values are passed here, so on a
 * little-endian machine both readers show them byte-swapped, which is what is compared.
 *
 * On stdout it writes one line per event name, "NAME COUNT", counting every tracepoint it
 * fired, so the test can check that the recording lost nothing.
 *
 * Usage: tk-app [N]   fires every group N times (default 1): many times over, the events
 * wrap the small buffers of an overwrite-mode (flight recorder) channel.
 */
#define _GNU_SOURCE /* sched_setaffinity() and the CPU_* macros */

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk-probes.h"

/* Event names in the order they are first fired; the counts are printed in this order. */
static const char *const names[] = {
	"integer",
	"integer_hex",
	"integer_network",
	"integer_network_hex",
	"float",
	"string",
	"array",
	"array_text",
	"array_hex",
	"array_network",
	"array_network_hex",
	"sequence",
	"sequence_text",
	"sequence_hex",
	"sequence_network",
	"sequence_network_hex",
	"enum",
	"mixed",
	"mixed_text",
	"empty",
	"point_warn",
	"point_debug",
};

static unsigned long counts[sizeof(names) / sizeof(names[0])];
static int uncounted; /* set when an event is missing from names[]: the counts are wrong */

static void counted(const char *name)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(names[i], name) == 0) {
			counts[i]++;
			return;
		}
	}
	fprintf(stderr, "tk-app: event %s missing from the count table\n", name);
	uncounted = 1;
}

static cpu_set_t allowed;
static int cpu = -1;

/* Move to the next CPU of the allowed set, round robin; stay put if there is only one. */
static void next_cpu(void)
{
	cpu_set_t one;

	if (CPU_COUNT(&allowed) < 2)
		return;
	do
		cpu = (cpu + 1) % CPU_SETSIZE;
	while (!CPU_ISSET(cpu, &allowed));
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) != 0)
		CPU_ZERO(&allowed); /* cannot move: keep going where we are */
}

/* Fire tracepoint EV of the provider and count it. */
#define FIRE(ev, ...)                                                                              \
	do {                                                                                       \
		lttng_ust_tracepoint(tracekit_interop, ev, __VA_ARGS__);                           \
		counted(#ev);                                                                      \
	} while (0)

struct int_row {
	int8_t s8;
	int16_t s16;
	int32_t s32;
	int64_t s64;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
};

static const struct int_row int_rows[] = {
	{0, 0, 0, 0, 0, 0, 0, 0},
	{INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN, 0, 0, 0, 0},
	{INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX, UINT8_MAX, UINT16_MAX, UINT32_MAX, UINT64_MAX},
	{-1, -1, -1, -1, 1, 1, 1, 1},
	{-42, 1234, -123456789, INT64_C(1234567890123), 200, 40000, UINT32_C(3000000000),
	 UINT64_C(10000000000000000000)},
	{0x12, 0x1234, 0x12345678, INT64_C(0x123456789abcdef0), 0x80, 0x8000, UINT32_C(0x80000000),
	 UINT64_C(0x8000000000000000)},
};

static void fire_integers(void)
{
	for (size_t i = 0; i < sizeof(int_rows) / sizeof(int_rows[0]); i++) {
		const struct int_row *r = &int_rows[i];

		next_cpu();
		FIRE(integer, r->s8, r->s16, r->s32, r->s64, r->u8, r->u16, r->u32, r->u64);
		FIRE(integer_hex, r->s8, r->s16, r->s32, r->s64, r->u8, r->u16, r->u32, r->u64);
		FIRE(integer_network, r->s8, r->s16, r->s32, r->s64, r->u8, r->u16, r->u32, r->u64);
		FIRE(integer_network_hex, r->s8, r->s16, r->s32, r->s64, r->u8, r->u16, r->u32,
		     r->u64);
	}
}

static void fire_floats(void)
{
	static const struct {
		float f;
		double d;
	} rows[] = {
		{0.0f, 0.0},
		{-0.0f, -0.0},
		{1.0f, 1.0},
		{1.5f, -2.25},
		{-3.75f, 3.141592653589793},
		{0.1f, 0.1},
		{1.0f / 3.0f, 2.0 / 3.0},
		{123456.789f, 123456789.125},
		{1e-30f, 1e-300},
		{FLT_MIN, DBL_MIN},
		{1.401298464e-45f, 4.9406564584124654e-324}, /* smallest subnormals */
		{FLT_MAX, DBL_MAX},
		{-FLT_MAX, -DBL_MAX},
		{1e20f, 1e100},
		{16777217.0f, 9007199254740993.0}, /* just above the exact-integer range */
		{-1e-5f, 12345678.9},
		{INFINITY, -INFINITY},
		{NAN, -NAN},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (i % 3 == 0)
			next_cpu();
		FIRE(float, rows[i].f, rows[i].d);
	}
}

static void fire_strings(void)
{
	static char longest[301];
	static const char *const rows[][2] = {
		{"", ""},
		{"plain ascii", ""},
		{"", "after an empty one"},
		{"quote \" backslash \\ tab \t newline \n question ? end", "single ' quote"},
		{"carriage \r bell \a backspace \b formfeed \f vtab \v esc \x1b del \x7f",
		 "\x01\x02\x1f"},
		{"UTF-8: \xc3\xa9t\xc3\xa9 \xe2\x82\xac \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80",
		 "\xc3\xa9"},
		{"invalid UTF-8: \xff\xfe \xc3 \xe2\x82 \xc0\xaf", "\x80"},
		{"trigraph ?\?= and %s %d %n", "{ braces } [ brackets ] = : ,"},
		{NULL, "after NULL"},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		FIRE(string, rows[i][0], rows[i][1]);
	memset(longest, 'x', sizeof(longest) - 1);
	longest[150] = ' ';
	FIRE(string, longest, "long");
}

static void fire_arrays(void)
{
	static const int8_t s8[][3] = {{0, 0, 0}, {INT8_MIN, -1, INT8_MAX}, {1, 2, 3}};
	static const uint16_t u16[][2] = {{0, 0}, {UINT16_MAX, 1}, {256, 4096}};
	static const int32_t s32[][4] = {
		{0, 0, 0, 0}, {INT32_MIN, -1, 0, INT32_MAX}, {-7, 7, -70000, 70000}};
	static const uint64_t u64[][2] = {{0, 0}, {UINT64_MAX, 1}, {1ull << 63, 42}};
	static const char c[][3] = {{'a', 'b', 'c'}, {0, -1, 127}, {'\n', '"', '\\'}};

	for (size_t i = 0; i < 3; i++)
		FIRE(array, s8[i], u16[i], s32[i], u64[i], c[i]);

	/* The text arrays are not NUL-terminated in the source: exactly N bytes are recorded. */
	static const char t8[][8] = {
		{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'},
		{'a', 'b', 0, 'c', 'd', 'e', 'f', 'g'},
		{0, 'x', 'y', 'z', 0, 0, 0, 0},
		{'"', '\\', '\t', '\n', '?', '\xc3', '\xa9', '!'},
		{'h', 'i', 0, 0, 0, 0, 0, 0},
		{'\xe2', '\x82', '\xac', '\xff', 'o', 'k', 0, 0},
	};
	static const char t1[][1] = {{'z'}, {0}, {'\n'}, {'\x80'}, {' '}, {'\''}};

	for (size_t i = 0; i < sizeof(t8) / sizeof(t8[0]); i++)
		FIRE(array_text, t8[i], t1[i]);

	static const uint8_t hu8[][4] = {{0, 1, 0x7f, 0xff}, {0xde, 0xad, 0xbe, 0xef}};
	static const int32_t hs32[][3] = {{-1, 0, INT32_MIN}, {0x10, -0x10, INT32_MAX}};
	static const uint64_t hu64[][2] = {{0, UINT64_MAX}, {0xfeedfacecafebeefull, 1}};

	for (size_t i = 0; i < 2; i++)
		FIRE(array_hex, hu8[i], hs32[i], hu64[i]);

	static const uint16_t nu16[][3] = {{0, 1, 0xff00}, {0x1234, 0xffff, 0x0100}};
	static const int32_t ns32[][2] = {{-1, 1}, {INT32_MIN, INT32_MAX}};
	static const int64_t ns64[][2] = {{INT64_MIN, INT64_MAX}, {-256, 0x0102030405060708}};

	for (size_t i = 0; i < 2; i++)
		FIRE(array_network, nu16[i], ns32[i], ns64[i]);

	static const uint32_t nhu32[][2] = {{0x01020304, 0xffffffff}, {0, 0x80000000}};
	static const int16_t nhs16[][2] = {{-1, 0x7f00}, {INT16_MIN, 0x00ff}};

	for (size_t i = 0; i < 2; i++)
		FIRE(array_network_hex, nhu32[i], nhs16[i]);
}

static void fire_sequences(void)
{
	static const int32_t s32[] = {INT32_MIN, -1, 0, 1, INT32_MAX};
	static const uint8_t u8[] = {0, 1, 127, 128, 255};
	static const int64_t s64[] = {INT64_MIN, -1, INT64_MAX};

	FIRE(sequence, s32, 0, u8, 0, s64, 0);
	FIRE(sequence, s32, 1, u8, 5, s64, 3);
	FIRE(sequence, s32, 5, u8, 1, s64, 0);
	FIRE(sequence, NULL, 0, u8 + 2, 3, s64 + 1, 2);

	static const char text[] = "tab\there \"q\" back\\slash new\nline ? \xc3\xa9 \xff";

	FIRE(sequence_text, text, 0, text, 0);
	FIRE(sequence_text, text, 3, "x", 1);
	FIRE(sequence_text, text, sizeof(text) - 1, "a\0b", 3);
	FIRE(sequence_text, "nul\0inside", 10, "", 0);
	FIRE(sequence_text, "\xe4\xb8\xad\xe6\x96\x87", 6, "\xe4\xb8", 2);

	static const uint16_t h16[] = {0, 0xabcd, 0xffff, 1};
	static const int64_t h64[] = {-1, INT64_MIN, 0x1000};

	FIRE(sequence_hex, h16, 0, h64, 0);
	FIRE(sequence_hex, h16, 4, h64, 3);
	FIRE(sequence_hex, h16 + 1, 1, h64 + 2, 1);

	static const uint32_t n32[] = {0x01020304, 0, UINT32_MAX};
	static const int16_t n16[] = {-2, INT16_MAX, INT16_MIN, 0x0102};

	FIRE(sequence_network, n32, 3, n16, 4);
	FIRE(sequence_network, n32, 0, n16, 1);
	FIRE(sequence_network, n32 + 2, 1, n16, 0);

	static const uint64_t nh64[] = {0x0102030405060708ull, UINT64_MAX, 0};
	static const int8_t nh8[] = {-128, -1, 0, 127};

	FIRE(sequence_network_hex, nh64, 3, nh8, 4);
	FIRE(sequence_network_hex, nh64, 0, nh8, 0);
	FIRE(sequence_network_hex, nh64 + 1, 1, nh8 + 3, 1);
}

static void fire_enums(void)
{
	static const struct {
		int color;
		uint8_t counted;
		int64_t s64;
		uint64_t u64;
		int8_t s8;
	} rows[] = {
		{0, 0, INT64_MIN, 0, -128}, /* single values; s64 in two labels */
		{1, 1, -1, UINT64_C(0x7fffffffffffffff), -1},
		{2, 10, 0, UINT64_C(0x8000000000000000), 0},
		{12, 11, 1, UINT64_MAX, 1},	 /* u64 in two labels; s8 in none */
		{15, 25, INT64_MAX, 12345, 127}, /* color in two overlapping labels */
		{7, 12, 42, 1, 5},		 /* in no label */
		{-3, 30, -42, 2, -64},
		{50, 2, 2, 3, 0},
		{-100, 255, 0, 0, 0},
		{1000000, 29, 0, 0, 0},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (i % 4 == 0)
			next_cpu();
		FIRE(enum, rows[i].color, rows[i].counted, rows[i].s64, rows[i].u64, rows[i].s8);
	}
}

static void fire_mixed(void)
{
	static const uint16_t vals[] = {1, 2, 65535, 0, 300};

	FIRE(mixed, 1, "first", 0.5, vals, 5, 1, 0xc0a80001u, 11);
	FIRE(mixed, 2, "", -1e-3, vals, 0, 14, 0x7f000001u, 22);
	FIRE(mixed, 255, "tab\tand \"quotes\"", 1e6, vals + 2, 2, 9, 0, 33);
	FIRE(mixed, 0, "\xc3\xa9t\xc3\xa9!", -0.0, vals, 1, 1000000, 0xffffffffu, 44);

	FIRE(mixed_text, "hello world", 5, UINT64_C(0xdeadbeef));
	FIRE(mixed_text, "a", 1, 0);
	FIRE(mixed_text, "\"\\\n", 3, UINT64_MAX);

	lttng_ust_tracepoint(tracekit_interop, empty);
	counted("empty");
	lttng_ust_tracepoint(tracekit_interop, empty);
	counted("empty");

	FIRE(point_warn, 1, -1);
	FIRE(point_debug, INT32_MIN, INT32_MAX);
	FIRE(point_warn, 0, 0);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		CPU_ZERO(&allowed);

	for (long r = 0; r < rounds; r++) {
		fire_integers();
		fire_floats();
		next_cpu();
		fire_strings();
		next_cpu();
		fire_arrays();
		next_cpu();
		fire_sequences();
		fire_enums();
		next_cpu();
		fire_mixed();
	}

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		printf("%s %lu\n", names[i], counts[i]);
	return uncounted;
}
