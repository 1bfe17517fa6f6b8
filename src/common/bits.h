/* SPDX-License-Identifier: MIT */
/*
 * The CTF integer layout (CTF 1.8.3 section 4.1.5, "integers"): any size from 1 to 64 bits at
 * any bit offset. In a little-endian field the first bit is the least significant bit of the
 * first byte and bytes rise in significance; in a big-endian field the first bit is the most
 * significant bit of the first byte. These are the slow, general paths; byte-aligned fields of
 * 8, 16, 32 and 64 bits take bytes.h loads instead.
 *
 * Only unsigned 64-bit values are shifted, never by 64 or more.
 */
#ifndef TK_COMMON_BITS_H
#define TK_COMMON_BITS_H

#include <stdint.h>

#include "bytes.h"

/*
 * Read @len bits (1 to 64) starting @pos bits into @buf, which must hold the
 * (@pos % 8 + @len + 7) / 8 bytes starting at byte @pos / 8.
 */
static inline uint64_t tk_bits_read(const uint8_t *buf, uint64_t pos, unsigned int len,
				    enum tk_byte_order order)
{
	const uint8_t *p = buf + (pos >> 3);
	unsigned int sh = (unsigned int) (pos & 7);
	unsigned int nb = (sh + len + 7) >> 3;
	uint64_t v = 0;
	unsigned int i;

	if (order == TK_BYTE_ORDER_LE) {
		if (nb <= 8) {
			for (i = 0; i < nb; i++)
				v |= (uint64_t) p[i] << (8 * i);
			v >>= sh;
		} else {
			/* nine bytes: sh > 0 here */
			v = tk_load_le64(p) >> sh;
			v |= (uint64_t) p[8] << (64 - sh);
		}
	} else {
		if (nb <= 8) {
			for (i = 0; i < nb; i++)
				v = (v << 8) | p[i];
			v >>= nb * 8 - sh - len;
		} else {
			v = (tk_load_be64(p) << sh) | (uint64_t) (p[8] >> (8 - sh));
			if (len < 64)
				v >>= 64 - len;
			return v;
		}
	}
	if (len < 64)
		v &= (UINT64_C(1) << len) - 1;
	return v;
}

/* Sign-extend the low @len bits (1 to 64) of @v. */
static inline int64_t tk_bits_sign_extend(uint64_t v, unsigned int len)
{
	uint64_t m;

	if (len >= 64)
		return (int64_t) v;
	m = UINT64_C(1) << (len - 1);
	return (int64_t) ((v ^ m) - m);
}

/*
 * Write the low @len bits (1 to 64) of @v at bit @pos of @buf, leaving the other bits of the
 * bytes it touches unchanged.
 */
static inline void tk_bits_write(uint8_t *buf, uint64_t pos, unsigned int len, uint64_t v,
				 enum tk_byte_order order)
{
	uint8_t *p = buf + (pos >> 3);
	unsigned int sh = (unsigned int) (pos & 7);
	unsigned int remaining = len;

	if (len < 64)
		v &= (UINT64_C(1) << len) - 1;
	while (remaining) {
		unsigned int avail = 8 - sh;
		unsigned int take = remaining < avail ? remaining : avail;
		unsigned int bmask = (1u << take) - 1;
		unsigned int bits, shift;

		if (order == TK_BYTE_ORDER_LE) {
			bits = (unsigned int) (v & bmask);
			shift = sh;
			if (take < 64)
				v >>= take;
		} else {
			bits = (unsigned int) ((v >> (remaining - take)) & bmask);
			shift = avail - take;
		}
		*p = (uint8_t) ((*p & ~(bmask << shift)) | (bits << shift));
		remaining -= take;
		sh = 0;
		p++;
	}
}

#endif /* TK_COMMON_BITS_H */
