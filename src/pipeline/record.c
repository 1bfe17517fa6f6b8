// SPDX-License-Identifier: MIT
/*
 * Recording (include/tracekit/record.h): the glue between tracefs control and the per-CPU
 * recorder (src/ftrace) and the trace.dat writer (src/tracedat). It lives here, with the
 * other entry points that span formats, because the recorder must not know trace.dat and
 * the writer must not know tracefs.
 *
 * What goes into the file follows `trace-cmd record`: header_page and header_event, every
 * format of the ftrace system, the formats of the events enabled in the recorded buffer
 * (grouped by system), /proc/kallsyms, printk_formats and saved_cmdlines read after
 * recording, the buffer's trace_clock, one CPUSTAT option per CPU ("CPU: N" then its stats
 * file), UNAME and VERSION; then each CPU's pages. The per-CPU pages wait in temporary files
 * with no name in the output's directory, so a disk that fills up fails while recording, not
 * later, and a killed recorder leaves nothing behind; the trace.dat file itself is named only
 * when complete.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <tracekit/record.h>
#include <tracekit/tracekit.h>

#include "../common/bytes.h"
#include "../common/error.h"
#include "../ftrace/page.h"
#include "../ftrace/recorder.h"
#include "../ftrace/tracefs.h"
#include "../ftrace/tsc.h"
#include "../tracedat/tracedat-write.h"
#include "../tracedat/tracedat.h"

#ifndef TK_VERSION
#define TK_VERSION "0.0.0"
#endif

struct rec_cpu_info {
	uint32_t cpu;
	char *stats; /* per_cpu/cpuN/stats after stopping, NUL-terminated */
	struct tk_record_cpu_stats st;
};

struct tk_recording {
	const char *mount;
	struct tracefs_instance *ti;
	struct tracefs_instance *global; /* the top level, for what only it has: probes and
					    max_graph_depth; closed after @ti */
	char *instance;			 /* @ti's name, NULL for the top level */
	int functions;			 /* a tracer runs: set_ftrace_*pid too */
	char *output;
	char *tmp_dir; /* the output's directory, where the per-CPU pages wait */
	unsigned int version;
	enum tracedat_compression comp;
	uint32_t page_size;
	uint32_t ncpus; /* the machine's CPU count (highest CPU + 1) */
	struct rec_cpu_info *cpus;
	size_t n_cpus;
	struct ftrace_recorder *recorder;
	int started, stopped;
	int date;		/* --date: a DATE option from a marker */
	int64_t date_offset_ns; /* ... or this offset (tk_record_opts.date_offset_ns) */
	char marker[64];	/* its text */
	int64_t marker_real_ns; /* wall-clock time it was written at */
	int tsc2nsec;		/* on x86-tsc: a TSC2NSEC option with @tsc */
	struct ftrace_tsc tsc;
};

#define PROBE_GROUP "tracekit" /* the event system of --kprobe and its kin */

/* Does the caller's options struct reach @field? (Options grow; older callers pass less.) */
#define OPT(o, field) ((o)->size >= offsetof(struct tk_record_opts, field) + sizeof((o)->field))

/* ---- helpers ------------------------------------------------------------------------------ */

static enum tk_status read_path(const char *path, char **out, size_t *size)
{
	return tracefs_read_file(path, out, size);
}

/* @dir/@rel read whole. */
static enum tk_status read_rel(const char *dir, const char *rel, char **out, size_t *size)
{
	char path[4096];

	if ((size_t) snprintf(path, sizeof(path), "%s/%s", dir, rel) >= sizeof(path))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot read tracefs file: name=%s, reason=path too long", rel);
	return read_path(path, out, size);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return x < y ? -1 : x > y;
}

