// SPDX-License-Identifier: MIT
/*
 * The CTF writer's declarations and the files it writes once: field declarations compiled
 * for the event path, the names they get in TSDL, the `metadata` text and the LTTng index
 * files. Readers see the trace through the metadata only, so everything the event path
 * assumes (byte-aligned fields, the header layouts, clock mappings) is spelled out here.
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

/* ---- names -------------------------------------------------------------------------------- */

/* The keywords of the TSDL grammar (CTF 1.8.3 section 7.1.1); not usable as names. */
static const char *const keywords[] = {
	"align",   "callsite", "const",		 "char",   "clock",   "double",	  "enum",
	"env",	   "event",    "floating_point", "float",  "integer", "int",	  "long",
	"short",   "signed",   "stream",	 "string", "struct",  "trace",	  "typealias",
	"typedef", "unsigned", "variant",	 "void",   "_Bool",   "_Complex", "_Imaginary",
};

int ctf_write_is_keyword(const char *s)
{
	size_t i;

	for (i = 0; i < TK_ARRAY_SIZE(keywords); i++)
		if (!strcmp(s, keywords[i]))
			return 1;
	return 0;
}

static int is_ident_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/*
 * @name with every byte outside [A-Za-z0-9_] replaced by '_', after @prefix_len leading
 * underscores, with room for a "_N" suffix. NULL when out of memory.
 */
static char *sanitize(struct arena *a, const char *name, size_t prefix_len)
{
	size_t n = strlen(name), i;
	char *s = arena_alloc(a, prefix_len + n + 24);

	if (!s)
		return NULL;
	memset(s, '_', prefix_len);
	for (i = 0; i < n; i++)
		s[prefix_len + i] = is_ident_char((unsigned char) name[i]) ? name[i] : '_';
	s[prefix_len + n] = '\0';
	return s;
}

char *ctf_write_ident(struct arena *a, const char *name)
{
	char *s = sanitize(a, name, 1);

	if (!s)
		return NULL;
	/* the prefix stays only when needed: a keyword or a leading digit */
	if (!ctf_write_is_keyword(s + 1) && !(s[1] >= '0' && s[1] <= '9'))
		return s + 1;
	return s;
}

/*
 * The written name of a structure member shown as @name (rules 1 and 2 of tk_ctf_writer.h);
 * rule 3 (unique names) is applied by the caller.
 */
static char *member_name(struct arena *a, const char *name)
{
	char *s = sanitize(a, name, 1);

	if (s && ctf_write_is_keyword(s))
		return s + 1; /* "_Bool" and friends: written unprefixed, shown the same */
	return s;
}

/* Rule 3: append "_2", "_3", ... to @s (allocated with room) until no earlier name equals it. */
static void make_unique(char *s, const char *const *earlier, size_t n)
{
	size_t base = strlen(s), i;
	unsigned long k = 1;

	for (;;) {
		for (i = 0; i < n; i++)
			if (!strcmp(earlier[i], s))
				break;
		if (i == n)
			return;
		snprintf(s + base, 22, "_%lu", ++k);
	}
}

/* ---- declarations ------------------------------------------------------------------------- */

static unsigned int storage_bytes(unsigned int bits)
{
	return bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
}

static int check_base(unsigned int *base)
{
	if (*base == 0)
		*base = 10;
	return *base == 2 || *base == 8 || *base == 10 || *base == 16;
}

/* Check one declaration and fill @f (but its names); a cause names the field on failure. */
static enum tk_status compile_one(const struct tk_ctf_field_decl *d, const char *what,
				  struct cw_field *f)
{
	unsigned int base = d->base, elem_base = d->elem_base;

