// SPDX-License-Identifier: MIT
/*
 * Readers for the two texts the kernel writes to describe binary trace data: each event's
 * `format` file and header_page (tracedat.md sections 5 and 6).
 *
 * trace-cmd's output is our oracle, so these readers accept exactly what libtraceevent 1.7.1
 * accepts and build the same fields from it. libtraceevent does not parse a grammar: it reads
 * tokens (runs of [A-Za-z0-9_], single newlines, "(),", quotes and C operators such as "->",
 * "<<=" or "*"; blanks between them are skipped) and expects a fixed sequence of them. The
 * type of a field is rebuilt from its tokens, so the type string, the array length and the
 * flags depend on that tokenisation; the lexer below reproduces it, and the field reader
 * follows the same sequence, with a cause naming the line wherever libtraceevent gives up
 * (and wherever it would read freed or absent memory on garbage).
 *
 * The text is never assumed to be NUL-terminated; a NUL or any byte outside printable ASCII
 * ends the tokens, as it does in libtraceevent.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/str.h"
#include "../common/vec.h"
#include "ftrace.h"

enum tok_kind {
	TOK_NONE,    /* end of the text, or a byte libtraceevent refuses (NUL, control, >= 0x80) */
	TOK_SPACE,   /* blanks other than newline; skipped by every reader here */
	TOK_NEWLINE, /* one '\n' */
	TOK_ITEM,    /* a run of [A-Za-z0-9_] */
	TOK_OP,	     /* one operator: '*', ':', ';', '[', "->", "<<=", ... */
	TOK_DELIM,   /* '(', ')' or ',' */
	TOK_QUOTE,   /* '"' or '\'': never valid where these readers look */
};

struct lexer {
	const char *s;
	size_t len;
	size_t pos;
	uint32_t line; /* 1-based line of pos */
};

struct token {
	enum tok_kind kind;
	const char *text;
	size_t len;
	uint32_t line;
};

/* A growing NUL-terminated string on the heap (type strings are built token by token). */
struct sbuf {
	char *p;
	size_t len;
	size_t cap;
};

struct fmt_parser {
	struct lexer lx;
	const char *system;
	const char *event; /* the event's name once read, for causes */
	bool ftrace;	   /* system "ftrace": libtraceevent's two quirks apply */
	struct sbuf type;
	struct sbuf brackets;
	struct vec fields; /* struct ftrace_field */
};

/* The token kind each byte starts, as libtraceevent classes it (format files: 2 MB per trace). */
static const uint8_t byte_kind[256] = {
	['\t'] = TOK_SPACE, ['\n'] = TOK_NEWLINE, ['\v'] = TOK_SPACE, ['\f'] = TOK_SPACE,
	['\r'] = TOK_SPACE, [' '] = TOK_SPACE,	  ['!'] = TOK_OP,     ['"'] = TOK_QUOTE,
	['#'] = TOK_OP,	    ['$'] = TOK_OP,	  ['%'] = TOK_OP,     ['&'] = TOK_OP,
	['\''] = TOK_QUOTE, ['('] = TOK_DELIM,	  [')'] = TOK_DELIM,  ['*'] = TOK_OP,
	['+'] = TOK_OP,	    [','] = TOK_DELIM,	  ['-'] = TOK_OP,     ['.'] = TOK_OP,
	['/'] = TOK_OP,	    ['0'] = TOK_ITEM,	  ['1'] = TOK_ITEM,   ['2'] = TOK_ITEM,
	['3'] = TOK_ITEM,   ['4'] = TOK_ITEM,	  ['5'] = TOK_ITEM,   ['6'] = TOK_ITEM,
	['7'] = TOK_ITEM,   ['8'] = TOK_ITEM,	  ['9'] = TOK_ITEM,   [':'] = TOK_OP,
	[';'] = TOK_OP,	    ['<'] = TOK_OP,	  ['='] = TOK_OP,     ['>'] = TOK_OP,
	['?'] = TOK_OP,	    ['@'] = TOK_OP,	  ['A'] = TOK_ITEM,   ['B'] = TOK_ITEM,
	['C'] = TOK_ITEM,   ['D'] = TOK_ITEM,	  ['E'] = TOK_ITEM,   ['F'] = TOK_ITEM,
	['G'] = TOK_ITEM,   ['H'] = TOK_ITEM,	  ['I'] = TOK_ITEM,   ['J'] = TOK_ITEM,
	['K'] = TOK_ITEM,   ['L'] = TOK_ITEM,	  ['M'] = TOK_ITEM,   ['N'] = TOK_ITEM,
	['O'] = TOK_ITEM,   ['P'] = TOK_ITEM,	  ['Q'] = TOK_ITEM,   ['R'] = TOK_ITEM,
	['S'] = TOK_ITEM,   ['T'] = TOK_ITEM,	  ['U'] = TOK_ITEM,   ['V'] = TOK_ITEM,
	['W'] = TOK_ITEM,   ['X'] = TOK_ITEM,	  ['Y'] = TOK_ITEM,   ['Z'] = TOK_ITEM,
	['['] = TOK_OP,	    ['\\'] = TOK_OP,	  [']'] = TOK_OP,     ['^'] = TOK_OP,
	['_'] = TOK_ITEM,   ['`'] = TOK_OP,	  ['a'] = TOK_ITEM,   ['b'] = TOK_ITEM,
	['c'] = TOK_ITEM,   ['d'] = TOK_ITEM,	  ['e'] = TOK_ITEM,   ['f'] = TOK_ITEM,
	['g'] = TOK_ITEM,   ['h'] = TOK_ITEM,	  ['i'] = TOK_ITEM,   ['j'] = TOK_ITEM,
	['k'] = TOK_ITEM,   ['l'] = TOK_ITEM,	  ['m'] = TOK_ITEM,   ['n'] = TOK_ITEM,
	['o'] = TOK_ITEM,   ['p'] = TOK_ITEM,	  ['q'] = TOK_ITEM,   ['r'] = TOK_ITEM,
	['s'] = TOK_ITEM,   ['t'] = TOK_ITEM,	  ['u'] = TOK_ITEM,   ['v'] = TOK_ITEM,
	['w'] = TOK_ITEM,   ['x'] = TOK_ITEM,	  ['y'] = TOK_ITEM,   ['z'] = TOK_ITEM,
	['{'] = TOK_OP,	    ['|'] = TOK_OP,	  ['}'] = TOK_OP,     ['~'] = TOK_OP,
	/* NUL, other control bytes, DEL and bytes >= 0x80: TOK_NONE (0) */
};

