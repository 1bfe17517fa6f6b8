/* SPDX-License-Identifier: MIT */
/*
 * Providers, sessions and the consumer of the application tracer (doc/ust.md).
 *
 * Providers register from their constructors, sessions may start before or after them, so
 * both orders meet here: each event gets a process-wide ID when its provider registers, and
 * is declared in the session's trace (through the CTF writer, which owns the metadata text)
 * when both exist. The CTF writer is used for its metadata only: the packets are made by the
 * threads in their rings (ust-buf.c) and written as they are by the consumer thread, one
 * stream file per thread. Everything here runs under ust_lock; no event takes it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/futex.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <tracekit/ctf-writer.h>

#include "../common/bytes.h"
#include "../common/error.h"
#include "../ctf/ctf.h"
#include "ust-eventheader.h"
#include "ust-priv.h"
#include "ust-ring.h"

pthread_mutex_t ust_lock = PTHREAD_MUTEX_INITIALIZER;
struct ust_session ust_sess;

/* A registered provider. */
struct ust_prov {
	struct tk_tp_provider *p;
	struct ust_prov *next;
};

static struct ust_prov *providers;
static uint32_t next_event_id;
static struct tk_ctf_writer *writer;
static uint64_t writer_sc;
static pthread_t consumer;
static int consumer_running;
static int consumer_stop;
static int atexit_done;
static int write_failure_said;		    /* the consumer said once that it cannot write */
static struct tk_ctf_writer *parent_writer; /* a forked child's copy, its metadata only */
static int snap_signalled;		    /* atomic: the snapshot signal came */
static int snap_sig;			    /* the signal with our handler, or 0 */
static struct sigaction snap_old;	    /* the handler it had before */

/*
 * The session's metadata in its directory as providers come: not in overwrite mode, whose
 * directory holds only snapshots, each with the metadata of its time.
 */
static int crash_dirfd = -1; /* overwrite mode with a shm_dir: the crash trace's directory */
static char crash_name[32];

static enum tk_status metadata_write(void)
{
	if (!writer)
		return TK_OK;
	if (ust_sess.overwrite) /* only the crash trace's, for ust-recover */
		return crash_dirfd >= 0 ? ctf_writer_write_metadata_at(writer, crash_dirfd) : TK_OK;
	return ctf_writer_write_metadata(writer);
}

/* ---- descriptions to CTF declarations ------------------------------------------------------ */

/* What one conversion allocated, freed once the writer has copied the declarations. */
struct pool {
	void *ptr[256];
	size_t n;
	int oom;
};

static void *pool_alloc(struct pool *pl, size_t n)
{
	void *p;

	if (pl->n == TK_ARRAY_SIZE(pl->ptr) || !(p = calloc(1, n ? n : 1))) {
		pl->oom = 1;
		return NULL;
	}
	pl->ptr[pl->n++] = p;
	return p;
}

static void pool_free(struct pool *pl)
{
	while (pl->n)
		free(pl->ptr[--pl->n]);
}

static void fields_decl(struct pool *pl, const struct tk_tp_field *f, uint32_t n,
			struct tk_ctf_field_decl *out);

/*
 * One field's CTF declaration: integers of their size and sign in base 16 when shown in
 * hexadecimal (pointers too), booleans as 8-bit integers, counted strings as sequences of
 * characters and blobs as sequences of bytes (both after their own 32-bit length, as the
 * serializer writes them), arrays and sequences of integers, enumerations with their ranges,
 * structures with their members. UTF-16 and UTF-32 text (counted, or NUL-terminated with the
 * 0 unit counted) are sequences of 16- and 32-bit integers, the code units in decimal; IPv4
 * addresses, UUIDs, IPv6 addresses and 16-byte values are shown in hexadecimal; ports are
 * integers in host order; time in seconds and PIDs decimal integers (doc/ust.md).
 */
static void field_decl(struct pool *pl, const struct tk_tp_field *f, struct tk_ctf_field_decl *d)
{
	unsigned int base =
		f->format == TK_TP_FORMAT_HEX || f->format == TK_TP_FORMAT_POINTER ||
				f->format == TK_TP_FORMAT_IPV4 || f->format == TK_TP_FORMAT_UUID ||
				f->format == TK_TP_FORMAT_IPV6 || f->format == TK_TP_FORMAT_BYTES16
			? 16
			: 10;
	struct tk_ctf_enum_label *l;
	uint32_t i;

	memset(d, 0, sizeof(*d));
	d->name = f->name;
	switch (f->kind) {
	case TK_TP_KIND_INT:
	case TK_TP_KIND_BOOL:
		d->kind = TK_CTF_FIELD_KIND_INT;
		d->bits = f->size * 8u;
		d->is_signed = f->is_signed;
		d->base = base;
		break;
	case TK_TP_KIND_FLOAT:
		d->kind = TK_CTF_FIELD_KIND_FLOAT;
		d->bits = f->size * 8u;
		break;
	case TK_TP_KIND_STRING:
		d->kind = TK_CTF_FIELD_KIND_STRING;
		break;
	case TK_TP_KIND_COUNTED:
		if (f->size <= 1) {
			d->kind = TK_CTF_FIELD_KIND_SEQUENCE;
			d->elem_kind = TK_CTF_FIELD_KIND_CHAR;
			break;
		}
		/* UTF-16 and UTF-32 units stay integers: CTF 1.8 has no such text */
		/* fall through */
	case TK_TP_KIND_WSTRING:
	case TK_TP_KIND_BLOB:
	case TK_TP_KIND_ARRAY:
	case TK_TP_KIND_SEQUENCE:
		d->kind = f->kind == TK_TP_KIND_ARRAY ? TK_CTF_FIELD_KIND_ARRAY
						      : TK_CTF_FIELD_KIND_SEQUENCE;
		d->elem_kind = TK_CTF_FIELD_KIND_INT;
		d->elem_bits = f->size * 8u;
		d->elem_signed = f->is_signed;
		d->elem_base = base;
		d->array_len = f->count;
		break;
	case TK_TP_KIND_ENUM:
		d->kind = TK_CTF_FIELD_KIND_ENUM;
		d->bits = f->size * 8u;
		d->is_signed = f->is_signed;
		d->n_labels = f->enum_desc->n_entries;
		l = pool_alloc(pl, sizeof(*l) * d->n_labels);
		if (!l)
			return;
		for (i = 0; i < f->enum_desc->n_entries; i++) {
			const struct tk_tp_enum_entry *e = &f->enum_desc->entries[i];

			l[i].label = e->label;
			l[i].lo.u = e->lo;
			l[i].hi.u = e->hi;
		}
		d->labels = l;
		break;
	case TK_TP_KIND_STRUCT:
		d->kind = TK_CTF_FIELD_KIND_STRUCT;
		d->n_members = f->struct_desc->n_fields;
		fields_decl(pl, f->struct_desc->fields, f->struct_desc->n_fields,
			    (struct tk_ctf_field_decl *) (d->members = pool_alloc(
								  pl, sizeof(*d) * d->n_members)));
		break;
	default:
		pl->oom = 1; /* unknown kind: refuse the event */
		break;
	}
}

