// SPDX-License-Identifier: MIT
/*
 * user_events EventHeader records in the texts of ftrace containers (tracedat-eh.h): the
 * name=value pairs after trace-cmd's line, and the JSON of LinuxTracepoints' perf-decode for
 * any ftrace record, EventHeader or not.
 */
#include <string.h>

#include "../common/error.h"
#include "tracedat-eh.h"

int tracedat_eh_start(struct eventheader_enum *e, const struct ftrace_event *fev,
		      const uint8_t *rec, size_t size)
{
	uint32_t off = tracedat_eh_offset(fev);

	if (off == UINT32_MAX || off > size || !rec)
		return -1;
	if (eventheader_start(e, fev->name, strlen(fev->name), rec + off, size - off,
			      EVENTHEADER_MOVE_NEXT_LIMIT) < 0) {
		error_reset(); /* not an EventHeader event: the format's own fields say it all */
		return -1;
	}
	return 0;
}

void tracedat_eh_text_slow(const struct ftrace_event *fev, const uint8_t *rec, size_t size,
			   struct vec *scratch, struct writer *w)
{
	struct eventheader_enum e;

	if (tracedat_eh_start(&e, fev, rec, size) < 0)
		return;
	scratch->len = 0;
	if (eventheader_text_fields(scratch, &e) < 0) {
		error_reset();
		writer_puts(w, " [EVENTHEADER DAMAGED]");
		return;
	}
	if (scratch->len) /* an event without fields writes nothing (and may have no buffer) */
		writer_write(w, scratch->data, scratch->len);
}

enum tk_status tracedat_eh_json(const struct ftrace_ctx *ctx, const struct ftrace_event *fev,
				const char *name, size_t name_len, const uint8_t *rec, size_t size,
				const struct eventheader_sample *meta, unsigned int json_flags,
				struct vec *out)
{
	struct eventheader_enum e;
	struct eventheader_json j;
	const char *colon;
	enum tk_status st;
	uint32_t i;

	if (tracedat_eh_start(&e, fev, rec, size) == 0)
		return eventheader_json_sample_event(out, &e, meta, json_flags,
						     EVENTHEADER_META_DEFAULT);
	/* "n": the given name split at its colon, else the format's system and name */
	eventheader_json_begin(&j, out, json_flags);
	if (name && name_len) {
		colon = memchr(name, ':', name_len);
		if (colon)
			eventheader_json_n(&j, name, (size_t) (colon - name), colon + 1,
					   name_len - (size_t) (colon - name) - 1);
		else
			eventheader_json_n(&j, name, name_len, "", 0);
	} else if (fev) {
		eventheader_json_n(&j, fev->system, strlen(fev->system), fev->name,
				   strlen(fev->name));
	} else {
		eventheader_json_n(&j, "", 0, "", 0);
	}
	if (fev) {
		for (i = fev->n_common; i < fev->n_fields; i++) {
			const struct ftrace_field *f = &fev->fields[i];
			struct eventheader_tracefs t;

			eventheader_tracefs_type(f->type, f->size,
						 (f->flags & FTRACE_FIELD_SIGNED) ? 1 : 0,
						 ctx->long_size, &t);
			st = eventheader_json_tracefs_field(&j, f->name, strlen(f->name), &t,
							    f->offset, f->size, rec, size, ctx->bo);
			if (st < 0) {
				out->len = j.start;
				return st;
			}
		}
	} else if (rec) {
		eventheader_json_member(&j, "raw", 3);
		eventheader_json_hex_bytes(&j, rec, size);
	}
	eventheader_json_meta(&j, meta, EVENTHEADER_META_DEFAULT);
	return eventheader_json_end(&j);
}
