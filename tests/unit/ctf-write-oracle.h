/* SPDX-License-Identifier: MIT */
/*
 * The fixture and oracles of the CTF writer's unit tests (test-ctf-write.c): a struct tw
 * records what a test writes through the public API (classes, streams, events drawn from a
 * seed per event, losses), and two oracles that share no code with the writer check the
 * trace: the project's CTF reader, event by event and value by value, and a walk of the
 * LTTng index files and packet contexts written by hand from reference/ctf.md.
 */
#ifndef TK_TESTS_UNIT_CTF_WRITE_ORACLE_H
#define TK_TESTS_UNIT_CTF_WRITE_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/tracekit.h>

#include "common/bytes.h"
#include "model/model.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_FIELDS    32
#define SCRATCH	      8192
#define MAX_CLASSES   80
#define MAX_STREAMS   8
#define MAX_SCS	      3

struct tclass {
	uint64_t sc, id;
	const char *name;
	const struct tk_ctf_field_decl *d;
	size_t n;
};

struct texp {
	uint32_t stream;
	uint32_t cls;
	uint64_t ts;
	uint64_t seed;
	const struct tk_ctf_value *fixed; /* the payload as given, instead of drawn from seed */
};

struct tw {
	char dir[256];
	struct tk_ctf_writer *w;
	enum tk_byte_order bo;
	struct tclass cls[MAX_CLASSES];
	size_t ncls;
	struct {
		const struct tk_ctf_field_decl *ctx;
		size_t nctx;
		uint64_t clock;
		uint64_t n_streams;
	} sc[MAX_SCS];
	size_t nsc;
	struct {
		uint64_t freq;
		int64_t off_s;
		uint64_t off_c;
	} clk[MAX_SCS];
	size_t nclk;
	struct tk_ctf_writer_stream *st[MAX_STREAMS];
	uint64_t st_sc[MAX_STREAMS];
	uint32_t st_cpu[MAX_STREAMS];
	char st_name[MAX_STREAMS][32];
	uint64_t lost[MAX_STREAMS];
	size_t nst;
	struct texp *ev;
	size_t nev, cap;
};

struct pk_summary {
	size_t packets;
	uint64_t max_packet;  /* bytes */
	uint64_t min_packet;  /* bytes */
	uint64_t event_bytes; /* content after the packet header and context, all packets */
	uint64_t discarded;   /* events_discarded of the last packet */
};

#define OK(call)                                                                                   \
	do {                                                                                       \
		enum tk_status st_ = (call);                                                       \
		if (st_ != TK_OK) {                                                                \
			print_error("%s = %s\n", #call, tk_status_str(st_));                       \
			print_causes();                                                            \
			fail();                                                                    \
		}                                                                                  \
	} while (0)

/* The call must fail with TK_ERR_INVAL and say why. */
#define INVAL(call)                                                                                \
	do {                                                                                       \
		enum tk_status st_ = (call);                                                       \
		if (st_ != TK_ERR_INVAL || tk_error_count() < 1) {                                 \
			print_error("%s = %s, want TK_ERR_INVAL with a cause\n", #call,            \
				    tk_status_str(st_));                                           \
			fail();                                                                    \
		}                                                                                  \
	} while (0)

/* The directory every test writes its traces under (made by the test's setup). */
/* Declarations of the tests, shortened. */
#define INT_F(nm, nbits, sgn, bs)                                                                  \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_INT, .bits = (nbits), .is_signed = (sgn),  \
		.base = (bs)                                                                       \
	}
#define ARR_F(nm, ek, eb, es, ln)                                                                  \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_ARRAY, .elem_kind = (ek),                  \
		.elem_bits = (eb), .elem_signed = (es), .array_len = (ln)                          \
	}
#define SEQ_F(nm, ek, eb, es)                                                                      \
	{                                                                                          \
		.name = (nm), .kind = TK_CTF_FIELD_KIND_SEQUENCE, .elem_kind = (ek),               \
		.elem_bits = (eb), .elem_signed = (es)                                             \
	}

extern char ctfw_tmpdir[];

/* cmocka group fixtures: make ctfw_tmpdir, and remove it with everything in it. */
int ctfw_setup(void **state);
int ctfw_teardown(void **state);

uint64_t rnd(uint64_t *s);
void print_causes(void);

/* Start writing trace @name (under ctfw_tmpdir) with @o, or the defaults for NULL. */
void tw_create(struct tw *t, const char *name, const struct tk_ctf_writer_opts *o);
uint64_t tw_clock(struct tw *t, const char *name, uint64_t freq, int64_t off_s, uint64_t off_c);
uint64_t tw_sc(struct tw *t, uint64_t clock, const struct tk_ctf_field_decl *ctx, size_t nctx);
size_t tw_class(struct tw *t, uint64_t sc, const char *name, const struct tk_ctf_field_decl *d,
		size_t n);
size_t tw_stream(struct tw *t, uint64_t sc, uint32_t cpu);

/* Append an event; its payload is @fixed (kept alive by the caller) or drawn from its seed. */
void tw_append_values(struct tw *t, size_t stream, size_t cls, uint64_t ts,
		      const struct tk_ctf_value *fixed);
void tw_append(struct tw *t, size_t stream, size_t cls, uint64_t ts);
void tw_lose(struct tw *t, size_t stream, uint64_t count);

/*
 * Values for nested declarations, depth first (struct tk_ctf_value), drawn from a seed: an
 * enumeration takes a labelled value (now and then one of no label, but for @tags), a tag
 * (an enumeration of labels @tags, whose last label chooses no option) a value of one of its
 * labels, and its variant the option of that label's name; a sequence with a length member
 * takes that member's value; text never starts with a NUL but may hold one.
 */
struct vgen {
	uint64_t s;
	const struct tk_ctf_enum_label *tags;
	struct tk_ctf_value v[4096];
	size_t n;
	uint8_t text[1 << 16];
	size_t used;
	struct {
		const struct tk_ctf_field_decl *d;
		uint64_t v;
	} ints[256];
	size_t n_ints;
};

/* Values of scope @d (a STRUCT declaration) for the event of seed @seed, after the others. */
const struct tk_ctf_value *vgen_scope(struct vgen *g, const struct tk_ctf_field_decl *d,
				      uint64_t seed);

/* Forget every value drawn. */
void vgen_reset(struct vgen *g);

/* Oracle 1: read the trace back and compare every event; returns the event count. */
size_t tw_read_check(struct tw *t);

/* Oracle 2: the index and packets of stream @i, summed up in @sum. */
void check_packets(const struct tw *t, size_t i, struct pk_summary *sum);

/*
 * Oracle 1 for nested declarations: the scope @st read back (values from @v) against @d, a
 * STRUCT declaration (NULL: no scope), and the values @want it was written with, depth first
 * (struct tk_ctf_value): kinds, sizes, signs, bases, labels, names, option names, length
 * members and tags, and every value. Returns the value after the scope.
 */
const struct model_value *check_scope(const struct model_fc *st, const struct model_value *v,
				      const struct tk_ctf_field_decl *d,
				      const struct tk_ctf_value *want);

/* Close the writer, then check the packets of every stream and read it all back. */
void tw_close_check(struct tw *t);
void tw_fini(struct tw *t);

/* The whole file at @path, with one spare byte after its *@size bytes; free() it. */
uint8_t *slurp(const char *path, size_t *size);

#endif /* TK_TESTS_UNIT_CTF_WRITE_ORACLE_H */
