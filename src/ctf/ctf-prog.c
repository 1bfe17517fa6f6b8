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
	OP_STORE,
	OP_CLOCK,
	OP_MEANING,
};

struct ctf_op {
	uint8_t code;
	uint8_t bo;
	uint8_t is_signed;
	uint8_t empty_elem; /* arrays whose element may take no bits */
	uint32_t size;	    /* bits */
	uint32_t a;	    /* alignment, slot, jump target, meaning */
	uint32_t b;	    /* loop exit or start */
	uint64_t len;	    /* static array length */
	const struct model_fc *fc;
	const uint32_t *targets; /* variant: first op of each option */
	const char *name;	 /* field name, for error messages */
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
	if (fc->meaning != MODEL_MEANING_NONE) {
		EMIT(op, c, OP_MEANING, name);
		op->a = fc->meaning;
	}
	if (fc->store >= 0) {
		EMIT(op, c, OP_STORE, name);
		op->a = (uint32_t) fc->store;
	}
	if (fc->clock && !fc->is_signed) {
		EMIT(op, c, OP_CLOCK, name);
		op->size = fc->size;
	}
	return TK_OK;
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
			op->a = (uint32_t) fc->u.arr.length_fc->store;
			c->known = after(c->known, 8);
		}
		return TK_OK;
	}
	at = c->ops.len;
	EMIT(op, c, fc->kind == MODEL_FC_ARRAY ? OP_ARRAY : OP_SEQ, name);
	op->len = fc->u.arr.length;
	if (fc->kind == MODEL_FC_SEQUENCE)
		op->a = (uint32_t) fc->u.arr.length_fc->store;
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
	op->a = (uint32_t) fc->u.var.tag->store;
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

