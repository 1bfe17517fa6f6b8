// SPDX-License-Identifier: MIT
/*
 * The trace-cmd style: what `trace-cmd report` (3.1.6) prints for trace.dat files, byte for
 * byte. A line is
 *
 *	"%16s-%-5d [%03d] %5llu.%06llu: %s: %*s<info>\n"    (comm, pid, CPU, time, name)
 *
 * with the time in microseconds (rounded), nanoseconds (-t) or raw clock units, the event name
 * padded to 20 columns, and the event's text from its print fmt (or its fields with -R),
 * preceded by "CPU:N [K EVENTS DROPPED]" when the ring buffer lost events. Everything that
 * comes from the format -- the event's text, the task, the prologue, the buffer names -- is
 * the reader's, through the text hooks of its source (struct model_text_ops, model.h: the
 * trace.dat reader's are in src/tracedat/tracedat-text.c); this file lays out the line around
 * it and includes no format folder.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/writer.h"
#include "../common/vec.h"
#include "../model/model.h"
#include "pretty.h"
#include "sink.h"

/* What a line needs from its source, looked up once per source. */
struct tc_cache {
	const struct tk_source *src;
	const struct model_text_ops *text; /* the source's tool text, or NULL: no such lines */
	uint8_t in_ns;
	/*
	 * Sources with several stream classes (trace.dat instance buffers): each line starts
	 * with its stream class's name, right-aligned to the longest one, and ": " (two spaces
	 * for the main one), as trace-cmd prints several inputs. prefix[i] is that text for
	 * stream class i.
	 */
	char **prefix;
	size_t n_prefix;
	/*
	 * "%16s-%-5d [%03d] " of the last task (pid and name) and CPU, rendered (head_len 0: not
	 * rendered)
	 */
	int64_t head_pid;
	const char *head_comm;
	uint32_t head_cpu;
	uint32_t head_len;
	char head[64];
	/* "%5llu." of the last second printed (sec_len 0: none yet) */
	uint64_t sec;
	uint32_t sec_len;
	char sec_text[32];
};

/*
 * Per event class (its dense index): " name: " padded to 20 columns of name (NULL until
 * made), and whether its text waits for the next event (model_text_ops.wants_next()).
 */
struct tc_name {
	char *text;
	uint32_t len;
	bool wants_next;
};

/* The flags of the text hooks (enum model_text_flag) for the printer's flags. */
static unsigned int text_flags(const struct tk_printer *p)
{
	return p->flags & TK_PRINT_RAW ? MODEL_TEXT_RAW : 0;
}

/* The name of the source's stream class @i as its tool shows it ("" for the main one). */
static const char *sc_name(const struct tc_cache *c, size_t i)
{
	const char *name = c->text->stream_name ? c->text->stream_name(c->src->scs[i]) : NULL;

	return name ? name : "";
}

static void make_prefixes(struct tc_cache *c)
{
	const struct tk_source *src = c->src;
	size_t b, width = 0;

	if (src->n_scs < 2)
		return;
	for (b = 0; b < src->n_scs; b++)
		if (strlen(sc_name(c, b)) > width)
			width = strlen(sc_name(c, b));
	c->prefix = calloc(src->n_scs, sizeof(*c->prefix));
	if (!c->prefix)
		return; /* out of memory: lines without the buffer names */
	c->n_prefix = src->n_scs;
	for (b = 0; b < src->n_scs; b++) {
		const char *name = sc_name(c, b);
		size_t n = strlen(name);

		c->prefix[b] = malloc(width + 3);
		if (!c->prefix[b])
			continue;
		memset(c->prefix[b], ' ', width - n);
		memcpy(c->prefix[b] + width - n, name, n);
		memcpy(c->prefix[b] + width, *name ? ": " : "  ", 3);
	}
}

static void cache_free(struct tc_cache *c)
{
	size_t b;

	for (b = 0; b < c->n_prefix; b++)
		free(c->prefix[b]);
	free(c->prefix);
}