/* The CPUs of the buffer: its per_cpu/cpuN directories, sorted. */
static enum tk_status list_cpus(struct tk_recording *rec)
{
	const char *dir = tracefs_instance_dir(rec->ti);
	char path[4096];
	uint32_t *cpus = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/per_cpu", dir);
	d = opendir(path);
	if (!d)
		return TK_FAIL(TK_ERR_IO, "Cannot list CPUs: path=%s, errno=%s", path,
			       strerror(errno));
	while ((de = readdir(d))) {
		char *end;
		unsigned long c;

		if (strncmp(de->d_name, "cpu", 3) || !isdigit((unsigned char) de->d_name[3]))
			continue;
		c = strtoul(de->d_name + 3, &end, 10);
		if (*end || c > 65535)
			continue;
		if (n == cap) {
			uint32_t *nc = realloc(cpus, (cap ? cap * 2 : 16) * sizeof(*cpus));

			if (!nc) {
				free(cpus);
				closedir(d);
				return TK_FAIL(TK_ERR_NOMEM, "Cannot list CPUs: path=%s", path);
			}
			cpus = nc;
			cap = cap ? cap * 2 : 16;
		}
		cpus[n++] = (uint32_t) c;
	}
	closedir(d);
	if (!n) {
		free(cpus);
		return TK_FAIL(TK_ERR_NOTFOUND, "Cannot list CPUs: path=%s, reason=no cpuN entries",
			       path);
	}
	qsort(cpus, n, sizeof(*cpus), cmp_u32);
	rec->cpus = calloc(n, sizeof(*rec->cpus));
	if (!rec->cpus) {
		free(cpus);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot list CPUs: path=%s", path);
	}
	for (i = 0; i < n; i++) {
		rec->cpus[i].cpu = cpus[i];
		rec->cpus[i].st.cpu = cpus[i];
	}
	rec->n_cpus = n;
	rec->ncpus = cpus[n - 1] + 1;
	free(cpus);
	return TK_OK;
}

/* The ring buffer's sub-buffer size: buffer_subbuf_size_kb where the kernel has it. */
static uint32_t subbuf_size(const struct tk_recording *rec)
{
	char *text = NULL;
	size_t len;
	unsigned long kb;
	long ps = sysconf(_SC_PAGESIZE);

	if (read_rel(tracefs_instance_dir(rec->ti), "buffer_subbuf_size_kb", &text, &len) < 0) {
		error_reset();
		return ps > 0 ? (uint32_t) ps : 4096;
	}
	kb = strtoul(text, NULL, 10);
	free(text);
	if (kb == 0 || kb > 65536 || (kb & (kb - 1)))
		return ps > 0 ? (uint32_t) ps : 4096;
	return (uint32_t) kb * 1024;
}

