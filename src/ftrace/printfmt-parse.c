// SPDX-License-Identifier: MIT
/*
 * Compiling an event's print fmt, once per event class: the argument parser, constant folding,
 * the values of __print_flags()/__print_symbolic() pairs, and the entry points that tie it to
 * the tokenizer (printfmt-lex.c) and the cut into printf pieces (printfmt-pieces.c).
 *
 * `trace-cmd report` prints what libtraceevent 1.7.1 makes of a print fmt, and libtraceevent
 * is not a C compiler: it builds its tree with its own precedence rules (a*(b+c) becomes
 * (a*b)+c, a-b-c becomes a-(b-c)), treats %c as unknown, keeps the first token of
 * __builtin_expect() only, and so on. This parser takes the same decisions on the same tokens
 * so that the tree, and therefore the printed text, is the same; every such rule was checked
 * against the library. Where libtraceevent would crash or read freed memory, we take the path
 * its authors evidently meant.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "printfmt-int.h"
#include "printfmt.h"

/* Deeper nesting than any kernel format has; it bounds the parser's and evaluator's stacks. */
#define FTRACE_PF_MAX_DEPTH 200

/* ------------------------------------------------------------------ tokens */

struct pf_parser {
	struct pf_lex lx;
	struct arena *perm;   /* the compiled tree (the context's arena) */
	struct arena scratch; /* tokens */
	const struct ftrace_ctx *ctx;
	struct pf_print *pp;
	int depth;
	bool nomem;
	const char *why; /* first reason the parse failed */
};

static enum pf_tok lex_token(struct pf_parser *p, char **tok)
{
	enum pf_tok t = ftrace_pf_lex_token(&p->lx, tok);

	if (p->lx.nomem)
		p->nomem = true;
	return t;
}

static enum pf_tok lex_item(struct pf_parser *p, char **tok)
{
	enum pf_tok t = ftrace_pf_lex_item(&p->lx, tok);

	if (p->lx.nomem)
		p->nomem = true;
	return t;
}

static bool is_tok(enum pf_tok type, const char *tok, enum pf_tok want, const char *text)
{
	return ftrace_pf_is_tok(type, tok, want, text);
}

/* Read a token and check it is @text of type @want (read_expected(), newlines allowed). */
static bool expect_tok(struct pf_parser *p, enum pf_tok want, const char *text)
{
	char *tok;
	enum pf_tok type = lex_token(p, &tok);

	return is_tok(type, tok, want, text);
}

/* ------------------------------------------------------------------ tree helpers */

static enum pf_tok fail(struct pf_parser *p, const char *why)
{
	if (!p->why)
		p->why = why;
	return FTRACE_PF_TOK_ERROR;
}

static struct pf_arg *new_arg(struct pf_parser *p)
{
	struct pf_arg *a = arena_alloc(p->perm, sizeof(*a));

	if (!a)
		p->nomem = true;
	return a;
}

static const char *perm_str(struct pf_parser *p, const char *s)
{
	char *c = arena_strdup(p->perm, s ? s : "");

	if (!c)
		p->nomem = true;
	return c;
}

static const char *perm_cat(struct pf_parser *p, const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = strlen(sep), lb = strlen(b);
	char *c = arena_alloc(p->perm, la + ls + lb + 1);

	if (!c) {
		p->nomem = true;
		return a;
	}
	memcpy(c, a, la);
	memcpy(c + la, sep, ls);
	memcpy(c + la + ls, b, lb + 1);
	return c;
}

const struct pf_field *ftrace_pf_find_any_field(const struct pf_print *pp, const char *name)
{
	for (uint32_t i = 0; i < pp->n_fields; i++) {
		if (strcmp(pp->fields[i].name, name) == 0)
			return &pp->fields[i];
	}
	return NULL;
}

const struct pf_field *ftrace_pf_find_field(const struct pf_print *pp, const char *name)
{
	for (uint32_t i = pp->n_common; i < pp->n_fields; i++) {
		if (strcmp(pp->fields[i].name, name) == 0)
			return &pp->fields[i];
	}
	return NULL;
}

static int op_prio(const char *op)
{
	if (op[0] && !op[1]) {
		switch (op[0]) {
		case '~':
		case '!':
			return 4;
		case '*':
		case '/':
		case '%':
			return 6;
		case '+':
		case '-':
			return 7;
		case '<':
		case '>':
			return 9;
		case '&':
			return 11;
		case '^':
			return 12;
		case '|':
			return 13;
		case '?':
			return 16;
		default:
			return -1;
		}
	}
	if (!strcmp(op, "++") || !strcmp(op, "--"))
		return 3;
	if (!strcmp(op, ">>") || !strcmp(op, "<<"))
		return 8;
	if (!strcmp(op, ">=") || !strcmp(op, "<="))
		return 9;
	if (!strcmp(op, "==") || !strcmp(op, "!="))
		return 10;
	if (!strcmp(op, "&&"))
		return 14;
	if (!strcmp(op, "||"))
		return 15;
	return -1;
}

static bool is_binary_op(const char *t)
{
	static const char *const ops[] = {">>", "<<", "&", "|", "&&", "||", "-",  "+",	"*",
					  "^",	"/",  "%", "<", ">",  "<=", ">=", "==", "!="};

	for (size_t i = 0; i < TK_ARRAY_SIZE(ops); i++) {
		if (strcmp(t, ops[i]) == 0)
			return true;
	}
	return false;
}

/*
 * Fold an operator whose operands are both numbers into a number (libtraceevent's
 * consolidate_op_arg(), applied to whole print arguments and helper arguments only). Both
 * texts are read with strtoull() and the result is written back as "%lld".
 */
