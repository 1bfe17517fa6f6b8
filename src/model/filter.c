// SPDX-License-Identifier: MIT
/*
 * The filter stage (include/tracekit/filter.h): one selection of events for every format and
 * every command, between the time-ordered iterator and the output.
 *
 * It works on the model only. Event classes are decided once, when the filter is made: the
 * event specs, and where each class keeps the pid and comm of its events -- a top-level
 * field found by name in the event's scopes (CTF: tid/vtid/pid/vpid and procname in the
 * contexts), or the reader's task hook (trace.dat: common_pid and the saved command lines).
 * The CPU is the event's own (tk_event.cpu), where its stream class has one (has_cpu: a
 * trace.dat buffer, a CTF packet context's cpu_id). Per event, matching is a few compares;
 * only events whose class keeps a wanted field in its scopes get their values decoded.
 *
 * Times are read as babeltrace2's trimmer reads --begin and --end, plus units: see
 * tk_time_parse(). Field predicates (-F) live in filter-expr.c; here they only drop the
 * classes none lists and run last, an event passing when one of them matches.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/error.h"
#include "../common/spec.h"
#include "filter-expr.h"
#include "filter.h"

#define NS_PER_S INT64_C(1000000000)

/* Where a class keeps one wanted value: nowhere, a field of one of its scopes, or elsewhere. */
enum where {
	WHERE_NONE,
	WHERE_FIELD, /* scope[scope], top-level member member */
	WHERE_TASK,  /* the source's task hook (pid, comm) */
	WHERE_CPU,   /* tk_event.cpu */
};

struct place {
	uint8_t where;
	uint8_t scope;
	uint32_t member;
	const struct model_fc *fc; /* the struct of the scope */
};

struct class_plan {
	uint8_t drop; /* not selected by the specs, or lacking a wanted value */
	struct place pid, comm, cpu;
};

struct tk_filter {
	struct tk_trace *trace;
	int all; /* nothing to check */
	int has_begin, has_end;
	int64_t begin, end;
	struct class_plan *plans; /* by event class index */
	size_t n_plans;
	int64_t *pids;
	size_t n_pids;
	char **comms;
	size_t n_comms;
	uint8_t *cpus; /* bit set */
	size_t n_cpu_bits;
	int want_cpu;
	model_filter_pred pred;
	void *pred_payload;
	struct model_pred **preds; /* field predicates: an event passes when one matches */
	size_t n_preds;
};

/* ---- times ----------------------------------------------------------------------------- */

/*
 * Digits at *@p into *@v (at most @max digits, at least one); -1 when there is none or the
 * value passes @limit.
 */
