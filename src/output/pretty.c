// SPDX-License-Identifier: MIT
/*
 * babeltrace2's text layout (sink.text.pretty), byte for byte: one line per event with the
 * time, the time since the previous event, trace fields from the environment, the event name
 * and the scopes (packet context, stream event context, event context, payload).
 *
 * The quirks are babeltrace2's and are kept on purpose: with --names=all the trace name is
 * followed by ", , ", integers in hexadecimal are masked to whole nibbles, octal signed values
 * to whole 3-bit groups, and negative times fall back to seconds with a warning.
 *
 * Everything is formatted by hand into the writer's buffer; local time is computed once per
 * second of trace time, not per event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracekit/print.h>

#include "../common/error.h"
#include "../common/writer.h"
#include "../model/model.h"

#define NS_PER_S INT64_C(1000000000)

/* What a line needs from a source's environment, looked up once. */
struct source_cache {
	const struct tk_source *src;
	const char *hostname;
	const char *domain;
	const char *procname;
	uint8_t has_vpid;
	int64_t vpid;
};

struct tk_printer {
	struct writer out;
	int err_fd;
	unsigned int flags;
	uint8_t has_last_ns;
	uint8_t has_last_cycles;
	uint8_t negative_warned;
	int64_t last_ns;
	uint64_t last_cycles;
	/* time of day of the last whole second printed */
	int64_t cached_sec;
	uint8_t has_cached_sec;
	char cached_time[32]; /* "YYYY-MM-DD " (when dated) then "HH:MM:SS" */
	size_t cached_len;
	struct source_cache *sources;
	size_t n_sources;
};

static const char *const loglevel_names[] = {
	"TRACE_EMERG",		"TRACE_ALERT",	       "TRACE_CRIT",	     "TRACE_ERR",
	"TRACE_WARNING",	"TRACE_NOTICE",	       "TRACE_INFO",	     "TRACE_DEBUG_SYSTEM",
	"TRACE_DEBUG_PROGRAM",	"TRACE_DEBUG_PROCESS", "TRACE_DEBUG_MODULE", "TRACE_DEBUG_UNIT",
	"TRACE_DEBUG_FUNCTION", "TRACE_DEBUG_LINE",    "TRACE_DEBUG",
};

enum tk_status tk_printer_open(struct tk_printer **out, const struct tk_print_opts *opts)
{
	struct tk_printer *p;
	enum tk_status st;
	struct tk_print_opts def = TK_PRINT_OPTS_INIT;

	error_reset();
	TK_ASSERT_PRE(out);
	if (!opts)
		opts = &def;
	TK_ASSERT_PRE(opts->size >= sizeof(struct tk_print_opts));
	p = calloc(1, sizeof(*p));
	if (!p)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create printer");
	st = writer_init(&p->out, opts->out_fd, 1 << 20);
	if (st < 0) {
		free(p);
		return st;
	}
	p->err_fd = opts->err_fd;
	p->flags = opts->flags;
	*out = p;
	return TK_OK;
}

enum tk_status tk_printer_flush(struct tk_printer *p)
{
	error_reset();
	return writer_flush(&p->out);
}

enum tk_status tk_printer_close(struct tk_printer *p)
{
	enum tk_status st;

	if (!p)
		return TK_OK;
	error_reset();
	st = writer_flush(&p->out);
	writer_fini(&p->out);
	free(p->sources);
	free(p);
	return st;
}

static const struct source_cache *source_info(struct tk_printer *p, const struct tk_source *src)
{
	struct source_cache *c;
	size_t i;

	if (src->index < p->n_sources && p->sources[src->index].src == src)
		return &p->sources[src->index];
	if (src->index >= p->n_sources) {
		size_t n = src->index + 1;
		struct source_cache *s = realloc(p->sources, n * sizeof(*s));

		if (!s)
			return NULL;
		memset(s + p->n_sources, 0, (n - p->n_sources) * sizeof(*s));
		p->sources = s;
		p->n_sources = n;
	}
	c = &p->sources[src->index];
	memset(c, 0, sizeof(*c));
	c->src = src;
	for (i = 0; i < src->n_env; i++) {
		const struct model_env *e = &src->env[i];

		if (!strcmp(e->key, "hostname") && e->str)
			c->hostname = e->str;
		else if (!strcmp(e->key, "domain") && e->str)
			c->domain = e->str;
		else if (!strcmp(e->key, "procname") && e->str)
			c->procname = e->str;
		else if (!strcmp(e->key, "vpid") && !e->str) {
			c->has_vpid = 1;
			c->vpid = e->integer;
		}
	}
	return c;
}

