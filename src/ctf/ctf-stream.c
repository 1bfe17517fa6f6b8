// SPDX-License-Identifier: MIT
/*
 * CTF data streams: files, packets and the per-stream cursor feeding the time-ordered merge.
 *
 * Opening a trace reads the header and context of the first packet of every data file, to
 * learn its stream class, stream instance and start time: files of the same stream instance
 * (LTTng tracefile rotation, session rotation chunks) form one stream, read in start-time
 * order; other files are streams of their own, numbered in path order like babeltrace2 does.
 * Later packets are read lazily, one after the other, so a damaged packet stops its stream
 * after every good event before it (CTF 1.8.3 section 5: packet header, context, events,
 * padding). LTTng index files, when present and sound, give the packet offsets.
 *
 * The cursor produces the items babeltrace2's message iterator produces, in the same order:
 * discarded-events and discarded-packets reports (from the loss counter and sequence number
 * of consecutive packets), packet beginning, events, packet end. The packet times follow
 * babeltrace2's fix-ups for known tracer bugs (lttng-crash, event after packet, barectf event
 * before packet).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "../common/error.h"
#include "ctf.h"

#define UNSET UINT64_MAX

struct ctf_pkt {
	uint64_t offset;      /* bytes in the file */
	uint64_t packet_bits; /* from the index */
	uint64_t content_bits;
};

struct ctf_file {
	const char *path;
	const uint8_t *mem; /* contents held in memory (fuzzers, tests), or NULL */
	int64_t begin_ns;
	uint8_t has_begin;
	uint64_t size;
	struct ctf_pkt *idx; /* NULL: walk packet sizes */
	size_t nidx;
	size_t idx_missing; /* packets the index lists past the end of the file (cut short) */
};

struct ctf_stream {
	struct ctf_file **files;
	size_t nfiles;
	uint64_t data_stream_id; /* UNSET if none */
};

/* ---- packet reading shared by open-time probing and cursors ----------------------------- */

static void dec_reset_meanings(struct ctf_dec *d)
{
	d->stream_class_id = UNSET;
	d->data_stream_id = UNSET;
	d->event_id = UNSET;
	d->ts_begin = UNSET;
	d->ts_end = UNSET;
	d->discarded = UNSET;
	d->seq_num = UNSET;
	d->packet_size = UNSET;
	d->content_size = UNSET;
	d->last_bo = -1;
}

struct pkt_info {
	struct model_stream_class *sc;
	uint64_t packet_bits;  /* UNSET: runs to the end of the file */
	uint64_t content_bits; /* UNSET: runs to the end of the file */
	size_t header_values;  /* values of the packet header */
};

/*
 * Decode the packet header and context at @off of @data (@size bytes), check the packet's
 * sizes against the file, and say which stream class it belongs to. Values accumulate in @d.
 */
static enum tk_status read_packet_start(const struct tk_source *src, const uint8_t *data,
					uint64_t size, uint64_t off, const struct ctf_pkt *ix,
					struct ctf_dec *d, struct pkt_info *pi)
{
	const struct ctf_trace *ct = src->fmt;
	struct model_stream_class *sc = NULL;
	const struct ctf_sc *csc;
	uint64_t avail_bits = (size - off) * 8;
	enum tk_status st;
	size_t i;

	d->base = data + off;
	d->pos = 0;
	d->limit = ix ? ix->content_bits : avail_bits;
	d->nv = 0;
	dec_reset_meanings(d);
	st = ctf_prog_run(ct->header_prog, d);
	if (st < 0)
		return st;
	pi->header_values = d->nv;
	if (d->stream_class_id == UNSET) {
		if (src->n_scs != 1)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot find stream class: reason=no stream_id "
				       "field and %zu stream classes",
				       src->n_scs);
		sc = src->scs[0];
	} else {
		for (i = 0; i < src->n_scs; i++)
			if (src->scs[i]->id == d->stream_class_id)
				sc = src->scs[i];
		if (!sc)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot find stream class: id=%llu, "
				       "reason=no such stream class",
				       (unsigned long long) d->stream_class_id);
	}
	csc = sc->fmt;
	st = ctf_prog_run(csc->pctx_prog, d);
	if (st < 0)
		return st;
	pi->sc = sc;
	/* babeltrace2: a missing packet size is the content size, and the other way round */
	pi->packet_bits = d->packet_size;
	pi->content_bits = d->content_size;
	if (pi->packet_bits == UNSET)
		pi->packet_bits = pi->content_bits;
	else if (pi->content_bits == UNSET)
		pi->content_bits = pi->packet_bits;
	if (ix && pi->packet_bits == UNSET) {
		pi->packet_bits = ix->packet_bits;
		pi->content_bits = ix->content_bits;
	}
	if (pi->packet_bits != UNSET) {
		if (pi->content_bits > pi->packet_bits)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot use packet size: content-size=%llu, "
				       "packet-size=%llu, reason=content larger than packet",
				       (unsigned long long) pi->content_bits,
				       (unsigned long long) pi->packet_bits);
		if (pi->packet_bits % 8 || pi->packet_bits == 0)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot use packet size: packet-size=%llu, "
				       "reason=not a whole, non-zero number of bytes",
				       (unsigned long long) pi->packet_bits);
		if (pi->packet_bits > avail_bits)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot use packet size: packet-size-bits=%llu, "
				       "bytes-left-in-file=%llu, reason=packet goes past the end "
				       "of the file",
				       (unsigned long long) pi->packet_bits,
				       (unsigned long long) (size - off));
		if (ix &&
		    (pi->packet_bits != ix->packet_bits || pi->content_bits != ix->content_bits))
			return TK_FAIL(
				TK_ERR_FORMAT,
				"Cannot use packet size: packet-size=%llu, content-size=%llu, "
				"index-packet-size=%llu, index-content-size=%llu, "
				"reason=packet and index disagree",
				(unsigned long long) pi->packet_bits,
				(unsigned long long) pi->content_bits,
				(unsigned long long) ix->packet_bits,
				(unsigned long long) ix->content_bits);
		if (d->pos > pi->content_bits)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot use packet size: header-bits=%llu, "
				       "content-size=%llu, reason=header and context larger than "
				       "the content",
				       (unsigned long long) d->pos,
				       (unsigned long long) pi->content_bits);
		d->limit = pi->content_bits;
	}
	return TK_OK;
}

/* ---- LTTng index files ------------------------------------------------------------------ */

/*
 * index/<file>.idx beside a data file: a big-endian header (magic 0xC1F1DCC1, major 1, minor,
 * entry length) and one entry per packet (offset, packet and content sizes in bits, ...).
 * Any inconsistency makes the index ignored: packets are then found by walking their sizes,
 * as babeltrace2 does. One is kept: a data file that ends exactly where an entry's packet
 * should start. It was cut short at a packet boundary, which the data alone cannot show
 * (babeltrace2 reads what is left without a word); we read the packets that are there and
 * then report the missing ones. A file cut inside a packet needs no index to be noticed.
 */
static void read_index(const char *dir, const char *name, struct ctf_file *f)
{
	char path[4096];
	struct mfile mf;
	uint32_t entry_len;
	size_t n, i;
	struct ctf_pkt *pk;

	if (snprintf(path, sizeof(path), "%s/index/%s.idx", dir, name) >= (int) sizeof(path))
		return;
	if (access(path, R_OK))
		return;
	if (mfile_open(&mf, path) < 0) {
		error_reset();
		return;
	}
	if (mf.size < 16 || tk_load_be32(mf.data) != UINT32_C(0xC1F1DCC1) ||
	    tk_load_be32(mf.data + 4) != 1)
		goto out;
	entry_len = tk_load_be32(mf.data + 12);
	if (entry_len < 56 || (mf.size - 16) % entry_len)
		goto out;
	n = (mf.size - 16) / entry_len;
	if (!n)
		goto out;
	pk = calloc(n, sizeof(*pk));
	if (!pk)
		goto out;
	for (i = 0; i < n; i++) {
		const uint8_t *e = mf.data + 16 + i * entry_len;
		uint64_t end;

		pk[i].offset = tk_load_be64(e);
		pk[i].packet_bits = tk_load_be64(e + 8);
		pk[i].content_bits = tk_load_be64(e + 16);
		end = pk[i].offset + pk[i].packet_bits / 8;
		if (pk[i].packet_bits % 8 || !pk[i].packet_bits ||
		    pk[i].content_bits > pk[i].packet_bits || end < pk[i].offset ||
		    (i && pk[i].offset != pk[i - 1].offset + pk[i - 1].packet_bits / 8) ||
		    (!i && pk[i].offset != 0)) {
			free(pk);
			goto out;
		}
		if (end > f->size) {
			if (pk[i].offset != f->size) {
				free(pk);
				goto out;
			}
			f->idx_missing = n - i; /* this one and the rest are not in the file */
			break;
		}
	}
	if (!f->idx_missing && pk[n - 1].offset + pk[n - 1].packet_bits / 8 != f->size) {
		free(pk);
		goto out;
	}
	f->idx = pk;
	f->nidx = n - f->idx_missing;
out:
	mfile_close(&mf);
}

