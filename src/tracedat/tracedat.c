// SPDX-License-Identifier: MIT
/*
 * Opening trace.dat files: the file header, the metadata parts, the options and, in version 7,
 * the sections that hold them, ending in struct tracedat_info (reference sections 2 to 4).
 *
 * Everything is read from the mapping through a bounded cursor, so no length or offset in the
 * file can make us read outside it; v7 metadata sections with the compression flag are
 * inflated into heap blocks kept until tracedat_close(). The per-CPU data is not touched here:
 * tracedat-pages.c reads it on demand.
 *
 * The options themselves are read in tracedat-options.c. Compatibility choices, each the way
 * libtracecmd reads files in the field:
 *  - v6 options have no DONE size; the clock blob after a flyrecord CPU table is there only
 *    if a TRACECLOCK option was seen, even an empty one (trace-cmd < 3.0).
 *  - A CPUCOUNT option right after a v6 BUFFER option is that instance's CPU count.
 *  - DATE and OFFSET options add up, as libtracecmd adds them to one offset.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bigmem.h"
#include "../common/error.h"
#include "tracedat-priv.h"

/* ---- bounded reading ---------------------------------------------------------------------- */

static void tracedat_cur_init(struct tracedat_cur *c, const uint8_t *p, size_t size, uint64_t base,
			      enum tk_byte_order bo, const char *limit)
{
	c->p = p;
	c->size = size;
	c->off = 0;
	c->base = base;
	c->rel = 0;
	c->inflated = 0;
	c->limit = limit;
	c->bo = bo;
}

/* The @len bytes at @at of @parent (already checked to be there) as a region of their own. */
void tracedat_cur_sub(struct tracedat_cur *c, const struct tracedat_cur *parent, size_t at,
		      size_t len, const char *limit)
{
	*c = *parent;
	c->p = parent->p + at;
	c->size = len;
	c->off = 0;
	c->limit = limit;
	if (parent->inflated)
		c->rel = parent->rel + at;
	else
		c->base = parent->base + at;
}

enum tk_status tracedat_cur_fail(const struct tracedat_cur *c, enum tk_status st, const char *what,
				 size_t at, const char *reason)
{
	if (c->inflated)
		return TK_FAIL(st,
			       "Cannot read trace.dat %s: section-offset=%" PRIu64
			       ", decompressed-offset=%zu, reason=%s",
			       what, c->base, c->rel + at, reason);
	return TK_FAIL(st, "Cannot read trace.dat %s: offset=%" PRIu64 ", reason=%s", what,
		       c->base + at, reason);
}

static enum tk_status tracedat_cur_short(const struct tracedat_cur *c, const char *what,
					 uint64_t len)
{
	if (c->inflated)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat %s: section-offset=%" PRIu64
			       ", decompressed-offset=%zu, length=%" PRIu64
			       ", reason=runs past the end of the decompressed %s",
			       what, c->base, c->rel + c->off, len, c->limit);
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot read trace.dat %s: offset=%" PRIu64 ", length=%" PRIu64
		       ", reason=runs past the end of the %s",
		       what, c->base + c->off, len, c->limit);
}

enum tk_status tracedat_cur_bytes(struct tracedat_cur *c, uint64_t len, const uint8_t **out,
				  const char *what)
{
	if (len > tracedat_cur_left(c)) {
		tracedat_cur_short(c, what, len);
		return TK_ERR_FORMAT;
	}
	*out = c->p + c->off;
	c->off += (size_t) len;
	return TK_OK;
}

enum tk_status tracedat_cur_u8(struct tracedat_cur *c, uint8_t *v, const char *what)
{
	const uint8_t *p;

	if (tracedat_cur_bytes(c, 1, &p, what) < 0)
		return TK_ERR_FORMAT;
	*v = p[0];
	return TK_OK;
}

enum tk_status tracedat_cur_u16(struct tracedat_cur *c, uint16_t *v, const char *what)
{
	const uint8_t *p;

	if (tracedat_cur_bytes(c, 2, &p, what) < 0)
		return TK_ERR_FORMAT;
	*v = tk_load_u16(p, c->bo);
	return TK_OK;
}

enum tk_status tracedat_cur_u32(struct tracedat_cur *c, uint32_t *v, const char *what)
{
	const uint8_t *p;

	if (tracedat_cur_bytes(c, 4, &p, what) < 0)
		return TK_ERR_FORMAT;
	*v = tk_load_u32(p, c->bo);
	return TK_OK;
}

enum tk_status tracedat_cur_u64(struct tracedat_cur *c, uint64_t *v, const char *what)
{
	const uint8_t *p;

	if (tracedat_cur_bytes(c, 8, &p, what) < 0)
		return TK_ERR_FORMAT;
	*v = tk_load_u64(p, c->bo);
	return TK_OK;
}

/* A NUL-terminated string inside the region; *@s points at it (borrowed). */
enum tk_status tracedat_cur_cstr(struct tracedat_cur *c, const char **s, const char *what)
{
	const uint8_t *nul = memchr(c->p + c->off, '\0', tracedat_cur_left(c));

