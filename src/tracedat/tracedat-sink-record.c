// SPDX-License-Identifier: MIT
/*
 * ftrace records rebuilt from decoded event values (tracedat-sink-record.h), for converting
 * CTF traces to trace.dat.
 *
 * A plan is a list of nodes per scope in pre-order of the scope's field class tree, where
 * arrays and sequences are one node (their elements are integers or floats) and structures
 * and variants hold their members or options as the nodes after them. Running it walks the
 * tree and the flat value array side by side (the model's layout: one value per scalar,
 * one holding the length before the elements of an array, one holding the selected option
 * before a variant's value), so nothing is looked up or allocated per event.
 *
 * Synthesized formats (CONVERT_RECORD_SYNTH), one leaf of the stream event context, event
 * context and payload after the other, named by their path (`y_a` for member a of structure
 * y, `v_opt` for option opt of variant v; characters other than letters, digits and `_`
 * become `_`, a leading digit gets a `_`, a name met before gets `_2`, `_3`, ...), each
 * aligned to its element size after the 8 bytes of common fields:
 *   integers and enumerations    uint8_t ... int64_t of 1, 2, 4 or 8 bytes (the smallest
 *                                that holds the bits), signed as declared; enumerations
 *                                keep their value, not their label
 *   floats                       their IEEE 754 bits, uint32_t (32-bit floats) or uint64_t
 *   strings, text sequences      __data_loc char[] (the text up to its NUL, and a NUL)
 *   text arrays                  char NAME[N]
 *   arrays of numbers            uint32_t NAME[N] ... (elements as above)
 *   sequences of numbers         __data_loc u16[] ... (bytes: __data_loc uint8_t[], since
 *                                "u8" in a type makes libtraceevent read text); the length
 *                                field before a sequence stays a field of its own
 *   variants                     every option flattened; the selected one holds the value,
 *                                the others stay 0 (the tag field says which is meant)
 * Arrays of strings, structures, arrays or variants have no ftrace form and are refused.
 * The print fmt shows every field as NAME=VALUE (hexadecimal for base-16 integers), in what
 * libtraceevent can print: floats as C's %a text taken apart from their bits, signed
 * integers through %hhd/%hd casts, signed and float array elements one by one
 * (doc/format-tracedat.md section 9).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "tracedat-sink-record.h"

#define MAX_DEPTH 32
#define MAX_FIXED 0xffff /* __data_loc offsets are 16 bits */

enum node_op {
	N_STRUCT,  /* count members follow */
	N_VARIANT, /* count options follow; one value selects */
	N_SKIP,	   /* the values of fc are not written */
	N_INT,	   /* one value: an integer of es bytes at off */
	N_FLOAT,   /* one value: a float's bits, es bytes at off */
	N_STR,	   /* one value: text, in the field (size bytes) or dynamic */
	N_ARRAY,   /* a length value and its elements: in the field or dynamic */
};

struct node {
	uint8_t op;
	uint8_t dyn;	    /* __data_loc / __rel_loc field */
	uint8_t flex;	    /* a flexible array member: to the end of the record */
	uint8_t end;	    /* kernel_stack's frames: the record ends with them */
	uint8_t rel;	    /* __rel_loc */
	uint8_t loc_size;   /* bytes of the location word: 4, or 2 for legacy __data_loc */
	uint8_t es;	    /* bytes of the integer, float or array element */
	uint8_t elem_float; /* array elements are floats */
	uint8_t pid;	    /* the integer is also common_pid */
	uint32_t seq;	    /* N_ARRAY of a sequence: its index in plan->seq_max */
	uint32_t span;	    /* nodes of the subtree, this one included */
	uint32_t count;	    /* members or options */
	uint32_t off, size; /* the record field */
	const struct model_fc *fc;
};

struct convert_record_plan {
	const struct ftrace_event *fev;
	enum tk_byte_order bo;
	int raw;
	uint32_t fixed;	    /* bytes of the fixed part of the record */
	uint32_t type_off;  /* common_type, written with the format's id */
	uint32_t type_size; /* 0 when the format has none */
	uint32_t pid_off, pid_size;
	struct node *nodes[4]; /* stream event context, event context, payload, common */
	size_t n_nodes[4];
	uint64_t *seq_max; /* the most elements each sequence had, in leaf order */
	uint32_t n_seq;
};

static const struct model_fc *scope_fc(const struct tk_event_class *ec, int k)
{
	return k == 0	? ec->sc->event_context
	       : k == 1 ? ec->context
	       : k == 2 ? ec->payload
			: ec->common; /* a trace.dat source's own common fields */
}

static int is_scalar(const struct model_fc *fc)
{
	return fc->kind == MODEL_FC_INT || fc->kind == MODEL_FC_ENUM || fc->kind == MODEL_FC_FLOAT;
}

/* Bytes of an integer or float field class in a record. */
static uint32_t scalar_bytes(const struct model_fc *fc)
{
	if (fc->kind == MODEL_FC_FLOAT)
		return fc->size == 32 ? 4 : 8;
	return fc->size <= 8 ? 1 : fc->size <= 16 ? 2 : fc->size <= 32 ? 4 : 8;
}

/* ---- synthesized formats ------------------------------------------------------------------ */

struct synth {
	const struct tk_event_class *ec;
	struct vec *text;
	struct vec names;			/* char *, every field name so far */
	struct vec fmt;				/* the print fmt's format string */
	struct vec args;			/* and its arguments */
	const struct convert_record_plan *plan; /* the lengths sequences had, or NULL */
	uint32_t n_seq;				/* sequences of numbers so far */
	uint32_t off;
	int oom;
};

