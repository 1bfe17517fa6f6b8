// SPDX-License-Identifier: MIT
/*
 * The fixture of the trace.dat writer's unit tests (test-tracedat-write.c) and the two oracles
 * that check what the writer made of it, kept apart from the tests so that what a file must
 * hold is read in one place and the calls that write it in another. The fixture: metadata
 * texts, options and a plan of which CPUs of which buffer get how many pages (the page bytes
 * follow from their position). The oracles do not come from the writer: the project's reader
 * (src/tracedat/tracedat.h) must return every metadata part, option, buffer, CPU list and page
 * byte for byte, and the layout of ../shared/reference/tracedat.md sections 2 to 4 is walked
 * here byte by byte, compressed blocks inflated with libzstd and zlib.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>
#include <zstd.h>

#include <tracekit/status.h>

#include "common/bytes.h"
#include "common/error.h"
#include "tracedat/tracedat-write.h"
#include "tracedat/tracedat.h"
#include "tracedat-write-oracle.h"

/* ---- fixture text ---------------------------------------------------------------------------- */

static const char HEADER_PAGE8[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
				   "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
				   "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
				   "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
static const char HEADER_PAGE4[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
				   "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
				   "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
				   "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n";
const char HEADER_EVENT[] = "# compressed entry header\n"
			    "\ttype_len    :    5 bits\n"
			    "\ttime_delta  :   27 bits\n"
			    "\tarray       :   32 bits\n";
const char *const FTRACE_FMT[] = {
	"name: function\nID: 1\nformat:\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n",
	"name: print\nID: 5\nformat:\n\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n",
};
const char *const SCHED_FMT[] = {
	"name: sched_switch\nID: 316\nformat:\n\tfield:char prev_comm[16];\n",
	"name: sched_wakeup\nID: 320\nformat:\n\tfield:pid_t pid;\n",
};
const char IRQ_FMT[] = "name: irq_handler_entry\nID: 140\nformat:\n";
const char KALLSYMS[] = "ffffffff81000000 T _stext\nffffffff81000100 t do_one\n";
const char PRINTK[] = "0xffffffff82000000 : \"hello %d\\n\"\n";
const char CMDLINES[] = "1 systemd\n42 sleep\n";
const char CLOCK_TEXT[] = "[local] global counter uptime perf mono mono_raw boot\n";
static const char INST_CLOCK[] = "local [global] counter uptime\n";
const char UNAME[] = "Linux box 6.1.0 x86_64";
static const char TCVERSION[] = "3.1.6 tracekit-test";
static const char DATE[] = "0x5f5e100";
static const char CPUSTAT0[] = "CPU: 0\nentries: 10\n";
static const char CPUSTAT1[] = "CPU: 1\nentries: 20\n";

/* ---- the fixture ----------------------------------------------------------------------------- */

char tmpdir[] = "/tmp/tk-test-write-XXXXXX";

/* The byte at @i of page @page of CPU @cpu of buffer @b: varied, yet compressible. */
static uint8_t page_byte(size_t b, uint32_t cpu, unsigned int page, size_t i)
{
	return (uint8_t) (b * 97 + cpu * 31 + page * 13 + i / 64 + (i % 7 == 0 ? i : 0));
}

/* Page @page as written: @len bytes of content (the given page). */
size_t page_len(const struct fixture *fx, const struct cpu_plan *c, unsigned int page)
{
	return page + 1 == c->pages && c->last ? c->last : fx->v.page_size;
}

void fill_page(uint8_t *p, size_t len, size_t b, uint32_t cpu, unsigned int page)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = page_byte(b, cpu, page, i);
}

/* The page the file must hold: the content, then zeros to the page size. */
static void expect_page(const struct fixture *fx, size_t b, const struct cpu_plan *c,
			unsigned int page, uint8_t *out)
{
	size_t len = page_len(fx, c, page);

	fill_page(out, len, b, c->cpu, page);
	memset(out + len, 0, fx->v.page_size - len);
}

void fixture_init(struct fixture *fx, const struct variant *v, const char *name)
{
	static const struct buf_plan top = {
		.name = "",
		.clock = "local",
		.cpus = {{0, 3, 0, FEED_PAGES}, {2, 23, 1000, FEED_PAGES}, {3, 0, 0, FEED_PAGES}},
		.n_cpus = 3,
	};
	static const struct buf_plan inst = {
		.name = "inst",
		.clock_text = INST_CLOCK,
		.clock = "global",
		.cpus = {{0, 0, 0, FEED_PAGES}, {1, 3, 333, FEED_PAGES}, {3, 2, 77, FEED_PAGES}},
		.n_cpus = 3,
	};
	struct opt *o;

	memset(fx, 0, sizeof(*fx));
	fx->v = *v;
	fx->bufs[0] = top;
	fx->bufs[1] = inst;
	fx->n_bufs = 2;
	if (v->use_fd) {
		fx->bufs[1].cpus[0].feed = FEED_FILE; /* an empty file: no data */
		fx->bufs[1].cpus[1].feed = FEED_FILE;
		fx->bufs[1].cpus[2].feed = FEED_PIPE;
	}
	snprintf(fx->path, sizeof(fx->path), "%s/%s.dat", tmpdir, name);

	o = &fx->opts[fx->n_opts++];
	o->id = TRACEDAT_OPTION_DATE;
	o->size = sizeof(DATE);
	memcpy(o->data, DATE, sizeof(DATE));
	o = &fx->opts[fx->n_opts++];
	o->id = TRACEDAT_OPTION_UNAME;
	o->size = sizeof(UNAME);
	memcpy(o->data, UNAME, sizeof(UNAME));
	o = &fx->opts[fx->n_opts++];
	o->id = TRACEDAT_OPTION_VERSION;
	o->size = sizeof(TCVERSION);
	memcpy(o->data, TCVERSION, sizeof(TCVERSION));
	o = &fx->opts[fx->n_opts++];
	o->id = TRACEDAT_OPTION_TSC2NSEC; /* binary, in the file's byte order */
	o->size = 16;
	tk_store_u32(o->data, 1234567, v->bo);
	tk_store_u32(o->data + 4, 22, v->bo);
	tk_store_u64(o->data + 8, UINT64_C(0x0102030405060708), v->bo);
	o = &fx->opts[fx->n_opts++];
	o->id = TRACEDAT_OPTION_CPUSTAT;
	o->size = sizeof(CPUSTAT0);
	memcpy(o->data, CPUSTAT0, sizeof(CPUSTAT0));
	o = &fx->opts[fx->n_opts++];
	o->id = TRACEDAT_OPTION_CPUSTAT;
	o->size = sizeof(CPUSTAT1);
	memcpy(o->data, CPUSTAT1, sizeof(CPUSTAT1));
}

const char *header_page(const struct fixture *fx)
{
	return fx->v.long_size == 4 ? HEADER_PAGE4 : HEADER_PAGE8;
}

/* @st must be TK_OK; else the chain of causes is printed and the test fails. */
void check_ok(enum tk_status st)
{
	size_t i;

	if (st < 0) {
		for (i = 0; i < tk_error_count(); i++)
			print_error("cause: %s\n", tk_error_cause(i));
	}
	assert_int_equal(st, TK_OK);
}

/* ---- expected bytes, from the reference ------------------------------------------------------ */

struct eb {
	uint8_t *p;
	size_t len, cap;
	enum tk_byte_order bo;
};

static void eb_put(struct eb *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void eb_u32(struct eb *b, uint32_t v)
{
	uint8_t t[4];

	tk_store_u32(t, v, b->bo);
	eb_put(b, t, 4);
}

static void eb_u64(struct eb *b, uint64_t v)
{
	uint8_t t[8];

	tk_store_u64(t, v, b->bo);
	eb_put(b, t, 8);
}

static void eb_text64(struct eb *b, const char *s)
{
	eb_u64(b, strlen(s));
	eb_put(b, s, strlen(s));
}

/* Metadata part @id (16..21) as reference section 2, items 7 to 13, encodes it. */
static void expect_part(const struct fixture *fx, unsigned int id, struct eb *b)
{
	switch (id) {
	case TRACEDAT_OPTION_HEADER_INFO:
		eb_put(b, "header_page", 12);
		eb_text64(b, header_page(fx));
		eb_put(b, "header_event", 13);
		eb_text64(b, HEADER_EVENT);
		break;
	case TRACEDAT_OPTION_FTRACE_EVENTS:
		eb_u32(b, 2);
		eb_text64(b, FTRACE_FMT[0]);
		eb_text64(b, FTRACE_FMT[1]);
		break;
	case TRACEDAT_OPTION_EVENT_FORMATS:
		eb_u32(b, 2);
		eb_put(b, "sched", 6);
		eb_u32(b, 2);
		eb_text64(b, SCHED_FMT[0]);
		eb_text64(b, SCHED_FMT[1]);
		eb_put(b, "irq", 4);
		eb_u32(b, 1);
		eb_text64(b, IRQ_FMT);
		break;
	case TRACEDAT_OPTION_KALLSYMS:
		eb_u32(b, (uint32_t) strlen(KALLSYMS));
		eb_put(b, KALLSYMS, strlen(KALLSYMS));
		break;
	case TRACEDAT_OPTION_PRINTK:
		eb_u32(b, (uint32_t) strlen(PRINTK));
		eb_put(b, PRINTK, strlen(PRINTK));
		break;
	case TRACEDAT_OPTION_CMDLINES:
		eb_text64(b, CMDLINES);
		break;
	}
}

/* ---- reading the file back ------------------------------------------------------------------- */

uint8_t *slurp(const char *path, size_t *size)
{
	struct stat sb;
	uint8_t *d;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	*size = (size_t) sb.st_size;
	d = malloc(*size + 1);
	assert_non_null(d);
	assert_int_equal(read(fd, d, *size), (ssize_t) *size);
	close(fd);
	return d;
}

static void assert_blob(const struct tracedat_blob *b, const char *want)
{
	assert_int_equal(b->len, strlen(want));
	assert_memory_equal(b->data, want, b->len);
}

/* Inflate one zstd frame (no content size, as trace-cmd writes them) or zlib stream. */
static void inflate_block(enum tracedat_compression comp, const uint8_t *z, size_t zsize,
			  uint8_t *out, size_t usize)
{
	if (comp == TRACEDAT_COMP_ZSTD) {
		assert_true(ZSTD_getFrameContentSize(z, zsize) == ZSTD_CONTENTSIZE_UNKNOWN);
		assert_int_equal(ZSTD_findFrameCompressedSize(z, zsize), zsize);
		assert_int_equal(ZSTD_decompress(out, usize, z, zsize), usize);
	} else {
		uLongf n = usize;

		assert_int_equal(uncompress(out, &n, z, (uLong) zsize), Z_OK);
		assert_int_equal(n, usize);
	}
}

static const struct cpu_plan *plan_cpu(const struct buf_plan *bp, uint32_t cpu)
{
	size_t i;

	for (i = 0; i < bp->n_cpus; i++)
		if (bp->cpus[i].cpu == cpu)
			return &bp->cpus[i];
	return NULL;
}

/* The reader's view: metadata, options, buffers, CPU lists, every page. */
static void check_with_reader(const struct fixture *fx)
{
	const struct variant *v = &fx->v;
	struct tracedat *td = NULL;
	const struct tracedat_info *in;
	uint8_t *want = malloc(v->page_size);
	size_t b, i, k, n, opt = 0;

	assert_non_null(want);
	check_ok(tracedat_open(&td, fx->path));
	in = &td->info;
	assert_int_equal(in->version, v->version);
	assert_int_equal(in->bo, v->bo);
	assert_int_equal(in->header_long_size, v->long_size);
	assert_int_equal(in->page_size, v->page_size);
	assert_string_equal(in->compression, v->comp == TRACEDAT_COMP_ZSTD   ? "zstd"
					     : v->comp == TRACEDAT_COMP_ZLIB ? "zlib"
									     : "none");
	assert_string_equal(in->compression_version, v->comp == TRACEDAT_COMP_ZSTD
							     ? ZSTD_versionString()
						     : v->comp == TRACEDAT_COMP_ZLIB ? zlibVersion()
										     : "");
	assert_int_equal(in->cpus, NCPUS);
	assert_blob(&in->header_page, header_page(fx));
	assert_blob(&in->header_event, HEADER_EVENT);
	assert_int_equal(in->n_ftrace_formats, 2);
	assert_blob(&in->ftrace_formats[0], FTRACE_FMT[0]);
	assert_blob(&in->ftrace_formats[1], FTRACE_FMT[1]);
	assert_int_equal(in->n_systems, 2);
	assert_string_equal(in->systems[0].name, "sched");
	assert_int_equal(in->systems[0].n_formats, 2);
	assert_blob(&in->systems[0].formats[0], SCHED_FMT[0]);
	assert_blob(&in->systems[0].formats[1], SCHED_FMT[1]);
	assert_string_equal(in->systems[1].name, "irq");
	assert_int_equal(in->systems[1].n_formats, 1);
	assert_blob(&in->systems[1].formats[0], IRQ_FMT);
	assert_blob(&in->kallsyms, KALLSYMS);
	assert_blob(&in->printk, PRINTK);
	assert_blob(&in->cmdlines, CMDLINES);

	/* options in file order: v7 starts with the six section offsets */
	if (v->version == 7)
		for (k = 0; k < 6; k++)
			assert_int_equal(in->options[opt++].id, TRACEDAT_OPTION_HEADER_INFO + k);
	assert_int_equal(in->options[opt].id, TRACEDAT_OPTION_TRACECLOCK);
	assert_int_equal(in->options[opt].size, sizeof(CLOCK_TEXT)); /* the text and a NUL */
	assert_memory_equal(in->options[opt].data, CLOCK_TEXT, sizeof(CLOCK_TEXT));
	opt++;
	for (i = 0; i < fx->n_opts; i++, opt++) {
		assert_int_equal(in->options[opt].id, fx->opts[i].id);
		assert_int_equal(in->options[opt].size, fx->opts[i].size);
		assert_memory_equal(in->options[opt].data, fx->opts[i].data, fx->opts[i].size);
	}
	if (v->version == 7) {
		assert_int_equal(in->options[opt].id, TRACEDAT_OPTION_CPUCOUNT);
		assert_int_equal(in->options[opt].size, 4);
		assert_int_equal(tk_load_u32(in->options[opt].data, v->bo), NCPUS);
		opt++;
		assert_int_equal(in->options[opt++].id, TRACEDAT_OPTION_BUFFER); /* top */
	}
	assert_int_equal(in->options[opt++].id, TRACEDAT_OPTION_BUFFER); /* inst */
	assert_int_equal(in->n_options, opt);
	assert_string_equal(in->trace_clock,
			    "[local] global counter uptime perf mono mono_raw boot");
	assert_string_equal(in->uname, UNAME);
	assert_string_equal(in->tc_version, TCVERSION);
	assert_true(in->has_date);
	assert_int_equal(in->date_offset_ns, INT64_C(100000000) * 1000);
	assert_true(in->has_tsc2nsec);
	assert_int_equal(in->tsc2nsec_mult, 1234567);
	assert_int_equal(in->tsc2nsec_shift, 22);
	assert_true(in->tsc2nsec_offset == UINT64_C(0x0102030405060708));
	assert_int_equal(in->n_cpustats, 2);

	assert_int_equal(in->n_buffers, fx->n_bufs);
	for (b = 0; b < fx->n_bufs; b++) {
		const struct tracedat_buffer *tb = &in->buffers[b];
		const struct buf_plan *bp = &fx->bufs[b];
		uint32_t cpu;

		assert_string_equal(tb->name, bp->name);
		assert_non_null(tb->clock);
		assert_string_equal(tb->clock, bp->clock);
		assert_int_equal(tb->page_size, v->page_size);
		assert_int_equal(tb->compressed, v->comp != TRACEDAT_COMP_NONE);
		assert_false(tb->latency);
		/* exactly the CPUs with pages, in increasing order */
		for (cpu = 0, k = 0; cpu < NCPUS; cpu++) {
			const struct cpu_plan *c = plan_cpu(bp, cpu);
			struct tracedat_pages *pr = NULL;
			const uint8_t *page;
			size_t size;

			if (!c || !c->pages)
				continue;
			assert_true(k < tb->n_cpus);
			assert_int_equal(tb->cpus[k].cpu, cpu);
			assert_int_equal(tb->cpus[k].offset % v->page_size, 0);
			check_ok(tracedat_pages_open(td, b, k, &pr));
			for (n = 0; tracedat_pages_next(pr, &page, &size) == TK_OK; n++) {
				assert_true(n < c->pages);
				assert_int_equal(size, v->page_size);
				expect_page(fx, b, c, (unsigned int) n, want);
				assert_memory_equal(page, want, size);
			}
			assert_int_equal(n, c->pages);
			tracedat_pages_close(pr);
			k++;
		}
		assert_int_equal(tb->n_cpus, k);
	}
	tracedat_close(td);
	free(want);
}

/* ---- the layout, byte by byte (reference sections 2 to 4) ------------------------------------ */

struct cur {
	const uint8_t *d;
	size_t size, off;
	enum tk_byte_order bo;
};

static const uint8_t *cur_take(struct cur *c, size_t n)
{
	const uint8_t *p = c->d + c->off;

	assert_true(n <= c->size - c->off);
	c->off += n;
	return p;
}

static uint16_t cur_u16(struct cur *c)
{
	return tk_load_u16(cur_take(c, 2), c->bo);
}

static uint32_t cur_u32(struct cur *c)
{
	return tk_load_u32(cur_take(c, 4), c->bo);
}

static uint64_t cur_u64(struct cur *c)
{
	return tk_load_u64(cur_take(c, 8), c->bo);
}

static const char *cur_cstr(struct cur *c)
{
	const char *s = (const char *) c->d + c->off;

	assert_non_null(memchr(s, '\0', c->size - c->off));
	c->off += strlen(s) + 1;
	return s;
}

/* Magic, "tracing", version, endian byte, long size byte, page size. */
static void check_file_header(const struct fixture *fx, struct cur *c)
{
	const uint8_t *h = cur_take(c, 14);

	assert_memory_equal(h, "\x17\x08\x44tracing", 10);
	assert_memory_equal(h + 10, fx->v.version == 6 ? "6" : "7", 2);
	assert_int_equal(h[12], fx->v.bo == TK_BYTE_ORDER_BE);
	assert_int_equal(h[13], fx->v.long_size);
	assert_int_equal(cur_u32(c), fx->v.page_size);
}

/* The uncompressed pages of one CPU at @off must be the plan's, @size bytes in all. */
static void check_raw_pages(const struct fixture *fx, size_t b, const struct cpu_plan *c,
			    const uint8_t *file, uint64_t off, uint64_t size)
{
	uint8_t *want = malloc(fx->v.page_size);
	unsigned int p;

	assert_non_null(want);
	assert_int_equal(off % fx->v.page_size, 0);
	assert_int_equal(size, (uint64_t) c->pages * fx->v.page_size);
	for (p = 0; p < c->pages; p++) {
		expect_page(fx, b, c, p, want);
		assert_memory_equal(file + off + (uint64_t) p * fx->v.page_size, want,
				    fx->v.page_size);
	}
	free(want);
}

/*
 * Compressed data of one CPU at @off: u32 chunk count, then chunks {u32 zsize, u32 usize,
 * data} of at most ten pages, all but the last exactly ten; @size must be the bytes they take.
 */
static void check_chunks(const struct fixture *fx, size_t b, const struct cpu_plan *c,
			 const uint8_t *file, size_t file_size, uint64_t off, uint64_t size)
{
	struct cur cur = {file, file_size, (size_t) off, fx->v.bo};
	size_t chunk = (size_t) 10 * fx->v.page_size, at = 0;
	uint8_t *all = malloc((size_t) c->pages * fx->v.page_size);
	uint8_t *want = malloc(fx->v.page_size);
	uint32_t n, i;
	unsigned int p;

	assert_non_null(all);
	assert_non_null(want);
	assert_int_equal(off % fx->v.page_size, 0);
	n = cur_u32(&cur);
	assert_int_equal(n, (c->pages + 9) / 10);
	for (i = 0; i < n; i++) {
		uint32_t zsize = cur_u32(&cur), usize = cur_u32(&cur);

		assert_int_equal(usize % fx->v.page_size, 0);
		if (i + 1 < n)
			assert_int_equal(usize, chunk);
		else
			assert_true(usize > 0 && usize <= chunk);
		assert_true(at + usize <= (size_t) c->pages * fx->v.page_size);
		inflate_block(fx->v.comp, cur_take(&cur, zsize), zsize, all + at, usize);
		at += usize;
	}
	assert_int_equal(at, (size_t) c->pages * fx->v.page_size);
	assert_int_equal(size, cur.off - off); /* the exact size, not trace-cmd 3.1's */
	for (p = 0; p < c->pages; p++) {
		expect_page(fx, b, c, p, want);
		assert_memory_equal(all + (size_t) p * fx->v.page_size, want, fx->v.page_size);
	}
	free(all);
	free(want);
}

/* A v6 CPU table of NCPUS entries for buffer @b, the data it points at, and "[clock]". */
static void check_v6_flyrecord(const struct fixture *fx, size_t b, const uint8_t *file,
			       size_t file_size, size_t off)
{
	const struct buf_plan *bp = &fx->bufs[b];
	struct cur c = {file, file_size, off, fx->v.bo};
	char clock[32];
	uint32_t cpu;

	assert_memory_equal(cur_take(&c, 10), "flyrecord", 10);
	for (cpu = 0; cpu < NCPUS; cpu++) {
		const struct cpu_plan *cp = plan_cpu(bp, cpu);
		uint64_t o = cur_u64(&c), s = cur_u64(&c);

		if (!cp || !cp->pages) {
			assert_true(o == 0 && s == 0);
			continue;
		}
		assert_true(o + s <= file_size);
		check_raw_pages(fx, b, cp, file, o, s);
	}
	snprintf(clock, sizeof(clock), "[%s]", bp->clock);
	assert_int_equal(cur_u64(&c), strlen(clock));
	assert_memory_equal(cur_take(&c, strlen(clock)), clock, strlen(clock));
}

static void check_v6_layout(const struct fixture *fx)
{
	size_t size, i, inst_off = 0;
	uint8_t *file = slurp(fx->path, &size);
	struct cur c = {file, size, 0, fx->v.bo};
	struct eb meta = {.bo = fx->v.bo};
	unsigned int id;
	uint16_t oid;

	check_file_header(fx, &c);
	for (id = TRACEDAT_OPTION_HEADER_INFO; id <= TRACEDAT_OPTION_CMDLINES; id++)
		expect_part(fx, id, &meta);
	assert_memory_equal(cur_take(&c, meta.len), meta.p, meta.len);
	assert_int_equal(cur_u32(&c), NCPUS);
	assert_memory_equal(cur_take(&c, 10), "options  ", 10);
	/* TRACECLOCK, the caller's options, the instance's BUFFER option, DONE (no size) */
	assert_int_equal(cur_u16(&c), TRACEDAT_OPTION_TRACECLOCK);
	assert_int_equal(cur_u32(&c), sizeof(CLOCK_TEXT));
	assert_memory_equal(cur_take(&c, sizeof(CLOCK_TEXT)), CLOCK_TEXT, sizeof(CLOCK_TEXT));
	for (i = 0; i < fx->n_opts; i++) {
		assert_int_equal(cur_u16(&c), fx->opts[i].id);
		assert_int_equal(cur_u32(&c), fx->opts[i].size);
		assert_memory_equal(cur_take(&c, fx->opts[i].size), fx->opts[i].data,
				    fx->opts[i].size);
	}
	while ((oid = cur_u16(&c)) == TRACEDAT_OPTION_BUFFER) {
		assert_int_equal(cur_u32(&c), 8 + strlen(fx->bufs[1].name) + 1);
		inst_off = (size_t) cur_u64(&c);
		assert_string_equal(cur_cstr(&c), fx->bufs[1].name);
	}
	assert_int_equal(oid, TRACEDAT_OPTION_DONE);
	check_v6_flyrecord(fx, 0, file, size, c.off);
	assert_true(inst_off > c.off && inst_off < size);
	check_v6_flyrecord(fx, 1, file, size, inst_off);
	free(meta.p);
	free(file);
}

struct section {
	uint16_t id, flags;
	uint32_t desc;
	size_t off; /* of the header */
	uint64_t size;
};

/* A section's payload, inflated when its flag says so (one block: u32 zsize, u32 usize). */
static uint8_t *section_payload(const struct fixture *fx, const uint8_t *file,
				const struct section *s, size_t *len)
{
	const uint8_t *p = file + s->off + 16;
	uint8_t *out;
	uint32_t zsize, usize;

	if (!(s->flags & 1)) {
		*len = (size_t) s->size;
		out = malloc(*len + 1);
		assert_non_null(out);
		memcpy(out, p, *len);
		return out;
	}
	assert_true(s->size >= 8);
	zsize = tk_load_u32(p, fx->v.bo);
	usize = tk_load_u32(p + 4, fx->v.bo);
	assert_int_equal(s->size, 8 + (uint64_t) zsize);
	out = malloc(usize + 1);
	assert_non_null(out);
	inflate_block(fx->v.comp, p + 8, zsize, out, usize);
	*len = usize;
	return out;
}

static void check_v7_layout(const struct fixture *fx)
{
	static const struct {
		uint16_t id;
		const char *desc;
	} want[] = {
		{16, "headers"},       {17, "ftrace events"},
		{18, "events format"}, {19, "kallsyms"},
		{20, "printk"},	       {21, "command lines"},
		{0, "options"},	       {3, "buffer flyrecord "},
		{0, "options"},	       {3, "buffer flyrecord inst"},
		{0, "options"},	       {15, "strings"},
	};
	const int comp = fx->v.comp != TRACEDAT_COMP_NONE;
	struct section sec[16] = {0};
	size_t size, n = 0, i, k, slen, b = 0;
	uint8_t *file = slurp(fx->path, &size), *strings;
	struct cur c = {file, size, 0, fx->v.bo};
	uint64_t first, next;

	check_file_header(fx, &c);
	assert_string_equal(cur_cstr(&c),
			    comp ? (fx->v.comp == TRACEDAT_COMP_ZSTD ? "zstd" : "zlib") : "none");
	assert_string_equal(cur_cstr(&c), fx->v.comp == TRACEDAT_COMP_ZSTD   ? ZSTD_versionString()
					  : fx->v.comp == TRACEDAT_COMP_ZLIB ? zlibVersion()
									     : "");
	first = cur_u64(&c);
	/* sections back to back, up to the very end of the file */
	while (c.off < size) {
		assert_true(n < 16);
		sec[n].off = c.off;
		sec[n].id = cur_u16(&c);
		sec[n].flags = cur_u16(&c);
		sec[n].desc = cur_u32(&c);
		sec[n].size = cur_u64(&c);
		cur_take(&c, (size_t) sec[n].size);
		n++;
	}
	assert_int_equal(c.off, size);
	assert_int_equal(n, 12);
	strings = section_payload(fx, file, &sec[11], &slen);
	for (i = 0; i < n; i++) {
		assert_int_equal(sec[i].id, want[i].id);
		assert_int_equal(sec[i].flags, sec[i].id != 0 && comp ? 1 : 0);
		assert_true(sec[i].desc < slen);
		assert_string_equal((const char *) strings + sec[i].desc, want[i].desc);
	}
	assert_int_equal(first, sec[6].off);
	/* metadata: exactly the v6 encoding of each part */
	for (i = 0; i < 6; i++) {
		struct eb e = {.bo = fx->v.bo};
		uint8_t *p = section_payload(fx, file, &sec[i], &k);

		expect_part(fx, (unsigned int) (16 + i), &e);
		assert_int_equal(k, e.len);
		assert_memory_equal(p, e.p, k);
		free(p);
		free(e.p);
	}
	/* the options chain: section offsets, TRACECLOCK, the caller's, CPUCOUNT, BUFFERs */
	next = first;
	for (k = 0; next; k++) {
		size_t s = k == 0 ? 6 : k == 1 ? 8 : 10;
		struct cur o;
		uint16_t id;

		assert_true(k < 3);
		assert_int_equal(next, sec[s].off);
		o = (struct cur){file, sec[s].off + 16 + (size_t) sec[s].size, sec[s].off + 16,
				 fx->v.bo};
		if (k == 0) {
			for (i = 0; i < 6; i++) {
				assert_int_equal(cur_u16(&o), 16 + i);
				assert_int_equal(cur_u32(&o), 8);
				assert_int_equal(cur_u64(&o), sec[i].off);
			}
			assert_int_equal(cur_u16(&o), TRACEDAT_OPTION_TRACECLOCK);
			assert_int_equal(cur_u32(&o), sizeof(CLOCK_TEXT));
			assert_memory_equal(cur_take(&o, sizeof(CLOCK_TEXT)), CLOCK_TEXT,
					    sizeof(CLOCK_TEXT));
			for (i = 0; i < fx->n_opts; i++) {
				assert_int_equal(cur_u16(&o), fx->opts[i].id);
				assert_int_equal(cur_u32(&o), fx->opts[i].size);
				assert_memory_equal(cur_take(&o, fx->opts[i].size),
						    fx->opts[i].data, fx->opts[i].size);
			}
			assert_int_equal(cur_u16(&o), TRACEDAT_OPTION_CPUCOUNT);
			assert_int_equal(cur_u32(&o), 4);
			assert_int_equal(cur_u32(&o), NCPUS);
		} else {
			const struct buf_plan *bp = &fx->bufs[b];
			const size_t bsec = s - 1;
			uint32_t osize, ncpu, j;
			size_t at;

			assert_int_equal(cur_u16(&o), TRACEDAT_OPTION_BUFFER);
			osize = cur_u32(&o);
			at = o.off;
			assert_int_equal(cur_u64(&o), sec[bsec].off);
			assert_string_equal(cur_cstr(&o), bp->name);
			assert_string_equal(cur_cstr(&o), bp->clock);
			assert_int_equal(cur_u32(&o), fx->v.page_size);
			ncpu = cur_u32(&o);
			for (j = 0, i = 0; i < bp->n_cpus; i++)
				j += bp->cpus[i].pages > 0;
			assert_int_equal(ncpu, j);
			for (j = 0; j < ncpu; j++) {
				uint32_t cpu = cur_u32(&o);
				uint64_t off = cur_u64(&o), sz = cur_u64(&o);
				const struct cpu_plan *cp = plan_cpu(bp, cpu);

				assert_non_null(cp);
				assert_true(cp->pages > 0);
				/* inside its buffer section */
				assert_true(off >= sec[bsec].off + 16);
				assert_true(off + sz <= sec[bsec].off + 16 + sec[bsec].size);
				if (comp)
					check_chunks(fx, b, cp, file, size, off, sz);
				else
					check_raw_pages(fx, b, cp, file, off, sz);
			}
			assert_int_equal(o.off - at, osize);
			b++;
		}
		id = cur_u16(&o);
		assert_int_equal(id, TRACEDAT_OPTION_DONE);
		assert_int_equal(cur_u32(&o), 8);
		next = cur_u64(&o);
		assert_int_equal(o.off, o.size); /* DONE ends the section */
	}
	assert_int_equal(k, 3);
	assert_int_equal(b, 2);
	free(strings);
	free(file);
}

/* The written file against both oracles: the reader, then the layout of its version. */
void check_written(const struct fixture *fx)
{
	check_with_reader(fx);
	if (fx->v.version == 6)
		check_v6_layout(fx);
	else
		check_v7_layout(fx);
}
