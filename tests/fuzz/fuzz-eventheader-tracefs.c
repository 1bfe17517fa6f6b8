// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the tracefs fields of the reference decoder's JSON
 * (src/eventheader/eventheader-tracefs.c): a field's type string is typed, then the field is
 * written from a record of arbitrary bytes. The input is
 *
 *	byte 0		bit 0: big-endian; bit 1: long is 4 bytes; bits 2-3: signed: 1, 0 or
 *			none; bit 4: spaced layout; bits 5-6: add 0x10000 to the offset, size
 *	bytes 1-4	offset, size (u16 each, little-endian)
 *	then		the type string, a NUL, then the record
 *
 * The record is copied to a buffer of exactly its size, so a read past it shows under ASan
 * (the replay driver's buffer has a spare byte). The typing must be one the writer accepts,
 * the writer must succeed, and the object must end with its '}'. Inputs are capped at 70000
 * bytes (a record fits in 64 KiB).
 *
 * Seeds (corpus/eventheader-tracefs): tests/fuzz/make-eht-seeds.py.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/error.h"
#include "common/vec.h"
#include "eventheader/eventheader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int signs[4] = {1, 0, -1, -1};
	struct eventheader_tracefs t;
	struct eventheader_json j;
	struct vec out = VEC_INIT;
	const uint8_t *nul;
	uint8_t *rec;
	uint32_t offset, fsize;
	size_t rec_size;
	enum tk_byte_order order;
	enum tk_status st;
	uint8_t flags;

	if (size < 6 || size > 70000)
		return 0;
	nul = memchr(data + 5, 0, size - 5 < 300 ? size - 5 : 300);
	if (!nul)
		return 0;
	flags = data[0];
	order = (flags & 1) ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE;
	offset = tk_load_le16(data + 1) + ((flags & 0x20) ? 0x10000u : 0);
	fsize = tk_load_le16(data + 3) + ((flags & 0x40) ? 0x10000u : 0);
	rec_size = size - (size_t) (nul + 1 - data);
	rec = malloc(rec_size ? rec_size : 1);
	if (!rec)
		return 0;
	memcpy(rec, nul + 1, rec_size);
	error_reset();

	eventheader_tracefs_type((const char *) data + 5, fsize, signs[(flags >> 2) & 3],
				 (flags & 2) ? 4 : 8, &t);
	if ((t.element_size != 1 && t.element_size != 2 && t.element_size != 4 &&
	     t.element_size != 8) ||
	    t.format > EVENTHEADER_TRACEFS_FMT_STRING || t.array > EVENTHEADER_TRACEFS_ARRAY_RELDYN)
		__builtin_trap(); /* a typing outside the documented values */

	eventheader_json_begin(&j, &out, (flags & 0x10) ? EVENTHEADER_JSON_SPACE : 0);
	st = eventheader_json_tracefs_field(&j, "f", 1, &t, offset, fsize, rec, rec_size, order);
	if (st != TK_OK)
		__builtin_trap(); /* every typing eventheader_tracefs_type() gives is accepted */
	eventheader_json_raw(&j, rec, rec_size < 64 ? rec_size : 64);
	if (eventheader_json_end(&j) == TK_OK &&
	    (out.len == 0 || ((const char *) out.data)[out.len - 1] != '}'))
		__builtin_trap();
	error_reset();
	vec_fini(&out);
	free(rec);
	return 0;
}
