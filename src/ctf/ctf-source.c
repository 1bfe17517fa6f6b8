// SPDX-License-Identifier: MIT
/*
 * Finding and opening CTF traces: the metadata stream (plain text or packetized, CTF 1.8.3
 * section 7.1), trace directories found recursively below the paths the user gives, and the
 * grouping babeltrace2 applies: directories whose traces share a UUID (LTTng rotation chunks)
 * are one trace, described by the largest of their metadata streams.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/error.h"
#include "../eventheader/eventheader.h"
#include "ctf.h"

#define METADATA_MAGIC	     UINT32_C(0x75D11D57)
#define METADATA_HEADER_SIZE 37

/* ---- metadata stream --------------------------------------------------------------------- */

static enum tk_status unpack_metadata(const uint8_t *data, size_t size, const char *path,
				      char **out, size_t *len, unsigned int *flags)
{
	enum tk_byte_order bo =
		tk_load_le32(data) == METADATA_MAGIC ? TK_BYTE_ORDER_LE : TK_BYTE_ORDER_BE;
	uint8_t uuid[16];
	size_t off = 0, n = 0, k = 0;
	char *text = malloc(size + 1);

	if (!text)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read metadata: path=%s", path);
	while (off < size) {
		const uint8_t *h = data + off;
		uint32_t content, packet;

		if (size - off < METADATA_HEADER_SIZE)
			goto bad_header;
		if (tk_load_u32(h, bo) != METADATA_MAGIC)
			goto bad_header;
		content = tk_load_u32(h + 24, bo);
		packet = tk_load_u32(h + 28, bo);
		if (h[32] || h[33] || h[34] || tk_load_u32(h + 20, bo)) {
			free(text);
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot read metadata packet: path=%s, "
				       "packet=%zu, offset=%zu, reason=compression, encryption or "
				       "checksums are not supported",
				       path, k, off);
		}
		if (!(h[35] == 1 && h[36] == 8) && !(h[35] == 2 && h[36] == 0)) {
			free(text);
			return TK_FAIL(TK_ERR_UNSUPPORTED,
				       "Cannot read metadata packet: path=%s, "
				       "packet=%zu, offset=%zu, version=%u.%u, reason=expecting "
				       "1.8 or 2.0",
				       path, k, off, h[35], h[36]);
		}
		if (k == 0)
			memcpy(uuid, h + 4, 16);
		else if (memcmp(uuid, h + 4, 16)) {
			free(text);
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read metadata packet: path=%s, "
				       "packet=%zu, offset=%zu, reason=UUID differs from the first "
				       "packet's",
				       path, k, off);
		}
		if (content / 8 < METADATA_HEADER_SIZE || packet < content ||
		    content / 8 > size - off) {
			free(text);
			return TK_FAIL(TK_ERR_FORMAT,
				       "Cannot read metadata packet: path=%s, "
				       "packet=%zu, offset=%zu, content-size=%u, packet-size=%u, "
				       "reason=sizes do not fit",
				       path, k, off, content, packet);
		}
		memcpy(text + n, h + METADATA_HEADER_SIZE, content / 8 - METADATA_HEADER_SIZE);
		n += content / 8 - METADATA_HEADER_SIZE;
		if (content % 8 || packet % 8)
			*flags |= CTF_METADATA_LENIENT;
		if (packet / 8 > size - off || packet / 8 == 0)
			break; /* missing padding at the end of the stream is tolerated */
		off += packet / 8;
		k++;
	}
	text[n] = '\0';
	*out = text;
	*len = n;
	return TK_OK;
bad_header:
	free(text);
	return TK_FAIL(TK_ERR_FORMAT,
		       "Cannot read metadata packet: path=%s, packet=%zu, "
		       "offset=%zu, reason=bad packet header",
		       path, k, off);
}

