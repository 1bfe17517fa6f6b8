// SPDX-License-Identifier: MIT
/*
 * dat-rewrite: read a trace.dat file with tracekit's reader and write it again with
 * tracekit's writer, in the same or another file version and compression.
 *
 * It is the test bench of the writer (src/tracedat/tracedat-write.c): tests/interop/
 * dat-rewrite.sh rewrites generated and real files and checks that `trace-cmd report` prints
 * the rewrite exactly as the original. It is also the seed of the trace.dat to trace.dat path
 * of `tracekit convert`.
 *
 * What is carried over: every metadata part, the trace clock (the TRACECLOCK text, or the v6
 * clock text of files whose TRACECLOCK is empty), every option except those the writer makes
 * itself (buffers, clock, CPU count, v7 section offsets), the CPU count, and the pages of
 * every CPU of every buffer, byte for byte. Latency (text) buffers and instances with their
 * own page size have no place in the writer and are refused.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracekit/status.h>

#include "tracedat/tracedat-write.h"
#include "tracedat/tracedat.h"

static void usage(FILE *out)
{
	fputs("Usage: dat-rewrite IN OUT [--file-version 6|7] [--compression none|zstd|zlib]\n"
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

/* Options the writer makes itself (or that point at sections of the input). */
static int writer_owned(uint16_t id)
{
	switch (id) {
	case TRACEDAT_OPTION_DONE:
	case TRACEDAT_OPTION_BUFFER:
	case TRACEDAT_OPTION_TRACECLOCK:
	case TRACEDAT_OPTION_CPUCOUNT:
	case TRACEDAT_OPTION_BUFFER_TEXT:
	case TRACEDAT_OPTION_BTF_FILE:
	case TRACEDAT_OPTION_MODULES_FILE:
		return 1;
	}
	return id >= TRACEDAT_OPTION_STRINGS && id <= TRACEDAT_OPTION_CMDLINES;
}

static enum tk_status write_metadata(struct tracedat_writer *w, const struct tracedat_info *in)
{
	enum tk_status st;
	size_t i, j;

	st = tracedat_writer_set_header_page(w, in->header_page.data, in->header_page.len);
	if (st >= 0)
		st = tracedat_writer_set_header_event(w, in->header_event.data,
						      in->header_event.len);
	for (i = 0; st >= 0 && i < in->n_ftrace_formats; i++)
		st = tracedat_writer_add_ftrace_format(w, in->ftrace_formats[i].data,
						       in->ftrace_formats[i].len);
	for (i = 0; st >= 0 && i < in->n_systems; i++)
		for (j = 0; st >= 0 && j < in->systems[i].n_formats; j++)
			st = tracedat_writer_add_event_format(w, in->systems[i].name,
							      in->systems[i].formats[j].data,
							      in->systems[i].formats[j].len);
	if (st >= 0)
		st = tracedat_writer_set_kallsyms(w, in->kallsyms.data, in->kallsyms.len);
	if (st >= 0)
		st = tracedat_writer_set_printk(w, in->printk.data, in->printk.len);
	if (st >= 0)
		st = tracedat_writer_set_cmdlines(w, in->cmdlines.data, in->cmdlines.len);
	return st;
}

/*
 * The trace clock: the TRACECLOCK text as it is in the file when it has one, else the text
 * the reader found (a v6 clock blob behind an empty TRACECLOCK of trace-cmd < 3.0).
 */
static enum tk_status write_clock(struct tracedat_writer *w, const struct tracedat_info *in)
{
	size_t i;

	for (i = in->n_options; i-- > 0;)
		if (in->options[i].id == TRACEDAT_OPTION_TRACECLOCK && in->options[i].size &&
		    in->options[i].data[0])
			return tracedat_writer_set_trace_clock(w, in->options[i].data,
							       in->options[i].size);
	if (in->trace_clock)
		return tracedat_writer_set_trace_clock(w, in->trace_clock, strlen(in->trace_clock));
	return TK_OK;
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct tracedat_cpu_data *x = *(const struct tracedat_cpu_data *const *) a;
	const struct tracedat_cpu_data *y = *(const struct tracedat_cpu_data *const *) b;

	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* Every page of every CPU of buffer @bi, CPUs in increasing order as the writer wants them. */
static enum tk_status write_buffer(struct tracedat_writer *w, struct tracedat *td, size_t bi)
{
	const struct tracedat_buffer *b = &td->info.buffers[bi];
	const struct tracedat_cpu_data **order;
	enum tk_status st = TK_OK;
	size_t i;

