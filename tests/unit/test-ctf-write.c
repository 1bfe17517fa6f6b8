// SPDX-License-Identifier: MIT
/*
 * Unit tests of the CTF 1.8 writer (src/ctf/ctf-write*.c, include/tracekit/ctf-writer.h).
 *
 * Each test writes a trace through the public API and reads it back through two oracles that
 * do not share code with the writer (fixture and oracles in ctf-write-oracle.c):
 *  - the project's CTF reader (tk_trace_open() and tk_iter_next(), values through the model):
 *    every event's class name, clock value, time in ns and every field value must be what the
 *    test gave, stream by stream, and the losses reported must add up to those recorded;
 *  - the LTTng index files and packet contexts, walked here by hand from reference/ctf.md
 *    sections 2 and 6: packets back to back, sizes in bits, times that never go back,
 *    sequence numbers from 0, and contexts that agree with the index.
 * Expected values come from the test's own input: values are drawn from a seed per event, so
 * the checker draws them again. Header sizes are checked against the spec's rule (section 8:
 * a short timestamp is read back exactly when the event is less than 2^27, or 2^32, cycles
 * after the previous one). Misuse must fail with TK_ERR_INVAL and a cause, writing nothing.
 */
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <tracekit/tracekit.h>

#include "ctf-write-oracle.h"
#include "model/model.h"

/* ---- tests -------------------------------------------------------------------------------- */

#define INT_F(nm, nbits, sgn, bs)                                                                  \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_INT, .bits = (nbits), .is_signed = (sgn),  \
		.base = (bs)                                                                       \
	}
#define ARR_F(nm, ek, eb, es, ln)                                                                  \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_ARRAY, .elem_kind = (ek),                  \
		.elem_bits = (eb), .elem_signed = (es), .array_len = (ln)                          \
	}
#define SEQ_F(nm, ek, eb, es)                                                                      \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_SEQUENCE, .elem_kind = (ek),               \
		.elem_bits = (eb), .elem_signed = (es)                                             \
	}

static const struct tk_ctf_field_decl all_kinds[] = {
	INT_F("u8", 8, 0, 0),
	INT_F("s8", 8, 1, 0),
	INT_F("x16", 16, 0, 16),
	INT_F("s16", 16, 1, 10),
	INT_F("o32", 32, 0, 8),
	INT_F("s32", 32, 1, 0),
	INT_F("u64", 64, 0, 0),
	INT_F("b64", 64, 1, 2),
	INT_F("bit", 1, 0, 0),
	INT_F("s3", 3, 1, 0),
	INT_F("u12", 12, 0, 16),
	INT_F("s33", 33, 1, 0),
	INT_F("u63", 63, 0, 0),
	{.name = "f32", .kind = TK_CTF_FIELD_KIND_FLOAT, .bits = 32},
	{.name = "f64", .kind = TK_CTF_FIELD_KIND_FLOAT, .bits = 64},
	{.name = "str", .kind = TK_CTF_FIELD_KIND_STRING},
	ARR_F("a16", TK_CTF_FIELD_KIND_INT, 16, 0, 5),
	ARR_F("as12", TK_CTF_FIELD_KIND_INT, 12, 1, 3),
	ARR_F("a64", TK_CTF_FIELD_KIND_INT, 64, 1, 2),
	ARR_F("as8", TK_CTF_FIELD_KIND_INT, 8, 1, 4),
	ARR_F("comm", TK_CTF_FIELD_KIND_CHAR, 0, 0, 16),
	SEQ_F("qs32", TK_CTF_FIELD_KIND_INT, 32, 1),
	SEQ_F("q5", TK_CTF_FIELD_KIND_INT, 5, 0),
	SEQ_F("qtext", TK_CTF_FIELD_KIND_CHAR, 0, 0),
	ARR_F("empty", TK_CTF_FIELD_KIND_INT, 12, 0, 0), /* last: ends byte-aligned */
};

/* ftrace's common fields, as a trace.dat conversion declares them */
static const struct tk_ctf_field_decl common[] = {
	INT_F("common_type", 16, 0, 0),
	INT_F("common_flags", 8, 0, 16),
	INT_F("common_preempt_count", 8, 0, 0),
	INT_F("common_pid", 32, 1, 0),
};

static const struct tk_ctf_field_decl one_int[] = {INT_F("x", 32, 0, 0)};

/* events that end inside a byte: the packet content ends there too */
static const struct tk_ctf_field_decl tail_bits[] = {INT_F("u8", 8, 0, 0), INT_F("s3", 3, 1, 0)};
static const struct tk_ctf_field_decl tail_seq[] = {SEQ_F("q5", TK_CTF_FIELD_KIND_INT, 5, 0)};
static const struct tk_ctf_field_decl tail_arr[] = {ARR_F("a12", TK_CTF_FIELD_KIND_INT, 12, 1, 2)};

/*
 * Every field kind, in both byte orders, through small packets (some events are larger than a
 * packet), four streams of two stream classes on clocks of 1 GHz and 1 MHz, an event context
 * in one class, and time gaps that need extended headers.
 */
static void run_every_field_kind(enum tk_ctf_byte_order order, const char *name)
{
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tw *t = calloc(1, sizeof(*t));
	uint64_t clk0, clk1, sc0, sc1, ts[MAX_STREAMS] = {0}, s = 42;
	size_t all, small, other, tails[3], i, st;
	struct pk_summary sum;

	assert_non_null(t);
	o.packet_size = 384;
	o.byte_order = order;
	tw_create(t, name, &o);
	clk0 = tw_clock(t, "monotonic", 1000000000, 1600000000, 5);
	clk1 = tw_clock(t, "slow", 1000000, 100, 999999);
	sc0 = tw_sc(t, clk0, common, ARRAY_SIZE(common));
	sc1 = tw_sc(t, clk1, NULL, 0);
	all = tw_class(t, sc0, "all_kinds", all_kinds, ARRAY_SIZE(all_kinds));
	small = tw_class(t, sc0, "small", one_int, 1);
	other = tw_class(t, sc1, "other", all_kinds, ARRAY_SIZE(all_kinds));
	tails[0] = tw_class(t, sc0, "tail_bits", tail_bits, ARRAY_SIZE(tail_bits));
	tails[1] = tw_class(t, sc0, "tail_seq", tail_seq, ARRAY_SIZE(tail_seq));
	tails[2] = tw_class(t, sc0, "tail_arr", tail_arr, ARRAY_SIZE(tail_arr));
	tw_stream(t, sc0, 0);
	tw_stream(t, sc0, 1);
	tw_stream(t, sc0, 5);
	tw_stream(t, sc1, 7);
	ts[0] = ts[1] = ts[2] = UINT64_C(1) << 40;
	for (i = 0; i < 1500; i++) {
		uint64_t r = rnd(&s);

		st = r % 4;
		if (st == 3) {
			ts[3] += r % 3000; /* small times keep 1 MHz times exact in ns */
			tw_append(t, 3, other, ts[3]);
			continue;
		}
		switch ((r >> 8) % 16) {
		case 0:
			ts[st] += UINT64_C(1) << (27 + (r >> 20) % 8); /* extended headers */
			break;
		case 1:
			break; /* same time */
		default:
			ts[st] += (r >> 20) % 100000;
			break;
		}
		switch ((r >> 40) % 6) {
		case 0:
		case 1:
		case 2:
			tw_append(t, st, (r >> 40) % 3 ? all : small, ts[st]);
			break;
		default:
			tw_append(t, st, tails[(r >> 40) % 6 - 3], ts[st]);
			break;
		}
	}
	OK(tk_ctf_writer_close(t->w));
	for (i = 0; i < t->nst; i++) {
		check_packets(t, i, &sum);
		assert_true(sum.packets > 20); /* small packets: many of them */
		assert_int_equal(sum.min_packet, 384);
	}
	check_packets(t, 0, &sum);
	tw_read_check(t);
	tw_fini(t);
	free(t);
}

static void test_every_field_kind_little_endian(void **state)
{
	(void) state;
	run_every_field_kind(TK_CTF_BYTE_ORDER_LE, "kinds-le");
}

static void test_every_field_kind_big_endian(void **state)
{
	(void) state;
	run_every_field_kind(TK_CTF_BYTE_ORDER_BE, "kinds-be");
}

/* Header bytes the spec's reconstruction rule allows for an event @delta after the last. */
static uint64_t want_header(int large, uint64_t id, uint64_t delta)
{
	if (large)
		return id < 65535 && delta < (UINT64_C(1) << 32) ? 6 : 14;
	return id < 31 && delta < (UINT64_C(1) << 27) ? 4 : 13;
}

/*
 * Compact headers: short timestamps exactly when the event is less than 2^27 cycles after
 * the previous one (one wrap of the low bits allowed), extended ones otherwise and for ids
 * of 31 and more (classes added after the first event).
 */
static void run_header_sizes(enum tk_ctf_byte_order order, int large, const char *name)
{
	static const uint64_t deltas[] = {
		0,
		1,
		2,
		(1 << 27) - 1,
		1 << 27,
		(1 << 27) + 1,
		3,
		100,
		(1 << 27) - 100,
		UINT64_C(1) << 32,
		(UINT64_C(1) << 32) - 1,
		(UINT64_C(1) << 32) + 1,
		UINT64_C(1) << 40,
		7,
		0,
		0,
		1 << 26,
		1 << 26,
		1 << 26,
		5,
		1,
	};
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tw *t = calloc(1, sizeof(*t));
	uint64_t sc, ts = (UINT64_C(1) << 27) - 3, prev, want = 0;
	size_t cls[70], i, j, ncls = large ? 40 : 3;
	char names[70][16];
	struct pk_summary sum;

	assert_non_null(t);
	o.byte_order = order;
	tw_create(t, name, &o);
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), NULL, 0);
	for (i = 0; i < ncls; i++) {
		snprintf(names[i], sizeof(names[i]), "ev%zu", i);
		cls[i] = tw_class(t, sc, names[i], NULL, 0);
	}
	tw_stream(t, sc, 0);
	prev = ts;
	for (j = 0; j < 3; j++) {
		for (i = 0; i < ARRAY_SIZE(deltas); i++) {
			size_t c = (i * 7 + j) % ncls;

			ts += deltas[i];
			tw_append(t, 0, cls[c], ts);
			want += want_header(large, t->cls[cls[c]].id, ts - prev);
			prev = ts;
		}
		if (j == 0) {
			/* after the first event: the header kind stays, new ids may be large */
			for (i = ncls; i < ncls + 30; i++) {
				snprintf(names[i], sizeof(names[i]), "late%zu", i);
				cls[i] = tw_class(t, sc, names[i], NULL, 0);
			}
			ncls += 30;
		}
	}
	OK(tk_ctf_writer_close(t->w));
	check_packets(t, 0, &sum);
	assert_int_equal(sum.packets, 1);
	assert_int_equal(sum.event_bytes, want);
	tw_read_check(t);
	tw_fini(t);
	free(t);
}

