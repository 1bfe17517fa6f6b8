/* SPDX-License-Identifier: MIT */
/*
 * A background thread with the lock and condition variable it shares with the thread that
 * feeds it (the CTF writer's packet writes, the trace.dat reader's read-ahead). Only the
 * start and the end are here; what the two threads say to each other is the user's.
 */
#ifndef TK_COMMON_WORKER_H
#define TK_COMMON_WORKER_H

#include <pthread.h>

struct worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* signalled on every change the other side may wait for */
};

/* Start @fn(@arg) in a new thread: 0, or -1 with nothing left to undo. */
int worker_start(struct worker *wk, void *(*fn)(void *), void *arg);

/* Set *@stop under the lock, wake the thread, wait for its end and free what start made. */
void worker_stop(struct worker *wk, int *stop);

#endif /* TK_COMMON_WORKER_H */
