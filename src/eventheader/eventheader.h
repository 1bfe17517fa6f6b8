/* SPDX-License-Identifier: MIT */
/*
 * EventHeader: the self-describing event encoding of Linux user_events tracepoints
 * (microsoft/LinuxTracepoints). An event is an 8-byte header, optional extension blocks
 * (the event's metadata, activity IDs), then a payload whose fields the metadata describes.
 * Nothing is aligned; every multi-byte number is in the byte order the event's own flags
 * give. This folder decodes such events from bytes in memory and writes them as the
 * reference decoder's JSON (eventheader-json.c); it uses src/common only, so every
 * container (perf.data, trace.dat, CTF) can hand it the bytes that follow a tracepoint's
 * common fields.
 *
 * The enumerator walks the fields in metadata order, one item per call, without allocating:
 * a scalar value, the start and end of each array (its elements in between), the start and
 * end of each struct (its members in between, repeated for each element of an array of
 * structs). Decoding stops at the first damaged byte: the items before it were returned,
 * then the call that meets it fails with a cause saying where.
 *
 *	struct eventheader_enum e;
 *	struct eventheader_item it;
 *
 *	st = eventheader_start(&e, tp_name, tp_name_len, data, size, EVENTHEADER_MOVE_NEXT_LIMIT);
 *	while (st == TK_OK && (st = eventheader_next(&e)) == TK_OK) {
 *		eventheader_item_get(&e, &it);
 *		use(e.state, &it);
 *	}
 *	if (st < 0)
 *		report();	// TK_END means the last field was read
 *
 * Facts from ../shared/reference/eventheader.md (layout, limits, the reference decoder's
 * behaviour); the code is ours.
 */
#ifndef TK_EVENTHEADER_EVENTHEADER_H
#define TK_EVENTHEADER_EVENTHEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/arena.h"
#include "../common/bytes.h"
#include "../common/vec.h"
#include "../model/model.h"

#define EVENTHEADER_HEADER_SIZE 8
/* a tracepoint name is shorter than this (the kernel's limit counts the NUL) */
#define EVENTHEADER_NAME_MAX 256
/* levels of struct nesting the enumerator follows */
#define EVENTHEADER_NEST_MAX 8
/* the reference decoder's default number of eventheader_next() calls per event */
#define EVENTHEADER_MOVE_NEXT_LIMIT 4096

/* eventheader.flags */
#define EVENTHEADER_FLAG_POINTER64     0x01
#define EVENTHEADER_FLAG_LITTLE_ENDIAN 0x02
#define EVENTHEADER_FLAG_EXTENSION     0x04

/* extension block kinds (u16; the top bit says another block follows) */
#define EVENTHEADER_EXT_METADATA    1
#define EVENTHEADER_EXT_ACTIVITY_ID 2
#define EVENTHEADER_EXT_KIND_MASK   0x7FFF
#define EVENTHEADER_EXT_CHAIN	    0x8000

/* A field's encoding byte: the encoding in the low 5 bits, then the flags. */
enum eventheader_encoding {
	EVENTHEADER_ENC_INVALID = 0,
	EVENTHEADER_ENC_STRUCT = 1,
	EVENTHEADER_ENC_VALUE8 = 2,
	EVENTHEADER_ENC_VALUE16 = 3,
	EVENTHEADER_ENC_VALUE32 = 4,
	EVENTHEADER_ENC_VALUE64 = 5,
	EVENTHEADER_ENC_VALUE128 = 6,
	EVENTHEADER_ENC_ZSTRING_CHAR8 = 7,
	EVENTHEADER_ENC_ZSTRING_CHAR16 = 8,
	EVENTHEADER_ENC_ZSTRING_CHAR32 = 9,
	EVENTHEADER_ENC_STRING16_CHAR8 = 10,
	EVENTHEADER_ENC_STRING16_CHAR16 = 11,
	EVENTHEADER_ENC_STRING16_CHAR32 = 12,
	EVENTHEADER_ENC_BINARY16_CHAR8 = 13,
	EVENTHEADER_ENC_MAX = 14,
};

