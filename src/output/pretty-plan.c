// SPDX-License-Identifier: MIT
/*
 * Print plans: the part of a babeltrace2-style line that follows the time, compiled once per
 * event class into a flat list of operations (ARCHITECTURE.md, decision 2, applied to text).
 * The same compiler and interpreter write the JSON form of events (json.c, chrome.c): one walk
 * of the field classes and values, two syntaxes.
 *
 * Everything that does not depend on the event is decided at compile time: the trace fields
 * and event name become one literal, field names and separators are merged into literals,
 * hidden fields become skips, and each integer gets its display format. Every operation
 * first writes the literal that precedes it. Running a plan walks
 * the event's values (laid out as model.h describes) once, with no string length, name or
 * type decision per field.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../model/iter.h"
#include "../model/sink.h"
#include "../model/walk.h"
#include "json.h"
#include "pretty.h"

enum plan_code {
	P_END,
	P_SCOPE,   /* values of scope a start here, past off hidden ones */
	P_UDEC,	   /* unsigned decimal */
	P_SDEC,	   /* signed decimal */
	P_HEX,	   /* 0x + upper-case hex of value & mask */
	P_OCT,	   /* 0 + octal of value & mask */
	P_BIN,	   /* 0b + a bits */
	P_ENUM,	   /* ( labels : container = N ) */
	P_FLOAT,   /* %g */
	P_STR,	   /* quoted, escaped */
	P_SKIP,	   /* a hidden scalar values */
	P_SKIP_FC, /* a hidden compound value of class fc */
	P_ARRAY,   /* count from the value; empty: "[ ]" and go to op a */
	P_ELEM,	   /* separator (and "[i] = " when names) before an element */
	P_LOOP,	   /* next element, or " ]" */
	P_VARIANT, /* the option's ops (the literal holds what comes before) */
	P_VEND,	   /* go to op a (the literal holds the variant's end) */
	P_AINT,	   /* a whole array of integers printed as P_UDEC, P_SDEC or P_HEX (a) */
	/* JSON (json.c) */
	P_JENUM,  /* {"value":N,"labels":[...]} */
	P_JFLOAT, /* a number, or "NaN", "Infinity", "-Infinity" */
	P_JSTR,	  /* quoted, escaped per RFC 8259 */
	P_JARRAY, /* count from the value; empty: "[]" and go to op a */
	P_JELEM,  /* "," before an element but the first */
	P_JLOOP,  /* next element, or "]" */
	/*
	 * Fused plans (plan_fuse()): values read from the bytes of a skipped fixed-layout body
	 * (tk_event.body) at offset off. P_RAW loads any kind into a value for the operation
	 * whose handler is inner; the others print the common integers directly.
	 */
	P_TIME, /* the line's time and delta, then a bytes of text at offset mask; with cload,
		 * the packet context's values start at off (its P_SCOPE folded in) */
	P_RAW,
	P_LIT,	/* a literal of any length, a bytes (plan_layout()) */
	P_ROOM, /* make room again (plan_layout()) */
	P_RU8,	/* unsigned decimal */
	P_RU16LE,
	P_RU16BE,
	P_RU32LE,
	P_RU32BE,
	P_RU64LE,
	P_RU64BE,
	P_RS8, /* signed decimal */
	P_RS16LE,
	P_RS16BE,
	P_RS32LE,
	P_RS32BE,
	P_RS64LE,
	P_RS64BE,
	P_RX8, /* hexadecimal, as P_HEX */
	P_RX16LE,
	P_RX16BE,
	P_RX32LE,
	P_RX32BE,
	P_RX64LE,
	P_RX64BE,
	P_RSTR,	 /* a NUL-terminated string of segment a, which ends with it (struct model_fixed) */
	P_RAINT, /* P_AINT of an array or a sequence (which ends its segment): cload, coff */
	P_RTSEQ, /* P_STR of a text sequence, which ends its segment */
	P_N,
};

struct plan_op {
	uint8_t code;
	uint8_t names;
	uint8_t load;  /* P_RAW: enum model_load */
	uint8_t inner; /* P_RAW: the operation printing the loaded value */
	uint32_t len;
	/*
	 * The first 16 bytes at lit, copied here when the plan is threaded: the literal before
	 * each operation is at most 16 bytes (plan_layout()), and reading it from the operation
	 * itself saves a dependent load per operation
	 */
	char ilit[16];
	uint32_t a;
	uint32_t off;  /* fused operations: the value's offset in the body */
	uint64_t mask; /* P_RAW of text: its length */
	/*
	 * P_RAINT, P_RTSEQ: the length, count when cload is MODEL_LOAD_COUNT, else loaded as
	 * cload from offset coff of the segment; elements of esize bytes loaded as load
	 */
	uint8_t cload;
	uint8_t esize;
	uint32_t coff;
	uint64_t count;
	const void *handler; /* plan_run()'s label for code, filled in when the plan is built */
	const char *lit;
	const struct model_fc *fc;
	union {
		const uint32_t *targets;   /* P_VARIANT */
		const void *inner_handler; /* P_RAW: the label of inner */
	} u;
	const struct enum_table *enums; /* P_ENUM: pre-rendered values, or NULL */
};

/*
 * The whole text of an enumeration value, "( \"A\", \"B\" : container = 3 )", for every
 * value of a small span: label lookup and escaping happen once per plan, not per event.
 */
struct enum_table {
	uint64_t lo;	/* first value (two's complement for signed enums) */
	uint64_t count; /* values lo .. lo + count - 1; segments with keys */
	uint32_t *off;	/* text of value lo + k (segment k): text + off[k] .. text + off[k + 1] */
	char *text;
	/*
	 * Segments, for enumerations whose values span too much for a text per value: keys[k]
	 * is the first value of segment k as an order-preserving unsigned key (value ^ flip,
	 * flip being the sign bit for signed enumerations), keys[0] = 0, and the text is only
	 * "( " and the labels, the same for every value of the segment. NULL: a text per value.
	 */
	uint64_t *keys;
	uint64_t flip;
};

#define ENUM_TABLE_MAX 256
#define ENUM_SEGS_MAX  1024

struct plan {
	struct plan_head head; /* first: plan_event_class(), plan_fused() */
	struct plan_op *ops;
	uint32_t n;
	struct plan_op *fused; /* the same for skipped bodies (plan_fuse()), or NULL */
	uint32_t n_fused;
	char *text;	    /* all literals */
	uint32_t *jumps;    /* variant option targets */
	uint32_t max_depth; /* array nesting */
	struct enum_table **enums;
	size_t n_enums;
};

struct builder {
	uint8_t json;	    /* JSON syntax (plan_build_json()) instead of babeltrace2's */
	struct vec ops;	    /* struct plan_op, lit holds an offset in text until the end */
	struct vec pending; /* literal being accumulated */
	struct vec text;
	struct vec jumps; /* uint32_t */
	struct vec enums; /* struct enum_table *, owned until moved to the plan */
	uint32_t depth;
	uint32_t max_depth;
};

#define PLAN_MAX_DEPTH 64

static enum tk_status lit(struct builder *b, const char *s, size_t n)
{
	if (vec_reserve(&b->pending, 1, n))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	memcpy((char *) b->pending.data + b->pending.len, s, n);
	b->pending.len += n;
	return TK_OK;
}

#define LIT(b, s) lit((b), (s), sizeof(s) - 1)

/* A JSON object key, "NAME": (escaped), into the pending literal. */
static enum tk_status json_key(struct builder *b, const char *name, size_t n)
{
	char *tmp = malloc(JSON_QUOTED_ROOM(n) + 1), *end;
	enum tk_status st;

	if (!tmp)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	end = json_put_quoted(tmp, name, n);
	*end++ = ':';
	st = lit(b, tmp, (size_t) (end - tmp));
	free(tmp);
	return st;
}

/*
 * Append an operation; the literal accumulated so far becomes its prefix (written before the
 * operation runs), so separators and field names cost no dispatch of their own.
 */
static struct plan_op *op(struct builder *b, uint8_t code)
{
	struct plan_op *o;
	size_t off = b->text.len;

	if (b->pending.len) {
		if (vec_reserve(&b->text, 1, b->pending.len))
			return NULL;
		memcpy((char *) b->text.data + off, b->pending.data, b->pending.len);
		b->text.len += b->pending.len;
	}
	o = vec_push(&b->ops, sizeof(*o));
	if (!o)
		return NULL;
	o->code = code;
	o->len = (uint32_t) b->pending.len;
	o->lit = (const char *) (uintptr_t) off;
	b->pending.len = 0;
	return o;
}

