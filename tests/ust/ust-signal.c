/* SPDX-License-Identifier: MIT */
/*
 * Events from a signal handler that interrupts the thread's own events: the main thread emits
 * EVENTS `ints` events (s32 = its number, u8 = 0) while another thread sends it SIGUSR2 as
 * fast as it can; the handler emits one `ints` event (s32 = the handler's number, u8 = 1).
 * One that lands inside an event of the main thread must be dropped and counted, never
 * written over it. Prints the main thread's count, then the handler's;
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

#include <tracekit/ust.h>

static volatile sig_atomic_t done;
static volatile long handled;
static pthread_t main_thread;

static void on_signal(int sig)
{
	long n = handled;

	(void) sig;
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
	for (i = 0; i < events; i++)
		tk_tracepoint(tktest, ints, 0, 0, (int32_t) i, 0, 0, 0, 0, 0);
	done = 1;
	pthread_join(th, NULL);
	signal(SIGUSR2, SIG_IGN);
	if (tk_ust_session_stop() < 0)
		return 1;
	printf("%ld %ld\n", events, (long) handled);
	return 0;
}
