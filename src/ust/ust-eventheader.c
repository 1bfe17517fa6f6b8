// SPDX-License-Identifier: MIT
/*
 * EventHeader output of the application tracer: the same event descriptions that declare the
 * CTF trace, written as EventHeader events for user_events or an interceptor file. The work
 * that can be done once is done at registration (field definitions, metadata, tracepoint
 * name, registration command, header bytes: ust_eh_event_init()); an event then costs a walk
 * of its description that points iovecs into the CTF payload (ust_eh_transcode()) and one
 * writev(). The mapping of kinds and formats is in doc/ust.md ("EventHeader output").
 *
 * Layout facts (u16 counts, 127 struct members, 8 levels of nesting, metadata under 64 KiB)
 * are from ../shared/reference/eventheader.md, as src/eventheader writes and reads them.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../common/bytes.h"
#include "../common/error.h"
#include "../eventheader/interceptor.h"
#include "../ftrace/user-events.h"
#include "ust-eventheader.h"

/* ---- metadata --------------------------------------------------------------------------- */

/*
 * The EventHeader format of an integer field, or -1. tracekit's TIME is nanoseconds (of the
 * session's clock or any other the program chose), EventHeader's TIME seconds since 1970:
 * declaring it TIME would make decoders print a date a billion times too far, so it is
 * written as the plain integer it is.
 */
static int int_format(const struct tk_tp_field *f)
{
	switch (f->format) {
	case TK_TP_FORMAT_DEFAULT:
	case TK_TP_FORMAT_TIME:
		return f->is_signed ? EVENTHEADER_FMT_SIGNED_INT : EVENTHEADER_FMT_DEFAULT;
	case TK_TP_FORMAT_HEX:
	case TK_TP_FORMAT_POINTER:
		return EVENTHEADER_FMT_HEX_INT;
	case TK_TP_FORMAT_ERRNO:
		return f->size == 4 ? EVENTHEADER_FMT_ERRNO : -1;
	case TK_TP_FORMAT_PID:
		return f->size == 4 ? EVENTHEADER_FMT_PID : -1;
	case TK_TP_FORMAT_TIME_SEC:
		return f->size == 4 || f->size == 8 ? EVENTHEADER_FMT_TIME : -1;
	case TK_TP_FORMAT_IPV4:
		return f->size == 4 ? EVENTHEADER_FMT_IP_ADDRESS : -1;
	case TK_TP_FORMAT_PORT:
		return f->size == 2 ? EVENTHEADER_FMT_PORT : -1;
	default:
		return -1;
	}
}

/*
 * The EventHeader format of 16 bytes (an ARRAY of 16 uint8_t with this format) written as one
 * value128, or -1 when the array is an ordinary one.
 */
static int value128_format(const struct tk_tp_field *f)
{
	if (f->kind != TK_TP_KIND_ARRAY || f->size != 1 || f->count != 16)
		return -1;
	switch (f->format) {
	case TK_TP_FORMAT_UUID:
		return EVENTHEADER_FMT_UUID;
	case TK_TP_FORMAT_IPV6:
		return EVENTHEADER_FMT_IP_ADDRESS_OBSOLETE; /* IPv6 by its 16 bytes */
	case TK_TP_FORMAT_BYTES16:
		return EVENTHEADER_FMT_HEX_BYTES;
	default:
		return -1;
	}
}

/*
 * The EventHeader format of text: 8-bit text as the field says (0: UTF-8, the encoding's
 * default); UTF-16 and UTF-32 text says STRING_UTF outright, so that a reader need not know
 * the default of each encoding.
 */
static int text_format(const struct tk_tp_field *f)
{
	switch (f->format) {
	case TK_TP_FORMAT_DEFAULT:
		return f->size > 1 ? EVENTHEADER_FMT_STRING_UTF : EVENTHEADER_FMT_DEFAULT;
	case TK_TP_FORMAT_LATIN1:
		return f->size <= 1 ? EVENTHEADER_FMT_STRING8 : -1;
	case TK_TP_FORMAT_UTF8_BOM:
		return EVENTHEADER_FMT_STRING_UTF_BOM;
	case TK_TP_FORMAT_XML:
		return EVENTHEADER_FMT_STRING_XML;
	case TK_TP_FORMAT_JSON:
		return EVENTHEADER_FMT_STRING_JSON;
	default:
		return -1;
	}
}

