/* SPDX-License-Identifier: MIT */
/*
 * Recording kernel events through tracefs into a trace.dat file.
 *
 * A recording owns a tracefs buffer (a private instance "tracekit-PID" by default), the
 * settings it changed there, and one reader thread per CPU. Whatever happens -- success, an
 * error, or a signal the caller caught -- tk_recording_close() puts every tracefs setting it
 * changed back and removes the instance it made.
 *
 *	struct tk_record_opts o = TK_RECORD_OPTS_INIT;
 *	const char *events[] = {"sched", "irq"};
 *	o.events = events; o.n_events = 2; o.output = "trace.dat";
 *	st = tk_recording_open(&rec, &o);        (tracefs set up, nothing recorded yet)
 *	st = tk_recording_start(rec);            (readers running, tracing on)
 *	... the workload; or wait for a signal ...
 *	st = tk_recording_stop(rec);             (tracing off, buffers drained)
 *	st = tk_recording_write(rec);            (trace.dat written)
 *	tk_recording_close(rec);                 (tracefs restored, instance removed, freed)
 *
 * Not thread-safe; call every function from one thread. Signals are the caller's business:
 * the reader threads block them all.
 */
#ifndef TRACEKIT_RECORD_H
#define TRACEKIT_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <tracekit/export.h>
#include <tracekit/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct tk_record_filter - A kernel filter for some events.
 * @events: An event spec, as in &tk_record_opts.events ("sched:sched_switch", "irq*").
 * @filter: The filter expression ("prev_pid > 0", "common_pid != 0 && irq == 24").
 */
struct tk_record_filter {
	const char *events;
	const char *filter;
};

/**
 * enum tk_record_probe_kind - What a dynamic probe is put on.
 * @TK_RECORD_KPROBE:     A kernel function or address (kprobe_events "p:").
 * @TK_RECORD_KRETPROBE:  A kernel function's return (kprobe_events "r:").
 * @TK_RECORD_UPROBE:     An offset in an executable file (uprobe_events "p:").
 * @TK_RECORD_URETPROBE:  The return of the function at that offset (uprobe_events "r:").
 */
enum tk_record_probe_kind {
	TK_RECORD_KPROBE,
	TK_RECORD_KRETPROBE,
	TK_RECORD_UPROBE,
	TK_RECORD_URETPROBE,
};

/**
 * struct tk_record_probe - A dynamic probe, added for the recording and removed after it.
 * @kind: Where it goes.
 * @spec: "NAME=WHERE [ARGS...]": the event is tracekit:NAME; WHERE is SYMBOL[+OFFSET] or an
 *        address for kprobes, PATH:OFFSET for uprobes; ARGS are fetch arguments as the
 *        kernel's kprobetrace.rst and uprobetracer.rst describe ("dfd=%di", "ret=$retval").
 */
struct tk_record_probe {
	enum tk_record_probe_kind kind;
	const char *spec;
};

/**
 * struct tk_record_opts - What to record and how.
 * @size:         sizeof(struct tk_record_opts), set by TK_RECORD_OPTS_INIT.
 * @events:       Event specs, @n_events of them (at least one): "all", "SYSTEM",
 *                "SYSTEM:EVENT", "EVENT", each part possibly a glob.
 * @n_events:     Number of @events.
 * @filters:      Filters, @n_filters of them, each applied to the events it names.
 * @n_filters:    Number of @filters.
 * @buffer_kib:   Ring-buffer size per CPU in KiB; 0 leaves it as it is.
 * @clock:        Trace clock ("local", "global", "mono", "boot", ...); NULL leaves it.
 *                "x86-tsc" (or trace-cmd's name "tsc2nsec") records the raw TSC and saves
 *                how to turn it into nanoseconds (the TSC2NSEC option, as `trace-cmd record
 *                -C tsc2nsec`): the kernel's conversion (perf), or where it gives none and
 *                its clocksource is the TSC, one measured against CLOCK_MONOTONIC_RAW over
 *                100 ms. The file's clock is then "tsc2nsec".
 * @instance:     Record in this named instance (made if missing, removed at close only if
 *                made); NULL for a private instance "tracekit-PID", unless @top.
 * @top:          Record in the top-level buffer instead of an instance.
 * @output:       The trace.dat file to write ("trace.dat" when NULL).
 * @file_version: 6 or 7.
 * @compression:  "none", "zstd" or "zlib" (version 7 only).
 * @date:         Nonzero to add a DATE option (as trace-cmd record --date): readers then
 *                show wall-clock times; found through a marker written at the start.
 * @tracer:       A tracer to run ("function", "function_graph", ...; trace-cmd's -p), or NULL.
 *                With a private instance, when the kernel runs it only in the top-level
 *                buffer (function_graph before 6.x kernels), the top-level buffer is used
 *                instead, as trace-cmd does (tk_recording_get_instance() tells).
 * @functions:    Functions (names or globs) the function tracers trace, @n_functions of
 *                them; none: all (set_ftrace_filter, trace-cmd's -l).
 * @n_functions:  Number of @functions.
 * @notrace:      Functions they do not trace, @n_notrace of them (set_ftrace_notrace, -n).
 * @n_notrace:    Number of @notrace.
 * @graph_functions: Functions function_graph starts its graphs at (set_graph_function, -g).
 * @n_graph_functions: Number of @graph_functions.
 * @max_graph_depth: Depth function_graph stops at (max_graph_depth); 0 leaves it.
 * @trace_options: Trace options to set, "NAME" to turn on, "noNAME" off (options/NAME,
 *                trace-cmd's -O), @n_trace_options of them.
 * @n_trace_options: Number of @trace_options.
 * @probes:       Dynamic probes to add and record, @n_probes of them.
 * @n_probes:     Number of @probes.
 * @date_offset_ns: With @date, the offset to save (CLOCK_REALTIME less the trace clock, in
 *                nanoseconds; kept in microseconds, as trace-cmd keeps it) instead of the one
 *                a marker measures: for a "mono" recording merged with another recording of
 *                CLOCK_MONOTONIC given the same offset (`tracekit record --ust`), so that
 *                both give the same times. 0: measure it (on x86-tsc, from the TSC and
 *                CLOCK_REALTIME read together when the recording is opened).
 *
 * @events may be empty when @tracer or @probes give something to record.
 */
