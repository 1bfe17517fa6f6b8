/* SPDX-License-Identifier: MIT */
/*
 * A perf.data file (perf record's, file or pipe mode) as a source of the trace model: one
 * stream class with one stream, which gives the records in the order `perf script` handles
 * them (sorted by time round by round, as perf's ordered events do); one event class per
 * event attribute (a tracepoint's classes from its ftrace format in the file's tracing data,
 * other events with their ip and period); the task of every sample, named from the COMM and
 * FORK records read so far, as perf names it.
 */
#ifndef TK_PERF_SOURCE_H
#define TK_PERF_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/vec.h"
#include "../model/model.h"

/* 1 when the first @n bytes of a file, @head, start a perf.data file, else 0. */
int perf_probe(const uint8_t *head, size_t n);

/* Open each of @paths (perf.data files) as a source, appended to @sources, in order. */
enum tk_status perf_sources_open(const char *const *paths, size_t npaths, struct vec *sources,
				 const struct model_warner *w);

/*
 * Open @size bytes at @data (kept by the caller; @name stands for its path in the source and
 * in causes) as a source.
 */
enum tk_status perf_source_open_mem(struct tk_source **out, const uint8_t *data, size_t size,
				    const char *name);

#endif /* TK_PERF_SOURCE_H */
