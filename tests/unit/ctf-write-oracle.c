// SPDX-License-Identifier: MIT
/*
 * Fixture and oracles of the CTF writer's unit tests (see ctf-write-oracle.h).
 *
 * Oracle 1 is the project's CTF reader (tk_trace_open(), tk_iter_next(), values through the
 * model): every event's class name and id, clock value, time in ns (from the clock's
 * definition, reference/ctf.md section 8), packet cpu_id, and each field's name, type and
 * value against what the test gave, stream by stream; the losses it reports must add up to
 * those recorded. Oracle 2 walks the index files and packets (sections 2 and 6): packets back
 * to back from offset 0, sizes in bits, zero padding, contexts equal to the index entries,
 * times that never go back, sequence numbers from 0 and the last loss count. For nested
 * declarations, values are drawn by a generator of their own (vgen) and checked by a walk of
 * the reader's field classes beside the declarations (check_scope).
 */
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ctf-write-oracle.h"
#include "model/model.h"

char ctfw_tmpdir[] = "/tmp/tk-ctfw-XXXXXX";

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void) sb;
	(void) flag;
	(void) ftw;
	return remove(path);
}

int ctfw_setup(void **state)
{
	(void) state;
	return mkdtemp(ctfw_tmpdir) ? 0 : -1;
}

int ctfw_teardown(void **state)
{
	(void) state;
	return nftw(ctfw_tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- the test's own model of what it wrote ------------------------------------------------ */

uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

void print_causes(void)
{
	size_t i;

	for (i = 0; i < tk_error_count(); i++)
		print_error("  cause: %s\n", tk_error_cause(i));
}

void tw_create(struct tw *t, const char *name, const struct tk_ctf_writer_opts *o)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "%s/%s", ctfw_tmpdir, name);
	OK(tk_ctf_writer_create(&t->w, t->dir, o));
	t->bo = !o || o->byte_order == TK_CTF_BYTE_ORDER_HOST ? TK_BYTE_ORDER_HOST
		: o->byte_order == TK_CTF_BYTE_ORDER_LE	      ? TK_BYTE_ORDER_LE
							      : TK_BYTE_ORDER_BE;
}

uint64_t tw_clock(struct tw *t, const char *name, uint64_t freq, int64_t off_s, uint64_t off_c)
{
	uint64_t id;

	OK(tk_ctf_writer_add_clock(t->w, name, freq, off_s, off_c, NULL, 1, &id));
	assert_int_equal(id, t->nclk);
	t->clk[t->nclk].freq = freq;
	t->clk[t->nclk].off_s = off_s;
	t->clk[t->nclk].off_c = off_c;
	t->nclk++;
	return id;
}

uint64_t tw_sc(struct tw *t, uint64_t clock, const struct tk_ctf_field_decl *ctx, size_t nctx)
{
	uint64_t id;

	OK(tk_ctf_writer_add_stream_class(t->w, clock, &id));
	assert_int_equal(id, t->nsc);
	if (nctx)
		OK(tk_ctf_writer_set_event_context(t->w, id, ctx, nctx));
	t->sc[id].ctx = ctx;
	t->sc[id].nctx = nctx;
	t->sc[id].clock = clock;
	t->nsc++;
	return id;
}

size_t tw_class(struct tw *t, uint64_t sc, const char *name, const struct tk_ctf_field_decl *d,
		size_t n)
{
	struct tclass *c = &t->cls[t->ncls];

	assert_true(t->ncls < MAX_CLASSES);
	OK(tk_ctf_writer_add_event_class(t->w, sc, name, -1, d, n, &c->id));
	c->sc = sc;
	c->name = name;
	c->d = d;
	c->n = n;
	return t->ncls++;
}

size_t tw_stream(struct tw *t, uint64_t sc, uint32_t cpu)
{
	size_t i = t->nst++;

	assert_true(i < MAX_STREAMS);
	OK(tk_ctf_writer_add_stream(t->w, sc, cpu, &t->st[i]));
	t->st_sc[i] = sc;
	t->st_cpu[i] = cpu;
	/* the documented file name: channel<stream class>_<count within the class> */
	snprintf(t->st_name[i], sizeof(t->st_name[i]), "channel%" PRIu64 "_%" PRIu64, sc,
		 t->sc[sc].n_streams++);
	return i;
}

/* ---- values drawn from a seed --------------------------------------------------------------- */

static unsigned int width_of(unsigned int bits)
{
	return bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
}

