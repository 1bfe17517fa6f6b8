// SPDX-License-Identifier: MIT
/*
 * Unit tests of src/ftrace/tracefs.c against the running kernel's tracefs.
 *
 * They need root and a writable tracefs, and exit 77 (skip) otherwise. Expected values never
 * come from the code under test: event sets are computed with glob(3) over the events/
 * directory, and files are read back here with plain stdio. Most tests work in instances of
 * their own ("tracekit-PID", "tkht-PID"); the one that must use the top-level buffer changes
 * only an event that is off there, its filter and the pid filter, and checks that closing the
 * handle puts every file back byte for byte. Whatever fails, the teardown closes the handles
 * and removes the instances, so the kernel is left as it was found.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/error.h"
#include "ftrace/tracefs.h"
#include "ftrace/user-events.h"

static const char *mount;
static char inst_name[64];     /* "tracekit-PID": created through the API */
static char existing_name[64]; /* "tkht-PID": made by the test, opened through the API */
static char stale_dir[512];    /* a "tracekit-DEADPID" the test makes */
static char live_dir[512];     /* "tracekit-1": init lives, so it must survive */

/* Handles a failing test may leave open; the teardown closes them. */
static struct tracefs_instance *open_ti[3];

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                    */

static char *path_of(char *buf, size_t size, const char *dir, const char *rel)
{
	int n = snprintf(buf, size, "%s/%s", dir, rel);

	assert_true(n > 0 && (size_t) n < size);
	return buf;
}

static char *inst_dir(char *buf, size_t size, const char *name)
{
	int n = snprintf(buf, size, "%s/instances/%s", mount, name);

	assert_true(n > 0 && (size_t) n < size);
	return buf;
}

/* The whole of @path with plain stdio (NULL when it cannot be read). */
static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* @dir/@rel must read exactly @want. */
static void expect_file(const char *dir, const char *rel, const char *want)
{
	char path[1024], *text;

	text = slurp(path_of(path, sizeof(path), dir, rel));
	assert_non_null(text);
	if (strcmp(text, want))
		fail_msg("%s reads \"%s\", expected \"%s\"", path, text, want);
	free(text);
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t) strlen(text));
	close(fd);
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* Does any cause of the last failure contain @needle? */
static int cause_has(const char *needle)
{
	size_t i;

	for (i = 0; i < tk_error_count(); i++)
		if (strstr(tk_error_cause(i), needle))
			return 1;
	return 0;
}

static void print_causes(void)
{
	size_t i;

	for (i = 0; i < tk_error_count(); i++)
		print_message("  cause: %s\n", tk_error_cause(i));
}

#define assert_ok(expr)                                                                            \
	do {                                                                                       \
		enum tk_status st_ = (expr);                                                       \
		if (st_ != TK_OK) {                                                                \
			print_causes();                                                            \
			fail_msg("%s returned %s", #expr, tk_status_str(st_));                     \
		}                                                                                  \
	} while (0)

/* Event directories matching @pattern (relative to @dir/events), found with glob(3). */
static size_t glob_events(const char *dir, const char *pattern, glob_t *g)
{
	char path[1024];

	path_of(path, sizeof(path), dir, "events/");
	assert_true(strlen(path) + strlen(pattern) + 1 < sizeof(path));
	strcat(path, pattern);
	strcat(path, "/");
	memset(g, 0, sizeof(*g));
	if (glob(path, GLOB_ONLYDIR | GLOB_MARK, NULL, g))
		return 0;
	return g->gl_pathc;
}

static int list_has(const struct tracefs_event_list *l, const char *sys, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->events[i].system, sys) && !strcmp(l->events[i].name, name))
			return 1;
	return 0;
}

/* The list must hold exactly the event directories @pattern globs to, and be sorted. */
static void expect_list_is_glob(const char *spec, const char *pattern)
{
	struct tracefs_event_list l;
	char want[1024];
	glob_t g;
	size_t i, n;

	n = glob_events(mount, pattern, &g);
	assert_ok(tracefs_list_events(NULL, spec, &l));
	if (l.n != n)
		fail_msg("spec %s lists %zu events, %s globs to %zu", spec, l.n, pattern, n);
	for (i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "%s/events/%s/%s/", mount, l.events[i].system,
			 l.events[i].name);
		/* glob(3) sorts by path, which is system then name: the same order */
		assert_string_equal(g.gl_pathv[i], want);
	}
	globfree(&g);
	tracefs_event_list_fini(&l);
}