static void fields_decl(struct pool *pl, const struct tk_tp_field *f, uint32_t n,
			struct tk_ctf_field_decl *out)
{
	uint32_t i;

	if (!out)
		return;
	for (i = 0; i < n; i++)
		field_decl(pl, &f[i], &out[i]);
}

/* LTTng's log levels: CRIT 2, ERR 3, WARNING 4, INFO 6, DEBUG 14. */
static int lttng_loglevel(uint8_t level)
{
	static const int map[] = {-1, 2, 3, 4, 6, 14};

	return level < TK_ARRAY_SIZE(map) ? map[level] : 14;
}

/* Declare @ev in the session's trace, under the ID it was given. */
static enum tk_status declare_event(const struct tk_tp_event *ev)
{
	struct tk_ctf_event_class_desc d = TK_CTF_EVENT_CLASS_DESC_INIT;
	struct tk_ctf_field_decl payload;
	struct pool pl = {{NULL}, 0, 0};
	enum tk_status st;
	char name[512];
	uint64_t id;

	snprintf(name, sizeof(name), "%s:%s", ev->provider, ev->name);
	memset(&payload, 0, sizeof(payload));
	payload.kind = TK_CTF_FIELD_KIND_STRUCT;
	payload.n_members = ev->n_fields;
	payload.members = pool_alloc(&pl, sizeof(payload) * ev->n_fields);
	fields_decl(&pl, ev->fields, ev->n_fields, (struct tk_ctf_field_decl *) payload.members);
	if (pl.oom) {
		pool_free(&pl);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare event: name=%s", name);
	}
	d.name = name;
	d.has_id = 1;
	d.id = ev->id;
	d.loglevel = lttng_loglevel(ev->level);
	d.payload = &payload;
	st = tk_ctf_writer_add_event_class_desc(writer, writer_sc, &d, &id);
	pool_free(&pl);
	if (st < 0)
		return TK_FAIL(st, "Cannot declare event: name=%s", name);
	return TK_OK;
}

/*
 * Set or clear the CTF session's bit of @p's events. Bit 1 of the same word belongs to the
 * EventHeader output, which the kernel (user_events) changes at any time: only atomic or/and
 * keep it, a plain store would erase it.
 */
static void provider_enable(struct tk_tp_provider *p, int on)
{
	size_t i;

	for (i = 0; i < p->n_events; i++) {
		if (on)
			__atomic_fetch_or(&p->events[i]->enabled, 1 << UST_EH_CTF_BIT,
					  __ATOMIC_RELAXED);
		else
			__atomic_fetch_and(&p->events[i]->enabled, ~(1 << UST_EH_CTF_BIT),
					   __ATOMIC_RELAXED);
	}
}

TK_EXPORT int tk_tp_provider_register(struct tk_tp_provider *p)
{
	struct ust_prov *r = calloc(1, sizeof(*r));
	int ret = 0;
	size_t i;

	TK_ASSERT_PRE(p && (p->events || !p->n_events));
	if (!r)
		return -1;
	pthread_mutex_lock(&ust_lock);
	r->p = p;
	r->next = providers;
	providers = r;
	for (i = 0; i < p->n_events; i++)
		p->events[i]->id = next_event_id++;
	ust_eh_hook_provider_add(p);
	if (writer) {
		for (i = 0; i < p->n_events; i++)
			if (declare_event(p->events[i]) < 0)
				ret = -1;
		if (ret == 0 && metadata_write() < 0)
			ret = -1;
		if (ret == 0)
			provider_enable(p, 1);
	}
	pthread_mutex_unlock(&ust_lock);
	return ret;
}

TK_EXPORT void tk_tp_provider_unregister(struct tk_tp_provider *p)
{
	struct ust_prov **pp, *r;

	pthread_mutex_lock(&ust_lock);
	provider_enable(p, 0);
	ust_eh_hook_provider_remove(p);
	for (pp = &providers; (r = *pp); pp = &r->next) {
		if (r->p == p) {
			*pp = r->next;
			free(r);
			break;
		}
	}
	pthread_mutex_unlock(&ust_lock);
}

/* ---- the consumer -------------------------------------------------------------------------- */

void ust_say_causes(void)
{
	size_t i, n = tk_error_count();

	if (!n)
		return;
	fprintf(stderr, "tracekit-ust: %s\n", tk_error_cause(0));
	for (i = 1; i < n; i++)
		fprintf(stderr, "tracekit-ust:   caused by: %s\n", tk_error_cause(i));
}

enum tk_status ust_write_all(int fd, const uint8_t *p, size_t n, const char *name)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return TK_FAIL(TK_ERR_IO,
				       "Cannot write stream file: dir=%s, name=%s, errno=%s",
				       ust_sess.dir, name, strerror(k < 0 ? errno : EIO));
		p += k;
		n -= (size_t) k;
	}
	return TK_OK;
}

/* A new stream file's packet 0 (ust_packet_zero()). */
static enum tk_status stream_begin(struct ust_buf *b, const char *name)
{
	uint8_t hdr[UST_PACKET_HEADER];

