// SPDX-License-Identifier: MIT
/*
 * The CTF 1.8 writer: trace directory, streams, packets and events (public API in
 * include/tracekit/ctf-writer.h; declarations, metadata and index files in ctf-write-meta.c).
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
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracekit/ctf-writer.h>

#include "../common/bits.h"
#include "../common/error.h"
#include "ctf-write-priv.h"

/* Longest string or sequence one event may carry. */
#define CW_MAX_LEN UINT32_MAX

/* ---- the trace directory ------------------------------------------------------------------ */

/* mkdir -p: every missing directory of @path. */
static enum tk_status make_dirs(const char *path)
{
	size_t n = strlen(path), i;
	enum tk_status st = TK_OK;
	char *p = malloc(n + 1);

	if (!p)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create trace directory: dir=%s", path);
	memcpy(p, path, n + 1);
	for (i = 1; i <= n && st >= 0; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			st = TK_FAIL(TK_ERR_IO, "Cannot create trace directory: dir=%s, errno=%s",
				     p, strerror(errno));
		p[i] = i < n ? '/' : '\0';
	}
	free(p);
	return st;
}

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
	w->bo = o.byte_order == TK_CTF_BYTE_ORDER_LE   ? TK_BYTE_ORDER_LE
		: o.byte_order == TK_CTF_BYTE_ORDER_BE ? TK_BYTE_ORDER_BE
						       : TK_BYTE_ORDER_HOST;
	if (o.has_uuid)
		memcpy(w->uuid, o.uuid, 16);
	else
		random_uuid(w->uuid);
	st = make_dirs(dir);
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

static int clock_named(const struct tk_ctf_writer *w, const char *id)
{
	size_t i;

	for (i = 0; i < w->clocks.len; i++)
		if (!strcmp(VEC_AT(&w->clocks, struct cw_clock, i).name, id))
			return 1;
	return 0;
}

enum tk_status tk_ctf_writer_add_clock(struct tk_ctf_writer *w, const char *name,
				       uint64_t frequency, int64_t offset_s, uint64_t offset_cycles,
				       const char *description, int is_absolute, uint64_t *clock_id)
{
	struct cw_clock *c;
	unsigned long k = 1;
	size_t base;
	char *id;

	error_reset();
	TK_ASSERT_PRE(w && name && clock_id);
	if (!name[0] || !frequency)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add clock: name=%s, frequency=%" PRIu64
			       ", reason=needs a name and a frequency",
			       name, frequency);
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
	c->freq = frequency;
	c->offset_s = offset_s;
	c->offset_cycles = offset_cycles;
	c->absolute = !!is_absolute;
	if (description) {
		c->description = arena_strdup(&w->arena, description);
		if (!c->description) {
			w->clocks.len--;
			return TK_FAIL(TK_ERR_NOMEM, "Cannot add clock: name=%s", name);
		}
	}
	*clock_id = w->clocks.len - 1;
	return TK_OK;
}

/* ---- stream and event classes ------------------------------------------------------------- */

static struct cw_sc *find_sc(struct tk_ctf_writer *w, uint64_t sc_id)
{
	return sc_id < w->scs.len ? VEC_AT(&w->scs, struct cw_sc *, sc_id) : NULL;
}

enum tk_status tk_ctf_writer_add_stream_class(struct tk_ctf_writer *w, uint64_t clock_id,
					      uint64_t *sc_id)
{
	struct cw_sc *sc, **slot;

	error_reset();
	TK_ASSERT_PRE(w && sc_id);
	if (clock_id >= w->clocks.len)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add stream class: clock-id=%" PRIu64
			       ", reason=no such clock",
			       clock_id);
	sc = arena_alloc(&w->arena, sizeof(*sc));
	slot = vec_push(&w->scs, sizeof(*slot));
	if (!sc || !slot) {
		if (slot)
			w->scs.len--;
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add stream class");
	}
	sc->id = w->scs.len - 1;
	sc->clock = clock_id;
	*slot = sc;
	*sc_id = sc->id;
	return TK_OK;
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
	st = ctf_write_fields_compile(&w->arena, fields, n, what, &f);
	if (st < 0)
		return TK_FAIL(st, "Cannot set event context: stream-class-id=%" PRIu64, sc_id);
	sc->ctx = f;
	return TK_OK;
}

