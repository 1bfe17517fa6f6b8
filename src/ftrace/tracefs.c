// SPDX-License-Identifier: MIT
/*
 * tracefs control (see tracefs.h): the only code in tracekit that changes kernel tracing
 * state. Every change goes through tracefs_change_file(), which reads the file first and pushes how
 * to put it back on the handle's undo log, so tracefs_instance_close() can walk the log
 * backwards and leave the kernel as it found it. The formats the files read back in, and
 * what to write to restore them, follow Documentation/trace/ftrace.rst and events.rst and
 * were checked against a running kernel:
 *
 *   events/S/E/enable     "0", "1", "0*" or "1*" (soft mode): restore the digit. The system
 *                         and top-level enable files read "X" when mixed, which cannot be
 *                         written back, so enables are always per event.
 *   events/S/E/filter     "none" (restore: write "0"), the expression, or, after a rejected
 *                         write, the expression plus a caret and "parse_error:" line.
 *   buffer_size_kb        "1408", "7 (expanded: 1408)" before the first resize, or "X" when
 *                         the per-CPU sizes differ (then each per_cpu/cpuN file is restored).
 *   trace_clock           "[local] global counter ...": the bracketed name is the current one.
 *   set_event_pid         one pid per line; opening with O_TRUNC clears it, and each write on
 *                         that descriptor adds pids.
 *   tracing_on            "0" or "1", as options/event-fork.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <mntent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "../common/arena.h"
#include "../common/error.h"
#include "../common/spec.h"
#include "../common/vec.h"
#include "ftrace.h"
#include "tracefs-priv.h"
#include "tracefs.h"

#define TRACEFS_MAGIC	0x74726163
#define RMDIR_TRIES	10
#define STALE_PREFIX	"tracekit-"
#define ERROR_LOG_LINES 8 /* kernel error_log lines quoted at most */

/* Storage behind a struct tracefs_event_list. */
struct event_list_priv {
	struct arena strings;
};

/* ------------------------------------------------------------------------------------------ */
/* Paths and raw file access                                                                 */

/* @a/@b (either may be empty) into @buf, or TK_ERR_INVAL when it does not fit. */
static enum tk_status path_join(char *buf, size_t size, const char *a, const char *b)
{
	int n;

	if (!b || !*b)
		n = snprintf(buf, size, "%s", a);
	else
		n = snprintf(buf, size, "%s/%s", a, b);
	if (n < 0 || (size_t) n >= size)
		return TK_FAIL(TK_ERR_INVAL, "Cannot build tracefs path: dir=%s, file=%s, size=%zu",
			       a, b ? b : "", size);
	return TK_OK;
}

/* Status for a failed system call on a tracefs file. */
static enum tk_status errno_status(int err)
{
	return err == ENOENT ? TK_ERR_NOTFOUND : TK_ERR_IO;
}