static void put(struct synth *s, struct vec *v, const char *p, size_t n)
{
	if (s->oom || vec_reserve(v, 1, n + 1) < 0) {
		s->oom = 1;
		return;
	}
	memcpy((char *) v->data + v->len, p, n);
	v->len += n;
}

static void putf(struct synth *s, struct vec *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void putf(struct synth *s, struct vec *v, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t) n >= sizeof(buf)) {
		s->oom = 1; /* names and expressions are capped well below this */
		return;
	}
	put(s, v, buf, (size_t) n);
}

/* The field name of a leaf at @path: sanitized, made unique. Returns NULL when out of memory. */
static char *unique_name(struct synth *s, const char *path)
{
	size_t n = strlen(path), i, k;
	char *name = malloc(n + 16), **slot;

	if (!name)
		return NULL;
	for (i = k = 0; i < n; i++) {
		char c = path[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			 (c >= '0' && c <= '9');

		if (!k && c >= '0' && c <= '9')
			name[k++] = '_';
		name[k++] = ok ? c : '_';
	}
	if (!k)
		name[k++] = '_';
	name[k] = '\0';
	for (i = 2;; i++) {
		size_t j;

		for (j = 0; j < s->names.len; j++)
			if (!strcmp(VEC_AT(&s->names, char *, j), name))
				break;
		if (j == s->names.len)
			break;
		snprintf(name + k, 16, "_%zu", i);
	}
	slot = vec_push(&s->names, sizeof(char *));
	if (!slot) {
		free(name);
		return NULL;
	}
	*slot = name;
	return name;
}

static uint32_t align_to(uint32_t off, uint32_t a)
{
	return a > 1 ? (off + a - 1) / a * a : off;
}

static enum tk_status refuse(const struct synth *s, const char *path, const char *reason)
{
	return TK_FAIL(TK_ERR_UNSUPPORTED,
		       "Cannot convert event class to trace.dat: event=%s, field=%s, reason=%s",
		       s->ec->name ? s->ec->name : "(unnamed)", path, reason);
}

/* The printf conversion that shows a signed integer of @es bytes as libtraceevent casts it. */
static const char *signed_conv(uint32_t es)
{
	return es == 1 ? "hhd" : es == 2 ? "hd" : es == 8 ? "lld" : "d";
}

/*
 * Print-fmt pieces showing the IEEE 754 bits @x (an expression) of a float of @es bytes as
 * C's "%.13a" shows a double and "%.6a" a float (libtraceevent has no %f or %a, and its
 * evaluator has only integers): sign, "0x1." or "0x0.", the mantissa in hex, "p", the
 * exponent; "inf", "nan". When @guard (an expression, or NULL) is 0, they print nothing:
 * a %s of "" and %.*x of 0 with precision 0 (sequence elements past the length).
 */
static void put_float_pieces(struct synth *s, const char *x, uint32_t es, const char *guard)
{
	const int dbl = es == 8;
	const unsigned int emax = dbl ? 2047 : 255, bias = dbl ? 1023 : 127;
	char e[192], m[192], mag[192], live[512], text[1024];

	snprintf(e, sizeof(e), "((%s >> %d) & %u)", x, dbl ? 52 : 23, emax);
	snprintf(m, sizeof(m), dbl ? "(%s & 0xfffffffffffff)" : "((%s & 0x7fffff) << 1)", x);
	snprintf(mag, sizeof(mag), "(%s & %s)", x, dbl ? "0x7fffffffffffffff" : "0x7fffffff");
	/* a number, not inf or nan: mantissa and exponent are printed */
	if (guard)
		snprintf(live, sizeof(live), "((%s) && (%s != %u))", guard, e, emax);
	else
		snprintf(live, sizeof(live), "(%s != %u)", e, emax);
	put(s, &s->fmt, "%s%s%.*llx%s%.*u", 16);
	snprintf(text, sizeof(text), "(%s >> %d) ? \"-\" : \"\"", x, dbl ? 63 : 31);
	if (guard)
		putf(s, &s->args, ", (%s) ? (%s) : \"\"", guard, text);
	else
		putf(s, &s->args, ", %s", text);
	snprintf(text, sizeof(text),
		 "(%s == %u) ? (%s ? \"nan\" : \"inf\") : (%s ? \"0x1.\" : \"0x0.\")", e, emax, m,
		 e);
	if (guard)
		putf(s, &s->args, ", (%s) ? (%s) : \"\"", guard, text);
	else
		putf(s, &s->args, ", %s", text);
	putf(s, &s->args, ", %s ? %d : 0, %s ? %s : 0", live, dbl ? 13 : 6, live, m);
	putf(s, &s->args, ", %s ? (((%s >= %u) || (%s == 0)) ? \"p+\" : \"p-\") : \"\"", live, e,
	     bias, mag);
	putf(s, &s->args,
	     ", %s ? 1 : 0, %s ? ((%s >= %u) ? (%s - %u) : (%s ? (%u - %s) : (%s ? %u : 0))) : 0",
	     live, live, e, bias, e, bias, e, bias, e, m, bias - 1);
}

/*
 * The print fmt of an array or sequence of numbers NAME with @n elements of @es bytes
 * (sequences: at most @n, the most an event had). Unsigned integers go through
 * __print_array() (elements in decimal, space-separated); it reads elements as unsigned, so
 * signed integers and floats are printed one element after the other, space-separated the
 * same way: REC->NAME[i] for arrays, __get_dynamic_array(NAME)[byte offset] for sequences,
 * each guarded by the length (precision 0 and value 0 print nothing). Beyond UNROLL_INTS
 * integers or UNROLL_FLOATS floats the text would grow too long: __print_array() of the
 * elements (floats: their bits) then.
 */
#define UNROLL_INTS   64
#define UNROLL_FLOATS 16

static void put_array_print(struct synth *s, const char *name, const struct model_fc *e,
			    uint32_t es, int seq, uint64_t n)
{
	int flt = e->kind == MODEL_FC_FLOAT, sgn = !flt && e->is_signed;
	char x[160], g[160];
	uint64_t i;

	if ((!sgn && !flt) || n > (flt ? UNROLL_FLOATS : UNROLL_INTS)) {
		put(s, &s->fmt, "%s", 2);
		if (seq)
			putf(s, &s->args,
			     ", __print_array(__get_dynamic_array(%s), "
			     "__get_dynamic_array_len(%s) / %u, %u)",
			     name, name, es, es);
		else
			putf(s, &s->args, ", __print_array(REC->%s, %" PRIu64 ", %u)", name, n, es);
		return;
	}
	for (i = 0; i < n; i++) {
		if (seq && es == 1) {
			/*
			 * "int8_t" has no element size for libtraceevent, which then reads a long
			 * (8 bytes): read the 8 ending with the element (the record's fixed part
			 * comes before it; the index wraps as libtraceevent's 32-bit offset does)
			 * and keep the element's byte, the high one in a little-endian file.
			 */
			uint64_t at = (i + UINT64_C(0x100000000) - 7) & UINT64_C(0xffffffff);

			if (s->plan && s->plan->bo == TK_BYTE_ORDER_BE)
				snprintf(x, sizeof(x), "(__get_dynamic_array(%s))[%" PRIu64 "]",
					 name, at);
			else
				snprintf(x, sizeof(x),
					 "((__get_dynamic_array(%s))[%" PRIu64 "] >> 56)", name,
					 at);
			snprintf(g, sizeof(g), "__get_dynamic_array_len(%s) > %" PRIu64, name, i);
		} else if (seq) {
			/* the parentheses: libtraceevent drops an index right after the call */
			snprintf(x, sizeof(x), "(__get_dynamic_array(%s))[%" PRIu64 "]", name,
				 i * es);
			snprintf(g, sizeof(g), "__get_dynamic_array_len(%s) > %" PRIu64, name,
				 i * es);
		} else {
			snprintf(x, sizeof(x), "REC->%s[%" PRIu64 "]", name, i);
		}
		if (i && seq) {
			put(s, &s->fmt, "%s", 2);
			putf(s, &s->args, ", (%s) ? \" \" : \"\"", g);
		} else if (i) {
			put(s, &s->fmt, " ", 1);
		}
		if (flt) {
			put_float_pieces(s, x, es, seq ? g : NULL);
		} else if (seq) {
			putf(s, &s->fmt, "%%.*%s", signed_conv(es));
			putf(s, &s->args, ", (%s) ? 1 : 0, (%s) ? %s : 0", g, g, x);
		} else {
			putf(s, &s->fmt, "%%%s", signed_conv(es));
			putf(s, &s->args, ", %s", x);
		}
	}
}

/* One leaf as a field line and its part of the print fmt. */
static enum tk_status synth_leaf(struct synth *s, const struct model_fc *fc, const char *path)
{
	const struct model_fc *e = (fc->kind == MODEL_FC_ARRAY || fc->kind == MODEL_FC_SEQUENCE)
					   ? fc->u.arr.elem
					   : NULL;
	char *name = unique_name(s, path);
	uint32_t es, size, n;
	const char *sep = s->fmt.len ? " " : "";

	if (!name)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert event class to trace.dat");
	if (fc->kind == MODEL_FC_STRING || (fc->kind == MODEL_FC_SEQUENCE && fc->is_text)) {
		s->off = align_to(s->off, 4);
		putf(s, s->text, "\tfield:__data_loc char[] %s;\toffset:%u;\tsize:4;\tsigned:0;\n",
		     name, s->off);
		putf(s, &s->fmt, "%s%s=%%s", sep, name);
		putf(s, &s->args, ", __get_str(%s)", name);
		s->off += 4;
	} else if (fc->kind == MODEL_FC_ARRAY && fc->is_text) {
		if (fc->u.arr.length > MAX_FIXED)
			return refuse(s, path, "a text array of more than 65535 bytes");
		n = (uint32_t) fc->u.arr.length;
		putf(s, s->text, "\tfield:char %s[%u];\toffset:%u;\tsize:%u;\tsigned:0;\n", name, n,
		     s->off, n);
		putf(s, &s->fmt, "%s%s=%%s", sep, name);
		putf(s, &s->args, ", REC->%s", name);
		s->off += n;
	} else if (e) {
		if (!is_scalar(e))
			return refuse(s, path, "an array of strings, structures or arrays");
		es = scalar_bytes(e);
		if (fc->kind == MODEL_FC_SEQUENCE) {
			static const char *const types[2][9] = {
				{"", "uint8_t", "u16", "", "u32", "", "", "", "u64"},
				{"", "int8_t", "s16", "", "s32", "", "", "", "s64"},
			};
			int sgn = e->kind != MODEL_FC_FLOAT && e->is_signed;

			s->off = align_to(s->off, 4);
			putf(s, s->text,
			     "\tfield:__data_loc %s[] %s;\toffset:%u;\tsize:4;\tsigned:%d;\n",
			     types[sgn][es], name, s->off, sgn);
			putf(s, &s->fmt, "%s%s=", sep, name);
			put_array_print(s, name, e, es, 1,
					s->plan ? convert_record_plan_seq_max(s->plan, s->n_seq)
						: 0);
			s->n_seq++;
			s->off += 4;
		} else {
			if (fc->u.arr.length > MAX_FIXED / es)
				return refuse(s, path, "an array of more than 65535 bytes");
			n = (uint32_t) fc->u.arr.length;
			size = n * es;
			s->off = align_to(s->off, es);
			putf(s, s->text,
			     "\tfield:%sint%u_t %s[%u];\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			     e->kind != MODEL_FC_FLOAT && e->is_signed ? "" : "u", es * 8, name, n,
			     s->off, size, e->kind != MODEL_FC_FLOAT && e->is_signed);
			putf(s, &s->fmt, "%s%s=", sep, name);
			put_array_print(s, name, e, es, 0, n);
			s->off += size;
		}
	} else {
		int sgn = fc->kind != MODEL_FC_FLOAT && fc->is_signed;
		int hex = fc->kind != MODEL_FC_FLOAT && fc->base == 16;

		es = scalar_bytes(fc);
		s->off = align_to(s->off, es);
		putf(s, s->text, "\tfield:%sint%u_t %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
		     sgn ? "" : "u", es * 8, name, s->off, es, sgn);
		if (fc->kind == MODEL_FC_FLOAT) {
			char x[160];

			snprintf(x, sizeof(x), "REC->%s", name);
			putf(s, &s->fmt, "%s%s=", sep, name);
			put_float_pieces(s, x, es, NULL);
		} else {
			/* %hhd and %hd: libtraceevent reads fields unsigned, the cast signs them */
			putf(s, &s->fmt, "%s%s=%s%%%s", sep, name, hex ? "0x" : "",
			     hex   ? (es == 8 ? "llx" : "x")
			     : sgn ? signed_conv(es)
				   : (es == 8 ? "llu" : "u"));
			putf(s, &s->args, ", REC->%s", name);
		}
		s->off += es;
	}
	if (s->off > MAX_FIXED)
		return refuse(s, path, "the fixed part of the record passes 65535 bytes");
	return s->oom ? TK_FAIL(TK_ERR_NOMEM, "Cannot convert event class to trace.dat") : TK_OK;
}

static enum tk_status synth_walk(struct synth *s, const struct model_fc *fc, const char *path,
				 int depth)
{
	const struct model_member *m;
	enum tk_status st = TK_OK;
	uint32_t i, count;
	char sub[256];

	if (depth > MAX_DEPTH)
		return refuse(s, path, "nested too deeply");
	if (fc->kind != MODEL_FC_STRUCT && fc->kind != MODEL_FC_VARIANT)
		return synth_leaf(s, fc, path);
	m = fc->kind == MODEL_FC_STRUCT ? fc->u.st.members : fc->u.var.options;
	count = fc->kind == MODEL_FC_STRUCT ? fc->u.st.count : fc->u.var.count;
	for (i = 0; i < count && st >= 0; i++) {
		int n = snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "_" : "", m[i].name);

		if (n < 0 || (size_t) n >= sizeof(sub))
			return refuse(s, path, "a nested field's name is too long");
		st = synth_walk(s, m[i].fc, sub, depth + 1);
	}
	return st;
}

