// SPDX-License-Identifier: MIT
/*
 * dat-rewrite: read a trace.dat file with tracekit's reader and write it again with
 * tracekit's writer, in the same or another file version and compression.
 *
 * It is the test bench of the writer (src/tracedat/tracedat-write.c) through the library's
 * copy (src/tracedat/tracedat-copy.c, the trace.dat path of `tracekit convert`):
 * tests/interop/dat-rewrite.sh rewrites generated and real files and checks that
 * `trace-cmd report` prints the rewrite exactly as the original. With -e (repeatable),
 * --begin or --end (ns) only the selected records are written, into new pages.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracekit/tracekit.h>

#include "model/model.h"
#include "tracedat/source.h"

static void usage(FILE *out)
{
	fputs("Usage: dat-rewrite IN OUT [--file-version 6|7] [--compression none|zstd|zlib]\n"
	      "                   [-e SPEC]... [--begin NS] [--end NS]\n"
	      "\n"
	      "Read the trace.dat file IN with tracekit's reader and write it to OUT with\n"
	      "tracekit's writer: metadata, options, CPU count and every page of every buffer.\n"
	      "The file version and compression default to those of IN; asking for zstd or\n"
	      "zlib implies version 7.\n",
	      out);
}

/* Print the error chain, outermost cause first, and exit 1. */
static void die_chain(const char *what)
{
	size_t i, n = tk_error_count();

	fprintf(stderr, "dat-rewrite: %s\n", what);
	for (i = 0; i < n; i++)
		fprintf(stderr, "dat-rewrite:   caused by: %s\n", tk_error_cause(i));
	exit(1);
}

static void die(const char *msg)
{
	fprintf(stderr, "dat-rewrite: %s\n", msg);
	exit(1);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"file-version", required_argument, NULL, 'V'},
		{"compression", required_argument, NULL, 'C'},
		{"event", required_argument, NULL, 'e'},
		{"begin", required_argument, NULL, 'b'},
		{"end", required_argument, NULL, 'E'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct tracedat_copy_opts o = {0};
	struct tk_filter_opts fo = TK_FILTER_OPTS_INIT;
	const char *events[64];
	struct tk_trace *trace = NULL;
	const char *version = NULL;
	enum tk_status st;
	int c;

	while ((c = getopt_long(argc, argv, "he:", longopts, NULL)) != -1) {
		switch (c) {
		case 'V':
			version = optarg;
			break;
		case 'C':
			o.compression = optarg;
			break;
		case 'e':
			if (fo.n_events == 64)
				die("too many -e");
			events[fo.n_events++] = optarg;
			break;
		case 'b':
			fo.begin.kind = TK_TIME_FROM_ORIGIN;
			fo.begin.ns = strtoll(optarg, NULL, 0);
			break;
		case 'E':
			fo.end.kind = TK_TIME_FROM_ORIGIN;
			fo.end.ns = strtoll(optarg, NULL, 0);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 2) {
		usage(stderr);
		return 2;
	}
	if (version && strcmp(version, "6") && strcmp(version, "7"))
		die("--file-version must be 6 or 7");
	o.version = version ? (unsigned int) atoi(version) : 0;
	fo.events = events;

	tk_error_clear();
	if (tk_trace_open(&trace, (const char *const *) argv + optind, 1, NULL) < 0 ||
	    trace->n_sources != 1 || !tracedat_source_container(trace->sources[0]))
		die_chain("Cannot read the input");
	if ((fo.n_events || fo.begin.kind || fo.end.kind) &&
	    tk_filter_create(&o.filter, trace, &fo) < 0)
		die_chain("Cannot select records");
	st = tracedat_copy(trace->sources[0], argv[optind + 1], &o);
	tk_filter_destroy(o.filter);
	tk_trace_close(trace);
	if (st < 0)
		die_chain("Cannot rewrite the trace");
	return 0;
}
