/* SPDX-License-Identifier: MIT */
/*
 * Events from a signal handler that interrupts the thread's own events: the main thread emits
 * at least EVENTS `ints` events (s32 = its number, u8 = 0) while another thread sends it
 * SIGUSR2 as fast as it can; the handler emits one `ints` event (s32 = the handler's number,
 * u8 = 1). One that lands inside an event of the main thread must be dropped and counted,
 * never written over it. Prints the main thread's count, then the handler's;
 * tests/ust/ust-signal.sh checks the trace. With "eh", the events also go to an interceptor
 * file FILE (the EventHeader path's scratch buffer is guarded the same way).
 *
 * Usage: ust-signal DIR EVENTS [eh FILE]
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tracekit/ust.h>

enum { MIN_INSIDE = 200 };

static volatile sig_atomic_t done, in_event;
static volatile long handled, inside;
static pthread_t main_thread;

static void on_signal(int sig)
{
	long n = handled;

	(void) sig;
	inside += in_event; /* landed while the main thread was in a tracepoint (maybe inside) */
	tk_tracepoint(tktest, ints, 0, 0, (int32_t) n, 0, 1, 0, 0, 0);
	handled = n + 1;
}

static void *sender(void *arg)
{
	(void) arg;
	while (!done)
		pthread_kill(main_thread, SIGUSR2);
	return NULL;
}

int main(int argc, char **argv)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	struct sigaction sa;
	pthread_t th;
	long events, i;

	if (argc != 3 && !(argc == 5 && !strcmp(argv[3], "eh"))) {
		fprintf(stderr, "usage: ust-signal DIR EVENTS [eh FILE]\n");
		return 2;
	}
	events = atol(argv[2]);
	o.subbuf_size = 1 << 20; /* room for every event: only nesting may drop one */
	o.subbuf_count = 32;
	if (argc == 5 && tk_ust_interceptor_start(argv[4]) < 0)
		return 1;
	if (tk_ust_session_start(argv[1], &o) < 0)
		return 1;
	tk_tracepoint(tktest, ints, 0, 0, -1, 0, 2, 0, 0,
		      0); /* the ring exists before any signal */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR2, &sa, NULL))
		return 1;
	main_thread = pthread_self();
	if (pthread_create(&th, NULL, sender, NULL))
		return 1;
	/*
	 * On a loaded machine the sender may not run before EVENTS are done: wait for its first
	 * signal, and go on past EVENTS (up to three times, what the ring holds) until enough
	 * signals landed in tracepoints for some to land inside an event.
	 */
	for (i = 0; !handled && i < 10000; i++)
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	for (i = 0; i < events || (inside < MIN_INSIDE && i < 3 * events); i++) {
		in_event = 1;
		tk_tracepoint(tktest, ints, 0, 0, (int32_t) i, 0, 0, 0, 0, 0);
		in_event = 0;
	}
	done = 1;
	pthread_join(th, NULL);
	signal(SIGUSR2, SIG_IGN);
	if (tk_ust_session_stop() < 0)
		return 1;
	printf("%ld %ld\n", i, (long) handled);
	return 0;
}