	if (!nul)
		return tracedat_cur_fail(
			c, TK_ERR_FORMAT, what, c->off,
			"string has no terminating NUL before the end of its region");
	*s = (const char *) c->p + c->off;
	c->off = (size_t) (nul - c->p) + 1;
	return TK_OK;
}

/* A u32 or u64 length (@width bytes) and that many bytes. */
static enum tk_status tracedat_cur_sized(struct tracedat_cur *c, int width, struct tracedat_blob *b,
					 const char *what)
{
	uint64_t len;
	uint32_t len32;
	const uint8_t *p;

	if (width == 4) {
		if (tracedat_cur_u32(c, &len32, what) < 0)
			return TK_ERR_FORMAT;
		len = len32;
	} else if (tracedat_cur_u64(c, &len, what) < 0) {
		return TK_ERR_FORMAT;
	}
	if (tracedat_cur_bytes(c, len, &p, what) < 0)
		return TK_ERR_FORMAT;
	b->data = p;
	b->len = (size_t) len;
	return TK_OK;
}

/* ---- open state ---------------------------------------------------------------------------- */

/* A new buffer (zeroed) with its private part; returns its index or -1 when out of memory. */
long tracedat_buffer_add(struct tracedat_open *o)
{
	if (!vec_push(&o->p->buffers, sizeof(struct tracedat_buffer)))
		return -1;
	if (!vec_push(&o->p->bprivs, sizeof(struct tracedat_buffer_priv))) {
		o->p->buffers.len--;
		return -1;
	}
	return (long) o->p->buffers.len - 1;
}

/* A heap copy of option text: up to the first NUL (if any), trailing newlines dropped. */
char *tracedat_dup_text(struct tracedat_open *o, const uint8_t *data, size_t len)
{
	const uint8_t *nul = memchr(data, '\0', len);

	if (nul)
		len = (size_t) (nul - data);
	while (len && (data[len - 1] == '\n' || data[len - 1] == ' '))
		len--;
	return arena_strndup(&o->p->arena, (const char *) data, len);
}

/*
 * The clock name in a trace_clock text: the word in brackets ("[local] global counter"), as
 * libtracecmd finds it. NULL when there is none (no bracket, or empty brackets).
 */
static enum tk_status clock_from_text(struct tracedat_open *o, const uint8_t *text, size_t len,
				      const char **out)
{
	size_t i = 0, start, end;

	*out = NULL;
	while (i < len && text[i] && text[i] != '[')
		i++;
	if (i >= len || text[i] != '[')
		return TK_OK;
	start = ++i;
	while (i < len && text[i] && text[i] != ']' && text[i] != ' ' && text[i] != '\t' &&
	       text[i] != '\n')
		i++;
	end = i;
	if (end == start)
		return TK_OK;
	*out = arena_strndup(&o->p->arena, (const char *) text + start, end - start);
	return *out ? TK_OK : TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat clock");
}

/* ---- compressed metadata ------------------------------------------------------------------ */

/*
 * Inflate the one block a compressed metadata section holds (u32 zsize, u32 usize, data) and
 * point @out at the result. The output may be shorter than usize (libtracecmd accepts that)
 * but never longer; blocks count against TRACEDAT_MAX_INFLATED for the whole file.
 */
static enum tk_status inflate_section(struct tracedat_open *o, struct tracedat_cur *sec,
				      uint64_t sec_off, const char *what, struct tracedat_cur *out)
{
	uint32_t zsize, usize;
	const uint8_t *zdata;
	const char *reason = NULL;
	struct tracedat_block *slot;
	uint8_t *dst;
	size_t len = 0;
	enum tk_status st;

	if (tracedat_cur_u32(sec, &zsize, what) < 0 || tracedat_cur_u32(sec, &usize, what) < 0 ||
	    tracedat_cur_bytes(sec, zsize, &zdata, what) < 0)
		return TK_ERR_FORMAT;
	if (o->p->codec == TRACEDAT_CODEC_NONE)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat %s: offset=%" PRIu64
			       ", reason=compressed section in a file without compression",
			       what, sec_off);
	if (usize > TRACEDAT_MAX_BLOCK || usize > TRACEDAT_MAX_INFLATED - o->p->inflated ||
	    !tracedat_ratio_ok(zsize, usize))
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot read trace.dat %s: offset=%" PRIu64
			       ", uncompressed-size=%" PRIu32
			       ", reason=more decompressed metadata than this reader accepts",
			       what, sec_off, usize);
	if (o->z.codec != o->p->codec)
		tracedat_inflater_init(&o->z, o->p->codec);
	dst = bigmem_alloc(usize); /* kallsyms: megabytes, filled once */
	slot = vec_push(&o->p->blocks, sizeof(*slot));
	if (!dst || !slot) {
		bigmem_free(dst, usize);
		return TK_FAIL(TK_ERR_NOMEM,
			       "Cannot read trace.dat %s: offset=%" PRIu64
			       ", uncompressed-size=%" PRIu32,
			       what, sec_off, usize);
	}
	slot->data = dst;
	slot->size = usize;
	o->p->inflated += usize;
	st = tracedat_inflate(&o->z, zdata, zsize, dst, usize, &len, &reason);
	if (st < 0)
		return TK_FAIL(st,
			       "Cannot decompress trace.dat %s: offset=%" PRIu64
			       ", compression=%s, compressed-size=%" PRIu32
			       ", uncompressed-size=%" PRIu32 ", reason=%s",
			       what, sec_off, o->info->compression, zsize, usize, reason);
	tracedat_cur_init(out, dst, len, sec_off, o->bo, "section");
	out->inflated = 1;
	return TK_OK;
}

