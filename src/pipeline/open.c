// SPDX-License-Identifier: MIT
/*
 * Entry points that need every reader: opening paths (the format is recognised from the
 * content) and closing. The table of readers below is the one place that knows all formats,
 * so the format folders never include each other: a new input format is its folder and one
 * row here.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracekit/tracekit.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "../ctf/ctf.h"
#include "../eventheader/interceptor.h"
#include "../model/model.h"
#include "../perf/source.h"
#include "../tracedat/source.h"
#include "pipeline.h"

#ifndef TK_VERSION
#define TK_VERSION "0.0.0"
#endif

const char *tk_version(void)
{
	return TK_VERSION;
}

/* The warning callback of @opts, when the caller's struct is big enough to hold it. */
static struct model_warner opts_warner(const struct tk_trace_opts *opts)
{
	struct model_warner w = {NULL, NULL};

	if (opts && opts->size >= offsetof(struct tk_trace_opts, payload) + sizeof(opts->payload)) {
		w.cb = opts->warning;
		w.payload = opts->payload;
	}
	return w;
}

/*
 * The end of every open: the sources found (in @sources, taken over whatever @st says) become
 * the trace, indexed for the merge, or everything is freed when @st or indexing failed.
 */
static enum tk_status trace_finish(struct tk_trace **out, struct vec *sources, enum tk_status st,
				   const struct model_warner *w, int lazy)
{
	struct tk_trace *t = calloc(1, sizeof(*t));
	size_t i;

	if (!t) {
		for (i = 0; i < sources->len; i++) {
			struct tk_source *src = ((struct tk_source **) sources->data)[i];

			src->ops->destroy(src);
		}
		vec_fini(sources);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace");
	}
	t->sources = sources->data;
	t->n_sources = sources->len;
	if (st >= 0)
		st = model_trace_finish(t);
	if (st >= 0 && !lazy)
		st = model_trace_load_classes(t);
	if (st < 0) {
		tk_trace_close(t);
		return TK_FAIL(st, "Cannot open trace");
	}
	for (i = 0; w->cb && i < t->n_sources; i++)
		if (t->sources[i]->warning)
			w->cb(t->sources[i]->warning, w->payload);
	*out = t;
	return TK_OK;
}

/*
 * An input format. @probe tells a file of the format from its first bytes (NULL: the reader
 * takes every path no other reader claims, such as directories searched for traces; the last
 * row). @open opens the paths it was given, appending their sources in order; @open_mem, when
 * the format can be read from memory, one image.
 */
struct reader {
	const char *name;
	int (*probe)(const uint8_t *head, size_t n);
	enum tk_status (*open)(const char *const *paths, size_t npaths, struct vec *sources,
			       const struct model_warner *w);
	enum tk_status (*open_mem)(struct tk_source **out, const uint8_t *data, size_t size,
				   const char *name);
};

static const struct reader readers[] = {
	{"trace.dat", tracedat_probe, tracedat_sources_open, tracedat_source_open_mem},
	{"perf.data", perf_probe, perf_sources_open, perf_source_open_mem},
	{"eventheader-interceptor", interceptor_probe, interceptor_sources_open,
	 interceptor_source_open_mem},
	{"ctf", NULL, ctf_sources_open, NULL},
};

#define N_READERS   (sizeof(readers) / sizeof(readers[0]))
#define PROBE_BYTES 64

/* The reader of @path: the first whose probe knows a regular file's first bytes, else the last. */
static size_t reader_of(const char *path)
{
	uint8_t head[PROBE_BYTES];
	struct stat sb;
	ssize_t n = 0;
	size_t r;
	int fd;

	if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, head, sizeof(head));
		close(fd);
	}
	for (r = 0; n > 0 && r < N_READERS; r++)
		if (readers[r].probe && readers[r].probe(head, (size_t) n))
			return r;
	return N_READERS - 1;
}

enum tk_status pipeline_trace_open(struct tk_trace **out, const char *const *paths, size_t npaths,
				   const struct tk_trace_opts *opts, int lazy)
{
	struct vec sources = VEC_INIT;
	const char **claimed = NULL;
	unsigned char *by = NULL;
	struct model_warner w;
	enum tk_status st = TK_OK;
	size_t i, r, n;

	error_reset();
	TK_ASSERT_PRE(out && paths && npaths > 0);
	TK_ASSERT_PRE(!opts || opts->size >= sizeof(size_t));
	w = opts_warner(opts);
	claimed = calloc(npaths, sizeof(*claimed));
	by = calloc(npaths, 1);
	if (!claimed || !by)
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot open trace");
	for (i = 0; i < npaths && st >= 0; i++)
		by[i] = (unsigned char) reader_of(paths[i]);
	/* each reader opens its paths together, in the order of the table, then of @paths */
	for (r = 0; r < N_READERS && st >= 0; r++) {
		for (n = 0, i = 0; i < npaths; i++)
			if (by[i] == r)
				claimed[n++] = paths[i];
		if (n)
			st = readers[r].open(claimed, n, &sources, &w);
	}
	free(claimed);
	free(by);
	return trace_finish(out, &sources, st, &w, lazy);
}

enum tk_status tk_trace_open(struct tk_trace **out, const char *const *paths, size_t npaths,
			     const struct tk_trace_opts *opts)
{
	return pipeline_trace_open(out, paths, npaths, opts, 0);
}

enum tk_status tk_trace_open_mem(struct tk_trace **out, const void *data, size_t size,
				 const char *name, const struct tk_trace_opts *opts)
{
	struct vec sources = VEC_INIT;
	struct tk_source **slot;
	struct model_warner w;
	enum tk_status st;
	size_t r;

	error_reset();
	TK_ASSERT_PRE(out && (data || !size) && name);
	TK_ASSERT_PRE(!opts || opts->size >= sizeof(size_t));
	w = opts_warner(opts);
	for (r = 0; r < N_READERS; r++)
		if (readers[r].open_mem && readers[r].probe &&
		    readers[r].probe(data, size < PROBE_BYTES ? size : PROBE_BYTES))
			break;
	if (r == N_READERS)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot open trace: name=%s, reason=not a trace.dat image (the "
			       "format tracekit reads from memory)",
			       name);
	slot = vec_push(&sources, sizeof(*slot));
	if (!slot)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace: name=%s", name);
	st = readers[r].open_mem(slot, data, size, name);
	if (st < 0)
		sources.len--;
	return trace_finish(out, &sources, st, &w, 0);
}

enum tk_status tk_trace_close(struct tk_trace *trace)
{
	size_t i;

	if (!trace)
		return TK_OK;
	for (i = 0; i < trace->n_sources; i++)
		trace->sources[i]->ops->destroy(trace->sources[i]);
	free(trace->sources);
	free(trace->ecs);
	free(trace->streams);
	free(trace);
	return TK_OK;
}
