// SPDX-License-Identifier: MIT
/*
 * The files the CTF writer writes once: the `metadata` text and the LTTng index files.
 * Readers see the trace through the metadata only, so everything the event path assumes
 * (byte-aligned fields, the header layouts, clock mappings, the packet-context fields and
 * where each stream class's own ones go) is spelled out here.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/error.h"
#include "ctf-write-priv.h"

/* ---- metadata text ------------------------------------------------------------------------ */

/* A growable text; out of memory is remembered and reported once at the end. */
struct mtext {
	char *p;
	size_t len;
	size_t cap;
	int oom;
};

static int mt_reserve(struct mtext *t, size_t n)
{
	char *np;
	size_t cap;

	if (t->oom)
		return -1;
	if (t->cap - t->len > n)
		return 0;
	cap = t->cap ? t->cap : 4096;
	while (cap - t->len <= n)
		cap *= 2;
	np = realloc(t->p, cap);
	if (!np) {
		t->oom = 1;
		return -1;
	}
	t->p = np;
	t->cap = cap;
	return 0;
}

static void mt_puts(struct mtext *t, const char *s)
{
	size_t n = strlen(s);

	if (mt_reserve(t, n) < 0)
		return;
	memcpy(t->p + t->len, s, n + 1);
	t->len += n;
}

static void mt_printf(struct mtext *t, const char *fmt, ...) TK_PRINTF(2, 3);

static void mt_printf(struct mtext *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || mt_reserve(t, (size_t) n) < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t) n;
}

/*
 * A TSDL string literal: quotes, backslashes and control characters escaped (both
 * babeltrace2 and our lexer read C escapes: \n \t ... and three octal digits); other bytes,
 * UTF-8 included, as they are.
 */
static void mt_literal(struct mtext *t, const char *s)
{
	const unsigned char *p = (const unsigned char *) s;

	if (mt_reserve(t, 4 * strlen(s) + 2) < 0)
		return;
	t->p[t->len++] = '"';
	for (; *p; p++) {
		static const char letters[] = "abtnvfr";
		unsigned char c = *p;
		size_t run = 0;

		/* a run of bytes written as they are (most of a long text): one copy */
		while (p[run] >= 32 && p[run] != 127 && p[run] != '"' && p[run] != '\\')
			run++;
		if (run) {
			memcpy(t->p + t->len, p, run);
			t->len += run;
			p += run - 1;
			continue;
		}

		if (c == '"' || c == '\\') {
			t->p[t->len++] = '\\';
			t->p[t->len++] = (char) c;
		} else if (c >= 7 && c <= 13) {
			t->p[t->len++] = '\\';
			t->p[t->len++] = letters[c - 7];
		} else if (c < 32 || c == 127) {
			t->len += (size_t) snprintf(t->p + t->len, 5, "\\%03o", c);
		} else {
			t->p[t->len++] = (char) c;
		}
	}
	t->p[t->len++] = '"';
	t->p[t->len] = '\0';
}

static const char *base_name(unsigned int base)
{
	switch (base) {
	case 2:
		return "2";
	case 8:
		return "8";
	case 16:
		return "16";
	default:
		return "10";
	}
}

static void mt_int_type(struct mtext *t, unsigned int bits, int is_signed, unsigned int base,
			int text)
{
	mt_printf(t, "integer { size = %u; align = 8; signed = %s; ", bits,
		  is_signed ? "true" : "false");
	if (text)
		mt_puts(t, "encoding = UTF8; ");
	if (base != 10)
		mt_printf(t, "base = %s; ", base_name(base));
	mt_puts(t, "}");
}

static void mt_fields(struct mtext *t, const struct cw_fields *fs, int depth);
static void mt_dims(struct mtext *t, const struct cw_field *f);

static void mt_indent(struct mtext *t, int depth)
{
	while (depth-- > 0)
		mt_puts(t, "\t");
}

