// SPDX-License-Identifier: MIT
/*
 * trace.dat options, v6 and v7 (reference section 3): the list every option joins, and what
 * the ones this reader understands mean: DATE, OFFSET, TSC2NSEC, TIME_SHIFT, TRACECLOCK, UNAME,
 * VERSION, CPUSTAT, CPUCOUNT, the v7 section offsets, and the BUFFER and BUFFER_TEXT options that
 * describe each buffer. Options nobody knows stay in the list, raw.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "tracedat-priv.h"

/*
 * A decimal, octal or hexadecimal integer in text (strtoll with base 0, as trace-cmd reads
 * DATE and OFFSET). An unsigned hex value above INT64_MAX is taken as the two's complement it
 * was printed from: trace-cmd prints a negative DATE with "0x%llx".
 */
static int parse_int_text(const uint8_t *data, size_t size, int64_t *out)
{
	char buf[64], *s, *end;
	size_t n = 0;

	while (n < size && data[n])
		n++;
	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, data, n);
	buf[n] = '\0';
	s = buf;
	while (*s == ' ' || *s == '\t')
		s++;
	errno = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		uint64_t u = strtoull(s, &end, 16);

		*out = u > (uint64_t) INT64_MAX ? -(int64_t) (~u) - 1 : (int64_t) u;
	} else {
		*out = strtoll(s, &end, 0);
	}
	if (errno || end == s)
		return -1;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	return *end ? -1 : 0;
}

/* A cause for the option starting at @at in the options region @c. */
static enum tk_status opt_fail(const struct tracedat_cur *c, size_t at, uint16_t id,
			       const char *reason)
{
	if (c->inflated)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat option: id=%u (%s), section-offset=%" PRIu64
			       ", decompressed-offset=%zu, reason=%s",
			       id, tracedat_option_name(id), c->base, c->rel + at, reason);
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot read trace.dat option: id=%u (%s), offset=%" PRIu64 ", reason=%s",
		       id, tracedat_option_name(id), c->base + at, reason);
}

/*
 * v7 BUFFER and BUFFER_TEXT: u64 section offset, name, clock, and for BUFFER the page size and
 * the CPUs with data {u32 cpu, u64 offset, u64 size}. The section header tells whether the
 * data is compressed. A second top buffer replaces the first, as in libtracecmd.
 */
static enum tk_status parse_buffer_v7(struct tracedat_open *o, uint16_t id,
				      const struct tracedat_cur *opts, size_t at,
				      struct tracedat_cur *c)
{
	struct tracedat_buffer *b;
	struct tracedat_buffer_priv *bp;
	struct tracedat_cpu_data *cpus = NULL;
	struct tracedat_cur sec;
	const char *name, *clock;
	uint64_t sec_off;
	uint32_t page_size = o->info->page_size, ncpu = 0, i;
	uint16_t flags = 0;
	uint8_t *seen;
	long idx;
	int latency = id == TRACEDAT_OPTION_BUFFER_TEXT;

