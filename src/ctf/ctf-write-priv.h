/* SPDX-License-Identifier: MIT */
/*
 * CTF 1.8 writer internals shared by ctf-write.c (API, packets, events) and ctf-write-meta.c
 * (declarations, names, TSDL metadata text, index files).
 *
 * Declarations are compiled once into struct cw_field arrays: a write operation per field
 * and, per field list, the bytes every event takes plus the few fields (strings, arrays,
 * sequences) whose values must be checked and measured per event. The per-event path then
 * only walks these arrays.
 */
#ifndef TK_CTF_CTF_WRITE_PRIV_H
#define TK_CTF_CTF_WRITE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/ctf-writer.h>

#include "../common/arena.h"
#include "../common/bytes.h"
#include "../common/vec.h"

/* Bytes of the packet header and context (tk_ctf_writer.h lists their fields). */
#define CW_PACKET_HEADER_SIZE  32
#define CW_PACKET_CONTEXT_SIZE 52
#define CW_PACKET_PREFIX       (CW_PACKET_HEADER_SIZE + CW_PACKET_CONTEXT_SIZE)
#define CW_INDEX_ENTRY_SIZE    72
#define CW_CTF_MAGIC	       UINT32_C(0xC1FC1FC1)
#define CW_INDEX_MAGIC	       UINT32_C(0xC1F1DCC1)

/* LTTng event headers: ids that mean "extended", and the bits of the short timestamp. */
#define CW_COMPACT_EXT	   31
#define CW_COMPACT_TS_BITS 27
#define CW_LARGE_EXT	   65535
#define CW_LARGE_TS_BITS   32

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
	CW_OP_ARRAY,
	CW_OP_SEQUENCE,
};

struct cw_field {
	const char *name;     /* as written in the metadata */
	const char *len_name; /* sequences: the written name of their length member */
	uint8_t op;	      /* enum cw_op */
	uint8_t kind;	      /* enum tk_ctf_field_kind */
	uint8_t bits;	      /* integers and floats; elements of arrays and sequences */
	uint8_t is_signed;
	uint8_t base;
	uint8_t elem_kind; /* arrays and sequences: INT or CHAR */
	uint8_t in_bytes;  /* bytes of one element in the caller's array: 1, 2, 4 or 8 */
	uint8_t out_bytes; /* bytes one integer or element takes in the trace */
	uint64_t array_len;
};

struct cw_fields {
	struct cw_field *f;
	uint32_t n;
	uint32_t n_var;
	uint32_t *var; /* indexes of the strings, arrays and sequences (checked per event) */
	size_t fixed;  /* bytes of everything but string texts and sequence elements */
	/*
	 * Padding bits after the last field's last bit, up to the byte boundary (a 12-bit
	 * integer ends 4 bits before the next byte). When the last field is a sequence, only if
	 * it has elements in the event (tail_seq).
	 */
	uint8_t tail_pad;
	uint8_t tail_seq;
};

struct cw_io;

struct cw_clock {
	const char *name; /* a TSDL identifier */
	const char *description;
	uint64_t freq;
	int64_t offset_s;
	uint64_t offset_cycles;
	int absolute;
};

struct cw_env {
	const char *key; /* a TSDL identifier */
	const char *str; /* NULL for integers */
	int64_t integer;
};

struct cw_ec {
	const char *name;
	int loglevel; /* negative: none */
	struct cw_fields fields;
};

struct cw_sc {
	uint64_t id;
	uint64_t clock;
	uint8_t frozen; /* events written: header kind fixed, context fixed */
	uint8_t large;	/* event_header_large instead of event_header_compact */
	struct cw_fields ctx;
	struct vec ecs; /* struct cw_ec *, by id */
	uint64_t n_streams;
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
	uint8_t *spare;	     /* the other buffer: free, or its packet queued for writing */
	size_t spare_cap;    /* its size */
	int io_busy;	     /* the spare's packet is not written yet (under the I/O lock) */
	size_t pos;	     /* bytes used in the open packet; 0 when none is open */
	uint8_t tail_pad;    /* the last event ends this many bits before pos */
	uint64_t clock;	     /* the reader's clock value after the last event (or packet start) */
	uint64_t ts_begin;   /* of the open packet */
	uint8_t has_ts;	     /* an event was written: clock and last times are set */
	uint64_t disc_total; /* events lost so far */
	uint64_t disc_pkt;   /* losses the open packet accounts for (up to its last event) */
	uint64_t seq;	     /* packets written */
	uint64_t offset;     /* file offset of the next packet */
	struct vec index;    /* CW_INDEX_ENTRY_SIZE-byte big-endian entries */
};

struct tk_ctf_writer {
	int dirfd;
	int index_dirfd; /* -1 without index files */
	char *dir;
	enum tk_byte_order bo;
	size_t packet_size;
	uint8_t uuid[16];
	enum tk_status status; /* first I/O error: events are refused after it */
	struct arena arena;    /* names and compiled declarations */
	struct vec env;	       /* struct cw_env */
	struct vec clocks;     /* struct cw_clock */
	struct vec scs;	       /* struct cw_sc * */
	struct vec streams;    /* struct tk_ctf_writer_stream * */
	struct cw_io *io;      /* the thread writing packets (ctf-write-io.c), or NULL */
	int io_failed;	       /* it could not start: packets are written synchronously */
};

/*
 * Compile @n declarations into @out (memory from @a): written names per the rules of
 * tk_ctf_writer.h, write operations, the fixed size and the list of fields to check per
 * event. @what names the list in causes ("payload of event class X").
 */
enum tk_status ctf_write_fields_compile(struct arena *a, const struct tk_ctf_field_decl *d,
					size_t n, const char *what, struct cw_fields *out);

/*
 * The written name of a clock or environment key: a TSDL identifier, not a keyword. NULL
 * when out of memory.
 */
char *ctf_write_ident(struct arena *a, const char *name);

/* Whether @s is a TSDL keyword. */
int ctf_write_is_keyword(const char *s);

/* Write the `metadata` file of @w. */
enum tk_status ctf_write_metadata(struct tk_ctf_writer *w);

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
	size_t hs;
	uint8_t *p;

	if (__builtin_expect(w->status < 0 || !s->pos || !s->has_ts || ts < s->clock ||
				     ec_id >= sc->ecs.len || s->pos > w->packet_size,
			     0))
		return ctf_write_event_reserve_slow(w, s, ec_id, ts, body, st);
	hs = header_size(sc, ec_id, s->clock, ts);
	if (__builtin_expect(body + hs > w->packet_size - s->pos || body + hs > s->cap - s->pos, 0))
		return ctf_write_event_reserve_slow(w, s, ec_id, ts, body, st);
	p = put_header(s->buf + s->pos, hs, ec_id, ts, w->bo);
	s->pos = (size_t) (p - s->buf) + body;
	s->tail_pad = 0;
	s->clock = ts;
	s->disc_pkt = s->disc_total;
	return p;
}

#endif /* TK_CTF_CTF_WRITE_PRIV_H */