#define OP(o, b, code)                                                                             \
	do {                                                                                       \
		(o) = op((b), (code));                                                             \
		if (!(o))                                                                          \
			return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");                   \
	} while (0)

static int is_scalar(const struct model_fc *fc)
{
	return fc->kind != MODEL_FC_STRUCT && fc->kind != MODEL_FC_VARIANT &&
	       ((fc->kind != MODEL_FC_ARRAY && fc->kind != MODEL_FC_SEQUENCE) || fc->is_text);
}

static enum tk_status compile(struct builder *b, const struct model_fc *fc, int names);

static void enum_table_free(struct enum_table *t)
{
	if (!t)
		return;
	free(t->off);
	free(t->text);
	free(t->keys);
	free(t);
}

static int key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/*
 * The segments of babeltrace2's text of @fc (see struct enum_table): every range starts a
 * segment and the value after it starts another, so the labels that match are the same
 * throughout a segment, and are rendered once here by pretty_put_enum_labels(). NULL (not
 * an error) for enumerations with too many ranges or labels too long for the scratch writer.
 */
static struct enum_table *enum_segs_build(const struct model_fc *fc)
{
	struct enum_table *t = NULL;
	struct writer w = {NULL, 0, 0, -1, 0};
	uint64_t flip = fc->is_signed ? UINT64_C(1) << 63 : 0, *keys;
	size_t n = 1, labels = 16, total = 0, i, k;
	uint32_t j;

	for (i = 0; i < fc->u.en.count; i++) {
		n += 2 * (size_t) fc->u.en.maps[i].nranges;
		labels += strlen(fc->u.en.maps[i].label) * 4 + 4;
	}
	if (n > ENUM_SEGS_MAX || labels > WRITER_MAX_RESERVE)
		return NULL;
	keys = malloc(n * sizeof(*keys));
	if (!keys)
		return NULL;
	keys[0] = 0;
	n = 1;
	for (i = 0; i < fc->u.en.count; i++) {
		const struct model_enum_mapping *mp = &fc->u.en.maps[i];

		for (j = 0; j < mp->nranges; j++) {
			uint64_t lo = mp->ranges[j].lo.u ^ flip, hi = mp->ranges[j].hi.u ^ flip;

			if (lo > hi) /* matches nothing */
				continue;
			keys[n++] = lo;
			if (hi != UINT64_MAX)
				keys[n++] = hi + 1;
		}
	}
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (i = 1, k = 1; i < n; i++)
		if (keys[i] != keys[k - 1])
			keys[k++] = keys[i];
	n = k;
	if (writer_init(&w, -1, WRITER_MAX_RESERVE * 2) < 0)
		goto fail;
	t = calloc(1, sizeof(*t));
	if (!t)
		goto fail;
	t->keys = keys;
	keys = NULL;
	t->flip = flip;
	t->count = n;
	t->off = malloc((n + 1) * sizeof(*t->off));
	t->text = malloc(n * labels + 16); /* padded: copied 16 bytes at a time */
	if (!t->off || !t->text)
		goto fail;
	for (k = 0; k < n; k++) {
		w.len = 0;
		pretty_put_enum_labels(&w, fc, t->keys[k] ^ flip);
		t->off[k] = (uint32_t) total;
		memcpy(t->text + total, w.buf, w.len);
		total += w.len;
	}
	t->off[n] = (uint32_t) total;
	writer_fini(&w);
	return t;
fail:
	free(keys);
	writer_fini(&w);
	enum_table_free(t);
	return NULL;
}

/* The segment of @t holding the value with key @key: the last k with keys[k] <= key. */
static inline uint64_t enum_segs_find(const struct enum_table *t, uint64_t key)
{
	uint64_t lo = 0, n = t->count;

	while (n > 1) {
		uint64_t half = n / 2;

		if (t->keys[lo + half] <= key)
			lo += half;
		n -= half;
	}
	return lo;
}

/*
 * Pre-render the values of @fc from its smallest to its largest mapped value when that span
 * is small, with @put (babeltrace2's or JSON's text, whose escapes take up to @esc bytes a
 * byte); NULL (not an error) when it is not worth it. Values outside the span, or labels too
 * long for the scratch writer, are printed the slow way.
 */
static struct enum_table *
enum_table_build(const struct model_fc *fc,
		 void (*put)(struct writer *, const struct model_fc *, uint64_t), size_t esc)
{
	struct enum_table *t = NULL;
	struct writer w = {NULL, 0, 0, -1, 0};
	uint64_t lo = 0, hi = 0, k;
	size_t labels = 0, total = 0;
	uint32_t i, j;
	int first = 1;

	for (i = 0; i < fc->u.en.count; i++) {
		const struct model_enum_mapping *mp = &fc->u.en.maps[i];

		labels += strlen(mp->label) * esc + 4;
		for (j = 0; j < mp->nranges; j++) {
			const struct model_range *r = &mp->ranges[j];

			if (fc->is_signed) {
				if (first || r->lo.i < (int64_t) lo)
					lo = (uint64_t) r->lo.i;
				if (first || r->hi.i > (int64_t) hi)
					hi = (uint64_t) r->hi.i;
			} else {
				if (first || r->lo.u < lo)
					lo = r->lo.u;
				if (first || r->hi.u > hi)
					hi = r->hi.u;
			}
			first = 0;
		}
	}
	if (first || hi - lo >= ENUM_TABLE_MAX || labels + 128 > WRITER_MAX_RESERVE)
		return NULL;
	if (writer_init(&w, -1, WRITER_MAX_RESERVE * 2) < 0)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		goto fail;
	t->lo = lo;
	t->count = hi - lo + 1;
	t->off = malloc((t->count + 1) * sizeof(*t->off));
	t->text = malloc(t->count * (labels + 128) + 16); /* padded, as above */
	if (!t->off || !t->text)
		goto fail;
	for (k = 0; k < t->count; k++) {
		w.len = 0;
		put(&w, fc, lo + k);
		t->off[k] = (uint32_t) total;
		memcpy(t->text + total, w.buf, w.len);
		total += w.len;
	}
	t->off[t->count] = (uint32_t) total;
	writer_fini(&w);
	return t;
fail:
	writer_fini(&w);
	enum_table_free(t);
	return NULL;
}

static enum tk_status compile_int(struct builder *b, const struct model_fc *fc)
{
	struct plan_op *o;

	if (fc->kind == MODEL_FC_ENUM) {
		struct enum_table *t, **slot = NULL;

		t = b->json ? enum_table_build(fc, json_put_enum, 6)
			    : enum_table_build(fc, pretty_put_enum, 4);
		if (!t && !b->json)
			t = enum_segs_build(fc);
		if (t && !(slot = vec_push(&b->enums, sizeof(*slot)))) {
			enum_table_free(t);
			return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
		}
		if (slot)
			*slot = t;
		OP(o, b, b->json ? P_JENUM : P_ENUM);
		o->fc = fc;
		o->enums = t;
		o->a = fc->base == 10 ? 1u + fc->is_signed : 0; /* container written inline */
		return TK_OK;
	}
	if (b->json) { /* JSON numbers are decimal */
		OP(o, b, fc->is_signed ? P_SDEC : P_UDEC);
		return TK_OK;
	}
	switch (fc->base) {
	case 16:
		OP(o, b, P_HEX);
		/* whole nibbles: sizes above 60 show all 64 bits */
		o->mask = fc->size <= 60 ? (UINT64_C(1) << ((fc->size + 3) & ~3u)) - 1 : UINT64_MAX;
		break;
	case 8:
		OP(o, b, P_OCT);
		o->mask = fc->is_signed && fc->size < 64
				  ? (UINT64_C(1) << (((fc->size - 1) / 3 + 1) * 3)) - 1
				  : UINT64_MAX;
		break;
	case 2:
		OP(o, b, P_BIN);
		o->a = fc->size;
		break;
	default:
		OP(o, b, fc->is_signed ? P_SDEC : P_UDEC);
		break;
	}
	return TK_OK;
}

static enum tk_status compile_struct(struct builder *b, const struct model_fc *fc, int names)
{
	struct plan_op *o;
	enum tk_status st;
	uint32_t i;
	int n = 0;

	st = LIT(b, "{");
	for (i = 0; st >= 0 && i < fc->u.st.count; i++) {
		const struct model_member *mb = &fc->u.st.members[i];

		if (mb->fc->hidden) {
			if (is_scalar(mb->fc)) {
				struct plan_op *last =
					b->ops.len && !b->pending.len
						? &VEC_AT(&b->ops, struct plan_op, b->ops.len - 1)
						: NULL;
				/* consecutive hidden scalars: one skip */

				if (last && last->code == P_SKIP) {
					last->a++;
					continue;
				}
				OP(o, b, P_SKIP);
				o->a = 1;
			} else {
				OP(o, b, P_SKIP_FC);
				o->fc = mb->fc;
			}
			continue;
		}
		if (b->json) {
			st = n++ ? LIT(b, ",") : TK_OK;
			if (st >= 0)
				st = json_key(b, mb->name, strlen(mb->name));
		} else {
			st = n++ ? LIT(b, ", ") : LIT(b, " ");
			if (st >= 0 && names) {
				st = lit(b, mb->name, strlen(mb->name));
				if (st >= 0)
					st = LIT(b, " = ");
			}
		}
		if (st >= 0)
			st = compile(b, mb->fc, names);
	}
	if (st >= 0)
		st = b->json ? LIT(b, "}") : LIT(b, " }");
	return st;
}

static enum tk_status compile_array(struct builder *b, const struct model_fc *fc, int names)
{
	const struct model_fc *elem = fc->u.arr.elem;
	struct plan_op *o;
	size_t at, loop;
	enum tk_status st;

	if (!b->json && elem->kind == MODEL_FC_INT && (elem->base == 10 || elem->base == 16)) {
		/* one operation for the whole array, as P_ARRAY, P_ELEM, the element, P_LOOP */
		st = compile_int(b, elem);
		if (st < 0)
			return st;
		o = &VEC_AT(&b->ops, struct plan_op, b->ops.len - 1);
		o->a = o->code;
		o->code = P_AINT;
		o->names = (uint8_t) names;
		return TK_OK;
	}

	if (++b->depth > PLAN_MAX_DEPTH)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot build print plan: reason=arrays nested "
			       "deeper than %d",
			       PLAN_MAX_DEPTH);
	if (b->depth > b->max_depth)
		b->max_depth = b->depth;
	OP(o, b, b->json ? P_JARRAY : P_ARRAY);
	at = b->ops.len - 1;
	OP(o, b, b->json ? P_JELEM : P_ELEM);
	o->names = (uint8_t) names;
	st = compile(b, fc->u.arr.elem, names);
	if (st < 0)
		return st;
	OP(o, b, b->json ? P_JLOOP : P_LOOP);
	loop = b->ops.len - 1;
	VEC_AT(&b->ops, struct plan_op, at).a = (uint32_t) (loop + 1);
	b->depth--;
	return TK_OK;
}

