/* SPDX-License-Identifier: MIT */
/*
 * A background thread with the lock and condition variable it shares with the thread that
 * feeds it (the CTF writer's packet writes, the trace.dat reader's read-ahead). Only the
 * start and the end are here; what the two threads say to each other is the user's.
 */
#ifndef TK_COMMON_WORKER_H
#define TK_COMMON_WORKER_H

#include <pthread.h>
#include <stddef.h>

struct worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* signalled on every change the other side may wait for */
};

/* Start @fn(@arg) in a new thread: 0, or -1 with nothing left to undo. */
int worker_start(struct worker *wk, void *(*fn)(void *), void *arg);

/* Set *@stop under the lock, wake the thread, wait for its end and free what start made. */
void worker_stop(struct worker *wk, int *stop);

/*
 * Run @run on each of the @n lanes at @lanes (@size bytes apart): lane 0 on the caller's
 * thread, the others on threads of their own, and return once all have returned. A lane
 * whose thread cannot start does not run, so the lanes must share their work (taking items
 * from a common counter until none is left), as lane 0 then does alone.
 */
void worker_run_lanes(void *lanes, size_t size, size_t n, void (*run)(void *lane));

#endif /* TK_COMMON_WORKER_H */
