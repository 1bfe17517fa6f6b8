// SPDX-License-Identifier: MIT
/*
 * The Chrome trace-event format (the JSON object form that chrome://tracing, Perfetto UI and
 * catapult load), so a trace can be looked at on a timeline without another converter.
 *
 * Two kinds of tracks (the layout is documented in include/tracekit/print.h):
 *
 *   - one per CPU, in a process of their own ("CPUs"), holding what ran there: each
 *     sched_switch event ends the slice of the task that was running and starts one named
 *     after next_comm, which the next sched_switch on that CPU ends (the last one ends at
 *     the time of the last event printed); losses are marked there too;
 *   - one per task (trace.dat: common_pid; CTF: a tid or vtid context field), holding the
 *     task's other events as instant events with their fields as args. Events without a
 *     task, and those of pid 0 (the per-CPU idle tasks), go to their CPU's track.
 *
 * Tracks are named with metadata events: CPUs as "CPU N"; tasks after the first comm seen
 * for them (comm/pid field pairs such as prev_comm/prev_pid, or the saved command lines of
 * a trace.dat file), renamed by sched_process_exec and task_rename. Everything an event
 * needs is found once per event class (field positions by name) and read per event by
 * index, and slices are written when they end, so nothing is kept per event. The document
 * is closed by tk_printer_close(), also after an error, so it is always valid JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "../model/walk.h"
#include "json.h"
#include "pretty.h"
#include "sink.h"

/* Tracks of CPUs: above every Linux pid and tid (PID_MAX_LIMIT is 2^22). */
#define CPU_PID	   INT64_C(4194304)
#define CPU_TID(c) (CPU_PID + 1 + (c)) /* the unknown CPU (-1) is CPU_PID itself */
#define MAX_CPU	   65536
#define COMM_MAX   64 /* bytes of a slice name kept (task comms have 15) */
#define EXEC_COMM  15 /* a comm after exec: the file's base name cut like the kernel's */
#define MAX_PAIRS  6

enum class_kind {
	KIND_OTHER,
	KIND_SWITCH, /* sched_switch: per-CPU slices */
	KIND_EXEC,   /* sched_process_exec: renames pid after filename */
	KIND_RENAME, /* task_rename: renames pid to newcomm */
};

/* A value found by name: index in a scope's values, or idx < 0 when absent. */
struct ref {
	int32_t scope;
	int32_t idx;
	uint8_t is_signed;
};

/* A comm/pid pair of an event's payload that names a task. */
struct pair {
	struct ref comm;
	struct ref pid;
};

struct chrome_class {
	const struct tk_event_class *ec;
	uint8_t kind;	       /* enum class_kind */
	struct ref common_pid; /* trace.dat: the task, from the common fields */
	struct ref tid, pid;   /* CTF: contexts */
	struct ref next_comm, next_pid, rename_comm, rename_pid;
	struct pair pairs[MAX_PAIRS];
	uint32_t n_pairs;
};

struct cpu_state {
	uint8_t named;
	uint8_t open; /* a slice runs since start */
	int64_t start;
	int64_t pid;
	uint32_t comm_len;
	char comm[COMM_MAX];
};

struct task {
	int64_t tid;
	int64_t pid; /* process of the track, tid until an event says otherwise */
	uint8_t used;
	uint8_t named;
	uint8_t looked; /* saved command lines looked up */
};

struct chrome_state {
	uint8_t started;
	uint8_t finished;
	uint8_t unknown_named;
	uint8_t has_last;
	int64_t last_ns;
	uint64_t n_items;
	struct chrome_class *classes; /* by event class index */
	size_t n_classes;
	struct cpu_state *cpus;
	size_t n_cpus;
	struct task *tasks; /* open addressing, a power of two */
	size_t tasks_cap;
	size_t n_tasks;
};

/* ---- event classes ---------------------------------------------------------------------- */

/*
 * Where member @name of scope @scope (a structure) is in the scope's values: found when it
 * is an integer (@string 0) or a string (@string 1) and everything before it has a fixed
 * number of values. r.idx is -1 otherwise.
 */
static struct ref find(const struct tk_event_class *ec, int scope, const char *name, int string)
{
	const struct model_fc *fc = model_scope_fc(ec, scope);
	struct ref r = {scope, -1, 0};
	int64_t at = 0, n;
	uint32_t i;