enum tk_status tk_ctf_writer_add_event_class(struct tk_ctf_writer *w, uint64_t sc_id,
					     const char *name, int loglevel,
					     const struct tk_ctf_field_decl *fields, size_t n,
					     uint64_t *ec_id)
{
	struct cw_ec *ec, **slot;
	struct cw_sc *sc;
	char what[320];
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(w && name && (fields || !n) && ec_id);
	sc = find_sc(w, sc_id);
	if (!sc)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add event class: name=%s, stream-class-id=%" PRIu64
			       ", reason=no such stream class",
			       name, sc_id);
	if (sc->ecs.len >= UINT32_MAX)
		return TK_FAIL(TK_ERR_INVAL, "Cannot add event class: name=%s, reason=too many",
			       name);
	snprintf(what, sizeof(what), "payload of event class %.256s", name);
	ec = arena_alloc(&w->arena, sizeof(*ec));
	if (!ec || !(ec->name = arena_strdup(&w->arena, name)))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add event class: name=%s", name);
	ec->loglevel = loglevel < 0 ? -1 : loglevel;
	st = ctf_write_fields_compile(&w->arena, fields, n, what, &ec->fields);
	if (st < 0)
		return TK_FAIL(st, "Cannot add event class: name=%s", name);
	slot = vec_push(&sc->ecs, sizeof(*slot));
	if (!slot)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add event class: name=%s", name);
	*slot = ec;
	*ec_id = sc->ecs.len - 1;
	return TK_OK;
}

/* ---- streams and packets ------------------------------------------------------------------ */

enum tk_status tk_ctf_writer_add_stream(struct tk_ctf_writer *w, uint64_t sc_id, uint32_t cpu_id,
					struct tk_ctf_writer_stream **out)
{
	struct tk_ctf_writer_stream *s, **slot;
	struct cw_sc *sc;
	char name[64];

	error_reset();
	TK_ASSERT_PRE(w && out);
	sc = find_sc(w, sc_id);
	if (!sc)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add stream: stream-class-id=%" PRIu64
			       ", reason=no such stream class",
			       sc_id);
	snprintf(name, sizeof(name), "channel%" PRIu64 "_%" PRIu64, sc_id, sc->n_streams);
	s = calloc(1, sizeof(*s));
	slot = vec_push(&w->streams, sizeof(*slot));
	if (!s || !slot || !(s->name = arena_strdup(&w->arena, name)) ||
	    !(s->buf = malloc(w->packet_size))) {
		if (slot)
			w->streams.len--;
		free(s);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add stream: name=%s", name);
	}
	s->fd = openat(w->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (s->fd < 0) {
		enum tk_status st =
			TK_FAIL(TK_ERR_IO, "Cannot create stream file: dir=%s, name=%s, errno=%s",
				w->dir, name, strerror(errno));

		w->streams.len--;
		free(s->buf);
		free(s);
		return st;
	}
	s->w = w;
	s->sc = sc;
	s->instance_id = w->streams.len - 1;
	s->cpu_id = cpu_id;
	s->cap = w->packet_size;
	/* the packet header never changes: write it once */
	tk_store_u32(s->buf, CW_CTF_MAGIC, w->bo);
	memcpy(s->buf + 4, w->uuid, 16);
	tk_store_u32(s->buf + 20, (uint32_t) sc->id, w->bo);
	tk_store_u64(s->buf + 24, s->instance_id, w->bo);
	sc->n_streams++;
	*slot = s;
	*out = s;
	return TK_OK;
}

/*
 * Fill the context of the packet in @buf (its header in place), write @size bytes of it and
 * note its index entry. The content ends at the last bit of the last event, which may be
 * inside a byte (CTF 1.8.3 section 5: readers stop reading events exactly there).
 */