/* STRING16_CHAR8/16/32 (counted) or ZSTRING_CHAR16/32 (@z) for units of @size bytes, or 0. */
static uint8_t text_encoding(unsigned int size, int z)
{
	switch (size) {
	case 1:
		return z ? EVENTHEADER_ENC_ZSTRING_CHAR8 : EVENTHEADER_ENC_STRING16_CHAR8;
	case 2:
		return z ? EVENTHEADER_ENC_ZSTRING_CHAR16 : EVENTHEADER_ENC_STRING16_CHAR16;
	case 4:
		return z ? EVENTHEADER_ENC_ZSTRING_CHAR32 : EVENTHEADER_ENC_STRING16_CHAR32;
	default:
		return 0;
	}
}

/* What ust_eh_event_init() fails with for field @f of @ev. */
static enum tk_status field_unsupported(const struct tk_tp_event *ev, const struct tk_tp_field *f,
					const char *reason)
{
	return TK_FAIL(TK_ERR_UNSUPPORTED,
		       "Cannot describe event as EventHeader: provider=%s, event=%s, field=%s, "
		       "kind=%u, size=%u, format=%u, count=%u, reason=%s",
		       ev->provider, ev->name, f->name ? f->name : "(none)", f->kind, f->size,
		       f->format, f->count, reason);
}

/*
 * Append the definitions of @n fields (members of a struct at nesting @depth, 0 for the
 * event's own fields) to @defs, a vec of struct eventheader_def, in pre-order as the
 * metadata lists them.
 */
static enum tk_status map_fields(const struct tk_tp_event *ev, const struct tk_tp_field *fields,
				 uint32_t n, unsigned int depth, struct vec *defs)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct tk_tp_field *f = &fields[i];
		struct eventheader_def *d;
		enum tk_status st;
		int fmt = 0;

		if (!f->name || !*f->name || strchr(f->name, ';'))
			return field_unsupported(ev, f, "no name, or a ';' in it");
		d = vec_push(defs, sizeof(*d));
		if (!d)
			return TK_FAIL(TK_ERR_NOMEM,
				       "Cannot describe event as EventHeader: event=%s", ev->name);
		d->name = f->name;
		switch (f->kind) {
		case TK_TP_KIND_INT:
		case TK_TP_KIND_ENUM: /* its integer; the labels have no EventHeader form */
			d->encoding = eventheader_value_encoding(f->size);
			fmt = f->kind == TK_TP_KIND_ENUM
				      ? (f->is_signed ? EVENTHEADER_FMT_SIGNED_INT
						      : EVENTHEADER_FMT_UNSIGNED_INT)
				      : int_format(f);
			break;
		case TK_TP_KIND_FLOAT:
			d->encoding = f->size == 4 || f->size == 8
					      ? eventheader_value_encoding(f->size)
					      : 0;
			fmt = EVENTHEADER_FMT_FLOAT;
			break;
		case TK_TP_KIND_BOOL:
			d->encoding = f->size == 1 ? EVENTHEADER_ENC_VALUE8 : 0;
			fmt = EVENTHEADER_FMT_BOOLEAN;
			break;
		case TK_TP_KIND_STRING:
			d->encoding = EVENTHEADER_ENC_ZSTRING_CHAR8;
			fmt = text_format(f);
			break;
		case TK_TP_KIND_COUNTED:
			d->encoding = text_encoding(f->size, 0);
			fmt = text_format(f);
			break;
		case TK_TP_KIND_WSTRING:
			d->encoding = f->size > 1 ? text_encoding(f->size, 1) : 0;
			fmt = text_format(f);
			break;
		case TK_TP_KIND_BLOB:
			d->encoding = f->size == 1 ? EVENTHEADER_ENC_BINARY16_CHAR8 : 0;
			break;
		case TK_TP_KIND_ARRAY:
			if (value128_format(f) >= 0) {
				d->encoding = EVENTHEADER_ENC_VALUE128;
				fmt = value128_format(f);
				break;
			}
			if (f->count == 0 || f->count > UINT16_MAX)
				return field_unsupported(ev, f,
							 "an array holds 1 to 65535 elements");
			d->encoding = eventheader_value_encoding(f->size);
			d->encoding |= d->encoding ? EVENTHEADER_ENC_CARRAY : 0;
			d->count = (uint16_t) f->count;
			fmt = int_format(f);
			break;
		case TK_TP_KIND_SEQUENCE:
			d->encoding = eventheader_value_encoding(f->size);
			d->encoding |= d->encoding ? EVENTHEADER_ENC_VARRAY : 0;
			fmt = int_format(f);
			break;
		case TK_TP_KIND_STRUCT:
			if (!f->struct_desc || f->struct_desc->n_fields == 0 ||
			    f->struct_desc->n_fields > 127)
				return field_unsupported(ev, f, "a struct has 1 to 127 fields");
			if (depth >= EVENTHEADER_NEST_MAX)
				return field_unsupported(ev, f, "structs nested too deep");
			d->encoding = EVENTHEADER_ENC_STRUCT;
			d->format = (uint8_t) f->struct_desc->n_fields;
			st = map_fields(ev, f->struct_desc->fields, f->struct_desc->n_fields,
					depth + 1, defs);
			if (st < 0)
				return st;
			continue;
		default:
			return field_unsupported(ev, f, "no such kind");
		}
		if (d->encoding == 0)
			return field_unsupported(ev, f, "no EventHeader encoding of this size");
		if (fmt < 0)
			return field_unsupported(ev, f, "no EventHeader format for it");
		d->format = (uint8_t) fmt;
	}
	return TK_OK;
}

