/* SPDX-License-Identifier: MIT */
/*
 * Crash recovery of application traces (libtracekit-ust, <tracekit/ust.h>): a traced program
 * whose session has a shm_dir (TRACEKIT_UST_SHM_DIR) keeps each thread's ring in a file of
 * that directory. When the program is killed before its session ends, the files stay, with
 * the packets its consumer had not written yet; tk_ust_recover() appends the complete ones to
 * the trace, as `tracekit ust-recover` does:
 *
 *	struct tk_ust_recover_opts o = TK_UST_RECOVER_OPTS_INIT;
 *
 *	if (tk_ust_recover("/dev/shm/myapp", &o) < 0)
 *		report the error chain;
 *
 * doc/ust.md ("Crash recovery") tells what a crash leaves and what is recovered.
 */
#ifndef TRACEKIT_UST_RECOVER_H
#define TRACEKIT_UST_RECOVER_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/export.h>
#include <tracekit/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct tk_ust_recover_ring - What tk_ust_recover() did with one ring file.
 * @path:      The ring file.
 * @trace_dir: The trace its packets belong to (or, with an output directory, the copy).
 * @stream:    The stream file's name in it.
 * @pid:       The process that wrote the ring.
 * @tid:       Its thread.
 * @alive:     Nonzero: the process still runs, the ring was left alone (see @force).
 * @packets:   Complete packets appended to the stream file.
 * @present:   Complete packets of the ring the stream file held already (not appended).
 * @cut:       Bytes of a partial packet cut from the end of the stream file (its consumer
 *             was killed while writing it).
 */
struct tk_ust_recover_ring {
	const char *path;
	const char *trace_dir;
	const char *stream;
	int32_t pid;
	int32_t tid;
	int alive;
	uint64_t packets;
	uint64_t present;
	uint64_t cut;
};

/**
 * typedef tk_ust_recover_cb - Told about each ring file, once the recovery is done.
 * @r:       The ring and what was done; borrowed for the call.
 * @payload: The options' payload.
 */
typedef void (*tk_ust_recover_cb)(const struct tk_ust_recover_ring *r, void *payload);

/**
 * struct tk_ust_recover_opts - Options of tk_ust_recover().
 * @size:    sizeof(struct tk_ust_recover_opts), set by TK_UST_RECOVER_OPTS_INIT.
 * @force:   Nonzero to recover the rings of processes that still run too (their packets may
 *           be still changing; for a process stopped in a debugger, or a PID taken again).
 * @keep:    Nonzero to leave the ring files; else they are removed once recovered.
 * @out_dir: NULL to append to the traces in place; else each trace is copied (metadata, its
 *           stream files, the recovered packets) to @out_dir/NAME, NAME its directory's base
 *           name, leaving the original and the ring files as they are.
 * @report:  Called for each ring file, or NULL.
 * @payload: Given to @report.
 */
struct tk_ust_recover_opts {
	size_t size;
	int force;
	int keep;
	const char *out_dir;
	tk_ust_recover_cb report;
	void *payload;
};

#define TK_UST_RECOVER_OPTS_INIT                                                                   \
	{                                                                                          \
		sizeof(struct tk_ust_recover_opts), 0, 0, NULL, NULL, NULL,                        \
	}

/**
 * tk_ust_recover() - Append the complete packets left in ring files to their traces.
 * @shm_dir: The directory of the ring files (a traced program's TRACEKIT_UST_SHM_DIR).
 * @opts:    Options, or NULL for the defaults.
 *
 * Reads every ring file (*.ring) of @shm_dir whose process is gone (its PID free, or taken by
 * another process since, or another boot) and checks all of them before writing anything: a
 * damaged ring (header, sizes, a packet not whole), a trace directory without its metadata or
 * of another UUID, or a stream file holding packets of another stream fails the whole call.
 * Then, for each ring, its complete packets whose packet_seq_num is above the last complete
 * packet of the stream file are appended to it in order; a stream file that ends in a partial
 * packet is cut back to its whole packets first. Each stream file is written as a new file
 * renamed over the old one, so that it is never seen half-written. Open packets (those the
 * process was filling) are not recovered. Ring files are then removed unless @opts asks to
 * keep them (or gives an output directory).
 * Return: TK_OK (also when @shm_dir has no ring file); TK_ERR_FORMAT (damage);
 * TK_ERR_IO; TK_ERR_NOMEM; TK_ERR_INVAL (an output directory that is not empty); with causes.
 * Ownership: @shm_dir and @opts are borrowed for the call.
 */
TK_EXPORT enum tk_status tk_ust_recover(const char *shm_dir,
					const struct tk_ust_recover_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_UST_RECOVER_H */
