/* SPDX-License-Identifier: MIT */
/*
 * Application tracepoints: define an event once, call it anywhere, pay almost nothing when it
 * is off.
 *
 * A *provider* header declares events with TK_TRACEPOINT_EVENT(): a prototype and typed
 * fields, a level and a keyword. Including the header expands, at compile time, for each
 * event: an "enabled" flag the call site tests (one load and one predictable branch when the
 * event is off), and an inline serializer that measures the payload, reserves room in the
 * calling thread's buffer and stores each field with plain stores (no parsing, allocation or
 * lock per event). Exactly one .c (or .cc) file of the program or shared module defines
 * TK_TRACEPOINT_DEFINE before including the header: there the static descriptions (struct
 * tk_tp_event: name, level, keyword, fields with their kinds, sizes, display formats and enum
 * mappings, fixed payload size) are defined, with a constructor that registers the provider
 * with the runtime (libtracekit-ust, <tracekit/ust.h>) and a destructor that unregisters it,
 * so providers of modules loaded with dlopen() come and go with their module. The
 * descriptions are the single source of truth for every output: CTF, and EventHeader through
 * user_events or an interceptor file (bit 0 and bit 1 of the event's `enabled` word).
 *
 * A provider header, `app-tp.h`:
 *
 *	#undef TK_TRACEPOINT_INCLUDE
 *	#define TK_TRACEPOINT_INCLUDE "app-tp.h"
 *	#if !defined(APP_TP_H) || defined(TK_TRACEPOINT_HEADER_MULTI_READ)
 *	#define APP_TP_H
 *	#include <tracekit/tracepoint.h>
 *
 *	TK_TRACEPOINT_ENUM(app, color,
 *		tk_enum_value("red", 0)
 *		tk_enum_range("warm", 1, 9))
 *	TK_TRACEPOINT_EVENT(app, request, TK_TP_ARGS(int id, const char *path, size_t n),
 *		TK_TP_LEVEL_INFO, 0x1,
 *		tk_field_int(int32_t, id, id)
 *		tk_field_string(path, path)
 *		tk_field_hex(uint64_t, size, n)
 *		tk_field_enum(app, color, uint8_t, color, id % 10))
 *
 *	#include <tracekit/tracepoint-event.h>
 *	#endif
 *
 * One file: `#define TK_TRACEPOINT_DEFINE` then `#include "app-tp.h"`; every caller:
 * `#include "app-tp.h"` and `tk_tracepoint(app, request, 42, "/index", 512);`.
 * An event without arguments is declared with TK_TP_ARGS(void) and called as
 * `tk_tracepoint(app, tick, )` (C11 wants an argument after the last comma).
 *
 * Field macros (NAME: the field name; EXPR: evaluated once per output the event goes to (CTF,
 * EventHeader), and once more for the lengths of strings, sequences and blobs, which are
 * measured and then copied):
 *   tk_field_int(TYPE, NAME, EXPR)          integer of TYPE (8/16/32/64-bit, any signedness)
 *   tk_field_hex(TYPE, NAME, EXPR)          the same, shown in hexadecimal
 *   tk_field_pointer(NAME, EXPR)            a pointer, shown in hexadecimal
 *   tk_field_errno(NAME, EXPR)              an int holding an errno value
 *   tk_field_time(NAME, EXPR)               a uint64_t time in nanoseconds
 *   tk_field_float(TYPE, NAME, EXPR)        float or double
 *   tk_field_bool(NAME, EXPR)               one byte, 0 or 1
 *   tk_field_string(NAME, EXPR)             NUL-terminated string (NULL is written "(null)")
 *   tk_field_counted_string(NAME, EXPR, LEN) LEN bytes of text
 *   tk_field_blob(NAME, EXPR, LEN)          LEN bytes, shown in hexadecimal
 *   tk_field_array(TYPE, NAME, EXPR, N)     N integers of TYPE (N a constant) from EXPR
 *   tk_field_sequence(TYPE, NAME, EXPR, LEN) LEN integers of TYPE from EXPR
 *   tk_field_pid(NAME, EXPR)                an int32_t process or thread ID
 *   tk_field_time_sec(NAME, EXPR)           an int64_t time in seconds since 1970 (a time_t)
 *   tk_field_ipv4(NAME, EXPR)               a uint32_t IPv4 address in network order, as given
 *   tk_field_port(NAME, EXPR)               a uint16_t port in host order (EventHeader
 *                                           writes it in network order)
 *   tk_field_uuid(NAME, EXPR)               16 bytes from EXPR: a UUID (RFC 4122 order)
 *   tk_field_ipv6(NAME, EXPR)               16 bytes from EXPR: an IPv6 address
 *   tk_field_bytes16(NAME, EXPR)            16 bytes from EXPR, shown in hexadecimal
 *   tk_field_latin1_string(NAME, EXPR)      as tk_field_string, the text in ISO 8859-1
 *   tk_field_bom_string(NAME, EXPR)         as tk_field_string, UTF-8 that may start with a BOM
 *   tk_field_xml_string(NAME, EXPR)         as tk_field_string, XML text
 *   tk_field_json_string(NAME, EXPR)        as tk_field_string, JSON text
 *   tk_field_string16(NAME, EXPR)           NUL-terminated UTF-16 text (char16_t, host order;
 *                                           NULL is written as an empty string)
 *   tk_field_string32(NAME, EXPR)           NUL-terminated UTF-32 text (char32_t)
 *   tk_field_counted_string16(NAME, EXPR, LEN) LEN char16_t units of UTF-16 text
 *   tk_field_counted_string32(NAME, EXPR, LEN) LEN char32_t units of UTF-32 text
 *   tk_field_enum(PROV, ENUM, TYPE, NAME, EXPR) integer of TYPE with the labels of
 *                                           TK_TRACEPOINT_ENUM(PROV, ENUM, ...)
 *   tk_field_struct(PROV, STRUCT, NAME, ARGS...) the fields of TK_TRACEPOINT_STRUCT(PROV,
 *                                           STRUCT, TK_TP_ARGS(...), FIELDS) for ARGS
 *
 * Lengths are at most 2^32 - 1. Thread safety: any thread may emit; each thread writes its
 * own buffer. A signal handler must not emit an event of the thread it interrupted (the
 * thread's buffer has one writer at a time); this milestone does not detect it.
 */
