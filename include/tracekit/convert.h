/* SPDX-License-Identifier: MIT */
/*
 * Converting traces: any input tracekit reads into trace.dat, CTF, JSON lines or Chrome
 * trace-event JSON, with a selection of events and a time window. A trace.dat file converted
 * to CTF and back gives the same events, times and field values (doc/format-tracedat.md
 * section 9 says what else is kept).
 *
 *	struct tk_convert_opts o = TK_CONVERT_OPTS_INIT;
 *	const char *in[] = {"trace.dat"};
 *	o.to = TK_CONVERT_DAT; o.file_version = 6;
 *	st = tk_convert(in, 1, "trace-v6.dat", &o);
 */
#ifndef TRACEKIT_CONVERT_H
#define TRACEKIT_CONVERT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <tracekit/export.h>
#include <tracekit/filter.h>
#include <tracekit/status.h>
#include <tracekit/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum tk_convert_format - What to write.
 * @TK_CONVERT_AUTO:   From the output's name: "*.dat" trace.dat, "*.jsonl" or "*.ndjson"
 *                     JSON lines, "*.json" Chrome trace-event JSON, "*.csv" CSV, "*.tsv"
 *                     or "*.tab" TSV, "*.ctf", a name without extension or an existing
 *                     directory a CTF trace directory; any other extension fails with
 *                     TK_ERR_INVAL.
 * @TK_CONVERT_DAT:    A trace-cmd trace.dat file: from one trace.dat input, that file
 *                     re-encoded (pages copied, or with TK_CONVERT_GENERIC every record
 *                     rebuilt from its values); from CTF, the trace.dat file a CTF trace was converted
 *                     from (its ftrace metadata travels in the CTF environment), else
 *                     ftrace formats made from the CTF event classes.
 * @TK_CONVERT_CTF:    A CTF 1.8 trace directory (from a trace.dat input), or from CTF
 *                     inputs one CTF 1.8 trace per input trace: the output directory
 *                     itself for a lone trace, else a directory per trace named after
 *                     its path within its input, so that readers print the output as
 *                     they print the input (with nothing selected, the input trace's
 *                     files copied as they are, once read whole); inputs of several
 *                     formats (or several trace.dat files) are merged into one CTF trace
 *                     with one nanosecond clock.
 * @TK_CONVERT_JSON:   JSON lines, one object per event (as `tracekit print --style json`).
 * @TK_CONVERT_CHROME: Chrome trace-event JSON (as `tracekit print --style chrome`).
 *
 * TK_CONVERT_STYLE(style) writes any style of the printer (tk_print_style_find()), as
 * `tracekit print --style` prints it: TK_CONVERT_STYLE(tk_print_style_find("csv")) for CSV.
 */
enum tk_convert_format {
	TK_CONVERT_AUTO,
	TK_CONVERT_DAT,
	TK_CONVERT_CTF,
	TK_CONVERT_JSON,
	TK_CONVERT_CHROME,
};

#define TK_CONVERT_STYLE(style) (256u + (unsigned int) (style))

/**
 * typedef tk_progress_cb - Told how far a conversion is, now and then (a few times a second
 * at most), and once more at the end of a successful conversion that counted events.
 * @done:    Units done: input bytes for trace.dat output, events otherwise.
 * @total:   Units in all, or 0 when unknown.
 * @payload: The caller's pointer.
 */
typedef void (*tk_progress_cb)(uint64_t done, uint64_t total, void *payload);