enum tk_status ust_eh_event_init(struct ust_eh_event *out, const struct tk_tp_event *ev)
{
	struct vec defs = VEC_INIT, meta = VEC_INIT;
	struct eventheader_head h = {0};
	uint8_t prefix[EVENTHEADER_PREFIX_MAX];
	size_t k, cap;
	enum tk_status st;

	TK_ASSERT_PRE(out && ev);
	memset(out, 0, sizeof(*out));
	out->ev = ev;
	out->fd = -1;
	if (TK_BYTE_ORDER_HOST != TK_BYTE_ORDER_LE)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot describe event as EventHeader: event=%s, reason=big-endian "
			       "host (the writer's events are little-endian)",
			       ev->name);
	out->tp_name_len = eventheader_tp_name(out->tp_name, sizeof(out->tp_name), ev->provider,
					       ev->level, ev->keyword, "");
	if (out->tp_name_len == 0)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot describe event as EventHeader: provider=%s, event=%s, "
			       "reason=no tracepoint name (a space or ':' in the provider, or too "
			       "long)",
			       ev->provider, ev->name);
	st = map_fields(ev, ev->fields, ev->n_fields, 0, &defs);
	if (st < 0)
		goto out;
	st = eventheader_meta_write(&meta, ev->name, defs.data, defs.len);
	if (st < 0) {
		st = TK_FAIL(st == TK_ERR_NOMEM ? st : TK_ERR_UNSUPPORTED,
			     "Cannot describe event as EventHeader: provider=%s, event=%s",
			     ev->provider, ev->name);
		goto out;
	}
	h.level = ev->level;
	h.meta_size = (uint16_t) meta.len;
	k = eventheader_prefix_write(prefix, &h);
	cap = out->tp_name_len + sizeof(EVENTHEADER_REG_FIELDS) + 1;
	out->head = malloc(k + meta.len);
	out->command = malloc(cap);
	if (!out->head || !out->command) {
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot describe event as EventHeader: event=%s",
			     ev->name);
		goto out;
	}
	memcpy(out->head, prefix, k);
	memcpy(out->head + k, meta.data, meta.len);
	out->head_size = k + meta.len;
	if (!eventheader_reg_command(out->command, cap, out->tp_name)) {
		st = TK_FAIL(TK_ERR_UNSUPPORTED,
			     "Cannot describe event as EventHeader: event=%s, reason=registration "
			     "command too long",
			     ev->name);
		goto out;
	}
