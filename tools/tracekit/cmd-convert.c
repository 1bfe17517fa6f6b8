// SPDX-License-Identifier: MIT
/*
 * tracekit convert: traces into another format (tk_convert()), with an event selection and a
 * time window, and a progress line on stderr when it is a terminal.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void help(void)
{
	printf("Usage: tracekit convert [OPTION]... INPUT... -o OUTPUT\n"
	       "Convert traces into another format. INPUT is a trace.dat file or a CTF trace\n"
	       "directory (or a directory above traces), as for 'tracekit print'.\n"
	       "\n"
	       "  -o, --output=PATH       what to write\n"
	       "  -t, --to=FORMAT         dat (trace.dat), ctf, json (JSON lines), chrome\n"
	       "                          (Chrome trace-event JSON), csv or tsv (a row per\n"
	       "                          event, a column per field), or the text of\n"
	       "                          babeltrace, trace-cmd or perf; default from OUTPUT:\n"
	       "                          *.dat, *.jsonl or *.ndjson, *.json, *.csv, *.tsv;\n"
	       "                          ctf for *.ctf,\n"
	       "                          a directory or a name without extension;\n"
	       "                          '-' (standard output) with --to json, chrome, csv\n"
	       "                          or tsv\n"
	       "  -e, --event=SPEC        keep only these events: SYSTEM, SYSTEM:EVENT or EVENT,\n"
	       "                          globs allowed; repeatable\n"
	       "      --begin=TIME        drop events before TIME\n"
	       "      --end=TIME          drop events after TIME\n"
	       "      --timerange=BEGIN,END  both (also [BEGIN,END]); TIME: seconds from the\n"
	       "                          clock origin (1234 or 1234.5), a number with a unit\n"
	       "                          (210s, 1.5ms, 20us, 123ns), YYYY-MM-DD hh:mm[:ss[.n]]\n"
	       "                          or hh:mm[:ss[.n]] on the first event's day (local\n"
	       "                          time; UTC with --clock-gmt)\n"
	       "      --clock-gmt         dates and times of day in UTC\n"
	       "      --pid=LIST          keep events of these tasks (e.g. 12,345)\n"
	       "      --comm=NAME         keep events of tasks of this name (glob; repeatable)\n"
	       "      --cpu=LIST          keep events of these CPUs (e.g. 0,2-3)\n"
	       "  -F, --filter=FILTER     keep events whose fields pass FILTER, in trace-cmd\n"
	       "                          report -F syntax ('sched_wakeup: pid > 100');\n"
	       "                          repeatable\n"
	       "                          (as for 'tracekit print'; see tracekit-print(1))\n"
	       "      --file-version=6|7  trace.dat output version (default: the input's;\n"
	       "                          7 from CTF not converted from trace.dat)\n"
	       "      --compression=none|zstd|zlib\n"
	       "                          trace.dat output compression (default: the input's;\n"
	       "                          zstd from CTF not converted from trace.dat)\n"
	       "      --generic           decode every event and write it through the output's\n"
	       "                          writer, even where a shortcut applies (trace.dat pages\n"
	       "                          copied, trace.dat to CTF by copy plans)\n"
	       "  -q, --quiet             no progress line\n"
	       "  -h, --help              this help\n"
	       "\n"
	       "Exit status: 0 on success, 1 when the conversion failed or a selection matches\n"
	       "nothing the input has, 2 on a usage error.\n"
	       "\n"
	       "Examples:\n"
	       "  tracekit convert trace.dat -o trace-v6.dat --file-version 6\n"
	       "  tracekit convert trace.dat -o sched.dat -e sched --begin 1234.5 --end 1236\n"
	       "  tracekit convert lttng-trace -o copy -e 'sched_*'\n"
	       "  tracekit convert trace.dat -o wakeups.dat -F 'sched_wakeup: pid > 100'\n"
	       "  tracekit convert lttng-trace/ -o lttng.dat\n");
}

/* The signal that asked the conversion to stop, or 0 (tk_convert_opts.stop). */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

