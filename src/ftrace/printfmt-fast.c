// SPDX-License-Identifier: MIT
/*
 * The fast plan of print fmts. Walking the argument tree and the generic printf code per
 * conversion costs far more than the formatting itself, and a `-e all` trace is mostly
 * events whose print fmts mix a few shapes: literal text, plain integer conversions of fields
 * ("NR %ld = %ld"), "%p" and "%pS" of fields (kmem), "%s" of __get_str(), __print_flags() and
 * __print_symbolic() of fields, and conditionals choosing between such strings
 * ("gfp_flags=%s", REC->gfp_flags ? __print_flags(...) : "none").
 *
 * Each print fmt is turned once, on first use, into one operation per piece, a literal and
 * the bounded conversion after it making one. Bounded ones (literals, integers, "%p") are
 * written straight into the output buffer, a run of them at a time; the others write through the pf_out functions with their arguments resolved once
 * (field places, casts folded into masks, flag texts with their lengths); any piece of
 * another shape runs the general code (ftrace_pf_print_piece()). The output is byte for byte
 * what ftrace_pf_pretty() prints without the plan: every operation does what the general path
 * does for that shape, in the same order, and near the output cap, or after a NUL, the rest
 * of the pieces go the general way. The fuzz harness of the print-fmt engine prints each
 * record both ways and traps on a difference (ctx->print_general_only).
 */
#include <stdlib.h>
#include <string.h>

#include "printfmt-int.h"

/* Bytes a bounded conversion writes at most (20 digits and a sign, "0x" and 16 digits). */
#define FAST_NUM_MAX 24u
/* Literal copies are 16 bytes at a time: the slack kept after the last write of a run. */
#define FAST_SLACK 16
/* Texts of __print_flags() kept per argument, and their longest. */
#define FAST_FLAGS_MEMO 8
#define FAST_FLAGS_TEXT 240

struct pf_fast_memo_entry {
	uint64_t val;
	uint32_t len; /* the text's length plus 1; 0: empty slot */
	char text[FAST_FLAGS_TEXT];
};

struct pf_fast_memo {
	struct pf_fast_memo_entry e[FAST_FLAGS_MEMO];
};

/* What a "%s" without a small bound (str_budget()) or a symbol writes in place at most. */
#define FAST_STR_BUDGET 64
#define FAST_SYM_BUDGET 96
/* Bounds above this count as none. */
#define FAST_STR_BUDGET_MAX 128

/* Literals up to this length are merged into the bounded conversion after them. */
#define FAST_PRE_MAX 256
/* Zero-padded conversions up to this width are bounded operations. */
#define FAST_MAX_WIDTH 64
/* Conditionals nested deeper than this go the general way. */
#define FAST_MAX_DEPTH 8

/* ------------------------------------------------------------------ memory */

/*
 * A plan's memory: blocks from which its parts are cut in order, so that the operations, their
 * literals and their arguments lie together (an event's print touches them all, and a `-e
 * all` trace cycles through hundreds of plans). A part bigger than half a block gets a block
 * of its own, and the block being cut stays current.
 */
#define FAST_BLOCK 1024u

struct fast_block {
	struct fast_block *next;
	size_t used, cap; /* bytes of data cut, and its size */
	max_align_t data[];
};

/* Zeroed memory owned by @pp's plan, or NULL. */
static void *fast_alloc(struct pf_print *pp, size_t size)
{
	struct fast_block *b = pp->fast_mem, *nb;
	size_t cap;

	size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (b && b->cap - b->used >= size) {
		void *p = (char *) b->data + b->used;

		b->used += size;
		return p;
	}
	cap = size > FAST_BLOCK / 2 ? size : FAST_BLOCK;
	nb = calloc(1, sizeof(*nb) + cap);
	if (!nb)
		return NULL;
	nb->cap = cap;
	nb->used = size;
	if (b && size > FAST_BLOCK / 2) {
		/* a block of its own, behind the current one */
		nb->next = b->next;
		b->next = nb;
	} else {
		nb->next = b;
		pp->fast_mem = nb;
	}
	return nb->data;
}

void ftrace_pf_fast_free(struct pf_print *pp)
{
	struct fast_block *b = pp->fast_mem;

	while (b) {
		struct fast_block *next = b->next;

		free(b);
		b = next;
	}
	pp->fast_mem = NULL;
	pp->fast = NULL;
	pp->n_fast = 0;
}

/* ------------------------------------------------------------------ building */

/* Expressions nested deeper than this are left to the evaluator. */
#define FAST_MAX_EXPR 64

static struct pf_fast_expr *expr_new(struct pf_print *pp, enum pf_fast_expr_kind kind,
				     struct pf_arg *a)
{
	struct pf_fast_expr *x = fast_alloc(pp, sizeof(*x));

	if (x) {
		x->kind = kind;
		x->arg = a;
	}
	return x;
}

/*
 * Expression @a as ftrace_pf_eval() computes it, with the parts that read no field computed
 * now (NULL when out of memory). Whatever has a side effect or an odd shape (a word looked
 * up as a symbol, indexes, functions) stays with the evaluator.
 */