enum tk_status convert_record_format(const struct tk_event_class *ec, uint32_t id, const char *name,
				     const struct convert_record_plan *plan, struct vec *text)
{
	static const char *const commons[] = {"common_type", "common_flags", "common_preempt_count",
					      "common_pid"};
	struct synth s = {.ec = ec, .text = text, .plan = plan, .off = 8};
	enum tk_status st = TK_OK;
	size_t i;
	int k;

	for (i = 0; i < 4; i++) {
		char **slot = vec_push(&s.names, sizeof(char *));

		if (!slot || !(*slot = strdup(commons[i]))) {
			if (slot)
				s.names.len--;
			s.oom = 1;
		}
	}
	putf(&s, text,
	     "name: %s\nID: %" PRIu32 "\nformat:\n"
	     "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	     "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	     "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	     "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n",
	     name, id);
	for (k = 0; k < 3 && st >= 0 && !s.oom; k++)
		if (scope_fc(ec, k))
			st = synth_walk(&s, scope_fc(ec, k), "", 0);
	put(&s, text, "\nprint fmt: \"", 13);
	put(&s, text, s.fmt.data ? s.fmt.data : "", s.fmt.len);
	put(&s, text, "\"", 1);
	put(&s, text, s.args.data ? s.args.data : "", s.args.len);
	put(&s, text, "\n", 1);
	if (st >= 0 && s.oom)
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot convert event class to trace.dat");
	for (i = 0; i < s.names.len; i++)
		free(VEC_AT(&s.names, char *, i));
	vec_fini(&s.names);
	vec_fini(&s.fmt);
	vec_fini(&s.args);
	return st;
}

