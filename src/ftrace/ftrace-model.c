// SPDX-License-Identifier: MIT
/*
 * ftrace event formats and records in the trace model (ftrace-model.h): what the babeltrace
 * style, the JSON, Chrome and CSV sinks, the converters and field predicates see of an ftrace
 * event, whichever container brought it (trace.dat today; perf.data tracepoint samples hold
 * the same records). Containers keep what is theirs -- buffers, CPUs, clocks, pages -- and
 * call these per format and per record.
 */
#include <string.h>

#include "../common/error.h"
#include "ftrace-model.h"

/* ---- field classes ------------------------------------------------------------------------ */

struct model_fc *ftrace_model_int_fc(struct arena *a, uint32_t bytes, int is_signed, int hex,
				     enum tk_byte_order bo)
{
	return model_int_fc(a, bytes * 8, is_signed, hex ? 16 : 10, bo);
}

/* The element size of an array field as decoded: its own when 1, 2, 4 or 8 bytes, else 1. */
static uint32_t elem_size(const struct ftrace_field *f)
{
	uint32_t esize = f->elemsize;

	return esize == 1 || esize == 2 || esize == 4 || esize == 8 ? esize : 1;
}

/*
 * How a field is shown, the same for the model and for the trace.dat-to-CTF shortcut
 * (src/pipeline/dat-to-ctf.c), so that both paths give the same CTF trace.
 */
enum shape {
	SHAPE_INT,   /* an integer of 1, 2, 4 or 8 bytes (pointers in hex) */
	SHAPE_ZERO,  /* "u32 buf; size:0" of old bprint formats: no bytes, an 8-bit 0 */
	SHAPE_TEXT,  /* char arrays, __data_loc strings, print's flexible text */
	SHAPE_ARRAY, /* a fixed array of integers; u8 and s8 arrays: bytes, in hex */
	SHAPE_SEQ,   /* dynamic and flexible arrays; kernel_stack's frames, to the end */
	SHAPE_BYTES, /* a scalar of another size: its bytes, in hex */
};

static enum shape shape_of(const struct ftrace_event *ev, const struct ftrace_field *f)
{
	if (ftrace_field_text(f) && !ftrace_field_bytes(f))
		return SHAPE_TEXT;
	if (f->flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC))
		return (f->flags & FTRACE_FIELD_DYNAMIC) || ftrace_field_flexible(f) ||
				       ftrace_field_to_end(ev, f)
			       ? SHAPE_SEQ
			       : SHAPE_ARRAY;
	if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)
		return SHAPE_INT;
	return f->size ? SHAPE_BYTES : SHAPE_ZERO;
}

/*
 * The elements of a fixed array (SHAPE_ARRAY, of elem_size() bytes) or the bytes of an
 * odd-sized scalar (SHAPE_BYTES): the class's length, and the number of values every record
 * decodes to (model_fc_fixed_values() counts on it). What the brackets say, but never more
 * than the field's size holds: a damaged format may declare "x[98]" in 16 bytes.
 */
static uint32_t fixed_length(const struct ftrace_field *f, enum shape sh)
{
	uint32_t held;

	if (sh == SHAPE_BYTES)
		return f->size;
	held = f->size / elem_size(f);
	return f->arraylen < held ? f->arraylen : held;
}

/*
 * One format field, as shape_of() says: integers (pointers in hex), text, arrays (fixed) or
 * sequences (dynamic, flexible) of integers, bytes in hex (u8 arrays, odd-sized scalars, and
 * kernel_stack's frames).
 */
static struct model_fc *field_fc(struct arena *a, const struct ftrace_event *ev,
				 const struct ftrace_field *f, enum tk_byte_order bo)
{
	int is_signed = !!(f->flags & FTRACE_FIELD_SIGNED);
	int hex = !!(f->flags & FTRACE_FIELD_POINTER);
	enum shape sh = shape_of(ev, f);
	struct model_fc *fc, *elem;
	uint32_t esize;

	switch (sh) {
	case SHAPE_INT:
		return ftrace_model_int_fc(a, f->size, is_signed, hex, bo);
	case SHAPE_ZERO:
		return ftrace_model_int_fc(a, 1, is_signed, hex, bo);
	case SHAPE_TEXT:
		fc = arena_alloc(a, sizeof(*fc));
		if (!fc)
			return NULL;
		fc->kind = (f->flags & FTRACE_FIELD_DYNAMIC) || ftrace_field_flexible(f)
				   ? MODEL_FC_STRING
				   : MODEL_FC_ARRAY;
		fc->is_text = fc->kind == MODEL_FC_ARRAY;
		fc->encoding = MODEL_ENCODING_UTF8;
		fc->align = 8;
		fc->u.arr.length = f->arraylen;
		fc->u.arr.elem = fc->is_text ? ftrace_model_int_fc(a, 1, is_signed, 0, bo) : NULL;
		return fc->is_text && !fc->u.arr.elem ? NULL : fc;
	default:
		break;
	}
	esize = sh == SHAPE_BYTES ? 1 : elem_size(f);
	if (ftrace_field_bytes(f) || sh == SHAPE_BYTES || ftrace_field_to_end(ev, f))
		hex = 1; /* the hex bytes trace-cmd -R shows; frames */
	elem = ftrace_model_int_fc(a, esize, esize > 1 && is_signed, hex, bo);
	fc = arena_alloc(a, sizeof(*fc));
	if (!elem || !fc)
		return NULL;
	fc->kind = sh == SHAPE_SEQ ? MODEL_FC_SEQUENCE : MODEL_FC_ARRAY;
	fc->align = 8;
	fc->u.arr.elem = elem;
	fc->u.arr.length = sh == SHAPE_SEQ ? f->arraylen : fixed_length(f, sh);
	return fc;
}

