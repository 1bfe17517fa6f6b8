// SPDX-License-Identifier: MIT
/*
 * EventHeader events as the reference decoder's JSON (LinuxTracepoints' EventFormatter, as
 * perf-decode and its tests run it): every value's text, the names with their tags, the "n"
 * and "meta" members, in the spaced or the compact layout. tracekit's output must be
 * comparable byte for byte with that decoder's, so its quirks are kept on purpose and named
 * where they are: code points above U+10FFFF written as 5 to 7-byte sequences, unpaired
 * surrogates passed through, bytes of invalid UTF-8 read as Latin-1, the v1.4 rule that
 * makes a counted char8 or binary field of a sized format null when empty.
 *
 * Text goes into a vec of bytes that the caller owns; an event that fails to decode leaves
 * nothing behind, as the reference writes nothing for it. Rules from
 * ../shared/reference/eventheader.md, section 6.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/error.h"
#include "../common/writer.h"
#include "eventheader.h"

/* struct eventheader_json (eventheader.h): the output and whether a comma comes next. */
#define out eventheader_json

/* Room for @n more bytes at the end of the output, or NULL (and nomem) when out of memory. */
static char *room(struct out *o, size_t n)
{
	if (TK_LIKELY(o->v->cap - o->v->len > n)) /* the usual case: no call */
		return (char *) o->v->data + o->v->len;
	if (o->nomem || vec_reserve(o->v, 1, n + 1)) { /* + 1: never a NULL buffer */
		o->nomem = true;
		return NULL;
	}
	return (char *) o->v->data + o->v->len;
}

static void commit(struct out *o, const char *end)
{
	o->v->len = (size_t) (end - (const char *) o->v->data);
}

static void put(struct out *o, const void *s, size_t n)
{
	char *p = room(o, n);

	if (p) {
		memcpy(p, s, n);
		o->v->len += n;
	}
}

static void put_c(struct out *o, char c)
{
	put(o, &c, 1);
}

static void put_quote_if(struct out *o, bool json)
{
	if (json)
		put_c(o, '"');
}

static void put_u64(struct out *o, uint64_t v)
{
	char *p = room(o, 24);

	if (p)
		commit(o, p + fmt_u64(p, v));
}

static void put_i64(struct out *o, int64_t v)
{
	char *p = room(o, 24);

	if (p)
		commit(o, p + fmt_i64(p, v));
}

/* "0x" and upper-case hex digits, no padding. */
static void put_hex_int(struct out *o, uint64_t v, bool json)
{
	char *p = room(o, 24), *q;

	if (!p)
		return;
	q = p;
	if (json)
		*q++ = '"';
	*q++ = '0';
	*q++ = 'x';
	q += fmt_hex_upper(q, v);
	if (json)
		*q++ = '"';
	commit(o, q);
}

/* "01 02 0a": lower-case pairs, one space between them, nothing for no bytes. */
static void put_hex_bytes(struct out *o, const uint8_t *b, size_t n, bool json)
{
	char *p = room(o, n * 3 + 2), *q;
	size_t i;

	if (!p)
		return;
	q = p;
	if (json)
		*q++ = '"';
	for (i = 0; i < n; i++) {
		if (i)
			*q++ = ' ';
		*q++ = TK_HEX_LOWER[b[i] >> 4];
		*q++ = TK_HEX_LOWER[b[i] & 15];
	}
	if (json)
		*q++ = '"';
	commit(o, q);
}

/*
 * A code point in UTF-8 at @q, returning the byte count. Values the standard excludes are
 * written anyway, as the reference does: surrogates as 3 bytes, values above U+10FFFF as 4 to
 * 7 bytes in the original (1993) UTF-8 scheme, 0xFE leading the 7-byte form.
 */
static size_t utf8_encode(char *q, uint32_t c)
{
	unsigned int n, i;
	uint8_t lead;

	if (c < 0x80) {
		q[0] = (char) c;
		return 1;
	}
	if (c < 0x800) {
		n = 2;
		lead = 0xC0;
	} else if (c < 0x10000) {
		n = 3;
		lead = 0xE0;
	} else if (c < 0x200000) {
		n = 4;
		lead = 0xF0;
	} else if (c < 0x4000000) {
		n = 5;
		lead = 0xF8;
	} else if (c < 0x80000000) {
		n = 6;
		lead = 0xFC;
	} else {
		n = 7;
		lead = 0xFE;
	}
	for (i = n - 1; i > 0; i--) {
		q[i] = (char) (0x80 | (c & 0x3F));
		c >>= 6;
	}
	q[0] = (char) (n == 7 ? lead : (lead | c));
	return n;
}

/* JSON's escape of an ASCII byte, or 0 when it needs none. */
static size_t json_escape(char *q, uint8_t c)
{
	const char *short_form = NULL;

	switch (c) {
	case '"':
		short_form = "\\\"";
		break;
	case '\\':
		short_form = "\\\\";
		break;
	case '\b':
		short_form = "\\b";
		break;
	case '\f':
		short_form = "\\f";
		break;
	case '\n':
		short_form = "\\n";
		break;
	case '\r':
		short_form = "\\r";
		break;
	case '\t':
		short_form = "\\t";
		break;
	default:
		if (c >= 0x20)
			return 0;
		memcpy(q, "\\u00", 4);
		q[4] = TK_HEX_LOWER[c >> 4];
		q[5] = TK_HEX_LOWER[c & 15];
		return 6;
	}
	memcpy(q, short_form, 2);
	return 2;
}

