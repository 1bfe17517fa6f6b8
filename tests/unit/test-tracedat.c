// SPDX-License-Identifier: MIT
/*
 * Unit tests of the trace.dat container (src/tracedat): file header, metadata parts, options,
 * v7 sections and string table, buffers and instances, latency text, per-CPU pages, plain and
 * compressed (zstd, zlib), in both byte orders, and the damage a reader must survive.
 *
 * The files are built here, byte by byte, by a small writer that follows
 * ../shared/reference/tracedat.md sections 2 to 4 (the recipe of every fixture is the struct
 * fx that describes it); expected values come from that description, never from the reader.
 * Real files from the shared corpus are checked against facts trace-cmd printed for them
 * (expect-trace-cmd/NAME.report.txt) and against each other (the v6, v7 and v7-zstd copies of
 * one trace must yield the same page bytes); those checks are skipped when the corpus is
 * absent.
 *
 * With TRACEKIT_TRACEDAT_SEEDS=DIR in the environment, the test also writes its fixtures
 * (the copies with 256-byte pages) into DIR: that is how tests/fuzz/corpus/tracedat/gen-*
 * were made. The tc-convert-* seeds there are trace-cmd 3.1.6's rewrites of two of them:
 *	trace-cmd convert --compression zstd -i gen-v6-le -o tc-convert-v7-zstd
 *	trace-cmd convert --compression none -i gen-v6-le -o tc-convert-v7-none
 *	trace-cmd convert --compression zstd -i gen-v6-latency -o tc-convert-v7-latency-zstd
 * crash-* seeds are inputs the fuzzer once made fail.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>
#include <zstd.h>

#include "common/bytes.h"
#include "common/error.h"
#include "tracedat/tracedat.h"

/* ---- fixture text ----------------------------------------------------------------------- */

static const char HEADER_PAGE[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
				  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
				  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
static const char HEADER_EVENT[] = "# compressed entry header\n"
				   "\ttype_len    :    5 bits\n"
				   "\ttime_delta  :   27 bits\n"
				   "\tarray       :   32 bits\n";
static const char *const FTRACE_FMT[] = {
	"name: function\nID: 1\nformat:\n\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n",
	"name: print\nID: 5\nformat:\n\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n",
};
static const char *const SCHED_FMT[] = {
	"name: sched_switch\nID: 316\nformat:\n\tfield:char prev_comm[16];\n",
	"name: sched_wakeup\nID: 320\nformat:\n\tfield:pid_t pid;\n",
};
static const char *const IRQ_FMT[] = {"name: irq_handler_entry\nID: 140\nformat:\n"};
static const char KALLSYMS[] = "ffffffff81000000 T _stext\nffffffff81000100 t do_one\n";
static const char PRINTK[] = "0xffffffff82000000 : \"hello %d\\n\"\n";
static const char CMDLINES[] = "1 systemd\n42 sleep\n";
static const char UNAME[] = "Linux box 6.1.0 x86_64";
static const char TCVERSION[] = "3.1.6 not-a-git-repo";
static const char CLOCK_TEXT[] = "[local] global counter uptime perf mono mono_raw boot\n";
static const char CPUSTAT0[] = "CPU: 0\nentries: 10\n";
static const char CPUSTAT1[] = "CPU: 1\nentries: 20\n";
static const char LATENCY[] = "# tracer: irqsoff\n#\n# irqsoff latency trace v1.1.5\n"
			      "  <idle>-0  0d.h1  1us : trace_hardirqs_off\n";

/* ---- a trace.dat writer for fixtures --------------------------------------------------------- */

struct bld {
	uint8_t *d;
	size_t len, cap;
	enum tk_byte_order bo;
};

static void b_put(struct bld *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;

		while (cap < b->len + n)
			cap *= 2;
		b->d = realloc(b->d, cap);
		assert_non_null(b->d);
		b->cap = cap;
	}
	if (n)
		memcpy(b->d + b->len, p, n);
	b->len += n;
}

static void b_u8(struct bld *b, uint8_t v)
{
	b_put(b, &v, 1);
}

static void b_u16(struct bld *b, uint16_t v)
{
	uint8_t t[2];

	tk_store_u16(t, v, b->bo);
	b_put(b, t, 2);
}

static void b_u32(struct bld *b, uint32_t v)
{
	uint8_t t[4];

	tk_store_u32(t, v, b->bo);
	b_put(b, t, 4);
}

static void b_u64(struct bld *b, uint64_t v)
{
	uint8_t t[8];

	tk_store_u64(t, v, b->bo);
	b_put(b, t, 8);
}

static void b_str(struct bld *b, const char *s)
{
	b_put(b, s, strlen(s) + 1);
}

static void b_pad(struct bld *b, size_t align)
{
	static const uint8_t zero[64];

	while (b->len % align)
		b_put(b, zero, align - b->len % align < 64 ? align - b->len % align : 64);
}

static void b_p32(struct bld *b, size_t at, uint32_t v)
{
	tk_store_u32(b->d + at, v, b->bo);
}

static void b_p64(struct bld *b, size_t at, uint64_t v)
{
	tk_store_u64(b->d + at, v, b->bo);
}

static void b_fini(struct bld *b)
{
	free(b->d);
	memset(b, 0, sizeof(*b));
}

/* One CPU's data: @pages full pages, then a short page of @tail bytes when @tail > 0. */
struct fx_cpu {
	uint32_t cpu;
	uint32_t pages;
	uint32_t tail;
};

struct fx_buf {
	const char *name;
	const char *clock;
	uint32_t page_size; /* v7 only; v6 buffers use the header's */
	int latency;	    /* v7: BUFFER_TEXT; v6 top: "latency" marker */
	size_t ncpu;
	struct fx_cpu cpus[4];
	uint32_t table; /* v6: CPU table entries (CPUs without data have size 0) */
};

/* Everything a fixture file holds; the writer follows it, the tests check against it. */
struct fx {
	int version;
	enum tk_byte_order bo;
	uint32_t page_size;
	const char *comp; /* v7: "none", "zstd", "zlib" */
	int meta_compressed, data_compressed, options_compressed;
	int size_bug;	   /* v7: per-CPU size 4 short (trace-cmd <= 3.1) */
	int padded_blocks; /* v7: metadata zsize = compressBound, junk after the frame */
	int empty_first_options;
	int traceclock;	     /* 0 none, 1 empty payload (< 3.0), 2 full text */
	int options;	     /* v6: write an options block */
	int unknown_options; /* options 23, 24, 25 and 200, kept raw */
	int date, offset, tsc2nsec, cpucount;
	int v6_cpucount;	   /* v6: a CPUCOUNT option (not after a BUFFER) with this value */
	const char *date_text;	   /* NULL: FX_DATE_TEXT */
	const uint8_t *time_shift; /* a TIME_SHIFT payload, or NULL */
	size_t time_shift_len;
	uint32_t chunk_pages;	/* pages per compressed chunk */
	uint32_t latency_chunk; /* text bytes per compressed latency chunk */
	int empty_chunk;	/* chunked data starts with a chunk of 0 bytes */
	size_t nbuf;
	struct fx_buf buf[3];
};

#define FX_DATE_TEXT   "0x5f5e100" /* 100000000 us */
#define FX_DATE_NS     INT64_C(100000000000)
#define FX_OFFSET_TEXT "-12345"
#define FX_TSC_MULT    1234u
#define FX_TSC_SHIFT   10u
#define FX_TSC_OFFSET  UINT64_C(987654321)

/* Page @page of CPU @cpu of buffer @b: a tag in its first 8 bytes, then a pattern. */
static void page_fill(uint8_t *p, size_t n, enum tk_byte_order bo, size_t b, uint32_t cpu,
		      uint32_t page)
{
	uint8_t t[8];
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t) (b * 31 + cpu * 7 + page + i / 64);
	tk_store_u64(t, ((uint64_t) b << 40) | ((uint64_t) cpu << 20) | page, bo);
	memcpy(p, t, n < 8 ? n : 8);
}

static uint32_t buf_page_size(const struct fx *f, size_t b)
{
	return f->version >= 7 && f->buf[b].page_size ? f->buf[b].page_size : f->page_size;
}

/* zstd as trace-cmd calls it (no content size in the frame), or zlib at level 9. */
static size_t fx_compress(const char *comp, const uint8_t *src, size_t n, uint8_t **out)
{
	size_t cap, len;

	if (!strcmp(comp, "zlib")) {
		uLongf zl = compressBound((uLong) n);

		*out = malloc(zl);
		assert_non_null(*out);
		assert_int_equal(compress2(*out, &zl, src, (uLong) n, 9), Z_OK);
		return zl;
	}
	{
		ZSTD_CCtx *cc = ZSTD_createCCtx();

		cap = ZSTD_compressBound(n);
		*out = malloc(cap);
		assert_non_null(*out);
		ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
		len = ZSTD_compress2(cc, *out, cap, src, n);
		assert_false(ZSTD_isError(len));
		ZSTD_freeCCtx(cc);
	}
	return len;
}

/* A compressed metadata block: u32 zsize, u32 usize, data (with trace-cmd 3.0's junk tail). */
static void put_block(struct bld *b, const struct fx *f, const uint8_t *src, size_t n)
{
	uint8_t *z;
	size_t zn = fx_compress(f->comp, src, n, &z);

	if (f->padded_blocks) {
		size_t bound = ZSTD_compressBound(n) + 64, i;

		b_u32(b, (uint32_t) bound);
		b_u32(b, (uint32_t) n);
		b_put(b, z, zn);
		for (i = zn; i < bound; i++)
			b_u8(b, (uint8_t) (0xA5 ^ i));
	} else {
		b_u32(b, (uint32_t) zn);
		b_u32(b, (uint32_t) n);
		b_put(b, z, zn);
	}
	free(z);
}

