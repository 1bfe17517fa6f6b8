// SPDX-License-Identifier: MIT
/*
 * tracekit info: what a trace holds. It reads every event (so it also checks the whole
 * trace) and prints the sources with their environment and clocks, the streams with their
 * event counts, the time range, lost events and packets, and the event classes by count.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static void help(void)
{
	printf("Usage: tracekit info [OPTION]... PATH...\n"
	       "\n"
	       "Summarise the traces found in PATH: format, environment, clocks, streams,\n"
	       "event classes with their event counts, time range and lost events. Every\n"
	       "event is decoded, so this also checks that the whole trace can be read.\n"
	       "\n"
	       "Options:\n"
	       "  -h, --help   show this help\n"
	       "\n"
	       "Exit status: 0 on success, 1 if a trace cannot be read (the summary covers\n"
	       "the events before the damage), 2 on a usage error.\n");
}

static double duration_s(int64_t first, int64_t last)
{
	int64_t d;

	if (!__builtin_sub_overflow(last, first, &d))
		return (double) d / 1e9;
	return ((double) last - (double) first) / 1e9;
}

static void print_time(int64_t ns)
{
	int64_t s = ns / 1000000000, sub = ns % 1000000000;
	struct tm tm;
	time_t t;

	if (sub < 0) {
		s--;
		sub += 1000000000;
	}
	printf("%" PRId64 ".%09" PRId64, s, sub);
	t = (time_t) s;
	if (gmtime_r(&t, &tm))
		printf(" (%04d-%02d-%02d %02d:%02d:%02d.%09" PRId64 " UTC)", tm.tm_year + 1900,
		       tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, sub);
}

static int cmp_count_desc(const void *a, const void *b, void *counts)
{
	uint64_t ca = ((uint64_t *) counts)[*(const size_t *) a];
	uint64_t cb = ((uint64_t *) counts)[*(const size_t *) b];

	if (ca != cb)
		return ca < cb ? 1 : -1;
	return *(const size_t *) a < *(const size_t *) b ? -1 : 1;
}

static void print_source(const struct tk_trace *trace, const struct tk_source *src, size_t nr,
			 const struct tk_trace_counts *in)
{
	const uint8_t *u = tk_source_get_uuid(src);
	size_t i;

	printf("Trace %zu: %s\n", nr, tk_source_get_path(src));
	printf("  format:       %s\n", tk_source_get_format(src));
	printf("  name:         %s\n", tk_source_get_name(src));
	if (u)
		printf("  uuid:         %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		       "%02x%02x%02x%02x%02x%02x\n",
		       u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
		       u[12], u[13], u[14], u[15]);
	for (i = 0; i < tk_source_get_env_count(src); i++) {
		const char *key, *str;
		int64_t v;

		if (tk_source_get_env(src, i, &key, &str, &v) < 0)
			continue;
		printf("  %-13s %s = ", i ? "" : "environment:", key);
		if (str)
			printf("\"%s\"\n", str);
		else
			printf("%" PRId64 "\n", v);
	}
	for (i = 0; i < tk_source_get_clock_count(src); i++) {
		const struct tk_clock *c = tk_source_get_clock(src, i);
		int64_t off_s;
		uint64_t off_c;

		tk_clock_get_offset(c, &off_s, &off_c);
		printf("  clock:        %s, %" PRIu64 " Hz, offset %" PRId64 " s + %" PRIu64
		       " cycles%s\n",
		       tk_clock_get_name(c), tk_clock_get_frequency(c), off_s, off_c,
		       tk_clock_is_absolute(c) ? ", absolute" : "");
	}
	for (i = 0; i < tk_trace_get_stream_count(trace); i++) {
		const struct tk_stream *s = tk_trace_get_stream(trace, i);

		if (tk_stream_get_source(s) != src)
			continue;
		printf("  stream:       %s (class %" PRIu64 ", id %" PRIu64 "): %" PRIu64
		       " events\n",
		       tk_stream_get_path(s), tk_stream_get_class_id(s), tk_stream_get_id(s),
		       in->stream_events[i]);
	}
}

int cmd_info(int argc, char **argv)
{
	static const struct option options[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const char shortopts[] = "h";
	struct tk_trace *trace = NULL;
	struct tk_trace_opts topts = TK_TRACE_OPTS_INIT;
	struct tk_trace_counts in;
	enum tk_status st;
	size_t i, n_ec, *order = NULL;
	int c, rc = 0;
	char *err = NULL;

	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, options, NULL)) != -1) {
		if (c == 'h') {
			help();
			return 0;
		}
		return cli_bad_option("info", shortopts, argv);
	}
	if (optind >= argc)
		return cli_usage_error("info", "missing trace PATH");
	topts.warning = cli_warn;
	st = tk_trace_open(&trace, (const char *const *) argv + optind, (size_t) (argc - optind),
			   &topts);
	if (st < 0)
		return cli_fail(NULL);
	memset(&in, 0, sizeof(in));
	n_ec = tk_trace_get_event_class_count(trace);
	order = calloc(n_ec + 1, sizeof(size_t));
	if (!order) {
		fprintf(stderr, "tracekit: out of memory\n");
		rc = 1;
		goto out;
	}
	/* every event is read, the streams on threads where there are cores for them */
	st = tk_trace_count(trace, &in);
	if (st < 0) {
		if (!in.class_events || !in.stream_events) {
			rc = cli_fail("Cannot read trace");
			goto out;
		}
		err = cli_error_text("Cannot read trace");
		rc = 1;
	}
	for (i = 0; i < tk_trace_get_source_count(trace); i++)
		print_source(trace, tk_trace_get_source(trace, i), i + 1, &in);
	printf("Events:         %" PRIu64 "%s\n", in.events, rc ? " (before the error below)" : "");
	if (in.has_time) {
		printf("Earliest event: ");
		print_time(in.first_ns);
		printf("\nLatest event:   ");
		print_time(in.last_ns);
		printf("\nDuration:       %.9f s\n", duration_s(in.first_ns, in.last_ns));
	}
	printf("Lost events:    %" PRIu64 "%s\n", in.lost_events,
	       in.lost_events_unknown ? " (and an unknown number more)" : "");
	printf("Lost packets:   %" PRIu64 "\n", in.lost_packets);
	printf("Event classes:  %zu\n", n_ec);
	for (i = 0; i < n_ec; i++)
		order[i] = i;
	qsort_r(order, n_ec, sizeof(size_t), cmp_count_desc, in.class_events);
	printf("  %12s  %s\n", "events", "name (stream class, id)");
	for (i = 0; i < n_ec; i++) {
		const struct tk_event_class *ec = tk_trace_get_event_class(trace, order[i]);
		const char *name = tk_event_class_get_name(ec);

		printf("  %12" PRIu64 "  %s (%" PRIu64 ", %" PRIu64 ")\n",
		       in.class_events[order[i]], name ? name : "<unknown>",
		       tk_event_class_get_stream_class_id(ec), tk_event_class_get_id(ec));
	}
	fflush(stdout);
	if (err)
		fprintf(stderr, "%s\n", err);
out:
	free(err);
	free(order);
	tk_trace_counts_fini(&in);
	tk_trace_close(trace);
	return rc;
}