out:
	vec_fini(&defs);
	vec_fini(&meta);
	return st;
}

void ust_eh_event_fini(struct ust_eh_event *eh)
{
	if (!eh)
		return;
	free(eh->head);
	free(eh->command);
	eh->head = NULL;
	eh->command = NULL;
	eh->head_size = 0;
}

/* ---- payload ------------------------------------------------------------------------------ */

/*
 * A walk of a payload: @off the next byte to read, @run the first byte read but not yet
 * handed to @out. In iovec mode (@copy NULL) runs become iovecs, and @full is set when they
 * run out (the walk goes on, to check the rest); in copy mode they are copied to @copy.
 */
struct walk {
	const uint8_t *data;
	size_t size;
	size_t off;
	size_t run;
	struct ust_eh_payload *out;
	uint8_t *copy;
	int full;
};

static void emit(struct walk *w, const void *p, size_t n)
{
	struct ust_eh_payload *o = w->out;

	if (n == 0)
		return;
	if (w->copy) {
		memcpy(w->copy + o->size, p, n);
	} else if (o->n < UST_EH_IOV_MAX) {
		o->iov[o->n].iov_base = (void *) p;
		o->iov[o->n].iov_len = n;
		o->n++;
	} else {
		w->full = 1;
	}
	o->size += n;
}

/* Hand the bytes of the current run to the output; the next run starts at @next. */
static void flush(struct walk *w, size_t next)
{
	if (w->off > w->run) /* never data + 0: data may be NULL for an empty payload */
		emit(w, w->data + w->run, w->off - w->run);
	w->run = next;
}

/*
 * Hand 2 bytes made here to the output (a length, or a port in network order): copied in
 * copy mode, else kept in the payload's own small buffers that the iovecs point into.
 */
static void put_u16(struct walk *w, uint16_t v, enum tk_byte_order order)
{
	if (w->copy) {
		uint8_t b[2];

		tk_store_u16(b, v, order);
		emit(w, b, 2);
	} else if (w->out->n_lens < UST_EH_IOV_MAX) {
		uint8_t *b = w->out->lens[w->out->n_lens++];

		tk_store_u16(b, v, order);
		emit(w, b, 2);
	} else {
		w->full = 1;
	}
}

/*
 * The index of the first 0 unit of the @n units of @unit bytes (2 or 4) at @p, or @n. The
 * serializer counts wide text up to its first 0 unit and writes that unit last
 * (tk_tp_put_wtext()); EventHeader's ZSTRING_CHAR16/32 end at the first 0 unit, so a 0 unit
 * before the last would make a reader take the rest of the text for the next fields.
 */
static uint32_t wide_first_zero(const uint8_t *p, uint32_t n, unsigned int unit)
{
	uint32_t k;

	for (k = 0; k < n; k++)
		if ((unit == 2 ? tk_load_u16(p + (size_t) k * 2, TK_BYTE_ORDER_HOST)
			       : tk_load_u32(p + (size_t) k * 4, TK_BYTE_ORDER_HOST)) == 0)
			break;
	return k;
}

static enum tk_status short_payload(const struct tk_tp_event *ev, const struct tk_tp_field *f,
				    const struct walk *w, const char *what)
{
	return TK_FAIL(TK_ERR_INVAL,
		       "Cannot transcode payload: event=%s, field=%s, offset=%zu, size=%zu, "
		       "reason=%s",
		       ev->name, f->name ? f->name : "(none)", w->off, w->size, what);
}