int ctf_metadata_looks_valid(const uint8_t *data, size_t size)
{
	size_t i = 0;

	if (size >= 4 &&
	    (tk_load_le32(data) == METADATA_MAGIC || tk_load_be32(data) == METADATA_MAGIC))
		return 1;
	if (size && data[0] == 0x1e) /* CTF 2: a JSON text sequence */
		return 1;
	while (i < size &&
	       (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
		i++;
	return size - i >= 2 && data[i] == '/' && (data[i + 1] == '*' || data[i + 1] == '/');
}

/*
 * The "/ * CTF 1.8" signature of plain text metadata: another version is refused; none at all
 * is read, as babeltrace2 reads it with a warning (CTF_METADATA_LENIENT in *@flags).
 */
static enum tk_status check_signature(const char *text, const char *path, unsigned int *flags)
{
	const char *p = text;
	unsigned long major, minor;
	char *end;

	if (*p == 0x1e) /* CTF 2: JSON fragments, no signature */
		return TK_OK;
	*flags |= CTF_METADATA_LENIENT; /* until the signature is found */
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (strncmp(p, "/*", 2))
		return TK_OK; /* no signature: babeltrace2 only warns */
	p += 2;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (strncmp(p, "CTF", 3))
		return TK_OK;
	p += 3;
	major = strtoul(p, &end, 10);
	if (end == p || *end != '.')
		return TK_OK;
	p = end + 1;
	minor = strtoul(p, &end, 10);
	if (end == p)
		return TK_OK;
	*flags &= ~(unsigned int) CTF_METADATA_LENIENT;
	if (major != 1 || minor != 8)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot read metadata: path=%s, version=%lu.%lu, "
			       "reason=only CTF 1.8 is supported",
			       path, major, minor);
	return TK_OK;
}

enum tk_status ctf_metadata_decode(const uint8_t *data, size_t size, const char *path, char **out,
				   size_t *len, unsigned int *flags)
{
	enum tk_status st;
	char *text;

	*flags = 0;
	if (size >= 4 &&
	    (tk_load_le32(data) == METADATA_MAGIC || tk_load_be32(data) == METADATA_MAGIC)) {
		*flags |= CTF_METADATA_PACKETIZED;
		return unpack_metadata(data, size, path, out, len, flags);
	}
	text = malloc(size + 1);
	if (!text)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot read metadata: path=%s, size=%zu", path, size);
	if (size)
		memcpy(text, data, size);
	text[size] = '\0';
	st = check_signature(text, path, flags);
	if (st < 0) {
		free(text);
		return st;
	}
	*out = text;
	*len = size;
	return TK_OK;
}

enum tk_status ctf_metadata_read(const char *path, char **out, size_t *len, unsigned int *flags)
{
	struct mfile mf;
	enum tk_status st;

	st = mfile_open(&mf, path);
	if (st < 0)
		return st;
	st = ctf_metadata_decode(mf.data, mf.size, path, out, len, flags);
	mfile_close(&mf);
	return st;
}

/* ---- one trace directory -------------------------------------------------------------------- */

static void source_destroy(struct tk_source *src)
{
	if (!src)
		return;
	ctf_streams_close(src);
	arena_fini(&src->arena);
	free(src);
}

/* The first of the stream event context's members @a or @b that is an integer, into *@out. */
static int common_int(const struct tk_event *ev, const char *a, const char *b, int64_t *out)
{
	const struct model_fc *st = ev->stream->sc->event_context;
	const struct model_value *v = ev->scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT];
	uint32_t i;

	if (!st || !v || st->kind != MODEL_FC_STRUCT)
		return 0;
	for (i = 0; i < st->u.st.count; i++) {
		const char *name = st->u.st.members[i].name;

		if ((!strcmp(name, a) || !strcmp(name, b)) &&
		    st->u.st.members[i].fc->kind == MODEL_FC_INT) {
			*out = v->v.i;
			return 1;
		}
		v = model_value_skip(st->u.st.members[i].fc, v);
	}
	return 0;
}

