/* SPDX-License-Identifier: MIT */
/*
 * Buffered output with hand-written number formatting.
 *
 * Text renderers produce hundreds of bytes per event at millions of events per second, so they
 * format integers and timestamps by hand into one large buffer and write it in big chunks; no
 * printf on the per-event path (ARCHITECTURE.md, decision 5).
 *
 *	char *p = writer_reserve(w, 64);	// room for 64 bytes, flushing if needed
 *	p += fmt_u64(p, value);
 *	writer_commit_to(w, p);
 */
#ifndef TK_COMMON_WRITER_H
#define TK_COMMON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tracekit/status.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "bytes.h"
#include "error.h"

/* The most any caller asks writer_reserve() for; buffers are never smaller. */
#define WRITER_MAX_RESERVE 4096

struct writer {
	char *buf;
	size_t len;
	size_t cap;
	int fd;
	int err; /* errno of the first failed write, 0 if none */
};

enum tk_status writer_init(struct writer *w, int fd, size_t cap);
void writer_fini(struct writer *w);

/* Write out everything buffered; TK_ERR_IO (with a cause) once a write has failed. */
enum tk_status writer_flush(struct writer *w);

/* Slow paths of writer_reserve() and writer_write(): flush first. */
char *writer_reserve_slow(struct writer *w, size_t n);
void writer_write_slow(struct writer *w, const void *p, size_t n);

/*
 * Pointer to at least @n (at most WRITER_MAX_RESERVE) free bytes. Never NULL: after a failed
 * write, output is discarded and the failure is reported by writer_flush().
 */
static inline char *writer_reserve(struct writer *w, size_t n)
{
	if (TK_LIKELY(w->cap - w->len >= n))
		return w->buf + w->len;
	return writer_reserve_slow(w, n);
}

static inline void writer_commit_to(struct writer *w, const char *end)
{
	w->len = (size_t) (end - w->buf);
}

static inline void writer_write(struct writer *w, const void *p, size_t n)
{
	if (TK_LIKELY(w->cap - w->len >= n)) {
		memcpy(w->buf + w->len, p, n);
		w->len += n;
		return;
	}
	writer_write_slow(w, p, n);
}

static inline void writer_puts(struct writer *w, const char *s)
{
	writer_write(w, s, strlen(s));
}

static inline void writer_putc(struct writer *w, char c)
{
	char *dst = writer_reserve(w, 1);

	*dst = c;
	w->len++;
}

/* "00" to "99", "00" to "FF", and the powers of ten up to 10^19, for the formatters below. */
extern const char writer_digit_pairs[201];
extern const char writer_hex_pairs[513];
extern const uint64_t writer_pow10[20];
extern const uint64_t writer_digits_by_log2[32];

/* Decimal digits of @v: log10 estimated from the bit length (1233/4096 ~ log10(2)). */
static inline unsigned int fmt_count_digits(uint64_t v)
{
	unsigned int bits = 64 - (unsigned int) __builtin_clzll(v | 1);
	unsigned int t = (bits * 1233) >> 12;

	return t + 1 - ((v | 1) < writer_pow10[t]);
}

/* Two digits at a time, 32-bit arithmetic: @v < 10^8, written right-aligned before @end. */
static inline void fmt_put_digits32(char *end, uint32_t v)
{
	while (v >= 100) {
		uint32_t i = (v % 100) * 2;

		v /= 100;
		end -= 2;
		memcpy(end, writer_digit_pairs + i, 2);
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, writer_digit_pairs + v * 2, 2);
	} else {
		*--end = (char) ('0' + v);
	}
}

/* Exactly 8 digits of @v < 10^8 (leading zeros kept), ending at @end. */
static inline void fmt_put_digits8(char *end, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	memcpy(end - 2, writer_digit_pairs + (lo % 100) * 2, 2);
	memcpy(end - 4, writer_digit_pairs + (lo / 100) * 2, 2);
	memcpy(end - 6, writer_digit_pairs + (hi % 100) * 2, 2);
	memcpy(end - 8, writer_digit_pairs + (hi / 100) * 2, 2);
}