static enum tk_status packet_emit(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				  uint8_t *buf, uint64_t content_bits, size_t size, uint64_t ts_end,
				  uint64_t disc)
{
	uint8_t *c = buf + CW_PACKET_HEADER_SIZE;
	enum tk_status st;
	uint8_t *e;

	tk_store_u64(c, s->ts_begin, w->bo);
	tk_store_u64(c + 8, ts_end, w->bo);
	tk_store_u64(c + 16, content_bits, w->bo);
	tk_store_u64(c + 24, (uint64_t) size * 8, w->bo);
	tk_store_u64(c + 32, s->seq, w->bo);
	tk_store_u64(c + 40, disc, w->bo);
	tk_store_u32(c + 48, s->cpu_id, w->bo);
	st = ctf_write_all(s->fd, buf, size, "packet", s->name);
	if (st < 0) {
		w->status = st;
		return TK_FAIL(st, "Cannot write packet: dir=%s, stream=%s, packet=%" PRIu64,
			       w->dir, s->name, s->seq);
	}
	if (w->index_dirfd >= 0) {
		e = vec_push(&s->index, CW_INDEX_ENTRY_SIZE);
		if (!e) {
			w->status = TK_ERR_NOMEM;
			return TK_FAIL(TK_ERR_NOMEM, "Cannot index packet: stream=%s", s->name);
		}
		tk_store_u64(e, s->offset, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 8, (uint64_t) size * 8, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 16, content_bits, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 24, s->ts_begin, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 32, ts_end, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 40, disc, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 48, s->sc->id, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 56, s->instance_id, TK_BYTE_ORDER_BE);
		tk_store_u64(e + 64, s->seq, TK_BYTE_ORDER_BE);
	}
	s->offset += size;
	s->seq++;
	return TK_OK;
}

/*
 * Finish the open packet (or write an empty one when none is open): fill its context, pad
 * it to the packet size (when @pad is set; else it ends with its content), write it and note
 * its index entry. @final counts every loss so far (the trace ends); otherwise only those
 * before its last event, the later ones belonging to the packet of the next event.
 *
 * Readers only know how many events were lost since the previous packet: for the first
 * packet of a stream they report losses of an unknown count. So a first packet that has
 * losses to report is preceded by a packet of its header and context alone, which says
 * that none were lost before it.
 */
static enum tk_status packet_close(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				   int final, int pad)
{
	size_t content = s->pos ? s->pos : CW_PACKET_PREFIX;
	size_t size = content > w->packet_size || !pad ? content : w->packet_size;
	uint64_t disc = final ? s->disc_total : s->disc_pkt;
	enum tk_status st;

	if (!s->seq && disc) {
		uint8_t zero[CW_PACKET_PREFIX];

		memcpy(zero, s->buf, CW_PACKET_HEADER_SIZE);
		st = packet_emit(w, s, zero, CW_PACKET_PREFIX * 8, CW_PACKET_PREFIX, s->ts_begin,
				 0);
		if (st < 0)
			return st;
	}
	memset(s->buf + content, 0, size - content);
	st = packet_emit(w, s, s->buf, (uint64_t) content * 8 - (s->pos ? s->tail_pad : 0), size,
			 s->pos ? s->clock : s->ts_begin, disc);
	if (s->pos) /* an empty packet after this one (losses at the end) starts where it ends */
		s->ts_begin = s->clock;
	s->pos = 0;
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

/* ---- events ------------------------------------------------------------------------------- */

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

/*
 * Check the values of the strings, arrays and sequences of @fs and add the bytes their texts
 * and elements take to *@need. Nothing has been written when this fails.
 */
static enum tk_status measure(const struct cw_fields *fs, const struct tk_ctf_value *v,
			      uint64_t *need, const struct tk_ctf_writer_stream *s)
{
	uint32_t k;

	for (k = 0; k < fs->n_var; k++) {
		const struct cw_field *f = &fs->f[fs->var[k]];
		const struct tk_ctf_value *x = &v[fs->var[k]];
		uint64_t limit = f->op == CW_OP_ARRAY ? f->array_len : CW_MAX_LEN;

		if (TK_UNLIKELY((!x->data && x->len) || x->len > limit))
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot append event: stream=%s, field=%s, length=%zu, "
				       "reason=%s",
				       s->name, f->name, x->len,
				       !x->data && x->len     ? "no data"
				       : f->op == CW_OP_ARRAY ? "more elements than the array holds"
							      : "too long");
		if (f->op == CW_OP_STRING)
			*need += x->len;
		else if (f->op == CW_OP_SEQUENCE)
			*need += (uint64_t) x->len * f->out_bytes;
	}
	return TK_OK;
}

/* An integer of @f->bits bits (not 8, 16, 32 or 64) in @f->out_bytes bytes. */
static inline uint8_t *put_bits(uint8_t *p, const struct cw_field *f, uint64_t v,
				enum tk_byte_order bo)
{
	memset(p, 0, f->out_bytes);
	tk_bits_write(p, 0, f->bits, v, bo);
	return p + f->out_bytes;
}

