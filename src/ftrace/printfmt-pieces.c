// SPDX-License-Identifier: MIT
/*
 * Cutting a format string into printf pieces (literal text, conversions and their arguments),
 * as libtraceevent's parse_args() does once per event (and once per format for bprint):
 * escapes \n \t \r resolved in the text only, "%%" folded, a '*' taking the next
 * argument, the %p extension letters kept with their conversion, and any conversion character
 * it does not know ("%c" among them) printed as ">c<" without using an argument.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/vec.h"
#include "printfmt-int.h"

struct piece_builder {
	struct arena *arena;
	struct vec pieces;
	struct pf_arg **args;
	uint32_t nargs;
	uint32_t next; /* next argument to use */
	uint32_t *flags;
	bool nomem;
};

static struct pf_piece *add_piece(struct piece_builder *b, enum pf_piece_kind kind,
				  const char *text, size_t len)
{
	struct pf_piece *pc = vec_push(&b->pieces, sizeof(*pc));
	char *t;

	if (!pc) {
		b->nomem = true;
		return NULL;
	}
	t = arena_strndup(b->arena, text, len);
	if (!t) {
		b->nomem = true;
		b->pieces.len--;
		return NULL;
	}
	pc->kind = kind;
	pc->text = t;
	pc->len = (uint32_t) len;
	pc->arg = -1;
	pc->len_arg = -1;
	if (kind == FTRACE_PF_PC_STRING)
		pc->ends_0x = len > 1 && t[len - 2] == '0' && t[len - 1] == 'x';
	else
		ftrace_pf_spec_parse(&pc->spec, t, len);
	return pc;
}

/* How many characters after "%p" name an extension (parse_arg_format_pointer()). */
static int pointer_ext_len(const char *f)
{
	int ret = 0, index;

	switch (*f) {
	case 'F':
	case 'S':
	case 'f':
	case 's':
		return 1;
	case 'M':
	case 'm':
		return (f[1] == 'R' || f[1] == 'F') ? 2 : 1;
	case 'I':
	case 'i':
		index = 2;
		switch (f[1]) {
		case 'S':
			while (f[index] == 'p' || f[index] == 'f' || f[index] == 's') {
				ret++;
				index++;
			}
			/* fall through */
		case '4':
			if (f[index] == 'h' || f[index] == 'n' || f[index] == 'l' ||
			    f[index] == 'b') {
				ret++;
				index++;
			}
			if (f[1] == '4') {
				ret++;
				break;
			}
			/* fall through */
		case '6':
			if (f[index] == 'c')
				ret++;
			ret++;
			break;
		}
		return ret + 1;
	case 'U':
		return (f[1] == 'L' || f[1] == 'l' || f[1] == 'B' || f[1] == 'b') ? 2 : 1;
	case 'h':
		return (f[1] == 'C' || f[1] == 'D' || f[1] == 'N') ? 2 : 1;
	default:
		return 0;
	}
}

static const struct pf_field *arg_field(const struct pf_arg *a)
{
	while (a && a->kind == FTRACE_PF_TYPE)
		a = a->typecast.item;
	return a && a->kind == FTRACE_PF_FIELD ? a->field.f : NULL;
}

/*
 * Whether @a reads a fixed place of the record -- REC->f, or REC->f[N] with a number N --
 * the way ftrace_pf_eval() would (same offset and size), so a conversion can skip the tree.
 */
static void set_fast(struct pf_piece *pc, const struct pf_arg *a)
{
	const struct pf_arg *l, *rt;
	uint64_t idx;

	if (a && a->kind == FTRACE_PF_FIELD && a->field.f) {
		pc->fast = true;
		pc->fast_off = a->field.f->offset;
		pc->fast_size = a->field.f->size;
		return;
	}
	if (!a || a->kind != FTRACE_PF_OP || a->op.op[0] != '[' || a->op.op[1])
		return;
	l = a->op.left;
	rt = a->op.right;
	if (!l || l->kind != FTRACE_PF_FIELD || !l->field.f || !rt || rt->kind != FTRACE_PF_ATOM)
		return;
	if (rt->atom.state != FTRACE_PF_ATOM_TEXT)
		idx = rt->atom.num;
	else if (rt->atom.text[0] >= '0' && rt->atom.text[0] <= '9')
		idx = strtoull(rt->atom.text, NULL, 0); /* what the evaluator makes of it */
	else
		return;
	pc->fast = true;
	pc->fast_off = (uint32_t) (l->field.f->offset + idx * l->field.f->elemsize);
	pc->fast_size = l->field.f->elemsize;
}

static void set_arg(struct piece_builder *b, struct pf_piece *pc, int32_t len_arg)
{
	if (!pc)
		return;
	pc->arg = (int32_t) b->next;
	pc->len_arg = len_arg;
	pc->field = b->args ? arg_field(b->args[b->next]) : NULL;
	if (b->args && pc->kind == FTRACE_PF_PC_DIGIT)
		set_fast(pc, b->args[b->next]);
}

