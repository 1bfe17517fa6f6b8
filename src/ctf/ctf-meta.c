// SPDX-License-Identifier: MIT
/*
 * CTF 1.8 metadata semantics: from the TSDL syntax tree to the trace model.
 *
 * Blocks are visited in the order the specification's declarations require, which is also
 * babeltrace2's: the trace byte order first (types may say `byte_order = native`), then
 * environment, clocks (integers may map to clocks declared later in the text), root type
 * declarations, the trace block, streams and events. Type aliases, named structures, variants
 * and enumerations live in lexical scopes and are copied at each use, so each field owns its
 * field class. Field names drop one leading underscore (CTF 1.8.3 section 7.3.1).
 *
 * Attributes babeltrace2 does not know are ignored with a warning count, like babeltrace2;
 * everything it rejects is rejected with a cause naming the metadata line.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/str.h"
#include "ctf-fc-priv.h"
#include "ctf.h"

enum decl_kind {
	DECL_ALIAS,
	DECL_STRUCT,
	DECL_VARIANT,
	DECL_ENUM,
};

struct decl_entry {
	uint8_t kind;
	const char *name;
	struct model_fc *fc;
};

struct decl_scope {
	struct decl_scope *parent;
	struct vec entries; /* struct decl_entry */
};

struct meta {
	struct tk_source *src;
	struct ctf_trace *ct;
	struct arena *a;
	struct decl_scope *scope;
	struct vec clocks; /* struct tk_clock * */
	struct vec env;	   /* struct model_env */
	struct vec scs;	   /* struct ctf_sc_build */
	int depth;
	int end_line; /* the last line of the text, where what is missing would be */
};

#define META_MAX_DEPTH 64

#define META_NOMEM(node) TK_FAIL(TK_ERR_NOMEM, "Cannot build metadata: line=%d", (node)->line)

static enum tk_status visit_specs(struct meta *m, const struct tsdl_node *specs,
				  struct model_fc **out);
static enum tk_status visit_declarator(struct meta *m, const struct tsdl_node *specs,
				       const struct tsdl_node *decl, struct model_fc **out);
static enum tk_status register_decls(struct meta *m, const struct tsdl_node *n);

/* ---- scopes ---------------------------------------------------------------------------- */

static enum tk_status scope_push(struct meta *m, int line)
{
	struct decl_scope *s = calloc(1, sizeof(*s));

	if (!s)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build metadata: line=%d", line);
	s->parent = m->scope;
	m->scope = s;
	return TK_OK;
}

static void scope_pop(struct meta *m)
{
	struct decl_scope *s = m->scope;

	m->scope = s->parent;
	vec_fini(&s->entries);
	free(s);
}

static struct decl_entry *scope_find(struct decl_scope *s, uint8_t kind, const char *name,
				     int all_levels)
{
	size_t i;

	for (; s; s = all_levels ? s->parent : NULL) {
		for (i = 0; i < s->entries.len; i++) {
			struct decl_entry *e = &VEC_AT(&s->entries, struct decl_entry, i);

			if (e->kind == kind && !strcmp(e->name, name))
				return e;
		}
	}
	return NULL;
}

static enum tk_status scope_add(struct meta *m, uint8_t kind, const char *name, struct model_fc *fc,
				int line)
{
	struct decl_entry *e;

	if (scope_find(m->scope, kind, name, 0))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot declare type: line=%d, name=%s, "
			       "reason=already declared in this scope",
			       line, name);
	e = vec_push(&m->scope->entries, sizeof(*e));
	if (!e)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build metadata: line=%d", line);
	e->kind = (uint8_t) kind;
	e->name = name;
	e->fc = fc;
	return TK_OK;
}

/* ---- field class helpers --------------------------------------------------------------- */

/*
 * A field class of @kind, a struct ctf_fc like every field class of the reader, hidden
 * until ctf-resolve.c finds users are shown it.
 */
struct model_fc *ctf_fc_new(struct arena *a, uint8_t kind, enum tk_byte_order bo)
{
	struct ctf_fc *cfc = arena_alloc(a, sizeof(*cfc));
	struct model_fc *fc;

	if (!cfc)
		return NULL;
	cfc->store = -1;
	fc = &cfc->fc;
	fc->kind = kind;
	fc->align = 1;
	fc->base = 10;
	fc->hidden = 1;
	fc->byte_order = (uint8_t) bo;
	return fc;
}

static struct model_fc *fc_new(struct meta *m, uint8_t kind)
{
	return ctf_fc_new(m->a, kind, m->ct->bo);
}

static const char *strip_underscore(const char *name)
{
	return name[0] == '_' ? name + 1 : name;
}

/*
 * Copy of a field class tree. Like babeltrace2 2.0, a copied structure or variant takes its
 * members' shown names as their written names, so they lose one more leading underscore.
 */
struct model_fc *ctf_fc_copy(struct arena *a, const struct model_fc *fc)
{
	struct ctf_fc *cc;
	struct model_fc *c;
	uint32_t i;

	if (!fc)
		return NULL;
	cc = arena_alloc(a, sizeof(*cc));
	if (!cc)
		return NULL;
	*cc = *(const struct ctf_fc *) fc; /* fc is one of ours: its annotations too */
	c = &cc->fc;
	switch (fc->kind) {
	case MODEL_FC_STRUCT:
	case MODEL_FC_VARIANT: {
		uint32_t n = fc->kind == MODEL_FC_STRUCT ? fc->u.st.count : fc->u.var.count;
		const struct model_member *src =
			fc->kind == MODEL_FC_STRUCT ? fc->u.st.members : fc->u.var.options;
		struct model_member *dst = NULL;

		if (n) {
			dst = arena_alloc(a, n * sizeof(*dst));
			if (!dst)
				return NULL;
		}
		for (i = 0; i < n; i++) {
			dst[i].orig_name = src[i].name;
			dst[i].name = strip_underscore(src[i].name);
			dst[i].fc = ctf_fc_copy(a, src[i].fc);
			if (!dst[i].fc)
				return NULL;
		}
		if (fc->kind == MODEL_FC_STRUCT) {
			c->u.st.members = dst;
		} else {
			c->u.var.options = dst;
			c->u.var.ranges = NULL;
			c->u.var.nranges = 0;
			c->u.var.tag = NULL;
		}
		break;
	}
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		c->u.arr.elem = ctf_fc_copy(a, fc->u.arr.elem);
		if (!c->u.arr.elem)
			return NULL;
		c->u.arr.length_fc = NULL;
		break;
	default:
		break;
	}
	return c;
}

/* ---- unary values ---------------------------------------------------------------------- */

static int val_is_string(const struct tsdl_node *v)
{
	return v->sub == TSDL_UNARY_STRING || v->sub == TSDL_UNARY_PATH;
}

static enum tk_status val_string(const struct tsdl_node *v, const char *what, const char **out)
{
	if (!val_is_string(v))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read metadata attribute: line=%d, name=%s, "
			       "reason=expecting a string",
			       v->line, what);
	*out = v->name;
	return TK_OK;
}

static enum tk_status val_uint(const struct tsdl_node *v, const char *what, uint64_t *out)
{
	if (v->sub != TSDL_UNARY_UINT)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read metadata attribute: line=%d, name=%s, "
			       "reason=expecting an unsigned integer",
			       v->line, what);
	*out = v->u;
	return TK_OK;
}

static enum tk_status val_int(const struct tsdl_node *v, const char *what, int64_t *out)
{
	if (v->sub == TSDL_UNARY_UINT) {
		*out = (int64_t) v->u;
		return TK_OK;
	}
	if (v->sub == TSDL_UNARY_SINT) {
		*out = v->i;
		return TK_OK;
	}
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot read metadata attribute: line=%d, name=%s, "
		       "reason=expecting an integer",
		       v->line, what);
}

