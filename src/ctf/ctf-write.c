// SPDX-License-Identifier: MIT
/*
 * The CTF 1.8 writer: trace directory, classes, streams, packets, events and losses (public
 * API in include/tracekit/ctf-writer.h; declarations in ctf-write-decl.c, values in
 * ctf-write-values.c, metadata and index files in ctf-write-meta.c).
 *
 * Converters write millions of events per second through tk_ctf_writer_append(), so an event
 * costs a few checks and stores: each stream fills one packet buffer whose header is written
 * once, every field is byte-aligned and stored with the bytes.h fast paths, and a full packet
 * leaves in a single write(). Packets begin lazily with the event that needs them, so the
 * context of a packet (times, sizes, losses) is filled when it closes.
 *
 * Times follow CTF 1.8 clock reconstruction (reference/ctf.md section 8): a reader sets its
 * clock from the 64-bit timestamp_begin of each packet, then takes the low bits of each short
 * event timestamp, assuming one wrap at most when they went down. Packets begin where the
 * previous one ended (timestamp_begin = the previous timestamp_end = the time of its last
 * event), so the reader's clock only depends on the previous event, and each event uses the
 * short header exactly when the reader would get its time back from the low bits.
 *
 * Losses: readers report the events lost between the end of a packet and the end of the
 * next one, and the packets lost between the end of a packet and the beginning of the next.
 * To report the range a caller gives, a packet may end later than its last event, and the
 * next begin there; the reader's clock then starts from that time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracekit/ctf-writer.h>

#include "../common/error.h"
#include "../common/outfile.h"
#include "ctf-write-priv.h"
#include "ctf.h"

/* ---- the trace directory ------------------------------------------------------------------ */

/* Open @path, which must be an empty directory, as w->dirfd. */
static enum tk_status open_empty_dir(struct tk_ctf_writer *w, const char *path)
{
	struct dirent *de;
	DIR *d;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return TK_FAIL(errno == ENOTDIR ? TK_ERR_INVAL : TK_ERR_IO,
			       "Cannot open trace directory: dir=%s, errno=%s", path,
			       strerror(errno));
	d = fdopendir(dup(fd));
	if (!d) {
		close(fd);
		return TK_FAIL(TK_ERR_IO, "Cannot list trace directory: dir=%s, errno=%s", path,
			       strerror(errno));
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			enum tk_status st = TK_FAIL(TK_ERR_INVAL,
						    "Cannot create trace: dir=%s, reason=directory "
						    "not empty (holds %s)",
						    path, de->d_name);

			closedir(d);
			close(fd);
			return st;
		}
	}
	closedir(d);
	w->dirfd = fd;
	return TK_OK;
}

/* A random (version 4) UUID; without a random source, one from the time and process. */
static void random_uuid(uint8_t u[16])
{
	size_t got = 0;

	while (got < 16) {
		ssize_t k = getrandom(u + got, 16 - got, 0);

		if (k <= 0 && errno != EINTR)
			break;
		if (k > 0)
			got += (size_t) k;
	}
	if (got < 16) {
		struct timespec ts;
		uint64_t x;
		int i;

		clock_gettime(CLOCK_REALTIME, &ts);
		x = (uint64_t) ts.tv_sec * 1000000007u ^ (uint64_t) ts.tv_nsec ^
		    ((uint64_t) getpid() << 32);
		for (i = 0; i < 16; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			u[i] = (uint8_t) x;
		}
	}
	u[6] = (uint8_t) ((u[6] & 0x0f) | 0x40);
	u[8] = (uint8_t) ((u[8] & 0x3f) | 0x80);
}

