// SPDX-License-Identifier: MIT
/*
 * trace.dat files as sources of the trace model. The container (tracedat.c) gives the
 * metadata texts and the pages of each CPU; the ftrace module parses the event formats and
 * decodes the pages. This file puts them together the way `trace-cmd report` reads a file:
 *
 * - every buffer (the top one, then instances) is a stream class, every CPU with data a
 *   stream whose ID is the CPU number, so equal timestamps go to the lowest CPU of the
 *   first buffer, as in trace-cmd's merge;
 * - times are trace-cmd's: raw ring-buffer time, scaled by TSC2NSEC when present, plus the
 *   DATE and OFFSET options; per-CPU data may go back in time, which trace-cmd accepts;
 * - the first record of a page that follows lost events carries their count.
 *
 * What trace-cmd report prints of the records is in tracedat-text.c (the model's text hooks).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/error.h"
#include "../ftrace/ftrace-model.h"
#include "../ftrace/page.h"
#include "../ftrace/printfmt.h"
#include "source-priv.h"
#include "source.h"
#include "tracedat-env.h"

struct td_stream {
	size_t buffer;
	size_t cpu_index; /* in the buffer's CPU list */
};

struct td_cursor {
	struct model_cursor base;
	struct tk_stream *stream;
	struct td_source *ts;
	struct tracedat_pages *pages;
	const struct tracedat_tsync_cpu *shift; /* TIME_SHIFT samples of this CPU, or NULL */
	struct ftrace_page pg;
	uint8_t have_page;
	uint64_t page_no;
	int64_t missed; /* to report with the next record */
	struct tk_event ev;
	struct vec vals; /* struct model_value of the current event, decoded on request */
};

static const struct model_source_ops td_source_ops;

int tracedat_probe(const uint8_t *head, size_t n)
{
	static const uint8_t magic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};

	return n >= sizeof(magic) && !memcmp(head, magic, sizeof(magic));
}

enum tk_status tracedat_sources_open(const char *const *paths, size_t npaths, struct vec *sources,
				     const struct model_warner *w)
{
	(void) w;
	return model_sources_open_each(paths, npaths, sources, tracedat_source_open);
}

/* trace-cmd's choice: nanoseconds unless the clock is a raw counter (and no TSC2NSEC). */
static int clock_in_ns(const char *clock)
{
	if (!clock)
		return 1;
	return !strcmp(clock, "local") || !strcmp(clock, "global") || !strcmp(clock, "uptime") ||
	       !strcmp(clock, "perf") || !strncmp(clock, "mono", 4) || !strcmp(clock, "tsc2nsec") ||
	       !strcmp(clock, "tai");
}

static uint64_t mul_u64_u32_shr(uint64_t a, uint32_t mul, uint32_t shift)
{
	__extension__ unsigned __int128 p = (unsigned __int128) a * mul;

	return shift >= 128 ? 0 : (uint64_t) (p >> shift);
}

/*
 * TIME_SHIFT: a guest's raw time moved onto the host's clock with the two samples around it
 * (libtracecmd's arithmetic: 64-bit two's complement, comparisons of the unsigned time with
 * the signed sample times done unsigned, the offset interpolated when the flag says so).
 */
static uint64_t tsync_calc(uint64_t t, uint32_t flags, const struct tracedat_tsync_sample *lo,
			   const struct tracedat_tsync_sample *hi)
{
	uint64_t cor = (uint64_t) lo->offset;

	if (flags & TRACEDAT_TSYNC_INTERPOLATE) {
		int64_t delta = (int64_t) ((uint64_t) hi->time - (uint64_t) lo->time);
		int64_t num = (int64_t) ((t - (uint64_t) lo->time) *
					 ((uint64_t) hi->offset - (uint64_t) lo->offset));

		num = (int64_t) ((uint64_t) num + (uint64_t) (delta / 2));
		/* sample times differ, so delta is not 0; INT64_MIN / -1 wraps */
		cor += delta == -1 ? -(uint64_t) num : (uint64_t) (num / delta);
	}
	t = (t * (uint64_t) lo->scaling) >> lo->fraction;
	return t + cor;
}

