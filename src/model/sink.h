/* SPDX-License-Identifier: MIT */
/*
 * Writer sinks: where tk_convert() sends the events it keeps (doc/architecture.md, "One
 * pipeline"). A sink is a struct sink_class: it opens on a trace and an output path, takes
 * the kept events one by one in time order, with the losses the iterator reports, and
 * closes whole or not at all. The pipeline (src/pipeline/convert.c) owns the one loop that
 * opens the trace, builds the filter stage, iterates, filters and feeds the sink; a sink
 * does only its format's work. The CTF writer (src/ctf/ctf-sink.c), the trace.dat writer
 * (src/tracedat/tracedat-sink.c) and the text sinks (src/output, through the printer) are
 * sink classes; faster paths for particular sources (trace.dat pages copied untouched, the
 * per-class copy plans of trace.dat to CTF, CTF files copied to CTF) are rows of the
 * pipeline's table beside them, used when they recognise the trace, and never needed: the
 * sink alone is complete.
 *
 * This header also has what every path of a conversion shares: the event selection and time
 * window, the progress report, the caller's stop flag and warnings (struct sink_ctx).
 */
#ifndef TK_MODEL_SINK_H
#define TK_MODEL_SINK_H

#include <signal.h>
#include <stdint.h>

#include <tracekit/tracekit.h>

#include "filter.h"
#include "model.h"

struct sink_ctx {
	const struct tk_convert_opts *o;
	struct tk_filter *tf;		   /* the filter stage (include/tracekit/filter.h) */
	uint64_t events;		   /* events converted so far */
	uint64_t total;			   /* events to convert, if known (0 otherwise) */
	const volatile sig_atomic_t *stop; /* tk_convert_opts.stop, or NULL */
	const char *const *inputs;	   /* the paths the trace was opened from */
	size_t n_inputs;
	unsigned int style;		   /* text sinks: the printer's style */
	const struct tk_print_opts *print; /* tk_print(): the printer's options, output its fd */
	uint8_t sink_failed;		   /* the failure came from the sink, not the reading */
};

/*
 * A sink. Every method but @open, @event and @close may be NULL.
 * @name:   its name in causes ("ctf", "trace.dat", "text").
 * @dir:    1 when it writes a directory: @open then gets a directory the pipeline made
 *          under a temporary name and renames when the sink closed well; 0 for a file,
 *          which the sink makes whole or not at all under @path (src/common/outfile.h).
 * @open:   start writing @path for the trace @t; *@state is the sink's.
 * @by_stream: 1 when the output keeps the input's streams apart, so that the events of
 *          one stream after those of another give the same output as the time order: the
 *          loop then reads them so, without the merge's cost (@event, @skip and @notice
 *          then come in each stream's own order).
 * @event:  one event the filter kept, in time order.
 * @events: optional: every event of @it, when the filter stage keeps them all, taken by the
 *          sink itself instead of one @event call each (the text sink's printer runs its
 *          plans in one loop). It counts them with sink_progress(), sets
 *          @cx->sink_failed when a failure is its own, and returns TK_OK at the end of @it
 *          or the failure; or TK_AGAIN, having read nothing, to leave them to @event.
 * @skip:   one event the filter dropped (losses before it belong to the next one kept).
 * @notice: lost events or packets, in time order with the events; a sink that cannot take
 *          one fails its next @event or @close.
 * @close:  the end: @st is TK_OK after the last event, or the failure that stops the
 *          conversion (then nothing may be left behind). On TK_OK the sink may return
 *          TK_AGAIN to be given every event once more (a first pass that measured what
 *          the second needs), and stays open; otherwise it frees its state and returns
 *          the final status.
 */
struct sink_class {
	const char *name;
	uint8_t dir;
	uint8_t by_stream;
	enum tk_status (*open)(void **state, struct tk_trace *t, const char *path,
			       struct sink_ctx *cx);
	enum tk_status (*event)(void *state, const struct tk_event *ev);
	enum tk_status (*events)(void *state, struct tk_iter *it, struct sink_ctx *cx);
	void (*skip)(void *state, const struct tk_event *ev);
	void (*notice)(void *state, const struct tk_notice *n);
	enum tk_status (*close)(void *state, enum tk_status st);
};

/* The CTF writer (src/ctf/ctf-sink.c) and the trace.dat writer (src/tracedat/tracedat-sink.c). */
extern const struct sink_class ctf_sink;
extern const struct sink_class tracedat_sink;

/* TK_ERR_CANCELED with its cause when the caller asked to stop, else TK_OK. */
enum tk_status sink_stopped(const volatile sig_atomic_t *stop);

/* 1 when @ev passes the filter stage, 0 when not, or a negative status. */
static inline int sink_keep(const struct sink_ctx *f, const struct tk_event *ev)
{
	enum tk_status st;
	int keep;

	if (model_filter_all(f->tf))
		return 1;
	st = tk_filter_match(f->tf, ev, &keep);
	return st < 0 ? (int) st : keep;
}

/*
 * Count one event converted, and tell the progress callback now and then; TK_ERR_CANCELED
 * when the caller asked to stop.
 */
static inline enum tk_status sink_progress(struct sink_ctx *f)
{
	if (++f->events % 65536 == 0 && f->o->progress)
		f->o->progress(f->events, f->total, f->o->payload);
	if (__builtin_expect(f->stop && *f->stop, 0))
		return sink_stopped(f->stop);
	return TK_OK;
}

/*
 * Tell the caller's warning callback, if it has one, of a choice that changes the output
 * (src/model/sink.c). @fmt gives one line without a newline.
 */
void sink_warn(const struct sink_ctx *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* TK_MODEL_SINK_H */
