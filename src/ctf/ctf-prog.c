// SPDX-License-Identifier: MIT
/*
 * Decode programs: each scope's field class tree compiled once into a flat list of operations,
 * run for every packet or event (ARCHITECTURE.md, decision 2). The hot loop never walks a
 * type tree or compares names.
 *
 * Compilation tracks the alignment of the position statically, so alignment operations that
 * cannot move the position are dropped, and byte-aligned 8/16/32/64-bit integers get loads
 * through bytes.h instead of the general bit reader (CTF 1.8.3 section 4.1.5).
 *
 * Values are appended to the decoder's value array in the order described in model.h. Fields
 * that sequences or variants depend on are also copied to a stored-value slot, and special
 * fields (magic, stream_id, timestamps, sizes, event id) update the decoder state.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/bits.h"
#include "../common/error.h"
#include "ctf-fc-priv.h"
#include "ctf.h"

enum op_code {
	OP_END,
	OP_ALIGN,
	OP_U8,
	OP_S8,
	OP_U16LE,
	OP_U16BE,
	OP_S16LE,
	OP_S16BE,
	OP_U32LE,
	OP_U32BE,
	OP_S32LE,
	OP_S32BE,
	OP_U64LE,
	OP_U64BE,
	OP_S64LE,
	OP_S64BE,
	OP_BITS,
	OP_FLOAT,
	OP_STRING,
	OP_TEXT,
	OP_TEXT_SEQ,
	OP_ARRAY,
	OP_SEQ,
	OP_LOOP,
	OP_VARIANT,
	OP_JUMP,
	OP_MARK,
	OP_LTTNG_HEADER,
	OP_ARRAY_INTS, /* array of byte-aligned integers read in one go; b: element op */
	OP_SEQ_INTS,
};

/*
 * The LTTng event header (reference: CTF 1.8.3 section 6 examples, LTTng's compact and large
 * headers): an id enumeration, then a variant selected by it holding either a short
 * timestamp (compact) or a 32-bit id and a 64-bit timestamp (extended). It starts every event
 * of most CTF traces, so it gets one operation instead of seven.
 */
struct hdr_field {
	uint32_t align;
	uint32_t bits;
	uint8_t bo;
};

struct lttng_header {
	struct hdr_field id;
	uint64_t extended; /* id value selecting the extended form */
	int32_t id_store;
	uint32_t compact_align;
	struct hdr_field compact_ts;
	uint32_t extended_align;
	struct hdr_field extended_id;
	struct hdr_field extended_ts;
};

/* Side effects of an integer read, fused into the read operation. */
enum op_fx {
	FX_STORE = 1,	/* copy to stored-value slot a */
	FX_CLOCK = 2,	/* update the stream clock with a size-bit value */
	FX_MEANING = 4, /* special field: update the decoder state */
};

struct ctf_op {
	uint8_t code;
	uint8_t bo;
	uint8_t is_signed;
	uint8_t empty_elem; /* arrays whose element may take no bits */
	uint8_t fx;	    /* enum op_fx, for integer reads */
	uint8_t meaning;    /* enum ctf_meaning, with FX_MEANING */
	uint32_t size;	    /* bits */
	uint32_t a;	    /* alignment, slot, jump target, meaning */
	uint32_t b;	    /* loop exit or start */
	uint64_t len;	    /* static array length */
	const struct model_fc *fc;
	const uint32_t *targets; /* variant: first op of each option */
	const struct lttng_header *hdr;
	const char *name; /* field name, for error messages */
};

struct ctf_prog {
	struct ctf_op *ops;
	uint32_t n;
	const char *scope;
};

struct compiler {
	struct arena *a;
	struct vec ops; /* struct ctf_op */
	uint64_t known; /* alignment of the position known at compile time, in bits */
	int depth;
};

#define KNOWN_MAX (UINT64_C(1) << 32)

static struct ctf_op *emit(struct compiler *c, uint8_t code, const char *name)
{
	struct ctf_op *op = vec_push(&c->ops, sizeof(*op));

	if (op) {
		op->code = code;
		op->name = name;
	}
	return op;
}

#define EMIT(op, c, code, name)                                                                    \
	do {                                                                                       \
		(op) = emit((c), (code), (name));                                                  \
		if (!(op))                                                                         \
			return TK_FAIL(TK_ERR_NOMEM, "Cannot compile decoder");                    \
	} while (0)

static uint64_t lowbit(uint64_t v)
{
	return v & (~v + 1);
}

/* Position alignment after adding @bits to a position aligned to @known. */
static uint64_t after(uint64_t known, uint64_t bits)
{
	uint64_t lb;

	if (!bits)
		return known;
	lb = lowbit(bits);
	return lb < known ? lb : known;
}

static enum tk_status emit_align(struct compiler *c, uint32_t align, const char *name)
{
	struct ctf_op *op;

	if (align <= 1 || c->known % align == 0)
		return TK_OK;
	EMIT(op, c, OP_ALIGN, name);
	op->a = align;
	c->known = align;
	return TK_OK;
}

/* Whether a value of @fc can take no bits at all (a loop over it could spin forever). */
static int may_be_empty(const struct model_fc *fc)
{
	uint32_t i;

	switch (fc->kind) {
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count; i++)
			if (!may_be_empty(fc->u.st.members[i].fc))
				return 0;
		return 1;
	case MODEL_FC_VARIANT:
	case MODEL_FC_SEQUENCE:
		return 1;
	case MODEL_FC_ARRAY:
		return fc->u.arr.length == 0 || may_be_empty(fc->u.arr.elem);
	default:
		return 0;
	}
}

static enum tk_status compile_fc(struct compiler *c, const struct model_fc *fc, const char *name);

static enum tk_status compile_int(struct compiler *c, const struct model_fc *fc, const char *name)
{
	struct ctf_op *op;
	enum tk_status st;
	uint8_t code = OP_BITS;

	st = emit_align(c, fc->align, name);
	if (st < 0)
		return st;
	if (c->known % 8 == 0) {
		int be = fc->byte_order == TK_BYTE_ORDER_BE;
		int s = fc->is_signed;

		switch (fc->size) {
		case 8:
			code = s ? OP_S8 : OP_U8;
			break;
		case 16:
			code = s ? (be ? OP_S16BE : OP_S16LE) : (be ? OP_U16BE : OP_U16LE);
			break;
		case 32:
			code = s ? (be ? OP_S32BE : OP_S32LE) : (be ? OP_U32BE : OP_U32LE);
			break;
		case 64:
			code = s ? (be ? OP_S64BE : OP_S64LE) : (be ? OP_U64BE : OP_U64LE);
			break;
		default:
			break;
		}
	}
	EMIT(op, c, code, name);
	op->size = fc->size;
	op->bo = fc->byte_order;
	op->is_signed = fc->is_signed;
	op->fc = fc;
	c->known = after(c->known, fc->size);
	if (ctf_fc_meaning(fc) != CTF_MEANING_NONE) {
		op->fx |= FX_MEANING;
		op->meaning = (uint8_t) ctf_fc_meaning(fc);
	}
	if (ctf_fc_store(fc) >= 0) {
		op->fx |= FX_STORE;
		op->a = (uint32_t) ctf_fc_store(fc);
	}
	if (fc->clock && !fc->is_signed)
		op->fx |= FX_CLOCK;
	return TK_OK;
}

/*
 * An array or sequence (op @at) whose element compiled to one plain read of a byte-aligned
 * 8- to 64-bit integer, perhaps after an alignment its size already keeps, becomes one
 * operation that reads every element in a loop of its own: elements are contiguous, so no
 * per-element dispatch or alignment is needed. Returns whether it did.
 */
