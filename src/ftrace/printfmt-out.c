// SPDX-License-Identifier: MIT
/*
 * Output of the print-fmt engine: the per-event sink over the buffered writer, and printf's
 * integer and string conversions written by hand, with glibc's rules (libtraceevent formats
 * every value with vsnprintf, so its quirks are what `trace-cmd report` shows): zero padding
 * ignored under a precision or '-', "%#o" keeping one leading zero, "%.0d" of 0 printing
 * nothing, and the canonical text glibc prints for a conversion it does not know ("%hld"
 * prints "%l" and then "d").
 */
#include <limits.h>
#include <string.h>

#include "printfmt-int.h"

/* How much of @n bytes may still be written; marks the sink dead at the cap. */
static size_t out_room(struct pf_out *o, size_t n)
{
	if (o->dead || o->muted)
		return 0;
	if (n > o->cap - o->n) {
		n = o->cap - o->n;
		o->dead = true;
	}
	return n;
}

void ftrace_pf_out_write_slow(struct pf_out *o, const char *s, size_t n)
{
	n = out_room(o, n);
	if (!n)
		return;
	writer_write(o->w, s, n);
	o->n += n;
}

void ftrace_pf_out_fill(struct pf_out *o, char c, size_t n)
{
	n = out_room(o, n);
	while (n) {
		size_t chunk = n < WRITER_MAX_RESERVE ? n : WRITER_MAX_RESERVE;
		char *p = writer_reserve(o->w, chunk);

		memset(p, c, chunk);
		writer_commit_to(o->w, p + chunk);
		o->n += chunk;
		n -= chunk;
	}
}

void ftrace_pf_out_putc(struct pf_out *o, char c)
{
	if (c == '\0') {
		if (o->nest) {
			o->muted = true; /* the helper buffer is copied up to its NUL */
			return;
		}
		o->dead = true; /* trace-cmd prints the line with "%.*s" */
		return;
	}
	if (!out_room(o, 1))
		return;
	writer_putc(o->w, c);
	o->n++;
}

void ftrace_pf_out_puts(struct pf_out *o, const char *s)
{
	ftrace_pf_out_write(o, s, strlen(s));
}

/* Room for a number of at most 24 bytes straight in the writer, or NULL (then use a copy). */
static inline char *num_room(struct pf_out *o)
{
	if (TK_LIKELY(!o->dead && !o->muted && o->cap - o->n >= 24))
		return writer_reserve(o->w, 24);
	return NULL;
}

static inline void num_done(struct pf_out *o, char *q, size_t n)
{
	writer_commit_to(o->w, q + n);
	o->n += n;
}

void ftrace_pf_out_u64(struct pf_out *o, uint64_t v)
{
	char buf[24], *q = num_room(o);

	if (q)
		num_done(o, q, fmt_u64(q, v));
	else
		ftrace_pf_out_write(o, buf, fmt_u64(buf, v));
}

void ftrace_pf_out_i64(struct pf_out *o, int64_t v)
{
	char buf[24], *q = num_room(o);

	if (q)
		num_done(o, q, fmt_i64(q, v));
	else
		ftrace_pf_out_write(o, buf, fmt_i64(buf, v));
}

/* Hexadecimal digits of @v at @dst, a byte at a time from the digit-pair tables. */
/* Hex digits at @dst (room for 16 bytes); returns how many. */
static size_t put_hex(char *dst, uint64_t v, bool upper)
{
	return fmt_hex(dst, v, upper);
}

/* Digits of @v in @base (8, 10, 16), right-aligned before @end; returns how many. */
static size_t put_digits(char *end, uint64_t v, unsigned int base, bool upper)
{
	const char *dig = upper ? TK_HEX_UPPER : TK_HEX_LOWER;
	char *p = end;

	if (base == 10) {
		size_t n = fmt_count_digits(v);

		fmt_put_digits(end, v);
		return n;
	}
	if (base == 16) {
		char tmp[24];
		size_t n = put_hex(tmp, v, upper);

		memcpy(end - n, tmp, n);
		return n;
	}
	do {
		*--p = dig[v % base];
		v /= base;
	} while (v);
	return (size_t) (end - p);
}

void ftrace_pf_out_hex(struct pf_out *o, uint64_t v, bool upper)
{
	char buf[24], *q = num_room(o);

	if (q)
		num_done(o, q, put_hex(q, v, upper));
	else
		ftrace_pf_out_write(o, buf, put_hex(buf, v, upper));
}

void ftrace_pf_out_hex2(struct pf_out *o, uint8_t v)
{
	static const char dig[] = TK_HEX_LOWER;
	char buf[2] = {dig[v >> 4], dig[v & 15]};

	ftrace_pf_out_write(o, buf, 2);
}

size_t ftrace_pf_strnlen(const uint8_t *s, size_t max)
{
	const uint8_t *z = memchr(s, 0, max);

	return z ? (size_t) (z - s) : max;
}

/* ------------------------------------------------------------------ conversion specs */

