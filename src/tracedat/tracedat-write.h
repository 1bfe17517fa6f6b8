/* SPDX-License-Identifier: MIT */
/*
 * The trace.dat writer: files that trace-cmd 3.1.6 (`trace-cmd report`), KernelShark and
 * tracekit's own reader accept, in version 6 or version 7 (uncompressed, zstd or zlib), for
 * the byte order and long size of the kernel that recorded the pages. Used by the recorder
 * (pages spliced from tracefs into per-CPU temporary files) and by `tracekit convert` (pages
 * of another trace.dat file). Reference: ../shared/reference/tracedat.md sections 2 to 4.
 *
 * The caller hands over the metadata as the texts tracefs gives (header_page, header_event,
 * `format` files, kallsyms, printk_formats, saved_cmdlines, trace_clock) and raw options, then
 * the ring-buffer pages of each CPU, one CPU after the other; the writer lays out the file.
 * Memory stays bounded: pages are streamed to the file (compressed data one chunk of ten
 * pages at a time), never held for a whole CPU.
 *
 *	struct tracedat_write_opts o = TRACEDAT_WRITE_OPTS_INIT;
 *	o.version = 7; o.comp = TRACEDAT_COMP_ZSTD; o.page_size = 4096;
 *	st = tracedat_writer_open(&w, "trace.dat", &o);
 *	tracedat_writer_set_header_page(w, hp, hp_len);       ... every metadata part
 *	tracedat_writer_add_event_format(w, "sched", fmt, fmt_len);
 *	tracedat_writer_set_trace_clock(w, "[local] global counter ...\n", len);
 *	tracedat_writer_add_option(w, TRACEDAT_OPTION_UNAME, uname, strlen(uname) + 1);
 *	tracedat_writer_set_cpus(w, 4);
 *	for each CPU with data:
 *		tracedat_writer_cpu_begin(w, cpu);
 *		tracedat_writer_cpu_fd(w, fd);            (or tracedat_writer_cpu_page() per page)
 *		tracedat_writer_cpu_end(w);
 *	st = tracedat_writer_close(w);     (always frees; st says if the file is good)
 *
 * Instances: after the top buffer's CPUs, tracedat_writer_buffer_begin(w, "name", clock)
 * starts another buffer whose CPUs follow the same way (BUFFER options, reference section 3).
 * Version 6 lists instances in the options before the top buffer's CPU table, so its head is
 * written at close into room kept before the first page: 16 KiB for the BUFFER options of
 * instances (some 450 names of 20 characters); past that, buffer_begin fails with
 * TK_ERR_UNSUPPORTED.
 *
 * Errors: each call returns a status with a cause ("Cannot write trace.dat: path=...,
 * errno=No space left on device"); calls out of sequence (metadata after the data began,
 * CPUs out of order or not below set_cpus, a page outside cpu_begin/cpu_end) return
 * TK_ERR_INVAL with a cause. After any failure every later call fails too ("reason=an
 * earlier call failed") and close removes nothing (the caller decides whether to unlink the
 * partial file, which no reader takes for a finished one).
 */
#ifndef TK_TRACEDAT_TRACEDAT_WRITE_H
#define TK_TRACEDAT_TRACEDAT_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/bytes.h"

enum tracedat_compression {
	TRACEDAT_COMP_NONE,
	TRACEDAT_COMP_ZSTD,
	TRACEDAT_COMP_ZLIB,
};

struct tracedat_write_opts {
	unsigned int version;		/* 6 or 7 */
	enum tracedat_compression comp; /* version 7 only; NONE for version 6 */
	enum tk_byte_order bo;		/* byte order of the recording kernel (and its pages) */
	unsigned int long_size;		/* 4 or 8: the recording kernel's long (header byte) */
	uint32_t page_size;		/* ring-buffer sub-buffer size, a power of two >= 4096 */
	int compression_level;		/* 0: trace-cmd's (zstd default, zlib 9) */
};

#define TRACEDAT_WRITE_OPTS_INIT                                                                   \
	{                                                                                          \
		.version = 7, .comp = TRACEDAT_COMP_ZSTD, .bo = TK_BYTE_ORDER_HOST,                \
		.long_size = 8, .page_size = 4096, .compression_level = 0                          \
	}

/*
 * Set @wo's version and compression from what the user asked (@version 6 or 7, or 0 for not
 * said; @comp "none", "zstd", "zlib", or NULL for not said) and the defaults (those of the
 * input file being rewritten, or 7 and "zstd" as trace-cmd records): the default compression
 * applies only to the default version (else "none"); asking for compression gives version 7,
 * and asking for both version 6 and compression is TK_ERR_INVAL, as is an unknown name.
 */
enum tk_status tracedat_write_opts_choose(struct tracedat_write_opts *wo, unsigned int version,
					  const char *comp, unsigned int def_version,
					  const char *def_comp);

struct tracedat_writer;

/*
 * Create (or truncate) @path and start a file with @opts (NULL: TRACEDAT_WRITE_OPTS_INIT).
 * Nothing is written that a reader could take for a finished file until
 * tracedat_writer_close() succeeds. Bad options are TK_ERR_INVAL, and then no file is created.
 */
enum tk_status tracedat_writer_open(struct tracedat_writer **out, const char *path,
				    const struct tracedat_write_opts *opts);