/* The cache of @src, made on its first event (tc_source()); NULL when out of memory. */
static TK_NOINLINE struct tc_cache *tc_source_make(struct tk_printer *p,
						   const struct tk_source *src)
{
	struct tc_cache *c;

	if (src->index >= p->n_tc) {
		size_t n = src->index + 1;
		struct tc_cache *t = realloc(p->tc, n * sizeof(*t));

		if (!t)
			return NULL;
		memset(t + p->n_tc, 0, (n - p->n_tc) * sizeof(*t));
		p->tc = t;
		p->n_tc = n;
	}
	c = &p->tc[src->index];
	memset(c, 0, sizeof(*c));
	c->src = src;
	c->text = src->ops->text && src->ops->text->event ? src->ops->text : NULL;
	if (!c->text)
		return c;
	c->in_ns = c->text->time_in_ns ? (uint8_t) !!c->text->time_in_ns(src) : 1;
	make_prefixes(c);
	return c;
}

static inline struct tc_cache *tc_source(struct tk_printer *p, const struct tk_source *src)
{
	if (TK_LIKELY(src->index < p->n_tc && p->tc[src->index].src == src))
		return &p->tc[src->index];
	return tc_source_make(p, src);
}

/* What the lines of @ec's events need of their class, made on the first (name_of()). */
static TK_NOINLINE const struct tc_name *name_make(struct tk_printer *p, const struct tc_cache *c,
						   const struct tk_event_class *ec)
{
	struct tc_name *t;
	size_t len;

	if (ec->index >= p->n_tc_names) {
		struct tc_name *v = table_hold(p->tc_names, &p->n_tc_names, sizeof(*v), ec->index);

		if (!v)
			return NULL;
		p->tc_names = v;
	}
	t = &p->tc_names[ec->index];
	if (!t->text) {
		const char *name = c->text->tool_name ? c->text->tool_name(ec) : NULL;

		if (!name)
			name = ec->name;
		len = strlen(name);
		t->len = (uint32_t) (len + 3 + (len < 20 ? 20 - len : 0));
		t->text = malloc(t->len + 16); /* copied 16 bytes at a time */
		if (!t->text)
			return NULL;
		t->text[0] = ' ';
		memcpy(t->text + 1, name, len);
		memcpy(t->text + 1 + len, ": ", 2);
		memset(t->text + 3 + len, ' ', t->len - 3 - len);
		t->wants_next = c->text->wants_next && c->text->wants_next(ec, text_flags(p));
	}
	return t;
}

static inline const struct tc_name *name_of(struct tk_printer *p, const struct tc_cache *c,
					    const struct tk_event_class *ec)
{
	if (TK_LIKELY(ec->index < p->n_tc_names && p->tc_names[ec->index].text))
		return &p->tc_names[ec->index];
	return name_make(p, c, ec);
}

/*
 * The source's and the class's parts of @ev's line; *@nm is NULL when the line is the one of
 * an unknown event (no class, no name, no text of the source's tool, or out of memory).
 */
static inline struct tc_cache *line_parts(struct tk_printer *p, const struct tk_event *ev,
					  const struct tc_name **nm)
{
	struct tc_cache *c = tc_source(p, ev->stream->source);

	*nm = c && c->text && ev->ec && ev->ec->name ? name_of(p, c, ev->ec) : NULL;
	return c;
}

/* @s right-aligned in @width columns (never cut), like "%*s". */
static void put_right(struct writer *w, const char *s, size_t width)
{
	size_t n = strlen(s);
	char *q;

	if (n < width) {
		q = writer_reserve(w, width - n);
		memset(q, ' ', width - n);
		writer_commit_to(w, q + (width - n));
	}
	writer_write(w, s, n);
}

/*
 * libtraceevent's event time, "%<prec>.<div>d": the time divided by div (rounded), then
 * "%5llu.%0<prec>llu" of seconds and fraction when 10^prec > 1, else "%12llu". 10^prec is
 * computed in an int there: for the 12 digits of raw clocks it wraps to a negative number,
 * so raw clocks print as a plain 12-column count.
 */