static void test_compact_header_sizes_and_wraps(void **state)
{
	(void) state;
	run_header_sizes(TK_CTF_BYTE_ORDER_LE, 0, "compact-le");
	run_header_sizes(TK_CTF_BYTE_ORDER_BE, 0, "compact-be");
}

static void test_large_header_with_many_classes(void **state)
{
	(void) state;
	run_header_sizes(TK_CTF_BYTE_ORDER_LE, 1, "large-le");
	run_header_sizes(TK_CTF_BYTE_ORDER_BE, 1, "large-be");
}

/* Many classes and every field kind with large headers, across packets. */
static void test_large_header_across_packets(void **state)
{
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tw *t = calloc(1, sizeof(*t));
	uint64_t sc, ts = 12345, s = 7;
	size_t cls[40], i;
	char names[40][16];

	(void) state;
	assert_non_null(t);
	o.packet_size = 1000;
	o.byte_order = TK_CTF_BYTE_ORDER_BE;
	tw_create(t, "large-packets", &o);
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), common, ARRAY_SIZE(common));
	for (i = 0; i < 40; i++) {
		snprintf(names[i], sizeof(names[i]), "class_%zu", i);
		cls[i] = tw_class(t, sc, names[i], i % 2 ? all_kinds : one_int,
				  i % 2 ? ARRAY_SIZE(all_kinds) : 1);
	}
	tw_stream(t, sc, 3);
	tw_stream(t, sc, 4);
	for (i = 0; i < 800; i++) {
		uint64_t r = rnd(&s);

		ts += r % 7 == 0 ? (UINT64_C(1) << 32) + r % 1000 : r % 5000;
		tw_append(t, i % 2, cls[(r >> 16) % 40], ts);
	}
	tw_close_check(t);
	tw_fini(t);
	free(t);
}

/* An event larger than a packet gets a packet of its own, as large as it needs. */
static void test_event_bigger_than_packet(void **state)
{
	static const struct tk_ctf_field_decl big[] = {
		{.name = "text", .kind = TK_CTF_FIELD_KIND_STRING},
		SEQ_F("words", TK_CTF_FIELD_KIND_INT, 32, 0),
	};
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tw *t = calloc(1, sizeof(*t));
	struct tk_ctf_value v[2][2];
	char *text = malloc(20000);
	uint32_t *words = malloc(3000 * sizeof(*words));
	struct pk_summary sum;
	uint64_t sc, ts = 1;
	size_t c, small, i;

	(void) state;
	assert_non_null(t);
	assert_non_null(text);
	assert_non_null(words);
	memset(text, 'x', 20000);
	for (i = 0; i < 3000; i++)
		words[i] = (uint32_t) (i * 2654435761u);
	memset(v, 0, sizeof(v));
	v[0][0].data = text;
	v[0][0].len = 20000;
	v[1][0].data = "short";
	v[1][0].len = 5;
	v[1][1].data = words;
	v[1][1].len = 3000;
	o.packet_size = 4096;
	tw_create(t, "big-event", &o);
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), NULL, 0);
	c = tw_class(t, sc, "big", big, 2);
	small = tw_class(t, sc, "small", one_int, 1);
	tw_stream(t, sc, 0);
	for (i = 0; i < 50; i++)
		tw_append(t, 0, small, ts++);
	tw_append_values(t, 0, c, ts++, v[0]);
	tw_append_values(t, 0, c, ts++, v[1]);
	for (i = 0; i < 10; i++)
		tw_append(t, 0, small, ts++);
	tw_append_values(t, 0, c, ts++, v[0]); /* the very first event of a packet */
	OK(tk_ctf_writer_close(t->w));
	check_packets(t, 0, &sum);
	assert_true(sum.max_packet >= 84 + 20000 + 1 + 4 + 4);
	assert_int_equal(sum.min_packet, 4096);
	tw_read_check(t);
	tw_fini(t);
	free(t);
	free(text);
	free(words);
}

/*
 * Losses before the first event, between events, at packet ends and after the last event,
 * in a stream with events, a stream with only losses and a stream with nothing.
 */
static void test_discarded_events(void **state)
{
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tw *t = calloc(1, sizeof(*t));
	uint64_t cum
		[200]; /* losses recorded before event i was appended (its time is 1010 + 10 i) */
	struct pk_summary sum;
	uint64_t sc, ts = 1000;
	uint8_t *idx;
	size_t c, i, n, isize;
	char path[300];

	(void) state;
	assert_non_null(t);
	o.packet_size = 256;
	tw_create(t, "lost", &o);
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), NULL, 0);
	c = tw_class(t, sc, "e", one_int, 1);
	tw_stream(t, sc, 0);
	tw_stream(t, sc, 1);
	tw_stream(t, sc, 2);
	tw_lose(t, 0, 3);
	for (i = 0; i < 200; i++) {
		cum[i] = t->lost[0];
		tw_append(t, 0, c, ts += 10);
		if (i % 3 == 2) /* some right before a packet ends */
			tw_lose(t, 0, i);
	}
	tw_lose(t, 0, 2);
	tw_lose(t, 1, 5);
	OK(tk_ctf_writer_close(t->w));
	check_packets(t, 0, &sum);
	assert_true(sum.packets > 5);
	/*
	 * Each packet counts the losses recorded before its last event, the last one all of them:
	 * a loss belongs to the packet of the event after it. The first packet is the one of its
	 * header and context alone, without losses, so that readers know the next one's count.
	 */
	snprintf(path, sizeof(path), "%s/index/%s.idx", t->dir, t->st_name[0]);
	idx = slurp(path, &isize);
	n = (isize - 16) / 72;
	assert_int_equal(tk_load_be64(idx + 16 + 40), 0);
	assert_int_equal(tk_load_be64(idx + 16 + 16), 84 * 8);
	for (i = 1; i + 1 < n; i++) {
		uint64_t end = tk_load_be64(idx + 16 + i * 72 + 32);

		assert_int_equal((end - 1010) % 10, 0);
		assert_int_equal(tk_load_be64(idx + 16 + i * 72 + 40), cum[(end - 1010) / 10]);
	}
	assert_int_equal(tk_load_be64(idx + 16 + (n - 1) * 72 + 40), t->lost[0]);
	free(idx);
	check_packets(t, 1, &sum);
	/* an empty packet without losses (so the next one's count is exact), one with them */
	assert_int_equal(sum.packets, 2);
	assert_int_equal(sum.event_bytes, 0);
	check_packets(t, 2, &sum);
	assert_int_equal(sum.packets, 0); /* nothing at all: an empty file */
	tw_read_check(t);
	tw_fini(t);
	free(t);
}

/*
 * A loss between events of one packet ends that packet right there, without padding, so the
 * event after the loss starts the packet that reports it (converters back to trace.dat put
 * the loss before that event).
 */
static void test_discarded_ends_packet(void **state)
{
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tw *t = calloc(1, sizeof(*t));
	struct pk_summary sum;
	uint64_t sc;
	uint8_t *idx;
	size_t c, i, isize;
	char path[300];

	(void) state;
	assert_non_null(t);
	o.packet_size = 4096;
	tw_create(t, "lost-ends", &o);
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), NULL, 0);
	c = tw_class(t, sc, "e", one_int, 1);
	tw_stream(t, sc, 0);
	for (i = 0; i < 10; i++) {
		tw_append(t, 0, c, 1000 + 10 * i);
		if (i == 4)
			tw_lose(t, 0, 7);
	}
	OK(tk_ctf_writer_close(t->w));
	t->w = NULL;
	check_packets(t, 0, &sum);
	assert_int_equal(sum.packets, 2);
	snprintf(path, sizeof(path), "%s/index/%s.idx", t->dir, t->st_name[0]);
	idx = slurp(path, &isize);
	assert_int_equal(isize, 16 + 2 * 72);
	/* first packet: events 0..4, no loss, its size the content (5 events of 4 + 4 bytes) */
	assert_int_equal(tk_load_be64(idx + 16 + 32), 1040);
	assert_int_equal(tk_load_be64(idx + 16 + 40), 0);
	assert_int_equal(tk_load_be64(idx + 16 + 8), (84 + 5 * 8) * 8);
	assert_int_equal(tk_load_be64(idx + 16 + 16), (84 + 5 * 8) * 8);
	/* second: events 5..9 after the loss, padded to the packet size as usual */
	assert_int_equal(tk_load_be64(idx + 16 + 72 + 32), 1090);
	assert_int_equal(tk_load_be64(idx + 16 + 72 + 40), 7);
	assert_int_equal(tk_load_be64(idx + 16 + 72 + 8), 4096 * 8);
	free(idx);
	tw_read_check(t);
	tw_fini(t);
	free(t);
}

static const struct tk_clock *clock_named(const struct tk_source *src, const char *name)
{
	size_t i;

	for (i = 0; i < tk_source_get_clock_count(src); i++)
		if (!strcmp(tk_clock_get_name(tk_source_get_clock(src, i)), name))
			return tk_source_get_clock(src, i);
	print_error("no clock named %s\n", name);
	fail();
	return NULL;
}