static uint64_t stat_value(const char *text, const char *key)
{
	size_t k = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, k) && p[k] == ':')
			return strtoull(p + k + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/* ---- open, start, stop -------------------------------------------------------------------- */

static enum tk_status recording_free(struct tk_recording *rec);

/*
 * Can @ti run the tracer of @o with its function lists? Kernels before 6.11 run
 * function_graph only at the top level; later ones run it in instances too, but keep
 * set_graph_function (-g) there only, and some build no function lists for instances.
 */
static int tracer_runs_in(const struct tracefs_instance *ti, const struct tk_record_opts *o)
{
	if (!tracefs_has_tracer(ti, o->tracer))
		return 0;
	if (OPT(o, n_functions) && o->n_functions && !tracefs_has_file(ti, "set_ftrace_filter"))
		return 0;
	if (OPT(o, n_notrace) && o->n_notrace && !tracefs_has_file(ti, "set_ftrace_notrace"))
		return 0;
	return !(OPT(o, n_graph_functions) && o->n_graph_functions &&
		 !tracefs_has_file(ti, "set_graph_function"));
}

static enum tk_status open_buffer(struct tk_recording *rec, const struct tk_record_opts *o)
{
	struct tracefs_instance *top = NULL;
	char name[64];
	enum tk_status st;

	if (o->top)
		return tracefs_instance_open(&rec->ti, rec->mount, NULL, 0);
	if (o->instance) {
		st = tracefs_instance_open(&rec->ti, rec->mount, o->instance, 0);
		if (st < 0) {
			error_reset();
			st = tracefs_instance_open(&rec->ti, rec->mount, o->instance,
						   TRACEFS_CREATE);
		}
		if (st >= 0 && !(rec->instance = strdup(o->instance)))
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot record");
		return st;
	}
	snprintf(name, sizeof(name), "tracekit-%ld", (long) getpid());
	/* a tracer the kernel runs only at the top level takes the private buffer's place */
	st = tracefs_instance_open(&rec->ti, rec->mount, name, TRACEFS_CREATE);
	if (st >= 0 && OPT(o, tracer) && o->tracer && !tracer_runs_in(rec->ti, o)) {
		st = tracefs_instance_open(&top, rec->mount, NULL, 0);
		if (st >= 0 && tracer_runs_in(top, o)) {
			(void) tracefs_instance_close(rec->ti);
			rec->ti = top;
			return TK_OK;
		}
		(void) tracefs_instance_close(top); /* set_tracer() will say what there is */
	}
	if (st >= 0 && !(rec->instance = strdup(name)))
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot record");
	return st;
}

/* The top-level handle for global files, opened once. */
static enum tk_status global_handle(struct tk_recording *rec)
{
	if (rec->global)
		return TK_OK;
	return tracefs_instance_open(&rec->global, rec->mount, NULL, 0);
}

/* Add each probe (event tracekit:NAME) and enable it in the recorded buffer. */
static enum tk_status add_probes(struct tk_recording *rec, const struct tk_record_opts *o)
{
	static const enum tracefs_probe_kind kinds[] = {
		[TK_RECORD_KPROBE] = TRACEFS_PROBE_KPROBE,
		[TK_RECORD_KRETPROBE] = TRACEFS_PROBE_KRETPROBE,
		[TK_RECORD_UPROBE] = TRACEFS_PROBE_UPROBE,
		[TK_RECORD_URETPROBE] = TRACEFS_PROBE_URETPROBE,
	};
	enum tk_status st = TK_OK;
	char name[128], spec[160];
	size_t i;

	if (!OPT(o, n_probes) || !o->n_probes)
		return TK_OK;
	st = global_handle(rec);
	for (i = 0; st >= 0 && i < o->n_probes; i++) {
		const struct tk_record_probe *p = &o->probes[i];

		if ((unsigned int) p->kind > TK_RECORD_URETPROBE || !p->spec)
			return TK_FAIL(TK_ERR_INVAL, "Cannot add probe: index=%zu, kind=%d", i,
				       (int) p->kind);
		st = tracefs_add_probe(rec->global, kinds[p->kind], PROBE_GROUP, p->spec, name,
				       sizeof(name));
		snprintf(spec, sizeof(spec), PROBE_GROUP ":%s", name);
		if (st >= 0)
			st = tracefs_enable_events(rec->ti, spec, NULL);
	}
	return st;
}

/* -l, -n, -g, --max-graph-depth, -O, -p: in that order, so the tracer starts filtered. */
static enum tk_status set_functions(struct tk_recording *rec, const struct tk_record_opts *o)
{
	enum tk_status st = TK_OK;
	char depth[32];
	size_t i;

	/* a tracer the buffer lacks is the first thing to say */
	if (OPT(o, tracer) && o->tracer && !tracefs_has_tracer(rec->ti, o->tracer))
		return tracefs_set_tracer(rec->ti, o->tracer);
	if (OPT(o, n_functions) && o->n_functions)
		st = tracefs_set_functions(rec->ti, "set_ftrace_filter", o->functions,
					   o->n_functions);
	if (st >= 0 && OPT(o, n_notrace) && o->n_notrace)
		st = tracefs_set_functions(rec->ti, "set_ftrace_notrace", o->notrace, o->n_notrace);
	if (st >= 0 && OPT(o, n_graph_functions) && o->n_graph_functions)
		st = tracefs_set_functions(rec->ti, "set_graph_function", o->graph_functions,
					   o->n_graph_functions);
	if (st >= 0 && OPT(o, max_graph_depth) && o->max_graph_depth) {
		/* one for the whole kernel: the top level holds it */
		snprintf(depth, sizeof(depth), "%u", o->max_graph_depth);
		st = global_handle(rec);
		if (st >= 0)
			st = tracefs_set_value(rec->global, "max_graph_depth", depth);
	}
	if (st >= 0 && OPT(o, tracer) && o->tracer) {
		rec->functions = 1;
		st = tracefs_set_tracer(rec->ti, o->tracer);
	}
	for (i = 0; st >= 0 && OPT(o, n_trace_options) && i < o->n_trace_options; i++)
		st = tracefs_set_option(rec->ti, o->trace_options[i]);
	return st;
}

static enum tk_status check_opts(struct tk_recording *rec, const struct tk_record_opts *o)
{
	const char *comp = o->compression ? o->compression : "zstd";
	const char *out = o->output ? o->output : "trace.dat";
	struct stat sb;

	/* refused now, not after the recording it would have held */
	if (stat(out, &sb) == 0 && !S_ISREG(sb.st_mode))
		return TK_FAIL(TK_ERR_INVAL, "Cannot record: output=%s, reason=not a regular file",
			       out);
	if ((!o->n_events || !o->events) && !(OPT(o, tracer) && o->tracer) &&
	    !(OPT(o, n_probes) && o->n_probes))
		return TK_FAIL(TK_ERR_INVAL, "Cannot record: reason=no events given (use -e, e.g. "
					     "-e sched, or a tracer or a probe)");
	if (o->file_version != 6 && o->file_version != 7)
		return TK_FAIL(TK_ERR_INVAL, "Cannot record: file-version=%u, reason=not 6 or 7",
			       o->file_version);
	if (!strcmp(comp, "none"))
		rec->comp = TRACEDAT_COMP_NONE;
	else if (!strcmp(comp, "zstd"))
		rec->comp = TRACEDAT_COMP_ZSTD;
	else if (!strcmp(comp, "zlib"))
		rec->comp = TRACEDAT_COMP_ZLIB;
	else
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot record: compression=%s, reason=not none, zstd or zlib",
			       comp);
	if (o->file_version == 6 && rec->comp != TRACEDAT_COMP_NONE) {
		if (o->compression)
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot record: compression=%s, file-version=6, "
				       "reason=version 6 files are not compressed",
				       comp);
		rec->comp = TRACEDAT_COMP_NONE;
	}
	rec->version = o->file_version;
	/* x86-tsc counts cycles: readers get nanoseconds through TSC2NSEC (trace-cmd's tsc2nsec) */
	if (o->clock && (!strcmp(o->clock, "x86-tsc") || !strcmp(o->clock, "tsc2nsec"))) {
		enum tk_status st = ftrace_tsc_probe(&rec->tsc);

		if (st < 0)
			return TK_FAIL(st, "Cannot record: clock=%s", o->clock);
		rec->tsc2nsec = 1;
	}
	return TK_OK;
}