static inline enum tok_kind char_kind(const struct lexer *lx, size_t pos)
{
	return pos < lx->len ? (enum tok_kind) byte_kind[(unsigned char) lx->s[pos]] : TOK_NONE;
}

static int char_at(const struct lexer *lx, size_t pos)
{
	return pos < lx->len ? (unsigned char) lx->s[pos] : -1;
}

/*
 * Length of the operator starting at @pos. libtraceevent joins "->", a doubled + - | & < >,
 * and a '=' after ! = < > << >> and after a single + - | &; everything else is one byte.
 */
static size_t op_len(const struct lexer *lx, size_t pos)
{
	int c = char_at(lx, pos);
	size_t i = pos + 1;

	switch (c) {
	case '-':
		if (char_at(lx, i) == '>')
			return 2;
		/* fall through */
	case '+':
	case '|':
	case '&':
	case '>':
	case '<':
		if (char_at(lx, i) != c)
			break;
		i++;
		if (c == '>' || c == '<')
			break;
		return i - pos;
	case '!':
	case '=':
		break;
	default:
		return 1;
	}
	if (char_at(lx, i) == '=')
		i++;
	return i - pos;
}

/* The next token, blanks included (libtraceevent's __read_token()). */
static inline void lex_raw(struct lexer *lx, struct token *t)
{
	enum tok_kind kind = char_kind(lx, lx->pos);
	size_t start = lx->pos;

	t->kind = kind;
	t->line = lx->line;
	t->text = lx->s + (start < lx->len ? start : lx->len);
	switch (kind) {
	case TOK_NONE:
		t->len = 0;
		return;
	case TOK_NEWLINE:
		lx->pos++;
		lx->line++;
		break;
	case TOK_DELIM:
	case TOK_QUOTE:
		lx->pos++;
		break;
	case TOK_OP:
		lx->pos += op_len(lx, start);
		break;
	case TOK_ITEM:
	case TOK_SPACE: {
		const unsigned char *q = (const unsigned char *) lx->s;
		size_t i = lx->pos + 1, n = lx->len;

		while (i < n && byte_kind[q[i]] == kind)
			i++;
		lx->pos = i;
		break;
	}
	}
	t->len = lx->pos - start;
}

/* The next token after blanks; newlines are tokens (libtraceevent's read_token()). */
static void next(struct fmt_parser *p, struct token *t)
{
	do
		lex_raw(&p->lx, t);
	while (t->kind == TOK_SPACE);
}

/* The next token after blanks and newlines (libtraceevent's read_token_item()). */
static void next_item(struct fmt_parser *p, struct token *t)
{
	do
		lex_raw(&p->lx, t);
	while (t->kind == TOK_SPACE || t->kind == TOK_NEWLINE);
}

static inline bool tok_is(const struct token *t, enum tok_kind kind, const char *text)
{
	size_t n = strlen(text); /* a constant once inlined */

	return t->kind == kind && t->len == n && memcmp(t->text, text, n) == 0;
}

/*
 * A token read the way libtraceevent reads numbers, strtoul(text, NULL, 0) on a 64-bit host:
 * "0x" + hex digit selects hex, a leading 0 octal; the longest valid prefix counts (so
 * "TASK_COMM_LEN" and "08" are 0), overflow gives UINT64_MAX, and tokens other than items
 * (operators, parentheses) read as 0.
 */
static uint64_t tok_ul(const struct token *t)
{
	const char *s = t->text;
	size_t i = 0, n = t->len;
	unsigned int base = 10;
	uint64_t v = 0;

	if (t->kind != TOK_ITEM)
		return 0;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    str_hex_digit((unsigned char) s[2]) >= 0) {
		base = 16;
		i = 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (; i < n; i++) {
		/* not a digit: -1, past any base */
		unsigned int d = (unsigned int) str_hex_digit((unsigned char) s[i]);

		if (d >= base)
			break;
		if (v > (UINT64_MAX - d) / base)
			return UINT64_MAX;
		v = v * base + d;
	}
	return v;
}