/* Chunked data: u32 count, count x {u32 zsize, u32 usize, data}, @chunk bytes per chunk. */
static void put_chunks(struct bld *b, const struct fx *f, const uint8_t *src, size_t n,
		       size_t chunk)
{
	size_t at, count = (n + chunk - 1) / chunk;

	b_u32(b, (uint32_t) count + (f->empty_chunk ? 1 : 0));
	if (f->empty_chunk) {
		uint8_t *z;
		size_t zn = fx_compress(f->comp, (const uint8_t *) "", 0, &z);

		b_u32(b, (uint32_t) zn);
		b_u32(b, 0);
		b_put(b, z, zn);
		free(z);
	}
	for (at = 0; at < n; at += chunk) {
		size_t len = n - at < chunk ? n - at : chunk;
		uint8_t *z;
		size_t zn = fx_compress(f->comp, src + at, len, &z);

		b_u32(b, (uint32_t) zn);
		b_u32(b, (uint32_t) len);
		b_put(b, z, zn);
		free(z);
	}
}

static void put_blob64(struct bld *b, const char *s)
{
	b_u64(b, strlen(s));
	b_put(b, s, strlen(s));
}

static void put_part(struct bld *b, unsigned int id)
{
	size_t i;

	switch (id) {
	case 16:
		b_put(b, "header_page", 12);
		put_blob64(b, HEADER_PAGE);
		b_put(b, "header_event", 13);
		put_blob64(b, HEADER_EVENT);
		break;
	case 17:
		b_u32(b, 2);
		for (i = 0; i < 2; i++)
			put_blob64(b, FTRACE_FMT[i]);
		break;
	case 18:
		b_u32(b, 2);
		b_str(b, "sched");
		b_u32(b, 2);
		for (i = 0; i < 2; i++)
			put_blob64(b, SCHED_FMT[i]);
		b_str(b, "irq");
		b_u32(b, 1);
		put_blob64(b, IRQ_FMT[0]);
		break;
	case 19:
		b_u32(b, (uint32_t) strlen(KALLSYMS));
		b_put(b, KALLSYMS, strlen(KALLSYMS));
		break;
	case 20:
		b_u32(b, (uint32_t) strlen(PRINTK));
		b_put(b, PRINTK, strlen(PRINTK));
		break;
	case 21:
		put_blob64(b, CMDLINES);
		break;
	}
}

static void put_option(struct bld *b, uint16_t id, const void *data, size_t n)
{
	b_u16(b, id);
	b_u32(b, (uint32_t) n);
	b_put(b, data, n);
}

static void put_option_str(struct bld *b, uint16_t id, const char *s)
{
	put_option(b, id, s, strlen(s) + 1);
}

/* The options both versions share (the parsed ones and a few raw ones). */
static void put_common_options(struct bld *b, const struct fx *f)
{
	if (f->date)
		put_option_str(b, 1, f->date_text ? f->date_text : FX_DATE_TEXT);
	if (f->offset)
		put_option_str(b, 7, FX_OFFSET_TEXT);
	if (f->tsc2nsec) {
		struct bld t = {.bo = b->bo};

		b_u32(&t, FX_TSC_MULT);
		b_u32(&t, FX_TSC_SHIFT);
		b_u64(&t, FX_TSC_OFFSET);
		put_option(b, 14, t.d, t.len);
		b_fini(&t);
	}
	if (f->time_shift)
		put_option(b, 12, f->time_shift, f->time_shift_len);
	if (f->traceclock == 1)
		put_option(b, 4, "", 0);
	else if (f->traceclock == 2)
		put_option_str(b, 4, CLOCK_TEXT);
	put_option_str(b, 5, UNAME);
	put_option_str(b, 9, TCVERSION);
	put_option_str(b, 2, CPUSTAT0);
	put_option_str(b, 2, CPUSTAT1);
	if (f->unknown_options) {
		put_option(b, 23, "\x01\x02\x03", 3);
		put_option_str(b, 24, "top:boot info");
		put_option(b, 25, "", 0);
		put_option(b, 200, "\xff", 1);
	}
}

/* The data of one CPU, page aligned; *@off and *@size as the file will give them. */
static void put_cpu_data(struct bld *b, const struct fx *f, size_t bi, const struct fx_cpu *c,
			 uint64_t *off, uint64_t *size)
{
	uint32_t ps = buf_page_size(f, bi), p;
	size_t total = (size_t) c->pages * ps + c->tail, start;
	uint8_t *tmp = malloc(total + 1);

	assert_non_null(tmp);
	for (p = 0; p < c->pages; p++)
		page_fill(tmp + (size_t) p * ps, ps, f->bo, bi, c->cpu, p);
	if (c->tail)
		page_fill(tmp + (size_t) c->pages * ps, c->tail, f->bo, bi, c->cpu, c->pages);
	b_pad(b, ps);
	start = b->len;
	*off = start;
	if (f->version >= 7 && f->data_compressed) {
		put_chunks(b, f, tmp, total, (size_t) (f->chunk_pages ? f->chunk_pages : 10) * ps);
		*size = b->len - start - (f->size_bug ? 4 : 0);
	} else {
		b_put(b, tmp, total);
		*size = total;
	}
	free(tmp);
}

/* ---- version 6 ---- */

static void put_clock_blob(struct bld *b, const struct fx *f, const char *clock)
{
	char text[128];

	if (!f->traceclock)
		return;
	/* trace-cmd 2.9 saved the whole trace_clock file; 3.x saves "[clock]" */
	if (f->traceclock == 1)
		snprintf(text, sizeof(text), "[%s] global counter\n", clock);
	else
		snprintf(text, sizeof(text), "[%s]", clock);
	put_blob64(b, text);
}

static uint32_t v6_table(const struct fx_buf *fb)
{
	uint32_t n = fb->table, i;

	for (i = 0; i < fb->ncpu; i++)
		if (fb->cpus[i].cpu >= n)
			n = fb->cpus[i].cpu + 1;
	return n;
}

/* A flyrecord CPU table with room for the offsets; returns where it starts. */
static size_t put_table_v6(struct bld *b, const struct fx *f, size_t bi)
{
	size_t at;
	uint32_t i, n = v6_table(&f->buf[bi]);

	b_put(b, "flyrecord", 10);
	at = b->len;
	for (i = 0; i < n; i++) {
		b_u64(b, 0);
		b_u64(b, 0);
	}
	put_clock_blob(b, f, f->buf[bi].clock);
	return at;
}

static void build_v6(struct bld *b, const struct fx *f)
{
	size_t bopt[3] = {0}, table[3] = {0}, bi, i;
	unsigned int id;

	b->bo = f->bo;
	b_put(b, "\x17\x08\x44tracing", 10);
	b_str(b, "6");
	b_u8(b, f->bo == TK_BYTE_ORDER_BE);
	b_u8(b, 8);
	b_u32(b, f->page_size);
	for (id = 16; id <= 21; id++)
		put_part(b, id);
	b_u32(b, v6_table(&f->buf[0]));
	if (f->options) {
		b_put(b, "options  ", 10);
		put_common_options(b, f);
		if (f->v6_cpucount) {
			uint8_t t[4];

			tk_store_u32(t, (uint32_t) f->v6_cpucount, f->bo);
			put_option(b, 8, t, 4);
		}
		for (bi = 1; bi < f->nbuf; bi++) {
			b_u16(b, 3);
			b_u32(b, (uint32_t) (8 + strlen(f->buf[bi].name) + 1));
			bopt[bi] = b->len;
			b_u64(b, 0);
			b_str(b, f->buf[bi].name);
			if (v6_table(&f->buf[bi]) != v6_table(&f->buf[0])) {
				uint8_t t[4];

				tk_store_u32(t, v6_table(&f->buf[bi]), f->bo);
				put_option(b, 8, t, 4);
			}
		}
		b_u16(b, 0);
	}
	if (f->buf[0].latency) {
		b_put(b, "latency  ", 10);
		b_put(b, LATENCY, strlen(LATENCY));
		return;
	}
	table[0] = put_table_v6(b, f, 0);
	for (bi = 1; bi < f->nbuf; bi++) {
		b_p64(b, bopt[bi], b->len);
		table[bi] = put_table_v6(b, f, bi);
	}
	for (bi = 0; bi < f->nbuf; bi++)
		for (i = 0; i < f->buf[bi].ncpu; i++) {
			const struct fx_cpu *c = &f->buf[bi].cpus[i];
			uint64_t off, size;

			put_cpu_data(b, f, bi, c, &off, &size);
			b_p64(b, table[bi] + 16 * c->cpu, off);
			b_p64(b, table[bi] + 16 * c->cpu + 8, size);
		}
}

/* ---- version 7 ---- */

struct strtab {
	struct bld s;
	size_t flushed; /* bytes already written in a STRINGS section */
};

static uint32_t str_add(struct strtab *st, const char *s)
{
	uint32_t at = (uint32_t) st->s.len;

	b_str(&st->s, s);
	return at;
}

/* A section: 16-byte header, then @payload, compressed into one block when @compress. */
static size_t put_section(struct bld *b, const struct fx *f, uint16_t id, uint32_t desc,
			  const struct bld *payload, int compress)
{
	size_t at = b->len, size_at;

	b_u16(b, id);
	b_u16(b, compress ? 1 : 0);
	b_u32(b, desc);
	size_at = b->len;
	b_u64(b, 0);
	if (compress)
		put_block(b, f, payload->d, payload->len);
	else
		b_put(b, payload->d, payload->len);
	b_p64(b, size_at, b->len - size_at - 8);
	return at;
}

static void put_strings(struct bld *b, const struct fx *f, struct strtab *st)
{
	struct bld t = {.bo = b->bo};

	b_put(&t, st->s.d + st->flushed, st->s.len - st->flushed);
	st->flushed = st->s.len;
	put_section(b, f, 15, 0xffffffffu, &t, f->meta_compressed);
	b_fini(&t);
}

struct v7_buf {
	uint64_t section;
	uint64_t off[4], size[4];
};

/* A buffer section: header, per-CPU data (page aligned inside), size patched at the end. */
static void put_buffer_v7(struct bld *b, const struct fx *f, size_t bi, struct strtab *st,
			  struct v7_buf *out)
{
	const struct fx_buf *fb = &f->buf[bi];
	char desc[64];
	size_t size_at, i;
	int compressed = f->data_compressed && strcmp(f->comp, "none");

