/* SPDX-License-Identifier: MIT */
/*
 * The one place where bytes become integers and integers become bytes.
 *
 * Trace data is packed and comes in both byte orders, so every load goes through memcpy (no
 * alignment assumed; compilers emit a single load) and an explicit order that the caller
 * passes as data, never as global state.
 */
#ifndef TK_COMMON_BYTES_H
#define TK_COMMON_BYTES_H

#include <stdint.h>
#include <string.h>

enum tk_byte_order {
	TK_BYTE_ORDER_LE = 0,
	TK_BYTE_ORDER_BE = 1,
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	TK_BYTE_ORDER_HOST = TK_BYTE_ORDER_LE,
#else
	TK_BYTE_ORDER_HOST = TK_BYTE_ORDER_BE,
#endif
};

static inline uint16_t tk_load_u16(const void *p, enum tk_byte_order order)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return order == TK_BYTE_ORDER_HOST ? v : __builtin_bswap16(v);
}

static inline uint32_t tk_load_u32(const void *p, enum tk_byte_order order)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return order == TK_BYTE_ORDER_HOST ? v : __builtin_bswap32(v);
}

static inline uint64_t tk_load_u64(const void *p, enum tk_byte_order order)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return order == TK_BYTE_ORDER_HOST ? v : __builtin_bswap64(v);
}

static inline uint16_t tk_load_le16(const void *p)
{
	return tk_load_u16(p, TK_BYTE_ORDER_LE);
}

static inline uint32_t tk_load_le32(const void *p)
{
	return tk_load_u32(p, TK_BYTE_ORDER_LE);
}

static inline uint64_t tk_load_le64(const void *p)
{
	return tk_load_u64(p, TK_BYTE_ORDER_LE);
}

static inline uint16_t tk_load_be16(const void *p)
{
	return tk_load_u16(p, TK_BYTE_ORDER_BE);
}

static inline uint32_t tk_load_be32(const void *p)
{
	return tk_load_u32(p, TK_BYTE_ORDER_BE);
}

static inline uint64_t tk_load_be64(const void *p)
{
	return tk_load_u64(p, TK_BYTE_ORDER_BE);
}

static inline void tk_store_u16(void *p, uint16_t v, enum tk_byte_order order)
{
	if (order != TK_BYTE_ORDER_HOST)
		v = __builtin_bswap16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void tk_store_u32(void *p, uint32_t v, enum tk_byte_order order)
{
	if (order != TK_BYTE_ORDER_HOST)
		v = __builtin_bswap32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void tk_store_u64(void *p, uint64_t v, enum tk_byte_order order)
{
	if (order != TK_BYTE_ORDER_HOST)
		v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof(v));
}

/* Whether @size bytes is the size of a machine integer: 1, 2, 4 or 8. */
static inline int tk_int_size_ok(unsigned int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* The unsigned integer of @size bytes (1, 2, 4 or 8) at @p; 0 for any other size. */
static inline uint64_t tk_load_uint(const void *p, unsigned int size, enum tk_byte_order order)
{
	switch (size) {
	case 1:
		return *(const uint8_t *) p;
	case 2:
		return tk_load_u16(p, order);
	case 4:
		return tk_load_u32(p, order);
	case 8:
		return tk_load_u64(p, order);
	}
	return 0;
}

/* tk_load_uint(), sign-extended from @size bytes when @is_signed. */
static inline uint64_t tk_load_int(const void *p, unsigned int size, int is_signed,
				   enum tk_byte_order order)
{
	uint64_t u = tk_load_uint(p, size, order);
	unsigned int shift = 64 - 8 * size;

	if (is_signed && size >= 1 && size < 8)
		u = (uint64_t) ((int64_t) (u << shift) >> shift);
	return u;
}

/* The hexadecimal digits, for every formatter that writes them. */
#define TK_HEX_LOWER "0123456789abcdef"
#define TK_HEX_UPPER "0123456789ABCDEF"

/* The value of a hexadecimal digit (either case), or -1 for any other character. */
static inline int tk_hex_value(int c)
{
	unsigned int d = (unsigned int) c - '0';

	if (d < 10)
		return (int) d;
	d = ((unsigned int) c | 0x20) - 'a'; /* 'A'-'F' and only they become 'a'-'f' */
	return d < 6 ? (int) d + 10 : -1;
}

#endif /* TK_COMMON_BYTES_H */
