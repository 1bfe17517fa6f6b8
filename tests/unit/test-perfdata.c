// SPDX-License-Identifier: MIT
/*
 * Unit tests of the perf.data container reader (src/perf/perfdata.c) on files written here
 * byte by byte: a pipe-mode file in little-endian order and a file-mode file in big-endian
 * order, each with two tracepoint attributes told apart by sample id; what each sample's
 * fields must be is written next to the bytes that hold them; the kernel's build id among a
 * file-mode file's BUILD_ID entries. Then the damaged cases: a
 * record cut by the end of the data, a sample whose id names no attribute, the old PERFFILE
 * magic, a header section past the end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/error.h"
#include "perf/perfdata.h"

struct img {
	uint8_t b[2048];
	size_t n;
	int be;
};

static void put(struct img *m, uint64_t v, unsigned int size)
{
	unsigned int i;

	assert_true(m->n + size <= sizeof(m->b));
	for (i = 0; i < size; i++) {
		unsigned int shift = m->be ? 8 * (size - 1 - i) : 8 * i;

		m->b[m->n++] = (uint8_t) (v >> shift);
	}
}

static void put_bytes(struct img *m, const void *p, size_t n)
{
	assert_true(m->n + n <= sizeof(m->b));
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

/* A 72-byte attribute: tracepoint @config, sample_type @st, read_format @rf, sample_id_all. */
static void put_attr_rf(struct img *m, uint64_t config, uint64_t st, uint64_t rf)
{
	put(m, 2, 4);							 /* type: tracepoint */
	put(m, 72, 4);							 /* size */
	put(m, config, 8);						 /* config: the ftrace id */
	put(m, 1, 8);							 /* sample_period */
	put(m, st, 8);							 /* sample_type */
	put(m, rf, 8);							 /* read_format */
	put(m, m->be ? UINT64_C(1) << (63 - 18) : UINT64_C(1) << 18, 8); /* sample_id_all */
	put(m, 0, 8); /* wakeup_events, bp_type */
	put(m, 0, 8); /* config1 */
	put(m, 0, 8); /* config2 */
}

static void put_attr(struct img *m, uint64_t config, uint64_t st)
{
	put_attr_rf(m, config, st, 0);
}

#define ST                                                                                         \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |           \
	 PERF_SAMPLE_RAW)

/* A SAMPLE of layout ST: 8 + 8 + 8 + 8 + 8 + 4 + 4 raw bytes = 48 bytes. */
static void put_sample(struct img *m, uint64_t id, uint32_t pid, uint32_t tid, uint64_t time,
		       uint32_t cpu, uint32_t raw)
{
	put(m, PERF_RECORD_SAMPLE, 4);
	put(m, 0, 2);
	put(m, 48, 2);
	put(m, id, 8);
	put(m, pid, 4);
	put(m, tid, 4);
	put(m, time, 8);
	put(m, cpu, 4);
	put(m, 0, 4);
	put(m, 4, 4);	/* raw size */
	put(m, raw, 4); /* raw bytes, in the file's order */
}

static void pipe_le(struct img *m)
{
	memset(m, 0, sizeof(*m));
	put_bytes(m, "PERFILE2", 8);
	put(m, 16, 8);
	/* HEADER_ATTR: attribute, then its one id */
	put(m, PERF_RECORD_HEADER_ATTR, 4);
	put(m, 0, 2);
	put(m, 8 + 72 + 8, 2);
	put_attr(m, 300, ST);
	put(m, 7, 8);
	put(m, PERF_RECORD_HEADER_ATTR, 4);
	put(m, 0, 2);
	put(m, 8 + 72 + 8, 2);
	put_attr(m, 301, ST);
	put(m, 9, 8);
	/* EVENT_UPDATE NAME for id 9: "b:two" NUL, padded to 8 */
	put(m, PERF_RECORD_EVENT_UPDATE, 4);
	put(m, 0, 2);
	put(m, 8 + 16 + 8, 2);
	put(m, 1, 8);
	put(m, 9, 8);
	put_bytes(m, "b:two\0\0\0", 8);
	/* HEADER_TRACING_DATA: 8 bytes of data after the record, not counted in its size */
	put(m, PERF_RECORD_HEADER_TRACING_DATA, 4);
	put(m, 0, 2);
	put(m, 16, 2);
	put(m, 5, 4);
	put(m, 0, 4);
	put_bytes(m, "\x17\x08\x44tr\0\0\0", 8);
	put_sample(m, 9, 100, 101, 5000, 1, 0x04030201);
	put_sample(m, 7, 200, 202, 6000, 0, 0x08070605);
}

