/* SPDX-License-Identifier: MIT */
/*
 * The trace model every reader produces and every sink consumes (ARCHITECTURE.md).
 *
 * A struct tk_trace holds sources (one per trace written by one tracer). A source holds
 * clocks, stream classes with their event classes, and data streams. The layout of every
 * scope (packet context, event header, contexts, payload) is a tree of struct model_fc.
 *
 * Decoded values are flat: a reader decodes a scope into an array of struct model_value in
 * pre-order of the field class tree (one value per integer, float or string; one per array or
 * sequence holding its length; one per variant holding the selected option), and renderers
 * walk the tree and the array side by side, with model_walk() (walk.h) or a plan compiled
 * once per event class. No value is allocated per event.
 */
#ifndef TK_MODEL_MODEL_H
#define TK_MODEL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tracekit/iter.h>
#include <tracekit/trace.h>

#include "../common/arena.h"
#include "../common/bytes.h"

enum model_fc_kind {
	MODEL_FC_INT,
	MODEL_FC_ENUM,
	MODEL_FC_FLOAT,
	MODEL_FC_STRING,
	MODEL_FC_STRUCT,
	MODEL_FC_ARRAY,
	MODEL_FC_SEQUENCE,
	MODEL_FC_VARIANT,
};

enum model_encoding {
	MODEL_ENCODING_NONE,
	MODEL_ENCODING_UTF8,
	MODEL_ENCODING_ASCII,
};

struct model_fc;

struct model_member {
	const char *name;      /* as shown: one leading underscore removed */
	const char *orig_name; /* as written in the metadata */
	struct model_fc *fc;
};

union model_scalar {
	uint64_t u;
	int64_t i;
};

struct model_range {
	union model_scalar lo;
	union model_scalar hi;
};

struct model_enum_mapping {
	const char *label;
	struct model_range *ranges;
	uint32_t nranges;
};

/* One range of tag values selecting a variant option. */
struct model_variant_range {
	union model_scalar lo;
	union model_scalar hi;
	uint32_t option;
};

/*
 * A field class, as every reader, output and writer sees it. What only one reader needs to
 * decode (the CTF reader: special meanings, stored-value slots) stays in that reader's
 * folder, in a structure that starts with this one (struct ctf_fc, src/ctf/ctf-fc-priv.h).
 */
struct model_fc {
	uint8_t kind;	    /* enum model_fc_kind */
	uint8_t byte_order; /* enum tk_byte_order, for integers and floats */
	uint8_t is_signed;
	uint8_t base;	  /* display base of integers: 2, 8, 10 or 16 */
	uint8_t encoding; /* enum model_encoding */
	/*
	 * Not shown to users: a field the reader decodes for its own needs only (CTF: headers,
	 * packet sizes, clock-mapped timestamps, and the lengths and tags no shown field needs,
	 * which babeltrace2 leaves out of its trace IR). Its values are in the decoded scope
	 * all the same; printers skip them and writers leave the field out. 0 (shown) is the
	 * default of a zeroed field class, so readers whose fields are all shown set nothing.
	 */
	uint8_t hidden;
	uint8_t is_text; /* array or sequence of 8-bit characters shown as a string */
	uint8_t dep;	 /* a shown sequence or variant depends on this field (keep it shown) */
	uint32_t size;	 /* bits (integers, enumerations, floats) */
	uint32_t align;	 /* bits, a power of two */
	uint32_t mant_dig;
	uint32_t exp_dig;
	struct tk_clock *clock; /* clock an integer field is mapped to, or NULL */
	const char *ref;	/* sequence length or variant tag, as written */
	union {
		struct {
			struct model_member *members;
			uint32_t count;
		} st;
		struct {
			struct model_member *options;
			uint32_t count;
			struct model_fc *tag;
			struct model_variant_range *ranges; /* sorted by lo */
			uint32_t nranges;
		} var;
		struct {
			struct model_fc *elem;
			uint64_t length;	    /* arrays */
			struct model_fc *length_fc; /* sequences */
		} arr;
		struct {
			struct model_enum_mapping *maps;
			uint32_t count;
		} en;
	} u;
};

/*
 * How one value of a fixed-layout body is loaded from its bytes: whole bytes only, in the
 * stated order (a reader lists no body with bit fields or unaligned floats here).
 */
