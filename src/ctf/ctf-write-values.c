// SPDX-License-Identifier: MIT
/*
 * Values of declared fields, per event: checked and measured first (so that nothing is
 * written when one is wrong, and the packet is known to have room), then written. Flat lists
 * (the first writer's kinds) take a fast path over the compiled arrays; lists with nested
 * kinds are walked depth first, value by value, in the order of struct tk_ctf_value.
 *
 * Readers align every field but empty structures to a byte, and an integer of an odd size
 * ends inside its last byte: r->pad follows the padding bits after the last field written,
 * so that the packet content can end at the event's last bit (CTF 1.8.3 section 5), where
 * readers stop.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bits.h"
#include "../common/error.h"
#include "ctf-write-priv.h"

/* Longest string or sequence one event may carry; larger events are refused. */
#define CW_MAX_LEN   UINT32_MAX
#define CW_MAX_EVENT (UINT64_C(1) << 40)

/* ---- checking and measuring ----------------------------------------------------------------- */

static enum tk_status bad_value(const struct cw_run *r, const struct cw_field *f, uint64_t len,
				const char *why)
{
	return TK_FAIL(TK_ERR_INVAL,
		       "Cannot append event: stream=%s, field=%s, length=%" PRIu64 ", reason=%s",
		       r->stream, f->name ? f->name : "(element)", len, why);
}

/* The flat path: only strings, arrays and sequences need a look. */
static enum tk_status measure_flat(const struct cw_fields *fs, const struct tk_ctf_value *v,
				   uint64_t *need, const struct cw_run *r)
{
	uint32_t k;

	for (k = 0; k < fs->n_var; k++) {
		const struct cw_field *f = &fs->f[fs->var[k]];
		const struct tk_ctf_value *x = &v[fs->var[k]];
		uint64_t limit = f->op == CW_OP_ARRAY ? f->array_len : CW_MAX_LEN;

		if (TK_UNLIKELY((!x->data && x->len) || x->len > limit))
			return bad_value(r, f, x->len,
					 !x->data && x->len ? "no data"
					 : f->op == CW_OP_ARRAY
						 ? "more elements than the array holds"
						 : "too long");
		if (f->op == CW_OP_STRING)
			*need += x->len;
		else if (f->op == CW_OP_SEQUENCE)
			*need += (uint64_t) x->len * f->out_bytes;
	}
	return TK_OK;
}

/* A value as readers take it back: the low @bits bits, sign-extended when signed. */
static uint64_t as_read(uint64_t v, unsigned int bits, int is_signed)
{
	if (bits < 64) {
		v &= (UINT64_C(1) << bits) - 1;
		if (is_signed && ((v >> (bits - 1)) & 1))
			v |= ~((UINT64_C(1) << bits) - 1);
	}
	return v;
}

/* Whether a tag value @t chooses option @i of the variant @f. */
static int option_chosen(const struct cw_field *f, uint32_t i, uint64_t t)
{
	uint32_t k;

	for (k = f->opt_first[i]; k < f->opt_first[i + 1]; k++) {
		const struct cw_range *x = &f->ranges[k];

		if (f->is_signed ? (int64_t) t >= x->lo.i && (int64_t) t <= x->hi.i
				 : t >= x->lo.u && t <= x->hi.u)
			return 1;
	}
	return 0;
}

static enum tk_status measure_field(const struct cw_field *f, const struct tk_ctf_value **vp,
				    uint64_t *need, struct cw_run *r);

static enum tk_status measure_list(const struct cw_fields *fs, const struct tk_ctf_value **vp,
				   uint64_t *need, struct cw_run *r)
{
	enum tk_status st;
	uint32_t i;

	for (i = 0; i < fs->n; i++) {
		st = measure_field(&fs->f[i], vp, need, r);
		if (st < 0)
			return st;
	}
	return TK_OK;
}

/* The elements of an ARRAY_OF or SEQ_OF: a static element is skipped as a block. */
static enum tk_status measure_elems(const struct cw_field *f, uint64_t len,
				    const struct tk_ctf_value **vp, uint64_t *need,
				    struct cw_run *r)
{
	const struct cw_field *e = &f->sub.f[0];
	enum tk_status st;
	uint64_t k;

	if (e->simple) {
		*need += len * e->size;
		*vp += len * e->n_vals;
		return TK_OK;
	}
	for (k = 0; k < len; k++) {
		st = measure_field(e, vp, need, r);
		if (st < 0)
			return st;
	}
	return TK_OK;
}

