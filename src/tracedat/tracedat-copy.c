// SPDX-License-Identifier: MIT
/*
 * trace.dat to trace.dat (source.h, tracedat_copy()): the path of `tracekit convert` that
 * re-encodes a file (another version or compression) and selects events through the filter
 * stage (src/model/filter.c), and of the writer's test bench tests/tools/dat-rewrite.
 *
 * What is carried over: every metadata part, the trace clock (the TRACECLOCK text, or the v6
 * clock text of files whose TRACECLOCK is empty), every option except those the writer makes
 * itself (buffers, clock, CPU count, v7 section offsets), the CPU count, and every CPU of
 * every buffer. Without a selection the pages are copied byte for byte. With one, each
 * page is decoded and the records kept are written into new pages by the page encoder; a
 * loss flagged on a page moves to the next record kept, so `EVENTS DROPPED` still shows
 * where it happened. A time window is read from its first pages on, as the iterator reads
 * it (reencode()). Latency (text) buffers and instances with their own page size have no
 * place in the writer and are refused.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../ftrace/page-write.h"
#include "../ftrace/page.h"
#include "../model/filter.h"
#include "../model/model.h"
#include "source.h"
#include "tracedat-write.h"

/* The metadata as it is, the saved command lines too. */
static enum tk_status write_metadata(struct tracedat_writer *w, const struct tracedat_info *in)
{
	enum tk_status st = tracedat_writer_put_metadata(w, in);

	if (st >= 0 && in->cmdlines.len)
		st = tracedat_writer_set_cmdlines(w, in->cmdlines.data, in->cmdlines.len);
	return st;
}

/* The TRACECLOCK text as the file has it, else the text the reader found (old v6 files). */
static enum tk_status write_clock(struct tracedat_writer *w, const struct tracedat_info *in)
{
	size_t i;

	for (i = in->n_options; i-- > 0;)
		if (in->options[i].id == TRACEDAT_OPTION_TRACECLOCK && in->options[i].size &&
		    in->options[i].data[0])
			return tracedat_writer_set_trace_clock(w, in->options[i].data,
							       in->options[i].size);
	if (in->trace_clock)
		return tracedat_writer_set_trace_clock(w, in->trace_clock, strlen(in->trace_clock));
	return TK_OK;
}

struct copy {
	const struct tk_source *src;
	struct tracedat *td;
	struct tracedat_writer *w;
	const struct tracedat_copy_opts *o;
	int select; /* a selection was asked for: re-encode */
	uint64_t done, total;
	/* the CPU being re-encoded, and its stream */
	size_t buffer;
	uint32_t cpu;
	const struct tk_stream *stream;
};