	ust_packet_zero(b, hdr);
	return ust_write_all(b->fd, hdr, sizeof(hdr), name);
}

/*
 * Append @n bytes at @p to @b's stream file, opened for the pass (consume_buf() closes it, so
 * that thousands of threads never hold thousands of descriptors). A failed write is cut off
 * the file again, so the file never ends in part of a packet.
 */
static enum tk_status write_packet(struct ust_buf *b, const uint8_t *p, size_t n)
{
	enum tk_status st;
	char name[64];
	off_t end;

	snprintf(name, sizeof(name), "channel0_%d_%" PRIu64, (int) b->vpid,
		 b->instance & UINT32_MAX);
	if (b->fd < 0) {
		b->fd = openat(ust_sess.dirfd, name,
			       O_WRONLY | O_APPEND | O_CLOEXEC |
				       (b->created ? 0 : O_CREAT | O_EXCL),
			       0666);
		if (b->fd < 0)
			return TK_FAIL(TK_ERR_IO,
				       "Cannot open stream file: dir=%s, name=%s, errno=%s",
				       ust_sess.dir, name, strerror(errno));
		if (!b->created && (st = stream_begin(b, name)) < 0) {
			/* the file made again at the next pass, packet 0 first */
			unlinkat(ust_sess.dirfd, name, 0);
			close(b->fd);
			b->fd = -1;
			return st;
		}
		b->created = 1;
	}
	end = lseek(b->fd, 0, SEEK_END);
	st = ust_write_all(b->fd, p, n, name);
	if (st < 0 && end >= 0 && ftruncate(b->fd, end) < 0)
		st = TK_FAIL(TK_ERR_IO, "Cannot cut stream file back: dir=%s, name=%s, errno=%s",
			     ust_sess.dir, name, strerror(errno));
	return st;
}

static void stream_close(struct ust_buf *b)
{
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
}

/*
 * Write the full packets of ring @b in order, giving each sub-buffer back. A packet that
 * cannot be written stays full, to be tried again at the next pass: meanwhile the thread
 * drops its events and counts them, so nothing is lost uncounted. With @final (the session
 * ends), also the open packet, as far as its thread has committed events, and a packet
 * without events for losses after the last packet.
 */
static enum tk_status consume_packets(struct ust_buf *b, int final)
{
	enum tk_status st = TK_OK;
	uint8_t *p, *commit, *tmp;
	size_t n;

	for (;;) {
		unsigned int i = b->next_read;

		if (__atomic_load_n(&b->state[i], __ATOMIC_ACQUIRE) != UST_SUB_FULL)
			break;
		p = b->mem + (size_t) i * b->size;
		n = (size_t) (tk_load_u64(p + UST_OFF_CONTENT, TK_BYTE_ORDER_HOST) / 8);
		st = write_packet(b, p, n);
		if (st < 0)
			return st;
		__atomic_store_n(&b->state[i], UST_SUB_FREE, __ATOMIC_RELEASE);
		b->next_read = (i + 1) % b->count;
	}
	if (__atomic_load_n(&b->exited, __ATOMIC_ACQUIRE)) {
		/*
		 * Events dropped after the thread's last packet, when its ring was full at its
		 * end: a packet without events carries the count (the thread is gone, so its
		 * fields are stable).
		 */
		if (b->discarded != b->disc_written) {
			uint8_t hdr[UST_PACKET_HEADER];

			uint64_t ts = tk_ust_clock_read();

			ust_packet_empty(b, hdr, ts, b->seq);
			st = write_packet(b, hdr, sizeof(hdr));
			if (st >= 0) {
				if (b->last_ts < ts)
					b->last_ts = ts;
				b->seq++;
				b->disc_written = b->discarded;
			}
		}
		return st;
	}
	if (!final)
		return st;
	commit = __atomic_load_n(&b->tls->commit, __ATOMIC_ACQUIRE);
	p = b->mem + (size_t) b->cur * b->size;
	tmp = malloc(b->size);
	if (!tmp)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write open packet");
	if (b->open && commit > p && commit <= p + b->size) {
		n = (size_t) (commit - p);
		memcpy(tmp, p, n);
		ust_packet_finish(tmp, n, tk_ust_clock_read(),
				  __atomic_load_n(&b->discarded, __ATOMIC_RELAXED));
		if (st >= 0)
			st = write_packet(b, tmp, n);
	} else if (__atomic_load_n(&b->discarded, __ATOMIC_RELAXED) != b->disc_written) {
		ust_packet_empty(b, tmp, tk_ust_clock_read(), b->seq);
		if (st >= 0)
			st = write_packet(b, tmp, UST_PACKET_HEADER);
	}
	free(tmp);
	return st;
}

/* consume_packets(), the stream file closed after the pass. */
static enum tk_status consume_buf(struct ust_buf *b, int final)
{
	enum tk_status st = consume_packets(b, final);

	stream_close(b);
	return st;
}

/*
 * One pass over every ring; rings of ended threads, once written, wait for a new thread
 * (UST_IDLE_MAX of them, idle) or are freed.
 */
static enum tk_status consume_all(int final)
{
	enum tk_status st = TK_OK, st2;
	struct ust_buf **pp = &ust_sess.bufs, *b;

	while ((b = *pp)) {
		/* read first: an ended thread has handed its every packet over before */
		int ended = __atomic_load_n(&b->exited, __ATOMIC_ACQUIRE);

		st2 = consume_buf(b, final);
		if (st2 < 0 && st >= 0)
			st = st2;
		if (ended && st2 >= 0 && !final && !b->idle && ust_sess.idle < UST_IDLE_MAX) {
			b->idle = 1; /* for a new thread (buf_create()) */
			ust_sess.idle++;
			pp = &b->next;
		} else if (ended && !b->idle && (st2 >= 0 || final)) { /* kept to try again */
			*pp = b->next;
			ust_buf_free(b);
		} else {
			pp = &b->next;
		}
	}
	return st;
}