/* Read all of @path into a NUL-terminated heap buffer; 0 or an errno (ENOMEM included). */
int tracefs_read_raw(const char *path, char **out, size_t *size)
{
	size_t len = 0, cap = 4096;
	char *buf, *bigger;
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	buf = malloc(cap);
	while (buf) {
		if (cap - len < 2) {
			bigger = realloc(buf, cap * 2);
			if (!bigger) {
				err = ENOMEM;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		len += (size_t) n;
	}
	close(fd);
	if (!buf)
		err = ENOMEM;
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*out = buf;
	if (size)
		*size = len;
	return 0;
}

enum tk_status tracefs_read_file(const char *path, char **out, size_t *size)
{
	int err;

	TK_ASSERT_PRE(path && out);
	err = tracefs_read_raw(path, out, size);
	if (err == ENOMEM)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read tracefs file: path=%s", path);
	if (err)
		return TK_FAIL(errno_status(err), "Cannot read tracefs file: path=%s, errno=%s",
			       path, strerror(err));
	return TK_OK;
}

/* Write all of @data in one write() (tracefs parses each write on its own); 0 or an errno. */
static int write_fd(int fd, const char *data, size_t len)
{
	ssize_t n;

	if (!len)
		return 0;
	do
		n = write(fd, data, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno;
	return (size_t) n == len ? 0 : EIO;
}

/* Open @path for writing (truncating with @trunc), write @value, close; 0 or an errno. */
int tracefs_write_raw(const char *path, const char *value, int trunc)
{
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC | (trunc ? O_TRUNC : 0));
	if (fd < 0)
		return errno;
	err = write_fd(fd, value, strlen(value));
	close(fd);
	return err;
}

enum tk_status tracefs_write_fail(const char *path, const char *value, int err)
{
	return TK_FAIL(errno_status(err),
		       "Cannot write tracefs file: path=%s, value=%.*s, errno=%s", path,
		       LOG_VALUE_MAX, value, strerror(err));
}

static enum tk_status write_str(const char *path, const char *value)
{
	int err = tracefs_write_raw(path, value, 0);

	return err ? tracefs_write_fail(path, value, err) : TK_OK;
}

/*
 * Replace the pid list of set_event_pid at @path with the pids in @pids (decimal numbers
 * separated by whitespace). The kernel clears the list when the file is opened with O_TRUNC
 * and adds the pids of every later write on that descriptor; one pid per write keeps each
 * write short whatever the list's length.
 */
static enum tk_status write_pid_list(const char *path, const char *pids)
{
	const char *p = pids, *end;
	char one[32];
	int fd, err = 0;
	size_t len;

	fd = open(path, O_WRONLY | O_CLOEXEC | O_TRUNC);
	if (fd < 0)
		return tracefs_write_fail(path, pids, errno);
	for (;;) {
		p += strspn(p, " \t\n");
		if (!*p)
			break;
		end = p + strcspn(p, " \t\n");
		len = (size_t) (end - p);
		if (len >= sizeof(one) - 1) {
			err = EINVAL;
			break;
		}
		memcpy(one, p, len);
		one[len] = '\n';
		one[len + 1] = '\0';
		err = write_fd(fd, one, len + 1);
		if (err)
			break;
		p = end;
	}
	close(fd);
	return err ? tracefs_write_fail(path, pids, err) : TK_OK;
}

/* Cut @s at its first newline. */
static char *first_line(char *s)
{
	s[strcspn(s, "\n")] = '\0';
	return s;
}

/* ------------------------------------------------------------------------------------------ */
/* The mount                                                                                  */

static int is_tracefs(const char *dir)
{
	char events[TRACEFS_PATH_MAX];
	struct statfs sfs;
	struct stat st;

	if (statfs(dir, &sfs) == 0 && sfs.f_type == TRACEFS_MAGIC)
		return 1;
	/* tracefs reached through another file system (bind mounts, some containers) */
	if (snprintf(events, sizeof(events), "%s/events", dir) >= (int) sizeof(events))
		return 0;
	return stat(events, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The first tracefs in /proc/mounts into @buf (getmntent() decodes "\040" and friends). */
static int mount_from_proc(char *buf, size_t size)
{
	struct mntent *m;
	FILE *f;
	int found = 0;

	f = setmntent("/proc/mounts", "re");
	if (!f)
		return 0;
	while ((m = getmntent(f))) {
		if (strcmp(m->mnt_type, "tracefs") || strlen(m->mnt_dir) >= size)
			continue;
		strcpy(buf, m->mnt_dir);
		found = 1;
		break;
	}
	endmntent(f);
	return found;
}

int tracefs_mounted(char *buf, size_t size)
{
	if (is_tracefs("/sys/kernel/tracing") && size > strlen("/sys/kernel/tracing")) {
		strcpy(buf, "/sys/kernel/tracing");
		return 1;
	}
	return mount_from_proc(buf, size);
}

/*
 * Mount tracefs at /sys/kernel/tracing, or, where the kernel has no such directory (before
 * 4.1), debugfs at /sys/kernel/debug, under which the kernel makes tracing/ itself; as
 * trace-cmd and libtracefs do. 0 or the errno of the mount(2) that failed.
 */
static int mount_tracefs(char *buf, size_t size)
{
	struct stat sb;

	if (stat("/sys/kernel/tracing", &sb) == 0) {
		if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) < 0)
			return errno;
		if (!is_tracefs("/sys/kernel/tracing"))
			return ENODEV;
		snprintf(buf, size, "%s", "/sys/kernel/tracing");
		return 0;
	}
	if (!is_tracefs("/sys/kernel/debug/tracing") &&
	    mount("nodev", "/sys/kernel/debug", "debugfs", 0, NULL) < 0)
		return errno;
	if (!is_tracefs("/sys/kernel/debug/tracing"))
		return ENODEV;
	snprintf(buf, size, "%s", "/sys/kernel/debug/tracing");
	return 0;
}

enum tk_status tracefs_find_mount(const char **out)
{
	static char mount_dir[TRACEFS_PATH_MAX];
	int err;

	if (mount_dir[0] && is_tracefs(mount_dir)) {
		*out = mount_dir;
		return TK_OK;
	}
	/*
	 * Not /sys/kernel/debug/tracing before mounting: where debugfs is mounted, looking there
	 * mounts tracefs at that deprecated place (the kernel's automount), and trace-cmd's
	 * function tracer setup, for one, fails there. trace-cmd mounts /sys/kernel/tracing.
	 */
	if (tracefs_mounted(mount_dir, sizeof(mount_dir))) {
		;
	} else if ((err = mount_tracefs(mount_dir, sizeof(mount_dir))) != 0) {
		mount_dir[0] = '\0';
		if (err == EPERM || err == EACCES)
			return TK_FAIL(
				TK_ERR_IO,
				"Cannot mount tracefs: path=/sys/kernel/tracing, errno=%s; mounting it needs root: run as root, or mount it with `mount -t tracefs nodev /sys/kernel/tracing`",
				strerror(err));
		return TK_FAIL(
			err == ENODEV ? TK_ERR_NOTFOUND : TK_ERR_IO,
			"Cannot mount tracefs: path=/sys/kernel/tracing, errno=%s; found no tracefs at /sys/kernel/tracing or in /proc/mounts first (a kernel without CONFIG_FTRACE has none)",
			strerror(err));
	}
	*out = mount_dir;
	return TK_OK;
}

/* @mount, or the one found when it is NULL. */
static enum tk_status mount_or_find(const char *mount, const char **out)
{
	if (mount) {
		*out = mount;
		return TK_OK;
	}
	return tracefs_find_mount(out);
}

/* ------------------------------------------------------------------------------------------ */
/* Events and specs                                                                           */

static int event_cmp(const void *a, const void *b)
{
	const struct tracefs_event *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->name, y->name);
}

/* Is @name in @dir a directory? (d_type when the file system gives it, else a stat.) */
static int entry_is_dir(int dirfd, const struct dirent *d)
{
	struct stat st;

	if (d->d_type != DT_UNKNOWN)
		return d->d_type == DT_DIR;
	return fstatat(dirfd, d->d_name, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

/* Append the events of the system directory @sys under @events_dir to @v. */
static enum tk_status list_system(const char *events_dir, const char *sys, struct vec *v,
				  struct arena *strings)
{
	char path[TRACEFS_PATH_MAX];
	struct tracefs_event *ev;
	const char *sys_copy = NULL;
	struct dirent *d;
	enum tk_status st;
	DIR *dir;

	st = path_join(path, sizeof(path), events_dir, sys);
	if (st < 0)
		return st;
	dir = opendir(path);
	if (!dir && errno == ENOENT)
		return TK_OK; /* a module's events went away while we looked */
	if (!dir)
		return TK_FAIL(TK_ERR_IO, "Cannot list tracefs events: path=%s, errno=%s", path,
			       strerror(errno));
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !entry_is_dir(dirfd(dir), d))
			continue;
		if (!sys_copy)
			sys_copy = arena_strdup(strings, sys);
		ev = vec_push(v, sizeof(*ev));
		if (!sys_copy || !ev)
			goto nomem;
		ev->system = sys_copy;
		ev->name = arena_strdup(strings, d->d_name);
		if (!ev->name)
			goto nomem;
	}
	closedir(dir);
	return TK_OK;
nomem:
	closedir(dir);
	return TK_FAIL(TK_ERR_NOMEM, "Cannot list tracefs events: path=%s", path);
}

/* Every event under @dir/events, sorted, into @out. */
static enum tk_status list_all(const char *dir, struct tracefs_event_list *out)
{
	char events_dir[TRACEFS_PATH_MAX];
	struct event_list_priv *priv;
	struct vec v = VEC_INIT;
	struct dirent *d;
	enum tk_status st;
	DIR *top;

	memset(out, 0, sizeof(*out));
	st = path_join(events_dir, sizeof(events_dir), dir, "events");
	if (st < 0)
		return st;
	priv = calloc(1, sizeof(*priv));
	if (!priv)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot list tracefs events: path=%s", events_dir);
	arena_init(&priv->strings);
	top = opendir(events_dir);
	if (!top) {
		st = TK_FAIL(errno_status(errno), "Cannot list tracefs events: path=%s, errno=%s",
			     events_dir, strerror(errno));
		goto err;
	}
	/* events/ also holds the files enable, filter, header_page and header_event */
	while ((d = readdir(top))) {
		if (d->d_name[0] == '.' || !entry_is_dir(dirfd(top), d))
			continue;
		st = list_system(events_dir, d->d_name, &v, &priv->strings);
		if (st < 0) {
			closedir(top);
			goto err;
		}
	}
	closedir(top);
	sort_array(v.data, v.len, sizeof(struct tracefs_event), event_cmp);
	out->events = v.data;
	out->n = v.len;
	out->priv = priv;
	return TK_OK;
err:
	vec_fini(&v);
	arena_fini(&priv->strings);
	free(priv);
	return st;
}

/*
 * Keep in @list only the events @spec selects. "all" keeps everything; "SYS:EV" keeps the
 * events whose system matches the glob SYS and name the glob EV (an empty part matches
 * anything); a spec without a colon names systems first, as trace-cmd's -e does ("sched" is
 * the whole sched system, "irq*" every irq-something system), and only when no system
 * matches it is it matched against event names in every system ("sched_switch").
 */
static enum tk_status select_events(struct tracefs_event_list *list, const char *spec)
{
	int by_system = 0;
	size_t i, kept = 0;

	for (i = 0; i < list->n && !by_system; i++)
		by_system = spec_names_system(spec, list->events[i].system);
	for (i = 0; i < list->n; i++) {
		const struct tracefs_event *ev = &list->events[i];

		if (spec_match(spec, by_system, ev->system, ev->name))
			list->events[kept++] = *ev;
	}
	list->n = kept;
	return TK_OK;
}

static enum tk_status list_in_dir(const char *dir, const char *glob, struct tracefs_event_list *out)
{
	enum tk_status st;

	st = list_all(dir, out);
	if (st < 0)
		return st;
	if (glob) {
		st = select_events(out, glob);
		if (st < 0) {
			tracefs_event_list_fini(out);
			return st;
		}
	}
	return TK_OK;
}

enum tk_status tracefs_list_events(const char *mount, const char *glob,
				   struct tracefs_event_list *out)
{
	enum tk_status st;

	TK_ASSERT_PRE(out);
	memset(out, 0, sizeof(*out));
	st = mount_or_find(mount, &mount);
	if (st < 0)
		return st;
	return list_in_dir(mount, glob, out);
}

void tracefs_event_list_fini(struct tracefs_event_list *list)
{
	struct event_list_priv *priv;

	if (!list)
		return;
	priv = list->priv;
	if (priv) {
		arena_fini(&priv->strings);
		free(priv);
	}
	free(list->events);
	memset(list, 0, sizeof(*list));
}

/* ------------------------------------------------------------------------------------------ */
/* The undo log                                                                               */

enum tk_status tracefs_undo_push(struct tracefs_instance *ti, enum undo_kind kind, const char *path,
				 const char *value)
{
	struct undo *u;
	char *p, *v;

	p = strdup(path);
	v = strdup(value);
	u = p && v ? vec_push(&ti->undo, sizeof(*u)) : NULL;
	if (!u) {
		free(p);
		free(v);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot remember tracefs file: path=%s", path);
	}
	u->kind = kind;
	u->path = p;
	u->value = v;
	return TK_OK;
}

static enum tk_status undo_apply(const struct undo *u)
{
	int err;

	switch (u->kind) {
	case UNDO_PIDS:
		return write_pid_list(u->path, u->value);
	case UNDO_WRITE_EINVAL:
		err = tracefs_write_raw(u->path, u->value, 0);
		return err && err != EINVAL ? tracefs_write_fail(u->path, u->value, err) : TK_OK;
	case UNDO_FUNCS:
		return tracefs_restore_functions(u->path, u->value);
	case UNDO_APPEND:
		return tracefs_append(u->path, u->value);
	case UNDO_WRITE:
	default:
		return write_str(u->path, u->value);
	}
}

static void undo_free(struct undo *u)
{
	free(u->path);
	free(u->value);
}

/* Put back the newest change now and forget it (a write the kernel refused). */
static enum tk_status undo_pop_apply(struct tracefs_instance *ti)
{
	struct undo *u = &VEC_AT(&ti->undo, struct undo, ti->undo.len - 1);
	enum tk_status st;

	st = undo_apply(u);
	undo_free(u);
	ti->undo.len--;
	return st;
}

/*
 * Record that @path must get @restore back, then write @value. The entry stays even when the
 * write fails: a refused write may still have changed the file (a rejected filter leaves
 * its error text and disables the filter), and restoring an unchanged file is harmless.
 */
enum tk_status tracefs_change_file(struct tracefs_instance *ti, const char *path,
				   enum undo_kind kind, const char *restore, const char *value)
{
	enum tk_status st;

	st = tracefs_undo_push(ti, kind, path, restore);
	if (st < 0)
		return st;
	return write_str(path, value);
}

/*
 * The usual setter: read @rel, keep its first line cut at the first character of @stop
 * (the digit of "1*", the number of "7 (expanded...)"), and when it differs from @value,
 * remember it and write @value.
 */
enum tk_status tracefs_set_simple(struct tracefs_instance *ti, const char *rel, const char *value,
				  const char *stop)
{
	char path[TRACEFS_PATH_MAX];
	enum tk_status st;
	char *old;

	st = tracefs_instance_path(ti, rel, path, sizeof(path));
	if (st < 0)
		return st;
	st = tracefs_read_file(path, &old, NULL);
	if (st < 0)
		return st;
	first_line(old);
	old[strcspn(old, stop)] = '\0';
	if (strcmp(old, value))
		st = tracefs_change_file(ti, path, UNDO_WRITE, old, value);
	free(old);
	return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Instances                                                                                  */

/* rmdir, retrying briefly while a reader still holds a file of the instance; 0 or an errno. */
static int rmdir_retry(const char *path)
{
	struct timespec ts = {0, 1000000};
	int i;

	for (i = 0; i < RMDIR_TRIES; i++) {
		if (rmdir(path) == 0)
			return 0;
		if (errno != EBUSY)
			return errno;
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 64000000)
			ts.tv_nsec *= 2;
	}
	return EBUSY;
}

/* The PID of an instance named "tracekit-PID", else 0. */
static pid_t recorder_pid(const char *name)
{
	const char *digits = name + strlen(STALE_PREFIX);
	long pid;

	if (strncmp(name, STALE_PREFIX, strlen(STALE_PREFIX)) || !*digits ||
	    strspn(digits, "0123456789") != strlen(digits))
		return 0;
	errno = 0;
	pid = strtol(digits, NULL, 10);
	return errno || pid <= 0 || pid > INT_MAX ? 0 : (pid_t) pid;
}

/* "tracekit-PID" with a PID that no process has any more? */
static int is_stale(const char *name)
{
	pid_t pid = recorder_pid(name);

	return pid && kill(pid, 0) < 0 && errno == ESRCH;
}

/* "tracekit-PID" of a process alive, other than this one? */
static int is_live(const char *name)
{
	pid_t pid = recorder_pid(name);

	return pid && pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM);
}

