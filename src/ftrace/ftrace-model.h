/* SPDX-License-Identifier: MIT */
/*
 * ftrace events in the trace model, for every reader whose records are ftrace records: the
 * trace.dat reader, and a perf.data reader, whose tracepoint samples carry the same records
 * described by the same `format` files. One format is one event class (the common fields
 * apart, the event's own as its payload), one record is the values of those two scopes, and
 * field predicates read a record's fields straight from its bytes.
 *
 *	once per format, after ftrace_ctx_finish():
 *		st = ftrace_model_event_class(&src->arena, ctx, fev, ec);
 *	per record, when its values are asked for:
 *		start = vals.len;
 *		st = ftrace_model_values(ctx, fev, rec, size, &vals, &payload);
 *		ev->scope[MODEL_SCOPE_COMMON] = fev->n_common ? values + start : NULL;
 *		ev->scope[MODEL_SCOPE_PAYLOAD] = values + payload;   // values = vals.data
 */
#ifndef TK_FTRACE_FTRACE_MODEL_H
#define TK_FTRACE_FTRACE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/arena.h"
#include "../common/vec.h"
#include "../model/model.h"
#include "ftrace.h"

/*
 * An integer field class of @bytes bytes in byte order @bo, shown in hex when @hex (ftrace
 * pointers), in @a; NULL when out of memory.
 */
struct model_fc *ftrace_model_int_fc(struct arena *a, uint32_t bytes, int is_signed, int hex,
				     enum tk_byte_order bo);

/*
 * Name @ec after @fev (name, system, id, fmt = @fev) and mark it pending: the reader makes
 * the rest with ftrace_model_event_class() when an event of it is first met
 * (model_source_ops.class_load), so a declared format is not read past its ID before then.
 */
void ftrace_model_event_class_declare(const struct ftrace_event *fev, struct tk_event_class *ec);

/*
 * Make @ec the event class of @fev, a format of @ctx, read whole first (ftrace_event_load()):
 * its name, system and id, fmt = @fev, the event's own fields as the payload and the common ones as the common scope (NULL when
 * the format has none), with field classes in @a: integers (pointers in hex), char arrays
 * and __data_loc strings as text, other arrays as arrays (fixed) or sequences (dynamic) of
 * integers. The caller sets the rest (stream class, index).
 *
 * Return: TK_OK, or TK_ERR_NOMEM with a cause.
 */
enum tk_status ftrace_model_event_class(struct arena *a, const struct ftrace_ctx *ctx,
					struct ftrace_event *fev, struct tk_event_class *ec);

/*
 * Make @ec the class of records of no known format in @ctx (name and fmt NULL, id
 * UINT64_MAX): the common fields as the formats of @ctx have them (none when no format has
 * any), and as the payload one member, "data", the record's bytes: a sequence of 8-bit
 * integers in hex.
 *
 * Return: TK_OK, or TK_ERR_NOMEM with a cause.
 */
enum tk_status ftrace_model_unknown_class(struct arena *a, const struct ftrace_ctx *ctx,
					  struct tk_event_class *ec);

/*
 * Append the values of record @rec (@size bytes, padding included) of @fev to @vals (struct
 * model_value elements, from vals->len on; kept between records, so that it stops growing):
 * the common fields, then the event's own, in the layout of ftrace_model_event_class()'s
 * field classes. *@payload is the index of the first payload value. Fields the record is too
 * short for read 0, empty text or no elements, as do dynamic fields pointing outside it.
 * Text points into @rec.
 *
 * Return: TK_OK, or TK_ERR_NOMEM with a cause (@vals keeps what it had).
 */
enum tk_status ftrace_model_values(const struct ftrace_ctx *ctx, const struct ftrace_event *fev,
				   const uint8_t *rec, size_t size, struct vec *vals,
				   size_t *payload);

/*
 * The values of record @rec (@size bytes) of no known format, in the layout of
 * ftrace_model_unknown_class(): its common fields (as ftrace_model_values() reads them),
 * then its bytes. *@payload is the index of the first payload value.
 *
 * Return: TK_OK, or TK_ERR_NOMEM with a cause.
 */
enum tk_status ftrace_model_unknown_values(const struct ftrace_ctx *ctx, const uint8_t *rec,
					   size_t size, struct vec *vals, size_t *payload);

/*
 * The fields of @fev's records for field predicates (model_source_ops.raw_field and
 * raw_value): common fields first, then the event's own, the order in which libtraceevent
 * looks a name up. ftrace_model_raw_field() describes field @i: 1, or 0 past the last one.
 * ftrace_model_raw_value() reads field @i of @rec (@size bytes; a record too short for it
 * reads as 0 or ""): integers sign-extended when signed, text as the decoder reads it
 * (fixed, dynamic, to the end of the record); other arrays have no value.
 */
int ftrace_model_raw_field(const struct ftrace_event *fev, uint32_t i, struct model_raw_field *out);
void ftrace_model_raw_value(const struct ftrace_ctx *ctx, const struct ftrace_event *fev,
			    uint32_t i, const uint8_t *rec, size_t size,
			    struct model_raw_value *out);

#endif /* TK_FTRACE_FTRACE_MODEL_H */