/* @n elements from the caller's array @data (host order, f->in_bytes each). */
static uint8_t *put_elems(uint8_t *p, const struct cw_field *f, const void *data, size_t n,
			  enum tk_byte_order bo)
{
	const uint8_t *src = data;
	size_t i;

	if (!n)
		return p;
	if (f->bits == 8 || (bo == TK_BYTE_ORDER_HOST && f->bits == 8u * f->in_bytes)) {
		memcpy(p, src, n * f->out_bytes);
		return p + n * f->out_bytes;
	}
	switch (f->bits) {
	case 16:
		for (i = 0; i < n; i++)
			tk_store_u16(p + 2 * i, tk_load_u16(src + 2 * i, TK_BYTE_ORDER_HOST), bo);
		return p + 2 * n;
	case 32:
		for (i = 0; i < n; i++)
			tk_store_u32(p + 4 * i, tk_load_u32(src + 4 * i, TK_BYTE_ORDER_HOST), bo);
		return p + 4 * n;
	case 64:
		for (i = 0; i < n; i++)
			tk_store_u64(p + 8 * i, tk_load_u64(src + 8 * i, TK_BYTE_ORDER_HOST), bo);
		return p + 8 * n;
	default:
		break;
	}
	for (i = 0; i < n; i++, src += f->in_bytes) {
		uint64_t v;

		switch (f->in_bytes) {
		case 1:
			v = *src;
			break;
		case 2:
			v = tk_load_u16(src, TK_BYTE_ORDER_HOST);
			break;
		case 4:
			v = tk_load_u32(src, TK_BYTE_ORDER_HOST);
			break;
		default:
			v = tk_load_u64(src, TK_BYTE_ORDER_HOST);
			break;
		}
		p = put_bits(p, f, v, bo);
	}
	return p;
}

static inline float to_float(double d)
{
	/* out of range is undefined behaviour in C: give the infinity IEEE 754 rounding gives */
	if (d > FLT_MAX)
		return INFINITY;
	if (d < -FLT_MAX)
		return -INFINITY;
	return (float) d;
}

/* Write the values @v of the fields @fs at @p; measure() checked them. */
static uint8_t *put_fields(uint8_t *p, const struct cw_fields *fs, const struct tk_ctf_value *v,
			   enum tk_byte_order bo)
{
	const struct cw_field *f = fs->f;
	uint32_t i;

	for (i = 0; i < fs->n; i++, f++, v++) {
		switch (f->op) {
		case CW_OP_U8:
			*p++ = (uint8_t) v->v.u;
			break;
		case CW_OP_U16:
			tk_store_u16(p, (uint16_t) v->v.u, bo);
			p += 2;
			break;
		case CW_OP_U32:
			tk_store_u32(p, (uint32_t) v->v.u, bo);
			p += 4;
			break;
		case CW_OP_U64:
			tk_store_u64(p, v->v.u, bo);
			p += 8;
			break;
		case CW_OP_BITS:
			p = put_bits(p, f, v->v.u, bo);
			break;
		case CW_OP_F32: {
			float x = to_float(v->v.d);
			uint32_t u;

			memcpy(&u, &x, sizeof(u));
			tk_store_u32(p, u, bo);
			p += 4;
			break;
		}
		case CW_OP_F64: {
			uint64_t u;

			memcpy(&u, &v->v.d, sizeof(u));
			tk_store_u64(p, u, bo);
			p += 8;
			break;
		}
		case CW_OP_STRING: {
			size_t n = v->len;

			if (n) {
				const uint8_t *nul = memchr(v->data, 0, n);

				if (nul)
					n = (size_t) (nul - (const uint8_t *) v->data);
				memcpy(p, v->data, n);
			}
			p[n] = 0;
			p += n + 1;
			break;
		}
		case CW_OP_ARRAY:
			p = put_elems(p, f, v->data, v->len, bo);
			if (v->len < f->array_len) {
				size_t rest = (size_t) (f->array_len - v->len) * f->out_bytes;

				memset(p, 0, rest);
				p += rest;
			}
			break;
		default: /* CW_OP_SEQUENCE */
			tk_store_u32(p, (uint32_t) v->len, bo);
			p = put_elems(p + 4, f, v->data, v->len, bo);
			break;
		}
	}
	return p;
}

/*
 * The first event of a stream class fixes its event header: compact while it has fewer than
 * 31 event classes (as lttng-modules decides), large otherwise.
 */
