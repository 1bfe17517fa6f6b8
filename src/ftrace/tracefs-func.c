// SPDX-License-Identifier: MIT
/*
 * tracefs control for the function tracers and dynamic probes (tracefs.h): current_tracer,
 * the function lists (set_ftrace_filter, set_ftrace_notrace, set_graph_function,
 * set_graph_notrace), tracer options, max_graph_depth, set_ftrace_pid, and kprobe/uprobe
 * events. Like every change in tracefs.c, each one is logged with how to put it back. The
 * formats, from Documentation/trace/ftrace.rst and kprobetrace.rst / uprobetracer.rst, as
 * read back from 6.1 and 6.12 kernels:
 *
 *   current_tracer        the tracer's name ("nop" when none).
 *   set_ftrace_filter     one function per line, "name [module]" for a module's, commands as
 *   set_graph_function    "name:cmd:count" or "name:cmd:unlimited"; an empty filter reads
 *                         "#### all functions enabled ####". Opening with O_TRUNC empties it,
 *                         each write adds the functions (globs) it names; a name that matches
 *                         nothing is refused with EINVAL.
 *   set_ftrace_notrace    the same; empty reads "" or "#### no functions disabled ####".
 *   kprobe_events         one probe per line; a write opened without O_TRUNC adds one
 *   uprobe_events         ("p:GROUP/NAME WHERE ARGS") or removes it ("-:GROUP/NAME"); the
 *                         kernel refuses to remove a probe whose event is enabled in any
 *                         buffer (EBUSY), so probes are removed after the buffers are closed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/error.h"
#include "tracefs-priv.h"
#include "tracefs.h"

#define PROBE_LINE_MAX 4096

/* The reason to add when the kernel refuses a function-tracer write with EPERM as root. */
static const char *eperm_reason(int err)
{
	return err == EPERM || err == EACCES
		       ? ", reason=the kernel refuses function tracing here (a kernel in lockdown "
			 "does, as do tracefs files made read-only)"
		       : "";
}

/* Does the buffer offer @tracer (its available_tracers file lists it)? */
int tracefs_has_tracer(const struct tracefs_instance *ti, const char *tracer)
{
	char path[TRACEFS_PATH_MAX], *text = NULL, *tok, *save = NULL;
	int found = 0;

	if (tracefs_instance_path(ti, "available_tracers", path, sizeof(path)) < 0 ||
	    tracefs_read_raw(path, &text, NULL)) {
		error_reset();
		return 0;
	}
	for (tok = strtok_r(text, " \n", &save); tok && !found; tok = strtok_r(NULL, " \n", &save))
		found = !strcmp(tok, tracer);
	free(text);
	return found;
}

int tracefs_has_file(const struct tracefs_instance *ti, const char *rel)
{
	char path[TRACEFS_PATH_MAX];

	return tracefs_instance_path(ti, rel, path, sizeof(path)) == 0 && access(path, F_OK) == 0;
}

enum tk_status tracefs_set_tracer(struct tracefs_instance *ti, const char *tracer)
{
	char path[TRACEFS_PATH_MAX], *text = NULL;
	enum tk_status st;
	int err;

