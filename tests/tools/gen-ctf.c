// SPDX-License-Identifier: MIT
/*
 * gen-ctf: a deterministic writer of CTF 1.8 trace directories.
 *
 * Tests, benchmarks and the README demo need CTF traces of any size, in both byte orders and
 * in the layouts met in the field, without keeping binary traces in the repository or
 * depending on a tracer being installed. This tool writes them from a seed: the same options
 * always give the same bytes. Three layouts exist:
 *
 *   lttng     an LTTng-UST 2.13 64-bit trace (reference/ctf.md section 7): large event
 *             header, vtid/vpid stream context, per-PID environment, clock "monotonic".
 *             Little-endian traces use byte-aligned integers like x86; big-endian ones use
 *             natural alignment like ppc64 or s390x, so padding gets exercised too.
 *   compact   an LTTng kernel-style trace: 5-bit id and 27-bit timestamp bit fields.
 *   bitfield  fields of 1 to 64 bits at odd bit offsets, signed and unsigned, in both byte
 *             orders, packed back to back, on a 2.4 GHz clock: work for a bit reader.
 *
 * Every value comes from a per-stream generator seeded by --seed, so streams can be written
 * one after the other, each into one growing packet buffer that is flushed whole. Event
 * timestamps grow per stream; streams share one schedule of long pauses so that they stay
 * interleaved in time, and those pauses force the extended event headers.
 *
 * The bit layout itself is the tree's own writer (src/common/bits.h, bytes.h), included here
 * because this tool links nothing: traces written by it are checked against babeltrace2 by
 * tests/interop/gen-ctf.sh, so a writer bug cannot hide behind a matching reader bug.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../../src/common/bits.h"

#define CTF_MAGIC	 UINT32_C(0xC1FC1FC1)
#define META_MAGIC	 UINT32_C(0x75D11D57)
#define META_HEADER_SIZE 37
#define META_PACKET_SIZE 4096
#define INDEX_MAGIC	 UINT32_C(0xC1F1DCC1)
#define INDEX_ENTRY_SIZE 72
#define MIN_PACKET_SIZE	 128
#define MAX_STREAMS	 4096
#define STR_MAX		 (12 * 1024)
#define SEQ_MAX		 16
#define LONG_EVENT_MIN	 3000
#define LONG_EVENT_SPAN	 6000
#define VPID		 4242
#define IOBUF_SIZE	 (1 << 20)

enum layout_kind {
	LAYOUT_LTTNG,
	LAYOUT_COMPACT,
	LAYOUT_BITFIELD,
};

/* Everything the options decide, plus the trace-wide values drawn from the seed. */
struct gen {
	uint64_t events;
	unsigned int streams;
	uint64_t packet_size; /* bytes */
	enum tk_byte_order order;
	enum tk_byte_order opp; /* the other byte order, for explicit per-field overrides */
	uint64_t seed;
	enum layout_kind kind;
	bool index;
	bool packetized;
	bool lost;
	bool count_empty;
	bool procname; /* lttng layout: a procname string in the stream event context */
	const char *outdir;

	unsigned int a16, a32, a64; /* alignment of 16/32/64-bit integers in lttng/compact */
	uint8_t uuid[16];
	char uuid_str[40];
	uint64_t start;	     /* first clock value of the trace */
	uint64_t clk_off;    /* clock offset, cycles */
	int64_t clk_off_s;   /* clock offset, seconds */
	uint64_t jump_every; /* events per stream between two long pauses */
	uint64_t gap_mul;    /* cycles per ns, times 5: 5 at 1 GHz, 12 at 2.4 GHz */
};

/* A small, fast, seedable generator (splitmix-style mixing of a Weyl sequence). */
struct rng {
	uint64_t s;
};

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t rng_next(struct rng *r)
{
	r->s += UINT64_C(0x9e3779b97f4a7c15);
	return mix64(r->s);
}

static uint64_t rng_below(struct rng *r, uint64_t n)
{
	return n ? rng_next(r) % n : 0;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PICK(r, a)    ((a)[rng_below((r), ARRAY_SIZE(a))])

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("gen-ctf: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p)
		die("Cannot allocate memory: size=%zu", size);
	return p;
}

/* ---- Growing text, for the metadata ---------------------------------------------------- */

struct text {
	char *p;
	size_t len, cap;
};

static void text_add(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->p = xrealloc(t->p, t->cap);
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
}

static void text_puts(struct text *t, const char *s)
{
	text_add(t, s, strlen(s));
}

static void text_printf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("Cannot format metadata: format=%.20s", fmt);
	if (t->len + (size_t) n + 1 > t->cap) {
		t->cap = (t->len + (size_t) n + 1) * 2;
		t->p = xrealloc(t->p, t->cap);
	}
	va_start(ap, fmt);
	vsnprintf(t->p + t->len, (size_t) n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t) n;
}

/*
 * Append TSDL with placeholders, so one text serves both alignments and byte orders: @16,
 * @32 and @64 become the alignment of integers of that size, @O the byte order opposite to
 * the trace's (for explicit overrides), @N the trace's own.
 */
static void text_tsdl(struct text *t, const struct gen *g, const char *s)
{
	while (*s) {
		const char *at = strchr(s, '@');

		if (!at) {
			text_add(t, s, strlen(s));
			return;
		}
		text_add(t, s, (size_t) (at - s));
		s = at + 1;
		if (!strncmp(s, "16", 2) || !strncmp(s, "32", 2) || !strncmp(s, "64", 2)) {
			unsigned int a = s[0] == '1' ? g->a16 : s[0] == '3' ? g->a32 : g->a64;

			text_printf(t, "%u", a);
			s += 2;
		} else if (*s == 'O' || *s == 'N') {
			bool be = (*s == 'O') == (g->order == TK_BYTE_ORDER_LE);

			text_add(t, be ? "be" : "le", 2);
			s++;
		} else {
			die("Cannot expand metadata placeholder: text=%.10s", s);
		}
	}
}

/* ---- Packet buffer: the bit-level writer ------------------------------------------------ */

/*
 * One packet under construction. Bits at and after @pos are always zero, which the bit
 * writer needs (it only sets the bits of its field) and which makes padding free.
 */
struct pw {
	uint8_t *buf;
	size_t cap;   /* bytes */
	uint64_t pos; /* bits from the packet start */
};

static void pw_reserve(struct pw *w, uint64_t bits)
{
	size_t need = (size_t) ((w->pos + bits + 7) >> 3) + 16;
	size_t old = w->cap;

	if (need <= old)
		return;
	w->cap = need > 2 * old ? need : 2 * old;
	w->buf = xrealloc(w->buf, w->cap);
	memset(w->buf + old, 0, w->cap - old);
}

static void pw_align(struct pw *w, unsigned int align)
{
	w->pos = (w->pos + align - 1) & ~(uint64_t) (align - 1);
}

/* Write the low @size bits of @v, aligned to @align bits, in byte order @order. */
static void put_int(struct pw *w, uint64_t v, unsigned int size, unsigned int align,
		    enum tk_byte_order order)
{
	uint8_t *p;

	pw_align(w, align);
	pw_reserve(w, size);
	p = w->buf + (w->pos >> 3);
	if (w->pos & 7)
		tk_bits_write(w->buf, w->pos, size, v, order);
	else if (size == 8)
		*p = (uint8_t) v;
	else if (size == 16)
		tk_store_u16(p, (uint16_t) v, order);
	else if (size == 32)
		tk_store_u32(p, (uint32_t) v, order);
	else if (size == 64)
		tk_store_u64(p, v, order);
	else
		tk_bits_write(w->buf, w->pos, size, v, order);
	w->pos += size;
}

static void put_bytes(struct pw *w, const void *s, size_t n)
{
	pw_align(w, 8);
	pw_reserve(w, (uint64_t) n * 8);
	memcpy(w->buf + (w->pos >> 3), s, n);
	w->pos += (uint64_t) n * 8;
}

/*
 * Text fields written empty (strings, text sequences and arrays whose first byte is NUL),
 * reported by --count-empty: babeltrace2 2.0 prints stale text for some of them, so the
 * interop test checks tracekit's empty values against this count instead.
 */
static uint64_t empty_texts;

/* A NUL-terminated string: the NUL is already there, as bits past @pos are zero. */
static void put_string(struct pw *w, const char *s, size_t n)
{
	empty_texts += n == 0;
	put_bytes(w, s, n);
	pw_reserve(w, 8);
	w->pos += 8;
}

static void put_double(struct pw *w, double d, unsigned int align, enum tk_byte_order order)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	put_int(w, v, 64, align, order);
}

static void put_float(struct pw *w, float f, unsigned int align, enum tk_byte_order order)
{
	uint32_t v;

	memcpy(&v, &f, sizeof(v));
	put_int(w, v, 32, align, order);
}

/* A text array of @size bytes holding @n bytes of @s, NUL-padded (no NUL when @n == @size). */
static void put_text_array(struct pw *w, const char *s, size_t n, size_t size)
{
	empty_texts += n == 0;
	put_bytes(w, s, n);
	pw_reserve(w, (uint64_t) (size - n) * 8);
	w->pos += (uint64_t) (size - n) * 8;
}