/* ---- opening the streams of a trace directory --------------------------------------------- */

struct probe {
	struct ctf_file *file;
	struct model_stream_class *sc;
	uint64_t data_stream_id;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Read the first packet of a data file (@data, @size) and record what it says in @probes. */
static enum tk_status probe_data(struct tk_source *src, struct ctf_file *f, const uint8_t *data,
				 struct vec *probes, struct ctf_dec *d)
{
	struct pkt_info pi = {NULL, 0, 0, 0};
	struct probe *pr;
	enum tk_status st;

	st = read_packet_start(src, data, f->size, 0, f->idx, d, &pi);
	if (st < 0)
		return TK_FAIL(st, "Cannot read first packet of stream file: path=%s, offset=0",
			       f->path);
	if (d->ts_begin != UNSET && pi.sc->clock) {
		if (model_clock_ns(pi.sc->clock, d->ts_begin, &f->begin_ns))
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read first packet of stream file: "
				       "path=%s, reason=begin time overflows",
				       f->path);
		f->has_begin = 1;
	}
	pr = vec_push(probes, sizeof(*pr));
	if (!pr)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open stream file: path=%s", f->path);
	pr->file = f;
	pr->sc = pi.sc;
	pr->data_stream_id = f->has_begin ? d->data_stream_id : UNSET;
	return TK_OK;
}

static enum tk_status probe_file(struct tk_source *src, const char *dir, const char *name,
				 struct vec *probes, struct ctf_dec *d)
{
	struct arena *a = &src->arena;
	char *path;
	struct mfile mf;
	struct ctf_file *f;
	enum tk_status st;
	size_t dl = strlen(dir), nl = strlen(name);

	path = arena_alloc(a, dl + nl + 2);
	if (!path)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open stream file: name=%s", name);
	memcpy(path, dir, dl);
	path[dl] = '/';
	memcpy(path + dl + 1, name, nl + 1);
	st = mfile_open(&mf, path);
	if (st < 0)
		return st;
	if (mf.size == 0) {
		struct ctf_file empty = {.path = path};

		mfile_close(&mf);
		/* empty files are skipped, like babeltrace2, unless an index lists packets */
		read_index(dir, name, &empty);
		free(empty.idx);
		if (empty.idx_missing)
			return TK_FAIL(
				TK_ERR_FORMAT,
				"Cannot read stream file: path=%s, reason=empty, but its index "
				"lists %zu packets (file cut short?)",
				path, empty.idx_missing);
		return TK_OK;
	}
	f = arena_alloc(a, sizeof(*f));
	if (!f) {
		mfile_close(&mf);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open stream file: path=%s", path);
	}
	f->path = path;
	f->size = mf.size;
	read_index(dir, name, f);
	st = probe_data(src, f, mf.data, probes, d);
	mfile_close(&mf);
	if (st < 0) { /* not among the probes: nothing else frees its index */
		free(f->idx);
		f->idx = NULL;
	}
	return st;
}

/* Files of one stream are ordered by their first packet's time (stable for equal times). */
static int cmp_probe_time(const void *pa, const void *pb)
{
	const struct probe *a = pa, *b = pb;

	if (a->file->begin_ns != b->file->begin_ns)
		return a->file->begin_ns < b->file->begin_ns ? -1 : 1;
	return strcmp(a->file->path, b->file->path);
}

static int cmp_stream_path(const void *pa, const void *pb)
{
	const struct tk_stream *a = *(const struct tk_stream *const *) pa;
	const struct tk_stream *b = *(const struct tk_stream *const *) pb;

	return strcmp(a->path, b->path);
}

static enum tk_status list_data_files(const char *dir, struct vec *names)
{
	DIR *dh = opendir(dir);
	struct dirent *de;

	if (!dh)
		return TK_FAIL(TK_ERR_IO, "Cannot open trace directory: path=%s, errno=%s", dir,
			       strerror(errno));
	while ((de = readdir(dh))) {
		char path[4096];
		struct stat sb;
		char **slot;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata"))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int) sizeof(path))
			continue;
		if (stat(path, &sb) || !S_ISREG(sb.st_mode))
			continue;
		slot = vec_push(names, sizeof(*slot));
		if (!slot || !(*slot = strdup(de->d_name))) {
			closedir(dh);
			return TK_FAIL(TK_ERR_NOMEM, "Cannot list trace directory: path=%s", dir);
		}
	}
	closedir(dh);
	sort_array(names->data, names->len, sizeof(char *), cmp_name);
	return TK_OK;
}

static enum tk_status dec_init(struct ctf_dec *d, const struct ctf_trace *ct)
{
	memset(d, 0, sizeof(*d));
	d->stored = calloc(ct->n_stored + 1, sizeof(uint64_t));
	if (!d->stored)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot allocate decoder");
	return TK_OK;
}

static void dec_free(struct ctf_dec *d)
{
	ctf_dec_fini(d);
	free(d->stored);
	d->stored = NULL;
}

/*
 * Add the probed files to the streams of @src (which may already hold streams of other
 * directories of the same trace: files of the same stream instance are merged), then number
 * the streams without an instance ID in path order.
 */
static enum tk_status group_probes(struct tk_source *src, struct vec *probes)
{
	struct vec streams = VEC_INIT;
	enum tk_status st = TK_OK;
	size_t i, j;
	uint64_t next_id = 0;

	for (i = 0; i < src->n_streams; i++) {
		struct tk_stream **slot = vec_push(&streams, sizeof(*slot));

		if (!slot) {
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot open streams");
			goto out;
		}
		*slot = src->streams[i];
	}
	sort_array(probes->data, probes->len, sizeof(struct probe), cmp_probe_time);
	for (i = 0; i < probes->len; i++) {
		struct probe *pr = &VEC_AT(probes, struct probe, i);
		struct tk_stream *s = NULL;
		struct ctf_stream *cs;
		struct ctf_file **files;

		if (pr->data_stream_id != UNSET) {
			for (j = 0; j < streams.len; j++) {
				struct tk_stream *o = VEC_AT(&streams, struct tk_stream *, j);
				struct ctf_stream *ocs = o->fmt;

				if (o->sc == pr->sc && ocs->data_stream_id == pr->data_stream_id)
					s = o;
			}
		}
		if (!s) {
			struct tk_stream **slot = vec_push(&streams, sizeof(*slot));

			s = arena_alloc(&src->arena, sizeof(*s));
			cs = arena_alloc(&src->arena, sizeof(*cs));
			if (!slot || !s || !cs) {
				st = TK_FAIL(TK_ERR_NOMEM, "Cannot open streams");
				goto out;
			}
			*slot = s;
			s->source = src;
			s->sc = pr->sc;
			s->path = pr->file->path;
			s->fmt = cs;
			cs->data_stream_id = pr->data_stream_id;
		}
		cs = s->fmt;
		files = arena_alloc(&src->arena, (cs->nfiles + 1) * sizeof(*files));
		if (!files) {
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot open streams");
			goto out;
		}
		/* insert before the first file that starts later (babeltrace2's order) */
		for (j = 0; j < cs->nfiles; j++)
			if (pr->file->begin_ns < cs->files[j]->begin_ns)
				break;
		if (j)
			memcpy(files, cs->files, j * sizeof(*files));
		files[j] = pr->file;
		if (cs->nfiles > j)
			memcpy(files + j + 1, cs->files + j, (cs->nfiles - j) * sizeof(*files));
		cs->nfiles++;
		cs->files = files;
		s->path = cs->files[0]->path; /* a stream is named after its earliest file */
	}
	sort_array(streams.data, streams.len, sizeof(struct tk_stream *), cmp_stream_path);
	src->n_streams = streams.len;
	src->streams = arena_alloc(&src->arena, (streams.len + 1) * sizeof(*src->streams));
	if (!src->streams) {
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot open streams");
		goto out;
	}
	for (i = 0; i < streams.len; i++) {
		struct tk_stream *s = VEC_AT(&streams, struct tk_stream *, i);
		struct ctf_stream *cs = s->fmt;

		src->streams[i] = s;
		s->id = cs->data_stream_id != UNSET ? cs->data_stream_id : next_id++;
	}
out:
	vec_fini(&streams);
	return st;
}