/* One code point, escaped for JSON when @json. Room: 7 bytes. */
static char *put_cp(char *q, uint32_t c, bool json)
{
	size_t n;

	if (c < 0x80 && json && (n = json_escape(q, (uint8_t) c)) != 0)
		return q + n;
	return q + utf8_encode(q, c);
}

/* A string of code points of @unit bytes each (1: Latin-1, 4: UCS-4), quoted when @json. */
static void put_ucs(struct out *o, const uint8_t *s, size_t units, unsigned int unit,
		    enum tk_byte_order order, bool json)
{
	char *p = room(o, units * 7 + 2), *q;
	size_t i;

	if (!p)
		return;
	q = p;
	if (json)
		*q++ = '"';
	for (i = 0; i < units; i++) {
		uint32_t c = unit == 1 ? s[i] : tk_load_u32(s + i * 4, order);

		q = put_cp(q, c, json);
	}
	if (json)
		*q++ = '"';
	commit(o, q);
}

/* UTF-16: surrogate pairs joined, any other surrogate passed through as a code point. */
static void put_utf16(struct out *o, const uint8_t *s, size_t units, enum tk_byte_order order,
		      bool json)
{
	char *p = room(o, units * 7 + 2), *q;
	size_t i;

	if (!p)
		return;
	q = p;
	if (json)
		*q++ = '"';
	for (i = 0; i < units; i++) {
		uint32_t c = tk_load_u16(s + i * 2, order);

		if (c >= 0xD800 && c <= 0xDBFF && i + 1 < units) {
			uint32_t lo = tk_load_u16(s + (i + 1) * 2, order);

			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
				i++;
			}
		}
		q = put_cp(q, c, json);
	}
	if (json)
		*q++ = '"';
	commit(o, q);
}

/*
 * The length of the valid UTF-8 sequence at @s (@n bytes left), or 0 when it is not one:
 * 2 to 4 bytes, no overlong form, at most U+10FFFF; 3-byte surrogates are accepted.
 */
static size_t utf8_valid(const uint8_t *s, size_t n)
{
	uint32_t c;

	if (s[0] < 0xC0 || s[0] > 0xF4)
		return 0;
	if (s[0] < 0xE0) {
		if (n < 2 || (s[1] & 0xC0) != 0x80)
			return 0;
		c = (uint32_t) (s[0] & 0x1F) << 6 | (s[1] & 0x3F);
		return c >= 0x80 ? 2 : 0;
	}
	if (s[0] < 0xF0) {
		if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		c = (uint32_t) (s[0] & 0x0F) << 12 | (uint32_t) (s[1] & 0x3F) << 6 | (s[2] & 0x3F);
		return c >= 0x800 ? 3 : 0;
	}
	if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
		return 0;
	c = (uint32_t) (s[0] & 0x07) << 18 | (uint32_t) (s[1] & 0x3F) << 12 |
	    (uint32_t) (s[2] & 0x3F) << 6 | (s[3] & 0x3F);
	return c >= 0x10000 && c <= 0x10FFFF ? 4 : 0;
}

/* UTF-8 text, escaped when @json; each byte that starts no valid sequence is read as Latin-1. */
static void put_utf8_text(struct out *o, const uint8_t *s, size_t n, bool json)
{
	char *p = room(o, n * 6), *q;
	size_t i = 0, k;

	if (!p)
		return;
	q = p;
	while (i < n) {
		uint8_t c = s[i];

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') { /* most text: as it is */
			*q++ = (char) c;
			i++;
		} else if (c < 0x80) {
			q = put_cp(q, c, json);
			i++;
		} else if ((k = utf8_valid(s + i, n - i)) != 0) {
			memcpy(q, s + i, k);
			q += k;
			i += k;
		} else {
			q += utf8_encode(q, s[i]);
			i++;
		}
	}
	commit(o, q);
}

static void put_utf8(struct out *o, const uint8_t *s, size_t n, bool json)
{
	put_quote_if(o, json);
	put_utf8_text(o, s, n, json);
	put_quote_if(o, json);
}

/*
 * Text that starts with a byte order mark: UTF-32 (either order), UTF-16 (either order),
 * UTF-8, tried in that order; the mark is not written. Returns false without one.
 */
