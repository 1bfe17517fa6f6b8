// SPDX-License-Identifier: MIT
/*
 * What `trace-cmd report` (3.1.6) prints of a trace.dat file besides the layout of its lines:
 * the prologue ("cpus=N" and a latency file's text), the event formats (--events), the buffer
 * names of instance lines, the task of each record and the text after the event's name, from
 * the ftrace module's print fmts (printfmt.h). The trace-cmd sink (src/output/tracecmd.c)
 * lays each line out around these through struct model_text_ops, so outputs know no format.
 */
#include <string.h>

#include "../common/error.h"
#include "../common/writer.h"
#include "../ftrace/printfmt.h"
#include "source-priv.h"
#include "tracedat-eh.h"

/* What trace-cmd report prints before the events: "cpus=N" and a latency file's text. */
static enum tk_status text_prologue(const struct tk_source *src, struct writer *w)
{
	struct td_source *ts = src->fmt;
	const struct tracedat_info *in = &ts->td->info;
	struct tracedat_blob text;
	enum tk_status st;
	char *q;

	q = writer_reserve(w, 32);
	memcpy(q, "cpus=", 5);
	q += 5;
	q += fmt_u64(q, in->cpus);
	*q++ = '\n';
	writer_commit_to(w, q);
	/*
	 * A latency-format file holds the tracer's own text, printed as it is. (trace-cmd 3.1.6
	 * loses its first 8 bytes in version 6 files with a TRACECLOCK option, reading them as
	 * the length of a clock text; we do not copy that.)
	 */
	if (!in->n_buffers || !in->buffers[0].latency)
		return TK_OK;
	st = tracedat_latency_text(ts->td, 0, &text);
	if (st < 0)
		return TK_FAIL(st, "Cannot read latency text: path=%s", src->path);
	if (text.len) {
		writer_write(w, text.data, text.len);
		writer_putc(w, '\n');
	}
	return TK_OK;
}

/* trace-cmd report --events: each system's format files as the file holds them. */
static void text_formats(const struct tk_source *src, struct writer *w)
{
	const struct td_source *ts = src->fmt;
	const struct tracedat_info *in = &ts->td->info;
	size_t j, k;

	for (j = 0; j < in->n_systems; j++) {
		const struct tracedat_system *sys = &in->systems[j];

		writer_puts(w, "\nsystem: ");
		writer_puts(w, sys->name);
		writer_putc(w, '\n');
		for (k = 0; k < sys->n_formats; k++) {
			writer_write(w, sys->formats[k].data, sys->formats[k].len);
			writer_putc(w, '\n');
		}
	}
}

/* An instance buffer's name as trace-cmd shows input names: its basename. */
static const char *text_stream_name(const struct model_stream_class *sc)
{
	const struct tracedat_buffer *buf = sc->fmt;
	const char *slash;

	if (!sc->id)
		return NULL; /* the top buffer */
	slash = strrchr(buf->name, '/');
	return slash ? slash + 1 : buf->name;
}

static int text_time_in_ns(const struct tk_source *src)
{
	return ((const struct td_source *) src->fmt)->in_ns;
}

const char *tracedat_task_comm(const struct td_source *ts, int64_t pid)
{
	const char *name;

	if (pid == 0)
		return "<idle>";
	name = pid >= INT32_MIN && pid <= INT32_MAX ? ftrace_comm_find(&ts->ctx, (int32_t) pid)
						    : NULL;
	return name ? name : MODEL_TASK_UNKNOWN;
}

/*
 * The task of a line: common_pid of the record, as trace-cmd report reads it (signed, cut
 * to an int; 0 when the record is too short for it), and its name, looked up again only
 * when the pid or the table of names changed.
 */
static const char *text_task(const struct tk_event *ev, int64_t *pid)
{
	struct td_source *ts = ev->stream->source->fmt;
	int64_t v = 0;

	if (ts->pid_offset <= ev->raw_size && ts->pid_size <= ev->raw_size - ts->pid_offset)
		v = (int32_t) tk_load_int(ev->raw + ts->pid_offset, ts->pid_size, 1, ts->ctx.bo);
	*pid = v;
	if (!ts->line_comm || v != ts->line_pid || ts->ctx.n_comms != ts->line_n_comms) {
		ts->line_pid = v;
		ts->line_comm = tracedat_task_comm(ts, v);
		ts->line_n_comms = ts->ctx.n_comms;
	}
	return ts->line_comm;
}

