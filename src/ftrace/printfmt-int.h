/* SPDX-License-Identifier: MIT */
/*
 * Internals of the print-fmt engine (printfmt-*.c): the argument tree the parser builds, the
 * list of printf pieces the format string is cut into, the output sink and the helpers the
 * evaluator, the %p printers and the plugin handlers share.
 *
 * The tree has exactly the shape libtraceevent 1.7.1 builds for the same text (its operator
 * precedence and associativity quirks included), because `trace-cmd report` prints what that
 * tree evaluates to, and a "better" C parser would print different text for some kernels'
 * formats. Node kinds are numbered like libtraceevent's print-argument types since one error
 * text ("ARG TYPE NOT FIELD BUT 7") shows the number.
 */
#ifndef TK_FTRACE_PRINTFMT_INT_H
#define TK_FTRACE_PRINTFMT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../common/arena.h"
#include "../common/vec.h"
#include "../common/writer.h"
#include "ftrace.h"

/* ------------------------------------------------------------------ tokens (printfmt-lex.c) */

/* libtraceevent's token types (its enum tep_event_type). */
enum pf_tok {
	FTRACE_PF_TOK_ERROR,
	FTRACE_PF_TOK_NONE,
	FTRACE_PF_TOK_SPACE,
	FTRACE_PF_TOK_NEWLINE,
	FTRACE_PF_TOK_OP,
	FTRACE_PF_TOK_DELIM,
	FTRACE_PF_TOK_ITEM,
	FTRACE_PF_TOK_DQUOTE,
	FTRACE_PF_TOK_SQUOTE,
};

struct pf_lex {
	const char *buf;
	size_t len;
	size_t pos;
	struct arena *scratch; /* where token texts go */
	struct vec tb;	       /* the token being read (heap; vec_fini() it) */
	bool nomem;
};

/* The next token that is not a space (read_token()); its text in *@tok, NULL at the end. */
enum pf_tok ftrace_pf_lex_token(struct pf_lex *p, char **tok);
/* The next token that is neither a space nor a newline (read_token_item()). */
enum pf_tok ftrace_pf_lex_item(struct pf_lex *p, char **tok);
bool ftrace_pf_is_tok(enum pf_tok type, const char *tok, enum pf_tok want, const char *text);
bool ftrace_pf_item_type(enum pf_tok type); /* an item or a string */

/* The C locale's character classes (trace-cmd never calls setlocale()). */
bool ftrace_pf_c_space(int c);
bool ftrace_pf_c_digit(int c);
bool ftrace_pf_c_alnum(int c);
bool ftrace_pf_c_print(int c);

/* ------------------------------------------------------------------ fields, as libtraceevent */

/* Field attributes: libtraceevent's TEP_FIELD_IS_* flags, as ftrace.h sets them. */
enum pf_field_flag {
	FTRACE_PF_F_SIGNED = FTRACE_FIELD_SIGNED,
	FTRACE_PF_F_ARRAY = FTRACE_FIELD_ARRAY,
	FTRACE_PF_F_POINTER = FTRACE_FIELD_POINTER,
	FTRACE_PF_F_STRING = FTRACE_FIELD_STRING,
	FTRACE_PF_F_DYNAMIC = FTRACE_FIELD_DYNAMIC,
	FTRACE_PF_F_RELATIVE = FTRACE_FIELD_RELATIVE,
	FTRACE_PF_F_LONG = FTRACE_FIELD_LONG,
};

struct pf_field {
	const char *name;
	uint32_t offset;
	uint32_t size;
	uint32_t elemsize;
	uint32_t flags; /* enum pf_field_flag */
};

/* ------------------------------------------------------------------ argument tree */

/* Same order as libtraceevent's enum tep_print_arg_type (the number is printed in errors). */
enum pf_kind {
	FTRACE_PF_NULL,
	FTRACE_PF_ATOM,
	FTRACE_PF_FIELD,
	FTRACE_PF_FLAGS,
	FTRACE_PF_SYMBOL,
	FTRACE_PF_HEX,
	FTRACE_PF_INT_ARRAY,
	FTRACE_PF_TYPE,
	FTRACE_PF_STRING,
	FTRACE_PF_BSTRING,
	FTRACE_PF_DYNARRAY,
	FTRACE_PF_OP,
	FTRACE_PF_FUNC,
	FTRACE_PF_BITMASK,
	FTRACE_PF_DYNARRAY_LEN,
	FTRACE_PF_HEX_STR,
	FTRACE_PF_CPUMASK,
};