static enum tk_status walk_fields(struct walk *w, const struct tk_tp_event *ev,
				  const struct tk_tp_field *fields, uint32_t n, unsigned int depth)
{
	if (depth > EVENTHEADER_NEST_MAX)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot transcode payload: event=%s, reason=structs nested too deep",
			       ev->name);
	for (uint32_t i = 0; i < n; i++) {
		const struct tk_tp_field *f = &fields[i];
		size_t left = w->size - w->off, el, keep;
		const uint8_t *nul;
		uint32_t len;
		enum tk_status st;

		switch (f->kind) {
		case TK_TP_KIND_INT:
			if (f->format == TK_TP_FORMAT_PORT && f->size == 2) {
				if (left < 2)
					return short_payload(ev, f, w, "value past the end");
				/* host order in the payload, network order in EventHeader */
				flush(w, w->off + 2);
				put_u16(w, tk_load_u16(w->data + w->off, TK_BYTE_ORDER_HOST),
					TK_BYTE_ORDER_BE);
				w->off += 2;
				break;
			}
			/* fall through */
		case TK_TP_KIND_ENUM:
		case TK_TP_KIND_FLOAT:
		case TK_TP_KIND_BOOL:
			if (f->size > left)
				return short_payload(ev, f, w, "value past the end");
			w->off += f->size;
			break;
		case TK_TP_KIND_WSTRING:
			/* the count goes, the units with their 0 unit stay */
			if (left < 4)
				return short_payload(ev, f, w, "length past the end");
			len = tk_load_u32(w->data + w->off, TK_BYTE_ORDER_HOST);
			if (len == 0 || (uint64_t) len * f->size > left - 4 ||
			    (f->size != 2 && f->size != 4))
				return short_payload(ev, f, w, "wide text without its 0 unit");
			/* EventHeader's text ends at its first 0 unit: it must be the last one */
			if (wide_first_zero(w->data + w->off + 4, len, f->size) != len - 1)
				return short_payload(ev, f, w,
						     "wide text with a 0 unit inside or none last");
			flush(w, w->off + 4);
			w->off += 4 + (size_t) len * f->size;
			break;
		case TK_TP_KIND_ARRAY:
			if ((uint64_t) f->count * f->size > left)
				return short_payload(ev, f, w, "array past the end");
			w->off += (size_t) f->count * f->size;
			break;
		case TK_TP_KIND_STRING:
			nul = left ? memchr(w->data + w->off, 0, left) : NULL;
			if (!nul)
				return short_payload(ev, f, w, "string without NUL");
			w->off = (size_t) (nul - w->data) + 1;
			break;
		case TK_TP_KIND_COUNTED:
		case TK_TP_KIND_BLOB:
		case TK_TP_KIND_SEQUENCE:
			el = f->kind == TK_TP_KIND_BLOB ? 1 : f->size; /* COUNTED: 1, 2 or 4 */
			if (left < 4)
				return short_payload(ev, f, w, "length past the end");
			len = tk_load_u32(w->data + w->off, TK_BYTE_ORDER_HOST);
			if ((uint64_t) len * el > left - 4)
				return short_payload(ev, f, w, "length beyond the payload");
			flush(w, w->off + 4);
			w->off += 4;
			keep = len > UST_EH_COUNT_MAX ? UST_EH_COUNT_MAX : len;
			put_u16(w, (uint16_t) keep, TK_BYTE_ORDER_LE);
			w->off += keep * el;
			if (keep != len) { /* the elements past 65535 are left out */
				flush(w, w->off + (len - keep) * el);
				w->off = w->run;
			}
			break;
		case TK_TP_KIND_STRUCT:
			if (!f->struct_desc)
				return short_payload(ev, f, w, "struct without description");
			st = walk_fields(w, ev, f->struct_desc->fields, f->struct_desc->n_fields,
					 depth + 1);
			if (st < 0)
				return st;
			break;
		default:
			return short_payload(ev, f, w, "no such kind");
		}
	}
	return TK_OK;
}

/* One walk in the mode @copy says (NULL: iovecs); 1 in *@full when iovecs ran out. */
static enum tk_status walk(const struct tk_tp_event *ev, const void *data, size_t size,
			   struct ust_eh_payload *out, uint8_t *copy, int *full)
{
	struct walk w = {.data = data, .size = size, .out = out, .copy = copy};
	enum tk_status st;

