// SPDX-License-Identifier: MIT
/*
 * The byte layouts of the trace.dat writer (reference sections 2 to 4): the metadata parts as
 * both versions encode them, the version 6 head and the "flyrecord" blocks of its instances,
 * and the version 7 file header, sections, options chain and string table. They live apart
 * from the order of the calls (tracedat-write.c) and from the pages (tracedat-write-cpu.c)
 * because this is the part that must match trace-cmd byte for byte: each piece is built in
 * memory (struct tracedat_w_bb, integers in the file's byte order), then written, or patched
 * in place once its sizes and offsets are known, through the output of tracedat-write.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "tracedat-write-priv.h"

#define V7_DONE_SIZE 14u /* v7 DONE option: u16 id, u32 size 8, u64 next */

/* ---- in-memory pieces (options, section payloads, the v6 head) ------------------------------- */

static void bb_put(struct tracedat_w_bb *b, const void *p, size_t n)
{
	size_t cap;
	uint8_t *np;

	if (b->count_only) {
		b->len += n;
		return;
	}
	if (b->nomem || !n)
		return;
	if (n > b->cap - b->len) {
		cap = b->cap ? b->cap : 256;
		while (cap - b->len < n) {
			if (cap > SIZE_MAX / 2) {
				b->nomem = 1;
				return;
			}
			cap *= 2;
		}
		np = realloc(b->p, cap);
		if (!np) {
			b->nomem = 1;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void bb_u16(struct tracedat_w_bb *b, uint16_t v)
{
	uint8_t t[2];

	tk_store_u16(t, v, b->bo);
	bb_put(b, t, 2);
}

static void bb_u32(struct tracedat_w_bb *b, uint32_t v)
{
	uint8_t t[4];

	tk_store_u32(t, v, b->bo);
	bb_put(b, t, 4);
}

static void bb_u64(struct tracedat_w_bb *b, uint64_t v)
{
	uint8_t t[8];

	tk_store_u64(t, v, b->bo);
	bb_put(b, t, 8);
}

static void bb_cstr(struct tracedat_w_bb *b, const char *s)
{
	bb_put(b, s, strlen(s) + 1);
}

void tracedat_w_bb_fini(struct tracedat_w_bb *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

enum tk_status tracedat_w_out_bb(struct tracedat_writer *w, const struct tracedat_w_bb *b)
{
	if (b->nomem)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	return tracedat_w_out_write(w, b->p, b->len);
}

/* ---- metadata -------------------------------------------------------------------------------- */

static const struct tracedat_w_blob *part(const struct tracedat_writer *w, enum tracedat_w_part k)
{
	return &w->part[k];
}

/*
 * The payload of metadata part @id (16..21): what v6 writes in sequence and v7 puts in a
 * section each (reference section 2, items 7 to 13).
 */
static void part_payload(const struct tracedat_writer *w, unsigned int id, struct tracedat_w_bb *b)
{
	const struct tracedat_w_blob *p;
	size_t i, j;

	switch (id) {
	case TRACEDAT_OPTION_HEADER_INFO:
		p = part(w, TRACEDAT_W_PART_HEADER_PAGE);
		bb_put(b, "header_page", 12);
		bb_u64(b, p->size);
		bb_put(b, p->data, p->size);
		p = part(w, TRACEDAT_W_PART_HEADER_EVENT);
		bb_put(b, "header_event", 13);
		bb_u64(b, p->size);
		bb_put(b, p->data, p->size);
		break;
	case TRACEDAT_OPTION_FTRACE_EVENTS:
		bb_u32(b, (uint32_t) w->ftrace.len);
		for (i = 0; i < w->ftrace.len; i++) {
			p = &VEC_AT(&w->ftrace, struct tracedat_w_blob, i);
			bb_u64(b, p->size);
			bb_put(b, p->data, p->size);
		}
		break;
	case TRACEDAT_OPTION_EVENT_FORMATS:
		bb_u32(b, (uint32_t) w->systems.len);
		for (i = 0; i < w->systems.len; i++) {
			const struct tracedat_w_system *s =
				&VEC_AT(&w->systems, struct tracedat_w_system, i);

			bb_cstr(b, s->name);
			bb_u32(b, (uint32_t) s->formats.len);
			for (j = 0; j < s->formats.len; j++) {
				p = &VEC_AT(&s->formats, struct tracedat_w_blob, j);
				bb_u64(b, p->size);
				bb_put(b, p->data, p->size);
			}
		}
		break;
	case TRACEDAT_OPTION_KALLSYMS:
	case TRACEDAT_OPTION_PRINTK:
		p = part(w, id == TRACEDAT_OPTION_KALLSYMS ? TRACEDAT_W_PART_KALLSYMS
							   : TRACEDAT_W_PART_PRINTK);
		bb_u32(b, (uint32_t) p->size); /* checked when set */
		bb_put(b, p->data, p->size);
		break;
	case TRACEDAT_OPTION_CMDLINES:
		p = part(w, TRACEDAT_W_PART_CMDLINES);
		bb_u64(b, p->size);
		bb_put(b, p->data, p->size);
		break;
	}
}

/* TRACECLOCK: the whole trace_clock text with its NUL, as trace-cmd saves it. */
static void clock_option(const struct tracedat_writer *w, struct tracedat_w_bb *b)
{
	const struct tracedat_w_blob *c = part(w, TRACEDAT_W_PART_CLOCK);
	int nul = c->size && c->data[c->size - 1] == '\0';

	bb_u16(b, TRACEDAT_OPTION_TRACECLOCK);
	bb_u32(b, (uint32_t) (c->size + !nul));
	bb_put(b, c->data, c->size);
	if (!nul)
		bb_put(b, "", 1);
}

/* The options given by the caller, in call order, after TRACECLOCK. */
static void user_options(const struct tracedat_writer *w, struct tracedat_w_bb *b)
{
	size_t i;

	if (w->part_set[TRACEDAT_W_PART_CLOCK])
		clock_option(w, b);
	for (i = 0; i < w->options.len; i++) {
		const struct tracedat_w_option *o =
			&VEC_AT(&w->options, struct tracedat_w_option, i);

		bb_u16(b, o->id);
		bb_u32(b, (uint32_t) o->b.size);
		bb_put(b, o->b.data, o->b.size);
	}
}

/* The clock text after a v6 CPU table: u64 length, "[name]" (trace-cmd's save_clock). */
static void clock_blob_v6(const struct tracedat_w_buffer *buf, struct tracedat_w_bb *b)
{
	bb_u64(b, strlen(buf->clock) + 2);
	bb_put(b, "[", 1);
	bb_put(b, buf->clock, strlen(buf->clock));
	bb_put(b, "]", 1);
}

/* ---- version 6 ------------------------------------------------------------------------------- */

uint32_t tracedat_w_v6_buffer_option_size(const char *name)
{
	return 6 + 8 + (uint32_t) strlen(name) + 1;
}

/*
 * The v6 head (reference section 2): file header, metadata parts, CPU count, the options
 * block (TRACECLOCK, the caller's options, a BUFFER option per instance, DONE without size),
 * "flyrecord", the top buffer's CPU table (offset and size 0 for CPUs without data) and, when
 * TRACECLOCK was written, the clock text.
 */
void tracedat_w_v6_head(const struct tracedat_writer *w, struct tracedat_w_bb *b)
{
	const struct tracedat_w_buffer *top = &VEC_AT(&w->buffers, struct tracedat_w_buffer, 0);
	uint8_t hb[2] = {w->o.bo == TK_BYTE_ORDER_BE, (uint8_t) w->o.long_size};
	unsigned int id;
	uint32_t cpu;
	size_t i, k;

	bb_put(b, "\x17\x08\x44tracing6", 12);
	bb_put(b, hb, 2);
	bb_u32(b, w->o.page_size);
	for (id = TRACEDAT_OPTION_HEADER_INFO; id <= TRACEDAT_OPTION_CMDLINES; id++)
		part_payload(w, id, b);
	bb_u32(b, w->cpus);
	bb_put(b, "options  ", 10);
	user_options(w, b);
	for (i = 1; i < w->buffers.len; i++) {
		const struct tracedat_w_buffer *ib =
			&VEC_AT(&w->buffers, struct tracedat_w_buffer, i);

		bb_u16(b, TRACEDAT_OPTION_BUFFER);
		bb_u32(b, tracedat_w_v6_buffer_option_size(ib->name) - 6);
		bb_u64(b, ib->start);
		bb_cstr(b, ib->name);
	}
	bb_u16(b, TRACEDAT_OPTION_DONE);
	bb_put(b, "flyrecord", 10);
	for (cpu = 0, k = 0; cpu < w->cpus; cpu++) {
		const struct tracedat_w_cpu *c =
			k < top->cpus.len ? &VEC_AT(&top->cpus, struct tracedat_w_cpu, k) : NULL;

		if (c && c->cpu == cpu) {
			bb_u64(b, c->offset);
			bb_u64(b, c->size);
			k++;
		} else {
			bb_u64(b, 0);
			bb_u64(b, 0);
		}
	}
	if (w->part_set[TRACEDAT_W_PART_CLOCK])
		clock_blob_v6(top, b);
}

/*
 * An instance's own "flyrecord" marker, CPU table (filled in by tracedat_w_v6_end_instance)
 * and clock.
 */
enum tk_status tracedat_w_v6_start_instance(struct tracedat_writer *w,
					    struct tracedat_w_buffer *buf)
{
	struct tracedat_w_bb b = {.bo = w->o.bo};
	enum tk_status st;

	buf->start = w->pos;
	bb_put(&b, "flyrecord", 10);
	if (w->part_set[TRACEDAT_W_PART_CLOCK])
		clock_blob_v6(buf, &b);
	if (b.nomem) {
		tracedat_w_bb_fini(&b);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	}
	st = tracedat_w_out_write(w, b.p, 10);
	if (st >= 0)
		st = tracedat_w_out_zeros(w, (uint64_t) w->cpus * 16);
	if (st >= 0)
		st = tracedat_w_out_write(w, b.p + 10, b.len - 10);
	tracedat_w_bb_fini(&b);
	return st;
}

enum tk_status tracedat_w_v6_end_instance(struct tracedat_writer *w,
					  const struct tracedat_w_buffer *buf)
{
	uint8_t *table;
	enum tk_status st;
	size_t i;

	if (!buf->cpus.len)
		return TK_OK;
	table = calloc(w->cpus, 16);
	if (!table)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s, cpus=%" PRIu32,
			       w->path, w->cpus);
	for (i = 0; i < buf->cpus.len; i++) {
		const struct tracedat_w_cpu *c = &VEC_AT(&buf->cpus, struct tracedat_w_cpu, i);

		tk_store_u64(table + 16 * (size_t) c->cpu, c->offset, w->o.bo);
		tk_store_u64(table + 16 * (size_t) c->cpu + 8, c->size, w->o.bo);
	}
	st = tracedat_w_out_patch(w, buf->start + 10, table, (size_t) w->cpus * 16);
	free(table);
	return st;
}

/* ---- version 7 ------------------------------------------------------------------------------- */

/* v7 file header: magic, version, byte order, long size, page size, compression, options. */
enum tk_status tracedat_w_v7_header(struct tracedat_writer *w)
{
	struct tracedat_w_bb b = {.bo = w->o.bo};
	uint8_t hb[2] = {w->o.bo == TK_BYTE_ORDER_BE, (uint8_t) w->o.long_size};
	enum tk_status st;

	bb_put(&b, "\x17\x08\x44tracing7", 12);
	bb_put(&b, hb, 2);
	bb_u32(&b, w->o.page_size);
	switch (w->o.comp) {
	case TRACEDAT_COMP_ZSTD:
		bb_cstr(&b, "zstd");
		bb_cstr(&b, ZSTD_versionString());
		break;
	case TRACEDAT_COMP_ZLIB:
		bb_cstr(&b, "zlib");
		bb_cstr(&b, zlibVersion());
		break;
	default:
		bb_cstr(&b, "none");
		bb_cstr(&b, "");
		break;
	}
	w->v7_head_link = b.len;
	bb_u64(&b, 0); /* the first options section, written at close */
	st = tracedat_w_out_bb(w, &b);
	tracedat_w_bb_fini(&b);
	return st;
}

/* A string of the v7 string table; its offset there, the section description id. */
static enum tk_status add_string(struct tracedat_writer *w, const char *s, uint32_t *id)
{
	size_t n = strlen(s) + 1;

	if (w->strings.len > UINT32_MAX - n || vec_reserve(&w->strings, 1, n) < 0)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat strings: path=%s", w->path);
	*id = (uint32_t) w->strings.len;
	memcpy((char *) w->strings.data + w->strings.len, s, n);
	w->strings.len += n;
	return TK_OK;
}

static enum tk_status section_header(struct tracedat_writer *w, uint16_t id, int compress,
				     uint32_t desc, uint64_t size)
{
	uint8_t h[TRACEDAT_SECTION_HEADER_SIZE];

	tk_store_u16(h, id, w->o.bo);
	tk_store_u16(h + 2, compress ? TRACEDAT_SEC_FL_COMPRESS : 0, w->o.bo);
	tk_store_u32(h + 4, desc, w->o.bo);
	tk_store_u64(h + 8, size, w->o.bo);
	return tracedat_w_out_write(w, h, sizeof(h));
}

/* A section holding @n bytes, compressed as one block when the file is compressed. */
static enum tk_status v7_section(struct tracedat_writer *w, uint16_t id, uint32_t desc,
				 const uint8_t *payload, size_t n)
{
	uint8_t sizes[8];
	enum tk_status st;
	size_t z = 0;

	if (w->o.comp == TRACEDAT_COMP_NONE) {
		st = section_header(w, id, 0, desc, n);
		return st < 0 ? st : tracedat_w_out_write(w, payload, n);
	}
	if (n > TRACEDAT_MAX_BLOCK)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot write trace.dat section: path=%s, id=%u (%s), size=%zu, "
			       "reason=compressed metadata is limited to %u bytes",
			       w->path, id, tracedat_option_name(id), n, TRACEDAT_MAX_BLOCK);
	st = tracedat_w_compress_block(w, payload, n, &z);
	if (st < 0)
		return TK_FAIL(st, "Cannot write trace.dat section: path=%s, id=%u (%s)", w->path,
			       id, tracedat_option_name(id));
	tk_store_u32(sizes, (uint32_t) z, w->o.bo);
	tk_store_u32(sizes + 4, (uint32_t) n, w->o.bo);
	st = section_header(w, id, 1, desc, 8 + (uint64_t) z);
	if (st >= 0)
		st = tracedat_w_out_write(w, sizes, 8);
	return st < 0 ? st : tracedat_w_out_write(w, w->zbuf, z);
}

/*
 * An options section (id 0, never compressed, as trace-cmd writes them) with @opts and a DONE
 * option whose "next" is filled in when another options section follows; the one before
 * now links here (the first is named by the file header at close).
 */
static enum tk_status v7_options_section(struct tracedat_writer *w,
					 const struct tracedat_w_bb *opts)
{
	uint8_t done[V7_DONE_SIZE];
	uint64_t at = w->pos;
	enum tk_status st;
	uint32_t desc = 0; /* set by add_string() before any use */

	if (opts->nomem)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat options: path=%s", w->path);
	st = add_string(w, "options", &desc);
	if (st < 0)
		return st;
	if (w->v7_link)
		st = tracedat_w_out_patch_u64(w, w->v7_link, at);
	else
		w->v7_first = at;
	if (st >= 0)
		st = section_header(w, TRACEDAT_OPTION_DONE, 0, desc, opts->len + V7_DONE_SIZE);
	if (st >= 0)
		st = tracedat_w_out_write(w, opts->p, opts->len);
	tk_store_u16(done, TRACEDAT_OPTION_DONE, w->o.bo);
	tk_store_u32(done + 2, 8, w->o.bo);
	tk_store_u64(done + 6, 0, w->o.bo);
	w->v7_link = w->pos + 6;
	return st < 0 ? st : tracedat_w_out_write(w, done, sizeof(done));
}

/*
 * The metadata sections (16 to 21), then the first options section: their offsets, the
 * caller's options and CPUCOUNT, in trace-cmd record's order (reference section 4).
 */
enum tk_status tracedat_w_v7_metadata(struct tracedat_writer *w)
{
	static const char *const desc[6] = {"headers",	"ftrace events", "events format",
					    "kallsyms", "printk",	 "command lines"};
	struct tracedat_w_bb opts = {.bo = w->o.bo};
	uint64_t sec[6];
	enum tk_status st = TK_OK;
	unsigned int k;
	uint32_t id = 0; /* set by add_string() before any use */

	for (k = 0; k < 6 && st >= 0; k++) {
		struct tracedat_w_bb b = {.bo = w->o.bo};

		part_payload(w, TRACEDAT_OPTION_HEADER_INFO + k, &b);
		sec[k] = w->pos;
		st = b.nomem ? TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path)
			     : add_string(w, desc[k], &id);
		if (st >= 0)
			st = v7_section(w, (uint16_t) (TRACEDAT_OPTION_HEADER_INFO + k), id, b.p,
					b.len);
		tracedat_w_bb_fini(&b);
	}
	if (st < 0)
		return st;
	for (k = 0; k < 6; k++) {
		bb_u16(&opts, (uint16_t) (TRACEDAT_OPTION_HEADER_INFO + k));
		bb_u32(&opts, 8);
		bb_u64(&opts, sec[k]);
	}
	user_options(w, &opts);
	bb_u16(&opts, TRACEDAT_OPTION_CPUCOUNT);
	bb_u32(&opts, 4);
	bb_u32(&opts, w->cpus);
	st = v7_options_section(w, &opts);
	tracedat_w_bb_fini(&opts);
	return st;
}

/* A flyrecord buffer section, "buffer flyrecord NAME"; its size is patched at its end. */
enum tk_status tracedat_w_v7_start_buffer(struct tracedat_writer *w, struct tracedat_w_buffer *buf)
{
	enum tk_status st;
	uint32_t desc = 0; /* set by add_string() before any use */
	char *s;

	s = malloc(strlen(buf->name) + sizeof("buffer flyrecord "));
	if (!s)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	strcpy(s, "buffer flyrecord ");
	strcat(s, buf->name);
	st = add_string(w, s, &desc);
	free(s);
	if (st < 0)
		return st;
	buf->start = w->pos;
	return section_header(w, TRACEDAT_OPTION_BUFFER, w->o.comp != TRACEDAT_COMP_NONE, desc, 0);
}

/*
 * The end of a buffer section: its size, then an options section with its BUFFER option
 * (section offset, name, clock, page size and, per CPU with data, cpu, offset and size).
 */
enum tk_status tracedat_w_v7_end_buffer(struct tracedat_writer *w,
					const struct tracedat_w_buffer *buf)
{
	struct tracedat_w_bb o = {.bo = w->o.bo};
	enum tk_status st;
	uint32_t size;
	size_t i;

	st = tracedat_w_out_patch_u64(w, buf->start + 8,
				      w->pos - buf->start - TRACEDAT_SECTION_HEADER_SIZE);
	if (st < 0)
		return st;
	size = 8 + (uint32_t) strlen(buf->name) + 1 + (uint32_t) strlen(buf->clock) + 1 + 8 +
	       20 * (uint32_t) buf->cpus.len;
	bb_u16(&o, TRACEDAT_OPTION_BUFFER);
	bb_u32(&o, size);
	bb_u64(&o, buf->start);
	bb_cstr(&o, buf->name);
	bb_cstr(&o, buf->clock);
	bb_u32(&o, w->o.page_size);
	bb_u32(&o, (uint32_t) buf->cpus.len);
	for (i = 0; i < buf->cpus.len; i++) {
		const struct tracedat_w_cpu *c = &VEC_AT(&buf->cpus, struct tracedat_w_cpu, i);

		bb_u32(&o, c->cpu);
		bb_u64(&o, c->offset);
		bb_u64(&o, c->size);
	}
	st = v7_options_section(w, &o);
	tracedat_w_bb_fini(&o);
	return st;
}

/* The string table (compressed when the file is) and the header's first-options offset. */
enum tk_status tracedat_w_v7_finish(struct tracedat_writer *w)
{
	enum tk_status st;
	uint32_t desc = 0; /* set by add_string() before any use */

	st = add_string(w, "strings", &desc);
	if (st >= 0)
		st = v7_section(w, TRACEDAT_OPTION_STRINGS, desc, w->strings.data, w->strings.len);
	if (st >= 0)
		st = tracedat_w_out_patch_u64(w, w->v7_head_link, w->v7_first);
	return st;
}
