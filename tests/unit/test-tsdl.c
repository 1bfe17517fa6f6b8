// SPDX-License-Identifier: MIT
/*
 * Unit tests of the TSDL lexer and parser (src/ctf/tsdl-lex.c, src/ctf/tsdl-parse.c).
 *
 * TSDL follows C99 lexical rules (CTF 1.8.3 section 7.1) and a C-like declaration grammar
 * (section 7.3). The lexer tests feed small texts and compare tokens with values worked out by
 * hand: integer literals in each base with suffixes, the 64-bit limit, escapes, comments and
 * line counting. The parser tests check the shape of the syntax tree for each construct and
 * that syntax errors name the line where they were found.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/error.h"
#include "ctf/tsdl.h"

static struct tsdl_parser parser;

static int setup(void **state)
{
	(void) state;
	tsdl_parser_init(&parser, NULL);
	error_reset();
	return 0;
}

static int teardown(void **state)
{
	(void) state;
	tsdl_parser_fini(&parser);
	return 0;
}

static enum tk_status lex(const char *text)
{
	return tsdl_lex(&parser, text, strlen(text));
}

static const struct tsdl_token *tok(size_t i)
{
	assert_true(i < parser.toks.len);
	return &VEC_AT(&parser.toks, struct tsdl_token, i);
}

static struct tsdl_node *parse_ok(const char *text)
{
	struct tsdl_node *root = NULL;
	enum tk_status st = tsdl_parse(&parser, text, strlen(text), &root);

	if (st != TK_OK) {
		print_error("parse failed: %s\n", tk_error_cause(0) ? tk_error_cause(0) : "");
		fail();
	}
	assert_non_null(root);
	assert_int_equal(root->kind, TSDL_ROOT);
	return root;
}

/* Whether some cause of the chain contains @s. */
static int cause_has(const char *s)
{
	size_t i;

	for (i = 0; i < tk_error_count(); i++)
		if (strstr(tk_error_cause(i), s))
			return 1;
	return 0;
}

static size_t list_len(const struct tsdl_node *n)
{
	size_t k = 0;

	for (; n; n = n->next)
		k++;
	return k;
}

static const struct tsdl_node *nth(const struct tsdl_node *n, size_t i)
{
	while (n && i--)
		n = n->next;
	assert_non_null(n);
	return n;
}

/* ---- lexer --------------------------------------------------------------------------------- */

static void test_lex_integer_literals_in_each_base(void **state)
{
	static const uint64_t want[] = {0, 8, 31, 31, 123, 45, 6, 7, 511, 1000};
	size_t i;

	(void) state;
	/* 010 is octal 8; 0777 is 7 * 64 + 7 * 8 + 7 = 511; suffixes are dropped */
	assert_int_equal(lex("0 010 0x1F 0X1f 123u 45UL 6ll 7LLU 0777 1000\n"), TK_OK);
	assert_int_equal(parser.toks.len, 11);
	for (i = 0; i < 10; i++) {
		assert_int_equal(tok(i)->kind, TSDL_T_INT);
		assert_int_equal(tok(i)->value, want[i]);
	}
	assert_int_equal(tok(10)->kind, TSDL_T_EOF);
}

static void test_lex_largest_64_bit_literals(void **state)
{
	(void) state;
	/* 2^64 - 1 in decimal, hexadecimal and octal (a 1 and 21 sevens: 1 + 21 * 3 = 64 bits) */
	assert_int_equal(lex("18446744073709551615 0xFFFFFFFFFFFFFFFF 01777777777777777777777"),
			 TK_OK);
	assert_int_equal(tok(0)->value, UINT64_MAX);
	assert_int_equal(tok(1)->value, UINT64_MAX);
	assert_int_equal(tok(2)->value, UINT64_MAX);
}

static void check_lex_fails(const char *text, const char *line)
{
	struct tsdl_parser p;

	tsdl_parser_init(&p, NULL);
	error_reset();
	if (tsdl_lex(&p, text, strlen(text)) != TK_ERR_FORMAT) {
		print_error("lexing \"%s\" did not fail with TK_ERR_FORMAT\n", text);
		fail();
	}
	assert_true(tk_error_count() >= 1);
	if (line && !cause_has(line)) {
		print_error("cause \"%s\" lacks \"%s\"\n", tk_error_cause(0), line);
		fail();
	}
	tsdl_parser_fini(&p);
}