static const struct pf_fast_expr *expr_build(struct pf_print *pp, struct pf_arg *a,
					     unsigned int depth)
{
	struct pf_fast_expr *x;
	const struct pf_fast_expr *l, *r, *c;

	if (!a)
		return expr_new(pp, FTRACE_PF_FX_CONST, a);
	if (depth >= FAST_MAX_EXPR)
		return expr_new(pp, FTRACE_PF_FX_EVAL, a);
	switch (a->kind) {
	case FTRACE_PF_ATOM: {
		uint64_t v = a->atom.num;

		if (a->atom.state == FTRACE_PF_ATOM_TEXT) {
			/* atom_value(): a number stays one; a word becomes a symbol's address */
			v = strtoull(a->atom.text, NULL, 0);
			if (!v && !(a->atom.text[0] >= '0' && a->atom.text[0] <= '9'))
				return expr_new(pp, FTRACE_PF_FX_EVAL, a);
		}
		x = expr_new(pp, FTRACE_PF_FX_CONST, a);
		if (x)
			x->k = v;
		return x;
	}
	case FTRACE_PF_FIELD:
		x = expr_new(pp, a->field.f ? FTRACE_PF_FX_FIELD : FTRACE_PF_FX_CONST, a);
		if (x && a->field.f) {
			x->off = a->field.f->offset;
			x->size = a->field.f->size;
			x->k = ~(uint64_t) 0;
		}
		return x;
	case FTRACE_PF_TYPE:
		l = expr_build(pp, a->typecast.item, depth + 1);
		x = l ? expr_new(pp, FTRACE_PF_FX_CAST, a) : NULL;
		if (!x)
			return NULL;
		if (l->kind == FTRACE_PF_FX_CONST || l->kind == FTRACE_PF_FX_FIELD) {
			/* a cast of a constant is one; a field keeps the mask */
			*x = *l;
			x->k = l->k & a->typecast.mask;
			return x;
		}
		x->k = a->typecast.mask;
		x->l = l;
		return x;
	case FTRACE_PF_OP:
		if (a->op.op[0] == '[' || (a->op.op[0] == '?' && a->op.op[1]))
			break;
		if (a->op.op[0] == '?') {
			if (!a->op.right || a->op.right->kind != FTRACE_PF_OP)
				break;
			c = expr_build(pp, a->op.left, depth + 1);
			l = expr_build(pp, a->op.right->op.left, depth + 1);
			r = expr_build(pp, a->op.right->op.right, depth + 1);
			x = c && l && r ? expr_new(pp, FTRACE_PF_FX_COND, a) : NULL;
			if (!x)
				return NULL;
			if (c->kind == FTRACE_PF_FX_CONST)
				return c->k ? l : r;
			x->c = c;
			x->l = l;
			x->r = r;
			return x;
		}
		l = expr_build(pp, a->op.left, depth + 1);
		r = expr_build(pp, a->op.right, depth + 1);
		x = l && r ? expr_new(pp, FTRACE_PF_FX_OP, a) : NULL;
		if (!x)
			return NULL;
		x->op = a->op.op;
		if (l->kind == FTRACE_PF_FX_CONST && r->kind == FTRACE_PF_FX_CONST) {
			x->kind = FTRACE_PF_FX_CONST;
			x->k = ftrace_pf_op_apply(a->op.op, l->k, r->k);
			return x;
		}
		x->l = l;
		x->r = r;
		return x;
	default:
		break;
	}
	return expr_new(pp, FTRACE_PF_FX_EVAL, a);
}

static uint64_t expr_get(const struct pf_rec *r, const struct pf_fast_expr *x);

/* A field's or a constant's value without a call, else expr_get(). */
static inline uint64_t expr_leaf(const struct pf_rec *r, const struct pf_fast_expr *x)
{
	if (x->kind == FTRACE_PF_FX_CONST)
		return x->k;
	if (x->kind == FTRACE_PF_FX_FIELD) {
		if ((uint64_t) x->off + x->size > r->size)
			return 0;
		return ftrace_pf_read_num(r, x->off, x->size) & x->k;
	}
	return expr_get(r, x);
}

static uint64_t expr_get(const struct pf_rec *r, const struct pf_fast_expr *x)
{
	switch (x->kind) {
	case FTRACE_PF_FX_CONST:
	case FTRACE_PF_FX_FIELD:
		return expr_leaf(r, x);
	case FTRACE_PF_FX_CAST:
		return expr_leaf(r, x->l) & x->k;
	case FTRACE_PF_FX_OP:
		return ftrace_pf_op_apply(x->op, expr_leaf(r, x->l), expr_leaf(r, x->r));
	case FTRACE_PF_FX_COND:
		return expr_get(r, expr_get(r, x->c) ? x->l : x->r);
	default:
		return ftrace_pf_eval(r, x->arg);
	}
}

/*
 * Whether @x is a field under casts and "&" with constants (the sched_switch state:
 * REC->prev_state & (TASK_REPORT_MAX - 1)), which reads as the field with a mask: its place
 * into @off and @size, the mask into @mask.
 */
static bool expr_as_field(const struct pf_fast_expr *x, uint32_t *off, uint32_t *size,
			  uint64_t *mask)
{
	const struct pf_fast_expr *k, *f;

	switch (x->kind) {
	case FTRACE_PF_FX_FIELD:
		*off = x->off;
		*size = x->size;
		*mask = x->k;
		return true;
	case FTRACE_PF_FX_CAST:
		if (!expr_as_field(x->l, off, size, mask))
			return false;
		*mask &= x->k;
		return true;
	case FTRACE_PF_FX_OP:
		if (x->op[0] != '&' || x->op[1])
			return false;
		k = x->l->kind == FTRACE_PF_FX_CONST ? x->l : x->r;
		f = k == x->l ? x->r : x->l;
		if (k->kind != FTRACE_PF_FX_CONST || !expr_as_field(f, off, size, mask))
			return false;
		*mask &= k->k;
		return true;
	default:
		return false;
	}
}

