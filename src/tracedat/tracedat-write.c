// SPDX-License-Identifier: MIT
/*
 * The trace.dat writer (tracedat-write.h): version 6 and version 7 files laid out the way
 * trace-cmd 3.1.6 lays them out (reference sections 2 to 4), from the metadata texts and the
 * ring-buffer pages that the recorder or a converter hands over. This file has the API, the
 * order of the calls and the buffered file output; where each version puts each piece is in
 * tracedat-write-layout.c, the streaming and compression of pages in tracedat-write-cpu.c
 * (what they share: tracedat-write-priv.h).
 *
 * Why it is built this way:
 *  - Pages are streamed. Uncompressed pages reach the file through a small output buffer, or
 *    in the kernel with copy_file_range() from a CPU file; compressed pages are gathered one
 *    chunk (ten pages) at a time. What is known only later (v7 section sizes, chunk counts,
 *    the links between options sections, the v6 CPU tables of instances) is patched in place
 *    with pwrite(), so memory never grows with the trace.
 *  - Version 6 keeps every option, the BUFFER options of instances included, in one block
 *    before the top buffer's CPU table, but instances are named only after the top buffer's
 *    pages are written. So the v6 head (file header, metadata, options, top CPU table and
 *    clock) is written last, at offset 0, into room left before the first page: the head's
 *    size without instances plus V6_HEAD_ROOM bytes for their BUFFER options. The bytes
 *    between the head and the first page are never read (CPU data is found by offset).
 *  - Nothing a reader takes for a finished file exists before close: a v6 file has no header
 *    until then, a v7 file has its header from the start but its first-options offset stays 0.
 *  - Metadata is copied and kept until the data begins (v7) or until close (v6): it is small
 *    next to the pages, and the v6 head needs it last.
 *  - The output buffer is this file's own (src/common/writer.c writes text streams forward;
 *    this one also patches earlier bytes and jumps over alignment padding).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "tracedat-write-priv.h"
#include "tracedat.h"

#define V6_HEAD_ROOM 16384u /* v6: head bytes kept for the BUFFER options of instances */
#define MAX_CPUS     65536u /* CPU numbers this writer (and tracekit's reader) accepts */

static const char *const part_names[TRACEDAT_W_PART_N] = {
	"header_page",	  "header_event",   "kallsyms",
	"printk_formats", "saved_cmdlines", "trace_clock",
};

/* ---- output ---------------------------------------------------------------------------------- */

enum tk_status tracedat_w_write_fail(const struct tracedat_writer *w, int err)
{
	return TK_FAIL(TK_ERR_IO, "Cannot write trace.dat: path=%s, errno=%s", w->path,
		       strerror(err));
}

static enum tk_status out_pwrite(struct tracedat_writer *w, const void *p, size_t n, uint64_t off)
{
	const uint8_t *c = p;
	ssize_t r;

	while (n) {
		r = pwrite(w->fd, c, n > (1u << 30) ? (1u << 30) : n, (off_t) off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return tracedat_w_write_fail(w, errno);
		if (r == 0)
			return tracedat_w_write_fail(w, ENOSPC);
		c += r;
		n -= (size_t) r;
		off += (uint64_t) r;
	}
	if (off > w->high)
		w->high = off;
	return TK_OK;
}

enum tk_status tracedat_w_out_flush(struct tracedat_writer *w)
{
	enum tk_status st = TK_OK;

	if (w->len)
		st = out_pwrite(w, w->buf, w->len, w->buf_off);
	w->buf_off += w->len;
	w->len = 0;
	return st;
}

enum tk_status tracedat_w_out_write(struct tracedat_writer *w, const void *p, size_t n)
{
	enum tk_status st;