static void pipe_mode_reads(void **state)
{
	struct img m;
	struct perfdata *pd;
	struct perfdata_cursor c;
	struct perf_record r;
	struct perf_sample s;
	const uint8_t *td;
	size_t len;

	(void) state;
	pipe_le(&m);
	assert_int_equal(perfdata_open(&pd, m.b, m.n), TK_OK);
	assert_true(perfdata_is_pipe(pd));
	assert_int_equal(perfdata_byte_order(pd), TK_BYTE_ORDER_LE);
	assert_int_equal(perfdata_n_attrs(pd), 2);
	assert_int_equal(perfdata_attr(pd, 0)->config, 300);
	assert_int_equal(perfdata_attr(pd, 1)->config, 301);
	assert_int_equal(perfdata_attr(pd, 0)->sample_type, ST);
	assert_true(perfdata_attr(pd, 0)->sample_id_all);
	assert_null(perfdata_attr(pd, 0)->name);
	assert_int_equal(perfdata_attr(pd, 1)->name_len, 5);
	assert_memory_equal(perfdata_attr(pd, 1)->name, "b:two", 5);
	td = perfdata_tracing_data(pd, &len);
	assert_int_equal(len, 5);
	assert_memory_equal(td, "\x17\x08\x44tr", 5);

	perfdata_cursor_init(pd, &c);
	/* two attributes, the name and the tracing data (its 8 bytes skipped), then samples */
	for (int i = 0; i < 4; i++)
		assert_int_equal(perfdata_cursor_next(&c, &r), TK_OK);
	assert_int_equal(r.type, PERF_RECORD_HEADER_TRACING_DATA);
	assert_int_equal(perfdata_cursor_next(&c, &r), TK_OK);
	assert_int_equal(r.type, PERF_RECORD_SAMPLE);
	assert_int_equal(perfdata_sample(pd, &r, &s), TK_OK);
	assert_ptr_equal(s.attr, perfdata_attr(pd, 1)); /* id 9 */
	assert_int_equal(s.id, 9);
	assert_int_equal(s.pid, 100);
	assert_int_equal(s.tid, 101);
	assert_int_equal(s.time, 5000);
	assert_int_equal(s.cpu, 1);
	assert_int_equal(s.raw_size, 4);
	assert_memory_equal(s.raw, "\x01\x02\x03\x04", 4);
	assert_int_equal(perfdata_cursor_next(&c, &r), TK_OK);
	assert_int_equal(perfdata_sample(pd, &r, &s), TK_OK);
	assert_ptr_equal(s.attr, perfdata_attr(pd, 0)); /* id 7 */
	assert_int_equal(s.pid, 200);
	assert_int_equal(s.cpu, 0);
	assert_int_equal(perfdata_cursor_next(&c, &r), TK_END);
	perfdata_close(pd);
}

/* File mode, big-endian: header, two attributes with their id sections, data, features. */
static void file_be(struct img *m)
{
	memset(m, 0, sizeof(*m));
	m->be = 1;
	put_bytes(m, "2ELIFREP", 8);
	put(m, 104, 8);		   /* header size */
	put(m, 72 + 16, 8);	   /* attribute entry: attribute + ids section */
	put(m, 104, 8);		   /* attrs at 104 */
	put(m, 2 * 88, 8);	   /* 2 entries */
	put(m, 104 + 176 + 16, 8); /* data at 296, after the two ids */
	put(m, 2 * 48, 8);	   /* two samples */
	put(m, 0, 8);		   /* event_types */
	put(m, 0, 8);
	put(m, 0, 8); /* no features */
	put(m, 0, 8);
	put(m, 0, 8);
	put(m, 0, 8);
	put_attr(m, 400, ST);
	put(m, 280, 8); /* its ids: one at 280 */
	put(m, 8, 8);
	put_attr(m, 401, ST);
	put(m, 288, 8);
	put(m, 8, 8);
	assert_int_equal(m->n, 280);
	put(m, 0x1111, 8);
	put(m, 0x2222, 8);
	put_sample(m, 0x2222, 7, 8, 123456789, 3, 0xaabbccdd);
	put_sample(m, 0x1111, 9, 10, 123456790, 2, 0);
}

