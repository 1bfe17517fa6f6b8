// SPDX-License-Identifier: MIT
/*
 * gen-ctfw: writes a CTF trace through the public writer API (include/tracekit/ctf-writer.h)
 * from a seed, for tests/interop/ctf-write.sh, which has babeltrace2 read it.
 *
 * The same options always give the same events (the UUID is derived from the seed too).
 * Event classes get random fields of every kind the writer offers, under names the writer
 * must rename (keywords, punctuation, duplicates), in two stream classes with their own
 * clocks; one of them carries ftrace-like common fields as event context. Streams advance
 * on one shared schedule with pauses long enough to need extended headers, and sometimes
 * share a time, so readers must break ties. Text values are never empty: babeltrace2 2.0 may
 * print stale text for empty strings (see stale-empty.py), which this test does not excuse.
 *
 * With --nested, the trace holds the kinds that nest instead (tk_ctf_writer_add_*_desc()):
 * enumerations, structures (empty ones too), variants chosen by a tag, arrays and sequences
 * of structures, enumerations, 1-bit integers, text and arrays, sequences whose length is
 * an earlier member; a stream class with a packet context of its own fields and an event
 * context, event classes with contexts of their own, IDs and stream file names given, and
 * losses over time ranges (--lost). With --no-clock as well, its one stream class has no
 * clock (events without time, one stream) and the trace no UUID.
 *
 * Usage: gen-ctfw [--seed N] [--events N] [--streams N] [--packet-size BYTES]
 *                 [--byte-order le|be|host] [--large] [--lost] [--no-index]
 *                 [--frequency HZ] [--big] [--nested [--no-clock]] DIR
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracekit/tracekit.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_FIELDS    10
#define MAX_CLASSES   48
#define MAX_STREAMS   16
#define SCRATCH	      (64 * 1024)

struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t below(struct rng *r, uint64_t n)
{
	return n ? rng_next(r) % n : 0;
}

static void fail(const char *what, enum tk_status st)
{
	size_t i;

	fprintf(stderr, "gen-ctfw: %s: %s\n", what, tk_status_str(st));
	for (i = 0; i < tk_error_count(); i++)
		fprintf(stderr, "gen-ctfw:   %s\n", tk_error_cause(i));
	exit(1);
}

#define CHECK(call)                                                                                \
	do {                                                                                       \
		enum tk_status st_ = (call);                                                       \
		if (st_ < 0)                                                                       \
			fail(#call, st_);                                                          \
	} while (0)

struct gclass {
	uint64_t sc;
	uint64_t id;
	struct tk_ctf_field_decl d[MAX_FIELDS];
	size_t n;
	char names[MAX_FIELDS][24];
	char name[48];
};

static const char *const field_names[] = {
	"pid",	"int",	  "my-field", "9lives", "_under", "Bool", "a-b",   "a_b",    "len",
	"data", "string", "x.y",      "comm",	"prio",	  "ret",  "flags", "struct", "addr",
};

static const char *const event_names[] = {
	"sched_switch",		"sched:wakeup", "irq handler", "quote\"name", "back\\slash",
	"syscall_entry_openat", "tab\tname",	"caf\xc3\xa9", "kmem_kfree",  "x",
};

/* A random field declaration (@big: strings and sequences may exceed small packets). */
static void random_field(struct rng *r, struct tk_ctf_field_decl *d)
{
	static const unsigned int bits[] = {8, 16, 32, 64, 1, 3, 5, 12, 17, 31, 33, 63};
	static const unsigned int bases[] = {10, 10, 16, 8, 2, 0};

	memset(d, 0, sizeof(*d));
	switch (below(r, 8)) {
	case 0:
	case 1:
	case 2:
		d->kind = TK_CTF_FIELD_KIND_INT;
		d->bits = bits[below(r, ARRAY_SIZE(bits))];
		d->is_signed = (int) below(r, 2);
		d->base = bases[below(r, ARRAY_SIZE(bases))];
		break;
	case 3:
		d->kind = TK_CTF_FIELD_KIND_FLOAT;
		d->bits = below(r, 2) ? 32 : 64;
		break;
	case 4:
		d->kind = TK_CTF_FIELD_KIND_STRING;
		break;
	default:
		d->kind = below(r, 2) ? TK_CTF_FIELD_KIND_ARRAY : TK_CTF_FIELD_KIND_SEQUENCE;
		d->array_len = 1 + below(r, 16);
		if (below(r, 3) == 0) {
			d->elem_kind = TK_CTF_FIELD_KIND_CHAR;
		} else {
			d->elem_kind = TK_CTF_FIELD_KIND_INT;
			d->elem_bits = bits[below(r, ARRAY_SIZE(bits))];
			d->elem_signed = (int) below(r, 2);
			d->elem_base = bases[below(r, ARRAY_SIZE(bases))];
		}
		break;
	}
	/*
	 * babeltrace2 2.0 masks hexadecimal values to their size rounded up to a nibble with a
	 * shift by 64 for sizes of 61 to 63 bits (undefined behaviour in C), and prints 0x0 on
	 * x86; tracekit prints the value. Keep those sizes decimal.
	 */
	if (d->base == 16 && d->bits > 60 && d->bits < 64)
		d->base = 10;
	if (d->elem_base == 16 && d->elem_bits > 60 && d->elem_bits < 64)
		d->elem_base = 10;
}

