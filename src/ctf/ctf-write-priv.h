/* SPDX-License-Identifier: MIT */
/*
 * CTF 1.8 writer internals shared by ctf-write.c (API, packets, events, losses),
 * ctf-write-decl.c (declarations and names), ctf-write-values.c (values of declared fields)
 * and ctf-write-meta.c (TSDL metadata text, index files).
 *
 * Declarations are compiled once into trees of struct cw_field: a write operation per
 * field and, per field list, the bytes every event takes plus the few fields (strings,
 * arrays, sequences) whose values must be checked and measured per event. Lists of scalars,
 * strings and arrays given as data (the common case, and all the first API offered) take a
 * fast path that only walks these arrays; lists with nested kinds are walked depth first,
 * value by value, once to check and measure, once to write.
 */
#ifndef TK_CTF_CTF_WRITE_PRIV_H
#define TK_CTF_CTF_WRITE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/ctf-writer.h>

#include "../common/arena.h"
#include "../common/bytes.h"
#include "../common/vec.h"

/* Bytes of the packet header with and without the UUID (tk_ctf_writer.h lists its fields). */
#define CW_PACKET_HEADER_SIZE	      32
#define CW_PACKET_HEADER_SIZE_NO_UUID 16
#define CW_INDEX_ENTRY_SIZE	      72
#define CW_CTF_MAGIC		      UINT32_C(0xC1FC1FC1)
#define CW_INDEX_MAGIC		      UINT32_C(0xC1F1DCC1)

/* LTTng event headers: ids that mean "extended", and the bits of the short timestamp. */
#define CW_COMPACT_EXT	   31
#define CW_COMPACT_TS_BITS 27
#define CW_LARGE_EXT	   65535
#define CW_LARGE_TS_BITS   32

/* Declarations nest this deep at most; a scope refers to this many lengths and tags. */
#define CW_MAX_DEPTH 32
#define CW_MAX_SLOTS 64

/* Event class IDs below this are found through a table, larger ones by a search. */
#define CW_EC_TABLE_MAX 65536

/*
 * Shared writers (ctf_writer_share()): IDs from here to CW_EC_TABLE_MAX are provisional, the
 * IDs of classes a stream uses before their own IDs are known; listed classes stay below.
 */
#define CW_PROV_BASE 32768

/* Packet buffers of a stream at most: one filled while the others wait for their write. */
#define CW_IO_DEPTH 4

/* How one field is written. */
enum cw_op {
	CW_OP_U8,
	CW_OP_U16,
	CW_OP_U32,
	CW_OP_U64,
	CW_OP_BITS, /* an integer of another size: its bytes, low or high bits first */
	CW_OP_F32,
	CW_OP_F64,
	CW_OP_STRING,
	CW_OP_ARRAY,	/* elements of @elem_kind from the value's data */
	CW_OP_SEQUENCE, /* the same, after its own 32-bit length unless it has a length member */
	CW_OP_STRUCT,	/* the members (sub), no value of its own */
	CW_OP_VARIANT,	/* one value (the option), then the chosen option (sub) */
	CW_OP_ARRAY_OF, /* one value (the count), then each element (sub.f[0]) */
	CW_OP_SEQ_OF,	/* the same, after its own 32-bit length unless it has a length member */
};

struct cw_field;

/* A list of fields: a scope, a structure's members, a variant's options or an element. */
struct cw_fields {
	struct cw_field *f;
	uint32_t n;
	uint32_t n_var;
	uint32_t *var; /* flat lists: indexes of the strings, arrays and sequences */
	size_t fixed;  /* flat lists: bytes of everything but string texts and sequence elements */
	/*
	 * Padding bits after the last field's last bit, up to the byte boundary (a 12-bit
	 * integer ends 4 bits before the next byte). When the last field is a sequence, only if
	 * it has elements in the event (tail_seq). Flat lists only.
	 */
	uint8_t tail_pad;
	uint8_t tail_seq;
	uint8_t flat;	  /* one value per field, no nesting, no references: the fast path */
	uint8_t present;  /* a scope: declared (an empty STRUCT is present, NULL is not) */
	uint16_t n_slots; /* a scope: values kept for lengths and tags */
};