	if (!fc || fc->kind != MODEL_FC_STRUCT)
		return r;
	for (i = 0; i < fc->u.st.count; i++) {
		const struct model_member *m = &fc->u.st.members[i];
		const struct model_fc *mf = m->fc;

		if (!strcmp(m->name, name)) {
			int is_str =
				mf->kind == MODEL_FC_STRING ||
				((mf->kind == MODEL_FC_ARRAY || mf->kind == MODEL_FC_SEQUENCE) &&
				 mf->is_text);
			int is_int = mf->kind == MODEL_FC_INT || mf->kind == MODEL_FC_ENUM;

			if (string ? is_str : is_int) {
				r.idx = (int32_t) at;
				r.is_signed = mf->is_signed;
			}
			return r;
		}
		n = model_fc_fixed_values(mf);
		if (n < 0 || at + n > INT32_MAX)
			return r;
		at += n;
	}
	return r;
}

/* The first of @names (NULL-terminated) found as an integer of @scope. */
static struct ref find_int(const struct tk_event_class *ec, int scope, const char *const *names)
{
	struct ref r = {scope, -1, 0};

	for (; *names && r.idx < 0; names++)
		r = find(ec, scope, *names, 0);
	return r;
}

/* Whether the event name is @name, alone or after a "system:" prefix (LTTng, perf). */
static int name_is(const struct tk_event_class *ec, const char *name)
{
	size_t n, k = strlen(name);

	if (!ec->name)
		return 0;
	n = strlen(ec->name);
	return n >= k && !strcmp(ec->name + n - k, name) && (n == k || ec->name[n - k - 1] == ':');
}

static void add_pair(struct chrome_class *cc, const struct tk_event_class *ec, const char *comm,
		     const char *const *pids)
{
	struct pair pr;

	pr.comm = find(ec, MODEL_SCOPE_PAYLOAD, comm, 1);
	pr.pid = find_int(ec, MODEL_SCOPE_PAYLOAD, pids);
	if (pr.comm.idx >= 0 && pr.pid.idx >= 0 && cc->n_pairs < MAX_PAIRS)
		cc->pairs[cc->n_pairs++] = pr;
}

/* Everything the Chrome style needs to know about the events of @ec, found by name once. */
static void class_build(struct chrome_class *cc, const struct tk_event_class *ec)
{
	static const char *const tids[] = {"tid", "vtid", NULL};
	static const char *const pids[] = {"pid", "vpid", NULL};
	static const char *const pid_tid[] = {"pid", "tid", NULL};
	static const char *const prev[] = {"prev_pid", "prev_tid", NULL};
	static const char *const next[] = {"next_pid", "next_tid", NULL};
	static const char *const child[] = {"child_pid", "child_tid", NULL};
	static const char *const parent[] = {"parent_pid", "parent_tid", NULL};
	int s;

	memset(cc, 0, sizeof(*cc));
	cc->ec = ec;
	cc->common_pid = find(ec, MODEL_SCOPE_COMMON, "common_pid", 0);
	cc->tid.idx = cc->pid.idx = -1;
	for (s = MODEL_SCOPE_EVENT_COMMON_CONTEXT; s <= MODEL_SCOPE_EVENT_CONTEXT; s++) {
		if (cc->tid.idx < 0)
			cc->tid = find_int(ec, s, tids);
		if (cc->pid.idx < 0)
			cc->pid = find_int(ec, s, pids);
	}
	add_pair(cc, ec, "comm", pid_tid);
	add_pair(cc, ec, "prev_comm", prev);
	add_pair(cc, ec, "next_comm", next);
	add_pair(cc, ec, "child_comm", child);
	add_pair(cc, ec, "parent_comm", parent);
	cc->next_comm = find(ec, MODEL_SCOPE_PAYLOAD, "next_comm", 1);
	cc->next_pid = find_int(ec, MODEL_SCOPE_PAYLOAD, next);
	if (name_is(ec, "sched_switch") && cc->next_comm.idx >= 0 && cc->next_pid.idx >= 0) {
		cc->kind = KIND_SWITCH;
	} else if (name_is(ec, "sched_process_exec")) {
		cc->rename_comm = find(ec, MODEL_SCOPE_PAYLOAD, "filename", 1);
		cc->rename_pid = find_int(ec, MODEL_SCOPE_PAYLOAD, pid_tid);
		if (cc->rename_comm.idx >= 0 && cc->rename_pid.idx >= 0)
			cc->kind = KIND_EXEC;
	} else if (name_is(ec, "task_rename")) {
		cc->rename_comm = find(ec, MODEL_SCOPE_PAYLOAD, "newcomm", 1);
		cc->rename_pid = find_int(ec, MODEL_SCOPE_PAYLOAD, pid_tid);
		if (cc->rename_comm.idx >= 0 && cc->rename_pid.idx >= 0)
			cc->kind = KIND_RENAME;
	}
}