	snprintf(desc, sizeof(desc), "buffer %s %s", fb->latency ? "latency" : "flyrecord",
		 fb->name);
	out->section = b->len;
	b_u16(b, fb->latency ? 22 : 3);
	b_u16(b, compressed ? 1 : 0);
	b_u32(b, str_add(st, desc));
	size_at = b->len;
	b_u64(b, 0);
	if (fb->latency) {
		if (compressed)
			put_chunks(b, f, (const uint8_t *) LATENCY, strlen(LATENCY),
				   f->latency_chunk ? f->latency_chunk : 4096);
		else
			b_put(b, LATENCY, strlen(LATENCY));
	} else {
		for (i = 0; i < fb->ncpu; i++)
			put_cpu_data(b, f, bi, &fb->cpus[i], &out->off[i], &out->size[i]);
	}
	b_p64(b, size_at, b->len - size_at - 8);
}

static void put_buffer_option(struct bld *opts, const struct fx *f, size_t bi,
			      const struct v7_buf *vb)
{
	const struct fx_buf *fb = &f->buf[bi];
	struct bld t = {.bo = opts->bo};
	size_t i;

	b_u64(&t, vb->section);
	b_str(&t, fb->name);
	b_str(&t, fb->clock);
	if (!fb->latency) {
		b_u32(&t, buf_page_size(f, bi));
		b_u32(&t, (uint32_t) fb->ncpu);
		for (i = 0; i < fb->ncpu; i++) {
			b_u32(&t, fb->cpus[i].cpu);
			b_u64(&t, vb->off[i]);
			b_u64(&t, vb->size[i]);
		}
	}
	put_option(opts, fb->latency ? 22 : 3, t.d, t.len);
	b_fini(&t);
}

/* An options section ending in DONE with @next; returns its offset. */
static size_t put_options_section(struct bld *b, const struct fx *f, struct bld *opts,
				  uint64_t next, struct strtab *st)
{
	uint8_t t[8];

	tk_store_u64(t, next, b->bo);
	put_option(opts, 0, t, 8);
	return put_section(b, f, 0, str_add(st, "options"), opts, f->options_compressed);
}

static void build_v7(struct bld *b, const struct fx *f)
{
	static const char *const desc[] = {"headers",  "ftrace events", "events format",
					   "kallsyms", "printk",	"command lines"};
	struct strtab st = {.s = {.bo = f->bo}};
	struct v7_buf vb[3];
	uint64_t sec[6];
	size_t first_at, bi, opt2, opt1;
	struct bld o2 = {.bo = f->bo}, o1 = {.bo = f->bo}, o0 = {.bo = f->bo};
	unsigned int id;

	memset(vb, 0, sizeof(vb));
	b->bo = f->bo;
	b_put(b, "\x17\x08\x44tracing", 10);
	b_str(b, "7");
	b_u8(b, f->bo == TK_BYTE_ORDER_BE);
	b_u8(b, 8);
	b_u32(b, f->page_size);
	b_str(b, f->comp);
	b_str(b, strcmp(f->comp, "none") ? "1.5.4" : "");
	first_at = b->len;
	b_u64(b, 0);
	for (id = 16; id <= 21; id++) {
		struct bld t = {.bo = f->bo};

		put_part(&t, id);
		sec[id - 16] = put_section(b, f, (uint16_t) id, str_add(&st, desc[id - 16]), &t,
					   f->meta_compressed);
		b_fini(&t);
	}
	put_strings(b, f, &st); /* a first string table: readers must join all of them */
	for (bi = 0; bi < f->nbuf; bi++)
		put_buffer_v7(b, f, bi, &st, &vb[bi]);
	/* the chain is written backwards so each DONE knows its successor */
	for (bi = 0; bi < f->nbuf; bi++)
		put_buffer_option(&o2, f, bi, &vb[bi]);
	opt2 = put_options_section(b, f, &o2, 0, &st);
	for (id = 16; id <= 21; id++) {
		uint8_t t[8];

		tk_store_u64(t, sec[id - 16], f->bo);
		put_option(&o1, (uint16_t) id, t, 8);
	}
	put_common_options(&o1, f);
	if (f->cpucount) {
		uint8_t t[4];

		tk_store_u32(t, (uint32_t) f->cpucount, f->bo);
		put_option(&o1, 8, t, 4);
	}
	opt1 = put_options_section(b, f, &o1, opt2, &st);
	if (f->empty_first_options)
		opt1 = put_options_section(b, f, &o0, opt1, &st);
	b_p64(b, first_at, opt1);
	put_strings(b, f, &st);
	b_fini(&o0);
	b_fini(&o1);
	b_fini(&o2);
	b_fini(&st.s);
}

static void fx_build(struct bld *b, const struct fx *f)
{
	memset(b, 0, sizeof(*b));
	if (f->version >= 7)
		build_v7(b, f);
	else
		build_v6(b, f);
}

/* The default fixture: every option, a top buffer with CPUs 0 and 2 (CPU 1 without data). */
static struct fx fx_default(int version, enum tk_byte_order bo, const char *comp)
{
	struct fx f;

	memset(&f, 0, sizeof(f));
	f.version = version;
	f.bo = bo;
	f.page_size = 4096;
	f.comp = comp;
	f.meta_compressed = strcmp(comp, "none") != 0;
	f.data_compressed = f.meta_compressed;
	f.traceclock = 2;
	f.options = 1;
	f.date = f.offset = f.tsc2nsec = 1;
	f.cpucount = 3;
	f.nbuf = 1;
	f.buf[0] = (struct fx_buf){.name = "",
				   .clock = "local",
				   .ncpu = 2,
				   .cpus = {{0, 3, 0}, {2, 12, 0}},
				   .table = 3};
	return f;
}

/* ---- checks ---------------------------------------------------------------------------- */

static void assert_blob(const struct tracedat_blob *b, const char *s)
{
	assert_int_equal(b->len, strlen(s));
	assert_memory_equal(b->data, s, b->len);
}

static void dump_causes(void)
{
	size_t i;

	for (i = 0; i < tk_error_count(); i++)
		print_message("  cause: %s\n", tk_error_cause(i));
}

static struct tracedat *open_ok(const struct bld *b)
{
	struct tracedat *td = NULL;
	enum tk_status st;

	error_reset();
	st = tracedat_open_mem(&td, b->d, b->len);
	if (st != TK_OK)
		dump_causes();
	assert_int_equal(st, TK_OK);
	return td;
}

/* Open must fail with @status and a cause containing @needle. */
static void open_fails(const struct bld *b, enum tk_status status, const char *needle)
{
	struct tracedat *td = NULL;
	enum tk_status st;
	size_t i;
	int found = 0;

	error_reset();
	st = tracedat_open_mem(&td, b->d, b->len);
	assert_null(td);
	if (st != status)
		dump_causes();
	assert_int_equal(st, status);
	assert_true(tk_error_count() >= 2);
	assert_non_null(strstr(tk_error_cause(0), "Cannot open trace.dat"));
	for (i = 0; i < tk_error_count(); i++)
		if (strstr(tk_error_cause(i), needle))
			found = 1;
	if (!found)
		dump_causes();
	assert_true(found);
}

/* Every page of one CPU, against the fixture's pattern. */
static void check_pages(struct tracedat *td, const struct fx *f, size_t bi, size_t ci)
{
	const struct fx_cpu *c = &f->buf[bi].cpus[ci];
	uint32_t ps = buf_page_size(f, bi), p, n = c->pages + (c->tail ? 1 : 0);
	struct tracedat_pages *pr = NULL;
	const uint8_t *page;
	uint8_t *want = malloc(ps);
	size_t size;
	enum tk_status st;

	assert_non_null(want);
	error_reset();
	st = tracedat_pages_open(td, bi, ci, &pr);
	if (st < 0)
		dump_causes();
	assert_int_equal(st, TK_OK);
	for (p = 0; p < n; p++) {
		size_t len = p < c->pages ? ps : c->tail;

		st = tracedat_pages_next(pr, &page, &size);
		if (st != TK_OK)
			dump_causes();
		assert_int_equal(st, TK_OK);
		assert_int_equal(size, len);
		page_fill(want, len, f->bo, bi, c->cpu, p);
		assert_memory_equal(page, want, len);
		if (!f->data_compressed || f->version < 7)
			assert_int_equal(tracedat_pages_offset(pr),
					 td->info.buffers[bi].cpus[ci].offset + (uint64_t) p * ps);
	}
	assert_int_equal(tracedat_pages_next(pr, &page, &size), TK_END);
	assert_int_equal(tracedat_pages_next(pr, &page, &size), TK_END);
	tracedat_pages_close(pr);
	free(want);
}