static enum tk_status measure_field(const struct cw_field *f, const struct tk_ctf_value **vp,
				    uint64_t *need, struct cw_run *r)
{
	const struct tk_ctf_value *x = *vp;

	if (f->simple) {
		*need += f->size;
		*vp += f->n_vals;
		return TK_OK;
	}
	if (*need > CW_MAX_EVENT)
		return bad_value(r, f, *need, "event too large");
	switch (f->op) {
	case CW_OP_U8:
	case CW_OP_U16:
	case CW_OP_U32:
	case CW_OP_U64:
	case CW_OP_BITS:
		*need += f->out_bytes;
		if (f->store >= 0)
			r->stored[f->store] = as_read(x->v.u, f->bits, f->is_signed);
		*vp = x + 1;
		return TK_OK;
	case CW_OP_F32:
	case CW_OP_F64:
		*need += f->out_bytes;
		*vp = x + 1;
		return TK_OK;
	case CW_OP_STRING:
		if ((!x->data && x->len) || x->len > CW_MAX_LEN)
			return bad_value(r, f, x->len,
					 x->len > CW_MAX_LEN ? "too long" : "no data");
		*need += x->len + 1;
		*vp = x + 1;
		return TK_OK;
	case CW_OP_ARRAY:
	case CW_OP_SEQUENCE:
		if ((!x->data && x->len) ||
		    x->len > (f->op == CW_OP_ARRAY ? f->array_len : CW_MAX_LEN))
			return bad_value(r, f, x->len,
					 !x->data && x->len ? "no data"
					 : f->op == CW_OP_ARRAY
						 ? "more elements than the array holds"
						 : "too long");
		if (f->ref >= 0 && x->len != r->stored[f->ref])
			return bad_value(r, f, x->len, "not the value of its length member");
		if (f->op == CW_OP_ARRAY)
			*need += f->array_len * f->out_bytes;
		else
			*need += (f->ref < 0 ? 4 : 0) + (uint64_t) x->len * f->out_bytes;
		*vp = x + 1;
		return TK_OK;
	case CW_OP_STRUCT:
		return measure_list(&f->sub, vp, need, r);
	case CW_OP_VARIANT:
		if (x->len >= f->sub.n)
			return bad_value(r, f, x->len, "no such option");
		if (!option_chosen(f, (uint32_t) x->len, r->stored[f->ref]))
			return bad_value(r, f, x->len, "the tag's value chooses another option");
		*vp = x + 1;
		return measure_field(&f->sub.f[x->len], vp, need, r);
	case CW_OP_ARRAY_OF:
		if (x->len != f->array_len)
			return bad_value(r, f, x->len, "not the array's length");
		*vp = x + 1;
		return measure_elems(f, x->len, vp, need, r);
	default: /* CW_OP_SEQ_OF */
		if (x->len > CW_MAX_LEN)
			return bad_value(r, f, x->len, "too long");
		if (f->ref >= 0 && x->len != r->stored[f->ref])
			return bad_value(r, f, x->len, "not the value of its length member");
		if (f->ref < 0)
			*need += 4;
		*vp = x + 1;
		return measure_elems(f, x->len, vp, need, r);
	}
}

enum tk_status ctf_write_measure(const struct cw_fields *fs, const struct tk_ctf_value *v,
				 uint64_t *need, struct cw_run *r)
{
	enum tk_status st;

	if (fs->flat)
		return fs->n_var ? measure_flat(fs, v, need, r) : TK_OK;
	st = measure_list(fs, &v, need, r);
	if (st >= 0 && *need > CW_MAX_EVENT)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot append event: stream=%s, bytes=%" PRIu64
			       ", reason=event too large",
			       r->stream, *need);
	return st;
}

/* ---- writing -------------------------------------------------------------------------------- */

/* An integer of @f->bits bits (not 8, 16, 32 or 64) in @f->out_bytes bytes. */
static inline uint8_t *put_bits(uint8_t *p, const struct cw_field *f, uint64_t v,
				enum tk_byte_order bo)
{
	memset(p, 0, f->out_bytes);
	tk_bits_write(p, 0, f->bits, v, bo);
	return p + f->out_bytes;
}

