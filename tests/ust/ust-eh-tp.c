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
 *        ust-eh-tp --kernel     (user_events: see kernel_mode())
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracekit/ust.h>

static const uint8_t blob[] = {0xde, 0xad, 0x01};
static const int16_t arr[] = {-1, 0, 300};
static const uint32_t seq[] = {1, 2, 4000000000u};
static const int32_t pts[] = {1, -2, 3, 4};
static const uint8_t uuid[16] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
				 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10};
static const uint8_t ip4[4] = {192, 168, 1, 20}; /* network order, as a program has it */
static const uint8_t ip6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
static const uint8_t raw[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
				0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};

/* The event with every EventHeader encoding and format, after the 8 of the VM harness. */
static void emit_every(void)
{
	uint32_t ip4_net;

	memcpy(&ip4_net, ip4, 4);
	tk_tracepoint(tktest, every, 2, -300, 0xC8, 2, 4242, 2000000000, 1, -0.125,
		      18000000000000000000ull, uuid, ip4_net, ip6, 8080, raw, "plain", "caf\xe9",
		      "\xef\xbb\xbf"
		      "bom",
		      "<a x=\"1\"/>", "{\"k\":[1,2]}", "abcdef", 3, u"h\u00e9", U"\U0001F600x",
		      u"abc", 2, U"xyz", 3, blob, sizeof(blob), arr, seq, 2);
}

static void emit_all(void)
{
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
}

/*
 * With user_events (the VM harness, tests/vm/ust-eh.sh), in this process and in a child
 * forked after registration (which takes registrations of its own): wait up to 30 s for a recorder to
 * enable every event (the kernel sets bit 1) and to record (the file "go", made by the
 * command it runs: events are enabled before its buffers are on), emit them, then create the
 * file "emitted" in the current directory so that the recorder can stop.
 */
static int kernel_mode(void)
{
	struct tk_tp_event *const evs[] = {
		&TK_TP_EVENT_SYM(tktest, ints),	  &TK_TP_EVENT_SYM(tktest, formats),
		&TK_TP_EVENT_SYM(tktest, floats), &TK_TP_EVENT_SYM(tktest, strings),
		&TK_TP_EVENT_SYM(tktest, arrays), &TK_TP_EVENT_SYM(tktest, enums),
		&TK_TP_EVENT_SYM(tktest, nested), &TK_TP_EVENT_SYM(tktest, tick),
	};
	struct timespec pause = {0, 10 * 1000 * 1000};
	pid_t child = fork(); /* its registrations must be its own: both write the events */
	FILE *f;
	int i, n, all = 0, status;

	if (child < 0)
		return 1;

	for (i = 0; i < 3000 && !all; i++) {
		all = 1;
		for (n = 0; n < 8; n++)
			all &= (__atomic_load_n(&evs[n]->enabled, __ATOMIC_RELAXED) & 2) != 0;
		all &= access("go", F_OK) == 0;
		if (!all)
			nanosleep(&pause, NULL);
	}
	if (!all) {
		fprintf(stderr, "ust-eh-tp: the kernel never set bit 1 of every event\n");
		return 1;
	}
	emit_all();
	if (child == 0)
		_exit(0);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	f = fopen("emitted", "w");
	return f && fclose(f) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *ic = getenv("TRACEKIT_UST_INTERCEPTOR");
	int want = (argc > 1 ? 1 : 0) | (ic && *ic ? 2 : 0);

	if (argc == 2 && !strcmp(argv[1], "--kernel"))
		return kernel_mode();
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
	emit_all();
	emit_every();
	if (argc > 1 && tk_ust_session_stop() < 0) {
		fprintf(stderr, "ust-eh-tp: %s\n", tk_error_cause(0));
		return 1;
	}
	return tk_ust_interceptor_stop() < 0;
}
