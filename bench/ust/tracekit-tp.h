/* SPDX-License-Identifier: MIT */
/* The provider of bench/ust's tracekit adapters: the two events of bench/ust/adapter.h. */
#undef TK_TRACEPOINT_PROVIDER
#define TK_TRACEPOINT_PROVIDER bench
#undef TK_TRACEPOINT_INCLUDE
#define TK_TRACEPOINT_INCLUDE "tracekit-tp.h"

#if !defined(BENCH_TRACEKIT_TP_H) || defined(TK_TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_TRACEKIT_TP_H

#include <tracekit/tracepoint.h>

/* clang-format off */
TK_TRACEPOINT_EVENT(bench, ev1, TK_TP_ARGS(uint32_t a), TK_TP_LEVEL_INFO, 0x1,
	tk_field_int(uint32_t, a, a))

TK_TRACEPOINT_EVENT(bench, ev4,
	TK_TP_ARGS(uint32_t id, uint64_t addr, int32_t ret, uint16_t flags),
	TK_TP_LEVEL_INFO, 0x1,
	tk_field_int(uint32_t, id, id)
	tk_field_hex(uint64_t, addr, addr)
	tk_field_int(int32_t, ret, ret)
	tk_field_hex(uint16_t, flags, flags))
/* clang-format on */

#include <tracekit/tracepoint-event.h>
#endif