/*
 * An event of any other class in the same layout: "n" its name, each top-level field of
 * its payload that is a number or text as the formatter writes such a value (integers in
 * their base, text as UTF-8), other fields (arrays, structures, variants) as null.
 */
static enum tk_status plain_json(const struct tk_event *ev, const struct eventheader_sample *m,
				 unsigned int json_flags, struct vec *out)
{
	const struct model_fc *st = ev->ec->payload;
	const struct model_value *v = ev->scope[MODEL_SCOPE_PAYLOAD];
	const char *name = ev->ec->name ? ev->ec->name : "";
	struct eventheader_json j;
	uint32_t i;

	eventheader_json_begin(&j, out, json_flags);
	eventheader_json_n(&j, name, strlen(name), NULL, 0);
	for (i = 0; st && v && st->kind == MODEL_FC_STRUCT && i < st->u.st.count; i++) {
		const struct model_fc *fc = st->u.st.members[i].fc;
		const char *mn = st->u.st.members[i].name;

		if (!fc->hidden) {
			uint8_t b[8];

			eventheader_json_member(&j, mn, strlen(mn));
			if (fc->kind == MODEL_FC_INT || fc->kind == MODEL_FC_ENUM) {
				tk_store_u64(b, v->v.u, TK_BYTE_ORDER_LE);
				eventheader_json_put(&j, b, 8, EVENTHEADER_ENC_VALUE64,
						     fc->base == 16  ? EVENTHEADER_FMT_HEX_INT
						     : fc->is_signed ? EVENTHEADER_FMT_SIGNED_INT
								     : EVENTHEADER_FMT_UNSIGNED_INT,
						     TK_BYTE_ORDER_LE);
			} else if (fc->kind == MODEL_FC_FLOAT) {
				memcpy(b, &v->v.d, 8);
				eventheader_json_put(&j, b, 8, EVENTHEADER_ENC_VALUE64,
						     EVENTHEADER_FMT_FLOAT, TK_BYTE_ORDER_HOST);
			} else if (fc->kind == MODEL_FC_STRING || fc->is_text) {
				eventheader_json_put(&j, v->v.s, (size_t) v->n,
						     EVENTHEADER_ENC_STRING16_CHAR8,
						     EVENTHEADER_FMT_STRING_UTF, TK_BYTE_ORDER_LE);
			} else {
				eventheader_json_null(&j);
			}
		}
		v = model_value_skip(fc, v);
	}
	eventheader_json_meta(&j, m, EVENTHEADER_META_DEFAULT);
	return eventheader_json_end(&j);
}

/*
 * model_text_ops.decode_json: an event of a typed EventHeader class (a trace converted from
 * perf.data or trace.dat keeps what its events were: eventheader-model.c) as the reference
 * decoder writes it, "meta" with the event's time (seconds of the trace's clock), CPU and the
 * pid and tid of its context; events of other classes by plain_json().
 */
static enum tk_status ctf_decode_json(const struct tk_event *ev, unsigned int flags,
				      struct vec *out)
{
	struct eventheader_sample m;
	struct vec scratch = VEC_INIT;
	int64_t pid, tid, cpu = 0;
	enum tk_status st = model_event_values(ev);

	if (st < 0)
		return st;
	memset(&m, 0, sizeof(m));
	m.has_time = ev->has_ts && ev->ns >= 0;
	m.sec = ev->ns / 1000000000;
	m.nsec = (uint32_t) (ev->ns % 1000000000);
	m.has_cpu = ev->cpu >= 0 || common_int(ev, "cpu_id", "cpu_id", &cpu);
	m.cpu = ev->cpu >= 0 ? (uint32_t) ev->cpu : (uint32_t) cpu;
	if (common_int(ev, "tid", "vtid", &tid)) {
		m.has_tid = 1;
		m.tid = (uint32_t) tid;
		m.pid = common_int(ev, "pid", "vpid", &pid) ? (uint32_t) pid : (uint32_t) tid;
	}
	st = eventheader_model_json(ev, &m, eventheader_json_flags(flags), &scratch, out);
	vec_fini(&scratch);
	if (st == TK_ERR_UNSUPPORTED) {
		error_reset();
		return plain_json(ev, &m, eventheader_json_flags(flags), out);
	}
	return st;
}

