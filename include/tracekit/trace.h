/* SPDX-License-Identifier: MIT */
/*
 * Opening traces and describing what they contain.
 *
 * A struct tk_trace is everything opened from one or more paths: each path is a CTF trace
 * directory or a directory holding several of them, found recursively. Each trace written by
 * one tracer is a struct tk_source (a CTF trace with its metadata). Sources hold clocks,
 * streams and event classes; events of all sources are read in time order with a tk_iter.
 */
#ifndef TRACEKIT_TRACE_H
#define TRACEKIT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/export.h>
#include <tracekit/status.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tk_trace;
struct tk_source;
struct tk_stream;
struct tk_clock;
struct tk_event_class;

/**
 * typedef tk_warning_cb - Called for a problem that tk_trace_open() read past.
 * @text:    What went wrong and where, as causes joined by ": " ("Cannot X: key=value: ..."),
 *           one line without a newline; borrowed for the duration of the call.
 * @payload: The caller's pointer.
 *
 * Warnings are part of the trace that could be read, not failures: a directory below a path
 * that could not be searched while traces were found elsewhere, or a trace.dat kallsyms
 * section that could not be read (function addresses then print without their names).
 */
typedef void (*tk_warning_cb)(const char *text, void *payload);

/**
 * struct tk_trace_opts - Options of tk_trace_open().
 * @size:    sizeof(struct tk_trace_opts), set by TK_TRACE_OPTS_INIT.
 * @warning: Called for each warning, in the order found, or NULL to ignore them.
 * @payload: Passed to @warning.
 */
struct tk_trace_opts {
	size_t size;
	tk_warning_cb warning;
	void *payload;
};

#define TK_TRACE_OPTS_INIT                                                                         \
	{                                                                                          \
		.size = sizeof(struct tk_trace_opts)                                               \
	}

/**
 * tk_trace_open() - Open traces for reading.
 * @out:    Set to the new trace on success; left unchanged on failure.
 * @paths:  Paths to CTF trace directories, or to directories searched recursively for them.
 * @npaths: Number of entries in @paths (at least 1).
 * @opts:   Options, or NULL for the defaults.
 *
 * The metadata of every source is parsed and checked, and the first packet of every data
 * stream file is read, so that a trace that cannot be read at all fails here.
 *
 * Return: TK_OK, or a negative status with its causes in the error chain.
 * Ownership: @paths and @opts are borrowed for the call only. *@out belongs to the caller, who
 * releases it with tk_trace_close().
 */
TK_EXPORT enum tk_status tk_trace_open(struct tk_trace **out, const char *const *paths,
				       size_t npaths, const struct tk_trace_opts *opts);

/**
 * tk_trace_open_mem() - Open a trace.dat file image held in memory.
 * @out:  Set to the new trace on success; left unchanged on failure.
 * @data: The bytes of a trace-cmd trace.dat file (version 6 or 7).
 * @size: Number of bytes at @data.
 * @name: What to call the trace where a path would be shown: the source's path and name
 *        (tk_source_get_path()), and the causes of errors.
 * @opts: Options, or NULL for the defaults.
 *
 * The bytes are read in place, exactly as a file opened by tk_trace_open() is read through
 * its mapping: nothing is copied.
 * Return: TK_OK, or a negative status with its causes in the error chain (TK_ERR_FORMAT when
 * the bytes are not a trace.dat file).
 * Ownership: @data is borrowed until tk_trace_close(): the caller keeps it alive and
 * unchanged until then. @name and @opts are borrowed for the call only. *@out belongs to the
 * caller, who releases it with tk_trace_close().
 */
TK_EXPORT enum tk_status tk_trace_open_mem(struct tk_trace **out, const void *data, size_t size,
					   const char *name, const struct tk_trace_opts *opts);

/**
 * tk_trace_close() - Close a trace and free everything it owns.
 * @trace: A trace from tk_trace_open(), or NULL.
 *
 * Return: TK_OK.
 * Ownership: @trace and every object borrowed from it are invalid afterwards.
 */
TK_EXPORT enum tk_status tk_trace_close(struct tk_trace *trace);

/**
 * tk_trace_get_source_count() - Number of sources (traces of one tracer) in @trace.
 * @trace: An open trace.
 *
 * Return: The count.
 * Ownership: None.
 */
