/* SPDX-License-Identifier: MIT */
/*
 * The crash test's provider (tests/ust/ust-crash.c): one event of a fixed size, so that the
 * test can tell from its size alone how many events each packet holds.
 */
#undef TK_TRACEPOINT_PROVIDER
#define TK_TRACEPOINT_PROVIDER tkcrash
#undef TK_TRACEPOINT_INCLUDE
#define TK_TRACEPOINT_INCLUDE "ust-crash-tp.h"

#if !defined(UST_CRASH_TP_H) || defined(TK_TRACEPOINT_HEADER_MULTI_READ)
#define UST_CRASH_TP_H

#include <tracekit/tracepoint.h>

/* payload: 4 + 8 + 50 = 62 bytes; with the 6-byte event header, 68 */
/* clang-format off */
TK_TRACEPOINT_EVENT(tkcrash, ev, TK_TP_ARGS(uint32_t thread, uint64_t n, const uint8_t *pad),
	TK_TP_LEVEL_INFO, 0x1,
	tk_field_int(uint32_t, thread, thread)
	tk_field_int(uint64_t, n, n)
	tk_field_array(uint8_t, pad, pad, 50))
/* clang-format on */

#include <tracekit/tracepoint-event.h>
#endif