/* An enumeration: its integer, then each label with its range. */
static void mt_enum(struct mtext *t, const struct cw_field *f, int depth)
{
	uint32_t i;

	mt_puts(t, "enum : ");
	mt_int_type(t, f->bits, f->is_signed, f->base, 0);
	mt_puts(t, " {\n");
	for (i = 0; i < f->n_labels; i++) {
		const struct tk_ctf_enum_label *l = &f->labels[i];

		mt_indent(t, depth + 1);
		mt_literal(t, l->label);
		if (f->is_signed && l->lo.i == l->hi.i)
			mt_printf(t, " = %" PRId64 ",\n", l->lo.i);
		else if (f->is_signed)
			mt_printf(t, " = %" PRId64 " ... %" PRId64 ",\n", l->lo.i, l->hi.i);
		else if (l->lo.u == l->hi.u)
			mt_printf(t, " = %" PRIu64 ",\n", l->lo.u);
		else
			mt_printf(t, " = %" PRIu64 " ... %" PRIu64 ",\n", l->lo.u, l->hi.u);
	}
	mt_indent(t, depth);
	mt_puts(t, "}");
}

/*
 * The type of @f, without name or array lengths: the innermost element of nested arrays
 * and sequences (TSDL writes `T name[3][len]` for an array of 3 sequences of T).
 */
static void mt_type(struct mtext *t, const struct cw_field *f, int depth)
{
	while (f->op == CW_OP_ARRAY_OF || f->op == CW_OP_SEQ_OF)
		f = &f->sub.f[0];
	switch (f->op) {
	case CW_OP_F32:
		mt_puts(t, "floating_point { exp_dig = 8; mant_dig = 24; align = 8; }");
		return;
	case CW_OP_F64:
		mt_puts(t, "floating_point { exp_dig = 11; mant_dig = 53; align = 8; }");
		return;
	case CW_OP_STRING:
		mt_puts(t, "string");
		return;
	case CW_OP_ARRAY:
	case CW_OP_SEQUENCE:
		if (f->elem_kind == TK_CTF_FIELD_KIND_CHAR)
			mt_int_type(t, 8, 0, 10, 1);
		else
			mt_int_type(t, f->bits, f->is_signed, f->base, 0);
		return;
	case CW_OP_STRUCT:
		mt_puts(t, "struct {\n");
		mt_fields(t, &f->sub, depth + 1);
		mt_indent(t, depth);
		mt_puts(t, "}");
		return;
	case CW_OP_VARIANT: {
		uint32_t i;

		mt_printf(t, "variant <%s> {\n", f->ref_name);
		for (i = 0; i < f->sub.n; i++) {
			const struct cw_field *o = &f->sub.f[i];

			mt_indent(t, depth + 1);
			mt_type(t, o, depth + 1);
			mt_printf(t, " %s", o->name);
			mt_dims(t, o);
			mt_puts(t, ";\n");
		}
		mt_indent(t, depth);
		mt_puts(t, "}");
		return;
	}
	default:
		if (f->kind == TK_CTF_FIELD_KIND_ENUM)
			mt_enum(t, f, depth);
		else
			mt_int_type(t, f->bits, f->is_signed, f->base, 0);
		return;
	}
}

/* The array lengths after a name: `[N]` per array, `[length member]` per sequence. */
static void mt_dims(struct mtext *t, const struct cw_field *f)
{
	for (;;) {
		switch (f->op) {
		case CW_OP_ARRAY:
			mt_printf(t, "[%" PRIu64 "]", f->array_len);
			return;
		case CW_OP_SEQUENCE:
			mt_printf(t, "[%s]", f->ref >= 0 ? f->ref_name : f->len_name);
			return;
		case CW_OP_ARRAY_OF:
			mt_printf(t, "[%" PRIu64 "]", f->array_len);
			f = &f->sub.f[0];
			break;
		case CW_OP_SEQ_OF:
			mt_printf(t, "[%s]", f->ref >= 0 ? f->ref_name : f->len_name);
			f = &f->sub.f[0];
			break;
		default:
			return;
		}
	}
}