/* The whole file against its description. */
static void check_fx(struct tracedat *td, const struct fx *f)
{
	const struct tracedat_info *in = &td->info;
	size_t bi, i, n_opts, cpus = 0;
	int v7 = f->version >= 7;

	assert_int_equal(in->version, f->version);
	assert_int_equal(in->bo, f->bo);
	assert_int_equal(in->header_long_size, 8);
	assert_int_equal(in->page_size, f->page_size);
	assert_string_equal(in->compression, v7 ? f->comp : "none");
	assert_string_equal(in->compression_version, v7 && strcmp(f->comp, "none") ? "1.5.4" : "");
	assert_blob(&in->header_page, HEADER_PAGE);
	assert_blob(&in->header_event, HEADER_EVENT);
	assert_int_equal(in->n_ftrace_formats, 2);
	assert_blob(&in->ftrace_formats[0], FTRACE_FMT[0]);
	assert_blob(&in->ftrace_formats[1], FTRACE_FMT[1]);
	assert_int_equal(in->n_systems, 2);
	assert_string_equal(in->systems[0].name, "sched");
	assert_int_equal(in->systems[0].n_formats, 2);
	assert_blob(&in->systems[0].formats[1], SCHED_FMT[1]);
	assert_string_equal(in->systems[1].name, "irq");
	assert_int_equal(in->systems[1].n_formats, 1);
	assert_blob(&in->systems[1].formats[0], IRQ_FMT[0]);
	assert_blob(&in->kallsyms, KALLSYMS);
	assert_blob(&in->printk, PRINTK);
	assert_blob(&in->cmdlines, CMDLINES);

	if (v7) {
		cpus = f->cpucount;
		if (!cpus)
			for (i = 0; i < f->buf[0].ncpu; i++)
				if (f->buf[0].cpus[i].cpu + 1 > cpus)
					cpus = f->buf[0].cpus[i].cpu + 1;
	} else {
		cpus = f->v6_cpucount ? (size_t) f->v6_cpucount : v6_table(&f->buf[0]);
	}
	assert_int_equal(in->cpus, cpus);

	if (f->options || v7) {
		assert_string_equal(in->uname, UNAME);
		assert_string_equal(in->tc_version, TCVERSION);
		assert_int_equal(in->n_cpustats, 2);
		assert_blob(&in->cpustats[0], CPUSTAT0);
		assert_blob(&in->cpustats[1], CPUSTAT1);
		assert_int_equal(in->has_date, f->date);
		assert_int_equal(in->date_offset_ns, f->date ? FX_DATE_NS : 0);
		assert_int_equal(in->has_offset, f->offset);
		assert_int_equal(in->offset_ns, f->offset ? -12345 : 0);
		assert_int_equal(in->has_tsc2nsec, f->tsc2nsec);
		if (f->tsc2nsec) {
			assert_int_equal(in->tsc2nsec_mult, FX_TSC_MULT);
			assert_int_equal(in->tsc2nsec_shift, FX_TSC_SHIFT);
			assert_int_equal(in->tsc2nsec_offset, FX_TSC_OFFSET);
		}
		/* options in file order, DONE left out */
		n_opts = (size_t) (f->date + f->offset + f->tsc2nsec + (f->traceclock != 0)) + 4 +
			 (f->unknown_options ? 4 : 0);
		if (v7)
			n_opts += 6 + (f->cpucount != 0) + f->nbuf;
		else
			n_opts += f->v6_cpucount != 0;
		if (!v7)
			for (bi = 1; bi < f->nbuf; bi++)
				n_opts += 1 + (v6_table(&f->buf[bi]) != v6_table(&f->buf[0]));
		assert_int_equal(in->n_options, n_opts);
		i = v7 ? 6 : 0;
		if (f->date) {
			assert_int_equal(in->options[i].id, TRACEDAT_OPTION_DATE);
			assert_int_equal(in->options[i].size, strlen(FX_DATE_TEXT) + 1);
			assert_memory_equal(in->options[i].data, FX_DATE_TEXT, in->options[i].size);
			i++;
		}
		if (f->unknown_options) {
			for (i = 0; i < in->n_options; i++)
				if (in->options[i].id == 200)
					break;
			assert_true(i < in->n_options);
			assert_int_equal(in->options[i].size, 1);
			assert_int_equal(in->options[i].data[0], 0xff);
			assert_int_equal(in->options[i - 2].id, TRACEDAT_OPTION_LAST_BOOT_INFO);
			assert_string_equal(tracedat_option_name(in->options[i - 2].id),
					    "LAST_BOOT_INFO");
			assert_string_equal(tracedat_option_name(200), "UNKNOWN");
		}
	} else {
		assert_int_equal(in->n_options, 0);
		assert_null(in->uname);
		assert_null(in->tc_version);
		assert_int_equal(in->has_date, 0);
	}
	if (f->traceclock == 2) {
		assert_string_equal(in->trace_clock,
				    "[local] global counter uptime perf mono mono_raw boot");
	} else if (f->traceclock == 1 && !v7 && !f->buf[0].latency) {
		char blob[64];

		snprintf(blob, sizeof(blob), "[%s] global counter", f->buf[0].clock);
		assert_string_equal(in->trace_clock, blob);
	} else {
		assert_null(in->trace_clock);
	}

	assert_int_equal(in->n_buffers, f->nbuf);
	for (bi = 0; bi < f->nbuf; bi++) {
		const struct tracedat_buffer *b = &in->buffers[bi];
		const struct fx_buf *fb = &f->buf[bi];

		assert_string_equal(b->name, fb->name);
		if (!v7 && !f->traceclock)
			assert_null(b->clock);
		else
			assert_string_equal(b->clock, fb->clock);
		assert_int_equal(b->page_size, buf_page_size(f, bi));
		assert_int_equal(b->latency, fb->latency);
		assert_int_equal(b->compressed, v7 && f->data_compressed);
		if (fb->latency) {
			struct tracedat_blob t;

			assert_int_equal(b->n_cpus, 0);
			if (!b->compressed)
				assert_blob(&b->latency_text, LATENCY);
			assert_int_equal(tracedat_latency_text(td, bi, &t), TK_OK);
			assert_blob(&t, LATENCY);
			/* a second call gives the same text */
			assert_int_equal(tracedat_latency_text(td, bi, &t), TK_OK);
			assert_blob(&t, LATENCY);
			continue;
		}
		assert_int_equal(b->n_cpus, fb->ncpu);
		for (i = 0; i < fb->ncpu; i++) {
			assert_int_equal(b->cpus[i].cpu, fb->cpus[i].cpu);
			assert_int_equal(b->cpus[i].offset % buf_page_size(f, bi), 0);
			check_pages(td, f, bi, i);
		}
	}
	if (v7) {
		/* 6 metadata, 2 strings, buffers, 2 or 3 options sections */
		size_t n = 6 + 2 + f->nbuf + 2 + (f->empty_first_options != 0);

		assert_int_equal(in->n_sections, n);
		assert_int_equal(in->sections[0].id, TRACEDAT_OPTION_HEADER_INFO);
		assert_string_equal(in->sections[0].description, "headers");
		assert_string_equal(in->sections[5].description, "command lines");
		assert_int_equal(in->sections[6].id, TRACEDAT_OPTION_STRINGS);
		assert_null(in->sections[6].description);
		assert_int_equal(in->sections[0].flags, f->meta_compressed ? 1 : 0);
		assert_int_equal(in->sections[7].id, f->buf[0].latency ? 22 : 3);
		assert_string_equal(in->sections[7].description,
				    f->buf[0].latency ? "buffer latency " : "buffer flyrecord ");
		assert_int_equal(in->sections[n - 1].id, TRACEDAT_OPTION_STRINGS);
		assert_string_equal(in->sections[n - 2].description, "options");
		for (i = 1; i < n; i++)
			assert_int_equal(in->sections[i].offset, in->sections[i - 1].offset + 16 +
									 in->sections[i - 1].size);
		assert_true(in->strings.len > 40);
	} else {
		assert_int_equal(in->n_sections, 0);
		assert_int_equal(in->strings.len, 0);
	}
}

/* Build, open from memory, check; save as a fuzz seed when asked to. */
static void run_one(const struct fx *f, const char *seed)
{
	const char *dir = getenv("TRACEKIT_TRACEDAT_SEEDS");
	struct tracedat *td;
	struct bld b;

	fx_build(&b, f);
	if (dir && seed) {
		char path[4096];
		FILE *out;

		snprintf(path, sizeof(path), "%s/gen-%s", dir, seed);
		out = fopen(path, "wb");
		assert_non_null(out);
		assert_int_equal(fwrite(b.d, 1, b.len, out), b.len);
		fclose(out);
	}
	td = open_ok(&b);
	check_fx(td, f);
	tracedat_close(td);
	b_fini(&b);
}

/*
 * Check the fixture, then the same file with sub-buffers 16 times smaller (256 bytes, as
 * small as a page header and a few records): that copy is what goes into the fuzz corpus,
 * where seeds must stay small.
 */
static void run_fx(const struct fx *f, const char *seed)
{
	struct fx small = *f;
	size_t bi, ci;

	run_one(f, NULL);
	small.page_size = f->page_size / 16;
	for (bi = 0; bi < small.nbuf; bi++) {
		small.buf[bi].page_size /= 16;
		for (ci = 0; ci < small.buf[bi].ncpu; ci++)
			small.buf[bi].cpus[ci].tail = (f->buf[bi].cpus[ci].tail + 15) / 16;
	}
	run_one(&small, seed);
}

/* Offset of the first occurrence of @needle in a fixture (which must contain it). */
static size_t find(const struct bld *b, const void *needle, size_t n)
{
	size_t i;

	for (i = 0; i + n <= b->len; i++)
		if (!memcmp(b->d + i, needle, n))
			return i;
	fail_msg("fixture has no such bytes");
	return 0;
}

/* ---- tests: well-formed files ------------------------------------------------------------- */

static void test_v6_le_every_option(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");

	(void) state;
	f.unknown_options = 1;
	run_fx(&f, "v6-le");
}

static void test_v6_be_every_option(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_BE, "none");

	(void) state;
	run_fx(&f, "v6-be");
}

/* trace-cmd < 3.0: an empty TRACECLOCK option still means a clock blob follows the table. */
static void test_v6_empty_traceclock_reads_clock_blob(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");

	(void) state;
	f.traceclock = 1;
	f.buf[0].clock = "global";
	run_fx(&f, "v6-old-clock");
}

/* No TRACECLOCK option: no clock blob, no clock. */
static void test_v6_without_traceclock_has_no_clock(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");

	(void) state;
	f.traceclock = 0;
	run_fx(&f, NULL);
}

/* No options block at all (LISA's sched_load trace): straight to "flyrecord". */
static void test_v6_without_options(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");

	(void) state;
	f.options = 0;
	f.traceclock = 0;
	run_fx(&f, "v6-no-options");
}

/* Instances: BUFFER options point at their own flyrecord tables; CPUCOUNT after one counts it. */
static void test_v6_instances(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_BE, "none");

	(void) state;
	f.nbuf = 3;
	f.buf[1] = (struct fx_buf){
		.name = "inst1", .clock = "global", .ncpu = 1, .cpus = {{1, 2, 0}}, .table = 3};
	f.buf[2] = (struct fx_buf){.name = "wide",
				   .clock = "mono",
				   .ncpu = 2,
				   .cpus = {{0, 1, 0}, {4, 2, 100}},
				   .table = 5};
	run_fx(&f, "v6-instances");
}

/*
 * `trace-cmd convert` to v6 writes CPUCOUNT before the BUFFER options: it is the file's CPU
 * count then, while the CPU tables keep the size of the CPU count field.
 */
static void test_v6_cpucount_not_after_buffer(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");

	(void) state;
	f.v6_cpucount = 8;
	f.nbuf = 2;
	f.buf[1] = (struct fx_buf){
		.name = "i", .clock = "local", .ncpu = 1, .cpus = {{2, 1, 0}}, .table = 3};
	run_fx(&f, NULL);
}

