// SPDX-License-Identifier: MIT
/*
 * Entry points that need every reader: opening paths (the format is recognised from the
 * content) and closing. This is the one place that knows all formats, so the format folders
 * never include each other.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <tracekit/tracekit.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "../ctf/ctf.h"
#include "../model/model.h"
#include "../tracedat/source.h"

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
				   const struct model_warner *w)
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

enum tk_status tk_trace_open(struct tk_trace **out, const char *const *paths, size_t npaths,
			     const struct tk_trace_opts *opts)
{
	struct vec sources = VEC_INIT;
	const char **ctf_paths = NULL;
	size_t n_ctf = 0, i;
	struct model_warner w;
	enum tk_status st = TK_OK;

	error_reset();
	TK_ASSERT_PRE(out && paths && npaths > 0);
	TK_ASSERT_PRE(!opts || opts->size >= sizeof(size_t));
	w = opts_warner(opts);
	/* trace.dat files (recognised by their magic) in order, then the CTF paths together */
	ctf_paths = calloc(npaths, sizeof(*ctf_paths));
	if (!ctf_paths)
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot open trace");
	for (i = 0; i < npaths && st >= 0; i++) {
		struct tk_source **slot;

		if (!tracedat_file_is(paths[i])) {
			ctf_paths[n_ctf++] = paths[i];
			continue;
		}
		slot = vec_push(&sources, sizeof(*slot));
		if (!slot)
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot open trace");
		else if ((st = tracedat_source_open(slot, paths[i])) < 0)
			sources.len--;
	}
	if (st >= 0 && n_ctf)
		st = ctf_sources_open(ctf_paths, n_ctf, &sources, &w);
	free(ctf_paths);
	return trace_finish(out, &sources, st, &w);
}

enum tk_status tk_trace_open_mem(struct tk_trace **out, const void *data, size_t size,
				 const char *name, const struct tk_trace_opts *opts)
{
	struct vec sources = VEC_INIT;
	struct tk_source **slot;
	struct model_warner w;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(out && (data || !size) && name);
	TK_ASSERT_PRE(!opts || opts->size >= sizeof(size_t));
	w = opts_warner(opts);
	slot = vec_push(&sources, sizeof(*slot));
	if (!slot)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace: name=%s", name);
	st = tracedat_source_open_mem(slot, data, size, name);
	if (st < 0)
		sources.len--;
	return trace_finish(out, &sources, st, &w);
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