static unsigned int width_of(unsigned int bits)
{
	return bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
}

/* Text without NUL, never empty: letters, escapes and UTF-8. */
static size_t fill_text(struct rng *r, uint8_t *p, size_t len)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGH 0123456789_-/.:\"\\'?\n\t\x1b"
				  "\xc3\xa9";
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t) set[below(r, sizeof(set) - 1)];
	p[0] = 'a' + (uint8_t) below(r, 26); /* never starts with a UTF-8 continuation byte */
	return len;
}

static void random_values(struct rng *r, const struct tk_ctf_field_decl *d, size_t n,
			  struct tk_ctf_value *v, uint8_t (*scratch)[SCRATCH], int big)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		memset(&v[i], 0, sizeof(v[i]));
		switch (d[i].kind) {
		case TK_CTF_FIELD_KIND_INT:
			v[i].v.u = rng_next(r) >> below(r, 64);
			break;
		case TK_CTF_FIELD_KIND_FLOAT:
			v[i].v.d = (double) (int32_t) rng_next(r) / (double) (1 + below(r, 1000));
			break;
		case TK_CTF_FIELD_KIND_STRING:
			v[i].len = big && below(r, 50) == 0 ? 1000 + below(r, 20000)
							    : 1 + below(r, 40);
			fill_text(r, scratch[i], v[i].len);
			v[i].data = scratch[i];
			break;
		default: {
			size_t len;

			if (d[i].kind == TK_CTF_FIELD_KIND_ARRAY)
				len = below(r, 4) ? d[i].array_len : 1 + below(r, d[i].array_len);
			else
				len = big && below(r, 50) == 0 ? 500 + below(r, 3000)
							       : 1 + below(r, 20);
			if (d[i].elem_kind == TK_CTF_FIELD_KIND_CHAR) {
				fill_text(r, scratch[i], len);
			} else {
				unsigned int w = width_of(d[i].elem_bits);

				for (j = 0; j < len; j++) {
					uint64_t x = rng_next(r) >> below(r, 64);

					memcpy(scratch[i] + j * w,
					       (const uint8_t *) &x +
						       (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
								? 8 - w
								: 0),
					       w);
				}
			}
			v[i].data = scratch[i];
			v[i].len = len;
			break;
		}
		}
	}
}

static void usage(FILE *out)
{
	fprintf(out, "Usage: gen-ctfw [--seed N] [--events N] [--streams N] [--packet-size BYTES]\n"
		     "                [--byte-order le|be|host] [--large] [--lost] [--no-index]\n"
		     "                [--frequency HZ] [--big] [--nested [--no-clock]] DIR\n");
}

/* ---- --nested: the kinds that nest ---------------------------------------------------------- */