enum model_load {
	MODEL_LOAD_U8,
	MODEL_LOAD_S8,
	MODEL_LOAD_U16LE,
	MODEL_LOAD_U16BE,
	MODEL_LOAD_S16LE,
	MODEL_LOAD_S16BE,
	MODEL_LOAD_U32LE,
	MODEL_LOAD_U32BE,
	MODEL_LOAD_S32LE,
	MODEL_LOAD_S32BE,
	MODEL_LOAD_U64LE, /* signed or not: the same 64 bits */
	MODEL_LOAD_U64BE,
	MODEL_LOAD_F32LE,
	MODEL_LOAD_F32BE,
	MODEL_LOAD_F64LE,
	MODEL_LOAD_F64BE,
	MODEL_LOAD_TEXT,  /* a text array of len bytes: up to its first NUL */
	MODEL_LOAD_COUNT, /* a fixed array's length, len; no byte is read */
	/*
	 * A NUL-terminated string: its segment ends with its NUL (see struct model_fixed), so
	 * its length is where the next segment starts, less one. model_fixed_load() cannot
	 * load it: the reader decodes such bodies itself.
	 */
	MODEL_LOAD_STRING,
	/*
	 * In a body of several segments only, an array (len elements) or a sequence (as many
	 * as the unsigned integer of field len says: an earlier field of its segment, as
	 * printers find it) of integers loaded as elem says, as one field. A sequence ends its
	 * segment, as a string does; MODEL_LOAD_TEXT_SEQ is a sequence of 8-bit characters
	 * shown as text, up to its first NUL.
	 */
	MODEL_LOAD_ARRAY,
	MODEL_LOAD_SEQ,
	MODEL_LOAD_TEXT_SEQ,
	MODEL_LOAD_N,
};

/* One value of a fixed-layout body: where it is and how to load it. */
struct model_fixed_field {
	uint32_t off; /* bytes from the start of its segment */
	uint8_t load; /* enum model_load */
	uint8_t seg;  /* its segment: 0 but after strings and sequences */
	uint8_t elem; /* MODEL_LOAD_ARRAY and MODEL_LOAD_SEQ: how each element loads */
	uint64_t len; /* MODEL_LOAD_TEXT, _COUNT, _ARRAY: a length; _SEQ, _TEXT_SEQ: a field */
};

/*
 * A body whose every value lies at a fixed byte offset (tk_event_class.fixed): one field per
 * value, in the order of the decoded values, the body's scopes starting at fields marks[0]
 * (stream event context), marks[1] (event context) and marks[2] (payload). A body with
 * NUL-terminated strings or sequences is cut in segments, each ending with the NUL of a
 * string or with a sequence (the last with the body): offsets count from the start of the
 * field's segment, and the reader gives where each segment starts in tk_event.segs (n_segs
 * of them; 1 without strings or sequences). In such a body, an array or a sequence of
 * integers is one field (MODEL_LOAD_ARRAY, MODEL_LOAD_SEQ) however many values it has.
 */
struct model_fixed {
	const struct model_fixed_field *fields;
	uint32_t n;
	uint32_t marks[3];
	uint32_t n_segs;
};

/* A decoded value; see the file comment for the layout of a scope. */
struct model_value {
	union {
		uint64_t u;
		int64_t i;
		double d;
		const char *s;
	} v;
	uint64_t n; /* string length, array or sequence length, or selected variant option */
};

struct tk_clock {
	const char *name;
	const char *description;
	uint8_t uuid[16];
	uint8_t has_uuid;
	uint8_t absolute;
	uint8_t base_overflows;
	uint64_t freq;
	uint64_t precision;
	int64_t offset_s;
	uint64_t offset_cycles; /* less than freq */
	int64_t base_ns;	/* offset_s and offset_cycles in ns */
	/*
	 * Cycles below this are base_ns + cycles ns (a 1 GHz clock whose base is in range and
	 * not negative, so the sum cannot overflow), else 0; set by model_clock_finish()
	 */
	uint64_t fast_cycles;
};

struct model_env {
	const char *key;
	const char *str; /* NULL for integers */
	int64_t integer;
};

/*
 * Where environment entries go, one at a time (a CTF writer's environment, an array):
 * put() stores text @str, or integer @integer when @str is NULL; a negative status stops.
 */
struct model_env_out {
	enum tk_status (*put)(void *payload, const char *key, const char *str, int64_t integer);
	void *payload;
};

struct model_stream_class {
	uint64_t id;
	struct tk_source *source;
	struct model_fc *packet_context;
	struct model_fc *event_header;
	struct model_fc *event_context; /* the stream's event context, common to its events */
	struct tk_clock *clock;		/* default clock, or NULL */
	struct tk_event_class **ecs;	/* sorted by id */
	size_t n_ecs;
	struct tk_event_class **ec_table; /* ecs by id when ids are small, else NULL */
	size_t n_ec_table;
	uint8_t packets_have_ts_begin;
	uint8_t packets_have_ts_end;
	uint8_t has_discarded_events;
	uint8_t discarded_events_have_ts;
	uint8_t has_discarded_packets;
	uint8_t discarded_packets_have_ts;
	/*
	 * An ftrace instance buffer beside the file's main buffer: `trace-cmd report --cpu`
	 * leaves its events out, and so does the filter stage's CPU selection.
	 */
	uint8_t instance;
	/*
	 * Its events carry the CPU they were recorded on in tk_event.cpu (trace.dat: the
	 * buffer's; CTF: the packet context's cpu_id), else that is always -1.
	 */
	uint8_t has_cpu;
	void *fmt; /* reader-private */
};