/* ---- Streams and events ----------------------------------------------------------------- */

/*
 * An event as drawn before encoding: its class and time. Its field values are drawn while it
 * is encoded, from the stream's generator; packet_add() rewinds the generator when it has to
 * encode the event again in a new packet, so the values come out the same.
 */
struct event {
	unsigned int cls;
	uint64_t ts;
	bool long_str; /* carry a string longer than a 4 KiB packet */
};

struct stream {
	const struct gen *g;
	unsigned int cpu;
	struct rng rng;	 /* event classes, times and values */
	struct rng prng; /* packet-level choices (losses), so they do not shift the events */
	FILE *f;
	struct pw w;
	uint64_t clk;	    /* clock value a reader has reconstructed so far */
	uint64_t ts;	    /* time of the last event written */
	uint64_t begin;	    /* timestamp_begin of the open packet */
	uint64_t nev;	    /* events in the open packet */
	uint64_t pkt_bytes; /* size of the open packet */
	uint64_t offset;    /* file offset of the open packet */
	uint64_t seq;	    /* packet_seq_num of the open packet */
	uint64_t discarded; /* free-running count of discarded events */
	uint64_t jumps;	    /* long pauses taken so far */
	struct text idx;    /* index entries, big-endian */
	char str[STR_MAX];  /* string being written */
};

/* An event class: metadata text and how often it is drawn. */
struct evclass {
	uint32_t id;
	const char *name;
	int loglevel; /* -1: none */
	unsigned int weight;
	unsigned int align;  /* of the payload struct (its largest member), natural alignment */
	const char *emf;     /* model.emf.uri, or NULL */
	const char *context; /* TSDL body of the event context, or NULL */
	const char *fields;  /* TSDL body of the payload, with text_tsdl() placeholders */
};

struct layout {
	const char *name;
	const struct evclass *classes;
	unsigned int nclasses;
	unsigned int string_class; /* the class that carries long strings */
	void (*metadata)(struct text *t, const struct gen *g);
	void (*packet)(struct stream *s, uint64_t content_bits);
	void (*event)(struct stream *s, const struct event *e);
	uint64_t max_jump; /* longest pause the event header can carry */
};

/*
 * Where a payload starts: a struct is aligned as its most aligned member (CTF 1.8.3 section
 * 4.2.1), which can be more than its first member needs. Byte-aligned layouts cap it at 8.
 */
static void put_payload_start(struct pw *w, const struct gen *g, const struct evclass *c)
{
	unsigned int a = c->align;

	if (g->kind != LAYOUT_BITFIELD && g->a64 == 8 && a > 8)
		a = 8;
	pw_align(w, a);
}

/* Alignment of a @size-bit integer in the lttng and compact layouts. */
static unsigned int int_align(const struct gen *g, unsigned int size)
{
	return size == 16 ? g->a16 : size == 32 ? g->a32 : size == 64 ? g->a64 : 8;
}

/* Length of a string meant to outgrow a 4 KiB packet. */
static size_t long_len(struct rng *r)
{
	return LONG_EVENT_MIN + (size_t) rng_below(r, LONG_EVENT_SPAN);
}

/*
 * A random integer of @size bits, as its two's complement bit pattern. Extremes (0, -1, the
 * minimum and maximum) come up often, and magnitudes are spread over every width, so that
 * printing is exercised on short and long numbers alike.
 */
static uint64_t rand_int(struct rng *r, unsigned int size, bool is_signed)
{
	uint64_t mask = size >= 64 ? UINT64_MAX : (UINT64_C(1) << size) - 1;
	uint64_t v;

	switch (rng_below(r, 24)) {
	case 0:
		return 0;
	case 1:
		return is_signed ? mask >> 1 : mask;
	case 2:
		return is_signed ? (mask >> 1) + 1 : 1;
	case 3:
		return mask; /* -1 when signed */
	default:
		break;
	}
	v = rng_next(r);
	v >>= 64 - (1 + rng_below(r, size));
	if (is_signed && (rng_next(r) & 1))
		v = 0 - v;
	return v & mask;
}

static double bits_double(uint64_t v)
{
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

/* Mostly everyday values, sometimes huge, tiny, subnormal, signed zeros, infinities, NaN. */
static double rand_double(struct rng *r)
{
	uint64_t sign = (rng_next(r) & 1) << 63;

	switch (rng_below(r, 48)) {
	case 0:
		return bits_double(sign);
	case 1:
		return bits_double(sign | UINT64_C(0x7ff0000000000000));
	case 2:
		return bits_double(UINT64_C(0x7ff8000000000000));
	case 3:
		return bits_double(sign | (rng_next(r) >> 12)); /* subnormal */
	case 4:
	case 5:
	case 6:
	case 7: {
		uint64_t e = 1023 - 300 + rng_below(r, 600);

		return bits_double(sign | e << 52 | rng_next(r) >> 12);
	}
	default:
		return (double) ((int64_t) rng_below(r, 2000001) - 1000000) /
		       (double) (1 + rng_below(r, 10000));
	}
}

static const char *const words[] = {
	"request", "served",   "cache",	  "miss",    "hit",   "worker", "idle", "tick",
	"flush",   "open",     "close",	  "read",    "write", "retry",	"ok",	"queue",
	"full",	   "timeout",  "connect", "session", "user",  "frame",	"drop", "sync",
	"commit",  "rollback", "page",	  "fault",   "lock",  "wait",
};

static const char *const oddities[] = {
	"\n", "\t", "\"", "\\", "'", "?", "\x01", "\x7f", "\r", "\xc3\xa9", "\xe2\x82\xac",
};

/* A log-like message of about @target bytes: words, numbers and a few characters to escape. */
static size_t rand_message(struct rng *r, char *out, size_t target)
{
	size_t n = 0;

	while (n < target) {
		const char *w;
		char num[24];
		size_t len;

		switch (rng_below(r, 16)) {
		case 0:
			w = PICK(r, oddities);
			break;
		case 1:
		case 2:
		case 3:
			snprintf(num, sizeof(num), "%" PRIu64, rng_below(r, 100000));
			w = num;
			break;
		default:
			w = PICK(r, words);
			break;
		}
		len = strlen(w);
		if (n + len + 1 >= STR_MAX - 1)
			break;
		if (n)
			out[n++] = ' ';
		memcpy(out + n, w, len);
		n += len;
	}
	out[n] = '\0';
	return n;
}

/* Printable characters (and a rare oddity), no NUL, for text arrays and sequences. */
static size_t rand_chars(struct rng *r, char *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t x = rng_next(r);

		out[i] = (x & 0x3f00) ? (char) (' ' + (x & 0xff) % 95) : (char) ('\t' + (x & 1));
	}
	return n;
}

static uint64_t gap_ns(struct rng *r)
{
	switch (rng_below(r, 20)) {
	case 0:
		return rng_below(r, 3); /* ties happen with coarse clocks */
	case 1:
		return 5000 + rng_below(r, 200000);
	case 2:
	case 3:
	case 4:
	case 5:
		return 500 + rng_below(r, 5000);
	default:
		return 1 + rng_below(r, 800);
	}
}

/* ---- Layout lttng: LTTng-UST 2.13, 64-bit --------------------------------------------------- */

