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
 * Usage: gen-ctfw [--seed N] [--events N] [--streams N] [--packet-size BYTES]
 *                 [--byte-order le|be|host] [--large] [--lost] [--no-index]
 *                 [--frequency HZ] [--big] DIR
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
		     "                [--frequency HZ] [--big] DIR\n");
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
	int large = 0, lost = 0, big = 0, c;
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