struct tk_record_opts {
	size_t size;
	const char *const *events;
	size_t n_events;
	const struct tk_record_filter *filters;
	size_t n_filters;
	unsigned long buffer_kib;
	const char *clock;
	const char *instance;
	int top;
	const char *output;
	unsigned int file_version;
	const char *compression;
	int date;
	const char *tracer;
	const char *const *functions;
	size_t n_functions;
	const char *const *notrace;
	size_t n_notrace;
	const char *const *graph_functions;
	size_t n_graph_functions;
	unsigned int max_graph_depth;
	const char *const *trace_options;
	size_t n_trace_options;
	const struct tk_record_probe *probes;
	size_t n_probes;
	int64_t date_offset_ns;
};

#define TK_RECORD_OPTS_INIT                                                                        \
	{                                                                                          \
		.size = sizeof(struct tk_record_opts), .file_version = 7, .compression = "zstd"    \
	}

/**
 * struct tk_record_cpu_stats - One CPU of a finished recording.
 * @cpu:            CPU number.
 * @bytes:          Bytes of ring-buffer pages recorded.
 * @entries:        Events still in the ring buffer when recording stopped (normally 0).
 * @overrun:        Events the kernel overwrote before they were read: lost.
 * @commit_overrun: Events lost inside a commit (an interrupt storm); lost.
 * @dropped:        Events the kernel dropped because the buffer was full (no-overwrite
 *                  mode); lost.
 * @read:           Events the kernel handed to the reader.
 */
struct tk_record_cpu_stats {
	uint32_t cpu;
	uint64_t bytes;
	uint64_t entries;
	uint64_t overrun;
	uint64_t commit_overrun;
	uint64_t dropped;
	uint64_t read;
};

struct tk_recording;

/**
 * tk_recording_open() - Prepare a recording: find tracefs (mounting it when it is not, as
 * root), make or open the buffer, add the probes, enable the events, set filters, the
 * function lists, options and tracer, buffer size and clock, empty the buffer.
 * @out:  Set to the recording on success; left unchanged on failure.
 * @opts: What to record.
 *
 * Return: TK_OK; TK_ERR_NOTFOUND for no tracefs, an event spec that matches nothing or a
 * tracer or option the kernel lacks; TK_ERR_INVAL for a filter, function or probe the kernel
 * refuses (its error_log lines are causes) or bad options; TK_ERR_UNSUPPORTED for probes a
 * kernel cannot make; TK_ERR_IO when tracefs cannot be written (not root, or a kernel that
 * refuses function tracing, errno in the cause). On failure every setting already changed is
 * restored and every probe added is removed.
 * Ownership: @opts is borrowed for the call. *@out belongs to the caller, who releases it with
 * tk_recording_close().
 */
TK_EXPORT enum tk_status tk_recording_open(struct tk_recording **out,
					   const struct tk_record_opts *opts);

/**
 * tk_recording_set_pids() - Record only the events of these processes.
 * @rec:    The recording, before tk_recording_start().
 * @pids:   Process IDs, @n of them; n == 0 removes the pid filter.
 * @n:      Number of @pids.
 * @follow: Nonzero to follow their children too (forks made while recording).
 *
 * Return: TK_OK or an error with causes.
 * Ownership: @pids is borrowed for the call.
 */
TK_EXPORT enum tk_status tk_recording_set_pids(struct tk_recording *rec, const pid_t *pids,
					       size_t n, int follow);

