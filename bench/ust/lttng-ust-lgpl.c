// SPDX-License-Identifier: MIT
/*
 * bench/ust.sh adapter for LTTng-UST built the way its headers allow for speed: with
 * _LGPL_SOURCE, each tracepoint inlines liburcu's read lock instead of calling it through a
 * pointer (an application that does this links LGPL code into itself, which is why it is not
 * the default). Otherwise the lttng-ust adapter, in the same kind of session.
 */
#define _LGPL_SOURCE
#define ADAPTER_NAME "lttng-ust-lgpl"
#include "lttng-ust.c"
