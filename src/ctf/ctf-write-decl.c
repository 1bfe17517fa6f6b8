// SPDX-License-Identifier: MIT
/*
 * The CTF writer's declarations: field declarations of the public API (nested structures,
 * variants, enumerations, arrays and sequences of any kind) compiled once into trees of
 * struct cw_field, and the names they get in TSDL. Everything the event path relies on is
 * decided here: write operations and sizes, which lists may take the flat fast path, which
 * fields keep their value for a later sequence or variant (slots), and which tag values
 * choose each variant option, the way readers will choose it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "ctf-write-priv.h"

/* ---- names -------------------------------------------------------------------------------- */

/* The keywords of the TSDL grammar (CTF 1.8.3 section 7.1.1); not usable as names. */
static const char *const keywords[] = {
	"align",   "callsite", "const",		 "char",   "clock",   "double",	  "enum",
	"env",	   "event",    "floating_point", "float",  "integer", "int",	  "long",
	"short",   "signed",   "stream",	 "string", "struct",  "trace",	  "typealias",
	"typedef", "unsigned", "variant",	 "void",   "_Bool",   "_Complex", "_Imaginary",
};

int ctf_write_is_keyword(const char *s)
{
	size_t i;

	for (i = 0; i < TK_ARRAY_SIZE(keywords); i++)
		if (!strcmp(s, keywords[i]))
			return 1;
	return 0;
}

static int is_ident_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Whether @s is a TSDL identifier that is not a keyword. */
static int is_plain_ident(const char *s)
{
	size_t i;

	if (!s[0] || (s[0] >= '0' && s[0] <= '9') || ctf_write_is_keyword(s))
		return 0;
	for (i = 0; s[i]; i++)
		if (!is_ident_char((unsigned char) s[i]))
			return 0;
	return 1;
}

/*
 * @name with every byte outside [A-Za-z0-9_] replaced by '_', after @prefix_len leading
 * underscores, with room for a "_N" suffix. NULL when out of memory.
 */
static char *sanitize(struct arena *a, const char *name, size_t prefix_len)
{
	size_t n = strlen(name), i;
	char *s = arena_alloc(a, prefix_len + n + 24);

	if (!s)
		return NULL;
	memset(s, '_', prefix_len);
	for (i = 0; i < n; i++)
		s[prefix_len + i] = is_ident_char((unsigned char) name[i]) ? name[i] : '_';
	s[prefix_len + n] = '\0';
	return s;
}

char *ctf_write_ident(struct arena *a, const char *name)
{
	char *s = sanitize(a, name, 1);

	if (!s)
		return NULL;
	/* the prefix stays only when needed: a keyword or a leading digit */
	if (!ctf_write_is_keyword(s + 1) && !(s[1] >= '0' && s[1] <= '9'))
		return s + 1;
	return s;
}

/*
 * The written name of a structure member shown as @name (rules 1 and 2 of tk_ctf_writer.h);
 * rule 3 (unique names) is applied by the caller.
 */
static char *member_name(struct arena *a, const char *name)
{
	char *s = sanitize(a, name, 1);

	if (s && ctf_write_is_keyword(s))
		return s + 1; /* "_Bool" and friends: written unprefixed, shown the same */
	return s;
}

/* Rule 3: append "_2", "_3", ... to @s (allocated with room) until no earlier name equals it. */
static void make_unique(char *s, const char *const *earlier, size_t n)
{
	size_t base = strlen(s), i;
	unsigned long k = 1;

	for (;;) {
		for (i = 0; i < n; i++)
			if (!strcmp(earlier[i], s))
				break;
		if (i == n)
			return;
		snprintf(s + base, 22, "_%lu", ++k);
	}
}

/* ---- the compiler ------------------------------------------------------------------------- */

/*
 * A list being compiled, innermost last: where lengths and tags are looked up. Structures
 * offer their members compiled so far; variants only take part in the check that a
 * reference reads the same to readers, which look names up in them too.
 */
struct frame {
	const struct tk_ctf_field_decl *d;
	struct cw_field *f;
	size_t n;    /* declarations */
	size_t done; /* members compiled so far (structures) */
	int is_variant;
};

struct compiler {
	struct arena *a;
	const char *what;
	struct frame frames[CW_MAX_DEPTH];
	unsigned int depth; /* frames in use */
	unsigned int nest;  /* fields being compiled, one inside the other */
	uint16_t n_slots;
};

static enum tk_status compile_field(struct compiler *c, const struct tk_ctf_field_decl *d,
				    struct cw_field *f, int is_member);
