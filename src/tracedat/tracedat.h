/* SPDX-License-Identifier: MIT */
/*
 * The trace.dat container written by trace-cmd, versions 6 and 7: the file header, the
 * metadata parts (header_page, header_event, event formats, kallsyms, printk formats, saved
 * command lines), the options, v7 sections and their string table, and the per-CPU ring-buffer
 * data of each buffer (the top one and instances), compressed (zstd, zlib) or not.
 * Reference: ../shared/reference/tracedat.md sections 2 to 4.
 *
 * The file is mapped, not read: metadata and uncompressed pages are pointers into the mapping.
 * Compressed per-CPU data is inflated one chunk at a time into a buffer of the page reader, so
 * memory stays bounded whatever the file size.
 *
 *	struct tracedat *td;
 *	st = tracedat_open(&td, "trace.dat");
 *	... td->info: header fields, metadata texts, parsed options, buffers
 *	struct tracedat_pages *pr;
 *	st = tracedat_pages_open(td, 0, cpu_index, &pr);
 *	while ((st = tracedat_pages_next(pr, &page, &size)) == TK_OK)
 *		... one sub-buffer of td->info.buffers[0].page_size bytes
 *	tracedat_pages_close(pr);
 *	tracedat_close(td);
 */
#ifndef TK_TRACEDAT_TRACEDAT_H
#define TK_TRACEDAT_TRACEDAT_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/bytes.h"

/* A piece of the file: text or binary, borrowed from the mapping or from inflated metadata. */
struct tracedat_blob {
	const uint8_t *data;
	size_t len;
};

struct tracedat_system {
	const char *name;
	struct tracedat_blob *formats; /* one `format` file each */
	size_t n_formats;
};

struct tracedat_cpu_data {
	uint32_t cpu;	 /* CPU number */
	uint64_t offset; /* file offset of the data (v7 compressed: of its chunk count) */
	uint64_t size;	 /* bytes in the file (as written: trace-cmd <= 3.1 wrote 4 too few
			    for compressed data, which the page reader tolerates) */
};

/* One host-guest clock sample of a TIME_SHIFT option (trace-cmd's timesync). */
struct tracedat_tsync_sample {
	int64_t time;	   /* guest time when the offset was measured */
	int64_t offset;	   /* host minus guest */
	int64_t scaling;   /* multiplier of guest time */
	uint32_t fraction; /* right shift after the multiplication (0 when absent) */
};

/* A TIME_SHIFT option: per-CPU samples sorted by time, one per time. */
struct tracedat_tsync {
	uint64_t peer_trace_id;
	uint32_t flags; /* TRACEDAT_TSYNC_INTERPOLATE */
	uint32_t n_cpus;
	struct tracedat_tsync_cpu {
		struct tracedat_tsync_sample *s;
		uint32_t n;
	} * cpus;
};

#define TRACEDAT_TSYNC_INTERPOLATE 1u

struct tracedat_buffer {
	const char *name;		/* "" for the top buffer */
	const char *clock;		/* "local", "global", "x86-tsc", ... or NULL when unknown
					   (v6: from the clock blob, v7: from the BUFFER option) */
	uint32_t page_size;		/* sub-buffer size of this buffer */
	uint8_t latency;		/* latency (text) buffer instead of flyrecord pages */
	uint8_t compressed;		/* v7 data section with the compression flag */
	struct tracedat_cpu_data *cpus; /* CPUs with data, in file order (v6 table entries
					   of size 0 are left out, as v7 leaves them out) */
	size_t n_cpus;
	struct tracedat_blob latency_text; /* latency buffers, uncompressed ones only (else
					      tracedat_latency_text()) */
};

struct tracedat_option {
	uint16_t id;
	const uint8_t *data;
	uint32_t size;
};