#define LBL(l, a, b)                                                                               \
	{                                                                                          \
		.label = (l), .lo = {.u = (a)}, .hi = {.u = (b) }                                  \
	}
#define INTD(nm, b, s, bs)                                                                         \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_INT, .bits = (b), .is_signed = (s),        \
		.base = (bs)                                                                       \
	}
#define STRUCTD(nm, m)                                                                             \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_STRUCT, .members = (m),                    \
		.n_members = ARRAY_SIZE(m)                                                         \
	}

static const struct tk_ctf_enum_label n_colors[] = {
	LBL("RED", 0, 0),
	LBL("GREEN", 1, 1),
	LBL("BLUE: 2 to 9", 2, 9),
	LBL("GREEN", 20, 22),
};
static const struct tk_ctf_enum_label n_signed[] = {
	{.label = "NEG", .lo = {.i = -100}, .hi = {.i = -1}},
	{.label = "ZERO", .lo = {.i = 0}, .hi = {.i = 0}},
	{.label = "POS", .lo = {.i = 1}, .hi = {.i = 1000}},
};
/* labels starting with "_" or naming keywords once one "_" is gone, as LTTng writes them */
static const struct tk_ctf_enum_label n_tags[] = {
	LBL("str", 0, 0),  LBL("_num", 1, 3),	LBL("pair", 4, 4),
	LBL("none", 5, 5), LBL("_align", 6, 6), LBL("__two", 7, 7),
};
#define COLORD(nm)                                                                                 \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_ENUM, .bits = 8, .base = 16,               \
		.labels = n_colors, .n_labels = ARRAY_SIZE(n_colors)                               \
	}
#define TAGD(nm)                                                                                   \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_ENUM, .bits = 8, .labels = n_tags,         \
		.n_labels = ARRAY_SIZE(n_tags)                                                     \
	}

static const struct tk_ctf_field_decl n_u16 = INTD(NULL, 16, 0, 16);
static const struct tk_ctf_field_decl n_bit = INTD(NULL, 1, 0, 0);
static const struct tk_ctf_field_decl n_s12 = INTD(NULL, 12, 1, 0);
static const struct tk_ctf_field_decl n_char = {.kind = TK_CTF_FIELD_KIND_CHAR};
static const struct tk_ctf_field_decl n_color = COLORD(NULL);
static const struct tk_ctf_field_decl n_row = {
	.kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 3, .elem = &n_s12};
static const struct tk_ctf_field_decl n_pair[] = {
	INTD("a", 16, 0, 0),
	{.name = "b", .kind = TK_CTF_FIELD_KIND_FLOAT, .bits = 64},
};
static const struct tk_ctf_field_decl n_options[] = {
	{.name = "str", .kind = TK_CTF_FIELD_KIND_STRING},
	INTD("_num", 32, 1, 0),
	STRUCTD("pair", n_pair),
	{.name = "none", .kind = TK_CTF_FIELD_KIND_STRUCT},
	INTD("_align", 5, 1, 0),
	COLORD("__two"),
};
static const struct tk_ctf_field_decl n_pt[] = {
	INTD("a", 8, 0, 0),
	{.name = "s", .kind = TK_CTF_FIELD_KIND_STRING},
	{.name = "e", .kind = TK_CTF_FIELD_KIND_STRUCT},
};
static const struct tk_ctf_field_decl n_pt_elem = {
	.kind = TK_CTF_FIELD_KIND_STRUCT, .members = n_pt, .n_members = ARRAY_SIZE(n_pt)};
static const struct tk_ctf_field_decl n_item[] = {
	INTD("k", 8, 0, 0),
	TAGD("t"),
	{.name = "v",
	 .kind = TK_CTF_FIELD_KIND_VARIANT,
	 .ref = "t",
	 .members = n_options,
	 .n_members = ARRAY_SIZE(n_options)},
};
static const struct tk_ctf_field_decl n_item_elem = {
	.kind = TK_CTF_FIELD_KIND_STRUCT, .members = n_item, .n_members = ARRAY_SIZE(n_item)};