/* ---- values --------------------------------------------------------------------------------- */

static inline void put_lit(struct writer *w, const char *s, size_t n)
{
	writer_write(w, s, n);
}

#define PUT(w, lit) put_lit((w), (lit), sizeof(lit) - 1)

/* babeltrace2's string escapes: \\ \' \" \? and C escapes for control characters. */
static void put_escaped(struct writer *w, const char *s, size_t n)
{
	size_t i, run = 0;

	writer_putc(w, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char) s[i];
		const char *esc = NULL;
		char hex[5];

		if (c >= 0x20 && c != 0x7f && c != '\\' && c != '\'' && c != '"' && c != '?')
			continue;
		switch (c) {
		case '\\':
			esc = "\\\\";
			break;
		case '\'':
			esc = "\\'";
			break;
		case '"':
			esc = "\\\"";
			break;
		case '?':
			esc = "\\?";
			break;
		case '\a':
			esc = "\\a";
			break;
		case '\b':
			esc = "\\b";
			break;
		case 27:
			esc = "\\e";
			break;
		case '\f':
			esc = "\\f";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\r':
			esc = "\\r";
			break;
		case '\t':
			esc = "\\t";
			break;
		case '\v':
			esc = "\\v";
			break;
		default:
			snprintf(hex, sizeof(hex), "\\x%02x", c);
			esc = hex;
			break;
		}
		writer_write(w, s + run, i - run);
		writer_puts(w, esc);
		run = i + 1;
	}
	writer_write(w, s + run, n - run);
	writer_putc(w, '"');
}

static void put_int(struct writer *w, const struct model_fc *fc, uint64_t u)
{
	char *p = writer_reserve(w, 80), *start = p;
	uint32_t len = fc->size;

	switch (fc->base) {
	case 16:
		if (len < 64)
			u &= (UINT64_C(1) << ((len + 3) & ~3u)) - 1;
		*p++ = '0';
		*p++ = 'x';
		p += fmt_hex_upper(p, u);
		break;
	case 8:
		if (fc->is_signed && len < 64)
			u &= (UINT64_C(1) << (((len - 1) / 3 + 1) * 3)) - 1;
		*p++ = '0';
		p += fmt_oct(p, u);
		break;
	case 2: {
		uint32_t i;

		*p++ = '0';
		*p++ = 'b';
		if (len < 64)
			u <<= 64 - len;
		for (i = 0; i < len; i++) {
			*p++ = (u >> 63) ? '1' : '0';
			u <<= 1;
		}
		break;
	}
	default:
		if (fc->is_signed)
			p += fmt_i64(p, (int64_t) u);
		else
			p += fmt_u64(p, u);
		break;
	}
	(void) start;
	writer_commit_to(w, p);
}

static void put_enum(struct writer *w, const struct model_fc *fc, uint64_t u)
{
	uint32_t i, k;
	int n = 0;

	PUT(w, "( ");
	for (i = 0; i < fc->u.en.count; i++) {
		const struct model_enum_mapping *mp = &fc->u.en.maps[i];

		for (k = 0; k < mp->nranges; k++) {
			const struct model_range *r = &mp->ranges[k];
			int in = fc->is_signed ? ((int64_t) u >= r->lo.i && (int64_t) u <= r->hi.i)
					       : (u >= r->lo.u && u <= r->hi.u);

			if (in) {
				if (n++)
					PUT(w, ", ");
				put_escaped(w, mp->label, strlen(mp->label));
				break;
			}
		}
	}
	if (!n)
		PUT(w, "<unknown>");
	PUT(w, " : container = ");
	put_int(w, fc, u);
	PUT(w, " )");
}

