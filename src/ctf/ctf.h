/* SPDX-License-Identifier: MIT */
/*
 * CTF 1.8 reader internals shared by the files of src/ctf: metadata to model (ctf-meta.c,
 * ctf-resolve.c), decode programs (ctf-prog.c), data streams and packets (ctf-stream.c) and
 * trace discovery (ctf-source.c).
 */
#ifndef TK_CTF_CTF_H
#define TK_CTF_CTF_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

#include "../common/bytes.h"
#include "../common/mfile.h"
#include "../common/vec.h"
#include "../model/model.h"
#include "tsdl.h"

struct ctf_prog;

/* What a source knows about its CTF trace (tk_source.fmt). */
struct ctf_trace {
	enum tk_byte_order bo;
	uint8_t has_major, has_minor;
	struct model_fc *packet_header;
	struct ctf_prog *header_prog;
	uint32_t n_stored; /* stored-value slots (sequence lengths, variant tags) */
	uint8_t quirk_event_after_packet;
	uint8_t quirk_barectf_event_before_packet;
	uint8_t quirk_lttng_crash;
	uint8_t ctf2;		     /* read from CTF 2 metadata (ctf2-meta.c) */
	size_t n_warnings;	     /* unknown attributes and the like, ignored like babeltrace2 */
	unsigned int metadata_flags; /* enum ctf_metadata_flag: what reading its metadata found */
	int line;		     /* of the trace block in the metadata text, 0 if none */
};

/* Event headers decoded by hand instead of by program (see ctf_header_run()). */
enum ctf_header_kind {
	CTF_HEADER_PROGRAM,
	CTF_HEADER_LTTNG_LARGE_LE,   /* 16-bit id, 32-bit or extended 64-bit time, bytes */
	CTF_HEADER_LTTNG_COMPACT_LE, /* 5-bit id, 27-bit or extended 64-bit time */
};

/* Per stream class (model_stream_class.fmt). */
struct ctf_sc {
	struct ctf_prog *pctx_prog;
	struct ctf_prog *header_prog;
	struct ctf_prog *ectx_prog;
	uint8_t header_kind; /* enum ctf_header_kind */
	int line;	     /* of its stream block (or first event block) in the metadata */
};

/*
 * Per event class (tk_event_class.fmt). The body (stream event context, event context,
 * payload) has one program marking where each scope's values start (marks 0, 1, 2). When
 * the body has a fixed layout (no strings, sequences, variants or side effects) its size is
 * known: readers can skip it and decode its values only when asked.
 */
struct ctf_static_field;
struct ctf_dec;

/* The most strings and sequences a skipped body may hold (struct ctf_ec: laid_n). */
#define CTF_LAID_MAX 8

/*
 * What ends a segment of a laid body, @off bytes into it: a string (@esize 0), or a
 * sequence of elements of @esize bytes whose length is the unsigned integer at @coff,
 * loaded as @cload (enum model_load).
 */
struct ctf_laid_seg {
	uint32_t off;
	uint32_t coff;
	uint8_t esize;
	uint8_t cload;
};

struct ctf_ec {
	struct ctf_prog *ctx_prog;
	struct ctf_prog *payload_prog;
	struct ctf_prog *body_prog;
	uint8_t body_static; /* body_bits is its size when it starts aligned to body_align */
	int8_t body_last_bo; /* byte order of its last bit field, -1 if none */
	uint32_t body_align;
	uint64_t body_bits;
	/* a static body's values at fixed offsets (ctf_static_decode()), or NULL */
	const struct ctf_static_field *fields;
	uint32_t n_fields;
	uint32_t marks[3];
	/* the same, for the model (tk_event_class.fixed), when all of it is whole bytes */
	const struct model_fixed *fixed;
	/*
	 * A body that is not static only for its NUL-terminated strings and its sequences of
	 * integers (their lengths in its own segments), all of it whole bytes with no alignment
	 * above a byte and no side effect but stored lengths (fixed set for the model with
	 * segments): the cursor skips it when it starts on a byte, segment k ending with what
	 * laid[k] says, the last one (laid_n) laid_tail bytes long.
	 */
	uint8_t laid_n;
	struct ctf_laid_seg laid[CTF_LAID_MAX];
	uint32_t laid_tail;
	int line; /* of its event block in the metadata */
};

