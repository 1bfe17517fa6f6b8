// SPDX-License-Identifier: MIT
/*
 * EventHeader events as typed classes of the trace model (eventheader.h), for every container
 * that holds them (perf.data, trace.dat, interceptor files).
 *
 * A class is made from an event's metadata alone (class_walk(): its field definitions, read
 * as the enumerator reads them), so that every event with the same tracepoint, header flags,
 * activity-ID extension and metadata bytes shares it (struct eventheader_classes). An
 * event's values come from the enumerator, walked beside the class tree (values_*()): a
 * shape that does not match is damage, reported for that event.
 *
 * What each encoding becomes (the nearest CTF 1.8 type, so that any writer keeps it):
 *   value8..value64        integers of that size; signed for the signed, errno, pid and time
 *                          formats, shown in hex for hex formats; ports and IPv4 addresses
 *                          read in network order; value32/64 with the float format: floats
 *   value128               16 bytes (an array of 8-bit integers shown in hex)
 *   zero-terminated text   a string; 16- and 32-bit characters converted to UTF-8
 *   counted text           8-bit characters shown as text (they may hold NULs, which CTF
 *                          text does not keep), or their bytes with a format that is not
 *                          text (a number, an address: the reference formats them so);
 *                          other widths converted to UTF-8 as zero-terminated text is
 *   binary                 a sequence of bytes shown in hex (as text with a text format)
 *   struct                 a structure; constant arrays: arrays; variable ones: sequences
 * The header (flags, version, id, tag, opcode, level), the keyword of the tracepoint's
 * name and the activity IDs (when the event has them: a class of its own) are the event
 * context.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "eventheader.h"

/* ---- the class set -------------------------------------------------------------------------- */

struct eventheader_class_slot {
	const void *owner;
	const uint8_t *meta; /* a copy, in the set's arena */
	uint32_t hash;
	uint16_t meta_size;
	uint8_t flags;
	uint8_t ids;
	void *value;
};

/*
 * Every event of a typed file is looked up (a walk at open, then a read): the hash takes the
 * metadata's size, its first 32 bytes (the event's name, where events differ) and its last 8;
 * equal hashes are told apart by comparing the whole metadata.
 */
static uint32_t key_hash(const struct eventheader_class_key *k)
{
	const uint64_t mul = UINT64_C(0x9E3779B97F4A7C15);
	uint64_t h = ((uint64_t) (uintptr_t) k->owner ^ ((uint64_t) k->flags << 40) ^
		      ((uint64_t) k->ids << 48) ^ k->meta_size) *
		     mul;
	size_t i = 0, n = k->meta_size < 32 ? k->meta_size : 32;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, k->meta + i, 8);
		h = (h ^ w) * mul;
		h ^= h >> 29;
	}
	if (k->meta_size >= 8) { /* the last 8 bytes (again, for short metadata) */
		uint64_t w;

		memcpy(&w, k->meta + k->meta_size - 8, 8);
		h = (h ^ w) * mul;
	} else if (k->meta_size) {
		uint64_t w = 0;

		memcpy(&w, k->meta, k->meta_size);
		h = (h ^ w) * mul;
	}
	return (uint32_t) (h ^ (h >> 32));
}

void eventheader_class_key(const struct eventheader_enum *e, const void *owner,
			   struct eventheader_class_key *k)
{
	k->owner = owner;
	k->meta = e->meta;
	k->meta_size = e->meta_size;
	k->flags = e->info.flags;
	k->ids = e->info.related_id ? 2 : e->info.activity_id ? 1 : 0;
	k->hash = key_hash(k);
}

void eventheader_classes_init(struct eventheader_classes *s)
{
	memset(s, 0, sizeof(*s));
	arena_init(&s->arena);
}

void eventheader_classes_fini(struct eventheader_classes *s)
{
	free(s->slots);
	vec_fini(&s->made);
	arena_fini(&s->arena);
	memset(s, 0, sizeof(*s));
}

static int slot_is(const struct eventheader_class_slot *sl, const struct eventheader_class_key *k)
{
	return sl->hash == k->hash && sl->owner == k->owner && sl->flags == k->flags &&
	       sl->ids == k->ids && sl->meta_size == k->meta_size &&
	       !memcmp(sl->meta, k->meta, k->meta_size);
}

void *eventheader_classes_find(const struct eventheader_classes *s,
			       const struct eventheader_class_key *k)
{
	size_t i;

	if (!s->cap)
		return NULL;
	for (i = k->hash & (s->cap - 1); s->slots[i].owner; i = (i + 1) & (s->cap - 1))
		if (slot_is(&s->slots[i], k))
			return s->slots[i].value;
	return NULL;
}

enum tk_status eventheader_classes_put(struct eventheader_classes *s,
				       const struct eventheader_class_key *k, void *value)
{
	struct eventheader_class_slot *sl;
	size_t i;

	if (2 * (s->n + 1) > s->cap) { /* grow: at most half full */
		size_t cap = s->cap ? 2 * s->cap : 16, j;
		struct eventheader_class_slot *t = calloc(cap, sizeof(*t));

		if (!t)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot add an EventHeader class");
		for (j = 0; j < s->cap; j++) {
			if (!s->slots[j].owner)
				continue;
			for (i = s->slots[j].hash & (cap - 1); t[i].owner; i = (i + 1) & (cap - 1))
				;
			t[i] = s->slots[j];
		}
		free(s->slots);
		s->slots = t;
		s->cap = cap;
	}
	for (i = k->hash & (s->cap - 1); s->slots[i].owner; i = (i + 1) & (s->cap - 1))
		;
	sl = &s->slots[i];
	sl->meta = k->meta_size ? arena_alloc(&s->arena, k->meta_size) : NULL;
	if (k->meta_size && !sl->meta)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add an EventHeader class");
	if (k->meta_size)
		memcpy((uint8_t *) sl->meta, k->meta, k->meta_size);
	sl->owner = k->owner;
	sl->hash = k->hash;
	sl->meta_size = k->meta_size;
	sl->flags = k->flags;
	sl->ids = k->ids;
	sl->value = value;
	s->n++;
	return TK_OK;
}