static enum tk_status val_bool(const struct tsdl_node *v, const char *what, int *out)
{
	if (v->sub == TSDL_UNARY_UINT) {
		*out = v->u != 0;
		return TK_OK;
	}
	if (v->sub == TSDL_UNARY_SINT) {
		*out = v->i != 0;
		return TK_OK;
	}
	if (val_is_string(v)) {
		if (!strcmp(v->name, "true") || !strcmp(v->name, "TRUE")) {
			*out = 1;
			return TK_OK;
		}
		if (!strcmp(v->name, "false") || !strcmp(v->name, "FALSE")) {
			*out = 0;
			return TK_OK;
		}
	}
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot read metadata attribute: line=%d, name=%s, "
		       "reason=expecting a boolean",
		       v->line, what);
}

/* `be`, `le`, `network` or `native` (the trace's order); @allow_native is false in `trace`. */
static enum tk_status val_byte_order(const struct meta *m, const struct tsdl_node *v,
				     int allow_native, enum tk_byte_order *out)
{
	const char *s = val_is_string(v) ? v->name : "";

	if (!strcmp(s, "be") || !strcmp(s, "network")) {
		*out = TK_BYTE_ORDER_BE;
	} else if (!strcmp(s, "le")) {
		*out = TK_BYTE_ORDER_LE;
	} else if (!strcmp(s, "native") && allow_native) {
		*out = m->ct->bo;
	} else {
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read metadata attribute: line=%d, "
			       "name=byte_order, value=%s, reason=expecting be, le, network%s",
			       v->line, s, allow_native ? " or native" : "");
	}
	return TK_OK;
}

static int parse_uuid(const char *s, uint8_t out[16])
{
	return strlen(s) == 36 ? str_uuid_parse(s, out) : -1;
}

static struct tk_clock *find_clock(struct meta *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->clocks.len; i++) {
		struct tk_clock *c = VEC_AT(&m->clocks, struct tk_clock *, i);

		if (!strcmp(c->name, name))
			return c;
	}
	return NULL;
}

/* ---- basic types ----------------------------------------------------------------------- */

#define ATTR_ONCE(bit, what)                                                                       \
	do {                                                                                       \
		if (seen & (bit))                                                                  \
			return TK_FAIL(TK_ERR_FORMAT,                                              \
				       "Cannot read metadata: line=%d, "                           \
				       "reason=duplicate attribute %s",                            \
				       e->line, (what));                                           \
		seen |= (bit);                                                                     \
	} while (0)

static enum tk_status base_from_value(const struct tsdl_node *v, uint8_t *out)
{
	if (v->sub == TSDL_UNARY_UINT) {
		if (v->u == 2 || v->u == 8 || v->u == 10 || v->u == 16) {
			*out = (uint8_t) v->u;
			return TK_OK;
		}
	} else if (val_is_string(v)) {
		static const struct {
			const char *name;
			uint8_t base;
		} names[] = {
			{"decimal", 10},     {"dec", 10}, {"d", 10}, {"i", 10},	    {"u", 10},
			{"hexadecimal", 16}, {"hex", 16}, {"x", 16}, {"X", 16},	    {"p", 16},
			{"octal", 8},	     {"oct", 8},  {"o", 8},  {"binary", 2}, {"b", 2},
		};
		size_t i;

		for (i = 0; i < TK_ARRAY_SIZE(names); i++) {
			if (!strcmp(v->name, names[i].name)) {
				*out = names[i].base;
				return TK_OK;
			}
		}
	}
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot read metadata attribute: line=%d, name=base, "
		       "reason=expecting 2, 8, 10, 16 or a base name",
		       v->line);
}

static enum tk_status encoding_from_value(const struct tsdl_node *v, uint8_t *out)
{
	const char *s = NULL;

	if (!val_is_string(v))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read metadata attribute: line=%d, "
			       "name=encoding, reason=expecting a string",
			       v->line);
	s = v->name;
	if (!strcmp(s, "UTF8") || !strcmp(s, "utf8") || !strcmp(s, "utf-8") ||
	    !strcmp(s, "UTF-8") || !strcmp(s, "ASCII") || !strcmp(s, "ascii")) {
		*out = MODEL_ENCODING_UTF8;
	} else if (!strcmp(s, "none")) {
		*out = MODEL_ENCODING_NONE;
	} else {
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read metadata attribute: line=%d, "
			       "name=encoding, value=%s, reason=unknown encoding",
			       v->line, s);
	}
	return TK_OK;
}

static enum tk_status visit_integer(struct meta *m, const struct tsdl_node *spec,
				    struct model_fc **out)
{
	const struct tsdl_node *e;
	struct model_fc *fc = fc_new(m, MODEL_FC_INT);
	unsigned int seen = 0;
	uint64_t u = 0;
	int b;
	enum tk_status st;
	enum tk_byte_order bo;

	if (!fc)
		return META_NOMEM(spec);
	for (e = spec->a; e; e = e->next) {
		const struct tsdl_node *v = e->a;

		if (e->kind != TSDL_ASSIGN)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read integer: line=%d, "
				       "reason=unexpected declaration",
				       e->line);
		if (!strcmp(e->name, "signed")) {
			ATTR_ONCE(1, "signed");
			st = val_bool(v, "signed", &b);
			if (st < 0)
				return st;
			fc->is_signed = (uint8_t) b;
		} else if (!strcmp(e->name, "byte_order")) {
			ATTR_ONCE(2, "byte_order");
			st = val_byte_order(m, v, 1, &bo);
			if (st < 0)
				return st;
			fc->byte_order = (uint8_t) bo;
		} else if (!strcmp(e->name, "size")) {
			ATTR_ONCE(4, "size");
			st = val_uint(v, "size", &u);
			if (st < 0)
				return st;
			if (u == 0 || u > 64)
				return TK_FAIL(TK_ERR_UNSUPPORTED,
					       "Cannot read integer: line=%d, "
					       "size=%llu, reason=size must be 1 to 64 bits",
					       v->line, (unsigned long long) u);
			fc->size = (uint32_t) u;
		} else if (!strcmp(e->name, "align")) {
			ATTR_ONCE(8, "align");
			st = val_uint(v, "align", &u);
			if (st < 0)
				return st;
			if (!u || (u & (u - 1)) || u > (1u << 30))
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot read integer: line=%d, "
					       "align=%llu, reason=not a power of two",
					       v->line, (unsigned long long) u);
			fc->align = (uint32_t) u;
		} else if (!strcmp(e->name, "base")) {
			ATTR_ONCE(16, "base");
			st = base_from_value(v, &fc->base);
			if (st < 0)
				return st;
		} else if (!strcmp(e->name, "encoding")) {
			ATTR_ONCE(32, "encoding");
			st = encoding_from_value(v, &fc->encoding);
			if (st < 0)
				return st;
		} else if (!strcmp(e->name, "map")) {
			const char *s = NULL;
			size_t n;
			char *name;

			ATTR_ONCE(64, "map");
			st = val_string(v, "map", &s);
			if (st < 0)
				return st;
			n = strlen(s);
			if (n <= 12 || strncmp(s, "clock.", 6) || strcmp(s + n - 6, ".value"))
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot read integer: line=%d, "
					       "map=%s, reason=expecting clock.NAME.value",
					       v->line, s);
			name = arena_strndup(m->a, s + 6, n - 12);
			if (!name)
				return META_NOMEM(v);
			fc->clock = find_clock(m, name);
			if (!fc->clock)
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot read integer: line=%d, "
					       "clock=%s, reason=no such clock",
					       v->line, name);
		} else {
			m->ct->n_warnings++;
		}
	}
	if (!(seen & 4))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read integer: line=%d, "
			       "reason=missing size attribute",
			       spec->line);
	if (!(seen & 8))
		fc->align = fc->size % 8 ? 1 : 8;
	*out = fc;
	return TK_OK;
}