enum tk_status tk_ctf_writer_create(struct tk_ctf_writer **out, const char *dir,
				    const struct tk_ctf_writer_opts *opts)
{
	struct tk_ctf_writer_opts o = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ctf_writer *w;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(out && dir);
	TK_ASSERT_PRE(!opts || opts->size >= sizeof(size_t));
	if (opts) {
		memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
		o.size = sizeof(o);
	}
	if (!o.packet_size)
		o.packet_size = TK_CTF_WRITER_DEFAULT_PACKET_SIZE;
	if (o.packet_size < TK_CTF_WRITER_MIN_PACKET_SIZE || o.packet_size > SIZE_MAX / 16)
		return TK_FAIL(TK_ERR_INVAL, "Cannot create CTF writer: dir=%s, packet-size=%zu",
			       dir, o.packet_size);
	if (o.byte_order > TK_CTF_BYTE_ORDER_BE)
		return TK_FAIL(TK_ERR_INVAL, "Cannot create CTF writer: dir=%s, byte-order=%u", dir,
			       o.byte_order);
	if (!dir[0])
		return TK_FAIL(TK_ERR_INVAL, "Cannot create CTF writer: reason=empty path");
	w = calloc(1, sizeof(*w));
	if (!w)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create CTF writer: dir=%s", dir);
	w->dirfd = -1;
	w->index_dirfd = -1;
	arena_init(&w->arena);
	w->dir = strdup(dir);
	if (!w->dir) {
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot create CTF writer: dir=%s", dir);
		goto err;
	}
	w->packet_size = o.packet_size;
	w->no_uuid = !!o.no_uuid;
	w->header_size = w->no_uuid ? CW_PACKET_HEADER_SIZE_NO_UUID : CW_PACKET_HEADER_SIZE;
	w->bo = o.byte_order == TK_CTF_BYTE_ORDER_LE   ? TK_BYTE_ORDER_LE
		: o.byte_order == TK_CTF_BYTE_ORDER_BE ? TK_BYTE_ORDER_BE
						       : TK_BYTE_ORDER_HOST;
	if (o.has_uuid)
		memcpy(w->uuid, o.uuid, 16);
	else if (!w->no_uuid)
		random_uuid(w->uuid);
	st = outfile_make_dirs(dir);
	if (st >= 0)
		st = open_empty_dir(w, dir);
	if (st >= 0 && o.write_index) {
		if (mkdirat(w->dirfd, "index", 0777))
			st = TK_FAIL(TK_ERR_IO, "Cannot create index directory: dir=%s, errno=%s",
				     dir, strerror(errno));
		else if ((w->index_dirfd = openat(w->dirfd, "index",
						  O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			st = TK_FAIL(TK_ERR_IO, "Cannot open index directory: dir=%s, errno=%s",
				     dir, strerror(errno));
	}
	if (st < 0)
		goto err;
	*out = w;
	return TK_OK;
err:
	tk_ctf_writer_destroy(w);
	return TK_FAIL(st, "Cannot create CTF writer: dir=%s", dir);
}

/* ---- environment and clocks --------------------------------------------------------------- */

static enum tk_status set_env(struct tk_ctf_writer *w, const char *key, const char *str,
			      int64_t integer)
{
	struct cw_env *e = NULL;
	char *k;
	size_t i;

	if (!key[0])
		return TK_FAIL(TK_ERR_INVAL, "Cannot set environment entry: reason=empty key");
	k = ctf_write_ident(&w->arena, key);
	if (!k)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot set environment entry: key=%s", key);
	for (i = 0; i < w->env.len && !e; i++)
		if (!strcmp(VEC_AT(&w->env, struct cw_env, i).key, k))
			e = &VEC_AT(&w->env, struct cw_env, i);
	if (!e) {
		e = vec_push(&w->env, sizeof(*e));
		if (!e)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot set environment entry: key=%s", key);
		e->key = k;
	}
	e->str = NULL;
	e->integer = integer;
	if (str) {
		e->str = arena_strdup(&w->arena, str);
		if (!e->str)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot set environment entry: key=%s", key);
	}
	return TK_OK;
}

enum tk_status tk_ctf_writer_set_env_string(struct tk_ctf_writer *w, const char *key,
					    const char *value)
{
	error_reset();
	TK_ASSERT_PRE(w && key && value);
	return set_env(w, key, value, 0);
}

enum tk_status tk_ctf_writer_set_env_int(struct tk_ctf_writer *w, const char *key, int64_t value)
{
	error_reset();
	TK_ASSERT_PRE(w && key);
	return set_env(w, key, NULL, value);
}

enum tk_status ctf_writer_put_env(void *writer, const char *key, const char *str, int64_t integer)
{
	return str ? tk_ctf_writer_set_env_string(writer, key, str)
		   : tk_ctf_writer_set_env_int(writer, key, integer);
}

static int clock_named(const struct tk_ctf_writer *w, const char *id)
{
	size_t i;

	for (i = 0; i < w->clocks.len; i++)
		if (!strcmp(VEC_AT(&w->clocks, struct cw_clock, i).name, id))
			return 1;
	return 0;
}

static enum tk_status add_clock(struct tk_ctf_writer *w, const struct tk_ctf_clock_desc *d,
				uint64_t *clock_id)
{
	const char *name = d->name ? d->name : "";
	struct cw_clock *c;
	unsigned long k = 1;
	size_t base;
	char *id;

	if (!name[0] || !d->frequency)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add clock: name=%s, frequency=%" PRIu64
			       ", reason=needs a name and a frequency",
			       name, d->frequency);
	id = ctf_write_ident(&w->arena, name);
	if (!id)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add clock: name=%s", name);
	/* unique names, as the clock-mapped type aliases are named after them */
	base = strlen(id);
	while (clock_named(w, id))
		snprintf(id + base, 22, "_%lu", ++k); /* ctf_write_ident() leaves room */
	c = vec_push(&w->clocks, sizeof(*c));
	if (!c)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add clock: name=%s", name);
	c->name = id;
	c->freq = d->frequency;
	c->offset_s = d->offset_s;
	c->offset_cycles = d->offset_cycles;
	c->precision = d->precision;
	c->absolute = !!d->is_absolute;
	c->has_uuid = !!d->has_uuid;
	memcpy(c->uuid, d->uuid, 16);
	if (d->description) {
		c->description = arena_strdup(&w->arena, d->description);
		if (!c->description) {
			w->clocks.len--;
			return TK_FAIL(TK_ERR_NOMEM, "Cannot add clock: name=%s", name);
		}
	}
	*clock_id = w->clocks.len - 1;
	return TK_OK;
}

enum tk_status tk_ctf_writer_add_clock(struct tk_ctf_writer *w, const char *name,
				       uint64_t frequency, int64_t offset_s, uint64_t offset_cycles,
				       const char *description, int is_absolute, uint64_t *clock_id)
{
	struct tk_ctf_clock_desc d = TK_CTF_CLOCK_DESC_INIT;

	error_reset();
	TK_ASSERT_PRE(w && name && clock_id);
	d.name = name;
	d.frequency = frequency;
	d.offset_s = offset_s;
	d.offset_cycles = offset_cycles;
	d.description = description;
	d.is_absolute = is_absolute;
	return add_clock(w, &d, clock_id);
}

enum tk_status tk_ctf_writer_add_clock_desc(struct tk_ctf_writer *w,
					    const struct tk_ctf_clock_desc *desc,
					    uint64_t *clock_id)
{
	struct tk_ctf_clock_desc d = TK_CTF_CLOCK_DESC_INIT;

	error_reset();
	TK_ASSERT_PRE(w && desc && clock_id && desc->size >= sizeof(size_t));
	memcpy(&d, desc, desc->size < sizeof(d) ? desc->size : sizeof(d));
	return add_clock(w, &d, clock_id);
}

/* ---- stream and event classes ------------------------------------------------------------- */

static struct cw_sc *find_sc(struct tk_ctf_writer *w, uint64_t sc_id)
{
	size_t i;

	for (i = 0; i < w->scs.len; i++)
		if (VEC_AT(&w->scs, struct cw_sc *, i)->id == sc_id)
			return VEC_AT(&w->scs, struct cw_sc *, i);
	return NULL;
}

static inline struct cw_ec *find_ec(const struct cw_sc *sc, uint64_t id)
{
	size_t i;

	if (TK_LIKELY(id < sc->ec_table.len))
		return VEC_AT(&sc->ec_table, struct cw_ec *, id);
	if (id < CW_EC_TABLE_MAX)
		return NULL;
	for (i = 0; i < sc->ecs.len; i++)
		if (VEC_AT(&sc->ecs, struct cw_ec *, i)->id == id)
			return VEC_AT(&sc->ecs, struct cw_ec *, i);
	return NULL;
}

/* The written names of the writer's own packet-context fields, as a member would take them. */
static const char *const std_pctx_names[] = {
	"_timestamp_begin", "_timestamp_end",	 "_content_size", "_packet_size",
	"_packet_seq_num",  "_events_discarded", "_cpu_id",
};

/*
 * Where the writer's packet-context fields go (tk_ctf_writer.h): after the packet header,
 * the times (with a clock), sizes, sequence number, loss counter, then cpu_id if written.
 */
static void layout_sc(const struct tk_ctf_writer *w, struct cw_sc *sc)
{
	uint32_t off = (uint32_t) w->header_size;

	if (sc->clock != TK_CTF_WRITER_NO_CLOCK) {
		sc->off_ts_begin = off;
		sc->off_ts_end = off + 8;
		off += 16;
	}
	sc->off_content = off;
	sc->off_size = off + 8;
	sc->off_seq = off + 16;
	sc->off_disc = off + 24;
	off += 32;
	if (sc->has_cpu_id) {
		sc->off_cpu = off;
		off += 4;
	}
	sc->std_end = off;
}

static void freeze(struct cw_sc *sc);

static enum tk_status add_sc(struct tk_ctf_writer *w, const struct tk_ctf_stream_class_desc *d,
			     uint64_t *sc_id)
{
	uint64_t id = d->has_id ? d->id : w->next_sc_id;
	struct cw_sc *sc, **slot;
	char what[64];
	enum tk_status st;

	if (d->clock_id != TK_CTF_WRITER_NO_CLOCK && d->clock_id >= w->clocks.len)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add stream class: clock-id=%" PRIu64
			       ", reason=no such clock",
			       d->clock_id);
	if (id > UINT32_MAX || find_sc(w, id))
		return TK_FAIL(TK_ERR_INVAL, "Cannot add stream class: id=%" PRIu64 ", reason=%s",
			       id, id > UINT32_MAX ? "IDs are below 2^32" : "ID in use");
	sc = arena_alloc(&w->arena, sizeof(*sc));
	if (!sc)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add stream class");
	sc->id = id;
	sc->clock = d->clock_id;
	sc->has_cpu_id = !!d->has_cpu_id;
	snprintf(what, sizeof(what), "packet context of stream class %" PRIu64, id);
	st = ctf_write_scope_compile(&w->arena, d->packet_context, what, std_pctx_names,
				     TK_ARRAY_SIZE(std_pctx_names) - !sc->has_cpu_id, &sc->pctx);
	if (st >= 0) {
		snprintf(what, sizeof(what), "context of stream class %" PRIu64, id);
		st = ctf_write_scope_compile(&w->arena, d->event_context, what, NULL, 0, &sc->ctx);
	}
	if (st < 0)
		return TK_FAIL(st, "Cannot add stream class: id=%" PRIu64, id);
	slot = vec_push(&w->scs, sizeof(*slot));
	if (!slot)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add stream class");
	layout_sc(w, sc);
	*slot = sc;
	if (w->shared) { /* threads read the table: it never moves, its header kind is fixed */
		if (vec_reserve(&sc->ec_table, sizeof(struct cw_ec *), CW_EC_TABLE_MAX))
			return TK_FAIL(TK_ERR_NOMEM, "Cannot add stream class");
		memset(sc->ec_table.data, 0, CW_EC_TABLE_MAX * sizeof(struct cw_ec *));
		sc->ec_table.len = CW_EC_TABLE_MAX;
		freeze(sc);
	}
	if (id >= w->next_sc_id)
		w->next_sc_id = id + 1;
	*sc_id = id;
	return TK_OK;
}

enum tk_status tk_ctf_writer_add_stream_class(struct tk_ctf_writer *w, uint64_t clock_id,
					      uint64_t *sc_id)
{
	struct tk_ctf_stream_class_desc d = TK_CTF_STREAM_CLASS_DESC_INIT;

	error_reset();
	TK_ASSERT_PRE(w && sc_id);
	if (clock_id >= w->clocks.len)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add stream class: clock-id=%" PRIu64
			       ", reason=no such clock",
			       clock_id);
	d.clock_id = clock_id;
	return add_sc(w, &d, sc_id);
}

