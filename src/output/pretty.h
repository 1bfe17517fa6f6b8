/* SPDX-License-Identifier: MIT */
/*
 * Internals of the babeltrace2-style printer shared by pretty.c (printer, times, header
 * fields, loss notices) and pretty-plan.c (the per-event-class print plans).
 */
#ifndef TK_OUTPUT_PRETTY_H
#define TK_OUTPUT_PRETTY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tracekit/print.h>

#include "../common/vec.h"
#include "../common/writer.h"
#include "../model/model.h"

struct plan;
struct sink_ops;
struct sink_ctx;
struct perfscript_state;

/* What a line needs from a source's environment, looked up once. */
struct source_cache {
	const struct tk_source *src;
	const char *hostname;
	const char *domain;
	const char *procname;
	uint8_t has_vpid;
	int64_t vpid;
};

/*
 * The printer's output buffer, and the room a trace-cmd style line starts with: it flushes
 * first when less is free, so that the whole line stays in the buffer for the check of its
 * last byte. A buffer not well above the room would be written once per line (with 64 KiB,
 * an -e all print took 2.9 times the CPU).
 */
#define PRINTER_BUFFER	  ((size_t) 1 << 20)
#define PRINTER_LINE_ROOM ((size_t) 1 << 16)
_Static_assert(PRINTER_BUFFER >= 4 * PRINTER_LINE_ROOM,
	       "a line's room is a small part of the buffer");

struct tk_printer {
	struct writer out;
	int err_fd;
	unsigned int flags;
	uint8_t has_last_ns;
	uint8_t has_last_cycles;
	uint8_t negative_warned;
	int64_t last_ns;
	uint64_t last_cycles;
	/* time of day of the last whole second printed */
	int64_t cached_sec;
	uint64_t cached_sec_ns; /* cached_sec * 10^9, to test a time without dividing */
	uint8_t has_cached_sec;
	char cached_time[32]; /* "YYYY-MM-DD " (when dated) then "HH:MM:SS" */
	size_t cached_len;
	char line_time[48]; /* the same between '[' and '.', as a line starts */
	size_t line_len;
	/* pretty_time_fast() may run: no option in PRETTY_TIME_SLOW, a last time, a cached second */
	uint8_t time_fast;
	struct source_cache *sources;
	size_t n_sources;
	struct plan **plans; /* by event class index */
	size_t n_plans;
	unsigned int style;	    /* enum tk_print_style */
	const struct sink_ops *ops; /* the sink of the style (sink.h) */
	/*
	 * What tk_printer_print() calls: ops->event, or the function it would call for every
	 * event of the trace, chosen once by the sink's begin (the style "auto" on a trace
	 * printed in babeltrace2's layout throughout: pretty_print_event())
	 */
	enum tk_status (*event)(struct tk_printer *p, const struct tk_event *ev);
	void *state;			/* the sink's own, freed by its destroy() */
	const struct tk_filter *filter; /* tk_printer_set_filter(), or NULL */
	struct tc_cache *tc;		/* trace-cmd style: per source */
	size_t n_tc;
	struct tc_name *tc_names; /* trace-cmd style: per event class */
	size_t n_tc_names;
	struct perfscript_state *perfscript; /* perf style (perfscript.c) */
	struct json_state *json;	     /* JSON lines style (json.c) */
	struct chrome_state *chrome;	     /* Chrome style (chrome.c) */
	/* trace-cmd style: events waiting for the record after an entry (tracecmd.c):
	 * struct tc_held, the slots past len kept with their record buffers for reuse */
	struct vec held;
};

/* A copy of an event waiting in the trace-cmd style's queue. */
struct tc_held {
	struct tk_event ev;
	uint8_t *raw; /* ev.raw points here */
	size_t cap;
	bool used; /* printed in its entry's leaf line */
};

/* Options that take the line start off pretty_time_fast(). */
#define PRETTY_TIME_SLOW                                                                           \
	(TK_PRINT_NAMES_HEADER | TK_PRINT_CLOCK_CYCLES | TK_PRINT_CLOCK_SECONDS | TK_PRINT_NO_DELTA)

