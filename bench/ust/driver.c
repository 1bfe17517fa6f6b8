// SPDX-License-Identifier: MIT
/*
 * The timing harness of bench/ust.sh: the cost of one application-tracer event, in ns, for
 * the tracer whose adapter (bench/ust/adapter.h) was force-included when this file was
 * compiled. One run measures every (threads, fields) pair asked for and prints, per pair,
 *
 *	NAME THREADS FIELDS P50_NS MIN_NS
 *
 * and comment lines starting with '#' (events emitted, events the tracer dropped, per-thread
 * figures) that bench/ust.sh reads.
 *
 * Method, per pair:
 *  1. Start THREADS threads, thread t pinned to the t-th CPU this process may run on.
 *  2. Each thread times the empty loop (the same loop with the event replaced by an empty
 *     asm statement that uses the arguments) and keeps the cheapest batch as its loop cost.
 *  3. Warm-up batches (not timed), then a barrier so that all threads run their timed
 *     batches at the same time.
 *  4. Each timed batch is BATCH_EVENTS events between two clock_gettime(CLOCK_MONOTONIC)
 *     reads; its figure is (batch time - loop cost) / BATCH_EVENTS, the mean cost of an event
 *     in that batch on that thread.
 *  5. P50 and MIN are taken over the batch figures of all threads together: with 2 threads
 *     they are per-thread ns per event while the other thread traces too, not wall time
 *     divided by the events of both.
 * A batch interrupted by the scheduler or another VM tenant is slow, which moves the mean
 * but hardly the median; MIN shows the undisturbed cost.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* bench/ust.sh passes it too: the adapter is read first */
#endif
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adapter.h"

#ifndef ADAPTER_NAME
#error "compile with -include bench/ust/<tracer>.c, which defines ADAPTER_NAME"
#endif

struct opts {
	const char *name;
	int threads[8];
	int nthreads;
	int fields[2];
	int nfields;
	long batches;
	long batch_events;
	long warmup;
	long pause_ms;
	const char *out_dir;
};

struct worker {
	const struct opts *o;
	pthread_barrier_t *barrier;
	int idx;
	int cpu;
	int fields;
	double *ns;	/* o->batches per-event figures */
	double loop_ns; /* empty-loop cost per event */
	int err;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/*
 * The four loops. noinline keeps them apart so that the empty loops have the shape of the
 * traced ones; the asm statements make the compiler compute every argument without emitting
 * anything for it.
 */
__attribute__((noinline)) static void loop_empty1(uint32_t base, long n)
{
	for (long i = 0; i < n; i++) {
		uint32_t a = base + (uint32_t) i;

		__asm__ volatile("" : : "r"(a));
	}
}

__attribute__((noinline)) static void loop_empty4(uint32_t base, long n)
{
	for (long i = 0; i < n; i++) {
		uint32_t id = base + (uint32_t) i;
		uint64_t addr = (uint64_t) id << 12;
		int32_t ret = -(int32_t) (id & 0xffff);
		uint16_t flags = (uint16_t) id;

		__asm__ volatile("" : : "r"(id), "r"(addr), "r"(ret), "r"(flags));
	}
}

__attribute__((noinline)) static void loop_emit1(uint32_t base, long n)
{
	for (long i = 0; i < n; i++)
		adapter_emit1(base + (uint32_t) i);
}

__attribute__((noinline)) static void loop_emit4(uint32_t base, long n)
{
	for (long i = 0; i < n; i++) {
		uint32_t id = base + (uint32_t) i;

		adapter_emit4(id, (uint64_t) id << 12, -(int32_t) (id & 0xffff), (uint16_t) id);
	}
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	const struct opts *o = w->o;
	long k = o->batch_events;
	uint32_t base = (uint32_t) w->idx << 28;
	double best = 1e30;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0)
		fprintf(stderr, "# %s: cannot pin thread %d to CPU %d\n", o->name, w->idx, w->cpu);
	if (adapter_thread_setup(w->idx) != 0)
		w->err = 1;
	pthread_barrier_wait(w->barrier);
	if (w->err)
		return NULL;

	/* 2. Loop cost: the cheapest of as many empty batches as warm-up batches, at least 100. */
	for (long b = 0; b < (o->warmup > 100 ? o->warmup : 100); b++) {
		uint64_t t0 = now_ns();

		if (w->fields == 1)
			loop_empty1(base, k);
		else
			loop_empty4(base, k);
		double d = (double) (now_ns() - t0) / (double) k;

		if (d < best)
			best = d;
	}
	w->loop_ns = best;

	/* 3. Warm-up, then start together. */
	for (long b = 0; b < o->warmup; b++) {
		if (w->fields == 1)
			loop_emit1(base, k);
		else
			loop_emit4(base, k);
		base += (uint32_t) k;
	}
	pthread_barrier_wait(w->barrier);