enum tk_status tk_recording_open(struct tk_recording **out, const struct tk_record_opts *o)
{
	struct tk_recording *rec;
	enum tk_status st;
	size_t i, n;

	error_reset();
	TK_ASSERT_PRE(out && o && o->size >= sizeof(size_t));
	rec = calloc(1, sizeof(*rec));
	if (!rec)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot record");
	st = check_opts(rec, o);
	if (st >= 0) {
		const char *path = o->output ? o->output : "trace.dat";
		char *copy = strdup(path);

		rec->output = strdup(path);
		rec->tmp_dir = copy ? strdup(dirname(copy)) : NULL;
		free(copy);
		if (!rec->output || !rec->tmp_dir)
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot record");
	}
	if (st >= 0)
		st = tracefs_find_mount(&rec->mount);
	if (st >= 0) {
		/* probes a killed tracekit left, as open_buffer() removes its instance */
		tracefs_remove_stale_probes(rec->mount, PROBE_GROUP);
		st = open_buffer(rec, o);
	}
	/* quiet while it is set up: tracing off, then the settings, then an empty buffer */
	if (st >= 0)
		st = tracefs_set_tracing_on(rec->ti, 0);
	if (st >= 0)
		st = add_probes(rec, o);
	/* tracefs's causes name the spec and the filter */
	for (i = 0; st >= 0 && i < o->n_events; i++)
		st = tracefs_enable_events(rec->ti, o->events[i], &n);
	for (i = 0; st >= 0 && i < o->n_filters; i++)
		st = tracefs_set_filter(rec->ti, o->filters[i].events, o->filters[i].filter);
	if (st >= 0)
		st = set_functions(rec, o);
	if (st >= 0 && o->buffer_kib)
		st = tracefs_set_buffer_kib(rec->ti, o->buffer_kib);
	if (st >= 0 && o->clock)
		st = tracefs_set_clock(rec->ti, rec->tsc2nsec ? "x86-tsc" : o->clock);
	if (st >= 0)
		st = tracefs_clear(rec->ti);
	if (st >= 0)
		st = list_cpus(rec);
	if (st < 0) {
		st = TK_FAIL(st, "Cannot prepare recording: output=%s",
			     o->output ? o->output : "trace.dat");
		(void) recording_free(rec); /* its causes, if any, follow ours */
		return st;
	}
	rec->page_size = subbuf_size(rec);
	rec->date = o->size >= offsetof(struct tk_record_opts, date) + sizeof(o->date) && o->date;
	if (o->size >= offsetof(struct tk_record_opts, date_offset_ns) + sizeof(o->date_offset_ns))
		rec->date_offset_ns = o->date_offset_ns;
	/*
	 * on x86-tsc, DATE pairs CLOCK_REALTIME with the TSC read beside it and converted as
	 * readers will: exact, where a marker's time would have to be converted too
	 */
	if (rec->date && !rec->date_offset_ns && rec->tsc2nsec)
		rec->date_offset_ns = ftrace_tsc_realtime_offset(&rec->tsc);
	*out = rec;
	return TK_OK;
}

enum tk_status tk_recording_set_pids(struct tk_recording *rec, const pid_t *pids, size_t n,
				     int follow)
{
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(rec && !rec->started && (pids || !n));
	st = tracefs_set_event_pids(rec->ti, pids, n, follow);
	if (st >= 0 && rec->functions)
		st = tracefs_set_ftrace_pids(rec->ti, pids, n, follow);
	return st;
}

/*
 * Keep tracekit's own events out, as trace-cmd does: this thread (which waits for the command
 * and later writes the file) and every reader thread go to the kernel's notrace pid lists,
 * or, before 5.8, to every enabled event's filter (function records cannot be filtered so
 * there, and keep the readers' few functions).
 */