static int digits(const char **p, int max, int64_t limit, int64_t *v)
{
	int n = 0;

	*v = 0;
	while (isdigit((unsigned char) **p) && n < max) {
		if (*v > (limit - (**p - '0')) / 10)
			return -1;
		*v = *v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n ? n : -1;
}

/* ".nnnnnnnnn" at *@p (optional): the fraction of a second in ns; -1 on a bad fraction. */
static int fraction(const char **p, int64_t *ns)
{
	int64_t f;
	int n;

	*ns = 0;
	if (**p != '.')
		return 0;
	(*p)++;
	n = digits(p, 9, INT64_MAX, &f);
	if (n < 0 || isdigit((unsigned char) **p))
		return -1;
	for (; n < 9; n++)
		f *= 10;
	*ns = f;
	return 0;
}

/* "hh:mm[:ss[.n]]" at *@p: nanoseconds since midnight; -1 when it is not that. */
static int time_of_day(const char **p, int64_t *ns)
{
	int64_t h, m, s = 0, f = 0;

	if (digits(p, 2, 23, &h) < 0 || *(*p)++ != ':' || digits(p, 2, 59, &m) != 2)
		return -1;
	if (**p == ':') {
		(*p)++;
		if (digits(p, 2, 60, &s) != 2 || fraction(p, &f) < 0)
			return -1;
	}
	*ns = ((h * 60 + m) * 60 + s) * NS_PER_S + f;
	return 0;
}

/* Midnight of @t's day, local or UTC. */
static int64_t midnight(int64_t t, unsigned int flags)
{
	struct tm tm;
	time_t tt = (time_t) t;

	if (flags & TK_FILTER_GMT) {
		int64_t d = t / 86400 - (t % 86400 < 0);

		return d * 86400;
	}
	if (!localtime_r(&tt, &tm))
		return t;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return (int64_t) mktime(&tm);
}

enum tk_status tk_time_parse(struct tk_time *out, const char *text, unsigned int flags)
{
	const char *p = text;
	int64_t v, f = 0;

	error_reset();
	TK_ASSERT_PRE(out && text);
	while (*p == ' ')
		p++;
	/* YYYY-MM-DD hh:mm[:ss[.n]] */
	if (isdigit((unsigned char) p[0]) && strlen(p) > 10 && p[4] == '-' && p[7] == '-') {
		int64_t y, mo, d, tod;
		struct tm tm = {0};
		time_t t;

		if (digits(&p, 4, 9999, &y) != 4 || *p++ != '-' || digits(&p, 2, 12, &mo) != 2 ||
		    *p++ != '-' || digits(&p, 2, 31, &d) != 2 || *p++ != ' ' || !mo || !d ||
		    time_of_day(&p, &tod) < 0 || *p)
			goto bad;
		tm.tm_year = (int) y - 1900;
		tm.tm_mon = (int) mo - 1;
		tm.tm_mday = (int) d;
		tm.tm_isdst = -1;
		t = flags & TK_FILTER_GMT ? timegm(&tm) : mktime(&tm);
		/* nanoseconds from 1970 hold the years 1678 to 2261 */
		if ((int64_t) t > INT64_MAX / NS_PER_S - 1 ||
		    (int64_t) t < INT64_MIN / NS_PER_S + 1)
			goto bad;
		out->kind = TK_TIME_FROM_ORIGIN;
		out->ns = (int64_t) t * NS_PER_S + tod;
		return TK_OK;
	}
	if (strchr(p, ':')) {
		if (time_of_day(&p, &v) < 0 || *p)
			goto bad;
		out->kind = TK_TIME_OF_DAY;
		out->ns = v;
		return TK_OK;
	}
	/* [-]SEC[.NANO] and NUMBER UNIT */
	{
		int neg = *p == '-';
		int64_t scale = NS_PER_S, fdiv = 1, frac = 0;
		int n = 0;

		if (neg || *p == '+')
			p++;
		if (digits(&p, 19, INT64_MAX, &v) < 0)
			goto bad;
		if (*p == '.') {
			p++;
			while (isdigit((unsigned char) *p)) {
				if (n++ >= 9)
					goto bad;
				frac = frac * 10 + (*p++ - '0');
				fdiv *= 10;
			}
			if (!n)
				goto bad;
		}
		if (!strcmp(p, "ms"))
			scale = 1000000;
		else if (!strcmp(p, "us"))
			scale = 1000;
		else if (!strcmp(p, "ns"))
			scale = 1;
		else if (*p && strcmp(p, "s"))
			goto bad;
		if (v > (INT64_MAX - NS_PER_S) / scale)
			goto bad;
		f = frac * scale / fdiv;
		v = v * scale + f;
		out->kind = TK_TIME_FROM_ORIGIN;
		out->ns = neg ? -v : v;
		return TK_OK;
	}
bad:
	return TK_FAIL(TK_ERR_INVAL,
		       "Cannot read time: time=%s, reason=expected SECONDS[.FRACTION], a number "
		       "with a unit (s, ms, us, ns), YYYY-MM-DD hh:mm[:ss[.n]] or hh:mm[:ss[.n]]",
		       text);
}

/* ---- event specs ----------------------------------------------------------------------- */

/* System and name of @ec as specs see them: ftrace's, or "provider:event" split. */
void model_class_names(const struct tk_event_class *ec, char *sys, size_t size, const char **name)
{
	const char *n = ec->name ? ec->name : "", *colon;

	sys[0] = '\0';
	*name = n;
	if (ec->system) {
		snprintf(sys, size, "%s", ec->system);
	} else if ((colon = strchr(n, ':')) && (size_t) (colon - n) < size) {
		memcpy(sys, n, (size_t) (colon - n));
		sys[colon - n] = '\0';
		*name = colon + 1;
	}
}

size_t model_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, row[65], prev, tmp;

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

/*
 * "; did you mean X, Y?" into @buf: the names of @t nearest to @spec (system names too for
 * a word, "system:name" for a spec with a colon), when one is near enough to be a typo.
 */
void model_filter_suggest(const struct tk_trace *t, const char *spec, char *buf, size_t size)
{
	size_t best = SIZE_MAX, i, len = 0, limit = strlen(spec) / 3 + 2;
	int pass, colon = strchr(spec, ':') != NULL;

	buf[0] = '\0';
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < t->n_ecs; i++) {
			char sys[128], full[256];
			const char *name, *cand[2];
			size_t k, d;

			model_class_names(t->ecs[i], sys, sizeof(sys), &name);
			snprintf(full, sizeof(full), "%s:%s", sys, name);
			cand[0] = colon ? full : name;
			cand[1] = colon ? NULL : sys;
			for (k = 0; k < 2; k++) {
				if (!cand[k] || !cand[k][0])
					continue;
				d = model_edit_distance(spec, cand[k]);
				if (pass == 0) {
					if (d < best)
						best = d;
					continue;
				}
				if (d != best || best > limit || strstr(buf, cand[k]))
					continue;
				if (len + strlen(cand[k]) + 20 >= size)
					continue;
				len += (size_t) snprintf(buf + len, size - len, "%s%s",
							 len ? ", " : "; did you mean ", cand[k]);
			}
		}
	if (len)
		snprintf(buf + len, size - len, "?");
}