static const struct chrome_class *class_for(struct chrome_state *cs,
					    const struct tk_event_class *ec)
{
	struct chrome_class *cc;

	if (ec->index >= cs->n_classes) {
		struct chrome_class *v =
			table_hold(cs->classes, &cs->n_classes, sizeof(*v), ec->index);

		if (!v)
			return NULL;
		cs->classes = v;
	}
	cc = &cs->classes[ec->index];
	if (cc->ec != ec)
		class_build(cc, ec);
	return cc;
}

/* ---- values of an event ----------------------------------------------------------------- */

/* The name the source saved for @ev's task (the reader's task hook), or NULL. */
static const char *saved_comm(const struct tk_event *ev)
{
	const struct model_source_ops *ops = ev->stream->source->ops;
	const char *comm = NULL;
	int64_t pid;

	if (!ops->task)
		return NULL;
	ops->task(ev, &pid, &comm);
	return comm && strcmp(comm, MODEL_TASK_UNKNOWN) ? comm : NULL;
}

static const struct model_value *value(const struct tk_event *ev, struct ref r)
{
	if (r.idx < 0 || !ev->scope[r.scope])
		return NULL;
	return &ev->scope[r.scope][r.idx];
}

static int int_value(const struct tk_event *ev, struct ref r, int64_t *out)
{
	const struct model_value *v = value(ev, r);

	if (!v)
		return 0;
	*out = r.is_signed ? v->v.i : (int64_t) v->v.u;
	return 1;
}

/* ---- output ----------------------------------------------------------------------------- */

/* The separator before an element of traceEvents. */
static void item(struct tk_printer *p)
{
	struct chrome_state *cs = p->chrome;

	if (cs->n_items++)
		writer_write(&p->out, ",\n", 2);
	else
		writer_putc(&p->out, '\n');
}

/* {"ph":"M","ts":0,"pid":P,"tid":T,"name":"WHAT","args":{"KEY":VALUE}} */
static void meta(struct tk_printer *p, int64_t pid, int64_t tid, const char *what, const char *key)
{
	char *q;

	item(p);
	q = writer_reserve(&p->out, 128);
	memcpy(q, "{\"ph\":\"M\",\"ts\":0,\"pid\":", 23);
	q += 23;
	q += fmt_i64(q, pid);
	memcpy(q, ",\"tid\":", 7);
	q += 7;
	q += fmt_i64(q, tid);
	memcpy(q, ",\"name\":\"", 9);
	q += 9;
	memcpy(q, what, strlen(what));
	q += strlen(what);
	memcpy(q, "\",\"args\":{\"", 11);
	q += 11;
	memcpy(q, key, strlen(key));
	q += strlen(key);
	memcpy(q, "\":", 2);
	writer_commit_to(&p->out, q + 2);
}

static void meta_name(struct tk_printer *p, int64_t pid, int64_t tid, const char *what,
		      const char *name, size_t len)
{
	meta(p, pid, tid, what, "name");
	json_put_string(&p->out, name, len);
	writer_write(&p->out, "}}", 2);
}

static void meta_sort(struct tk_printer *p, int64_t pid, int64_t tid, const char *what,
		      int64_t index)
{
	char *q;

	meta(p, pid, tid, what, "sort_index");
	q = writer_reserve(&p->out, 32);
	q += fmt_i64(q, index);
	memcpy(q, "}}", 2);
	writer_commit_to(&p->out, q + 2);
}

/* The start of the document and the name of the CPUs' process, once. */
static struct chrome_state *start(struct tk_printer *p)
{
	struct chrome_state *cs = p->chrome;