static const struct evclass lttng_classes[] = {
	{0, "tk_demo:ints", 13, 25, 64, NULL, NULL,
	 "\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 10; } _u8;\n"
	 "\t\tinteger { size = 8; align = 8; signed = 1; encoding = none; base = 10; } _s8;\n"
	 "\t\tinteger { size = 16; align = @16; signed = 0; encoding = none; base = 10; } _u16;\n"
	 "\t\tinteger { size = 16; align = @16; signed = 1; encoding = none; base = 10; } _s16;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 0; encoding = none; base = 10; } _u32;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } _s32;\n"
	 "\t\tinteger { size = 64; align = @64; signed = 0; encoding = none; base = 10; } _u64;\n"
	 "\t\tinteger { size = 64; align = @64; signed = 1; encoding = none; base = 10; } _s64;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 0; encoding = none; base = 16; } _hex;\n"
	 "\t\tinteger { size = 64; align = @64; signed = 1; encoding = none; base = 16; } _shex;\n"
	 "\t\tinteger { size = 16; align = @16; signed = 0; encoding = none; base = 10; "
	 "byte_order = network; } _port;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 0; encoding = none; base = 16; "
	 "byte_order = be; } _addr;\n"},
	{1, "tk_demo:message", 6, 20, 32, NULL, NULL,
	 "\t\tstring _msg;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } "
	 "_code;\n"},
	{2, "tk_demo:measure", 14, 10, 64, "https://example.com/tk_demo/measure", NULL,
	 "\t\tfloating_point { exp_dig = 8; mant_dig = 24; align = @32; } _f;\n"
	 "\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = @64; } _d;\n"},
	{3, "tk_demo:state", 4, 15, 32, NULL, NULL,
	 "\t\tenum : integer { size = 32; align = @32; signed = 1; encoding = none; base = 10; }"
	 " {\n"
	 "\t\t\t\"OK\" = 0, \"RETRY\" = 1 ... 3, \"TIMEOUT\" = 4, \"NEGATIVE\" = -100 ... -1,\n"
	 "\t\t\t\"RANGE_A\" = 10 ... 20, \"RANGE_B\" = 15 ... 25, \"state big\" = 1000000,\n"
	 "\t\t} _state;\n"
	 "\t\tenum : integer { size = 8; align = 8; signed = 0; encoding = none; base = 10; } {\n"
	 "\t\t\tIDLE, RUNNING, SLEEPING = 5, DEAD = 200 ... 255,\n"
	 "\t\t} _phase;\n"},
	{4, "tk_demo:arrays", 13, 15, 64, NULL, NULL,
	 "\t\tinteger { size = 32; align = @32; signed = 0; encoding = none; base = 10; } "
	 "__vals_length;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } "
	 "_vals[ __vals_length ];\n"
	 "\t\tinteger { size = 64; align = @64; signed = 0; encoding = none; base = 10; } "
	 "__text_length;\n"
	 "\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } "
	 "_text[ __text_length ];\n"
	 "\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _tag[8];\n"
	 "\t\tinteger { size = 16; align = @16; signed = 0; encoding = none; base = 16; } "
	 "_fixed[3];\n"},
	{5, "tk_demo:tick", 13, 13, 1, NULL, NULL, ""},
	{70000, "tk_demo:late", 2, 2, 64, NULL, NULL,
	 "\t\tinteger { size = 64; align = @64; signed = 0; encoding = none; base = 10; } _n;\n"},
};

static void lttng_integer_aliases(struct text *t, const struct gen *g)
{
	text_tsdl(
		t, g,
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 16; align = @16; signed = false; } := uint16_t;\n"
		"typealias integer { size = 32; align = @32; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = @64; signed = false; } := uint64_t;\n"
		"typealias integer { size = 64; align = @64; signed = false; } := unsigned long;\n"
		"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
		"typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n\n");
	text_printf(t,
		    "trace {\n"
		    "\tmajor = 1;\n"
		    "\tminor = 8;\n"
		    "\tuuid = \"%s\";\n"
		    "\tbyte_order = %s;\n",
		    g->uuid_str, g->order == TK_BYTE_ORDER_LE ? "le" : "be");
	text_tsdl(t, g,
		  "\tpacket.header := struct {\n"
		  "\t\tuint32_t magic;\n"
		  "\t\tuint8_t  uuid[16];\n"
		  "\t\tuint32_t stream_id;\n"
		  "\t\tuint64_t stream_instance_id;\n"
		  "\t};\n"
		  "};\n\n");
}

/* The date a trace claims to be created, from the clock offset: YYYYmmddTHHMMSS+0000. */
static void creation_date(const struct gen *g, char *out, size_t size)
{
	time_t t = (time_t) (g->clk_off / 1000000000 + g->start / 1000000000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, size, "%Y%m%dT%H%M%S+0000", &tm);
}

static void lttng_clock(struct text *t, const struct gen *g)
{
	char clock_uuid[40];
	uint64_t h = mix64(g->seed ^ UINT64_C(0xc10c));

	snprintf(clock_uuid, sizeof(clock_uuid),
		 "%08" PRIx64 "-%04" PRIx64 "-4%03" PRIx64 "-a%03" PRIx64 "-%012" PRIx64, h >> 32,
		 (h >> 16) & 0xffff, h & 0xfff, (h >> 52) & 0xfff, mix64(h) >> 16);
	text_printf(t,
		    "clock {\n"
		    "\tname = \"monotonic\";\n"
		    "\tuuid = \"%s\";\n"
		    "\tdescription = \"Monotonic Clock\";\n"
		    "\tfreq = 1000000000; /* cycles per second */\n"
		    "\t/* seconds since the Epoch at value 0 = offset / freq */\n"
		    "\toffset = %" PRIu64 ";\n"
		    "};\n\n",
		    clock_uuid, g->clk_off);
	text_tsdl(t, g,
		  "typealias integer {\n"
		  "\tsize = 27; align = 1; signed = false;\n"
		  "\tmap = clock.monotonic.value;\n"
		  "} := uint27_clock_monotonic_t;\n\n"
		  "typealias integer {\n"
		  "\tsize = 32; align = @32; signed = false;\n"
		  "\tmap = clock.monotonic.value;\n"
		  "} := uint32_clock_monotonic_t;\n\n"
		  "typealias integer {\n"
		  "\tsize = 64; align = @64; signed = false;\n"
		  "\tmap = clock.monotonic.value;\n"
		  "} := uint64_clock_monotonic_t;\n\n"
		  "struct packet_context {\n"
		  "\tuint64_clock_monotonic_t timestamp_begin;\n"
		  "\tuint64_clock_monotonic_t timestamp_end;\n"
		  "\tuint64_t content_size;\n"
		  "\tuint64_t packet_size;\n"
		  "\tuint64_t packet_seq_num;\n"
		  "\tunsigned long events_discarded;\n"
		  "\tuint32_t cpu_id;\n"
		  "};\n\n"
		  "struct event_header_compact {\n"
		  "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
		  "\tvariant <id> {\n"
		  "\t\tstruct {\n"
		  "\t\t\tuint27_clock_monotonic_t timestamp;\n"
		  "\t\t} compact;\n"
		  "\t\tstruct {\n"
		  "\t\t\tuint32_t id;\n"
		  "\t\t\tuint64_clock_monotonic_t timestamp;\n"
		  "\t\t} extended;\n"
		  "\t} v;\n"
		  "} align(8);\n\n"
		  "struct event_header_large {\n"
		  "\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
		  "\tvariant <id> {\n"
		  "\t\tstruct {\n"
		  "\t\t\tuint32_clock_monotonic_t timestamp;\n"
		  "\t\t} compact;\n"
		  "\t\tstruct {\n"
		  "\t\t\tuint32_t id;\n"
		  "\t\t\tuint64_clock_monotonic_t timestamp;\n"
		  "\t\t} extended;\n"
		  "\t} v;\n"
		  "} align(8);\n\n");
}

static void lttng_metadata(struct text *t, const struct gen *g)
{
	char date[64];

	creation_date(g, date, sizeof(date));
	lttng_integer_aliases(t, g);
	text_printf(t,
		    "env {\n"
		    "\thostname = \"tkhost\";\n"
		    "\tdomain = \"ust\";\n"
		    "\ttracer_name = \"lttng-ust\";\n"
		    "\ttracer_major = 2;\n"
		    "\ttracer_minor = 13;\n"
		    "\ttracer_buffering_scheme = \"pid\";\n"
		    "\tarchitecture_bit_width = 64;\n"
		    "\ttrace_name = \"tk-session\";\n"
		    "\ttrace_creation_datetime = \"%s\";\n"
		    "\tprocname = \"tk-demo\";\n"
		    "\tvpid = %d;\n"
		    "\tvpid_datetime = \"%s\";\n"
		    "};\n\n",
		    date, VPID, date);
	lttng_clock(t, g);
	text_tsdl(t, g,
		  "stream {\n"
		  "\tid = 0;\n"
		  "\tevent.header := struct event_header_large;\n"
		  "\tpacket.context := struct packet_context;\n"
		  "\tevent.context := struct {\n"
		  "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } "
		  "_vtid;\n"
		  "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } "
		  "_vpid;\n");
	if (g->procname)
		text_tsdl(t, g, "\t\tstring _procname;\n");
	text_tsdl(t, g, "\t};\n};\n\n");
}

/* Packet header and context of the lttng and compact layouts (section 7). */
static void lttng_packet(struct stream *s, uint64_t content_bits)
{
	const struct gen *g = s->g;
	struct pw *w = &s->w;
	enum tk_byte_order o = g->order;

	put_int(w, CTF_MAGIC, 32, g->a32, o);
	put_bytes(w, g->uuid, sizeof(g->uuid));
	put_int(w, 0, 32, g->a32, o);
	put_int(w, s->cpu, 64, g->a64, o);
	put_int(w, s->begin, 64, g->a64, o);
	put_int(w, s->nev ? s->ts : s->begin, 64, g->a64, o);
	put_int(w, content_bits, 64, g->a64, o);
	put_int(w, s->pkt_bytes * 8, 64, g->a64, o);
	put_int(w, s->seq, 64, g->a64, o);
	put_int(w, s->discarded, 64, g->a64, o);
	put_int(w, s->cpu, 32, g->a32, o);
}