#ifndef TRACEKIT_TRACEPOINT_H
#define TRACEKIT_TRACEPOINT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tracekit/export.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef TK_LIKELY /* the same definitions as the library's own */
#if defined(__GNUC__)
#define TK_LIKELY(x)   __builtin_expect(!!(x), 1)
#define TK_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define TK_LIKELY(x)   (x)
#define TK_UNLIKELY(x) (x)
#endif
#endif

/**
 * enum tk_tp_level - Severity of an event, as EventHeader and LTTng use (lower is more
 * severe); 0 means none given.
 */
enum tk_tp_level {
	TK_TP_LEVEL_CRITICAL = 1,
	TK_TP_LEVEL_ERROR = 2,
	TK_TP_LEVEL_WARNING = 3,
	TK_TP_LEVEL_INFO = 4,
	TK_TP_LEVEL_VERBOSE = 5,
};

/**
 * enum tk_tp_kind - What a field holds, and so how it is stored in the payload.
 * @TK_TP_KIND_INT:        An integer of @size bytes (1, 2, 4, 8), host byte order.
 * @TK_TP_KIND_FLOAT:      A float (4) or double (8).
 * @TK_TP_KIND_BOOL:       One byte, 0 or 1.
 * @TK_TP_KIND_STRING:     Bytes and a NUL.
 * @TK_TP_KIND_COUNTED:    A uint32_t length, then that many units of text of @size bytes
 *                         (1: UTF-8 or as @format says; 2: UTF-16; 4: UTF-32, host order).
 * @TK_TP_KIND_WSTRING:    A uint32_t count, then that many units of @size bytes (2: UTF-16,
 *                         4: UTF-32, host order), the last one 0: NUL-terminated wide text.
 * @TK_TP_KIND_BLOB:       A uint32_t length, then that many bytes.
 * @TK_TP_KIND_ARRAY:      @count integers of @size bytes.
 * @TK_TP_KIND_SEQUENCE:   A uint32_t count, then that many integers of @size bytes.
 * @TK_TP_KIND_ENUM:       An integer as INT whose values have labels (@enum_desc).
 * @TK_TP_KIND_STRUCT:     The fields of @struct_desc, one after the other.
 *
 * Values are only ever added, so that descriptions built with an older header stay valid.
 */