/*
 * The 8-byte load of @v (val_get()) when the trace is little-endian and the value a field's:
 * fewer branches than a load by size, in a loop where the sizes change from one value to the
 * next.
 */
static void val_wide(const struct ftrace_ctx *ctx, struct pf_fast_val *v)
{
	v->end8 = UINT64_MAX;
	v->mask8 = 0;
	if (v->x || ctx->bo != TK_BYTE_ORDER_LE ||
	    (v->size != 1 && v->size != 2 && v->size != 4 && v->size != 8))
		return;
	v->end8 = (uint64_t) v->off + 8;
	v->mask8 = v->size == 8 ? v->mask : v->mask & (((uint64_t) 1 << (8 * v->size)) - 1);
}

/*
 * A value as ftrace_pf_eval() computes it: a field behind casts (or masked by constants,
 * expr_as_field()) is read at its place, other expressions are built once; false when out
 * of memory.
 */
static bool val_build(struct pf_print *pp, struct pf_arg *a, struct pf_fast_val *v)
{
	uint64_t mask = ~(uint64_t) 0;
	const struct pf_fast_expr *e;
	struct pf_arg *x = a;

	memset(v, 0, sizeof(*v));
	v->end8 = UINT64_MAX; /* val_wide() may make it a place */
	while (x && x->kind == FTRACE_PF_TYPE) {
		mask &= x->typecast.mask;
		x = x->typecast.item;
	}
	if (!x || (x->kind == FTRACE_PF_FIELD && !x->field.f))
		return true; /* reads as 0: an empty place and mask */
	if (x->kind == FTRACE_PF_FIELD) {
		v->off = x->field.f->offset;
		v->size = x->field.f->size;
		v->mask = mask;
		return true;
	}
	v->mask = ~(uint64_t) 0;
	e = expr_build(pp, a, 0);
	if (!e)
		return false;
	if (!expr_as_field(e, &v->off, &v->size, &v->mask))
		v->x = e;
	return true;
}

static uint64_t val_get_slow(const struct pf_rec *r, const struct pf_fast_val *v);

/* The value of @v, its mask applied (a conversion's width is folded into it). */
static inline uint64_t val_get(const struct pf_rec *r, const struct pf_fast_val *v)
{
	if (TK_LIKELY(v->end8 <= r->size))
		return tk_load_u64(r->data + v->off, TK_BYTE_ORDER_LE) & v->mask8;
	return val_get_slow(r, v);
}

static uint64_t val_get_slow(const struct pf_rec *r, const struct pf_fast_val *v)
{
	const uint8_t *p;

	if (TK_UNLIKELY(v->x != NULL))
		return expr_get(r, v->x) & v->mask;
	if ((uint64_t) v->off + v->size > r->size)
		return 0;
	p = r->data + v->off;
	switch (v->size) {
	case 1:
		return *p & v->mask;
	case 2:
		return tk_load_u16(p, r->ctx->bo) & v->mask;
	case 4:
		return tk_load_u32(p, r->ctx->bo) & v->mask;
	case 8:
		return tk_load_u64(p, r->ctx->bo) & v->mask;
	default:
		return 0;
	}
}

/*
 * A condition's value, where only its truth counts: "1 && x" and "0 || x" are as true as x
 * (the kmem events' "accounted=%s" tests (1 && (REC->gfp_flags & __GFP_ACCOUNT))), so x is
 * what is read, a field with a mask when it is one (expr_as_field()); false when out of memory.
 */
static bool truth_build(struct pf_print *pp, struct pf_arg *a, struct pf_fast_val *v)
{
	const struct pf_fast_expr *e, *k;

	if (!val_build(pp, a, v))
		return false;
	for (e = v->x; e && e->kind == FTRACE_PF_FX_OP; e = k == e->l ? e->r : e->l) {
		bool is_and = e->op[0] == '&';

		if ((!is_and && e->op[0] != '|') || e->op[1] != e->op[0])
			break;
		k = e->l->kind == FTRACE_PF_FX_CONST ? e->l : e->r;
		if (k->kind != FTRACE_PF_FX_CONST || is_and != (k->k != 0))
			break; /* not a constant, or one that decides alone: "0 && x" */
	}
	if (e == v->x)
		return true;
	v->x = e;
	v->mask = ~(uint64_t) 0;
	if (expr_as_field(e, &v->off, &v->size, &v->mask))
		v->x = NULL;
	return true;
}

/* The value list of __print_flags() or __print_symbolic() as an array with lengths. */
static bool syms_build(struct pf_print *pp, const struct pf_arg *a, struct pf_fast_str *s)
{
	const struct ftrace_pf_sym *p;
	struct pf_fast_sym *out;
	uint32_t n = 0;

	for (p = a->flags.syms; p; p = p->next)
		n++;
	out = fast_alloc(pp, (n ? n : 1) * sizeof(*out));
	if (!out)
		return false;
	n = 0;
	for (p = a->flags.syms; p; p = p->next, n++) {
		char *t;

		out[n].value = p->value;
		out[n].len = strlen(p->str);
		t = fast_alloc(pp, out[n].len + FAST_SLACK);
		if (!t)
			return false;
		memcpy(t, p->str, out[n].len);
		out[n].str = t;
	}
	s->syms = out;
	s->n_syms = n;
	s->delim = a->flags.delim;
	s->delim_len = a->flags.delim ? strlen(a->flags.delim) : 0;
	return true;
}

