// SPDX-License-Identifier: MIT
/*
 * The ftrace metadata of a trace.dat file, kept in the environment (`env`) of the CTF trace
 * converted from it, so that `tracekit convert` can make the same trace.dat file again from
 * the CTF trace: the same header_page and formats, records at the same field offsets, the
 * same options. A CTF trace has no other place for text that is not per event, and readers
 * that do not know these keys show them nowhere.
 *
 * Keys (values are strings unless said; <ID>, <N>, <K> decimal numbers):
 *
 *   tracekit_ftrace            integer 1: this layout; without it the other keys are ignored
 *   ftrace_file_version        integer 6 or 7, of the original file
 *   ftrace_compression         "none", "zstd" or "zlib"
 *   ftrace_byte_order          "le" or "be", of the recording kernel (records and options)
 *   ftrace_long_size           integer 4 or 8, the file header's long size byte
 *   ftrace_page_size           integer, the ring-buffer sub-buffer size
 *   ftrace_cpus                integer, the CPU count ("cpus=N")
 *   ftrace_header_page         the events/header_page text (page layout)
 *   ftrace_header_event        the events/header_event text
 *   ftrace_trace_clock         the trace_clock text ("[local] global ..."), when known
 *   ftrace_event_<ID>_system   the system of the event format with that ID (= common_type,
 *                              the event context's first field): "sched"; "ftrace" for
 *                              ftrace's own events (function, bprint, ...)
 *   ftrace_event_<ID>_format   its `format` text, only for events written to the CTF trace
 *   ftrace_printk              printk_formats, ftrace_cmdlines saved_cmdlines, ftrace_kallsyms
 *                              /proc/kallsyms: the texts as the file holds them
 *   ftrace_option_<N>          an option to write back, N = 1, 2, ... in file order:
 *                              "<option id> text <text>" for options holding one
 *                              NUL-terminated text (UNAME, VERSION, DATE, OFFSET, CPUSTAT...),
 *                              else "<option id> hex <bytes as hex digits>" (file byte order)
 *   ftrace_buffer_<K>_name     ring buffer K (0 = top, then instances in file order): its
 *                              name ("" for the top one), ftrace_buffer_<K>_clock its clock,
 *                              ftrace_buffer_<K>_stream_class (integer) the CTF stream class
 *                              of its events, absent when it had none
 *
 * A text longer than CONVERT_ENV_PART_MAX bytes (kallsyms: megabytes) is cut after a
 * newline into parts: KEY holds the first, KEY_2, KEY_3, ... the next ones. babeltrace2
 * 2.0.4 takes time quadratic in the length of one string literal (31 s for 5 MB of
 * kallsyms in one entry, 0.3 s in parts of 16 KiB), and kallsyms is carried because it
 * makes `tracekit print` and `trace-cmd report` of the file made back show function names
 * as the original does. Texts end at their first NUL byte, as the trace.dat readers read
 * them. The CTF writer escapes quotes, backslashes and control bytes of every value.
 *
 * What the values say about time: the CTF clock counts the file's nanoseconds less its DATE
 * and OFFSET options, which are kept; TSC2NSEC is kept with multiplier 1 and shift 0, since
 * the CTF times are nanoseconds already; TIME_SHIFT (guest clock samples) is dropped for the
 * same reason.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bytes.h"
#include "../common/error.h"
#include "../common/vec.h"
#include "../ftrace/ftrace.h"
#include "source.h"
#include "tracedat-write.h"
#include "tracedat-env.h"

#define KEY_MAX 96

/* ---- writing ------------------------------------------------------------------------------ */

/* @len bytes of text at @data (up to a NUL) as KEY, KEY_2, ... of at most PART_MAX bytes. */
static enum tk_status put_text(const struct model_env_out *w, const char *key, const void *data,
			       size_t len)
{
	const char *p = data, *nul = len ? memchr(p, 0, len) : NULL;
	char name[KEY_MAX], *part;
	enum tk_status st = TK_OK;
	size_t k = 1;

	if (nul)
		len = (size_t) (nul - p);
	part = malloc(CONVERT_ENV_PART_MAX + 1);
	if (!part)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot keep ftrace metadata: key=%s", key);
	do {
		size_t n = len;

		if (n > CONVERT_ENV_PART_MAX) {
			const char *nl = memrchr(p, '\n', CONVERT_ENV_PART_MAX);

			n = nl ? (size_t) (nl - p) + 1 : CONVERT_ENV_PART_MAX;
		}
		memcpy(part, p, n);
		part[n] = '\0';
		if (k == 1)
			snprintf(name, sizeof(name), "%s", key);
		else
			snprintf(name, sizeof(name), "%s_%zu", key, k);
		st = w->put(w->payload, name, part, 0);
		p += n;
		len -= n;
		k++;
	} while (st >= 0 && len);
	free(part);
	return st;
}

