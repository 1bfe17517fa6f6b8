// SPDX-License-Identifier: MIT
/*
 * Instantiates the probes of bench/ust/lttng-ust-tp.h and registers the provider with
 * liblttng-ust when the program starts, as an application with a built-in provider does.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "lttng-ust-tp.h"