/* v6 BUFFER options: offset 0 (never filled in) is an instance without data; "" is refused. */
static void test_v6_buffer_option_edges(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");
	struct tracedat *td;
	struct bld b;
	size_t at;

	(void) state;
	f.nbuf = 2;
	f.buf[1] = (struct fx_buf){
		.name = "inst1", .clock = "local", .ncpu = 1, .cpus = {{1, 1, 0}}, .table = 3};
	fx_build(&b, &f);
	at = find(&b, "inst1", 6) - 8;
	b_p64(&b, at, 0);
	td = open_ok(&b);
	assert_int_equal(td->info.n_buffers, 2);
	assert_string_equal(td->info.buffers[1].name, "inst1");
	assert_int_equal(td->info.buffers[1].n_cpus, 0);
	tracedat_close(td);
	b_p64(&b, at, 3);
	open_fails(&b, TK_ERR_FORMAT, "expected the text \"flyrecord\"");
	b_p64(&b, at, b.len);
	open_fails(&b, TK_ERR_FORMAT, "Cannot read trace.dat buffer: name=inst1");
	b.d[at + 8] = '\0';
	open_fails(&b, TK_ERR_FORMAT, "a version 6 BUFFER option names the top buffer");
	b_fini(&b);
}

/* v7 BUFFER options: one entry per CPU, CPU numbers below 65536, sections of the right id. */
static void test_v7_buffer_option_errors(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "none");
	struct bld b;
	uint8_t pat[18];
	size_t at;

	(void) state;
	fx_build(&b, &f);
	/* "local\0", page size 4096, 2 CPUs, first CPU 0 */
	memcpy(pat, "local", 6);
	tk_store_u32(pat + 6, 4096, TK_BYTE_ORDER_LE);
	tk_store_u32(pat + 10, 2, TK_BYTE_ORDER_LE);
	tk_store_u32(pat + 14, 0, TK_BYTE_ORDER_LE);
	at = find(&b, pat, sizeof(pat)) + 6;
	tk_store_u32(b.d + at + 8 + 20, 0, TK_BYTE_ORDER_LE); /* second CPU: 2 -> 0 */
	open_fails(&b, TK_ERR_FORMAT, "two data entries for one CPU");
	tk_store_u32(b.d + at + 8 + 20, 70000, TK_BYTE_ORDER_LE);
	open_fails(&b, TK_ERR_FORMAT, "CPU number too large");
	tk_store_u32(b.d + at + 8 + 20, 2, TK_BYTE_ORDER_LE);
	tk_store_u32(b.d + at + 4, 1000, TK_BYTE_ORDER_LE);
	open_fails(&b, TK_ERR_FORMAT, "more CPUs than the option can hold");
	tk_store_u32(b.d + at + 4, 2, TK_BYTE_ORDER_LE);
	tk_store_u32(b.d + at, 0, TK_BYTE_ORDER_LE);
	open_fails(&b, TK_ERR_FORMAT, "page size out of range");
	tk_store_u32(b.d + at, 4096, TK_BYTE_ORDER_LE);
	/* the section offset (8 bytes before the name "" and "local") pointing at headers */
	tk_store_u64(b.d + at - 6 - 1 - 8, 24 + 8, TK_BYTE_ORDER_LE);
	open_fails(&b, TK_ERR_FORMAT, "Cannot read trace.dat buffer: name=, offset=32");
	b_fini(&b);
}

static void test_v6_latency(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");

	(void) state;
	f.buf[0].latency = 1;
	f.buf[0].ncpu = 0;
	run_fx(&f, "v6-latency");
}

/* A short last page (a file whose data size is not a multiple of the page size). */
static void test_v6_short_last_page(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");

	(void) state;
	f.buf[0].cpus[1].tail = 1000;
	run_fx(&f, NULL);
}

static void test_v7_none_le(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "none");

	(void) state;
	f.unknown_options = 1;
	run_fx(&f, "v7-none-le");
}

static void test_v7_none_be(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_BE, "none");

	(void) state;
	run_fx(&f, "v7-none-be");
}

/* zstd metadata and chunks, with a short last chunk and the 3.1 per-CPU size bug. */
static void test_v7_zstd_le(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "zstd");

	(void) state;
	f.size_bug = 1;
	f.buf[0].cpus[1].tail = 4000;
	run_fx(&f, "v7-zstd-le");
}

static void test_v7_zstd_be(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_BE, "zstd");

	(void) state;
	f.chunk_pages = 4;
	run_fx(&f, "v7-zstd-be");
}

static void test_v7_zlib(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "zlib");

	(void) state;
	f.options_compressed = 1;
	run_fx(&f, "v7-zlib");
	f.bo = TK_BYTE_ORDER_BE;
	run_fx(&f, NULL);
}

/* trace-cmd 3.0: metadata blocks padded with junk after the zstd frame. */
static void test_v7_zstd_padded_blocks(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "zstd");

	(void) state;
	f.padded_blocks = 1;
	f.data_compressed = 0;
	run_fx(&f, "v7-zstd-padded");
}

/* `trace-cmd convert` output: an empty options section first; no CPUCOUNT; compressed options. */
static void test_v7_chain_and_no_cpucount(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "zstd");

	(void) state;
	f.empty_first_options = 1;
	f.options_compressed = 1;
	f.cpucount = 0;
	f.traceclock = 1;
	f.date = f.offset = f.tsc2nsec = 0;
	run_fx(&f, "v7-chain");
}

/* Instances with their own page size and clock, and latency buffers, plain and compressed. */
static void test_v7_instances_and_latency(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "zstd");
	int compressed;

	(void) state;
	for (compressed = 0; compressed < 2; compressed++) {
		f.data_compressed = compressed;
		f.nbuf = 3;
		f.latency_chunk = 10;
		f.buf[1] = (struct fx_buf){.name = "big",
					   .clock = "x86-tsc",
					   .page_size = 8192,
					   .ncpu = 2,
					   .cpus = {{1, 3, 0}, {0, 25, 0}}};
		f.buf[2] = (struct fx_buf){.name = "lat", .clock = "local", .latency = 1};
		run_fx(&f, compressed ? "v7-instances-z" : "v7-instances");
	}
	/* chunks of 0 bytes are skipped, in pages and in text */
	f.empty_chunk = 1;
	run_fx(&f, NULL);
	f.empty_chunk = 0;
	/* a latency top buffer */
	f.nbuf = 1;
	f.buf[0] = (struct fx_buf){.name = "", .clock = "local", .latency = 1};
	f.cpucount = 0;
	run_fx(&f, "v7-latency");
}

/* ---- tests: damaged files ----------------------------------------------------------------- */

static void test_bad_header(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");
	struct bld b;
	uint8_t save;

	(void) state;
	fx_build(&b, &f);
	b.d[1] ^= 1;
	open_fails(&b, TK_ERR_FORMAT, "reason=no trace.dat magic");
	b.d[1] ^= 1;
	b.d[10] = '5';
	open_fails(&b, TK_ERR_UNSUPPORTED, "version=5, reason=only versions 6 and 7");
	b.d[10] = 'x';
	open_fails(&b, TK_ERR_FORMAT, "version is not a number");
	b.d[10] = '6';
	save = b.d[12];
	b.d[12] = 2;
	open_fails(&b, TK_ERR_FORMAT, "endian=2");
	b.d[12] = save;
	b_p32(&b, 14, 0);
	open_fails(&b, TK_ERR_FORMAT, "page-size=0");
	b.len = 5;
	open_fails(&b, TK_ERR_FORMAT, "file too short");
	b_fini(&b);
}

/*
 * Every prefix of a file must open or fail cleanly; the v6 ones that open (cut inside the
 * data) yield the pages before the cut, then an error naming the CPU.
 */
static void test_every_truncation(void **state)
{
	static const struct {
		int version;
		const char *comp;
	} kinds[] = {{6, "none"}, {7, "none"}, {7, "zstd"}};
	size_t k;

	(void) state;
	for (k = 0; k < TK_ARRAY_SIZE(kinds); k++) {
		struct fx f = fx_default(kinds[k].version, TK_BYTE_ORDER_LE, kinds[k].comp);
		struct bld b;
		size_t cut, step;

		f.buf[0].cpus[1].pages = 2;
		fx_build(&b, &f);
		step = b.len > 20000 ? 7 : 1;
		for (cut = 0; cut < b.len; cut += cut < 600 ? 1 : step) {
			struct tracedat *td = NULL;
			size_t bi, ci;

			error_reset();
			if (tracedat_open_mem(&td, b.d, cut) < 0) {
				assert_null(td);
				assert_non_null(strstr(tk_error_cause(0), "Cannot open trace.dat"));
				continue;
			}
			for (bi = 0; bi < td->info.n_buffers; bi++)
				for (ci = 0; ci < td->info.buffers[bi].n_cpus; ci++) {
					struct tracedat_pages *pr;
					const uint8_t *page;
					size_t size;
					enum tk_status st;

					if (tracedat_pages_open(td, bi, ci, &pr) < 0)
						continue;
					while ((st = tracedat_pages_next(pr, &page, &size)) ==
					       TK_OK)
						if (!td->info.buffers[bi].compressed)
							assert_true(page >= b.d &&
								    page + size <= b.d + cut);
					if (st < 0)
						assert_non_null(strstr(tk_error_cause(0), "cpu="));
					tracedat_pages_close(pr);
				}
			tracedat_close(td);
		}
		b_fini(&b);
	}
}

static void test_bad_lengths(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");
	struct bld b;
	size_t at;

	(void) state;
	fx_build(&b, &f);
	/* header_page length far past the end */
	at = find(&b, "header_page", 12) + 12;
	b_p64(&b, at, UINT64_MAX - 3);
	open_fails(&b, TK_ERR_FORMAT,
		   "Cannot read trace.dat header page: offset=38, length=18446744073709551612");
	b_p64(&b, at, strlen(HEADER_PAGE));
	/* kallsyms length (u32) past the end */
	at = find(&b, KALLSYMS, 10) - 4;
	b_p32(&b, at, 0xfffffff0u);
	open_fails(&b, TK_ERR_FORMAT, "reason=runs past the end of the file");
	b_p32(&b, at, (uint32_t) strlen(KALLSYMS));
	/* an option whose size runs past the end of the file */
	at = find(&b, UNAME, sizeof(UNAME)) - 4;
	b_p32(&b, at, 0x7fffffffu);
	open_fails(&b, TK_ERR_FORMAT, "Cannot read trace.dat option: id=5 (UNAME)");
	b_p32(&b, at, sizeof(UNAME));
	/* a bad marker after the options */
	at = find(&b, "flyrecord", 10);
	b.d[at] = 'F';
	open_fails(&b, TK_ERR_FORMAT, "expected \"options\", \"latency\" or \"flyrecord\"");
	b.d[at] = 'f';
	/* a CPU count whose table cannot fit */
	at = find(&b, "options  ", 10) - 4;
	b_p32(&b, at, 0x10000000u);
	open_fails(&b, TK_ERR_FORMAT, "Cannot read trace.dat CPU table");
	b_p32(&b, at, 3);
	/* data offset + size overflowing 64 bits */
	at = find(&b, "flyrecord", 10) + 10;
	b_p64(&b, at + 8, UINT64_MAX);
	open_fails(&b, TK_ERR_FORMAT, "data offset plus size overflows");
	b_fini(&b);
}