static void put_time(struct writer *w, uint64_t t, unsigned int prec, uint64_t div)
{
	uint32_t p10 = 1;
	uint64_t p10_ull;
	unsigned int i;
	char *q;

	if (prec == 6 && div == 1000 && t < UINT64_MAX - 500) { /* the default, by hand */
		uint64_t us = (t + 500) / 1000, sec = us / 1000000;
		uint32_t frac = (uint32_t) (us % 1000000);
		char digits[24];
		size_t n = fmt_u64(digits, sec);

		q = writer_reserve(w, 48);
		for (i = (unsigned int) n; i < 5; i++)
			*q++ = ' ';
		memcpy(q, digits, n);
		q += n;
		*q++ = '.';
		memcpy(q, writer_digit_pairs + (frac / 10000) * 2, 2);
		memcpy(q + 2, writer_digit_pairs + (frac / 100 % 100) * 2, 2);
		memcpy(q + 4, writer_digit_pairs + (frac % 100) * 2, 2);
		writer_commit_to(w, q + 6);
		return;
	}
	if (div) {
		t += div / 2;
		t /= div;
	}
	for (i = 0; i < prec; i++)
		p10 *= 10; /* wraps like the int there */
	p10_ull = (uint64_t) (int64_t) (int32_t) p10;
	q = writer_reserve(w, 64);
	if ((int32_t) p10 > 1) { /* an int there: 10^12 wraps negative, leaving "%12llu" */
		uint64_t sec = t / p10_ull, frac = t % p10_ull;
		char digits[24];
		size_t n = fmt_u64(digits, sec);

		for (i = (unsigned int) n; i < 5; i++)
			*q++ = ' ';
		memcpy(q, digits, n);
		q += n;
		*q++ = '.';
		q += fmt_u64_pad(q, frac, prec);
	} else {
		char digits[24];
		size_t n = fmt_u64(digits, t);

		for (i = (unsigned int) n; i < 12; i++)
			*q++ = ' ';
		memcpy(q, digits, n);
		q += n;
	}
	writer_commit_to(w, q);
}

/*
 * The usual line start, "%16s-%-5d [%03d] %5llu.%06llu: name: ", in one reservation: the
 * comm-pid part is rendered once per task, copied as a block of 64 bytes, the name as blocks
 * of 16. Returns 0 for what it does not cover (long names, -t, raw clocks, large CPUs).
 */
static int fast_line(struct tc_cache *c, const struct tc_name *nm, const struct tk_event *ev,
		     int64_t pid, const char *comm, unsigned int flags, struct writer *w)
{
	uint64_t us, sec;
	uint32_t frac, cpu = (uint32_t) ev->cpu, i;
	char *q;
	size_t n;

	if (!c->in_ns || (flags & TK_PRINT_NSEC) || cpu >= 1000 || nm->len > 96 || ev->ns < 0)
		return 0;
	if (!c->head_len || pid != c->head_pid || comm != c->head_comm || cpu != c->head_cpu) {
		size_t len = strlen(comm), k;

		if (len > 32)
			return 0;
		k = len < 16 ? 16 - len : 0;
		memset(c->head, ' ', sizeof(c->head));
		memcpy(c->head + k, comm, len);
		k += len;
		c->head[k++] = '-';
		n = fmt_i64(c->head + k, pid);
		/* "%-5d": fmt_i64() may scribble after the digits, so pad again */
		for (; n < 5; n++)
			c->head[k + n] = ' ';
		k += n;
		c->head[k] = ' ';
		c->head[k + 1] = '[';
		c->head[k + 2] = (char) ('0' + cpu / 100);
		c->head[k + 3] = (char) ('0' + cpu / 10 % 10);
		c->head[k + 4] = (char) ('0' + cpu % 10);
		c->head[k + 5] = ']';
		c->head[k + 6] = ' ';
		c->head_len = (uint32_t) k + 7;
		c->head_pid = pid;
		c->head_comm = comm;
		c->head_cpu = cpu;
	}
	q = writer_reserve(w, 256);
	memcpy(q, c->head, 64);
	q += c->head_len;
	us = ((uint64_t) ev->ns + 500) / 1000;
	sec = us / 1000000;
	frac = (uint32_t) (us % 1000000);
	/* the seconds change seldom: their text is kept, and copied as a block of 32 */
	if (!c->sec_len || sec != c->sec) {
		char *t = c->sec_text;

		for (i = fmt_count_digits(sec); i < 5; i++)
			*t++ = ' ';
		t += fmt_u64(t, sec);
		*t++ = '.';
		c->sec = sec;
		c->sec_len = (uint32_t) (t - c->sec_text);
	}
	memcpy(q, c->sec_text, 32);
	q += c->sec_len;
	memcpy(q, writer_digit_pairs + (frac / 10000) * 2, 2);
	memcpy(q + 2, writer_digit_pairs + (frac / 100 % 100) * 2, 2);
	memcpy(q + 4, writer_digit_pairs + (frac % 100) * 2, 2);
	q[6] = ':';
	q += 7;
	for (i = 0; i < nm->len; i += 16)
		memcpy(q + i, nm->text + i, 16);
	writer_commit_to(w, q + nm->len);
	return 1;
}