enum tk_status ctf_streams_open(struct tk_source *src, const char *dir)
{
	struct vec names = VEC_INIT, probes = VEC_INIT;
	struct ctf_dec d;
	enum tk_status st;
	size_t i;

	st = dec_init(&d, src->fmt);
	if (st < 0)
		return st;
	st = list_data_files(dir, &names);
	for (i = 0; st >= 0 && i < names.len; i++)
		st = probe_file(src, dir, VEC_AT(&names, char *, i), &probes, &d);
	for (i = 0; i < names.len; i++)
		free(VEC_AT(&names, char *, i));
	vec_fini(&names);
	dec_free(&d);
	if (st >= 0)
		st = group_probes(src, &probes);
	if (st < 0) /* the files probed are in no stream, whose closing would free their index */
		for (i = 0; i < probes.len; i++) {
			struct ctf_file *f = VEC_AT(&probes, struct probe, i).file;

			free(f->idx);
			f->idx = NULL;
		}
	vec_fini(&probes);
	if (st < 0)
		return TK_FAIL(st, "Cannot open streams: path=%s", dir);
	return TK_OK;
}

enum tk_status ctf_streams_open_mem(struct tk_source *src, const char *const *names,
				    const uint8_t *const *data, const size_t *sizes, size_t n)
{
	struct vec probes = VEC_INIT;
	struct ctf_dec d;
	enum tk_status st;
	size_t i;

	st = dec_init(&d, src->fmt);
	if (st < 0)
		return st;
	for (i = 0; st >= 0 && i < n; i++) {
		struct ctf_file *f;

		if (!sizes[i])
			continue;
		f = arena_alloc(&src->arena, sizeof(*f));
		if (!f || !(f->path = arena_strdup(&src->arena, names[i]))) {
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot open streams");
			break;
		}
		f->mem = data[i];
		f->size = sizes[i];
		st = probe_data(src, f, data[i], &probes, &d);
	}
	dec_free(&d);
	if (st >= 0)
		st = group_probes(src, &probes);
	vec_fini(&probes);
	return st;
}

void ctf_streams_close(struct tk_source *src)
{
	size_t i, j;

	for (i = 0; i < src->n_streams; i++) {
		struct ctf_stream *cs = src->streams[i]->fmt;

		for (j = 0; cs && j < cs->nfiles; j++) {
			free(cs->files[j]->idx);
			cs->files[j]->idx = NULL;
		}
	}
}

/* ---- the cursor ----------------------------------------------------------------------------- */

enum cur_state {
	CUR_PACKET,	 /* read the next packet's header and context */
	CUR_DISC_EVENTS, /* report lost events, then lost packets, then begin the packet */
	CUR_DISC_PACKETS,
	CUR_BEGIN,
	CUR_EVENTS,
	CUR_QUEUED_EVENT, /* barectf quirk: event decoded before its packet's beginning */
	CUR_END,
	CUR_DONE,
};

struct snapshots {
	uint64_t discarded;
	uint64_t seq_num;
	uint64_t ts_begin;
	uint64_t ts_end;
};

struct ctf_cursor {
	struct model_cursor base;
	struct tk_stream *stream;
	struct ctf_stream *cs;
	const struct ctf_trace *ct;
	const struct ctf_sc *csc;
	struct ctf_dec d;
	enum cur_state state;
	size_t file; /* index in cs->files of the mapped file */
	struct mfile mf;
	uint64_t pkt_off;  /* bytes */
	uint64_t pkt_bits; /* UNSET: to the end of the file */
	uint64_t content_bits;
	size_t pkt_no;	    /* packet number in the current file */
	uint8_t pkt_done;   /* the packet at pkt_off has ended: the next one is after it */
	size_t npkt_vals;   /* values of packet header and context */
	size_t pctx_off;    /* first value of the packet context */
	int64_t cpu_member; /* packet context member that is the CPU (cpu_id), or -1 */
	struct snapshots cur, prev;
	struct tk_event ev;
	struct tk_notice notice;
	uint64_t ev_pos;   /* where the current event starts (bits from the packet) */
	uint64_t body_pos; /* where the current event's body starts */
	size_t body_nv;	   /* value index where its values start */
	const uint8_t *segs[CTF_LAID_MAX + 1]; /* a skipped laid body's segments (tk_event.segs) */
	struct pkt_ref *order; /* streams of several files: every packet, in reading order */
	size_t norder, next_ref;
	/*
	 * cursor_next()'s fast path: an event starting before this bit holds a whole LTTng
	 * little-endian header (fast_kind) within the content of the packet being read; 0 in
	 * any other state (set by cursor_next_slow() after every step, see cursor_set_fast())
	 */
	uint64_t fast_end;
	uint8_t fast_kind; /* the stream class's header kind when the fast path may take it */
	const struct tk_clock *fast_clock; /* the stream class's, with fast_kind */
	struct fast_ec *fast_ecs;	   /* by event id, below n_fast (cursor_fast_ecs()) */
	size_t n_fast;
};

/* What cursor_next() needs of an event class, by id, in one place. */
enum fast_body {
	FAST_NONE,   /* no such class, or a body of neither kind: cursor_next_body() */
	FAST_STATIC, /* a fixed layout (ctf_ec: body_static) that may start on any byte */
	FAST_LAID,   /* a laid body (ctf_ec: laid_n) */
};

struct fast_ec {
	const struct tk_event_class *ec;
	uint64_t body_bits; /* FAST_STATIC */
	int8_t body_last_bo;
	uint8_t body; /* enum fast_body */
};

int64_t ctf_cpu_member(const struct model_fc *pc)
{
	uint32_t i;

	for (i = 0; pc && pc->kind == MODEL_FC_STRUCT && i < pc->u.st.count; i++) {
		const struct model_member *m = &pc->u.st.members[i];

		if (m->name && !strcmp(m->name, "cpu_id"))
			return m->fc->kind == MODEL_FC_INT || m->fc->kind == MODEL_FC_ENUM
				       ? (int64_t) i
				       : -1;
	}
	return -1;
}

/*
 * The CPU of the packet just read (its context's values decoded), or -1: the members before
 * cpu_id are skipped, once per packet, as their values may depend on the data.
 */
static int32_t packet_cpu(const struct ctf_cursor *c, const struct model_fc *pc)
{
	const struct model_value *v = c->d.vals + c->pctx_off;

	for (int64_t i = 0; i < c->cpu_member; i++)
		v = model_value_skip(pc->u.st.members[i].fc, v);
	return v->v.u <= INT32_MAX ? (int32_t) v->v.u : -1;
}

static TK_NOINLINE enum tk_status cycles_to_ns_slow(const struct tk_stream *s, uint64_t cycles,
						    int64_t *ns)
{
	if (model_clock_ns(s->sc->clock, cycles, ns))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot convert time: stream=%s, cycles=%llu, "
			       "reason=nanoseconds from origin overflow 64 bits",
			       s->path, (unsigned long long) cycles);
	return TK_OK;
}

/* Clock value to ns from origin; 1 GHz clocks with an offset that cannot overflow inline. */
static inline enum tk_status cycles_to_ns(const struct tk_stream *s, uint64_t cycles, int64_t *ns)
{
	const struct tk_clock *clk = s->sc->clock;

	if (TK_LIKELY(cycles < clk->fast_cycles)) { /* 1 GHz, no overflow (model_clock_finish()) */
		*ns = clk->base_ns + (int64_t) cycles;
		return TK_OK;
	}
	return cycles_to_ns_slow(s, cycles, ns);
}

/*
 * A packet of a stream made of several files (a trace read from several overlapping
 * snapshots or directories of one trace, or rotated files): babeltrace2 reads such a stream
 * as one list of packets sorted by beginning time, where a packet identical to one already
 * listed (same size, times and sequence number) is dropped. A file that cannot be walked to
 * its end contributes its good packets and then one bad entry, read last, which reports the
 * damage when the cursor reaches it.
 */
struct pkt_ref {
	uint32_t file;
	uint8_t bad;
	size_t no; /* packet number in its file */
	uint64_t offset;
	uint64_t packet_bits, content_bits; /* UNSET: to the end of the file */
	int64_t begin_ns;
	uint64_t ts_end, seq_num;
};

