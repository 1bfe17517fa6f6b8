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
	char *text; /* padded for 16-byte copies */
	uint32_t len;
	bool unpadded; /* the task name as it is, not in 16 columns (perf_comm_unpadded) */
};

/*
 * "%16s %5d " of a task, as last rendered in its slot (by tid): a thread prints many lines
 * in a row. The key is the name's pointer, which the reader keeps for the source's life and
 * changes when the task is renamed.
 */
#define PSC_TASKS     64
#define PSC_TASK_TEXT 48 /* longest text kept: a name of up to 24 bytes */

struct psc_task {
	const char *comm; /* NULL: empty */
	int64_t pid;
	uint32_t len;
	char text[PSC_TASK_TEXT];
};

struct perfscript_state {
	struct psc_source *srcs;
	size_t n_srcs;
	struct psc_name *names;
	size_t n_names;
	struct psc_task tasks[PSC_TASKS];
	/* "%5lu." of the last second printed: the seconds change once per second of trace */
	uint64_t sec;
	uint64_t sec_ns; /* sec * 10^9 */
	uint32_t sec_len;
	bool has_sec;
	char sec_text[32];
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
	t->text = malloc(pad + n + 2 + 16);
	if (!t->text)
		return NULL;
	memset(t->text, ' ', pad);
	memcpy(t->text + pad, buf, n);
	memcpy(t->text + pad + n, ": ", 2);
	t->len = (uint32_t) (pad + n + 2);
	t->unpadded = c->text->perf_comm_unpadded && c->text->perf_comm_unpadded(ec);
	return t;
}

static inline const struct psc_name *name_of(struct perfscript_state *s, const struct psc_source *c,
					     const struct tk_event_class *ec)
{
	if (TK_LIKELY(ec->index < s->n_names && s->names[ec->index].text))
		return &s->names[ec->index];
	return name_make(s, c, ec);
}

/* "%5lu." of @sec into the state's cache. */
static TK_NOINLINE void sec_make(struct perfscript_state *s, uint64_t sec)
{
	char *q = s->sec_text;
	unsigned int i;

	/* "%12s" of "S.UUUUUU" pads the seconds to 5 columns, as "%5lu.%09llu" does */
	for (i = fmt_count_digits(sec); i < 5; i++)
		*q++ = ' ';
	q += fmt_u64(q, sec);
	*q++ = '.';
	s->sec = sec;
	s->sec_ns = sec * UINT64_C(1000000000);
	s->sec_len = (uint32_t) (q - s->sec_text);
	s->has_sec = true;
}

/*
 * perf's "%lu.%06lu" of a time in ns (microseconds truncated), right-aligned in 12, and ": ".
 * Room for 48 bytes: the seconds' text is copied 32 bytes at once, the digits 8.
 */
static char *put_time(struct perfscript_state *s, char *q, uint64_t ns, bool nsec)
{
	uint32_t frac;

	if (TK_UNLIKELY(!s->has_sec || ns - s->sec_ns >= UINT64_C(1000000000)))
		sec_make(s, ns / UINT64_C(1000000000));
	frac = (uint32_t) (ns - s->sec_ns);
	memcpy(q, s->sec_text, sizeof(s->sec_text));
	q += s->sec_len;
	if (nsec) {
		q += fmt_u64_pad(q, frac, 9);
	} else {
		/* six digits: the last six of the eight fmt_ascii8() gives for a value < 10^6 */
		tk_store_u64(q, fmt_ascii8(frac / 1000) >> 16, TK_BYTE_ORDER_LE);
		q += 6;
	}
	memcpy(q, ": ", 2);
	return q + 2;
}

/*
 * "%*s %5d " of @comm and @pid (@n: strlen(@comm)) at @q, the name in @width columns;
 * returns the new end.
 */
static char *put_task(char *q, const char *comm, size_t n, int64_t pid, size_t width)
{
	char digits[24];
	size_t k = fmt_i64(digits, pid);

	if (n < width) {
		memset(q, ' ', width - n);
		q += width - n;
	}
	memcpy(q, comm, n);
	q += n;
	*q++ = ' ';
	for (; k < 5; k++)
		*q++ = ' ';
	q += fmt_i64(q, pid);
	*q++ = ' ';
	return q;
}

/* The task's text from its slot, made there when another task had it. */
static inline const struct psc_task *task_of(struct perfscript_state *s, const char *comm,
					     int64_t pid)
{
	struct psc_task *t = &s->tasks[(uint64_t) pid % PSC_TASKS];
	size_t n;

	if (TK_LIKELY(t->comm == comm && t->pid == pid))
		return t;
	n = strlen(comm);
	if (n > PSC_TASK_TEXT - 24)
		return NULL;
	t->comm = comm;
	t->pid = pid;
	t->len = (uint32_t) (put_task(t->text, comm, n, pid, 16) - t->text);
	return t;
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
	const struct psc_task *tc;
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
	if (TK_UNLIKELY(nm->unpadded)) { /* "%s %5d " */
		n = strlen(comm);
		q = writer_reserve(w, n + 128);
		q = put_task(q, comm, n, pid, 0);
	} else if (TK_LIKELY(ev->has_task || c->text->tool != MODEL_TEXT_TOOL_PERF_SCRIPT) &&
		   (tc = task_of(s, comm, pid)) != NULL) {
		q = writer_reserve(w, PSC_TASK_TEXT + 128);
		memcpy(q, tc->text, PSC_TASK_TEXT);
		q += tc->len;
	} else {
		n = strlen(comm);
		q = writer_reserve(w, n + 128);
		if (ev->has_task || c->text->tool != MODEL_TEXT_TOOL_PERF_SCRIPT) {
			q = put_task(q, comm, n, pid, 16);
		} else {
			if (n < 16) {
				memset(q, ' ', 16 - n);
				q += 16 - n;
			}
			memcpy(q, comm, n);
			q += n;
			*q++ = ' ';
		}
	}
	if (ev->cpu >= 0) {
		*q++ = '[';
		if (TK_LIKELY(ev->cpu < 1000)) {
			/* three digits: the last three of fmt_ascii4() */
			tk_store_u32(q, fmt_ascii4((uint32_t) ev->cpu) >> 8, TK_BYTE_ORDER_LE);
			q += 3;
		} else {
			q += fmt_u64_pad(q, (uint64_t) ev->cpu, 3);
		}
		memcpy(q, "] ", 2);
		q += 2;
	}
	if (ev->has_ts)
		q = put_time(s, q, (uint64_t) ev->ns, p->flags & TK_PRINT_NSEC);
	if (TK_LIKELY(nm->len <= 64 && (size_t) (w->buf + w->cap - q) >= 64)) {
		/* the name text is padded: whole 16-byte copies */
		for (uint32_t i = 0; i < nm->len; i += 16)
			memcpy(q + i, nm->text + i, 16);
		writer_commit_to(w, q + nm->len);
	} else {
		writer_commit_to(w, q);
		writer_write(w, nm->text, nm->len);
	}
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
