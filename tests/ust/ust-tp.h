/* SPDX-License-Identifier: MIT */
/*
 * The test provider: one event per group of field kinds, so that every kind the macros offer
 * is written, declared and read back (tests/ust/ust-writer.c emits them).
 */
#undef TK_TRACEPOINT_PROVIDER
#define TK_TRACEPOINT_PROVIDER tktest
#undef TK_TRACEPOINT_INCLUDE
#define TK_TRACEPOINT_INCLUDE "ust-tp.h"

#if !defined(UST_TP_H) || defined(TK_TRACEPOINT_HEADER_MULTI_READ)
#define UST_TP_H

#include <tracekit/tracepoint.h>
#include <uchar.h>

/* the field lists read one field per line */
/* clang-format off */
TK_TRACEPOINT_ENUM(tktest, color,
	tk_enum_value("red", 0)
	tk_enum_value("green", 1)
	tk_enum_range("warm", 2, 9))

TK_TRACEPOINT_ENUM(tktest, sign,
	tk_enum_range("neg", -100, -1)
	tk_enum_value("zero", 0)
	tk_enum_range("pos", 1, 100))

TK_TRACEPOINT_STRUCT(tktest, point, TK_TP_ARGS(int32_t x, int32_t y),
	tk_field_int(int32_t, x, x)
	tk_field_int(int32_t, y, y))

TK_TRACEPOINT_STRUCT(tktest, line, TK_TP_ARGS(const int32_t *a, const char *label),
	tk_field_struct(tktest, point, from, a[0], a[1])
	tk_field_struct(tktest, point, to, a[2], a[3])
	tk_field_string(label, label))

TK_TRACEPOINT_EVENT(tktest, ints,
	TK_TP_ARGS(int8_t a, int16_t b, int32_t c, int64_t d, uint8_t e, uint16_t f, uint32_t g,
		   uint64_t h),
	TK_TP_LEVEL_INFO, 0x1,
	tk_field_int(int8_t, s8, a)
	tk_field_int(int16_t, s16, b)
	tk_field_int(int32_t, s32, c)
	tk_field_int(int64_t, s64, d)
	tk_field_int(uint8_t, u8, e)
	tk_field_int(uint16_t, u16, f)
	tk_field_int(uint32_t, u32, g)
	tk_field_int(uint64_t, u64, h))

TK_TRACEPOINT_EVENT(tktest, formats,
	TK_TP_ARGS(uint32_t x, uint64_t y, const void *p, int err, uint64_t t),
	TK_TP_LEVEL_VERBOSE, 0x2,
	tk_field_hex(uint32_t, x32, x)
	tk_field_hex(uint64_t, x64, y)
	tk_field_pointer(ptr, p)
	tk_field_errno(err, err)
	tk_field_time(when, t))

TK_TRACEPOINT_EVENT(tktest, floats, TK_TP_ARGS(float f, double d, int b),
	TK_TP_LEVEL_INFO, 0x4,
	tk_field_float(float, f, f)
	tk_field_float(double, d, d)
	tk_field_bool(flag, b))

TK_TRACEPOINT_EVENT(tktest, strings,
	TK_TP_ARGS(const char *s, const char *nul, const char *c, size_t clen,
		   const uint8_t *blob, size_t blen),
	TK_TP_LEVEL_WARNING, 0x8,
	tk_field_string(s, s)
	tk_field_string(nul, nul)
	tk_field_counted_string(counted, c, clen)
	tk_field_blob(blob, blob, blen))

TK_TRACEPOINT_EVENT(tktest, arrays,
	TK_TP_ARGS(const int16_t *arr, const uint32_t *seq, size_t n, const int8_t *empty),
	TK_TP_LEVEL_INFO, 0x10,
	tk_field_array(int16_t, arr, arr, 3)
	tk_field_sequence(uint32_t, seq, seq, n)
	tk_field_sequence(int8_t, none, empty, 0))

TK_TRACEPOINT_EVENT(tktest, enums, TK_TP_ARGS(uint8_t c, int16_t s),
	TK_TP_LEVEL_ERROR, 0x20,
	tk_field_enum(tktest, color, uint8_t, color, c)
	tk_field_enum(tktest, sign, int16_t, sign, s))

TK_TRACEPOINT_EVENT(tktest, nested, TK_TP_ARGS(const int32_t *pts, const char *label, int n),
	TK_TP_LEVEL_CRITICAL, 0x40,
	tk_field_struct(tktest, line, seg, pts, label)
	tk_field_int(int, n, n))

TK_TRACEPOINT_EVENT(tktest, tick, TK_TP_ARGS(void), 0, 0, )

/* every EventHeader encoding and format at least once (tests/ust/ust-eh-tp.sh) */
TK_TRACEPOINT_EVENT(tktest, every,
	TK_TP_ARGS(uint8_t color, int16_t s16, uint32_t x32, int err, int32_t pid, int64_t t,
		   int flag, double d, uint64_t u64, const uint8_t *uuid, uint32_t ip4,
		   const uint8_t *ip6, uint16_t port, const uint8_t *raw, const char *s,
		   const char *l1, const char *bom, const char *xml, const char *json,
		   const char *c8, size_t c8len, const char16_t *w16, const char32_t *w32,
		   const char16_t *c16, size_t c16len, const char32_t *c32, size_t c32len,
		   const uint8_t *blob, size_t blen, const int16_t *arr, const uint32_t *seq,
		   size_t n),
	TK_TP_LEVEL_INFO, 0x80,
	tk_field_enum(tktest, color, uint8_t, color, color)
	tk_field_int(int16_t, s16, s16)
	tk_field_hex(uint32_t, x32, x32)
	tk_field_errno(err, err)
	tk_field_pid(pid, pid)
	tk_field_time_sec(t, t)
	tk_field_bool(flag, flag)
	tk_field_float(double, d, d)
	tk_field_int(uint64_t, u64, u64)
	tk_field_uuid(uuid, uuid)
	tk_field_ipv4(ip4, ip4)
	tk_field_ipv6(ip6, ip6)
	tk_field_port(port, port)
	tk_field_bytes16(raw, raw)
	tk_field_string(s, s)
	tk_field_latin1_string(l1, l1)
	tk_field_bom_string(bom, bom)
	tk_field_xml_string(xml, xml)
	tk_field_json_string(json, json)
	tk_field_counted_string(c8, c8, c8len)
	tk_field_string16(w16, w16)
	tk_field_string32(w32, w32)
	tk_field_counted_string16(c16, c16, c16len)
	tk_field_counted_string32(c32, c32, c32len)
	tk_field_blob(blob, blob, blen)
	tk_field_array(int16_t, arr, arr, 3)
	tk_field_sequence(uint32_t, seq, seq, n)
	tk_field_struct(tktest, point, pt, -7, 9))
/* clang-format on */

#include <tracekit/tracepoint-event.h>
#endif
