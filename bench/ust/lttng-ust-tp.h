/* SPDX-License-Identifier: MIT */
/*
 * The LTTng-UST 2.13 tracepoint provider of bench/ust.sh: provider `tkbench`, with the two
 * events of bench/ust/adapter.h. lttng-ust-tp.c instantiates the probes; lttng-ust.c calls
 * the tracepoints. This header is read several times by <lttng/tracepoint-event.h>, hence
 * the guard that lets it through when LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ is set.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER tkbench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./lttng-ust-tp.h"

#if !defined(BENCH_UST_LTTNG_UST_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_UST_LTTNG_UST_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

/* clang-format off: one field a line reads better than the formatter's packing */
LTTNG_UST_TRACEPOINT_EVENT(tkbench, ev1, LTTNG_UST_TP_ARGS(uint32_t, a),
			   LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(uint32_t, a, a)))

LTTNG_UST_TRACEPOINT_EVENT(
	tkbench, ev4,
	LTTNG_UST_TP_ARGS(uint32_t, id, uint64_t, addr, int32_t, ret, uint16_t, flags),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(uint32_t, id, id) lttng_ust_field_integer_hex(
		uint64_t, addr, addr) lttng_ust_field_integer(int32_t, ret, ret)
				    lttng_ust_field_integer_hex(uint16_t, flags, flags)))
/* clang-format on */

#endif /* BENCH_UST_LTTNG_UST_TP_H */

#include <lttng/tracepoint-event.h>
