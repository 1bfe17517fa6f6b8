// SPDX-License-Identifier: MIT
/*
 * tk_convert() (include/tracekit/convert.h): the pipeline. One path for every pairing:
 *
 *   open the inputs (tk_trace_open(), the table of readers) -> time-ordered iterator ->
 *   filter stage -> sink
 *
 * The sink comes from the output's format: a row of outputs[] below for the writers (CTF,
 * trace.dat), the printer for the text sinks (src/output/sink.c: JSON lines, Chrome JSON,
 * CSV, TSV, babeltrace2's and trace-cmd's text). A row may offer shortcuts for traces it
 * recognises, tried in order before the generic loop (unless the caller asks for the
 * generic path, TK_CONVERT_GENERIC):
 *
 *   trace.dat -> trace.dat   tracedat_copy(): pages copied, or records re-encoded when
 *                            events or a time window are selected
 *   trace.dat -> CTF         dat-to-ctf.c: per-class copy plans, CPU stream after stream,
 *                            or with nothing selected CPUs on threads, the same bytes
 *   CTF -> CTF               ctf_copy() (src/ctf/ctf-copy.c): with nothing selected, each
 *                            trace's files copied as they are once read as the sink's path
 *                            reads them, streams in parallel; it gives up (TK_AGAIN) for the
 *                            sink's path to write, and say what is wrong, whenever it cannot
 *
 * Outputs appear whole or not at all (src/common/outfile.h): files are built without a
 * name, directories under a temporary one, and named when complete; a CTF output must not
 * exist or be an empty directory.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracekit/tracekit.h>

#include "../common/error.h"
#include "../common/outfile.h"
#include "../common/str.h"
#include "../ctf/ctf.h"
#include "../model/model.h"
#include "../output/pretty.h"
#include "../output/sink.h"
#include "../tracedat/source.h"
#include "pipeline.h"

static const char *format_name(unsigned int f)
{
	if (f >= TK_CONVERT_STYLE(0) && tk_print_style_name(f - TK_CONVERT_STYLE(0)))
		return tk_print_style_name(f - TK_CONVERT_STYLE(0));
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

/*
 * The format TK_CONVERT_AUTO stands for, from the output's name: the extensions below, a
 * CTF directory for ".ctf", a name without extension, a trailing '/' or an existing
 * directory; TK_CONVERT_AUTO itself for any other extension, which is refused (writing a
 * CTF directory named "trace.txt" is never what was meant).
 */
static unsigned int guess_format(const char *output)
{
	const char *base = strrchr(output, '/'), *dot;
	struct stat sb;
	int style;

	if (str_ends_with(output, ".dat"))
		return TK_CONVERT_DAT;
	style = sink_style_for_path(output);
	if (style == TK_PRINT_STYLE_JSON)
		return TK_CONVERT_JSON;
	if (style == TK_PRINT_STYLE_CHROME)
		return TK_CONVERT_CHROME;
	if (style >= 0)
		return TK_CONVERT_STYLE(style);
	base = base ? base + 1 : output;
	dot = strrchr(base, '.');
	if (str_ends_with(output, ".ctf") || !*base || !dot || dot == base ||
	    (stat(output, &sb) == 0 && S_ISDIR(sb.st_mode)))
		return TK_CONVERT_CTF;
	return TK_CONVERT_AUTO;
}

/*
 * The filter stage of a conversion: opts->filter, with the older options (events, begin_ns,
 * end_ns) for the parts it leaves open.
 */
static enum tk_status make_filter(struct sink_ctx *f, struct tk_trace *t)
{
	const struct tk_convert_opts *o = f->o;
	struct tk_filter_opts fo = TK_FILTER_OPTS_INIT;

	if (o->size >= offsetof(struct tk_convert_opts, filter) + sizeof(o->filter) && o->filter)
		fo = *o->filter;
	fo.size = sizeof(fo);
	if (!fo.n_events && o->n_events) {
		fo.events = o->events;
		fo.n_events = o->n_events;
	}
	if (fo.begin.kind == TK_TIME_NONE && o->has_begin) {
		fo.begin.kind = TK_TIME_FROM_ORIGIN;
		fo.begin.ns = o->begin_ns;
	}
	if (fo.end.kind == TK_TIME_NONE && o->has_end) {
		fo.end.kind = TK_TIME_FROM_ORIGIN;
		fo.end.ns = o->end_ns;
	}
	return tk_filter_create(&f->tf, t, &fo);
}

