// SPDX-License-Identifier: MIT
/*
 * The perf style: what `perf script` (6.1) prints by default for tracepoint samples, byte for
 * byte. A line is
 *
 *	"%16s %5d [%03d] %12s: %*s: <trace>\n"    (comm, tid, CPU, time, event name)
 *
 * with the time as seconds and microseconds, truncated ("%lu.%06lu"; with --nsec,
 * "%5lu.%09llu"), the event name right-aligned to the longest name among the source's events
 * (perf's evlist__max_name_len(), over every attribute of the file, sampled or not), and the
 * text perf's libtraceevent prints for the sample's raw record, which the reader gives
 * (model_text_ops.event() with MODEL_TEXT_PERF). perf script prints nothing for lost
 * events and nothing before the first line; neither does this sink. A sample without a TID
 * or a CPU leaves out that part, as perf drops the field. Samples of other events (cycles,
 * ...) get the same start and no text: perf adds the period, ip, symbol and DSO, which need
 * its symbol resolution (doc/format-perf.md).
 *
 * Everything from the format is the reader's, through the text hooks of its source (struct
 * model_text_ops, model.h): the task, the name, the text. This file includes no format
 * folder, like tracecmd.c, whose style "auto" hands it the sources whose tool is perf.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "../common/writer.h"
#include "../model/model.h"
#include "pretty.h"
#include "sink.h"

/* Per source: its text hooks and the width of the event names. */
struct psc_source {
	const struct tk_source *src;
	const struct model_text_ops *text; /* NULL: printed in babeltrace2's style */
	uint32_t width;
};

/* Per event class (its dense index): "%*s: " of its name, rendered once. */
struct psc_name {
	char *text;
	uint32_t len;
};

struct perfscript_state {
	struct psc_source *srcs;
	size_t n_srcs;
	struct psc_name *names;
	size_t n_names;
};

/* The name perf shows for @ec's events: the source's answer, else "system:name". */
static size_t shown_name(const struct model_text_ops *text, const struct tk_event_class *ec,
			 char *buf, size_t size)
{
	const char *name = text && text->perf_name ? text->perf_name(ec) : NULL;

	if (name)
		return (size_t) snprintf(buf, size, "%s", name);
	if (ec->system && *ec->system)
		return (size_t) snprintf(buf, size, "%s:%s", ec->system, ec->name ? ec->name : "");
	return (size_t) snprintf(buf, size, "%s", ec->name ? ec->name : "[unknown]");
}

static struct perfscript_state *state_of(struct tk_printer *p)
{
	if (!p->perfscript)
		p->perfscript = calloc(1, sizeof(*p->perfscript));
	return p->perfscript;
}

/* The cache of @src, made on its first event; NULL when out of memory. */
static TK_NOINLINE struct psc_source *source_make(struct perfscript_state *s,
						  const struct tk_source *src)
{
	struct psc_source *c;
	char buf[512];
	size_t i, k, n;

	if (src->index >= s->n_srcs) {
		c = table_hold(s->srcs, &s->n_srcs, sizeof(*c), src->index);
		if (!c)
			return NULL;
		s->srcs = c;
	}
	c = &s->srcs[src->index];
	c->src = src;
	c->text = src->ops->text;
	c->width = 0;
	/* perf measures every event of the session, those without samples too */
	for (i = 0; i < src->n_scs; i++) {
		for (k = 0; k < src->scs[i]->n_ecs; k++) {
			const struct tk_event_class *ec = src->scs[i]->ecs[k];

			if (!ec)
				continue;
			n = shown_name(c->text, ec, buf, sizeof(buf));
			if (n > c->width)
				c->width = (uint32_t) n;
		}
	}
	return c;
}

static inline struct psc_source *source_of(struct perfscript_state *s, const struct tk_source *src)
{
	if (TK_LIKELY(src->index < s->n_srcs && s->srcs[src->index].src == src))
		return &s->srcs[src->index];
	return source_make(s, src);
}

static TK_NOINLINE const struct psc_name *
name_make(struct perfscript_state *s, const struct psc_source *c, const struct tk_event_class *ec)
{
	struct psc_name *t;
	char buf[512];
	size_t n, pad;

	if (ec->index >= s->n_names) {
		t = table_hold(s->names, &s->n_names, sizeof(*t), ec->index);
		if (!t)
			return NULL;
		s->names = t;
	}
	t = &s->names[ec->index];
	if (t->text)
		return t;
	n = shown_name(c->text, ec, buf, sizeof(buf));
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	pad = n < c->width ? c->width - n : 0;
	t->text = malloc(pad + n + 2);
	if (!t->text)
		return NULL;
	memset(t->text, ' ', pad);
	memcpy(t->text + pad, buf, n);
	memcpy(t->text + pad + n, ": ", 2);
	t->len = (uint32_t) (pad + n + 2);
	return t;
}

