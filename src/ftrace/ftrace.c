// SPDX-License-Identifier: MIT
/*
 * The ftrace context: the per-trace tables (events, kernel symbols, printk formats, saved
 * command lines), their lookups, and the two field readers every decoder uses. Format files
 * and header_page are read in ftrace-format.c.
 *
 * The tables answer what libtraceevent 1.7.1 answers inside trace-cmd, because trace-cmd's
 * output is what ours is compared with. That decides details that look arbitrary:
 * - libtraceevent collects symbols, printk formats and comms in a list that it prepends to,
 *   then sorts with glibc's qsort(), which is a stable merge sort for these sizes; entries
 *   with one key therefore end up newest first. ftrace_ctx_finish() reverses and sorts stably.
 * - Lookups use glibc's bsearch() probe sequence, so among equal keys the same entry is found.
 * - The text parsers read each line the way libtraceevent's sscanf()/strtok() calls do, and
 *   stop at the first line those calls reject, keeping the entries before it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../common/bigmem.h"
#include "../common/bytes.h"
#include "../common/error.h"
#include "ftrace.h"
#include "printfmt.h"

void ftrace_ctx_init(struct ftrace_ctx *ctx, enum tk_byte_order bo)
{
	memset(ctx, 0, sizeof(*ctx));
	arena_init(&ctx->arena);
	ctx->bo = bo;
	ctx->long_size = 8;
	pthread_mutex_init(&ctx->lock, NULL);
}

void ftrace_ctx_fini(struct ftrace_ctx *ctx)
{
	size_t i;

	if (!ctx)
		return;
	for (i = 0; i < ctx->n_events; i++)
		if (ctx->events[i]->print)
			ftrace_print_free(ctx->events[i]->print);
	free(ctx->events);
	bigmem_free(ctx->syms, ctx->syms_cap * sizeof(*ctx->syms));
	bigmem_free(ctx->syms_made, ctx->syms_cap * sizeof(*ctx->syms_made));
	free(ctx->printk);
	free(ctx->comms);
	arena_fini(&ctx->arena);
	pthread_mutex_destroy(&ctx->lock);
	memset(ctx, 0, sizeof(*ctx));
}

/* @data with room for one more element after @n, or NULL when out of memory (@data stays). */
static void *table_grow(void *data, size_t *cap, size_t n, size_t elem)
{
	size_t new_cap;
	void *p;

	if (n < *cap)
		return data;
	new_cap = *cap ? *cap * 2 : 256;
	if (new_cap > SIZE_MAX / elem)
		return NULL;
	p = realloc(data, new_cap * elem);
	if (p)
		*cap = new_cap;
	return p;
}

/* ---- sorting ------------------------------------------------------------------------------ */

typedef int (*cmp_fn)(const void *, const void *);

/* Stable top-down merge sort of @n elements of @size bytes at @a, using @tmp (as large). */
static void merge_sort(unsigned char *a, unsigned char *tmp, size_t n, size_t size, cmp_fn cmp)
{
	size_t half = n / 2, i = 0, j = half, k = 0;

	if (n < 2)
		return;
	merge_sort(a, tmp, half, size, cmp);
	merge_sort(a + half * size, tmp, n - half, size, cmp);
	if (cmp(a + (half - 1) * size, a + half * size) <= 0)
		return; /* already in order */
	while (i < half && j < n) {
		/* take from the right run only when strictly smaller: equal keys keep their order */
		if (cmp(a + j * size, a + i * size) < 0)
			memcpy(tmp + k++ * size, a + j++ * size, size);
		else
			memcpy(tmp + k++ * size, a + i++ * size, size);
	}
	memcpy(tmp + k * size, a + i * size, (half - i) * size);
	k += half - i;
	memcpy(tmp + k * size, a + j * size, (n - j) * size);
	memcpy(a, tmp, n * size);
}

static void reverse(unsigned char *a, size_t n, size_t size, unsigned char *swap)
{
	size_t i;

	for (i = 0; i < n / 2; i++) {
		memcpy(swap, a + i * size, size);
		memcpy(a + i * size, a + (n - 1 - i) * size, size);
		memcpy(a + (n - 1 - i) * size, swap, size);
	}
}

/*
 * Newest first among equal keys, then stable by key: libtraceevent's list + qsort(), which
 * sorts the entries in reverse order stably. A stable sort has one result, so the same order
 * comes from sorting the entries as they are, stably, and turning each run of equal keys
 * around: tables that come mostly in key order (kallsyms: 100k lines and more, the modules'
 * symbols last) then cost little more than one pass, as the merges of runs already in order
 * stop at their first comparison.
 */
