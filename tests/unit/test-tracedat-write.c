// SPDX-License-Identifier: MIT
/*
 * Unit tests of the trace.dat writer (src/tracedat/tracedat-write*.c).
 *
 * Each test writes a file from hand-made metadata texts and pages (struct plan says which
 * CPUs of which buffer get how many pages, the last one possibly short, given page by page,
 * from a regular file or from a pipe) and checks it twice, against two oracles that do not
 * come from the writer:
 *  - the project's reader (src/tracedat/tracedat.h): every metadata part, option, buffer,
 *    CPU list and page byte for byte;
 *  - the layout of ../shared/reference/tracedat.md sections 2 to 4, walked byte by byte:
 *    v6 head (metadata in sequence, options ending with a DONE without size, "flyrecord",
 *    CPU table with offset and size 0 for CPUs without data, the "[clock]" text), v7
 *    sections back to back up to the end of the file with their flags and descriptions,
 *    metadata compressed as one block, the options chain, BUFFER options with exact per-CPU
 *    sizes, and compressed chunks of at most ten pages, inflated with libzstd and zlib.
 * Then the misuse a caller can make (each one a TK_ERR_INVAL with a cause, after which the
 * writer refuses everything) and a full disk (/dev/full: the errno in the cause). The fixture
 * and both oracles are in tracedat-write-oracle.c; this file writes and misuses.
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
#include <unistd.h>

#include <cmocka.h>

#include <tracekit/status.h>

#include "common/bytes.h"
#include "common/error.h"
#include "tracedat/tracedat-write.h"
#include "tracedat/tracedat.h"
#include "tracedat-write-oracle.h"

/* ---- writing --------------------------------------------------------------------------------- */

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

static void check_variant(const struct variant *v, const char *name)
{
	struct fixture fx;

	fixture_init(&fx, v, name);
	write_fixture(&fx);
	check_written(&fx);
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