/* ---- the class from the metadata ------------------------------------------------------------ */

struct class_walk {
	struct arena *a;
	const uint8_t *m;
	uint16_t size, pos;
	enum tk_byte_order order;
	unsigned int depth;
};

static struct model_fc *new_fc(struct arena *a, enum model_fc_kind kind)
{
	struct model_fc *fc = arena_alloc(a, sizeof(*fc));

	if (fc) {
		fc->kind = (uint8_t) kind;
		fc->align = 8;
	}
	return fc;
}

static struct model_fc *bytes_fc(struct arena *a, enum model_fc_kind kind, uint64_t length,
				 int text)
{
	struct model_fc *fc = new_fc(a, kind);

	if (!fc)
		return NULL;
	fc->u.arr.length = length;
	fc->is_text = (uint8_t) text;
	fc->encoding = text ? MODEL_ENCODING_UTF8 : MODEL_ENCODING_NONE;
	fc->u.arr.elem = model_int_fc(a, 8, 0, text ? 10 : 16, TK_BYTE_ORDER_LE);
	if (fc->u.arr.elem && text)
		fc->u.arr.elem->encoding = MODEL_ENCODING_UTF8;
	return fc->u.arr.elem ? fc : NULL;
}

static int text_format(uint8_t fmt)
{
	return fmt == EVENTHEADER_FMT_STRING8 || fmt == EVENTHEADER_FMT_STRING_UTF ||
	       fmt == EVENTHEADER_FMT_STRING_UTF_BOM || fmt == EVENTHEADER_FMT_STRING_XML ||
	       fmt == EVENTHEADER_FMT_STRING_JSON;
}

/* The class of one value of encoding @enc (flags removed) and format @fmt. */
static struct model_fc *scalar_fc(struct arena *a, uint8_t enc, uint8_t fmt,
				  enum tk_byte_order order)
{
	struct model_fc *fc;
	uint32_t bits;

	switch (enc) {
	case EVENTHEADER_ENC_VALUE8:
	case EVENTHEADER_ENC_VALUE16:
	case EVENTHEADER_ENC_VALUE32:
	case EVENTHEADER_ENC_VALUE64:
		bits = 8u << (enc - EVENTHEADER_ENC_VALUE8);
		if (fmt == EVENTHEADER_FMT_FLOAT && bits >= 32) {
			fc = new_fc(a, MODEL_FC_FLOAT);
			if (fc) {
				fc->size = bits;
				fc->byte_order = (uint8_t) order;
				fc->mant_dig = bits == 32 ? 24 : 53;
				fc->exp_dig = bits == 32 ? 8 : 11;
			}
			return fc;
		}
		if ((fmt == EVENTHEADER_FMT_PORT && bits == 16) ||
		    (fmt == EVENTHEADER_FMT_IP_ADDRESS && bits == 32) ||
		    (fmt == EVENTHEADER_FMT_IP_ADDRESS_OBSOLETE && bits == 32))
			order = TK_BYTE_ORDER_BE; /* network order */
		return model_int_fc(
			a, bits,
			fmt == EVENTHEADER_FMT_SIGNED_INT || fmt == EVENTHEADER_FMT_ERRNO ||
				fmt == EVENTHEADER_FMT_PID || fmt == EVENTHEADER_FMT_TIME,
			fmt == EVENTHEADER_FMT_HEX_INT || fmt == EVENTHEADER_FMT_HEX_BYTES ? 16
											   : 10,
			order);
	case EVENTHEADER_ENC_VALUE128:
		return bytes_fc(a, MODEL_FC_ARRAY, 16, 0);
	case EVENTHEADER_ENC_ZSTRING_CHAR8:
	case EVENTHEADER_ENC_ZSTRING_CHAR16:
	case EVENTHEADER_ENC_ZSTRING_CHAR32:
		fc = new_fc(a, MODEL_FC_STRING);
		if (fc)
			fc->encoding = MODEL_ENCODING_UTF8;
		return fc;
	case EVENTHEADER_ENC_STRING16_CHAR8:
		/* 8-bit text shown as a number, an address, ...: its bytes */
		return bytes_fc(a, MODEL_FC_SEQUENCE, 0,
				fmt == EVENTHEADER_FMT_DEFAULT || text_format(fmt));
	case EVENTHEADER_ENC_STRING16_CHAR16:
	case EVENTHEADER_ENC_STRING16_CHAR32:
		return bytes_fc(a, MODEL_FC_SEQUENCE, 0, 1);
	case EVENTHEADER_ENC_BINARY16_CHAR8:
		return bytes_fc(a, MODEL_FC_SEQUENCE, 0, text_format(fmt));
	default:
		return NULL;
	}
}

#define WALK_BAD ((struct model_fc *) 1)

static struct model_fc *def_fc(struct class_walk *w, const char **name);

/* A structure of the @n definitions from w->pos on (fewer when the metadata ends first). */
static struct model_fc *struct_fc(struct class_walk *w, unsigned int n)
{
	struct model_fc *st = new_fc(w->a, MODEL_FC_STRUCT);
	struct model_member *m;
	unsigned int i;

	if (!st || !(m = arena_alloc(w->a, (n + 1) * sizeof(*m))))
		return NULL;
	for (i = 0; i < n && w->pos != w->size; i++) {
		m[i].fc = def_fc(w, &m[i].name);
		if (!m[i].fc || m[i].fc == WALK_BAD)
			return m[i].fc;
		m[i].orig_name = m[i].name;
	}
	st->u.st.members = m;
	st->u.st.count = i;
	return st;
}

/* The field defined at w->pos (name, encoding, format, tag, count), moving past it. */
static struct model_fc *def_fc(struct class_walk *w, const char **name)
{
	size_t len = strnlen((const char *) w->m + w->pos, (size_t) (w->size - w->pos)), semi;
	uint8_t enc, fmt = 0, flags;
	uint16_t count = 0;
	struct model_fc *elem, *fc;

