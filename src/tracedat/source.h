/* SPDX-License-Identifier: MIT */
/*
 * A trace.dat file as a source of the trace model: one stream class per ring buffer (the top
 * one, then instances), one stream per CPU with data, one event class per event format, and
 * events that carry their raw record so trace-cmd's text can be printed from it.
 */
#ifndef TK_TRACEDAT_SOURCE_H
#define TK_TRACEDAT_SOURCE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/vec.h"
#include "../ftrace/ftrace.h"
#include "../model/model.h"
#include "tracedat.h"

/* 1 when the first @n bytes of a file, @head, start with the trace.dat magic, else 0. */
int tracedat_probe(const uint8_t *head, size_t n);

/* Where every ftrace record keeps its event id (common_type) and task (common_pid). */
struct tracedat_common {
	uint32_t type_offset, type_size;
	uint32_t pid_offset, pid_size;
};

/*
 * Set up @ctx (ftrace_ctx_init()ed, empty) from the ftrace metadata of @in, as trace-cmd
 * reads it: the page layout, the formats (declared, read whole on first use), kallsyms (on
 * first use), printk formats and saved command lines; bad formats and table lines are
 * passed over. *@out: where records keep common_type and common_pid. Used by every reader
 * of ftrace metadata: trace.dat, and perf.data's tracing data (tracedat_open_tracing_data()).
 *
 * Return: TK_OK, or an error with a cause (page layout, formats).
 */
enum tk_status tracedat_ftrace_setup(const struct tracedat_info *in, struct ftrace_ctx *ctx,
				     struct tracedat_common *out);

/* Open each of @paths (trace.dat files) as a source, appended to @sources, in order. */
enum tk_status tracedat_sources_open(const char *const *paths, size_t npaths, struct vec *sources,
				     const struct model_warner *w);

/*
 * Open @path (or @size bytes at @data, kept by the caller, shown as @name where a path would
 * be: the source's path and name, and causes) as a source.
 */
enum tk_status tracedat_source_open(struct tk_source **out, const char *path);
enum tk_status tracedat_source_open_mem(struct tk_source **out, const uint8_t *data, size_t size,
					const char *name);

/*
 * The parts the converters (the trace.dat sink, src/pipeline) and the copy read besides the model; NULL when @src
 * is not a trace.dat source.
 */
struct ftrace_ctx *tracedat_source_ftrace(const struct tk_source *src);
const struct tracedat_info *tracedat_source_info(const struct tk_source *src);

/* The container behind a trace.dat source (NULL for another source). */
struct tracedat *tracedat_source_container(const struct tk_source *src);

/*
 * The nanoseconds a record's raw ring-buffer time stands for, as the model gives it (guest
 * samples, TSC2NSEC, DATE and OFFSET applied), for CPU @cpu of buffer @buffer.
 */
int64_t tracedat_source_time(const struct tk_source *src, size_t buffer, uint32_t cpu,
			     uint64_t raw);

/*
 * Before the first page of @pr (CPU @cpu of buffer @buffer): skip to the pages around @ns,
 * as the cursors seek (tracedat_pages_seek()); *@skipped: the pages passed over.
 */
enum tk_status tracedat_source_seek(const struct tk_source *src, size_t buffer, uint32_t cpu,
				    struct tracedat_pages *pr, int64_t ns, uint64_t *skipped);

/* The event format of record @rec (@size bytes), by its common_type; NULL when unknown. */
const struct ftrace_event *tracedat_source_event_of(const struct tk_source *src, const uint8_t *rec,
						    size_t size);

/*
 * Write the trace.dat file @path from @src: every metadata part, option and buffer, in
 * another version or compression if asked, with only the events @filter keeps (a filter of
 * the trace @src belongs to; each record is matched as the event the reader makes of it).
 * Without a filter the pages are copied as they are; with one, the records kept are
 * written into new pages (losses carried to the next record kept). @progress (may be NULL)
 * hears the input bytes done out of the total now and then.
 */
struct tracedat_copy_opts {
	unsigned int version;	  /* 6 or 7; 0: the input's */
	const char *compression;  /* "none", "zstd", "zlib"; NULL: the input's (none for v6) */
	struct tk_filter *filter; /* NULL: every record */
	void (*progress)(uint64_t done, uint64_t total, void *payload);
	void *payload;
	const volatile sig_atomic_t *stop; /* set: stop with TK_ERR_CANCELED */
};

enum tk_status tracedat_copy(const struct tk_source *src, const char *path,
			     const struct tracedat_copy_opts *opts);

#endif /* TK_TRACEDAT_SOURCE_H */
