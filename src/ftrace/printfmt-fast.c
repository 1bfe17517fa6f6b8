// SPDX-License-Identifier: MIT
/*
 * The fast plan of simple print fmts. Most kernel events without a plugin handler print
 * literal text and integer fields ("NR %ld = %ld" for sys_exit, six hex arguments for
 * sys_enter); walking the argument tree and the generic printf code per conversion costs
 * far more than the formatting itself. Such a print fmt is turned once into a flat list of
 * operations that read each field at its fixed place and format it straight into the output
 * buffer. The result is byte for byte what ftrace_pf_pretty() prints: only pieces whose
 * output the general path would produce with its plain, fast branches qualify, and the plan
 * runs only when the output cap cannot be reached.
 */
#include <stdlib.h>
#include <string.h>

#include "printfmt-int.h"

/* Whether piece @pc can be a fast operation; fills @op. */
static bool fast_piece(const struct pf_print *pp, const struct pf_piece *pc, struct pf_fast_op *op)
{
	memset(op, 0, sizeof(*op));
	if (pc->kind == FTRACE_PF_PC_STRING) {
		if (memchr(pc->text, '\0', pc->len))
			return false;
		op->code = FTRACE_PF_FAST_LIT;
		op->text = pc->text;
		op->len = pc->len;
		return true;
	}
	if (pc->kind != FTRACE_PF_PC_DIGIT || !pc->fast || pc->arg < 0 ||
	    (uint32_t) pc->arg >= pp->n_args || pc->len_arg >= 0 || pc->ls < -2 || pc->ls > 2 ||
	    pc->spec.overflow || !pc->spec.plain || !pc->spec.bits)
		return false;
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
	default:
		return false;
	}
	op->bits = pc->spec.bits;
	op->off = pc->fast_off;
	op->size = pc->fast_size;
	return true;
}

/* Build the plan of @pp once; leaves pp->fast NULL when a piece does not qualify. */
static void fast_build(struct pf_print *pp)
{
	struct pf_fast_op *ops;
	uint64_t max = 0, text = 0;
	uint32_t i;
	char *t;

	pp->fast_tried = true;
	if (pp->flags & (FTRACE_PF_FAILED | FTRACE_PF_BPRINT) || pp->handler || !pp->n_pieces)
		return;
	ops = calloc(pp->n_pieces, sizeof(*ops));
	if (!ops)
		return;
	for (i = 0; i < pp->n_pieces; i++) {
		if (!fast_piece(pp, &pp->pieces[i], &ops[i])) {
			free(ops);
			return;
		}
		max += ops[i].code == FTRACE_PF_FAST_LIT ? ops[i].len : 24;
		if (ops[i].code == FTRACE_PF_FAST_LIT)
			text += ops[i].len + 16;
	}
	/*
	 * The literals are copied 16 bytes at a time: keep them in one block with 16 bytes of
	 * room after each, and reserve 16 more bytes of output than the plan writes.
	 */
	max += 16;
	pp->fast_text = max <= WRITER_MAX_RESERVE ? calloc(1, text + 1) : NULL;
	if (!pp->fast_text) {
		free(ops);
		return;
	}
	for (i = 0, t = pp->fast_text; i < pp->n_pieces; i++) {
		if (ops[i].code != FTRACE_PF_FAST_LIT)
			continue;
		memcpy(t, ops[i].text, ops[i].len);
		ops[i].text = t;
		t += ops[i].len + 16;
	}
	pp->fast = ops;
	pp->n_fast = pp->n_pieces;
	pp->fast_max = (uint32_t) max;
}

static const char hex_lower[513] = "000102030405060708090a0b0c0d0e0f"
				   "101112131415161718191a1b1c1d1e1f"
				   "202122232425262728292a2b2c2d2e2f"
				   "303132333435363738393a3b3c3d3e3f"
				   "404142434445464748494a4b4c4d4e4f"
				   "505152535455565758595a5b5c5d5e5f"
				   "606162636465666768696a6b6c6d6e6f"
				   "707172737475767778797a7b7c7d7e7f"
				   "808182838485868788898a8b8c8d8e8f"
				   "909192939495969798999a9b9c9d9e9f"
				   "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
				   "b0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
				   "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf"
				   "d0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
				   "e0e1e2e3e4e5e6e7e8e9eaebecedeeef"
				   "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

static inline char *put_hex(char *q, uint64_t v, const char *pairs)
{
	unsigned int n = (64 - (unsigned int) __builtin_clzll(v | 1) + 3) / 4;
	char *p = q + n;

	while (p - q >= 2) {
		p -= 2;
		memcpy(p, pairs + (v & 0xff) * 2, 2);
		v >>= 8;
	}
	if (p > q)
		q[0] = pairs[(v & 15) * 2 + 1];
	return q + n;
}

bool ftrace_pf_fast(struct pf_out *o, const struct pf_rec *r)
{
	struct pf_print *pp = r->pp;
	const struct pf_fast_op *op, *end;
	char *q, *start;

	if (!pp->fast_tried)
		fast_build(pp);
	if (!pp->fast || o->dead || o->muted || o->nest || pp->fast_max > o->cap - o->n)
		return false;
	start = q = writer_reserve(o->w, pp->fast_max);
	for (op = pp->fast, end = op + pp->n_fast; op < end; op++) {
		uint64_t v, m;

		if (op->code == FTRACE_PF_FAST_LIT) {
			for (uint32_t i = 0; i < op->len; i += 16)
				memcpy(q + i, op->text + i, 16);
			q += op->len;
			continue;
		}
		v = (uint64_t) op->off + op->size > r->size
			    ? 0
			    : ftrace_pf_read_num(r, op->off, op->size);
		m = op->bits >= 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << op->bits) - 1;
		v &= m;
		switch (op->code) {
		case FTRACE_PF_FAST_DEC_S:
			if (op->bits < 64 && (v >> (op->bits - 1)) & 1)
				v |= ~m;
			q += fmt_i64(q, (int64_t) v);
			break;
		case FTRACE_PF_FAST_DEC_U:
			q += fmt_u64(q, v);
			break;
		case FTRACE_PF_FAST_HEX_L:
			q = put_hex(q, v, hex_lower);
			break;
		default:
			q = put_hex(q, v, writer_hex_pairs);
			break;
		}
	}
	writer_commit_to(o->w, q);
	o->n += (size_t) (q - start);
	return true;
}