static enum tk_status visit_float(struct meta *m, const struct tsdl_node *spec,
				  struct model_fc **out)
{
	const struct tsdl_node *e;
	struct model_fc *fc = fc_new(m, MODEL_FC_FLOAT);
	unsigned int seen = 0;
	uint64_t u = 0;
	enum tk_status st;
	enum tk_byte_order bo;

	if (!fc)
		return META_NOMEM(spec);
	for (e = spec->a; e; e = e->next) {
		const struct tsdl_node *v = e->a;

		if (e->kind != TSDL_ASSIGN)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read floating point: line=%d, "
				       "reason=unexpected declaration",
				       e->line);
		if (!strcmp(e->name, "byte_order")) {
			ATTR_ONCE(1, "byte_order");
			st = val_byte_order(m, v, 1, &bo);
			if (st < 0)
				return st;
			fc->byte_order = (uint8_t) bo;
		} else if (!strcmp(e->name, "exp_dig")) {
			ATTR_ONCE(2, "exp_dig");
			st = val_uint(v, "exp_dig", &u);
			if (st < 0)
				return st;
			fc->exp_dig = u > 64 ? 65 : (uint32_t) u;
		} else if (!strcmp(e->name, "mant_dig")) {
			ATTR_ONCE(4, "mant_dig");
			st = val_uint(v, "mant_dig", &u);
			if (st < 0)
				return st;
			fc->mant_dig = u > 64 ? 65 : (uint32_t) u;
		} else if (!strcmp(e->name, "align")) {
			ATTR_ONCE(8, "align");
			st = val_uint(v, "align", &u);
			if (st < 0)
				return st;
			if (!u || (u & (u - 1)) || u > (1u << 30))
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot read floating point: line=%d, "
					       "reason=align is not a power of two",
					       v->line);
			fc->align = (uint32_t) u;
		} else {
			m->ct->n_warnings++;
		}
	}
	if (!(seen & 2) || !(seen & 4))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read floating point: line=%d, "
			       "reason=missing exp_dig or mant_dig",
			       spec->line);
	if (!((fc->exp_dig == 8 && fc->mant_dig == 24) ||
	      (fc->exp_dig == 11 && fc->mant_dig == 53)))
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot read floating point: line=%d, "
			       "exp-dig=%u, mant-dig=%u, reason=only 32- and 64-bit IEEE 754",
			       spec->line, fc->exp_dig, fc->mant_dig);
	fc->size = fc->exp_dig + fc->mant_dig;
	if (!(seen & 8))
		fc->align = fc->size % 8 ? 1 : 8;
	*out = fc;
	return TK_OK;
}

static enum tk_status visit_string(struct meta *m, const struct tsdl_node *spec,
				   struct model_fc **out)
{
	const struct tsdl_node *e;
	struct model_fc *fc = fc_new(m, MODEL_FC_STRING);
	unsigned int seen = 0;
	enum tk_status st;

	if (!fc)
		return META_NOMEM(spec);
	fc->align = 8;
	fc->encoding = MODEL_ENCODING_UTF8;
	for (e = spec->a; e; e = e->next) {
		if (e->kind != TSDL_ASSIGN)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read string: line=%d, "
				       "reason=unexpected declaration",
				       e->line);
		if (!strcmp(e->name, "encoding")) {
			ATTR_ONCE(1, "encoding");
			st = encoding_from_value(e->a, &fc->encoding);
			if (st < 0)
				return st;
		} else {
			m->ct->n_warnings++;
		}
	}
	*out = fc;
	return TK_OK;
}

/* ---- compound types -------------------------------------------------------------------- */

/*
 * Members of a struct or options of a variant body: each declarator of each declaration gets
 * its own field class; typedef and typealias entries declare names in the body's scope.
 */
static enum tk_status visit_body(struct meta *m, const struct tsdl_node *spec, int is_variant,
				 struct model_member **out, uint32_t *count)
{
	const struct tsdl_node *d, *decl;
	struct vec members = VEC_INIT;
	enum tk_status st;

	st = scope_push(m, spec->line);
	if (st < 0)
		return st;
	for (d = spec->a; d; d = d->next) {
		if (d->kind == TSDL_TYPEDEF || d->kind == TSDL_TYPEALIAS) {
			st = register_decls(m, d);
			if (st < 0)
				goto out;
			continue;
		}
		for (decl = d->b; decl; decl = decl->next) {
			struct model_member *mb;
			struct model_fc *fc;
			size_t i;

			if (!decl->name) {
				st = TK_FAIL(TK_ERR_FORMAT,
					     "Cannot read %s: line=%d, "
					     "reason=member without name",
					     is_variant ? "variant" : "structure", decl->line);
				goto out;
			}
			st = visit_declarator(m, d->a, decl, &fc);
			if (st < 0)
				goto out;
			for (i = 0; i < members.len; i++) {
				if (!strcmp(VEC_AT(&members, struct model_member, i).name,
					    strip_underscore(decl->name))) {
					st = TK_FAIL(TK_ERR_FORMAT,
						     "Cannot read %s: line=%d, "
						     "name=%s, reason=duplicate member",
						     is_variant ? "variant" : "structure",
						     decl->line, decl->name);
					goto out;
				}
			}
			mb = vec_push(&members, sizeof(*mb));
			if (!mb) {
				st = META_NOMEM(decl);
				goto out;
			}
			mb->orig_name = decl->name;
			mb->name = strip_underscore(decl->name);
			mb->fc = fc;
		}
	}
	*count = (uint32_t) members.len;
	*out = NULL;
	if (members.len) {
		*out = arena_alloc(m->a, members.len * sizeof(struct model_member));
		if (!*out) {
			st = META_NOMEM(spec);
			goto out;
		}
		memcpy(*out, members.data, members.len * sizeof(struct model_member));
	}
	st = TK_OK;
out:
	vec_fini(&members);
	scope_pop(m);
	return st;
}

static enum tk_status visit_struct(struct meta *m, const struct tsdl_node *spec,
				   struct model_fc **out)
{
	struct model_fc *fc;
	enum tk_status st;

	if (!spec->flag) {
		struct decl_entry *e = scope_find(m->scope, DECL_STRUCT, spec->name, 1);

		if (!e)
			return TK_FAIL(TK_ERR_FORMAT, "Cannot find structure: line=%d, name=%s",
				       spec->line, spec->name);
		*out = ctf_fc_copy(m->a, e->fc);
		return *out ? TK_OK : META_NOMEM(spec);
	}
	if (spec->name && scope_find(m->scope, DECL_STRUCT, spec->name, 0))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot declare structure: line=%d, name=%s, "
			       "reason=already declared",
			       spec->line, spec->name);
	fc = fc_new(m, MODEL_FC_STRUCT);
	if (!fc)
		return META_NOMEM(spec);
	st = visit_body(m, spec, 0, &fc->u.st.members, &fc->u.st.count);
	if (st < 0)
		return st;
	if (spec->b) {
		uint64_t al = 0;

		st = val_uint(spec->b, "align", &al);
		if (st < 0)
			return st;
		if (!al || (al & (al - 1)) || al > (1u << 30))
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read structure: line=%d, "
				       "reason=align is not a power of two",
				       spec->line);
		fc->align = (uint32_t) al;
	}
	if (spec->name) {
		st = scope_add(m, DECL_STRUCT, spec->name, fc, spec->line);
		if (st < 0)
			return st;
		fc = ctf_fc_copy(m->a, fc);
		if (!fc)
			return META_NOMEM(spec);
	}
	*out = fc;
	return TK_OK;
}

