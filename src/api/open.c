// SPDX-License-Identifier: MIT
/*
 * Entry points that need every reader: opening paths (the format is recognised from the
 * content) and closing. This is the one place that knows all formats, so the format folders
 * never include each other.
 */
#include <stdlib.h>
#include <string.h>

#include <tracekit/tracekit.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "../ctf/ctf.h"
#include "../model/model.h"

#ifndef TK_VERSION
#define TK_VERSION "0.0.0"
#endif

const char *tk_version(void)
{
	return TK_VERSION;
}

enum tk_status tk_trace_open(struct tk_trace **out, const char *const *paths, size_t npaths,
			     const struct tk_trace_opts *opts)
{
	struct vec sources = VEC_INIT;
	struct tk_trace *t;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(out && paths && npaths > 0);
	TK_ASSERT_PRE(!opts || opts->size >= sizeof(size_t));
	t = calloc(1, sizeof(*t));
	if (!t)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace");
	st = ctf_sources_open(paths, npaths, &sources);
	t->sources = sources.data;
	t->n_sources = sources.len;
	if (st >= 0)
		st = model_trace_finish(t);
	if (st < 0) {
		tk_trace_close(t);
		return TK_FAIL(st, "Cannot open trace");
	}
	*out = t;
	return TK_OK;
}

enum tk_status tk_trace_close(struct tk_trace *trace)
{
	size_t i;

	if (!trace)
		return TK_OK;
	for (i = 0; i < trace->n_sources; i++)
		ctf_source_destroy(trace->sources[i]);
	free(trace->sources);
	free(trace->ecs);
	free(trace->streams);
	free(trace);
	return TK_OK;
}
