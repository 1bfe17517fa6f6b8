// SPDX-License-Identifier: MIT
/*
 * The perf.data container: header, attributes, feature sections and the record walk (see
 * perfdata.h). Every offset and size read from the file is checked against the bytes before
 * it is used.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/vec.h"
#include "perfdata.h"

#define FILE_HEADER_SIZE 104u
#define PIPE_HEADER_SIZE 16u
#define ATTR_SIZE_VER0	 64u
/* bit 18 of the flags word after read_format: other records carry the sample id fields */
#define ATTR_FLAG_SAMPLE_ID_ALL 18u
/* perf_event_attr.read_format */
#define FORMAT_TOTAL_TIME_ENABLED 1u
#define FORMAT_TOTAL_TIME_RUNNING 2u
#define FORMAT_ID		  4u
#define FORMAT_GROUP		  8u
#define FORMAT_LOST		  16u

struct id_entry {
	uint64_t id;
	size_t attr;
};

struct perfdata {
	const uint8_t *data;
	size_t size;
	enum tk_byte_order bo;
	int pipe;
	struct vec attr_vec;	 /* struct perf_attr */
	struct perf_attr *attrs; /* attr_vec's, as an array */
	size_t n_attrs;
	struct id_entry *idmap; /* sorted by id */
	size_t n_idmap;
	/*
	 * The same map as a table indexed by id - id_base when the ids are close together (the
	 * kernel numbers them in a row): attribute index + 1, 0 for none; NULL otherwise.
	 */
	uint32_t *id_table;
	uint64_t id_base;
	size_t n_id_table;
	uint64_t data_off, data_end;
	const uint8_t *feat[PERF_FEAT_MAX];
	size_t feat_len[PERF_FEAT_MAX];
	const uint8_t *tracing;
	size_t tracing_len;
};

static const char magic_le[8] = {'P', 'E', 'R', 'F', 'I', 'L', 'E', '2'};
static const char magic_be[8] = {'2', 'E', 'L', 'I', 'F', 'R', 'E', 'P'};

int perfdata_probe(const uint8_t *head, size_t n)
{
	return n >= 8 && (!memcmp(head, magic_le, 8) || !memcmp(head, magic_be, 8));
}

static uint64_t u64_at(const struct perfdata *pd, const uint8_t *p)
{
	return tk_load_u64(p, pd->bo);
}

static uint32_t u32_at(const struct perfdata *pd, const uint8_t *p)
{
	return tk_load_u32(p, pd->bo);
}

/* Whether [@off, @off + @len) lies within the file. */
static int in_file(const struct perfdata *pd, uint64_t off, uint64_t len)
{
	return off <= pd->size && len <= pd->size - off;
}

static enum tk_status bad(const char *part, uint64_t off, const char *reason)
{
	return TK_FAIL(TK_ERR_FORMAT, "Cannot read perf.data %s: offset=%llu, reason=%s", part,
		       (unsigned long long) off, reason);
}

/* ---- attributes --------------------------------------------------------------------- */

static struct perf_attr *attr_add(struct perfdata *pd)
{
	struct perf_attr *a = vec_push(&pd->attr_vec, sizeof(*a));

	if (!a)
		return NULL;
	memset(a, 0, sizeof(*a));
	pd->attrs = pd->attr_vec.data;
	pd->n_attrs = pd->attr_vec.len;
	return a;
}

/*
 * An attribute from its @size bytes at @p (fields past @size are 0, as the kernel reads an
 * older, shorter attribute).
 */
static enum tk_status attr_read(struct perfdata *pd, const uint8_t *p, size_t size, uint64_t off)
{
	struct perf_attr *a;
	uint64_t flags;
	unsigned int bit;