/* The "ID:" line of a format text, or -1. */
static int64_t format_id(const uint8_t *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (len - i > 3 && !memcmp(text + i, "ID:", 3)) {
			uint64_t v = 0;
			size_t j = i + 3;

			while (j < len && (text[j] == ' ' || text[j] == '\t'))
				j++;
			if (j == len || text[j] < '0' || text[j] > '9')
				return -1;
			while (j < len && text[j] >= '0' && text[j] <= '9' && v < UINT32_MAX)
				v = v * 10 + (uint64_t) (text[j++] - '0');
			return v <= UINT32_MAX ? (int64_t) v : -1;
		}
		while (i < len && text[i] != '\n')
			i++;
		i++;
	}
	return -1;
}

/* The format text of event @id of @system in the file, or NULL. */
const struct tracedat_blob *tracedat_format_text(const struct tracedat_info *in, const char *system,
						 uint32_t id)
{
	size_t i, j;

	if (!strcmp(system, "ftrace"))
		for (i = 0; i < in->n_ftrace_formats; i++)
			if (format_id(in->ftrace_formats[i].data, in->ftrace_formats[i].len) == id)
				return &in->ftrace_formats[i];
	for (i = 0; i < in->n_systems; i++) {
		if (strcmp(in->systems[i].name, system))
			continue;
		for (j = 0; j < in->systems[i].n_formats; j++)
			if (format_id(in->systems[i].formats[j].data,
				      in->systems[i].formats[j].len) == id)
				return &in->systems[i].formats[j];
	}
	return NULL;
}

static enum tk_status put_format(const struct model_env_out *w, const struct tracedat_info *in,
				 const struct ftrace_event *fev)
{
	const struct tracedat_blob *b = tracedat_format_text(in, fev->system, fev->id);
	char key[KEY_MAX];
	enum tk_status st;

	if (!b)
		return TK_OK; /* a format text without "ID:" cannot have been read either */
	snprintf(key, sizeof(key), "ftrace_event_%" PRIu32 "_system", fev->id);
	st = w->put(w->payload, key, fev->system, 0);
	snprintf(key, sizeof(key), "ftrace_event_%" PRIu32 "_format", fev->id);
	if (st >= 0)
		st = put_text(w, key, b->data, b->len);
	return st;
}

/* Formats by ID (the kernel's IDs are unique across systems). */
static int cmp_id(const void *a, const void *b)
{
	uint32_t x = (*(const struct ftrace_event *const *) a)->id;
	uint32_t y = (*(const struct ftrace_event *const *) b)->id;

	return (x > y) - (x < y);
}

/*
 * The formats of @src's event classes, those @classes marks (by trace index) or all, each
 * once: every buffer of a file has a class of each format, and they share it.
 */
static enum tk_status put_formats(const struct model_env_out *w, const struct tk_source *src,
				  const struct tracedat_info *in, const uint8_t *used,
				  size_t n_used)
{
	const struct ftrace_event **fevs;
	enum tk_status st = TK_OK;
	size_t i, j, n = 0, cap = 0;

	for (i = 0; i < src->n_scs; i++)
		cap += src->scs[i]->n_ecs;
	fevs = malloc((cap + 1) * sizeof(*fevs));
	if (!fevs)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot keep ftrace metadata");
	for (i = 0; i < src->n_scs; i++)
		for (j = 0; j < src->scs[i]->n_ecs; j++) {
			const struct tk_event_class *ec = src->scs[i]->ecs[j];

			if (ec->fmt && (!used || (ec->index < n_used && used[ec->index])))
				fevs[n++] = ec->fmt;
		}
	qsort(fevs, n, sizeof(*fevs), cmp_id);
	for (i = 0; st >= 0 && i < n; i++)
		if (!i || fevs[i]->id != fevs[i - 1]->id)
			st = put_format(w, in, fevs[i]);
	free(fevs);
	return st;
}

