// SPDX-License-Identifier: MIT
/*
 * The floor under every tracer of bench/ust.sh: what one timestamp costs on this machine,
 * measured the way driver.c measures an event (batches of reads between two
 * clock_gettime(CLOCK_MONOTONIC) calls, less the empty loop, P50 and MIN over the batches,
 * one thread pinned to the first allowed CPU). A tracer that reads clock X per event cannot
 * cost less than X's line, which bounds what a ratio goal against a peer can ask.
 *
 * Output, one line per clock: "# clock NAME P50_NS MIN_NS".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

#define BATCHES 2000
#define EVENTS	1000

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static uint64_t read_empty(void)
{
	return 0;
}

static uint64_t read_clock_gettime(void)
{
	return now_ns();
}

#if HAVE_TSC
static uint64_t read_rdtsc(void)
{
	return __rdtsc();
}

static uint64_t read_rdtscp(void)
{
	unsigned int aux;

	return __rdtscp(&aux);
}
#endif

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* Per-read figures of BATCHES batches of EVENTS reads, sorted; the loop is not inlined. */
__attribute__((noinline)) static void time_reads(uint64_t (*read)(void), double *out)
{
	for (int b = 0; b < BATCHES; b++) {
		uint64_t t0 = now_ns();

		for (int i = 0; i < EVENTS; i++) {
			uint64_t v = read();

			__asm__ volatile("" : : "r"(v));
		}
		out[b] = (double) (now_ns() - t0) / EVENTS;
	}
	qsort(out, BATCHES, sizeof(*out), cmp_double);
}

int main(void)
{
	static double empty[BATCHES], v[BATCHES];
	struct {
		const char *name;
		uint64_t (*read)(void);
	} clocks[] = {
		{"clock_gettime-monotonic", read_clock_gettime},
#if HAVE_TSC
		{"rdtsc", read_rdtsc},
		{"rdtscp", read_rdtscp},
#endif
	};
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (int c = 0; c < CPU_SETSIZE; c++) {
			if (CPU_ISSET(c, &set)) {
				CPU_ZERO(&set);
				CPU_SET(c, &set);
				pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
				break;
			}
		}
	}
	time_reads(read_empty, empty);
	for (size_t c = 0; c < sizeof(clocks) / sizeof(clocks[0]); c++) {
		time_reads(clocks[c].read, v);
		printf("# clock %s %.2f %.2f\n", clocks[c].name,
		       (v[BATCHES / 2 - 1] + v[BATCHES / 2]) / 2 - empty[0], v[0] - empty[0]);
	}
	return 0;
}
