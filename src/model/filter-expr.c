// SPDX-License-Identifier: MIT
/*
 * Field predicates of the filter stage: `trace-cmd report -F` over the fields of any format.
 *
 * The syntax and its meaning follow what trace-cmd 3.1.6 (with libtraceevent 1.7) does, as
 * measured on the shared corpus (tests/interop/filter.sh):
 *
 * - "EVENTS[:EXPRESSION]": the event part runs to the first ':' and is a comma-separated
 *   list of SYSTEM/EVENT or EVENT, each a POSIX basic regular expression matched whole and
 *   without case; EVENT alone matches a system name or an event name. No expression keeps
 *   every event listed.
 * - A comparison is FIELD OP VALUE: numbers (decimal, 0x hex, leading-0 octal) with == != <
 *   <= > >= and & (true when the bitwise and is not 0); trace.dat fields compare as
 *   unsigned 64-bit values after signed fields are sign-extended (so -2 > 20, as in
 *   trace-cmd), CTF signed fields as signed ones (no oracle there; -2 < 20); quoted strings ('..' or "..", adjacent "..""..."
 *   joined, backslashes kept) with == != (exact) and =~ !~ (regular expression, basic,
 *   without case, anywhere in the text). A string compared with an integer field compares
 *   its value written "0x%llx".
 * - ! applies to the comparison or parenthesised group after it; && and || have one
 *   precedence and group from the left: "a || b && c" is "(a || b) && c".
 * - A field the event lacks makes its comparison false (so "!(bogus == 1)" is true). COMM
 *   and CPU, when no field has that name, are the task's name and the CPU.
 *
 * Departures, each where trace-cmd's answer is an accident: it takes a lone "~" as an
 * operator and then drops every event silently, and "a == 1 b == 2" as "b == 2"; both are
 * syntax errors here, as are trailing letters after a number ("12abc") and a field on the
 * right of a comparison. A negative number is its 64-bit two's complement ("-1" matches a
 * signed field holding -1). A field named in no listed event is an error, not a false
 * comparison, so that a typo does not print nothing. trace-cmd compares a pointer-sized
 * field to a string as the kernel symbol at that address; here always as 0x-hex.
 *
 * Per event the work is a walk of a small tree whose leaves were resolved per event class
 * when the predicate was bound: a raw-record field (trace.dat, read from the record through
 * the reader's hook, so copies that never decode values can use it), a top-level field of a
 * decoded scope (CTF: payload, event context, common context, packet context, in that
 * order), the task's name or the CPU.
 */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bytes.h"
#include "../common/error.h"
#include "filter-expr.h"

#define MAX_NODES 1024

/* A predicate in a cause: its first 100 bytes, so that the reason after it is never cut. */
#define SHORT(t)  (strlen(t) > 100 ? 100 : (int) strlen(t)), (t), (strlen(t) > 100 ? "..." : "")
#define MAX_DEPTH 64

enum cmp {
	CMP_EQ,
	CMP_NE,
	CMP_LT,
	CMP_LE,
	CMP_GT,
	CMP_GE,
	CMP_BAND,
	CMP_RE,
	CMP_NRE,
};

enum node_kind {
	NODE_AND,
	NODE_OR,
	NODE_NOT,
	NODE_CMP,
};

struct node {
	uint8_t kind;
	uint8_t cmp;
	uint8_t is_str; /* the value is a string (str, len), else a number (num) */
	uint8_t has_re;
	uint8_t neg;	/* the number was written negative */
	uint32_t a, b;	/* children: AND and OR both, NOT a */
	uint32_t field; /* NODE_CMP: index in fields[] */
	uint64_t num;
	char *str;
	size_t len;
	regex_t re;
};

enum place_kind {
	PLACE_NONE, /* the class lacks the field: the comparison is false */
	PLACE_RAW,  /* raw record field index */
	PLACE_SCOPE,
	PLACE_TASK_COMM,
	PLACE_CPU,
};

struct place {
	uint8_t kind;
	uint8_t fc_kind; /* MODEL_FC_INT, MODEL_FC_FLOAT or MODEL_FC_STRING */
	uint8_t is_signed;
	uint8_t scope;
	uint32_t index;		   /* raw field, or member of st */
	const struct model_fc *st; /* the scope's structure */
};

struct event_pat {
	char *sys, *name; /* as written, trimmed; sys NULL for EVENT alone */
	regex_t sys_re, name_re;
	uint8_t has_sys_re, has_name_re;
};

struct model_pred {
	char *text;
	struct event_pat *events;
	size_t n_events;
	struct node *nodes;
	size_t n_nodes, cap_nodes;
	int has_expr;
	uint32_t root;
	char **fields;
	size_t n_fields;
	/* bound */
	const struct tk_trace *trace;
	size_t n_classes;
	uint8_t *listed;  /* by class index */
	uint8_t *decode;  /* the class reads decoded scopes */
	struct place *pl; /* n_classes x n_fields */
};

/* ---- lexer ------------------------------------------------------------------------------- */