static void put_elem(uint8_t *p, unsigned int width, uint64_t v)
{
	uint8_t u8 = (uint8_t) v;
	uint16_t u16 = (uint16_t) v;
	uint32_t u32 = (uint32_t) v;

	switch (width) {
	case 1:
		memcpy(p, &u8, 1);
		break;
	case 2:
		memcpy(p, &u16, 2);
		break;
	case 4:
		memcpy(p, &u32, 4);
		break;
	default:
		memcpy(p, &v, 8);
		break;
	}
}

static uint64_t get_elem(const uint8_t *p, unsigned int width)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (width) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	default:
		memcpy(&u64, p, 8);
		return u64;
	}
}

/* Text bytes: printable ASCII, escapes, UTF-8 and control bytes, never NUL. */
static uint8_t text_byte(uint64_t *s)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz ABC_019\"\\'?\n\t\x01\x7f\xc3\xa9";

	return (uint8_t) set[rnd(s) % (sizeof(set) - 1)];
}

/* The values of @n fields for the event drawn from @seed; data lives in @scratch. */
static void gen_values(const struct tk_ctf_field_decl *d, size_t n, uint64_t seed,
		       struct tk_ctf_value *v, uint8_t (*scratch)[SCRATCH])
{
	uint64_t s = seed * UINT64_C(0x9E3779B97F4A7C15) + 0x1234567;
	size_t i, j;

	rnd(&s);
	for (i = 0; i < n; i++) {
		unsigned int w;
		size_t len;

		memset(&v[i], 0, sizeof(v[i]));
		switch (d[i].kind) {
		case TK_CTF_FIELD_KIND_INT:
			v[i].v.u = rnd(&s);
			if (rnd(&s) & 1)
				v[i].v.u >>= rnd(&s) % 64;
			break;
		case TK_CTF_FIELD_KIND_FLOAT:
			/* finite values in float range, some with fractions */
			v[i].v.d = (double) (int32_t) rnd(&s) / (double) (1 + rnd(&s) % 1000);
			break;
		case TK_CTF_FIELD_KIND_STRING:
			len = rnd(&s) % 48;
			for (j = 0; j < len; j++)
				scratch[i][j] = text_byte(&s);
			v[i].data = scratch[i];
			v[i].len = len;
			break;
		default: /* arrays and sequences */
			if (d[i].kind == TK_CTF_FIELD_KIND_ARRAY)
				len = rnd(&s) % 4 ? d[i].array_len : rnd(&s) % (d[i].array_len + 1);
			else
				len = rnd(&s) % 24;
			if (d[i].elem_kind == TK_CTF_FIELD_KIND_CHAR) {
				for (j = 0; j < len; j++)
					scratch[i][j] = text_byte(&s);
			} else {
				w = width_of(d[i].elem_bits);
				for (j = 0; j < len; j++)
					put_elem(scratch[i] + j * w, w, rnd(&s));
			}
			v[i].data = len ? scratch[i] : NULL;
			v[i].len = len;
			break;
		}
	}
}

/* Append an event; its payload is @fixed (kept alive by the caller) or drawn from its seed. */
void tw_append_values(struct tw *t, size_t stream, size_t cls, uint64_t ts,
		      const struct tk_ctf_value *fixed)
{
	static uint8_t scratch[2][MAX_FIELDS][SCRATCH];
	struct tk_ctf_value ctx[MAX_FIELDS], pl[MAX_FIELDS];
	const struct tclass *c = &t->cls[cls];
	uint64_t sc = t->st_sc[stream];
	struct texp *e;

	assert_int_equal(c->sc, sc);
	if (t->nev == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->ev = realloc(t->ev, t->cap * sizeof(*t->ev));
		assert_non_null(t->ev);
	}
	e = &t->ev[t->nev];
	e->stream = (uint32_t) stream;
	e->cls = (uint32_t) cls;
	e->ts = ts;
	e->seed = t->nev + 1;
	e->fixed = fixed;
	gen_values(t->sc[sc].ctx, t->sc[sc].nctx, e->seed ^ 0xC0FFEE, ctx, scratch[0]);
	gen_values(c->d, c->n, e->seed, pl, scratch[1]);
	OK(tk_ctf_writer_append(t->w, t->st[stream], c->id, ts, t->sc[sc].nctx ? ctx : NULL,
				fixed  ? fixed
				: c->n ? pl
				       : NULL));
	t->nev++;
}

void tw_append(struct tw *t, size_t stream, size_t cls, uint64_t ts)
{
	tw_append_values(t, stream, cls, ts, NULL);
}

