/* SPDX-License-Identifier: MIT */
/*
 * Writing CTF 1.8 traces.
 *
 * A struct tk_ctf_writer makes one CTF trace directory: a data file per stream, made of
 * packets, the plain-text TSDL `metadata` written when the writer is closed, and, unless told
 * otherwise, LTTng's packet index files (`index/NAME.idx`, version 1.1) that babeltrace2 uses
 * to find packets. The layout follows LTTng's, so readers that know LTTng traces read these:
 *
 *   packet header   u32 magic, u8 uuid[16] (not without a UUID), u32 stream_id,
 *                   u64 stream_instance_id
 *   packet context  u64 timestamp_begin, timestamp_end (only with a clock), content_size,
 *                   packet_size, packet_seq_num, events_discarded; u32 cpu_id (unless the
 *                   stream class leaves it out); then the stream class's own packet-context
 *                   fields, if it declares any
 *   event header    with a clock: LTTng's compact header (5-bit id, 27-bit time) when the
 *                   stream class has fewer than 31 event classes, all of ids below 31, when
 *                   its first event is written, else the large one (16-bit id, 32-bit time);
 *                   each event takes the extended form (32-bit id, 64-bit time) when the
 *                   short one would not give its exact id and time back (CTF 1.8 clock
 *                   reconstruction, one wrap at most). Without a clock: a u32 id.
 *   stream context  the stream class's event context (CTF `stream.event.context`), if any
 *   event context   the event class's own context (CTF `event.context`), if it has one
 *   payload         the event class's fields
 *
 * Readers hide the packet header, the event header and the packet-context fields they
 * interpret (all of the above but cpu_id); babeltrace2 shows cpu_id and the stream class's
 * own packet-context fields before each event's contexts and payload.
 *
 * Every field is aligned to a byte (align = 8), so events are written with whole-byte stores;
 * an integer of a size other than 8, 16, 32 or 64 bits takes whole bytes, its last bits
 * padding (arrays of 1-bit integers take a byte per element). Structures are not aligned
 * beyond their members, so an empty one takes no room. Calls describe the trace first
 * (environment, clocks, stream classes, event classes, streams), then append events;
 * classes may still be added after events (ids beyond the short header's range use the
 * extended form).
 *
 * Field declarations nest: a structure's members, a variant's options and an array's or
 * sequence's element are declarations too (struct tk_ctf_field_decl). Values follow the
 * declarations in order, depth first (see struct tk_ctf_value), as tracekit's own reader
 * decodes them, so a trace is copied value by value.
 *
 *	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
 *	struct tk_ctf_field_decl f[] = {
 *		{.name = "pid", .kind = TK_CTF_FIELD_KIND_INT, .bits = 32, .is_signed = 1},
 *		{.name = "comm", .kind = TK_CTF_FIELD_KIND_STRING},
 *	};
 *	struct tk_ctf_value v[2] = {{.v.i = 42}, {.data = "bash", .len = 4}};
 *
 *	tk_ctf_writer_create(&w, "out", &o);
 *	tk_ctf_writer_add_clock(w, "monotonic", 1000000000, 0, 0, NULL, 0, &clk);
 *	tk_ctf_writer_add_stream_class(w, clk, &sc);
 *	tk_ctf_writer_add_event_class(w, sc, "exec", -1, f, 2, &ec);
 *	tk_ctf_writer_add_stream(w, sc, 0, &cpu0);
 *	tk_ctf_writer_append(w, cpu0, ec, 1000, NULL, v);
 *	st = tk_ctf_writer_close(w);
 *
 * Nested kinds, with a length member and a tag; the values follow depth first:
 *
 *	struct tk_ctf_enum_label l[] = {{"num", {.u = 0}, {.u = 0}}, {"str", {.u = 1}, {.u = 1}}};
 *	struct tk_ctf_field_decl byte = {.kind = TK_CTF_FIELD_KIND_INT, .bits = 8};
 *	struct tk_ctf_field_decl opt[] = {
 *		{.name = "num", .kind = TK_CTF_FIELD_KIND_INT, .bits = 64},
 *		{.name = "str", .kind = TK_CTF_FIELD_KIND_STRING},
 *	};
 *	struct tk_ctf_field_decl m[] = {
 *		{.name = "n", .kind = TK_CTF_FIELD_KIND_INT, .bits = 16},
 *		{.name = "data", .kind = TK_CTF_FIELD_KIND_SEQUENCE, .ref = "n", .elem = &byte},
 *		{.name = "tag", .kind = TK_CTF_FIELD_KIND_ENUM, .bits = 8, .labels = l,
 *		 .n_labels = 2},
 *		{.name = "v", .kind = TK_CTF_FIELD_KIND_VARIANT, .ref = "tag", .members = opt,
 *		 .n_members = 2},
 *	};
 *	struct tk_ctf_field_decl payload = {.kind = TK_CTF_FIELD_KIND_STRUCT, .members = m,
 *					    .n_members = 4};
 *	// n = 2, data = [7, 9], tag = "str", v = "hi"
 *	struct tk_ctf_value v[] = {{.v.u = 2}, {.len = 2}, {.v.u = 7}, {.v.u = 9}, {.v.u = 1},
 *				   {.len = 1}, {.data = "hi", .len = 2}};
 *
 * with payload as the @payload of struct tk_ctf_event_class_desc, and v given to
 * tk_ctf_writer_append_scopes().
 *
 * Field names. Readers (babeltrace2, tracekit) remove one leading underscore from member
 * names, as LTTng writes `_`-prefixed names so that TSDL keywords can be field names. The
 * writer names every member of a scope or structure the same way (contexts, payload, the
 * stream class's packet-context fields, nested structures), so readers show the name that
 * was given:
 *   1. every byte that is not an ASCII letter, digit or underscore becomes `_`;
 *   2. the name is written with a leading `_` (`pid` -> `_pid`, `int` -> `_int`, `9x` ->
 *      `_9x`, `_x` -> `__x`), except when that makes a keyword (`Bool` -> `_Bool`): then it
 *      is written as it is (`Bool`);
 *   3. a name written before in the same structure gets `_2`, `_3`, ... appended.
 * Readers show the result of steps 1 and 3. A sequence `NAME` declared without a length
 * member (@ref) is preceded by its length, an unsigned 32-bit integer shown as
 * `_NAME_length` (written `__NAME_length`, as LTTng does). In a stream class's packet
 * context, the names of the writer's own fields (timestamp_begin, timestamp_end,
 * content_size, packet_size, packet_seq_num, events_discarded, and cpu_id when written)
 * count as names written before, so readers never mistake a caller's field for one of them.
 * Variant options are written with the names given, which must be TSDL identifiers other
 * than keywords: readers select the option whose written name equals the label of the tag's
 * value (babeltrace2 then shows the name without one leading underscore). Enumeration
 * labels are any text. Clock names and environment keys follow step 1 and get a `_` prefix
 * only when they would otherwise be a keyword or start with a digit; a repeated clock name
 * gets `_2`, ...
 *
 * A writer is not thread-safe: one thread at a time may call it.
 */
