// SPDX-License-Identifier: MIT
/*
 * The trace.dat sink's raw case (tracedat-sink.c has the others): a lone source whose events
 * carry whole ftrace records described by ftrace metadata of its own, laid out as a trace.dat
 * file's (model_source_ops.ftrace_metadata; perf.data: its tracepoint samples and tracing
 * data). The file keeps the source's header_page (so its sub-buffer size and byte order),
 * header_event, every format with its ID, kallsyms and printk formats, and each record as it
 * is, common_type and all, on the CPU the event carries at its time; the saved command lines
 * name the tasks as the source does (perf: its thread table). So an event decodes from the
 * file as from the source, user_events EventHeader payloads included, whatever event classes
 * the source made of the records: classes are never asked for fields or formats here.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "tracedat-sink-priv.h"
#include "tracedat-write.h"

/*
 * Raw case: the name of @ev's task (its source's, model_source_ops.task) for the saved
 * command lines, under the pid trace-cmd looks names up by, the record's common_pid. The two
 * differ when the recorder ran in another pid namespace (perf.data: the sample's tid is in
 * perf's, common_pid in the kernel's); a task outside that namespace has tid 0 there, and no
 * name perf knows, so it gets none.
 */
static enum tk_status note_raw_task(struct dat_conv *c, const struct tk_event *ev,
				    struct in_stream *is, struct in_class *cl)
{
	const struct model_source_ops *ops = ev->stream->source->ops;
	struct model_raw_field f;
	struct model_raw_value v;
	const char *comm;
	int64_t pid;
	uint32_t i;

	if (!ops->task)
		return TK_OK;
	if (cl->pid_field == -2) {
		cl->pid_field = -1;
		for (i = 0; ops->raw_field && ops->raw_value && i < INT32_MAX &&
			    ops->raw_field(ev->ec, i, &f);
		     i++)
			if (f.kind == MODEL_FC_INT && !strcmp(f.name, "common_pid")) {
				cl->pid_field = (int) i;
				break;
			}
	}
	ops->task(ev, &pid, &comm);
	if (cl->pid_field >= 0 && pid >= 0) {
		ops->raw_value(ev, (uint32_t) cl->pid_field, &v);
		if (!pid && (int32_t) v.u)
			return TK_OK;
		pid = (int32_t) v.u;
	}
	return tracedat_sink_note_task(c, is, pid, comm);
}

/*
 * Raw case: @ev's ftrace record (tk_event.raw) as it is, common_type and all, on its CPU at
 * its time; the formats are the source's own, so the event's class and values are not
 * looked at (several classes may share one format). An event without a record (perf.data:
 * a sample of a counter, not of a tracepoint) is left out, with a warning for its class,
 * and the losses before it go to the next record written.
 */
enum tk_status tracedat_sink_raw_event(struct dat_conv *c, const struct tk_event *ev,
				       struct in_stream *is)
{
	struct in_class *cl = &c->classes[ev->ec->index];
	int64_t missed = model_missed_add(tracedat_sink_take_losses(is),
					  model_missed_add(is->missed, ev->missed));
	enum tk_status st;

	if (!ev->raw || !ev->raw_size) {
		is->missed = missed;
		if (!cl->warned)
			sink_warn(c->f,
				  "Leaving events out of trace.dat: event=%s, reason=no ftrace "
				  "record (not a tracepoint)",
				  ev->ec->name ? ev->ec->name : "(unnamed)");
		cl->warned = 1;
		return TK_OK;
	}
	is->missed = 0;
	if (ev->raw_size > c->rec_fits)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot convert event to trace.dat: event=%s, size=%" PRIu32
			       ", reason=larger than the record a %" PRIu32 "-byte page holds",
			       ev->ec->name ? ev->ec->name : "(unnamed)", ev->raw_size,
			       c->page_size);
	st = note_raw_task(c, ev, is, cl);
	if (st < 0)
		return st;
	return tracedat_sink_put_record(c, ev, is->buffer, tracedat_sink_cpu(ev, is), ev->raw,
					ev->raw_size, missed);
}

/*
 * Raw case: the layout of the source's ftrace metadata @in: its byte order and long size, and
 * the sub-buffer its header_page describes (the data field's offset and size), else the page
 * size its header gives; a record that does not fit is refused, since the formats and
 * header_page written are the source's. The CPU count is the source's "cpus" environment
 * entry (perf.data's NRCPUS), when higher than the events' CPUs.
 */
enum tk_status tracedat_sink_raw_setup(struct dat_conv *c, const struct tk_source *src,
				       const struct tracedat_info *in)
{
	struct ftrace_page_layout *l = &c->ctx.layout;
	enum tk_status st;
	size_t i;

	c->raw = in;
	c->bo = in->bo;
	ftrace_ctx_init(&c->ctx, c->bo);
	if (in->header_page.len) {
		st = ftrace_page_layout_parse((const char *) in->header_page.data,
					      in->header_page.len, l);
		if (st < 0)
			return TK_FAIL(st, "Cannot read ftrace metadata: part=header_page");
		c->page_size = l->data_size <= SYNTH_PAGE_MAX ? l->data_offset + l->data_size : 0;
	} else {
		ftrace_page_layout_default(l, in->header_long_size, in->page_size);
		c->page_size = in->page_size;
	}
	if (c->page_size < l->data_offset + 16 || c->page_size > SYNTH_PAGE_MAX)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ftrace metadata: part=header_page, page-size=%" PRIu32
			       ", reason=not a sub-buffer size",
			       c->page_size);
	c->ctx.long_size = in->header_long_size == 4 || in->header_long_size == 8
				   ? in->header_long_size
				   : l->commit_size;
	for (i = 0; i < src->n_env; i++)
		if (!src->env[i].str && !strcmp(src->env[i].key, "cpus") &&
		    src->env[i].integer > 0 && src->env[i].integer <= 65536)
			c->cpus = (uint32_t) src->env[i].integer;
	c->buffers = calloc(1, sizeof(*c->buffers));
	if (!c->buffers)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to trace.dat");
	c->buffers[0].name = "";
	c->n_buffers = 1;
	return TK_OK;
}

/*
 * Raw case: the source's ftrace metadata as it is (header_page, header_event, every format,
 * kallsyms, printk formats; each format once, whatever the classes made of it), the task
 * names its events had, and the trace clock.
 */
enum tk_status tracedat_sink_raw_metadata(struct dat_conv *c)
{
	const struct tracedat_info *in = c->raw;
	struct tracedat_writer *w = c->w;
	char text[64];
	enum tk_status st;

	st = tracedat_writer_put_metadata(w, in);
	snprintf(text, sizeof(text), "[%s]", tracedat_sink_clock(c));
	if (st >= 0)
		st = tracedat_writer_set_trace_clock(w, text, strlen(text));
	/* the source's clock has an origin of its own (perf's has none: times stay perf's) */
	if (st >= 0 && c->origin) {
		snprintf(text, sizeof(text), "%" PRId64, c->origin);
		st = tracedat_writer_add_option(w, TRACEDAT_OPTION_OFFSET, text, strlen(text) + 1);
	}
	if (st >= 0)
		st = tracedat_sink_put_comms(c);
	return st;
}