static void test_lex_integer_overflow_and_bad_digits_fail(void **state)
{
	(void) state;
	check_lex_fails("18446744073709551616", "line=1"); /* 2^64 */
	check_lex_fails("99999999999999999999", "line=1");
	check_lex_fails("0x10000000000000000", "line=1");	  /* 2^64 */
	check_lex_fails("\n\n02000000000000000000000", "line=3"); /* 2^64 in octal */
	check_lex_fails("08", "line=1");			  /* 8 is not octal */
	check_lex_fails("0x", "line=1");
	check_lex_fails("a = 0x;", "line=1");
	check_lex_fails("12abc", "line=1");
	check_lex_fails("0x1G", "line=1");
	check_lex_fails("5uz", "line=1");
}

static void test_lex_strings_and_escapes(void **state)
{
	(void) state;
	/* \t \n, \x41 = 'A', \101 = octal 65 = 'A', \\ \" and a plain ' */
	assert_int_equal(lex("\"a\\tb\\n\\x41\\101\\\\\\\"q'\" 'x' \"\""), TK_OK);
	assert_int_equal(tok(0)->kind, TSDL_T_STRING);
	assert_string_equal(tok(0)->text, "a\tb\nAA\\\"q'");
	assert_int_equal(tok(1)->kind, TSDL_T_CHAR);
	assert_string_equal(tok(1)->text, "x");
	assert_int_equal(tok(2)->kind, TSDL_T_STRING);
	assert_string_equal(tok(2)->text, "");
	assert_int_equal(tok(3)->kind, TSDL_T_EOF);
}

static void test_lex_bad_strings_fail(void **state)
{
	(void) state;
	check_lex_fails("\"never closed", "line=1");
	check_lex_fails("x\n\"escaped quote\\\"", "line=2");
	check_lex_fails("\"\\x\"", "line=1"); /* \x without digits */
	check_lex_fails("'open", "line=1");
}

static void test_lex_comments_and_line_numbers(void **state)
{
	(void) state;
	assert_int_equal(lex("/* one\ntwo */ a // three\n b /**/ c\n\"s\ntr\" d"), TK_OK);
	assert_int_equal(tok(0)->kind, TSDL_T_IDENT);
	assert_string_equal(tok(0)->text, "a");
	assert_int_equal(tok(0)->line, 2);
	assert_string_equal(tok(1)->text, "b");
	assert_int_equal(tok(1)->line, 3);
	assert_string_equal(tok(2)->text, "c");
	assert_int_equal(tok(2)->line, 3);
	assert_int_equal(tok(3)->kind, TSDL_T_STRING);
	assert_string_equal(tok(3)->text, "s\ntr");
	/* a newline inside a string still counts */
	assert_string_equal(tok(4)->text, "d");
	assert_int_equal(tok(4)->line, 5);
	assert_int_equal(tok(5)->kind, TSDL_T_EOF);
	/* CRLF line ends are ordinary whitespace plus a newline */
	tsdl_parser_fini(&parser);
	tsdl_parser_init(&parser, NULL);
	assert_int_equal(lex("a\r\nb\r\n"), TK_OK);
	assert_int_equal(tok(1)->line, 2);
}

static void test_lex_unterminated_comment_names_its_line(void **state)
{
	(void) state;
	check_lex_fails("a\n/* never closed\n\n", "line=2");
	check_lex_fails("/*/", "line=1");
}

static void test_lex_invalid_character_names_its_line(void **state)
{
	(void) state;
	check_lex_fails("trace {\n\n  @\n}", "line=3");
	check_lex_fails("a / b", "line=1");
}

static void test_lex_punctuation(void **state)
{
	static const uint8_t want[] = {
		TSDL_T_LBRACK,	 TSDL_T_RBRACK, TSDL_T_LPAREN,	   TSDL_T_RPAREN, TSDL_T_LBRACE,
		TSDL_T_RBRACE,	 TSDL_T_ARROW,	TSDL_T_STAR,	   TSDL_T_PLUS,	  TSDL_T_MINUS,
		TSDL_T_LT,	 TSDL_T_GT,	TSDL_T_TYPEASSIGN, TSDL_T_COLON,  TSDL_T_SEMI,
		TSDL_T_ELLIPSIS, TSDL_T_DOT,	TSDL_T_EQUAL,	   TSDL_T_COMMA,  TSDL_T_DOT,
		TSDL_T_DOT,	 TSDL_T_EOF,
	};
	size_t i;

	(void) state;
	assert_int_equal(lex("[](){}->*+-<>:=:;....=,.."), TK_OK);
	assert_int_equal(parser.toks.len, sizeof(want));
	for (i = 0; i < sizeof(want); i++)
		assert_int_equal(tok(i)->kind, want[i]);
}