/*
 * The usual line start, "[HH:MM:SS.nnnnnnnnn] (+S.nnnnnnnnn) ", at @q (96 bytes free), and
 * its end, or NULL (nothing written) when it is not the usual case: options in
 * PRETTY_TIME_SLOW, no event before, a time before the last one or before the origin, or
 * another second than the one whose time of day is cached (all but the times are in
 * p->time_fast). Within the cached second and for deltas below a second (nearly every
 * event), no division; below 10^8 ns, the delta's digits are one fmt_ascii8().
 */
static inline char *pretty_time_fast(struct tk_printer *p, const struct tk_event *ev, char *q)
{
	uint64_t delta = (uint64_t) ev->ns - (uint64_t) p->last_ns, frac;
	uint64_t sub = (uint64_t) ev->ns - p->cached_sec_ns;

	if (TK_UNLIKELY(!p->time_fast || ev->ns < 0 || ev->ns < p->last_ns ||
			sub >= UINT64_C(1000000000)))
		return NULL;
	memcpy(q, p->line_time, sizeof(p->line_time));
	q += p->line_len;
	memcpy(q + 9, "] (+", 4);
	if (TK_LIKELY(delta < UINT64_C(100000000))) { /* "0.0" and eight digits */
		uint32_t top = (uint32_t) sub / 100000000;

		q[0] = (char) ('0' + top);
		memcpy(q + 13, "0.0", 3);
		fmt_put_ascii8x2(q + 1, (uint32_t) sub - top * 100000000, q + 16, (uint32_t) delta);
		memcpy(q + 24, ") ", 2);
		return q + 26;
	}
	fmt_put_ns9(q, (uint32_t) sub);
	q += 13;
	if (TK_LIKELY(delta < UINT64_C(1000000000))) {
		*q++ = '0';
		frac = delta;
	} else {
		q += fmt_u64(q, delta / 1000000000u);
		frac = delta % 1000000000u;
	}
	*q++ = '.';
	fmt_put_ns9(q, (uint32_t) frac);
	memcpy(q + 9, ") ", 2);
	return q + 11;
}

/* The line start however the options ask for it, through the writer (pretty.c). */
void pretty_put_time(struct tk_printer *p, const struct tk_event *ev);

/* @ev's time and cycles become the last ones, which the next line's delta counts from. */
static inline void pretty_time_done(struct tk_printer *p, const struct tk_event *ev)
{
	p->last_ns = ev->ns;
	if (TK_UNLIKELY(!p->has_last_ns)) {
		p->has_last_ns = 1;
		p->time_fast = !(p->flags & PRETTY_TIME_SLOW) && p->has_cached_sec;
	}
	p->last_cycles = ev->cycles;
	p->has_last_cycles = 1;
}

/* The babeltrace style (pretty.c): an event on the output, a notice on the error descriptor. */
enum tk_status pretty_print_event(struct tk_printer *p, const struct tk_event *ev);
enum tk_status pretty_print_notice(struct tk_printer *p, const struct tk_notice *n);

/* The trace-cmd style (tracecmd.c). */
struct tc_cache;
struct tc_name;
/*
 * tk_printer_close() without starting a new error chain, for library code that closes a
 * printer on its way out of a failure whose causes must stay (tk_convert()).
 */
enum tk_status printer_close(struct tk_printer *p);

/*
 * Everything of a line after the time for events of @ec: trace fields, event name and the
 * scopes, compiled once (literals merged, hidden fields skipped, formats chosen).
 */
enum tk_status plan_build(struct tk_printer *p, const struct tk_event_class *ec, struct plan **out);
/* What plan_exec() needs to take the events of an iterator itself (pretty_print_iter()). */
struct plan_feed {
	struct tk_iter *it;
	struct sink_ctx *cx; /* counts them (sink_progress()); sink_failed set on failures */
};

/*
 * Write @ev by @pl; without an event, only thread @pl (its builder's last step), or with
 * @feed, every event of its iterator, each by its plan (pretty_print_event() for those
 * without one ready), until its end or a failure. A plan that starts with the time (its
 * stream class has a clock) makes @ev's time the printer's last one (pretty_time_done()).
 * Returns TK_OK, or the failure: the writer's, the iterator's or the stop's.
 */
