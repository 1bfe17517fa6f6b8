/* SPDX-License-Identifier: MIT */
/*
 * Sinks: where the events of the pipeline go (doc/architecture.md). A sink is a table of
 * methods over the printer (struct tk_printer, pretty.h), which owns the buffered writer, the
 * per-class plans and the sink's own state. The registry (sink.c) numbers sinks by their
 * style (enum tk_print_style for the first ones, then their row), names them for the command
 * line and knows the output extensions that choose them. A new sink is one file defining its
 * struct sink_ops and one row in sink.c.
 */
#ifndef TK_OUTPUT_SINK_H
#define TK_OUTPUT_SINK_H

#include <stddef.h>

#include <tracekit/iter.h>
#include <tracekit/print.h>
#include <tracekit/status.h>
#include <tracekit/trace.h>

struct plan;

/*
 * What a sink does; every method but @event and @notice may be NULL.
 * @begin:   before the first event (a document's head, the trace's prologue).
 * @event:   one event, in time order.
 * @notice:  lost events or packets, in time order with the events.
 * @drain:   no event follows for now: write what waits for a next event.
 * @end:     the end, before the last flush (a document's tail); called once, whatever came
 *           before, and may be called without @begin.
 * @destroy: free the sink's state.
 * @plan:    build the print plan of an event class (pretty_plan_for() keeps it).
 * @carry_losses: 1 when the losses before an event the filter stage leaves out go with the
 *           next event kept in the same stream (outputs that programs read, where a loss has
 *           no line of its own); 0 when they are left out with it, as trace-cmd report -F
 *           does.
 */
struct sink_ops {
	enum tk_status (*begin)(struct tk_printer *p, const struct tk_trace *t);
	enum tk_status (*event)(struct tk_printer *p, const struct tk_event *ev);
	enum tk_status (*notice)(struct tk_printer *p, const struct tk_notice *n);
	void (*drain)(struct tk_printer *p);
	void (*end)(struct tk_printer *p);
	void (*destroy)(struct tk_printer *p);
	enum tk_status (*plan)(struct tk_printer *p, const struct tk_event_class *ec,
			       struct plan **out);
	uint8_t carry_losses;
	/*
	 * 1 when the output repeats a tool that reads files record by record: sources give
	 * their records in stored order (tk_source.stored_order), not sorted.
	 */
	uint8_t stored_order;
};

/* The sinks, each defined in its own file. */
extern const struct sink_ops sink_babeltrace;  /* pretty.c */
extern const struct sink_ops sink_tracecmd;    /* tracecmd.c */
extern const struct sink_ops sink_auto;	       /* tracecmd.c: each source in its tool's style */
extern const struct sink_ops sink_perfscript;  /* perfscript.c */
extern const struct sink_ops sink_json;	       /* json.c */
extern const struct sink_ops sink_chrome;      /* chrome.c */
extern const struct sink_ops sink_csv;	       /* csv.c */
extern const struct sink_ops sink_tsv;	       /* csv.c */
extern const struct sink_ops sink_perf_decode; /* perfdecode.c */
extern const struct sink_ops sink_perf_decode_compact; /* perfdecode.c */

/*
 * The perf style's parts (perfscript.c), for the style "auto" too: one event in perf script's
 * layout (in babeltrace2's when its source has no tool text), one notice (nothing, as perf
 * script prints by default), and the style's state freed.
 */
enum tk_status perfscript_print_event(struct tk_printer *p, const struct tk_event *ev);
enum tk_status perfscript_print_notice(struct tk_printer *p, const struct tk_notice *n);
void perfscript_destroy(struct tk_printer *p);

/* The sink of @style, or NULL for an unknown one. */
const struct sink_ops *sink_for_style(unsigned int style);

/* The style whose output extension ends @path (".jsonl", ".csv", ...), or -1. */
int sink_style_for_path(const char *path);

#endif /* TK_OUTPUT_SINK_H */