/* One range of tag values choosing a variant option. */
struct cw_range {
	union tk_ctf_enum_value lo;
	union tk_ctf_enum_value hi;
};

struct cw_field {
	const char *name;     /* as written in the metadata */
	const char *len_name; /* sequences with their own length: the written name of it */
	const char *ref_name; /* written name of the length member or tag it refers to */
	uint8_t op;	      /* enum cw_op */
	uint8_t kind;	      /* enum tk_ctf_field_kind */
	uint8_t bits;	      /* integers and floats; elements of arrays and sequences */
	uint8_t is_signed;
	uint8_t base;
	uint8_t elem_kind; /* CW_OP_ARRAY, CW_OP_SEQUENCE: INT or CHAR */
	uint8_t in_bytes;  /* bytes of one element in the caller's array: 1, 2, 4 or 8 */
	uint8_t out_bytes; /* bytes one integer or element takes in the trace */
	uint8_t aligned;   /* readers align it to a byte (all but empty structures and such) */
	uint8_t simple;	   /* static size, no checks, no stored values: skipped as a whole */
	int16_t store;	   /* slot its value is kept in for a later length or tag, or -1 */
	int16_t ref;	   /* the slot of its length member or tag, or -1 */
	uint64_t array_len;
	size_t size;				/* bytes, when simple */
	uint32_t n_vals;			/* values it takes, when simple */
	struct cw_fields sub;			/* members, options, or the element (one) */
	const struct tk_ctf_enum_label *labels; /* enumerations */
	uint32_t n_labels;
	struct cw_range *ranges; /* variants: the tag ranges choosing each option, in order */
	uint32_t *opt_first;	 /* variants: ranges of option i are opt_first[i]..[i + 1] */
};

struct cw_io;

struct cw_clock {
	const char *name; /* a TSDL identifier */
	const char *description;
	uint64_t freq;
	int64_t offset_s;
	uint64_t offset_cycles;
	uint64_t precision;
	int absolute;
	int has_uuid;
	uint8_t uuid[16];
};

struct cw_env {
	const char *key; /* a TSDL identifier */
	const char *str; /* NULL for integers */
	int64_t integer;
};

struct cw_ec {
	const char *name; /* NULL: none */
	const char *emf_uri;
	uint64_t id;
	int loglevel; /* negative: none */
	struct cw_fields ctx;
	struct cw_fields fields;
};

struct cw_sc {
	uint64_t id;
	uint64_t clock; /* TK_CTF_WRITER_NO_CLOCK for none */
	uint8_t frozen; /* events written: header kind fixed, context fixed */
	uint8_t large;	/* event_header_large instead of event_header_compact */
	uint8_t has_cpu_id;
	struct cw_fields pctx; /* its own packet-context fields */
	struct cw_fields ctx;  /* the event context common to its events */
	struct vec ecs;	       /* struct cw_ec *, in the order declared */
	struct vec ec_table;   /* struct cw_ec *, by id below CW_EC_TABLE_MAX */
	uint64_t next_ec_id;
	uint64_t n_streams;
	/* where the writer's packet-context fields are, from the packet start; 0: absent */
	uint32_t off_ts_begin, off_ts_end, off_content, off_size, off_seq, off_disc, off_cpu;
	uint32_t std_end; /* bytes of the header and the writer's packet-context fields */
};

/*
 * The walk over values: the stored lengths and tags of the scope being walked, the padding
 * after the last field written, and what to name in causes.
 */
struct cw_run {
	uint64_t stored[CW_MAX_SLOTS];
	uint8_t pad;
	const char *stream;
};

