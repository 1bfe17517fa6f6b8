// SPDX-License-Identifier: MIT
/*
 * Trace model helpers: clock arithmetic, event class lookup, and the indexing done once all
 * sources of a trace are open (dense numbering, and the ranks that make the time-ordered merge
 * break ties exactly like babeltrace2's muxer).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "model.h"

#define NS_PER_S INT64_C(1000000000)

/* Cycles to ns without offset; babeltrace2 scales in double precision (match it exactly). */
static uint64_t clock_cycles_to_ns(uint64_t freq, uint64_t cycles)
{
	double ns;

	if (freq == UINT64_C(1000000000))
		return cycles;
	ns = (1e9 * (double) cycles) / (double) freq;
	if (ns >= (double) UINT64_MAX)
		return UINT64_MAX;
	return (uint64_t) ns;
}

void model_clock_finish(struct tk_clock *clock)
{
	clock->fast_cycles = 0;
	if (clock->freq == 0)
		clock->freq = 1;
	if (clock->offset_cycles >= clock->freq) {
		uint64_t s = clock->offset_cycles / clock->freq;

		clock->offset_cycles -= s * clock->freq;
		/* whole seconds beyond the int64 range cannot be represented in ns anyway */
		if (s > (uint64_t) INT64_MAX ||
		    __builtin_add_overflow(clock->offset_s, (int64_t) s, &clock->offset_s)) {
			clock->base_overflows = 1;
			clock->base_ns = 0;
			return;
		}
	}
	clock->base_overflows = 0;
	if (clock->offset_s <= INT64_MIN / NS_PER_S - 1 ||
	    clock->offset_s >= INT64_MAX / NS_PER_S - 1) {
		clock->base_overflows = 1;
		clock->base_ns = 0;
		return;
	}
	clock->base_ns = clock->offset_s * NS_PER_S +
			 (int64_t) clock_cycles_to_ns(clock->freq, clock->offset_cycles);
	if (clock->freq == UINT64_C(1000000000) && clock->base_ns >= 0)
		clock->fast_cycles = (uint64_t) (INT64_MAX - clock->base_ns);
}

int model_clock_ns(const struct tk_clock *clock, uint64_t cycles, int64_t *ns)
{
	uint64_t v;
	int64_t base = clock->base_ns;

	if (clock->base_overflows)
		return -1;
	v = clock->freq == UINT64_C(1000000000) ? cycles : clock_cycles_to_ns(clock->freq, cycles);
	if (v >= (uint64_t) INT64_MAX)
		return -1;
	if (base > 0 && (int64_t) v > INT64_MAX - base)
		return -1;
	*ns = base + (int64_t) v;
	return 0;
}

struct tk_event_class *model_stream_class_find_ec(const struct model_stream_class *sc, uint64_t id)
{
	size_t lo = 0, hi = sc->n_ecs;

	if (id < sc->n_ec_table && sc->ec_table[id])
		return sc->ec_table[id];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t mid_id = sc->ecs[mid]->id;