/* Digits of a width or precision, saturated (glibc fails the whole call above INT_MAX). */
static int32_t spec_num(const char *t, size_t len, size_t *i, bool *overflow)
{
	int64_t v = 0;

	while (*i < len && t[*i] >= '0' && t[*i] <= '9') {
		v = v * 10 + (t[*i] - '0');
		if (v > INT_MAX) {
			*overflow = true;
			v = INT_MAX;
		}
		(*i)++;
	}
	return (int32_t) v;
}

/*
 * Parse a conversion as glibc's printf does: flags, width, precision, one length modifier
 * (doubled for hh and ll), then the conversion character, which must be the last one of the
 * piece. Anything else is an unknown conversion: sp->conv = 0 and sp->tail tells where the
 * text glibc prints literally starts.
 */
void ftrace_pf_spec_parse(struct pf_spec *sp, const char *t, size_t len)
{
	size_t i = 1;
	bool overflow = false;
	char c;

	memset(sp, 0, sizeof(*sp));
	sp->width = -1;
	sp->prec = -1;
	sp->bits = 32;
	for (; i < len; i++) {
		c = t[i];
		if (c == '-')
			sp->minus = 1;
		else if (c == '0')
			sp->zero = 1;
		else if (c == '#')
			sp->hash = 1;
		else if (c == '+')
			sp->plus = 1;
		else if (c == ' ')
			sp->space = 1;
		else
			break;
	}
	if (i < len && t[i] == '*') {
		sp->star_width = 1;
		i++;
	} else if (i < len && t[i] >= '1' && t[i] <= '9') {
		sp->width = spec_num(t, len, &i, &overflow);
	}
	if (i < len && t[i] == '.') {
		i++;
		if (i < len && t[i] == '*') {
			sp->star_prec = 1;
			i++;
		} else {
			sp->prec = spec_num(t, len, &i, &overflow);
		}
	}
	if (i < len) {
		switch (t[i]) {
		case 'h':
			i++;
			sp->bits = 16;
			if (i < len && t[i] == 'h') {
				i++;
				sp->bits = 8;
			}
			break;
		case 'l':
			i++;
			sp->bits = 64;
			sp->wide = 1;
			if (i < len && t[i] == 'l')
				i++;
			break;
		case 'L':
		case 'q':
		case 'j':
		case 'z':
		case 'Z':
		case 't':
			i++;
			sp->bits = 64;
			sp->wide = 1;
			break;
		default:
			break;
		}
	}
	c = i < len ? t[i] : '\0';
	sp->tail = (uint32_t) (i < len ? i + 1 : len);
	if (i + 1 == len && strchr("diuxXosp", c) && c) {
		sp->conv = c;
	} else {
		sp->conv = 0;
		sp->bad = c;
	}
	if (overflow)
		sp->overflow = 1;
	sp->plain = sp->conv && !sp->minus && !sp->zero && !sp->hash && !sp->plus && !sp->space &&
		    sp->width < 0 && sp->prec < 0 && !sp->star_width && !sp->star_prec;
}

/* A '*' width or precision taken from the argument, as glibc applies it. */
static void spec_dims(const struct pf_spec *sp, int len_arg, bool has_len_arg, int64_t *width,
		      int64_t *prec, bool *left)
{
	*width = sp->width;
	*prec = sp->prec;
	*left = sp->minus;
	if (sp->star_width) {
		*width = has_len_arg ? len_arg : 0;
		if (*width < 0) {
			*left = true;
			*width = -*width;
		}
	}
	if (sp->star_prec)
		*prec = has_len_arg && len_arg >= 0 ? len_arg : -1;
	if (*width < 0)
		*width = 0;
}

void ftrace_pf_out_bad_spec(struct pf_out *o, const struct pf_piece *pc)
{
	const struct pf_spec *sp = &pc->spec;

	ftrace_pf_out_putc(o, '%');
	if (sp->hash)
		ftrace_pf_out_putc(o, '#');
	if (sp->plus)
		ftrace_pf_out_putc(o, '+');
	else if (sp->space)
		ftrace_pf_out_putc(o, ' ');
	if (sp->minus)
		ftrace_pf_out_putc(o, '-');
	if (sp->zero)
		ftrace_pf_out_putc(o, '0');
	if (sp->width > 0)
		ftrace_pf_out_u64(o, (uint64_t) sp->width);
	if (sp->prec >= 0) {
		ftrace_pf_out_putc(o, '.');
		ftrace_pf_out_u64(o, (uint64_t) sp->prec);
	}
	if (sp->bad)
		ftrace_pf_out_putc(o, sp->bad);
	if (sp->tail < pc->len)
		ftrace_pf_out_write(o, pc->text + sp->tail, pc->len - sp->tail);
}

