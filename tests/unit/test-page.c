// SPDX-License-Identifier: MIT
/*
 * Unit tests of src/ftrace/page.c, the kernel ring-buffer sub-buffer decoder.
 *
 * Pages are built here by hand, in both byte orders and both kernel long sizes (64-bit:
 * commit 8 bytes, data at 16; 32-bit: commit 4 bytes, data at 12), following the kernel's
 * writer as reference/tracedat.md section 5 describes it. The builder below encodes the
 * event header word from the spec on its own (LE: type_len in the low 5 bits; BE: in the
 * high 5 bits), and the first test pins those bytes down literally, so a bit-order bug in
 * the decoder cannot hide behind the same bug in the test. Expected timestamps are sums
 * written out in each test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/bytes.h"
#include "common/error.h"
#include "ftrace/page.h"
#include "ftrace/page-write.h"

#define PAGE_SIZE 4096

/* Every combination a reader meets: {byte order, long size}. */
static const struct cfg {
	enum tk_byte_order bo;
	uint32_t long_size;
} cfgs[] = {
	{TK_BYTE_ORDER_LE, 8},
	{TK_BYTE_ORDER_BE, 8},
	{TK_BYTE_ORDER_LE, 4},
	{TK_BYTE_ORDER_BE, 4},
};

/* A page under construction. */
struct pb {
	uint8_t buf[PAGE_SIZE];
	uint32_t pos; /* next record */
	struct ftrace_page_layout layout;
	enum tk_byte_order bo;
};

static void pb_init(struct pb *b, const struct cfg *c, uint64_t ts)
{
	memset(b, 0, sizeof(*b));
	b->bo = c->bo;
	b->layout.ts_offset = 0;
	b->layout.ts_size = 8;
	b->layout.commit_offset = 8;
	b->layout.commit_size = c->long_size;
	b->layout.data_offset = 8 + c->long_size;
	b->layout.data_size = PAGE_SIZE - b->layout.data_offset;
	b->pos = b->layout.data_offset;
	tk_store_u64(b->buf, ts, c->bo);
}

static void pb_u32(struct pb *b, uint32_t v)
{
	tk_store_u32(b->buf + b->pos, v, b->bo);
	b->pos += 4;
}

/* The event header word: 5-bit type_len and 27-bit time_delta, in the file's bit order. */
static void pb_word(struct pb *b, uint32_t type_len, uint32_t delta)
{
	pb_u32(b, b->bo == TK_BYTE_ORDER_LE ? type_len | delta << 5 : type_len << 27 | delta);
}

/*
 * A data record of @len payload bytes, each (@fill + index), in the kernel's encoding: the
 * length in type_len up to 112 bytes, else (or with @big) in array[0], which counts itself.
 */
static uint32_t pb_record(struct pb *b, uint32_t delta, uint32_t len, uint8_t fill, int big)
{
	uint32_t padded = (len + 3) & ~3u, payload, i;

	if (len && padded <= 112 && !big) {
		pb_word(b, padded / 4, delta);
	} else {
		pb_word(b, 0, delta);
		pb_u32(b, len + 4);
	}
	payload = b->pos;
	for (i = 0; i < len; i++)
		b->buf[b->pos + i] = (uint8_t) (fill + i);
	b->pos += padded;
	return payload;
}

static uint32_t pb_data(struct pb *b, uint32_t delta, uint32_t len, uint8_t fill)
{
	return pb_record(b, delta, len, fill, 0);
}

/* Write the commit word: data bytes so far plus @flags (bits 30, 31). */
static void pb_commit(struct pb *b, uint64_t flags)
{
	uint64_t v = (b->pos - b->layout.data_offset) | flags;

	if (b->layout.commit_size == 8)
		tk_store_u64(b->buf + 8, v, b->bo);
	else
		tk_store_u32(b->buf + 8, (uint32_t) v, b->bo);
}

static void pb_open(struct pb *b, struct ftrace_page *pg)
{
	error_reset();
	assert_int_equal(ftrace_page_init(pg, &b->layout, b->bo, b->buf, sizeof(b->buf)), TK_OK);
}

