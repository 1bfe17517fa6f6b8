// SPDX-License-Identifier: MIT
/*
 * The CTF sink's streams written by threads, each stream by one (ctf_sink_share() and the
 * lanes of ctf-sink.h), for the trace.dat-to-CTF shortcut's CPUs on threads
 * (src/pipeline/dat-to-ctf.c). Apart from ctf-sink.c, whose state (ctf-sink-priv.h) a lane
 * copies: its scratch values and the class IDs it knows are its own, the streams, the
 * writer and the declarations are the sink's, under the lock of struct cc_par.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "ctf-sink-priv.h"
#include "ctf-sink.h"
#include "ctf.h"

/*
 * The sink's streams written by threads (ctf_sink_share()), under one lock. The output must
 * be what the streams one after the other give, and what one stream writes depends on the
 * streams before it only through the order of first use: stream IDs in the order streams
 * open, event class IDs (and so their event headers) in the order classes are first met,
 * stream after stream. So a stream opens once every stream before it opened or ended; the
 * first stream not ended (the head) declares the classes it meets; another stream's thread
 * takes the ID of a class declared already, else a provisional ID (ctf_writer_share(),
 * waiting until the header of a final ID cannot be shorter), and puts the final IDs over
 * the provisional ones once its stream is the head: the classes it met first are declared
 * then, in the order it met them, as they would have been.
 */
enum cc_stage {
	CC_STAGE_WAITING, /* not open yet */
	CC_STAGE_OPEN,
	CC_STAGE_ENDED,
};

struct cc_par {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* a stream opened or ended, a class declared, a failure */
	uint8_t *stage;	     /* by the trace's stream index: enum cc_stage */
	size_t head;	     /* the first stream not ended */
	uint64_t *prov;	     /* by event class index: its provisional ID, or UINT64_MAX */
	int failed;
};

/*
 * A lane: declare the classes of its provisional IDs not declared yet, in the order it met
 * them, and put the final IDs in its stream. Its stream is the head; the lock is held.
 */
static enum tk_status lane_settle(struct cc *c)
{
	struct cc *m = c->main;
	struct cc_stream *s = &m->streams[c->at];
	enum tk_status st = TK_OK;
	size_t i, k;

	for (i = 0; i < c->n_pending && st >= 0; i++) {
		k = c->pending[i];
		if (m->ec_ids[k] == UINT64_MAX)
			st = ctf_sink_declare_ec(m, s->out, m->t->ecs[k], NULL);
		c->ec_ids[k] = m->ec_ids[k];
	}
	if (st >= 0 && c->n_pending && s->ws)
		st = ctf_writer_stream_patch(s->out->w, s->ws);
	c->n_pending = 0;
	return st;
}

/* Open stream @s of a lane once the streams before it opened or ended (they open first). */
enum tk_status ctf_sink_lane_open_stream(struct cc *c, struct cc_stream *s,
					 const struct tk_stream *is, const struct tk_event *ev)
{
	struct cc_par *p = c->par;
	enum tk_status st;
	size_t j;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		for (j = p->head; j < is->index && p->stage[j] != CC_STAGE_WAITING; j++)
			;
		if (p->failed || j == is->index)
			break;
		pthread_cond_wait(&p->cond, &p->lock);
	}
	st = p->failed ? TK_ERR_CANCELED : ctf_sink_open_stream(c->main, s, is, ev);
	if (st >= 0)
		p->stage[is->index] = CC_STAGE_OPEN;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return st;
}

/*
 * The ID of class @ec for a lane writing @s: the class's own when declared, declared now when
 * the lane's stream is the head, else a provisional one (waiting until one may be given).
 */
enum tk_status ctf_sink_lane_class(struct cc *c, struct cc_stream *s,
				   const struct tk_event_class *ec)
{
	struct cc *m = c->main;
	struct cc_par *p = c->par;
	size_t k = ec->index;
	enum tk_status st = TK_OK;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		if (p->failed) {
			st = TK_ERR_CANCELED;
			break;
		}
		if (m->ec_ids[k] != UINT64_MAX) {
			c->ec_ids[k] = m->ec_ids[k];
			break;
		}
		if (p->head == c->at) { /* the classes met before it first */
			st = lane_settle(c);
			if (st >= 0)
				st = ctf_sink_declare_ec(m, s->out, ec, NULL);
			c->ec_ids[k] = m->ec_ids[k];
			pthread_cond_broadcast(&p->cond);
			break;
		}
		if (p->prov[k] == UINT64_MAX) {
			st = ctf_sink_declare_ec(m, s->out, ec, &p->prov[k]);
			if (st == TK_AGAIN) {
				st = TK_OK;
				pthread_cond_wait(&p->cond, &p->lock);
				continue;
			}
			if (st < 0)
				break;
		}
		c->ec_ids[k] = p->prov[k];
		c->pending[c->n_pending++] = k; /* met once: a class is pending once */
		break;
	}
	if (st >= 0) {
		c->ec_ctx[k] = m->ec_ctx[k];
		c->ec_pay[k] = m->ec_pay[k];
	}
	pthread_mutex_unlock(&p->lock);
	return st;
}