enum tk_status tk_ctf_writer_add_stream_class_desc(struct tk_ctf_writer *w,
						   const struct tk_ctf_stream_class_desc *desc,
						   uint64_t *sc_id)
{
	struct tk_ctf_stream_class_desc d = TK_CTF_STREAM_CLASS_DESC_INIT;

	error_reset();
	TK_ASSERT_PRE(w && desc && sc_id && desc->size >= sizeof(size_t));
	memcpy(&d, desc, desc->size < sizeof(d) ? desc->size : sizeof(d));
	return add_sc(w, &d, sc_id);
}

enum tk_status tk_ctf_writer_set_event_context(struct tk_ctf_writer *w, uint64_t sc_id,
					       const struct tk_ctf_field_decl *fields, size_t n)
{
	struct cw_sc *sc;
	struct cw_fields f;
	char what[64];
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(w && (fields || !n));
	sc = find_sc(w, sc_id);
	if (!sc || sc->frozen)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot set event context: stream-class-id=%" PRIu64 ", reason=%s",
			       sc_id, sc ? "events written already" : "no such stream class");
	snprintf(what, sizeof(what), "context of stream class %" PRIu64, sc_id);
	st = ctf_write_fields_compile(&w->arena, fields, n, what, NULL, 0, &f);
	if (st < 0)
		return TK_FAIL(st, "Cannot set event context: stream-class-id=%" PRIu64, sc_id);
	f.present = n > 0;
	sc->ctx = f;
	return TK_OK;
}

/*
 * Register @ec under its id: in the table when small, in the list (which the metadata
 * declares) unless @listed is 0, as provisional classes are (ctf_writer_add_provisional()).
 */
static enum tk_status index_ec(struct cw_sc *sc, struct cw_ec *ec, int listed)
{
	struct cw_ec **slot;

	if (ec->id < CW_EC_TABLE_MAX) {
		while (sc->ec_table.len <= ec->id) {
			slot = vec_push(&sc->ec_table, sizeof(*slot));
			if (!slot)
				return TK_ERR_NOMEM;
			*slot = NULL;
		}
		VEC_AT(&sc->ec_table, struct cw_ec *, ec->id) = ec;
	}
	if (!listed)
		return TK_OK;
	slot = vec_push(&sc->ecs, sizeof(*slot));
	if (!slot)
		return TK_ERR_NOMEM;
	*slot = ec;
	return TK_OK;
}

/*
 * An event class from its description; @payload_list/@n_payload: the first API's flat list
 * of payload fields instead of desc->payload (NULL: use desc->payload).
 */
static enum tk_status add_ec(struct tk_ctf_writer *w, uint64_t sc_id,
			     const struct tk_ctf_event_class_desc *d,
			     const struct tk_ctf_field_decl *payload_list, size_t n_payload,
			     uint64_t *ec_id, int listed)
{
	const char *name = d->name ? d->name : "(no name)";
	struct cw_sc *sc = find_sc(w, sc_id);
	struct cw_ec *ec;
	uint64_t id;
	char what[320];
	enum tk_status st;

	if (!sc)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add event class: name=%s, stream-class-id=%" PRIu64
			       ", reason=no such stream class",
			       name, sc_id);
	id = d->has_id ? d->id : sc->next_ec_id;
	if (!listed)
		id = w->next_prov;
	if (id > UINT32_MAX - 1 || find_ec(sc, id))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add event class: name=%s, id=%" PRIu64 ", reason=%s", name,
			       id, id > UINT32_MAX - 1 ? "IDs are below 2^32 - 1" : "ID in use");
	if (w->shared && (listed ? id >= CW_PROV_BASE : id >= CW_EC_TABLE_MAX))
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot add event class: name=%s, id=%" PRIu64
			       ", reason=too many classes for a shared writer",
			       name, id);
	ec = arena_alloc(&w->arena, sizeof(*ec));
	if (!ec || (d->name && !(ec->name = arena_strdup(&w->arena, d->name))) ||
	    (d->emf_uri && !(ec->emf_uri = arena_strdup(&w->arena, d->emf_uri))))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add event class: name=%s", name);
	ec->id = id;
	ec->loglevel = d->loglevel < 0 ? -1 : d->loglevel;
	snprintf(what, sizeof(what), "context of event class %.256s", name);
	st = ctf_write_scope_compile(&w->arena, d->context, what, NULL, 0, &ec->ctx);
	snprintf(what, sizeof(what), "payload of event class %.256s", name);
	if (st >= 0 && payload_list) {
		st = ctf_write_fields_compile(&w->arena, payload_list, n_payload, what, NULL, 0,
					      &ec->fields);
		ec->fields.present = n_payload > 0;
	} else if (st >= 0) {
		st = ctf_write_scope_compile(&w->arena, d->payload, what, NULL, 0, &ec->fields);
	}
	if (st < 0)
		return TK_FAIL(st, "Cannot add event class: name=%s", name);
	if (index_ec(sc, ec, listed) < 0)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add event class: name=%s", name);
	if (!listed)
		w->next_prov++;
	else if (id >= sc->next_ec_id)
		sc->next_ec_id = id + 1;
	*ec_id = id;
	return TK_OK;
}