static void expect_record(struct ftrace_page *pg, uint64_t ts, const uint8_t *data, uint32_t size)
{
	struct ftrace_record rec;

	assert_int_equal(ftrace_page_next(pg, &rec), TK_OK);
	assert_int_equal(rec.ts, ts);
	assert_ptr_equal(rec.data, data);
	assert_int_equal(rec.size, size);
}

static void expect_end(struct ftrace_page *pg)
{
	struct ftrace_record rec;

	assert_int_equal(ftrace_page_next(pg, &rec), TK_END);
	assert_int_equal(ftrace_page_next(pg, &rec), TK_END);
}

/* The innermost cause must name the record's offset in the page. */
static void expect_format_error(struct ftrace_page *pg, uint32_t offset)
{
	struct ftrace_record rec;
	char want[32];
	const char *cause;

	error_reset();
	assert_int_equal(ftrace_page_next(pg, &rec), TK_ERR_FORMAT);
	cause = tk_error_cause(tk_error_count() - 1);
	assert_non_null(cause);
	assert_true(strncmp(cause, "Cannot ", 7) == 0);
	snprintf(want, sizeof(want), "offset=%u,", offset);
	assert_non_null(strstr(cause, want));
}

static void test_header_word_bytes_pinned(void **state)
{
	/* clang-format off: one row per header field and record */
	/* LE64: ts 0x1122, commit 12, type_len 2 delta 1 = word 0x22 */
	static const uint8_t le[] = {
		0x22, 0x11, 0,	  0, 0, 0, 0,	 0,    12,   0,	   0,	 0,    0,    0,
		0,    0,    0x22, 0, 0, 0, 0xA1, 0xA2, 0xA3, 0xA4, 0xB1, 0xB2, 0xB3, 0xB4,
	};
	/* BE32: ts 0x1122, commit 12, type_len 2 delta 1 = word 0x10000001 */
	static const uint8_t be[] = {
		0,    0, 0, 0, 0,    0,	   0x11, 0x22, 0,    0,	   0,	 12,
		0x10, 0, 0, 1, 0xA1, 0xA2, 0xA3, 0xA4, 0xB1, 0xB2, 0xB3, 0xB4,
	};
	/* clang-format on */
	struct ftrace_page_layout l64 = {0, 8, 8, 8, 16, sizeof(le) - 16};
	struct ftrace_page_layout l32 = {0, 8, 8, 4, 12, sizeof(be) - 12};
	struct ftrace_page pg;

	(void) state;
	assert_int_equal(ftrace_page_init(&pg, &l64, TK_BYTE_ORDER_LE, le, sizeof(le)), TK_OK);
	assert_int_equal(pg.missed, 0);
	expect_record(&pg, 0x1123, le + 20, 8);
	expect_end(&pg);
	assert_int_equal(ftrace_page_init(&pg, &l32, TK_BYTE_ORDER_BE, be, sizeof(be)), TK_OK);
	expect_record(&pg, 0x1123, be + 16, 8);
	expect_end(&pg);
}

static void test_every_small_type_len(void **state)
{
	struct pb b;
	struct ftrace_page pg;
	uint32_t where[29], t, c;
	uint64_t ts;

	(void) state;
	for (c = 0; c < TK_ARRAY_SIZE(cfgs); c++) {
		pb_init(&b, &cfgs[c], 5000);
		for (t = 1; t <= 28; t++)
			where[t] = pb_data(&b, t * 10, t * 4, (uint8_t) t);
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		ts = 5000;
		for (t = 1; t <= 28; t++) {
			ts += t * 10;
			expect_record(&pg, ts, b.buf + where[t], t * 4);
			assert_int_equal(b.buf[where[t]], t);
			assert_int_equal(where[t] - 4, (t == 1 ? b.layout.data_offset
							       : where[t - 1] + (t - 1) * 4));
		}
		expect_end(&pg);
	}
}