enum tk_tp_kind {
	TK_TP_KIND_INT = 1,
	TK_TP_KIND_FLOAT = 2,
	TK_TP_KIND_BOOL = 3,
	TK_TP_KIND_STRING = 4,
	TK_TP_KIND_COUNTED = 5,
	TK_TP_KIND_BLOB = 6,
	TK_TP_KIND_ARRAY = 7,
	TK_TP_KIND_SEQUENCE = 8,
	TK_TP_KIND_ENUM = 9,
	TK_TP_KIND_STRUCT = 10,
	TK_TP_KIND_WSTRING = 11,
};

/**
 * enum tk_tp_format - How a value is meant to be shown (EventHeader keeps it as is).
 * @TK_TP_FORMAT_DEFAULT:  Integers in decimal, text as UTF-8.
 * @TK_TP_FORMAT_HEX:      Integers in hexadecimal.
 * @TK_TP_FORMAT_POINTER:  An address, in hexadecimal.
 * @TK_TP_FORMAT_ERRNO:    An int errno value.
 * @TK_TP_FORMAT_TIME:     A uint64_t in nanoseconds (of any clock).
 * @TK_TP_FORMAT_PID:      An int32_t process or thread ID.
 * @TK_TP_FORMAT_TIME_SEC: Signed seconds since 1970-01-01 UTC (4 or 8 bytes).
 * @TK_TP_FORMAT_UUID:     ARRAY of 16 uint8_t: a UUID, bytes in RFC 4122 (network) order.
 * @TK_TP_FORMAT_IPV4:     A uint32_t IPv4 address whose bytes are in network order.
 * @TK_TP_FORMAT_IPV6:     ARRAY of 16 uint8_t: an IPv6 address, network order.
 * @TK_TP_FORMAT_PORT:     A uint16_t port in host order.
 * @TK_TP_FORMAT_BYTES16:  ARRAY of 16 uint8_t: one 128-bit value shown as hex bytes.
 * @TK_TP_FORMAT_LATIN1:   STRING, COUNTED: ISO 8859-1 text.
 * @TK_TP_FORMAT_UTF8_BOM: STRING, COUNTED: UTF-8 text that may start with a byte order mark.
 * @TK_TP_FORMAT_XML:      STRING, COUNTED: XML text.
 * @TK_TP_FORMAT_JSON:     STRING, COUNTED: JSON text.
 *
 * Values are only ever added.
 */
enum tk_tp_format {
	TK_TP_FORMAT_DEFAULT = 0,
	TK_TP_FORMAT_HEX = 1,
	TK_TP_FORMAT_POINTER = 2,
	TK_TP_FORMAT_ERRNO = 3,
	TK_TP_FORMAT_TIME = 4,
	TK_TP_FORMAT_PID = 5,
	TK_TP_FORMAT_TIME_SEC = 6,
	TK_TP_FORMAT_UUID = 7,
	TK_TP_FORMAT_IPV4 = 8,
	TK_TP_FORMAT_IPV6 = 9,
	TK_TP_FORMAT_PORT = 10,
	TK_TP_FORMAT_BYTES16 = 11,
	TK_TP_FORMAT_LATIN1 = 12,
	TK_TP_FORMAT_UTF8_BOM = 13,
	TK_TP_FORMAT_XML = 14,
	TK_TP_FORMAT_JSON = 15,
};

/**
 * struct tk_tp_enum_entry - A label for the values @lo to @hi (included) of an enumeration.
 * Values are read as signed when the field's integer is signed.
 */
struct tk_tp_enum_entry {
	const char *label;
	uint64_t lo;
	uint64_t hi;
};

/** struct tk_tp_enum - An enumeration's name and @n_entries label ranges. */
struct tk_tp_enum {
	const char *name;
	const struct tk_tp_enum_entry *entries;
	uint32_t n_entries;
};

struct tk_tp_struct;

/**
 * struct tk_tp_field - One field of an event or a structure.
 * @name:        Its name.
 * @kind:        An enum tk_tp_kind.
 * @format:      An enum tk_tp_format (INT, ENUM, ARRAY, SEQUENCE, STRING, COUNTED).
 * @size:        INT, ENUM, FLOAT: bytes of the value; ARRAY, SEQUENCE: of one element;
 *               COUNTED, WSTRING: of one unit of text; BOOL, BLOB: 1; others 0.
 * @is_signed:   Integers: nonzero for signed ones.
 * @count:       ARRAY: number of elements.
 * @enum_desc:   ENUM: its labels.
 * @struct_desc: STRUCT: its fields.
 */