	f->kind = (uint8_t) d->kind;
	switch (d->kind) {
	case TK_CTF_FIELD_KIND_INT:
		if (d->bits < 1 || d->bits > 64 || !check_base(&base))
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot declare field: %s, field=%s, bits=%u, base=%u, "
				       "reason=integers have 1 to 64 bits and base 2, 8, 10 or 16",
				       what, d->name, d->bits, d->base);
		f->bits = (uint8_t) d->bits;
		f->is_signed = !!d->is_signed;
		f->base = (uint8_t) base;
		f->out_bytes = (uint8_t) ((d->bits + 7) / 8);
		switch (d->bits) {
		case 8:
			f->op = CW_OP_U8;
			break;
		case 16:
			f->op = CW_OP_U16;
			break;
		case 32:
			f->op = CW_OP_U32;
			break;
		case 64:
			f->op = CW_OP_U64;
			break;
		default:
			f->op = CW_OP_BITS;
			break;
		}
		return TK_OK;
	case TK_CTF_FIELD_KIND_FLOAT:
		if (d->bits != 32 && d->bits != 64)
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot declare field: %s, field=%s, bits=%u, "
				       "reason=floats have 32 or 64 bits",
				       what, d->name, d->bits);
		f->bits = (uint8_t) d->bits;
		f->op = d->bits == 32 ? CW_OP_F32 : CW_OP_F64;
		f->out_bytes = (uint8_t) (d->bits / 8);
		return TK_OK;
	case TK_CTF_FIELD_KIND_STRING:
		f->op = CW_OP_STRING;
		return TK_OK;
	case TK_CTF_FIELD_KIND_ARRAY:
	case TK_CTF_FIELD_KIND_SEQUENCE:
		break;
	default:
		return TK_FAIL(TK_ERR_INVAL, "Cannot declare field: %s, field=%s, kind=%d", what,
			       d->name, (int) d->kind);
	}
	f->op = d->kind == TK_CTF_FIELD_KIND_ARRAY ? CW_OP_ARRAY : CW_OP_SEQUENCE;
	f->elem_kind = (uint8_t) d->elem_kind;
	if (d->elem_kind == TK_CTF_FIELD_KIND_CHAR) {
		f->bits = 8;
		f->base = 10;
	} else if (d->elem_kind == TK_CTF_FIELD_KIND_INT && d->elem_bits >= 1 &&
		   d->elem_bits <= 64 && check_base(&elem_base)) {
		f->bits = (uint8_t) d->elem_bits;
		f->is_signed = !!d->elem_signed;
		f->base = (uint8_t) elem_base;
	} else {
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot declare field: %s, field=%s, element-kind=%d, "
			       "element-bits=%u, element-base=%u, reason=elements are integers of "
			       "1 to 64 bits (base 2, 8, 10 or 16) or characters",
			       what, d->name, (int) d->elem_kind, d->elem_bits, d->elem_base);
	}
	if (d->kind == TK_CTF_FIELD_KIND_ARRAY && d->array_len > UINT32_MAX)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot declare field: %s, field=%s, length=%" PRIu64
			       ", reason=more than 2^32 - 1 elements",
			       what, d->name, d->array_len);
	f->array_len = d->array_len;
	f->in_bytes = (uint8_t) storage_bytes(f->bits);
	f->out_bytes = (uint8_t) ((f->bits + 7) / 8);
	return TK_OK;
}

/*
 * Per event, each field takes: integers and floats their bytes, strings their text and a NUL,
 * arrays their elements, sequences a 32-bit length and their elements. The fixed part is
 * everything but string texts and sequence elements.
 */