int tracefs_other_recorders(const char *mount)
{
	char dir[TRACEFS_PATH_MAX];
	struct dirent *d;
	int n = 0;
	DIR *dp;

	if (snprintf(dir, sizeof(dir), "%s/instances", mount) >= (int) sizeof(dir))
		return 0;
	dp = opendir(dir);
	if (!dp)
		return 0;
	while ((d = readdir(dp)))
		n += is_live(d->d_name);
	closedir(dp);
	return n;
}

/*
 * Remove the "tracekit-PID" instances left by a tracekit that died without closing (SIGKILL,
 * a crash). Best effort and silent: an instance that cannot be removed does not stop this
 * run. A PID from another PID namespace looks dead here, so tracekits sharing a tracefs
 * across containers should give their instances other names.
 */
void tracefs_remove_stale_instances(const char *mount)
{
	char dir[TRACEFS_PATH_MAX], path[TRACEFS_PATH_MAX];
	struct dirent *d;
	DIR *dp;

	if (snprintf(dir, sizeof(dir), "%s/instances", mount) >= (int) sizeof(dir))
		return;
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (!is_stale(d->d_name) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, d->d_name) >= (int) sizeof(path))
			continue;
		rmdir_retry(path);
	}
	closedir(dp);
}

static enum tk_status check_name(const char *name)
{
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return TK_FAIL(TK_ERR_INVAL, "Cannot use tracefs instance name: name=%s, reason=%s",
			       name, "not a single path component");
	return TK_OK;
}