void ftrace_pf_out_str_spec(struct pf_out *o, const struct pf_spec *sp, int len_arg,
			    bool has_len_arg, const char *s, size_t n)
{
	int64_t width, prec;
	bool left;

	char wbuf[64];

	spec_dims(sp, len_arg, has_len_arg, &width, &prec, &left);
	if (sp->wide) {
		/*
		 * "%ls" reads libtraceevent's narrow string as 4-byte wchar_t (bytes after its
		 * NUL taken as zeros): glibc prints the units that are ASCII up to a zero one,
		 * and fails with EILSEQ, printing nothing, at any other within the precision.
		 */
		size_t k = 0;

		for (size_t u = 0;; u++) {
			uint32_t wc = 0;

			if (prec >= 0 && (uint64_t) k >= (uint64_t) prec)
				break;
			for (size_t b = 0; b < 4; b++) {
				size_t at = 4 * u + b;

				wc |= (uint32_t) (at < n ? (uint8_t) s[at] : 0) << (8 * b);
			}
			if (!wc)
				break;
			if (wc >= 0x80 || k == sizeof(wbuf))
				return;
			wbuf[k++] = (char) wc;
		}
		s = wbuf;
		n = k;
	}
	if (prec >= 0 && (uint64_t) prec < n)
		n = (size_t) prec;
	if (!left && (uint64_t) width > n)
		ftrace_pf_out_fill(o, ' ', (size_t) width - n);
	ftrace_pf_out_write(o, s, n);
	if (left && (uint64_t) width > n)
		ftrace_pf_out_fill(o, ' ', (size_t) width - n);
}

static void ftrace_pf_out_int_spec_full(struct pf_out *o, const struct pf_spec *sp, int len_arg,
					bool has_len_arg, uint64_t v);

void ftrace_pf_out_int_spec(struct pf_out *o, const struct pf_spec *sp, int len_arg,
			    bool has_len_arg, uint64_t v)
{
	if (sp->plain) {
		/* "%d", "%lu", "%llx": most conversions of kernel formats */
		uint64_t m = sp->bits >= 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << sp->bits) - 1;

		v &= m;
		switch (sp->conv) {
		case 'd':
		case 'i':
			if (sp->bits < 64 && (v >> (sp->bits - 1)) & 1)
				v |= ~m;
			ftrace_pf_out_i64(o, (int64_t) v);
			return;
		case 'u':
			ftrace_pf_out_u64(o, v);
			return;
		case 'x':
		case 'X':
			ftrace_pf_out_hex(o, v, sp->conv == 'X');
			return;
		default:
			break;
		}
	}
	ftrace_pf_out_int_spec_full(o, sp, len_arg, has_len_arg, v);
}

/* Any integer conversion: flags, width, precision, '*' from the argument. */
static void ftrace_pf_out_int_spec_full(struct pf_out *o, const struct pf_spec *sp, int len_arg,
					bool has_len_arg, uint64_t v)
{
	char buf[32], prefix[2];
	size_t ndig = 0, npre = 0, total, zeros = 0;
	int64_t width, prec;
	bool left;
	unsigned int base = 10;
	uint64_t mask = sp->bits >= 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << sp->bits) - 1;

	spec_dims(sp, len_arg, has_len_arg, &width, &prec, &left);
	v &= mask;
	if (sp->conv == 'd' || sp->conv == 'i') {
		/* sign-extend from the conversion's width */
		if (sp->bits < 64 && (v >> (sp->bits - 1)) & 1)
			v |= ~mask;
		if ((int64_t) v < 0) {
			prefix[npre++] = '-';
			v = 0 - v;
		} else if (sp->plus) {
			prefix[npre++] = '+';
		} else if (sp->space) {
			prefix[npre++] = ' ';
		}
	} else if (sp->conv == 'x' || sp->conv == 'X') {
		base = 16;
		if (sp->hash && v) {
			prefix[npre++] = '0';
			prefix[npre++] = sp->conv;
		}
	} else if (sp->conv == 'o') {
		base = 8;
	}
	if (!(prec == 0 && v == 0))
		ndig = put_digits(buf + sizeof(buf), v, base, sp->conv == 'X');
	if (prec >= 0 && (uint64_t) prec > ndig)
		zeros = (size_t) prec - ndig;
	if (sp->conv == 'o' && sp->hash && zeros == 0 &&
	    (ndig == 0 || buf[sizeof(buf) - ndig] != '0'))
		zeros = 1;
	total = npre + zeros + ndig;
	if (left) {
		ftrace_pf_out_write(o, prefix, npre);
		ftrace_pf_out_fill(o, '0', zeros);
		ftrace_pf_out_write(o, buf + sizeof(buf) - ndig, ndig);
		if ((uint64_t) width > total)
			ftrace_pf_out_fill(o, ' ', (size_t) width - total);
		return;
	}
	if (sp->zero && prec < 0) {
		if ((uint64_t) width > total)
			zeros += (size_t) width - total;
	} else if ((uint64_t) width > total) {
		ftrace_pf_out_fill(o, ' ', (size_t) width - total);
	}
	ftrace_pf_out_write(o, prefix, npre);
	ftrace_pf_out_fill(o, '0', zeros);
	ftrace_pf_out_write(o, buf + sizeof(buf) - ndig, ndig);
}