enum tok {
	T_END,
	T_NAME,
	T_NUM,
	T_STR,
	T_LP,
	T_RP,
	T_AND,
	T_OR,
	T_NOT,
	T_CMP,
	T_MINUS,
	T_OTHER, /* an operator we do not take */
};

struct parser {
	struct model_pred *p;
	const char *s;	 /* the expression */
	size_t off;	 /* where the expression starts in p->text */
	size_t pos;	 /* next character */
	int tok;	 /* current token */
	size_t start;	 /* its first character */
	size_t len;	 /* its length (strings: the content, quotes excluded) */
	char quote;	 /* T_STR: its quote */
	uint8_t cmp;	 /* T_CMP: which */
	const char *why; /* first error */
	size_t why_at;
};

static const char oom[] = "out of memory";

static int fail_at(struct parser *ps, size_t at, const char *why)
{
	if (!ps->why) {
		ps->why = why;
		ps->why_at = at;
	}
	return -1;
}

static int is_item(int c)
{
	return isalnum((unsigned char) c) || c == '_';
}

static void next(struct parser *ps)
{
	const char *s = ps->s;
	size_t i = ps->pos;
	char c;

	while (s[i] && isspace((unsigned char) s[i]))
		i++;
	ps->start = i;
	c = s[i];
	ps->len = 1;
	if (!c) {
		ps->tok = T_END;
		ps->len = 0;
	} else if (is_item(c)) {
		while (is_item(s[i]))
			i++;
		ps->tok = isdigit((unsigned char) c) ? T_NUM : T_NAME;
		ps->len = i - ps->start;
		ps->pos = i;
		return;
	} else if (c == '"' || c == '\'') {
		i++;
		while (s[i] && s[i] != c) {
			if (s[i] == '\\' && s[i + 1])
				i++; /* an escaped quote does not end the string; both stay */
			i++;
		}
		if (!s[i]) {
			ps->tok = T_OTHER;
			ps->len = i - ps->start;
			ps->pos = i;
			fail_at(ps, ps->start, "unterminated string");
			return;
		}
		ps->tok = T_STR;
		ps->quote = c;
		ps->start++;
		ps->len = i - ps->start;
		ps->pos = i + 1;
		return;
	} else if (c == '(' || c == ')') {
		ps->tok = c == '(' ? T_LP : T_RP;
	} else if (c == '&' && s[i + 1] == '&') {
		ps->tok = T_AND;
		ps->len = 2;
	} else if (c == '|' && s[i + 1] == '|') {
		ps->tok = T_OR;
		ps->len = 2;
	} else if ((c == '=' || c == '!') && (s[i + 1] == '=' || s[i + 1] == '~')) {
		ps->tok = T_CMP;
		ps->cmp = c == '=' ? (s[i + 1] == '=' ? CMP_EQ : CMP_RE)
				   : (s[i + 1] == '=' ? CMP_NE : CMP_NRE);
		ps->len = 2;
	} else if (c == '<' || c == '>') {
		ps->tok = T_CMP;
		if (s[i + 1] == '=') {
			ps->cmp = c == '<' ? CMP_LE : CMP_GE;
			ps->len = 2;
		} else if (s[i + 1] == c) {
			ps->tok = T_OTHER; /* << >> */
			ps->len = 2;
		} else {
			ps->cmp = c == '<' ? CMP_LT : CMP_GT;
		}
	} else if (c == '&') {
		ps->tok = T_CMP;
		ps->cmp = CMP_BAND;
	} else if (c == '!') {
		ps->tok = T_NOT;
	} else if (c == '-') {
		ps->tok = T_MINUS;
	} else {
		ps->tok = T_OTHER;
	}
	ps->pos = i + ps->len;
}

/* ---- parser ------------------------------------------------------------------------------ */

static int new_node(struct parser *ps, uint8_t kind, uint32_t *out)
{
	struct model_pred *p = ps->p;

	if (p->n_nodes == MAX_NODES)
		return fail_at(ps, ps->start, "too long (1024 terms at most)");
	if (p->n_nodes == p->cap_nodes) {
		size_t cap = p->cap_nodes ? 2 * p->cap_nodes : 8;
		struct node *n = realloc(p->nodes, cap * sizeof(*n));

		if (!n)
			return fail_at(ps, ps->start, oom);
		p->nodes = n;
		p->cap_nodes = cap;
	}
	memset(&p->nodes[p->n_nodes], 0, sizeof(p->nodes[0]));
	p->nodes[p->n_nodes].kind = kind;
	*out = (uint32_t) p->n_nodes++;
	return 0;
}

/* The index of field @name (@len bytes) in p->fields, added when new. */
static int field_index(struct parser *ps, const char *name, size_t len, uint32_t *out)
{
	struct model_pred *p = ps->p;
	char **f;
	size_t i;

	for (i = 0; i < p->n_fields; i++)
		if (strlen(p->fields[i]) == len && !memcmp(p->fields[i], name, len)) {
			*out = (uint32_t) i;
			return 0;
		}
	f = realloc(p->fields, (p->n_fields + 1) * sizeof(*f));
	if (!f)
		return fail_at(ps, ps->start, oom);
	p->fields = f;
	f[p->n_fields] = strndup(name, len);
	if (!f[p->n_fields])
		return fail_at(ps, ps->start, oom);
	*out = (uint32_t) p->n_fields++;
	return 0;
}