/* Environment entries, clock names, offsets and flags, the UUID, as given. */
static void test_env_clocks_and_uuid(void **state)
{
	static const struct {
		const char *key;
		const char *str;
		int64_t v;
	} want_env[] = {
		{"hostname", "box \"one\"\n", 0},
		{"my_key", "caf\xc3\xa9", 0},
		{"_int", "kw", 0},
		{"_9x", "digit", 0},
		{"count", NULL, 42},
		{"min", NULL, INT64_MIN},
	};
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tw *t = calloc(1, sizeof(*t));
	const char *paths[1];
	const struct tk_source *src;
	const struct tk_clock *ck;
	struct tk_trace *trace;
	uint64_t c0, c1, c2, id, sc0, sc1, sc2;
	int64_t off_s;
	uint64_t off_c;
	size_t i, cls0, cls1, cls2;

	(void) state;
	assert_non_null(t);
	o.has_uuid = 1;
	for (i = 0; i < 16; i++)
		o.uuid[i] = (uint8_t) (0xa0 + i);
	tw_create(t, "env", &o);
	OK(tk_ctf_writer_set_env_string(t->w, "hostname", "box \"one\"\n"));
	OK(tk_ctf_writer_set_env_string(t->w, "my-key", "caf\xc3\xa9"));
	OK(tk_ctf_writer_set_env_string(t->w, "int", "kw"));
	OK(tk_ctf_writer_set_env_string(t->w, "9x", "digit"));
	OK(tk_ctf_writer_set_env_int(t->w, "count", -5));
	OK(tk_ctf_writer_set_env_int(t->w, "count", 42)); /* replaces */
	OK(tk_ctf_writer_set_env_int(t->w, "min", INT64_MIN));
	c0 = tw_clock(t, "monotonic", 1000000000, 1700000000, 123);
	c1 = tw_clock(t, "x86-tsc", 1000000, 10, 1500000); /* offset normalized to 11 s */
	c2 = tw_clock(t, "monotonic", 1000000000, -5, 7);  /* renamed monotonic_2 */
	OK(tk_ctf_writer_add_clock(t->w, "int", 1000, 0, 0, "a \"quoted\" description", 0, &id));
	sc0 = tw_sc(t, c0, NULL, 0);
	sc1 = tw_sc(t, c1, NULL, 0);
	sc2 = tw_sc(t, c2, NULL, 0);
	cls0 = tw_class(t, sc0, "ev \"quoted\" \\ name", one_int, 1);
	cls1 = tw_class(t, sc1, "sched:switch", one_int, 1);
	cls2 = tw_class(t, sc2, "e", one_int, 1);
	tw_stream(t, sc0, 0);
	tw_stream(t, sc1, 0);
	tw_stream(t, sc2, 0);
	for (i = 0; i < 30; i++) {
		tw_append(t, 0, cls0, 1000 + i * 1000);
		tw_append(t, 1, cls1, 2000 + i * 3);
		tw_append(t, 2, cls2, 5000000000u + i);
	}
	tw_close_check(t);

	paths[0] = t->dir;
	OK(tk_trace_open(&trace, paths, 1, NULL));
	assert_int_equal(tk_trace_get_source_count(trace), 1);
	src = tk_trace_get_source(trace, 0);
	assert_non_null(tk_source_get_uuid(src));
	assert_memory_equal(tk_source_get_uuid(src), o.uuid, 16);
	assert_string_equal(tk_source_get_format(src), "CTF 1.8");
	assert_int_equal(tk_source_get_env_count(src), ARRAY_SIZE(want_env));
	for (i = 0; i < ARRAY_SIZE(want_env); i++) {
		const char *key, *str;
		int64_t v;

		OK(tk_source_get_env(src, i, &key, &str, &v));
		assert_string_equal(key, want_env[i].key);
		if (want_env[i].str) {
			assert_non_null(str);
			assert_string_equal(str, want_env[i].str);
		} else {
			assert_null(str);
			assert_int_equal(v, want_env[i].v);
		}
	}
	assert_int_equal(tk_source_get_clock_count(src), 4);
	ck = clock_named(src, "monotonic");
	assert_int_equal(tk_clock_get_frequency(ck), 1000000000);
	tk_clock_get_offset(ck, &off_s, &off_c);
	assert_int_equal(off_s, 1700000000);
	assert_int_equal(off_c, 123);
	assert_true(tk_clock_is_absolute(ck));
	ck = clock_named(src, "x86_tsc");
	assert_int_equal(tk_clock_get_frequency(ck), 1000000);
	tk_clock_get_offset(ck, &off_s, &off_c);
	assert_int_equal(off_s, 11);
	assert_int_equal(off_c, 500000);
	ck = clock_named(src, "monotonic_2");
	tk_clock_get_offset(ck, &off_s, &off_c);
	assert_int_equal(off_s, -5);
	assert_int_equal(off_c, 7);
	ck = clock_named(src, "_int");
	assert_false(tk_clock_is_absolute(ck));
	assert_int_equal(tk_clock_get_frequency(ck), 1000);
	assert_string_equal(ck->description, "a \"quoted\" description");
	tk_trace_close(trace);
	tw_fini(t);
	free(t);
}

/* Names that are keywords, not identifiers, start with _ or a digit, or repeat. */
/*
 * Environment strings come back byte for byte: every byte from 1 to 255 (control bytes,
 * quotes, backslashes, bytes that are not UTF-8), and a multi-line ftrace format text with
 * tabs, quoted strings and escapes written as two characters, as the conversion from
 * trace.dat keeps them.
 */
static void test_env_every_byte(void **state)
{
	static const char format[] =
		"name: sched_switch\nID: 372\nformat:\n"
		"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n\n"
		"print fmt: \"prev_comm=%s \\\"x\\\" %s\\n\", REC->prev_comm, "
		"__print_flags(REC->prev_state & ((((0x00000400 << 1) - 1) << 1) | 1), \"|\", "
		"{ 0x00000001, \"S\" })\n";
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tw *t = calloc(1, sizeof(*t));
	char every[256];
	const char *paths[1];
	const struct tk_source *src;
	struct tk_trace *trace;
	size_t i, found = 0;
	uint64_t sc;

	(void) state;
	assert_non_null(t);
	for (i = 0; i < 255; i++)
		every[i] = (char) (i + 1);
	every[255] = '\0';
	tw_create(t, "env-bytes", &o);
	OK(tk_ctf_writer_set_env_string(t->w, "every", every));
	OK(tk_ctf_writer_set_env_string(t->w, "ftrace_event_372_format", format));
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), NULL, 0);
	tw_class(t, sc, "e", one_int, 1);
	tw_stream(t, sc, 0);
	tw_append(t, 0, 0, 10);
	tw_close_check(t);
	paths[0] = t->dir;
	OK(tk_trace_open(&trace, paths, 1, NULL));
	src = tk_trace_get_source(trace, 0);
	for (i = 0; i < tk_source_get_env_count(src); i++) {
		const char *key, *str;
		int64_t v;

		OK(tk_source_get_env(src, i, &key, &str, &v));
		if (!strcmp(key, "every")) {
			assert_non_null(str);
			assert_int_equal(strlen(str), 255);
			assert_memory_equal(str, every, 256);
			found++;
		} else if (!strcmp(key, "ftrace_event_372_format")) {
			assert_non_null(str);
			assert_string_equal(str, format);
			found++;
		}
	}
	assert_int_equal(found, 2);
	tk_trace_close(trace);
	tw_fini(t);
	free(t);
}

static void test_field_names_are_escaped(void **state)
{
	static const struct tk_ctf_field_decl d[] = {
		INT_F("int", 8, 0, 0),
		INT_F("my field", 8, 0, 0),
		INT_F("9lives", 8, 0, 0),
		INT_F("_under", 8, 0, 0),
		INT_F("Bool", 8, 0, 0),
		INT_F("a-b", 8, 0, 0),
		INT_F("a_b", 8, 0, 0),
		INT_F("_data_length", 8, 0, 0),
		SEQ_F("data", TK_CTF_FIELD_KIND_INT, 8, 0),
		INT_F("\xc3\xa9t\xc3\xa9", 8, 0, 0),
	};
	static const char *const shown[] = {
		"int",	 "my_field",	 "9lives",	   "_under", "Bool",  "a_b",
		"a_b_2", "_data_length", "_data_length_2", "data",   "__t__",
	};
	static const char *const written[] = {
		"_int",	  "_my_field",	   "_9lives",	      "__under", "Bool",   "_a_b",
		"_a_b_2", "__data_length", "__data_length_2", "_data",	 "___t__",
	};
	struct tk_ctf_value v[ARRAY_SIZE(d)];
	uint8_t bytes[3] = {7, 8, 9};
	struct tk_ctf_writer *w;
	struct tk_ctf_writer_stream *s;
	const struct tk_event *ev;
	const struct model_fc *pl;
	const struct model_value *mv;
	struct tk_trace *trace;
	struct tk_iter *it;
	char dir[256];
	const char *paths[1] = {dir};
	uint64_t clk, sc, ec;
	size_t i;

	(void) state;
	memset(v, 0, sizeof(v));
	for (i = 0; i < ARRAY_SIZE(d); i++)
		v[i].v.u = 10 + i;
	v[8].data = bytes;
	v[8].len = 3;
	snprintf(dir, sizeof(dir), "%s/names", ctfw_tmpdir);
	OK(tk_ctf_writer_create(&w, dir, NULL));
	OK(tk_ctf_writer_add_clock(w, "c", 1000000000, 0, 0, NULL, 0, &clk));
	OK(tk_ctf_writer_add_stream_class(w, clk, &sc));
	OK(tk_ctf_writer_add_event_class(w, sc, "names", 3, d, ARRAY_SIZE(d), &ec));
	OK(tk_ctf_writer_add_stream(w, sc, 0, &s));
	OK(tk_ctf_writer_append(w, s, ec, 5, NULL, v));
	OK(tk_ctf_writer_close(w));

	OK(tk_trace_open(&trace, paths, 1, NULL));
	OK(tk_iter_create(&it, trace));
	OK(tk_iter_next(it, &ev));
	OK(model_event_values(ev));
	assert_true(ev->ec->has_loglevel);
	assert_int_equal(ev->ec->loglevel, 3);
	pl = ev->ec->payload;
	assert_int_equal(pl->u.st.count, ARRAY_SIZE(shown));
	mv = ev->scope[MODEL_SCOPE_PAYLOAD];
	for (i = 0; i < ARRAY_SIZE(shown); i++) {
		assert_string_equal(pl->u.st.members[i].name, shown[i]);
		assert_string_equal(pl->u.st.members[i].orig_name, written[i]);
	}
	/* values: 10..17, then the length 3, the sequence 7 8 9, then 19 */
	for (i = 0; i < 8; i++)
		assert_int_equal(mv[i].v.u, 10 + i);
	assert_int_equal(mv[8].v.u, 3);
	assert_int_equal(mv[9].n, 3);
	assert_int_equal(mv[10].v.u, 7);
	assert_int_equal(mv[11].v.u, 8);
	assert_int_equal(mv[12].v.u, 9);
	assert_int_equal(mv[13].v.u, 19);
	assert_int_equal(tk_iter_next(it, &ev), TK_END);
	tk_iter_destroy(it);
	tk_trace_close(trace);
}