/* Whether an option payload is one NUL-terminated text (and nothing else). */
static int option_is_text(const uint8_t *p, uint32_t size)
{
	return size && !p[size - 1] && !memchr(p, 0, size - 1);
}

static enum tk_status put_option(const struct model_env_out *w, size_t n, uint16_t id,
				 const uint8_t *p, uint32_t size)
{
	static const char hex[] = TK_HEX_LOWER;
	char key[KEY_MAX], *v;
	size_t k, at;
	enum tk_status st;

	v = malloc(32 + 2 * (size_t) size);
	if (!v)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot keep trace.dat option: id=%u", id);
	if (option_is_text(p, size)) {
		at = (size_t) sprintf(v, "%u text ", id);
		memcpy(v + at, p, size); /* with its NUL */
	} else {
		at = (size_t) sprintf(v, "%u hex ", id);
		for (k = 0; k < size; k++) {
			v[at++] = hex[p[k] >> 4];
			v[at++] = hex[p[k] & 15];
		}
		v[at] = '\0';
	}
	snprintf(key, sizeof(key), "ftrace_option_%zu", n);
	st = w->put(w->payload, key, v, 0);
	free(v);
	return st;
}

/* Every option to write back; see the file comment for what changes. */
static enum tk_status put_options(const struct model_env_out *w, const struct tracedat_info *in)
{
	enum tk_status st = TK_OK;
	size_t i, n = 0;

	for (i = 0; st >= 0 && i < in->n_options; i++) {
		const struct tracedat_option *o = &in->options[i];

		if (tracedat_writer_option_reserved(o->id) || o->id == TRACEDAT_OPTION_TIME_SHIFT)
			continue;
		if (o->id == TRACEDAT_OPTION_TSC2NSEC) {
			uint8_t one[16] = {0};

			tk_store_u32(one, 1, in->bo); /* multiplier 1, shift 0, offset 0 */
			st = put_option(w, ++n, o->id, one, sizeof(one));
			continue;
		}
		st = put_option(w, ++n, o->id, o->data, o->size);
	}
	return st;
}

static enum tk_status put_buffers(const struct model_env_out *w, const struct tracedat_info *in,
				  const uint64_t *sc_of_buffer, size_t n_buffers)
{
	char key[KEY_MAX];
	enum tk_status st = TK_OK;
	size_t b;

	for (b = 0; st >= 0 && b < in->n_buffers; b++) {
		snprintf(key, sizeof(key), "ftrace_buffer_%zu_name", b);
		st = w->put(w->payload, key, in->buffers[b].name, 0);
		if (st >= 0 && in->buffers[b].clock) {
			snprintf(key, sizeof(key), "ftrace_buffer_%zu_clock", b);
			st = w->put(w->payload, key, in->buffers[b].clock, 0);
		}
		if (st >= 0 && b < n_buffers && sc_of_buffer[b] != UINT64_MAX) {
			snprintf(key, sizeof(key), "ftrace_buffer_%zu_stream_class", b);
			st = w->put(w->payload, key, NULL, (int64_t) sc_of_buffer[b]);
		}
	}
	return st;
}

/* The trace_clock text as the file has it (TRACECLOCK, else the v6 clock text). */
static const char *clock_text(const struct tracedat_info *in, size_t *len)
{
	size_t i;

	for (i = in->n_options; i-- > 0;)
		if (in->options[i].id == TRACEDAT_OPTION_TRACECLOCK && in->options[i].size &&
		    in->options[i].data[0]) {
			*len = in->options[i].size;
			return (const char *) in->options[i].data;
		}
	*len = in->trace_clock ? strlen(in->trace_clock) : 0;
	return in->trace_clock;
}

enum tk_status convert_env_host(const struct model_env_out *w, const struct tracedat_info *in)
{
	char host[256] = "", sys[64] = "", rel[128] = "";
	enum tk_status st;

	if (in->uname)
		sscanf(in->uname, "%63s %255s %127s", sys, host, rel);
	st = w->put(w->payload, "domain", "kernel", 0);
	if (st >= 0)
		st = w->put(w->payload, "tracer_name", "tracekit", 0);
	if (st >= 0 && host[0])
		st = w->put(w->payload, "hostname", host, 0);
	if (st >= 0 && sys[0])
		st = w->put(w->payload, "sysname", sys, 0);
	if (st >= 0 && rel[0])
		st = w->put(w->payload, "kernel_release", rel, 0);
	return st;
}