static bool put_bom_text(struct out *o, const uint8_t *s, size_t n, bool json)
{
	if (n >= 4 && !memcmp(s, "\xFF\xFE\0\0", 4))
		put_ucs(o, s + 4, n / 4 - 1, 4, TK_BYTE_ORDER_LE, json);
	else if (n >= 4 && !memcmp(s, "\0\0\xFE\xFF", 4))
		put_ucs(o, s + 4, n / 4 - 1, 4, TK_BYTE_ORDER_BE, json);
	else if (n >= 2 && !memcmp(s, "\xFF\xFE", 2))
		put_utf16(o, s + 2, n / 2 - 1, TK_BYTE_ORDER_LE, json);
	else if (n >= 2 && !memcmp(s, "\xFE\xFF", 2))
		put_utf16(o, s + 2, n / 2 - 1, TK_BYTE_ORDER_BE, json);
	else if (n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
		put_utf8(o, s + 3, n - 3, json);
	else
		return false;
	return true;
}

/* false, true, or any other value as a signed 32-bit number. */
static void put_bool(struct out *o, uint32_t v)
{
	if (v == 0)
		put(o, "false", 5);
	else if (v == 1)
		put(o, "true", 4);
	else
		put_i64(o, (int32_t) v);
}

/* Linux errno names by number (asm-generic/errno-base.h and errno.h); NULL: none. */
static const char *const errno_names[] = {
	NULL,
	"EPERM",
	"ENOENT",
	"ESRCH",
	"EINTR",
	"EIO",
	"ENXIO",
	"E2BIG",
	"ENOEXEC",
	"EBADF",
	"ECHILD",
	"EAGAIN",
	"ENOMEM",
	"EACCES",
	"EFAULT",
	"ENOTBLK",
	"EBUSY",
	"EEXIST",
	"EXDEV",
	"ENODEV",
	"ENOTDIR",
	"EISDIR",
	"EINVAL",
	"ENFILE",
	"EMFILE",
	"ENOTTY",
	"ETXTBSY",
	"EFBIG",
	"ENOSPC",
	"ESPIPE",
	"EROFS",
	"EMLINK",
	"EPIPE",
	"EDOM",
	"ERANGE",
	"EDEADLK",
	"ENAMETOOLONG",
	"ENOLCK",
	"ENOSYS",
	"ENOTEMPTY",
	"ELOOP",
	NULL,
	"ENOMSG",
	"EIDRM",
	"ECHRNG",
	"EL2NSYNC",
	"EL3HLT",
	"EL3RST",
	"ELNRNG",
	"EUNATCH",
	"ENOCSI",
	"EL2HLT",
	"EBADE",
	"EBADR",
	"EXFULL",
	"ENOANO",
	"EBADRQC",
	"EBADSLT",
	NULL,
	"EBFONT",
	"ENOSTR",
	"ENODATA",
	"ETIME",
	"ENOSR",
	"ENONET",
	"ENOPKG",
	"EREMOTE",
	"ENOLINK",
	"EADV",
	"ESRMNT",
	"ECOMM",
	"EPROTO",
	"EMULTIHOP",
	"EDOTDOT",
	"EBADMSG",
	"EOVERFLOW",
	"ENOTUNIQ",
	"EBADFD",
	"EREMCHG",
	"ELIBACC",
	"ELIBBAD",
	"ELIBSCN",
	"ELIBMAX",
	"ELIBEXEC",
	"EILSEQ",
	"ERESTART",
	"ESTRPIPE",
	"EUSERS",
	"ENOTSOCK",
	"EDESTADDRREQ",
	"EMSGSIZE",
	"EPROTOTYPE",
	"ENOPROTOOPT",
	"EPROTONOSUPPORT",
	"ESOCKTNOSUPPORT",
	"EOPNOTSUPP",
	"EPFNOSUPPORT",
	"EAFNOSUPPORT",
	"EADDRINUSE",
	"EADDRNOTAVAIL",
	"ENETDOWN",
	"ENETUNREACH",
	"ENETRESET",
	"ECONNABORTED",
	"ECONNRESET",
	"ENOBUFS",
	"EISCONN",
	"ENOTCONN",
	"ESHUTDOWN",
	"ETOOMANYREFS",
	"ETIMEDOUT",
	"ECONNREFUSED",
	"EHOSTDOWN",
	"EHOSTUNREACH",
	"EALREADY",
	"EINPROGRESS",
	"ESTALE",
	"EUCLEAN",
	"ENOTNAM",
	"ENAVAIL",
	"EISNAM",
	"EREMOTEIO",
	"EDQUOT",
	"ENOMEDIUM",
	"EMEDIUMTYPE",
	"ECANCELED",
	"ENOKEY",
	"EKEYEXPIRED",
	"EKEYREVOKED",
	"EKEYREJECTED",
	"EOWNERDEAD",
	"ENOTRECOVERABLE",
	"ERFKILL",
	"EHWPOISON",
};

static_assert(TK_ARRAY_SIZE(errno_names) == 134, "errno names 0 to EHWPOISON (133)");

/* "EPERM(1)", or "ERRNO(n)" (n signed) for numbers without a name. */
static void put_errno(struct out *o, uint32_t v, bool json)
{
	const char *name = v < TK_ARRAY_SIZE(errno_names) ? errno_names[v] : NULL;

	put_quote_if(o, json);
	if (name) {
		put(o, name, strlen(name));
		put_c(o, '(');
		put_u64(o, v);
	} else {
		put(o, "ERRNO(", 6);
		put_i64(o, (int32_t) v);
	}
	put_c(o, ')');
	put_quote_if(o, json);
}

/* The text of the last time put_time() wrote, per thread: samples come seconds apart. */
static _Thread_local struct {
	int64_t v;
	uint8_t len; /* 0: none yet */
	char text[40];
} time_cache;

/* Seconds since 1970 as "YYYY-MM-DDThh:mm:ss" (UTC), or "TIME(n)" beyond the C library's. */
static void put_time(struct out *o, int64_t v, bool json)
{
	char *p = room(o, 48), *q, *start;
	struct tm tm;
	time_t t = (time_t) v;
	int year;

	if (!p)
		return;
	q = p;
	if (json)
		*q++ = '"';
	start = q;
	if (time_cache.len && time_cache.v == v) {
		memcpy(q, time_cache.text, time_cache.len);
		q += time_cache.len;
	} else if ((int64_t) t == v && gmtime_r(&t, &tm)) {
		year = 1900 + tm.tm_year; /* printf's %04d: the sign counts in the width */
		if (year < 0) {
			*q++ = '-';
			q += fmt_u64_pad(q, (uint64_t) - (int64_t) year, 3);
		} else {
			q += fmt_u64_pad(q, (uint64_t) year, 4);
		}
		*q++ = '-';
		q += fmt_u64_pad(q, (uint64_t) tm.tm_mon + 1, 2);
		*q++ = '-';
		q += fmt_u64_pad(q, (uint64_t) tm.tm_mday, 2);
		*q++ = 'T';
		q += fmt_u64_pad(q, (uint64_t) tm.tm_hour, 2);
		*q++ = ':';
		q += fmt_u64_pad(q, (uint64_t) tm.tm_min, 2);
		*q++ = ':';
		q += fmt_u64_pad(q, (uint64_t) tm.tm_sec, 2);
	} else {
		memcpy(q, "TIME(", 5);
		q += 5;
		q += fmt_i64(q, v);
		*q++ = ')';
	}
	if ((size_t) (q - start) <= sizeof(time_cache.text)) {
		time_cache.v = v;
		time_cache.len = (uint8_t) (q - start);
		memcpy(time_cache.text, start, time_cache.len);
	}
	if (json)
		*q++ = '"';
	commit(o, q);
}

/*
 * The shortest text that reads back as the same float (@single) or double, in the form C++'s
 * std::to_chars() chooses: fixed or scientific, whichever is shorter, fixed on a tie;
 * scientific as d[.ddd]e±dd. The digits are the correctly rounded ones of the smallest
 * precision that round-trips (printf's %e, checked with strtof/strtod).
 */
static size_t fmt_shortest(char *dst, double d, bool single)
{
	char sci[40], digits[24], *q = dst;
	int prec, exp, nd, i, max = single ? 9 : 17;
	size_t fixed_len, sci_len;

	if (signbit(d)) {
		*q++ = '-';
		d = -d;
	}
	if (d == 0) {
		*q++ = '0';
		return (size_t) (q - dst);
	}
	for (prec = 0; prec < max; prec++) {
		snprintf(sci, sizeof(sci), "%.*e", prec, d);
		if (single ? strtof(sci, NULL) == (float) d : strtod(sci, NULL) == d)
			break;
	}
	if (prec == max)
		snprintf(sci, sizeof(sci), "%.*e", max - 1, d);
	/* sci: d[.ddd]e[+-]xx */
	nd = 0;
	for (i = 0; sci[i] != 'e'; i++)
		if (sci[i] != '.')
			digits[nd++] = sci[i];
	exp = atoi(sci + i + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	/* lengths without the sign */
	sci_len = (size_t) nd + (nd > 1) + 2 + (exp <= -100 || exp >= 100 ? 3 : 2);
	if (exp >= 0)
		fixed_len = exp + 1 >= nd ? (size_t) exp + 1 : (size_t) nd + 1;
	else
		fixed_len = (size_t) (1 + 1 + (-exp - 1) + nd);
	if (fixed_len <= sci_len) {
		if (exp >= 0 && nd <= exp + 1) {
			/* an integer: std::to_chars() writes all its exact digits, not zeros */
			q += snprintf(q, 32, "%.0f", d);
		} else if (exp >= 0) {
			for (i = 0; i <= exp || i < nd; i++) {
				if (i == exp + 1)
					*q++ = '.';
				*q++ = i < nd ? digits[i] : '0';
			}
		} else {
			*q++ = '0';
			*q++ = '.';
			for (i = 0; i < -exp - 1; i++)
				*q++ = '0';
			memcpy(q, digits, (size_t) nd);
			q += nd;
		}
	} else {
		*q++ = digits[0];
		if (nd > 1) {
			*q++ = '.';
			memcpy(q, digits + 1, (size_t) nd - 1);
			q += nd - 1;
		}
		*q++ = 'e';
		*q++ = exp < 0 ? '-' : '+';
		q += fmt_u64_pad(q, (uint64_t) (exp < 0 ? -exp : exp), 2);
	}
	return (size_t) (q - dst);
}

/* A float or double: a JSON number when finite, else "nan"/"inf" with the sign, quoted. */
static void put_float(struct out *o, double d, bool single, bool json)
{
	char *p = room(o, 48), *q;
	bool quote = json && !isfinite(d);

	if (!p)
		return;
	q = p;
	if (quote)
		*q++ = '"';
	if (isnan(d) || isinf(d)) {
		if (signbit(d))
			*q++ = '-';
		memcpy(q, isnan(d) ? "nan" : "inf", 3);
		q += 3;
	} else {
		q += fmt_shortest(q, d, single);
	}
	if (quote)
		*q++ = '"';
	commit(o, q);
}

static void put_uuid(struct out *o, const uint8_t *u, bool json)
{
	char *p = room(o, 40), *q;
	unsigned int i;

	if (!p)
		return;
	q = p;
	if (json)
		*q++ = '"';
	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*q++ = '-';
		*q++ = TK_HEX_LOWER[u[i] >> 4];
		*q++ = TK_HEX_LOWER[u[i] & 15];
	}
	if (json)
		*q++ = '"';
	commit(o, q);
}

static void put_ipv4(struct out *o, const uint8_t *a, bool json)
{
	unsigned int i;

	put_quote_if(o, json);
	for (i = 0; i < 4; i++) {
		if (i)
			put_c(o, '.');
		put_u64(o, a[i]);
	}
	put_quote_if(o, json);
}

static void put_ipv6(struct out *o, const uint8_t *a, bool json)
{
	char buf[INET6_ADDRSTRLEN];

	put_quote_if(o, json);
	if (inet_ntop(AF_INET6, a, buf, sizeof(buf)))
		put(o, buf, strlen(buf));
	put_quote_if(o, json);
}

static double f32_of(uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

static double f64_of(uint64_t bits)
{
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

/*
 * A fixed-size value (value8 to value128, @n = 1 to 16 bytes at @p). A format that does not
 * apply to the size falls back to the size's default: unsigned for 1 to 8 bytes, hex bytes
 * for 16.
 */
static void put_fixed(struct out *o, const uint8_t *p, unsigned int n, unsigned int fmt,
		      enum tk_byte_order order, bool json)
{
	uint64_t u = n <= 8 ? tk_load_uint(p, n, order) : 0;
	int64_t s = n <= 8 ? (int64_t) tk_load_int(p, n, 1, order) : 0;

	switch (fmt) {
	case EVENTHEADER_FMT_SIGNED_INT:
		if (n <= 8) {
			put_i64(o, s);
			return;
		}
		break;
	case EVENTHEADER_FMT_PID:
		if (n == 4) {
			put_i64(o, s);
			return;
		}
		break;
	case EVENTHEADER_FMT_HEX_INT:
		if (n <= 8) {
			put_hex_int(o, u, json);
			return;
		}
		break;
	case EVENTHEADER_FMT_ERRNO:
		if (n == 4) {
			put_errno(o, (uint32_t) u, json);
			return;
		}
		break;
	case EVENTHEADER_FMT_TIME:
		if (n == 4 || n == 8) {
			put_time(o, s, json);
			return;
		}
		break;
	case EVENTHEADER_FMT_BOOLEAN:
		if (n <= 4) {
			put_bool(o, (uint32_t) u);
			return;
		}
		break;
	case EVENTHEADER_FMT_FLOAT:
		if (n == 4 || n == 8) {
			put_float(o, n == 4 ? f32_of((uint32_t) u) : f64_of(u), n == 4, json);
			return;
		}
		break;
	case EVENTHEADER_FMT_HEX_BYTES:
		put_hex_bytes(o, p, n, json);
		return;
	case EVENTHEADER_FMT_STRING8:
		if (n == 1) {
			put_ucs(o, p, 1, 1, order, json);
			return;
		}
		break;
	case EVENTHEADER_FMT_STRING_UTF: /* one UCS-2 or UCS-4 code unit, never paired */
		if (n == 2 || n == 4) {
			char *q = room(o, 9);

			if (q) {
				char *e = q;

				if (json)
					*e++ = '"';
				e = put_cp(e, (uint32_t) u, json);
				if (json)
					*e++ = '"';
				commit(o, e);
			}
			return;
		}
		break;
	case EVENTHEADER_FMT_UUID:
		if (n == 16) {
			put_uuid(o, p, json);
			return;
		}
		break;
	case EVENTHEADER_FMT_PORT:
		if (n == 2) {
			put_u64(o, tk_load_be16(p));
			return;
		}
		break;
	case EVENTHEADER_FMT_IP_ADDRESS:
	case EVENTHEADER_FMT_IP_ADDRESS_OBSOLETE:
		if (n == 4) {
			put_ipv4(o, p, json);
			return;
		}
		if (n == 16) {
			put_ipv6(o, p, json);
			return;
		}
		break;
	default:
		break;
	}
	if (n == 16)
		put_hex_bytes(o, p, n, json);
	else
		put_u64(o, u);
}

/*
 * The sizes (a mask of 1 << bytes) at which a counted char8 or binary field is formatted as a
 * fixed-size value of its format (v1.4.0); 0 for the string formats. For these formats an
 * empty field is null and any other size falls back to the encoding's default.
 */
static unsigned int sized_format_sizes(unsigned int fmt)
{
	switch (fmt) {
	case EVENTHEADER_FMT_UNSIGNED_INT:
	case EVENTHEADER_FMT_SIGNED_INT:
	case EVENTHEADER_FMT_HEX_INT:
		return 1u << 1 | 1u << 2 | 1u << 4 | 1u << 8;
	case EVENTHEADER_FMT_ERRNO:
	case EVENTHEADER_FMT_PID:
		return 1u << 4;
	case EVENTHEADER_FMT_TIME:
	case EVENTHEADER_FMT_FLOAT:
		return 1u << 4 | 1u << 8;
	case EVENTHEADER_FMT_BOOLEAN:
		return 1u << 1 | 1u << 2 | 1u << 4;
	case EVENTHEADER_FMT_UUID:
		return 1u << 16;
	case EVENTHEADER_FMT_PORT:
		return 1u << 2;
	case EVENTHEADER_FMT_IP_ADDRESS:
	case EVENTHEADER_FMT_IP_ADDRESS_OBSOLETE:
		return 1u << 4 | 1u << 16;
	default:
		return 0;
	}
}

static bool is_bom_format(unsigned int fmt)
{
	return fmt == EVENTHEADER_FMT_STRING_UTF_BOM || fmt == EVENTHEADER_FMT_STRING_XML ||
	       fmt == EVENTHEADER_FMT_STRING_JSON;
}

/* Format one value; -1 when its size does not suit its encoding (never from the enumerator). */
static int put_value(struct out *o, const uint8_t *p, size_t n, unsigned int enc, unsigned int fmt,
		     enum tk_byte_order order, bool json)
{
	unsigned int sizes;

	switch (enc) {
	case EVENTHEADER_ENC_VALUE8:
	case EVENTHEADER_ENC_VALUE16:
	case EVENTHEADER_ENC_VALUE32:
	case EVENTHEADER_ENC_VALUE64:
	case EVENTHEADER_ENC_VALUE128:
		if (n != 1u << (enc - EVENTHEADER_ENC_VALUE8))
			return -1;
		put_fixed(o, p, (unsigned int) n, fmt, order, json);
		return 0;
	case EVENTHEADER_ENC_ZSTRING_CHAR8:
		if (fmt == EVENTHEADER_FMT_HEX_BYTES)
			put_hex_bytes(o, p, n, json);
		else if (fmt == EVENTHEADER_FMT_STRING8)
			put_ucs(o, p, n, 1, order, json);
		else if (!is_bom_format(fmt) || !put_bom_text(o, p, n, json))
			put_utf8(o, p, n, json);
		return 0;
	case EVENTHEADER_ENC_STRING16_CHAR8:
	case EVENTHEADER_ENC_BINARY16_CHAR8:
		sizes = sized_format_sizes(fmt);
		if (sizes && n == 0) {
			put(o, "null", 4);
		} else if (sizes && n <= 16 && (sizes & (1u << n))) {
			put_fixed(o, p, (unsigned int) n, fmt, order, json);
		} else if (fmt == EVENTHEADER_FMT_STRING8) {
			put_ucs(o, p, n, 1, order, json);
		} else if (fmt == EVENTHEADER_FMT_HEX_BYTES ||
			   (enc == EVENTHEADER_ENC_BINARY16_CHAR8 &&
			    fmt != EVENTHEADER_FMT_STRING_UTF && !is_bom_format(fmt))) {
			put_hex_bytes(o, p, n, json);
		} else if (!is_bom_format(fmt) || !put_bom_text(o, p, n, json)) {
			put_utf8(o, p, n, json);
		}
		return 0;
	case EVENTHEADER_ENC_ZSTRING_CHAR16:
	case EVENTHEADER_ENC_STRING16_CHAR16:
		if (n & 1)
			return -1;
		if (fmt == EVENTHEADER_FMT_HEX_BYTES)
			put_hex_bytes(o, p, n, json);
		else if (!is_bom_format(fmt) || !put_bom_text(o, p, n, json))
			put_utf16(o, p, n / 2, order, json);
		return 0;
	case EVENTHEADER_ENC_ZSTRING_CHAR32:
	case EVENTHEADER_ENC_STRING16_CHAR32:
		if (n & 3)
			return -1;
		if (fmt == EVENTHEADER_FMT_HEX_BYTES)
			put_hex_bytes(o, p, n, json);
		else if (!is_bom_format(fmt) || !put_bom_text(o, p, n, json))
			put_ucs(o, p, n / 4, 4, order, json);
		return 0;
	default:
		return -1;
	}
}

/* ", " or "," or " " or nothing before a value, by layout and position. */
static void value_begin(struct out *o)
{
	if (o->comma)
		put_c(o, ',');
	if (o->space)
		put_c(o, ' ');
	o->comma = true;
}

/* A member's name (escaped, with ";tag=0xN" when tagged and asked for) and its colon. */
static void member_begin(struct out *o, const char *name, size_t len, uint16_t tag)
{
	value_begin(o);
	put_c(o, '"');
	put_utf8_text(o, (const uint8_t *) name, len, true);
	if (tag != 0 && o->field_tag) {
		put(o, ";tag=", 5);
		put_hex_int(o, tag, false);
	}
	put_c(o, '"');
	put_c(o, ':');
	if (o->space)
		put_c(o, ' ');
}

static void open_brace(struct out *o, char c)
{
	put_c(o, c);
	o->comma = false;
}

static void close_brace(struct out *o, char c)
{
	if (o->space)
		put_c(o, ' ');
	put_c(o, c);
	o->comma = true;
}

/* Member @name, the number @v, when @want. */
static void meta_u64(struct out *o, bool want, const char *name, uint64_t v)
{
	if (want) {
		member_begin(o, name, strlen(name), 0);
		put_u64(o, v);
	}
}

static void put_meta(struct out *o, const struct eventheader_info *in, unsigned int meta)
{
	if (meta & EVENTHEADER_META_PROVIDER) {
		member_begin(o, "provider", 8, 0);
		put_utf8(o, (const uint8_t *) in->tp_name, in->provider_len, true);
	}
	if (meta & EVENTHEADER_META_EVENT) {
		member_begin(o, "event", 5, 0);
		put_utf8(o, (const uint8_t *) in->name, in->name_len, true);
	}
	meta_u64(o, (meta & EVENTHEADER_META_ID) && in->id, "id", in->id);
	meta_u64(o, (meta & EVENTHEADER_META_VERSION) && in->version, "version", in->version);
	meta_u64(o, (meta & EVENTHEADER_META_LEVEL) && in->level, "level", in->level);
	if ((meta & EVENTHEADER_META_KEYWORD) && in->keyword) {
		member_begin(o, "keyword", 7, 0);
		put_hex_int(o, in->keyword, true);
	}
	meta_u64(o, (meta & EVENTHEADER_META_OPCODE) && in->opcode, "opcode", in->opcode);
	if ((meta & EVENTHEADER_META_TAG) && in->tag) {
		member_begin(o, "tag", 3, 0);
		put_hex_int(o, in->tag, true);
	}
	if ((meta & EVENTHEADER_META_ACTIVITY) && in->activity_id) {
		member_begin(o, "activity", 8, 0);
		put_uuid(o, in->activity_id, true);
	}
	if ((meta & EVENTHEADER_META_RELATED_ACTIVITY) && in->related_id) {
		member_begin(o, "relatedActivity", 15, 0);
		put_uuid(o, in->related_id, true);
	}
	if ((meta & EVENTHEADER_META_OPTIONS) && in->options_off < in->tp_name_len) {
		member_begin(o, "options", 7, 0);
		put_utf8(o, (const uint8_t *) in->tp_name + in->options_off,
			 in->tp_name_len - in->options_off, true);
	}
	if (meta & EVENTHEADER_META_FLAGS) {
		member_begin(o, "flags", 5, 0);
		put_hex_int(o, in->flags, true);
	}
}

/* The members of "meta" a perf sample has before the event's own (time, cpu, pid, tid). */
static void put_sample_meta(struct out *o, const struct eventheader_sample *s, unsigned int meta)
{
	char *q;

	if ((meta & EVENTHEADER_META_TIME) && s->has_time) {
		member_begin(o, "time", 4, 0);
		if (s->time_wall) {
			put_c(o, '"');
			put_time(o, s->sec, false);
			q = room(o, 16);
			if (q) {
				*q++ = '.';
				q += fmt_u64_pad(q, s->nsec, 9);
				*q++ = 'Z';
				*q++ = '"';
				commit(o, q);
			}
		} else {
			put_u64(o, (uint64_t) s->sec);
			q = room(o, 16);
			if (q) {
				*q++ = '.';
				q += fmt_u64_pad(q, s->nsec, 9);
				commit(o, q);
			}
		}
	}
	meta_u64(o, (meta & EVENTHEADER_META_CPU) && s->has_cpu, "cpu", s->cpu);
	meta_u64(o, (meta & EVENTHEADER_META_PID) && s->has_tid, "pid", s->pid);
	meta_u64(o, (meta & EVENTHEADER_META_TID) && s->has_tid, "tid", s->tid);
}

enum tk_status eventheader_json_event(struct vec *out, struct eventheader_enum *e,
				      unsigned int json_flags, unsigned int meta_flags)
{
	return eventheader_json_sample_event(out, e, NULL, json_flags, meta_flags);
}

enum tk_status eventheader_json_sample_event(struct vec *out, struct eventheader_enum *e,
					     const struct eventheader_sample *sample,
					     unsigned int json_flags, unsigned int meta_flags)
{
	struct out o = {out,
			0,
			(json_flags & EVENTHEADER_JSON_SPACE) != 0,
			(json_flags & EVENTHEADER_JSON_FIELD_TAG) != 0,
			false,
			false};
	const struct eventheader_info *in = &e->info;
	struct eventheader_item it;
	size_t start = out->len, n;
	enum tk_status st = TK_OK;
	int depth = 0;
	bool want_name = true;

	TK_ASSERT_PRE(e->state == EVENTHEADER_STATE_BEFORE_FIRST);
	if (json_flags & EVENTHEADER_JSON_NAME)
		member_begin(&o, in->name, in->name_len, 0);
	else
		value_begin(&o);
	open_brace(&o, '{');
	if (meta_flags & EVENTHEADER_META_N) {
		for (n = 0; n < in->name_len && in->name[n] != ';'; n++)
			;
		member_begin(&o, "n", 1, 0);
		put_c(&o, '"');
		put_utf8_text(&o, (const uint8_t *) in->tp_name, in->provider_len, true);
		put_c(&o, ':');
		put_utf8_text(&o, (const uint8_t *) in->name, n, true);
		put_c(&o, '"');
	}
	do {
		switch (e->state) {
		case EVENTHEADER_STATE_BEFORE_FIRST:
			depth++;
			break;
		case EVENTHEADER_STATE_VALUE:
			eventheader_item_get(e, &it);
			if (want_name && !it.array_flags)
				member_begin(&o, it.name, it.name_len, it.tag);
			else
				value_begin(&o);
			if (put_value(&o, it.value, it.value_size, it.encoding, it.format,
				      in->order, true)) {
				st = TK_FAIL(
					TK_ERR_FORMAT,
					"Cannot format EventHeader value: encoding=%u, size=%u",
					it.encoding, it.value_size);
				goto fail;
			}
			break;
		case EVENTHEADER_STATE_ARRAY_BEGIN:
		case EVENTHEADER_STATE_STRUCT_BEGIN:
			eventheader_item_get(e, &it);
			if (want_name &&
			    (e->state == EVENTHEADER_STATE_ARRAY_BEGIN || !it.array_flags))
				member_begin(&o, it.name, it.name_len, it.tag);
			else
				value_begin(&o);
			open_brace(&o, e->state == EVENTHEADER_STATE_ARRAY_BEGIN ? '[' : '{');
			depth++;
			break;
		case EVENTHEADER_STATE_ARRAY_END:
			close_brace(&o, ']');
			depth--;
			break;
		case EVENTHEADER_STATE_STRUCT_END:
			close_brace(&o, '}');
			depth--;
			break;
		default:
			st = TK_FAIL(TK_ERR_INVAL, "Cannot format EventHeader event: state=%d",
				     (int) e->state);
			goto fail;
		}
		want_name = true;
		st = eventheader_next(e);
	} while (st == TK_OK && depth > 0);
	if (st < 0)
		goto fail;
	if (meta_flags & ~(unsigned int) EVENTHEADER_META_N) {
		member_begin(&o, "meta", 4, 0);
		open_brace(&o, '{');
		if (sample)
			put_sample_meta(&o, sample, meta_flags);
		put_meta(&o, in, meta_flags);
		close_brace(&o, '}');
	}
	close_brace(&o, '}');
	if (o.nomem) {
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot format EventHeader event: bytes=%zu",
			     out->len - start);
		goto fail;
	}
	return TK_OK;
fail:
	out->len = start;
	return TK_FAIL(st, "Cannot format EventHeader event: tracepoint=%.*s",
		       (int) in->tp_name_len, in->tp_name);
}

enum tk_status eventheader_json_value(struct vec *out, const void *value, size_t size,
				      unsigned int encoding, unsigned int format,
				      enum tk_byte_order order, bool json)
{
	struct out o = {out, 0, false, false, false, false};
	size_t start = out->len;

	if (put_value(&o, value, size, encoding, format, order, json)) {
		out->len = start;
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot format EventHeader value: encoding=%u, format=%u, size=%zu",
			       encoding, format, size);
	}
	if (o.nomem) {
		out->len = start;
		return TK_FAIL(TK_ERR_NOMEM, "Cannot format EventHeader value: size=%zu", size);
	}
	return TK_OK;
}

/* ---- the builder: objects of other events (tracefs fields, raw bytes) ------------------- */

void eventheader_json_begin(struct eventheader_json *j, struct vec *out, unsigned int json_flags)
{
	*j = (struct eventheader_json){out,
				       out->len,
				       (json_flags & EVENTHEADER_JSON_SPACE) != 0,
				       (json_flags & EVENTHEADER_JSON_FIELD_TAG) != 0,
				       false,
				       false};
	value_begin(j);
	open_brace(j, '{');
}

void eventheader_json_n(struct eventheader_json *j, const char *provider, size_t provider_len,
			const char *event, size_t event_len)
{
	member_begin(j, "n", 1, 0);
	put_c(j, '"');
	put_utf8_text(j, (const uint8_t *) provider, provider_len, true);
	if (event) {
		put_c(j, ':');
		put_utf8_text(j, (const uint8_t *) event, event_len, true);
	}
	put_c(j, '"');
}

void eventheader_json_member(struct eventheader_json *j, const char *name, size_t len)
{
	member_begin(j, name, len, 0);
}

void eventheader_json_element(struct eventheader_json *j)
{
	value_begin(j);
}

enum tk_status eventheader_json_put(struct eventheader_json *j, const void *value, size_t size,
				    unsigned int encoding, unsigned int format,
				    enum tk_byte_order order)
{
	if (put_value(j, value, size, encoding, format, order, true))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot format EventHeader value: encoding=%u, format=%u, size=%zu",
			       encoding, format, size);
	return TK_OK;
}

