/* SPDX-License-Identifier: MIT */
/*
 * What the files of tracefs control share (tracefs.c: instances, events, filters, buffers;
 * tracefs-func.c: the function tracers and dynamic probes): the handle and its undo log, raw
 * file access, and quoting the kernel's error_log. Nothing outside src/ftrace/tracefs*.c
 * includes it.
 */
#ifndef TK_FTRACE_TRACEFS_PRIV_H
#define TK_FTRACE_TRACEFS_PRIV_H

#include <limits.h>

#include "../common/vec.h"
#include "tracefs.h"

#define TRACEFS_PATH_MAX PATH_MAX
#define LOG_VALUE_MAX	 80 /* characters of a written value quoted in a cause */

enum undo_kind {
	UNDO_WRITE,	   /* write value back */
	UNDO_WRITE_EINVAL, /* same, but the kernel refusing it is expected (filter error state) */
	UNDO_PIDS,	   /* truncate, then write each pid of value (whitespace separated) */
	UNDO_FUNCS,	   /* truncate, then write each function line of value */
	UNDO_APPEND,	   /* append value (a probe's removal: "-:GROUP/NAME") */
};

struct undo {
	enum undo_kind kind;
	char *path;
	char *value;
};

struct tracefs_instance {
	char *mount;
	char *dir;
	char *name; /* NULL for the top-level buffer */
	int created;
	struct vec undo; /* struct undo, oldest first */
};

/* The kernel's error_log around a write: begin before, take after a refusal, quote. */
struct tracefs_errlog {
	char path[TRACEFS_PATH_MAX]; /* empty: no error_log to quote */
	char *before;		     /* error_log before the latest write */
	char *entry;		     /* its last entry added by the latest refusal */
};

void tracefs_errlog_begin(const struct tracefs_instance *ti, struct tracefs_errlog *el);
void tracefs_errlog_take(struct tracefs_errlog *el);
void tracefs_errlog_quote(const struct tracefs_errlog *el);
void tracefs_errlog_fini(struct tracefs_errlog *el);

/* Read all of @path, NUL-terminated, malloc'ed; 0 or an errno (ENOMEM included). */
int tracefs_read_raw(const char *path, char **out, size_t *size);

/* Open @path for writing (truncating with @trunc), write @value in one write(), close; 0 or
 * an errno. */
int tracefs_write_raw(const char *path, const char *value, int trunc);

/* The cause for a refused write of @value to @path. */
enum tk_status tracefs_write_fail(const char *path, const char *value, int err);

/* Remember that @path must get @value back (in the way @kind says) on close. */
enum tk_status tracefs_undo_push(struct tracefs_instance *ti, enum undo_kind kind, const char *path,
				 const char *value);

/* tracefs_undo_push(@restore), then write @value. */
enum tk_status tracefs_change_file(struct tracefs_instance *ti, const char *path,
				   enum undo_kind kind, const char *restore, const char *value);

/* Read @rel, keep its first line cut at the first character of @stop, and when it differs
 * from @value remember it and write @value. */
enum tk_status tracefs_set_simple(struct tracefs_instance *ti, const char *rel, const char *value,
				  const char *stop);

/* Empty a function list file (set_ftrace_filter, ...) and write back the lines @text read
 * from it before (tracefs-func.c). */
enum tk_status tracefs_restore_functions(const char *path, const char *text);

/* Remove the "tracekit-PID" instances of processes gone (tracekits killed), silently. */
void tracefs_remove_stale_instances(const char *mount);

/* How many "tracekit-PID" instances under @mount belong to other processes alive: other
 * tracekits recording now. */
int tracefs_other_recorders(const char *mount);

/* Append @value to @path (kprobe_events: add or remove one probe) in one write. */
enum tk_status tracefs_append(const char *path, const char *value);

#endif /* TK_FTRACE_TRACEFS_PRIV_H */