static int bulk_ints(struct compiler *c, size_t at, const struct model_fc *elem)
{
	struct ctf_op *ops = c->ops.data, *arr = &ops[at];
	size_t first = at + 1;

	if (c->ops.len > first && ops[first].code == OP_ALIGN && ops[first].a <= elem->size)
		first++;
	if (c->ops.len != first + 1 || ops[first].code < OP_U8 || ops[first].code > OP_S64BE ||
	    ops[first].fx || elem->align > elem->size)
		return 0;
	arr->code = arr->code == OP_ARRAY ? OP_ARRAY_INTS : OP_SEQ_INTS;
	arr->b = ops[first].code;
	arr->size = elem->size;
	c->ops.len = at + 1;
	return 1;
}

static enum tk_status compile_array(struct compiler *c, const struct model_fc *fc, const char *name)
{
	struct ctf_op *op;
	size_t at, loop;
	uint64_t known_before;
	enum tk_status st;

	st = emit_align(c, fc->align, name);
	if (st < 0)
		return st;
	if (fc->is_text) {
		if (fc->kind == MODEL_FC_ARRAY) {
			EMIT(op, c, OP_TEXT, name);
			op->len = fc->u.arr.length;
			c->known = after(c->known, fc->u.arr.length * 8);
		} else {
			EMIT(op, c, OP_TEXT_SEQ, name);
			op->a = (uint32_t) ctf_fc_store(fc->u.arr.length_fc);
			c->known = after(c->known, 8);
		}
		return TK_OK;
	}
	at = c->ops.len;
	EMIT(op, c, fc->kind == MODEL_FC_ARRAY ? OP_ARRAY : OP_SEQ, name);
	op->len = fc->u.arr.length;
	if (fc->kind == MODEL_FC_SEQUENCE)
		op->a = (uint32_t) ctf_fc_store(fc->u.arr.length_fc);
	op->empty_elem = (uint8_t) may_be_empty(fc->u.arr.elem);
	known_before = c->known;
	/*
	 * An element starts where the previous one ended: assume nothing, so each element
	 * aligns itself. After the loop, the position is aligned at least as well as both
	 * before the first element and after any element.
	 */
	c->known = 1;
	st = compile_fc(c, fc->u.arr.elem, name);
	if (st < 0)
		return st;
	loop = c->ops.len;
	if (bulk_ints(c, at, fc->u.arr.elem)) {
		/* contiguous elements: the position ends aligned to the element size at least */
		uint64_t elem_bits = fc->u.arr.elem->size;

		c->known = known_before < elem_bits ? known_before : elem_bits;
		return TK_OK;
	}
	EMIT(op, c, OP_LOOP, name);
	op->b = (uint32_t) (at + 1);
	VEC_AT(&c->ops, struct ctf_op, at).b = (uint32_t) (loop + 1);
	if (known_before < c->known)
		c->known = known_before;
	return TK_OK;
}

static enum tk_status compile_variant(struct compiler *c, const struct model_fc *fc,
				      const char *name)
{
	struct ctf_op *op;
	uint32_t *targets, i;
	size_t at, *jumps;
	uint64_t known_in = c->known, known_out = KNOWN_MAX;
	enum tk_status st = TK_OK;

	targets = arena_alloc(c->a, (fc->u.var.count + 1) * sizeof(*targets));
	jumps = calloc(fc->u.var.count + 1, sizeof(*jumps));
	if (!targets || !jumps) {
		free(jumps);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot compile decoder");
	}
	at = c->ops.len;
	op = emit(c, OP_VARIANT, name);
	if (!op) {
		free(jumps);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot compile decoder");
	}
	op->a = (uint32_t) ctf_fc_store(fc->u.var.tag);
	op->fc = fc;
	op->targets = targets;
	for (i = 0; i < fc->u.var.count && st >= 0; i++) {
		targets[i] = (uint32_t) c->ops.len;
		c->known = known_in;
		st = compile_fc(c, fc->u.var.options[i].fc, fc->u.var.options[i].name);
		if (c->known < known_out)
			known_out = c->known;
		jumps[i] = c->ops.len;
		if (st >= 0 && !emit(c, OP_JUMP, name))
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot compile decoder");
	}
	if (st >= 0) {
		for (i = 0; i < fc->u.var.count; i++)
			VEC_AT(&c->ops, struct ctf_op, jumps[i]).a = (uint32_t) c->ops.len;
		c->known = fc->u.var.count ? known_out : known_in;
	}
	(void) at;
	free(jumps);
	return st;
}

static enum tk_status compile_fc(struct compiler *c, const struct model_fc *fc, const char *name)
{
	struct ctf_op *op;
	enum tk_status st = TK_OK;
	uint32_t i;

	if (++c->depth > 128) {
		c->depth--;
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot compile decoder: reason=nested too deeply");
	}
	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_ENUM:
		st = compile_int(c, fc, name);
		break;
	case MODEL_FC_FLOAT:
		st = emit_align(c, fc->align, name);
		if (st < 0)
			break;
		op = emit(c, OP_FLOAT, name);
		if (!op) {
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot compile decoder");
			break;
		}
		op->size = fc->size;
		op->bo = fc->byte_order;
		c->known = after(c->known, fc->size);
		break;
	case MODEL_FC_STRING:
		st = emit_align(c, 8, name);
		if (st < 0)
			break;
		if (!emit(c, OP_STRING, name)) {
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot compile decoder");
			break;
		}
		c->known = 8;
		break;
	case MODEL_FC_STRUCT:
		st = emit_align(c, fc->align, name);
		for (i = 0; i < fc->u.st.count && st >= 0; i++)
			st = compile_fc(c, fc->u.st.members[i].fc, fc->u.st.members[i].name);
		break;
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		st = compile_array(c, fc, name);
		break;
	case MODEL_FC_VARIANT:
		st = compile_variant(c, fc, name);
		break;
	}
	c->depth--;
	return st;
}

static enum tk_status finish_prog(struct compiler *c, const char *scope, struct ctf_prog **out)
{
	struct ctf_prog *prog;

	if (!emit(c, OP_END, scope))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot compile %s decoder", scope);
	prog = arena_alloc(c->a, sizeof(*prog));
	if (!prog)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot compile %s decoder", scope);
	prog->ops = arena_alloc(c->a, c->ops.len * sizeof(struct ctf_op));
	if (!prog->ops)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot compile %s decoder", scope);
	memcpy(prog->ops, c->ops.data, c->ops.len * sizeof(struct ctf_op));
	prog->n = (uint32_t) c->ops.len;
	prog->scope = scope;
	*out = prog;
	return TK_OK;
}

/*
 * Size in bits of @fc when it has a fixed layout, starting at a position aligned to every
 * alignment it contains (*max_align). Integers with side effects, strings, sequences and
 * variants make a layout dynamic (returns 0).
 */
static int static_layout(const struct model_fc *fc, uint64_t *pos, uint32_t *max_align)
{
	uint32_t i;

	if (fc->align > *max_align)
		*max_align = fc->align;
	*pos = (*pos + fc->align - 1) & ~((uint64_t) fc->align - 1);
	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_ENUM:
		if (ctf_fc_store(fc) >= 0 || fc->clock || ctf_fc_meaning(fc) != CTF_MEANING_NONE)
			return 0;
		*pos += fc->size;
		return 1;
	case MODEL_FC_FLOAT:
		*pos += fc->size;
		return 1;
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count; i++)
			if (!static_layout(fc->u.st.members[i].fc, pos, max_align))
				return 0;
		return 1;
	case MODEL_FC_ARRAY: {
		uint64_t elem = 0;
		uint32_t ea = 1;

		if (fc->is_text) {
			if (fc->u.arr.length > (UINT64_C(1) << 40))
				return 0;
			*pos += fc->u.arr.length * 8;
			return 1;
		}
		if (!static_layout(fc->u.arr.elem, &elem, &ea) || elem % ea ||
		    (elem && fc->u.arr.length > (UINT64_C(1) << 40) / elem))
			return 0;
		if (ea > *max_align)
			*max_align = ea;
		*pos += elem * fc->u.arr.length;
		return 1;
	}
	default:
		return 0;
	}
}

