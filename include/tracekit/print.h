/* SPDX-License-Identifier: MIT */
/*
 * Text output of events.
 *
 * The babeltrace style reproduces `babeltrace2` (sink.text.pretty) byte for byte, options
 * included; the trace-cmd style reproduces `trace-cmd report` for trace.dat files. Output goes
 * through a large buffer written to a file descriptor in big chunks.
 */
#ifndef TRACEKIT_PRINT_H
#define TRACEKIT_PRINT_H

#include <stddef.h>

#include <tracekit/export.h>
#include <tracekit/iter.h>
#include <tracekit/status.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tk_printer;

/**
 * enum tk_print_flags - Choices of the babeltrace text style (babeltrace2's option names).
 * @TK_PRINT_CLOCK_SECONDS: --clock-seconds: time as seconds.nanoseconds.
 * @TK_PRINT_CLOCK_CYCLES:  --clock-cycles: raw clock values.
 * @TK_PRINT_CLOCK_GMT:     --clock-gmt: time of day in UTC instead of local time.
 * @TK_PRINT_CLOCK_DATE:    --clock-date: print the date too.
 * @TK_PRINT_NO_DELTA:      --no-delta: no time since the previous event.
 * @TK_PRINT_NAMES_HEADER:  --names=header: name the header fields (timestamp, delta, ...).
 * @TK_PRINT_NAMES_SCOPE:   --names=scope: name the scopes (stream.packet.context, ...).
 * @TK_PRINT_NAMES_CONTEXT: --names=context: name the fields of context scopes.
 * @TK_PRINT_NAMES_PAYLOAD: --names=payload: name the payload fields.
 * @TK_PRINT_FIELD_TRACE:    --fields=trace: the trace name.
 * @TK_PRINT_FIELD_HOSTNAME: --fields=trace:hostname.
 * @TK_PRINT_FIELD_DOMAIN:   --fields=trace:domain.
 * @TK_PRINT_FIELD_PROCNAME: --fields=trace:procname.
 * @TK_PRINT_FIELD_VPID:     --fields=trace:vpid.
 * @TK_PRINT_FIELD_LOGLEVEL: --fields=loglevel.
 * @TK_PRINT_FIELD_EMF:      --fields=emf.
 * @TK_PRINT_FIELD_CALLSITE: --fields=callsite (accepted; CTF callsites are not printed).
 * @TK_PRINT_RAW:  trace-cmd style, `report -R`: event fields instead of the print format.
 * @TK_PRINT_NSEC: trace-cmd style, `report -t`: times with nanoseconds.
 * @TK_PRINT_DEFAULT: What `babeltrace2 TRACE` prints with no option (and `trace-cmd report`).
 */
enum tk_print_flags {
	TK_PRINT_CLOCK_SECONDS = 1u << 0,
	TK_PRINT_CLOCK_CYCLES = 1u << 1,
	TK_PRINT_CLOCK_GMT = 1u << 2,
	TK_PRINT_CLOCK_DATE = 1u << 3,
	TK_PRINT_NO_DELTA = 1u << 4,
	TK_PRINT_NAMES_HEADER = 1u << 8,
	TK_PRINT_NAMES_SCOPE = 1u << 9,
	TK_PRINT_NAMES_CONTEXT = 1u << 10,
	TK_PRINT_NAMES_PAYLOAD = 1u << 11,
	TK_PRINT_FIELD_TRACE = 1u << 16,
	TK_PRINT_FIELD_HOSTNAME = 1u << 17,
	TK_PRINT_FIELD_DOMAIN = 1u << 18,
	TK_PRINT_FIELD_PROCNAME = 1u << 19,
	TK_PRINT_FIELD_VPID = 1u << 20,
	TK_PRINT_FIELD_LOGLEVEL = 1u << 21,
	TK_PRINT_FIELD_EMF = 1u << 22,
	TK_PRINT_FIELD_CALLSITE = 1u << 23,
	TK_PRINT_RAW = 1u << 24,
	TK_PRINT_NSEC = 1u << 25,
	TK_PRINT_DEFAULT = TK_PRINT_NAMES_PAYLOAD | TK_PRINT_NAMES_CONTEXT |
			   TK_PRINT_FIELD_HOSTNAME | TK_PRINT_FIELD_PROCNAME | TK_PRINT_FIELD_VPID,
};