/*
 * Overwrite mode: a snapshot, a trace of its own in DIR/snapshot-N-YYYYMMDD-HHMMSS (N from 1;
 * a forked child adds -PID, since it shares its parent's directory): the metadata (a child's
 * from its parent's copy), then every ring's packets. Under ust_lock.
 */
static enum tk_status snapshot_locked(void)
{
	struct tk_ctf_writer *w = writer ? writer : parent_writer;
	char name[96], when[32];
	time_t now = time(NULL);
	enum tk_status st;
	unsigned int n;
	struct tm tm;
	int fd;

	if (!localtime_r(&now, &tm) || !strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm))
		snprintf(when, sizeof(when), "0");
	n = ++ust_sess.snapshots;
	if (ust_sess.child)
		snprintf(name, sizeof(name), "snapshot-%u-%s-%d", n, when, (int) getpid());
	else
		snprintf(name, sizeof(name), "snapshot-%u-%s", n, when);
	if (mkdirat(ust_sess.dirfd, name, 0777) < 0 ||
	    (fd = openat(ust_sess.dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return TK_FAIL(TK_ERR_IO,
			       "Cannot make snapshot directory: dir=%s, name=%s, errno=%s",
			       ust_sess.dir, name, strerror(errno));
	st = w ? ctf_writer_write_metadata_at(w, fd) : TK_OK;
	if (st >= 0)
		st = ust_snapshot_write(fd);
	close(fd);
	if (st < 0)
		return TK_FAIL(st, "Cannot take snapshot: dir=%s, name=%s", ust_sess.dir, name);
	return TK_OK;
}

/* The snapshot signal's handler: async-signal-safe, it only asks the consumer thread. */
static void snapshot_signal(int sig)
{
	int saved = errno;

	(void) sig;
	__atomic_store_n(&snap_signalled, 1, __ATOMIC_RELEASE);
	ust_consumer_wake();
	errno = saved;
}

static void *consumer_main(void *arg)
{
	struct timespec timeout = {0, 100 * 1000 * 1000};
	enum tk_status st;

	(void) arg;
	for (;;) {
		uint32_t seen = __atomic_load_n(&ust_wake_seq, __ATOMIC_ACQUIRE);

		pthread_mutex_lock(&ust_lock);
		if (consumer_stop) {
			pthread_mutex_unlock(&ust_lock);
			return NULL;
		}
		error_reset(); /* this thread's chain: read only to say it, below */
		st = TK_OK;
		if (!ust_sess.overwrite)
			st = consume_all(0);
		else if (__atomic_exchange_n(&snap_signalled, 0, __ATOMIC_ACQUIRE))
			st = snapshot_locked();
		if (st < 0 && !write_failure_said) { /* nobody else to tell: once, on stderr */
			write_failure_said = 1;
			ust_say_causes();
			if (!ust_sess.overwrite)
				fprintf(stderr,
					"tracekit-ust: events are dropped, and counted in the "
					"trace, until it can be written\n");
		}
		pthread_mutex_unlock(&ust_lock);
		syscall(SYS_futex, &ust_wake_seq, FUTEX_WAIT_PRIVATE, seen, &timeout, NULL, 0);
	}
}

/* ---- sessions ------------------------------------------------------------------------------ */

static enum tk_status env_size(const char *name, size_t *out)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return TK_OK;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s)
		return TK_FAIL(TK_ERR_INVAL, "Cannot read environment: name=%s, value=%s", name, s);
	*out = (size_t) v;
	return TK_OK;
}

/* A signal by name (USR1, SIGUSR1, ...) or number; -1 when not one a handler can take. */
static int signal_number(const char *s)
{
	static const struct {
		const char *name;
		int sig;
	} names[] = {
		{"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"HUP", SIGHUP},	 {"INT", SIGINT},
		{"QUIT", SIGQUIT}, {"TERM", SIGTERM}, {"ALRM", SIGALRM}, {"WINCH", SIGWINCH},
	};
	char *end;
	long v;
	size_t i;

	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (i = 0; i < TK_ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i].name))
			return names[i].sig;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v <= 0 || v >= NSIG || v == SIGKILL || v == SIGSTOP)
		return -1;
	return (int) v;
}

/*
 * TRACEKIT_UST_TSC_MULT and TRACEKIT_UST_TSC_SHIFT: both or neither, mult above 0 and below
 * 2^32, shift at most 63; left alone when @opts is too old to hold them.
 */
static enum tk_status env_tsc(struct tk_ust_opts *opts)
{
	const char *m = getenv("TRACEKIT_UST_TSC_MULT"), *s = getenv("TRACEKIT_UST_TSC_SHIFT");
	unsigned long long mult, shift;
	char *end1 = NULL, *end2 = NULL;

	if ((!m || !*m) && (!s || !*s))
		return TK_OK;
	if (opts->size < offsetof(struct tk_ust_opts, tsc_shift) + sizeof(opts->tsc_shift))
		return TK_OK;
	errno = 0;
	mult = m ? strtoull(m, &end1, 10) : 0;
	shift = s ? strtoull(s, &end2, 10) : 64;
	if (errno || !m || !*m || *end1 || !mult || mult > UINT32_MAX || m[0] == '-')
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot read environment: name=TRACEKIT_UST_TSC_MULT, value=%s",
			       m ? m : "(unset)");
	if (!s || !*s || *end2 || shift > 63 || s[0] == '-')
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot read environment: name=TRACEKIT_UST_TSC_SHIFT, value=%s",
			       s ? s : "(unset)");
	opts->tsc_mult = (uint32_t) mult;
	opts->tsc_shift = (uint32_t) shift;
	return TK_OK;
}

