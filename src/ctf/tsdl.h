/* SPDX-License-Identifier: MIT */
/*
 * TSDL, the CTF 1.8 metadata language (CTF 1.8.3 section 7): tokens and the syntax tree.
 *
 * Metadata is parsed in two steps, like a C compiler: the parser turns text into this tree,
 * checking only the grammar (it must know which identifiers name types, as in C); then
 * ctf-meta.c walks the tree in the order the specification needs (trace byte order first,
 * then environment, clocks, root type declarations, trace, streams, events) and builds the
 * trace model.
 *
 *	struct tsdl_parser p;
 *	tsdl_parser_init(&p, &source->arena);
 *	st = tsdl_parse(&p, text, len, &root);	// root lives in the arena
 *	...
 *	tsdl_parser_fini(&p);
 */
#ifndef TK_CTF_TSDL_H
#define TK_CTF_TSDL_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/arena.h"
#include "../common/vec.h"

enum tsdl_tok {
	TSDL_T_EOF,
	TSDL_T_IDENT,
	TSDL_T_INT,
	TSDL_T_STRING,
	TSDL_T_CHAR,
	TSDL_T_LBRACK,
	TSDL_T_RBRACK,
	TSDL_T_LPAREN,
	TSDL_T_RPAREN,
	TSDL_T_LBRACE,
	TSDL_T_RBRACE,
	TSDL_T_ARROW,
	TSDL_T_STAR,
	TSDL_T_PLUS,
	TSDL_T_MINUS,
	TSDL_T_LT,
	TSDL_T_GT,
	TSDL_T_TYPEASSIGN,
	TSDL_T_COLON,
	TSDL_T_SEMI,
	TSDL_T_ELLIPSIS,
	TSDL_T_DOT,
	TSDL_T_EQUAL,
	TSDL_T_COMMA,
	/* keywords */
	TSDL_T_ALIGN,
	TSDL_T_CONST,
	TSDL_T_KW_CHAR,
	TSDL_T_CLOCK,
	TSDL_T_DOUBLE,
	TSDL_T_ENUM,
	TSDL_T_ENV,
	TSDL_T_EVENT,
	TSDL_T_FLOATING_POINT,
	TSDL_T_FLOAT,
	TSDL_T_INTEGER,
	TSDL_T_INT_KW,
	TSDL_T_LONG,
	TSDL_T_SHORT,
	TSDL_T_SIGNED,
	TSDL_T_STREAM,
	TSDL_T_KW_STRING,
	TSDL_T_STRUCT,
	TSDL_T_TRACE,
	TSDL_T_CALLSITE,
	TSDL_T_TYPEALIAS,
	TSDL_T_TYPEDEF,
	TSDL_T_UNSIGNED,
	TSDL_T_VARIANT,
	TSDL_T_VOID,
	TSDL_T_BOOL,
	TSDL_T_COMPLEX,
	TSDL_T_IMAGINARY,
};

struct tsdl_token {
	uint8_t kind; /* enum tsdl_tok */
	int line;
	const char *text; /* identifiers, keywords and string literals (unescaped) */
	uint64_t value;	  /* integer literals */
};

enum tsdl_node_kind {
	TSDL_ROOT,	  /* a: declarations */
	TSDL_BLOCK,	  /* sub: enum tsdl_block; a: entries */
	TSDL_ASSIGN,	  /* name: left path; a: value (TSDL_UNARY) */
	TSDL_TYPE_ASSIGN, /* name: left path; a: specifiers */
	TSDL_TYPEDEF,	  /* a: specifiers; b: declarators */
	TSDL_TYPEALIAS,	  /* a: target specifiers; b: target declarator; c: alias specifiers;
			     d: alias declarator */
	TSDL_DECL,	  /* a: specifiers; b: declarators (NULL: a bare type declaration) */
	TSDL_SPEC,	  /* sub: enum tsdl_spec; see below */
	TSDL_DECLARATOR,  /* name (NULL if abstract); u: pointers; a: dimensions (TSDL_UNARY);
			     b: bit-field length */
	TSDL_ENUMERATOR,  /* name: label; a: value or range start; b: range end */
	TSDL_UNARY,	  /* sub: enum tsdl_unary; u: unsigned; i: signed; name: text */
};

enum tsdl_block {
	TSDL_BLOCK_TRACE,
	TSDL_BLOCK_ENV,
	TSDL_BLOCK_CLOCK,
	TSDL_BLOCK_STREAM,
	TSDL_BLOCK_EVENT,
	TSDL_BLOCK_CALLSITE,
};

/*
 * Type specifiers. Keywords and type names only contribute words to a type name that is
 * looked up among aliases ("unsigned long", "uint32_t"). INTEGER, FLOATING_POINT and STRING
 * have attributes in a (TSDL_ASSIGN list). STRUCT and VARIANT have name, flag (has body), a
 * (member declarations), b (struct: align expression) and, for variants, ref (tag path). ENUM
 * has name, flag (has body), a (enumerators) and b (container specifiers).
 */
enum tsdl_spec {
	TSDL_SPEC_WORD, /* name: keyword text or type name */
	TSDL_SPEC_CONST,
	TSDL_SPEC_INTEGER,
	TSDL_SPEC_FLOATING_POINT,
	TSDL_SPEC_STRING,
	TSDL_SPEC_STRUCT,
	TSDL_SPEC_VARIANT,
	TSDL_SPEC_ENUM,
};

enum tsdl_unary {
	TSDL_UNARY_UINT,
	TSDL_UNARY_SINT,
	TSDL_UNARY_STRING, /* quoted string or character literal */
	TSDL_UNARY_PATH,   /* identifiers and keywords joined by dots: clock.monotonic.value */
};

struct tsdl_node {
	uint8_t kind;
	uint8_t sub;
	uint8_t flag;
	int line;
	const char *name;
	const char *ref;
	uint64_t u;
	int64_t i;
	struct tsdl_node *a, *b, *c, *d;
	struct tsdl_node *next;
};

struct tsdl_scope;

struct tsdl_parser {
	struct arena own;    /* used when no arena is given to tsdl_parser_init() */
	struct arena *arena; /* tokens' text and nodes */
	struct vec toks;     /* struct tsdl_token */
	size_t pos;
	struct tsdl_scope *scope;
	int depth;
};

/* Tokens and nodes go to @arena when not NULL (so names can outlive the parser). */
void tsdl_parser_init(struct tsdl_parser *p, struct arena *arena);
void tsdl_parser_fini(struct tsdl_parser *p);

/* Split @text into tokens (p->toks); TK_ERR_FORMAT with the line of a bad token. */
enum tk_status tsdl_lex(struct tsdl_parser *p, const char *text, size_t len);

/* Lex and parse @text; *out is the TSDL_ROOT node, owned by @p. */
enum tk_status tsdl_parse(struct tsdl_parser *p, const char *text, size_t len,
			  struct tsdl_node **out);

#endif /* TK_CTF_TSDL_H */