static const struct tk_ctf_field_decl n_name = {
	.kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "len", .elem = &n_char};
static const struct tk_ctf_field_decl n_inner[] = {
	INTD("x", 32, 1, 0),
	{.name = "inner", .kind = TK_CTF_FIELD_KIND_STRUCT},
	{.name = "f", .kind = TK_CTF_FIELD_KIND_FLOAT, .bits = 32},
};
static const struct tk_ctf_field_decl n_sink_m[] = {
	INTD("len", 8, 0, 0),
	COLORD("color"),
	{.name = "sgn",
	 .kind = TK_CTF_FIELD_KIND_ENUM,
	 .bits = 16,
	 .is_signed = 1,
	 .labels = n_signed,
	 .n_labels = ARRAY_SIZE(n_signed)},
	STRUCTD("pt", n_inner),
	{.name = "empty", .kind = TK_CTF_FIELD_KIND_STRUCT},
	TAGD("tag"),
	{.name = "v",
	 .kind = TK_CTF_FIELD_KIND_VARIANT,
	 .ref = "tag",
	 .members = n_options,
	 .n_members = ARRAY_SIZE(n_options)},
	{.name = "words", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "len", .elem = &n_u16},
	{.name = "text", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "len", .elem = &n_char},
	{.name = "bits", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 70, .elem = &n_bit},
	{.name = "pts", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 2, .elem = &n_pt_elem},
	{.name = "grid", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 2, .elem = &n_row},
	{.name = "colors", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 2, .elem = &n_color},
	{.name = "items", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .elem = &n_item_elem},
	{.name = "names", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 2, .elem = &n_name},
	INTD("tail", 12, 0, 16),
};
static const struct tk_ctf_field_decl n_sink = STRUCTD(NULL, n_sink_m);
static const struct tk_ctf_field_decl n_var_m[] = {
	TAGD("tag"),
	{.name = "v",
	 .kind = TK_CTF_FIELD_KIND_VARIANT,
	 .ref = "tag",
	 .members = n_options,
	 .n_members = ARRAY_SIZE(n_options)},
};
static const struct tk_ctf_field_decl n_var = STRUCTD(NULL, n_var_m);
static const struct tk_ctf_field_decl n_empty = {.kind = TK_CTF_FIELD_KIND_STRUCT};
static const struct tk_ctf_field_decl n_ctx_m[] = {INTD("vpid", 32, 1, 0), INTD("ip", 64, 0, 16)};
static const struct tk_ctf_field_decl n_ctx = STRUCTD(NULL, n_ctx_m);
static const struct tk_ctf_field_decl n_sctx_m[] = {INTD("tid", 32, 1, 0)};
static const struct tk_ctf_field_decl n_sctx = STRUCTD(NULL, n_sctx_m);
static const struct tk_ctf_field_decl n_pctx_m[] = {
	INTD("cpu_id", 32, 0, 0),
	{.name = "host", .kind = TK_CTF_FIELD_KIND_STRING},
	COLORD("mode"),
};
static const struct tk_ctf_field_decl n_pctx = STRUCTD(NULL, n_pctx_m);

/* Values of declarations, depth first; tags choose options, length members lengths. */
struct ngen {
	struct rng *r;
	struct tk_ctf_value v[8192];
	size_t n;
	uint8_t text[1 << 17];
	size_t used;
	struct {
		const struct tk_ctf_field_decl *d;
		uint64_t v;
	} ints[512];
	size_t n_ints;
};

static uint64_t ngen_named(const struct ngen *g, const char *name,
			   const struct tk_ctf_field_decl **d)
{
	size_t i;

	for (i = g->n_ints; i-- > 0;)
		if (!strcmp(g->ints[i].d->name, name)) {
			*d = g->ints[i].d;
			return g->ints[i].v;
		}
	fprintf(stderr, "gen-ctfw: no member %s\n", name);
	exit(1);
}