static void instance_free(struct tracefs_instance *ti)
{
	size_t i;

	for (i = 0; i < ti->undo.len; i++)
		undo_free(&VEC_AT(&ti->undo, struct undo, i));
	vec_fini(&ti->undo);
	free(ti->mount);
	free(ti->dir);
	free(ti->name);
	free(ti);
}

enum tk_status tracefs_instance_open(struct tracefs_instance **out, const char *mount,
				     const char *name, unsigned int flags)
{
	char dir[TRACEFS_PATH_MAX], rel[TRACEFS_PATH_MAX];
	struct tracefs_instance *ti;
	enum tk_status st;
	struct stat sb;

	TK_ASSERT_PRE(out);
	TK_ASSERT_PRE(name || !(flags & TRACEFS_CREATE));
	st = mount_or_find(mount, &mount);
	if (st < 0)
		return st;
	if (name) {
		st = check_name(name);
		if (st < 0)
			return st;
		if (snprintf(rel, sizeof(rel), "instances/%s", name) >= (int) sizeof(rel))
			return TK_FAIL(TK_ERR_INVAL, "Cannot open tracefs instance: name=%s, %s",
				       name, "reason=name too long");
		st = path_join(dir, sizeof(dir), mount, rel);
	} else {
		st = path_join(dir, sizeof(dir), mount, NULL);
	}
	if (st < 0)
		return st;
	ti = calloc(1, sizeof(*ti));
	if (!ti)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open tracefs instance: path=%s", dir);
	ti->mount = strdup(mount);
	ti->dir = strdup(dir);
	ti->name = name ? strdup(name) : NULL;
	if (!ti->mount || !ti->dir || (name && !ti->name)) {
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot open tracefs instance: path=%s", dir);
		goto err;
	}
	if (flags & TRACEFS_CREATE) {
		tracefs_remove_stale_instances(mount);
		if (mkdir(dir, 0750) < 0) {
			st = TK_FAIL(errno_status(errno),
				     "Cannot create tracefs instance: path=%s, errno=%s", dir,
				     strerror(errno));
			goto err;
		}
		ti->created = 1;
		/* a new instance starts with tracing on: keep it off while it is set up */
		st = tracefs_instance_path(ti, "tracing_on", rel, sizeof(rel));
		if (st == TK_OK)
			st = write_str(rel, "0");
		if (st < 0)
			goto err;
	} else if (stat(dir, &sb) < 0) {
		st = TK_FAIL(errno_status(errno), "Cannot open tracefs instance: path=%s, errno=%s",
			     dir, strerror(errno));
		goto err;
	} else if (!S_ISDIR(sb.st_mode)) {
		st = TK_FAIL(TK_ERR_NOTFOUND, "Cannot open tracefs instance: path=%s, %s", dir,
			     "reason=not a directory");
		goto err;
	}
	*out = ti;
	return TK_OK;
err:
	if (ti->created)
		rmdir_retry(ti->dir);
	instance_free(ti);
	return st;
}