/* ---- text sinks: the printer into a file -------------------------------------------------- */

struct text_sink {
	struct tk_printer *p;
	struct outfile of; /* the output file, unless the printer writes to its own fds */
	uint8_t to_fd;	   /* tk_print(): the printer writes to tk_print_opts.out_fd */
	uint8_t carry;	   /* losses before dropped events go with the next one kept */
	int64_t *missed;   /* by stream: losses before dropped events, not shown yet */
	size_t n_streams;
	enum tk_status err; /* a notice the printer could not write */
};

/*
 * The printer writing @output, or, for tk_print() (@output NULL), writing to the fds its
 * options give.
 */
static enum tk_status text_open(void **state, struct tk_trace *t, const char *output,
				struct sink_ctx *cx)
{
	struct tk_print_opts po = TK_PRINT_OPTS_INIT;
	struct text_sink *s = calloc(1, sizeof(*s));
	const struct sink_ops *ops = sink_for_style(cx->style);
	enum tk_status st;

	if (s)
		s->missed = calloc(t->n_streams + 1, sizeof(*s->missed));
	if (!s || !s->missed) {
		if (s)
			free(s);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert");
	}
	s->n_streams = t->n_streams;
	s->carry = ops && ops->carry_losses;
	s->of = (struct outfile) OUTFILE_INIT;
	s->to_fd = !output;
	if (output) {
		st = outfile_open(&s->of, output); /* named when complete */
		if (st < 0) {
			free(s->missed);
			free(s);
			return st;
		}
		po.style = cx->style;
		po.out_fd = s->of.fd;
		po.err_fd = s->of.fd;
	}
	st = tk_printer_open(&s->p, output ? &po : cx->print);
	if (st >= 0) {
		tk_printer_set_filter(s->p, cx->tf);
		st = tk_printer_begin(s->p, t);
	}
	*state = s;
	return st;
}

static void text_skip(void *state, const struct tk_event *ev)
{
	struct text_sink *s = state;
	size_t si = ev->stream->index;

	if (ev->missed && s->carry && si < s->n_streams)
		s->missed[si] = model_missed_add(s->missed[si], ev->missed);
}

/* text_event() of an event after dropped ones: the losses are shown with it, as trace.dat does. */
static TK_NOINLINE enum tk_status text_event_missed(struct text_sink *s, const struct tk_event *ev,
						    size_t si)
{
	struct tk_event copy;
	enum tk_status st;

	st = model_event_values(ev); /* into ev: decode before copying */
	copy = *ev;
	copy.missed = model_missed_add(s->missed[si], ev->missed);
	s->missed[si] = 0;
	return st < 0 ? st : tk_printer_print(s->p, &copy);
}

static enum tk_status text_event(void *state, const struct tk_event *ev)
{
	struct text_sink *s = state;
	size_t si = ev->stream->index;

	if (si < s->n_streams && s->missed[si]) /* out of line: no frame for the usual case */
		return text_event_missed(s, ev, si);
	return s->p->event(s->p, ev); /* tk_printer_print() without its call */
}

/* Every event at once when the printer prints them all in babeltrace2's layout. */
static enum tk_status text_events(void *state, struct tk_iter *it, struct sink_ctx *cx)
{
	struct text_sink *s = state;

	if (s->p->event != pretty_print_event)
		return TK_AGAIN;
	return pretty_print_iter(s->p, it, cx);
}

static void text_notice(void *state, const struct tk_notice *n)
{
	struct text_sink *s = state;
	enum tk_status st = tk_printer_print_notice(s->p, n);

	if (st < 0 && s->err >= 0)
		s->err = st;
}

static enum tk_status text_close(void *state, enum tk_status st)
{
	struct text_sink *s = state;
	enum tk_status st2;

