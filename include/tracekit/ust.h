/* SPDX-License-Identifier: MIT */
/*
 * The application tracer's runtime, libtracekit-ust (pkg-config `tracekit-ust`): sessions
 * that write the events of <tracekit/tracepoint.h> into a CTF 1.8 trace directory, one
 * stream file per thread, in LTTng-UST's layout, without a daemon.
 *
 * A session starts at load when the environment has TRACEKIT_UST_DIR=DIR (the trace is then
 * DIR/PROCNAME-PID-YYYYMMDD-HHMMSS, one per process, as LTTng lays out per-process buffers;
 * readers given DIR merge them), or by tk_ust_session_start(DIR2) (the trace is DIR2); it
 * ends at exit, or by tk_ust_session_stop(). Each thread writes
 * into its own ring of sub-buffers (CTF packets) with plain stores. In discard mode (the
 * default) a consumer thread writes the full packets to the thread's file; when the ring is
 * full, events are dropped and counted exactly in the events_discarded field of the stream's
 * next packet. In overwrite (flight-recorder) mode nothing is written as events come: each
 * ring keeps its newest packets, overwriting the oldest, and a snapshot (tk_ust_snapshot(),
 * a signal, the session's end) writes them as a complete trace DIR/snapshot-N-YYYYMMDD-HHMMSS;
 * the packets overwritten before the oldest one kept are reported as lost packets.
 * doc/ust.md describes the buffers and their guarantees.
 *
 * Environment read at load (TRACEKIT_UST_DIR set) or by tk_ust_opts_from_env():
 *   TRACEKIT_UST_SUBBUF_SIZE   bytes per sub-buffer (packet), default 65536
 *   TRACEKIT_UST_SUBBUF_COUNT  sub-buffers per thread, default 4
 *   TRACEKIT_UST_CLOCK         "monotonic" (default) or "tsc"
 *   TRACEKIT_UST_CLOCK_OFFSET  CLOCK_REALTIME less CLOCK_MONOTONIC in nanoseconds, the clock's
 *                              wall-clock offset instead of one measured at the start
 *                              (`tracekit record --ust` gives the recording's); with
 *                              TRACEKIT_UST_TSC_MULT, CLOCK_REALTIME less the converted TSC
 *   TRACEKIT_UST_TSC_MULT      with "tsc": how the TSC converts to nanoseconds,
 *   TRACEKIT_UST_TSC_SHIFT     ns = (tsc * MULT) >> SHIFT (a trace.dat's TSC2NSEC option),
 *                              instead of a frequency measured at the start; both or neither
 *   TRACEKIT_UST_MODE          "discard" (default) or "overwrite" (flight recorder)
 *   TRACEKIT_UST_SNAPSHOT_SIGNAL  overwrite mode: a signal that takes a snapshot, by name
 *                              ("USR1", "SIGUSR2", ...) or number; unset: none
 *   TRACEKIT_UST_SHM_DIR       a directory for the rings' files (tk_ust_opts.shm_dir), so that
 *                              `tracekit ust-recover` finds a killed process's last packets
 *
 * EventHeader output (doc/ust.md), read at load whatever the session:
 *   TRACEKIT_UST_INTERCEPTOR   PATH: every event is also written, as EventHeader, to the
 *                              interceptor file PATH (tk_ust_interceptor_start())
 *   TRACEKIT_UST_EVENTHEADER   "1": say on stderr, once, why EventHeader output cannot be
 *                              had (no user_events, an event EventHeader cannot describe);
 *                              "0": never register events with user_events. Unset: register
 *                              them when the kernel allows it, and say nothing.
 */
#ifndef TRACEKIT_UST_H
#define TRACEKIT_UST_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/export.h>
#include <tracekit/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum tk_ust_clock - What event times count.
 * @TK_UST_CLOCK_MONOTONIC: CLOCK_MONOTONIC through clock_gettime(), in nanoseconds.
 * @TK_UST_CLOCK_TSC:       The x86 time-stamp counter (rdtsc), its frequency measured against
 *                          CLOCK_MONOTONIC when the session starts, or given (tsc_mult);
 *                          elsewhere the monotonic clock is used instead.
 */