static enum tk_status compile_variant(struct builder *b, const struct model_fc *fc, int names)
{
	struct plan_op *o;
	size_t at, first, i, *ends;
	enum tk_status st = TK_OK;

	/* babeltrace2 shows "{ OPTION }"; JSON the selected option's value alone */
	if (!b->json && LIT(b, "{ ") < 0)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	OP(o, b, P_VARIANT);
	o->fc = fc; /* its options are counted by plan_layout() */
	at = b->ops.len - 1;
	first = b->jumps.len;
	if (vec_reserve(&b->jumps, sizeof(uint32_t), fc->u.var.count + 1))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	b->jumps.len += fc->u.var.count;
	VEC_AT(&b->ops, struct plan_op, at).a = (uint32_t) first;
	ends = calloc(fc->u.var.count + 1, sizeof(*ends));
	if (!ends)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	for (i = 0; i < fc->u.var.count && st >= 0; i++) {
		VEC_AT(&b->jumps, uint32_t, first + i) = (uint32_t) b->ops.len;
		st = compile(b, fc->u.var.options[i].fc, names);
		if (st >= 0 && !b->json)
			st = LIT(b, " }");
		if (st >= 0 && !(o = op(b, P_VEND)))
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
		ends[i] = b->ops.len - 1;
	}
	for (i = 0; i < fc->u.var.count && st >= 0; i++)
		VEC_AT(&b->ops, struct plan_op, ends[i]).a = (uint32_t) b->ops.len;
	free(ends);
	return st;
}

static enum tk_status compile(struct builder *b, const struct model_fc *fc, int names)
{
	struct plan_op *o;

	switch (fc->kind) {
	case MODEL_FC_INT:
	case MODEL_FC_ENUM:
		return compile_int(b, fc);
	case MODEL_FC_FLOAT:
		OP(o, b, b->json ? P_JFLOAT : P_FLOAT);
		return TK_OK;
	case MODEL_FC_STRING:
		OP(o, b, b->json ? P_JSTR : P_STR);
		return TK_OK;
	case MODEL_FC_STRUCT:
		return compile_struct(b, fc, names);
	case MODEL_FC_ARRAY:
	case MODEL_FC_SEQUENCE:
		if (fc->is_text) {
			OP(o, b, b->json ? P_JSTR : P_STR);
			return TK_OK;
		}
		return compile_array(b, fc, names);
	case MODEL_FC_VARIANT:
		return compile_variant(b, fc, names);
	}
	return TK_OK;
}

static enum tk_status compile_scope(struct builder *b, const struct model_fc *fc, uint32_t scope,
				    const char *scope_name, int scope_names, int field_names,
				    int *start_line)
{
	struct plan_op *o;
	enum tk_status st = TK_OK;

	if (!fc || fc->hidden)
		return TK_OK;
	if (!*start_line)
		st = LIT(b, ", ");
	*start_line = 0;
	if (st >= 0 && scope_names) {
		st = lit(b, scope_name, strlen(scope_name));
		if (st >= 0)
			st = LIT(b, " = ");
	}
	if (st < 0)
		return st;
	OP(o, b, P_SCOPE);
	o->a = scope;
	return compile(b, fc, field_names);
}

/* The fast fused operation printing a value of kind @load with @code, or P_RAW for any other. */
static uint8_t fused_code(uint8_t code, unsigned int load)
{
	static const uint8_t udec[MODEL_LOAD_N] = {
		[MODEL_LOAD_U8] = P_RU8,       [MODEL_LOAD_U16LE] = P_RU16LE,
		[MODEL_LOAD_U16BE] = P_RU16BE, [MODEL_LOAD_U32LE] = P_RU32LE,
		[MODEL_LOAD_U32BE] = P_RU32BE, [MODEL_LOAD_U64LE] = P_RU64LE,
		[MODEL_LOAD_U64BE] = P_RU64BE,
	};
	static const uint8_t sdec[MODEL_LOAD_N] = {
		[MODEL_LOAD_S8] = P_RS8,       [MODEL_LOAD_S16LE] = P_RS16LE,
		[MODEL_LOAD_S16BE] = P_RS16BE, [MODEL_LOAD_S32LE] = P_RS32LE,
		[MODEL_LOAD_S32BE] = P_RS32BE, [MODEL_LOAD_U64LE] = P_RS64LE,
		[MODEL_LOAD_U64BE] = P_RS64BE,
	};
	/* hexadecimal masks to the field's size: the sign extension of signed loads goes */
	static const uint8_t hex[MODEL_LOAD_N] = {
		[MODEL_LOAD_U8] = P_RX8,       [MODEL_LOAD_S8] = P_RX8,
		[MODEL_LOAD_U16LE] = P_RX16LE, [MODEL_LOAD_S16LE] = P_RX16LE,
		[MODEL_LOAD_U16BE] = P_RX16BE, [MODEL_LOAD_S16BE] = P_RX16BE,
		[MODEL_LOAD_U32LE] = P_RX32LE, [MODEL_LOAD_S32LE] = P_RX32LE,
		[MODEL_LOAD_U32BE] = P_RX32BE, [MODEL_LOAD_S32BE] = P_RX32BE,
		[MODEL_LOAD_U64LE] = P_RX64LE, [MODEL_LOAD_U64BE] = P_RX64BE,
	};
	uint8_t c = 0;

	if (load < MODEL_LOAD_N) {
		if (code == P_UDEC)
			c = udec[load];
		else if (code == P_SDEC)
			c = sdec[load];
		else if (code == P_HEX)
			c = hex[load];
	}
	return c ? c : P_RAW;
}

