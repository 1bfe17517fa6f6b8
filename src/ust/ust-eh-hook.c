// SPDX-License-Identifier: MIT
/*
 * The runtime's side of the EventHeader output (doc/ust.md, "EventHeader output"): each
 * registered event gets its struct ust_eh_event (ust-eventheader.c) and, when the kernel has
 * user_events, a registration whose enable bit is bit 1 of the event's `enabled` word; the
 * emitter (tracepoint-event.h) serializes the payload into a per-thread scratch buffer and
 * calls tk_ust_eh_emit(), which writes it to user_events or to the interceptor file.
 *
 * The table of events (indexed by event ID) is read by emitting threads under the read side
 * of eh_lock and changed under its write side (provider registration, interceptor start and
 * stop, fork), so that no emitter ever uses a struct ust_eh_event being freed or an
 * interceptor being closed. The lock is taken on the EventHeader path only, which makes a
 * system call per event anyway; the CTF path never sees it.
 *
 * Messages: the library prints nothing unless EventHeader output was asked for
 * (TRACEKIT_UST_EVENTHEADER=1, or an interceptor); then an event without an EventHeader form,
 * or a kernel without user_events, is said once on stderr, as "tracekit-ust: CAUSES".
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "ust-eventheader.h"
#include "ust-priv.h"

/* Payloads up to this size use the thread's scratch; bigger ones a malloc per event. */
#define EH_SCRATCH_PAYLOAD 2048

/* writers first: threads emitting all the time must not starve an interceptor's stop */
static pthread_rwlock_t eh_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
static struct ust_eh_event **eh_tab; /* by event ID; NULL: no EventHeader form */
static size_t eh_cap;
static struct ust_eh_interceptor *eh_ic; /* interceptor mode when set */
static int eh_fd = -1;			 /* user_events_data, once opened */
static int eh_open_tried;
static int eh_wanted;	     /* EventHeader asked for: report problems on stderr */
static int eh_kernel_wanted; /* TRACEKIT_UST_EVENTHEADER=1: also a kernel without user_events */
static int eh_kernel = 1;    /* TRACEKIT_UST_EVENTHEADER=0: never register with the kernel */
static uint64_t eh_dropped;  /* relaxed atomic: events dropped (no memory, failed writes) */

static pthread_key_t eh_key;
static pthread_once_t eh_key_once = PTHREAD_ONCE_INIT;
static int eh_key_ok;
/* The thread's scratch: 2 * EH_SCRATCH_PAYLOAD bytes (payload, then transcoding's scratch) */
static __thread uint8_t *eh_scratch;

static void eh_key_make(void)
{
	eh_key_ok = pthread_key_create(&eh_key, free) == 0;
}

/* The enable word of @eh's event (the description is const, the word is not). */
static int *ev_word(struct ust_eh_event *eh)
{
	return &((struct tk_tp_event *) eh->ev)->enabled;
}

/* Say the error chain's causes on stderr, when EventHeader output was asked for (@wanted). */
static void eh_report(int wanted)
{
	if (wanted)
		ust_say_causes();
}

/* Register @eh with user_events, opening it the first time (under the write lock). */
static void eh_kernel_register(struct ust_eh_event *eh, struct tk_tp_event *ev)
{
	if (!eh_kernel || eh_ic)
		return;
	if (eh_fd < 0) {
		if (eh_open_tried)
			return;
		eh_open_tried = 1;
		error_reset();
		if (ust_eh_open(&eh_fd) < 0) {
			eh_fd = -1;
			/* once per process: this kernel has no user_events */
			eh_report(eh_kernel_wanted);
			return;
		}
	}
	error_reset();
	if (ust_eh_register(eh, eh_fd, &ev->enabled, UST_EH_ENABLE_BIT) < 0)
		eh_report(eh_kernel_wanted);
}

void ust_eh_hook_env(void)
{
	const char *v = secure_getenv("TRACEKIT_UST_EVENTHEADER");
	const char *ic = secure_getenv("TRACEKIT_UST_INTERCEPTOR");

	if (v && !strcmp(v, "1"))
		eh_wanted = eh_kernel_wanted = 1;
	else if (v && !strcmp(v, "0"))
		eh_kernel = 0;
	if (ic && *ic) {
		eh_wanted = 1;
		error_reset();
		if (tk_ust_interceptor_start(ic) < 0)
			eh_report(eh_wanted);
	}
}