static bool text_wants_next(const struct tk_event_class *ec, unsigned int flags)
{
	const struct ftrace_event *fev = ec->fmt;
	const struct td_source *ts = ec->sc->source->fmt;

	return fev && !(flags & (MODEL_TEXT_RAW | MODEL_TEXT_PERF)) &&
	       ftrace_print_wants_next(&ts->ctx, fev);
}

static bool text_event(const struct tk_event *ev, const struct tk_event *next, unsigned int flags,
		       struct writer *w)
{
	struct td_source *ts = ev->stream->source->fmt;
	const struct ftrace_event *fev = ev->ec->fmt;
	struct ftrace_comm_ref refs[2];
	unsigned int i, n;
	bool used = false;

	if (!fev)
		return false;
	if (flags & MODEL_TEXT_RAW) {
		ftrace_print_raw(&ts->ctx, fev, ev->raw, ev->raw_size, w);
		return false;
	}
	if (flags & MODEL_TEXT_PERF) { /* perf's text: no plugin, and no task names learnt */
		ftrace_print_info_plain(&ts->ctx, fev, ev->raw, ev->raw_size, (int) ev->cpu, w);
		return false;
	}
	if (next)
		used = ftrace_print_info_next(&ts->ctx, fev, ev->raw, ev->raw_size, (int) ev->cpu,
					      (uint64_t) ev->ns, next->raw, next->raw_size, w);
	else
		ftrace_print_info_ts(&ts->ctx, fev, ev->raw, ev->raw_size, (int) ev->cpu,
				     (uint64_t) ev->ns, w);
	/* a user_events EventHeader record: its fields after the header its format prints */
	tracedat_eh_text(fev, ev->raw, ev->raw_size, &ts->eh_text, w);
	/* the task names trace-cmd's sched plugin learns while printing */
	n = ftrace_print_comms(&ts->ctx, fev, ev->raw, ev->raw_size, refs);
	for (i = 0; i < n; i++)
		if (ftrace_comm_register(&ts->ctx, refs[i].pid, refs[i].comm,
					 strnlen(refs[i].comm, refs[i].len)) < 0)
			error_reset(); /* out of memory: the name stays unknown */
	return used;
}

/*
 * model_text_ops.decode_json: a record as LinuxTracepoints' decoder writes a sample (no tool
 * of it reads trace.dat files; the layout is perf-decode's): "meta" has the time in seconds,
 * the CPU, and common_pid as pid and tid.
 */
static enum tk_status text_decode_json(const struct tk_event *ev, unsigned int flags,
				       struct vec *out)
{
	struct td_source *ts = ev->stream->source->fmt;
	unsigned int jf = eventheader_json_flags(flags);
	struct eventheader_sample meta = {0};
	int64_t pid;
	enum tk_status st;

	meta.has_time = ev->ns >= 0;
	meta.sec = ev->ns / 1000000000;
	meta.nsec = (uint32_t) (ev->ns % 1000000000);
	meta.has_cpu = ev->cpu >= 0;
	meta.cpu = (uint32_t) ev->cpu;
	(void) text_task(ev, &pid);
	meta.has_tid = 1;
	meta.pid = meta.tid = (uint32_t) pid;
	st = tracedat_eh_json(&ts->ctx, ev->ec->fmt, NULL, 0, ev->raw, ev->raw_size, &meta, jf,
			      out);
	if (st < 0 && st != TK_ERR_NOMEM)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot decode EventHeader event: cpu=%d, time=%lld",
			       (int) ev->cpu, (long long) ev->ns);
	return st;
}

const struct model_text_ops tracedat_text_ops = {
	.tool = MODEL_TEXT_TOOL_TRACECMD,
	.decode_json = text_decode_json,
	.prologue = text_prologue,
	.formats = text_formats,
	.stream_name = text_stream_name,
	.time_in_ns = text_time_in_ns,
	.task = text_task,
	.wants_next = text_wants_next,
	.event = text_event,
};