static int pkt_ref_same(const struct pkt_ref *a, const struct pkt_ref *b)
{
	return !a->bad && !b->bad && a->packet_bits == b->packet_bits &&
	       a->begin_ns == b->begin_ns && a->ts_end == b->ts_end && a->seq_num == b->seq_num;
}

/* The packets of file @k (@data, @size) in file order, appended to @out. */
static enum tk_status walk_file(struct ctf_cursor *c, uint32_t k, const uint8_t *data,
				uint64_t size, struct vec *out)
{
	const struct ctf_file *f = c->cs->files[k];
	uint64_t off = 0;
	size_t no = 0;

	while (off < size) {
		struct pkt_info pi = {NULL, 0, 0, 0};
		const struct ctf_pkt *ix = f->idx && no < f->nidx ? &f->idx[no] : NULL;
		struct pkt_ref *r = vec_push(out, sizeof(*r));

		if (!r)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot order packets: path=%s", f->path);
		r->file = k;
		r->no = no;
		r->offset = off;
		if ((f->idx && !ix) ||
		    read_packet_start(c->stream->source, data, size, off, ix, &c->d, &pi) < 0 ||
		    pi.sc != c->stream->sc || c->d.ts_begin == UNSET || !pi.sc->clock ||
		    model_clock_ns(pi.sc->clock, c->d.ts_begin, &r->begin_ns)) {
			error_reset(); /* the cursor reads this packet again and reports why */
			r->bad = 1;
			r->begin_ns = INT64_MAX;
			return TK_OK;
		}
		r->packet_bits = pi.packet_bits;
		r->content_bits = pi.content_bits;
		r->ts_end = c->d.ts_end;
		r->seq_num = c->d.seq_num;
		off = pi.packet_bits == UNSET ? size : off + pi.packet_bits / 8;
		no++;
	}
	return TK_OK;
}

/*
 * Merge @add (one file's packets) into the sorted list @all: a packet goes before the first
 * listed one that does not begin earlier, unless that one is the same packet. Bad entries
 * stay at the end.
 */
static enum tk_status merge_refs(struct vec *all, const struct vec *add)
{
	const struct pkt_ref *a = all->data, *b = add->data;
	size_t i = 0, j = 0, n = 0;
	struct pkt_ref *m = malloc((all->len + add->len + 1) * sizeof(*m));

	if (!m)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot order packets");
	while (i < all->len || j < add->len) {
		if (j < add->len && (i == all->len || b[j].begin_ns <= a[i].begin_ns)) {
			if (!(i < all->len && pkt_ref_same(&b[j], &a[i])))
				m[n++] = b[j];
			j++;
		} else {
			m[n++] = a[i++];
		}
	}
	free(all->data);
	all->cap = all->len + add->len + 1;
	all->data = m;
	all->len = n;
	return TK_OK;
}

static enum tk_status cursor_build_order(struct ctf_cursor *c)
{
	struct vec all = VEC_INIT, add = VEC_INIT;
	enum tk_status st = TK_OK;
	uint32_t k;

	for (k = 0; k < c->cs->nfiles && st >= 0; k++) {
		const struct ctf_file *f = c->cs->files[k];
		struct mfile mf;

		mfile_init(&mf);
		if (f->mem)
			mfile_borrow(&mf, f->mem, f->size);
		else if (mfile_open(&mf, f->path) < 0)
			error_reset(); /* reported when the cursor opens it */
		add.len = 0;
		if (mf.data && mf.size == f->size) {
			st = walk_file(c, k, mf.data, mf.size, &add);
		} else {
			struct pkt_ref *r = vec_push(&add, sizeof(*r));

			if (!r)
				st = TK_FAIL(TK_ERR_NOMEM, "Cannot order packets");
			else
				*r = (struct pkt_ref){.file = k, .bad = 1, .begin_ns = INT64_MAX};
		}
		mfile_close(&mf);
		if (st >= 0)
			st = merge_refs(&all, &add);
	}
	vec_fini(&add);
	if (st < 0) {
		vec_fini(&all);
		return st;
	}
	c->order = all.data;
	c->norder = all.len;
	c->next_ref = 0;
	return TK_OK;
}

/* Map file @k of the stream, unless it is the one mapped. */
static enum tk_status cursor_map_file(struct ctf_cursor *c, size_t k)
{
	const struct ctf_file *f = c->cs->files[k];
	enum tk_status st;

	if (c->mf.data && c->file == k)
		return TK_OK;
	mfile_close(&c->mf);
	c->file = k;
	if (f->mem) {
		mfile_borrow(&c->mf, f->mem, f->size);
		return TK_OK;
	}
	st = mfile_open(&c->mf, f->path);
	if (st < 0)
		return st;
	if (c->mf.size != f->size) {
		mfile_close(&c->mf);
		return TK_FAIL(TK_ERR_IO,
			       "Cannot read stream file: path=%s, "
			       "reason=file changed size since the trace was opened",
			       f->path);
	}
	return TK_OK;
}

/* Map the next file of the stream; TK_END after the last one. */
static enum tk_status cursor_next_file(struct ctf_cursor *c)
{
	enum tk_status st;

	mfile_close(&c->mf);
	if (c->file >= c->cs->nfiles)
		return TK_END;
	if (c->cs->files[c->file]->mem) {
		mfile_borrow(&c->mf, c->cs->files[c->file]->mem, c->cs->files[c->file]->size);
		c->pkt_off = 0;
		c->pkt_no = 0;
		return TK_OK;
	}
	st = mfile_open(&c->mf, c->cs->files[c->file]->path);
	if (st < 0)
		return st;
	if (c->mf.size != c->cs->files[c->file]->size) {
		const char *path = c->cs->files[c->file]->path;

		mfile_close(&c->mf);
		return TK_FAIL(TK_ERR_IO,
			       "Cannot read stream file: path=%s, "
			       "reason=file changed size since the trace was opened",
			       path);
	}
	c->pkt_off = 0;
	c->pkt_no = 0;
	return TK_OK;
}

static enum tk_status cursor_read_packet(struct ctf_cursor *c)
{
	struct ctf_file *f;
	struct pkt_info pi = {NULL, 0, 0, 0};
	const struct ctf_pkt *ix = NULL;
	enum tk_status st;

	if (c->pkt_done) { /* the packet that ended: pkt_off and pkt_no named it until now */
		c->pkt_off = c->pkt_bits == UNSET ? c->mf.size : c->pkt_off + c->pkt_bits / 8;
		c->pkt_no++;
		c->pkt_done = 0;
	}
	if (c->order) {
		const struct pkt_ref *r;

		if (c->next_ref >= c->norder)
			return TK_END;
		r = &c->order[c->next_ref++];
		st = cursor_map_file(c, r->file);
		if (st < 0)
			return st;
		c->pkt_off = r->offset;
		c->pkt_no = r->no;
	}
	for (;;) {
		f = c->cs->files[c->file];
		if (f->idx && c->pkt_no >= f->nidx && f->idx_missing)
			return TK_FAIL(
				TK_ERR_FORMAT,
				"Cannot read packet: file=%s, index=%zu, offset=%llu, "
				"file-size=%llu, reason=the index lists %zu more packets than "
				"the file holds (file cut short?)",
				f->path, c->pkt_no, (unsigned long long) c->pkt_off,
				(unsigned long long) f->size, f->idx_missing);
		if (c->pkt_off < c->mf.size)
			break;
		if (c->order) /* a bad entry past the end of its file */
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read packet: file=%s, index=%zu, reason=not in the "
				       "file",
				       f->path, c->pkt_no);
		c->file++;
		st = cursor_next_file(c);
		if (st != TK_OK)
			return st;
	}
	if (f->idx) {
		if (c->pkt_no >= f->nidx)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read packet: file=%s, index=%zu, offset=%llu, "
				       "reason=not in the index file",
				       f->path, c->pkt_no, (unsigned long long) c->pkt_off);
		ix = &f->idx[c->pkt_no];
	}
	mfile_release_before(&c->mf, c->pkt_off);
	c->prev = c->cur;
	st = read_packet_start(c->stream->source, c->mf.data, c->mf.size, c->pkt_off, ix, &c->d,
			       &pi);
	if (st < 0)
		return TK_FAIL(st, "Cannot read packet: file=%s, index=%zu, offset=%llu", f->path,
			       c->pkt_no, (unsigned long long) c->pkt_off);
	if (pi.sc != c->stream->sc)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read packet: file=%s, index=%zu, offset=%llu, "
			       "reason=packet of another stream class",
			       f->path, c->pkt_no, (unsigned long long) c->pkt_off);
	c->pctx_off = pi.header_values;
	c->npkt_vals = c->d.nv;
	/* valid for the packet's skipped bodies too (tk_event.body) */
	c->ev.scope[MODEL_SCOPE_PACKET_CONTEXT] = c->d.vals ? c->d.vals + c->pctx_off : NULL;
	if (c->cpu_member >= 0)
		c->ev.cpu = packet_cpu(c, c->stream->sc->packet_context);
	c->pkt_bits = pi.packet_bits;
	c->content_bits = pi.content_bits;
	c->cur.discarded = c->d.discarded;
	c->cur.seq_num = c->d.seq_num;
	c->cur.ts_begin = c->d.ts_begin;
	c->cur.ts_end = c->d.ts_end;
	return TK_OK;
}