static void fold(struct pf_parser *p, struct pf_arg *a)
{
	uint64_t l, r, v;

	if (a->kind != FTRACE_PF_OP)
		return;
	if (a->op.left)
		fold(p, a->op.left);
	if (a->op.right)
		fold(p, a->op.right);
	if (!a->op.left || !a->op.right)
		return;
	if (a->op.left->kind != FTRACE_PF_ATOM || a->op.right->kind != FTRACE_PF_ATOM)
		return;
	l = strtoull(a->op.left->atom.text, NULL, 0);
	r = strtoull(a->op.right->atom.text, NULL, 0);
	switch (a->op.op[0]) {
	case '>':
		v = a->op.op[1] == '>' ? l >> (r & 63) : a->op.op[1] == '=' ? l >= r : l > r;
		break;
	case '<':
		v = a->op.op[1] == '<' ? l << (r & 63) : a->op.op[1] == '=' ? l <= r : l < r;
		break;
	case '&':
		v = a->op.op[1] ? (l && r) : (l & r);
		break;
	case '|':
		v = a->op.op[1] ? (l || r) : (l | r);
		break;
	case '-':
		v = l - r;
		break;
	case '+':
		v = l + r;
		break;
	case '*':
		v = l * r;
		break;
	case '^':
		v = l ^ r;
		break;
	case '/':
	case '%':
		if (!r)
			return; /* libtraceevent dies here; we leave it to the evaluator */
		v = a->op.op[0] == '/' ? l / r : l % r;
		break;
	case '=':
		v = l == r;
		break;
	case '!':
		v = l != r;
		break;
	default:
		return;
	}
	char num[24];

	snprintf(num, sizeof(num), "%lld", (long long) v);
	a->kind = FTRACE_PF_ATOM;
	a->atom.text = perm_str(p, num);
	a->atom.num = 0;
	a->atom.state = FTRACE_PF_ATOM_TEXT;
}

/* ------------------------------------------------------------------ arg_num_eval() */

/*
 * libtraceevent's eval_type_str(): what a cast does to a value. Signed types are masked like
 * unsigned ones (its sign variable is never set), unknown types leave the value alone.
 */
uint64_t ftrace_pf_cast(uint64_t v, const char *type, bool pointer)
{
	size_t len = strlen(type);

	if (len < 2)
		return v;
	if (pointer) {
		char ref[128];

		if (type[len - 1] != '*' || len - 2 >= sizeof(ref))
			return v;
		memcpy(ref, type, len - 2);
		ref[len - 2] = '\0';
		return ftrace_pf_cast(v, ref, false);
	}
	if (type[len - 1] == '*')
		return v;
	if (strncmp(type, "struct", 6) == 0)
		return v;
	if (!strcmp(type, "u8") || !strcmp(type, "s8"))
		return v & 0xff;
	if (!strcmp(type, "u16") || !strcmp(type, "s16"))
		return v & 0xffff;
	if (!strcmp(type, "u32") || !strcmp(type, "s32"))
		return v & 0xffffffff;
	if (strncmp(type, "unsigned ", 9) == 0)
		type += 9;
	if (!strcmp(type, "char"))
		return v & 0xff;
	if (!strcmp(type, "short"))
		return v & 0xffff;
	if (!strcmp(type, "int"))
		return v & 0xffffffff;
	return v;
}

/*
 * Evaluate a constant expression the way libtraceevent evaluates the values of
 * __print_flags() and __print_symbolic() pairs (arg_num_eval(): signed, strtoll(), a few
 * operators only). Returns false where it gives up.
 */
static bool num_eval(const struct pf_arg *a, int64_t *out)
{
	int64_t l = 0, r = 0;
	const char *op;

	switch (a->kind) {
	case FTRACE_PF_ATOM:
		*out = strtoll(a->atom.text, NULL, 0);
		return true;
	case FTRACE_PF_TYPE:
		if (!num_eval(a->typecast.item, out))
			return false;
		*out = (int64_t) ftrace_pf_cast((uint64_t) *out, a->typecast.type, false);
		return true;
	case FTRACE_PF_OP:
		break;
	default:
		return false;
	}
	op = a->op.op;
	switch (op[0]) {
	case '|':
	case '&':
	case '<':
	case '>':
	case '=':
	case '!':
		if (!num_eval(a->op.left, &l) || !num_eval(a->op.right, &r))
			return false;
		break;
	case '-':
	case '+':
		if (a->op.left->kind != FTRACE_PF_NULL && !num_eval(a->op.left, &l))
			return false;
		if (!num_eval(a->op.right, &r))
			return false;
		break;
	case '~':
		if (!num_eval(a->op.right, &r))
			return false;
		break;
	default:
		return false;
	}
	switch (op[0]) {
	case '|':
		*out = op[1] ? (l || r) : (l | r);
		return true;
	case '&':
		*out = op[1] ? (l && r) : (l & r);
		return true;
	case '<':
		if (!op[1])
			*out = l < r;
		else if (op[1] == '<')
			*out = (int64_t) ((uint64_t) l << (r & 63));
		else if (op[1] == '=')
			*out = l <= r;
		else
			return false;
		return true;
	case '>':
		if (!op[1])
			*out = l > r;
		else if (op[1] == '>')
			*out = l >> (r & 63);
		else if (op[1] == '=')
			*out = l >= r;
		else
			return false;
		return true;
	case '=':
		if (op[1] != '=')
			return false;
		*out = l == r;
		return true;
	case '!':
		if (op[1] != '=')
			return false;
		*out = l != r;
		return true;
	case '-':
		*out = (int64_t) ((uint64_t) l - (uint64_t) r);
		return true;
	case '+':
		*out = (int64_t) ((uint64_t) l + (uint64_t) r);
		return true;
	default:
		*out = (int64_t) ~(uint64_t) r;
		return true;
	}
}

/* The text libtraceevent keeps for a pair's value or name (arg_eval()). */
static const char *pair_text(const struct pf_arg *a, char buf[24])
{
	int64_t v;

	switch (a->kind) {
	case FTRACE_PF_ATOM:
		return a->atom.text;
	case FTRACE_PF_TYPE:
		return pair_text(a->typecast.item, buf);
	case FTRACE_PF_OP:
		if (!num_eval(a, &v))
			return NULL;
		snprintf(buf, 24, "%lld", (long long) v);
		return buf;
	default:
		return NULL;
	}
}