void tw_lose(struct tw *t, size_t stream, uint64_t count)
{
	OK(tk_ctf_writer_add_discarded(t->w, t->st[stream], count));
	t->lost[stream] += count;
}

/* ---- values of nested declarations, drawn from a seed ---------------------------------------- */

static const struct tk_ctf_value *vgen_int(const struct vgen *g, const char *name,
					   const struct tk_ctf_field_decl **d)
{
	size_t i;

	for (i = g->n_ints; i-- > 0;)
		if (g->ints[i].d->name && !strcmp(g->ints[i].d->name, name)) {
			*d = g->ints[i].d;
			return (const struct tk_ctf_value *) &g->ints[i].v;
		}
	fail();
	return NULL;
}

static void vgen_field(struct vgen *g, const struct tk_ctf_field_decl *d)
{
	struct tk_ctf_value *x = &g->v[g->n++];
	const struct tk_ctf_field_decl *t = NULL;
	uint64_t k, r = rnd(&g->s);
	size_t i, j;

	assert_true(g->n < ARRAY_SIZE(g->v) - 64);
	memset(x, 0, sizeof(*x));
	switch (d->kind) {
	case TK_CTF_FIELD_KIND_INT:
		x->v.u = r >> (r % 64);
		if (d->name && !strcmp(d->name, "len"))
			x->v.u = r % 12; /* a length */
		if (d->name && !strcmp(d->name, "n"))
			x->v.u = r % 5;
		break;
	case TK_CTF_FIELD_KIND_ENUM: {
		/* tags: a label with an option (all but "unused", the last) */
		const struct tk_ctf_enum_label *l =
			&d->labels[r % (d->n_labels - (d->labels == g->tags))];

		/* a labelled value, or now and then one of no label */
		x->v.u = l->lo.u + (l->hi.u - l->lo.u ? (r >> 8) % (l->hi.u - l->lo.u + 1) : 0);
		if (r % 7 == 0 && d->labels != g->tags)
			x->v.u = 200;
		break;
	}
	case TK_CTF_FIELD_KIND_FLOAT:
		x->v.d = (double) (int32_t) r / 8.0;
		break;
	case TK_CTF_FIELD_KIND_STRING:
		x->len = r % 20;
		x->data = g->text + g->used;
		for (k = 0; k < x->len; k++)
			g->text[g->used++] = (uint8_t) ('a' + (r >> k) % 26);
		break;
	case TK_CTF_FIELD_KIND_STRUCT:
		g->n--;
		for (i = 0; i < d->n_members; i++)
			vgen_field(g, &d->members[i]);
		return;
	case TK_CTF_FIELD_KIND_VARIANT: {
		const struct tk_ctf_value *tv = vgen_int(g, d->ref, &t);

		x->len = SIZE_MAX;
		for (i = 0; i < t->n_labels; i++)
			if (tv->v.u >= t->labels[i].lo.u && tv->v.u <= t->labels[i].hi.u)
				for (j = 0; j < d->n_members; j++)
					if (!strcmp(d->members[j].name, t->labels[i].label))
						x->len = j;
		assert_true(x->len < d->n_members);
		vgen_field(g, &d->members[x->len]);
		return;
	}
	default: /* arrays and sequences */
		if (d->kind == TK_CTF_FIELD_KIND_ARRAY)
			x->len = (size_t) d->array_len;
		else if (d->ref)
			x->len = (size_t) vgen_int(g, d->ref, &t)->v.u;
		else
			x->len = r % 4;
		if (!d->elem || d->elem->kind == TK_CTF_FIELD_KIND_CHAR) {
			x->data = g->text + g->used;
			for (k = 0; k < x->len; k++)
				g->text[g->used++] = (uint8_t) ('A' + (r >> (k % 60)) % 26);
			if (x->len > 2 && r % 3 == 0)
				g->text[g->used - 2] = 0; /* bytes after a NUL are kept too */
			return;
		}
		for (k = 0; k < x->len; k++)
			vgen_field(g, d->elem);
		return;
	}
	if (d->name && g->n_ints < ARRAY_SIZE(g->ints)) {
		g->ints[g->n_ints].d = d;
		g->ints[g->n_ints++].v = x->v.u;
	}
}