/* @len bytes of text, never starting with NUL (see the file comment on empty text) */
static const uint8_t *ngen_text(struct ngen *g, size_t len)
{
	uint8_t *p = g->text + g->used;

	if (g->used + len + 1 > sizeof(g->text)) {
		fprintf(stderr, "gen-ctfw: text buffer full\n");
		exit(1);
	}
	fill_text(g->r, p, len);
	g->used += len;
	return p;
}

static void ngen_field(struct ngen *g, const struct tk_ctf_field_decl *d)
{
	struct tk_ctf_value *x = &g->v[g->n++];
	const struct tk_ctf_field_decl *t = NULL;
	uint64_t k, tv;
	size_t i, j;

	if (g->n >= ARRAY_SIZE(g->v) - 16) {
		fprintf(stderr, "gen-ctfw: too many values\n");
		exit(1);
	}
	memset(x, 0, sizeof(*x));
	switch (d->kind) {
	case TK_CTF_FIELD_KIND_INT:
		x->v.u = rng_next(g->r) >> below(g->r, 64);
		if (!strcmp(d->name ? d->name : "", "len"))
			x->v.u = 1 + below(g->r, 8); /* never 0: no empty text */
		break;
	case TK_CTF_FIELD_KIND_ENUM: {
		const struct tk_ctf_enum_label *l = &d->labels[below(g->r, d->n_labels)];

		x->v.u = l->lo.u + below(g->r, l->hi.u - l->lo.u + 1);
		if (d->labels == n_colors && below(g->r, 8) == 0)
			x->v.u = 200; /* no label */
		break;
	}
	case TK_CTF_FIELD_KIND_FLOAT:
		x->v.d = (double) (int32_t) rng_next(g->r) / 16.0;
		break;
	case TK_CTF_FIELD_KIND_STRING:
		x->len = 1 + below(g->r, 20);
		x->data = ngen_text(g, x->len);
		break;
	case TK_CTF_FIELD_KIND_STRUCT:
		g->n--;
		for (i = 0; i < d->n_members; i++)
			ngen_field(g, &d->members[i]);
		return;
	case TK_CTF_FIELD_KIND_VARIANT:
		tv = ngen_named(g, d->ref, &t);
		x->len = SIZE_MAX;
		for (i = 0; i < t->n_labels; i++)
			if (tv >= t->labels[i].lo.u && tv <= t->labels[i].hi.u)
				for (j = 0; j < d->n_members; j++)
					if (!strcmp(d->members[j].name, t->labels[i].label))
						x->len = j;
		ngen_field(g, &d->members[x->len]);
		return;
	default: /* arrays and sequences */
		if (d->kind == TK_CTF_FIELD_KIND_ARRAY)
			x->len = (size_t) d->array_len;
		else if (d->ref)
			x->len = (size_t) ngen_named(g, d->ref, &t);
		else
			x->len = below(g->r, 4);
		if (!d->elem || d->elem->kind == TK_CTF_FIELD_KIND_CHAR) {
			x->data = ngen_text(g, x->len);
			return;
		}
		for (k = 0; k < x->len; k++)
			ngen_field(g, d->elem);
		return;
	}
	if (d->name && g->n_ints < ARRAY_SIZE(g->ints)) {
		g->ints[g->n_ints].d = d;
		g->ints[g->n_ints++].v = x->v.u;
	}
}

static const struct tk_ctf_value *ngen_scope(struct ngen *g, const struct tk_ctf_field_decl *d)
{
	size_t first = g->n;

	g->n_ints = 0;
	ngen_field(g, d);
	return &g->v[first];
}

/* The stream's packet-context values from now on (set before its first event: no empty
 * host name, see the file comment). */
static void set_pctx(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s, struct rng *r,
		     uint64_t cpu, const char *host)
{
	struct tk_ctf_value pv[3];

	memset(pv, 0, sizeof(pv));
	pv[0].v.u = cpu;
	pv[1].data = host;
	pv[1].len = strlen(host);
	pv[2].v.u = below(r, 25);
	CHECK(tk_ctf_writer_set_packet_context(w, s, pv));
}