const char *tracefs_instance_dir(const struct tracefs_instance *ti)
{
	return ti->dir;
}

enum tk_status tracefs_instance_path(const struct tracefs_instance *ti, const char *rel, char *buf,
				     size_t size)
{
	TK_ASSERT_PRE(ti && rel && buf);
	return path_join(buf, size, ti->dir, rel);
}

enum tk_status tracefs_instance_close(struct tracefs_instance *ti)
{
	char path[TRACEFS_PATH_MAX];
	enum tk_status st = TK_OK, one;
	size_t i;
	int err;

	if (!ti)
		return TK_OK;
	if (ti->created) {
		/* removing the instance drops everything it holds; no file-by-file restore */
		one = tracefs_instance_path(ti, "tracing_on", path, sizeof(path));
		if (one == TK_OK)
			one = write_str(path, "0");
		if (one < 0 && st == TK_OK)
			st = one;
		err = rmdir_retry(ti->dir);
		if (err && st == TK_OK)
			st = TK_FAIL(errno_status(err),
				     "Cannot remove tracefs instance: path=%s, errno=%s", ti->dir,
				     strerror(err));
	} else {
		for (i = ti->undo.len; i-- > 0;) {
			one = undo_apply(&VEC_AT(&ti->undo, struct undo, i));
			if (one < 0 && st == TK_OK)
				st = one;
		}
	}
	if (st < 0)
		st = TK_FAIL(st, "Cannot restore tracefs state: dir=%s", ti->dir);
	instance_free(ti);
	return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Events: enable and filter                                                                  */

/* events/SYS/EV/@file of @ti into @buf. */
static enum tk_status event_path(const struct tracefs_instance *ti, const struct tracefs_event *ev,
				 const char *file, char *buf, size_t size)
{
	char rel[TRACEFS_PATH_MAX];
	int n;

	n = snprintf(rel, sizeof(rel), "events/%s/%s/%s", ev->system, ev->name, file);
	if (n < 0 || (size_t) n >= sizeof(rel))
		return TK_FAIL(TK_ERR_INVAL, "Cannot build tracefs path: event=%s:%s", ev->system,
			       ev->name);
	return tracefs_instance_path(ti, rel, buf, size);
}

/* The "ftrace" system holds the tracers' own record formats: no enable or filter files. */
static int is_ftrace_internal(const struct tracefs_event *ev)
{
	return !strcmp(ev->system, "ftrace");
}

enum tk_status tracefs_enable_events(struct tracefs_instance *ti, const char *spec, size_t *matched)
{
	struct tracefs_event_list list;
	char rel[TRACEFS_PATH_MAX];
	size_t i, n = 0, skipped = 0;
	enum tk_status st;