	if (size < ATTR_SIZE_VER0)
		return bad("attribute", off, "shorter than 64 bytes");
	a = attr_add(pd);
	if (!a)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read perf.data attribute: offset=%llu",
			       (unsigned long long) off);
	a->type = u32_at(pd, p);
	a->config = u64_at(pd, p + 8);
	a->sample_type = u64_at(pd, p + 24);
	a->read_format = u64_at(pd, p + 32);
	flags = u64_at(pd, p + 40);
	/* bit fields: from the low bit of a little-endian word, the high bit of a big one */
	bit = pd->bo == TK_BYTE_ORDER_BE ? 63 - ATTR_FLAG_SAMPLE_ID_ALL : ATTR_FLAG_SAMPLE_ID_ALL;
	a->sample_id_all = (int) ((flags >> bit) & 1);
	if (size >= 80)
		a->branch_sample_type = u64_at(pd, p + 72);
	if (size >= 88)
		a->sample_regs_user = u64_at(pd, p + 80);
	if (size >= 104)
		a->sample_regs_intr = u64_at(pd, p + 96);
	return TK_OK;
}

/* The @n sample ids at @p for the last attribute added. */
static enum tk_status attr_ids(struct perfdata *pd, const uint8_t *p, uint64_t n, uint64_t off)
{
	struct perf_attr *a = &pd->attrs[pd->n_attrs - 1];
	uint64_t i;

	if (!n)
		return TK_OK;
	if (n > SIZE_MAX / sizeof(*a->ids))
		return bad("attribute ids", off, "too many");
	a->ids = malloc((size_t) n * sizeof(*a->ids));
	if (!a->ids)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read perf.data attribute ids: count=%llu",
			       (unsigned long long) n);
	for (i = 0; i < n; i++)
		a->ids[i] = u64_at(pd, p + 8 * i);
	a->n_ids = (size_t) n;
	return TK_OK;
}

/*
 * File mode: the attrs section, entries of the header's attribute size, each an attribute
 * followed by the section (offset, size) of its ids.
 */
static enum tk_status read_attrs(struct perfdata *pd, const uint8_t *h)
{
	uint64_t entry = u64_at(pd, h + 16), off = u64_at(pd, h + 24);
	uint64_t size = u64_at(pd, h + 32), attr_size = entry - 16, n, i;
	enum tk_status st;

	if (entry < ATTR_SIZE_VER0 + 16 || entry > 4096)
		return bad("header", 16, "attribute size out of range");
	if (!in_file(pd, off, size))
		return bad("attributes", off, "past the end of the file");
	n = size / entry;
	for (i = 0; i < n; i++) {
		uint64_t at = off + i * entry;
		const uint8_t *p = pd->data + at;
		uint64_t ids_off = u64_at(pd, p + attr_size), ids_size;

		ids_size = u64_at(pd, p + attr_size + 8);
		st = attr_read(pd, p, (size_t) attr_size, at);
		if (st < 0)
			return st;
		if (!in_file(pd, ids_off, ids_size))
			return bad("attribute ids", ids_off, "past the end of the file");
		st = attr_ids(pd, pd->data + ids_off, ids_size / 8, ids_off);
		if (st < 0)
			return st;
	}
	return TK_OK;
}

static int id_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct id_entry *) a)->id, y = ((const struct id_entry *) b)->id;

	return x < y ? -1 : x > y;
}

static const struct perf_attr *attr_search(const struct perfdata *pd, uint64_t id);

/*
 * The table of ids when their range is at most 16 slots per id (plus 1024): each slot holds
 * what the search finds, so both give the same attribute, duplicate ids included.
 */
static enum tk_status index_ids_dense(struct perfdata *pd)
{
	uint64_t span;
	size_t i;

	if (!pd->n_idmap)
		return TK_OK;
	pd->id_base = pd->idmap[0].id;
	span = pd->idmap[pd->n_idmap - 1].id - pd->id_base;
	if (span >= 16 * (uint64_t) pd->n_idmap + 1024)
		return TK_OK;
	pd->id_table = calloc((size_t) span + 1, sizeof(*pd->id_table));
	if (!pd->id_table)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot index perf.data ids: span=%llu",
			       (unsigned long long) span);
	pd->n_id_table = (size_t) span + 1;
	for (i = 0; i < pd->n_idmap; i++) {
		const struct perf_attr *a = attr_search(pd, pd->idmap[i].id);

		pd->id_table[pd->idmap[i].id - pd->id_base] = (uint32_t) (a - pd->attrs) + 1;
	}
	return TK_OK;
}