static uint64_t tsync_time(const struct tracedat_tsync_cpu *tc, uint32_t flags, uint64_t t)
{
	const struct tracedat_tsync_sample *s = tc->s;
	int64_t lo, hi, mid;

	if (tc->n == 0)
		return t;
	if (tc->n == 1)
		return t + (uint64_t) s[0].offset;
	if (tc->n == 2 || t <= (uint64_t) s[0].time)
		return tsync_calc(t, flags, &s[0], &s[1]);
	if (t >= (uint64_t) s[tc->n - 1].time)
		return tsync_calc(t, flags, &s[tc->n - 2], &s[tc->n - 1]);
	lo = 0;
	hi = (int64_t) tc->n - 1;
	mid = (lo + hi) / 2;
	while (lo <= hi) {
		if (t < (uint64_t) s[mid].time)
			hi = mid - 1;
		else if (t > (uint64_t) s[mid].time)
			lo = mid + 1;
		else
			break;
		mid = (lo + hi) / 2;
	}
	/* the unsigned order of the times may not be the sorted one: stay inside */
	if (mid < 0)
		mid = 0;
	if (mid > (int64_t) tc->n - 2)
		mid = (int64_t) tc->n - 2;
	return tsync_calc(t, flags, &s[mid], &s[mid + 1]);
}

/* A record's time as trace-cmd computes it; @shift: the CPU's TIME_SHIFT samples or NULL. */
static int64_t td_time(const struct td_source *ts, const struct tracedat_tsync_cpu *shift,
		       uint64_t raw)
{
	uint64_t t = raw;

	if (shift)
		t = tsync_time(shift, ts->td->info.tsync->flags, t);
	if (ts->has_tsc2nsec)
		t = mul_u64_u32_shr(t, ts->tsc_mult, ts->tsc_shift);
	return (int64_t) (t + (uint64_t) ts->ts_offset);
}

/* ---- opening ------------------------------------------------------------------------------ */

enum tk_status tracedat_ftrace_setup(const struct tracedat_info *in, struct ftrace_ctx *ctx,
				     struct tracedat_common *out)
{
	const struct ftrace_field *type;
	enum tk_status st;
	size_t i, j;

	if (!in->header_page.len) {
		/* old kernels had no header_page: trace-cmd assumes one from the file header */
		ftrace_page_layout_default(&ctx->layout, in->header_long_size, in->page_size);
	} else {
		st = ftrace_page_layout_parse((const char *) in->header_page.data,
					      in->header_page.len, &ctx->layout);
		if (st < 0)
			return TK_FAIL(st, "Cannot read trace.dat: part=header_page");
	}
	/*
	 * Pages are read with the kernel's long (header_page's commit size), but event fields
	 * and print fmts with the header's long size byte, as trace-cmd hands that one to
	 * libtraceevent (and files converted for a 32-bit target may say 8 there).
	 */
	ctx->long_size = in->header_long_size == 4 || in->header_long_size == 8
				 ? in->header_long_size
				 : ctx->layout.commit_size;
	/*
	 * Like trace-cmd, keep going past a format that does not parse (its events print as
	 * "[FAILED TO PARSE]") and past bad lines of the symbol and command tables (the lines
	 * before them are kept).
	 */
	/* formats are read past their ID when an event of theirs is first met */
	for (i = 0; i < in->n_ftrace_formats; i++)
		if (ftrace_event_declare(ctx, "ftrace", (const char *) in->ftrace_formats[i].data,
					 in->ftrace_formats[i].len) < 0)
			error_reset();
	for (i = 0; i < in->n_systems; i++) {
		const struct tracedat_system *sys = &in->systems[i];

		for (j = 0; j < sys->n_formats; j++)
			if (ftrace_event_declare(ctx, sys->name,
						 (const char *) sys->formats[j].data,
						 sys->formats[j].len) < 0)
				error_reset();
	}
	ftrace_kallsyms_defer(ctx, (const char *) in->kallsyms.data, in->kallsyms.len);
	if (in->printk.len &&
	    ftrace_printk_parse(ctx, (const char *) in->printk.data, in->printk.len) < 0)
		error_reset();
	if (in->cmdlines.len &&
	    ftrace_cmdlines_parse(ctx, (const char *) in->cmdlines.data, in->cmdlines.len) < 0)
		error_reset();
	st = ftrace_ctx_finish(ctx);
	if (st < 0)
		return TK_FAIL(st, "Cannot read trace.dat: part=event-formats");
	/* like libtraceevent, the first event's common_type field says where the id is */
	out->type_offset = 0;
	out->type_size = 2;
	out->pid_offset = 4;
	out->pid_size = 4;
	/* common_pid too, as trace-cmd report finds it */
	for (i = 0; i < ctx->n_events; i++) {
		const struct ftrace_field *pid;

		ftrace_event_load(ctx, ctx->events[i]); /* the first one, as a rule */
		pid = ftrace_field_find(ctx->events[i], "common_pid");
		if (pid) {
			out->pid_offset = pid->offset;
			out->pid_size = pid->size;
			break;
		}
	}
	for (i = 0; i < ctx->n_events; i++) {
		ftrace_event_load(ctx, ctx->events[i]);
		type = ftrace_field_find(ctx->events[i], "common_type");
		if (type) {
			out->type_offset = type->offset;
			out->type_size = type->size;
			break;
		}
	}
	/*
	 * Print fmts compile when an event of theirs is first printed: a `-e all` file holds
	 * 2,000 formats and events of a few. One tracekit cannot compile prints its fields raw,
	 * as libtraceevent does.
	 */
	ftrace_print_lazily(ctx);
	return TK_OK;
}

