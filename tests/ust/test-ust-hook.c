/* SPDX-License-Identifier: MIT */
/*
 * The enable word of each event, as the runtime keeps it (doc/ust.md, "EventHeader output"):
 * bit 0 for the CTF session, bit 1 for the EventHeader output (the kernel's through
 * user_events, or the interceptor's), each set and cleared without touching the other; an
 * event with only bit 1 writes no CTF ring, one with only bit 0 no EventHeader record;
 * providers registered while an interceptor is open get bit 1, events EventHeader cannot
 * describe do not; an event larger than the thread's scratch still goes out whole; a forked
 * child does not write its parent's interceptor file. This host
 * has no user_events: the kernel's bit is set here by hand, as the kernel would.
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <tracekit/ust.h>

static struct tk_tp_event *const all[] = {
	&TK_TP_EVENT_SYM(tktest, ints),	  &TK_TP_EVENT_SYM(tktest, formats),
	&TK_TP_EVENT_SYM(tktest, floats), &TK_TP_EVENT_SYM(tktest, strings),
	&TK_TP_EVENT_SYM(tktest, arrays), &TK_TP_EVENT_SYM(tktest, enums),
	&TK_TP_EVENT_SYM(tktest, nested), &TK_TP_EVENT_SYM(tktest, tick),
};

static char tmpdir[64];
static char file[128];
static char trace[128];
static int runs;

/* A fresh trace directory name and interceptor file name for each use. */
static void names(void)
{
	runs++;
	snprintf(file, sizeof(file), "%s/eh%d.dat", tmpdir, runs);
	snprintf(trace, sizeof(trace), "%s/trace%d", tmpdir, runs);
}

static void assert_all_enabled(int want)
{
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		assert_int_equal(__atomic_load_n(&all[i]->enabled, __ATOMIC_RELAXED), want);
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long) st.st_size;
}

static void bits_follow_session_and_interceptor_independently(void **state)
{
	(void) state;
	names();
	assert_all_enabled(0);
	assert_int_equal(tk_ust_interceptor_start(file), TK_OK);
	assert_all_enabled(2);
	assert_int_equal(tk_ust_session_start(trace, NULL), TK_OK);
	assert_all_enabled(3);
	assert_int_equal(tk_ust_interceptor_stop(), TK_OK);
	assert_all_enabled(1);
	names();
	assert_int_equal(tk_ust_interceptor_start(file), TK_OK);
	assert_all_enabled(3);
	assert_int_not_equal(tk_ust_interceptor_start(file), TK_OK); /* one at a time */
	assert_int_equal(tk_ust_session_stop(), TK_OK);
	assert_all_enabled(2);
	assert_int_equal(tk_ust_interceptor_stop(), TK_OK);
	assert_all_enabled(0);
	assert_int_equal(tk_ust_interceptor_stop(), TK_OK); /* none open: nothing */
}

static void session_keeps_the_kernels_bit(void **state)
{
	struct tk_tp_event *ev = &TK_TP_EVENT_SYM(tktest, ints);

	(void) state;
	names();
	__atomic_fetch_or(&ev->enabled, 2, __ATOMIC_RELAXED); /* as user_events would */
	assert_int_equal(tk_ust_session_start(trace, NULL), TK_OK);
	assert_int_equal(ev->enabled, 3);
	assert_int_equal(TK_TP_EVENT_SYM(tktest, tick).enabled, 1);
	assert_int_equal(tk_ust_session_stop(), TK_OK);
	assert_int_equal(ev->enabled, 2);
	assert_int_equal(TK_TP_EVENT_SYM(tktest, tick).enabled, 0);
	/* bit 1 alone, no interceptor, no registration: the event goes nowhere, harmlessly */
	tk_tracepoint(tktest, ints, 1, 2, 3, 4, 5, 6, 7, 8);
	assert_null(tk_ust_tls_state.buf);
	__atomic_fetch_and(&ev->enabled, ~2, __ATOMIC_RELAXED);
	assert_int_equal(ev->enabled, 0);
}