/* libtraceevent's eval_flag(): digits are numbers, a few softirq/hrtimer names, else -1. */
static int64_t flag_value(const char *s)
{
	static const struct {
		const char *name;
		int64_t value;
	} known[] = {
		{"HI_SOFTIRQ", 0},	{"TIMER_SOFTIRQ", 1},	  {"NET_TX_SOFTIRQ", 2},
		{"NET_RX_SOFTIRQ", 3},	{"BLOCK_SOFTIRQ", 4},	  {"IRQ_POLL_SOFTIRQ", 5},
		{"TASKLET_SOFTIRQ", 6}, {"SCHED_SOFTIRQ", 7},	  {"HRTIMER_SOFTIRQ", 8},
		{"RCU_SOFTIRQ", 9},	{"HRTIMER_NORESTART", 0}, {"HRTIMER_RESTART", 1},
	};

	if (ftrace_pf_c_digit((unsigned char) s[0]))
		return (int64_t) strtoull(s, NULL, 0);
	for (size_t i = 0; i < TK_ARRAY_SIZE(known); i++) {
		if (strcmp(known[i].name, s) == 0)
			return known[i].value;
	}
	return -1;
}

/* ------------------------------------------------------------------ the parser */

static enum pf_tok parse_arg(struct pf_parser *p, struct pf_arg *arg, char **tok);
static enum pf_tok parse_arg_token(struct pf_parser *p, struct pf_arg *arg, char **tok,
				   enum pf_tok type);
static enum pf_tok parse_op(struct pf_parser *p, struct pf_arg *arg, char **tok);

static enum pf_tok parse_arg(struct pf_parser *p, struct pf_arg *arg, char **tok)
{
	enum pf_tok type = lex_token(p, tok);

	return parse_arg_token(p, arg, tok, type);
}

/* The value argument of __print_flags() and __print_symbolic(), operators included. */
static enum pf_tok parse_field_arg(struct pf_parser *p, struct pf_arg *arg, char **tok)
{
	enum pf_tok type = parse_arg(p, arg, tok);

	while (type == FTRACE_PF_TOK_OP)
		type = parse_op(p, arg, tok);
	return type;
}

/* "cond ? a : b": @top is the '?' operator, its right side becomes the ':' operator. */
static enum pf_tok parse_cond(struct pf_parser *p, struct pf_arg *top, char **tok)
{
	struct pf_arg *arg = new_arg(p), *left = new_arg(p), *right = new_arg(p);
	enum pf_tok type;
	char *token = NULL;

	if (!arg || !left || !right)
		return FTRACE_PF_TOK_ERROR;
	arg->kind = FTRACE_PF_OP;
	arg->op.left = left;
	arg->op.right = right;
	*tok = NULL;
	type = parse_arg(p, left, &token);
	for (;;) {
		if (type == FTRACE_PF_TOK_ERROR)
			goto err;
		if (type == FTRACE_PF_TOK_OP && strcmp(token, ":") != 0) {
			type = parse_op(p, left, &token);
			continue;
		}
		break;
	}
	if (!is_tok(type, token, FTRACE_PF_TOK_OP, ":")) {
		fail(p, "'?' without ':'");
		goto err;
	}
	arg->op.op = perm_str(p, token);
	type = parse_arg(p, right, &token);
	top->op.right = arg;
	*tok = token;
	return type;
err:
	top->op.right = NULL;
	return FTRACE_PF_TOK_ERROR;
}

static enum pf_tok parse_array(struct pf_parser *p, struct pf_arg *top, char **tok)
{
	struct pf_arg *arg = new_arg(p);
	enum pf_tok type;
	char *token = NULL;

	if (!arg)
		return FTRACE_PF_TOK_ERROR;
	*tok = NULL;
	type = parse_arg(p, arg, &token);
	if (!is_tok(type, token, FTRACE_PF_TOK_OP, "]"))
		return fail(p, "'[' without ']'");
	top->op.right = arg;
	type = lex_item(p, &token);
	*tok = token;
	return type;
}

/*
 * An operator (libtraceevent's process_op()): @arg is what was parsed so far and *@tok the
 * operator. The tree is rotated when the right operand is itself an operator of lower
 * priority, which is what turns a*(b+c) into (a*b)+c; kept on purpose.
 */
static enum pf_tok parse_op(struct pf_parser *p, struct pf_arg *arg, char **tok)
{
	struct pf_arg *left, *right = NULL;
	enum pf_tok type;
	char *token = *tok;
	enum pf_tok ret;

	if (++p->depth > FTRACE_PF_MAX_DEPTH) {
		p->depth--;
		return fail(p, "expression nested too deeply");
	}
	if (arg->kind == FTRACE_PF_OP && !arg->op.left) {
		/* unary operator */
		if (!token || !strchr("~!+-", token[0]) || !token[0] || token[1]) {
			type = fail(p, "bad operator");
			goto out;
		}
		left = new_arg(p);
		right = new_arg(p);
		if (!left || !right) {
			type = FTRACE_PF_TOK_ERROR;
			goto out;
		}
		arg->op.left = left; /* FTRACE_PF_NULL */
		arg->op.right = right;
		*tok = NULL;
		type = parse_arg(p, right, tok);
	} else if (strcmp(token, "?") == 0) {
		left = new_arg(p);
		if (!left) {
			type = FTRACE_PF_TOK_ERROR;
			goto out;
		}
		*left = *arg;
		arg->kind = FTRACE_PF_OP;
		arg->op.op = perm_str(p, token);
		arg->op.left = left;
		arg->op.right = NULL;
		arg->op.prio = 0;
		type = parse_cond(p, arg, tok);
	} else if (is_binary_op(token)) {
		left = new_arg(p);
		if (!left) {
			type = FTRACE_PF_TOK_ERROR;
			goto out;
		}
		*left = *arg;
		arg->kind = FTRACE_PF_OP;
		arg->op.op = perm_str(p, token);
		arg->op.left = left;
		arg->op.right = NULL;
		arg->op.prio = left->kind == FTRACE_PF_NULL ? 0 : op_prio(arg->op.op);
		type = lex_item(p, &token);
		*tok = token;
		if (strcmp(arg->op.op, "*") == 0 && is_tok(type, token, FTRACE_PF_TOK_DELIM, ")")) {
			/* "(type *)": a pointer cast */
			if (left->kind != FTRACE_PF_ATOM) {
				type = fail(p, "bad pointer type");
				goto out;
			}
			left->atom.text = perm_cat(p, left->atom.text, " ", "*");
			*arg = *left;
			goto out;
		}
		right = new_arg(p);
		if (!right) {
			type = FTRACE_PF_TOK_ERROR;
			goto out;
		}
		type = parse_arg_token(p, right, tok, type);
		if (type == FTRACE_PF_TOK_ERROR)
			goto out;
		if (right->kind == FTRACE_PF_OP && op_prio(arg->op.op) < op_prio(right->op.op)) {
			struct pf_arg tmp;

			arg->op.right = right->op.left;
			tmp = *arg;
			*arg = *right;
			*right = tmp;
			arg->op.left = right;
		} else {
			arg->op.right = right;
		}
	} else if (strcmp(token, "[") == 0) {
		left = new_arg(p);
		if (!left) {
			type = FTRACE_PF_TOK_ERROR;
			goto out;
		}
		*left = *arg;
		arg->kind = FTRACE_PF_OP;
		arg->op.op = perm_str(p, token);
		arg->op.left = left;
		arg->op.right = NULL;
		arg->op.prio = 0;
		type = parse_array(p, arg, tok);
	} else {
		type = fail(p, "unknown operator");
		goto out;
	}