static enum tk_status visit_variant(struct meta *m, const struct tsdl_node *spec,
				    struct model_fc **out)
{
	struct model_fc *fc;
	enum tk_status st;

	if (!spec->flag) {
		struct decl_entry *e = scope_find(m->scope, DECL_VARIANT, spec->name, 1);

		if (!e)
			return TK_FAIL(TK_ERR_FORMAT, "Cannot find variant: line=%d, name=%s",
				       spec->line, spec->name);
		fc = ctf_fc_copy(m->a, e->fc);
		if (!fc)
			return META_NOMEM(spec);
		if (spec->ref)
			fc->ref = spec->ref;
		*out = fc;
		return TK_OK;
	}
	if (spec->name && scope_find(m->scope, DECL_VARIANT, spec->name, 0))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot declare variant: line=%d, name=%s, "
			       "reason=already declared",
			       spec->line, spec->name);
	fc = fc_new(m, MODEL_FC_VARIANT);
	if (!fc)
		return META_NOMEM(spec);
	fc->ref = spec->ref;
	st = visit_body(m, spec, 1, &fc->u.var.options, &fc->u.var.count);
	if (st < 0)
		return st;
	if (spec->name) {
		st = scope_add(m, DECL_VARIANT, spec->name, fc, spec->line);
		if (st < 0)
			return st;
		fc = ctf_fc_copy(m->a, fc);
		if (!fc)
			return META_NOMEM(spec);
	}
	*out = fc;
	return TK_OK;
}

static enum tk_status enum_add_range(struct meta *m, struct vec *maps, const char *label,
				     uint64_t lo, uint64_t hi, int line)
{
	struct model_enum_mapping *mp = NULL;
	struct model_range *r;
	size_t i;

	for (i = 0; i < maps->len; i++) {
		if (!strcmp(VEC_AT(maps, struct model_enum_mapping, i).label, label)) {
			mp = &VEC_AT(maps, struct model_enum_mapping, i);
			break;
		}
	}
	if (!mp) {
		mp = vec_push(maps, sizeof(*mp));
		if (!mp)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot build metadata: line=%d", line);
		mp->label = label;
	}
	/* ranges grow one at a time in the arena: copy into a larger array */
	r = arena_alloc(m->a, (mp->nranges + 1) * sizeof(*r));
	if (!r)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build metadata: line=%d", line);
	if (mp->nranges)
		memcpy(r, mp->ranges, mp->nranges * sizeof(*r));
	r[mp->nranges].lo.u = lo;
	r[mp->nranges].hi.u = hi;
	mp->ranges = r;
	mp->nranges++;
	return TK_OK;
}

static enum tk_status visit_enum(struct meta *m, const struct tsdl_node *spec,
				 struct model_fc **out)
{
	struct model_fc *fc, *container = NULL;
	const struct tsdl_node *e;
	struct vec maps = VEC_INIT;
	uint64_t next_value = 0;
	enum tk_status st;

	if (!spec->flag) {
		struct decl_entry *d = scope_find(m->scope, DECL_ENUM, spec->name, 1);

		if (!d)
			return TK_FAIL(TK_ERR_FORMAT, "Cannot find enumeration: line=%d, name=%s",
				       spec->line, spec->name);
		*out = ctf_fc_copy(m->a, d->fc);
		return *out ? TK_OK : META_NOMEM(spec);
	}
	if (spec->name && scope_find(m->scope, DECL_ENUM, spec->name, 0))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot declare enumeration: line=%d, name=%s, "
			       "reason=already declared",
			       spec->line, spec->name);
	if (spec->b) {
		st = visit_specs(m, spec->b, &container);
		if (st < 0)
			return st;
	} else {
		struct decl_entry *d = scope_find(m->scope, DECL_ALIAS, "int", 1);

		if (!d)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read enumeration: line=%d, "
				       "reason=no container type and no int alias",
				       spec->line);
		container = ctf_fc_copy(m->a, d->fc);
		if (!container)
			return META_NOMEM(spec);
	}
	if (container->kind != MODEL_FC_INT)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read enumeration: line=%d, "
			       "reason=container is not an integer",
			       spec->line);
	fc = container;
	fc->kind = MODEL_FC_ENUM;
	for (e = spec->a; e; e = e->next) {
		uint64_t lo = next_value, hi;

		if (e->a) {
			if (e->a->sub != TSDL_UNARY_UINT && e->a->sub != TSDL_UNARY_SINT) {
				st = TK_FAIL(TK_ERR_FORMAT,
					     "Cannot read enumeration: line=%d, "
					     "label=%s, reason=value is not an integer",
					     e->line, e->name);
				goto out;
			}
			lo = e->a->sub == TSDL_UNARY_UINT ? e->a->u : (uint64_t) e->a->i;
		}
		hi = lo;
		if (e->b) {
			if (e->b->sub != TSDL_UNARY_UINT && e->b->sub != TSDL_UNARY_SINT) {
				st = TK_FAIL(TK_ERR_FORMAT,
					     "Cannot read enumeration: line=%d, "
					     "label=%s, reason=value is not an integer",
					     e->line, e->name);
				goto out;
			}
			hi = e->b->sub == TSDL_UNARY_UINT ? e->b->u : (uint64_t) e->b->i;
		}
		next_value = hi + 1;
		st = enum_add_range(m, &maps, e->name, lo, hi, e->line);
		if (st < 0)
			goto out;
	}
	fc->u.en.count = (uint32_t) maps.len;
	fc->u.en.maps = NULL;
	if (maps.len) {
		fc->u.en.maps = arena_alloc(m->a, maps.len * sizeof(struct model_enum_mapping));
		if (!fc->u.en.maps) {
			st = META_NOMEM(spec);
			goto out;
		}
		memcpy(fc->u.en.maps, maps.data, maps.len * sizeof(struct model_enum_mapping));
	}
	if (spec->name) {
		st = scope_add(m, DECL_ENUM, spec->name, fc, spec->line);
		if (st < 0)
			goto out;
		fc = ctf_fc_copy(m->a, fc);
		if (!fc) {
			st = META_NOMEM(spec);
			goto out;
		}
	}
	*out = fc;
	st = TK_OK;
out:
	vec_fini(&maps);
	return st;
}

/* ---- specifiers and declarators -------------------------------------------------------- */

/* "unsigned long", "struct page" and the like, plus " *" per pointer level. */
static enum tk_status specs_name(struct meta *m, const struct tsdl_node *specs, uint64_t pointers,
				 const char **out)
{
	char buf[512];
	size_t len = 0;
	const struct tsdl_node *s;
	uint64_t i;

	buf[0] = '\0';
	for (s = specs; s; s = s->next) {
		const char *word;
		const char *prefix = "";

		switch (s->sub) {
		case TSDL_SPEC_WORD:
			word = s->name;
			break;
		case TSDL_SPEC_CONST:
			word = "const";
			break;
		case TSDL_SPEC_STRUCT:
			prefix = "struct ";
			word = s->name;
			break;
		case TSDL_SPEC_VARIANT:
			prefix = "variant ";
			word = s->name;
			break;
		case TSDL_SPEC_ENUM:
			prefix = "enum ";
			word = s->name;
			break;
		default:
			word = NULL;
			break;
		}
		if (!word)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot name type: line=%d, "
				       "reason=anonymous type in a type name",
				       s->line);
		if (len + strlen(prefix) + strlen(word) + 2 >= sizeof(buf))
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot name type: line=%d, "
				       "reason=name too long",
				       s->line);
		len += (size_t) snprintf(buf + len, sizeof(buf) - len, "%s%s%s", len ? " " : "",
					 prefix, word);
	}
	for (i = 0; i < pointers && len + 3 < sizeof(buf); i++)
		len += (size_t) snprintf(buf + len, sizeof(buf) - len, " *");
	*out = arena_strndup(m->a, buf, len);
	return *out ? TK_OK : META_NOMEM(specs);
}