static void test_lex_keywords_and_identifiers(void **state)
{
	static const uint8_t want[] = {
		TSDL_T_ALIGN,	  TSDL_T_CONST,	    TSDL_T_KW_CHAR,
		TSDL_T_CLOCK,	  TSDL_T_DOUBLE,    TSDL_T_ENUM,
		TSDL_T_ENV,	  TSDL_T_EVENT,	    TSDL_T_FLOATING_POINT,
		TSDL_T_FLOAT,	  TSDL_T_INTEGER,   TSDL_T_INT_KW,
		TSDL_T_LONG,	  TSDL_T_SHORT,	    TSDL_T_SIGNED,
		TSDL_T_STREAM,	  TSDL_T_KW_STRING, TSDL_T_STRUCT,
		TSDL_T_TRACE,	  TSDL_T_CALLSITE,  TSDL_T_TYPEALIAS,
		TSDL_T_TYPEDEF,	  TSDL_T_UNSIGNED,  TSDL_T_VARIANT,
		TSDL_T_VOID,	  TSDL_T_BOOL,	    TSDL_T_COMPLEX,
		TSDL_T_IMAGINARY, TSDL_T_IDENT,	    TSDL_T_IDENT,
		TSDL_T_IDENT,	  TSDL_T_IDENT,	    TSDL_T_EOF,
	};
	size_t i;

	(void) state;
	assert_int_equal(lex("align const char clock double enum env event floating_point float "
			     "integer int long short signed stream string struct trace callsite "
			     "typealias typedef unsigned variant void _Bool _Complex _Imaginary "
			     "integers _int Int x9_"),
			 TK_OK);
	assert_int_equal(parser.toks.len, sizeof(want));
	for (i = 0; i < sizeof(want); i++)
		assert_int_equal(tok(i)->kind, want[i]);
	assert_string_equal(tok(28)->text, "integers");
	assert_string_equal(tok(31)->text, "x9_");
}

/* ---- parser -------------------------------------------------------------------------------- */

static void test_parse_typealias_tree(void **state)
{
	const struct tsdl_node *root, *ta, *spec, *e;

	(void) state;
	root = parse_ok("typealias integer { size = 32; align = 8; signed = false; base = hex; }"
			" := unsigned long;");
	assert_int_equal(list_len(root->a), 1);
	ta = root->a;
	assert_int_equal(ta->kind, TSDL_TYPEALIAS);
	spec = ta->a;
	assert_int_equal(spec->kind, TSDL_SPEC);
	assert_int_equal(spec->sub, TSDL_SPEC_INTEGER);
	assert_null(spec->next);
	assert_int_equal(list_len(spec->a), 4);
	e = nth(spec->a, 0);
	assert_int_equal(e->kind, TSDL_ASSIGN);
	assert_string_equal(e->name, "size");
	assert_int_equal(e->a->sub, TSDL_UNARY_UINT);
	assert_int_equal(e->a->u, 32);
	e = nth(spec->a, 2);
	assert_string_equal(e->name, "signed");
	assert_int_equal(e->a->sub, TSDL_UNARY_PATH);
	assert_string_equal(e->a->name, "false");
	e = nth(spec->a, 3);
	assert_string_equal(e->name, "base");
	assert_string_equal(e->a->name, "hex");
	/* abstract target declarator, alias made of two words */
	assert_non_null(ta->b);
	assert_int_equal(ta->b->kind, TSDL_DECLARATOR);
	assert_null(ta->b->name);
	assert_int_equal(list_len(ta->c), 2);
	assert_int_equal(nth(ta->c, 0)->sub, TSDL_SPEC_WORD);
	assert_string_equal(nth(ta->c, 0)->name, "unsigned");
	assert_string_equal(nth(ta->c, 1)->name, "long");
}