/*
 * Read the 16-byte header of the v7 section at @off and give a cursor over its payload,
 * inflated when the header says so and @inflate is set (metadata: one block; buffers keep
 * their chunks). @want is the id it must have.
 */
enum tk_status tracedat_open_section(struct tracedat_open *o, uint64_t off, uint16_t want,
				     const char *what, int inflate, struct tracedat_cur *out,
				     uint16_t *flags_out)
{
	struct tracedat_cur c;
	uint16_t id, flags;
	uint32_t desc;
	uint64_t size;
	const uint8_t *payload;

	if (off > o->size)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat %s: offset=%" PRIu64
			       ", reason=section offset is past the end of the file",
			       what, off);
	tracedat_cur_init(&c, o->file, o->size, 0, o->bo, "file");
	c.off = (size_t) off;
	if (tracedat_cur_u16(&c, &id, what) < 0 || tracedat_cur_u16(&c, &flags, what) < 0 ||
	    tracedat_cur_u32(&c, &desc, what) < 0 || tracedat_cur_u64(&c, &size, what) < 0)
		return TK_ERR_FORMAT;
	if (id != want)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat %s: offset=%" PRIu64 ", section-id=%u, "
			       "reason=expected a section of id %u (%s)",
			       what, off, id, want, tracedat_option_name(want));
	if (tracedat_cur_bytes(&c, size, &payload, what) < 0)
		return TK_ERR_FORMAT;
	if (flags_out)
		*flags_out = flags;
	tracedat_cur_init(out, payload, (size_t) size, off + TRACEDAT_SECTION_HEADER_SIZE, o->bo,
			  "section");
	if (!inflate || !(flags & TRACEDAT_SEC_FL_COMPRESS))
		return TK_OK;
	return inflate_section(o, out, off, what, out);
}

/* ---- metadata parts (v6 in sequence, v7 one per section) ---------------------------------- */

static enum tk_status parse_header_info(struct tracedat_open *o, struct tracedat_cur *c)
{
	const uint8_t *tag;
	size_t at = c->off;

	if (tracedat_cur_bytes(c, 12, &tag, "header page") < 0)
		return TK_ERR_FORMAT;
	if (memcmp(tag, "header_page", 12))
		return tracedat_cur_fail(c, TK_ERR_FORMAT, "header page", at,
					 "expected the text \"header_page\"");
	if (tracedat_cur_sized(c, 8, &o->info->header_page, "header page") < 0)
		return TK_ERR_FORMAT;
	at = c->off;
	if (tracedat_cur_bytes(c, 13, &tag, "header event") < 0)
		return TK_ERR_FORMAT;
	if (memcmp(tag, "header_event", 13))
		return tracedat_cur_fail(c, TK_ERR_FORMAT, "header event", at,
					 "expected the text \"header_event\"");
	return tracedat_cur_sized(c, 8, &o->info->header_event, "header event");
}

/* u32 count, then count x {u64 length, text}: the format files of one system. */
static enum tk_status parse_formats(struct tracedat_open *o, struct tracedat_cur *c,
				    const char *what, struct tracedat_blob **out, size_t *n_out)
{
	struct tracedat_blob *f;
	uint32_t n, i;

	if (tracedat_cur_u32(c, &n, what) < 0)
		return TK_ERR_FORMAT;
	if (n > tracedat_cur_left(c) / 8)
		return tracedat_cur_fail(c, TK_ERR_FORMAT, what, c->off - 4,
					 "more formats than the bytes left can hold");
	f = arena_alloc(&o->p->arena, (size_t) n * sizeof(*f) + 1);
	if (!f)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat %s: count=%" PRIu32, what, n);
	for (i = 0; i < n; i++)
		if (tracedat_cur_sized(c, 8, &f[i], what) < 0)
			return TK_ERR_FORMAT;
	*out = f;
	*n_out = n;
	return TK_OK;
}

static enum tk_status parse_event_formats(struct tracedat_open *o, struct tracedat_cur *c)
{
	struct tracedat_info *in = o->info;
	enum tk_status st;
	uint32_t n, i;