TK_EXPORT size_t tk_trace_get_source_count(const struct tk_trace *trace);

/**
 * tk_trace_get_source() - One source of @trace.
 * @trace: An open trace.
 * @index: 0 to tk_trace_get_source_count() - 1.
 *
 * Return: The source, or NULL if @index is out of range.
 * Ownership: Borrowed from @trace.
 */
TK_EXPORT const struct tk_source *tk_trace_get_source(const struct tk_trace *trace, size_t index);

/**
 * tk_trace_get_event_class_count() - Number of event classes of all sources of @trace.
 * @trace: An open trace.
 *
 * Event classes are numbered densely across sources, so an array of this size can hold one
 * counter per class, indexed by tk_event_class_get_index().
 * Return: The count.
 * Ownership: None.
 */
TK_EXPORT size_t tk_trace_get_event_class_count(const struct tk_trace *trace);

/**
 * tk_trace_get_event_class() - One event class of @trace.
 * @trace: An open trace.
 * @index: 0 to tk_trace_get_event_class_count() - 1.
 *
 * Return: The event class, or NULL if @index is out of range.
 * Ownership: Borrowed from @trace.
 */
TK_EXPORT const struct tk_event_class *tk_trace_get_event_class(const struct tk_trace *trace,
								size_t index);

/**
 * tk_trace_get_stream_count() - Number of data streams of all sources of @trace.
 * @trace: An open trace.
 *
 * Return: The count; streams are numbered densely like event classes.
 * Ownership: None.
 */
TK_EXPORT size_t tk_trace_get_stream_count(const struct tk_trace *trace);

/**
 * tk_trace_get_stream() - One data stream of @trace.
 * @trace: An open trace.
 * @index: 0 to tk_trace_get_stream_count() - 1.
 *
 * Return: The stream, or NULL if @index is out of range.
 * Ownership: Borrowed from @trace.
 */
TK_EXPORT const struct tk_stream *tk_trace_get_stream(const struct tk_trace *trace, size_t index);

/**
 * tk_source_get_path() - Directory or file the source was read from.
 * @source: A source.
 *
 * Return: The path as found below the path given to tk_trace_open().
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const char *tk_source_get_path(const struct tk_source *source);

/**
 * tk_source_get_name() - Name of the source, as babeltrace2 names it.
 * @source: A source.
 *
 * The name is the `hostname` environment entry, then a slash and the path of the source
 * relative to the path given to tk_trace_open() when it is not that path itself.
 * Return: The name, possibly empty.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const char *tk_source_get_name(const struct tk_source *source);

/**
 * tk_source_get_format() - Format and version of the source, such as "CTF 1.8".
 * @source: A source.
 *
 * Return: A static string.
 * Ownership: Static; never free it.
 */
TK_EXPORT const char *tk_source_get_format(const struct tk_source *source);

/**
 * tk_source_get_uuid() - UUID of the source.
 * @source: A source.
 *
 * Return: 16 bytes, or NULL when the source has no UUID.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const uint8_t *tk_source_get_uuid(const struct tk_source *source);

/**
 * tk_source_get_env_count() - Number of environment entries (CTF `env` block).
 * @source: A source.
 *
 * Return: The count.
 * Ownership: None.
 */
TK_EXPORT size_t tk_source_get_env_count(const struct tk_source *source);

/**
 * tk_source_get_env() - One environment entry.
 * @source:  A source.
 * @index:   0 to tk_source_get_env_count() - 1.
 * @key:     Set to the entry name.
 * @str:     Set to the string value, or NULL when the value is an integer.
 * @integer: Set to the integer value when @str is set to NULL.
 *
 * Return: TK_OK, or TK_ERR_INVAL if @index is out of range.
 * Ownership: *@key and *@str are borrowed from the trace.
 */
TK_EXPORT enum tk_status tk_source_get_env(const struct tk_source *source, size_t index,
					   const char **key, const char **str, int64_t *integer);

/**
 * tk_source_get_clock_count() - Number of clocks the source declares.
 * @source: A source.
 *
 * Return: The count.
 * Ownership: None.
 */
TK_EXPORT size_t tk_source_get_clock_count(const struct tk_source *source);

