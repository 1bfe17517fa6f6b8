// SPDX-License-Identifier: MIT
/*
 * perf-dump FILE: the samples of a perf.data file (file or pipe mode) as the perf.data
 * container reader (src/perf/perfdata.c) reads them, one line each:
 *
 *	<pid> <tid> <cpu> <time in ns> <event name>
 *
 * then "samples=N other=M formats=F" on stderr. A tracepoint's name is "system:event" of the
 * ftrace format its attribute's config names in the file's tracing data (read by
 * tracedat_open_tracing_data() and the ftrace format parser), else the attribute's name from
 * the file's event descriptions, else "config=N". tests/interop/perf-samples.sh compares the lines with
 * what `perf script` prints for the same file. Exit status 1, with the reader's error, when
 * the file does not read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/mfile.h"
#include "ftrace/ftrace.h"
#include "perf/perfdata.h"
#include "tracedat/tracedat.h"

static int fail(const char *path)
{
	char buf[1024];

	error_format(0, buf, sizeof(buf));
	fprintf(stderr, "perf-dump: %s: %s\n", path, buf);
	return 1;
}

/*
 * The formats of the tracing data into @ctx; 0, or -1 (and the reader's error) when the file
 * has tracing data that does not read.
 */
static int load_formats(const struct perfdata *pd, struct ftrace_ctx *ctx)
{
	const struct tracedat_info *in;
	struct tracedat *td;
	const uint8_t *p;
	size_t len, i, j;

	p = perfdata_tracing_data(pd, &len);
	if (!p)
		return 0;
	if (tracedat_open_tracing_data(&td, p, len) < 0)
		return -1;
	in = &td->info;
	for (i = 0; i < in->n_systems; i++)
		for (j = 0; j < in->systems[i].n_formats; j++)
			if (ftrace_event_parse(ctx, in->systems[i].name,
					       (const char *) in->systems[i].formats[j].data,
					       in->systems[i].formats[j].len, NULL) < 0)
				error_reset();
	(void) ftrace_ctx_finish(ctx);
	tracedat_close(td); /* the context keeps its own copies of the texts it uses */
	return 0;
}

int main(int argc, char **argv)
{
	struct perfdata *pd = NULL;
	struct perfdata_cursor c;
	struct perf_record r;
	struct perf_sample s;
	struct mfile f;
	uint64_t samples = 0, other = 0;
	const struct ftrace_event *fev;
	struct ftrace_ctx ctx;
	size_t n_formats;
	enum tk_status st;

	if (argc != 2) {
		fprintf(stderr, "usage: perf-dump FILE\n");
		return 2;
	}
	mfile_init(&f);
	if (mfile_open(&f, argv[1]) < 0 || perfdata_open(&pd, f.data, f.size) < 0)
		return fail(argv[1]);
	ftrace_ctx_init(&ctx, perfdata_byte_order(pd));
	if (load_formats(pd, &ctx) < 0) {
		fail(argv[1]);
		ftrace_ctx_fini(&ctx);
		perfdata_close(pd);
		mfile_close(&f);
		return 1;
	}
	n_formats = ctx.n_events;
	perfdata_cursor_init(pd, &c);
	while ((st = perfdata_cursor_next(&c, &r)) == TK_OK) {
		if (r.type != PERF_RECORD_SAMPLE) {
			other++;
			continue;
		}
		if (perfdata_sample(pd, &r, &s) < 0)
			break;
		samples++;
		printf("%" PRId32 " %" PRId32 " %" PRIu32 " %" PRIu64 " ", (int32_t) s.pid,
		       (int32_t) s.tid, s.cpu, s.time);
		fev = s.attr->type == PERF_TYPE_TRACEPOINT && s.attr->config <= UINT32_MAX
			      ? ftrace_event_find(&ctx, (uint32_t) s.attr->config)
			      : NULL;
		if (fev)
			printf("%s:%s\n", fev->system, fev->name);
		else if (s.attr->name)
			printf("%.*s\n", (int) s.attr->name_len, s.attr->name);
		else
			printf("config=%" PRIu64 "\n", s.attr->config);
	}
	fprintf(stderr, "samples=%" PRIu64 " other=%" PRIu64 " formats=%zu\n", samples, other,
		n_formats);
	ftrace_ctx_fini(&ctx);
	if (st < 0 || (st == TK_OK && r.type == PERF_RECORD_SAMPLE)) {
		int rc = fail(argv[1]);

		perfdata_close(pd);
		mfile_close(&f);
		return rc;
	}
	perfdata_close(pd);
	mfile_close(&f);
	return 0;
}