/* The "%s" argument @a resolved; NULL when out of memory. */
static const struct pf_fast_str *str_build(struct pf_print *pp, const struct ftrace_ctx *ctx,
					   struct pf_arg *a, unsigned int depth)
{
	struct pf_fast_str *s = fast_alloc(pp, sizeof(*s));
	const struct pf_field *f;

	if (!s)
		return NULL;
	s->kind = FTRACE_PF_FS_GENERAL;
	s->arg = a;
	switch (a->kind) {
	case FTRACE_PF_STRING:
		if (a->str.f) {
			s->kind = FTRACE_PF_FS_DYN;
			s->f = a->str.f;
		}
		break;
	case FTRACE_PF_FIELD:
		f = a->field.f;
		if (f && ((f->flags & FTRACE_PF_F_ARRAY) || f->size != ctx->long_size)) {
			s->kind = FTRACE_PF_FS_ARRAY;
			s->f = f;
		}
		break;
	case FTRACE_PF_ATOM: {
		char *t;

		s->kind = FTRACE_PF_FS_ATOM;
		s->len = strlen(a->atom.text);
		t = fast_alloc(pp, s->len + FAST_SLACK);
		if (!t)
			return NULL;
		memcpy(t, a->atom.text, s->len);
		s->text = t;
		break;
	}
	case FTRACE_PF_FLAGS:
	case FTRACE_PF_SYMBOL:
		if (!syms_build(pp, a, s) || !val_build(pp, a->flags.field, &s->val))
			return NULL;
		val_wide(ctx, &s->val);
		if (a->kind == FTRACE_PF_FLAGS) {
			s->memo = fast_alloc(pp, sizeof(*s->memo));
			if (!s->memo)
				return NULL;
		}
		s->kind = a->kind == FTRACE_PF_FLAGS ? FTRACE_PF_FS_FLAGS : FTRACE_PF_FS_SYMBOLIC;
		break;
	case FTRACE_PF_OP:
		if (depth < FAST_MAX_DEPTH && a->op.op[0] == '?' && !a->op.op[1] && a->op.right &&
		    a->op.right->kind == FTRACE_PF_OP && a->op.right->op.left &&
		    a->op.right->op.right) {
			s->yes = str_build(pp, ctx, a->op.right->op.left, depth + 1);
			s->no = str_build(pp, ctx, a->op.right->op.right, depth + 1);
			if (!s->yes || !s->no || !truth_build(pp, a->op.left, &s->val))
				return NULL;
			val_wide(ctx, &s->val);
			s->kind = FTRACE_PF_FS_COND;
		}
		break;
	default:
		break;
	}
	return s;
}

/*
 * The most a "%s" of @s writes in place (str_put()): a char array's size, a literal's length,
 * the longest symbolic name; FAST_STR_BUDGET for texts without a small bound (strings of the
 * record, flags), which go the pf_out way when longer. 0: never in place.
 */
static uint32_t str_budget(const struct pf_fast_str *s)
{
	uint32_t b = 0, y, n;

	switch (s->kind) {
	case FTRACE_PF_FS_ARRAY:
		return s->f->size && s->f->size <= FAST_STR_BUDGET_MAX ? s->f->size
								       : FAST_STR_BUDGET;
	case FTRACE_PF_FS_DYN:
	case FTRACE_PF_FS_FLAGS:
		return FAST_STR_BUDGET;
	case FTRACE_PF_FS_ATOM:
		return s->len <= FAST_STR_BUDGET_MAX ? (uint32_t) s->len : 0;
	case FTRACE_PF_FS_SYMBOLIC:
		b = 18; /* "0x" and 16 hex digits of a value without a name */
		for (uint32_t i = 0; i < s->n_syms; i++)
			if (s->syms[i].len > b)
				b = (uint32_t) s->syms[i].len;
		return b <= FAST_STR_BUDGET_MAX ? b : FAST_STR_BUDGET;
	case FTRACE_PF_FS_COND:
		y = str_budget(s->yes);
		n = str_budget(s->no);
		return y > n ? y : n;
	default:
		return 0;
	}
}

/* Whether @pc converts an argument with nothing but its conversion (no width, '*', ...). */
static bool plain_arg(const struct pf_print *pp, const struct pf_piece *pc)
{
	return pc->arg >= 0 && (uint32_t) pc->arg < pp->n_args && pc->len_arg < 0 &&
	       !pc->spec.overflow;
}

/* The operation of piece @pc. */
static bool op_build(struct pf_print *pp, const struct ftrace_ctx *ctx, const struct pf_piece *pc,
		     struct pf_fast_op *op)
{
	struct pf_arg *a;
	const char *p;