/* NUMBER or -NUMBER at the current token into @n. */
static int parse_number(struct parser *ps, struct node *n)
{
	char buf[64], *end;
	unsigned long long v;

	if (ps->tok == T_MINUS) {
		n->neg = 1;
		next(ps);
		if (ps->tok != T_NUM)
			return fail_at(ps, ps->start, "expected a number after '-'");
	}
	if (ps->len >= sizeof(buf))
		return fail_at(ps, ps->start, "number too long");
	memcpy(buf, ps->s + ps->start, ps->len);
	buf[ps->len] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || *end)
		return fail_at(ps, ps->start,
			       "bad number (decimal, 0x hexadecimal or 0 octal digits only)");
	n->num = n->neg ? (uint64_t) 0 - (uint64_t) v : (uint64_t) v;
	next(ps);
	return 0;
}

/* A quoted string, and the double-quoted ones right after a double-quoted one, into @n. */
static int parse_string(struct parser *ps, struct node *n)
{
	char q = ps->quote;

	for (;;) {
		char *s = realloc(n->str, n->len + ps->len + 1);

		if (!s)
			return fail_at(ps, ps->start, oom);
		memcpy(s + n->len, ps->s + ps->start, ps->len);
		n->len += ps->len;
		s[n->len] = '\0';
		n->str = s;
		next(ps);
		if (q != '"' || ps->tok != T_STR || ps->quote != '"')
			break;
	}
	n->is_str = 1;
	return 0;
}

static const char *op_hint(const struct parser *ps)
{
	char c = ps->s[ps->start];

	if (c == '~')
		return "unknown operator '~' (a regular expression matches with =~)";
	if (c == '=')
		return "unknown operator '=' (equality is ==)";
	return "unknown operator (comparisons: == != < <= > >= & =~ !~)";
}

/* FIELD OP VALUE, the current token being FIELD. */
static int parse_cmp(struct parser *ps, uint32_t *out)
{
	size_t name_at = ps->start, name_len = ps->len, op_at;
	uint32_t id, field;
	struct node *n;
	uint8_t cmp;
	int r;

	next(ps);
	if (ps->tok == T_OTHER)
		return fail_at(ps, ps->start, op_hint(ps));
	if (ps->tok != T_CMP)
		return fail_at(ps, ps->start,
			       "expected a comparison after the field (a field alone is not a "
			       "test: write prev_pid != 0)");
	cmp = ps->cmp;
	op_at = ps->start;
	next(ps);
	if (field_index(ps, ps->s + name_at, name_len, &field) < 0 ||
	    new_node(ps, NODE_CMP, &id) < 0)
		return -1;
	n = &ps->p->nodes[id];
	n->cmp = cmp;
	n->field = field;
	if (ps->tok == T_STR)
		r = parse_string(ps, &ps->p->nodes[id]);
	else if (ps->tok == T_NUM || ps->tok == T_MINUS)
		r = parse_number(ps, &ps->p->nodes[id]);
	else if (ps->tok == T_NAME)
		return fail_at(ps, ps->start,
			       "expected a number or a quoted string (fields compare with values, "
			       "not with other fields)");
	else
		return fail_at(ps, ps->start, "expected a number or a quoted string");
	if (r < 0)
		return -1;
	n = &ps->p->nodes[id];
	if (n->is_str && cmp != CMP_EQ && cmp != CMP_NE && cmp != CMP_RE && cmp != CMP_NRE)
		return fail_at(ps, op_at, "strings compare with ==, !=, =~ or !~");
	if (!n->is_str && (cmp == CMP_RE || cmp == CMP_NRE))
		return fail_at(ps, op_at, "=~ and !~ take a quoted regular expression");
	if (cmp == CMP_RE || cmp == CMP_NRE) {
		if (regcomp(&n->re, n->str, REG_ICASE | REG_NOSUB))
			return fail_at(ps, op_at, "bad regular expression");
		n->has_re = 1;
	}
	*out = id;
	return 0;
}

static int parse_expr(struct parser *ps, int depth, uint32_t *out);

/* ! UNARY | ( EXPR ) | FIELD OP VALUE */
static int parse_unary(struct parser *ps, int depth, uint32_t *out)
{
	uint32_t id, child;

	if (depth > MAX_DEPTH)
		return fail_at(ps, ps->start, "nested too deeply");
	switch (ps->tok) {
	case T_NOT:
		next(ps);
		if (parse_unary(ps, depth + 1, &child) < 0 || new_node(ps, NODE_NOT, &id) < 0)
			return -1;
		ps->p->nodes[id].a = child;
		*out = id;
		return 0;
	case T_LP:
		next(ps);
		if (parse_expr(ps, depth + 1, out) < 0)
			return -1;
		if (ps->tok != T_RP)
			return fail_at(ps, ps->start, "expected ')'");
		next(ps);
		return 0;
	case T_NAME:
		return parse_cmp(ps, out);
	case T_END:
		return fail_at(ps, ps->start, "expected a comparison");
	case T_OTHER:
		if (ps->s[ps->start] == ',')
			return fail_at(ps, ps->start, "unexpected ','");
		return fail_at(ps, ps->start, op_hint(ps));
	default:
		return fail_at(ps, ps->start, "expected a field name, '!' or '('");
	}
}