/*
 * The places of a sample's fields for attribute @a (struct perf_attr, fixed), in the order
 * perfdata_sample() reads them; left unset when a field before RAW has a variable size
 * (the kernel puts the others, branch stack, registers..., after RAW).
 */
static void attr_layout(struct perf_attr *a)
{
	uint64_t t = a->sample_type;
	uint32_t at = 8;

	if ((t & PERF_SAMPLE_CALLCHAIN) ||
	    ((t & PERF_SAMPLE_READ) && (a->read_format & FORMAT_GROUP)))
		return;
#define PLACE(bit, member)                                                                         \
	do {                                                                                       \
		if (t & (bit)) {                                                                   \
			a->member = (uint16_t) at;                                                 \
			at += 8;                                                                   \
		}                                                                                  \
	} while (0)
	PLACE(PERF_SAMPLE_IDENTIFIER, at_id);
	PLACE(PERF_SAMPLE_IP, at_ip);
	PLACE(PERF_SAMPLE_TID, at_tid);
	PLACE(PERF_SAMPLE_TIME, at_time);
	PLACE(PERF_SAMPLE_ADDR, at_addr);
	PLACE(PERF_SAMPLE_ID, at_id); /* read after the identifier: it is the one kept */
	PLACE(PERF_SAMPLE_STREAM_ID, at_stream);
	PLACE(PERF_SAMPLE_CPU, at_cpu);
	PLACE(PERF_SAMPLE_PERIOD, at_period);
#undef PLACE
	if (t & PERF_SAMPLE_READ)
		at += 8 * (1 + !!(a->read_format & FORMAT_ID) + !!(a->read_format & FORMAT_LOST) +
			   !!(a->read_format & FORMAT_TOTAL_TIME_ENABLED) +
			   !!(a->read_format & FORMAT_TOTAL_TIME_RUNNING));
	if (t & PERF_SAMPLE_RAW) {
		a->at_raw = (uint16_t) at;
		at += 4;
	}
	a->fixed_size = at;
	a->fixed = 1;
}

/* The sorted map from sample id to attribute. */
static enum tk_status index_ids(struct perfdata *pd)
{
	size_t n = 0, i, k;

	for (i = 0; i < pd->n_attrs; i++) {
		n += pd->attrs[i].n_ids;
		attr_layout(&pd->attrs[i]);
	}
	pd->idmap = malloc((n ? n : 1) * sizeof(*pd->idmap));
	if (!pd->idmap)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot index perf.data ids: count=%zu", n);
	for (i = 0; i < pd->n_attrs; i++)
		for (k = 0; k < pd->attrs[i].n_ids; k++) {
			pd->idmap[pd->n_idmap].id = pd->attrs[i].ids[k];
			pd->idmap[pd->n_idmap++].attr = i;
		}
	qsort(pd->idmap, pd->n_idmap, sizeof(*pd->idmap), id_cmp);
	return index_ids_dense(pd);
}

/* The binary search of the sorted map. */
static const struct perf_attr *attr_search(const struct perfdata *pd, uint64_t id)
{
	size_t lo = 0, hi = pd->n_idmap;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pd->idmap[mid].id < id)
			lo = mid + 1;
		else if (pd->idmap[mid].id > id)
			hi = mid;
		else
			return &pd->attrs[pd->idmap[mid].attr];
	}
	return NULL;
}

const struct perf_attr *perfdata_attr_of_id(const struct perfdata *pd, uint64_t id)
{
	if (pd->id_table) {
		uint64_t k = id - pd->id_base;

		return k < pd->n_id_table && pd->id_table[k] ? &pd->attrs[pd->id_table[k] - 1]
							     : NULL;
	}
	return attr_search(pd, id);
}

/* ---- names ------------------------------------------------------------------------------ */

