// SPDX-License-Identifier: MIT
/*
 * The test provider's events (ust-tp.h, unchanged) written through the EventHeader output to
 * an interceptor file: the real macros' descriptions and the real inline serializer's bytes,
 * with no session and no kernel. The serializer writes into the calling thread's packet,
 * which this program points at a buffer of its own (struct tk_ust_tls is public, for the
 * inline fast path), so that each event's CTF payload can be taken and handed to
 * ust_eh_interceptor_write(), as the runtime's emit path will. tests/ust/ust-eh-tp.sh
 * prints the file with `tracekit print --style perf-decode` and compares it with the
 * values given here, written there by hand.
 *
 * Usage: ust-eh-tp FILE
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ust/ust-eventheader.h"

static uint8_t packet[1 << 16];

/* Point the thread's packet at the start of @packet, and turn @ev on. */
static void capture_begin(struct tk_tp_event *ev)
{
	struct tk_ust_tls *t = &tk_ust_tls_state;

	t->pos = packet;
	t->commit = packet;
	t->end = packet + sizeof(packet);
	t->last_ts = tk_ust_clock_read();
	__atomic_store_n(&ev->enabled, 1, __ATOMIC_RELAXED);
}

/* Turn @ev off, put the packet back as it was, and write the event's payload to @ic. */
static int capture_end(struct tk_tp_event *ev, struct ust_eh_interceptor *ic)
{
	struct tk_ust_tls *t = &tk_ust_tls_state;
	const uint8_t *payload = packet + TK_UST_HEADER_SIZE;
	size_t size = (size_t) (t->pos - payload);
	struct ust_eh_event eh;
	enum tk_status st;

	__atomic_store_n(&ev->enabled, 0, __ATOMIC_RELAXED);
	memset(t, 0, sizeof(*t));
	st = ust_eh_event_init(&eh, ev);
	if (st == TK_OK)
		st = ust_eh_interceptor_write(ic, &eh, payload, size, NULL, 0);
	ust_eh_event_fini(&eh);
	if (st < 0) {
		fprintf(stderr, "ust-eh-tp: %s: %s\n", ev->name, tk_error_cause(0));
		return -1;
	}
	return 0;
}

#define EMIT(ev, ...)                                                                              \
	do {                                                                                       \
		capture_begin(&TK_TP_EVENT_SYM(tktest, ev));                                       \
		tk_tracepoint(tktest, ev, __VA_ARGS__);                                            \
		err |= capture_end(&TK_TP_EVENT_SYM(tktest, ev), ic);                              \
	} while (0)

int main(int argc, char **argv)
{
	static const uint8_t blob[] = {0xde, 0xad, 0x01};
	static const int16_t arr[] = {-1, 0, 300};
	static const uint32_t seq[] = {1, 2, 4000000000u};
	static const int32_t pts[] = {1, -2, 3, 4};
	struct ust_eh_interceptor *ic;
	int err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: ust-eh-tp FILE\n");
		return 2;
	}
	if (ust_eh_interceptor_open(&ic, argv[1]) < 0) {
		fprintf(stderr, "ust-eh-tp: %s\n", tk_error_cause(0));
		return 1;
	}
	EMIT(ints, -8, -1600, -320000, -64000000000LL, 200, 60000, 4000000000u,
	     18000000000000000000ull);
	EMIT(formats, 0xC8, 0x1122334455667788ull, (const void *) 0x1000, 13, 123456789);
	EMIT(floats, 1.5f, -0.125, 7);
	EMIT(strings, "hello", NULL, "abcd", 2, blob, sizeof(blob));
	EMIT(arrays, arr, seq, 3, NULL);
	EMIT(enums, 2, -5);
	EMIT(nested, pts, "seg", 7);
	EMIT(tick, );
	if (ust_eh_interceptor_close(ic) < 0)
		err = 1;
	return err ? 1 : 0;
}
