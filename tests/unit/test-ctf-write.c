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
 * Nested kinds, classes without a clock, packet contexts and loss ranges are tested in
 * test-ctf-write-nested.c.
 */
#include <fcntl.h>
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
#include "ctf/ctf.h"
#include "model/model.h"

/* ---- tests -------------------------------------------------------------------------------- */

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

/*
 * The iterator the CTF sink reads with (model_iter_create_by_stream()): the streams one
 * after the other, each in its own order, where tk_iter merges them by time.
 */
static void test_iter_by_stream(void **state)
{
	static const uint64_t merged[] = {10, 20, 30, 40, 50};
	static const uint64_t by_stream[] = {10, 30, 50, 20, 40};
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tw *t = calloc(1, sizeof(*t));
	const struct tk_event *ev;
	const char *paths[1];
	struct tk_trace *trace;
	struct tk_iter *it;
	uint64_t sc;
	size_t i, k;

	(void) state;
	assert_non_null(t);
	tw_create(t, "by-stream", &o);
	sc = tw_sc(t, tw_clock(t, "c", 1000000000, 0, 0), NULL, 0);
	tw_class(t, sc, "e", one_int, 1);
	tw_stream(t, sc, 0);
	tw_stream(t, sc, 1);
	tw_append(t, 0, 0, 10);
	tw_append(t, 1, 0, 20);
	tw_append(t, 0, 0, 30);
	tw_append(t, 1, 0, 40);
	tw_append(t, 0, 0, 50);
	tw_close_check(t);
	paths[0] = t->dir;
	OK(tk_trace_open(&trace, paths, 1, NULL));
	for (k = 0; k < 2; k++) {
		const uint64_t *want = k ? by_stream : merged;

		OK(k ? model_iter_create_by_stream(&it, trace) : tk_iter_create(&it, trace));
		for (i = 0; i < 5; i++) {
			assert_int_equal(tk_iter_next(it, &ev), TK_OK);
			assert_int_equal(ev->cycles, want[i]);
		}
		assert_int_equal(tk_iter_next(it, &ev), TK_END);
		tk_iter_destroy(it);
	}
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

/*
 * A shared writer (ctf_writer_share(), src/ctf/ctf.h) writing events of provisional classes
 * and then putting their final IDs over them, in packets already in the file and in the
 * packet still open, gives the bytes of a plain writer that knew the final IDs: the oracle is
 * that plain writer, the same calls with the final IDs. Provisional classes wait for 31
 * listed ones (a smaller final ID would take a shorter event header).
 */
static void write_provisional(const char *name, int shared, int prov_late)
{
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ctf_event_class_desc d = TK_CTF_EVENT_CLASS_DESC_INIT;
	static const struct tk_ctf_field_decl one[] = {INT_F("v", 32, 0, 0)};
	struct tk_ctf_field_decl pl = {.name = "p", .kind = TK_CTF_FIELD_KIND_STRUCT};
	struct tk_ctf_writer_stream *s;
	struct tk_ctf_writer *w;
	struct tk_ctf_value v;
	uint64_t clock, sc, ids[40], prov[40], id;
	char dir[300], cls[16];
	size_t i;

	o.packet_size = 256; /* many packets: most provisional IDs are in the file already */
	o.has_uuid = 1;
	memset(o.uuid, 7, sizeof(o.uuid));
	snprintf(dir, sizeof(dir), "%s/%s", ctfw_tmpdir, name);
	OK(tk_ctf_writer_create(&w, dir, &o));
	if (shared)
		OK(ctf_writer_share(w));
	OK(tk_ctf_writer_add_clock(w, "c", 1000000000, 0, 0, NULL, 0, &clock));
	OK(tk_ctf_writer_add_stream_class(w, clock, &sc));
	pl.members = one;
	pl.n_members = 1;
	d.payload = &pl;
	OK(tk_ctf_writer_add_stream(w, sc, 0, &s));
	memset(&v, 0, sizeof(v));
	for (i = 0; i < 40; i++) {
		snprintf(cls, sizeof(cls), "e%zu", i);
		d.name = cls;
		if (!shared || i < 31) {
			OK(tk_ctf_writer_add_event_class_desc(w, sc, &d, &ids[i]));
			assert_int_equal(ids[i], i);
		} else {
			OK(ctf_writer_add_provisional(w, sc, &d, &prov[i]));
			assert_true(prov[i] >= 40);
			ids[i] = prov[i];
		}
		if (shared && i == 29) /* 30 listed: a final ID could still be 30 */
			assert_int_equal(ctf_writer_add_provisional(w, sc, &d, &id), TK_AGAIN);
		if (!i) /* an event of the first class fixes the compact header, as in the sink */
			OK(tk_ctf_writer_append(w, s, ids[0], 500, NULL, &v));
	}
	for (i = 0; i < 500; i++) {
		memset(&v, 0, sizeof(v));
		v.v.u = i;
		OK(tk_ctf_writer_append(w, s, ids[(i * 7) % 40], 1000 + i * 3, NULL, &v));
		if (shared && i == (prov_late ? 450u : 200u)) {
			/* the final classes, in their order; events after this keep their
			 * provisional IDs when prov_late, the final ones otherwise */
			for (id = 31; id < 40; id++) {
				snprintf(cls, sizeof(cls), "e%" PRIu64, id);
				d.name = cls;
				OK(tk_ctf_writer_add_event_class_desc(w, sc, &d, &ids[id]));
				assert_int_equal(ids[id], id);
				ctf_writer_resolve(w, prov[id], ids[id]);
				if (prov_late)
					ids[id] = prov[id];
			}
			assert_true(ctf_writer_stream_provisional(s) > 0);
			if (!prov_late)
				OK(ctf_writer_stream_patch(w, s));
		}
	}
	if (shared && prov_late)
		OK(ctf_writer_stream_patch(w, s));
	if (shared)
		assert_int_equal(ctf_writer_stream_provisional(s), 0);
	OK(tk_ctf_writer_close(w));
}

static void same_file(const char *a, const char *b, const char *file)
{
	char pa[400], pb[400];
	size_t na, nb;
	uint8_t *da, *db;

	snprintf(pa, sizeof(pa), "%s/%s/%s", ctfw_tmpdir, a, file);
	snprintf(pb, sizeof(pb), "%s/%s/%s", ctfw_tmpdir, b, file);
	da = slurp(pa, &na);
	db = slurp(pb, &nb);
	assert_non_null(da);
	assert_non_null(db);
	assert_int_equal(na, nb);
	assert_memory_equal(da, db, na);
	free(da);
	free(db);
}

static void test_shared_writer_provisional_ids(void **state)
{
	static const char *const files[] = {"metadata", "channel0_0", "index/channel0_0.idx"};
	size_t i;

	(void) state;
	write_provisional("prov-plain", 0, 0);
	write_provisional("prov-shared", 1, 0);
	write_provisional("prov-late", 1, 1);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		same_file("prov-plain", "prov-shared", files[i]);
		same_file("prov-plain", "prov-late", files[i]);
	}
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
		cmocka_unit_test(test_iter_by_stream),
		cmocka_unit_test(test_field_names_are_escaped),
		cmocka_unit_test(test_short_and_empty_values),
		cmocka_unit_test(test_misuse_is_refused),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_destroy_does_not_finish),
		cmocka_unit_test(test_without_index),
		cmocka_unit_test(test_shared_writer_provisional_ids),
	};

	return cmocka_run_group_tests(tests, ctfw_setup, ctfw_teardown);
}