/* Values of scope @d (a STRUCT declaration) for the event of seed @seed. */
const struct tk_ctf_value *vgen_scope(struct vgen *g, const struct tk_ctf_field_decl *d,
				      uint64_t seed)
{
	size_t first = g->n;

	g->s = seed * UINT64_C(0x9E3779B97F4A7C15) + 77;
	rnd(&g->s);
	g->n_ints = 0;
	vgen_field(g, d);
	return &g->v[first];
}

void vgen_reset(struct vgen *g)
{
	g->n = 0;
	g->used = 0;
}

/* ---- oracle 1: the project's CTF reader ----------------------------------------------------- */

static int64_t sign_extend(uint64_t v, unsigned int bits)
{
	if (bits < 64 && ((v >> (bits - 1)) & 1))
		v |= ~((UINT64_C(1) << bits) - 1);
	return (int64_t) v;
}

static void check_int(const struct model_value *mv, uint64_t want, unsigned int bits, int is_signed,
		      const char *name)
{
	uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;

	if (is_signed ? mv->v.i != sign_extend(want & mask, bits) : mv->v.u != (want & mask)) {
		print_error("field %s: got %" PRIu64 ", want %" PRIu64 " (%u bits%s)\n", name,
			    mv->v.u, want & mask, bits, is_signed ? ", signed" : "");
		fail();
	}
}

static void check_name(const struct model_member *m, const char *want)
{
	if (strcmp(m->name, want)) {
		print_error("member named %s (written %s), want %s\n", m->name, m->orig_name, want);
		fail();
	}
}

/*
 * Check the scope @st (a structure) and its values from @v against the declarations @d and
 * the values @want the event was written with; returns the value after the scope.
 */
static const struct model_value *check_fields(const struct model_fc *st,
					      const struct model_value *v,
					      const struct tk_ctf_field_decl *d, size_t n,
					      const struct tk_ctf_value *want)
{
	uint32_t m = 0;
	size_t i, j;

	if (!n) {
		assert_true(!st || st->u.st.count == 0);
		return v;
	}
	assert_non_null(st);
	assert_int_equal(st->kind, MODEL_FC_STRUCT);
	for (i = 0; i < n; i++) {
		const struct tk_ctf_value *x = &want[i];
		const struct model_fc *fc;
		char lname[128];

		if (d[i].kind == TK_CTF_FIELD_KIND_SEQUENCE) {
			assert_true(m < st->u.st.count);
			snprintf(lname, sizeof(lname), "_%s_length", d[i].name);
			check_name(&st->u.st.members[m], lname);
			fc = st->u.st.members[m].fc;
			assert_int_equal(fc->kind, MODEL_FC_INT);
			assert_int_equal(fc->size, 32);
			assert_int_equal(v->v.u, x->len);
			v++;
			m++;
		}
		assert_true(m < st->u.st.count);
		check_name(&st->u.st.members[m], d[i].name);
		fc = st->u.st.members[m].fc;
		m++;
		switch (d[i].kind) {
		case TK_CTF_FIELD_KIND_INT:
			assert_int_equal(fc->kind, MODEL_FC_INT);
			assert_int_equal(fc->size, d[i].bits);
			assert_int_equal(fc->is_signed, !!d[i].is_signed);
			assert_int_equal(fc->base, d[i].base ? d[i].base : 10);
			check_int(v++, x->v.u, d[i].bits, d[i].is_signed, d[i].name);
			break;
		case TK_CTF_FIELD_KIND_FLOAT:
			assert_int_equal(fc->kind, MODEL_FC_FLOAT);
			assert_int_equal(fc->mant_dig, d[i].bits == 32 ? 24 : 53);
			if (d[i].bits == 32)
				assert_true(v->v.d == (double) (float) x->v.d);
			else
				assert_memory_equal(&v->v.d, &x->v.d, sizeof(double));
			v++;
			break;
		case TK_CTF_FIELD_KIND_STRING: {
			const uint8_t *nul = x->len ? memchr(x->data, 0, x->len) : NULL;
			size_t len = nul ? (size_t) (nul - (const uint8_t *) x->data) : x->len;

			assert_int_equal(fc->kind, MODEL_FC_STRING);
			assert_int_equal(v->n, len);
			if (len)
				assert_memory_equal(v->v.s, x->data, len);
			v++;
			break;
		}
		default: {
			int arr = d[i].kind == TK_CTF_FIELD_KIND_ARRAY;
			uint64_t count = arr ? d[i].array_len : x->len;

			assert_int_equal(fc->kind, arr ? MODEL_FC_ARRAY : MODEL_FC_SEQUENCE);
			if (d[i].elem_kind == TK_CTF_FIELD_KIND_CHAR) {
				/* one value: the text, all its bytes (NUL padding after the data) */
				assert_true(fc->is_text);
				for (j = 0; j < count; j++) {
					uint8_t want_b =
						j < x->len ? ((const uint8_t *) x->data)[j] : 0;

					assert_int_equal((uint8_t) v->v.s[j], want_b);
				}
				v++;
				break;
			}
			assert_false(fc->is_text);
			assert_int_equal(fc->u.arr.elem->size, d[i].elem_bits);
			assert_int_equal(fc->u.arr.elem->is_signed, !!d[i].elem_signed);
			assert_int_equal(v->n, count);
			v++;
			for (j = 0; j < count; j++) {
				unsigned int w = width_of(d[i].elem_bits);
				uint64_t e =
					j < x->len ? get_elem((const uint8_t *) x->data + j * w, w)
						   : 0;

				check_int(v++, e, d[i].elem_bits, d[i].elem_signed, d[i].name);
			}
			break;
		}
		}
	}
	assert_int_equal(m, st->u.st.count);
	return v;
}