static const struct model_text_ops ctf_text_ops = {
	.decode_json = ctf_decode_json,
};

static const struct model_source_ops ctf_source_ops = {
	.cursor_open = ctf_cursor_open,
	.destroy = source_destroy,
	.text = &ctf_text_ops,
};

/* Parse the metadata of @dir into a new source (no streams yet). */
static enum tk_status source_parse(const char *dir, struct tk_source **out)
{
	struct tk_source *src = calloc(1, sizeof(*src));
	char *path = NULL, *text = NULL;
	size_t len, n = strlen(dir);
	unsigned int flags = 0;
	enum tk_status st;

	if (!src)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace: path=%s", dir);
	arena_init(&src->arena);
	src->ops = &ctf_source_ops;
	src->format = "CTF 1.8";
	path = malloc(n + sizeof("/metadata"));
	src->path = arena_strdup(&src->arena, dir);
	if (!path || !src->path) {
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot open trace: path=%s", dir);
		goto out;
	}
	memcpy(path, dir, n);
	memcpy(path + n, "/metadata", sizeof("/metadata"));
	st = ctf_metadata_read(path, &text, &len, &flags);
	if (st >= 0)
		st = ctf_meta_build(src, text, len);
	if (st >= 0)
		((struct ctf_trace *) src->fmt)->metadata_flags = flags;
	if (st < 0)
		st = TK_FAIL(st, "Cannot read metadata: path=%s", path);
out:
	free(path);
	free(text);
	if (st < 0) {
		source_destroy(src);
		return st;
	}
	*out = src;
	return TK_OK;
}

static size_t class_count(const struct tk_source *src)
{
	size_t n = src->n_scs, i;

	for (i = 0; i < src->n_scs; i++)
		n += src->scs[i]->n_ecs;
	return n;
}

/* ---- discovery ------------------------------------------------------------------------------ */

struct found {
	char *dir;
	const char *rel; /* relative to the user's path, inside dir */
	struct tk_source *src;
};