/*
 * The fused form of @pl for events whose body the reader skipped (tk_event.body, laid out as
 * @fx says): each operation on a value of the body reads it from the bytes where it lies,
 * and the scope and skip operations of the body disappear (their literals join the next
 * operation's, as literals are laid out one after the other, or become a P_LIT of their own
 * where the next one's would pass 16 bytes). Room is checked where @pl checks it: no
 * operation writes more than it did. Left NULL (not an error) when
 * the body holds what a fixed layout does not fix here: arrays and variants, whose operations
 * walk the values, or more values than @fx lists.
 */
static enum tk_status plan_fuse(struct plan *pl, const struct model_fixed *fx)
{
	struct plan_op *r = malloc(2 * (size_t) pl->n * sizeof(*r));
	const char *carry = NULL; /* literal of the operations dropped just before */
	uint32_t carry_len = 0, i, k = 0;
	uint64_t idx = 0;
	int body = 0;
	unsigned int seg = 0; /* the segment plan_run() reads from at this operation */

	if (!r)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	for (i = 0; i < pl->n; i++) {
		struct plan_op o = pl->ops[i];
		const struct model_fixed_field *f;
		int64_t skip;

		if (carry_len) {
			if (carry + carry_len != o.lit)
				goto none;
			if (o.code == P_LIT) {
				o.lit = carry;
				o.a += carry_len;
			} else if (o.len + carry_len <= 16) {
				o.lit = carry;
				o.len += carry_len;
			} else { /* literals stay within 16 bytes (plan_layout()) */
				memset(&r[k], 0, sizeof(r[k]));
				r[k].code = P_LIT;
				r[k].lit = carry;
				r[k++].a = carry_len;
			}
			carry_len = 0;
		}
		switch (o.code) {
		case P_SCOPE:
			body = o.a >= MODEL_SCOPE_EVENT_COMMON_CONTEXT &&
			       o.a <= MODEL_SCOPE_PAYLOAD;
			if (!body)
				break;
			idx = fx->marks[o.a - MODEL_SCOPE_EVENT_COMMON_CONTEXT] + o.off;
			carry = o.lit;
			carry_len = o.len;
			continue;
		case P_SKIP:
		case P_SKIP_FC:
			if (!body)
				break;
			if (o.code == P_SKIP_FC && fx->n_segs > 1) /* fields are not values there */
				goto none;
			skip = o.code == P_SKIP ? (int64_t) o.a : model_fc_fixed_values(o.fc);
			if (skip < 0)
				goto none;
			idx += (uint64_t) skip;
			carry = o.lit;
			carry_len = o.len;
			continue;
		case P_UDEC:
		case P_SDEC:
		case P_HEX:
		case P_OCT:
		case P_BIN:
		case P_ENUM:
		case P_FLOAT:
		case P_STR:
		case P_JENUM:
		case P_JFLOAT:
		case P_JSTR:
			if (!body)
				break;
			if (idx >= fx->n)
				goto none;
			f = &fx->fields[idx++];
			if (f->load == MODEL_LOAD_COUNT || f->seg != seg)
				goto none;
			if (f->load == MODEL_LOAD_STRING) {
				if (o.code != P_STR)
					goto none;
				o.code = P_RSTR;
				o.off = f->off;
				o.a = f->seg;
				seg++; /* the next segment starts after its NUL */
				break;
			}
			if (f->load == MODEL_LOAD_TEXT_SEQ) {
				if (o.code != P_STR)
					goto none;
				o.code = P_RTSEQ;
				o.off = f->off;
				o.cload = fx->fields[f->len].load;
				o.coff = fx->fields[f->len].off;
				seg++; /* the next segment starts after it */
				break;
			}
			if (f->load >= MODEL_LOAD_ARRAY)
				goto none;
			o.off = f->off;
			o.load = f->load;
			o.inner = o.code;
			if (f->load == MODEL_LOAD_TEXT)
				o.mask = f->len;
			o.code = fused_code(o.code, f->load);
			break;
		case P_AINT: /* an array or a sequence of integers, as one field */
			if (!body)
				break;
			if (idx >= fx->n)
				goto none;
			f = &fx->fields[idx++];
			if (f->seg != seg ||
			    (f->load != MODEL_LOAD_ARRAY && f->load != MODEL_LOAD_SEQ) ||
			    f->elem > MODEL_LOAD_U64BE) /* integers only (load_int()) */
				goto none;
			o.code = P_RAINT;
			o.off = f->off;
			o.load = f->elem;
			o.esize = (uint8_t) model_load_size(f->elem);
			if (f->load == MODEL_LOAD_ARRAY) {
				o.cload = MODEL_LOAD_COUNT;
				o.count = f->len;
			} else {
				o.cload = fx->fields[f->len].load;
				o.coff = fx->fields[f->len].off;
				seg++; /* the next segment starts after it */
			}
			break;
		case P_END:
		case P_LIT:
		case P_ROOM:
			break;
		default: /* arrays and variants */
			if (body)
				goto none;
			break;
		}
		r[k++] = o;
	}
	if (carry_len)
		goto none;
	pl->fused = r;
	pl->n_fused = k;
	pl->head.fused = 1;
	return TK_OK;
none:
	free(r);
	return TK_OK;
}

static void builder_fini(struct builder *b)
{
	vec_fini(&b->ops);
	vec_fini(&b->pending);
	vec_fini(&b->text);
	vec_fini(&b->jumps);
	for (size_t i = 0; i < b->enums.len; i++)
		enum_table_free(VEC_AT(&b->enums, struct enum_table *, i));
	vec_fini(&b->enums);
}

/*
 * Room a plan keeps free at the output position (see plan_run()), and how much of it the
 * operations between two checks may use: each writes its literal as 16 bytes and at most
 * op_room() bytes more before it checks room itself, if it does.
 */
#define PLAN_SLACK	4096
#define PLAN_BUDGET	(PLAN_SLACK - 512)
#define PLAN_LIT_INLINE 128
#define PLAN_STR_INLINE 96 /* strings escaped in place up to this length */

/*
 * The bytes @code writes besides its literal before it makes room itself (*@after: what it
 * may write after that, -1 when it never makes room).
 */
static uint32_t op_room(unsigned int code, int32_t *after)
{
	*after = -1;
	switch (code) {
	case P_UDEC:
	case P_SDEC:
	case P_HEX:
		return 24; /* the formatters may write up to 20 bytes, sign or 0x first */
	case P_OCT:
		return 40;
	case P_BIN:
		return 72;
	case P_FLOAT:
	case P_JFLOAT:
		return 64;
	case P_ENUM:
		*after = 48; /* the container, after the labels */
		return PLAN_LIT_INLINE;
	case P_JENUM:
	case P_LIT:
		*after = 0;
		return PLAN_LIT_INLINE;
	case P_STR:
		*after = 0;
		return 4 * PLAN_STR_INLINE + 18;
	case P_JSTR:
	case P_ROOM:
		*after = 0;
		return 0;
	case P_TIME:
		return 96;
	case P_ARRAY:
		return 3;
	case P_AINT: /* "[ ]", or '[' and room again before each element, then " ]" */
		*after = 2;
		return 3;
	case P_ELEM:
		return 48;
	case P_LOOP: /* and room again before each further element */
	case P_JARRAY:
		return 2;
	case P_JELEM:
	case P_JLOOP:
		return 1;
	default:
		return 0;
	}
}

/*
 * Lay out the operations of @b for plan_run(), which copies each literal as 16 bytes and
 * checks room only where it must: a literal longer than 16 bytes becomes a P_LIT of its own
 * (or is written by the P_TIME before it), a P_SKIP right after a P_SCOPE becomes part of it,
 * and a P_ROOM goes wherever the operations since the last check could use more than
 * PLAN_BUDGET bytes. The bytes since the last check are counted along the operations, and
 * at each jump target as the most of any way there (a skipped array, a variant option, a
 * variant's end); a loop makes room before it goes back. Jumps are renumbered.
 */
static enum tk_status plan_layout(struct builder *b)
{
	struct vec out = VEC_INIT;
	uint32_t n = (uint32_t) b->ops.len, *map = malloc((n + 1) * sizeof(*map));
	uint32_t *in_room = calloc(n + 1, sizeof(*in_room)), i, k, acc = 0;
	enum tk_status st = TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	struct plan_op *o, *prev;
	size_t last = SIZE_MAX; /* the operation emitted for the one before, if any */
	uintptr_t carry = 0;	/* literal of a P_SKIP merged into the P_SCOPE before it */
	uint32_t carry_len = 0;