/* Strings cut at a NUL, empty strings, short text arrays, empty sequences and arrays. */
static void test_short_and_empty_values(void **state)
{
	static const struct tk_ctf_field_decl d[] = {
		{.name = "s", .kind = TK_CTF_FIELD_KIND_STRING},
		ARR_F("comm", TK_CTF_FIELD_KIND_CHAR, 0, 0, 8),
		SEQ_F("q", TK_CTF_FIELD_KIND_CHAR, 0, 0),
		ARR_F("a", TK_CTF_FIELD_KIND_INT, 16, 1, 4),
		SEQ_F("n", TK_CTF_FIELD_KIND_INT, 64, 0),
	};
	static const int16_t a2[2] = {-1, 300};
	static struct tk_ctf_value v[4][5];
	struct tw *t = calloc(1, sizeof(*t));
	uint64_t sc;
	size_t c, i;

	(void) state;
	assert_non_null(t);
	memset(v, 0, sizeof(v));
	v[0][0].data = "ab\0cd"; /* read back as "ab" */
	v[0][0].len = 5;
	v[0][1].data = "bash";
	v[0][1].len = 4;
	v[0][2].data = "x\0y";
	v[0][2].len = 3;
	v[0][3].data = a2;
	v[0][3].len = 2;
	v[1][1].data = "exactly8";
	v[1][1].len = 8;
	v[2][0].data = "";
	v[2][0].len = 0;
	v[3][0].data = "no NUL here, and not all of it";
	v[3][0].len = 12;
	tw_create(t, "short", NULL);
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), NULL, 0);
	c = tw_class(t, sc, "e", d, ARRAY_SIZE(d));
	tw_stream(t, sc, 0);
	for (i = 0; i < 4; i++)
		tw_append_values(t, 0, c, 100 + i, v[i]);
	tw_close_check(t);
	tw_fini(t);
	free(t);
}

/* Misuse fails with TK_ERR_INVAL and a cause, and writes nothing. */
static void test_misuse_is_refused(void **state)
{
	static const struct tk_ctf_field_decl bad[][1] = {
		{INT_F("zero", 0, 0, 0)},
		{INT_F("wide", 65, 0, 0)},
		{INT_F("base", 32, 0, 3)},
		{{.name = "half", .kind = TK_CTF_FIELD_KIND_FLOAT, .bits = 16}},
		{{.name = "nokind", .bits = 32}},
		{{.name = "chr", .kind = TK_CTF_FIELD_KIND_CHAR}},
		{ARR_F("strs", TK_CTF_FIELD_KIND_STRING, 8, 0, 2)},
		{ARR_F("wide", TK_CTF_FIELD_KIND_INT, 65, 0, 2)},
		{ARR_F("huge", TK_CTF_FIELD_KIND_INT, 8, 0, UINT64_C(1) << 33)},
		{SEQ_F("nobits", TK_CTF_FIELD_KIND_INT, 0, 0)},
		{INT_F("", 8, 0, 0)},
		{INT_F(NULL, 8, 0, 0)},
	};
	static const struct tk_ctf_field_decl arr[] = {ARR_F("a", TK_CTF_FIELD_KIND_INT, 8, 0, 2)};
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tw *t = calloc(1, sizeof(*t));
	struct tk_ctf_writer *w2;
	struct tk_ctf_value v[1];
	uint8_t three[3] = {1, 2, 3};
	uint64_t sc, id;
	size_t c, a, i;
	char path[300];
	int fd;

	(void) state;
	assert_non_null(t);
	/* options and directories */
	snprintf(path, sizeof(path), "%s/misuse", ctfw_tmpdir);
	o.packet_size = TK_CTF_WRITER_MIN_PACKET_SIZE - 1;
	INVAL(tk_ctf_writer_create(&w2, path, &o));
	o = (struct tk_ctf_writer_opts) TK_CTF_WRITER_OPTS_INIT;
	o.byte_order = 7;
	INVAL(tk_ctf_writer_create(&w2, path, &o));
	tw_create(t, "misuse", NULL);
	INVAL(tk_ctf_writer_create(&w2, t->dir, NULL)); /* exists, not empty (index/) */
	snprintf(path, sizeof(path), "%s/a-file", ctfw_tmpdir);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_true(tk_ctf_writer_create(&w2, path, NULL) < 0);
	unlink(path);

	/* declarations */
	INVAL(tk_ctf_writer_add_clock(t->w, "c", 0, 0, 0, NULL, 0, &id));
	INVAL(tk_ctf_writer_add_clock(t->w, "", 10, 0, 0, NULL, 0, &id));
	INVAL(tk_ctf_writer_add_stream_class(t->w, 0, &id)); /* no clock yet */
	INVAL(tk_ctf_writer_set_env_string(t->w, "", "x"));
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), NULL, 0);
	INVAL(tk_ctf_writer_add_stream_class(t->w, 5, &id));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		INVAL(tk_ctf_writer_add_event_class(t->w, sc, "bad", -1, bad[i], 1, &id));
		INVAL(tk_ctf_writer_set_event_context(t->w, sc, bad[i], 1));
	}
	INVAL(tk_ctf_writer_add_event_class(t->w, sc + 1, "e", -1, one_int, 1, &id));
	INVAL(tk_ctf_writer_set_event_context(t->w, sc + 1, one_int, 1));
	INVAL(tk_ctf_writer_add_stream(t->w, sc + 1, 0, &t->st[0]));
	c = tw_class(t, sc, "e", one_int, 1);
	a = tw_class(t, sc, "arr", arr, 1);
	tw_stream(t, sc, 0);

	/* events */
	memset(v, 0, sizeof(v));
	tw_append(t, 0, c, 1000);
	INVAL(tk_ctf_writer_append(t->w, t->st[0], 99, 2000, NULL, v));		 /* no such class */
	INVAL(tk_ctf_writer_append(t->w, t->st[0], t->cls[c].id, 999, NULL, v)); /* goes back */
	INVAL(tk_ctf_writer_append(t->w, t->st[0], t->cls[c].id, 2000, NULL, NULL));
	v[0].data = three;
	v[0].len = 3; /* more than the array holds */
	INVAL(tk_ctf_writer_append(t->w, t->st[0], t->cls[a].id, 2000, NULL, v));
	v[0].data = NULL;
	v[0].len = 1; /* no data */
	INVAL(tk_ctf_writer_append(t->w, t->st[0], t->cls[a].id, 2000, NULL, v));
	/* the stream class has events: its context is fixed now */
	INVAL(tk_ctf_writer_set_event_context(t->w, sc, common, 1));
	/* nothing of the refused events was written: the next good ones read back alone */
	tw_append(t, 0, c, 1000);
	tw_append(t, 0, a, 1001);
	tw_close_check(t);
	/* NULL is accepted by the release functions */
	assert_int_equal(tk_ctf_writer_close(NULL), TK_OK);
	tk_ctf_writer_destroy(NULL);
	tw_fini(t);
	free(t);
}

/* Defaults: host order, 256 KiB packets, index files, a random version 4 UUID. */
static void test_defaults(void **state)
{
	struct tw *t = calloc(1, sizeof(*t));
	struct pk_summary sum;
	const char *paths[1];
	const struct tk_source *src;
	struct tk_trace *trace;
	const uint8_t *u;
	char path[300];
	uint8_t *text;
	size_t len, c, i;
	uint64_t sc;

	(void) state;
	assert_non_null(t);
	tw_create(t, "defaults/nested", NULL); /* missing parents are made */
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), NULL, 0);
	c = tw_class(t, sc, "e", all_kinds, ARRAY_SIZE(all_kinds));
	tw_stream(t, sc, 0);
	for (i = 0; i < 100; i++)
		tw_append(t, 0, c, i * 1000);
	OK(tk_ctf_writer_close(t->w));
	check_packets(t, 0, &sum);
	assert_int_equal(sum.packets, 1);
	assert_int_equal(sum.max_packet, TK_CTF_WRITER_DEFAULT_PACKET_SIZE);
	tw_read_check(t);
	snprintf(path, sizeof(path), "%s/metadata", t->dir);
	text = slurp(path, &len);
	text[len] = 0;
	assert_true(!strncmp((const char *) text, "/* CTF 1.8 */\n", 14));
	free(text);
	paths[0] = t->dir;
	OK(tk_trace_open(&trace, paths, 1, NULL));
	src = tk_trace_get_source(trace, 0);
	u = tk_source_get_uuid(src);
	assert_non_null(u);
	assert_int_equal(u[6] >> 4, 4);
	assert_int_equal(u[8] >> 6, 2);
	tk_trace_close(trace);
	tw_fini(t);
	free(t);
}

/* A destroyed writer leaves no metadata: the directory is not a trace. */
static void test_destroy_does_not_finish(void **state)
{
	struct tw *t = calloc(1, sizeof(*t));
	const char *paths[1];
	struct tk_trace *trace;
	char path[300];
	uint64_t sc;
	size_t c;

	(void) state;
	assert_non_null(t);
	tw_create(t, "destroyed", NULL);
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), NULL, 0);
	c = tw_class(t, sc, "e", one_int, 1);
	tw_stream(t, sc, 0);
	tw_append(t, 0, c, 1);
	tk_ctf_writer_destroy(t->w);
	snprintf(path, sizeof(path), "%s/metadata", t->dir);
	assert_int_equal(access(path, F_OK), -1);
	paths[0] = t->dir;
	assert_true(tk_trace_open(&trace, paths, 1, NULL) < 0);
	tw_fini(t);
	free(t);
}

