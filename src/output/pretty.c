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
#include "../common/vec.h"
#include "../model/model.h"
#include "json.h"
#include "pretty.h"
#include "sink.h"

#define NS_PER_S INT64_C(1000000000)

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
	if (!sink_for_style(opts->style))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot create printer: style=%u, reason=unknown style",
			       opts->style);
	p = calloc(1, sizeof(*p));
	if (!p)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create printer");
	st = writer_init(&p->out, opts->out_fd, PRINTER_BUFFER);
	if (st < 0) {
		free(p);
		return st;
	}
	p->err_fd = opts->err_fd;
	p->flags = opts->flags;
	p->style = opts->style;
	p->ops = sink_for_style(opts->style);
	p->event = p->ops->event;
	*out = p;
	return TK_OK;
}

enum tk_status tk_printer_flush(struct tk_printer *p)
{
	error_reset();
	if (p->ops->drain)
		p->ops->drain(p); /* no event follows the ones held back */
	return writer_flush(&p->out);
}

enum tk_status tk_printer_close(struct tk_printer *p)
{
	error_reset();
	return printer_close(p);
}

enum tk_status printer_close(struct tk_printer *p)
{
	enum tk_status st;
	size_t i;

	if (!p)
		return TK_OK;
	if (p->ops->end)
		p->ops->end(p); /* the end of the document, whatever came before */
	st = writer_flush(&p->out);
	writer_fini(&p->out);
	free(p->sources);
	if (p->ops->destroy)
		p->ops->destroy(p);
	for (i = 0; i < p->n_plans; i++)
		plan_free(p->plans[i]);
	free(p->plans);
	free(p);
	return st;
}

void tk_printer_set_filter(struct tk_printer *p, const struct tk_filter *filter)
{
	p->filter = filter;
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

/*
 * Bytes babeltrace2 escapes in strings: control characters and DEL (as C escapes or \xHH),
 * backslash, both quotes and '?'. Other bytes, UTF-8 included, are printed as they are.
 * The value is the second character of the escape, or 'x' for the \xHH form.
 */
static const char escape_char[256] = {
	['\0'] = 'x', [1] = 'x',    [2] = 'x',	  [3] = 'x',	 [4] = 'x',	[5] = 'x',
	[6] = 'x',    ['\a'] = 'a', ['\b'] = 'b', ['\t'] = 't',	 ['\n'] = 'n',	['\v'] = 'v',
	['\f'] = 'f', ['\r'] = 'r', [14] = 'x',	  [15] = 'x',	 [16] = 'x',	[17] = 'x',
	[18] = 'x',   [19] = 'x',   [20] = 'x',	  [21] = 'x',	 [22] = 'x',	[23] = 'x',
	[24] = 'x',   [25] = 'x',   [26] = 'x',	  [27] = 'e',	 [28] = 'x',	[29] = 'x',
	[30] = 'x',   [31] = 'x',   [127] = 'x',  ['\\'] = '\\', ['\''] = '\'', ['"'] = '"',
	['?'] = '?',
};

/*
 * A short string's last bytes are read as one 16-byte load when the 16 bytes lie in one
 * page (readable, as the string's first byte is): the bytes past the string are loaded
 * but not used. The choice by length that tail_words() makes instead mispredicts when
 * lengths vary (the strings of an event). Address sanitizers would see the extra bytes as
 * out of bounds: with them (or without SSE2), tail_words() only.
 */
#if !defined(__SSE2__) || defined(__SANITIZE_ADDRESS__)
#define PRETTY_PAGE_LOADS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define PRETTY_PAGE_LOADS 0
#endif
#endif
#ifndef PRETTY_PAGE_LOADS
#define PRETTY_PAGE_LOADS 1
#endif

#ifdef __SSE2__
#include <emmintrin.h>

/* Bit i set when byte i of @x needs an escape (see escape_char). */
static inline unsigned int vec_escapes(__m128i x)
{
	__m128i ctl = _mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8(0x1f)), _mm_set1_epi8(0x1f));
	__m128i m = _mm_or_si128(ctl, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));

	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('\'')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('"')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('?')));
	return (unsigned int) _mm_movemask_epi8(m);
}