/* Every enable file of the events @pattern globs to must read @want. */
static size_t expect_enables(const char *dir, const char *pattern, const char *want)
{
	char path[1024];
	glob_t g;
	size_t i, n;

	n = glob_events(dir, pattern, &g);
	for (i = 0; i < n; i++) {
		char *text;

		snprintf(path, sizeof(path), "%senable", g.gl_pathv[i]);
		text = slurp(path);
		assert_non_null(text);
		if (strcmp(text, want))
			fail_msg("%s reads \"%s\", expected \"%s\"", path, text, want);
		free(text);
	}
	globfree(&g);
	return n;
}

/* A snapshot of files under a directory, compared byte for byte later. */
struct snapshot {
	const char *dir;
	size_t n;
	const char *rel[16];
	char *text[16];
	char *expanded[16]; /* for an unexpanded buffer size: what the kernel expands it to */
};

/*
 * The size the kernel gives a ring buffer when it expands one that was never used: a fresh
 * instance gets that same default size (both are the boot-time trace_buf_size, rounded to
 * whole sub-buffers), so one is made to read it from (@rel: buffer_size_kb or
 * buffer_total_size_kb).
 */
static char *expanded_size_text(const char *rel)
{
	char dir[512], path[1024], name[64], *text;

	snprintf(name, sizeof(name), "tkexp-%d", (int) getpid());
	inst_dir(dir, sizeof(dir), name);
	assert_int_equal(mkdir(dir, 0750), 0);
	text = slurp(path_of(path, sizeof(path), dir, rel));
	assert_int_equal(rmdir(dir), 0);
	assert_non_null(text);
	return text;
}

/* Is @text what a never-expanded buffer size reads ("7 (expanded: 1408)")? */
static int unexpanded(const char *text)
{
	return strstr(text, " (expanded: ") != NULL;
}

static void snap_take(struct snapshot *s)
{
	char path[1024];
	size_t i;

	for (i = 0; i < s->n; i++) {
		s->text[i] = slurp(path_of(path, sizeof(path), s->dir, s->rel[i]));
		assert_non_null(s->text[i]);
		if (unexpanded(s->text[i]))
			s->expanded[i] = expanded_size_text(s->rel[i]);
	}
}

/*
 * Every file reads as in the snapshot, with one exception the kernel imposes: a buffer that
 * was never used ("7 (expanded: 1408)") is expanded by the first event enabled in it, and no
 * write can shrink it back to unexpanded; it must then read the kernel's default size.
 */
static void snap_expect_same(struct snapshot *s)
{
	char path[1024], *now;
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->expanded[i]) {
			now = slurp(path_of(path, sizeof(path), s->dir, s->rel[i]));
			assert_non_null(now);
			if (strcmp(now, s->text[i]) && strcmp(now, s->expanded[i]))
				fail_msg("%s reads \"%s\", expected \"%s\" or, expanded, \"%s\"",
					 path, now, s->text[i], s->expanded[i]);
			free(now);
			continue;
		}
		expect_file(s->dir, s->rel[i], s->text[i]);
	}
}

static void snap_fini(struct snapshot *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->text[i]);
		free(s->expanded[i]);
		s->text[i] = s->expanded[i] = NULL;
	}
}

static void close_tracked(size_t slot)
{
	struct tracefs_instance *ti = open_ti[slot];

	open_ti[slot] = NULL;
	assert_ok(tracefs_instance_close(ti));
}

static struct tracefs_instance *create_instance(size_t slot)
{
	error_reset();
	assert_ok(tracefs_instance_open(&open_ti[slot], NULL, inst_name, TRACEFS_CREATE));
	return open_ti[slot];
}