struct tk_event_class {
	const char *name;   /* NULL if none */
	const char *system; /* ftrace system ("sched"), or NULL when the format has none */
	uint64_t id;
	uint8_t has_loglevel;
	int loglevel;
	const char *emf_uri; /* NULL if none */
	struct model_fc *context;
	struct model_fc *payload;
	/*
	 * Fields every event of the format has outside its payload, which the format's own tool
	 * shows apart (ftrace: common_type, common_flags, common_preempt_count, common_pid); a
	 * structure, or NULL. Its values are scope MODEL_SCOPE_COMMON.
	 */
	struct model_fc *common;
	struct model_stream_class *sc;
	size_t index;  /* dense, across the whole trace */
	uint32_t rank; /* order of (id, name, log level, EMF URI) across the trace */
	/*
	 * Where the values of the body (stream event context, event context, payload) lie in
	 * tk_event.body when the reader skips it, or NULL (see struct model_fixed).
	 */
	const struct model_fixed *fixed;
	void *fmt; /* reader-private */
	/*
	 * A class a reader made for some of the events of another one (a typed EventHeader
	 * class: the events of one tracepoint with one metadata), whose names event specs match
	 * as well; else NULL.
	 */
	const struct tk_event_class *base;
	/*
	 * Made as far as its names and ID (and the scopes of its stream class): context,
	 * payload and common are not there until model_class_load(). Readers hand out events
	 * of loaded classes only; whoever walks the classes for their fields loads them.
	 */
	uint8_t pending;
};

struct tk_stream {
	struct tk_source *source;
	struct model_stream_class *sc;
	uint64_t id;
	const char *path;
	size_t index;	     /* dense, across the whole trace */
	uint32_t rank_major; /* order of (trace UUID, trace name, stream class, stream) */
	uint32_t rank_minor; /* order of (stream name, then discovery order) */
	void *fmt;	     /* reader-private */
};

struct model_cursor;

/* A field of a raw record (model_source_ops.raw_field). */
struct model_raw_field {
	const char *name;
	uint8_t kind; /* MODEL_FC_INT or MODEL_FC_STRING; MODEL_FC_ARRAY: neither (no value) */
};

/* Its value in one record: an integer (sign-extended when signed) or text. */
struct model_raw_value {
	uint64_t u;
	const char *s; /* not NUL-terminated */
	size_t n;
};

struct writer;
struct vec;
struct tracedat_info; /* src/tracedat/tracedat.h: ftrace metadata laid out as trace.dat's */

/* Flags of model_text_ops.wants_next() and .event(). */
enum model_text_flag {
	/* the event's fields as the tool lists them, not its formatted text (trace-cmd -R) */
	MODEL_TEXT_RAW = 1u << 0,
	/*
	 * the text as `perf script` prints it after the event's name (perf 6.1: the print fmt
	 * through libtraceevent with no plugin); a source whose tool is another prints its own
	 */
	MODEL_TEXT_PERF = 1u << 1,
};

/*
 * The tool whose line layout a source's text belongs in (model_text_ops.tool): the style
 * "auto" prints each source as its own tool does.
 */
enum model_text_tool {
	MODEL_TEXT_TOOL_TRACECMD,    /* trace-cmd report (src/output/tracecmd.c) */
	MODEL_TEXT_TOOL_PERF_SCRIPT, /* perf script (src/output/perfscript.c) */
};

/*
 * The text a source's own tool prints (trace.dat: trace-cmd report; perf.data: perf script,
 * or trace-cmd's text when asked for that style), for the sinks printing in a tool's style
 * (src/output/tracecmd.c, src/output/perfscript.c), which lay out each line around it (task,
 * CPU, time, event name) and keep no format knowledge of their own. A reader with a native
 * tool fills model_source_ops.text with these.
 *
 * The per-event calls read only ev->ec, ev->stream, ev->raw, ev->raw_size, ev->cpu and
 * ev->ns, never decoded values, so a sink may keep a copy of an event (its record copied)
 * and print it later. Printing a source is not thread-safe: event() may teach it task names
 * and task() keeps its last answer.
 */