/* Expected time in ns of @ts on clock @c, from the clock's definition (reference section 8). */
static int64_t expect_ns(const struct tw *t, uint64_t clock, uint64_t ts)
{
	uint64_t f = t->clk[clock].freq;
	int64_t s = t->clk[clock].off_s + (int64_t) (t->clk[clock].off_c / f);
	uint64_t c = t->clk[clock].off_c % f;

	if (f == 1000000000)
		return s * 1000000000 + (int64_t) c + (int64_t) ts;
	/* the tests keep cycles small enough for exact products (1e9 / f an integer) */
	assert_int_equal(1000000000 % f, 0);
	return s * 1000000000 + (int64_t) (c * (1000000000 / f)) +
	       (int64_t) (ts * (1000000000 / f));
}

/* The packet context's cpu_id, the one member of it readers show. */
static void check_cpu(const struct tk_event *ev, uint32_t cpu)
{
	const struct model_fc *pc = ev->stream->sc->packet_context;
	const struct model_value *v = ev->scope[MODEL_SCOPE_PACKET_CONTEXT];
	uint32_t i;

	assert_non_null(pc);
	assert_non_null(v);
	for (i = 0; i < pc->u.st.count; i++)
		if (!strcmp(pc->u.st.members[i].name, "cpu_id"))
			break;
	assert_true(i < pc->u.st.count);
	assert_int_equal(v[i].v.u, cpu); /* every member before it is one integer value */
}

static void on_notice(const struct tk_notice *n, void *payload)
{
	uint64_t *lost = payload;

	assert_int_equal(tk_notice_get_kind(n), TK_NOTICE_DISCARDED_EVENTS);
	assert_true(tk_stream_get_id(tk_notice_get_stream(n)) < MAX_STREAMS);
	lost[tk_stream_get_id(tk_notice_get_stream(n))] += tk_notice_get_count(n);
}