enum tk_status convert_env_write(const struct model_env_out *w, const struct tk_source *src,
				 const uint64_t *sc_of_buffer, size_t n_buffers,
				 const uint8_t *used, size_t n_used)
{
	const struct tracedat_info *in = tracedat_source_info(src);
	const char *clock;
	uint32_t cpus;
	size_t i, j, clock_len;
	enum tk_status st;

	if (!in)
		return TK_OK;
	cpus = in->cpus;
	for (i = 0; i < in->n_buffers; i++)
		for (j = 0; j < in->buffers[i].n_cpus; j++)
			if (in->buffers[i].cpus[j].cpu >= cpus)
				cpus = in->buffers[i].cpus[j].cpu + 1;
	st = w->put(w->payload, "tracekit_ftrace", NULL, CONVERT_ENV_VERSION);
	if (st >= 0)
		st = w->put(w->payload, "ftrace_file_version", NULL, in->version);
	if (st >= 0)
		st = w->put(w->payload, "ftrace_compression",
			    in->compression ? in->compression : "none", 0);
	if (st >= 0)
		st = w->put(w->payload, "ftrace_byte_order",
			    in->bo == TK_BYTE_ORDER_BE ? "be" : "le", 0);
	if (st >= 0)
		st = w->put(w->payload, "ftrace_long_size", NULL, in->header_long_size);
	if (st >= 0)
		st = w->put(w->payload, "ftrace_page_size", NULL, in->page_size);
	if (st >= 0)
		st = w->put(w->payload, "ftrace_cpus", NULL, cpus);
	if (st >= 0)
		st = put_text(w, "ftrace_header_page", in->header_page.data, in->header_page.len);
	if (st >= 0)
		st = put_text(w, "ftrace_header_event", in->header_event.data,
			      in->header_event.len);
	clock = clock_text(in, &clock_len);
	if (st >= 0 && clock)
		st = put_text(w, "ftrace_trace_clock", clock, clock_len);
	if (st >= 0)
		st = put_formats(w, src, in, used, n_used);
	if (st >= 0)
		st = put_text(w, "ftrace_printk", in->printk.data, in->printk.len);
	if (st >= 0)
		st = put_text(w, "ftrace_cmdlines", in->cmdlines.data, in->cmdlines.len);
	if (st >= 0)
		st = put_text(w, "ftrace_kallsyms", in->kallsyms.data, in->kallsyms.len);
	if (st >= 0)
		st = put_options(w, in);
	if (st >= 0)
		st = put_buffers(w, in, sc_of_buffer, n_buffers);
	if (st < 0)
		return TK_FAIL(st, "Cannot keep ftrace metadata in the CTF environment");
	return TK_OK;
}

/* ---- reading ------------------------------------------------------------------------------ */

#define MAX_PARTS  (1u << 20)
#define MAX_NUMBER (UINT64_C(1) << 32)

static enum tk_status bad(const char *key, const char *reason)
{
	return TK_FAIL(TK_ERR_FORMAT, "Cannot read ftrace environment: key=%s, reason=%s", key,
		       reason);
}

/*
 * A decimal number of at most @max at @s (no sign, no leading zero but "0"), ending at
 * @end or at the NUL: the number of characters read, or 0.
 */
static size_t parse_num(const char *s, char end, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (s[0] == '0' && s[1] >= '0' && s[1] <= '9')
		return 0;
	while (s[i] >= '0' && s[i] <= '9') {
		v = v * 10 + (uint64_t) (s[i] - '0');
		if (v > max)
			return 0;
		i++;
	}
	if (!i || s[i] != end)
		return 0;
	*out = v;
	return i;
}

static const struct model_env *find(const struct model_env *env, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(env[i].key, key))
			return &env[i];
	return NULL;
}

static enum tk_status get_int(const struct model_env *env, size_t n, const char *key, int64_t lo,
			      int64_t hi, int64_t *out)
{
	const struct model_env *e = find(env, n, key);

	if (!e)
		return bad(key, "missing");
	if (e->str || e->integer < lo || e->integer > hi)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ftrace environment: key=%s, reason=not an integer from "
			       "%" PRId64 " to %" PRId64,
			       key, lo, hi);
	*out = e->integer;
	return TK_OK;
}

