// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the application tracer's EventHeader transcoder (src/ust/ust-eventheader.c,
 * ust_eh_transcode()): an event's payload in the CTF layout the inline serializer writes goes
 * to EventHeader's layout by walking the event's description. The transcoder must read only
 * the payload's bytes, whatever lengths and counts they hold, and give TK_ERR_INVAL for a
 * payload that is not one of the description (the event is then dropped and counted).
 *
 * Input: byte 0 picks the description: below 0x80 one of the fixed ones here (every field
 * kind and format, nested structs, counted and wide text, arrays, more variable-size fields
 * than iovecs, nesting deeper than EventHeader allows, no field at all); from 0x80 one built
 * from the bytes that follow (kinds, formats and sizes of any value, structs nested or
 * pointing back at their own ancestors). Byte 1 picks the scratch buffer the caller gives
 * (as big as the payload, none, one byte short, larger). The rest is the payload, copied into
 * a buffer of its exact size so that a read past it shows under ASan.
 *
 * When the transcoder says TK_OK, its result is checked: the iovecs lie in the payload, the
 * scratch or the result's own length buffers and add up to its size, which is not above the
 * payload's; and when the description has an EventHeader form (ust_eh_event_init()), the
 * event (header, metadata, transcoded payload) is read back by tracekit's EventHeader decoder,
 * which must walk every field without an error and end exactly at the payload's end. Inputs
 * are capped at 70000 bytes.
 *
 * Seeds (corpus/ust-eventheader): tests/fuzz/make-ust-eh-seeds.py.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "eventheader/eventheader.h"
#include "ust/ust-eventheader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- fixed descriptions ----------------------------------------------------------------- */

#define F(n, k, fmt, sz, sg)                                                                       \
	{                                                                                          \
		.name = n, .kind = k, .format = fmt, .size = sz, .is_signed = sg                   \
	}
#define A(n, fmt, sz, cnt)                                                                         \
	{                                                                                          \
		.name = n, .kind = TK_TP_KIND_ARRAY, .format = fmt, .size = sz, .count = cnt       \
	}
#define S(n, s)                                                                                    \
	{                                                                                          \
		.name = n, .kind = TK_TP_KIND_STRUCT, .struct_desc = &s                            \
	}
#define EVENT(n, f)                                                                                \
	{                                                                                          \
		.provider = "tkfuzz", .name = n, .level = TK_TP_LEVEL_INFO, .keyword = 1,          \
		.fields = f, .n_fields = sizeof(f) / sizeof(f[0]),                                 \
		.fixed_size = TK_TP_SIZE_VARIABLE                                                  \
	}

static const struct tk_tp_enum_entry color_entries[] = {{"red", 0, 0}, {"warm", 1, 9}};
static const struct tk_tp_enum color_enum = {"color", color_entries, 2};

static const struct tk_tp_field point_fields[] = {
	F("x", TK_TP_KIND_INT, 0, 4, 1),
	F("y", TK_TP_KIND_INT, 0, 4, 1),
};
static const struct tk_tp_struct point = {"point", point_fields, 2};

static const struct tk_tp_field line_fields[] = {
	S("from", point),
	S("to", point),
	F("label", TK_TP_KIND_STRING, 0, 0, 0),
};
static const struct tk_tp_struct line = {"line", line_fields, 3};