struct model_text_ops {
	/* The source's own tool, whose layout the style "auto" prints it in. */
	enum model_text_tool tool;
	/*
	 * The name perf script shows for @ec's events (perf.data: the attribute's name as perf
	 * record wrote it, "sched:sched_switch"), or NULL for "system:name" (or the name alone
	 * without a system). NULL hook: the same.
	 */
	const char *(*perf_name)(const struct tk_event_class *ec);
	/*
	 * Whether perf script prints the task name of @ec's lines as it is rather than in 16
	 * columns (perf.data: samples with call chains, perf record -g). NULL hook: never.
	 */
	bool (*perf_comm_unpadded)(const struct tk_event_class *ec);
	/*
	 * The name trace-cmd's layout shows for @ec's events when it is not ec->name (perf.data:
	 * a typed EventHeader class shows its tracepoint's name), else NULL. NULL hook: the same.
	 */
	const char *(*tool_name)(const struct tk_event_class *ec);
	/* The text before the events (trace-cmd: "cpus=N\n", then a latency file's text). */
	enum tk_status (*prologue)(const struct tk_source *src, struct writer *w);
	/* The source's event formats as the tool lists them (trace-cmd report --events). */
	void (*formats)(const struct tk_source *src, struct writer *w);
	/*
	 * The name the tool shows before the lines of @sc's events when the source has several
	 * stream classes (trace-cmd: an instance buffer's name), or NULL (the main one).
	 */
	const char *(*stream_name)(const struct model_stream_class *sc);
	/* 1 when event times are nanoseconds, 0 when they count a raw clock's ticks. */
	int (*time_in_ns)(const struct tk_source *src);
	/*
	 * The task @ev's line shows: sets *@pid and returns its name, borrowed from the source
	 * and never changed while it lives (MODEL_TASK_UNKNOWN when the source has none). Names
	 * event() learns change the answer for later events: a sink asks for every event, and
	 * may keep what it made of the last (pid, name pointer) pair. (It may differ from
	 * model_source_ops.task, which gives the task to filters: trace-cmd shows a record too
	 * short for its pid as pid 0.)
	 */
	const char *(*task)(const struct tk_event *ev, int64_t *pid);
	/*
	 * Whether the text of @ec's events, with @flags (enum model_text_flag), depends on the
	 * event after them (trace-cmd: a function-graph entry followed by its exit prints as one
	 * leaf line). Asked once per class.
	 */
	bool (*wants_next)(const struct tk_event_class *ec, unsigned int flags);
	/*
	 * Write the text the tool prints after the name of @ev's event (trace-cmd: the output of
	 * its print fmt; with MODEL_TEXT_RAW its fields) and learn the task names the tool learns
	 * from it. No newline is added; the text may end with one, as the tool's does. @next:
	 * when wants_next(), the event the tool reads after @ev (trace-cmd: the next record of
	 * @ev's buffer, if on @ev's CPU), or NULL. Returns true when @ev's text used @next up:
	 * the sink must not print @next.
	 */
	bool (*event)(const struct tk_event *ev, const struct tk_event *next, unsigned int flags,
		      struct writer *w);
	/*
	 * Append @ev to @out (a vec of bytes) as one JSON object in the layout of
	 * LinuxTracepoints' formatter (perf-decode), EventHeader events decoded: "n", the
	 * fields, "meta"; @flags: enum model_decode_flag. NULL when the source's events have no
	 * such text. On failure @out is as it was and the cause says why (an EventHeader event
	 * that does not decode: TK_ERR_FORMAT, naming it).
	 */
	enum tk_status (*decode_json)(const struct tk_event *ev, unsigned int flags,
				      struct vec *out);
};

/* Flags of model_text_ops.decode_json(). */
enum model_decode_flag {
	MODEL_DECODE_SPACE = 1u << 0,	  /* the formatter's spaced layout: "a": 1, not "a":1 */
	MODEL_DECODE_FIELD_TAG = 1u << 1, /* ";tag=0xN" after the names of tagged fields */
};