/* No index files when asked not to write them; the trace still reads. */
static void test_without_index(void **state)
{
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tw *t = calloc(1, sizeof(*t));
	char path[300];
	uint64_t sc;
	size_t c, i;

	(void) state;
	assert_non_null(t);
	o.write_index = 0;
	o.packet_size = 200;
	tw_create(t, "no-index", &o);
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), common, ARRAY_SIZE(common));
	c = tw_class(t, sc, "e", all_kinds, ARRAY_SIZE(all_kinds));
	tw_stream(t, sc, 0);
	for (i = 0; i < 100; i++)
		tw_append(t, 0, c, i << 20);
	OK(tk_ctf_writer_close(t->w));
	snprintf(path, sizeof(path), "%s/index", t->dir);
	assert_int_equal(access(path, F_OK), -1);
	tw_read_check(t);
	tw_fini(t);
	free(t);
}

/* ---- nested declarations, classes without a clock, packet contexts, loss ranges ---------- */

#define LABEL_U(l, a, b)                                                                           \
	{                                                                                          \
		.label = (l), .lo = {.u = (a)}, .hi = {.u = (b) }                                  \
	}
#define LABEL_S(l, a, b)                                                                           \
	{                                                                                          \
		.label = (l), .lo = {.i = (a)}, .hi = {.i = (b) }                                  \
	}
#define STRUCT_F(nm, m)                                                                            \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_STRUCT, .members = (m),                    \
		.n_members = ARRAY_SIZE(m)                                                         \
	}

static const struct tk_ctf_enum_label color_labels[] = {
	LABEL_U("RED", 0, 0),
	LABEL_U("GREEN", 1, 1),
	LABEL_U("BLUE: 2 to 9", 2, 9),
	LABEL_U("GREEN", 20, 22), /* a second range of a label */
	LABEL_U("odd \"quoted\" \\ label", 30, 30),
};
static const struct tk_ctf_enum_label signed_labels[] = {
	LABEL_S("NEG", -100, -1),
	LABEL_S("ZERO", 0, 0),
	LABEL_S("POS", 1, 1000),
};
static const struct tk_ctf_enum_label tag_labels[] = {
	LABEL_U("str", 0, 0),	 LABEL_U("num", 1, 3),	  LABEL_U("pair", 4, 4),
	LABEL_U("none", 5, 5),	 LABEL_U("nested", 6, 6), LABEL_U("_align", 7, 7),
	LABEL_U("unused", 8, 8),
};

#define COLOR_F(nm)                                                                                \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_ENUM, .bits = 8, .base = 16,               \
		.labels = color_labels, .n_labels = ARRAY_SIZE(color_labels)                       \
	}
#define TAG_F(nm)                                                                                  \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_ENUM, .bits = 8, .labels = tag_labels,     \
		.n_labels = ARRAY_SIZE(tag_labels)                                                 \
	}

static const struct tk_ctf_field_decl u16_elem = INT_F(NULL, 16, 0, 16);
static const struct tk_ctf_field_decl pair_members[] = {
	INT_F("a", 16, 0, 0),
	{.name = "b", .kind = TK_CTF_FIELD_KIND_FLOAT, .bits = 32},
};
static const struct tk_ctf_field_decl nested_members[] = {
	INT_F("n", 8, 0, 0),
	{.name = "w", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "n", .elem = &u16_elem},
};
/* options named as the tag's labels; "_align" is a keyword once read without "_" */
static const struct tk_ctf_field_decl options[] = {
	{.name = "str", .kind = TK_CTF_FIELD_KIND_STRING},
	INT_F("num", 32, 1, 0),
	{.name = "pair", .kind = TK_CTF_FIELD_KIND_STRUCT, .members = pair_members, .n_members = 2},
	{.name = "none", .kind = TK_CTF_FIELD_KIND_STRUCT},
	{.name = "nested",
	 .kind = TK_CTF_FIELD_KIND_STRUCT,
	 .members = nested_members,
	 .n_members = 2},
	INT_F("_align", 3, 1, 0),
};
static const struct tk_ctf_field_decl inner_empty[] = {
	INT_F("x", 32, 1, 0),
	INT_F("y", 64, 1, 0),
	{.name = "inner", .kind = TK_CTF_FIELD_KIND_STRUCT},
	{.name = "f", .kind = TK_CTF_FIELD_KIND_FLOAT, .bits = 64},
};
static const struct tk_ctf_field_decl bit_elem = INT_F(NULL, 1, 0, 0);
static const struct tk_ctf_field_decl s12_elem = INT_F(NULL, 12, 1, 0);
static const struct tk_ctf_field_decl row_elem = {
	.kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 3, .elem = &s12_elem};
static const struct tk_ctf_field_decl color_elem = COLOR_F(NULL);
static const struct tk_ctf_field_decl char_elem = {.kind = TK_CTF_FIELD_KIND_CHAR};
static const struct tk_ctf_field_decl name_elem = {
	.kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "len", .elem = &char_elem};
static const struct tk_ctf_field_decl pt_members[] = {
	INT_F("a", 8, 0, 0),
	{.name = "s", .kind = TK_CTF_FIELD_KIND_STRING},
};
static const struct tk_ctf_field_decl pt_elem = {
	.kind = TK_CTF_FIELD_KIND_STRUCT, .members = pt_members, .n_members = 2};
static const struct tk_ctf_field_decl item_members[] = {
	INT_F("k", 8, 0, 0),
	TAG_F("t"),
	{.name = "v",
	 .kind = TK_CTF_FIELD_KIND_VARIANT,
	 .ref = "t",
	 .members = options,
	 .n_members = ARRAY_SIZE(options)},
};
static const struct tk_ctf_field_decl item_elem = {
	.kind = TK_CTF_FIELD_KIND_STRUCT, .members = item_members, .n_members = 3};

/* Every kind, nested every way the writer allows. */
static const struct tk_ctf_field_decl nested_payload_members[] = {
	INT_F("len", 8, 0, 0),
	COLOR_F("color"),
	{.name = "sgn",
	 .kind = TK_CTF_FIELD_KIND_ENUM,
	 .bits = 16,
	 .is_signed = 1,
	 .labels = signed_labels,
	 .n_labels = ARRAY_SIZE(signed_labels)},
	STRUCT_F("pt", inner_empty),
	{.name = "empty", .kind = TK_CTF_FIELD_KIND_STRUCT},
	TAG_F("tag"),
	{.name = "v",
	 .kind = TK_CTF_FIELD_KIND_VARIANT,
	 .ref = "tag",
	 .members = options,
	 .n_members = ARRAY_SIZE(options)},
	{.name = "bytes", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "len", .elem = &u16_elem},
	{.name = "text", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "len", .elem = &char_elem},
	{.name = "bits", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 192, .elem = &bit_elem},
	{.name = "pts", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 3, .elem = &pt_elem},
	{.name = "grid", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 2, .elem = &row_elem},
	{.name = "colors", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 2, .elem = &color_elem},
	{.name = "items", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .elem = &item_elem},
	{.name = "names", .kind = TK_CTF_FIELD_KIND_ARRAY, .array_len = 2, .elem = &name_elem},
	INT_F("tail", 12, 0, 16), /* ends inside a byte: so does the packet content */
};
static const struct tk_ctf_field_decl nested_payload = STRUCT_F(NULL, nested_payload_members);
static const struct tk_ctf_field_decl ec_ctx_members[] = {
	INT_F("vpid", 32, 1, 0),
	INT_F("ip", 64, 0, 16),
};
static const struct tk_ctf_field_decl ec_ctx = STRUCT_F(NULL, ec_ctx_members);
static const struct tk_ctf_field_decl sc_ctx_members[] = {INT_F("tid", 32, 1, 0)};
static const struct tk_ctf_field_decl sc_ctx = STRUCT_F(NULL, sc_ctx_members);
static const struct tk_ctf_field_decl pctx_members[] = {
	INT_F("cpu_id", 32, 0, 0),
	{.name = "host", .kind = TK_CTF_FIELD_KIND_STRING},
	COLOR_F("mode"),
	INT_F("packet_size", 16, 0, 0), /* the writer's own name: renamed packet_size_2 */
};
static const struct tk_ctf_field_decl pctx = STRUCT_F(NULL, pctx_members);
static const struct tk_ctf_field_decl empty_scope = {.kind = TK_CTF_FIELD_KIND_STRUCT};

/* The member of a structure shown as @name, with its value (the structure's values @v). */
static const struct model_value *pctx_value(const struct tk_event *ev, const char *name,
					    const struct model_fc **fc)
{
	const struct model_fc *pc = ev->stream->sc->packet_context;
	const struct model_value *v = ev->scope[MODEL_SCOPE_PACKET_CONTEXT];
	uint32_t i;

	for (i = 0; i < pc->u.st.count; i++) {
		*fc = pc->u.st.members[i].fc;
		if (!strcmp(pc->u.st.members[i].name, name))
			return v;
		v += (*fc)->kind == MODEL_FC_STRUCT ? 0 : 1; /* scalars and strings only here */
	}
	print_error("no packet-context member %s\n", name);
	fail();
	return NULL;
}

/*
 * Nested kinds through the reader: every declaration kind inside structures, variants,
 * arrays and sequences, in three scopes and a packet context of the caller's fields, both
 * byte orders and packets small enough that events span many of them; each event read back
 * value for value by an oracle that walks the reader's field classes (ctf-write-oracle.c).
 */