static enum tk_status exclude_self(struct tk_recording *rec)
{
	enum tk_status st;
	pid_t *tids;
	size_t i;

	tids = calloc(rec->n_cpus + 1, sizeof(*tids));
	if (!tids)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot start recording");
	tids[0] = gettid();
	for (i = 0; i < rec->n_cpus; i++)
		tids[i + 1] = ftrace_recorder_tid(rec->recorder, i);
	st = tracefs_exclude_pids(rec->ti, tids, rec->n_cpus + 1, rec->functions);
	if (st == TK_ERR_UNSUPPORTED) {
		error_reset();
		st = tracefs_filter_out_pids(rec->ti, tids, rec->n_cpus + 1);
	}
	free(tids);
	return st;
}

enum tk_status tk_recording_start(struct tk_recording *rec)
{
	uint32_t *cpus;
	enum tk_status st;
	size_t i;

	error_reset();
	TK_ASSERT_PRE(rec && !rec->started);
	cpus = calloc(rec->n_cpus, sizeof(*cpus));
	if (!cpus)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot start recording");
	for (i = 0; i < rec->n_cpus; i++)
		cpus[i] = rec->cpus[i].cpu;
	st = ftrace_recorder_start(&rec->recorder, tracefs_instance_dir(rec->ti), cpus, rec->n_cpus,
				   rec->page_size, rec->tmp_dir);
	free(cpus);
	if (st >= 0) {
		rec->started = 1;
		st = exclude_self(rec);
	}
	if (st >= 0)
		st = tracefs_set_tracing_on(rec->ti, 1);
	if (st >= 0 && rec->date && !rec->date_offset_ns) {
		/* a marker whose trace time, found when writing, pairs with this wall time */
		struct timespec a, b;

		snprintf(rec->marker, sizeof(rec->marker), "tracekit-date-sync %ld",
			 (long) getpid());
		clock_gettime(CLOCK_REALTIME, &a);
		st = tracefs_write_marker(rec->ti, rec->marker);
		clock_gettime(CLOCK_REALTIME, &b);
		rec->marker_real_ns = ((int64_t) a.tv_sec * 1000000000 + a.tv_nsec +
				       (int64_t) b.tv_sec * 1000000000 + b.tv_nsec) /
				      2;
	}
	if (st < 0)
		return TK_FAIL(st, "Cannot start recording: output=%s", rec->output);
	return TK_OK;
}

enum tk_status tk_recording_stop(struct tk_recording *rec)
{
	const char *dir;
	enum tk_status st, st2;
	size_t i;

	error_reset();
	TK_ASSERT_PRE(rec && rec->started);
	if (rec->stopped)
		return TK_OK;
	rec->stopped = 1;
	st = tracefs_set_tracing_on(rec->ti, 0);
	st2 = ftrace_recorder_stop(rec->recorder);
	if (st >= 0)
		st = st2;
	dir = tracefs_instance_dir(rec->ti);
	for (i = 0; i < rec->n_cpus; i++) {
		struct rec_cpu_info *c = &rec->cpus[i];
		char rel[64];
		size_t len;

		c->st.bytes = ftrace_recorder_bytes(rec->recorder, i);
		snprintf(rel, sizeof(rel), "per_cpu/cpu%" PRIu32 "/stats", c->cpu);
		if (read_rel(dir, rel, &c->stats, &len) < 0) {
			error_reset();
			continue;
		}
		c->st.entries = stat_value(c->stats, "entries");
		c->st.overrun = stat_value(c->stats, "overrun");
		c->st.commit_overrun = stat_value(c->stats, "commit overrun");
		c->st.dropped = stat_value(c->stats, "dropped events");
		c->st.read = stat_value(c->stats, "read events");
	}
	if (st < 0)
		return TK_FAIL(st, "Cannot stop recording: output=%s", rec->output);
	return TK_OK;
}

/* ---- the trace.dat file -------------------------------------------------------------------- */

/* Add the format of every event of @list whose enable file in @dir reads 1 (or, @all, every
 * event of the list), through @add. */