/* What a reader plugs in for each source. */
struct model_source_ops {
	/* Start reading one data stream from its beginning. */
	enum tk_status (*cursor_open)(struct tk_stream *stream, struct model_cursor **out);
	/* Free the source and everything the reader attached to it. */
	void (*destroy)(struct tk_source *source);
	/*
	 * The task of an event when the format keeps it outside the event's fields (trace.dat:
	 * common_pid and the file's saved command lines), or NULL when the fields tell (CTF
	 * context fields). Sets *pid and *comm (borrowed from the source, never NULL:
	 * MODEL_TASK_UNKNOWN when the source has no name for the task); needs only ev->ec and
	 * ev->raw, not decoded values.
	 */
	void (*task)(const struct tk_event *ev, int64_t *pid, const char **comm);
	/*
	 * The fields of a raw record (trace.dat: the ftrace format's, common ones first, as
	 * libtraceevent finds them), which field predicates read straight from ev->raw; NULL
	 * when the format has no raw records (predicates then read the decoded scopes).
	 * raw_field() describes field @i of @ec: 1, or 0 past the last field. raw_value() reads
	 * it from ev->raw; a record too short for it reads as 0 or "".
	 */
	int (*raw_field)(const struct tk_event_class *ec, uint32_t i, struct model_raw_field *out);
	void (*raw_value)(const struct tk_event *ev, uint32_t i, struct model_raw_value *out);
	/* The text the source's own tool prints for it, or NULL when it has none. */
	const struct model_text_ops *text;
	/*
	 * What a trace written from this source in another format keeps in its environment,
	 * so that readers name it as the source's own tools do and it can be turned back
	 * (trace.dat: the host and kernel, and the ftrace metadata of src/tracedat/
	 * tracedat-env.c), into @out; NULL when tk_source.env says it all. @sc_ids holds the
	 * IDs the writer gave the source's stream classes, by their index (UINT64_MAX: not
	 * written); @used, when not NULL, says which event classes the output has, by their
	 * index in the trace (@n_used of them): only those are described.
	 */
	enum tk_status (*export_env)(const struct tk_source *src, const uint64_t *sc_ids,
				     const uint8_t *used, size_t n_used,
				     const struct model_env_out *out);
	/*
	 * Make the rest of a pending class (tk_event_class.pending), or NULL when the source
	 * makes none: called once per class, from any thread, by model_class_load() under the
	 * model's lock of class loads, which then clears pending.
	 */
	enum tk_status (*class_load)(struct tk_event_class *ec);
	/*
	 * The ftrace metadata describing the raw records of the source's events (tk_event.raw:
	 * whole ftrace records, common fields first, common_type one of these formats' IDs),
	 * laid out as a trace.dat file's (perf.data: its tracing data), borrowed from the
	 * source; NULL when its records are not such (a NULL hook: the same). trace.dat sources
	 * leave it NULL: src/tracedat reads them its own way. The trace.dat sink
	 * copies such records and these formats unchanged (src/tracedat/tracedat-sink.c).
	 */
	const struct tracedat_info *(*ftrace_metadata)(const struct tk_source *src);
};

/* The comm of a task the source has no name for, as trace-cmd prints it. */
#define MODEL_TASK_UNKNOWN "<...>"

struct tk_source {
	size_t index; /* in its trace */
	const char *path;
	const char *name;
	const char *format;
	uint8_t uuid[16];
	uint8_t has_uuid;
	struct model_env *env;
	size_t n_env;
	struct tk_clock **clocks;
	size_t n_clocks;
	struct model_stream_class **scs;
	size_t n_scs;
	struct tk_stream **streams;
	size_t n_streams;
	struct arena arena; /* everything above lives here */
	const struct model_source_ops *ops;
	void *fmt; /* reader-private */
	/*
	 * Streams of this source may go back in time (ftrace per-CPU buffers): merge them as
	 * they come instead of failing, as trace-cmd does.
	 */
	uint8_t time_may_go_back;
	/*
	 * Set before the first cursor opens: streams give their records in the order they are
	 * stored rather than sorted as the format's tool sorts them (perf.data: perf's ordered
	 * events), for outputs that repeat a tool reading record by record.
	 */
	uint8_t stored_order;
	/* a problem read past while opening (tk_warning_cb text), in the arena, or NULL */
	const char *warning;
};

struct tk_trace {
	struct tk_source **sources;
	size_t n_sources;
	struct tk_event_class **ecs;
	size_t n_ecs;
	struct tk_stream **streams;
	size_t n_streams;
};

struct tk_event {
	const struct tk_event_class *ec;
	const struct tk_stream *stream;
	uint64_t cycles;
	int64_t ns;
	uint8_t has_ts;
	/* packet context, stream event context, event context, payload, common fields (enum
	 * model_scope); NULL when absent */
	const struct model_value *scope[5];
	/*
	 * Set when the values were not decoded yet (readers skip fixed-size events unless
	 * asked): call model_event_values() before reading scope[].
	 */
	struct model_cursor *pending;
	/*
	 * The bytes of a body the reader skipped because its layout is fixed (ec->fixed says
	 * where each of its values lies), else NULL. While it is set, scope[] may be stale for
	 * the body's scopes (pending is set too) but scope[MODEL_SCOPE_PACKET_CONTEXT] is valid:
	 * a printer may read the values straight from here without decoding them.
	 */
	const uint8_t *body;
	/*
	 * With body, where each of its segments starts (segs[0] == body), when ec->fixed has
	 * strings (struct model_fixed); else unused.
	 */
	const uint8_t *const *segs;
	/* formats with raw records (ftrace): the record as written, else NULL */
	const uint8_t *raw;
	uint32_t raw_size;
	int32_t cpu;	/* CPU the event was recorded on, -1 when unknown */
	int64_t missed; /* events lost just before this one: 0 none, -1 an unknown number */
	/*
	 * The task the format records beside the event rather than in its fields (perf.data:
	 * the sample's pid and tid, and the name the reader knew for it when the event came,
	 * borrowed from the source), when has_task; else unset.
	 */
	uint8_t has_task;
	int32_t pid, tid;
	const char *comm;
};