	if (n > TRACEDAT_W_OUT_BUF_SIZE - w->len) {
		st = tracedat_w_out_flush(w);
		if (st < 0)
			return st;
		if (n >= TRACEDAT_W_OUT_BUF_SIZE) {
			st = out_pwrite(w, p, n, w->pos);
			w->pos += n;
			w->buf_off = w->pos;
			return st;
		}
	}
	if (n)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
	w->pos += n;
	return TK_OK;
}

enum tk_status tracedat_w_out_zeros(struct tracedat_writer *w, uint64_t n)
{
	enum tk_status st;
	size_t k;

	while (n) {
		if (w->len == TRACEDAT_W_OUT_BUF_SIZE) {
			st = tracedat_w_out_flush(w);
			if (st < 0)
				return st;
		}
		k = TRACEDAT_W_OUT_BUF_SIZE - w->len;
		if (k > n)
			k = (size_t) n;
		memset(w->buf + w->len, 0, k);
		w->len += k;
		w->pos += k;
		n -= k;
	}
	return TK_OK;
}

/* Continue writing at @off (forward: a hole the file system keeps sparse; back: overwrite). */
static enum tk_status out_seek(struct tracedat_writer *w, uint64_t off)
{
	enum tk_status st = tracedat_w_out_flush(w);

	w->pos = off;
	w->buf_off = off;
	return st;
}

/* Forget what was written from @off on (a CPU that turned out empty). */
enum tk_status tracedat_w_out_rewind(struct tracedat_writer *w, uint64_t off)
{
	if (off >= w->buf_off) {
		w->len = (size_t) (off - w->buf_off);
		w->pos = off;
		return TK_OK;
	}
	return out_seek(w, off);
}

/* Pad to a multiple of @align: zeros when few, a hole when many (data always follows). */
enum tk_status tracedat_w_out_align(struct tracedat_writer *w, uint64_t align)
{
	uint64_t pad = (align - w->pos % align) % align;

	if (pad <= TRACEDAT_W_OUT_BUF_SIZE - w->len)
		return tracedat_w_out_zeros(w, pad);
	return out_seek(w, w->pos + pad);
}

/* Overwrite @n bytes at @off, already written or still buffered. */
enum tk_status tracedat_w_out_patch(struct tracedat_writer *w, uint64_t off, const void *p,
				    size_t n)
{
	enum tk_status st;

	if (off >= w->buf_off && n <= w->len && off - w->buf_off <= w->len - n) {
		memcpy(w->buf + (off - w->buf_off), p, n);
		return TK_OK;
	}
	if (off + n > w->buf_off) {
		st = tracedat_w_out_flush(w);
		if (st < 0)
			return st;
	}
	return out_pwrite(w, p, n, off);
}

enum tk_status tracedat_w_out_patch_u32(struct tracedat_writer *w, uint64_t off, uint32_t v)
{
	uint8_t t[4];

	tk_store_u32(t, v, w->o.bo);
	return tracedat_w_out_patch(w, off, t, 4);
}

enum tk_status tracedat_w_out_patch_u64(struct tracedat_writer *w, uint64_t off, uint64_t v)
{
	uint8_t t[8];

	tk_store_u64(t, v, w->o.bo);
	return tracedat_w_out_patch(w, off, t, 8);
}

/* ---- the trace clock ------------------------------------------------------------------------- */

static int clock_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * The clock in use in a trace_clock text: the word in brackets ("[local] global" gives
 * "local"), else the text itself when it is one bare word; NULL in *@out when neither.
 */
static enum tk_status clock_name_of(const uint8_t *t, size_t n, char **out)
{
	size_t i = 0, start, end;

	*out = NULL;
	while (i < n && t[i] && t[i] != '[')
		i++;
	if (i < n && t[i] == '[') {
		start = ++i;
		while (i < n && t[i] && t[i] != ']' && !clock_space(t[i]))
			i++;
		end = i;
	} else {
		start = 0;
		while (start < n && clock_space(t[start]))
			start++;
		end = start;
		while (end < n && t[end] && !clock_space(t[end]))
			end++;
		i = end;
		while (i < n && clock_space(t[i]))
			i++;
		if (i < n && t[i])
			return TK_OK; /* several words, none chosen */
	}
	if (end == start)
		return TK_OK;
	*out = strndup((const char *) t + start, end - start);
	return *out ? TK_OK : TK_FAIL(TK_ERR_NOMEM, "Cannot read trace clock text");
}

/* ---- buffers --------------------------------------------------------------------------------- */

static enum tk_status buffer_push(struct tracedat_writer *w, const char *name, const char *clock)
{
	struct tracedat_w_buffer *b = vec_push(&w->buffers, sizeof(*b));