/* A token read like atoi() (header_page): the decimal prefix; -1 when beyond 32 bits. */
static int64_t tok_atoi(const struct token *t)
{
	int64_t v = 0;
	size_t i;

	for (i = 0; i < t->len && t->text[i] >= '0' && t->text[i] <= '9'; i++) {
		v = v * 10 + (t->text[i] - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	return v;
}

static int sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (n >= SIZE_MAX / 2 - b->len)
		return -1;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

static int sb_str(struct sbuf *b, const char *s)
{
	return sb_add(b, s, strlen(s));
}

static int sb_tok(struct sbuf *b, const struct token *t)
{
	return sb_add(b, t->text, t->len);
}

static void sb_reset(struct sbuf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

/* How a token is named in a cause: its text (at most 32 bytes) or what it stands for. */
static const char *tok_desc(const struct lexer *lx, const struct token *t, char *buf, size_t n)
{
	size_t pos = (size_t) (t->text - lx->s);

	switch (t->kind) {
	case TOK_NONE:
		if (pos >= lx->len)
			return "end of text";
		snprintf(buf, n, "byte 0x%02x", (unsigned char) lx->s[pos]);
		return buf;
	case TOK_NEWLINE:
		return "end of line";
	default:
		snprintf(buf, n, "'%.*s'", (int) (t->len > 32 ? 32 : t->len), t->text);
		return buf;
	}
}

static enum tk_status fmt_fail(const struct fmt_parser *p, uint32_t line, const char *reason, ...)
	TK_PRINTF(3, 4);

static enum tk_status fmt_fail(const struct fmt_parser *p, uint32_t line, const char *reason, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, reason);
	vsnprintf(msg, sizeof(msg), reason, ap);
	va_end(ap);
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot parse event format: system=%s, event=%s, line=%u, reason=%s",
		       p->system, p->event ? p->event : "?", line, msg);
}

static enum tk_status fmt_nomem(const struct fmt_parser *p)
{
	return TK_FAIL(TK_ERR_NOMEM, "Cannot parse event format: system=%s, event=%s", p->system,
		       p->event ? p->event : "?");
}

static enum tk_status expected(const struct fmt_parser *p, const struct token *t, const char *what)
{
	char buf[48];

	return fmt_fail(p, t->line, "expected %s, found %s", what,
			tok_desc(&p->lx, t, buf, sizeof(buf)));
}

static TK_NOINLINE TK_COLD enum tk_status unexpected(const struct fmt_parser *p,
						     const struct token *t, const char *text)
{
	char what[40];

	snprintf(what, sizeof(what), "'%s'", text);
	return expected(p, t, what);
}

/* Read the next token (newlines included) and check it is @kind with @text. */
static inline enum tk_status expect(struct fmt_parser *p, enum tok_kind kind, const char *text)
{
	struct token t;

	next(p, &t);
	if (TK_LIKELY(tok_is(&t, kind, text)))
		return TK_OK;
	return unexpected(p, &t, text);
}

/* Read "<number>" where libtraceevent reads a number item. */
static enum tk_status expect_number(struct fmt_parser *p, uint64_t *out)
{
	struct token t;

	next(p, &t);
	if (t.kind != TOK_ITEM)
		return expected(p, &t, "a number");
	*out = tok_ul(&t);
	return TK_OK;
}

/* Byte size of the element type of "<type>[] name" when libtraceevent knows it, else 0. */
static uint32_t elem_type_size(const struct token *t)
{
	static const struct {
		const char *name;
		uint32_t size;
	} table[] = {
		{"u8", 1},  {"u16", 2}, {"u32", 4}, {"u64", 8},	 {"s8", 1},
		{"s16", 2}, {"s32", 4}, {"s64", 8}, {"char", 1},
	};
	size_t i;

	for (i = 0; i < TK_ARRAY_SIZE(table); i++)
		if (tok_is(t, TOK_ITEM, table[i].name))
			return table[i].size;
	return 0;
}

/*
 * The "__attribute__(...)" group inside a type ("char __attribute__((user)) * name"), entered
 * after its first '(' with *last = "__attribute__". Like libtraceevent, it appends " " +
 * "__attribute__(" and the tokens up to the matching ')': parentheses and commas joined
 * without blanks, other tokens after a blank unless they follow one of those. The closing
 * ')' itself is not appended; *last is left on the token before it and *delim on the
 * separator that token asked for, which is how the caller's next append continues.
 */
static enum tk_status read_attribute(struct fmt_parser *p, struct token *last, const char **delim)
{
	uint32_t depth = 1;
	struct token t;

	if (sb_str(&p->type, " ") < 0 || sb_tok(&p->type, last) < 0 || sb_str(&p->type, "(") < 0)
		return fmt_nomem(p);
	*delim = " ";
	for (;;) {
		next(p, &t);
		if (t.kind == TOK_NONE || t.kind == TOK_QUOTE)
			return expected(p, &t, "')' closing __attribute__");
		if (t.kind == TOK_DELIM) {
			if (t.text[0] == '(')
				depth++;
			else if (t.text[0] == ')')
				depth--;
			if (!depth)
				return TK_OK;
			if (sb_tok(&p->type, &t) < 0)
				return fmt_nomem(p);
			*delim = "";
		} else {
			if (sb_str(&p->type, *delim) < 0 || sb_tok(&p->type, &t) < 0)
				return fmt_nomem(p);
			*delim = " ";
		}
		*last = t;
	}
}

/*
 * The brackets of "<type> <name>[...]", entered after the '['. Their tokens are joined as
 * written but without blanks, except one between two items; arraylen is the number the last
 * token reads as. Returns with the token after the ']' in *t.
 */
static enum tk_status read_brackets(struct fmt_parser *p, struct token *t, uint32_t *arraylen)
{
	enum tok_kind prev = TOK_OP;

	sb_reset(&p->brackets);
	if (sb_str(&p->brackets, "[") < 0)
		return fmt_nomem(p);
	next(p, t);
	*arraylen = 0;
	while (!tok_is(t, TOK_OP, "]")) {
		if (t->kind == TOK_NONE || t->kind == TOK_QUOTE)
			return expected(p, t, "']'");
		if (prev == TOK_ITEM && t->kind == TOK_ITEM && sb_str(&p->brackets, " ") < 0)
			return fmt_nomem(p);
		prev = t->kind;
		if (sb_tok(&p->brackets, t) < 0)
			return fmt_nomem(p);
		*arraylen = (uint32_t) tok_ul(t);
		next(p, t);
	}
	if (sb_str(&p->brackets, "]") < 0)
		return fmt_nomem(p);
	next(p, t);
	return TK_OK;
}

static uint32_t type_flags(const char *type, uint32_t flags)
{
	if ((flags & FTRACE_FIELD_ARRAY) &&
	    (strstr(type, "char") || strstr(type, "u8") || strstr(type, "s8")))
		flags |= FTRACE_FIELD_STRING;
	if (strncmp(type, "__data_loc", 10) == 0)
		flags |= FTRACE_FIELD_DYNAMIC;
	if (strncmp(type, "__rel_loc", 9) == 0)
		flags |= FTRACE_FIELD_DYNAMIC | FTRACE_FIELD_RELATIVE;
	if (strstr(type, "long"))
		flags |= FTRACE_FIELD_LONG;
	return flags;
}

/*
 * The rest of @f once its line is read (p->type holds the type, f->offset and f->size are
 * set): the flags the type implies, the element size, and copies of the name and type.
 */
static enum tk_status field_done(struct fmt_parser *p, struct ftrace_ctx *ctx,
				 struct ftrace_field *f, const char *name, size_t name_len,
				 uint32_t flags, uint32_t arraylen, uint32_t size_dynamic)
{
	flags = type_flags(p->type.p, flags);
	/* before dynamic arrays had a length, __data_loc strings were a 2-byte offset */
	if ((flags & FTRACE_FIELD_DYNAMIC) && f->size == 2)
		flags |= FTRACE_FIELD_STRING | FTRACE_FIELD_ARRAY;
	if (flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC)) {
		if (arraylen)
			f->elemsize = f->size / arraylen;
		else if (flags & FTRACE_FIELD_DYNAMIC)
			f->elemsize = size_dynamic;
		else if (flags & FTRACE_FIELD_STRING)
			f->elemsize = 1;
		else if (flags & FTRACE_FIELD_LONG)
			f->elemsize = ctx->long_size;
		else
			f->elemsize = 0;
	} else {
		f->elemsize = f->size;
	}
	/* see ftrace_field_flexible() */
	if ((flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC)) == FTRACE_FIELD_ARRAY &&
	    !f->size && p->type.len >= 2 && p->type.p[p->type.len - 2] == '[' &&
	    p->type.p[p->type.len - 1] == ']')
		flags |= FTRACE_FIELD_FLEXIBLE;
	if (!(flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC)) && !f->size &&
	    p->type.len == 4 && !memcmp(p->type.p, "char", 4))
		flags |= FTRACE_FIELD_FLEXIBLE;
	f->arraylen = arraylen;
	f->flags = flags;
	f->name = arena_strndup(&ctx->arena, name, name_len);
	f->type = arena_strndup(&ctx->arena, p->type.p, p->type.len);
	if (!f->name || !f->type)
		return fmt_nomem(p);
	return TK_OK;
}