static void file_mode_big_endian_reads(void **state)
{
	struct img m;
	struct perfdata *pd;
	struct perfdata_cursor c;
	struct perf_record r;
	struct perf_sample s;
	size_t len;

	(void) state;
	file_be(&m);
	assert_int_equal(perfdata_open(&pd, m.b, m.n), TK_OK);
	assert_false(perfdata_is_pipe(pd));
	assert_int_equal(perfdata_byte_order(pd), TK_BYTE_ORDER_BE);
	assert_int_equal(perfdata_n_attrs(pd), 2);
	assert_int_equal(perfdata_attr(pd, 1)->config, 401);
	assert_true(perfdata_attr(pd, 1)->sample_id_all);
	assert_null(perfdata_tracing_data(pd, &len));
	assert_ptr_equal(perfdata_attr_of_id(pd, 0x2222), perfdata_attr(pd, 1));
	assert_null(perfdata_attr_of_id(pd, 0x3333));
	perfdata_cursor_init(pd, &c);
	assert_int_equal(perfdata_cursor_next(&c, &r), TK_OK);
	assert_int_equal(r.offset, 296);
	assert_int_equal(perfdata_sample(pd, &r, &s), TK_OK);
	assert_ptr_equal(s.attr, perfdata_attr(pd, 1));
	assert_int_equal(s.pid, 7);
	assert_int_equal(s.tid, 8);
	assert_int_equal(s.time, 123456789);
	assert_int_equal(s.cpu, 3);
	assert_memory_equal(s.raw, "\xaa\xbb\xcc\xdd", 4); /* raw bytes as the file holds them */
	assert_int_equal(perfdata_cursor_next(&c, &r), TK_OK);
	assert_int_equal(perfdata_sample(pd, &r, &s), TK_OK);
	assert_ptr_equal(s.attr, perfdata_attr(pd, 0));
	assert_int_equal(perfdata_cursor_next(&c, &r), TK_END);
	perfdata_close(pd);
}

/* One BUILD_ID record: header, pid, 24 bytes of id (@n used), the name NUL-padded to 8. */
static void put_build_id(struct img *m, uint16_t misc, const uint8_t *id, size_t n,
			 const char *name)
{
	size_t name_len = (strlen(name) + 1 + 7) / 8 * 8;
	uint8_t bid[24] = {0};
	char padded[64] = {0};

	memcpy(bid, id, n);
	if (misc & PERF_RECORD_MISC_BUILD_ID_SIZE)
		bid[20] = (uint8_t) n;
	memcpy(padded, name, strlen(name));
	put(m, PERF_RECORD_HEADER_BUILD_ID, 4);
	put(m, misc, 2);
	put(m, 8 + 4 + 24 + name_len, 2);
	put(m, (uint64_t) -1, 4);
	put_bytes(m, bid, 24);
	put_bytes(m, padded, name_len);
}

/*
 * The kernel's build id, which perf script uses to find the kernel's symbols: the
 * "[kernel.kallsyms]" entry of the BUILD_ID feature (kernel cpumode), not another object's.
 */
static void kernel_build_id_is_found(void **state)
{
	static const uint8_t kid[20] = {0x4a, 0x5a, 0x9b, 0x0a, 0xff, 0xb6, 0x6c, 0x43, 0x7a, 0xbc,
					0xd4, 0x55, 0xd2, 0x73, 0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9};
	static const uint8_t vid[20] = {0xe9, 0x5b, 0xae, 0xaa};
	struct img m;
	struct perfdata *pd;
	uint8_t out[20];
	size_t sec;

	(void) state;
	memset(&m, 0, sizeof(m));
	put_bytes(&m, "PERFILE2", 8);
	put(&m, 104, 8);     /* header size */
	put(&m, 72 + 16, 8); /* attribute entry */
	put(&m, 104, 8);     /* attrs at 104 */
	put(&m, 88, 8);	     /* one entry */
	put(&m, 200, 8);     /* data at 200, after the id */
	put(&m, 0, 8);	     /* no samples */
	put(&m, 0, 8);	     /* event_types */
	put(&m, 0, 8);
	put(&m, UINT64_C(1) << PERF_FEAT_BUILD_ID, 8); /* features: BUILD_ID only */
	put(&m, 0, 8);
	put(&m, 0, 8);
	put(&m, 0, 8);
	put_attr(&m, 300, ST);
	put(&m, 192, 8); /* its ids: one at 192 */
	put(&m, 8, 8);
	put(&m, 7, 8);
	assert_int_equal(m.n, 200);
	put(&m, 216, 8); /* the feature index: BUILD_ID's section at 216 */
	sec = m.n;
	put(&m, 0, 8);
	/* the vdso first (user cpumode), then the kernel with its id's size */
	put_build_id(&m, 2, vid, 20, "[vdso]");
	put_build_id(&m, 1 | PERF_RECORD_MISC_BUILD_ID_SIZE, kid, 20, "[kernel.kallsyms]");
	m.b[sec] = (uint8_t) (m.n - 216); /* its size, little-endian */
	assert_int_equal(perfdata_open(&pd, m.b, m.n), TK_OK);
	assert_int_equal(perfdata_kernel_build_id(pd, out), 20);
	assert_memory_equal(out, kid, 20);
	perfdata_close(pd);

	/* a file without the kernel's entry has none */
	m.b[216 + 44 + 4] = 2; /* the kernel's entry (after the vdso's 44 bytes) made user's */
	assert_int_equal(perfdata_open(&pd, m.b, m.n), TK_OK);
	assert_int_equal(perfdata_kernel_build_id(pd, out), 0);
	perfdata_close(pd);
}

