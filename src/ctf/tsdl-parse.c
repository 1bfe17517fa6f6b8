// SPDX-License-Identifier: MIT
/*
 * TSDL parser: recursive descent over the token array into struct tsdl_node trees
 * (CTF 1.8.3 section 7.3 gives the grammar, a C declaration grammar plus CTF blocks).
 *
 * As in C, an identifier can name a type or a field, so the parser keeps the type names
 * declared by typedef and typealias in lexical scopes (root, each block, each struct or
 * variant body). Nesting depth is capped so hostile metadata cannot exhaust the stack.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "tsdl.h"

#define TSDL_MAX_DEPTH 64

struct tsdl_scope {
	struct tsdl_scope *parent;
	struct vec names; /* const char * */
};

static struct tsdl_token *peek(struct tsdl_parser *p)
{
	return &VEC_AT(&p->toks, struct tsdl_token, p->pos);
}

static struct tsdl_token *next(struct tsdl_parser *p)
{
	struct tsdl_token *t = peek(p);

	if (t->kind != TSDL_T_EOF)
		p->pos++;
	return t;
}

static int accept(struct tsdl_parser *p, uint8_t kind)
{
	if (peek(p)->kind != kind)
		return 0;
	next(p);
	return 1;
}

static const char *tok_desc(const struct tsdl_token *t)
{
	switch (t->kind) {
	case TSDL_T_EOF:
		return "end of metadata";
	case TSDL_T_INT:
		return "integer";
	case TSDL_T_STRING:
		return "string";
	case TSDL_T_CHAR:
		return "character";
	default:
		break;
	}
	if (t->text)
		return t->text;
	switch (t->kind) {
	case TSDL_T_LBRACK:
		return "[";
	case TSDL_T_RBRACK:
		return "]";
	case TSDL_T_LPAREN:
		return "(";
	case TSDL_T_RPAREN:
		return ")";
	case TSDL_T_LBRACE:
		return "{";
	case TSDL_T_RBRACE:
		return "}";
	case TSDL_T_ARROW:
		return "->";
	case TSDL_T_STAR:
		return "*";
	case TSDL_T_PLUS:
		return "+";
	case TSDL_T_MINUS:
		return "-";
	case TSDL_T_LT:
		return "<";
	case TSDL_T_GT:
		return ">";
	case TSDL_T_TYPEASSIGN:
		return ":=";
	case TSDL_T_COLON:
		return ":";
	case TSDL_T_SEMI:
		return ";";
	case TSDL_T_ELLIPSIS:
		return "...";
	case TSDL_T_DOT:
		return ".";
	case TSDL_T_EQUAL:
		return "=";
	case TSDL_T_COMMA:
		return ",";
	default:
		return "token";
	}
}

static enum tk_status syntax_error(struct tsdl_parser *p, const char *expected)
{
	struct tsdl_token *t = peek(p);

	return TK_FAIL(TK_ERR_FORMAT, "Cannot parse metadata: line=%d, expected=%s, found=\"%s\"",
		       t->line, expected, tok_desc(t));
}

static enum tk_status expect(struct tsdl_parser *p, uint8_t kind, const char *what)
{
	if (!accept(p, kind))
		return syntax_error(p, what);
	return TK_OK;
}

static struct tsdl_node *new_node(struct tsdl_parser *p, uint8_t kind)
{
	struct tsdl_node *n = arena_alloc(p->arena, sizeof(*n));

	if (n) {
		n->kind = kind;
		n->line = peek(p)->line;
	}
	return n;
}

#define NEW_NODE(var, p, kind)                                                                     \
	do {                                                                                       \
		(var) = new_node((p), (kind));                                                     \
		if (!(var))                                                                        \
			return TK_FAIL(TK_ERR_NOMEM, "Cannot parse metadata: line=%d",             \
				       peek(p)->line);                                             \
	} while (0)

/* Append @n to the list whose last ->next slot is *@tail. */
static void list_append(struct tsdl_node ***tail, struct tsdl_node *n)
{
	**tail = n;
	*tail = &n->next;
}