	out->n = 0;
	out->size = 0;
	out->n_lens = 0;
	st = walk_fields(&w, ev, ev->fields, ev->n_fields, 0);
	if (st < 0)
		return st;
	if (w.off != size)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot transcode payload: event=%s, offset=%zu, size=%zu, "
			       "reason=bytes left after the last field",
			       ev->name, w.off, size);
	flush(&w, w.off);
	*full = w.full;
	return TK_OK;
}

enum tk_status ust_eh_transcode(const struct tk_tp_event *ev, const void *data, size_t size,
				struct ust_eh_payload *out, uint8_t *scratch, size_t scratch_size)
{
	enum tk_status st;
	int full = 0;

	TK_ASSERT_PRE(ev && out && (data || size == 0));
	st = walk(ev, data, size, out, NULL, &full);
	if (st < 0 || !full)
		return st;
	if (!scratch || scratch_size < size)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot transcode payload: event=%s, size=%zu, scratch=%zu, "
			       "reason=more than %d pieces and no room to copy them",
			       ev->name, size, scratch_size, UST_EH_IOV_MAX);
	st = walk(ev, data, size, out, scratch, &full);
	if (st < 0)
		return st;
	out->n = 0;
	if (out->size) {
		out->iov[0].iov_base = scratch;
		out->iov[0].iov_len = out->size;
		out->n = 1;
	}
	return TK_OK;
}

/* ---- user_events -------------------------------------------------------------------------- */

static pthread_once_t open_once = PTHREAD_ONCE_INIT;
static int open_fd = -1;
static enum tk_status open_status;

static void open_user_events(void)
{
	open_status = user_events_open(&open_fd);
}

enum tk_status ust_eh_open(int *fd)
{
	static int tried;
	int again = __atomic_exchange_n(&tried, 1, __ATOMIC_RELAXED);

	TK_ASSERT_PRE(fd);
	pthread_once(&open_once, open_user_events);
	if (open_status < 0)
		return again ? TK_FAIL(open_status, "Cannot open user_events: reason=failed before")
			     : TK_FAIL(open_status, "Cannot write EventHeader events");
	*fd = open_fd;
	return TK_OK;
}

enum tk_status ust_eh_register(struct ust_eh_event *eh, int fd, int *enable_addr, uint8_t bit)
{
	enum tk_status st;

	TK_ASSERT_PRE(eh && eh->command && enable_addr && bit < 32 && eh->fd < 0);
	st = user_events_register(fd, eh->command, enable_addr, sizeof(*enable_addr), bit,
				  &eh->write_index);
	if (st < 0)
		return TK_FAIL(st, "Cannot register EventHeader tracepoint: name=%s", eh->tp_name);
	eh->fd = fd;
	eh->enable_addr = enable_addr;
	eh->bit = bit;
	return TK_OK;
}

enum tk_status ust_eh_unregister(struct ust_eh_event *eh)
{
	enum tk_status st;

	TK_ASSERT_PRE(eh);
	if (eh->fd < 0)
		return TK_OK;
	st = user_events_unregister(eh->fd, eh->enable_addr, eh->bit);
	eh->fd = -1;
	eh->enable_addr = NULL;
	if (st < 0)
		return TK_FAIL(st, "Cannot unregister EventHeader tracepoint: name=%s",
			       eh->tp_name);
	return TK_OK;
}