static void test_array_length_records(void **state)
{
	static const uint32_t lens[] = {1, 4, 5, 113, 200};
	struct pb b;
	struct ftrace_page pg;
	uint32_t where[5], i, c;

	(void) state;
	for (c = 0; c < TK_ARRAY_SIZE(cfgs); c++) {
		pb_init(&b, &cfgs[c], 1);
		for (i = 0; i < 5; i++)
			where[i] = pb_record(&b, 2, lens[i], 0x40, 1);
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		for (i = 0; i < 5; i++) {
			uint32_t header =
				i ? where[i - 1] + ((lens[i - 1] + 3) & ~3u) : b.layout.data_offset;

			expect_record(&pg, 1 + 2 * (i + 1), b.buf + where[i], (lens[i] + 3) & ~3u);
			assert_int_equal(where[i], header + 8); /* after the word and array[0] */
		}
		expect_end(&pg);

		/* type_len 0 even for a small payload, as 8-byte-aligned architectures write */
		pb_init(&b, &cfgs[c], 1);
		pb_word(&b, 0, 9);
		pb_u32(&b, 4 + 6);
		b.pos += 8;
		pb_word(&b, 0, 1);
		pb_u32(&b, 4); /* an empty payload */
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		expect_record(&pg, 10, b.buf + b.layout.data_offset + 8, 8);
		expect_record(&pg, 11, b.buf + b.layout.data_offset + 24, 0);
		expect_end(&pg);
	}
}

static void test_time_extend_and_absolute_time_stamp(void **state)
{
	struct pb b;
	struct ftrace_page pg;
	uint32_t r1, r2, r3, c;
	uint64_t top = UINT64_C(0xA8) << 56; /* the top 5 bits are 10101 */

	(void) state;
	for (c = 0; c < TK_ARRAY_SIZE(cfgs); c++) {
		pb_init(&b, &cfgs[c], top | 1000);
		r1 = pb_data(&b, 7, 8, 1);
		pb_word(&b, 30, 5); /* time extend: + (3 << 27) + 5 */
		pb_u32(&b, 3);
		r2 = pb_data(&b, 11, 12, 2);
		pb_word(&b, 31, 0x123); /* absolute: low 59 bits = (0xABCDEF << 27) | 0x123 */
		pb_u32(&b, 0xABCDEF);
		r3 = pb_data(&b, 100, 4, 3);
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		expect_record(&pg, top | 1007, b.buf + r1, 8);
		expect_record(&pg, (top | 1007) + (UINT64_C(3) << 27) + 5 + 11, b.buf + r2, 12);
		expect_record(&pg, (top | (UINT64_C(0xABCDEF) << 27) | 0x123) + 100, b.buf + r3, 4);
		expect_end(&pg);
	}
}

static void test_absolute_time_stamp_drops_low_bits_of_old_time(void **state)
{
	struct pb b;
	struct ftrace_page pg;
	uint32_t r;

	(void) state;
	/* the running time has bits in 0..58 that the absolute stamp must replace entirely */
	pb_init(&b, &cfgs[0], (UINT64_C(1) << 59) - 1);
	pb_word(&b, 31, 2);
	pb_u32(&b, 1);
	r = pb_data(&b, 0, 4, 0);
	pb_commit(&b, 0);
	pb_open(&b, &pg);
	expect_record(&pg, (UINT64_C(1) << 27) | 2, b.buf + r, 4);
	expect_end(&pg);
}

static void test_padding(void **state)
{
	struct pb b;
	struct ftrace_page pg;
	uint32_t r1, r2, c;

	(void) state;
	for (c = 0; c < TK_ARRAY_SIZE(cfgs); c++) {
		/* a discarded event of 12 bytes: skipped, its delta still counts (kbuffer) */
		pb_init(&b, &cfgs[c], 0);
		r1 = pb_data(&b, 1, 4, 0);
		pb_word(&b, 29, 3);
		pb_u32(&b, 12);
		b.pos += 8;
		r2 = pb_data(&b, 5, 4, 0);
		/* padding to the end of the page, as the kernel writes when moving on */
		pb_word(&b, 29, 1);
		pb_u32(&b, PAGE_SIZE - b.pos);
		b.pos = PAGE_SIZE;
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		expect_record(&pg, 1, b.buf + r1, 4);
		expect_record(&pg, 9, b.buf + r2, 4);
		expect_end(&pg);

		/* padding with a zero delta: the rest of the page, whatever follows */
		pb_init(&b, &cfgs[c], 0);
		r1 = pb_data(&b, 1, 4, 0);
		pb_word(&b, 29, 0);
		pb_u32(&b, 0xFFFFFFFF);
		pb_data(&b, 1, 4, 0);
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		expect_record(&pg, 1, b.buf + r1, 4);
		expect_end(&pg);
	}
}