static void lttng_event(struct stream *s, const struct event *e)
{
	static const int64_t states[] = {0,  1,	 2,  3,	 4,	  -1, -100, -50, 10,
					 15, 18, 20, 25, 1000000, 7,  -101, 26,	 999};
	const struct gen *g = s->g;
	struct pw *w = &s->w;
	struct rng *r = &s->rng;
	enum tk_byte_order o = g->order;
	uint32_t id = lttng_classes[e->cls].id;
	size_t i, n;
	int vtid;

	if (id >= 65535 || (e->ts - s->clk) >> 32) {
		put_int(w, 65535, 16, g->a16, o);
		pw_align(w, g->a64); /* struct extended: aligned as its u64 */
		put_int(w, id, 32, g->a32, o);
		put_int(w, e->ts, 64, g->a64, o);
	} else {
		put_int(w, id, 16, g->a16, o);
		put_int(w, e->ts, 32, g->a32, o);
	}
	s->clk = e->ts;
	vtid = VPID + 1 + (int) rng_below(r, 4);
	put_int(w, (uint64_t) vtid, 32, g->a32, o); /* _vtid */
	put_int(w, VPID, 32, g->a32, o);
	if (g->procname) { /* a name per thread, as LTTng's procname context gives it */
		char name[16];

		snprintf(name, sizeof(name), "tk-thread-%d", vtid - VPID);
		put_string(w, name, strlen(name));
	}
	put_payload_start(w, g, &lttng_classes[e->cls]);
	switch (id) {
	case 0:
		for (i = 0; i < 4; i++) { /* _u8 _s8 _u16 _s16 _u32 _s32 _u64 _s64 */
			unsigned int size = 8u << i;

			put_int(w, rand_int(r, size, false), size, int_align(g, size), o);
			put_int(w, rand_int(r, size, true), size, int_align(g, size), o);
		}
		put_int(w, rand_int(r, 32, false), 32, g->a32, o);
		put_int(w, rand_int(r, 64, true), 64, g->a64, o);
		put_int(w, rand_int(r, 16, false), 16, g->a16, TK_BYTE_ORDER_BE);
		put_int(w, rand_int(r, 32, false), 32, g->a32, TK_BYTE_ORDER_BE);
		break;
	case 1:
		n = rand_message(r, s->str, e->long_str ? long_len(r) : rng_below(r, 48));
		put_string(w, s->str, n);
		put_int(w, rand_int(r, 32, true), 32, g->a32, o);
		break;
	case 2:
		put_float(w, (float) rand_double(r), g->a32, o);
		put_double(w, rand_double(r), g->a64, o);
		break;
	case 3:
		put_int(w, (uint64_t) PICK(r, states), 32, g->a32, o);
		put_int(w, rng_below(r, 4) ? rng_below(r, 3) : rng_below(r, 256), 8, 8, o);
		break;
	case 4:
		n = rng_below(r, 9);
		put_int(w, n, 32, g->a32, o);
		for (i = 0; i < n; i++)
			put_int(w, rand_int(r, 32, true), 32, g->a32, o);
		n = rand_chars(r, s->str, rng_below(r, 21));
		put_int(w, n, 64, g->a64, o);
		put_bytes(w, s->str, n);
		empty_texts += n == 0;
		put_text_array(w, s->str, rand_chars(r, s->str, rng_below(r, 9)), 8);
		for (i = 0; i < 3; i++)
			put_int(w, rand_int(r, 16, false), 16, g->a16, o);
		break;
	case 70000:
		put_int(w, rand_int(r, 64, false), 64, g->a64, o);
		break;
	default:
		break;
	}
}

/* ---- Layout compact: LTTng kernel style ------------------------------------------------- */

static const struct evclass compact_classes[] = {
	{0, "sched_switch", -1, 30, 64, NULL, NULL,
	 "\t\tinteger { size = 8; align = 8; signed = 0; encoding = UTF8; base = 10; } "
	 "_prev_comm[16];\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } "
	 "_prev_tid;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } "
	 "_prev_prio;\n"
	 "\t\tenum : integer { size = 64; align = @64; signed = 1; encoding = none; base = 10; }"
	 " {\n"
	 "\t\t\t\"TASK_RUNNING\" = 0, \"TASK_INTERRUPTIBLE\" = 1, \"TASK_UNINTERRUPTIBLE\" = 2,\n"
	 "\t\t\t\"TASK_STOPPED\" = 4, \"TASK_TRACED\" = 8, \"EXIT_DEAD\" = 16,\n"
	 "\t\t\t\"EXIT_ZOMBIE\" = 32,"
	 " \"TASK_PARKED\" = 64, \"TASK_DEAD\" = 128, \"TASK_WAKEKILL\" = 256,\n"
	 "\t\t\t\"TASK_WAKING\" = 512, \"TASK_NOLOAD\" = 1024, \"TASK_NEW\" = 2048,\n"
	 "\t\t\t\"TASK_STATE_MAX\" = 4096,\n"
	 "\t\t} _prev_state;\n"
	 "\t\tinteger { size = 8; align = 8; signed = 0; encoding = UTF8; base = 10; } "
	 "_next_comm[16];\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } "
	 "_next_tid;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } "
	 "_next_prio;\n"},
	{1, "sched_waking", -1, 15, 32, NULL, NULL,
	 "\t\tinteger { size = 8; align = 8; signed = 0; encoding = UTF8; base = 10; } _comm[16];\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } _tid;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } _prio;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } "
	 "_target_cpu;\n"},
	{2, "irq_handler_entry", -1, 10, 32, NULL, NULL,
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } _irq;\n"
	 "\t\tstring _name;\n"},
	{3, "irq_handler_exit", -1, 10, 32, NULL, NULL,
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } _irq;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } _ret;\n"},
	{17, "syscall_entry_openat", -1, 12, 32, NULL, NULL,
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 10; } _dfd;\n"
	 "\t\tstring _filename;\n"
	 "\t\tinteger { size = 32; align = @32; signed = 1; encoding = none; base = 16; } _flags;\n"
	 "\t\tinteger { size = 16; align = @16; signed = 0; encoding = none; base = 8; } _mode;\n"},
	{30, "syscall_exit_openat", -1, 12, 64, NULL, NULL,
	 "\t\tinteger { size = 64; align = @64; signed = 1; encoding = none; base = 10; } _ret;\n"},
	{31, "kmem_kfree", -1, 6, 64, NULL, NULL,
	 "\t\tinteger { size = 64; align = @64; signed = 0; encoding = none; base = 16; } "
	 "_call_site;\n"
	 "\t\tinteger { size = 64; align = @64; signed = 0; encoding = none; base = 16; } _ptr;\n"},
	{250, "timer_hrtimer_expire_entry", -1, 5, 64, NULL, NULL,
	 "\t\tinteger { size = 64; align = @64; signed = 0; encoding = none; base = 16; } "
	 "_hrtimer;\n"
	 "\t\tinteger { size = 64; align = @64; signed = 1; encoding = none; base = 10; } _now;\n"
	 "\t\tinteger { size = 64; align = @64; signed = 0; encoding = none; base = 16; } "
	 "_function;\n"},
};

static void compact_metadata(struct text *t, const struct gen *g)
{
	char date[64];

	creation_date(g, date, sizeof(date));
	lttng_integer_aliases(t, g);
	text_printf(t,
		    "env {\n"
		    "\thostname = \"tkhost\";\n"
		    "\tdomain = \"kernel\";\n"
		    "\tsysname = \"Linux\";\n"
		    "\tkernel_release = \"6.1.0-tk\";\n"
		    "\tkernel_version = \"#1 SMP PREEMPT_DYNAMIC\";\n"
		    "\ttracer_name = \"lttng-modules\";\n"
		    "\ttracer_major = 2;\n"
		    "\ttracer_minor = 13;\n"
		    "\ttracer_patchlevel = 9;\n"
		    "\ttrace_buffering_scheme = \"global\";\n"
		    "\ttrace_name = \"tk-kernel\";\n"
		    "\ttrace_creation_datetime = \"%s\";\n"
		    "};\n\n",
		    date);
	lttng_clock(t, g);
	text_puts(t, "stream {\n"
		     "\tid = 0;\n"
		     "\tevent.header := struct event_header_compact;\n"
		     "\tpacket.context := struct packet_context;\n"
		     "};\n\n");
}

/* Empty strings are there on purpose: real traces have them (a task without a name). */
static const char *const comms[] = {
	"swapper/0", "swapper/1",	"kworker/0:1", "kworker/u4:2", "rcu_preempt", "bash",
	"sshd",	     "systemd-journal", "tk-demo",     "migration/1",  "ksoftirqd/0", "Xorg",
	"",
};

static const char *const irq_names[] = {"timer", "virtio0-input.0", "ahci[0000:00:1f.2]",
					"eth0",	 "i8042",	    "acpi"};

static const char *const paths[] = {
	"/etc/ld.so.cache",
	"/lib/x86_64-linux-gnu/libc.so.6",
	"/proc/self/maps",
	"/usr/share/locale/locale.alias",
	"/dev/null",
	"/tmp/tk-\"quoted\" name",
	"",
};

static void put_comm(struct pw *w, struct rng *r)
{
	const char *c = PICK(r, comms);

	put_text_array(w, c, strlen(c), 16);
}

