// SPDX-License-Identifier: MIT
/*
 * Running a compiled print fmt on one record: expression values, the printing of string-like
 * arguments and printf pieces, ftrace's bprint records (format from printk_formats, arguments
 * packed in the record), the raw "name=value" field list of `trace-cmd report -R` and the
 * entry points of printfmt.h.
 *
 * Values follow libtraceevent 1.7.1: fields are read unsigned and sign only appears through
 * the printf conversion; '^' evaluates to 0; casts only mask; an array index reads the
 * element size of the field. Where libtraceevent reads outside the record (string ends,
 * unchecked lengths), we read zeros instead, so the text never depends on memory beyond it.
 * Nothing allocates per record: the caches (bprint formats and arguments, recent symbol
 * lookups, the function plugin's stacks) are allocated or grown on first need only.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "printfmt-int.h"
#include "printfmt.h"

/* ------------------------------------------------------------------ record access */

uint64_t ftrace_pf_read_slow(const struct pf_rec *r, uint64_t off, uint32_t n,
			     enum tk_byte_order bo)
{
	uint8_t tmp[8];
	const uint8_t *p;

	if (!tk_int_size_ok(n))
		return 0;
	if (off <= r->size && n <= r->size - off) {
		p = r->data + off;
	} else {
		for (uint32_t i = 0; i < n; i++)
			tmp[i] = ftrace_pf_byte(r, off + i);
		p = tmp;
	}
	return tk_load_uint(p, n, bo);
}

uint64_t ftrace_pf_read_host(const struct pf_rec *r, uint64_t off, uint32_t n)
{
	return ftrace_pf_read_slow(r, off, n, TK_BYTE_ORDER_HOST);
}

size_t ftrace_pf_cstr_len(const struct pf_rec *r, uint64_t off)
{
	if (off >= r->size)
		return 0;
	return ftrace_pf_strnlen(r->data + off, r->size - off);
}

void ftrace_pf_out_cstr(struct pf_out *o, const struct pf_rec *r, uint64_t off,
			const struct pf_spec *sp, int len_arg, bool has_len_arg)
{
	size_t n = ftrace_pf_cstr_len(r, off);
	const char *s = n ? (const char *) r->data + off : "";

	if (sp)
		ftrace_pf_out_str_spec(o, sp, len_arg, has_len_arg, s, n);
	else
		ftrace_pf_out_write(o, s, n);
}

/* ------------------------------------------------------------------ symbols and printk */

static void symcache_fill(struct pf_symcache *c, const struct pf_rec *r, uint64_t addr)
{
	c->addr = addr;
	c->sym = ftrace_sym_find(r->ctx, addr);
	c->name_len = 0;
	c->off_len = 0;
	if (c->sym) {
		size_t n = strlen(c->sym->name);

		c->name_len = n < UINT32_MAX ? (uint32_t) n : UINT32_MAX;
		memcpy(c->off_text, "+0x", 3);
		c->off_len = (uint8_t) (3 + fmt_hex(c->off_text + 3, addr - c->sym->addr, false));
	}
	c->valid = true;
}

const struct pf_symcache *ftrace_pf_sym_entry(const struct pf_rec *r, uint64_t addr)
{
	struct pf_print *pp = r->pp;
	struct pf_symcache *c;

	if (TK_UNLIKELY(!pp->symcache)) {
		pp->symcache = calloc(FTRACE_PF_SYMCACHE, sizeof(*pp->symcache));
		if (!pp->symcache) {
			/* no memory for a cache: the entry of the context's scratch */
			symcache_fill(&pp->symscratch, r, addr);
			return &pp->symscratch;
		}
	}
	c = &pp->symcache[(addr ^ addr >> 10 ^ addr >> 20) & (FTRACE_PF_SYMCACHE - 1)];
	if (!c->valid || c->addr != addr)
		symcache_fill(c, r, addr);
	return c;
}

const struct ftrace_sym *ftrace_pf_sym_len(const struct pf_rec *r, uint64_t addr, size_t *len)
{
	const struct pf_symcache *c = ftrace_pf_sym_entry(r, addr);

	*len = c->name_len;
	return c->sym;
}

const struct ftrace_sym *ftrace_pf_sym(const struct pf_rec *r, uint64_t addr)
{
	size_t len;

	return ftrace_pf_sym_len(r, addr, &len);
}

const char *ftrace_pf_printk_find(const struct ftrace_ctx *ctx, uint64_t addr, size_t *len)
{
	const struct ftrace_printk *pk = ftrace_printk_find(ctx, addr);

	/* already without its quotes and final "\n", as libtraceevent keeps it */
	if (!pk || !pk->fmt)
		return NULL;
	*len = strlen(pk->fmt);
	return pk->fmt;
}

/* ------------------------------------------------------------------ expression values */

