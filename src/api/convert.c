// SPDX-License-Identifier: MIT
/*
 * tk_convert() (include/tracekit/convert.h): one entry point that picks the path from the
 * input and output formats. It lives with the other entry points that span formats.
 *
 *   trace.dat -> trace.dat   tracedat_copy(): pages copied, or records re-encoded when
 *                            events or a time window are selected
 *   trace.dat -> CTF         convert-ctf.c: ftrace fields as typed CTF fields, and the
 *                            file's ftrace metadata in the environment
 *   CTF -> trace.dat         convert-dat.c: the original file again from a CTF trace that
 *                            carries that metadata, else formats made from the event classes
 *   CTF -> CTF               convert-ctf-ctf.c: every source rewritten through the CTF
 *                            writer, field classes, IDs, clock values and losses kept
 *   any -> JSON, Chrome      the printer's JSON and Chrome styles into the output file
 *
 * Other pairings are refused with TK_ERR_UNSUPPORTED and a cause naming them. Outputs appear
 * whole or not at all (src/common/outfile.h): files are built without a name, CTF
 * directories under a temporary one, and renamed when complete; a CTF output must not exist
 * or be an empty directory.
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
#include "../model/model.h"
#include "../output/pretty.h"
#include "../output/sink.h"
#include "../tracedat/source.h"
#include "convert-priv.h"

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
static enum tk_status make_filter(struct convert_filter *f, struct tk_trace *t)
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

static void on_notice(const struct tk_notice *n, void *payload)
{
	(void) tk_printer_print_notice(payload, n);
}

/* Any input as JSON lines or Chrome JSON: the printer's styles, written to @output. */
static enum tk_status to_text(struct tk_trace *t, const char *output, unsigned int style,
			      struct convert_filter *f)
{
	struct tk_print_opts po = TK_PRINT_OPTS_INIT;
	struct tk_printer *p = NULL;
	struct tk_iter *it = NULL;
	struct outfile of = OUTFILE_INIT;
	const struct tk_event *ev;
	enum tk_status st, st2;
	int fd, keep;

	int64_t *missed = calloc(t->n_streams + 1, sizeof(*missed)); /* by stream, not shown yet */

	if (!missed)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert");
	st = outfile_open(&of, output); /* named when complete */
	if (st < 0) {
		free(missed);
		return st;
	}
	fd = of.fd;
	po.style = style;
	po.out_fd = fd;
	po.err_fd = fd;
	st = tk_printer_open(&p, &po);
	if (st >= 0) {
		tk_printer_set_filter(p, f->tf);
		st = tk_iter_create(&it, t);
	}
	if (st >= 0) {
		tk_iter_set_notice_cb(it, on_notice, p);
		st = tk_printer_begin(p, t);
	}
	while (st >= 0 && (st = tk_iter_next(it, &ev)) == TK_OK) {
		size_t si = ev->stream->index;

		if (ev->missed && si < t->n_streams)
			missed[si] = model_missed_add(missed[si], ev->missed);
		keep = convert_keep(f, ev);
		if (keep < 0) {
			st = (enum tk_status) keep;
			break;
		}
		if (!keep)
			continue;
		if (si < t->n_streams && missed[si] != ev->missed) {
			/* losses before unselected events: shown with this one, as trace.dat does */
			struct tk_event copy;

			st = model_event_values(ev); /* into ev: decode before copying */
			copy = *ev;
			copy.missed = missed[si];
			if (st >= 0)
				st = tk_printer_print(p, &copy);
		} else {
			st = tk_printer_print(p, ev);
		}
		if (si < t->n_streams)
			missed[si] = 0;
		if (st >= 0)
			st = convert_progress(f);
	}
	if (st == TK_END)
		st = TK_OK;
	tk_iter_destroy(it);
	st2 = printer_close(p); /* adds to the chain of a failure rather than resetting it */
	if (st >= 0)
		st = st2;
	if (st >= 0)
		st = outfile_commit(&of);
	else
		outfile_abort(&of);
	free(missed);
	return st;
}

static enum tk_status to_dat(struct tk_trace *t, const char *output,
			     const struct tk_convert_opts *o, struct convert_filter *f)
{
	struct tracedat_copy_opts co = {0};

	if (t->n_sources != 1 || !tracedat_source_container(t->sources[0]))
		return convert_ctf_to_dat(t, output, f);
	co.version = o->file_version;
	co.compression = o->compression;
	co.filter = model_filter_all(f->tf) ? NULL : f->tf;
	co.progress = o->progress;
	co.payload = o->payload;
	co.stop = f->stop;
	return tracedat_copy(t->sources[0], output, &co);
}

void convert_warn(const struct convert_filter *f, const char *fmt, ...)
{
	const struct tk_convert_opts *o = f->o;
	char text[512];
	va_list ap;

	if (o->size < offsetof(struct tk_convert_opts, warning_payload) + sizeof(void *) ||
	    !o->warning)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	o->warning(text, o->warning_payload);
}

enum tk_status convert_stopped(const volatile sig_atomic_t *stop)
{
	if (!stop || !*stop)
		return TK_OK;
	return TK_FAIL(TK_ERR_CANCELED, "Cannot go on: reason=stopped by the caller");
}

enum tk_status tk_convert(const char *const *inputs, size_t n_inputs, const char *output,
			  const struct tk_convert_opts *opts)
{
	static const struct tk_convert_opts defaults = TK_CONVERT_OPTS_INIT;
	const struct tk_convert_opts *o = opts ? opts : &defaults;
	struct tk_trace_opts topts = TK_TRACE_OPTS_INIT;
	struct tk_trace *t = NULL;
	struct convert_filter filter = {0};
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
	switch (to) {
	case TK_CONVERT_DAT:
		st = to_dat(t, output, o, &filter);
		break;
	case TK_CONVERT_JSON:
	case TK_CONVERT_CHROME:
		st = to_text(t, output,
			     to == TK_CONVERT_JSON ? TK_PRINT_STYLE_JSON : TK_PRINT_STYLE_CHROME,
			     &filter);
		break;
	case TK_CONVERT_CTF: {
		struct outdir od = OUTDIR_INIT; /* named when whole */

		st = outdir_open(&od, output);
		if (st >= 0 && t->n_sources == 1 && tracedat_source_container(t->sources[0]))
			st = convert_dat_to_ctf(t, od.tmp, &filter);
		else if (st >= 0)
			st = convert_ctf_to_ctf(t, inputs, n_inputs, od.tmp, &filter);
		if (st >= 0)
			st = outdir_commit(&od);
		else
			outdir_abort(&od);
		break;
	}
	default:
		if (to >= TK_CONVERT_STYLE(0) && tk_print_style_name(to - TK_CONVERT_STYLE(0))) {
			st = to_text(t, output, to - TK_CONVERT_STYLE(0), &filter);
			break;
		}
		st = TK_FAIL(TK_ERR_UNSUPPORTED, "Cannot convert: to=%s, reason=not supported yet",
			     format_name(to));
		break;
	}
	tk_filter_destroy(filter.tf);
	tk_trace_close(t);
	if (st < 0)
		return TK_FAIL(st, "Cannot convert: output=%s, to=%s", output, format_name(to));
	if (o->progress && filter.events) /* the final count, for the caller's summary */
		o->progress(filter.events, filter.total, o->payload);
	return TK_OK;
}