static enum tk_status parse_metadata(struct td_source *ts)
{
	struct tracedat_common cf;
	enum tk_status st = tracedat_ftrace_setup(&ts->td->info, &ts->ctx, &cf);

	ts->type_offset = cf.type_offset;
	ts->type_size = cf.type_size;
	ts->pid_offset = cf.pid_offset;
	ts->pid_size = cf.pid_size;
	return st;
}

/* Add one environment entry (string when @str, else integer). */
static int env_add(struct tk_source *src, const char *key, const char *str, int64_t integer)
{
	struct model_env *e;

	if (!src->env) {
		src->env = arena_alloc(&src->arena, 16 * sizeof(*src->env));
		if (!src->env)
			return -1;
	}
	if (src->n_env == 16)
		return 0;
	e = &src->env[src->n_env++];
	e->key = key;
	e->str = str ? arena_strdup(&src->arena, str) : NULL;
	e->integer = integer;
	return str && !e->str ? -1 : 0;
}

/* What `tracekit info` shows of the file besides streams and events: the header, options. */
static enum tk_status describe(struct tk_source *src, const struct tracedat_info *in)
{
	int bad = 0;

	bad |= env_add(src, "file_version", NULL, in->version);
	bad |= env_add(src, "endianness", in->bo == TK_BYTE_ORDER_BE ? "big" : "little", 0);
	bad |= env_add(src, "long_size", NULL, in->header_long_size);
	bad |= env_add(src, "page_size", NULL, in->page_size);
	bad |= env_add(src, "compression", in->compression ? in->compression : "none", 0);
	bad |= env_add(src, "cpus", NULL, in->cpus);
	if (in->trace_clock)
		bad |= env_add(src, "trace_clock", in->trace_clock, 0);
	if (in->uname)
		bad |= env_add(src, "uname", in->uname, 0);
	if (in->tc_version)
		bad |= env_add(src, "tracecmd_version", in->tc_version, 0);
	if (in->has_date)
		bad |= env_add(src, "date_offset_ns", NULL, in->date_offset_ns);
	if (in->has_offset)
		bad |= env_add(src, "offset_ns", NULL, in->offset_ns);
	if (in->has_tsc2nsec) {
		bad |= env_add(src, "tsc2nsec_mult", NULL, in->tsc2nsec_mult);
		bad |= env_add(src, "tsc2nsec_shift", NULL, in->tsc2nsec_shift);
	}
	bad |= env_add(src, "buffers", NULL, (int64_t) in->n_buffers);
	return bad ? TK_FAIL(TK_ERR_NOMEM, "Cannot describe trace.dat") : TK_OK;
}

/* ---- the model: buffers, CPUs, and one event class per format (ftrace-model.c) ----------- */