	if (!b)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	b->last_cpu = -1;
	b->name = strdup(name);
	b->clock = strdup(clock);
	if (!b->name || !b->clock)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot write trace.dat: path=%s", w->path);
	return TK_OK;
}

/*
 * The metadata is complete: v6 measures its head and moves past the room it needs, v7 writes
 * the metadata sections and the first options section; both start the top buffer. @at_close:
 * no data will follow, so v6 needs no room for instances.
 */
enum tk_status tracedat_w_begin_data(struct tracedat_writer *w, int at_close)
{
	struct tracedat_w_bb head = {.bo = w->o.bo, .count_only = 1};
	enum tk_status st;
	uint64_t room;

	if (w->state != TRACEDAT_W_STATE_META)
		return TK_OK;
	w->state = TRACEDAT_W_STATE_DATA;
	st = buffer_push(w, "", w->clock_name ? w->clock_name : "local");
	if (st < 0)
		return st;
	if (w->o.version == 7) {
		st = tracedat_w_v7_metadata(w);
		return st < 0 ? st : tracedat_w_v7_start_buffer(w, tracedat_w_cur_buffer(w));
	}
	tracedat_w_v6_head(w, &head);
	w->v6_head = head.len;
	room = at_close ? head.len : head.len + V6_HEAD_ROOM;
	w->v6_room = (room + w->o.page_size - 1) / w->o.page_size * w->o.page_size;
	return out_seek(w, w->v6_room);
}

static enum tk_status end_buffer(struct tracedat_writer *w)
{
	struct tracedat_w_buffer *b = tracedat_w_cur_buffer(w);

	if (w->o.version == 7)
		return tracedat_w_v7_end_buffer(w, b);
	return w->buffers.len > 1 ? tracedat_w_v6_end_instance(w, b) : TK_OK;
}

static enum tk_status start_instance(struct tracedat_writer *w, const char *name, const char *clock)
{
	enum tk_status st;
	char *cname = NULL;
	size_t i;

	if (!name[0])
		return TK_FAIL(
			TK_ERR_INVAL,
			"Cannot start trace.dat buffer: path=%s, reason=an instance needs a name",
			w->path);
	for (i = 0; i < w->buffers.len; i++)
		if (!strcmp(VEC_AT(&w->buffers, struct tracedat_w_buffer, i).name, name))
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot start trace.dat buffer: path=%s, name=%s, "
				       "reason=a buffer of that name was written already",
				       w->path, name);
	if (w->o.version == 6) {
		uint32_t n = tracedat_w_v6_buffer_option_size(name);

		if (w->v6_head + w->v6_extra + n > w->v6_room)
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot start trace.dat buffer: path=%s, name=%s, "
				       "reason=no room left in the version 6 options (%u bytes)",
				       w->path, name, V6_HEAD_ROOM);
		w->v6_extra += n;
	}
	if (clock) {
		st = clock_name_of((const uint8_t *) clock, strlen(clock), &cname);
		if (st < 0)
			return st;
	}
	st = buffer_push(w, name, cname ? cname : w->clock_name ? w->clock_name : "local");
	free(cname);
	if (st < 0)
		return st;
	if (w->o.version == 7)
		return tracedat_w_v7_start_buffer(w, tracedat_w_cur_buffer(w));
	return tracedat_w_v6_start_instance(w, tracedat_w_cur_buffer(w));
}

/* ---- metadata calls -------------------------------------------------------------------------- */