	if ((size_t) (w->size - w->pos) - len < 2)
		return WALK_BAD;
	for (semi = 0; semi < len && w->m[w->pos + semi] != ';'; semi++)
		;
	*name = arena_strndup(w->a, (const char *) w->m + w->pos, semi);
	if (!*name)
		return NULL;
	w->pos = (uint16_t) (w->pos + len + 1);
	enc = w->m[w->pos++];
	if (enc & EVENTHEADER_ENC_CHAIN) {
		if (w->pos == w->size)
			return WALK_BAD;
		fmt = w->m[w->pos++];
		if (fmt & EVENTHEADER_FMT_CHAIN) {
			if (w->size - w->pos < 2)
				return WALK_BAD;
			w->pos += 2;
		}
		fmt &= (uint8_t) ~EVENTHEADER_FMT_CHAIN;
	}
	flags = enc & (EVENTHEADER_ENC_CARRAY | EVENTHEADER_ENC_VARRAY);
	enc &= EVENTHEADER_ENC_VALUE_MASK;
	if (enc == EVENTHEADER_ENC_INVALID || enc >= EVENTHEADER_ENC_MAX ||
	    flags == (EVENTHEADER_ENC_CARRAY | EVENTHEADER_ENC_VARRAY))
		return WALK_BAD;
	if (flags == EVENTHEADER_ENC_CARRAY) {
		if (w->size - w->pos < 2)
			return WALK_BAD;
		count = tk_load_u16(w->m + w->pos, w->order);
		w->pos += 2;
		if (!count)
			return WALK_BAD;
	}
	if (enc == EVENTHEADER_ENC_STRUCT) {
		if (!fmt || w->depth == EVENTHEADER_NEST_MAX)
			return WALK_BAD;
		w->depth++;
		elem = struct_fc(w, fmt);
		w->depth--;
	} else {
		elem = scalar_fc(w->a, enc, fmt, w->order);
	}
	if (!flags || !elem || elem == WALK_BAD)
		return elem;
	fc = new_fc(w->a, flags == EVENTHEADER_ENC_CARRAY ? MODEL_FC_ARRAY : MODEL_FC_SEQUENCE);
	if (fc) {
		fc->u.arr.elem = elem;
		fc->u.arr.length = count;
	}
	return fc;
}

/* The event context: the header, the keyword, the activity IDs the class has. */
static struct model_fc *context_fc(struct arena *a, unsigned int ids, enum tk_byte_order order)
{
	static const char *const names[] = {"eventheader_flags",
					    "version",
					    "id",
					    "tag",
					    "opcode",
					    "level",
					    "keyword",
					    "activity_id",
					    "related_activity_id"};
	struct model_fc *fcs[9];

	fcs[0] = model_int_fc(a, 8, 0, 16, order);
	fcs[1] = model_int_fc(a, 8, 0, 10, order);
	fcs[2] = model_int_fc(a, 16, 0, 10, order);
	fcs[3] = model_int_fc(a, 16, 0, 16, order);
	fcs[4] = model_int_fc(a, 8, 0, 10, order);
	fcs[5] = model_int_fc(a, 8, 0, 10, order);
	fcs[6] = model_int_fc(a, 64, 0, 16, order);
	fcs[7] = bytes_fc(a, MODEL_FC_ARRAY, 16, 0);
	fcs[8] = bytes_fc(a, MODEL_FC_ARRAY, 16, 0);
	return model_struct_of(a, names, fcs, 7 + ids);
}

/* "eventheader:TP?flags=0xNN&meta=HEX" (see eventheader.h) */
static const char *class_uri(struct arena *a, const struct eventheader_enum *e)
{
	static const char hex[] = "0123456789abcdef";
	static const char scheme[] = EVENTHEADER_URI_SCHEME;
	const struct eventheader_info *in = &e->info;
	size_t n = sizeof(scheme) - 1 + in->tp_name_len + 17 + 2 * (size_t) e->meta_size + 1, i;
	char *u = arena_alloc(a, n), *o = u;

	if (!u)
		return NULL;
	memcpy(o, scheme, sizeof(scheme) - 1);
	o += sizeof(scheme) - 1;
	memcpy(o, in->tp_name, in->tp_name_len);
	o += in->tp_name_len;
	memcpy(o, "?flags=0x", 9);
	o += 9;
	*o++ = hex[in->flags >> 4];
	*o++ = hex[in->flags & 15];
	memcpy(o, "&meta=", 6);
	o += 6;
	for (i = 0; i < e->meta_size; i++) {
		*o++ = hex[e->meta[i] >> 4];
		*o++ = hex[e->meta[i] & 15];
	}
	*o = '\0';
	return u;
}

enum tk_status eventheader_model_class(struct arena *a, const struct eventheader_enum *e,
				       struct eventheader_model_class *out)
{
	const struct eventheader_info *in = &e->info;
	struct class_walk w = {a,	  e->meta, e->meta_size, (uint16_t) (in->name_len + 1),
			       in->order, 0};
	unsigned int ids = in->related_id ? 2 : in->activity_id ? 1 : 0;
	size_t n;
	char *name;

	memset(out, 0, sizeof(*out));
	out->payload = struct_fc(&w, 255);
	if (out->payload == WALK_BAD || (out->payload && w.pos != w.size)) {
		out->payload = NULL;
		return TK_FAIL(
			TK_ERR_UNSUPPORTED,
			"Cannot type EventHeader event: reason=its metadata does not decode");
	}
	for (n = 0; n < in->name_len && in->name[n] != ';'; n++)
		;
	name = out->payload ? arena_alloc(a, in->provider_len + 1 + n + 1) : NULL;
	out->context = name ? context_fc(a, ids, in->order) : NULL;
	if (!out->context)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot type EventHeader event");
	memcpy(name, in->tp_name, in->provider_len);
	name[in->provider_len] = ':';
	memcpy(name + in->provider_len + 1, in->name, n);
	out->name = name;
	out->uri = class_uri(a, e);
	return out->uri ? TK_OK : TK_FAIL(TK_ERR_NOMEM, "Cannot type EventHeader event");
}