#ifndef TRACEKIT_CTF_WRITER_H
#define TRACEKIT_CTF_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/export.h>
#include <tracekit/status.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tk_ctf_writer;
struct tk_ctf_writer_stream;

/** Default packet size of tk_ctf_writer_create(): 256 KiB. */
#define TK_CTF_WRITER_DEFAULT_PACKET_SIZE (256 * 1024)

/** Smallest packet size tk_ctf_writer_create() accepts, in bytes. */
#define TK_CTF_WRITER_MIN_PACKET_SIZE 128

/**
 * enum tk_ctf_byte_order - Byte order of the integers and floats of a written trace.
 * @TK_CTF_BYTE_ORDER_HOST: The order of the machine writing it.
 * @TK_CTF_BYTE_ORDER_LE:   Little-endian.
 * @TK_CTF_BYTE_ORDER_BE:   Big-endian.
 */
enum tk_ctf_byte_order {
	TK_CTF_BYTE_ORDER_HOST = 0,
	TK_CTF_BYTE_ORDER_LE = 1,
	TK_CTF_BYTE_ORDER_BE = 2,
};

/**
 * struct tk_ctf_writer_opts - Options of tk_ctf_writer_create().
 * @size:        sizeof(struct tk_ctf_writer_opts), set by TK_CTF_WRITER_OPTS_INIT.
 * @packet_size: Bytes per packet, at least TK_CTF_WRITER_MIN_PACKET_SIZE (4096 or more is
 *               usual; any size works). A packet whose one event does not fit is made as
 *               large as that event needs instead. 0 means the default, 256 KiB.
 * @byte_order:  An enum tk_ctf_byte_order (default TK_CTF_BYTE_ORDER_HOST).
 * @write_index: Nonzero (the default) to write LTTng index files, `index/STREAM.idx`, for
 *               the streams of classes with a clock (readers find packets by time through
 *               them, so they cannot use one without a clock).
 * @has_uuid:    Nonzero to use @uuid as the trace UUID; otherwise a random (version 4) one.
 * @uuid:        The trace UUID when @has_uuid is set.
 * @no_uuid:     Nonzero for a trace without a UUID (none in the metadata nor in the packet
 *               headers); @has_uuid and @uuid are then ignored.
 */
struct tk_ctf_writer_opts {
	size_t size;
	size_t packet_size;
	unsigned int byte_order;
	int write_index;
	int has_uuid;
	uint8_t uuid[16];
	int no_uuid;
};

#define TK_CTF_WRITER_OPTS_INIT                                                                    \
	{                                                                                          \
		sizeof(struct tk_ctf_writer_opts), TK_CTF_WRITER_DEFAULT_PACKET_SIZE,              \
			TK_CTF_BYTE_ORDER_HOST, 1, 0, {0}, 0,                                      \
	}