	if (tracedat_cur_u32(c, &n, "event formats") < 0)
		return TK_ERR_FORMAT;
	if (n > tracedat_cur_left(c) / 5)
		return tracedat_cur_fail(c, TK_ERR_FORMAT, "event formats", c->off - 4,
					 "more systems than the bytes left can hold");
	in->systems = arena_alloc(&o->p->arena, (size_t) n * sizeof(*in->systems) + 1);
	if (!in->systems)
		return TK_FAIL(TK_ERR_NOMEM,
			       "Cannot read trace.dat event formats: systems=%" PRIu32, n);
	in->n_systems = 0;
	for (i = 0; i < n; i++) {
		struct tracedat_system *s = &in->systems[i];

		st = tracedat_cur_cstr(c, &s->name, "event system name");
		if (st >= 0)
			st = parse_formats(o, c, "event formats", &s->formats, &s->n_formats);
		if (st < 0)
			return TK_FAIL(st, "Cannot read trace.dat event system: index=%" PRIu32, i);
		in->n_systems++;
	}
	return TK_OK;
}

/* One metadata part, v6 or v7 (the payload of v7 sections 16..21 is the v6 encoding). */
static enum tk_status parse_part(struct tracedat_open *o, struct tracedat_cur *c, unsigned int id)
{
	struct tracedat_info *in = o->info;

	switch (id) {
	case TRACEDAT_OPTION_HEADER_INFO:
		return parse_header_info(o, c);
	case TRACEDAT_OPTION_FTRACE_EVENTS:
		return parse_formats(o, c, "ftrace formats", &in->ftrace_formats,
				     &in->n_ftrace_formats);
	case TRACEDAT_OPTION_EVENT_FORMATS:
		return parse_event_formats(o, c);
	case TRACEDAT_OPTION_KALLSYMS:
		return tracedat_cur_sized(c, 4, &in->kallsyms, "kallsyms");
	case TRACEDAT_OPTION_PRINTK:
		return tracedat_cur_sized(c, 4, &in->printk, "printk formats");
	case TRACEDAT_OPTION_CMDLINES:
		return tracedat_cur_sized(c, 8, &in->cmdlines, "command lines");
	}
	return TK_OK;
}

/* ---- CPU tables and clocks (v6) ----------------------------------------------------------- */

/*
 * A v6 flyrecord CPU table: @ncpu x {u64 offset, u64 size}, then the clock blob {u64 length,
 * text} when a TRACECLOCK option was seen. CPUs without data are left out, as v7 files leave
 * them out of BUFFER options. A clock blob that does not fit means "local", as libtracecmd
 * reads the files an early trace_clock bug damaged; *@clock_text stays empty then.
 */
static enum tk_status read_cpu_table(struct tracedat_open *o, struct tracedat_cur *c,
				     struct tracedat_buffer *b, uint32_t ncpu,
				     struct tracedat_blob *clock_text)
{
	struct tracedat_cpu_data *cpus;
	uint64_t len;
	uint32_t i, with_data = 0;

	if (ncpu > tracedat_cur_left(c) / 16)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat CPU table: offset=%" PRIu64 ", cpus=%" PRIu32
			       ", reason=runs past the end of the file",
			       c->base + c->off, ncpu);
	if (ncpu > TRACEDAT_MAX_CPU_ENTRIES - o->cpu_entries)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot read trace.dat CPU table: offset=%" PRIu64 ", cpus=%" PRIu32
			       ", reason=more CPU entries than this reader accepts",
			       c->base + c->off, ncpu);
	o->cpu_entries += ncpu;
	for (i = 0; i < ncpu; i++)
		if (tk_load_u64(c->p + c->off + 16 * (size_t) i + 8, c->bo))
			with_data++;
	cpus = arena_alloc(&o->p->arena, (size_t) with_data * sizeof(*cpus) + 1);
	if (!cpus)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat CPU table: cpus=%" PRIu32,
			       ncpu);
	b->cpus = cpus;
	b->n_cpus = 0;
	for (i = 0; i < ncpu; i++) {
		/* in bounds: checked above */
		uint64_t off = tk_load_u64(c->p + c->off, c->bo);
		uint64_t size = tk_load_u64(c->p + c->off + 8, c->bo);

		c->off += 16;
		if (!size)
			continue;
		if (off > UINT64_MAX - size)
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read trace.dat CPU table: offset=%" PRIu64
				       ", cpu=%" PRIu32 ", reason=data offset plus size overflows",
				       c->base + c->off - 16, i);
		cpus[b->n_cpus].cpu = i;
		cpus[b->n_cpus].offset = off;
		cpus[b->n_cpus].size = size;
		b->n_cpus++;
	}
	clock_text->data = NULL;
	clock_text->len = 0;
	if (o->clock_seen == TRACEDAT_CLOCK_SEEN_NONE)
		return TK_OK;
	if (tracedat_cur_left(c) < 8)
		return TK_OK;
	len = tk_load_u64(c->p + c->off, c->bo);
	if (len > tracedat_cur_left(c) - 8)
		return TK_OK;
	clock_text->data = c->p + c->off + 8;
	clock_text->len = (size_t) len;
	c->off += 8 + (size_t) len;
	return TK_OK;
}