/* Bit i set when byte i of the 16 at @s needs an escape. */
static inline unsigned int block_escapes(const char *s)
{
	return vec_escapes(_mm_loadu_si128((const __m128i *) s));
}

/* The same for the 16 bytes of @w[0] then @w[1], little-endian, kept in registers. */
static inline unsigned int words_escapes(const uint64_t w[2])
{
	return vec_escapes(_mm_set_epi64x((long long) w[1], (long long) w[0]));
}
#else
static inline unsigned int block_escapes(const char *s)
{
	unsigned int m = 0, i;

	for (i = 0; i < 16; i++)
		m |= (unsigned int) (escape_char[(unsigned char) s[i]] != 0) << i;
	return m;
}

static inline unsigned int words_escapes(const uint64_t w[2])
{
	char b[16];

	tk_store_u64(b, w[0], TK_BYTE_ORDER_LE);
	tk_store_u64(b + 8, w[1], TK_BYTE_ORDER_LE);
	return block_escapes(b);
}
#endif

/*
 * The @r (1 to 15) bytes at @s as 16 bytes, zero after them, in two little-endian words:
 * read by loads that overlap inside the @r bytes, so no byte past them is read, and built
 * in registers, as a block copied to the stack byte by byte made the 16-byte load after it
 * wait for the stores (a store-forwarding stall on every short string).
 */
static inline void tail_words(const char *s, size_t r, uint64_t w[2])
{
	if (r >= 8) {
		w[0] = tk_load_le64(s);
		w[1] = r > 8 ? tk_load_le64(s + r - 8) >> (8 * (16 - r)) : 0;
	} else if (r >= 4) {
		w[0] = tk_load_le32(s) | (uint64_t) tk_load_le32(s + r - 4) << (8 * (r - 4));
		w[1] = 0;
	} else {
		w[0] = (uint64_t) (uint8_t) s[0] | (uint64_t) (uint8_t) s[r / 2] << (8 * (r / 2)) |
		       (uint64_t) (uint8_t) s[r - 1] << (8 * (r - 1));
		w[1] = 0;
	}
}

/*
 * The escaped text of the @k (at most 16) bytes at @blk, whose escapes are the bits of @m,
 * at @q; returns the new end. @blk has 32 readable bytes: each clean run between escapes
 * is copied as 16 bytes, so the cost goes by escapes, not by bytes. Writes at most 16
 * bytes past the end it returns.
 */
static char *escape_block(char *q, const char *blk, unsigned int m, size_t k)
{
	size_t pos = 0;

	while (m) {
		unsigned int j = (unsigned int) __builtin_ctz(m);
		unsigned char c = (unsigned char) blk[j];
		char e = escape_char[c];

		memcpy(q, blk + pos, 16);
		q += j - pos;
		q[0] = '\\';
		q[1] = e;
		q[2] = TK_HEX_LOWER[c >> 4]; /* kept for \xHH only */
		q[3] = TK_HEX_LOWER[c & 15];
		q += e == 'x' ? 4 : 2;
		pos = j + 1;
		m &= m - 1;
	}
	memcpy(q, blk + pos, 16);
	return q + (k - pos);
}

/*
 * Escaped copy of @n bytes of @s at @q (room for 4 * n + 16 bytes); returns the new end.
 * Strings without escapes (nearly all) are checked and copied 16 bytes at a time, the end
 * of a long one as a block overlapping the previous one, a short one from registers
 * (tail_words()). A block holding escapes goes through a 32-byte copy to escape_block(),
 * which never reads past @n.
 */