	if (!map || !in_room)
		goto out;
	for (i = 0; i < n; i++) {
		struct plan_op cur = VEC_AT(&b->ops, struct plan_op, i);
		int32_t after;
		uint32_t room = op_room(cur.code, &after);

		if (in_room[i] > acc)
			acc = in_room[i];
		map[i] = (uint32_t) out.len;
		if (carry_len) { /* literals are laid out one after the other */
			cur.lit = (const char *) carry;
			cur.len += carry_len;
			carry_len = 0;
		}
		/*
		 * No jump lands on these three (jumps land after arrays and loops, and on variant
		 * options and ends): a scope's leading hidden scalars are skipped by the scope's
		 * operation (off), the literal after the time, when long, is written by P_TIME
		 * (a bytes at text offset mask) instead of a P_LIT of its own, and the packet
		 * context's P_SCOPE right after it, its literal taken, becomes part of P_TIME.
		 */
		prev = last != SIZE_MAX ? &VEC_AT(&out, struct plan_op, last) : NULL;
		last = SIZE_MAX;
		if (cur.code == P_SKIP && prev &&
		    (prev->code == P_SCOPE || (prev->code == P_TIME && prev->cload)) &&
		    !prev->off && i + 1 < n &&
		    (uintptr_t) cur.lit + cur.len ==
			    (uintptr_t) VEC_AT(&b->ops, struct plan_op, i + 1).lit) {
			prev->off = cur.a;
			carry = (uintptr_t) cur.lit;
			carry_len = cur.len;
			continue;
		}
		if (cur.len > 16 && prev && prev->code == P_TIME && !prev->a) {
			prev->a = cur.len;
			prev->mask = (uintptr_t) cur.lit;
			cur.lit = (const char *) ((uintptr_t) cur.lit + cur.len);
			cur.len = 0;
			acc = 0;
		}
		if (cur.code == P_SCOPE && cur.a == MODEL_SCOPE_PACKET_CONTEXT && !cur.len &&
		    prev && prev->code == P_TIME && !prev->cload) {
			prev->cload = 1; /* P_TIME points at the packet context's values too */
			prev->off = cur.off;
			last = (size_t) (prev -
					 (struct plan_op *) out.data); /* for a P_SKIP next */
			continue;
		}
		if (cur.len > 16) {
			if (!(o = vec_push(&out, sizeof(*o))))
				goto out;
			memset(o, 0, sizeof(*o));
			o->code = P_LIT;
			o->lit = cur.lit;
			o->a = cur.len;
			cur.lit = (const char *) ((uintptr_t) cur.lit + cur.len);
			cur.len = 0;
			acc = 0;
		} else if (acc + 16 + room > PLAN_BUDGET) {
			if (!(o = vec_push(&out, sizeof(*o))))
				goto out;
			memset(o, 0, sizeof(*o));
			o->code = P_ROOM;
			o->lit = cur.lit;
			acc = 0;
		}
		if (!(o = vec_push(&out, sizeof(*o))))
			goto out;
		*o = cur;
		last = out.len - 1;
		acc = after >= 0 ? (uint32_t) after : acc + 16 + room;
		switch (cur.code) {
		case P_ARRAY:
		case P_JARRAY:
		case P_VEND:
			if (cur.a <= n && in_room[cur.a] < acc)
				in_room[cur.a] = acc;
			break;
		case P_VARIANT:
			for (k = 0; k < cur.fc->u.var.count; k++) {
				uint32_t t = VEC_AT(&b->jumps, uint32_t, cur.a + k);

				if (t <= n && in_room[t] < acc)
					in_room[t] = acc;
			}
			break;
		default:
			break;
		}
	}
	map[n] = (uint32_t) out.len;
	for (i = 0; i < out.len; i++) {
		o = &VEC_AT(&out, struct plan_op, i);
		if (o->code == P_ARRAY || o->code == P_JARRAY || o->code == P_VEND)
			o->a = map[o->a];
	}
	for (i = 0; i < b->jumps.len; i++)
		VEC_AT(&b->jumps, uint32_t, i) = map[VEC_AT(&b->jumps, uint32_t, i)];
	vec_fini(&b->ops);
	b->ops = out;
	out = (struct vec) VEC_INIT;
	st = TK_OK;
out:
	vec_fini(&out);
	free(map);
	free(in_room);
	return st;
}

/* Move what @b compiled into a new plan for @ec; @b is left for builder_fini(). */
static enum tk_status builder_finish(struct builder *b, const struct tk_event_class *ec,
				     const struct model_fixed *fx, struct plan **out)
{
	struct plan *pl;
	size_t i;

	if (!op(b, P_END))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	if (plan_layout(b) < 0)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	pl = calloc(1, sizeof(*pl));
	if (pl) {
		pl->head.ec = ec;
		pl->n = (uint32_t) b->ops.len;
		pl->ops = malloc(b->ops.len * sizeof(struct plan_op));
		/* padded: literals are copied 16 bytes at a time, P_TIME's 64 */
		pl->text = calloc(1, b->text.len + 64);
		pl->jumps = malloc((b->jumps.len + 1) * sizeof(uint32_t));
		pl->max_depth = b->max_depth;
	}
	if (!pl || !pl->ops || !pl->text || !pl->jumps) {
		plan_free(pl);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	}
	memcpy(pl->ops, b->ops.data, b->ops.len * sizeof(struct plan_op));
	if (b->text.len)
		memcpy(pl->text, b->text.data, b->text.len);
	if (b->jumps.len)
		memcpy(pl->jumps, b->jumps.data, b->jumps.len * sizeof(uint32_t));
	/* the plan takes the enumeration tables */
	pl->enums = b->enums.data;
	pl->n_enums = b->enums.len;
	b->enums = (struct vec) VEC_INIT;
	for (i = 0; i < pl->n; i++) {
		struct plan_op *po = &pl->ops[i];

		po->lit = pl->text + (uintptr_t) po->lit;
		if (po->code == P_VARIANT)
			po->u.targets = pl->jumps + po->a;
	}
	if (fx && plan_fuse(pl, fx) < 0) {
		plan_free(pl);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	}
	plan_run(NULL, pl, NULL); /* thread it: handler addresses in the operations */
	*out = pl;
	return TK_OK;
}

enum tk_status plan_build(struct tk_printer *p, const struct tk_event_class *ec, struct plan **out)
{
	const struct model_stream_class *sc = ec->sc;
	unsigned int f = p->flags;
	int ctx_names = !!(f & TK_PRINT_NAMES_CONTEXT);
	int scope_names = !!(f & TK_PRINT_NAMES_SCOPE);
	int start_line = 1;
	struct builder b;
	enum tk_status st;

	memset(&b, 0, sizeof(b));
	if (sc->clock && !op(&b, P_TIME)) /* the line starts with the time */
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
	st = pretty_header_text(p, ec, &b.pending);
	if (st >= 0)
		st = compile_scope(&b, sc->packet_context, MODEL_SCOPE_PACKET_CONTEXT,
				   "stream.packet.context", scope_names, ctx_names, &start_line);
	if (st >= 0)
		st = compile_scope(&b, sc->event_context, MODEL_SCOPE_EVENT_COMMON_CONTEXT,
				   "stream.event.context", scope_names, ctx_names, &start_line);
	if (st >= 0)
		st = compile_scope(&b, ec->context, MODEL_SCOPE_EVENT_CONTEXT, "event.context",
				   scope_names, ctx_names, &start_line);
	if (st >= 0)
		st = compile_scope(&b, ec->payload, MODEL_SCOPE_PAYLOAD, "event.fields",
				   scope_names, !!(f & TK_PRINT_NAMES_PAYLOAD), &start_line);
	if (st >= 0)
		st = LIT(&b, "\n");
	if (st >= 0)
		st = builder_finish(&b, ec, ec->fixed, out);
	builder_fini(&b);
	return st;
}

/*
 * The JSON form of an event, after what the caller writes itself: @spec->head, then each
 * scope the event class shows as an object under its key -- the common fields first (when
 * the class has them), then the packet context, the contexts and the payload (always,
 * "{}" when there is none) -- then @spec->tail. Keys are separated by commas; with
 * @spec->lead, the first key has one too (it follows keys the caller wrote). Hidden fields
 * are left out as babeltrace2 leaves them out, so both styles show the same fields.
 */