enum tk_status eventheader_class_of(struct eventheader_classes *s, struct arena *a,
				    const struct eventheader_enum *e, struct tk_event_class *base,
				    uint64_t first_id, int create, struct tk_event_class **out)
{
	struct eventheader_class_key k;
	struct eventheader_model_class mc;
	struct tk_event_class *ec, **slot;
	enum tk_status st;

	eventheader_class_key(e, base, &k);
	ec = eventheader_classes_find(s, &k);
	*out = ec ? ec : base;
	if (ec || !create)
		return TK_OK;
	st = eventheader_model_class(a, e, &mc);
	if (st == TK_ERR_UNSUPPORTED) {
		error_reset(); /* its events keep the tracepoint's class */
		return eventheader_classes_put(s, &k, base);
	}
	ec = st < 0 ? NULL : arena_alloc(a, sizeof(*ec));
	slot = ec ? vec_push(&s->made, sizeof(*slot)) : NULL;
	if (!slot)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot type EventHeader events");
	*slot = ec;
	ec->sc = base->sc;
	ec->name = mc.name;
	ec->emf_uri = mc.uri;
	ec->id = first_id + s->made.len - 1;
	ec->fmt = base->fmt;
	ec->common = base->common;
	ec->base = base;
	ec->context = mc.context;
	ec->payload = mc.payload;
	*out = ec;
	return eventheader_classes_put(s, &k, ec);
}

/* ---- an event's values -------------------------------------------------------------------- */

struct values {
	struct eventheader_enum *e;
	struct vec *vals;
	char *text; /* where converted text goes: room reserved before the walk */
	size_t text_len;
};

static struct model_value *push(struct values *x)
{
	struct model_value *v = vec_push(x->vals, sizeof(*v));

	if (v)
		memset(v, 0, sizeof(*v));
	return v;
}

static TK_NOINLINE enum tk_status shape_fail(const struct values *x)
{
	(void) x;
	return TK_FAIL(TK_ERR_FORMAT, "Cannot decode EventHeader event: reason=its fields do not "
				      "match its class");
}

static TK_NOINLINE enum tk_status nomem(void)
{
	return TK_FAIL(TK_ERR_NOMEM, "Cannot decode EventHeader event");
}

static void put_utf8(struct values *x, uint32_t c)
{
	char *o = x->text + x->text_len;

	if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
		c = 0xFFFD;
	if (c < 0x80) {
		o[0] = (char) c;
		x->text_len += 1;
	} else if (c < 0x800) {
		o[0] = (char) (0xC0 | (c >> 6));
		o[1] = (char) (0x80 | (c & 0x3F));
		x->text_len += 2;
	} else if (c < 0x10000) {
		o[0] = (char) (0xE0 | (c >> 12));
		o[1] = (char) (0x80 | ((c >> 6) & 0x3F));
		o[2] = (char) (0x80 | (c & 0x3F));
		x->text_len += 3;
	} else {
		o[0] = (char) (0xF0 | (c >> 18));
		o[1] = (char) (0x80 | ((c >> 12) & 0x3F));
		o[2] = (char) (0x80 | ((c >> 6) & 0x3F));
		o[3] = (char) (0x80 | (c & 0x3F));
		x->text_len += 4;
	}
}

/*
 * Text of @size bytes of @unit-byte characters: as it is, or converted to UTF-8. With a
 * format that honours a byte order mark (@fmt: UTF with BOM, XML, JSON), text that starts with
 * one is read as the mark says, whatever its field's width, and the mark is dropped, as the
 * reference decoder reads it: written again without it, it reads the same.
 */
static void text_value(struct values *x, const uint8_t *p, uint32_t size, unsigned int unit,
		       uint8_t fmt, struct model_value *v)
{
	enum tk_byte_order order = x->e->info.order;
	size_t start = x->text_len;
	uint32_t i;

	if (fmt == EVENTHEADER_FMT_STRING_UTF_BOM || fmt == EVENTHEADER_FMT_STRING_XML ||
	    fmt == EVENTHEADER_FMT_STRING_JSON) {
		static const struct {
			const char *mark;
			uint8_t len, unit, order;
		} boms[] = {
			{"\xFF\xFE\0\0", 4, 4, TK_BYTE_ORDER_LE},
			{"\0\0\xFE\xFF", 4, 4, TK_BYTE_ORDER_BE},
			{"\xFF\xFE", 2, 2, TK_BYTE_ORDER_LE},
			{"\xFE\xFF", 2, 2, TK_BYTE_ORDER_BE},
			{"\xEF\xBB\xBF", 3, 1, TK_BYTE_ORDER_LE},
		};

		for (i = 0; i < sizeof(boms) / sizeof(boms[0]); i++) {
			if (size >= boms[i].len && !memcmp(p, boms[i].mark, boms[i].len)) {
				p += boms[i].len;
				size -= boms[i].len;
				unit = boms[i].unit;
				order = (enum tk_byte_order) boms[i].order;
				break;
			}
		}
	}
	if (unit == 1) {
		v->v.s = (const char *) p;
		v->n = size;
		return;
	}
	for (i = 0; i + unit <= size; i += unit) {
		uint32_t c = unit == 2 ? tk_load_u16(p + i, order) : tk_load_u32(p + i, order);

		if (unit == 2 && c >= 0xD800 && c <= 0xDBFF && i + 4 <= size) {
			uint32_t lo = tk_load_u16(p + i + 2, order);

			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
				i += 2;
			}
		}
		put_utf8(x, c);
	}
	v->v.s = x->text + start;
	v->n = x->text_len - start;
}

/* The current VALUE item as the values of @fc. */
static enum tk_status scalar_values(struct values *x, const struct model_fc *fc)
{
	struct eventheader_item it;
	struct model_value *v;
	uint32_t i;