static enum tk_status meta_check(const struct tracedat_writer *w, const char *what)
{
	if (w->state != TRACEDAT_W_STATE_META)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot set trace.dat %s: path=%s, "
			       "reason=the data has begun (metadata comes first)",
			       what, w->path);
	return TK_OK;
}

static enum tk_status blob_copy(const struct tracedat_writer *w, struct tracedat_w_blob *b,
				const void *data, size_t size)
{
	b->data = malloc(size ? size : 1);
	if (!b->data)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot copy trace.dat metadata: path=%s, size=%zu",
			       w->path, size);
	if (size)
		memcpy(b->data, data, size);
	b->size = size;
	return TK_OK;
}

static enum tk_status set_part(struct tracedat_writer *w, enum tracedat_w_part k, const void *data,
			       size_t size)
{
	enum tk_status st = meta_check(w, part_names[k]);

	if (st < 0)
		return st;
	if (w->part_set[k])
		return TK_FAIL(TK_ERR_INVAL, "Cannot set trace.dat %s: path=%s, reason=set twice",
			       part_names[k], w->path);
	if ((k == TRACEDAT_W_PART_KALLSYMS || k == TRACEDAT_W_PART_PRINTK ||
	     k == TRACEDAT_W_PART_CLOCK) &&
	    size >= UINT32_MAX)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot set trace.dat %s: path=%s, size=%zu, "
			       "reason=its length is a 32-bit field",
			       part_names[k], w->path, size);
	if (k == TRACEDAT_W_PART_CLOCK) {
		st = clock_name_of(data, size, &w->clock_name);
		if (st < 0)
			return st;
	}
	st = blob_copy(w, &w->part[k], data, size);
	if (st >= 0)
		w->part_set[k] = 1;
	return st;
}

static enum tk_status add_format(struct tracedat_writer *w, struct vec *v, const char *what,
				 const void *data, size_t size)
{
	struct tracedat_w_blob *b;
	enum tk_status st = meta_check(w, what);

	if (st < 0)
		return st;
	if (v->len >= UINT32_MAX)
		return TK_FAIL(TK_ERR_INVAL, "Cannot add trace.dat %s: path=%s, reason=too many",
			       what, w->path);
	b = vec_push(v, sizeof(*b));
	if (!b)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add trace.dat %s: path=%s", what, w->path);
	st = blob_copy(w, b, data, size);
	if (st < 0)
		v->len--;
	return st;
}

static enum tk_status add_event_format(struct tracedat_writer *w, const char *system,
				       const void *data, size_t size)
{
	struct tracedat_w_system *s = NULL;
	enum tk_status st = meta_check(w, "event format");
	size_t i;

	if (st < 0)
		return st;
	for (i = 0; i < w->systems.len && !s; i++)
		if (!strcmp(VEC_AT(&w->systems, struct tracedat_w_system, i).name, system))
			s = &VEC_AT(&w->systems, struct tracedat_w_system, i);
	if (!s) {
		s = vec_push(&w->systems, sizeof(*s));
		if (!s)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot add trace.dat event format: path=%s",
				       w->path);
		s->name = strdup(system);
		if (!s->name) {
			w->systems.len--;
			return TK_FAIL(TK_ERR_NOMEM, "Cannot add trace.dat event format: path=%s",
				       w->path);
		}
	}
	return add_format(w, &s->formats, "event format", data, size);
}

int tracedat_writer_option_reserved(uint16_t id)
{
	switch (id) {
	case TRACEDAT_OPTION_DONE:
	case TRACEDAT_OPTION_BUFFER:
	case TRACEDAT_OPTION_TRACECLOCK:
	case TRACEDAT_OPTION_CPUCOUNT:
	case TRACEDAT_OPTION_BUFFER_TEXT:
	case TRACEDAT_OPTION_BTF_FILE:
	case TRACEDAT_OPTION_MODULES_FILE:
		return 1;
	}
	return id >= TRACEDAT_OPTION_STRINGS && id <= TRACEDAT_OPTION_CMDLINES;
}