/* ---- plans -------------------------------------------------------------------------------- */

struct compiler {
	const struct tk_event_class *ec;
	const struct ftrace_event *fev;
	struct convert_record_plan *p;
	enum convert_record_mode mode;
	struct vec nodes;
	uint32_t next;			 /* next own field of the format */
	uint32_t n_seq;			 /* sequences of numbers so far */
	const struct model_fc *pid_leaf; /* SYNTH: the context field common_pid copies */
};

static struct node *new_node(struct compiler *c, uint8_t op, const struct model_fc *fc)
{
	struct node *n = vec_push(&c->nodes, sizeof(*n));

	if (n) {
		memset(n, 0, sizeof(*n));
		n->op = op;
		n->fc = fc;
		n->span = 1;
	}
	return n;
}

static enum tk_status mismatch(const struct compiler *c, const char *field, const char *reason)
{
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot match CTF event class to ftrace format: event=%s, field=%s, "
		       "reason=%s",
		       c->fev->name, field, reason);
}

/* The field element size the CTF conversion used (src/pipeline/dat-to-ctf.c), or 1 for bytes. */
static uint32_t field_es(const struct ftrace_field *f)
{
	uint32_t es = f->elemsize;

	return es == 1 || es == 2 || es == 4 || es == 8 ? es : 1;
}