struct tk_tp_field {
	const char *name;
	uint8_t kind;
	uint8_t format;
	uint8_t size;
	uint8_t is_signed;
	uint32_t count;
	const struct tk_tp_enum *enum_desc;
	const struct tk_tp_struct *struct_desc;
};

/** struct tk_tp_struct - A structure type: @n_fields fields. */
struct tk_tp_struct {
	const char *name;
	const struct tk_tp_field *fields;
	uint32_t n_fields;
};

/** Payload size of an event that holds strings, sequences or blobs (struct tk_tp_event). */
#define TK_TP_SIZE_VARIABLE UINT32_MAX

/**
 * struct tk_tp_event - An event's description and state; defined by TK_TRACEPOINT_DEFINE.
 * @enabled:    Nonzero when the event is written; the call site's only test, a relaxed load.
 *              Bit 0: a CTF session writes it (the runtime's, set and cleared with atomic
 *              or/and); bit 1: EventHeader output wants it (set by the kernel through
 *              user_events, or by the runtime in interceptor mode).
 * @id:         Event ID the runtime gave at registration (written into each event header).
 * @provider:   Provider name.
 * @name:       Event name.
 * @level:      An enum tk_tp_level, or 0.
 * @keyword:    A bit mask of categories (EventHeader's keyword), 0 for none.
 * @fields:     The payload's @n_fields fields, in order.
 * @fixed_size: Bytes of the payload when every field has a fixed size, else
 *              TK_TP_SIZE_VARIABLE.
 */
struct tk_tp_event {
	int enabled;
	uint32_t id;
	const char *provider;
	const char *name;
	uint8_t level;
	uint64_t keyword;
	const struct tk_tp_field *fields;
	uint32_t n_fields;
	uint32_t fixed_size;
};

/**
 * struct tk_tp_provider - A provider: its name and @n_events events; registered by the
 * constructor TK_TRACEPOINT_DEFINE emits.
 */
struct tk_tp_provider {
	size_t size;
	const char *name;
	struct tk_tp_event *const *events;
	size_t n_events;
};

/**
 * tk_tp_provider_register() - Make a provider's events known to the runtime.
 * @p: The provider; it must stay valid until tk_tp_provider_unregister().
 *
 * Gives each event its ID and, when a session is running, declares them in its trace and
 * enables them. Called by the constructor TK_TRACEPOINT_DEFINE emits; rarely by hand.
 * Return: 0, or -1 when out of memory (the events then stay disabled).
 * Ownership: @p is borrowed until tk_tp_provider_unregister().
 */
TK_EXPORT int tk_tp_provider_register(struct tk_tp_provider *p);

/**
 * tk_tp_provider_unregister() - Forget a provider (its module is being unloaded).
 * @p: A registered provider.
 *
 * Its events are disabled; a running session keeps their declarations, so events already
 * written stay readable.
 * Return: Nothing.
 * Ownership: @p is no longer used once this returns.
 */
TK_EXPORT void tk_tp_provider_unregister(struct tk_tp_provider *p);

/* ---- the fast path: inline, used by the serializers the macros expand to ------------------- */

/*
 * The calling thread's writing position in its open packet. @end is read with a relaxed
 * load because the session's stop moves it (to a value not above @pos) from another thread,
 * which sends the thread's next event to the slow path; @commit is published with a release
 * store after each event, so that the consumer may read what precedes it. @nest is nonzero
 * from the reserve of an event to its commit: an event a signal handler emits meanwhile on
 * the same thread sees it and is dropped and counted (slow path), never written over the
 * interrupted one.
 */
struct tk_ust_tls {
	uint8_t *pos;
	uint8_t *end;
	uint8_t *commit;
	uint64_t last_ts;
	void *buf;
	uint32_t nest;
};

#if defined(__GNUC__)
#define TK_UST_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define TK_UST_TLS_MODEL
#endif

/* Defined by libtracekit-ust; initial-exec TLS: one instruction to find it. */
TK_EXPORT extern __thread struct tk_ust_tls tk_ust_tls_state TK_UST_TLS_MODEL;
/* Nonzero when the session counts time with the TSC (x86), else CLOCK_MONOTONIC. */
TK_EXPORT extern int tk_ust_clock_tsc;