		if (mid_id == id)
			return sc->ecs[mid];
		if (mid_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Event classes are looked up by ID for every event: when IDs are small, a direct table
 * replaces the binary search. CTF IDs count from 0; ftrace IDs are the kernel's, in the
 * hundreds or low thousands even when a file holds a handful of events, hence the fixed
 * allowance of 4096 entries (32 KiB).
 */
enum tk_status model_stream_class_index(struct model_stream_class *sc, struct arena *a)
{
	uint64_t max = 0;
	size_t i;

	if (sc->ec_table || !sc->n_ecs)
		return TK_OK;
	/* the table covers the small IDs; the few large ones are still found by search */
	for (i = 0; i < sc->n_ecs; i++)
		if (sc->ecs[i]->id > max && sc->ecs[i]->id <= 8 * sc->n_ecs + 4096)
			max = sc->ecs[i]->id;
	sc->ec_table = arena_alloc(a, (size_t) (max + 1) * sizeof(*sc->ec_table));
	if (!sc->ec_table)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot index event classes");
	for (i = 0; i < sc->n_ecs; i++)
		if (sc->ecs[i]->id <= max)
			sc->ec_table[sc->ecs[i]->id] = sc->ecs[i];
	sc->n_ec_table = (size_t) max + 1;
	return TK_OK;
}

enum tk_status model_stream_class_append(struct model_stream_class *sc, struct arena *a,
					 struct tk_event_class *const *ecs, size_t n)
{
	struct tk_event_class **all;

	if (!n)
		return TK_OK;
	all = arena_alloc(a, (sc->n_ecs + n + 1) * sizeof(*all));
	if (!all)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add event classes");
	if (sc->n_ecs)
		memcpy(all, sc->ecs, sc->n_ecs * sizeof(*all));
	memcpy(all + sc->n_ecs, ecs, n * sizeof(*all));
	sc->ecs = all;
	sc->n_ecs += n;
	sc->ec_table = NULL; /* made again with the new IDs */
	sc->n_ec_table = 0;
	return model_stream_class_index(sc, a);
}

static int cmp_nullable_str(const char *a, const char *b)
{
	if (a && b)
		return strcmp(a, b);
	if (!a && b)
		return -1;
	if (a && !b)
		return 1;
	return 0;
}

/* babeltrace2 muxer: a trace with a UUID sorts before one without; then the UUID bytes. */
static int cmp_stream_major(const void *pa, const void *pb)
{
	const struct tk_stream *a = *(const struct tk_stream *const *) pa;
	const struct tk_stream *b = *(const struct tk_stream *const *) pb;
	int r;

	if (a->source->has_uuid != b->source->has_uuid)
		return a->source->has_uuid ? -1 : 1;
	if (a->source->has_uuid) {
		r = memcmp(a->source->uuid, b->source->uuid, 16);
		if (r)
			return r;
	}
	r = cmp_nullable_str(a->source->name, b->source->name);
	if (r)
		return r;
	if (a->sc->id != b->sc->id)
		return a->sc->id < b->sc->id ? -1 : 1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return 0;
}

static int cmp_stream_minor(const void *pa, const void *pb)
{
	const struct tk_stream *a = *(const struct tk_stream *const *) pa;
	const struct tk_stream *b = *(const struct tk_stream *const *) pb;
	int r = cmp_nullable_str(a->path, b->path);

	if (r)
		return r;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_event_class(const void *pa, const void *pb)
{
	const struct tk_event_class *a = *(const struct tk_event_class *const *) pa;
	const struct tk_event_class *b = *(const struct tk_event_class *const *) pb;
	int r;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	r = cmp_nullable_str(a->name, b->name);
	if (r)
		return r;
	if (a->has_loglevel && b->has_loglevel) {
		if (a->loglevel != b->loglevel)
			return a->loglevel < b->loglevel ? -1 : 1;
	} else if (a->has_loglevel != b->has_loglevel) {
		return a->has_loglevel ? -1 : 1;
	}
	return cmp_nullable_str(a->emf_uri, b->emf_uri);
}

enum tk_status model_trace_finish(struct tk_trace *trace)
{
	size_t i, j, k, ns = 0, ne = 0;
	struct tk_stream **sorted = NULL;
	struct tk_event_class **esorted = NULL;

	for (i = 0; i < trace->n_sources; i++) {
		struct tk_source *src = trace->sources[i];

		ns += src->n_streams;
		for (j = 0; j < src->n_scs; j++)
			ne += src->scs[j]->n_ecs;
	}
	if (ns >= (1u << 20) || ne >= (1u << 19))
		return TK_FAIL(
			TK_ERR_UNSUPPORTED,
			"Cannot index trace: streams=%zu, event-classes=%zu, reason=too many", ns,
			ne);
	trace->streams = calloc(ns ? ns : 1, sizeof(*trace->streams));
	trace->ecs = calloc(ne ? ne : 1, sizeof(*trace->ecs));
	sorted = calloc(ns ? ns : 1, sizeof(*sorted));
	esorted = calloc(ne ? ne : 1, sizeof(*esorted));
	if (!trace->streams || !trace->ecs || !sorted || !esorted) {
		free(sorted);
		free(esorted);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot index trace: streams=%zu", ns);
	}
	trace->n_streams = 0;
	trace->n_ecs = 0;
	for (i = 0; i < trace->n_sources; i++) {
		struct tk_source *src = trace->sources[i];

		src->index = i;
		for (j = 0; j < src->n_streams; j++) {
			src->streams[j]->index = trace->n_streams;
			trace->streams[trace->n_streams++] = src->streams[j];
		}
		for (j = 0; j < src->n_scs; j++) {
			for (k = 0; k < src->scs[j]->n_ecs; k++) {
				struct tk_event_class *ec = src->scs[j]->ecs[k];

				ec->index = trace->n_ecs;
				trace->ecs[trace->n_ecs++] = ec;
			}
		}
	}

	memcpy(sorted, trace->streams, ns * sizeof(*sorted));
	sort_array(sorted, ns, sizeof(*sorted), cmp_stream_major);
	for (i = 0, k = 0; i < ns; i++) {
		if (i && cmp_stream_major(&sorted[i - 1], &sorted[i]))
			k++;
		sorted[i]->rank_major = (uint32_t) k;
	}
	sort_array(sorted, ns, sizeof(*sorted), cmp_stream_minor);
	for (i = 0; i < ns; i++)
		sorted[i]->rank_minor = (uint32_t) i;

	for (i = 0; i < trace->n_sources; i++) {
		struct tk_source *src = trace->sources[i];

		for (j = 0; j < src->n_scs; j++) {
			enum tk_status st = model_stream_class_index(src->scs[j], &src->arena);

			if (st < 0) {
				free(sorted);
				free(esorted);
				return st;
			}
		}
	}
	memcpy(esorted, trace->ecs, ne * sizeof(*esorted));
	sort_array(esorted, ne, sizeof(*esorted), cmp_event_class);
	for (i = 0, k = 0; i < ne; i++) {
		if (i && cmp_event_class(&esorted[i - 1], &esorted[i]))
			k++;
		esorted[i]->rank = (uint32_t) k;
	}
	free(sorted);
	free(esorted);
	return TK_OK;
}

/* Class loads are few (one per class met) and short: one lock for all of them. */
static pthread_mutex_t class_lock = PTHREAD_MUTEX_INITIALIZER;

enum tk_status model_class_load_slow(const struct tk_event_class *cec)
{
	/* made on first use, as the symbol table is: the class is never const to its reader */
	struct tk_event_class *ec = (struct tk_event_class *) cec;
	enum tk_status st = TK_OK;

	pthread_mutex_lock(&class_lock);
	if (ec->pending) {
		st = ec->sc->source->ops->class_load(ec);
		if (st >= 0)
			__atomic_store_n(&ec->pending, 0, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&class_lock);
	if (st < 0)
		return TK_FAIL(st, "Cannot make event class: name=%s", ec->name ? ec->name : "");
	return TK_OK;
}

enum tk_status model_trace_load_classes(const struct tk_trace *trace)
{
	size_t i;

	for (i = 0; i < trace->n_ecs; i++) {
		enum tk_status st = model_class_load(trace->ecs[i]);

		if (st < 0)
			return st;
	}
	return TK_OK;
}

enum tk_status model_sources_open_each(const char *const *paths, size_t npaths, struct vec *sources,
				       enum tk_status (*open)(struct tk_source **out,
							      const char *path))
{
	enum tk_status st = TK_OK;
	size_t i;

	for (i = 0; i < npaths && st >= 0; i++) {
		struct tk_source **slot = vec_push(sources, sizeof(*slot));

		if (!slot)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace: path=%s", paths[i]);
		st = open(slot, paths[i]);
		if (st < 0)
			sources->len--;
	}
	return st;
}

void model_warn_causes(const struct model_warner *w, size_t depth)
{
	size_t n;
	char *text;

	if (w && w->cb) {
		n = error_format(depth, NULL, 0);
		text = malloc(n + 1);
		if (text) {
			error_format(depth, text, n + 1);
			w->cb(text, w->payload);
			free(text);
		} else {
			w->cb("Cannot report warning: reason=out of memory", w->payload);
		}
	}
	error_truncate(depth);
}

struct model_fc *model_int_fc(struct arena *a, uint32_t bits, int is_signed, unsigned int base,
			      enum tk_byte_order bo)
{
	struct model_fc *fc = arena_alloc(a, sizeof(*fc));

	if (!fc)
		return NULL;
	fc->kind = MODEL_FC_INT;
	fc->byte_order = (uint8_t) bo;
	fc->is_signed = (uint8_t) !!is_signed;
	fc->base = (uint8_t) base;
	fc->size = bits;
	fc->align = 8;
	return fc;
}

struct model_fc *model_struct_of(struct arena *a, const char *const *names,
				 struct model_fc *const *fcs, uint32_t n)
{
	struct model_fc *st = arena_alloc(a, sizeof(*st));
	struct model_member *m = arena_alloc(a, (n + 1) * sizeof(*m));
	uint32_t i;

	if (!st || !m)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!fcs[i])
			return NULL;
		m[i].name = names[i];
		m[i].orig_name = names[i];
		m[i].fc = fcs[i];
	}
	st->kind = MODEL_FC_STRUCT;
	st->align = 8;
	st->u.st.members = m;
	st->u.st.count = n;
	return st;
}

struct model_fc *model_struct_of_one(struct arena *a, const char *name, struct model_fc *fc)
{
	return model_struct_of(a, &name, &fc, 1);
}