enum tk_status tk_ctf_writer_add_event_class(struct tk_ctf_writer *w, uint64_t sc_id,
					     const char *name, int loglevel,
					     const struct tk_ctf_field_decl *fields, size_t n,
					     uint64_t *ec_id)
{
	static const struct tk_ctf_field_decl none[1];
	struct tk_ctf_event_class_desc d = TK_CTF_EVENT_CLASS_DESC_INIT;

	error_reset();
	TK_ASSERT_PRE(w && name && (fields || !n) && ec_id);
	d.name = name;
	d.loglevel = loglevel;
	return add_ec(w, sc_id, &d, fields ? fields : none, n, ec_id, 1);
}

enum tk_status tk_ctf_writer_add_event_class_desc(struct tk_ctf_writer *w, uint64_t sc_id,
						  const struct tk_ctf_event_class_desc *desc,
						  uint64_t *ec_id)
{
	struct tk_ctf_event_class_desc d = TK_CTF_EVENT_CLASS_DESC_INIT;

	error_reset();
	TK_ASSERT_PRE(w && desc && ec_id && desc->size >= sizeof(size_t));
	memcpy(&d, desc, desc->size < sizeof(d) ? desc->size : sizeof(d));
	return add_ec(w, sc_id, &d, NULL, 0, ec_id, 1);
}

/* ---- shared writers ------------------------------------------------------------------------- */

enum tk_status ctf_writer_share(struct tk_ctf_writer *w)
{
	size_t i;

	if (w->scs.len || w->streams.len || w->io)
		return TK_FAIL(TK_ERR_INVAL, "Cannot share CTF writer: dir=%s, reason=in use",
			       w->dir);
	w->prov_final = malloc((CW_EC_TABLE_MAX - CW_PROV_BASE) * sizeof(*w->prov_final));
	if (!w->prov_final)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot share CTF writer: dir=%s", w->dir);
	for (i = 0; i < CW_EC_TABLE_MAX - CW_PROV_BASE; i++)
		w->prov_final[i] = UINT32_MAX;
	w->shared = 1;
	w->next_prov = CW_PROV_BASE;
	w->io_failed = 1; /* each thread writes its own stream's packets */
	return TK_OK;
}

enum tk_status ctf_writer_add_provisional(struct tk_ctf_writer *w, uint64_t sc_id,
					  const struct tk_ctf_event_class_desc *desc,
					  uint64_t *ec_id)
{
	struct tk_ctf_event_class_desc d = TK_CTF_EVENT_CLASS_DESC_INIT;
	struct cw_sc *sc = find_sc(w, sc_id);

	if (!w->shared || !sc)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add provisional class: stream-class-id=%" PRIu64, sc_id);
	/* a final ID below 31 has a shorter header: wait for it */
	if (sc->large || (sc->ecs.len < CW_COMPACT_EXT && sc->next_ec_id <= CW_COMPACT_EXT))
		return TK_AGAIN;
	memcpy(&d, desc, desc->size < sizeof(d) ? desc->size : sizeof(d));
	return add_ec(w, sc_id, &d, NULL, 0, ec_id, 0);
}

void ctf_writer_resolve(struct tk_ctf_writer *w, uint64_t prov_id, uint64_t ec_id)
{
	if (prov_id >= CW_PROV_BASE && prov_id < CW_EC_TABLE_MAX && ec_id < CW_PROV_BASE)
		w->prov_final[prov_id - CW_PROV_BASE] = (uint32_t) ec_id;
}

enum tk_status ctf_write_note_provisional(struct tk_ctf_writer_stream *s, size_t pos, uint64_t id)
{
	uint64_t *at = vec_push(&s->prov_pkt, sizeof(*at));

	if (!at)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write event: stream=%s", s->name);
	*at = (uint64_t) pos << 16 | (id - CW_PROV_BASE);
	return TK_OK;
}

/* Bytes of a stream file mapped at once to put final IDs in (its pages are in the cache). */
#define CW_PATCH_WINDOW (8u << 20)

/* The final ID of provisional entry @e (struct tk_ctf_writer_stream.prov_pkt), or UINT32_MAX. */
static uint32_t final_id(const struct tk_ctf_writer *w, uint64_t e)
{
	return w->prov_final[e & 0xffff];
}

/*
 * Put the final IDs of the entries of s->prov_file from @i on in the file, through a mapping
 * of CW_PATCH_WINDOW bytes from the page of the first: the entries in it are done, and the
 * index of the first after them returned in *@next.
 */
static enum tk_status patch_window(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				   size_t i, size_t *next)
{
	uint64_t page = (uint64_t) sysconf(_SC_PAGESIZE), e;
	uint64_t at = (VEC_AT(&s->prov_file, uint64_t, i) >> 16) / page * page;
	uint64_t end = at + CW_PATCH_WINDOW; /* past the first entry's ID */
	uint8_t *m;

	if (end > s->offset)
		end = s->offset; /* the packets written, every ID in one of them */
	m = mmap(NULL, end - at, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, (off_t) at);
	if (m == MAP_FAILED)
		return TK_FAIL(TK_ERR_IO, "Cannot write event: stream=%s, errno=%s", s->name,
			       strerror(errno));
	for (; i < s->prov_file.len; i++) {
		e = VEC_AT(&s->prov_file, uint64_t, i);
		if ((e >> 16) + 4 > end)
			break;
		if (final_id(w, e) == UINT32_MAX)
			break;
		tk_store_u32(m + (e >> 16) - at, final_id(w, e), w->bo);
	}
	munmap(m, end - at);
	*next = i;
	if (i < s->prov_file.len && final_id(w, VEC_AT(&s->prov_file, uint64_t, i)) == UINT32_MAX)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot write event: stream=%s, reason=class of a provisional ID "
			       "not declared",
			       s->name);
	return TK_OK;
}

size_t ctf_writer_stream_provisional(const struct tk_ctf_writer_stream *s)
{
	return s->prov_pkt.len + s->prov_file.len;
}

enum tk_status ctf_writer_stream_patch(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s)
{
	enum tk_status st = ctf_write_io_wait(w, s);
	uint64_t e;
	size_t i;

	for (i = 0; i < s->prov_pkt.len && st >= 0; i++) {
		e = VEC_AT(&s->prov_pkt, uint64_t, i);
		if (final_id(w, e) == UINT32_MAX)
			st = TK_FAIL(TK_ERR_INVAL,
				     "Cannot write event: stream=%s, reason=class of a provisional "
				     "ID not declared",
				     s->name);
		else
			tk_store_u32(s->buf + (e >> 16), final_id(w, e), w->bo);
	}
	for (i = 0; i < s->prov_file.len && st >= 0;)
		st = patch_window(w, s, i, &i);
	s->prov_pkt.len = 0;
	s->prov_file.len = 0;
	if (st < 0)
		w->status = st;
	return st;
}

/* ---- streams and their packet contexts ------------------------------------------------------ */

/*
 * Encode @v, the values of the stream class's own packet-context fields, as the stream's
 * packets carry them from the next one on.
 */
static enum tk_status encode_pctx(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				  const struct tk_ctf_value *v)
{
	const struct cw_fields *fs = &s->sc->pctx;
	struct cw_run r;
	uint64_t need = fs->fixed;
	enum tk_status st;
	uint8_t *buf, *end;

	r.pad = 0;
	r.stream = s->name;
	st = ctf_write_measure(fs, v, &need, &r);
	if (st < 0)
		return st;
	buf = malloc((size_t) need + 1);
	if (!buf)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot set packet context: stream=%s", s->name);
	end = ctf_write_put(buf, fs, v, w->bo, &r);
	free(s->pctx);
	s->pctx = buf;
	s->pctx_len = (size_t) (end - buf);
	s->pctx_pad = r.pad;
	s->prefix = s->sc->std_end + s->pctx_len;
	return TK_OK;
}