static int sort_like_tep(void *data, size_t n, size_t size, cmp_fn cmp)
{
	unsigned char *a = data, *tmp;
	size_t i, run, tmp_size;

	if (n < 2)
		return 0;
	for (i = 1; i < n && cmp(a + (i - 1) * size, a + i * size) <= 0; i++)
		;
	tmp_size = i == n ? size : n * size; /* n * size is allocated already: no overflow */
	tmp = bigmem_alloc(tmp_size);
	if (!tmp)
		return -1;
	if (i < n)
		merge_sort(data, tmp, n, size, cmp);
	for (run = 0, i = 1; i <= n; i++)
		if (i == n || cmp(a + run * size, a + i * size)) {
			reverse(a + run * size, i - run, size, tmp);
			run = i;
		}
	bigmem_free(tmp, tmp_size);
	return 0;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct ftrace_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int printk_cmp(const void *a, const void *b)
{
	const struct ftrace_printk *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int comm_cmp(const void *a, const void *b)
{
	const struct ftrace_comm *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int event_cmp(const void *a, const void *b)
{
	uint32_t x = (*(const struct ftrace_event *const *) a)->id;
	uint32_t y = (*(const struct ftrace_event *const *) b)->id;

	return x < y ? -1 : x > y;
}

/* Declared events by ID, those of one ID in the order declared (libtraceevent's). */
static int sort_events(struct ftrace_ctx *ctx)
{
	size_t size = ctx->n_events * sizeof(*ctx->events);
	unsigned char *tmp;

	if (!ctx->events_unsorted || ctx->n_events < 2)
		return 0;
	tmp = malloc(size);
	if (!tmp)
		return -1;
	merge_sort((unsigned char *) ctx->events, tmp, ctx->n_events, sizeof(*ctx->events),
		   event_cmp);
	free(tmp);
	ctx->events_unsorted = 0;
	return 0;
}

enum tk_status ftrace_ctx_finish(struct ftrace_ctx *ctx)
{
	TK_ASSERT_PRE(ctx);
	if (ctx->finished)
		return TK_OK;
	if (sort_events(ctx) < 0)
		return TK_FAIL(TK_ERR_NOMEM, "Cannot sort ftrace events: events=%zu",
			       ctx->n_events);
	/* events parsed (not declared) are kept sorted as they are added (ftrace-format.c) */
	if (sort_like_tep(ctx->syms, ctx->n_syms, sizeof(*ctx->syms), sym_cmp) < 0 ||
	    sort_like_tep(ctx->printk, ctx->n_printk, sizeof(*ctx->printk), printk_cmp) < 0 ||
	    sort_like_tep(ctx->comms, ctx->n_comms, sizeof(*ctx->comms), comm_cmp) < 0)
		return TK_FAIL(TK_ERR_NOMEM,
			       "Cannot sort ftrace tables: symbols=%zu, printk=%zu, "
			       "comms=%zu",
			       ctx->n_syms, ctx->n_printk, ctx->n_comms);
	ctx->finished = 1;
	return TK_OK;
}

/* ---- lookups ------------------------------------------------------------------------------ */

/*
 * Each lookup is glibc's bsearch() loop written out for its comparison, so that among equal
 * keys it stops on the same element: probe (lo + hi) / 2, go left when the key is smaller,
 * right when it is larger.
 */
const struct ftrace_event *ftrace_event_find(const struct ftrace_ctx *ctx, uint32_t id)
{
	size_t lo = 0, hi = ctx->n_events;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		uint32_t v = ctx->events[mid]->id;

		if (id < v)
			hi = mid;
		else if (id > v)
			lo = mid + 1;
		else {
			ftrace_event_load(ctx, ctx->events[mid]);
			return ctx->events[mid];
		}
	}
	return NULL;
}

/*
 * libtraceevent's "in between" comparison: a symbol matches when @addr is its address, or
 * lies after it and before the next symbol's address. The last symbol's "next" is an end
 * marker of address 0, so nothing after the last symbol matches except its own address.
 */
static bool syms_stream_find(struct ftrace_ctx *ctx, uint64_t addr, const struct ftrace_sym **out);

const struct ftrace_sym *ftrace_sym_find(const struct ftrace_ctx *ctx, uint64_t addr)
{
	size_t lo = 0, hi, n;
	const struct ftrace_ksym *syms;

	if (TK_UNLIKELY(ctx->syms_streaming)) {
		const struct ftrace_sym *s;
		size_t depth = error_depth();
		/* lazily filled, never const */
		bool found = syms_stream_find((struct ftrace_ctx *) ctx, addr, &s);

		error_truncate(depth); /* as syms_load(): the lookup is not failing */
		if (found)
			return s;
	}
	n = ftrace_syms_count(ctx);
	syms = ctx->syms;

	hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		uint64_t v = syms[mid].addr;
		uint64_t next = mid + 1 < n ? syms[mid + 1].addr : 0;

		if (addr == v || (addr > v && addr < next))
			return ftrace_sym_at(ctx, mid);
		if (addr < v)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const struct ftrace_printk *ftrace_printk_find(const struct ftrace_ctx *ctx, uint64_t addr)
{
	size_t lo = 0, hi = ctx->n_printk;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		uint64_t v = ctx->printk[mid].addr;

		if (addr < v)
			hi = mid;
		else if (addr > v)
			lo = mid + 1;
		else
			return &ctx->printk[mid];
	}
	return NULL;
}

/* Index of @pid in ctx->comms as bsearch() finds it, or SIZE_MAX. */
static size_t comm_index(const struct ftrace_ctx *ctx, int32_t pid)
{
	size_t lo = 0, hi = ctx->n_comms;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int32_t v = ctx->comms[mid].pid;

		if (pid < v)
			hi = mid;
		else if (pid > v)
			lo = mid + 1;
		else
			return mid;
	}
	return SIZE_MAX;
}

const char *ftrace_comm_find(const struct ftrace_ctx *ctx, int32_t pid)
{
	size_t i = comm_index(ctx, pid);

	return i == SIZE_MAX ? NULL : ctx->comms[i].comm;
}

const struct ftrace_field *ftrace_field_find(const struct ftrace_event *ev, const char *name)
{
	uint32_t i;

	for (i = 0; i < ev->n_fields; i++)
		if (strcmp(ev->fields[i].name, name) == 0)
			return &ev->fields[i];
	return NULL;
}

/* ---- field values ------------------------------------------------------------------------- */

/* The unsigned value of a 1, 2, 4 or 8-byte word; 0 for other sizes (tep_read_number()). */
uint64_t ftrace_field_u64(const struct ftrace_ctx *ctx, const struct ftrace_field *f,
			  const uint8_t *rec)
{
	uint64_t v = tk_load_uint(rec + f->offset, f->size, ctx->bo);
	unsigned int bits = f->size * 8;

	if ((f->flags & FTRACE_FIELD_SIGNED) && (f->size == 1 || f->size == 2 || f->size == 4) &&
	    ((v >> (bits - 1)) & 1))
		v |= ~UINT64_C(0) << bits;
	return v;
}

int ftrace_field_dynamic(const struct ftrace_ctx *ctx, const struct ftrace_field *f,
			 const uint8_t *rec, size_t size, uint32_t *offset, uint32_t *len)
{
	uint32_t o, l, n, sz = size > UINT32_MAX ? UINT32_MAX : (uint32_t) size;
	uint64_t word, off;
	bool ok;

	if (f->offset > size || f->size > size - f->offset) {
		*offset = 0;
		*len = 0;
		return -1;
	}
	word = tk_load_uint(rec + f->offset, f->size, ctx->bo);
	o = (uint32_t) (word & 0xffff);
	/* a legacy 2-byte location has no length: the data runs to the end of the record */
	l = f->size == 2 ? sz - o : (uint32_t) ((word >> 16) & 0xffff);
	ok = o <= sz && (uint64_t) o + l <= sz;
	/* libtraceevent's clamps, with its 32-bit sum */
	off = o > sz ? 0 : o;
	n = (uint32_t) (o + l) > sz ? 0 : l;
	if (f->flags & FTRACE_FIELD_RELATIVE)
		off += (uint64_t) f->offset + f->size;
	*offset = (uint32_t) off;
	*len = n;
	return ok && off + n <= sz ? 0 : -1;
}

/* ---- kallsyms, printk_formats, saved_cmdlines --------------------------------------------- */

/* One line of a table text: [s, s + n), numbered from 1 counting empty lines. */
struct line_iter {
	const char *text;
	size_t len;
	size_t pos;
	uint32_t line;
};

static void lines_init(struct line_iter *it, const char *text, size_t len)
{
	it->text = text ? text : "";
	it->len = text ? strnlen(text, len) : 0; /* trace-cmd hands libtraceevent C strings */
	it->pos = 0;
	it->line = 1;
}

/* The next non-empty line (strtok(.., "\n") skips empty ones); false at the end. */
static bool lines_next(struct line_iter *it, const char **s, size_t *n, uint32_t *line)
{
	const char *nl;
	size_t end;

	while (it->pos < it->len && it->text[it->pos] == '\n') {
		it->pos++;
		it->line++;
	}
	if (it->pos >= it->len)
		return false;
	nl = memchr(it->text + it->pos, '\n', it->len - it->pos);
	end = nl ? (size_t) (nl - it->text) : it->len;
	*s = it->text + it->pos;
	*n = end - it->pos;
	*line = it->line;
	it->pos = end;
	return true;
}

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static size_t skip_space(const char *s, size_t n, size_t i)
{
	while (i < n && is_space(s[i]))
		i++;
	return i;
}

/*
 * A hexadecimal number as scanf("%<width>llx") or strtoull(.., 16) reads it (width 0 = no
 * limit): blanks, a sign, an optional 0x before a digit, digits; negative values wrap, and
 * without a width a value past 64 bits saturates. Returns the index after it, or 0 when there
 * is no digit.
 */
static size_t scan_hex(const char *s, size_t n, size_t i, size_t width, uint64_t *out)
{
	size_t start, limit;
	bool neg = false, sat = false;
	uint64_t v = 0;

	i = skip_space(s, n, i);
	limit = width && n - i > width ? i + width : n;
	if (i < limit && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i + 2 < limit && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') &&
	    tk_hex_value(s[i + 2]) >= 0)
		i += 2;
	start = i;
	for (int d; i < limit && (d = tk_hex_value(s[i])) >= 0; i++) {
		if (v >> 60)
			sat = true;
		v = v << 4 | (uint64_t) d;
	}
	if (i == start)
		return 0;
	if (sat)
		v = UINT64_MAX;
	else if (neg)
		v = -v;
	*out = v;
	return i;
}

/*
 * The index of the first blank at or after @i in @s (@n if none). Eight bytes at a time: a
 * blank is below 0x21, and the lowest byte the below-0x21 test flags in a word is the first
 * such byte (its false hits are only above a true one); one that is not a blank (a control
 * character) is stepped over byte by byte.
 */
static size_t word_end(const char *s, size_t n, size_t i)
{
	const uint64_t low = UINT64_C(0x2121212121212121), highs = UINT64_C(0x8080808080808080);

	while (i < n && !is_space(s[i])) {
		uint64_t x, hit;

		if (n - i < 8) {
			i++;
			continue;
		}
		memcpy(&x, s + i, 8);
		hit = (x - low) & ~x & highs;
		if (!hit) {
			i += 8;
			continue;
		}
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		i += (size_t) __builtin_ctzll(hit) / 8;
#else
		i += (size_t) __builtin_clzll(hit) / 8;
#endif
		if (i < n && !is_space(s[i]))
			i++;
	}
	return i;
}

/*
 * Eight hexadecimal digits at @s, eight bytes at a time: every byte must be a digit or a
 * letter a-f or A-F (range tests on bytes below 0x80, whose sums cannot carry into the next
 * byte), each becomes its nibble, and the nibbles are packed first digit highest.
 */
static bool hex8(const char *s, uint32_t *out)
{
	const uint64_t hi = UINT64_C(0x8080808080808080), ones = UINT64_C(0x0101010101010101);
	uint64_t x = tk_load_le64(s), low = x | ones * 0x20; /* letters in lower case */
	uint64_t digit = (x + ones * (0x80 - '0')) & ~(x + ones * (0x7f - '9'));
	uint64_t letter = (low + ones * (0x80 - 'a')) & ~(low + ones * (0x7f - 'f'));
	uint64_t nib;

	if ((x & hi) || ((digit | letter) & hi) != hi)
		return false;
	nib = (x & ones * 0x0f) + ((letter & hi) >> 7) * 9;
	nib = ((nib << 4) | (nib >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
	nib = ((nib << 8) | (nib >> 16)) & UINT64_C(0x0000ffff0000ffff);
	*out = (uint32_t) ((nib << 16) | (nib >> 32));
	return true;
}

/* Exactly 16 hexadecimal digits at @s (what scan_hex() reads from them, without blanks). */
static bool hex16(const char *s, uint64_t *out)
{
	uint32_t a, b;

	if (!hex8(s, &a) || !hex8(s + 8, &b))
		return false;
	*out = (uint64_t) a << 32 | b;
	return true;
}

static enum tk_status table_fail(const char *what, uint32_t line, const char *reason)
{
	return TK_FAIL(TK_ERR_FORMAT, "Cannot parse %s: line=%u, reason=%s", what, line, reason);
}

static enum tk_status table_nomem(const char *what)
{
	return TK_FAIL(TK_ERR_NOMEM, "Cannot parse %s", what);
}

/*
 * Room for @more symbols after the n_syms there are (bigmem.h: filled once, read until the
 * end), and for the table of those lookups made.
 */
static int syms_reserve(struct ftrace_ctx *ctx, size_t more)
{
	size_t cap = ctx->n_syms + (more > 256 ? more : 256);
	struct ftrace_ksym *syms;
	struct ftrace_sym **made;

	if (cap < ctx->n_syms || cap > SIZE_MAX / sizeof(*syms))
		return -1;
	syms = bigmem_alloc(cap * sizeof(*syms));
	made = bigmem_alloc(cap * sizeof(*made));
	if (!syms || !made) {
		bigmem_free(syms, cap * sizeof(*syms));
		bigmem_free(made, cap * sizeof(*made));
		return -1;
	}
	if (ctx->n_syms) {
		memcpy(syms, ctx->syms, ctx->n_syms * sizeof(*syms));
		memcpy(made, ctx->syms_made, ctx->n_syms * sizeof(*made));
	}
	bigmem_free(ctx->syms, ctx->syms_cap * sizeof(*syms));
	bigmem_free(ctx->syms_made, ctx->syms_cap * sizeof(*made));
	ctx->syms = syms;
	ctx->syms_made = made;
	ctx->syms_cap = cap;
	return 0;
}

/* Add a symbol of the table: its name is at @name, its line goes on for @rest bytes. */
static enum tk_status ksym_push(struct ftrace_ctx *ctx, uint64_t addr, const char *name,
				size_t rest)
{
	struct ftrace_ksym *sym;

	if (ctx->n_syms == ctx->syms_cap && syms_reserve(ctx, ctx->syms_cap) < 0)
		return table_nomem("kallsyms");
	sym = &ctx->syms[ctx->n_syms++];
	sym->addr = addr;
	sym->name = name;
	sym->rest = rest;
	return TK_OK;
}

/* Whether a symbol of @type named from @name is left out of the table. */
static bool ksym_skipped(char type, const char *name)
{
	/* absolute symbols (per-cpu offsets on x86-64) and arm's '$' marks */
	return name[0] == '$' || type == 'A' || type == 'a';
}

/*
 * The name of a symbol of the table, up to a blank, and its module: the word after a tab and
 * '[' right after the name, minus its last character (the ']'); *@mod NULL when none.
 */
static size_t ksym_name(const struct ftrace_ksym *k, const char **mod, size_t *mod_len)
{
	const char *s = k->name;
	size_t n = k->rest, name_end = word_end(s, n, 0), i = name_end, mod_start;

	*mod = NULL;
	*mod_len = 0;
	if (i + 1 < n && s[i] == '\t' && s[i + 1] == '[') {
		mod_start = i + 2;
		for (i = skip_space(s, n, mod_start); i < n && !is_space(s[i]); i++)
			;
		if (i > skip_space(s, n, mod_start)) {
			*mod = s + mod_start;
			*mod_len = i - 1 - mod_start;
		}
	}
	return name_end;
}

/* One line of kallsyms, @s of @n bytes, read the general way. */
static enum tk_status kallsyms_line(struct ftrace_ctx *ctx, const char *s, size_t n, uint32_t line)
{
	size_t i, name_start;
	uint64_t addr;
	char type;

	if (!(i = scan_hex(s, n, 0, 16, &addr)))
		return table_fail("kallsyms", line, "no address");
	i = skip_space(s, n, i);
	if (i == n)
		return table_fail("kallsyms", line, "no symbol type");
	type = s[i++];
	name_start = skip_space(s, n, i);
	if (name_start == n)
		return table_fail("kallsyms", line, "no symbol name");
	if (ksym_skipped(type, s + name_start))
		return TK_OK;
	return ksym_push(ctx, addr, s + name_start, n - name_start);
}

/*
 * "<addr> <type> <name>[\t[<module>]]", read like libtraceevent's
 * sscanf("%16llx %c %n%*s%n%*1[\t][%n%*s%n"): at most 16 address characters, any character
 * as the type (even a digit of a longer address), the name up to a blank, and a module only
 * when a tab and '[' follow the name at once.
 *
 * The table keeps where each name begins, so that building it reads each line once: the
 * usual line (16 digits, a blank, the type, a blank, then the name) takes 16-digit reading
 * eight digits at a time and a search for the line's end; any other goes through
 * kallsyms_line(). kallsyms has 100k lines and more, of which a trace looks up a hundred.
 */
static enum tk_status kallsyms_add(struct ftrace_ctx *ctx, const char *text, size_t len)
{
	struct line_iter it;
	const char *s;
	size_t n, est;
	uint32_t line;
	enum tk_status st;

	lines_init(&it, text, len);
	/*
	 * lines have 20 bytes at least: an estimate that is seldom exceeded; a table read a part
	 * at a time (syms_stream_more()) at least doubles
	 */
	est = it.len / 20;
	if (ctx->n_syms + est > ctx->syms_cap &&
	    syms_reserve(ctx, est > ctx->syms_cap ? est : ctx->syms_cap) < 0)
		return table_nomem("kallsyms");
	for (;;) {
		const char *p, *nl;
		size_t rest, end;
		uint64_t addr;

		while (it.pos < it.len && it.text[it.pos] == '\n') {
			it.pos++;
			it.line++;
		}
		if (it.pos >= it.len)
			return TK_OK;
		p = it.text + it.pos;
		rest = it.len - it.pos;
		if (rest > 19 && p[16] == ' ' && !is_space(p[17]) && p[18] == ' ' &&
		    !is_space(p[19]) && hex16(p, &addr)) {
			nl = memchr(p + 19, '\n', rest - 19);
			end = nl ? (size_t) (nl - p) : rest;
			st = ksym_skipped(p[17], p + 19) ? TK_OK
							 : ksym_push(ctx, addr, p + 19, end - 19);
			it.pos += end;
		} else if (lines_next(&it, &s, &n, &line)) {
			st = kallsyms_line(ctx, s, n, line);
		} else {
			return TK_OK;
		}
		if (st < 0)
			return st;
	}
}

enum tk_status ftrace_kallsyms_parse(struct ftrace_ctx *ctx, const char *text, size_t len)
{
	char *copy;

	TK_ASSERT_PRE(ctx && !ctx->finished && (text || !len));
	/* the table points into the text: keep a copy for as long as the context */
	copy = arena_strndup(&ctx->arena, text ? text : "", len);
	if (!copy)
		return table_nomem("kallsyms");
	return kallsyms_add(ctx, copy, len);
}

void ftrace_kallsyms_defer(struct ftrace_ctx *ctx, const char *text, size_t len)
{
	ctx->syms_text = len ? text : NULL;
	ctx->syms_text_len = len;
	ctx->syms_fetch = NULL;
}

void ftrace_kallsyms_defer_fetch(struct ftrace_ctx *ctx,
				 const char *(*fetch)(void *payload, size_t *len), void *payload)
{
	ctx->syms_text = ""; /* not NULL: the first lookup calls syms_load() */
	ctx->syms_text_len = 0;
	ctx->syms_fetch = fetch;
	ctx->syms_payload = payload;
}

void ftrace_kallsyms_defer_stream(struct ftrace_ctx *ctx,
				  const char *(*more)(void *payload, size_t *len), void *payload)
{
	ftrace_kallsyms_defer_fetch(ctx, NULL, payload);
	ctx->syms_more = more;
	ctx->syms_streaming = 1;
	ctx->syms_in_order = 1;
}

/*
 * Read more of a streamed kallsyms text and add its whole lines (the last one too at the
 * end). A bad line, or a NUL, ends the table there, as in a text parsed at once.
 */
static void syms_stream_more(struct ftrace_ctx *ctx)
{
	size_t len = ctx->syms_read_len, from = ctx->n_syms, upto;
	const char *text = ctx->syms_more(ctx->syms_payload, &len);
	const char *nl;

	if (!text || len <= ctx->syms_read_len) {
		ctx->syms_eof = 1;
		upto = ctx->syms_read_len;
	} else {
		ctx->syms_read = text;
		ctx->syms_read_len = len;
		nl = memrchr(text + ctx->syms_parsed, '\n', len - ctx->syms_parsed);
		if (!nl)
			return; /* no whole line yet */
		upto = (size_t) (nl - text) + 1;
	}
	if (upto > ctx->syms_parsed) {
		const char *part = ctx->syms_read + ctx->syms_parsed;
		size_t n = upto - ctx->syms_parsed;

		if (strnlen(part, n) < n || kallsyms_add(ctx, part, n) < 0)
			ctx->syms_eof = 1; /* the table ends there */
		ctx->syms_parsed = upto;
	}
	for (size_t i = from; i < ctx->n_syms && ctx->syms_in_order; i++) {
		const struct ftrace_ksym *k = &ctx->syms[i];
		const char *tab = memchr(k->name, '\t', k->rest);

		/* the kernel's own symbols, in order; a module's (in no order) ends them */
		if (k->addr < ctx->syms_last ||
		    (tab && (size_t) (tab - k->name) + 1 < k->rest && tab[1] == '['))
			ctx->syms_in_order = 0;
		ctx->syms_last = k->addr;
	}
}

static const struct ftrace_sym *sym_make(struct ftrace_ctx *ctx, size_t i);

/*
 * ftrace_sym_find() on the part of a streamed table read so far, reading on until it holds a
 * symbol above @addr; false when the whole table must answer (see
 * ftrace_kallsyms_defer_stream()). The part read holds the kernel's own symbols only, in
 * address order; those after it are the kernel's above them and the modules', which are
 * outside the kernel's image, so never between two of its symbols. The whole table sorts
 * equal addresses in reverse order of reading, and a lookup between two addresses finds the
 * last of the lower address's symbols there: the first one read.
 */
static bool syms_stream_find(struct ftrace_ctx *ctx, uint64_t addr, const struct ftrace_sym **out)
{
	size_t lo = 0, hi, first;

	while (ctx->syms_in_order && !ctx->syms_eof && !(ctx->n_syms && ctx->syms_last > addr))
		syms_stream_more(ctx);
	if (!ctx->syms_in_order || !(ctx->n_syms && ctx->syms_last > addr))
		return false;
	hi = ctx->n_syms;
	while (lo < hi) { /* the first symbol above @addr */
		size_t mid = lo + (hi - lo) / 2;

		if (ctx->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false; /* below the kernel's first symbol: the modules' may be there */
	for (first = lo - 1; first > 0 && ctx->syms[first - 1].addr == ctx->syms[lo - 1].addr;
	     first--)
		;
	if (ctx->syms[lo - 1].addr == addr && first != lo - 1)
		return false; /* which of them a search finds depends on the whole table */
	*out = sym_make(ctx, first);
	return true;
}

/* The rest of a streamed table, then the table sorted as a text parsed at once is. */
static void syms_stream_all(struct ftrace_ctx *ctx)
{
	while (!ctx->syms_eof)
		syms_stream_more(ctx);
	ctx->syms_streaming = 0;
	/* the symbols made so far were made by their place in reading order */
	memset(ctx->syms_made, 0, ctx->n_syms * sizeof(*ctx->syms_made));
}

/*
 * Parse the kallsyms text ftrace_kallsyms_defer() kept, on the first lookup. A bad line ends
 * the table there, as it does when parsed at once, and leaves no cause behind: the lookup
 * is not failing.
 */
static TK_NOINLINE void syms_load(const struct ftrace_ctx *cctx)
{
	struct ftrace_ctx *ctx = (struct ftrace_ctx *) cctx; /* lazily filled, never const */
	const char *text = ctx->syms_text;
	size_t depth = error_depth();

	ctx->syms_text = NULL;
	if (ctx->syms_streaming) {
		syms_stream_all(ctx); /* parsed as read */
		ctx->syms_text_len = 0;
	} else if (ctx->syms_fetch) {
		text = ctx->syms_fetch(ctx->syms_payload, &ctx->syms_text_len);
		ctx->syms_fetch = NULL;
		if (!text)
			ctx->syms_text_len = 0;
	}
	if (ctx->syms_text_len)
		(void) kallsyms_add(ctx, text, ctx->syms_text_len);
	if (sort_like_tep(ctx->syms, ctx->n_syms, sizeof(*ctx->syms), sym_cmp) < 0)
		ctx->n_syms = 0; /* out of memory: no symbols rather than unsorted ones */
	error_truncate(depth);
}

size_t ftrace_syms_count(const struct ftrace_ctx *ctx)
{
	if (TK_UNLIKELY(ctx->syms_text != NULL))
		syms_load(ctx);
	return ctx->n_syms;
}

const struct ftrace_sym *ftrace_sym_at(const struct ftrace_ctx *ctx, size_t i)
{
	if (i >= ftrace_syms_count(ctx))
		return NULL;
	return sym_make((struct ftrace_ctx *) ctx, i); /* lazily filled, never const */
}

/* Symbol @i as lookups give it: its name and module copied out of the text on first use. */
static const struct ftrace_sym *sym_make(struct ftrace_ctx *ctx, size_t i)
{
	const struct ftrace_ksym *k;
	struct ftrace_sym *s;
	const char *mod;
	size_t name_len, mod_len;

	if (ctx->syms_made[i])
		return ctx->syms_made[i];
	k = &ctx->syms[i];
	name_len = ksym_name(k, &mod, &mod_len);
	s = arena_alloc(&ctx->arena, sizeof(*s));
	if (!s || !(s->name = arena_strndup(&ctx->arena, k->name, name_len)))
		return NULL;
	s->addr = k->addr;
	s->module = NULL;
	if (mod && !(s->module = arena_strndup(&ctx->arena, mod, mod_len)))
		return NULL;
	ctx->syms_made[i] = s;
	return s;
}

uint64_t ftrace_sym_addr(const struct ftrace_ctx *ctx, const char *name)
{
	size_t n = ftrace_syms_count(ctx), len = strlen(name);

	for (size_t i = 0; i < len; i++)
		if (is_space(name[i]))
			return 0; /* a name is one word */
	if (!len)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct ftrace_ksym *k = &ctx->syms[i];

		/* the name is the line's first word */
		if (k->rest >= len && k->name[0] == name[0] && !memcmp(k->name, name, len) &&
		    (k->rest == len || is_space(k->name[len])))
			return k->addr;
	}
	return 0;
}
/*
 * "<hex addr> : "<fmt>"", read like libtraceevent: the address is the text before the first
 * ':' (after any leading ':'), read by strtoull(.., 16); the format starts one character after
 * that ':'. A line of only ':' ends the parse without an error, as there.
 */
enum tk_status ftrace_printk_parse(struct ftrace_ctx *ctx, const char *text, size_t len)
{
	struct line_iter it;
	const char *s, *colon, *b, *e;
	size_t n, q;
	uint32_t line;

	TK_ASSERT_PRE(ctx && !ctx->finished && (text || !len));
	lines_init(&it, text, len);
	while (lines_next(&it, &s, &n, &line)) {
		struct ftrace_printk *pk;
		uint64_t addr = 0;

		for (q = 0; q < n && s[q] == ':'; q++)
			;
		if (q == n)
			break;
		colon = memchr(s + q, ':', n - q);
		e = s + n;
		if (!scan_hex(s, colon ? (size_t) (colon - s) : n, q, 0, &addr))
			addr = 0; /* strtoull() of no number */
		/*
		 * Without a ':' or with nothing after it, libtraceevent reads past the line (or
		 * the buffer); we take an empty format.
		 */
		b = colon && colon + 1 < e ? colon + 2 : e;
		if (b < e && *b == '"')
			b++;
		if (e > b && e[-1] == '"') {
			e--;
			if (e - b >= 2 && e[-2] == '\\' && e[-1] == 'n')
				e -= 2;
		}
		pk = table_grow(ctx->printk, &ctx->printk_cap, ctx->n_printk, sizeof(*pk));
		if (!pk)
			return table_nomem("printk_formats");
		ctx->printk = pk;
		pk += ctx->n_printk;
		pk->addr = addr;
		pk->fmt = arena_strndup(&ctx->arena, b, (size_t) (e - b));
		if (!pk->fmt)
			return table_nomem("printk_formats");
		ctx->n_printk++;
	}
	return TK_OK;
}

static enum tk_status comm_append(struct ftrace_ctx *ctx, int32_t pid, const char *comm, size_t len)
{
	struct ftrace_comm *c;

	c = table_grow(ctx->comms, &ctx->comms_cap, ctx->n_comms, sizeof(*c));
	if (!c)
		return TK_ERR_NOMEM;
	ctx->comms = c;
	c += ctx->n_comms;
	c->pid = pid;
	c->comm = arena_strndup(&ctx->arena, comm, len);
	if (!c->comm)
		return TK_ERR_NOMEM;
	ctx->n_comms++;
	return TK_OK;
}

/*
 * "<pid> <comm>", read like libtraceevent's sscanf("%d %m[^\n]s"): a decimal int (a value
 * past the range of long is an error, others are cut to 32 bits), blanks, then at least one
 * character of comm, which runs to the end of the line.
 */
enum tk_status ftrace_cmdlines_parse(struct ftrace_ctx *ctx, const char *text, size_t len)
{
	struct line_iter it;
	const char *s;
	size_t n;
	uint32_t line;

	TK_ASSERT_PRE(ctx && !ctx->finished && (text || !len));
	lines_init(&it, text, len);
	while (lines_next(&it, &s, &n, &line)) {
		size_t i = skip_space(s, n, 0), start;
		uint64_t v = 0, limit = INT64_MAX;
		bool neg = false;

		if (i < n && (s[i] == '+' || s[i] == '-'))
			neg = s[i++] == '-';
		if (neg)
			limit++; /* LONG_MIN */
		for (start = i; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			unsigned int d = (unsigned int) (s[i] - '0');

			if (v > (limit - d) / 10)
				return table_fail("saved_cmdlines", line, "pid out of range");
			v = v * 10 + d;
		}
		if (i == start)
			return table_fail("saved_cmdlines", line, "no pid");
		i = skip_space(s, n, i);
		if (i == n)
			return table_fail("saved_cmdlines", line, "no comm");
		if (comm_append(ctx, (int32_t) (uint32_t) (neg ? 0 - v : v), s + i, n - i) < 0)
			return table_nomem("saved_cmdlines");
	}
	return TK_OK;
}

enum tk_status ftrace_comm_register(struct ftrace_ctx *ctx, int32_t pid, const char *comm,
				    size_t len)
{
	struct ftrace_comm c;
	size_t i;

	TK_ASSERT_PRE(ctx && (comm || !len));
	if (!comm)
		comm = "";
	if (!ctx->finished) {
		if (comm_append(ctx, pid, comm, len) < 0)
			return table_nomem("comm");
		return TK_OK;
	}
	if (pid == 0 || comm_index(ctx, pid) != SIZE_MAX)
		return TK_OK;
	if (comm_append(ctx, pid, comm, len) < 0)
		return table_nomem("comm");
	/* move the new entry from the end to its place */
	c = ctx->comms[ctx->n_comms - 1];
	for (i = ctx->n_comms - 1; i > 0 && ctx->comms[i - 1].pid > pid; i--)
		ctx->comms[i] = ctx->comms[i - 1];
	ctx->comms[i] = c;
	return TK_OK;
}