/* One {value, "name"} pair of __print_flags() or __print_symbolic(). */
struct ftrace_pf_sym {
	struct ftrace_pf_sym *next;
	int64_t value; /* the pair's value as libtraceevent's eval_flag() reads its text */
	const char *str;
};

/* Plugin print functions (tep_register_print_function in Debian's libtraceevent plugins). */
enum pf_func_id {
	FTRACE_PF_FN_LE16_TO_CPUP,
	FTRACE_PF_FN_JBD2_DEV_TO_NAME,
	FTRACE_PF_FN_JIFFIES_TO_MSECS,
	FTRACE_PF_FN_IS_WRITABLE_PTE,
	FTRACE_PF_FN_SCSI_PARSE_CDB,
	FTRACE_PF_FN_XEN_HYPERCALL_NAME,
};

enum pf_func_arg { FTRACE_PF_FA_INT, FTRACE_PF_FA_LONG, FTRACE_PF_FA_STRING, FTRACE_PF_FA_PTR };

struct pf_func {
	const char *name;
	enum pf_func_id id;
	int nargs;
	enum pf_func_arg args[3];
};

enum pf_atom_state {
	FTRACE_PF_ATOM_TEXT,	/* not evaluated as a number yet: prints its text */
	FTRACE_PF_ATOM_NUMERIC, /* its text is a number (value in num) */
	FTRACE_PF_ATOM_NUMBER, /* replaced by a number: prints num as "%lld" (libtraceevent rewrites
			    the text of a non-numeric atom once it looks it up as a symbol) */
};

struct pf_arg {
	struct pf_arg *next;
	enum pf_kind kind;
	union {
		struct {
			const char *text;
			uint64_t num;
			enum pf_atom_state state;
		} atom;
		struct {
			const char *name;
			const struct pf_field *f; /* NULL when the event has no such field */
		} field;
		struct {
			struct pf_arg *field;
			const char *delim; /* NULL when absent */
			struct ftrace_pf_sym *syms;
		} flags; /* FTRACE_PF_FLAGS and FTRACE_PF_SYMBOL */
		struct {
			struct pf_arg *field;
			struct pf_arg *size;
		} hex;
		struct {
			struct pf_arg *field;
			struct pf_arg *count;
			struct pf_arg *el_size;
		} int_array;
		struct {
			const char *type;
			struct pf_arg *item;
			uint64_t mask;	/* what the cast keeps of a value */
			uint64_t pmask; /* the same for an array element read through it */
		} typecast;
		struct {
			const char *name;
			const struct pf_field *f;
		} str; /* FTRACE_PF_STRING, FTRACE_PF_BITMASK, FTRACE_PF_CPUMASK */
		struct {
			const uint8_t *p;
			size_t len;
		} bstr; /* FTRACE_PF_BSTRING: a string inside a bprint record */
		struct {
			const struct pf_field *f;
		} dyn; /* FTRACE_PF_DYNARRAY, FTRACE_PF_DYNARRAY_LEN */
		struct {
			const char *op;
			struct pf_arg *left;
			struct pf_arg *right;
			int prio;
		} op;
		struct {
			const struct pf_func *fn;
			struct pf_arg *args;
		} func;
	};
};

/* ------------------------------------------------------------------ printf pieces */

enum pf_piece_kind {
	FTRACE_PF_PC_STRING,  /* literal text */
	FTRACE_PF_PC_DIGIT,   /* %d %i %u %x %X %o */
	FTRACE_PF_PC_POINTER, /* %p and its extensions */
	FTRACE_PF_PC_STR,     /* %s */
};

/* A printf conversion as glibc parses it (only what the evaluator needs). */
struct pf_spec {
	uint8_t minus, zero, hash, plus, space;
	uint8_t star_width, star_prec;
	uint8_t bits;	  /* integer width from the length modifier: 8, 16, 32 or 64 */
	uint8_t wide;	  /* l, ll, L, q, j, z, Z or t: a %s of wide characters */
	uint8_t plain;	  /* a valid conversion without flags, width or precision */
	uint8_t overflow; /* a width or precision above INT_MAX: glibc prints nothing */
	char conv;	  /* conversion character, or 0 when glibc sees an unknown one */
	char bad;	  /* the unknown conversion character (0 at the end of the text) */
	int32_t width;	  /* -1 when absent */
	int32_t prec;	  /* -1 when absent */
	uint32_t tail;	  /* invalid conversion: offset of the text printed literally after */
};

