/* SPDX-License-Identifier: MIT */
/*
 * The pipeline's own parts (src/pipeline): the shortcuts that know two formats at once, which
 * only this folder may, and which tk_convert() takes when they recognise the trace.
 */
#ifndef TK_PIPELINE_PIPELINE_H
#define TK_PIPELINE_PIPELINE_H

#include "../model/sink.h"

/*
 * tk_trace_open(), with the event classes of events not read yet left unmade when @lazy
 * (model_class_load()): what printing needs, where a `-e all` trace.dat file has 2,300
 * formats and events of a few dozen.
 */
enum tk_status pipeline_trace_open(struct tk_trace **out, const char *const *paths, size_t npaths,
				   const struct tk_trace_opts *opts, int lazy);

/*
 * The one loop (convert.c): open @sink on @output, give it every event of @t the filter
 * stage of @cx keeps (the losses before the others too) in time order, or stream after
 * stream when the sink says so (sink_class.by_stream), and close it.
 */
enum tk_status pipeline_run_sink(struct tk_trace *t, const char *output,
				 const struct sink_class *sink, struct sink_ctx *cx);

/*
 * trace.dat to CTF: the CTF sink with per-class copy plans (dat-to-ctf.c), for one
 * trace.dat source, into the CTF trace @output, a directory that exists and is empty.
 */
enum tk_status convert_dat_to_ctf(struct tk_trace *t, const char *output, struct sink_ctx *cx);

#endif /* TK_PIPELINE_PIPELINE_H */