/* After the packet's last event: the packet end time, with babeltrace2's fix-ups. */
static void cursor_finish_packet_clock(struct ctf_cursor *c)
{
	int update = 1;

	if (c->ct->quirk_lttng_crash && c->cur.ts_begin != 0 && c->cur.ts_end == 0)
		update = 0;
	if (c->ct->quirk_event_after_packet && c->cur.ts_end < c->d.clock)
		update = 0;
	if (c->cur.ts_end != UNSET && update)
		c->d.clock = c->cur.ts_end;
}

static int cursor_at_packet_end(const struct ctf_cursor *c)
{
	if (c->content_bits != UNSET)
		return c->d.pos >= c->content_bits;
	return c->d.pos >= c->d.limit; /* no packet size: events run to the end of the file */
}

/*
 * Point the event's scopes at their first values. A trace may decode no value at all before
 * its first event body that has none either (no packet header or context, an event header,
 * whose values are not kept, and a class without fields): d->vals is still NULL then, every
 * scope is empty and stays NULL, as pointer arithmetic on NULL is undefined.
 */
static void set_scopes(struct ctf_cursor *c)
{
	struct ctf_dec *d = &c->d;

	if (!d->vals) {
		memset(c->ev.scope, 0, sizeof(c->ev.scope));
		return;
	}
	c->ev.scope[MODEL_SCOPE_PACKET_CONTEXT] = d->vals + c->pctx_off;
	c->ev.scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT] = d->vals + d->marks[0];
	c->ev.scope[MODEL_SCOPE_EVENT_CONTEXT] = d->vals + d->marks[1];
	c->ev.scope[MODEL_SCOPE_PAYLOAD] = d->vals + d->marks[2];
}

/* model_cursor_ops.values: decode the body of an event that was skipped (static or laid). */
static enum tk_status cursor_values(struct model_cursor *mc)
{
	struct ctf_cursor *c = (struct ctf_cursor *) mc;
	struct ctf_dec *d = &c->d;
	const struct ctf_ec *cec = c->ev.ec->fmt;
	uint64_t end = d->pos;
	enum tk_status st;

	d->nv = c->body_nv;
	if (cec->body_static) {
		st = ctf_static_decode(cec, d, c->body_pos);
	} else { /* a laid body (laid_skip()): its program cannot fail where the skip did not */
		d->pos = c->body_pos;
		st = ctf_prog_run(cec->body_prog, d);
	}
	if (st < 0)
		return TK_FAIL(st, "Cannot decode event: name=%s",
			       c->ev.ec->name ? c->ev.ec->name : "");
	d->pos = end;
	set_scopes(c);
	c->ev.pending = NULL;
	return TK_OK;
}

/*
 * Skip a laid body (struct ctf_ec: laid_n) starting on a byte: find the NUL of each string
 * and the length of each sequence within the packet content, as the body program would,
 * and note where each segment starts (c->segs). 0, having moved nothing, when the program
 * must run instead: a string, a sequence or the fields after them not within the content,
 * which the program reports as it always has.
 */
static inline int laid_skip(struct ctf_cursor *c, const struct ctf_ec *cec)
{
	struct ctf_dec *d = &c->d;
	const uint8_t *p, *nul;
	uint64_t avail;
	uint32_t k;

	if (d->pos > d->limit || (d->pos & 7))
		return 0;
	p = d->base + (d->pos >> 3);
	avail = (d->limit - d->pos) >> 3;
	c->segs[0] = p;
	for (k = 0; k < cec->laid_n; k++) {
		const struct ctf_laid_seg *e = &cec->laid[k];
		uint64_t used;

		if (e->off > avail)
			return 0;
		if (!e->esize) { /* a string: at least its NUL */
			if (e->off == avail || !(nul = memchr(p + e->off, 0, avail - e->off)))
				return 0;
			used = (uint64_t) (nul + 1 - p);
		} else { /* a sequence: its length lies before it in the segment */
			struct model_value n = {{0}, 0};

			model_fixed_load(&n, e->cload, p + e->coff, 0);
			if (n.v.u > (avail - e->off) / e->esize)
				return 0;
			used = e->off + n.v.u * e->esize;
		}
		avail -= used;
		p += used;
		c->segs[k + 1] = p;
	}
	if (cec->laid_tail > avail)
		return 0;
	d->pos = (uint64_t) (p + cec->laid_tail - d->base) * 8;
	return 1;
}

/*
 * The body of the event whose header was just read (class @ec, starting at bit @start): a
 * fixed layout that fits or a laid one skipped, anything else decoded, then the checks of
 * its end. Inlined in both its callers.
 */
static TK_ALWAYS_INLINE enum tk_status
cursor_decode_body(struct ctf_cursor *c, const struct tk_event_class *ec, uint64_t start)
{
	struct ctf_dec *d = &c->d;
	const struct ctf_ec *cec = ec->fmt;
	enum tk_status st;

	c->body_pos = d->pos;
	c->body_nv = d->nv;
	if (cec->body_static && !(d->pos & (cec->body_align - 1)) &&
	    cec->body_bits <= d->limit - d->pos) {
		/* fixed layout that fits: skip it, decode only if someone asks */
		c->ev.body = d->base + (d->pos >> 3); /* aligned to whole bytes at least */
		d->pos += cec->body_bits;
		if (cec->body_last_bo >= 0)
			d->last_bo = cec->body_last_bo;
		c->ev.pending = &c->base;
	} else if (cec->laid_n && laid_skip(c, cec)) {
		/* strings and whole bytes: skipped too, its segments noted */
		c->ev.body = c->segs[0];
		c->ev.segs = c->segs;
		c->ev.pending = &c->base;
	} else {
		c->ev.body = NULL;
		st = ctf_prog_run(cec->body_prog, d);
		if (st < 0)
			return st;
		c->ev.pending = NULL;
		set_scopes(c);
	}
	/* trailing padding is not checked by the decoder: an event must end within content */
	if (d->pos > d->limit)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read event: name=%s, end-bits=%llu, "
			       "content-size=%llu, reason=event goes past the packet content",
			       ec->name ? ec->name : "", (unsigned long long) d->pos,
			       (unsigned long long) d->limit);
	if (d->pos == start)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read event: name=%s, offset-bits=%llu, "
			       "reason=event takes no room (CTF forbids empty events)",
			       ec->name ? ec->name : "", (unsigned long long) start);
	return TK_OK;
}

/* The next event of the packet: its header, then its body. */
static TK_ALWAYS_INLINE enum tk_status cursor_decode_event(struct ctf_cursor *c)
{
	struct ctf_dec *d = &c->d;
	const struct model_stream_class *sc = c->stream->sc;
	struct tk_event_class *ec;
	uint64_t start = d->pos;
	enum tk_status st;

	c->ev_pos = start;
	if (d->pos > d->limit)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read event: offset-bits=%llu, "
			       "content-size=%llu, reason=past the packet content",
			       (unsigned long long) d->pos, (unsigned long long) d->limit);
	d->nv = c->npkt_vals;
	d->event_id = UNSET;
	st = ctf_header_run(c->csc, d);
	if (st < 0)
		return st;
	if (d->event_id == UNSET) {
		if (sc->n_ecs != 1)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read event: reason=no event id and "
				       "%zu event classes",
				       sc->n_ecs);
		ec = sc->ecs[0];
	} else {
		ec = model_find_ec(sc, d->event_id);
		if (!ec)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read event: id=%llu, offset-bits=%llu, "
				       "reason=no such event class",
				       (unsigned long long) d->event_id,
				       (unsigned long long) start);
	}
	c->ev.ec = ec;
	c->ev.cycles = d->clock;
	if (sc->clock) {
		st = cycles_to_ns(c->stream, d->clock, &c->ev.ns);
		if (st < 0)
			return st;
	}
	return cursor_decode_body(c, ec, start);
}