static enum tk_status scope_push(struct tsdl_parser *p)
{
	struct tsdl_scope *s;

	if (p->depth >= TSDL_MAX_DEPTH)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot parse metadata: line=%d, "
			       "reason=nesting deeper than %d",
			       peek(p)->line, TSDL_MAX_DEPTH);
	s = calloc(1, sizeof(*s));
	if (!s)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot parse metadata: line=%d", peek(p)->line);
	s->parent = p->scope;
	p->scope = s;
	p->depth++;
	return TK_OK;
}

static void scope_pop(struct tsdl_parser *p)
{
	struct tsdl_scope *s = p->scope;

	if (!s)
		return;
	p->scope = s->parent;
	vec_fini(&s->names);
	free(s);
	p->depth--;
}

static enum tk_status add_type(struct tsdl_parser *p, const char *name)
{
	const char **slot = vec_push(&p->scope->names, sizeof(*slot));

	if (!slot)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot parse metadata: line=%d", peek(p)->line);
	*slot = name;
	return TK_OK;
}

static int is_type_name(struct tsdl_parser *p, const char *name)
{
	const struct tsdl_scope *s;
	size_t i;

	for (s = p->scope; s; s = s->parent)
		for (i = 0; i < s->names.len; i++)
			if (!strcmp(VEC_AT(&s->names, const char *, i), name))
				return 1;
	return 0;
}

static int is_keyword(uint8_t kind)
{
	return kind >= TSDL_T_ALIGN;
}

static enum tk_status parse_unary(struct tsdl_parser *p, struct tsdl_node **out);
static enum tk_status parse_specifiers(struct tsdl_parser *p, int integer_only,
				       struct tsdl_node **out);
static enum tk_status parse_assignments(struct tsdl_parser *p, struct tsdl_node **out);
static enum tk_status parse_member_list(struct tsdl_parser *p, struct tsdl_node **out);

/*
 * postfix: (identifier | keyword | literal | '(' unary ')') ('.' identifier)*
 * Dotted identifiers become one TSDL_UNARY_PATH ("clock.monotonic.value").
 */
static enum tk_status parse_postfix(struct tsdl_parser *p, struct tsdl_node **out)
{
	struct tsdl_token *t = peek(p);
	struct tsdl_node *n;
	enum tk_status st;

	if (t->kind == TSDL_T_LPAREN) {
		next(p);
		if (++p->depth > TSDL_MAX_DEPTH)
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot parse metadata: line=%d, "
				       "reason=nesting too deep",
				       t->line);
		st = parse_unary(p, out);
		p->depth--;
		if (st < 0)
			return st;
		return expect(p, TSDL_T_RPAREN, ")");
	}
	NEW_NODE(n, p, TSDL_UNARY);
	if (t->kind == TSDL_T_INT) {
		n->sub = TSDL_UNARY_UINT;
		n->u = t->value;
		next(p);
	} else if (t->kind == TSDL_T_STRING || t->kind == TSDL_T_CHAR) {
		n->sub = TSDL_UNARY_STRING;
		n->name = t->text;
		next(p);
	} else if (t->kind == TSDL_T_IDENT || is_keyword(t->kind)) {
		n->sub = TSDL_UNARY_PATH;
		n->name = t->text;
		next(p);
		while (peek(p)->kind == TSDL_T_DOT || peek(p)->kind == TSDL_T_ARROW) {
			struct tsdl_token *dot = next(p);
			struct tsdl_token *id = peek(p);
			size_t a, b;
			char *joined;

			if (dot->kind == TSDL_T_ARROW)
				return TK_FAIL(
					TK_ERR_UNSUPPORTED,
					"Cannot parse metadata: line=%d, reason=\"->\" paths "
					"are not supported",
					dot->line);
			if (id->kind != TSDL_T_IDENT && !is_keyword(id->kind))
				return syntax_error(p, "identifier after \".\"");
			next(p);
			a = strlen(n->name);
			b = strlen(id->text);
			joined = arena_alloc(p->arena, a + b + 2);
			if (!joined)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot parse metadata: line=%d",
					       id->line);
			memcpy(joined, n->name, a);
			joined[a] = '.';
			memcpy(joined + a + 1, id->text, b + 1);
			n->name = joined;
		}
	} else {
		return syntax_error(p, "value");
	}
	if (peek(p)->kind == TSDL_T_LBRACK || peek(p)->kind == TSDL_T_DOT)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot parse metadata: line=%d, "
			       "reason=unsupported expression",
			       peek(p)->line);
	*out = n;
	return TK_OK;
}