/* Put everything back, whatever a test left (runs after failures too). */
static int teardown(void **state)
{
	char dir[512];
	size_t i;

	(void) state;
	for (i = 0; i < TK_ARRAY_SIZE(open_ti); i++) {
		tracefs_instance_close(open_ti[i]);
		open_ti[i] = NULL;
	}
	if (stale_dir[0])
		rmdir(stale_dir);
	if (live_dir[0])
		rmdir(live_dir);
	stale_dir[0] = live_dir[0] = '\0';
	rmdir(inst_dir(dir, sizeof(dir), inst_name));
	rmdir(inst_dir(dir, sizeof(dir), existing_name));
	return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Mount and event lists                                                                      */

static void test_mount_is_tracefs_with_events(void **state)
{
	char path[1024];
	const char *m = NULL;

	(void) state;
	assert_ok(tracefs_find_mount(&m));
	assert_non_null(m);
	assert_ptr_equal(m, mount);
	assert_true(exists(path_of(path, sizeof(path), m, "events/sched/sched_switch/format")));
	assert_true(exists(path_of(path, sizeof(path), m, "trace_marker")));
}

static void test_list_sched_has_sched_switch(void **state)
{
	struct tracefs_event_list l;
	size_t i;

	(void) state;
	assert_ok(tracefs_list_events(NULL, "sched", &l));
	assert_true(l.n > 1);
	assert_true(list_has(&l, "sched", "sched_switch"));
	for (i = 0; i < l.n; i++)
		assert_string_equal(l.events[i].system, "sched");
	tracefs_event_list_fini(&l);
	expect_list_is_glob("sched", "sched/*");
}

static void test_list_all_skips_files_and_keeps_ftrace(void **state)
{
	struct tracefs_event_list l;
	size_t i;

	(void) state;
	assert_ok(tracefs_list_events(mount, NULL, &l));
	assert_true(list_has(&l, "ftrace", "print"));
	for (i = 0; i < l.n; i++) {
		assert_string_not_equal(l.events[i].name, "enable");
		assert_string_not_equal(l.events[i].name, "filter");
		assert_string_not_equal(l.events[i].system, "header_page");
		assert_string_not_equal(l.events[i].system, "header_event");
		if (i)
			assert_true(strcmp(l.events[i - 1].system, l.events[i].system) < 0 ||
				    (!strcmp(l.events[i - 1].system, l.events[i].system) &&
				     strcmp(l.events[i - 1].name, l.events[i].name) < 0));
	}
	tracefs_event_list_fini(&l);
	expect_list_is_glob(NULL, "*/*");
	expect_list_is_glob("all", "*/*");
}

static void test_list_globs_select_systems_then_events(void **state)
{
	struct tracefs_event_list l;

	(void) state;
	expect_list_is_glob("sched:sched_wak*", "sched/sched_wak*");
	expect_list_is_glob("*:*_exit", "*/*_exit");
	expect_list_is_glob("timer:*start*", "timer/*start*");
	/* no colon: systems first ("irq*" is irq, irq_matrix, irq_vectors, ...) */
	expect_list_is_glob("irq*", "irq*/*");
	expect_list_is_glob("irq", "irq/*");
	/* ... and event names when no system matches */
	expect_list_is_glob("sched_switch", "*/sched_switch");
	expect_list_is_glob("sched_wak*", "*/sched_wak*");
	/* an empty part matches anything */
	expect_list_is_glob(":sched_switch", "*/sched_switch");
	expect_list_is_glob("timer:", "timer/*");

	assert_ok(tracefs_list_events(NULL, "no_such_event_xyz", &l));
	assert_int_equal(l.n, 0);
	tracefs_event_list_fini(&l);
}

/* ------------------------------------------------------------------------------------------ */
/* A created instance                                                                         */

static void test_create_enable_and_read_back(void **state)
{
	struct tracefs_instance *ti, *again = NULL;
	char dir[512];
	size_t n, want;
	glob_t g;

	(void) state;
	ti = create_instance(0);
	inst_dir(dir, sizeof(dir), inst_name);
	assert_string_equal(tracefs_instance_dir(ti), dir);
	assert_true(exists(dir));
	/* created quiet: tracing is off until the caller turns it on */
	expect_file(dir, "tracing_on", "0\n");

	error_reset();
	assert_int_equal(tracefs_instance_open(&again, NULL, inst_name, TRACEFS_CREATE), TK_ERR_IO);
	assert_null(again);
	assert_true(cause_has("File exists"));
	assert_true(cause_has(dir));
	assert_true(exists(dir)); /* the failed create left ours alone */

	assert_ok(tracefs_enable_events(ti, "sched:sched_switch", &n));
	assert_int_equal(n, 1);
	assert_ok(tracefs_enable_events(ti, "irq", &n));
	want = glob_events(dir, "irq/*", &g);
	globfree(&g);
	assert_true(want > 0);
	assert_int_equal(n, want);
	assert_ok(tracefs_enable_events(ti, "timer:*start*", &n));
	want = glob_events(dir, "timer/*start*", &g);
	globfree(&g);
	assert_true(want > 0);
	assert_int_equal(n, want);

	expect_file(dir, "events/sched/sched_switch/enable", "1\n");
	expect_file(dir, "events/sched/sched_wakeup/enable", "0\n");
	assert_int_equal(expect_enables(dir, "irq/*", "1\n"), glob_events(dir, "irq/*", &g));
	globfree(&g);
	assert_true(expect_enables(dir, "timer/*start*", "1\n") > 0);
	expect_file(dir, "events/irq/enable", "1\n");
	expect_file(dir, "events/sched/enable", "X\n");

	/* enabling again is a no-op that still counts the events */
	assert_ok(tracefs_enable_events(ti, "sched_switch", &n));
	assert_int_equal(n, 1);

	error_reset();
	assert_int_equal(tracefs_enable_events(ti, "no_such_event_xyz", &n), TK_ERR_NOTFOUND);
	assert_int_equal(n, 0);
	assert_true(cause_has("spec=no_such_event_xyz"));
	error_reset();
	assert_int_equal(tracefs_enable_events(ti, "ftrace:print", NULL), TK_ERR_NOTFOUND);
	assert_true(cause_has("ftrace events cannot be enabled"));

	close_tracked(0);
	assert_false(exists(dir));
}

static void test_filter_rejected_quotes_error_log(void **state)
{
	struct tracefs_instance *ti;
	char dir[512];

	(void) state;
	ti = create_instance(0);
	inst_dir(dir, sizeof(dir), inst_name);

	error_reset();
	assert_int_equal(tracefs_set_filter(ti, "sched:sched_switch", "prev_pidd > 0"),
			 TK_ERR_INVAL);
	if (!cause_has("Field not found") || !cause_has("Command: prev_pidd > 0") ||
	    !cause_has("sched_switch/filter") || !cause_has("Invalid argument")) {
		print_causes();
		fail_msg("the causes do not quote the kernel's error_log");
	}
	/* a refused filter leaves the old one in place */
	expect_file(dir, "events/sched/sched_switch/filter", "none\n");

	/* the kernel refuses an unbalanced quote with ESRCH, not EINVAL: still quoted */
	error_reset();
	assert_int_equal(tracefs_set_filter(ti, "sched:sched_switch", "prev_comm ~ \"bash"),
			 TK_ERR_INVAL);
	if (!cause_has("Missing matching quote") || !cause_has("sched_switch/filter")) {
		print_causes();
		fail_msg("the causes do not say the quote is unbalanced");
	}
	expect_file(dir, "events/sched/sched_switch/filter", "none\n");

	assert_ok(tracefs_set_filter(ti, "sched:sched_switch", "prev_pid > 0"));
	expect_file(dir, "events/sched/sched_switch/filter", "prev_pid > 0\n");

	/* several events: set where the kernel accepts it, the others keep theirs */
	assert_ok(tracefs_set_filter(ti, "sched", "next_pid > 1"));
	expect_file(dir, "events/sched/sched_switch/filter", "next_pid > 1\n");
	expect_file(dir, "events/sched/sched_wakeup/filter", "none\n");

	/* and when none accepts it, it fails */
	error_reset();
	assert_int_equal(tracefs_set_filter(ti, "timer", "no_such_field == 3"), TK_ERR_INVAL);
	assert_true(cause_has("no_such_field == 3"));
	expect_file(dir, "events/timer/timer_start/filter", "none\n");

	assert_ok(tracefs_set_filter(ti, "sched:sched_switch", ""));
	expect_file(dir, "events/sched/sched_switch/filter", "none\n");

	error_reset();
	assert_int_equal(tracefs_set_filter(ti, "no_such_event_xyz", "pid > 0"), TK_ERR_NOTFOUND);
	close_tracked(0);
}

/*
 * The pre-5.8 way of keeping pids out: their "common_pid != P" joins the filter of every
 * enabled event, next to the event's own; disabled events are left alone, and closing puts
 * every filter back.
 */
static void test_filter_out_pids(void **state)
{
	static const pid_t pids[] = {111, 222};
	struct tracefs_instance *ti;
	char dir[512];

	(void) state;
	ti = create_instance(0);
	inst_dir(dir, sizeof(dir), inst_name);
	assert_ok(tracefs_enable_events(ti, "sched:sched_switch", NULL));
	assert_ok(tracefs_enable_events(ti, "sched:sched_waking", NULL));
	assert_ok(tracefs_set_filter(ti, "sched:sched_switch", "prev_pid > 0"));
	error_reset();
	assert_ok(tracefs_filter_out_pids(ti, pids, 2));
	expect_file(dir, "events/sched/sched_switch/filter",
		    "(prev_pid > 0) && (common_pid != 111 && common_pid != 222)\n");
	expect_file(dir, "events/sched/sched_waking/filter",
		    "common_pid != 111 && common_pid != 222\n");
	expect_file(dir, "events/sched/sched_wakeup/filter", "none\n");
	close_tracked(0);
}

/* The per-CPU ring size the kernel rounds @kib up to: whole sub-buffers of 16-byte header. */
static unsigned long rounded_kib(const char *dir, unsigned long kib)
{
	char path[1024], *text;
	unsigned long sub_kib = 4, bytes, data, pages;

	text = slurp(path_of(path, sizeof(path), dir, "buffer_subbuf_size_kb"));
	if (text) {
		sub_kib = strtoul(text, NULL, 10);
		free(text);
	}
	bytes = kib * 1024;
	data = sub_kib * 1024 - 16;
	pages = (bytes + data - 1) / data;
	return pages * data / 1024;
}

static void test_buffer_clock_pids_read_back(void **state)
{
	struct tracefs_instance *ti;
	char dir[512], want[64], *text;
	pid_t pids[2] = {getpid(), 1};

	(void) state;
	ti = create_instance(0);
	inst_dir(dir, sizeof(dir), inst_name);

	assert_ok(tracefs_set_buffer_kib(ti, 2048));
	snprintf(want, sizeof(want), "%lu\n", rounded_kib(dir, 2048));
	expect_file(dir, "buffer_size_kb", want);

	assert_ok(tracefs_set_clock(ti, "global"));
	text = slurp(path_of(want, sizeof(want), dir, "trace_clock"));
	assert_non_null(text);
	assert_non_null(strstr(text, "[global]"));
	free(text);
	error_reset();
	assert_int_equal(tracefs_set_clock(ti, "no-such-clock"), TK_ERR_NOTFOUND);
	assert_true(cause_has("available="));
	assert_true(cause_has("local"));

	assert_ok(tracefs_set_event_pids(ti, pids, 2, 1));
	snprintf(want, sizeof(want), "1\n%d\n", (int) getpid());
	expect_file(dir, "set_event_pid", want);
	expect_file(dir, "options/event-fork", "1\n");
	assert_ok(tracefs_set_event_pids(ti, pids, 1, 0));
	snprintf(want, sizeof(want), "%d\n", (int) getpid());
	expect_file(dir, "set_event_pid", want);
	expect_file(dir, "options/event-fork", "0\n");
	assert_ok(tracefs_set_event_pids(ti, NULL, 0, 0));
	expect_file(dir, "set_event_pid", "");

	assert_ok(tracefs_set_tracing_on(ti, 1));
	expect_file(dir, "tracing_on", "1\n");
	assert_ok(tracefs_set_tracing_on(ti, 0));
	expect_file(dir, "tracing_on", "0\n");
	close_tracked(0);
}

static void test_marker_shows_in_trace(void **state)
{
	struct tracefs_instance *ti;
	char path[1024], marker[64], *text;

	(void) state;
	ti = create_instance(0);
	snprintf(marker, sizeof(marker), "tracekit-unit-marker-%d", (int) getpid());
	assert_ok(tracefs_set_tracing_on(ti, 1));
	assert_ok(tracefs_write_marker(ti, marker));
	assert_ok(tracefs_instance_path(ti, "trace", path, sizeof(path)));
	text = slurp(path);
	assert_non_null(text);
	assert_non_null(strstr(text, marker));
	free(text);

	assert_ok(tracefs_clear(ti));
	text = slurp(path);
	assert_non_null(text);
	assert_null(strstr(text, marker));
	free(text);
	close_tracked(0);
}

static void *close_later(void *arg)
{
	struct timespec ts = {0, 20 * 1000000};

	nanosleep(&ts, NULL);
	close(*(int *) arg);
	return NULL;
}

static void test_close_waits_for_a_late_reader(void **state)
{
	struct tracefs_instance *ti;
	char path[1024], dir[512];
	enum tk_status st;
	pthread_t thread;
	int fd;

	(void) state;
	ti = create_instance(0);
	inst_dir(dir, sizeof(dir), inst_name);
	assert_ok(tracefs_instance_path(ti, "per_cpu/cpu0/trace_pipe_raw", path, sizeof(path)));
	fd = open(path, O_RDONLY | O_NONBLOCK);
	assert_true(fd >= 0);
	assert_int_equal(pthread_create(&thread, NULL, close_later, &fd), 0);
	open_ti[0] = NULL;
	st = tracefs_instance_close(ti);
	pthread_join(thread, NULL); /* before any assert, so the teardown finds the file closed */
	assert_ok(st);
	assert_false(exists(dir));
}

static void test_stale_instance_removed_on_create(void **state)
{
	char dir[512];
	pid_t dead;

	(void) state;
	dead = fork();
	assert_true(dead >= 0);
	if (!dead)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	snprintf(stale_dir, sizeof(stale_dir), "%s/instances/tracekit-%d", mount, (int) dead);
	snprintf(live_dir, sizeof(live_dir), "%s/instances/tracekit-1", mount);
	assert_int_equal(mkdir(stale_dir, 0750), 0);
	if (mkdir(live_dir, 0750) && errno == EEXIST)
		live_dir[0] = '\0'; /* someone else's: leave it to them */

	create_instance(0);
	assert_false(exists(stale_dir));
	stale_dir[0] = '\0';
	assert_true(exists(path_of(dir, sizeof(dir), mount, "instances/tracekit-1")));
	close_tracked(0);
	if (live_dir[0])
		assert_int_equal(rmdir(live_dir), 0);
	live_dir[0] = '\0';
}

/* ------------------------------------------------------------------------------------------ */
/* Restoring what a handle changed                                                            */

/*
 * An instance this handle did not create (made here with mkdir, with state of its own) gets
 * every file back: enables, a filter expression, a filter in the kernel's error state, the
 * per-CPU sizes behind an "X" buffer size, clock, pid filter, event-fork and tracing_on.
 */
static void test_existing_instance_restored(void **state)
{
	struct snapshot s = {
		.rel = {"tracing_on", "buffer_size_kb", "trace_clock", "set_event", "set_event_pid",
			"options/event-fork", "events/sched/enable",
			"events/sched/sched_switch/enable", "events/sched/sched_switch/filter",
			"events/sched/sched_waking/filter", "events/sched/sched_wakeup/enable",
			"per_cpu/cpu0/buffer_size_kb", "per_cpu/cpu1/buffer_size_kb"},
	};
	struct tracefs_instance *ti;
	char dir[512], path[1024], pid[32];
	pid_t self = getpid();
	int two_cpus;

	(void) state;
	inst_dir(dir, sizeof(dir), existing_name);
	assert_int_equal(mkdir(dir, 0750), 0);
	two_cpus = exists(path_of(path, sizeof(path), dir, "per_cpu/cpu1"));
	s.dir = dir;
	s.n = two_cpus ? 13 : 12;
	/* a state to come back to */
	write_file(path_of(path, sizeof(path), dir, "events/sched/sched_wakeup/enable"), "1");
	write_file(path_of(path, sizeof(path), dir, "events/sched/sched_switch/filter"),
		   "prev_prio < 100");
	/* refused on purpose: the file then shows the expression and the kernel's complaint */
	path_of(path, sizeof(path), dir, "events/sched/sched_waking/filter");
	{
		int fd = open(path, O_WRONLY);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, "pidd > 0", 8), -1);
		close(fd);
	}
	write_file(path_of(path, sizeof(path), dir, "set_event_pid"), "1");
	if (two_cpus)
		write_file(path_of(path, sizeof(path), dir, "per_cpu/cpu0/buffer_size_kb"), "1000");
	snap_take(&s);
	if (two_cpus)
		assert_string_equal(s.text[1], "X\n");

	error_reset();
	assert_ok(tracefs_instance_open(&open_ti[1], NULL, existing_name, 0));
	ti = open_ti[1];
	assert_ok(tracefs_enable_events(ti, "sched", NULL));
	assert_ok(tracefs_set_filter(ti, "sched:sched_switch", "next_pid > 1"));
	assert_ok(tracefs_set_filter(ti, "sched:sched_waking", "pid > 0"));
	assert_ok(tracefs_set_buffer_kib(ti, 3000));
	assert_ok(tracefs_set_buffer_kib(ti, 2500));
	assert_ok(tracefs_set_clock(ti, strstr(s.text[2], "[mono]") ? "global" : "mono"));
	assert_ok(tracefs_set_event_pids(ti, &self, 1, 1));
	assert_ok(tracefs_set_tracing_on(ti, strcmp(s.text[0], "1\n") ? 1 : 0));
	/* it all changed ... */
	expect_file(dir, "events/sched/enable", "1\n");
	expect_file(dir, "events/sched/sched_waking/filter", "pid > 0\n");
	snprintf(pid, sizeof(pid), "%d\n", (int) self);
	expect_file(dir, "set_event_pid", pid);
	expect_file(dir, "options/event-fork", "1\n");

	/* ... and all comes back */
	close_tracked(1);
	snap_expect_same(&s);
	snap_fini(&s);
	assert_true(exists(dir));
	assert_int_equal(rmdir(dir), 0);
}