static void run_nested(enum tk_ctf_byte_order order, const char *name)
{
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ctf_stream_class_desc scd = TK_CTF_STREAM_CLASS_DESC_INIT;
	struct tk_ctf_event_class_desc ecd = TK_CTF_EVENT_CLASS_DESC_INIT;
	struct tk_ctf_stream_desc sd = TK_CTF_STREAM_DESC_INIT;
	static struct vgen g;
	struct tk_ctf_writer_stream *s[2];
	struct tk_ctf_value pv[4];
	struct tk_ctf_writer *w;
	struct tk_trace *trace;
	struct tk_iter *it;
	const struct tk_event *ev;
	uint64_t clk, sc, ec, ec_empty, ts = 1000, times[300];
	size_t i, count = 0;
	char dir[256];
	const char *paths[1] = {dir};
	const char *hosts[2] = {"alpha", "beta \"b\""};
	enum tk_status st;

	snprintf(dir, sizeof(dir), "%s/%s", ctfw_tmpdir, name);
	g.tags = tag_labels;
	o.byte_order = order;
	o.packet_size = 512;
	OK(tk_ctf_writer_create(&w, dir, &o));
	OK(tk_ctf_writer_add_clock(w, "c", 1000000000, 0, 0, NULL, 0, &clk));
	scd.clock_id = clk;
	scd.has_cpu_id = 0;
	scd.packet_context = &pctx;
	scd.event_context = &sc_ctx;
	OK(tk_ctf_writer_add_stream_class_desc(w, &scd, &sc));
	ecd.name = "nested";
	ecd.context = &ec_ctx;
	ecd.payload = &nested_payload;
	ecd.emf_uri = "https://example.org/emf";
	OK(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &ec));
	ecd = (struct tk_ctf_event_class_desc) TK_CTF_EVENT_CLASS_DESC_INIT;
	ecd.name = "empty";
	ecd.payload = &empty_scope;
	OK(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &ec_empty));
	for (i = 0; i < 2; i++) {
		sd.has_id = 1;
		sd.id = 40 + i;
		sd.name = i ? "second" : "first";
		OK(tk_ctf_writer_add_stream_desc(w, sc, &sd, &s[i]));
	}
	for (i = 0; i < 300; i++) {
		size_t k = i % 2;

		vgen_reset(&g);
		if (i % 50 < 2) { /* the packet context changes now and then */
			memset(pv, 0, sizeof(pv));
			pv[0].v.u = (uint32_t) (k + 10 * (i / 50));
			pv[1].data = hosts[k];
			pv[1].len = strlen(hosts[k]);
			pv[2].v.u = i / 50;
			pv[3].v.u = 7;
			OK(tk_ctf_writer_set_packet_context(w, s[k], pv));
		}
		ts += 1 + (i * 7919) % 100000; /* strictly later: read back in this order */
		times[i] = ts;
		if (i % 10 == 9) {
			OK(tk_ctf_writer_append_scopes(w, s[k], ec_empty, ts,
						       vgen_scope(&g, &sc_ctx, i), NULL, NULL));
			continue;
		}
		OK(tk_ctf_writer_append_scopes(w, s[k], ec, ts, vgen_scope(&g, &sc_ctx, i),
					       vgen_scope(&g, &ec_ctx, i + 1000),
					       vgen_scope(&g, &nested_payload, i + 2000)));
	}
	OK(tk_ctf_writer_close(w));

	OK(tk_trace_open(&trace, paths, 1, NULL));
	OK(tk_iter_create(&it, trace));
	while ((st = tk_iter_next(it, &ev)) == TK_OK) {
		const struct model_fc *fc;
		const struct model_value *v;
		uint64_t cpu;

		i = count++;
		vgen_reset(&g);
		OK(model_event_values(ev));
		assert_true(i < 300);
		assert_int_equal(tk_event_get_clock_value(ev), times[i]);
		assert_int_equal(tk_stream_get_id(ev->stream), 40 + i % 2);
		assert_non_null(
			strstr(tk_stream_get_path(ev->stream), i % 2 ? "/second" : "/first"));
		check_scope(ev->stream->sc->event_context,
			    ev->scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT], &sc_ctx,
			    vgen_scope(&g, &sc_ctx, i));
		if (i % 10 == 9) {
			assert_string_equal(ev->ec->name, "empty");
			assert_non_null(ev->ec->payload); /* present, empty: shown as { } */
			assert_int_equal(ev->ec->payload->u.st.count, 0);
			assert_null(ev->ec->context);
		} else {
			assert_string_equal(ev->ec->emf_uri, "https://example.org/emf");
			check_scope(ev->ec->context, ev->scope[MODEL_SCOPE_EVENT_CONTEXT], &ec_ctx,
				    vgen_scope(&g, &ec_ctx, i + 1000));
			check_scope(ev->ec->payload, ev->scope[MODEL_SCOPE_PAYLOAD],
				    &nested_payload, vgen_scope(&g, &nested_payload, i + 2000));
		}
		/* the packet context: the caller's fields shown, the writer's hidden */
		v = pctx_value(ev, "cpu_id", &fc);
		assert_true(fc->in_ir);
		cpu = v->v.u;
		assert_int_equal(cpu % 10, tk_stream_get_id(ev->stream) - 40);
		assert_int_equal(cpu / 10, i / 50);
		v = pctx_value(ev, "host", &fc);
		assert_true(fc->in_ir);
		assert_string_equal(v->v.s, hosts[cpu % 10]);
		v = pctx_value(ev, "mode", &fc);
		assert_int_equal(fc->kind, MODEL_FC_ENUM);
		assert_int_equal(v->v.u, i / 50);
		v = pctx_value(ev, "packet_size_2", &fc);
		assert_true(fc->in_ir);
		assert_int_equal(v->v.u, 7);
		pctx_value(ev, "packet_size", &fc);
		assert_false(fc->in_ir);
		pctx_value(ev, "timestamp_begin", &fc);
		assert_false(fc->in_ir);
	}
	assert_int_equal(st, TK_END);
	assert_int_equal(count, 300);
	tk_iter_destroy(it);
	tk_trace_close(trace);
}

static void test_nested_kinds_little_endian(void **state)
{
	(void) state;
	run_nested(TK_CTF_BYTE_ORDER_LE, "nested-le");
}

static void test_nested_kinds_big_endian(void **state)
{
	(void) state;
	run_nested(TK_CTF_BYTE_ORDER_BE, "nested-be");
}

/*
 * The bytes of a trace without a UUID and a stream class without a clock, against the layout
 * tk_ctf_writer.h documents, worked out here by hand: a 16-byte packet header, a packet
 * context of content_size, packet_size, packet_seq_num, events_discarded and the caller's
 * field, events of a 32-bit id and their payload, the content ending at the last bit of the
 * last field. IDs and the file name are the ones given.
 */
static void test_clockless_bytes(void **state)
{
	static const struct tk_ctf_enum_label ab[] = {LABEL_U("A", 0, 0), LABEL_U("B", 1, 1)};
	static const struct tk_ctf_field_decl u8e = INT_F(NULL, 8, 0, 16);
	static const struct tk_ctf_field_decl opts[] = {
		{.name = "A", .kind = TK_CTF_FIELD_KIND_STRING},
		INT_F("B", 16, 0, 0),
	};
	static const struct tk_ctf_field_decl m[] = {
		{.name = "e",
		 .kind = TK_CTF_FIELD_KIND_ENUM,
		 .bits = 8,
		 .labels = ab,
		 .n_labels = 2},
		{.name = "v",
		 .kind = TK_CTF_FIELD_KIND_VARIANT,
		 .ref = "e",
		 .members = opts,
		 .n_members = 2},
		INT_F("n", 8, 0, 0),
		{.name = "q", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "n", .elem = &u8e},
		{.name = "s", .kind = TK_CTF_FIELD_KIND_STRUCT},
		INT_F("t", 4, 0, 0),
	};
	static const struct tk_ctf_field_decl payload = STRUCT_F(NULL, m);
	static const struct tk_ctf_field_decl pm[] = {INT_F("p", 8, 0, 0)};
	static const struct tk_ctf_field_decl pc = STRUCT_F(NULL, pm);
	/* e = B, v = B: 0x1234, n = 2, q = AA BB, s = nothing, t = 5 */
	static const struct tk_ctf_value vals[] = {
		{.v.u = 1}, {.len = 1},	   {.v.u = 0x1234}, {.v.u = 2},
		{.len = 2}, {.v.u = 0xAA}, {.v.u = 0xBB},   {.v.u = 5},
	};
	static const struct tk_ctf_value pvals[] = {{.v.u = 0x7F}};
	/* one row per field */
	/* clang-format off */
	static const uint8_t want[] = {
		0xC1, 0x1F, 0xFC, 0xC1,					/* magic */
		3, 0, 0, 0,						/* stream_id */
		5, 0, 0, 0, 0, 0, 0, 0,					/* stream_instance_id */
		(60 * 8 - 4) & 0xff, (60 * 8 - 4) >> 8, 0, 0, 0, 0, 0, 0, /* content_size */
		0, 4, 0, 0, 0, 0, 0, 0,					/* packet_size: 1024 bits */
		0, 0, 0, 0, 0, 0, 0, 0,					/* packet_seq_num */
		0, 0, 0, 0, 0, 0, 0, 0,					/* events_discarded */
		0x7F,							/* p */
		9, 0, 0, 0,						/* event header: id */
		1, 0x34, 0x12, 2, 0xAA, 0xBB, 5,			/* e, v, n, q, t */
	};
	/* clang-format on */
	/* the TSDL of that layout (CTF 1.8.3 section 7): names with their "_", references by
	   written name, the tag's labels quoted with their values */
	static const char *const want_tsdl[] = {
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint32_t stream_id;\n"
		"\t\tuint64_t stream_instance_id;\n\t};",
		"\tpacket.context := struct {\n\t\tuint64_t content_size;\n"
		"\t\tuint64_t packet_size;\n\t\tuint64_t packet_seq_num;\n"
		"\t\tuint64_t events_discarded;\n"
		"\t\tinteger { size = 8; align = 8; signed = false; } _p;\n\t};",
		"\tevent.header := struct {\n\t\tuint32_t id;\n\t};",
		"\tid = 9;\n\tstream_id = 3;\n\tloglevel = 2;\n",
		"\"A\" = 0,",
		"\"B\" = 1,",
		"} _e;",
		"variant <_e> {",
		"string A;",
		"integer { size = 16; align = 8; signed = false; } B;",
		"} _v;",
		"integer { size = 8; align = 8; signed = false; base = 16; } _q[_n];",
		"} _s;",
		"integer { size = 4; align = 8; signed = false; } _t;",
	};
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ctf_stream_class_desc scd = TK_CTF_STREAM_CLASS_DESC_INIT;
	struct tk_ctf_event_class_desc ecd = TK_CTF_EVENT_CLASS_DESC_INIT;
	struct tk_ctf_stream_desc sd = TK_CTF_STREAM_DESC_INIT;
	struct tk_ctf_writer_stream *st;
	struct tk_ctf_writer *w;
	struct tk_trace *trace;
	struct tk_iter *it;
	const struct tk_event *ev;
	const struct tk_source *src;
	uint64_t sc, ec;
	uint8_t *data, *text;
	size_t size, i;
	char dir[256], path[300];
	const char *paths[1] = {dir};

	(void) state;
	snprintf(dir, sizeof(dir), "%s/clockless", ctfw_tmpdir);
	o.byte_order = TK_CTF_BYTE_ORDER_LE;
	o.packet_size = 128;
	o.no_uuid = 1;
	OK(tk_ctf_writer_create(&w, dir, &o));
	scd.has_id = 1;
	scd.id = 3;
	scd.has_cpu_id = 0;
	scd.packet_context = &pc;
	OK(tk_ctf_writer_add_stream_class_desc(w, &scd, &sc));
	assert_int_equal(sc, 3);
	ecd.name = "ev";
	ecd.has_id = 1;
	ecd.id = 9;
	ecd.loglevel = 2;
	ecd.payload = &payload;
	OK(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &ec));
	assert_int_equal(ec, 9);
	sd.has_id = 1;
	sd.id = 5;
	sd.name = "mystream";
	OK(tk_ctf_writer_add_stream_desc(w, sc, &sd, &st));
	OK(tk_ctf_writer_set_packet_context(w, st, pvals));
	OK(tk_ctf_writer_append_scopes(w, st, ec, 12345, NULL, NULL, vals));
	OK(tk_ctf_writer_close(w));

	snprintf(path, sizeof(path), "%s/mystream", dir);
	data = slurp(path, &size);
	assert_int_equal(size, 128);
	assert_memory_equal(data, want, sizeof(want));
	for (i = sizeof(want); i < size; i++)
		assert_int_equal(data[i], 0);
	free(data);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	text = slurp(path, &size);
	text[size] = 0;
	assert_null(strstr((const char *) text, "uuid"));      /* no UUID anywhere */
	assert_null(strstr((const char *) text, "timestamp")); /* nor times */
	for (i = 0; i < ARRAY_SIZE(want_tsdl); i++)
		if (!strstr((const char *) text, want_tsdl[i])) {
			print_error("metadata lacks: %s\n", want_tsdl[i]);
			fail();
		}
	free(text);

	/* and the reader agrees: no time, the values given, the IDs given */
	OK(tk_trace_open(&trace, paths, 1, NULL));
	src = tk_trace_get_source(trace, 0);
	assert_null(tk_source_get_uuid(src));
	OK(tk_iter_create(&it, trace));
	OK(tk_iter_next(it, &ev));
	OK(model_event_values(ev));
	assert_false(tk_event_has_timestamp(ev));
	assert_int_equal(tk_stream_get_class_id(ev->stream), 3);
	/* readers number streams without times themselves (babeltrace2 too): its ID is in the
	   packet header above */
	assert_int_equal(tk_event_class_get_id(ev->ec), 9);
	assert_int_equal(ev->ec->loglevel, 2);
	check_scope(ev->ec->payload, ev->scope[MODEL_SCOPE_PAYLOAD], &payload, vals);
	assert_int_equal(tk_iter_next(it, &ev), TK_END);
	tk_iter_destroy(it);
	tk_trace_close(trace);
}