#define EVENTHEADER_ENC_VALUE_MASK 0x1F
#define EVENTHEADER_ENC_CARRAY	   0x20 /* constant count, a u16 in the metadata */
#define EVENTHEADER_ENC_VARRAY	   0x40 /* variable count, a u16 in the payload */
#define EVENTHEADER_ENC_CHAIN	   0x80 /* a format byte follows */
#define EVENTHEADER_FMT_CHAIN	   0x80 /* a u16 tag follows */

enum eventheader_format {
	EVENTHEADER_FMT_DEFAULT = 0,
	EVENTHEADER_FMT_UNSIGNED_INT = 1,
	EVENTHEADER_FMT_SIGNED_INT = 2,
	EVENTHEADER_FMT_HEX_INT = 3,
	EVENTHEADER_FMT_ERRNO = 4,
	EVENTHEADER_FMT_PID = 5,
	EVENTHEADER_FMT_TIME = 6,
	EVENTHEADER_FMT_BOOLEAN = 7,
	EVENTHEADER_FMT_FLOAT = 8,
	EVENTHEADER_FMT_HEX_BYTES = 9,
	EVENTHEADER_FMT_STRING8 = 10,
	EVENTHEADER_FMT_STRING_UTF = 11,
	EVENTHEADER_FMT_STRING_UTF_BOM = 12,
	EVENTHEADER_FMT_STRING_XML = 13,
	EVENTHEADER_FMT_STRING_JSON = 14,
	EVENTHEADER_FMT_UUID = 15,
	EVENTHEADER_FMT_PORT = 16,
	EVENTHEADER_FMT_IP_ADDRESS = 17,
	EVENTHEADER_FMT_IP_ADDRESS_OBSOLETE = 18,
};

/* Where the enumerator stands; an item is current in VALUE to STRUCT_END. */
enum eventheader_state {
	EVENTHEADER_STATE_NONE,		/* no event: eventheader_start() failed */
	EVENTHEADER_STATE_ERROR,	/* the last call failed; the event is done */
	EVENTHEADER_STATE_AFTER_LAST,	/* every field was read */
	EVENTHEADER_STATE_BEFORE_FIRST, /* started; no item yet */
	EVENTHEADER_STATE_VALUE,	/* a scalar or one array element */
	EVENTHEADER_STATE_ARRAY_BEGIN,
	EVENTHEADER_STATE_ARRAY_END,
	EVENTHEADER_STATE_STRUCT_BEGIN,
	EVENTHEADER_STATE_STRUCT_END,
};

/* Why an event stopped, in the reference decoder's classes (tests and tools tell them apart). */
enum eventheader_error {
	EVENTHEADER_ERROR_NONE,
	EVENTHEADER_ERROR_INVALID_PARAMETER, /* event shorter than its header, or >= 2 GiB */
	EVENTHEADER_ERROR_NOT_SUPPORTED,     /* not an EventHeader event, or a reserved feature */
	EVENTHEADER_ERROR_INVALID_DATA,	     /* damaged or truncated header, metadata or payload */
	EVENTHEADER_ERROR_LIMIT,	     /* more items than the move-next limit allows */
	EVENTHEADER_ERROR_NEST,		     /* structs nested deeper than EVENTHEADER_NEST_MAX */
};

/* The event as a whole: header, tracepoint name parts, extensions. Borrowed pointers. */
struct eventheader_info {
	const char *tp_name; /* the tracepoint name, tp_name_len bytes, no NUL */
	size_t tp_name_len;
	size_t provider_len; /* the provider: tp_name up to its last '_' */
	size_t options_off;  /* the options after K<keyword> (== tp_name_len: none) */
	const char *name;    /* event name with its ;attributes, NUL-terminated in the metadata */
	size_t name_len;
	const uint8_t *activity_id; /* 16 bytes, or NULL */
	const uint8_t *related_id;  /* 16 bytes, or NULL */
	uint64_t keyword;
	uint16_t id;
	uint16_t tag;
	uint8_t flags;
	uint8_t version;
	uint8_t opcode;
	uint8_t level;
	enum tk_byte_order order;
};

