/* SPDX-License-Identifier: MIT */
/*
 * The descriptions and the serializer the tracepoint macros expand to (tests/ust/ust-tp.h):
 * each field's kind, size, sign, format and enum ranges as declared by hand in the provider,
 * fixed payload sizes added up here from the C types, and the payload bytes of one event
 * compared with bytes laid out by hand (host byte order, packed).
 */
#define TK_TRACEPOINT_DEFINE
#include "ust-tp.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <tracekit/ust.h>

static void ints_are_described_with_their_sizes_and_signs(void **state)
{
	const struct tk_tp_event *ev = &TK_TP_EVENT_SYM(tktest, ints);
	static const struct {
		const char *name;
		unsigned size, is_signed;
	} want[] = {{"s8", 1, 1}, {"s16", 2, 1}, {"s32", 4, 1}, {"s64", 8, 1},
		    {"u8", 1, 0}, {"u16", 2, 0}, {"u32", 4, 0}, {"u64", 8, 0}};
	size_t i;

	(void) state;
	assert_string_equal(ev->provider, "tktest");
	assert_string_equal(ev->name, "ints");
	assert_int_equal(ev->level, TK_TP_LEVEL_INFO);
	assert_int_equal(ev->keyword, 0x1);
	assert_int_equal(ev->n_fields, 8);
	for (i = 0; i < 8; i++) {
		assert_string_equal(ev->fields[i].name, want[i].name);
		assert_int_equal(ev->fields[i].kind, TK_TP_KIND_INT);
		assert_int_equal(ev->fields[i].size, want[i].size);
		assert_int_equal(ev->fields[i].is_signed, want[i].is_signed);
	}
	assert_int_equal(ev->fixed_size, 1 + 2 + 4 + 8 + 1 + 2 + 4 + 8);
}

static void formats_and_variable_sizes_are_described(void **state)
{
	const struct tk_tp_event *f = &TK_TP_EVENT_SYM(tktest, formats);
	const struct tk_tp_event *s = &TK_TP_EVENT_SYM(tktest, strings);
	const struct tk_tp_event *a = &TK_TP_EVENT_SYM(tktest, arrays);
	const struct tk_tp_event *t = &TK_TP_EVENT_SYM(tktest, tick);

	(void) state;
	assert_int_equal(f->fields[0].format, TK_TP_FORMAT_HEX);
	assert_int_equal(f->fields[2].format, TK_TP_FORMAT_POINTER);
	assert_int_equal(f->fields[2].size, sizeof(void *));
	assert_int_equal(f->fields[3].format, TK_TP_FORMAT_ERRNO);
	assert_int_equal(f->fields[3].is_signed, 1);
	assert_int_equal(f->fields[4].format, TK_TP_FORMAT_TIME);
	assert_int_equal(f->fixed_size, 4 + 8 + sizeof(void *) + 4 + 8);
	assert_int_equal(s->fixed_size, TK_TP_SIZE_VARIABLE);
	assert_int_equal(s->fields[2].kind, TK_TP_KIND_COUNTED);
	assert_int_equal(s->fields[3].kind, TK_TP_KIND_BLOB);
	assert_int_equal(a->fields[0].kind, TK_TP_KIND_ARRAY);
	assert_int_equal(a->fields[0].count, 3);
	assert_int_equal(a->fields[0].size, 2);
	assert_int_equal(a->fields[1].kind, TK_TP_KIND_SEQUENCE);
	assert_int_equal(a->fields[1].size, 4);
	assert_int_equal(a->fixed_size, TK_TP_SIZE_VARIABLE);
	assert_int_equal(t->n_fields, 0);
	assert_int_equal(t->fixed_size, 0);
}

