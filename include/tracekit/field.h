/* SPDX-License-Identifier: MIT */
/*
 * Event field values and the classes that describe them, the same for every input format.
 *
 * Every event has up to four scopes (enum tk_scope), each a structure of fields. A field
 * class (struct tk_field_class, borrowed from the trace) says what a field holds: an integer
 * with its size, signedness and display base, an enumeration with its labels, a float, a
 * string, a structure of named members, a fixed-length array or a sequence of elements, or a
 * variant of named options. A trace.dat event's fields are its `format` fields after the
 * common ones, in the payload scope; its CPU is the packet context's `cpu_id`.
 *
 * Field values are small handles (struct tk_field) the caller keeps on its stack: getting one
 * allocates nothing, and the handle reads the event's decoded values in place, so it is valid
 * only as long as the event it came from (until the next tk_iter_next()).
 *
 *	struct tk_field f;
 *	int64_t pid;
 *	if (tk_event_get_field(ev, TK_SCOPE_PAYLOAD, "next_pid", &f) == TK_OK &&
 *	    tk_field_get_int(&f, &pid) == TK_OK)
 *		printf("%" PRId64 "\n", pid);
 *
 * Errors: asking a field for a value of another kind (a string from an integer) fails with
 * TK_ERR_INVAL, a name that is not there with TK_ERR_NOTFOUND, each with a cause in the error
 * chain; the handle given as output is left unchanged.
 */
#ifndef TRACEKIT_FIELD_H
#define TRACEKIT_FIELD_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/export.h>
#include <tracekit/iter.h>
#include <tracekit/status.h>
#include <tracekit/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tk_field_class;

/**
 * enum tk_scope - The parts of an event that hold fields.
 * @TK_SCOPE_PACKET_CONTEXT:       The context of the packet the event is in (CTF), or the
 *                                 CPU (trace.dat: `cpu_id`).
 * @TK_SCOPE_EVENT_COMMON_CONTEXT: The context every event of the stream has (CTF).
 * @TK_SCOPE_EVENT_CONTEXT:        The context of this event class (CTF).
 * @TK_SCOPE_PAYLOAD:              The event's own fields.
 * @TK_SCOPE_COMMON_FIELDS:        The fields every event of the format has outside its own
 *                                 (trace.dat: common_type, common_flags,
 *                                 common_preempt_count, common_pid).
 */
enum tk_scope {
	TK_SCOPE_PACKET_CONTEXT = 0,
	TK_SCOPE_EVENT_COMMON_CONTEXT = 1,
	TK_SCOPE_EVENT_CONTEXT = 2,
	TK_SCOPE_PAYLOAD = 3,
	TK_SCOPE_COMMON_FIELDS = 4,
};

/**
 * enum tk_field_kind - What a field holds.
 * @TK_FIELD_KIND_INT:      An integer (tk_field_get_uint(), tk_field_get_int()).
 * @TK_FIELD_KIND_ENUM:     An integer with labels (also tk_field_get_enum_label()).
 * @TK_FIELD_KIND_FLOAT:    A floating-point number (tk_field_get_double()).
 * @TK_FIELD_KIND_STRING:   A string (tk_field_get_string()).
 * @TK_FIELD_KIND_STRUCT:   Named members (tk_field_get_member(), tk_field_find_member()).
 * @TK_FIELD_KIND_ARRAY:    A fixed number of elements (tk_field_get_element()).
 * @TK_FIELD_KIND_SEQUENCE: A number of elements given by the data (tk_field_get_element()).
 * @TK_FIELD_KIND_VARIANT:  One of several named options (tk_field_get_option()).
 *
 * An array or sequence of 8-bit UTF-8 characters (a C `char name[16]`) is text: it is read
 * as a whole with tk_field_get_string(), not element by element (tk_field_class_is_text()).
 */
enum tk_field_kind {
	TK_FIELD_KIND_INT = 1,
	TK_FIELD_KIND_ENUM = 2,
	TK_FIELD_KIND_FLOAT = 3,
	TK_FIELD_KIND_STRING = 4,
	TK_FIELD_KIND_STRUCT = 5,
	TK_FIELD_KIND_ARRAY = 6,
	TK_FIELD_KIND_SEQUENCE = 7,
	TK_FIELD_KIND_VARIANT = 8,
};

/**
 * struct tk_field - A field value of one event, kept by the caller.
 * @priv: Private to the library; the handle is filled by tk_event_get_field() and friends.
 *
 * Copy it freely; it holds no resource, so there is nothing to release.
 */
struct tk_field {
	const void *priv[3];
};

/* ---- Field classes ------------------------------------------------------------------------ */

