/* SPDX-License-Identifier: MIT */
/*
 * The CTF writer's sink (ctf_sink, src/model/sink.h) in two steps, for a shortcut that
 * writes some events' bytes itself (the trace.dat copy plans of src/pipeline/dat-to-ctf.c)
 * and leaves the rest to the sink:
 *
 *	st = ctf_sink.open(&state, t, dir, cx);
 *	per event:
 *		st = ctf_sink_place(state, ev, &at);	// classes, stream, losses, time
 *		once per class: ctf_sink_decl(state, ev, &decl);
 *		p = ctf_writer_event_reserve(at.w, at.ws, at.ec_id, at.ts, size, &st);
 *		... the scopes as decl.stream_context, decl.context and decl.payload declare
 *		them, or: st = ctf_sink_write(state, ev, &at);
 *	st = ctf_sink.close(state, st);
 *
 * What the sink declares for a class is its choice alone (ctf-sink.c): a shortcut reads the
 * declarations it gets and writes nothing they do not say.
 */
#ifndef TK_CTF_CTF_SINK_H
#define TK_CTF_CTF_SINK_H

#include <stdint.h>

#include <tracekit/tracekit.h>

#include "../model/model.h"

/* Where an event goes: the writer, its stream, the CTF event class ID, the clock value. */
struct ctf_sink_at {
	struct tk_ctf_writer *w;
	struct tk_ctf_writer_stream *ws;
	uint64_t ec_id;
	uint64_t ts;
};

/*
 * How an event class is written: the declarations of its scopes (each a structure, or NULL
 * when absent). @common_in_stream: the stream's event context is the class's common fields
 * (tk_event_class.common), and the class's own context follows in @context.
 */
struct ctf_sink_decl {
	const struct tk_ctf_field_decl *stream_context;
	const struct tk_ctf_field_decl *context;
	const struct tk_ctf_field_decl *payload;
	int common_in_stream;
};

/*
 * Make ready to write @ev (one the filter kept): declare its stream class, event class and
 * stream when first met, set its packet context, write the losses before it, and fill @at.
 * Nothing of @ev is written yet: write it by @at, or with ctf_sink_write().
 */
enum tk_status ctf_sink_place(void *state, const struct tk_event *ev, struct ctf_sink_at *at);

/* How @ev's class and stream are declared; @ev was placed (ctf_sink_place()) before. */
void ctf_sink_decl(void *state, const struct tk_event *ev, struct ctf_sink_decl *d);

/* Write @ev at @at (from ctf_sink_place()) from its decoded values. */
enum tk_status ctf_sink_write(void *state, const struct tk_event *ev, const struct ctf_sink_at *at);

/*
 * Streams written by threads, each stream by one, with the bytes the streams one after the
 * other give (ctf-sink-lane.c, struct cc_par, says how): for one merged trace of one source of one
 * stream class, nothing written yet; TK_AGAIN when the sink is not such. Each thread takes a
 * lane of its own, and writes the events and losses of one stream after another, streams
 * taken in the order of their index, with ctf_sink_place(), ctf_sink_decl(),
 * ctf_sink_write() and the sink's notice method called on its lane:
 *
 *	st = ctf_sink_share(state);			// then the threads:
 *	lane = ctf_sink_lane_create(state);
 *	per stream i, in increasing order of i over the threads:
 *		ctf_sink_lane_begin(lane, i);
 *		... its events; now and then: st = ctf_sink_lane_poll(lane);
 *		st = ctf_sink_lane_end(lane, st);	// waits for the streams before i
 *	ctf_sink_lane_destroy(lane);
 *	st = ctf_sink.close(state, st);			// once every thread is done
 *
 * A failure in any lane makes the others fail with TK_ERR_CANCELED; the sink must then be
 * closed with the failure (and what it wrote removed). Lanes wait on each other, so every
 * stream must be taken by a running thread, up to its end.
 */
enum tk_status ctf_sink_share(void *state);
void *ctf_sink_lane_create(void *state); /* NULL when out of memory */
void ctf_sink_lane_begin(void *lane, size_t stream);
enum tk_status ctf_sink_lane_poll(void *lane);
enum tk_status ctf_sink_lane_end(void *lane, enum tk_status st);
void ctf_sink_lane_destroy(void *lane);

/*
 * Where the sink writes a CTF source @src of a trace of @n_sources sources read from
 * @inputs: OUTPUT/PATH, PATH being its directory relative to the input that holds it ("" for
 * the input itself), or its directory's last name when no input holds it or several sources
 * would share OUTPUT. The CTF copy (ctf-copy.c) puts its copy there too. Returned allocated;
 * NULL when out of memory.
 */
char *ctf_sink_out_dir(const struct tk_source *src, const char *const *inputs, size_t n_inputs,
		       const char *output, size_t n_sources);

#endif /* TK_CTF_CTF_SINK_H */