static void enums_and_structs_are_described(void **state)
{
	const struct tk_tp_event *e = &TK_TP_EVENT_SYM(tktest, enums);
	const struct tk_tp_event *n = &TK_TP_EVENT_SYM(tktest, nested);
	const struct tk_tp_struct *line, *point;

	(void) state;
	assert_int_equal(e->fields[0].kind, TK_TP_KIND_ENUM);
	assert_int_equal(e->fields[0].enum_desc->n_entries, 3);
	assert_string_equal(e->fields[0].enum_desc->entries[2].label, "warm");
	assert_int_equal(e->fields[0].enum_desc->entries[2].lo, 2);
	assert_int_equal(e->fields[0].enum_desc->entries[2].hi, 9);
	assert_int_equal(e->fields[1].is_signed, 1);
	assert_int_equal((int64_t) e->fields[1].enum_desc->entries[0].lo, -100);
	assert_int_equal(e->fixed_size, 1 + 2);
	line = n->fields[0].struct_desc;
	assert_int_equal(n->fields[0].kind, TK_TP_KIND_STRUCT);
	assert_string_equal(line->name, "line");
	assert_int_equal(line->n_fields, 3);
	point = line->fields[0].struct_desc;
	assert_string_equal(point->name, "point");
	assert_int_equal(point->n_fields, 2);
	assert_string_equal(point->fields[1].name, "y");
	assert_int_equal(n->fixed_size, TK_TP_SIZE_VARIABLE); /* the label */
}

/* The field macros added for EventHeader's formats: kind, format, unit size, sign, count. */
static void new_field_macros_are_described(void **state)
{
	const struct tk_tp_event *ev = &TK_TP_EVENT_SYM(tktest, every);
	static const struct {
		unsigned idx;
		const char *name;
		unsigned kind, format, size, is_signed, count;
	} want[] = {
		{4, "pid", TK_TP_KIND_INT, TK_TP_FORMAT_PID, 4, 1, 0},
		{5, "t", TK_TP_KIND_INT, TK_TP_FORMAT_TIME_SEC, 8, 1, 0},
		{9, "uuid", TK_TP_KIND_ARRAY, TK_TP_FORMAT_UUID, 1, 0, 16},
		{10, "ip4", TK_TP_KIND_INT, TK_TP_FORMAT_IPV4, 4, 0, 0},
		{11, "ip6", TK_TP_KIND_ARRAY, TK_TP_FORMAT_IPV6, 1, 0, 16},
		{12, "port", TK_TP_KIND_INT, TK_TP_FORMAT_PORT, 2, 0, 0},
		{13, "raw", TK_TP_KIND_ARRAY, TK_TP_FORMAT_BYTES16, 1, 0, 16},
		{15, "l1", TK_TP_KIND_STRING, TK_TP_FORMAT_LATIN1, 0, 0, 0},
		{16, "bom", TK_TP_KIND_STRING, TK_TP_FORMAT_UTF8_BOM, 0, 0, 0},
		{17, "xml", TK_TP_KIND_STRING, TK_TP_FORMAT_XML, 0, 0, 0},
		{18, "json", TK_TP_KIND_STRING, TK_TP_FORMAT_JSON, 0, 0, 0},
		{20, "w16", TK_TP_KIND_WSTRING, TK_TP_FORMAT_DEFAULT, 2, 0, 0},
		{21, "w32", TK_TP_KIND_WSTRING, TK_TP_FORMAT_DEFAULT, 4, 0, 0},
		{22, "c16", TK_TP_KIND_COUNTED, TK_TP_FORMAT_DEFAULT, 2, 0, 0},
		{23, "c32", TK_TP_KIND_COUNTED, TK_TP_FORMAT_DEFAULT, 4, 0, 0},
	};
	/* "ab" as UTF-16 in host order: count 3 (with the 0 unit), 'a', 'b', 0 */
	static const uint16_t ab[] = {'a', 'b', 0};
	uint8_t buf[16], expect[10];
	uint32_t three = 3;

	(void) state;
	assert_int_equal(ev->n_fields, 28);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct tk_tp_field *f = &ev->fields[want[i].idx];

		assert_string_equal(f->name, want[i].name);
		assert_int_equal(f->kind, want[i].kind);
		assert_int_equal(f->format, want[i].format);
		assert_int_equal(f->size, want[i].size);
		assert_int_equal(f->is_signed, want[i].is_signed);
		assert_int_equal(f->count, want[i].count);
	}
	assert_int_equal(ev->fixed_size, TK_TP_SIZE_VARIABLE);
	assert_int_equal(tk_tp_wstrlen(ab, 2), 2);
	assert_int_equal(tk_tp_wstrlen(NULL, 4), 0);
	memcpy(expect, &three, 4);
	memcpy(expect + 4, ab, 6);
	assert_ptr_equal(tk_tp_put_wtext(buf, ab, 2, 2), buf + 10);
	assert_memory_equal(buf, expect, 10);
	/* NULL: an empty string, its count 1 for the 0 unit */
	three = 1;
	memcpy(expect, &three, 4);
	memset(expect + 4, 0, 4);
	assert_ptr_equal(tk_tp_put_wtext(buf, NULL, 0, 4), buf + 8);
	assert_memory_equal(buf, expect, 8);
}

