/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint provider "tracekit_interop" for tests/interop/lttng-ust.sh.
 *
 * The interop test records a real LTTng-UST trace and checks that `tracekit print` shows it
 * exactly as babeltrace2 does. To make that check worth something, this provider declares one
 * tracepoint per LTTng-UST 2.13 field macro (named after the macro), so every way LTTng lays out
 * a field in a packet and describes it in the metadata is met at least once: integers of each
 * size and signedness in both byte orders and both display bases, floats, strings, fixed and
 * variable arrays in every flavour, text arrays and enumerations. A few extra tracepoints mix
 * fields (alignment between unlike fields), carry no field at all, and use an event class with
 * log levels and an EMF URI, which only show with `--fields=all`.
 *
 * This header is read several times by <lttng/tracepoint-event.h>, hence the guard that lets
 * LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ through. tk-probes.c instantiates the probes;
 * tk-app.c fires the tracepoints.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER tracekit_interop

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "tk-probes.h"

#if !defined(TK_PROBES_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define TK_PROBES_H

#include <stddef.h>
#include <stdint.h>

#include <lttng/tracepoint.h>

/* clang-format off */

/*
 * Enumerations. LTTng-UST says overlapping ranges are allowed and left to the reader, so
 * "teens" overlaps "tens"; values 7, 50 and -100 match no label at all.
 */
LTTNG_UST_TRACEPOINT_ENUM(tracekit_interop, color,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("RED", 0)
		lttng_ust_field_enum_value("GREEN", 1)
		lttng_ust_field_enum_value("BLUE", 2)
		lttng_ust_field_enum_range("tens", 10, 19)
		lttng_ust_field_enum_range("teens", 13, 19)
		lttng_ust_field_enum_range("negative", -5, -1)
		lttng_ust_field_enum_value("with space, \"quote\"", 1000000)
	)
)

/* Automatic values continue from the previous entry, as in C enums. */
LTTNG_UST_TRACEPOINT_ENUM(tracekit_interop, counted,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_auto("zero")
		lttng_ust_field_enum_auto("one")
		lttng_ust_field_enum_value("ten", 10)
		lttng_ust_field_enum_auto("eleven")
		lttng_ust_field_enum_range("twenties", 20, 29)
		lttng_ust_field_enum_auto("thirty")
	)
)

LTTNG_UST_TRACEPOINT_ENUM(tracekit_interop, s64_span,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("min", INT64_MIN)
		lttng_ust_field_enum_range("below_zero", INT64_MIN, -1)
		lttng_ust_field_enum_value("zero", 0)
		lttng_ust_field_enum_range("above_zero", 1, INT64_MAX)
	)
)

LTTNG_UST_TRACEPOINT_ENUM(tracekit_interop, u64_span,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_range("low", UINT64_C(0), UINT64_C(0x7fffffffffffffff))
		lttng_ust_field_enum_range("high", UINT64_C(0x8000000000000000), UINT64_MAX)
		lttng_ust_field_enum_value("max", UINT64_MAX)
	)
)

LTTNG_UST_TRACEPOINT_ENUM(tracekit_interop, small,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_range("minus", -128, -1)
		lttng_ust_field_enum_value("nil", 0)
	)
)