struct pf_piece {
	enum pf_piece_kind kind;
	int8_t ls;		      /* libtraceevent's length count: -2 hh .. 2 ll */
	bool ends_0x;		      /* FTRACE_PF_PC_STRING whose text ends with "0x" */
	int32_t arg;		      /* index in the argument array, -1 for none */
	int32_t len_arg;	      /* index of the '*' argument, -1 for none */
	const struct pf_field *field; /* the argument (casts removed) is this field, or NULL */
	const char *text;	      /* literal text, or the conversion text from '%' */
	uint32_t len;
	struct pf_spec spec;
	/*
	 * An integer argument that is a field or a field's element at a constant index (no
	 * cast): the value is read at fast_off, fast_size bytes, without walking the tree.
	 */
	bool fast;
	uint32_t fast_off, fast_size;
};

/* ------------------------------------------------------------------ compiled print fmt */

enum pf_flag {
	FTRACE_PF_FAILED =
		1u << 0, /* libtraceevent's TEP_EVENT_FL_FAILED: prints [FAILED TO PARSE] */
	FTRACE_PF_BPRINT =
		1u << 1, /* ftrace's bprint: format from printk_formats, args from the record */
	FTRACE_PF_FTRACE = 1u << 2,
	/*
	 * the print fmt calls a function only a plugin defines (__le16_to_cpup, ...):
	 * libtraceevent without its plugins fails to parse it
	 */
	FTRACE_PF_PLUGIN_FUNC = 1u << 3,
};

/* Event handlers of libtraceevent's plugins and of trace-cmd itself. */
enum pf_handler {
	FTRACE_PF_H_NONE,
	FTRACE_PF_H_SCHED_SWITCH,
	FTRACE_PF_H_SCHED_WAKEUP,
	FTRACE_PF_H_HRTIMER_EXPIRE,
	FTRACE_PF_H_HRTIMER_START,
	FTRACE_PF_H_KMEM_CALL_SITE,
	FTRACE_PF_H_FUNCTION,
	FTRACE_PF_H_KERNEL_STACK,
	FTRACE_PF_H_RAW_DATA,
	FTRACE_PF_H_FUNC_REPEATS,
	FTRACE_PF_H_FGRAPH_EXIT,
	FTRACE_PF_H_FGRAPH_ENTRY,
	FTRACE_PF_H_TLB_FLUSH,
	FTRACE_PF_H_FUTEX,
	FTRACE_PF_H_KVM_EXIT,
	FTRACE_PF_H_KVM_ENTRY,
	FTRACE_PF_H_KVM_NESTED_VMEXIT,
	FTRACE_PF_H_KVM_NESTED_VMEXIT_INJECT,
	FTRACE_PF_H_KVM_MMU_GET_PAGE,
	FTRACE_PF_H_KVM_MMU_ROLE,
	FTRACE_PF_H_KVM_EMULATE_INSN,
	FTRACE_PF_H_MAC80211_BSS,
};

/* The function plugin's per-CPU call stacks (for its indentation). */
struct pf_fstack {
	const char **names;
	uint32_t size;
};

/* One printk format of a bprint event, cut into pieces once. */
struct pf_bfmt {
	uint64_t addr;
	char *fmt;	    /* "%ps: " and the printk format (heap) */
	struct arena arena; /* the pieces */
	struct pf_piece *pieces;
	uint32_t n_pieces;
	uint32_t nargs; /* arguments the pieces use (the ip counts as the first) */
};

/*
 * Symbol lookups cost a binary search in ~100k symbols; timer callbacks and call sites
 * repeat. Each entry keeps the name's length and the text of the offset, "+0x3e".
 */
#define FTRACE_PF_SYMCACHE 1024

struct pf_symcache {
	uint64_t addr;
	const struct ftrace_sym *sym;
	uint32_t name_len;
	uint8_t off_len; /* bytes of off_text */
	bool valid;
	char off_text[22]; /* "+0x" and the lower-case hex of addr - sym->addr, padded */
};