struct tk_ctf_writer_stream {
	struct tk_ctf_writer *w;
	struct cw_sc *sc;
	uint64_t instance_id;
	uint32_t cpu_id;
	const char *name; /* data file name */
	int fd;
	uint8_t *buf; /* the packet being filled, its header already in place */
	size_t cap;
	/* packet buffers for the writing thread (ctf-write-io.c), under its lock */
	uint8_t *free_buf[CW_IO_DEPTH]; /* written, ready to fill again */
	size_t free_cap[CW_IO_DEPTH];
	int n_free;
	int n_bufs;	  /* buffers of this stream besides the one being filled: free and queued */
	int io_busy;	  /* its packets queued and not written yet */
	size_t pos;	  /* bytes used in the open packet; 0 when none is open */
	uint8_t tail_pad; /* the last event ends this many bits before pos */
	uint64_t clock;	  /* the reader's clock value after the last event (or packet start) */
	uint64_t ts_begin;    /* of the open packet */
	uint8_t has_ts;	      /* an event was written: clock and last times are set */
	uint64_t disc_total;  /* events lost so far */
	uint64_t disc_pkt;    /* losses the open packet accounts for (up to its last event) */
	uint64_t disc_done;   /* losses the packets written so far report */
	uint8_t disc_unknown; /* the first packet reports a loss of unknown size */
	uint8_t has_end;      /* the packet reporting a ranged loss ends at end_at */
	uint8_t gap;	      /* packets were lost: one must follow, so that readers see it */
	uint64_t end_at;
	uint64_t seq;	  /* sequence number of the next packet */
	uint64_t written; /* packets written */
	uint64_t offset;  /* file offset of the next packet */
	struct vec index; /* CW_INDEX_ENTRY_SIZE-byte big-endian entries */
	uint8_t *pctx;	  /* the encoded values of the stream class's own packet-context fields */
	size_t pctx_len;
	uint8_t pctx_pad; /* bits after their last one, up to the byte */
	size_t prefix;	  /* bytes of the packet header and context */
	/*
	 * Shared writers: where provisional IDs were written, to put the final ones there;
	 * uint64_t each, the offset shifted left by 16 bits over the ID - CW_PROV_BASE.
	 */
	struct vec prov_pkt;  /* offsets in the open packet */
	struct vec prov_file; /* offsets in the data file */
};

struct tk_ctf_writer {
	int dirfd;
	int index_dirfd; /* -1 without index files */
	char *dir;
	enum tk_byte_order bo;
	size_t packet_size;
	uint8_t uuid[16];
	uint8_t no_uuid;
	size_t header_size;    /* of the packet header */
	enum tk_status status; /* first I/O error: events are refused after it */
	struct arena arena;    /* names and compiled declarations */
	struct vec env;	       /* struct cw_env */
	struct vec clocks;     /* struct cw_clock */
	struct vec scs;	       /* struct cw_sc *, in the order declared */
	uint64_t next_sc_id;
	struct vec streams;   /* struct tk_ctf_writer_stream * */
	struct cw_io *io;     /* the thread writing packets (ctf-write-io.c), or NULL */
	int io_failed;	      /* it could not start: packets are written synchronously */
	uint8_t shared;	      /* ctf_writer_share(): streams written by threads of their own */
	uint64_t next_prov;   /* the next provisional event class ID */
	uint32_t *prov_final; /* by provisional ID - CW_PROV_BASE: its final ID, or UINT32_MAX */
};

/* ---- ctf-write-decl.c --------------------------------------------------------------------- */

/*
 * Compile @n declarations into @out (memory from @a): written names per the rules of
 * tk_ctf_writer.h, write operations, sizes, references between fields, and for flat lists
 * the fixed size and the fields to check per event. @what names the list in causes
 * ("payload of event class X"). @reserved lists @n_reserved written names the fields must
 * not take (the writer's own packet-context fields).
 */
enum tk_status ctf_write_fields_compile(struct arena *a, const struct tk_ctf_field_decl *d,
					size_t n, const char *what, const char *const *reserved,
					size_t n_reserved, struct cw_fields *out);

/* The same for a scope given as a STRUCT declaration, or NULL for an absent scope. */
enum tk_status ctf_write_scope_compile(struct arena *a, const struct tk_ctf_field_decl *st,
				       const char *what, const char *const *reserved,
				       size_t n_reserved, struct cw_fields *out);