/* Option ids (and v7 section ids, which reuse them); reference section 3. */
enum tracedat_option_id {
	TRACEDAT_OPTION_DONE = 0,
	TRACEDAT_OPTION_DATE = 1,
	TRACEDAT_OPTION_CPUSTAT = 2,
	TRACEDAT_OPTION_BUFFER = 3,
	TRACEDAT_OPTION_TRACECLOCK = 4,
	TRACEDAT_OPTION_UNAME = 5,
	TRACEDAT_OPTION_HOOK = 6,
	TRACEDAT_OPTION_OFFSET = 7,
	TRACEDAT_OPTION_CPUCOUNT = 8,
	TRACEDAT_OPTION_VERSION = 9,
	TRACEDAT_OPTION_PROCMAPS = 10,
	TRACEDAT_OPTION_TRACEID = 11,
	TRACEDAT_OPTION_TIME_SHIFT = 12,
	TRACEDAT_OPTION_GUEST = 13,
	TRACEDAT_OPTION_TSC2NSEC = 14,
	TRACEDAT_OPTION_STRINGS = 15,
	TRACEDAT_OPTION_HEADER_INFO = 16,
	TRACEDAT_OPTION_FTRACE_EVENTS = 17,
	TRACEDAT_OPTION_EVENT_FORMATS = 18,
	TRACEDAT_OPTION_KALLSYMS = 19,
	TRACEDAT_OPTION_PRINTK = 20,
	TRACEDAT_OPTION_CMDLINES = 21,
	TRACEDAT_OPTION_BUFFER_TEXT = 22,
	TRACEDAT_OPTION_BTF_FILE = 23,
	TRACEDAT_OPTION_LAST_BOOT_INFO = 24,
	TRACEDAT_OPTION_MODULES_FILE = 25,
};

/* A v7 section, as found by the linear scan that collects the string table. */
struct tracedat_section {
	uint16_t id;		 /* enum tracedat_option_id; 0 = options */
	uint16_t flags;		 /* bit 0: compressed */
	uint32_t description_id; /* offset in the string table, 0xffffffff for none */
	const char *description; /* "options", "buffer flyrecord ", ... or NULL */
	uint64_t offset;	 /* file offset of the 16-byte section header */
	uint64_t size;		 /* bytes after the header */
};

struct tracedat_info {
	int version; /* 6 or 7 */
	enum tk_byte_order bo;
	uint8_t header_long_size; /* as written by the writer: trust header_page instead */
	uint32_t page_size;	  /* from the file header */
	/* v7: "none", "zstd", "zlib", or another name (which fails on first use); v6: "none" */
	const char *compression;
	const char *compression_version; /* v6: "" */
	uint32_t cpus; /* v6 field, or a CPUCOUNT option (v6: one not right after a BUFFER
			  option); v7 without CPUCOUNT: highest CPU of the top buffer + 1 */
	struct tracedat_blob header_page;
	struct tracedat_blob header_event;
	struct tracedat_blob *ftrace_formats; /* system "ftrace" */
	size_t n_ftrace_formats;
	struct tracedat_system *systems;
	size_t n_systems;
	struct tracedat_blob kallsyms;
	/*
	 * v7: why the kallsyms section could not be read (its causes, joined by ": "), or NULL.
	 * kallsyms only names function addresses, so the file is read without it (empty).
	 */
	const char *kallsyms_problem;
	struct tracedat_blob printk;
	struct tracedat_blob cmdlines;
	struct tracedat_option *options; /* every option but DONE, in file order (v7: along
					    the options chain), data borrowed */
	size_t n_options;
	/* parsed options; absent ones are zero / NULL */
	uint8_t has_date;
	int64_t date_offset_ns; /* DATE: µs from the file, times 1000 (several add up) */
	uint8_t has_offset;
	int64_t offset_ns; /* OFFSET (several add up) */
	uint8_t has_tsc2nsec;
	uint32_t tsc2nsec_mult, tsc2nsec_shift;
	uint64_t tsc2nsec_offset;
	const struct tracedat_tsync *tsync; /* the last TIME_SHIFT option, or NULL */
	const char *trace_clock; /* TRACECLOCK text (or the v6 clock blob), trailing newline
				    dropped; NULL if none */
	const char *uname;
	const char *tc_version;		/* VERSION option */
	struct tracedat_blob *cpustats; /* CPUSTAT texts, in file order, without their NUL */
	size_t n_cpustats;
	struct tracedat_buffer *buffers; /* [0] is the top buffer */
	size_t n_buffers;
	/* v7 only (empty for v6): every section in file order, and the string table */
	struct tracedat_section *sections;
	size_t n_sections;
	struct tracedat_blob strings; /* all STRINGS sections, concatenated */
};

