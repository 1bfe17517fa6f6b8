// SPDX-License-Identifier: MIT
/*
 * CTF 2 metadata (CTF2-SPEC-2.0): from JSON fragments to the trace model.
 *
 * The metadata stream is a JSON text sequence (RFC 7464): each fragment starts with the
 * record separator 0x1E. Fragments are read in order, each one only referring to what came
 * before it: the preamble first, then field class aliases, the trace class, clock classes,
 * data stream classes and event record classes. The field classes become the same model
 * field classes (struct ctf_fc) as the CTF 1.8 reader's, so that resolution, decoding and
 * printing are shared (ctf-resolve.c): in particular the special fields, which CTF 1.8 knows
 * by name and CTF 2 by role, take the CTF 1.8 name of their role (they are never shown), a
 * field location becomes the absolute CTF 1.8 path of its field, and a variant's options
 * carry their selector ranges. Names are used as written (CTF 2 strips no underscore).
 *
 * The field classes of CTF 1.8 are read, which is what LTTng and barectf write as CTF 2:
 * fixed-length integers (with mappings: enumerations), fixed-length floating point numbers
 * of 32 and 64 bits, null-terminated strings, static- and dynamic-length UTF-8 strings (text
 * arrays and sequences), static- and dynamic-length blobs (arrays and sequences of bytes),
 * static- and dynamic-length arrays, structures and variants. Booleans, bit arrays and bit
 * maps, variable-length integers, optionals, UTF-16 and UTF-32 strings, floating point
 * numbers of 16 or 128 bits and preamble extensions are refused with a cause naming them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/json-read.h"
#include "../common/str.h"
#include "ctf-fc-priv.h"
#include "ctf.h"

#define C2_MAX_DEPTH 64

enum c2_scope {
	C2_PACKET_HEADER,
	C2_PACKET_CONTEXT,
	C2_EVENT_HEADER,
	C2_COMMON_CONTEXT,
	C2_SPECIFIC_CONTEXT,
	C2_PAYLOAD,
	C2_SCOPES,
};

/* The origins of field locations, and the CTF 1.8 paths of the same scopes. */
static const char *const origin_name[C2_SCOPES] = {
	"packet-header",
	"packet-context",
	"event-record-header",
	"event-record-common-context",
	"event-record-specific-context",
	"event-record-payload",
};

static const char *const origin_path[C2_SCOPES] = {
	"trace.packet.header.",	 "stream.packet.context.", "stream.event.header.",
	"stream.event.context.", "event.context.",	   "event.fields.",
};

/* Roles and the CTF 1.8 names that mean the same, in the scope where each is allowed. */
static const struct {
	const char *role;
	const char *name;
	uint8_t scope;
	uint8_t clock; /* mapped to the data stream class's default clock */
} roles[] = {
	{"packet-magic-number", "magic", C2_PACKET_HEADER, 0},
	{"metadata-stream-uuid", "uuid", C2_PACKET_HEADER, 0},
	{"data-stream-class-id", "stream_id", C2_PACKET_HEADER, 0},
	{"data-stream-id", "stream_instance_id", C2_PACKET_HEADER, 0},
	{"packet-total-length", "packet_size", C2_PACKET_CONTEXT, 0},
	{"packet-content-length", "content_size", C2_PACKET_CONTEXT, 0},
	{"default-clock-timestamp", "timestamp_begin", C2_PACKET_CONTEXT, 1},
	{"packet-end-default-clock-timestamp", "timestamp_end", C2_PACKET_CONTEXT, 1},
	{"discarded-event-record-counter-snapshot", "events_discarded", C2_PACKET_CONTEXT, 0},
	{"packet-sequence-number", "packet_seq_num", C2_PACKET_CONTEXT, 0},
	{"event-record-class-id", "id", C2_EVENT_HEADER, 0},
	{"default-clock-timestamp", "timestamp", C2_EVENT_HEADER, 1},
};

/* LTTng's log level names (attribute "lttng.org,2009" "log-level"), by value. */
static const char *const log_levels[] = {
	"emergency",	"alert",      "critical",	"error",	 "warning",
	"notice",	"info",	      "debug:system",	"debug:program", "debug:process",
	"debug:module", "debug:unit", "debug:function", "debug:line",	 "debug",
};

struct c2_alias {
	const char *name;
	const struct json_value *fc;
};

struct c2 {
	struct tk_source *src;
	struct ctf_trace *ct;
	struct arena *a;
	struct vec aliases;   /* struct c2_alias */
	struct vec clocks;    /* struct tk_clock * */
	struct vec clock_ids; /* const char *, the id of each clock */
	struct vec env;	      /* struct model_env */
	struct vec scs;	      /* struct ctf_sc_build */
	size_t frag;	      /* fragment being read, from 1 */
	size_t frag_off;      /* where it starts in the text */
	int has_trace_class;
	int depth;
	enum c2_scope scope;	/* of the field class being read */
	struct tk_clock *clock; /* default clock of the data stream class being read */
};