enum tk_status plan_build_json(const struct tk_event_class *ec, const struct plan_json_spec *spec,
			       struct plan **out)
{
	static const int order[] = {MODEL_SCOPE_COMMON, MODEL_SCOPE_PACKET_CONTEXT,
				    MODEL_SCOPE_EVENT_COMMON_CONTEXT, MODEL_SCOPE_EVENT_CONTEXT,
				    MODEL_SCOPE_PAYLOAD};
	int sep = spec->lead;
	struct builder b;
	struct plan_op *o;
	enum tk_status st;
	size_t i;

	memset(&b, 0, sizeof(b));
	b.json = 1;
	st = lit(&b, spec->head, spec->head_len);
	for (i = 0; st >= 0 && i < TK_ARRAY_SIZE(order); i++) {
		int s = order[i];
		const struct model_fc *fc = model_scope_fc(ec, s);
		int shown = fc && !fc->hidden;

		if (!shown && s != MODEL_SCOPE_PAYLOAD)
			continue;
		st = sep ? LIT(&b, ",") : TK_OK;
		sep = 1;
		if (st >= 0)
			st = json_key(&b, spec->scope_keys[s], strlen(spec->scope_keys[s]));
		if (st >= 0 && !shown) {
			st = LIT(&b, "{}");
			continue;
		}
		if (st >= 0 && !(o = op(&b, P_SCOPE)))
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot build print plan");
		if (st >= 0) {
			o->a = (uint32_t) s;
			st = compile(&b, fc, 1);
		}
	}
	if (st >= 0)
		st = lit(&b, spec->tail, spec->tail_len);
	if (st >= 0)
		st = builder_finish(&b, ec, NULL, out);
	builder_fini(&b);
	return st;
}

void plan_free(struct plan *pl)
{
	if (!pl)
		return;
	free(pl->ops);
	free(pl->fused);
	free(pl->text);
	free(pl->jumps);
	for (size_t i = 0; i < pl->n_enums; i++)
		enum_table_free(pl->enums[i]);
	free(pl->enums);
	free(pl);
}

/*
 * The integer of kind @load (enum model_load: MODEL_LOAD_U8 to MODEL_LOAD_U64BE) at @p, its
 * sign extended to 64 bits when it has one (P_RAINT's elements).
 */
static inline uint64_t load_int(const uint8_t *p, unsigned int load)
{
	switch (load) {
	case MODEL_LOAD_U8:
		return *p;
	case MODEL_LOAD_S8:
		return (uint64_t) (int64_t) (int8_t) *p;
	case MODEL_LOAD_U16LE:
		return tk_load_le16(p);
	case MODEL_LOAD_U16BE:
		return tk_load_be16(p);
	case MODEL_LOAD_S16LE:
		return (uint64_t) (int64_t) (int16_t) tk_load_le16(p);
	case MODEL_LOAD_S16BE:
		return (uint64_t) (int64_t) (int16_t) tk_load_be16(p);
	case MODEL_LOAD_U32LE:
		return tk_load_le32(p);
	case MODEL_LOAD_U32BE:
		return tk_load_be32(p);
	case MODEL_LOAD_S32LE:
		return (uint64_t) (int64_t) (int32_t) tk_load_le32(p);
	case MODEL_LOAD_S32BE:
		return (uint64_t) (int64_t) (int32_t) tk_load_be32(p);
	case MODEL_LOAD_U64LE:
		return tk_load_le64(p);
	default:
		return tk_load_be64(p);
	}
}

/*
 * Threaded dispatch (GNU C label addresses), as in the decoder: each operation writes its
 * literal, does its work and jumps straight to the next one's handler, whose address the
 * operation holds (a call without an event fills them in when the plan is built). The output position
 * lives in a local (a register) rather than in the writer. Room is made (PLAN_SLACK bytes
 * free, the writer flushed when they are not) when the plan starts, after each value of
 * unbounded size (strings, enumerations, long literals), before a loop goes back and at the
 * P_ROOM operations plan_layout() placed so that the operations between two checks never
 * write more than PLAN_BUDGET bytes: literals and fixed-size values are written with no
 * check at all. The writer's buffer holds more than PLAN_SLACK bytes (tk_printer_open()).
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
enum tk_status plan_exec(struct tk_printer *p, const struct plan *pl, const struct tk_event *ev,
			 const struct plan_feed *feed)
{
	static const void *const labels[] = {
		[P_END] = &&L_P_END,	     [P_SCOPE] = &&L_P_SCOPE,	[P_UDEC] = &&L_P_UDEC,
		[P_SDEC] = &&L_P_SDEC,	     [P_HEX] = &&L_P_HEX,	[P_OCT] = &&L_P_OCT,
		[P_BIN] = &&L_P_BIN,	     [P_ENUM] = &&L_P_ENUM,	[P_FLOAT] = &&L_P_FLOAT,
		[P_STR] = &&L_P_STR,	     [P_SKIP] = &&L_P_SKIP,	[P_SKIP_FC] = &&L_P_SKIP_FC,
		[P_ARRAY] = &&L_P_ARRAY,     [P_ELEM] = &&L_P_ELEM,	[P_LOOP] = &&L_P_LOOP,
		[P_VARIANT] = &&L_P_VARIANT, [P_VEND] = &&L_P_VEND,	[P_AINT] = &&L_P_AINT,
		[P_JENUM] = &&L_P_JENUM,     [P_JFLOAT] = &&L_P_JFLOAT, [P_JSTR] = &&L_P_JSTR,
		[P_JARRAY] = &&L_P_JARRAY,   [P_JELEM] = &&L_P_JELEM,	[P_JLOOP] = &&L_P_JLOOP,
		[P_RAW] = &&L_P_RAW,	     [P_TIME] = &&L_P_TIME,	[P_LIT] = &&L_P_LIT,
		[P_ROOM] = &&L_P_ROOM,	     [P_RU8] = &&L_P_RU8,	[P_RU16LE] = &&L_P_RU16LE,
		[P_RU16BE] = &&L_P_RU16BE,   [P_RU32LE] = &&L_P_RU32LE, [P_RU32BE] = &&L_P_RU32BE,
		[P_RU64LE] = &&L_P_RU64LE,   [P_RU64BE] = &&L_P_RU64BE, [P_RS8] = &&L_P_RS8,
		[P_RS16LE] = &&L_P_RS16LE,   [P_RS16BE] = &&L_P_RS16BE, [P_RS32LE] = &&L_P_RS32LE,
		[P_RS32BE] = &&L_P_RS32BE,   [P_RS64LE] = &&L_P_RS64LE, [P_RS64BE] = &&L_P_RS64BE,
		[P_RX8] = &&L_P_RX8,	     [P_RX16LE] = &&L_P_RX16LE, [P_RX16BE] = &&L_P_RX16BE,
		[P_RX32LE] = &&L_P_RX32LE,   [P_RX32BE] = &&L_P_RX32BE, [P_RX64LE] = &&L_P_RX64LE,
		[P_RX64BE] = &&L_P_RX64BE,   [P_RSTR] = &&L_P_RSTR,	[P_RAINT] = &&L_P_RAINT,
		[P_RTSEQ] = &&L_P_RTSEQ,
	};
	struct writer *w;
	const struct plan_op *ops, *o;
	const struct model_value *v = NULL;
	const uint8_t *body = NULL;
	const uint8_t *const *segs = NULL;
	struct model_value tmp;
	enum tk_status st;
	uint64_t u;
	struct frame {
		uint64_t count;
		uint64_t idx;
		const struct plan_op *start;
	} stack[PLAN_MAX_DEPTH + 1];
	unsigned int sp = 0;
	char *q, *lim;

	static_assert(TK_ARRAY_SIZE(labels) == P_N, "a label for each operation");
	if (TK_UNLIKELY(!ev) && feed) { /* the events of an iterator */
		w = &p->out;
		lim = w->buf + w->cap - PLAN_SLACK;
		goto feed_next;
	}
	if (TK_UNLIKELY(!ev)) { /* each operation's handler, once per plan */
		struct plan_op *po = ((struct plan *) (uintptr_t) pl)->ops;

		for (uint32_t i = 0; i < pl->n; i++) {
			po[i].handler = labels[po[i].code];
			memcpy(po[i].ilit, po[i].lit, 16);
		}
		po = ((struct plan *) (uintptr_t) pl)->fused;
		for (uint32_t i = 0; po && i < pl->n_fused; i++) {
			po[i].handler = labels[po[i].code];
			memcpy(po[i].ilit, po[i].lit, 16);
			if (po[i].code == P_RAW)
				po[i].u.inner_handler = labels[po[i].inner];
		}
		return TK_OK;
	}
	ops = pl->ops;
	if (pl->fused && ev->body) { /* see plan_uses_body() */
		ops = pl->fused;
		body = ev->body;
		segs = ev->segs;
	}
	o = ops;
	w = &p->out;
	lim = w->buf + w->cap - PLAN_SLACK;