/*
 * A static field is loaded as enum model_load says, or, for what is not whole bytes, by the
 * bit reader: these kinds follow the model's.
 */
enum static_kind {
	SF_BITS = MODEL_LOAD_N, /* an integer of any size at any bit */
	SF_F32,			/* a float at any bit */
	SF_F64,
};

static enum tk_status grow_vals(struct ctf_dec *d);

struct ctf_static_field {
	uint32_t off; /* bits from the body start */
	uint8_t kind; /* enum model_load, or enum static_kind */
	uint8_t size;
	uint8_t bo;
	uint8_t is_signed;
	uint64_t len; /* text length in bytes, or array length */
};

#define STATIC_MAX_FIELDS 1024

struct static_builder {
	struct vec fields; /* struct ctf_static_field */
	uint64_t pos;
	int last_bo;
	int ok;
};

static void sf_add(struct static_builder *sb, uint8_t kind, const struct model_fc *fc, uint64_t len)
{
	struct ctf_static_field *f;

	if (!sb->ok)
		return;
	if (sb->fields.len >= STATIC_MAX_FIELDS || sb->pos > UINT32_MAX ||
	    !(f = vec_push(&sb->fields, sizeof(*f)))) {
		sb->ok = 0;
		return;
	}
	f->off = (uint32_t) sb->pos;
	f->kind = kind;
	f->len = len;
	if (fc) {
		f->size = (uint8_t) fc->size;
		f->bo = fc->byte_order;
		f->is_signed = fc->is_signed;
	}
}

/*
 * Field descriptors of a static layout starting byte-aligned, in value order. Bit fields that
 * start inside a byte after a bit field of the other byte order are refused (the program
 * reports that error), so the fast path never hides it.
 */
static void static_fields(struct static_builder *sb, const struct model_fc *fc)
{
	uint32_t i;
	uint64_t k;

	sb->pos = (sb->pos + fc->align - 1) & ~((uint64_t) fc->align - 1);
	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_ENUM: {
		int be = fc->byte_order == TK_BYTE_ORDER_BE, s = fc->is_signed;
		uint8_t kind = SF_BITS;

		if (!(sb->pos & 7)) {
			switch (fc->size) {
			case 8:
				kind = s ? MODEL_LOAD_S8 : MODEL_LOAD_U8;
				break;
			case 16:
				kind = s ? (be ? MODEL_LOAD_S16BE : MODEL_LOAD_S16LE)
					 : (be ? MODEL_LOAD_U16BE : MODEL_LOAD_U16LE);
				break;
			case 32:
				kind = s ? (be ? MODEL_LOAD_S32BE : MODEL_LOAD_S32LE)
					 : (be ? MODEL_LOAD_U32BE : MODEL_LOAD_U32LE);
				break;
			case 64:
				kind = be ? MODEL_LOAD_U64BE : MODEL_LOAD_U64LE;
				break;
			default:
				break;
			}
		}
		if (kind == SF_BITS) {
			if ((sb->pos & 7) && sb->last_bo >= 0 && sb->last_bo != fc->byte_order)
				sb->ok = 0;
			sb->last_bo = fc->byte_order;
		}
		sf_add(sb, kind, fc, 0);
		sb->pos += fc->size;
		return;
	}
	case MODEL_FC_FLOAT: {
		int be = fc->byte_order == TK_BYTE_ORDER_BE;
		uint8_t kind = fc->size == 32 ? SF_F32 : SF_F64;

		if (!(sb->pos & 7))
			kind = fc->size == 32 ? (be ? MODEL_LOAD_F32BE : MODEL_LOAD_F32LE)
					      : (be ? MODEL_LOAD_F64BE : MODEL_LOAD_F64LE);
		sf_add(sb, kind, fc, 0);
		sb->pos += fc->size;
		return;
	}
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count; i++)
			static_fields(sb, fc->u.st.members[i].fc);
		return;
	case MODEL_FC_ARRAY:
		if (fc->is_text) {
			sf_add(sb, MODEL_LOAD_TEXT, NULL, fc->u.arr.length);
			sb->pos += fc->u.arr.length * 8;
			return;
		}
		sf_add(sb, MODEL_LOAD_COUNT, NULL, fc->u.arr.length);
		for (k = 0; k < fc->u.arr.length && sb->ok; k++)
			static_fields(sb, fc->u.arr.elem);
		return;
	default:
		sb->ok = 0;
		return;
	}
}

enum tk_status ctf_static_decode(const struct ctf_ec *cec, struct ctf_dec *d, uint64_t pos)
{
	const struct ctf_static_field *f = cec->fields, *end = f + cec->n_fields;
	const uint8_t *b = d->base + (pos >> 3);
	struct model_value *v;
	size_t base_nv = d->nv;

	while (d->cap - d->nv < cec->n_fields) {
		enum tk_status st = grow_vals(d);

		if (st < 0)
			return st;
	}
	v = d->vals + d->nv;
	for (; f < end; f++, v++) {
		switch (f->kind) {
		case SF_BITS:
			v->v.u = tk_bits_read(d->base, pos + f->off, f->size,
					      (enum tk_byte_order) f->bo);
			if (f->is_signed)
				v->v.i = tk_bits_sign_extend(v->v.u, f->size);
			break;
		case SF_F32: {
			uint32_t r = (uint32_t) tk_bits_read(d->base, pos + f->off, 32,
							     (enum tk_byte_order) f->bo);
			float x;

			memcpy(&x, &r, sizeof(x));
			v->v.d = x;
			break;
		}
		case SF_F64: {
			uint64_t r =
				tk_bits_read(d->base, pos + f->off, 64, (enum tk_byte_order) f->bo);

			memcpy(&v->v.d, &r, sizeof(v->v.d));
			break;
		}
		default:
			model_fixed_load(v, f->kind, b + (f->off >> 3), f->len);
			break;
		}
	}
	d->nv += cec->n_fields;
	d->marks[0] = base_nv + cec->marks[0];
	d->marks[1] = base_nv + cec->marks[1];
	d->marks[2] = base_nv + cec->marks[2];
	if (cec->body_last_bo >= 0)
		d->last_bo = cec->body_last_bo;
	return TK_OK;
}

/*
 * The model's view of a static body (struct model_fixed) when all of it is whole bytes, so
 * that printers can read its values where they lie; cec->fixed stays NULL otherwise.
 */
static enum tk_status static_model_fixed(struct arena *a, struct ctf_ec *cec)
{
	struct model_fixed *fx;
	struct model_fixed_field *ff;
	uint32_t i;

	for (i = 0; i < cec->n_fields; i++)
		if (cec->fields[i].kind >= MODEL_LOAD_N)
			return TK_OK;
	fx = arena_alloc(a, sizeof(*fx));
	ff = arena_alloc(a, (cec->n_fields + 1) * sizeof(*ff));
	if (!fx || !ff)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot compile event decoder");
	for (i = 0; i < cec->n_fields; i++) {
		ff[i].off = cec->fields[i].off >> 3;
		ff[i].load = cec->fields[i].kind;
		ff[i].seg = 0;
		ff[i].len = cec->fields[i].len;
	}
	fx->fields = ff;
	fx->n = cec->n_fields;
	memcpy(fx->marks, cec->marks, sizeof(fx->marks));
	fx->n_segs = 1;
	cec->fixed = fx;
	return TK_OK;
}

