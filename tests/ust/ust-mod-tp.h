/* SPDX-License-Identifier: MIT */
/* The provider of the module tests/ust/ust-module.cc, loaded with dlopen() by ust-dlopen.c. */
#undef TK_TRACEPOINT_PROVIDER
#define TK_TRACEPOINT_PROVIDER tkmod
#undef TK_TRACEPOINT_INCLUDE
#define TK_TRACEPOINT_INCLUDE "ust-mod-tp.h"

#if !defined(UST_MOD_TP_H) || defined(TK_TRACEPOINT_HEADER_MULTI_READ)
#define UST_MOD_TP_H

#include <tracekit/tracepoint.h>

/* clang-format off */
TK_TRACEPOINT_ENUM(tkmod, parity,
	tk_enum_value("even", 0)
	tk_enum_value("odd", 1))

TK_TRACEPOINT_STRUCT(tkmod, pair, TK_TP_ARGS(int a, int b),
	tk_field_int(int, a, a)
	tk_field_int(int, b, b))

TK_TRACEPOINT_EVENT(tkmod, hello, TK_TP_ARGS(int i, const char *msg),
	TK_TP_LEVEL_INFO, 0x100,
	tk_field_int(int, i, i)
	tk_field_string(msg, msg)
	tk_field_enum(tkmod, parity, uint8_t, parity, i & 1)
	tk_field_struct(tkmod, pair, pair, i, -i))
/* clang-format on */

#include <tracekit/tracepoint-event.h>
#endif