TK_EXPORT enum tk_status tk_ust_opts_from_env(struct tk_ust_opts *opts)
{
	const char *clk = getenv("TRACEKIT_UST_CLOCK");
	const char *off = getenv("TRACEKIT_UST_CLOCK_OFFSET");
	const char *mode = getenv("TRACEKIT_UST_MODE");
	const char *sig = getenv("TRACEKIT_UST_SNAPSHOT_SIGNAL");
	const char *shm = getenv("TRACEKIT_UST_SHM_DIR");
	size_t count;
	enum tk_status st;

	error_reset();
	TK_ASSERT_PRE(opts);
	count = opts->subbuf_count;
	st = env_size("TRACEKIT_UST_SUBBUF_SIZE", &opts->subbuf_size);
	if (st >= 0)
		st = env_size("TRACEKIT_UST_SUBBUF_COUNT", &count);
	if (st < 0)
		return st;
	opts->subbuf_count = count > 4096 ? 4096u : (unsigned int) count;
	if (clk && !strcmp(clk, "tsc"))
		opts->clock = TK_UST_CLOCK_TSC;
	else if (clk && !strcmp(clk, "monotonic"))
		opts->clock = TK_UST_CLOCK_MONOTONIC;
	else if (clk && *clk)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot read environment: name=TRACEKIT_UST_CLOCK, value=%s", clk);
	if (off && *off) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(off, &end, 10);
		if (errno || *end || v < 0)
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot read environment: name=TRACEKIT_UST_CLOCK_OFFSET, "
				       "value=%s",
				       off);
		opts->has_clock_offset = 1;
		opts->clock_offset_ns = v;
	}
	st = env_tsc(opts);
	if (st < 0)
		return st;
	if (mode && !strcmp(mode, "discard"))
		opts->mode = TK_UST_MODE_DISCARD;
	else if (mode && !strcmp(mode, "overwrite"))
		opts->mode = TK_UST_MODE_OVERWRITE;
	else if (mode && *mode)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot read environment: name=TRACEKIT_UST_MODE, value=%s", mode);
	if (sig && *sig) {
		opts->snapshot_signal = signal_number(sig);
		if (opts->snapshot_signal <= 0)
			return TK_FAIL(
				TK_ERR_INVAL,
				"Cannot read environment: name=TRACEKIT_UST_SNAPSHOT_SIGNAL, "
				"value=%s",
				sig);
	}
	if (shm && *shm && opts->size >= offsetof(struct tk_ust_opts, shm_dir) + sizeof(shm))
		opts->shm_dir = shm;
	return TK_OK;
}

__extension__ typedef unsigned __int128 ust_u128;

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/*
 * The session's clock, named `monotonic` as LTTng names its own, with the offset that makes
 * its values Unix times (LTTng: realtime - monotonic at the start). For the TSC, its
 * frequency is measured against CLOCK_MONOTONIC over 20 ms, unless tsc_mult and tsc_shift
 * give it (tracekit record --ust -C x86-tsc hands its trace.dat's TSC2NSEC): then the
 * frequency is the integer nearest 2^shift * 1e9 / mult (CTF 1.8 has no other), and the
 * offset makes the clock read, at the start, the TSC converted as the trace.dat's readers do
 * plus the offset given, so both traces agree there and drift apart only by that rounding.
 */
static enum tk_status declare_clock(const struct tk_ust_opts *o, uint64_t *clock_id)
{
	struct tk_ctf_clock_desc c = TK_CTF_CLOCK_DESC_INIT;
	unsigned int kind = o->clock;
	int tsc_given = o->size >= offsetof(struct tk_ust_opts, tsc_shift) + sizeof(o->tsc_shift) &&
			o->tsc_mult;
	ust_u128 off, real;
	uint64_t freq = 1000000000u, now, mono;
	struct timespec pause = {0, 20 * 1000 * 1000};

	tk_ust_clock_tsc = 0;
#if defined(__x86_64__) || defined(__i386__)
	if (kind == TK_UST_CLOCK_TSC && tsc_given) {
		freq = (uint64_t) ((((ust_u128) 1000000000u << o->tsc_shift) + o->tsc_mult / 2) /
				   o->tsc_mult);
		tk_ust_clock_tsc = 1;
	} else if (kind == TK_UST_CLOCK_TSC) {
		uint64_t t0 = tk_ust_clock_monotonic(), c0 = __builtin_ia32_rdtsc(), t1, c1;

		nanosleep(&pause, NULL);
		t1 = tk_ust_clock_monotonic();
		c1 = __builtin_ia32_rdtsc();
		freq = (uint64_t) ((ust_u128) (c1 - c0) * 1000000000u / (t1 - t0));
		tk_ust_clock_tsc = 1;
	}
#else
	(void) kind;
	(void) pause;
#endif
	/*
	 * offset in cycles = realtime (in cycles) - now; realtime is CLOCK_MONOTONIC plus the
	 * offset given (tracekit record --ust hands the recording's own, so that both traces
	 * give the same wall-clock times), else CLOCK_REALTIME read now
	 */
	mono = tk_ust_clock_monotonic();
	now = tk_ust_clock_tsc ? tk_ust_clock_read() : mono;
	if (tk_ust_clock_tsc && tsc_given)
		mono = (uint64_t) (((ust_u128) now * o->tsc_mult) >> o->tsc_shift);
	if (o->has_clock_offset)
		real = (ust_u128) mono +
		       (uint64_t) (o->clock_offset_ns > 0 ? o->clock_offset_ns : 0);
	else
		real = realtime_ns();
	off = real * freq / 1000000000u - now;
	c.name = "monotonic";
	c.frequency = freq;
	c.offset_s = (int64_t) (off / freq);
	c.offset_cycles = (uint64_t) (off % freq);
	c.description = tk_ust_clock_tsc ? "Time-stamp counter" : "Monotonic Clock";
	/*
	 * An offset given is a recording's own (tracekit record --ust: the DATE of a trace.dat
	 * on the mono clock, or on x86-tsc with the conversion given too, absolute to its
	 * readers): absolute here too, so that readers merge the two; else LTTng's choice, not
	 * absolute
	 */
	c.is_absolute = o->has_clock_offset && (!tk_ust_clock_tsc || tsc_given);
	/* one clock for every process of this boot: readers merge their traces */
	c.has_uuid = ust_boot_id(c.uuid) == 0; /* LTTng's choice too */
	if (tk_ust_clock_tsc)
		c.uuid[0] ^= 0x5a; /* another clock: not to be merged with monotonic traces */
	return tk_ctf_writer_add_clock_desc(writer, &c, clock_id);
}

