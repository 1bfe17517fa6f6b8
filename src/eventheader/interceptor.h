/* SPDX-License-Identifier: MIT */
/*
 * EventHeader interceptor files as sources of the trace model. LinuxTracepoints' tests (and
 * tracekit's own tracer, in its interceptor mode) write the events a program would hand to
 * user_events into a file instead: records of a u32 little-endian size (counting itself),
 * the tracepoint's NUL-terminated name, then the event's bytes from eventheader.flags on. No
 * time, CPU or task is kept. The source has one stream without a clock and one event class
 * per tracepoint name; an event's payload is its bytes, and the perf-decode style writes it
 * decoded (model_text_ops.decode_json).
 */
#ifndef TK_EVENTHEADER_INTERCEPTOR_H
#define TK_EVENTHEADER_INTERCEPTOR_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/vec.h"
#include "../model/model.h"

/*
 * 1 when the first @n bytes of a file, @head, can start an interceptor file: a size from 14
 * bytes to 1 MiB, then a tracepoint name of letters, digits and '_' (with "_L" in it when
 * its end is in sight), else 0. The file has no magic: open checks every record.
 */
int interceptor_probe(const uint8_t *head, size_t n);

/* Open each of @paths (interceptor files) as a source, appended to @sources, in order. */
enum tk_status interceptor_sources_open(const char *const *paths, size_t npaths,
					struct vec *sources, const struct model_warner *w);

/* Open @size bytes at @data (kept by the caller; @name stands for its path) as a source. */
enum tk_status interceptor_source_open_mem(struct tk_source **out, const uint8_t *data, size_t size,
					   const char *name);

/*
 * The head of a record of an event of @event_size bytes for tracepoint @tp_name (@tp_len
 * bytes): the u32 size, the name and its NUL, written to @dst (room for 5 + @tp_len bytes);
 * the event's bytes follow. Returns the head's size, 0 when the record would pass 4 GiB.
 */
size_t interceptor_record_head(uint8_t *dst, const char *tp_name, size_t tp_len, size_t event_size);

#endif /* TK_EVENTHEADER_INTERCEPTOR_H */