static void test_parse_typedef_struct_arrays_and_sequences(void **state)
{
	const struct tsdl_node *root, *td, *decl, *st, *m, *d;

	(void) state;
	root = parse_ok("typealias integer { size = 8; } := uint8_t;\n"
			"typedef uint8_t byte_t;\n"
			"struct s {\n"
			"\tbyte_t a;\n"
			"\tuint8_t b[4];\n"
			"\tuint8_t n;\n"
			"\tuint8_t seq[n];\n"
			"\tuint8_t m[2][3];\n"
			"\tuint8_t x, *y;\n"
			"} align(16);\n");
	assert_int_equal(list_len(root->a), 3);
	td = nth(root->a, 1);
	assert_int_equal(td->kind, TSDL_TYPEDEF);
	assert_string_equal(td->a->name, "uint8_t");
	assert_string_equal(td->b->name, "byte_t");
	assert_int_equal(td->line, 2);

	decl = nth(root->a, 2);
	assert_int_equal(decl->kind, TSDL_DECL);
	assert_null(decl->b); /* a bare struct declaration */
	st = decl->a;
	assert_int_equal(st->sub, TSDL_SPEC_STRUCT);
	assert_string_equal(st->name, "s");
	assert_int_equal(st->flag, 1);
	assert_non_null(st->b);
	assert_int_equal(st->b->u, 16);
	assert_int_equal(list_len(st->a), 6);

	/* byte_t is known as a type name after the typedef */
	m = nth(st->a, 0);
	assert_int_equal(m->kind, TSDL_DECL);
	assert_string_equal(m->a->name, "byte_t");
	assert_string_equal(m->b->name, "a");
	assert_int_equal(m->line, 4);

	d = nth(st->a, 1)->b;
	assert_string_equal(d->name, "b");
	assert_int_equal(list_len(d->a), 1);
	assert_int_equal(d->a->sub, TSDL_UNARY_UINT);
	assert_int_equal(d->a->u, 4);

	d = nth(st->a, 3)->b;
	assert_string_equal(d->name, "seq");
	assert_int_equal(d->a->sub, TSDL_UNARY_PATH);
	assert_string_equal(d->a->name, "n");

	d = nth(st->a, 4)->b;
	assert_string_equal(d->name, "m");
	assert_int_equal(list_len(d->a), 2);
	assert_int_equal(nth(d->a, 0)->u, 2);
	assert_int_equal(nth(d->a, 1)->u, 3);

	/* two declarators in one declaration; the second is a pointer */
	d = nth(st->a, 5)->b;
	assert_int_equal(list_len(d), 2);
	assert_string_equal(d->name, "x");
	assert_int_equal(d->u, 0);
	assert_string_equal(d->next->name, "y");
	assert_int_equal(d->next->u, 1);
}

static void test_parse_enum_and_variant_trees(void **state)
{
	const struct tsdl_node *root, *en, *e, *var;

	(void) state;
	root = parse_ok("typealias integer { size = 8; } := uint8_t;\n"
			"enum e : uint8_t { A, B = 5, C = 10 ... 20, \"d e\", F = -3, G = +4, };\n"
			"variant v <x.y> { uint8_t A; string B; };\n"
			"variant w { uint8_t a; };\n");
	en = nth(root->a, 1)->a;
	assert_int_equal(en->sub, TSDL_SPEC_ENUM);
	assert_string_equal(en->name, "e");
	assert_int_equal(en->flag, 1);
	assert_string_equal(en->b->name, "uint8_t");
	assert_int_equal(list_len(en->a), 6);
	e = nth(en->a, 0);
	assert_int_equal(e->kind, TSDL_ENUMERATOR);
	assert_string_equal(e->name, "A");
	assert_null(e->a);
	e = nth(en->a, 1);
	assert_int_equal(e->a->u, 5);
	assert_null(e->b);
	e = nth(en->a, 2);
	assert_int_equal(e->a->u, 10);
	assert_int_equal(e->b->u, 20);
	e = nth(en->a, 3);
	assert_string_equal(e->name, "d e");
	e = nth(en->a, 4);
	assert_int_equal(e->a->sub, TSDL_UNARY_SINT);
	assert_int_equal(e->a->i, -3);
	e = nth(en->a, 5);
	assert_int_equal(e->a->sub, TSDL_UNARY_UINT);
	assert_int_equal(e->a->u, 4);

	var = nth(root->a, 2)->a;
	assert_int_equal(var->sub, TSDL_SPEC_VARIANT);
	assert_string_equal(var->name, "v");
	assert_string_equal(var->ref, "x.y");
	assert_int_equal(var->flag, 1);
	assert_int_equal(list_len(var->a), 2);
	assert_string_equal(nth(var->a, 1)->b->name, "B");
	assert_int_equal(nth(var->a, 1)->a->sub, TSDL_SPEC_STRING);

	var = nth(root->a, 3)->a;
	assert_null(var->ref); /* untagged */
}