/* The fields of a laid body (struct ctf_ec: laid_n), segment by segment. */
struct laid_builder {
	struct vec fields; /* struct model_fixed_field */
	struct vec fcs;	   /* the field class of each */
	uint64_t pos;	   /* bytes into the current segment */
	uint32_t seg;	   /* the current segment: strings and sequences so far */
	struct ctf_laid_seg ends[CTF_LAID_MAX];
	int ok;
};

static void laid_add(struct laid_builder *lb, const struct model_fc *fc, uint8_t load, uint8_t elem,
		     uint64_t len)
{
	struct model_fixed_field *f;
	const struct model_fc **fp;

	if (!lb->ok)
		return;
	if (lb->fields.len >= STATIC_MAX_FIELDS || lb->pos > UINT32_MAX ||
	    !(f = vec_push(&lb->fields, sizeof(*f))) || !(fp = vec_push(&lb->fcs, sizeof(*fp)))) {
		lb->ok = 0;
		return;
	}
	f->off = (uint32_t) lb->pos;
	f->load = load;
	f->seg = (uint8_t) lb->seg;
	f->elem = elem;
	f->len = len;
	*fp = fc;
}

/* How an integer of @fc loads whole (enum model_load), or MODEL_LOAD_N for a bit field. */
static uint8_t laid_int_load(const struct model_fc *fc)
{
	int be = fc->byte_order == TK_BYTE_ORDER_BE, s = fc->is_signed;

	switch (fc->size) {
	case 8:
		return s ? MODEL_LOAD_S8 : MODEL_LOAD_U8;
	case 16:
		return s ? (be ? MODEL_LOAD_S16BE : MODEL_LOAD_S16LE)
			 : (be ? MODEL_LOAD_U16BE : MODEL_LOAD_U16LE);
	case 32:
		return s ? (be ? MODEL_LOAD_S32BE : MODEL_LOAD_S32LE)
			 : (be ? MODEL_LOAD_U32BE : MODEL_LOAD_U32LE);
	case 64:
		return be ? MODEL_LOAD_U64BE : MODEL_LOAD_U64LE;
	default:
		return MODEL_LOAD_N;
	}
}

/* An element of an array or sequence the laid form takes: a plain integer, or MODEL_LOAD_N. */
static uint8_t laid_elem_load(const struct model_fc *e)
{
	if ((e->kind != MODEL_FC_INT && e->kind != MODEL_FC_ENUM) || e->align > 8 ||
	    ctf_fc_store(e) >= 0 || e->clock || ctf_fc_meaning(e) != CTF_MEANING_NONE)
		return MODEL_LOAD_N;
	return laid_int_load(e);
}

/*
 * The sequence @fc: its length must be an unsigned integer of the current segment, the only
 * field of the body with that field class, so that a printer finds it where it lies.
 */
static void laid_seq(struct laid_builder *lb, const struct model_fc *fc)
{
	const struct model_fc *e = fc->u.arr.elem, *lf = fc->u.arr.length_fc;
	const struct model_fixed_field *ff = lb->fields.data;
	const struct model_fc *const *fcs = lb->fcs.data;
	size_t j, found = SIZE_MAX;
	uint8_t elem = laid_elem_load(e);

	if (elem == MODEL_LOAD_N || !lf || lf->is_signed || lb->seg >= CTF_LAID_MAX) {
		lb->ok = 0;
		return;
	}
	for (j = 0; j < lb->fields.len; j++) {
		if (fcs[j] != lf)
			continue;
		if (found != SIZE_MAX) {
			lb->ok = 0;
			return;
		}
		found = j;
	}
	if (found == SIZE_MAX || ff[found].seg != lb->seg || ff[found].load > MODEL_LOAD_U64BE) {
		lb->ok = 0;
		return;
	}
	lb->ends[lb->seg].off = (uint32_t) lb->pos;
	lb->ends[lb->seg].coff = ff[found].off;
	lb->ends[lb->seg].cload = ff[found].load;
	lb->ends[lb->seg].esize = (uint8_t) (e->size / 8);
	laid_add(lb, fc, fc->is_text ? MODEL_LOAD_TEXT_SEQ : MODEL_LOAD_SEQ, elem, found);
	lb->seg++;
	lb->pos = 0;
}

/*
 * The fields of @fc when the decode program reads every one of them whole bytes at a time
 * with no alignment to make and no side effect but stored lengths, strings and sequences
 * included (each ends a segment): then the body's end is found from the NULs and the
 * lengths alone, and every value lies at a fixed offset in its segment. lb->ok is cleared
 * otherwise.
 */
static void laid_fields(struct laid_builder *lb, const struct model_fc *fc)
{
	uint32_t i;

	if (!lb->ok)
		return;
	if (fc->align > 8) {
		lb->ok = 0;
		return;
	}
	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_ENUM: {
		/* a stored value is a length or a tag of this body: skipped, nobody reads it */
		uint8_t load = laid_int_load(fc);

		if (load == MODEL_LOAD_N || fc->clock || ctf_fc_meaning(fc) != CTF_MEANING_NONE) {
			lb->ok = 0;
			return;
		}
		laid_add(lb, fc, load, 0, 0);
		lb->pos += fc->size / 8;
		return;
	}
	case MODEL_FC_FLOAT: {
		int be = fc->byte_order == TK_BYTE_ORDER_BE;

		if (fc->size != 32 && fc->size != 64) {
			lb->ok = 0;
			return;
		}
		laid_add(lb, fc,
			 fc->size == 32 ? (be ? MODEL_LOAD_F32BE : MODEL_LOAD_F32LE)
					: (be ? MODEL_LOAD_F64BE : MODEL_LOAD_F64LE),
			 0, 0);
		lb->pos += fc->size / 8;
		return;
	}
	case MODEL_FC_STRING:
		if (lb->seg >= CTF_LAID_MAX) {
			lb->ok = 0;
			return;
		}
		laid_add(lb, fc, MODEL_LOAD_STRING, 0, 0);
		lb->ends[lb->seg].off = (uint32_t) lb->pos;
		lb->ends[lb->seg].esize = 0;
		lb->seg++;
		lb->pos = 0;
		return;
	case MODEL_FC_STRUCT:
		for (i = 0; i < fc->u.st.count; i++)
			laid_fields(lb, fc->u.st.members[i].fc);
		return;
	case MODEL_FC_ARRAY: {
		uint8_t elem = laid_elem_load(fc->u.arr.elem);

		if (fc->u.arr.length > (UINT64_C(1) << 24)) {
			lb->ok = 0;
			return;
		}
		if (fc->is_text) {
			laid_add(lb, fc, MODEL_LOAD_TEXT, 0, fc->u.arr.length);
			lb->pos += fc->u.arr.length;
			return;
		}
		if (elem == MODEL_LOAD_N) {
			lb->ok = 0;
			return;
		}
		laid_add(lb, fc, MODEL_LOAD_ARRAY, elem, fc->u.arr.length);
		lb->pos += fc->u.arr.length * (fc->u.arr.elem->size / 8);
		return;
	}
	case MODEL_FC_SEQUENCE:
		laid_seq(lb, fc);
		return;
	default: /* variants */
		lb->ok = 0;
		return;
	}
}