/* The digits of @v right-aligned before @end (64-bit values split in 8-digit chunks). */
static inline void fmt_put_digits(char *end, uint64_t v)
{
	while (v >= UINT64_C(100000000)) {
		fmt_put_digits8(end, (uint32_t) (v % UINT64_C(100000000)));
		v /= UINT64_C(100000000);
		end -= 8;
	}
	fmt_put_digits32(end, (uint32_t) v);
}

/*
 * The eight decimal digits of @v < 10^8 (leading zeros kept) as eight ASCII bytes in one
 * 64-bit word, the first digit in the lowest byte, so that tk_store_u64(dst, x, LE) writes
 * them in reading order. Pure arithmetic, no table and no branch: the value is split into
 * two 4-digit halves in 32-bit lanes, each lane into 2-digit quarters in 16-bit lanes, each
 * of those into single digits in bytes. Division by 100 and by 10 inside the lanes is a
 * multiply and a shift: floor(x * 10486 / 2^20) = x / 100 for x < 10^4, and
 * floor(x * 103 / 2^10) = x / 10 for x < 100 (test-writer.c checks every value). No lane
 * product carries into the next lane. Each "quotient | remainder << lane" is computed as
 * (x << lane) - quotient * ((divisor << lane) - 1), one multiply instead of two steps: the
 * lanes hold the same values, none goes below zero or past its width. fmt_digits8() is the
 * same before the digits become ASCII: a byte per digit, 0 to 9, so the leading zeros are
 * the low zero bytes.
 */
static inline uint64_t fmt_digits8(uint32_t v)
{
	uint64_t hi = v / 10000;
	/* hi | (v - hi * 10^4) << 32, folded: (v << 32) - hi * (10^4 << 32) + hi */
	uint64_t x = ((uint64_t) v << 32) - hi * UINT64_C(42949672959999);
	uint64_t h = ((x * 10486) >> 20) & UINT64_C(0x0000007F0000007F);
	uint64_t t;

	x = (x << 16) - h * 6553599; /* h | (x - h * 100) << 16 in each lane, folded alike */
	t = ((x * 103) >> 10) & UINT64_C(0x000F000F000F000F);
	return (x << 8) - t * 2559; /* t | (x - t * 10) << 8 */
}

static inline uint64_t fmt_ascii8(uint32_t v)
{
	return fmt_digits8(v) + UINT64_C(0x3030303030303030);
}

/*
 * fmt_ascii8() of two values at once, stored: the eight digits of @a at @da and of @b at @db
 * (both < 10^8). With SSE2 the two run side by side in one register, in the same steps as
 * fmt_digits8() but in wider lanes where the products need them: each value is split in
 * 4-digit halves by a 32x32-bit multiply (x * 0xD1B71759 >> 45 = x / 10^4 below 2^32), the
 * halves in 2-digit quarters by a high 16-bit multiply (mulhi(x, 5243) >> 3 = x * 5243 >>
 * 19), the quarters in digits (mulhi(x, 6592) = x * 103 >> 10, 6592 being 103 << 6), and
 * each remainder by a low multiply and a subtraction. A line's time and its delta are the
 * two (pretty_time_fast()); test-writer.c checks every value against fmt_ascii8().
 */
static inline void fmt_put_ascii8x2(char *da, uint32_t a, char *db, uint32_t b)
{
#ifdef __SSE2__
	__m128i x = _mm_set_epi64x((long long) b, (long long) a);
	__m128i hi = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi32((int) 0xD1B71759)), 45);
	__m128i lo = _mm_sub_epi32(x, _mm_mul_epu32(hi, _mm_set1_epi32(10000)));
	__m128i y = _mm_or_si128(hi, _mm_slli_epi64(lo, 32)); /* 32-bit lanes: halves */
	__m128i t = _mm_srli_epi16(_mm_mulhi_epu16(y, _mm_set1_epi16(5243)), 3);
	__m128i r = _mm_sub_epi16(y, _mm_mullo_epi16(t, _mm_set1_epi16(100)));
	__m128i z = _mm_or_si128(t, _mm_slli_epi32(r, 16)); /* 16-bit lanes: quarters */
	__m128i tens = _mm_mulhi_epu16(z, _mm_set1_epi16(6592));
	__m128i ones = _mm_sub_epi16(z, _mm_mullo_epi16(tens, _mm_set1_epi16(10)));
	__m128i d = _mm_or_si128(tens, _mm_slli_epi16(ones, 8)); /* bytes: digits */

	d = _mm_add_epi8(d, _mm_set1_epi8('0'));
	_mm_storel_epi64((__m128i *) (void *) da, d);
	_mm_storeh_pd((double *) (void *) db, _mm_castsi128_pd(d));