/* The packet context of every stream: the CPU, as LTTng kernel traces have it. */
static struct model_fc *cpu_context_fc(struct arena *a)
{
	return model_struct_of_one(a, "cpu_id",
				   ftrace_model_int_fc(a, 4, 0, 0, TK_BYTE_ORDER_HOST));
}

static enum tk_status build_model(struct tk_source *src, struct td_source *ts, const char *path)
{
	const struct tracedat_info *in = &ts->td->info;
	struct arena *a = &src->arena;
	size_t b, i, n_streams = 0;
	int64_t sub;
	enum tk_status st;

	src->format = "trace.dat";
	src->path = arena_strdup(a, path);
	src->name = src->path;
	src->time_may_go_back = 1;
	st = describe(src, in);
	if (st < 0)
		return st;
	src->n_scs = in->n_buffers;
	src->scs = arena_alloc(a, (in->n_buffers + 1) * sizeof(*src->scs));
	src->clocks = arena_alloc(a, (in->n_buffers + 1) * sizeof(*src->clocks));
	if (!src->path || !src->scs || !src->clocks)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace.dat: path=%s", path);
	for (b = 0; b < in->n_buffers; b++)
		n_streams += in->buffers[b].n_cpus;
	src->streams = arena_alloc(a, (n_streams + 1) * sizeof(*src->streams));
	if (!src->streams)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace.dat: path=%s", path);
	for (b = 0; b < in->n_buffers; b++) {
		const struct tracedat_buffer *buf = &in->buffers[b];
		struct model_stream_class *sc = arena_alloc(a, sizeof(*sc));
		struct tk_clock *clk = arena_alloc(a, sizeof(*clk));

		if (!sc || !clk)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace.dat: path=%s", path);
		/*
		 * The trace clock, counting ns (or raw counts) from the file's DATE and OFFSET:
		 * what events' times add to what their records hold. Absolute with a DATE.
		 */
		clk->name = buf->clock ? buf->clock : "local";
		clk->description = "trace-cmd trace clock";
		clk->freq = UINT64_C(1000000000);
		clk->offset_s = ts->ts_offset / 1000000000;
		sub = ts->ts_offset % 1000000000;
		if (sub < 0) {
			clk->offset_s--;
			sub += 1000000000;
		}
		clk->offset_cycles = (uint64_t) sub;
		clk->absolute = in->has_date;
		model_clock_finish(clk);
		src->clocks[src->n_clocks++] = clk;
		sc->id = b;
		sc->instance = b > 0;
		sc->has_cpu = 1;
		sc->source = src;
		sc->clock = clk;
		sc->packet_context = cpu_context_fc(a);
		if (!sc->packet_context)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace.dat: path=%s", path);
		sc->fmt = (void *) buf;
		/* the event formats, then one class for records of an unknown event */
		sc->n_ecs = ts->ctx.n_events + 1;
		sc->ecs = arena_alloc(a, (sc->n_ecs + 1) * sizeof(*sc->ecs));
		if (!sc->ecs)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace.dat: path=%s", path);
		for (i = 0; i < sc->n_ecs; i++) {
			struct tk_event_class *ec = arena_alloc(a, sizeof(*ec));

			if (!ec)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace.dat: path=%s",
					       path);
			ec->sc = sc;
			if (i < ts->ctx.n_events) {
				/* its fields when an event of it is met: td_class_load() */
				ftrace_model_event_class_declare(ts->ctx.events[i], ec);
			} else {
				/* name and fmt NULL: "[UNKNOWN EVENT]" */
				st = ftrace_model_unknown_class(a, &ts->ctx, ec);
				if (st < 0)
					return TK_FAIL(st, "Cannot open trace.dat: path=%s", path);
			}
			sc->ecs[i] = ec;
		}
		st = model_stream_class_index(sc, a);
		if (st < 0)
			return st;
		src->scs[b] = sc;
		for (i = 0; i < buf->n_cpus; i++) {
			struct tk_stream *s = arena_alloc(a, sizeof(*s));
			struct td_stream *tds = arena_alloc(a, sizeof(*tds));

			if (!s || !tds)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace.dat: path=%s",
					       path);
			tds->buffer = b;
			tds->cpu_index = i;
			s->source = src;
			s->sc = sc;
			s->id = buf->cpus[i].cpu;
			s->path = src->path;
			s->fmt = tds;
			src->streams[src->n_streams++] = s;
		}
	}
	return TK_OK;
}