enum tk_ust_clock {
	TK_UST_CLOCK_MONOTONIC = 0,
	TK_UST_CLOCK_TSC = 1,
};

/**
 * enum tk_ust_mode - What a thread's full ring does.
 * @TK_UST_MODE_DISCARD:   A consumer thread writes full packets as they come; when the ring
 *                         is full, new events are dropped and counted.
 * @TK_UST_MODE_OVERWRITE: Flight recorder: the newest packets are kept, the oldest
 *                         overwritten; only snapshots write the trace.
 */
enum tk_ust_mode {
	TK_UST_MODE_DISCARD = 0,
	TK_UST_MODE_OVERWRITE = 1,
};

/** Default sub-buffer (packet) size: 64 KiB. */
#define TK_UST_DEFAULT_SUBBUF_SIZE 65536
/** Default number of sub-buffers per thread. */
#define TK_UST_DEFAULT_SUBBUF_COUNT 4

/**
 * struct tk_ust_opts - Options of tk_ust_session_start().
 * @size:         sizeof(struct tk_ust_opts), set by TK_UST_OPTS_INIT.
 * @subbuf_size:  Bytes per sub-buffer, a CTF packet: 4096 to 64 MiB (0: the default).
 * @subbuf_count: Sub-buffers per thread: 2 to 1024 (0: the default).
 * @clock:        An enum tk_ust_clock.
 * @no_consumer:  Nonzero to start no consumer thread: full packets are written only by
 *                tk_ust_flush() and at the session's end (tests use it to fill rings).
 * @has_clock_offset: Nonzero to declare the clock with @clock_offset_ns.
 * @clock_offset_ns:  CLOCK_REALTIME less CLOCK_MONOTONIC, in nanoseconds (not negative):
 *                    the wall-clock offset readers add to event times, instead of one
 *                    measured when the session starts; another trace recorded on
 *                    CLOCK_MONOTONIC with the same offset then shows the same times.
 * @mode:         An enum tk_ust_mode.
 * @snapshot_signal: Overwrite mode: a signal number whose delivery takes a snapshot (a
 *                handler is installed while the session runs, the previous one put back at
 *                its end), or 0 for none.
 * @shm_dir:      A directory (tmpfs: /dev/shm/...) where each thread's ring is a file
 *                mapped shared, or NULL for anonymous memory. A process killed before its
 *                session ends leaves its rings there; `tracekit ust-recover` (or
 *                tk_ust_recover() of libtracekit) appends their complete packets to the
 *                trace. A session that ends removes its files.
 * @tsc_mult:     With TK_UST_CLOCK_TSC and nonzero: the TSC counts (tsc * @tsc_mult) >>
 *                @tsc_shift nanoseconds (the TSC2NSEC option of a trace.dat recorded on
 *                x86-tsc), and @clock_offset_ns, if given, is CLOCK_REALTIME less that time.
 *                The clock is declared at the integer frequency nearest 2^@tsc_shift * 1e9 /
 *                @tsc_mult, with the offset that makes both agree when the session starts
 *                (doc/ust.md says how far they drift apart). 0: the frequency is measured.
 * @tsc_shift:    See @tsc_mult; at most 63.
 */
struct tk_ust_opts {
	size_t size;
	size_t subbuf_size;
	unsigned int subbuf_count;
	unsigned int clock;
	int no_consumer;
	int has_clock_offset;
	int64_t clock_offset_ns;
	unsigned int mode;
	int snapshot_signal;
	const char *shm_dir;
	uint32_t tsc_mult;
	uint32_t tsc_shift;
};

#define TK_UST_OPTS_INIT                                                                           \
	{                                                                                          \
		sizeof(struct tk_ust_opts), 0, 0, TK_UST_CLOCK_MONOTONIC, 0, 0, 0,                 \
			TK_UST_MODE_DISCARD, 0, NULL, 0, 0,                                        \
	}