/*
 * Print the value of @fc starting at *@v (advanced past it). Fields not shown to users are
 * consumed without output: the caller only calls this for shown fields, and compound fields
 * skip their hidden members here.
 */
static const struct model_value *skip_value(const struct model_fc *fc, const struct model_value *v);

static const struct model_value *put_value(struct writer *w, const struct model_fc *fc,
					   const struct model_value *v, int names)
{
	uint32_t i;
	int n = 0;

	switch (fc->kind) {
	case MODEL_FC_INT:
		put_int(w, fc, v->v.u);
		return v + 1;
	case MODEL_FC_ENUM:
		put_enum(w, fc, v->v.u);
		return v + 1;
	case MODEL_FC_FLOAT: {
		char *p = writer_reserve(w, 64);

		p += snprintf(p, 64, "%g", v->v.d);
		writer_commit_to(w, p);
		return v + 1;
	}
	case MODEL_FC_STRING:
		put_escaped(w, v->v.s, v->n);
		return v + 1;
	case MODEL_FC_STRUCT:
		writer_putc(w, '{');
		for (i = 0; i < fc->u.st.count; i++) {
			const struct model_member *mb = &fc->u.st.members[i];

			if (!mb->fc->in_ir) {
				v = skip_value(mb->fc, v);
				continue;
			}
			if (n++)
				PUT(w, ", ");
			else
				writer_putc(w, ' ');
			if (names) {
				writer_puts(w, mb->name);
				PUT(w, " = ");
			}
			v = put_value(w, mb->fc, v, names);
		}
		PUT(w, " }");
		return v;
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE: {
		uint64_t len, k;

		if (fc->is_text) {
			put_escaped(w, v->v.s, v->n);
			return v + 1;
		}
		len = v->n;
		v++;
		writer_putc(w, '[');
		for (k = 0; k < len; k++) {
			if (k)
				PUT(w, ", ");
			else
				writer_putc(w, ' ');
			if (names) {
				char *p = writer_reserve(w, 32);

				*p++ = '[';
				p += fmt_u64(p, k);
				*p++ = ']';
				*p++ = ' ';
				*p++ = '=';
				*p++ = ' ';
				writer_commit_to(w, p);
			}
			v = put_value(w, fc->u.arr.elem, v, names);
		}
		PUT(w, " ]");
		return v;
	}
	case MODEL_FC_VARIANT: {
		uint64_t opt = v->n;

		v++;
		PUT(w, "{ ");
		v = put_value(w, fc->u.var.options[opt].fc, v, names);
		PUT(w, " }");
		return v;
	}
	}
	return v + 1;
}

static const struct model_value *skip_value(const struct model_fc *fc, const struct model_value *v)
{
	uint32_t i;
	uint64_t k, len;

	switch (fc->kind) {
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count; i++)
			v = skip_value(fc->u.st.members[i].fc, v);
		return v;
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		if (fc->is_text)
			return v + 1;
		len = v->n;
		v++;
		for (k = 0; k < len; k++)
			v = skip_value(fc->u.arr.elem, v);
		return v;
	case MODEL_FC_VARIANT:
		return skip_value(fc->u.var.options[v->n].fc, v + 1);
	default:
		return v + 1;
	}
}

/* ---- time ------------------------------------------------------------------------------------- */

/* "HH:MM:SS" (after "YYYY-MM-DD " with --clock-date) of @sec, cached per second. */
static int time_of_day(struct tk_printer *p, int64_t sec)
{
	struct tm tm;
	time_t t = (time_t) sec;
	size_t n = 0;

	if (p->has_cached_sec && p->cached_sec == sec)
		return 0;
	if (p->flags & TK_PRINT_CLOCK_GMT) {
		if (!gmtime_r(&t, &tm))
			return -1;
	} else if (!localtime_r(&t, &tm)) {
		return -1;
	}
	if (p->flags & TK_PRINT_CLOCK_DATE) {
		n = strftime(p->cached_time, sizeof(p->cached_time), "%Y-%m-%d ", &tm);
		if (!n)
			return -1;
	}
	snprintf(p->cached_time + n, sizeof(p->cached_time) - n, "%02d:%02d:%02d", tm.tm_hour,
		 tm.tm_min, tm.tm_sec);
	p->cached_len = strlen(p->cached_time);
	p->cached_sec = sec;
	p->has_cached_sec = 1;
	return 0;
}