static enum tk_status parse_unary(struct tsdl_parser *p, struct tsdl_node **out)
{
	int neg = 0;
	enum tk_status st;

	if (accept(p, TSDL_T_PLUS))
		neg = 0;
	else if (accept(p, TSDL_T_MINUS))
		neg = 1;
	else
		return parse_postfix(p, out);
	st = parse_postfix(p, out);
	if (st < 0)
		return st;
	if ((*out)->sub != TSDL_UNARY_UINT && (*out)->sub != TSDL_UNARY_SINT)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot parse metadata: line=%d, "
			       "reason=sign before a non-number",
			       (*out)->line);
	if (neg) {
		if ((*out)->sub == TSDL_UNARY_UINT)
			(*out)->i = (int64_t) (0 - (*out)->u);
		else
			(*out)->i = (int64_t) (0 - (uint64_t) (*out)->i);
		(*out)->sub = TSDL_UNARY_SINT;
	}
	return TK_OK;
}

/*
 * declarator: '*'* ( identifier | '(' declarator ')' )? ('[' unary? ']')* (':' unary)?
 * @abstract allows a missing name (typealias sides); @add registers the name as a type.
 */
static enum tk_status parse_declarator(struct tsdl_parser *p, int abstract, int add,
				       struct tsdl_node **out)
{
	struct tsdl_node *d, **dims;
	enum tk_status st;

	NEW_NODE(d, p, TSDL_DECLARATOR);
	while (accept(p, TSDL_T_STAR)) {
		d->u++;
		while (accept(p, TSDL_T_CONST))
			;
	}
	if (peek(p)->kind == TSDL_T_LPAREN)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot parse metadata: line=%d, "
			       "reason=parenthesized declarators are not supported",
			       peek(p)->line);
	if (peek(p)->kind == TSDL_T_IDENT) {
		d->name = next(p)->text;
		if (add) {
			st = add_type(p, d->name);
			if (st < 0)
				return st;
		}
	} else if (!abstract && peek(p)->kind != TSDL_T_COLON) {
		return syntax_error(p, "field name");
	}
	dims = &d->a;
	while (accept(p, TSDL_T_LBRACK)) {
		struct tsdl_node *dim;

		if (peek(p)->kind == TSDL_T_RBRACK && abstract) {
			next(p);
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot parse metadata: line=%d, "
				       "reason=array without length",
				       peek(p)->line);
		}
		st = parse_unary(p, &dim);
		if (st < 0)
			return st;
		list_append(&dims, dim);
		st = expect(p, TSDL_T_RBRACK, "]");
		if (st < 0)
			return st;
	}
	*out = d;
	return TK_OK;
}

static enum tk_status parse_declarator_list(struct tsdl_parser *p, int abstract, int add,
					    int bitfields, struct tsdl_node **out)
{
	struct tsdl_node **tail = out;
	enum tk_status st;

	*out = NULL;
	do {
		struct tsdl_node *d;

		st = parse_declarator(p, abstract, add, &d);
		if (st < 0)
			return st;
		if (bitfields && accept(p, TSDL_T_COLON)) {
			st = parse_unary(p, &d->b);
			if (st < 0)
				return st;
		}
		list_append(&tail, d);
	} while (accept(p, TSDL_T_COMMA));
	return TK_OK;
}

static enum tk_status parse_enumerators(struct tsdl_parser *p, struct tsdl_node **out)
{
	struct tsdl_node **tail = out;
	enum tk_status st;