	eventheader_item_get(x->e, &it);
	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_FLOAT:
		if (!it.element_size || it.element_size * 8u != fc->size)
			return shape_fail(x);
		v = push(x);
		if (!v)
			return nomem();
		if (fc->kind == MODEL_FC_FLOAT) {
			if (fc->size == 32) {
				uint32_t b = tk_load_u32(it.value, x->e->info.order);
				float f;

				memcpy(&f, &b, sizeof(f));
				v->v.d = f;
			} else {
				uint64_t b = tk_load_u64(it.value, x->e->info.order);

				memcpy(&v->v.d, &b, sizeof(b));
			}
			return TK_OK;
		}
		{
			enum tk_byte_order bo = fc->byte_order == TK_BYTE_ORDER_BE
							? TK_BYTE_ORDER_BE
							: x->e->info.order;
			uint64_t u = fc->size == 8    ? it.value[0]
				     : fc->size == 16 ? tk_load_u16(it.value, bo)
				     : fc->size == 32 ? tk_load_u32(it.value, bo)
						      : tk_load_u64(it.value, bo);

			if (fc->is_signed && fc->size < 64 && (u >> (fc->size - 1)) & 1)
				u |= ~UINT64_C(0) << fc->size;
			v->v.u = u;
		}
		return TK_OK;
	case MODEL_FC_STRING:
		if (it.element_size)
			return shape_fail(x);
		v = push(x);
		if (!v)
			return nomem();
		text_value(x, it.value, it.value_size,
			   1u << (it.encoding - EVENTHEADER_ENC_ZSTRING_CHAR8), it.format, v);
		return TK_OK;
	case MODEL_FC_SEQUENCE:
	case MODEL_FC_ARRAY:
		if (fc->is_text) {
			v = push(x);
			if (!v)
				return nomem();
			text_value(x, it.value, it.value_size,
				   it.encoding == EVENTHEADER_ENC_BINARY16_CHAR8
					   ? 1
					   : 1u << (it.encoding - EVENTHEADER_ENC_STRING16_CHAR8),
				   it.format, v);
			return TK_OK;
		}
		if (fc->kind == MODEL_FC_ARRAY && it.value_size != fc->u.arr.length)
			return shape_fail(x);
		if (vec_reserve(x->vals, sizeof(*v), (size_t) it.value_size + 1))
			return nomem();
		v = push(x);
		v->n = it.value_size;
		for (i = 0; i < it.value_size; i++)
			push(x)->v.u = it.value[i];
		return TK_OK;
	default:
		return shape_fail(x);
	}
}

static enum tk_status element_values(struct values *x, const struct model_fc *fc);

/* The next item as a member of class @fc: a value, a structure or a whole array. */
static enum tk_status member_values(struct values *x, const struct model_fc *fc)
{
	enum tk_status st = eventheader_next(x->e);
	struct model_value *v;
	uint32_t i, n;

	if (st != TK_OK)
		return st == TK_END ? shape_fail(x) : st;
	if (x->e->state != EVENTHEADER_STATE_ARRAY_BEGIN)
		return element_values(x, fc);
	if (fc->kind != MODEL_FC_ARRAY && fc->kind != MODEL_FC_SEQUENCE)
		return shape_fail(x);
	n = x->e->top.array_count;
	if (fc->kind == MODEL_FC_ARRAY && n != fc->u.arr.length)
		return shape_fail(x);
	v = push(x);
	if (!v)
		return nomem();
	v->n = n;
	for (i = 0; i < n; i++) {
		st = eventheader_next(x->e);
		if (st != TK_OK)
			return st == TK_END ? shape_fail(x) : st;
		st = element_values(x, fc->u.arr.elem);
		if (st < 0)
			return st;
	}
	st = eventheader_next(x->e);
	if (st != TK_OK)
		return st == TK_END ? shape_fail(x) : st;
	return x->e->state == EVENTHEADER_STATE_ARRAY_END ? TK_OK : shape_fail(x);
}

/* The current item (a value, or a structure's beginning) as the values of @fc. */
static enum tk_status element_values(struct values *x, const struct model_fc *fc)
{
	enum tk_status st;
	uint32_t i;

	if (x->e->state == EVENTHEADER_STATE_VALUE)
		return scalar_values(x, fc);
	if (x->e->state != EVENTHEADER_STATE_STRUCT_BEGIN || fc->kind != MODEL_FC_STRUCT)
		return shape_fail(x);
	for (i = 0; i < fc->u.st.count; i++) {
		st = member_values(x, fc->u.st.members[i].fc);
		if (st < 0)
			return st;
	}
	st = eventheader_next(x->e);
	if (st != TK_OK)
		return st == TK_END ? shape_fail(x) : st;
	return x->e->state == EVENTHEADER_STATE_STRUCT_END ? TK_OK : shape_fail(x);
}

static void put_id(struct values *x, const uint8_t *id)
{
	struct model_value *v = push(x);
	unsigned int i;

	v->n = 16;
	for (i = 0; i < 16; i++)
		push(x)->v.u = id[i];
}

enum tk_status eventheader_model_values(struct eventheader_enum *e, const struct model_fc *payload,
					struct vec *vals, size_t *payload_at, struct vec *text)
{
	const struct eventheader_info *in = &e->info;
	struct values x = {e, vals, NULL, 0};
	const uint64_t head[7] = {in->flags,  in->version, in->id,     in->tag,
				  in->opcode, in->level,   in->keyword};
	size_t i, start = vals->len;
	enum tk_status st;

	/* converted text takes at most 3 bytes for 2 of UTF-16, 4 for 4 of UTF-32 */
	if (vec_reserve(text, 1, (size_t) e->data_size / 2 * 3 + 16) ||
	    vec_reserve(vals, sizeof(struct model_value), 7 + 34))
		return nomem();
	x.text = text->data;
	for (i = 0; i < 7; i++)
		push(&x)->v.u = head[i];
	if (in->activity_id)
		put_id(&x, in->activity_id);
	if (in->related_id)
		put_id(&x, in->related_id);
	*payload_at = vals->len;
	for (i = 0; i < payload->u.st.count; i++) {
		st = member_values(&x, payload->u.st.members[i].fc);
		if (st < 0)
			goto fail;
	}
	st = eventheader_next(e);
	if (st == TK_END)
		return TK_OK;
	if (st == TK_OK)
		st = shape_fail(&x);
fail:
	vals->len = start;
	return st;
}