	op->code = FTRACE_PF_FAST_PIECE;
	op->pc = pc;
	op->val.end8 = UINT64_MAX; /* no value until one is built */
	if (pc->kind == FTRACE_PF_PC_STRING) {
		char *t;

		if (memchr(pc->text, '\0', pc->len) || pc->len > WRITER_MAX_RESERVE / 2)
			return true;
		t = fast_alloc(pp, pc->len + FAST_SLACK);
		if (!t)
			return false;
		memcpy(t, pc->text, pc->len);
		op->code = FTRACE_PF_FAST_LIT;
		op->text = t;
		op->len = pc->len;
		return true;
	}
	if (!plain_arg(pp, pc))
		return true;
	a = pp->args[pc->arg];
	switch (pc->kind) {
	case FTRACE_PF_PC_DIGIT:
		if (pc->ls < -2 || pc->ls > 2 || !pc->spec.bits || !pc->spec.conv)
			return true;
		if (!pc->spec.plain) {
			/* "%08lx", "%03d": zeros up to a small width, nothing else */
			const struct pf_spec *sp = &pc->spec;

			if (!sp->zero || sp->minus || sp->hash || sp->plus || sp->space ||
			    sp->star_width || sp->star_prec || sp->prec >= 0 || sp->width < 1 ||
			    sp->width > FAST_MAX_WIDTH || !strchr("diuxX", sp->conv))
				return true;
			op->width = (uint8_t) sp->width;
		}
		switch (pc->spec.conv) {
		case 'd':
		case 'i':
			op->code = FTRACE_PF_FAST_DEC_S;
			break;
		case 'u':
			op->code = FTRACE_PF_FAST_DEC_U;
			break;
		case 'x':
			op->code = FTRACE_PF_FAST_HEX_L;
			break;
		case 'X':
			op->code = FTRACE_PF_FAST_HEX_U;
			break;
		case 'o':
			op->code = FTRACE_PF_FAST_OCT;
			break;
		default:
			return true;
		}
		op->bits = pc->spec.bits;
		if (op->code == FTRACE_PF_FAST_DEC_S && op->bits < 64)
			op->shift = (uint8_t) (64 - op->bits);
		if (pc->fast) {
			op->val.off = pc->fast_off;
			op->val.size = pc->fast_size;
			op->val.mask = ~(uint64_t) 0;
		} else if (!val_build(pp, a, &op->val)) {
			return false;
		}
		if (op->bits < 64)
			op->val.mask &= ((uint64_t) 1 << op->bits) - 1;
		val_wide(ctx, &op->val);
		return true;
	case FTRACE_PF_PC_POINTER:
		if (a->kind == FTRACE_PF_BSTRING)
			return true;
		p = ftrace_pf_ptr_ext(pc);
		switch (*p) {
		case 'F':
		case 'f':
		case 'S':
		case 's':
			op->code = FTRACE_PF_FAST_SYM_IN;
			op->budget = FAST_SYM_BUDGET;
			op->how = *p;
			break;
		case 'M':
		case 'm':
		case 'I':
		case 'i':
		case 'U':
		case 'h':
			return true;
		default:
			op->code = FTRACE_PF_FAST_PTR;
			break;
		}
		if (!val_build(pp, a, &op->val))
			return false;
		val_wide(ctx, &op->val);
		return true;
	case FTRACE_PF_PC_STR:
		if (!pc->spec.plain || pc->spec.wide || pc->spec.conv != 's')
			return true;
		op->str = str_build(pp, ctx, a, 0);
		if (!op->str)
			return false;
		op->budget = str_budget(op->str);
		op->code = op->budget ? FTRACE_PF_FAST_STR_IN : FTRACE_PF_FAST_STR;
		return true;
	default:
		return true;
	}
}

/* The literal of a conversion without one: 16 bytes for the copy that writes none. */
static const char no_text[16];

static bool is_conversion(uint8_t code)
{
	return code > FTRACE_PF_FAST_LIT && code < FTRACE_PF_FAST_SYM;
}

/* Build the plan of @pp once; leaves pp->fast NULL when it cannot be built. */
static void fast_build(struct pf_print *pp, const struct ftrace_ctx *ctx)
{
	struct pf_fast_op *ops;
	uint32_t i, n = 0, room = 0;

	pp->fast_tried = true;
	if (pp->flags & (FTRACE_PF_FAILED | FTRACE_PF_BPRINT) || !pp->n_pieces)
		return;
	ops = fast_alloc(pp, pp->n_pieces * sizeof(*ops));
	if (!ops)
		return;
	for (i = 0; i < pp->n_pieces; i++) {
		struct pf_fast_op *op = &ops[n];

		memset(op, 0, sizeof(*op));
		if (!op_build(pp, ctx, &pp->pieces[i], op)) {
			ftrace_pf_fast_free(pp);
			return;
		}
		op->piece = i;
		if (!op->text)
			op->text = no_text;
		/* a conversion takes in the literal before it */
		if (n && is_conversion(op->code) && ops[n - 1].code == FTRACE_PF_FAST_LIT &&
		    ops[n - 1].len <= FAST_PRE_MAX) {
			op->text = ops[n - 1].text;
			op->len = ops[n - 1].len;
			op->piece = ops[n - 1].piece;
			ops[n - 1] = *op;
			continue;
		}
		n++;
	}
	/* each run of bounded operations reserves, at its first, what the run writes at most */
	for (i = n; i-- > 0;) {
		uint32_t own;

		if (ops[i].code >= FTRACE_PF_FAST_SYM) {
			room = 0;
			continue;
		}
		own = ops[i].len;
		if (ops[i].code == FTRACE_PF_FAST_STR_IN || ops[i].code == FTRACE_PF_FAST_SYM_IN)
			own += ops[i].budget + FAST_SLACK;
		else if (ops[i].code != FTRACE_PF_FAST_LIT)
			own += FAST_NUM_MAX + ops[i].width;
		if (!room)
			room = FAST_SLACK;
		if (room + own > WRITER_MAX_RESERVE) {
			/* ends the run: printed by the general code, its literal included */
			ops[i].code = FTRACE_PF_FAST_PIECE;
			room = 0;
			continue;
		}
		room += own;
		ops[i].room = room;
	}
	pp->fast = ops;
	pp->n_fast = n;
}

/* ------------------------------------------------------------------ running */

/* Hex digits at @q from @pairs (room for 16 bytes); returns the new end. */
static inline char *put_hex(char *q, uint64_t v, bool upper)
{
	return q + fmt_hex(q, v, upper);
}

