// SPDX-License-Identifier: MIT
/*
 * The EventHeader enumerator: checks an event's header, tracepoint name and extensions, then
 * walks its fields one item per call. It exists so that every container of user_events
 * records (perf.data, trace.dat, CTF) decodes EventHeader the same way, with the limits of the
 * reference decoder (8 struct levels, a bound on items per event) and without reading past
 * the caller's bytes: every length is checked against what is left before it is used.
 *
 * The walk follows the metadata: a struct's member definitions come right after the struct's
 * own, and are read again for each element of an array of structs; an array of structs with
 * no element skips them. Rules from ../shared/reference/eventheader.md, sections 2 to 4.
 */
#include <string.h>

#include "../common/error.h"
#include "eventheader.h"

/* What eventheader_next() does from the current item. */
enum step {
	STEP_NONE,
	STEP_FIRST,	   /* before the first item */
	STEP_SCALAR,	   /* after a value outside arrays */
	STEP_SIMPLE_ELEM,  /* after a fixed-size array element */
	STEP_COMPLEX_ELEM, /* after a string element */
	STEP_ARRAY_BEGIN,
	STEP_ARRAY_END,
	STEP_STRUCT_BEGIN,
	STEP_STRUCT_END,
	STEP_DONE,
};

static const char *const error_reason[] = {
	[EVENTHEADER_ERROR_NONE] = "none",
	[EVENTHEADER_ERROR_INVALID_PARAMETER] = "size",
	[EVENTHEADER_ERROR_NOT_SUPPORTED] = "not-supported",
	[EVENTHEADER_ERROR_INVALID_DATA] = "invalid-data",
	[EVENTHEADER_ERROR_LIMIT] = "move-limit",
	[EVENTHEADER_ERROR_NEST] = "nesting",
};

static enum tk_status status_of(enum eventheader_error err)
{
	return err == EVENTHEADER_ERROR_NOT_SUPPORTED || err == EVENTHEADER_ERROR_LIMIT ||
			       err == EVENTHEADER_ERROR_NEST
		       ? TK_ERR_UNSUPPORTED
		       : TK_ERR_FORMAT;
}

/* A failure of eventheader_start(): no event. */
static enum tk_status start_fail(struct eventheader_enum *e, enum eventheader_error err,
				 const char *what)
{
	e->state = EVENTHEADER_STATE_NONE;
	e->step = STEP_NONE;
	e->error = err;
	return TK_FAIL(status_of(err), "Cannot start EventHeader event: reason=%s, detail=%s",
		       error_reason[err], what);
}

/* A failure while walking the fields: the items before it stand. */
static enum tk_status walk_fail(struct eventheader_enum *e, enum eventheader_error err,
				const char *what)
{
	e->state = EVENTHEADER_STATE_ERROR;
	e->step = STEP_NONE;
	e->error = err;
	return TK_FAIL(status_of(err),
		       "Cannot read EventHeader field: reason=%s, detail=%s, payload-offset=%u, "
		       "metadata-offset=%u",
		       error_reason[err], what, e->pos_raw, e->top.name_off);
}