/* The laid form of a body that is not static (struct ctf_ec: laid_n), when it has one. */
static enum tk_status laid_layout(struct arena *a, const struct model_fc *const scopes[3],
				  struct ctf_ec *cec)
{
	struct laid_builder lb;
	struct model_fixed *fx;
	struct model_fixed_field *ff;
	uint32_t marks[3], k;

	memset(&lb, 0, sizeof(lb));
	lb.ok = 1;
	for (k = 0; k < 3 && lb.ok; k++) {
		marks[k] = (uint32_t) lb.fields.len;
		if (scopes[k])
			laid_fields(&lb, scopes[k]);
	}
	vec_fini(&lb.fcs);
	if (!lb.ok || !lb.seg || lb.pos > UINT32_MAX) {
		vec_fini(&lb.fields);
		return TK_OK;
	}
	fx = arena_alloc(a, sizeof(*fx));
	ff = arena_alloc(a, (lb.fields.len + 1) * sizeof(*ff));
	if (!fx || !ff) {
		vec_fini(&lb.fields);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot compile event decoder");
	}
	if (lb.fields.len)
		memcpy(ff, lb.fields.data, lb.fields.len * sizeof(*ff));
	fx->fields = ff;
	fx->n = (uint32_t) lb.fields.len;
	memcpy(fx->marks, marks, sizeof(marks));
	fx->n_segs = lb.seg + 1;
	cec->fixed = fx;
	cec->laid_n = (uint8_t) lb.seg;
	memcpy(cec->laid, lb.ends, sizeof(lb.ends));
	cec->laid_tail = (uint32_t) lb.pos;
	vec_fini(&lb.fields);
	return TK_OK;
}

enum tk_status ctf_prog_compile_body(struct arena *a, const struct model_fc *ectx,
				     const struct model_fc *ctx, const struct model_fc *payload,
				     struct ctf_ec *cec)
{
	const struct model_fc *scopes[3] = {ectx, ctx, payload};
	static const char *const names[3] = {"stream event context", "event context",
					     "event payload"};
	struct compiler c;
	struct ctf_op *op;
	enum tk_status st = TK_OK;
	uint64_t pos = 0;
	uint32_t align = 1, k;
	int is_static = 1;

	memset(&c, 0, sizeof(c));
	c.a = a;
	c.known = 1;
	for (k = 0; k < 3 && st >= 0; k++) {
		op = emit(&c, OP_MARK, names[k]);
		if (!op) {
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot compile event decoder");
			break;
		}
		op->a = k;
		if (scopes[k]) {
			st = compile_fc(&c, scopes[k], names[k]);
			if (is_static && !static_layout(scopes[k], &pos, &align))
				is_static = 0;
		}
	}
	if (st >= 0)
		st = finish_prog(&c, "event", &cec->body_prog);
	vec_fini(&c.ops);
	if (st < 0)
		return st;
	cec->body_static = (uint8_t) is_static;
	cec->body_align = align;
	cec->body_bits = pos;
	cec->body_last_bo = -1;
	cec->fixed = NULL;
	cec->laid_n = 0;
	if (!is_static)
		return laid_layout(a, scopes, cec);
	if (is_static) {
		struct static_builder sb;

		memset(&sb, 0, sizeof(sb));
		sb.last_bo = -1;
		sb.ok = align % 8 == 0;
		for (k = 0; k < 3 && sb.ok; k++) {
			cec->marks[k] = (uint32_t) sb.fields.len;
			if (scopes[k])
				static_fields(&sb, scopes[k]);
		}
		if (sb.ok) {
			struct ctf_static_field *f =
				arena_alloc(a, (sb.fields.len + 1) * sizeof(*f));

			if (!f) {
				vec_fini(&sb.fields);
				return TK_FAIL(TK_ERR_NOMEM, "Cannot compile event decoder");
			}
			if (sb.fields.len)
				memcpy(f, sb.fields.data, sb.fields.len * sizeof(*f));
			cec->fields = f;
			cec->n_fields = (uint32_t) sb.fields.len;
			cec->body_last_bo = (int8_t) sb.last_bo;
			st = static_model_fixed(a, cec);
		} else {
			cec->body_static = 0; /* keep the checked program */
		}
		vec_fini(&sb.fields);
	}
	return st;
}

static int plain_uint(const struct model_fc *fc)
{
	return (fc->kind == MODEL_FC_INT || fc->kind == MODEL_FC_ENUM) && !fc->is_signed &&
	       fc->size <= 64;
}

static void hdr_field(struct hdr_field *h, const struct model_fc *fc)
{
	h->align = fc->align;
	h->bits = fc->size;
	h->bo = fc->byte_order;
}

/* Recognise the LTTng compact or large event header; fill @h if it is one. */
static int match_lttng_header(const struct model_fc *fc, struct lttng_header *h)
{
	const struct model_fc *id, *var, *cpt, *ext;
	const struct model_variant_range *r;
	uint64_t k;
	uint32_t ic, ie;

	if (fc->kind != MODEL_FC_STRUCT || fc->u.st.count != 2)
		return 0;
	id = fc->u.st.members[0].fc;
	var = fc->u.st.members[1].fc;
	if (id->kind != MODEL_FC_ENUM || !plain_uint(id) || id->clock ||
	    ctf_fc_meaning(id) != CTF_MEANING_EVENT_CLASS_ID || id->size >= 64 || id->size < 2 ||
	    var->kind != MODEL_FC_VARIANT || var->u.var.tag != id || var->u.var.count != 2 ||
	    var->u.var.nranges != 2)
		return 0;
	k = (UINT64_C(1) << id->size) - 1;
	r = var->u.var.ranges; /* sorted by lower bound */
	if (r[0].lo.u != 0 || r[0].hi.u != k - 1 || r[1].lo.u != k || r[1].hi.u != k)
		return 0;
	ic = r[0].option;
	ie = r[1].option;
	cpt = var->u.var.options[ic].fc;
	ext = var->u.var.options[ie].fc;
	if (cpt->kind != MODEL_FC_STRUCT || cpt->u.st.count != 1 || ext->kind != MODEL_FC_STRUCT ||
	    ext->u.st.count != 2)
		return 0;
	if (!plain_uint(cpt->u.st.members[0].fc) || !cpt->u.st.members[0].fc->clock ||
	    ctf_fc_meaning(cpt->u.st.members[0].fc) != CTF_MEANING_NONE ||
	    ctf_fc_store(cpt->u.st.members[0].fc) >= 0)
		return 0;
	if (!plain_uint(ext->u.st.members[0].fc) || ext->u.st.members[0].fc->clock ||
	    ctf_fc_meaning(ext->u.st.members[0].fc) != CTF_MEANING_EVENT_CLASS_ID ||
	    ctf_fc_store(ext->u.st.members[0].fc) >= 0 || !plain_uint(ext->u.st.members[1].fc) ||
	    !ext->u.st.members[1].fc->clock ||
	    ctf_fc_meaning(ext->u.st.members[1].fc) != CTF_MEANING_NONE ||
	    ctf_fc_store(ext->u.st.members[1].fc) >= 0)
		return 0;
	hdr_field(&h->id, id);
	h->extended = k;
	h->id_store = ctf_fc_store(id);
	h->compact_align = cpt->align;
	hdr_field(&h->compact_ts, cpt->u.st.members[0].fc);
	h->extended_align = ext->align;
	hdr_field(&h->extended_id, ext->u.st.members[0].fc);
	hdr_field(&h->extended_ts, ext->u.st.members[1].fc);
	return 1;
}

static int le_bytes(const struct hdr_field *f, uint32_t bits)
{
	return f->bits == bits && f->align == 8 && f->bo == TK_BYTE_ORDER_LE;
}