static inline const struct psc_name *name_of(struct perfscript_state *s, const struct psc_source *c,
					     const struct tk_event_class *ec)
{
	if (TK_LIKELY(ec->index < s->n_names && s->names[ec->index].text))
		return &s->names[ec->index];
	return name_make(s, c, ec);
}

/* perf's "%lu.%06lu" of a time in ns (microseconds truncated), right-aligned in 12. */
static char *put_time(char *q, uint64_t ns, bool nsec)
{
	uint64_t sec = ns / UINT64_C(1000000000);
	uint32_t frac = (uint32_t) (ns % UINT64_C(1000000000));
	unsigned int i;

	/* "%12s" of "S.UUUUUU" pads the seconds to 5 columns, as "%5lu.%09llu" does */
	for (i = fmt_count_digits(sec); i < 5; i++)
		*q++ = ' ';
	q += fmt_u64(q, sec);
	*q++ = '.';
	if (nsec)
		q += fmt_u64_pad(q, frac, 9);
	else
		q += fmt_u64_pad(q, frac / 1000, 6);
	memcpy(q, ": ", 2);
	return q + 2;
}

static TK_NOINLINE TK_COLD enum tk_status nomem(void)
{
	return TK_FAIL(TK_ERR_NOMEM, "Cannot print event in perf's style");
}

enum tk_status perfscript_print_event(struct tk_printer *p, const struct tk_event *ev)
{
	struct perfscript_state *s = state_of(p);
	struct writer *w = &p->out;
	const struct psc_source *c;
	const struct psc_name *nm;
	const char *comm;
	int64_t pid;
	size_t n;
	char *q;

	if (!s)
		return nomem();
	c = source_of(s, ev->stream->source);
	if (!c)
		return nomem();
	if (!c->text || !ev->ec)
		return pretty_print_event(p, ev);
	nm = name_of(s, c, ev->ec);
	if (!nm)
		return nomem();
	comm = c->text->task(ev, &pid);
	n = strlen(comm);
	q = writer_reserve(w, n + 96);
	if (n < 16) {
		memset(q, ' ', 16 - n);
		q += 16 - n;
	}
	memcpy(q, comm, n);
	q += n;
	*q++ = ' ';
	if (ev->has_task || c->text->tool != MODEL_TEXT_TOOL_PERF_SCRIPT) {
		char digits[24];
		size_t k = fmt_i64(digits, pid);

		for (; k < 5; k++)
			*q++ = ' ';
		q += fmt_i64(q, pid);
		*q++ = ' ';
	}
	if (ev->cpu >= 0) {
		*q++ = '[';
		q += fmt_u64_pad(q, (uint64_t) ev->cpu, 3);
		memcpy(q, "] ", 2);
		q += 2;
	}
	if (ev->has_ts)
		q = put_time(q, (uint64_t) ev->ns, p->flags & TK_PRINT_NSEC);
	writer_commit_to(w, q);
	writer_write(w, nm->text, nm->len);
	(void) c->text->event(ev, NULL, MODEL_TEXT_PERF, w);
	writer_putc(w, '\n');
	if (TK_UNLIKELY(w->err))
		return writer_flush(w);
	return TK_OK;
}

/* perf script prints nothing for lost events by default (--show-lost-events would). */
enum tk_status perfscript_print_notice(struct tk_printer *p, const struct tk_notice *n)
{
	(void) p;
	(void) n;
	return TK_OK;
}

void perfscript_destroy(struct tk_printer *p)
{
	struct perfscript_state *s = p->perfscript;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n_names; i++)
		free(s->names[i].text);
	free(s->names);
	free(s->srcs);
	free(s);
	p->perfscript = NULL;
}

/* Sources without a tool's text (CTF) print as babeltrace2 prints them, notices included. */
static enum tk_status notice(struct tk_printer *p, const struct tk_notice *n)
{
	if (n->stream && !n->stream->source->ops->text)
		return pretty_print_notice(p, n);
	return perfscript_print_notice(p, n);
}

const struct sink_ops sink_perfscript = {
	.event = perfscript_print_event,
	.notice = notice,
	.destroy = perfscript_destroy,
	.plan = plan_build,
};