static enum tk_status compile_kind(struct compiler *c, const struct tk_ctf_field_decl *d,
				   struct cw_field *f, int is_member);

static const char *decl_name(const struct tk_ctf_field_decl *d)
{
	return d->name ? d->name : "";
}

static unsigned int storage_bytes(unsigned int bits)
{
	return bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
}

static int check_base(unsigned int *base)
{
	if (*base == 0)
		*base = 10;
	return *base == 2 || *base == 8 || *base == 10 || *base == 16;
}

/*
 * Find the member a sequence's length or a variant's tag names: the nearest structure
 * member of that (given) name compiled before, in the innermost structure first. It must be
 * of kind @kind (an unsigned INT for lengths, an ENUM for tags) and read back the same:
 * readers look its written name up from the innermost list outward, so no list in between
 * may offer that written name before it. The member then keeps its value in a slot.
 */
static enum tk_status resolve_ref(struct compiler *c, const struct tk_ctf_field_decl *d,
				  int want_enum, struct cw_field *user, struct cw_field **target)
{
	const char *kind = want_enum ? "tag" : "length";
	struct cw_field *t = NULL;
	unsigned int k, at = 0;
	size_t j;

	if (!d->ref)
		return TK_FAIL(TK_ERR_INVAL, "Cannot declare field: %s, field=%s, reason=no %s",
			       c->what, decl_name(d), kind);
	for (k = c->depth; k-- > 0 && !t;) {
		const struct frame *fr = &c->frames[k];

		for (j = fr->done; !fr->is_variant && j-- > 0;)
			if (fr->d[j].name && !strcmp(fr->d[j].name, d->ref)) {
				t = &fr->f[j];
				at = k;
				break;
			}
	}
	if (!t)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot declare field: %s, field=%s, %s=%s, reason=no member of "
			       "that name before it",
			       c->what, decl_name(d), kind, d->ref);
	if (want_enum ? t->kind != TK_CTF_FIELD_KIND_ENUM
		      : (t->kind != TK_CTF_FIELD_KIND_INT || t->is_signed))
		return TK_FAIL(TK_ERR_INVAL, "Cannot declare field: %s, field=%s, %s=%s, reason=%s",
			       c->what, decl_name(d), kind, d->ref,
			       want_enum ? "a tag is an enumeration"
					 : "a length is an unsigned integer");
	for (k = at + 1; k < c->depth; k++) {
		const struct frame *fr = &c->frames[k];
		size_t n = fr->is_variant ? fr->n : fr->done;

		for (j = 0; j < n; j++)
			if ((fr->is_variant ? fr->d[j].name : fr->f[j].name) &&
			    !strcmp(fr->is_variant ? fr->d[j].name : fr->f[j].name, t->name))
				return TK_FAIL(TK_ERR_INVAL,
					       "Cannot declare field: %s, field=%s, %s=%s, "
					       "reason=a nearer field is written %s",
					       c->what, decl_name(d), kind, d->ref, t->name);
	}
	if (t->store < 0) {
		if (c->n_slots >= CW_MAX_SLOTS)
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot declare field: %s, field=%s, reason=more than %d "
				       "lengths and tags in one scope",
				       c->what, decl_name(d), CW_MAX_SLOTS);
		t->store = (int16_t) c->n_slots++;
		t->simple = 0;
	}
	user->ref = t->store;
	user->ref_name = t->name;
	if (target)
		*target = t;
	return TK_OK;
}

/* Copy an enumeration's labels; each range in order (lo <= hi for the container's sign). */
static enum tk_status compile_labels(struct compiler *c, const struct tk_ctf_field_decl *d,
				     struct cw_field *f)
{
	struct tk_ctf_enum_label *l;
	size_t i;

	if (d->n_labels > UINT32_MAX / 2 || (d->n_labels && !d->labels))
		return TK_FAIL(TK_ERR_INVAL, "Cannot declare field: %s, field=%s, labels=%zu",
			       c->what, decl_name(d), d->n_labels);
	l = arena_alloc(c->a, (d->n_labels + 1) * sizeof(*l));
	if (!l)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare field: %s", c->what);
	for (i = 0; i < d->n_labels; i++) {
		const struct tk_ctf_enum_label *x = &d->labels[i];
		int bad = d->is_signed ? x->lo.i > x->hi.i : x->lo.u > x->hi.u;

		if (!x->label || bad)
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot declare field: %s, field=%s, label-index=%zu, "
				       "reason=%s",
				       c->what, decl_name(d), i,
				       x->label ? "range ends before it begins" : "no label");
		l[i] = *x;
		l[i].label = arena_strdup(c->a, x->label);
		if (!l[i].label)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot declare field: %s", c->what);
	}
	f->labels = l;
	f->n_labels = (uint32_t) d->n_labels;
	return TK_OK;
}