static enum tk_status lookup_alias(struct meta *m, const char *name, int line,
				   struct model_fc **out)
{
	struct decl_entry *e = scope_find(m->scope, DECL_ALIAS, name, 1);

	if (!e)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot find type: line=%d, name=%s", line, name);
	*out = ctf_fc_copy(m->a, e->fc);
	return *out ? TK_OK : TK_FAIL(TK_ERR_NOMEM, "Cannot build metadata: line=%d", line);
}

static enum tk_status visit_specs(struct meta *m, const struct tsdl_node *specs,
				  struct model_fc **out)
{
	const char *name;
	enum tk_status st;

	if (++m->depth > META_MAX_DEPTH) {
		m->depth--;
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot build metadata: line=%d, "
			       "reason=types nested too deeply",
			       specs->line);
	}
	switch (specs->sub) {
	case TSDL_SPEC_INTEGER:
		st = visit_integer(m, specs, out);
		break;
	case TSDL_SPEC_FLOATING_POINT:
		st = visit_float(m, specs, out);
		break;
	case TSDL_SPEC_STRING:
		st = visit_string(m, specs, out);
		break;
	case TSDL_SPEC_STRUCT:
		st = visit_struct(m, specs, out);
		break;
	case TSDL_SPEC_VARIANT:
		st = visit_variant(m, specs, out);
		break;
	case TSDL_SPEC_ENUM:
		st = visit_enum(m, specs, out);
		break;
	default:
		st = specs_name(m, specs, 0, &name);
		if (st >= 0)
			st = lookup_alias(m, name, specs->line, out);
		break;
	}
	m->depth--;
	return st;
}

/*
 * The type of one declarator: pointers name an alias ("void *") shown in hexadecimal; each
 * [N] makes an array, [path] a sequence and [env.KEY] an array sized by the environment.
 */
static enum tk_status visit_declarator(struct meta *m, const struct tsdl_node *specs,
				       const struct tsdl_node *decl, struct model_fc **out)
{
	struct model_fc *fc;
	const struct tsdl_node *dims[64];
	const struct tsdl_node *d;
	size_t nd = 0, i;
	enum tk_status st;

	if (decl && decl->b)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot read field: line=%d, "
			       "reason=bit-fields are not supported",
			       decl->line);
	if (decl && decl->u) {
		const char *name;

		st = specs_name(m, specs, decl->u, &name);
		if (st < 0)
			return st;
		st = lookup_alias(m, name, decl->line, &fc);
		if (st < 0)
			return st;
		if (fc->kind == MODEL_FC_INT)
			fc->base = 16;
	} else {
		st = visit_specs(m, specs, &fc);
		if (st < 0)
			return st;
	}
	for (d = decl ? decl->a : NULL; d; d = d->next) {
		if (nd == TK_ARRAY_SIZE(dims))
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot read field: line=%d, "
				       "reason=too many dimensions",
				       d->line);
		dims[nd++] = d;
	}
	for (i = nd; i > 0; i--) {
		const struct tsdl_node *dim = dims[i - 1];
		struct model_fc *arr;

		if (dim->sub == TSDL_UNARY_UINT) {
			arr = fc_new(m, MODEL_FC_ARRAY);
			if (!arr)
				return META_NOMEM(dim);
			arr->u.arr.length = dim->u;
		} else if (dim->sub == TSDL_UNARY_PATH && !strncmp(dim->name, "env.", 4)) {
			const char *key = dim->name + 4;
			size_t k;
			const struct model_env *env = NULL;

			for (k = 0; k < m->env.len; k++)
				if (!strcmp(VEC_AT(&m->env, struct model_env, k).key, key))
					env = &VEC_AT(&m->env, struct model_env, k);
			if (!env || env->str || env->integer < 0)
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot read array length: line=%d, "
					       "name=%s, reason=no such non-negative integer "
					       "environment entry",
					       dim->line, key);
			arr = fc_new(m, MODEL_FC_ARRAY);
			if (!arr)
				return META_NOMEM(dim);
			arr->u.arr.length = (uint64_t) env->integer;
		} else if (dim->sub == TSDL_UNARY_PATH) {
			arr = fc_new(m, MODEL_FC_SEQUENCE);
			if (!arr)
				return META_NOMEM(dim);
			arr->ref = dim->name;
		} else {
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read array length: line=%d, "
				       "reason=expecting a length or a field name",
				       dim->line);
		}
		arr->u.arr.elem = fc;
		fc = arr;
	}
	*out = fc;
	return TK_OK;
}

/* typedef and typealias declare aliases; bare struct/variant/enum declarations name types. */
static enum tk_status register_decls(struct meta *m, const struct tsdl_node *n)
{
	const struct tsdl_node *d;
	struct model_fc *fc;
	const char *name;
	enum tk_status st;

	switch (n->kind) {
	case TSDL_TYPEDEF:
		for (d = n->b; d; d = d->next) {
			if (!d->name)
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot read typedef: line=%d, "
					       "reason=missing name",
					       d->line);
			st = visit_declarator(m, n->a, d, &fc);
			if (st < 0)
				return st;
			if (fc->kind == MODEL_FC_VARIANT && !fc->ref)
				return TK_FAIL(TK_ERR_FORMAT,
					       "Cannot read typedef: line=%d, "
					       "reason=untagged variant",
					       d->line);
			st = scope_add(m, DECL_ALIAS, d->name, fc, d->line);
			if (st < 0)
				return st;
		}
		return TK_OK;
	case TSDL_TYPEALIAS:
		if (n->b && n->b->name)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read typealias: line=%d, "
				       "reason=target has a name",
				       n->line);
		st = visit_declarator(m, n->a, n->b, &fc);
		if (st < 0)
			return st;
		if (fc->kind == MODEL_FC_VARIANT && !fc->ref)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read typealias: line=%d, "
				       "reason=untagged variant",
				       n->line);
		if (n->d && (n->d->name || n->d->a))
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read typealias: line=%d, "
				       "reason=unexpected alias declarator",
				       n->line);
		st = specs_name(m, n->c, n->d ? n->d->u : 0, &name);
		if (st < 0)
			return st;
		return scope_add(m, DECL_ALIAS, name, fc, n->line);
	case TSDL_DECL:
		if (n->b)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read declaration: line=%d, "
				       "reason=field declared outside a structure",
				       n->line);
		if (n->a->next || (n->a->sub != TSDL_SPEC_STRUCT &&
				   n->a->sub != TSDL_SPEC_VARIANT && n->a->sub != TSDL_SPEC_ENUM))
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read declaration: line=%d, "
				       "reason=expecting a structure, variant or enumeration",
				       n->line);
		return visit_specs(m, n->a, &fc);
	default:
		return TK_FAIL(TK_ERR_FORMAT, "Cannot read declaration: line=%d", n->line);
	}
}

/* ---- blocks ---------------------------------------------------------------------------- */

/* Scope field classes (packet.header and so on) must be structures. */
static enum tk_status visit_scope_type(struct meta *m, const struct tsdl_node *e,
				       struct model_fc **slot, const char *what)
{
	struct model_fc *fc;
	enum tk_status st;

	if (*slot)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read metadata: line=%d, "
			       "reason=duplicate %s",
			       e->line, what);
	st = visit_specs(m, e->a, &fc);
	if (st < 0)
		return TK_FAIL(st, "Cannot read %s: line=%d", what, e->line);
	if (fc->kind != MODEL_FC_STRUCT)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot read %s: line=%d, reason=not a structure",
			       what, e->line);
	*slot = fc;
	return TK_OK;
}