/* Which hand-written decoder of ctf_header_run() matches @h (with header alignment @align). */
static uint8_t header_kind(const struct lttng_header *h, uint32_t align)
{
	if (align != 8 || h->extended_align != 8 || !le_bytes(&h->extended_id, 32) ||
	    !le_bytes(&h->extended_ts, 64))
		return CTF_HEADER_PROGRAM;
	if (le_bytes(&h->id, 16) && le_bytes(&h->compact_ts, 32) && h->compact_align <= 8)
		return CTF_HEADER_LTTNG_LARGE_LE;
	if (h->id.bits == 5 && h->id.align == 1 && h->id.bo == TK_BYTE_ORDER_LE &&
	    h->compact_ts.bits == 27 && h->compact_ts.align == 1 &&
	    h->compact_ts.bo == TK_BYTE_ORDER_LE && h->compact_align == 1)
		return CTF_HEADER_LTTNG_COMPACT_LE;
	return CTF_HEADER_PROGRAM;
}

enum tk_status ctf_prog_compile_header(struct arena *a, const struct model_fc *fc,
				       struct ctf_prog **out, uint8_t *kind)
{
	struct lttng_header h, *hp;
	struct compiler c;
	struct ctf_op *op;
	enum tk_status st;

	*kind = CTF_HEADER_PROGRAM;
	if (!fc || !match_lttng_header(fc, &h))
		return ctf_prog_compile(a, fc, "event header", out);
	*kind = header_kind(&h, fc->align);
	hp = arena_alloc(a, sizeof(*hp));
	if (!hp)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot compile event header decoder");
	*hp = h;
	memset(&c, 0, sizeof(c));
	c.a = a;
	c.known = 1;
	st = emit_align(&c, fc->align, "event header");
	op = st >= 0 ? emit(&c, OP_LTTNG_HEADER, "event header") : NULL;
	if (op)
		op->hdr = hp;
	else if (st >= 0)
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot compile event header decoder");
	if (st >= 0)
		st = finish_prog(&c, "event header", out);
	vec_fini(&c.ops);
	return st;
}

enum tk_status ctf_prog_compile(struct arena *a, const struct model_fc *fc, const char *scope,
				struct ctf_prog **out)
{
	struct compiler c;
	struct ctf_prog *prog;
	enum tk_status st = TK_OK;

	memset(&c, 0, sizeof(c));
	c.a = a;
	c.known = 1;
	if (fc)
		st = compile_fc(&c, fc, scope);
	if (st >= 0 && !emit(&c, OP_END, scope))
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot compile decoder");
	prog = st >= 0 ? arena_alloc(a, sizeof(*prog)) : NULL;
	if (st >= 0 && prog) {
		prog->ops = arena_alloc(a, c.ops.len * sizeof(struct ctf_op));
		if (prog->ops) {
			memcpy(prog->ops, c.ops.data, c.ops.len * sizeof(struct ctf_op));
			prog->n = (uint32_t) c.ops.len;
			prog->scope = scope;
		} else {
			prog = NULL;
		}
	}
	vec_fini(&c.ops);
	if (st < 0)
		return TK_FAIL(st, "Cannot compile %s decoder", scope);
	if (!prog)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot compile %s decoder", scope);
	*out = prog;
	return TK_OK;
}

/* ---- running ---------------------------------------------------------------------------- */

static TK_NOINLINE enum tk_status grow_vals(struct ctf_dec *d)
{
	size_t cap = d->cap ? d->cap * 2 : 256;
	struct model_value *v = realloc(d->vals, cap * sizeof(*v));

	if (!v)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot decode: values=%zu", d->nv);
	d->vals = v;
	d->cap = cap;
	return TK_OK;
}

void ctf_dec_fini(struct ctf_dec *d)
{
	free(d->vals);
	d->vals = NULL;
	d->nv = 0;
	d->cap = 0;
}

static TK_NOINLINE TK_COLD enum tk_status fail_short(const struct ctf_prog *prog,
						     const struct ctf_op *op,
						     const struct ctf_dec *d, uint64_t need)
{
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot decode %s field: name=%s, offset-bits=%llu, size-bits=%llu, "
		       "available-bits=%llu, reason=past the end of the packet content",
		       prog->scope, op->name ? op->name : "", (unsigned long long) d->pos,
		       (unsigned long long) need,
		       (unsigned long long) (d->limit > d->pos ? d->limit - d->pos : 0));
}

static int variant_select(const struct model_fc *fc, uint64_t tag, uint32_t *option)
{
	const struct model_variant_range *r = fc->u.var.ranges;
	uint32_t i;

	for (i = 0; i < fc->u.var.nranges; i++) {
		if (fc->u.var.tag->is_signed) {
			if ((int64_t) tag >= r[i].lo.i && (int64_t) tag <= r[i].hi.i) {
				*option = r[i].option;
				return 1;
			}
		} else if (tag >= r[i].lo.u && tag <= r[i].hi.u) {
			*option = r[i].option;
			return 1;
		}
	}
	return 0;
}

/* @n integers read by element op @code (OP_U8 ... OP_S64BE) from @p into @v. */
static void read_ints(struct model_value *v, const uint8_t *p, uint64_t n, uint32_t code)
{
	uint64_t i;

#define READ_INTS(step, expr)                                                                      \
	for (i = 0; i < n; i++, p += (step))                                                       \
		v[i].v.u = (uint64_t) (expr);                                                      \
	break
	switch (code) {
	case OP_U8:
		READ_INTS(1, *p);
	case OP_S8:
		READ_INTS(1, (int64_t) (int8_t) *p);
	case OP_U16LE:
		READ_INTS(2, tk_load_le16(p));
	case OP_U16BE:
		READ_INTS(2, tk_load_be16(p));
	case OP_S16LE:
		READ_INTS(2, (int64_t) (int16_t) tk_load_le16(p));
	case OP_S16BE:
		READ_INTS(2, (int64_t) (int16_t) tk_load_be16(p));
	case OP_U32LE:
		READ_INTS(4, tk_load_le32(p));
	case OP_U32BE:
		READ_INTS(4, tk_load_be32(p));
	case OP_S32LE:
		READ_INTS(4, (int64_t) (int32_t) tk_load_le32(p));
	case OP_S32BE:
		READ_INTS(4, (int64_t) (int32_t) tk_load_be32(p));
	case OP_U64LE:
	case OP_S64LE:
		READ_INTS(8, tk_load_le64(p));
	default: /* OP_U64BE, OP_S64BE */
		READ_INTS(8, tk_load_be64(p));
	}
#undef READ_INTS
}

#define NEED(bits)                                                                                 \
	do {                                                                                       \
		if (TK_UNLIKELY(d->limit - d->pos < (bits) || d->pos > d->limit))                  \
			return fail_short(prog, op, d, (bits));                                    \
	} while (0)

#define PUSH(val)                                                                                  \
	do {                                                                                       \
		if (TK_UNLIKELY(d->nv == d->cap)) {                                                \
			enum tk_status gst_ = grow_vals(d);                                        \
			if (gst_ < 0)                                                              \
				return gst_;                                                       \
		}                                                                                  \
		d->vals[d->nv].v.u = (val);                                                        \
		d->nv++;                                                                           \
	} while (0)

#define LOAD(bytes, fn)                                                                            \
	do {                                                                                       \
		NEED((bytes) *8);                                                                  \
		last = fn(d->base + (d->pos >> 3));                                                \
		d->pos += (bytes) *8;                                                              \
	} while (0)