static enum tk_status get_str(const struct model_env *env, size_t n, const char *key, int required,
			      const char **out)
{
	const struct model_env *e = find(env, n, key);

	*out = NULL;
	if (!e)
		return required ? bad(key, "missing") : TK_OK;
	if (!e->str)
		return bad(key, "not a string");
	*out = e->str;
	return TK_OK;
}

struct part {
	uint64_t n;
	const char *s;
};

static int cmp_part(const void *a, const void *b)
{
	const struct part *x = a, *y = b;

	return x->n < y->n ? -1 : x->n > y->n;
}

/* The text of KEY, KEY_2, KEY_3, ... put together; empty when KEY is absent and !@required. */
static enum tk_status get_text(struct convert_env *out, const struct model_env *env, size_t n,
			       const char *key, int required, struct convert_env_text *t)
{
	size_t klen = strlen(key), i, np = 0, len = 0;
	struct part *parts = NULL;
	enum tk_status st = TK_OK;
	char *p;

	t->data = "";
	t->len = 0;
	for (i = 0; i < n; i++)
		if (!strncmp(env[i].key, key, klen) &&
		    (!env[i].key[klen] || env[i].key[klen] == '_'))
			np++;
	if (!np)
		return required ? bad(key, "missing") : TK_OK;
	parts = calloc(np, sizeof(*parts));
	if (!parts)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read ftrace environment: key=%s", key);
	np = 0;
	for (i = 0; i < n && st >= 0; i++) {
		const char *rest = env[i].key + klen;
		uint64_t k = 1;

		if (strncmp(env[i].key, key, klen) || (*rest && *rest != '_'))
			continue;
		if (*rest && (!parse_num(rest + 1, '\0', MAX_PARTS, &k) || k < 2))
			continue; /* another key that starts the same (ftrace_event_1 and _12) */
		if (!env[i].str) {
			st = bad(env[i].key, "not a string");
			break;
		}
		parts[np].n = k;
		parts[np++].s = env[i].str;
	}
	if (st >= 0 && !np && required)
		st = bad(key, "missing");
	if (st >= 0 && np) {
		qsort(parts, np, sizeof(*parts), cmp_part);
		for (i = 0; i < np; i++) {
			if (parts[i].n != i + 1) {
				st = TK_FAIL(TK_ERR_FORMAT,
					     "Cannot read ftrace environment: key=%s, part=%zu, "
					     "reason=%s",
					     key, i + 1,
					     parts[i].n < i + 1 ? "given twice" : "missing");
				break;
			}
			len += strlen(parts[i].s);
		}
	}
	if (st >= 0 && np == 1) {
		t->data = parts[0].s;
		t->len = len;
	} else if (st >= 0 && np) {
		p = arena_alloc(&out->arena, len + 1);
		if (!p) {
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot read ftrace environment: key=%s", key);
		} else {
			t->data = p;
			t->len = len;
			for (i = 0; i < np; i++) {
				size_t k = strlen(parts[i].s);

				memcpy(p, parts[i].s, k);
				p += k;
			}
			*p = '\0';
		}
	}
	free(parts);
	return st;
}

/* "<id> text <text>" or "<id> hex <digits>" (see the file comment). */
static enum tk_status parse_option(struct convert_env *out, const char *key, const char *v,
				   struct convert_env_option *o)
{
	uint64_t id;
	size_t at = parse_num(v, ' ', UINT16_MAX, &id), len, i;
	uint8_t *p;