/* every kind and format the macros offer (tests/ust/ust-tp.h's events in one) */
static const struct tk_tp_field every_fields[] = {
	F("s8", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 1, 1),
	F("s16", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 2, 1),
	F("u32", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 4, 0),
	F("s64", TK_TP_KIND_INT, TK_TP_FORMAT_DEFAULT, 8, 1),
	F("x32", TK_TP_KIND_INT, TK_TP_FORMAT_HEX, 4, 0),
	F("ptr", TK_TP_KIND_INT, TK_TP_FORMAT_POINTER, 8, 0),
	F("err", TK_TP_KIND_INT, TK_TP_FORMAT_ERRNO, 4, 1),
	F("when", TK_TP_KIND_INT, TK_TP_FORMAT_TIME, 8, 0),
	F("pid", TK_TP_KIND_INT, TK_TP_FORMAT_PID, 4, 1),
	F("t", TK_TP_KIND_INT, TK_TP_FORMAT_TIME_SEC, 8, 1),
	F("ip4", TK_TP_KIND_INT, TK_TP_FORMAT_IPV4, 4, 0),
	F("port", TK_TP_KIND_INT, TK_TP_FORMAT_PORT, 2, 0),
	F("f", TK_TP_KIND_FLOAT, 0, 4, 1),
	F("d", TK_TP_KIND_FLOAT, 0, 8, 1),
	F("flag", TK_TP_KIND_BOOL, 0, 1, 0),
	{.name = "color", .kind = TK_TP_KIND_ENUM, .size = 1, .enum_desc = &color_enum},
	{.name = "sign",
	 .kind = TK_TP_KIND_ENUM,
	 .size = 2,
	 .is_signed = 1,
	 .enum_desc = &color_enum},
	A("uuid", TK_TP_FORMAT_UUID, 1, 16),
	A("ip6", TK_TP_FORMAT_IPV6, 1, 16),
	A("raw", TK_TP_FORMAT_BYTES16, 1, 16),
	F("s", TK_TP_KIND_STRING, TK_TP_FORMAT_DEFAULT, 0, 0),
	F("l1", TK_TP_KIND_STRING, TK_TP_FORMAT_LATIN1, 0, 0),
	F("bom", TK_TP_KIND_STRING, TK_TP_FORMAT_UTF8_BOM, 0, 0),
	F("xml", TK_TP_KIND_STRING, TK_TP_FORMAT_XML, 0, 0),
	F("json", TK_TP_KIND_STRING, TK_TP_FORMAT_JSON, 0, 0),
	F("c8", TK_TP_KIND_COUNTED, 0, 1, 0),
	F("w16", TK_TP_KIND_WSTRING, 0, 2, 0),
	F("w32", TK_TP_KIND_WSTRING, 0, 4, 0),
	F("c16", TK_TP_KIND_COUNTED, 0, 2, 0),
	F("c32", TK_TP_KIND_COUNTED, 0, 4, 0),
	F("blob", TK_TP_KIND_BLOB, TK_TP_FORMAT_HEX, 1, 0),
	A("arr", TK_TP_FORMAT_DEFAULT, 2, 3),
	F("seq", TK_TP_KIND_SEQUENCE, TK_TP_FORMAT_DEFAULT, 4, 0),
	F("none", TK_TP_KIND_SEQUENCE, TK_TP_FORMAT_DEFAULT, 1, 1),
	S("seg", line),
	F("tail", TK_TP_KIND_INT, TK_TP_FORMAT_HEX, 1, 0),
};

/* text only: each kind of length and terminator */
static const struct tk_tp_field text_fields[] = {
	F("s", TK_TP_KIND_STRING, 0, 0, 0),    F("c8", TK_TP_KIND_COUNTED, 0, 1, 0),
	F("w16", TK_TP_KIND_WSTRING, 0, 2, 0), F("w32", TK_TP_KIND_WSTRING, 0, 4, 0),
	F("c16", TK_TP_KIND_COUNTED, 0, 2, 0), F("c32", TK_TP_KIND_COUNTED, 0, 4, 0),
	F("blob", TK_TP_KIND_BLOB, 0, 1, 0),   F("s2", TK_TP_KIND_STRING, 0, 0, 0),
};

/* more counted fields than iovecs (twice the same 16): the copy into the scratch buffer */
#define MANY(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)                                       \
	F(a, TK_TP_KIND_SEQUENCE, 0, 2, 0), F(b, TK_TP_KIND_BLOB, 0, 1, 0),                        \
		F(c, TK_TP_KIND_COUNTED, 0, 1, 0), F(d, TK_TP_KIND_INT, TK_TP_FORMAT_PORT, 2, 0),  \
		F(e, TK_TP_KIND_SEQUENCE, 0, 8, 1), F(f, TK_TP_KIND_WSTRING, 0, 2, 0),             \
		F(g, TK_TP_KIND_COUNTED, 0, 4, 0), F(h, TK_TP_KIND_INT, TK_TP_FORMAT_PORT, 2, 0),  \
		F(i, TK_TP_KIND_SEQUENCE, 0, 1, 0), F(j, TK_TP_KIND_BLOB, 0, 1, 0),                \
		F(k, TK_TP_KIND_COUNTED, 0, 1, 0), F(l, TK_TP_KIND_INT, TK_TP_FORMAT_PORT, 2, 0),  \
		F(m, TK_TP_KIND_SEQUENCE, 0, 4, 0), F(n, TK_TP_KIND_STRING, 0, 0, 0),              \
		F(o, TK_TP_KIND_COUNTED, 0, 2, 0), F(p, TK_TP_KIND_INT, TK_TP_FORMAT_PORT, 2, 0)
static const struct tk_tp_field many_fields[] = {
	MANY("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"),
	MANY("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P"),
};

