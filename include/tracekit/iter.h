/* SPDX-License-Identifier: MIT */
/*
 * Reading events in time order.
 *
 * A struct tk_iter merges the data streams of every source of a trace by timestamp. Ties are
 * broken the way babeltrace2's muxer breaks them (trace UUID and name, stream class and stream
 * IDs, then event class), so output is reproducible. Events are borrowed: an event returned by
 * tk_iter_next() is valid until the next call.
 *
 *	const struct tk_event *ev;
 *	while ((st = tk_iter_next(it, &ev)) == TK_OK)
 *		count[tk_event_class_get_index(tk_event_get_class(ev))]++;
 *	if (st < 0)
 *		report_error();	// every event before the damage was returned
 */
#ifndef TRACEKIT_ITER_H
#define TRACEKIT_ITER_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/export.h>
#include <tracekit/status.h>
#include <tracekit/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tk_iter;
struct tk_event;
struct tk_notice;

/**
 * enum tk_notice_kind - What a notice reports.
 * @TK_NOTICE_DISCARDED_EVENTS:  The tracer dropped events (ring buffer full).
 * @TK_NOTICE_DISCARDED_PACKETS: Packets are missing from a stream (sequence number gap).
 */
enum tk_notice_kind {
	TK_NOTICE_DISCARDED_EVENTS = 1,
	TK_NOTICE_DISCARDED_PACKETS = 2,
};

/**
 * typedef tk_notice_cb - Called by tk_iter_next() for each notice, in stream order.
 * @notice:  The notice, borrowed for the duration of the call.
 * @payload: The pointer given to tk_iter_set_notice_cb().
 */
typedef void (*tk_notice_cb)(const struct tk_notice *notice, void *payload);

/**
 * tk_iter_create() - Create an iterator over all events of a trace.
 * @out:   Set to the new iterator on success.
 * @trace: An open trace; it must outlive the iterator.
 *
 * Return: TK_OK, or a negative status with its causes in the error chain.
 * Ownership: @trace is borrowed. *@out belongs to the caller, who releases it with
 * tk_iter_destroy().
 */
TK_EXPORT enum tk_status tk_iter_create(struct tk_iter **out, struct tk_trace *trace);

/**
 * tk_iter_set_notice_cb() - Receive notices about lost events and packets.
 * @it:      An iterator.
 * @cb:      Called for each notice, or NULL to ignore them.
 * @payload: Passed to @cb.
 *
 * Return: Nothing.
 * Ownership: @payload is borrowed for the life of the iterator.
 */
TK_EXPORT void tk_iter_set_notice_cb(struct tk_iter *it, tk_notice_cb cb, void *payload);

/**
 * tk_iter_set_window() - Read only the events of a time window.
 * @it:       An iterator that has not returned anything yet.
 * @begin_ns: The first time of the window, in nanoseconds from the origin (the times
 *            tk_event_get_timestamp() gives), or INT64_MIN for no beginning.
 * @end_ns:   The last time of the window (included), or INT64_MAX for no end.
 *
 * The streams go straight to where the window begins (trace.dat pages and CTF packets are
 * found by their times, without reading what comes before), and each stream stops at its
 * first event after the end, so the cost follows the window rather than the trace. The
 * events returned are exactly those a full read returns in the window; notices of losses
 * are given when their range meets the window. Call before the first tk_iter_next(); later
 * calls do nothing.
 *
 * Return: Nothing.
 * Ownership: Nothing changes hands.
 */
TK_EXPORT void tk_iter_set_window(struct tk_iter *it, int64_t begin_ns, int64_t end_ns);

/**
 * tk_iter_next() - Next event in time order.
 * @it:  An iterator.
 * @out: Set to the event on TK_OK.
 *
 * Return: TK_OK with *@out set, TK_END after the last event, or a negative status when a
 * stream is damaged or out of time order: every event before the damage has been returned.
 * Ownership: *@out is borrowed until the next tk_iter_next() or tk_iter_destroy().
 */
TK_EXPORT enum tk_status tk_iter_next(struct tk_iter *it, const struct tk_event **out);

/**
 * tk_iter_destroy() - Free an iterator.
 * @it: An iterator, or NULL.
 *
 * Return: Nothing.
 * Ownership: Events borrowed from @it are invalid afterwards.
 */
TK_EXPORT void tk_iter_destroy(struct tk_iter *it);

/**
 * tk_event_get_class() - Class of an event.
 * @ev: An event.
 *
 * Return: The event class.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const struct tk_event_class *tk_event_get_class(const struct tk_event *ev);

/**
 * tk_event_get_stream() - Data stream an event was read from.
 * @ev: An event.
 *
 * Return: The stream.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const struct tk_stream *tk_event_get_stream(const struct tk_event *ev);

/**
 * tk_event_has_timestamp() - Whether an event has a time (its stream has a clock).
 * @ev: An event.
 *
 * Return: 1 or 0.
 * Ownership: None.
 */
TK_EXPORT int tk_event_has_timestamp(const struct tk_event *ev);