static enum tk_status find_trace_byte_order(struct meta *m, const struct tsdl_node *root)
{
	const struct tsdl_node *n, *e, *trace = NULL;
	enum tk_status st;

	for (n = root->a; n; n = n->next) {
		if (n->kind != TSDL_BLOCK || n->sub != TSDL_BLOCK_TRACE)
			continue;
		if (trace)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read metadata: line=%d, "
				       "reason=more than one trace block",
				       n->line);
		trace = n;
	}
	if (!trace)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read metadata: end-line=%d, reason=no trace block",
			       m->end_line);
	for (e = trace->a; e; e = e->next) {
		if (e->kind == TSDL_ASSIGN && !strcmp(e->name, "byte_order")) {
			enum tk_byte_order bo;

			st = val_byte_order(m, e->a, 0, &bo);
			if (st < 0)
				return st;
			m->ct->bo = bo;
			return TK_OK;
		}
	}
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot read trace block: line=%d, "
		       "reason=missing byte_order attribute",
		       trace->line);
}

static enum tk_status visit_env(struct meta *m, const struct tsdl_node *blk)
{
	const struct tsdl_node *e;

	for (e = blk->a; e; e = e->next) {
		struct model_env *env;
		size_t i;

		if (e->kind != TSDL_ASSIGN)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read environment: line=%d, "
				       "reason=expecting key = value",
				       e->line);
		for (i = 0; i < m->env.len; i++)
			if (!strcmp(VEC_AT(&m->env, struct model_env, i).key, e->name))
				break;
		if (i < m->env.len) {
			env = &VEC_AT(&m->env, struct model_env, i); /* last one wins */
		} else {
			env = vec_push(&m->env, sizeof(*env));
			if (!env)
				return META_NOMEM(e);
		}
		env->key = e->name;
		env->str = NULL;
		if (val_is_string(e->a)) {
			env->str = e->a->name;
		} else if (e->a->sub == TSDL_UNARY_UINT) {
			env->integer = (int64_t) e->a->u;
		} else {
			env->integer = e->a->i;
		}
	}
	return TK_OK;
}

static enum tk_status visit_clock(struct meta *m, const struct tsdl_node *blk)
{
	const struct tsdl_node *e;
	struct tk_clock *c = arena_alloc(m->a, sizeof(*c)), **slot;
	unsigned int seen = 0;
	int64_t i64 = 0;
	uint64_t u = 0;
	int b;
	enum tk_status st;

	if (!c)
		return META_NOMEM(blk);
	c->freq = UINT64_C(1000000000);
	for (e = blk->a; e; e = e->next) {
		const struct tsdl_node *v = e->a;

		if (e->kind != TSDL_ASSIGN)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read clock: line=%d, "
				       "reason=expecting name = value",
				       e->line);
		if (!strcmp(e->name, "name")) {
			ATTR_ONCE(1, "name");
			st = val_string(v, "name", &c->name);
		} else if (!strcmp(e->name, "uuid")) {
			const char *s = NULL;

			ATTR_ONCE(2, "uuid");
			st = val_string(v, "uuid", &s);
			if (st >= 0 && parse_uuid(s, c->uuid))
				st = TK_FAIL(TK_ERR_FORMAT,
					     "Cannot read clock: line=%d, "
					     "reason=malformed uuid",
					     v->line);
			c->has_uuid = 1;
		} else if (!strcmp(e->name, "description")) {
			ATTR_ONCE(4, "description");
			st = val_string(v, "description", &c->description);
		} else if (!strcmp(e->name, "freq")) {
			ATTR_ONCE(8, "freq");
			st = val_uint(v, "freq", &c->freq);
			if (st >= 0 && (c->freq == 0 || c->freq == UINT64_MAX))
				st = TK_FAIL(TK_ERR_FORMAT,
					     "Cannot read clock: line=%d, "
					     "freq=%llu, reason=invalid frequency",
					     v->line, (unsigned long long) c->freq);
		} else if (!strcmp(e->name, "precision")) {
			ATTR_ONCE(16, "precision");
			st = val_uint(v, "precision", &c->precision);
		} else if (!strcmp(e->name, "offset_s")) {
			ATTR_ONCE(32, "offset_s");
			st = val_int(v, "offset_s", &i64);
			c->offset_s = i64;
		} else if (!strcmp(e->name, "offset")) {
			ATTR_ONCE(64, "offset");
			st = val_uint(v, "offset", &u);
			c->offset_cycles = u;
		} else if (!strcmp(e->name, "absolute")) {
			ATTR_ONCE(128, "absolute");
			st = val_bool(v, "absolute", &b);
			c->absolute = (uint8_t) b;
		} else {
			m->ct->n_warnings++;
			st = TK_OK;
		}
		if (st < 0)
			return st;
	}
	if (!c->name)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot read clock: line=%d, reason=missing name",
			       blk->line);
	if (find_clock(m, c->name))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read clock: line=%d, name=%s, "
			       "reason=duplicate clock",
			       blk->line, c->name);
	model_clock_finish(c);
	slot = vec_push(&m->clocks, sizeof(*slot));
	if (!slot)
		return META_NOMEM(blk);
	*slot = c;
	return TK_OK;
}

static enum tk_status visit_trace(struct meta *m, const struct tsdl_node *blk)
{
	const struct tsdl_node *e;
	unsigned int seen = 0;
	enum tk_status st;
	uint64_t u = 0;

	m->ct->line = blk->line;
	st = scope_push(m, blk->line);
	if (st < 0)
		return st;
	for (e = blk->a; e && st >= 0; e = e->next) {
		const struct tsdl_node *v = e->a;

		if (e->kind == TSDL_TYPEDEF || e->kind == TSDL_TYPEALIAS) {
			st = register_decls(m, e);
		} else if (e->kind == TSDL_TYPE_ASSIGN) {
			if (strcmp(e->name, "packet.header")) {
				m->ct->n_warnings++;
				continue;
			}
			st = visit_scope_type(m, e, &m->ct->packet_header, "packet header");
		} else if (!strcmp(e->name, "major")) {
			ATTR_ONCE(1, "major");
			st = val_uint(v, "major", &u);
			if (st >= 0 && u != 1)
				st = TK_FAIL(TK_ERR_UNSUPPORTED,
					     "Cannot read trace block: line=%d, "
					     "major=%llu, reason=expecting 1",
					     v->line, (unsigned long long) u);
		} else if (!strcmp(e->name, "minor")) {
			ATTR_ONCE(2, "minor");
			st = val_uint(v, "minor", &u);
			if (st >= 0 && u != 8)
				st = TK_FAIL(TK_ERR_UNSUPPORTED,
					     "Cannot read trace block: line=%d, "
					     "minor=%llu, reason=expecting 8",
					     v->line, (unsigned long long) u);
		} else if (!strcmp(e->name, "uuid")) {
			const char *s = NULL;

			ATTR_ONCE(4, "uuid");
			st = val_string(v, "uuid", &s);
			if (st >= 0 && parse_uuid(s, m->src->uuid))
				st = TK_FAIL(TK_ERR_FORMAT,
					     "Cannot read trace block: line=%d, "
					     "reason=malformed uuid",
					     v->line);
			m->src->has_uuid = 1;
		} else if (!strcmp(e->name, "byte_order")) {
			ATTR_ONCE(8, "byte_order");
		} else {
			m->ct->n_warnings++;
		}
	}
	scope_pop(m);
	if (st < 0)
		return st;
	if (!(seen & 1) || !(seen & 2))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace block: line=%d, "
			       "reason=missing major or minor attribute",
			       blk->line);
	return TK_OK;
}