	if (st >= 0)
		st = s->err;
	st2 = s->p ? printer_close(s->p) : TK_OK; /* adds to the chain of a failure */
	if (st >= 0)
		st = st2;
	if (!s->to_fd) { /* to the printer's fds, what was written stays */
		if (st >= 0)
			st = outfile_commit(&s->of);
		else
			outfile_abort(&s->of);
	}
	free(s->missed);
	free(s);
	return st;
}

/* The printer's styles as a sink; which style is in struct sink_ctx. */
static const struct sink_class text_sink = {
	.name = "text",
	.open = text_open,
	.event = text_event,
	.events = text_events,
	.skip = text_skip,
	.notice = text_notice,
	.close = text_close,
};

/* ---- shortcuts ---------------------------------------------------------------------------- */

/* One trace.dat file and nothing else. */
static int lone_tracedat(const struct tk_trace *t, const struct sink_ctx *cx)
{
	(void) cx;
	return t->n_sources == 1 && tracedat_source_container(t->sources[0]);
}

/* trace.dat -> trace.dat: pages copied untouched, or kept records into new pages. */
static enum tk_status dat_copy(struct tk_trace *t, const char *output, struct sink_ctx *cx)
{
	const struct tk_convert_opts *o = cx->o;
	struct tracedat_copy_opts co = {0};

	co.version = o->file_version;
	co.compression = o->compression;
	co.filter = model_filter_all(cx->tf) ? NULL : cx->tf;
	co.progress = o->progress;
	co.payload = o->payload;
	co.stop = cx->stop;
	return tracedat_copy(t->sources[0], output, &co);
}

/* ---- the outputs -------------------------------------------------------------------------- */

/*
 * A shortcut a sink offers for traces it recognises (and a selection, in @cx): the same
 * output, less work. @run may still give up, leaving nothing written and the error chain as
 * it was, by returning TK_AGAIN: the sink's own path then writes the output.
 */
struct shortcut {
	int (*recognises)(const struct tk_trace *t, const struct sink_ctx *cx);
	enum tk_status (*run)(struct tk_trace *t, const char *output, struct sink_ctx *cx);
};

/* The writers; the text sinks come from the printer's registry (src/output/sink.c). */
static const struct output_row {
	unsigned int to; /* enum tk_convert_format */
	const struct sink_class *sink;
	struct shortcut shortcuts[2];
} outputs[] = {
	{TK_CONVERT_DAT, &tracedat_sink, {{lone_tracedat, dat_copy}}},
	{TK_CONVERT_CTF,
	 &ctf_sink,
	 {{lone_tracedat, convert_dat_to_ctf}, {ctf_copy_recognises, ctf_copy}}},
};

/* An open sink, as the iterator's notice callback gets it. */
struct open_sink {
	const struct sink_class *cls;
	void *state;
};

static void on_notice(const struct tk_notice *n, void *payload)
{
	const struct open_sink *os = payload;

	os->cls->notice(os->state, n);
}

