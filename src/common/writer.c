// SPDX-License-Identifier: MIT
/*
 * The buffered writer and the number formatters. Decimal formatting writes two digits per
 * step from a 200-byte table, after counting the digits so the number is written right to left
 * in place.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "writer.h"

const char writer_digit_pairs[201] = "00010203040506070809"
				     "10111213141516171819"
				     "20212223242526272829"
				     "30313233343536373839"
				     "40414243444546474849"
				     "50515253545556575859"
				     "60616263646566676869"
				     "70717273747576777879"
				     "80818283848586878889"
				     "90919293949596979899";

const char writer_hex_pairs[513] = "000102030405060708090A0B0C0D0E0F"
				   "101112131415161718191A1B1C1D1E1F"
				   "202122232425262728292A2B2C2D2E2F"
				   "303132333435363738393A3B3C3D3E3F"
				   "404142434445464748494A4B4C4D4E4F"
				   "505152535455565758595A5B5C5D5E5F"
				   "606162636465666768696A6B6C6D6E6F"
				   "707172737475767778797A7B7C7D7E7F"
				   "808182838485868788898A8B8C8D8E8F"
				   "909192939495969798999A9B9C9D9E9F"
				   "A0A1A2A3A4A5A6A7A8A9AAABACADAEAF"
				   "B0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF"
				   "C0C1C2C3C4C5C6C7C8C9CACBCCCDCECF"
				   "D0D1D2D3D4D5D6D7D8D9DADBDCDDDEDF"
				   "E0E1E2E3E4E5E6E7E8E9EAEBECEDEEEF"
				   "F0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF";

enum tk_status writer_init(struct writer *w, int fd, size_t cap)
{
	if (cap < WRITER_MAX_RESERVE)
		cap = WRITER_MAX_RESERVE;
	w->buf = malloc(cap);
	if (!w->buf)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot allocate output buffer: size=%zu", cap);
	w->len = 0;
	w->cap = cap;
	w->fd = fd;
	w->err = 0;
	return TK_OK;
}

void writer_fini(struct writer *w)
{
	free(w->buf);
	w->buf = NULL;
	w->len = 0;
	w->cap = 0;
}

enum tk_status writer_flush(struct writer *w)
{
	size_t off = 0;

	while (off < w->len && !w->err) {
		ssize_t n = write(w->fd, w->buf + off, w->len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			w->err = errno;
			break;
		}
		off += (size_t) n;
	}
	w->len = 0;
	if (w->err)
		return TK_FAIL(TK_ERR_IO, "Cannot write output: fd=%d, errno=%s", w->fd,
			       strerror(w->err));
	return TK_OK;
}

char *writer_reserve_slow(struct writer *w, size_t n)
{
	(void) n; /* callers reserve at most WRITER_MAX_RESERVE bytes, less than any buffer */
	writer_flush(w); /* a failure is sticky in w->err and reported by the next flush */
	return w->buf;
}

void writer_write_slow(struct writer *w, const void *p, size_t n)
{
	const char *src = p;

	while (n) {
		size_t room, chunk;

		if (w->len == w->cap)
			writer_flush(w);
		room = w->cap - w->len;
		chunk = n < room ? n : room;
		memcpy(w->buf + w->len, src, chunk);
		w->len += chunk;
		src += chunk;
		n -= chunk;
	}
}

/*
 * fmt_u64()'s digit count of a 32-bit v, by k = floor(log2(v | 1)): the values of that bit
 * length have L digits, L those of 2^k, or L + 1 from 10^L on when 10^L < 2^(k + 1). Entry
 * k is L << 32, plus 2^32 - 10^L in the second case, so that (v + entry) >> 32 is the count:
 * the addition carries into bit 32 exactly when v >= 10^L.
 */