	*out = NULL;
	while (peek(p)->kind != TSDL_T_RBRACE) {
		struct tsdl_token *t = peek(p);
		struct tsdl_node *e;

		if (t->kind != TSDL_T_IDENT && t->kind != TSDL_T_STRING && !is_keyword(t->kind))
			return syntax_error(p, "enumerator");
		NEW_NODE(e, p, TSDL_ENUMERATOR);
		e->name = t->text;
		next(p);
		if (accept(p, TSDL_T_EQUAL)) {
			st = parse_unary(p, &e->a);
			if (st < 0)
				return st;
			if (accept(p, TSDL_T_ELLIPSIS)) {
				st = parse_unary(p, &e->b);
				if (st < 0)
					return st;
			}
		}
		list_append(&tail, e);
		if (!accept(p, TSDL_T_COMMA))
			break;
	}
	return expect(p, TSDL_T_RBRACE, "}");
}

/* A '{' attribute list '}' after integer, floating_point or string. */
static enum tk_status parse_attr_block(struct tsdl_parser *p, struct tsdl_node *spec)
{
	enum tk_status st;

	st = expect(p, TSDL_T_LBRACE, "{");
	if (st < 0)
		return st;
	st = parse_assignments(p, &spec->a);
	if (st < 0)
		return st;
	return expect(p, TSDL_T_RBRACE, "}");
}

static enum tk_status parse_body(struct tsdl_parser *p, struct tsdl_node *spec)
{
	enum tk_status st;

	next(p); /* '{' */
	spec->flag = 1;
	st = scope_push(p);
	if (st < 0)
		return st;
	st = parse_member_list(p, &spec->a);
	scope_pop(p);
	if (st < 0)
		return st;
	return expect(p, TSDL_T_RBRACE, "}");
}

static enum tk_status parse_struct_spec(struct tsdl_parser *p, struct tsdl_node *spec)
{
	enum tk_status st;

	spec->sub = TSDL_SPEC_STRUCT;
	if (peek(p)->kind == TSDL_T_IDENT)
		spec->name = next(p)->text;
	if (peek(p)->kind != TSDL_T_LBRACE) {
		if (!spec->name)
			return syntax_error(p, "structure name or body");
		return TK_OK;
	}
	st = parse_body(p, spec);
	if (st < 0)
		return st;
	if (accept(p, TSDL_T_ALIGN)) {
		st = expect(p, TSDL_T_LPAREN, "(");
		if (st < 0)
			return st;
		st = parse_unary(p, &spec->b);
		if (st < 0)
			return st;
		st = expect(p, TSDL_T_RPAREN, ")");
	}
	return st;
}

static enum tk_status parse_variant_spec(struct tsdl_parser *p, struct tsdl_node *spec)
{
	enum tk_status st;

	spec->sub = TSDL_SPEC_VARIANT;
	if (peek(p)->kind == TSDL_T_IDENT)
		spec->name = next(p)->text;
	if (accept(p, TSDL_T_LT)) {
		struct tsdl_node *tag;

		st = parse_postfix(p, &tag);
		if (st < 0)
			return st;
		if (tag->sub != TSDL_UNARY_PATH)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot parse metadata: line=%d, "
				       "reason=variant tag is not a field name",
				       tag->line);
		spec->ref = tag->name;
		st = expect(p, TSDL_T_GT, ">");
		if (st < 0)
			return st;
	}
	if (peek(p)->kind != TSDL_T_LBRACE) {
		if (!spec->name)
			return syntax_error(p, "variant name or body");
		return TK_OK;
	}
	return parse_body(p, spec);
}

static enum tk_status parse_enum_spec(struct tsdl_parser *p, struct tsdl_node *spec)
{
	enum tk_status st;

	spec->sub = TSDL_SPEC_ENUM;
	if (peek(p)->kind == TSDL_T_IDENT)
		spec->name = next(p)->text;
	if (accept(p, TSDL_T_COLON)) {
		st = parse_specifiers(p, 1, &spec->b);
		if (st < 0)
			return st;
	}
	if (!accept(p, TSDL_T_LBRACE)) {
		if (!spec->name || spec->b)
			return syntax_error(p, "{");
		return TK_OK;
	}
	spec->flag = 1;
	return parse_enumerators(p, &spec->a);
}