static TK_COLD enum tk_status c2_fail(const struct c2 *c, const struct json_value *v,
				      enum tk_status code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static TK_COLD enum tk_status c2_fail(const struct c2 *c, const struct json_value *v,
				      enum tk_status code, const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	return TK_FAIL(code, "Cannot read CTF 2 metadata: fragment=%zu, offset=%zu, reason=%s",
		       c->frag, c->frag_off + (v ? v->offset : 0), reason);
}

#define C2_NOMEM(c) TK_FAIL(TK_ERR_NOMEM, "Cannot read CTF 2 metadata: fragment=%zu", (c)->frag)

/* ---- values ---------------------------------------------------------------------------- */

static enum tk_status get_uint(const struct c2 *c, const struct json_value *obj, const char *key,
			       uint64_t def, uint64_t *out)
{
	const struct json_value *v = json_member(obj, key);

	*out = def;
	if (v && json_uint(v, out) < 0)
		return c2_fail(c, v, TK_ERR_FORMAT, "%s is not an unsigned integer", key);
	return TK_OK;
}

/* Optional string member @key: *out is NULL when absent. */
static enum tk_status get_string(const struct c2 *c, const struct json_value *obj, const char *key,
				 const char **out)
{
	const struct json_value *v = json_member(obj, key);

	*out = NULL;
	if (!v)
		return TK_OK;
	if (v->kind != JSON_STRING)
		return c2_fail(c, v, TK_ERR_FORMAT, "%s is not a string", key);
	*out = v->s;
	return TK_OK;
}

static enum tk_status get_align(const struct c2 *c, const struct json_value *obj, const char *key,
				uint32_t *out)
{
	uint64_t u;
	enum tk_status st = get_uint(c, obj, key, 1, &u);

	if (st < 0)
		return st;
	if (!u || (u & (u - 1)) || u > (1u << 30))
		return c2_fail(c, json_member(obj, key), TK_ERR_FORMAT,
			       "%s=%llu is not a power of two", key, (unsigned long long) u);
	*out = (uint32_t) u;
	return TK_OK;
}

/* ---- field classes --------------------------------------------------------------------- */

static enum tk_status read_fc(struct c2 *c, const struct json_value *v, struct model_fc **out);

static struct model_fc *fc_new(struct c2 *c, uint8_t kind)
{
	return ctf_fc_new(c->a, kind, TK_BYTE_ORDER_LE);
}

static enum tk_status read_byte_order(const struct c2 *c, const struct json_value *v,
				      struct model_fc *fc)
{
	const struct json_value *bo = json_member(v, "byte-order");
	const struct json_value *bit = json_member(v, "bit-order");

	if (json_is_string(bo, "little-endian"))
		fc->byte_order = TK_BYTE_ORDER_LE;
	else if (json_is_string(bo, "big-endian"))
		fc->byte_order = TK_BYTE_ORDER_BE;
	else
		return c2_fail(c, bo ? bo : v, TK_ERR_FORMAT,
			       "byte-order must be \"little-endian\" or \"big-endian\"");
	/* CTF 1.8 reads bits in the order of the bytes: the only bit order it has */
	if (bit && !json_is_string(bit, fc->byte_order == TK_BYTE_ORDER_LE ? "first-to-last"
									   : "last-to-first"))
		return c2_fail(c, bit, TK_ERR_UNSUPPORTED,
			       "a bit order other than the byte order's is not supported");
	return TK_OK;
}

static enum tk_status read_mappings(struct c2 *c, const struct json_value *maps,
				    struct model_fc *fc)
{
	size_t i, k;

	if (maps->kind != JSON_OBJECT)
		return c2_fail(c, maps, TK_ERR_FORMAT, "mappings is not an object");
	fc->kind = MODEL_FC_ENUM;
	fc->u.en.count = (uint32_t) maps->n;
	fc->u.en.maps = arena_alloc(c->a, (maps->n + 1) * sizeof(*fc->u.en.maps));
	if (!fc->u.en.maps)
		return C2_NOMEM(c);
	for (i = 0; i < maps->n; i++) {
		const struct json_value *rs = &maps->members[i].value;
		struct model_enum_mapping *mp = &fc->u.en.maps[i];

		mp->label = maps->members[i].key;
		if (rs->kind != JSON_ARRAY || !rs->n)
			return c2_fail(c, rs, TK_ERR_FORMAT,
				       "mapping \"%s\" is not an array of integer ranges",
				       mp->label);
		mp->ranges = arena_alloc(c->a, rs->n * sizeof(*mp->ranges));
		if (!mp->ranges)
			return C2_NOMEM(c);
		mp->nranges = (uint32_t) rs->n;
		for (k = 0; k < rs->n; k++) {
			const struct json_value *r = &rs->items[k];
			int64_t lo, hi;
			uint64_t ulo, uhi;

			if (r->kind != JSON_ARRAY || r->n != 2)
				goto bad;
			if (fc->is_signed) {
				if (json_int(&r->items[0], &lo) || json_int(&r->items[1], &hi) ||
				    lo > hi)
					goto bad;
				mp->ranges[k].lo.i = lo;
				mp->ranges[k].hi.i = hi;
			} else {
				if (json_uint(&r->items[0], &ulo) ||
				    json_uint(&r->items[1], &uhi) || ulo > uhi)
					goto bad;
				mp->ranges[k].lo.u = ulo;
				mp->ranges[k].hi.u = uhi;
			}
			continue;
bad:
			return c2_fail(
				c, r, TK_ERR_FORMAT,
				"mapping \"%s\": a range is not two %s integers, lower first",
				mp->label, fc->is_signed ? "signed" : "unsigned");
		}
	}
	return TK_OK;
}

static enum tk_status read_int(struct c2 *c, const struct json_value *v, int is_signed,
			       struct model_fc **out)
{
	struct model_fc *fc = fc_new(c, MODEL_FC_INT);
	const struct json_value *maps = json_member(v, "mappings");
	uint64_t u;
	enum tk_status st;

	if (!fc)
		return C2_NOMEM(c);
	fc->is_signed = (uint8_t) is_signed;
	st = get_uint(c, v, "length", 0, &u);
	if (st < 0)
		return st;
	if (u == 0 || u > 64)
		return c2_fail(c, v, u ? TK_ERR_UNSUPPORTED : TK_ERR_FORMAT,
			       "length=%llu: integers are 1 to 64 bits", (unsigned long long) u);
	fc->size = (uint32_t) u;
	st = read_byte_order(c, v, fc);
	if (st >= 0)
		st = get_align(c, v, "alignment", &fc->align);
	if (st >= 0)
		st = get_uint(c, v, "preferred-display-base", 10, &u);
	if (st < 0)
		return st;
	if (u != 2 && u != 8 && u != 10 && u != 16)
		return c2_fail(c, json_member(v, "preferred-display-base"), TK_ERR_FORMAT,
			       "preferred-display-base=%llu is not 2, 8, 10 or 16",
			       (unsigned long long) u);
	fc->base = (uint8_t) u;
	if (maps) {
		st = read_mappings(c, maps, fc);
		if (st < 0)
			return st;
	}
	*out = fc;
	return TK_OK;
}

static enum tk_status read_float(struct c2 *c, const struct json_value *v, struct model_fc **out)
{
	struct model_fc *fc = fc_new(c, MODEL_FC_FLOAT);
	uint64_t u;
	enum tk_status st;

	if (!fc)
		return C2_NOMEM(c);
	st = get_uint(c, v, "length", 0, &u);
	if (st < 0)
		return st;
	if (u != 32 && u != 64)
		return c2_fail(c, v, TK_ERR_UNSUPPORTED,
			       "length=%llu: floating point numbers of 32 and 64 bits only",
			       (unsigned long long) u);
	fc->size = (uint32_t) u;
	fc->exp_dig = u == 32 ? 8 : 11;
	fc->mant_dig = u == 32 ? 24 : 53;
	st = read_byte_order(c, v, fc);
	if (st >= 0)
		st = get_align(c, v, "alignment", &fc->align);
	if (st < 0)
		return st;
	*out = fc;
	return TK_OK;
}

/* Strings must be UTF-8 (CTF 1.8 has no other encoding of text). */
static enum tk_status check_utf8(const struct c2 *c, const struct json_value *v)
{
	const struct json_value *e = json_member(v, "encoding");

	if (e && !json_is_string(e, "utf-8"))
		return c2_fail(c, e, TK_ERR_UNSUPPORTED,
			       "strings other than UTF-8 are not supported");
	return TK_OK;
}

/*
 * The CTF 1.8 path of a field location: its origin's scope and the member names; the path
 * of the location of a length or selector, which ctf-resolve.c resolves and checks.
 */
static enum tk_status read_location(struct c2 *c, const struct json_value *v, const char *key,
				    const char **out)
{
	const struct json_value *loc = json_member(v, key), *origin, *path;
	size_t i, n;
	int s;
	char *p;

	if (!loc || loc->kind != JSON_OBJECT)
		return c2_fail(c, loc ? loc : v, TK_ERR_FORMAT, "missing %s object", key);
	origin = json_member(loc, "origin");
	path = json_member(loc, "path");
	if (!origin)
		return c2_fail(c, loc, TK_ERR_UNSUPPORTED,
			       "%s without an origin (relative) is not supported", key);
	for (s = 0; s < C2_SCOPES; s++)
		if (json_is_string(origin, origin_name[s]))
			break;
	if (s == C2_SCOPES)
		return c2_fail(c, origin, TK_ERR_FORMAT, "%s: unknown origin", key);
	if (!path || path->kind != JSON_ARRAY || !path->n)
		return c2_fail(c, path ? path : loc, TK_ERR_FORMAT,
			       "%s: path is not an array of member names", key);
	n = strlen(origin_path[s]);
	for (i = 0; i < path->n; i++) {
		const struct json_value *e = &path->items[i];

		if (e->kind != JSON_STRING || !e->len || strchr(e->s, '.'))
			return c2_fail(c, e,
				       e->kind == JSON_STRING ? TK_ERR_UNSUPPORTED : TK_ERR_FORMAT,
				       "%s: path elements must be member names without a dot", key);
		n += e->len + 1;
	}
	p = arena_alloc(c->a, n);
	if (!p)
		return C2_NOMEM(c);
	*out = p;
	n = strlen(origin_path[s]);
	memcpy(p, origin_path[s], n);
	p += n;
	for (i = 0; i < path->n; i++) {
		memcpy(p, path->items[i].s, path->items[i].len);
		p += path->items[i].len;
		*p++ = i + 1 < path->n ? '.' : '\0';
	}
	return TK_OK;
}

/* An array or sequence of bytes: blobs, and with UTF-8 text strings (ctf-resolve.c). */
static enum tk_status byte_array(struct c2 *c, const struct json_value *v, int text, int dynamic,
				 struct model_fc **out)
{
	struct model_fc *e = fc_new(c, MODEL_FC_INT);
	struct model_fc *fc = fc_new(c, dynamic ? MODEL_FC_SEQUENCE : MODEL_FC_ARRAY);
	enum tk_status st;

	if (!e || !fc)
		return C2_NOMEM(c);
	e->size = 8;
	e->align = 8;
	e->encoding = text ? MODEL_ENCODING_UTF8 : MODEL_ENCODING_NONE;
	fc->align = 8;
	fc->u.arr.elem = e;
	if (dynamic)
		st = read_location(c, v, "length-field-location", &fc->ref);
	else
		st = get_uint(c, v, "length", 0, &fc->u.arr.length);
	if (st < 0)
		return st;
	if (!dynamic && !json_member(v, "length"))
		return c2_fail(c, v, TK_ERR_FORMAT, "missing length");
	*out = fc;
	return TK_OK;
}

static enum tk_status read_array(struct c2 *c, const struct json_value *v, int dynamic,
				 struct model_fc **out)
{
	struct model_fc *fc = fc_new(c, dynamic ? MODEL_FC_SEQUENCE : MODEL_FC_ARRAY);
	const struct json_value *elem = json_member(v, "element-field-class");
	enum tk_status st;

	if (!fc)
		return C2_NOMEM(c);
	if (!elem)
		return c2_fail(c, v, TK_ERR_FORMAT, "missing element-field-class");
	st = get_align(c, v, "minimum-alignment", &fc->align);
	if (st < 0)
		return st;
	if (dynamic) {
		st = read_location(c, v, "length-field-location", &fc->ref);
	} else {
		if (!json_member(v, "length"))
			return c2_fail(c, v, TK_ERR_FORMAT, "missing length");
		st = get_uint(c, v, "length", 0, &fc->u.arr.length);
	}
	if (st >= 0)
		st = read_fc(c, elem, &fc->u.arr.elem);
	if (st < 0)
		return st;
	*out = fc;
	return TK_OK;
}

/* The role of member @mb in the scope being read: its CTF 1.8 name and clock. */
static enum tk_status apply_roles(struct c2 *c, const struct json_value *fcv,
				  struct model_member *mb)
{
	const struct json_value *rv = json_member(fcv, "roles");
	size_t i, k;

	if (!rv)
		return TK_OK;
	if (rv->kind != JSON_ARRAY)
		return c2_fail(c, rv, TK_ERR_FORMAT, "roles is not an array");
	for (i = 0; i < rv->n; i++) {
		for (k = 0; k < TK_ARRAY_SIZE(roles); k++)
			if (json_is_string(&rv->items[i], roles[k].role) &&
			    roles[k].scope == c->scope)
				break;
		if (k == TK_ARRAY_SIZE(roles))
			return c2_fail(c, &rv->items[i], TK_ERR_FORMAT,
				       "member \"%s\": role %s%s%s not allowed in this scope",
				       mb->name, rv->items[i].kind == JSON_STRING ? "\"" : "",
				       rv->items[i].kind == JSON_STRING ? rv->items[i].s : "",
				       rv->items[i].kind == JSON_STRING ? "\"" : "");
		if (!strcmp(roles[k].role, "metadata-stream-uuid")) {
			const struct model_fc *f = mb->fc;

			if (f->kind != MODEL_FC_ARRAY || f->u.arr.length != 16 ||
			    f->u.arr.elem->kind != MODEL_FC_INT || f->u.arr.elem->size != 8)
				return c2_fail(c, fcv, TK_ERR_FORMAT,
					       "member \"%s\": a metadata stream UUID is 16 bytes",
					       mb->name);
		} else if ((mb->fc->kind != MODEL_FC_INT && mb->fc->kind != MODEL_FC_ENUM) ||
			   mb->fc->is_signed) {
			return c2_fail(c, fcv, TK_ERR_FORMAT,
				       "member \"%s\": role \"%s\" needs an unsigned integer",
				       mb->name, roles[k].role);
		}
		if (roles[k].clock) {
			if (!c->clock)
				return c2_fail(c, fcv, TK_ERR_FORMAT,
					       "member \"%s\": role \"%s\" in a data stream class "
					       "without a default clock class",
					       mb->name, roles[k].role);
			mb->fc->clock = c->clock;
		}
		mb->name = mb->orig_name = roles[k].name;
	}
	return TK_OK;
}

static enum tk_status read_struct(struct c2 *c, const struct json_value *v, struct model_fc **out)
{
	struct model_fc *fc = fc_new(c, MODEL_FC_STRUCT);
	const struct json_value *mv = json_member(v, "member-classes");
	size_t i, k;
	enum tk_status st;

	if (!fc)
		return C2_NOMEM(c);
	st = get_align(c, v, "minimum-alignment", &fc->align);
	if (st < 0)
		return st;
	if (mv && mv->kind != JSON_ARRAY)
		return c2_fail(c, mv, TK_ERR_FORMAT, "member-classes is not an array");
	fc->u.st.count = mv ? (uint32_t) mv->n : 0;
	fc->u.st.members = arena_alloc(c->a, (fc->u.st.count + 1) * sizeof(struct model_member));
	if (!fc->u.st.members)
		return C2_NOMEM(c);
	for (i = 0; i < fc->u.st.count; i++) {
		const struct json_value *m = &mv->items[i], *fcv = json_member(m, "field-class");
		struct model_member *mb = &fc->u.st.members[i];
		const char *name = NULL;

		st = get_string(c, m, "name", &name);
		if (st < 0)
			return st;
		if (!name || !*name || !fcv)
			return c2_fail(c, m, TK_ERR_FORMAT,
				       "a member class needs a name and a field-class");
		mb->name = mb->orig_name = name;
		st = read_fc(c, fcv, &mb->fc);
		if (st < 0)
			return st;
		while (fcv->kind == JSON_STRING) { /* an alias: its roles are its class's */
			for (k = 0; strcmp(VEC_AT(&c->aliases, struct c2_alias, k).name, fcv->s);
			     k++)
				; /* read_fc() found it */
			fcv = VEC_AT(&c->aliases, struct c2_alias, k).fc;
		}
		st = apply_roles(c, fcv, mb);
		if (st < 0)
			return st;
		for (k = 0; k < i; k++)
			if (!strcmp(fc->u.st.members[k].name, mb->name))
				return c2_fail(c, m, TK_ERR_FORMAT, "duplicate member \"%s\"",
					       mb->name);
	}
	*out = fc;
	return TK_OK;
}

static enum tk_status read_variant(struct c2 *c, const struct json_value *v, struct model_fc **out)
{
	struct model_fc *fc = fc_new(c, MODEL_FC_VARIANT);
	const struct json_value *ov = json_member(v, "options");
	size_t i, k, n = 0;
	enum tk_status st;

	if (!fc)
		return C2_NOMEM(c);
	if (!ov || ov->kind != JSON_ARRAY || !ov->n)
		return c2_fail(c, ov ? ov : v, TK_ERR_FORMAT, "options is not a non-empty array");
	st = read_location(c, v, "selector-field-location", &fc->ref);
	if (st < 0)
		return st;
	fc->u.var.count = (uint32_t) ov->n;
	fc->u.var.options = arena_alloc(c->a, ov->n * sizeof(struct model_member));
	if (!fc->u.var.options)
		return C2_NOMEM(c);
	for (i = 0; i < ov->n; i++) {
		const struct json_value *rs = json_member(&ov->items[i], "selector-field-ranges");

		if (!rs || rs->kind != JSON_ARRAY || !rs->n)
			return c2_fail(c, rs ? rs : &ov->items[i], TK_ERR_FORMAT,
				       "option %zu: selector-field-ranges is not a non-empty array",
				       i);
		n += rs->n;
	}
	fc->u.var.ranges = arena_alloc(c->a, n * sizeof(*fc->u.var.ranges));
	if (!fc->u.var.ranges)
		return C2_NOMEM(c);
	fc->u.var.nranges = (uint32_t) n;
	n = 0;
	for (i = 0; i < ov->n; i++) {
		const struct json_value *o = &ov->items[i], *fcv = json_member(o, "field-class");
		const struct json_value *rs = json_member(o, "selector-field-ranges");
		struct model_member *mb = &fc->u.var.options[i];
		const char *name = NULL;
		char *gen;

		st = get_string(c, o, "name", &name);
		if (st < 0)
			return st;
		if (!fcv)
			return c2_fail(c, o, TK_ERR_FORMAT, "option %zu: missing field-class", i);
		if (!name) { /* unnamed options are allowed: the text never shows them */
			gen = arena_alloc(c->a, 32);
			if (!gen)
				return C2_NOMEM(c);
			snprintf(gen, 32, "_option_%zu", i); /* a CTF 1.8 identifier, for writers */
			name = gen;
		}
		for (k = 0; k < i; k++)
			if (!strcmp(fc->u.var.options[k].name, name))
				return c2_fail(c, o, TK_ERR_FORMAT,
					       "option %zu: duplicate name \"%s\"", i, name);
		mb->name = mb->orig_name = name;
		st = read_fc(c, fcv, &mb->fc);
		if (st < 0)
			return st;
		for (k = 0; k < rs->n; k++, n++) {
			const struct json_value *r = &rs->items[k];
			struct model_variant_range *vr = &fc->u.var.ranges[n];
			int ok;

			/* signed or not is the selector's, known when it is resolved: keep both */
			ok = r->kind == JSON_ARRAY && r->n == 2 &&
			     r->items[0].kind == JSON_NUMBER && r->items[0].is_int &&
			     r->items[1].kind == JSON_NUMBER && r->items[1].is_int;
			if (ok && !r->items[0].neg && !r->items[1].neg) {
				ok = r->items[0].u <= r->items[1].u;
				vr->lo.u = r->items[0].u;
				vr->hi.u = r->items[1].u;
			} else if (ok) {
				int64_t lo = 0, hi = 0;

				ok = !json_int(&r->items[0], &lo) && !json_int(&r->items[1], &hi) &&
				     lo <= hi;
				vr->lo.i = lo;
				vr->hi.i = hi;
			}
			if (!ok)
				return c2_fail(c, r, TK_ERR_FORMAT,
					       "option %zu: a selector range is not two integers, "
					       "lower first",
					       i);
			vr->option = (uint32_t) i;
		}
	}
	*out = fc;
	return TK_OK;
}

static enum tk_status read_fc(struct c2 *c, const struct json_value *v, struct model_fc **out)
{
	const struct json_value *tv;
	const char *t;
	enum tk_status st;

	if (c->depth >= C2_MAX_DEPTH)
		return c2_fail(c, v, TK_ERR_UNSUPPORTED, "field classes nested more than %d deep",
			       C2_MAX_DEPTH);
	if (v->kind == JSON_STRING) { /* a field class alias */
		size_t i;

		for (i = 0; i < c->aliases.len; i++) {
			const struct c2_alias *al = &VEC_AT(&c->aliases, struct c2_alias, i);

			if (!strcmp(al->name, v->s)) {
				c->depth++;
				st = read_fc(c, al->fc, out);
				c->depth--;
				return st;
			}
		}
		return c2_fail(c, v, TK_ERR_FORMAT, "no field class alias named \"%s\" before",
			       v->s);
	}
	tv = json_member(v, "type");
	if (v->kind != JSON_OBJECT || !tv || tv->kind != JSON_STRING)
		return c2_fail(c, v, TK_ERR_FORMAT, "a field class is an object with a type");
	t = tv->s;
	c->depth++;
	if (!strcmp(t, "fixed-length-unsigned-integer")) {
		st = read_int(c, v, 0, out);
	} else if (!strcmp(t, "fixed-length-signed-integer")) {
		st = read_int(c, v, 1, out);
	} else if (!strcmp(t, "fixed-length-floating-point-number")) {
		st = read_float(c, v, out);
	} else if (!strcmp(t, "null-terminated-string")) {
		st = check_utf8(c, v);
		if (st >= 0) {
			*out = fc_new(c, MODEL_FC_STRING);
			st = *out ? TK_OK : C2_NOMEM(c);
		}
		if (st >= 0) {
			(*out)->align = 8;
			(*out)->encoding = MODEL_ENCODING_UTF8;
		}
	} else if (!strcmp(t, "static-length-string") || !strcmp(t, "dynamic-length-string")) {
		st = check_utf8(c, v);
		if (st >= 0)
			st = byte_array(c, v, 1, t[0] == 'd', out);
	} else if (!strcmp(t, "static-length-blob") || !strcmp(t, "dynamic-length-blob")) {
		st = byte_array(c, v, 0, t[0] == 'd', out);
	} else if (!strcmp(t, "static-length-array") || !strcmp(t, "dynamic-length-array")) {
		st = read_array(c, v, t[0] == 'd', out);
	} else if (!strcmp(t, "structure")) {
		st = read_struct(c, v, out);
	} else if (!strcmp(t, "variant")) {
		st = read_variant(c, v, out);
	} else if (!strcmp(t, "fixed-length-boolean") || !strcmp(t, "fixed-length-bit-array") ||
		   !strcmp(t, "fixed-length-bit-map") || !strcmp(t, "optional") ||
		   !strcmp(t, "variable-length-unsigned-integer") ||
		   !strcmp(t, "variable-length-signed-integer")) {
		st = c2_fail(c, tv, TK_ERR_UNSUPPORTED, "field class type \"%s\" is not supported",
			     t);
	} else {
		st = c2_fail(c, tv, TK_ERR_FORMAT, "unknown field class type \"%s\"", t);
	}
	c->depth--;
	return st;
}

/* A scope's field class, which must be a structure. */
static enum tk_status read_scope(struct c2 *c, const struct json_value *obj, const char *key,
				 enum c2_scope scope, struct model_fc **out)
{
	const struct json_value *v = json_member(obj, key);
	struct model_fc *fc;
	enum tk_status st;

	*out = NULL;
	if (!v)
		return TK_OK;
	c->scope = scope;
	st = read_fc(c, v, &fc);
	if (st < 0)
		return st;
	if (fc->kind != MODEL_FC_STRUCT)
		return c2_fail(c, v, TK_ERR_FORMAT, "%s is not a structure", key);
	*out = fc;
	return TK_OK;
}

/* ---- fragments ------------------------------------------------------------------------- */

static enum tk_status read_preamble(struct c2 *c, const struct json_value *v)
{
	const struct json_value *ver = json_member(v, "version");
	const struct json_value *uuid = json_member(v, "uuid");
	const struct json_value *ext = json_member(v, "extensions");
	uint64_t u;
	size_t i;

	if (!ver || json_uint(ver, &u) || u != 2)
		return c2_fail(c, ver ? ver : v, TK_ERR_UNSUPPORTED,
			       "the preamble's version must be 2");
	if (ext && (ext->kind != JSON_OBJECT || ext->n))
		return c2_fail(c, ext, TK_ERR_UNSUPPORTED,
			       "metadata extensions are not supported (the trace needs them "
			       "understood)");
	if (uuid) {
		if (uuid->kind != JSON_ARRAY || uuid->n != 16)
			return c2_fail(c, uuid, TK_ERR_FORMAT, "uuid is not 16 bytes");
		for (i = 0; i < 16; i++) {
			if (json_uint(&uuid->items[i], &u) || u > 255)
				return c2_fail(c, &uuid->items[i], TK_ERR_FORMAT,
					       "uuid is not 16 bytes");
			c->src->uuid[i] = (uint8_t) u;
		}
		c->src->has_uuid = 1;
	}
	return TK_OK;
}

static enum tk_status read_alias(struct c2 *c, const struct json_value *v)
{
	const struct json_value *fcv = json_member(v, "field-class");
	struct c2_alias *al;
	const char *name = NULL;
	struct model_fc *check;
	enum tk_status st;
	size_t i;

	st = get_string(c, v, "name", &name);
	if (st < 0)
		return st;
	if (!name || !fcv)
		return c2_fail(c, v, TK_ERR_FORMAT, "an alias needs a name and a field-class");
	for (i = 0; i < c->aliases.len; i++)
		if (!strcmp(VEC_AT(&c->aliases, struct c2_alias, i).name, name))
			return c2_fail(c, v, TK_ERR_FORMAT, "duplicate field class alias \"%s\"",
				       name);
	c->scope = C2_PAYLOAD;
	st = read_fc(c, fcv, &check); /* what is wrong with it is said here, once */
	if (st < 0)
		return st;
	al = vec_push(&c->aliases, sizeof(*al));
	if (!al)
		return C2_NOMEM(c);
	al->name = name;
	al->fc = fcv;
	return TK_OK;
}

static enum tk_status read_trace_class(struct c2 *c, const struct json_value *v)
{
	const struct json_value *env = json_member(v, "environment");
	size_t i;
	enum tk_status st;

	if (c->has_trace_class)
		return c2_fail(c, v, TK_ERR_FORMAT, "a second trace class");
	if (c->scs.len)
		return c2_fail(c, v, TK_ERR_FORMAT, "a trace class after a data stream class");
	c->has_trace_class = 1;
	if (env && env->kind != JSON_OBJECT)
		return c2_fail(c, env, TK_ERR_FORMAT, "environment is not an object");
	for (i = 0; env && i < env->n; i++) {
		const struct json_value *e = &env->members[i].value;
		struct model_env *me = vec_push(&c->env, sizeof(*me));
		int64_t k;

		if (!me)
			return C2_NOMEM(c);
		me->key = env->members[i].key;
		me->str = NULL;
		if (e->kind == JSON_STRING)
			me->str = e->s;
		else if (!json_int(e, &k))
			me->integer = k;
		else
			return c2_fail(c, e, TK_ERR_FORMAT,
				       "environment entry \"%s\" is neither a string nor an "
				       "integer",
				       me->key);
	}
	st = read_scope(c, v, "packet-header-field-class", C2_PACKET_HEADER, &c->ct->packet_header);
	if (st < 0)
		return st;
	if (c->ct->packet_header) { /* the trace's byte order, for what has none: the magic's */
		const struct model_fc *ph = c->ct->packet_header;

		for (i = 0; i < ph->u.st.count; i++)
			if (!strcmp(ph->u.st.members[i].name, "magic"))
				c->ct->bo = (enum tk_byte_order) ph->u.st.members[i].fc->byte_order;
	}
	return TK_OK;
}

static enum tk_status read_clock(struct c2 *c, const struct json_value *v)
{
	struct tk_clock *clk = arena_alloc(c->a, sizeof(*clk)), **slot;
	const struct json_value *off = json_member(v, "offset-from-origin");
	const char *id = NULL, *uid = NULL, **idslot;
	uint64_t u;
	int64_t s = 0;
	size_t i;
	enum tk_status st;

	if (!clk)
		return C2_NOMEM(c);
	st = get_string(c, v, "id", &id);
	if (st >= 0)
		st = get_string(c, v, "name", &clk->name);
	if (st >= 0)
		st = get_string(c, v, "description", &clk->description);
	if (st >= 0)
		st = get_string(c, v, "uid", &uid);
	if (st >= 0)
		st = get_uint(c, v, "frequency", 0, &clk->freq);
	if (st >= 0)
		st = get_uint(c, v, "precision", 0, &clk->precision);
	if (st < 0)
		return st;
	if (!id) /* the specification wants one; a name is enough to refer to it */
		id = clk->name;
	if (!id)
		return c2_fail(c, v, TK_ERR_FORMAT, "a clock class needs an id");
	for (i = 0; i < c->clock_ids.len; i++)
		if (!strcmp(VEC_AT(&c->clock_ids, const char *, i), id))
			return c2_fail(c, v, TK_ERR_FORMAT, "duplicate clock class id \"%s\"", id);
	if (!clk->name)
		clk->name = id;
	if (clk->freq == 0 || clk->freq == UINT64_MAX)
		return c2_fail(c, v, TK_ERR_FORMAT, "frequency=%llu is not a valid frequency",
			       (unsigned long long) clk->freq);
	if (off) {
		const struct json_value *sv = json_member(off, "seconds");

		if (off->kind != JSON_OBJECT || (sv && json_int(sv, &s)))
			return c2_fail(c, off, TK_ERR_FORMAT,
				       "offset-from-origin is not {seconds, cycles} integers");
		st = get_uint(c, off, "cycles", 0, &u);
		if (st < 0)
			return st;
		clk->offset_s = s;
		clk->offset_cycles = u;
	}
	/* a Unix epoch origin makes clocks comparable whatever their UUIDs (absolute) */
	clk->absolute = (uint8_t) json_is_string(json_member(v, "origin"), "unix-epoch");
	if (uid && strlen(uid) == 36 && !str_uuid_parse(uid, clk->uuid))
		clk->has_uuid = 1;
	model_clock_finish(clk);
	slot = vec_push(&c->clocks, sizeof(*slot));
	idslot = vec_push(&c->clock_ids, sizeof(*idslot));
	if (!slot || !idslot)
		return C2_NOMEM(c);
	*slot = clk;
	*idslot = id;
	return TK_OK;
}

static enum tk_status read_stream_class(struct c2 *c, const struct json_value *v)
{
	const char *clock_id = NULL;
	struct model_fc *pctx, *header, *ectx;
	struct ctf_sc_build *b;
	uint64_t id;
	size_t i;
	enum tk_status st;

	st = get_uint(c, v, "id", 0, &id);
	if (st >= 0)
		st = get_string(c, v, "default-clock-class-id", &clock_id);
	if (st < 0)
		return st;
	if (ctf_meta_find_sc(&c->scs, id))
		return c2_fail(c, v, TK_ERR_FORMAT, "duplicate data stream class id %llu",
			       (unsigned long long) id);
	c->clock = NULL;
	for (i = 0; clock_id && i < c->clock_ids.len; i++)
		if (!strcmp(VEC_AT(&c->clock_ids, const char *, i), clock_id))
			c->clock = VEC_AT(&c->clocks, struct tk_clock *, i);
	if (clock_id && !c->clock)
		return c2_fail(c, v, TK_ERR_FORMAT, "no clock class \"%s\" before", clock_id);
	st = read_scope(c, v, "packet-context-field-class", C2_PACKET_CONTEXT, &pctx);
	if (st >= 0)
		st = read_scope(c, v, "event-record-header-field-class", C2_EVENT_HEADER, &header);
	if (st >= 0)
		st = read_scope(c, v, "event-record-common-context-field-class", C2_COMMON_CONTEXT,
				&ectx);
	if (st < 0)
		return st;
	b = ctf_meta_new_sc(c->src, &c->scs, id, 0);
	if (!b)
		return C2_NOMEM(c);
	b->sc->packet_context = pctx;
	b->sc->has_cpu = ctf_cpu_member(pctx) >= 0;
	b->sc->event_header = header;
	b->sc->event_context = ectx;
	b->sc->clock = c->clock;
	return TK_OK;
}

static enum tk_status read_event_class(struct c2 *c, const struct json_value *v)
{
	struct tk_event_class *ec = arena_alloc(c->a, sizeof(*ec)), **slot;
	struct ctf_ec *cec = arena_alloc(c->a, sizeof(*cec));
	const struct json_value *lv;
	struct ctf_sc_build *b;
	uint64_t sid;
	size_t i;
	enum tk_status st;

	if (!ec || !cec)
		return C2_NOMEM(c);
	ec->fmt = cec; /* filled in when the decoders are compiled */
	st = get_uint(c, v, "id", 0, &ec->id);
	if (st >= 0)
		st = get_uint(c, v, "data-stream-class-id", 0, &sid);
	if (st >= 0)
		st = get_string(c, v, "name", &ec->name);
	if (st < 0)
		return st;
	if (!ec->name)
		ec->name = "";
	b = ctf_meta_find_sc(&c->scs, sid);
	if (!b)
		return c2_fail(c, v, TK_ERR_FORMAT, "no data stream class %llu before",
			       (unsigned long long) sid);
	for (i = 0; i < b->ecs.len; i++)
		if (VEC_AT(&b->ecs, struct tk_event_class *, i)->id == ec->id)
			return c2_fail(c, v, TK_ERR_FORMAT,
				       "duplicate event record class id %llu in data stream class "
				       "%llu",
				       (unsigned long long) ec->id, (unsigned long long) sid);
	c->clock = b->sc->clock;
	st = read_scope(c, v, "specific-context-field-class", C2_SPECIFIC_CONTEXT, &ec->context);
	if (st >= 0)
		st = read_scope(c, v, "payload-field-class", C2_PAYLOAD, &ec->payload);
	if (st < 0)
		return st;
	lv = json_member(json_member(json_member(v, "attributes"), "lttng.org,2009"), "log-level");
	for (i = 0; lv && i < TK_ARRAY_SIZE(log_levels); i++) {
		if (json_is_string(lv, log_levels[i])) {
			ec->has_loglevel = 1;
			ec->loglevel = (int) i;
		}
	}
	ec->sc = b->sc;
	slot = vec_push(&b->ecs, sizeof(*slot));
	if (!slot)
		return C2_NOMEM(c);
	*slot = ec;
	return TK_OK;
}

static enum tk_status read_fragment(struct c2 *c, const struct json_value *v)
{
	const struct json_value *tv = json_member(v, "type");

	if (v->kind != JSON_OBJECT || !tv || tv->kind != JSON_STRING)
		return c2_fail(c, v, TK_ERR_FORMAT, "a fragment is an object with a type");
	if (c->frag == 1 && !json_is_string(tv, "preamble"))
		return c2_fail(c, tv, TK_ERR_FORMAT, "the first fragment must be the preamble");
	if (json_is_string(tv, "preamble")) {
		if (c->frag != 1)
			return c2_fail(c, tv, TK_ERR_FORMAT, "a second preamble");
		return read_preamble(c, v);
	}
	if (json_is_string(tv, "field-class-alias"))
		return read_alias(c, v);
	if (json_is_string(tv, "trace-class"))
		return read_trace_class(c, v);
	if (json_is_string(tv, "clock-class"))
		return read_clock(c, v);
	if (json_is_string(tv, "data-stream-class"))
		return read_stream_class(c, v);
	if (json_is_string(tv, "event-record-class"))
		return read_event_class(c, v);
	return c2_fail(c, tv, TK_ERR_FORMAT, "unknown fragment type \"%s\"", tv->s);
}

enum tk_status ctf2_meta_build(struct tk_source *src, const char *text, size_t len)
{
	struct c2 c;
	size_t pos = 0, where = 0, i;
	enum tk_status st = TK_OK;

	memset(&c, 0, sizeof(c));
	c.src = src;
	c.a = &src->arena;
	c.ct = arena_alloc(c.a, sizeof(*c.ct));
	if (!c.ct)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build metadata");
	c.ct->bo = TK_BYTE_ORDER_LE;
	c.ct->has_major = c.ct->has_minor = 1;
	c.ct->ctf2 = 1;
	src->fmt = c.ct;
	src->format = "CTF 2";
	while (st >= 0 && pos < len) {
		const char *end = memchr(text + pos + 1, 0x1e, len - pos - 1);
		size_t n = end ? (size_t) (end - text) - pos - 1 : len - pos - 1;
		struct json_value *v;

		/* each fragment is RS, then a JSON text (RFC 7464) */
		c.frag++;
		c.frag_off = pos + 1;
		st = json_read(c.a, text + pos + 1, n, &v, &where);
		if (st < 0)
			st = TK_FAIL(st, "Cannot read CTF 2 metadata: fragment=%zu, offset=%zu",
				     c.frag, c.frag_off + where);
		else
			st = read_fragment(&c, v);
		pos += n + 1;
	}
	if (st >= 0 && !c.frag)
		st = TK_FAIL(TK_ERR_FORMAT, "Cannot read CTF 2 metadata: reason=no fragment");
	if (st >= 0 && !c.scs.len)
		st = TK_FAIL(TK_ERR_FORMAT,
			     "Cannot read CTF 2 metadata: reason=no data stream class");
	if (st >= 0)
		st = ctf_meta_publish(src, &c.clocks, &c.env, &c.scs);
	vec_fini(&c.aliases);
	vec_fini(&c.clocks);
	vec_fini(&c.clock_ids);
	vec_fini(&c.env);
	for (i = 0; i < c.scs.len; i++)
		vec_fini(&VEC_AT(&c.scs, struct ctf_sc_build, i).ecs);
	vec_fini(&c.scs);
	if (st < 0)
		return st;
	return ctf_resolve_trace(src);
}