	if (tracedat_cur_u64(c, &sec_off, "buffer option") < 0 ||
	    tracedat_cur_cstr(c, &name, "buffer name") < 0 ||
	    tracedat_cur_cstr(c, &clock, "buffer clock") < 0)
		return TK_ERR_FORMAT;
	if (!latency) {
		if (tracedat_cur_u32(c, &page_size, "buffer option") < 0 ||
		    tracedat_cur_u32(c, &ncpu, "buffer option") < 0)
			return TK_ERR_FORMAT;
		if (!tracedat_page_size_ok(page_size))
			return opt_fail(opts, at, id, "page size out of range");
		if (ncpu > tracedat_cur_left(c) / 20)
			return opt_fail(opts, at, id, "more CPUs than the option can hold");
		if (ncpu > TRACEDAT_MAX_CPU_ENTRIES - o->cpu_entries)
			return opt_fail(opts, at, id, "more CPU entries than this reader accepts");
		o->cpu_entries += ncpu;
		cpus = arena_alloc(&o->p->arena, (size_t) ncpu * sizeof(*cpus) + 1);
		/* one entry per CPU: a bitmap over the CPU numbers (below 2^16) */
		seen = calloc(65536 / 8, 1);
		if (!cpus || !seen) {
			free(seen);
			return TK_FAIL(TK_ERR_NOMEM,
				       "Cannot read trace.dat buffer option: cpus=%" PRIu32, ncpu);
		}
		for (i = 0; i < ncpu; i++) {
			struct tracedat_cpu_data *cd = &cpus[i];

			/* the option holds 20 bytes per CPU: checked above */
			cd->cpu = tk_load_u32(c->p + c->off, c->bo);
			cd->offset = tk_load_u64(c->p + c->off + 4, c->bo);
			cd->size = tk_load_u64(c->p + c->off + 12, c->bo);
			c->off += 20;
			if (cd->offset > UINT64_MAX - cd->size || cd->cpu >= 65536 ||
			    (seen[cd->cpu / 8] & (1u << (cd->cpu % 8)))) {
				free(seen);
				return opt_fail(opts, at, id,
						cd->cpu >= 65536 ? "CPU number too large"
						: cd->offset > UINT64_MAX - cd->size
							? "CPU data offset plus size overflows"
							: "two data entries for one CPU");
			}
			seen[cd->cpu / 8] |= (uint8_t) (1u << (cd->cpu % 8));
		}
		free(seen);
	}
	if (tracedat_open_section(o, sec_off, id, latency ? "latency buffer" : "buffer", 0, &sec,
				  &flags) < 0)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read trace.dat buffer: name=%s, offset=%" PRIu64, name,
			       sec_off);
	if (name[0] == '\0') {
		idx = 0; /* the top buffer, created first */
	} else {
		idx = tracedat_buffer_add(o);
		if (idx < 0)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat buffer: name=%s", name);
	}
	b = tracedat_buf(o, (size_t) idx);
	bp = tracedat_bpriv(o, (size_t) idx);
	memset(b, 0, sizeof(*b));
	memset(bp, 0, sizeof(*bp));
	b->name = arena_strdup(&o->p->arena, name);
	b->clock = clock[0] ? arena_strdup(&o->p->arena, clock) : NULL;
	if (!b->name || (clock[0] && !b->clock))
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat buffer: name=%s", name);
	b->page_size = page_size;
	b->compressed = (flags & TRACEDAT_SEC_FL_COMPRESS) != 0;
	b->latency = (uint8_t) latency;
	b->cpus = cpus;
	b->n_cpus = ncpu;
	if (latency) {
		/* the text follows the header: plain bytes, or chunks like per-CPU data */
		bp->text_offset = sec_off + TRACEDAT_SECTION_HEADER_SIZE;
		bp->text_size = b->compressed ? 0 : sec.size;
		if (!b->compressed)
			b->latency_text = (struct tracedat_blob){sec.p, sec.size};
	}
	return TK_OK;
}

/* v6 BUFFER: u64 offset of the instance's "flyrecord" marker, name. */
static enum tk_status parse_buffer_v6(struct tracedat_open *o, const struct tracedat_cur *opts,
				      size_t at, struct tracedat_cur *c)
{
	struct tracedat_v6_instance *vi;
	const char *name;
	uint64_t off;
	long idx;

	if (tracedat_cur_u64(c, &off, "buffer option") < 0 ||
	    tracedat_cur_cstr(c, &name, "buffer name") < 0)
		return TK_ERR_FORMAT;
	if (name[0] == '\0')
		return opt_fail(opts, at, TRACEDAT_OPTION_BUFFER,
				"a version 6 BUFFER option names the top buffer");
	idx = tracedat_buffer_add(o);
	vi = vec_push(&o->v6_instances, sizeof(*vi));
	if (idx < 0 || !vi)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat buffer: name=%s", name);
	tracedat_buf(o, (size_t) idx)->name = arena_strdup(&o->p->arena, name);
	if (!tracedat_buf(o, (size_t) idx)->name)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat buffer: name=%s", name);
	tracedat_buf(o, (size_t) idx)->page_size = o->info->page_size;
	vi->buffer = (size_t) idx;
	vi->offset = off;
	vi->ncpu = UINT32_MAX; /* the top buffer's count unless a CPUCOUNT follows */
	o->last_buffer = (long) o->v6_instances.len - 1;
	return TK_OK;
}