	if (type == FTRACE_PF_TOK_OP && strcmp(*tok, ":") != 0) {
		/* higher priorities go closer to the root */
		if (op_prio(*tok) > arg->op.prio) {
			type = parse_op(p, arg, tok);
		} else if (right) {
			type = parse_op(p, right, tok);
		} else {
			type = fail(p, "operator after '?' or '['"); /* libtraceevent crashes */
		}
	}
out:
	p->depth--;
	ret = type;
	return ret;
}

/* REC->field, or "(REC)" when the next token is ')' (returned as an ITEM). */
static enum pf_tok parse_entry(struct pf_parser *p, struct pf_arg *arg, char **tok)
{
	enum pf_tok type;
	char *token;

	type = lex_item(p, &token);
	if (is_tok(type, token, FTRACE_PF_TOK_DELIM, ")")) {
		*tok = token;
		return FTRACE_PF_TOK_ITEM;
	}
	if (!is_tok(type, token, FTRACE_PF_TOK_OP, "->"))
		return fail(p, "REC without ->");
	type = lex_token(p, &token);
	if (type != FTRACE_PF_TOK_ITEM)
		return fail(p, "REC-> without a field name");
	arg->kind = FTRACE_PF_FIELD;
	arg->field.name = perm_str(p, token);
	arg->field.f = ftrace_pf_find_any_field(p->pp, token);
	type = lex_token(p, &token);
	*tok = token;
	return type;
}

/* One helper argument, operators allowed and folded, followed by @next. */
static bool parse_delim(struct pf_parser *p, const char *next, struct pf_arg **out)
{
	struct pf_arg *a = new_arg(p);
	enum pf_tok type;
	char *token;

	if (!a)
		return false;
	type = parse_arg(p, a, &token);
	if (type == FTRACE_PF_TOK_OP) {
		type = parse_op(p, a, &token);
		if (type == FTRACE_PF_TOK_ERROR)
			return false;
		fold(p, a);
	}
	if (!is_tok(type, token, FTRACE_PF_TOK_DELIM, next)) {
		fail(p, "bad helper arguments");
		return false;
	}
	*out = a;
	return true;
}

/* The {value, "name"} pairs of __print_flags() and __print_symbolic(). */
static enum pf_tok parse_pairs(struct pf_parser *p, struct ftrace_pf_sym **list, char **tok)
{
	enum pf_tok type;
	char *token = *tok;
	char buf[24];
	const char *text;

	do {
		struct pf_arg *a;
		struct ftrace_pf_sym *s;

		type = lex_item(p, &token);
		if (!is_tok(type, token, FTRACE_PF_TOK_OP, "{"))
			break;
		a = new_arg(p);
		if (!a)
			return FTRACE_PF_TOK_ERROR;
		type = parse_arg(p, a, &token);
		if (type == FTRACE_PF_TOK_OP)
			type = parse_op(p, a, &token);
		if (type == FTRACE_PF_TOK_ERROR)
			return FTRACE_PF_TOK_ERROR;
		if (!is_tok(type, token, FTRACE_PF_TOK_DELIM, ","))
			return fail(p, "bad {value, name} pair");
		s = arena_alloc(p->perm, sizeof(*s));
		if (!s) {
			p->nomem = true;
			return FTRACE_PF_TOK_ERROR;
		}
		text = pair_text(a, buf);
		if (!text)
			return fail(p, "value of a pair is not a constant");
		s->value = flag_value(text);
		a = new_arg(p);
		if (!a)
			return FTRACE_PF_TOK_ERROR;
		type = parse_arg(p, a, &token);
		if (!is_tok(type, token, FTRACE_PF_TOK_OP, "}"))
			return fail(p, "bad {value, name} pair");
		text = pair_text(a, buf);
		if (!text)
			return fail(p, "name of a pair is not a constant");
		s->str = perm_str(p, text);
		*list = s;
		list = &s->next;
		type = lex_item(p, &token);
	} while (is_tok(type, token, FTRACE_PF_TOK_DELIM, ","));
	*tok = token;
	return type;
}

static enum pf_tok parse_flags(struct pf_parser *p, struct pf_arg *arg, char **tok, bool symbolic)
{
	struct pf_arg *field;
	enum pf_tok type;
	char *token = NULL;