/* Name the attribute that has sample id @id (or, with no ids at all, attribute @index). */
static void name_attr(struct perfdata *pd, uint64_t id, int have_id, size_t index, const char *name,
		      size_t len)
{
	size_t i, k;

	len = strnlen(name, len);
	for (i = 0; i < pd->n_attrs; i++) {
		struct perf_attr *a = &pd->attrs[i];
		int match = !have_id && i == index;

		for (k = 0; have_id && k < a->n_ids && !match; k++)
			match = a->ids[k] == id;
		if (match && !a->name) {
			a->name = name;
			a->name_len = len;
			return;
		}
	}
}

/*
 * EVENT_DESC: u32 count, u32 attribute size, then per event the attribute, u32 id count, the
 * name (u32 length, then that many bytes, NUL-padded) and the ids. Names only: the attributes
 * are those of the attrs section. A bad description names nothing more.
 */
static void read_event_desc(struct perfdata *pd, const uint8_t *p, size_t len)
{
	uint32_t n, attr_size, i, n_ids, name_len;
	size_t pos = 8;

	if (len < 8)
		return;
	n = u32_at(pd, p);
	attr_size = u32_at(pd, p + 4);
	for (i = 0; i < n; i++) {
		const char *name;

		if (attr_size > len - pos || len - pos - attr_size < 8)
			return;
		pos += attr_size;
		n_ids = u32_at(pd, p + pos);
		name_len = u32_at(pd, p + pos + 4);
		pos += 8;
		if (name_len > len - pos)
			return;
		name = (const char *) p + pos;
		pos += name_len;
		if (n_ids > (len - pos) / 8)
			return;
		name_attr(pd, n_ids ? u64_at(pd, p + pos) : 0, n_ids > 0, i, name, name_len);
		pos += (size_t) n_ids * 8;
	}
}

/* ---- file mode ------------------------------------------------------------------------ */

/* The feature sections: an array of (offset, size), one per bit set, after the data. */
static enum tk_status read_features(struct perfdata *pd, const uint8_t *h)
{
	uint64_t at = pd->data_end;
	unsigned int feat;

	for (feat = 1; feat < PERF_FEAT_MAX; feat++) {
		uint64_t word = u64_at(pd, h + 72 + 8 * (feat / 64)), off, size;

		if (!((word >> (feat % 64)) & 1))
			continue;
		if (!in_file(pd, at, 16))
			return bad("feature index", at, "past the end of the file");
		off = u64_at(pd, pd->data + at);
		size = u64_at(pd, pd->data + at + 8);
		at += 16;
		if (!in_file(pd, off, size))
			return bad("feature section", off, "past the end of the file");
		pd->feat[feat] = pd->data + off;
		pd->feat_len[feat] = (size_t) size;
	}
	return TK_OK;
}

static enum tk_status open_file_mode(struct perfdata *pd)
{
	const uint8_t *h = pd->data;
	uint64_t off, size;
	enum tk_status st;

	if (pd->size < FILE_HEADER_SIZE)
		return bad("header", 0, "file too short");
	if (u64_at(pd, h + 8) < FILE_HEADER_SIZE)
		return bad("header", 8, "header size below 104");
	off = u64_at(pd, h + 40);
	size = u64_at(pd, h + 48);
	if (!in_file(pd, off, size))
		return bad("data section", off, "past the end of the file");
	pd->data_off = off;
	pd->data_end = off + size;
	st = read_attrs(pd, h);
	if (st >= 0)
		st = read_features(pd, h);
	return st;
}

/* ---- records ------------------------------------------------------------------------ */

void perfdata_cursor_init(const struct perfdata *pd, struct perfdata_cursor *c)
{
	c->pd = pd;
	c->pos = pd->data_off;
	c->end = pd->data_end;
}

/*
 * Bytes after the header that belong to a record without being counted in its size: the
 * tracing data after HEADER_TRACING_DATA (aligned to 8) and the trace after AUXTRACE.
 */
static uint64_t trailing_bytes(const struct perfdata *pd, const uint8_t *p, uint32_t type,
			       uint32_t size)
{
	if (type == PERF_RECORD_HEADER_TRACING_DATA && size >= 12)
		return ((uint64_t) u32_at(pd, p + 8) + 7) & ~(uint64_t) 7;
	if (type == PERF_RECORD_AUXTRACE && size >= 16)
		return u64_at(pd, p + 8);
	return 0;
}