/* ---- the usual field line, read in one pass ---------------------------------------------- */

struct span {
	size_t at, len;
};

static size_t skip_blanks(const char *s, size_t n, size_t i)
{
	while (i < n && byte_kind[(unsigned char) s[i]] == TOK_SPACE)
		i++;
	return i;
}

static size_t item_end(const char *s, size_t n, size_t i)
{
	while (i < n && byte_kind[(unsigned char) s[i]] == TOK_ITEM)
		i++;
	return i;
}

/* The one-byte operator @c at *@i, then blanks. */
static bool fast_op(const char *s, size_t n, size_t *i, char c)
{
	if (*i >= n || s[*i] != c)
		return false;
	*i = skip_blanks(s, n, *i + 1);
	return true;
}

/* "@word : <number> ;" at *@i, blanks between, as expect() and expect_number() read it. */
static bool fast_key(const char *s, size_t n, size_t *i, const char *word, uint64_t *v)
{
	size_t len = strlen(word), e;
	struct token t = {TOK_ITEM, NULL, 0, 0};

	if (item_end(s, n, *i) != *i + len || memcmp(s + *i, word, len))
		return false;
	*i = skip_blanks(s, n, *i + len);
	if (!fast_op(s, n, i, ':') || (e = item_end(s, n, *i)) == *i)
		return false;
	t.text = s + *i;
	t.len = e - *i;
	*v = tok_ul(&t);
	*i = skip_blanks(s, n, e);
	return fast_op(s, n, i, ';');
}

/*
 * A field line in its usual form, read without tokens: ":" then items and '*' (the last
 * item is the name), perhaps "[N]" or "[]" and the __data_loc form's name after it, ";",
 * offset, size, perhaps signed, and the line's end. 1 when it was read, 0 when the line is
 * anything else (the lexer has not moved: parse_field() reads it the general way, which gives
 * the same field or the error), or a failure for lack of memory. Six kernels' formats have
 * 20k field lines, nearly all of this form.
 */