enum tk_status pipeline_run_sink(struct tk_trace *t, const char *output,
				 const struct sink_class *sink, struct sink_ctx *cx)
{
	struct open_sink run = {sink, NULL};
	struct tk_iter *it = NULL;
	const struct tk_event *ev;
	void *state = NULL;
	enum tk_status st;
	int keep, batch, all = model_filter_all(cx->tf); /* asked once, not per event */

	cx->sink_failed = 0;
	st = sink->open(&state, t, output, cx);
	if (st < 0) {
		cx->sink_failed = 1;
		if (state)
			(void) sink->close(state, st);
		return st;
	}
	run.state = state;
	do {
		st = sink->by_stream ? model_iter_create_by_stream(&it, t) : tk_iter_create(&it, t);
		if (st >= 0 && !all) { /* a time window is read from where it begins */
			int has_begin, has_end;
			int64_t begin, end;

			model_filter_window(cx->tf, &has_begin, &begin, &has_end, &end);
			model_iter_set_window(it, has_begin, begin, has_end, end);
		}
		if (st >= 0 && sink->notice)
			tk_iter_set_notice_cb(it, on_notice, &run);
		/* the sink takes them all itself, or says TK_AGAIN: one by one below */
		batch = st >= 0 && all && sink->events &&
			(st = sink->events(state, it, cx)) != TK_AGAIN;
		if (st == TK_AGAIN)
			st = TK_OK;
		while (!batch && st >= 0 && (st = model_iter_next(it, &ev)) == TK_OK) {
			keep = all ? 1 : sink_keep(cx, ev);
			if (keep < 0) {
				st = (enum tk_status) keep;
				break;
			}
			if (!keep) {
				if (sink->skip)
					sink->skip(state, ev);
				continue;
			}
			st = sink->event(state, ev);
			if (st < 0) {
				/* a format error is the input's: an event the sink could not decode */
				cx->sink_failed = st != TK_ERR_FORMAT;
				break;
			}
			st = sink_progress(cx);
		}
		if (st == TK_END)
			st = TK_OK;
		tk_iter_destroy(it);
		it = NULL;
		keep = st >= 0; /* a failure now is the sink's own */
		st = sink->close(state, st);
		if (keep && st < 0)
			cx->sink_failed = 1;
		if (st == TK_AGAIN)
			cx->events = 0; /* the sink measured: every event again */
	} while (st == TK_AGAIN);
	return st;
}

/*
 * Write @t to @output as @to says: a shortcut the row offers for this trace, else the
 * generic loop into the row's sink (a directory sink gets a directory built under a
 * temporary name).
 */
static enum tk_status write_output(struct tk_trace *t, const char *output, unsigned int to,
				   struct sink_ctx *cx)
{
	const struct sink_class *sink = &text_sink;
	const struct output_row *row = NULL;
	const struct shortcut *sc = NULL;
	struct outdir od = OUTDIR_INIT;
	int generic = 0;
	enum tk_status st;
	size_t i;

	if (cx->o->size >= offsetof(struct tk_convert_opts, flags) + sizeof(cx->o->flags))
		generic = !!(cx->o->flags & TK_CONVERT_GENERIC);
	for (i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		if (outputs[i].to == to)
			row = &outputs[i];
	if (row) {
		sink = row->sink;
		for (i = 0; !generic && i < sizeof(row->shortcuts) / sizeof(row->shortcuts[0]); i++)
			if (row->shortcuts[i].recognises && row->shortcuts[i].recognises(t, cx)) {
				sc = &row->shortcuts[i];
				break;
			}
	} else if (to == TK_CONVERT_JSON || to == TK_CONVERT_CHROME) {
		cx->style = to == TK_CONVERT_JSON ? TK_PRINT_STYLE_JSON : TK_PRINT_STYLE_CHROME;
	} else if (to >= TK_CONVERT_STYLE(0) && tk_print_style_name(to - TK_CONVERT_STYLE(0))) {
		cx->style = to - TK_CONVERT_STYLE(0);
	} else {
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot convert: to=%s, reason=not supported yet", format_name(to));
	}
	if (!sink->dir) {
		st = sc ? sc->run(t, output, cx) : TK_AGAIN;
		return st == TK_AGAIN ? pipeline_run_sink(t, output, sink, cx) : st;
	}
	st = outdir_open(&od, output); /* named when whole */
	if (st >= 0)
		st = sc ? sc->run(t, od.tmp, cx) : TK_AGAIN;
	if (st == TK_AGAIN) /* no shortcut, or it gave up */
		st = pipeline_run_sink(t, od.tmp, sink, cx);
	if (st >= 0)
		st = outdir_commit(&od);
	else
		outdir_abort(&od);
	return st;
}

enum tk_status tk_convert(const char *const *inputs, size_t n_inputs, const char *output,
			  const struct tk_convert_opts *opts)
{
	static const struct tk_convert_opts defaults = TK_CONVERT_OPTS_INIT;
	const struct tk_convert_opts *o = opts ? opts : &defaults;
	struct tk_trace_opts topts = TK_TRACE_OPTS_INIT;
	struct tk_trace *t = NULL;
	struct sink_ctx filter = {0};
	unsigned int to;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(inputs && n_inputs && output && o->size >= sizeof(size_t));
	to = o->to == TK_CONVERT_AUTO ? guess_format(output) : o->to;
	if (to == TK_CONVERT_AUTO)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot convert: output=%s, reason=unknown extension %s; name it "
			       "*.dat, *.jsonl, *.ndjson, *.json, *.csv, *.tsv or *.ctf (or a "
			       "directory without extension for CTF), or give the format (--to)",
			       output, strrchr(output, '.'));
	for (size_t i = 0; i < n_inputs; i++)
		if (outfile_same(output, inputs[i]))
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot convert: output=%s, reason=it is the input %s; "
				       "write to another file",
				       output, inputs[i]);
	if (o->size >= offsetof(struct tk_convert_opts, warning_payload) + sizeof(void *)) {
		topts.warning = o->warning;
		topts.payload = o->warning_payload;
	}
	st = tk_trace_open(&t, inputs, n_inputs, &topts);
	if (st < 0)
		return TK_FAIL(st, "Cannot convert: output=%s", output);
	filter.o = o;
	if (o->size >= offsetof(struct tk_convert_opts, stop) + sizeof(o->stop))
		filter.stop = o->stop;
	st = make_filter(&filter, t);
	if (st < 0) {
		tk_trace_close(t);
		return TK_FAIL(st, "Cannot convert: output=%s", output);
	}
	filter.inputs = inputs;
	filter.n_inputs = n_inputs;
	st = write_output(t, output, to, &filter);
	tk_filter_destroy(filter.tf);
	tk_trace_close(t);
	if (st < 0)
		return TK_FAIL(st, "Cannot convert: output=%s, to=%s", output, format_name(to));
	if (o->progress && filter.events) /* the final count, for the caller's summary */
		o->progress(filter.events, filter.total, o->payload);
	return TK_OK;
}