/**
 * tk_source_get_clock() - One clock of the source.
 * @source: A source.
 * @index:  0 to tk_source_get_clock_count() - 1.
 *
 * Return: The clock, or NULL if @index is out of range.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const struct tk_clock *tk_source_get_clock(const struct tk_source *source, size_t index);

/**
 * tk_clock_get_name() - Name of a clock.
 * @clock: A clock.
 *
 * Return: The name ("default" for the implicit 1 GHz clock of traces that declare none).
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const char *tk_clock_get_name(const struct tk_clock *clock);

/**
 * tk_clock_get_frequency() - Frequency of a clock in Hz.
 * @clock: A clock.
 *
 * Return: The frequency.
 * Ownership: None.
 */
TK_EXPORT uint64_t tk_clock_get_frequency(const struct tk_clock *clock);

/**
 * tk_clock_get_offset() - Offset of the clock origin.
 * @clock:   A clock.
 * @seconds: Set to the offset in whole seconds.
 * @cycles:  Set to the rest, in cycles (always less than one second's worth).
 *
 * Return: Nothing.
 * Ownership: None.
 */
TK_EXPORT void tk_clock_get_offset(const struct tk_clock *clock, int64_t *seconds,
				   uint64_t *cycles);

/**
 * tk_clock_is_absolute() - Whether the clock origin is the Unix epoch.
 * @clock: A clock.
 *
 * Return: 1 if absolute, 0 otherwise.
 * Ownership: None.
 */
TK_EXPORT int tk_clock_is_absolute(const struct tk_clock *clock);

/**
 * tk_stream_get_path() - Path of the (first) data file of a stream.
 * @stream: A stream.
 *
 * Return: The path.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const char *tk_stream_get_path(const struct tk_stream *stream);

/**
 * tk_stream_get_id() - Identifier of a data stream within its source.
 * @stream: A stream.
 *
 * Return: The `stream_instance_id` of its packets, or a number given in path order.
 * Ownership: None.
 */
TK_EXPORT uint64_t tk_stream_get_id(const struct tk_stream *stream);

/**
 * tk_stream_get_class_id() - Identifier of the stream class of a stream.
 * @stream: A stream.
 *
 * Return: The stream class ID.
 * Ownership: None.
 */
TK_EXPORT uint64_t tk_stream_get_class_id(const struct tk_stream *stream);

/**
 * tk_stream_get_source() - Source a stream belongs to.
 * @stream: A stream.
 *
 * Return: The source.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const struct tk_source *tk_stream_get_source(const struct tk_stream *stream);

/**
 * tk_stream_get_index() - Dense index of a stream within its trace.
 * @stream: A stream.
 *
 * Return: 0 to tk_trace_get_stream_count() - 1.
 * Ownership: None.
 */
TK_EXPORT size_t tk_stream_get_index(const struct tk_stream *stream);

/**
 * tk_event_class_get_name() - Name of an event class.
 * @ec: An event class.
 *
 * Return: The name, or NULL when the class has none.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const char *tk_event_class_get_name(const struct tk_event_class *ec);

/**
 * tk_event_class_get_id() - Identifier of an event class within its stream class.
 * @ec: An event class.
 *
 * Return: The ID.
 * Ownership: None.
 */
TK_EXPORT uint64_t tk_event_class_get_id(const struct tk_event_class *ec);

/**
 * tk_event_class_get_stream_class_id() - Identifier of the stream class of an event class.
 * @ec: An event class.
 *
 * Return: The stream class ID.
 * Ownership: None.
 */
TK_EXPORT uint64_t tk_event_class_get_stream_class_id(const struct tk_event_class *ec);

/**
 * tk_event_class_get_source() - Source an event class belongs to.
 * @ec: An event class.
 *
 * Return: The source.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const struct tk_source *tk_event_class_get_source(const struct tk_event_class *ec);

/**
 * tk_event_class_get_index() - Dense index of an event class within its trace.
 * @ec: An event class.
 *
 * Return: 0 to tk_trace_get_event_class_count() - 1.
 * Ownership: None.
 */
TK_EXPORT size_t tk_event_class_get_index(const struct tk_event_class *ec);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_TRACE_H */