	if (!cs) {
		cs = p->chrome = calloc(1, sizeof(*cs));
		if (!cs)
			return NULL;
	}
	if (!cs->started) {
		cs->started = 1;
		writer_puts(&p->out, "{\"traceEvents\":[");
		meta_name(p, CPU_PID, CPU_PID, "process_name", "CPUs", 4);
		meta_sort(p, CPU_PID, CPU_PID, "process_sort_index", -1);
	}
	return cs;
}

/* The track of CPU @cpu (-1: unknown), named on first use. */
static int64_t cpu_track(struct tk_printer *p, int64_t cpu)
{
	struct chrome_state *cs = p->chrome;
	char name[32];
	size_t n;

	if (cpu < 0 || cpu >= MAX_CPU) {
		if (!cs->unknown_named) {
			cs->unknown_named = 1;
			meta_name(p, CPU_PID, CPU_PID, "thread_name", "CPU ?", 5);
			meta_sort(p, CPU_PID, CPU_PID, "thread_sort_index", MAX_CPU);
		}
		return CPU_PID;
	}
	if ((size_t) cpu < cs->n_cpus && cs->cpus[cpu].named)
		return CPU_TID(cpu);
	if ((size_t) cpu >= cs->n_cpus) {
		size_t k = (size_t) cpu + 16;
		struct cpu_state *v = realloc(cs->cpus, k * sizeof(*v));

		if (!v)
			return CPU_PID; /* out of memory: the unknown CPU's track */
		memset(v + cs->n_cpus, 0, (k - cs->n_cpus) * sizeof(*v));
		cs->cpus = v;
		cs->n_cpus = k;
	}
	cs->cpus[cpu].named = 1;
	memcpy(name, "CPU ", 4);
	n = 4 + fmt_i64(name + 4, cpu);
	meta_name(p, CPU_PID, CPU_TID(cpu), "thread_name", name, n);
	meta_sort(p, CPU_PID, CPU_TID(cpu), "thread_sort_index", cpu);
	return CPU_TID(cpu);
}

/* The task entry of @tid, inserted when new; NULL when out of memory. */
static struct task *task_at(struct chrome_state *cs, int64_t tid)
{
	size_t mask, i;

	if (cs->n_tasks * 2 >= cs->tasks_cap) {
		size_t cap = cs->tasks_cap ? cs->tasks_cap * 2 : 256, k;
		struct task *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (k = 0; k < cs->tasks_cap; k++) {
			const struct task *o = &cs->tasks[k];

			if (!o->used)
				continue;
			for (i = ((uint64_t) o->tid * UINT64_C(0x9e3779b97f4a7c15)) >> 32;; i++) {
				if (!t[i & (cap - 1)].used) {
					t[i & (cap - 1)] = *o;
					break;
				}
			}
		}
		free(cs->tasks);
		cs->tasks = t;
		cs->tasks_cap = cap;
	}
	mask = cs->tasks_cap - 1;
	for (i = ((uint64_t) tid * UINT64_C(0x9e3779b97f4a7c15)) >> 32;; i++) {
		struct task *t = &cs->tasks[i & mask];

		if (t->used && t->tid == tid)
			return t;
		if (!t->used) {
			t->used = 1;
			t->tid = tid;
			t->pid = tid;
			cs->n_tasks++;
			return t;
		}
	}
}

/* Name the track of task @tid @comm, unless it has a name already and @force is 0. */
static void name_task(struct tk_printer *p, int64_t tid, const char *comm, size_t len, int force)
{
	struct task *t;

	if (tid <= 0 || tid >= CPU_PID)
		return; /* idle tasks are on CPU tracks */
	t = task_at(p->chrome, tid);
	if (!t || (t->named && !force))
		return;
	t->named = 1;
	t->looked = 1;
	meta_name(p, t->pid, tid, "thread_name", comm, len);
	if (t->pid == tid)
		meta_name(p, t->pid, tid, "process_name", comm, len);
}