/**
 * tk_ust_opts_from_env() - Fill options from the TRACEKIT_UST_* environment variables.
 * @opts: Options to change (initialised with TK_UST_OPTS_INIT); unset variables leave
 *        their members as they are.
 *
 * Return: TK_OK, or TK_ERR_INVAL for a value that is not understood (with a cause).
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_ust_opts_from_env(struct tk_ust_opts *opts);

/**
 * tk_ust_session_start() - Start tracing every registered event into a CTF trace.
 * @dir:  The trace directory: made if missing, must be empty.
 * @opts: Options, or NULL for the defaults.
 *
 * Writes the metadata at once (again whenever providers come and at each flush), enables
 * every event, starts the consumer thread and makes the session end at exit().
 * Return: TK_OK; TK_ERR_INVAL (a session is running, bad options, a directory that is not
 * empty); TK_ERR_IO; TK_ERR_NOMEM; causes in the error chain of <tracekit/status.h>.
 * Ownership: @dir and @opts are borrowed for the call.
 */
TK_EXPORT enum tk_status tk_ust_session_start(const char *dir, const struct tk_ust_opts *opts);

/**
 * tk_ust_flush() - Write what the session holds so far.
 *
 * Closes the calling thread's open packet, writes every full packet of every thread and the
 * metadata. Other threads' open packets are written when they fill, when their thread ends
 * or when the session stops. In overwrite mode it does nothing: snapshots write.
 * Return: TK_OK (also without a session), or TK_ERR_IO.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_ust_flush(void);

/**
 * tk_ust_session_stop() - Disable every event, write everything and end the session.
 *
 * Open packets of every thread are written with the events committed so far; events
 * written by other threads while this runs may be lost (not counted). In overwrite mode this
 * is a last snapshot (tk_ust_snapshot()). The trace is complete when this returns. Nothing
 * happens without a session.
 * Return: TK_OK, or the first error met writing the trace.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_ust_session_stop(void);

/**
 * tk_ust_snapshot() - Write what an overwrite-mode session holds, as a trace of its own.
 *
 * Makes the directory snapshot-N-YYYYMMDD-HHMMSS (N counting from 1, the local time) in the
 * session's directory and writes there the metadata and, for each thread that has emitted
 * (threads that ended included), its packets still in the ring, in order, the open one as
 * far as its thread has committed events. Other threads keep writing meanwhile: a packet
 * overwritten while it is copied is left out. Each stream starts with a packet without
 * events (sequence number 0, at the thread's first event), so that readers report the
 * packets overwritten before the oldest one kept as lost packets. Also taken when the
 * session's snapshot signal comes (by the consumer thread) and when the session stops.
 * Not async-signal-safe (it takes the session's lock): a signal handler asks for a snapshot
 * through the snapshot signal instead.
 * Return: TK_OK; TK_ERR_INVAL (no session, or one in discard mode, which writes its packets
 * as they come and keeps nothing to snapshot); TK_ERR_IO; TK_ERR_NOMEM; with causes.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_ust_snapshot(void);

/**
 * tk_ust_interceptor_start() - Write every event, as EventHeader, into an interceptor file.
 * @path: The file: created, or emptied.
 *
 * Each event (of providers registered now or later) is then written, besides the CTF
 * session if one runs, as one record of @path (u32 size, tracepoint name, the bytes
 * user_events would get), which `tracekit print --style perf-decode` reads. The file stands
 * in for the kernel: events are unregistered from user_events until
 * tk_ust_interceptor_stop(). Also started at load by TRACEKIT_UST_INTERCEPTOR=PATH; stopped
 * at exit. A forked child does not write its parent's file.
 * Return: TK_OK; TK_ERR_INVAL (one is open); TK_ERR_IO; TK_ERR_NOMEM; with causes.
 * Ownership: @path is borrowed for the call.
 */
TK_EXPORT enum tk_status tk_ust_interceptor_start(const char *path);

/**
 * tk_ust_interceptor_stop() - Close the interceptor file; events go to user_events again.
 *
 * Return: TK_OK (also when none is open), or TK_ERR_IO when closing failed.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_ust_interceptor_stop(void);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_UST_H */
