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
	size_t pos;	      /* bytes used in the open packet; 0 when none is open */
	uint8_t tail_pad;     /* the last event ends this many bits before pos */
	uint64_t clock;	      /* the reader's clock value after the last event (or packet start) */
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
	struct vec streams; /* struct tk_ctf_writer_stream * */
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

/* Write the index file of @s (index/NAME.idx) from its entries. */
enum tk_status ctf_write_index(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s);

/* Write @n bytes to @fd, all of them (retrying short writes); TK_ERR_IO with a cause. */
enum tk_status ctf_write_all(int fd, const void *p, size_t n, const char *what, const char *name);

#endif /* TK_CTF_CTF_WRITE_PRIV_H */