static void test_missed_events(void **state)
{
	struct pb b;
	struct ftrace_page pg;
	uint32_t r, c;

	(void) state;
	for (c = 0; c < TK_ARRAY_SIZE(cfgs); c++) {
		uint32_t ls = cfgs[c].long_size;

		/* stored: the count is a long right after the data */
		pb_init(&b, &cfgs[c], 0);
		r = pb_data(&b, 1, 4, 0);
		pb_commit(&b, UINT64_C(3) << 30);
		if (ls == 8)
			tk_store_u64(b.buf + b.pos, 123456789012, b.bo);
		else
			tk_store_u32(b.buf + b.pos, 4000000000u, b.bo);
		pb_open(&b, &pg);
		assert_int_equal(pg.missed, ls == 8 ? INT64_C(123456789012) : INT64_C(4000000000));
		expect_record(&pg, 1, b.buf + r, 4);
		expect_end(&pg);

		/* not stored: an unknown number */
		pb_init(&b, &cfgs[c], 0);
		pb_data(&b, 1, 4, 0);
		pb_commit(&b, UINT64_C(1) << 31);
		tk_store_u32(b.buf + b.pos, 77, b.bo);
		pb_open(&b, &pg);
		assert_int_equal(pg.missed, -1);

		/* the stored bit alone means nothing */
		pb_init(&b, &cfgs[c], 0);
		pb_data(&b, 1, 4, 0);
		pb_commit(&b, UINT64_C(1) << 30);
		pb_open(&b, &pg);
		assert_int_equal(pg.missed, 0);

		/* a full page has no room for the count */
		pb_init(&b, &cfgs[c], 0);
		b.pos = PAGE_SIZE - ls + 4;
		pb_commit(&b, UINT64_C(3) << 30);
		error_reset();
		assert_int_equal(ftrace_page_init(&pg, &b.layout, b.bo, b.buf, sizeof(b.buf)),
				 TK_ERR_FORMAT);
		b.pos = PAGE_SIZE - ls;
		pb_commit(&b, UINT64_C(3) << 30);
		pb_open(&b, &pg);
	}
}

static void test_commit_bounds(void **state)
{
	struct pb b;
	struct ftrace_page pg;
	struct ftrace_record rec;
	uint32_t c;

	(void) state;
	for (c = 0; c < TK_ARRAY_SIZE(cfgs); c++) {
		/* an empty page */
		pb_init(&b, &cfgs[c], 0);
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		assert_int_equal(ftrace_page_next(&pg, &rec), TK_END);

		/* exactly full, then one byte more */
		b.pos = PAGE_SIZE;
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		b.pos = PAGE_SIZE + 1;
		pb_commit(&b, 0);
		error_reset();
		assert_int_equal(ftrace_page_init(&pg, &b.layout, b.bo, b.buf, sizeof(b.buf)),
				 TK_ERR_FORMAT);
		assert_non_null(strstr(tk_error_cause(0), "commit="));

		/* bits 27..29 of the commit word are not part of the length */
		pb_init(&b, &cfgs[c], 0);
		pb_data(&b, 1, 4, 0);
		pb_commit(&b, UINT64_C(7) << 27);
		pb_open(&b, &pg);
		assert_int_equal(pg.end, b.layout.data_offset + 8);

		/* a buffer shorter than the page bounds the commit too */
		pb_init(&b, &cfgs[c], 0);
		pb_data(&b, 1, 4, 0);
		pb_commit(&b, 0);
		error_reset();
		assert_int_equal(ftrace_page_init(&pg, &b.layout, b.bo, b.buf, b.pos - 1),
				 TK_ERR_FORMAT);
		assert_int_equal(ftrace_page_init(&pg, &b.layout, b.bo, b.buf, b.pos), TK_OK);
		assert_int_equal(ftrace_page_init(&pg, &b.layout, b.bo, b.buf, 8 + 3),
				 TK_ERR_FORMAT);
	}
}