/*
 * @c's symbol name at @q, and its offset text when @off_len (0 or c->off_len): at most 19
 * bytes, copied in fixed pieces from the padded off_text, so that up to 20 bytes after the
 * name are written. Returns the end of the text.
 */
static inline char *ftrace_pf_put_sym(char *q, const struct pf_symcache *c, size_t off_len)
{
	memcpy(q, c->sym->name, c->name_len);
	q += c->name_len;
	if (off_len) {
		memcpy(q, c->off_text, 16);
		if (off_len > 16)
			memcpy(q + 16, c->off_text + 16, 4);
	}
	return q + off_len;
}

struct pf_print {
	const struct ftrace_event *ev;
	uint32_t flags; /* enum pf_flag; FTRACE_PF_FAILED may be set while printing */
	enum pf_handler handler;
	struct pf_field *fields; /* all fields of the event, common ones first */
	uint32_t n_fields;
	uint32_t n_common;
	uint8_t *nostring;    /* per field: libtraceevent cleared its STRING flag */
	struct pf_arg **args; /* the print fmt's arguments */
	uint32_t n_args;
	struct pf_piece *pieces;
	uint32_t n_pieces;

	/* bprint: pieces per format address (heap, grown on demand) */
	struct pf_bfmt *bfmts;
	size_t n_bfmts, cap_bfmts;
	struct pf_arg *bargs; /* per-record arguments (heap, grown on demand) */
	struct pf_arg **bargv;
	size_t cap_bargs;
	const struct pf_field *bp_fmt, *bp_ip, *bp_buf; /* bprint's fields */

	/* plugin handlers: the fields they use, found once */
	const struct pf_field *hf[16];
	const struct ftrace_event *fn_ev;    /* ftrace:function, whose stacks func_repeats shares */
	const struct ftrace_event *ret_ev;   /* ftrace:funcgraph_exit, for funcgraph_entry */
	const struct ftrace_field *ret_f[5]; /* its fields funcgraph_entry reads */

	/* function plugin state */
	struct pf_fstack *fstack;
	int n_fstack;

	/* recent symbol lookups (heap, FTRACE_PF_SYMCACHE entries, allocated on first use) */
	struct pf_symcache *symcache;
	struct pf_symcache symscratch; /* the entry when the cache cannot be allocated */

	/* the fast plan (printfmt-fast.c): built on first use, NULL when not applicable */
	struct pf_fast_op *fast;
	void *fast_mem; /* its literals, arguments and flag tables: a list of blocks */
	uint32_t n_fast;
	bool fast_tried;
};

/*
 * The fast plan of a print fmt (printfmt-fast.c): one operation per piece, but for a literal
 * followed by a bounded conversion, which is one operation. Literals, plain integer
 * conversions and "%p" write a bounded number of bytes straight into the output buffer;
 * "%pS" and friends, plain "%s" of strings, flags and symbolic values, and of conditionals
 * over them, write through the pf_out functions with the arguments resolved once; any other
 * piece runs the general code (ftrace_pf_print_piece()).
 */
enum pf_fast_code {
	FTRACE_PF_FAST_LIT,
	FTRACE_PF_FAST_DEC_S, /* %d %i: sign-extended from bits */
	FTRACE_PF_FAST_DEC_U, /* %u */
	FTRACE_PF_FAST_HEX_L, /* %x */
	FTRACE_PF_FAST_HEX_U, /* %X */
	FTRACE_PF_FAST_OCT,   /* %o */
	FTRACE_PF_FAST_PTR,   /* plain %p: "(nil)" or 0x and lower-case hex */
	/*
	 * Plain %s of a compiled argument and %pS %ps %pF %pf: written in place when the text
	 * fits the op's budget (a char array's size, the longest symbolic name...), else
	 * through pf_out as FTRACE_PF_FAST_STR and FTRACE_PF_FAST_SYM write it.
	 */
	FTRACE_PF_FAST_STR_IN,
	FTRACE_PF_FAST_SYM_IN,
	/* the codes below write through pf_out: their size has no bound known in advance */
	FTRACE_PF_FAST_SYM, /* %pS %ps %pF %pf */
	FTRACE_PF_FAST_STR, /* plain %s of a compiled argument */
	FTRACE_PF_FAST_PIECE,
};