	TK_ASSERT_PRE(ti && tracer);
	if (!tracefs_has_tracer(ti, tracer)) {
		if (tracefs_instance_path(ti, "available_tracers", path, sizeof(path)) == 0)
			(void) tracefs_read_raw(path, &text, NULL);
		if (text)
			text[strcspn(text, "\n")] = '\0';
		st = TK_FAIL(TK_ERR_NOTFOUND,
			     "Cannot set tracer: tracer=%s, dir=%s, reason=not offered here, "
			     "available=%s",
			     tracer, tracefs_instance_dir(ti), text ? text : "(none)");
		free(text);
		return st;
	}
	st = tracefs_instance_path(ti, "current_tracer", path, sizeof(path));
	if (st < 0)
		return st;
	err = tracefs_read_raw(path, &text, NULL);
	if (err)
		return TK_FAIL(TK_ERR_IO, "Cannot read tracefs file: path=%s, errno=%s%s", path,
			       strerror(err), eperm_reason(err));
	text[strcspn(text, "\n")] = '\0';
	if (!strcmp(text, tracer)) {
		free(text);
		return TK_OK;
	}
	st = tracefs_undo_push(ti, UNDO_WRITE, path, text);
	free(text);
	if (st < 0)
		return st;
	err = tracefs_write_raw(path, tracer, 0);
	if (err)
		return TK_FAIL(TK_ERR_IO, "Cannot set tracer: path=%s, value=%s, errno=%s%s", path,
			       tracer, strerror(err), eperm_reason(err));
	return TK_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Function lists                                                                             */

/*
 * Write one line read from a function list back in the form the file takes: "name [mod]"
 * becomes "name:mod:mod", a command's ":unlimited" count is dropped. Comment lines ("####
 * all functions enabled ####") write nothing. 0 or an errno.
 */
static int write_function_line(int fd, const char *line, size_t len)
{
	char buf[1024];
	const char *mod;
	ssize_t n;
	int k;

	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	if (!len || line[0] == '#')
		return 0;
	mod = memchr(line, '[', len);
	if (mod && line[len - 1] == ']')
		k = snprintf(buf, sizeof(buf), "%.*s:mod:%.*s\n", (int) (mod - line - 1), line,
			     (int) (line + len - mod - 2), mod + 1);
	else if (len > 10 && !memcmp(line + len - 10, ":unlimited", 10))
		k = snprintf(buf, sizeof(buf), "%.*s\n", (int) len - 10, line);
	else
		k = snprintf(buf, sizeof(buf), "%.*s\n", (int) len, line);
	if (k < 0 || (size_t) k >= sizeof(buf))
		return E2BIG;
	do
		n = write(fd, buf, (size_t) k);
	while (n < 0 && errno == EINTR);
	return n < 0 ? errno : 0;
}

enum tk_status tracefs_restore_functions(const char *path, const char *text)
{
	const char *p = text, *end;
	int fd, err = 0, one;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return tracefs_write_fail(path, "(empty)", errno);
	/* every line is tried: a function of a module gone since is no reason to stop */
	for (; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		one = write_function_line(fd, p, (size_t) (end - p));
		if (one && !err)
			err = one;
	}
	close(fd);
	return err ? tracefs_write_fail(path, text, err) : TK_OK;
}

enum tk_status tracefs_set_functions(struct tracefs_instance *ti, const char *rel,
				     const char *const *funcs, size_t n)
{
	char path[TRACEFS_PATH_MAX], line[1024], *old = NULL;
	enum tk_status st;
	size_t i;
	int fd, err;

	TK_ASSERT_PRE(ti && rel && (funcs || !n));
	st = tracefs_instance_path(ti, rel, path, sizeof(path));
	if (st < 0)
		return st;
	err = tracefs_read_raw(path, &old, NULL);
	if (err)
		return TK_FAIL(err == ENOENT ? TK_ERR_NOTFOUND : TK_ERR_IO,
			       "Cannot read tracefs file: path=%s, errno=%s%s", path, strerror(err),
			       eperm_reason(err));
	st = tracefs_undo_push(ti, UNDO_FUNCS, path, old);
	free(old);
	if (st < 0)
		return st;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return TK_FAIL(TK_ERR_IO, "Cannot write tracefs file: path=%s, errno=%s%s", path,
			       strerror(errno), eperm_reason(errno));
	for (i = 0; i < n; i++) {
		ssize_t w;
		int k = snprintf(line, sizeof(line), "%s\n", funcs[i]);

		if (k < 0 || (size_t) k >= sizeof(line) || strpbrk(funcs[i], " \t\n")) {
			st = TK_FAIL(TK_ERR_INVAL,
				     "Cannot set functions: path=%s, function=%.*s, reason=not one "
				     "name or glob",
				     path, LOG_VALUE_MAX, funcs[i]);
			break;
		}
		do
			w = write(fd, line, (size_t) k);
		while (w < 0 && errno == EINTR);
		if (w < 0) {
			err = errno;
			st = TK_FAIL(TK_ERR_INVAL,
				     "Cannot set functions: path=%s, function=%s, %s%s", path,
				     funcs[i],
				     err == EINVAL ? "reason=no traceable function matches "
						     "(see available_filter_functions)"
						   : "errno=",
				     err == EINVAL ? "" : strerror(err));
			break;
		}
	}
	close(fd);
	return st;
}

enum tk_status tracefs_set_option(struct tracefs_instance *ti, const char *option)
{
	char rel[TRACEFS_PATH_MAX], path[TRACEFS_PATH_MAX];
	const char *name = option;
	int on = 1;

