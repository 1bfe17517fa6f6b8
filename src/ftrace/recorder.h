/* SPDX-License-Identifier: MIT */
/*
 * The per-CPU recorder: one thread per CPU moves the ring-buffer pages of a tracefs buffer
 * (per_cpu/cpuN/trace_pipe_raw) into a temporary file, with splice(2) through a pipe so the
 * pages never pass through user memory, and read(2) where splice is refused. It knows
 * nothing of trace.dat: the files it leaves are whole pages, ready for the trace.dat writer.
 *
 *	st = ftrace_recorder_start(&r, "/sys/kernel/tracing/instances/x", cpus, n, 4096, ".");
 *	... tracing_on = 1, workload, tracing_on = 0 ...
 *	st = ftrace_recorder_stop(r);          (drains what is left, partial pages too; joins)
 *	for (i = 0; i < n; i++)
 *		fd = ftrace_recorder_fd(r, i);     (rewound; ftrace_recorder_bytes(r, i) bytes)
 *	ftrace_recorder_destroy(r);             (closes, so frees, the temporary files)
 *
 * Reader threads wake at least every 100 ms (poll with a timeout), so stopping takes at most
 * that long; while the buffer fills they splice as fast as the kernel gives full pages.
 */
#ifndef TK_FTRACE_RECORDER_H
#define TK_FTRACE_RECORDER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <tracekit/status.h>

struct ftrace_recorder;

/*
 * Start one reader thread per CPU in @cpus (@n of them) of the buffer in @dir (a tracefs
 * instance or top-level directory), each writing to a temporary file with no name in
 * @tmp_dir (outfile_scratch(): nothing is left behind, whatever ends the process). Returns
 * once every thread runs, so ftrace_recorder_tid() can name them. @page_size is the ring
 * buffer's sub-buffer size.
 */
enum tk_status ftrace_recorder_start(struct ftrace_recorder **out, const char *dir,
				     const uint32_t *cpus, size_t n, uint32_t page_size,
				     const char *tmp_dir);

/*
 * Stop the threads, then read every page left in the ring buffers (the partial ones too) and
 * join. Call it after tracing_on was set to 0, so that the buffers stop filling. The first
 * failure of any thread (disk full, ...) is returned with its causes.
 */
enum tk_status ftrace_recorder_stop(struct ftrace_recorder *r);

/* Number of CPUs (as given to start), and for the @i-th: its CPU number, its file (rewound
 * to the start by stop) and its size in bytes (a multiple of the page size). */
size_t ftrace_recorder_count(const struct ftrace_recorder *r);
uint32_t ftrace_recorder_cpu(const struct ftrace_recorder *r, size_t i);
int ftrace_recorder_fd(const struct ftrace_recorder *r, size_t i);
uint64_t ftrace_recorder_bytes(const struct ftrace_recorder *r, size_t i);

/* The thread ID of the @i-th reader (for the kernel's pid filters: tracekit keeps its own
 * threads out of what it records). */
pid_t ftrace_recorder_tid(const struct ftrace_recorder *r, size_t i);

/* Stop if still running (without draining), close and unlink the files, free. NULL is fine. */
void ftrace_recorder_destroy(struct ftrace_recorder *r);

#endif /* TK_FTRACE_RECORDER_H */