	TK_ASSERT_PRE(ti && spec);
	if (matched)
		*matched = 0;
	st = list_in_dir(ti->dir, spec, &list);
	if (st < 0)
		return TK_FAIL(st, "Cannot enable tracefs events: spec=%s", spec);
	for (i = 0; i < list.n; i++) {
		const struct tracefs_event *ev = &list.events[i];

		if (is_ftrace_internal(ev)) {
			skipped++;
			continue;
		}
		if (snprintf(rel, sizeof(rel), "events/%s/%s/enable", ev->system, ev->name) >=
		    (int) sizeof(rel)) {
			st = TK_FAIL(TK_ERR_INVAL, "Cannot build tracefs path: event=%s:%s",
				     ev->system, ev->name);
			break;
		}
		st = tracefs_set_simple(ti, rel, "1", "*");
		if (st < 0)
			break;
		n++;
	}
	tracefs_event_list_fini(&list);
	if (matched)
		*matched = n;
	if (st < 0)
		return TK_FAIL(st, "Cannot enable tracefs events: spec=%s, dir=%s", spec, ti->dir);
	if (!n)
		return TK_FAIL(TK_ERR_NOTFOUND, "Cannot enable tracefs events: spec=%s, dir=%s, %s",
			       spec, ti->dir,
			       skipped ? "reason=ftrace events cannot be enabled"
				       : "reason=no event matches");
	return TK_OK;
}

static char *errlog_read(const struct tracefs_errlog *el);

/* The error_log @ti's writes report to: its own, or the top-level one on older kernels. */
void tracefs_errlog_begin(const struct tracefs_instance *ti, struct tracefs_errlog *el)
{
	char *p = el->path;
	size_t size = sizeof(el->path);

	memset(el, 0, sizeof(*el));
	if (!(snprintf(p, size, "%s/error_log", ti->dir) < (int) size && access(p, R_OK) == 0) &&
	    !(snprintf(p, size, "%s/error_log", ti->mount) < (int) size && access(p, R_OK) == 0))
		p[0] = '\0';
	el->before = errlog_read(el);
}

static char *errlog_read(const struct tracefs_errlog *el)
{
	char *text = NULL;

	if (!el->path[0] || tracefs_read_raw(el->path, &text, NULL))
		return NULL;
	return text;
}

/*
 * Keep the last entry of error_log when the log changed since the write (so an old entry is
 * never quoted for a new failure). Entries start with a "[timestamp]" line, followed by
 * indented "Command:" and caret lines. The kernel keeps a few entries and drops the oldest;
 * the log is never cleared here, since that would change state that close() cannot restore.
 */
void tracefs_errlog_take(struct tracefs_errlog *el)
{
	char *now, *entry = NULL, *p;

	now = errlog_read(el);
	if (!now)
		return;
	if (!el->before || strcmp(el->before, now)) {
		for (p = now; *p; p += strcspn(p, "\n"), p += *p == '\n')
			if (*p == '[')
				entry = p;
	}
	free(el->entry);
	el->entry = entry ? strdup(entry) : NULL;
	free(el->before);
	el->before = now;
}

/*
 * Push the kept error_log lines as causes, as they are, so that the caret stays under the
 * character it points at; last line first, since the chain is read outermost first.
 */
void tracefs_errlog_quote(const struct tracefs_errlog *el)
{
	char *lines[ERROR_LOG_LINES], *p, *save = NULL;
	size_t n = 0;

	if (!el->entry)
		return;
	for (p = strtok_r(el->entry, "\n", &save); p && n < ERROR_LOG_LINES;
	     p = strtok_r(NULL, "\n", &save))
		lines[n++] = p;
	while (n-- > 0)
		TK_FAIL(TK_ERR_INVAL, "%s", lines[n]);
}

void tracefs_errlog_fini(struct tracefs_errlog *el)
{
	free(el->before);
	free(el->entry);
	el->before = el->entry = NULL;
}

/* What tracefs_set_filter() carries from one event to the next. */
struct filter_run {
	const char *filter;
	struct tracefs_errlog log;
	char refused_path[TRACEFS_PATH_MAX];
	int refused_err; /* errno of the latest refusal */
	size_t set, refused;
};

/* The text a refused write leaves in @path ("expr\n   ^\nparse_error: ...") as the entry to
 * quote, when it has a parse_error line. */
static void filter_error_take(const char *path, struct filter_run *run)
{
	char *text = NULL;

	if (tracefs_read_raw(path, &text, NULL))
		return;
	if (strstr(text, "parse_error:")) {
		free(run->log.entry);
		run->log.entry = text;
		return;
	}
	free(text);
}

/*
 * Set one event's filter (nothing to do when it already has it). A write the kernel refuses
 * with EINVAL is counted in @run, the old filter is put back at once and the error_log entry
 * is kept for the report; any other failure is returned with its causes.
 */
static enum tk_status filter_one(struct tracefs_instance *ti, const struct tracefs_event *ev,
				 struct filter_run *run)
{
	char path[TRACEFS_PATH_MAX];
	enum undo_kind kind = UNDO_WRITE;
	enum tk_status st;
	const char *restore;
	char *old;
	int err;

	st = event_path(ti, ev, "filter", path, sizeof(path));
	if (st < 0)
		return st;
	st = tracefs_read_file(path, &old, NULL);
	if (st < 0)
		return st;
	/* after a refused write the file reads "expr\n    ^\nparse_error: ..." */
	if (strstr(old, "\nparse_error:"))
		kind = UNDO_WRITE_EINVAL;
	restore = !strcmp(first_line(old), "none") ? "0" : old;
	if (kind == UNDO_WRITE && !strcmp(restore, run->filter)) {
		free(old);
		run->set++;
		return TK_OK;
	}
	st = tracefs_undo_push(ti, kind, path, restore);
	free(old);
	if (st < 0)
		return st;
	err = tracefs_write_raw(path, run->filter, 0);
	if (!err) {
		run->set++;
		return TK_OK;
	}
	/*
	 * A refusal is EINVAL for most errors, but ESRCH for some (an unbalanced quote), so it is
	 * told apart from other failures by what the kernel says: an error_log entry, or on
	 * kernels without one (before 5.2) a "parse_error:" line left in the filter file.
	 */
	tracefs_errlog_take(&run->log);
	if (!run->log.entry)
		filter_error_take(path, run);
	if (err != EINVAL && !run->log.entry)
		return tracefs_write_fail(path, run->filter, err);
	run->refused++;
	run->refused_err = err;
	strcpy(run->refused_path, path);
	return undo_pop_apply(ti);
}

/*
 * A spec that selects one event fails when the kernel refuses the filter. A spec that selects
 * several sets it on each event that accepts it, as the kernel does with a system's filter
 * file, and fails only when none does; an event that refused keeps its old filter.
 */
enum tk_status tracefs_set_filter(struct tracefs_instance *ti, const char *spec, const char *filter)
{
	struct filter_run run = {0};
	struct tracefs_event_list list;
	enum tk_status st;
	size_t i;