/**
 * struct tk_convert_opts - Options of tk_convert().
 * @size:         sizeof(struct tk_convert_opts), set by TK_CONVERT_OPTS_INIT.
 * @to:           An enum tk_convert_format.
 * @events:       Event specs (@n_events of them; none: every event): "all", "SYSTEM",
 *                "SYSTEM:EVENT", "EVENT", globs allowed, as `tracekit record -e` takes them.
 * @n_events:     Number of @events.
 * @has_begin:    Nonzero to drop events before @begin_ns.
 * @begin_ns:     Start of the time window, in the nanoseconds tk_event_get_timestamp() gives.
 * @has_end:      Nonzero to drop events after @end_ns.
 * @end_ns:       End of the time window (included).
 * @file_version: trace.dat output: 6 or 7; 0 keeps the input's (the original file's for
 *                CTF converted from trace.dat, else 7).
 * @compression:  trace.dat output: "none", "zstd" or "zlib"; NULL keeps the input's (else
 *                "zstd" for version 7, as trace-cmd records).
 * @progress:     Called now and then with the progress, or NULL.
 * @payload:      Passed to @progress.
 * @warning:      Called for each problem read past when opening the inputs (see
 *                tk_trace_opts), and for each choice that changes the output (a trace.dat
 *                file written in pages larger than 4 KiB to hold its largest record), or
 *                NULL.
 * @warning_payload: Passed to @warning.
 * @filter:       The selection as `tracekit print` takes it (time window with dates and
 *                times of day, events, pids, comms, CPUs), checked against the inputs as
 *                tk_filter_create() does; NULL for none. @events, @has_begin and @has_end
 *                still apply when @filter leaves that part open.
 * @stop:         A flag the caller sets, from a signal handler for instance, to stop the
 *                conversion: tk_convert() then returns TK_ERR_CANCELED soon after and leaves
 *                nothing behind (no output, no temporary); NULL for none.
 * @flags:        TK_CONVERT_* flags (below), 0 for none.
 */
struct tk_convert_opts {
	size_t size;
	unsigned int to;
	const char *const *events;
	size_t n_events;
	int has_begin;
	int64_t begin_ns;
	int has_end;
	int64_t end_ns;
	unsigned int file_version;
	const char *compression;
	tk_progress_cb progress;
	void *payload;
	tk_warning_cb warning;
	void *warning_payload;
	const struct tk_filter_opts *filter;
	const volatile sig_atomic_t *stop;
	unsigned int flags;
};

/*
 * TK_CONVERT_GENERIC: take the generic path (every event decoded and given to the output's
 * writer) even where a shortcut applies (trace.dat pages copied untouched, trace.dat to CTF
 * by per-class copy plans, CTF traces copied file by file to CTF when nothing is selected).
 * The output says the same; for tests, and for comparing.
 */
#define TK_CONVERT_GENERIC 0x1u

#define TK_CONVERT_OPTS_INIT                                                                       \
	{                                                                                          \
		.size = sizeof(struct tk_convert_opts)                                             \
	}

/**
 * tk_convert() - Convert traces into one output.
 * @inputs:   Paths, as tk_trace_open() takes them (@n_inputs of them).
 * @n_inputs: Number of @inputs.
 * @output:   The file or directory to write (replaced if it exists and is a file; a CTF
 *            directory must not exist or be empty).
 * @opts:     Options, or NULL for the defaults.
 *
 * Return: TK_OK; TK_ERR_UNSUPPORTED for a pairing tracekit cannot convert (its cause says
 * which); or another error with causes, and then no output is left behind.
 * Ownership: Everything is borrowed for the call.
 */
TK_EXPORT enum tk_status tk_convert(const char *const *inputs, size_t n_inputs, const char *output,
				    const struct tk_convert_opts *opts);

struct tk_print_opts;

/**
 * tk_print() - Print the events of traces: the pipeline of tk_convert() into the printer.
 * @inputs:   Paths, as tk_trace_open() takes them (@n_inputs of them).
 * @n_inputs: Number of @inputs.
 * @popts:    The printer's options (struct tk_print_opts in <tracekit/print.h>: style,
 *            flags, @out_fd for the events, @err_fd for notices), or NULL for the defaults.
 * @copts:    The selection (@filter, @events, the time window), @progress with its
 *            @payload (counting events printed), @warning and @stop of a conversion; its
 *            other members are not used. NULL for none.
 *
 * The events go to @popts->out_fd as they come: a failure to read leaves every event before
 * it printed. Losses before an event the selection leaves out are left out with it in the
 * text of babeltrace2 and trace-cmd (as `trace-cmd report -F` does) and go with the next
 * event kept in the same stream in JSON, Chrome JSON, CSV and TSV.
 *
 * Return: TK_OK, or the failure with its causes: opening the inputs, the selection ("Cannot
 * read trace" for what came while reading, "Cannot write output" for the output).
 * Ownership: Everything is borrowed for the call.
 */
TK_EXPORT enum tk_status tk_print(const char *const *inputs, size_t n_inputs,
				  const struct tk_print_opts *popts,
				  const struct tk_convert_opts *copts);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_CONVERT_H */