	order = calloc(b->n_cpus + 1, sizeof(*order));
	if (!order)
		die("out of memory");
	for (i = 0; i < b->n_cpus; i++)
		order[i] = &b->cpus[i];
	if (b->n_cpus > 1)
		qsort(order, b->n_cpus, sizeof(*order), cmp_cpu);
	for (i = 0; st >= 0 && i < b->n_cpus; i++) {
		struct tracedat_pages *pr = NULL;
		const uint8_t *page;
		size_t size;

		st = tracedat_pages_open(td, bi, (size_t) (order[i] - b->cpus), &pr);
		if (st >= 0)
			st = tracedat_writer_cpu_begin(w, order[i]->cpu);
		while (st >= 0 && (st = tracedat_pages_next(pr, &page, &size)) == TK_OK)
			st = tracedat_writer_cpu_page(w, page, size);
		if (st >= 0)
			st = tracedat_writer_cpu_end(w);
		tracedat_pages_close(pr);
	}
	free(order);
	return st;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"file-version", required_argument, NULL, 'V'},
		{"compression", required_argument, NULL, 'C'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct tracedat_write_opts o = TRACEDAT_WRITE_OPTS_INIT;
	const struct tracedat_info *in;
	struct tracedat_writer *w = NULL;
	struct tracedat *td = NULL;
	const char *version = NULL, *comp = NULL;
	enum tk_status st;
	uint32_t cpus;
	size_t i, j;
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'V':
			version = optarg;
			break;
		case 'C':
			comp = optarg;
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
	if (comp && strcmp(comp, "none") && strcmp(comp, "zstd") && strcmp(comp, "zlib"))
		die("--compression must be none, zstd or zlib");

	tk_error_clear();
	if (tracedat_open(&td, argv[optind]) < 0)
		die_chain("Cannot read the input");
	in = &td->info;

	o.version = version ? (unsigned int) atoi(version) : (unsigned int) in->version;
	if (!comp && !version)
		comp = in->compression;
	o.comp = !comp || !strcmp(comp, "none") ? TRACEDAT_COMP_NONE
		 : !strcmp(comp, "zstd")	? TRACEDAT_COMP_ZSTD
		 : !strcmp(comp, "zlib")	? TRACEDAT_COMP_ZLIB
						: TRACEDAT_COMP_NONE;
	if (o.comp != TRACEDAT_COMP_NONE) {
		if (version && o.version == 6)
			die("version 6 files have no compression");
		o.version = 7;
	}
	o.bo = in->bo;
	o.long_size = in->header_long_size == 4 ? 4 : 8;
	o.page_size = in->page_size;
	cpus = in->cpus;
	for (i = 0; i < in->n_buffers; i++) {
		const struct tracedat_buffer *b = &in->buffers[i];

		if (b->latency)
			die("latency (text) buffers cannot be rewritten");
		if (b->page_size != o.page_size)
			die("buffers with a page size other than the file's cannot be rewritten");
		for (j = 0; j < b->n_cpus; j++)
			if (b->cpus[j].cpu >= cpus)
				cpus = b->cpus[j].cpu + 1;
	}

	st = tracedat_writer_open(&w, argv[optind + 1], &o);
	if (st >= 0)
		st = write_metadata(w, in);
	if (st >= 0)
		st = write_clock(w, in);
	for (i = 0; st >= 0 && i < in->n_options; i++)
		if (!writer_owned(in->options[i].id))
			st = tracedat_writer_add_option(w, in->options[i].id, in->options[i].data,
							in->options[i].size);
	if (st >= 0)
		st = tracedat_writer_set_cpus(w, cpus);
	for (i = 0; st >= 0 && i < in->n_buffers; i++) {
		if (i > 0)
			st = tracedat_writer_buffer_begin(w, in->buffers[i].name,
							  in->buffers[i].clock);
		if (st >= 0)
			st = write_buffer(w, td, i);
	}
	if (st >= 0) {
		st = tracedat_writer_close(w);
		w = NULL;
	}
	tracedat_writer_destroy(w);
	tracedat_close(td);
	if (st < 0)
		die_chain("Cannot rewrite the trace");
	return 0;
}