static enum tk_status add_option(struct tracedat_writer *w, uint16_t id, const void *data,
				 size_t size)
{
	struct tracedat_w_option *o;
	enum tk_status st = meta_check(w, "option");

	if (st < 0)
		return st;
	if (tracedat_writer_option_reserved(id))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add trace.dat option: path=%s, id=%u (%s), "
			       "reason=the writer makes this option itself",
			       w->path, id, tracedat_option_name(id));
	if (size > UINT32_MAX)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot add trace.dat option: path=%s, id=%u (%s), size=%zu, "
			       "reason=larger than 4 GiB",
			       w->path, id, tracedat_option_name(id), size);
	o = vec_push(&w->options, sizeof(*o));
	if (!o)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot add trace.dat option: path=%s", w->path);
	o->id = id;
	st = blob_copy(w, &o->b, data, size);
	if (st < 0)
		w->options.len--;
	return st;
}

static enum tk_status set_cpus(struct tracedat_writer *w, uint32_t cpus)
{
	enum tk_status st = meta_check(w, "CPU count");

	if (st < 0)
		return st;
	if (w->cpus_set)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot set trace.dat CPU count: path=%s, reason=set twice",
			       w->path);
	if (cpus > MAX_CPUS)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot set trace.dat CPU count: path=%s, cpus=%" PRIu32
			       ", reason=more than %u",
			       w->path, cpus, MAX_CPUS);
	w->cpus = cpus;
	w->cpus_set = 1;
	return TK_OK;
}

/* ---- public calls ---------------------------------------------------------------------------- */

/* The status of a call; its failure is remembered so that every later call fails too. */
static enum tk_status settle(struct tracedat_writer *w, enum tk_status st)
{
	if (st < 0 && !w->failed)
		w->failed = st;
	return st;
}

static enum tk_status failed_before(const struct tracedat_writer *w)
{
	return TK_FAIL(w->failed, "Cannot write trace.dat: path=%s, reason=an earlier call failed",
		       w->path);
}

static enum tk_status check_opts(const struct tracedat_write_opts *o)
{
	const char *reason = NULL;

	if (o->version != 6 && o->version != 7)
		reason = "version is neither 6 nor 7";
	else if (o->comp != TRACEDAT_COMP_NONE && o->comp != TRACEDAT_COMP_ZSTD &&
		 o->comp != TRACEDAT_COMP_ZLIB)
		reason = "unknown compression";
	else if (o->version == 6 && o->comp != TRACEDAT_COMP_NONE)
		reason = "version 6 has no compression";
	else if (o->bo != TK_BYTE_ORDER_LE && o->bo != TK_BYTE_ORDER_BE)
		reason = "unknown byte order";
	else if (o->long_size != 4 && o->long_size != 8)
		reason = "long size is neither 4 nor 8";
	else if (o->page_size < 4096 || o->page_size > TRACEDAT_MAX_PAGE_SIZE ||
		 (o->page_size & (o->page_size - 1)))
		reason = "page size is not a power of two from 4096 to 64 MiB";
	else if (o->comp == TRACEDAT_COMP_ZSTD && o->compression_level &&
		 (o->compression_level < ZSTD_minCLevel() ||
		  o->compression_level > ZSTD_maxCLevel()))
		reason = "zstd compression level out of range";
	else if (o->comp == TRACEDAT_COMP_ZLIB &&
		 (o->compression_level < 0 || o->compression_level > 9))
		reason = "zlib compression level out of range (1 to 9)";
	if (reason)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot use trace.dat writer options: version=%u, page-size=%" PRIu32
			       ", long-size=%u, reason=%s",
			       o->version, o->page_size, o->long_size, reason);
	return TK_OK;
}