static void test_bad_layout(void **state)
{
	struct pb b;
	struct ftrace_page pg;

	(void) state;
	pb_init(&b, &cfgs[0], 0);
	pb_commit(&b, 0);
	b.layout.commit_size = 2;
	error_reset();
	assert_int_equal(ftrace_page_init(&pg, &b.layout, b.bo, b.buf, sizeof(b.buf)),
			 TK_ERR_FORMAT);
	b.layout.commit_size = 8;
	b.layout.data_offset = 12; /* overlaps the commit word */
	assert_int_equal(ftrace_page_init(&pg, &b.layout, b.bo, b.buf, sizeof(b.buf)),
			 TK_ERR_FORMAT);
	b.layout.data_offset = 16;
	b.layout.ts_size = 4;
	assert_int_equal(ftrace_page_init(&pg, &b.layout, b.bo, b.buf, sizeof(b.buf)),
			 TK_ERR_FORMAT);
}

/* Each truncated record is an error at its offset, after every record before it. */
static void test_truncated_records(void **state)
{
	struct pb b;
	struct ftrace_page pg;
	uint32_t r, bad, c;

	(void) state;
	for (c = 0; c < TK_ARRAY_SIZE(cfgs); c++) {
		/* a small record whose payload runs past the commit */
		pb_init(&b, &cfgs[c], 0);
		r = pb_data(&b, 1, 4, 0);
		bad = b.pos;
		pb_data(&b, 1, 16, 0);
		b.pos -= 4;
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		expect_record(&pg, 1, b.buf + r, 4);
		expect_format_error(&pg, bad);
		expect_format_error(&pg, bad); /* and it stays there */

		/* an array-length record too long for the page */
		pb_init(&b, &cfgs[c], 0);
		pb_word(&b, 0, 1);
		pb_u32(&b, 200);
		b.pos += 100;
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		expect_format_error(&pg, b.layout.data_offset);

		/* an array length that does not even count itself */
		pb_init(&b, &cfgs[c], 0);
		pb_word(&b, 0, 1);
		pb_u32(&b, 3);
		b.pos += 8;
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		expect_format_error(&pg, b.layout.data_offset);

		/* a time extend cut after its header word */
		pb_init(&b, &cfgs[c], 0);
		r = pb_data(&b, 1, 4, 0);
		bad = b.pos;
		pb_word(&b, 30, 1);
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		expect_record(&pg, 1, b.buf + r, 4);
		expect_format_error(&pg, bad);

		/* a header word cut in the middle (commit not a multiple of 4) */
		pb_init(&b, &cfgs[c], 0);
		pb_data(&b, 1, 4, 0);
		b.pos += 2;
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		expect_record(&pg, 1, pg.data + b.layout.data_offset + 4, 4);
		expect_format_error(&pg, b.pos - 2);

		/* a discarded event longer than the rest of the data */
		pb_init(&b, &cfgs[c], 0);
		pb_word(&b, 29, 1);
		pb_u32(&b, 9);
		b.pos += 4;
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		expect_format_error(&pg, b.layout.data_offset);

		/* an absolute time stamp cut after its header word, at the very end of the page */
		pb_init(&b, &cfgs[c], 0);
		pb_word(&b, 29, 1);
		pb_u32(&b, PAGE_SIZE - 4 - b.pos);
		b.pos = PAGE_SIZE - 4;
		pb_word(&b, 31, 1);
		pb_commit(&b, 0);
		pb_open(&b, &pg);
		expect_format_error(&pg, PAGE_SIZE - 4);
	}
}

/* ---- the encoder (page-write.c), checked through the decoder tested above ---- */

struct rt_rec {
	uint64_t ts;
	uint32_t size;
	int64_t missed;
	uint8_t data[300];
};

struct rt_sink {
	uint8_t *pages;
	size_t n, cap;
};

static enum tk_status rt_emit(const uint8_t *page, size_t size, void *payload)
{
	struct rt_sink *k = payload;