static int fast_field(struct fmt_parser *p, struct ftrace_ctx *ctx, struct ftrace_field *f)
{
	const char *s = p->lx.s;
	size_t n = p->lx.len, i = skip_blanks(s, n, p->lx.pos), e, nt = 0, k;
	struct span tok[16], br = {0, 0}, name;
	uint32_t flags = 0, arraylen = 0, size_dynamic = 0;
	uint64_t off, size, sgn = 0;
	bool data_loc = false;
	enum tk_status st;

	if (p->ftrace || ctx->format_general_only || !fast_op(s, n, &i, ':'))
		return 0;
	for (;;) {
		if (i < n && s[i] == '*')
			e = i + 1;
		else if ((e = item_end(s, n, i)) == i)
			break;
		if (nt == TK_ARRAY_SIZE(tok))
			return 0;
		if (s[i] == '*') {
			if (!nt)
				return 0; /* no type before it */
			flags |= FTRACE_FIELD_POINTER;
		}
		tok[nt++] = (struct span){i, e - i};
		i = skip_blanks(s, n, e);
	}
	if (nt < 2 || s[tok[nt - 1].at] == '*')
		return 0;
	name = tok[nt - 1];
	if (i < n && s[i] == '[') {
		flags |= FTRACE_FIELD_ARRAY;
		i = skip_blanks(s, n, i + 1);
		e = item_end(s, n, i);
		br = (struct span){i, e - i};
		i = skip_blanks(s, n, e);
		if (!fast_op(s, n, &i, ']'))
			return 0;
		if (br.len) {
			struct token t = {TOK_ITEM, s + br.at, br.len, 0};

			arraylen = (uint32_t) tok_ul(&t);
		}
		if ((e = item_end(s, n, i)) > i) { /* "__data_loc char[] name" */
			struct token t = {TOK_ITEM, s + name.at, name.len, 0};

			data_loc = true;
			size_dynamic = elem_type_size(&t);
			name = (struct span){i, e - i};
			i = skip_blanks(s, n, e);
		}
	}
	if (!fast_op(s, n, &i, ';') || !fast_key(s, n, &i, "offset", &off) ||
	    !fast_key(s, n, &i, "size", &size))
		return 0;
	if (i < n && s[i] != '\n' && !fast_key(s, n, &i, "signed", &sgn))
		return 0;
	if (i >= n || s[i] != '\n')
		return 0;
	sb_reset(&p->type);
	for (k = 0; k + 1 < nt; k++)
		if ((k && sb_str(&p->type, " ") < 0) ||
		    sb_add(&p->type, s + tok[k].at, tok[k].len) < 0)
			return fmt_nomem(p);
	if (data_loc && (sb_str(&p->type, " ") < 0 ||
			 sb_add(&p->type, s + tok[nt - 1].at, tok[nt - 1].len) < 0))
		return fmt_nomem(p);
	if ((flags & FTRACE_FIELD_ARRAY) &&
	    (sb_str(&p->type, "[") < 0 || sb_add(&p->type, s + br.at, br.len) < 0 ||
	     sb_str(&p->type, "]") < 0))
		return fmt_nomem(p);
	p->lx.pos = i + 1;
	p->lx.line++;
	f->offset = (uint32_t) off;
	f->size = (uint32_t) size;
	if (sgn)
		flags |= FTRACE_FIELD_SIGNED;
	st = field_done(p, ctx, f, s + name.at, name.len, flags, arraylen, size_dynamic);
	return st < 0 ? (int) st : 1;
}

/*
 * One field line after its "field" token:
 *
 *	:<type tokens> <name>[<brackets>];	offset:<n>;	size:<n>;	signed:<n>;\n
 *
 * The type is every item (and '*', and for ftrace '.') before the last one, which is the
 * name; "<type>[] <name>" (the __data_loc form) moves the brackets into the type. The
 * "signed:" part is optional (older kernels).
 */
static enum tk_status parse_field(struct fmt_parser *p, struct ftrace_ctx *ctx,
				  struct ftrace_field *f)
{
	const char *delim = " ";
	uint32_t size_dynamic = 0, arraylen = 0, flags = 0;
	bool have_type = false;
	struct token t, last, name;
	enum tk_status st;
	uint64_t v = 0;

	int fast = fast_field(p, ctx, f);

	if (fast)
		return fast > 0 ? TK_OK : (enum tk_status) fast;
	sb_reset(&p->type);
	next(p, &t);
	if (p->ftrace && tok_is(&t, TOK_ITEM, "special"))
		next(p, &t);
	if (!tok_is(&t, TOK_OP, ":"))
		return expected(p, &t, "':'");
	next(p, &last);
	if (last.kind != TOK_ITEM)
		return expected(p, &last, "a type");
	for (;;) {
		next(p, &t);
		if (t.kind == TOK_ITEM || tok_is(&t, TOK_OP, "*") ||
		    (p->ftrace && tok_is(&t, TOK_OP, "."))) {
			if (tok_is(&t, TOK_OP, "*"))
				flags |= FTRACE_FIELD_POINTER;
			if (have_type && sb_str(&p->type, delim) < 0)
				return fmt_nomem(p);
			if (sb_tok(&p->type, &last) < 0)
				return fmt_nomem(p);
			have_type = true;
			last = t;
			delim = " ";
			continue;
		}
		if (tok_is(&t, TOK_DELIM, "(") && tok_is(&last, TOK_ITEM, "__attribute__")) {
			if (!have_type)
				return fmt_fail(p, t.line, "__attribute__ before any type");
			st = read_attribute(p, &last, &delim);
			if (st < 0)
				return st;
			continue;
		}
		break;
	}
	if (!have_type)
		return fmt_fail(p, last.line, "no type before the field name");
	name = last;
	if (t.kind != TOK_OP)
		return expected(p, &t, "';'");
	if (tok_is(&t, TOK_OP, "[")) {
		flags |= FTRACE_FIELD_ARRAY;
		st = read_brackets(p, &t, &arraylen);
		if (st < 0)
			return st;
		if (t.kind == TOK_ITEM) {
			/* "__data_loc char[] name": the item before the brackets is a type */
			if (sb_str(&p->type, " ") < 0 || sb_tok(&p->type, &name) < 0)
				return fmt_nomem(p);
			size_dynamic = elem_type_size(&name);
			name = t;
			next(p, &t);
		}
		if (sb_add(&p->type, p->brackets.p, p->brackets.len) < 0)
			return fmt_nomem(p);
	}
	if (!tok_is(&t, TOK_OP, ";"))
		return expected(p, &t, "';'");