/* hand the position to the writer for a call, and take it back */
#define SYNC() (w->len = (size_t) (q - w->buf))
#define LOAD() (q = w->buf + w->len)
#define ROOM()                                                                                     \
	do {                                                                                       \
		if (TK_UNLIKELY(q > lim)) {                                                        \
			SYNC();                                                                    \
			writer_flush(w); /* a failure stays in w->err for the caller */            \
			LOAD();                                                                    \
		}                                                                                  \
	} while (0)
#define DISPATCH()                                                                                 \
	do {                                                                                       \
		memcpy(q, o->ilit, 16); /* at most 16 bytes (plan_layout()) */                     \
		q += o->len;                                                                       \
		goto *(o->handler);                                                                \
	} while (0)
#define NEXT()                                                                                     \
	do {                                                                                       \
		o++;                                                                               \
		DISPATCH();                                                                        \
	} while (0)
#define GOTO(target)                                                                               \
	do {                                                                                       \
		o = (target);                                                                      \
		DISPATCH();                                                                        \
	} while (0)
/* @n bytes of padded text: copied 16 at a time when short, then room again */
#define PUT_TEXT(s, n)                                                                             \
	do {                                                                                       \
		const char *s_ = (s);                                                              \
		size_t n_ = (n);                                                                   \
		if (TK_LIKELY(n_ <= PLAN_LIT_INLINE)) {                                            \
			for (size_t i_ = 0; i_ < n_; i_ += 16)                                     \
				memcpy(q + i_, s_ + i_, 16);                                       \
			q += n_;                                                                   \
			ROOM();                                                                    \
		} else {                                                                           \
			CALL(writer_write(w, s_, n_));                                             \
		}                                                                                  \
	} while (0)
#define CALL(expr)                                                                                 \
	do {                                                                                       \
		SYNC();                                                                            \
		expr;                                                                              \
		LOAD();                                                                            \
		ROOM();                                                                            \
	} while (0)

	LOAD();
	ROOM();
	DISPATCH();
L_P_END:
	SYNC();
	if (TK_UNLIKELY(w->err)) {
		if (feed)
			feed->cx->sink_failed = 1;
		return writer_flush(w);
	}
	if (!feed)
		return TK_OK;
feed_done: /* the event is printed: count it, then take the next one */
	st = sink_progress(feed->cx);
	if (TK_UNLIKELY(st < 0))
		return st;
feed_next: /* the writer holds the position: losses may be printed (notices) */
	st = model_iter_next_inline(feed->it, &ev);
	if (TK_UNLIKELY(st != TK_OK))
		return st == TK_END ? TK_OK : st;
	{
		const struct tk_event_class *ec = ev->ec;

		/* pretty_print_event()'s test, its plan_run() here without a call */
		if (TK_UNLIKELY(ec->index >= p->n_plans || !(pl = p->plans[ec->index]) ||
				plan_event_class(pl) != ec ||
				(ev->pending && !plan_uses_body(pl, ev)))) {
			st = pretty_print_event(p, ev);
			if (st < 0) {
				/* a format error is the input's: an event it could not decode */
				feed->cx->sink_failed = st != TK_ERR_FORMAT;
				return st;
			}
			goto feed_done;
		}
	}
	ops = pl->ops;
	body = NULL;
	segs = NULL;
	if (pl->fused && ev->body) {
		ops = pl->fused;
		body = ev->body;
		segs = ev->segs;
	}
	o = ops;
	LOAD();
	ROOM();
	DISPATCH();
L_P_SCOPE:
	v = ev->scope[o->a] + o->off; /* past its leading hidden scalars (plan_layout()) */
	NEXT();
L_P_UDEC:
	if (v->v.u <
	    10) /* CPU numbers and flags without fmt_u64(), which gcc calls out of line here */
		*q++ = (char) ('0' + v->v.u);
	else
		q += fmt_u64(q, v->v.u);
	v++;
	NEXT();
L_P_SDEC:
	q += fmt_i64(q, v->v.i);
	v++;
	NEXT();
L_P_HEX:
	memcpy(q, "0x", 2);
	q += 2 + fmt_hex_upper(q + 2, v->v.u & o->mask);
	v++;
	NEXT();
L_P_OCT:
	*q++ = '0';
	q += fmt_oct(q, v->v.u & o->mask);
	v++;
	NEXT();
L_P_BIN : {
	uint64_t u = v->v.u;
	uint32_t i;

	*q++ = '0';
	*q++ = 'b';
	if (o->a < 64)
		u <<= 64 - o->a;
	for (i = 0; i < o->a; i++) {
		*q++ = (u >> 63) ? '1' : '0';
		u <<= 1;
	}
	v++;
	NEXT();
}
L_P_ENUM : {
	const struct enum_table *t = o->enums;
	uint64_t k;

	if (t && t->keys) {
		k = enum_segs_find(t, v->v.u ^ t->flip);
	} else if (t && v->v.u - t->lo < t->count) {
		k = v->v.u - t->lo;
	} else {
		CALL(pretty_put_enum(w, o->fc, v->v.u));
		v++;
		NEXT();
	}
	PUT_TEXT(t->text + t->off[k], t->off[k + 1] - t->off[k]);
	if (t->keys) { /* segment texts stop before the container */
		if (o->a) {
			memcpy(q, " : container = ", 16);
			q += 15;
			q += o->a == 2 ? fmt_i64(q, v->v.i) : fmt_u64(q, v->v.u);
			memcpy(q, " )", 2);
			q += 2;
		} else {
			CALL(pretty_put_enum_tail(w, o->fc, v->v.u));
		}
	}
	v++;
	NEXT();
}
L_P_FLOAT:
	q += fmt_double_g(q, v->v.d);
	v++;
	NEXT();
L_P_STR:
	if (TK_LIKELY(v->n <= PLAN_STR_INLINE)) { /* within the room op_room() counts */
		q = pretty_quote_into(q, v->v.s, v->n);
		ROOM();
	} else {
		CALL(pretty_put_escaped(w, v->v.s, v->n));
	}
	v++;
	NEXT();
L_P_SKIP:
	v += o->a;
	NEXT();
L_P_SKIP_FC:
	v = model_value_skip(o->fc, v);
	NEXT();
L_P_ARRAY : {
	uint64_t count = v->n;

	v++;
	if (!count) {
		memcpy(q, "[ ]", 3);
		q += 3;
		GOTO(ops + o->a);
	}
	*q++ = '[';
	stack[sp].count = count;
	stack[sp].idx = 0;
	stack[sp].start = o + 1;
	sp++;
	NEXT();
}
L_P_ELEM : {
	const struct frame *fr = &stack[sp - 1];

	if (fr->idx) {
		memcpy(q, ", ", 2);
		q += 2;
	} else {
		*q++ = ' ';
	}
	if (o->names) {
		*q++ = '[';
		q += fmt_u64(q, fr->idx);
		memcpy(q, "] = ", 4);
		q += 4;
	}
	NEXT();
}
L_P_LOOP : {
	struct frame *fr = &stack[sp - 1];

	if (++fr->idx < fr->count) {
		ROOM(); /* the elements' operations check no room of their own */
		GOTO(fr->start);
	}
	sp--;
	memcpy(q, " ]", 2);
	q += 2;
	NEXT();
}
L_P_VARIANT : {
	uint64_t opt = v->n;

	v++;
	GOTO(ops + o->u.targets[opt]);
}
L_P_VEND:
	GOTO(ops + o->a);
