// SPDX-License-Identifier: MIT
/*
 * The test provider's events (ust-tp.h, unchanged) emitted once each through the real
 * macros and the real runtime, whose EventHeader output writes them to the interceptor file
 * TRACEKIT_UST_INTERCEPTOR names (set by tests/ust/ust-eh-tp.sh). With a directory argument,
 * a CTF session runs at the same time, so that both outputs take every event: the script
 * compares `tracekit print --style perf-decode` of the file with values written there by
 * hand, and has babeltrace2 read the CTF trace.
 *
 * Without TRACEKIT_UST_INTERCEPTOR, the events go nowhere (or to user_events): the script then
 * checks what the runtime says on stderr.
 *
 * Usage: [TRACEKIT_UST_INTERCEPTOR=FILE] ust-eh-tp [DIR]
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracekit/ust.h>

int main(int argc, char **argv)
{
	static const uint8_t blob[] = {0xde, 0xad, 0x01};
	static const int16_t arr[] = {-1, 0, 300};
	static const uint32_t seq[] = {1, 2, 4000000000u};
	static const int32_t pts[] = {1, -2, 3, 4};
	const char *ic = getenv("TRACEKIT_UST_INTERCEPTOR");
	int want = (argc > 1 ? 1 : 0) | (ic && *ic ? 2 : 0);

	if (argc > 2) {
		fprintf(stderr, "usage: [TRACEKIT_UST_INTERCEPTOR=FILE] ust-eh-tp [DIR]\n");
		return 2;
	}
	if (argc > 1 && tk_ust_session_start(argv[1], NULL) < 0) {
		fprintf(stderr, "ust-eh-tp: %s\n", tk_error_cause(0));
		return 1;
	}
	/* the runtime's bits: EventHeader (the interceptor), and CTF with a session */
	if (__atomic_load_n(&TK_TP_EVENT_SYM(tktest, ints).enabled, __ATOMIC_RELAXED) != want) {
		fprintf(stderr, "ust-eh-tp: enabled is %d, not %d\n",
			TK_TP_EVENT_SYM(tktest, ints).enabled, want);
		return 1;
	}
	tk_tracepoint(tktest, ints, -8, -1600, -320000, -64000000000LL, 200, 60000, 4000000000u,
		      18000000000000000000ull);
	tk_tracepoint(tktest, formats, 0xC8, 0x1122334455667788ull, (const void *) 0x1000, 13,
		      123456789);
	tk_tracepoint(tktest, floats, 1.5f, -0.125, 7);
	tk_tracepoint(tktest, strings, "hello", NULL, "abcd", 2, blob, sizeof(blob));
	tk_tracepoint(tktest, arrays, arr, seq, 3, NULL);
	tk_tracepoint(tktest, enums, 2, -5);
	tk_tracepoint(tktest, nested, pts, "seg", 7);
	tk_tracepoint(tktest, tick, );
	if (argc > 1 && tk_ust_session_stop() < 0) {
		fprintf(stderr, "ust-eh-tp: %s\n", tk_error_cause(0));
		return 1;
	}
	return tk_ust_interceptor_stop() < 0;
}