static enum tk_status select_classes(struct tk_filter *f, const struct tk_filter_opts *o)
{
	struct tk_trace *t = f->trace;
	size_t i, k;

	for (i = 0; i < t->n_ecs; i++)
		f->plans[i].drop = 1;
	for (k = 0; k < o->n_events; k++) {
		const char *spec = o->events[k];
		int by_system = 0, any = 0, pass;

		/* pass 0: does the word name a system anywhere; pass 1: select */
		for (pass = 0; pass < 2; pass++)
			for (i = 0; i < t->n_ecs; i++) {
				const struct tk_event_class *ec = t->ecs[i];
				char sys[128];
				const char *name;

				/* its own names, then those of the class it was made from */
				for (; ec; ec = ec == t->ecs[i] ? t->ecs[i]->base : NULL) {
					model_class_names(ec, sys, sizeof(sys), &name);
					if (pass == 0) {
						by_system |= spec_names_system(spec, sys);
					} else if (spec_match(spec, by_system, sys, name)) {
						f->plans[t->ecs[i]->index].drop = 0;
						any = 1;
					}
				}
			}
		if (!any) {
			char hint[512];

			model_filter_suggest(t, spec, hint, sizeof(hint));
			return TK_FAIL(
				TK_ERR_NOTFOUND,
				"Cannot select events: event=%s, reason=no event matches it%s",
				spec, hint);
		}
	}
	return TK_OK;
}

/* ---- where the task and CPU are --------------------------------------------------------- */

/* The top-level member @name of the struct scope @fc, or -1. */
static int64_t member_of(const struct model_fc *fc, const char *name)
{
	uint32_t i;

	if (!fc || fc->kind != MODEL_FC_STRUCT)
		return -1;
	for (i = 0; i < fc->u.st.count; i++)
		if (!strcmp(fc->u.st.members[i].name, name))
			return i;
	return -1;
}

static int is_int(const struct model_fc *fc)
{
	return fc->kind == MODEL_FC_INT || fc->kind == MODEL_FC_ENUM;
}

static int is_text(const struct model_fc *fc)
{
	return fc->kind == MODEL_FC_STRING ||
	       ((fc->kind == MODEL_FC_ARRAY || fc->kind == MODEL_FC_SEQUENCE) && fc->is_text);
}

/*
 * The first of @names found in the event common context or the event context of @ec (in
 * that order), of a kind @ok accepts.
 */
static struct place find_field(const struct tk_event_class *ec, const char *const *names,
			       int (*ok)(const struct model_fc *))
{
	const struct model_fc *scopes[2] = {ec->sc->event_context, ec->context};
	const uint8_t ids[2] = {MODEL_SCOPE_EVENT_COMMON_CONTEXT, MODEL_SCOPE_EVENT_CONTEXT};
	struct place p = {WHERE_NONE, 0, 0, NULL};
	size_t n, s;

	for (n = 0; names[n]; n++)
		for (s = 0; s < 2; s++) {
			int64_t m = member_of(scopes[s], names[n]);

			if (m >= 0 && ok(scopes[s]->u.st.members[m].fc)) {
				p.where = WHERE_FIELD;
				p.scope = ids[s];
				p.member = (uint32_t) m;
				p.fc = scopes[s];
				return p;
			}
		}
	return p;
}

/*
 * Where each class keeps what the selection needs; a class without it is dropped, and no
 * class with it at all is an error naming what was looked for.
 */