/**
 * enum tk_ctf_field_kind - What a declared field holds.
 * @TK_CTF_FIELD_KIND_INT:      An integer of 1 to 64 bits, signed or not, shown in a base.
 * @TK_CTF_FIELD_KIND_FLOAT:    An IEEE 754 float of 32 or 64 bits.
 * @TK_CTF_FIELD_KIND_STRING:   A NUL-terminated string.
 * @TK_CTF_FIELD_KIND_ARRAY:    A fixed number of elements: INT or CHAR (@elem_kind), or any
 *                              kind (@elem).
 * @TK_CTF_FIELD_KIND_SEQUENCE: A variable number of elements, as for arrays; the count is its
 *                              own length member written before it, or an earlier member
 *                              (@ref).
 * @TK_CTF_FIELD_KIND_CHAR:     Element kind only: an 8-bit UTF-8 character. Arrays and
 *                              sequences of them are shown as strings by readers.
 * @TK_CTF_FIELD_KIND_ENUM:     An integer (as INT) whose values have labels (@labels);
 *                              babeltrace2 shows `( "LABEL" : container = 3 )`.
 * @TK_CTF_FIELD_KIND_STRUCT:   A structure of @members (possibly none: shown as `{ }`).
 * @TK_CTF_FIELD_KIND_VARIANT:  One of several @members (the options), chosen by the value of
 *                              an earlier ENUM member (@ref).
 */
enum tk_ctf_field_kind {
	TK_CTF_FIELD_KIND_INT = 1,
	TK_CTF_FIELD_KIND_FLOAT = 2,
	TK_CTF_FIELD_KIND_STRING = 3,
	TK_CTF_FIELD_KIND_ARRAY = 4,
	TK_CTF_FIELD_KIND_SEQUENCE = 5,
	TK_CTF_FIELD_KIND_CHAR = 6,
	TK_CTF_FIELD_KIND_ENUM = 7,
	TK_CTF_FIELD_KIND_STRUCT = 8,
	TK_CTF_FIELD_KIND_VARIANT = 9,
};

/**
 * union tk_ctf_enum_value - A value of an enumeration's integer.
 * @u: The value, for an unsigned enumeration.
 * @i: The value, for a signed one.
 */
union tk_ctf_enum_value {
	uint64_t u;
	int64_t i;
};

/**
 * struct tk_ctf_enum_label - One range of values an enumeration label names.
 * @label: The label, any text. A label may take several ranges, one entry each.
 * @lo:    First value of the range.
 * @hi:    Last value of the range (included), not below @lo.
 */
struct tk_ctf_enum_label {
	const char *label;
	union tk_ctf_enum_value lo;
	union tk_ctf_enum_value hi;
};

/**
 * struct tk_ctf_field_decl - One field: a member of a structure or scope, a variant option
 *                            or the element of an array or sequence.
 * @name:        Field name (renamed as the file comment says when needed); not empty. For a
 *               variant option, the option's name, written as it is (a TSDL identifier, not
 *               a keyword); for an element (@elem), ignored.
 * @kind:        An enum tk_ctf_field_kind (CHAR only as an element).
 * @bits:        INT and ENUM: 1 to 64; FLOAT: 32 or 64; others: ignored.
 * @is_signed:   INT and ENUM: nonzero for two's complement.
 * @base:        INT and ENUM: display base 2, 8, 10 or 16 (0 means 10).
 * @elem_kind:   ARRAY, SEQUENCE without @elem: TK_CTF_FIELD_KIND_INT or
 *               TK_CTF_FIELD_KIND_CHAR.
 * @elem_bits:   ARRAY, SEQUENCE of INT (@elem_kind): 1 to 64 (CHAR: ignored, always 8).
 * @elem_signed: ARRAY, SEQUENCE of INT (@elem_kind): nonzero for signed elements.
 * @elem_base:   ARRAY, SEQUENCE of INT (@elem_kind): display base as @base.
 * @array_len:   ARRAY: the number of elements (at most 2^32 - 1).
 * @elem:        ARRAY, SEQUENCE: the element's declaration, of any kind (a CHAR element is
 *               the same as @elem_kind CHAR), or NULL to use @elem_kind. A SEQUENCE with an
 *               @elem needs a length member (@ref) unless it is a member of a structure.
 * @members:     STRUCT: its @n_members members; VARIANT: its @n_members options.
 * @n_members:   Number of @members (a VARIANT needs at least one).
 * @labels:      ENUM: its @n_labels label ranges.
 * @n_labels:    Number of @labels.
 * @ref:         VARIANT: the name (as given) of its tag, an ENUM member declared before it in
 *               the same structure or an enclosing one of the same scope, the nearest such;
 *               each option is chosen by the tag's labels equal to its name. SEQUENCE: the
 *               name of its length, an unsigned INT member found the same way, or NULL for a
 *               length member of its own (see the file comment).
 */
struct tk_ctf_field_decl {
	const char *name;
	enum tk_ctf_field_kind kind;
	unsigned int bits;
	int is_signed;
	unsigned int base;
	enum tk_ctf_field_kind elem_kind;
	unsigned int elem_bits;
	int elem_signed;
	unsigned int elem_base;
	uint64_t array_len;
	const struct tk_ctf_field_decl *elem;
	const struct tk_ctf_field_decl *members;
	size_t n_members;
	const struct tk_ctf_enum_label *labels;
	size_t n_labels;
	const char *ref;
};