/* Node for the leaf @fc written to field @f. */
static enum tk_status leaf_node(struct compiler *c, const struct model_fc *fc,
				const struct ftrace_field *f, const char *name)
{
	int text = fc->kind == MODEL_FC_STRING || fc->is_text;
	int arr = fc->kind == MODEL_FC_ARRAY || fc->kind == MODEL_FC_SEQUENCE;
	int dyn = (f->flags & FTRACE_FIELD_DYNAMIC) != 0;
	/* kernel_stack's frames: a sequence (an array of 8 from conversions before that) */
	int end = ftrace_field_to_end(c->fev, f) && fc->kind == MODEL_FC_SEQUENCE;
	struct node *n;

	/* bytes (u8 arrays) come as bytes, or as text from conversions before they did */
	if (ftrace_field_text(f) && (!ftrace_field_bytes(f) || text)) {
		if (!text)
			return mismatch(c, name, "text in the format, not in the CTF trace");
		n = new_node(c, N_STR, fc);
	} else if (f->flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC) ||
		   (f->size && f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)) {
		int want_seq = dyn || ftrace_field_flexible(f) || end;

		if (!arr || text || !is_scalar(fc->u.arr.elem) ||
		    (fc->kind == MODEL_FC_SEQUENCE) != want_seq)
			return mismatch(c, name, "an array in the format, not in the CTF trace");
		n = new_node(c, N_ARRAY, fc);
		if (n) {
			n->es = (uint8_t) ((f->flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC))
						   ? field_es(f)
						   : 1);
			n->elem_float = fc->u.arr.elem->kind == MODEL_FC_FLOAT;
			if (fc->kind == MODEL_FC_SEQUENCE)
				n->seq = c->n_seq++;
			if (scalar_bytes(fc->u.arr.elem) != n->es)
				return mismatch(c, name, "another element size");
		}
	} else {
		if (!is_scalar(fc))
			return mismatch(c, name, "a number in the format, not in the CTF trace");
		n = new_node(c, fc->kind == MODEL_FC_FLOAT ? N_FLOAT : N_INT, fc);
		if (n)
			n->es = (uint8_t) f->size;
		/* a size-0 scalar (old bprint "u32 buf") takes its value but writes nothing */
		if (n && !f->size)
			n->op = N_SKIP;
	}
	if (!n)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot match CTF event class to ftrace format");
	n->dyn = (uint8_t) dyn;
	n->flex = (uint8_t) (ftrace_field_flexible(f) || end);
	n->end = (uint8_t) end;
	n->rel = (f->flags & FTRACE_FIELD_RELATIVE) != 0;
	n->loc_size = (uint8_t) f->size;
	if (dyn && f->size != 4 && f->size != 2)
		return mismatch(c, name, "a location word of neither 2 nor 4 bytes");
	n->off = f->offset;
	n->size = f->size;
	n->pid = fc == c->pid_leaf;
	return TK_OK;
}

/* The format's next own field for a leaf, or a mismatch. */
static enum tk_status next_field(struct compiler *c, const struct model_fc *fc, const char *name)
{
	uint32_t i = c->fev->n_common + c->next;

	if (i >= c->fev->n_fields)
		return mismatch(c, name, "more fields in the CTF trace than in the format");
	c->next++;
	return leaf_node(c, fc, &c->fev->fields[i], name);
}

/* SYNTH: every leaf to the next field, structures and variants as nodes. */
static enum tk_status compile_synth(struct compiler *c, const struct model_fc *fc, const char *name,
				    int depth)
{
	size_t at = c->nodes.len;
	const struct model_member *m;
	enum tk_status st = TK_OK;
	uint32_t i, count;
	struct node *n;

	if (depth > MAX_DEPTH)
		return mismatch(c, name, "nested too deeply");
	if (fc->kind != MODEL_FC_STRUCT && fc->kind != MODEL_FC_VARIANT)
		return next_field(c, fc, name);
	m = fc->kind == MODEL_FC_STRUCT ? fc->u.st.members : fc->u.var.options;
	count = fc->kind == MODEL_FC_STRUCT ? fc->u.st.count : fc->u.var.count;
	n = new_node(c, fc->kind == MODEL_FC_STRUCT ? N_STRUCT : N_VARIANT, fc);
	if (!n)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot match CTF event class to ftrace format");
	n->count = count;
	for (i = 0; i < count && st >= 0; i++)
		st = compile_synth(c, m[i].fc, m[i].name, depth + 1);
	VEC_AT(&c->nodes, struct node, at).span = (uint32_t) (c->nodes.len - at);
	return st;
}

static int is_length_of_sequence(const struct model_fc *scope, const struct model_fc *fc)
{
	uint32_t i;

	for (i = 0; i < scope->u.st.count; i++)
		if (scope->u.st.members[i].fc->kind == MODEL_FC_SEQUENCE &&
		    scope->u.st.members[i].fc->u.arr.length_fc == fc)
			return 1;
	return 0;
}