/* Names the event teaches: comm/pid pairs, and new names from exec and rename events. */
static void learn_names(struct tk_printer *p, const struct chrome_class *cc,
			const struct tk_event *ev)
{
	const struct model_value *c;
	int64_t pid;
	uint32_t i;

	for (i = 0; i < cc->n_pairs; i++) {
		c = value(ev, cc->pairs[i].comm);
		if (c && int_value(ev, cc->pairs[i].pid, &pid))
			name_task(p, pid, c->v.s, c->n, 0);
	}
	if (cc->kind != KIND_EXEC && cc->kind != KIND_RENAME)
		return;
	c = value(ev, cc->rename_comm);
	if (c && int_value(ev, cc->rename_pid, &pid)) {
		const char *s = c->v.s;
		size_t n = c->n, k;

		if (cc->kind == KIND_EXEC) { /* the kernel's comm after exec */
			for (k = n; k > 0 && s[k - 1] != '/'; k--)
				;
			s += k;
			n -= k;
			if (n > EXEC_COMM)
				n = EXEC_COMM;
		}
		name_task(p, pid, s, n, 1);
	}
}

/* The start of a complete event (a slice) and of a thread-scoped instant event. */
#define PH_SLICE   "{\"ph\":\"X\""
#define PH_INSTANT "{\"ph\":\"i\",\"s\":\"t\""

/* @ph (PH_SLICE or PH_INSTANT), then "ts" of @ns, "pid" and "tid" */
static void event_head(struct tk_printer *p, const char *ph, int64_t ns, int64_t pid, int64_t tid)
{
	size_t n = strlen(ph);
	char *q;

	item(p);
	q = writer_reserve(&p->out, 160);
	memcpy(q, ph, n);
	q += n;
	memcpy(q, ",\"ts\":", 6);
	q += 6;
	q += json_fmt_us(q, ns);
	memcpy(q, ",\"pid\":", 7);
	q += 7;
	q += fmt_i64(q, pid);
	memcpy(q, ",\"tid\":", 7);
	q += 7;
	q += fmt_i64(q, tid);
	writer_commit_to(&p->out, q);
}

/* The slice of what ran on @cpu (state @c) since its start, ending at @end. */
static void end_slice(struct tk_printer *p, struct cpu_state *c, int64_t cpu, int64_t end)
{
	char *q;

	event_head(p, PH_SLICE, c->start, CPU_PID, CPU_TID(cpu));
	q = writer_reserve(&p->out, 64);
	memcpy(q, ",\"dur\":", 7);
	q += 7;
	q += json_fmt_us(q, end > c->start ? (int64_t) ((uint64_t) end - (uint64_t) c->start) : 0);
	memcpy(q, ",\"name\":", 8);
	writer_commit_to(&p->out, q + 8);
	json_put_string(&p->out, c->comm, c->comm_len);
	q = writer_reserve(&p->out, 64);
	memcpy(q, ",\"args\":{\"pid\":", 15);
	q += 15;
	q += fmt_i64(q, c->pid);
	memcpy(q, "}}", 2);
	writer_commit_to(&p->out, q + 2);
	c->open = 0;
}

/* A sched_switch on @cpu at @ns: the running slice ends, next_comm's begins. */
static void switch_slice(struct tk_printer *p, const struct chrome_class *cc,
			 const struct tk_event *ev, int64_t cpu)
{
	struct chrome_state *cs = p->chrome;
	const struct model_value *comm = value(ev, cc->next_comm);
	struct cpu_state *c;
	int64_t pid;

	if (cpu < 0 || cpu >= MAX_CPU || !comm || !int_value(ev, cc->next_pid, &pid) ||
	    cpu_track(p, cpu) == CPU_PID)
		return; /* no CPU (or no memory for it), no slices */
	c = &cs->cpus[cpu];
	if (c->open)
		end_slice(p, c, cpu, ev->ns);
	c->open = 1;
	c->start = ev->ns;
	c->pid = pid;
	c->comm_len = (uint32_t) (comm->n < COMM_MAX ? comm->n : COMM_MAX);
	memcpy(c->comm, comm->v.s, c->comm_len);
}

static enum tk_status begin(struct tk_printer *p, const struct tk_trace *t)
{
	(void) t;
	if (!start(p))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot print trace");
	if (TK_UNLIKELY(p->out.err))
		return writer_flush(&p->out);
	return TK_OK;
}