/*
 * A list of type specifiers: keywords, type names, and at most the one compound or CTF type
 * the grammar allows. @integer_only restricts it to what an enumeration container accepts.
 */
static enum tk_status parse_specifiers(struct tsdl_parser *p, int integer_only,
				       struct tsdl_node **out)
{
	struct tsdl_node **tail = out;
	enum tk_status st;

	*out = NULL;
	for (;;) {
		struct tsdl_token *t = peek(p);
		struct tsdl_node *s;

		switch (t->kind) {
		case TSDL_T_CONST:
			NEW_NODE(s, p, TSDL_SPEC);
			s->sub = TSDL_SPEC_CONST;
			next(p);
			break;
		case TSDL_T_KW_CHAR:
		case TSDL_T_SHORT:
		case TSDL_T_INT_KW:
		case TSDL_T_LONG:
		case TSDL_T_SIGNED:
		case TSDL_T_UNSIGNED:
		case TSDL_T_BOOL:
			NEW_NODE(s, p, TSDL_SPEC);
			s->sub = TSDL_SPEC_WORD;
			s->name = t->kind == TSDL_T_BOOL ? "bool" : t->text;
			next(p);
			break;
		case TSDL_T_VOID:
		case TSDL_T_FLOAT:
		case TSDL_T_DOUBLE:
		case TSDL_T_COMPLEX:
		case TSDL_T_IMAGINARY:
			if (integer_only)
				goto done;
			NEW_NODE(s, p, TSDL_SPEC);
			s->sub = TSDL_SPEC_WORD;
			s->name = t->text;
			next(p);
			break;
		case TSDL_T_IDENT:
			if (!is_type_name(p, t->text))
				goto done;
			NEW_NODE(s, p, TSDL_SPEC);
			s->sub = TSDL_SPEC_WORD;
			s->name = t->text;
			next(p);
			break;
		case TSDL_T_INTEGER:
			NEW_NODE(s, p, TSDL_SPEC);
			s->sub = TSDL_SPEC_INTEGER;
			next(p);
			st = parse_attr_block(p, s);
			if (st < 0)
				return st;
			break;
		case TSDL_T_FLOATING_POINT:
			if (integer_only)
				goto done;
			NEW_NODE(s, p, TSDL_SPEC);
			s->sub = TSDL_SPEC_FLOATING_POINT;
			next(p);
			st = parse_attr_block(p, s);
			if (st < 0)
				return st;
			break;
		case TSDL_T_KW_STRING:
			if (integer_only)
				goto done;
			NEW_NODE(s, p, TSDL_SPEC);
			s->sub = TSDL_SPEC_STRING;
			next(p);
			if (peek(p)->kind == TSDL_T_LBRACE) {
				st = parse_attr_block(p, s);
				if (st < 0)
					return st;
			}
			break;
		case TSDL_T_STRUCT:
		case TSDL_T_VARIANT:
		case TSDL_T_ENUM:
			if (integer_only)
				goto done;
			NEW_NODE(s, p, TSDL_SPEC);
			next(p);
			if (++p->depth > TSDL_MAX_DEPTH)
				return TK_FAIL(TK_ERR_UNSUPPORTED,
					       "Cannot parse metadata: line=%d, "
					       "reason=nesting deeper than %d",
					       t->line, TSDL_MAX_DEPTH);
			if (t->kind == TSDL_T_STRUCT)
				st = parse_struct_spec(p, s);
			else if (t->kind == TSDL_T_VARIANT)
				st = parse_variant_spec(p, s);
			else
				st = parse_enum_spec(p, s);
			p->depth--;
			if (st < 0)
				return st;
			break;
		default:
			goto done;
		}
		list_append(&tail, s);
	}
done:
	if (!*out)
		return syntax_error(p, "type");
	return TK_OK;
}

static enum tk_status parse_typedef(struct tsdl_parser *p, struct tsdl_node **out)
{
	struct tsdl_node *n;
	enum tk_status st;