/* babeltrace2: an N-bit clock field updates the low bits, assuming at most one wrap. */
static inline void update_clock(struct ctf_dec *d, uint64_t v, uint32_t size)
{
	uint64_t mask;

	if (size >= 64) {
		d->clock = v;
		return;
	}
	mask = (UINT64_C(1) << size) - 1;
	if (v < (d->clock & mask))
		d->clock += mask + 1;
	d->clock = (d->clock & ~mask) | v;
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

enum tk_status ctf_prog_run(const struct ctf_prog *prog, struct ctf_dec *d)
{
	const struct ctf_op *ops = prog->ops, *op;
	uint32_t pc = 0;
	uint64_t last = 0;

	d->loop_depth = 0;
	for (;;) {
		op = &ops[pc];
		switch (op->code) {
		case OP_END:
			return TK_OK;
		case OP_ALIGN:
			d->pos = (d->pos + op->a - 1) & ~((uint64_t) op->a - 1);
			break;
		case OP_U8:
			LOAD(1, ld8);
			PUSH(last);
			break;
		case OP_S8:
			LOAD(1, ld8);
			last = (uint64_t) (int64_t) (int8_t) last;
			PUSH(last);
			break;
		case OP_U16LE:
			LOAD(2, tk_load_le16);
			PUSH(last);
			break;
		case OP_U16BE:
			LOAD(2, tk_load_be16);
			PUSH(last);
			break;
		case OP_S16LE:
			LOAD(2, tk_load_le16);
			last = (uint64_t) (int64_t) (int16_t) last;
			PUSH(last);
			break;
		case OP_S16BE:
			LOAD(2, tk_load_be16);
			last = (uint64_t) (int64_t) (int16_t) last;
			PUSH(last);
			break;
		case OP_U32LE:
			LOAD(4, tk_load_le32);
			PUSH(last);
			break;
		case OP_U32BE:
			LOAD(4, tk_load_be32);
			PUSH(last);
			break;
		case OP_S32LE:
			LOAD(4, tk_load_le32);
			last = (uint64_t) (int64_t) (int32_t) last;
			PUSH(last);
			break;
		case OP_S32BE:
			LOAD(4, tk_load_be32);
			last = (uint64_t) (int64_t) (int32_t) last;
			PUSH(last);
			break;
		case OP_U64LE:
		case OP_S64LE:
			LOAD(8, tk_load_le64);
			PUSH(last);
			break;
		case OP_U64BE:
		case OP_S64BE:
			LOAD(8, tk_load_be64);
			PUSH(last);
			break;
		case OP_BITS:
			NEED(op->size);
			if (TK_UNLIKELY((d->pos & 7) && d->last_bo >= 0 && d->last_bo != op->bo))
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot decode %s field: name=%s, offset-bits=%llu, "
					       "reason=byte order changes within a byte",
					       prog->scope, op->name ? op->name : "",
					       (unsigned long long) d->pos);
			last = tk_bits_read(d->base, d->pos, op->size, (enum tk_byte_order) op->bo);
			if (op->is_signed)
				last = (uint64_t) tk_bits_sign_extend(last, op->size);
			d->pos += op->size;
			d->last_bo = op->bo;
			PUSH(last);
			break;
		case OP_FLOAT: {
			uint64_t raw;

			NEED(op->size);
			if ((d->pos & 7) == 0)
				raw = op->size == 32 ? tk_load_u32(d->base + (d->pos >> 3),
								   (enum tk_byte_order) op->bo)
						     : tk_load_u64(d->base + (d->pos >> 3),
								   (enum tk_byte_order) op->bo);
			else
				raw = tk_bits_read(d->base, d->pos, op->size,
						   (enum tk_byte_order) op->bo);
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
			break;
		}
		case OP_STRING: {
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
					       prog->scope, op->name ? op->name : "",
					       (unsigned long long) d->pos);
			if (TK_UNLIKELY(d->nv == d->cap) && grow_vals(d) < 0)
				return TK_ERR_NOMEM;
			d->vals[d->nv].v.s = (const char *) p;
			d->vals[d->nv].n = (uint64_t) (nul - p);
			d->nv++;
			d->pos += (uint64_t) (nul - p + 1) * 8;
			break;
		}
		case OP_TEXT:
		case OP_TEXT_SEQ: {
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
			break;
		}
		case OP_ARRAY:
		case OP_SEQ: {
			uint64_t len = op->code == OP_ARRAY ? op->len : d->stored[op->a];

			if (TK_UNLIKELY(d->nv == d->cap) && grow_vals(d) < 0)
				return TK_ERR_NOMEM;
			d->vals[d->nv].n = len;
			d->nv++;
			if (!len) {
				pc = op->b;
				continue;
			}
			if (TK_UNLIKELY(op->empty_elem && len > (UINT64_C(1) << 20)))
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot decode %s field: name=%s, length=%llu, "
					       "reason=too many elements that may be empty",
					       prog->scope, op->name ? op->name : "",
					       (unsigned long long) len);
			if (TK_UNLIKELY(!op->empty_elem && len > d->limit - d->pos &&
					d->limit >= d->pos))
				return fail_short(prog, op, d, len);
			if (TK_UNLIKELY(d->loop_depth == TK_ARRAY_SIZE(d->loops)))
				return TK_FAIL(TK_ERR_UNSUPPORTED,
					       "Cannot decode %s field: name=%s, "
					       "reason=arrays nested too deeply",
					       prog->scope, op->name ? op->name : "");
			d->loops[d->loop_depth].start = pc + 1;
			d->loops[d->loop_depth].left = len;
			d->loop_depth++;
			break;
		}
		case OP_LOOP: {
			struct ctf_loop *l = &d->loops[d->loop_depth - 1];

			if (--l->left) {
				pc = l->start;
				continue;
			}
			d->loop_depth--;
			break;
		}
		case OP_VARIANT: {
			uint64_t tag = d->stored[op->a];
			uint32_t option;

			if (TK_UNLIKELY(!variant_select(op->fc, tag, &option)))
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot decode %s field: name=%s, tag=%lld, "
					       "reason=no variant option for this tag value",
					       prog->scope, op->name ? op->name : "",
					       (long long) tag);
			if (TK_UNLIKELY(d->nv == d->cap) && grow_vals(d) < 0)
				return TK_ERR_NOMEM;
			d->vals[d->nv].n = option;
			d->nv++;
			pc = op->targets[option];
			continue;
		}
		case OP_JUMP:
			pc = op->a;
			continue;
		case OP_STORE:
			d->stored[op->a] = last;
			break;
		case OP_CLOCK:
			update_clock(d, last, op->size);
			break;
		case OP_MEANING:
			switch (op->a) {
			case MODEL_MEANING_MAGIC:
				if (last != UINT32_C(0xC1FC1FC1))
					return TK_FAIL(TK_ERR_FORMAT,
						       "Cannot decode packet header: magic=0x%llx, "
						       "reason=expecting 0xc1fc1fc1",
						       (unsigned long long) last);
				break;
			case MODEL_MEANING_STREAM_CLASS_ID:
				d->stream_class_id = last;
				break;
			case MODEL_MEANING_DATA_STREAM_ID:
				d->data_stream_id = last;
				break;
			case MODEL_MEANING_PACKET_BEGIN_TIME:
				d->ts_begin = last;
				break;
			case MODEL_MEANING_PACKET_END_TIME:
				d->ts_end = last;
				break;
			case MODEL_MEANING_DISCARDED_EVENTS:
				d->discarded = last;
				break;
			case MODEL_MEANING_PACKET_SEQ_NUM:
				d->seq_num = last;
				break;
			case MODEL_MEANING_PACKET_SIZE:
				d->packet_size = last;
				break;
			case MODEL_MEANING_CONTENT_SIZE:
				d->content_size = last;
				break;
			case MODEL_MEANING_EVENT_CLASS_ID:
				d->event_id = last;
				break;
			default:
				break;
			}
			break;
		}
		pc++;
	}
}