/* UNARY ((&& | ||) UNARY)*, grouped from the left at one precedence, as trace-cmd does. */
static int parse_expr(struct parser *ps, int depth, uint32_t *out)
{
	uint32_t left, right, id;

	if (parse_unary(ps, depth, &left) < 0)
		return -1;
	while (ps->tok == T_AND || ps->tok == T_OR) {
		uint8_t kind = ps->tok == T_AND ? NODE_AND : NODE_OR;

		next(ps);
		if (parse_unary(ps, depth, &right) < 0 || new_node(ps, kind, &id) < 0)
			return -1;
		ps->p->nodes[id].a = left;
		ps->p->nodes[id].b = right;
		left = id;
	}
	*out = left;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char) *s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char) e[-1]))
		*--e = '\0';
	return s;
}

/* "^PATTERN$", compiled as trace-cmd compiles event names. */
static int compile_name(regex_t *re, const char *pat)
{
	size_t n = strlen(pat);
	char *full = malloc(n + 3);
	int r;

	if (!full)
		return -1;
	full[0] = '^';
	memcpy(full + 1, pat, n);
	full[n + 1] = '$';
	full[n + 2] = '\0';
	r = regcomp(re, full, REG_ICASE | REG_NOSUB);
	free(full);
	return r ? -1 : 0;
}

/* The event part, @n bytes of p->text: SYSTEM/EVENT or EVENT, comma-separated. */
static enum tk_status parse_events(struct model_pred *p, size_t n)
{
	char *part = strndup(p->text, n), *save = NULL, *item;
	enum tk_status st = TK_OK;
	size_t count = 1, i;

	if (!part)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot parse predicate");
	for (i = 0; i < n; i++)
		count += part[i] == ',';
	p->events = calloc(count, sizeof(*p->events));
	if (!p->events) {
		free(part);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot parse predicate");
	}
	/* strsep keeps empty items, which name nothing and are errors */
	save = part;
	while (st >= 0 && (item = strsep(&save, ",")) != NULL) {
		struct event_pat *e = &p->events[p->n_events];
		char *slash = strchr(item, '/'), *sys = NULL, *name;

		if (slash) {
			*slash = '\0';
			sys = trim(item);
			name = trim(slash + 1);
			if (!*sys) /* "/EVENT": trace-cmd reads it as EVENT */
				sys = NULL;
			if (!*name) { /* "SYSTEM/": as SYSTEM alone */
				name = sys;
				sys = NULL;
			}
		} else {
			name = trim(item);
		}
		if (!name || !*name) {
			st = TK_FAIL(
				TK_ERR_INVAL,
				"Cannot parse predicate: predicate=%.*s%s, reason=an empty event "
				"name (EVENTS are SYSTEM/EVENT or EVENT, comma-separated)",
				SHORT(p->text));
			break;
		}
		e->name = strdup(name);
		e->sys = sys ? strdup(sys) : NULL;
		p->n_events++;
		if (!e->name || (sys && !e->sys)) {
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot parse predicate");
			break;
		}
		e->has_name_re = compile_name(&e->name_re, e->name) == 0;
		e->has_sys_re = sys && compile_name(&e->sys_re, e->sys) == 0;
		if (!e->has_name_re || (sys && !e->has_sys_re))
			st = TK_FAIL(
				TK_ERR_INVAL,
				"Cannot parse predicate: predicate=%.*s%s, event=%s, reason=not a "
				"regular expression",
				SHORT(p->text), sys && !e->has_sys_re ? e->sys : e->name);
	}
	free(part);
	return st;
}

enum tk_status model_pred_parse(struct model_pred **out, const char *text)
{
	struct model_pred *p;
	const char *colon;
	struct parser ps;
	enum tk_status st;

	p = calloc(1, sizeof(*p));
	if (!p || !(p->text = strdup(text))) {
		free(p);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot parse predicate");
	}
	colon = strchr(text, ':');
	st = parse_events(p, colon ? (size_t) (colon - text) : strlen(text));
	if (st < 0 || !colon) {
		if (st < 0)
			model_pred_destroy(p);
		else
			*out = p;
		return st;
	}
	memset(&ps, 0, sizeof(ps));
	ps.p = p;
	ps.s = colon + 1;
	ps.off = (size_t) (colon + 1 - text);
	next(&ps);
	if (parse_expr(&ps, 0, &p->root) == 0 && ps.tok != T_END)
		fail_at(&ps, ps.start,
			ps.tok == T_RP ? "unbalanced ')'" : "expected && or || between tests");
	if (ps.why) {
		st = TK_FAIL(ps.why == oom ? TK_ERR_NOMEM : TK_ERR_INVAL,
			     "Cannot parse predicate: predicate=%.*s%s, offset=%zu, reason=%s",
			     SHORT(text), ps.off + ps.why_at, ps.why);
		model_pred_destroy(p);
		return st;
	}
	p->has_expr = 1;
	*out = p;
	return TK_OK;
}