struct ctf_sc_build *ctf_meta_find_sc(struct vec *scs, uint64_t id)
{
	size_t i;

	for (i = 0; i < scs->len; i++)
		if (VEC_AT(scs, struct ctf_sc_build, i).sc->id == id)
			return &VEC_AT(scs, struct ctf_sc_build, i);
	return NULL;
}

/* A stream class described at @line of the metadata (its block, or the first event's). */
struct ctf_sc_build *ctf_meta_new_sc(struct tk_source *src, struct vec *scs, uint64_t id, int line)
{
	struct ctf_sc_build *b;
	struct model_stream_class *sc = arena_alloc(&src->arena, sizeof(*sc));
	struct ctf_sc *csc = arena_alloc(&src->arena, sizeof(*csc));

	if (!sc || !csc)
		return NULL;
	csc->line = line;
	sc->fmt = csc; /* filled in when the decoders are compiled */
	b = vec_push(scs, sizeof(*b));
	if (!b)
		return NULL;
	memset(&b->ecs, 0, sizeof(b->ecs));
	sc->id = id;
	sc->source = src;
	b->sc = sc;
	return b;
}

static struct ctf_sc_build *new_sc(struct meta *m, uint64_t id, int line)
{
	return ctf_meta_new_sc(m->src, &m->scs, id, line);
}

/*
 * Map integer fields named @name (in structures and variant options, recursively) to the
 * trace's only clock, creating the implicit 1 GHz "default" clock if there is none.
 */
static enum tk_status auto_map_clock(struct meta *m, struct model_fc *fc, const char *name)
{
	uint32_t i, n;
	struct model_member *mb;
	enum tk_status st;

	if (!fc || (fc->kind != MODEL_FC_STRUCT && fc->kind != MODEL_FC_VARIANT))
		return TK_OK;
	n = fc->kind == MODEL_FC_STRUCT ? fc->u.st.count : fc->u.var.count;
	mb = fc->kind == MODEL_FC_STRUCT ? fc->u.st.members : fc->u.var.options;
	for (i = 0; i < n; i++) {
		struct model_fc *c = mb[i].fc;

		if (!strcmp(mb[i].name, name) &&
		    (c->kind == MODEL_FC_INT || c->kind == MODEL_FC_ENUM) && !c->clock) {
			if (m->clocks.len == 0) {
				struct tk_clock *clk = arena_alloc(m->a, sizeof(*clk)), **slot;

				if (!clk)
					return TK_FAIL(TK_ERR_NOMEM, "Cannot create default clock");
				clk->name = "default";
				clk->freq = UINT64_C(1000000000);
				model_clock_finish(clk);
				slot = vec_push(&m->clocks, sizeof(*slot));
				if (!slot)
					return TK_FAIL(TK_ERR_NOMEM, "Cannot create default clock");
				*slot = clk;
			} else if (m->clocks.len > 1) {
				return TK_FAIL(
					TK_ERR_FORMAT,
					"Cannot map field to a clock: "
					"field=%s, reason=several clocks and no map attribute",
					name);
			}
			c->clock = VEC_AT(&m->clocks, struct tk_clock *, 0);
		}
		st = auto_map_clock(m, c, name);
		if (st < 0)
			return st;
	}
	return TK_OK;
}

static enum tk_status visit_stream(struct meta *m, const struct tsdl_node *blk)
{
	const struct tsdl_node *e;
	unsigned int seen = 0;
	uint64_t id = 0;
	struct model_fc *pctx = NULL, *header = NULL, *ectx = NULL;
	struct ctf_sc_build *b;
	enum tk_status st;

	st = scope_push(m, blk->line);
	if (st < 0)
		return st;
	for (e = blk->a; e && st >= 0; e = e->next) {
		if (e->kind == TSDL_TYPEDEF || e->kind == TSDL_TYPEALIAS) {
			st = register_decls(m, e);
		} else if (e->kind == TSDL_TYPE_ASSIGN) {
			if (!strcmp(e->name, "event.header")) {
				st = visit_scope_type(m, e, &header, "event header");
				if (st >= 0)
					st = auto_map_clock(m, header, "timestamp");
			} else if (!strcmp(e->name, "event.context")) {
				st = visit_scope_type(m, e, &ectx, "stream event context");
			} else if (!strcmp(e->name, "packet.context")) {
				st = visit_scope_type(m, e, &pctx, "packet context");
				if (st >= 0)
					st = auto_map_clock(m, pctx, "timestamp_begin");
				if (st >= 0)
					st = auto_map_clock(m, pctx, "timestamp_end");
			} else {
				m->ct->n_warnings++;
			}
		} else if (!strcmp(e->name, "id")) {
			ATTR_ONCE(1, "id");
			st = val_uint(e->a, "id", &id);
		} else {
			m->ct->n_warnings++;
		}
	}
	scope_pop(m);
	if (st < 0)
		return TK_FAIL(st, "Cannot read stream block: line=%d", blk->line);
	if (seen & 1) {
		const struct model_fc *ph = m->ct->packet_header;
		uint32_t i;
		int found = 0;

		for (i = 0; ph && i < ph->u.st.count; i++)
			if (!strcmp(ph->u.st.members[i].name, "stream_id") &&
			    (ph->u.st.members[i].fc->kind == MODEL_FC_INT ||
			     ph->u.st.members[i].fc->kind == MODEL_FC_ENUM))
				found = 1;
		if (!found)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read stream block: line=%d, "
				       "reason=stream has an id but packet header has no stream_id "
				       "integer",
				       blk->line);
	} else if (m->scs.len) {
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read stream block: line=%d, "
			       "reason=missing id with more than one stream",
			       blk->line);
	}
	if (ctf_meta_find_sc(&m->scs, id))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read stream block: line=%d, id=%llu, "
			       "reason=duplicate stream id",
			       blk->line, (unsigned long long) id);
	b = new_sc(m, id, blk->line);
	if (!b)
		return META_NOMEM(blk);
	b->sc->packet_context = pctx;
	b->sc->has_cpu = ctf_cpu_member(pctx) >= 0;
	b->sc->event_header = header;
	b->sc->event_context = ectx;
	return TK_OK;
}

/* babeltrace2 knows log levels 0 (emergency) to 14 (debug); others are left unset. */
static enum tk_status visit_event(struct meta *m, const struct tsdl_node *blk)
{
	const struct tsdl_node *e;
	unsigned int seen = 0;
	uint64_t id = 0, sid = 0, u = 0;
	struct tk_event_class *ec = arena_alloc(m->a, sizeof(*ec)), **slot;
	struct ctf_ec *cec = arena_alloc(m->a, sizeof(*cec));
	struct ctf_sc_build *b;
	size_t i;
	enum tk_status st;