/* An instant event on the track of its CPU: lost events or packets. */
static void lost_instant(struct tk_printer *p, int64_t ns, int64_t cpu, const char *name,
			 int64_t count)
{
	char *q;

	event_head(p, PH_INSTANT, ns, CPU_PID, cpu_track(p, cpu));
	q = writer_reserve(&p->out, 96);
	memcpy(q, ",\"name\":\"", 9);
	q += 9;
	memcpy(q, name, strlen(name));
	q += strlen(name);
	memcpy(q, "\",\"args\":{\"count\":", 18);
	q += 18;
	if (count >= 0) {
		q += fmt_i64(q, count);
	} else {
		memcpy(q, "null", 4);
		q += 4;
	}
	memcpy(q, "}}", 2);
	writer_commit_to(&p->out, q + 2);
}

static enum tk_status print(struct tk_printer *p, const struct tk_event *ev)
{
	struct chrome_state *cs = start(p);
	const struct chrome_class *cc;
	const struct plan *pl;
	enum tk_status st;
	int64_t cpu = ev->cpu, tid = 0, pid = 0;
	int on_cpu = 1;

	if (!cs || !(cc = class_for(cs, ev->ec)))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot print event");
	st = model_event_values(ev);
	if (st < 0)
		return st;
	if (ev->has_ts && (!cs->has_last || ev->ns > cs->last_ns)) {
		cs->last_ns = ev->ns;
		cs->has_last = 1;
	}
	if (TK_UNLIKELY(ev->missed))
		lost_instant(p, ev->ns, cpu, "lost events", ev->missed);
	learn_names(p, cc, ev);
	if (cc->kind == KIND_SWITCH) {
		switch_slice(p, cc, ev, cpu);
		goto out;
	}
	if (cc->common_pid.idx >= 0) {
		if (!int_value(ev, cc->common_pid, &tid))
			tid = 0;
		pid = tid;
		on_cpu = tid <= 0 || tid >= CPU_PID;
	} else if (int_value(ev, cc->tid, &tid)) {
		if (!int_value(ev, cc->pid, &pid))
			pid = tid;
		on_cpu = tid <= 0 || tid >= CPU_PID || pid <= 0 || pid >= CPU_PID;
	}
	if (on_cpu) {
		tid = cpu_track(p, cpu);
		pid = CPU_PID;
	} else {
		struct task *t = task_at(cs, tid);

		if (t && !t->named && !t->looked) {
			/* first seen: the name the source saved (trace.dat command lines), if any */
			const char *comm = saved_comm(ev);

			t->looked = 1;
			t->pid = pid;
			if (comm)
				name_task(p, tid, comm, strlen(comm), 0);
		}
	}
	st = pretty_plan_for(p, ev->ec, &pl);
	if (st < 0)
		return st;
	event_head(p, PH_INSTANT, ev->has_ts ? ev->ns : 0, pid, tid);
	plan_run(p, pl, ev);
out:
	if (TK_UNLIKELY(p->out.err))
		return writer_flush(&p->out);
	return TK_OK;
}

static enum tk_status notice(struct tk_printer *p, const struct tk_notice *n)
{
	struct chrome_state *cs = start(p);
	int64_t ns;

	error_reset();
	if (!cs)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot print notice");
	ns = n->has_range ? n->begin_ns : cs->has_last ? cs->last_ns : 0;
	lost_instant(p, ns, -1,
		     n->kind == TK_NOTICE_DISCARDED_EVENTS ? "lost events" : "lost packets",
		     n->count == UINT64_MAX || n->count > INT64_MAX ? -1 : (int64_t) n->count);
	if (TK_UNLIKELY(p->out.err))
		return writer_flush(&p->out);
	return TK_OK;
}

static void finish(struct tk_printer *p)
{
	struct chrome_state *cs = start(p);
	size_t i;

	if (!cs || cs->finished)
		return;
	cs->finished = 1;
	for (i = 0; i < cs->n_cpus; i++)
		if (cs->cpus[i].open)
			end_slice(p, &cs->cpus[i], (int64_t) i, cs->last_ns);
	writer_puts(&p->out, "\n],\"displayTimeUnit\":\"ns\"}\n");
}

static void destroy(struct tk_printer *p)
{
	struct chrome_state *cs = p->chrome;

	if (!cs)
		return;
	free(cs->classes);
	free(cs->cpus);
	free(cs->tasks);
	free(cs);
	p->chrome = NULL;
}

const struct sink_ops sink_chrome = {
	.begin = begin,
	.event = print,
	.notice = notice,
	.end = finish,
	.destroy = destroy,
	.plan = json_plan_build,
	.carry_losses = 1,
};
