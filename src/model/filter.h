/* SPDX-License-Identifier: MIT */
/*
 * The filter stage (include/tracekit/filter.h) as the library's own paths use it: the
 * conversions (src/pipeline/convert.c and the sinks) and the trace.dat copy (src/tracedat/tracedat-copy.c),
 * which match records it makes into events itself.
 */
#ifndef TK_MODEL_FILTER_H
#define TK_MODEL_FILTER_H

#include <stdint.h>

#include <tracekit/filter.h>

#include "model.h"

/*
 * Whether @f may keep events of @ec (the class is selected and has every field the selection
 * asks about); NULL keeps every class. Outputs that lay out columns per class use it.
 */
int model_filter_keeps_class(const struct tk_filter *f, const struct tk_event_class *ec);

/* Whether @f keeps every event (no selection at all): outputs may copy without looking. */
int model_filter_all(const struct tk_filter *f);

/*
 * The time window of @f in nanoseconds from the origin, times of day placed on their day:
 * *has_begin and *has_end 0 when a side is open.
 */
void model_filter_window(const struct tk_filter *f, int *has_begin, int64_t *begin, int *has_end,
			 int64_t *end);

/*
 * The seam for field predicates (trace-cmd's -F, over the field-value API): a test run on
 * each event that passed every other part, last. @fn returns 1 to keep, 0 to drop, or a
 * negative status. One predicate per filter; a second replaces the first.
 */
typedef int (*model_filter_pred)(const struct tk_event *ev, void *payload);
void model_filter_set_predicate(struct tk_filter *f, model_filter_pred fn, void *payload);

#endif /* TK_MODEL_FILTER_H */