void eventheader_json_hex_bytes(struct eventheader_json *j, const void *value, size_t size)
{
	put_hex_bytes(j, value, size, true);
}

void eventheader_json_null(struct eventheader_json *j)
{
	put(j, "null", 4);
}

void eventheader_json_open(struct eventheader_json *j, char brace)
{
	open_brace(j, brace);
}

void eventheader_json_close(struct eventheader_json *j, char brace)
{
	close_brace(j, brace);
}

void eventheader_json_meta(struct eventheader_json *j, const struct eventheader_sample *sample,
			   unsigned int meta_flags)
{
	if (!(meta_flags & ~(unsigned int) EVENTHEADER_META_N))
		return;
	member_begin(j, "meta", 4, 0);
	open_brace(j, '{');
	if (sample)
		put_sample_meta(j, sample, meta_flags);
	close_brace(j, '}');
}

enum tk_status eventheader_json_end(struct eventheader_json *j)
{
	close_brace(j, '}');
	if (j->nomem) {
		j->v->len = j->start;
		return TK_FAIL(TK_ERR_NOMEM, "Cannot format event as JSON");
	}
	return TK_OK;
}

/* ---- text: name=value pairs ------------------------------------------------------------- */

enum tk_status eventheader_text_fields(struct vec *out, struct eventheader_enum *e)
{
	struct out o = {out, 0, false, false, false, false};
	const struct eventheader_info *in = &e->info;
	struct eventheader_item it;
	size_t start = out->len;
	enum tk_status st;
	int depth = 0;
	/* per level: whether something came (a separator next), whether it is an array */
	bool some[EVENTHEADER_NEST_MAX + 2] = {false}, array[EVENTHEADER_NEST_MAX + 2] = {false};