/**
 * tk_recording_start() - Start the per-CPU readers, then tracing.
 * @rec: The recording.
 *
 * Return: TK_OK or an error with causes.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_recording_start(struct tk_recording *rec);

/**
 * tk_recording_stop() - Stop tracing, read what is left in the ring buffers, stop the
 * readers, and read the kernel's per-CPU statistics.
 * @rec: The recording.
 *
 * Return: TK_OK or an error with causes (a reader that could not write, for example).
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_recording_stop(struct tk_recording *rec);

/**
 * tk_recording_write() - Write the trace.dat file: the event formats of the recorded events,
 * kallsyms, printk formats, saved command lines, clock, CPU statistics and the pages.
 * @rec: A stopped recording.
 *
 * Return: TK_OK or an error with causes; on failure the partial file is removed.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_recording_write(struct tk_recording *rec);

/**
 * tk_recording_get_cpu_count() - Number of CPUs recorded.
 * @rec: The recording.
 *
 * Return: The number of CPUs (valid after tk_recording_open()).
 * Ownership: None.
 */
TK_EXPORT size_t tk_recording_get_cpu_count(const struct tk_recording *rec);

/**
 * tk_recording_get_cpu_stats() - What one CPU recorded and lost.
 * @rec: A stopped recording.
 * @i:   Index below tk_recording_get_cpu_count().
 * @out: Filled with the figures.
 *
 * Return: TK_OK, or TK_ERR_INVAL for a bad index or a recording not stopped.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_recording_get_cpu_stats(const struct tk_recording *rec, size_t i,
						    struct tk_record_cpu_stats *out);

/**
 * tk_recording_get_output() - The trace.dat path the recording writes.
 * @rec: The recording.
 *
 * Return: The path.
 * Ownership: Borrowed from @rec.
 */
TK_EXPORT const char *tk_recording_get_output(const struct tk_recording *rec);

/**
 * tk_recording_get_date_offset() - The DATE offset known when the recording was opened.
 * @rec: The recording.
 *
 * Return: CLOCK_REALTIME less the trace time, in nanoseconds (whole microseconds): the
 * tk_record_opts.date_offset_ns given, or on x86-tsc the one measured at open; 0 without
 * DATE or when a marker will measure it while recording.
 * Ownership: None.
 */
TK_EXPORT int64_t tk_recording_get_date_offset(const struct tk_recording *rec);

/**
 * tk_recording_get_tsc2nsec() - How a recording on x86-tsc turns the TSC into nanoseconds.
 * @rec:   The recording.
 * @mult:  Set to the multiplier, or NULL.
 * @shift: Set to the shift (at most 32), or NULL: ns = (tsc * mult) >> shift, the file's
 *         TSC2NSEC option.
 *
 * Return: 1 when the recording is on x86-tsc (@mult and @shift set), else 0.
 * Ownership: None.
 */
TK_EXPORT int tk_recording_get_tsc2nsec(const struct tk_recording *rec, uint32_t *mult,
					uint32_t *shift);

/**
 * tk_recording_get_instance() - The tracefs buffer the recording uses.
 * @rec: The recording.
 *
 * Return: The instance's name, or NULL for the top-level buffer (--top, or a tracer the
 * kernel runs only there).
 * Ownership: Borrowed from @rec.
 */
TK_EXPORT const char *tk_recording_get_instance(const struct tk_recording *rec);

/**
 * tk_recording_close() - Stop the readers if they run, restore every tracefs setting the
 * recording changed, remove the instance it made, delete temporary files, free.
 * @rec: The recording, or NULL.
 *
 * Return: TK_OK, or the first failure of the restoration (every step is still tried).
 * Ownership: @rec is freed.
 */
TK_EXPORT enum tk_status tk_recording_close(struct tk_recording *rec);

/**
 * typedef tk_kernel_event_cb - Called for each event the kernel offers.
 * @system:  Its system ("sched").
 * @name:    Its name ("sched_switch").
 * @payload: The caller's pointer.
 *
 * Return: 0 to go on, nonzero to stop the listing.
 */
typedef int (*tk_kernel_event_cb)(const char *system, const char *name, void *payload);

/**
 * tk_kernel_events_list() - The events the running kernel offers, sorted by system and name.
 * @glob:    NULL for all, or a spec as in &tk_record_opts.events.
 * @cb:      Called for each event.
 * @payload: Passed to @cb.
 *
 * Return: TK_OK; TK_ERR_NOTFOUND when tracefs is missing.
 * Ownership: The strings given to @cb live for the call only.
 */
TK_EXPORT enum tk_status tk_kernel_events_list(const char *glob, tk_kernel_event_cb cb,
					       void *payload);

/**
 * tk_kernel_event_format() - Write the `format` file of a kernel event to @fd.
 * @system: Its system.
 * @name:   Its name.
 * @fd:     Where to write the text (as the kernel gives it).
 *
 * Return: TK_OK; TK_ERR_NOTFOUND when there is no such event; TK_ERR_IO when writing fails.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_kernel_event_format(const char *system, const char *name, int fd);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_RECORD_H */
