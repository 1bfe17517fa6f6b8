// SPDX-License-Identifier: MIT
/*
 * JSON lines: one JSON object per event, for programs rather than people (jq, Python,
 * databases). The schema is in include/tracekit/print.h and doc/tracekit-print.1; in short
 *
 *	{"ts":T,"cycles":C,"cpu":N,"stream":"PATH","stream_class":K,"stream_id":I,
 *	 "name":"EVENT","common_fields":{...},"packet_context":{...},"common_context":{...},
 *	 "event_context":{...},"fields":{...}}
 *
 * with every value in its type: integers as exact decimal numbers, enumerations with their
 * labels, strings as valid UTF-8. The field part is a print plan (pretty-plan.c) compiled in
 * JSON syntax, so the fields shown and the walk over them are the babeltrace style's; this
 * file writes what changes per event (time, CPU, stream) and the JSON value formats. The
 * string escaper checks 16 bytes at a time, like the babeltrace one; numbers are formatted by
 * hand (writer.h), except doubles with a fraction, which are rare in traces.
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "json.h"
#include "pretty.h"
#include "sink.h"

/* What is fixed for a data stream: ,"stream":"PATH","stream_class":K,"stream_id":I */
struct stream_text {
	const struct tk_stream *stream;
	char *text;
	size_t len;
};

struct json_state {
	struct stream_text *streams; /* by stream index */
	size_t n_streams;
};

/* ---- strings ---------------------------------------------------------------------------- */

#ifdef __SSE2__
#include <emmintrin.h>

/*
 * Bit i set when byte i of the 16 at @s needs a look: a control character, '"', '\' or a byte
 * of a multi-byte UTF-8 sequence (as signed bytes, those and the controls are below 0x20).
 */
static inline unsigned int json_block(const char *s)
{
	__m128i x = _mm_loadu_si128((const __m128i *) s);
	__m128i m = _mm_cmplt_epi8(x, _mm_set1_epi8(0x20));

	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('"')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
	return (unsigned int) _mm_movemask_epi8(m);
}
#else
static inline unsigned int json_block(const char *s)
{
	unsigned int m = 0, i;

	for (i = 0; i < 16; i++) {
		unsigned char c = (unsigned char) s[i];

		m |= (unsigned int) (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') << i;
	}
	return m;
}
#endif

/*
 * The UTF-8 sequence at @p (@n > 0 bytes, p[0] >= 0x80): its length when it is well formed
 * (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), else minus the length
 * of its maximal subpart (the longest start of a well-formed sequence, at least one byte).
 */
static int utf8_seq(const unsigned char *p, size_t n)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	int need, k;

	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		if (c == 0xe0)
			lo = 0xa0; /* overlong */
		else if (c == 0xed)
			hi = 0x9f; /* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		if (c == 0xf0)
			lo = 0x90; /* overlong */
		else if (c == 0xf4)
			hi = 0x8f; /* above U+10FFFF */
	} else {
		return -1;
	}
	for (k = 1; k <= need; k++) {
		if ((size_t) k >= n || p[k] < lo || p[k] > hi)
			return -k;
		lo = 0x80;
		hi = 0xbf;
	}
	return need + 1;
}

/* The byte at @u (a control character, '"', '\' or >= 0x80) escaped or copied at @q. */
static char *json_special(char *q, const unsigned char *u, size_t n, size_t *used)
{
	static const char hex[] = TK_HEX_LOWER;
	unsigned char c = u[0];
	int len;

	*used = 1;
	if (c < 0x80) {
		char e = 0;

		switch (c) {
		case '"':
			e = '"';
			break;
		case '\\':
			e = '\\';
			break;
		case '\b':
			e = 'b';
			break;
		case '\f':
			e = 'f';
			break;
		case '\n':
			e = 'n';
			break;
		case '\r':
			e = 'r';
			break;
		case '\t':
			e = 't';
			break;
		}
		*q++ = '\\';
		if (e) {
			*q++ = e;
			return q;
		}
		memcpy(q, "u00", 3);
		q[3] = hex[c >> 4];
		q[4] = hex[c & 15];
		return q + 5;
	}
	len = utf8_seq(u, n);
	if (len > 0) {
		memcpy(q, u, (size_t) len);
		*used = (size_t) len;
		return q + len;
	}
	*used = (size_t) -len;
	memcpy(q, "\\ufffd", 6);
	return q + 6;
}