	memset(arg, 0, sizeof(*arg));
	arg->kind = symbolic ? FTRACE_PF_SYMBOL : FTRACE_PF_FLAGS;
	field = new_arg(p);
	if (!field)
		return FTRACE_PF_TOK_ERROR;
	type = parse_field_arg(p, field, &token);
	if (!symbolic) {
		while (type == FTRACE_PF_TOK_OP)
			type = parse_op(p, field, &token);
	}
	if (!is_tok(type, token, FTRACE_PF_TOK_DELIM, ","))
		return fail(p, "bad __print_flags/__print_symbolic");
	arg->flags.field = field;
	if (!symbolic) {
		type = lex_item(p, &token);
		if (ftrace_pf_item_type(type)) {
			arg->flags.delim = perm_str(p, token);
			type = lex_item(p, &token);
		}
		if (!is_tok(type, token, FTRACE_PF_TOK_DELIM, ","))
			return fail(p, "bad __print_flags delimiter");
	}
	type = parse_pairs(p, &arg->flags.syms, &token);
	if (!is_tok(type, token, FTRACE_PF_TOK_DELIM, ")"))
		return fail(p, "bad __print_flags/__print_symbolic");
	return lex_item(p, tok);
}

static enum pf_tok parse_hex(struct pf_parser *p, struct pf_arg *arg, char **tok, enum pf_kind k)
{
	memset(arg, 0, sizeof(*arg));
	arg->kind = k;
	if (!parse_delim(p, ",", &arg->hex.field) || !parse_delim(p, ")", &arg->hex.size)) {
		*tok = NULL;
		return FTRACE_PF_TOK_ERROR;
	}
	return lex_item(p, tok);
}

static enum pf_tok parse_int_array(struct pf_parser *p, struct pf_arg *arg, char **tok)
{
	memset(arg, 0, sizeof(*arg));
	arg->kind = FTRACE_PF_INT_ARRAY;
	if (!parse_delim(p, ",", &arg->int_array.field) ||
	    !parse_delim(p, ",", &arg->int_array.count) ||
	    !parse_delim(p, ")", &arg->int_array.el_size)) {
		*tok = NULL;
		return FTRACE_PF_TOK_ERROR;
	}
	return lex_item(p, tok);
}

/*
 * __get_dynamic_array(field) and __get_sockaddr(field). libtraceevent 1.7.1 rejects an index
 * written after it ("[i]": its test is inverted) and drops any other following expression.
 */
static enum pf_tok parse_dynarray(struct pf_parser *p, struct pf_arg *arg, char **tok)
{
	struct pf_arg *index;
	enum pf_tok type;
	char *token;

	memset(arg, 0, sizeof(*arg));
	arg->kind = FTRACE_PF_DYNARRAY;
	type = lex_token(p, &token);
	*tok = token;
	if (type != FTRACE_PF_TOK_ITEM)
		return fail(p, "bad __get_dynamic_array");
	arg->dyn.f = ftrace_pf_find_field(p->pp, token);
	if (!arg->dyn.f)
		return fail(p, "__get_dynamic_array of an unknown field");
	if (!expect_tok(p, FTRACE_PF_TOK_DELIM, ")"))
		return fail(p, "bad __get_dynamic_array");
	type = lex_item(p, &token);
	*tok = token;
	if (!is_tok(type, token, FTRACE_PF_TOK_OP, "["))
		return type;
	index = new_arg(p);
	if (!index)
		return FTRACE_PF_TOK_ERROR;
	type = parse_arg(p, index, &token);
	if (type == FTRACE_PF_TOK_ERROR)
		return FTRACE_PF_TOK_ERROR;
	if (is_tok(type, token, FTRACE_PF_TOK_OP, "]"))
		return fail(p, "index after __get_dynamic_array()");
	return lex_item(p, tok);
}

static enum pf_tok parse_dynarray_len(struct pf_parser *p, struct pf_arg *arg, char **tok)
{
	enum pf_tok type;
	char *token;

	type = lex_token(p, &token);
	if (type != FTRACE_PF_TOK_ITEM)
		return fail(p, "bad __get_dynamic_array_len");
	arg->kind = FTRACE_PF_DYNARRAY_LEN;
	arg->dyn.f = ftrace_pf_find_field(p->pp, token);
	if (!arg->dyn.f)
		return fail(p, "__get_dynamic_array_len of an unknown field");
	if (!expect_tok(p, FTRACE_PF_TOK_DELIM, ")"))
		return fail(p, "bad __get_dynamic_array_len");
	type = lex_token(p, &token);
	*tok = token;
	return type;
}

/* __get_str(f), __get_bitmask(f), __get_cpumask(f) and their rel_ forms. */
static enum pf_tok parse_str(struct pf_parser *p, struct pf_arg *arg, char **tok, enum pf_kind k)
{
	enum pf_tok type;
	char *token;

	type = lex_token(p, &token);
	if (type != FTRACE_PF_TOK_ITEM)
		return fail(p, "bad __get_str/__get_bitmask");
	arg->kind = k;
	arg->str.name = perm_str(p, token);
	arg->str.f = ftrace_pf_find_any_field(p->pp, token);
	if (!expect_tok(p, FTRACE_PF_TOK_DELIM, ")"))
		return fail(p, "bad __get_str/__get_bitmask");
	type = lex_token(p, &token);
	*tok = token;
	return type;
}

/* (...): a parenthesised expression, a cast when an item or '(' follows, or (REC)->field. */
static enum pf_tok parse_paren(struct pf_parser *p, struct pf_arg *arg, char **tok)
{
	struct pf_arg *item;
	enum pf_tok type;
	char *token;