void model_pred_destroy(struct model_pred *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n_nodes; i++) {
		free(p->nodes[i].str);
		if (p->nodes[i].has_re)
			regfree(&p->nodes[i].re);
	}
	for (i = 0; i < p->n_events; i++) {
		if (p->events[i].has_name_re)
			regfree(&p->events[i].name_re);
		if (p->events[i].has_sys_re)
			regfree(&p->events[i].sys_re);
		free(p->events[i].name);
		free(p->events[i].sys);
	}
	for (i = 0; i < p->n_fields; i++)
		free(p->fields[i]);
	free(p->fields);
	free(p->events);
	free(p->nodes);
	free(p->listed);
	free(p->decode);
	free(p->pl);
	free(p->text);
	free(p);
}

static void put(char *buf, size_t size, size_t *len, const char *s, size_t n)
{
	size_t room = *len < size ? size - *len - 1 : 0;

	if (n > room)
		n = room;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
}

static void format_node(const struct model_pred *p, uint32_t id, char *buf, size_t size,
			size_t *len)
{
	static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">=", "&", "=~", "!~"};
	const struct node *n = &p->nodes[id];
	char num[32];

	switch (n->kind) {
	case NODE_AND:
	case NODE_OR:
		put(buf, size, len, "(", 1);
		format_node(p, n->a, buf, size, len);
		put(buf, size, len, n->kind == NODE_AND ? " && " : " || ", 4);
		format_node(p, n->b, buf, size, len);
		put(buf, size, len, ")", 1);
		return;
	case NODE_NOT:
		put(buf, size, len, "!(", 2);
		format_node(p, n->a, buf, size, len);
		put(buf, size, len, ")", 1);
		return;
	}
	put(buf, size, len, p->fields[n->field], strlen(p->fields[n->field]));
	put(buf, size, len, " ", 1);
	put(buf, size, len, ops[n->cmp], strlen(ops[n->cmp]));
	put(buf, size, len, " ", 1);
	if (n->is_str) {
		put(buf, size, len, "\"", 1);
		put(buf, size, len, n->str, n->len);
		put(buf, size, len, "\"", 1);
	} else {
		snprintf(num, sizeof(num), "%s%llu", n->neg ? "-" : "",
			 (unsigned long long) (n->neg ? (uint64_t) 0 - n->num : n->num));
		put(buf, size, len, num, strlen(num));
	}
}

void model_pred_format(const struct model_pred *p, char *buf, size_t size)
{
	size_t len = 0, i;

	if (!size)
		return;
	buf[0] = '\0';
	for (i = 0; i < p->n_events; i++) {
		if (i)
			put(buf, size, &len, ",", 1);
		if (p->events[i].sys) {
			put(buf, size, &len, p->events[i].sys, strlen(p->events[i].sys));
			put(buf, size, &len, "/", 1);
		}
		put(buf, size, &len, p->events[i].name, strlen(p->events[i].name));
	}
	if (p->has_expr) {
		put(buf, size, &len, ": ", 2);
		format_node(p, p->root, buf, size, &len);
	}
}

/* ---- binding ----------------------------------------------------------------------------- */

static int name_match(const regex_t *re, const char *s)
{
	return regexec(re, s, 0, NULL, 0) == 0;
}

static int member_index(const struct model_fc *st, const char *name)
{
	uint32_t i;

	if (!st || st->kind != MODEL_FC_STRUCT)
		return -1;
	for (i = 0; i < st->u.st.count; i++)
		if (!strcmp(st->u.st.members[i].name, name) ||
		    (st->u.st.members[i].orig_name && !strcmp(st->u.st.members[i].orig_name, name)))
			return (int) i;
	return -1;
}

/* What a member of class @fc holds for comparisons, or -1 (structures, plain arrays). */
static int value_kind(const struct model_fc *fc)
{
	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_ENUM:
		return MODEL_FC_INT;
	case MODEL_FC_FLOAT:
		return MODEL_FC_FLOAT;
	case MODEL_FC_STRING:
		return MODEL_FC_STRING;
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		return fc->is_text ? MODEL_FC_STRING : -1;
	}
	return -1;
}