static int evaluated;

static int32_t side_effect(void)
{
	return ++evaluated;
}

/* Without a session, an event is one load and one branch: its arguments are not evaluated. */
static void disabled_events_do_not_evaluate_their_arguments(void **state)
{
	(void) state;
	tk_tracepoint(tktest, ints, 0, 0, side_effect(), 0, 0, 0, 0, 0);
	assert_int_equal(evaluated, 0);
	assert_false(tk_tracepoint_enabled(tktest, ints));
}

static void registration_gives_distinct_ids(void **state)
{
	const struct tk_tp_event *a = &TK_TP_EVENT_SYM(tktest, ints);
	const struct tk_tp_event *b = &TK_TP_EVENT_SYM(tktest, tick);

	(void) state;
	assert_int_not_equal(a->id, b->id);
	assert_int_equal(a->enabled, 0); /* no session */
}

/* The payload of one event, as the emitter stored it before the thread's writing position. */
static void payload_bytes_are_packed_in_host_order(void **state)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	char dir[] = "/tmp/tk-ust-unit-XXXXXX";
	int16_t arr[3] = {-1, 2, 0x0304};
	uint32_t seq[2] = {0x11223344, 5};
	uint8_t want[64], *p = want, *got;
	uint32_t u32;
	int16_t s16;
	char cmd[128];

	(void) state;
	assert_non_null(mkdtemp(dir));
	o.no_consumer = 1;
	assert_int_equal(tk_ust_session_start(dir, &o), TK_OK);
	assert_int_equal(TK_TP_EVENT_SYM(tktest, arrays).enabled, 1);
	tk_tracepoint(tktest, arrays, arr, seq, 2, (const int8_t *) NULL);
	for (int i = 0; i < 3; i++) {
		s16 = arr[i];
		memcpy(p, &s16, 2);
		p += 2;
	}
	u32 = 2;
	memcpy(p, &u32, 4);
	p += 4;
	memcpy(p, seq, 8);
	p += 8;
	u32 = 0;
	memcpy(p, &u32, 4);
	p += 4;
	got = tk_ust_tls_state.pos - (size_t) (p - want);
	assert_memory_equal(got, want, (size_t) (p - want));
	/* the event header before it: the event's ID in 16 bits */
	assert_int_equal(got[-6] | got[-5] << 8, TK_TP_EVENT_SYM(tktest, arrays).id);
	assert_int_equal(tk_ust_session_stop(), TK_OK);
	assert_int_equal(TK_TP_EVENT_SYM(tktest, arrays).enabled, 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Size of DIR/NAME, NAME a format given this process's ID (stream files), or -1. */
static long file_size(const char *dir, const char *name)
{
	char path[256], file[64];
	FILE *f;
	long n;

	snprintf(file, sizeof(file), name, (int) getpid());
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fclose(f);
	return n;
}

/*
 * A second session in the same process: the thread's ring of the first one was freed at its
 * stop, so its events go to a new ring and a new trace; a third start while one runs fails.
 */
static void sessions_start_again_after_a_stop(void **state)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	char d1[] = "/tmp/tk-ust-unit-XXXXXX", d2[] = "/tmp/tk-ust-unit-XXXXXX";
	char cmd[128];

	(void) state;
	assert_non_null(mkdtemp(d1));
	assert_non_null(mkdtemp(d2));
	assert_int_equal(tk_ust_session_start(d1, &o), TK_OK);
	tk_tracepoint(tktest, tick, );
	assert_int_equal(tk_ust_session_start(d2, &o), TK_ERR_INVAL);
	assert_int_equal(tk_ust_session_stop(), TK_OK);
	assert_int_equal(tk_ust_session_stop(), TK_OK); /* nothing to stop */
	tk_tracepoint(tktest, tick, );			/* off: written nowhere */
	assert_int_equal(tk_ust_session_start(d2, &o), TK_OK);
	tk_tracepoint(tktest, tick, );
	tk_tracepoint(tktest, tick, );
	assert_int_equal(tk_ust_flush(), TK_OK);
	/* packet 0 (no event), then header and context and two events of a 6-byte header */
	assert_int_equal(file_size(d2, "channel0_%d_0"), 92 + 92 + 2 * 6);
	assert_int_equal(tk_ust_session_stop(), TK_OK);
	assert_int_equal(file_size(d1, "channel0_%d_0"), 92 + 92 + 6);
	assert_true(file_size(d1, "metadata") > 0);
	assert_true(file_size(d2, "metadata") > 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", d1, d2);
	assert_int_equal(system(cmd), 0);
}

/* TRACEKIT_UST_CLOCK_OFFSET (tracekit record --ust) is the clock's offset, to the nanosecond. */
static void clock_offset_comes_from_the_environment(void **state)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	char dir[] = "/tmp/tk-ust-unit-XXXXXX", path[128], line[256], cmd[128];
	int seen = 0;
	FILE *f;

	(void) state;
	setenv("TRACEKIT_UST_CLOCK_OFFSET", "-5", 1);
	assert_int_equal(tk_ust_opts_from_env(&o), TK_ERR_INVAL);
	setenv("TRACEKIT_UST_CLOCK_OFFSET", "1700000000123456000", 1);
	assert_int_equal(tk_ust_opts_from_env(&o), TK_OK);
	unsetenv("TRACEKIT_UST_CLOCK_OFFSET");
	assert_int_equal(o.has_clock_offset, 1);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(tk_ust_session_start(dir, &o), TK_OK);
	assert_int_equal(tk_ust_session_stop(), TK_OK);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strcmp(line, "\toffset_s = 1700000000;\n") ||
		    !strcmp(line, "\toffset = 123456000;\n"))
			seen++;
	}
	fclose(f);
	assert_int_equal(seen, 2);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* The metadata's clock: frequency, offset_s, offset and absolute; 0 when all were found. */