/* SIGINT, SIGTERM and SIGHUP stop the conversion, which then removes what it wrote. */
static void catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int cmd_convert(int argc, char **argv)
{
	enum { OPT_FILE_VERSION = 256, OPT_COMPRESSION, OPT_GMT, OPT_GENERIC };
	static const struct option options[] = {
		{"output", required_argument, NULL, 'o'},
		{"to", required_argument, NULL, 't'},
		CLI_FILTER_OPTIONS,
		{"clock-gmt", no_argument, NULL, OPT_GMT},
		{"file-version", required_argument, NULL, OPT_FILE_VERSION},
		{"compression", required_argument, NULL, OPT_COMPRESSION},
		{"generic", no_argument, NULL, OPT_GENERIC},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const char shortopts[] = "o:t:e:F:qh";
	static const char *const formats[] = {"auto", "dat", "ctf", "json", "chrome"};
	struct tk_convert_opts o = TK_CONVERT_OPTS_INIT;
	static struct cli_filter sel;
	struct tk_filter_opts fopts;
	const char *output = NULL;
	struct cli_progress prog = {0};
	unsigned int fflags = 0;
	size_t k;
	int quiet = 0, c, rc = 0, style;
	enum tk_status st;

	memset(&sel, 0, sizeof(sel));
	while ((c = getopt_long(argc, argv, shortopts, options, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 't':
			for (k = 1; k < sizeof(formats) / sizeof(formats[0]); k++)
				if (!strcmp(optarg, formats[k]))
					o.to = (unsigned int) k;
			if (!o.to && (style = tk_print_style_find(optarg)) > TK_PRINT_STYLE_AUTO)
				o.to = TK_CONVERT_STYLE(style); /* text, csv, tsv */
			if (!o.to) {
				char names[256];

				cli_style_names(names, sizeof(names), "dat, ctf");
				return cli_usage_error("convert", "unknown format '%s' (%s)",
						       optarg, names);
			}
			break;
		case 'e':
		case 'F':
		case CLI_OPT_BEGIN:
		case CLI_OPT_END:
		case CLI_OPT_TIMERANGE:
		case CLI_OPT_PID:
		case CLI_OPT_COMM:
		case CLI_OPT_CPU:
			if (cli_filter_option(&sel, "convert", c, optarg))
				return 2;
			break;
		case OPT_GMT:
			fflags |= TK_FILTER_GMT;
			break;
		case OPT_FILE_VERSION:
			if (cli_parse_file_version("convert", optarg, &o.file_version))
				return 2;
			break;
		case OPT_COMPRESSION:
			if (cli_parse_compression("convert", optarg, &o.compression))
				return 2;
			break;
		case OPT_GENERIC:
			o.flags |= TK_CONVERT_GENERIC;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			help();
			return 0;
		default:
			return cli_bad_option("convert", shortopts, argv);
		}
	}
	if (!output)
		return cli_usage_error("convert", "no output: give -o OUTPUT");
	if (optind == argc)
		return cli_usage_error("convert", "no input");
	if (cli_filter_finish(&sel, "convert", fflags, &fopts))
		return 2;
	if (!strcmp(output, "-")) {
		/* text streams can go to a pipe; trace.dat and CTF are files written out of order */
		if (o.to != TK_CONVERT_JSON && o.to != TK_CONVERT_CHROME &&
		    o.to < TK_CONVERT_STYLE(0))
			return cli_usage_error("convert", "-o - (standard output) needs --to json, "
							  "chrome, csv or tsv");
		output = "/dev/stdout";
	}
	o.filter = &fopts;
	o.warning = cli_warn;
	o.stop = &stop_signal;
	catch_stop_signals();
	if (!quiet && isatty(STDERR_FILENO)) {
		cli_progress_start(&prog, "converting", "converted");
		o.progress = cli_progress;
		o.payload = &prog;
	}
	st = tk_convert((const char *const *) argv + optind, (size_t) (argc - optind), output, &o);
	cli_progress_end(&prog, st >= 0);
	if (st < 0) {
		if (st == TK_ERR_CANCELED && stop_signal) {
			/* nothing was left behind; die of the signal, as the shell expects */
			fprintf(stderr, "tracekit: convert stopped by %s; %s was not written\n",
				strsignal(stop_signal), output);
			signal(stop_signal, SIG_DFL);
			raise(stop_signal);
		}
		rc = cli_fail(NULL);
		if (stop_signal) {
			/* nothing was left behind; die of the signal, as the shell expects */
			signal(stop_signal, SIG_DFL);
			raise(stop_signal);
		}
	}
	return rc;
}
