// SPDX-License-Identifier: MIT
/*
 * tk_convert() (include/tracekit/convert.h): one entry point that picks the path from the
 * input and output formats. It lives with the other entry points that span formats.
 *
 *   trace.dat -> trace.dat   tracedat_copy(): pages copied, or records re-encoded when
 *                            events or a time window are selected
 *
 * Other pairings are refused with TK_ERR_UNSUPPORTED and a cause naming them.
 */
#include <string.h>
#include <unistd.h>

#include <tracekit/tracekit.h>

#include "../common/error.h"
#include "../model/model.h"
#include "../tracedat/source.h"

static const char *format_name(unsigned int f)
{
	switch (f) {
	case TK_CONVERT_DAT:
		return "trace.dat";
	case TK_CONVERT_CTF:
		return "ctf";
	case TK_CONVERT_JSON:
		return "json";
	case TK_CONVERT_CHROME:
		return "chrome";
	}
	return "auto";
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* The format TK_CONVERT_AUTO stands for, from the output's name. */
static unsigned int guess_format(const char *output)
{
	if (ends_with(output, ".dat"))
		return TK_CONVERT_DAT;
	if (ends_with(output, ".jsonl") || ends_with(output, ".ndjson"))
		return TK_CONVERT_JSON;
	if (ends_with(output, ".json"))
		return TK_CONVERT_CHROME;
	return TK_CONVERT_CTF;
}

static enum tk_status to_dat(struct tk_trace *t, const char *output,
			     const struct tk_convert_opts *o)
{
	struct tracedat_copy_opts co = {0};
	enum tk_status st;

	if (t->n_sources != 1 || !tracedat_source_container(t->sources[0]))
		return TK_FAIL(
			TK_ERR_UNSUPPORTED,
			"Cannot convert to trace.dat: sources=%zu, reason=only one trace.dat "
			"input can be written as trace.dat for now",
			t->n_sources);
	co.version = o->file_version;
	co.compression = o->compression;
	co.events = o->events;
	co.n_events = o->n_events;
	co.has_begin = o->has_begin;
	co.begin_ns = o->begin_ns;
	co.has_end = o->has_end;
	co.end_ns = o->end_ns;
	co.progress = o->progress;
	co.payload = o->payload;
	st = tracedat_copy(t->sources[0], output, &co);
	if (st < 0)
		unlink(output);
	return st;
}

enum tk_status tk_convert(const char *const *inputs, size_t n_inputs, const char *output,
			  const struct tk_convert_opts *opts)
{
	static const struct tk_convert_opts defaults = TK_CONVERT_OPTS_INIT;
	const struct tk_convert_opts *o = opts ? opts : &defaults;
	struct tk_trace *t = NULL;
	unsigned int to;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(inputs && n_inputs && output && o->size >= sizeof(size_t));
	to = o->to == TK_CONVERT_AUTO ? guess_format(output) : o->to;
	st = tk_trace_open(&t, inputs, n_inputs, NULL);
	if (st < 0)
		return TK_FAIL(st, "Cannot convert: output=%s", output);
	switch (to) {
	case TK_CONVERT_DAT:
		st = to_dat(t, output, o);
		break;
	default:
		st = TK_FAIL(TK_ERR_UNSUPPORTED, "Cannot convert: to=%s, reason=not supported yet",
			     format_name(to));
		break;
	}
	tk_trace_close(t);
	if (st < 0)
		return TK_FAIL(st, "Cannot convert: output=%s, to=%s", output, format_name(to));
	return TK_OK;
}