	NEW_NODE(n, p, TSDL_TYPEDEF);
	next(p); /* typedef */
	st = parse_specifiers(p, 0, &n->a);
	if (st < 0)
		return st;
	st = parse_declarator_list(p, 0, 1, 0, &n->b);
	if (st < 0)
		return st;
	*out = n;
	return TK_OK;
}

/*
 * typealias TARGET-SPECIFIERS ABSTRACT-DECLARATOR := ALIAS-SPECIFIERS ALIAS-DECLARATOR
 * The alias side is a type name made of words (identifiers become type names) and pointers.
 */
static enum tk_status parse_typealias(struct tsdl_parser *p, struct tsdl_node **out)
{
	struct tsdl_node *n, **tail;
	enum tk_status st;

	NEW_NODE(n, p, TSDL_TYPEALIAS);
	next(p); /* typealias */
	st = parse_specifiers(p, 0, &n->a);
	if (st < 0)
		return st;
	st = parse_declarator(p, 1, 0, &n->b);
	if (st < 0)
		return st;
	st = expect(p, TSDL_T_TYPEASSIGN, ":=");
	if (st < 0)
		return st;
	tail = &n->c;
	for (;;) {
		struct tsdl_token *t = peek(p);
		struct tsdl_node *s;

		if (t->kind == TSDL_T_IDENT) {
			NEW_NODE(s, p, TSDL_SPEC);
			s->sub = TSDL_SPEC_WORD;
			s->name = t->text;
			next(p);
			if (!is_type_name(p, s->name)) {
				st = add_type(p, s->name);
				if (st < 0)
					return st;
			}
			list_append(&tail, s);
			continue;
		}
		if (t->kind == TSDL_T_STAR || t->kind == TSDL_T_SEMI || t->kind == TSDL_T_LBRACK)
			break;
		st = parse_specifiers(p, 0, &s);
		if (st < 0)
			return st;
		list_append(&tail, s);
		while (*tail)
			tail = &(*tail)->next;
	}
	if (!n->c)
		return syntax_error(p, "alias name");
	*out = n;
	return parse_declarator(p, 1, 0, &n->d);
}

/* Entries of blocks and of integer/floating_point/string attribute lists. */
static enum tk_status parse_assignments(struct tsdl_parser *p, struct tsdl_node **out)
{
	struct tsdl_node **tail = out;
	enum tk_status st;

	*out = NULL;
	while (peek(p)->kind != TSDL_T_RBRACE) {
		struct tsdl_node *n, *left;

		if (peek(p)->kind == TSDL_T_TYPEDEF) {
			st = parse_typedef(p, &n);
		} else if (peek(p)->kind == TSDL_T_TYPEALIAS) {
			st = parse_typealias(p, &n);
		} else {
			st = parse_unary(p, &left);
			if (st < 0)
				return st;
			if (left->sub != TSDL_UNARY_PATH)
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot parse metadata: line=%d, "
					       "reason=attribute name expected",
					       left->line);
			if (accept(p, TSDL_T_EQUAL)) {
				NEW_NODE(n, p, TSDL_ASSIGN);
				n->line = left->line;
				n->name = left->name;
				st = parse_unary(p, &n->a);
			} else if (accept(p, TSDL_T_TYPEASSIGN)) {
				NEW_NODE(n, p, TSDL_TYPE_ASSIGN);
				n->line = left->line;
				n->name = left->name;
				st = parse_specifiers(p, 0, &n->a);
			} else {
				return syntax_error(p, "= or :=");
			}
		}
		if (st < 0)
			return st;
		st = expect(p, TSDL_T_SEMI, ";");
		if (st < 0)
			return st;
		list_append(&tail, n);
	}
	return TK_OK;
}

/* Declarations inside a struct or variant body. */
static enum tk_status parse_member_list(struct tsdl_parser *p, struct tsdl_node **out)
{
	struct tsdl_node **tail = out;
	enum tk_status st;