/* Lowercase hex digits from @p up to @end, into @v (wrapping, as the reference does). */
static const char *hex_lower(const char *p, const char *end, uint64_t *v)
{
	uint64_t x = 0;

	for (; p != end; p++) {
		if (*p >= '0' && *p <= '9')
			x = (x << 4) + (uint64_t) (*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			x = (x << 4) + (uint64_t) (*p - 'a' + 10);
		else
			break;
	}
	*v = x;
	return p;
}

/*
 * The tracepoint name convention (reference section 5): the provider ends at the last '_',
 * then L<level in lowercase hex> equal to the header's level, K<keyword in lowercase hex>,
 * then options, each an uppercase letter and [0-9a-z]*. Returns NULL or what is wrong.
 */
static const char *parse_tp_name(struct eventheader_info *in)
{
	const char *name = in->tp_name, *end = name + in->tp_name_len, *p = end;
	uint64_t level;

	if (in->tp_name_len >= EVENTHEADER_NAME_MAX)
		return "tracepoint-name-too-long";
	if (memchr(name, 0, in->tp_name_len))
		return "tracepoint-name-has-nul";
	do {
		if (p == name)
			return "tracepoint-name-without-underscore";
		p--;
	} while (*p != '_');
	in->provider_len = (size_t) (p - name);
	p++;
	if (p == end || *p != 'L')
		return "tracepoint-name-without-level";
	p = hex_lower(p + 1, end, &level);
	if ((uint8_t) level != in->level) /* a u8, as the reference reads it */
		return "tracepoint-level-differs-from-header";
	if (p == end || *p != 'K')
		return "tracepoint-name-without-keyword";
	p = hex_lower(p + 1, end, &in->keyword);
	in->options_off = (size_t) (p - name);
	while (p != end) {
		if (*p < 'A' || *p > 'Z')
			return "tracepoint-name-bad-option";
		for (p++; p != end && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z')); p++)
			;
	}
	return NULL;
}

enum tk_status eventheader_start(struct eventheader_enum *e, const char *tp_name,
				 size_t tp_name_len, const void *data, size_t size,
				 uint32_t move_next_limit)
{
	const uint8_t *p = data;
	struct eventheader_info *in = &e->info;
	const char *bad;
	size_t pos = EVENTHEADER_HEADER_SIZE, name_size;

	memset(in, 0, sizeof(*in));
	e->meta = NULL;
	e->meta_size = 0;
	if (size < EVENTHEADER_HEADER_SIZE || size > 0x7FFFFFFF)
		return start_fail(e, EVENTHEADER_ERROR_INVALID_PARAMETER, "event-size");
	in->flags = p[0];
	if (in->flags & ~(EVENTHEADER_FLAG_POINTER64 | EVENTHEADER_FLAG_LITTLE_ENDIAN |
			  EVENTHEADER_FLAG_EXTENSION))
		return start_fail(e, EVENTHEADER_ERROR_NOT_SUPPORTED, "unknown-flags");
	in->order =
		(in->flags & EVENTHEADER_FLAG_LITTLE_ENDIAN) ? TK_BYTE_ORDER_LE : TK_BYTE_ORDER_BE;
	in->version = p[1];
	in->id = tk_load_u16(p + 2, in->order);
	in->tag = tk_load_u16(p + 4, in->order);
	in->opcode = p[6];
	in->level = p[7];
	in->tp_name = tp_name;
	in->tp_name_len = tp_name_len;
	bad = parse_tp_name(in);
	if (bad)
		return start_fail(e, EVENTHEADER_ERROR_NOT_SUPPORTED, bad);

	if (in->flags & EVENTHEADER_FLAG_EXTENSION) {
		uint16_t ext_size, kind;

		do {
			if (size - pos < 4)
				return start_fail(e, EVENTHEADER_ERROR_INVALID_DATA,
						  "extension-header-truncated");
			ext_size = tk_load_u16(p + pos, in->order);
			kind = tk_load_u16(p + pos + 2, in->order);
			pos += 4;
			if (size - pos < ext_size)
				return start_fail(e, EVENTHEADER_ERROR_INVALID_DATA,
						  "extension-truncated");
			switch (kind & EVENTHEADER_EXT_KIND_MASK) {
			case 0:
				return start_fail(e, EVENTHEADER_ERROR_INVALID_DATA,
						  "extension-kind-0");
			case EVENTHEADER_EXT_METADATA:
				if (e->meta)
					return start_fail(e, EVENTHEADER_ERROR_INVALID_DATA,
							  "second-metadata");
				e->meta = p + pos;
				e->meta_size = ext_size;
				break;
			case EVENTHEADER_EXT_ACTIVITY_ID:
				if (in->activity_id || (ext_size != 16 && ext_size != 32))
					return start_fail(e, EVENTHEADER_ERROR_INVALID_DATA,
							  "bad-activity-id");
				in->activity_id = p + pos;
				in->related_id = ext_size == 32 ? p + pos + 16 : NULL;
				break;
			default: /* kinds this decoder does not know are skipped */
				break;
			}
			pos += ext_size;
		} while (kind & EVENTHEADER_EXT_CHAIN);
	}
	if (!e->meta)
		return start_fail(e, EVENTHEADER_ERROR_NOT_SUPPORTED, "no-metadata");
	name_size = strnlen((const char *) e->meta, e->meta_size);
	if (name_size == e->meta_size)
		return start_fail(e, EVENTHEADER_ERROR_INVALID_DATA, "event-name-unterminated");
	in->name = (const char *) e->meta;
	in->name_len = name_size;

	e->data = p + pos;
	e->data_size = (uint32_t) (size - pos);
	e->pos_raw = e->pos_value = 0;
	e->size_raw = e->size_value = 0;
	e->element_size = 0;
	e->moves_left = move_next_limit;
	e->depth = 0;
	memset(&e->top, 0, sizeof(e->top));
	e->top.next_off = (uint16_t) (name_size + 1);
	e->top.remaining = 255; /* top level: until the end of the metadata (255 at most) */
	e->state = EVENTHEADER_STATE_BEFORE_FIRST;
	e->step = STEP_FIRST;
	e->error = EVENTHEADER_ERROR_NONE;
	return TK_OK;
}

/*
 * Read a field definition's type bytes at metadata offset @pos: encoding, then the format
 * when the encoding's chain bit is set, then the tag when the format's is. Sets
 * top.next_off past them. Returns -1 when the metadata ends inside them, or when the
 * encoding is 0 with no array flag (the reference decoder rejects it while reading the
 * definition, even among the skipped members of an empty array of structs).
 */
static int read_type(struct eventheader_enum *e, uint16_t pos, uint8_t *enc, uint8_t *fmt,
		     uint16_t *tag)
{
	uint8_t en = e->meta[pos++], fm = 0;
	uint16_t tg = 0;

	if (en & EVENTHEADER_ENC_CHAIN) {
		if (pos == e->meta_size)
			return -1;
		fm = e->meta[pos++];
		if (fm & EVENTHEADER_FMT_CHAIN) {
			if (e->meta_size - pos < 2)
				return -1;
			tg = tk_load_u16(e->meta + pos, e->info.order);
			pos += 2;
		}
	}
	e->top.next_off = pos;
	if ((en & (uint8_t) ~EVENTHEADER_ENC_CHAIN) == EVENTHEADER_ENC_INVALID)
		return -1; /* encoding 0 without array flags: damage, as in the reference */
	*enc = en & (uint8_t) ~EVENTHEADER_ENC_CHAIN;
	*fmt = fm & (uint8_t) ~EVENTHEADER_FMT_CHAIN;
	*tag = tg;
	return 0;
}

/* The definition at top.name_off: its name (NUL-terminated) and type. */
static int read_definition(struct eventheader_enum *e, uint8_t *enc, uint8_t *fmt, uint16_t *tag)
{
	uint16_t pos = e->top.name_off;
	size_t len = strnlen((const char *) e->meta + pos, (size_t) (e->meta_size - pos));

	if ((size_t) (e->meta_size - pos) - len < 2) /* the NUL and the encoding byte */
		return -1;
	e->top.name_len = (uint16_t) len;
	return read_type(e, (uint16_t) (pos + len + 1), enc, fmt, tag);
}

static void set_state(struct eventheader_enum *e, enum eventheader_state state, enum step step)
{
	e->state = state;
	e->step = (uint8_t) step;
}

/* An item without a value of its own (array and struct ends, the end of the event). */
static void set_end_state(struct eventheader_enum *e, enum eventheader_state state, enum step step)
{
	e->pos_value = e->pos_raw;
	e->size_raw = 0;
	e->size_value = 0;
	set_state(e, state, step);
}

static void start_struct(struct eventheader_enum *e)
{
	e->element_size = 0;
	e->size_raw = 0;
	e->pos_value = e->pos_raw;
	e->size_value = 0;
	set_state(e, EVENTHEADER_STATE_STRUCT_BEGIN, STEP_STRUCT_BEGIN);
}

/* Count the code units of @unit bytes before the first zero unit (or all that are left). */
static uint32_t zstring_units(const uint8_t *p, uint32_t left, unsigned int unit)
{
	uint32_t n, max = left / unit;
	unsigned int i;

	for (n = 0; n < max; n++) {
		const uint8_t *u = p + (size_t) n * unit;
		unsigned int nz = 0;

		for (i = 0; i < unit; i++)
			nz |= u[i];
		if (!nz)
			break;
	}
	return n;
}

/* The current value's extent (a scalar or one element), checked against the payload. */
static enum tk_status start_value(struct eventheader_enum *e)
{
	uint32_t left = e->data_size - e->pos_raw;
	const uint8_t *p = e->data + e->pos_raw;
	uint8_t enc = e->top.encoding;
	unsigned int unit;

	e->pos_value = e->pos_raw;
	e->element_size = 0;
	switch (enc) {
	case EVENTHEADER_ENC_VALUE8:
	case EVENTHEADER_ENC_VALUE16:
	case EVENTHEADER_ENC_VALUE32:
	case EVENTHEADER_ENC_VALUE64:
	case EVENTHEADER_ENC_VALUE128:
		e->element_size = (uint8_t) (1u << (enc - EVENTHEADER_ENC_VALUE8));
		e->size_raw = e->size_value = e->element_size;
		break;
	case EVENTHEADER_ENC_ZSTRING_CHAR8:
	case EVENTHEADER_ENC_ZSTRING_CHAR16:
	case EVENTHEADER_ENC_ZSTRING_CHAR32:
		unit = 1u << (enc - EVENTHEADER_ENC_ZSTRING_CHAR8);
		e->size_value = zstring_units(p, left, unit) * unit;
		e->size_raw = e->size_value + unit; /* past the end when unterminated */
		break;
	case EVENTHEADER_ENC_STRING16_CHAR8:
	case EVENTHEADER_ENC_STRING16_CHAR16:
	case EVENTHEADER_ENC_STRING16_CHAR32:
	case EVENTHEADER_ENC_BINARY16_CHAR8:
		unit = enc == EVENTHEADER_ENC_BINARY16_CHAR8
			       ? 1
			       : 1u << (enc - EVENTHEADER_ENC_STRING16_CHAR8);
		if (left < 2) {
			e->size_raw = 2;
			break;
		}
		e->pos_value = e->pos_raw + 2;
		e->size_value = (uint32_t) tk_load_u16(p, e->info.order) * unit;
		e->size_raw = e->size_value + 2;
		break;
	default:
		e->size_raw = e->size_value = 0;
		return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA, "bad-encoding");
	}
	if (left < e->size_raw) {
		e->size_raw = e->size_value = 0;
		return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA, "value-truncated");
	}
	return TK_OK;
}