/*
 * One line of @ev, with its parts @c and @nm (line_parts()); with @next (the event after it),
 * true when @ev's line used it up.
 */
static bool print_line(struct tk_printer *p, struct tc_cache *c, const struct tc_name *nm,
		       const struct tk_event *ev, const struct tk_event *next)
{
	static const char unknown[] = "[UNKNOWN EVENT]";
	struct writer *w = &p->out;
	size_t len, start;
	const char *comm;
	int64_t pid;
	bool used;
	char *q;

	/* room for a usual line, so that the trailing newline check below sees the whole line */
	if (w->cap - w->len < PRINTER_LINE_ROOM)
		writer_flush(w);
	start = w->len;
	if (c && ev->stream->sc->id < c->n_prefix && c->prefix[ev->stream->sc->id])
		writer_puts(w, c->prefix[ev->stream->sc->id]);
	if (ev->missed) {
		q = writer_reserve(w, 64);
		memcpy(q, "CPU:", 4);
		q += 4;
		q += fmt_i64(q, ev->cpu);
		if (ev->missed > 0) {
			memcpy(q, " [", 2);
			q += 2;
			q += fmt_i64(q, ev->missed);
			memcpy(q, " EVENTS DROPPED]\n", 17);
			q += 17;
		} else {
			memcpy(q, " [EVENTS DROPPED]\n", 18);
			q += 18;
		}
		writer_commit_to(w, q);
	}
	if (!nm) {
		/* every part libtraceevent prints for a record of an unknown event */
		writer_write(w, unknown, sizeof(unknown) - 1);
		writer_write(w, unknown, sizeof(unknown) - 1);
		writer_write(w, " (NULL):               ", 23);
		writer_write(w, unknown, sizeof(unknown) - 1);
		writer_putc(w, '\n');
		return false;
	}
	comm = c->text->task(ev, &pid);
	if (fast_line(c, nm, ev, pid, comm, p->flags, w))
		goto info;
	put_right(w, comm, 16);
	q = writer_reserve(w, 64);
	*q++ = '-';
	len = fmt_i64(q, pid);
	q += len;
	for (; len < 5; len++)
		*q++ = ' ';
	memcpy(q, " [", 2);
	q += 2;
	q += fmt_u64_pad(q, (uint64_t) (uint32_t) ev->cpu, 3);
	*q++ = ']';
	writer_commit_to(w, q);
	if (c->in_ns) {
		writer_putc(w, ' ');
		if (p->flags & TK_PRINT_NSEC)
			put_time(w, (uint64_t) ev->ns, 9, 1);
		else
			put_time(w, (uint64_t) ev->ns, 6, 1000);
	} else {
		put_time(w, (uint64_t) ev->ns, 12, 0);
	}
	writer_putc(w, ':');
	writer_write(w, nm->text, nm->len); /* " name: " and spaces up to 20 columns of name */
info:
	used = c->text->event(ev, next, text_flags(p), w);
	/* trace-cmd drops one newline the event text ends with */
	if (w->len > start && w->buf[w->len - 1] == '\n')
		w->len--;
	writer_putc(w, '\n');
	return used;
}

/* One line of @ev; with @next (the event after it), true when @ev's line used it up. */
static bool print_event(struct tk_printer *p, const struct tk_event *ev,
			const struct tk_event *next)
{
	const struct tc_name *nm;
	struct tc_cache *c = line_parts(p, ev, &nm);

	return print_line(p, c, nm, ev, next);
}

/*
 * trace-cmd's funcgraph_entry handler peeks at the next record of its buffer (the input
 * handle it reads), over all the buffer's CPUs, and takes it as the call's exit only when it
 * is on the entry's CPU (see h_fgraph_entry() for the rest of the test). Events of other
 * buffers can come first in time order: such an entry waits in a queue, with the events that
 * follow it, until an event of its buffer or the end of the trace decides its line. Past
 * TC_QUEUE_MAX waiting events the entry prints as if its buffer had ended, so that a buffer
 * whose last record is an entry cannot make the printer copy a whole trace.
 */
#define TC_QUEUE_MAX 65536