enum pf_fast_expr_kind {
	FTRACE_PF_FX_CONST,
	FTRACE_PF_FX_FIELD,
	FTRACE_PF_FX_CAST,
	FTRACE_PF_FX_OP,   /* ftrace_pf_op_apply() */
	FTRACE_PF_FX_COND, /* c ? l : r */
	FTRACE_PF_FX_EVAL, /* ftrace_pf_eval() of arg */
};

/* An expression of a print fmt argument, its constant parts computed once. */
struct pf_fast_expr {
	enum pf_fast_expr_kind kind;
	const char *op;
	uint64_t k;    /* constant; cast and field: the mask */
	uint32_t off;  /* field */
	uint32_t size; /* field */
	struct pf_arg *arg;
	const struct pf_fast_expr *l, *r, *c;
};

/* Where a value comes from: a field at a fixed place with casts as a mask, or an expression. */
struct pf_fast_val {
	const struct pf_fast_expr *x; /* not NULL: the value of this expression */
	uint32_t off, size;
	uint64_t mask;
	/*
	 * A field of a little-endian trace: off + 8, and the mask with the size's folded in,
	 * for one 8-byte load when the record holds 8 bytes there; else UINT64_MAX and 0.
	 */
	uint64_t end8, mask8;
};

/* One value of __print_flags() or __print_symbolic(), its text's length known. */
struct pf_fast_sym {
	int64_t value;
	const char *str; /* padded for 16-byte copies */
	size_t len;
};

enum pf_fast_str_kind {
	FTRACE_PF_FS_GENERAL, /* ftrace_pf_print_str_arg() */
	FTRACE_PF_FS_DYN,     /* __get_str() */
	FTRACE_PF_FS_ARRAY,   /* a char array field */
	FTRACE_PF_FS_ATOM,    /* a literal */
	FTRACE_PF_FS_FLAGS,
	FTRACE_PF_FS_SYMBOLIC,
	FTRACE_PF_FS_COND, /* c ? a : b */
};

/* A "%s" argument, resolved once. */
struct pf_fast_str {
	enum pf_fast_str_kind kind;
	struct pf_arg *arg;
	const struct pf_field *f;
	struct pf_fast_val val; /* flags, symbolic, the condition */
	const struct pf_fast_sym *syms;
	uint32_t n_syms;
	const char *delim; /* flags: NULL when absent */
	size_t delim_len;
	size_t len;	  /* a literal's */
	const char *text; /* a literal's, padded for 16-byte copies */
	const struct pf_fast_str *yes, *no;
	struct pf_fast_memo *memo; /* flags: texts of recent values (printfmt-fast.c) */
};

struct pf_fast_op {
	uint8_t code;
	uint8_t bits;	/* conversions: width of the value, from the length modifier */
	uint8_t width;	/* conversions: zero-padded to this width ("%08lx"), or 0 */
	char how;	/* FTRACE_PF_FAST_SYM: the letter after "%p" */
	uint32_t len;	/* literal, or the literal before a bounded conversion: bytes */
	uint32_t piece; /* the first piece the operation prints (the literal's, if any) */
	uint8_t shift;	/* %d %i of fewer than 64 bits: 64 - bits, to sign-extend; else 0 */
	/*
	 * Bounded operations: the most this one and those after it up to the next unbounded
	 * one write, 16 bytes of slack for the literal copies included.
	 */
	uint32_t room;
	uint32_t budget; /* FTRACE_PF_FAST_STR_IN, _SYM_IN: the most they write in place */
	struct pf_fast_val val;
	const char *text; /* literal, or the literal before a bounded conversion (len bytes) */
	const struct pf_piece *pc;
	const struct pf_fast_str *str;
};

/* ------------------------------------------------------------------ output */

/*
 * The most text one event may print: libtraceevent has no limit, and a hostile width or
 * length would print gigabytes. Real events print at most a few characters per byte of
 * their record (a hex dump is 3, "ARRAY[ff, " 4), so the cap grows with the record.
 */
#define FTRACE_PF_OUT_CAP	   (256u * 1024u)
#define FTRACE_PF_OUT_CAP_PER_BYTE 8u