static enum tk_status plan_classes(struct tk_filter *f)
{
	static const char *const pid_names[] = {"tid", "vtid", "pid", "vpid", NULL};
	static const char *const comm_names[] = {"procname", NULL};
	struct tk_trace *t = f->trace;
	int have_pid = 0, have_comm = 0, have_cpu = 0;
	size_t i;

	for (i = 0; i < t->n_ecs; i++) {
		const struct tk_event_class *ec = t->ecs[i];
		struct class_plan *p = &f->plans[ec->index];

		if (ec->sc->source->ops && ec->sc->source->ops->task) {
			p->pid.where = p->comm.where = WHERE_TASK;
		} else {
			enum tk_status st = model_class_load(ec);

			if (st < 0)
				return st;
			p->pid = find_field(ec, pid_names, is_int);
			p->comm = find_field(ec, comm_names, is_text);
		}
		if (ec->sc->has_cpu)
			p->cpu.where = WHERE_CPU;
		if (f->n_pids && p->pid.where == WHERE_NONE)
			p->drop = 1;
		if (f->n_comms && p->comm.where == WHERE_NONE)
			p->drop = 1;
		if (f->want_cpu && p->cpu.where == WHERE_NONE)
			p->drop = 1;
		have_pid |= p->pid.where != WHERE_NONE;
		have_comm |= p->comm.where != WHERE_NONE;
		have_cpu |= p->cpu.where != WHERE_NONE;
	}
	if (f->n_pids && !have_pid)
		return TK_FAIL(TK_ERR_NOTFOUND,
			       "Cannot select by pid: reason=no event has a pid (trace.dat "
			       "common_pid, or a tid, vtid, pid or vpid context field)");
	if (f->n_comms && !have_comm)
		return TK_FAIL(TK_ERR_NOTFOUND,
			       "Cannot select by comm: reason=no event has a command name "
			       "(trace.dat, or a procname context field)");
	if (f->want_cpu && !have_cpu)
		return TK_FAIL(TK_ERR_NOTFOUND,
			       "Cannot select by CPU: reason=no event has a CPU (trace.dat, or a "
			       "cpu_id packet context field)");
	return TK_OK;
}

/* ---- field predicates ------------------------------------------------------------------ */

/*
 * Parse and bind each predicate; the classes none of them lists are dropped, as trace-cmd
 * report -F drops the events no filter names.
 */
static enum tk_status make_predicates(struct tk_filter *f, const char *const *texts, size_t n)
{
	struct tk_trace *t = f->trace;
	size_t i, k;
	enum tk_status st;

	f->preds = calloc(n, sizeof(*f->preds));
	if (!f->preds)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot make filter");
	for (k = 0; k < n; k++) {
		st = model_pred_parse(&f->preds[k], texts[k]);
		if (st < 0)
			return st;
		f->n_preds++;
		st = model_pred_bind(f->preds[k], t);
		if (st < 0)
			return st;
	}
	for (i = 0; i < t->n_ecs; i++) {
		for (k = 0; k < n && !model_pred_lists(f->preds[k], t->ecs[i]); k++)
			;
		if (k == n)
			f->plans[t->ecs[i]->index].drop = 1;
	}
	return TK_OK;
}

/* ---- the filter ------------------------------------------------------------------------ */

/* The time of the first event of @t, for times of day; 0 when it has none. */
static enum tk_status first_time(struct tk_trace *t, int64_t *ns)
{
	struct tk_iter *it = NULL;
	const struct tk_event *ev;
	enum tk_status st;

	*ns = 0;
	st = tk_iter_create(&it, t);
	while (st >= 0 && (st = tk_iter_next(it, &ev)) == TK_OK)
		if (ev->has_ts) {
			*ns = ev->ns;
			break;
		}
	tk_iter_destroy(it);
	return st == TK_END ? TK_OK : st;
}

static enum tk_status place_times(struct tk_filter *f, const struct tk_filter_opts *o)
{
	const struct tk_time *tm[2] = {&o->begin, &o->end};
	int64_t first = 0, day = 0;
	size_t i, k;
	enum tk_status st;

