// SPDX-License-Identifier: MIT
/*
 * tracekit print: events as text. For CTF traces the output is byte for byte what
 * `babeltrace2 PATH` prints, with babeltrace2's options for time and field names; lost
 * events and packets are reported on stderr as babeltrace2 reports them. For trace.dat files
 * it is what `trace-cmd report FILE` prints, with report's -R, -t, --cpu and --events; for
 * perf.data files what `perf script -i FILE` prints (-t: its --ns). The
 * selection options (-e, --begin, --end, --timerange, --pid, --comm, --cpu) go to the
 * library's filter stage, the same for every format and for `tracekit convert`: tk_print()
 * runs tk_convert()'s pipeline into the printer. Printing into a file shows a progress line
 * on stderr when that is a terminal (not into a pipe, whose pager may be on the same screen).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static void help(void)
{
	printf("Usage: tracekit print [OPTION]... PATH...\n"
	       "\n"
	       "Print the events of the traces found in PATH, merged in time order, one line\n"
	       "per event: CTF traces (directories, searched recursively) as babeltrace2 prints\n"
	       "them, trace.dat files as trace-cmd report prints them, perf.data files as perf\n"
	       "script prints them.\n"
	       "\n");
	/* the help in two parts: one string literal is at most 4095 bytes in ISO C */
	printf("Options for CTF (babeltrace2's):\n"
	       "      --clock-cycles     print timestamps in clock cycles\n"
	       "      --clock-date       print the date with the time of day\n"
	       "      --clock-gmt        print the time of day in UTC instead of local time\n"
	       "      --clock-seconds    print timestamps as seconds.nanoseconds\n"
	       "      --no-delta         do not print the time since the previous event\n"
	       "  -n, --names=LIST       name these parts: payload (or arg, args), context (or\n"
	       "                         ctx), scope, header, all, none\n"
	       "  -f, --fields=LIST      print these fields: trace, trace:hostname,\n"
	       "                         trace:domain, trace:procname, trace:vpid, loglevel,\n"
	       "                         emf, callsite, all, none\n"
	       "\n"
	       "Options for trace.dat (trace-cmd report's) and perf.data:\n"
	       "  -R, --raw              print the fields of events, not their print format\n"
	       "                         (trace-cmd style)\n"
	       "  -t, --nanoseconds      print times with nanoseconds (perf script --ns)\n"
	       "      --events           print the event formats of the files and exit\n"
	       "\n"
	       "Selection (every format):\n"
	       "  -e, --event=SPEC       print only these events: SYSTEM, SYSTEM:EVENT or EVENT,\n"
	       "                         globs allowed; repeatable\n"
	       "      --begin=TIME       leave out events before TIME\n"
	       "      --end=TIME         leave out events after TIME\n"
	       "      --timerange=BEGIN,END  both (also [BEGIN,END]); TIME: seconds from the\n"
	       "                         clock origin (1234 or 1234.5), a number with a unit\n"
	       "                         (210s, 1.5ms, 20us, 123ns), YYYY-MM-DD hh:mm[:ss[.n]]\n"
	       "                         or hh:mm[:ss[.n]] on the first event's day (local\n"
	       "                         time; UTC with --clock-gmt)\n"
	       "      --pid=LIST         events of these tasks only (e.g. 12,345): trace.dat\n"
	       "                         common_pid, CTF tid (or vtid, pid, vpid) context\n"
	       "      --comm=NAME        events of tasks of this name (glob; repeatable):\n"
	       "                         trace.dat saved cmdlines, CTF procname context\n"
	       "      --cpu=LIST         events of these CPUs only (e.g. 0,2-3): trace.dat\n"
	       "                         CPU (instance buffers left out, as trace-cmd report\n"
	       "                         does), CTF packet context cpu_id\n"
	       "  -F, --filter=FILTER    events whose fields pass FILTER, as trace-cmd report\n"
	       "                         -F takes it: EVENTS[:EXPRESSION], e.g.\n"
	       "                         'sched/sched_switch: prev_pid == 0 || next_comm =~\n"
	       "                         \"^bash\"'; EVENTS: regexes, comma-separated;\n"
	       "                         == != < <= > >= & =~ !~ ! ( ) && ||, COMM, CPU;\n"
	       "                         repeatable (an event passing one is printed; events\n"
	       "                         no -F names are not)\n"
	       "\n"
	       "      --style=STYLE      babeltrace: every event in babeltrace2's style;\n"
	       "                         trace-cmd: trace.dat and perf.data events in\n"
	       "                         trace-cmd's (CTF events keep babeltrace2's); perf:\n"
	       "                         trace.dat and perf.data events in perf script's;\n"
	       "                         json: one JSON object per event (JSON lines);\n"
	       "                         chrome: a Chrome trace-event JSON document\n"
	       "                         (chrome://tracing, Perfetto UI); csv, tsv: a row per\n"
	       "                         event, a column per field (spreadsheets, pandas);\n"
	       "                         perf-decode, perf-decode-compact: as\n"
	       "                         LinuxTracepoints' perf-decode writes perf.data and\n"
	       "                         EventHeader interceptor files (JSON, EventHeader\n"
	       "                         events decoded; spaced with field tags, or compact);\n"
	       "                         default: each format its tool's\n"
	       "  -q, --quiet            no progress line (shown on stderr when it is a\n"
	       "                         terminal and the output goes to a file)\n"
	       "  -h, --help             show this help\n"
	       "\n"
	       "Exit status: 0 on success, 1 if a trace cannot be read (every event before the\n"
	       "damage is printed first) or a selection matches nothing the trace has (an\n"
	       "unknown event name, --pid on a trace without pids, a -F field no event has),\n"
	       "2 on a usage error.\n");
}