	if (!at)
		return bad(key, "no option id (0 to 65535) first");
	if (tracedat_writer_option_reserved((uint16_t) id) || id == TRACEDAT_OPTION_TIME_SHIFT)
		return TK_FAIL(TK_ERR_FORMAT,
			       "Cannot read ftrace environment: key=%s, option=%" PRIu64
			       ", reason=an option the conversion makes itself",
			       key, id);
	o->id = (uint16_t) id;
	v += at + 1;
	if (!strncmp(v, "text ", 5)) {
		o->data = (const uint8_t *) v + 5;
		o->size = (uint32_t) strlen(v + 5) + 1; /* with its NUL */
		return TK_OK;
	}
	if (strncmp(v, "hex ", 4))
		return bad(key, "neither text nor hex");
	v += 4;
	len = strlen(v);
	if (len % 2 || len / 2 > UINT32_MAX)
		return bad(key, "odd number of hex digits");
	p = arena_alloc(&out->arena, len / 2 + 1);
	if (!p)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read ftrace environment: key=%s", key);
	for (i = 0; i < len / 2; i++) {
		int hi = tk_hex_value(v[2 * i]), lo = tk_hex_value(v[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return bad(key, "not a hex digit");
		p[i] = (uint8_t) (hi << 4 | lo);
	}
	o->data = p;
	o->size = (uint32_t) (len / 2);
	return TK_OK;
}

static int cmp_format(const void *a, const void *b)
{
	const struct convert_env_format *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

struct numbered_option {
	uint64_t n;
	struct convert_env_option o;
};

static int cmp_numbered(const void *a, const void *b)
{
	const struct numbered_option *x = a, *y = b;

	return x->n < y->n ? -1 : x->n > y->n;
}

/* ftrace_event_<ID>_system entries with their format texts, and ftrace_option_<N>. */
static enum tk_status read_lists(struct convert_env *out, const struct model_env *env, size_t n)
{
	struct vec formats = VEC_INIT, options = VEC_INIT;
	char key[KEY_MAX];
	enum tk_status st = TK_OK;
	size_t i;

	for (i = 0; i < n && st >= 0; i++) {
		const char *k = env[i].key;
		uint64_t num;

		if (!strncmp(k, "ftrace_event_", 13) && parse_num(k + 13, '_', UINT32_MAX, &num) &&
		    !strcmp(k + 13 + strcspn(k + 13, "_"), "_system")) {
			struct convert_env_format *f = vec_push(&formats, sizeof(*f));

			if (!f) {
				st = TK_FAIL(TK_ERR_NOMEM, "Cannot read ftrace environment");
				break;
			}
			f->id = (uint32_t) num;
			if (!env[i].str || !*env[i].str) {
				st = bad(k, "not a system name");
				break;
			}
			f->system = env[i].str;
			snprintf(key, sizeof(key), "ftrace_event_%" PRIu32 "_format", f->id);
			st = get_text(out, env, n, key, 1, &f->text);
		} else if (!strncmp(k, "ftrace_option_", 14) &&
			   parse_num(k + 14, '\0', MAX_NUMBER, &num)) {
			struct numbered_option *o = vec_push(&options, sizeof(*o));

			if (!o) {
				st = TK_FAIL(TK_ERR_NOMEM, "Cannot read ftrace environment");
				break;
			}
			o->n = num;
			if (!env[i].str)
				st = bad(k, "not a string");
			else
				st = parse_option(out, k, env[i].str, &o->o);
		}
	}
	if (st >= 0) {
		sort_array(formats.data, formats.len, sizeof(struct convert_env_format),
			   cmp_format);
		for (i = 1; i < formats.len && st >= 0; i++)
			if (VEC_AT(&formats, struct convert_env_format, i).id ==
			    VEC_AT(&formats, struct convert_env_format, i - 1).id)
				st = TK_FAIL(TK_ERR_FORMAT,
					     "Cannot read ftrace environment: event-id=%" PRIu32
					     ", reason=given twice",
					     VEC_AT(&formats, struct convert_env_format, i).id);
		sort_array(options.data, options.len, sizeof(struct numbered_option), cmp_numbered);
	}
	if (st >= 0 && options.len) {
		out->options = arena_alloc(&out->arena, options.len * sizeof(*out->options));
		if (!out->options)
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot read ftrace environment");
		for (i = 0; st >= 0 && i < options.len; i++)
			out->options[i] = VEC_AT(&options, struct numbered_option, i).o;
		out->n_options = st >= 0 ? options.len : 0;
	}
	out->formats = formats.data; /* freed by convert_env_fini() */
	out->n_formats = formats.len;
	vec_fini(&options);
	return st;
}

/* ftrace_buffer_<K>_name for K = 0, 1, ... up to the first missing one. */
static enum tk_status read_buffers(struct convert_env *out, const struct model_env *env, size_t n)
{
	char key[KEY_MAX];
	enum tk_status st = TK_OK;
	size_t k, count = 0;

	while (count < n) {
		snprintf(key, sizeof(key), "ftrace_buffer_%zu_name", count);
		if (!find(env, n, key))
			break;
		count++;
	}
	if (!count)
		return bad("ftrace_buffer_0_name", "missing");
	out->buffers = arena_alloc(&out->arena, count * sizeof(*out->buffers));
	if (!out->buffers)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read ftrace environment");
	memset(out->buffers, 0, count * sizeof(*out->buffers));
	out->n_buffers = count;
	for (k = 0; k < count && st >= 0; k++) {
		struct convert_env_buffer *b = &out->buffers[k];
		const struct model_env *e;

		snprintf(key, sizeof(key), "ftrace_buffer_%zu_name", k);
		st = get_str(env, n, key, 1, &b->name);
		if (st >= 0 && (k == 0) != !*b->name)
			st = bad(key,
				 k ? "an instance without a name" : "a top buffer with a name");
		snprintf(key, sizeof(key), "ftrace_buffer_%zu_clock", k);
		if (st >= 0)
			st = get_str(env, n, key, 0, &b->clock);
		snprintf(key, sizeof(key), "ftrace_buffer_%zu_stream_class", k);
		e = find(env, n, key);
		if (st >= 0 && e) {
			if (e->str || e->integer < 0)
				st = bad(key, "not a stream class id");
			b->has_sc = 1;
			b->sc_id = (uint64_t) e->integer;
		}
	}
	return st;
}

enum tk_status convert_env_read(struct convert_env *out, const struct model_env *env, size_t n)
{
	const struct model_env *mark;
	const char *bo;
	int64_t v = 0;
	enum tk_status st;

	memset(out, 0, sizeof(*out));
	arena_init(&out->arena);
	out->header_page.data = out->header_event.data = out->trace_clock.data = "";
	out->kallsyms.data = out->printk.data = out->cmdlines.data = "";
	mark = find(env, n, "tracekit_ftrace");
	if (!mark)
		return TK_OK;
	if (mark->str || mark->integer < 1)
		return bad("tracekit_ftrace", "not a layout version");
	if (mark->integer != CONVERT_ENV_VERSION)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot read ftrace environment: tracekit_ftrace=%" PRId64
			       ", reason=a layout this version does not know",
			       mark->integer);
	st = get_int(env, n, "ftrace_file_version", 6, 7, &v);
	out->file_version = (unsigned int) v;
	if (st >= 0)
		st = get_str(env, n, "ftrace_compression", 1, &out->compression);
	if (st >= 0)
		st = get_str(env, n, "ftrace_byte_order", 1, &bo);
	if (st >= 0 && strcmp(bo, "le") && strcmp(bo, "be"))
		st = bad("ftrace_byte_order", "neither le nor be");
	if (st >= 0)
		out->bo = !strcmp(bo, "be") ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE;
	if (st >= 0 && (st = get_int(env, n, "ftrace_long_size", 4, 8, &v)) >= 0) {
		if (v != 4 && v != 8)
			st = bad("ftrace_long_size", "neither 4 nor 8");
		out->long_size = (unsigned int) v;
	}
	if (st >= 0 && (st = get_int(env, n, "ftrace_page_size", 4096, 1 << 24, &v)) >= 0) {
		if (v & (v - 1))
			st = bad("ftrace_page_size", "not a power of two");
		out->page_size = (uint32_t) v;
	}
	if (st >= 0 && (st = get_int(env, n, "ftrace_cpus", 0, 65536, &v)) >= 0)
		out->cpus = (uint32_t) v;
	if (st >= 0)
		st = get_text(out, env, n, "ftrace_header_page", 1, &out->header_page);
	if (st >= 0)
		st = get_text(out, env, n, "ftrace_header_event", 0, &out->header_event);
	if (st >= 0)
		st = get_text(out, env, n, "ftrace_trace_clock", 0, &out->trace_clock);
	if (st >= 0)
		st = get_text(out, env, n, "ftrace_printk", 0, &out->printk);
	if (st >= 0)
		st = get_text(out, env, n, "ftrace_cmdlines", 0, &out->cmdlines);
	if (st >= 0)
		st = get_text(out, env, n, "ftrace_kallsyms", 0, &out->kallsyms);
	if (st >= 0)
		st = read_lists(out, env, n);
	if (st >= 0)
		st = read_buffers(out, env, n);
	if (st >= 0)
		out->present = 1;
	return st;
}

void convert_env_fini(struct convert_env *e)
{
	free(e->formats);
	e->formats = NULL;
	e->n_formats = 0;
	arena_fini(&e->arena);
}