/*
 * The current item. For a VALUE, @value/@value_size are the value's bytes without a length
 * prefix or terminator; for an ARRAY_BEGIN of fixed-size elements, all the elements' bytes
 * (@element_size each); otherwise empty. @array_flags is the array's flag (CARRAY or
 * VARRAY) on an array's begin, end and elements, 0 elsewhere.
 */
struct eventheader_item {
	const char *name; /* the field's name with its ;attributes, name_len bytes */
	size_t name_len;
	const uint8_t *value;
	uint32_t value_size;
	uint16_t array_index;
	uint16_t array_count;
	uint8_t element_size; /* 1 to 16 for fixed-size values, 0 for strings and structs */
	uint8_t encoding;     /* enum eventheader_encoding, flags removed */
	uint8_t format;	      /* enum eventheader_format (or a struct's member count) */
	uint8_t array_flags;
	uint16_t tag;
};

/* One level of the walk: the field being read and where the next definition starts. */
struct eventheader_frame {
	uint16_t next_off; /* metadata offset of the next field definition */
	uint16_t name_off; /* metadata offset of the current field's name */
	uint16_t name_len;
	uint16_t array_index;
	uint16_t array_count;
	uint16_t tag;
	uint8_t remaining; /* field definitions left at this level */
	uint8_t array_flags;
	uint8_t encoding; /* flags removed */
	uint8_t format;
};

/* Caller-allocated enumerator; no init/fini: eventheader_start() sets every member it uses. */
struct eventheader_enum {
	struct eventheader_info info;
	enum eventheader_state state;
	enum eventheader_error error;
	const uint8_t *meta; /* the metadata extension: event name, then field definitions */
	const uint8_t *data; /* the payload */
	uint32_t data_size;
	uint32_t pos_raw;     /* payload offset of the current item's first byte */
	uint32_t pos_value;   /* payload offset of its value (after a length prefix) */
	uint32_t size_raw;    /* bytes the item takes, prefix and terminator included */
	uint32_t size_value;  /* bytes of its value */
	uint32_t moves_left;  /* eventheader_next() calls left */
	uint16_t meta_size;   /* size of the metadata extension */
	uint8_t element_size; /* of the current array's fixed-size elements, else 0 */
	uint8_t step;	      /* what eventheader_next() does next (eventheader.c) */
	unsigned int depth;   /* frames on the stack */
	struct eventheader_frame top;
	struct eventheader_frame stack[EVENTHEADER_NEST_MAX];
};

/*
 * Start decoding one event: @data (@size bytes) starts at eventheader.flags; @tp_name
 * (@tp_name_len bytes, no NUL) is the tracepoint's name, Provider_L<level>K<keyword>[options].
 * Checks the header flags, the name (its level must be the header's), the extensions (one
 * metadata block is required) and the event name; the fields are read by eventheader_next().
 *
 * Return: TK_OK; TK_ERR_UNSUPPORTED when the event is not an EventHeader event (name, flags,
 * no metadata); TK_ERR_FORMAT when it is damaged; each with a cause, and e->error set.
 * Ownership: @tp_name and @data are borrowed and must outlive the enumeration.
 */
enum tk_status eventheader_start(struct eventheader_enum *e, const char *tp_name,
				 size_t tp_name_len, const void *data, size_t size,
				 uint32_t move_next_limit);

/*
 * Move to the next item.
 *
 * Return: TK_OK on an item (e->state says which kind), TK_END after the last one, or
 * TK_ERR_FORMAT / TK_ERR_UNSUPPORTED with a cause (e->error says why); the enumerator then
 * stays in EVENTHEADER_STATE_ERROR.
 */
enum tk_status eventheader_next(struct eventheader_enum *e);

/* The current item (e->state VALUE to STRUCT_END). */
void eventheader_item_get(const struct eventheader_enum *e, struct eventheader_item *out);

/* JSON layout flags of the formatter (the reference formatter's JsonFlags). */
#define EVENTHEADER_JSON_NAME	   0x1 /* the event as a member named after the event */
#define EVENTHEADER_JSON_SPACE	   0x2 /* "a": 1, "b": [ 2 ] rather than "a":1,"b":[2] */
#define EVENTHEADER_JSON_FIELD_TAG 0x4 /* ";tag=0xN" after the names of tagged fields */