enum model_scope {
	MODEL_SCOPE_PACKET_CONTEXT,
	MODEL_SCOPE_EVENT_COMMON_CONTEXT,
	MODEL_SCOPE_EVENT_CONTEXT,
	MODEL_SCOPE_PAYLOAD,
	MODEL_SCOPE_COMMON, /* tk_event_class.common: ftrace's common fields */
};

/* The field class of scope @s of the events of @ec (a structure), or NULL. */
static inline const struct model_fc *model_scope_fc(const struct tk_event_class *ec, int s)
{
	switch (s) {
	case MODEL_SCOPE_PACKET_CONTEXT:
		return ec->sc->packet_context;
	case MODEL_SCOPE_EVENT_COMMON_CONTEXT:
		return ec->sc->event_context;
	case MODEL_SCOPE_EVENT_CONTEXT:
		return ec->context;
	case MODEL_SCOPE_PAYLOAD:
		return ec->payload;
	case MODEL_SCOPE_COMMON:
		return ec->common;
	}
	return NULL;
}

struct tk_notice {
	enum tk_notice_kind kind;
	uint64_t count; /* UINT64_MAX if unknown */
	uint8_t has_range;
	uint64_t begin_cycles;
	uint64_t end_cycles;
	int64_t begin_ns;
	int64_t end_ns;
	const struct tk_stream *stream;
};

enum model_item_kind {
	MODEL_ITEM_EVENT,
	MODEL_ITEM_PACKET_BEGIN,
	MODEL_ITEM_PACKET_END,
	MODEL_ITEM_DISCARDED_EVENTS,
	MODEL_ITEM_DISCARDED_PACKETS,
};

/*
 * One step of a data stream: an event, or a packet boundary or loss report that takes part in
 * time ordering (babeltrace2 orders those messages too, and fails when any of them goes back
 * in time).
 */
struct model_item {
	uint8_t kind;
	uint8_t has_ts;
	int64_t ts_ns;
	const struct tk_event *event;	/* MODEL_ITEM_EVENT */
	const struct tk_notice *notice; /* MODEL_ITEM_DISCARDED_* */
};

struct model_cursor_ops {
	/* TK_OK with *out filled, TK_END, or an error with its causes. */
	enum tk_status (*next)(struct model_cursor *c, struct model_item *out);
	/* Decode the values of the current event, left pending by next(). */
	enum tk_status (*values)(struct model_cursor *c);
	/*
	 * Where @item, the item next() returned last, is, for error messages: "key=value, ..."
	 * in @buf (@size bytes, NUL-terminated), such as "file=F, packet-index=3,
	 * packet-offset=4096, offset=4180". NULL when the stream's path says enough.
	 */
	void (*where)(const struct model_cursor *c, const struct model_item *item, char *buf,
		      size_t size);
	/*
	 * Move, before the first next(), to a place from which next() still returns every item
	 * at or after @ns exactly as a read from the start would (values, losses, order); items
	 * before @ns may come too. TK_OK also when the stream cannot tell and stays at its
	 * start; a failure only for lack of memory. NULL: the stream is read from its start.
	 */
	enum tk_status (*seek)(struct model_cursor *c, int64_t ns);
	void (*destroy)(struct model_cursor *c);
};

struct model_cursor {
	const struct model_cursor_ops *ops;
};

/*
 * Two counts of lost events together, in the convention of tk_event.missed (-1: an unknown
 * number, which an unknown part makes the whole).
 */
static inline int64_t model_missed_add(int64_t a, int64_t b)
{
	return a < 0 || b < 0 ? -1 : a + b;
}