/**
 * tk_ust_clock_monotonic() - CLOCK_MONOTONIC in nanoseconds.
 *
 * Out of line because <time.h> declares clock_gettime() only with POSIX feature macros,
 * which a self-contained header cannot assume.
 * Return: The time.
 * Ownership: None.
 */
TK_EXPORT uint64_t tk_ust_clock_monotonic(void);

/**
 * tk_ust_reserve_slow() - What tk_ust_reserve() cannot do inline.
 * @ev:   The event.
 * @size: Its payload's size in bytes.
 * @ts:   Its time, from tk_ust_clock_read().
 *
 * The thread's first event (its ring is made), a full packet (closed and handed over, the
 * next one opened), a time 2^32 cycles or more after the previous event's or an ID from
 * 65535 (the header's extended form), a full ring or an event larger than a packet (dropped
 * and counted), no session (dropped).
 * Return: The payload's first byte, its header written before it; NULL when dropped.
 * Ownership: The bytes returned belong to the calling thread's ring until tk_ust_commit().
 */
TK_EXPORT uint8_t *tk_ust_reserve_slow(const struct tk_tp_event *ev, size_t size, uint64_t ts);

/* Bits of tk_tp_event.enabled: the CTF session's, and the EventHeader output's. */
#define TK_TP_ENABLED_CTF 0x1
#define TK_TP_ENABLED_EH  0x2

/**
 * tk_ust_eh_buf() - Room to serialize an event's payload for the EventHeader output.
 * @size: The payload's size in bytes.
 *
 * The calling thread's scratch buffer for payloads up to 2 KiB, else memory allocated for
 * this event; 2 * @size bytes, the second half for tk_ust_eh_emit()'s transcoding.
 * Return: The buffer, or NULL when out of memory (the event is dropped and counted).
 * Ownership: The buffer goes to tk_ust_eh_emit(), which must be called next.
 */
TK_EXPORT uint8_t *tk_ust_eh_buf(size_t size);

/**
 * tk_ust_eh_emit() - Write an event's payload as EventHeader (user_events, interceptor).
 * @ev:      The event.
 * @payload: Its payload, @size bytes in the CTF layout the serializer writes, in the buffer
 *           tk_ust_eh_buf(@size) gave.
 * @size:    The payload's size.
 *
 * Writes the event to the interceptor file when one is open, else to user_events when the
 * event is registered there; an event without an EventHeader form, or a failed write, is
 * dropped (and counted).
 * Return: Nothing.
 * Ownership: @payload is released (or given back to the thread) by this call.
 */
TK_EXPORT void tk_ust_eh_emit(const struct tk_tp_event *ev, uint8_t *payload, size_t size);

/* Size of the event header with a 16-bit ID and 32-bit time (LTTng's "large" one). */
#define TK_UST_HEADER_SIZE 6
/* The extended form: ID 65535, then a 32-bit ID and a 64-bit time. */
#define TK_UST_HEADER_EXT_SIZE 14

static inline uint64_t tk_ust_clock_read(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (tk_ust_clock_tsc)
		return __builtin_ia32_rdtsc();
#endif
	return tk_ust_clock_monotonic();
}

/*
 * Room for an event of @size payload bytes in the calling thread's open packet, its header
 * written: the payload's first byte, or NULL when the event is dropped (and counted).
 */
static inline uint8_t *tk_ust_reserve(const struct tk_tp_event *ev, size_t size)
{
	struct tk_ust_tls *t = &tk_ust_tls_state;
	uint32_t nest = t->nest;
	uint64_t ts;
	uint8_t *p;
	uintptr_t end;
	uint32_t id = ev->id;

	/*
	 * Marked before anything is read: a signal handler's event on this thread from here to
	 * the commit goes to the slow path, which drops it. One that came before the mark ran
	 * to its end, the mark restored (compiler barrier: nothing is read before the store).
	 */
	t->nest = nest + 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	ts = tk_ust_clock_read();
	p = t->pos;
	end = (uintptr_t) __atomic_load_n(&t->end, __ATOMIC_RELAXED);
	/*
	 * One test for four conditions: not inside another event, the time fits the header's 32
	 * bits (one wrap at most since the previous event), the ID its 16 bits (below 65535),
	 * and the event the room left (negative when @end was moved below @pos, or both are
	 * NULL before a packet).
	 */
	if (TK_LIKELY((((ts - t->last_ts) >> 32) | (((uint64_t) id + 1) >> 16) | nest) == 0 &&
		      (intptr_t) (end - (uintptr_t) p - size - TK_UST_HEADER_SIZE) >= 0)) {
		uint16_t id16 = (uint16_t) id;
		uint32_t ts32 = (uint32_t) ts;

		memcpy(p, &id16, 2);
		memcpy(p + 2, &ts32, 4);
		t->last_ts = ts;
		return p + TK_UST_HEADER_SIZE;
	}
	return tk_ust_reserve_slow(ev, size, ts);
}