/* ---- a typed class's event written again, for the reference decoder's JSON ------------ */

/*
 * The event of a typed class made again from its values (a trace converted from perf.data
 * or trace.dat keeps the class's URI): the header from the context, the extensions (the
 * metadata from the URI, the activity IDs from the context), the payload encoded field by
 * field as the metadata says. A reader's structure may have members of its own before
 * sequences (CTF: "_NAME_length"): an integer where a sequence is due is one, skipped.
 */
struct encode {
	struct vec *out;
	const uint8_t *m; /* the metadata */
	uint16_t size, pos;
	enum tk_byte_order order;
	unsigned int depth;
	int bad;
};

static void put_bytes(struct encode *x, const void *p, size_t n)
{
	if (vec_reserve(x->out, 1, n)) {
		x->bad = 1;
		return;
	}
	if (n)
		memcpy((uint8_t *) x->out->data + x->out->len, p, n);
	x->out->len += n;
}

static void put_uint(struct encode *x, uint64_t v, unsigned int bytes, enum tk_byte_order order)
{
	uint8_t b[8];

	if (bytes == 1)
		b[0] = (uint8_t) v;
	else if (bytes == 2)
		tk_store_u16(b, (uint16_t) v, order);
	else if (bytes == 4)
		tk_store_u32(b, (uint32_t) v, order);
	else
		tk_store_u64(b, v, order);
	put_bytes(x, b, bytes);
}

/* Decode one UTF-8 sequence of @s (@n bytes left) into *@c; returns its length (1 on damage). */
static size_t utf8_next(const uint8_t *s, size_t n, uint32_t *c)
{
	unsigned int len = s[0] < 0x80 ? 1 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
	uint32_t v = len == 1	? s[0]
		     : len == 2 ? s[0] & 0x1Fu
		     : len == 3 ? s[0] & 0x0Fu
				: s[0] & 7u;
	unsigned int i;

	if (len > n || s[0] < 0x80 || (s[0] & 0xC0) == 0x80) {
		*c = s[0] < 0x80 ? s[0] : 0xFFFD;
		return 1;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*c = 0xFFFD;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3Fu);
	}
	*c = v;
	return len;
}

/* @s (@n bytes of UTF-8) in @unit-byte characters; returns the number of characters. */
static uint32_t put_text(struct encode *x, const char *s, size_t n, unsigned int unit)
{
	const uint8_t *p = (const uint8_t *) s;
	uint32_t count = 0;
	size_t i = 0;

	if (unit == 1) {
		put_bytes(x, s, n);
		return (uint32_t) n;
	}
	while (i < n) {
		uint32_t c;

		i += utf8_next(p + i, n - i, &c);
		if (unit == 2 && c >= 0x10000) {
			c -= 0x10000;
			put_uint(x, 0xD800 + (c >> 10), 2, x->order);
			put_uint(x, 0xDC00 + (c & 0x3FF), 2, x->order);
			count += 2;
		} else {
			put_uint(x, c, unit, x->order);
			count++;
		}
	}
	return count;
}

struct def {
	uint8_t enc, fmt, flags;
	uint16_t count;
	size_t members_pos; /* a struct's member definitions */
};

/* The definition at x->pos, moving past its own bytes (not a struct's members). */
static int read_def(struct encode *x, struct def *d)
{
	size_t len = strnlen((const char *) x->m + x->pos, (size_t) (x->size - x->pos));

	if ((size_t) (x->size - x->pos) - len < 2)
		return -1;
	x->pos = (uint16_t) (x->pos + len + 1);
	d->enc = x->m[x->pos++];
	d->fmt = 0;
	d->count = 0;
	if (d->enc & EVENTHEADER_ENC_CHAIN) {
		if (x->pos == x->size)
			return -1;
		d->fmt = x->m[x->pos++];
		if (d->fmt & EVENTHEADER_FMT_CHAIN) {
			if (x->size - x->pos < 2)
				return -1;
			x->pos += 2;
		}
		d->fmt &= (uint8_t) ~EVENTHEADER_FMT_CHAIN;
	}
	d->flags = d->enc & (EVENTHEADER_ENC_CARRAY | EVENTHEADER_ENC_VARRAY);
	d->enc &= EVENTHEADER_ENC_VALUE_MASK;
	if (d->flags == EVENTHEADER_ENC_CARRAY) {
		if (x->size - x->pos < 2)
			return -1;
		d->count = tk_load_u16(x->m + x->pos, x->order);
		x->pos += 2;
	}
	d->members_pos = x->pos;
	return d->enc == EVENTHEADER_ENC_INVALID || d->enc >= EVENTHEADER_ENC_MAX ? -1 : 0;
}

static int encode_members(struct encode *x, unsigned int n, const struct model_fc *st,
			  const struct model_value **v);

/* Past @n definitions (and the members of those that are structs). */
static int skip_defs(struct encode *x, unsigned int n)
{
	struct def d;

	for (; n && x->pos != x->size; n--) {
		if (read_def(x, &d))
			return -1;
		if (d.enc == EVENTHEADER_ENC_STRUCT)
			n += d.fmt;
	}
	return 0;
}

/* An array or sequence of one value per element (not text): byte arrays as readers keep them. */
static int byte_elements(const struct model_fc *fc)
{
	const struct model_fc *e = fc->u.arr.elem;

	return !fc->is_text && e && (e->kind == MODEL_FC_INT || e->kind == MODEL_FC_ENUM);
}

