/* SPDX-License-Identifier: MIT */
/*
 * Shared pieces of the tracekit command line: the command table entries and error reporting.
 * The CLI uses only the public API (<tracekit/tracekit.h>).
 */
#ifndef TRACEKIT_CLI_H
#define TRACEKIT_CLI_H

#include <stdint.h>
#include <time.h>

#include <tracekit/tracekit.h>

int cmd_print(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_ust_recover(int argc, char **argv);

/* Print "tracekit: CONTEXT: cause: cause..." on one line of stderr; returns 1 (exit status). */
int cli_fail(const char *context);

/*
 * The same line as cli_fail() prints, in a malloc'ed string, for printing later (library calls
 * made in between reset the error chain).
 */
char *cli_error_text(const char *context);

/*
 * --file-version and --compression of the commands that write trace.dat: set *@out, or print
 * a usage error for @cmd and return 2 (0 when the value is good).
 */
int cli_parse_file_version(const char *cmd, const char *arg, unsigned int *out);
int cli_parse_compression(const char *cmd, const char *arg, const char **out);

/*
 * tk_warning_cb of the commands: "tracekit: warning: TEXT" on one line of stderr. Warnings
 * do not change the exit status.
 */
void cli_warn(const char *text, void *payload);

/*
 * The selection options of print and convert (filter-opts.c). Commands list CLI_FILTER_OPTIONS
 * in their getopt table, give each of those options to cli_filter_option() (0, or 2 after a
 * usage error), then turn them into filter options with cli_filter_finish() (same returns),
 * which point into @sel: keep it alive while they are used.
 */
#define CLI_MAX_ITEMS 256
#define CLI_MAX_CPUS  4096

enum {
	CLI_OPT_BEGIN = 1000,
	CLI_OPT_END,
	CLI_OPT_TIMERANGE,
	CLI_OPT_PID,
	CLI_OPT_COMM,
	CLI_OPT_CPU,
};

#define CLI_FILTER_OPTIONS                                                                         \
	{"event", required_argument, NULL, 'e'}, {"filter", required_argument, NULL, 'F'},         \
		{"begin", required_argument, NULL, CLI_OPT_BEGIN},                                 \
		{"end", required_argument, NULL, CLI_OPT_END},                                     \
		{"timerange", required_argument, NULL, CLI_OPT_TIMERANGE},                         \
		{"pid", required_argument, NULL, CLI_OPT_PID},                                     \
		{"comm", required_argument, NULL, CLI_OPT_COMM},                                   \
	{                                                                                          \
		"cpu", required_argument, NULL, CLI_OPT_CPU                                        \
	}

struct cli_filter {
	const char *events[CLI_MAX_ITEMS];
	size_t n_events;
	const char *begin, *end, *timerange;
	int64_t pids[CLI_MAX_ITEMS];
	size_t n_pids;
	const char *comms[CLI_MAX_ITEMS];
	size_t n_comms;
	unsigned int cpus[CLI_MAX_CPUS];
	size_t n_cpus;
	int has_cpus;
	const char *predicates[CLI_MAX_ITEMS];
	size_t n_predicates;
};

int cli_filter_option(struct cli_filter *sel, const char *cmd, int opt, const char *arg);
int cli_filter_finish(struct cli_filter *sel, const char *cmd, unsigned int flags,
		      struct tk_filter_opts *out);

/*
 * @first, then the names of the printer's styles but "auto" ("babeltrace, trace-cmd, json,
 * chrome, csv, tsv"), from the library's registry of sinks, into @buf.
 */
void cli_style_names(char *buf, size_t size, const char *first);

/* Print a usage error with the hint to run 'tracekit help CMD', on one line; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...);

/*
 * The usage error for what getopt_long() refused (it returned '?'): an unknown option, or
 * one without its value; @shortopts as given to getopt_long(). Returns 2.
 */
int cli_bad_option(const char *cmd, const char *shortopts, char **argv);

/*
 * The progress line (progress.c), for long work when stderr is a terminal:
 *
 *	cli_progress_start(&p, "converting", "converted");
 *	cli_progress(done, total, &p);		// a tk_progress_cb; total 0: events, else bytes
 *	cli_progress_end(&p, ok);		// the summary line, or a newline after a failure
 */
struct cli_progress {
	const char *doing; /* "converting" */
	const char *did;   /* "converted" */
	struct timespec start;
	struct timespec last;
	int shown;
	uint64_t done;
	uint64_t total;
};

void cli_progress_start(struct cli_progress *p, const char *doing, const char *did);
void cli_progress(uint64_t done, uint64_t total, void *payload);
void cli_progress_end(struct cli_progress *p, int ok);

#endif /* TRACEKIT_CLI_H */