static inline uint64_t ld8(const uint8_t *p)
{
	return *p;
}

static TK_NOINLINE enum tk_status apply_meaning(struct ctf_dec *d, uint8_t meaning, uint64_t v)
{
	switch (meaning) {
	case CTF_MEANING_MAGIC:
		if (v != UINT32_C(0xC1FC1FC1))
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot decode packet header: magic=0x%llx, "
				       "reason=expecting 0xc1fc1fc1",
				       (unsigned long long) v);
		break;
	case CTF_MEANING_STREAM_CLASS_ID:
		d->stream_class_id = v;
		break;
	case CTF_MEANING_DATA_STREAM_ID:
		d->data_stream_id = v;
		break;
	case CTF_MEANING_PACKET_BEGIN_TIME:
		d->ts_begin = v;
		break;
	case CTF_MEANING_PACKET_END_TIME:
		d->ts_end = v;
		break;
	case CTF_MEANING_DISCARDED_EVENTS:
		d->discarded = v;
		break;
	case CTF_MEANING_PACKET_SEQ_NUM:
		d->seq_num = v;
		break;
	case CTF_MEANING_PACKET_SIZE:
		d->packet_size = v;
		break;
	case CTF_MEANING_CONTENT_SIZE:
		d->content_size = v;
		break;
	case CTF_MEANING_EVENT_CLASS_ID:
		d->event_id = v;
		break;
	default:
		break;
	}
	return TK_OK;
}

/* Read an unsigned field of the LTTng header, aligning first; byte-aligned fast paths. */
static inline enum tk_status hdr_read(const struct ctf_prog *prog, const struct ctf_op *op,
				      struct ctf_dec *d, const struct hdr_field *f, uint64_t *v)
{
	d->pos = (d->pos + f->align - 1) & ~((uint64_t) f->align - 1);
	if (TK_UNLIKELY(d->limit - d->pos < f->bits || d->pos > d->limit))
		return fail_short(prog, op, d, f->bits);
	if (!(d->pos & 7)) {
		const uint8_t *p = d->base + (d->pos >> 3);

		switch (f->bits) {
		case 8:
			*v = *p;
			d->pos += 8;
			return TK_OK;
		case 16:
			*v = tk_load_u16(p, (enum tk_byte_order) f->bo);
			d->pos += 16;
			return TK_OK;
		case 32:
			*v = tk_load_u32(p, (enum tk_byte_order) f->bo);
			d->pos += 32;
			return TK_OK;
		case 64:
			*v = tk_load_u64(p, (enum tk_byte_order) f->bo);
			d->pos += 64;
			return TK_OK;
		default:
			break;
		}
	} else if (d->last_bo >= 0 && d->last_bo != f->bo) {
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot decode event header: offset-bits=%llu, "
			       "reason=byte order changes within a byte",
			       (unsigned long long) d->pos);
	}
	*v = tk_bits_read(d->base, d->pos, f->bits, (enum tk_byte_order) f->bo);
	d->pos += f->bits;
	d->last_bo = f->bo;
	return TK_OK;
}

static enum tk_status run_lttng_header(const struct ctf_prog *prog, const struct ctf_op *op,
				       struct ctf_dec *d)
{
	const struct lttng_header *h = op->hdr;
	uint64_t id = 0, v = 0;
	enum tk_status st;

	st = hdr_read(prog, op, d, &h->id, &id);
	if (st < 0)
		return st;
	if (h->id_store >= 0)
		d->stored[h->id_store] = id;
	if (id != h->extended) {
		d->pos = (d->pos + h->compact_align - 1) & ~((uint64_t) h->compact_align - 1);
		st = hdr_read(prog, op, d, &h->compact_ts, &v);
		if (st < 0)
			return st;
		ctf_update_clock(d, v, h->compact_ts.bits);
		d->event_id = id;
		return TK_OK;
	}
	d->pos = (d->pos + h->extended_align - 1) & ~((uint64_t) h->extended_align - 1);
	st = hdr_read(prog, op, d, &h->extended_id, &d->event_id);
	if (st < 0)
		return st;
	st = hdr_read(prog, op, d, &h->extended_ts, &v);
	if (st < 0)
		return st;
	ctf_update_clock(d, v, h->extended_ts.bits);
	return TK_OK;
}