static int cmp_cpu(const void *a, const void *b)
{
	const struct tracedat_cpu_data *x = *(const struct tracedat_cpu_data *const *) a;
	const struct tracedat_cpu_data *y = *(const struct tracedat_cpu_data *const *) b;

	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static enum tk_status emit_page(const uint8_t *page, size_t size, void *payload)
{
	struct copy *c = payload;

	return tracedat_writer_cpu_page(c->w, page, size);
}

/*
 * Whether the record at @ns goes into the copy: 1, 0, or a negative status. The record is
 * matched as the event the reader makes of it (class, stream, time, CPU, raw bytes);
 * trace.dat events need no decoded values for the filter (their task comes from the raw
 * record).
 */
static int kept(struct copy *c, const struct ftrace_record *r, int64_t ns)
{
	const struct ftrace_event *fev = tracedat_source_event_of(c->src, r->data, r->size);
	const struct model_stream_class *sc = c->stream->sc;
	struct tk_event ev = {0};
	enum tk_status st;
	int keep;

	ev.ec = model_find_ec(sc, fev ? fev->id : UINT64_MAX);
	if (!ev.ec)
		return 0;
	ev.stream = c->stream;
	ev.cycles = r->ts;
	ev.ns = ns;
	ev.has_ts = 1;
	ev.raw = r->data;
	ev.raw_size = (uint32_t) r->size;
	ev.cpu = (int32_t) c->cpu;
	st = tk_filter_match(c->o->filter, &ev, &keep);
	return st < 0 ? (int) st : keep;
}

/*
 * The records of one CPU that the selection keeps, into new pages. A time window is read
 * from its first pages on (a CPU's pages follow each other in time), and a CPU stops at its
 * first record after the window, as the iterator reads it; losses before the window are
 * not carried into it.
 */
static enum tk_status reencode(struct copy *c, struct tracedat_pages *pr)
{
	const struct ftrace_ctx *ctx = tracedat_source_ftrace(c->src);
	struct ftrace_page_writer pw;
	const uint8_t *page;
	size_t size;
	int64_t missed = 0, begin, end;
	int has_begin, has_end, past = 0;
	enum tk_status st;

	model_filter_window(c->o->filter, &has_begin, &begin, &has_end, &end);
	st = ftrace_page_writer_init(&pw, &ctx->layout, ctx->bo, c->td->info.page_size, emit_page,
				     c);
	if (st >= 0 && has_begin) {
		uint64_t skipped = 0;

		st = tracedat_source_seek(c->src, c->buffer, c->cpu, pr, begin, &skipped);
		c->done += skipped * c->td->info.page_size;
	}
	while (st >= 0 && !past && (st = tracedat_pages_next(pr, &page, &size)) == TK_OK) {
		struct ftrace_page pg;
		struct ftrace_record r;

		c->done += size;
		st = ftrace_page_init(&pg, &ctx->layout, ctx->bo, page, size);
		if (st < 0)
			break;
		if (pg.missed)
			missed = model_missed_add(missed, pg.missed);
		while ((st = ftrace_page_next(&pg, &r)) == TK_OK) {
			int64_t ns = tracedat_source_time(c->src, c->buffer, c->cpu, r.ts);
			int keep;

			if (has_begin && ns < begin) {
				missed = 0; /* lost before the window */
				continue;
			}
			if (has_end && ns > end) {
				past = 1;
				st = TK_END;
				break;
			}
			keep = kept(c, &r, ns);
			if (keep < 0) {
				st = (enum tk_status) keep;
				break;
			}
			if (!keep)
				continue;
			st = ftrace_page_writer_add(&pw, r.ts, r.data, r.size, missed);
			if (st < 0)
				break;
			missed = 0;
		}
		if (st < 0)
			break;
		if (c->o->progress)
			c->o->progress(c->done, c->total, c->o->payload);
		if (c->o->stop && *c->o->stop) {
			st = TK_FAIL(TK_ERR_CANCELED, "Cannot go on: reason=stopped by the caller");
			break;
		}
	}
	if (st == TK_END)
		st = ftrace_page_writer_flush(&pw);
	ftrace_page_writer_fini(&pw);
	return st;
}

/* The stream of CPU @cpu of buffer @bi (its stream class is the buffer's). */
static const struct tk_stream *stream_of(const struct tk_source *src, size_t bi, uint32_t cpu)
{
	size_t i;

	for (i = 0; i < src->n_streams; i++)
		if (src->streams[i]->sc->id == bi && src->streams[i]->id == cpu)
			return src->streams[i];
	return NULL;
}

/* Every CPU of buffer @bi, in increasing order as the writer wants them. */
static enum tk_status write_buffer(struct copy *c, size_t bi)
{
	const struct tracedat_buffer *b = &c->td->info.buffers[bi];
	const struct tracedat_cpu_data **order;
	enum tk_status st = TK_OK;
	size_t i;

	order = calloc(b->n_cpus + 1, sizeof(*order));
	if (!order)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot copy buffer: cpus=%zu", b->n_cpus);
	for (i = 0; i < b->n_cpus; i++)
		order[i] = &b->cpus[i];
	if (b->n_cpus > 1)
		qsort(order, b->n_cpus, sizeof(*order), cmp_cpu);
	for (i = 0; st >= 0 && i < b->n_cpus; i++) {
		struct tracedat_pages *pr = NULL;
		const uint8_t *page;
		size_t size;

		c->buffer = bi;
		c->cpu = order[i]->cpu;
		c->stream = stream_of(c->src, bi, c->cpu);
		st = tracedat_pages_open(c->td, bi, (size_t) (order[i] - b->cpus), &pr);
		if (st >= 0)
			st = tracedat_writer_cpu_begin(c->w, order[i]->cpu);
		if (st >= 0 && c->select && !c->stream)
			st = TK_FAIL(TK_ERR_INVAL, "Cannot select records: reason=no stream");
		if (st >= 0 && c->select) {
			st = reencode(c, pr);
		} else if (st >= 0) {
			while ((st = tracedat_pages_next(pr, &page, &size)) == TK_OK) {
				c->done += size;
				st = tracedat_writer_cpu_page(c->w, page, size);
				if (st < 0)
					break;
				if (c->o->progress)
					c->o->progress(c->done, c->total, c->o->payload);
				if (c->o->stop && *c->o->stop) {
					st = TK_FAIL(TK_ERR_CANCELED,
						     "Cannot go on: reason=stopped by the caller");
					break;
				}
			}
			if (st == TK_END)
				st = TK_OK;
		}
		if (st >= 0)
			st = tracedat_writer_cpu_end(c->w);
		tracedat_pages_close(pr);
		if (st < 0)
			st = TK_FAIL(st, "Cannot copy CPU: buffer=%zu, cpu=%" PRIu32, bi, c->cpu);
	}
	free(order);
	return st;
}

static enum tk_status open_writer(struct copy *c, const char *path)
{
	const struct tracedat_info *in = &c->td->info;
	const struct tracedat_copy_opts *o = c->o;
	struct tracedat_write_opts wo = TRACEDAT_WRITE_OPTS_INIT;
	enum tk_status st;

	st = tracedat_write_opts_choose(&wo, o->version, o->compression, (unsigned int) in->version,
					in->compression);
	if (st < 0)
		return st;
	wo.bo = in->bo;
	wo.long_size = in->header_long_size == 4 ? 4 : 8;
	wo.page_size = in->page_size;
	return tracedat_writer_open(&c->w, path, &wo);
}

enum tk_status tracedat_copy(const struct tk_source *src, const char *path,
			     const struct tracedat_copy_opts *o)
{
	struct copy c = {.src = src, .o = o};
	const struct tracedat_info *in;
	enum tk_status st = TK_OK;
	uint32_t cpus;
	size_t i, j;

	c.td = tracedat_source_container(src);
	if (!c.td)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot copy trace.dat: reason=not a trace.dat source");
	in = &c.td->info;
	cpus = in->cpus;
	for (i = 0; i < in->n_buffers; i++) {
		const struct tracedat_buffer *b = &in->buffers[i];

		if (b->latency)
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot copy trace.dat: buffer=%zu, reason=latency (text) "
				       "buffers cannot be rewritten",
				       i);
		if (b->page_size != in->page_size)
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot copy trace.dat: buffer=%zu, page-size=%" PRIu32
				       ", reason=a page size other than the file's",
				       i, b->page_size);
		for (j = 0; j < b->n_cpus; j++) {
			c.total += b->cpus[j].size;
			if (b->cpus[j].cpu >= cpus)
				cpus = b->cpus[j].cpu + 1;
		}
	}
	c.select = o->filter != NULL;
	st = open_writer(&c, path);
	if (st >= 0)
		st = write_metadata(c.w, in);
	if (st >= 0)
		st = write_clock(c.w, in);
	for (i = 0; st >= 0 && i < in->n_options; i++)
		if (!tracedat_writer_option_reserved(in->options[i].id))
			st = tracedat_writer_add_option(c.w, in->options[i].id, in->options[i].data,
							in->options[i].size);
	if (st >= 0)
		st = tracedat_writer_set_cpus(c.w, cpus);
	for (i = 0; st >= 0 && i < in->n_buffers; i++) {
		if (i > 0)
			st = tracedat_writer_buffer_begin(c.w, in->buffers[i].name,
							  in->buffers[i].clock);
		if (st >= 0)
			st = write_buffer(&c, i);
	}
	if (st >= 0) {
		st = tracedat_writer_close(c.w);
		c.w = NULL;
	}
	tracedat_writer_destroy(c.w);
	if (st < 0)
		return TK_FAIL(st, "Cannot write trace.dat: path=%s", path);
	return TK_OK;
}