/* Field @name among the top-level members of the scopes of @ec, in @order. */
static int find_scoped(const struct tk_event_class *ec, const char *name, const uint8_t *order,
		       size_t n, struct place *pl)
{
	size_t k;

	for (k = 0; k < n; k++) {
		const struct model_fc *st = NULL;
		int m;

		switch (order[k]) {
		case MODEL_SCOPE_PACKET_CONTEXT:
			st = ec->sc->packet_context;
			break;
		case MODEL_SCOPE_EVENT_COMMON_CONTEXT:
			st = ec->sc->event_context;
			break;
		case MODEL_SCOPE_EVENT_CONTEXT:
			st = ec->context;
			break;
		case MODEL_SCOPE_PAYLOAD:
			st = ec->payload;
			break;
		}
		m = member_index(st, name);
		if (m < 0)
			continue;
		pl->kind = PLACE_SCOPE;
		pl->scope = order[k];
		pl->index = (uint32_t) m;
		pl->st = st;
		pl->fc_kind = (uint8_t) value_kind(st->u.st.members[m].fc);
		pl->is_signed = st->u.st.members[m].fc->is_signed;
		if (value_kind(st->u.st.members[m].fc) < 0)
			pl->fc_kind = MODEL_FC_STRUCT;
		return 1;
	}
	return 0;
}

/* Where @ec keeps field @name (PLACE_NONE: nowhere). */
static struct place find_place(const struct tk_event_class *ec, const char *name)
{
	static const uint8_t all[] = {MODEL_SCOPE_PAYLOAD, MODEL_SCOPE_EVENT_CONTEXT,
				      MODEL_SCOPE_EVENT_COMMON_CONTEXT, MODEL_SCOPE_PACKET_CONTEXT};
	static const uint8_t contexts[] = {MODEL_SCOPE_EVENT_COMMON_CONTEXT,
					   MODEL_SCOPE_EVENT_CONTEXT};
	static const uint8_t packet[] = {MODEL_SCOPE_PACKET_CONTEXT};
	const struct model_source_ops *ops = ec->sc->source->ops;
	struct place pl;
	struct model_raw_field rf;
	uint32_t i;

	memset(&pl, 0, sizeof(pl));
	if (ops && ops->raw_field) {
		for (i = 0; ops->raw_field(ec, i, &rf); i++)
			if (!strcmp(rf.name, name)) {
				pl.kind = PLACE_RAW;
				pl.index = i;
				pl.fc_kind = rf.kind == MODEL_FC_ARRAY ? MODEL_FC_STRUCT : rf.kind;
				return pl;
			}
	} else if (find_scoped(ec, name, all, 4, &pl)) {
		return pl;
	}
	if (!strcmp(name, "COMM")) {
		if (ops && ops->task) {
			pl.kind = PLACE_TASK_COMM;
			pl.fc_kind = MODEL_FC_STRING;
		} else if (find_scoped(ec, "procname", contexts, 2, &pl) &&
			   pl.fc_kind != MODEL_FC_STRING) {
			memset(&pl, 0, sizeof(pl));
		}
	} else if (!strcmp(name, "CPU")) {
		if (ops && ops->task) {
			pl.kind = PLACE_CPU;
			pl.fc_kind = MODEL_FC_INT;
		} else if (find_scoped(ec, "cpu_id", packet, 1, &pl) &&
			   pl.fc_kind != MODEL_FC_INT) {
			memset(&pl, 0, sizeof(pl));
		}
	}
	return pl;
}

/* "; did you mean X?": the field names of the listed classes nearest to @name. */
static void suggest_field(const struct model_pred *p, const struct tk_trace *t, const char *name,
			  char *buf, size_t size)
{
	size_t best = SIZE_MAX, limit = strlen(name) / 3 + 2, len = 0, i;
	int pass;

	buf[0] = '\0';
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < t->n_ecs; i++) {
			const struct tk_event_class *ec = t->ecs[i];
			const struct model_source_ops *ops = ec->sc->source->ops;
			const struct model_fc *scopes[4] = {ec->payload, ec->context,
							    ec->sc->event_context,
							    ec->sc->packet_context};
			struct model_raw_field rf;
			uint32_t k, s;

			if (!p->listed[ec->index])
				continue;
			for (s = 0; s < 4; s++) {
				const struct model_fc *st = scopes[s];
				uint32_t count = 0;

				if (ops && ops->raw_field)
					count = s == 0 ? UINT32_MAX : 0;
				else if (st && st->kind == MODEL_FC_STRUCT)
					count = st->u.st.count;
				for (k = 0; k < count; k++) {
					const char *cand;
					size_t d;

					if (ops && ops->raw_field) {
						if (!ops->raw_field(ec, k, &rf))
							break;
						cand = rf.name;
					} else {
						cand = st->u.st.members[k].name;
					}
					d = model_edit_distance(name, cand);
					if (pass == 0) {
						if (d < best)
							best = d;
						continue;
					}
					if (d != best || best > limit || strstr(buf, cand) ||
					    len + strlen(cand) + 20 >= size)
						continue;
					len += (size_t) snprintf(buf + len, size - len, "%s%s",
								 len ? ", " : "; did you mean ",
								 cand);
				}
			}
		}
	if (len)
		snprintf(buf + len, size - len, "?");
}

static enum tk_status list_classes(struct model_pred *p, struct tk_trace *t)
{
	size_t i, k;

