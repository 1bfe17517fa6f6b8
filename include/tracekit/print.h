/* SPDX-License-Identifier: MIT */
/*
 * Text output of events.
 *
 * The babeltrace style reproduces `babeltrace2` (sink.text.pretty) byte for byte, options
 * included; the trace-cmd style reproduces `trace-cmd report` for trace.dat files, the perf
 * style `perf script` for perf.data files (tracepoint samples). The JSON
 * style writes one JSON object per event, for programs; the Chrome style a trace-event JSON
 * document for timeline viewers (chrome://tracing, Perfetto UI). Output goes through a large
 * buffer written to a file descriptor in big chunks.
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
struct tk_filter;

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
 * @TK_PRINT_NSEC: trace-cmd style, `report -t`: times with nanoseconds (perf style: `perf
 *                 script --ns`).
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
 * enum tk_print_style - Which tool's text to reproduce, or which JSON to write.
 * @TK_PRINT_STYLE_AUTO:       Each event in the style of its format's tool: babeltrace2 for
 *                             CTF, trace-cmd for trace.dat, perf script for perf.data.
 * @TK_PRINT_STYLE_BABELTRACE: `babeltrace2` for every event.
 * @TK_PRINT_STYLE_TRACECMD:   `trace-cmd report`'s layout (trace.dat and perf.data events).
 * @TK_PRINT_STYLE_JSON:       JSON lines: one object per event, described below.
 * @TK_PRINT_STYLE_CHROME:     A Chrome trace-event JSON document, described below.
 *
 * More styles are found by name with tk_print_style_find(): "perf" prints trace.dat and
 * perf.data events in `perf script`'s layout (the print fmt without trace-cmd's plugins);
 * "csv" and "tsv" write one row
 * per event and one column per field (a header row first: ts, cpu, event, lost, then the
 * top-level fields of the contexts and payloads of the event classes), for spreadsheets and
 * data frames; losses are rows whose event is "lost events" or "lost packets".
 *
 * The flags (enum tk_print_flags) do not apply to the JSON and Chrome styles, and both write
 * notices (tk_printer_print_notice()) to the event output, in line with the events.
 *
 * JSON lines: each event is one line holding one object; keys come in this order, optional
 * ones only when they apply:
 *
 *	"ts"             int64: nanoseconds from the clock's origin (the Unix epoch for most
 *	                 traces), tk_event_get_timestamp(); with "cycles", only when the event
 *	                 has a time (its stream has a clock)
 *	"cycles"         uint64: the raw clock value the time comes from
 *	"cpu"            int: the CPU the reader knows the event was recorded on (trace.dat);
 *	                 absent for CTF, whose CPU is a field (packet_context.cpu_id)
 *	"stream"         string: path of the data stream (a CTF stream file, the trace.dat file)
 *	"stream_class"   uint64: its stream class ID (trace.dat: 0, or the instance buffer's rank)
 *	"stream_id"      uint64: its stream ID (trace.dat: the CPU)
 *	"name"           string: the event class name, or null when it has none
 *	"common_fields"  object: trace.dat only: the common fields of the event's format
 *	                 (common_type, common_flags, common_preempt_count, common_pid)
 *	"packet_context" object: CTF packet context; trace.dat: {"cpu_id":N}
 *	"common_context" object: CTF stream event context, common to a stream's events
 *	"event_context"  object: CTF event-specific context
 *	"fields"         object: the payload, always present ({} when the event has none)
 *
 * The objects hold the fields the babeltrace style prints, under the same names, in the same
 * order: integers as decimal JSON numbers, exact at any size (unsigned values above 2^53
 * too: parse them as big integers); enumerations as {"value":N,"labels":["A",...]} with the
 * labels of every mapping that holds N ([] for none); floating-point numbers with enough
 * digits to read back the same double, integral ones as "N.0", NaN and infinities as the
 * strings "NaN", "Infinity" and "-Infinity"; strings and text arrays as JSON strings
 * (RFC 8259 escapes, control characters as \u00XX, well-formed UTF-8 copied, and each
 * maximal part of an ill-formed UTF-8 sequence replaced by \ufffd); arrays and sequences as
 * arrays; structures as objects; variants as the value of their selected option.
 *
 * Losses are objects of their own, told apart from events by their "lost" key: events a
 * trace.dat ring buffer lost before an event come just before it as
 * {"lost":N,"kind":"events","ts":T,"cpu":C,"stream":...,"stream_class":K,"stream_id":I}
 * (T is the time of that next event), and CTF notices as {"lost":N,"kind":"events" or
 * "packets","begin_ts":B,"end_ts":E,"stream":...} (begin_ts and end_ts when the range is
 * known). N is null when the number is unknown.
 *
 * Chrome: {"traceEvents":[...],"displayTimeUnit":"ns"} with one event per element, each with
 * "ph", "ts", "pid", "tid" and "name"; times are microseconds with three decimals (exact
 * nanoseconds). CPUs are threads of a process of their own, pid 4194304 ("CPUs", above every
 * Linux pid), CPU N being tid 4194305 + N ("CPU N") and an unknown CPU tid 4194304 ("CPU ?").
 * On a CPU's track, each sched_switch event starts a complete event ("ph":"X" with "dur")
 * named after next_comm, with args {"pid":next_pid}, which the next sched_switch on that CPU
 * ends; the last one ends at the latest time printed. Other events are thread-scoped instant
 * events ("ph":"i","s":"t") named after their class, with args holding what the JSON lines
 * style shows after "name" (common_fields, the scopes and "fields"); they go to the track of
 * their task, pid = tid = common_pid for trace.dat, tid from a tid or vtid context field and
 * pid from a pid or vpid one for CTF, or, for events of no task or of pid 0 (idle), to the
 * track of their CPU (trace.dat: the buffer's CPU; CTF: packet_context.cpu_id). Tasks are
 * named by "thread_name" (and, when pid = tid, "process_name") metadata events ("ph":"M",
 * "ts":0) after the first comm seen for them: comm/pid field pairs of any event (comm/pid,
 * prev_comm/prev_pid, next_comm/next_pid, child_comm/child_pid, parent_comm/parent_pid; _tid
 * for LTTng) or a trace.dat file's saved command lines; sched_process_exec (the base name
 * of filename, 15 bytes at most) and task_rename (newcomm) rename them. Losses are instant
 * events "lost events" or "lost packets" with args {"count":N} (null when unknown) on the
 * track of their CPU.
 */