/* Fields @first to @first + @n - 1 of @ev as a structure: its own fields, or the common ones. */
static struct model_fc *fields_fc(struct arena *a, const struct ftrace_event *ev, uint32_t first,
				  uint32_t n, enum tk_byte_order bo)
{
	struct model_fc *fc = arena_alloc(a, sizeof(*fc));
	uint32_t i;

	if (!fc)
		return NULL;
	fc->kind = MODEL_FC_STRUCT;
	fc->align = 8;
	fc->u.st.members = arena_alloc(a, (n + 1) * sizeof(*fc->u.st.members));
	if (!fc->u.st.members)
		return NULL;
	for (i = 0; i < n; i++) {
		const struct ftrace_field *f = &ev->fields[first + i];
		struct model_member *m = &fc->u.st.members[i];

		m->name = f->name;
		m->orig_name = f->name;
		m->fc = field_fc(a, ev, f, bo);
		if (!m->fc)
			return NULL;
	}
	fc->u.st.count = n;
	return fc;
}

static void class_names(const struct ftrace_event *fev, struct tk_event_class *ec)
{
	ec->name = fev->name;
	ec->system = fev->system;
	ec->id = fev->id;
	ec->fmt = (void *) fev;
}

void ftrace_model_event_class_declare(const struct ftrace_event *fev, struct tk_event_class *ec)
{
	class_names(fev, ec);
	ec->pending = 1;
}

enum tk_status ftrace_model_event_class(struct arena *a, const struct ftrace_ctx *ctx,
					struct ftrace_event *fev, struct tk_event_class *ec)
{
	ftrace_event_load(ctx, fev);
	class_names(fev, ec);
	ec->payload = fields_fc(a, fev, fev->n_common, fev->n_fields - fev->n_common, ctx->bo);
	ec->common = fev->n_common ? fields_fc(a, fev, 0, fev->n_common, ctx->bo) : NULL;
	if (!ec->payload || (fev->n_common && !ec->common))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot make event class: system=%s, name=%s",
			       fev->system, fev->name);
	return TK_OK;
}

/* The first format of @ctx with common fields: their layout, which every format shares. */
static const struct ftrace_event *common_format(const struct ftrace_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->n_events; i++) {
		ftrace_event_load(ctx, ctx->events[i]);
		if (ctx->events[i]->n_common)
			return ctx->events[i];
	}
	return NULL;
}

enum tk_status ftrace_model_unknown_class(struct arena *a, const struct ftrace_ctx *ctx,
					  struct tk_event_class *ec)
{
	const struct ftrace_event *ref = common_format(ctx);
	struct model_fc *seq = arena_alloc(a, sizeof(*seq));

	ec->name = NULL;
	ec->id = UINT64_MAX;
	ec->fmt = NULL;
	ec->common = ref ? fields_fc(a, ref, 0, ref->n_common, ctx->bo) : NULL;
	if (!seq || (ref && !ec->common))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot make the class of unknown events");
	seq->kind = MODEL_FC_SEQUENCE;
	seq->align = 8;
	seq->u.arr.elem = ftrace_model_int_fc(a, 1, 0, 1, ctx->bo);
	ec->payload = seq->u.arr.elem ? model_struct_of_one(a, "data", seq) : NULL;
	if (!ec->payload)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot make the class of unknown events");
	return TK_OK;
}

/* ---- values ------------------------------------------------------------------------------- */

/* Room for @n more values after the first @used; the usual case inline: it runs per field. */
static inline int room(struct vec *vals, size_t used, size_t n)
{
	if (TK_LIKELY(n <= vals->cap - used))
		return 0;
	vals->len = used;
	return vec_reserve(vals, sizeof(struct model_value), n);
}