static int stream_id_used(const struct tk_ctf_writer *w, const struct cw_sc *sc, uint64_t id)
{
	size_t i;

	for (i = 0; i < w->streams.len; i++) {
		const struct tk_ctf_writer_stream *s =
			VEC_AT(&w->streams, struct tk_ctf_writer_stream *, i);

		if (s->sc == sc && s->instance_id == id)
			return 1;
	}
	return 0;
}

static int bad_file_name(const char *n)
{
	return !n[0] || n[0] == '.' || strchr(n, '/') || !strcmp(n, "metadata") ||
	       !strcmp(n, "index") || strlen(n) > 200;
}

/* The stream's file and packet buffer, its header written once: it never changes. */
static enum tk_status open_stream(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s)
{
	uint8_t *h;

	s->cap = w->packet_size > s->prefix ? w->packet_size : s->prefix;
	s->buf = malloc(s->cap);
	if (!s->buf)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add stream: name=%s", s->name);
	/* shared: read too, to put final IDs over provisional ones (ctf_writer_stream_patch()) */
	s->fd = openat(w->dirfd, s->name,
		       (w->shared ? O_RDWR : O_WRONLY) | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (s->fd < 0)
		return TK_FAIL(TK_ERR_IO, "Cannot create stream file: dir=%s, name=%s, errno=%s",
			       w->dir, s->name, strerror(errno));
	h = s->buf;
	tk_store_u32(h, CW_CTF_MAGIC, w->bo);
	if (!w->no_uuid) {
		memcpy(h + 4, w->uuid, 16);
		h += 16;
	}
	tk_store_u32(h + 4, (uint32_t) s->sc->id, w->bo);
	tk_store_u64(h + 8, s->instance_id, w->bo);
	return TK_OK;
}

static void free_stream(struct tk_ctf_writer_stream *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	while (s->n_free)
		free(s->free_buf[--s->n_free]);
	free(s->pctx);
	vec_fini(&s->index);
	vec_fini(&s->prov_pkt);
	vec_fini(&s->prov_file);
	free(s);
}

static enum tk_status add_stream(struct tk_ctf_writer *w, uint64_t sc_id,
				 const struct tk_ctf_stream_desc *d,
				 struct tk_ctf_writer_stream **out)
{
	struct tk_ctf_writer_stream *s, **slot;
	struct tk_ctf_value *zero = NULL;
	struct cw_sc *sc = find_sc(w, sc_id);
	uint64_t id;
	char name[64];
	enum tk_status st;

	if (!sc)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add stream: stream-class-id=%" PRIu64
			       ", reason=no such stream class",
			       sc_id);
	id = d->has_id ? d->id : w->streams.len;
	if (stream_id_used(w, sc, id))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add stream: stream-class-id=%" PRIu64 ", id=%" PRIu64
			       ", reason=ID in use",
			       sc_id, id);
	if (d->name && bad_file_name(d->name))
		return TK_FAIL(TK_ERR_INVAL, "Cannot add stream: name=%s, reason=not a file name",
			       d->name);
	snprintf(name, sizeof(name), "channel%" PRIu64 "_%" PRIu64, sc_id, sc->n_streams);
	s = calloc(1, sizeof(*s));
	if (!s || !(s->name = arena_strdup(&w->arena, d->name ? d->name : name))) {
		free(s);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add stream: name=%s", name);
	}
	s->fd = -1;
	s->w = w;
	s->sc = sc;
	s->instance_id = id;
	s->cpu_id = d->cpu_id;
	s->prefix = sc->std_end;
	/* the stream class's own packet-context fields are zero until set */
	st = sc->pctx.n ? ctf_write_zero_values(&sc->pctx, &zero) : TK_OK;
	if (st >= 0 && sc->pctx.n)
		st = encode_pctx(w, s, zero);
	free(zero);
	if (st >= 0)
		st = open_stream(w, s);
	slot = st >= 0 ? vec_push(&w->streams, sizeof(*slot)) : NULL;
	if (st >= 0 && !slot)
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot add stream: name=%s", s->name);
	if (st < 0) {
		if (s->fd >= 0)
			unlinkat(w->dirfd, s->name, 0);
		free_stream(s);
		return TK_FAIL(st, "Cannot add stream: stream-class-id=%" PRIu64, sc_id);
	}
	sc->n_streams++;
	*slot = s;
	*out = s;
	return TK_OK;
}

enum tk_status tk_ctf_writer_add_stream(struct tk_ctf_writer *w, uint64_t sc_id, uint32_t cpu_id,
					struct tk_ctf_writer_stream **out)
{
	struct tk_ctf_stream_desc d = TK_CTF_STREAM_DESC_INIT;

	error_reset();
	TK_ASSERT_PRE(w && out);
	d.cpu_id = cpu_id;
	return add_stream(w, sc_id, &d, out);
}

enum tk_status tk_ctf_writer_add_stream_desc(struct tk_ctf_writer *w, uint64_t sc_id,
					     const struct tk_ctf_stream_desc *desc,
					     struct tk_ctf_writer_stream **out)
{
	struct tk_ctf_stream_desc d = TK_CTF_STREAM_DESC_INIT;

	error_reset();
	TK_ASSERT_PRE(w && desc && out && desc->size >= sizeof(size_t));
	memcpy(&d, desc, desc->size < sizeof(d) ? desc->size : sizeof(d));
	return add_stream(w, sc_id, &d, out);
}

/* ---- packets ------------------------------------------------------------------------------ */

/*
 * Fill the context of the packet in @buf (its header in place), write @size bytes of it and
 * note its index entry. The content ends at the last bit of the last event, which may be
 * inside a byte (CTF 1.8.3 section 5: readers stop reading events exactly there).
 */
