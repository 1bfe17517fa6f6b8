/* SPDX-License-Identifier: MIT */
/*
 * Shared between the trace.dat writer's unit tests (test-tracedat-write.c) and their fixture
 * and oracles (tracedat-write-oracle.c): what a test file holds (the plan of buffers, CPUs,
 * pages and options), the metadata texts the tests write, and the checks of a written file,
 * against the project's reader and against the reference layout walked byte by byte.
 */
#ifndef TK_TESTS_UNIT_TRACEDAT_WRITE_ORACLE_H
#define TK_TESTS_UNIT_TRACEDAT_WRITE_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "common/bytes.h"
#include "tracedat/tracedat-write.h"

/* ---- fixture text ---------------------------------------------------------------------------- */

extern const char HEADER_EVENT[];
extern const char *const FTRACE_FMT[2];
extern const char *const SCHED_FMT[2];
extern const char IRQ_FMT[];
extern const char KALLSYMS[];
extern const char PRINTK[];
extern const char CMDLINES[];
extern const char CLOCK_TEXT[];
extern const char UNAME[];

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

/* The test run's directory, made by setup() (test-tracedat-write.c). */
extern char tmpdir[];

/* Page @page as written: @len bytes of content (the given page). */
size_t page_len(const struct fixture *fx, const struct cpu_plan *c, unsigned int page);
/* The content of page @page of CPU @cpu of buffer @b, @len bytes of it, at @p. */
void fill_page(uint8_t *p, size_t len, size_t b, uint32_t cpu, unsigned int page);

/* The fixture of variant @v, written to tmpdir/@name.dat. */
void fixture_init(struct fixture *fx, const struct variant *v, const char *name);
/* The header_page text for the fixture's long size. */
const char *header_page(const struct fixture *fx);

/* @st must be TK_OK; else the chain of causes is printed and the test fails. */
void check_ok(enum tk_status st);
/* The whole file at @path, in memory (one byte more than *@size, to spare). */
uint8_t *slurp(const char *path, size_t *size);

/* ---- the oracles ----------------------------------------------------------------------------- */

/*
 * The file written from @fx, checked against the project's reader (every metadata part,
 * option, buffer, CPU list and page) and then byte by byte against the reference layout of
 * its version (sections 2 to 4).
 */
void check_written(const struct fixture *fx);

#endif /* TK_TESTS_UNIT_TRACEDAT_WRITE_ORACLE_H */
