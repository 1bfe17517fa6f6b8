// SPDX-License-Identifier: MIT
/*
 * Unit tests of the trace.dat writer (src/tracedat/tracedat-write.c).
 *
 * Each test writes a file from hand-made metadata texts and pages (struct plan says which
 * CPUs of which buffer get how many pages, the last one possibly short, given page by page,
 * from a regular file or from a pipe) and checks it twice, against two oracles that do not
 * come from the writer:
 *  - the project's reader (src/tracedat/tracedat.h): every metadata part, option, buffer,
 *    CPU list and page byte for byte;
 *  - the layout of ../shared/reference/tracedat.md sections 2 to 4, walked here byte by byte:
 *    v6 head (metadata in sequence, options ending with a DONE without size, "flyrecord",
 *    CPU table with offset and size 0 for CPUs without data, the "[clock]" text), v7
 *    sections back to back up to the end of the file with their flags and descriptions,
 *    metadata compressed as one block, the options chain, BUFFER options with exact per-CPU
 *    sizes, and compressed chunks of at most ten pages, inflated here with libzstd and zlib.
 * Then the misuse a caller can make (each one a TK_ERR_INVAL with a cause, after which the
 * writer refuses everything) and a full disk (/dev/full: the errno in the cause).
 */
#include <errno.h>
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

/* ---- fixture text ---------------------------------------------------------------------------- */

