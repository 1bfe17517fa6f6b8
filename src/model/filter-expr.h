/* SPDX-License-Identifier: MIT */
/*
 * Field predicates of the filter stage, in `trace-cmd report -F` syntax (filter-expr.c):
 * parsed once without a trace (so the parser can be fuzzed alone), bound to a trace (which
 * classes the event part lists, where each class keeps each field named), then matched per
 * event.
 *
 *	if (model_pred_parse(&p, "sched_switch: prev_pid == 0") < 0 ||
 *	    model_pred_bind(p, trace) < 0)
 *		return error;
 *	if (model_pred_lists(p, ev->ec) && model_pred_match(p, ev, &match) == TK_OK && match)
 *		keep(ev);
 */
#ifndef TK_MODEL_FILTER_EXPR_H
#define TK_MODEL_FILTER_EXPR_H

#include <stddef.h>

#include "model.h"

struct model_pred;

/*
 * Parse @text, "EVENTS[:EXPRESSION]" (include/tracekit/filter.h, tk_filter_opts.predicates).
 * TK_ERR_INVAL with a cause giving the offset and the reason when it does not parse; the
 * event part's regular expressions are compiled here too.
 */
enum tk_status model_pred_parse(struct model_pred **out, const char *text);

/*
 * Decide, for every event class of @t, whether @p lists it and where it keeps each field the
 * expression names. TK_ERR_NOTFOUND, with the nearest names, when an event pattern matches
 * no class or a field is in no listed class; TK_ERR_INVAL when a field cannot be compared
 * the way the expression does (text with a number, a structure or an array).
 */
enum tk_status model_pred_bind(struct model_pred *p, struct tk_trace *t);

/* Whether the event part of bound @p lists @ec. */
int model_pred_lists(const struct model_pred *p, const struct tk_event_class *ec);

/*
 * Evaluate bound @p on @ev, of a class it lists: *@match 1 or 0. A negative status when
 * the values of @ev could not be decoded.
 */
enum tk_status model_pred_match(const struct model_pred *p, const struct tk_event *ev, int *match);

void model_pred_destroy(struct model_pred *p);

/*
 * @p as parsed, into @buf (@size bytes, NUL-terminated, cut when too small): the event part
 * joined by ',', then ": " and the expression with every && and || group and every ! operand
 * in parentheses and numbers in decimal: "sched/sched_switch: ((a == 1 || b == 2) && c == 3)".
 * For tests and messages.
 */
void model_pred_format(const struct model_pred *p, char *buf, size_t size);

/*
 * Shared with filter.c. The system and name of @ec as selections see them (ftrace's, or a CTF
 * "provider:event" split); "; did you mean X, Y?" into @buf, the class names of @t nearest
 * to @spec ("system:name" when @spec has a colon), or "" when none is near; the edit
 * distance of two names (SIZE_MAX when one is longer than 64).
 */
void model_class_names(const struct tk_event_class *ec, char *sys, size_t size, const char **name);
void model_filter_suggest(const struct tk_trace *t, const char *spec, char *buf, size_t size);
size_t model_edit_distance(const char *a, const char *b);

#endif /* TK_MODEL_FILTER_EXPR_H */
