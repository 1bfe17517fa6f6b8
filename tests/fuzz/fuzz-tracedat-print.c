// SPDX-License-Identifier: MIT
/*
 * End-to-end fuzz harness for trace.dat files: what `tracekit print FILE.dat` does, from
 * memory. The input is a whole trace.dat file (v6 or v7, any byte order and long size, plain
 * or compressed). It is opened as a source (container, event formats, kallsyms, printk
 * formats, command lines, options), indexed as a trace, and every event of the time-ordered
 * merge of its CPUs is printed five times into /dev/null: in trace-cmd's style (the
 * "cpus=N" prologue, print formats run on the record), in trace-cmd's raw style (`report -R
 * -t`: fields instead of the print format), in babeltrace2's style with every field named
 * (the record decoded through the model's field classes), as JSON lines (common fields read
 * from the record) and as a Chrome trace (tracks and slices from fields found by name). The
 * event formats are printed too (`print --events`). It must never crash, hang or leak; work
 * per input is capped.
 *
 * Seeds (corpus/tracedat-print): gen-dat files in each encoding (v6 and v7; none, zstd and
 * zlib; LE and BE; long size 8 and 4; lost events; instances; raw and nanosecond clocks; a
 * 64 KiB sub-buffer), the uncompressed ones compacted below 16 KiB (each CPU's data right
 * after the metadata and ending after the last record used, as a short last page, with the
 * offsets and sizes patched), and a few cut or flipped copies; crash-* files reproduce bugs
 * found here.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracekit/tracekit.h>

#include "common/error.h"
#include "model/model.h"
#include "tracedat/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { N_PRINTERS = 5 };

static int devnull = -1;

static void print_notice(const struct tk_notice *n, void *payload)
{
	tk_printer_print_notice(payload, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int flags[N_PRINTERS] = {
		TK_PRINT_DEFAULT,
		TK_PRINT_DEFAULT | TK_PRINT_RAW | TK_PRINT_NSEC,
		TK_PRINT_DEFAULT | TK_PRINT_NAMES_HEADER | TK_PRINT_NAMES_SCOPE |
			TK_PRINT_FIELD_TRACE | TK_PRINT_FIELD_LOGLEVEL | TK_PRINT_FIELD_EMF |
			TK_PRINT_FIELD_DOMAIN,
		TK_PRINT_DEFAULT,
		TK_PRINT_DEFAULT,
	};
	static const unsigned int styles[N_PRINTERS] = {
		TK_PRINT_STYLE_AUTO, TK_PRINT_STYLE_TRACECMD, TK_PRINT_STYLE_BABELTRACE,
		TK_PRINT_STYLE_JSON, TK_PRINT_STYLE_CHROME,
	};
	struct tk_source *src = NULL;
	struct tk_trace trace;
	struct tk_iter *it = NULL;
	struct tk_printer *pr[N_PRINTERS] = {NULL};
	const struct tk_event *ev;
	unsigned int events = 0, i;
	int64_t seek = 0;
	int has_seek = 0;

	if (size > (4u << 20))
		return 0;
	if (devnull < 0)
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	error_reset();
	if (tracedat_source_open_mem(&src, data, size, "(memory)") < 0)
		return 0;
	memset(&trace, 0, sizeof(trace));
	trace.sources = &src;
	trace.n_sources = 1;
	if (model_trace_finish(&trace) < 0)
		goto out;
	for (i = 0; i < N_PRINTERS; i++) {
		struct tk_print_opts po = TK_PRINT_OPTS_INIT;

		po.flags = flags[i];
		po.style = styles[i];
		po.out_fd = devnull;
		po.err_fd = devnull;
		if (tk_printer_open(&pr[i], &po) < 0)
			goto out;
	}
	(void) tk_printer_print_formats(pr[0], &trace);
	if (tk_iter_create(&it, &trace) < 0)
		goto out;
	tk_iter_set_notice_cb(it, print_notice, pr[2]);
	for (i = 0; i < N_PRINTERS; i++)
		(void) tk_printer_begin(pr[i], &trace);
	/* bounded work per input: the fuzzer looks for crashes, not long traces */
	while (events++ < 20000 && tk_iter_next(it, &ev) == TK_OK) {
		if (events == 1 + size % 64) {
			has_seek = 1;
			seek = ev->ns;
		}
		for (i = 0; i < N_PRINTERS; i++)
			(void) tk_printer_print(pr[i], ev);
	}
	/* the same again through a time window, which seeks to its pages */
	tk_iter_destroy(it);
	it = NULL;
	if (has_seek && tk_iter_create(&it, &trace) == TK_OK) {
		model_iter_set_window(it, 1, seek, 1, seek + (INT64_C(1) << 24));
		for (events = 0; events++ < 20000 && tk_iter_next(it, &ev) == TK_OK;)
			(void) tk_printer_print(pr[3], ev);
	}
out:
	tk_iter_destroy(it);
	for (i = 0; i < N_PRINTERS; i++)
		tk_printer_close(pr[i]);
	free(trace.streams);
	free(trace.ecs);
	src->ops->destroy(src);
	return 0;
}
