/* SPDX-License-Identifier: MIT */
/*
 * Overwrite (flight-recorder) mode under a burst: rings of four 4 KiB packets, the mode and
 * the snapshot signal taken from the environment (TRACEKIT_UST_MODE=overwrite,
 * TRACEKIT_UST_SNAPSHOT_SIGNAL=USR1). Thread 0 emits EARLY events and ends; threads 1 to
 * THREADS emit `ints` events numbered from 0 (s32, their index in u8) until told to stop.
 * During the burst the main thread takes snapshot 1 with tk_ust_snapshot() and has
 * snapshot 2 taken by raise(SIGUSR1) (it waits for the consumer to begin it); then the
 * threads stop, stay alive with their packets open, and tk_ust_session_stop() takes
 * snapshot 3. Every event has the same size, so tests/ust/ust-overwrite.sh can tell from the
 * numbers which packets each thread had closed.
 *
 * Prints one line per snapshot and thread: "SNAPSHOT THREAD BEFORE AFTER": how many events
 * the thread had emitted before the snapshot was asked for and once it was over (for the
 * last snapshot both are the thread's total).
 *
 * Built again as ust-overwrite-race, with the runtime compiled in and UST_OVERWRITE_RACE
 * defined: during snapshot 1, halfway through the first packet it copies, every burst thread
 * writes five more packets' worth, so that packet is overwritten while it is copied (its
 * copy would be half old, half new): the snapshot must leave it out and report it lost (the
 * newer packet it copies again from that sub-buffer must be whole).
 *
 * Usage: ust-overwrite DIR THREADS EARLY
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tracekit/ust.h>

#define MAX_THREADS 16

static long counts[MAX_THREADS + 1]; /* atomic: events emitted per thread */
static int stop_burst;		     /* atomic: the burst threads stop emitting */
static int done[MAX_THREADS + 1];    /* atomic: the thread's count is final */
static int stopped;		     /* atomic: the session stopped: the threads may end */
static long early;

static void emit(uint8_t idx, long i)
{
	tk_tracepoint(tktest, ints, 0, 0, (int32_t) i, 0, idx, 0, 0, 0);
	__atomic_store_n(&counts[idx], i + 1, __ATOMIC_RELEASE);
}

static void pause_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
}

static void *early_work(void *arg)
{
	long i;

	(void) arg;
	for (i = 0; i < early; i++)
		emit(0, i);
	return NULL;
}

static void *burst_work(void *arg)
{
	uint8_t idx = (uint8_t) (uintptr_t) arg;
	long i;

	for (i = 0; !__atomic_load_n(&stop_burst, __ATOMIC_ACQUIRE); i++)
		emit(idx, i);
	__atomic_store_n(&done[idx], 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&stopped, __ATOMIC_ACQUIRE))
		pause_ms(1); /* alive, its last packet open, when the session stops */
	return NULL;
}

/* Whether DIR holds a directory whose name starts with PREFIX. */
static int has_entry(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d)))
		found = !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	return found;
}

#ifdef UST_OVERWRITE_RACE
#include "../../src/ust/ust-priv.h"

static int race_threads;

/* Halfway through the snapshot's first copy: every burst thread writes 5 packets more. */
static void race_hook(void)
{
	long from[MAX_THREADS + 1];
	int i;

	ust_snapshot_hook = NULL; /* once */
	for (i = 1; i <= race_threads; i++)
		from[i] = __atomic_load_n(&counts[i], __ATOMIC_ACQUIRE);
	for (i = 1; i <= race_threads; i++)
		while (__atomic_load_n(&counts[i], __ATOMIC_ACQUIRE) < from[i] + 5 * 111)
			pause_ms(1);
}
#endif

static void counts_get(long *out, int n)
{
	int i;

	for (i = 0; i <= n; i++)
		out[i] = __atomic_load_n(&counts[i], __ATOMIC_ACQUIRE);
}

static void report(int snap, const long *before, const long *after, int n)
{
	int i;

	for (i = 0; i <= n; i++)
		printf("%d %d %ld %ld\n", snap, i, before[i], after[i]);
}

/* Wait until every burst thread has emitted at least @min events. */
static void wait_progress(int n, long min)
{
	int i;

	for (i = 1; i <= n; i++)
		while (__atomic_load_n(&counts[i], __ATOMIC_ACQUIRE) < min)
			pause_ms(1);
}

int main(int argc, char **argv)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	long before[MAX_THREADS + 1], after[MAX_THREADS + 1];
	pthread_t th[MAX_THREADS + 1];
	int n, i, waited;

	if (argc != 4) {
		fprintf(stderr, "usage: ust-overwrite DIR THREADS EARLY\n");
		return 2;
	}
	n = atoi(argv[2]);
	early = atol(argv[3]);
	if (n < 1 || n > MAX_THREADS)
		return 2;
	o.subbuf_size = 4096;
	o.subbuf_count = 4;
	if (tk_ust_opts_from_env(&o) < 0 || o.mode != TK_UST_MODE_OVERWRITE ||
	    o.snapshot_signal != SIGUSR1) {
		fprintf(stderr, "ust-overwrite: TRACEKIT_UST_MODE or _SNAPSHOT_SIGNAL not read\n");
		return 1;
	}
	if (tk_ust_session_start(argv[1], &o) < 0) {
		fprintf(stderr, "ust-overwrite: cannot start: %s\n",
			tk_error_count() ? tk_error_cause(0) : "?");
		return 1;
	}
	if (pthread_create(&th[0], NULL, early_work, NULL) || pthread_join(th[0], NULL))
		return 1;
	for (i = 1; i <= n; i++)
		if (pthread_create(&th[i], NULL, burst_work, (void *) (uintptr_t) i))
			return 1;

	/* snapshot 1, by the API, while the threads write */
	wait_progress(n, 5000);
	counts_get(before, n);
#ifdef UST_OVERWRITE_RACE
	race_threads = n;
	ust_snapshot_hook = race_hook;
#endif
	if (tk_ust_snapshot() < 0) {
		fprintf(stderr, "ust-overwrite: snapshot failed: %s\n",
			tk_error_count() ? tk_error_cause(0) : "?");
		return 1;
	}
	counts_get(after, n);
	report(1, before, after, n);

	/* snapshot 2, by the signal: the consumer thread takes it while the threads write */
	wait_progress(n, after[1] + 3000);
	counts_get(before, n);
	raise(SIGUSR1);
	for (waited = 0; !has_entry(argv[1], "snapshot-2-") && waited < 10000; waited++)
		pause_ms(1);
	if (!has_entry(argv[1], "snapshot-2-")) {
		fprintf(stderr, "ust-overwrite: no snapshot 2 after the signal\n");
		return 1;
	}
	pause_ms(20);

	/* the burst ends; snapshot 3 at the stop, the threads alive with their packets open */
	__atomic_store_n(&stop_burst, 1, __ATOMIC_RELEASE);
	for (i = 1; i <= n; i++)
		while (!__atomic_load_n(&done[i], __ATOMIC_ACQUIRE))
			pause_ms(1);
	counts_get(after, n);
	report(2, before, after, n);
	if (tk_ust_session_stop() < 0) {
		fprintf(stderr, "ust-overwrite: stop failed: %s\n",
			tk_error_count() ? tk_error_cause(0) : "?");
		return 1;
	}
	report(3, after, after, n);
	__atomic_store_n(&stopped, 1, __ATOMIC_RELEASE);
	for (i = 1; i <= n; i++)
		pthread_join(th[i], NULL);
	/* no session: no snapshot */
	return tk_ust_snapshot() == TK_ERR_INVAL ? 0 : 1;
}