	for (k = 0; k < p->n_events; k++) {
		const struct event_pat *e = &p->events[k];
		int any = 0;

		for (i = 0; i < t->n_ecs; i++) {
			char sys[128];
			const char *name;
			int hit;

			model_class_names(t->ecs[i], sys, sizeof(sys), &name);
			if (e->sys)
				hit = name_match(&e->sys_re, sys) && name_match(&e->name_re, name);
			else
				hit = name_match(&e->name_re, sys) || name_match(&e->name_re, name);
			if (hit) {
				p->listed[t->ecs[i]->index] = 1;
				any = 1;
			}
		}
		if (!any) {
			char hint[512], spec[256];

			snprintf(spec, sizeof(spec), "%s%s%s", e->sys ? e->sys : "",
				 e->sys ? ":" : "", e->name);
			model_filter_suggest(t, spec, hint, sizeof(hint));
			return TK_FAIL(TK_ERR_NOTFOUND,
				       "Cannot use predicate: predicate=%.*s%s, event=%s%s%s, "
				       "reason=no event matches it%s",
				       SHORT(p->text), e->sys ? e->sys : "", e->sys ? "/" : "",
				       e->name, hint);
		}
	}
	return TK_OK;
}

/* Each comparison against the kind of its field in @ec. */
static enum tk_status check_kinds(const struct model_pred *p, const struct tk_event_class *ec,
				  const struct place *row)
{
	size_t i;

	for (i = 0; i < p->n_nodes; i++) {
		const struct node *n = &p->nodes[i];
		const struct place *pl;
		const char *why = NULL;

		if (n->kind != NODE_CMP)
			continue;
		pl = &row[n->field];
		if (pl->kind == PLACE_NONE)
			continue;
		if (pl->fc_kind == MODEL_FC_STRUCT)
			why = "it is neither a number nor a string";
		else if (!n->is_str && pl->fc_kind == MODEL_FC_STRING)
			why = "it holds text: compare it with a quoted string";
		else if (n->is_str && pl->fc_kind == MODEL_FC_FLOAT)
			why = "it holds a real number: compare it with a number";
		if (why)
			return TK_FAIL(
				TK_ERR_INVAL,
				"Cannot use predicate: predicate=%.*s%s, field=%s, event=%s, "
				"reason=%s",
				SHORT(p->text), p->fields[n->field], ec->name ? ec->name : "", why);
	}
	return TK_OK;
}

enum tk_status model_pred_bind(struct model_pred *p, struct tk_trace *t)
{
	size_t i, k, nf = p->n_fields;
	uint8_t *found;
	enum tk_status st;

	p->trace = t;
	p->n_classes = t->n_ecs;
	p->listed = calloc(t->n_ecs + 1, 1);
	p->decode = calloc(t->n_ecs + 1, 1);
	p->pl = calloc(t->n_ecs * nf + 1, sizeof(*p->pl));
	found = calloc(nf + 1, 1);
	if (!p->listed || !p->decode || !p->pl || !found) {
		free(found);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot use predicate: predicate=%.*s%s",
			       SHORT(p->text));
	}
	st = list_classes(p, t);
	for (i = 0; st >= 0 && i < t->n_ecs; i++) {
		const struct tk_event_class *ec = t->ecs[i];
		struct place *row = &p->pl[ec->index * nf];

		if (!p->listed[ec->index])
			continue;
		st = model_class_load(ec); /* the classes it lists: their fields are looked up */
		if (st < 0)
			break;
		for (k = 0; k < nf; k++) {
			row[k] = find_place(ec, p->fields[k]);
			found[k] |= row[k].kind != PLACE_NONE;
			p->decode[ec->index] |= row[k].kind == PLACE_SCOPE;
		}
		st = check_kinds(p, ec, row);
	}
	for (k = 0; st >= 0 && k < nf; k++)
		if (!found[k]) {
			char hint[512];

			suggest_field(p, t, p->fields[k], hint, sizeof(hint));
			st = TK_FAIL(
				TK_ERR_NOTFOUND,
				"Cannot use predicate: predicate=%.*s%s, field=%s, reason=no event "
				"it selects has this field%s",
				SHORT(p->text), p->fields[k], hint);
		}
	free(found);
	return st;
}

int model_pred_lists(const struct model_pred *p, const struct tk_event_class *ec)
{
	return ec->index < p->n_classes && p->listed[ec->index];
}

/* ---- evaluation -------------------------------------------------------------------------- */

/* "0x%llx" of @v into @buf (19 bytes at least); returns the length. */
static size_t hex(uint64_t v, char *buf)
{
	static const char digits[] = TK_HEX_LOWER;
	char tmp[16];
	size_t n = 0, i;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	buf[0] = '0';
	buf[1] = 'x';
	for (i = 0; i < n; i++)
		buf[2 + i] = tmp[n - 1 - i];
	buf[2 + n] = '\0';
	return n + 2;
}

struct value {
	uint64_t u;
	double d;
	const char *s;
	size_t n;
};