static char *escape_into(char *q, const char *s, size_t n)
{
	char blk[32];
	uint64_t w[2];
	size_t i = 0;
	unsigned int m;

	while (n - i >= 16) {
		m = block_escapes(s + i);
		if (TK_LIKELY(!m)) {
			memcpy(q, s + i, 16);
			q += 16;
		} else {
			memcpy(blk, s + i, 16);
			memset(blk + 16, 0, 16);
			q = escape_block(q, blk, m, 16);
		}
		i += 16;
	}
	if (i == n)
		return q;
	if (i && !block_escapes(s + n - 16)) { /* overlaps clean bytes */
		memcpy(q + (n - i) - 16, s + n - 16, 16);
		return q + (n - i);
	}
#if PRETTY_PAGE_LOADS
	if (((uintptr_t) (s + i) & 4095) <= 4096 - 16) {
		__m128i x = _mm_loadu_si128((const __m128i *) (const void *) (s + i));

		m = vec_escapes(x) & ((1u << (n - i)) - 1);
		if (TK_LIKELY(!m)) {
			_mm_storeu_si128((__m128i *) (void *) q, x);
			return q + (n - i);
		}
	}
#endif
	tail_words(s + i, n - i, w);
	m = words_escapes(w) & ((1u << (n - i)) - 1);
	if (TK_LIKELY(!m)) {
		tk_store_u64(q, w[0], TK_BYTE_ORDER_LE);
		tk_store_u64(q + 8, w[1], TK_BYTE_ORDER_LE);
		return q + (n - i);
	}
	tk_store_u64(blk, w[0], TK_BYTE_ORDER_LE);
	tk_store_u64(blk + 8, w[1], TK_BYTE_ORDER_LE);
	memset(blk + 16, 0, 16);
	return escape_block(q, blk, m, n - i);
}

char *pretty_quote_into(char *q, const char *s, size_t n)
{
	*q = '"';
	q = escape_into(q + 1, s, n);
	*q = '"';
	return q + 1;
}

void pretty_put_escaped(struct writer *w, const char *s, size_t n)
{
	const size_t chunk = (WRITER_MAX_RESERVE - 18) / 4;
	char *q;

	if (TK_LIKELY(n <= chunk)) { /* one reservation for the whole quoted string */
		q = writer_reserve(w, n * 4 + 18);
		writer_commit_to(w, pretty_quote_into(q, s, n));
		return;
	}
	q = writer_reserve(w, 1);
	*q = '"';
	writer_commit_to(w, q + 1);
	while (n) {
		size_t k = n < chunk ? n : chunk;

		q = writer_reserve(w, k * 4 + 16);
		q = escape_into(q, s, k);
		writer_commit_to(w, q);
		s += k;
		n -= k;
	}
	writer_putc(w, '"');
}

static void put_int(struct writer *w, const struct model_fc *fc, uint64_t u)
{
	char *p = writer_reserve(w, 80), *start = p;
	uint32_t len = fc->size;

	switch (fc->base) {
	case 16:
		if (len <= 60) /* whole nibbles: sizes above 60 show all 64 bits */
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

void pretty_put_enum_labels(struct writer *w, const struct model_fc *fc, uint64_t u)
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
				pretty_put_escaped(w, mp->label, strlen(mp->label));
				break;
			}
		}
	}
	if (!n)
		PUT(w, "<unknown>");
}

void pretty_put_enum_tail(struct writer *w, const struct model_fc *fc, uint64_t u)
{
	PUT(w, " : container = ");
	put_int(w, fc, u);
	PUT(w, " )");
}

void pretty_put_enum(struct writer *w, const struct model_fc *fc, uint64_t u)
{
	pretty_put_enum_labels(w, fc, u);
	pretty_put_enum_tail(w, fc, u);
}