enum tk_status ust_eh_write(const struct ust_eh_event *eh, const void *data, size_t size,
			    uint8_t *scratch, size_t scratch_size)
{
	struct ust_eh_payload p;
	struct iovec iov[UST_EH_IOV_MAX + 2];
	uint32_t index;
	enum tk_status st;
	ssize_t n;

	TK_ASSERT_PRE(eh && eh->head && eh->fd >= 0);
	st = ust_eh_transcode(eh->ev, data, size, &p, scratch, scratch_size);
	if (st < 0)
		return st;
	index = eh->write_index;
	iov[0].iov_base = &index;
	iov[0].iov_len = sizeof(index);
	iov[1].iov_base = eh->head;
	iov[1].iov_len = eh->head_size;
	memcpy(iov + 2, p.iov, p.n * sizeof(p.iov[0]));
	do
		n = writev(eh->fd, iov, (int) p.n + 2);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EBADF)
		return TK_AGAIN;
	if (n < 0 || (size_t) n != sizeof(index) + eh->head_size + p.size)
		return TK_FAIL(TK_ERR_IO, "Cannot write EventHeader event: name=%s, errno=%s",
			       eh->tp_name, n < 0 ? strerror(errno) : "short write");
	return TK_OK;
}

/* ---- interceptor files -------------------------------------------------------------------- */

struct ust_eh_interceptor {
	int fd;
	off_t end; /* the file's size: where the next record starts */
	pthread_mutex_t lock;
};

enum tk_status ust_eh_interceptor_open(struct ust_eh_interceptor **out, const char *path)
{
	struct ust_eh_interceptor *ic;

	TK_ASSERT_PRE(out && path);
	ic = calloc(1, sizeof(*ic));
	if (!ic)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open interceptor file: path=%s", path);
	ic->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (ic->fd < 0) {
		enum tk_status st = TK_FAIL(TK_ERR_IO,
					    "Cannot open interceptor file: path=%s, "
					    "errno=%s",
					    path, strerror(errno));

		free(ic);
		return st;
	}
	pthread_mutex_init(&ic->lock, NULL);
	*out = ic;
	return TK_OK;
}

enum tk_status ust_eh_interceptor_write(struct ust_eh_interceptor *ic,
					const struct ust_eh_event *eh, const void *data,
					size_t size, uint8_t *scratch, size_t scratch_size)
{
	struct ust_eh_payload p;
	struct iovec iov[UST_EH_IOV_MAX + 2];
	uint8_t rec[5 + EVENTHEADER_NAME_MAX];
	size_t rec_size, total;
	enum tk_status st;
	ssize_t n;
	int err;

	TK_ASSERT_PRE(ic && eh && eh->head);
	st = ust_eh_transcode(eh->ev, data, size, &p, scratch, scratch_size);
	if (st < 0)
		return st;
	rec_size =
		interceptor_record_head(rec, eh->tp_name, eh->tp_name_len, eh->head_size + p.size);
	if (rec_size == 0)
		return TK_FAIL(TK_ERR_INVAL, "Cannot write interceptor record: name=%s, size=%zu",
			       eh->tp_name, eh->head_size + p.size);
	iov[0].iov_base = rec;
	iov[0].iov_len = rec_size;
	iov[1].iov_base = eh->head;
	iov[1].iov_len = eh->head_size;
	memcpy(iov + 2, p.iov, p.n * sizeof(p.iov[0]));
	total = rec_size + eh->head_size + p.size;
	pthread_mutex_lock(&ic->lock);
	do
		n = writev(ic->fd, iov, (int) p.n + 2);
	while (n < 0 && errno == EINTR);
	err = errno;
	if (n >= 0 && (size_t) n == total) {
		ic->end += (off_t) total;
		pthread_mutex_unlock(&ic->lock);
		return TK_OK;
	}
	/* a failed or short write: take back whatever part of the record reached the file */
	if (ftruncate(ic->fd, ic->end) < 0)
		err = errno;
	pthread_mutex_unlock(&ic->lock);
	return TK_FAIL(TK_ERR_IO, "Cannot write interceptor record: name=%s, size=%zu, errno=%s",
		       eh->tp_name, total, n < 0 ? strerror(err) : "short write");
}

enum tk_status ust_eh_interceptor_close(struct ust_eh_interceptor *ic)
{
	int r;

	if (!ic)
		return TK_OK;
	r = close(ic->fd);
	pthread_mutex_destroy(&ic->lock);
	free(ic);
	if (r < 0)
		return TK_FAIL(TK_ERR_IO, "Cannot close interceptor file: errno=%s",
			       strerror(errno));
	return TK_OK;
}
