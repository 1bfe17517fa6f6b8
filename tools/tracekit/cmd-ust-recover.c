// SPDX-License-Identifier: MIT
/*
 * tracekit ust-recover: the last packets of traced programs that were killed, from the ring
 * files they left in their TRACEKIT_UST_SHM_DIR, appended to their traces (tk_ust_recover()).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void help(void)
{
	printf("Usage: tracekit ust-recover [OPTION]... SHMDIR\n"
	       "\n"
	       "Recover the traces of programs traced with libtracekit-ust that were killed\n"
	       "before their session ended: SHMDIR is their TRACEKIT_UST_SHM_DIR, where each\n"
	       "thread's ring of packets is a file. The complete packets of each ring that its\n"
	       "trace's stream file does not hold yet are appended to it, in order; the packet\n"
	       "each thread was filling is not recovered. Rings of processes still running are\n"
	       "left alone. Recovered ring files are removed.\n"
	       "\n"
	       "Options:\n"
	       "  -o, --output=DIR  write each recovered trace to DIR/NAME (NAME: the trace\n"
	       "                    directory's name), leaving the traces and ring files as they\n"
	       "                    are\n"
	       "  -f, --force       recover the rings of processes that still run too\n"
	       "  -k, --keep        do not remove the ring files\n"
	       "  -q, --quiet       print nothing but errors\n"
	       "  -h, --help        show this help\n"
	       "\n"
	       "Exit status: 0 on success (also when SHMDIR has no ring file), 1 if a ring file,\n"
	       "a trace or a stream file is damaged or cannot be written (no trace is changed\n"
	       "then), 2 on a usage error.\n");
}

struct report {
	int quiet;
	size_t rings;
	size_t alive;
};

static void report(const struct tk_ust_recover_ring *r, void *payload)
{
	struct report *rp = payload;

	rp->rings++;
	if (r->alive) {
		rp->alive++;
		fprintf(stderr,
			"tracekit: skipping %s: process %" PRId32
			" is still running (--force to recover it anyway)\n",
			r->path, r->pid);
		return;
	}
	if (rp->quiet)
		return;
	printf("%s: pid %" PRId32 ", tid %" PRId32 ": %" PRIu64 " packet%s appended to %s/%s",
	       r->path, r->pid, r->tid, r->packets, r->packets == 1 ? "" : "s", r->trace_dir,
	       r->stream);
	if (r->present)
		printf(" (%" PRIu64 " already there)", r->present);
	if (r->cut)
		printf(" (a partial packet of %" PRIu64 " bytes cut)", r->cut);
	printf("\n");
}

int cmd_ust_recover(int argc, char **argv)
{
	static const struct option options[] = {
		{"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
		{"keep", no_argument, NULL, 'k'},	  {"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},	  {NULL, 0, NULL, 0},
	};
	static const char shortopts[] = "o:fkqh";
	struct tk_ust_recover_opts o = TK_UST_RECOVER_OPTS_INIT;
	struct report rp = {0, 0, 0};
	int c;

	while ((c = getopt_long(argc, argv, shortopts, options, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.out_dir = optarg;
			break;
		case 'f':
			o.force = 1;
			break;
		case 'k':
			o.keep = 1;
			break;
		case 'q':
			rp.quiet = 1;
			break;
		case 'h':
			help();
			return 0;
		default:
			return cli_bad_option("ust-recover", shortopts, argv);
		}
	}
	if (argc - optind != 1)
		return cli_usage_error("ust-recover", "one SHMDIR expected");
	o.report = report;
	o.payload = &rp;
	if (tk_ust_recover(argv[optind], &o) < 0)
		return cli_fail("Cannot recover traces");
	if (!rp.rings && !rp.quiet)
		printf("no ring file in %s\n", argv[optind]);
	return fflush(stdout) ? 1 : 0;
}
