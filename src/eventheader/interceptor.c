// SPDX-License-Identifier: MIT
/*
 * EventHeader interceptor files as sources (interceptor.h). Opening walks the records once:
 * their sizes and names are checked and each distinct tracepoint name becomes a class (sorted
 * by name, IDs in that order), whose payload is the event's bytes. A damaged record ends the
 * walk there: the records before it are read, then the cursor reports it, naming the record
 * and its offset. A second walk gives the EventHeader events their typed classes
 * (eventheader-model.c: one per distinct tracepoint and metadata, after the names' classes,
 * in the order they are met); an event that is not one keeps its tracepoint's class.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/mfile.h"
#include "eventheader.h"
#include "interceptor.h"

#define RECORD_MIN 14 /* the size, a one-letter name and its NUL, the 8-byte header */
#define RECORD_MAX (UINT32_C(1) << 20)

struct ic_name {
	const char *s;
	size_t len;
};

struct ic_source {
	struct mfile file;
	const uint8_t *data;
	size_t size;
	size_t good_end; /* the records before this offset are whole */
	size_t n_records;
	struct ic_name *names; /* the classes' names, sorted; class i is names[i] */
	size_t n_names;
	/* typed classes (eventheader-model.c), IDs from n_names on, by their key */
	struct eventheader_classes eh;
};

struct ic_cursor {
	struct model_cursor base;
	struct tk_stream *stream;
	struct ic_source *is;
	size_t pos, record; /* the next record: its offset and number (from 1) */
	size_t where;	    /* offset of the current one */
	struct tk_event ev;
	struct vec vals;
	struct vec text;	    /* converted text of a typed event's values */
	struct eventheader_enum eh; /* the current event's, when its class is a typed one */
};

static const struct model_source_ops ic_source_ops;

