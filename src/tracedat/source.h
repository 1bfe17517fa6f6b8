/* SPDX-License-Identifier: MIT */
/*
 * A trace.dat file as a source of the trace model: one stream class per ring buffer (the top
 * one, then instances), one stream per CPU with data, one event class per event format, and
 * events that carry their raw record so trace-cmd's text can be printed from it.
 */
#ifndef TK_TRACEDAT_SOURCE_H
#define TK_TRACEDAT_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../ftrace/ftrace.h"
#include "../model/model.h"
#include "tracedat.h"

/* 1 when @path is a regular file that starts with the trace.dat magic, else 0. */
int tracedat_file_is(const char *path);

/* Open @path (or @size bytes at @data, kept by the caller) as a source. */
enum tk_status tracedat_source_open(struct tk_source **out, const char *path);
enum tk_status tracedat_source_open_mem(struct tk_source **out, const uint8_t *data, size_t size);

/*
 * The parts a trace-cmd-style printer needs; NULL when @src is not a trace.dat source. The
 * ftrace context is not const: printing in trace-cmd's way teaches it task names.
 */
struct ftrace_ctx *tracedat_source_ftrace(const struct tk_source *src);
const struct tracedat_info *tracedat_source_info(const struct tk_source *src);

/*
 * The text of a latency-format file (its top buffer holds `trace` output, not pages), or
 * 0 with @out empty when the file is not one. A negative status when it cannot be read.
 */
enum tk_status tracedat_source_latency(const struct tk_source *src, struct tracedat_blob *out);

/*
 * Whether times are nanoseconds (trace-cmd prints them as seconds with 6 or 9 decimals) or
 * counts of a raw clock (printed as a plain number), as trace-cmd decides from the clock.
 */
int tracedat_source_time_in_ns(const struct tk_source *src);

#endif /* TK_TRACEDAT_SOURCE_H */