/* Events that are rarely hit and have a "pid" field, for the top-level test. */
static const char *const quiet_events[] = {
	"sched/sched_process_hang",
	"sched/sched_kthread_stop",
	"sched/sched_wait_task",
};

static void test_top_level_restored(void **state)
{
	struct snapshot s = {
		.rel = {"tracing_on", "buffer_size_kb", "trace_clock", "set_event", "set_event_pid",
			"options/event-fork"},
		.n = 6,
	};
	char enable[256], filter[256], spec[128], path[1024], pid[32], *text;
	struct tracefs_instance *ti;
	const char *ev = NULL;
	pid_t self = getpid();
	size_t i;

	(void) state;
	text = slurp(path_of(path, sizeof(path), mount, "set_event"));
	assert_non_null(text);
	if (text[0]) {
		free(text);
		print_message("top-level buffer in use (set_event not empty): not touching it\n");
		skip();
	}
	free(text);
	for (i = 0; i < TK_ARRAY_SIZE(quiet_events) && !ev; i++) {
		snprintf(enable, sizeof(enable), "events/%s/enable", quiet_events[i]);
		text = slurp(path_of(path, sizeof(path), mount, enable));
		if (text && !strcmp(text, "0\n"))
			ev = quiet_events[i];
		free(text);
	}
	if (!ev)
		skip();
	snprintf(filter, sizeof(filter), "events/%s/filter", ev);
	snprintf(spec, sizeof(spec), "%s", ev);
	*strchr(spec, '/') = ':';
	s.dir = mount;
	s.rel[s.n++] = enable;
	s.rel[s.n++] = filter;
	snap_take(&s);

	error_reset();
	assert_ok(tracefs_instance_open(&open_ti[2], NULL, NULL, 0));
	ti = open_ti[2];
	assert_string_equal(tracefs_instance_dir(ti), mount);
	assert_ok(tracefs_enable_events(ti, spec, NULL));
	assert_ok(tracefs_set_filter(ti, spec, "pid == 1"));
	assert_ok(tracefs_set_event_pids(ti, &self, 1, 1));
	/* restored as the number it stood for, even from "7 (expanded: 1408)" on a fresh boot */
	assert_ok(tracefs_set_buffer_kib(ti, 2000));
	text = slurp(path_of(path, sizeof(path), mount, "buffer_size_kb"));
	assert_non_null(text);
	/* the kernel rounds up to whole sub-buffers (of up to 64 KiB) */
	assert_in_range(strtoul(text, NULL, 10), 2000, 2064);
	free(text);
	expect_file(mount, enable, "1\n");
	expect_file(mount, filter, "pid == 1\n");
	snprintf(pid, sizeof(pid), "%d\n", (int) self);
	expect_file(mount, "set_event_pid", pid);
	expect_file(mount, "options/event-fork", "1\n");
	close_tracked(2);

	snap_expect_same(&s);
	snap_fini(&s);
}