char *json_put_quoted(char *q, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *) s;
	size_t i = 0, used;

	*q++ = '"';
	while (i < n) {
		size_t rem = n - i;
		unsigned int m;

		if (rem >= 16) {
			m = json_block(s + i);
			memcpy(q, s + i, 16);
			if (!m) {
				q += 16;
				i += 16;
				continue;
			}
		} else {
			char pad[16] = {0};

			memcpy(pad, s + i, rem);
			m = json_block(pad) & ((1u << rem) - 1);
			memcpy(q, pad, 16);
			if (!m) {
				q += rem;
				break;
			}
		}
		/* the clean bytes before the first special one are already copied */
		q += __builtin_ctz(m);
		i += (size_t) __builtin_ctz(m);
		q = json_special(q, u + i, n - i, &used);
		i += used;
	}
	*q++ = '"';
	return q;
}

void json_put_string(struct writer *w, const char *s, size_t n)
{
	const size_t chunk = (WRITER_MAX_RESERVE - 18) / 6;
	const unsigned char *u = (const unsigned char *) s;
	char *q;

	if (TK_LIKELY(n <= chunk)) {
		q = writer_reserve(w, JSON_QUOTED_ROOM(n));
		writer_commit_to(w, json_put_quoted(q, s, n));
		return;
	}
	/* in pieces, each escaped as a quoted string whose quotes are then dropped */
	writer_putc(w, '"');
	while (n) {
		size_t k = n < chunk ? n : chunk, j = k;
		char *end;

		/* never cut a UTF-8 sequence: start the next piece at its first byte */
		while (j < n && j > k - 3 && (u[j] & 0xc0) == 0x80)
			j--;
		if (j < n && u[j] >= 0xc0)
			k = j;
		q = writer_reserve(w, JSON_QUOTED_ROOM(k));
		end = json_put_quoted(q, s, k);
		memmove(q, q + 1, (size_t) (end - q - 2));
		writer_commit_to(w, end - 2);
		s += k;
		u += k;
		n -= k;
	}
	writer_putc(w, '"');
}

/* ---- numbers ------------------------------------------------------------------------------ */

size_t json_fmt_double(char *dst, double d)
{
	double a = d < 0 ? -d : d;
	char *p = dst;
	uint64_t bits;
	size_t n, i;

	memcpy(&bits, &d, sizeof(bits));
	if (d != d) {
		memcpy(dst, "\"NaN\"", 5);
		return 5;
	}
	if (a > DBL_MAX) {
		if (d < 0) {
			memcpy(dst, "\"-Infinity\"", 11);
			return 11;
		}
		memcpy(dst, "\"Infinity\"", 10);
		return 10;
	}
	if (a < 9007199254740992.0 && a == (double) (uint64_t) a) { /* integral, below 2^53 */
		if (bits >> 63)					    /* -0.0 too */
			*p++ = '-';
		p += fmt_u64(p, (uint64_t) a);
		memcpy(p, ".0", 2);
		return (size_t) (p + 2 - dst);
	}
	n = (size_t) snprintf(dst, 32, "%.17g", d);
	for (i = 0; i < n; i++) {
		if (dst[i] == 'e' || dst[i] == '.')
			return n;
		if (dst[i] == ',') { /* a locale's decimal comma */
			dst[i] = '.';
			return n;
		}
	}
	memcpy(dst + n, ".0", 2); /* a large integral value: keep it a float */
	return n + 2;
}

void json_put_enum(struct writer *w, const struct model_fc *fc, uint64_t u)
{
	uint32_t i, k;
	int n = 0;
	char *q = writer_reserve(w, 64);

	memcpy(q, "{\"value\":", 9);
	q += 9;
	q += fc->is_signed ? fmt_i64(q, (int64_t) u) : fmt_u64(q, u);
	memcpy(q, ",\"labels\":[", 11);
	writer_commit_to(w, q + 11);
	for (i = 0; i < fc->u.en.count; i++) {
		const struct model_enum_mapping *mp = &fc->u.en.maps[i];

		for (k = 0; k < mp->nranges; k++) {
			const struct model_range *r = &mp->ranges[k];
			int in = fc->is_signed ? ((int64_t) u >= r->lo.i && (int64_t) u <= r->hi.i)
					       : (u >= r->lo.u && u <= r->hi.u);

			if (in) {
				if (n++)
					writer_putc(w, ',');
				json_put_string(w, mp->label, strlen(mp->label));
				break;
			}
		}
	}
	writer_write(w, "]}", 2);
}