/* model_source_ops.class_load: the class of a declared format (ftrace-model.c) */
static enum tk_status td_class_load(struct tk_event_class *ec)
{
	struct tk_source *src = ec->sc->source;
	struct td_source *ts = src->fmt;

	return ftrace_model_event_class(&src->arena, &ts->ctx, ec->fmt, ec);
}

static void td_source_destroy(struct tk_source *src)
{
	struct td_source *ts;

	if (!src)
		return;
	ts = src->fmt;
	if (ts) {
		ftrace_ctx_fini(&ts->ctx);
		tracedat_close(ts->td);
		vec_fini(&ts->eh_text);
		free(ts);
	}
	arena_fini(&src->arena);
	free(src);
}

static enum tk_status td_open(struct tk_source **out, struct tracedat *td, const char *path)
{
	struct tk_source *src = calloc(1, sizeof(*src));
	struct td_source *ts = calloc(1, sizeof(*ts));
	const struct tracedat_info *in = &td->info;
	enum tk_status st;

	if (!src || !ts) {
		free(src);
		free(ts);
		tracedat_close(td);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace.dat: path=%s", path);
	}
	arena_init(&src->arena);
	src->ops = &td_source_ops;
	src->fmt = ts;
	ts->td = td;
	ftrace_ctx_init(&ts->ctx, in->bo);
	if (in->has_tsc2nsec && in->tsc2nsec_mult) { /* libtracecmd skips a zero multiplier */
		ts->has_tsc2nsec = 1;
		ts->tsc_mult = in->tsc2nsec_mult;
		ts->tsc_shift = in->tsc2nsec_shift;
	}
	if (in->has_date)
		ts->ts_offset += in->date_offset_ns;
	if (in->has_offset)
		ts->ts_offset += in->offset_ns;
	ts->in_ns = in->has_tsc2nsec || clock_in_ns(in->n_buffers ? in->buffers[0].clock : NULL);
	st = parse_metadata(ts);
	if (st >= 0)
		st = build_model(src, ts, path);
	if (st >= 0 && in->kallsyms_problem) {
		static const char fmt[] =
			"Cannot read trace.dat kallsyms: path=%s, reason=function "
			"addresses print without their names: %s";
		size_t n = strlen(fmt) + strlen(path) + strlen(in->kallsyms_problem);
		char *text = arena_alloc(&src->arena, n);

		if (!text)
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot open trace.dat: path=%s", path);
		else
			snprintf(text, n, fmt, path, in->kallsyms_problem);
		src->warning = text;
	}
	if (st < 0) {
		td_source_destroy(src);
		return TK_FAIL(st, "Cannot open trace.dat: path=%s", path);
	}
	*out = src;
	return TK_OK;
}

enum tk_status tracedat_source_open(struct tk_source **out, const char *path)
{
	struct tracedat *td;
	enum tk_status st = tracedat_open(&td, path);

	if (st < 0)
		return st;
	return td_open(out, td, path);
}

enum tk_status tracedat_source_open_mem(struct tk_source **out, const uint8_t *data, size_t size,
					const char *name)
{
	struct tracedat *td;
	enum tk_status st = tracedat_open_mem(&td, data, size);

	if (st < 0)
		return TK_FAIL(st, "Cannot open trace.dat: path=%s", name);
	return td_open(out, td, name);
}

struct ftrace_ctx *tracedat_source_ftrace(const struct tk_source *src)
{
	return src && src->ops == &td_source_ops ? &((struct td_source *) src->fmt)->ctx : NULL;
}

const struct tracedat_info *tracedat_source_info(const struct tk_source *src)
{
	return src && src->ops == &td_source_ops ? &((const struct td_source *) src->fmt)->td->info
						 : NULL;
}