/* The layout flags above for the model's decode_json() flags (enum model_decode_flag). */
static inline unsigned int eventheader_json_flags(unsigned int model_decode_flags)
{
	return ((model_decode_flags & MODEL_DECODE_SPACE) ? EVENTHEADER_JSON_SPACE : 0) |
	       ((model_decode_flags & MODEL_DECODE_FIELD_TAG) ? EVENTHEADER_JSON_FIELD_TAG : 0);
}

/* Members of "n" and "meta" (the reference formatter's MetaFlags; values kept). */
#define EVENTHEADER_META_N		  0x1
#define EVENTHEADER_META_TIME		  0x2 /* samples: their time */
#define EVENTHEADER_META_CPU		  0x4
#define EVENTHEADER_META_PID		  0x8
#define EVENTHEADER_META_TID		  0x10
#define EVENTHEADER_META_ID		  0x20
#define EVENTHEADER_META_VERSION	  0x40
#define EVENTHEADER_META_LEVEL		  0x80
#define EVENTHEADER_META_KEYWORD	  0x100
#define EVENTHEADER_META_OPCODE		  0x200
#define EVENTHEADER_META_TAG		  0x400
#define EVENTHEADER_META_ACTIVITY	  0x800
#define EVENTHEADER_META_RELATED_ACTIVITY 0x1000
#define EVENTHEADER_META_PROVIDER	  0x10000
#define EVENTHEADER_META_EVENT		  0x20000
#define EVENTHEADER_META_OPTIONS	  0x40000
#define EVENTHEADER_META_FLAGS		  0x80000
#define EVENTHEADER_META_DEFAULT	  0xFFFF

/*
 * Append an event as one JSON object ({ "n": ..., fields..., "meta": { ... } }) to @out, a
 * vec of bytes, reading every item of @e, which must have just been started. Values are
 * written as the reference formatter writes them. Each call begins with the object's own
 * separator: a space in the spaced layout (the caller writes commas between events).
 *
 * Return: TK_OK; on a decoding failure the error of eventheader_next() (with its causes), and
 * on TK_ERR_NOMEM that; either way @out is left as it was (nothing of the event is kept).
 * Ownership: @out belongs to the caller.
 */
enum tk_status eventheader_json_event(struct vec *out, struct eventheader_enum *e,
				      unsigned int json_flags, unsigned int meta_flags);

/*
 * What a recording (perf.data, trace.dat) says of an event besides its bytes, for the members
 * of "meta" that come first: the time (with @time_wall, UTC wall-clock time written as
 * "YYYY-MM-DDThh:mm:ss.nnnnnnnnnZ", as when the file has clock data; else seconds since the
 * clock's origin, unquoted), the CPU, the pid and tid. Each member only when its has_ flag is
 * set.
 */
struct eventheader_sample {
	uint8_t has_time, time_wall, has_cpu, has_tid;
	int64_t sec;
	uint32_t nsec;
	uint32_t cpu, pid, tid;
};

/*
 * eventheader_json_event() for an event of a recording: "meta" starts with @sample's members
 * (NULL: none), as the reference formatter writes a perf sample.
 */
enum tk_status eventheader_json_sample_event(struct vec *out, struct eventheader_enum *e,
					     const struct eventheader_sample *sample,
					     unsigned int json_flags, unsigned int meta_flags);

/*
 * A JSON object written member by member in the reference formatter's layout, for events
 * that are not EventHeader events (a tracepoint's tracefs fields, raw bytes):
 *
 *	eventheader_json_begin(&j, out, flags);	// the separator, then '{'
 *	eventheader_json_n(&j, "sched", 5, "sched_switch", 12);
 *	eventheader_json_member(&j, "prev_pid", 8);
 *	eventheader_json_put(&j, bytes, 4, EVENTHEADER_ENC_VALUE32, EVENTHEADER_FMT_HEX_INT, bo);
 *	eventheader_json_meta(&j, &sample, EVENTHEADER_META_DEFAULT);
 *	st = eventheader_json_end(&j);		// '}'; out of memory: @out as it was
 *
 * Arrays: eventheader_json_open(&j, '['), eventheader_json_element(&j) before each element's
 * value, eventheader_json_close(&j, ']').
 */