size_t json_fmt_us(char *dst, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t) 0 - (uint64_t) ns : (uint64_t) ns;
	char *p = dst;
	uint32_t frac = (uint32_t) (a % 1000);

	if (ns < 0)
		*p++ = '-';
	p += fmt_u64(p, a / 1000);
	p[0] = '.';
	p[1] = (char) ('0' + frac / 100);
	p[2] = (char) ('0' + frac / 10 % 10);
	p[3] = (char) ('0' + frac % 10);
	return (size_t) (p + 4 - dst);
}

/* ---- plans ------------------------------------------------------------------------------ */

/* JSON keys of the scopes, by enum model_scope. */
static const char *const scope_keys[] = {
	[MODEL_SCOPE_PACKET_CONTEXT] = "packet_context",
	[MODEL_SCOPE_EVENT_COMMON_CONTEXT] = "common_context",
	[MODEL_SCOPE_EVENT_CONTEXT] = "event_context",
	[MODEL_SCOPE_PAYLOAD] = "fields",
	[MODEL_SCOPE_COMMON] = "common_fields",
};

/*
 * JSON lines: ,"name":"EVENT" (the caller wrote the keys before it), the fields, "}\n".
 * Chrome: ,"name":"EVENT","args":{ the fields }} (the caller wrote ph, ts, pid and tid).
 */
enum tk_status json_plan_build(struct tk_printer *p, const struct tk_event_class *ec,
			       struct plan **out)
{
	struct plan_json_spec spec;
	int chrome = p->style == TK_PRINT_STYLE_CHROME;
	const char *name = ec->name;
	size_t n = name ? strlen(name) : 0;
	char *head = malloc(JSON_QUOTED_ROOM(n) + 32), *q;
	enum tk_status st;

	if (!head)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	memcpy(head, ",\"name\":", 8);
	q = head + 8;
	if (name) {
		q = json_put_quoted(q, name, n);
	} else if (chrome) { /* Chrome's name is a string */
		memcpy(q, "\"<unknown>\"", 11);
		q += 11;
	} else {
		memcpy(q, "null", 4);
		q += 4;
	}
	if (chrome) {
		memcpy(q, ",\"args\":{", 9);
		q += 9;
	}
	memset(&spec, 0, sizeof(spec));
	spec.head = head;
	spec.head_len = (size_t) (q - head);
	spec.scope_keys = scope_keys;
	spec.lead = !chrome;
	spec.tail = chrome ? "}}" : "}\n";
	spec.tail_len = 2;
	st = plan_build_json(ec, &spec, out);
	free(head);
	return st;
}

/* ---- JSON lines --------------------------------------------------------------------------- */

static struct json_state *state(struct tk_printer *p)
{
	if (!p->json)
		p->json = calloc(1, sizeof(*p->json));
	return p->json;
}

/* ,"stream":"PATH","stream_class":K,"stream_id":I of @s, rendered once. */
static const struct stream_text *stream_text(struct tk_printer *p, const struct tk_stream *s)
{
	struct json_state *js = state(p);
	struct stream_text *t;
	const char *path = s->path ? s->path : "";
	size_t n = strlen(path);
	char *q;

	if (!js)
		return NULL;
	if (s->index < js->n_streams && js->streams[s->index].stream == s)
		return &js->streams[s->index];
	if (s->index >= js->n_streams) {
		size_t cap = s->index + 16;
		struct stream_text *v = realloc(js->streams, cap * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + js->n_streams, 0, (cap - js->n_streams) * sizeof(*v));
		js->streams = v;
		js->n_streams = cap;
	}
	t = &js->streams[s->index];
	free(t->text);
	t->stream = NULL;
	t->text = malloc(JSON_QUOTED_ROOM(n) + 80);
	if (!t->text)
		return NULL;
	memcpy(t->text, ",\"stream\":", 10);
	q = json_put_quoted(t->text + 10, path, n);
	memcpy(q, ",\"stream_class\":", 16);
	q += 16;
	q += fmt_u64(q, s->sc->id);
	memcpy(q, ",\"stream_id\":", 13);
	q += 13;
	q += fmt_u64(q, s->id);
	t->len = (size_t) (q - t->text);
	t->stream = s;
	return t;
}