/* @n elements from the caller's array @data (host order, f->in_bytes each). */
static uint8_t *put_elems(uint8_t *p, const struct cw_field *f, const void *data, size_t n,
			  enum tk_byte_order bo)
{
	const uint8_t *src = data;
	size_t i;

	if (!n)
		return p;
	if (f->bits == 8 || (bo == TK_BYTE_ORDER_HOST && f->bits == 8u * f->in_bytes)) {
		memcpy(p, src, n * f->out_bytes);
		return p + n * f->out_bytes;
	}
	switch (f->bits) {
	case 16:
		for (i = 0; i < n; i++)
			tk_store_u16(p + 2 * i, tk_load_u16(src + 2 * i, TK_BYTE_ORDER_HOST), bo);
		return p + 2 * n;
	case 32:
		for (i = 0; i < n; i++)
			tk_store_u32(p + 4 * i, tk_load_u32(src + 4 * i, TK_BYTE_ORDER_HOST), bo);
		return p + 4 * n;
	case 64:
		for (i = 0; i < n; i++)
			tk_store_u64(p + 8 * i, tk_load_u64(src + 8 * i, TK_BYTE_ORDER_HOST), bo);
		return p + 8 * n;
	default:
		break;
	}
	for (i = 0; i < n; i++, src += f->in_bytes) {
		uint64_t v;

		v = tk_load_uint(src, f->in_bytes, TK_BYTE_ORDER_HOST);
		p = put_bits(p, f, v, bo);
	}
	return p;
}

static inline float to_float(double d)
{
	/* out of range is undefined behaviour in C: give the infinity IEEE 754 rounding gives */
	if (d > FLT_MAX)
		return INFINITY;
	if (d < -FLT_MAX)
		return -INFINITY;
	return (float) d;
}

/* The scalar, string or data array @f with value @v (one value, no nesting). */
static inline uint8_t *put_one(uint8_t *p, const struct cw_field *f, const struct tk_ctf_value *v,
			       enum tk_byte_order bo)
{
	switch (f->op) {
	case CW_OP_U8:
		*p = (uint8_t) v->v.u;
		return p + 1;
	case CW_OP_U16:
		tk_store_u16(p, (uint16_t) v->v.u, bo);
		return p + 2;
	case CW_OP_U32:
		tk_store_u32(p, (uint32_t) v->v.u, bo);
		return p + 4;
	case CW_OP_U64:
		tk_store_u64(p, v->v.u, bo);
		return p + 8;
	case CW_OP_BITS:
		return put_bits(p, f, v->v.u, bo);
	case CW_OP_F32: {
		float x = to_float(v->v.d);
		uint32_t u;

		memcpy(&u, &x, sizeof(u));
		tk_store_u32(p, u, bo);
		return p + 4;
	}
	case CW_OP_F64: {
		uint64_t u;

		memcpy(&u, &v->v.d, sizeof(u));
		tk_store_u64(p, u, bo);
		return p + 8;
	}
	case CW_OP_STRING: {
		size_t n = v->len;

		if (n) {
			const uint8_t *nul = memchr(v->data, 0, n);

			if (nul)
				n = (size_t) (nul - (const uint8_t *) v->data);
			memcpy(p, v->data, n);
		}
		p[n] = 0;
		return p + n + 1;
	}
	case CW_OP_ARRAY:
		p = put_elems(p, f, v->data, v->len, bo);
		if (v->len < f->array_len) {
			size_t rest = (size_t) (f->array_len - v->len) * f->out_bytes;

			memset(p, 0, rest);
			p += rest;
		}
		return p;
	default: /* CW_OP_SEQUENCE */
		if (f->ref < 0) {
			tk_store_u32(p, (uint32_t) v->len, bo);
			p += 4;
		}
		return put_elems(p, f, v->data, v->len, bo);
	}
}

/* Padding bits after @f's last one (@len: elements of an array or sequence). */
static inline uint8_t pad_after(const struct cw_field *f, uint64_t len)
{
	if (f->op == CW_OP_BITS || ((f->op == CW_OP_ARRAY || f->op == CW_OP_SEQUENCE) && len))
		return (uint8_t) (8 * f->out_bytes - f->bits);
	return 0;
}

static uint8_t *put_field(uint8_t *p, const struct cw_field *f, const struct tk_ctf_value **vp,
			  enum tk_byte_order bo, struct cw_run *r);