	TK_ASSERT_PRE(ti && spec && filter);
	run.filter = *filter ? filter : "0";
	st = list_in_dir(ti->dir, spec, &list);
	if (st < 0)
		return TK_FAIL(st, "Cannot set tracefs filter: spec=%s", spec);
	tracefs_errlog_begin(ti, &run.log);
	for (i = 0; i < list.n && st == TK_OK; i++) {
		if (!is_ftrace_internal(&list.events[i]))
			st = filter_one(ti, &list.events[i], &run);
	}
	if (st == TK_OK && run.refused && !run.set) {
		tracefs_errlog_quote(&run.log);
		st = TK_FAIL(
			TK_ERR_INVAL,
			"Cannot write tracefs file: path=%s, value=%.*s, errno=%s, refused-events=%zu",
			run.refused_path, LOG_VALUE_MAX, run.filter, strerror(run.refused_err),
			run.refused);
	}
	tracefs_errlog_fini(&run.log);
	tracefs_event_list_fini(&list);
	if (st < 0)
		return TK_FAIL(st, "Cannot set tracefs filter: spec=%s, filter=%.*s, dir=%s", spec,
			       LOG_VALUE_MAX, run.filter, ti->dir);
	if (!run.set)
		return TK_FAIL(
			TK_ERR_NOTFOUND,
			"Cannot set tracefs filter: spec=%s, dir=%s, reason=no event matches", spec,
			ti->dir);
	return TK_OK;
}

/* Is @ev enabled in @ti ("1" or soft-enabled "1*")? */
static int event_enabled(struct tracefs_instance *ti, const struct tracefs_event *ev)
{
	char path[TRACEFS_PATH_MAX], *text = NULL;
	int on;

	if (event_path(ti, ev, "enable", path, sizeof(path)) < 0 ||
	    tracefs_read_raw(path, &text, NULL)) {
		error_reset();
		return 0;
	}
	on = text[0] == '1';
	free(text);
	return on;
}

/*
 * Kernels before 5.8 have no set_event_notrace_pid: leave @pids out by adding
 * "common_pid != P" to the filter of every event enabled in @ti, as trace-cmd does there. An
 * event's own filter F becomes "(F) && (common_pid != P && ...)"; each is restored on close.
 */
enum tk_status tracefs_filter_out_pids(struct tracefs_instance *ti, const pid_t *pids, size_t n)
{
	struct tracefs_event_list list;
	struct filter_run run = {0};
	char path[TRACEFS_PATH_MAX], *cond, *text, *both = NULL;
	enum tk_status st;
	size_t i, len = 0;

	TK_ASSERT_PRE(ti && pids && n);
	cond = malloc(n * 32 + 1);
	if (!cond)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot filter out pids: count=%zu", n);
	for (i = 0; i < n; i++)
		len += (size_t) sprintf(cond + len, "%scommon_pid != %ld", i ? " && " : "",
					(long) pids[i]);
	st = list_in_dir(ti->dir, NULL, &list);
	if (st < 0) {
		free(cond);
		return st;
	}
	tracefs_errlog_begin(ti, &run.log);
	for (i = 0; st >= 0 && i < list.n; i++) {
		const struct tracefs_event *ev = &list.events[i];

		if (is_ftrace_internal(ev) || !event_enabled(ti, ev))
			continue;
		st = event_path(ti, ev, "filter", path, sizeof(path));
		if (st < 0 || (st = tracefs_read_file(path, &text, NULL)) < 0)
			break;
		text[strcspn(text, "\n")] = '\0';
		free(both);
		both = NULL;
		if (!strcmp(text, "none") || !text[0]) {
			run.filter = cond;
		} else {
			both = malloc(strlen(text) + strlen(cond) + 16);
			if (!both) {
				free(text);
				st = TK_FAIL(TK_ERR_NOMEM, "Cannot filter out pids");
				break;
			}
			sprintf(both, "(%s) && (%s)", text, cond);
			run.filter = both;
		}
		free(text);
		st = filter_one(ti, ev, &run);
		if (st >= 0 && run.refused) {
			tracefs_errlog_quote(&run.log);
			st = TK_FAIL(TK_ERR_INVAL,
				     "Cannot filter out pids: event=%s:%s, filter=%.*s", ev->system,
				     ev->name, LOG_VALUE_MAX, run.filter);
		}
	}
	tracefs_errlog_fini(&run.log);
	tracefs_event_list_fini(&list);
	free(both);
	free(cond);
	return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Buffer, clock, tracing_on, pids, markers                                                   */

/* The size a buffer_size_kb file stands for: "1408", or N of "7 (expanded: N)". */
static const char *buffer_size_value(char *text)
{
	char *expanded = strstr(text, "(expanded: ");

	if (expanded) {
		text = expanded + strlen("(expanded: ");
		text[strcspn(text, ")")] = '\0';
	}
	text[strspn(text, "0123456789")] = '\0';
	return text;
}

/*
 * Remember every per_cpu/cpuN/buffer_size_kb: the top-level file reads "X" when the CPUs'
 * sizes differ, and writing it sets all of them.
 */
static enum tk_status remember_cpu_sizes(struct tracefs_instance *ti)
{
	char dir[TRACEFS_PATH_MAX], path[TRACEFS_PATH_MAX];
	enum tk_status st = TK_OK;
	struct dirent *d;
	char *old;
	DIR *dp;

	st = tracefs_instance_path(ti, "per_cpu", dir, sizeof(dir));
	if (st < 0)
		return st;
	dp = opendir(dir);
	if (!dp)
		return TK_FAIL(errno_status(errno), "Cannot list tracefs CPUs: path=%s, errno=%s",
			       dir, strerror(errno));
	while (st == TK_OK && (d = readdir(dp))) {
		if (strncmp(d->d_name, "cpu", 3))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s/buffer_size_kb", dir, d->d_name) >=
		    (int) sizeof(path))
			continue;
		st = tracefs_read_file(path, &old, NULL);
		if (st < 0)
			break;
		st = tracefs_undo_push(ti, UNDO_WRITE, path, buffer_size_value(old));
		free(old);
	}
	closedir(dp);
	return st;
}

enum tk_status tracefs_set_buffer_kib(struct tracefs_instance *ti, unsigned long kib)
{
	char path[TRACEFS_PATH_MAX], value[32];
	enum tk_status st;
	const char *restore;
	char *old;

	TK_ASSERT_PRE(ti);
	snprintf(value, sizeof(value), "%lu", kib);
	st = tracefs_instance_path(ti, "buffer_size_kb", path, sizeof(path));
	if (st < 0)
		return st;
	st = tracefs_read_file(path, &old, NULL);
	if (st < 0)
		return st;
	if (old[0] == 'X') {
		st = remember_cpu_sizes(ti);
		if (st == TK_OK)
			st = write_str(path, value);
	} else {
		restore = buffer_size_value(old);
		if (strcmp(restore, value))
			st = tracefs_change_file(ti, path, UNDO_WRITE, restore, value);
	}
	free(old);
	return st;
}

enum tk_status tracefs_set_clock(struct tracefs_instance *ti, const char *clock)
{
	char path[TRACEFS_PATH_MAX];
	const char *current = NULL;
	char *text, *tok, *save = NULL, *avail;
	enum tk_status st;
	int found = 0;

