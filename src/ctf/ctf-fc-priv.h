/* SPDX-License-Identifier: MIT */
/*
 * The CTF metadata reader's field classes, private to src/ctf: a struct model_fc with what
 * only the CTF decoder needs, which the trace model (src/model/model.h) leaves out because
 * no other reader, output or writer has a use for it: the special meaning of a field
 * (magic, stream and event ids, packet times, sizes and loss counters) and the stored-value
 * slot of sequence lengths and variant tags.
 */
#ifndef TK_CTF_CTF_FC_PRIV_H
#define TK_CTF_CTF_FC_PRIV_H

#include <stdint.h>

#include "../model/model.h"

/* Fields whose value means something to the reader (CTF 1.8.3 sections 5 and 6). */
enum ctf_meaning {
	CTF_MEANING_NONE,
	CTF_MEANING_MAGIC,
	CTF_MEANING_UUID,
	CTF_MEANING_STREAM_CLASS_ID,
	CTF_MEANING_DATA_STREAM_ID,
	CTF_MEANING_PACKET_BEGIN_TIME,
	CTF_MEANING_PACKET_END_TIME,
	CTF_MEANING_DISCARDED_EVENTS,
	CTF_MEANING_PACKET_SEQ_NUM,
	CTF_MEANING_PACKET_SIZE,
	CTF_MEANING_CONTENT_SIZE,
	CTF_MEANING_EVENT_CLASS_ID,
};

/*
 * A field class of the CTF metadata reader: the model's, with what only the decoder needs.
 * Every field class of a CTF source is one (fc_new() and ctf_fc_copy() of ctf-meta.c make
 * them all), and only those reach ctf-resolve.c and ctf-prog.c, which read the annotations
 * (ctf_fc(), ctf_fc_meaning(), ctf_fc_store()) while resolving and compiling, once per
 * class: decode programs copy what they need, so the per-event path never looks here. Field classes of other readers (ftrace-model.c,
 * model_struct_of_one()) are bare struct model_fc and must never be given to ctf_fc().
 */
struct ctf_fc {
	struct model_fc fc; /* first: a struct model_fc * of a CTF source points here */
	int32_t store;	    /* slot of the stored-values array the value is copied to, or -1 */
	uint8_t meaning;    /* enum ctf_meaning */
};

/*
 * The CTF field class whose model part @fc is (C11 6.7.2.1: a structure and its first
 * member share their address); only for the CTF reader's field classes (struct ctf_fc).
 */
static inline struct ctf_fc *ctf_fc(struct model_fc *fc)
{
	return (struct ctf_fc *) fc;
}

static inline enum ctf_meaning ctf_fc_meaning(const struct model_fc *fc)
{
	return (enum ctf_meaning)((const struct ctf_fc *) fc)->meaning;
}

static inline int32_t ctf_fc_store(const struct model_fc *fc)
{
	return ((const struct ctf_fc *) fc)->store;
}

#endif /* TK_CTF_CTF_FC_PRIV_H */