enum tk_status perfdata_cursor_next(struct perfdata_cursor *c, struct perf_record *out)
{
	const struct perfdata *pd = c->pd;
	const uint8_t *p;
	uint64_t span;
	uint32_t size;

	if (c->pos >= c->end)
		return TK_END;
	if (c->end - c->pos < 8)
		return bad("record", c->pos, "a header cut by the end of the data");
	p = pd->data + c->pos;
	size = tk_load_u16(p + 6, pd->bo);
	if (size < 8)
		return bad("record", c->pos, "size below 8");
	out->type = u32_at(pd, p);
	/* perf refuses types past its own (PERF_RECORD_HEADER_MAX, 84 in 2024) */
	if (out->type == 0 || out->type >= 128)
		return bad("record", c->pos, "unknown record type");
	out->misc = tk_load_u16(p + 4, pd->bo);
	out->size = size;
	out->data = p;
	out->offset = c->pos;
	if (size > c->end - c->pos)
		return bad("record", c->pos, "passes the end of the data");
	span = size + trailing_bytes(pd, p, out->type, size);
	if (span > c->end - c->pos)
		return bad("record", c->pos, "passes the end of the data");
	c->pos += span;
	return TK_OK;
}

/* ---- pipe mode ------------------------------------------------------------------------ */

/*
 * The records before the first sample: attributes (each with its ids), the tracing data,
 * feature sections and event names. The data is every record after the 16-byte header.
 */
static enum tk_status open_pipe_mode(struct perfdata *pd)
{
	struct perfdata_cursor c;
	struct perf_record r;
	enum tk_status st;

	pd->data_off = PIPE_HEADER_SIZE;
	pd->data_end = pd->size;
	perfdata_cursor_init(pd, &c);
	while ((st = perfdata_cursor_next(&c, &r)) == TK_OK && r.type != PERF_RECORD_SAMPLE) {
		const uint8_t *body = r.data + 8;
		size_t len = r.size - 8;

		switch (r.type) {
		case PERF_RECORD_HEADER_ATTR: {
			uint32_t asize = len >= 8 ? u32_at(pd, body + 4) : 0;

			if (asize < ATTR_SIZE_VER0 || asize > len)
				return bad("attribute record", r.offset, "bad attribute size");
			st = attr_read(pd, body, asize, r.offset);
			if (st >= 0)
				st = attr_ids(pd, body + asize, (len - asize) / 8, r.offset);
			if (st < 0)
				return st;
			break;
		}
		case PERF_RECORD_HEADER_TRACING_DATA:
			if (len < 4)
				return bad("tracing data record", r.offset, "too short");
			pd->tracing = r.data + r.size;
			pd->tracing_len = u32_at(pd, body);
			break;
		case PERF_RECORD_HEADER_FEATURE:
			if (len >= 8) {
				uint64_t feat = u64_at(pd, body);

				if (feat > 0 && feat < PERF_FEAT_MAX) {
					pd->feat[feat] = body + 8;
					pd->feat_len[feat] = len - 8;
				}
			}
			break;
		case PERF_RECORD_EVENT_UPDATE:
			/* type NAME (1): u64 type, u64 id, then the NUL-terminated name */
			if (len > 16 && u64_at(pd, body) == 1)
				name_attr(pd, u64_at(pd, body + 8), 1, 0, (const char *) body + 16,
					  len - 16);
			break;
		default:
			break;
		}
	}
	return st < 0 ? st : TK_OK;
}

/* What both modes take from the feature sections: the tracing data (unless a record gave it). */
static void read_feature_parts(struct perfdata *pd)
{
	if (!pd->tracing && pd->feat[PERF_FEAT_TRACING_DATA]) {
		pd->tracing = pd->feat[PERF_FEAT_TRACING_DATA];
		pd->tracing_len = pd->feat_len[PERF_FEAT_TRACING_DATA];
	}
	if (pd->feat[PERF_FEAT_EVENT_DESC])
		read_event_desc(pd, pd->feat[PERF_FEAT_EVENT_DESC],
				pd->feat_len[PERF_FEAT_EVENT_DESC]);
}