/* The cause naming where the event that failed to decode starts in its file. */
static TK_NOINLINE TK_COLD enum tk_status event_fail(const struct ctf_cursor *c, enum tk_status st)
{
	return TK_FAIL(st,
		       "Cannot read event: file=%s, packet-index=%zu, packet-offset=%llu, "
		       "offset=%llu",
		       c->cs->files[c->file]->path, c->pkt_no, (unsigned long long) c->pkt_off,
		       (unsigned long long) (c->pkt_off + c->ev_pos / 8));
}

/* model_cursor_ops.where: the packet of the last item and, for an event, where it starts. */
static void cursor_where(const struct model_cursor *mc, const struct model_item *item, char *buf,
			 size_t size)
{
	const struct ctf_cursor *c = (const struct ctf_cursor *) mc;
	int n;

	n = snprintf(buf, size, "file=%s, packet-index=%zu, packet-offset=%llu",
		     c->cs->files[c->file]->path, c->pkt_no, (unsigned long long) c->pkt_off);
	if (n >= 0 && (size_t) n < size && item->kind == MODEL_ITEM_EVENT)
		snprintf(buf + n, size - (size_t) n, ", offset=%llu",
			 (unsigned long long) (c->pkt_off + c->ev_pos / 8));
}

static void item_ts(struct model_item *out, int has, int64_t ns)
{
	out->has_ts = (uint8_t) has;
	out->ts_ns = ns;
}

static TK_NOINLINE enum tk_status cursor_next_state(struct ctf_cursor *c, struct model_item *out);

/*
 * After a step of cursor_next_state(): whether the next event may take cursor_next()'s fast
 * path, that is, up to which bit an event may start so that all the bytes of its largest
 * fast header lie before the end of the packet content (119 bits: 7 of alignment, 112 of
 * the LTTng large header with its extended time).
 */
static void cursor_set_fast(struct ctf_cursor *c)
{
	uint64_t end = c->content_bits != UNSET ? c->content_bits : c->d.limit;

	c->fast_end = 0;
	if (c->state != CUR_EVENTS || !c->fast_kind || c->d.limit < 119)
		return;
	c->fast_end = end < c->d.limit - 118 ? end : c->d.limit - 118;
}

/* Every step but the usual event: cursor_next_state(), then the fast path's bound again. */
static TK_NOINLINE enum tk_status cursor_next_slow(struct ctf_cursor *c, struct model_item *out)
{
	enum tk_status st = cursor_next_state(c, out);

	cursor_set_fast(c);
	return st;
}

/* The event whose header cursor_next() read: the body that is not a fitting fixed layout. */
static TK_NOINLINE enum tk_status cursor_next_body(struct ctf_cursor *c, struct model_item *out,
						   const struct tk_event_class *ec, uint64_t start)
{
	enum tk_status st = cursor_decode_body(c, ec, start);

	if (TK_UNLIKELY(st < 0))
		return event_fail(c, st);
	out->kind = MODEL_ITEM_EVENT;
	out->event = &c->ev;
	item_ts(out, c->ev.has_ts, c->ev.ns);
	return TK_OK;
}

/*
 * The first NUL in [@s, @lim), or NULL when there is none or it lies in the last 15 bytes
 * (the caller takes its slower path then): 16 bytes compared at a time, without a call.
 */
static inline const uint8_t *laid_find_nul(const uint8_t *s, const uint8_t *lim)
{
#ifdef __SSE2__
	for (; lim - s >= 16; s += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *) (const void *) s);
		unsigned int m =
			(unsigned int) _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128()));

		if (m)
			return s + __builtin_ctz(m);
	}
	return NULL;
#else
	return memchr(s, 0, (size_t) (lim - s));
#endif
}

/*
 * The event whose header cursor_next() read, its body laid (struct ctf_ec: laid_n) and
 * starting on a byte at @pos: laid_skip() without a call (the usual strings are found 16
 * bytes at a time, the sequences checked with a multiplication), so that no register is
 * saved; anything laid_skip() would refuse, or a string in the content's last 15 bytes,
 * goes to cursor_next_body().
 */
static TK_NOINLINE enum tk_status cursor_next_laid(struct ctf_cursor *c, struct model_item *out,
						   const struct ctf_ec *cec, uint64_t pos)
{
	const uint8_t *p = c->d.base + (pos >> 3), *nul;
	const struct ctf_laid_seg *e = cec->laid, *e_end = e + cec->laid_n;
	const uint8_t **sp = c->segs;
	uint64_t avail = (c->d.limit - pos) >> 3, used;

	*sp = p;
	for (; e < e_end; e++) {
		if (e->off > avail)
			goto other;
		if (!e->esize) { /* a string: at least its NUL */
			if (!(nul = laid_find_nul(p + e->off, p + avail)))
				goto other;
			used = (uint64_t) (nul + 1 - p);
		} else { /* a sequence: its length lies before it in the segment */
			struct model_value n = {{0}, 0};
			uint64_t bytes;

			model_fixed_load(&n, e->cload, p + e->coff, 0);
			if (__builtin_mul_overflow(n.v.u, (uint64_t) e->esize, &bytes) ||
			    bytes > avail - e->off)
				goto other;
			used = e->off + bytes;
		}
		avail -= used;
		p += used;
		*++sp = p;
	}
	if (cec->laid_tail > avail)
		goto other;
	/* cursor_decode_body()'s laid body (within the content, and after the header) */
	c->body_pos = pos;
	c->body_nv = c->npkt_vals;
	c->d.pos = (uint64_t) (p + cec->laid_tail - c->d.base) * 8;
	c->ev.body = c->segs[0];
	c->ev.segs = c->segs;
	c->ev.pending = &c->base;
	out->kind = MODEL_ITEM_EVENT;
	out->event = &c->ev;
	item_ts(out, 1, c->ev.ns);
	return TK_OK;
other:
	return cursor_next_body(c, out, c->ev.ec, c->ev_pos);
}

/*
 * model_cursor_ops.next. The usual event, inline: an LTTng little-endian header with a
 * small id and a 32- or 27-bit time (fast_kind, the whole header within the content:
 * fast_end), a class from the stream class's table, a time in the clock's fast range, then
 * a fixed-layout body that fits, skipped; nothing is kept until all of it is known, so
 * that anything else starts over in cursor_next_slow() (every other state too: packet
 * boundaries, losses, the end), or in cursor_next_body() once the header is kept. The
 * usual call then needs no register saved nor restored.
 */
static enum tk_status cursor_next(struct model_cursor *mc, struct model_item *out)
{
	struct ctf_cursor *c = (struct ctf_cursor *) mc;
	struct ctf_dec *d = &c->d;
	uint64_t start = d->pos, pos, clock = d->clock, id;
	const struct fast_ec *fe;
	const uint8_t *p;

	if (TK_UNLIKELY(start >= c->fast_end))
		return cursor_next_slow(c, out);
	pos = (start + 7) & ~(uint64_t) 7;
	p = d->base + (pos >> 3);
	if (c->fast_kind == CTF_HEADER_LTTNG_LARGE_LE) {
		id = tk_load_le16(p);
		if (TK_UNLIKELY(id == 0xffff))
			return cursor_next_slow(c, out);
		clock = ctf_clock_next(clock, tk_load_le32(p + 2), 32);
		pos += 48;
	} else {
		uint32_t v = tk_load_le32(p);

		/* kept now: the slower path, if taken, reads a whole compact header too */
		d->last_bo = TK_BYTE_ORDER_LE;
		id = v & 31;
		if (TK_UNLIKELY(id == 31))
			return cursor_next_slow(c, out);
		clock = ctf_clock_next(clock, v >> 5, 27);
		pos += 32;
	}
	if (TK_UNLIKELY(id >= c->n_fast || !(fe = &c->fast_ecs[id])->ec ||
			clock >= c->fast_clock->fast_cycles))
		return cursor_next_slow(c, out);
	/* the header as cursor_decode_event() keeps it (d->event_id is not read again) */
	c->ev_pos = start;
	d->nv = c->npkt_vals;
	d->clock = clock;
	d->pos = pos;
	c->ev.ec = fe->ec;
	c->ev.cycles = clock;
	c->ev.ns = c->fast_clock->base_ns + (int64_t) clock;
	if (TK_UNLIKELY(fe->body != FAST_STATIC || fe->body_bits > d->limit - pos)) {
		if (fe->body == FAST_LAID)
			return cursor_next_laid(c, out, fe->ec->fmt, pos);
		return cursor_next_body(c, out, fe->ec, start);
	}
	/* cursor_decode_body()'s fixed layout that fits (and ends after start) */
	c->body_pos = pos;
	c->body_nv = c->npkt_vals;
	c->ev.body = d->base + (pos >> 3);
	d->pos = pos + fe->body_bits;
	if (fe->body_last_bo >= 0)
		d->last_bo = fe->body_last_bo;
	c->ev.pending = &c->base;
	out->kind = MODEL_ITEM_EVENT;
	out->event = &c->ev;
	item_ts(out, 1, c->ev.ns);
	return TK_OK;
}