/* Samples of one CPU in time order (signed, as trace-cmd sorts them), equal times once. */
struct tsync_sort {
	struct tracedat_tsync_sample s;
	uint32_t order; /* position in the file: the first of equal times is kept */
};

static int tsync_cmp(const void *a, const void *b)
{
	const struct tsync_sort *x = a, *y = b;

	if (x->s.time != y->s.time)
		return x->s.time < y->s.time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * TIME_SHIFT, written into a guest's file by `trace-cmd record -A`: u64 trace id of the host,
 * u32 flags, u32 CPU count, per CPU {u32 count, i64 times[count], i64 offsets[count], i64
 * scalings[count]}, then, when bytes are left, per CPU i64 fractions[count]. libtracecmd
 * ignores the option below 16 bytes, so this reader does too; the last one counts.
 */
static enum tk_status parse_time_shift(struct tracedat_open *o, const struct tracedat_cur *opts,
				       size_t at, const uint8_t *data, size_t size)
{
	const uint16_t id = TRACEDAT_OPTION_TIME_SHIFT;
	enum tk_byte_order bo = opts->bo;
	struct tracedat_tsync *ts;
	struct tsync_sort *tmp = NULL;
	size_t off = 16, total = 0, i, j, k, n;
	uint32_t c;

	if (size < 16)
		return TK_OK;
	ts = arena_alloc(&o->p->arena, sizeof(*ts));
	if (!ts)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat option: id=%u", id);
	ts->peer_trace_id = tk_load_u64(data, bo);
	ts->flags = tk_load_u32(data + 8, bo);
	ts->n_cpus = tk_load_u32(data + 12, bo);
	if (ts->n_cpus > (size - off) / 4)
		return opt_fail(opts, at, id, "more CPUs than the option can hold");
	ts->cpus = arena_alloc(&o->p->arena, (size_t) ts->n_cpus * sizeof(*ts->cpus) + 1);
	if (!ts->cpus)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat option: id=%u", id);
	for (c = 0; c < ts->n_cpus; c++) {
		struct tracedat_tsync_cpu *tc = &ts->cpus[c];

		if (size - off < 4)
			return opt_fail(opts, at, id, "samples cut short");
		tc->n = tk_load_u32(data + off, bo);
		off += 4;
		if (tc->n > (size - off) / 24)
			return opt_fail(opts, at, id, "samples cut short");
		tc->s = arena_alloc(&o->p->arena, (size_t) tc->n * sizeof(*tc->s) + 1);
		if (!tc->s)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat option: id=%u", id);
		n = tc->n;
		for (i = 0; i < n; i++) {
			tc->s[i].time = (int64_t) tk_load_u64(data + off + 8 * i, bo);
			tc->s[i].offset = (int64_t) tk_load_u64(data + off + 8 * (n + i), bo);
			tc->s[i].scaling = (int64_t) tk_load_u64(data + off + 8 * (2 * n + i), bo);
			tc->s[i].fraction = 0;
		}
		off += 24 * n;
		total += n;
	}
	if (off < size) {
		if ((size - off) / 8 < total)
			return opt_fail(opts, at, id, "fraction bits cut short");
		for (c = 0; c < ts->n_cpus; c++)
			for (i = 0; i < ts->cpus[c].n; i++, off += 8) {
				uint64_t f = tk_load_u64(data + off, bo);

				if (f > 63)
					return opt_fail(opts, at, id, "fraction bits above 63");
				ts->cpus[c].s[i].fraction = (uint32_t) f;
			}
	}
	for (c = 0; c < ts->n_cpus; c++) {
		struct tracedat_tsync_cpu *tc = &ts->cpus[c];

		if (tc->n < 2)
			continue;
		tmp = malloc(tc->n * sizeof(*tmp));
		if (!tmp)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat option: id=%u", id);
		for (i = 0; i < tc->n; i++)
			tmp[i] = (struct tsync_sort){tc->s[i], (uint32_t) i};
		qsort(tmp, tc->n, sizeof(*tmp), tsync_cmp);
		for (j = 0, k = 0; j < tc->n; j++)
			if (j == 0 || tmp[j].s.time != tmp[j - 1].s.time)
				tc->s[k++] = tmp[j].s;
		tc->n = (uint32_t) k;
		free(tmp);
	}
	o->info->tsync = ts;
	return TK_OK;
}

/*
 * What one option means (it is already in info.options). @opts is the options region and @at
 * the option's start there; @c covers its payload.
 */
static enum tk_status handle_option(struct tracedat_open *o, uint16_t id,
				    const struct tracedat_cur *opts, size_t at,
				    struct tracedat_cur *c)
{
	struct tracedat_info *in = o->info;
	const uint8_t *data = c->p;
	size_t size = c->size;
	long was_buffer = o->last_buffer;
	int64_t v;

	o->last_buffer = -1;
	switch (id) {
	case TRACEDAT_OPTION_DATE:
		if (parse_int_text(data, size, &v) < 0)
			return opt_fail(opts, at, id, "not an integer");
		if (v > INT64_MAX / 1000 || v < INT64_MIN / 1000 ||
		    __builtin_add_overflow(in->date_offset_ns, v * 1000, &in->date_offset_ns))
			return opt_fail(opts, at, id, "offset in nanoseconds overflows 64 bits");
		in->has_date = 1;
		return TK_OK;
	case TRACEDAT_OPTION_OFFSET:
		if (parse_int_text(data, size, &v) < 0)
			return opt_fail(opts, at, id, "not an integer");
		if (__builtin_add_overflow(in->offset_ns, v, &in->offset_ns))
			return opt_fail(opts, at, id, "offset in nanoseconds overflows 64 bits");
		in->has_offset = 1;
		return TK_OK;
	case TRACEDAT_OPTION_CPUSTAT: {
		struct tracedat_blob *b = vec_push(&o->p->cpustats, sizeof(*b));

		if (!b)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat option: id=%u", id);
		b->data = data;
		b->len = size && data[size - 1] == '\0' ? size - 1 : size;
		return TK_OK;
	}
	case TRACEDAT_OPTION_BUFFER:
		if (in->version >= 7)
			return parse_buffer_v7(o, id, opts, at, c);
		return parse_buffer_v6(o, opts, at, c);
	case TRACEDAT_OPTION_BUFFER_TEXT:
		if (in->version >= 7)
			return parse_buffer_v7(o, id, opts, at, c);
		return TK_OK;
	case TRACEDAT_OPTION_TRACECLOCK:
		if (size && data[0]) {
			in->trace_clock = tracedat_dup_text(o, data, size);
			if (!in->trace_clock)
				return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat option: id=%u",
					       id);
			o->clock_seen = TRACEDAT_CLOCK_SEEN_TEXT;
		} else if (o->clock_seen == TRACEDAT_CLOCK_SEEN_NONE) {
			o->clock_seen = TRACEDAT_CLOCK_SEEN_EMPTY;
		}
		return TK_OK;
	case TRACEDAT_OPTION_UNAME:
	case TRACEDAT_OPTION_VERSION: {
		const char *s = tracedat_dup_text(o, data, size);

		if (!s)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat option: id=%u", id);
		if (id == TRACEDAT_OPTION_UNAME)
			in->uname = s;
		else
			in->tc_version = s;
		return TK_OK;
	}
	case TRACEDAT_OPTION_CPUCOUNT: {
		uint32_t n;

		if (size < 4)
			return opt_fail(opts, at, id, "payload shorter than 4 bytes");
		n = tk_load_u32(data, o->bo);
		if (in->version < 7 && was_buffer >= 0) {
			VEC_AT(&o->v6_instances, struct tracedat_v6_instance, was_buffer).ncpu = n;
		} else {
			in->cpus = n;
			o->have_cpucount = 1;
		}
		return TK_OK;
	}
	case TRACEDAT_OPTION_TSC2NSEC:
		if (size < 16)
			return opt_fail(opts, at, id, "payload shorter than 16 bytes");
		in->tsc2nsec_mult = tk_load_u32(data, o->bo);
		in->tsc2nsec_shift = tk_load_u32(data + 4, o->bo);
		in->tsc2nsec_offset = tk_load_u64(data + 8, o->bo);
		if (in->tsc2nsec_shift > 63)
			return opt_fail(opts, at, id, "shift larger than 63");
		in->has_tsc2nsec = 1;
		return TK_OK;
	case TRACEDAT_OPTION_TIME_SHIFT:
		return parse_time_shift(o, opts, at, data, size);
	case TRACEDAT_OPTION_HEADER_INFO:
	case TRACEDAT_OPTION_FTRACE_EVENTS:
	case TRACEDAT_OPTION_EVENT_FORMATS:
	case TRACEDAT_OPTION_KALLSYMS:
	case TRACEDAT_OPTION_PRINTK:
	case TRACEDAT_OPTION_CMDLINES:
		if (in->version < 7)
			return TK_OK; /* not a v6 option: kept raw */
		if (size < 8)
			return opt_fail(opts, at, id, "payload shorter than 8 bytes");
		o->sec_off[id - TRACEDAT_OPTION_HEADER_INFO] = tk_load_u64(data, o->bo);
		o->have_sec[id - TRACEDAT_OPTION_HEADER_INFO] = 1;
		return TK_OK;
	}
	return TK_OK; /* kept raw in info.options only */
}

