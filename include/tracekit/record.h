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
 * struct tk_record_opts - What to record and how.
 * @size:         sizeof(struct tk_record_opts), set by TK_RECORD_OPTS_INIT.
 * @events:       Event specs, @n_events of them (at least one): "all", "SYSTEM",
 *                "SYSTEM:EVENT", "EVENT", each part possibly a glob.
 * @n_events:     Number of @events.
 * @filters:      Filters, @n_filters of them, each applied to the events it names.
 * @n_filters:    Number of @filters.
 * @buffer_kib:   Ring-buffer size per CPU in KiB; 0 leaves it as it is.
 * @clock:        Trace clock ("local", "global", "mono", "boot", ...); NULL leaves it.
 * @instance:     Record in this named instance (made if missing, removed at close only if
 *                made); NULL for a private instance "tracekit-PID", unless @top.
 * @top:          Record in the top-level buffer instead of an instance.
 * @output:       The trace.dat file to write ("trace.dat" when NULL).
 * @file_version: 6 or 7.
 * @compression:  "none", "zstd" or "zlib" (version 7 only).
 * @date:         Nonzero to add a DATE option (as trace-cmd record --date): readers then
 *                show wall-clock times; found through a marker written at the start.
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
 * tk_recording_open() - Prepare a recording: find tracefs, make or open the buffer, enable
 * the events, set filters, buffer size and clock, empty the buffer.
 * @out:  Set to the recording on success; left unchanged on failure.
 * @opts: What to record.
 *
 * Return: TK_OK; TK_ERR_NOTFOUND for no tracefs or an event spec that matches nothing;
 * TK_ERR_INVAL for a filter the kernel refuses (its error_log lines are causes) or bad
 * options; TK_ERR_IO when tracefs cannot be written (not root). On failure every setting
 * already changed is restored.
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