/**
 * struct tk_ctf_value - The value of one declared field in one event.
 * @v:    INT and ENUM: @v.u, or @v.i for signed fields (the low @bits bits are written);
 *        FLOAT: @v.d (rounded to float for 32-bit fields).
 * @data: STRING: @len bytes of text, no NUL needed (a NUL inside ends the string). ARRAY and
 *        SEQUENCE of CHAR: @len bytes. ARRAY and SEQUENCE of INT through @elem_kind: @len
 *        elements in host byte order, each stored in the smallest of uint8_t, uint16_t,
 *        uint32_t and uint64_t that holds @elem_bits bits (int8_t ... int64_t for signed
 *        ones). May be NULL when @len is 0.
 * @len:  STRING: bytes; SEQUENCE: elements (both at most 2^32 - 1); ARRAY through
 *        @elem_kind: elements, at most @array_len, the missing ones are written as 0 (for
 *        text: NUL padding); ARRAY and SEQUENCE with an @elem: the number of elements
 *        (exactly @array_len for an ARRAY); VARIANT: the index in @members of the option
 *        the tag's value chooses.
 *
 * A list of values follows its declarations depth first: one value per INT, ENUM, FLOAT,
 * STRING, VARIANT, and ARRAY or SEQUENCE; none for a STRUCT, whose members' values follow;
 * after a VARIANT's value, those of its chosen option; after the value of an ARRAY or
 * SEQUENCE with an @elem, those of each element in turn (arrays and sequences through
 * @elem_kind or of CHAR take their one value). A SEQUENCE with a length member (@ref) must
 * have as many elements as that member's value says.
 */
struct tk_ctf_value {
	union {
		uint64_t u;
		int64_t i;
		double d;
	} v;
	const void *data;
	size_t len;
};

/** No clock: the clock ID of a stream class whose events have no time. */
#define TK_CTF_WRITER_NO_CLOCK UINT64_MAX

/**
 * struct tk_ctf_clock_desc - A clock, for tk_ctf_writer_add_clock_desc().
 * @size:          sizeof(struct tk_ctf_clock_desc), set by TK_CTF_CLOCK_DESC_INIT.
 * @name:          Clock name (made a TSDL identifier as the file comment says).
 * @frequency:     Cycles per second (not 0; 1 GHz by default).
 * @offset_s:      Seconds from the clock's origin to its value 0.
 * @offset_cycles: More cycles from the origin to value 0.
 * @precision:     Precision in cycles (0: not written).
 * @description:   A description, or NULL.
 * @is_absolute:   Nonzero when the origin is the Unix epoch.
 * @has_uuid:      Nonzero to write @uuid as the clock's UUID.
 * @uuid:          The clock's UUID.
 */
struct tk_ctf_clock_desc {
	size_t size;
	const char *name;
	uint64_t frequency;
	int64_t offset_s;
	uint64_t offset_cycles;
	uint64_t precision;
	const char *description;
	int is_absolute;
	int has_uuid;
	uint8_t uuid[16];
};

#define TK_CTF_CLOCK_DESC_INIT                                                                     \
	{                                                                                          \
		sizeof(struct tk_ctf_clock_desc), NULL, 1000000000, 0, 0, 0, NULL, 0, 0, {0},      \
	}

/**
 * struct tk_ctf_stream_class_desc - A stream class, for tk_ctf_writer_add_stream_class_desc().
 * @size:           sizeof(struct tk_ctf_stream_class_desc), set by
 *                  TK_CTF_STREAM_CLASS_DESC_INIT.
 * @clock_id:       A clock from tk_ctf_writer_add_clock() or tk_ctf_writer_add_clock_desc()
 *                  that event times count, or TK_CTF_WRITER_NO_CLOCK (the default): events
 *                  without time, and packets without timestamp_begin and timestamp_end.
 * @has_id:         Nonzero to give the stream class the ID @id (below 2^32, unused);
 *                  otherwise it gets one more than the largest ID so far (0 for the first).
 * @id:             The ID when @has_id is set.
 * @has_cpu_id:     Nonzero (the default) to write the cpu_id packet-context field that
 *                  tk_ctf_writer_add_stream() sets.
 * @packet_context: A STRUCT declaration of more packet-context fields, written after the
 *                  writer's own, or NULL for none. Their values are set per stream with
 *                  tk_ctf_writer_set_packet_context().
 * @event_context:  A STRUCT declaration of the fields every event of the class carries
 *                  before its event class's context and payload (CTF
 *                  `stream.event.context`), or NULL for none.
 */
struct tk_ctf_stream_class_desc {
	size_t size;
	uint64_t clock_id;
	int has_id;
	uint64_t id;
	int has_cpu_id;
	const struct tk_ctf_field_decl *packet_context;
	const struct tk_ctf_field_decl *event_context;
};

#define TK_CTF_STREAM_CLASS_DESC_INIT                                                              \
	{                                                                                          \
		sizeof(struct tk_ctf_stream_class_desc), TK_CTF_WRITER_NO_CLOCK, 0, 0, 1, NULL,    \
			NULL,                                                                      \
	}