#else
	tk_store_u64(da, fmt_ascii8(a), TK_BYTE_ORDER_LE);
	tk_store_u64(db, fmt_ascii8(b), TK_BYTE_ORDER_LE);
#endif
}

/*
 * fmt_digits8() in SSE2 registers, the steps of fmt_put_ascii8x2() for one value: the same
 * digits, computed by the vector units while the integer ones do the rest of a print loop
 * (fmt_u64_vec()). Without SSE2, fmt_digits8().
 */
static inline uint64_t fmt_digits8_vec(uint32_t v)
{
#ifdef __SSE2__
	__m128i x = _mm_cvtsi32_si128((int) v);
	__m128i hi = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi32((int) 0xD1B71759)), 45);
	__m128i lo = _mm_sub_epi32(x, _mm_mul_epu32(hi, _mm_set1_epi32(10000)));
	__m128i y = _mm_or_si128(hi, _mm_slli_epi64(lo, 32));
	__m128i t = _mm_srli_epi16(_mm_mulhi_epu16(y, _mm_set1_epi16(5243)), 3);
	__m128i r = _mm_sub_epi16(y, _mm_mullo_epi16(t, _mm_set1_epi16(100)));
	__m128i z = _mm_or_si128(t, _mm_slli_epi32(r, 16));
	__m128i tens = _mm_mulhi_epu16(z, _mm_set1_epi16(6592));
	__m128i ones = _mm_sub_epi16(z, _mm_mullo_epi16(tens, _mm_set1_epi16(10)));

	return (uint64_t) _mm_cvtsi128_si64(_mm_or_si128(tens, _mm_slli_epi16(ones, 8)));
#else
	return fmt_digits8(v);
#endif
}

/*
 * The four decimal digits of @v < 10^4 (leading zeros kept) in a 32-bit word, the first in
 * the lowest byte: fmt_ascii8() in two 16-bit lanes (x * 5243 >> 19 = x / 100 for x < 10^4;
 * test-writer.c checks every value); fmt_digits4() before the digits become ASCII.
 */
static inline uint32_t fmt_digits4(uint32_t v)
{
	uint32_t h = (v * 5243) >> 19;
	uint32_t x = (v << 16) - h * 6553599, t; /* h | (v - h * 100) << 16 */

	t = ((x * 103) >> 10) & UINT32_C(0x000F000F);
	return (x << 8) - t * 2559; /* t | (x - t * 10) << 8 */
}

static inline uint32_t fmt_ascii4(uint32_t v)
{
	return fmt_digits4(v) + UINT32_C(0x30303030);
}

/*
 * The count of decimal digits of @v < 2^32 (1 for 0): a table entry by bit length and an
 * addition (writer_digits_by_log2), a short dependency for the output position that
 * follows, where fmt_digits8() takes a chain of six multiplications.
 */
static inline unsigned int fmt_count_digits32(uint32_t v)
{
	unsigned int k = 31 - (unsigned int) __builtin_clz(v | 1);

	return (unsigned int) ((v + writer_digits_by_log2[k]) >> 32);
}

/* fmt_u64() of @v >= 10^16, out of line (writer.c): the rare case kept out of the loops. */
size_t fmt_u64_top(char *dst, uint64_t v);

/*
 * Decimal digits of @v at @dst; returns the count. Room for 20 bytes: the bytes after the
 * digits, up to dst + 20, may be overwritten. The digits come from fmt_digits8() (or
 * fmt_digits4() for the top of 20), eight at a time with leading zeros, shifted out by
 * the count. The count comes from fmt_count_digits32(), not from the digits: the next
 * value's position waits for the count only, and the digits are computed beside it (4% off
 * printing the integers of a CTF event). The only branches are on magnitude (below 10^8,
 * 10^16): printed values vary in length from one field to the next, and a branch per
 * digit pair, or one for one digit or four, mispredicts often enough to cost more than
 * the eight digits computed for a short value (2% of `tracekit print` time on the CTF
 * benchmark).
 */