/*
 * Where an event's text goes. A NUL byte ends what trace-cmd shows of a line (it prints the
 * line with "%.*s"), so after one nothing more is written.
 */
struct pf_out {
	struct writer *w;
	size_t cap; /* FTRACE_PF_OUT_CAP and FTRACE_PF_OUT_CAP_PER_BYTE per record byte */
	size_t n;   /* bytes written for this event */
	bool dead;  /* a NUL was printed, or the cap was reached */
	bool nest;  /* inside a %s argument: libtraceevent prints it into a helper buffer */
	bool muted; /* a NUL inside the helper buffer: the rest of the argument is lost */
	const struct pf_piece *negstar; /* a "%.*s" whose precision argument is negative */
};

void ftrace_pf_out_write_slow(struct pf_out *o, const char *s, size_t n);

/* @n bytes of text (no NUL among them), up to the cap. */
static inline void ftrace_pf_out_write(struct pf_out *o, const char *s, size_t n)
{
	if (TK_LIKELY(!o->dead && !o->muted && n <= o->cap - o->n)) {
		writer_write(o->w, s, n);
		o->n += n;
		return;
	}
	ftrace_pf_out_write_slow(o, s, n);
}

void ftrace_pf_out_fill(struct pf_out *o, char c, size_t n);
void ftrace_pf_out_putc(struct pf_out *o, char c);
void ftrace_pf_out_puts(struct pf_out *o, const char *s);
void ftrace_pf_out_u64(struct pf_out *o, uint64_t v);
void ftrace_pf_out_i64(struct pf_out *o, int64_t v);
void ftrace_pf_out_hex(struct pf_out *o, uint64_t v, bool upper);
void ftrace_pf_out_hex2(struct pf_out *o, uint8_t v); /* "%02x" */

/* printf("%s") with the spec's flags, width and precision; @len_arg replaces a '*'. */
void ftrace_pf_out_str_spec(struct pf_out *o, const struct pf_spec *sp, int len_arg,
			    bool has_len_arg, const char *s, size_t n);

/* An integer conversion as glibc prints it; @v is already cast as libtraceevent casts it. */
void ftrace_pf_out_int_spec(struct pf_out *o, const struct pf_spec *sp, int len_arg,
			    bool has_len_arg, uint64_t v);

/* The literal part glibc prints for an invalid conversion ('%', flags, width, prec, char). */
void ftrace_pf_out_bad_spec(struct pf_out *o, const struct pf_piece *pc);

/* Parse the conversion at @text (starting with '%', @len bytes) the way glibc would. */
void ftrace_pf_spec_parse(struct pf_spec *sp, const char *text, size_t len);

/* The length of @s up to its NUL, reading at most @max bytes. */
size_t ftrace_pf_strnlen(const uint8_t *s, size_t max);

/* ------------------------------------------------------------------ evaluation */

/* One record being printed. */
struct pf_rec {
	const struct ftrace_ctx *ctx;
	struct pf_print *pp;
	const uint8_t *data;
	size_t size;
	int cpu;
	uint64_t ts;
	const uint8_t *next; /* funcgraph_entry: the record trace-cmd reads next, or NULL */
	size_t next_size;
	bool used_next;	      /* the handler took it (a leaf function) */
	struct pf_arg **args; /* the argument array the pieces index */
	uint32_t n_args;
};

/* libtraceevent's eval_type_str(): what a cast to @type keeps of a value, as a mask. */
uint64_t ftrace_pf_cast(uint64_t v, const char *type, bool pointer);

uint64_t ftrace_pf_read_slow(const struct pf_rec *r, uint64_t off, uint32_t n,
			     enum tk_byte_order bo);