/* ---- opening ------------------------------------------------------------------------- */

void perfdata_close(struct perfdata *pd)
{
	size_t i;

	if (!pd)
		return;
	for (i = 0; i < pd->n_attrs; i++)
		free(pd->attrs[i].ids);
	vec_fini(&pd->attr_vec);
	free(pd->idmap);
	free(pd->id_table);
	free(pd);
}

enum tk_status perfdata_open(struct perfdata **out, const uint8_t *data, size_t size)
{
	struct perfdata *pd;
	enum tk_status st;

	TK_ASSERT_PRE(out && (data || !size));
	if (size >= 8 && !memcmp(data, "PERFFILE", 8))
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot read perf.data: reason=the first file version (PERFFILE), "
			       "before 2010; convert it with a newer perf");
	if (size < PIPE_HEADER_SIZE || !perfdata_probe(data, size))
		return bad("header", 0, "no PERFILE2 magic");
	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read perf.data");
	pd->data = data;
	pd->size = size;
	pd->bo = memcmp(data, magic_le, 8) ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE;
	pd->pipe = u64_at(pd, data + 8) == PIPE_HEADER_SIZE;
	st = pd->pipe ? open_pipe_mode(pd) : open_file_mode(pd);
	if (st >= 0)
		read_feature_parts(pd);
	if (st >= 0 && !pd->n_attrs)
		st = bad("attributes", pd->pipe ? PIPE_HEADER_SIZE : 24, "no event attribute");
	if (st >= 0)
		st = index_ids(pd);
	if (st >= 0 && pd->tracing &&
	    !in_file(pd, (uint64_t) (pd->tracing - data), pd->tracing_len))
		st = bad("tracing data", (uint64_t) (pd->tracing - data),
			 "past the end of the file");
	if (st < 0) {
		perfdata_close(pd);
		return st;
	}
	*out = pd;
	return TK_OK;
}

enum tk_byte_order perfdata_byte_order(const struct perfdata *pd)
{
	return pd->bo;
}

int perfdata_is_pipe(const struct perfdata *pd)
{
	return pd->pipe;
}

size_t perfdata_n_attrs(const struct perfdata *pd)
{
	return pd->n_attrs;
}

const struct perf_attr *perfdata_attr(const struct perfdata *pd, size_t i)
{
	return i < pd->n_attrs ? &pd->attrs[i] : NULL;
}

const uint8_t *perfdata_tracing_data(const struct perfdata *pd, size_t *len)
{
	*len = pd->tracing ? pd->tracing_len : 0;
	return pd->tracing;
}

const uint8_t *perfdata_feature(const struct perfdata *pd, unsigned int feat, size_t *len)
{
	if (feat >= PERF_FEAT_MAX || !pd->feat[feat]) {
		*len = 0;
		return NULL;
	}
	*len = pd->feat_len[feat];
	return pd->feat[feat];
}

/*
 * The BUILD_ID section is a list of records: an 8-byte header (type, misc, size), the pid,
 * 24 bytes of build id (its length in byte 20 when misc has PERF_RECORD_MISC_BUILD_ID_SIZE,
 * else 20) and the file name, NUL-padded. The host kernel's is named "[kernel.kallsyms]",
 * with the kernel's cpumode in misc.
 */