/* ------------------------------------------------------------------------------------------ */
/* user_events                                                                                */

/*
 * Where the kernel has user_events (the VM harness's minimal kernel), a tracepoint
 * registered here has its enable bit set while an instance records it and cleared when the
 * instance is gone, and an event written while it is set reaches the instance's buffer.
 * Where it has none (this host), opening says so: the file is checked to be absent here.
 */
static void test_user_events_enable_bit_follows_recording(void **state)
{
	uint32_t enabled = 0, index = 0, value = 0x1234abcd;
	char name[64], cmd[128], spec[96], path[1024], dir[512], *text;
	struct tracefs_instance *ti;
	struct iovec iov[2];
	int fd;

	(void) state;
	error_reset();
	if (user_events_open(&fd) == TK_ERR_NOTFOUND) {
		assert_false(exists(path_of(path, sizeof(path), mount, "user_events_data")));
		assert_true(cause_has("no user_events"));
		assert_true(cause_has("CONFIG_USER_EVENTS"));
		print_message("no user_events in this kernel: refused as it should be\n");
		return;
	}
	assert_true(fd >= 0);
	snprintf(name, sizeof(name), "tk_ue_%d", (int) getpid());
	snprintf(cmd, sizeof(cmd), "%s u32 value", name);
	assert_ok(user_events_register(fd, cmd, &enabled, sizeof(enabled), 3, &index));
	assert_int_equal(enabled, 0); /* nothing records it yet */

	ti = create_instance(0);
	snprintf(spec, sizeof(spec), "user_events:%s", name);
	assert_ok(tracefs_enable_events(ti, spec, NULL));
	assert_ok(tracefs_set_tracing_on(ti, 1));
	assert_int_equal(enabled, 1u << 3);
	iov[0] = (struct iovec){&index, sizeof(index)};
	iov[1] = (struct iovec){&value, sizeof(value)};
	assert_int_equal(writev(fd, iov, 2), (ssize_t) (sizeof(index) + sizeof(value)));
	inst_dir(dir, sizeof(dir), inst_name);
	text = slurp(path_of(path, sizeof(path), dir, "trace"));
	assert_non_null(text);
	assert_non_null(strstr(text, name));
	assert_non_null(strstr(text, "305441741")); /* the value, as the kernel prints a u32 */
	free(text);
	close_tracked(0);
	assert_int_equal(enabled, 0); /* no recording left */

	assert_ok(user_events_unregister(fd, &enabled, 3));
	(void) user_events_delete(fd, name); /* 6.6 and later delete it themselves */
	close(fd);
	print_message("user_events: %s written, its enable bit followed the recording\n", name);
}

