/* SPDX-License-Identifier: MIT */
/*
 * Writing CTF 1.8 traces.
 *
 * A struct tk_ctf_writer makes one CTF trace directory: a data file per stream, made of
 * packets, the plain-text TSDL `metadata` written when the writer is closed, and, unless told
 * otherwise, LTTng's packet index files (`index/NAME.idx`, version 1.1) that babeltrace2 uses
 * to find packets. The layout follows LTTng's, so readers that know LTTng traces read these:
 *
 *   packet header   u32 magic, u8 uuid[16], u32 stream_id, u64 stream_instance_id
 *   packet context  u64 timestamp_begin, timestamp_end, content_size, packet_size,
 *                   packet_seq_num, events_discarded; u32 cpu_id
 *   event header    LTTng's compact header (5-bit id, 27-bit time) when the stream class has
 *                   fewer than 31 event classes when its first event is written, else the
 *                   large one (16-bit id, 32-bit time); each event takes the extended form
 *                   (32-bit id, 64-bit time) when the short one would not give its exact id
 *                   and time back (CTF 1.8 clock reconstruction, one wrap at most)
 *   event context   the stream class's common context, if it has one
 *   payload         the event class's fields
 *
 * Every field is aligned to a byte (align = 8), so events are written with whole-byte stores;
 * an integer of a size other than 8, 16, 32 or 64 bits takes whole bytes, its last bits
 * padding. Calls describe the trace first (environment, clocks, stream classes, event
 * classes, streams), then append events; classes may still be added after events (ids
 * beyond the short header's range use the extended form).
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
 * Field names. Readers (babeltrace2, tracekit) remove one leading underscore from member
 * names, as LTTng writes `_`-prefixed names so that TSDL keywords can be field names. The
 * writer names every event context and payload member the same way, so readers show the
 * name that was given:
 *   1. every byte that is not an ASCII letter, digit or underscore becomes `_`;
 *   2. the name is written with a leading `_` (`pid` -> `_pid`, `int` -> `_int`, `9x` ->
 *      `_9x`, `_x` -> `__x`), except when that makes a keyword (`Bool` -> `_Bool`): then it
 *      is written as it is (`Bool`);
 *   3. a name written before in the same structure gets `_2`, `_3`, ... appended.
 * Readers show the result of steps 1 and 3. A sequence `NAME` is preceded by its length, an
 * unsigned 32-bit integer shown as `_NAME_length` (written `__NAME_length`, as LTTng does).
 * Clock names and environment keys follow step 1 and get a `_` prefix only when they would
 * otherwise be a keyword or start with a digit; a repeated clock name gets `_2`, ...
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
 * @write_index: Nonzero (the default) to write LTTng index files, `index/STREAM.idx`.
 * @has_uuid:    Nonzero to use @uuid as the trace UUID; otherwise a random (version 4) one.
 * @uuid:        The trace UUID when @has_uuid is set.
 */
struct tk_ctf_writer_opts {
	size_t size;
	size_t packet_size;
	unsigned int byte_order;
	int write_index;
	int has_uuid;
	uint8_t uuid[16];
};

#define TK_CTF_WRITER_OPTS_INIT                                                                    \
	{                                                                                          \
		sizeof(struct tk_ctf_writer_opts), TK_CTF_WRITER_DEFAULT_PACKET_SIZE,              \
			TK_CTF_BYTE_ORDER_HOST, 1, 0, {0},                                         \
	}

/**
 * enum tk_ctf_field_kind - What a declared field holds.
 * @TK_CTF_FIELD_KIND_INT:      An integer of 1 to 64 bits, signed or not, shown in a base.
 * @TK_CTF_FIELD_KIND_FLOAT:    An IEEE 754 float of 32 or 64 bits.
 * @TK_CTF_FIELD_KIND_STRING:   A NUL-terminated string.
 * @TK_CTF_FIELD_KIND_ARRAY:    A fixed number of elements (INT or CHAR).
 * @TK_CTF_FIELD_KIND_SEQUENCE: A variable number of elements (INT or CHAR), after its length.
 * @TK_CTF_FIELD_KIND_CHAR:     Element kind only: an 8-bit UTF-8 character. Arrays and
 *                              sequences of them are shown as strings by readers.
 */
enum tk_ctf_field_kind {
	TK_CTF_FIELD_KIND_INT = 1,
	TK_CTF_FIELD_KIND_FLOAT = 2,
	TK_CTF_FIELD_KIND_STRING = 3,
	TK_CTF_FIELD_KIND_ARRAY = 4,
	TK_CTF_FIELD_KIND_SEQUENCE = 5,
	TK_CTF_FIELD_KIND_CHAR = 6,
};