/**
 * struct tk_ctf_event_class_desc - An event class, for tk_ctf_writer_add_event_class_desc().
 * @size:     sizeof(struct tk_ctf_event_class_desc), set by TK_CTF_EVENT_CLASS_DESC_INIT.
 * @name:     Event name, any text, or NULL for none.
 * @has_id:   Nonzero to give the event class the ID @id (below 2^32, unused in its stream
 *            class); otherwise one more than the largest ID of the stream class so far.
 * @id:       The ID when @has_id is set.
 * @loglevel: LTTng log level (0 to 14), or -1 (the default; any negative value) for none.
 * @emf_uri:  The Eclipse Modeling Framework URI readers show (CTF `model.emf.uri`), or NULL.
 * @context:  A STRUCT declaration of the event class's own context (CTF `event.context`),
 *            or NULL for none.
 * @payload:  A STRUCT declaration of its payload (CTF `event.fields`), or NULL for none
 *            (readers then show no payload; an empty STRUCT is shown as `{ }`).
 */
struct tk_ctf_event_class_desc {
	size_t size;
	const char *name;
	int has_id;
	uint64_t id;
	int loglevel;
	const char *emf_uri;
	const struct tk_ctf_field_decl *context;
	const struct tk_ctf_field_decl *payload;
};

#define TK_CTF_EVENT_CLASS_DESC_INIT                                                               \
	{                                                                                          \
		sizeof(struct tk_ctf_event_class_desc), NULL, 0, 0, -1, NULL, NULL, NULL,          \
	}

/**
 * struct tk_ctf_stream_desc - A data stream, for tk_ctf_writer_add_stream_desc().
 * @size:   sizeof(struct tk_ctf_stream_desc), set by TK_CTF_STREAM_DESC_INIT.
 * @cpu_id: Value of the packets' cpu_id field (when the stream class writes it).
 * @has_id: Nonzero to give the stream the ID @id (`stream_instance_id`), unused among the
 *          streams of its class; otherwise it gets the number of streams added before it.
 * @id:     The ID when @has_id is set.
 * @name:   File name (not empty, no '/', not starting with '.', not `metadata` nor `index`),
 *          or NULL for `channelS_K` (see tk_ctf_writer_add_stream()).
 */
struct tk_ctf_stream_desc {
	size_t size;
	uint32_t cpu_id;
	int has_id;
	uint64_t id;
	const char *name;
};

#define TK_CTF_STREAM_DESC_INIT                                                                    \
	{                                                                                          \
		sizeof(struct tk_ctf_stream_desc), 0, 0, 0, NULL,                                  \
	}

/**
 * tk_ctf_writer_create() - Start writing a CTF trace into a directory.
 * @out:  Set to the new writer on success; left unchanged on failure.
 * @dir:  Trace directory. It is made (with missing parents) if it does not exist; an
 *        existing directory must be empty.
 * @opts: Options, or NULL for the defaults.
 *
 * Return: TK_OK; TK_ERR_INVAL for bad options or a directory that is not empty; TK_ERR_IO
 * when the directory cannot be made; TK_ERR_NOMEM.
 * Ownership: @dir and @opts are borrowed for the call. *@out belongs to the caller, who
 * releases it with tk_ctf_writer_close() (which finishes the trace) or
 * tk_ctf_writer_destroy() (which does not).
 */
TK_EXPORT enum tk_status tk_ctf_writer_create(struct tk_ctf_writer **out, const char *dir,
					      const struct tk_ctf_writer_opts *opts);

/**
 * tk_ctf_writer_set_env_string() - Set a string entry of the trace environment (`env`).
 * @w:     A writer.
 * @key:   Entry name (made a TSDL identifier as the file comment says).
 * @value: Its value.
 *
 * Setting a key again replaces its value. babeltrace2 shows the `hostname` entry (and
 * `procname`, `vpid`) before each event.
 * Return: TK_OK, TK_ERR_INVAL (empty key) or TK_ERR_NOMEM.
 * Ownership: @key and @value are copied.
 */
TK_EXPORT enum tk_status tk_ctf_writer_set_env_string(struct tk_ctf_writer *w, const char *key,
						      const char *value);

/**
 * tk_ctf_writer_set_env_int() - Set an integer entry of the trace environment (`env`).
 * @w:     A writer.
 * @key:   Entry name, as for tk_ctf_writer_set_env_string().
 * @value: Its value.
 *
 * Return: TK_OK, TK_ERR_INVAL (empty key) or TK_ERR_NOMEM.
 * Ownership: @key is copied.
 */
TK_EXPORT enum tk_status tk_ctf_writer_set_env_int(struct tk_ctf_writer *w, const char *key,
						   int64_t value);