static int read_clock(const char *dir, uint64_t *freq, uint64_t *off_s, uint64_t *off, int *abs)
{
	char path[128], line[256];
	int seen = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	*abs = 0;
	while (fgets(line, sizeof(line), f)) {
		seen += sscanf(line, "\tfreq = %" SCNu64 ";", freq) == 1;
		seen += sscanf(line, "\toffset_s = %" SCNu64 ";", off_s) == 1;
		seen += sscanf(line, "\toffset = %" SCNu64 ";", off) == 1;
		*abs |= !strcmp(line, "\tabsolute = TRUE;\n");
	}
	fclose(f);
	return seen == 3 ? 0 : -1;
}

/*
 * TRACEKIT_UST_TSC_MULT and _SHIFT (tracekit record --ust -C x86-tsc): the TSC clock is
 * declared at round(2^shift * 1e9 / mult) Hz, absolute, and reads at its start what the
 * trace.dat's readers compute, (tsc * mult) >> shift plus the offset given. mult 5, shift 3
 * is exactly 1.6 GHz; mult 3, shift 1 rounds 666,666,666.7 Hz up.
 */
static void tsc_conversion_comes_from_the_environment(void **state)
{
#if defined(__x86_64__) || defined(__i386__)
	struct tk_ust_opts o = TK_UST_OPTS_INIT, o2 = TK_UST_OPTS_INIT;
	char dir[] = "/tmp/tk-ust-unit-XXXXXX", dir2[] = "/tmp/tk-ust-unit-XXXXXX", cmd[128];
	uint64_t freq, off_s, off, c0, want;
	long double t;
	int abs;

	(void) state;
	setenv("TRACEKIT_UST_TSC_MULT", "5", 1);
	assert_int_equal(tk_ust_opts_from_env(&o), TK_ERR_INVAL); /* no shift */
	setenv("TRACEKIT_UST_TSC_SHIFT", "64", 1);
	assert_int_equal(tk_ust_opts_from_env(&o), TK_ERR_INVAL);
	setenv("TRACEKIT_UST_TSC_MULT", "0", 1);
	setenv("TRACEKIT_UST_TSC_SHIFT", "3", 1);
	assert_int_equal(tk_ust_opts_from_env(&o), TK_ERR_INVAL);
	setenv("TRACEKIT_UST_TSC_MULT", "5", 1);
	setenv("TRACEKIT_UST_CLOCK", "tsc", 1);
	setenv("TRACEKIT_UST_CLOCK_OFFSET", "1700000000123456000", 1);
	assert_int_equal(tk_ust_opts_from_env(&o), TK_OK);
	unsetenv("TRACEKIT_UST_TSC_MULT");
	unsetenv("TRACEKIT_UST_TSC_SHIFT");
	unsetenv("TRACEKIT_UST_CLOCK");
	unsetenv("TRACEKIT_UST_CLOCK_OFFSET");
	assert_int_equal(o.tsc_mult, 5);
	assert_int_equal(o.tsc_shift, 3);
	assert_non_null(mkdtemp(dir));
	c0 = __builtin_ia32_rdtsc();
	assert_int_equal(tk_ust_session_start(dir, &o), TK_OK);
	assert_int_equal(tk_ust_session_stop(), TK_OK);
	assert_int_equal(read_clock(dir, &freq, &off_s, &off, &abs), 0);
	assert_int_equal(freq, 1600000000u);
	assert_true(abs);
	/* the clock's time of c0 (CTF 1.8: offset_s + (offset + cycles) / freq) */
	t = (long double) off_s * 1e9L + ((long double) off + (long double) c0) * 0.625L;
	want = c0 / 8 * 5 + c0 % 8 * 5 / 8 + 1700000000123456000u;
	assert_true(t - (long double) want < 1000 && (long double) want - t < 1000);

	o2.clock = TK_UST_CLOCK_TSC;
	o2.tsc_mult = 3;
	o2.tsc_shift = 1;
	assert_non_null(mkdtemp(dir2));
	assert_int_equal(tk_ust_session_start(dir2, &o2), TK_OK);
	assert_int_equal(tk_ust_session_stop(), TK_OK);
	assert_int_equal(read_clock(dir2, &freq, &off_s, &off, &abs), 0);
	assert_int_equal(freq, 666666667u);
	assert_false(abs); /* no offset given: LTTng's choice */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", dir, dir2);
	assert_int_equal(system(cmd), 0);
#else
	(void) state;
	skip();
#endif
}