/*
 * The --nested trace: one stream class (with a clock or none) of the caller's own packet
 * context and event context, four event classes of given IDs (one beyond the compact
 * header's range), and a stream per CPU (one without a clock) under given names and IDs.
 */
static void write_nested(struct tk_ctf_writer_opts *o, const char *dir, struct rng *r,
			 uint64_t events, uint64_t streams, uint64_t freq, int lost, int clocked)
{
	static struct ngen g;
	static const char *const hosts[] = {"alpha", "beta \"b\"", "caf\xc3\xa9"};
	struct tk_ctf_stream_class_desc scd = TK_CTF_STREAM_CLASS_DESC_INIT;
	struct tk_ctf_clock_desc cd = TK_CTF_CLOCK_DESC_INIT;
	struct tk_ctf_writer_stream *st[MAX_STREAMS];
	struct tk_ctf_writer *w;
	uint64_t sc, ids[4], now = 1000, clk;
	const struct tk_ctf_field_decl *payloads[4] = {&n_sink, &n_var, &n_empty, NULL};
	const struct tk_ctf_field_decl *ctxs[4] = {&n_ctx, NULL, NULL, &n_ctx};
	static const uint64_t want_ids[4] = {0, 7, 31, 100000};
	static const char *const names[4] = {"kitchen sink", "variant", "empty", "context only"};
	size_t i;

	g.r = r;
	o->no_uuid = !clocked;
	CHECK(tk_ctf_writer_create(&w, dir, o));
	CHECK(tk_ctf_writer_set_env_string(w, "hostname", "nested-host"));
	CHECK(tk_ctf_writer_set_env_string(w, "domain", "ust"));
	CHECK(tk_ctf_writer_set_env_string(w, "procname", "gen-ctfw"));
	CHECK(tk_ctf_writer_set_env_int(w, "vpid", 4242));
	if (clocked) {
		cd.name = "monotonic";
		cd.frequency = freq;
		cd.offset_s = 1700000000;
		cd.offset_cycles = below(r, freq);
		cd.precision = 1;
		cd.description = "nested clock";
		cd.is_absolute = 1;
		cd.has_uuid = 1;
		for (i = 0; i < 16; i++)
			cd.uuid[i] = (uint8_t) rng_next(r);
		CHECK(tk_ctf_writer_add_clock_desc(w, &cd, &clk));
		scd.clock_id = clk;
		streams = streams < MAX_STREAMS ? streams : MAX_STREAMS;
	} else {
		streams = 1; /* readers order events without time by stream: keep one */
	}
	scd.has_id = 1;
	scd.id = 3;
	scd.has_cpu_id = 0;
	scd.packet_context = &n_pctx;
	scd.event_context = &n_sctx;
	CHECK(tk_ctf_writer_add_stream_class_desc(w, &scd, &sc));
	for (i = 0; i < 4; i++) {
		struct tk_ctf_event_class_desc e = TK_CTF_EVENT_CLASS_DESC_INIT;

		e.name = names[i];
		e.has_id = 1;
		e.id = want_ids[i];
		e.loglevel = (int) i * 4;
		e.emf_uri = i == 1 ? "http://example.org/emf" : NULL;
		e.context = ctxs[i];
		e.payload = payloads[i];
		CHECK(tk_ctf_writer_add_event_class_desc(w, sc, &e, &ids[i]));
	}
	for (i = 0; i < streams; i++) {
		struct tk_ctf_stream_desc sd = TK_CTF_STREAM_DESC_INIT;
		char name[32];

		snprintf(name, sizeof(name), "nested_%zu", i);
		sd.has_id = 1;
		sd.id = 10 + i;
		sd.name = name;
		CHECK(tk_ctf_writer_add_stream_desc(w, sc, &sd, &st[i]));
		set_pctx(w, st[i], r, i, hosts[i % 3]);
	}
	for (i = 0; i < events; i++) {
		size_t s = below(r, streams), c = below(r, 4);
		const struct tk_ctf_value *v[3];

		g.n = 0;
		g.used = 0;
		now += below(r, 40) == 0 ? (UINT64_C(1) << 33) : below(r, 5000);
		if (below(r, 25) == 0)
			set_pctx(w, st[s], r, s + 100 * below(r, 3), hosts[below(r, 3)]);
		if (lost && below(r, 40) == 0) {
			uint64_t n = 1 + below(r, 50);

			if (clocked)
				CHECK(tk_ctf_writer_add_discarded_range(w, st[s], n, now,
									now + below(r, 3000)));
			else
				CHECK(tk_ctf_writer_add_discarded(w, st[s], n));
			now += 3000;
		}
		v[0] = ngen_scope(&g, &n_sctx);
		v[1] = ctxs[c] ? ngen_scope(&g, ctxs[c]) : NULL;
		v[2] = payloads[c] ? ngen_scope(&g, payloads[c]) : NULL;
		CHECK(tk_ctf_writer_append_scopes(w, st[s], ids[c], now, v[0], v[1], v[2]));
	}
	CHECK(tk_ctf_writer_close(w));
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"seed", required_argument, NULL, 's'},
		{"events", required_argument, NULL, 'e'},
		{"streams", required_argument, NULL, 'n'},
		{"packet-size", required_argument, NULL, 'p'},
		{"byte-order", required_argument, NULL, 'b'},
		{"large", no_argument, NULL, 'L'},
		{"lost", no_argument, NULL, 'l'},
		{"no-index", no_argument, NULL, 'I'},
		{"frequency", required_argument, NULL, 'f'},
		{"big", no_argument, NULL, 'B'},
		{"nested", no_argument, NULL, 'N'},
		{"no-clock", no_argument, NULL, 'C'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const struct tk_ctf_field_decl common[] = {
		{.name = "common_type", .kind = TK_CTF_FIELD_KIND_INT, .bits = 16},
		{.name = "common_flags", .kind = TK_CTF_FIELD_KIND_INT, .bits = 8, .base = 16},
		{.name = "common_preempt_count", .kind = TK_CTF_FIELD_KIND_INT, .bits = 8},
		{.name = "common_pid", .kind = TK_CTF_FIELD_KIND_INT, .bits = 32, .is_signed = 1},
	};
	static uint8_t scratch[MAX_FIELDS][SCRATCH];
	static struct gclass cls[MAX_CLASSES];
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ctf_writer_stream *st[MAX_STREAMS];
	uint64_t st_sc[MAX_STREAMS], ts[MAX_STREAMS], now;
	uint64_t seed = 1, events = 2000, streams = 3, freq = 1000000000, clk[2], sc[2];
	int large = 0, lost = 0, big = 0, nested = 0, clocked = 1, c;
	size_t ncls = 0, i, j, n_sc0;
	struct tk_ctf_writer *w;
	struct rng r;
	char key[32];

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'e':
			events = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			streams = strtoull(optarg, NULL, 0);
			break;
		case 'p':
			o.packet_size = strtoull(optarg, NULL, 0);
			break;
		case 'b':
			o.byte_order = !strcmp(optarg, "le")   ? TK_CTF_BYTE_ORDER_LE
				       : !strcmp(optarg, "be") ? TK_CTF_BYTE_ORDER_BE
							       : TK_CTF_BYTE_ORDER_HOST;
			break;
		case 'L':
			large = 1;
			break;
		case 'l':
			lost = 1;
			break;
		case 'I':
			o.write_index = 0;
			break;
		case 'f':
			freq = strtoull(optarg, NULL, 0);
			break;
		case 'B':
			big = 1;
			break;
		case 'N':
			nested = 1;
			break;
		case 'C':
			clocked = 0;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1 || streams < 2 || streams > MAX_STREAMS || !freq) {
		usage(stderr);
		return 2;
	}
	r.s = seed;
	o.has_uuid = 1;
	for (i = 0; i < 16; i++)
		o.uuid[i] = (uint8_t) rng_next(&r);
	if (nested) {
		write_nested(&o, argv[optind], &r, events, streams, freq, lost, clocked);
		return 0;
	}
	CHECK(tk_ctf_writer_create(&w, argv[optind], &o));
	snprintf(key, sizeof(key), "tkhost%" PRIu64, seed);
	CHECK(tk_ctf_writer_set_env_string(w, "hostname", key));
	CHECK(tk_ctf_writer_set_env_string(w, "domain", "kernel"));
	CHECK(tk_ctf_writer_set_env_int(w, "tracer_major", 2));
	CHECK(tk_ctf_writer_set_env_int(w, "negative-value", -(int64_t) seed));
	CHECK(tk_ctf_writer_add_clock(w, "monotonic", freq,
				      1700000000 + (int64_t) below(&r, 100000000), below(&r, freq),
				      "Monotonic Clock", 1, &clk[0]));
	CHECK(tk_ctf_writer_add_clock(w, "x86-tsc", 1000000000, 1700000000, below(&r, 1000000000),
				      NULL, 1, &clk[1]));
	CHECK(tk_ctf_writer_add_stream_class(w, clk[0], &sc[0]));
	CHECK(tk_ctf_writer_set_event_context(w, sc[0], common, ARRAY_SIZE(common)));
	CHECK(tk_ctf_writer_add_stream_class(w, clk[1], &sc[1]));
	/* the first stream class: compact headers (< 31 classes) unless --large */
	n_sc0 = large ? 40 : 8 + below(&r, 10);
	for (i = 0; i < n_sc0 + 4; i++) {
		struct gclass *g = &cls[ncls++];

		g->sc = i < n_sc0 ? sc[0] : sc[1];
		g->n = below(&r, MAX_FIELDS);
		for (j = 0; j < g->n; j++) {
			random_field(&r, &g->d[j]);
			/* names repeat now and then: the writer makes them unique */
			snprintf(g->names[j], sizeof(g->names[j]), "%s",
				 field_names[below(&r, ARRAY_SIZE(field_names))]);
			g->d[j].name = g->names[j];
		}
		snprintf(g->name, sizeof(g->name), "%s%zu",
			 event_names[below(&r, ARRAY_SIZE(event_names))], i);
		CHECK(tk_ctf_writer_add_event_class(w, g->sc, g->name,
						    below(&r, 3) ? -1 : (int) below(&r, 15), g->d,
						    g->n, &g->id));
	}
	for (i = 0; i < streams; i++) {
		st_sc[i] = i + 1 < streams ? sc[0] : sc[1];
		CHECK(tk_ctf_writer_add_stream(w, st_sc[i], (uint32_t) i, &st[i]));
		ts[i] = 0;
	}
	now = 1000000 + below(&r, 1000000);
	for (i = 0; i < events; i++) {
		struct tk_ctf_value ctx[ARRAY_SIZE(common)], pl[MAX_FIELDS];
		size_t s = below(&r, streams);
		const struct gclass *g;

		/* a shared schedule: mostly small steps, sometimes a pause or the same time */
		switch (below(&r, 40)) {
		case 0:
			now += (UINT64_C(1) << 27) + below(&r, UINT64_C(1) << 34);
			break;
		case 1:
		case 2:
			break;
		default:
			now += below(&r, 20000);
			break;
		}
		if (now > ts[s])
			ts[s] = now;
		do
			g = &cls[below(&r, ncls)];
		while (g->sc != st_sc[s]);
		random_values(&r, common, ARRAY_SIZE(common), ctx, scratch, 0);
		ctx[0].v.u = g->id;
		random_values(&r, g->d, g->n, pl, scratch, big);
		if (lost && below(&r, 30) == 0)
			CHECK(tk_ctf_writer_add_discarded(w, st[s], 1 + below(&r, 100)));
		CHECK(tk_ctf_writer_append(w, st[s], g->id, ts[s], st_sc[s] == sc[0] ? ctx : NULL,
					   g->n ? pl : NULL));
	}
	if (lost)
		CHECK(tk_ctf_writer_add_discarded(w, st[0], 7));
	CHECK(tk_ctf_writer_close(w));
	return 0;
}