	assert_int_equal(size, PAGE_SIZE);
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 16;
		k->pages = realloc(k->pages, k->cap * PAGE_SIZE);
		assert_non_null(k->pages);
	}
	memcpy(k->pages + k->n * PAGE_SIZE, page, PAGE_SIZE);
	k->n++;
	return TK_OK;
}

/*
 * Records of every size from 1 to 300 bytes, with deltas of 0, small, just under and over
 * 2^27, 2^40 and 2^60, and losses (counted and not) before some: encoded, then decoded page
 * by page in every byte order and long size, they come back with the same times, bytes
 * (up to the 4-byte padding) and losses; every page but the last is full enough that the
 * next record would not have fitted.
 */
static void test_page_writer_round_trip(void **state)
{
	static const uint64_t gaps[] = {0,
					1,
					777,
					(UINT64_C(1) << 27) - 1,
					UINT64_C(1) << 27,
					UINT64_C(1) << 40,
					UINT64_C(1) << 60};
	enum { N = 1200 };
	struct rt_rec *recs = calloc(N, sizeof(*recs));
	size_t c, i, k;

	(void) state;
	assert_non_null(recs);
	for (c = 0; c < TK_ARRAY_SIZE(cfgs); c++) {
		struct pb shape;
		struct ftrace_page_writer pw;
		struct rt_sink sink = {0};
		uint64_t t = UINT64_C(1000000000), gap;

		pb_init(&shape, &cfgs[c], 0);
		for (i = 0; i < N; i++) {
			recs[i].size = 1 + (uint32_t) ((i * 37) % 300);
			/* every gap in turn, the 2^60 one only once (the clock would wrap) */
			gap = gaps[(i * 3) % TK_ARRAY_SIZE(gaps)];
			t += gap >= UINT64_C(1) << 60 && i != 600 ? gap >> 20 : gap;
			recs[i].ts = t;
			recs[i].missed = i % 97 == 5 ? (int64_t) i : i % 211 == 9 ? -1 : 0;
			for (k = 0; k < recs[i].size; k++)
				recs[i].data[k] = (uint8_t) (i + k * 3);
		}
		assert_int_equal(ftrace_page_writer_init(&pw, &shape.layout, cfgs[c].bo, PAGE_SIZE,
							 rt_emit, &sink),
				 TK_OK);
		for (i = 0; i < N; i++)
			assert_int_equal(ftrace_page_writer_add(&pw, recs[i].ts, recs[i].data,
								recs[i].size, recs[i].missed),
					 TK_OK);
		assert_int_equal(ftrace_page_writer_flush(&pw), TK_OK);
		/* going back in time is refused */
		assert_int_equal(ftrace_page_writer_add(&pw, 0, recs[0].data, 4, 0), TK_OK);
		assert_int_equal(ftrace_page_writer_add(&pw, 1, recs[0].data, 4, 0), TK_OK);
		assert_true(ftrace_page_writer_add(&pw, 0, recs[0].data, 4, 0) < 0);
		error_reset();
		ftrace_page_writer_fini(&pw);

		for (i = 0, k = 0; k < sink.n; k++) {
			struct ftrace_page pg;
			struct ftrace_record r;
			int first = 1;

			assert_int_equal(ftrace_page_init(&pg, &shape.layout, cfgs[c].bo,
							  sink.pages + k * PAGE_SIZE, PAGE_SIZE),
					 TK_OK);
			while (ftrace_page_next(&pg, &r) == TK_OK) {
				assert_true(i < N);
				if (first) {
					assert_int_equal(pg.missed, recs[i].missed);
					first = 0;
				} else {
					assert_int_equal(recs[i].missed, 0);
				}
				assert_int_equal(r.ts, recs[i].ts);
				assert_int_equal(r.size, (recs[i].size + 3) & ~3u);
				assert_memory_equal(r.data, recs[i].data, recs[i].size);
				i++;
			}
		}
		assert_int_equal(i, N);
		assert_true(sink.n > 40);
		free(sink.pages);
	}
	free(recs);
}

/*
 * The largest record the kernel writes (BUF_MAX_DATA_SIZE: a 4 KiB page less its 16-byte
 * header with a 64-bit commit field, 12 with a 32-bit one, less the header and length words
 * of the record, so 4072 and 4076 bytes) fills a page alone and reads back whole; one byte
 * more is refused.
 */