const uint64_t writer_digits_by_log2[32] = {
	UINT64_C(0x100000000), UINT64_C(0x100000000), UINT64_C(0x100000000), UINT64_C(0x1FFFFFFF6),
	UINT64_C(0x200000000), UINT64_C(0x200000000), UINT64_C(0x2FFFFFF9C), UINT64_C(0x300000000),
	UINT64_C(0x300000000), UINT64_C(0x3FFFFFC18), UINT64_C(0x400000000), UINT64_C(0x400000000),
	UINT64_C(0x400000000), UINT64_C(0x4FFFFD8F0), UINT64_C(0x500000000), UINT64_C(0x500000000),
	UINT64_C(0x5FFFE7960), UINT64_C(0x600000000), UINT64_C(0x600000000), UINT64_C(0x6FFF0BDC0),
	UINT64_C(0x700000000), UINT64_C(0x700000000), UINT64_C(0x700000000), UINT64_C(0x7FF676980),
	UINT64_C(0x800000000), UINT64_C(0x800000000), UINT64_C(0x8FA0A1F00), UINT64_C(0x900000000),
	UINT64_C(0x900000000), UINT64_C(0x9C4653600), UINT64_C(0xA00000000), UINT64_C(0xA00000000),
};

size_t fmt_u64_top(char *dst, uint64_t v)
{
	uint32_t top = (uint32_t) (v / UINT64_C(10000000000000000)); /* 1 to 1844 */
	uint64_t rest = v - top * UINT64_C(10000000000000000);
	uint32_t hi = (uint32_t) (rest / UINT64_C(100000000));
	uint32_t d = fmt_digits4(top);
	unsigned int n = fmt_count_digits32(top);

	tk_store_u32(dst, (d + UINT32_C(0x30303030)) >> (32 - 8 * n), TK_BYTE_ORDER_LE);
	tk_store_u64(dst + n, fmt_ascii8(hi), TK_BYTE_ORDER_LE);
	tk_store_u64(dst + n + 8, fmt_ascii8((uint32_t) (rest - hi * UINT64_C(100000000))),
		     TK_BYTE_ORDER_LE);
	return n + 16;
}

const uint64_t writer_pow10[20] = {
	UINT64_C(1),
	UINT64_C(10),
	UINT64_C(100),
	UINT64_C(1000),
	UINT64_C(10000),
	UINT64_C(100000),
	UINT64_C(1000000),
	UINT64_C(10000000),
	UINT64_C(100000000),
	UINT64_C(1000000000),
	UINT64_C(10000000000),
	UINT64_C(100000000000),
	UINT64_C(1000000000000),
	UINT64_C(10000000000000),
	UINT64_C(100000000000000),
	UINT64_C(1000000000000000),
	UINT64_C(10000000000000000),
	UINT64_C(100000000000000000),
	UINT64_C(1000000000000000000),
	UINT64_C(10000000000000000000),
};

size_t fmt_u64_pad(char *dst, uint64_t v, unsigned int width)
{
	unsigned int n, i;

	if (width == 9 && v < UINT64_C(1000000000)) { /* nanoseconds: the common case */
		fmt_put_ns9(dst, (uint32_t) v);
		return 9;
	}
	n = fmt_count_digits(v);
	if (n >= width)
		return fmt_u64(dst, v);
	for (i = 0; i < width - n; i++)
		dst[i] = '0';
	fmt_put_digits(dst + width, v);
	return width;
}

size_t fmt_oct(char *dst, uint64_t v)
{
	unsigned int n = 1;
	uint64_t t = v;
	unsigned int i;

	while (t >>= 3)
		n++;
	for (i = n; i > 0; i--) {
		dst[i - 1] = (char) ('0' + (v & 7));
		v >>= 3;
	}
	return n;
}

/*
 * %g with 6 significant digits, exactly as printf: the decimal digits are the correct
 * rounding of the binary value, found in double arithmetic when its error bound shows the
 * rounding is right (g_digits_fast(), any normal magnitude), else with 128-bit integer
 * arithmetic for the usual range of magnitudes, exact ties rounded to even as glibc rounds
 * them in the default rounding mode (single-precision fields, whose values have few binary
 * digits, meet ties often). Near-ties of very large or small magnitudes go to snprintf.
 */