static void damage_is_reported(void **state)
{
	struct img m;
	struct perfdata *pd;
	struct perfdata_cursor c;
	struct perf_record r;
	struct perf_sample s;
	char buf[512];

	(void) state;
	/* the last sample cut by 4 bytes: the first reads, then the walk fails at the cut one */
	pipe_le(&m);
	assert_int_equal(perfdata_open(&pd, m.b, m.n - 4), TK_OK);
	perfdata_cursor_init(pd, &c);
	for (int i = 0; i < 5; i++)
		assert_int_equal(perfdata_cursor_next(&c, &r), TK_OK);
	assert_int_equal(perfdata_cursor_next(&c, &r), TK_ERR_FORMAT);
	error_format(0, buf, sizeof(buf));
	assert_non_null(strstr(buf, "Cannot read perf.data record: offset="));
	assert_non_null(strstr(buf, "passes the end of the data"));
	perfdata_close(pd);
	error_reset();

	/* a sample whose id names no attribute */
	file_be(&m);
	m.b[296 + 8 + 7] = 0x33; /* id 0x2222 -> 0x2233 */
	assert_int_equal(perfdata_open(&pd, m.b, m.n), TK_OK);
	perfdata_cursor_init(pd, &c);
	assert_int_equal(perfdata_cursor_next(&c, &r), TK_OK);
	assert_int_equal(perfdata_sample(pd, &r, &s), TK_ERR_FORMAT);
	error_format(0, buf, sizeof(buf));
	assert_non_null(strstr(buf, "names no event attribute"));
	perfdata_close(pd);
	error_reset();

	/* the data section past the end of the file */
	file_be(&m);
	assert_int_equal(perfdata_open(&pd, m.b, m.n - 1), TK_ERR_FORMAT);
	error_format(0, buf, sizeof(buf));
	assert_non_null(strstr(buf, "data section"));
	error_reset();

	/* the first perf format and no magic at all */
	memcpy(m.b, "PERFFILE", 8);
	assert_int_equal(perfdata_open(&pd, m.b, m.n), TK_ERR_UNSUPPORTED);
	error_reset();
	memcpy(m.b, "NOTPERF!", 8);
	assert_int_equal(perfdata_open(&pd, m.b, m.n), TK_ERR_FORMAT);
	assert_false(perfdata_probe(m.b, 8));
	error_reset();
}

/* perf_event_attr.read_format: ID and LOST */
#define RF_ID_LOST (4u | 16u)

/* Every field up to RAW: ip, tid, time, addr, id, stream id, CPU, period, a read value. */
#define ST_ALL                                                                                     \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ |         \
	 PERF_SAMPLE_RAW)

/*
 * A pipe-mode file whose attribute 0 (id 5) has every field up to RAW, read with ID and
 * LOST (places known once per attribute), and attribute 1 (id 6) the same with a call
 * chain (read word by word); then a sample of each, whose fields are numbered by place.
 */
