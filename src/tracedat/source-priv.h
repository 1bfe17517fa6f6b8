/* SPDX-License-Identifier: MIT */
/*
 * What the files of the trace.dat reader share about one source: source.c opens the file and
 * reads its records, tracedat-text.c prints them as trace-cmd report does. Private to
 * src/tracedat: other folders see a source through the model and source.h.
 */
#ifndef TK_TRACEDAT_SOURCE_PRIV_H
#define TK_TRACEDAT_SOURCE_PRIV_H

#include <stdint.h>

#include "../common/vec.h"
#include "../ftrace/ftrace.h"
#include "../model/model.h"
#include "tracedat.h"

/* The reader's state of a source (tk_source.fmt). */
struct td_source {
	struct tracedat *td;
	struct ftrace_ctx ctx; /* not const while printing: trace-cmd's way teaches task names */
	uint32_t type_offset;  /* common_type, which gives a record's event */
	uint32_t type_size;
	uint32_t pid_offset; /* common_pid, the task of a record */
	uint32_t pid_size;
	uint8_t in_ns;
	uint8_t has_tsc2nsec;
	uint32_t tsc_mult, tsc_shift;
	int64_t ts_offset;
	/* the last task a line asked for (tracedat-text.c): consecutive records often share it */
	int64_t line_pid;
	const char *line_comm; /* NULL: none yet */
	size_t line_n_comms;   /* names are learnt while printing: then look again */
	struct vec eh_text;    /* scratch of the text of EventHeader records */
};

/*
 * The name trace-cmd shows for task @pid of @ts: "<idle>" for 0, then the saved command
 * lines and the names learnt while printing, else MODEL_TASK_UNKNOWN.
 */
const char *tracedat_task_comm(const struct td_source *ts, int64_t pid);

/* trace-cmd report's text of a source (tracedat-text.c), model_source_ops.text. */
extern const struct model_text_ops tracedat_text_ops;

#endif /* TK_TRACEDAT_SOURCE_PRIV_H */
