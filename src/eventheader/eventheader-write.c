// SPDX-License-Identifier: MIT
/*
 * Making EventHeader events: the metadata extension from field definitions, the tracepoint
 * name and the user_events registration command of a provider's level and keyword, and the
 * header and extension blocks in front of a payload. tracekit's application tracer uses
 * these to describe its events to user_events and to write interceptor files; everything
 * here is checked against the decoder of this folder (tests/unit/test-eventheader-write.c).
 *
 * Layout facts from ../shared/reference/eventheader.md: a definition is its NUL-terminated
 * name, an encoding byte (flag 0x80: a format byte follows; CARRAY 0x20 and VARRAY 0x40),
 * a format byte (flag 0x80: a u16 tag follows), the tag, and a u16 count for a CARRAY; a
 * struct's format byte is its member count (1 to 127) and its members' definitions follow
 * it. Multi-byte numbers are little-endian here: the events are this machine's and carry
 * the little-endian flag.
 */
#include <stdio.h>
#include <string.h>

#include "../common/error.h"
#include "eventheader.h"

/* Append @n bytes to the byte vector @v; -1 when out of memory. */
static int put(struct vec *v, const void *p, size_t n)
{
	if (vec_reserve(v, 1, n))
		return -1;
	memcpy((char *) v->data + v->len, p, n);
	v->len += n;
	return 0;
}

/* One definition's bytes make sense on their own. */
static enum tk_status def_check(const struct eventheader_def *d, size_t i)
{
	uint8_t enc = d->encoding & EVENTHEADER_ENC_VALUE_MASK;
	uint8_t arr = d->encoding & (EVENTHEADER_ENC_CARRAY | EVENTHEADER_ENC_VARRAY);

	if (!d->name || strchr(d->name, '\n'))
		return TK_FAIL(TK_ERR_INVAL, "Cannot describe field: index=%zu, reason=no name", i);
	if (enc == EVENTHEADER_ENC_INVALID || enc >= EVENTHEADER_ENC_MAX ||
	    (d->encoding & EVENTHEADER_ENC_CHAIN) ||
	    arr == (EVENTHEADER_ENC_CARRAY | EVENTHEADER_ENC_VARRAY))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot describe field: name=%s, encoding=0x%x, reason=no such "
			       "encoding",
			       d->name, d->encoding);
	if (enc == EVENTHEADER_ENC_STRUCT ? (d->format == 0 || d->format > 127)
					  : (d->format & EVENTHEADER_FMT_CHAIN) != 0)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot describe field: name=%s, format=%u, reason=out of range "
			       "(a struct's member count is 1 to 127, a format below 128)",
			       d->name, d->format);
	if ((arr == EVENTHEADER_ENC_CARRAY) != (d->count != 0))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot describe field: name=%s, count=%u, reason=a constant "
			       "count is for constant-count arrays only, and not zero",
			       d->name, d->count);
	return TK_OK;
}

/*
 * Take the definition at *@i and, for a struct, its members (nested at most
 * EVENTHEADER_NEST_MAX deep, as the decoder follows them); 0 when the list ends inside it.
 */
static int def_tree(const struct eventheader_def *defs, size_t n, size_t *i, unsigned int depth)
{
	const struct eventheader_def *d = &defs[(*i)++];

	if ((d->encoding & EVENTHEADER_ENC_VALUE_MASK) != EVENTHEADER_ENC_STRUCT)
		return 1;
	if (depth >= EVENTHEADER_NEST_MAX)
		return 0;
	for (unsigned int m = 0; m < (d->format & 0x7F); m++)
		if (*i >= n || !def_tree(defs, n, i, depth + 1))
			return 0;
	return 1;
}

