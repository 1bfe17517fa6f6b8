// SPDX-License-Identifier: MIT
/*
 * perf-dump FILE: the samples of a perf.data file (file or pipe mode) as the perf.data
 * container reader (src/perf/perfdata.c) reads them, one line each:
 *
 *	<pid> <tid> <cpu> <time in ns> <event name, or "config=N">
 *
 * then "samples=N other=M" on stderr. tests/interop/perf-samples.sh compares the lines with
 * what `perf script` prints for the same file. Exit status 1, with the reader's error, when
 * the file does not read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/mfile.h"
#include "perf/perfdata.h"

static int fail(const char *path)
{
	char buf[1024];

	error_format(0, buf, sizeof(buf));
	fprintf(stderr, "perf-dump: %s: %s\n", path, buf);
	return 1;
}

int main(int argc, char **argv)
{
	struct perfdata *pd = NULL;
	struct perfdata_cursor c;
	struct perf_record r;
	struct perf_sample s;
	struct mfile f;
	uint64_t samples = 0, other = 0;
	enum tk_status st;

	if (argc != 2) {
		fprintf(stderr, "usage: perf-dump FILE\n");
		return 2;
	}
	mfile_init(&f);
	if (mfile_open(&f, argv[1]) < 0 || perfdata_open(&pd, f.data, f.size) < 0)
		return fail(argv[1]);
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
		if (s.attr->name)
			printf("%.*s\n", (int) s.attr->name_len, s.attr->name);
		else
			printf("config=%" PRIu64 "\n", s.attr->config);
	}
	fprintf(stderr, "samples=%" PRIu64 " other=%" PRIu64 "\n", samples, other);
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