	/* 4. Timed batches. */
	for (long b = 0; b < o->batches; b++) {
		uint64_t t0 = now_ns();

		if (w->fields == 1)
			loop_emit1(base, k);
		else
			loop_emit4(base, k);
		w->ns[b] = ((double) (now_ns() - t0) - w->loop_ns * (double) k) / (double) k;
		base += (uint32_t) k;
	}
	adapter_thread_teardown(w->idx);
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

static double median_sorted(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The CPUs this process may run on, in order; thread t runs on cpus[t % n]. */
static int allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

static int measure(const struct opts *o, int nthreads, int fields, const int *cpus, int ncpus,
		   uint64_t *emitted)
{
	struct worker w[ADAPTER_MAX_THREADS];
	pthread_t tid[ADAPTER_MAX_THREADS];
	pthread_barrier_t barrier;
	size_t nb = (size_t) o->batches, all_n = (size_t) nthreads * nb;
	double *all = calloc(all_n, sizeof(*all));
	uint64_t before = adapter_discarded();
	int err = 0;

	if (!all)
		return -1;
	if (nthreads > ncpus)
		fprintf(stderr, "# %s: %d threads on %d CPUs: threads share CPUs\n", o->name,
			nthreads, ncpus);
	pthread_barrier_init(&barrier, NULL, (unsigned int) nthreads);
	for (int t = 0; t < nthreads; t++) {
		w[t] = (struct worker){.o = o,
				       .barrier = &barrier,
				       .idx = t,
				       .cpu = cpus[t % ncpus],
				       .fields = fields,
				       .ns = all + (size_t) t * nb};
		if (pthread_create(&tid[t], NULL, worker_run, &w[t]) != 0) {
			fprintf(stderr, "# %s: cannot start thread %d\n", o->name, t);
			exit(1);
		}
	}
	for (int t = 0; t < nthreads; t++) {
		pthread_join(tid[t], NULL);
		err |= w[t].err;
	}
	pthread_barrier_destroy(&barrier);
	if (err) {
		fprintf(stderr, "# %s: tracer setup failed in a thread\n", o->name);
		free(all);
		return -1;
	}

	uint64_t n_ev = (uint64_t) nthreads * (uint64_t) (o->warmup + o->batches) *
			(uint64_t) o->batch_events;

	*emitted += n_ev;
	for (int t = 0; t < nthreads; t++) {
		double *v = all + (size_t) t * nb;

		qsort(v, nb, sizeof(*v), cmp_double);
		printf("# thread %s %d %d cpu=%d loop-ns=%.2f p50=%.2f min=%.2f\n", o->name,
		       nthreads, fields, w[t].cpu, w[t].loop_ns, median_sorted(v, nb), v[0]);
	}
	qsort(all, all_n, sizeof(*all), cmp_double);
	printf("# emitted %s %d %d %" PRIu64 "\n", o->name, nthreads, fields, n_ev);
	if (ADAPTER_CAN_COUNT_DISCARDS)
		printf("# discarded %s %d %d %" PRIu64 "\n", o->name, nthreads, fields,
		       adapter_discarded() - before);
	printf("%s %d %d %.2f %.2f\n", o->name, nthreads, fields, median_sorted(all, all_n),
	       all[0]);
	fflush(stdout);
	free(all);
	return 0;
}

static int parse_list(const char *s, int *out, int max, int lo, int hi)
{
	int n = 0;

	while (*s) {
		char *end;
		long v = strtol(s, &end, 10);

		if (end == s || v < lo || v > hi || n == max)
			return -1;
		out[n++] = (int) v;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n;
}

static long parse_long(const char *s, long lo)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end == s || *end || v < lo ? -1 : v;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [--name NAME] [--threads 1,2] [--fields 1,4] [--batches N]\n"
		"          [--batch-events K] [--warmup N] [--pause-ms MS] [--out DIR]\n",
		ADAPTER_NAME);
	exit(2);
}

int main(int argc, char **argv)
{
	struct opts o = {.name = ADAPTER_NAME,
			 .threads = {1, 2},
			 .nthreads = 2,
			 .fields = {1, 4},
			 .nfields = 2,
			 .batches = 2000,
			 .batch_events = 1000,
			 .warmup = 200,
			 .pause_ms = 300};
	int cpus[ADAPTER_MAX_THREADS], ncpus, max_threads = 1;
	uint64_t emitted = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--name"))
			o.name = v;
		else if (!strcmp(a, "--threads"))
			o.nthreads = parse_list(v, o.threads, 8, 1, ADAPTER_MAX_THREADS);
		else if (!strcmp(a, "--fields"))
			o.nfields = parse_list(v, o.fields, 2, 1, 4);
		else if (!strcmp(a, "--batches"))
			o.batches = parse_long(v, 1);
		else if (!strcmp(a, "--batch-events"))
			o.batch_events = parse_long(v, 1);
		else if (!strcmp(a, "--warmup"))
			o.warmup = parse_long(v, 0);
		else if (!strcmp(a, "--pause-ms"))
			o.pause_ms = parse_long(v, 0);
		else if (!strcmp(a, "--out"))
			o.out_dir = v;
		else
			usage();
	}
	if (o.nthreads < 1 || o.nfields < 1 || o.batches < 0 || o.batch_events < 0 ||
	    o.warmup < 0 || o.pause_ms < 0)
		usage();
	for (int f = 0; f < o.nfields; f++)
		if (o.fields[f] != 1 && o.fields[f] != 4)
			usage();
	for (int t = 0; t < o.nthreads; t++)
		if (o.threads[t] > max_threads)
			max_threads = o.threads[t];

	ncpus = allowed_cpus(cpus, ADAPTER_MAX_THREADS);
	if (ncpus < 1) {
		fprintf(stderr, "# %s: cannot read the CPU affinity: %s\n", o.name,
			strerror(errno));
		return 1;
	}
	if (adapter_setup(max_threads, o.out_dir) != 0) {
		fprintf(stderr, "# %s: tracer setup failed\n", o.name);
		return 1;
	}
	for (int t = 0; t < o.nthreads; t++) {
		for (int f = 0; f < o.nfields; f++) {
			if (measure(&o, o.threads[t], o.fields[f], cpus, ncpus, &emitted) != 0)
				return 1;
			/* Let a consumer daemon drain before the next pair. */
			usleep((useconds_t) o.pause_ms * 1000);
		}
	}
	if (adapter_teardown() != 0) {
		fprintf(stderr, "# %s: tracer teardown failed\n", o.name);
		return 1;
	}
	printf("# emitted-total %s %" PRIu64 "\n", o.name, emitted);
	return 0;
}