static bool same_buffer(const struct tk_event *a, const struct tk_event *b)
{
	return a->stream->source == b->stream->source && a->stream->sc == b->stream->sc;
}

/* Whether the line of @ev waits for the event after it (a class's answer is kept). */
static bool wants_next(struct tk_printer *p, const struct tk_event *ev)
{
	const struct tc_name *nm;

	(void) line_parts(p, ev, &nm);
	return nm && nm->wants_next;
}

#define HELD(p, i) VEC_AT(&(p)->held, struct tc_held, i)

/* Append a copy of @ev (its record included) to the queue; false when out of memory. */
static bool queue_push(struct tk_printer *p, const struct tk_event *ev)
{
	size_t cap = p->held.cap;
	struct tc_held *h;

	if (vec_reserve(&p->held, sizeof(*h), 1))
		return false;
	memset(&HELD(p, cap), 0, (p->held.cap - cap) * sizeof(*h));
	h = &HELD(p, p->held.len);
	if (ev->raw_size > h->cap) {
		uint8_t *raw = realloc(h->raw, ev->raw_size);

		if (!raw)
			return false;
		h->raw = raw;
		h->cap = ev->raw_size;
	}
	memcpy(h->raw, ev->raw, ev->raw_size);
	h->ev = *ev;
	h->ev.raw = h->raw;
	h->ev.pending = NULL;
	h->ev.body = NULL; /* not copied */
	memset(h->ev.scope, 0, sizeof(h->ev.scope));
	h->used = false;
	p->held.len++;
	return true;
}

/*
 * Print the queued events whose lines are known, in order; with @end, all of them (no event
 * follows). An entry's line is known once an event of its buffer is queued after it.
 */
static void queue_drain(struct tk_printer *p, bool end)
{
	size_t n = p->held.len, done, k, i;

	for (done = 0; done < n; done++) {
		struct tc_held *h = &HELD(p, done);
		const struct tk_event *next = NULL;

		if (h->used)
			continue; /* an exit printed in its entry's leaf line */
		if (!wants_next(p, &h->ev)) {
			(void) print_event(p, &h->ev, NULL);
			continue;
		}
		for (k = done + 1; k < n; k++)
			if (!HELD(p, k).used && same_buffer(&HELD(p, k).ev, &h->ev))
				break;
		if (k == n && !end && n - done <= TC_QUEUE_MAX)
			break;
		if (k < n && HELD(p, k).ev.stream == h->ev.stream)
			next = &HELD(p, k).ev;
		if (print_event(p, &h->ev, next))
			HELD(p, k).used = true;
	}
	/* the printed slots go to the end, their record buffers kept for reuse */
	for (i = 0; done && i + done < n; i++) {
		struct tc_held t = HELD(p, i);

		HELD(p, i) = HELD(p, i + done);
		HELD(p, i + done) = t;
	}
	p->held.len = n - done;
}

/* No event follows for now: what waits for a next record prints as if the trace ended. */
static void release(struct tk_printer *p)
{
	queue_drain(p, true);
}

static void destroy(struct tk_printer *p)
{
	size_t i;

	for (i = 0; i < p->held.cap; i++)
		free(HELD(p, i).raw);
	vec_fini(&p->held);
	for (i = 0; i < p->n_tc; i++)
		cache_free(&p->tc[i]);
	free(p->tc);
	for (i = 0; i < p->n_tc_names; i++)
		free(p->tc_names[i].text);
	free(p->tc_names);
}

/*
 * An event with a raw record in trace-cmd's layout. trace-cmd's funcgraph_entry handler
 * looks at the record that follows in its buffer, so such a record waits (with the events of
 * other buffers after it) until that record arrives or release() says that none follows.
 */
static TK_NOINLINE void print_raw(struct tk_printer *p, const struct tk_event *ev)
{
	const struct tc_name *nm;
	struct tc_cache *c = line_parts(p, ev, &nm);

	if (!p->held.len && !(nm && nm->wants_next)) {
		(void) print_line(p, c, nm, ev, NULL);
		return;
	}
	if (!queue_push(p, ev)) {
		/* out of memory: what is queued prints as if the trace ended, then @ev */
		queue_drain(p, true);
		(void) print_event(p, ev, NULL);
		return;
	}
	/* the first queued event is an entry waiting for its buffer: only such events decide */
	if (p->held.len > 1 && !same_buffer(ev, &HELD(p, 0).ev) && p->held.len <= TC_QUEUE_MAX)
		return;
	queue_drain(p, false);
}