static void compact_event(struct stream *s, const struct event *e)
{
	static const int64_t states[] = {0,   1,   2,	 4,    8,    16, 32,  64,   128,
					 256, 512, 1024, 2048, 4096, 3,	 130, 8192, -1};
	const struct gen *g = s->g;
	struct pw *w = &s->w;
	struct rng *r = &s->rng;
	enum tk_byte_order o = g->order;
	uint32_t id = compact_classes[e->cls].id;
	const char *p;
	size_t i, n;

	pw_align(w, 8);
	if (id >= 31 || (e->ts - s->clk) >> 27) {
		put_int(w, 31, 5, 1, o);
		pw_align(w, g->a64); /* struct extended: aligned as its u64 */
		put_int(w, id, 32, g->a32, o);
		put_int(w, e->ts, 64, g->a64, o);
	} else {
		put_int(w, id, 5, 1, o);
		put_int(w, e->ts, 27, 1, o);
	}
	s->clk = e->ts;
	put_payload_start(w, g, &compact_classes[e->cls]);
	switch (id) {
	case 0:
		put_comm(w, r);
		put_int(w, rng_below(r, 40000), 32, g->a32, o);
		put_int(w, 100 + rng_below(r, 40), 32, g->a32, o);
		put_int(w, (uint64_t) PICK(r, states), 64, g->a64, o);
		put_comm(w, r);
		put_int(w, rng_below(r, 40000), 32, g->a32, o);
		put_int(w, rng_below(r, 8) ? 120 : UINT64_MAX - rng_below(r, 100), 32, g->a32, o);
		break;
	case 1:
		put_comm(w, r);
		put_int(w, rng_below(r, 40000), 32, g->a32, o);
		put_int(w, 120, 32, g->a32, o);
		put_int(w, rng_below(r, g->streams), 32, g->a32, o);
		break;
	case 2:
		put_int(w, rng_below(r, 64), 32, g->a32, o);
		p = PICK(r, irq_names);
		put_string(w, p, strlen(p));
		break;
	case 3:
		put_int(w, rng_below(r, 64), 32, g->a32, o);
		put_int(w, rng_below(r, 3), 32, g->a32, o);
		break;
	case 17:
		put_int(w, rng_below(r, 4) ? (uint64_t) -100 : rng_below(r, 20), 32, g->a32, o);
		if (e->long_str) {
			size_t want = long_len(r);

			for (n = 0, i = 0; n + 16 < want; i++)
				n += (size_t) snprintf(s->str + n, STR_MAX - n, "/very/deep/dir%zu",
						       i);
			put_string(w, s->str, n);
		} else {
			p = PICK(r, paths);
			put_string(w, p, strlen(p));
		}
		put_int(w, rand_int(r, 32, true), 32, g->a32, o);
		put_int(w, rng_below(r, 010000), 16, g->a16, o);
		break;
	case 30:
		put_int(w, rng_below(r, 6) ? rng_below(r, 1024) : UINT64_MAX - rng_below(r, 40), 64,
			g->a64, o);
		break;
	case 31:
		put_int(w, UINT64_C(0xffffffff81000000) + rng_below(r, 1 << 24), 64, g->a64, o);
		put_int(w, UINT64_C(0xffff888000000000) + (rng_next(r) & 0xffffffff0), 64, g->a64,
			o);
		break;
	case 250:
		put_int(w, UINT64_C(0xffff888000000000) + (rng_next(r) & 0xffffffff0), 64, g->a64,
			o);
		put_int(w, e->ts, 64, g->a64, o);
		put_int(w, UINT64_C(0xffffffff81000000) + rng_below(r, 1 << 24), 64, g->a64, o);
		break;
	default:
		break;
	}
}

/* ---- Layout bitfield: odd sizes at odd offsets, both byte orders ------------------------ */

/*
 * A reader may not change byte order inside a byte, so every group of fields in the other
 * byte order (@O) starts byte-aligned and fills whole bytes; everything else is packed.
 */
static const struct evclass bitfield_classes[] = {
	{0, "bits:native", 13, 20, 1, NULL, NULL,
	 "\t\tinteger { size = 3; align = 1; signed = false; } _u3;\n"
	 "\t\tinteger { size = 5; align = 1; signed = true; } _s5;\n"
	 "\t\tinteger { size = 13; align = 1; signed = false; base = 16; } _x13;\n"
	 "\t\tinteger { size = 27; align = 1; signed = true; } _s27;\n"
	 "\t\tinteger { size = 33; align = 1; signed = false; byte_order = native; } _u33;\n"
	 "\t\tinteger { size = 63; align = 1; signed = true; byte_order = @N; } _s63;\n"
	 "\t\tinteger { size = 1; align = 1; signed = false; } _flag;\n"
	 "\t\tinteger { size = 33; align = 1; signed = true; base = 16; } _sx33;\n"
	 "\t\tinteger { size = 13; align = 1; signed = false; base = 8; } _o13;\n"
	 "\t\tinteger { size = 5; align = 1; signed = false; base = 2; } _b5;\n"
	 "\t\tinteger { size = 64; align = 1; signed = false; } _u64;\n"},
	{1, "bits:mixed", 13, 20, 8, NULL, NULL,
	 "\t\tinteger { size = 3; align = 1; signed = true; } _a;\n"
	 "\t\tinteger { size = 5; align = 1; signed = false; } _b;\n"
	 "\t\tinteger { size = 13; align = 8; signed = false; byte_order = @O; } _c;\n"
	 "\t\tinteger { size = 27; align = 1; signed = true; byte_order = @O; } _d;\n"
	 "\t\tinteger { size = 33; align = 1; signed = false; byte_order = @O; base = 16; } _e;\n"
	 "\t\tinteger { size = 63; align = 1; signed = true; byte_order = @O; } _f;\n"
	 "\t\tinteger { size = 3; align = 1; signed = false; } _g;\n"},
	{2, "bits:seq", 7, 12, 8, NULL, NULL,
	 "\t\tinteger { size = 5; align = 1; signed = false; } __v_length;\n"
	 "\t\tinteger { size = 13; align = 1; signed = true; } _v[__v_length];\n"
	 "\t\tstruct {\n"
	 "\t\t\tinteger { size = 27; align = 1; signed = false; byte_order = @O; } _w[8];\n"
	 "\t\t} align(8) _grp;\n"
	 "\t\tinteger { size = 7; align = 1; signed = false; } _after;\n"},
	{3, "bits:enum", 4, 12, 1, NULL, NULL,
	 "\t\tenum : integer { size = 5; align = 1; signed = true; } {\n"
	 "\t\t\tNEG = -16 ... -1, ZERO = 0, ONE, \"TWO OR THREE\" = 2 ... 3, HIGH = 10 ... 15,\n"
	 "\t\t} _level;\n"
	 "\t\tenum : integer { size = 3; align = 1; signed = false; } { A, B, C } _mode;\n"
	 "\t\tenum : integer { size = 13; align = 1; signed = false; } {\n"
	 "\t\t\tLOW = 0 ... 99, MID = 50 ... 149, TOP = 8000 ... 8191,\n"
	 "\t\t} _band;\n"},
	{4, "bits:string", 6, 12, 8, NULL,
	 "\t\tinteger { size = 13; align = 1; signed = false; base = 16; } _ectx;\n",
	 "\t\tinteger { size = 7; align = 1; signed = false; } _pre;\n"
	 "\t\tstring _s;\n"
	 "\t\tinteger { size = 3; align = 1; signed = true; } _post;\n"},
	{5, "bits:float", 14, 10, 64, NULL, NULL,
	 "\t\tinteger { size = 3; align = 1; signed = false; } _x;\n"
	 "\t\tfloating_point { exp_dig = 8; mant_dig = 24; align = 32; } _f;\n"
	 "\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 64; byte_order = @O; } _d;\n"
	 "\t\tinteger { size = 33; align = 1; signed = true; } _y;\n"},
	{6, "bits:variant", 13, 10, 1, NULL, NULL,
	 "\t\tenum : integer { size = 2; align = 1; signed = false; } { NUM, TEXT, PAIR } _sel;\n"
	 "\t\tvariant <_sel> {\n"
	 "\t\t\tinteger { size = 11; align = 1; signed = true; } NUM;\n"
	 "\t\t\tstring TEXT;\n"
	 "\t\t\tstruct {\n"
	 "\t\t\t\tinteger { size = 3; align = 1; signed = false; } a;\n"
	 "\t\t\t\tinteger { size = 63; align = 1; signed = true; } b;\n"
	 "\t\t\t} PAIR;\n"
	 "\t\t} _v;\n"
	 "\t\tinteger { size = 5; align = 1; signed = false; } _tail;\n"},
	{7, "bits:empty", 13, 4, 1, NULL, NULL, ""},
};