struct eventheader_json {
	struct vec *v;
	size_t start; /* @v's length before the object */
	bool space;
	bool field_tag;
	bool comma; /* a member or element came: the next one needs a comma */
	bool nomem;
};

void eventheader_json_begin(struct eventheader_json *j, struct vec *out, unsigned int json_flags);
/* "n": "provider:event", or "provider" alone when @event is NULL. */
void eventheader_json_n(struct eventheader_json *j, const char *provider, size_t provider_len,
			const char *event, size_t event_len);
void eventheader_json_member(struct eventheader_json *j, const char *name, size_t len);
void eventheader_json_element(struct eventheader_json *j);
/* A value as eventheader_json_value() writes it; TK_ERR_FORMAT when @size does not suit. */
enum tk_status eventheader_json_put(struct eventheader_json *j, const void *value, size_t size,
				    unsigned int encoding, unsigned int format,
				    enum tk_byte_order order);
/* "01 02 0a": bytes in lower-case hex, as the reference writes a sample's raw data. */
void eventheader_json_hex_bytes(struct eventheader_json *j, const void *value, size_t size);
/* "null", as the reference writes a value whose bytes are missing. */
void eventheader_json_null(struct eventheader_json *j);
void eventheader_json_open(struct eventheader_json *j, char brace);
void eventheader_json_close(struct eventheader_json *j, char brace);
/* "meta" with @sample's members, when @meta_flags asks for more than "n". */
void eventheader_json_meta(struct eventheader_json *j, const struct eventheader_sample *sample,
			   unsigned int meta_flags);
enum tk_status eventheader_json_end(struct eventheader_json *j);

/*
 * Append the fields of @e, which must have just been started, to @out as text: " name=value"
 * for each top-level field, arrays as name=[v,v], structs as name={a=v b=v} (values as
 * eventheader_json_value() writes them with @json false), for trace-cmd-like lines.
 *
 * Return: TK_OK, or the decoding error (with its causes); @out is then as it was.
 */
enum tk_status eventheader_text_fields(struct vec *out, struct eventheader_enum *e);

/*
 * Append one value's text to @out: @encoding and @format as in an item, @order the event's
 * byte order; @json quotes and escapes strings (and NaN, times, ...) as JSON wants.
 *
 * Return: TK_OK; TK_ERR_FORMAT when @size does not suit @encoding; TK_ERR_NOMEM.
 */
enum tk_status eventheader_json_value(struct vec *out, const void *value, size_t size,
				      unsigned int encoding, unsigned int format,
				      enum tk_byte_order order, bool json);

/* ---- tracefs fields: samples of ordinary tracepoints (eventheader-tracefs.c) ----------- */

/*
 * How the reference decoder (LinuxTracepoints' perf-decode) types a tracefs field from its
 * declaration in the event's format file, and so how it writes the field's value: values
 * kept from its PerfFieldFormat and PerfFieldArray.
 */
enum eventheader_tracefs_format {
	EVENTHEADER_TRACEFS_FMT_NONE,	  /* a struct: its bytes as hex bytes */
	EVENTHEADER_TRACEFS_FMT_UNSIGNED, /* decimal */
	EVENTHEADER_TRACEFS_FMT_SIGNED,	  /* decimal; 1- and 2-byte values as unsigned (quirk) */
	EVENTHEADER_TRACEFS_FMT_HEX,	  /* "0x1F": pointers, unsigned long, unknown typedefs */
	EVENTHEADER_TRACEFS_FMT_STRING,	  /* char: Latin-1 text up to the first NUL */
};

enum eventheader_tracefs_array {
	EVENTHEADER_TRACEFS_ARRAY_NONE,
	EVENTHEADER_TRACEFS_ARRAY_FIXED,   /* "[N]" or "[]" in the declaration */
	EVENTHEADER_TRACEFS_ARRAY_DYNAMIC, /* __data_loc: u32 (length << 16 | offset) */
	EVENTHEADER_TRACEFS_ARRAY_RELDYN,  /* __rel_loc: the offset counts from the field's end */
};

