/* SPDX-License-Identifier: MIT */
/* The provider of examples/hello.c: one event, a counter and a name. */
#undef TK_TRACEPOINT_PROVIDER
#define TK_TRACEPOINT_PROVIDER hello
#undef TK_TRACEPOINT_INCLUDE
#define TK_TRACEPOINT_INCLUDE "hello-tp.h"

#if !defined(HELLO_TP_H) || defined(TK_TRACEPOINT_HEADER_MULTI_READ)
#define HELLO_TP_H

#include <tracekit/tracepoint.h>

/* clang-format off */
TK_TRACEPOINT_EVENT(hello, greeting, TK_TP_ARGS(int count, const char *name),
	TK_TP_LEVEL_INFO, 0x1,
	tk_field_int(int, count, count)
	tk_field_string(name, name))
/* clang-format on */

#include <tracekit/tracepoint-event.h>
#endif
