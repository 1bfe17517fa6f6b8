/* SPDX-License-Identifier: MIT */
/*
 * A traced program that is killed: two threads emit numbered events of a fixed size (68 bytes
 * with their header, ust-crash-tp.h) into 4 KiB packets, four per ring, with the rings in
 * files (TRACEKIT_UST_SHM_DIR, read from the environment with the other options, such as
 * TRACEKIT_UST_MODE=overwrite), then the process dies without ending its session. tests/ust/ust-crash.sh recovers the trace with `tracekit ust-recover`
 * and checks that each thread's events are exactly those of its closed packets.
 *
 * Usage: ust-crash MODE DIR EVENTS [EVENTS-AFTER-FLUSH]
 *   wait        consumer running; each thread waits, before closing a packet, until the
 *               consumer has written enough of its stream that nothing is dropped; then
 *               prints "ready" and waits to be killed (the test kills it with SIGKILL)
 *   consumer    as wait, but raise(SIGKILL) right after the threads' last events
 *   noconsumer  no consumer (tk_ust_opts.no_consumer): the rings fill, later events are
 *               dropped; raise(SIGKILL)
 *   flush       no consumer; EVENTS each, tk_ust_flush() (the full packets are written, the
 *               threads' open packets stay open), EVENTS-AFTER-FLUSH each; raise(SIGKILL)
 *   clean       consumer running; the threads end and the program exits normally
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-crash-tp.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <tracekit/ust.h>

#define EVENT_SIZE  68
#define PER_PACKET  ((4096 - 92) / EVENT_SIZE)
#define STREAM_SIZE (92 + PER_PACKET * EVENT_SIZE) /* a full packet as the consumer writes it */

static const char *mode, *dir;
static long events, events_after;
static pthread_barrier_t barrier;
static const uint8_t pad[50];

/* The calling thread's stream file (found by the vtid of its first packet), or -1. */
static int own_stream(void)
{
	int tid = (int) syscall(SYS_gettid), fd = -1;
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && fd < 0 && (de = readdir(d))) {
		char path[4096];
		unsigned char h[92];
		int f, vtid;

		if (strncmp(de->d_name, "channel0_", 9))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = open(path, O_RDONLY);
		if (f < 0)
			continue;
		if (read(f, h, sizeof(h)) == (ssize_t) sizeof(h)) {
			memcpy(&vtid, h + 88, 4);
			if (vtid == tid) {
				fd = f;
				continue;
			}
		}
		close(f);
	}
	if (d)
		closedir(d);
	return fd;
}

/* Wait until the consumer has written @n packets of this thread's stream. */
static void wait_written(long n, int *fd)
{
	struct timespec pause = {0, 1000 * 1000};
	int tries;

	for (tries = 0; tries < 20000; tries++) {
		struct stat sb;

		if (*fd < 0)
			*fd = own_stream();
		if (*fd >= 0 && !fstat(*fd, &sb) && sb.st_size >= (off_t) n * STREAM_SIZE)
			return;
		nanosleep(&pause, NULL);
	}
	fprintf(stderr, "ust-crash: the consumer did not write %ld packets in 20 s\n", n);
	exit(3);
}

static void emit(uint32_t thread, long from, long to, int *fd)
{
	long i;

	for (i = from; i < to; i++) {
		/* event i closes packet i / PER_PACKET - 1, which needs packet p - 3 written */
		if (fd && i && i % PER_PACKET == 0 && i / PER_PACKET - 1 >= 3)
			wait_written(i / PER_PACKET - 2, fd);
		tk_tracepoint(tkcrash, ev, thread, (uint64_t) i, pad);
	}
}

static void *work(void *arg)
{
	uint32_t thread = (uint32_t) (uintptr_t) arg;
	int fd = -1;

	emit(thread, 0, events, strcmp(mode, "wait") && strcmp(mode, "consumer") ? NULL : &fd);
	if (!strcmp(mode, "clean"))
		return NULL;
	pthread_barrier_wait(&barrier);
	if (!strcmp(mode, "flush")) {
		pthread_barrier_wait(&barrier); /* the main thread flushes */
		emit(thread, events, events + events_after, NULL);
		pthread_barrier_wait(&barrier);
	}
	for (;;)
		pause(); /* alive, its packet open, until the process dies */
}

int main(int argc, char **argv)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	pthread_t th[2];
	int i;

	if (argc < 4) {
		fprintf(stderr,
			"usage: ust-crash wait|consumer|noconsumer|flush|clean DIR EVENTS [AFTER]\n");
		return 2;
	}
	mode = argv[1];
	dir = argv[2];
	events = atol(argv[3]);
	events_after = argc > 4 ? atol(argv[4]) : 0;
	if (tk_ust_opts_from_env(&o) < 0)
		return 1;
	o.subbuf_size = 4096;
	o.subbuf_count = 4;
	o.no_consumer = !strcmp(mode, "noconsumer") || !strcmp(mode, "flush");
	if (tk_ust_session_start(dir, &o) < 0) {
		fprintf(stderr, "ust-crash: cannot start: %s\n",
			tk_error_count() ? tk_error_cause(0) : "?");
		return 1;
	}
	pthread_barrier_init(&barrier, NULL, 3);
	for (i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, work, (void *) (uintptr_t) i))
			return 1;
	if (!strcmp(mode, "clean")) {
		for (i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		return 0; /* the session ends at exit() */
	}
	pthread_barrier_wait(&barrier);
	if (!strcmp(mode, "flush")) {
		if (tk_ust_flush() < 0)
			return 1;
		pthread_barrier_wait(&barrier);
		pthread_barrier_wait(&barrier);
	}
	if (!strcmp(mode, "wait")) {
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	raise(SIGKILL);
	return 1;
}