/* The top clock of a v6 file: the blob's bracketed word, else the TRACECLOCK text's. */
static enum tk_status clock_v6(struct tracedat_open *o, const struct tracedat_blob *blob,
			       const char *fallback, const char **out)
{
	enum tk_status st;

	*out = fallback;
	if (o->clock_seen == TRACEDAT_CLOCK_SEEN_NONE)
		return TK_OK;
	if (blob->data) {
		st = clock_from_text(o, blob->data, blob->len, out);
		if (st < 0 || *out)
			return st;
	}
	if (o->info->trace_clock) {
		st = clock_from_text(o, (const uint8_t *) o->info->trace_clock,
				     strlen(o->info->trace_clock), out);
		if (st < 0 || *out)
			return st;
	}
	*out = fallback ? fallback : "local";
	return TK_OK;
}

/* A v6 instance: its own "flyrecord" marker, CPU table and clock blob at the BUFFER offset. */
static enum tk_status read_instance_v6(struct tracedat_open *o,
				       const struct tracedat_v6_instance *vi)
{
	struct tracedat_buffer *b = tracedat_buf(o, vi->buffer);
	struct tracedat_blob clock_text;
	const uint8_t *marker;
	struct tracedat_cur c;
	enum tk_status st;

	if (vi->offset == 0)
		return TK_OK; /* the writer never filled it in: an instance without data */
	if (vi->offset > o->size)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat buffer: name=%s, offset=%" PRIu64
			       ", reason=offset is past the end of the file",
			       b->name, vi->offset);
	tracedat_cur_init(&c, o->file, o->size, 0, o->bo, "file");
	c.off = (size_t) vi->offset;
	if (tracedat_cur_bytes(&c, 10, &marker, "buffer") < 0)
		return TK_FAIL(TK_ERR_FORMAT, "Cannot read trace.dat buffer: name=%s", b->name);
	if (memcmp(marker, "flyrecord", 9))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat buffer: name=%s, offset=%" PRIu64
			       ", reason=expected the text \"flyrecord\"",
			       b->name, vi->offset);
	st = read_cpu_table(o, &c, b, vi->ncpu == UINT32_MAX ? o->v6_cpus : vi->ncpu, &clock_text);
	if (st < 0)
		return TK_FAIL(st, "Cannot read trace.dat buffer: name=%s", b->name);
	return clock_v6(o, &clock_text, tracedat_buf(o, 0)->clock, &b->clock);
}

/*
 * Version 6: the metadata parts in a fixed order, the CPU count, then options (if any) and
 * either the latency text or the flyrecord CPU table of the top buffer (reference section 2).
 */
static enum tk_status open_v6(struct tracedat_open *o, struct tracedat_cur *c)
{
	struct tracedat_info *in = o->info;
	struct tracedat_buffer *top;
	struct tracedat_blob clock_text;
	const uint8_t *marker;
	uint64_t next;
	unsigned int id;
	size_t i, at;
	enum tk_status st;

	in->compression = "none";
	in->compression_version = "";
	for (id = TRACEDAT_OPTION_HEADER_INFO; id <= TRACEDAT_OPTION_CMDLINES; id++) {
		st = parse_part(o, c, id);
		if (st < 0)
			return st;
	}
	if (tracedat_cur_u32(c, &o->v6_cpus, "CPU count") < 0)
		return TK_ERR_FORMAT;
	in->cpus = o->v6_cpus;
	at = c->off;
	if (tracedat_cur_bytes(c, 10, &marker, "options") < 0)
		return TK_ERR_FORMAT;
	if (!memcmp(marker, "options", 7)) {
		st = tracedat_read_options(o, c, &next);
		if (st < 0)
			return st;
		at = c->off;
		if (tracedat_cur_bytes(c, 10, &marker, "data marker") < 0)
			return TK_ERR_FORMAT;
	}
	top = tracedat_buf(o, 0);
	clock_text.data = NULL;
	clock_text.len = 0;
	if (!memcmp(marker, "latency", 7)) {
		st = clock_v6(o, &clock_text, NULL, &top->clock);
		if (st < 0)
			return st;
		top->latency = 1;
		top->latency_text.data = c->p + c->off;
		top->latency_text.len = tracedat_cur_left(c);
		tracedat_bpriv(o, 0)->text_offset = c->off;
		tracedat_bpriv(o, 0)->text_size = tracedat_cur_left(c);
	} else if (!memcmp(marker, "flyrecord", 9)) {
		st = read_cpu_table(o, c, top, o->v6_cpus, &clock_text);
		if (st < 0)
			return st;
		if (clock_text.len) {
			in->trace_clock = in->trace_clock ? in->trace_clock
							  : tracedat_dup_text(o, clock_text.data,
									      clock_text.len);
			if (!in->trace_clock)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat clock");
		}
		st = clock_v6(o, &clock_text, NULL, &top->clock);
		if (st < 0)
			return st;
	} else {
		return tracedat_cur_fail(c, TK_ERR_FORMAT, "data marker", at,
					 "expected \"options\", \"latency\" or \"flyrecord\"");
	}
	for (i = 0; i < o->v6_instances.len; i++) {
		st = read_instance_v6(o, &VEC_AT(&o->v6_instances, struct tracedat_v6_instance, i));
		if (st < 0)
			return st;
	}
	return TK_OK;
}