static enum tk_status add_formats(struct tk_recording *rec, struct tracedat_writer *w,
				  const char *glob, int ftrace)
{
	struct tracefs_event_list list = {0};
	const char *dir = tracefs_instance_dir(rec->ti);
	enum tk_status st;
	size_t i;

	st = tracefs_list_events(rec->mount, glob, &list);
	for (i = 0; st >= 0 && i < list.n; i++) {
		const struct tracefs_event *e = &list.events[i];
		char rel[1024], *text = NULL;
		size_t len;

		if (!ftrace) {
			if (!strcmp(e->system, "ftrace"))
				continue;
			snprintf(rel, sizeof(rel), "events/%s/%s/enable", e->system, e->name);
			if (read_rel(dir, rel, &text, &len) < 0) {
				error_reset();
				continue;
			}
			len = text[0] == '1';
			free(text);
			text = NULL;
			if (!len)
				continue;
		}
		snprintf(rel, sizeof(rel), "events/%s/%s/format", e->system, e->name);
		st = read_rel(rec->mount, rel, &text, &len);
		if (st < 0)
			break;
		st = ftrace ? tracedat_writer_add_ftrace_format(w, text, len)
			    : tracedat_writer_add_event_format(w, e->system, text, len);
		free(text);
	}
	tracefs_event_list_fini(&list);
	return st;
}

/* A whole file into the writer through @set; a missing file is written empty. */
static enum tk_status add_file(struct tracedat_writer *w, const char *path,
			       enum tk_status (*set)(struct tracedat_writer *, const void *,
						     size_t))
{
	char *text = NULL;
	size_t len = 0;
	enum tk_status st;

	if (read_path(path, &text, &len) < 0) {
		error_reset();
		return set(w, "", 0);
	}
	st = set(w, text, len);
	free(text);
	return st;
}

/* "ID: N" and the offset of the "buf" field of events/ftrace/print/format. */
static int print_event_layout(const char *mount, uint32_t *id, uint32_t *buf_off)
{
	char path[4096], *text = NULL, *p;
	size_t len;
	int ok = 0;

	snprintf(path, sizeof(path), "%s/events/ftrace/print/format", mount);
	if (read_path(path, &text, &len) < 0) {
		error_reset();
		return 0;
	}
	p = strstr(text, "\nID: ");
	if (p) {
		*id = (uint32_t) strtoul(p + 5, NULL, 10);
		p = strstr(text, " buf[");
		p = p ? strstr(p, "offset:") : NULL;
		if (p) {
			*buf_off = (uint32_t) strtoul(p + 7, NULL, 10);
			ok = 1;
		}
	}
	free(text);
	return ok;
}

/*
 * --date: the trace time of the marker written at start, looked for among the first pages
 * of each CPU (it was written right after tracing went on), as the DATE option trace-cmd
 * writes: the wall-clock time minus the trace time, in microseconds, as "0x%llx" text.
 * Nothing is added when the marker is not found (the summary does not depend on it).
 */
static enum tk_status add_date(struct tk_recording *rec, struct tracedat_writer *w)
{
	struct ftrace_page_layout layout;
	uint32_t id, buf_off;
	char path[4096], *hp = NULL;
	size_t len, i, k, mlen = strlen(rec->marker);
	uint8_t *page;
	int found = 0;
	uint64_t ts = 0;

	snprintf(path, sizeof(path), "%s/events/header_page", rec->mount);
	if (!print_event_layout(rec->mount, &id, &buf_off) || read_path(path, &hp, &len) < 0 ||
	    ftrace_page_layout_parse(hp, len, &layout) < 0) {
		free(hp);
		error_reset();
		return TK_OK;
	}
	free(hp);
	page = malloc(rec->page_size);
	if (!page)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot find the date marker");
	for (i = 0; i < rec->n_cpus && !found; i++) {
		int fd = ftrace_recorder_fd(rec->recorder, i);

		for (k = 0; k < 64 && !found; k++) {
			struct ftrace_page pg;
			struct ftrace_record r;
			ssize_t n = pread(fd, page, rec->page_size, (off_t) (k * rec->page_size));

			if (n != (ssize_t) rec->page_size ||
			    ftrace_page_init(&pg, &layout, TK_BYTE_ORDER_HOST, page, (size_t) n) <
				    0)
				break;
			while (!found && ftrace_page_next(&pg, &r) == TK_OK) {
				if (r.size < buf_off + mlen ||
				    tk_load_u16(r.data, TK_BYTE_ORDER_HOST) != id ||
				    memcmp(r.data + buf_off, rec->marker, mlen))
					continue;
				found = 1;
				ts = r.ts;
			}
		}
	}
	free(page);
	error_reset();
	if (!found)
		return TK_OK;
	snprintf(path, sizeof(path), "0x%llx",
		 (unsigned long long) (rec->marker_real_ns / 1000 - (int64_t) (ts / 1000)));
	return tracedat_writer_add_option(w, TRACEDAT_OPTION_DATE, path, strlen(path) + 1);
}

static enum tk_status write_options(struct tk_recording *rec, struct tracedat_writer *w)
{
	struct utsname u;
	char buf[1024];
	enum tk_status st = TK_OK;
	size_t i;

