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
 * Other pairings are refused with TK_ERR_UNSUPPORTED and a cause naming them. A CTF output
 * must not exist or be an empty directory, checked before anything is written, so that
 * removing what a failed conversion left never touches anything else.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracekit/tracekit.h>

#include "../common/error.h"
#include "../common/outfile.h"
#include "../model/model.h"
#include "../output/pretty.h"
#include "../tracedat/source.h"
#include "convert-priv.h"

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

static int remove_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void) sb;
	(void) type;
	(void) ftw;
	return remove(path) < 0 ? 0 : 0; /* go on whatever happens */
}

/* What a failed CTF conversion left: the directory and the files tracekit made in it. */
static void remove_tree(const char *dir)
{
	(void) nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * A CTF output directory must not exist, or be empty: the writer fills it, and a failure
 * removes it with what it holds.
 */
static enum tk_status check_ctf_output(const char *output)
{
	struct dirent *de;
	struct stat sb;
	DIR *d;

	if (stat(output, &sb) < 0)
		return errno == ENOENT ? TK_OK
				       : TK_FAIL(TK_ERR_IO, "Cannot use output: path=%s, errno=%s",
						 output, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot use output: path=%s, reason=exists and is not a directory",
			       output);
	d = opendir(output);
	if (!d)
		return TK_FAIL(TK_ERR_IO, "Cannot use output: path=%s, errno=%s", output,
			       strerror(errno));
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			break;
	closedir(d);
	if (de)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot use output: path=%s, reason=directory not empty", output);
	return TK_OK;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
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

	if (ends_with(output, ".dat"))
		return TK_CONVERT_DAT;
	if (ends_with(output, ".jsonl") || ends_with(output, ".ndjson"))
		return TK_CONVERT_JSON;
	if (ends_with(output, ".json"))
		return TK_CONVERT_CHROME;
	base = base ? base + 1 : output;
	dot = strrchr(base, '.');
	if (ends_with(output, ".ctf") || !*base || !dot || dot == base ||
	    (stat(output, &sb) == 0 && S_ISDIR(sb.st_mode)))
		return TK_CONVERT_CTF;
	return TK_CONVERT_AUTO;
}

/* keep[] by event class: ftrace events by system and name, others by their name (a
 * "provider:event" name counts as system and event). */
static enum tk_status select_classes(struct convert_filter *f, const struct tk_trace *t)
{
	const struct tk_convert_opts *o = f->o;
	size_t i, k;

	if (!o->n_events)
		return TK_OK;
	f->n_keep = t->n_ecs;
	f->keep = calloc(f->n_keep + 1, 1);
	if (!f->keep)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot select events");
	for (k = 0; k < o->n_events; k++) {
		int by_system = 0, pass;

		/* pass 0: does the word name a system anywhere; pass 1: select */
		for (pass = 0; pass < 2; pass++)
			for (i = 0; i < t->n_ecs; i++) {
				const struct tk_event_class *ec = t->ecs[i];
				const struct ftrace_event *fev =
					tracedat_source_container(ec->sc->source) ? ec->fmt : NULL;
				char sys[128] = "";
				const char *name = ec->name ? ec->name : "", *colon;

				if (fev) {
					snprintf(sys, sizeof(sys), "%s", fev->system);
					name = fev->name;
				} else if ((colon = strchr(name, ':')) &&
					   (size_t) (colon - name) < sizeof(sys)) {
					memcpy(sys, name, (size_t) (colon - name));
					sys[colon - name] = '\0';
					name = colon + 1;
				}
				if (pass == 0)
					by_system |= ftrace_spec_names_system(o->events[k], sys);
				else if (ftrace_spec_match(o->events[k], by_system, sys, name))
					f->keep[ec->index] = 1;
			}
	}
	return TK_OK;
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
	int fd;

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
	if (st >= 0)
		st = tk_iter_create(&it, t);
	if (st >= 0) {
		tk_iter_set_notice_cb(it, on_notice, p);
		st = tk_printer_begin(p, t);
	}
	while (st >= 0 && (st = tk_iter_next(it, &ev)) == TK_OK) {
		size_t si = ev->stream->index;

		if (ev->missed && si < t->n_streams)
			missed[si] = model_missed_add(missed[si], ev->missed);
		if (!convert_keep(f, ev))
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
		convert_progress(f);
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
	enum tk_status st;

	if (t->n_sources != 1 || !tracedat_source_container(t->sources[0])) {
		st = select_classes(f, t);
		if (st >= 0)
			st = convert_ctf_to_dat(t, output, f);
		return st;
	}
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
			       "*.dat, *.jsonl, *.ndjson, *.json or *.ctf (or a directory without "
			       "extension for CTF), or give the format (--to)",
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
	switch (to) {
	case TK_CONVERT_DAT:
		st = to_dat(t, output, o, &filter);
		break;
	case TK_CONVERT_JSON:
	case TK_CONVERT_CHROME:
		st = select_classes(&filter, t);
		if (st >= 0)
			st = to_text(t, output,
				     to == TK_CONVERT_JSON ? TK_PRINT_STYLE_JSON
							   : TK_PRINT_STYLE_CHROME,
				     &filter);
		break;
	case TK_CONVERT_CTF:
		st = check_ctf_output(output);
		if (st < 0)
			break;
		st = select_classes(&filter, t);
		if (st >= 0 && t->n_sources == 1 && tracedat_source_container(t->sources[0]))
			st = convert_dat_to_ctf(t, output, &filter);
		else if (st >= 0)
			st = convert_ctf_to_ctf(t, inputs, n_inputs, output, &filter);
		if (st < 0)
			remove_tree(output);
		break;
	default:
		st = TK_FAIL(TK_ERR_UNSUPPORTED, "Cannot convert: to=%s, reason=not supported yet",
			     format_name(to));
		break;
	}
	tk_trace_close(t);
	free(filter.keep);
	if (st < 0)
		return TK_FAIL(st, "Cannot convert: output=%s, to=%s", output, format_name(to));
	return TK_OK;
}