/* ARRAY_BEGIN of the field just read; fixed-size elements are checked all at once. */
static enum tk_status start_array(struct eventheader_enum *e)
{
	struct eventheader_frame *t = &e->top;
	uint32_t bytes;

	e->element_size = 0;
	e->size_raw = 0;
	e->pos_value = e->pos_raw;
	e->size_value = 0;
	set_state(e, EVENTHEADER_STATE_ARRAY_BEGIN, STEP_ARRAY_BEGIN);
	switch (t->encoding) {
	case EVENTHEADER_ENC_VALUE8:
	case EVENTHEADER_ENC_VALUE16:
	case EVENTHEADER_ENC_VALUE32:
	case EVENTHEADER_ENC_VALUE64:
	case EVENTHEADER_ENC_VALUE128:
		e->element_size = (uint8_t) (1u << (t->encoding - EVENTHEADER_ENC_VALUE8));
		break;
	case EVENTHEADER_ENC_STRUCT:
	case EVENTHEADER_ENC_ZSTRING_CHAR8:
	case EVENTHEADER_ENC_ZSTRING_CHAR16:
	case EVENTHEADER_ENC_ZSTRING_CHAR32:
	case EVENTHEADER_ENC_STRING16_CHAR8:
	case EVENTHEADER_ENC_STRING16_CHAR16:
	case EVENTHEADER_ENC_STRING16_CHAR32:
	case EVENTHEADER_ENC_BINARY16_CHAR8:
		return TK_OK;
	case EVENTHEADER_ENC_INVALID:
		return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA, "array-of-encoding-0");
	default:
		return walk_fail(e, EVENTHEADER_ERROR_NOT_SUPPORTED, "array-of-unknown-encoding");
	}
	bytes = (uint32_t) e->element_size * t->array_count;
	if (e->data_size - e->pos_raw < bytes)
		return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA, "array-truncated");
	e->size_raw = e->size_value = bytes;
	return TK_OK;
}