struct seen_loss {
	uint64_t stream;
	int kind;
	uint64_t count;
	int has_range;
	int64_t begin, end;
};

static void collect_loss(const struct tk_notice *n, void *payload)
{
	struct seen_loss *l = payload;

	while (l->kind)
		l++;
	l->stream = tk_stream_get_id(tk_notice_get_stream(n));
	l->kind = (int) tk_notice_get_kind(n);
	l->count = tk_notice_get_count(n);
	l->has_range = tk_notice_get_range(n, &l->begin, &l->end);
}

/*
 * Losses over the ranges given, as readers report them: events lost between two times
 * (after events, before any, with events inside the range or none after it), packets lost,
 * and a first packet's loss of unknown size.
 */
static void test_loss_ranges(void **state)
{
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ctf_writer_stream *s[5];
	struct tk_ctf_writer *w;
	struct tk_trace *trace;
	struct tk_iter *it;
	const struct tk_event *ev;
	struct seen_loss seen[16];
	uint64_t clk, sc, ec, got[5][8], ngot[5] = {0};
	static const uint64_t want_ts[5][8] = {
		{100, 200, 300, 350, 500, 800}, {10, 20}, {55, 70}, {100}, {3000, 3600}};
	static const uint64_t want_n[5] = {6, 2, 2, 1, 2};
	char dir[256];
	const char *paths[1] = {dir};
	size_t i, k;
	enum tk_status st;

	(void) state;
	memset(seen, 0, sizeof(seen));
	snprintf(dir, sizeof(dir), "%s/loss-ranges", ctfw_tmpdir);
	o.packet_size = 4096;
	OK(tk_ctf_writer_create(&w, dir, &o));
	OK(tk_ctf_writer_add_clock(w, "c", 1000000000, 0, 0, NULL, 0, &clk));
	OK(tk_ctf_writer_add_stream_class(w, clk, &sc));
	OK(tk_ctf_writer_add_event_class(w, sc, "e", -1, NULL, 0, &ec));
	for (i = 0; i < 5; i++)
		OK(tk_ctf_writer_add_stream(w, sc, (uint32_t) i, &s[i]));
	/* stream 0: events, 5 lost in [250, 400] with events inside, 2 packets lost */
	OK(tk_ctf_writer_append(w, s[0], ec, 100, NULL, NULL));
	OK(tk_ctf_writer_append(w, s[0], ec, 200, NULL, NULL));
	OK(tk_ctf_writer_add_discarded_range(w, s[0], 5, 250, 400));
	OK(tk_ctf_writer_append(w, s[0], ec, 300, NULL, NULL));
	OK(tk_ctf_writer_append(w, s[0], ec, 350, NULL, NULL));
	OK(tk_ctf_writer_append(w, s[0], ec, 500, NULL, NULL));
	OK(tk_ctf_writer_add_discarded_packets(w, s[0], 2, 600, 700));
	OK(tk_ctf_writer_append(w, s[0], ec, 800, NULL, NULL));
	/* stream 1: a loss of unknown size before anything */
	OK(tk_ctf_writer_add_discarded(w, s[1], UINT64_MAX));
	OK(tk_ctf_writer_append(w, s[1], ec, 10, NULL, NULL));
	OK(tk_ctf_writer_append(w, s[1], ec, 20, NULL, NULL));
	/* stream 2: 3 lost in [50, 60] before its first event */
	OK(tk_ctf_writer_add_discarded_range(w, s[2], 3, 50, 60));
	OK(tk_ctf_writer_append(w, s[2], ec, 55, NULL, NULL));
	OK(tk_ctf_writer_append(w, s[2], ec, 70, NULL, NULL));
	/* stream 3: 4 lost in [1000, 2000] after its last event, nothing after */
	OK(tk_ctf_writer_append(w, s[3], ec, 100, NULL, NULL));
	OK(tk_ctf_writer_add_discarded_range(w, s[3], 4, 1000, 2000));
	/* stream 4: two ranges back to back with no event between, then packets lost at the
	   end, with nothing after them (an empty packet shows the gap) */
	OK(tk_ctf_writer_append(w, s[4], ec, 3000, NULL, NULL));
	OK(tk_ctf_writer_add_discarded_range(w, s[4], 6, 3100, 3200));
	OK(tk_ctf_writer_add_discarded_range(w, s[4], 7, 3200, 3500));
	OK(tk_ctf_writer_append(w, s[4], ec, 3600, NULL, NULL));
	OK(tk_ctf_writer_add_discarded_packets(w, s[4], 3, 3700, 3900));
	/* refused: going back, a range ending before it begins */
	INVAL(tk_ctf_writer_add_discarded_range(w, s[0], 1, 700, 900));
	INVAL(tk_ctf_writer_add_discarded_range(w, s[0], 1, 900, 850));
	INVAL(tk_ctf_writer_add_discarded_packets(w, s[0], 0, 900, 950));
	OK(tk_ctf_writer_close(w));

	OK(tk_trace_open(&trace, paths, 1, NULL));
	OK(tk_iter_create(&it, trace));
	tk_iter_set_notice_cb(it, collect_loss, seen);
	while ((st = tk_iter_next(it, &ev)) == TK_OK) {
		k = tk_stream_get_id(ev->stream);
		assert_true(ngot[k] < 8);
		got[k][ngot[k]++] = tk_event_get_clock_value(ev);
	}
	assert_int_equal(st, TK_END);
	for (k = 0; k < 5; k++) {
		assert_int_equal(ngot[k], want_n[k]);
		for (i = 0; i < ngot[k]; i++)
			assert_int_equal(got[k][i], want_ts[k][i]);
	}
	/* in time order: unknown [10..], [50, 60], [250, 400], [600, 700], [1000, 2000], then
	   stream 4's [3100, 3200], [3200, 3500], packets [3700, 3900] */
	assert_int_equal(seen[0].stream, 1);
	assert_int_equal(seen[0].count, UINT64_MAX);
	assert_int_equal(seen[1].stream, 2);
	assert_int_equal(seen[1].count, 3);
	assert_true(seen[1].has_range);
	assert_int_equal(seen[1].begin, 50);
	assert_int_equal(seen[1].end, 60);
	assert_int_equal(seen[2].stream, 0);
	assert_int_equal(seen[2].kind, TK_NOTICE_DISCARDED_EVENTS);
	assert_int_equal(seen[2].count, 5);
	assert_int_equal(seen[2].begin, 250);
	assert_int_equal(seen[2].end, 400);
	assert_int_equal(seen[3].stream, 0);
	assert_int_equal(seen[3].kind, TK_NOTICE_DISCARDED_PACKETS);
	assert_int_equal(seen[3].count, 2);
	assert_int_equal(seen[3].begin, 600);
	assert_int_equal(seen[3].end, 700);
	assert_int_equal(seen[4].stream, 3);
	assert_int_equal(seen[4].count, 4);
	assert_int_equal(seen[4].begin, 1000);
	assert_int_equal(seen[4].end, 2000);
	assert_int_equal(seen[5].stream, 4);
	assert_int_equal(seen[5].count, 6);
	assert_int_equal(seen[5].begin, 3100);
	assert_int_equal(seen[5].end, 3200);
	assert_int_equal(seen[6].count, 7);
	assert_int_equal(seen[6].begin, 3200);
	assert_int_equal(seen[6].end, 3500);
	assert_int_equal(seen[7].kind, TK_NOTICE_DISCARDED_PACKETS);
	assert_int_equal(seen[7].count, 3);
	assert_int_equal(seen[7].begin, 3700);
	assert_int_equal(seen[7].end, 3900);
	assert_int_equal(seen[8].kind, 0);
	tk_iter_destroy(it);
	tk_trace_close(trace);
}