static void pipe_layouts(struct img *m, uint32_t raw_size)
{
	memset(m, 0, sizeof(*m));
	put_bytes(m, "PERFILE2", 8);
	put(m, 16, 8);
	put(m, PERF_RECORD_HEADER_ATTR, 4);
	put(m, 0, 2);
	put(m, 8 + 72 + 8, 2);
	put_attr_rf(m, 300, ST_ALL, RF_ID_LOST);
	put(m, 5, 8);
	put(m, PERF_RECORD_HEADER_ATTR, 4);
	put(m, 0, 2);
	put(m, 8 + 72 + 8, 2);
	put_attr_rf(m, 301, ST_ALL | PERF_SAMPLE_CALLCHAIN, RF_ID_LOST);
	put(m, 6, 8);
	for (uint64_t id = 5; id <= 6; id++) {
		/* 8 header, 8 ip, 8 tid, 8 time, 8 addr, 8 id, 8 stream, 8 cpu, 8 period, 24 read */
		put(m, PERF_RECORD_SAMPLE, 4);
		put(m, 0, 2);
		put(m, 96 + (id == 6 ? 24 : 0) + 8, 2);
		put(m, 0x1000 + id, 8); /* ip */
		put(m, 11, 4);		/* pid */
		put(m, 12, 4);		/* tid */
		put(m, 13, 8);		/* time */
		put(m, 14, 8);		/* addr */
		put(m, id, 8);		/* id */
		put(m, 15, 8);		/* stream id */
		put(m, 16, 4);		/* cpu */
		put(m, 0, 4);
		put(m, 17, 8); /* period */
		put(m, 18, 8); /* read: value, id, lost */
		put(m, id, 8);
		put(m, 0, 8);
		if (id == 6) {
			put(m, 2, 8); /* a call chain of two */
			put(m, 0xa, 8);
			put(m, 0xb, 8);
		}
		put(m, raw_size, 4);
		put(m, 0x64636261, 4); /* "abcd" */
	}
}

static void sample_fields_read_alike(const struct perfdata *pd, const struct perf_record *r,
				     uint64_t id)
{
	struct perf_sample s;

	assert_int_equal(perfdata_sample(pd, r, &s), TK_OK);
	assert_ptr_equal(s.attr, perfdata_attr(pd, id - 5));
	assert_int_equal(s.ip, 0x1000 + id);
	assert_int_equal(s.pid, 11);
	assert_int_equal(s.tid, 12);
	assert_int_equal(s.time, 13);
	assert_int_equal(s.addr, 14);
	assert_int_equal(s.id, id);
	assert_int_equal(s.stream_id, 15);
	assert_int_equal(s.cpu, 16);
	assert_int_equal(s.period, 17);
	assert_int_equal(s.raw_size, 4);
	assert_memory_equal(s.raw, "abcd", 4);
}

/*
 * A sample's fields come out the same whether their places are known once for the attribute
 * or read word by word (a call chain before RAW); a RAW size past the record, or a record
 * cut before RAW's size, fails either way.
 */
static void sample_layouts_read_alike(void **state)
{
	struct img m;
	struct perfdata *pd;
	struct perfdata_cursor c;
	struct perf_record r;
	struct perf_sample s;
	char buf[512];

	(void) state;
	pipe_layouts(&m, 4);
	assert_int_equal(perfdata_open(&pd, m.b, m.n), TK_OK);
	perfdata_cursor_init(pd, &c);
	for (int i = 0; i < 2; i++)
		assert_int_equal(perfdata_cursor_next(&c, &r), TK_OK);
	for (uint64_t id = 5; id <= 6; id++) {
		assert_int_equal(perfdata_cursor_next(&c, &r), TK_OK);
		sample_fields_read_alike(pd, &r, id);
	}
	perfdata_close(pd);

	pipe_layouts(&m, 5); /* one byte more than the record holds */
	assert_int_equal(perfdata_open(&pd, m.b, m.n), TK_OK);
	perfdata_cursor_init(pd, &c);
	for (int i = 0; i < 2; i++)
		assert_int_equal(perfdata_cursor_next(&c, &r), TK_OK);
	for (uint64_t id = 5; id <= 6; id++) {
		assert_int_equal(perfdata_cursor_next(&c, &r), TK_OK);
		assert_int_equal(perfdata_sample(pd, &r, &s), TK_ERR_FORMAT);
		error_format(0, buf, sizeof(buf));
		assert_non_null(strstr(buf, "raw data passes the record"));
		error_reset();
		/* the same record cut before its RAW size: too short for its fields */
		r.size -= 8;
		assert_int_equal(perfdata_sample(pd, &r, &s), TK_ERR_FORMAT);
		error_format(0, buf, sizeof(buf));
		assert_non_null(strstr(buf, "raw data cut"));
		error_reset();
	}
	perfdata_close(pd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pipe_mode_reads),
		cmocka_unit_test(file_mode_big_endian_reads),
		cmocka_unit_test(kernel_build_id_is_found),
		cmocka_unit_test(damage_is_reported),
		cmocka_unit_test(sample_layouts_read_alike),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