/* A record's event id (its common_type field), or UINT64_MAX when the record is too short. */
static uint64_t record_type(const struct td_source *ts, const uint8_t *rec, size_t size)
{
	const uint8_t *p = rec + ts->type_offset;

	if (ts->type_offset > size || ts->type_size > size - ts->type_offset ||
	    !tk_int_size_ok(ts->type_size))
		return UINT64_MAX;
	return tk_load_uint(p, ts->type_size, ts->ctx.bo);
}

struct tracedat *tracedat_source_container(const struct tk_source *src)
{
	return src && src->ops == &td_source_ops ? ((const struct td_source *) src->fmt)->td : NULL;
}

/* The TIME_SHIFT samples of CPU @cpu of buffer @buffer, or NULL. */
static const struct tracedat_tsync_cpu *td_shift(const struct td_source *ts, size_t buffer,
						 uint32_t cpu)
{
	const struct tracedat_tsync *tsync = ts->td->info.tsync;

	/* libtracecmd moves the top buffer's times only: instances get no host sync */
	return buffer == 0 && tsync && cpu < tsync->n_cpus ? &tsync->cpus[cpu] : NULL;
}

int64_t tracedat_source_time(const struct tk_source *src, size_t buffer, uint32_t cpu, uint64_t raw)
{
	const struct td_source *ts = src->fmt;

	return td_time(ts, td_shift(ts, buffer, cpu), raw);
}

const struct ftrace_event *tracedat_source_event_of(const struct tk_source *src, const uint8_t *rec,
						    size_t size)
{
	const struct td_source *ts = src->fmt;
	uint64_t id = record_type(ts, rec, size);

	return id > UINT32_MAX ? NULL : ftrace_event_find(&ts->ctx, (uint32_t) id);
}

/*
 * The task of a record: common_pid (signed, as trace-cmd prints it) and its name from the
 * saved command lines and the names learnt since, as trace-cmd report shows them.
 */
static void td_task(const struct tk_event *ev, int64_t *pid, const char **comm)
{
	const struct td_source *ts = ev->stream->source->fmt;
	const uint8_t *p = ev->raw + ts->pid_offset;
	int64_t v = -1;

	if (ev->raw && ts->pid_offset <= ev->raw_size &&
	    ts->pid_size <= ev->raw_size - ts->pid_offset && ts->pid_size >= 2 &&
	    tk_int_size_ok(ts->pid_size))
		v = (int64_t) tk_load_int(p, ts->pid_size, 1, ts->ctx.bo);
	*pid = v;
	*comm = tracedat_task_comm(ts, v);
}

/* Field predicates read the ftrace fields of the record (ftrace-model.c). */
static int td_raw_field(const struct tk_event_class *ec, uint32_t i, struct model_raw_field *out)
{
	return ftrace_model_raw_field(ec->fmt, i, out);
}

static void td_raw_value(const struct tk_event *ev, uint32_t i, struct model_raw_value *out)
{
	const struct td_source *ts = ev->stream->source->fmt;

	ftrace_model_raw_value(&ts->ctx, ev->ec->fmt, i, ev->raw, ev->raw ? ev->raw_size : 0, out);
}

/* ---- reading ------------------------------------------------------------------------------ */

/* The cause naming the page being read: its buffer (instances only), CPU, index, offset. */
static TK_NOINLINE TK_COLD enum tk_status page_fail(const struct td_cursor *c, enum tk_status st)
{
	const struct td_stream *tds = c->stream->fmt;
	const struct tracedat_buffer *b = &c->ts->td->info.buffers[tds->buffer];

	return TK_FAIL(st,
		       "Cannot read page: " TRACEDAT_BUF_FMT "cpu=%llu, index=%llu, offset=%llu",
		       TRACEDAT_BUF_ARGS(b), (unsigned long long) c->stream->id,
		       (unsigned long long) (c->page_no - 1),
		       (unsigned long long) tracedat_pages_offset(c->pages));
}

/* Load the next page with at least one record; TK_END after the last. */
static enum tk_status cursor_next_page(struct td_cursor *c)
{
	const uint8_t *page;
	size_t size;
	enum tk_status st;