void pretty_put_double(struct writer *w, double d)
{
	char *p = writer_reserve(w, 64);

	p += fmt_double_g(p, d);
	writer_commit_to(w, p);
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
	p->line_time[0] = '[';
	memcpy(p->line_time + 1, p->cached_time, p->cached_len);
	p->line_time[p->cached_len + 1] = '.';
	p->line_len = p->cached_len + 2;
	p->cached_sec = sec;
	p->cached_sec_ns = (uint64_t) sec * (uint64_t) NS_PER_S;
	p->has_cached_sec = 1;
	p->time_fast = !(p->flags & PRETTY_TIME_SLOW) && p->has_last_ns;
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

/*
 * The time and delta at the start of a line in babeltrace2's layout, however the options
 * ask for them (pretty_time_fast() is the usual case, tried first).
 */
void pretty_put_time(struct tk_printer *p, const struct tk_event *ev)
{
	struct writer *w = &p->out;
	int names = !!(p->flags & TK_PRINT_NAMES_HEADER);
	char *q;

	if (!(p->flags & PRETTY_TIME_SLOW) && ev->ns >= 0 && p->has_last_ns &&
	    ev->ns >= p->last_ns) {
		if (!p->has_cached_sec ||
		    (uint64_t) ev->ns - p->cached_sec_ns >= (uint64_t) NS_PER_S) {
			if (time_of_day(p, ev->ns / NS_PER_S))
				goto general;
		}
		q = pretty_time_fast(p, ev, writer_reserve(w, 96));
		if (q) {
			writer_commit_to(w, q);
			return;
		}
	}
general:
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
}

/* A growable byte string (the header text of print plans). */
static enum tk_status sb_add(struct vec *sb, const char *s, size_t n)
{
	if (vec_reserve(sb, 1, n))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	memcpy((char *) sb->data + sb->len, s, n);
	sb->len += n;
	return TK_OK;
}

#define SB(sb, lit) sb_add((sb), (lit), sizeof(lit) - 1)

/* Separator before a trace field, then its name or a colon after another domain field. */
static enum tk_status field_prefix(struct vec *sb, int start_line, int names, int dom_print,
				   const char *name)
{
	enum tk_status st = TK_OK;

	if (!start_line)
		st = SB(sb, ", ");
	if (st >= 0 && names) {
		st = sb_add(sb, name, strlen(name));
		if (st >= 0)
			st = SB(sb, " = ");
	} else if (st >= 0 && dom_print) {
		st = SB(sb, ":");
	}
	return st;
}

/*
 * babeltrace2's print_event_header() after the time: trace fields from the environment, log
 * level, EMF URI and the event name, all fixed for an event class of a source.
 */
enum tk_status pretty_header_text(struct tk_printer *p, const struct tk_event_class *ec,
				  struct vec *sb)
{
	unsigned int f = p->flags;
	int names = !!(f & TK_PRINT_NAMES_HEADER);
	int start_line = ec->sc->clock ? !names : 1;
	int dom_print = 0;
	enum tk_status st = TK_OK;
	char num[32];

	if (f & (TK_PRINT_FIELD_TRACE | TK_PRINT_FIELD_HOSTNAME | TK_PRINT_FIELD_DOMAIN |
		 TK_PRINT_FIELD_PROCNAME | TK_PRINT_FIELD_VPID)) {
		const struct source_cache *c = source_info(p, ec->sc->source);

		if (!c)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
		if ((f & TK_PRINT_FIELD_TRACE) && c->src->name) {
			if (!start_line)
				st = SB(sb, ", ");
			if (st >= 0 && names)
				st = SB(sb, "trace = ");
			if (st >= 0)
				st = sb_add(sb, c->src->name, strlen(c->src->name));
			if (st >= 0 && names)
				st = SB(sb, ", ");
		}
		if (st >= 0 && (f & TK_PRINT_FIELD_HOSTNAME) && c->hostname) {
			if (!start_line)
				st = SB(sb, ", ");
			if (st >= 0 && names)
				st = SB(sb, "trace:hostname = ");
			if (st >= 0)
				st = sb_add(sb, c->hostname, strlen(c->hostname));
			dom_print = 1;
		}
		if (st >= 0 && (f & TK_PRINT_FIELD_DOMAIN) && c->domain) {
			st = field_prefix(sb, start_line, names, dom_print, "trace:domain");
			if (st >= 0)
				st = sb_add(sb, c->domain, strlen(c->domain));
			dom_print = 1;
		}
		if (st >= 0 && (f & TK_PRINT_FIELD_PROCNAME) && c->procname) {
			st = field_prefix(sb, start_line, names, dom_print, "trace:procname");
			if (st >= 0)
				st = sb_add(sb, c->procname, strlen(c->procname));
			dom_print = 1;
		}
		if (st >= 0 && (f & TK_PRINT_FIELD_VPID) && c->has_vpid) {
			st = field_prefix(sb, start_line, names, dom_print, "trace:vpid");
			num[0] = '(';
			num[1 + fmt_i64(num + 1, c->vpid)] = '\0';
			if (st >= 0)
				st = sb_add(sb, num, strlen(num));
			if (st >= 0)
				st = SB(sb, ")");
			dom_print = 1;
		}
	}
	if (st >= 0 && (f & TK_PRINT_FIELD_LOGLEVEL) && ec->has_loglevel) {
		st = field_prefix(sb, start_line, names, dom_print, "loglevel");
		if (st >= 0)
			st = sb_add(sb, loglevel_names[ec->loglevel],
				    strlen(loglevel_names[ec->loglevel]));
		num[0] = ' ';
		num[1] = '(';
		num[2 + fmt_i64(num + 2, ec->loglevel)] = '\0';
		if (st >= 0)
			st = sb_add(sb, num, strlen(num));
		if (st >= 0)
			st = SB(sb, ")");
		dom_print = 1;
	}
	if (st >= 0 && (f & TK_PRINT_FIELD_EMF) && ec->emf_uri) {
		st = field_prefix(sb, start_line, names, dom_print, "model.emf.uri");
		if (st >= 0)
			st = sb_add(sb, ec->emf_uri, strlen(ec->emf_uri));
		dom_print = 1;
	}
	if (st >= 0 && dom_print && !names)
		st = SB(sb, " ");
	if (st >= 0 && !start_line)
		st = SB(sb, ", ");
	if (st >= 0 && names)
		st = SB(sb, "name = ");
	if (st >= 0)
		st = ec->name ? sb_add(sb, ec->name, strlen(ec->name)) : SB(sb, "<unknown>");
	if (st >= 0)
		st = names ? SB(sb, ", ") : SB(sb, ": ");
	return st;
}

enum tk_status pretty_plan_build(struct tk_printer *p, const struct tk_event_class *ec,
				 const struct plan **out)
{
	struct plan *pl;
	enum tk_status st;

	if (ec->index >= p->n_plans) {
		struct plan **pp = table_hold(p->plans, &p->n_plans, sizeof(*pp), ec->index);

		if (!pp)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
		p->plans = pp;
	}
	pl = p->plans[ec->index];
	if (pl && plan_event_class(pl) == ec) {
		*out = pl;
		return TK_OK;
	}
	plan_free(pl);
	p->plans[ec->index] = NULL;
	st = p->ops->plan(p, ec, &pl);
	if (st < 0)
		return st;
	p->plans[ec->index] = pl;
	*out = pl;
	return TK_OK;
}

enum tk_status tk_printer_begin(struct tk_printer *p, const struct tk_trace *t)
{
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(p && t);
	if (!p->ops->begin)
		return TK_OK;
	st = p->ops->begin(p, t);
	if (st >= 0 && TK_UNLIKELY(p->out.err))
		return writer_flush(&p->out);
	return st;
}

enum tk_status tk_printer_print(struct tk_printer *p, const struct tk_event *ev)
{
	return p->event(p, ev);
}

enum tk_status tk_printer_print_notice(struct tk_printer *p, const struct tk_notice *n)
{
	return p->ops->notice(p, n);
}

/* pretty_print_event() when the plan is not built yet or the values are still to decode. */
static TK_NOINLINE enum tk_status print_event_slow(struct tk_printer *p, const struct tk_event *ev)
{
	const struct plan *pl = NULL;
	enum tk_status st;

	st = pretty_plan_for(p, ev->ec, &pl);
	if (st >= 0 && !plan_uses_body(pl, ev))
		st = model_event_values(ev);
	if (st < 0)
		return st;
	return plan_run(p, pl, ev);
}

/*
 * An event in babeltrace2's layout: its plan writes the line, the time first (P_TIME, which
 * keeps it as the last time) when the stream class has a clock. The usual case, a plan
 * built and values to read where they lie or already decoded, jumps straight to the plan.
 */
enum tk_status pretty_print_event(struct tk_printer *p, const struct tk_event *ev)
{
	const struct tk_event_class *ec = ev->ec;
	const struct plan *pl;

	if (TK_LIKELY(ec->index < p->n_plans && (pl = p->plans[ec->index]) &&
		      plan_event_class(pl) == ec && (!ev->pending || plan_uses_body(pl, ev))))
		return plan_run(p, pl, ev);
	return print_event_slow(p, ev);
}

/* A notice as babeltrace2 writes it on stderr, to the error descriptor. */
enum tk_status pretty_print_notice(struct tk_printer *p, const struct tk_notice *n)
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

const struct sink_ops sink_babeltrace = {
	.event = pretty_print_event,
	.notice = pretty_print_notice,
	.plan = plan_build,
};