/**
 * tk_event_class_get_field_class() - The structure of one scope of an event class.
 * @ec:    An event class.
 * @scope: Which scope: the event class's own payload and context, or its stream's event
 *         common context and packet context.
 *
 * Return: A structure class, or NULL when events of @ec have no such scope.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const struct tk_field_class *
tk_event_class_get_field_class(const struct tk_event_class *ec, enum tk_scope scope);

/**
 * tk_field_class_get_kind() - What fields of a class hold.
 * @fc: A field class.
 *
 * Return: The kind.
 * Ownership: None.
 */
TK_EXPORT enum tk_field_kind tk_field_class_get_kind(const struct tk_field_class *fc);

/**
 * tk_field_class_get_size() - Size of an integer, enumeration or float in the trace.
 * @fc: A field class.
 *
 * Return: The size in bits, or 0 for other kinds.
 * Ownership: None.
 */
TK_EXPORT uint32_t tk_field_class_get_size(const struct tk_field_class *fc);

/**
 * tk_field_class_is_signed() - Whether an integer or enumeration is signed.
 * @fc: A field class.
 *
 * Return: 1 when signed, 0 when unsigned or not an integer.
 * Ownership: None.
 */
TK_EXPORT int tk_field_class_is_signed(const struct tk_field_class *fc);

/**
 * tk_field_class_get_base() - Base the trace asks integers to be shown in.
 * @fc: A field class.
 *
 * Return: 2, 8, 10 or 16 for integers and enumerations, 0 for other kinds.
 * Ownership: None.
 */
TK_EXPORT unsigned int tk_field_class_get_base(const struct tk_field_class *fc);

/**
 * tk_field_class_is_text() - Whether values are read with tk_field_get_string().
 * @fc: A field class.
 *
 * Return: 1 for strings and for arrays and sequences of 8-bit characters, else 0.
 * Ownership: None.
 */
TK_EXPORT int tk_field_class_is_text(const struct tk_field_class *fc);

/**
 * tk_field_class_get_mapping_count() - Number of labels of an enumeration.
 * @fc: A field class.
 *
 * Return: The count, 0 for other kinds.
 * Ownership: None.
 */
TK_EXPORT size_t tk_field_class_get_mapping_count(const struct tk_field_class *fc);

/**
 * tk_field_class_get_mapping() - One label of an enumeration.
 * @fc:      An enumeration class.
 * @index:   0 to tk_field_class_get_mapping_count() - 1.
 * @label:   Set to the label.
 * @nranges: Set to the number of value ranges that map to the label.
 *
 * Return: TK_OK, or TK_ERR_INVAL when @fc is not an enumeration or @index is out of range.
 * Ownership: *@label is borrowed from the trace.
 */
TK_EXPORT enum tk_status tk_field_class_get_mapping(const struct tk_field_class *fc, size_t index,
						    const char **label, size_t *nranges);

/**
 * tk_field_class_get_mapping_range() - One range of values of an enumeration label.
 * @fc:      An enumeration class.
 * @mapping: 0 to tk_field_class_get_mapping_count() - 1.
 * @range:   0 to the number of ranges of that label - 1.
 * @lo:      Set to the lowest value of the range.
 * @hi:      Set to the highest value of the range (included).
 *
 * For a signed enumeration the bounds are int64_t values stored in uint64_t: cast them back.
 * Return: TK_OK, or TK_ERR_INVAL when @fc is not an enumeration or an index is out of range.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_field_class_get_mapping_range(const struct tk_field_class *fc,
							  size_t mapping, size_t range,
							  uint64_t *lo, uint64_t *hi);

/**
 * tk_field_class_get_member_count() - Number of members of a structure.
 * @fc: A field class.
 *
 * Return: The count, 0 for other kinds.
 * Ownership: None.
 */
TK_EXPORT size_t tk_field_class_get_member_count(const struct tk_field_class *fc);

/**
 * tk_field_class_get_member() - One member of a structure.
 * @fc:    A structure class.
 * @index: 0 to tk_field_class_get_member_count() - 1, in the order of the trace.
 * @name:  Set to the member name, as shown (a CTF name loses one leading underscore); may be
 *         NULL.
 * @cls:   Set to the member's class; may be NULL.
 *
 * Return: TK_OK, or TK_ERR_INVAL when @fc is not a structure or @index is out of range.
 * Ownership: *@name and *@cls are borrowed from the trace.
 */
TK_EXPORT enum tk_status tk_field_class_get_member(const struct tk_field_class *fc, size_t index,
						   const char **name,
						   const struct tk_field_class **cls);