static void test_parse_blocks_and_dotted_names(void **state)
{
	const struct tsdl_node *root, *blk, *e;

	(void) state;
	root = parse_ok("trace {\n"
			"\tmajor = 1; minor = 8; byte_order = le;\n"
			"\tpacket.header := struct { integer { size = 32; } magic; };\n"
			"};\n"
			"stream { id = 0; event.header := struct {\n"
			"\tenum : integer { size = 8; } { a } id;\n"
			"\tvariant <stream.event.header.id> { string a; } v; }; };\n"
			"event { name = \"ev\"; fields := struct { string s; }; };\n"
			"env { hostname = \"h\"; n = -2; };\n"
			"clock { name = c; };\n"
			"callsite { name = \"x\"; };\n");
	assert_int_equal(list_len(root->a), 6);
	blk = nth(root->a, 0);
	assert_int_equal(blk->kind, TSDL_BLOCK);
	assert_int_equal(blk->sub, TSDL_BLOCK_TRACE);
	assert_int_equal(list_len(blk->a), 4);
	e = nth(blk->a, 2);
	assert_int_equal(e->kind, TSDL_ASSIGN);
	assert_string_equal(e->name, "byte_order");
	assert_string_equal(e->a->name, "le");
	e = nth(blk->a, 3);
	assert_int_equal(e->kind, TSDL_TYPE_ASSIGN);
	assert_string_equal(e->name, "packet.header");
	assert_int_equal(e->a->sub, TSDL_SPEC_STRUCT);
	assert_int_equal(e->line, 3);

	blk = nth(root->a, 1);
	assert_int_equal(blk->sub, TSDL_BLOCK_STREAM);
	e = nth(blk->a, 1);
	assert_string_equal(e->name, "event.header");
	assert_string_equal(nth(e->a->a, 1)->a->ref, "stream.event.header.id");

	blk = nth(root->a, 2);
	assert_int_equal(blk->sub, TSDL_BLOCK_EVENT);
	assert_int_equal(blk->a->a->sub, TSDL_UNARY_STRING);
	assert_string_equal(blk->a->a->name, "ev");
	assert_string_equal(nth(blk->a, 1)->name, "fields");

	blk = nth(root->a, 3);
	assert_int_equal(blk->sub, TSDL_BLOCK_ENV);
	assert_int_equal(nth(blk->a, 1)->a->i, -2);
	assert_int_equal(nth(root->a, 4)->sub, TSDL_BLOCK_CLOCK);
	assert_int_equal(nth(root->a, 5)->sub, TSDL_BLOCK_CALLSITE);
}

static void check_parse_fails(const char *text, enum tk_status want, const char *needle)
{
	struct tsdl_parser p;
	struct tsdl_node *root = NULL;
	enum tk_status st;

	tsdl_parser_init(&p, NULL);
	error_reset();
	st = tsdl_parse(&p, text, strlen(text), &root);
	if (st != want) {
		print_error("parse returned %s, want %s, for:\n%s\n", tk_status_str(st),
			    tk_status_str(want), text);
		fail();
	}
	if (needle && !cause_has(needle)) {
		print_error("no cause contains \"%s\"; first is \"%s\"\n", needle,
			    tk_error_cause(0) ? tk_error_cause(0) : "(none)");
		fail();
	}
	tsdl_parser_fini(&p);
}