	if (uname(&u) == 0) {
		snprintf(buf, sizeof(buf), "%s %s %s %s", u.sysname, u.nodename, u.release,
			 u.machine);
		st = tracedat_writer_add_option(w, TRACEDAT_OPTION_UNAME, buf, strlen(buf) + 1);
	}
	snprintf(buf, sizeof(buf), "tracekit %s", TK_VERSION);
	if (st >= 0)
		st = tracedat_writer_add_option(w, TRACEDAT_OPTION_VERSION, buf, strlen(buf) + 1);
	for (i = 0; st >= 0 && i < rec->n_cpus; i++) {
		const struct rec_cpu_info *c = &rec->cpus[i];
		char *text;
		size_t len;

		if (!c->stats)
			continue;
		len = strlen(c->stats) + 32;
		text = malloc(len);
		if (!text)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot write CPU statistics");
		len = (size_t) snprintf(text, len, "CPU: %" PRIu32 "\n%s", c->cpu, c->stats);
		st = tracedat_writer_add_option(w, TRACEDAT_OPTION_CPUSTAT, text, len + 1);
		free(text);
	}
	return st;
}

/*
 * The TSC2NSEC option (reference section 3): u32 mult, u32 shift, u64 offset, in the file's
 * byte order (the machine's). The offset is 0, as trace-cmd 3.x writes it: its readers ignore
 * it, and DATE carries the wall-clock offset.
 */
static enum tk_status add_tsc2nsec(const struct tk_recording *rec, struct tracedat_writer *w)
{
	uint8_t data[16];

	tk_store_u32(data, rec->tsc.mult, TK_BYTE_ORDER_HOST);
	tk_store_u32(data + 4, rec->tsc.shift, TK_BYTE_ORDER_HOST);
	tk_store_u64(data + 8, 0, TK_BYTE_ORDER_HOST);
	return tracedat_writer_add_option(w, TRACEDAT_OPTION_TSC2NSEC, data, sizeof(data));
}

static enum tk_status write_file(struct tk_recording *rec)
{
	struct tracedat_write_opts o = TRACEDAT_WRITE_OPTS_INIT;
	const char *dir = tracefs_instance_dir(rec->ti);
	struct tracedat_writer *w = NULL;
	char path[4096];
	enum tk_status st;
	size_t i;

	o.version = rec->version;
	o.comp = rec->comp;
	o.bo = TK_BYTE_ORDER_HOST;
	o.long_size = sizeof(long);
	o.page_size = rec->page_size;
	st = tracedat_writer_open(&w, rec->output, &o);
	if (st < 0)
		return st;
	snprintf(path, sizeof(path), "%s/events/header_page", rec->mount);
	st = add_file(w, path, tracedat_writer_set_header_page);
	snprintf(path, sizeof(path), "%s/events/header_event", rec->mount);
	if (st >= 0)
		st = add_file(w, path, tracedat_writer_set_header_event);
	if (st >= 0)
		st = add_formats(rec, w, "ftrace:*", 1);
	if (st >= 0)
		st = add_formats(rec, w, NULL, 0);
	if (st >= 0)
		st = add_file(w, "/proc/kallsyms", tracedat_writer_set_kallsyms);
	snprintf(path, sizeof(path), "%s/printk_formats", rec->mount);
	if (st >= 0)
		st = add_file(w, path, tracedat_writer_set_printk);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", rec->mount);
	if (st >= 0)
		st = add_file(w, path, tracedat_writer_set_cmdlines);
	snprintf(path, sizeof(path), "%s/trace_clock", dir);
	if (st >= 0 && rec->tsc2nsec) {
		/* as trace-cmd: the clock readers see is the converted one */
		st = tracedat_writer_set_trace_clock(w, "[tsc2nsec]", strlen("[tsc2nsec]"));
		if (st >= 0)
			st = add_tsc2nsec(rec, w);
	} else if (st >= 0) {
		st = add_file(w, path, tracedat_writer_set_trace_clock);
	}
	if (st >= 0 && rec->date && rec->date_offset_ns) {
		char text[32];

		snprintf(text, sizeof(text), "0x%llx",
			 (unsigned long long) (rec->date_offset_ns / 1000));
		st = tracedat_writer_add_option(w, TRACEDAT_OPTION_DATE, text, strlen(text) + 1);
	} else if (st >= 0 && rec->date) {
		st = add_date(rec, w);
	}
	if (st >= 0)
		st = write_options(rec, w);
	if (st >= 0)
		st = tracedat_writer_set_cpus(w, rec->ncpus);
	for (i = 0; st >= 0 && i < rec->n_cpus; i++) {
		if (!ftrace_recorder_bytes(rec->recorder, i))
			continue;
		st = tracedat_writer_cpu_begin(w, rec->cpus[i].cpu);
		if (st >= 0)
			st = tracedat_writer_cpu_fd(w, ftrace_recorder_fd(rec->recorder, i));
		if (st >= 0)
			st = tracedat_writer_cpu_end(w);
	}
	if (st < 0) {
		tracedat_writer_destroy(w);
		return st;
	}
	return tracedat_writer_close(w);
}