static uint8_t *put_list(uint8_t *p, const struct cw_fields *fs, const struct tk_ctf_value **vp,
			 enum tk_byte_order bo, struct cw_run *r)
{
	uint32_t i;

	for (i = 0; i < fs->n; i++)
		p = put_field(p, &fs->f[i], vp, bo, r);
	return p;
}

static uint8_t *put_field(uint8_t *p, const struct cw_field *f, const struct tk_ctf_value **vp,
			  enum tk_byte_order bo, struct cw_run *r)
{
	const struct tk_ctf_value *x = *vp;
	uint64_t k;

	if (f->aligned)
		r->pad = 0; /* readers move to the next byte first */
	switch (f->op) {
	case CW_OP_STRUCT:
		return put_list(p, &f->sub, vp, bo, r);
	case CW_OP_VARIANT:
		*vp = x + 1;
		return put_field(p, &f->sub.f[x->len], vp, bo, r);
	case CW_OP_ARRAY_OF:
	case CW_OP_SEQ_OF:
		*vp = x + 1;
		if (f->op == CW_OP_SEQ_OF && f->ref < 0) {
			tk_store_u32(p, (uint32_t) x->len, bo);
			p += 4;
		}
		for (k = 0; k < x->len; k++)
			p = put_field(p, &f->sub.f[0], vp, bo, r);
		return p;
	default:
		*vp = x + 1;
		p = put_one(p, f, x, bo);
		if (f->op == CW_OP_BITS || f->op == CW_OP_ARRAY || f->op == CW_OP_SEQUENCE)
			r->pad = pad_after(f, f->op == CW_OP_ARRAY ? f->array_len : x->len);
		return p;
	}
}

uint8_t *ctf_write_put(uint8_t *p, const struct cw_fields *fs, const struct tk_ctf_value *v,
		       enum tk_byte_order bo, struct cw_run *r)
{
	const struct cw_field *f = fs->f;
	uint32_t i;

	if (!fs->flat)
		return put_list(p, fs, &v, bo, r);
	for (i = 0; i < fs->n; i++)
		p = put_one(p, &f[i], &v[i], bo);
	if (fs->n)
		r->pad = fs->tail_seq && !v[fs->n - 1].len ? 0 : fs->tail_pad;
	return p;
}

/* ---- zero values ---------------------------------------------------------------------------- */

/*
 * The values of @f when every integer is 0 (see tk_ctf_writer_add_stream_desc()), at *@out
 * when it is not NULL; counts them in *@n. -1 when a variant has no option for a tag of 0.
 */
static int zero_field(const struct cw_field *f, struct tk_ctf_value **out, size_t *n)
{
	uint64_t k;
	uint32_t i;

	switch (f->op) {
	case CW_OP_STRUCT:
		for (i = 0; i < f->sub.n; i++)
			if (zero_field(&f->sub.f[i], out, n) < 0)
				return -1;
		return 0;
	case CW_OP_VARIANT:
		for (i = 0; i < f->sub.n && !option_chosen(f, i, 0); i++)
			;
		if (i == f->sub.n)
			return -1;
		if (*out)
			(*out)++->len = i;
		(*n)++;
		return zero_field(&f->sub.f[i], out, n);
	case CW_OP_ARRAY_OF:
		if (*out)
			(*out)++->len = (size_t) f->array_len;
		(*n)++;
		for (k = 0; k < f->array_len; k++)
			if (zero_field(&f->sub.f[0], out, n) < 0)
				return -1;
		return 0;
	default: /* everything else: one value, all zero (sequences empty) */
		if (*out)
			(*out)++;
		(*n)++;
		return 0;
	}
}

enum tk_status ctf_write_zero_values(const struct cw_fields *fs, struct tk_ctf_value **out)
{
	struct tk_ctf_value *v = NULL, *p;
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < fs->n; i++)
		if (zero_field(&fs->f[i], &v, &n) < 0)
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot make zero values: field=%s, reason=a variant has no "
				       "option for a tag of 0",
				       fs->f[i].name);
	if (n > SIZE_MAX / sizeof(*v) - 1)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot make zero values: count=%zu", n);
	p = v = calloc(n + 1, sizeof(*v));
	if (!v)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot make zero values: count=%zu", n);
	n = 0;
	for (i = 0; i < fs->n; i++)
		(void) zero_field(&fs->f[i], &p, &n);
	*out = v;
	return TK_OK;
}