static int name_char(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

int interceptor_probe(const uint8_t *head, size_t n)
{
	uint32_t size;
	size_t i, end;

	if (n < 6)
		return 0;
	size = tk_load_le32(head);
	if (size < RECORD_MIN || size > RECORD_MAX)
		return 0;
	end = n < size ? n : size;
	for (i = 4; i < end && head[i]; i++)
		if (!name_char(head[i]))
			return 0;
	if (i < 6) /* a name of two characters at least */
		return 0;
	if (i < end) /* the name ends in sight: it names a level */
		return memmem(head + 4, i - 4, "_L", 2) != NULL;
	return 1;
}

/* What is wrong with the record at @pos, or NULL; *@next: where the one after starts. */
static const char *record_check(const uint8_t *data, size_t size, size_t pos, size_t *next,
				size_t *name_len)
{
	uint32_t rec;

	if (size - pos < 4)
		return "a size cut by the end of the file";
	rec = tk_load_le32(data + pos);
	if (rec <= 4)
		return "size below 5";
	if (rec - 4 > size - pos - 4)
		return "passes the end of the file";
	*name_len = strnlen((const char *) data + pos + 4, rec - 4);
	if (*name_len == rec - 4)
		return "tracepoint name without its NUL";
	*next = pos + rec;
	return NULL;
}

static int name_cmp(const void *a, const void *b)
{
	const struct ic_name *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* The class index of tracepoint @s (@len bytes): its place among the sorted names. */
static size_t class_of(const struct ic_source *is, const char *s, size_t len)
{
	struct ic_name key = {s, len};
	const struct ic_name *hit = bsearch(&key, is->names, is->n_names, sizeof(key), name_cmp);

	return hit ? (size_t) (hit - is->names) : 0;
}

/* Walk the records: where the good ones end, and the distinct names. */
static enum tk_status scan(struct ic_source *is)
{
	struct vec names = VEC_INIT;
	size_t pos = 0, next = 0, len = 0, i, k;

	while (pos < is->size && !record_check(is->data, is->size, pos, &next, &len)) {
		struct ic_name *nm = vec_push(&names, sizeof(*nm));

		if (!nm) {
			vec_fini(&names);
			return TK_FAIL(TK_ERR_NOMEM, "Cannot read interceptor file");
		}
		nm->s = (const char *) is->data + pos + 4;
		nm->len = len;
		is->n_records++;
		pos = next;
	}
	is->good_end = pos;
	is->names = names.data;
	if (names.len > 1)
		qsort(is->names, names.len, sizeof(*is->names), name_cmp);
	for (i = 0, k = 0; i < names.len; i++)
		if (!k || name_cmp(&is->names[k - 1], &is->names[i]))
			is->names[k++] = is->names[i];
	is->n_names = k;
	return TK_OK;
}

static void ic_source_destroy(struct tk_source *src)
{
	struct ic_source *is;

	if (!src)
		return;
	is = src->fmt;
	if (is) {
		free(is->names);
		eventheader_classes_fini(&is->eh);
		mfile_close(&is->file);
		free(is);
	}
	arena_fini(&src->arena);
	free(src);
}

/* One stream without a clock; a class per tracepoint name, whose payload is its bytes. */
static enum tk_status build_model(struct tk_source *src, struct ic_source *is, const char *path)
{
	struct arena *a = &src->arena;
	struct model_stream_class *sc = arena_alloc(a, sizeof(*sc));
	struct tk_stream *s = arena_alloc(a, sizeof(*s));
	struct model_fc *seq = arena_alloc(a, sizeof(*seq)), *payload;
	size_t i;

	src->format = "eventheader-interceptor";
	src->path = arena_strdup(a, path);
	src->name = src->path;
	src->scs = arena_alloc(a, 2 * sizeof(*src->scs));
	src->streams = arena_alloc(a, 2 * sizeof(*src->streams));
	if (!sc || !s || !seq || !src->path || !src->scs || !src->streams)
		goto nomem;
	seq->kind = MODEL_FC_SEQUENCE;
	seq->align = 8;
	seq->u.arr.elem = model_int_fc(a, 8, 0, 16, TK_BYTE_ORDER_LE);
	payload = seq->u.arr.elem ? model_struct_of_one(a, "eventheader", seq) : NULL;
	sc->ecs = arena_alloc(a, (is->n_names + 1) * sizeof(*sc->ecs));
	if (!payload || !sc->ecs)
		goto nomem;
	sc->source = src;
	for (i = 0; i < is->n_names; i++) {
		struct tk_event_class *ec = arena_alloc(a, sizeof(*ec));

		if (!ec)
			goto nomem;
		ec->name = arena_strndup(a, is->names[i].s, is->names[i].len);
		if (!ec->name)
			goto nomem;
		ec->id = i;
		ec->payload = payload;
		ec->sc = sc;
		sc->ecs[sc->n_ecs++] = ec;
	}
	if (model_stream_class_index(sc, a) < 0)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open interceptor file: path=%s", path);
	src->scs[src->n_scs++] = sc;
	s->source = src;
	s->sc = sc;
	s->path = src->path;
	src->streams[src->n_streams++] = s;
	return TK_OK;
nomem:
	return TK_FAIL(TK_ERR_NOMEM, "Cannot open interceptor file: path=%s", path);
}

/* The name of the tracepoint of @ec's events: its own, or a typed class's tracepoint's. */
static const struct ic_name *tp_of(const struct ic_source *is, const struct tk_event_class *ec)
{
	return &is->names[(ec->base ? ec->base : ec)->id];
}

/*
 * The class of the event at @raw (@size bytes) of tracepoint class @base: @base, or for an
 * EventHeader event (started in *@e) the typed class of its metadata (made when @create).
 */
static enum tk_status typed_class(struct tk_source *src, struct ic_source *is,
				  struct tk_event_class *base, const uint8_t *raw, size_t size,
				  int create, struct eventheader_enum *e,
				  struct tk_event_class **out)
{
	const struct ic_name *nm = &is->names[base->id];

	*out = base;
	if (eventheader_start(e, nm->s, nm->len, raw, size, EVENTHEADER_MOVE_NEXT_LIMIT) < 0) {
		error_reset(); /* reported when its JSON is asked for */
		return TK_OK;
	}
	return eventheader_class_of(&is->eh, &src->arena, e, base, is->n_names, create, out);
}

/* Every record's typed class, made before any cursor reads (see the file comment). */
static enum tk_status type_records(struct tk_source *src, struct ic_source *is)
{
	struct model_stream_class *sc = src->scs[0];
	size_t pos = 0, next = 0, len = 0;
	struct eventheader_enum e;
	struct tk_event_class *ec;
	enum tk_status st;

	while (pos < is->good_end) {
		(void) record_check(is->data, is->size, pos, &next, &len);
		st = typed_class(
			src, is, sc->ecs[class_of(is, (const char *) is->data + pos + 4, len)],
			is->data + pos + 4 + len + 1, next - pos - 4 - len - 1, 1, &e, &ec);
		if (st < 0)
			return st;
		pos = next;
	}
	return model_stream_class_append(sc, &src->arena, is->eh.made.data, is->eh.made.len);
}

static enum tk_status ic_open(struct tk_source **out, const uint8_t *data, size_t size,
			      const char *path, struct mfile *file)
{
	struct tk_source *src = calloc(1, sizeof(*src));
	struct ic_source *is = calloc(1, sizeof(*is));
	enum tk_status st;

	if (!src || !is) {
		free(src);
		free(is);
		mfile_close(file);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open interceptor file: path=%s", path);
	}
	arena_init(&src->arena);
	src->ops = &ic_source_ops;
	src->fmt = is;
	is->file = *file;
	is->data = data;
	is->size = size;
	eventheader_classes_init(&is->eh);
	st = scan(is);
	if (st >= 0)
		st = build_model(src, is, path);
	if (st >= 0)
		st = type_records(src, is);
	if (st < 0) {
		ic_source_destroy(src);
		return TK_FAIL(st, "Cannot open interceptor file: path=%s", path);
	}
	*out = src;
	return TK_OK;
}

enum tk_status interceptor_source_open_mem(struct tk_source **out, const uint8_t *data, size_t size,
					   const char *name)
{
	struct mfile none;

	mfile_init(&none);
	return ic_open(out, data, size, name, &none);
}

/* One path: mapped, then read (model_sources_open_each()). */
static enum tk_status ic_open_path(struct tk_source **out, const char *path)
{
	struct mfile f;
	enum tk_status st = mfile_open(&f, path);

	if (st < 0)
		return TK_FAIL(st, "Cannot open interceptor file: path=%s", path);
	return ic_open(out, f.data, f.size, path, &f);
}

enum tk_status interceptor_sources_open(const char *const *paths, size_t npaths,
					struct vec *sources, const struct model_warner *w)
{
	(void) w;
	return model_sources_open_each(paths, npaths, sources, ic_open_path);
}

/* ---- reading ------------------------------------------------------------------------------ */

static enum tk_status ic_cursor_next(struct model_cursor *mc, struct model_item *out)
{
	struct ic_cursor *c = (struct ic_cursor *) mc;
	const struct ic_source *is = c->is;
	size_t next = 0, len = 0;
	const char *bad;

	if (c->pos >= is->good_end) {
		if (c->pos >= is->size)
			return TK_END;
		bad = record_check(is->data, is->size, c->pos, &next, &len);
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read interceptor record: record=%zu, offset=%zu, reason=%s",
			       c->record, c->pos, bad ? bad : "damaged");
	}
	(void) record_check(is->data, is->size, c->pos, &next, &len); /* good: checked */
	c->where = c->pos;
	c->ev.raw = is->data + c->pos + 4 + len + 1;
	c->ev.raw_size = (uint32_t) (next - c->pos - 4 - len - 1);
	{
		struct tk_event_class *ec;

		(void) typed_class(
			c->stream->source, (struct ic_source *) is,
			c->stream->sc->ecs[class_of(is, (const char *) is->data + c->pos + 4, len)],
			c->ev.raw, c->ev.raw_size, 0, &c->eh, &ec);
		c->ev.ec = ec;
	}
	c->ev.pending = &c->base;
	c->pos = next;
	c->record++;
	out->kind = MODEL_ITEM_EVENT;
	out->has_ts = 0;
	out->ts_ns = 0;
	out->event = &c->ev;
	out->notice = NULL;
	return TK_OK;
}

/* The payload: the event's bytes, as a sequence; a typed class's context and fields. */
static enum tk_status ic_cursor_values(struct model_cursor *mc)
{
	struct ic_cursor *c = (struct ic_cursor *) mc;
	struct model_value *v;
	uint32_t i, n = c->ev.raw_size;

	c->ev.pending = NULL;
	c->ev.scope[MODEL_SCOPE_PAYLOAD] = NULL;
	c->ev.scope[MODEL_SCOPE_EVENT_CONTEXT] = NULL;
	c->vals.len = 0;
	if (c->ev.ec->base) { /* typed: c->eh was started on this event by ic_cursor_next() */
		size_t at;
		enum tk_status st = eventheader_model_values(&c->eh, c->ev.ec->payload, &c->vals,
							     &at, &c->text);

		if (st < 0)
			return TK_FAIL(st,
				       "Cannot decode EventHeader event: record=%zu, offset=%zu",
				       c->record - 1, c->where);
		c->ev.scope[MODEL_SCOPE_EVENT_CONTEXT] = c->vals.data;
		c->ev.scope[MODEL_SCOPE_PAYLOAD] = (struct model_value *) c->vals.data + at;
		return TK_OK;
	}
	if (vec_reserve(&c->vals, sizeof(*v), (size_t) n + 1))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot decode event");
	v = c->vals.data;
	v[0].n = n;
	for (i = 0; i < n; i++)
		v[i + 1].v.u = c->ev.raw[i];
	c->vals.len = (size_t) n + 1;
	c->ev.scope[MODEL_SCOPE_PAYLOAD] = v;
	return TK_OK;
}

static void ic_cursor_where(const struct model_cursor *mc, const struct model_item *item, char *buf,
			    size_t size)
{
	const struct ic_cursor *c = (const struct ic_cursor *) mc;

	(void) item;
	snprintf(buf, size, "file=%s, record=%zu, offset=%zu", c->stream->path, c->record,
		 c->where);
}

static void ic_cursor_destroy(struct model_cursor *mc)
{
	struct ic_cursor *c = (struct ic_cursor *) mc;

	vec_fini(&c->vals);
	vec_fini(&c->text);
	free(c);
}

static const struct model_cursor_ops ic_cursor_ops = {
	.next = ic_cursor_next,
	.values = ic_cursor_values,
	.where = ic_cursor_where,
	.destroy = ic_cursor_destroy,
};

static enum tk_status ic_cursor_open(struct tk_stream *stream, struct model_cursor **out)
{
	struct ic_cursor *c = calloc(1, sizeof(*c));

	if (!c)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read interceptor file: path=%s", stream->path);
	c->base.ops = &ic_cursor_ops;
	c->stream = stream;
	c->is = stream->source->fmt;
	c->record = 1;
	c->ev.stream = stream;
	c->ev.cpu = -1;
	*out = &c->base;
	return TK_OK;
}

/* model_text_ops.decode_json: the event as the reference formatter writes it. */
static enum tk_status ic_decode_json(const struct tk_event *ev, unsigned int flags, struct vec *out)
{
	unsigned int jf = eventheader_json_flags(flags);
	const struct ic_source *is = ev->stream->source->fmt;
	const struct ic_name *nm = tp_of(is, ev->ec);
	struct eventheader_enum e;
	enum tk_status st = eventheader_start(&e, nm->s, nm->len, ev->raw, ev->raw_size,
					      EVENTHEADER_MOVE_NEXT_LIMIT);

	if (st >= 0)
		st = eventheader_json_event(out, &e, jf, EVENTHEADER_META_DEFAULT);
	if (st < 0) {
		size_t at = (size_t) (ev->raw - is->data);

		return TK_FAIL(st == TK_ERR_NOMEM ? st : TK_ERR_FORMAT,
			       "Cannot decode EventHeader event: offset=%zu, tracepoint=%.*s", at,
			       (int) nm->len, nm->s);
	}
	return TK_OK;
}

static const struct model_text_ops ic_text_ops = {
	.decode_json = ic_decode_json,
};

static const struct model_source_ops ic_source_ops = {
	.cursor_open = ic_cursor_open,
	.destroy = ic_source_destroy,
	.text = &ic_text_ops,
};

size_t interceptor_record_head(uint8_t *dst, const char *tp_name, size_t tp_len, size_t event_size)
{
	size_t head = 4 + tp_len + 1;

	if (event_size > UINT32_MAX - head)
		return 0;
	tk_store_u32(dst, (uint32_t) (head + event_size), TK_BYTE_ORDER_LE);
	memcpy(dst + 4, tp_name, tp_len);
	dst[4 + tp_len] = 0;
	return head;
}