static void mt_fields(struct mtext *t, const struct cw_fields *fs, int depth)
{
	uint32_t i;

	for (i = 0; i < fs->n; i++) {
		const struct cw_field *f = &fs->f[i];

		if ((f->op == CW_OP_SEQUENCE || f->op == CW_OP_SEQ_OF) && f->ref < 0) {
			mt_indent(t, depth);
			mt_printf(t, "uint32_t %s;\n", f->len_name);
		}
		mt_indent(t, depth);
		mt_type(t, f, depth);
		mt_printf(t, " %s", f->name);
		mt_dims(t, f);
		mt_puts(t, ";\n");
	}
}

/* A scope: `NAME := struct { ... };` when declared. */
static void mt_scope(struct mtext *t, const char *name, const struct cw_fields *fs)
{
	if (!fs->present)
		return;
	mt_printf(t, "\t%s := struct {\n", name);
	mt_fields(t, fs, 2);
	mt_puts(t, "\t};\n");
}

static void mt_uuid(struct mtext *t, const uint8_t *u)
{
	mt_printf(t, "\"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\"",
		  u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		  u[13], u[14], u[15]);
}

static void mt_clock(struct mtext *t, const struct cw_clock *c)
{
	mt_printf(t, "clock {\n\tname = %s;\n", c->name);
	if (c->has_uuid) {
		mt_puts(t, "\tuuid = ");
		mt_uuid(t, c->uuid);
		mt_puts(t, ";\n");
	}
	if (c->description) {
		mt_puts(t, "\tdescription = ");
		mt_literal(t, c->description);
		mt_puts(t, ";\n");
	}
	mt_printf(t, "\tfreq = %" PRIu64 ";\n", c->freq);
	if (c->precision)
		mt_printf(t, "\tprecision = %" PRIu64 ";\n", c->precision);
	mt_printf(t, "\toffset_s = %" PRId64 ";\n\toffset = %" PRIu64 ";\n\tabsolute = %s;\n};\n\n",
		  c->offset_s, c->offset_cycles, c->absolute ? "TRUE" : "FALSE");
	/* the clock-mapped integers of packet contexts and event headers */
	mt_printf(t,
		  "typealias integer { size = 27; align = 1; signed = false; "
		  "map = clock.%s.value; } := uint27_clock_%s_t;\n",
		  c->name, c->name);
	mt_printf(t,
		  "typealias integer { size = 32; align = 8; signed = false; "
		  "map = clock.%s.value; } := uint32_clock_%s_t;\n",
		  c->name, c->name);
	mt_printf(t,
		  "typealias integer { size = 64; align = 8; signed = false; "
		  "map = clock.%s.value; } := uint64_clock_%s_t;\n\n",
		  c->name, c->name);
}

/*
 * LTTng's event headers (reference/ctf.md section 7), declared inline because each stream
 * class maps the times to its own clock.
 */
static void mt_event_header(struct mtext *t, const struct cw_sc *sc, const char *clk)
{
	mt_puts(t, "\tevent.header := struct {\n");
	if (sc->large)
		mt_puts(t, "\t\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n");
	else
		mt_puts(t, "\t\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n");
	mt_printf(t,
		  "\t\tvariant <id> {\n"
		  "\t\t\tstruct {\n"
		  "\t\t\t\tuint%s_clock_%s_t timestamp;\n"
		  "\t\t\t} compact;\n"
		  "\t\t\tstruct {\n"
		  "\t\t\t\tuint32_t id;\n"
		  "\t\t\t\tuint64_clock_%s_t timestamp;\n"
		  "\t\t\t} extended;\n"
		  "\t\t} v;\n"
		  "\t} align(8);\n",
		  sc->large ? "32" : "27", clk, clk);
}

/*
 * The packet context: the writer's fields (what packet_emit() fills, at the offsets
 * layout_sc() chose), then the stream class's own.
 */