/* One tracepoint per integer macro, each with all eight C integer widths. */
#define TK_INT_ARGS                                                                    \
	LTTNG_UST_TP_ARGS(int8_t, s8, int16_t, s16, int32_t, s32, int64_t, s64,        \
			  uint8_t, u8, uint16_t, u16, uint32_t, u32, uint64_t, u64)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, integer, TK_INT_ARGS,
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int8_t, s8, s8)
		lttng_ust_field_integer(int16_t, s16, s16)
		lttng_ust_field_integer(int32_t, s32, s32)
		lttng_ust_field_integer(int64_t, s64, s64)
		lttng_ust_field_integer(uint8_t, u8, u8)
		lttng_ust_field_integer(uint16_t, u16, u16)
		lttng_ust_field_integer(uint32_t, u32, u32)
		lttng_ust_field_integer(uint64_t, u64, u64)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, integer_hex, TK_INT_ARGS,
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(int8_t, s8, s8)
		lttng_ust_field_integer_hex(int16_t, s16, s16)
		lttng_ust_field_integer_hex(int32_t, s32, s32)
		lttng_ust_field_integer_hex(int64_t, s64, s64)
		lttng_ust_field_integer_hex(uint8_t, u8, u8)
		lttng_ust_field_integer_hex(uint16_t, u16, u16)
		lttng_ust_field_integer_hex(uint32_t, u32, u32)
		lttng_ust_field_integer_hex(uint64_t, u64, u64)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, integer_network, TK_INT_ARGS,
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_network(int8_t, s8, s8)
		lttng_ust_field_integer_network(int16_t, s16, s16)
		lttng_ust_field_integer_network(int32_t, s32, s32)
		lttng_ust_field_integer_network(int64_t, s64, s64)
		lttng_ust_field_integer_network(uint8_t, u8, u8)
		lttng_ust_field_integer_network(uint16_t, u16, u16)
		lttng_ust_field_integer_network(uint32_t, u32, u32)
		lttng_ust_field_integer_network(uint64_t, u64, u64)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, integer_network_hex, TK_INT_ARGS,
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_network_hex(int8_t, s8, s8)
		lttng_ust_field_integer_network_hex(int16_t, s16, s16)
		lttng_ust_field_integer_network_hex(int32_t, s32, s32)
		lttng_ust_field_integer_network_hex(int64_t, s64, s64)
		lttng_ust_field_integer_network_hex(uint8_t, u8, u8)
		lttng_ust_field_integer_network_hex(uint16_t, u16, u16)
		lttng_ust_field_integer_network_hex(uint32_t, u32, u32)
		lttng_ust_field_integer_network_hex(uint64_t, u64, u64)
	)
)

/* A byte between the two floats makes the double start unaligned before padding. */
LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, float,
	LTTNG_UST_TP_ARGS(float, f, double, d),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_float(float, f, f)
		lttng_ust_field_integer(uint8_t, gap, 0xa5)
		lttng_ust_field_float(double, d, d)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, string,
	LTTNG_UST_TP_ARGS(const char *, s, const char *, after),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(s, s)
		lttng_ust_field_string(after, after)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, array,
	LTTNG_UST_TP_ARGS(const int8_t *, s8, const uint16_t *, u16, const int32_t *, s32,
			  const uint64_t *, u64, const char *, c),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_array(int8_t, s8, s8, 3)
		lttng_ust_field_array(uint16_t, u16, u16, 2)
		lttng_ust_field_array(int32_t, s32, s32, 4)
		lttng_ust_field_array(uint64_t, u64, u64, 2)
		lttng_ust_field_array(char, c, c, 3)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, array_text,
	LTTNG_UST_TP_ARGS(const char *, t8, const char *, t1),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_array_text(char, t8, t8, 8)
		lttng_ust_field_array_text(char, t1, t1, 1)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, array_hex,
	LTTNG_UST_TP_ARGS(const uint8_t *, u8, const int32_t *, s32, const uint64_t *, u64),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_array_hex(uint8_t, u8, u8, 4)
		lttng_ust_field_array_hex(int32_t, s32, s32, 3)
		lttng_ust_field_array_hex(uint64_t, u64, u64, 2)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, array_network,
	LTTNG_UST_TP_ARGS(const uint16_t *, u16, const int32_t *, s32, const int64_t *, s64),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_array_network(uint16_t, u16, u16, 3)
		lttng_ust_field_array_network(int32_t, s32, s32, 2)
		lttng_ust_field_array_network(int64_t, s64, s64, 2)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, array_network_hex,
	LTTNG_UST_TP_ARGS(const uint32_t *, u32, const int16_t *, s16),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_array_network_hex(uint32_t, u32, u32, 2)
		lttng_ust_field_array_network_hex(int16_t, s16, s16, 2)
	)
)