/*
 * TRACEKIT_UST_SHM_DIR is the rings' directory (crash recovery); one that cannot take them
 * fails the start, rather than every thread's first event.
 */
static void shm_dir_comes_from_the_environment(void **state)
{
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	char d1[] = "/tmp/tk-ust-unit-XXXXXX", d2[] = "/tmp/tk-ust-unit-XXXXXX", cmd[128];
	size_t i;
	int said = 0;

	(void) state;
	assert_null(o.shm_dir);
	setenv("TRACEKIT_UST_SHM_DIR", "/nonexistent/tk-shm", 1);
	assert_int_equal(tk_ust_opts_from_env(&o), TK_OK);
	unsetenv("TRACEKIT_UST_SHM_DIR");
	assert_string_equal(o.shm_dir, "/nonexistent/tk-shm");
	assert_non_null(mkdtemp(d1));
	assert_int_equal(tk_ust_session_start(d1, &o), TK_ERR_IO);
	for (i = 0; i < tk_error_count(); i++)
		said |= strstr(tk_error_cause(i), "shm-dir=/nonexistent/tk-shm") != NULL;
	assert_true(said);
	/* a directory that can take them: the session starts and ends as without */
	o.shm_dir = d1;
	assert_non_null(mkdtemp(d2));
	assert_int_equal(tk_ust_session_start(d2, &o), TK_OK);
	assert_int_equal(tk_ust_session_stop(), TK_OK);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", d1, d2);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ints_are_described_with_their_sizes_and_signs),
		cmocka_unit_test(formats_and_variable_sizes_are_described),
		cmocka_unit_test(enums_and_structs_are_described),
		cmocka_unit_test(new_field_macros_are_described),
		cmocka_unit_test(registration_gives_distinct_ids),
		cmocka_unit_test(disabled_events_do_not_evaluate_their_arguments),
		cmocka_unit_test(payload_bytes_are_packed_in_host_order),
		cmocka_unit_test(sessions_start_again_after_a_stop),
		cmocka_unit_test(clock_offset_comes_from_the_environment),
		cmocka_unit_test(tsc_conversion_comes_from_the_environment),
		cmocka_unit_test(shm_dir_comes_from_the_environment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