static const char HEADER_PAGE8[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
				   "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
				   "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
				   "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
static const char HEADER_PAGE4[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
				   "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
				   "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
				   "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n";
static const char HEADER_EVENT[] = "# compressed entry header\n"
				   "\ttype_len    :    5 bits\n"
				   "\ttime_delta  :   27 bits\n"
				   "\tarray       :   32 bits\n";
static const char *const FTRACE_FMT[] = {
	"name: function\nID: 1\nformat:\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n",
	"name: print\nID: 5\nformat:\n\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n",
};
static const char *const SCHED_FMT[] = {
	"name: sched_switch\nID: 316\nformat:\n\tfield:char prev_comm[16];\n",
	"name: sched_wakeup\nID: 320\nformat:\n\tfield:pid_t pid;\n",
};
static const char IRQ_FMT[] = "name: irq_handler_entry\nID: 140\nformat:\n";
static const char KALLSYMS[] = "ffffffff81000000 T _stext\nffffffff81000100 t do_one\n";
static const char PRINTK[] = "0xffffffff82000000 : \"hello %d\\n\"\n";
static const char CMDLINES[] = "1 systemd\n42 sleep\n";
static const char CLOCK_TEXT[] = "[local] global counter uptime perf mono mono_raw boot\n";
static const char INST_CLOCK[] = "local [global] counter uptime\n";
static const char UNAME[] = "Linux box 6.1.0 x86_64";
static const char TCVERSION[] = "3.1.6 tracekit-test";
static const char DATE[] = "0x5f5e100";
static const char CPUSTAT0[] = "CPU: 0\nentries: 10\n";
static const char CPUSTAT1[] = "CPU: 1\nentries: 20\n";

#define NCPUS 4

/* ---- what a test file holds ------------------------------------------------------------------ */

enum feed {
	FEED_PAGES, /* tracedat_writer_cpu_page() per page */
	FEED_FILE,  /* tracedat_writer_cpu_fd() of a regular file, from an offset past junk */
	FEED_PIPE,  /* tracedat_writer_cpu_fd() of a pipe */
};

struct cpu_plan {
	uint32_t cpu;
	unsigned int pages; /* 0: begun, given nothing */
	size_t last;	    /* bytes of the last page; 0 for a whole one */
	enum feed feed;
};

struct buf_plan {
	const char *name;
	const char *clock_text; /* buffer_begin's clock text (instances) */
	const char *clock;	/* the clock name the file must give */
	struct cpu_plan cpus[NCPUS];
	size_t n_cpus;
};

struct variant {
	unsigned int version;
	enum tracedat_compression comp;
	enum tk_byte_order bo;
	unsigned int long_size;
	uint32_t page_size;
	int use_fd; /* the instance's CPUs come from files and pipes */
};

/* One option the test gives, and how the file must carry it. */
struct opt {
	uint16_t id;
	uint8_t data[32];
	uint32_t size;
};

struct fixture {
	struct variant v;
	struct buf_plan bufs[2];
	size_t n_bufs;
	struct opt opts[8];
	size_t n_opts;
	char path[64];
};

static char tmpdir[] = "/tmp/tk-test-write-XXXXXX";

/* The byte at @i of page @page of CPU @cpu of buffer @b: varied, yet compressible. */
static uint8_t page_byte(size_t b, uint32_t cpu, unsigned int page, size_t i)
{
	return (uint8_t) (b * 97 + cpu * 31 + page * 13 + i / 64 + (i % 7 == 0 ? i : 0));
}

/* Page @page as written: @len bytes of content (the given page). */
static size_t page_len(const struct fixture *fx, const struct cpu_plan *c, unsigned int page)
{
	return page + 1 == c->pages && c->last ? c->last : fx->v.page_size;
}

static void fill_page(uint8_t *p, size_t len, size_t b, uint32_t cpu, unsigned int page)
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

static void fixture_init(struct fixture *fx, const struct variant *v, const char *name)
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

static const char *header_page(const struct fixture *fx)
{
	return fx->v.long_size == 4 ? HEADER_PAGE4 : HEADER_PAGE8;
}

/* ---- writing --------------------------------------------------------------------------------- */

static void check_ok(enum tk_status st)
{
	size_t i;

	if (st < 0) {
		for (i = 0; i < tk_error_count(); i++)
			print_error("cause: %s\n", tk_error_cause(i));
	}
	assert_int_equal(st, TK_OK);
}

static struct tracedat_write_opts write_opts(const struct variant *v)
{
	struct tracedat_write_opts o = TRACEDAT_WRITE_OPTS_INIT;

	o.version = v->version;
	o.comp = v->comp;
	o.bo = v->bo;
	o.long_size = v->long_size;
	o.page_size = v->page_size;
	return o;
}

static void write_metadata(struct tracedat_writer *w, const struct fixture *fx)
{
	size_t i;

	/* out of the file's order on purpose: any order is allowed */
	check_ok(tracedat_writer_set_cmdlines(w, CMDLINES, strlen(CMDLINES)));
	check_ok(tracedat_writer_add_event_format(w, "sched", SCHED_FMT[0], strlen(SCHED_FMT[0])));
	check_ok(tracedat_writer_set_header_page(w, header_page(fx), strlen(header_page(fx))));
	check_ok(tracedat_writer_add_ftrace_format(w, FTRACE_FMT[0], strlen(FTRACE_FMT[0])));
	check_ok(tracedat_writer_add_event_format(w, "irq", IRQ_FMT, strlen(IRQ_FMT)));
	check_ok(tracedat_writer_set_header_event(w, HEADER_EVENT, strlen(HEADER_EVENT)));
	check_ok(tracedat_writer_add_event_format(w, "sched", SCHED_FMT[1], strlen(SCHED_FMT[1])));
	check_ok(tracedat_writer_add_ftrace_format(w, FTRACE_FMT[1], strlen(FTRACE_FMT[1])));
	check_ok(tracedat_writer_set_kallsyms(w, KALLSYMS, strlen(KALLSYMS)));
	check_ok(tracedat_writer_set_printk(w, PRINTK, strlen(PRINTK)));
	check_ok(tracedat_writer_set_trace_clock(w, CLOCK_TEXT, strlen(CLOCK_TEXT)));
	for (i = 0; i < fx->n_opts; i++)
		check_ok(tracedat_writer_add_option(w, fx->opts[i].id, fx->opts[i].data,
						    fx->opts[i].size));
	check_ok(tracedat_writer_set_cpus(w, NCPUS));
}

/* All pages of one CPU in one buffer, the last one short when the plan says so. */
static uint8_t *cpu_bytes(const struct fixture *fx, size_t b, const struct cpu_plan *c, size_t *len)
{
	uint8_t *d = malloc((size_t) c->pages * fx->v.page_size + 1);
	unsigned int p;

	assert_non_null(d);
	*len = 0;
	for (p = 0; p < c->pages; p++) {
		fill_page(d + *len, page_len(fx, c, p), b, c->cpu, p);
		*len += page_len(fx, c, p);
	}
	return d;
}

static void feed_cpu(struct tracedat_writer *w, const struct fixture *fx, size_t b,
		     const struct cpu_plan *c)
{
	uint8_t page[65536], *d;
	char path[96];
	size_t len;
	unsigned int p;
	int fd, pfd[2];

	check_ok(tracedat_writer_cpu_begin(w, c->cpu));
	switch (c->feed) {
	case FEED_PAGES:
		for (p = 0; p < c->pages; p++) {
			fill_page(page, page_len(fx, c, p), b, c->cpu, p);
			check_ok(tracedat_writer_cpu_page(w, page, page_len(fx, c, p)));
		}
		break;
	case FEED_FILE:
		/* the data starts at the descriptor's position, past 100 junk bytes */
		snprintf(path, sizeof(path), "%s/cpu%u-%zu", tmpdir, c->cpu, b);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		assert_true(fd >= 0);
		memset(page, 0xee, 100);
		assert_int_equal(write(fd, page, 100), 100);
		d = cpu_bytes(fx, b, c, &len);
		assert_int_equal(write(fd, d, len), (ssize_t) len);
		free(d);
		assert_int_equal(lseek(fd, 100, SEEK_SET), 100);
		check_ok(tracedat_writer_cpu_fd(w, fd));
		close(fd);
		unlink(path);
		break;
	case FEED_PIPE:
		assert_int_equal(pipe(pfd), 0);
		d = cpu_bytes(fx, b, c, &len);
		assert_true(len <= 65536); /* fits the pipe: no writer thread needed */
		assert_int_equal(write(pfd[1], d, len), (ssize_t) len);
		free(d);
		close(pfd[1]);
		check_ok(tracedat_writer_cpu_fd(w, pfd[0]));
		close(pfd[0]);
		break;
	}
	check_ok(tracedat_writer_cpu_end(w));
}

static void write_fixture(const struct fixture *fx)
{
	struct tracedat_write_opts o = write_opts(&fx->v);
	struct tracedat_writer *w = NULL;
	size_t b, i;

	check_ok(tracedat_writer_open(&w, fx->path, &o));
	write_metadata(w, fx);
	for (b = 0; b < fx->n_bufs; b++) {
		if (b)
			check_ok(tracedat_writer_buffer_begin(w, fx->bufs[b].name,
							      fx->bufs[b].clock_text));
		for (i = 0; i < fx->bufs[b].n_cpus; i++)
			feed_cpu(w, fx, b, &fx->bufs[b].cpus[i]);
	}
	check_ok(tracedat_writer_close(w));
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

static uint8_t *slurp(const char *path, size_t *size)
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
	struct section sec[16];
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

static void check_variant(const struct variant *v, const char *name)
{
	struct fixture fx;

	fixture_init(&fx, v, name);
	write_fixture(&fx);
	check_with_reader(&fx);
	if (v->version == 6)
		check_v6_layout(&fx);
	else
		check_v7_layout(&fx);
	unlink(fx.path);
}

/* ---- the variants ---------------------------------------------------------------------------- */

static void test_v6_le_long8(void **state)
{
	const struct variant v = {6, TRACEDAT_COMP_NONE, TK_BYTE_ORDER_LE, 8, 4096, 1};

	(void) state;
	check_variant(&v, "v6-le");
}

static void test_v6_be_long4_page16k(void **state)
{
	const struct variant v = {6, TRACEDAT_COMP_NONE, TK_BYTE_ORDER_BE, 4, 16384, 0};

	(void) state;
	check_variant(&v, "v6-be");
}

static void test_v7_none_le_long8(void **state)
{
	const struct variant v = {7, TRACEDAT_COMP_NONE, TK_BYTE_ORDER_LE, 8, 4096, 0};

	(void) state;
	check_variant(&v, "v7-none-le");
}

static void test_v7_none_be_long4_page16k(void **state)
{
	const struct variant v = {7, TRACEDAT_COMP_NONE, TK_BYTE_ORDER_BE, 4, 16384, 1};

	(void) state;
	check_variant(&v, "v7-none-be");
}

static void test_v7_zstd_le_long8(void **state)
{
	const struct variant v = {7, TRACEDAT_COMP_ZSTD, TK_BYTE_ORDER_LE, 8, 4096, 1};

	(void) state;
	check_variant(&v, "v7-zstd-le");
}

static void test_v7_zstd_be_long4_page16k(void **state)
{
	const struct variant v = {7, TRACEDAT_COMP_ZSTD, TK_BYTE_ORDER_BE, 4, 16384, 0};

	(void) state;
	check_variant(&v, "v7-zstd-be");
}

static void test_v7_zlib_le_long4_page16k(void **state)
{
	const struct variant v = {7, TRACEDAT_COMP_ZLIB, TK_BYTE_ORDER_LE, 4, 16384, 1};

	(void) state;
	check_variant(&v, "v7-zlib-le");
}

static void test_v7_zlib_be_long8(void **state)
{
	const struct variant v = {7, TRACEDAT_COMP_ZLIB, TK_BYTE_ORDER_BE, 8, 4096, 0};

	(void) state;
	check_variant(&v, "v7-zlib-be");
}

/* ---- files without data ---------------------------------------------------------------------- */

static void write_bare(const char *path, unsigned int version, enum tracedat_compression comp)
{
	struct tracedat_write_opts o = TRACEDAT_WRITE_OPTS_INIT;
	struct tracedat_writer *w = NULL;

	o.version = version;
	o.comp = comp;
	check_ok(tracedat_writer_open(&w, path, &o));
	check_ok(tracedat_writer_close(w));
}

/* Nothing but the header: every part empty, no clock, no CPU, the reader still opens it. */
static void test_files_without_anything(void **state)
{
	static const struct {
		unsigned int version;
		enum tracedat_compression comp;
	} cases[] = {{6, TRACEDAT_COMP_NONE}, {7, TRACEDAT_COMP_NONE}, {7, TRACEDAT_COMP_ZSTD}};
	char path[64];
	size_t i;

	(void) state;
	snprintf(path, sizeof(path), "%s/bare.dat", tmpdir);
	for (i = 0; i < TK_ARRAY_SIZE(cases); i++) {
		struct tracedat *td = NULL;

		write_bare(path, cases[i].version, cases[i].comp);
		check_ok(tracedat_open(&td, path));
		assert_int_equal(td->info.version, cases[i].version);
		assert_int_equal(td->info.cpus, 0);
		assert_int_equal(td->info.header_page.len, 0);
		assert_int_equal(td->info.n_ftrace_formats, 0);
		assert_int_equal(td->info.n_systems, 0);
		assert_int_equal(td->info.kallsyms.len, 0);
		assert_int_equal(td->info.cmdlines.len, 0);
		assert_null(td->info.trace_clock);
		assert_int_equal(td->info.n_buffers, 1);
		assert_int_equal(td->info.buffers[0].n_cpus, 0);
		/* v7 names a clock in its BUFFER option: trace-cmd's fallback, "local" */
		if (cases[i].version == 7)
			assert_string_equal(td->info.buffers[0].clock, "local");
		tracedat_close(td);
	}
	unlink(path);
}

/*
 * A CPU given an empty file writes nothing: not even bytes past the end of the last section
 * (its alignment padding was flushed before the file turned out empty), which readers of v7
 * would take for more sections.
 */
static void test_v7_empty_cpu_leaves_no_tail(void **state)
{
	struct tracedat_write_opts o = TRACEDAT_WRITE_OPTS_INIT;
	struct tracedat_writer *w = NULL;
	struct tracedat *td = NULL;
	char path[64], empty[80];
	uint8_t *file;
	size_t size, off, n = 0;
	int fd;

	(void) state;
	snprintf(path, sizeof(path), "%s/tail.dat", tmpdir);
	snprintf(empty, sizeof(empty), "%s/empty-cpu", tmpdir);
	fd = open(empty, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	o.comp = TRACEDAT_COMP_NONE;
	check_ok(tracedat_writer_open(&w, path, &o));
	check_ok(tracedat_writer_set_cpus(w, 2));
	check_ok(tracedat_writer_cpu_begin(w, 1));
	check_ok(tracedat_writer_cpu_fd(w, fd));
	check_ok(tracedat_writer_cpu_end(w));
	check_ok(tracedat_writer_close(w));
	close(fd);
	unlink(empty);

	check_ok(tracedat_open(&td, path));
	assert_int_equal(td->info.buffers[0].n_cpus, 0);
	assert_int_equal(td->info.n_sections, 10);
	tracedat_close(td);
	/* the sections tile the file exactly */
	file = slurp(path, &size);
	off = 10 + 2 + 2 + 4 + 5 + 1 + 8; /* header, "none", "", options offset */
	while (off + 16 <= size) {
		off += 16 + (size_t) tk_load_le64(file + off + 8);
		n++;
	}
	assert_int_equal(off, size);
	assert_int_equal(n, 10);
	free(file);
	unlink(path);
}

/* Resident memory of this process, in bytes (/proc/self/statm). */
static size_t resident(void)
{
	unsigned long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &res) != 2)
		res = 0;
	fclose(f);
	return (size_t) res * (size_t) sysconf(_SC_PAGESIZE);
}

/*
 * Pages are streamed: 48 MiB of them, given page by page (compressed) or from a file
 * (uncompressed), leave resident memory within a few MiB of where it started.
 */
static void test_memory_stays_bounded(void **state)
{
	static const enum tracedat_compression comps[] = {TRACEDAT_COMP_ZSTD, TRACEDAT_COMP_NONE};
	const unsigned int pages = 12288;
	char path[64], data[80];
	uint8_t page[4096];
	size_t i, before;
	unsigned int p;
	int fd;

	(void) state;
	if (!resident())
		skip();
	snprintf(path, sizeof(path), "%s/big.dat", tmpdir);
	snprintf(data, sizeof(data), "%s/big-cpu", tmpdir);
	fd = open(data, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	for (p = 0; p < pages; p++) {
		fill_page(page, sizeof(page), 0, 0, p);
		assert_int_equal(write(fd, page, sizeof(page)), (ssize_t) sizeof(page));
	}
	for (i = 0; i < TK_ARRAY_SIZE(comps); i++) {
		struct tracedat_write_opts o = TRACEDAT_WRITE_OPTS_INIT;
		struct tracedat_writer *w = NULL;
		struct tracedat *td = NULL;

		o.comp = comps[i];
		before = resident();
		check_ok(tracedat_writer_open(&w, path, &o));
		check_ok(tracedat_writer_set_cpus(w, 1));
		check_ok(tracedat_writer_cpu_begin(w, 0));
		if (comps[i] == TRACEDAT_COMP_NONE) {
			assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
			check_ok(tracedat_writer_cpu_fd(w, fd));
		} else {
			for (p = 0; p < pages; p++) {
				fill_page(page, sizeof(page), 0, 0, p);
				check_ok(tracedat_writer_cpu_page(w, page, sizeof(page)));
			}
		}
		assert_true(resident() < before + (8u << 20));
		check_ok(tracedat_writer_cpu_end(w));
		check_ok(tracedat_writer_close(w));
		check_ok(tracedat_open(&td, path));
		assert_int_equal(td->info.buffers[0].n_cpus, 1);
		assert_int_equal(td->info.buffers[0].cpus[0].cpu, 0);
		if (comps[i] == TRACEDAT_COMP_NONE)
			assert_int_equal(td->info.buffers[0].cpus[0].size, (uint64_t) pages * 4096);
		tracedat_close(td);
		unlink(path);
	}
	close(fd);
	unlink(data);
}

/* ---- misuse ---------------------------------------------------------------------------------- */

static int chain_has(const char *needle)
{
	size_t i;

	for (i = 0; i < tk_error_count(); i++)
		if (strstr(tk_error_cause(i), needle))
			return 1;
	return 0;
}

/* @st must be @want with a cause containing @needle; then the writer refuses everything. */
static void expect_failure(struct tracedat_writer *w, enum tk_status st, enum tk_status want,
			   const char *needle)
{
	assert_int_equal(st, want);
	if (!chain_has(needle)) {
		size_t i;

		for (i = 0; i < tk_error_count(); i++)
			print_error("cause: %s\n", tk_error_cause(i));
		fail_msg("no cause contains \"%s\"", needle);
	}
	tk_error_clear();
	assert_true(tracedat_writer_set_cpus(w, 1) < 0);
	assert_true(chain_has("an earlier call failed"));
	tk_error_clear();
	assert_true(tracedat_writer_close(w) < 0);
	assert_true(chain_has("an earlier call failed"));
	tk_error_clear();
}

static struct tracedat_writer *misuse_writer(unsigned int version, uint32_t cpus)
{
	struct tracedat_write_opts o = TRACEDAT_WRITE_OPTS_INIT;
	struct tracedat_writer *w = NULL;
	char path[64];

	snprintf(path, sizeof(path), "%s/misuse.dat", tmpdir);
	o.version = version;
	o.comp = version == 7 ? TRACEDAT_COMP_ZSTD : TRACEDAT_COMP_NONE;
	tk_error_clear();
	check_ok(tracedat_writer_open(&w, path, &o));
	if (cpus)
		check_ok(tracedat_writer_set_cpus(w, cpus));
	return w;
}

static void test_metadata_after_data(void **state)
{
	static const char page[100];
	struct tracedat_writer *w;
	unsigned int version;

	(void) state;
	for (version = 6; version <= 7; version++) {
		w = misuse_writer(version, 2);
		check_ok(tracedat_writer_cpu_begin(w, 0));
		check_ok(tracedat_writer_cpu_page(w, page, sizeof(page)));
		check_ok(tracedat_writer_cpu_end(w));
		expect_failure(w, tracedat_writer_set_kallsyms(w, KALLSYMS, strlen(KALLSYMS)),
			       TK_ERR_INVAL, "Cannot set trace.dat kallsyms");
		w = misuse_writer(version, 2);
		check_ok(tracedat_writer_cpu_begin(w, 1));
		expect_failure(w, tracedat_writer_add_option(w, TRACEDAT_OPTION_UNAME, UNAME, 5),
			       TK_ERR_INVAL, "the data has begun");
		w = misuse_writer(version, 0);
		check_ok(tracedat_writer_buffer_begin(w, "inst", NULL));
		expect_failure(w, tracedat_writer_set_cpus(w, 4), TK_ERR_INVAL,
			       "the data has begun");
	}
}

static void test_cpu_order_and_range(void **state)
{
	struct tracedat_writer *w;

	(void) state;
	w = misuse_writer(7, 4);
	check_ok(tracedat_writer_cpu_begin(w, 2));
	check_ok(tracedat_writer_cpu_end(w));
	expect_failure(w, tracedat_writer_cpu_begin(w, 1), TK_ERR_INVAL,
		       "CPUs of a buffer come in increasing order");
	w = misuse_writer(6, 4);
	check_ok(tracedat_writer_cpu_begin(w, 2));
	check_ok(tracedat_writer_cpu_end(w));
	expect_failure(w, tracedat_writer_cpu_begin(w, 2), TK_ERR_INVAL, "increasing order");
	w = misuse_writer(7, 4);
	expect_failure(w, tracedat_writer_cpu_begin(w, 4), TK_ERR_INVAL, "not below the CPU count");
	w = misuse_writer(6, 0); /* no set_cpus: no CPU exists */
	expect_failure(w, tracedat_writer_cpu_begin(w, 0), TK_ERR_INVAL, "cpus=0");
	/* a new buffer starts its own order */
	w = misuse_writer(7, 4);
	check_ok(tracedat_writer_cpu_begin(w, 3));
	check_ok(tracedat_writer_cpu_end(w));
	check_ok(tracedat_writer_buffer_begin(w, "inst", NULL));
	check_ok(tracedat_writer_cpu_begin(w, 0));
	check_ok(tracedat_writer_cpu_end(w));
	check_ok(tracedat_writer_close(w));
}

static void test_cpu_calls_out_of_place(void **state)
{
	uint8_t page[4097] = {0};
	struct tracedat_writer *w;

	(void) state;
	w = misuse_writer(7, 2);
	expect_failure(w, tracedat_writer_cpu_page(w, page, 100), TK_ERR_INVAL, "no CPU begun");
	w = misuse_writer(6, 2);
	expect_failure(w, tracedat_writer_cpu_end(w), TK_ERR_INVAL, "no CPU begun");
	w = misuse_writer(7, 2);
	check_ok(tracedat_writer_cpu_begin(w, 0));
	check_ok(tracedat_writer_cpu_end(w));
	expect_failure(w, tracedat_writer_cpu_fd(w, 0), TK_ERR_INVAL, "no CPU begun");
	w = misuse_writer(7, 2);
	check_ok(tracedat_writer_cpu_begin(w, 0));
	expect_failure(w, tracedat_writer_cpu_page(w, page, sizeof(page)), TK_ERR_INVAL,
		       "larger than a page");
	w = misuse_writer(6, 2);
	check_ok(tracedat_writer_cpu_begin(w, 0));
	expect_failure(w, tracedat_writer_cpu_begin(w, 1), TK_ERR_INVAL, "CPU 0 was not ended");
	w = misuse_writer(7, 2);
	check_ok(tracedat_writer_cpu_begin(w, 1));
	expect_failure(w, tracedat_writer_buffer_begin(w, "inst", NULL), TK_ERR_INVAL,
		       "CPU 1 was not ended");
	/* close inside a CPU fails and still frees */
	w = misuse_writer(7, 2);
	check_ok(tracedat_writer_cpu_begin(w, 1));
	assert_int_equal(tracedat_writer_close(w), TK_ERR_INVAL);
	assert_true(chain_has("CPU 1 was not ended"));
	tk_error_clear();
}

static void test_bad_buffers_and_options(void **state)
{
	static const uint16_t reserved[] = {
		TRACEDAT_OPTION_DONE,	  TRACEDAT_OPTION_BUFFER,      TRACEDAT_OPTION_TRACECLOCK,
		TRACEDAT_OPTION_CPUCOUNT, TRACEDAT_OPTION_STRINGS,     TRACEDAT_OPTION_HEADER_INFO,
		TRACEDAT_OPTION_CMDLINES, TRACEDAT_OPTION_BUFFER_TEXT,
	};
	struct tracedat_writer *w;
	size_t i;

	(void) state;
	for (i = 0; i < TK_ARRAY_SIZE(reserved); i++) {
		w = misuse_writer(7, 0);
		expect_failure(w, tracedat_writer_add_option(w, reserved[i], "x", 1), TK_ERR_INVAL,
			       "the writer makes this option itself");
	}
	w = misuse_writer(7, 0);
	expect_failure(w, tracedat_writer_buffer_begin(w, "", NULL), TK_ERR_INVAL,
		       "an instance needs a name");
	w = misuse_writer(6, 0);
	check_ok(tracedat_writer_buffer_begin(w, "a", NULL));
	expect_failure(w, tracedat_writer_buffer_begin(w, "a", NULL), TK_ERR_INVAL,
		       "a buffer of that name was written already");
	w = misuse_writer(7, 0);
	check_ok(tracedat_writer_set_printk(w, PRINTK, 3));
	expect_failure(w, tracedat_writer_set_printk(w, PRINTK, 3), TK_ERR_INVAL, "set twice");
	w = misuse_writer(7, 2);
	expect_failure(w, tracedat_writer_set_cpus(w, 3), TK_ERR_INVAL, "set twice");
}

/* Version 6 keeps room for instance names in its head; past it, a clear refusal. */
static void test_v6_instance_room(void **state)
{
	struct tracedat_writer *w;
	char name[201];
	enum tk_status st = TK_OK;
	int i;

	(void) state;
	w = misuse_writer(6, 1);
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	for (i = 0; i < 1000 && st == TK_OK; i++) {
		snprintf(name, 8, "%06d", i);
		name[6] = 'n';
		st = tracedat_writer_buffer_begin(w, name, NULL);
	}
	/* 16 KiB hold 76 BUFFER options of 215 bytes, not 100 */
	assert_true(i > 76 && i < 100);
	expect_failure(w, st, TK_ERR_UNSUPPORTED, "no room left in the version 6 options");
}

static void test_bad_options(void **state)
{
	static const struct {
		unsigned int version;
		enum tracedat_compression comp;
		unsigned int long_size;
		uint32_t page_size;
		const char *reason;
	} cases[] = {
		{5, TRACEDAT_COMP_NONE, 8, 4096, "version is neither 6 nor 7"},
		{6, TRACEDAT_COMP_ZSTD, 8, 4096, "version 6 has no compression"},
		{7, TRACEDAT_COMP_ZSTD, 2, 4096, "long size"},
		{7, TRACEDAT_COMP_NONE, 8, 6000, "page size"},
		{7, TRACEDAT_COMP_NONE, 8, 2048, "page size"},
	};
	char path[64];
	size_t i;

	(void) state;
	snprintf(path, sizeof(path), "%s/never.dat", tmpdir);
	for (i = 0; i < TK_ARRAY_SIZE(cases); i++) {
		struct tracedat_write_opts o = TRACEDAT_WRITE_OPTS_INIT;
		struct tracedat_writer *w = NULL;

		o.version = cases[i].version;
		o.comp = cases[i].comp;
		o.long_size = cases[i].long_size;
		o.page_size = cases[i].page_size;
		tk_error_clear();
		assert_int_equal(tracedat_writer_open(&w, path, &o), TK_ERR_INVAL);
		assert_null(w);
		assert_true(chain_has(cases[i].reason));
		assert_true(chain_has(path));
		assert_int_equal(access(path, F_OK), -1); /* nothing created */
	}
	/* a path that cannot be created: the errno in the cause */
	{
		struct tracedat_writer *w = NULL;

		tk_error_clear();
		assert_int_equal(tracedat_writer_open(&w, "/nonexistent-dir/x.dat", NULL),
				 TK_ERR_IO);
		assert_null(w);
		assert_true(chain_has("path=/nonexistent-dir/x.dat, errno=No such file or "
				      "directory"));
		tk_error_clear();
	}
}

/* ---- a full disk ----------------------------------------------------------------------------- */

#define ENOSPC_CAUSE "Cannot write trace.dat: path=/dev/full, errno=No space left on device"

/* v7 zstd, pages given one by one: more than the output buffer, so a page call fails. */
static void test_enospc_pages(void **state)
{
	struct tracedat_write_opts o = TRACEDAT_WRITE_OPTS_INIT;
	struct tracedat_writer *w = NULL;
	uint8_t page[4096];
	enum tk_status st = TK_OK;
	int i;

	(void) state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	tk_error_clear();
	o.comp = TRACEDAT_COMP_NONE;
	check_ok(tracedat_writer_open(&w, "/dev/full", &o));
	check_ok(tracedat_writer_set_kallsyms(w, KALLSYMS, strlen(KALLSYMS)));
	check_ok(tracedat_writer_set_cpus(w, 1));
	check_ok(tracedat_writer_cpu_begin(w, 0));
	for (i = 0; i < 1000 && st == TK_OK; i++) {
		fill_page(page, sizeof(page), 0, 0, (unsigned int) i);
		st = tracedat_writer_cpu_page(w, page, sizeof(page));
	}
	assert_int_equal(st, TK_ERR_IO);
	assert_true(i < 1000);
	assert_true(chain_has(ENOSPC_CAUSE));
	tk_error_clear();
	assert_true(tracedat_writer_cpu_end(w) < 0);
	assert_true(chain_has("an earlier call failed"));
	tk_error_clear();
	assert_true(tracedat_writer_close(w) < 0);
	tk_error_clear();
}

/* v6 and v7 zlib, pages from a file (copy_file_range cannot write to a device): close fails. */
static void test_enospc_fd(void **state)
{
	static const struct {
		unsigned int version;
		enum tracedat_compression comp;
	} cases[] = {{6, TRACEDAT_COMP_NONE}, {7, TRACEDAT_COMP_ZLIB}};
	char path[64];
	uint8_t page[4096];
	size_t i;
	int fd;

	(void) state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	snprintf(path, sizeof(path), "%s/enospc-cpu", tmpdir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	fill_page(page, sizeof(page), 0, 0, 0);
	assert_int_equal(write(fd, page, sizeof(page)), (ssize_t) sizeof(page));
	for (i = 0; i < TK_ARRAY_SIZE(cases); i++) {
		struct tracedat_write_opts o = TRACEDAT_WRITE_OPTS_INIT;
		struct tracedat_writer *w = NULL;

		o.version = cases[i].version;
		o.comp = cases[i].comp;
		tk_error_clear();
		check_ok(tracedat_writer_open(&w, "/dev/full", &o));
		check_ok(tracedat_writer_set_cpus(w, 1));
		check_ok(tracedat_writer_cpu_begin(w, 0));
		assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
		check_ok(tracedat_writer_cpu_fd(w, fd));
		check_ok(tracedat_writer_cpu_end(w));
		assert_int_equal(tracedat_writer_close(w), TK_ERR_IO);
		assert_true(chain_has(ENOSPC_CAUSE));
	}
	tk_error_clear();
	close(fd);
	unlink(path);
}

/* ---- main ------------------------------------------------------------------------------------ */

static int setup(void **state)
{
	(void) state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char path[64];

	(void) state;
	snprintf(path, sizeof(path), "%s/misuse.dat", tmpdir);
	unlink(path);
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v6_le_long8),
		cmocka_unit_test(test_v6_be_long4_page16k),
		cmocka_unit_test(test_v7_none_le_long8),
		cmocka_unit_test(test_v7_none_be_long4_page16k),
		cmocka_unit_test(test_v7_zstd_le_long8),
		cmocka_unit_test(test_v7_zstd_be_long4_page16k),
		cmocka_unit_test(test_v7_zlib_le_long4_page16k),
		cmocka_unit_test(test_v7_zlib_be_long8),
		cmocka_unit_test(test_files_without_anything),
		cmocka_unit_test(test_v7_empty_cpu_leaves_no_tail),
		cmocka_unit_test(test_memory_stays_bounded),
		cmocka_unit_test(test_metadata_after_data),
		cmocka_unit_test(test_cpu_order_and_range),
		cmocka_unit_test(test_cpu_calls_out_of_place),
		cmocka_unit_test(test_bad_buffers_and_options),
		cmocka_unit_test(test_v6_instance_room),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_enospc_pages),
		cmocka_unit_test(test_enospc_fd),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
