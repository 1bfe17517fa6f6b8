/* SPDX-License-Identifier: MIT */
/* bench/ust.sh adapter: tracekit's tracer without a session, every event off (see tracekit.c). */
#define BENCH_TRACEKIT_SESSION 0
#define BENCH_TRACEKIT_CLOCK   0
#define ADAPTER_NAME	       "tracekit-disabled"
#include "tracekit.c"