	*out = NULL;
	while (peek(p)->kind != TSDL_T_RBRACE) {
		struct tsdl_node *n;

		if (peek(p)->kind == TSDL_T_EOF)
			return syntax_error(p, "}");
		if (peek(p)->kind == TSDL_T_TYPEDEF) {
			st = parse_typedef(p, &n);
		} else if (peek(p)->kind == TSDL_T_TYPEALIAS) {
			st = parse_typealias(p, &n);
		} else {
			NEW_NODE(n, p, TSDL_DECL);
			st = parse_specifiers(p, 0, &n->a);
			if (st < 0)
				return st;
			st = parse_declarator_list(p, 0, 0, 1, &n->b);
		}
		if (st < 0)
			return st;
		st = expect(p, TSDL_T_SEMI, ";");
		if (st < 0)
			return st;
		list_append(&tail, n);
	}
	return TK_OK;
}

static enum tk_status parse_block(struct tsdl_parser *p, uint8_t which, struct tsdl_node **out)
{
	struct tsdl_node *n;
	enum tk_status st;

	NEW_NODE(n, p, TSDL_BLOCK);
	n->sub = which;
	next(p); /* the block keyword */
	st = expect(p, TSDL_T_LBRACE, "{");
	if (st < 0)
		return st;
	st = scope_push(p);
	if (st < 0)
		return st;
	st = parse_assignments(p, &n->a);
	scope_pop(p);
	if (st < 0)
		return st;
	st = expect(p, TSDL_T_RBRACE, "}");
	if (st < 0)
		return st;
	*out = n;
	return TK_OK;
}

static enum tk_status parse_root(struct tsdl_parser *p, struct tsdl_node **out)
{
	struct tsdl_node *root, **tail;
	enum tk_status st;

	NEW_NODE(root, p, TSDL_ROOT);
	tail = &root->a;
	while (peek(p)->kind != TSDL_T_EOF) {
		struct tsdl_node *n;
		struct tsdl_token *t = peek(p);

		switch (t->kind) {
		case TSDL_T_TRACE:
			st = parse_block(p, TSDL_BLOCK_TRACE, &n);
			break;
		case TSDL_T_ENV:
			st = parse_block(p, TSDL_BLOCK_ENV, &n);
			break;
		case TSDL_T_CLOCK:
			st = parse_block(p, TSDL_BLOCK_CLOCK, &n);
			break;
		case TSDL_T_STREAM:
			st = parse_block(p, TSDL_BLOCK_STREAM, &n);
			break;
		case TSDL_T_EVENT:
			st = parse_block(p, TSDL_BLOCK_EVENT, &n);
			break;
		case TSDL_T_CALLSITE:
			st = parse_block(p, TSDL_BLOCK_CALLSITE, &n);
			break;
		case TSDL_T_TYPEDEF:
			st = parse_typedef(p, &n);
			break;
		case TSDL_T_TYPEALIAS:
			st = parse_typealias(p, &n);
			break;
		default:
			NEW_NODE(n, p, TSDL_DECL);
			st = parse_specifiers(p, 0, &n->a);
			break;
		}
		if (st < 0)
			return st;
		st = expect(p, TSDL_T_SEMI, ";");
		if (st < 0)
			return st;
		list_append(&tail, n);
	}
	*out = root;
	return TK_OK;
}

void tsdl_parser_init(struct tsdl_parser *p, struct arena *arena)
{
	memset(p, 0, sizeof(*p));
	arena_init(&p->own);
	p->arena = arena ? arena : &p->own;
}

void tsdl_parser_fini(struct tsdl_parser *p)
{
	while (p->scope)
		scope_pop(p);
	vec_fini(&p->toks);
	arena_fini(&p->own);
}

enum tk_status tsdl_parse(struct tsdl_parser *p, const char *text, size_t len,
			  struct tsdl_node **out)
{
	enum tk_status st;

	st = tsdl_lex(p, text, len);
	if (st < 0)
		return st;
	p->pos = 0;
	st = scope_push(p);
	if (st < 0)
		return st;
	st = parse_root(p, out);
	while (p->scope)
		scope_pop(p);
	return st;
}