/* One conversion from '%' (parse_arg_format()); returns the characters consumed. */
static size_t piece_conv(struct piece_builder *b, const char *format)
{
	const char *start = format;
	int32_t len_arg = -1;
	size_t ret = 1, len;
	int ls = 0;
	struct pf_piece *pc;
	enum pf_piece_kind kind;
	char bad[4];

	for (format++; *format; format++, ret++) {
		switch (*format) {
		case '#':
		case '.':
		case '-':
			continue;
		case 'h':
			ls--;
			continue;
		case 'l':
			ls++;
			continue;
		case 'L':
			ls = 2;
			continue;
		case 'z':
		case 'Z':
			ls = 1;
			continue;
		case '*':
			if (b->next >= b->nargs || len_arg >= 0) {
				*b->flags |= FTRACE_PF_FAILED; /* no argument, or a second '*' */
				return ret;
			}
			len_arg = (int32_t) b->next++;
			continue;
		case 'p':
			if (b->next >= b->nargs) {
				*b->flags |= FTRACE_PF_FAILED;
				return ret;
			}
			kind = FTRACE_PF_PC_POINTER;
			format += pointer_ext_len(format + 1);
			ret = (size_t) (format - start);
			break;
		case 'd':
		case 'u':
		case 'i':
		case 'x':
		case 'X':
		case 'o':
			kind = FTRACE_PF_PC_DIGIT;
			break;
		case 's':
			kind = FTRACE_PF_PC_STR;
			break;
		default:
			if (ftrace_pf_c_digit((unsigned char) *format))
				continue;
			/* %c and friends: libtraceevent prints ">c<" and uses no argument */
			bad[0] = '>';
			bad[1] = *format;
			bad[2] = '<';
			add_piece(b, FTRACE_PF_PC_STRING, bad, 3);
			return ret + 1;
		}
		if (b->next >= b->nargs) {
			*b->flags |= FTRACE_PF_FAILED;
			return ret;
		}
		len = (size_t) (format + 1 - start);
		if (len > (kind == FTRACE_PF_PC_DIGIT ? 30u : 31u)) {
			*b->flags |= FTRACE_PF_FAILED;
			len = 31;
		}
		if (kind == FTRACE_PF_PC_DIGIT && (ls < -2 || ls > 2))
			*b->flags |= FTRACE_PF_FAILED;
		pc = add_piece(b, kind, start, len);
		if (pc)
			pc->ls = (int8_t) (kind == FTRACE_PF_PC_STR ? 0 : ls);
		set_arg(b, pc, len_arg);
		b->next++;
		return ret + 1;
	}
	return ret; /* the format ends inside the conversion */
}

/* Literal text up to the next lone '%', escapes resolved (parse_arg_string()). */
static size_t piece_text(struct piece_builder *b, const char *format)
{
	size_t ret = 0;
	struct vec s = VEC_INIT;

	for (; *format; format++, ret++) {
		char c = *format, *d;

		if (c == '\\') {
			format++;
			ret++;
			switch (*format) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case '\0':
				/* a trailing backslash: libtraceevent reads past the end here */
				goto done;
			default:
				c = *format;
				break;
			}
		} else if (c == '%') {
			if (format[1] != '%')
				break;
			format++;
			ret++;
		}
		d = vec_push(&s, 1);
		if (!d) {
			b->nomem = true;
			break;
		}
		*d = c;
	}
done:
	add_piece(b, FTRACE_PF_PC_STRING, s.data ? s.data : "", s.len);
	vec_fini(&s);
	return ret;
}

int ftrace_pf_build_pieces(struct arena *arena, const char *fmt, struct pf_arg **args,
			   uint32_t nargs, struct pf_piece **out, uint32_t *n_out, uint32_t *flags,
			   uint32_t *used)
{
	struct piece_builder b = {
		.arena = arena, .pieces = VEC_INIT, .args = args, .nargs = nargs, .flags = flags};
	size_t len = strlen(fmt);

	while (*fmt && !b.nomem) {
		size_t ret;

		if (fmt[0] == '%' && fmt[1] != '%')
			ret = piece_conv(&b, fmt);
		else
			ret = piece_text(&b, fmt);
		if (ret >= len)
			break;
		len -= ret;
		fmt += ret;
	}
	if (b.nomem) {
		vec_fini(&b.pieces);
		return -1;
	}
	*out = NULL;
	if (b.pieces.len) {
		*out = arena_alloc(arena, b.pieces.len * sizeof(struct pf_piece));
		if (!*out) {
			vec_fini(&b.pieces);
			return -1;
		}
		memcpy(*out, b.pieces.data, b.pieces.len * sizeof(struct pf_piece));
	}
	*n_out = (uint32_t) b.pieces.len;
	if (used)
		*used = b.next;
	vec_fini(&b.pieces);
	return 0;
}