	type = parse_arg(p, arg, &token);
	if (type == FTRACE_PF_TOK_ERROR)
		return FTRACE_PF_TOK_ERROR;
	if (type == FTRACE_PF_TOK_OP)
		type = parse_op(p, arg, &token);
	if (type == FTRACE_PF_TOK_ERROR)
		return FTRACE_PF_TOK_ERROR;
	if (type == FTRACE_PF_TOK_ITEM && token && strcmp(token, ")") == 0)
		return parse_entry(p, arg, tok);
	if (!is_tok(type, token, FTRACE_PF_TOK_DELIM, ")"))
		return fail(p, "'(' without ')'");
	type = lex_item(p, &token);
	if (ftrace_pf_item_type(type) || is_tok(type, token, FTRACE_PF_TOK_DELIM, "(")) {
		if (arg->kind != FTRACE_PF_ATOM)
			return fail(p, "cast to something that is not a type");
		item = new_arg(p);
		if (!item)
			return FTRACE_PF_TOK_ERROR;
		arg->kind = FTRACE_PF_TYPE;
		arg->typecast.type = arg->atom.text;
		arg->typecast.item = item;
		arg->typecast.mask = ftrace_pf_cast(~(uint64_t) 0, arg->typecast.type, false);
		arg->typecast.pmask = ftrace_pf_cast(~(uint64_t) 0, arg->typecast.type, true);
		type = parse_arg_token(p, item, &token, type);
	}
	*tok = token;
	return type;
}

static enum pf_tok parse_func_call(struct pf_parser *p, const struct pf_func *fn,
				   struct pf_arg *arg, char **tok)
{
	struct pf_arg **next = &arg->func.args;
	enum pf_tok type;
	char *token;

	arg->kind = FTRACE_PF_FUNC;
	arg->func.fn = fn;
	p->pp->flags |= FTRACE_PF_PLUGIN_FUNC;
	*tok = NULL;
	for (int i = 0; i < fn->nargs; i++) {
		struct pf_arg *a = new_arg(p);

		if (!a)
			return FTRACE_PF_TOK_ERROR;
		type = parse_arg(p, a, &token);
		if (!is_tok(type, token, FTRACE_PF_TOK_DELIM, i < fn->nargs - 1 ? "," : ")"))
			return fail(p, "wrong number of arguments to a plugin function");
		*next = a;
		next = &a->next;
	}
	type = lex_token(p, &token);
	*tok = token;
	return type;
}

static enum pf_tok parse_builtin_expect(struct pf_parser *p, struct pf_arg *arg, char **tok)
{
	enum pf_tok type;
	char *token = NULL;

	/* only the first token of the condition is kept: "a > b" is an error */
	type = parse_arg(p, arg, &token);
	if (type != FTRACE_PF_TOK_DELIM || !token || token[0] != ',')
		return fail(p, "bad __builtin_expect");
	type = lex_token(p, &token);
	if (type != FTRACE_PF_TOK_ITEM)
		return fail(p, "bad __builtin_expect");
	if (!expect_tok(p, FTRACE_PF_TOK_DELIM, ")"))
		return fail(p, "bad __builtin_expect");
	return lex_item(p, tok);
}

/* sizeof(int), sizeof(unsigned [int|long]), sizeof(long [long]), sizeof(REC->field). */
static enum pf_tok parse_sizeof(struct pf_parser *p, struct pf_arg *arg, char **tok)
{
	const struct pf_field *f;
	enum pf_tok type;
	char *token = NULL;
	bool ok = false;
	char num[16];

	type = lex_item(p, &token);
	arg->kind = FTRACE_PF_ATOM;
	if (token && strcmp(token, "unsigned") == 0) {
		type = lex_item(p, &token);
		if (type == FTRACE_PF_TOK_ERROR)
			return FTRACE_PF_TOK_ERROR;
		if (type != FTRACE_PF_TOK_ITEM)
			ok = true;
	}
	if (ok || (token && strcmp(token, "int") == 0)) {
		arg->atom.text = "4";
	} else if (token && strcmp(token, "long") == 0) {
		type = lex_item(p, &token);
		if (token && strcmp(token, "long") == 0) {
			arg->atom.text = "8";
		} else {
			if (p->ctx->long_size != 4 && p->ctx->long_size != 8)
				return fail(p, "sizeof(long) with an unknown long size");
			arg->atom.text = p->ctx->long_size == 4 ? "4" : "8";
			ok = true; /* the token read is the one after */
		}
	} else if (token && strcmp(token, "REC") == 0) {
		type = lex_item(p, &token);
		if (!is_tok(type, token, FTRACE_PF_TOK_OP, "->"))
			return fail(p, "bad sizeof");
		type = lex_token(p, &token);
		if (type != FTRACE_PF_TOK_ITEM)
			return fail(p, "bad sizeof");
		f = ftrace_pf_find_any_field(p->pp, token);
		if (!f || (f->flags & FTRACE_PF_F_ARRAY))
			return fail(p, "sizeof of an unknown field or of an array");
		snprintf(num, sizeof(num), "%u", f->size);
		arg->atom.text = perm_str(p, num);
	} else {
		return fail(p, "sizeof of an unknown type");
	}
	if (!ok)
		type = lex_item(p, &token);
	if (!is_tok(type, token, FTRACE_PF_TOK_DELIM, ")"))
		return fail(p, "bad sizeof");
	return lex_item(p, tok);
}

static enum pf_tok parse_function(struct pf_parser *p, struct pf_arg *arg, const char *name,
				  char **tok)
{
	const struct pf_func *fn;

	if (!strcmp(name, "__print_flags"))
		return parse_flags(p, arg, tok, false);
	if (!strcmp(name, "__print_symbolic"))
		return parse_flags(p, arg, tok, true);
	if (!strcmp(name, "__print_hex"))
		return parse_hex(p, arg, tok, FTRACE_PF_HEX);
	if (!strcmp(name, "__print_hex_str"))
		return parse_hex(p, arg, tok, FTRACE_PF_HEX_STR);
	if (!strcmp(name, "__print_array"))
		return parse_int_array(p, arg, tok);
	if (!strcmp(name, "__get_str") || !strcmp(name, "__get_rel_str"))
		return parse_str(p, arg, tok, FTRACE_PF_STRING);
	if (!strcmp(name, "__get_bitmask") || !strcmp(name, "__get_rel_bitmask"))
		return parse_str(p, arg, tok, FTRACE_PF_BITMASK);
	if (!strcmp(name, "__get_cpumask") || !strcmp(name, "__get_rel_cpumask"))
		return parse_str(p, arg, tok, FTRACE_PF_CPUMASK);
	if (!strcmp(name, "__get_dynamic_array") || !strcmp(name, "__get_rel_dynamic_array") ||
	    !strcmp(name, "__get_sockaddr") || !strcmp(name, "__get_sockaddr_rel"))
		return parse_dynarray(p, arg, tok);
	if (!strcmp(name, "__get_dynamic_array_len") ||
	    !strcmp(name, "__get_rel_dynamic_array_len"))
		return parse_dynarray_len(p, arg, tok);
	if (!strcmp(name, "__builtin_expect"))
		return parse_builtin_expect(p, arg, tok);
	if (!strcmp(name, "sizeof"))
		return parse_sizeof(p, arg, tok);
	fn = ftrace_pf_func_lookup(name);
	if (fn)
		return parse_func_call(p, fn, arg, tok);
	return fail(p, "unknown function");
}