static uint64_t atom_value(const struct pf_rec *r, struct pf_arg *a)
{
	uint64_t v;

	if (a->atom.state != FTRACE_PF_ATOM_TEXT)
		return a->atom.num;
	v = strtoull(a->atom.text, NULL, 0);
	if (v || (a->atom.text[0] >= '0' && a->atom.text[0] <= '9')) {
		a->atom.state = FTRACE_PF_ATOM_NUMERIC;
		a->atom.num = v;
		return v;
	}
	/* libtraceevent looks a word up as a function name and keeps the number instead */
	a->atom.num = ftrace_sym_addr(r->ctx, a->atom.text);
	a->atom.state = FTRACE_PF_ATOM_NUMBER;
	return a->atom.num;
}

static uint64_t eval_index(const struct pf_rec *r, struct pf_arg *a)
{
	struct pf_arg *larg = a->op.left, *typearg = NULL;
	uint64_t right = ftrace_pf_eval(r, a->op.right), v;
	uint32_t off, field_size = r->ctx->long_size;

	while (larg->kind == FTRACE_PF_TYPE) {
		if (!typearg)
			typearg = larg;
		larg = larg->typecast.item;
	}
	if (larg->kind == FTRACE_PF_DYNARRAY) {
		ftrace_pf_dyn_loc(r, larg->dyn.f, &off, &field_size);
		field_size = r->ctx->long_size;
		off += (uint32_t) right;
		if (larg->dyn.f->elemsize)
			field_size = larg->dyn.f->elemsize;
	} else if (larg->kind == FTRACE_PF_FIELD) {
		if (!larg->field.f)
			return 0;
		field_size = larg->field.f->elemsize;
		off = (uint32_t) (larg->field.f->offset + right * larg->field.f->elemsize);
	} else {
		/* libtraceevent evaluates both sides, then does not know '[' */
		ftrace_pf_eval(r, a->op.left);
		return 0;
	}
	if ((uint64_t) off + field_size > r->size)
		return 0;
	v = ftrace_pf_read_num(r, off, field_size);
	if (typearg)
		v &= typearg->typecast.pmask;
	return v;
}

uint64_t ftrace_pf_op_apply(const char *op, uint64_t l, uint64_t rt)
{
	switch (op[0]) {
	case '!':
		if (!op[1])
			return !rt;
		return op[1] == '=' ? l != rt : 0;
	case '~':
		return ~rt;
	case '|':
		return op[1] ? (l || rt) : (l | rt);
	case '&':
		return op[1] ? (l && rt) : (l & rt);
	case '<':
		if (!op[1])
			return l < rt;
		if (op[1] == '<')
			return l << (rt & 63);
		return op[1] == '=' ? l <= rt : 0;
	case '>':
		if (!op[1])
			return l > rt;
		if (op[1] == '>')
			return l >> (rt & 63);
		return op[1] == '=' ? l >= rt : 0;
	case '=':
		return op[1] == '=' ? l == rt : 0;
	case '-':
		return l - rt;
	case '+':
		return l + rt;
	case '/':
		return rt ? l / rt : 0; /* libtraceevent dies of SIGFPE */
	case '%':
		return rt ? l % rt : 0;
	case '*':
		return l * rt;
	default:
		return 0; /* '^' included: libtraceevent does not evaluate it */
	}
}

static uint64_t eval_op(const struct pf_rec *r, struct pf_arg *a)
{
	const char *op = a->op.op;
	uint64_t l, rt;

	if (op[0] == '[' && !op[1])
		return eval_index(r, a);
	if (op[0] == '?' && !op[1]) {
		struct pf_arg *colon = a->op.right;

		l = ftrace_pf_eval(r, a->op.left);
		if (!colon || colon->kind != FTRACE_PF_OP)
			return 0;
		return ftrace_pf_eval(r, l ? colon->op.left : colon->op.right);
	}
	l = a->op.left ? ftrace_pf_eval(r, a->op.left) : 0;
	rt = a->op.right ? ftrace_pf_eval(r, a->op.right) : 0;
	return ftrace_pf_op_apply(op, l, rt);
}