static void bitfield_metadata(struct text *t, const struct gen *g)
{
	text_printf(t,
		    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
		    "trace {\n"
		    "\tmajor = 1;\n"
		    "\tminor = 8;\n"
		    "\tuuid = \"%s\";\n"
		    "\tbyte_order = %s;\n"
		    "\tpacket.header := struct {\n"
		    "\t\tuint32_t magic;\n"
		    "\t\tuint8_t uuid[16];\n"
		    "\t\tuint32_t stream_id;\n"
		    "\t\tuint64_t stream_instance_id;\n"
		    "\t};\n"
		    "};\n\n"
		    "env {\n"
		    "\thostname = \"bitbox\";\n"
		    "\tdomain = \"bits\";\n"
		    "\ttracer_name = \"gen-ctf\";\n"
		    "\ttracer_major = 1;\n"
		    "\ttracer_minor = 0;\n"
		    "\tseed = %" PRId64 ";\n"
		    "};\n\n"
		    "clock {\n"
		    "\tname = \"cycles\";\n"
		    "\tdescription = \"2.4 GHz cycle counter\";\n"
		    "\tfreq = 2400000000;\n"
		    "\tprecision = 10;\n"
		    "\toffset_s = %" PRId64 ";\n"
		    "\toffset = %" PRIu64 ";\n"
		    "\tabsolute = false;\n"
		    "};\n\n",
		    g->uuid_str, g->order == TK_BYTE_ORDER_LE ? "le" : "be",
		    (int64_t) (g->seed & INT64_MAX), g->clk_off_s, g->clk_off);
	text_tsdl(
		t, g,
		"stream {\n"
		"\tid = 0;\n"
		"\tpacket.context := struct {\n"
		"\t\tinteger { size = 64; align = 8; map = clock.cycles.value; } timestamp_begin;\n"
		"\t\tinteger { size = 64; align = 8; map = clock.cycles.value; } timestamp_end;\n"
		"\t\tuint32_t content_size;\n"
		"\t\tuint32_t packet_size;\n"
		"\t\tuint32_t packet_seq_num;\n"
		"\t\tuint32_t events_discarded;\n"
		"\t\tinteger { size = 11; align = 8; byte_order = @O; } node;\n"
		"\t\tinteger { size = 5; align = 1; byte_order = @O; } cpu_id;\n"
		"\t};\n"
		"\tevent.header := struct {\n"
		"\t\tinteger { size = 3; align = 1; } id;\n"
		"\t\tinteger { size = 33; align = 1; map = clock.cycles.value; } timestamp;\n"
		"\t};\n"
		"\tevent.context := struct {\n"
		"\t\tinteger { size = 5; align = 1; signed = true; } _prio;\n"
		"\t};\n"
		"};\n\n");
}

static void bitfield_packet(struct stream *s, uint64_t content_bits)
{
	struct pw *w = &s->w;
	enum tk_byte_order o = s->g->order;

	put_int(w, CTF_MAGIC, 32, 8, o);
	put_bytes(w, s->g->uuid, sizeof(s->g->uuid));
	put_int(w, 0, 32, 8, o);
	put_int(w, s->cpu, 64, 8, o);
	put_int(w, s->begin, 64, 8, o);
	put_int(w, s->nev ? s->ts : s->begin, 64, 8, o);
	put_int(w, content_bits, 32, 8, o);
	put_int(w, s->pkt_bytes * 8, 32, 8, o);
	put_int(w, s->seq, 32, 8, o);
	put_int(w, s->discarded, 32, 8, o);
	put_int(w, 1000 + s->cpu, 11, 8, s->g->opp);
	put_int(w, s->cpu, 5, 1, s->g->opp);
}

static void bitfield_event(struct stream *s, const struct event *e)
{
	/* bits:native, in metadata order: size, signed */
	static const uint8_t native[][2] = {{3, 0}, {5, 1},  {13, 0}, {27, 1}, {33, 0}, {63, 1},
					    {1, 0}, {33, 1}, {13, 0}, {5, 0},  {64, 0}};
	struct pw *w = &s->w;
	struct rng *r = &s->rng;
	enum tk_byte_order o = s->g->order, x = s->g->opp;
	size_t i, n;

	put_int(w, e->cls, 3, 1, o);
	put_int(w, e->ts, 33, 1, o);
	s->clk = e->ts;
	put_int(w, rand_int(r, 5, true), 5, 1, o); /* _prio */
	if (e->cls == 4)
		put_int(w, rand_int(r, 13, false), 13, 1, o); /* event context _ectx */
	put_payload_start(w, s->g, &bitfield_classes[e->cls]);
	switch (e->cls) {
	case 0:
		for (i = 0; i < ARRAY_SIZE(native); i++)
			put_int(w, rand_int(r, native[i][0], native[i][1]), native[i][0], 1, o);
		break;
	case 1:
		put_int(w, rand_int(r, 3, true), 3, 1, o);
		put_int(w, rand_int(r, 5, false), 5, 1, o);
		put_int(w, rand_int(r, 13, false), 13, 8, x);
		put_int(w, rand_int(r, 27, true), 27, 1, x);
		put_int(w, rand_int(r, 33, false), 33, 1, x);
		put_int(w, rand_int(r, 63, true), 63, 1, x);
		put_int(w, rand_int(r, 3, false), 3, 1, o);
		break;
	case 2:
		n = rng_below(r, SEQ_MAX + 1);
		put_int(w, n, 5, 1, o);
		for (i = 0; i < n; i++)
			put_int(w, rand_int(r, 13, true), 13, 1, o);
		pw_align(w, 8); /* struct _grp align(8) */
		for (i = 0; i < 8; i++)
			put_int(w, rand_int(r, 27, false), 27, 1, x);
		put_int(w, rand_int(r, 7, false), 7, 1, o);
		break;
	case 3:
		put_int(w, rand_int(r, 5, true), 5, 1, o);
		put_int(w, rng_below(r, 8), 3, 1, o);
		put_int(w, rng_below(r, 4) ? rng_below(r, 200) : rand_int(r, 13, false), 13, 1, o);
		break;
	case 4:
		put_int(w, rand_int(r, 7, false), 7, 1, o);
		n = rand_message(r, s->str, e->long_str ? long_len(r) : rng_below(r, 40));
		put_string(w, s->str, n);
		put_int(w, rand_int(r, 3, true), 3, 1, o);
		break;
	case 5:
		put_int(w, rand_int(r, 3, false), 3, 1, o);
		put_float(w, (float) rand_double(r), 32, o);
		put_double(w, rand_double(r), 64, x);
		put_int(w, rand_int(r, 33, true), 33, 1, o);
		break;
	case 6:
		n = rng_below(r, 3); /* NUM, TEXT, PAIR */
		put_int(w, n, 2, 1, o);
		if (n == 0) {
			put_int(w, rand_int(r, 11, true), 11, 1, o);
		} else if (n == 1) {
			n = rand_message(r, s->str, rng_below(r, 24));
			put_string(w, s->str, n);
		} else {
			put_int(w, rand_int(r, 3, false), 3, 1, o);
			put_int(w, rand_int(r, 63, true), 63, 1, o);
		}
		put_int(w, rand_int(r, 5, false), 5, 1, o);
		break;
	default:
		break;
	}
}

/* ---- Layout table ----------------------------------------------------------------------- */

#define NCLASSES(a) (unsigned int) ARRAY_SIZE(a)

static const struct layout layouts[] = {
	[LAYOUT_LTTNG] = {"lttng", lttng_classes, NCLASSES(lttng_classes), 1, lttng_metadata,
			  lttng_packet, lttng_event, UINT64_MAX},
	[LAYOUT_COMPACT] = {"compact", compact_classes, NCLASSES(compact_classes), 4,
			    compact_metadata, lttng_packet, compact_event, UINT64_MAX},
	/* 33-bit timestamps without an extended header: pauses stay below 2^33 cycles */
	[LAYOUT_BITFIELD] = {"bitfield", bitfield_classes, NCLASSES(bitfield_classes), 4,
			     bitfield_metadata, bitfield_packet, bitfield_event,
			     (UINT64_C(1) << 33) - 1},
};

static void metadata_events(struct text *t, const struct gen *g, const struct layout *l)
{
	unsigned int i;

	for (i = 0; i < l->nclasses; i++) {
		const struct evclass *c = &l->classes[i];

		text_printf(t, "event {\n\tname = \"%s\";\n\tid = %" PRIu32 ";\n\tstream_id = 0;\n",
			    c->name, c->id);
		if (c->loglevel >= 0)
			text_printf(t, "\tloglevel = %d;\n", c->loglevel);
		if (c->emf)
			text_printf(t, "\tmodel.emf.uri = \"%s\";\n", c->emf);
		if (c->context) {
			text_puts(t, "\tcontext := struct {\n");
			text_tsdl(t, g, c->context);
			text_puts(t, "\t};\n");
		}
		text_puts(t, "\tfields := struct {\n");
		text_tsdl(t, g, c->fields);
		text_puts(t, "\t};\n};\n\n");
	}
}

/* ---- Files ------------------------------------------------------------------------------ */

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	if ((size_t) snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		die("Cannot create file: path too long, dir=%s", dir);
	f = fopen(path, "wb");
	if (!f)
		die("Cannot create file: path=%s, errno=%s", path, strerror(errno));
	return f;
}