/*
 * Every section from the end of the header on, in file order, collecting the string table
 * from all STRINGS sections (libtracecmd's read_metadata_strings scans the same way). The scan
 * stops quietly at the first header that does not fit: sections are contiguous, and what
 * follows is not needed to find the options.
 */
static enum tk_status scan_sections(struct tracedat_open *o, size_t start)
{
	struct tracedat_priv *p = o->p;
	struct vec strings = VEC_INIT;
	size_t off = start, i;
	enum tk_status st;

	while (o->size - off >= TRACEDAT_SECTION_HEADER_SIZE) {
		const uint8_t *h = o->file + off;
		struct tracedat_section *s;
		struct tracedat_cur c;

		if (tk_load_u64(h + 8, o->bo) > o->size - off - TRACEDAT_SECTION_HEADER_SIZE)
			break;
		s = vec_push(&p->sections, sizeof(*s));
		if (!s) {
			vec_fini(&strings);
			return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat sections");
		}
		s->id = tk_load_u16(h, o->bo);
		s->flags = tk_load_u16(h + 2, o->bo);
		s->description_id = tk_load_u32(h + 4, o->bo);
		s->offset = off;
		s->size = tk_load_u64(h + 8, o->bo);
		off += TRACEDAT_SECTION_HEADER_SIZE + (size_t) s->size;
		if (s->id != TRACEDAT_OPTION_STRINGS)
			continue;
		st = tracedat_open_section(o, s->offset, TRACEDAT_OPTION_STRINGS, "strings", 1, &c,
					   NULL);
		if (st < 0) {
			vec_fini(&strings);
			return st;
		}
		if (vec_reserve(&strings, 1, c.size) < 0) {
			vec_fini(&strings);
			return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat strings: size=%zu",
				       c.size);
		}
		if (c.size)
			memcpy((uint8_t *) strings.data + strings.len, c.p, c.size);
		strings.len += c.size;
	}
	p->strings = strings.data;
	o->info->strings.data = p->strings;
	o->info->strings.len = strings.len;
	for (i = 0; i < p->sections.len; i++) {
		struct tracedat_section *s = &VEC_AT(&p->sections, struct tracedat_section, i);
		uint32_t d = s->description_id;

		if (d < strings.len && memchr(p->strings + d, '\0', strings.len - d))
			s->description = (const char *) p->strings + d;
	}
	return TK_OK;
}

/* The chain of options sections from the header's offset, each linked by its DONE option. */
static enum tk_status read_options_chain(struct tracedat_open *o, uint64_t off)
{
	struct vec seen = VEC_INIT;
	enum tk_status st = TK_OK;
	size_t i;

	if (off == 0)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat options: reason=the header gives no options "
			       "section");
	while (off) {
		uint64_t *slot;
		struct tracedat_cur sec;

		for (i = 0; i < seen.len; i++)
			if (VEC_AT(&seen, uint64_t, i) == off)
				break;
		if (i < seen.len || seen.len == TRACEDAT_MAX_OPT_SECTIONS) {
			st = TK_FAIL(TK_ERR_FORMAT,
				     "Cannot read trace.dat options: offset=%" PRIu64 ", reason=%s",
				     off,
				     i < seen.len ? "the options sections form a loop"
						  : "too many options sections");
			break;
		}
		slot = vec_push(&seen, sizeof(*slot));
		if (!slot) {
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat options");
			break;
		}
		*slot = off;
		st = tracedat_open_section(o, off, TRACEDAT_OPTION_DONE, "options", 1, &sec, NULL);
		if (st >= 0)
			st = tracedat_read_options(o, &sec, &off);
		if (st < 0) {
			st = TK_FAIL(st, "Cannot read trace.dat options: section-offset=%" PRIu64,
				     VEC_AT(&seen, uint64_t, seen.len - 1));
			break;
		}
	}
	vec_fini(&seen);
	return st;
}

static enum tracedat_codec codec_of(const char *name)
{
	if (!strcmp(name, "none"))
		return TRACEDAT_CODEC_NONE;
	if (!strcmp(name, "zstd"))
		return TRACEDAT_CODEC_ZSTD;
	if (!strcmp(name, "zlib"))
		return TRACEDAT_CODEC_ZLIB;
	return TRACEDAT_CODEC_OTHER;
}

/*
 * A v7 kallsyms section that cannot be read (bad header, compressed data or length) only
 * costs the names of function addresses, which then print as numbers: keep its causes
 * (recorded after @depth) as in->kallsyms_problem and read the file without it.
 */
static enum tk_status kallsyms_read_past(struct tracedat_open *o, size_t depth)
{
	size_t n = error_format(depth, NULL, 0);
	char *text = arena_alloc(&o->p->arena, n + 1);

	if (!text)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat kallsyms");
	error_format(depth, text, n + 1);
	error_truncate(depth);
	o->info->kallsyms_problem = text;
	o->info->kallsyms.data = NULL;
	o->info->kallsyms.len = 0;
	return TK_OK;
}

/*
 * Version 7: compression name and version, the offset of the first options section, then
 * sections; the options chain names the metadata sections and the buffers (section 4).
 */