static enum tk_status compile_int(struct compiler *c, const struct tk_ctf_field_decl *d,
				  struct cw_field *f)
{
	unsigned int base = d->base;

	if (d->bits < 1 || d->bits > 64 || !check_base(&base))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot declare field: %s, field=%s, bits=%u, base=%u, "
			       "reason=integers have 1 to 64 bits and base 2, 8, 10 or 16",
			       c->what, decl_name(d), d->bits, d->base);
	f->bits = (uint8_t) d->bits;
	f->is_signed = !!d->is_signed;
	f->base = (uint8_t) base;
	f->out_bytes = (uint8_t) ((d->bits + 7) / 8);
	switch (d->bits) {
	case 8:
		f->op = CW_OP_U8;
		break;
	case 16:
		f->op = CW_OP_U16;
		break;
	case 32:
		f->op = CW_OP_U32;
		break;
	case 64:
		f->op = CW_OP_U64;
		break;
	default:
		f->op = CW_OP_BITS;
		break;
	}
	f->size = f->out_bytes;
	f->n_vals = 1;
	f->simple = 1;
	if (d->kind == TK_CTF_FIELD_KIND_ENUM)
		return compile_labels(c, d, f);
	return TK_OK;
}

/* Arrays and sequences of INT or CHAR elements given as data (the value's @data). */
static enum tk_status compile_data_array(struct compiler *c, const struct tk_ctf_field_decl *d,
					 struct cw_field *f, enum tk_ctf_field_kind elem_kind)
{
	unsigned int elem_base = d->elem_base;

	f->op = d->kind == TK_CTF_FIELD_KIND_ARRAY ? CW_OP_ARRAY : CW_OP_SEQUENCE;
	f->elem_kind = (uint8_t) elem_kind;
	if (elem_kind == TK_CTF_FIELD_KIND_CHAR) {
		f->bits = 8;
		f->base = 10;
	} else if (elem_kind == TK_CTF_FIELD_KIND_INT && d->elem_bits >= 1 && d->elem_bits <= 64 &&
		   check_base(&elem_base)) {
		f->bits = (uint8_t) d->elem_bits;
		f->is_signed = !!d->elem_signed;
		f->base = (uint8_t) elem_base;
	} else {
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot declare field: %s, field=%s, element-kind=%d, "
			       "element-bits=%u, element-base=%u, reason=elements are integers of "
			       "1 to 64 bits (base 2, 8, 10 or 16) or characters",
			       c->what, decl_name(d), (int) elem_kind, d->elem_bits, d->elem_base);
	}
	f->in_bytes = (uint8_t) storage_bytes(f->bits);
	f->out_bytes = (uint8_t) ((f->bits + 7) / 8);
	return TK_OK;
}

/* Arrays and sequences whose element is a declaration of its own (values depth first). */
static enum tk_status compile_elem_array(struct compiler *c, const struct tk_ctf_field_decl *d,
					 struct cw_field *f)
{
	struct cw_field *e;
	enum tk_status st;

	f->op = d->kind == TK_CTF_FIELD_KIND_ARRAY ? CW_OP_ARRAY_OF : CW_OP_SEQ_OF;
	e = arena_alloc(c->a, sizeof(*e));
	if (!e)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare field: %s", c->what);
	f->sub.f = e;
	f->sub.n = 1;
	st = compile_field(c, d->elem, e, 0);
	if (st < 0)
		return TK_FAIL(st, "Cannot declare element: %s, field=%s", c->what, decl_name(d));
	e->name = NULL;
	/* never simple itself: its count value is checked per event (static elements are
	   skipped as a block all the same) */
	return TK_OK;
}

static enum tk_status compile_list(struct compiler *c, const struct tk_ctf_field_decl *d, size_t n,
				   const char *const *reserved, size_t n_reserved,
				   struct cw_fields *out);

/* A variant's options: names as given, each compiled, then the tag ranges choosing each. */
static enum tk_status compile_variant(struct compiler *c, const struct tk_ctf_field_decl *d,
				      struct cw_field *f)
{
	struct cw_field *tag = NULL;
	struct frame *fr;
	uint32_t i, j, k, nr = 0;
	enum tk_status st;