	TK_ASSERT_PRE(e->state == EVENTHEADER_STATE_BEFORE_FIRST);
	while ((st = eventheader_next(e)) == TK_OK) {
		bool named;

		if (e->state == EVENTHEADER_STATE_ARRAY_END ||
		    e->state == EVENTHEADER_STATE_STRUCT_END) {
			put_c(&o, e->state == EVENTHEADER_STATE_ARRAY_END ? ']' : '}');
			if (depth > 0)
				depth--;
			continue;
		}
		eventheader_item_get(e, &it);
		/* array elements go without names, separated by commas; the rest by spaces */
		named = !array[depth];
		if (some[depth])
			put_c(&o, array[depth] ? ',' : ' ');
		else if (depth == 0)
			put_c(&o, ' ');
		some[depth] = true;
		if (named) {
			put_utf8_text(&o, (const uint8_t *) it.name, it.name_len, false);
			put_c(&o, '=');
		}
		if (e->state == EVENTHEADER_STATE_VALUE) {
			if (put_value(&o, it.value, it.value_size, it.encoding, it.format,
				      in->order, false)) {
				st = TK_FAIL(
					TK_ERR_FORMAT,
					"Cannot format EventHeader value: encoding=%u, size=%u",
					it.encoding, it.value_size);
				goto fail;
			}
			continue;
		}
		/* ARRAY_BEGIN or STRUCT_BEGIN: a level deeper */
		put_c(&o, e->state == EVENTHEADER_STATE_ARRAY_BEGIN ? '[' : '{');
		if (depth + 1 < (int) TK_ARRAY_SIZE(some)) {
			depth++;
			some[depth] = false;
			array[depth] = e->state == EVENTHEADER_STATE_ARRAY_BEGIN;
		}
	}
	if (st < 0)
		goto fail;
	if (o.nomem) {
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot format EventHeader event");
		goto fail;
	}
	return TK_OK;
fail:
	out->len = start;
	return TK_FAIL(st, "Cannot format EventHeader event: tracepoint=%.*s",
		       (int) in->tp_name_len, in->tp_name);
}