	for (;;) {
		st = tracedat_pages_next(c->pages, &page, &size);
		if (st != TK_OK)
			return st;
		c->page_no++;
		st = ftrace_page_init(&c->pg, &c->ts->ctx.layout, c->ts->ctx.bo, page, size);
		if (st < 0)
			return page_fail(c, st);
		c->missed = c->pg.missed;
		c->have_page = 1;
		return TK_OK;
	}
}

static enum tk_status td_cursor_next(struct model_cursor *mc, struct model_item *out)
{
	struct td_cursor *c = (struct td_cursor *) mc;
	struct ftrace_record rec;
	enum tk_status st;
	uint64_t id;

	for (;;) {
		if (!c->have_page) {
			st = cursor_next_page(c);
			if (st != TK_OK)
				return st;
		}
		st = ftrace_page_next(&c->pg, &rec);
		if (st == TK_END) {
			c->have_page = 0;
			continue;
		}
		if (st < 0)
			return page_fail(c, st);
		break;
	}
	c->ev.raw = rec.data;
	c->ev.raw_size = rec.size;
	c->ev.cycles = rec.ts;
	c->ev.ns = td_time(c->ts, c->shift, rec.ts);
	/*
	 * Losses are reported with the first record of the page, and only when that record
	 * opens the page (a time record first hides them from trace-cmd); the count goes
	 * through an int there.
	 */
	c->ev.missed = 0;
	if (c->missed) {
		size_t at = (size_t) (rec.data - c->pg.data) - c->ts->ctx.layout.data_offset;

		if (at == 4 || at == 8)
			c->ev.missed = c->missed < 0 ? -1 : (int64_t) (int32_t) c->missed;
		if (c->ev.missed < -1)
			c->ev.missed = -1;
		c->missed = 0;
	}
	id = record_type(c->ts, rec.data, rec.size);
	c->ev.pending = &c->base;
	c->ev.ec = id == UINT64_MAX ? NULL : model_find_ec(c->stream->sc, id);
	if (!c->ev.ec) /* the class of unknown events, last of the stream class */
		c->ev.ec = c->stream->sc->ecs[c->stream->sc->n_ecs - 1];
	st = model_class_load(c->ev.ec);
	if (st < 0)
		return st;
	out->kind = MODEL_ITEM_EVENT;
	out->has_ts = 1;
	out->ts_ns = c->ev.ns;
	out->event = &c->ev;
	out->notice = NULL;
	return TK_OK;
}

/*
 * The values of the current record: the packet context (its CPU), then the ftrace fields,
 * common ones and the event's own (ftrace-model.c).
 */
static enum tk_status td_cursor_values(struct model_cursor *mc)
{
	struct td_cursor *c = (struct td_cursor *) mc;
	const struct ftrace_event *fev = c->ev.ec->fmt;
	struct model_value *vals;
	size_t payload;
	enum tk_status st;

	c->ev.pending = NULL;
	c->vals.len = 0;
	/* the scopes point into c->vals, which may move while it grows: set them last */
	c->ev.scope[MODEL_SCOPE_PACKET_CONTEXT] = NULL;
	c->ev.scope[MODEL_SCOPE_PAYLOAD] = NULL;
	c->ev.scope[MODEL_SCOPE_COMMON] = NULL;
	if (vec_reserve(&c->vals, sizeof(*vals), 1))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot decode event");
	VEC_AT(&c->vals, struct model_value, 0).v.u = (uint64_t) (uint32_t) c->ev.cpu;
	c->vals.len = 1;
	st = fev ? ftrace_model_values(&c->ts->ctx, fev, c->ev.raw, c->ev.raw_size, &c->vals,
				       &payload)
		 : ftrace_model_unknown_values(&c->ts->ctx, c->ev.raw, c->ev.raw_size, &c->vals,
					       &payload);
	if (st < 0)
		return st;
	vals = c->vals.data;
	c->ev.scope[MODEL_SCOPE_PACKET_CONTEXT] = vals;
	c->ev.scope[MODEL_SCOPE_PAYLOAD] = vals + payload;
	if (c->ev.ec->common)
		c->ev.scope[MODEL_SCOPE_COMMON] = vals + 1;
	return TK_OK;
}

struct td_seek {
	const struct td_source *ts;
	const struct tracedat_tsync_cpu *shift;
	int64_t ns;
};