	f->op = CW_OP_VARIANT;
	if (!d->n_members || !d->members || d->n_members > UINT16_MAX)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot declare field: %s, field=%s, options=%zu, reason=a variant "
			       "has 1 to 65535 options",
			       c->what, decl_name(d), d->n_members);
	st = resolve_ref(c, d, 1, f, &tag);
	if (st < 0)
		return st;
	f->sub.n = (uint32_t) d->n_members;
	f->sub.f = arena_alloc(c->a, d->n_members * sizeof(*f->sub.f));
	f->opt_first = arena_alloc(c->a, (d->n_members + 1) * sizeof(*f->opt_first));
	if (!f->sub.f || !f->opt_first)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare field: %s", c->what);
	if (c->depth >= CW_MAX_DEPTH)
		return TK_FAIL(TK_ERR_INVAL, "Cannot declare field: %s, reason=nested too deeply",
			       c->what);
	fr = &c->frames[c->depth++];
	fr->d = d->members;
	fr->f = f->sub.f;
	fr->n = d->n_members;
	fr->done = 0;
	fr->is_variant = 1;
	for (i = 0; i < f->sub.n; i++) {
		const char *nm = d->members[i].name;

		if (!nm || !is_plain_ident(nm))
			st = TK_FAIL(TK_ERR_INVAL,
				     "Cannot declare variant option: %s, field=%s, option=%s, "
				     "reason=option names are TSDL identifiers, not keywords",
				     c->what, decl_name(d), nm ? nm : "(none)");
		for (j = 0; j < i && st >= 0; j++)
			if (!strcmp(d->members[j].name, nm))
				st = TK_FAIL(TK_ERR_INVAL,
					     "Cannot declare variant option: %s, field=%s, "
					     "option=%s, reason=name given twice",
					     c->what, decl_name(d), nm);
		if (st >= 0)
			st = compile_field(c, &d->members[i], &f->sub.f[i], 0);
		if (st >= 0 && !(f->sub.f[i].name = arena_strdup(c->a, nm)))
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot declare field: %s", c->what);
		if (st < 0) {
			c->depth--;
			return st;
		}
	}
	c->depth--;
	/* option i is chosen by the tag's labels equal to its name, as readers match them */
	for (i = 0; i < f->sub.n; i++)
		for (k = 0; k < tag->n_labels; k++)
			nr += !strcmp(tag->labels[k].label, f->sub.f[i].name);
	f->ranges = arena_alloc(c->a, (nr + 1) * sizeof(*f->ranges));
	if (!f->ranges)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare field: %s", c->what);
	nr = 0;
	for (i = 0; i < f->sub.n; i++) {
		f->opt_first[i] = nr;
		for (k = 0; k < tag->n_labels; k++)
			if (!strcmp(tag->labels[k].label, f->sub.f[i].name)) {
				f->ranges[nr].lo = tag->labels[k].lo;
				f->ranges[nr].hi = tag->labels[k].hi;
				nr++;
			}
	}
	f->opt_first[f->sub.n] = nr;
	f->is_signed = tag->is_signed;
	return TK_OK;
}

/*
 * Check one declaration and fill @f (but its name); a cause names the field on failure.
 * @is_member: a structure member (only those may be sequences with a length of their own).
 */
static enum tk_status compile_field(struct compiler *c, const struct tk_ctf_field_decl *d,
				    struct cw_field *f, int is_member)
{
	enum tk_status st;

	if (c->nest >= CW_MAX_DEPTH)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot declare field: %s, field=%s, reason=nested "
			       "too deeply",
			       c->what, decl_name(d));
	c->nest++;
	st = compile_kind(c, d, f, is_member);
	c->nest--;
	return st;
}

static enum tk_status compile_kind(struct compiler *c, const struct tk_ctf_field_decl *d,
				   struct cw_field *f, int is_member)
{
	enum tk_status st = TK_OK;
	uint32_t i;