struct tracedat {
	struct tracedat_info info;
	void *priv; /* the container's own state */
};

/*
 * "buffer=NAME, " in a cause, from TRACEDAT_BUF_ARGS(buffer) for TRACEDAT_BUF_FMT: instance
 * buffers are named, the top one (whose name is empty) is not, as trace-cmd report shows it.
 *
 *	TK_FAIL(st, "Cannot read page: " TRACEDAT_BUF_FMT "cpu=%u", TRACEDAT_BUF_ARGS(b), cpu);
 */
#define TRACEDAT_BUF_FMT     "%s%s%s"
#define TRACEDAT_BUF_ARGS(b) (b)->name[0] ? "buffer=" : "", (b)->name, (b)->name[0] ? ", " : ""

/* Open @path (or @size bytes at @data, kept by the caller); a cause names what is wrong. */
enum tk_status tracedat_open(struct tracedat **out, const char *path);
enum tk_status tracedat_open_mem(struct tracedat **out, const uint8_t *data, size_t size);

/*
 * perf.data's tracing data (its HEADER_TRACING_DATA: the magic, "tracing", perf's version
 * "0.5" or "0.6", then the metadata parts of a v6 file and no CPU data), @size bytes at @data
 * kept by the caller: info holds the header_page, formats, kallsyms, printk formats and
 * command lines; there are no buffers to read.
 */
enum tk_status tracedat_open_tracing_data(struct tracedat **out, const uint8_t *data, size_t size);
void tracedat_close(struct tracedat *td); /* NULL is fine */

/* Reader of the pages of one CPU (index in buffers[buffer].cpus) of one buffer. */
struct tracedat_pages;

enum tk_status tracedat_pages_open(struct tracedat *td, size_t buffer, size_t cpu,
				   struct tracedat_pages **out);

/*
 * The next sub-buffer: @page points at page_size bytes (or fewer for a short last page),
 * valid until the next call. TK_END after the last one; an error (bad chunk, failed
 * decompression) comes with a cause naming the CPU and the file offset.
 */
enum tk_status tracedat_pages_next(struct tracedat_pages *pr, const uint8_t **page, size_t *size);

/*
 * Before the first tracedat_pages_next(): skip the pages that cannot hold what the caller
 * looks for. @before(@arg, page, size) says whether a page (as tracedat_pages_next() gives
 * it) begins before the place sought, and must say so of no page after one it said 0 of:
 * a binary search finds the last page it says 1 of, and reading starts at the page before
 * that one (a page's records may end later than the next page begins). Compressed data is
 * searched by chunk: the chunk headers are walked once, a few chunks inflated. Anything
 * unexpected (a chunk that cannot be read or inflated) leaves the reader at its start, where
 * reading reports it. Sets *@skipped to the pages passed over. Fails only for lack of memory.
 */
enum tk_status tracedat_pages_seek(struct tracedat_pages *pr,
				   int (*before)(void *arg, const uint8_t *page, size_t size),
				   void *arg, uint64_t *skipped);

/*
 * File offset of the page returned last (for messages); for compressed data, the offset of
 * the chunk it was inflated from.
 */
uint64_t tracedat_pages_offset(const struct tracedat_pages *pr);

void tracedat_pages_close(struct tracedat_pages *pr); /* NULL is fine */

/*
 * The text of latency buffer @buffer (buffers[buffer].latency set): the mapped bytes when they
 * are stored plainly (then the same as latency_text), else the chunks inflated on the first
 * call. @out is borrowed from @td until tracedat_close().
 */
enum tk_status tracedat_latency_text(struct tracedat *td, size_t buffer, struct tracedat_blob *out);

/* "DATE", "BUFFER", ..., or "UNKNOWN" for ids this reader does not know. */
const char *tracedat_option_name(uint16_t id);

#endif /* TK_TRACEDAT_TRACEDAT_H */