/* Length fields of three unsigned widths; lengths from 0 up. */
LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, sequence,
	LTTNG_UST_TP_ARGS(const int32_t *, s32, size_t, n32, const uint8_t *, u8, uint8_t, n8,
			  const int64_t *, s64, uint16_t, n64),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence(int32_t, s32, s32, size_t, n32)
		lttng_ust_field_sequence(uint8_t, u8, u8, uint8_t, n8)
		lttng_ust_field_sequence(int64_t, s64, s64, uint16_t, n64)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, sequence_text,
	LTTNG_UST_TP_ARGS(const char *, t, size_t, n, const char *, t2, uint8_t, n2),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence_text(char, t, t, size_t, n)
		lttng_ust_field_sequence_text(char, t2, t2, uint8_t, n2)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, sequence_hex,
	LTTNG_UST_TP_ARGS(const uint16_t *, u16, size_t, n16, const int64_t *, s64, uint32_t, n64),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence_hex(uint16_t, u16, u16, size_t, n16)
		lttng_ust_field_sequence_hex(int64_t, s64, s64, uint32_t, n64)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, sequence_network,
	LTTNG_UST_TP_ARGS(const uint32_t *, u32, size_t, n32, const int16_t *, s16, uint8_t, n16),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence_network(uint32_t, u32, u32, size_t, n32)
		lttng_ust_field_sequence_network(int16_t, s16, s16, uint8_t, n16)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, sequence_network_hex,
	LTTNG_UST_TP_ARGS(const uint64_t *, u64, size_t, n64, const int8_t *, s8, uint8_t, n8),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence_network_hex(uint64_t, u64, u64, size_t, n64)
		lttng_ust_field_sequence_network_hex(int8_t, s8, s8, uint8_t, n8)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, enum,
	LTTNG_UST_TP_ARGS(int, color, uint8_t, counted, int64_t, s64, uint64_t, u64, int8_t, s8),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(tracekit_interop, color, int, color, color)
		lttng_ust_field_enum(tracekit_interop, counted, uint8_t, counted, counted)
		lttng_ust_field_enum(tracekit_interop, s64_span, int64_t, s64, s64)
		lttng_ust_field_enum(tracekit_interop, u64_span, uint64_t, u64, u64)
		lttng_ust_field_enum(tracekit_interop, small, int8_t, s8, s8)
	)
)

/*
 * Unlike fields side by side, so each one starts at a different alignment. The _nowrite field
 * is declared for filtering only and must appear in neither tool's output.
 */
LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, mixed,
	LTTNG_UST_TP_ARGS(uint8_t, tag, const char *, name, double, ratio, const uint16_t *, vals,
			  uint8_t, nvals, int, color, uint32_t, addr, int64_t, hidden),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint8_t, tag, tag)
		lttng_ust_field_string(name, name)
		lttng_ust_field_float(double, ratio, ratio)
		lttng_ust_field_sequence(uint16_t, vals, vals, uint8_t, nvals)
		lttng_ust_field_integer_nowrite(int64_t, hidden, hidden)
		lttng_ust_field_enum(tracekit_interop, color, int, color, color)
		lttng_ust_field_array_text(char, name4, name, 4)
		lttng_ust_field_integer_network_hex(uint32_t, addr, addr)
		lttng_ust_field_float(float, ratio_f, (float)ratio)
		lttng_ust_field_integer(int8_t, last, -(int8_t)tag)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, mixed_text,
	LTTNG_UST_TP_ARGS(const char *, s, size_t, n, uint64_t, id),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence_text(char, head, s, size_t, n)
		lttng_ust_field_integer_hex(uint64_t, id, id)
		lttng_ust_field_string(full, s)
		lttng_ust_field_array_hex(uint8_t, bytes, (const uint8_t *)s, 2)
		lttng_ust_field_integer(int16_t, len, (int16_t)n)
	)
)

/* An event without any payload field. */
LTTNG_UST_TRACEPOINT_EVENT(tracekit_interop, empty,
	LTTNG_UST_TP_ARGS(),
	LTTNG_UST_TP_FIELDS()
)

/*
 * Two events from one class, with a log level and an EMF URI (shown by --fields=all). LTTng
 * 2.13 copies the URI into the metadata unescaped, so it must not contain a double quote.
 */
LTTNG_UST_TRACEPOINT_EVENT_CLASS(tracekit_interop, point_class,
	LTTNG_UST_TP_ARGS(int32_t, x, int32_t, y),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int32_t, x, x)
		lttng_ust_field_integer(int32_t, y, y)
	)
)

LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(tracekit_interop, point_class, tracekit_interop, point_warn,
	LTTNG_UST_TP_ARGS(int32_t, x, int32_t, y))
LTTNG_UST_TRACEPOINT_LOGLEVEL(tracekit_interop, point_warn, LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(tracekit_interop, point_warn,
	"http://example.com/tracekit?event=point_warn&q=x y")

LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(tracekit_interop, point_class, tracekit_interop, point_debug,
	LTTNG_UST_TP_ARGS(int32_t, x, int32_t, y))
LTTNG_UST_TRACEPOINT_LOGLEVEL(tracekit_interop, point_debug,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_FUNCTION)

/* clang-format on */

#endif /* TK_PROBES_H */

#include <lttng/tracepoint-event.h>