	TK_ASSERT_PRE(ti && option);
	if (!strncmp(option, "no", 2)) {
		/* "nofunc_stack_trace" turns func_stack_trace off, unless "no..." is the name */
		snprintf(rel, sizeof(rel), "options/%s", option);
		if (tracefs_instance_path(ti, rel, path, sizeof(path)) < 0 ||
		    access(path, F_OK) < 0) {
			name = option + 2;
			on = 0;
		}
	}
	if (!*name || strchr(name, '/') ||
	    (size_t) snprintf(rel, sizeof(rel), "options/%s", name) >= sizeof(rel))
		return TK_FAIL(TK_ERR_INVAL, "Cannot set trace option: option=%s", option);
	if (tracefs_instance_path(ti, rel, path, sizeof(path)) < 0 || access(path, F_OK) < 0)
		return TK_FAIL(TK_ERR_NOTFOUND,
			       "Cannot set trace option: option=%s, dir=%s, reason=no such option "
			       "(see the options directory; a tracer's own appear once it is set)",
			       name, tracefs_instance_dir(ti));
	return tracefs_set_simple(ti, rel, on ? "1" : "0", "");
}

enum tk_status tracefs_set_value(struct tracefs_instance *ti, const char *rel, const char *value)
{
	char path[TRACEFS_PATH_MAX];

	TK_ASSERT_PRE(ti && rel && value);
	if (tracefs_instance_path(ti, rel, path, sizeof(path)) < 0 || access(path, F_OK) < 0)
		return TK_FAIL(TK_ERR_NOTFOUND, "Cannot set tracefs file: path=%s, reason=%s", path,
			       "not in this kernel");
	return tracefs_set_simple(ti, rel, value, "");
}

/* ------------------------------------------------------------------------------------------ */
/* Probes                                                                                     */

enum tk_status tracefs_append(const char *path, const char *value)
{
	int fd, err;
	ssize_t n;

	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return tracefs_write_fail(path, value, errno);
	do
		n = write(fd, value, strlen(value));
	while (n < 0 && errno == EINTR);
	err = n < 0 ? errno : 0;
	close(fd);
	return err ? tracefs_write_fail(path, value, err) : TK_OK;
}

/* Is events/@group/@name enabled in the top-level buffer or any instance under @mount? */
static int probe_in_use(const char *mount, const char *group, const char *name)
{
	char path[TRACEFS_PATH_MAX], dir[TRACEFS_PATH_MAX], *text = NULL;
	struct dirent *d;
	int used = 0;
	DIR *dp;

	snprintf(path, sizeof(path), "%s/events/%s/%s/enable", mount, group, name);
	if (!tracefs_read_raw(path, &text, NULL))
		used = text[0] == '1';
	free(text);
	snprintf(dir, sizeof(dir), "%s/instances", mount);
	dp = opendir(dir);
	while (dp && !used && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		text = NULL;
		if ((size_t) snprintf(path, sizeof(path), "%s/%s/events/%s/%s/enable", dir,
				      d->d_name, group, name) < sizeof(path) &&
		    !tracefs_read_raw(path, &text, NULL))
			used = text[0] == '1';
		free(text);
	}
	if (dp)
		closedir(dp);
	return used;
}

void tracefs_remove_stale_probes(const char *mount, const char *group)
{
	char dir[TRACEFS_PATH_MAX], path[TRACEFS_PATH_MAX], undo[NAME_MAX + 64];
	struct dirent *d;
	DIR *dp;

	/* a dead tracekit's instance still has its probes enabled: it goes first */
	tracefs_remove_stale_instances(mount);
	if ((size_t) snprintf(dir, sizeof(dir), "%s/events/%s", mount, group) >= sizeof(dir) ||
	    tracefs_other_recorders(mount))
		return;
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.' || strlen(d->d_name) > NAME_MAX ||
		    !strcmp(d->d_name, "enable") || !strcmp(d->d_name, "filter") ||
		    probe_in_use(mount, group, d->d_name))
			continue;
		snprintf(undo, sizeof(undo), "-:%s/%s", group, d->d_name);
		/* a kprobe or a uprobe: the file that does not know it refuses */
		snprintf(path, sizeof(path), "%s/kprobe_events", mount);
		if (tracefs_append(path, undo) < 0) {
			snprintf(path, sizeof(path), "%s/uprobe_events", mount);
			(void) tracefs_append(path, undo);
		}
		error_reset();
	}
	closedir(dp);
}