static void read_value(const struct tk_event *ev, const struct place *pl, struct value *v)
{
	const struct model_source_ops *ops = ev->stream->source->ops;
	const struct model_value *mv;
	struct model_raw_value rv;
	int64_t pid;
	uint32_t i;

	memset(v, 0, sizeof(*v));
	v->s = "";
	switch (pl->kind) {
	case PLACE_RAW:
		ops->raw_value(ev, pl->index, &rv);
		v->u = rv.u;
		v->s = rv.s;
		v->n = rv.n;
		break;
	case PLACE_TASK_COMM:
		ops->task(ev, &pid, &v->s);
		v->n = strlen(v->s);
		break;
	case PLACE_CPU:
		v->u = (uint64_t) (int64_t) ev->cpu;
		break;
	case PLACE_SCOPE:
		mv = ev->scope[pl->scope];
		if (!mv)
			break;
		for (i = 0; i < pl->index; i++)
			mv = model_value_skip(pl->st->u.st.members[i].fc, mv);
		if (pl->fc_kind == MODEL_FC_STRING) {
			v->s = mv->v.s ? mv->v.s : "";
			v->n = mv->v.s ? (size_t) mv->n : 0;
		} else if (pl->fc_kind == MODEL_FC_FLOAT) {
			v->d = mv->v.d;
		} else {
			v->u = pl->st->u.st.members[pl->index].fc->is_signed ? (uint64_t) mv->v.i
									     : mv->v.u;
		}
		break;
	}
}

static int cmp_str(const struct node *n, const char *s, size_t len)
{
	regmatch_t m;

	switch (n->cmp) {
	case CMP_EQ:
		return len == n->len && !memcmp(s, n->str, len);
	case CMP_NE:
		return !(len == n->len && !memcmp(s, n->str, len));
	default:
		m.rm_so = 0;
		m.rm_eo = (regoff_t) len;
		return (regexec(&n->re, s, 1, &m, REG_STARTEND) == 0) == (n->cmp == CMP_RE);
	}
}

static int cmp_signed(const struct node *n, int64_t v)
{
	int64_t w = (int64_t) n->num;

	switch (n->cmp) {
	case CMP_LT:
		return v < w;
	case CMP_LE:
		return v <= w;
	case CMP_GT:
		return v > w;
	default:
		return v >= w;
	}
}

static int cmp_num(const struct node *n, uint64_t v, int is_signed)
{
	if (is_signed && n->cmp >= CMP_LT && n->cmp <= CMP_GE)
		return cmp_signed(n, (int64_t) v);
	switch (n->cmp) {
	case CMP_EQ:
		return v == n->num;
	case CMP_NE:
		return v != n->num;
	case CMP_LT:
		return v < n->num;
	case CMP_LE:
		return v <= n->num;
	case CMP_GT:
		return v > n->num;
	case CMP_GE:
		return v >= n->num;
	default:
		return (v & n->num) != 0;
	}
}

static int cmp_real(const struct node *n, double v)
{
	double w = n->neg ? (double) (int64_t) n->num : (double) n->num;

	switch (n->cmp) {
	case CMP_EQ:
		return v == w;
	case CMP_NE:
		return v != w;
	case CMP_LT:
		return v < w;
	case CMP_LE:
		return v <= w;
	case CMP_GT:
		return v > w;
	case CMP_GE:
		return v >= w;
	default:
		return ((uint64_t) (int64_t) v & n->num) != 0;
	}
}

static int eval(const struct model_pred *p, const struct place *row, const struct tk_event *ev,
		uint32_t id)
{
	const struct node *n = &p->nodes[id];
	const struct place *pl;
	struct value v;
	char buf[24];

	switch (n->kind) {
	case NODE_AND:
		return eval(p, row, ev, n->a) && eval(p, row, ev, n->b);
	case NODE_OR:
		return eval(p, row, ev, n->a) || eval(p, row, ev, n->b);
	case NODE_NOT:
		return !eval(p, row, ev, n->a);
	}
	pl = &row[n->field];
	if (pl->kind == PLACE_NONE)
		return 0;
	read_value(ev, pl, &v);
	if (n->is_str) {
		if (pl->fc_kind == MODEL_FC_STRING)
			return cmp_str(n, v.s, v.n);
		return cmp_str(n, buf, hex(v.u, buf));
	}
	if (pl->fc_kind == MODEL_FC_FLOAT)
		return cmp_real(n, v.d);
	return cmp_num(n, v.u, pl->is_signed);
}

enum tk_status model_pred_match(const struct model_pred *p, const struct tk_event *ev, int *match)
{
	size_t c = ev->ec->index;
	enum tk_status st;

	*match = 0;
	if (c >= p->n_classes || !p->listed[c])
		return TK_OK;
	if (!p->has_expr) {
		*match = 1;
		return TK_OK;
	}
	if (p->decode[c]) {
		st = model_event_values(ev);
		if (st < 0)
			return st;
	}
	*match = eval(p, &p->pl[c * p->n_fields], ev, p->root);
	return TK_OK;
}