/* The event ending at @end is complete: publish it, then events may come again. */
static inline void tk_ust_commit(uint8_t *end)
{
	tk_ust_tls_state.pos = end;
	__atomic_store_n(&tk_ust_tls_state.commit, end, __ATOMIC_RELEASE);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	tk_ust_tls_state.nest = 0;
}

/* Length of a string field's text, NULL counting as "(null)". */
static inline size_t tk_tp_strlen(const char *s)
{
	return s ? strlen(s) : 6;
}

static inline uint8_t *tk_tp_put_text(uint8_t *p, const char *s, size_t len)
{
	memcpy(p, s ? s : "(null)", len);
	p[len] = 0;
	return p + len + 1;
}

/* Units of NUL-terminated wide text of @unit bytes (2 or 4) before its 0 unit; NULL is empty. */
static inline size_t tk_tp_wstrlen(const void *s, size_t unit)
{
	const uint8_t *p = (const uint8_t *) s;
	size_t n = 0;
	uint32_t c;

	if (!p)
		return 0;
	for (;; n++) {
		c = 0;
		memcpy(&c, p + n * unit, unit); /* the value's bytes: only 0 or not matters */
		if (c == 0)
			return n;
	}
}

static inline uint8_t *tk_tp_put_u32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
	return p + 4;
}

/* Wide text as TK_TP_KIND_WSTRING holds it: the count of units with the 0 unit, the units. */
static inline uint8_t *tk_tp_put_wtext(uint8_t *p, const void *s, size_t len, size_t unit)
{
	p = tk_tp_put_u32(p, (uint32_t) (len + 1));
	if (len)
		memcpy(p, s, len * unit);
	memset(p + len * unit, 0, unit);
	return p + (len + 1) * unit;
}

/* ---- the macros ---------------------------------------------------------------------------- */

/** Wraps an event's prototype: TK_TP_ARGS(int a, const char *s), or TK_TP_ARGS(void). */
#define TK_TP_ARGS(...) __VA_ARGS__

#define TK_TP_CAT_(a, b) a##b
#define TK_TP_CAT(a, b)	 TK_TP_CAT_(a, b)

/** Name of an event's description, struct tk_tp_event. */
#define TK_TP_EVENT_SYM(prov, ev) tk_tp_ev_##prov##__##ev

/**
 * tk_tracepoint() - Emit event @ev of provider @prov with the arguments of its prototype.
 * When the event is off this is one load and one branch; the arguments are not evaluated.
 */
#define tk_tracepoint(prov, ev, ...)                                                               \
	do {                                                                                       \
		if (TK_UNLIKELY(__atomic_load_n(&TK_TP_EVENT_SYM(prov, ev).enabled,                \
						__ATOMIC_RELAXED)))                                \
			tk_tp_emit_##prov##__##ev(__VA_ARGS__);                                    \
	} while (0)

/** tk_tracepoint_enabled() - Nonzero when event @ev of @prov is on (to guard costly args). */
#define tk_tracepoint_enabled(prov, ev)                                                            \
	TK_UNLIKELY(__atomic_load_n(&TK_TP_EVENT_SYM(prov, ev).enabled, __ATOMIC_RELAXED))

/*
 * Outside the passes of <tracekit/tracepoint-event.h>, the declarations expand to nothing:
 * the passes give them their meanings one after the other.
 */
#define TK_TRACEPOINT_EVENT(prov, name, args, level, keyword, fields)
#define TK_TRACEPOINT_STRUCT(prov, name, args, fields)
#define TK_TRACEPOINT_ENUM(prov, name, entries)

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_TRACEPOINT_H */