static void test_parse_errors_name_their_line(void **state)
{
	(void) state;
	/* missing ';' after "major = 1": found on line 3 */
	check_parse_fails("trace {\n\tmajor = 1\n\tminor = 8;\n};\n", TK_ERR_FORMAT, "line=3");
	check_parse_fails("trace {\n\tmajor = 1\n\tminor = 8;\n};\n", TK_ERR_FORMAT, "expected=;");
	/* foo_t names no type: the member on line 4 is not a declaration */
	check_parse_fails("typealias integer { size = 8; } := uint8_t;\n"
			  "struct s {\n"
			  "\tuint8_t a;\n"
			  "\tfoo_t b;\n"
			  "};\n",
			  TK_ERR_FORMAT, "line=4");
	/* a lexing error inside a block */
	check_parse_fails("trace {\n\tmajor = 08;\n};\n", TK_ERR_FORMAT, "line=2");
	/* the text ends inside a block */
	check_parse_fails("trace { major = 1; };\nstream {\n", TK_ERR_FORMAT, "end of metadata");
	/* missing ';' after a block */
	check_parse_fails("trace { major = 1; }\nenv { a = 1; };\n", TK_ERR_FORMAT, "line=2");
	/* an attribute value that is not a value */
	check_parse_fails("trace {\n\tmajor = ;\n};\n", TK_ERR_FORMAT, "line=2");
	/* a sign before a string */
	check_parse_fails("trace { major = -\"x\"; };", TK_ERR_FORMAT, "line=1");
}

static void test_parse_type_names_are_scoped(void **state)
{
	(void) state;
	/* in_t is declared in the body of s and is unknown in the body of t */
	parse_ok("struct s { typealias integer { size = 8; } := in_t; in_t a; };");
	tsdl_parser_fini(&parser);
	tsdl_parser_init(&parser, NULL);
	check_parse_fails("struct s { typealias integer { size = 8; } := in_t; in_t a; };\n"
			  "struct t { in_t b; };\n",
			  TK_ERR_FORMAT, "line=2");
	/* and a name declared inside a stream block is unknown in an event block */
	check_parse_fails("stream { typealias integer { size = 8; } := in_t; };\n"
			  "event { fields := struct { in_t b; }; };\n",
			  TK_ERR_FORMAT, "line=2");
}

static void test_parse_deep_nesting_is_refused(void **state)
{
	size_t n = 300, i, len = 0;
	char *text = malloc(n * 20 + 200);

	(void) state;
	assert_non_null(text);
	len += (size_t) sprintf(text + len, "typealias integer { size = 8; } := u8;\nstruct a { ");
	for (i = 0; i < n; i++)
		len += (size_t) sprintf(text + len, "struct { ");
	len += (size_t) sprintf(text + len, "u8 x; ");
	for (i = 0; i < n; i++)
		len += (size_t) sprintf(text + len, "} y; ");
	sprintf(text + len, "};\n");
	check_parse_fails(text, TK_ERR_UNSUPPORTED, NULL);

	len = (size_t) sprintf(text, "trace { major = ");
	for (i = 0; i < n; i++)
		text[len++] = '(';
	text[len++] = '1';
	for (i = 0; i < n; i++)
		text[len++] = ')';
	sprintf(text + len, "; };");
	check_parse_fails(text, TK_ERR_UNSUPPORTED, NULL);
	free(text);
}

static void test_parse_parenthesized_value_and_arrow(void **state)
{
	const struct tsdl_node *root;

	(void) state;
	root = parse_ok("trace { major = (((1))); minor = -(8); };");
	assert_int_equal(root->a->a->a->u, 1);
	assert_int_equal(root->a->a->next->a->sub, TSDL_UNARY_SINT);
	assert_int_equal(root->a->a->next->a->i, -8);
	tsdl_parser_fini(&parser);
	tsdl_parser_init(&parser, NULL);
	check_parse_fails("trace { a = b->c; };", TK_ERR_UNSUPPORTED, "->");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_lex_integer_literals_in_each_base),
		T(test_lex_largest_64_bit_literals),
		T(test_lex_integer_overflow_and_bad_digits_fail),
		T(test_lex_strings_and_escapes),
		T(test_lex_bad_strings_fail),
		T(test_lex_comments_and_line_numbers),
		T(test_lex_unterminated_comment_names_its_line),
		T(test_lex_invalid_character_names_its_line),
		T(test_lex_punctuation),
		T(test_lex_keywords_and_identifiers),
		T(test_parse_typealias_tree),
		T(test_parse_typedef_struct_arrays_and_sequences),
		T(test_parse_enum_and_variant_trees),
		T(test_parse_blocks_and_dotted_names),
		T(test_parse_errors_name_their_line),
		T(test_parse_type_names_are_scoped),
		T(test_parse_deep_nesting_is_refused),
		T(test_parse_parenthesized_value_and_arrow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