__extension__ typedef unsigned __int128 u128;

/* 10^k as a 128-bit integer, k <= 38. */
static u128 pow10_128(int k)
{
	u128 p = writer_pow10[k < 19 ? k : 19];

	for (k -= 19; k > 0; k--)
		p *= 10;
	return p;
}

/*
 * q = round(m * 2^e * 10^(5 - x)), halfway values to even. @a is
 * |value| as a double, for a first estimate of the quotient that exact integer arithmetic
 * then corrects, so no 128-bit division is needed.
 */
static TK_NOINLINE int g_digits(uint64_t m, int e, int x, double a, uint64_t *q)
{
	int s = 5 - x;
	u128 n, d, r, prod;

	if (s >= 0) {
		if (s > 22 || e >= 0 || -e > 127)
			return -1;
		n = (s <= 19 ? (u128) m * writer_pow10[s] : (u128) m * pow10_128(s));
		*q = (uint64_t) (n >> -e);
		r = n & (((u128) 1 << -e) - 1);
		d = (u128) 1 << -e;
	} else {
		int k = -s;

		if (k > 38)
			return -1;
		d = pow10_128(k);
		if (e >= 0) {
			if (e > 74)
				return -1;
			n = (u128) m << e;
		} else {
			if (-e > 60 || d >> (127 + e))
				return -1;
			n = m;
			d <<= -e;
		}
		/* the estimate is within a few units of n / d, which is below 10^7 */
		*q = (uint64_t) (a / (double) pow10_128(k));
		prod = (u128) *q * d;
		while (prod > n) {
			(*q)--;
			prod -= d;
		}
		r = n - prod;
		while (r >= d) {
			(*q)++;
			r -= d;
		}
	}
	if (2 * r > d || (2 * r == d && (*q & 1)))
		(*q)++;
	return 0;
}

