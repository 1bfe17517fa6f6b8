/* SPDX-License-Identifier: MIT */
/*
 * tracefs control: the kernel interface the recorder drives (Documentation/trace/ftrace.rst
 * and events.rst in the kernel tree; ../shared/seeds). It finds the mount, makes or opens an
 * instance, enables events by system, event or glob, sets filters, buffer size, clock, pid
 * filters and tracing_on, and writes markers -- and it remembers the old value of every file
 * it changes, so that tracefs_instance_close() puts the kernel back as it was, in reverse
 * order, and removes an instance it created. Nothing here ever writes ftrace_enabled, the
 * current_tracer or the function-filter files.
 *
 *	struct tracefs_instance *ti;
 *	st = tracefs_instance_open(&ti, NULL, "tracekit-1234", TRACEFS_CREATE);
 *	st = tracefs_enable_events(ti, "sched", &n);             (n: events it matched)
 *	st = tracefs_set_filter(ti, "sched", "sched_switch", "prev_pid > 0");
 *	st = tracefs_set_buffer_kib(ti, 8192);
 *	st = tracefs_set_tracing_on(ti, 1);
 *	... record from tracefs_instance_path(ti, "per_cpu/cpu0/trace_pipe_raw", ...)
 *	st = tracefs_instance_close(ti);       (restores, removes the instance, frees; always frees)
 *
 * Errors carry the file and errno ("Cannot write tracefs file: path=/sys/kernel/tracing/
 * instances/x/events/sched/sched_switch/filter, errno=Invalid argument"), and for filters the
 * kernel's error_log text ("error: Field not found ... prev_pidd > 0 ... ^") as a further
 * cause, so users see what the kernel said.
 *
 * Not thread-safe: one thread drives an instance (the recorder's reader threads only read
 * per-CPU files through paths taken from here).
 */
#ifndef TK_FTRACE_TRACEFS_H
#define TK_FTRACE_TRACEFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <tracekit/status.h>

/*
 * The tracefs mount point: /sys/kernel/tracing when tracefs is mounted there, else the first
 * tracefs in /proc/mounts, else /sys/kernel/debug/tracing when it holds tracefs files. When
 * none is mounted, it mounts tracefs at /sys/kernel/tracing (or debugfs at /sys/kernel/debug
 * on kernels without that directory), as trace-cmd does, and leaves it mounted. The string is
 * static. Fails with a cause saying how to mount it when that is refused (not root:
 * TK_ERR_IO), and TK_ERR_NOTFOUND when the kernel has no tracefs.
 */
enum tk_status tracefs_find_mount(const char **out);

/*
 * Where tracefs is mounted, without mounting it (for programs that only use what is there,
 * as an application's tracer does): /sys/kernel/tracing, else the first tracefs in
 * /proc/mounts, copied into @buf (@size bytes). 1 when found, else 0.
 */
int tracefs_mounted(char *buf, size_t size);

/* One event the kernel offers: events/SYSTEM/NAME (both borrowed from the list). */
struct tracefs_event {
	const char *system;
	const char *name;
};

struct tracefs_event_list {
	struct tracefs_event *events; /* sorted by system, then name */
	size_t n;
	void *priv;
};

/*
 * Every event under @mount/events (NULL: tracefs_find_mount()), sorted, the "ftrace" system's
 * included. With @glob not NULL, only those matching it as tracefs_enable_events() matches a
 * spec ("sched", "sched:*switch", "irq_*"); matching nothing is TK_OK with n == 0. Free with
 * tracefs_event_list_fini() (also safe on a list a failed call left zeroed).
 */
enum tk_status tracefs_list_events(const char *mount, const char *glob,
				   struct tracefs_event_list *out);
void tracefs_event_list_fini(struct tracefs_event_list *list);

/* Read a whole tracefs file (format, header_page, trace_clock, ...): *out is malloc'ed and
 * NUL-terminated, *size without the NUL. */
enum tk_status tracefs_read_file(const char *path, char **out, size_t *size);

enum tracefs_open_flags {
	TRACEFS_CREATE = 1u << 0, /* mkdir instances/NAME; fails if it exists */
};

struct tracefs_instance;