/**
 * tk_ctf_writer_add_clock() - Declare a clock.
 * @w:             A writer.
 * @name:          Clock name (made a TSDL identifier as the file comment says).
 * @frequency:     Cycles per second (not 0).
 * @offset_s:      Seconds from the clock's origin to its value 0.
 * @offset_cycles: More cycles from the origin to value 0.
 * @description:   A description, or NULL.
 * @is_absolute:   Nonzero when the origin is the Unix epoch.
 * @clock_id:      Set to the clock ID (0, 1, ... in call order).
 *
 * Return: TK_OK, TK_ERR_INVAL or TK_ERR_NOMEM.
 * Ownership: @name and @description are copied.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_clock(struct tk_ctf_writer *w, const char *name,
						 uint64_t frequency, int64_t offset_s,
						 uint64_t offset_cycles, const char *description,
						 int is_absolute, uint64_t *clock_id);

/**
 * tk_ctf_writer_add_clock_desc() - Declare a clock with all its properties.
 * @w:        A writer.
 * @desc:     The clock (see struct tk_ctf_clock_desc).
 * @clock_id: Set to the clock ID (0, 1, ... in call order, with tk_ctf_writer_add_clock()).
 *
 * Return: TK_OK, TK_ERR_INVAL (no name, frequency 0) or TK_ERR_NOMEM.
 * Ownership: @desc and its strings are copied.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_clock_desc(struct tk_ctf_writer *w,
						      const struct tk_ctf_clock_desc *desc,
						      uint64_t *clock_id);

/**
 * tk_ctf_writer_add_stream_class() - Declare a stream class whose times count @clock_id.
 * @w:        A writer.
 * @clock_id: A clock from tk_ctf_writer_add_clock().
 * @sc_id:    Set to the stream class ID (0, 1, ... in call order).
 *
 * The same as tk_ctf_writer_add_stream_class_desc() with @clock_id and the other defaults.
 * Return: TK_OK, TK_ERR_INVAL (unknown clock) or TK_ERR_NOMEM.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_stream_class(struct tk_ctf_writer *w, uint64_t clock_id,
							uint64_t *sc_id);

/**
 * tk_ctf_writer_add_stream_class_desc() - Declare a stream class: its clock or none, its ID,
 *                                         packet context and event context.
 * @w:     A writer.
 * @desc:  The stream class (see struct tk_ctf_stream_class_desc).
 * @sc_id: Set to the stream class ID.
 *
 *	struct tk_ctf_field_decl pc[] = {{.name = "cpu_id", .kind = TK_CTF_FIELD_KIND_INT,
 *					  .bits = 32}};
 *	struct tk_ctf_field_decl pcs = {.kind = TK_CTF_FIELD_KIND_STRUCT, .members = pc,
 *					.n_members = 1};
 *	struct tk_ctf_stream_class_desc d = TK_CTF_STREAM_CLASS_DESC_INIT;
 *
 *	d.clock_id = clk;
 *	d.has_cpu_id = 0;	// cpu_id as one of its own fields instead
 *	d.packet_context = &pcs;
 *	st = tk_ctf_writer_add_stream_class_desc(w, &d, &sc);
 *
 * Return: TK_OK; TK_ERR_INVAL for an unknown clock, an ID in use or too large, or a bad
 * declaration (with a cause naming the field); TK_ERR_NOMEM.
 * Ownership: @desc and the declarations it points to are copied.
 */
TK_EXPORT enum tk_status
tk_ctf_writer_add_stream_class_desc(struct tk_ctf_writer *w,
				    const struct tk_ctf_stream_class_desc *desc, uint64_t *sc_id);

/**
 * tk_ctf_writer_set_event_context() - Declare the fields every event of a stream class
 *                                     carries before its payload (CTF `event.context`).
 * @w:      A writer.
 * @sc_id:  A stream class without events yet.
 * @fields: @n field declarations.
 * @n:      Number of @fields; 0 removes the context.
 *
 * Converters from trace.dat put the ftrace common fields here (common_type, common_flags,
 * common_preempt_count, common_pid). Each event then gives their values as @context of
 * tk_ctf_writer_append().
 * Return: TK_OK; TK_ERR_INVAL for an unknown stream class, one with events already or a bad
 * declaration (with a cause naming the field); TK_ERR_NOMEM.
 * Ownership: @fields and their names are copied.
 */
TK_EXPORT enum tk_status tk_ctf_writer_set_event_context(struct tk_ctf_writer *w, uint64_t sc_id,
							 const struct tk_ctf_field_decl *fields,
							 size_t n);

/**
 * tk_ctf_writer_add_event_class() - Declare an event class in a stream class.
 * @w:        A writer.
 * @sc_id:    A stream class.
 * @name:     Event name, any text.
 * @loglevel: LTTng log level (0 to 14), or -1 (any negative value) for none.
 * @fields:   @n payload field declarations.
 * @n:        Number of @fields (0 for an empty payload).
 * @ec_id:    Set to the event class ID within @sc_id (0, 1, ... in call order).
 *
 * The same as tk_ctf_writer_add_event_class_desc() with a payload of @fields (none when @n
 * is 0) and the ID one more than the largest so far.
 * Return: TK_OK; TK_ERR_INVAL for an unknown stream class or a bad declaration (with a cause
 * naming the field); TK_ERR_NOMEM.
 * Ownership: @name, @fields and their names are copied.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_event_class(struct tk_ctf_writer *w, uint64_t sc_id,
						       const char *name, int loglevel,
						       const struct tk_ctf_field_decl *fields,
						       size_t n, uint64_t *ec_id);

/**
 * tk_ctf_writer_add_event_class_desc() - Declare an event class with all its properties.
 * @w:     A writer.
 * @sc_id: A stream class.
 * @desc:  The event class (see struct tk_ctf_event_class_desc).
 * @ec_id: Set to the event class ID within @sc_id.
 *
 * Return: TK_OK; TK_ERR_INVAL for an unknown stream class, an ID in use or too large, or a
 * bad declaration (with a cause naming the field); TK_ERR_NOMEM.
 * Ownership: @desc, its strings and declarations are copied.
 */