/* Read @n (1, 2, 4, 8) bytes at @off in the trace's byte order; bytes past the record are 0. */
static inline uint64_t ftrace_pf_read_num(const struct pf_rec *r, uint64_t off, uint32_t n)
{
	if (TK_LIKELY(off <= r->size && n <= r->size - off)) {
		const uint8_t *p = r->data + off;

		switch (n) {
		case 1:
			return *p;
		case 2:
			return tk_load_u16(p, r->ctx->bo);
		case 4:
			return tk_load_u32(p, r->ctx->bo);
		case 8:
			return tk_load_u64(p, r->ctx->bo);
		default:
			return 0;
		}
	}
	return ftrace_pf_read_slow(r, off, n, r->ctx->bo);
}
/* The same in the host's byte order (libtraceevent's few raw pointer casts). */
uint64_t ftrace_pf_read_host(const struct pf_rec *r, uint64_t off, uint32_t n);
/* One byte of the record, 0 past its end. */
static inline uint8_t ftrace_pf_byte(const struct pf_rec *r, uint64_t off)
{
	return off < r->size ? r->data[off] : 0;
}
/* The NUL-terminated string at @off: its length within the record (0 past the end). */
size_t ftrace_pf_cstr_len(const struct pf_rec *r, uint64_t off);
/* Write the NUL-terminated string at @off with a %s spec. */
void ftrace_pf_out_cstr(struct pf_out *o, const struct pf_rec *r, uint64_t off,
			const struct pf_spec *sp, int len_arg, bool has_len_arg);

/* libtraceevent's dynamic_offset_field(): offset and length of a __data_loc field's data. */
static inline void ftrace_pf_dyn_loc(const struct pf_rec *r, const struct pf_field *f,
				     uint32_t *off, uint32_t *len)
{
	uint64_t v;
	uint32_t o, l, size = (uint32_t) r->size;

	if ((uint64_t) f->offset + f->size > r->size) {
		*off = 0;
		*len = 0;
		return;
	}
	v = ftrace_pf_read_num(r, f->offset, f->size);
	o = (uint32_t) (v & 0xffff);
	l = f->size == 2 ? size - o : (uint32_t) ((v >> 16) & 0xffff);
	*off = o > size ? 0 : o;
	*len = o + l > size ? 0 : l;
	if (f->flags & FTRACE_PF_F_RELATIVE)
		*off += f->offset + f->size;
}

uint64_t ftrace_pf_eval(const struct pf_rec *r, struct pf_arg *a);
/* The value of binary or unary operator @op ("&&", "<<", "!", ...) on @l and @rt. */
uint64_t ftrace_pf_op_apply(const char *op, uint64_t l, uint64_t rt);
void ftrace_pf_print_str_arg(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc,
			     int len_arg, bool has_len_arg, struct pf_arg *a);
void ftrace_pf_print_piece(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc);

/*
 * The kernel symbol libtraceevent's find_func() finds for @addr (ftrace_sym_find(), the same
 * rule), through the event's cache of recent lookups; NULL if none.
 */
const struct ftrace_sym *ftrace_pf_sym(const struct pf_rec *r, uint64_t addr);
/* The same, with the length of the symbol's name in *@len. */
const struct ftrace_sym *ftrace_pf_sym_len(const struct pf_rec *r, uint64_t addr, size_t *len);
/*
 * The same with the text of the offset ("+0x3e") of @addr in the symbol, from the print
 * fmt's cache.
 */
const struct pf_symcache *ftrace_pf_sym_entry(const struct pf_rec *r, uint64_t addr);
/* A printk format by exact address, as libtraceevent stores it (quotes and "\n" removed). */
const char *ftrace_pf_printk_find(const struct ftrace_ctx *ctx, uint64_t addr, size_t *len);

/* %p and its extensions (printfmt-ptr.c). What follows the 'p' of pointer piece @pc. */
const char *ftrace_pf_ptr_ext(const struct pf_piece *pc);
/* "%pS" and the like of address @v (@how: S, s, F or f): symbol[+0xoffset], or 0x and hex. */
void ftrace_pf_out_function(struct pf_out *o, const struct pf_rec *r, char how, uint64_t v);
/* The text of char array field @f ("%s" of it): at *@s, its length returned. */
size_t ftrace_pf_field_text(const struct pf_rec *r, const struct pf_field *f, const char **s);
void ftrace_pf_print_pointer(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc,
			     int plen, struct pf_arg *a);
void ftrace_pf_print_bitmask(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc,
			     int len_arg, bool has_len_arg, uint32_t off, uint32_t len);
void ftrace_pf_print_cpumask(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc,
			     int len_arg, bool has_len_arg, uint32_t off, uint32_t len);

/* Plugin print functions (printfmt-plugin.c); prints into @o when it is not NULL. */
uint64_t ftrace_pf_call_func(struct pf_out *o, const struct pf_rec *r, struct pf_arg *a);
const struct pf_func *ftrace_pf_func_lookup(const char *name);