/* {"lost":N,"kind":"events",["ts":T,]["cpu":C,] then the stream keys and "}\n". */
static void put_lost(struct tk_printer *p, const struct tk_event *ev, const struct stream_text *t)
{
	char *q = writer_reserve(&p->out, 128);

	memcpy(q, "{\"lost\":", 8);
	q += 8;
	if (ev->missed > 0) {
		q += fmt_i64(q, ev->missed);
	} else {
		memcpy(q, "null", 4);
		q += 4;
	}
	memcpy(q, ",\"kind\":\"events\"", 16);
	q += 16;
	if (ev->has_ts) {
		memcpy(q, ",\"ts\":", 6);
		q += 6 + fmt_i64(q + 6, ev->ns);
	}
	if (ev->cpu >= 0) {
		memcpy(q, ",\"cpu\":", 7);
		q += 7 + fmt_i64(q + 7, ev->cpu);
	}
	writer_commit_to(&p->out, q);
	writer_write(&p->out, t->text, t->len);
	writer_write(&p->out, "}\n", 2);
}

static enum tk_status print(struct tk_printer *p, const struct tk_event *ev)
{
	const struct stream_text *t;
	const struct plan *pl;
	enum tk_status st;
	int sep = 0;
	char *q;

	st = model_event_values(ev);
	if (st >= 0)
		st = pretty_plan_for(p, ev->ec, &pl);
	if (st < 0)
		return st;
	t = stream_text(p, ev->stream);
	if (!t)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot print event");
	if (TK_UNLIKELY(ev->missed))
		put_lost(p, ev, t);
	q = writer_reserve(&p->out, 128);
	*q++ = '{';
	if (ev->has_ts) {
		memcpy(q, "\"ts\":", 5);
		q += 5 + fmt_i64(q + 5, ev->ns);
		memcpy(q, ",\"cycles\":", 10);
		q += 10 + fmt_u64(q + 10, ev->cycles);
		sep = 1;
	}
	if (ev->cpu >= 0) {
		if (sep)
			*q++ = ',';
		memcpy(q, "\"cpu\":", 6);
		q += 6 + fmt_i64(q + 6, ev->cpu);
		sep = 1;
	}
	writer_commit_to(&p->out, q);
	/* the stream keys start with a comma, not wanted right after the brace */
	writer_write(&p->out, t->text + !sep, t->len - !sep);
	return plan_run(p, pl, ev);
}

static enum tk_status notice(struct tk_printer *p, const struct tk_notice *n)
{
	const struct stream_text *t = stream_text(p, n->stream);
	char *q;

	error_reset();
	if (!t)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot print notice");
	q = writer_reserve(&p->out, 128);
	memcpy(q, "{\"lost\":", 8);
	q += 8;
	if (n->count == UINT64_MAX) {
		memcpy(q, "null", 4);
		q += 4;
	} else {
		q += fmt_u64(q, n->count);
	}
	if (n->kind == TK_NOTICE_DISCARDED_EVENTS) {
		memcpy(q, ",\"kind\":\"events\"", 16);
		q += 16;
	} else {
		memcpy(q, ",\"kind\":\"packets\"", 17);
		q += 17;
	}
	if (n->has_range) {
		memcpy(q, ",\"begin_ts\":", 12);
		q += 12 + fmt_i64(q + 12, n->begin_ns);
		memcpy(q, ",\"end_ts\":", 10);
		q += 10 + fmt_i64(q + 10, n->end_ns);
	}
	writer_commit_to(&p->out, q);
	writer_write(&p->out, t->text, t->len);
	writer_write(&p->out, "}\n", 2);
	if (TK_UNLIKELY(p->out.err))
		return writer_flush(&p->out);
	return TK_OK;
}

static void destroy(struct tk_printer *p)
{
	size_t i;

	if (!p->json)
		return;
	for (i = 0; i < p->json->n_streams; i++)
		free(p->json->streams[i].text);
	free(p->json->streams);
	free(p->json);
	p->json = NULL;
}

const struct sink_ops sink_json = {
	.event = print,
	.notice = notice,
	.destroy = destroy,
	.plan = json_plan_build,
	.carry_losses = 1,
};