/*
 * Metadata, any order, each at most once unless said otherwise, all before the first
 * tracedat_writer_cpu_begin(). The data is copied. A part never set is written empty (as
 * trace-cmd writes a missing kallsyms or printk_formats: size 0).
 */
enum tk_status tracedat_writer_set_header_page(struct tracedat_writer *w, const void *data,
					       size_t size);
enum tk_status tracedat_writer_set_header_event(struct tracedat_writer *w, const void *data,
						size_t size);
/* events/ftrace/NAME/format files; repeatable, kept in call order */
enum tk_status tracedat_writer_add_ftrace_format(struct tracedat_writer *w, const void *data,
						 size_t size);
/* events/SYSTEM/NAME/format files; repeatable, grouped by system in order of first appearance */
enum tk_status tracedat_writer_add_event_format(struct tracedat_writer *w, const char *system,
						const void *data, size_t size);
enum tk_status tracedat_writer_set_kallsyms(struct tracedat_writer *w, const void *data,
					    size_t size);
enum tk_status tracedat_writer_set_printk(struct tracedat_writer *w, const void *data, size_t size);
enum tk_status tracedat_writer_set_cmdlines(struct tracedat_writer *w, const void *data,
					    size_t size);

struct tracedat_info;

/*
 * A reader's ftrace metadata as it is (tracedat.h): header_page, header_event, the ftrace
 * and event formats, kallsyms and printk formats; parts it lacks are left unset (written
 * empty, as trace-cmd writes them). Not the saved command lines.
 */
enum tk_status tracedat_writer_put_metadata(struct tracedat_writer *w,
					    const struct tracedat_info *in);

/*
 * The trace_clock file of the recorded buffer ("[local] global counter ...", the one in use
 * in brackets). Written as a TRACECLOCK option, as v6's clock text after the CPU table and as
 * the clock name of v7 BUFFER options, as trace-cmd does.
 */
enum tk_status tracedat_writer_set_trace_clock(struct tracedat_writer *w, const void *data,
					       size_t size);

/*
 * A raw option (reference section 3): DATE, CPUSTAT, UNAME, VERSION, OFFSET, TSC2NSEC,
 * TRACEID, ... in the file's byte order where binary. Repeatable, kept in call order, after
 * TRACECLOCK. The writer's own options (DONE, BUFFER, BUFFER_TEXT, TRACECLOCK, CPUCOUNT and
 * the v7 section ids 15 to 21, 23 and 25) are refused with TK_ERR_INVAL.
 */
enum tk_status tracedat_writer_add_option(struct tracedat_writer *w, uint16_t id, const void *data,
					  size_t size);

/*
 * Whether option @id is one the writer makes itself or a v7 section offset that would point
 * nowhere (tracedat_writer_add_option() refuses those): DONE, BUFFER, TRACECLOCK, CPUCOUNT,
 * BUFFER_TEXT, BTF_FILE, MODULES_FILE and 15 to 21.
 */
int tracedat_writer_option_reserved(uint16_t id);

/*
 * Number of CPUs of the recording machine (the "cpus=N" of trace-cmd report; v6 cpus field,
 * v7 CPUCOUNT), at most 65536, once, before the data. Never set: 0, and no CPU can begin.
 */
enum tk_status tracedat_writer_set_cpus(struct tracedat_writer *w, uint32_t cpus);

/*
 * Start the data of CPU @cpu (below set_cpus) of the current buffer. CPUs of a buffer come in
 * increasing order, each once; CPUs without data are simply not begun (v6 writes offset and
 * size 0 for them, v7 leaves them out of the BUFFER option, as trace-cmd does). A CPU begun
 * and ended without any page counts as one without data. The first cpu_begin (or
 * buffer_begin, or close) ends the metadata.
 */
enum tk_status tracedat_writer_cpu_begin(struct tracedat_writer *w, uint32_t cpu);

/* One ring-buffer page of @size <= page_size bytes; a shorter one is padded with zeros. */
enum tk_status tracedat_writer_cpu_page(struct tracedat_writer *w, const void *page, size_t size);

/*
 * Every page in @fd from its current position to its end (a file of whole pages, as the
 * recorder's temporary files are; a last partial page is padded). Uncompressed output copies
 * in the kernel (copy_file_range) where it can.
 */
enum tk_status tracedat_writer_cpu_fd(struct tracedat_writer *w, int fd);

enum tk_status tracedat_writer_cpu_end(struct tracedat_writer *w);

/*
 * Start an instance buffer named @name (not empty, not used before) whose trace_clock text is
 * @clock ("[local] global ...", or a bare clock name; NULL: the top buffer's). Its CPUs follow
 * with cpu_begin/cpu_end, in increasing order again.
 */
enum tk_status tracedat_writer_buffer_begin(struct tracedat_writer *w, const char *name,
					    const char *clock);

/*
 * Finish the file (v6: the head with its options and CPU table; v7: the last BUFFER option,
 * string table and first-options offset) and free @w, even on failure. A CPU still begun is
 * TK_ERR_INVAL. NULL returns TK_OK.
 */
enum tk_status tracedat_writer_close(struct tracedat_writer *w);

/* Free @w without finishing the file (after an error, or to give up). NULL is fine. */
void tracedat_writer_destroy(struct tracedat_writer *w);

#endif /* TK_TRACEDAT_TRACEDAT_WRITE_H */
