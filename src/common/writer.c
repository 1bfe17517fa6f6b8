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

static const char digit_pairs[201] = "00010203040506070809"
				     "10111213141516171819"
				     "20212223242526272829"
				     "30313233343536373839"
				     "40414243444546474849"
				     "50515253545556575859"
				     "60616263646566676869"
				     "70717273747576777879"
				     "80818283848586878889"
				     "90919293949596979899";

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

static inline unsigned int count_digits(uint64_t v)
{
	unsigned int n = 1;

	for (;;) {
		if (v < 10)
			return n;
		if (v < 100)
			return n + 1;
		if (v < 1000)
			return n + 2;
		if (v < 10000)
			return n + 3;
		v /= 10000;
		n += 4;
	}
}

static inline void put_digits(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned int i = (unsigned int) (v % 100) * 2;

		v /= 100;
		*--end = digit_pairs[i + 1];
		*--end = digit_pairs[i];
	}
	if (v >= 10) {
		unsigned int i = (unsigned int) v * 2;

		*--end = digit_pairs[i + 1];
		*--end = digit_pairs[i];
	} else {
		*--end = (char) ('0' + v);
	}
}

size_t fmt_u64(char *dst, uint64_t v)
{
	unsigned int n = count_digits(v);

	put_digits(dst + n, v);
	return n;
}

size_t fmt_i64(char *dst, int64_t v)
{
	if (v < 0) {
		*dst = '-';
		return 1 + fmt_u64(dst + 1, (uint64_t) 0 - (uint64_t) v);
	}
	return fmt_u64(dst, (uint64_t) v);
}

size_t fmt_u64_pad(char *dst, uint64_t v, unsigned int width)
{
	unsigned int n = count_digits(v);
	unsigned int i;

	if (n >= width)
		return fmt_u64(dst, v);
	for (i = 0; i < width - n; i++)
		dst[i] = '0';
	put_digits(dst + width, v);
	return width;
}

size_t fmt_hex_upper(char *dst, uint64_t v)
{
	static const char hex[] = "0123456789ABCDEF";
	unsigned int n = 1;
	uint64_t t = v;
	unsigned int i;

	while (t >>= 4)
		n++;
	for (i = n; i > 0; i--) {
		dst[i - 1] = hex[v & 15];
		v >>= 4;
	}
	return n;
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
