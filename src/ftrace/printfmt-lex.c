// SPDX-License-Identifier: MIT
/*
 * The tokenizer of print fmts: libtraceevent's token rules, kept exactly because the parser
 * decides on token types ("(" is a delimiter, "->" and ">=" are one operator each): items are
 * runs of letters, digits and '_', strings keep their escapes as written and adjacent ones are
 * joined, and a byte outside printable ASCII ends the input.
 */
#include <string.h>

#include "../common/vec.h"
#include "printfmt-int.h"

/* ------------------------------------------------------------------ character classes */

/* The C locale's classes (trace-cmd never calls setlocale()); negative values are none. */
bool ftrace_pf_c_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

bool ftrace_pf_c_digit(int c)
{
	return c >= '0' && c <= '9';
}

bool ftrace_pf_c_alnum(int c)
{
	return ftrace_pf_c_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool ftrace_pf_c_print(int c)
{
	return c >= 0x20 && c < 0x7f;
}

/* ------------------------------------------------------------------ tokenizer */

static int lex_get(struct pf_lex *p)
{
	if (p->pos >= p->len)
		return -1;
	/* libtraceevent reads plain (signed) chars: bytes >= 0x80 are negative, like EOF */
	return (signed char) p->buf[p->pos++];
}

static int lex_peek(const struct pf_lex *p)
{
	if (p->pos >= p->len)
		return -1;
	return (signed char) p->buf[p->pos];
}

static enum pf_tok char_type(int ch)
{
	if (ch == '\n')
		return FTRACE_PF_TOK_NEWLINE;
	if (ftrace_pf_c_space(ch))
		return FTRACE_PF_TOK_SPACE;
	if (ftrace_pf_c_alnum(ch) || ch == '_')
		return FTRACE_PF_TOK_ITEM;
	if (ch == '\'')
		return FTRACE_PF_TOK_SQUOTE;
	if (ch == '"')
		return FTRACE_PF_TOK_DQUOTE;
	if (!ftrace_pf_c_print(ch))
		return FTRACE_PF_TOK_NONE;
	if (ch == '(' || ch == ')' || ch == ',')
		return FTRACE_PF_TOK_DELIM;
	return FTRACE_PF_TOK_OP;
}

static void tb_add(struct pf_lex *p, int ch)
{
	char *c = vec_push(&p->tb, 1);

	if (!c) {
		p->nomem = true;
		return;
	}
	*c = (char) ch;
}

static void tb_drop(struct pf_lex *p)
{
	if (p->tb.len)
		p->tb.len--;
}

static char *tb_finish(struct pf_lex *p)
{
	char *s = arena_strndup(p->scratch, p->tb.data ? p->tb.data : "", p->tb.len);

	if (!s)
		p->nomem = true;
	return s;
}

static enum pf_tok lex_raw(struct pf_lex *p, char **tok);

/* libtraceevent replaces three macro names old kernels left in mac80211 formats. */
static enum pf_tok lex_forced(struct pf_lex *p, const char *text, char **tok)
{
	const char *buf = p->buf;
	size_t len = p->len, pos = p->pos;
	enum pf_tok type;

	p->buf = text;
	p->len = strlen(text);
	p->pos = 0;
	type = lex_raw(p, tok);
	p->buf = buf;
	p->len = len;
	p->pos = pos;
	return type;
}

/* One token of any type (libtraceevent's __read_token()). */
static enum pf_tok lex_raw(struct pf_lex *p, char **tok)
{
	int ch, last_ch, quote_ch, next_ch;
	enum pf_tok type;

	*tok = NULL;
	p->tb.len = 0;
	ch = lex_get(p);
	if (ch < 0)
		return FTRACE_PF_TOK_NONE;
	type = char_type(ch);
	if (type == FTRACE_PF_TOK_NONE)
		return type;
	tb_add(p, ch);

	switch (type) {
	case FTRACE_PF_TOK_NEWLINE:
	case FTRACE_PF_TOK_DELIM:
		*tok = tb_finish(p);
		return *tok ? type : FTRACE_PF_TOK_NONE;
	case FTRACE_PF_TOK_OP:
		switch (ch) {
		case '-':
			next_ch = lex_peek(p);
			if (next_ch == '>') {
				tb_add(p, lex_get(p));
				break;
			}
			/* fall through */
		case '+':
		case '|':
		case '&':
		case '>':
		case '<':
			last_ch = ch;
			ch = lex_peek(p);
			if (ch != last_ch)
				goto test_equal;
			tb_add(p, lex_get(p));
			if (last_ch == '>' || last_ch == '<')
				goto test_equal;
			break;
		case '!':
		case '=':
			goto test_equal;
		default:
			break;
		}
		*tok = tb_finish(p);
		return *tok ? type : FTRACE_PF_TOK_NONE;
test_equal:
		if (lex_peek(p) == '=')
			tb_add(p, lex_get(p));
		goto out;
	case FTRACE_PF_TOK_DQUOTE:
	case FTRACE_PF_TOK_SQUOTE:
		tb_drop(p); /* quotes are not kept */
		quote_ch = ch;
		last_ch = 0;
concat:
		do {
			last_ch = ch;
			ch = lex_get(p);
			tb_add(p, ch);
			/*
			 * libtraceevent meant "\\" to cancel itself, but the next round overwrites
			 * last_ch, so a quote after "\\" does not end the string either.
			 */
			if (ch == '\\' && last_ch == '\\')
				last_ch = 0;
			if (ch <= 0)
				break;
		} while ((ch != quote_ch && ftrace_pf_c_print(ch)) || last_ch == '\\' ||
			 ch == '\n');
		tb_drop(p); /* the closing quote */
		if (ch <= 0)
			type = FTRACE_PF_TOK_NONE;
		if (type == FTRACE_PF_TOK_DQUOTE) {
			/* "a" "b" is one string */
			size_t save = p->pos;

			do {
				ch = lex_get(p);
			} while (ftrace_pf_c_space(ch));
			if (ch == '"')
				goto concat;
			p->pos = save;
		}
		goto out;
	default:
		break;
	}
	while (char_type(lex_peek(p)) == type)
		tb_add(p, lex_get(p));
out:
	*tok = tb_finish(p);
	if (!*tok)
		return FTRACE_PF_TOK_NONE;
	if (type == FTRACE_PF_TOK_ITEM) {
		if (strcmp(*tok, "LOCAL_PR_FMT") == 0)
			return lex_forced(p, "\"%s\" ", tok);
		if (strcmp(*tok, "STA_PR_FMT") == 0)
			return lex_forced(p, "\" sta:%pM\" ", tok);
		if (strcmp(*tok, "VIF_PR_FMT") == 0)
			return lex_forced(p, "\" vif:%p(%d)\" ", tok);
	}
	return type;
}

/* The next token that is not a space (read_token()). */
enum pf_tok ftrace_pf_lex_token(struct pf_lex *p, char **tok)
{
	enum pf_tok type;

	do {
		type = lex_raw(p, tok);
	} while (type == FTRACE_PF_TOK_SPACE);
	return type;
}

/* The next token that is neither a space nor a newline (read_token_item()). */
enum pf_tok ftrace_pf_lex_item(struct pf_lex *p, char **tok)
{
	enum pf_tok type;

	do {
		type = lex_raw(p, tok);
	} while (type == FTRACE_PF_TOK_SPACE || type == FTRACE_PF_TOK_NEWLINE);
	return type;
}

bool ftrace_pf_is_tok(enum pf_tok type, const char *tok, enum pf_tok want, const char *text)
{
	return type == want && tok && strcmp(tok, text) == 0;
}

bool ftrace_pf_item_type(enum pf_tok type)
{
	return type == FTRACE_PF_TOK_ITEM || type == FTRACE_PF_TOK_DQUOTE ||
	       type == FTRACE_PF_TOK_SQUOTE;
}
