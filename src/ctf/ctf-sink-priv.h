/* SPDX-License-Identifier: MIT */
/*
 * The CTF sink's state (ctf-sink.c), shared with its lanes (ctf-sink-lane.c: streams written
 * by threads, ctf_sink_share() in ctf-sink.h). Private to src/ctf.
 */
#ifndef TK_CTF_CTF_SINK_PRIV_H
#define TK_CTF_CTF_SINK_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/tracekit.h>

#include "../common/arena.h"
#include "../model/model.h"
#include "../model/sink.h"

/* Bytes of a cache line, at least: what threads write apart stays apart. */
#define CC_LINE 64

struct cc_par;

/* What a length or tag refers to: its field class, and its value in the current event. */
struct cc_len {
	const struct model_fc *fc;
	uint64_t value;
};

/*
 * One source: the writer of its output trace (shared by every source when merged), and the
 * IDs its clocks and stream classes have there.
 */
struct cc_out {
	const struct tk_source *src;
	struct tk_ctf_writer *w;
	uint64_t *clock_ids; /* by the source's clock index */
	/* by the source's stream class index: */
	uint64_t *sc_ids; /* UINT64_MAX until declared (merged: when first needed) */
	const struct tk_ctf_field_decl **sc_ctx; /* the event context declared */
	uint8_t *sc_cpu;			 /* the writer's cpu_id is the packet context */
};

/* Bytes of a cache line, at least: what threads write apart stays apart. */
#define CC_LINE 64

/* A stream of the input, as written. */
struct cc_stream {
	/* a cache line of its own: streams on threads write theirs at every event */
	_Alignas(CC_LINE) struct cc_out *out;
	struct tk_ctf_writer_stream *ws;
	uint64_t last;	   /* clock value of the last event written, or of the last loss */
	uint8_t *pctx_key; /* the packet-context values last set, serialized */
	size_t pctx_key_len;
	int has_pctx;	  /* its class has packet-context fields readers show */
	int64_t missed;	  /* events lost before dropped events (tk_event.missed), not written yet */
	uint64_t last_ev; /* clock value of the last event written */
	size_t sci;	  /* the index of its stream class in its source */
};

struct cc {
	struct arena arena; /* declarations */
	struct cc_out *outs;
	size_t n_outs;
	struct cc_stream *streams; /* by the trace's stream index */
	size_t n_streams;
	struct tk_ctf_value *vals; /* values of one scope of the current event */
	size_t cap;
	size_t n;
	struct cc_len lens[64]; /* lengths of text sequences seen in the current scope */
	size_t n_lens;
	uint8_t *key; /* packet-context values of the current event, serialized */
	size_t key_len, key_cap;
	struct sink_ctx *filter;
	enum tk_status err;  /* a failure met in the notice callback */
	int merged;	     /* one trace for every source, times in nanoseconds */
	const char *own_ref; /* the length member declared just before (own_length()) */
	int int_tags;	     /* the scope being declared has variants selected by plain integers */
	/* by the trace's event class index: */
	uint64_t *ec_ids;			 /* CTF IDs; merged: UINT64_MAX until first met */
	uint8_t *ec_common;			 /* where its common fields go (enum cc_common) */
	const struct tk_ctf_field_decl **ec_ctx; /* the context and payload declared */
	const struct tk_ctf_field_decl **ec_pay;
	int64_t time_base; /* merged: the ns of clock value 0 */
	struct tk_trace *t;
	/* streams on threads (ctf_sink_share()): the sink's, and each thread's lane */
	struct cc_par *par;
	struct cc *main; /* a lane: the sink, which declares; NULL for the sink itself */
	size_t at;	 /* a lane: the stream it writes */
	size_t *pending; /* a lane: classes of provisional IDs, in the order first met */
	size_t n_pending;
};

/* @n zeroed bytes on a cache line of their own (free() releases them), or NULL. */
void *ctf_sink_line_alloc(size_t n);

/* Open the output stream of input stream @is (merged: with its class, when first needed). */
enum tk_status ctf_sink_open_stream(struct cc *c, struct cc_stream *s, const struct tk_stream *is,
				    const struct tk_event *ev);

/*
 * Declare event class @ec of @o's source, or with @prov, as a provisional class of a shared
 * writer, its ID in *@prov (TK_AGAIN when not yet possible, ctf_writer_add_provisional()).
 */
enum tk_status ctf_sink_declare_ec(struct cc *c, struct cc_out *o, const struct tk_event_class *ec,
				   uint64_t *prov);

/* ctf-sink-lane.c: a lane opens its stream, and learns a class's ID, in the order of streams */
enum tk_status ctf_sink_lane_open_stream(struct cc *c, struct cc_stream *s,
					 const struct tk_stream *is, const struct tk_event *ev);
enum tk_status ctf_sink_lane_class(struct cc *c, struct cc_stream *s,
				   const struct tk_event_class *ec);

/* The sink declared class @k as @id: the writer learns it for the class's provisional ID. */
void ctf_sink_lane_declared(struct cc *c, size_t k, uint64_t id);

/* Free what ctf_sink_share() made (NULL: nothing). */
void ctf_sink_par_free(struct cc_par *p);

#endif /* TK_CTF_CTF_SINK_PRIV_H */