enum tk_status ctf_write_fields_compile(struct arena *a, const struct tk_ctf_field_decl *d,
					size_t n, const char *what, struct cw_fields *out)
{
	const struct cw_field *f_last;
	const char **names;
	size_t i, nn = 0;
	enum tk_status st;

	memset(out, 0, sizeof(*out));
	if (!n)
		return TK_OK;
	if (n > UINT32_MAX / 2)
		return TK_FAIL(TK_ERR_INVAL, "Cannot declare fields: %s, count=%zu", what, n);
	out->f = arena_alloc(a, n * sizeof(*out->f));
	out->var = arena_alloc(a, n * sizeof(*out->var));
	names = calloc(2 * n, sizeof(*names));
	if (!out->f || !out->var || !names) {
		free(names);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot declare fields: %s", what);
	}
	for (i = 0; i < n; i++) {
		struct cw_field *f = &out->f[i];
		char *w;

		if (!d[i].name || !d[i].name[0]) {
			st = TK_FAIL(TK_ERR_INVAL, "Cannot declare field: %s, index=%zu, reason=%s",
				     what, i, d[i].name ? "empty name" : "no name");
			goto out;
		}
		st = compile_one(&d[i], what, f);
		if (st < 0)
			goto out;
		if (f->op == CW_OP_SEQUENCE) {
			/* the length member comes first, shown as _NAME_length */
			size_t l = strlen(d[i].name);
			char *shown = arena_alloc(a, l + 9);

			if (!shown)
				goto nomem;
			shown[0] = '_';
			memcpy(shown + 1, d[i].name, l);
			memcpy(shown + 1 + l, "_length", 8);
			w = member_name(a, shown);
			if (!w)
				goto nomem;
			make_unique(w, names, nn);
			names[nn++] = w;
			f->len_name = w;
		}
		w = member_name(a, d[i].name);
		if (!w)
			goto nomem;
		make_unique(w, names, nn);
		names[nn++] = w;
		f->name = w;

		switch (f->op) {
		case CW_OP_STRING:
			out->fixed += 1;
			out->var[out->n_var++] = (uint32_t) i;
			break;
		case CW_OP_ARRAY:
			out->fixed += (size_t) f->array_len * f->out_bytes;
			out->var[out->n_var++] = (uint32_t) i;
			break;
		case CW_OP_SEQUENCE:
			out->fixed += 4;
			out->var[out->n_var++] = (uint32_t) i;
			break;
		default:
			out->fixed += f->out_bytes;
			break;
		}
	}
	out->n = (uint32_t) n;
	/* where the last bit of the list is: readers take the packet content to end there */
	f_last = &out->f[n - 1];
	if (f_last->op == CW_OP_BITS || f_last->op == CW_OP_SEQUENCE ||
	    (f_last->op == CW_OP_ARRAY && f_last->array_len))
		out->tail_pad = (uint8_t) (8 * f_last->out_bytes - f_last->bits);
	out->tail_seq = f_last->op == CW_OP_SEQUENCE;
	st = TK_OK;
	goto out;
nomem:
	st = TK_FAIL(TK_ERR_NOMEM, "Cannot declare fields: %s", what);
out:
	free(names);
	return st;
}

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

static void mt_elem_type(struct mtext *t, const struct cw_field *f)
{
	if (f->elem_kind == TK_CTF_FIELD_KIND_CHAR)
		mt_int_type(t, 8, 0, 10, 1);
	else
		mt_int_type(t, f->bits, f->is_signed, f->base, 0);
}