static enum tk_status packet_emit(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				  uint8_t *buf, uint64_t content_bits, size_t size,
				  uint64_t ts_begin, uint64_t ts_end, uint64_t disc)
{
	const struct cw_sc *sc = s->sc;
	int clocked = sc->clock != TK_CTF_WRITER_NO_CLOCK;
	enum tk_status st;
	uint8_t *e;

	if (clocked) {
		tk_store_u64(buf + sc->off_ts_begin, ts_begin, w->bo);
		tk_store_u64(buf + sc->off_ts_end, ts_end, w->bo);
	}
	tk_store_u64(buf + sc->off_content, content_bits, w->bo);
	tk_store_u64(buf + sc->off_size, (uint64_t) size * 8, w->bo);
	tk_store_u64(buf + sc->off_seq, s->seq, w->bo);
	tk_store_u64(buf + sc->off_disc, disc, w->bo);
	if (sc->has_cpu_id)
		tk_store_u32(buf + sc->off_cpu, s->cpu_id, w->bo);
	if (buf == s->buf && s->prov_pkt.len) {
		/* provisional IDs in this packet: where they will be in the file */
		size_t i;

		if (vec_reserve(&s->prov_file, sizeof(uint64_t), s->prov_pkt.len)) {
			w->status = TK_ERR_NOMEM;
			return TK_FAIL(TK_ERR_NOMEM, "Cannot write packet: stream=%s", s->name);
		}
		for (i = 0; i < s->prov_pkt.len; i++)
			VEC_AT(&s->prov_file, uint64_t, s->prov_file.len++) =
				VEC_AT(&s->prov_pkt, uint64_t, i) + (s->offset << 16);
		s->prov_pkt.len = 0;
	}
	if (buf == s->buf) {
		st = ctf_write_io_submit(w, s, size);
	} else {
		st = ctf_write_io_wait(w, s);
		if (st >= 0)
			st = ctf_write_all(s->fd, buf, size, "packet", s->name);
	}
	if (st < 0) {
		w->status = st;
		return TK_FAIL(st, "Cannot write packet: dir=%s, stream=%s, packet=%" PRIu64,
			       w->dir, s->name, s->seq);
	}
	if (w->index_dirfd >= 0 && clocked) {
		e = vec_push(&s->index, CW_INDEX_ENTRY_SIZE);
		if (!e) {
			w->status = TK_ERR_NOMEM;
			return TK_FAIL(TK_ERR_NOMEM, "Cannot index packet: stream=%s", s->name);
		}
		tk_store_u64(e, s->offset, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 8, (uint64_t) size * 8, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 16, content_bits, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 24, ts_begin, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 32, ts_end, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 40, disc, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 48, sc->id, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 56, s->instance_id, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 64, s->seq, TK_BYTE_ORDER_BE);
	}
	s->offset += size;
	s->seq++;
	s->written++;
	s->disc_done = disc;
	s->gap = 0; /* a packet after lost ones: readers see the gap */
	return TK_OK;
}

/* A packet of the stream's header and context alone (content and size set by the caller). */
static uint8_t *empty_packet(const struct tk_ctf_writer *w, const struct tk_ctf_writer_stream *s)
{
	uint8_t *p = calloc(1, s->prefix);

	if (p) {
		memcpy(p, s->buf, w->header_size);
		if (s->pctx_len)
			memcpy(p + s->sc->std_end, s->pctx, s->pctx_len);
	}
	return p;
}

/* An empty packet from @ts_begin to @ts_end reporting @disc, written as it is. */
static enum tk_status packet_emit_empty(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
					uint64_t ts_begin, uint64_t ts_end, uint64_t disc)
{
	uint8_t *p = empty_packet(w, s);
	enum tk_status st;

	if (!p)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write packet: stream=%s", s->name);
	st = packet_emit(w, s, p, (uint64_t) s->prefix * 8 - s->pctx_pad, s->prefix, ts_begin,
			 ts_end, disc);
	free(p);
	return st;
}

/*
 * Readers only know how many events were lost since the previous packet: for the first
 * packet of a stream they report losses of an unknown count. So a first packet that has
 * losses to report is preceded by a packet of its header and context alone, which says that
 * none were lost before it (unless the loss is of an unknown count, which readers report
 * just so).
 */
static enum tk_status emit(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s, uint8_t *buf,
			   uint64_t content_bits, size_t size, uint64_t ts_begin, uint64_t ts_end,
			   uint64_t disc)
{
	enum tk_status st;

	if (!s->written && disc && !s->disc_unknown) {
		st = packet_emit_empty(w, s, ts_begin, ts_begin, 0);
		if (st < 0)
			return st;
	}
	return packet_emit(w, s, buf, content_bits, size, ts_begin, ts_end, disc);
}

/*
 * Finish the open packet at time @end: fill its context, pad it to the packet size (when
 * @pad is set; else it ends with its content), write it and note its index entry. @final counts every loss so far (the trace ends); otherwise
 * only those before its last event, the later ones belonging to the packet of the next
 * event. The reader's clock starts the next packet at @end.
 */
static enum tk_status packet_close(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				   int final, uint64_t end, int pad)
{
	size_t content = s->pos;
	size_t size = content > w->packet_size || !pad ? content : w->packet_size;
	enum tk_status st;

	memset(s->buf + content, 0, size - content);
	st = emit(w, s, s->buf, (uint64_t) content * 8 - s->tail_pad, size, s->ts_begin, end,
		  final ? s->disc_total : s->disc_pkt);
	s->pos = 0;
	s->clock = end;
	return st;
}

/*
 * No packet is open: write an empty one from the reader's clock to @end, reporting every
 * loss so far (a range of losses without events in it, losses after the last packet).
 */
static enum tk_status packet_fill(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				  uint64_t end)
{
	uint8_t *p = empty_packet(w, s);
	enum tk_status st;

	if (!p)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write packet: stream=%s", s->name);
	st = emit(w, s, p, (uint64_t) s->prefix * 8 - s->pctx_pad, s->prefix,
		  s->has_ts ? s->clock : end, end, s->disc_total);
	free(p);
	s->clock = end;
	return st;
}

/* Room for @need more bytes after the open packet's content (an event larger than a packet). */
static enum tk_status grow(struct tk_ctf_writer_stream *s, uint64_t need)
{
	uint64_t want = ((uint64_t) s->pos + need + 4095) & ~(uint64_t) 4095;
	uint8_t *nb;

	if (want > SIZE_MAX / 2)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot grow packet: stream=%s, bytes=%" PRIu64,
			       s->name, want);
	nb = realloc(s->buf, (size_t) want);
	if (!nb)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot grow packet: stream=%s, bytes=%" PRIu64,
			       s->name, want);
	s->buf = nb;
	s->cap = (size_t) want;
	return TK_OK;
}

/*
 * The packet reporting a ranged loss ends at s->end_at: finish it (with the events up to
 * then, or empty) before anything later happens in the stream.
 */
static enum tk_status settle_loss(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s)
{
	if (!s->has_end)
		return TK_OK;
	s->has_end = 0;
	if (s->pos)
		return packet_close(w, s, 0, s->end_at, 1);
	return packet_fill(w, s, s->end_at);
}

enum tk_status tk_ctf_writer_set_packet_context(struct tk_ctf_writer *w,
						struct tk_ctf_writer_stream *s,
						const struct tk_ctf_value *values)
{
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(w && s && s->w == w && values);
	if (!s->sc->pctx.n)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot set packet context: stream=%s, reason=its class declares no "
			       "packet-context fields",
			       s->name);
	if (s->pos) {
		/* check the values before finishing the packet: a refusal changes nothing */
		struct cw_run r;
		uint64_t need = 0;

		r.stream = s->name;
		st = ctf_write_measure(&s->sc->pctx, values, &need, &r);
		if (st < 0)
			return st;
		st = packet_close(w, s, 0, s->clock, 1);
		if (st < 0)
			return st;
	}
	return encode_pctx(w, s, values);
}

/* ---- events ------------------------------------------------------------------------------- */

/* short_ts_ok(), header_size() and put_header() are in ctf-write-priv.h, for the inline reserve. */

/*
 * The first event of a stream class fixes its event header: compact while it has fewer than
 * 31 event classes, all of small ids (as lttng-modules decides), large otherwise.
 */
static void freeze(struct cw_sc *sc)
{
	if (sc->frozen)
		return;
	sc->frozen = 1;
	sc->large = sc->ecs.len >= CW_COMPACT_EXT || sc->next_ec_id > CW_COMPACT_EXT;
}

enum tk_status ctf_writer_set_large_header(struct tk_ctf_writer *w, uint64_t sc_id)
{
	struct cw_sc *sc = find_sc(w, sc_id);

