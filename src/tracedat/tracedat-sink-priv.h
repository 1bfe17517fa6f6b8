/* SPDX-License-Identifier: MIT */
/*
 * The state of the trace.dat sink (tracedat-sink.c), shared with its raw case
 * (tracedat-sink-raw.c: a lone source whose events are whole ftrace records, copied as they
 * are under the source's own formats) and the calls each file offers the other. Private to
 * src/tracedat.
 */
#ifndef TK_TRACEDAT_SINK_PRIV_H
#define TK_TRACEDAT_SINK_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "../common/arena.h"
#include "../common/vec.h"
#include "../ftrace/ftrace.h"
#include "../ftrace/page-write.h"
#include "../model/model.h"
#include "../model/sink.h"
#include "tracedat-env.h"
#include "tracedat-sink-record.h"
#include "tracedat.h"

#define SYNTH_PAGE_MAX (1u << 26) /* the largest sub-buffer trace.dat readers take */

/* One CPU of one output buffer: its pages go to a temporary file. */
struct spool {
	struct dat_conv *c;
	int fd;
	struct ftrace_page_writer pw;
	uint64_t last_ts;
	uint64_t bytes;
};

struct out_buffer {
	const char *name;  /* "" for the top buffer */
	const char *clock; /* its clock name, or NULL: the trace clock */
	struct spool **cpus;
	size_t n_cpus;
};

/* What is known of one input stream. */
struct in_stream {
	int known;
	size_t buffer;
	int cpu_member;	       /* in the packet context, or -1 */
	int64_t last_pid;      /* synthesized case: the pid whose name was noted last, or -1 */
	const char *last_comm; /* raw case: the name noted last for last_pid */
	int64_t missed;	       /* events lost before dropped events (tk_event.missed) */
	const char *env_comm;  /* its source's procname environment entry, or NULL */
	/*
	 * Losses the iterator reported (struct tk_notice) since the stream's last event
	 * written: the events lost, counted (-1: an unknown number), and whether packets
	 * were lost.
	 */
	int64_t lost_events;
	uint8_t lost_packets;
};

/* What is known of one input event class. */
struct in_class {
	struct convert_record_plan *plan;
	uint32_t id;	  /* the format the plan writes (env: the event's common_type) */
	int type_member;  /* env: common_type in the stream event context, or -1 */
	int type_scope;	  /* env: the scope (enum model_scope) type_member is in */
	int has_type_val; /* env: the class had an event (id is that event's common_type) */
	int raw;	  /* env: records of no known format, copied as their bytes */
	int warned;	  /* raw case: its events have no record, and a warning said so */
	int pid_field;	  /* raw case: common_pid among its raw fields, -1 none, -2 not sought */
	/* synthesized: the context members of the task's pid and name (scope 0 or 1, index) */
	int pid_k, pid_m, comm_k, comm_m;
};

struct dat_conv {
	struct tk_trace *t;
	struct sink_ctx *f;
	const char *output;
	struct convert_env env;
	struct ftrace_ctx ctx; /* the output's formats and page layout */
	enum tk_byte_order bo;
	uint32_t page_size;
	struct tracedat_writer *w;
	struct out_buffer *buffers;
	size_t n_buffers;
	struct in_stream *streams;
	struct in_class *classes;
	struct vec formats; /* struct synth_format, in id order (synthesized case) */
	struct convert_record rec;
	struct vec comms;      /* struct comm, synthesized case */
	char header_page[256]; /* synthesized case */
	size_t header_page_len;
	uint32_t rec_fits; /* the largest record a page holds */
	uint64_t measure;  /* synthesized case: 0, or the largest record met (nothing written) */
	int64_t origin;	   /* ns of raw time 0 */
	/* raw case: the lone source's ftrace metadata, whose records are copied, or NULL */
	const struct tracedat_info *raw;
	struct arena own_env_arena; /* a trace.dat source's environment (own_env) */
	struct vec own_env;	    /* struct model_env: what its reader keeps (export_env) */
	int absolute;
	uint32_t cpus; /* highest CPU + 1 */
};

/* ---- tracedat-sink.c ---------------------------------------------------------------------- */

/* @size bytes of record at @data for @ev, at its time on CPU @cpu of output buffer @b. */
enum tk_status tracedat_sink_put_record(struct dat_conv *c, const struct tk_event *ev, size_t b,
					uint32_t cpu, const void *data, uint32_t size,
					int64_t missed);

/* The CPU an event of @is goes to (tk_event.cpu, else its packet context's cpu_id, else 0). */
uint32_t tracedat_sink_cpu(const struct tk_event *ev, const struct in_stream *is);

/* The losses the iterator reported for @is since its last event written, and none left. */
int64_t tracedat_sink_take_losses(struct in_stream *is);

/*
 * The name @name (@len bytes) of task @pid for the saved command lines; @copy: a copy is
 * kept, else @name lives as long as the conversion. The last name of a pid wins.
 */
enum tk_status tracedat_sink_keep_comm(struct dat_conv *c, int64_t pid, const char *name,
				       size_t len, int copy);

/*
 * Task @pid named @comm (borrowed from its source) of a stream's event, kept as
 * tracedat_sink_keep_comm() keeps it when the stream's task or its name changed; a task
 * without a pid or name is not.
 */
enum tk_status tracedat_sink_note_task(struct dat_conv *c, struct in_stream *is, int64_t pid,
				       const char *comm);

/* The saved command lines kept, "PID NAME" lines in pid order, to the writer. */
enum tk_status tracedat_sink_put_comms(struct dat_conv *c);

/* The trace clock's name for the output: the input clock's when trace-cmd knows it. */
const char *tracedat_sink_clock(const struct dat_conv *c);

/* ---- tracedat-sink-raw.c ------------------------------------------------------------------ */

/* Set up @c for the records of @src, described by its ftrace metadata @in. */
enum tk_status tracedat_sink_raw_setup(struct dat_conv *c, const struct tk_source *src,
				       const struct tracedat_info *in);

/* Write @ev, an event of the stream @is, as its record. */
enum tk_status tracedat_sink_raw_event(struct dat_conv *c, const struct tk_event *ev,
				       struct in_stream *is);

/* The metadata of the file, once the events are written. */
enum tk_status tracedat_sink_raw_metadata(struct dat_conv *c);

#endif /* TK_TRACEDAT_SINK_PRIV_H */