size_t perfdata_kernel_build_id(const struct perfdata *pd, uint8_t out[20])
{
	enum tk_byte_order bo = perfdata_byte_order(pd);
	static const char kname[] = "[kernel.kallsyms]";
	const uint8_t *p;
	size_t len, off = 0;

	p = perfdata_feature(pd, PERF_FEAT_BUILD_ID, &len);
	while (p && len - off >= 36) {
		uint16_t misc = tk_load_u16(p + off + 4, bo), size = tk_load_u16(p + off + 6, bo);
		size_t n = 20;

		if (size < 36 || size > len - off)
			break;
		if (misc & PERF_RECORD_MISC_BUILD_ID_SIZE)
			n = p[off + 12 + 20] <= 20 ? p[off + 12 + 20] : 20;
		if ((misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL &&
		    (size_t) size - 36 >= sizeof(kname) &&
		    !memcmp(p + off + 36, kname, sizeof(kname))) {
			memcpy(out, p + off + 12, n);
			return n;
		}
		off += size;
	}
	return 0;
}

/* ---- samples ------------------------------------------------------------------------- */

/* A reader of the u64 words of a record body, which stops at its end. */
struct words {
	const struct perfdata *pd;
	const uint8_t *p, *end;
	int short_read;
};

static uint64_t take(struct words *w)
{
	uint64_t v;

	if (w->end - w->p < 8) {
		w->short_read = 1;
		w->p = w->end;
		return 0;
	}
	v = u64_at(w->pd, w->p);
	w->p += 8;
	return v;
}

static void skip(struct words *w, uint64_t n)
{
	if (n > (uint64_t) (w->end - w->p) / 8) {
		w->short_read = 1;
		w->p = w->end;
		return;
	}
	w->p += n * 8;
}

/* Two u32 in one word: the first at the lower address. */
static void take_pair(struct words *w, uint32_t *a, uint32_t *b)
{
	if (w->end - w->p < 8) {
		w->short_read = 1;
		w->p = w->end;
		*a = *b = 0;
		return;
	}
	*a = u32_at(w->pd, w->p);
	*b = u32_at(w->pd, w->p + 4);
	w->p += 8;
}

/* The words of PERF_SAMPLE_READ, as read_format lays them out. */
static void skip_read(struct words *w, uint64_t fmt)
{
	uint64_t per = 1 + !!(fmt & FORMAT_ID) + !!(fmt & FORMAT_LOST);
	uint64_t times = !!(fmt & FORMAT_TOTAL_TIME_ENABLED) + !!(fmt & FORMAT_TOTAL_TIME_RUNNING);

	if (fmt & FORMAT_GROUP) {
		uint64_t nr = take(w);

		skip(w, times);
		if (nr > UINT32_MAX)
			nr = UINT32_MAX; /* more than the record: skip() stops it */
		skip(w, nr * per);
	} else {
		skip(w, per + times);
	}
}

/* Where a sample's id is, by the first attribute's layout (all attributes share it). */
static int sample_id(const struct perfdata *pd, const struct perf_record *r, uint64_t *id)
{
	uint64_t t = pd->attrs[0].sample_type, at;

	if (t & PERF_SAMPLE_IDENTIFIER)
		at = 8;
	else if (t & PERF_SAMPLE_ID)
		at = 8 + 8 * (uint64_t) (!!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) +
					 !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR));
	else
		return 0;
	if (r->size < at + 8)
		return -1;
	*id = u64_at(pd, r->data + at);
	return 1;
}

/*
 * Every field of @s absent: stores of each member, which cost less than the string
 * instruction a memset() of the struct compiles to, once per sample.
 */
static inline void sample_clear(struct perf_sample *s)
{
	s->attr = NULL;
	s->sample_type = 0;
	s->id = s->ip = s->time = s->addr = s->stream_id = s->period = 0;
	s->pid = s->tid = s->cpu = 0;
	s->raw = NULL;
	s->raw_size = 0;
}

enum tk_status perfdata_sample(const struct perfdata *pd, const struct perf_record *r,
			       struct perf_sample *out)
{
	struct words w = {pd, r->data + 8, r->data + r->size, 0};
	const struct perf_attr *a = &pd->attrs[0];
	uint64_t t, id = 0;
	int has_id;