static void test_page_writer_largest_record(void **state)
{
	static const uint32_t want[] = {4072, 4072, 4076, 4076};
	static uint8_t data[PAGE_SIZE];
	size_t c, k;

	(void) state;
	for (k = 0; k < sizeof(data); k++)
		data[k] = (uint8_t) (k * 7 + 1);
	for (c = 0; c < TK_ARRAY_SIZE(cfgs); c++) {
		struct pb shape;
		struct ftrace_page_writer pw;
		struct rt_sink sink = {0};
		struct ftrace_page pg;
		struct ftrace_record r;

		pb_init(&shape, &cfgs[c], 0);
		assert_int_equal(ftrace_page_max_record(&shape.layout, PAGE_SIZE), want[c]);
		assert_int_equal(ftrace_page_writer_init(&pw, &shape.layout, cfgs[c].bo, PAGE_SIZE,
							 rt_emit, &sink),
				 TK_OK);
		assert_true(ftrace_page_writer_add(&pw, 5, data, want[c] + 1, 0) < 0);
		error_reset();
		assert_int_equal(ftrace_page_writer_add(&pw, 5, data, want[c], 0), TK_OK);
		assert_int_equal(ftrace_page_writer_add(&pw, 6, data, 4, 0), TK_OK);
		assert_int_equal(ftrace_page_writer_flush(&pw), TK_OK);
		ftrace_page_writer_fini(&pw);
		assert_int_equal(sink.n, 2); /* the small record did not fit beside it */
		assert_int_equal(
			ftrace_page_init(&pg, &shape.layout, cfgs[c].bo, sink.pages, PAGE_SIZE),
			TK_OK);
		assert_int_equal(ftrace_page_next(&pg, &r), TK_OK);
		assert_int_equal(r.size, want[c]);
		assert_memory_equal(r.data, data, want[c]);
		assert_int_equal(ftrace_page_next(&pg, &r), TK_END);
		free(sink.pages);
	}
}

/*
 * A page that starts after a counted loss and is then filled to the brim still has the count:
 * the encoder leaves room for it after the data, however the records fall.
 */
static void test_page_writer_keeps_loss_count(void **state)
{
	uint8_t data[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
	size_t c, sz;

	(void) state;
	for (c = 0; c < TK_ARRAY_SIZE(cfgs); c++)
		for (sz = 4; sz <= 16; sz += 4) {
			struct pb shape;
			struct ftrace_page_writer pw;
			struct rt_sink sink = {0};
			struct ftrace_page pg;
			uint64_t i;

			pb_init(&shape, &cfgs[c], 0);
			assert_int_equal(ftrace_page_writer_init(&pw, &shape.layout, cfgs[c].bo,
								 PAGE_SIZE, rt_emit, &sink),
					 TK_OK);
			for (i = 0; sink.n < 2; i++)
				assert_int_equal(ftrace_page_writer_add(&pw, 100 + i, data,
									(uint32_t) sz,
									i == 0 ? 77 : 0),
						 TK_OK);
			ftrace_page_writer_fini(&pw);
			assert_int_equal(ftrace_page_init(&pg, &shape.layout, cfgs[c].bo,
							  sink.pages, PAGE_SIZE),
					 TK_OK);
			assert_int_equal(pg.missed, 77);
			free(sink.pages);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_word_bytes_pinned),
		cmocka_unit_test(test_every_small_type_len),
		cmocka_unit_test(test_array_length_records),
		cmocka_unit_test(test_time_extend_and_absolute_time_stamp),
		cmocka_unit_test(test_absolute_time_stamp_drops_low_bits_of_old_time),
		cmocka_unit_test(test_padding),
		cmocka_unit_test(test_missed_events),
		cmocka_unit_test(test_commit_bounds),
		cmocka_unit_test(test_bad_layout),
		cmocka_unit_test(test_truncated_records),
		cmocka_unit_test(test_page_writer_round_trip),
		cmocka_unit_test(test_page_writer_keeps_loss_count),
		cmocka_unit_test(test_page_writer_largest_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