	if ((st = expect(p, TOK_ITEM, "offset")) < 0 || (st = expect(p, TOK_OP, ":")) < 0 ||
	    (st = expect_number(p, &v)) < 0)
		return st;
	f->offset = (uint32_t) v;
	if ((st = expect(p, TOK_OP, ";")) < 0 || (st = expect(p, TOK_ITEM, "size")) < 0 ||
	    (st = expect(p, TOK_OP, ":")) < 0 || (st = expect_number(p, &v)) < 0)
		return st;
	f->size = (uint32_t) v;
	if ((st = expect(p, TOK_OP, ";")) < 0)
		return st;
	next(p, &t);
	if (t.kind != TOK_NEWLINE) {
		if (!tok_is(&t, TOK_ITEM, "signed"))
			return expected(p, &t, "'signed' or end of line");
		if ((st = expect(p, TOK_OP, ":")) < 0 || (st = expect_number(p, &v)) < 0 ||
		    (st = expect(p, TOK_OP, ";")) < 0)
			return st;
		if (v)
			flags |= FTRACE_FIELD_SIGNED;
		next(p, &t);
		if (t.kind != TOK_NEWLINE)
			return expected(p, &t, "end of line");
	}
	return field_done(p, ctx, f, name.text, name.len, flags, arraylen, size_dynamic);
}

/* Field lines up to an empty line; *count is how many were read, even on failure. */
static enum tk_status parse_fields(struct fmt_parser *p, struct ftrace_ctx *ctx, uint32_t *count)
{
	struct ftrace_field *f;
	enum tk_status st;
	struct token t;

	*count = 0;
	for (;;) {
		next(p, &t);
		if (t.kind == TOK_NEWLINE)
			return TK_OK;
		if (!tok_is(&t, TOK_ITEM, "field"))
			return expected(p, &t, "'field' or an empty line");
		if (p->fields.len >= UINT32_MAX - 1)
			return fmt_fail(p, t.line, "too many fields");
		f = vec_push(&p->fields, sizeof(*f));
		if (!f)
			return fmt_nomem(p);
		st = parse_field(p, ctx, f);
		if (st < 0) {
			p->fields.len--;
			return st;
		}
		(*count)++;
	}
}

/*
 * "print fmt: " and the rest of the text, kept raw for printfmt.c. libtraceevent wants the
 * fmt string right after the colon (blanks allowed, no newline); anything else leaves the
 * event without a print fmt, which libtraceevent marks as failed.
 */
static enum tk_status read_print_fmt(struct fmt_parser *p, struct ftrace_ctx *ctx, const char **out)
{
	struct lexer *lx = &p->lx;
	struct token t;
	size_t start, end;

	*out = NULL;
	next_item(p, &t);
	if (!tok_is(&t, TOK_ITEM, "print"))
		return TK_OK;
	next(p, &t);
	if (!tok_is(&t, TOK_ITEM, "fmt"))
		return TK_OK;
	next(p, &t);
	if (!tok_is(&t, TOK_OP, ":"))
		return TK_OK;
	start = lx->pos;
	while (char_kind(lx, start) == TOK_SPACE)
		start++;
	if (char_at(lx, start) != '"')
		return TK_OK;
	end = start + strnlen(lx->s + start, lx->len - start);
	while (end > start &&
	       (char_kind(lx, end - 1) == TOK_SPACE || char_kind(lx, end - 1) == TOK_NEWLINE))
		end--;
	*out = arena_strndup(&ctx->arena, lx->s + start, end - start);
	return *out ? TK_OK : fmt_nomem(p);
}

/* Keep ctx->events sorted by id, a new event after those with its id (libtraceevent's order). */
static enum tk_status add_event(struct ftrace_ctx *ctx, struct ftrace_event *ev)
{
	size_t i;

	if (ctx->n_events == ctx->events_cap) {
		size_t cap = ctx->events_cap ? ctx->events_cap * 2 : 64;
		struct ftrace_event **p;

		if (cap > SIZE_MAX / sizeof(*p))
			return TK_ERR_NOMEM;
		p = realloc(ctx->events, cap * sizeof(*p));
		if (!p)
			return TK_ERR_NOMEM;
		ctx->events = p;
		ctx->events_cap = cap;
	}
	i = ctx->n_events;
	/* declared ones are sorted once, by ftrace_ctx_finish(): a -e all file has 2,300 */
	if (ev->pending)
		ctx->events_unsorted = 1;
	else
		while (i > 0 && ctx->events[i - 1]->id > ev->id)
			i--;
	memmove(ctx->events + i + 1, ctx->events + i, (ctx->n_events - i) * sizeof(*ctx->events));
	ctx->events[i] = ev;
	ctx->n_events++;
	return TK_OK;
}

/* The fields @p read, copied into the context's arena as @ev's; -1 when out of memory. */
static int take_fields(struct fmt_parser *p, struct ftrace_ctx *ctx, struct ftrace_event *ev)
{
	size_t n = p->fields.len;

	ev->fields = n ? arena_alloc(&ctx->arena, n * sizeof(*ev->fields)) : NULL;
	ev->n_fields = ev->fields ? (uint32_t) n : 0;
	if (!ev->fields)
		return n ? -1 : 0;
	memcpy(ev->fields, p->fields.data, n * sizeof(*ev->fields));
	/* a user_events EventHeader tracepoint, as its decoders tell one (ftrace.h) */
	if (ev->n_common < ev->n_fields &&
	    !strcmp(ev->fields[ev->n_common].name, "eventheader_flags"))
		ev->flags |= FTRACE_EVENT_EVENTHEADER;
	return 0;
}

/* Copy what was read into the arena and add it to the context, failed or not. */
static enum tk_status commit_event(struct fmt_parser *p, struct ftrace_ctx *ctx,
				   struct ftrace_event *tmpl, struct ftrace_event **out)
{
	struct ftrace_event *ev = arena_alloc(&ctx->arena, sizeof(*ev));

	if (!ev)
		return fmt_nomem(p);
	*ev = *tmpl;
	ev->system = arena_strdup(&ctx->arena, p->system);
	if (!ev->system || take_fields(p, ctx, ev) < 0)
		return fmt_nomem(p);
	if (add_event(ctx, ev) < 0)
		return fmt_nomem(p);
	if (out)
		*out = ev;
	return TK_OK;
}

