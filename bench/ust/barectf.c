// SPDX-License-Identifier: MIT
/*
 * bench/ust.sh adapter for a barectf 3 tracer generated from bench/ust/barectf.yaml (prefix
 * bk_, into bench/out/ust/barectf/). The generated tracer is single-threaded, as its
 * documentation says, so each thread gets its own context and packet buffer: nothing is
 * shared, so this is barectf at its best.
 *
 * The platform: 64 KiB packets in memory (pre-faulted); the clock is
 * clock_gettime(CLOCK_MONOTONIC) in ns, or the TSC when BENCH_BARECTF_TSC is 1
 * (barectf-tsc.c). At packet close the packet is discarded: no copy, no write, which is the
 * cheapest back end barectf can have, so the comparison never flatters the other tracers.
 * With an output directory (the driver's --out, used by bench/ust.sh's check run) each
 * closed packet is written to DIR/stream_T instead, to check with babeltrace2 that the
 * tracer writes the events it is given. The back end is never full, so barectf discards
 * nothing; adapter_discarded() reports its own counter all the same.
 */
#include <fcntl.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adapter.h"
#include "bk.h"

#ifndef BENCH_BARECTF_TSC
#define BENCH_BARECTF_TSC 0
#define ADAPTER_NAME	  "barectf"
#endif
#if BENCH_BARECTF_TSC
#include <x86intrin.h>
#endif
#define ADAPTER_CAN_COUNT_DISCARDS 1

#define BK_PACKET_SIZE (64 * 1024)

/* Aligned so that two threads' contexts never share a cache line (or its prefetched pair). */
struct bk_thread {
	alignas(128) struct bk_default_ctx ctx;
	uint8_t *buf;
	int fd;
	int ready;
	uint64_t packets;
};

static struct bk_thread bk_threads[ADAPTER_MAX_THREADS];
static _Thread_local struct bk_thread *bk_self;
static const char *bk_out_dir;

static uint64_t bk_clock(void *data)
{
	(void) data;
#if BENCH_BARECTF_TSC
	return __rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
#endif
}

static int bk_backend_full(void *data)
{
	(void) data;
	return 0;
}

static void bk_open(void *data)
{
	bk_default_open_packet(&((struct bk_thread *) data)->ctx);
}

static void bk_close(void *data)
{
	struct bk_thread *t = data;

	bk_default_close_packet(&t->ctx);
	if (t->fd >= 0 && write(t->fd, bk_packet_buf(&t->ctx), BK_PACKET_SIZE) != BK_PACKET_SIZE)
		fprintf(stderr, "# barectf: cannot write a packet\n");
	t->packets++;
}

static int adapter_setup(int max_threads, const char *out_dir)
{
	if (max_threads > ADAPTER_MAX_THREADS)
		return -1;
	bk_out_dir = out_dir;
	for (int i = 0; i < max_threads; i++) {
		bk_threads[i].buf = aligned_alloc(4096, BK_PACKET_SIZE);
		if (!bk_threads[i].buf)
			return -1;
		memset(bk_threads[i].buf, 0, BK_PACKET_SIZE); /* fault the pages in now */
		bk_threads[i].fd = -1;
	}
	return 0;
}

static int adapter_thread_setup(int thread)
{
	struct bk_thread *t = &bk_threads[thread];
	const struct bk_platform_callbacks cbs = {
		.default_clock_get_value = bk_clock,
		.is_backend_full = bk_backend_full,
		.open_packet = bk_open,
		.close_packet = bk_close,
	};

	bk_self = t;
	if (t->ready)
		return 0;
	if (bk_out_dir) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/stream_%d", bk_out_dir, thread);
		t->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (t->fd < 0)
			return -1;
	}
	bk_init(&t->ctx, t->buf, BK_PACKET_SIZE, cbs, t);
	bk_open(t);
	t->ready = 1;
	return 0;
}

static inline void adapter_emit1(uint32_t a)
{
	bk_default_trace_ev1(&bk_self->ctx, a);
}

static inline void adapter_emit4(uint32_t id, uint64_t addr, int32_t ret, uint16_t flags)
{
	bk_default_trace_ev4(&bk_self->ctx, id, addr, ret, flags);
}

static void adapter_thread_teardown(int thread)
{
	(void) thread;
}

static uint64_t adapter_discarded(void)
{
	uint64_t n = 0;

	for (int i = 0; i < ADAPTER_MAX_THREADS; i++)
		if (bk_threads[i].ready)
			n += bk_discarded_event_records_count(&bk_threads[i].ctx);
	return n;
}

/* Close each open packet, so that a check run's files hold every event. */
static int adapter_teardown(void)
{
	int err = 0;

	for (int i = 0; i < ADAPTER_MAX_THREADS; i++) {
		struct bk_thread *t = &bk_threads[i];

		if (!t->ready)
			continue;
		if (bk_packet_is_open(&t->ctx) && !bk_packet_is_empty(&t->ctx))
			bk_close(t);
		if (t->fd >= 0 && close(t->fd) != 0)
			err = -1;
		free(t->buf);
	}
	return err;
}