/*
 * Decode a static body starting at @pos (aligned to cec->body_align, and known to fit) into
 * d->vals, with its scope marks: loads at offsets computed once, no checks per field.
 */
enum tk_status ctf_static_decode(const struct ctf_ec *cec, struct ctf_dec *d, uint64_t pos);

/*
 * Parse metadata text into @src: clocks, environment, stream and event classes with their
 * field classes resolved and checked, and decode programs compiled. A text starting with
 * the record separator 0x1E is CTF 2 (JSON fragments, ctf2-meta.c), any other CTF 1.8 TSDL.
 */
enum tk_status ctf_meta_build(struct tk_source *src, const char *text, size_t len);

/* The CTF 2 half of ctf_meta_build(): @text is a JSON text sequence (RFC 7464). */
enum tk_status ctf2_meta_build(struct tk_source *src, const char *text, size_t len);

/* Shared by both metadata readers (ctf-meta.c). */

/* A field class of @kind (struct ctf_fc), hidden until ctf-resolve.c shows it. */
struct model_fc *ctf_fc_new(struct arena *a, uint8_t kind, enum tk_byte_order bo);

/* A stream class being built and its event classes (struct tk_event_class *). */
struct ctf_sc_build {
	struct model_stream_class *sc;
	struct vec ecs;
};

/* A new stream class of @src pushed on @scs (struct ctf_sc_build), or NULL (no memory). */
struct ctf_sc_build *ctf_meta_new_sc(struct tk_source *src, struct vec *scs, uint64_t id, int line);

/* The stream class of @id among @scs (struct ctf_sc_build), or NULL. */
struct ctf_sc_build *ctf_meta_find_sc(struct vec *scs, uint64_t id);

/*
 * Move the clocks (struct tk_clock *), environment (struct model_env) and stream classes
 * (struct ctf_sc_build) built into arena arrays of @src, classes sorted by id.
 */
enum tk_status ctf_meta_publish(struct tk_source *src, struct vec *clocks, struct vec *env,
				struct vec *scs);

/* Post-parse passes of ctf-resolve.c, run by ctf_meta_build(). */
enum tk_status ctf_resolve_trace(struct tk_source *src);

/*
 * Deep copy of a field class tree of the CTF reader (struct ctf_fc, ctf-fc-priv.h), its
 * annotations included (aliases are copied at each use).
 */
struct model_fc *ctf_fc_copy(struct arena *a, const struct model_fc *fc);

/* What reading a metadata stream found besides its text (ctf_metadata_decode()). */
enum ctf_metadata_flag {
	CTF_METADATA_PACKETIZED = 1, /* packets (magic 0x75D11D57), not plain text */
	/*
	 * Read past something babeltrace2 warns about or may refuse: plain text without the
	 * "/ * CTF 1.8" signature, packet sizes in bits that are not whole bytes. Metadata
	 * a writer makes has none of these.
	 */
	CTF_METADATA_LENIENT = 2,
};

/*
 * Metadata file to TSDL text: plain text is returned as is; packetized metadata
 * (magic 0x75D11D57) has its packets' text concatenated. *out is malloc'ed; *@flags gets
 * the enum ctf_metadata_flag bits that apply.
 */
enum tk_status ctf_metadata_read(const char *path, char **out, size_t *len, unsigned int *flags);

/* Whether the metadata stream in @data starts like CTF metadata (text or packetized). */
int ctf_metadata_looks_valid(const uint8_t *data, size_t size);

/* The decoder state of one data stream while reading a packet (see ctf-prog.c). */
struct ctf_dec {
	const uint8_t *base; /* packet start */
	uint64_t limit;	     /* readable bits from base */
	uint64_t pos;	     /* bits from base */
	int last_bo;	     /* byte order of the last bit-field, -1 if none */
	struct model_value *vals;
	size_t nv;
	size_t cap;
	uint64_t *stored;
	uint64_t clock; /* current value of the stream's default clock */
	/* values of special fields, UINT64_MAX when absent (as babeltrace2 does) */
	uint64_t stream_class_id;
	uint64_t data_stream_id;
	uint64_t event_id;
	uint64_t ts_begin;
	uint64_t ts_end;
	uint64_t discarded;
	uint64_t seq_num;
	uint64_t packet_size;
	uint64_t content_size;
	size_t marks[4]; /* value index where each scope of an event body starts */
	uint32_t loop_depth;
	struct ctf_loop {
		uint32_t start;
		uint64_t left;
	} loops[64];
};