TK_EXPORT enum tk_status
tk_ctf_writer_add_event_class_desc(struct tk_ctf_writer *w, uint64_t sc_id,
				   const struct tk_ctf_event_class_desc *desc, uint64_t *ec_id);

/**
 * tk_ctf_writer_add_stream() - Add a data stream (one file) of a stream class.
 * @w:      A writer.
 * @sc_id:  A stream class.
 * @cpu_id: Value of the packets' `cpu_id` field.
 * @out:    Set to the stream.
 *
 * The file is named `channelS_K`: S is the stream class ID, K counts the streams of that
 * class from 0. Its packets' `stream_instance_id` counts all streams of the trace from 0.
 * Return: TK_OK, TK_ERR_INVAL (unknown stream class), TK_ERR_IO or TK_ERR_NOMEM.
 * Ownership: *@out is borrowed from @w and valid until @w is closed or destroyed.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_stream(struct tk_ctf_writer *w, uint64_t sc_id,
						  uint32_t cpu_id,
						  struct tk_ctf_writer_stream **out);

/**
 * tk_ctf_writer_add_stream_desc() - Add a data stream with its ID and file name.
 * @w:     A writer.
 * @sc_id: A stream class.
 * @desc:  The stream (see struct tk_ctf_stream_desc).
 * @out:   Set to the stream.
 *
 * Until tk_ctf_writer_set_packet_context() says otherwise, the stream class's own
 * packet-context fields are written as zero: integers 0, strings and sequences empty, arrays
 * of zero elements, variants their option for a tag of 0.
 * Return: TK_OK; TK_ERR_INVAL (unknown stream class, ID in use, bad name); TK_ERR_IO (the
 * file exists or cannot be made); TK_ERR_NOMEM.
 * Ownership: @desc is borrowed for the call. *@out is borrowed from @w and valid until @w
 * is closed or destroyed.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_stream_desc(struct tk_ctf_writer *w, uint64_t sc_id,
						       const struct tk_ctf_stream_desc *desc,
						       struct tk_ctf_writer_stream **out);

/**
 * tk_ctf_writer_set_packet_context() - Set the values of a stream's packet-context fields.
 * @w:      A writer.
 * @stream: A stream of @w whose class declares packet-context fields.
 * @values: Their values, as for the fields of an event (struct tk_ctf_value).
 *
 * The values hold for the stream's packets from now on: a packet holds one set, so the
 * open packet, if any, is finished first. Callers set them when they change.
 * Return: TK_OK; TK_ERR_INVAL for a stream class without such fields or values that do not
 * fit (nothing changes then); TK_ERR_IO when the finished packet cannot be written;
 * TK_ERR_NOMEM.
 * Ownership: @values and the data they point to are borrowed for the call.
 */
TK_EXPORT enum tk_status tk_ctf_writer_set_packet_context(struct tk_ctf_writer *w,
							  struct tk_ctf_writer_stream *stream,
							  const struct tk_ctf_value *values);

/**
 * tk_ctf_writer_append() - Write one event.
 * @w:       A writer.
 * @stream:  A stream of @w.
 * @ec_id:   An event class of the stream's class.
 * @ts:      Event time in cycles of the stream class's clock; never less than the previous
 *           event's time in the same stream.
 * @context: The values of the stream class's event context (NULL if it has none).
 * @payload: The values of the event class's payload (NULL if it has none).
 *
 * The event goes into the stream's current packet. When it does not fit, that packet is
 * finished (its context filled and the whole packet written with one write) and a new one
 * begins; an event larger than a packet gets a packet of its own, made as large as needed.
 * No memory is allocated per event, except to grow the packet buffer for such an event.
 * Return: TK_OK; TK_ERR_INVAL for an unknown event class, a time going back, missing values
 * or a value that does not fit its declaration (nothing is written then); TK_ERR_IO when a
 * packet cannot be written (the writer then refuses further events); TK_ERR_NOMEM.
 * Ownership: @context and @payload, and the data they point to, are borrowed for the call.
 */
TK_EXPORT enum tk_status tk_ctf_writer_append(struct tk_ctf_writer *w,
					      struct tk_ctf_writer_stream *stream, uint64_t ec_id,
					      uint64_t ts, const struct tk_ctf_value *context,
					      const struct tk_ctf_value *payload);