L_P_AINT : {
	uint64_t count = v->n, i;

	v++;
	if (!count) {
		memcpy(q, "[ ]", 3);
		q += 3;
		NEXT();
	}
	*q++ = '[';
	for (i = 0; i < count; i++, v++) {
		ROOM(); /* each element writes at most 50 bytes */
		memcpy(q, ", ", 2);
		q += 2 - !i; /* ", " but for the first, ' ' */
		q[-1] = ' ';
		if (o->names) {
			*q++ = '[';
			q += fmt_u64(q, i);
			memcpy(q, "] = ", 4);
			q += 4;
		}
		if (o->a == P_UDEC) {
			q += fmt_u64(q, v->v.u);
		} else if (o->a == P_SDEC) {
			q += fmt_i64(q, v->v.i);
		} else {
			memcpy(q, "0x", 2);
			q += 2 + fmt_hex_upper(q + 2, v->v.u & o->mask);
		}
	}
	memcpy(q, " ]", 2);
	q += 2;
	NEXT();
}
L_P_JENUM:
	if (o->enums && v->v.u - o->enums->lo < o->enums->count) {
		const struct enum_table *t = o->enums;
		uint64_t k = v->v.u - t->lo;

		PUT_TEXT(t->text + t->off[k], t->off[k + 1] - t->off[k]);
	} else {
		CALL(json_put_enum(w, o->fc, v->v.u));
	}
	v++;
	NEXT();
L_P_JFLOAT:
	q += json_fmt_double(q, v->v.d);
	v++;
	NEXT();
L_P_JSTR:
	CALL(json_put_string(w, v->v.s, v->n));
	v++;
	NEXT();
L_P_JARRAY : {
	uint64_t count = v->n;

	v++;
	if (!count) {
		memcpy(q, "[]", 2);
		q += 2;
		GOTO(ops + o->a);
	}
	*q++ = '[';
	stack[sp].count = count;
	stack[sp].idx = 0;
	stack[sp].start = o + 1;
	sp++;
	NEXT();
}
L_P_JELEM:
	if (stack[sp - 1].idx)
		*q++ = ',';
	NEXT();
L_P_JLOOP : {
	struct frame *fr = &stack[sp - 1];

	if (++fr->idx < fr->count) {
		ROOM();
		GOTO(fr->start);
	}
	sp--;
	*q++ = ']';
	NEXT();
}
L_P_TIME : {
	char *end = pretty_time_fast(p, ev, q);

	if (TK_LIKELY(end != NULL)) { /* then the printer has a last time already */
		q = end;
		p->last_ns = ev->ns;
		p->last_cycles = ev->cycles;
	} else {
		CALL(pretty_put_time(p, ev));
		pretty_time_done(p, ev);
	}
	if (TK_LIKELY(o->a <= 64)) { /* the literal after it (plan_layout()), in 4 copies */
		const char *t = pl->text + o->mask;

		memcpy(q, t, 16);
		memcpy(q + 16, t + 16, 16);
		memcpy(q + 32, t + 32, 16);
		memcpy(q + 48, t + 48, 16);
		q += o->a;
		ROOM();
	} else {
		PUT_TEXT(pl->text + o->mask, o->a);
	}
	if (o->cload) /* the packet context's P_SCOPE, folded in (plan_layout()) */
		v = ev->scope[MODEL_SCOPE_PACKET_CONTEXT] + o->off;
	NEXT();
}
L_P_LIT:
	PUT_TEXT(o->lit, o->a);
	NEXT();
L_P_ROOM:
	ROOM();
	NEXT();
L_P_RAW:
	model_fixed_load(&tmp, o->load, body + o->off, o->mask);
	v = &tmp;
	goto * o->u.inner_handler;
L_P_RU8:
	u = body[o->off];
	goto udec;
L_P_RU16LE:
	u = tk_load_le16(body + o->off);
	goto udec;
L_P_RU16BE:
	u = tk_load_be16(body + o->off);
	goto udec;
L_P_RU32LE:
	u = tk_load_le32(body + o->off);
	goto udec;
L_P_RU32BE:
	u = tk_load_be32(body + o->off);
	goto udec;
L_P_RU64LE:
	u = tk_load_le64(body + o->off);
	goto udec;
L_P_RU64BE:
	u = tk_load_be64(body + o->off);
udec:
	q += fmt_u64_vec(q, u);
	NEXT();
L_P_RS8:
	u = (uint64_t) (int64_t) (int8_t) body[o->off];
	goto sdec;
L_P_RS16LE:
	u = (uint64_t) (int64_t) (int16_t) tk_load_le16(body + o->off);
	goto sdec;
L_P_RS16BE:
	u = (uint64_t) (int64_t) (int16_t) tk_load_be16(body + o->off);
	goto sdec;
L_P_RS32LE:
	u = (uint64_t) (int64_t) (int32_t) tk_load_le32(body + o->off);
	goto sdec;
L_P_RS32BE:
	u = (uint64_t) (int64_t) (int32_t) tk_load_be32(body + o->off);
	goto sdec;
L_P_RS64LE:
	u = tk_load_le64(body + o->off);
	goto sdec;
L_P_RS64BE:
	u = tk_load_be64(body + o->off);
sdec:
	q += fmt_i64_vec(q, (int64_t) u);
	NEXT();
L_P_RX8:
	u = body[o->off];
	goto hex;
L_P_RX16LE:
	u = tk_load_le16(body + o->off);
	goto hex;
L_P_RX16BE:
	u = tk_load_be16(body + o->off);
	goto hex;
L_P_RX32LE:
	u = tk_load_le32(body + o->off);
	goto hex;
L_P_RX32BE:
	u = tk_load_be32(body + o->off);
	goto hex;
L_P_RX64LE:
	u = tk_load_le64(body + o->off);
	goto hex;
L_P_RX64BE:
	u = tk_load_be64(body + o->off);
hex:
	memcpy(q, "0x", 2);
	q += 2 + fmt_hex_vec(q + 2, u & o->mask, true);
	NEXT();
L_P_RSTR : {
	const char *s = (const char *) body + o->off;
	size_t n = (size_t) ((const char *) segs[o->a + 1] - 1 - s);

	body = segs[o->a + 1]; /* the fields after it count from there */
	if (TK_LIKELY(n <= PLAN_STR_INLINE)) {
		q = pretty_quote_into(q, s, n);
		ROOM();
	} else {
		CALL(pretty_put_escaped(w, s, n));
	}
	NEXT();
}
L_P_RAINT : { /* P_AINT's text, each element loaded where it lies */
	const uint8_t *e = body + o->off;
	uint64_t count = o->count, i;

	if (o->cload != MODEL_LOAD_COUNT) { /* a sequence: the next segment starts after it */
		model_fixed_load(&tmp, o->cload, body + o->coff, 0);
		count = tmp.v.u;
		body = e + count * o->esize;
	}
	if (!count) {
		memcpy(q, "[ ]", 3);
		q += 3;
		NEXT();
	}
	*q++ = '[';
	for (i = 0; i < count; i++, e += o->esize) {
		ROOM(); /* each element writes at most 50 bytes */
		memcpy(q, ", ", 2);
		q += 2 - !i; /* ", " but for the first, ' ' */
		q[-1] = ' ';
		if (o->names) {
			if (TK_LIKELY(i < 10)) { /* "[i] = " in one store */
				tk_store_u64(q, UINT64_C(0x203D205D305B) | i << 8,
					     TK_BYTE_ORDER_LE);
				q += 6;
			} else {
				*q++ = '[';
				q += fmt_u64(q, i);
				memcpy(q, "] = ", 4);
				q += 4;
			}
		}
		u = load_int(e, o->load);
		if (o->a == P_UDEC) {
			q += fmt_u64_vec(q, u);
		} else if (o->a == P_SDEC) {
			q += fmt_i64_vec(q, (int64_t) u);
		} else {
			memcpy(q, "0x", 2);
			q += 2 + fmt_hex_vec(q + 2, u & o->mask, true);
		}
	}
	memcpy(q, " ]", 2);
	q += 2;
	NEXT();
}
L_P_RTSEQ : {
	const char *s = (const char *) body + o->off;
	size_t n;

	model_fixed_load(&tmp, o->cload, body + o->coff, 0);
	n = tmp.v.u ? strnlen(s, tmp.v.u) : 0;
	body = (const uint8_t *) s + tmp.v.u; /* the fields after it count from there */
	if (TK_LIKELY(n <= PLAN_STR_INLINE)) {
		q = pretty_quote_into(q, s, n);
		ROOM();
	} else {
		CALL(pretty_put_escaped(w, s, n));
	}
	NEXT();
}
#undef SYNC
#undef LOAD
#undef ROOM
#undef DISPATCH
#undef NEXT
#undef GOTO
#undef CALL
#undef PUT_TEXT
}
#pragma GCC diagnostic pop