static void mt_packet_context(struct mtext *t, const struct cw_sc *sc, const char *clk)
{
	mt_puts(t, "\tpacket.context := struct {\n");
	if (clk)
		mt_printf(t,
			  "\t\tuint64_clock_%s_t timestamp_begin;\n"
			  "\t\tuint64_clock_%s_t timestamp_end;\n",
			  clk, clk);
	mt_puts(t, "\t\tuint64_t content_size;\n"
		   "\t\tuint64_t packet_size;\n"
		   "\t\tuint64_t packet_seq_num;\n"
		   "\t\tuint64_t events_discarded;\n");
	if (sc->has_cpu_id)
		mt_puts(t, "\t\tuint32_t cpu_id;\n");
	mt_fields(t, &sc->pctx, 2);
	mt_puts(t, "\t};\n");
}

static void mt_event_class(struct mtext *t, const struct cw_sc *sc, const struct cw_ec *ec)
{
	mt_puts(t, "event {\n");
	if (ec->name) {
		mt_puts(t, "\tname = ");
		mt_literal(t, ec->name);
		mt_puts(t, ";\n");
	}
	mt_printf(t, "\tid = %" PRIu64 ";\n\tstream_id = %" PRIu64 ";\n", ec->id, sc->id);
	if (ec->loglevel >= 0)
		mt_printf(t, "\tloglevel = %d;\n", ec->loglevel);
	if (ec->emf_uri) {
		mt_puts(t, "\tmodel.emf.uri = ");
		mt_literal(t, ec->emf_uri);
		mt_puts(t, ";\n");
	}
	mt_scope(t, "context", &ec->ctx);
	mt_scope(t, "fields", &ec->fields);
	mt_puts(t, "};\n\n");
}

static void mt_stream_class(struct mtext *t, const struct tk_ctf_writer *w, const struct cw_sc *sc)
{
	const char *clk = NULL;
	size_t i;

	if (sc->clock != TK_CTF_WRITER_NO_CLOCK)
		clk = VEC_AT(&w->clocks, struct cw_clock, sc->clock).name;
	mt_printf(t, "stream {\n\tid = %" PRIu64 ";\n", sc->id);
	mt_packet_context(t, sc, clk);
	if (clk)
		mt_event_header(t, sc, clk);
	else
		mt_puts(t, "\tevent.header := struct {\n\t\tuint32_t id;\n\t};\n");
	mt_scope(t, "event.context", &sc->ctx);
	mt_puts(t, "};\n\n");
	for (i = 0; i < sc->ecs.len; i++)
		mt_event_class(t, sc, VEC_AT(&sc->ecs, struct cw_ec *, i));
}

/*
 * The whole TSDL document: common aliases, trace (with the packet header), env, clocks with
 * their mapped aliases, then each stream class followed by its event classes; written as
 * `metadata` in the directory @dirfd (the writer's own, or another trace's: the application
 * tracer's snapshots each hold a copy).
 */
enum tk_status ctf_write_metadata_at(struct tk_ctf_writer *w, int dirfd)
{
	struct mtext t = {NULL, 0, 0, 0};
	enum tk_status st;
	size_t i;
	int fd;