	if (!ec || !cec)
		return META_NOMEM(blk);
	cec->line = blk->line;
	ec->fmt = cec; /* filled in when the decoders are compiled */
	st = scope_push(m, blk->line);
	if (st < 0)
		return st;
	for (e = blk->a; e && st >= 0; e = e->next) {
		const struct tsdl_node *v = e->a;

		if (e->kind == TSDL_TYPEDEF || e->kind == TSDL_TYPEALIAS) {
			st = register_decls(m, e);
		} else if (e->kind == TSDL_TYPE_ASSIGN) {
			if (!strcmp(e->name, "context"))
				st = visit_scope_type(m, e, &ec->context, "event context");
			else if (!strcmp(e->name, "fields"))
				st = visit_scope_type(m, e, &ec->payload, "event fields");
			else
				m->ct->n_warnings++;
		} else if (!strcmp(e->name, "name")) {
			ATTR_ONCE(1, "name");
			st = val_string(v, "name", &ec->name);
		} else if (!strcmp(e->name, "id")) {
			ATTR_ONCE(2, "id");
			st = val_uint(v, "id", &id);
		} else if (!strcmp(e->name, "stream_id")) {
			ATTR_ONCE(4, "stream_id");
			st = val_uint(v, "stream_id", &sid);
		} else if (!strcmp(e->name, "loglevel")) {
			ATTR_ONCE(8, "loglevel");
			st = val_uint(v, "loglevel", &u);
			if (st >= 0 && u <= 14) {
				ec->has_loglevel = 1;
				ec->loglevel = (int) u;
			}
		} else if (!strcmp(e->name, "model.emf.uri")) {
			const char *s = NULL;

			ATTR_ONCE(16, "model.emf.uri");
			st = val_string(v, "model.emf.uri", &s);
			if (st >= 0 && s[0])
				ec->emf_uri = s;
		} else {
			m->ct->n_warnings++;
		}
	}
	scope_pop(m);
	if (st < 0)
		return TK_FAIL(st, "Cannot read event block: line=%d", blk->line);
	if (!ec->name)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read event block: line=%d, "
			       "reason=missing name",
			       blk->line);
	if (seen & 4) {
		b = ctf_meta_find_sc(&m->scs, sid);
		if (!b)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read event block: line=%d, "
				       "stream-id=%llu, reason=no such stream",
				       blk->line, (unsigned long long) sid);
	} else if (m->scs.len == 0) {
		b = new_sc(m, 0, blk->line);
		if (!b)
			return META_NOMEM(blk);
	} else if (m->scs.len == 1) {
		b = &VEC_AT(&m->scs, struct ctf_sc_build, 0);
	} else {
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read event block: line=%d, "
			       "reason=missing stream_id with several streams",
			       blk->line);
	}
	if (!(seen & 2) && b->ecs.len)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read event block: line=%d, "
			       "reason=missing id with several events in the stream",
			       blk->line);
	for (i = 0; i < b->ecs.len; i++)
		if (VEC_AT(&b->ecs, struct tk_event_class *, i)->id == id)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read event block: line=%d, "
				       "id=%llu, reason=duplicate event id in stream",
				       blk->line, (unsigned long long) id);
	ec->id = id;
	ec->sc = b->sc;
	slot = vec_push(&b->ecs, sizeof(*slot));
	if (!slot)
		return META_NOMEM(blk);
	*slot = ec;
	return TK_OK;
}

static int cmp_ec_id(const void *pa, const void *pb)
{
	const struct tk_event_class *a = *(const struct tk_event_class *const *) pa;
	const struct tk_event_class *b = *(const struct tk_event_class *const *) pb;

	return a->id < b->id ? -1 : a->id > b->id;
}

static int cmp_sc_id(const void *pa, const void *pb)
{
	const struct model_stream_class *a = *(const struct model_stream_class *const *) pa;
	const struct model_stream_class *b = *(const struct model_stream_class *const *) pb;

	return a->id < b->id ? -1 : a->id > b->id;
}

/* Move the build vectors into arena arrays of the source. */
enum tk_status ctf_meta_publish(struct tk_source *src, struct vec *clocks, struct vec *env,
				struct vec *scs)
{
	struct arena *a = &src->arena;
	size_t i;

	src->n_clocks = clocks->len;
	src->clocks = arena_alloc(a, (clocks->len + 1) * sizeof(*src->clocks));
	src->n_env = env->len;
	src->env = arena_alloc(a, (env->len + 1) * sizeof(*src->env));
	src->n_scs = scs->len;
	src->scs = arena_alloc(a, (scs->len + 1) * sizeof(*src->scs));
	if (!src->clocks || !src->env || !src->scs)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build metadata");
	if (clocks->len)
		memcpy(src->clocks, clocks->data, clocks->len * sizeof(*src->clocks));
	if (env->len)
		memcpy(src->env, env->data, env->len * sizeof(*src->env));
	for (i = 0; i < scs->len; i++) {
		struct ctf_sc_build *b = &VEC_AT(scs, struct ctf_sc_build, i);
		struct model_stream_class *sc = b->sc;

		sc->n_ecs = b->ecs.len;
		sc->ecs = arena_alloc(a, (b->ecs.len + 1) * sizeof(*sc->ecs));
		if (!sc->ecs)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot build metadata");
		if (b->ecs.len)
			memcpy(sc->ecs, b->ecs.data, b->ecs.len * sizeof(*sc->ecs));
		sort_array(sc->ecs, sc->n_ecs, sizeof(*sc->ecs), cmp_ec_id);
		src->scs[i] = sc;
	}
	sort_array(src->scs, src->n_scs, sizeof(*src->scs), cmp_sc_id);
	return TK_OK;
}

static enum tk_status visit_root(struct meta *m, const struct tsdl_node *root)
{
	const struct tsdl_node *n;
	enum tk_status st;

	st = find_trace_byte_order(m, root);
	if (st < 0)
		return st;
	for (n = root->a; n; n = n->next) {
		if (n->kind == TSDL_BLOCK && n->sub == TSDL_BLOCK_ENV) {
			st = visit_env(m, n);
			if (st < 0)
				return st;
		}
	}
	for (n = root->a; n; n = n->next) {
		if (n->kind == TSDL_BLOCK && n->sub == TSDL_BLOCK_CLOCK) {
			st = visit_clock(m, n);
			if (st < 0)
				return st;
		}
	}
	for (n = root->a; n; n = n->next) {
		if (n->kind != TSDL_BLOCK) {
			st = register_decls(m, n);
			if (st < 0)
				return st;
		}
	}
	for (n = root->a; n; n = n->next) {
		if (n->kind == TSDL_BLOCK && n->sub == TSDL_BLOCK_TRACE) {
			st = visit_trace(m, n);
			if (st < 0)
				return st;
		}
	}
	for (n = root->a; n; n = n->next) {
		if (n->kind == TSDL_BLOCK && n->sub == TSDL_BLOCK_STREAM) {
			st = visit_stream(m, n);
			if (st < 0)
				return st;
		}
	}
	for (n = root->a; n; n = n->next) {
		if (n->kind == TSDL_BLOCK && n->sub == TSDL_BLOCK_EVENT) {
			st = visit_event(m, n);
			if (st < 0)
				return st;
		}
	}
	return ctf_meta_publish(m->src, &m->clocks, &m->env, &m->scs);
}

enum tk_status ctf_meta_build(struct tk_source *src, const char *text, size_t len)
{
	struct tsdl_parser p;
	struct tsdl_node *root;
	struct meta m;
	enum tk_status st;
	size_t i;

	if (len && text[0] == '\x1e')
		return ctf2_meta_build(src, text, len);
	memset(&m, 0, sizeof(m));
	m.src = src;
	m.a = &src->arena;
	m.ct = arena_alloc(m.a, sizeof(*m.ct));
	if (!m.ct)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build metadata");
	src->fmt = m.ct;
	m.end_line = 1;
	for (i = 0; i < len; i++)
		m.end_line += text[i] == '\n';
	tsdl_parser_init(&p, m.a);
	st = tsdl_parse(&p, text, len, &root);
	if (st >= 0) {
		st = scope_push(&m, 0);
		if (st >= 0) {
			st = visit_root(&m, root);
			while (m.scope)
				scope_pop(&m);
		}
	}
	tsdl_parser_fini(&p);
	vec_fini(&m.clocks);
	vec_fini(&m.env);
	for (i = 0; i < m.scs.len; i++)
		vec_fini(&VEC_AT(&m.scs, struct ctf_sc_build, i).ecs);
	vec_fini(&m.scs);
	if (st < 0)
		return st;
	return ctf_resolve_trace(src);
}