/* One value (or one struct) of definition @d from class @fc and values *@v. */
static int encode_one(struct encode *x, const struct def *d, const struct model_fc *fc,
		      const struct model_value **v)
{
	const struct model_value *val = *v;
	unsigned int bytes;
	uint32_t i, n;
	size_t at;

	switch (d->enc) {
	case EVENTHEADER_ENC_STRUCT:
		/* from its member definitions, again for each element of an array */
		if (fc->kind != MODEL_FC_STRUCT || x->depth == EVENTHEADER_NEST_MAX || !d->fmt)
			return -1;
		x->pos = (uint16_t) d->members_pos;
		x->depth++;
		if (encode_members(x, d->fmt, fc, v))
			return -1;
		x->depth--;
		return 0;
	case EVENTHEADER_ENC_VALUE8:
	case EVENTHEADER_ENC_VALUE16:
	case EVENTHEADER_ENC_VALUE32:
	case EVENTHEADER_ENC_VALUE64:
		bytes = 1u << (d->enc - EVENTHEADER_ENC_VALUE8);
		if (fc->kind == MODEL_FC_FLOAT) {
			if (bytes == 4) {
				float f = (float) val->v.d;
				uint32_t b;

				memcpy(&b, &f, sizeof(b));
				put_uint(x, b, 4, x->order);
			} else {
				uint64_t b;

				memcpy(&b, &val->v.d, sizeof(b));
				put_uint(x, b, 8, x->order);
			}
		} else if (fc->kind == MODEL_FC_INT || fc->kind == MODEL_FC_ENUM) {
			enum tk_byte_order order = x->order;

			if ((d->fmt == EVENTHEADER_FMT_PORT && bytes == 2) ||
			    ((d->fmt == EVENTHEADER_FMT_IP_ADDRESS ||
			      d->fmt == EVENTHEADER_FMT_IP_ADDRESS_OBSOLETE) &&
			     bytes == 4))
				order = TK_BYTE_ORDER_BE;
			put_uint(x, val->v.u, bytes, order);
		} else {
			return -1;
		}
		*v = val + 1;
		return 0;
	case EVENTHEADER_ENC_VALUE128:
		if (fc->kind != MODEL_FC_ARRAY || !byte_elements(fc) || val->n != 16)
			return -1;
		for (i = 0; i < 16; i++)
			put_uint(x, val[1 + i].v.u, 1, x->order);
		*v = val + 17;
		return 0;
	case EVENTHEADER_ENC_ZSTRING_CHAR8:
	case EVENTHEADER_ENC_ZSTRING_CHAR16:
	case EVENTHEADER_ENC_ZSTRING_CHAR32:
		if (fc->kind != MODEL_FC_STRING && !fc->is_text)
			return -1;
		bytes = 1u << (d->enc - EVENTHEADER_ENC_ZSTRING_CHAR8);
		put_text(x, val->v.s, val->n, bytes);
		put_uint(x, 0, bytes, x->order);
		*v = val + 1;
		return 0;
	case EVENTHEADER_ENC_STRING16_CHAR8:
	case EVENTHEADER_ENC_STRING16_CHAR16:
	case EVENTHEADER_ENC_STRING16_CHAR32:
	case EVENTHEADER_ENC_BINARY16_CHAR8:
		bytes = d->enc == EVENTHEADER_ENC_BINARY16_CHAR8
				? 1
				: 1u << (d->enc - EVENTHEADER_ENC_STRING16_CHAR8);
		at = x->out->len;
		put_uint(x, 0, 2, x->order); /* the count, known once written */
		if (fc->kind == MODEL_FC_STRING || fc->is_text) {
			n = put_text(x, val->v.s, val->n, bytes);
			*v = val + 1;
		} else if ((fc->kind == MODEL_FC_SEQUENCE || fc->kind == MODEL_FC_ARRAY) &&
			   byte_elements(fc) && val->n <= 0xFFFF) {
			n = (uint32_t) val->n;
			for (i = 0; i < n; i++)
				put_uint(x, val[1 + i].v.u, 1, x->order);
			*v = val + 1 + n;
		} else {
			return -1;
		}
		if (n > 0xFFFF || x->bad)
			return -1;
		tk_store_u16((uint8_t *) x->out->data + at, (uint16_t) n, x->order);
		return 0;
	default:
		return -1;
	}
}

/* The @n member definitions from x->pos on, against the members of @st. */
static int encode_members(struct encode *x, unsigned int n, const struct model_fc *st,
			  const struct model_value **v)
{
	uint32_t m = 0, i;

	for (; n && x->pos != x->size; n--) {
		struct def d;
		const struct model_fc *fc;

		if (read_def(x, &d))
			return -1;
		if (m == st->u.st.count)
			return -1;
		fc = st->u.st.members[m].fc;
		/* a reader's own length member before a sequence */
		if ((d.flags == EVENTHEADER_ENC_VARRAY ||
		     (!d.flags && d.enc >= EVENTHEADER_ENC_STRING16_CHAR8)) &&
		    fc->kind == MODEL_FC_INT && m + 1 < st->u.st.count) {
			*v = model_value_skip(fc, *v);
			fc = st->u.st.members[++m].fc;
		}
		m++;
		if (!d.flags) {
			if (encode_one(x, &d, fc, v))
				return -1;
		} else {
			const struct model_value *len = *v;

			if ((fc->kind != MODEL_FC_ARRAY && fc->kind != MODEL_FC_SEQUENCE) ||
			    len->n > 0xFFFF)
				return -1;
			if (d.flags == EVENTHEADER_ENC_VARRAY)
				put_uint(x, len->n, 2, x->order);
			else if (len->n != d.count)
				return -1;
			*v = len + 1;
			/* an empty array of structs: its member definitions passed over */
			if (d.enc == EVENTHEADER_ENC_STRUCT && !len->n && skip_defs(x, d.fmt))
				return -1;
			for (i = 0; i < len->n; i++)
				if (encode_one(x, &d, fc->u.arr.elem, v))
					return -1;
		}
		if (x->bad)
			return -1;
	}
	return m == st->u.st.count ? 0 : -1;
}

static int hex_byte(const char *p, uint8_t *out)
{
	int hi = tk_hex_value((unsigned char) p[0]),
	    lo = hi < 0 ? -1 : tk_hex_value((unsigned char) p[1]);

	if (lo < 0)
		return -1;
	*out = (uint8_t) (hi << 4 | lo);
	return 0;
}