/* A field's typing, decided once per event format by eventheader_tracefs_type(). */
struct eventheader_tracefs {
	uint16_t fixed_count; /* the number in "[N]" (0 when not a number or above 0xFFFF) */
	uint8_t element_size; /* bytes of one value: 1, 2, 4 or 8 */
	uint8_t format;	      /* enum eventheader_tracefs_format */
	uint8_t array;	      /* enum eventheader_tracefs_array */
};

/*
 * Type a tracefs field as the reference decoder does. @type is the declaration without its
 * name in libtraceevent's normalised form (struct ftrace_field's type: "char[16]", "__data_loc
 * char[]", "unsigned long", "const char *"); @size the field's size: line; @is_signed 1 or 0
 * from its signed: part, -1 when the line had none (or not a number up to 0xFFFF); @long_size
 * the recording machine's sizeof(long), 4 or 8. Never fails: every type has a typing
 * (an unknown name is hex, sized from @size when it can be).
 *
 *	eventheader_tracefs_type(f->type, f->size, signed_of(f), 8, &t);	// once per format
 *	eventheader_json_tracefs_field(&j, f->name, strlen(f->name), &t, f->offset, f->size,
 *				       raw, raw_size, order);				// per sample
 *
 * Ownership: @type is borrowed for the call only.
 */
void eventheader_tracefs_type(const char *type, uint32_t size, int is_signed,
			      unsigned int long_size, struct eventheader_tracefs *out);

/*
 * Append the member @name (@name_len bytes) with the value the reference decoder writes for a
 * field typed @t at @offset and @size of a sample's raw data @rec (@rec_size bytes, from the
 * common fields on; @order its byte order): the field's bytes (a __data_loc or __rel_loc
 * field's data, the rest of the record for size 0, nothing when they lie outside @rec), then
 * "null" for a scalar missing its bytes, a string up to its first NUL, [ ... ] for arrays,
 * hex bytes for structs. A field at an offset or of a size above 0xFFFF is written not at all,
 * as the reference drops its line. Reads only @rec[0..@rec_size).
 *
 * Return: TK_OK (running out of memory shows at eventheader_json_end()); TK_ERR_INVAL with
 * a cause when @t is not a typing eventheader_tracefs_type() gives.
 * Ownership: every pointer is borrowed for the call only.
 */
enum tk_status eventheader_json_tracefs_field(struct eventheader_json *j, const char *name,
					      size_t name_len, const struct eventheader_tracefs *t,
					      uint32_t offset, uint32_t size, const uint8_t *rec,
					      size_t rec_size, enum tk_byte_order order);

/*
 * Append the member "raw" with @raw (@size bytes) as hex bytes, as the reference writes a
 * sample that has raw data but no format to read it with.
 *
 * Return: TK_OK (running out of memory shows at eventheader_json_end()).
 * Ownership: @raw is borrowed for the call only.
 */
enum tk_status eventheader_json_raw(struct eventheader_json *j, const uint8_t *raw, size_t size);

/* ---- typed classes of the trace model (eventheader-model.c) ------------------------------ */

/*
 * What decides an event's class: the container's tracepoint (@owner, the caller's pointer),
 * the header flags, the activity-ID extension (@ids: 0, 1 or 2 IDs) and the metadata bytes.
 */
struct eventheader_class_key {
	const void *owner;
	const uint8_t *meta; /* borrowed from the event */
	uint32_t hash;
	uint16_t meta_size;
	uint8_t flags;
	uint8_t ids;
};

/* The key of event @e, which must have been started (eventheader_start()). */
void eventheader_class_key(const struct eventheader_enum *e, const void *owner,
			   struct eventheader_class_key *k);

/*
 * Classes by key (a hash table; the keys' metadata copied into its arena), and the classes
 * eventheader_class_of() made, in the order it made them.
 */