static TK_ALWAYS_INLINE size_t fmt_u64_with(char *dst, uint64_t v, bool vec)
{
	if (TK_LIKELY(v < UINT64_C(100000000))) {
		uint64_t d = vec ? fmt_digits8_vec((uint32_t) v) : fmt_digits8((uint32_t) v);
		unsigned int n = fmt_count_digits32((uint32_t) v);

		tk_store_u64(dst, (d + UINT64_C(0x3030303030303030)) >> (64 - 8 * n),
			     TK_BYTE_ORDER_LE);
		return n;
	}
	if (v < UINT64_C(10000000000000000)) {
		uint32_t hi = (uint32_t) (v / UINT64_C(100000000));
		uint64_t d = fmt_digits8(hi);
		unsigned int n = fmt_count_digits32(hi);

		tk_store_u64(dst, (d + UINT64_C(0x3030303030303030)) >> (64 - 8 * n),
			     TK_BYTE_ORDER_LE);
		tk_store_u64(dst + n, fmt_ascii8((uint32_t) (v - hi * UINT64_C(100000000))),
			     TK_BYTE_ORDER_LE);
		return n + 8;
	}
	return fmt_u64_top(dst, v);
}

static TK_ALWAYS_INLINE size_t fmt_u64(char *dst, uint64_t v)
{
	return fmt_u64_with(dst, v, false);
}

/*
 * fmt_u64() with the digits below 10^8 computed by the vector units (fmt_digits8_vec()):
 * for loops that print mostly integers, whose integer units are the busy ones (5% off the
 * CTF benchmark's printing), but 3% slower in the trace.dat text, whose time goes elsewhere.
 */
static TK_ALWAYS_INLINE size_t fmt_u64_vec(char *dst, uint64_t v)
{
	return fmt_u64_with(dst, v, true);
}

/*
 * Signed decimal; returns the count. Room for 20 bytes, as fmt_u64(). The sign is written
 * whatever it is and kept only for negative values, so a random sign costs no branch.
 */
static TK_ALWAYS_INLINE size_t fmt_i64_with(char *dst, int64_t v, bool vec)
{
	uint64_t neg = (uint64_t) (v < 0);
	uint64_t mag = ((uint64_t) v ^ (0 - neg)) + neg; /* |v|, INT64_MIN included */

	*dst = '-';
	return neg + fmt_u64_with(dst + neg, mag, vec);
}

static inline size_t fmt_i64(char *dst, int64_t v)
{
	return fmt_i64_with(dst, v, false);
}

/* fmt_i64() by fmt_u64_vec(). */
static inline size_t fmt_i64_vec(char *dst, int64_t v)
{
	return fmt_i64_with(dst, v, true);
}

/* Exactly 9 digits of @v < 10^9 (nanoseconds of a second) at @dst. */
static inline void fmt_put_ns9(char *dst, uint32_t v)
{
	uint32_t top = v / 100000000;

	dst[0] = (char) ('0' + top);
	tk_store_u64(dst + 1, fmt_ascii8(v - top * 100000000), TK_BYTE_ORDER_LE);
}

/* At least @width decimal digits, zero-padded (room for max(20, width) bytes). */
size_t fmt_u64_pad(char *dst, uint64_t v, unsigned int width);

/*
 * The 8 hex digits of @v in a 64-bit word, the first in the low byte, without a table or a
 * branch: the nibbles are spread one per byte, then each gets '0', and 7 more ('A' - '9' - 1)
 * or 39 more ('a' - '9' - 1), @alpha, where it is above 9.
 */
static inline uint64_t fmt_hex8(uint32_t v, uint64_t alpha)
{
	uint64_t x = __builtin_bswap32(v), m;

	x = (x | x << 16) & UINT64_C(0x0000FFFF0000FFFF);
	x = (x | x << 8) & UINT64_C(0x00FF00FF00FF00FF);
	x = (x >> 4 & UINT64_C(0x000F000F000F000F)) | (x & UINT64_C(0x000F000F000F000F)) << 8;
	m = (x + UINT64_C(0x0606060606060606)) >> 4 & UINT64_C(0x0101010101010101);
	return x + UINT64_C(0x3030303030303030) + m * alpha;
}