static enum pf_tok parse_arg_token(struct pf_parser *p, struct pf_arg *arg, char **tok,
				   enum pf_tok type)
{
	char *token = *tok;
	const char *atom;

	if (++p->depth > FTRACE_PF_MAX_DEPTH) {
		p->depth--;
		return fail(p, "expression nested too deeply");
	}
	switch (type) {
	case FTRACE_PF_TOK_ITEM:
		if (strcmp(token, "REC") == 0) {
			type = parse_entry(p, arg, &token);
			break;
		}
		atom = token;
		type = lex_item(p, &token);
		if (is_tok(type, token, FTRACE_PF_TOK_DELIM, "(")) {
			token = NULL;
			type = parse_function(p, arg, atom, &token);
			break;
		}
		/* "unsigned long": several items make one atom */
		{
			const char *text = perm_str(p, atom);

			while (type == FTRACE_PF_TOK_ITEM) {
				text = perm_cat(p, text, " ", token);
				type = lex_item(p, &token);
			}
			arg->kind = FTRACE_PF_ATOM;
			arg->atom.text = text;
		}
		break;
	case FTRACE_PF_TOK_DQUOTE:
	case FTRACE_PF_TOK_SQUOTE:
		arg->kind = FTRACE_PF_ATOM;
		arg->atom.text = perm_str(p, token);
		type = lex_item(p, &token);
		break;
	case FTRACE_PF_TOK_DELIM:
		if (strcmp(token, "(") == 0) {
			type = parse_paren(p, arg, &token);
			break;
		}
		/* fall through */
	case FTRACE_PF_TOK_OP:
		/* a unary operator */
		arg->kind = FTRACE_PF_OP;
		arg->op.op = perm_str(p, token);
		arg->op.left = NULL;
		type = parse_op(p, arg, &token);
		break;
	default:
		type = fail(p, "unexpected end of the print fmt");
		break;
	}
	p->depth--;
	*tok = token;
	return type;
}

/* The argument list after the format string (event_read_print_args()). */
static int parse_args_list(struct pf_parser *p, struct vec *args)
{
	enum pf_tok type = FTRACE_PF_TOK_ERROR;
	char *token = NULL;
	struct pf_arg *arg, **slot;

	do {
		if (type == FTRACE_PF_TOK_NEWLINE) {
			type = lex_item(p, &token);
			continue;
		}
		arg = new_arg(p);
		if (!arg)
			return -1;
		type = parse_arg(p, arg, &token);
		if (type == FTRACE_PF_TOK_ERROR)
			return -1;
		slot = vec_push(args, sizeof(*slot));
		if (!slot) {
			p->nomem = true;
			return -1;
		}
		*slot = arg;
		if (type == FTRACE_PF_TOK_OP) {
			type = parse_op(p, arg, &token);
			if (type == FTRACE_PF_TOK_ERROR)
				return -1;
			fold(p, arg);
			continue;
		}
		if (is_tok(type, token, FTRACE_PF_TOK_DELIM, ","))
			continue;
		break;
	} while (type != FTRACE_PF_TOK_NONE);
	return 0;
}

/* ------------------------------------------------------------------ fields */

/*
 * The field as the printer sees it. The format parser already gives libtraceevent's flags
 * and element size (ftrace.h), so this is a copy in the layout the evaluator indexes.
 */
void ftrace_pf_field_attrs(const struct ftrace_ctx *ctx, const struct ftrace_field *src,
			   struct pf_field *f)
{
	(void) ctx;
	f->name = src->name ? src->name : "";
	f->offset = src->offset;
	f->size = src->size;
	f->elemsize = src->elemsize;
	f->flags = src->flags;
}

/* ------------------------------------------------------------------ compile */

/* Parse "print fmt" text: the format string and its arguments (event_read_print()). */
static int parse_print(struct pf_parser *p, const char **format, struct vec *args)
{
	enum pf_tok type;
	char *token;
	const char *fmt;

	type = lex_token(p, &token);
	if (type != FTRACE_PF_TOK_DQUOTE) {
		fail(p, "print fmt does not start with a string");
		return -1;
	}
	fmt = token;
	for (;;) {
		type = lex_item(p, &token);
		if (type == FTRACE_PF_TOK_NONE)
			goto done;
		if (type != FTRACE_PF_TOK_DQUOTE)
			break;
		/* "a" LOCAL_PR_FMT: strings the tokenizer did not join */
		size_t la = strlen(fmt), lb = strlen(token);
		char *cat = arena_alloc(&p->scratch, la + lb + 1);

		if (!cat) {
			p->nomem = true;
			return -1;
		}
		memcpy(cat, fmt, la);
		memcpy(cat + la, token, lb + 1);
		fmt = cat;
	}
	if (!is_tok(type, token, FTRACE_PF_TOK_DELIM, ",")) {
		fail(p, "no ',' after the format string");
		return -1;
	}
	if (parse_args_list(p, args) < 0)
		return -1;
done:
	*format = perm_str(p, fmt);
	return 0;
}