/*
 * Compile the body program of an event class: its stream's event context @ectx, its own
 * context @ctx and payload @payload (each may be NULL), and find whether its layout is fixed.
 * Like every ctf_prog_compile*(), only for field classes the CTF reader made and resolved
 * (struct ctf_fc, ctf-fc-priv.h): their meanings and stored-value slots are compiled in.
 */
enum tk_status ctf_prog_compile_body(struct arena *a, const struct model_fc *ectx,
				     const struct model_fc *ctx, const struct model_fc *payload,
				     struct ctf_ec *cec);

/*
 * Compile the event header program; LTTng's compact and large headers get a dedicated
 * operation. The program yields no values (headers are never shown), only the event id and
 * the clock update.
 */
enum tk_status ctf_prog_compile_header(struct arena *a, const struct model_fc *fc,
				       struct ctf_prog **out, uint8_t *kind);

/* Compile the decode program of one scope; @fc may be NULL (empty program). */
enum tk_status ctf_prog_compile(struct arena *a, const struct model_fc *fc, const char *scope,
				struct ctf_prog **out);

/*
 * Run @prog: decode one scope at d->pos, appending values to d->vals. On a format error the
 * position is unspecified and a cause names the field and bit offset.
 */
enum tk_status ctf_prog_run(const struct ctf_prog *prog, struct ctf_dec *d);

/*
 * babeltrace2: an N-bit clock field updates the low bits, assuming at most one wrap; the
 * clock after @clock reads @v in a field of @size bits.
 */
static inline uint64_t ctf_clock_next(uint64_t clock, uint64_t v, uint32_t size)
{
	uint64_t mask;

	if (size >= 64)
		return v;
	mask = (UINT64_C(1) << size) - 1;
	if (v < (clock & mask))
		clock += mask + 1;
	return (clock & ~mask) | v;
}

/* The same, on the decoder's clock. */
static inline void ctf_update_clock(struct ctf_dec *d, uint64_t v, uint32_t size)
{
	d->clock = ctf_clock_next(d->clock, v, size);
}

/*
 * Decode an event header: LTTng's little-endian compact and large headers by hand when all
 * their bytes are there, anything else (and the end of a packet) by program.
 */
static inline enum tk_status ctf_header_run(const struct ctf_sc *csc, struct ctf_dec *d)
{
	const uint8_t *p;
	uint64_t pos = (d->pos + 7) & ~(uint64_t) 7;

	if (csc->header_kind == CTF_HEADER_LTTNG_LARGE_LE && pos <= d->limit &&
	    d->limit - pos >= 112) {
		uint16_t id;

		p = d->base + (pos >> 3);
		id = tk_load_le16(p);
		if (id != 0xffff) {
			ctf_update_clock(d, tk_load_le32(p + 2), 32);
			d->event_id = id;
			d->pos = pos + 48;
		} else {
			d->event_id = tk_load_le32(p + 2);
			d->clock = tk_load_le64(p + 6);
			d->pos = pos + 112;
		}
		return TK_OK;
	}
	if (csc->header_kind == CTF_HEADER_LTTNG_COMPACT_LE && pos <= d->limit &&
	    d->limit - pos >= 104) {
		uint32_t v;

		p = d->base + (pos >> 3);
		v = tk_load_le32(p);
		d->last_bo = TK_BYTE_ORDER_LE;
		if ((v & 31) != 31) {
			ctf_update_clock(d, v >> 5, 27);
			d->event_id = v & 31;
			d->pos = pos + 32;
		} else {
			d->event_id = tk_load_le32(p + 1);
			d->clock = tk_load_le64(p + 5);
			d->pos = pos + 104;
		}
		return TK_OK;
	}
	return ctf_prog_run(csc->header_prog, d);
}