	if (o->begin.kind == TK_TIME_OF_DAY || o->end.kind == TK_TIME_OF_DAY) {
		st = first_time(f->trace, &first);
		if (st < 0)
			return TK_FAIL(st, "Cannot place time of day: reason=the first event "
					   "cannot be read");
		day = midnight(first / NS_PER_S - (first % NS_PER_S < 0), o->flags);
	}
	for (k = 0; k < 2; k++) {
		int64_t v = tm[k]->ns;

		if (tm[k]->kind == TK_TIME_NONE)
			continue;
		if (tm[k]->kind == TK_TIME_OF_DAY)
			v += day * NS_PER_S;
		else if (tm[k]->kind != TK_TIME_FROM_ORIGIN)
			return TK_FAIL(TK_ERR_INVAL, "Cannot read time: kind=%u", tm[k]->kind);
		if (k == 0) {
			f->has_begin = 1;
			f->begin = v;
		} else {
			f->has_end = 1;
			f->end = v;
		}
	}
	if (f->has_begin && f->has_end && f->end < f->begin)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot use time window: begin-ns=%" PRId64 ", end-ns=%" PRId64
			       ", reason=the end is before the beginning",
			       f->begin, f->end);
	if (f->has_begin || f->has_end)
		for (i = 0; i < f->trace->n_streams; i++)
			if (!f->trace->streams[i]->sc->clock)
				return TK_FAIL(TK_ERR_INVAL,
					       "Cannot use time window: stream=%s, reason=its "
					       "events have no time (no clock)",
					       f->trace->streams[i]->path
						       ? f->trace->streams[i]->path
						       : "");
	return TK_OK;
}

static enum tk_status copy_lists(struct tk_filter *f, const struct tk_filter_opts *o)
{
	size_t i;

	if (o->n_pids) {
		f->pids = malloc(o->n_pids * sizeof(*f->pids));
		if (!f->pids)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot make filter");
		memcpy(f->pids, o->pids, o->n_pids * sizeof(*f->pids));
		f->n_pids = o->n_pids;
	}
	if (o->n_comms) {
		f->comms = calloc(o->n_comms, sizeof(*f->comms));
		if (!f->comms)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot make filter");
		f->n_comms = o->n_comms;
		for (i = 0; i < o->n_comms; i++)
			if (!(f->comms[i] = strdup(o->comms[i])))
				return TK_FAIL(TK_ERR_NOMEM, "Cannot make filter");
	}
	if (o->n_cpus) {
		unsigned int max = 0;

		for (i = 0; i < o->n_cpus; i++)
			if (o->cpus[i] > max)
				max = o->cpus[i];
		f->n_cpu_bits = (size_t) max + 1;
		f->cpus = calloc(f->n_cpu_bits / 8 + 1, 1);
		if (!f->cpus)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot make filter");
		for (i = 0; i < o->n_cpus; i++)
			f->cpus[o->cpus[i] / 8] |= (uint8_t) (1u << (o->cpus[i] % 8));
		f->want_cpu = 1;
	}
	return TK_OK;
}

enum tk_status tk_filter_create(struct tk_filter **out, struct tk_trace *trace,
				const struct tk_filter_opts *opts)
{
	static const struct tk_filter_opts none = TK_FILTER_OPTS_INIT;
	const struct tk_filter_opts *o = opts ? opts : &none;
	struct tk_filter *f;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(out && trace && o->size >= offsetof(struct tk_filter_opts, predicates));
	f = calloc(1, sizeof(*f));
	if (!f)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot make filter");
	f->trace = trace;
	f->n_plans = trace->n_ecs;
	f->plans = calloc(f->n_plans + 1, sizeof(*f->plans));
	st = f->plans ? copy_lists(f, o) : TK_FAIL(TK_ERR_NOMEM, "Cannot make filter");
	if (st >= 0 && o->n_events)
		st = select_classes(f, o);
	if (st >= 0)
		st = plan_classes(f);
	if (st >= 0 && o->size >= sizeof(struct tk_filter_opts) && o->n_predicates)
		st = make_predicates(f, o->predicates, o->n_predicates);
	if (st >= 0)
		st = place_times(f, o);
	if (st < 0) {
		tk_filter_destroy(f);
		return st;
	}
	f->all = !o->n_events && !f->n_pids && !f->n_comms && !f->want_cpu && !f->has_begin &&
		 !f->has_end && !f->n_preds;
	*out = f;
	return TK_OK;
}

void tk_filter_destroy(struct tk_filter *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n_preds; i++)
		model_pred_destroy(f->preds[i]);
	free(f->preds);
	for (i = 0; i < f->n_comms; i++)
		free(f->comms[i]);
	free(f->comms);
	free(f->pids);
	free(f->cpus);
	free(f->plans);
	free(f);
}