static TK_NOINLINE enum tk_status cursor_next_state(struct ctf_cursor *c, struct model_item *out)
{
	const struct model_stream_class *sc = c->stream->sc;
	enum tk_status st;
	int64_t ns;

	for (;;) {
		switch (c->state) {
		case CUR_PACKET:
			st = cursor_read_packet(c);
			if (st == TK_END) {
				c->state = CUR_DONE;
				return TK_END;
			}
			if (st < 0)
				return st;
			c->state = CUR_DISC_EVENTS;
			break;
		case CUR_DISC_EVENTS:
			c->state = CUR_DISC_PACKETS;
			if (!sc->has_discarded_events)
				break;
			if (c->prev.discarded == UNSET) {
				if (c->cur.discarded == 0 || c->cur.discarded == UNSET)
					break;
				c->notice.count = UINT64_MAX;
				c->notice.begin_cycles = c->cur.ts_begin;
			} else {
				if (c->cur.discarded - c->prev.discarded == 0)
					break;
				c->notice.count = c->cur.discarded - c->prev.discarded;
				c->notice.begin_cycles = c->prev.ts_end;
			}
			c->notice.kind = TK_NOTICE_DISCARDED_EVENTS;
			c->notice.end_cycles = c->cur.ts_end;
			c->notice.has_range = sc->discarded_events_have_ts;
			out->kind = MODEL_ITEM_DISCARDED_EVENTS;
			out->notice = &c->notice;
			item_ts(out, 0, 0);
			if (c->notice.has_range) {
				st = cycles_to_ns(c->stream, c->notice.begin_cycles,
						  &c->notice.begin_ns);
				if (st >= 0)
					st = cycles_to_ns(c->stream, c->notice.end_cycles,
							  &c->notice.end_ns);
				if (st < 0)
					return st;
				item_ts(out, 1, c->notice.begin_ns);
			}
			return TK_OK;
		case CUR_DISC_PACKETS:
			c->state = CUR_BEGIN;
			if (!sc->has_discarded_packets || c->prev.seq_num == UNSET ||
			    c->cur.seq_num - c->prev.seq_num <= 1)
				break;
			c->notice.kind = TK_NOTICE_DISCARDED_PACKETS;
			c->notice.count = c->cur.seq_num - c->prev.seq_num - 1;
			c->notice.has_range = sc->discarded_packets_have_ts;
			c->notice.begin_cycles = c->prev.ts_end;
			c->notice.end_cycles = c->cur.ts_begin;
			out->kind = MODEL_ITEM_DISCARDED_PACKETS;
			out->notice = &c->notice;
			item_ts(out, 0, 0);
			if (c->notice.has_range) {
				st = cycles_to_ns(c->stream, c->notice.begin_cycles,
						  &c->notice.begin_ns);
				if (st >= 0)
					st = cycles_to_ns(c->stream, c->notice.end_cycles,
							  &c->notice.end_ns);
				if (st < 0)
					return st;
				item_ts(out, 1, c->notice.begin_ns);
			}
			return TK_OK;
		case CUR_BEGIN: {
			uint64_t begin = c->cur.ts_begin;

			out->kind = MODEL_ITEM_PACKET_BEGIN;
			c->state = CUR_EVENTS;
			if (c->ct->quirk_barectf_event_before_packet) {
				/* the packet begins no later than its first event */
				if (!cursor_at_packet_end(c)) {
					st = cursor_decode_event(c);
					if (st < 0)
						return event_fail(c, st);
					c->state = CUR_QUEUED_EVENT;
				}
				if (sc->packets_have_ts_begin && c->d.clock < begin)
					begin = c->d.clock;
			}
			item_ts(out, 0, 0);
			if (sc->packets_have_ts_begin) {
				st = cycles_to_ns(c->stream, begin, &ns);
				if (st < 0)
					return st;
				item_ts(out, 1, ns);
			}
			return TK_OK;
		}
		case CUR_QUEUED_EVENT:
			c->state = CUR_EVENTS;
			out->kind = MODEL_ITEM_EVENT;
			out->event = &c->ev;
			item_ts(out, c->ev.has_ts, c->ev.ns);
			return TK_OK;
		case CUR_EVENTS:
			if (cursor_at_packet_end(c)) {
				c->state = CUR_END;
				break;
			}
			st = cursor_decode_event(c);
			if (st < 0)
				return event_fail(c, st);
			out->kind = MODEL_ITEM_EVENT;
			out->event = &c->ev;
			item_ts(out, c->ev.has_ts, c->ev.ns);
			return TK_OK;
		case CUR_END:
			cursor_finish_packet_clock(c);
			out->kind = MODEL_ITEM_PACKET_END;
			item_ts(out, 0, 0);
			if (sc->packets_have_ts_end) {
				st = cycles_to_ns(c->stream, c->d.clock, &ns);
				if (st < 0)
					return st;
				item_ts(out, 1, ns);
			}
			c->pkt_done = 1; /* moved past when the next packet is read */
			c->state = CUR_PACKET;
			return TK_OK;
		case CUR_DONE:
			return TK_END;
		}
	}
}

/* ---- seeking by time ------------------------------------------------------------------------ */

/*
 * Whether the packets of @sc set the stream's clock whole when they begin: a 64-bit unsigned
 * timestamp_begin mapped to the clock. Only then does a packet read without those before it
 * give the times a read from the start gives (and its losses have a time range, when it has
 * any, to be placed in or out of a window).
 */
static int packets_set_clock(const struct model_stream_class *sc)
{
	const struct model_fc *pc = sc->packet_context;
	uint32_t i;

	if (!sc->packets_have_ts_begin || !sc->clock || !pc || pc->kind != MODEL_FC_STRUCT)
		return 0;
	/* losses without a time range could not be placed in or out of a window */
	if ((sc->has_discarded_events || sc->has_discarded_packets) && !sc->packets_have_ts_end)
		return 0;
	for (i = 0; i < pc->u.st.count; i++) {
		const struct model_member *m = &pc->u.st.members[i];

		if (m->name && !strcmp(m->name, "timestamp_begin"))
			return m->fc->kind == MODEL_FC_INT && m->fc->clock && !m->fc->is_signed &&
			       m->fc->size == 64;
	}
	return 0;
}

/* A packet of the stream as the search sees it. */
struct peek {
	uint64_t offset, next; /* bytes: where it begins, where the next one does */
	size_t no;	       /* in its file */
	int64_t begin_ns;
	struct snapshots snap;
};

/*
 * Read the header and context of the packet at @off of the mapped file (@ix: its index
 * entry, or NULL) into @p: 0 when it cannot be read or has no beginning time (reading it
 * reports why, if it is read).
 */
static int peek_packet(struct ctf_cursor *c, uint64_t off, const struct ctf_pkt *ix, struct peek *p)
{
	struct pkt_info pi = {NULL, 0, 0, 0};

	if (off >= c->mf.size ||
	    read_packet_start(c->stream->source, c->mf.data, c->mf.size, off, ix, &c->d, &pi) < 0 ||
	    pi.sc != c->stream->sc || c->d.ts_begin == UNSET ||
	    model_clock_ns(pi.sc->clock, c->d.ts_begin, &p->begin_ns)) {
		error_reset();
		return 0;
	}
	p->offset = off;
	p->next = pi.packet_bits == UNSET ? c->mf.size : off + pi.packet_bits / 8;
	p->snap.discarded = c->d.discarded;
	p->snap.seq_num = c->d.seq_num;
	p->snap.ts_begin = c->d.ts_begin;
	p->snap.ts_end = c->d.ts_end;
	return 1;
}