/* Release the value buffer of @d. */
void ctf_dec_fini(struct ctf_dec *d);

/* Open the data streams of a CTF trace directory (reads each file's first packet). */
enum tk_status ctf_streams_open(struct tk_source *src, const char *dir);

/*
 * Like ctf_streams_open(), for @n data files held in memory (fuzzers and tests); @names name
 * them in messages. The memory must outlive the source.
 */
enum tk_status ctf_streams_open_mem(struct tk_source *src, const char *const *names,
				    const uint8_t *const *data, const size_t *sizes, size_t n);

/*
 * The member of packet context @pc that is the CPU its packet's events were recorded on (the
 * cpu_id integer or enumeration, as LTTng and babeltrace2 name it), or -1.
 */
int64_t ctf_cpu_member(const struct model_fc *pc);

/* model_source_ops.cursor_open for CTF streams. */
enum tk_status ctf_cursor_open(struct tk_stream *stream, struct model_cursor **out);

/*
 * File @k of stream @s, in the order the stream reads them: its *@path (NULL when held in
 * memory), *@size in bytes and whether its LTTng index file was found sound (*@indexed: read,
 * consistent, and not listing packets past the end of the file; reading the stream then
 * also checks each packet against it). Returns 0, setting nothing, past the last file.
 */
int ctf_stream_file(const struct tk_stream *s, size_t k, const char **path, uint64_t *size,
		    int *indexed);

/*
 * Told by ctf_stream_read() that the bytes of file @k of the stream before @end are read and
 * sound (an @end not past what an earlier call said tells nothing new). A negative status
 * stops the reading with it.
 */
typedef enum tk_status (*ctf_read_cb)(void *payload, size_t k, uint64_t end);

/*
 * Read stream @s to its end as a conversion reads it -- the cursor's items, packet headers
 * and contexts, losses and events, fixed-size event bodies skipped rather than decoded, each
 * item no earlier than the one before -- so that it fails where the conversion would fail,
 * without values for anyone. @cb hears after each packet of a stream of one file how much of
 * it is read, and, for every stream, after the last packet that each of its files is read
 * whole: a copy writes those bytes as they are (ctf-copy.c).
 */
enum tk_status ctf_stream_read(struct tk_stream *s, ctf_read_cb cb, void *payload);

/* Free what ctf_streams_open() attached to the streams. */
void ctf_streams_close(struct tk_source *src);

/*
 * Find the CTF traces below each of @paths and open them, appending one struct tk_source *
 * per trace to @sources (directories sharing a trace UUID are one source). A directory that
 * cannot be searched is the cause of the error when no trace is found below its path, else
 * a warning for @w.
 */
enum tk_status ctf_sources_open(const char *const *paths, size_t npaths, struct vec *sources,
				const struct model_warner *w);

/* Free a source made by ctf_sources_open() or ctf_source_open_mem(). */
void ctf_source_destroy(struct tk_source *src);

/* Whether @src was made by the CTF reader (ctf_sources_open(), ctf_source_open_mem()). */
int ctf_source_is(const struct tk_source *src);

struct sink_ctx;

/*
 * The CTF-to-CTF copy (ctf-copy.c), a shortcut of tk_convert(): whether it writes @t as the
 * CTF sink's path would (one input, CTF traces each in one directory, metadata read without
 * a warning, nothing selected in @cx)...
 */
int ctf_copy_recognises(const struct tk_trace *t, const struct sink_ctx *cx);

/*
 * ... and the copy into @output, an empty directory: TK_OK; TK_AGAIN with @output empty
 * again and the error chain as it was, when the sink's path must write it instead (it
 * would refuse it, the input fails to read, or a file fails to copy); TK_ERR_CANCELED
 * with its cause when @cx says to stop.
 */
enum tk_status ctf_copy(struct tk_trace *t, const char *output, struct sink_ctx *cx);

/*
 * A source from metadata and data stream files held in memory (the fuzzers' entry point):
 * @metadata is plain or packetized metadata of @mlen bytes. Memory must outlive the source.
 */
enum tk_status ctf_source_open_mem(struct tk_source **out, const uint8_t *metadata, size_t mlen,
				   const uint8_t *const *data, const size_t *sizes, size_t n);