	sample_clear(out);
	if (pd->n_attrs > 1) {
		has_id = sample_id(pd, r, &id);
		if (has_id < 0)
			return bad("sample", r->offset, "shorter than its id");
		a = has_id ? perfdata_attr_of_id(pd, id) : NULL;
		if (!a)
			return bad("sample", r->offset, "its id names no event attribute");
	}
	out->attr = a;
	t = out->sample_type = a->sample_type;
	if (TK_LIKELY(a->fixed && r->size >= a->fixed_size)) {
		const uint8_t *p = r->data;
		enum tk_byte_order bo = pd->bo;

		if (a->at_id)
			out->id = tk_load_u64(p + a->at_id, bo);
		if (a->at_ip)
			out->ip = tk_load_u64(p + a->at_ip, bo);
		if (a->at_tid) {
			out->pid = tk_load_u32(p + a->at_tid, bo);
			out->tid = tk_load_u32(p + a->at_tid + 4, bo);
		}
		if (a->at_time)
			out->time = tk_load_u64(p + a->at_time, bo);
		if (a->at_addr)
			out->addr = tk_load_u64(p + a->at_addr, bo);
		if (a->at_stream)
			out->stream_id = tk_load_u64(p + a->at_stream, bo);
		if (a->at_cpu)
			out->cpu = tk_load_u32(p + a->at_cpu, bo);
		if (a->at_period)
			out->period = tk_load_u64(p + a->at_period, bo);
		if (a->at_raw) {
			uint32_t n = tk_load_u32(p + a->at_raw, bo);

			if (n > r->size - a->fixed_size)
				return bad("sample", r->offset, "raw data passes the record");
			out->raw = p + a->fixed_size;
			out->raw_size = n;
		}
		return TK_OK;
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		out->id = take(&w);
	if (t & PERF_SAMPLE_IP)
		out->ip = take(&w);
	if (t & PERF_SAMPLE_TID)
		take_pair(&w, &out->pid, &out->tid);
	if (t & PERF_SAMPLE_TIME)
		out->time = take(&w);
	if (t & PERF_SAMPLE_ADDR)
		out->addr = take(&w);
	if (t & PERF_SAMPLE_ID)
		out->id = take(&w);
	if (t & PERF_SAMPLE_STREAM_ID)
		out->stream_id = take(&w);
	if (t & PERF_SAMPLE_CPU) {
		uint32_t res;

		take_pair(&w, &out->cpu, &res);
	}
	if (t & PERF_SAMPLE_PERIOD)
		out->period = take(&w);
	if (t & PERF_SAMPLE_READ)
		skip_read(&w, a->read_format);
	if (t & PERF_SAMPLE_CALLCHAIN)
		skip(&w, take(&w));
	if ((t & PERF_SAMPLE_RAW) && !w.short_read) {
		uint32_t n;

		if (w.end - w.p < 4)
			return bad("sample", r->offset, "raw data cut");
		n = u32_at(pd, w.p);
		if (n > (size_t) (w.end - w.p) - 4)
			return bad("sample", r->offset, "raw data passes the record");
		out->raw = w.p + 4;
		out->raw_size = n;
	}
	if (w.short_read)
		return bad("sample", r->offset, "shorter than its fields");
	return TK_OK;
}

int perfdata_record_id(const struct perfdata *pd, const struct perf_record *r,
		       struct perf_sample *out)
{
	struct words w = {pd, NULL, r->data + r->size, 0};
	uint64_t t, n;

	memset(out, 0, sizeof(*out));
	if (!pd->n_attrs || !pd->attrs[0].sample_id_all || r->type == PERF_RECORD_SAMPLE ||
	    r->type >= PERF_RECORD_HEADER_ATTR)
		return 0;
	t = out->sample_type = pd->attrs[0].sample_type;
	n = !!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ID) +
	    !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU) +
	    !!(t & PERF_SAMPLE_IDENTIFIER);
	if (r->size < 8 || n * 8 > r->size - 8)
		return -1;
	w.p = w.end - n * 8;
	if (t & PERF_SAMPLE_TID)
		take_pair(&w, &out->pid, &out->tid);
	if (t & PERF_SAMPLE_TIME)
		out->time = take(&w);
	if (t & PERF_SAMPLE_ID)
		out->id = take(&w);
	if (t & PERF_SAMPLE_STREAM_ID)
		out->stream_id = take(&w);
	if (t & PERF_SAMPLE_CPU) {
		uint32_t res;

		take_pair(&w, &out->cpu, &res);
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		out->id = take(&w);
	return 1;
}
