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

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tracekit/status.h>

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

/* Decimal digits of @v at @dst (room for 20 bytes); returns the count. */
static inline size_t fmt_u64(char *dst, uint64_t v)
{
	unsigned int n;

	/* most printed integers (CPU ids, pids, counts, indexes) have four digits or fewer */
	if (v < 100) {
		if (v < 10) {
			*dst = (char) ('0' + v);
			return 1;
		}
		memcpy(dst, writer_digit_pairs + v * 2, 2);
		return 2;
	}
	if (v < 10000) {
		uint32_t hi = (uint32_t) v / 100, lo = (uint32_t) v % 100;

		if (hi < 10) {
			*dst = (char) ('0' + hi);
			memcpy(dst + 1, writer_digit_pairs + lo * 2, 2);
			return 3;
		}
		memcpy(dst, writer_digit_pairs + hi * 2, 2);
		memcpy(dst + 2, writer_digit_pairs + lo * 2, 2);
		return 4;
	}
	n = fmt_count_digits(v);

	fmt_put_digits(dst + n, v);
	return n;
}

/* Signed decimal (room for 20 bytes); returns the count. */
static inline size_t fmt_i64(char *dst, int64_t v)
{
	if (v < 0) {
		*dst = '-';
		return 1 + fmt_u64(dst + 1, (uint64_t) 0 - (uint64_t) v);
	}
	return fmt_u64(dst, (uint64_t) v);
}

/* Exactly 9 digits of @v < 10^9 (nanoseconds of a second) at @dst. */
static inline void fmt_put_ns9(char *dst, uint32_t v)
{
	uint32_t top = v / 100000000;

	dst[0] = (char) ('0' + top);
	fmt_put_digits8(dst + 9, v - top * 100000000);
}

/* At least @width decimal digits, zero-padded (room for max(20, width) bytes). */
size_t fmt_u64_pad(char *dst, uint64_t v, unsigned int width);

/* Upper-case hexadecimal without prefix (room for 16 bytes), a byte at a time. */
static inline size_t fmt_hex_upper(char *dst, uint64_t v)
{
	unsigned int n = (64 - (unsigned int) __builtin_clzll(v | 1) + 3) / 4;
	char *p = dst + n;

	while (p - dst >= 2) {
		p -= 2;
		memcpy(p, writer_hex_pairs + (v & 0xff) * 2, 2);
		v >>= 8;
	}
	if (p > dst)
		dst[0] = writer_hex_pairs[(v & 15) * 2 + 1];
	return n;
}

/* Octal without prefix (room for 22 bytes). */
size_t fmt_oct(char *dst, uint64_t v);

/* printf("%g") of @d (room for 32 bytes), identical to the C library's; returns the count. */
size_t fmt_double_g(char *dst, double d);

#endif /* TK_COMMON_WRITER_H */