/*
 * name: <item>\nID: <number>\n: the event's name and ID, read into @ev, with @p left at what
 * follows (the "format:" line).
 */
static enum tk_status parse_head(struct fmt_parser *p, struct ftrace_ctx *ctx,
				 struct ftrace_event *ev)
{
	struct token t;
	uint64_t id = 0;
	enum tk_status st;

	next(p, &t);
	if (!tok_is(&t, TOK_ITEM, "name"))
		return expected(p, &t, "'name'");
	if ((st = expect(p, TOK_OP, ":")) < 0)
		return st;
	next(p, &t);
	if (t.kind != TOK_ITEM)
		return expected(p, &t, "an event name");
	ev->name = arena_strndup(&ctx->arena, t.text, t.len);
	if (!ev->name)
		return fmt_nomem(p);
	p->event = ev->name;

	next_item(p, &t);
	if (!tok_is(&t, TOK_ITEM, "ID"))
		return expected(p, &t, "'ID'");
	if ((st = expect(p, TOK_OP, ":")) < 0 || (st = expect_number(p, &id)) < 0)
		return st;
	/* libtraceevent keeps the id in an int and refuses negative ones */
	if ((int32_t) (uint32_t) id < 0)
		return fmt_fail(p, t.line, "ID out of range");
	ev->id = (uint32_t) id;
	return TK_OK;
}

/*
 * "format:\n", the common fields, an empty line, the event's fields, an empty line, then
 * "print fmt: ...", into @ev (its fields in p->fields); FTRACE_EVENT_FAILED when they do not
 * all read.
 */
static enum tk_status parse_body(struct fmt_parser *p, struct ftrace_ctx *ctx,
				 struct ftrace_event *ev)
{
	uint32_t n_common = 0, n_event = 0;
	enum tk_status st = TK_OK;
	struct token t;

	next_item(p, &t);
	if (!tok_is(&t, TOK_ITEM, "format"))
		st = expected(p, &t, "'format'");
	else if ((st = expect(p, TOK_OP, ":")) >= 0) {
		next(p, &t);
		if (t.kind != TOK_NEWLINE)
			st = expected(p, &t, "end of line");
	}
	if (st >= 0)
		st = parse_fields(p, ctx, &n_common);
	if (st >= 0)
		st = parse_fields(p, ctx, &n_event);
	if (st >= 0)
		st = read_print_fmt(p, ctx, &ev->print_fmt);
	ev->n_common = n_common;
	if (st < 0 || !ev->print_fmt)
		ev->flags |= FTRACE_EVENT_FAILED;
	return st;
}

static void parser_init(struct fmt_parser *p, const char *system, const char *text, size_t len)
{
	p->lx.s = text ? text : "";
	p->lx.len = len;
	p->lx.line = 1;
	p->system = system;
	p->ftrace = strcmp(system, "ftrace") == 0;
}

static void parser_fini(struct fmt_parser *p)
{
	vec_fini(&p->fields);
	free(p->type.p);
	free(p->brackets.p);
}

/*
 * The head, then the body. Once the ID is known the event is added whatever follows, as
 * libtraceevent does (see ftrace.h).
 */
enum tk_status ftrace_event_parse(struct ftrace_ctx *ctx, const char *system, const char *text,
				  size_t len, struct ftrace_event **out)
{
	struct fmt_parser p = {0};
	struct ftrace_event ev = {0};
	enum tk_status st, st2;

	TK_ASSERT_PRE(ctx && system && (text || !len));
	parser_init(&p, system, text, len);
	st = parse_head(&p, ctx, &ev);
	if (st < 0) {
		parser_fini(&p);
		return st;
	}
	st = parse_body(&p, ctx, &ev);
	if (st != TK_ERR_NOMEM) {
		st2 = commit_event(&p, ctx, &ev, out);
		if (st2 < 0)
			st = st2;
	}
	parser_fini(&p);
	return st;
}

enum tk_status ftrace_event_declare(struct ftrace_ctx *ctx, const char *system, const char *text,
				    size_t len)
{
	struct fmt_parser p = {0};
	struct ftrace_event ev = {0};
	enum tk_status st;

	TK_ASSERT_PRE(ctx && system && (text || !len));
	parser_init(&p, system, text, len);
	st = parse_head(&p, ctx, &ev);
	if (st >= 0) {
		ev.pending = 1;
		ev.text = p.lx.s;
		ev.text_len = p.lx.len;
		ev.body_pos = p.lx.pos;
		ev.body_line = p.lx.line;
		st = commit_event(&p, ctx, &ev, NULL);
	}
	parser_fini(&p);
	return st;
}

/*
 * Read the body of @ev, declared by ftrace_event_declare(), under the context's lock: another
 * thread may be reading it too. A body that does not read leaves the event FAILED (with the
 * fields before the bad line), as ftrace_event_parse() does, and its cause is dropped: the
 * event prints "[FAILED TO PARSE]", as trace-cmd's would.
 */
void ftrace_event_load_slow(const struct ftrace_ctx *cctx, const struct ftrace_event *cev)
{
	struct ftrace_ctx *ctx = (struct ftrace_ctx *) cctx;
	struct ftrace_event *ev = (struct ftrace_event *) cev;
	struct fmt_parser p = {0};
	size_t depth = error_depth();
	enum tk_status st;

	pthread_mutex_lock(&ctx->lock);
	if (!__atomic_load_n(&ev->pending, __ATOMIC_ACQUIRE)) {
		pthread_mutex_unlock(&ctx->lock);
		return;
	}
	parser_init(&p, ev->system, ev->text, ev->text_len);
	p.lx.pos = ev->body_pos;
	p.lx.line = ev->body_line;
	p.event = ev->name;
	st = parse_body(&p, ctx, ev);
	if (st == TK_ERR_NOMEM || take_fields(&p, ctx, ev) < 0) {
		ev->flags |= FTRACE_EVENT_FAILED; /* out of memory: its records print raw */
		ev->fields = NULL;
		ev->n_fields = 0;
	}
	ctx->n_formats_loaded++;
	parser_fini(&p);
	error_truncate(depth);
	__atomic_store_n(&ev->pending, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&ctx->lock);
}