static void freeze(struct cw_sc *sc)
{
	sc->frozen = 1;
	sc->large = sc->ecs.len >= CW_COMPACT_EXT;
}

enum tk_status tk_ctf_writer_append(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s,
				    uint64_t ec_id, uint64_t ts, const struct tk_ctf_value *context,
				    const struct tk_ctf_value *payload)
{
	const struct tk_ctf_value *vals;
	const struct cw_fields *last;
	const struct cw_ec *ec;
	struct cw_sc *sc;
	enum tk_status st;
	uint64_t need, clk;
	size_t hs;
	uint8_t *p;

	error_reset();
	TK_ASSERT_PRE(w && s && s->w == w);
	if (TK_UNLIKELY(w->status < 0))
		return TK_FAIL(w->status,
			       "Cannot append event: dir=%s, reason=an earlier write failed",
			       w->dir);
	sc = s->sc;
	if (TK_UNLIKELY(ec_id >= sc->ecs.len))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot append event: stream=%s, event-class-id=%" PRIu64
			       ", reason=no such event class in stream class %" PRIu64,
			       s->name, ec_id, sc->id);
	ec = VEC_AT(&sc->ecs, struct cw_ec *, ec_id);
	if (TK_UNLIKELY(s->has_ts && ts < s->clock))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot append event: stream=%s, time=%" PRIu64 ", previous=%" PRIu64
			       ", reason=time goes back",
			       s->name, ts, s->clock);
	if (TK_UNLIKELY((sc->ctx.n && !context) || (ec->fields.n && !payload)))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot append event: stream=%s, event=%s, reason=no %s", s->name,
			       ec->name, payload ? "context values" : "payload values");
	need = sc->ctx.fixed + ec->fields.fixed;
	if (sc->ctx.n_var && (st = measure(&sc->ctx, context, &need, s)) < 0)
		return st;
	if (ec->fields.n_var && (st = measure(&ec->fields, payload, &need, s)) < 0)
		return st;
	if (TK_UNLIKELY(!sc->frozen))
		freeze(sc);
	clk = s->has_ts ? s->clock : ts;
	hs = header_size(sc, ec_id, clk, ts);
	need += hs;
	if (s->pos && (s->pos > w->packet_size || need > w->packet_size - s->pos)) {
		st = packet_close(w, s, 0, 1);
		if (st < 0)
			return st;
	}
	if (!s->pos) {
		s->pos = CW_PACKET_PREFIX;
		s->ts_begin = clk;
	}
	if (TK_UNLIKELY(need > s->cap - s->pos) && (st = grow(s, need)) < 0)
		return st;
	p = put_header(s->buf + s->pos, hs, ec_id, ts, w->bo);
	if (sc->ctx.n)
		p = put_fields(p, &sc->ctx, context, w->bo);
	if (ec->fields.n)
		p = put_fields(p, &ec->fields, payload, w->bo);
	s->pos = (size_t) (p - s->buf);
	last = ec->fields.n ? &ec->fields : &sc->ctx;
	vals = ec->fields.n ? payload : context;
	s->tail_pad = last->tail_seq && !vals[last->n - 1].len ? 0 : last->tail_pad;
	s->clock = ts;
	s->has_ts = 1;
	s->disc_pkt = s->disc_total;
	return TK_OK;
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
	if (count && s->pos && w->status >= 0)
		st = packet_close(w, s, 0, 0);
	s->disc_total += count;
	return st;
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

		/* the last packet; losses without any event get an empty one */
		if (s->pos || s->disc_total)
			keep_first(&st, packet_close(w, s, 1, 1));
		if (w->index_dirfd >= 0)
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
	for (i = 0; i < w->streams.len; i++) {
		struct tk_ctf_writer_stream *s =
			VEC_AT(&w->streams, struct tk_ctf_writer_stream *, i);

		if (s->fd >= 0)
			close(s->fd);
		free(s->buf);
		vec_fini(&s->index);
		free(s);
	}
	for (i = 0; i < w->scs.len; i++)
		vec_fini(&VEC_AT(&w->scs, struct cw_sc *, i)->ecs);
	vec_fini(&w->streams);
	vec_fini(&w->scs);
	vec_fini(&w->clocks);
	vec_fini(&w->env);
	if (w->index_dirfd >= 0)
		close(w->index_dirfd);
	if (w->dirfd >= 0)
		close(w->dirfd);
	arena_fini(&w->arena);
	free(w->dir);
	free(w);
}