/*
 * Events of sources with their tool's text (trace.dat) in trace-cmd's layout, the others as
 * babeltrace2 prints them.
 */
static TK_NOINLINE enum tk_status print_text(struct tk_printer *p, const struct tk_event *ev)
{
	print_raw(p, ev);
	if (TK_UNLIKELY(p->out.err))
		return writer_flush(&p->out);
	return TK_OK;
}

/* A jump either way: the babeltrace2 path saves no register here (out of line: print_raw()). */
static enum tk_status print(struct tk_printer *p, const struct tk_event *ev)
{
	const struct model_text_ops *text = ev->stream->source->ops->text;

	if (!text || !text->event) /* no line text of its tool (an interceptor file) */
		return pretty_print_event(p, ev);
	return print_text(p, ev);
}

/* What the sources' tools print before the events (trace-cmd: "cpus=N" and latency text). */
static enum tk_status prologue(struct tk_printer *p, const struct tk_trace *t)
{
	enum tk_status st;
	size_t i;

	for (i = 0; i < t->n_sources; i++) {
		const struct model_text_ops *text = t->sources[i]->ops->text;

		if (!text || !text->prologue)
			continue;
		st = text->prologue(t->sources[i], &p->out);
		if (st < 0)
			return st;
	}
	return TK_OK;
}

enum tk_status tk_printer_print_formats(struct tk_printer *p, const struct tk_trace *t)
{
	size_t i;

	error_reset();
	TK_ASSERT_PRE(p && t);
	for (i = 0; i < t->n_sources; i++) {
		const struct model_text_ops *text = t->sources[i]->ops->text;

		if (text && text->formats)
			text->formats(t->sources[i], &p->out);
	}
	return writer_flush(&p->out);
}

/* The tool a source's lines take in the style "auto": its own, or none (babeltrace2's). */
static bool perf_tool(const struct tk_source *src)
{
	return src->ops->text && src->ops->text->tool == MODEL_TEXT_TOOL_PERF_SCRIPT;
}

static enum tk_status auto_print(struct tk_printer *p, const struct tk_event *ev);

/*
 * Style "auto": each source as its own tool prints it (perf script's for perf.data). When no
 * source has a tool's text, every event goes to pretty_print_event() straight.
 */
static enum tk_status auto_prologue(struct tk_printer *p, const struct tk_trace *t)
{
	enum tk_status st;
	size_t i;

	p->event = auto_print;
	for (i = 0; i < t->n_sources; i++) {
		const struct model_text_ops *text = t->sources[i]->ops->text;

		if (!text || !text->prologue || text->tool != MODEL_TEXT_TOOL_TRACECMD)
			continue;
		st = text->prologue(t->sources[i], &p->out);
		if (st < 0)
			return st;
	}
	for (i = 0; i < t->n_sources; i++) {
		const struct model_text_ops *text = t->sources[i]->ops->text;

		if (text && (text->tool == MODEL_TEXT_TOOL_PERF_SCRIPT || text->event))
			return TK_OK;
	}
	p->event = pretty_print_event; /* what auto_print() would choose for every event */
	return TK_OK;
}

static enum tk_status auto_print(struct tk_printer *p, const struct tk_event *ev)
{
	if (TK_UNLIKELY(perf_tool(ev->stream->source)))
		return perfscript_print_event(p, ev);
	return print(p, ev);
}

static enum tk_status auto_notice(struct tk_printer *p, const struct tk_notice *n)
{
	if (n->stream && perf_tool(n->stream->source))
		return perfscript_print_notice(p, n);
	return pretty_print_notice(p, n);
}

static void auto_destroy(struct tk_printer *p)
{
	destroy(p);
	perfscript_destroy(p);
}

const struct sink_ops sink_auto = {
	.begin = auto_prologue,
	.event = auto_print,
	.notice = auto_notice,
	.drain = release,
	.end = release,
	.destroy = auto_destroy,
	.plan = plan_build,
};

const struct sink_ops sink_tracecmd = {
	.begin = prologue,
	.event = print,
	.notice = pretty_print_notice,
	.drain = release,
	.end = release,
	.destroy = destroy,
	.plan = plan_build,
};