enum tk_status eventheader_meta_write(struct vec *out, const char *event_name,
				      const struct eventheader_def *defs, size_t n)
{
	size_t start = out->len, i;
	uint8_t b[6];
	enum tk_status st;

	if (!event_name || !*event_name)
		return TK_FAIL(TK_ERR_INVAL, "Cannot describe event: reason=no name");
	for (i = 0; i < n;)
		if (!def_tree(defs, n, &i, 0))
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot describe event: name=%s, reason=a struct's members "
				       "run past the last field or nest deeper than %d",
				       event_name, EVENTHEADER_NEST_MAX);
	if (put(out, event_name, strlen(event_name) + 1))
		goto nomem;
	for (i = 0; i < n; i++) {
		const struct eventheader_def *d = &defs[i];
		size_t k = 0;
		int is_struct =
			(d->encoding & EVENTHEADER_ENC_VALUE_MASK) == EVENTHEADER_ENC_STRUCT;

		st = def_check(d, i);
		if (st < 0) {
			out->len = start;
			return st;
		}
		if (put(out, d->name, strlen(d->name) + 1))
			goto nomem;
		b[k++] = d->encoding |
			 ((d->format || d->tag || is_struct) ? EVENTHEADER_ENC_CHAIN : 0);
		if (d->format || d->tag || is_struct)
			b[k++] = d->format | (d->tag ? EVENTHEADER_FMT_CHAIN : 0);
		if (d->tag) {
			tk_store_u16(b + k, d->tag, TK_BYTE_ORDER_LE);
			k += 2;
		}
		if (d->encoding & EVENTHEADER_ENC_CARRAY) {
			tk_store_u16(b + k, d->count, TK_BYTE_ORDER_LE);
			k += 2;
		}
		if (put(out, b, k))
			goto nomem;
	}
	if (out->len - start > UINT16_MAX) {
		out->len = start;
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot describe event: name=%s, reason=metadata over 65535 bytes",
			       event_name);
	}
	return TK_OK;
nomem:
	out->len = start;
	return TK_FAIL(TK_ERR_NOMEM, "Cannot describe event: name=%s", event_name);
}

/* Options: uppercase letter, then digits and lowercase letters, repeated. */
static int options_ok(const char *o)
{
	if (!*o)
		return 1;
	if (*o < 'A' || *o > 'Z')
		return 0;
	for (o++; *o; o++)
		if (!((*o >= '0' && *o <= '9') || (*o >= 'a' && *o <= 'z') ||
		      (*o >= 'A' && *o <= 'Z')))
			return 0;
	return 1;
}

size_t eventheader_tp_name(char *dst, size_t cap, const char *provider, uint8_t level,
			   uint64_t keyword, const char *options)
{
	int n;

	if (!provider || !*provider || strpbrk(provider, " :\t\n") || !options_ok(options))
		return 0;
	n = snprintf(dst, cap, "%s_L%xK%llx%s", provider, (unsigned int) level,
		     (unsigned long long) keyword, options);
	if (n < 0 || (size_t) n >= cap || (size_t) n >= EVENTHEADER_NAME_MAX)
		return 0;
	return (size_t) n;
}

size_t eventheader_reg_command(char *dst, size_t cap, const char *tp_name)
{
	int n = snprintf(dst, cap, "%s %s", tp_name, EVENTHEADER_REG_FIELDS);

	return n < 0 || (size_t) n >= cap ? 0 : (size_t) n;
}

size_t eventheader_prefix_write(uint8_t *dst, const struct eventheader_head *h)
{
	size_t k = EVENTHEADER_HEADER_SIZE;
	int has_meta = h->meta_size != 0;

	dst[0] = EVENTHEADER_FLAG_POINTER64 | EVENTHEADER_FLAG_LITTLE_ENDIAN |
		 ((h->activity_id || has_meta) ? EVENTHEADER_FLAG_EXTENSION : 0);
	dst[1] = h->version;
	tk_store_u16(dst + 2, h->id, TK_BYTE_ORDER_LE);
	tk_store_u16(dst + 4, h->tag, TK_BYTE_ORDER_LE);
	dst[6] = h->opcode;
	dst[7] = h->level;
	if (h->activity_id) {
		uint16_t size = h->related_id ? 32 : 16;

		tk_store_u16(dst + k, size, TK_BYTE_ORDER_LE);
		tk_store_u16(dst + k + 2,
			     EVENTHEADER_EXT_ACTIVITY_ID | (has_meta ? EVENTHEADER_EXT_CHAIN : 0),
			     TK_BYTE_ORDER_LE);
		memcpy(dst + k + 4, h->activity_id, 16);
		if (h->related_id)
			memcpy(dst + k + 20, h->related_id, 16);
		k += 4u + size;
	}
	if (has_meta) { /* the metadata's bytes follow: the caller writes them */
		tk_store_u16(dst + k, h->meta_size, TK_BYTE_ORDER_LE);
		tk_store_u16(dst + k + 2, EVENTHEADER_EXT_METADATA, TK_BYTE_ORDER_LE);
		k += 4;
	}
	return k;
}
