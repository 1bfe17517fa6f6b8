/* SPDX-License-Identifier: MIT */
/*
 * The pipeline's own parts (src/pipeline): the shortcuts that know two formats at once, which
 * only this folder may, and which tk_convert() takes when they recognise the trace.
 */
#ifndef TK_PIPELINE_PIPELINE_H
#define TK_PIPELINE_PIPELINE_H

#include "../model/sink.h"

/*
 * trace.dat to CTF by per-class copy plans (dat-to-ctf.c): one trace.dat source into the CTF
 * trace @output, a directory that exists and is empty.
 */
enum tk_status convert_dat_to_ctf(struct tk_trace *t, const char *output, struct sink_ctx *cx);

#endif /* TK_PIPELINE_PIPELINE_H */