/* Bytes a value of kind @load (enum model_load: an integer or a float) takes, else 0. */
static inline unsigned int model_load_size(unsigned int load)
{
	switch (load) {
	case MODEL_LOAD_U8:
	case MODEL_LOAD_S8:
		return 1;
	case MODEL_LOAD_U16LE:
	case MODEL_LOAD_U16BE:
	case MODEL_LOAD_S16LE:
	case MODEL_LOAD_S16BE:
		return 2;
	case MODEL_LOAD_U32LE:
	case MODEL_LOAD_U32BE:
	case MODEL_LOAD_S32LE:
	case MODEL_LOAD_S32BE:
	case MODEL_LOAD_F32LE:
	case MODEL_LOAD_F32BE:
		return 4;
	case MODEL_LOAD_U64LE:
	case MODEL_LOAD_U64BE:
	case MODEL_LOAD_F64LE:
	case MODEL_LOAD_F64BE:
		return 8;
	default:
		return 0;
	}
}

/*
 * The value a field of kind @load (enum model_load) at @p holds, into @v; @len as in struct
 * model_fixed_field. Readers decode fixed layouts with it and printers read skipped bodies
 * with it, so both give the same values.
 */
static inline void model_fixed_load(struct model_value *v, unsigned int load, const uint8_t *p,
				    uint64_t len)
{
	uint32_t r32;
	float f;

	switch (load) {
	case MODEL_LOAD_U8:
		v->v.u = *p;
		break;
	case MODEL_LOAD_S8:
		v->v.i = (int8_t) *p;
		break;
	case MODEL_LOAD_U16LE:
		v->v.u = tk_load_le16(p);
		break;
	case MODEL_LOAD_U16BE:
		v->v.u = tk_load_be16(p);
		break;
	case MODEL_LOAD_S16LE:
		v->v.i = (int16_t) tk_load_le16(p);
		break;
	case MODEL_LOAD_S16BE:
		v->v.i = (int16_t) tk_load_be16(p);
		break;
	case MODEL_LOAD_U32LE:
		v->v.u = tk_load_le32(p);
		break;
	case MODEL_LOAD_U32BE:
		v->v.u = tk_load_be32(p);
		break;
	case MODEL_LOAD_S32LE:
		v->v.i = (int32_t) tk_load_le32(p);
		break;
	case MODEL_LOAD_S32BE:
		v->v.i = (int32_t) tk_load_be32(p);
		break;
	case MODEL_LOAD_U64LE:
		v->v.u = tk_load_le64(p);
		break;
	case MODEL_LOAD_U64BE:
		v->v.u = tk_load_be64(p);
		break;
	case MODEL_LOAD_F32LE:
	case MODEL_LOAD_F32BE:
		r32 = load == MODEL_LOAD_F32LE ? tk_load_le32(p) : tk_load_be32(p);
		memcpy(&f, &r32, sizeof(f));
		v->v.d = f;
		break;
	case MODEL_LOAD_F64LE:
	case MODEL_LOAD_F64BE: {
		uint64_t r64 = load == MODEL_LOAD_F64LE ? tk_load_le64(p) : tk_load_be64(p);

		memcpy(&v->v.d, &r64, sizeof(v->v.d));
		break;
	}
	case MODEL_LOAD_TEXT:
		v->v.s = (const char *) p;
		v->n = len ? strnlen((const char *) p, len) : 0;
		break;
	default: /* MODEL_LOAD_COUNT */
		v->n = len;
		break;
	}
}

/* Make sure the values of @ev are decoded (scope[] valid). */
static inline enum tk_status model_event_values(const struct tk_event *ev)
{
	if (__builtin_expect(!ev->pending, 1))
		return TK_OK;
	return ev->pending->ops->values(ev->pending);
}

/*
 * Nanoseconds from the origin of @clock for @cycles, the way babeltrace2 computes them:
 * offset in ns plus cycles scaled in double precision unless the clock runs at 1 GHz.
 * Returns 0, or -1 when the result does not fit in 64 bits.
 */
int model_clock_ns(const struct tk_clock *clock, uint64_t cycles, int64_t *ns);

/* Normalize offset_cycles below freq and compute base_ns; call once the clock is parsed. */
void model_clock_finish(struct tk_clock *clock);

/* Build the direct id table of @sc's event classes when their ids are small enough. */
enum tk_status model_stream_class_index(struct model_stream_class *sc, struct arena *a);

/*
 * Add the @n classes @ecs (IDs above every one of @sc's, in order) after @sc's own, and index
 * them all again; in @a. Before the trace is finished (model_trace_finish()) only.
 */
enum tk_status model_stream_class_append(struct model_stream_class *sc, struct arena *a,
					 struct tk_event_class *const *ecs, size_t n);

/*
 * A structure of one member, @name of class @fc, in @a (shown by readers, byte-aligned);
 * NULL when out of memory or when @fc is NULL.
 */
struct model_fc *model_struct_of_one(struct arena *a, const char *name, struct model_fc *fc);

/* A byte-aligned integer field class of @bits bits, shown in @base (10, 16, ...), in @a. */
struct model_fc *model_int_fc(struct arena *a, uint32_t bits, int is_signed, unsigned int base,
			      enum tk_byte_order bo);