void ust_eh_hook_provider_add(struct tk_tp_provider *p)
{
	size_t i;

	pthread_rwlock_wrlock(&eh_lock);
	for (i = 0; i < p->n_events; i++) {
		struct tk_tp_event *ev = p->events[i];
		struct ust_eh_event *eh;

		if (ev->id >= eh_cap) {
			size_t cap = eh_cap ? eh_cap : 64;
			struct ust_eh_event **t;

			while (cap <= ev->id)
				cap *= 2;
			t = realloc(eh_tab, cap * sizeof(*t));
			if (!t)
				break; /* no EventHeader for these: CTF is not affected */
			memset(t + eh_cap, 0, (cap - eh_cap) * sizeof(*t));
			eh_tab = t;
			eh_cap = cap;
		}
		eh = calloc(1, sizeof(*eh));
		if (!eh)
			break;
		error_reset();
		if (ust_eh_event_init(eh, ev) < 0) {
			eh_report(eh_wanted); /* once: the event is registered once */
			ust_eh_event_fini(eh);
			free(eh);
			continue;
		}
		eh_tab[ev->id] = eh;
		if (eh_ic)
			__atomic_fetch_or(&ev->enabled, 1 << UST_EH_ENABLE_BIT, __ATOMIC_RELAXED);
		else
			eh_kernel_register(eh, ev);
	}
	pthread_rwlock_unlock(&eh_lock);
}

void ust_eh_hook_provider_remove(struct tk_tp_provider *p)
{
	size_t i;

	pthread_rwlock_wrlock(&eh_lock);
	for (i = 0; i < p->n_events; i++) {
		struct tk_tp_event *ev = p->events[i];
		struct ust_eh_event *eh = ev->id < eh_cap ? eh_tab[ev->id] : NULL;

		if (!eh)
			continue;
		ust_eh_unregister(eh);
		__atomic_fetch_and(&ev->enabled, ~(1 << UST_EH_ENABLE_BIT), __ATOMIC_RELAXED);
		eh_tab[ev->id] = NULL;
		ust_eh_event_fini(eh);
		free(eh);
	}
	pthread_rwlock_unlock(&eh_lock);
}

TK_EXPORT enum tk_status tk_ust_interceptor_start(const char *path)
{
	struct ust_eh_interceptor *ic;
	enum tk_status st;
	size_t i;

	error_reset();
	TK_ASSERT_PRE(path);
	pthread_rwlock_wrlock(&eh_lock);
	if (eh_ic) {
		pthread_rwlock_unlock(&eh_lock);
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot start interceptor: path=%s, reason=one is open", path);
	}
	st = ust_eh_interceptor_open(&ic, path);
	if (st < 0) {
		pthread_rwlock_unlock(&eh_lock);
		return TK_FAIL(st, "Cannot start interceptor: path=%s", path);
	}
	eh_ic = ic;
	/* the interceptor stands in for the kernel: its registrations go, bit 1 is ours */
	for (i = 0; i < eh_cap; i++) {
		if (!eh_tab[i])
			continue;
		ust_eh_unregister(eh_tab[i]);
		__atomic_fetch_or(ev_word(eh_tab[i]), 1 << UST_EH_ENABLE_BIT, __ATOMIC_RELAXED);
	}
	pthread_rwlock_unlock(&eh_lock);
	return TK_OK;
}

/*
 * Close the interceptor: bit 1 cleared, the file closed and, with @reregister, the events
 * handed back to user_events (not at the process's end, where registering would be waste).
 */
static enum tk_status interceptor_stop(int reregister)
{
	enum tk_status st;
	size_t i;

	pthread_rwlock_wrlock(&eh_lock);
	if (!eh_ic) {
		pthread_rwlock_unlock(&eh_lock);
		return TK_OK;
	}
	for (i = 0; i < eh_cap; i++)
		if (eh_tab[i])
			__atomic_fetch_and(ev_word(eh_tab[i]), ~(1 << UST_EH_ENABLE_BIT),
					   __ATOMIC_RELAXED);
	st = ust_eh_interceptor_close(eh_ic);
	eh_ic = NULL;
	/* back to the kernel, which sets bit 1 again while a consumer records */
	for (i = 0; i < eh_cap && reregister; i++)
		if (eh_tab[i])
			eh_kernel_register(eh_tab[i], (struct tk_tp_event *) eh_tab[i]->ev);
	pthread_rwlock_unlock(&eh_lock);
	return st;
}

TK_EXPORT enum tk_status tk_ust_interceptor_stop(void)
{
	error_reset();
	return interceptor_stop(1);
}