static void mt_fields(struct mtext *t, const struct cw_fields *fs, const char *indent)
{
	uint32_t i;

	for (i = 0; i < fs->n; i++) {
		const struct cw_field *f = &fs->f[i];

		mt_puts(t, indent);
		switch (f->op) {
		case CW_OP_F32:
			mt_printf(t,
				  "floating_point { exp_dig = 8; mant_dig = 24; align = 8; } %s;\n",
				  f->name);
			break;
		case CW_OP_F64:
			mt_printf(
				t,
				"floating_point { exp_dig = 11; mant_dig = 53; align = 8; } %s;\n",
				f->name);
			break;
		case CW_OP_STRING:
			mt_printf(t, "string %s;\n", f->name);
			break;
		case CW_OP_ARRAY:
			mt_elem_type(t, f);
			mt_printf(t, " %s[%" PRIu64 "];\n", f->name, f->array_len);
			break;
		case CW_OP_SEQUENCE:
			mt_printf(t, "uint32_t %s;\n%s", f->len_name, indent);
			mt_elem_type(t, f);
			mt_printf(t, " %s[%s];\n", f->name, f->len_name);
			break;
		default:
			mt_int_type(t, f->bits, f->is_signed, f->base, 0);
			mt_printf(t, " %s;\n", f->name);
			break;
		}
	}
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
	if (c->description) {
		mt_puts(t, "\tdescription = ");
		mt_literal(t, c->description);
		mt_puts(t, ";\n");
	}
	mt_printf(t,
		  "\tfreq = %" PRIu64 ";\n\toffset_s = %" PRId64 ";\n\toffset = %" PRIu64
		  ";\n\tabsolute = %s;\n};\n\n",
		  c->freq, c->offset_s, c->offset_cycles, c->absolute ? "TRUE" : "FALSE");
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

static void mt_stream_class(struct mtext *t, const struct tk_ctf_writer *w, const struct cw_sc *sc)
{
	const struct cw_clock *c = &VEC_AT(&w->clocks, struct cw_clock, sc->clock);
	size_t i;

	mt_printf(t, "stream {\n\tid = %" PRIu64 ";\n", sc->id);
	mt_printf(t,
		  "\tpacket.context := struct {\n"
		  "\t\tuint64_clock_%s_t timestamp_begin;\n"
		  "\t\tuint64_clock_%s_t timestamp_end;\n"
		  "\t\tuint64_t content_size;\n"
		  "\t\tuint64_t packet_size;\n"
		  "\t\tuint64_t packet_seq_num;\n"
		  "\t\tuint64_t events_discarded;\n"
		  "\t\tuint32_t cpu_id;\n"
		  "\t};\n",
		  c->name, c->name);
	mt_event_header(t, sc, c->name);
	if (sc->ctx.n) {
		mt_puts(t, "\tevent.context := struct {\n");
		mt_fields(t, &sc->ctx, "\t\t");
		mt_puts(t, "\t};\n");
	}
	mt_puts(t, "};\n\n");
	for (i = 0; i < sc->ecs.len; i++) {
		const struct cw_ec *ec = VEC_AT(&sc->ecs, struct cw_ec *, i);

		mt_puts(t, "event {\n\tname = ");
		mt_literal(t, ec->name);
		mt_printf(t, ";\n\tid = %zu;\n\tstream_id = %" PRIu64 ";\n", i, sc->id);
		if (ec->loglevel >= 0)
			mt_printf(t, "\tloglevel = %d;\n", ec->loglevel);
		if (ec->fields.n) {
			mt_puts(t, "\tfields := struct {\n");
			mt_fields(t, &ec->fields, "\t\t");
			mt_puts(t, "\t};\n");
		}
		mt_puts(t, "};\n\n");
	}
}

/*
 * The whole TSDL document: common aliases, trace (with the packet header), env, clocks with
 * their mapped aliases, then each stream class followed by its event classes.
 */
enum tk_status ctf_write_metadata(struct tk_ctf_writer *w)
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
		    "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = ");
	mt_uuid(&t, w->uuid);
	mt_printf(&t,
		  ";\n\tbyte_order = %s;\n"
		  "\tpacket.header := struct {\n"
		  "\t\tuint32_t magic;\n"
		  "\t\tuint8_t uuid[16];\n"
		  "\t\tuint32_t stream_id;\n"
		  "\t\tuint64_t stream_instance_id;\n"
		  "\t};\n};\n\n",
		  w->bo == TK_BYTE_ORDER_BE ? "be" : "le");
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
	fd = openat(w->dirfd, "metadata", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		free(t.p);
		return TK_FAIL(TK_ERR_IO, "Cannot create metadata file: dir=%s, errno=%s", w->dir,
			       strerror(errno));
	}
	st = ctf_write_all(fd, t.p, t.len, "metadata file", "metadata");
	if (close(fd) && st >= 0)
		st = TK_FAIL(TK_ERR_IO, "Cannot close metadata file: dir=%s, errno=%s", w->dir,
			     strerror(errno));
	free(t.p);
	return st;
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