/* The hexadecimal digits of @v, 1 to 16. */
static inline unsigned int fmt_count_hex(uint64_t v)
{
	return (64 - (unsigned int) __builtin_clzll(v | 1) + 3) / 4;
}

/*
 * The last @n (1 to 16) of the 16 digits whose first 8 are @hi and last 8 @lo, as fmt_hex8()
 * makes them, at @dst (room for 16 bytes): with @n above the value's own count, its zeros
 * pad it ("%08lx").
 */
static inline size_t fmt_hex_last(char *dst, unsigned int n, uint64_t hi, uint64_t lo)
{
	int wide = n > 8;
	uint64_t first = (wide ? hi : lo) >> (8 * ((wide ? 16 : 8) - n));

	tk_store_u64(dst, first, TK_BYTE_ORDER_LE);
	tk_store_u64(dst + (wide ? n - 8 : 0), wide ? lo : first, TK_BYTE_ORDER_LE);
	return n;
}

/*
 * The hex digits of @v at @dst, @hi and @lo being the 8 characters of its high and low
 * 32-bit halves; returns the count. Room for 16 bytes, which may be written past the
 * digits. No branch: the lengths of printed values vary from one to the next and a branch
 * on the half mispredicts, while both halves cost a few instructions. Above 32 bits the
 * high half's digits go first, the low half's 8 after them; below, the low half's digits
 * are stored twice at @dst.
 */
static inline size_t fmt_hex_store(char *dst, uint64_t v, uint64_t hi, uint64_t lo)
{
	return fmt_hex_last(dst, fmt_count_hex(v), hi, lo);
}

/* "%0*lx" of @v for a @width up to 16 (0: none), upper case or not; fmt_hex_last(). */
static inline size_t fmt_hex_pad(char *dst, uint64_t v, unsigned int width, bool upper)
{
	uint64_t alpha = upper ? 7 : 39;
	unsigned int n = fmt_count_hex(v);

	return fmt_hex_last(dst, n > width ? n : width, fmt_hex8((uint32_t) (v >> 32), alpha),
			    fmt_hex8((uint32_t) v, alpha));
}

/* Hexadecimal without prefix, upper case or not, digits by fmt_hex8(); fmt_hex_store(). */
static inline size_t fmt_hex(char *dst, uint64_t v, bool upper)
{
	uint64_t alpha = upper ? 7 : 39;

	return fmt_hex_store(dst, v, fmt_hex8((uint32_t) (v >> 32), alpha),
			     fmt_hex8((uint32_t) v, alpha));
}

/*
 * fmt_hex() with the digits made by the SSE2 units: the value's bytes spread into nibbles,
 * one per byte, and each nibble turned into its character, all 16 at once; the stores are
 * fmt_hex()'s. For print loops whose integer units are the busy ones (fmt_u64_vec()).
 */
static inline size_t fmt_hex_vec(char *dst, uint64_t v, bool upper)
{
#ifdef __SSE2__
	__m128i b = _mm_cvtsi64_si128((long long) __builtin_bswap64(v)); /* first byte: top */
	__m128i mask = _mm_set1_epi8(0x0f);
	__m128i nib = _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16(b, 4), mask),
					_mm_and_si128(b, mask)); /* 16 nibbles, top first */
	__m128i alpha =
		_mm_and_si128(_mm_cmpgt_epi8(nib, _mm_set1_epi8(9)), _mm_set1_epi8(upper ? 7 : 39));
	__m128i c = _mm_add_epi8(_mm_add_epi8(nib, _mm_set1_epi8('0')), alpha);

	return fmt_hex_store(dst, v, (uint64_t) _mm_cvtsi128_si64(c),
			     (uint64_t) _mm_cvtsi128_si64(_mm_unpackhi_epi64(c, c)));
#else
	return fmt_hex(dst, v, upper);
#endif
}

/* Upper-case hexadecimal without prefix (fmt_hex()). */
static inline size_t fmt_hex_upper(char *dst, uint64_t v)
{
	return fmt_hex(dst, v, true);
}

/* Octal without prefix (room for 22 bytes). */
size_t fmt_oct(char *dst, uint64_t v);

/* printf("%g") of @d (room for 32 bytes), identical to the C library's; returns the count. */
size_t fmt_double_g(char *dst, double d);

#endif /* TK_COMMON_WRITER_H */