static int has_metadata(const char *dir)
{
	char path[4096];
	struct stat sb;

	if (snprintf(path, sizeof(path), "%s/metadata", dir) >= (int) sizeof(path))
		return 0;
	return !stat(path, &sb) && S_ISREG(sb.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/*
 * The directories one search has entered, by device and inode: a set in an open-addressing
 * table (linear probing, at most half full). Symbolic links are followed, so without it a
 * link to an ancestor ("x -> .") makes the tree infinite, and two of them make the search
 * visit 2^depth paths.
 */
struct dir_id {
	dev_t dev;
	ino_t ino;
	int used;
};

struct dir_set {
	struct dir_id *slots;
	size_t cap, len; /* cap: 0 or a power of two */
};

static size_t dir_hash(dev_t dev, ino_t ino, size_t cap)
{
	uint64_t h = ((uint64_t) ino ^ ((uint64_t) dev << 32)) * UINT64_C(0x9E3779B97F4A7C15);

	return (size_t) (h >> 17) & (cap - 1);
}

/* Add @sb's directory to @set: 1 if it was new, 0 if already there, -1 when out of memory. */
static int dir_set_add(struct dir_set *set, const struct stat *sb)
{
	size_t i;

	if (2 * (set->len + 1) > set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 64, k;
		struct dir_id *slots = calloc(cap, sizeof(*slots));

		if (!slots)
			return -1;
		for (k = 0; k < set->cap; k++) {
			const struct dir_id *d = &set->slots[k];

			if (!d->used)
				continue;
			for (i = dir_hash(d->dev, d->ino, cap); slots[i].used;
			     i = (i + 1) & (cap - 1))
				;
			slots[i] = *d;
		}
		free(set->slots);
		set->slots = slots;
		set->cap = cap;
	}
	for (i = dir_hash(sb->st_dev, sb->st_ino, set->cap); set->slots[i].used;
	     i = (i + 1) & (set->cap - 1))
		if (set->slots[i].dev == sb->st_dev && set->slots[i].ino == sb->st_ino)
			return 0;
	set->slots[i].dev = sb->st_dev;
	set->slots[i].ino = sb->st_ino;
	set->slots[i].used = 1;
	set->len++;
	return 1;
}

/* One search below a user's path. */
struct search {
	struct vec *found;
	struct dir_set seen;
	size_t root_len;
	char *skips[8]; /* why the first directories were not searched (malloc'ed texts) */
	size_t n_skips; /* all of them, including those not kept */
};

#define SEARCH_MAX_DEPTH 33 /* levels below the user's path; deeper ones are not searched */

/* Note a directory that could not be searched, with why: "Cannot search directory: ...". */
static TK_PRINTF(2, 3) void search_skip(struct search *s, const char *fmt, ...)
{
	va_list ap;
	char *text = NULL;

	if (s->n_skips < TK_ARRAY_SIZE(s->skips)) {
		va_start(ap, fmt);
		if (vasprintf(&text, fmt, ap) < 0)
			text = NULL;
		va_end(ap);
		s->skips[s->n_skips] = text; /* NULL when out of memory: counted only */
	}
	s->n_skips++;
}

/*
 * Search @dir (a directory, possibly reached through symbolic links) for traces: a directory
 * holding a regular file "metadata" is one, and is not searched further. Each directory is
 * entered once, by the first path that reaches it in name order; a later path to it (a link
 * to an ancestor, to a sibling or to a trace already found) is ignored. Directories that
 * cannot be read, and those deeper than SEARCH_MAX_DEPTH levels, are noted in @s->skips:
 * the caller reports them as the cause when no trace is found, else as warnings.
 */
static enum tk_status discover(struct search *s, const char *dir, int depth)
{
	struct vec subdirs = VEC_INIT;
	struct stat sb;
	DIR *dh;
	struct dirent *de;
	enum tk_status st = TK_OK;
	size_t i;
	int fresh;

	if (stat(dir, &sb))
		return TK_OK; /* gone since it was listed */
	fresh = dir_set_add(&s->seen, &sb);
	if (fresh < 0)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot search traces: path=%s", dir);
	if (!fresh)
		return TK_OK;
	if (has_metadata(dir)) {
		struct found *f = vec_push(s->found, sizeof(*f));

		if (!f || !(f->dir = strdup(dir)))
			return TK_FAIL(TK_ERR_NOMEM, "Cannot search traces: path=%s", dir);
		f->rel = f->dir + s->root_len;
		while (*f->rel == '/')
			f->rel++;
		return TK_OK;
	}
	dh = opendir(dir);
	if (!dh) {
		if (errno == ENOENT)
			return TK_OK; /* gone since it was listed */
		if (errno == EACCES || errno == ENAMETOOLONG || errno == ELOOP) {
			/* skipped, like babeltrace2 does, but the user hears of it */
			search_skip(s, "Cannot search directory: path=%s, errno=%s", dir,
				    strerror(errno));
			return TK_OK;
		}
		return TK_FAIL(TK_ERR_IO, "Cannot search traces: path=%s, errno=%s", dir,
			       strerror(errno));
	}
	while ((de = readdir(dh))) {
		char *sub;
		char **slot;
		size_t n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n = strlen(dir) + strlen(de->d_name) + 2;
		sub = malloc(n);
		if (!sub) {
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot search traces: path=%s", dir);
			break;
		}
		snprintf(sub, n, "%s/%s", dir, de->d_name);
		if (stat(sub, &sb)) {
			/* a dangling link or a loop of links is no directory; else say why */
			if (errno != ENOENT && errno != ELOOP && errno != ENOTDIR)
				search_skip(s, "Cannot search directory: path=%s, errno=%s", sub,
					    strerror(errno));
			free(sub);
			continue;
		}
		if (!S_ISDIR(sb.st_mode)) {
			free(sub);
			continue;
		}
		slot = vec_push(&subdirs, sizeof(*slot));
		if (!slot) {
			free(sub);
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot search traces: path=%s", dir);
			break;
		}
		*slot = sub;
	}
	closedir(dh);
	sort_array(subdirs.data, subdirs.len, sizeof(char *), cmp_str);
	if (subdirs.len && depth >= SEARCH_MAX_DEPTH && st >= 0)
		search_skip(s,
			    "Cannot search directory: path=%s, reason=more than %d levels below "
			    "the path given",
			    VEC_AT(&subdirs, char *, 0), SEARCH_MAX_DEPTH);
	for (i = 0; i < subdirs.len; i++) {
		if (st >= 0 && depth < SEARCH_MAX_DEPTH)
			st = discover(s, VEC_AT(&subdirs, char *, i), depth + 1);
		free(VEC_AT(&subdirs, char *, i));
	}
	vec_fini(&subdirs);
	return st;
}

/*
 * After the search below @path: no trace found is an error whose cause is the first
 * directory that could not be searched, if any; otherwise those directories are warnings.
 * Frees the notes.
 */
static enum tk_status search_end(struct search *s, const char *path, int none_found,
				 const struct model_warner *w)
{
	enum tk_status st = TK_OK;
	size_t i, kept = TK_ARRAY_SIZE(s->skips);

	if (s->n_skips < kept)
		kept = s->n_skips;
	if (none_found) {
		if (s->n_skips)
			(void) TK_FAIL(TK_ERR_NOTFOUND, "%s",
				       s->skips[0] ? s->skips[0] : "Cannot search directory");
		if (s->n_skips > 1)
			st = TK_FAIL(TK_ERR_NOTFOUND,
				     "Cannot find trace: path=%s, reason=no CTF trace (directory "
				     "with a metadata file) found, %zu directories not searched",
				     path, s->n_skips);
		else
			st = TK_FAIL(TK_ERR_NOTFOUND,
				     "Cannot find trace: path=%s, reason=no CTF trace (directory "
				     "with a metadata file) found",
				     path);
	} else if (w && w->cb) {
		for (i = 0; i < kept; i++)
			w->cb(s->skips[i] ? s->skips[i] : "Cannot search directory", w->payload);
		if (s->n_skips > kept) {
			char text[256];

			snprintf(text, sizeof(text),
				 "Cannot search %zu more directories: path=%s, reason=as above",
				 s->n_skips - kept, path);
			w->cb(text, w->payload);
		}
	}
	for (i = 0; i < kept; i++)
		free(s->skips[i]);
	free(s->seen.slots);
	return st;
}

static const char *env_hostname(const struct tk_source *src)
{
	size_t i;

	for (i = 0; i < src->n_env; i++)
		if (!strcmp(src->env[i].key, "hostname"))
			return src->env[i].str;
	return NULL;
}

/* babeltrace2's trace name: hostname, then "/" and the relative path for a lone directory. */
static enum tk_status set_name(struct tk_source *src, const char *rel)
{
	const char *host = env_hostname(src);
	size_t n = (host ? strlen(host) : 0) + (rel ? strlen(rel) : 0) + 2;
	char *name = arena_alloc(&src->arena, n);

	if (!name)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot name trace: path=%s", src->path);
	snprintf(name, n, "%s%s%s", host ? host : "", host && rel ? "/" : "", rel ? rel : "");
	src->name = name;
	return TK_OK;
}

/*
 * @path made absolute, with empty, "." and ".." components removed by text alone (symbolic
 * links are not followed), as babeltrace2 does with its input paths: stream paths in
 * messages then read the same in both tools. NULL when out of memory or the working
 * directory is unknown. Ownership: the caller frees the result.
 */
static char *normalize_path(const char *path)
{
	char *cwd = NULL, *joined, *out;
	size_t n, len = 0;
	const char *p;

	if (path[0] != '/') {
		cwd = getcwd(NULL, 0);
		if (!cwd)
			return NULL;
	}
	n = (cwd ? strlen(cwd) : 0) + strlen(path) + 2;
	joined = malloc(n);
	out = malloc(n);
	if (!joined || !out) {
		free(cwd);
		free(joined);
		free(out);
		return NULL;
	}
	snprintf(joined, n, "%s/%s", cwd ? cwd : "", path);
	free(cwd);
	for (p = joined; *p;) {
		size_t k;

		while (*p == '/')
			p++;
		k = strcspn(p, "/");
		if (k == 0 || (k == 1 && p[0] == '.')) {
			/* nothing to add */
		} else if (k == 2 && p[0] == '.' && p[1] == '.') {
			while (len > 0 && out[len - 1] != '/')
				len--;
			if (len > 0)
				len--; /* the slash before the removed component */
		} else {
			out[len++] = '/';
			memcpy(out + len, p, k);
			len += k;
		}
		p += k;
	}
	if (len == 0)
		out[len++] = '/';
	out[len] = '\0';
	free(joined);
	return out;
}

enum tk_status ctf_sources_open(const char *const *paths, size_t npaths, struct vec *sources,
				const struct model_warner *w)
{
	struct vec found = VEC_INIT;
	enum tk_status st = TK_OK;
	size_t i, j;

	for (i = 0; i < npaths && st >= 0; i++) {
		struct search srch;
		size_t before = found.len;
		struct stat sb;
		char *root;
		int fd;

		if (stat(paths[i], &sb)) {
			st = TK_FAIL(TK_ERR_NOTFOUND, "Cannot find trace: path=%s, errno=%s",
				     paths[i], strerror(errno));
			break;
		}
		if (!S_ISDIR(sb.st_mode)) {
			/* trace.dat files were taken before: say why this one is not */
			fd = S_ISREG(sb.st_mode) ? open(paths[i], O_RDONLY | O_CLOEXEC) : -1;
			if (S_ISREG(sb.st_mode) && fd < 0)
				st = TK_FAIL(TK_ERR_IO, "Cannot read file: path=%s, errno=%s",
					     paths[i], strerror(errno));
			else
				st = TK_FAIL(TK_ERR_NOTFOUND,
					     "Cannot find trace: path=%s, reason=not a CTF trace "
					     "directory nor a trace.dat file",
					     paths[i]);
			if (fd >= 0)
				close(fd);
			break;
		}
		root = normalize_path(paths[i]);
		if (!root) {
			st = TK_FAIL(errno == ENOMEM ? TK_ERR_NOMEM : TK_ERR_IO,
				     "Cannot find trace: path=%s, errno=%s", paths[i],
				     strerror(errno));
			break;
		}
		memset(&srch, 0, sizeof(srch));
		srch.found = &found;
		srch.root_len = strlen(root);
		st = discover(&srch, root, 0);
		free(root);
		if (st >= 0)
			st = search_end(&srch, paths[i], found.len == before, w);
		else
			(void) search_end(&srch, paths[i], 0, NULL);
	}
	for (i = 0; i < found.len && st >= 0; i++) {
		struct found *f = &VEC_AT(&found, struct found, i);

		st = source_parse(f->dir, &f->src);
	}
	/* group by UUID: the source with the most classes describes the group */
	for (i = 0; i < found.len && st >= 0; i++) {
		struct found *f = &VEC_AT(&found, struct found, i);
		struct tk_source *main = f->src, **slot;
		size_t members = 1;

		if (!main)
			continue; /* already merged into an earlier group */
		for (j = i + 1; j < found.len && main->has_uuid; j++) {
			struct found *g = &VEC_AT(&found, struct found, j);

			if (g->src && g->src->has_uuid && !memcmp(g->src->uuid, main->uuid, 16)) {
				members++;
				if (class_count(g->src) > class_count(main))
					main = g->src;
			}
		}
		for (j = i; j < found.len && st >= 0; j++) {
			struct found *g = &VEC_AT(&found, struct found, j);

			if (!g->src || (j > i && (!main->has_uuid || !g->src->has_uuid ||
						  memcmp(g->src->uuid, main->uuid, 16))))
				continue;
			st = ctf_streams_open(main, g->dir);
			if (st >= 0 && g->src == main)
				st = set_name(main, members == 1 && *g->rel ? g->rel : NULL);
			if (g->src != main)
				source_destroy(g->src);
			g->src = NULL;
		}
		if (st >= 0 && members > 1 && !main->name)
			st = set_name(main, NULL);
		if (st >= 0) {
			slot = vec_push(sources, sizeof(*slot));
			if (!slot)
				st = TK_FAIL(TK_ERR_NOMEM, "Cannot open traces");
			else
				*slot = main;
		}
		if (st < 0 && (!sources->len ||
			       VEC_AT(sources, struct tk_source *, sources->len - 1) != main)) {
			/* a later member may still hold it when the loop above stopped early */
			for (j = i; j < found.len; j++)
				if (VEC_AT(&found, struct found, j).src == main)
					VEC_AT(&found, struct found, j).src = NULL;
			source_destroy(main);
		}
	}
	for (i = 0; i < found.len; i++) {
		struct found *f = &VEC_AT(&found, struct found, i);

		source_destroy(f->src);
		free(f->dir);
	}
	vec_fini(&found);
	return st;
}

void ctf_source_destroy(struct tk_source *src)
{
	source_destroy(src);
}

int ctf_source_is(const struct tk_source *src)
{
	return src->ops == &ctf_source_ops;
}

enum tk_status ctf_source_open_mem(struct tk_source **out, const uint8_t *metadata, size_t mlen,
				   const uint8_t *const *data, const size_t *sizes, size_t n)
{
	struct tk_source *src = calloc(1, sizeof(*src));
	char *text = NULL, **names = NULL;
	unsigned int flags = 0;
	size_t len, i;
	enum tk_status st;

	if (!src)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot open trace in memory");
	arena_init(&src->arena);
	src->ops = &ctf_source_ops;
	src->format = "CTF 1.8";
	src->path = "(memory)";
	src->name = "";
	st = ctf_metadata_decode(metadata, mlen, "(memory)", &text, &len, &flags);
	if (st >= 0)
		st = ctf_meta_build(src, text, len);
	if (st >= 0)
		((struct ctf_trace *) src->fmt)->metadata_flags = flags;
	free(text);
	names = calloc(n + 1, sizeof(*names));
	if (st >= 0 && !names)
		st = TK_FAIL(TK_ERR_NOMEM, "Cannot open trace in memory");
	for (i = 0; st >= 0 && i < n; i++) {
		names[i] = arena_alloc(&src->arena, 48);
		if (!names[i])
			st = TK_FAIL(TK_ERR_NOMEM, "Cannot open trace in memory");
		else
			snprintf(names[i], 48, "(memory)/stream%zu", i);
	}
	if (st >= 0)
		st = ctf_streams_open_mem(src, (const char *const *) names, data, sizes, n);
	free(names);
	if (st < 0) {
		source_destroy(src);
		return st;
	}
	*out = src;
	return TK_OK;
}