static void each_bit_writes_only_its_output(void **state)
{
	long size;

	(void) state;
	names();
	/* bit 1 only: a record, no CTF ring */
	assert_int_equal(tk_ust_interceptor_start(file), TK_OK);
	tk_tracepoint(tktest, ints, 1, 2, 3, 4, 5, 6, 7, 8);
	assert_null(tk_ust_tls_state.buf);
	assert_int_equal(tk_ust_interceptor_stop(), TK_OK);
	size = file_size(file);
	assert_true(size > 30);
	/* bit 0 only: a ring, no record */
	assert_int_equal(tk_ust_session_start(trace, NULL), TK_OK);
	tk_tracepoint(tktest, ints, 1, 2, 3, 4, 5, 6, 7, 8);
	assert_non_null(tk_ust_tls_state.buf);
	assert_int_equal(tk_ust_session_stop(), TK_OK);
	assert_int_equal(file_size(file), size);
}

static const struct tk_tp_field late_fields[] = {
	{"v", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 4, 0, 0, NULL, NULL},
};
static const struct tk_tp_field odd_fields[] = {
	{"v", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 3, 0, 0, NULL, NULL}, /* no EventHeader form */
};
static struct tk_tp_event late_ev = {0, 0, "late", "ev", 4, 0, late_fields, 1, 4};
static struct tk_tp_event odd_ev = {0, 0, "late", "odd", 4, 0, odd_fields, 1, 3};
static struct tk_tp_event *const late_evs[] = {&late_ev, &odd_ev};

static void providers_registered_later_are_intercepted(void **state)
{
	struct tk_tp_provider p = {sizeof(p), "late", late_evs, 2};

	(void) state;
	names();
	assert_int_equal(tk_ust_interceptor_start(file), TK_OK);
	assert_int_equal(tk_tp_provider_register(&p), 0);
	assert_int_equal(late_ev.enabled, 2);
	assert_int_equal(odd_ev.enabled, 0); /* EventHeader cannot say a 3-byte integer */
	tk_tp_provider_unregister(&p);
	assert_int_equal(late_ev.enabled, 0);
	assert_int_equal(tk_ust_interceptor_stop(), TK_OK);
}

static void events_larger_than_the_scratch_go_out_whole(void **state)
{
	static char big[10000];
	long before;

	(void) state;
	names();
	memset(big, 'x', sizeof(big) - 1);
	assert_int_equal(tk_ust_interceptor_start(file), TK_OK);
	tk_tracepoint(tktest, tick, );
	before = file_size(file);
	tk_tracepoint(tktest, strings, big, "", big, 9000, (const uint8_t *) big, 9000);
	/* the strings event's record: its head, then 9999 + 1, 1, 2 + 9000, 2 + 9000 bytes */
	assert_true(file_size(file) - before > 9999 + 1 + 1 + 2 + 9000 + 2 + 9000);
	assert_int_equal(tk_ust_interceptor_stop(), TK_OK);
}

static void a_forked_child_leaves_the_parents_file_alone(void **state)
{
	struct tk_tp_event *ev = &TK_TP_EVENT_SYM(tktest, ints);
	long size;
	pid_t pid;
	int status;

	(void) state;
	names();
	assert_int_equal(tk_ust_interceptor_start(file), TK_OK);
	tk_tracepoint(tktest, ints, 1, 2, 3, 4, 5, 6, 7, 8);
	size = file_size(file);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* the file has one writer, the parent: bit 1 is off here, the event goes nowhere */
		int bit_off = __atomic_load_n(&ev->enabled, __ATOMIC_RELAXED) == 0;

		tk_tracepoint(tktest, ints, 1, 2, 3, 4, 5, 6, 7, 8);
		_exit(bit_off ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(file_size(file), size);
	assert_int_equal(ev->enabled, 2); /* the parent's bit is its own */
	tk_tracepoint(tktest, ints, 1, 2, 3, 4, 5, 6, 7, 8);
	assert_int_equal(file_size(file), 2 * size);
	assert_int_equal(tk_ust_interceptor_stop(), TK_OK);
}

static int setup(void **state)
{
	(void) state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test-ust-hook-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void) state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bits_follow_session_and_interceptor_independently),
		cmocka_unit_test(session_keeps_the_kernels_bit),
		cmocka_unit_test(each_bit_writes_only_its_output),
		cmocka_unit_test(providers_registered_later_are_intercepted),
		cmocka_unit_test(events_larger_than_the_scratch_go_out_whole),
		cmocka_unit_test(a_forked_child_leaves_the_parents_file_alone),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
