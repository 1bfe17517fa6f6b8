// SPDX-License-Identifier: MIT
/*
 * bench/ust.sh adapter for barectf with the TSC as its clock (x86-64 only): the barectf
 * adapter with __rdtsc() in place of clock_gettime(), to set beside tracekit-tsc. The
 * generated metadata still says 1 GHz, so only event counts of a check run's trace are
 * meaningful, not its timestamps.
 */
#define BENCH_BARECTF_TSC 1
#define ADAPTER_NAME	  "barectf-tsc"
#include "barectf.c"