enum tk_status plan_exec(struct tk_printer *p, const struct plan *pl, const struct tk_event *ev,
			 const struct plan_feed *feed);

/* plan_exec() of one event (a tail call: no frame of its own). */
static inline enum tk_status plan_run(struct tk_printer *p, const struct plan *pl,
				      const struct tk_event *ev)
{
	return plan_exec(p, pl, ev, NULL);
}
void plan_free(struct plan *pl);

/* The first member of every plan: its event class is read inline, once per event. */
struct plan_head {
	const struct tk_event_class *ec;
	uint8_t fused; /* it reads skipped fixed-layout bodies where they lie */
};

static inline const struct tk_event_class *plan_event_class(const struct plan *pl)
{
	return ((const struct plan_head *) (const void *) pl)->ec;
}

/*
 * Whether plan_run() prints @ev from the bytes of its skipped body (tk_event.body) rather
 * than from its values: then nobody needs to decode them (model_event_values()).
 */
static inline bool plan_uses_body(const struct plan *pl, const struct tk_event *ev)
{
	return ((const struct plan_head *) (const void *) pl)->fused && ev->body;
}

/* pretty_plan_for() when @ec has no plan yet: build it and keep it. */
enum tk_status pretty_plan_build(struct tk_printer *p, const struct tk_event_class *ec,
				 const struct plan **out);

/* The plan of @ec for the printer's style, built on first use and kept. */
static inline enum tk_status pretty_plan_for(struct tk_printer *p, const struct tk_event_class *ec,
					     const struct plan **out)
{
	const struct plan *pl;

	if (TK_LIKELY(ec->index < p->n_plans && (pl = p->plans[ec->index]) &&
		      plan_event_class(pl) == ec)) {
		*out = pl;
		return TK_OK;
	}
	return pretty_plan_build(p, ec, out);
}

/*
 * pretty_print_event() of every event of @it, in one loop without a call per event (the
 * text sink's, when no filter leaves events out): TK_OK at the end of @it, or the failure,
 * with @cx->sink_failed set when it is the printer's.
 */
static inline enum tk_status pretty_print_iter(struct tk_printer *p, struct tk_iter *it,
					       struct sink_ctx *cx)
{
	struct plan_feed feed = {it, cx};

	return plan_exec(p, NULL, NULL, &feed);
}

/* What a JSON plan holds besides the fields (see plan_build_json()). */
struct plan_json_spec {
	const char *head; /* literal text first */
	size_t head_len;
	const char *const *scope_keys; /* keys of the scopes, by enum model_scope */
	int lead;		       /* a comma before the first key too */
	const char *tail;	       /* literal text last */
	size_t tail_len;
};

/* A plan writing the fields of @ec in JSON syntax (json.c, chrome.c). */
enum tk_status plan_build_json(const struct tk_event_class *ec, const struct plan_json_spec *spec,
			       struct plan **out);

/* The text between the time and the scopes ("host:proc:(vpid) name: "), into @lit. */
enum tk_status pretty_header_text(struct tk_printer *p, const struct tk_event_class *ec,
				  struct vec *lit);

/* A string between double quotes with babeltrace2's escapes. */
void pretty_put_escaped(struct writer *w, const char *s, size_t n);

/*
 * The same at @q, which has room for 4 * @n + 18 bytes (the last 16 scratch); returns the
 * end. For print plans, whose free room is known.
 */
char *pretty_quote_into(char *q, const char *s, size_t n);

/* An enumeration value: ( "LABEL", ... : container = N ). */
void pretty_put_enum(struct writer *w, const struct model_fc *fc, uint64_t u);

/* Its two parts: "( " and the labels (or <unknown>), then " : container = N )". */
void pretty_put_enum_labels(struct writer *w, const struct model_fc *fc, uint64_t u);
void pretty_put_enum_tail(struct writer *w, const struct model_fc *fc, uint64_t u);

/* A double as printf's %g. */
void pretty_put_double(struct writer *w, double d);

#endif /* TK_OUTPUT_PRETTY_H */