static void test_bad_option_payloads(void **state)
{
	static const struct {
		const char *date;
		const char *needle;
	} cases[] = {
		{"0xzz", "id=1 (DATE)"},
		{"", "not an integer"},
		{"12abc", "not an integer"},
		{"0x7fffffffffffffff", "overflows 64 bits"},
		{"99999999999999999999", "not an integer"},
	};
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");
	struct bld b;
	struct tracedat *td;
	size_t k, at;
	char text[32];

	(void) state;
	for (k = 0; k < TK_ARRAY_SIZE(cases); k++) {
		f.date_text = cases[k].date;
		fx_build(&b, &f);
		open_fails(&b, TK_ERR_FORMAT, cases[k].needle);
		b_fini(&b);
	}
	/* a negative DATE printed as unsigned hex is its two's complement; decimal works too */
	f.date_text = "0xfffffffffffffc18";
	fx_build(&b, &f);
	td = open_ok(&b);
	assert_int_equal(td->info.date_offset_ns, -1000 * 1000);
	tracedat_close(td);
	b_fini(&b);
	f.date_text = " 77\n";
	f.offset = 0;
	fx_build(&b, &f);
	td = open_ok(&b);
	assert_int_equal(td->info.date_offset_ns, 77000);
	assert_int_equal(td->info.has_offset, 0);
	tracedat_close(td);
	b_fini(&b);
	f.date_text = NULL;
	/* TSC2NSEC with a shift of 64 */
	fx_build(&b, &f);
	tk_store_u32(text, FX_TSC_MULT, TK_BYTE_ORDER_LE);
	at = find(&b, text, 4);
	b_p32(&b, at + 4, 64);
	open_fails(&b, TK_ERR_FORMAT, "id=14 (TSC2NSEC)");
	b_fini(&b);
}

/*
 * TIME_SHIFT payload: trace id, flags, 2 CPUs; CPU 0 with samples at times 30, 10, 20, 10
 * (offsets 3, 1, 2, 9: the second 10 is dropped), CPU 1 with one; then, when @fractions, the
 * fraction bits of each sample (@frac for the last of CPU 0).
 */
static void time_shift_payload(struct bld *t, int fractions, uint64_t frac)
{
	static const int64_t times[] = {30, 10, 20, 10}, offs[] = {3, 1, 2, 9};
	size_t i;

	b_u64(t, UINT64_C(0x1122334455667788));
	b_u32(t, 1);
	b_u32(t, 2);
	b_u32(t, 4);
	for (i = 0; i < 4; i++)
		b_u64(t, (uint64_t) times[i]);
	for (i = 0; i < 4; i++)
		b_u64(t, (uint64_t) offs[i]);
	for (i = 0; i < 4; i++)
		b_u64(t, i + 1); /* scalings 1 to 4 */
	b_u32(t, 1);
	b_u64(t, (uint64_t) -5); /* time */
	b_u64(t, (uint64_t) -7); /* offset */
	b_u64(t, 1);
	if (fractions) {
		for (i = 0; i < 3; i++)
			b_u64(t, i);
		b_u64(t, frac);
		b_u64(t, 0);
	}
}

static void test_time_shift_option(void **state)
{
	static const enum tk_byte_order orders[] = {TK_BYTE_ORDER_LE, TK_BYTE_ORDER_BE};
	struct tracedat *td;
	const struct tracedat_tsync *ts;
	struct bld b, t;
	size_t k;

	(void) state;
	for (k = 0; k < 2; k++) {
		struct fx f = fx_default(k ? 7 : 6, orders[k], "none");

		t = (struct bld){.bo = orders[k]};
		time_shift_payload(&t, 1, 3);
		f.time_shift = t.d;
		f.time_shift_len = t.len;
		fx_build(&b, &f);
		td = open_ok(&b);
		ts = td->info.tsync;
		assert_non_null(ts);
		assert_int_equal(ts->peer_trace_id, UINT64_C(0x1122334455667788));
		assert_int_equal(ts->flags, TRACEDAT_TSYNC_INTERPOLATE);
		assert_int_equal(ts->n_cpus, 2);
		/* sorted by time, the first of the two 10s kept, with its own fraction bits */
		assert_int_equal(ts->cpus[0].n, 3);
		assert_int_equal(ts->cpus[0].s[0].time, 10);
		assert_int_equal(ts->cpus[0].s[0].offset, 1);
		assert_int_equal(ts->cpus[0].s[0].scaling, 2);
		assert_int_equal(ts->cpus[0].s[0].fraction, 1);
		assert_int_equal(ts->cpus[0].s[1].time, 20);
		assert_int_equal(ts->cpus[0].s[1].scaling, 3);
		assert_int_equal(ts->cpus[0].s[2].time, 30);
		assert_int_equal(ts->cpus[0].s[2].offset, 3);
		assert_int_equal(ts->cpus[0].s[2].fraction, 0);
		assert_int_equal(ts->cpus[1].n, 1);
		assert_int_equal(ts->cpus[1].s[0].time, -5);
		assert_int_equal(ts->cpus[1].s[0].offset, -7);
		tracedat_close(td);
		b_fini(&b);

		/* without the fraction bits: all 0 */
		t.len = 0;
		time_shift_payload(&t, 0, 0);
		f.time_shift_len = t.len;
		f.time_shift = t.d;
		fx_build(&b, &f);
		td = open_ok(&b);
		assert_int_equal(td->info.tsync->cpus[0].s[0].fraction, 0);
		assert_int_equal(td->info.tsync->cpus[0].s[0].scaling, 2);
		tracedat_close(td);
		b_fini(&b);

		/* fraction bits above 63 */
		t.len = 0;
		time_shift_payload(&t, 1, 64);
		f.time_shift_len = t.len;
		f.time_shift = t.d;
		fx_build(&b, &f);
		open_fails(&b, TK_ERR_FORMAT, "fraction bits above 63");
		b_fini(&b);

		/* cut inside the samples, inside the fraction bits, and below 16 bytes (ignored) */
		f.time_shift_len = 16 + 4 + 8 * 5;
		fx_build(&b, &f);
		open_fails(&b, TK_ERR_FORMAT, "id=12 (TIME_SHIFT)");
		b_fini(&b);
		f.time_shift_len = t.len - 8;
		fx_build(&b, &f);
		open_fails(&b, TK_ERR_FORMAT, "fraction bits cut short");
		b_fini(&b);
		f.time_shift_len = 15;
		fx_build(&b, &f);
		td = open_ok(&b);
		assert_null(td->info.tsync);
		tracedat_close(td);
		b_fini(&b);
		b_fini(&t);
	}
}

/* v7 file with its options chain bent into a loop. */
static void test_v7_options_loop(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "none");
	struct bld b;
	struct tracedat *td;
	uint64_t first, done_at;
	const struct tracedat_section *last = NULL;
	size_t i;

	(void) state;
	fx_build(&b, &f);
	td = open_ok(&b);
	/* the last options section in the chain ends with DONE(0): point it at the first */
	first = tk_load_le64(b.d + 10 + 2 + 2 + 4 + 5 + 1);
	for (i = 0; i < td->info.n_sections; i++)
		if (td->info.sections[i].id == 0 && td->info.sections[i].offset != first)
			last = &td->info.sections[i];
	assert_non_null(last);
	done_at = last->offset + 16 + last->size - 8;
	assert_int_equal(tk_load_le64(b.d + done_at), 0);
	tracedat_close(td);
	tk_store_u64(b.d + done_at, first, TK_BYTE_ORDER_LE);
	open_fails(&b, TK_ERR_FORMAT, "the options sections form a loop");
	/* DONE pointing at a section that is not an options section */
	tk_store_u64(b.d + done_at, 10 + 2 + 2 + 4 + 5 + 1 + 8, TK_BYTE_ORDER_LE);
	open_fails(&b, TK_ERR_FORMAT, "reason=expected a section of id 0");
	/* DONE pointing past the end */
	tk_store_u64(b.d + done_at, b.len + 100, TK_BYTE_ORDER_LE);
	open_fails(&b, TK_ERR_FORMAT, "section offset is past the end of the file");
	/* no options section at all */
	tk_store_u64(b.d + done_at, 0, TK_BYTE_ORDER_LE);
	tk_store_u64(b.d + 10 + 2 + 2 + 4 + 5 + 1, 0, TK_BYTE_ORDER_LE);
	open_fails(&b, TK_ERR_FORMAT, "the header gives no options section");
	b_fini(&b);
}

/* Opens fine; reading CPU @ci of the top buffer fails with @needle in a cause. */
static void pages_fail_with(const struct bld *b, size_t ci, const char *needle)
{
	struct tracedat *td = open_ok(b);
	struct tracedat_pages *pr = NULL;
	const uint8_t *page;
	size_t size, i;
	enum tk_status st = TK_OK;
	int found = 0;

	error_reset();
	st = tracedat_pages_open(td, 0, ci, &pr);
	while (st == TK_OK)
		st = tracedat_pages_next(pr, &page, &size);
	assert_true(st < 0);
	for (i = 0; i < tk_error_count(); i++)
		if (strstr(tk_error_cause(i), needle))
			found = 1;
	if (!found)
		dump_causes();
	assert_true(found);
	tracedat_pages_close(pr);
	tracedat_close(td);
}