/* Past the member definitions of an array of structs that had no element. */
static enum tk_status skip_struct_definitions(struct eventheader_enum *e)
{
	uint32_t left = e->top.format;
	uint8_t enc, fmt;
	uint16_t tag;

	for (; left != 0 && e->top.next_off != e->meta_size; left--) {
		e->top.name_off = e->top.next_off;
		if (read_definition(e, &enc, &fmt, &tag))
			return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA, "metadata-truncated");
		if ((enc & EVENTHEADER_ENC_VALUE_MASK) == EVENTHEADER_ENC_STRUCT)
			left += fmt;
		if (enc & EVENTHEADER_ENC_CARRAY) {
			if (enc & EVENTHEADER_ENC_VARRAY)
				return walk_fail(e, EVENTHEADER_ERROR_NOT_SUPPORTED,
						 "both-array-flags");
			if (e->meta_size - e->top.next_off < 2)
				return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA,
						 "array-count-truncated");
			e->top.next_off += 2;
		}
	}
	return TK_OK;
}

/*
 * The next field definition at this level, or the end of the enclosing struct (popping a
 * frame), or the end of the event. A struct element that is not its array's last leaves
 * the parent's next_off at the member definitions, to be read again for the next element.
 */
static enum tk_status next_field(struct eventheader_enum *e)
{
	struct eventheader_frame *t = &e->top;
	uint8_t enc, fmt, flags;
	uint16_t tag, child_next;