	mt_puts(&t, "/* CTF 1.8 */\n\n"
		    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
		    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
		    "trace {\n\tmajor = 1;\n\tminor = 8;\n");
	if (!w->no_uuid) {
		mt_puts(&t, "\tuuid = ");
		mt_uuid(&t, w->uuid);
		mt_puts(&t, ";\n");
	}
	mt_printf(&t,
		  "\tbyte_order = %s;\n"
		  "\tpacket.header := struct {\n"
		  "\t\tuint32_t magic;\n"
		  "%s"
		  "\t\tuint32_t stream_id;\n"
		  "\t\tuint64_t stream_instance_id;\n"
		  "\t};\n};\n\n",
		  w->bo == TK_BYTE_ORDER_BE ? "be" : "le",
		  w->no_uuid ? "" : "\t\tuint8_t uuid[16];\n");
	if (w->env.len) {
		mt_puts(&t, "env {\n");
		for (i = 0; i < w->env.len; i++) {
			const struct cw_env *e = &VEC_AT(&w->env, struct cw_env, i);

			mt_printf(&t, "\t%s = ", e->key);
			if (e->str)
				mt_literal(&t, e->str);
			else
				mt_printf(&t, "%" PRId64, e->integer);
			mt_puts(&t, ";\n");
		}
		mt_puts(&t, "};\n\n");
	}
	for (i = 0; i < w->clocks.len; i++)
		mt_clock(&t, &VEC_AT(&w->clocks, struct cw_clock, i));
	for (i = 0; i < w->scs.len; i++)
		mt_stream_class(&t, w, VEC_AT(&w->scs, struct cw_sc *, i));
	if (t.oom) {
		free(t.p);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write metadata: dir=%s", w->dir);
	}
	/*
	 * A new file renamed over the old one: the metadata is written again while the trace
	 * is being written (libtracekit-ust, as providers come), and a process killed then
	 * must leave the whole previous text, not a truncated one (readers skip hidden files)
	 */
	fd = openat(dirfd, ".metadata.tmp", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		free(t.p);
		return TK_FAIL(TK_ERR_IO, "Cannot create metadata file: dir=%s, errno=%s", w->dir,
			       strerror(errno));
	}
	st = ctf_write_all(fd, t.p, t.len, "metadata file", "metadata");
	if (close(fd) && st >= 0)
		st = TK_FAIL(TK_ERR_IO, "Cannot close metadata file: dir=%s, errno=%s", w->dir,
			     strerror(errno));
	if (st >= 0 && renameat(dirfd, ".metadata.tmp", dirfd, "metadata"))
		st = TK_FAIL(TK_ERR_IO, "Cannot rename metadata file: dir=%s, errno=%s", w->dir,
			     strerror(errno));
	if (st < 0)
		unlinkat(dirfd, ".metadata.tmp", 0);
	free(t.p);
	return st;
}

enum tk_status ctf_write_metadata(struct tk_ctf_writer *w)
{
	return ctf_write_metadata_at(w, w->dirfd);
}

/* ---- index files and plain writes --------------------------------------------------------- */

enum tk_status ctf_write_all(int fd, const void *p, size_t n, const char *what, const char *name)
{
	const uint8_t *b = p;

	while (n) {
		ssize_t k = write(fd, b, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return TK_FAIL(TK_ERR_IO, "Cannot write %s: name=%s, errno=%s", what, name,
				       strerror(errno));
		}
		if (k == 0)
			return TK_FAIL(TK_ERR_IO, "Cannot write %s: name=%s, reason=no progress",
				       what, name);
		b += k;
		n -= (size_t) k;
	}
	return TK_OK;
}

/*
 * LTTng's index, version 1.1 (reference/ctf.md section 2): a big-endian header (magic, major
 * 1, minor 1, entry length 72), then the entries collected as packets were written.
 */
enum tk_status ctf_write_index(struct tk_ctf_writer *w, struct tk_ctf_writer_stream *s)
{
	uint8_t hdr[16];
	char name[256];
	enum tk_status st;
	int fd;

	if (snprintf(name, sizeof(name), "%s.idx", s->name) >= (int) sizeof(name))
		return TK_FAIL(TK_ERR_INVAL, "Cannot write index file: stream=%s", s->name);
	tk_store_u32(hdr, CW_INDEX_MAGIC, TK_BYTE_ORDER_BE);
	tk_store_u32(hdr + 4, 1, TK_BYTE_ORDER_BE);
	tk_store_u32(hdr + 8, 1, TK_BYTE_ORDER_BE);
	tk_store_u32(hdr + 12, CW_INDEX_ENTRY_SIZE, TK_BYTE_ORDER_BE);
	fd = openat(w->index_dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return TK_FAIL(TK_ERR_IO,
			       "Cannot create index file: dir=%s, name=index/%s, errno=%s", w->dir,
			       name, strerror(errno));
	st = ctf_write_all(fd, hdr, sizeof(hdr), "index file", name);
	if (st >= 0)
		st = ctf_write_all(fd, s->index.data, s->index.len * CW_INDEX_ENTRY_SIZE,
				   "index file", name);
	if (close(fd) && st >= 0)
		st = TK_FAIL(TK_ERR_IO, "Cannot close index file: name=%s, errno=%s", name,
			     strerror(errno));
	return st;
}