/**
 * enum tk_print_style - Which tool's text to reproduce.
 * @TK_PRINT_STYLE_AUTO:       Each event in the style of its format's tool: babeltrace2 for
 *                             CTF, trace-cmd for trace.dat.
 * @TK_PRINT_STYLE_BABELTRACE: `babeltrace2` for every event.
 * @TK_PRINT_STYLE_TRACECMD:   `trace-cmd report` (trace.dat events only).
 */
enum tk_print_style {
	TK_PRINT_STYLE_AUTO,
	TK_PRINT_STYLE_BABELTRACE,
	TK_PRINT_STYLE_TRACECMD,
};

/**
 * struct tk_print_opts - Options of tk_printer_open().
 * @size:   sizeof(struct tk_print_opts), set by TK_PRINT_OPTS_INIT.
 * @flags:  A combination of enum tk_print_flags.
 * @out_fd: Where events go (default 1).
 * @err_fd: Where notices about lost events go (default 2).
 * @style:  An enum tk_print_style (default TK_PRINT_STYLE_AUTO).
 */
struct tk_print_opts {
	size_t size;
	unsigned int flags;
	int out_fd;
	int err_fd;
	unsigned int style;
};

#define TK_PRINT_OPTS_INIT                                                                         \
	{                                                                                          \
		sizeof(struct tk_print_opts), TK_PRINT_DEFAULT, 1, 2, TK_PRINT_STYLE_AUTO          \
	}

/**
 * tk_printer_open() - Create a text printer in babeltrace2's style.
 * @out:  Set to the new printer on success.
 * @opts: Options, or NULL for the defaults.
 *
 * Return: TK_OK, or a negative status with its causes in the error chain.
 * Ownership: @opts is borrowed for the call. *@out belongs to the caller, who releases it with
 * tk_printer_close(). The file descriptors stay open and owned by the caller.
 */
TK_EXPORT enum tk_status tk_printer_open(struct tk_printer **out, const struct tk_print_opts *opts);

/**
 * tk_printer_begin() - Print what comes before the events of @trace.
 * @printer: A printer.
 * @trace:   The trace whose events follow.
 *
 * In the trace-cmd style, the "cpus=N" line of each trace.dat file; nothing otherwise.
 * Return: TK_OK, or TK_ERR_IO when writing failed.
 * Ownership: @trace is borrowed for the call.
 */
TK_EXPORT enum tk_status tk_printer_begin(struct tk_printer *printer, const struct tk_trace *trace);

/**
 * tk_printer_print_formats() - Print the event formats of the trace.dat files of @trace.
 * @printer: A printer.
 * @trace:   A trace.
 *
 * As `trace-cmd report --events` prints them for version 6 files: for each system,
 * "\nsystem: NAME\n", then each format file followed by a newline.
 * Return: TK_OK, or TK_ERR_IO when writing failed.
 * Ownership: @trace is borrowed for the call.
 */
TK_EXPORT enum tk_status tk_printer_print_formats(struct tk_printer *printer,
						  const struct tk_trace *trace);

/**
 * tk_printer_print() - Print one event as one line.
 * @printer: A printer.
 * @ev:      An event.
 *
 * Return: TK_OK, or TK_ERR_IO when writing failed.
 * Ownership: @ev is borrowed for the call.
 */
TK_EXPORT enum tk_status tk_printer_print(struct tk_printer *printer, const struct tk_event *ev);

/**
 * tk_printer_print_notice() - Print a notice as babeltrace2's warning line, on the error fd.
 * @printer: A printer.
 * @notice:  A notice.
 *
 * Pending event output is flushed first, so both outputs stay in order on a terminal.
 * Return: TK_OK, or TK_ERR_IO when writing failed.
 * Ownership: @notice is borrowed for the call.
 */
TK_EXPORT enum tk_status tk_printer_print_notice(struct tk_printer *printer,
						 const struct tk_notice *notice);

/**
 * tk_printer_flush() - Write buffered output.
 * @printer: A printer.
 *
 * Return: TK_OK, or TK_ERR_IO when writing failed.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_printer_flush(struct tk_printer *printer);

/**
 * tk_printer_close() - Flush and free a printer.
 * @printer: A printer, or NULL.
 *
 * Return: TK_OK, or TK_ERR_IO when the final flush failed (the printer is freed anyway).
 * Ownership: @printer is invalid afterwards.
 */
TK_EXPORT enum tk_status tk_printer_close(struct tk_printer *printer);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_PRINT_H */