/* "%0Nd" and the like: a minus sign, zeros up to the width, the digits (glibc's order). */
static char *run_zero_padded(const struct pf_fast_op *op, uint64_t v, char *q)
{
	char digits[24];
	size_t n, total;

	if ((op->code == FTRACE_PF_FAST_DEC_U ||
	     (op->code == FTRACE_PF_FAST_DEC_S && (int64_t) v >= 0)) &&
	    op->width <= 8 && v < writer_pow10[op->width]) {
		/* "%03d" of 7: the last digits of the eight fmt_ascii8() writes, zeros kept */
		tk_store_u64(q, fmt_ascii8((uint32_t) v) >> (64 - 8 * op->width), TK_BYTE_ORDER_LE);
		return q + op->width;
	}
	if ((op->code == FTRACE_PF_FAST_HEX_L || op->code == FTRACE_PF_FAST_HEX_U) &&
	    op->width <= 16) {
		/* "%08lx" (every argument of a system call) */
		return q + fmt_hex_pad(q, v, op->width, op->code == FTRACE_PF_FAST_HEX_U);
	}
	if (op->code == FTRACE_PF_FAST_DEC_S && (int64_t) v < 0) {
		*q++ = '-';
		v = 0 - v;
		total = 1;
	} else {
		total = 0;
	}
	if (op->code == FTRACE_PF_FAST_DEC_S || op->code == FTRACE_PF_FAST_DEC_U)
		n = fmt_u64(digits, v);
	else
		n = (size_t) (put_hex(digits, v, op->code == FTRACE_PF_FAST_HEX_U) - digits);
	total += n;
	if (op->width > total) {
		memset(q, '0', op->width - total);
		q += op->width - total;
	}
	memcpy(q, digits, n);
	return q + n;
}

/* The literal of @op, or the one before its conversion, at @q; returns the new end. */
static inline char *put_literal(const struct pf_fast_op *op, char *q)
{
	/* the text is padded for 16-byte copies */
	memcpy(q, op->text, 16);
	for (uint32_t i = 16; i < op->len; i += 16)
		memcpy(q + i, op->text + i, 16);
	return q + op->len;
}

/* A bounded conversion at @q, after its literal; returns the new end. */
static inline char *run_bounded(const struct pf_rec *r, const struct pf_fast_op *op, char *q)
{
	uint64_t v = val_get(r, &op->val);

	if (op->code == FTRACE_PF_FAST_PTR) {
		/* glibc's "%p" */
		if (!v) {
			memcpy(q, "(nil)", 5);
			return q + 5;
		}
		memcpy(q, "0x", 2);
		return put_hex(q + 2, v, false);
	}
	/* sign-extended from the conversion's width (the shift is 0 for others) */
	v = (uint64_t) ((int64_t) (v << op->shift) >> op->shift);
	if (TK_UNLIKELY(op->width))
		return run_zero_padded(op, v, q);
	/*
	 * one digit (syscall numbers and results, CPUs, flags) without fmt_u64(), which has no
	 * such branch: the event formats' decimals are mostly small, where a branch pays
	 */
	if (v < 10 && op->code <= FTRACE_PF_FAST_DEC_U) {
		*q = (char) ('0' + v);
		return q + 1;
	}
	switch (op->code) {
	case FTRACE_PF_FAST_DEC_S:
		return q + fmt_i64(q, (int64_t) v);
	case FTRACE_PF_FAST_DEC_U:
		return q + fmt_u64(q, v);
	case FTRACE_PF_FAST_HEX_L:
		return put_hex(q, v, false);
	case FTRACE_PF_FAST_OCT:
		return q + fmt_oct(q, v);
	default:
		return put_hex(q, v, true);
	}
}

/*
 * libtraceevent's print_flags() for a plain "%s" of @val into @buf of FAST_FLAGS_TEXT bytes;
 * false when the text does not fit.
 */
static bool flags_text(const struct pf_fast_str *s, int64_t val, char *buf, size_t *len)
{
	char *q = buf, *end = buf + FAST_FLAGS_TEXT;
	bool printed = false;

#define PUT(p, n)                                                                                  \
	do {                                                                                       \
		if ((size_t) (end - q) < (n))                                                      \
			return false;                                                              \
		memcpy(q, (p), (n));                                                               \
		q += (n);                                                                          \
	} while (0)
	for (uint32_t i = 0; i < s->n_syms; i++) {
		const struct pf_fast_sym *y = &s->syms[i];

		if (!val && y->value < 0) {
			PUT(y->str, y->len);
			break;
		}
		if (y->value > 0 && (val & y->value) == y->value) {
			if (printed && s->delim)
				PUT(s->delim, s->delim_len);
			PUT(y->str, y->len);
			printed = true;
			val &= ~y->value;
		}
	}
	if (val) {
		if (printed && s->delim)
			PUT(s->delim, s->delim_len);
		PUT("0x", 2);
		if (end - q < 16)
			return false;
		q = put_hex(q, (uint64_t) val, false);
	}
#undef PUT
	*len = (size_t) (q - buf);
	return true;
}

/*
 * __print_flags() of a plain "%s": the same few values come back (GFP_KERNEL...), so the
 * texts of recent ones are kept; a text too long for that goes the general way.
 */