/* structs nested 8 deep (EventHeader's limit), and one level more (no EventHeader form) */
#define NEST(name, inner)                                                                          \
	static const struct tk_tp_field name##_fields[] = {                                        \
		F("n", TK_TP_KIND_SEQUENCE, 0, 2, 0),                                              \
		S("in", inner),                                                                    \
		F("s", TK_TP_KIND_STRING, 0, 0, 0),                                                \
	};                                                                                         \
	static const struct tk_tp_struct name = {#name, name##_fields, 3}
NEST(n1, point);
NEST(n2, n1);
NEST(n3, n2);
NEST(n4, n3);
NEST(n5, n4);
NEST(n6, n5);
NEST(n7, n6);
NEST(n8, n7);
static const struct tk_tp_field deep_fields[] = {S("top", n7), F("z", TK_TP_KIND_INT, 0, 1, 0)};
static const struct tk_tp_field deeper_fields[] = {S("top", n8), F("z", TK_TP_KIND_INT, 0, 1, 0)};

/* fixed-size only, and nothing at all */
static const struct tk_tp_field fixed_fields[] = {F("u8", TK_TP_KIND_INT, 0, 1, 0),
						  A("a", TK_TP_FORMAT_HEX, 4, 5), S("p", point),
						  F("d", TK_TP_KIND_FLOAT, 0, 8, 1)};
static const struct tk_tp_field *const no_fields = NULL;

static const struct tk_tp_event fixed[] = {
	EVENT("every", every_fields),
	EVENT("text", text_fields),
	EVENT("many", many_fields),
	EVENT("deep", deep_fields),
	EVENT("deeper", deeper_fields),
	EVENT("fixed", fixed_fields),
	{.provider = "tkfuzz", .name = "empty", .fields = no_fields, .n_fields = 0},
};
#define N_FIXED (sizeof(fixed) / sizeof(fixed[0]))

/* ---- descriptions built from the input ---------------------------------------------------- */

#define POOL_FIELDS  96
#define POOL_STRUCTS 24

struct builder {
	const uint8_t *p;
	size_t left;
	struct tk_tp_field fields[POOL_FIELDS];
	size_t n_fields;
	struct tk_tp_struct structs[POOL_STRUCTS];
	size_t n_structs;
};

static unsigned int take(struct builder *b)
{
	if (!b->left)
		return 0;
	b->left--;
	return *b->p++;
}

/*
 * The fields of one level: a count, then per field its kind (any value, 0 and past the last
 * kind included), format, size, sign and array count; a struct is built from the bytes that
 * follow, or points at a struct already built (its own ancestors too: a cycle the depth
 * limits must stop).
 */
static const struct tk_tp_struct *build_struct(struct builder *b, unsigned int depth)
{
	static const uint8_t sizes[] = {1, 2, 4, 8, 0, 3, 16, 255};
	static const char *const names[] = {"f", "g", "", "a;b", "h"};
	struct tk_tp_struct *s;
	unsigned int n = take(b) % 7, i;

	if (b->n_structs == POOL_STRUCTS || n > POOL_FIELDS - b->n_fields)
		return NULL;
	s = &b->structs[b->n_structs++];
	s->name = "s";
	s->fields = &b->fields[b->n_fields];
	s->n_fields = n;
	b->n_fields += n;
	for (i = 0; i < n; i++) {
		struct tk_tp_field *f = (struct tk_tp_field *) &s->fields[i];
		unsigned int k = take(b), c = take(b);

		memset(f, 0, sizeof(*f));
		f->name = names[(k >> 4) % 5];
		f->kind = (uint8_t) (k % 13);
		f->format = (uint8_t) (c % 17);
		f->size = sizes[(c >> 5) & 7];
		f->is_signed = (uint8_t) ((k >> 7) & 1);
		f->enum_desc = &color_enum;
		if (f->kind == TK_TP_KIND_ARRAY)
			f->count = (c & 0x10) ? 16 : take(b) % 40;
		if (f->kind == TK_TP_KIND_STRUCT) {
			if ((c & 1) && b->n_structs > 0)
				f->struct_desc = &b->structs[take(b) % b->n_structs];
			else if (depth < 12)
				f->struct_desc = build_struct(b, depth + 1);
		}
	}
	return s;
}

/* ---- checks ------------------------------------------------------------------------------- */

static volatile uint64_t sink;

static int inside(const void *p, size_t n, const void *base, size_t size)
{
	const uint8_t *q = p, *b = base;

	return b && q >= b && (size_t) (q - b) <= size && n <= size - (size_t) (q - b);
}

/* The transcoded payload lies where it may, and adds up. */
static void check_result(const struct ust_eh_payload *out, const uint8_t *payload, size_t size,
			 const uint8_t *scratch, size_t scratch_size)
{
	size_t total = 0, i, k;

	if (out->n > UST_EH_IOV_MAX || out->n_lens > UST_EH_IOV_MAX || out->size > size)
		__builtin_trap();
	for (i = 0; i < out->n; i++) {
		const struct iovec *v = &out->iov[i];

		if (!inside(v->iov_base, v->iov_len, payload, size) &&
		    !inside(v->iov_base, v->iov_len, scratch, scratch_size) &&
		    !inside(v->iov_base, v->iov_len, out->lens, sizeof(out->lens)))
			__builtin_trap(); /* an iovec outside what it may point into */
		for (k = 0; k < v->iov_len; k++)
			sink += ((const uint8_t *) v->iov_base)[k];
		total += v->iov_len;
	}
	if (total != out->size)
		__builtin_trap();
}

/*
 * The event as user_events would get it (head, then the transcoded payload), read back: every
 * field must decode and the last one end where the payload does.
 */
static void check_decodes(const struct ust_eh_event *eh, const struct ust_eh_payload *out)
{
	struct eventheader_enum e;
	struct eventheader_item it;
	enum tk_status st;
	uint8_t *ev = malloc(eh->head_size + out->size + 1);
	size_t n = eh->head_size, i;
	uint32_t end = 0;

	if (!ev)
		return;
	memcpy(ev, eh->head, eh->head_size);
	for (i = 0; i < out->n; i++) {
		memcpy(ev + n, out->iov[i].iov_base, out->iov[i].iov_len);
		n += out->iov[i].iov_len;
	}
	st = eventheader_start(&e, eh->tp_name, eh->tp_name_len, ev, n, UINT32_MAX);
	if (st != TK_OK)
		__builtin_trap(); /* the head ust_eh_event_init() made does not start an event */
	while ((st = eventheader_next(&e)) == TK_OK) {
		eventheader_item_get(&e, &it);
		if (it.value_size && !inside(it.value, it.value_size, e.data, e.data_size))
			__builtin_trap();
		if (e.pos_raw + e.size_raw > end) /* the item's bytes, length and 0 unit included */
			end = e.pos_raw + e.size_raw;
	}
	if (st != TK_END || e.state != EVENTHEADER_STATE_AFTER_LAST)
		__builtin_trap(); /* a transcoded payload the decoder cannot read */
	if (end != e.data_size)
		__builtin_trap(); /* bytes the metadata does not account for */
	free(ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct builder b;
	const struct tk_tp_event *ev;
	struct tk_tp_event built;
	struct ust_eh_event eh;
	struct ust_eh_payload out;
	uint8_t *payload = NULL, *scratch = NULL;
	size_t psize, scratch_size = 0;
	unsigned int pick;
	enum tk_status st, init;

	if (size < 2 || size > 70000)
		return 0;
	pick = data[1] & 3;
	if (data[0] < 0x80) {
		ev = &fixed[data[0] % N_FIXED];
		data += 2;
		size -= 2;
	} else {
		b.p = data + 2;
		b.left = size - 2;
		b.n_fields = 0;
		b.n_structs = 0;
		if (!build_struct(&b, 0))
			return 0;
		memset(&built, 0, sizeof(built));
		built.provider = "tkfuzz";
		built.name = "built";
		built.fields = b.structs[0].fields;
		built.n_fields = b.structs[0].n_fields;
		built.fixed_size = TK_TP_SIZE_VARIABLE;
		ev = &built;
		data = b.p;
		size = b.left;
	}
	psize = size;
	if (psize) {
		payload = malloc(psize);
		if (!payload)
			return 0;
		memcpy(payload, data, psize);
	}
	scratch_size = pick == 0   ? psize
		       : pick == 1 ? 0
		       : pick == 2 ? psize - (psize > 0)
				   : psize + 64;
	if (scratch_size) {
		scratch = malloc(scratch_size);
		if (!scratch) {
			free(payload);
			return 0;
		}
	}

	error_reset();
	init = ust_eh_event_init(&eh, ev);
	error_reset();
	st = ust_eh_transcode(ev, payload, psize, &out, scratch, scratch_size);
	if (st != TK_OK && st != TK_ERR_INVAL)
		__builtin_trap(); /* the transcoder's only failure is a payload not of the event */
	if (st == TK_OK) {
		check_result(&out, payload, psize, scratch, scratch_size);
		if (init == TK_OK)
			check_decodes(&eh, &out);
	}
	ust_eh_event_fini(&eh);
	error_reset();
	free(scratch);
	free(payload);
	return 0;
}