/* The scratch buffer, or one of 2 * @size bytes for a large event; NULL (counted). */
static uint8_t *eh_buf(size_t size)
{
	if (size <= EH_SCRATCH_PAYLOAD) {
		if (TK_LIKELY(eh_scratch != NULL))
			return eh_scratch;
		pthread_once(&eh_key_once, eh_key_make);
		eh_scratch = malloc(2 * EH_SCRATCH_PAYLOAD);
		if (eh_scratch && eh_key_ok)
			pthread_setspecific(eh_key, eh_scratch); /* freed at the thread's end */
		if (eh_scratch)
			return eh_scratch;
	} else if (size <= SIZE_MAX / 2) {
		uint8_t *p = malloc(2 * size);

		if (p)
			return p;
	}
	__atomic_fetch_add(&eh_dropped, 1, __ATOMIC_RELAXED);
	return NULL;
}

/*
 * The scratch buffer is the thread's, from here to the end of tk_ust_eh_emit(): marked in the
 * thread's nesting word as a CTF event is, so that a signal handler's event meanwhile is
 * dropped (counted), not written over this one (tk_ust_reserve()).
 */
TK_EXPORT uint8_t *tk_ust_eh_buf(size_t size)
{
	uint8_t *p;

	if (tk_ust_tls_state.nest) {
		__atomic_fetch_add(&eh_dropped, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	tk_ust_tls_state.nest = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	p = eh_buf(size);
	if (!p)
		tk_ust_tls_state.nest = 0;
	return p;
}

TK_EXPORT void tk_ust_eh_emit(const struct tk_tp_event *ev, uint8_t *payload, size_t size)
{
	struct ust_eh_event *eh;
	enum tk_status st = TK_OK;

	pthread_rwlock_rdlock(&eh_lock);
	eh = ev->id < eh_cap ? eh_tab[ev->id] : NULL;
	if (eh && eh_ic)
		st = ust_eh_interceptor_write(eh_ic, eh, payload, size, payload + size, size);
	else if (eh && eh->fd >= 0)
		st = ust_eh_write(eh, payload, size, payload + size, size);
	pthread_rwlock_unlock(&eh_lock);
	if (st != TK_OK) {
		error_reset(); /* the event is lost; the chain must not grow event after event */
		__atomic_fetch_add(&eh_dropped, 1, __ATOMIC_RELAXED);
	}
	if (payload != eh_scratch)
		free(payload);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	tk_ust_tls_state.nest = 0;
}

uint64_t ust_eh_hook_dropped(void)
{
	return __atomic_load_n(&eh_dropped, __ATOMIC_RELAXED);
}

void ust_eh_hook_fork_prepare(void)
{
	pthread_rwlock_wrlock(&eh_lock);
}

void ust_eh_hook_fork_parent(void)
{
	pthread_rwlock_unlock(&eh_lock);
}

/*
 * The child of fork(): the interceptor file has one writing process, the parent, so the
 * child drops its copy (its descriptor closed, the parent's mutex not touched) and clears
 * bit 1 of every event. Registrations with user_events are the parent's; the child takes
 * its own (unregister, which clears bit 1 if the kernel copied them, then register again on
 * the inherited descriptor), so that the kernel updates the child's words for its own
 * consumers.
 */
void ust_eh_hook_fork_child(void)
{
	pthread_rwlock_t fresh = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
	size_t i;

	eh_lock = fresh; /* the parent's is held by the forking thread (prepare) */
	if (eh_ic) {
		ust_eh_interceptor_close(eh_ic); /* no writer inside: we held the lock */
		eh_ic = NULL;
		for (i = 0; i < eh_cap; i++)
			if (eh_tab[i])
				__atomic_fetch_and(ev_word(eh_tab[i]), ~(1 << UST_EH_ENABLE_BIT),
						   __ATOMIC_RELAXED);
		return;
	}
	for (i = 0; i < eh_cap; i++) {
		struct ust_eh_event *eh = eh_tab[i];

		if (!eh || eh->fd < 0)
			continue;
		ust_eh_unregister(eh);
		__atomic_fetch_and(ev_word(eh), ~(1 << UST_EH_ENABLE_BIT), __ATOMIC_RELAXED);
		eh_kernel_register(eh, (struct tk_tp_event *) eh->ev);
	}
	error_reset();
}

void ust_eh_hook_exit(void)
{
	interceptor_stop(0);
}