/* Plugin event handlers: set up the event's handler; run it (true: print fmt follows). */
void ftrace_pf_handler_setup(const struct ftrace_ctx *ctx, struct pf_print *pp);
bool ftrace_pf_run_handler(struct pf_out *o, struct pf_rec *r);

/* printfmt-parse.c: @ev's compiled print fmt, compiled now in a lazy context (or NULL). */
struct pf_print *ftrace_pf_print_slow(const struct ftrace_ctx *ctx, const struct ftrace_event *ev);

static inline struct pf_print *ftrace_pf_print_of(const struct ftrace_ctx *ctx,
						  const struct ftrace_event *ev)
{
	if (__builtin_expect(ev->print != NULL || !ctx->print_lazy, 1))
		return ev->print;
	return ftrace_pf_print_slow(ctx, ev);
}

/* Helpers of the handlers (printfmt-plugin.c), for printfmt-kvm.c too. */
const char *ftrace_pf_h_field_name(const struct pf_rec *r, int k);
/* tep_get_field_val() on the handler's field @k, printing its error text when @err. */
bool ftrace_pf_h_field_val(struct pf_out *o, const struct pf_rec *r, int k, bool err, uint64_t *v);
/* The same with tep_print_num_field()'s error text. */
bool ftrace_pf_h_num_field(struct pf_out *o, const struct pf_rec *r, int k, bool err, uint64_t *v);
void ftrace_pf_h_hex0x(struct pf_out *o, uint64_t v);			 /* "0x%llx" */
void ftrace_pf_h_hex08(struct pf_out *o, const char *label, uint64_t v); /* label "%08llx" */

/* The KVM and mac80211 handlers (printfmt-kvm.c); true: the print fmt follows. */
bool ftrace_pf_h_kvm_exit(struct pf_out *o, const struct pf_rec *r);
bool ftrace_pf_h_kvm_entry(struct pf_out *o, const struct pf_rec *r);
bool ftrace_pf_h_kvm_inject(struct pf_out *o, const struct pf_rec *r);
bool ftrace_pf_h_kvm_nested(struct pf_out *o, const struct pf_rec *r);
bool ftrace_pf_h_kvm_role(struct pf_out *o, const struct pf_rec *r);
bool ftrace_pf_h_kvm_get_page(struct pf_out *o, const struct pf_rec *r);
bool ftrace_pf_h_kvm_emulate(struct pf_out *o, const struct pf_rec *r);
bool ftrace_pf_h_bss(struct pf_out *o, const struct pf_rec *r);

/* libtraceevent's pretty_print() and tep_print_fields(). */
void ftrace_pf_pretty(struct pf_out *o, const struct pf_rec *r);
void ftrace_pf_print_fields(struct pf_out *o, const struct pf_rec *r);

/* The printer's copy of a field (name, place, size, libtraceevent's flags). */
void ftrace_pf_field_attrs(const struct ftrace_ctx *ctx, const struct ftrace_field *src,
			   struct pf_field *f);

/* Fields by name: any (common ones first) or the event's own only. */
const struct pf_field *ftrace_pf_find_any_field(const struct pf_print *pp, const char *name);
const struct pf_field *ftrace_pf_find_field(const struct pf_print *pp, const char *name);

/*
 * Cut a format string into pieces (libtraceevent's parse_args()). @nargs arguments are
 * available; using more sets FTRACE_PF_FAILED in *@flags, as libtraceevent does. The pieces
 * and their texts are allocated in @arena.
 */
int ftrace_pf_build_pieces(struct arena *arena, const char *fmt, struct pf_arg **args,
			   uint32_t nargs, struct pf_piece **out, uint32_t *n_out, uint32_t *flags,
			   uint32_t *used);

/* The per-CPU stacks and bprint caches a compiled print fmt owns on the heap. */
void ftrace_pf_state_free(struct pf_print *pp);

/* Print with the fast plan when @r's print fmt has one (printfmt-fast.c); false: do not. */
bool ftrace_pf_fast(struct pf_out *o, const struct pf_rec *r);
/* Free the fast plan of @pp. */
void ftrace_pf_fast_free(struct pf_print *pp);

#endif /* TK_FTRACE_PRINTFMT_INT_H */