/**
 * tk_field_class_find_member() - Index of the member of a structure with a name.
 * @fc:    A structure class.
 * @name:  The name as shown, or as written in the trace.
 * @index: Set to the index of the first member with that name.
 *
 * Return: TK_OK, TK_ERR_NOTFOUND when no member has the name, or TK_ERR_INVAL when @fc is not
 * a structure.
 * Ownership: @name is borrowed for the call.
 */
TK_EXPORT enum tk_status tk_field_class_find_member(const struct tk_field_class *fc,
						    const char *name, size_t *index);

/**
 * tk_field_class_get_element() - Class of the elements of an array or sequence.
 * @fc: A field class.
 *
 * Return: The element class, or NULL for other kinds.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const struct tk_field_class *tk_field_class_get_element(const struct tk_field_class *fc);

/**
 * tk_field_class_get_length() - Number of elements of a fixed-length array.
 * @fc: A field class.
 *
 * Return: The length, 0 for other kinds (a sequence's length is in each value).
 * Ownership: None.
 */
TK_EXPORT uint64_t tk_field_class_get_length(const struct tk_field_class *fc);

/**
 * tk_field_class_get_option_count() - Number of options of a variant.
 * @fc: A field class.
 *
 * Return: The count, 0 for other kinds.
 * Ownership: None.
 */
TK_EXPORT size_t tk_field_class_get_option_count(const struct tk_field_class *fc);

/**
 * tk_field_class_get_option() - One option of a variant.
 * @fc:    A variant class.
 * @index: 0 to tk_field_class_get_option_count() - 1.
 * @name:  Set to the option name; may be NULL.
 * @cls:   Set to the option's class; may be NULL.
 *
 * Return: TK_OK, or TK_ERR_INVAL when @fc is not a variant or @index is out of range.
 * Ownership: *@name and *@cls are borrowed from the trace.
 */
TK_EXPORT enum tk_status tk_field_class_get_option(const struct tk_field_class *fc, size_t index,
						   const char **name,
						   const struct tk_field_class **cls);

/* ---- Field values ------------------------------------------------------------------------- */

/**
 * tk_event_get_scope() - One scope of an event, as a structure value.
 * @ev:    An event.
 * @scope: Which scope.
 * @out:   Set to the structure on TK_OK.
 *
 * Decodes the event's values if the reader left them for later.
 * Return: TK_OK, TK_ERR_NOTFOUND when the event has no such scope, or a negative status when
 * the values cannot be decoded.
 * Ownership: *@out is valid as long as @ev (until the next tk_iter_next()).
 */
TK_EXPORT enum tk_status tk_event_get_scope(const struct tk_event *ev, enum tk_scope scope,
					    struct tk_field *out);

/**
 * tk_event_get_field() - A field of one scope of an event, by name.
 * @ev:    An event.
 * @scope: Which scope (TK_SCOPE_PAYLOAD for the event's own fields).
 * @name:  The member name as shown, or as written in the trace.
 * @out:   Set to the field on TK_OK.
 *
 * The same as tk_event_get_scope() then tk_field_find_member().
 * Return: TK_OK, TK_ERR_NOTFOUND when the scope or the name is not there, or a negative
 * status when the values cannot be decoded.
 * Ownership: @name is borrowed for the call; *@out is valid as long as @ev.
 */
TK_EXPORT enum tk_status tk_event_get_field(const struct tk_event *ev, enum tk_scope scope,
					    const char *name, struct tk_field *out);

/**
 * tk_event_get_field_at() - A field of one scope of an event, by position.
 * @ev:    An event.
 * @scope: Which scope.
 * @index: 0 to the member count of the scope's class - 1.
 * @out:   Set to the field on TK_OK.
 *
 * Return: TK_OK, TK_ERR_NOTFOUND when the event has no such scope, TK_ERR_INVAL when @index
 * is out of range, or a negative status when the values cannot be decoded.
 * Ownership: *@out is valid as long as @ev.
 */
TK_EXPORT enum tk_status tk_event_get_field_at(const struct tk_event *ev, enum tk_scope scope,
					       size_t index, struct tk_field *out);

/**
 * tk_field_get_class() - Class of a field value.
 * @f: A field.
 *
 * Return: The class.
 * Ownership: Borrowed from the trace.
 */
TK_EXPORT const struct tk_field_class *tk_field_get_class(const struct tk_field *f);

/**
 * tk_field_get_kind() - Kind of a field value (that of its class).
 * @f: A field.
 *
 * Return: The kind.
 * Ownership: None.
 */
TK_EXPORT enum tk_field_kind tk_field_get_kind(const struct tk_field *f);