/**
 * struct tk_ctf_field_decl - One field of an event class or of an event context.
 * @name:        Field name (renamed as the file comment says when needed); not empty.
 * @kind:        INT, FLOAT, STRING, ARRAY or SEQUENCE.
 * @bits:        INT: 1 to 64; FLOAT: 32 or 64; others: ignored.
 * @is_signed:   INT: nonzero for two's complement.
 * @base:        INT: display base 2, 8, 10 or 16 (0 means 10).
 * @elem_kind:   ARRAY, SEQUENCE: TK_CTF_FIELD_KIND_INT or TK_CTF_FIELD_KIND_CHAR.
 * @elem_bits:   ARRAY, SEQUENCE of INT: 1 to 64 (CHAR: ignored, always 8).
 * @elem_signed: ARRAY, SEQUENCE of INT: nonzero for signed elements.
 * @elem_base:   ARRAY, SEQUENCE of INT: display base as @base.
 * @array_len:   ARRAY: the number of elements (at most 2^32 - 1).
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
};

/**
 * struct tk_ctf_value - The value of one declared field in one event.
 * @v:    INT: @v.u, or @v.i for signed fields (the low @bits bits are written); FLOAT: @v.d
 *        (rounded to float for 32-bit fields).
 * @data: STRING: @len bytes of text, no NUL needed (a NUL inside ends the string). ARRAY and
 *        SEQUENCE of CHAR: @len bytes. ARRAY and SEQUENCE of INT: @len elements in host
 *        byte order, each stored in the smallest of uint8_t, uint16_t, uint32_t and uint64_t
 *        that holds @elem_bits bits (int8_t ... int64_t for signed ones). May be NULL when
 *        @len is 0.
 * @len:  STRING: bytes; SEQUENCE: elements (both at most 2^32 - 1); ARRAY: elements, at most
 *        @array_len, the missing ones are written as 0 (for text: NUL padding).
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
 * tk_ctf_writer_add_stream_class() - Declare a stream class whose times count @clock_id.
 * @w:        A writer.
 * @clock_id: A clock from tk_ctf_writer_add_clock().
 * @sc_id:    Set to the stream class ID (0, 1, ... in call order).
 *
 * Return: TK_OK, TK_ERR_INVAL (unknown clock) or TK_ERR_NOMEM.
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_stream_class(struct tk_ctf_writer *w, uint64_t clock_id,
							uint64_t *sc_id);

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
 * Return: TK_OK; TK_ERR_INVAL for an unknown stream class or a bad declaration (with a cause
 * naming the field); TK_ERR_NOMEM.
 * Ownership: @name, @fields and their names are copied.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_event_class(struct tk_ctf_writer *w, uint64_t sc_id,
						       const char *name, int loglevel,
						       const struct tk_ctf_field_decl *fields,
						       size_t n, uint64_t *ec_id);

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
 * tk_ctf_writer_append() - Write one event.
 * @w:       A writer.
 * @stream:  A stream of @w.
 * @ec_id:   An event class of the stream's class.
 * @ts:      Event time in cycles of the stream class's clock; never less than the previous
 *           event's time in the same stream.
 * @context: One value per event context field of the stream class (NULL if it has none).
 * @payload: One value per field of the event class (NULL if it has none).
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
 * tk_ctf_writer_add_discarded() - Record events lost in a stream before its next event.
 * @w:      A writer.
 * @stream: A stream of @w.
 * @count:  Number of events lost.
 *
 * The loss is counted in the `events_discarded` field of the packet that holds the stream's
 * next event (of its last packet when no event follows), which readers report as events
 * lost between the end of the previous packet and the end of that packet. So that this
 * says where the loss was, a packet already holding events ends here (without padding) and
 * the next event starts a new one: readers, and converters back to trace.dat, place the
 * loss right before that event. Readers cannot tell how many events the first packet of a
 * stream lost, so a first packet with losses is preceded by one of only its header and
 * context, without losses.
 * Return: TK_OK, or TK_ERR_IO when the packet ended here cannot be written (the writer then
 * refuses further events).
 * Ownership: None.
 */
TK_EXPORT enum tk_status tk_ctf_writer_add_discarded(struct tk_ctf_writer *w,
						     struct tk_ctf_writer_stream *stream,
						     uint64_t count);

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