static void warn(struct tk_printer *p, const char *msg)
{
	writer_flush(&p->out);
	if (write(p->err_fd, msg, strlen(msg)) < 0) {
		/* nothing more can be done about a failing error output */
	}
}

/* babeltrace2's print_timestamp_wall(): time of day, or seconds for negative times. */
static void put_wall_time(struct tk_printer *p, int64_t ns)
{
	struct writer *w = &p->out;
	int64_t sec = ns / NS_PER_S, sub = ns % NS_PER_S;
	uint64_t sec_abs, ns_abs;
	int negative;
	char *q;

	if (sec >= 0 && sub >= 0) {
		negative = 0;
		sec_abs = (uint64_t) sec;
		ns_abs = (uint64_t) sub;
	} else if (sec == 0 && sub < 0) {
		negative = 1;
		sec_abs = 0;
		ns_abs = (uint64_t) -sub;
	} else if (sec < 0 && sub == 0) {
		negative = 1;
		sec_abs = (uint64_t) 0 - (uint64_t) sec;
		ns_abs = 0;
	} else { /* sec < 0 && sub < 0 */
		negative = 1;
		sec_abs = (uint64_t) 0 - (uint64_t) sec;
		ns_abs = (uint64_t) -sub;
	}
	if (!(p->flags & TK_PRINT_CLOCK_SECONDS)) {
		if (negative && !p->negative_warned) {
			warn(p, "[warning] Fallback to [sec.ns] to print negative time value. "
				"Use --clock-seconds.\n");
			p->negative_warned = 1;
			goto seconds;
		}
		if (time_of_day(p, (int64_t) sec_abs) == 0) {
			q = writer_reserve(w, 64);
			memcpy(q, p->cached_time, p->cached_len);
			q += p->cached_len;
			*q++ = '.';
			q += fmt_u64_pad(q, ns_abs, 9);
			writer_commit_to(w, q);
			return;
		}
	}
seconds:
	q = writer_reserve(w, 64);
	if (negative)
		*q++ = '-';
	q += fmt_u64(q, sec_abs);
	*q++ = '.';
	q += fmt_u64_pad(q, ns_abs, 9);
	writer_commit_to(w, q);
}

/* ---- one event ---------------------------------------------------------------------------------- */

static void put_timestamp(struct tk_printer *p, const struct tk_event *ev, int *start_line)
{
	struct writer *w = &p->out;
	int names = !!(p->flags & TK_PRINT_NAMES_HEADER);
	char *q;

	if (names)
		PUT(w, "timestamp = ");
	else
		writer_putc(w, '[');
	if (p->flags & TK_PRINT_CLOCK_CYCLES) {
		q = writer_reserve(w, 32);
		q += fmt_u64_pad(q, ev->cycles, 20);
		writer_commit_to(w, q);
	} else {
		put_wall_time(p, ev->ns);
	}
	if (!names)
		PUT(w, "] ");
	if (!(p->flags & TK_PRINT_NO_DELTA)) {
		if (names)
			PUT(w, ", delta = ");
		else
			writer_putc(w, '(');
		if (p->flags & TK_PRINT_CLOCK_CYCLES) {
			if (!p->has_last_cycles) {
				PUT(w, "+??????????\?\?");
			} else {
				q = writer_reserve(w, 32);
				*q++ = '+';
				q += fmt_u64_pad(q, ev->cycles - p->last_cycles, 12);
				writer_commit_to(w, q);
			}
		} else if (!p->has_last_ns) {
			PUT(w, "+?.?????????");
		} else {
			uint64_t delta = (uint64_t) ev->ns - (uint64_t) p->last_ns;

			q = writer_reserve(w, 32);
			*q++ = '+';
			q += fmt_u64(q, delta / 1000000000u);
			*q++ = '.';
			q += fmt_u64_pad(q, delta % 1000000000u, 9);
			writer_commit_to(w, q);
		}
		if (!names)
			PUT(w, ") ");
	}
	*start_line = !names;
}