/* Misuse of the nested declarations and the new calls fails with a cause, writing nothing. */
static void test_nested_misuse_is_refused(void **state)
{
	static const struct tk_ctf_field_decl u8e = INT_F(NULL, 8, 0, 0);
	static const struct tk_ctf_enum_label bad_range[] = {LABEL_U("X", 5, 4)};
	static const struct tk_ctf_enum_label no_label[] = {LABEL_U(NULL, 0, 0)};
	static const struct tk_ctf_enum_label one[] = {LABEL_U("one", 1, 1)};
	static const struct tk_ctf_field_decl opt_kw[] = {{.name = "int", .kind = 3}};
	static const struct tk_ctf_field_decl opt_bad[] = {{.name = "a b", .kind = 3}};
	static const struct tk_ctf_field_decl opt_dup[] = {{.name = "a", .kind = 3},
							   {.name = "a", .kind = 3}};
	static const struct tk_ctf_field_decl opt_seq[] = {
		{.name = "a", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .elem = &u8e}};
	static const struct tk_ctf_field_decl bad[][3] = {
		/* a length that is signed, after its user, missing, or a tag not an enum */
		{INT_F("n", 8, 1, 0), {.name = "q", .kind = 5, .ref = "n", .elem = &u8e}},
		{{.name = "q", .kind = 5, .ref = "n", .elem = &u8e}, INT_F("n", 8, 0, 0)},
		{{.name = "q", .kind = 5, .ref = "nope", .elem = &u8e}},
		{INT_F("t", 8, 0, 0),
		 {.name = "v", .kind = 9, .ref = "t", .members = one_int, .n_members = 1}},
		/* enumerations: a range upside down, a label missing */
		{{.name = "e", .kind = 7, .bits = 8, .labels = bad_range, .n_labels = 1}},
		{{.name = "e", .kind = 7, .bits = 8, .labels = no_label, .n_labels = 1}},
		/* variants: options named as keywords, not identifiers, twice, none; a sequence
		   option without a length member */
		{{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		 {.name = "v", .kind = 9, .ref = "t", .members = opt_kw, .n_members = 1}},
		{{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		 {.name = "v", .kind = 9, .ref = "t", .members = opt_bad, .n_members = 1}},
		{{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		 {.name = "v", .kind = 9, .ref = "t", .members = opt_dup, .n_members = 2}},
		{{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		 {.name = "v", .kind = 9, .ref = "t", .members = opt_dup, .n_members = 0}},
		{{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		 {.name = "v", .kind = 9, .ref = "t", .members = opt_seq, .n_members = 1}},
		/* a sequence element without a length member */
		{{.name = "a", .kind = 4, .array_len = 2, .elem = &opt_seq[0]}},
	};
	static const struct tk_ctf_field_decl seq_m[] = {
		INT_F("n", 8, 0, 0),
		{.name = "q", .kind = 5, .ref = "n", .elem = &u8e},
		{.name = "a", .kind = 4, .array_len = 2, .elem = &u8e},
	};
	static const struct tk_ctf_field_decl seq_st = STRUCT_F(NULL, seq_m);
	static const struct tk_ctf_field_decl var_m[] = {
		{.name = "t", .kind = 7, .bits = 8, .labels = one, .n_labels = 1},
		{.name = "v", .kind = 9, .ref = "t", .members = opt_bad, .n_members = 0},
	};
	struct tk_ctf_field_decl vm[2];
	struct tk_ctf_field_decl scope;
	struct tk_ctf_value v[8];
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ctf_stream_class_desc scd = TK_CTF_STREAM_CLASS_DESC_INIT;
	struct tk_ctf_event_class_desc ecd = TK_CTF_EVENT_CLASS_DESC_INIT;
	struct tk_ctf_stream_desc sd = TK_CTF_STREAM_DESC_INIT;
	struct tk_ctf_writer_stream *st, *st2;
	struct tk_ctf_writer *w;
	uint64_t sc, sc_nc, ec, ec_v, id;
	size_t i, n;
	char dir[256];

	(void) state;
	snprintf(dir, sizeof(dir), "%s/nested-misuse", ctfw_tmpdir);
	OK(tk_ctf_writer_create(&w, dir, &o));
	OK(tk_ctf_writer_add_clock(w, "c", 1000000000, 0, 0, NULL, 0, &id));
	scd.clock_id = id;
	scd.has_id = 1;
	scd.id = 4;
	OK(tk_ctf_writer_add_stream_class_desc(w, &scd, &sc));
	INVAL(tk_ctf_writer_add_stream_class_desc(w, &scd, &id)); /* ID in use */
	scd.id = UINT64_C(1) << 32;
	INVAL(tk_ctf_writer_add_stream_class_desc(w, &scd, &id)); /* too large */
	scd.has_id = 0;
	scd.clock_id = 7;
	INVAL(tk_ctf_writer_add_stream_class_desc(w, &scd, &id)); /* no such clock */
	scd.clock_id = TK_CTF_WRITER_NO_CLOCK;
	OK(tk_ctf_writer_add_stream_class_desc(w, &scd, &sc_nc));
	assert_int_equal(sc_nc, 5); /* one more than the largest */
	scope.kind = TK_CTF_FIELD_KIND_INT;
	ecd.payload = &scope;
	INVAL(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &id)); /* a scope is a STRUCT */
	memset(&scope, 0, sizeof(scope));
	scope.kind = TK_CTF_FIELD_KIND_STRUCT;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		for (n = 0; n < 3 && bad[i][n].name; n++)
			;
		scope.members = bad[i];
		scope.n_members = n;
		INVAL(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &id));
	}
	ecd.payload = &seq_st;
	ecd.has_id = 1;
	ecd.id = 40;
	OK(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &ec));
	INVAL(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &id)); /* ID in use */
	memcpy(vm, var_m, sizeof(vm));
	vm[1].members = options;
	vm[1].n_members = ARRAY_SIZE(options);
	scope.members = vm;
	scope.n_members = 2;
	ecd.payload = &scope;
	ecd.id = 41;
	OK(tk_ctf_writer_add_event_class_desc(w, sc, &ecd, &ec_v));
	sd.name = "a/b";
	INVAL(tk_ctf_writer_add_stream_desc(w, sc, &sd, &st));
	sd.name = "metadata";
	INVAL(tk_ctf_writer_add_stream_desc(w, sc, &sd, &st));
	sd.name = "s";
	sd.has_id = 1;
	sd.id = 1;
	OK(tk_ctf_writer_add_stream_desc(w, sc, &sd, &st));
	sd.name = "s2";
	INVAL(tk_ctf_writer_add_stream_desc(w, sc, &sd, &st2)); /* ID in use in its class */
	OK(tk_ctf_writer_add_stream_desc(w, sc_nc, &sd, &st2)); /* another class: fine */
	/* values: the length member says 3, the sequence has 2; an array of 3 for 2 */
	memset(v, 0, sizeof(v));
	v[0].v.u = 3;
	v[1].len = 2;
	INVAL(tk_ctf_writer_append_scopes(w, st, ec, 10, NULL, NULL, v));
	v[0].v.u = 0;
	v[1].len = 0;
	v[2].len = 3;
	INVAL(tk_ctf_writer_append_scopes(w, st, ec, 10, NULL, NULL, v));
	/* the tag says "one" (option index 1 has no label "num" = 1 here), option 0 given */
	memset(v, 0, sizeof(v));
	v[0].v.u = 1;
	v[1].len = 0;
	INVAL(tk_ctf_writer_append_scopes(w, st, ec_v, 10, NULL, NULL, v));
	v[1].len = 99;
	INVAL(tk_ctf_writer_append_scopes(w, st, ec_v, 10, NULL, NULL, v));
	/* losses over a range need a clock; no packet context to set in this class */
	INVAL(tk_ctf_writer_add_discarded_range(w, st2, 1, 5, 6));
	INVAL(tk_ctf_writer_set_packet_context(w, st, v));
	/* the good event still goes in alone */
	memset(v, 0, sizeof(v));
	v[0].v.u = 1;
	v[1].len = 1;
	v[2].v.u = 9;
	v[3].len = 2;
	OK(tk_ctf_writer_append_scopes(w, st, ec, 10, NULL, NULL, v));
	OK(tk_ctf_writer_close(w));
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void) sb;
	(void) flag;
	(void) ftw;
	return remove(path);
}

static int setup(void **state)
{
	(void) state;
	return mkdtemp(ctfw_tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void) state;
	return nftw(ctfw_tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_field_kind_little_endian),
		cmocka_unit_test(test_every_field_kind_big_endian),
		cmocka_unit_test(test_compact_header_sizes_and_wraps),
		cmocka_unit_test(test_large_header_with_many_classes),
		cmocka_unit_test(test_large_header_across_packets),
		cmocka_unit_test(test_event_bigger_than_packet),
		cmocka_unit_test(test_discarded_events),
		cmocka_unit_test(test_discarded_ends_packet),
		cmocka_unit_test(test_env_clocks_and_uuid),
		cmocka_unit_test(test_env_every_byte),
		cmocka_unit_test(test_field_names_are_escaped),
		cmocka_unit_test(test_short_and_empty_values),
		cmocka_unit_test(test_misuse_is_refused),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_destroy_does_not_finish),
		cmocka_unit_test(test_without_index),
		cmocka_unit_test(test_nested_kinds_little_endian),
		cmocka_unit_test(test_nested_kinds_big_endian),
		cmocka_unit_test(test_clockless_bytes),
		cmocka_unit_test(test_loss_ranges),
		cmocka_unit_test(test_nested_misuse_is_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