/*
 * ENV: the context members named as common fields go there (the stream event context's, as
 * the trace.dat-to-CTF shortcut writes them, or the event class's, as the generic CTF writer
 * does when the classes of a stream differ), other context leaves are skipped, the payload's
 * members (but sequence lengths) go to the own fields.
 */
static enum tk_status compile_env(struct compiler *c, int k, const struct model_fc *scope)
{
	size_t at = c->nodes.len;
	enum tk_status st = TK_OK;
	struct node *root;
	uint32_t i, j;

	if (scope->kind != MODEL_FC_STRUCT) {
		root = new_node(c, N_SKIP, scope);
		return root ? TK_OK : TK_FAIL(TK_ERR_NOMEM, "Cannot match CTF event class");
	}
	root = new_node(c, N_STRUCT, scope);
	if (!root)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot match CTF event class");
	root->count = scope->u.st.count;
	for (i = 0; i < scope->u.st.count && st >= 0; i++) {
		const struct model_member *m = &scope->u.st.members[i];
		const struct ftrace_field *f = NULL;

		if (k != 2) {
			for (j = 0; j < c->fev->n_common && !f; j++)
				if (!strcmp(c->fev->fields[j].name, m->name))
					f = &c->fev->fields[j];
			if (f && (m->fc->kind == MODEL_FC_INT || m->fc->kind == MODEL_FC_ENUM) &&
			    (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) &&
			    !(f->flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC)))
				st = leaf_node(c, m->fc, f, m->name);
			else if (!new_node(c, N_SKIP, m->fc))
				st = TK_FAIL(TK_ERR_NOMEM, "Cannot match CTF event class");
		} else if (is_length_of_sequence(scope, m->fc)) {
			if (!new_node(c, N_SKIP, m->fc))
				st = TK_FAIL(TK_ERR_NOMEM, "Cannot match CTF event class");
		} else if (c->fev->n_common + c->next < c->fev->n_fields &&
			   strcmp(c->fev->fields[c->fev->n_common + c->next].name, m->name)) {
			/* the CTF conversion keeps the names, which are C identifiers */
			st = mismatch(c, m->name, "the format has another field there");
		} else {
			st = next_field(c, m->fc, m->name);
		}
	}
	VEC_AT(&c->nodes, struct node, at).span = (uint32_t) (c->nodes.len - at);
	if (st >= 0 && k == 2 && c->fev->n_common + c->next != c->fev->n_fields)
		st = mismatch(c, c->fev->fields[c->fev->n_common + c->next].name,
			      "missing from the CTF trace");
	return st;
}

/* SYNTH: the context field common_pid takes: tid, vtid, pid, vpid, in that order. */
static const struct model_fc *find_pid(const struct tk_event_class *ec)
{
	static const char *const names[] = {"tid", "vtid", "pid", "vpid"};
	size_t i;
	int k;
	uint32_t j;

	for (i = 0; i < 4; i++)
		for (k = 0; k < 2; k++) {
			const struct model_fc *s = scope_fc(ec, k);

			for (j = 0; s && s->kind == MODEL_FC_STRUCT && j < s->u.st.count; j++)
				if (!strcmp(s->u.st.members[j].name, names[i]) &&
				    (s->u.st.members[j].fc->kind == MODEL_FC_INT ||
				     s->u.st.members[j].fc->kind == MODEL_FC_ENUM))
					return s->u.st.members[j].fc;
		}
	return NULL;
}

enum tk_status convert_record_plan(struct convert_record_plan **out,
				   const struct tk_event_class *ec, const struct ftrace_event *fev,
				   enum convert_record_mode mode, enum tk_byte_order bo)
{
	struct convert_record_plan *p = calloc(1, sizeof(*p));
	struct compiler c = {.ec = ec, .fev = fev, .p = p, .mode = mode};
	const struct ftrace_field *f;
	enum tk_status st = TK_OK;
	uint32_t i;
	int k;

	if (!p)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot match CTF event class to ftrace format");
	p->fev = fev;
	p->bo = bo;
	for (i = 0; i < fev->n_fields; i++) {
		uint64_t end = (uint64_t) fev->fields[i].offset + fev->fields[i].size;

		if (end > MAX_FIXED)
			st = mismatch(&c, fev->fields[i].name, "past 65535 bytes");
		else if (end > p->fixed)
			p->fixed = (uint32_t) end;
	}
	f = ftrace_field_find(fev, "common_type");
	if (f && f->size <= 8 && !(f->flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC))) {
		p->type_off = f->offset;
		p->type_size = f->size;
	}
	f = ftrace_field_find(fev, "common_pid");
	if (mode == CONVERT_RECORD_SYNTH && f && f->size <= 8 &&
	    !(f->flags & (FTRACE_FIELD_ARRAY | FTRACE_FIELD_DYNAMIC))) {
		p->pid_off = f->offset;
		p->pid_size = f->size;
		c.pid_leaf = find_pid(ec);
	}
	for (k = 0; k < (mode == CONVERT_RECORD_ENV ? 4 : 3) && st >= 0; k++) {
		const struct model_fc *scope = scope_fc(ec, k);

		if (!scope) {
			if (mode == CONVERT_RECORD_ENV && k == 2 &&
			    c.fev->n_common + c.next != c.fev->n_fields)
				st = mismatch(&c, fev->fields[fev->n_common].name,
					      "missing from the CTF trace");
			continue;
		}
		c.nodes = (struct vec) VEC_INIT;
		st = mode == CONVERT_RECORD_ENV ? compile_env(&c, k, scope)
						: compile_synth(&c, scope, "", 0);
		p->nodes[k] = c.nodes.data;
		p->n_nodes[k] = c.nodes.len;
	}
	if (st >= 0 && mode == CONVERT_RECORD_SYNTH && fev->n_common + c.next != fev->n_fields)
		st = mismatch(&c, fev->fields[fev->n_common + c.next].name,
			      "missing from the CTF trace");
	if (st >= 0 && c.n_seq) {
		p->seq_max = calloc(c.n_seq, sizeof(*p->seq_max));
		p->n_seq = c.n_seq;
		if (!p->seq_max)
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot match CTF event class to ftrace format");
	}
	if (st < 0) {
		convert_record_plan_destroy(p);
		return TK_FAIL(st, "Cannot convert event class to trace.dat: event=%s",
			       ec->name ? ec->name : "(unnamed)");
	}
	*out = p;
	return TK_OK;
}