/*
 * The written name of a clock or environment key: a TSDL identifier, not a keyword. NULL
 * when out of memory.
 */
char *ctf_write_ident(struct arena *a, const char *name);

/* Whether @s is a TSDL keyword. */
int ctf_write_is_keyword(const char *s);

/* ---- ctf-write-values.c ------------------------------------------------------------------- */

/*
 * Check the values @v of the scope @fs and add the bytes they take beyond the scope's fixed
 * part (fs->fixed for flat lists, 0 otherwise) to *@need. Nothing is written.
 */
enum tk_status ctf_write_measure(const struct cw_fields *fs, const struct tk_ctf_value *v,
				 uint64_t *need, struct cw_run *r);

/*
 * Write the values of @fs, which ctf_write_measure() checked, at @p in byte order @bo;
 * returns the end. r->pad is left as the padding bits after the last field written.
 */
uint8_t *ctf_write_put(uint8_t *p, const struct cw_fields *fs, const struct tk_ctf_value *v,
		       enum tk_byte_order bo, struct cw_run *r);

/*
 * Values of @fs with every integer 0 (see tk_ctf_writer_add_stream_desc()) in *@out, which
 * the caller frees. TK_ERR_INVAL when a variant has no option for a tag of 0.
 */
enum tk_status ctf_write_zero_values(const struct cw_fields *fs, struct tk_ctf_value **out);

/* ---- ctf-write-meta.c --------------------------------------------------------------------- */

/* Write the `metadata` file of @w. */
enum tk_status ctf_write_metadata(struct tk_ctf_writer *w);
enum tk_status ctf_write_metadata_at(struct tk_ctf_writer *w, int dirfd);

/* Write the index file of @s (index/NAME.idx) from its entries. */
enum tk_status ctf_write_index(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s);

/*
 * Hand the open packet of @s (@size bytes of s->buf) to the writing thread, started on first
 * use, and give @s its other buffer to fill. Waits while that buffer's own packet is still
 * being written. Without the thread, writes synchronously. TK_ERR_IO when this or an earlier
 * background write failed.
 */
enum tk_status ctf_write_io_submit(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				   size_t size);

/* Wait until the packets of @s (every stream when NULL) are written; as submit for errors. */
enum tk_status ctf_write_io_wait(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s);

/* Write what is queued and end the writing thread. */
void ctf_write_io_stop(struct tk_ctf_writer *w);

/* Write @n bytes to @fd, all of them (retrying short writes); TK_ERR_IO with a cause. */
enum tk_status ctf_write_all(int fd, const void *p, size_t n, const char *what, const char *name);

/*
 * Whether a reader whose clock is @clk gets @ts back from its low @bits bits: it takes them
 * as the new low bits and adds one wrap when they went down (reference/ctf.md section 8).
 */
static inline int short_ts_ok(uint64_t clk, uint64_t ts, unsigned int bits)
{
	uint64_t mask = (UINT64_C(1) << bits) - 1, v = ts & mask;

	if (v < (clk & mask))
		clk += mask + 1;
	return ((clk & ~mask) | v) == ts;
}

/* Bytes of the event header of class @id at time @ts after time @clk. */
static inline size_t header_size(const struct cw_sc *sc, uint64_t id, uint64_t clk, uint64_t ts)
{
	if (!sc->large)
		return id < CW_COMPACT_EXT && short_ts_ok(clk, ts, CW_COMPACT_TS_BITS) ? 4 : 13;
	return id < CW_LARGE_EXT && short_ts_ok(clk, ts, CW_LARGE_TS_BITS) ? 6 : 14;
}

/* Write the header chosen by header_size() (@hs bytes). */
static inline uint8_t *put_header(uint8_t *p, size_t hs, uint64_t id, uint64_t ts,
				  enum tk_byte_order bo)
{
	uint32_t low;