/*
 * A structure of @n members, @names[i] of class @fcs[i], in @a (shown, byte-aligned); NULL
 * when out of memory or when a class is NULL.
 */
struct model_fc *model_struct_of(struct arena *a, const char *const *names,
				 struct model_fc *const *fcs, uint32_t n);

/* Event class of @sc with @id, or NULL: by binary search (see model_find_ec()). */
struct tk_event_class *model_stream_class_find_ec(const struct model_stream_class *sc, uint64_t id);

/* Event class of @sc with @id, or NULL; the direct table inline, for the per-event paths. */
static inline struct tk_event_class *model_find_ec(const struct model_stream_class *sc, uint64_t id)
{
	if (__builtin_expect(id < sc->n_ec_table && sc->ec_table[id] != NULL, 1))
		return sc->ec_table[id];
	return model_stream_class_find_ec(sc, id);
}

/*
 * Index the sources of @trace: collect streams and event classes into dense arrays and
 * compute the ranks used to break timestamp ties (babeltrace2's muxer order).
 */
enum tk_status model_trace_finish(struct tk_trace *trace);

enum tk_status model_class_load_slow(const struct tk_event_class *ec);

/*
 * Make sure @ec is made whole (its context, payload and common field classes): one load
 * when it is, safe from several threads. Fails only out of memory.
 */
static inline enum tk_status model_class_load(const struct tk_event_class *ec)
{
	if (__builtin_expect(__atomic_load_n(&ec->pending, __ATOMIC_ACQUIRE), 0))
		return model_class_load_slow(ec);
	return TK_OK;
}

/*
 * Make every class of @trace whole: what walks all classes for their fields calls it first
 * (field predicates, CSV columns, writers). tk_trace_open() does it for library users;
 * tk_print() leaves the classes of events never met unmade.
 */
enum tk_status model_trace_load_classes(const struct tk_trace *trace);

/*
 * Whether the streams of @trace can be read together (babeltrace2's rule): none has a clock,
 * or their clocks are all absolute, all without UUID, or all of one UUID. The iterator checks
 * it before its first item; a copy that reads the streams by itself asks it too.
 */
enum tk_status model_trace_check_clocks(const struct tk_trace *trace);

/*
 * An iterator (tk_iter_next(), notices included) that reads the streams of @trace one after
 * the other, each in its own order, without the merge: for sinks whose output keeps the
 * streams apart (sink_class.by_stream).
 */
enum tk_status model_iter_create_by_stream(struct tk_iter **out, struct tk_trace *trace);

/*
 * The same over stream @i of @trace alone (trace->streams[i]), as model_iter_create_by_stream()
 * reads it: for a sink whose streams are written by threads, each with an iterator of its own.
 */
enum tk_status model_iter_create_stream(struct tk_iter **out, struct tk_trace *trace, size_t i);

/*
 * tk_iter_next() for loops inside the library: the same, without clearing the error chain
 * first (the loop's caller did, once).
 */
enum tk_status model_iter_next(struct tk_iter *it, const struct tk_event **out);

/*
 * Read only the items of @it in a time window, before its first event: from @begin (when
 * @has_begin), to which the streams that can seek go straight, up to @end (when @has_end),
 * after which each stream stops at its first later item. Items outside the window, events
 * and losses alike, are never returned, so a window read gives the events of a full read in
 * the window, whatever lies outside it.
 */
void model_iter_set_window(struct tk_iter *it, int has_begin, int64_t begin, int has_end,
			   int64_t end);

/* Where readers report the problems they read past (tk_trace_opts.warning, may be NULL). */
struct model_warner {
	tk_warning_cb cb;
	void *payload;
};

/*
 * Open each of @paths with @open (one file, one source), appending the sources to @sources
 * in order; the first failure stops (the sources opened before it stay in @sources).
 */
enum tk_status model_sources_open_each(const char *const *paths, size_t npaths, struct vec *sources,
				       enum tk_status (*open)(struct tk_source **out,
							      const char *path));

/*
 * Report the causes recorded after error_depth() returned @depth as one warning (see
 * error_format()), then drop them from the error chain: the call that read past them
 * succeeds.
 */
void model_warn_causes(const struct model_warner *w, size_t depth);

/*
 * The values after those of a field of class @fc that start at @v (the layout of the file
 * comment: a text array or sequence is one value, another array its length and elements, a
 * variant its selected option and that option's values): model_walk() (walk.h) with nothing
 * to call.
 */
const struct model_value *model_value_skip(const struct model_fc *fc, const struct model_value *v);

#endif /* TK_MODEL_MODEL_H */