/* ---- header_page ------------------------------------------------------------------------ */

struct hp_field {
	uint32_t offset;
	uint32_t size;
};

static enum tk_status hp_fail(const struct token *t, const char *field, const char *reason)
{
	return TK_FAIL(TK_ERR_FORMAT, "Cannot parse header_page: line=%u, field=%s, reason=%s",
		       t->line, field, reason);
}

static enum tk_status hp_expect(struct fmt_parser *p, const char *field, enum tok_kind kind,
				const char *text)
{
	struct token t;

	next(p, &t);
	return tok_is(&t, kind, text) ? TK_OK : hp_fail(&t, field, "unexpected token");
}

static enum tk_status hp_number(struct fmt_parser *p, const char *field, uint32_t *out)
{
	struct token t;
	int64_t v;

	next(p, &t);
	v = t.kind == TOK_ITEM ? tok_atoi(&t) : -1;
	if (v < 0)
		return hp_fail(&t, field, "bad number");
	*out = (uint32_t) v;
	return TK_OK;
}

/*
 * One "\tfield: <type> <name>;\toffset:<n>;\tsize:<n>;\tsigned:<n>;\n" line, as
 * libtraceevent's parse_header_field() reads it: the type is a single item and the numbers
 * are read like atoi(). An optional field that is not there leaves the text unread.
 */
static enum tk_status hp_field(struct fmt_parser *p, const char *name, bool mandatory,
			       struct hp_field *out)
{
	struct lexer save = p->lx;
	enum tk_status st;
	uint32_t ignored;
	struct token t;
	bool ok;

	next(p, &t);
	ok = tok_is(&t, TOK_ITEM, "field");
	if (ok) {
		next(p, &t);
		ok = tok_is(&t, TOK_OP, ":");
	}
	if (ok) {
		next(p, &t); /* the type */
		ok = t.kind == TOK_ITEM;
	}
	if (ok) {
		next(p, &t);
		ok = tok_is(&t, TOK_ITEM, name);
	}
	if (!ok) {
		if (mandatory)
			return hp_fail(&t, name, "field missing");
		p->lx = save;
		return TK_OK;
	}
	if ((st = hp_expect(p, name, TOK_OP, ";")) < 0 ||
	    (st = hp_expect(p, name, TOK_ITEM, "offset")) < 0 ||
	    (st = hp_expect(p, name, TOK_OP, ":")) < 0 ||
	    (st = hp_number(p, name, &out->offset)) < 0 ||
	    (st = hp_expect(p, name, TOK_OP, ";")) < 0 ||
	    (st = hp_expect(p, name, TOK_ITEM, "size")) < 0 ||
	    (st = hp_expect(p, name, TOK_OP, ":")) < 0 ||
	    (st = hp_number(p, name, &out->size)) < 0 || (st = hp_expect(p, name, TOK_OP, ";")) < 0)
		return st;
	next(p, &t);
	if (tok_is(&t, TOK_ITEM, "signed")) {
		if ((st = hp_expect(p, name, TOK_OP, ":")) < 0 ||
		    (st = hp_number(p, name, &ignored)) < 0 ||
		    (st = hp_expect(p, name, TOK_OP, ";")) < 0)
			return st;
		next(p, &t);
	}
	/* the last line may lack its newline */
	if (t.kind != TOK_NEWLINE && t.kind != TOK_NONE)
		return hp_fail(&t, name, "expected end of line");
	return TK_OK;
}

enum tk_status ftrace_page_layout_parse(const char *text, size_t len,
					struct ftrace_page_layout *out)
{
	struct fmt_parser p = {0};
	struct hp_field ts = {0}, commit = {0}, overwrite = {0}, data = {0};
	enum tk_status st;

	TK_ASSERT_PRE(out && (text || !len));
	p.lx.s = text ? text : "";
	p.lx.len = len;
	p.lx.line = 1;
	p.system = "header_page";
	if ((st = hp_field(&p, "timestamp", true, &ts)) < 0 ||
	    (st = hp_field(&p, "commit", true, &commit)) < 0 ||
	    (st = hp_field(&p, "overwrite", false, &overwrite)) < 0 ||
	    (st = hp_field(&p, "data", true, &data)) < 0)
		return st;
	if (ts.size != 8)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot use header_page: timestamp-size=%u", ts.size);
	if (commit.size != 4 && commit.size != 8)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot use header_page: commit-size=%u",
			       commit.size);
	if ((uint64_t) ts.offset + ts.size > data.offset ||
	    (uint64_t) commit.offset + commit.size > data.offset ||
	    (uint64_t) data.offset + data.size > UINT32_MAX)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot use header_page: timestamp-offset=%u, commit-offset=%u, "
			       "data-offset=%u, data-size=%u",
			       ts.offset, commit.offset, data.offset, data.size);
	out->ts_offset = ts.offset;
	out->ts_size = ts.size;
	out->commit_offset = commit.offset;
	out->commit_size = commit.size;
	out->data_offset = data.offset;
	out->data_size = data.size;
	return TK_OK;
}

void ftrace_page_layout_default(struct ftrace_page_layout *out, uint32_t long_size,
				uint32_t page_size)
{
	out->ts_offset = 0;
	out->ts_size = 8;
	out->commit_offset = 8;
	out->commit_size = long_size;
	out->data_offset = 8 + long_size;
	out->data_size = page_size > 8 + long_size ? page_size - (8 + long_size) : 0;
}