static void test_bad_chunks(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "zstd");
	struct bld b;
	struct tracedat *td;
	uint64_t off;

	(void) state;
	f.chunk_pages = 4;
	fx_build(&b, &f);
	td = open_ok(&b);
	off = td->info.buffers[0].cpus[1].offset; /* 12 pages: 3 chunks of 4 */
	tracedat_close(td);
	assert_int_equal(tk_load_le32(b.d + off), 3);
	/* first chunk: usize not a multiple of the page size */
	tk_store_u32(b.d + off + 8, 4 * 4096 - 1, TK_BYTE_ORDER_LE);
	pages_fail_with(&b, 1, "not a multiple of the page size");
	/* larger than the limit */
	tk_store_u32(b.d + off + 8, 128u << 20, TK_BYTE_ORDER_LE);
	pages_fail_with(&b, 1, "larger than 64 MiB");
	/* more data than the header says */
	tk_store_u32(b.d + off + 8, 3 * 4096, TK_BYTE_ORDER_LE);
	pages_fail_with(&b, 1, "Cannot decompress trace.dat CPU data: cpu=2");
	/* less data than the header says */
	tk_store_u32(b.d + off + 8, 5 * 4096, TK_BYTE_ORDER_LE);
	pages_fail_with(&b, 1, "shorter than its header says");
	tk_store_u32(b.d + off + 8, 4 * 4096, TK_BYTE_ORDER_LE);
	/* damaged compressed bytes */
	b.d[off + 12 + 4] ^= 0xff;
	b.d[off + 12 + 5] ^= 0xff;
	pages_fail_with(&b, 1, "Cannot decompress trace.dat CPU data");
	b.d[off + 12 + 4] ^= 0xff;
	b.d[off + 12 + 5] ^= 0xff;
	/* a chunk that runs past the end of the file */
	tk_store_u32(b.d + off + 4, 0x7fffffffu, TK_BYTE_ORDER_LE);
	pages_fail_with(&b, 1, "compressed chunk runs past the end of the file");
	b_fini(&b);
}

static void test_bad_compressed_metadata(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "zstd");
	struct bld b;
	struct tracedat *td;
	const struct tracedat_section *s;

	(void) state;
	fx_build(&b, &f);
	td = open_ok(&b);
	s = &td->info.sections[4]; /* printk formats */
	assert_int_equal(s->id, TRACEDAT_OPTION_PRINTK);
	/* uncompressed size beyond the limit */
	tk_store_u32(b.d + s->offset + 16 + 4, 0x40000000u, TK_BYTE_ORDER_LE);
	open_fails(&b, TK_ERR_UNSUPPORTED, "more decompressed metadata than this reader accepts");
	/* too small for the frame */
	tk_store_u32(b.d + s->offset + 16 + 4, 10, TK_BYTE_ORDER_LE);
	open_fails(&b, TK_ERR_FORMAT, "Cannot decompress trace.dat PRINTK");
	/* compressed flag in a file without compression */
	tk_store_u32(b.d + s->offset + 16 + 4, (uint32_t) strlen(PRINTK) + 4, TK_BYTE_ORDER_LE);
	memcpy(b.d + 18, "none", 5);
	open_fails(&b, TK_ERR_FORMAT, "compressed section in a file without compression");
	/* an algorithm nobody knows */
	memcpy(b.d + 18, "lz4x", 5);
	open_fails(&b, TK_ERR_UNSUPPORTED, "compression=lz4x");
	tracedat_close(td);
	b_fini(&b);
}

/*
 * The same damage to the kallsyms section is read past: kallsyms only names function
 * addresses. The file opens with an empty kallsyms, and the causes are kept for a warning.
 */
static void test_bad_kallsyms_section_read_past(void **state)
{
	static const struct {
		uint32_t at; /* bytes after the section header */
		uint32_t value;
		const char *cause;
	} cases[] = {
		{4, 0x40000000u, "more decompressed metadata than this reader accepts"},
		{4, 10, "Cannot decompress trace.dat KALLSYMS"},
		{0, 0xFFFFFFF0u, "KALLSYMS: offset="}, /* compressed size past the end */
	};
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "zstd");
	struct bld b;
	struct tracedat *td, *bad;
	const struct tracedat_section *s;
	size_t i;

	(void) state;
	fx_build(&b, &f);
	td = open_ok(&b);
	assert_null(td->info.kallsyms_problem);
	assert_blob(&td->info.kallsyms, KALLSYMS);
	s = &td->info.sections[3];
	assert_int_equal(s->id, TRACEDAT_OPTION_KALLSYMS);
	for (i = 0; i < TK_ARRAY_SIZE(cases); i++) {
		uint8_t *p = b.d + s->offset + 16 + cases[i].at;
		uint32_t old = tk_load_u32(p, TK_BYTE_ORDER_LE);

		tk_store_u32(p, cases[i].value, TK_BYTE_ORDER_LE);
		bad = open_ok(&b);
		assert_int_equal(tk_error_count(), 0);
		assert_int_equal(bad->info.kallsyms.len, 0);
		assert_non_null(bad->info.kallsyms_problem);
		assert_non_null(strstr(bad->info.kallsyms_problem,
				       "Cannot read trace.dat section: id=19 (KALLSYMS), offset="));
		if (!strstr(bad->info.kallsyms_problem, cases[i].cause))
			print_message("  problem: %s\n", bad->info.kallsyms_problem);
		assert_non_null(strstr(bad->info.kallsyms_problem, cases[i].cause));
		/* the rest of the metadata is there */
		assert_blob(&bad->info.printk, PRINTK);
		tracedat_close(bad);
		tk_store_u32(p, old, TK_BYTE_ORDER_LE);
	}
	tracedat_close(td);
	b_fini(&b);
}

/* A v6 file cut inside the data of its second CPU: pages up to the cut, then a cause. */
static void test_truncated_v6_data(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");
	struct bld b;

	(void) state;
	fx_build(&b, &f);
	b.len -= 4096 * 3 + 10;
	pages_fail_with(&b, 1, "cpu=2, offset=");
	pages_fail_with(&b, 1, "reason=data runs past the end of the file");
	b_fini(&b);
}

/* A fixture written to a temporary file; returns its path (static storage). */
static const char *write_temp(const struct bld *b)
{
	static char path[4096];
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, sizeof(path), "%s/test-tracedat-XXXXXX", dir ? dir : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b->d, b->len), (ssize_t) b->len);
	close(fd);
	return path;
}

static void test_open_path(void **state)
{
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");
	struct tracedat *td = NULL;
	struct bld b;
	const char *path;

	(void) state;
	fx_build(&b, &f);
	path = write_temp(&b);
	error_reset();
	assert_int_equal(tracedat_open(&td, path), TK_OK);
	check_fx(td, &f);
	tracedat_close(td);
	unlink(path);
	td = NULL;
	error_reset();
	assert_int_equal(tracedat_open(&td, path), TK_ERR_NOTFOUND);
	assert_null(td);
	assert_non_null(strstr(tk_error_cause(0), "Cannot open trace.dat file: path="));
	/* an empty file */
	b.len = 0;
	path = write_temp(&b);
	error_reset();
	assert_int_equal(tracedat_open(&td, path), TK_ERR_FORMAT);
	unlink(path);
	tracedat_close(NULL);
	tracedat_pages_close(NULL);
	b_fini(&b);
}

/*
 * Resident pages of mapped files, in KiB (RssFile): the trace's pages, without the anonymous
 * memory a sanitizer adds (AddressSanitizer's shadow of 256 MiB read is 32 MiB of it).
 */
static long rss_kib(void)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp))
		if (!strncmp(line, "RssFile:", 8))
			v = strtol(line + 8, NULL, 10);
	fclose(fp);
	return v;
}

/*
 * Reading 2 x 128 MiB of mapped pages, CPU by CPU in turn as the merge does, must not keep
 * them resident: each reader drops what it has passed. The data is a hole in a sparse file.
 */
static void test_resident_memory_stays_flat(void **state)
{
	const uint64_t per_cpu = 128u << 20, base = 1u << 20;
	struct fx f = fx_default(6, TK_BYTE_ORDER_LE, "none");
	struct tracedat_pages *pr[2];
	struct tracedat *td = NULL;
	const char *path;
	struct bld b;
	size_t at, size;
	const uint8_t *page;
	long start, peak = 0, now;
	unsigned int live = 3, c, n = 0, sum = 0;

	(void) state;
	f.options = 0;
	f.traceclock = 0;
	f.buf[0].ncpu = 0;
	f.buf[0].table = 2;
	fx_build(&b, &f);
	at = find(&b, "flyrecord", 10) + 10;
	b_p64(&b, at, base);
	b_p64(&b, at + 8, per_cpu);
	b_p64(&b, at + 16, base + per_cpu);
	b_p64(&b, at + 24, per_cpu);
	path = write_temp(&b);
	assert_int_equal(truncate(path, (off_t) (base + 2 * per_cpu)), 0);
	error_reset();
	assert_int_equal(tracedat_open(&td, path), TK_OK);
	assert_int_equal(td->info.buffers[0].n_cpus, 2);
	assert_int_equal(tracedat_pages_open(td, 0, 0, &pr[0]), TK_OK);
	assert_int_equal(tracedat_pages_open(td, 0, 1, &pr[1]), TK_OK);
	start = rss_kib();
	if (start < 0)
		skip();
	while (live)
		for (c = 0; c < 2; c++) {
			if (!(live & (1u << c)))
				continue;
			if (tracedat_pages_next(pr[c], &page, &size) != TK_OK) {
				live &= ~(1u << c);
				continue;
			}
			sum += page[0] + page[size - 1];
			if (++n % 4096 == 0 && (now = rss_kib()) > peak)
				peak = now;
		}
	assert_int_equal(n, 2 * per_cpu / 4096);
	assert_int_equal(sum, 0);
	/* two readers keep at most a few MiB each; without dropping it would be 256 MiB */
	assert_true(peak - start < 48 * 1024);
	tracedat_pages_close(pr[0]);
	tracedat_pages_close(pr[1]);
	tracedat_close(td);
	unlink(path);
	b_fini(&b);
}