/**
 * tk_field_get_uint() - Value of an integer or enumeration as unsigned.
 * @f:   An integer or enumeration field.
 * @out: Set to the value on TK_OK.
 *
 * Return: TK_OK, or TK_ERR_INVAL for another kind or a negative signed value.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_field_get_uint(const struct tk_field *f, uint64_t *out);

/**
 * tk_field_get_int() - Value of an integer or enumeration as signed.
 * @f:   An integer or enumeration field.
 * @out: Set to the value on TK_OK.
 *
 * Return: TK_OK, or TK_ERR_INVAL for another kind or an unsigned value above INT64_MAX.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_field_get_int(const struct tk_field *f, int64_t *out);

/**
 * tk_field_get_double() - Value of a floating-point field.
 * @f:   A float field (32-bit ones are widened).
 * @out: Set to the value on TK_OK.
 *
 * Return: TK_OK, or TK_ERR_INVAL for another kind.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_field_get_double(const struct tk_field *f, double *out);

/**
 * tk_field_get_string() - Bytes of a string or of a text array or sequence.
 * @f:   A field whose class is text (tk_field_class_is_text()).
 * @str: Set to the first byte; not NUL-terminated in general.
 * @len: Set to the number of bytes, up to the first NUL.
 *
 * Return: TK_OK, or TK_ERR_INVAL for a field that is not text.
 * Ownership: *@str points into the trace and is valid as long as the event.
 */
TK_EXPORT enum tk_status tk_field_get_string(const struct tk_field *f, const char **str,
					     size_t *len);

/**
 * tk_field_get_length() - Number of elements of an array or sequence value.
 * @f:   An array or sequence field that is not text.
 * @out: Set to the length on TK_OK.
 *
 * Return: TK_OK, or TK_ERR_INVAL for another kind or for text (read it as a string).
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_field_get_length(const struct tk_field *f, uint64_t *out);

/**
 * tk_field_get_element() - One element of an array or sequence value.
 * @f:     An array or sequence field that is not text.
 * @index: 0 to its length - 1.
 * @out:   Set to the element on TK_OK.
 *
 * Elements of fixed size are found directly; after elements of varying size (sequences,
 * variants, inside the elements) this walks the elements before @index.
 * Return: TK_OK, or TK_ERR_INVAL for another kind, for text or for @index out of range.
 * Ownership: *@out is valid as long as the event.
 */
TK_EXPORT enum tk_status tk_field_get_element(const struct tk_field *f, uint64_t index,
					      struct tk_field *out);

/**
 * tk_field_get_member() - One member of a structure value, by position.
 * @f:     A structure field.
 * @index: 0 to tk_field_class_get_member_count() of its class - 1.
 * @out:   Set to the member on TK_OK.
 *
 * Return: TK_OK, or TK_ERR_INVAL for another kind or @index out of range.
 * Ownership: *@out is valid as long as the event.
 */
TK_EXPORT enum tk_status tk_field_get_member(const struct tk_field *f, size_t index,
					     struct tk_field *out);

/**
 * tk_field_find_member() - One member of a structure value, by name.
 * @f:    A structure field.
 * @name: The member name as shown, or as written in the trace.
 * @out:  Set to the member on TK_OK.
 *
 * Return: TK_OK, TK_ERR_NOTFOUND when no member has the name, or TK_ERR_INVAL for another
 * kind.
 * Ownership: @name is borrowed for the call; *@out is valid as long as the event.
 */
TK_EXPORT enum tk_status tk_field_find_member(const struct tk_field *f, const char *name,
					      struct tk_field *out);

/**
 * tk_field_get_enum_label() - A label whose ranges hold the value of an enumeration.
 * @f:     An enumeration field.
 * @nth:   0 for the first matching label in the order of the class, 1 for the next, ...
 * @label: Set to the label on TK_OK.
 *
 * Several labels may map the same value; a value may also match none.
 *
 *	for (i = 0; tk_field_get_enum_label(&f, i, &label) == TK_OK; i++)
 *		puts(label);
 *
 * Return: TK_OK, TK_END when fewer than @nth + 1 labels match, or TK_ERR_INVAL when @f is not
 * an enumeration.
 * Ownership: *@label is borrowed from the trace.
 */
TK_EXPORT enum tk_status tk_field_get_enum_label(const struct tk_field *f, size_t nth,
						 const char **label);

/**
 * tk_field_get_option() - The option a variant value holds.
 * @f:     A variant field.
 * @index: Set to the index of the option (tk_field_class_get_option()); may be NULL.
 * @out:   Set to the option's value on TK_OK; may be NULL.
 *
 * Return: TK_OK, or TK_ERR_INVAL when @f is not a variant.
 * Ownership: *@out is valid as long as the event.
 */
TK_EXPORT enum tk_status tk_field_get_option(const struct tk_field *f, size_t *index,
					     struct tk_field *out);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_FIELD_H */