enum tk_status tracedat_write_opts_choose(struct tracedat_write_opts *wo, unsigned int version,
					  const char *comp, unsigned int def_version,
					  const char *def_comp)
{
	if (version && version != 6 && version != 7)
		return TK_FAIL(TK_ERR_INVAL, "Cannot write trace.dat: file-version=%u", version);
	wo->version = version ? version : def_version;
	if (!comp)
		comp = wo->version == def_version && def_comp ? def_comp : "none";
	if (!strcmp(comp, "none"))
		wo->comp = TRACEDAT_COMP_NONE;
	else if (!strcmp(comp, "zstd"))
		wo->comp = TRACEDAT_COMP_ZSTD;
	else if (!strcmp(comp, "zlib"))
		wo->comp = TRACEDAT_COMP_ZLIB;
	else
		return TK_FAIL(TK_ERR_INVAL, "Cannot write trace.dat: compression=%s", comp);
	if (wo->comp != TRACEDAT_COMP_NONE) {
		if (version == 6)
			return TK_FAIL(TK_ERR_INVAL,
				       "Cannot write trace.dat: file-version=6, "
				       "compression=%s, reason=version 6 files are not compressed",
				       comp);
		wo->version = 7;
	}
	return TK_OK;
}

enum tk_status tracedat_writer_open(struct tracedat_writer **out, const char *path,
				    const struct tracedat_write_opts *opts)
{
	static const struct tracedat_write_opts defaults = TRACEDAT_WRITE_OPTS_INIT;
	struct tracedat_writer *w;
	enum tk_status st;

	TK_ASSERT_PRE(out && path);
	st = check_opts(opts ? opts : &defaults);
	if (st < 0)
		return TK_FAIL(st, "Cannot create trace.dat: path=%s", path);
	w = calloc(1, sizeof(*w));
	if (!w)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create trace.dat: path=%s", path);
	w->fd = -1;
	w->of.fd = -1;
	w->o = opts ? *opts : defaults;
	w->path = strdup(path);
	w->buf = malloc(TRACEDAT_W_OUT_BUF_SIZE);
	if (!w->path || !w->buf) {
		tracedat_writer_destroy(w);
		return TK_FAIL(TK_ERR_NOMEM, "Cannot create trace.dat: path=%s", path);
	}
	/* nameless until finished: a failure or a kill leaves nothing under @path */
	st = outfile_open(&w->of, path);
	if (st < 0) {
		tracedat_writer_destroy(w);
		return TK_FAIL(st, "Cannot create trace.dat: path=%s", path);
	}
	w->fd = w->of.fd;
	if (w->o.version == 7) {
		st = tracedat_w_v7_header(w);
		if (st < 0) {
			tracedat_writer_destroy(w);
			return st;
		}
	}
	*out = w;
	return TK_OK;
}

enum tk_status tracedat_writer_set_header_page(struct tracedat_writer *w, const void *data,
					       size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, TRACEDAT_W_PART_HEADER_PAGE, data, size));
}

enum tk_status tracedat_writer_set_header_event(struct tracedat_writer *w, const void *data,
						size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, TRACEDAT_W_PART_HEADER_EVENT, data, size));
}

enum tk_status tracedat_writer_add_ftrace_format(struct tracedat_writer *w, const void *data,
						 size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, add_format(w, &w->ftrace, "ftrace format", data, size));
}

enum tk_status tracedat_writer_add_event_format(struct tracedat_writer *w, const char *system,
						const void *data, size_t size)
{
	TK_ASSERT_PRE(w && system && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, add_event_format(w, system, data, size));
}

enum tk_status tracedat_writer_set_kallsyms(struct tracedat_writer *w, const void *data,
					    size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, TRACEDAT_W_PART_KALLSYMS, data, size));
}

enum tk_status tracedat_writer_set_printk(struct tracedat_writer *w, const void *data, size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, TRACEDAT_W_PART_PRINTK, data, size));
}

enum tk_status tracedat_writer_set_cmdlines(struct tracedat_writer *w, const void *data,
					    size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, TRACEDAT_W_PART_CMDLINES, data, size));
}