	if (!sc || sc->frozen)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot choose event header: stream-class-id=%" PRIu64 ", reason=%s",
			       sc_id, sc ? "events written already" : "unknown stream class");
	sc->frozen = 1;
	sc->large = 1;
	return TK_OK;
}

enum tk_status ctf_writer_write_metadata(struct tk_ctf_writer *w)
{
	return ctf_write_metadata(w);
}

enum tk_status ctf_writer_write_metadata_at(struct tk_ctf_writer *w, int dirfd)
{
	return ctf_write_metadata_at(w, dirfd);
}

/* Check the values of one scope and add the bytes they take to *@need. */
static inline enum tk_status measure_scope(const struct cw_fields *fs, const struct tk_ctf_value *v,
					   uint64_t *need, struct cw_run *r)
{
	*need += fs->fixed;
	if (!fs->n || (fs->flat && !fs->n_var))
		return TK_OK; /* nothing to check: only fixed-size fields */
	return ctf_write_measure(fs, v, need, r);
}

/*
 * Place an event of class @ec_id at time @ts whose contexts and payload take @body bytes:
 * close the open packet when the event does not fit, open one when none is, write the event
 * header. *@out is where the body goes; the caller writes it and moves s->pos past it.
 */
static enum tk_status event_begin(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				  uint64_t ec_id, uint64_t ts, uint64_t body, uint8_t **out)
{
	struct cw_sc *sc = s->sc;
	int clocked = sc->clock != TK_CTF_WRITER_NO_CLOCK;
	uint64_t need = body, clk;
	enum tk_status st;
	size_t hs;
	uint8_t *p;

	if (TK_UNLIKELY(!sc->frozen))
		freeze(sc);
	/* after a ranged loss, the packet reporting it holds the events up to its end */
	if (TK_UNLIKELY(s->has_end) && ts > s->end_at && (st = settle_loss(w, s)) < 0)
		return st;
	clk = s->has_ts ? s->clock : ts;
	hs = clocked ? header_size(sc, ec_id, clk, ts) : 4;
	need += hs;
	if (s->pos && !s->has_end && (s->pos > w->packet_size || need > w->packet_size - s->pos)) {
		st = packet_close(w, s, 0, s->clock, 1);
		if (st < 0)
			return st;
	}
	if (!s->pos) {
		if (TK_UNLIKELY(s->prefix > s->cap) && (st = grow(s, s->prefix)) < 0)
			return st;
		if (s->pctx_len)
			memcpy(s->buf + sc->std_end, s->pctx, s->pctx_len);
		s->pos = s->prefix;
		s->ts_begin = clk;
	}
	if (TK_UNLIKELY(need > s->cap - s->pos) && (st = grow(s, need)) < 0)
		return st;
	p = s->buf + s->pos;
	if (TK_UNLIKELY(ec_id >= CW_PROV_BASE) &&
	    (st = ctf_write_note_provisional(s, s->pos + (clocked ? 1 : 0), ec_id)) < 0)
		return st; /* the ID after a compact header's 31, or the whole header */
	if (clocked) {
		p = put_header(p, hs, ec_id, ts, w->bo);
	} else {
		tk_store_u32(p, (uint32_t) ec_id, w->bo);
		p += 4;
	}
	*out = p;
	return TK_OK;
}

enum tk_status tk_ctf_writer_append_scopes(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
					   uint64_t ec_id, uint64_t ts,
					   const struct tk_ctf_value *common_context,
					   const struct tk_ctf_value *context,
					   const struct tk_ctf_value *payload)
{
	const struct cw_ec *ec;
	struct cw_sc *sc;
	struct cw_run r;
	enum tk_status st;
	uint64_t need = 0;
	uint8_t *p;
	int clocked;

	error_reset();
	TK_ASSERT_PRE(w && s && s->w == w);
	if (TK_UNLIKELY(w->status < 0))
		return TK_FAIL(w->status,
			       "Cannot append event: dir=%s, reason=an earlier write failed",
			       w->dir);
	sc = s->sc;
	clocked = sc->clock != TK_CTF_WRITER_NO_CLOCK;
	ec = find_ec(sc, ec_id);
	if (TK_UNLIKELY(!ec))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot append event: stream=%s, event-class-id=%" PRIu64
			       ", reason=no such event class in stream class %" PRIu64,
			       s->name, ec_id, sc->id);
	if (!clocked)
		ts = 0;
	if (TK_UNLIKELY(s->has_ts && ts < s->clock))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot append event: stream=%s, time=%" PRIu64 ", previous=%" PRIu64
			       ", reason=time goes back",
			       s->name, ts, s->clock);
	if (TK_UNLIKELY((sc->ctx.n && !common_context) || (ec->ctx.n && !context) ||
			(ec->fields.n && !payload)))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot append event: stream=%s, event=%s, reason=no %s", s->name,
			       ec->name ? ec->name : "",
			       !payload ? "payload values" : "context values");
	r.stream = s->name;
	st = measure_scope(&sc->ctx, common_context, &need, &r);
	if (st >= 0)
		st = measure_scope(&ec->ctx, context, &need, &r);
	if (st >= 0)
		st = measure_scope(&ec->fields, payload, &need, &r);
	if (st < 0)
		return st;
	st = event_begin(w, s, ec_id, ts, need, &p);
	if (st < 0)
		return st;
	r.pad = 0;
	if (sc->ctx.n)
		p = ctf_write_put(p, &sc->ctx, common_context, w->bo, &r);
	if (ec->ctx.n)
		p = ctf_write_put(p, &ec->ctx, context, w->bo, &r);
	if (ec->fields.n)
		p = ctf_write_put(p, &ec->fields, payload, w->bo, &r);
	s->pos = (size_t) (p - s->buf);
	s->tail_pad = r.pad;
	s->clock = ts;
	s->has_ts = 1;
	s->disc_pkt = s->disc_total;
	return TK_OK;
}

enum tk_status tk_ctf_writer_append(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				    uint64_t ec_id, uint64_t ts, const struct tk_ctf_value *context,
				    const struct tk_ctf_value *payload)
{
	return tk_ctf_writer_append_scopes(w, s, ec_id, ts, context, NULL, payload);
}

uint8_t *ctf_write_event_reserve_slow(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				      uint64_t ec_id, uint64_t ts, size_t body, enum tk_status *st)
{
	const struct cw_ec *ec = find_ec(s->sc, ec_id);
	uint8_t *p;

	if (TK_UNLIKELY(w->status < 0)) {
		*st = TK_FAIL(w->status,
			      "Cannot append event: dir=%s, reason=an earlier write failed",
			      w->dir);
		return NULL;
	}
	if (TK_UNLIKELY(!ec || ec->ctx.n || s->sc->clock == TK_CTF_WRITER_NO_CLOCK ||
			(s->has_ts && ts < s->clock))) {
		*st = TK_FAIL(TK_ERR_INVAL,
			      "Cannot append event: stream=%s, event-class-id=%" PRIu64
			      ", time=%" PRIu64 ", reason=%s",
			      s->name, ec_id, ts,
			      !ec			   ? "no such event class"
			      : ec->ctx.n		   ? "event class with its own context"
			      : s->has_ts && ts < s->clock ? "time goes back"
							   : "stream without a clock");
		return NULL;
	}
	*st = event_begin(w, s, ec_id, ts, body, &p);
	if (*st < 0)
		return NULL;
	s->pos = (size_t) (p - s->buf) + body;
	s->tail_pad = 0;
	s->clock = ts;
	s->has_ts = 1;
	s->disc_pkt = s->disc_total;
	return p;
}