/**
 * tk_ctf_writer_append_scopes() - Write one event with its event class's context.
 * @w:              A writer.
 * @stream:         A stream of @w.
 * @ec_id:          An event class of the stream's class.
 * @ts:             As for tk_ctf_writer_append(); ignored when the stream class has no clock.
 * @common_context: Values of the stream class's event context (NULL if it has none).
 * @context:        Values of the event class's context (NULL if it has none).
 * @payload:        Values of the event class's payload (NULL if it has none).
 *
 * tk_ctf_writer_append() is this call without the event class's context.
 * Return: As for tk_ctf_writer_append(); TK_ERR_INVAL also for a variant whose option is not
 * the one its tag's value chooses, or a sequence whose length member says otherwise.
 * Ownership: The values, and the data they point to, are borrowed for the call.
 */
TK_EXPORT enum tk_status
tk_ctf_writer_append_scopes(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *stream,
			    uint64_t ec_id, uint64_t ts, const struct tk_ctf_value *common_context,
			    const struct tk_ctf_value *context, const struct tk_ctf_value *payload);

/**
 * tk_ctf_writer_add_discarded() - Record events lost in a stream before its next event.
 * @w:      A writer.
 * @stream: A stream of @w.
 * @count:  Number of events lost; UINT64_MAX for an unknown number.
 *
 * The loss is counted in the `events_discarded` field of the packet that holds the stream's
 * next event (of its last packet when no event follows), which readers report as events
 * lost between the end of the previous packet and the end of that packet. So that this
 * says where the loss was, a packet already holding events ends here (without padding) and
 * the next event starts a new one: readers, and converters back to trace.dat, place the
 * loss right before that event. Readers cannot tell how many events the first packet of a
 * stream lost, so a first packet with losses is preceded by one of only its header and
 * context, without losses; except for an unknown number, which readers report only for a
 * first packet (later, it counts as 1).
 * Return: TK_OK, or TK_ERR_IO when the packet ended here cannot be written (the writer then
 * refuses further events).
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_discarded(struct tk_ctf_writer *w,
						     struct tk_ctf_writer_stream *stream,
						     uint64_t count);

/**
 * tk_ctf_writer_add_discarded_range() - Record events lost in a stream between two times.
 * @w:      A writer.
 * @stream: A stream of @w whose class has a clock.
 * @count:  Number of events lost; UINT64_MAX for an unknown number (as for
 *          tk_ctf_writer_add_discarded()).
 * @begin:  Time (cycles) after which they were lost: not before the stream's last event.
 * @end:    Time up to which they were lost: not before @begin.
 *
 * Readers report losses between the end of a packet and the end of the next one, so the
 * stream's open packet ends at @begin, and the packet after it, which reports the loss,
 * holds the events up to @end and ends there: readers then report exactly this range.
 * Return: TK_OK; TK_ERR_INVAL (no clock, times out of order); TK_ERR_IO when a packet
 * cannot be written.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_discarded_range(struct tk_ctf_writer *w,
							   struct tk_ctf_writer_stream *stream,
							   uint64_t count, uint64_t begin,
							   uint64_t end);

/**
 * tk_ctf_writer_add_discarded_packets() - Record packets lost in a stream.
 * @w:      A writer.
 * @stream: A stream of @w.
 * @count:  Number of packets lost (at least 1).
 * @begin:  With a clock: time (cycles) of the end of the last packet before them, not
 *          before the stream's last event; ignored without a clock.
 * @end:    With a clock: time of the beginning of the next packet, not before @begin.
 *
 * The stream's open packet ends at @begin and the next one's sequence number
 * (`packet_seq_num`) skips @count; it begins at @end (without an event after the loss, an
 * empty packet is written, so that readers see the gap). Readers report the packets lost
 * between those times. Right after tk_ctf_writer_add_discarded_range(), with no event
 * between, lost packets from that range's @begin (or later) to a time inside it are lost
 * before the packet reporting those events (an overwrite-mode LTTng trace): that packet
 * begins at @end and still ends at the range's end.
 * Return: TK_OK; TK_ERR_INVAL (count 0, times out of order); TK_ERR_IO.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_discarded_packets(struct tk_ctf_writer *w,
							     struct tk_ctf_writer_stream *stream,
							     uint64_t count, uint64_t begin,
							     uint64_t end);

/**
 * tk_ctf_writer_close() - Finish the trace and free the writer.
 * @w: A writer, or NULL.
 *
 * Writes the last packet of every stream (a stream without events but with losses gets one
 * empty packet; one without either gets an empty file), the index files and `metadata`.
 * Return: TK_OK, or the first error met (TK_ERR_IO with the file named in a cause); the
 * writer is freed in both cases.
 * Ownership: @w and every stream borrowed from it are invalid afterwards.
 */
TK_EXPORT enum tk_status tk_ctf_writer_close(struct tk_ctf_writer *w);

/**
 * tk_ctf_writer_destroy() - Free a writer without finishing the trace.
 * @w: A writer, or NULL.
 *
 * Files already written stay as they are; the trace has no metadata and cannot be read.
 * Return: Nothing.
 * Ownership: @w and every stream borrowed from it are invalid afterwards.
 */
TK_EXPORT void tk_ctf_writer_destroy(struct tk_ctf_writer *w);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_CTF_WRITER_H */
