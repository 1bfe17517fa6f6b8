/* SPDX-License-Identifier: MIT */
/*
 * Rebuilding ftrace records from the decoded values of events of another format (CTF), for
 * `tracekit convert` to trace.dat (tracedat-sink.c). A plan, made once per event class, says
 * where each value of the event's scopes (stream event context, event context, payload)
 * goes in the record laid out by an ftrace `format`; running it on one event writes the
 * record: integers at their field offsets in the file's byte order, strings and arrays in
 * fixed fields or in the record's dynamic area with their __data_loc/__rel_loc word.
 *
 * Two ways to get the format:
 *   - CONVERT_RECORD_ENV: the event class came from a trace.dat file (src/pipeline/dat-to-ctf.c) and the
 *     format is the original one, carried in the CTF environment: the context's common_*
 *     fields go to the common fields of the same name, the payload's fields one by one to
 *     the format's own fields (sequence length fields, which the format keeps in the
 *     __data_loc word, are left out);
 *   - CONVERT_RECORD_SYNTH: any other event class: convert_record_format() writes a format
 *     for it (every leaf of the contexts and payload a field, structures flattened), which
 *     the caller parses, then the plan maps the leaves to that format's fields in order.
 *
 *	convert_record_format(ec, id, "name", NULL, &text);    (SYNTH only)
 *	ftrace_event_parse(ctx, "sys", text, len, &fev);
 *	convert_record_plan(&plan, ec, fev, mode, bo);
 *	per event:  convert_record_build(plan, ev, &rec);  ...rec.data, rec.size...
 *	convert_record_format(ec, id, "name", plan, &final);    (SYNTH: the text to write)
 *	convert_record_plan_destroy(plan);
 */
#ifndef TK_TRACEDAT_SINK_RECORD_H
#define TK_TRACEDAT_SINK_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/bytes.h"
#include "../common/vec.h"
#include "../ftrace/ftrace.h"
#include "../model/model.h"

enum convert_record_mode {
	CONVERT_RECORD_ENV,
	CONVERT_RECORD_SYNTH,
};

struct convert_record_plan;

/* A record being built; the caller keeps it across events (it grows to the largest one). */
struct convert_record {
	uint8_t *data;
	size_t size; /* bytes of the record built last */
	size_t cap;
	size_t max; /* the largest record allowed (what fits in a ring-buffer page) */
};

/*
 * Append to @text (bytes, no NUL) the `format` text of a synthesized ftrace event for
 * @ec: "name: @name", "ID: @id", the four common fields, one field per leaf (see
 * doc/format-tracedat.md section 9), a print fmt showing them all. The print fmt shows
 * sequences of signed integers or floats element by element, as many as they had in the
 * records @plan built (the plan made from this text without @plan, whose print fmt shows
 * none of them): the fields are the same with or without @plan. TK_ERR_UNSUPPORTED with a
 * cause naming the event and the field for what no format can hold (arrays of strings or of
 * structures, records larger than 64 KiB); TK_ERR_NOMEM.
 */
enum tk_status convert_record_format(const struct tk_event_class *ec, uint32_t id, const char *name,
				     const struct convert_record_plan *plan, struct vec *text);

/*
 * Make the plan that writes events of @ec as records of format @fev (kept by the caller for
 * the plan's life) in byte order @bo. TK_ERR_FORMAT with a cause naming the event and the
 * field when @ec's fields do not match @fev's (a CTF trace whose environment does not
 * belong to it); TK_ERR_NOMEM.
 */
enum tk_status convert_record_plan(struct convert_record_plan **out,
				   const struct tk_event_class *ec, const struct ftrace_event *fev,
				   enum convert_record_mode mode, enum tk_byte_order bo);

/*
 * A plan that copies an event's only payload field, a sequence of bytes, as the whole record
 * (what src/pipeline/dat-to-ctf.c writes for records of no known format). NULL when @ec is not like that.
 */
struct convert_record_plan *convert_record_plan_raw(const struct tk_event_class *ec);

/*
 * Build the record of @ev (its values decoded) into @rec. TK_ERR_UNSUPPORTED with a cause
 * when it would be larger than rec->max; TK_ERR_NOMEM.
 */
enum tk_status convert_record_build(const struct convert_record_plan *p, const struct tk_event *ev,
				    struct convert_record *rec);

/* The most elements the @i-th sequence of numbers had in the records built so far. */
uint64_t convert_record_plan_seq_max(const struct convert_record_plan *p, uint32_t i);

/* The format the plan writes (NULL for a raw plan). */
const struct ftrace_event *convert_record_plan_format(const struct convert_record_plan *p);

void convert_record_plan_destroy(struct convert_record_plan *p);

#endif /* TK_TRACEDAT_SINK_RECORD_H */