/* Read the trace back and compare every event, stream by stream; returns the event count. */
size_t tw_read_check(struct tw *t)
{
	static uint8_t scratch[2][MAX_FIELDS][SCRATCH];
	const char *paths[1] = {t->dir};
	size_t next[MAX_STREAMS] = {0}, count = 0, i;
	uint64_t lost[MAX_STREAMS] = {0};
	const struct tk_event *ev;
	struct tk_trace *trace;
	struct tk_iter *it;
	int64_t last_ns = INT64_MIN;
	enum tk_status st;

	OK(tk_trace_open(&trace, paths, 1, NULL));
	OK(tk_iter_create(&it, trace));
	tk_iter_set_notice_cb(it, on_notice, lost);
	while ((st = tk_iter_next(it, &ev)) == TK_OK) {
		const struct tk_stream *s = tk_event_get_stream(ev);
		struct tk_ctf_value ctx[MAX_FIELDS], pl[MAX_FIELDS];
		uint64_t sid = tk_stream_get_id(s);
		const struct tclass *c;
		const struct texp *e;
		uint64_t sc;

		assert_true(sid < t->nst);
		while (next[sid] < t->nev && t->ev[next[sid]].stream != sid)
			next[sid]++;
		assert_true(next[sid] < t->nev);
		e = &t->ev[next[sid]++];
		c = &t->cls[e->cls];
		sc = c->sc;
		assert_int_equal(tk_stream_get_class_id(s), sc);
		assert_string_equal(tk_event_class_get_name(tk_event_get_class(ev)), c->name);
		assert_int_equal(tk_event_class_get_id(tk_event_get_class(ev)), c->id);
		assert_true(tk_event_has_timestamp(ev));
		assert_int_equal(tk_event_get_clock_value(ev), e->ts);
		assert_int_equal(tk_event_get_timestamp(ev), expect_ns(t, t->sc[sc].clock, e->ts));
		assert_true(tk_event_get_timestamp(ev) >= last_ns);
		last_ns = tk_event_get_timestamp(ev);

		gen_values(t->sc[sc].ctx, t->sc[sc].nctx, e->seed ^ 0xC0FFEE, ctx, scratch[0]);
		gen_values(c->d, c->n, e->seed, pl, scratch[1]);
		OK(model_event_values(ev));
		check_cpu(ev, t->st_cpu[sid]);
		check_fields(ev->stream->sc->event_context,
			     ev->scope[MODEL_SCOPE_EVENT_COMMON_CONTEXT], t->sc[sc].ctx,
			     t->sc[sc].nctx, ctx);
		check_fields(ev->ec->payload, ev->scope[MODEL_SCOPE_PAYLOAD], c->d, c->n,
			     e->fixed ? e->fixed : pl);
		count++;
	}
	if (st != TK_END) {
		print_error("tk_iter_next() = %s after %zu events\n", tk_status_str(st), count);
		print_causes();
		fail();
	}
	for (i = 0; i < t->nst; i++) {
		while (next[i] < t->nev && t->ev[next[i]].stream != i)
			next[i]++;
		assert_int_equal(next[i], t->nev); /* every event of every stream was read */
		assert_int_equal(lost[i], t->lost[i]);
	}
	assert_int_equal(count, t->nev);
	tk_iter_destroy(it);
	tk_trace_close(trace);
	return count;
}

/* ---- oracle 2: index files and packet contexts, by hand --------------------------------------- */

uint8_t *slurp(const char *path, size_t *size)
{
	struct stat sb;
	uint8_t *p;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	*size = (size_t) sb.st_size;
	p = malloc(*size + 1);
	assert_non_null(p);
	assert_int_equal(read(fd, p, *size), (ssize_t) *size);
	close(fd);
	return p;
}

/*
 * Walk the data file and index of stream @i (reference/ctf.md sections 2 and 6): the index
 * header, then per entry a packet at exactly that offset whose header and context say what
 * the entry says, zero padding after the content, and the file ending with the last packet.
 */
void check_packets(const struct tw *t, size_t i, struct pk_summary *sum)
{
	char path[512];
	uint8_t *data, *idx;
	size_t dsize, isize, n, k;
	uint64_t off = 0, prev_end = 0, prev_disc = 0;
	enum tk_byte_order bo = t->bo;

	memset(sum, 0, sizeof(*sum));
	sum->min_packet = UINT64_MAX;
	snprintf(path, sizeof(path), "%s/%s", t->dir, t->st_name[i]);
	data = slurp(path, &dsize);
	snprintf(path, sizeof(path), "%s/index/%s.idx", t->dir, t->st_name[i]);
	idx = slurp(path, &isize);
	assert_true(isize >= 16);
	assert_int_equal(tk_load_be32(idx), 0xC1F1DCC1);
	assert_int_equal(tk_load_be32(idx + 4), 1);
	assert_int_equal(tk_load_be32(idx + 8), 1);
	assert_int_equal(tk_load_be32(idx + 12), 72);
	assert_int_equal((isize - 16) % 72, 0);
	n = (isize - 16) / 72;
	for (k = 0; k < n; k++) {
		const uint8_t *e = idx + 16 + k * 72, *p, *c;
		uint64_t psize = tk_load_be64(e + 8), csize = tk_load_be64(e + 16);
		uint64_t b;

		assert_int_equal(tk_load_be64(e), off);
		assert_int_equal(psize % 8, 0);
		assert_true(csize <= psize && csize >= 84 * 8);
		assert_true(off + psize / 8 <= dsize);
		assert_true(tk_load_be64(e + 24) <= tk_load_be64(e + 32));
		if (k)
			assert_true(tk_load_be64(e + 24) >= prev_end);
		assert_true(tk_load_be64(e + 40) >= prev_disc);
		assert_int_equal(tk_load_be64(e + 48), t->st_sc[i]);
		assert_int_equal(tk_load_be64(e + 56), i);
		assert_int_equal(tk_load_be64(e + 64), k);
		p = data + off;
		assert_int_equal(tk_load_u32(p, bo), 0xC1FC1FC1);
		assert_int_equal(tk_load_u32(p + 20, bo), t->st_sc[i]);
		assert_int_equal(tk_load_u64(p + 24, bo), i);
		c = p + 32;
		assert_int_equal(tk_load_u64(c, bo), tk_load_be64(e + 24));
		assert_int_equal(tk_load_u64(c + 8, bo), tk_load_be64(e + 32));
		assert_int_equal(tk_load_u64(c + 16, bo), csize);
		assert_int_equal(tk_load_u64(c + 24, bo), psize);
		assert_int_equal(tk_load_u64(c + 32, bo), k);
		assert_int_equal(tk_load_u64(c + 40, bo), tk_load_be64(e + 40));
		assert_int_equal(tk_load_u32(c + 48, bo), t->st_cpu[i]);
		/* padding: the bits after the content in its last byte, then whole bytes */
		if (csize % 8)
			assert_int_equal(bo == TK_BYTE_ORDER_LE
						 ? p[csize / 8] >> (csize % 8)
						 : p[csize / 8] & (0xff >> (csize % 8)),
					 0);
		for (b = (csize + 7) / 8; b < psize / 8; b++)
			assert_int_equal(p[b], 0);
		prev_end = tk_load_be64(e + 32);
		prev_disc = tk_load_be64(e + 40);
		off += psize / 8;
		sum->packets++;
		if (psize / 8 > sum->max_packet)
			sum->max_packet = psize / 8;
		if (psize / 8 < sum->min_packet)
			sum->min_packet = psize / 8;
		sum->event_bytes += (csize + 7) / 8 - 84;
	}
	assert_int_equal(off, dsize);
	sum->discarded = prev_disc;
	assert_int_equal(sum->discarded, t->lost[i]);
	free(data);
	free(idx);
}

