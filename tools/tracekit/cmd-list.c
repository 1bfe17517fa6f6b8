// SPDX-License-Identifier: MIT
/*
 * tracekit list: the events the running kernel offers (tracefs events/), as the
 * SYSTEM:EVENT names `tracekit record -e` takes, and with -F their format files.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void help(void)
{
	printf("Usage: tracekit list [OPTION]... [SPEC]\n"
	       "List the events the running kernel offers, one SYSTEM:EVENT per line, sorted.\n"
	       "SPEC selects some, as 'tracekit record -e' does: SYSTEM, SYSTEM:EVENT or EVENT,\n"
	       "globs allowed (e.g. 'sched', 'irq:*', '*:*_exit').\n"
	       "\n"
	       "  -F, --format  print each event's format file after its name\n"
	       "  -h, --help    this help\n");
}

struct list_ctx {
	int formats;
	size_t n;
	int failed;
};

static int one(const char *system, const char *name, void *payload)
{
	struct list_ctx *l = payload;

	l->n++;
	printf("%s:%s\n", system, name);
	if (!l->formats)
		return 0;
	fflush(stdout);
	if (tk_kernel_event_format(system, name, STDOUT_FILENO) < 0) {
		l->failed = cli_fail("Cannot list events");
		return 1;
	}
	printf("\n");
	return 0;
}

int cmd_list(int argc, char **argv)
{
	static const struct option options[] = {
		{"format", no_argument, NULL, 'F'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const char shortopts[] = "Fh";
	struct list_ctx l = {0};
	const char *spec = NULL;
	int c;

	while ((c = getopt_long(argc, argv, shortopts, options, NULL)) != -1) {
		switch (c) {
		case 'F':
			l.formats = 1;
			break;
		case 'h':
			help();
			return 0;
		default:
			return cli_bad_option("list", shortopts, argv);
		}
	}
	if (argc - optind > 1)
		return cli_usage_error("list", "at most one SPEC");
	if (optind < argc)
		spec = argv[optind];
	if (tk_kernel_events_list(spec, one, &l) < 0)
		return cli_fail("Cannot list events");
	if (l.failed)
		return 1;
	if (!l.n && spec) {
		fprintf(stderr, "tracekit: Cannot list events: spec=%s, reason=no event matches\n",
			spec);
		return 1;
	}
	return fflush(stdout) ? 1 : 0;
}