enum tk_status tk_recording_write(struct tk_recording *rec)
{
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(rec && rec->stopped);
	st = write_file(rec); /* the file gets its name only when complete */
	if (st < 0)
		return TK_FAIL(st, "Cannot write trace.dat: path=%s", rec->output);
	return TK_OK;
}

size_t tk_recording_get_cpu_count(const struct tk_recording *rec)
{
	return rec ? rec->n_cpus : 0;
}

enum tk_status tk_recording_get_cpu_stats(const struct tk_recording *rec, size_t i,
					  struct tk_record_cpu_stats *out)
{
	error_reset();
	TK_ASSERT_PRE(rec && out && rec->stopped && i < rec->n_cpus);
	*out = rec->cpus[i].st;
	return TK_OK;
}

const char *tk_recording_get_instance(const struct tk_recording *rec)
{
	return rec ? rec->instance : NULL;
}

const char *tk_recording_get_output(const struct tk_recording *rec)
{
	return rec ? rec->output : NULL;
}

int64_t tk_recording_get_date_offset(const struct tk_recording *rec)
{
	return rec && rec->date ? rec->date_offset_ns : 0;
}

int tk_recording_get_tsc2nsec(const struct tk_recording *rec, uint32_t *mult, uint32_t *shift)
{
	if (!rec || !rec->tsc2nsec)
		return 0;
	if (mult)
		*mult = rec->tsc.mult;
	if (shift)
		*shift = rec->tsc.shift;
	return 1;
}

/* Stop, restore, remove and free, adding causes to the chain as it is. */
static enum tk_status recording_free(struct tk_recording *rec)
{
	enum tk_status st, st2;
	size_t i;

	if (!rec)
		return TK_OK;
	/* the readers hold trace_pipe_raw open, which keeps an instance from being removed */
	ftrace_recorder_destroy(rec->recorder);
	st = tracefs_instance_close(rec->ti);
	/* after the buffer, which no longer enables the probes: the kernel now removes them */
	st2 = tracefs_instance_close(rec->global);
	if (st >= 0)
		st = st2;
	free(rec->instance);
	for (i = 0; i < rec->n_cpus; i++)
		free(rec->cpus[i].stats);
	free(rec->cpus);
	free(rec->output);
	free(rec->tmp_dir);
	free(rec);
	return st;
}

enum tk_status tk_recording_close(struct tk_recording *rec)
{
	error_reset();
	return recording_free(rec);
}

/* ---- the kernel's events ------------------------------------------------------------------- */

enum tk_status tk_kernel_events_list(const char *glob, tk_kernel_event_cb cb, void *payload)
{
	struct tracefs_event_list list = {0};
	enum tk_status st;
	size_t i;

	error_reset();
	TK_ASSERT_PRE(cb);
	st = tracefs_list_events(NULL, glob, &list);
	if (st < 0)
		return st;
	for (i = 0; i < list.n; i++)
		if (cb(list.events[i].system, list.events[i].name, payload))
			break;
	tracefs_event_list_fini(&list);
	return TK_OK;
}

enum tk_status tk_kernel_event_format(const char *system, const char *name, int fd)
{
	const char *mount;
	char rel[1024], *text = NULL, *p;
	size_t len;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(system && name);
	st = tracefs_find_mount(&mount);
	if (st < 0)
		return st;
	if (strchr(system, '/') || strchr(name, '/') || !strcmp(system, "..") ||
	    !strcmp(name, ".."))
		return TK_FAIL(TK_ERR_NOTFOUND, "Cannot find event: system=%s, name=%s", system,
			       name);
	snprintf(rel, sizeof(rel), "events/%s/%s/format", system, name);
	st = read_rel(mount, rel, &text, &len);
	if (st < 0)
		return TK_FAIL(TK_ERR_NOTFOUND, "Cannot find event: system=%s, name=%s", system,
			       name);
	for (p = text; len;) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			st = TK_FAIL(TK_ERR_IO, "Cannot write event format: errno=%s",
				     strerror(w < 0 ? errno : EIO));
			break;
		}
		p += w;
		len -= (size_t) w;
	}
	free(text);
	return st;
}