struct item {
	const char *name;
	unsigned int flag;
};

static const struct item name_items[] = {
	{"payload", TK_PRINT_NAMES_PAYLOAD}, {"args", TK_PRINT_NAMES_PAYLOAD},
	{"arg", TK_PRINT_NAMES_PAYLOAD},     {"context", TK_PRINT_NAMES_CONTEXT},
	{"ctx", TK_PRINT_NAMES_CONTEXT},     {"scope", TK_PRINT_NAMES_SCOPE},
	{"header", TK_PRINT_NAMES_HEADER},
};

static const struct item field_items[] = {
	{"trace", TK_PRINT_FIELD_TRACE},
	{"trace:hostname", TK_PRINT_FIELD_HOSTNAME},
	{"trace:domain", TK_PRINT_FIELD_DOMAIN},
	{"trace:procname", TK_PRINT_FIELD_PROCNAME},
	{"trace:vpid", TK_PRINT_FIELD_VPID},
	{"loglevel", TK_PRINT_FIELD_LOGLEVEL},
	{"emf", TK_PRINT_FIELD_EMF},
	{"callsite", TK_PRINT_FIELD_CALLSITE},
};

#define NAMES_MASK                                                                                 \
	(TK_PRINT_NAMES_PAYLOAD | TK_PRINT_NAMES_CONTEXT | TK_PRINT_NAMES_SCOPE |                  \
	 TK_PRINT_NAMES_HEADER)
#define FIELDS_MASK                                                                                \
	(TK_PRINT_FIELD_TRACE | TK_PRINT_FIELD_HOSTNAME | TK_PRINT_FIELD_DOMAIN |                  \
	 TK_PRINT_FIELD_PROCNAME | TK_PRINT_FIELD_VPID | TK_PRINT_FIELD_LOGLEVEL |                 \
	 TK_PRINT_FIELD_EMF | TK_PRINT_FIELD_CALLSITE)

/*
 * babeltrace2's list options: "all" shows everything, "none" hides everything, and a list of
 * items shows exactly those items (the others are hidden).
 */
static int parse_list(const char *arg, const struct item *items, size_t n, unsigned int mask,
		      unsigned int *flags, const char *opt)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	unsigned int set = 0;
	int all = 0, none = 0, any = 0;
	size_t i;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			all = 1;
			continue;
		}
		if (!strcmp(tok, "none")) {
			none = 1;
			continue;
		}
		for (i = 0; i < n; i++)
			if (!strcmp(tok, items[i].name))
				break;
		if (i == n) {
			cli_usage_error("print", "unknown item '%s' in %s", tok, opt);
			free(copy);
			return -1;
		}
		set |= items[i].flag;
		any = 1;
	}
	free(copy);
	if (all && none) {
		cli_usage_error("print", "%s takes either 'all' or 'none', not both", opt);
		return -1;
	}
	if (all)
		*flags |= mask;
	else if (none || any)
		*flags &= ~mask;
	*flags |= set;
	return 0;
}

/* --events: the event formats of the files, not their events */
static int print_formats(char **paths, size_t n, const struct tk_print_opts *popts)
{
	struct tk_trace_opts topts = TK_TRACE_OPTS_INIT;
	struct tk_printer *printer = NULL;
	struct tk_trace *trace = NULL;
	int rc = 0;

	topts.warning = cli_warn;
	if (tk_trace_open(&trace, (const char *const *) paths, n, &topts) < 0)
		return cli_fail(NULL);
	if (tk_printer_open(&printer, popts) < 0)
		rc = cli_fail("Cannot print");
	else if (tk_printer_print_formats(printer, trace) < 0)
		rc = cli_fail("Cannot write output");
	if (tk_printer_close(printer) < 0 && !rc)
		rc = cli_fail("Cannot write output");
	tk_trace_close(trace);
	return rc;
}

