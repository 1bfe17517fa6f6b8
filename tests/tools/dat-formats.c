// SPDX-License-Identifier: MIT
/*
 * dat-formats: writes every event format of trace.dat files as seeds of the ftrace-format fuzz
 * harness (tests/fuzz/fuzz-ftrace-format.c: a mode byte, 0 for system "ftrace" and 1 for any
 * other, then the text), so that its replay reads real kernels' formats both ways (the usual
 * line reader and the general one) and traps on any difference. tests/cli/format-lines.sh
 * runs it.
 *
 * Usage: dat-formats OUTDIR FILE.dat...
 */
#include <stdio.h>
#include <string.h>

#include "tracedat/tracedat.h"

static int n_written;

static int write_seed(const char *dir, int ftrace, const struct tracedat_blob *b)
{
	char path[4096];
	FILE *f;
	unsigned char mode = ftrace ? 0 : 1;

	snprintf(path, sizeof(path), "%s/format-%06d", dir, n_written++);
	f = fopen(path, "wb");
	if (!f || fwrite(&mode, 1, 1, f) != 1 ||
	    (b->len && fwrite(b->data, 1, b->len, f) != b->len) || fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: dat-formats OUTDIR FILE.dat...\n");
		return 2;
	}
	for (i = 2; i < argc; i++) {
		struct tracedat *td = NULL;
		const struct tracedat_info *in;
		size_t s, k;

		if (tracedat_open(&td, argv[i]) < 0) {
			fprintf(stderr, "dat-formats: cannot open %s\n", argv[i]);
			return 1;
		}
		in = &td->info;
		for (k = 0; k < in->n_ftrace_formats; k++)
			if (write_seed(argv[1], 1, &in->ftrace_formats[k]) < 0)
				return 1;
		for (s = 0; s < in->n_systems; s++)
			for (k = 0; k < in->systems[s].n_formats; k++)
				if (write_seed(argv[1], 0, &in->systems[s].formats[k]) < 0)
					return 1;
		tracedat_close(td);
	}
	printf("%d formats\n", n_written);
	return 0;
}