/* The values of context member @name of @ev, or NULL. */
static const struct model_value *context_value(const struct tk_event *ev, const char *name,
					       const struct model_fc **fc)
{
	const struct model_fc *st = ev->ec->context;
	const struct model_value *v = ev->scope[MODEL_SCOPE_EVENT_CONTEXT];
	uint32_t i;

	if (!st || !v || st->kind != MODEL_FC_STRUCT)
		return NULL;
	for (i = 0; i < st->u.st.count; i++) {
		if (!strcmp(st->u.st.members[i].name, name)) {
			*fc = st->u.st.members[i].fc;
			return v;
		}
		v = model_value_skip(st->u.st.members[i].fc, v);
	}
	return NULL;
}

static uint64_t context_uint(const struct tk_event *ev, const char *name)
{
	const struct model_fc *fc;
	const struct model_value *v = context_value(ev, name, &fc);

	return v && (fc->kind == MODEL_FC_INT || fc->kind == MODEL_FC_ENUM) ? v->v.u : 0;
}

/* Context member @name, 16 bytes, into @out; 0, or -1 when the event has none. */
static int context_id(const struct tk_event *ev, const char *name, uint8_t *out)
{
	const struct model_fc *fc;
	const struct model_value *v = context_value(ev, name, &fc);
	unsigned int i;

	if (!v || fc->kind != MODEL_FC_ARRAY || fc->is_text || v->n != 16)
		return -1;
	for (i = 0; i < 16; i++)
		out[i] = (uint8_t) v[1 + i].v.u;
	return 0;
}

enum tk_status eventheader_model_event(const struct tk_event *ev, struct vec *out,
				       const char **tp_name, size_t *tp_name_len)
{
	const char *uri = ev->ec->emf_uri, *q, *meta;
	struct encode x;
	uint8_t ids[32], flags;
	unsigned int n_ids = 0;
	size_t meta_size, i, meta_at;
	const struct model_value *v = ev->scope[MODEL_SCOPE_PAYLOAD];
	const size_t scheme = sizeof(EVENTHEADER_URI_SCHEME) - 1;

	out->len = 0;
	if (!uri || strncmp(uri, EVENTHEADER_URI_SCHEME, scheme) ||
	    !(q = strstr(uri + scheme, "?flags=0x")) || hex_byte(q + 9, &flags) ||
	    strncmp(q + 11, "&meta=", 6))
		return TK_FAIL(TK_ERR_UNSUPPORTED, "Cannot write EventHeader event: reason=its "
						   "class keeps no EventHeader metadata");
	*tp_name = uri + scheme;
	*tp_name_len = (size_t) (q - *tp_name);
	meta = q + 17;
	meta_size = strlen(meta) / 2;
	if (!context_id(ev, "activity_id", ids))
		n_ids = context_id(ev, "related_activity_id", ids + 16) ? 1 : 2;
	if (meta_size > 0xFFFF || vec_reserve(out, 1, 8 + 4 + meta_size + 4 + 32))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write EventHeader event");
	x = (struct encode){out,
			    NULL,
			    (uint16_t) meta_size,
			    0,
			    (flags & EVENTHEADER_FLAG_LITTLE_ENDIAN) ? TK_BYTE_ORDER_LE
								     : TK_BYTE_ORDER_BE,
			    0,
			    0};
	put_uint(&x, flags | EVENTHEADER_FLAG_EXTENSION, 1, x.order);
	put_uint(&x, context_uint(ev, "version"), 1, x.order);
	put_uint(&x, context_uint(ev, "id"), 2, x.order);
	put_uint(&x, context_uint(ev, "tag"), 2, x.order);
	put_uint(&x, context_uint(ev, "opcode"), 1, x.order);
	put_uint(&x, context_uint(ev, "level"), 1, x.order);
	put_uint(&x, meta_size, 2, x.order);
	put_uint(&x, EVENTHEADER_EXT_METADATA | (n_ids ? EVENTHEADER_EXT_CHAIN : 0), 2, x.order);
	meta_at = out->len;
	for (i = 0; i < meta_size; i++) {
		uint8_t b;

		if (hex_byte(meta + 2 * i, &b))
			return TK_FAIL(TK_ERR_FORMAT, "Cannot write EventHeader event: reason="
						      "its class's metadata is not hex");
		put_uint(&x, b, 1, x.order);
	}
	if (n_ids) {
		put_uint(&x, 16 * n_ids, 2, x.order);
		put_uint(&x, EVENTHEADER_EXT_ACTIVITY_ID, 2, x.order);
		put_bytes(&x, ids, 16 * n_ids);
	}
	x.m = (const uint8_t *) out->data + meta_at;
	x.pos = (uint16_t) (strnlen((const char *) x.m, meta_size) + 1);
	/* the payload; the metadata moves with @out's growth: found again by offset */
	if (x.pos > meta_size || !v || !ev->ec->payload ||
	    ev->ec->payload->kind != MODEL_FC_STRUCT) {
		x.bad = 1;
	} else {
		struct vec payload = VEC_INIT;
		struct encode y = x;

		y.out = &payload;
		y.m = (const uint8_t *) out->data + meta_at;
		if (encode_members(&y, 255, ev->ec->payload, &v) || y.pos != y.size)
			y.bad = 1;
		if (!y.bad)
			put_bytes(&x, payload.data, payload.len);
		x.bad |= y.bad;
		vec_fini(&payload);
	}
	if (x.bad)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot write EventHeader event: reason=its values do "
			       "not match its metadata");
	return TK_OK;
}

enum tk_status eventheader_model_json(const struct tk_event *ev,
				      const struct eventheader_sample *sample,
				      unsigned int json_flags, struct vec *scratch, struct vec *out)
{
	struct eventheader_enum e;
	const char *tp;
	size_t tp_len;
	enum tk_status st = eventheader_model_event(ev, scratch, &tp, &tp_len);

	if (st < 0)
		return st;
	st = eventheader_start(&e, tp, tp_len, scratch->data, scratch->len,
			       EVENTHEADER_MOVE_NEXT_LIMIT);
	if (st < 0)
		return st;
	return eventheader_json_sample_event(out, &e, sample, json_flags, EVENTHEADER_META_DEFAULT);
}