/* Close the writer, then check the index and packets of every stream and read it all back. */
void tw_close_check(struct tw *t)
{
	struct pk_summary sum;
	size_t i;

	OK(tk_ctf_writer_close(t->w));
	t->w = NULL;
	for (i = 0; i < t->nst; i++)
		check_packets(t, i, &sum);
	tw_read_check(t);
}

void tw_fini(struct tw *t)
{
	free(t->ev);
	t->ev = NULL;
}

/* ---- oracle 1 for nested declarations --------------------------------------------------------- */

/* The member of structure @st shown as @name, or fail. */
static const struct model_fc *member_fc(const struct model_fc *st, const char *name)
{
	uint32_t i;

	for (i = 0; i < st->u.st.count; i++)
		if (!strcmp(st->u.st.members[i].name, name))
			return st->u.st.members[i].fc;
	print_error("no member %s\n", name);
	fail();
	return NULL;
}

/* Every range a declaration gives its labels is one of the reader's (which merges labels). */
static void check_labels(const struct model_fc *fc, const struct tk_ctf_field_decl *d)
{
	size_t i;
	uint32_t j, k;

	for (i = 0; i < d->n_labels; i++) {
		int found = 0;

		for (j = 0; j < fc->u.en.count && !found; j++) {
			const struct model_enum_mapping *m = &fc->u.en.maps[j];

			if (strcmp(m->label, d->labels[i].label))
				continue;
			for (k = 0; k < m->nranges; k++)
				found |= m->ranges[k].lo.u == d->labels[i].lo.u &&
					 m->ranges[k].hi.u == d->labels[i].hi.u;
		}
		if (!found) {
			print_error("label %s: range %" PRIu64 " ... %" PRIu64 " not read back\n",
				    d->labels[i].label, d->labels[i].lo.u, d->labels[i].hi.u);
			fail();
		}
	}
}

/*
 * Check field @fc and its values from *@mv against declaration @d and the values from *@xv it
 * was written with (struct tk_ctf_value: depth first), advancing both. @st is the structure
 * that holds the field, for sequences' length members and variants' tags.
 */