/*
 * Open the top-level buffer (@name NULL) or the instance @name under @mount (NULL: found),
 * creating it with TRACEFS_CREATE (an existing one is TK_ERR_IO, errno=File exists, and is
 * left alone; without the flag a missing one is TK_ERR_NOTFOUND). Before creating, instances
 * named "tracekit-PID" whose PID no longer runs (left by a tracekit that was killed with
 * SIGKILL) are removed. A created instance starts with tracing_on 0 (the kernel makes it with
 * tracing on): set it up, then call tracefs_set_tracing_on(ti, 1).
 */
enum tk_status tracefs_instance_open(struct tracefs_instance **out, const char *mount,
				     const char *name, unsigned int flags);

/* The instance's directory ("/sys/kernel/tracing" or ".../instances/NAME"), borrowed. */
const char *tracefs_instance_dir(const struct tracefs_instance *ti);

/* @dir/@rel into @buf; TK_ERR_INVAL when it does not fit. */
enum tk_status tracefs_instance_path(const struct tracefs_instance *ti, const char *rel, char *buf,
				     size_t size);

/*
 * Enable every event matching @spec, as trace-cmd's -e does: "all"; "SYSTEM" (all its
 * events); "SYSTEM:EVENT"; "EVENT" (in whichever system has it); each part may be a glob
 * ("sched:sched_wak*", "*:*_exit", "irq*"), an empty part matches anything. A spec without a
 * colon is tried on system names first, and on event names only when no system matches.
 * *@matched (may be NULL) is the number of events enabled (those already on included). The
 * "ftrace" system's events cannot be enabled and are skipped. No match is TK_ERR_NOTFOUND
 * with a cause naming the spec. Enables are written to the event's own `enable` file (never a
 * system's, which reads "X" when mixed) and undone on close.
 */
enum tk_status tracefs_enable_events(struct tracefs_instance *ti, const char *spec,
				     size_t *matched);

/*
 * Set the filter of every event matching @spec (same forms as above) to @filter; "" or "0"
 * clears it. A filter the kernel rejects fails with TK_ERR_INVAL and the last error_log
 * entry's lines as causes (error_log is read, never cleared), and the event keeps its old
 * filter. When @spec selects several events, the filter is set on those that accept it, as
 * the kernel does for a system's filter file, and the call fails only when none does.
 */
enum tk_status tracefs_set_filter(struct tracefs_instance *ti, const char *spec,
				  const char *filter);

/*
 * buffer_size_kb (per CPU). The kernel rounds up to whole sub-buffers, so it may read back a
 * few KiB more. When the CPUs' sizes differ, each per_cpu/cpuN size is restored on close.
 */
enum tk_status tracefs_set_buffer_kib(struct tracefs_instance *ti, unsigned long kib);

/* trace_clock: "local", "global", "mono", "boot", "x86-tsc", ...; unknown: TK_ERR_NOTFOUND
 * with the clocks this kernel offers in the cause. */
enum tk_status tracefs_set_clock(struct tracefs_instance *ti, const char *clock);

/* tracing_on */
enum tk_status tracefs_set_tracing_on(struct tracefs_instance *ti, int on);

/*
 * Trace only these pids (set_event_pid, replaced, not added to), and with @follow their
 * children too (options/event-fork is set to @follow). n == 0 clears the filter and leaves
 * event-fork alone.
 */
enum tk_status tracefs_set_event_pids(struct tracefs_instance *ti, const pid_t *pids, size_t n,
				      int follow);

/*
 * Leave these pids' events out (set_event_notrace_pid, and with @functions the function
 * tracers' set_ftrace_notrace_pid where the kernel has it), replacing the lists: tracekit's
 * own threads, as trace-cmd leaves its own out. Kernels before 5.8 have no such file:
 * TK_ERR_UNSUPPORTED, nothing changed.
 */
enum tk_status tracefs_exclude_pids(struct tracefs_instance *ti, const pid_t *pids, size_t n,
				    int functions);

/*
 * Where tracefs_exclude_pids() is unsupported (before 5.8): add "common_pid != P" for each of
 * @pids to the filter of every event enabled in @ti, as trace-cmd does; an event's own filter
 * F becomes "(F) && (...)". Restored on close like any filter.
 */
enum tk_status tracefs_filter_out_pids(struct tracefs_instance *ti, const pid_t *pids, size_t n);