	f->kind = (uint8_t) d->kind;
	f->store = -1;
	f->ref = -1;
	f->aligned = 1;
	switch (d->kind) {
	case TK_CTF_FIELD_KIND_INT:
	case TK_CTF_FIELD_KIND_ENUM:
		return compile_int(c, d, f);
	case TK_CTF_FIELD_KIND_FLOAT:
		if (d->bits != 32 && d->bits != 64)
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot declare field: %s, field=%s, bits=%u, "
				       "reason=floats have 32 or 64 bits",
				       c->what, decl_name(d), d->bits);
		f->bits = (uint8_t) d->bits;
		f->op = d->bits == 32 ? CW_OP_F32 : CW_OP_F64;
		f->out_bytes = (uint8_t) (d->bits / 8);
		f->size = f->out_bytes;
		f->n_vals = 1;
		f->simple = 1;
		return TK_OK;
	case TK_CTF_FIELD_KIND_STRING:
		f->op = CW_OP_STRING;
		return TK_OK;
	case TK_CTF_FIELD_KIND_STRUCT:
		f->op = CW_OP_STRUCT;
		if (d->n_members && !d->members)
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot declare field: %s, field=%s, reason=no members",
				       c->what, decl_name(d));
		st = compile_list(c, d->members, d->n_members, NULL, 0, &f->sub);
		if (st < 0)
			return st;
		f->aligned = 0;
		f->simple = 1;
		for (i = 0; i < f->sub.n; i++) {
			const struct cw_field *m = &f->sub.f[i];

			f->aligned |= m->aligned;
			f->simple &= m->simple;
			f->size += m->size;
			f->n_vals += m->n_vals;
		}
		if (!f->simple)
			f->size = f->n_vals = 0;
		return TK_OK;
	case TK_CTF_FIELD_KIND_VARIANT:
		f->aligned = 0;
		return compile_variant(c, d, f);
	case TK_CTF_FIELD_KIND_ARRAY:
	case TK_CTF_FIELD_KIND_SEQUENCE:
		break;
	default:
		return TK_FAIL(TK_ERR_INVAL, "Cannot declare field: %s, field=%s, kind=%d", c->what,
			       decl_name(d), (int) d->kind);
	}
	if (d->kind == TK_CTF_FIELD_KIND_ARRAY && d->array_len > UINT32_MAX)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot declare field: %s, field=%s, length=%" PRIu64
			       ", reason=more than 2^32 - 1 elements",
			       c->what, decl_name(d), d->array_len);
	f->array_len = d->kind == TK_CTF_FIELD_KIND_ARRAY ? d->array_len : 0;
	if (d->kind == TK_CTF_FIELD_KIND_SEQUENCE && d->ref) {
		st = resolve_ref(c, d, 0, f, NULL);
	} else if (d->kind == TK_CTF_FIELD_KIND_SEQUENCE && !is_member) {
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot declare field: %s, field=%s, reason=a sequence that is an "
			       "element or option needs a length member",
			       c->what, decl_name(d));
	}
	if (st < 0)
		return st;
	if (d->elem && d->elem->kind != TK_CTF_FIELD_KIND_CHAR) {
		st = compile_elem_array(c, d, f);
		if (st >= 0 && f->op == CW_OP_SEQ_OF && f->ref < 0)
			f->aligned = 1; /* its own length comes first */
		else if (st >= 0)
			f->aligned = f->sub.f[0].aligned;
		return st;
	}
	return compile_data_array(c, d, f, d->elem ? TK_CTF_FIELD_KIND_CHAR : d->elem_kind);
}

/*
 * Names: a sequence without a length member is preceded by its length (shown as
 * _NAME_length), and names are unique within the list, @reserved ones included.
 */
static enum tk_status name_member(struct compiler *c, const struct tk_ctf_field_decl *d,
				  struct cw_field *f, const char **names, size_t *nn)
{
	char *w;

	if (f->op == CW_OP_SEQUENCE || f->op == CW_OP_SEQ_OF) {
		if (f->ref < 0) {
			size_t l = strlen(d->name);
			char *shown = arena_alloc(c->a, l + 9);

			if (!shown)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot declare fields: %s", c->what);
			shown[0] = '_';
			memcpy(shown + 1, d->name, l);
			memcpy(shown + 1 + l, "_length", 8);
			w = member_name(c->a, shown);
			if (!w)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot declare fields: %s", c->what);
			make_unique(w, names, *nn);
			names[(*nn)++] = w;
			f->len_name = w;
		}
	}
	w = member_name(c->a, d->name);
	if (!w)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare fields: %s", c->what);
	make_unique(w, names, *nn);
	names[(*nn)++] = w;
	f->name = w;
	return TK_OK;
}

/*
 * Flat lists (scalars, strings, arrays and sequences given as data, without references)
 * keep the fast path of the first writer: per event, each field takes exactly one value, the
 * fixed size is known and only the fields in var[] are checked and measured.
 */