	switch (hs) {
	case 4: /* 5-bit id, then 27-bit time: first bits low (le) or high (be) */
		low = (uint32_t) ts & ((UINT32_C(1) << CW_COMPACT_TS_BITS) - 1);
		if (bo == TK_BYTE_ORDER_LE)
			tk_store_u32(p, (low << 5) | (uint32_t) id, bo);
		else
			tk_store_u32(p, ((uint32_t) id << CW_COMPACT_TS_BITS) | low, bo);
		return p + 4;
	case 13: /* id 31 in 5 bits, 3 bits of padding, then u32 id and u64 time */
		p[0] = bo == TK_BYTE_ORDER_LE ? CW_COMPACT_EXT : CW_COMPACT_EXT << 3;
		tk_store_u32(p + 1, (uint32_t) id, bo);
		tk_store_u64(p + 5, ts, bo);
		return p + 13;
	case 6:
		tk_store_u16(p, (uint16_t) id, bo);
		tk_store_u32(p + 2, (uint32_t) ts, bo);
		return p + 6;
	default:
		tk_store_u16(p, CW_LARGE_EXT, bo);
		tk_store_u32(p + 2, (uint32_t) id, bo);
		tk_store_u64(p + 6, ts, bo);
		return p + 14;
	}
}

/*
 * Note that the 32-bit ID at @pos in the open packet of @s is the provisional @id
 * (ctf_writer_add_provisional()): TK_OK, or TK_ERR_NOMEM with its cause.
 */
enum tk_status ctf_write_note_provisional(struct tk_ctf_writer_stream *s, size_t pos, uint64_t id);

/* ctf_write_event_reserve() for the cases it does not handle inline (see there). */
uint8_t *ctf_write_event_reserve_slow(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				      uint64_t ec_id, uint64_t ts, size_t body, enum tk_status *st);

/*
 * Room for one event of class @ec_id at time @ts whose event context and payload the caller
 * writes itself: @body bytes laid out exactly as tk_ctf_writer_append() would write them
 * (every field byte-aligned, integers in the writer's byte order, the last field ending on
 * a byte). Converters whose input records already have that layout (trace.dat to CTF) copy
 * them in one go. Returns where the @body bytes go, right after the event header, or NULL
 * with *@st set and nothing written. The pointer is valid until the next call on @s.
 * Inline for the common case: an open packet with room, a known class, a time not going back.
 */
static inline uint8_t *ctf_write_event_reserve(struct tk_ctf_writer *w,
					       struct tk_ctf_writer_stream *s, uint64_t ec_id,
					       uint64_t ts, size_t body, enum tk_status *st)
{
	const struct cw_sc *sc = s->sc;
	const struct cw_ec *ec;
	size_t hs;
	uint8_t *p;

	if (__builtin_expect(w->status < 0 || !s->pos || !s->has_ts || s->has_end ||
				     ts < s->clock || ec_id >= sc->ec_table.len ||
				     s->pos > w->packet_size || sc->clock == TK_CTF_WRITER_NO_CLOCK,
			     0))
		return ctf_write_event_reserve_slow(w, s, ec_id, ts, body, st);
	ec = VEC_AT(&sc->ec_table, struct cw_ec *, ec_id);
	if (__builtin_expect(!ec || ec->ctx.n, 0)) /* the slow path says why */
		return ctf_write_event_reserve_slow(w, s, ec_id, ts, body, st);
	hs = header_size(sc, ec_id, s->clock, ts);
	if (__builtin_expect(body + hs > w->packet_size - s->pos || body + hs > s->cap - s->pos, 0))
		return ctf_write_event_reserve_slow(w, s, ec_id, ts, body, st);
	if (__builtin_expect(ec_id >= CW_PROV_BASE, 0) &&
	    (*st = ctf_write_note_provisional(s, s->pos + 1, ec_id)) < 0)
		return NULL; /* a compact header's extended ID: after the 5-bit 31 and padding */
	p = put_header(s->buf + s->pos, hs, ec_id, ts, w->bo);
	s->pos = (size_t) (p - s->buf) + body;
	s->tail_pad = 0;
	s->clock = ts;
	s->disc_pkt = s->disc_total;
	return p;
}

#endif /* TK_CTF_CTF_WRITE_PRIV_H */