enum tk_status tracedat_writer_set_trace_clock(struct tracedat_writer *w, const void *data,
					       size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, set_part(w, TRACEDAT_W_PART_CLOCK, data, size));
}

enum tk_status tracedat_writer_add_option(struct tracedat_writer *w, uint16_t id, const void *data,
					  size_t size)
{
	TK_ASSERT_PRE(w && (data || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, add_option(w, id, data, size));
}

enum tk_status tracedat_writer_set_cpus(struct tracedat_writer *w, uint32_t cpus)
{
	TK_ASSERT_PRE(w);
	if (w->failed)
		return failed_before(w);
	return settle(w, set_cpus(w, cpus));
}

enum tk_status tracedat_writer_cpu_begin(struct tracedat_writer *w, uint32_t cpu)
{
	TK_ASSERT_PRE(w);
	if (w->failed)
		return failed_before(w);
	return settle(w, tracedat_w_cpu_begin(w, cpu));
}

enum tk_status tracedat_writer_cpu_page(struct tracedat_writer *w, const void *page, size_t size)
{
	TK_ASSERT_PRE(w && (page || !size));
	if (w->failed)
		return failed_before(w);
	return settle(w, tracedat_w_cpu_page(w, page, size));
}

enum tk_status tracedat_writer_cpu_fd(struct tracedat_writer *w, int fd)
{
	TK_ASSERT_PRE(w && fd >= 0);
	if (w->failed)
		return failed_before(w);
	return settle(w, tracedat_w_cpu_fd(w, fd));
}

enum tk_status tracedat_writer_cpu_end(struct tracedat_writer *w)
{
	TK_ASSERT_PRE(w);
	if (w->failed)
		return failed_before(w);
	return settle(w, tracedat_w_cpu_end(w));
}

static enum tk_status buffer_begin(struct tracedat_writer *w, const char *name, const char *clock)
{
	enum tk_status st;

	if (w->state == TRACEDAT_W_STATE_CPU)
		return TK_FAIL(
			TK_ERR_INVAL,
			"Cannot start trace.dat buffer: path=%s, name=%s, reason=CPU %" PRIu32
			" was not ended",
			w->path, name, w->cpu);
	st = tracedat_w_begin_data(w, 0);
	if (st >= 0)
		st = end_buffer(w);
	return st < 0 ? st : start_instance(w, name, clock);
}

enum tk_status tracedat_writer_buffer_begin(struct tracedat_writer *w, const char *name,
					    const char *clock)
{
	TK_ASSERT_PRE(w && name);
	if (w->failed)
		return failed_before(w);
	return settle(w, buffer_begin(w, name, clock));
}

/*
 * Cut what lies past @end: bytes of an empty CPU that were flushed before it was found empty
 * (readers of v7 scan sections up to the end of the file). Only regular files are cut.
 */
static enum tk_status cut_tail(struct tracedat_writer *w, uint64_t end)
{
	struct stat sb;

	if (w->high <= end || fstat(w->fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		return TK_OK;
	if (ftruncate(w->fd, (off_t) end) < 0)
		return tracedat_w_write_fail(w, errno);
	return TK_OK;
}

static enum tk_status finish(struct tracedat_writer *w)
{
	struct tracedat_w_bb head = {.bo = w->o.bo};
	enum tk_status st;
	uint64_t end = 0;

	if (w->state == TRACEDAT_W_STATE_CPU)
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot finish trace.dat: path=%s, reason=CPU %" PRIu32
			       " was not ended",
			       w->path, w->cpu);
	st = tracedat_w_begin_data(w, 1);
	if (st >= 0)
		st = end_buffer(w);
	if (st >= 0 && w->o.version == 7)
		st = tracedat_w_v7_finish(w);
	end = w->pos;
	if (st >= 0 && w->o.version == 6) {
		/* the head, now that the instances are known, in the room left for it */
		tracedat_w_v6_head(w, &head);
		if (head.len > w->v6_room)
			st = TK_FAIL(TK_ERR_INVAL,
				     "Cannot finish trace.dat: path=%s, "
				     "reason=the version 6 head outgrew its room",
				     w->path);
		if (st >= 0)
			st = out_seek(w, 0);
		if (st >= 0)
			st = tracedat_w_out_bb(w, &head);
		tracedat_w_bb_fini(&head);
	}
	if (st >= 0)
		st = tracedat_w_out_flush(w);
	if (st >= 0)
		st = cut_tail(w, end > w->pos ? end : w->pos);
	if (st >= 0) {
		w->fd = -1;
		st = outfile_commit(&w->of);
		if (st < 0)
			st = TK_FAIL(st, "Cannot finish trace.dat: path=%s", w->path);
	}
	return st;
}

enum tk_status tracedat_writer_close(struct tracedat_writer *w)
{
	enum tk_status st;

	if (!w)
		return TK_OK;
	st = w->failed ? failed_before(w) : finish(w);
	tracedat_writer_destroy(w);
	return st;
}

void tracedat_writer_destroy(struct tracedat_writer *w)
{
	size_t i, j;

	if (!w)
		return;
	outfile_abort(&w->of); /* closes w->fd */
	for (i = 0; i < TRACEDAT_W_PART_N; i++)
		free(w->part[i].data);
	for (i = 0; i < w->ftrace.len; i++)
		free(VEC_AT(&w->ftrace, struct tracedat_w_blob, i).data);
	vec_fini(&w->ftrace);
	for (i = 0; i < w->systems.len; i++) {
		struct tracedat_w_system *s = &VEC_AT(&w->systems, struct tracedat_w_system, i);

		for (j = 0; j < s->formats.len; j++)
			free(VEC_AT(&s->formats, struct tracedat_w_blob, j).data);
		vec_fini(&s->formats);
		free(s->name);
	}
	vec_fini(&w->systems);
	for (i = 0; i < w->options.len; i++)
		free(VEC_AT(&w->options, struct tracedat_w_option, i).b.data);
	vec_fini(&w->options);
	for (i = 0; i < w->buffers.len; i++) {
		struct tracedat_w_buffer *b = &VEC_AT(&w->buffers, struct tracedat_w_buffer, i);

		free(b->name);
		free(b->clock);
		vec_fini(&b->cpus);
	}
	vec_fini(&w->buffers);
	vec_fini(&w->strings);
	free(w->clock_name);
	free(w->chunk);
	free(w->zbuf);
	ZSTD_freeCCtx(w->zstd);
	if (w->zlib_ready)
		deflateEnd(&w->zlib);
	free(w->buf);
	free(w->path);
	free(w);
}

enum tk_status tracedat_writer_put_metadata(struct tracedat_writer *w,
					    const struct tracedat_info *in)
{
	enum tk_status st = TK_OK;
	size_t i, k;

	if (in->header_page.len)
		st = tracedat_writer_set_header_page(w, in->header_page.data, in->header_page.len);
	if (st >= 0 && in->header_event.len)
		st = tracedat_writer_set_header_event(w, in->header_event.data,
						      in->header_event.len);
	for (i = 0; st >= 0 && i < in->n_ftrace_formats; i++)
		st = tracedat_writer_add_ftrace_format(w, in->ftrace_formats[i].data,
						       in->ftrace_formats[i].len);
	for (i = 0; st >= 0 && i < in->n_systems; i++)
		for (k = 0; st >= 0 && k < in->systems[i].n_formats; k++)
			st = tracedat_writer_add_event_format(w, in->systems[i].name,
							      in->systems[i].formats[k].data,
							      in->systems[i].formats[k].len);
	if (st >= 0 && in->kallsyms.len)
		st = tracedat_writer_set_kallsyms(w, in->kallsyms.data, in->kallsyms.len);
	if (st >= 0 && in->printk.len)
		st = tracedat_writer_set_printk(w, in->printk.data, in->printk.len);
	return st;
}