static void set_flat(struct cw_fields *out)
{
	const struct cw_field *last;
	uint32_t i;

	out->flat = 1;
	for (i = 0; i < out->n; i++) {
		const struct cw_field *f = &out->f[i];

		if (f->op > CW_OP_SEQUENCE || f->store >= 0 || f->ref >= 0) {
			out->flat = 0;
			out->fixed = 0;
			out->n_var = 0;
			return;
		}
		switch (f->op) {
		case CW_OP_STRING:
			out->fixed += 1;
			out->var[out->n_var++] = i;
			break;
		case CW_OP_ARRAY:
			out->fixed += (size_t) f->array_len * f->out_bytes;
			out->var[out->n_var++] = i;
			break;
		case CW_OP_SEQUENCE:
			out->fixed += 4;
			out->var[out->n_var++] = i;
			break;
		default:
			out->fixed += f->out_bytes;
			break;
		}
	}
	if (!out->n)
		return;
	/* where the last bit of the list is: readers take the packet content to end there */
	last = &out->f[out->n - 1];
	if (last->op == CW_OP_BITS || last->op == CW_OP_SEQUENCE ||
	    (last->op == CW_OP_ARRAY && last->array_len))
		out->tail_pad = (uint8_t) (8 * last->out_bytes - last->bits);
	out->tail_seq = last->op == CW_OP_SEQUENCE;
}

static enum tk_status compile_list(struct compiler *c, const struct tk_ctf_field_decl *d, size_t n,
				   const char *const *reserved, size_t n_reserved,
				   struct cw_fields *out)
{
	const char **names = NULL;
	struct frame *fr;
	size_t i, nn = n_reserved;
	enum tk_status st = TK_OK;

	memset(out, 0, sizeof(*out));
	out->present = 1;
	if (n > UINT32_MAX / 4)
		return TK_FAIL(TK_ERR_INVAL, "Cannot declare fields: %s, count=%zu", c->what, n);
	if (c->depth >= CW_MAX_DEPTH)
		return TK_FAIL(TK_ERR_INVAL, "Cannot declare fields: %s, reason=nested too deeply",
			       c->what);
	out->f = arena_alloc(c->a, (n + 1) * sizeof(*out->f));
	out->var = arena_alloc(c->a, (n + 1) * sizeof(*out->var));
	names = calloc(2 * n + n_reserved + 1, sizeof(*names));
	if (!out->f || !out->var || !names) {
		free(names);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare fields: %s", c->what);
	}
	if (n_reserved)
		memcpy(names, reserved, n_reserved * sizeof(*names));
	fr = &c->frames[c->depth++];
	fr->d = d;
	fr->f = out->f;
	fr->n = n;
	fr->done = 0;
	fr->is_variant = 0;
	for (i = 0; i < n && st >= 0; i++) {
		struct cw_field *f = &out->f[i];

		if (!d[i].name || !d[i].name[0])
			st = TK_FAIL(TK_ERR_INVAL, "Cannot declare field: %s, index=%zu, reason=%s",
				     c->what, i, d[i].name ? "empty name" : "no name");
		if (st >= 0)
			st = compile_field(c, &d[i], f, 1);
		if (st >= 0)
			st = name_member(c, &d[i], f, names, &nn);
		fr->done = i + 1;
	}
	c->depth--;
	free(names);
	if (st < 0)
		return st;
	out->n = (uint32_t) n;
	set_flat(out);
	return TK_OK;
}

enum tk_status ctf_write_fields_compile(struct arena *a, const struct tk_ctf_field_decl *d,
					size_t n, const char *what, const char *const *reserved,
					size_t n_reserved, struct cw_fields *out)
{
	struct compiler c;
	enum tk_status st;

	memset(&c, 0, sizeof(c));
	c.a = a;
	c.what = what;
	st = compile_list(&c, d, n, reserved, n_reserved, out);
	if (st < 0) {
		memset(out, 0, sizeof(*out));
		return st;
	}
	out->n_slots = c.n_slots;
	return TK_OK;
}

enum tk_status ctf_write_scope_compile(struct arena *a, const struct tk_ctf_field_decl *st,
				       const char *what, const char *const *reserved,
				       size_t n_reserved, struct cw_fields *out)
{
	memset(out, 0, sizeof(*out));
	if (!st)
		return TK_OK;
	if (st->kind != TK_CTF_FIELD_KIND_STRUCT || (st->n_members && !st->members))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot declare fields: %s, kind=%d, reason=a scope is a STRUCT",
			       what, (int) st->kind);
	return ctf_write_fields_compile(a, st->members, st->n_members, what, reserved, n_reserved,
					out);
}