struct eventheader_classes {
	struct eventheader_class_slot *slots;
	size_t n, cap;
	struct arena arena;
	struct vec made; /* struct tk_event_class * */
};

void eventheader_classes_init(struct eventheader_classes *s);
void eventheader_classes_fini(struct eventheader_classes *s);
/* The value put for a key equal to @k, or NULL. */
void *eventheader_classes_find(const struct eventheader_classes *s,
			       const struct eventheader_class_key *k);
/* Add @value (not NULL) for @k, which is not in @s yet. TK_ERR_NOMEM on failure. */
enum tk_status eventheader_classes_put(struct eventheader_classes *s,
				       const struct eventheader_class_key *k, void *value);

/*
 * A typed class keeps what its events were in its EMF URI (tk_event_class.emf_uri, which CTF
 * keeps as model.emf.uri), so that a reader of a converted trace can write them again:
 * "eventheader:" TRACEPOINT-NAME "?flags=0x" HEADER-FLAGS "&meta=" METADATA-BYTES, numbers
 * in lower-case hex, e.g. "eventheader:MyProvider_L5K1?flags=0x07&meta=4576656e74..."
 */
#define EVENTHEADER_URI_SCHEME "eventheader:"

/* A class's scopes, name ("Provider:event", as "n" names it) and URI, in the caller's arena. */
struct eventheader_model_class {
	const char *name;
	const char *uri;
	struct model_fc *context; /* flags, version, id, tag, opcode, level, keyword, IDs */
	struct model_fc *payload; /* the fields, typed as eventheader-model.c says */
};

/*
 * The class of the events that share @e's key, from @e's metadata alone (@e started, not
 * walked). Return: TK_OK; TK_ERR_UNSUPPORTED with a cause when the metadata does not decode
 * (such events keep their container's untyped class); TK_ERR_NOMEM.
 */
enum tk_status eventheader_model_class(struct arena *a, const struct eventheader_enum *e,
				       struct eventheader_model_class *out);

/*
 * The class of event @e (started) of a container's tracepoint class @base (loaded): the typed
 * class of its key, found in @s, or made in @a when @create (ID @first_id + the number made
 * before; its stream class, format, common scope are @base's, tk_event_class.base is
 * @base); @base itself when none was made for the key, or when its metadata gives none.
 * Return: TK_OK; TK_ERR_NOMEM.
 */
enum tk_status eventheader_class_of(struct eventheader_classes *s, struct arena *a,
				    const struct eventheader_enum *e, struct tk_event_class *base,
				    uint64_t first_id, int create, struct tk_event_class **out);

/*
 * Append the values of @e (just started) to @vals (struct model_value): the context's, then
 * from *@payload_at on those of @payload, its class's payload, in pre-order. Text converted
 * to UTF-8 goes in @text (a vec of bytes reused per event), which the values point into,
 * as into @e's bytes: both must live while the values are read.
 * Return: TK_OK; the enumerator's error, or TK_ERR_FORMAT when the fields do not match the
 * class (damage), each with a cause, @vals as it was; TK_ERR_NOMEM.
 */
enum tk_status eventheader_model_values(struct eventheader_enum *e, const struct model_fc *payload,
					struct vec *vals, size_t *payload_at, struct vec *text);

/*
 * The EventHeader event of @ev, whose class is a typed class as kept by a container it was
 * converted into (tk_event_class.emf_uri, EVENTHEADER_URI_SCHEME): header, metadata and
 * activity-ID extensions, the payload encoded from the values; the decoded values of @ev
 * must be there. Written to @out (emptied first); *@tp_name (@tp_name_len bytes) is the
 * tracepoint's name, in the URI.
 * Return: TK_OK; TK_ERR_UNSUPPORTED when the class keeps no EventHeader metadata;
 * TK_ERR_FORMAT when the values do not match it; TK_ERR_NOMEM; each with a cause.
 */
enum tk_status eventheader_model_event(const struct tk_event *ev, struct vec *out,
				       const char **tp_name, size_t *tp_name_len);

/*
 * eventheader_model_event() written as the reference decoder writes a sample
 * (eventheader_json_sample_event()), appended to @out; @scratch holds the event's bytes.
 */
