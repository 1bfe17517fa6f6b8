/* SPDX-License-Identifier: MIT */
/*
 * user_events EventHeader records among ftrace records, for every container of them
 * (trace.dat, perf.data): a tracepoint is one when the first field of its own in its format
 * is eventheader_flags, as LinuxTracepoints' decoder tells them; the EventHeader event (the
 * 8-byte header, its extensions, its payload) starts there and runs to the record's end.
 * src/eventheader decodes it; this file puts it in the texts the readers print.
 */
#ifndef TK_TRACEDAT_TRACEDAT_EH_H
#define TK_TRACEDAT_TRACEDAT_EH_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/vec.h"
#include "../common/writer.h"
#include "../eventheader/eventheader.h"
#include "../ftrace/ftrace.h"

/* Where @fev's records hold their EventHeader event, or UINT32_MAX when @fev has none. */
static inline uint32_t tracedat_eh_offset(const struct ftrace_event *fev)
{
	if (__builtin_expect(!fev || !(fev->flags & FTRACE_EVENT_EVENTHEADER), 1))
		return UINT32_MAX; /* the usual record: one test */
	return fev->fields[fev->n_common].offset;
}

/*
 * Start @e on the EventHeader event of record @rec (@size bytes) of @fev: 0, or -1 when
 * there is none (@fev is no EventHeader tracepoint, or the record is not an EventHeader
 * event; no cause is kept).
 */
int tracedat_eh_start(struct eventheader_enum *e, const struct ftrace_event *fev,
		      const uint8_t *rec, size_t size);

/*
 * For a line in trace-cmd's layout, after the text @fev's print fmt gave record @rec (@size
 * bytes): its decoded fields as " name=value" pairs (eventheader_text_fields()), or
 * " [EVENTHEADER DAMAGED]" when the event does not decode; nothing when @fev is not an
 * EventHeader tracepoint or the record is not an EventHeader event. @scratch: the caller's.
 */
void tracedat_eh_text_slow(const struct ftrace_event *fev, const uint8_t *rec, size_t size,
			   struct vec *scratch, struct writer *w);

/* The per-line call of text hooks: a test inline, the work out of line. */
static inline void tracedat_eh_text(const struct ftrace_event *fev, const uint8_t *rec, size_t size,
				    struct vec *scratch, struct writer *w)
{
	if (__builtin_expect(tracedat_eh_offset(fev) != UINT32_MAX, 0))
		tracedat_eh_text_slow(fev, rec, size, scratch, w);
}

/*
 * Record @rec (@size bytes) of @fev (NULL: a record of no known format) as the reference
 * decoder writes a sample (eventheader-json.c's layout, @json_flags EVENTHEADER_JSON_*):
 * EventHeader events decoded, other records with "n" (@name, @name_len: "system:event", else
 * @fev's system and name) and their fields typed as that decoder types tracefs fields, or
 * their bytes as "raw"; "meta" starts with @meta's members. Appended to @out.
 *
 * Return: TK_OK; TK_ERR_FORMAT with a cause when an EventHeader event does not decode (the
 * caller names where); TK_ERR_NOMEM. On failure @out is as it was.
 */
enum tk_status tracedat_eh_json(const struct ftrace_ctx *ctx, const struct ftrace_event *fev,
				const char *name, size_t name_len, const uint8_t *rec, size_t size,
				const struct eventheader_sample *meta, unsigned int json_flags,
				struct vec *out);

#endif /* TK_TRACEDAT_TRACEDAT_EH_H */