	if (t->remaining != 0 && t->next_off != e->meta_size) {
		t->remaining--;
		t->array_index = 0;
		t->name_off = t->next_off;
		if (read_definition(e, &enc, &fmt, &tag))
			return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA, "metadata-truncated");
		t->encoding = enc & EVENTHEADER_ENC_VALUE_MASK;
		t->format = fmt;
		t->tag = tag;
		flags = enc & (EVENTHEADER_ENC_CARRAY | EVENTHEADER_ENC_VARRAY);
		if (flags == 0) {
			t->array_count = 1;
			t->array_flags = 0;
			if (t->encoding != EVENTHEADER_ENC_STRUCT) {
				set_state(e, EVENTHEADER_STATE_VALUE, STEP_SCALAR);
				return start_value(e);
			}
			if (fmt == 0)
				return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA,
						 "struct-without-members");
			start_struct(e);
			return TK_OK;
		}
		if (flags == EVENTHEADER_ENC_VARRAY) {
			if (e->data_size - e->pos_raw < 2)
				return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA,
						 "array-count-truncated");
			t->array_count = tk_load_u16(e->data + e->pos_raw, e->info.order);
			e->pos_raw += 2;
		} else if (flags == EVENTHEADER_ENC_CARRAY) {
			if (e->meta_size - t->next_off < 2)
				return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA,
						 "array-count-truncated");
			t->array_count = tk_load_u16(e->meta + t->next_off, e->info.order);
			t->next_off += 2;
			if (t->array_count == 0)
				return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA,
						 "constant-array-of-0");
		} else {
			return walk_fail(e, EVENTHEADER_ERROR_NOT_SUPPORTED, "both-array-flags");
		}
		t->array_flags = flags;
		return start_array(e);
	}
	if (e->depth != 0) {
		child_next = t->next_off;
		*t = e->stack[--e->depth];
		e->element_size = 0;
		if (t->array_index + 1 == t->array_count)
			t->next_off = child_next;
		set_end_state(e, EVENTHEADER_STATE_STRUCT_END, STEP_STRUCT_END);
		return TK_OK;
	}
	if (t->next_off != e->meta_size)
		return walk_fail(e, EVENTHEADER_ERROR_NOT_SUPPORTED, "more-than-255-fields");
	set_end_state(e, EVENTHEADER_STATE_AFTER_LAST, STEP_DONE);
	return TK_END;
}