enum tk_status eventheader_model_json(const struct tk_event *ev,
				      const struct eventheader_sample *sample,
				      unsigned int json_flags, struct vec *scratch,
				      struct vec *out);

/*
 * Writing events (eventheader-write.c), for tracekit's own tracer: one field definition of
 * an event's metadata. @encoding is an enum eventheader_encoding with EVENTHEADER_ENC_CARRAY
 * or _VARRAY for arrays (no EVENTHEADER_ENC_CHAIN: the writer sets it); @format an enum
 * eventheader_format (0: none), or a struct's member count, its members' definitions
 * following it; @tag 0 for none; @count the element count of a CARRAY (and 0 otherwise).
 * @name may carry ";attr=value" suffixes.
 */
struct eventheader_def {
	const char *name;
	uint8_t encoding;
	uint8_t format;
	uint16_t tag;
	uint16_t count;
};

/*
 * Append the metadata extension's bytes for an event named @event_name (with its
 * ";attributes") and fields @defs to @out, a vec of bytes.
 * Return: TK_OK; TK_ERR_INVAL (@out as it was) when a definition is not one the format has
 * (no name, an encoding or format out of range, a struct whose members are missing, nesting
 * deeper than EVENTHEADER_NEST_MAX, over 65535 bytes); TK_ERR_NOMEM; each with a cause.
 */
enum tk_status eventheader_meta_write(struct vec *out, const char *event_name,
				      const struct eventheader_def *defs, size_t n);

/*
 * The tracepoint name of @provider's events of @level and @keyword with @options ("" for
 * none; else an uppercase letter then digits and letters, e.g. "Gmygroup"):
 * "Provider_L<level hex>K<keyword hex><options>", into @dst (@cap bytes). Returns its
 * length, or 0 when the provider holds a space or ':', the options do not follow the
 * convention, or the name does not fit @cap or EVENTHEADER_NAME_MAX.
 */
size_t eventheader_tp_name(char *dst, size_t cap, const char *provider, uint8_t level,
			   uint64_t keyword, const char *options);

/* VALUE8..VALUE64 for a value of @size bytes (1, 2, 4, 8); 0 for any other size. */
static inline uint8_t eventheader_value_encoding(unsigned int size)
{
	switch (size) {
	case 1:
		return EVENTHEADER_ENC_VALUE8;
	case 2:
		return EVENTHEADER_ENC_VALUE16;
	case 4:
		return EVENTHEADER_ENC_VALUE32;
	case 8:
		return EVENTHEADER_ENC_VALUE64;
	default:
		return 0;
	}
}

/* The fields every EventHeader tracepoint declares to user_events, after its name. */
#define EVENTHEADER_REG_FIELDS                                                                     \
	"u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level"

/* user_events' registration command of @tp_name ("NAME " EVENTHEADER_REG_FIELDS); 0: no room. */
size_t eventheader_reg_command(char *dst, size_t cap, const char *tp_name);

/* What goes before an event's payload (eventheader_prefix_write()). */
struct eventheader_head {
	uint16_t id;
	uint8_t version;
	uint16_t tag;
	uint8_t opcode;
	uint8_t level;
	const uint8_t *activity_id; /* 16 bytes, or NULL */
	const uint8_t *related_id;  /* 16 bytes, or NULL (needs activity_id) */
	uint16_t meta_size;	    /* the metadata extension's size, 0 for none */
};

/* The most bytes eventheader_prefix_write() writes. */
#define EVENTHEADER_PREFIX_MAX (EVENTHEADER_HEADER_SIZE + 4 + 32 + 4)

/*
 * The 8-byte header (little-endian, 64-bit pointers) and the extension blocks' heads: the
 * activity IDs whole, then the metadata block's size and kind, its @meta_size bytes to be
 * written right after by the caller, then the payload. Returns the bytes written to @dst
 * (at most EVENTHEADER_PREFIX_MAX).
 */
size_t eventheader_prefix_write(uint8_t *dst, const struct eventheader_head *h);

#endif /* TK_EVENTHEADER_EVENTHEADER_H */