/*
 * Function tracing in set_ftrace_pid, as tracefs_set_event_pids() does for events (with
 * @follow, options/function-fork). Only for a recording that sets a function tracer: a kernel
 * in lockdown refuses even to read these files.
 */
enum tk_status tracefs_set_ftrace_pids(struct tracefs_instance *ti, const pid_t *pids, size_t n,
				       int follow);

/* ---- the function tracers and probes (tracefs-func.c) ---- */

/* Does the buffer list @tracer in its available_tracers? (function_graph runs only in the
 * top-level buffer before 6.x kernels let instances have it.) */
int tracefs_has_tracer(const struct tracefs_instance *ti, const char *tracer);

/*
 * Remove what a killed tracekit left: its "tracekit-PID" instances, then the probes of
 * events/@group/ enabled in no buffer, when no other tracekit records now (no "tracekit-PID" instance of a process alive;
 * one recording with --top may lose a probe it has added but not yet enabled, and then fails
 * to enable it). Best effort and silent.
 */
void tracefs_remove_stale_probes(const char *mount, const char *group);

/* Does the buffer have the file @rel (a path below its directory)? */
int tracefs_has_file(const struct tracefs_instance *ti, const char *rel);

/*
 * current_tracer: "function", "function_graph", "nop", ... A tracer the buffer does not offer
 * is TK_ERR_NOTFOUND with the available ones in the cause; a kernel that refuses it (lockdown:
 * EPERM) is TK_ERR_IO with the errno and that reason.
 */
enum tk_status tracefs_set_tracer(struct tracefs_instance *ti, const char *tracer);

/*
 * Replace the function list file @rel ("set_ftrace_filter", "set_ftrace_notrace",
 * "set_graph_function", "set_graph_notrace") by @funcs (names or globs, @n of them; n == 0
 * empties it). A name that matches no traceable function fails with TK_ERR_INVAL naming it.
 */
enum tk_status tracefs_set_functions(struct tracefs_instance *ti, const char *rel,
				     const char *const *funcs, size_t n);

/* options/NAME to 1, or with "noNAME" to 0 (trace-cmd's -O); an unknown option is
 * TK_ERR_NOTFOUND. */
enum tk_status tracefs_set_option(struct tracefs_instance *ti, const char *option);

/* Write @value to @rel (max_graph_depth, ...): TK_ERR_NOTFOUND when the kernel has no such
 * file. */
enum tk_status tracefs_set_value(struct tracefs_instance *ti, const char *rel, const char *value);

enum tracefs_probe_kind {
	TRACEFS_PROBE_KPROBE,
	TRACEFS_PROBE_KRETPROBE,
	TRACEFS_PROBE_UPROBE,
	TRACEFS_PROBE_URETPROBE,
};

/*
 * Add the probe @spec, "NAME=WHERE [ARGS...]" (WHERE: SYMBOL[+OFFS] or ADDRESS for kprobes,
 * PATH:OFFSET for uprobes; ARGS as kprobetrace.rst and uprobetracer.rst describe), as event
 * @group/NAME, through @top (the top-level handle: probe lists are global); its NAME into
 * @name. Closing @top removes it, so close every buffer that enabled it first. A probe of that
 * name enabled in no buffer (left by a killed tracekit) is replaced; one in use is
 * TK_ERR_INVAL. The kernel's error_log lines are causes of a refusal; a kernel without probe
 * events is TK_ERR_UNSUPPORTED.
 */
enum tk_status tracefs_add_probe(struct tracefs_instance *top, enum tracefs_probe_kind kind,
				 const char *group, const char *spec, char *name, size_t size);

/* Write @text to trace_marker (a print event in the instance). */
enum tk_status tracefs_write_marker(struct tracefs_instance *ti, const char *text);

/* Empty the ring buffers (write to `trace`); not undone on close. */
enum tk_status tracefs_clear(struct tracefs_instance *ti);

/*
 * Put back every file changed through @ti, newest change first, remove the instance if this
 * handle created it, and free @ti. Every step is tried even when one fails; the status is the
 * first failure. NULL returns TK_OK. Safe to call from the normal exit path after SIGINT,
 * SIGTERM or SIGHUP were caught (not from a signal handler).
 */
enum tk_status tracefs_instance_close(struct tracefs_instance *ti);

#endif /* TK_FTRACE_TRACEFS_H */