static void run_flags(struct pf_out *o, const struct pf_rec *r, const struct pf_fast_str *s)
{
	uint64_t val = val_get(r, &s->val);
	struct pf_fast_memo *m = s->memo;
	struct pf_fast_memo_entry *e = &m->e[(val ^ val >> 7 ^ val >> 19) % FAST_FLAGS_MEMO];
	size_t len;

	if (e->len && e->val == val) {
		ftrace_pf_out_write(o, e->text, e->len - 1);
		return;
	}
	if (!flags_text(s, (int64_t) val, e->text, &len)) {
		e->len = 0;
		ftrace_pf_print_str_arg(o, r, NULL, 0, false, s->arg);
		return;
	}
	e->val = val;
	e->len = (uint32_t) len + 1;
	ftrace_pf_out_write(o, e->text, len);
}

static void run_symbolic(struct pf_out *o, const struct pf_rec *r, const struct pf_fast_str *s)
{
	int64_t val = (int64_t) val_get(r, &s->val);

	for (uint32_t i = 0; i < s->n_syms; i++) {
		if (val == s->syms[i].value) {
			ftrace_pf_out_write(o, s->syms[i].str, s->syms[i].len);
			return;
		}
	}
	ftrace_pf_out_write(o, "0x", 2);
	ftrace_pf_out_hex(o, (uint64_t) val, false);
}

/* What ftrace_pf_print_str_arg() prints for a plain "%s" of @s. */
static void run_str(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc,
		    const struct pf_fast_str *s)
{
	uint32_t off, len;

	for (;;) {
		switch (s->kind) {
		case FTRACE_PF_FS_DYN:
			ftrace_pf_dyn_loc(r, s->f, &off, &len);
			if (len)
				ftrace_pf_out_cstr(o, r, off, NULL, 0, false);
			return;
		case FTRACE_PF_FS_ARRAY: {
			const char *p;
			size_t sl = ftrace_pf_field_text(r, s->f, &p);

			ftrace_pf_out_write(o, p, sl);
			return;
		}
		case FTRACE_PF_FS_ATOM:
			if (s->arg->atom.state == FTRACE_PF_ATOM_NUMBER)
				break; /* a number now: the general path prints it */
			ftrace_pf_out_write(o, s->arg->atom.text, s->len);
			return;
		case FTRACE_PF_FS_FLAGS:
			run_flags(o, r, s);
			return;
		case FTRACE_PF_FS_SYMBOLIC:
			run_symbolic(o, r, s);
			return;
		case FTRACE_PF_FS_COND:
			s = val_get(r, &s->val) ? s->yes : s->no;
			continue;
		default:
			break;
		}
		ftrace_pf_print_str_arg(o, r, pc, 0, false, s->arg);
		return;
	}
}

/*
 * The length of the text at @p up to its NUL, reading at most @n bytes: a word at a time,
 * the first zero byte found from the borrow of a subtraction (the lowest flagged byte is the
 * first zero; bytes after it may be flagged falsely, which does not matter).
 */
static inline size_t text_len(const uint8_t *p, size_t n)
{
	size_t i = 0;

	for (; n - i >= 8; i += 8) {
		uint64_t v = tk_load_u64(p + i, TK_BYTE_ORDER_LE);
		uint64_t z = (v - UINT64_C(0x0101010101010101)) & ~v & UINT64_C(0x8080808080808080);

		if (z)
			return i + ((unsigned int) __builtin_ctzll(z) >> 3);
	}
	while (i < n && p[i])
		i++;
	return i;
}

/*
 * @n bytes of the record's text at @p, which ends at @end, to @q (room for max(n, 16)):
 * one 16-byte copy when the record has the bytes, else for a short text two copies that
 * overlap (nothing read past the text: a __get_str() ends its record).
 */