struct convert_record_plan *convert_record_plan_raw(const struct tk_event_class *ec)
{
	const struct model_fc *pl = ec->payload;
	const struct model_fc *seq = NULL;
	struct convert_record_plan *p;
	uint32_t i;

	if (!pl || pl->kind != MODEL_FC_STRUCT)
		return NULL;
	for (i = 0; i < pl->u.st.count; i++) {
		const struct model_fc *fc = pl->u.st.members[i].fc;

		if (fc->kind == MODEL_FC_SEQUENCE && !seq)
			seq = fc;
		else if (!is_length_of_sequence(pl, fc))
			return NULL;
	}
	if (!seq || seq->is_text || seq->u.arr.elem->kind != MODEL_FC_INT ||
	    seq->u.arr.elem->size != 8)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (p)
		p->raw = 1;
	return p;
}

const struct ftrace_event *convert_record_plan_format(const struct convert_record_plan *p)
{
	return p->fev;
}

uint64_t convert_record_plan_seq_max(const struct convert_record_plan *p, uint32_t i)
{
	return i < p->n_seq ? p->seq_max[i] : 0;
}

void convert_record_plan_destroy(struct convert_record_plan *p)
{
	int k;

	if (!p)
		return;
	for (k = 0; k < 4; k++)
		free(p->nodes[k]);
	free(p->seq_max);
	free(p);
}

/* ---- building ----------------------------------------------------------------------------- */

struct run {
	const struct convert_record_plan *p;
	const struct tk_event *ev;
	struct convert_record *rec;
	uint32_t dyn; /* end of the dynamic area */
	enum tk_status st;
};

static void store(uint8_t *q, uint32_t size, uint64_t v, enum tk_byte_order bo)
{
	switch (size) {
	case 1:
		*q = (uint8_t) v;
		break;
	case 2:
		tk_store_u16(q, (uint16_t) v, bo);
		break;
	case 4:
		tk_store_u32(q, (uint32_t) v, bo);
		break;
	case 8:
		tk_store_u64(q, v, bo);
		break;
	default:
		break;
	}
}

static uint64_t float_bits(double d, uint32_t es)
{
	uint64_t u;

	if (es == 4) {
		float f = (float) d;
		uint32_t v;

		memcpy(&v, &f, sizeof(v));
		return v;
	}
	memcpy(&u, &d, sizeof(u));
	return u;
}

/* Room for @n more dynamic bytes; 0 when the record would pass its maximum. */
static uint8_t *dyn_room(struct run *r, const struct node *n, size_t len)
{
	if (r->st < 0)
		return NULL;
	if (len > r->rec->max || r->dyn > r->rec->max - len || r->dyn + len > 0xffff ||
	    len > 0xffff) {
		r->st = TK_FAIL(TK_ERR_UNSUPPORTED,
				"Cannot convert event to trace.dat: event=%s, field-offset=%u, "
				"size=%zu, reason=the record passes %zu bytes (a ring-buffer page)",
				r->p->fev->name, n->off, (size_t) r->dyn + len, r->rec->max);
		return NULL;
	}
	return r->rec->data + r->dyn;
}

/*
 * Room for the @len bytes of a flexible array at its offset, which end the record; NULL
 * when they would pass its maximum.
 */
static uint8_t *flex_room(struct run *r, const struct node *n, size_t len)
{
	if (r->st < 0)
		return NULL;
	if (n->off > r->rec->max || len > r->rec->max - n->off) {
		r->st = TK_FAIL(TK_ERR_UNSUPPORTED,
				"Cannot convert event to trace.dat: event=%s, field-offset=%u, "
				"size=%zu, reason=the record passes %zu bytes (a ring-buffer page)",
				r->p->fev->name, n->off, (size_t) n->off + len, r->rec->max);
		return NULL;
	}
	if (n->off + len > r->dyn)
		r->dyn = (uint32_t) (n->off + len);
	return r->rec->data + n->off;
}

/* The location word of dynamic data of @len bytes placed at the end of the area. */
static void put_loc(struct run *r, const struct node *n, uint32_t len)
{
	uint32_t at = r->dyn;

	if (n->rel)
		at -= n->off + n->size;
	if (n->loc_size == 2)
		tk_store_u16(r->rec->data + n->off, (uint16_t) at, r->p->bo);
	else
		tk_store_u32(r->rec->data + n->off, (len << 16) | (at & 0xffff), r->p->bo);
	r->dyn += len;
}

static const struct model_value *run_node(struct run *r, const struct node *n,
					  const struct model_value *v);