/*
 * Metadata stream bytes (plain text or packetized) to TSDL text, malloc'ed in *out; *@flags
 * gets the enum ctf_metadata_flag bits that apply.
 */
enum tk_status ctf_metadata_decode(const uint8_t *data, size_t size, const char *path, char **out,
				   size_t *len, unsigned int *flags);

/*
 * The CTF writer's raw-event capability, for converters whose input records already have the
 * layout tk_ctf_writer_append() would write (trace.dat to CTF): room for one event of class
 * @ec_id at time @ts whose event context and payload, @body bytes (every field byte-aligned,
 * integers in the writer's byte order), the caller copies in itself. Returns where they go,
 * right after the event header, or NULL with *@st set and nothing written; the pointer is
 * valid until the next call on @s.
 */
struct tk_ctf_writer;
struct tk_ctf_writer_stream;
struct tk_ctf_event_class_desc;

/*
 * An environment entry into the CTF writer @writer, as struct model_env_out puts it: text
 * @str, or integer @integer when @str is NULL.
 */
enum tk_status ctf_writer_put_env(void *writer, const char *key, const char *str, int64_t integer);

uint8_t *ctf_writer_event_reserve(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				  uint64_t ec_id, uint64_t ts, size_t body, enum tk_status *st);

/*
 * A writer whose streams are written by threads of their own, each stream by one thread,
 * while the caller serialises every other call (declarations, streams, the calls below)
 * under a lock of its own: made so before anything is declared, its stream classes keep a
 * table of event classes that never moves and the compact event header (what a merged
 * trace declared class by class has), and each stream's packets are written by the thread
 * that fills them.
 *
 * A shared writer takes provisional event classes: a class a thread must write events of
 * before it may learn the ID the class will have (the order of first use over the streams
 * decides IDs, and a later stream runs ahead of an earlier one). ctf_writer_add_provisional()
 * gives one an ID of its own, not declared in the metadata, once the stream class has 31
 * classes, so that the final ID takes the same header bytes; TK_AGAIN before that. Once the
 * final class is added, ctf_writer_resolve() says which it is, and
 * ctf_writer_stream_patch() writes the final IDs over the provisional ones of a stream
 * (those of the open packet in memory, the others in the file).
 *
 *	ctf_writer_share(w);			// before the first stream class
 *	lock; st = ctf_writer_add_provisional(w, sc, &desc, &prov); unlock;
 *	... events of class prov ...
 *	lock; tk_ctf_writer_add_event_class_desc(w, sc, &desc, &id);
 *	      ctf_writer_resolve(w, prov, id); ctf_writer_stream_patch(w, s); unlock;
 */
enum tk_status ctf_writer_share(struct tk_ctf_writer *w);
enum tk_status ctf_writer_add_provisional(struct tk_ctf_writer *w, uint64_t sc_id,
					  const struct tk_ctf_event_class_desc *desc,
					  uint64_t *ec_id);
void ctf_writer_resolve(struct tk_ctf_writer *w, uint64_t prov_id, uint64_t ec_id);
enum tk_status ctf_writer_stream_patch(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s);
/* How many provisional IDs stream @s holds, to put final ones over (8 bytes of memory each). */
size_t ctf_writer_stream_provisional(const struct tk_ctf_writer_stream *s);

/*
 * For a writer whose packets someone else writes (the application tracer, src/ust): fix
 * stream class @sc_id's event header to LTTng's large one (16-bit ID, 32-bit time; any
 * number of event classes) before any event, and write the `metadata` file now, again after
 * each declaration, while the writer stays open. The writer itself then writes no packet;
 * tk_ctf_writer_destroy() leaves the metadata as it is.
 */
enum tk_status ctf_writer_set_large_header(struct tk_ctf_writer *w, uint64_t sc_id);
enum tk_status ctf_writer_write_metadata(struct tk_ctf_writer *w);
/* The same metadata written into another directory, @dirfd (a snapshot of the trace). */
enum tk_status ctf_writer_write_metadata_at(struct tk_ctf_writer *w, int dirfd);

#endif /* TK_CTF_CTF_H */
