/* SPDX-License-Identifier: MIT */
/* bench/ust.sh adapter: tracekit's tracer with the TSC clock (see tracekit.c). */
#include <tracekit/ust.h>

#define BENCH_TRACEKIT_CLOCK TK_UST_CLOCK_TSC
#define ADAPTER_NAME	     "tracekit-tsc"
#include "tracekit.c"