static enum tk_status open_v7(struct tracedat_open *o, struct tracedat_cur *c)
{
	struct tracedat_info *in = o->info;
	uint64_t first;
	unsigned int k;
	size_t i, depth;
	enum tk_status st;

	if (tracedat_cur_cstr(c, &in->compression, "compression name") < 0 ||
	    tracedat_cur_cstr(c, &in->compression_version, "compression version") < 0 ||
	    tracedat_cur_u64(c, &first, "options offset") < 0)
		return TK_ERR_FORMAT;
	o->p->codec = codec_of(in->compression);
	st = scan_sections(o, c->off);
	if (st < 0)
		return st;
	st = read_options_chain(o, first);
	if (st < 0)
		return st;
	for (k = 0; k < TK_ARRAY_SIZE(o->sec_off); k++) {
		unsigned int id = TRACEDAT_OPTION_HEADER_INFO + k;
		const char *name = tracedat_option_name((uint16_t) id);
		struct tracedat_cur sec;

		if (!o->have_sec[k])
			continue;
		depth = error_depth();
		st = tracedat_open_section(o, o->sec_off[k], (uint16_t) id, name, 1, &sec, NULL);
		if (st >= 0)
			st = parse_part(o, &sec, id);
		if (st < 0)
			st = TK_FAIL(st,
				     "Cannot read trace.dat section: id=%u (%s), offset=%" PRIu64,
				     id, name, o->sec_off[k]);
		if (st < 0 && st != TK_ERR_NOMEM && id == TRACEDAT_OPTION_KALLSYMS) {
			st = kallsyms_read_past(o, depth);
			if (st < 0)
				return st;
			continue;
		}
		if (st < 0)
			return st;
	}
	if (!o->have_cpucount) {
		const struct tracedat_buffer *top = tracedat_buf(o, 0);

		for (i = 0; i < top->n_cpus; i++)
			if (top->cpus[i].cpu >= in->cpus)
				in->cpus = top->cpus[i].cpu + 1;
	}
	return TK_OK;
}

/*
 * perf.data's tracing data: the metadata parts of a v6 file (header_page and header_event,
 * formats, kallsyms, printk formats, then command lines when the version has them), and no
 * CPU data.
 */
static enum tk_status open_tracing_only(struct tracedat_open *o, struct tracedat_cur *c)
{
	unsigned int id;
	enum tk_status st;

	o->info->compression = "none";
	o->info->compression_version = "";
	for (id = TRACEDAT_OPTION_HEADER_INFO; id <= TRACEDAT_OPTION_CMDLINES; id++) {
		if (id == TRACEDAT_OPTION_CMDLINES && !tracedat_cur_left(c))
			break; /* version 0.5 */
		st = parse_part(o, c, id);
		if (st < 0)
			return st;
	}
	return TK_OK;
}

/* The file version, a decimal number read the way strtol would: 6 or 7. */
static enum tk_status version_number(const char *version, int *out)
{
	unsigned long v = 0;
	const char *s;

	for (s = version; *s == ' ' || *s == '\t'; s++)
		;
	if (*s < '0' || *s > '9')
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat header: offset=10, reason=version is not a "
			       "number");
	for (; *s >= '0' && *s <= '9'; s++)
		v = v > 100000 ? v : v * 10 + (unsigned long) (*s - '0');
	if (v != 6 && v != 7)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot read trace.dat header: version=%lu, reason=only versions 6 "
			       "and 7 are supported",
			       v);
	*out = (int) v;
	return TK_OK;
}

/* Magic, "tracing", version, endianness, long size, page size (sections 2 and 4). */
static enum tk_status read_file_header(struct tracedat_open *o, struct tracedat_cur *c)
{
	struct tracedat_info *in = o->info;
	const uint8_t *magic, *tracing;
	const char *version = NULL;
	enum tk_status st;
	uint8_t endian;

	if (tracedat_cur_bytes(c, 3, &magic, "header") < 0 ||
	    tracedat_cur_bytes(c, 7, &tracing, "header") < 0)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat header: size=%zu, reason=file "
			       "too short",
			       o->size);
	if (memcmp(magic, "\x17\x08\x44", 3) || memcmp(tracing, "tracing", 7))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat header: offset=0, reason=no trace.dat magic");
	if (tracedat_cur_cstr(c, &version, "version") < 0)
		return TK_ERR_FORMAT;
	if (o->tracing_only)
		in->version = 6; /* perf's "0.5" or "0.6": the parts of a v6 file, no CPU data */
	else if ((st = version_number(version, &in->version)) < 0)
		return st;
	if (tracedat_cur_u8(c, &endian, "header") < 0 ||
	    tracedat_cur_u8(c, &in->header_long_size, "header") < 0)
		return TK_ERR_FORMAT;
	if (endian > 1)
		return TK_FAIL(
			TK_ERR_FORMAT,
			"Cannot read trace.dat header: offset=%zu, endian=%u, reason=expected "
			"0 (little) or 1 (big)",
			c->off - 2, endian);
	o->bo = endian ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE;
	c->bo = o->bo;
	in->bo = o->bo;
	if (tracedat_cur_u32(c, &in->page_size, "header") < 0)
		return TK_ERR_FORMAT;
	if (!tracedat_page_size_ok(in->page_size))
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat header: page-size=%" PRIu32
			       ", reason=page size out of range",
			       in->page_size);
	return TK_OK;
}