static void procname(char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/comm", "re");

	snprintf(buf, size, "unknown");
	if (f) {
		if (fgets(buf, (int) size, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

static enum tk_status describe_trace(const struct tk_ust_opts *o)
{
	struct tk_ctf_field_decl ids[] = {
		{.name = "vpid", .kind = TK_CTF_FIELD_KIND_INT, .bits = 32, .is_signed = 1},
		{.name = "vtid", .kind = TK_CTF_FIELD_KIND_INT, .bits = 32, .is_signed = 1},
	};
	struct tk_ctf_field_decl pc = {
		.kind = TK_CTF_FIELD_KIND_STRUCT, .members = ids, .n_members = 2};
	struct tk_ctf_stream_class_desc sc = TK_CTF_STREAM_CLASS_DESC_INIT;
	char host[256], proc[64];
	struct ust_prov *r;
	enum tk_status st;
	size_t i;

	if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = 0;
	procname(proc, sizeof(proc));
	st = tk_ctf_writer_set_env_string(writer, "domain", "ust");
	if (st >= 0)
		st = tk_ctf_writer_set_env_string(writer, "tracer_name", "tracekit-ust");
	if (st >= 0)
		st = tk_ctf_writer_set_env_int(writer, "tracer_major", 0);
	if (st >= 0)
		st = tk_ctf_writer_set_env_int(writer, "tracer_minor", 1);
	if (st >= 0)
		st = tk_ctf_writer_set_env_string(writer, "hostname", host);
	if (st >= 0)
		st = tk_ctf_writer_set_env_string(writer, "procname", proc);
	if (st >= 0)
		st = tk_ctf_writer_set_env_int(writer, "vpid", getpid());
	if (st >= 0)
		st = declare_clock(o, &sc.clock_id);
	sc.packet_context = &pc;
	if (st >= 0)
		st = tk_ctf_writer_add_stream_class_desc(writer, &sc, &writer_sc);
	if (st >= 0)
		st = ctf_writer_set_large_header(writer, writer_sc);
	for (r = providers; r && st >= 0; r = r->next)
		for (i = 0; i < r->p->n_events && st >= 0; i++)
			st = declare_event(r->p->events[i]);
	if (st >= 0)
		st = metadata_write();
	return st;
}

void ust_consumer_start_locked(void)
{
	if (!ust_sess.need_consumer || consumer_running)
		return;
	if (pthread_create(&consumer, NULL, consumer_main, NULL) == 0)
		consumer_running = 1;
	ust_sess.need_consumer = 0; /* without a thread, flushes and the stop write */
}

/*
 * Rings in files of @shm (tk_ust_opts.shm_dir), which name the trace @dir by its absolute
 * path: checked now, so that a directory that cannot take them fails the start rather than
 * every thread's first event.
 */
static enum tk_status shm_dir_set(const char *shm, const char *dir, int overwrite)
{
	char *crash;

	ust_sess.real_dir = realpath(dir, NULL);
	if (ust_sess.real_dir && overwrite) {
		/*
		 * overwrite mode: the session directory holds snapshots only, without metadata, so
		 * a crash's packets go to a trace of their own beside them, crash-PID, whose
		 * metadata is kept current while the session runs; a clean end removes it
		 */
		snprintf(crash_name, sizeof(crash_name), "crash-%d", (int) getpid());
		if (mkdirat(ust_sess.dirfd, crash_name, 0777) ||
		    (crash_dirfd = openat(ust_sess.dirfd, crash_name,
					  O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			return TK_FAIL(TK_ERR_IO,
				       "Cannot make crash directory: dir=%s, name=%s, errno=%s",
				       dir, crash_name, strerror(errno));
		if (asprintf(&crash, "%s/%s", ust_sess.real_dir, crash_name) < 0)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot make crash directory: dir=%s", dir);
		free(ust_sess.real_dir);
		ust_sess.real_dir = crash;
	}
	if (!ust_sess.real_dir || strlen(ust_sess.real_dir) >= UST_RING_DIR_MAX)
		return TK_FAIL(TK_ERR_IO, "Cannot find session directory's path: dir=%s, errno=%s",
			       dir, ust_sess.real_dir ? "path too long" : strerror(errno));
	if (crash_dirfd >= 0 && ctf_writer_write_metadata_at(writer, crash_dirfd) < 0)
		return TK_FAIL(TK_ERR_IO, "Cannot write crash directory's metadata: dir=%s", dir);
	if (access(shm, W_OK | X_OK))
		return TK_FAIL(TK_ERR_IO, "Cannot use ring directory: shm-dir=%s, errno=%s", shm,
			       strerror(errno));
	ust_sess.shm_dir = strdup(shm);
	if (!ust_sess.shm_dir)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot use ring directory: shm-dir=%s", shm);
	return TK_OK;
}

static void shm_dir_clear(void)
{
	if (crash_dirfd >= 0) {
		/* the crash trace is not needed: the session ended (a forked child's is its parent's) */
		if (!ust_sess.child) {
			unlinkat(crash_dirfd, "metadata", 0);
			unlinkat(ust_sess.dirfd, crash_name, AT_REMOVEDIR);
		}
		close(crash_dirfd);
		crash_dirfd = -1;
	}
	free(ust_sess.shm_dir);
	ust_sess.shm_dir = NULL;
	free(ust_sess.real_dir);
	ust_sess.real_dir = NULL;
}

static void stop_at_exit(void)
{
	tk_ust_session_stop();
}

TK_EXPORT enum tk_status tk_ust_session_start(const char *dir, const struct tk_ust_opts *opts)
{
	struct tk_ctf_writer_opts wo = TK_CTF_WRITER_OPTS_INIT;
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	enum tk_status st;
	struct ust_prov *r;

	error_reset();
	if (opts)
		memcpy(&o, opts, opts->size < sizeof(o) ? opts->size : sizeof(o));
	if (!o.subbuf_size)
		o.subbuf_size = TK_UST_DEFAULT_SUBBUF_SIZE;
	if (!o.subbuf_count)
		o.subbuf_count = TK_UST_DEFAULT_SUBBUF_COUNT;
	if (!dir || o.subbuf_size < 4096 || o.subbuf_size > (64u << 20) || o.subbuf_count < 2 ||
	    o.subbuf_count > 1024)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot start session: subbuf-size=%zu, subbuf-count=%u, "
			       "reason=%s",
			       o.subbuf_size, o.subbuf_count,
			       dir ? "sizes out of range" : "no directory");
	if (o.mode > TK_UST_MODE_OVERWRITE || o.snapshot_signal < 0 || o.snapshot_signal >= NSIG ||
	    (o.snapshot_signal && o.mode != TK_UST_MODE_OVERWRITE))
		return TK_FAIL(
			TK_ERR_INVAL,
			"Cannot start session: dir=%s, mode=%u, snapshot-signal=%d, reason=%s", dir,
			o.mode, o.snapshot_signal,
			o.mode > TK_UST_MODE_OVERWRITE ? "unknown mode"
			: o.snapshot_signal < 0 || o.snapshot_signal >= NSIG
				? "no such signal"
				: "snapshots need overwrite mode");
	if (ust_buf_key_init() < 0)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot start session: reason=no thread key");
	pthread_mutex_lock(&ust_lock);
	if (ust_sess.active || writer) {
		pthread_mutex_unlock(&ust_lock);
		return TK_FAIL(TK_ERR_INVAL, "Cannot start session: dir=%s, reason=one is running",
			       dir);
	}
	if (getrandom(ust_sess.uuid, 16, 0) != 16)
		memset(ust_sess.uuid, 0x5a, 16);
	ust_sess.uuid[6] = (uint8_t) ((ust_sess.uuid[6] & 0x0f) | 0x40);
	ust_sess.uuid[8] = (uint8_t) ((ust_sess.uuid[8] & 0x3f) | 0x80);
	ust_sess.overwrite = o.mode == TK_UST_MODE_OVERWRITE;
	ust_sess.snapshots = 0;
	ust_sess.ended = 0;
	ust_sess.idle = 0;
	wo.write_index = 0;
	wo.has_uuid = 1;
	memcpy(wo.uuid, ust_sess.uuid, 16);
	st = tk_ctf_writer_create(&writer, dir, &wo);
	if (st >= 0)
		st = describe_trace(&o);
	if (st >= 0) {
		ust_sess.dir = strdup(dir);
		ust_sess.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (!ust_sess.dir || ust_sess.dirfd < 0)
			st = TK_FAIL(TK_ERR_IO, "Cannot open session directory: dir=%s, errno=%s",
				     dir, strerror(errno));
	}
	if (st >= 0 && o.shm_dir)
		st = shm_dir_set(o.shm_dir, dir, o.mode == TK_UST_MODE_OVERWRITE);
	if (st >= 0 && o.snapshot_signal) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = snapshot_signal;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		__atomic_store_n(&snap_signalled, 0, __ATOMIC_RELAXED);
		if (sigaction(o.snapshot_signal, &sa, &snap_old))
			st = TK_FAIL(TK_ERR_INVAL,
				     "Cannot install snapshot signal: signal=%d, errno=%s",
				     o.snapshot_signal, strerror(errno));
		else
			snap_sig = o.snapshot_signal;
	}
	if (st < 0)
		goto err;
	ust_sess.subbuf_size = o.subbuf_size;
	ust_sess.subbuf_count = o.subbuf_count;
	ust_sess.next_instance = 0;
	__atomic_store_n(&ust_sess.generation, ust_sess.generation + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&ust_sess.active, 1, __ATOMIC_RELEASE);
	consumer_stop = 0;
	write_failure_said = 0;
	ust_sess.child = 0;
	ust_sess.need_consumer = !o.no_consumer;
	ust_consumer_start_locked();
	for (r = providers; r; r = r->next)
		provider_enable(r->p, 1);
	if (!atexit_done)
		atexit_done = atexit(stop_at_exit) == 0;
	pthread_mutex_unlock(&ust_lock);
	return TK_OK;
err:
	tk_ctf_writer_destroy(writer);
	writer = NULL;
	free(ust_sess.dir);
	ust_sess.dir = NULL;
	shm_dir_clear();
	if (ust_sess.dirfd > 0)
		close(ust_sess.dirfd);
	ust_sess.dirfd = -1;
	pthread_mutex_unlock(&ust_lock);
	return TK_FAIL(st, "Cannot start session: dir=%s", dir);
}

TK_EXPORT enum tk_status tk_ust_flush(void)
{
	enum tk_status st = TK_OK;

	error_reset();
	pthread_mutex_lock(&ust_lock);
	/* overwrite mode: nothing streams, snapshots write (closing a packet would waste one) */
	if (__atomic_load_n(&ust_sess.active, __ATOMIC_RELAXED) && !ust_sess.overwrite) {
		ust_buf_close_own(tk_ust_clock_read());
		st = consume_all(0);
		if (st >= 0) /* a forked child leaves the metadata to its parent */
			st = metadata_write();
	}
	pthread_mutex_unlock(&ust_lock);
	return st;
}

TK_EXPORT enum tk_status tk_ust_snapshot(void)
{
	enum tk_status st;

	error_reset();
	pthread_mutex_lock(&ust_lock);
	if (!__atomic_load_n(&ust_sess.active, __ATOMIC_RELAXED) || !ust_sess.overwrite) {
		int active = __atomic_load_n(&ust_sess.active, __ATOMIC_RELAXED);

		pthread_mutex_unlock(&ust_lock);
		return TK_FAIL(TK_ERR_INVAL, "Cannot take snapshot: reason=%s",
			       active ? "snapshots need overwrite mode (discard mode writes "
					"packets as they come)"
				      : "no session");
	}
	st = snapshot_locked();
	pthread_mutex_unlock(&ust_lock);
	return st;
}

TK_EXPORT enum tk_status tk_ust_session_stop(void)
{
	struct tk_ust_tls *own = &tk_ust_tls_state;
	enum tk_status st, st2;
	struct ust_buf *b, *next;
	struct ust_prov *r;

	error_reset();
	st = TK_OK;
	pthread_mutex_lock(&ust_lock);
	if (!__atomic_load_n(&ust_sess.active, __ATOMIC_RELAXED)) {
		pthread_mutex_unlock(&ust_lock);
		return TK_OK;
	}
	__atomic_store_n(&ust_sess.active, 0, __ATOMIC_RELAXED);
	for (r = providers; r; r = r->next)
		provider_enable(r->p, 0);
	ust_buf_close_own(tk_ust_clock_read());
	consumer_stop = 1;
	pthread_mutex_unlock(&ust_lock);
	if (consumer_running) {
		ust_consumer_wake();
		pthread_join(consumer, NULL);
		consumer_running = 0;
	}
	pthread_mutex_lock(&ust_lock);
	if (snap_sig) {
		sigaction(snap_sig, &snap_old, NULL);
		snap_sig = 0;
	}
	/*
	 * overwrite mode: the snapshot the signal asked for if the consumer had no time to take
	 * it, then a last one; the rings of threads that ended were kept for it
	 */
	if (ust_sess.overwrite && __atomic_exchange_n(&snap_signalled, 0, __ATOMIC_ACQUIRE))
		st = snapshot_locked();
	st2 = ust_sess.overwrite ? snapshot_locked() : consume_all(1);
	if (st >= 0)
		st = st2;
	for (b = ust_sess.bufs; b; b = next) {
		next = b->next;
		if (__atomic_load_n(&b->exited, __ATOMIC_ACQUIRE)) {
			ust_buf_free(b);
			continue;
		}
		if (b == own->buf) {
			own->buf = NULL;
			own->pos = NULL;
			__atomic_store_n(&own->end, NULL, __ATOMIC_RELAXED);
			__atomic_store_n(&own->commit, NULL, __ATOMIC_RELAXED);
			own->last_ts = 0;
			ust_buf_free(b);
			continue;
		}
		/* the thread may be writing: its next event goes to the slow path, which frees */
		ust_shm_unlink(b->shm); /* written: nothing to recover */
		if (b->fd >= 0)
			close(b->fd);
		b->fd = -1;
		__atomic_store_n(&b->tls->end, b->mem, __ATOMIC_RELAXED);
		__atomic_store_n(&b->orphan, 1, __ATOMIC_RELEASE);
	}
	ust_sess.bufs = NULL;
	ust_sess.idle = 0;
	st2 = metadata_write();
	if (st >= 0)
		st = st2;
	shm_dir_clear();
	tk_ctf_writer_destroy(writer);
	writer = NULL;
	free(ust_sess.dir);
	ust_sess.dir = NULL;
	close(ust_sess.dirfd);
	ust_sess.dirfd = -1;
	pthread_mutex_unlock(&ust_lock);
	return st;
}

/* ---- load, fork, unload -------------------------------------------------------------------- */

/*
 * A forked child traces into its own streams of its parent's trace: the same metadata (the
 * events it inherited keep their IDs), new stream files named and numbered by its process
 * ID, its packets saying its vpid. Its copies of the parent's rings (the forking thread's,
 * in memory only) are dropped unwritten; its consumer thread starts with its first ring.
 * The parent owns the metadata: the child never writes it, so providers registered in the
 * child stay disabled (their events would need declarations only the parent can write).
 */
static void after_fork_child(void)
{
	struct ust_buf *b, *next;

	pthread_mutex_init(&ust_lock, NULL);
	ust_eh_hook_fork_child();
	ust_buf_forget_own();
	tk_ust_tls_state.buf = NULL;
	tk_ust_tls_state.pos = NULL;
	tk_ust_tls_state.end = NULL;
	tk_ust_tls_state.commit = NULL;
	tk_ust_tls_state.last_ts = 0;
	if (!__atomic_load_n(&ust_sess.active, __ATOMIC_RELAXED))
		return;
	for (b = ust_sess.bufs; b; b = next) { /* copies: this process has one thread */
		next = b->next;
		ust_buf_free(b);
	}
	ust_sess.bufs = NULL;
	ust_sess.idle = 0;
	ust_sess.next_instance = 0;
	ust_sess.generation++;
	ust_sess.child = 1;
	/* the parent's: not ours to write, nor to free (it may own a thread the child lacks) */
	parent_writer = writer;
	writer = NULL;
	ust_sess.need_consumer = consumer_running;
	ust_sess.snapshots = 0; /* the child's own, named with its process ID */
	consumer_running = 0;
	consumer_stop = 0;
}

static void fork_prepare(void)
{
	pthread_mutex_lock(&ust_lock);
	ust_eh_hook_fork_prepare();
}

static void fork_parent(void)
{
	ust_eh_hook_fork_parent();
	pthread_mutex_unlock(&ust_lock);
}

__attribute__((constructor)) static void ust_load(void)
{
	const char *dir = secure_getenv("TRACEKIT_UST_DIR"); /* not for set-user-ID programs */
	struct tk_ust_opts o = TK_UST_OPTS_INIT;
	char path[4096], proc[64], when[32];
	time_t now = time(NULL);
	struct tm tm;

	ust_sess.dirfd = -1;
	pthread_atfork(fork_prepare, fork_parent, after_fork_child);
	ust_eh_hook_env();
	if (!dir || !*dir)
		return;
	if (tk_ust_opts_from_env(&o) < 0)
		return;
	/*
	 * Each process its own trace, DIR/PROCNAME-PID-YYYYMMDD-HHMMSS (LTTng's per-process
	 * layout), so that programs it starts write theirs beside it; readers given DIR merge
	 * them on the shared clock.
	 */
	procname(proc, sizeof(proc));
	if (!localtime_r(&now, &tm) || !strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm))
		snprintf(when, sizeof(when), "0");
	if ((size_t) snprintf(path, sizeof(path), "%s/%s-%d-%s", dir, proc, (int) getpid(), when) >=
	    sizeof(path))
		return;
	tk_ust_session_start(path, &o); /* the library never prints: a failure leaves no trace */
}

__attribute__((destructor)) static void ust_unload(void)
{
	tk_ust_session_stop();
	ust_eh_hook_exit();
}