static void put_scope(struct tk_printer *p, const struct model_fc *fc, const struct model_value *v,
		      const char *scope_name, int field_names, int *start_line)
{
	struct writer *w = &p->out;

	if (!fc || !fc->in_ir || !v)
		return;
	if (!*start_line)
		PUT(w, ", ");
	*start_line = 0;
	if (p->flags & TK_PRINT_NAMES_SCOPE) {
		writer_puts(w, scope_name);
		PUT(w, " = ");
	}
	put_value(w, fc, v, field_names);
}

/* Separator before a trace field, then its name or a colon after another domain field. */
static void field_prefix(struct writer *w, int start_line, int names, int dom_print,
			 const char *name)
{
	if (!start_line)
		PUT(w, ", ");
	if (names) {
		writer_puts(w, name);
		PUT(w, " = ");
	} else if (dom_print) {
		writer_putc(w, ':');
	}
}

enum tk_status tk_printer_print(struct tk_printer *p, const struct tk_event *ev)
{
	struct writer *w = &p->out;
	const struct tk_event_class *ec = ev->ec;
	const struct model_stream_class *sc = ec->sc;
	unsigned int f = p->flags;
	int names = !!(f & TK_PRINT_NAMES_HEADER);
	int start_line = 1, dom_print = 0;
	int ctx_names = !!(f & TK_PRINT_NAMES_CONTEXT);

	if (sc->clock) {
		put_timestamp(p, ev, &start_line);
		p->last_ns = ev->ns;
		p->has_last_ns = 1;
		p->last_cycles = ev->cycles;
		p->has_last_cycles = 1;
	}
	if (f & (TK_PRINT_FIELD_TRACE | TK_PRINT_FIELD_HOSTNAME | TK_PRINT_FIELD_DOMAIN |
		 TK_PRINT_FIELD_PROCNAME | TK_PRINT_FIELD_VPID)) {
		const struct source_cache *c = source_info(p, ev->stream->source);

		if (!c)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot print event");
		if ((f & TK_PRINT_FIELD_TRACE) && c->src->name) {
			if (!start_line)
				PUT(w, ", ");
			if (names)
				PUT(w, "trace = ");
			writer_puts(w, c->src->name);
			if (names)
				PUT(w, ", ");
		}
		if ((f & TK_PRINT_FIELD_HOSTNAME) && c->hostname) {
			if (!start_line)
				PUT(w, ", ");
			if (names)
				PUT(w, "trace:hostname = ");
			writer_puts(w, c->hostname);
			dom_print = 1;
		}
		if ((f & TK_PRINT_FIELD_DOMAIN) && c->domain) {
			field_prefix(w, start_line, names, dom_print, "trace:domain");
			writer_puts(w, c->domain);
			dom_print = 1;
		}
		if ((f & TK_PRINT_FIELD_PROCNAME) && c->procname) {
			field_prefix(w, start_line, names, dom_print, "trace:procname");
			writer_puts(w, c->procname);
			dom_print = 1;
		}
		if ((f & TK_PRINT_FIELD_VPID) && c->has_vpid) {
			char *q;

			field_prefix(w, start_line, names, dom_print, "trace:vpid");
			q = writer_reserve(w, 32);
			*q++ = '(';
			q += fmt_i64(q, c->vpid);
			*q++ = ')';
			writer_commit_to(w, q);
			dom_print = 1;
		}
	}
	if ((f & TK_PRINT_FIELD_LOGLEVEL) && ec->has_loglevel) {
		char *q;

		field_prefix(w, start_line, names, dom_print, "loglevel");
		writer_puts(w, loglevel_names[ec->loglevel]);
		q = writer_reserve(w, 32);
		*q++ = ' ';
		*q++ = '(';
		q += fmt_i64(q, ec->loglevel);
		*q++ = ')';
		writer_commit_to(w, q);
		dom_print = 1;
	}
	if ((f & TK_PRINT_FIELD_EMF) && ec->emf_uri) {
		field_prefix(w, start_line, names, dom_print, "model.emf.uri");
		writer_puts(w, ec->emf_uri);
		dom_print = 1;
	}
	if (dom_print && !names)
		writer_putc(w, ' ');
	if (!start_line)
		PUT(w, ", ");
	start_line = 1;
	if (names)
		PUT(w, "name = ");
	writer_puts(w, ec->name ? ec->name : "<unknown>");
	if (names)
		PUT(w, ", ");
	else
		PUT(w, ": ");
	put_scope(p, sc->packet_context, ev->scope[MODEL_SCOPE_PACKET_CONTEXT],
		  "stream.packet.context", ctx_names, &start_line);
	put_scope(p, sc->event_context, ev->scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT],
		  "stream.event.context", ctx_names, &start_line);
	put_scope(p, ec->context, ev->scope[MODEL_SCOPE_EVENT_CONTEXT], "event.context", ctx_names,
		  &start_line);
	put_scope(p, ec->payload, ev->scope[MODEL_SCOPE_PAYLOAD], "event.fields",
		  !!(f & TK_PRINT_NAMES_PAYLOAD), &start_line);
	writer_putc(w, '\n');
	if (TK_UNLIKELY(w->err))
		return writer_flush(w);
	return TK_OK;
}