static void write_all(FILE *f, const void *p, size_t n, const char *what)
{
	if (n && fwrite(p, 1, n, f) != n)
		die("Cannot write %s: errno=%s", what, strerror(errno));
}

static void close_out(FILE *f, const char *what)
{
	if (fclose(f))
		die("Cannot write %s: errno=%s", what, strerror(errno));
}

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		die("Cannot create directory: path=%s, errno=%s", path, strerror(errno));
}

/*
 * Write the metadata stream: plain text, or the packets LTTng writes (reference/ctf.md
 * section 3): each 4096 bytes, a 37-byte header in the trace byte order, then text.
 */
static void write_metadata(const struct gen *g, const struct text *t)
{
	FILE *f = open_out(g->outdir, "metadata");
	size_t off = 0;

	if (!g->packetized) {
		write_all(f, t->p, t->len, "metadata");
		close_out(f, "metadata");
		return;
	}
	while (off < t->len) {
		uint8_t pkt[META_PACKET_SIZE] = {0};
		size_t n = t->len - off;

		if (n > META_PACKET_SIZE - META_HEADER_SIZE)
			n = META_PACKET_SIZE - META_HEADER_SIZE;
		tk_store_u32(pkt, META_MAGIC, g->order);
		memcpy(pkt + 4, g->uuid, 16);
		tk_store_u32(pkt + 24, (uint32_t) ((META_HEADER_SIZE + n) * 8), g->order);
		tk_store_u32(pkt + 28, META_PACKET_SIZE * 8, g->order);
		pkt[35] = 1;
		pkt[36] = 8;
		memcpy(pkt + META_HEADER_SIZE, t->p + off, n);
		write_all(f, pkt, sizeof(pkt), "metadata");
		off += n;
	}
	close_out(f, "metadata");
}

/* ---- Packets ------------------------------------------------------------------------------ */

static void packet_open(struct stream *s, uint64_t begin)
{
	s->begin = begin;
	s->clk = begin;
	s->nev = 0;
	s->pkt_bytes = s->g->packet_size;
	s->w.pos = 0;
	layouts[s->g->kind].packet(s, 0);
}

/*
 * Finish the open packet: rewrite its header and context with the final sizes and times,
 * write it whole and add its index entry (section 2, v1.1: nine big-endian u64). With --lost,
 * some packets close with a higher discarded-events count and some sequence numbers are
 * skipped after them, as when a consumer falls behind.
 */
static void packet_close(struct stream *s)
{
	const struct gen *g = s->g;
	uint64_t content = s->w.pos;
	uint8_t e[INDEX_ENTRY_SIZE];

	if (g->lost && rng_below(&s->prng, 5) == 0)
		s->discarded += 1 + rng_below(&s->prng, 40);
	s->w.pos = 0;
	pw_reserve(&s->w, s->pkt_bytes * 8); /* a packet may be larger than what was written */
	layouts[g->kind].packet(s, content);
	write_all(s->f, s->w.buf, s->pkt_bytes, "stream");
	memset(s->w.buf, 0, s->pkt_bytes);
	s->w.pos = 0;

	tk_store_u64(e, s->offset, TK_BYTE_ORDER_BE);
	tk_store_u64(e + 8, s->pkt_bytes * 8, TK_BYTE_ORDER_BE);
	tk_store_u64(e + 16, content, TK_BYTE_ORDER_BE);
	tk_store_u64(e + 24, s->begin, TK_BYTE_ORDER_BE);
	tk_store_u64(e + 32, s->nev ? s->ts : s->begin, TK_BYTE_ORDER_BE);
	tk_store_u64(e + 40, s->discarded, TK_BYTE_ORDER_BE);
	tk_store_u64(e + 48, 0, TK_BYTE_ORDER_BE);
	tk_store_u64(e + 56, s->cpu, TK_BYTE_ORDER_BE);
	tk_store_u64(e + 64, s->seq, TK_BYTE_ORDER_BE);
	if (g->index)
		text_add(&s->idx, (const char *) e, sizeof(e));

	s->offset += s->pkt_bytes;
	s->seq++;
	if (g->lost && rng_below(&s->prng, 8) == 0)
		s->seq += 1 + rng_below(&s->prng, 3);
}

/*
 * Encode one event into the open packet. When it overflows a packet that already holds
 * events, undo it (bytes, clock and value generator), close the packet and encode it again
 * in a new one: same values, but the event header may change, as the clock restarts from
 * timestamp_begin. An event too large for an empty packet grows that packet to the next
 * multiple of --packet-size.
 */
static void packet_add(struct stream *s, const struct event *e)
{
	const struct layout *l = &layouts[s->g->kind];
	uint64_t start = s->w.pos, clk = s->clk;
	struct rng values = s->rng;
	uint64_t empties = empty_texts;
	uint8_t keep;

	pw_reserve(&s->w, 64);
	keep = s->w.buf[start >> 3];
	l->event(s, e);
	if (s->w.pos > s->pkt_bytes * 8 && s->nev) {
		size_t from = (size_t) (start >> 3), to = (size_t) ((s->w.pos + 7) >> 3);

		memset(s->w.buf + from, 0, to - from);
		s->w.buf[from] = keep;
		s->w.pos = start;
		s->clk = clk;
		s->rng = values;
		empty_texts = empties; /* the event is written again below */
		packet_close(s);
		packet_open(s, s->ts);
		l->event(s, e);
	}
	if (s->w.pos > s->pkt_bytes * 8) {
		uint64_t unit = s->g->packet_size * 8;

		s->pkt_bytes = (s->w.pos + unit - 1) / unit * s->g->packet_size;
	}
	s->nev++;
	s->ts = e->ts;
}

/* ---- Streams ------------------------------------------------------------------------------ */

/*
 * Length of the @k-th long pause of every stream: all streams pause by the same amount at
 * about the same point, so they stay interleaved. Pauses alternate between
 * more than 2^32 cycles (extended 64-bit timestamps in the lttng layout) and 2^27 to 2^30
 * cycles (extended in the compact layout, wrapping in the others).
 */
static uint64_t jump_len(const struct gen *g, uint64_t k)
{
	uint64_t h = mix64(g->seed ^ mix64(k + 1));
	uint64_t len;

	if (k % 2 == 0)
		len = (UINT64_C(1) << 32) + (h & ((UINT64_C(1) << 28) - 1));
	else
		len = (UINT64_C(1) << 27) + (h & ((UINT64_C(1) << 30) - 1));
	if (len > layouts[g->kind].max_jump - 1000000)
		len = (UINT64_C(1) << 30) + (h & ((UINT64_C(1) << 30) - 1));
	return len;
}

static unsigned int pick_class(struct rng *r, const struct layout *l)
{
	unsigned int i, total = 0;
	uint64_t x;

	for (i = 0; i < l->nclasses; i++)
		total += l->classes[i].weight;
	x = rng_below(r, total);
	for (i = 0; i < l->nclasses; i++) {
		if (x < l->classes[i].weight)
			return i;
		x -= l->classes[i].weight;
	}
	return 0;
}

static void write_stream(const struct gen *g, unsigned int cpu, uint64_t nevents)
{
	const struct layout *l = &layouts[g->kind];
	struct stream s = {0};
	struct event e;
	char name[64], idxname[80];
	uint64_t i, ts;

	s.g = g;
	s.cpu = cpu;
	s.rng.s = mix64(g->seed) ^ mix64(UINT64_C(0x5eed0000) + cpu);
	s.prng.s = mix64(s.rng.s ^ UINT64_C(0x7061636b6574));
	snprintf(name, sizeof(name), "channel0_%u", cpu);
	s.f = open_out(g->outdir, name);
	setvbuf(s.f, NULL, _IOFBF, IOBUF_SIZE);

	ts = g->start + rng_below(&s.rng, 2000) * g->gap_mul / 5;
	packet_open(&s, ts);
	s.ts = ts;
	for (i = 0; i < nevents; i++) {
		if (i && i % g->jump_every == 0)
			ts += jump_len(g, s.jumps++);
		ts += gap_ns(&s.rng) * g->gap_mul / 5;
		e.ts = ts;
		e.long_str = i % g->jump_every == g->jump_every / 2;
		e.cls = e.long_str ? l->string_class : pick_class(&s.rng, l);
		packet_add(&s, &e);
	}
	if (g->lost && !s.discarded) /* every stream of a --lost trace reports a loss */
		s.discarded = 1 + rng_below(&s.prng, 40);
	packet_close(&s);
	close_out(s.f, name);

	if (g->index) {
		uint8_t h[16];
		FILE *f;

		snprintf(idxname, sizeof(idxname), "index/%s.idx", name);
		f = open_out(g->outdir, idxname);
		tk_store_u32(h, INDEX_MAGIC, TK_BYTE_ORDER_BE);
		tk_store_u32(h + 4, 1, TK_BYTE_ORDER_BE);
		tk_store_u32(h + 8, 1, TK_BYTE_ORDER_BE);
		tk_store_u32(h + 12, INDEX_ENTRY_SIZE, TK_BYTE_ORDER_BE);
		write_all(f, h, sizeof(h), "index");
		write_all(f, s.idx.p, s.idx.len, "index");
		close_out(f, idxname);
	}
	free(s.idx.p);
	free(s.w.buf);
}

