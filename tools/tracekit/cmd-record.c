// SPDX-License-Identifier: MIT
/*
 * tracekit record: kernel events through tracefs into a trace.dat file, while a command runs,
 * for a number of seconds, or until SIGINT, SIGTERM or SIGHUP.
 *
 * The command is forked first and held on a pipe until the readers run and tracing is on, so
 * its first instructions are recorded and its pid can be the filter (-F). Signals only set a
 * flag here: the loop below forwards them to the command, then stops, writes the file and
 * restores tracefs on the normal path (tk_recording_close()), so every setting is put back
 * whatever ends the recording. A SIGKILL of tracekit itself cannot be handled; the instance it
 * leaves ("tracekit-PID") is removed by the next tracekit record.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define MAX_LIST 256

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void on_child(int sig)
{
	(void) sig; /* only wakes ppoll */
}

static void help(void)
{
	printf("Usage: tracekit record [OPTION]... [-- COMMAND [ARG]...]\n"
	       "Record kernel events through tracefs into a trace.dat file: while COMMAND runs,\n"
	       "for -d SECONDS, or until interrupted (Ctrl-C, SIGTERM, SIGHUP). Events go to a\n"
	       "private tracefs instance, and every tracefs setting changed is restored at the\n"
	       "end; probes added are removed. Needs root; mounts tracefs when it is not.\n"
	       "\n"
	       "  -e, --event=SPEC        events to record: all, SYSTEM, SYSTEM:EVENT or EVENT;\n"
	       "                          globs allowed (sched:sched_wak*); repeatable\n"
	       "  -f, --filter=EXPR       kernel filter for the events of the -e before it\n"
	       "                          (e.g. -e sched:sched_switch -f 'prev_pid > 0')\n"
	       "  -o, --output=FILE       file to write (default trace.dat)\n"
	       "  -b, --buffer-size=KIB   ring-buffer size per CPU, in KiB\n"
	       "  -C, --clock=CLOCK       trace clock: local, global, mono, boot, ...; x86-tsc\n"
	       "                          (or tsc2nsec) saves the TSC's conversion to ns\n"
	       "  -d, --duration=SECONDS  stop after SECONDS (fractions allowed)\n"
	       "  -F, --command-only      record only the events of COMMAND\n"
	       "  -P, --pid=PID           record only the events of PID; repeatable\n"
	       "  -c, --follow-children   with -F or -P, their children (forked later) too\n"
	       "  -p, --plugin=TRACER     run a tracer too: function, function_graph, ...\n"
	       "  -l, --function=FUNC     the function tracers trace only FUNC (glob); repeatable\n"
	       "  -n, --notrace=FUNC      ... and never FUNC (glob); repeatable\n"
	       "  -g, --graph=FUNC        function_graph graphs only what FUNC calls; repeatable\n"
	       "      --max-graph-depth=N function_graph goes at most N calls deep\n"
	       "  -O, --option=[no]NAME   set a trace option (options/NAME), e.g.\n"
	       "                          func_stack_trace; repeatable\n"
	       "      --func-stack        a kernel stack with every function (-O func_stack_trace)\n"
	       "      --kprobe='NAME=SYMBOL[+OFFS] [ARG=FETCH]...'\n"
	       "                          add a kprobe event tracekit:NAME and record it\n"
	       "      --kretprobe='NAME=SYMBOL [ARG=FETCH]...'   ... on the function's return\n"
	       "      --uprobe='NAME=PATH:OFFSET [ARG=FETCH]...' ... on user code\n"
	       "      --uretprobe='NAME=PATH:OFFSET [ARG=FETCH]...'\n"
	       "  -B, --instance=NAME     record in the tracefs instance NAME (made if missing)\n"
	       "      --top               record in the top-level buffer (others' events too)\n"
	       "      --date              save the wall-clock offset (readers print dates)\n"
	       "      --ust=DIR           COMMAND's tracekit tracepoints (libtracekit-ust) go to\n"
	       "                          CTF traces under DIR, on the kernel recording's clock\n"
	       "                          (mono, or -C x86-tsc; with --date): print both with\n"
	       "                          'tracekit print trace.dat DIR'\n"
	       "      --file-version=6|7  trace.dat version (default 7)\n"
	       "      --compression=none|zstd|zlib\n"
	       "                          compression of a version 7 file (default zstd)\n"
	       "  -q, --quiet             no summary on stderr\n"
	       "  -h, --help              this help\n"
	       "\n"
	       "Examples:\n"
	       "  tracekit record -e sched -e irq -- make -j2\n"
	       "  tracekit record -e raw_syscalls -F -- ./a.out\n"
	       "  tracekit record -e 'sched:sched_switch' -f 'prev_pid > 0' -d 2 -o sw.dat\n"
	       "  tracekit record -p function_graph -g do_sys_openat2 -F -- cat /etc/hostname\n"
	       "  tracekit record --kprobe 'open=do_sys_openat2 dfd=%%di' -e sched -d 1\n"
	       "  tracekit record -e sched --ust app-trace -- ./my-instrumented-app\n"
	       "  tracekit record -e sched -C x86-tsc --ust app-trace -- ./my-instrumented-app\n"
	       "\n"
	       "Read the file with 'tracekit print FILE' or 'trace-cmd report FILE'.\n");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Wait up to @ms milliseconds, waking at once for a signal. */
static void nap(int ms, const sigset_t *unblocked)
{
	struct timespec ts = {ms / 1000, (long) (ms % 1000) * 1000000L};

	(void) ppoll(NULL, 0, &ts, unblocked);
}

struct child {
	pid_t pid;
	int go;	    /* write end: one byte releases the command */
	int status; /* after it exited */
	int exited;
};

/*
 * Fork @argv, held until release_child(). The child restores default signal handling; a
 * failed exec writes its errno to @err_fd (close-on-exec, so the parent reads EOF when the
 * exec succeeds).
 */
static int start_child(struct child *ch, char **argv, int *err_fd, const sigset_t *mask)
{
	int go[2], err[2];

	if (pipe(go) < 0 || pipe2(err, O_CLOEXEC) < 0)
		return -1;
	ch->pid = fork();
	if (ch->pid < 0)
		return -1;
	if (ch->pid == 0) {
		char c;
		int e;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, mask, NULL);
		close(go[1]);
		close(err[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		close(go[0]);
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	ch->go = go[1];
	*err_fd = err[0];
	return 0;
}

/* Release the command; returns its exec errno, or 0 when it runs. */
static int release_child(struct child *ch, int err_fd)
{
	int e = 0;
	ssize_t n;

	if (write(ch->go, "g", 1) != 1)
		e = errno;
	close(ch->go);
	ch->go = -1;
	do
		n = read(err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(err_fd);
	return n == (ssize_t) sizeof(e) ? e : 0;
}

static int reap(struct child *ch, int block)
{
	pid_t r;

	if (ch->pid <= 0 || ch->exited)
		return 1;
	do
		r = waitpid(ch->pid, &ch->status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == ch->pid || (r < 0 && errno == ECHILD))
		ch->exited = 1;
	return ch->exited;
}

static void summary(struct tk_recording *rec, const struct tk_record_opts *o)
{
	uint64_t total = 0, lost = 0;
	size_t i, n = tk_recording_get_cpu_count(rec);

	for (i = 0; i < n; i++) {
		struct tk_record_cpu_stats s;
		uint64_t l;

		if (tk_recording_get_cpu_stats(rec, i, &s) < 0)
			continue;
		l = s.overrun + s.commit_overrun + s.dropped;
		total += s.bytes;
		lost += l;
		fprintf(stderr,
			"CPU %" PRIu32 ": %" PRIu64 " bytes, %" PRIu64
			" events lost (overrun %" PRIu64 ", commit overrun %" PRIu64
			", dropped %" PRIu64 ")\n",
			s.cpu, s.bytes, l, s.overrun, s.commit_overrun, s.dropped);
	}
	fprintf(stderr, "Wrote %s: %zu CPUs, %.1f MiB of ring-buffer pages, version %u%s%s%s\n",
		tk_recording_get_output(rec), n, (double) total / 1048576.0, o->file_version,
		o->file_version == 7 ? " (" : "",
		o->file_version == 7 ? (o->compression ? o->compression : "zstd") : "",
		o->file_version == 7 ? ")" : "");
	if (lost)
		fprintf(stderr,
			"tracekit: %" PRIu64
			" events were lost: the ring buffer filled faster than it"
			" was read; a larger buffer (-b KIB) or fewer events (-e, -f) keeps them\n",
			lost);
}

static int parse_pid(const char *s, pid_t *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > 0x3fffffff)
		return -1;
	*out = (pid_t) v;
	return 0;
}

enum {
	OPT_TOP = 256,
	OPT_FILE_VERSION,
	OPT_COMPRESSION,
	OPT_DATE,
	OPT_MAX_GRAPH_DEPTH,
	OPT_FUNC_STACK,
	OPT_KPROBE,
	OPT_KRETPROBE,
	OPT_UPROBE,
	OPT_URETPROBE,
	OPT_UST,
};

/*
 * CLOCK_REALTIME less CLOCK_MONOTONIC, in nanoseconds rounded down to whole microseconds
 * (trace.dat keeps its DATE offset in microseconds): of three readings, the one whose
 * monotonic bracket is the tightest.
 */
static int64_t realtime_offset_ns(void)
{
	int64_t best = 0, best_gap = INT64_MAX;

	for (int i = 0; i < 3; i++) {
		struct timespec m1, r, m2;
		int64_t a, b, real;

		clock_gettime(CLOCK_MONOTONIC, &m1);
		clock_gettime(CLOCK_REALTIME, &r);
		clock_gettime(CLOCK_MONOTONIC, &m2);
		a = (int64_t) m1.tv_sec * 1000000000 + m1.tv_nsec;
		b = (int64_t) m2.tv_sec * 1000000000 + m2.tv_nsec;
		real = (int64_t) r.tv_sec * 1000000000 + r.tv_nsec;
		if (b - a < best_gap) {
			best_gap = b - a;
			best = real - a - (b - a) / 2;
		}
	}
	return best - best % 1000;
}

static int is_tsc_clock(const char *clock)
{
	return clock && (!strcmp(clock, "x86-tsc") || !strcmp(clock, "tsc2nsec"));
}

/*
 * --ust DIR: the command's application tracer (libtracekit-ust) records into DIR, on the
 * kernel recording's clock (CLOCK_MONOTONIC for mono, the TSC for x86-tsc) with the same
 * wall-clock offset as its DATE option, so that `tracekit print trace.dat DIR` merges both in
 * one time order. DIR must not hold files already: a trace there is never written over.
 * Before the recording is opened: the directory is checked and DATE asked for (on mono with
 * the offset measured here; on x86-tsc the recording measures it from the TSC).
 */
static int ust_prepare(const char *dir, struct tk_record_opts *o)
{
	struct stat sb;

	if (stat(dir, &sb) == 0) {
		DIR *d = S_ISDIR(sb.st_mode) ? opendir(dir) : NULL;
		struct dirent *e;
		int empty = d != NULL;

		while (d && (e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				empty = 0;
		if (d)
			closedir(d);
		if (!empty) {
			fprintf(stderr,
				"tracekit: Cannot record: path=%s, reason=the --ust directory "
				"exists and is not empty; remove it or name another\n",
				dir);
			return 1;
		}
	}
	o->date = 1;
	o->date_offset_ns = is_tsc_clock(o->clock) ? 0 : realtime_offset_ns();
	return 0;
}

/*
 * Once the recording is open, before the command is forked: its environment gets the
 * directory, the clock, the DATE offset and, on x86-tsc, the TSC2NSEC conversion.
 */
static int ust_export(const char *dir, const struct tk_recording *rec)
{
	char off[32], mult_s[16], shift_s[16];
	uint32_t mult, shift;
	int tsc = tk_recording_get_tsc2nsec(rec, &mult, &shift), bad;

	snprintf(off, sizeof(off), "%lld", (long long) tk_recording_get_date_offset(rec));
	snprintf(mult_s, sizeof(mult_s), "%" PRIu32, tsc ? mult : 0);
	snprintf(shift_s, sizeof(shift_s), "%" PRIu32, tsc ? shift : 0);
	bad = setenv("TRACEKIT_UST_DIR", dir, 1) ||
	      setenv("TRACEKIT_UST_CLOCK", tsc ? "tsc" : "monotonic", 1) ||
	      setenv("TRACEKIT_UST_CLOCK_OFFSET", off, 1);
	if (!bad && tsc)
		bad = setenv("TRACEKIT_UST_TSC_MULT", mult_s, 1) ||
		      setenv("TRACEKIT_UST_TSC_SHIFT", shift_s, 1);
	else if (!bad)
		bad = unsetenv("TRACEKIT_UST_TSC_MULT") || unsetenv("TRACEKIT_UST_TSC_SHIFT");
	if (bad) {
		fprintf(stderr, "tracekit: Cannot record: reason=cannot set the environment: %s\n",
			strerror(errno));
		return 1;
	}
	return 0;
}

/* Append @s to @list (@n of MAX_LIST); nonzero when full. */
static int add_to(const char **list, size_t *n, const char *s)
{
	if (*n == MAX_LIST)
		return 1;
	list[(*n)++] = s;
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static const struct option options[] = {
		{"event", required_argument, NULL, 'e'},
		{"filter", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"buffer-size", required_argument, NULL, 'b'},
		{"clock", required_argument, NULL, 'C'},
		{"duration", required_argument, NULL, 'd'},
		{"command-only", no_argument, NULL, 'F'},
		{"pid", required_argument, NULL, 'P'},
		{"follow-children", no_argument, NULL, 'c'},
		{"instance", required_argument, NULL, 'B'},
		{"top", no_argument, NULL, OPT_TOP},
		{"file-version", required_argument, NULL, OPT_FILE_VERSION},
		{"compression", required_argument, NULL, OPT_COMPRESSION},
		{"date", no_argument, NULL, OPT_DATE},
		{"plugin", required_argument, NULL, 'p'},
		{"function", required_argument, NULL, 'l'},
		{"notrace", required_argument, NULL, 'n'},
		{"graph", required_argument, NULL, 'g'},
		{"max-graph-depth", required_argument, NULL, OPT_MAX_GRAPH_DEPTH},
		{"option", required_argument, NULL, 'O'},
		{"func-stack", no_argument, NULL, OPT_FUNC_STACK},
		{"kprobe", required_argument, NULL, OPT_KPROBE},
		{"kretprobe", required_argument, NULL, OPT_KRETPROBE},
		{"uprobe", required_argument, NULL, OPT_UPROBE},
		{"uretprobe", required_argument, NULL, OPT_URETPROBE},
		{"ust", required_argument, NULL, OPT_UST},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const char shortopts[] = "+e:f:o:b:C:d:FP:cB:p:l:n:g:O:qh";
	struct tk_record_opts o = TK_RECORD_OPTS_INIT;
	const char *events[MAX_LIST], *funcs[MAX_LIST], *notrace[MAX_LIST], *graph[MAX_LIST];
	const char *options_set[MAX_LIST];
	struct tk_record_probe probes[MAX_LIST];
	size_t n_funcs = 0, n_notrace = 0, n_graph = 0, n_options = 0, n_probes = 0;
	struct tk_record_filter filters[MAX_LIST];
	pid_t pids[MAX_LIST];
	size_t n_events = 0, n_filters = 0, n_pids = 0;
	int command_only = 0, follow = 0, quiet = 0, compression_given = 0, c, rc = 0, err_fd = -1;
	double duration = 0, deadline = 0;
	unsigned long ul;
	struct tk_recording *rec = NULL;
	const char *ust_dir = NULL;
	struct child ch = {.pid = -1, .go = -1};
	struct sigaction sa;
	sigset_t block, old;
	enum tk_status st;
	char *end;

	while ((c = getopt_long(argc, argv, shortopts, options, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (n_events == MAX_LIST)
				return cli_usage_error("record", "too many -e options");
			events[n_events++] = optarg;
			break;
		case 'f':
			if (!n_events)
				return cli_usage_error("record", "-f needs an -e before it");
			if (n_filters == MAX_LIST)
				return cli_usage_error("record", "too many -f options");
			filters[n_filters].events = events[n_events - 1];
			filters[n_filters++].filter = optarg;
			break;
		case 'o':
			o.output = optarg;
			break;
		case 'b':
			errno = 0;
			o.buffer_kib = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || !o.buffer_kib || optarg[0] == '-')
				return cli_usage_error("record", "invalid buffer size: %s (KiB)",
						       optarg);
			break;
		case 'C':
			o.clock = optarg;
			break;
		case 'd':
			errno = 0;
			duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(duration > 0) || duration > 1e9)
				return cli_usage_error("record", "invalid duration: %s (seconds)",
						       optarg);
			break;
		case 'F':
			command_only = 1;
			break;
		case 'P':
			if (n_pids == MAX_LIST - 1)
				return cli_usage_error("record", "too many -P options");
			if (parse_pid(optarg, &pids[n_pids]) < 0)
				return cli_usage_error("record", "invalid pid: %s", optarg);
			n_pids++;
			break;
		case 'c':
			follow = 1;
			break;
		case 'B':
			if (!optarg[0] || strchr(optarg, '/') || !strcmp(optarg, ".") ||
			    !strcmp(optarg, ".."))
				return cli_usage_error("record", "invalid instance name: '%s'",
						       optarg);
			o.instance = optarg;
			break;
		case OPT_TOP:
			o.top = 1;
			break;
		case OPT_FILE_VERSION:
			if (cli_parse_file_version("record", optarg, &o.file_version))
				return 2;
			break;
		case OPT_COMPRESSION:
			if (cli_parse_compression("record", optarg, &o.compression))
				return 2;
			compression_given = 1;
			break;
		case OPT_DATE:
			o.date = 1;
			break;
		case 'p':
			o.tracer = optarg;
			break;
		case 'l':
			if (add_to(funcs, &n_funcs, optarg))
				return cli_usage_error("record", "too many -l options");
			break;
		case 'n':
			if (add_to(notrace, &n_notrace, optarg))
				return cli_usage_error("record", "too many -n options");
			break;
		case 'g':
			if (add_to(graph, &n_graph, optarg))
				return cli_usage_error("record", "too many -g options");
			break;
		case OPT_MAX_GRAPH_DEPTH:
			errno = 0;
			ul = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || !ul || ul > 100000 ||
			    optarg[0] == '-')
				return cli_usage_error("record", "invalid graph depth: %s", optarg);
			o.max_graph_depth = (unsigned int) ul;
			break;
		case 'O':
			if (add_to(options_set, &n_options, optarg))
				return cli_usage_error("record", "too many -O options");
			break;
		case OPT_FUNC_STACK:
			if (add_to(options_set, &n_options, "func_stack_trace"))
				return cli_usage_error("record", "too many -O options");
			break;
		case OPT_KPROBE:
		case OPT_KRETPROBE:
		case OPT_UPROBE:
		case OPT_URETPROBE:
			if (n_probes == MAX_LIST)
				return cli_usage_error("record", "too many probes");
			probes[n_probes].kind = c == OPT_KPROBE	     ? TK_RECORD_KPROBE
						: c == OPT_KRETPROBE ? TK_RECORD_KRETPROBE
						: c == OPT_UPROBE    ? TK_RECORD_UPROBE
								     : TK_RECORD_URETPROBE;
			probes[n_probes++].spec = optarg;
			break;
		case OPT_UST:
			ust_dir = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			help();
			return 0;
		default:
			return cli_bad_option("record", shortopts, argv);
		}
	}
	if (!n_events && !o.tracer && !n_probes)
		return cli_usage_error("record",
				       "nothing to record: give -e (e.g. -e sched), -p or a probe");
	if ((n_funcs || n_notrace || n_graph || o.max_graph_depth) && !o.tracer)
		return cli_usage_error("record", "-l, -n, -g and --max-graph-depth need -p");
	if (command_only && optind == argc)
		return cli_usage_error("record", "-F needs a command after --");
	if (follow && !command_only && !n_pids)
		return cli_usage_error("record", "-c needs -F or -P");
	if (o.top && o.instance)
		return cli_usage_error("record", "--top and -B exclude each other");
	if (ust_dir && optind == argc)
		return cli_usage_error("record", "--ust needs a command after --");
	if (ust_dir && o.clock && strcmp(o.clock, "mono") && !is_tsc_clock(o.clock))
		return cli_usage_error("record",
				       "--ust records on the mono clock (CLOCK_MONOTONIC) or on "
				       "x86-tsc, not %s",
				       o.clock);
	if (ust_dir) {
		if (!o.clock)
			o.clock = "mono";
		if (ust_prepare(ust_dir, &o))
			return 1;
	}
	/* as trace-cmd: --file-version 6 alone means no compression */
	if (o.file_version == 6 && compression_given && strcmp(o.compression, "none"))
		return cli_usage_error("record", "version 6 files are not compressed");
	if (o.file_version == 6)
		o.compression = "none";
	o.events = events;
	o.n_events = n_events;
	o.filters = filters;
	o.n_filters = n_filters;
	o.functions = funcs;
	o.n_functions = n_funcs;
	o.notrace = notrace;
	o.n_notrace = n_notrace;
	o.graph_functions = graph;
	o.n_graph_functions = n_graph;
	o.trace_options = options_set;
	o.n_trace_options = n_options;
	o.probes = probes;
	o.n_probes = n_probes;

	/* signals set a flag, and are blocked except while waiting in ppoll() */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);

	st = tk_recording_open(&rec, &o);
	if (st < 0) {
		rc = cli_fail(geteuid() ? "Cannot record (tracefs needs root; run as root)"
					: "Cannot record");
		goto out;
	}
	if (o.tracer && !o.top && !o.instance && !tk_recording_get_instance(rec) && !quiet)
		fprintf(stderr,
			"tracekit: recording in the top-level buffer: this kernel's instances "
			"cannot run %s as asked\n",
			o.tracer);
	if (ust_dir && ust_export(ust_dir, rec)) {
		rc = 1;
		goto out;
	}
	if (got_signal) {
		fprintf(stderr, "tracekit: Cannot record: reason=interrupted by signal %d\n",
			(int) got_signal);
		rc = 1;
		goto out;
	}
	if (optind < argc && start_child(&ch, argv + optind, &err_fd, &old) < 0) {
		fprintf(stderr, "tracekit: Cannot start command: command=%s, errno=%s\n",
			argv[optind], strerror(errno));
		rc = 1;
		goto out;
	}
	if (command_only)
		pids[n_pids++] = ch.pid;
	if (n_pids && tk_recording_set_pids(rec, pids, n_pids, follow) < 0) {
		rc = cli_fail("Cannot record");
		goto out;
	}
	if (tk_recording_start(rec) < 0) {
		rc = cli_fail("Cannot record");
		goto out;
	}
	if (ch.pid > 0) {
		int e = release_child(&ch, err_fd);

		err_fd = -1;
		if (e) {
			fprintf(stderr, "tracekit: Cannot run command: command=%s, errno=%s\n",
				argv[optind], strerror(e));
			reap(&ch, 1);
			rc = 1;
			goto out;
		}
	}
	if (duration > 0)
		deadline = now_s() + duration;
	while (!got_signal) {
		if (ch.pid > 0 && reap(&ch, 0))
			break;
		if (deadline > 0 && now_s() >= deadline)
			break;
		nap(100, &old);
	}
	if (got_signal && ch.pid > 0 && !reap(&ch, 0)) {
		/* pass the signal on, and wait for the command (a second signal kills it) */
		int sig = got_signal;
		double give_up = now_s() + 10;

		got_signal = 0;
		kill(ch.pid, sig);
		while (!reap(&ch, 0)) {
			if (got_signal || now_s() >= give_up)
				kill(ch.pid, SIGKILL);
			nap(50, &old);
		}
	}
	if (tk_recording_stop(rec) < 0) {
		rc = cli_fail("Cannot record");
		goto out;
	}
	if (tk_recording_write(rec) < 0) {
		rc = cli_fail("Cannot record");
		goto out;
	}
	if (!quiet)
		summary(rec, &o);
out:
	if (err_fd >= 0)
		close(err_fd);
	if (ch.go >= 0) {
		/* never released: the held command ends on EOF */
		close(ch.go);
		reap(&ch, 1);
	}
	if (tk_recording_close(rec) < 0 && !rc)
		rc = cli_fail("Cannot restore tracefs");
	else if (rc == 0 && ch.pid > 0 && ch.exited && !quiet &&
		 (!WIFEXITED(ch.status) || WEXITSTATUS(ch.status)))
		fprintf(stderr, "tracekit: the command %s %d\n",
			WIFSIGNALED(ch.status) ? "was killed by signal" : "exited with status",
			WIFSIGNALED(ch.status) ? WTERMSIG(ch.status) : WEXITSTATUS(ch.status));
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}