	TK_ASSERT_PRE(ti && clock);
	st = tracefs_instance_path(ti, "trace_clock", path, sizeof(path));
	if (st < 0)
		return st;
	st = tracefs_read_file(path, &text, NULL);
	if (st < 0)
		return st;
	avail = strdup(first_line(text));
	if (!avail) {
		free(text);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot set trace clock: path=%s", path);
	}
	for (tok = strtok_r(text, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (tok[0] == '[') {
			tok++;
			tok[strcspn(tok, "]")] = '\0';
			current = tok;
		}
		found |= !strcmp(tok, clock);
	}
	if (!found)
		st = TK_FAIL(TK_ERR_NOTFOUND,
			     "Cannot set trace clock: path=%s, clock=%s, available=%s", path, clock,
			     avail);
	else if (!current)
		st = TK_FAIL(TK_ERR_FORMAT, "Cannot read trace clock: path=%s, text=%s", path,
			     avail);
	else if (strcmp(current, clock))
		st = tracefs_change_file(ti, path, UNDO_WRITE, current, clock);
	free(avail);
	free(text);
	return st;
}

enum tk_status tracefs_set_tracing_on(struct tracefs_instance *ti, int on)
{
	TK_ASSERT_PRE(ti);
	return tracefs_set_simple(ti, "tracing_on", on ? "1" : "0", "");
}

/* Replace the pid list in @rel (set_event_pid and its kin) by @pids, remembering the old. */
static enum tk_status set_pid_file(struct tracefs_instance *ti, const char *rel, const pid_t *pids,
				   size_t n)
{
	char path[TRACEFS_PATH_MAX];
	enum tk_status st;
	char *old, *list;
	size_t i, len = 0;

	st = tracefs_instance_path(ti, rel, path, sizeof(path));
	if (st < 0)
		return st;
	if (n > (SIZE_MAX - 1) / 24)
		return TK_FAIL(TK_ERR_INVAL, "Cannot set pids: path=%s, count=%zu", path, n);
	list = malloc(n * 24 + 1);
	if (!list)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot set pids: path=%s, count=%zu", path, n);
	list[0] = '\0';
	for (i = 0; i < n; i++)
		len += (size_t) snprintf(list + len, 24, "%ld\n", (long) pids[i]);
	st = tracefs_read_file(path, &old, NULL);
	if (st == TK_OK) {
		/* the function tracers' lists read "no pid" when empty, the event ones nothing */
		if (!strncmp(old, "no pid", 6))
			old[0] = '\0';
		st = tracefs_undo_push(ti, UNDO_PIDS, path, old);
		free(old);
	}
	if (st == TK_OK)
		st = write_pid_list(path, list);
	free(list);
	return st;
}

/* @file gets @pids; with some, options/@fork_option says whether children follow. */
static enum tk_status set_pids_following(struct tracefs_instance *ti, const char *file,
					 const char *fork_option, const pid_t *pids, size_t n,
					 int follow)
{
	enum tk_status st;

	TK_ASSERT_PRE(ti && (pids || !n));
	if (n) {
		st = tracefs_set_simple(ti, fork_option, follow ? "1" : "0", "");
		if (st < 0)
			return st;
	}
	return set_pid_file(ti, file, pids, n);
}

enum tk_status tracefs_set_event_pids(struct tracefs_instance *ti, const pid_t *pids, size_t n,
				      int follow)
{
	return set_pids_following(ti, "set_event_pid", "options/event-fork", pids, n, follow);
}

enum tk_status tracefs_set_ftrace_pids(struct tracefs_instance *ti, const pid_t *pids, size_t n,
				       int follow)
{
	return set_pids_following(ti, "set_ftrace_pid", "options/function-fork", pids, n, follow);
}

enum tk_status tracefs_exclude_pids(struct tracefs_instance *ti, const pid_t *pids, size_t n,
				    int functions)
{
	char path[TRACEFS_PATH_MAX];
	enum tk_status st;

	TK_ASSERT_PRE(ti && pids);
	st = tracefs_instance_path(ti, "set_event_notrace_pid", path, sizeof(path));
	if (st < 0)
		return st;
	if (access(path, F_OK) < 0)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot exclude pids: path=%s, reason=not in this kernel (5.8+)",
			       path);
	st = set_pid_file(ti, "set_event_notrace_pid", pids, n);
	if (st < 0)
		return st;
	/* the function tracers have a list of their own (5.9+), touched only when they are used
	 * (a kernel in lockdown refuses even to read it) */
	if (!functions)
		return TK_OK;
	if (tracefs_has_file(ti, "set_ftrace_notrace_pid"))
		st = set_pid_file(ti, "set_ftrace_notrace_pid", pids, n);
	return st;
}

enum tk_status tracefs_write_marker(struct tracefs_instance *ti, const char *text)
{
	char path[TRACEFS_PATH_MAX];
	enum tk_status st;
	int err;

	TK_ASSERT_PRE(ti && text);
	st = tracefs_instance_path(ti, "trace_marker", path, sizeof(path));
	if (st < 0)
		return st;
	err = tracefs_write_raw(path, text, 0);
	return err ? tracefs_write_fail(path, text, err) : TK_OK;
}

enum tk_status tracefs_clear(struct tracefs_instance *ti)
{
	char path[TRACEFS_PATH_MAX];
	enum tk_status st;
	int err;

	TK_ASSERT_PRE(ti);
	st = tracefs_instance_path(ti, "trace", path, sizeof(path));
	if (st < 0)
		return st;
	/* opening `trace` with O_TRUNC empties the buffers */
	err = tracefs_write_raw(path, "", 1);
	return err ? tracefs_write_fail(path, "", err) : TK_OK;
}
