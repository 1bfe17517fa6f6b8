// SPDX-License-Identifier: MIT
/*
 * TSDL lexer (CTF 1.8.3 section 7.1, which follows C99 lexical rules): comments, identifiers,
 * keywords, C integer literals with suffixes, string and character literals with C escapes,
 * and punctuation. The whole text is tokenized up front so the parser can look ahead freely.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bytes.h"
#include "../common/error.h"
#include "tsdl.h"

static const struct {
	const char *word;
	uint8_t tok;
} keywords[] = {
	{"align", TSDL_T_ALIGN},
	{"const", TSDL_T_CONST},
	{"char", TSDL_T_KW_CHAR},
	{"clock", TSDL_T_CLOCK},
	{"double", TSDL_T_DOUBLE},
	{"enum", TSDL_T_ENUM},
	{"env", TSDL_T_ENV},
	{"event", TSDL_T_EVENT},
	{"floating_point", TSDL_T_FLOATING_POINT},
	{"float", TSDL_T_FLOAT},
	{"integer", TSDL_T_INTEGER},
	{"int", TSDL_T_INT_KW},
	{"long", TSDL_T_LONG},
	{"short", TSDL_T_SHORT},
	{"signed", TSDL_T_SIGNED},
	{"stream", TSDL_T_STREAM},
	{"string", TSDL_T_KW_STRING},
	{"struct", TSDL_T_STRUCT},
	{"trace", TSDL_T_TRACE},
	{"callsite", TSDL_T_CALLSITE},
	{"typealias", TSDL_T_TYPEALIAS},
	{"typedef", TSDL_T_TYPEDEF},
	{"unsigned", TSDL_T_UNSIGNED},
	{"variant", TSDL_T_VARIANT},
	{"void", TSDL_T_VOID},
	{"_Bool", TSDL_T_BOOL},
	{"_Complex", TSDL_T_COMPLEX},
	{"_Imaginary", TSDL_T_IMAGINARY},
};

static int is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static struct tsdl_token *push_tok(struct tsdl_parser *p, uint8_t kind, int line)
{
	struct tsdl_token *t = vec_push(&p->toks, sizeof(*t));

	if (t) {
		t->kind = kind;
		t->line = line;
	}
	return t;
}

/* Unescape the body of a quoted literal (between the quotes) into the arena. */
/* Lines (newline bytes) in @s[@from, @to). */
static int count_lines(const char *s, size_t from, size_t to)
{
	int n = 0;
	const char *p = s + from, *end = s + to;

	while ((p = memchr(p, '\n', (size_t) (end - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

/*
 * Where the literal that starts at @j ends: its closing @quote, or @len when unterminated. A
 * backslash escapes the byte after it; newlines met are added to *@line.
 */
static size_t literal_end(const char *s, size_t len, size_t j, char quote, int *line)
{
	const char *q = NULL; /* the next quote at or after j, found again once passed */

	while (j < len) {
		size_t stop;
		const char *b;

		if (!q || q < s + j)
			q = memchr(s + j, quote, len - j);
		stop = q ? (size_t) (q - s) : len;
		b = memchr(s + j, '\\', stop - j);

		if (!b) {
			*line += count_lines(s, j, stop);
			return stop;
		}
		*line += count_lines(s, j, (size_t) (b - s));
		j = (size_t) (b - s) + 1;
		if (j == len)
			return len; /* a backslash last: unterminated */
		if (s[j] == '\n')
			(*line)++;
		j++;
	}
	return len;
}

static enum tk_status lex_quoted(struct tsdl_parser *p, const char *s, size_t n, int line,
				 const char **out)
{
	char *dst = arena_alloc(p->arena, n + 1);
	size_t i, o = 0;

	if (!dst)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read metadata string: line=%d", line);
	for (i = 0; i < n; i++) {
		/* the text up to the next escape in one copy: environment strings are long */
		const char *esc = memchr(s + i, '\\', n - i);
		size_t run = esc ? (size_t) (esc - (s + i)) : n - i;
		char c;

		memcpy(dst + o, s + i, run);
		o += run;
		i += run;
		if (i == n)
			break;
		if (++i == n)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read metadata string: line=%d, "
				       "reason=escape at end",
				       line);
		c = s[i];
		switch (c) {
		case 'n':
			dst[o++] = '\n';
			break;
		case 't':
			dst[o++] = '\t';
			break;
		case 'r':
			dst[o++] = '\r';
			break;
		case 'a':
			dst[o++] = '\a';
			break;
		case 'b':
			dst[o++] = '\b';
			break;
		case 'f':
			dst[o++] = '\f';
			break;
		case 'v':
			dst[o++] = '\v';
			break;
		case 'e':
			dst[o++] = 27;
			break;
		case 'x': {
			int v = 0, d, k = 0;

			while (i + 1 < n && k < 2 && (d = tk_hex_value(s[i + 1])) >= 0) {
				v = v * 16 + d;
				i++;
				k++;
			}
			if (!k)
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot read metadata string: line=%d, "
					       "reason=bad \\x escape",
					       line);
			dst[o++] = (char) v;
			break;
		}
		default:
			if (c >= '0' && c <= '7') {
				int v = c - '0', k = 1;

				while (i + 1 < n && k < 3 && s[i + 1] >= '0' && s[i + 1] <= '7') {
					v = v * 8 + (s[++i] - '0');
					k++;
				}
				dst[o++] = (char) v;
			} else {
				/* \\ \" \' \? and any other character stand for themselves */
				dst[o++] = c;
			}
			break;
		}
	}
	dst[o] = '\0';
	*out = dst;
	return TK_OK;
}

static enum tk_status lex_number(struct tsdl_parser *p, const char *s, size_t len, size_t *pos,
				 int line)
{
	size_t i = *pos, start = i;
	int base = 10;
	uint64_t v = 0;
	int any = 0;
	struct tsdl_token *t;

	if (s[i] == '0' && i + 1 < len && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	} else if (s[i] == '0') {
		base = 8;
		i++;
		any = 1;
	}
	for (; i < len; i++) {
		int d = base == 16 ? tk_hex_value(s[i]) : (is_digit(s[i]) ? s[i] - '0' : -1);

		if (d < 0 || d >= base)
			break;
		if (v > (UINT64_MAX - (uint64_t) d) / (uint64_t) base)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read metadata integer: line=%d, text=%.*s, "
				       "reason=does not fit in 64 bits",
				       line, (int) (i + 1 - start), s + start);
		v = v * (uint64_t) base + (uint64_t) d;
		any = 1;
	}
	if (!any)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read metadata integer: line=%d, "
			       "reason=hexadecimal prefix without digits",
			       line);
	if (i < len && is_digit(s[i])) {
		/* an 8 or 9 in an octal literal: longest run of digits must be consumed */
		while (i < len && (is_digit(s[i]) || is_ident_start(s[i])))
			i++;
		return TK_FAIL(TK_ERR_FORMAT, "Cannot read metadata integer: line=%d, text=%.*s",
			       line, (int) (i - start), s + start);
	}
	/* C integer suffixes: any mix of u and l letters */
	while (i < len && (s[i] == 'u' || s[i] == 'U' || s[i] == 'l' || s[i] == 'L'))
		i++;
	if (i < len && (is_ident_start(s[i]) || is_digit(s[i])))
		return TK_FAIL(TK_ERR_FORMAT, "Cannot read metadata integer: line=%d, text=%.*s",
			       line, (int) (i + 1 - start), s + start);
	t = push_tok(p, TSDL_T_INT, line);
	if (!t)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read metadata: line=%d", line);
	t->value = v;
	*pos = i;
	return TK_OK;
}

enum tk_status tsdl_lex(struct tsdl_parser *p, const char *s, size_t len)
{
	size_t i = 0;
	int line = 1;
	enum tk_status st;

	while (i < len) {
		char c = s[i];
		struct tsdl_token *t;
		uint8_t kind;

		if (c == '\n') {
			line++;
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < len && s[i + 1] == '*') {
			size_t j = i + 2;
			int start_line = line;

			while (j + 1 < len && !(s[j] == '*' && s[j + 1] == '/')) {
				if (s[j] == '\n')
					line++;
				j++;
			}
			if (j + 1 >= len)
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot read metadata: line=%d, "
					       "reason=unterminated comment",
					       start_line);
			i = j + 2;
			continue;
		}
		if (c == '/' && i + 1 < len && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
			continue;
		}
		if (is_ident_start(c)) {
			size_t j = i;
			size_t k;
			const char *text;

			while (j < len && (is_ident_start(s[j]) || is_digit(s[j])))
				j++;
			kind = TSDL_T_IDENT;
			for (k = 0; k < TK_ARRAY_SIZE(keywords); k++) {
				if (strlen(keywords[k].word) == j - i &&
				    !memcmp(keywords[k].word, s + i, j - i)) {
					kind = keywords[k].tok;
					break;
				}
			}
			text = arena_strndup(p->arena, s + i, j - i);
			t = push_tok(p, kind, line);
			if (!t || !text)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot read metadata: line=%d", line);
			t->text = text;
			i = j;
			continue;
		}
		if (is_digit(c)) {
			st = lex_number(p, s, len, &i, line);
			if (st < 0)
				return st;
			continue;
		}
		if (c == '"' || c == '\'') {
			size_t j = i + 1;
			const char *text = NULL;

			j = literal_end(s, len, j, c, &line);
			if (j >= len)
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot read metadata: line=%d, "
					       "reason=unterminated literal",
					       line);
			st = lex_quoted(p, s + i + 1, j - i - 1, line, &text);
			if (st < 0)
				return st;
			t = push_tok(p, c == '"' ? TSDL_T_STRING : TSDL_T_CHAR, line);
			if (!t)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot read metadata: line=%d", line);
			t->text = text;
			i = j + 1;
			continue;
		}
		switch (c) {
		case '[':
			kind = TSDL_T_LBRACK;
			break;
		case ']':
			kind = TSDL_T_RBRACK;
			break;
		case '(':
			kind = TSDL_T_LPAREN;
			break;
		case ')':
			kind = TSDL_T_RPAREN;
			break;
		case '{':
			kind = TSDL_T_LBRACE;
			break;
		case '}':
			kind = TSDL_T_RBRACE;
			break;
		case '*':
			kind = TSDL_T_STAR;
			break;
		case '+':
			kind = TSDL_T_PLUS;
			break;
		case '<':
			kind = TSDL_T_LT;
			break;
		case '>':
			kind = TSDL_T_GT;
			break;
		case ';':
			kind = TSDL_T_SEMI;
			break;
		case '=':
			kind = TSDL_T_EQUAL;
			break;
		case ',':
			kind = TSDL_T_COMMA;
			break;
		case '-':
			if (i + 1 < len && s[i + 1] == '>') {
				kind = TSDL_T_ARROW;
				i++;
			} else {
				kind = TSDL_T_MINUS;
			}
			break;
		case ':':
			if (i + 1 < len && s[i + 1] == '=') {
				kind = TSDL_T_TYPEASSIGN;
				i++;
			} else {
				kind = TSDL_T_COLON;
			}
			break;
		case '.':
			if (i + 2 < len && s[i + 1] == '.' && s[i + 2] == '.') {
				kind = TSDL_T_ELLIPSIS;
				i += 2;
			} else {
				kind = TSDL_T_DOT;
			}
			break;
		default:
			return TK_FAIL(
				TK_ERR_FORMAT,
				"Cannot read metadata: line=%d, reason=invalid character 0x%02x",
				line, (unsigned int) (unsigned char) c);
		}
		if (!push_tok(p, kind, line))
			return TK_FAIL(TK_ERR_NOMEM, "Cannot read metadata: line=%d", line);
		i++;
	}
	if (!push_tok(p, TSDL_T_EOF, line))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read metadata: line=%d", line);
	return TK_OK;
}