static void check_nested(const struct model_fc *st, const struct model_fc *fc,
			 const struct tk_ctf_field_decl *d, const struct tk_ctf_value **xv,
			 const struct model_value **mv)
{
	const struct tk_ctf_value *x = *xv;
	const struct model_value *v = *mv;
	uint64_t k;
	size_t i;

	switch (d->kind) {
	case TK_CTF_FIELD_KIND_INT:
	case TK_CTF_FIELD_KIND_ENUM:
		assert_int_equal(fc->kind,
				 d->kind == TK_CTF_FIELD_KIND_ENUM ? MODEL_FC_ENUM : MODEL_FC_INT);
		assert_int_equal(fc->size, d->bits);
		assert_int_equal(fc->is_signed, !!d->is_signed);
		assert_int_equal(fc->base, d->base ? d->base : 10);
		if (d->kind == TK_CTF_FIELD_KIND_ENUM)
			check_labels(fc, d);
		check_int(v, x->v.u, d->bits, d->is_signed, d->name ? d->name : "element");
		*xv = x + 1;
		*mv = v + 1;
		return;
	case TK_CTF_FIELD_KIND_FLOAT:
		assert_int_equal(fc->kind, MODEL_FC_FLOAT);
		if (d->bits == 32)
			assert_true(v->v.d == (double) (float) x->v.d);
		else
			assert_memory_equal(&v->v.d, &x->v.d, sizeof(double));
		*xv = x + 1;
		*mv = v + 1;
		return;
	case TK_CTF_FIELD_KIND_STRING:
		assert_int_equal(fc->kind, MODEL_FC_STRING);
		assert_int_equal(v->n, x->len);
		if (x->len)
			assert_memory_equal(v->v.s, x->data, x->len);
		*xv = x + 1;
		*mv = v + 1;
		return;
	case TK_CTF_FIELD_KIND_STRUCT: {
		uint32_t m = 0;

		assert_int_equal(fc->kind, MODEL_FC_STRUCT);
		for (i = 0; i < d->n_members; i++, m++) {
			const struct tk_ctf_field_decl *e = &d->members[i];

			assert_true(m < fc->u.st.count);
			if (e->kind == TK_CTF_FIELD_KIND_SEQUENCE && !e->ref) {
				/* its own length member first, shown as _NAME_length */
				char lname[128];

				snprintf(lname, sizeof(lname), "_%s_length", e->name);
				check_name(&fc->u.st.members[m], lname);
				assert_int_equal((*mv)->v.u, (*xv)->len);
				(*mv)++;
				m++;
			}
			check_name(&fc->u.st.members[m], e->name);
			check_nested(fc, fc->u.st.members[m].fc, e, xv, mv);
		}
		assert_int_equal(m, fc->u.st.count);
		return;
	}
	case TK_CTF_FIELD_KIND_VARIANT:
		assert_int_equal(fc->kind, MODEL_FC_VARIANT);
		assert_int_equal(fc->u.var.count, d->n_members);
		assert_ptr_equal(fc->u.var.tag, member_fc(st, d->ref));
		for (i = 0; i < d->n_members; i++)
			assert_string_equal(fc->u.var.options[i].orig_name, d->members[i].name);
		assert_int_equal(v->n, x->len);
		*xv = x + 1;
		*mv = v + 1;
		check_nested(st, fc->u.var.options[x->len].fc, &d->members[x->len], xv, mv);
		return;
	default: /* arrays and sequences */
		break;
	}
	assert_int_equal(fc->kind,
			 d->kind == TK_CTF_FIELD_KIND_ARRAY ? MODEL_FC_ARRAY : MODEL_FC_SEQUENCE);
	if (d->kind == TK_CTF_FIELD_KIND_SEQUENCE && d->ref)
		assert_ptr_equal(fc->u.arr.length_fc, member_fc(st, d->ref));
	if (!d->elem || d->elem->kind == TK_CTF_FIELD_KIND_CHAR) {
		/* text: one value, the bytes given then NUL padding */
		uint64_t count = d->kind == TK_CTF_FIELD_KIND_ARRAY ? d->array_len : x->len;
		const uint8_t *p = (const uint8_t *) v->v.s;

		assert_true(fc->is_text);
		for (k = 0; k < count; k++)
			assert_int_equal(p[k], k < x->len ? ((const uint8_t *) x->data)[k] : 0);
		*xv = x + 1;
		*mv = v + 1;
		return;
	}
	assert_false(fc->is_text);
	assert_int_equal(v->n, x->len);
	*xv = x + 1;
	*mv = v + 1;
	for (k = 0; k < x->len; k++)
		check_nested(st, fc->u.arr.elem, d->elem, xv, mv);
}

const struct model_value *check_scope(const struct model_fc *st, const struct model_value *v,
				      const struct tk_ctf_field_decl *d,
				      const struct tk_ctf_value *want)
{
	const struct tk_ctf_value *x = want;

	if (!d) {
		assert_null(st);
		return v;
	}
	assert_non_null(st);
	check_nested(NULL, st, d, &x, &v);
	return v;
}