/* 10^k as a double, k <= 22: every one of them is exact. */
static const double pow10_dbl[23] = {
	1e0,  1e1,  1e2,  1e3,	1e4,  1e5,  1e6,  1e7,	1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* 10^-k as the nearest double, k <= 22: for a first guess of the exponent only. */
static const double pow10_neg[23] = {
	1e-0,  1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,	 1e-7,	1e-8,  1e-9,  1e-10, 1e-11,
	1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21, 1e-22,
};

/*
 * g_digits() in double arithmetic, for magnitudes the exact one cannot take and faster for
 * the others: t = @a * 10^(5 - x) in at most 16 correctly rounded steps, so its relative
 * error stays below 16 * 2^-53 and, as t < 10^7 for any first guess of @x, its absolute
 * error below 2e-8. Rounding t to the nearest integer is then right unless its fraction is
 * within that of one half; -1 leaves those (and exact ties, which round to even) to
 * g_digits(). No other rounding decision is taken here: the caller's adjustments of @x only
 * look at the result.
 */
static int g_digits_fast(double a, int x, uint64_t *q)
{
	int s = 5 - x;
	double t = a, f;

	while (s > 22) {
		t *= 1e22;
		s -= 22;
	}
	while (s < -22) {
		t /= 1e22;
		s += 22;
	}
	t = s >= 0 ? t * pow10_dbl[s] : t / pow10_dbl[-s];
	if (!(t < 1e15)) /* not reached by a first guess within one of the exponent */
		return -1;
	*q = (uint64_t) (int64_t)
		t; /* 0 <= t < 10^15: the signed conversions are single instructions */
	f = t - (double) (int64_t) *q;
	if (f > 0.5 - 1e-6 && f < 0.5 + 1e-6)
		return -1;
	*q += f > 0.5;
	return 0;
}

size_t fmt_double_g(char *dst, double v)
{
	uint64_t bits, m, q = 0, d, dg, z, lo;
	int bexp, e, x, y, n, k;
	char buf8[16] = {0}, *digits = buf8 + 2, *p = dst;
	double a;

	memcpy(&bits, &v, sizeof(bits));
	bexp = (int) ((bits >> 52) & 0x7ff);
	m = bits & ((UINT64_C(1) << 52) - 1);
	*p = '-'; /* kept for negative values: a random sign costs no branch */
	p += bits >> 63;
	if (bexp == 0x7ff) { /* glibc's spelling, sign included ("-nan") */
		memcpy(p, m ? "nan" : "inf", 3);
		return (size_t) (p + 3 - dst);
	}
	if (bexp == 0 && !m) {
		*p++ = '0';
		return (size_t) (p - dst);
	}
	if (bexp == 0) { /* subnormal: normalised, for the first guess of the exponent */
		int sh = __builtin_clzll(m) - 11;

		m <<= sh;
		e = -1074 - sh;
	} else {
		m |= UINT64_C(1) << 52;
		e = bexp - 1075;
	}
	a = v < 0 ? -v : v;
	/*
	 * First guess of the decimal exponent: log10(2) ~ 1233 / 4096 gives it or one less, which
	 * a comparison with the next power of ten settles but near a power whose double is not
	 * exact; the loop below checks the digits whatever the guess.
	 */
	x = ((e + 52) * 1233) >> 12; /* floor, or one less (e + 52 is within +-1100) */
	y = x + 1;
	if (y >= 0 && y <= 22)
		x += a >= pow10_dbl[y];
	else if (y < 0 && y >= -22)
		x += a >= pow10_neg[-y];
	for (k = 0; k < 4; k++) {
		if (g_digits_fast(a, x, &q) && g_digits(m, e, x, a, &q))
			goto slow;
		if (q >= 1000000 && !(q == 1000000 && k)) {
			x++;
			continue;
		}
		if (q < 100000) {
			x--;
			continue;
		}
		break;
	}
	if (k == 4)
		goto slow;
	if (q == 1000000) { /* rounding carried into a new digit */
		q = 100000;
		x++;
	}
	/*
	 * The six digits: q < 10^6, so the first two of eight are zeros; dg holds the six, the
	 * first in the low byte, and n counts them without the zeros that end them.
	 */
	d = fmt_ascii8((uint32_t) q);
	dg = d >> 16;
	z = dg - UINT64_C(0x303030303030); /* digit values: the first is not 0 */
	n = (63 - __builtin_clzll(z)) / 8 + 1;
	if (x >= 0 && x < 6) { /* the x + 1 digits before the point, then those after it */
		lo = dg & ((UINT64_C(1) << (8 * (x + 1))) - 1);
		tk_store_u64(p,
			     lo | (uint64_t) '.' << (8 * (x + 1)) |
				     (dg >> (8 * (x + 1))) << (8 * (x + 2)),
			     TK_BYTE_ORDER_LE);
		return (size_t) (p - dst) + (n > x + 1 ? (size_t) n + 1 : (size_t) x + 1);
	}
	if (x < 0 && x >= -4) { /* "0.", -x - 1 zeros, the digits */
		memcpy(p, "0.000000", 8);
		tk_store_u64(p + 1 - x, dg, TK_BYTE_ORDER_LE);
		return (size_t) (p - dst) + (size_t) (1 - x + n);
	}
	tk_store_u64(buf8, d, TK_BYTE_ORDER_LE);
	*p++ = digits[0];
	if (n > 1) {
		*p++ = '.';
		memcpy(p, digits + 1, 8);
		p += n - 1;
	}
	*p++ = 'e';
	*p++ = x < 0 ? '-' : '+';
	if (x < 0)
		x = -x;
	if (x >= 100)
		*p++ = (char) ('0' + x / 100);
	*p++ = (char) ('0' + x / 10 % 10);
	*p++ = (char) ('0' + x % 10);
	return (size_t) (p - dst);
slow:
	return (size_t) snprintf(dst, 32, "%g", v);
}