uint64_t ftrace_pf_eval(const struct pf_rec *r, struct pf_arg *a)
{
	uint32_t off, len;

	if (!a)
		return 0;
	switch (a->kind) {
	case FTRACE_PF_ATOM:
		return atom_value(r, a);
	case FTRACE_PF_FIELD:
		if (!a->field.f || (uint64_t) a->field.f->offset + a->field.f->size > r->size)
			return 0;
		return ftrace_pf_read_num(r, a->field.f->offset, a->field.f->size);
	case FTRACE_PF_TYPE:
		return ftrace_pf_eval(r, a->typecast.item) & a->typecast.mask;
	case FTRACE_PF_FUNC:
		return ftrace_pf_call_func(NULL, r, a);
	case FTRACE_PF_OP:
		return eval_op(r, a);
	case FTRACE_PF_DYNARRAY_LEN:
		ftrace_pf_dyn_loc(r, a->dyn.f, &off, &len);
		return len;
	case FTRACE_PF_DYNARRAY:
		/* libtraceevent gives the data's address in its memory; we give its offset */
		ftrace_pf_dyn_loc(r, a->dyn.f, &off, &len);
		return off;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------------ string arguments */

static void out_str(struct pf_out *o, const struct pf_piece *pc, int len_arg, bool has_len_arg,
		    const char *s, size_t n)
{
	if (pc && o->negstar == pc) {
		/*
		 * libtraceevent calls printf("%.*s", str) without the precision: glibc takes the
		 * pointer as the precision and, in libtraceevent 1.7.1's code as compiled, the
		 * format itself as the string.
		 */
		ftrace_pf_out_write(o, pc->text, pc->len);
		return;
	}
	if (pc)
		ftrace_pf_out_str_spec(o, &pc->spec, len_arg, has_len_arg, s, n);
	else
		ftrace_pf_out_write(o, s, n);
}

static void out_atom(struct pf_out *o, const struct pf_piece *pc, int len_arg, bool has_len_arg,
		     const struct pf_arg *a)
{
	char buf[24];

	if (a->atom.state == FTRACE_PF_ATOM_NUMBER) {
		size_t n = fmt_i64(buf, (int64_t) a->atom.num);

		out_str(o, pc, len_arg, has_len_arg, buf, n);
		return;
	}
	out_str(o, pc, len_arg, has_len_arg, a->atom.text, strlen(a->atom.text));
}

static void print_flags(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc,
			int len_arg, bool has_len_arg, struct pf_arg *a)
{
	int64_t val = (int64_t) ftrace_pf_eval(r, a->flags.field);
	bool printed = false;

	for (const struct ftrace_pf_sym *s = a->flags.syms; s; s = s->next) {
		if (!val && s->value < 0) {
			out_str(o, pc, len_arg, has_len_arg, s->str, strlen(s->str));
			break;
		}
		if (s->value > 0 && (val & s->value) == s->value) {
			if (printed && a->flags.delim)
				ftrace_pf_out_puts(o, a->flags.delim);
			out_str(o, pc, len_arg, has_len_arg, s->str, strlen(s->str));
			printed = true;
			val &= ~s->value;
		}
	}
	if (val) {
		if (printed && a->flags.delim)
			ftrace_pf_out_puts(o, a->flags.delim);
		ftrace_pf_out_write(o, "0x", 2);
		ftrace_pf_out_hex(o, (uint64_t) val, false);
	}
}

static void print_symbolic(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc,
			   int len_arg, bool has_len_arg, struct pf_arg *a)
{
	int64_t val = (int64_t) ftrace_pf_eval(r, a->flags.field);

	for (const struct ftrace_pf_sym *s = a->flags.syms; s; s = s->next) {
		if (val == s->value) {
			out_str(o, pc, len_arg, has_len_arg, s->str, strlen(s->str));
			return;
		}
	}
	ftrace_pf_out_write(o, "0x", 2);
	ftrace_pf_out_hex(o, (uint64_t) val, false);
}

/* Where the data of a __print_hex()/__print_array() argument starts; false if unknown. */
static bool buffer_start(const struct pf_rec *r, const struct pf_arg *a, uint32_t *off)
{
	uint32_t len;

	if (a->kind == FTRACE_PF_DYNARRAY) {
		ftrace_pf_dyn_loc(r, a->dyn.f, off, &len);
		return true;
	}
	if (a->kind == FTRACE_PF_FIELD && a->field.f) {
		*off = a->field.f->offset;
		return true;
	}
	return false; /* libtraceevent reads a field through the wrong union member here */
}

static void print_hex(struct pf_out *o, const struct pf_rec *r, struct pf_arg *a)
{
	uint32_t off, len;

	if (!buffer_start(r, a->hex.field, &off))
		return;
	len = (uint32_t) ftrace_pf_eval(r, a->hex.size);
	for (uint32_t i = 0; i < len && !o->dead; i++) {
		if (i && a->kind == FTRACE_PF_HEX)
			ftrace_pf_out_putc(o, ' ');
		ftrace_pf_out_hex2(o, ftrace_pf_byte(r, (uint64_t) off + i));
	}
}

static void print_int_array(struct pf_out *o, const struct pf_rec *r, struct pf_arg *a)
{
	uint32_t off, len;
	int el;
	uint64_t pos;

	if (!buffer_start(r, a->int_array.field, &off))
		return;
	len = (uint32_t) ftrace_pf_eval(r, a->int_array.count);
	el = (int) ftrace_pf_eval(r, a->int_array.el_size);
	pos = off;
	for (uint32_t i = 0; i < len && !o->dead; i++) {
		if (i)
			ftrace_pf_out_putc(o, ' ');
		if (el == 1 || el == 2 || el == 4 || el == 8) {
			/* libtraceevent reads these in the host's byte order */
			ftrace_pf_out_u64(o, ftrace_pf_read_host(r, pos, (uint32_t) el));
		} else {
			ftrace_pf_out_write(o, "BAD SIZE:", 9);
			ftrace_pf_out_i64(o, el);
			ftrace_pf_out_write(o, " 0x", 3);
			ftrace_pf_out_hex(o, ftrace_pf_byte(r, pos), false);
			el = 1;
		}
		pos += (uint32_t) el;
	}
}

size_t ftrace_pf_field_text(const struct pf_rec *r, const struct pf_field *f, const char **s)
{
	/* a zero size means the rest of the record */
	uint64_t n = f->size ? f->size : (uint64_t) (r->size - f->offset);
	uint64_t have = f->offset < r->size ? r->size - f->offset : 0;

	*s = (const char *) r->data + (f->offset < r->size ? f->offset : 0);
	if (n > have)
		n = have;
	return have ? ftrace_pf_strnlen((const uint8_t *) *s, (size_t) n) : 0;
}

/*
 * An argument printed through "%s" (libtraceevent's print_str_arg()). @pc gives the %s spec
 * (flags, width, precision) or is NULL for a plain "%s".
 */
void ftrace_pf_print_str_arg(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc,
			     int len_arg, bool has_len_arg, struct pf_arg *a)
{
	const struct pf_field *f;
	uint32_t off, len;

	switch (a->kind) {
	case FTRACE_PF_ATOM:
		out_atom(o, pc, len_arg, has_len_arg, a);
		return;
	case FTRACE_PF_FIELD:
		f = a->field.f;
		if (!f)
			return;
		if (!(f->flags & FTRACE_PF_F_ARRAY) && f->size == r->ctx->long_size) {
			/* a pointer: a constant string of printk_formats, or its value in hex */
			uint64_t addr =
				ftrace_pf_read_host(r, f->offset, r->ctx->long_size == 8 ? 8 : 4);
			size_t n;
			const char *s = ftrace_pf_printk_find(r->ctx, addr, &n);

			if (s) {
				ftrace_pf_out_write(o, s, n);
			} else {
				ftrace_pf_out_hex(o, addr, false);
			}
			return;
		}
		{
			const char *s;
			size_t sl = ftrace_pf_field_text(r, f, &s);

			out_str(o, pc, len_arg, has_len_arg, sl ? s : "", sl);
		}
		return;
	case FTRACE_PF_FLAGS:
		print_flags(o, r, pc, len_arg, has_len_arg, a);
		return;
	case FTRACE_PF_SYMBOL:
		print_symbolic(o, r, pc, len_arg, has_len_arg, a);
		return;
	case FTRACE_PF_HEX:
	case FTRACE_PF_HEX_STR:
		print_hex(o, r, a);
		return;
	case FTRACE_PF_INT_ARRAY:
		print_int_array(o, r, a);
		return;
	case FTRACE_PF_STRING:
		if (!a->str.f)
			return;
		ftrace_pf_dyn_loc(r, a->str.f, &off, &len);
		if (!len)
			return;
		if (pc && o->negstar == pc) {
			out_str(o, pc, len_arg, has_len_arg, "", 0);
			return;
		}
		ftrace_pf_out_cstr(o, r, off, pc ? &pc->spec : NULL, len_arg, has_len_arg);
		return;
	case FTRACE_PF_BSTRING:
		out_str(o, pc, len_arg, has_len_arg, (const char *) a->bstr.p, a->bstr.len);
		return;
	case FTRACE_PF_BITMASK:
	case FTRACE_PF_CPUMASK:
		if (!a->str.f)
			return;
		ftrace_pf_dyn_loc(r, a->str.f, &off, &len);
		if (a->kind == FTRACE_PF_BITMASK)
			ftrace_pf_print_bitmask(o, r, pc, len_arg, has_len_arg, off, len);
		else
			ftrace_pf_print_cpumask(o, r, pc, len_arg, has_len_arg, off, len);
		return;
	case FTRACE_PF_OP:
		if (a->op.op[0] != '?' || !a->op.right || a->op.right->kind != FTRACE_PF_OP)
			return;
		ftrace_pf_print_str_arg(o, r, pc, len_arg, has_len_arg,
					ftrace_pf_eval(r, a->op.left) ? a->op.right->op.left
								      : a->op.right->op.right);
		return;
	case FTRACE_PF_FUNC:
		ftrace_pf_call_func(o, r, a);
		return;
	default:
		return; /* casts, dynamic arrays and the rest print nothing through %s */
	}
}

/* ------------------------------------------------------------------ printf pieces */

void ftrace_pf_print_piece(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc)
{
	struct pf_arg *a;
	int len_arg = 0;
	bool has_len = false;

	if (pc->kind == FTRACE_PF_PC_STRING) {
		ftrace_pf_out_write(o, pc->text, pc->len);
		return;
	}
	if (pc->arg < 0 || (uint32_t) pc->arg >= r->n_args)
		return;
	a = r->args[pc->arg];
	if (pc->len_arg >= 0 && (uint32_t) pc->len_arg < r->n_args) {
		len_arg = (int) ftrace_pf_eval(r, r->args[pc->len_arg]);
		has_len = true;
	}
	switch (pc->kind) {
	case FTRACE_PF_PC_DIGIT: {
		uint64_t v;

		if (pc->fast)
			v = (uint64_t) pc->fast_off + pc->fast_size > r->size
				    ? 0
				    : ftrace_pf_read_num(r, pc->fast_off, pc->fast_size);
		else
			v = ftrace_pf_eval(r, a);

		if (pc->ls < -2 || pc->ls > 2) {
			r->pp->flags |= FTRACE_PF_FAILED;
			return;
		}
		if (pc->spec.overflow)
			return;
		if (!pc->spec.conv) {
			ftrace_pf_out_bad_spec(o, pc);
			return;
		}
		ftrace_pf_out_int_spec(o, &pc->spec, len_arg, has_len && len_arg >= 0, v);
		return;
	}
	case FTRACE_PF_PC_POINTER:
		ftrace_pf_print_pointer(o, r, pc, has_len ? len_arg : 1, a);
		return;
	case FTRACE_PF_PC_STR:
		if (pc->spec.overflow)
			return;
		if (!pc->spec.conv) {
			ftrace_pf_out_bad_spec(o, pc);
			return;
		}
		o->nest = true;
		if (has_len && len_arg < 0 && pc->spec.star_prec && !pc->spec.star_width)
			o->negstar = pc;
		ftrace_pf_print_str_arg(o, r, pc, len_arg, has_len && len_arg >= 0, a);
		o->negstar = NULL;
		o->nest = false;
		o->muted = false;
		return;
	default:
		return;
	}
}

/* ------------------------------------------------------------------ bprint */

static struct pf_bfmt *bfmt_get(const struct pf_rec *r, uint64_t addr)
{
	struct pf_print *pp = r->pp;
	struct pf_bfmt *bf;
	const char *pk;
	size_t n;
	char *fmt;
	uint32_t flags = 0;

	for (size_t i = 0; i < pp->n_bfmts; i++) {
		if (pp->bfmts[i].addr == addr)
			return &pp->bfmts[i];
	}
	if (pp->n_bfmts == pp->cap_bfmts) {
		size_t cap = pp->cap_bfmts ? pp->cap_bfmts * 2 : 16;
		struct pf_bfmt *b = realloc(pp->bfmts, cap * sizeof(*b));

		if (!b)
			return NULL;
		pp->bfmts = b;
		pp->cap_bfmts = cap;
	}
	pk = ftrace_pf_printk_find(r->ctx, addr, &n);
	if (pk) {
		fmt = malloc(n + 6);
		if (!fmt)
			return NULL;
		memcpy(fmt, "%ps: ", 5);
		memcpy(fmt + 5, pk, n);
		fmt[n + 5] = '\0';
	} else {
		/* libtraceevent: "%%ps: (NO FORMAT FOUND at %llx)\n" */
		char hex[24];
		size_t hn = 0;
		const char *dig = TK_HEX_LOWER;
		uint64_t v = addr;

		do {
			hex[sizeof(hex) - 1 - hn++] = dig[v & 15];
			v >>= 4;
		} while (v);
		fmt = malloc(64);
		if (!fmt)
			return NULL;
		memcpy(fmt, "%ps: (NO FORMAT FOUND at ", 25);
		memcpy(fmt + 25, hex + sizeof(hex) - hn, hn);
		memcpy(fmt + 25 + hn, ")\n", 3);
	}
	bf = &pp->bfmts[pp->n_bfmts];
	memset(bf, 0, sizeof(*bf));
	bf->addr = addr;
	bf->fmt = fmt;
	arena_init(&bf->arena);
	if (ftrace_pf_build_pieces(&bf->arena, fmt, NULL, UINT32_MAX, &bf->pieces, &bf->n_pieces,
				   &flags, &bf->nargs) < 0) {
		arena_fini(&bf->arena);
		free(fmt);
		return NULL;
	}
	pp->n_bfmts++;
	return bf;
}

static bool barg_push(struct pf_print *pp, size_t *n)
{
	if (*n == pp->cap_bargs) {
		size_t cap = pp->cap_bargs ? pp->cap_bargs * 2 : 32;
		struct pf_arg *a = realloc(pp->bargs, cap * sizeof(*a));
		struct pf_arg **v;

		if (!a)
			return false;
		pp->bargs = a;
		v = realloc(pp->bargv, cap * sizeof(*v));
		if (!v)
			return false;
		pp->bargv = v;
		pp->cap_bargs = cap;
	}
	memset(&pp->bargs[*n], 0, sizeof(pp->bargs[*n]));
	(*n)++;
	return true;
}

static bool barg_num(struct pf_print *pp, size_t *n, uint64_t v)
{
	if (!barg_push(pp, n))
		return false;
	pp->bargs[*n - 1].kind = FTRACE_PF_ATOM;
	pp->bargs[*n - 1].atom.state = FTRACE_PF_ATOM_NUMBER;
	pp->bargs[*n - 1].atom.num = v;
	pp->bargs[*n - 1].atom.text = "";
	return true;
}

static bool is_alnum(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * The arguments of a bprint record (libtraceevent's make_bprint_args()): the ip, then one
 * per conversion of the format, packed in the u32 buffer. Numbers are 4-byte aligned and as
 * long as their length modifier says (%p: a long), strings are inline and NUL-terminated.
 * Only conversions made of digits, '.', '#', l, L, z, Z and a final d/i/u/x/X/o/p/s/'*'
 * count: "%-5d", "%hd" and "%c" take nothing from the buffer, as in libtraceevent.
 */
static size_t bprint_args(const struct pf_rec *r, const char *fmt, const struct pf_field *ipf,
			  const struct pf_field *buf)
{
	struct pf_print *pp = r->pp;
	size_t n = 0;
	uint64_t bp = buf->offset;
	const char *p;

	if (!barg_num(pp, &n, ftrace_pf_read_num(r, ipf->offset, ipf->size)))
		return n;
	for (p = fmt + 5; bp < r->size && *p; p++) {
		int ls = 0;
		uint32_t vsize;

		if (*p != '%')
			continue;
again:
		p++;
		switch (*p) {
		case 'l':
			ls++;
			goto again;
		case 'L':
			ls = 2;
			goto again;
		case 'z':
		case 'Z':
			ls = 1;
			goto again;
		case '.':
		case '#':
			goto again;
		case 'p':
			ls = 1;
			if (is_alnum((unsigned char) p[1])) {
				p++;
				if (*p == 's' || *p == 'S' || *p == 'x' ||
				    ((*p == 'f' || *p == 'F') && p[1] != 'w')) {
					/* a symbol or a number */
				} else {
					/* older kernels store dereferenced pointers as strings */
					uint8_t c = ftrace_pf_byte(r, bp);

					if (c >= 0x20 && c < 0x7f)
						goto string;
				}
			}
			/* fall through */
		case 'd':
		case 'u':
		case 'i':
		case 'x':
		case 'X':
		case 'o':
		case '*':
			vsize = *p == '*' ? 4
				: ls == 0 ? 4
				: ls == 1 ? r->ctx->long_size
				: ls == 2 ? 8
					  : (uint32_t) ls;
			bp = (bp + 3) & ~(uint64_t) 3;
			if (!barg_num(pp, &n, ftrace_pf_read_num(r, bp, vsize)))
				return n;
			bp += vsize;
			if (*p == '*')
				goto again;
			break;
		case 's':
string:
			if (!barg_push(pp, &n))
				return n;
			pp->bargs[n - 1].kind = FTRACE_PF_BSTRING;
			pp->bargs[n - 1].bstr.len = ftrace_pf_cstr_len(r, bp);
			pp->bargs[n - 1].bstr.p =
				pp->bargs[n - 1].bstr.len ? r->data + bp : (const uint8_t *) "";
			bp += pp->bargs[n - 1].bstr.len + 1;
			break;
		default:
			if (*p >= '0' && *p <= '9')
				goto again;
			if (!*p)
				return n;
			break;
		}
	}
	return n;
}

static void pretty_bprint(struct pf_out *o, struct pf_rec *r)
{
	struct pf_print *pp = r->pp;
	const struct pf_field *fmtf = pp->bp_fmt, *ipf = pp->bp_ip, *buf = pp->bp_buf;
	struct pf_bfmt *bf;
	size_t nargs = 0;

	if (!fmtf)
		return; /* libtraceevent crashes */
	bf = bfmt_get(r, ftrace_pf_read_num(r, fmtf->offset, fmtf->size));
	if (!bf)
		return;
	if (ipf && buf)
		nargs = bprint_args(r, bf->fmt, ipf, buf);
	for (size_t i = 0; i < nargs; i++)
		pp->bargv[i] = &pp->bargs[i];
	r->args = pp->bargv;
	r->n_args = (uint32_t) nargs;
	if (nargs >= bf->nargs) {
		for (uint32_t i = 0; i < bf->n_pieces; i++)
			ftrace_pf_print_piece(o, r, &bf->pieces[i]);
		return;
	}
	/*
	 * Fewer arguments than conversions: libtraceevent cuts the format again, stops using
	 * arguments where they run out and marks the event failed for the records after.
	 */
	struct arena tmp;
	struct pf_piece *pieces;
	uint32_t n_pieces;

	arena_init(&tmp);
	if (ftrace_pf_build_pieces(&tmp, bf->fmt, pp->bargv, (uint32_t) nargs, &pieces, &n_pieces,
				   &pp->flags, NULL) == 0) {
		for (uint32_t i = 0; i < n_pieces; i++)
			ftrace_pf_print_piece(o, r, &pieces[i]);
	}
	arena_fini(&tmp);
}

/* ------------------------------------------------------------------ pretty and raw */

void ftrace_pf_pretty(struct pf_out *o, const struct pf_rec *rc)
{
	struct pf_rec r;

	/*
	 * The fast plan first, on the caller's record: copying it costs more than the plan
	 * itself (its small fields were just stored, and wide loads of them stall).
	 */
	if (!(rc->pp->flags & (FTRACE_PF_FAILED | FTRACE_PF_BPRINT)) && ftrace_pf_fast(o, rc))
		return;
	r = *rc;
	if (r.pp->flags & FTRACE_PF_FAILED) {
		ftrace_pf_out_puts(o, "[FAILED TO PARSE]");
		ftrace_pf_print_fields(o, &r);
		return;
	}
	if (r.pp->flags & FTRACE_PF_BPRINT) {
		pretty_bprint(o, &r);
		return;
	}
	for (uint32_t i = 0; i < r.pp->n_pieces; i++)
		ftrace_pf_print_piece(o, &r, &r.pp->pieces[i]);
}

static bool printable_array(const struct pf_rec *r, uint64_t off, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++) {
		uint8_t c = ftrace_pf_byte(r, off + i);

		if (!c)
			break;
		if (!(c >= 0x20 && c < 0x7f) && !(c == ' ' || (c >= '\t' && c <= '\r')))
			return false;
	}
	return true;
}

/* One field without help from the print fmt (libtraceevent's print_field_raw()). */
static void print_field_raw(struct pf_out *o, const struct pf_rec *r, const struct pf_field *f)
{
	struct pf_print *pp = r->pp;
	uint32_t idx = (uint32_t) (f - pp->fields);
	uint64_t v;

	if (f->flags & FTRACE_PF_F_ARRAY) {
		uint32_t off, len;

		if (f->flags & FTRACE_PF_F_DYNAMIC) {
			ftrace_pf_dyn_loc(r, f, &off, &len);
		} else {
			off = f->offset;
			len = f->size;
		}
		if ((f->flags & FTRACE_PF_F_STRING) && !pp->nostring[idx] &&
		    printable_array(r, off, len)) {
			ftrace_pf_out_cstr(o, r, off, NULL, 0, false);
			return;
		}
		ftrace_pf_out_write(o, "ARRAY[", 6);
		for (uint32_t i = 0; i < len && !o->dead; i++) {
			if (i)
				ftrace_pf_out_write(o, ", ", 2);
			ftrace_pf_out_hex2(o, ftrace_pf_byte(r, (uint64_t) off + i));
		}
		ftrace_pf_out_putc(o, ']');
		pp->nostring[idx] = 1; /* libtraceevent clears the field's string flag for good */
		return;
	}
	v = ftrace_pf_read_num(r, f->offset, f->size);
	if (f->flags & FTRACE_PF_F_POINTER) {
		ftrace_pf_out_write(o, "0x", 2);
		ftrace_pf_out_hex(o, v, false);
	} else if (f->flags & FTRACE_PF_F_SIGNED) {
		switch (f->size) {
		case 4:
			if (f->flags & FTRACE_PF_F_LONG) {
				ftrace_pf_out_write(o, "0x", 2);
				ftrace_pf_out_hex(o, (uint32_t) v, false);
			} else {
				ftrace_pf_out_i64(o, (int32_t) (uint32_t) v);
			}
			break;
		case 2: {
			/* "%2d" */
			int16_t s = (int16_t) (uint16_t) v;

			if (s >= 0 && s < 10)
				ftrace_pf_out_putc(o, ' ');
			ftrace_pf_out_i64(o, s);
			break;
		}
		case 1:
			ftrace_pf_out_i64(o, (int8_t) (uint8_t) v);
			break;
		default:
			ftrace_pf_out_i64(o, (int64_t) v);
			break;
		}
	} else if (f->flags & FTRACE_PF_F_LONG) {
		ftrace_pf_out_write(o, "0x", 2);
		ftrace_pf_out_hex(o, v, false);
	} else {
		ftrace_pf_out_u64(o, v);
	}
}

/*
 * One field of `report -R` (libtraceevent's print_field()): printed with the conversion of
 * the print fmt argument that is this field, searched from the piece after the last one used
 * (wrapping around), with "0x" kept when the text before it ends so; else raw.
 */
static void print_field(struct pf_out *o, const struct pf_rec *r, const struct pf_field *f,
			int64_t *cursor)
{
	const struct pf_print *pp = r->pp;
	bool has_0x = false;
	int64_t start, i;

	if (*cursor < 0 || !pp->n_pieces || (pp->flags & FTRACE_PF_FAILED))
		goto raw;
	if (f->flags & (FTRACE_PF_F_ARRAY | FTRACE_PF_F_STRING))
		goto raw;
	start = i = *cursor;
	do {
		const struct pf_piece *pc = &pp->pieces[i];

		if (pc->kind == FTRACE_PF_PC_STRING) {
			has_0x = pc->ends_0x;
		} else if (pc->field != f) {
			has_0x = false;
		} else {
			if (has_0x)
				ftrace_pf_out_write(o, "0x", 2);
			ftrace_pf_print_piece(o, r, pc);
			*cursor = i + 1 < (int64_t) pp->n_pieces ? i + 1 : -1;
			return;
		}
		i = i + 1 < (int64_t) pp->n_pieces ? i + 1 : 0;
	} while (i != start);
raw:
	print_field_raw(o, r, f);
}

void ftrace_pf_print_fields(struct pf_out *o, const struct pf_rec *rc)
{
	struct pf_rec r = *rc;
	int64_t cursor = 0;

	r.args = r.pp->args;
	r.n_args = r.pp->n_args;
	if (r.pp->flags & FTRACE_PF_BPRINT)
		cursor = -1; /* bprint has no cut format outside of its records */
	for (uint32_t i = r.pp->n_common; i < r.pp->n_fields && !o->dead; i++) {
		const struct pf_field *f = &r.pp->fields[i];

		ftrace_pf_out_putc(o, ' ');
		ftrace_pf_out_puts(o, f->name);
		ftrace_pf_out_putc(o, '=');
		print_field(o, &r, f, &cursor);
	}
}

/* ------------------------------------------------------------------ entry points */

/* A stand-in for an event that was never compiled: its fields, libtraceevent's way. */
static struct pf_print *scratch_print(const struct ftrace_ctx *ctx, const struct ftrace_event *ev)
{
	struct pf_print *pp = calloc(1, sizeof(*pp));

	if (!pp)
		return NULL;
	pp->ev = ev;
	pp->flags = FTRACE_PF_FAILED;
	pp->n_fields = ev->n_fields;
	pp->n_common = ev->n_common <= ev->n_fields ? ev->n_common : ev->n_fields;
	pp->fields = calloc(ev->n_fields ? ev->n_fields : 1, sizeof(*pp->fields));
	pp->nostring = calloc(ev->n_fields ? ev->n_fields : 1, 1);
	if (!pp->fields || !pp->nostring) {
		free(pp->fields);
		free(pp->nostring);
		free(pp);
		return NULL;
	}
	for (uint32_t i = 0; i < ev->n_fields; i++)
		ftrace_pf_field_attrs(ctx, &ev->fields[i], &pp->fields[i]);
	return pp;
}

static void scratch_free(struct pf_print *pp)
{
	if (!pp)
		return;
	ftrace_pf_state_free(pp);
	free(pp->fields);
	free(pp->nostring);
	free(pp);
}

/*
 * One record's text: its fields (@raw), or its print fmt's output through the event's plugin
 * handler, if any; with @plain, as libtraceevent prints it with no plugin loaded: no handler,
 * and a print fmt that calls a plugin's function failed to parse.
 */
static bool print_event(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
			const uint8_t *rec, size_t size, int cpu, uint64_t ts, struct writer *w,
			bool raw, bool plain, const uint8_t *next, size_t next_size)
{
	struct pf_print *pp = ftrace_pf_print_of(ctx, ev), *tmp = NULL;
	struct pf_out o = {.w = w, .cap = FTRACE_PF_OUT_CAP};
	struct pf_rec r = {.ctx = ctx,
			   .data = rec,
			   .size = size,
			   .cpu = cpu,
			   .ts = ts,
			   .next = next,
			   .next_size = next_size};

	if (size < (SIZE_MAX - FTRACE_PF_OUT_CAP) / FTRACE_PF_OUT_CAP_PER_BYTE)
		o.cap += size * FTRACE_PF_OUT_CAP_PER_BYTE;
	if (!pp) {
		pp = tmp = scratch_print(ctx, ev);
		if (!pp)
			return false;
	}
	r.pp = pp;
	r.args = pp->args;
	r.n_args = pp->n_args;
	if (raw) {
		ftrace_pf_print_fields(&o, &r);
	} else if (plain && (pp->flags & FTRACE_PF_PLUGIN_FUNC)) {
		ftrace_pf_out_puts(&o, "[FAILED TO PARSE]");
		ftrace_pf_print_fields(&o, &r);
	} else if (plain || !pp->handler || ftrace_pf_run_handler(&o, &r)) {
		ftrace_pf_pretty(&o, &r);
	}
	scratch_free(tmp);
	return r.used_next;
}

void ftrace_print_info(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
		       const uint8_t *rec, size_t size, int cpu, struct writer *w)
{
	print_event(ctx, ev, rec, size, cpu, 0, w, false, false, NULL, 0);
}

void ftrace_print_info_ts(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
			  const uint8_t *rec, size_t size, int cpu, uint64_t ts, struct writer *w)
{
	print_event(ctx, ev, rec, size, cpu, ts, w, false, false, NULL, 0);
}

bool ftrace_print_info_next(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
			    const uint8_t *rec, size_t size, int cpu, uint64_t ts,
			    const uint8_t *next, size_t next_size, struct writer *w)
{
	return print_event(ctx, ev, rec, size, cpu, ts, w, false, false, next, next_size);
}

void ftrace_print_raw(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
		      const uint8_t *rec, size_t size, struct writer *w)
{
	print_event(ctx, ev, rec, size, -1, 0, w, true, false, NULL, 0);
}

void ftrace_print_info_plain(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
			     const uint8_t *rec, size_t size, int cpu, struct writer *w)
{
	print_event(ctx, ev, rec, size, cpu, 0, w, false, true, NULL, 0);
}