/* tracedat_pages_seek()'s test: the page holds records and its time is before the one sought. */
static int td_page_before(void *arg, const uint8_t *page, size_t size)
{
	const struct td_seek *k = arg;
	struct ftrace_page pg;

	if (ftrace_page_init(&pg, &k->ts->ctx.layout, k->ts->ctx.bo, page, size) < 0) {
		error_reset(); /* reading reports it, if it is read */
		return 0;
	}
	return pg.end > pg.pos && td_time(k->ts, k->shift, pg.ts) < k->ns;
}

/*
 * @pr to the pages around @ns, found by their time stamps (every record of a page is at or
 * after its stamp, and a CPU's pages follow each other in time).
 */
static enum tk_status td_seek(const struct td_source *ts, const struct tracedat_tsync_cpu *shift,
			      struct tracedat_pages *pr, int64_t ns, uint64_t *skipped)
{
	struct td_seek k = {ts, shift, ns};

	return tracedat_pages_seek(pr, td_page_before, &k, skipped);
}

enum tk_status tracedat_source_seek(const struct tk_source *src, size_t buffer, uint32_t cpu,
				    struct tracedat_pages *pr, int64_t ns, uint64_t *skipped)
{
	const struct td_source *ts = src->fmt;

	return td_seek(ts, td_shift(ts, buffer, cpu), pr, ns, skipped);
}

/* model_cursor_ops.seek */
static enum tk_status td_cursor_seek(struct model_cursor *mc, int64_t ns)
{
	struct td_cursor *c = (struct td_cursor *) mc;
	uint64_t skipped = 0;
	enum tk_status st = td_seek(c->ts, c->shift, c->pages, ns, &skipped);

	c->page_no += skipped;
	return st;
}

static void td_cursor_destroy(struct model_cursor *mc)
{
	struct td_cursor *c = (struct td_cursor *) mc;

	tracedat_pages_close(c->pages);
	vec_fini(&c->vals);
	free(c);
}

static const struct model_cursor_ops td_cursor_ops = {
	.next = td_cursor_next,
	.values = td_cursor_values,
	.seek = td_cursor_seek,
	.destroy = td_cursor_destroy,
};

static enum tk_status td_cursor_open(struct tk_stream *stream, struct model_cursor **out)
{
	struct td_source *ts = stream->source->fmt;
	const struct td_stream *tds = stream->fmt;
	struct td_cursor *c = calloc(1, sizeof(*c));
	enum tk_status st;

	if (!c)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read CPU: cpu=%llu",
			       (unsigned long long) stream->id);
	c->base.ops = &td_cursor_ops;
	c->stream = stream;
	c->ts = ts;
	c->ev.stream = stream;
	c->ev.has_ts = 1;
	c->ev.cpu = (int32_t) stream->id;
	c->shift = td_shift(ts, tds->buffer,
			    ts->td->info.buffers[tds->buffer].cpus[tds->cpu_index].cpu);
	st = tracedat_pages_open(ts->td, tds->buffer, tds->cpu_index, &c->pages);
	if (st < 0) {
		free(c);
		return TK_FAIL(st, "Cannot read CPU: cpu=%llu", (unsigned long long) stream->id);
	}
	*out = &c->base;
	return TK_OK;
}

/* The host and the ftrace metadata, as the trace.dat-to-CTF shortcut keeps them. */
static enum tk_status td_export_env(const struct tk_source *src, const uint64_t *sc_ids,
				    const uint8_t *used, size_t n_used,
				    const struct model_env_out *out)
{
	const struct tracedat_info *in = tracedat_source_info(src);
	enum tk_status st = convert_env_host(out, in);

	/* stream class b is buffer b (build_model()) */
	return st < 0 ? st : convert_env_write(out, src, sc_ids, src->n_scs, used, n_used);
}

static const struct model_source_ops td_source_ops = {
	.cursor_open = td_cursor_open,
	.destroy = td_source_destroy,
	.task = td_task,
	.raw_field = td_raw_field,
	.raw_value = td_raw_value,
	.text = &tracedat_text_ops,
	.export_env = td_export_env,
	.class_load = td_class_load,
};