/* A block that claims to inflate more than 1024 times its size is refused unread. */
static void test_decompression_bomb(void **state)
{
	struct fx f = fx_default(7, TK_BYTE_ORDER_LE, "zstd");
	struct tracedat *td;
	struct bld b;
	const struct tracedat_section *s;

	(void) state;
	fx_build(&b, &f);
	td = open_ok(&b);
	s = &td->info.sections[4]; /* printk: a few dozen bytes compressed */
	assert_int_equal(s->id, TRACEDAT_OPTION_PRINTK);
	tk_store_u32(b.d + s->offset + 16 + 4, 100u << 20, TK_BYTE_ORDER_LE);
	open_fails(&b, TK_ERR_UNSUPPORTED, "uncompressed-size=104857600");
	tracedat_close(td);
	b_fini(&b);
}

/* ---- tests: the shared corpus --------------------------------------------------------------- */

static const char *corpus_dir(void)
{
	static char dir[4096];
	const char *env = getenv("TRACEKIT_CORPUS");

	snprintf(dir, sizeof(dir), "%s/tracedat", env ? env : "../shared/corpus");
	return dir;
}

/* "cpus=N" on the first line of trace-cmd's report, or -1 when the file is not there. */
static long expected_cpus(const char *base)
{
	char path[4200], line[64];
	FILE *fp;
	long n = -1;

	snprintf(path, sizeof(path), "%s/expect-trace-cmd/%s.report.txt", corpus_dir(), base);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	if (fgets(line, sizeof(line), fp) && !strncmp(line, "cpus=", 5))
		n = strtol(line + 5, NULL, 10);
	fclose(fp);
	return n;
}

/* Page bytes of every CPU of the top buffer, summed and hashed (FNV-1a over all pages). */
struct digest {
	uint64_t bytes, pages, hash;
};

static int open_corpus(const char *base, struct tracedat **td)
{
	char path[4200];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s.dat", corpus_dir(), base);
	fp = fopen(path, "rb");
	if (!fp)
		return 0;
	fclose(fp);
	error_reset();
	if (tracedat_open(td, path) < 0)
		dump_causes();
	assert_non_null(*td);
	return 1;
}

static struct digest digest_top(struct tracedat *td)
{
	struct digest d = {0, 0, UINT64_C(1469598103934665603)};
	size_t ci, i;

	for (ci = 0; ci < td->info.buffers[0].n_cpus; ci++) {
		struct tracedat_pages *pr;
		const uint8_t *page;
		size_t size;
		enum tk_status st;

		assert_int_equal(tracedat_pages_open(td, 0, ci, &pr), TK_OK);
		while ((st = tracedat_pages_next(pr, &page, &size)) == TK_OK) {
			assert_int_equal(size, td->info.buffers[0].page_size);
			d.bytes += size;
			d.pages++;
			for (i = 0; i < size; i++)
				d.hash = (d.hash ^ page[i]) * UINT64_C(1099511628211);
		}
		if (st != TK_END)
			dump_causes();
		assert_int_equal(st, TK_END);
		tracedat_pages_close(pr);
	}
	return d;
}

static void test_corpus_files(void **state)
{
	/* file, version, compression, long size byte, option count (trace-cmd dump --options) */
	static const struct {
		const char *base;
		int version;
		const char *comp;
		int long_size;
		size_t options;
	} files[] = {
		{"hebel23-driver_trace", 6, "none", 4, 3},
		{"kernel-monitor-framework_trace", 6, "none", 4, 6},
		{"lisa_example_rtapp_trace", 6, "none", 8, 7},
		{"lisa_sched_load_trace", 6, "none", 8, 0},
		{"lisa_sched_load_trace.v7-none", 7, "none", 8, 8},
		{"lisa_sched_load_trace.v7-zstd", 7, "zstd", 8, 8},
		{"tutorial3LabSisop_trace", 6, "none", 4, 5},
		{"tutorial3LabSisop_trace.v7-none", 7, "none", 8, 13},
		{"tutorial3LabSisop_trace.v7-zstd", 7, "zstd", 8, 13},
		{"x86_64-v6", 6, "none", 8, 6},
		{"x86_64-v7-none", 7, "none", 8, 14},
		{"x86_64-v7-zstd", 7, "zstd", 8, 14},
	};
	size_t k, seen = 0;

	(void) state;
	for (k = 0; k < TK_ARRAY_SIZE(files); k++) {
		struct tracedat *td = NULL;
		long cpus = expected_cpus(files[k].base);

		if (!open_corpus(files[k].base, &td))
			continue;
		seen++;
		assert_int_equal(td->info.version, files[k].version);
		assert_string_equal(td->info.compression, files[k].comp);
		assert_int_equal(td->info.header_long_size, files[k].long_size);
		assert_int_equal(td->info.n_options, files[k].options);
		assert_int_equal(td->info.page_size, 4096);
		assert_int_equal(td->info.bo, TK_BYTE_ORDER_LE);
		assert_true(td->info.header_page.len > 0 && td->info.n_systems > 0);
		if (cpus >= 0)
			assert_int_equal(td->info.cpus, cpus);
		digest_top(td);
		tracedat_close(td);
	}
	if (!seen)
		skip();
}

/* The v6, v7 and v7-zstd copies of one trace must give the same pages, byte for byte. */
static void test_corpus_variants_same_pages(void **state)
{
	static const char *const bases[] = {"lisa_sched_load_trace", "tutorial3LabSisop_trace"};
	static const char *const kinds[] = {"", ".v7-none", ".v7-zstd"};
	size_t k, v, seen = 0;

	(void) state;
	for (k = 0; k < TK_ARRAY_SIZE(bases); k++) {
		struct digest first = {0, 0, 0};

		for (v = 0; v < TK_ARRAY_SIZE(kinds); v++) {
			char base[256];
			struct tracedat *td = NULL;
			struct digest d;

			snprintf(base, sizeof(base), "%s%s", bases[k], kinds[v]);
			if (!open_corpus(base, &td))
				continue;
			d = digest_top(td);
			tracedat_close(td);
			seen++;
			if (!first.pages) {
				first = d;
				assert_true(d.pages > 0);
				continue;
			}
			assert_int_equal(d.bytes, first.bytes);
			assert_int_equal(d.hash, first.hash);
		}
	}
	if (!seen)
		skip();
}

/* Facts trace-cmd dump printed for the x86-64 files (options, flyrecord, clock). */
static void test_corpus_x86_64_facts(void **state)
{
	struct tracedat *td = NULL;
	const struct tracedat_buffer *b;

	(void) state;
	if (!open_corpus("x86_64-v7-zstd", &td))
		skip();
	b = &td->info.buffers[0];
	assert_string_equal(td->info.compression_version, "1.5.4");
	assert_int_equal(td->info.n_buffers, 1);
	assert_string_equal(b->clock, "local");
	assert_int_equal(b->compressed, 1);
	assert_int_equal(b->n_cpus, 2);
	assert_int_equal(b->cpus[0].offset, 1024000);
	assert_int_equal(b->cpus[0].size, 161883);
	assert_int_equal(b->cpus[1].offset, 1187840);
	assert_int_equal(b->cpus[1].size, 127522);
	assert_int_equal(td->info.n_sections, 10);
	assert_int_equal(td->info.kallsyms.len, 5413828);
	assert_int_equal(td->info.printk.len, 4316);
	assert_int_equal(td->info.cmdlines.len, 1581);
	assert_int_equal(td->info.n_ftrace_formats, 18);
	assert_int_equal(td->info.n_systems, 3);
	assert_int_equal(td->info.header_page.len, 205);
	assert_string_equal(td->info.uname, "Linux vm 6.18.44-fc-v657 x86_64");
	assert_string_equal(td->info.tc_version, "3.1.6 not-a-git-repo");
	assert_string_equal(td->info.trace_clock,
			    "[local] global counter uptime perf mono mono_raw boot tai x86-tsc");
	tracedat_close(td);
	td = NULL;
	if (!open_corpus("x86_64-v6", &td))
		skip();
	b = &td->info.buffers[0];
	assert_string_equal(b->clock, "local");
	assert_int_equal(b->cpus[0].offset, 5464064);
	assert_int_equal(b->cpus[0].size, 61440);
	assert_int_equal(b->cpus[1].offset, 5525504);
	assert_int_equal(b->cpus[1].size, 49152);
	tracedat_close(td);
	/* a trace-cmd 2.9 file: empty TRACECLOCK, clock in the blob after the table */
	td = NULL;
	if (!open_corpus("hebel23-driver_trace", &td))
		skip();
	assert_string_equal(td->info.buffers[0].clock, "local");
	assert_string_equal(td->info.trace_clock,
			    "[local] global counter uptime perf mono mono_raw boot");
	tracedat_close(td);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v6_le_every_option),
		cmocka_unit_test(test_v6_be_every_option),
		cmocka_unit_test(test_v6_empty_traceclock_reads_clock_blob),
		cmocka_unit_test(test_v6_without_traceclock_has_no_clock),
		cmocka_unit_test(test_v6_without_options),
		cmocka_unit_test(test_v6_instances),
		cmocka_unit_test(test_v6_cpucount_not_after_buffer),
		cmocka_unit_test(test_v6_buffer_option_edges),
		cmocka_unit_test(test_v7_buffer_option_errors),
		cmocka_unit_test(test_v6_latency),
		cmocka_unit_test(test_v6_short_last_page),
		cmocka_unit_test(test_v7_none_le),
		cmocka_unit_test(test_v7_none_be),
		cmocka_unit_test(test_v7_zstd_le),
		cmocka_unit_test(test_v7_zstd_be),
		cmocka_unit_test(test_v7_zlib),
		cmocka_unit_test(test_v7_zstd_padded_blocks),
		cmocka_unit_test(test_v7_chain_and_no_cpucount),
		cmocka_unit_test(test_v7_instances_and_latency),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_bad_lengths),
		cmocka_unit_test(test_bad_option_payloads),
		cmocka_unit_test(test_time_shift_option),
		cmocka_unit_test(test_v7_options_loop),
		cmocka_unit_test(test_bad_chunks),
		cmocka_unit_test(test_bad_compressed_metadata),
		cmocka_unit_test(test_bad_kallsyms_section_read_past),
		cmocka_unit_test(test_truncated_v6_data),
		cmocka_unit_test(test_open_path),
		cmocka_unit_test(test_resident_memory_stays_flat),
		cmocka_unit_test(test_decompression_bomb),
		cmocka_unit_test(test_corpus_files),
		cmocka_unit_test(test_corpus_variants_same_pages),
		cmocka_unit_test(test_corpus_x86_64_facts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