/*
 * Options until DONE: v6 DONE is a bare u16 0; v7 DONE has size 8 and the file offset of the
 * next options section (0 for none), returned in *@next.
 */
enum tk_status tracedat_read_options(struct tracedat_open *o, struct tracedat_cur *c,
				     uint64_t *next)
{
	int v7 = o->info->version >= 7;

	*next = 0;
	for (;;) {
		struct tracedat_option *opt;
		struct tracedat_cur payload;
		const uint8_t *data;
		size_t at = c->off;
		uint16_t id;
		uint32_t size;
		enum tk_status st;

		if (tracedat_cur_u16(c, &id, "options") < 0)
			return TK_ERR_FORMAT;
		if (id == TRACEDAT_OPTION_DONE && !v7)
			return TK_OK;
		if (tracedat_cur_u32(c, &size, "options") < 0)
			return TK_ERR_FORMAT;
		if (tracedat_cur_bytes(c, size, &data, "option") < 0)
			return TK_FAIL(TK_ERR_FORMAT, "Cannot read trace.dat option: id=%u (%s)",
				       id, tracedat_option_name(id));
		if (id == TRACEDAT_OPTION_DONE) {
			if (size < 8)
				return opt_fail(c, at, id, "payload shorter than 8 bytes");
			*next = tk_load_u64(data, o->bo);
			return TK_OK;
		}
		if (o->p->options.len == TRACEDAT_MAX_OPTIONS)
			return opt_fail(c, at, id, "more options than this reader accepts");
		opt = vec_push(&o->p->options, sizeof(*opt));
		if (!opt)
			return TK_FAIL(TK_ERR_NOMEM, "Cannot read trace.dat options");
		opt->id = id;
		opt->data = data;
		opt->size = size;
		tracedat_cur_sub(&payload, c, at + 6, size, "option");
		st = handle_option(o, id, c, at, &payload);
		if (st < 0)
			return st;
	}
}

const char *tracedat_option_name(uint16_t id)
{
	static const char *const names[] = {
		"DONE",		"DATE",	       "CPUSTAT",	"BUFFER",	 "TRACECLOCK",
		"UNAME",	"HOOK",	       "OFFSET",	"CPUCOUNT",	 "VERSION",
		"PROCMAPS",	"TRACEID",     "TIME_SHIFT",	"GUEST",	 "TSC2NSEC",
		"STRINGS",	"HEADER_INFO", "FTRACE_EVENTS", "EVENT_FORMATS", "KALLSYMS",
		"PRINTK",	"CMDLINES",    "BUFFER_TEXT",	"BTF_FILE",	 "LAST_BOOT_INFO",
		"MODULES_FILE",
	};

	return id < TK_ARRAY_SIZE(names) ? names[id] : "UNKNOWN";
}