/*
 * The interpreter. Dispatch is threaded (each operation jumps straight to the next one's
 * handler through a table of label addresses, a GNU C extension), which lets the branch
 * predictor learn operation sequences: it is the hottest loop of every reader.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
enum tk_status ctf_prog_run(const struct ctf_prog *prog, struct ctf_dec *d)
{
	static const void *const labels[] = {
		[OP_END] = &&L_OP_END,
		[OP_ALIGN] = &&L_OP_ALIGN,
		[OP_U8] = &&L_OP_U8,
		[OP_S8] = &&L_OP_S8,
		[OP_U16LE] = &&L_OP_U16LE,
		[OP_U16BE] = &&L_OP_U16BE,
		[OP_S16LE] = &&L_OP_S16LE,
		[OP_S16BE] = &&L_OP_S16BE,
		[OP_U32LE] = &&L_OP_U32LE,
		[OP_U32BE] = &&L_OP_U32BE,
		[OP_S32LE] = &&L_OP_S32LE,
		[OP_S32BE] = &&L_OP_S32BE,
		[OP_U64LE] = &&L_OP_U64LE,
		[OP_S64LE] = &&L_OP_S64LE,
		[OP_U64BE] = &&L_OP_U64BE,
		[OP_S64BE] = &&L_OP_S64BE,
		[OP_BITS] = &&L_OP_BITS,
		[OP_FLOAT] = &&L_OP_FLOAT,
		[OP_STRING] = &&L_OP_STRING,
		[OP_TEXT] = &&L_OP_TEXT,
		[OP_TEXT_SEQ] = &&L_OP_TEXT_SEQ,
		[OP_ARRAY] = &&L_OP_ARRAY,
		[OP_SEQ] = &&L_OP_SEQ,
		[OP_LOOP] = &&L_OP_LOOP,
		[OP_ARRAY_INTS] = &&L_OP_INTS,
		[OP_SEQ_INTS] = &&L_OP_INTS,
		[OP_VARIANT] = &&L_OP_VARIANT,
		[OP_JUMP] = &&L_OP_JUMP,
		[OP_MARK] = &&L_OP_MARK,
		[OP_LTTNG_HEADER] = &&L_OP_LTTNG_HEADER,
	};
	const struct ctf_op *ops = prog->ops, *op;
	uint32_t pc = 0;
	uint64_t last = 0;

#define DISPATCH() goto *labels[op->code]
#define NEXT()                                                                                     \
	do {                                                                                       \
		op = &ops[++pc];                                                                   \
		DISPATCH();                                                                        \
	} while (0)
#define JUMP(target)                                                                               \
	do {                                                                                       \
		pc = (target);                                                                     \
		op = &ops[pc];                                                                     \
		DISPATCH();                                                                        \
	} while (0)

	d->loop_depth = 0;
	op = &ops[0];
	DISPATCH();
L_OP_END:
	return TK_OK;
L_OP_ALIGN:
	d->pos = (d->pos + op->a - 1) & ~((uint64_t) op->a - 1);
	NEXT();
L_OP_U8:
	LOAD(1, ld8);
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_S8:
	LOAD(1, ld8);
	last = (uint64_t) (int64_t) (int8_t) last;
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_U16LE:
	LOAD(2, tk_load_le16);
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_U16BE:
	LOAD(2, tk_load_be16);
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_S16LE:
	LOAD(2, tk_load_le16);
	last = (uint64_t) (int64_t) (int16_t) last;
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_S16BE:
	LOAD(2, tk_load_be16);
	last = (uint64_t) (int64_t) (int16_t) last;
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_U32LE:
	LOAD(4, tk_load_le32);
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_U32BE:
	LOAD(4, tk_load_be32);
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_S32LE:
	LOAD(4, tk_load_le32);
	last = (uint64_t) (int64_t) (int32_t) last;
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_S32BE:
	LOAD(4, tk_load_be32);
	last = (uint64_t) (int64_t) (int32_t) last;
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_U64LE:
L_OP_S64LE:
	LOAD(8, tk_load_le64);
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_U64BE:
L_OP_S64BE:
	LOAD(8, tk_load_be64);
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_BITS:
	NEED(op->size);
	if (TK_UNLIKELY((d->pos & 7) && d->last_bo >= 0 && d->last_bo != op->bo))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot decode %s field: name=%s, offset-bits=%llu, "
			       "reason=byte order changes within a byte",
			       prog->scope, op->name ? op->name : "", (unsigned long long) d->pos);
	last = tk_bits_read(d->base, d->pos, op->size, (enum tk_byte_order) op->bo);
	if (op->is_signed)
		last = (uint64_t) tk_bits_sign_extend(last, op->size);
	d->pos += op->size;
	d->last_bo = op->bo;
	PUSH(last);
	if (TK_UNLIKELY(op->fx))
		goto side_effects;
	NEXT();
L_OP_FLOAT : {
	uint64_t raw;

	NEED(op->size);
	if ((d->pos & 7) == 0)
		raw = op->size == 32
			      ? tk_load_u32(d->base + (d->pos >> 3), (enum tk_byte_order) op->bo)
			      : tk_load_u64(d->base + (d->pos >> 3), (enum tk_byte_order) op->bo);
	else
		raw = tk_bits_read(d->base, d->pos, op->size, (enum tk_byte_order) op->bo);
	d->pos += op->size;
	if (TK_UNLIKELY(d->nv == d->cap) && grow_vals(d) < 0)
		return TK_ERR_NOMEM;
	if (op->size == 32) {
		uint32_t r32 = (uint32_t) raw;
		float f;

		memcpy(&f, &r32, sizeof(f));
		d->vals[d->nv].v.d = f;
	} else {
		double f;

		memcpy(&f, &raw, sizeof(f));
		d->vals[d->nv].v.d = f;
	}
	d->nv++;
	NEXT();
}
L_OP_STRING : {
	const uint8_t *p, *nul;
	uint64_t avail;

	NEED(8);
	p = d->base + (d->pos >> 3);
	avail = (d->limit - d->pos) >> 3;
	nul = memchr(p, 0, avail);
	if (TK_UNLIKELY(!nul))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot decode %s field: name=%s, offset-bits=%llu, "
			       "reason=string not terminated before the end of the "
			       "packet content",
			       prog->scope, op->name ? op->name : "", (unsigned long long) d->pos);
	if (TK_UNLIKELY(d->nv == d->cap) && grow_vals(d) < 0)
		return TK_ERR_NOMEM;
	d->vals[d->nv].v.s = (const char *) p;
	d->vals[d->nv].n = (uint64_t) (nul - p);
	d->nv++;
	d->pos += (uint64_t) (nul - p + 1) * 8;
	NEXT();
}
L_OP_TEXT:
L_OP_TEXT_SEQ : {
	uint64_t len = op->code == OP_TEXT ? op->len : d->stored[op->a];
	const uint8_t *p;

	if (TK_UNLIKELY(len > (d->limit - d->pos) / 8 || d->pos > d->limit))
		return fail_short(prog, op, d, len * 8);
	p = d->base + (d->pos >> 3);
	if (TK_UNLIKELY(d->nv == d->cap) && grow_vals(d) < 0)
		return TK_ERR_NOMEM;
	d->vals[d->nv].v.s = (const char *) p;
	d->vals[d->nv].n = len ? strnlen((const char *) p, len) : 0;
	d->nv++;
	d->pos += len * 8;
	NEXT();
}
L_OP_ARRAY:
L_OP_SEQ : {
	uint64_t len = op->code == OP_ARRAY ? op->len : d->stored[op->a];

	if (TK_UNLIKELY(d->nv == d->cap) && grow_vals(d) < 0)
		return TK_ERR_NOMEM;
	d->vals[d->nv].n = len;
	d->nv++;
	if (!len) {
		JUMP(op->b);
	}
	if (TK_UNLIKELY(op->empty_elem && len > (UINT64_C(1) << 20)))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot decode %s field: name=%s, length=%llu, "
			       "reason=too many elements that may be empty",
			       prog->scope, op->name ? op->name : "", (unsigned long long) len);
	if (TK_UNLIKELY(!op->empty_elem && len > d->limit - d->pos && d->limit >= d->pos))
		return fail_short(prog, op, d, len);
	if (TK_UNLIKELY(d->loop_depth == TK_ARRAY_SIZE(d->loops)))
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot decode %s field: name=%s, "
			       "reason=arrays nested too deeply",
			       prog->scope, op->name ? op->name : "");
	d->loops[d->loop_depth].start = pc + 1;
	d->loops[d->loop_depth].left = len;
	d->loop_depth++;
	NEXT();
}
L_OP_INTS : {
	uint64_t len = op->code == OP_ARRAY_INTS ? op->len : d->stored[op->a];

	if (TK_UNLIKELY(d->pos > d->limit || len > (d->limit - d->pos) / op->size))
		return fail_short(prog, op, d,
				  len > UINT64_MAX / op->size ? UINT64_MAX : len * op->size);
	while (TK_UNLIKELY(d->cap - d->nv <= len)) {
		enum tk_status gst = grow_vals(d);

		if (gst < 0)
			return gst;
	}
	d->vals[d->nv++].n = len;
	read_ints(d->vals + d->nv, d->base + (d->pos >> 3), len, op->b);
	d->nv += len;
	d->pos += len * op->size;
	NEXT();
}
L_OP_LOOP : {
	struct ctf_loop *l = &d->loops[d->loop_depth - 1];

	if (--l->left) {
		JUMP(l->start);
	}
	d->loop_depth--;
	NEXT();
}
L_OP_VARIANT : {
	uint64_t tag = d->stored[op->a];
	uint32_t option;

	if (TK_UNLIKELY(!variant_select(op->fc, tag, &option)))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot decode %s field: name=%s, tag=%lld, "
			       "reason=no variant option for this tag value",
			       prog->scope, op->name ? op->name : "", (long long) tag);
	if (TK_UNLIKELY(d->nv == d->cap) && grow_vals(d) < 0)
		return TK_ERR_NOMEM;
	d->vals[d->nv].n = option;
	d->nv++;
	JUMP(op->targets[option]);
}
L_OP_JUMP:
	JUMP(op->a);
L_OP_MARK:
	d->marks[op->a] = d->nv;
	NEXT();
L_OP_LTTNG_HEADER : {
	enum tk_status st = run_lttng_header(prog, op, d);

	if (st < 0)
		return st;
	NEXT();
}

side_effects:
	/* an integer read with fused side effects (stored value, clock, meaning) */
	if (op->fx & FX_STORE)
		d->stored[op->a] = last;
	if (op->fx & FX_CLOCK)
		ctf_update_clock(d, last, op->size);
	if (op->fx & FX_MEANING) {
		enum tk_status st = apply_meaning(d, op->meaning, last);

		if (st < 0)
			return st;
	}
	NEXT();
#undef DISPATCH
#undef NEXT
#undef JUMP
}
#pragma GCC diagnostic pop