/* The values of the first @n fields of @fev in @rec, from vals->len on (see ftrace_model_values()). */
static enum tk_status fields_values(const struct ftrace_ctx *ctx, const struct ftrace_event *fev,
				    uint32_t n, const uint8_t *rec, size_t size, struct vec *vals,
				    size_t *payload)
{
	size_t start = vals->len, nv = start;
	struct model_value *v;
	uint32_t i;

	*payload = start;
	for (i = 0; i < n; i++) {
		const struct ftrace_field *f = &fev->fields[i];
		int fits = f->offset <= size && f->size <= size - f->offset;
		uint32_t off, len, k, esize, read, j;

		if (i == fev->n_common)
			*payload = nv;
		enum shape sh = shape_of(fev, f);

		ftrace_field_span(ctx, f, sh == SHAPE_SEQ || ftrace_field_flexible(f), rec, size,
				  &off, &len);
		if (sh == SHAPE_TEXT) {
			if (room(vals, nv, 1))
				goto nomem;
			v = (struct model_value *) vals->data + nv++;
			/* a sample without its record (perf.data) has no bytes at all */
			v->v.s = len ? (const char *) rec + off : "";
			v->n = len ? strnlen((const char *) rec + off, len) : 0;
			continue;
		}
		if (sh == SHAPE_INT || sh == SHAPE_ZERO) {
			if (room(vals, nv, 1))
				goto nomem;
			v = (struct model_value *) vals->data + nv++;
			v->v.u = fits && sh == SHAPE_INT ? ftrace_field_u64(ctx, f, rec) : 0;
			continue;
		}
		/*
		 * A sequence has the elements its bytes hold; a fixed array always its class's
		 * length, read as 0 where the record is too short for the field.
		 */
		esize = sh == SHAPE_BYTES ? 1 : elem_size(f);
		k = sh == SHAPE_SEQ ? len / esize : fixed_length(f, sh);
		if (room(vals, nv, (size_t) k + 1))
			goto nomem;
		v = (struct model_value *) vals->data + nv;
		v[0].n = k;
		read = sh == SHAPE_SEQ || fits ? k : 0;
		for (j = 0; j < read; j++) {
			struct ftrace_field e = *f;

			e.offset = off + j * esize;
			e.size = esize;
			if (esize == 1) /* bytes, unsigned as their class says */
				e.flags &= ~(uint32_t) FTRACE_FIELD_SIGNED;
			v[1 + j].v.u = ftrace_field_u64(ctx, &e, rec);
		}
		for (; j < k; j++)
			v[1 + j].v.u = 0;
		nv += (size_t) k + 1;
	}
	if (i == fev->n_common)
		*payload = nv; /* no field of its own */
	vals->len = nv;
	return TK_OK;
nomem:
	vals->len = start;
	return TK_FAIL(TK_ERR_NOMEM, "Cannot decode event: system=%s, name=%s", fev->system,
		       fev->name);
}

enum tk_status ftrace_model_values(const struct ftrace_ctx *ctx, const struct ftrace_event *fev,
				   const uint8_t *rec, size_t size, struct vec *vals,
				   size_t *payload)
{
	return fields_values(ctx, fev, fev->n_fields, rec, size, vals, payload);
}

enum tk_status ftrace_model_unknown_values(const struct ftrace_ctx *ctx, const uint8_t *rec,
					   size_t size, struct vec *vals, size_t *payload)
{
	const struct ftrace_event *ref = common_format(ctx);
	struct model_value *v;
	enum tk_status st;
	size_t i;

	if (ref) {
		st = fields_values(ctx, ref, ref->n_common, rec, size, vals, payload);
		if (st < 0)
			return st;
	}
	*payload = vals->len;
	if (room(vals, vals->len, size + 1))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot decode event: size=%zu", size);
	v = (struct model_value *) vals->data + vals->len;
	v[0].n = size;
	for (i = 0; i < size; i++)
		v[1 + i].v.u = rec[i];
	vals->len += size + 1;
	return TK_OK;
}

/* ---- fields of raw records ---------------------------------------------------------------- */

int ftrace_model_raw_field(const struct ftrace_event *fev, uint32_t i, struct model_raw_field *out)
{
	const struct ftrace_field *f;

	if (!fev || i >= fev->n_fields)
		return 0;
	f = &fev->fields[i];
	out->name = f->name;
	if (ftrace_field_text(f))
		out->kind = MODEL_FC_STRING;
	else if (f->flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC))
		out->kind = MODEL_FC_ARRAY;
	else
		out->kind = MODEL_FC_INT;
	return 1;
}

void ftrace_model_raw_value(const struct ftrace_ctx *ctx, const struct ftrace_event *fev,
			    uint32_t i, const uint8_t *rec, size_t size,
			    struct model_raw_value *out)
{
	const struct ftrace_field *f = &fev->fields[i];
	uint32_t off = f->offset, len = f->size;
	int fits = off <= size && len <= size - off;

	out->u = 0;
	out->s = "";
	out->n = 0;
	if (!ftrace_field_text(f)) {
		if (fits && !(f->flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC)))
			out->u = ftrace_field_u64(ctx, f, rec);
		return;
	}
	if (f->flags & FTRACE_FIELD_DYNAMIC) {
		if (!fits || ftrace_field_dynamic(ctx, f, rec, size, &off, &len) < 0)
			return;
	} else if (!fits) {
		return;
	} else if (ftrace_field_flexible(f)) {
		len = (uint32_t) (size - off);
	}
	out->s = (const char *) rec + off;
	out->n = len ? strnlen(out->s, len) : 0;
}