enum tk_status tk_printer_print_notice(struct tk_printer *p, const struct tk_notice *n)
{
	struct writer saved = p->out;
	struct writer w;
	const struct tk_stream *s = n->stream;
	const struct tk_source *src = s->source;
	const char *what = n->kind == TK_NOTICE_DISCARDED_EVENTS ? "event" : "packet";
	char num[32];
	enum tk_status st;

	error_reset();
	st = writer_flush(&p->out);
	if (st < 0)
		return st;
	saved = p->out;
	/* format through the same code into a temporary writer on the error descriptor */
	st = writer_init(&w, p->err_fd, WRITER_MAX_RESERVE);
	if (st < 0)
		return st;
	p->out = w;
	if (n->count == UINT64_MAX) {
		writer_puts(&p->out, "WARNING: Tracer may have discarded ");
		writer_puts(&p->out, what);
		writer_puts(&p->out, "s ");
	} else {
		writer_puts(&p->out, "WARNING: Tracer discarded ");
		num[fmt_u64(num, n->count)] = '\0';
		writer_puts(&p->out, num);
		writer_putc(&p->out, ' ');
		writer_puts(&p->out, what);
		writer_puts(&p->out, n->count == 1 ? " " : "s ");
	}
	if (n->has_range) {
		PUT(&p->out, "between [");
		put_wall_time(p, n->begin_ns);
		PUT(&p->out, "] and [");
		put_wall_time(p, n->end_ns);
		writer_putc(&p->out, ']');
	} else {
		PUT(&p->out, "(unknown time range)");
	}
	PUT(&p->out, " in trace \"");
	writer_puts(&p->out, src->name ? src->name : "(unknown)");
	PUT(&p->out, "\" ");
	if (src->has_uuid) {
		char u[64];
		const uint8_t *b = src->uuid;

		snprintf(
			u, sizeof(u),
			"(UUID: %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x) ",
			b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
			b[12], b[13], b[14], b[15]);
		writer_puts(&p->out, u);
	} else {
		PUT(&p->out, "(no UUID) ");
	}
	PUT(&p->out, "within stream \"");
	writer_puts(&p->out, s->path);
	PUT(&p->out, "\" (stream class ID: ");
	num[fmt_u64(num, s->sc->id)] = '\0';
	writer_puts(&p->out, num);
	PUT(&p->out, ", stream ID: ");
	num[fmt_u64(num, s->id)] = '\0';
	writer_puts(&p->out, num);
	PUT(&p->out, ").\n");
	st = writer_flush(&p->out);
	writer_fini(&p->out);
	p->out = saved;
	return st;
}