enum tk_status tk_print(const char *const *inputs, size_t n_inputs,
			const struct tk_print_opts *popts, const struct tk_convert_opts *copts)
{
	static const struct tk_convert_opts no_copts = TK_CONVERT_OPTS_INIT;
	static const struct tk_print_opts no_popts = TK_PRINT_OPTS_INIT;
	const struct tk_convert_opts *o = copts ? copts : &no_copts;
	struct tk_trace_opts topts = TK_TRACE_OPTS_INIT;
	struct sink_ctx cx = {0};
	struct tk_trace *t = NULL;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(inputs && n_inputs && o->size >= sizeof(size_t));
	if (!popts)
		popts = &no_popts;
	TK_ASSERT_PRE(popts->size >= offsetof(struct tk_print_opts, style) + sizeof(popts->style));
	if (o->size >= offsetof(struct tk_convert_opts, warning_payload) + sizeof(void *)) {
		topts.warning = o->warning;
		topts.payload = o->warning_payload;
	}
	/* the classes of the events met are made as they are met */
	st = pipeline_trace_open(&t, inputs, n_inputs, &topts, 1);
	if (st < 0)
		return st;
	{
		const struct sink_ops *sink = sink_for_style(popts->style);
		size_t i;

		for (i = 0; sink && sink->stored_order && i < t->n_sources; i++)
			t->sources[i]->stored_order = 1;
	}
	cx.o = o;
	if (o->size >= offsetof(struct tk_convert_opts, stop) + sizeof(o->stop))
		cx.stop = o->stop;
	cx.inputs = inputs;
	cx.n_inputs = n_inputs;
	cx.style = popts->style;
	cx.print = popts;
	st = make_filter(&cx, t);
	if (st >= 0) {
		st = pipeline_run_sink(t, NULL, &text_sink, &cx);
		if (st < 0)
			st = TK_FAIL(st,
				     cx.sink_failed ? "Cannot write output" : "Cannot read trace");
	}
	tk_filter_destroy(cx.tf);
	tk_trace_close(t);
	if (st >= 0 && o->progress && cx.events) /* the final count, for the caller's summary */
		o->progress(cx.events, 0, o->payload);
	return st;
}