/* ---- losses ------------------------------------------------------------------------------- */

/* An unknown count of losses: readers can only be told so for a stream's first packet. */
static uint64_t loss_count(struct tk_ctf_writer_stream *s, uint64_t count)
{
	if (count != UINT64_MAX)
		return count;
	if (!s->written && !s->pos)
		s->disc_unknown = 1;
	return 1;
}

enum tk_status tk_ctf_writer_add_discarded(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
					   uint64_t count)
{
	enum tk_status st = TK_OK;

	error_reset();
	TK_ASSERT_PRE(w && s && s->w == w);
	/*
	 * A loss after events of the open packet ends that packet where it is (not padded: it
	 * may happen often), so that the packet of the next event starts with it and readers
	 * see the loss right before that event, not somewhere inside a packet.
	 */
	if (count && s->pos && !s->has_end && w->status >= 0)
		st = packet_close(w, s, 0, s->clock, 0);
	s->disc_total += loss_count(s, count);
	return st;
}

/*
 * Before a loss at time @begin: the stream's packets must end there. The open packet is
 * finished at @begin; without one, an empty packet covers the time since the last packet.
 */
static enum tk_status end_packets_at(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				     uint64_t begin, const char *what)
{
	enum tk_status st = settle_loss(w, s);

	if (st < 0)
		return st;
	if (s->has_ts && begin < s->clock)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot record %s: stream=%s, begin=%" PRIu64 ", previous=%" PRIu64
			       ", reason=time goes back",
			       what, s->name, begin, s->clock);
	if (s->pos)
		return packet_close(w, s, 0, begin, 1);
	if (s->written && s->clock < begin)
		return packet_fill(w, s, begin);
	return TK_OK;
}

enum tk_status tk_ctf_writer_add_discarded_range(struct tk_ctf_writer *w,
						 struct tk_ctf_writer_stream *s, uint64_t count,
						 uint64_t begin, uint64_t end)
{
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(w && s && s->w == w);
	if (s->sc->clock == TK_CTF_WRITER_NO_CLOCK || end < begin)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot record discarded events: stream=%s, begin=%" PRIu64
			       ", end=%" PRIu64 ", reason=%s",
			       s->name, begin, end,
			       end < begin ? "ends before it begins" : "stream without a clock");
	st = end_packets_at(w, s, begin, "discarded events");
	if (st < 0)
		return st;
	s->disc_total += loss_count(s, count);
	s->clock = begin;
	s->has_ts = 1;
	s->has_end = 1;
	s->end_at = end;
	return TK_OK;
}

enum tk_status tk_ctf_writer_add_discarded_packets(struct tk_ctf_writer *w,
						   struct tk_ctf_writer_stream *s, uint64_t count,
						   uint64_t begin, uint64_t end)
{
	int clocked = s && s->sc->clock != TK_CTF_WRITER_NO_CLOCK;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(w && s && s->w == w);
	if (!count || (clocked && end < begin))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot record discarded packets: stream=%s, count=%" PRIu64
			       ", begin=%" PRIu64 ", end=%" PRIu64,
			       s->name, count, begin, end);
	/*
	 * Overwrite (flight recorder) mode: the packet after the lost ones also reports the
	 * events discarded since the previous packet, a range from that packet's end to its own
	 * end, recorded just before. Readers report the lost packets from the previous packet's
	 * end to this packet's beginning: so it begins where they end, and still ends where the
	 * discarded events do.
	 */
	if (clocked && s->has_end && !s->pos && s->has_ts && begin >= s->clock &&
	    end <= s->end_at) {
		s->seq += count;
		s->gap = 1;
		s->clock = end;
		return TK_OK;
	}
	st = end_packets_at(w, s, clocked ? begin : s->clock, "discarded packets");
	if (st < 0)
		return st;
	s->seq += count;
	s->gap = 1;
	if (clocked) {
		s->clock = end;
		s->has_ts = 1;
	}
	return TK_OK;
}

/* ---- end ---------------------------------------------------------------------------------- */

/* Keep the first failure of a sequence of steps that all run. */
static void keep_first(enum tk_status *first, enum tk_status st)
{
	if (st < 0 && *first >= 0)
		*first = st;
}

enum tk_status tk_ctf_writer_close(struct tk_ctf_writer *w)
{
	enum tk_status st = TK_OK;
	size_t i;

	error_reset();
	if (!w)
		return TK_OK;
	if (w->status < 0)
		st = TK_FAIL(w->status,
			     "Cannot finish trace: dir=%s, reason=an earlier write failed", w->dir);
	/* every step runs even after a failure, so that as much as possible is readable */
	for (i = 0; i < w->streams.len; i++) {
		struct tk_ctf_writer_stream *s =
			VEC_AT(&w->streams, struct tk_ctf_writer_stream *, i);

		keep_first(&st, settle_loss(w, s));
		/* the last packet; losses or lost packets after it get an empty one */
		if (s->pos)
			keep_first(&st, packet_close(w, s, 1, s->clock, 1));
		else if (s->disc_total > s->disc_done || s->gap)
			keep_first(&st, packet_fill(w, s, s->clock));
		keep_first(&st, ctf_write_io_wait(w, s));
		/* readers find packets by time through an index: none without a clock */
		if (w->index_dirfd >= 0 && s->sc->clock != TK_CTF_WRITER_NO_CLOCK)
			keep_first(&st, ctf_write_index(w, s));
		if (close(s->fd))
			keep_first(&st,
				   TK_FAIL(TK_ERR_IO, "Cannot close stream file: name=%s, errno=%s",
					   s->name, strerror(errno)));
		s->fd = -1;
	}
	keep_first(&st, ctf_write_metadata(w));
	tk_ctf_writer_destroy(w);
	if (st < 0)
		return TK_FAIL(st, "Cannot close CTF writer");
	return TK_OK;
}

void tk_ctf_writer_destroy(struct tk_ctf_writer *w)
{
	size_t i;

	if (!w)
		return;
	ctf_write_io_stop(w);
	for (i = 0; i < w->streams.len; i++)
		free_stream(VEC_AT(&w->streams, struct tk_ctf_writer_stream *, i));
	for (i = 0; i < w->scs.len; i++) {
		vec_fini(&VEC_AT(&w->scs, struct cw_sc *, i)->ecs);
		vec_fini(&VEC_AT(&w->scs, struct cw_sc *, i)->ec_table);
	}
	vec_fini(&w->streams);
	vec_fini(&w->scs);
	vec_fini(&w->clocks);
	vec_fini(&w->env);
	if (w->index_dirfd >= 0)
		close(w->index_dirfd);
	if (w->dirfd >= 0)
		close(w->dirfd);
	arena_fini(&w->arena);
	free(w->prov_final);
	free(w->dir);
	free(w);
}

uint8_t *ctf_writer_event_reserve(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				  uint64_t ec_id, uint64_t ts, size_t body, enum tk_status *st)
{
	return ctf_write_event_reserve(w, s, ec_id, ts, body, st);
}