static inline char *put_text(char *q, const uint8_t *p, size_t n, const uint8_t *end)
{
	if (n <= 16 && end - p >= 16) {
		memcpy(q, p, 16);
	} else if (n >= 8 && n <= 16) {
		memcpy(q, p, 8);
		memcpy(q + n - 8, p + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(q, p, 4);
		memcpy(q + n - 4, p + n - 4, 4);
	} else if (n < 4) {
		for (size_t i = 0; i < n; i++)
			q[i] = (char) p[i];
	} else {
		memcpy(q, p, n);
	}
	return q + n;
}

/* A padded text of @n bytes (plan memory): 16-byte copies. */
static inline char *put_padded(char *q, const char *t, size_t n)
{
	memcpy(q, t, 16);
	for (size_t i = 16; i < n; i += 16)
		memcpy(q + i, t + i, 16);
	return q + n;
}

/*
 * What run_str() prints for @s, written at @q when it is at most @budget bytes (room for
 * @budget + 16); NULL when it is longer or needs the general way, with nothing committed:
 * the caller then prints it through run_str().
 */
static char *str_put(const struct pf_rec *r, const struct pf_fast_str *s, char *q, uint32_t budget)
{
	const uint8_t *end = r->data + r->size;

	for (;;) {
		switch (s->kind) {
		case FTRACE_PF_FS_ARRAY: {
			/* ftrace_pf_field_text(): a zero size means the rest of the record */
			const struct pf_field *f = s->f;
			size_t have, n;

			if (f->offset >= r->size)
				return q;
			have = r->size - f->offset;
			n = f->size && f->size < have ? f->size : have;
			n = text_len(r->data + f->offset, n < budget + 1 ? n : budget + 1);
			if (n > budget)
				return NULL;
			return put_text(q, r->data + f->offset, n, end);
		}
		case FTRACE_PF_FS_DYN: {
			/* ftrace_pf_out_cstr(): up to the NUL or the end of the record */
			uint32_t off, len;
			size_t n;

			ftrace_pf_dyn_loc(r, s->f, &off, &len);
			if (!len || off >= r->size)
				return q;
			n = r->size - off;
			n = text_len(r->data + off, n < budget + 1 ? n : budget + 1);
			if (n > budget)
				return NULL;
			return put_text(q, r->data + off, n, end);
		}
		case FTRACE_PF_FS_ATOM:
			if (s->arg->atom.state == FTRACE_PF_ATOM_NUMBER || s->len > budget)
				return NULL; /* a number now: the general path prints it */
			return put_padded(q, s->text, s->len);
		case FTRACE_PF_FS_FLAGS: {
			uint64_t val = val_get(r, &s->val);
			struct pf_fast_memo_entry *e =
				&s->memo->e[(val ^ val >> 7 ^ val >> 19) % FAST_FLAGS_MEMO];
			size_t len;

			if (!e->len || e->val != val) {
				if (!flags_text(s, (int64_t) val, e->text, &len)) {
					e->len = 0;
					return NULL;
				}
				e->val = val;
				e->len = (uint32_t) len + 1;
			}
			if (e->len - 1 > budget)
				return NULL;
			if (e->len <= 17)
				memcpy(q, e->text, 16);
			else
				memcpy(q, e->text, e->len - 1);
			return q + e->len - 1;
		}
		case FTRACE_PF_FS_SYMBOLIC: {
			int64_t val = (int64_t) val_get(r, &s->val);

			for (uint32_t i = 0; i < s->n_syms; i++) {
				if (val == s->syms[i].value) {
					if (s->syms[i].len > budget)
						return NULL;
					return put_padded(q, s->syms[i].str, s->syms[i].len);
				}
			}
			if (budget < 18)
				return NULL;
			memcpy(q, "0x", 2);
			return put_hex(q + 2, (uint64_t) val, false);
		}
		case FTRACE_PF_FS_COND:
			s = val_get(r, &s->val) ? s->yes : s->no;
			continue;
		default:
			return NULL;
		}
	}
}

/* What ftrace_pf_out_function() prints, at @q as str_put() writes; NULL when too long. */
static char *sym_put(const struct pf_rec *r, const struct pf_fast_op *op, char *q)
{
	uint64_t v = val_get(r, &op->val);
	const struct pf_symcache *c = ftrace_pf_sym_entry(r, v);

	if (c->sym) {
		size_t off = op->how == 'F' || op->how == 'S' ? c->off_len : 0;

		if ((size_t) c->name_len + off > op->budget)
			return NULL;
		return ftrace_pf_put_sym(q, c, off); /* the room is the budget and 16 bytes */
	}
	memcpy(q, "0x", 2);
	return put_hex(q + 2, v, false);
}

/* An unbounded operation, through the pf_out functions. */
static void run_unbounded(struct pf_out *o, const struct pf_rec *r, const struct pf_fast_op *op)
{
	switch (op->code) {
	case FTRACE_PF_FAST_SYM:
	case FTRACE_PF_FAST_SYM_IN:
		ftrace_pf_out_function(o, r, op->how, val_get(r, &op->val));
		return;
	case FTRACE_PF_FAST_STR:
	case FTRACE_PF_FAST_STR_IN:
		/* the state ftrace_pf_print_piece() keeps around a %s */
		o->nest = true;
		run_str(o, r, op->pc, op->str);
		o->nest = false;
		o->muted = false;
		return;
	default:
		/* the pieces of the operation: a literal before a conversion, or one piece */
		for (uint32_t i = op->piece; &r->pp->pieces[i] <= op->pc; i++)
			ftrace_pf_print_piece(o, r, &r->pp->pieces[i]);
		return;
	}
}

bool ftrace_pf_fast(struct pf_out *o, const struct pf_rec *r)
{
	struct pf_print *pp = r->pp;
	const struct pf_fast_op *op, *end;
	char *q = NULL, *start = NULL;

	if (!pp->fast_tried && !r->ctx->print_general_only)
		fast_build(pp, r->ctx);
	if (!pp->fast || o->dead || o->muted || o->nest)
		return false;
	for (op = pp->fast, end = op + pp->n_fast; op < end; op++) {
		if (op->code >= FTRACE_PF_FAST_SYM) {
			if (q) {
				writer_commit_to(o->w, q);
				o->n += (size_t) (q - start);
				q = NULL;
			}
			run_unbounded(o, r, op);
			continue;
		}
		if (!q) {
			if (o->dead || o->muted || op->room > o->cap - o->n) {
				/* a NUL was printed, or the cap is near: the general path does the rest */
				for (uint32_t i = op->piece; i < pp->n_pieces; i++)
					ftrace_pf_print_piece(o, r, &pp->pieces[i]);
				return true;
			}
			start = q = writer_reserve(o->w, op->room);
		}
		q = put_literal(op, q);
		if (op->code == FTRACE_PF_FAST_LIT)
			continue;
		if (op->code >= FTRACE_PF_FAST_STR_IN) {
			char *e = op->code == FTRACE_PF_FAST_STR_IN
					  ? str_put(r, op->str, q, op->budget)
					  : sym_put(r, op, q);

			if (TK_LIKELY(e != NULL)) {
				q = e;
				continue;
			}
			/* longer than its budget: the literal goes out, then the text the pf_out way */
			writer_commit_to(o->w, q);
			o->n += (size_t) (q - start);
			q = NULL;
			run_unbounded(o, r, op);
			continue;
		}
		q = run_bounded(r, op, q);
	}
	if (q) {
		writer_commit_to(o->w, q);
		o->n += (size_t) (q - start);
	}
	return true;
}