enum tk_status eventheader_next(struct eventheader_enum *e)
{
	struct eventheader_frame *t = &e->top;

	switch (e->state) {
	case EVENTHEADER_STATE_NONE:
		TK_ASSERT_PRE(e->state != EVENTHEADER_STATE_NONE);
		return TK_ERR_INVAL;
	case EVENTHEADER_STATE_ERROR:
		return status_of(e->error);
	case EVENTHEADER_STATE_AFTER_LAST:
		return TK_END;
	default:
		break;
	}
	if (e->moves_left == 0)
		return walk_fail(e, EVENTHEADER_ERROR_LIMIT, "too-many-items");
	e->moves_left--;

	switch ((enum step) e->step) {
	case STEP_FIRST:
		return next_field(e);
	case STEP_SCALAR:
		e->pos_raw += e->size_raw;
		return next_field(e);
	case STEP_SIMPLE_ELEM:
		e->pos_raw += e->size_raw;
		if (++t->array_index == t->array_count)
			set_end_state(e, EVENTHEADER_STATE_ARRAY_END, STEP_ARRAY_END);
		else
			e->pos_value = e->pos_raw;
		return TK_OK;
	case STEP_COMPLEX_ELEM:
		e->pos_raw += e->size_raw;
		if (++t->array_index == t->array_count) {
			set_end_state(e, EVENTHEADER_STATE_ARRAY_END, STEP_ARRAY_END);
			return TK_OK;
		}
		return start_value(e);
	case STEP_ARRAY_BEGIN:
		if (t->array_count == 0) {
			set_end_state(e, EVENTHEADER_STATE_ARRAY_END, STEP_ARRAY_END);
			return TK_OK;
		}
		if (e->element_size) {
			e->size_raw = e->size_value = e->element_size;
			e->pos_value = e->pos_raw;
			set_state(e, EVENTHEADER_STATE_VALUE, STEP_SIMPLE_ELEM);
			return TK_OK;
		}
		if (t->encoding != EVENTHEADER_ENC_STRUCT) {
			set_state(e, EVENTHEADER_STATE_VALUE, STEP_COMPLEX_ELEM);
			return start_value(e);
		}
		start_struct(e);
		return TK_OK;
	case STEP_ARRAY_END:
		if (t->encoding == EVENTHEADER_ENC_STRUCT && t->array_count == 0) {
			enum tk_status st = skip_struct_definitions(e);

			if (st < 0)
				return st;
		}
		return next_field(e);
	case STEP_STRUCT_BEGIN:
		if (e->depth == EVENTHEADER_NEST_MAX)
			return walk_fail(e, EVENTHEADER_ERROR_NEST, "structs-nested-too-deep");
		e->stack[e->depth++] = *t;
		t->remaining = t->format;
		return next_field(e);
	case STEP_STRUCT_END:
		if (++t->array_index != t->array_count) {
			start_struct(e);
			return TK_OK;
		}
		if (t->array_flags) {
			set_end_state(e, EVENTHEADER_STATE_ARRAY_END, STEP_ARRAY_END);
			return TK_OK;
		}
		return next_field(e);
	default:
		return walk_fail(e, EVENTHEADER_ERROR_INVALID_DATA, "bad-state");
	}
}

void eventheader_item_get(const struct eventheader_enum *e, struct eventheader_item *out)
{
	const struct eventheader_frame *t = &e->top;

	out->name = (const char *) e->meta + t->name_off;
	out->name_len = t->name_len;
	out->value = e->data + e->pos_value;
	out->value_size = e->size_value;
	out->array_index = t->array_index;
	out->array_count = t->array_count;
	out->element_size = e->element_size;
	out->encoding = t->encoding;
	out->format = t->format;
	out->array_flags = t->array_flags;
	out->tag = t->tag;
}
