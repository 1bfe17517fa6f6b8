/* SPDX-License-Identifier: MIT */
/*
 * Internals of the JSON outputs: the value formatters the print-plan interpreter
 * (pretty-plan.c) calls for JSON plans, and the entry points of the JSON lines style (json.c)
 * and the Chrome trace-event style (chrome.c) that the printer (pretty.c) dispatches to.
 */
#ifndef TK_OUTPUT_JSON_H
#define TK_OUTPUT_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/print.h>

#include "../common/writer.h"
#include "../model/model.h"

struct plan;

/* Room json_put_quoted() needs for @n bytes: 6 per byte, 2 quotes, 16 for block copies. */
#define JSON_QUOTED_ROOM(n) ((n) *6 + 18)

/*
 * @n bytes of @s as a JSON string (RFC 8259) at @q, which has JSON_QUOTED_ROOM(n) bytes;
 * returns the new end. '"' and '\' get a backslash; \b \f \n \r \t their letter; other
 * control characters are \u00XX; well-formed UTF-8 is copied; every maximal part of an
 * ill-formed sequence (Unicode's "maximal subpart" rule, as Python's "replace" decoding)
 * becomes \ufffd, so the output is always valid UTF-8 and the same bytes give the same text.
 */
char *json_put_quoted(char *q, const char *s, size_t n);

/* json_put_quoted() into a writer, for strings of any length. */
void json_put_string(struct writer *w, const char *s, size_t n);

/*
 * A double as a JSON number that reads back as the same double (room for 40 bytes): integral
 * values below 2^53 as "N.0", others with 17 significant digits; NaN and infinities, which
 * JSON numbers cannot hold, as the strings "NaN", "Infinity" and "-Infinity".
 */
size_t json_fmt_double(char *dst, double d);

/* An enumeration value: {"value":N,"labels":["A",...]} (labels of every mapping holding N). */
void json_put_enum(struct writer *w, const struct model_fc *fc, uint64_t u);

/* Signed nanoseconds as microseconds with three decimals, "-12.345" (room for 24 bytes). */
size_t json_fmt_us(char *dst, int64_t ns);

/* The plan of an event class for the printer's JSON or Chrome style (see json.c). */
enum tk_status json_plan_build(struct tk_printer *p, const struct tk_event_class *ec,
			       struct plan **out);

#endif /* TK_OUTPUT_JSON_H */