/* ---- Options -------------------------------------------------------------------------------- */

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: gen-ctf [OPTION]... OUTDIR\n"
		"\n"
		"Write a deterministic CTF 1.8 trace into OUTDIR (created if missing; files of\n"
		"the same names are replaced): OUTDIR/metadata, one data stream file per stream\n"
		"(channel0_0, channel0_1, ...) and LTTng index files OUTDIR/index/*.idx.\n"
		"\n"
		"Options:\n"
		"  -n, --events=N          total events, spread over the streams (default 1000)\n"
		"  -s, --streams=K         data stream files, like per-CPU files (default 2)\n"
		"  -p, --packet-size=BYTES packet size (default 4096, at least %d); a larger\n"
		"                          event grows its packet to a multiple of BYTES\n"
		"  -b, --byte-order=le|be  trace byte order (default le)\n"
		"  -S, --seed=S            seed of every value and time (default 1)\n"
		"  -l, --layout=NAME       lttng: LTTng-UST 2.13 64-bit (default); compact: LTTng\n"
		"                          kernel style, 5-bit id and 27-bit time bit fields;\n"
		"                          bitfield: odd-size fields at odd offsets, both orders\n"
		"      --index             write index files (default)\n"
		"      --no-index          do not write index files\n"
		"      --packetized-metadata\n"
		"                          write metadata as 4096-byte packets, as LTTng does\n"
		"      --lost              make some packets report discarded events and skip\n"
		"                          some packet sequence numbers\n"
		"      --count-empty       print the number of empty text fields written\n"
		"      --procname          lttng layout: a procname string context per thread\n"
		"  -h, --help              show this help\n"
		"\n"
		"Big-endian lttng and compact traces use natural alignment (as on ppc64),\n"
		"little-endian ones byte alignment (as on x86-64).\n",
		MIN_PACKET_SIZE);
}

static uint64_t parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < min || v > max) {
		fprintf(stderr, "gen-ctf: invalid %s: %s (expected %" PRIu64 " to %" PRIu64 ")\n",
			opt, s, min, max);
		exit(2);
	}
	return v;
}

enum {
	OPT_INDEX = 256,
	OPT_NO_INDEX,
	OPT_PACKETIZED,
	OPT_LOST,
	OPT_COUNT_EMPTY,
	OPT_PROCNAME,
};

static void parse_args(struct gen *g, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"events", required_argument, NULL, 'n'},
		{"streams", required_argument, NULL, 's'},
		{"packet-size", required_argument, NULL, 'p'},
		{"byte-order", required_argument, NULL, 'b'},
		{"seed", required_argument, NULL, 'S'},
		{"layout", required_argument, NULL, 'l'},
		{"index", no_argument, NULL, OPT_INDEX},
		{"no-index", no_argument, NULL, OPT_NO_INDEX},
		{"packetized-metadata", no_argument, NULL, OPT_PACKETIZED},
		{"lost", no_argument, NULL, OPT_LOST},
		{"count-empty", no_argument, NULL, OPT_COUNT_EMPTY},
		{"procname", no_argument, NULL, OPT_PROCNAME},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	size_t k;
	int c;

	while ((c = getopt_long(argc, argv, "n:s:p:b:S:l:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			g->events = parse_u64("--events", optarg, 0, UINT64_C(1) << 40);
			break;
		case 's':
			g->streams = (unsigned int) parse_u64("--streams", optarg, 1, MAX_STREAMS);
			break;
		case 'p':
			g->packet_size = parse_u64("--packet-size", optarg, MIN_PACKET_SIZE,
						   UINT64_C(1) << 28);
			break;
		case 'b':
			if (!strcmp(optarg, "le")) {
				g->order = TK_BYTE_ORDER_LE;
			} else if (!strcmp(optarg, "be")) {
				g->order = TK_BYTE_ORDER_BE;
			} else {
				fprintf(stderr, "gen-ctf: invalid --byte-order: %s (le or be)\n",
					optarg);
				exit(2);
			}
			break;
		case 'S':
			g->seed = parse_u64("--seed", optarg, 0, UINT64_MAX);
			break;
		case 'l':
			g->kind = ARRAY_SIZE(layouts);
			for (k = 0; k < ARRAY_SIZE(layouts); k++)
				if (!strcmp(optarg, layouts[k].name))
					g->kind = (enum layout_kind) k;
			if (g->kind == ARRAY_SIZE(layouts)) {
				fprintf(stderr, "gen-ctf: invalid --layout: %s (%s, %s or %s)\n",
					optarg, layouts[0].name, layouts[1].name, layouts[2].name);
				exit(2);
			}
			break;
		case OPT_INDEX:
			g->index = true;
			break;
		case OPT_NO_INDEX:
			g->index = false;
			break;
		case OPT_PACKETIZED:
			g->packetized = true;
			break;
		case OPT_LOST:
			g->lost = true;
			break;
		case OPT_PROCNAME:
			g->procname = true;
			break;
		case OPT_COUNT_EMPTY:
			g->count_empty = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "gen-ctf: expected one OUTDIR (see --help)\n");
		exit(2);
	}
	g->outdir = argv[optind];
}

/* Trace-wide values drawn from the seed: UUID, clock offset, start time, pause schedule. */
static void derive(struct gen *g)
{
	struct rng r = {mix64(g->seed ^ UINT64_C(0x7472616365))};
	uint64_t per_stream = g->events / g->streams + 1;
	unsigned int i;

	g->opp = g->order == TK_BYTE_ORDER_LE ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE;
	if (g->kind != LAYOUT_BITFIELD && g->order == TK_BYTE_ORDER_BE) {
		g->a16 = 16;
		g->a32 = 32;
		g->a64 = 64;
	} else {
		g->a16 = g->a32 = g->a64 = 8;
	}
	for (i = 0; i < 16; i++)
		g->uuid[i] = (uint8_t) rng_next(&r);
	g->uuid[6] = (uint8_t) ((g->uuid[6] & 0x0f) | 0x40);
	g->uuid[8] = (uint8_t) ((g->uuid[8] & 0x3f) | 0x80);
	snprintf(g->uuid_str, sizeof(g->uuid_str),
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", g->uuid[0],
		 g->uuid[1], g->uuid[2], g->uuid[3], g->uuid[4], g->uuid[5], g->uuid[6], g->uuid[7],
		 g->uuid[8], g->uuid[9], g->uuid[10], g->uuid[11], g->uuid[12], g->uuid[13],
		 g->uuid[14], g->uuid[15]);

	/* boot time within 2025; the first event an hour to a day after boot */
	if (g->kind == LAYOUT_BITFIELD) {
		g->gap_mul = 12;
		g->clk_off_s = 1735689600 + (int64_t) rng_below(&r, 365 * 86400);
		g->clk_off = 3 * UINT64_C(2400000000) + rng_below(&r, UINT64_C(2400000000));
		g->start = (3600 + rng_below(&r, 86400)) * UINT64_C(2400000000);
	} else {
		g->gap_mul = 5;
		g->clk_off = (1735689600 + rng_below(&r, 365 * 86400)) * UINT64_C(1000000000) +
			     rng_below(&r, 1000000000);
		g->start = (3600 + rng_below(&r, 86400)) * UINT64_C(1000000000) +
			   rng_below(&r, 1000000000);
	}
	g->jump_every = per_stream / 4;
	if (g->jump_every < 50)
		g->jump_every = 50;
	if (g->jump_every > 5000)
		g->jump_every = 5000;
}

int main(int argc, char **argv)
{
	struct gen g = {
		.events = 1000,
		.streams = 2,
		.packet_size = 4096,
		.order = TK_BYTE_ORDER_LE,
		.seed = 1,
		.kind = LAYOUT_LTTNG,
		.index = true,
	};
	const struct layout *l;
	struct text meta = {0};
	char path[4096];
	unsigned int i;

	parse_args(&g, argc, argv);
	derive(&g);
	l = &layouts[g.kind];

	make_dir(g.outdir);
	if (g.index) {
		if ((size_t) snprintf(path, sizeof(path), "%s/index", g.outdir) >= sizeof(path))
			die("Cannot create directory: path too long, dir=%s", g.outdir);
		make_dir(path);
	}
	text_puts(&meta, "/* CTF 1.8 */\n\n");
	l->metadata(&meta, &g);
	metadata_events(&meta, &g, l);
	write_metadata(&g, &meta);
	free(meta.p);

	for (i = 0; i < g.streams; i++)
		write_stream(&g, i, g.events / g.streams + (i < g.events % g.streams));
	if (g.count_empty)
		printf("%llu\n", (unsigned long long) empty_texts);
	return 0;
}