enum tk_print_style {
	TK_PRINT_STYLE_AUTO,
	TK_PRINT_STYLE_BABELTRACE,
	TK_PRINT_STYLE_TRACECMD,
	TK_PRINT_STYLE_JSON,
	TK_PRINT_STYLE_CHROME,
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
 * tk_printer_set_filter() - Lay out the output for the events a filter keeps.
 * @printer: The printer, before tk_printer_begin().
 * @filter:  The filter the caller applies to the events it prints, or NULL (every class).
 *
 * Styles with one column per field (csv, tsv) make columns for the fields of the event
 * classes @filter may keep, not of every class. The printer does not filter: the caller
 * still asks tk_filter_match() about each event.
 * Ownership: @filter is borrowed until the printer is closed.
 */
TK_EXPORT void tk_printer_set_filter(struct tk_printer *printer, const struct tk_filter *filter);

/**
 * tk_print_style_find() - The style of a name, as the command line takes it.
 * @name: "auto", "babeltrace", "trace-cmd", "json", "chrome", "csv" or "tsv".
 *
 * Return: the style for struct tk_print_opts, or -1 for an unknown name.
 */
TK_EXPORT int tk_print_style_find(const char *name);

/**
 * tk_print_style_name() - The name of a style, or NULL past the last one.
 * @style: 0, 1, ... (enum tk_print_style, then the styles found by name).
 */
TK_EXPORT const char *tk_print_style_name(unsigned int style);

/**
 * tk_printer_open() - Create a printer of events as text or JSON (@opts->style).
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
 * In the trace-cmd style, the "cpus=N" line of each trace.dat file; in the Chrome style, the
 * start of the document (also written by the first event if this is not called); nothing
 * otherwise.
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
 * tk_printer_print() - Print one event as one line (Chrome style: one element, or none).
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
 * Pending event output is flushed first, so both outputs stay in order on a terminal. The
 * JSON and Chrome styles write the notice with the events instead (see enum tk_print_style).
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
 * In the Chrome style, the slices still running end and the document is closed first, so
 * the output is valid JSON even when reading the trace stopped at an error.
 * Return: TK_OK, or TK_ERR_IO when the final flush failed (the printer is freed anyway).
 * Ownership: @printer is invalid afterwards.
 */
TK_EXPORT enum tk_status tk_printer_close(struct tk_printer *printer);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_PRINT_H */