/* Hand the lists collected while parsing to the public struct (their storage is final). */
static void publish(struct tracedat_open *o)
{
	struct tracedat_priv *p = o->p;
	struct tracedat_info *in = o->info;

	in->options = p->options.data;
	in->n_options = p->options.len;
	in->cpustats = p->cpustats.data;
	in->n_cpustats = p->cpustats.len;
	in->buffers = p->buffers.data;
	in->n_buffers = p->buffers.len;
	in->sections = p->sections.data;
	in->n_sections = p->sections.len;
}

/* The file, or with @tracing_only perf.data's tracing data (open_tracing_only()). */
static enum tk_status parse(struct tracedat *td, int tracing_only)
{
	struct tracedat_open o;
	struct tracedat_cur c;
	enum tk_status st;

	memset(&o, 0, sizeof(o));
	o.td = td;
	o.p = td->priv;
	o.info = &td->info;
	o.file = o.p->mf.data;
	o.size = o.p->mf.size;
	o.last_buffer = -1;
	if (!o.file) {
		static const uint8_t empty[1];

		o.file = empty;
	}
	if (tracedat_buffer_add(&o) < 0)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat");
	tracedat_buf(&o, 0)->name = "";
	tracedat_cur_init(&c, o.file, o.size, 0, TK_BYTE_ORDER_LE, "file");
	o.tracing_only = (uint8_t) tracing_only;
	st = read_file_header(&o, &c);
	if (st >= 0) {
		tracedat_buf(&o, 0)->page_size = o.info->page_size;
		if (o.tracing_only)
			st = open_tracing_only(&o, &c);
		else
			st = o.info->version >= 7 ? open_v7(&o, &c) : open_v6(&o, &c);
	}
	tracedat_inflater_fini(&o.z);
	vec_fini(&o.v6_instances);
	publish(&o);
	return st;
}

static enum tk_status create(struct tracedat **out)
{
	struct tracedat *td = calloc(1, sizeof(*td));
	struct tracedat_priv *p = calloc(1, sizeof(*p));

	if (!td || !p) {
		free(td);
		free(p);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace.dat");
	}
	mfile_init(&p->mf);
	arena_init(&p->arena);
	td->priv = p;
	*out = td;
	return TK_OK;
}

enum tk_status tracedat_open(struct tracedat **out, const char *path)
{
	struct tracedat *td = NULL;
	enum tk_status st;

	TK_ASSERT_PRE(out && path);
	st = create(&td);
	if (st < 0)
		return st;
	st = mfile_open(&tracedat_priv(td)->mf, path);
	if (st >= 0)
		st = parse(td, 0);
	if (st < 0) {
		tracedat_close(td);
		return TK_FAIL(st, "Cannot open trace.dat file: path=%s", path);
	}
	*out = td;
	return TK_OK;
}

/* Open @size bytes at @data, kept by the caller: a file, or with @tracing_only perf's part. */
static enum tk_status open_borrowed(struct tracedat **out, const uint8_t *data, size_t size,
				    int tracing_only)
{
	struct tracedat *td = NULL;
	enum tk_status st;

	TK_ASSERT_PRE(out && (data || !size));
	st = create(&td);
	if (st < 0)
		return st;
	mfile_borrow(&tracedat_priv(td)->mf, data, size);
	st = parse(td, tracing_only);
	if (st < 0) {
		tracedat_close(td);
		return TK_FAIL(st,
			       tracing_only ? "Cannot read tracing data: size=%zu"
					    : "Cannot open trace.dat data: size=%zu",
			       size);
	}
	*out = td;
	return TK_OK;
}

enum tk_status tracedat_open_mem(struct tracedat **out, const uint8_t *data, size_t size)
{
	return open_borrowed(out, data, size, 0);
}

enum tk_status tracedat_open_tracing_data(struct tracedat **out, const uint8_t *data, size_t size)
{
	return open_borrowed(out, data, size, 1);
}

void tracedat_close(struct tracedat *td)
{
	struct tracedat_priv *p;
	size_t i;

	if (!td)
		return;
	p = td->priv;
	for (i = 0; i < p->blocks.len; i++)
		bigmem_free(VEC_AT(&p->blocks, struct tracedat_block, i).data,
			    VEC_AT(&p->blocks, struct tracedat_block, i).size);
	for (i = 0; i < p->bprivs.len; i++)
		free((void *) VEC_AT(&p->bprivs, struct tracedat_buffer_priv, i).inflated.data);
	vec_fini(&p->blocks);
	vec_fini(&p->options);
	vec_fini(&p->cpustats);
	vec_fini(&p->buffers);
	vec_fini(&p->bprivs);
	vec_fini(&p->sections);
	free(p->strings);
	arena_fini(&p->arena);
	mfile_close(&p->mf);
	free(p);
	free(td);
}