/* Parse "NAME=WHERE [ARGS...]" into @name (a C identifier) and the rest. */
static enum tk_status probe_parse(const char *spec, char *name, size_t size, const char **rest)
{
	const char *eq = strchr(spec, '=');
	size_t len = eq ? (size_t) (eq - spec) : 0;
	size_t i;

	if (!eq || !len || len >= size || !eq[1] || eq[1] == ' ')
		return TK_FAIL(TK_ERR_INVAL, "Cannot add probe: spec=%.*s, reason=%s",
			       LOG_VALUE_MAX, spec, "not NAME=WHERE [ARGS...]");
	for (i = 0; i < len; i++)
		if (!(spec[i] == '_' || (spec[i] >= 'a' && spec[i] <= 'z') ||
		      (spec[i] >= 'A' && spec[i] <= 'Z') ||
		      (i && spec[i] >= '0' && spec[i] <= '9')))
			return TK_FAIL(TK_ERR_INVAL, "Cannot add probe: name=%.*s, reason=%s",
				       (int) len, spec, "not a C identifier");
	memcpy(name, spec, len);
	name[len] = '\0';
	*rest = eq + 1;
	return TK_OK;
}

enum tk_status tracefs_add_probe(struct tracefs_instance *top, enum tracefs_probe_kind kind,
				 const char *group, const char *spec, char *name, size_t size)
{
	static const char *const files[] = {"kprobe_events", "kprobe_events", "uprobe_events",
					    "uprobe_events"};
	char path[TRACEFS_PATH_MAX], line[PROBE_LINE_MAX], undo[256];
	struct tracefs_errlog log;
	enum tk_status st;
	const char *rest = NULL;
	int fd, err;
	ssize_t n;

	TK_ASSERT_PRE(top && group && spec && name && kind <= TRACEFS_PROBE_URETPROBE);
	st = probe_parse(spec, name, size, &rest);
	if (st < 0)
		return st;
	st = tracefs_instance_path(top, files[kind], path, sizeof(path));
	if (st < 0)
		return st;
	if (access(path, F_OK) < 0)
		return TK_FAIL(TK_ERR_UNSUPPORTED, "Cannot add probe: name=%s, reason=%s", name,
			       kind <= TRACEFS_PROBE_KRETPROBE
				       ? "this kernel has no kprobe events (CONFIG_KPROBE_EVENTS)"
				       : "this kernel has no uprobe events (CONFIG_UPROBE_EVENTS)");
	snprintf(undo, sizeof(undo), "-:%s/%s", group, name);
	/* one left by a tracekit that was killed: enabled nowhere, so nobody's any more */
	if (!probe_in_use(top->mount, group, name))
		(void) tracefs_append(path, undo);
	error_reset();
	if ((size_t) snprintf(line, sizeof(line), "%c:%s/%s %s\n",
			      kind == TRACEFS_PROBE_KPROBE || kind == TRACEFS_PROBE_UPROBE ? 'p'
											   : 'r',
			      group, name, rest) >= sizeof(line))
		return TK_FAIL(TK_ERR_INVAL, "Cannot add probe: name=%s, reason=too long", name);
	tracefs_errlog_begin(top, &log);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		tracefs_errlog_fini(&log);
		return tracefs_write_fail(path, line, errno);
	}
	do
		n = write(fd, line, strlen(line));
	while (n < 0 && errno == EINTR);
	err = n < 0 ? errno : 0;
	close(fd);
	if (err) {
		tracefs_errlog_take(&log);
		tracefs_errlog_quote(&log);
		tracefs_errlog_fini(&log);
		line[strcspn(line, "\n")] = '\0';
		return TK_FAIL(err == EEXIST ? TK_ERR_INVAL : TK_ERR_IO,
			       "Cannot add probe: path=%s, value=%s, errno=%s%s", path, line,
			       strerror(err),
			       err == EEXIST ? ", reason=a probe of that name is in use" : "");
	}
	tracefs_errlog_fini(&log);
	return tracefs_undo_push(top, UNDO_APPEND, path, undo);
}