/* Packet @no of the index of the mapped file @f begins before @ns. */
static int indexed_before(struct ctf_cursor *c, const struct ctf_file *f, size_t no, int64_t ns,
			  struct peek *p)
{
	return peek_packet(c, f->idx[no].offset, &f->idx[no], p) && p->begin_ns < ns;
}

/*
 * model_cursor_ops.seek: to the packet before the last one that begins before @ns (an event
 * may come after its packet's end time), with the counters of the packet before it, so that
 * losses are told as a read from the start tells them. Packets are found by their index
 * (LTTng index files, or the list of a stream of several files) with a binary search, else
 * by walking their headers.
 */
static enum tk_status cursor_seek(struct model_cursor *mc, int64_t ns)
{
	struct ctf_cursor *c = (struct ctf_cursor *) mc;
	struct peek p, ring[3];
	size_t lo = 0, hi, mid, n = 0;

	if (c->state != CUR_PACKET || c->pkt_off || c->next_ref ||
	    !packets_set_clock(c->stream->sc))
		return TK_OK;
	if (c->order) {
		const struct pkt_ref *r;
		const struct ctf_file *f;

		hi = c->norder;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (c->order[mid].begin_ns < ns)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < 3)
			return TK_OK;
		r = &c->order[lo - 3]; /* the one before the packet to start at */
		f = c->cs->files[r->file];
		if (r->bad || cursor_map_file(c, r->file) < 0 ||
		    !peek_packet(c, r->offset, f->idx && r->no < f->nidx ? &f->idx[r->no] : NULL,
				 &p)) {
			error_reset();
			return TK_OK;
		}
		c->cur = p.snap;
		c->next_ref = lo - 2;
		return TK_OK;
	}
	if (c->cs->nfiles != 1 || !c->mf.data)
		return TK_OK;
	if (c->cs->files[0]->idx) {
		const struct ctf_file *f = c->cs->files[0];

		hi = f->nidx;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (indexed_before(c, f, mid, ns, &p))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < 3 || !peek_packet(c, f->idx[lo - 3].offset, &f->idx[lo - 3], &p))
			return TK_OK;
		c->cur = p.snap;
		c->pkt_off = f->idx[lo - 2].offset;
		c->pkt_no = lo - 2;
		return TK_OK;
	}
	/* no index: walk the packet headers, keeping the last three that begin before */
	for (p.next = 0; p.next < c->mf.size;) {
		p.no = n;
		if (!peek_packet(c, p.next, NULL, &p) || p.begin_ns >= ns || p.next <= p.offset)
			break;
		ring[n++ % 3] = p;
	}
	if (n < 3)
		return TK_OK;
	c->cur = ring[(n - 3) % 3].snap;
	c->pkt_off = ring[(n - 2) % 3].offset;
	c->pkt_no = ring[(n - 2) % 3].no;
	return TK_OK;
}

static void cursor_destroy(struct model_cursor *mc)
{
	struct ctf_cursor *c = (struct ctf_cursor *) mc;

	mfile_close(&c->mf);
	ctf_dec_fini(&c->d);
	free(c->d.stored);
	free(c->order);
	free(c->fast_ecs);
	free(c);
}

static const struct model_cursor_ops ctf_cursor_ops = {
	.next = cursor_next,
	.values = cursor_values,
	.where = cursor_where,
	.seek = cursor_seek,
	.destroy = cursor_destroy,
};

/*
 * The table of cursor_next()'s fast path: for each event id of @sc's direct table, its class
 * and how its body is skipped. A body after an LTTng header starts on a byte: a fixed layout
 * aligned to a power of two up to a byte always has its alignment there. 0 (no fast path) without a
 * table or memory.
 */
static int cursor_fast_ecs(struct ctf_cursor *c, const struct model_stream_class *sc)
{
	size_t i;

	if (!sc->ec_table || !sc->n_ec_table)
		return 0;
	c->fast_ecs = calloc(sc->n_ec_table, sizeof(*c->fast_ecs));
	if (!c->fast_ecs)
		return 0;
	c->n_fast = sc->n_ec_table;
	for (i = 0; i < sc->n_ec_table; i++) {
		const struct tk_event_class *ec = sc->ec_table[i];
		const struct ctf_ec *cec = ec ? ec->fmt : NULL;
		struct fast_ec *fe = &c->fast_ecs[i];

		if (!cec)
			continue;
		fe->ec = ec;
		fe->body_last_bo = cec->body_last_bo;
		if (cec->body_static && cec->body_align && cec->body_align <= 8 &&
		    !(cec->body_align & (cec->body_align - 1))) {
			fe->body = FAST_STATIC;
			fe->body_bits = cec->body_bits;
		} else if (!cec->body_static && cec->laid_n) {
			fe->body = FAST_LAID;
		}
	}
	return 1;
}

enum tk_status ctf_cursor_open(struct tk_stream *stream, struct model_cursor **out)
{
	struct ctf_cursor *c = calloc(1, sizeof(*c));
	enum tk_status st;

	if (!c)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open stream: path=%s", stream->path);
	c->base.ops = &ctf_cursor_ops;
	c->stream = stream;
	c->cs = stream->fmt;
	c->ct = stream->source->fmt;
	c->csc = stream->sc->fmt;
	mfile_init(&c->mf);
	c->d.stored = calloc(c->ct->n_stored + 1, sizeof(uint64_t));
	if (!c->d.stored) {
		free(c);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open stream: path=%s", stream->path);
	}
	c->cur.discarded = c->cur.seq_num = c->cur.ts_begin = c->cur.ts_end = UNSET;
	c->prev = c->cur;
	c->ev.stream = stream;
	c->ev.has_ts = stream->sc->clock != NULL;
	c->ev.cpu = -1;
	c->cpu_member = ctf_cpu_member(stream->sc->packet_context);
	c->notice.stream = stream;
	if (stream->sc->clock &&
	    (c->csc->header_kind == CTF_HEADER_LTTNG_LARGE_LE ||
	     c->csc->header_kind == CTF_HEADER_LTTNG_COMPACT_LE) &&
	    cursor_fast_ecs(c, stream->sc)) {
		c->fast_kind = c->csc->header_kind;
		c->fast_clock = stream->sc->clock;
	}
	c->state = CUR_PACKET;
	c->file = 0;
	if (c->cs->nfiles > 1)
		st = cursor_build_order(c);
	else
		st = cursor_next_file(c);
	if (st < 0) {
		cursor_destroy(&c->base);
		return st;
	}
	*out = &c->base;
	return TK_OK;
}

/* ---- reading a stream to copy it ------------------------------------------------------------ */

int ctf_stream_file(const struct tk_stream *s, size_t k, const char **path, uint64_t *size,
		    int *indexed)
{
	const struct ctf_stream *cs = s->fmt;
	const struct ctf_file *f;

	if (k >= cs->nfiles)
		return 0;
	f = cs->files[k];
	*path = f->mem ? NULL : f->path;
	*size = f->size;
	*indexed = f->idx && !f->idx_missing;
	return 1;
}

enum tk_status ctf_stream_read(struct tk_stream *s, ctf_read_cb cb, void *payload)
{
	struct model_cursor *mc = NULL;
	struct ctf_cursor *c;
	struct model_item item;
	int64_t last = INT64_MIN, ts;
	uint64_t end;
	enum tk_status st;
	size_t k;

	st = ctf_cursor_open(s, &mc);
	if (st < 0)
		return st;
	c = (struct ctf_cursor *) mc;
	while ((st = cursor_next(mc, &item)) == TK_OK) {
		ts = item.has_ts ? item.ts_ns : last;
		if (ts < last && !s->source->time_may_go_back) { /* as the iterator checks */
			st = TK_FAIL(
				TK_ERR_FORMAT,
				"Cannot read stream: path=%s, time-ns=%lld, previous-time-ns=%lld, "
				"reason=time goes backwards",
				s->path, (long long) ts, (long long) last);
			break;
		}
		last = ts;
		if (item.kind != MODEL_ITEM_PACKET_END)
			continue;
		if (c->order) /* several files, read in time order: none is whole before the end */
			end = 0;
		else
			end = c->pkt_bits == UNSET ? c->mf.size : c->pkt_off + c->pkt_bits / 8;
		st = cb(payload, c->file, end);
		if (st < 0)
			break;
	}
	if (st == TK_END) /* every file read whole */
		for (st = TK_OK, k = 0; st >= 0 && k < c->cs->nfiles; k++)
			st = cb(payload, k, c->cs->files[k]->size);
	cursor_destroy(mc);
	return st;
}