#define T(fn) cmocka_unit_test_teardown(fn, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_mount_is_tracefs_with_events),
		T(test_list_sched_has_sched_switch),
		T(test_list_all_skips_files_and_keeps_ftrace),
		T(test_list_globs_select_systems_then_events),
		T(test_create_enable_and_read_back),
		T(test_filter_rejected_quotes_error_log),
		T(test_filter_out_pids),
		T(test_buffer_clock_pids_read_back),
		T(test_marker_shows_in_trace),
		T(test_close_waits_for_a_late_reader),
		T(test_stale_instance_removed_on_create),
		T(test_existing_instance_restored),
		T(test_top_level_restored),
		T(test_user_events_enable_bit_follows_recording),
	};
	char path[1024];
	int rc;

	if (geteuid() != 0) {
		fprintf(stderr, "test-tracefs: skipped: needs root to change tracefs\n");
		return 77;
	}
	if (tracefs_find_mount(&mount) < 0) {
		fprintf(stderr, "test-tracefs: skipped: tracefs is not mounted\n");
		return 77;
	}
	snprintf(path, sizeof(path), "%s/instances", mount);
	if (access(path, W_OK)) {
		fprintf(stderr, "test-tracefs: skipped: %s is not writable\n", path);
		return 77;
	}
	snprintf(inst_name, sizeof(inst_name), "tracekit-%d", (int) getpid());
	snprintf(existing_name, sizeof(existing_name), "tkht-%d", (int) getpid());
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	teardown(NULL);
	return rc;
}