static const struct model_value *run_array(struct run *r, const struct node *n,
					   const struct model_value *v)
{
	uint64_t len = v->n, k, n_put;
	uint8_t *q;

	v++;
	if (n->fc->kind == MODEL_FC_SEQUENCE && n->seq < r->p->n_seq && len > r->p->seq_max[n->seq])
		r->p->seq_max[n->seq] = len; /* the print fmt shows this many (synth_leaf()) */
	if (n->flex) {
		q = flex_room(r, n, (size_t) len * n->es);
		if (!q)
			return v + len;
		if (n->end) /* fewer frames than the format's 8: a shorter record */
			r->dyn = n->off + (uint32_t) len * n->es;
		n_put = len;
	} else if (n->dyn) {
		q = dyn_room(r, n, (size_t) len * n->es);
		if (!q)
			return v + len;
		put_loc(r, n, (uint32_t) (len * n->es));
		n_put = len;
	} else { /* the elements that fit the field; more cannot come from a matching class */
		q = r->rec->data + n->off;
		n_put = n->size / n->es;
		if (n_put > len)
			n_put = len;
	}
	for (k = 0; k < n_put; k++)
		store(q + k * n->es, n->es, n->elem_float ? float_bits(v[k].v.d, n->es) : v[k].v.u,
		      r->p->bo);
	return v + len;
}

static const struct model_value *run_node(struct run *r, const struct node *n,
					  const struct model_value *v)
{
	const struct node *c;
	uint64_t x;
	uint32_t i;
	size_t len;
	uint8_t *q;

	switch (n->op) {
	case N_STRUCT:
		for (i = 0, c = n + 1; i < n->count; i++, c += c->span)
			v = run_node(r, c, v);
		return v;
	case N_VARIANT: {
		uint64_t sel = v->n;

		v++;
		for (i = 0, c = n + 1; i < n->count; i++, c += c->span)
			if (i == sel)
				v = run_node(r, c, v);
		return v;
	}
	case N_SKIP:
		return model_value_skip(n->fc, v);
	case N_INT:
	case N_FLOAT:
		x = n->op == N_FLOAT ? float_bits(v->v.d, n->es) : v->v.u;
		store(r->rec->data + n->off, n->es, x, r->p->bo);
		if (n->pid)
			store(r->rec->data + r->p->pid_off, r->p->pid_size, x, r->p->bo);
		return v + 1;
	case N_STR:
		len = v->v.s ? strnlen(v->v.s, (size_t) v->n) : 0;
		if (n->flex) { /* the text, then a NUL, to the end of the record */
			q = flex_room(r, n, len + 1);
			if (q) {
				memcpy(q, v->v.s, len);
				q[len] = '\0';
			}
			return v + 1;
		}
		if (!n->dyn) {
			memcpy(r->rec->data + n->off, v->v.s, len < n->size ? len : n->size);
			return v + 1;
		}
		q = dyn_room(r, n, len + 1);
		if (q) {
			memcpy(q, v->v.s, len);
			q[len] = '\0';
			put_loc(r, n, (uint32_t) len + 1);
		}
		return v + 1;
	default: /* N_ARRAY */
		return run_array(r, n, v);
	}
}

static enum tk_status reserve(struct convert_record *rec, size_t need)
{
	uint8_t *d;

	if (need <= rec->cap)
		return TK_OK;
	d = realloc(rec->data, need);
	if (!d)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot build record: bytes=%zu", need);
	rec->data = d;
	rec->cap = need;
	return TK_OK;
}

enum tk_status convert_record_build(const struct convert_record_plan *p, const struct tk_event *ev,
				    struct convert_record *rec)
{
	struct run r = {.p = p, .ev = ev, .rec = rec, .st = TK_OK};
	const struct model_value *v;
	enum tk_status st;
	int k;

	if (p->raw) {
		const struct model_value *pv = ev->scope[MODEL_SCOPE_PAYLOAD];
		const struct model_fc *pl = ev->ec->payload;
		uint64_t len, i;

		for (i = 0; pl->u.st.members[i].fc->kind != MODEL_FC_SEQUENCE; i++)
			pv++; /* lengths before it */
		len = pv->n;
		if (len > rec->max)
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot convert event to trace.dat: event=%s, size=%" PRIu64
				       ", reason=larger than a ring-buffer page",
				       ev->ec->name ? ev->ec->name : "(unnamed)", len);
		st = reserve(rec, (size_t) len + 1);
		if (st < 0)
			return st;
		for (i = 0; i < len; i++)
			rec->data[i] = (uint8_t) pv[1 + i].v.u;
		rec->size = (size_t) len;
		return TK_OK;
	}
	if (p->fixed > rec->max)
		return TK_FAIL(
			TK_ERR_UNSUPPORTED,
			"Cannot convert event to trace.dat: event=%s, size=%u, reason=larger "
			"than a ring-buffer page",
			p->fev->name, p->fixed);
	st = reserve(rec, rec->max > p->fixed ? rec->max : p->fixed);
	if (st < 0)
		return st;
	memset(rec->data, 0, p->fixed);
	r.dyn = p->fixed;
	for (k = 0; k < 4; k++) {
		v = ev->scope[k + 1]; /* k 3: MODEL_SCOPE_COMMON */
		if (p->n_nodes[k] && v)
			run_node(&r, p->nodes[k], v);
	}
	if (r.st < 0)
		return r.st;
	if (p->type_size)
		store(rec->data + p->type_off, p->type_size, p->fev->id, p->bo);
	rec->size = r.dyn;
	return TK_OK;
}