static int compile_args(struct pf_parser *p, const char *format, struct vec *args)
{
	struct pf_print *pp = p->pp;

	/* old ftrace formats had no arguments: each field is one */
	if (args->len == 0 && (pp->flags & FTRACE_PF_FTRACE)) {
		for (uint32_t i = pp->n_common; i < pp->n_fields; i++) {
			struct pf_arg *a = new_arg(p), **slot;

			slot = vec_push(args, sizeof(*slot));
			if (!a || !slot) {
				p->nomem = true;
				return -1;
			}
			a->kind = FTRACE_PF_FIELD;
			a->field.name = pp->fields[i].name;
			a->field.f = &pp->fields[i];
			*slot = a;
		}
	}
	pp->n_args = (uint32_t) args->len;
	if (args->len) {
		pp->args = arena_alloc(p->perm, args->len * sizeof(*pp->args));
		if (!pp->args) {
			p->nomem = true;
			return -1;
		}
		memcpy(pp->args, args->data, args->len * sizeof(*pp->args));
		for (uint32_t i = 0; i + 1 < pp->n_args; i++)
			pp->args[i]->next = pp->args[i + 1];
	}
	if (pp->flags & FTRACE_PF_BPRINT)
		return 0; /* its format comes with each record */
	if (ftrace_pf_build_pieces(p->perm, format, pp->args, pp->n_args, &pp->pieces,
				   &pp->n_pieces, &pp->flags, NULL) < 0) {
		p->nomem = true;
		return -1;
	}
	return 0;
}

/*
 * The print fmt text without a leading "print fmt:" (tolerated), as libtraceevent reads it:
 * from the first token to the end of the text.
 */
static const char *print_fmt_text(const struct ftrace_event *ev)
{
	const char *t = ev->print_fmt;

	while (*t == ' ' || *t == '\t')
		t++;
	if (strncmp(t, "print fmt:", 10) == 0)
		t += 10;
	return t;
}

enum tk_status ftrace_print_compile(struct ftrace_ctx *ctx, struct ftrace_event *ev)
{
	struct pf_parser p = {0};
	struct pf_print *pp;
	struct vec args = VEC_INIT;
	const char *format = "";
	enum tk_status st = TK_OK;

	TK_ASSERT_PRE(ctx && ev);
	ftrace_event_load(ctx, ev);
	if (ev->print) {
		ftrace_print_free(ev->print);
		ev->print = NULL;
	}
	pp = arena_alloc(&ctx->arena, sizeof(*pp));
	if (!pp)
		goto nomem;
	pp->ev = ev;
	pp->n_fields = ev->n_fields;
	pp->n_common = ev->n_common <= ev->n_fields ? ev->n_common : ev->n_fields;
	if (ev->n_fields) {
		pp->fields = arena_alloc(&ctx->arena, ev->n_fields * sizeof(*pp->fields));
		pp->nostring = arena_alloc(&ctx->arena, ev->n_fields);
		if (!pp->fields || !pp->nostring)
			goto nomem;
		for (uint32_t i = 0; i < ev->n_fields; i++)
			ftrace_pf_field_attrs(ctx, &ev->fields[i], &pp->fields[i]);
	}
	if (ev->system && strcmp(ev->system, "ftrace") == 0) {
		pp->flags |= FTRACE_PF_FTRACE;
		if (ev->name && strcmp(ev->name, "bprint") == 0)
			pp->flags |= FTRACE_PF_BPRINT;
	}
	ftrace_pf_handler_setup(ctx, pp);
	if (pp->flags & FTRACE_PF_BPRINT) {
		/* libtraceevent looks these up among the event's own fields */
		pp->bp_fmt = ftrace_pf_find_field(pp, "fmt");
		pp->bp_ip = ftrace_pf_find_field(pp, "ip");
		pp->bp_buf = ftrace_pf_find_field(pp, "buf");
	}

	arena_init(&p.scratch);
	p.lx.scratch = &p.scratch;
	p.perm = &ctx->arena;
	p.ctx = ctx;
	p.pp = pp;
	if (!ev->print_fmt || (ev->flags & FTRACE_EVENT_FAILED)) {
		pp->flags |= FTRACE_PF_FAILED; /* the format file itself did not parse */
	} else {
		p.lx.buf = print_fmt_text(ev);
		p.lx.len = strlen(p.lx.buf);
		if (parse_print(&p, &format, &args) < 0 || compile_args(&p, format, &args) < 0)
			pp->flags |= FTRACE_PF_FAILED;
	}
	vec_fini(&p.lx.tb);
	vec_fini(&args);
	arena_fini(&p.scratch);
	if (p.nomem)
		goto nomem;
	ev->print = pp;
	ctx->n_print_compiled++;
	return st;
nomem:
	vec_fini(&p.lx.tb);
	vec_fini(&args);
	arena_fini(&p.scratch);
	return TK_FAIL(TK_ERR_NOMEM, "Cannot compile print fmt: event=%s:%s",
		       ev->system ? ev->system : "?", ev->name ? ev->name : "?");
}

void ftrace_print_lazily(struct ftrace_ctx *ctx)
{
	if (ctx) /* a void function: TK_ASSERT_PRE() would return a status in release builds */
		ctx->print_lazy = 1;
}

struct pf_print *ftrace_pf_print_slow(const struct ftrace_ctx *cctx, const struct ftrace_event *cev)
{
	/* lazily filled, as the symbol table is: the context and its events are never const */
	struct ftrace_ctx *ctx = (struct ftrace_ctx *) cctx;
	struct ftrace_event *ev = (struct ftrace_event *) cev;
	size_t depth = error_depth();

	if (!(ev->flags & FTRACE_EVENT_PRINT_TRIED)) {
		ev->flags |= FTRACE_EVENT_PRINT_TRIED;
		/* out of memory: its records print their fields raw, and no cause stays behind */
		if (ftrace_print_compile(ctx, ev) < 0)
			error_truncate(depth);
	}
	return ev->print;
}

bool ftrace_print_failed(const struct ftrace_event *ev)
{
	const struct pf_print *pp = ev->print;

	return !pp || (pp->flags & FTRACE_PF_FAILED);
}

void ftrace_print_free(void *print)
{
	struct pf_print *pp = print;

	if (pp)
		ftrace_pf_state_free(pp); /* the rest lives in the context's arena */
}