/**
 * tk_event_get_timestamp() - Time of an event in nanoseconds from the clock origin.
 * @ev: An event with a timestamp.
 *
 * Return: The time, with the clock offset applied (Unix time for absolute clocks).
 * Ownership: None.
 */
TK_EXPORT int64_t tk_event_get_timestamp(const struct tk_event *ev);

/**
 * tk_event_get_cpu() - CPU an event was recorded on, when the format says: trace.dat's
 * ring buffer, a CTF packet context's cpu_id (LTTng's per-CPU streams).
 * @ev: An event.
 *
 * Return: The CPU number, or -1 when unknown.
 * Ownership: None.
 */
TK_EXPORT int tk_event_get_cpu(const struct tk_event *ev);

/**
 * tk_event_get_lost_before() - Events the tracer lost just before this one (ftrace rings).
 * @ev: An event.
 *
 * Return: 0 when none were lost, their number, or -1 when some were lost but their number
 *         is unknown. Always 0 for formats that report losses as notices (CTF).
 * Ownership: None.
 */
TK_EXPORT int64_t tk_event_get_lost_before(const struct tk_event *ev);

/**
 * tk_event_get_clock_value() - Raw clock value of an event, in clock cycles.
 * @ev: An event with a timestamp.
 *
 * Return: The value, without the clock offset.
 * Ownership: None.
 */
TK_EXPORT uint64_t tk_event_get_clock_value(const struct tk_event *ev);

/**
 * tk_notice_get_kind() - What a notice reports.
 * @notice: A notice.
 *
 * Return: The kind.
 * Ownership: None.
 */
TK_EXPORT enum tk_notice_kind tk_notice_get_kind(const struct tk_notice *notice);

/**
 * tk_notice_get_count() - Number of events or packets lost.
 * @notice: A notice.
 *
 * Return: The count, or UINT64_MAX when the tracer did not say how many.
 * Ownership: None.
 */
TK_EXPORT uint64_t tk_notice_get_count(const struct tk_notice *notice);

/**
 * tk_notice_get_stream() - Stream the loss happened in.
 * @notice: A notice.
 *
 * Return: The stream.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const struct tk_stream *tk_notice_get_stream(const struct tk_notice *notice);

/**
 * tk_notice_get_range() - Time range in which the loss happened.
 * @notice: A notice.
 * @begin:  Set to the start, in nanoseconds from the clock origin.
 * @end:    Set to the end, in nanoseconds from the clock origin.
 *
 * Return: 1 when the range is known and was stored, 0 otherwise.
 * Ownership: None.
 */
TK_EXPORT int tk_notice_get_range(const struct tk_notice *notice, int64_t *begin, int64_t *end);

/**
 * struct tk_trace_counts - What reading a whole trace counts (tk_trace_count()).
 * @events:              Events read.
 * @class_events:        Events of each event class, by tk_event_class_get_index()
 *                       (tk_trace_get_event_class_count() entries).
 * @stream_events:       Events of each stream, by tk_stream_get_index()
 *                       (tk_trace_get_stream_count() entries).
 * @lost_events:         Events lost, as the loss notices and tk_event_get_lost_before() say.
 * @lost_events_unknown: Losses whose number of events the tracer did not say.
 * @lost_packets:        Packets missing (sequence number gaps).
 * @has_time:            1 when an event has a time; then @first_ns and @last_ns are the
 *                       earliest and the latest (ftrace CPU buffers may go back in time).
 * @first_ns:            The earliest event time, in nanoseconds from the clock origin.
 * @last_ns:             The latest event time.
 */
struct tk_trace_counts {
	uint64_t events;
	uint64_t *class_events;
	uint64_t *stream_events;
	uint64_t lost_events;
	uint64_t lost_events_unknown;
	uint64_t lost_packets;
	int has_time;
	int64_t first_ns;
	int64_t last_ns;
};

/**
 * tk_trace_count() - Read every event of a trace and count them.
 * @trace: An open trace.
 * @out:   Filled in, on failure too.
 *
 * The counts are those of a tk_iter_next() loop over the whole trace. The streams are read
 * on threads, one per core and four at most, when there are several of both: counting
 * needs no time order. When a stream cannot be read, the trace is read again by one
 * tk_iter, so that the counts cover exactly the events that loop returns before the
 * failure, which the error chain describes.
 *
 * Return: TK_OK, or a negative status with its causes in the error chain. When the failure
 * came before any event could be read (a stream that cannot be opened, as tk_iter_create()
 * fails), the arrays of *@out are NULL.
 * Ownership: @trace is borrowed. The arrays of *@out belong to the caller, who releases them
 * with tk_trace_counts_fini(), whatever the return.
 */
TK_EXPORT enum tk_status tk_trace_count(struct tk_trace *trace, struct tk_trace_counts *out);

/**
 * tk_trace_counts_fini() - Release the arrays of counts filled in by tk_trace_count().
 * @counts: The counts, or NULL.
 *
 * Return: Nothing.
 * Ownership: Frees @counts' arrays and sets them to NULL; @counts itself is the caller's.
 */
TK_EXPORT void tk_trace_counts_fini(struct tk_trace_counts *counts);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_ITER_H */
