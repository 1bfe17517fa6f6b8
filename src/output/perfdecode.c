// SPDX-License-Identifier: MIT
/*
 * The perf-decode style: events as LinuxTracepoints' formatter writes them (perf-decode, the
 * reference decoder of EventHeader events), one JSON object per event, EventHeader events
 * decoded. The objects come from the reader (model_text_ops.decode_json); this file frames
 * them as the formatter's tests and tool do: a UTF-8 byte order mark, then for each input a
 * member named after its path holding the array of its events,
 *
 *	\xEF\xBB\xBF
 *	"perf.data": [
 *	 {"n":"sched:sched_switch",...,"meta":{...}},
 *	 {...} ]
 *
 * (members of several inputs separated by a comma). Two layouts: "perf-decode", spaced with
 * field tags as the perf-decode tool writes; "perf-decode-compact", the formatter's default.
 * Records come in the order the file stores them (tk_source.stored_order), as the
 * formatter reads a file; only events are written, as only samples are.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "../common/writer.h"
#include "../model/model.h"
#include "pretty.h"
#include "sink.h"

struct pd_state {
	unsigned int flags;	     /* enum model_decode_flag */
	const struct tk_source *src; /* whose member is open, or NULL */
	size_t n_members;
	size_t n_events; /* in the open member */
	struct vec buf;
};

static enum tk_status begin(struct tk_printer *p, unsigned int flags)
{
	struct pd_state *s = calloc(1, sizeof(*s));

	if (!s)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot start perf-decode output");
	s->flags = flags;
	p->state = s;
	writer_write(&p->out, "\xEF\xBB\xBF", 3);
	return TK_OK;
}

static enum tk_status begin_spaced(struct tk_printer *p, const struct tk_trace *t)
{
	(void) t;
	return begin(p, MODEL_DECODE_SPACE | MODEL_DECODE_FIELD_TAG);
}

static enum tk_status begin_compact(struct tk_printer *p, const struct tk_trace *t)
{
	(void) t;
	return begin(p, 0);
}

/* "\n\"PATH\": [" for @src, after closing the member before it. */
static void open_member(struct tk_printer *p, struct pd_state *s, const struct tk_source *src)
{
	const char *name = src->path ? src->path : "";
	size_t i, n = strlen(name);

	if (s->src)
		writer_write(&p->out, " ],", 3);
	writer_write(&p->out, "\n\"", 2);
	for (i = 0; i < n; i++) { /* a path is text: escape what JSON needs escaped */
		unsigned char c = (unsigned char) name[i];

		if (c == '"' || c == '\\') {
			writer_putc(&p->out, '\\');
			writer_putc(&p->out, (char) c);
		} else if (c < 0x20) {
			static const char hex[] = "0123456789abcdef";
			char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};

			writer_write(&p->out, esc, 6);
		} else {
			writer_putc(&p->out, (char) c);
		}
	}
	writer_write(&p->out, "\": [", 4);
	s->src = src;
	s->n_members++;
	s->n_events = 0;
}

static enum tk_status print(struct tk_printer *p, const struct tk_event *ev)
{
	struct pd_state *s = p->state;
	const struct tk_source *src = ev->stream->source;
	const struct model_text_ops *text = src->ops->text;
	enum tk_status st;

	if (!text || !text->decode_json)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot print event in perf-decode style: path=%s, format=%s, "
			       "reason=the style reads perf.data files",
			       src->path, src->format);
	if (src != s->src)
		open_member(p, s, src);
	s->buf.len = 0;
	st = text->decode_json(ev, s->flags, &s->buf);
	if (st < 0)
		return TK_FAIL(st, "Cannot print event in perf-decode style: path=%s, event=%zu",
			       src->path, s->n_events + 1);
	writer_write(&p->out, s->n_events ? ",\n " : "\n ", s->n_events ? 3 : 2);
	writer_write(&p->out, s->buf.data, s->buf.len);
	s->n_events++;
	return TK_OK;
}

/* Losses have no place in the formatter's output: it writes samples only. */
static enum tk_status notice(struct tk_printer *p, const struct tk_notice *n)
{
	(void) p;
	(void) n;
	return TK_OK;
}

static void end(struct tk_printer *p)
{
	struct pd_state *s = p->state;

	if (!s)
		return;
	if (!s->src)
		writer_write(&p->out, "\n\"\": [", 6);
	writer_write(&p->out, " ]\n", 3);
}

static void destroy(struct tk_printer *p)
{
	struct pd_state *s = p->state;

	if (!s)
		return;
	vec_fini(&s->buf);
	free(s);
	p->state = NULL;
}

const struct sink_ops sink_perf_decode = {
	.begin = begin_spaced,
	.event = print,
	.notice = notice,
	.end = end,
	.destroy = destroy,
	.stored_order = 1,
};

const struct sink_ops sink_perf_decode_compact = {
	.begin = begin_compact,
	.event = print,
	.notice = notice,
	.end = end,
	.destroy = destroy,
	.stored_order = 1,
};