int cmd_print(int argc, char **argv)
{
	static const struct option options[] = {
		{"clock-cycles", no_argument, NULL, 'C'},
		{"clock-date", no_argument, NULL, 'D'},
		{"clock-gmt", no_argument, NULL, 'G'},
		{"clock-seconds", no_argument, NULL, 'S'},
		{"no-delta", no_argument, NULL, 'N'},
		{"names", required_argument, NULL, 'n'},
		{"fields", required_argument, NULL, 'f'},
		{"raw", no_argument, NULL, 'R'},
		{"nanoseconds", no_argument, NULL, 't'},
		{"events", no_argument, NULL, 'E'},
		{"style", required_argument, NULL, 's'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		CLI_FILTER_OPTIONS,
		{NULL, 0, NULL, 0},
	};
	static const char shortopts[] = "n:f:Rtqhe:F:";
	static struct cli_filter sel;
	struct tk_filter_opts fopts;
	struct tk_print_opts popts = TK_PRINT_OPTS_INIT;
	struct tk_convert_opts copts = TK_CONVERT_OPTS_INIT;
	struct cli_progress prog = {0};
	struct stat sb;
	int c, formats = 0, style, quiet = 0;
	enum tk_status st;

	optind = 1;
	memset(&sel, 0, sizeof(sel));
	while ((c = getopt_long(argc, argv, shortopts, options, NULL)) != -1) {
		switch (c) {
		case 'C':
			popts.flags |= TK_PRINT_CLOCK_CYCLES;
			break;
		case 'D':
			popts.flags |= TK_PRINT_CLOCK_DATE;
			break;
		case 'G':
			popts.flags |= TK_PRINT_CLOCK_GMT;
			break;
		case 'S':
			popts.flags |= TK_PRINT_CLOCK_SECONDS;
			break;
		case 'N':
			popts.flags |= TK_PRINT_NO_DELTA;
			break;
		case 'n':
			if (parse_list(optarg, name_items,
				       sizeof(name_items) / sizeof(name_items[0]), NAMES_MASK,
				       &popts.flags, "--names"))
				return 2;
			break;
		case 'f':
			if (parse_list(optarg, field_items,
				       sizeof(field_items) / sizeof(field_items[0]), FIELDS_MASK,
				       &popts.flags, "--fields"))
				return 2;
			break;
		case 'R':
			popts.flags |= TK_PRINT_RAW;
			break;
		case 't':
			popts.flags |= TK_PRINT_NSEC;
			break;
		case 'e':
		case 'F':
		case CLI_OPT_BEGIN:
		case CLI_OPT_END:
		case CLI_OPT_TIMERANGE:
		case CLI_OPT_PID:
		case CLI_OPT_COMM:
		case CLI_OPT_CPU:
			if (cli_filter_option(&sel, "print", c, optarg))
				return 2;
			break;
		case 'E':
			formats = 1;
			break;
		case 's':
			style = tk_print_style_find(optarg);
			if (style < 0 || !strcmp(optarg, "auto")) {
				char names[256];

				cli_style_names(names, sizeof(names), "");
				return cli_usage_error("print", "unknown style '%s' (%s)", optarg,
						       names);
			}
			popts.style = (unsigned int) style;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			help();
			return 0;
		default:
			return cli_bad_option("print", shortopts, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error("print", "missing trace PATH");
	if (cli_filter_finish(&sel, "print", popts.flags & TK_PRINT_CLOCK_GMT ? TK_FILTER_GMT : 0,
			      &fopts))
		return 2;
	if (formats)
		return print_formats(argv + optind, (size_t) (argc - optind), &popts);
	copts.filter = &fopts;
	copts.warning = cli_warn;
	if (!quiet && isatty(STDERR_FILENO) && !fstat(STDOUT_FILENO, &sb) && S_ISREG(sb.st_mode)) {
		cli_progress_start(&prog, "printing", "printed"); /* not over a pager's screen */
		copts.progress = cli_progress;
		copts.payload = &prog;
	}
	st = tk_print((const char *const *) argv + optind, (size_t) (argc - optind), &popts,
		      &copts);
	cli_progress_end(&prog, st >= 0);
	return st < 0 ? cli_fail(NULL) : 0;
}