void ctf_sink_lane_declared(struct cc *c, size_t k, uint64_t id)
{
	if (c->par->prov[k] != UINT64_MAX)
		ctf_writer_resolve(c->outs[0].w, c->par->prov[k], id);
}

void ctf_sink_par_free(struct cc_par *p)
{
	if (!p)
		return;
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	free(p->stage);
	free(p->prov);
	free(p);
}

enum tk_status ctf_sink_share(void *state)
{
	struct cc *c = state;
	struct cc_par *p;
	size_t i;

	/* one merged trace of one source with one stream class, nothing written yet */
	if (c->par || !c->merged || c->n_outs != 1 || c->t->n_sources != 1 ||
	    c->t->sources[0]->n_scs != 1 || c->outs[0].sc_ids[0] != UINT64_MAX)
		return TK_AGAIN;
	p = calloc(1, sizeof(*p));
	if (!p)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to CTF");
	p->stage = calloc(c->n_streams + 1, sizeof(*p->stage));
	p->prov = malloc((c->t->n_ecs + 1) * sizeof(*p->prov));
	if (!p->stage || !p->prov || pthread_mutex_init(&p->lock, NULL)) {
		free(p->stage);
		free(p->prov);
		free(p);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to CTF");
	}
	if (pthread_cond_init(&p->cond, NULL)) {
		pthread_mutex_destroy(&p->lock);
		free(p->stage);
		free(p->prov);
		free(p);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot convert to CTF");
	}
	for (i = 0; i <= c->t->n_ecs; i++)
		p->prov[i] = UINT64_MAX;
	c->par = p;
	return ctf_writer_share(c->outs[0].w);
}

void *ctf_sink_lane_create(void *state)
{
	struct cc *m = state, *c = ctf_sink_line_alloc(sizeof(*c));
	size_t i, n = m->t->n_ecs + 1;

	if (!c)
		return NULL;
	*c = *m; /* the shared parts; the scratch and the class IDs are the lane's own */
	arena_init(&c->arena);
	c->vals = NULL;
	c->cap = c->n = c->n_lens = 0;
	c->key = NULL;
	c->key_len = c->key_cap = 0;
	c->err = TK_OK;
	c->main = m;
	c->n_pending = 0;
	c->ec_ids = malloc(n * sizeof(*c->ec_ids));
	c->ec_ctx = calloc(n, sizeof(*c->ec_ctx));
	c->ec_pay = calloc(n, sizeof(*c->ec_pay));
	c->pending = malloc(n * sizeof(*c->pending));
	if (!c->ec_ids || !c->ec_ctx || !c->ec_pay || !c->pending) {
		ctf_sink_lane_destroy(c);
		return NULL;
	}
	for (i = 0; i < n; i++)
		c->ec_ids[i] = UINT64_MAX;
	return c;
}

void ctf_sink_lane_begin(void *lane, size_t stream)
{
	struct cc *c = lane;

	c->at = stream;
	c->err = TK_OK;
}

/*
 * Provisional IDs a lane may hold at once (8 bytes each): past them, it waits to be the head,
 * so that memory stays flat whatever the trace.
 */
#define CC_MAX_PROVISIONAL (1u << 20)

enum tk_status ctf_sink_lane_poll(void *lane)
{
	struct cc *c = lane;
	struct cc_par *p = c->par;
	struct cc_stream *s = &c->streams[c->at];
	enum tk_status st = TK_OK;
	size_t i;

	if (!c->n_pending)
		return TK_OK;
	pthread_mutex_lock(&p->lock);
	/* classes an earlier stream declared since: their final IDs from now on */
	for (i = 0; i < c->n_pending; i++)
		if (c->main->ec_ids[c->pending[i]] != UINT64_MAX)
			c->ec_ids[c->pending[i]] = c->main->ec_ids[c->pending[i]];
	if (s->ws && ctf_writer_stream_provisional(s->ws) >= CC_MAX_PROVISIONAL)
		while (!p->failed && p->head != c->at)
			pthread_cond_wait(&p->cond, &p->lock);
	if (p->failed)
		st = TK_ERR_CANCELED;
	else if (p->head == c->at)
		st = lane_settle(c);
	pthread_mutex_unlock(&p->lock);
	return st;
}

enum tk_status ctf_sink_lane_end(void *lane, enum tk_status st)
{
	struct cc *c = lane;
	struct cc_par *p = c->par;

	if (st >= 0 && c->err < 0)
		st = c->err;
	pthread_mutex_lock(&p->lock);
	while (st >= 0 && !p->failed && p->head != c->at)
		pthread_cond_wait(&p->cond, &p->lock);
	if (st >= 0 && p->failed)
		st = TK_ERR_CANCELED;
	if (st >= 0)
		st = lane_settle(c);
	if (st >= 0) {
		p->stage[c->at] = CC_STAGE_ENDED;
		p->head++;
	} else {
		p->failed = 1;
	}
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return st;
}

void ctf_sink_lane_destroy(void *lane)
{
	struct cc *c = lane;

	if (!c)
		return;
	free(c->ec_ids);
	free(c->ec_ctx);
	free(c->ec_pay);
	free(c->pending);
	free(c->vals);
	free(c->key);
	arena_fini(&c->arena);
	free(c);
}