/* The value of the field at @p in the decoded scopes of @ev. */
static const struct model_value *field_value(const struct tk_event *ev, const struct place *p)
{
	const struct model_value *v = ev->scope[p->scope];
	uint32_t i;

	if (!v)
		return NULL;
	for (i = 0; i < p->member; i++)
		v = model_value_skip(p->fc->u.st.members[i].fc, v);
	return v;
}

static int64_t int_value(const struct model_fc *fc, const struct model_value *v)
{
	return fc->is_signed ? v->v.i : (int64_t) v->v.u;
}

enum tk_status tk_filter_match(struct tk_filter *f, const struct tk_event *ev, int *keep)
{
	const struct class_plan *p;
	const char *comm = NULL;
	char buf[256];
	int64_t pid = -1;
	size_t i;
	enum tk_status st;

	*keep = 0;
	if (f->all && !f->pred) {
		*keep = 1;
		return TK_OK;
	}
	if (ev->ec->index >= f->n_plans)
		return TK_OK;
	p = &f->plans[ev->ec->index];
	if (p->drop)
		return TK_OK;
	if ((f->has_begin && ev->ns < f->begin) || (f->has_end && ev->ns > f->end))
		return TK_OK;
	if ((f->n_pids && p->pid.where == WHERE_FIELD) ||
	    (f->n_comms && p->comm.where == WHERE_FIELD)) {
		st = model_event_values(ev);
		if (st < 0)
			return st;
	}
	if (f->want_cpu) {
		int64_t cpu = ev->cpu;

		if (ev->stream->sc->instance)
			return TK_OK; /* trace-cmd report --cpu: the main buffer only */
		if (cpu < 0 || (uint64_t) cpu >= f->n_cpu_bits ||
		    !(f->cpus[cpu / 8] & (1u << (cpu % 8))))
			return TK_OK;
	}
	if ((f->n_pids || f->n_comms) && p->pid.where == WHERE_TASK)
		ev->stream->source->ops->task(ev, &pid, &comm);
	if (f->n_pids) {
		if (p->pid.where == WHERE_FIELD) {
			const struct model_value *v = field_value(ev, &p->pid);

			if (!v)
				return TK_OK;
			pid = int_value(p->pid.fc->u.st.members[p->pid.member].fc, v);
		}
		for (i = 0; i < f->n_pids && f->pids[i] != pid; i++)
			;
		if (i == f->n_pids)
			return TK_OK;
	}
	if (f->n_comms) {
		if (p->comm.where == WHERE_FIELD) {
			const struct model_value *v = field_value(ev, &p->comm);
			size_t n;

			if (!v)
				return TK_OK;
			n = v->n < sizeof(buf) - 1 ? (size_t) v->n : sizeof(buf) - 1;
			memcpy(buf, v->v.s, n);
			buf[n] = '\0';
			comm = buf;
		}
		for (i = 0; i < f->n_comms && fnmatch(f->comms[i], comm, 0); i++)
			;
		if (i == f->n_comms)
			return TK_OK;
	}
	if (f->n_preds) {
		int match = 0;

		for (i = 0; i < f->n_preds && !match; i++) {
			if (!model_pred_lists(f->preds[i], ev->ec))
				continue;
			st = model_pred_match(f->preds[i], ev, &match);
			if (st < 0)
				return st;
		}
		if (!match)
			return TK_OK;
	}
	if (f->pred) {
		int r = f->pred(ev, f->pred_payload);

		if (r < 0)
			return (enum tk_status) r;
		if (!r)
			return TK_OK;
	}
	*keep = 1;
	return TK_OK;
}

int model_filter_keeps_class(const struct tk_filter *f, const struct tk_event_class *ec)
{
	return !f || ec->index >= f->n_plans || !f->plans[ec->index].drop;
}

int model_filter_all(const struct tk_filter *f)
{
	return !f || (f->all && !f->pred);
}

void model_filter_window(const struct tk_filter *f, int *has_begin, int64_t *begin, int *has_end,
			 int64_t *end)
{
	*has_begin = f && f->has_begin;
	*begin = f ? f->begin : 0;
	*has_end = f && f->has_end;
	*end = f ? f->end : 0;
}

void model_filter_set_predicate(struct tk_filter *f, model_filter_pred fn, void *payload)
{
	f->pred = fn;
	f->pred_payload = payload;
}
