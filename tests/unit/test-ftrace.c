// SPDX-License-Identifier: MIT
/*
 * Unit tests of the ftrace descriptions (src/ftrace/ftrace.c, src/ftrace/ftrace-format.c):
 * event format files, header_page, kallsyms, printk_formats, saved_cmdlines, lookups and
 * field values.
 *
 * Expected values come from libtraceevent 1.7.1's rules worked through by hand (how it joins
 * type tokens, which tokens set arraylen, which flags a type string gets, how glibc's sort and
 * bsearch pick among equal keys), from the numbers written in the texts themselves, and for
 * the real tracefs files from a separate line-by-line reading of each file with sscanf().
 * Every text is handed over in a buffer of its exact length, without a NUL, so that an
 * address-sanitizer build catches any read past the end.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <glob.h>
#include <unistd.h>

#include "common/error.h"
#include "ftrace/ftrace.h"
#include "ftrace/printfmt.h"
#include "ftrace/tracefs.h"

static struct ftrace_ctx ctx;

static int setup(void **state)
{
	(void) state;
	ftrace_ctx_init(&ctx, TK_BYTE_ORDER_LE);
	error_reset();
	return 0;
}

static int teardown(void **state)
{
	(void) state;
	ftrace_ctx_fini(&ctx);
	return 0;
}

/* A heap copy of @len bytes with nothing after them. */
static char *exact(const char *text, size_t len)
{
	char *p = malloc(len ? len : 1);

	assert_non_null(p);
	memcpy(p, text, len);
	return p;
}

static enum tk_status parse_event(const char *system, const char *text, struct ftrace_event **ev)
{
	size_t len = strlen(text);
	char *buf = exact(text, len);
	enum tk_status st;

	error_reset(); /* internal calls add to the chain */
	st = ftrace_event_parse(&ctx, system, buf, len, ev);

	free(buf);
	return st;
}

static struct ftrace_event *parse_event_ok(const char *system, const char *text)
{
	struct ftrace_event *ev = NULL;
	enum tk_status st = parse_event(system, text, &ev);

	if (st != TK_OK) {
		print_error("parse failed: %s\n", tk_error_cause(0) ? tk_error_cause(0) : "");
		fail();
	}
	assert_non_null(ev);
	return ev;
}

/* The innermost cause contains @needle. */
static void assert_cause(const char *needle)
{
	size_t n = tk_error_count();
	const char *c;

	assert_true(n > 0);
	c = tk_error_cause(n - 1);
	assert_non_null(c);
	if (!strstr(c, needle)) {
		print_error("cause '%s' lacks '%s'\n", c, needle);
		fail();
	}
}

#define COMMON_FIELDS                                                                              \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"

static const char all_forms[] =
	"name: all_forms\n"
	"ID: 1234\n"
	"format:\n" COMMON_FIELDS "\n"
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:__u8 addr[TASK_COMM_LEN];\toffset:24;\tsize:16;\tsigned:0;\n"
	"\tfield:const char * name;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] msg;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc char[] rel;\toffset:52;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] old;\toffset:56;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned long ul;\toffset:64;\tsize:8;\tsigned:0;\n"
	"\tfield:long long ll;\toffset:72;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long caller[8];\toffset:80;\tsize:64;\tsigned:0;\n"
	"\tfield:u32 buf[];\toffset:144;\tsize:0;\tsigned:0;\n"
	"\tfield:__data_loc cpumask_t mask;\toffset:144;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc unsigned int[] lengths;\toffset:148;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u64[] vals;\toffset:152;\tsize:4;\tsigned:0;\n"
	"\tfield:const char __attribute__((user)) * filename;\toffset:160;\tsize:8;\tsigned:0;\n"
	"\tfield:struct iocb * * iocbpp;\toffset:168;\tsize:8;\tsigned:0;\n"
	"\tfield:u8 x[0x10];\toffset:176;\tsize:16;\tsigned:0;\n"
	"\tfield:int grid[8 + 8];\toffset:192;\tsize:64;\tsigned:1;\n"
	"\tfield:s8 tiny;\toffset:256;\tsize:1;\tsigned:1;\n"
	"\tfield:bool flag;\toffset:257;\tsize:1;\tsigned:0;\n"
	"\tfield:char sp[N M];\toffset:258;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned long args[];\toffset:264;\tsize:0;\tsigned:0;\n"
	"\tfield:char text[];\toffset:264;\tsize:0;\tsigned:1;\n"
	"\tfield:u8 none[0];\toffset:264;\tsize:0;\tsigned:0;\n"
	"\tfield:char oldbuf;\toffset:264;\tsize:0;\tsigned:0;\n"
	"\tfield:u32 oldbin;\toffset:264;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d\", REC->comm, REC->common_pid\n";

enum {
	S = FTRACE_FIELD_SIGNED,
	A = FTRACE_FIELD_ARRAY,
	P = FTRACE_FIELD_POINTER,
	STR = FTRACE_FIELD_STRING,
	D = FTRACE_FIELD_DYNAMIC,
	R = FTRACE_FIELD_RELATIVE,
	L = FTRACE_FIELD_LONG,
	F = FTRACE_FIELD_FLEXIBLE,
};

static const struct expect_field {
	const char *name, *type;
	uint32_t offset, size, arraylen, elemsize, flags;
} all_forms_fields[] = {
	{"common_type", "unsigned short", 0, 2, 0, 2, 0},
	{"common_flags", "unsigned char", 2, 1, 0, 1, 0},
	{"common_preempt_count", "unsigned char", 3, 1, 0, 1, 0},
	{"common_pid", "int", 4, 4, 0, 4, S},
	{"comm", "char[16]", 8, 16, 16, 1, A | STR},
	{"addr", "__u8[TASK_COMM_LEN]", 24, 16, 0, 1, A | STR},
	{"name", "const char *", 40, 8, 0, 8, P},
	{"msg", "__data_loc char[]", 48, 4, 0, 1, A | STR | D},
	{"rel", "__rel_loc char[]", 52, 4, 0, 1, A | STR | D | R},
	{"old", "__data_loc char[]", 56, 2, 0, 1, A | STR | D},
	{"ul", "unsigned long", 64, 8, 0, 8, L},
	{"ll", "long long", 72, 8, 0, 8, L | S},
	{"caller", "unsigned long[8]", 80, 64, 8, 8, A | L},
	{"buf", "u32[]", 144, 0, 0, 0, A | F}, /* flexible: to the end of the record */
	{"mask", "__data_loc cpumask_t", 144, 4, 0, 0, D},
	{"lengths", "__data_loc unsigned int[]", 148, 4, 0, 0, A | D},
	{"vals", "__data_loc u64[]", 152, 4, 0, 8, A | D},
	{"filename", "const char __attribute__((user)) *", 160, 8, 0, 8, P},
	{"iocbpp", "struct iocb * *", 168, 8, 0, 8, P},
	{"x", "u8[0x10]", 176, 16, 16, 1, A | STR},
	{"grid", "int[8+8]", 192, 64, 8, 8, A | S},
	{"tiny", "s8", 256, 1, 0, 1, S},
	{"flag", "bool", 257, 1, 0, 1, 0},
	{"sp", "char[N M]", 258, 2, 0, 1, A | STR},
	/* LONG array without a length: elemsize is the context's long size */
	{"args", "unsigned long[]", 264, 0, 0, 8, A | L | F},
	{"text", "char[]", 264, 0, 0, 1, A | STR | S | F},
	/* a length, even 0, makes an array that is not flexible */
	{"none", "u8[0]", 264, 0, 0, 1, A | STR},
	/* older kernels' print event: a "char" of size 0 is text to the end of the record */
	{"oldbuf", "char", 264, 0, 0, 0, F},
	/* older bprint's arguments: a number of size 0, 0 for trace-cmd -R */
	{"oldbin", "u32", 264, 0, 0, 0, 0},
};

static void check_fields(const struct ftrace_event *ev, const struct expect_field *e, size_t n)
{
	size_t i;

	assert_int_equal(ev->n_fields, n);
	for (i = 0; i < n; i++) {
		const struct ftrace_field *f = &ev->fields[i];

		if (strcmp(f->name, e[i].name) || strcmp(f->type, e[i].type) ||
		    f->offset != e[i].offset || f->size != e[i].size ||
		    f->arraylen != e[i].arraylen || f->elemsize != e[i].elemsize ||
		    f->flags != e[i].flags) {
			print_error("field %zu: got %s '%s' off=%u size=%u arraylen=%u elemsize=%u "
				    "flags=%#x; want %s '%s' off=%u size=%u arraylen=%u "
				    "elemsize=%u flags=%#x\n",
				    i, f->name, f->type, f->offset, f->size, f->arraylen,
				    f->elemsize, f->flags, e[i].name, e[i].type, e[i].offset,
				    e[i].size, e[i].arraylen, e[i].elemsize, e[i].flags);
			fail();
		}
	}
}

static void format_every_field_form(void **state)
{
	struct ftrace_event *ev = parse_event_ok("test", all_forms);

	(void) state;
	assert_string_equal(ev->system, "test");
	assert_string_equal(ev->name, "all_forms");
	assert_int_equal(ev->id, 1234);
	assert_int_equal(ev->n_common, 4);
	assert_int_equal(ev->flags, 0);
	assert_null(ev->print);
	assert_string_equal(ev->print_fmt, "\"comm=%s pid=%d\", REC->comm, REC->common_pid");
	check_fields(ev, all_forms_fields, TK_ARRAY_SIZE(all_forms_fields));
	assert_ptr_equal(ftrace_field_find(ev, "common_pid"), &ev->fields[3]);
	assert_ptr_equal(ftrace_field_find(ev, "args"), &ev->fields[24]);
	assert_null(ftrace_field_find(ev, "nope"));
}

/* LONG arrays without a length take the long size the context has when the file is read. */
static void format_long_array_uses_context_long_size(void **state)
{
	struct ftrace_event *ev;

	(void) state;
	ctx.long_size = 4;
	ev = parse_event_ok("test", all_forms);
	assert_int_equal(ftrace_field_find(ev, "args")->elemsize, 4);
	/* numbered arrays divide the size instead */
	assert_int_equal(ftrace_field_find(ev, "caller")->elemsize, 8);
}

/* Every prefix of a valid file is rejected or accepted cleanly, never read past its end. */
static void format_every_prefix(void **state)
{
	size_t len = strlen(all_forms), cut, ok = 0;

	(void) state;
	for (cut = 0; cut <= len; cut++) {
		struct ftrace_ctx c;
		struct ftrace_event *ev = NULL;
		char *buf = exact(all_forms, cut);
		enum tk_status st;

		ftrace_ctx_init(&c, TK_BYTE_ORDER_LE);
		st = ftrace_event_parse(&c, "test", buf, cut, &ev);
		assert_true(st == TK_OK || st == TK_ERR_FORMAT);
		if (st == TK_OK) {
			ok++;
			assert_non_null(ev);
		}
		ftrace_ctx_fini(&c);
		free(buf);
	}
	/* only cuts inside or after "print fmt:" parse; the first ones have no print fmt */
	assert_true(ok > 0 && ok < 100);
}

static void format_ftrace_quirks(void **state)
{
	static const char text[] =
		"name: fq\nID: 99\nformat:\n"
		"\tfield special:unsigned short common_type;\toffset:0;\tsize:2;\n"
		"\n"
		"\tfield:struct ftrace_entry.ip x;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"%lx\", REC->x\n";
	struct ftrace_event *ev;

	(void) state;
	ev = parse_event_ok("ftrace", text);
	assert_int_equal(ev->n_common, 1);
	assert_int_equal(ev->n_fields, 2);
	assert_string_equal(ev->fields[0].name, "common_type");
	/* no "signed:" part (older kernels): unsigned */
	assert_int_equal(ev->fields[0].flags, 0);
	assert_string_equal(ev->fields[1].type, "struct ftrace_entry . ip");
	assert_string_equal(ev->fields[1].name, "x");

	/* the same file in another system: neither quirk is accepted */
	assert_int_equal(parse_event("sched", text, NULL), TK_ERR_FORMAT);
	assert_cause("line=4");
}

static void format_real_ftrace_function(void **state)
{
	static const char text[] =
		"name: function\nID: 1\nformat:\n" COMMON_FIELDS "\n"
		"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";
	static const char stack[] =
		"name: kernel_stack\nID: 4\nformat:\n" COMMON_FIELDS "\n"
		"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n"
		"\n"
		"print fmt: \"\\t=> %ps\\n\" \"\\t=> %ps\\n\", (void *)REC->caller[0], "
		"(void *)REC->caller[1]\n";
	struct ftrace_event *ev;

	(void) state;
	ev = parse_event_ok("ftrace", text);
	assert_string_equal(ev->fields[4].type, "unsigned long");
	assert_int_equal(ev->fields[4].flags, L);
	ev = parse_event_ok("ftrace", stack);
	assert_int_equal(ev->fields[5].arraylen, 8);
	/* adjacent literals and escapes stay as written: printfmt.c reads them */
	assert_string_equal(ev->print_fmt,
			    "\"\\t=> %ps\\n\" \"\\t=> %ps\\n\", (void *)REC->caller[0], "
			    "(void *)REC->caller[1]");
}

static void format_print_fmt_forms(void **state)
{
	struct ftrace_event *ev;

	(void) state;
	/* a raw newline inside the string (ext4_fsmap_*): kept, the text runs to the end */
	ev = parse_event_ok("ext4", "name: m\nID: 1\nformat:\n" COMMON_FIELDS "\n\n"
				    "print fmt: \"dev %d owner %lld\n\", REC->dev, REC->owner\n\n");
	assert_string_equal(ev->print_fmt, "\"dev %d owner %lld\n\", REC->dev, REC->owner");
	assert_int_equal(ev->n_fields, 4);
	assert_int_equal(ev->n_common, 4);

	/* a NUL ends it; no trailing newline needed */
	{
		static const char t[] = "name: z\nID: 2\nformat:\n\n\nprint fmt: \"x\"\0garbage";
		char *buf = exact(t, sizeof(t) - 1);

		assert_int_equal(ftrace_event_parse(&ctx, "s", buf, sizeof(t) - 1, &ev), TK_OK);
		free(buf);
		assert_string_equal(ev->print_fmt, "\"x\"");
		assert_int_equal(ev->n_fields, 0);
	}

	/* missing or not a string right after the colon: no print fmt, event marked failed */
	ev = parse_event_ok("s", "name: a\nID: 3\nformat:\n" COMMON_FIELDS "\n\n");
	assert_null(ev->print_fmt);
	assert_int_equal(ev->flags, FTRACE_EVENT_FAILED);
	assert_int_equal(ev->n_fields, 4);
	ev = parse_event_ok("s", "name: b\nID: 4\nformat:\n\n\nprint fmt:\n\"x\"\n");
	assert_null(ev->print_fmt);
	ev = parse_event_ok("s", "name: c\nID: 5\nformat:\n\n\nprint fmt: REC->x\n");
	assert_null(ev->print_fmt);
	ev = parse_event_ok("s", "name: d\nID: 6\nformat:\n\n\n\n\nprint fmt:\t \"y\"\n");
	assert_string_equal(ev->print_fmt, "\"y\"");
	assert_int_equal(ev->flags, 0);
}

static void format_ids(void **state)
{
	(void) state;
	/* read like strtoul(.., 0) into an int: hex works, and 2^32 wraps to 0 */
	assert_int_equal(parse_event_ok("s", "name: a\nID: 0x10\nformat:\n\n\n")->id, 16);
	assert_int_equal(parse_event_ok("s", "name: b\nID: 4294967296\nformat:\n\n\n")->id, 0);
	assert_int_equal(parse_event_ok("s", "name: c\nID: 2147483647\nformat:\n\n\n")->id,
			 2147483647);
	/* negative as an int: refused, and not added */
	assert_int_equal(parse_event("s", "name: d\nID: 2147483648\nformat:\n\n\n", NULL),
			 TK_ERR_FORMAT);
	assert_int_equal(parse_event("s", "name: e\nID: x\nformat:\n\n\n", NULL), TK_OK);
	assert_int_equal(parse_event("s", "name: f\nID: -1\nformat:\n\n\n", NULL), TK_ERR_FORMAT);
	assert_int_equal(parse_event("s", "ID: 1\nname: g\nformat:\n\n\n", NULL), TK_ERR_FORMAT);
	assert_int_equal(parse_event("s", "name: h.i\nID: 1\nformat:\n\n\n", NULL), TK_ERR_FORMAT);
	assert_int_equal(ctx.n_events, 4);
}

static void format_errors_name_line(void **state)
{
	static const struct {
		const char *text;
		const char *cause;
	} cases[] = {
		{"name: a\nID: 1\nformat:\n" COMMON_FIELDS "\n"
		 "\tfield:int x;\tofset:8;\tsize:4;\tsigned:1;\n\n",
		 "line=9, reason=expected 'offset', found 'ofset'"},
		{"name: a\nID: 1\nformat:\n\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n"
		 "\tfield:int y\toffset:8;\tsize:4;\tsigned:1;\n\n",
		 "line=5, reason=expected ';', found ':'"},
		{"name: a\nID: 1\nformat:\n\tfield:int x[4;\toffset:8;\tsize:4;\n\n",
		 "line=6, reason=expected ']', found end of text"},
		{"name: a\nID: 1\nformat:\n\tfield:x;\toffset:8;\tsize:4;\n\n",
		 "reason=no type before the field name"},
		{"name: a\nID: 1\nformat:\n\tfield:__attribute__((user)) x;\toffset:8;\tsize:4;\n",
		 "reason=__attribute__ before any type"},
		{"name: a\nID: 1\nformat:\n\tfield:int x;\toffset:8;\tsize:4;\tsigned:1; junk\n",
		 "line=4, reason=expected end of line, found 'junk'"},
		{"name: a\nID: 1\nformat: x\n", "line=3, reason=expected end of line, found 'x'"},
		{"name: a\nID: 1\nformat:\n\tfield:int x;\toffset:8;\tsize:\xff;\n",
		 "line=4, reason=expected a number, found byte 0xff"},
		{"name: a\nID: 1\nformat:\n\tfield:int x;\toffset:8;\tsize:4;\n"
		 "print fmt: \"x\"\n",
		 "line=5, reason=expected 'field' or an empty line, found 'print'"},
		{"name: a\nID: 1\n", "reason=expected 'format', found end of text"},
		{"", "system=s, event=?, line=1, reason=expected 'name', found end of text"},
		{"name: a\nID: 1\nformat:\n\tfield:int x[\"4\"];\toffset:8;\tsize:4;\n\n",
		 "reason=expected ']', found '\"'"},
	};
	size_t i;

	(void) state;
	for (i = 0; i < TK_ARRAY_SIZE(cases); i++) {
		error_reset();
		if (parse_event("s", cases[i].text, NULL) != TK_ERR_FORMAT) {
			print_error("case %zu parsed\n", i);
			fail();
		}
		assert_cause(cases[i].cause);
	}
}

/* After the ID, a bad field line still adds the event, failed, with the fields before it. */
static void format_failed_event_is_kept(void **state)
{
	struct ftrace_event *ev = NULL;

	(void) state;
	assert_int_equal(parse_event("s",
				     "name: broken\nID: 7\nformat:\n" COMMON_FIELDS "\n"
				     "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
				     "\tfield:int b;\toffset:12;\tsize:4;\tsigned:1\n\n",
				     &ev),
			 TK_ERR_FORMAT);
	assert_cause("event=broken, line=10");
	assert_non_null(ev);
	assert_int_equal(ev->flags, FTRACE_EVENT_FAILED);
	assert_int_equal(ev->n_common, 4);
	assert_int_equal(ev->n_fields, 5);
	assert_string_equal(ev->fields[4].name, "a");
	assert_null(ev->print_fmt);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	assert_ptr_equal(ftrace_event_find(&ctx, 7), ev);

	/* failing among the common fields: no event fields at all */
	ev = NULL;
	assert_int_equal(parse_event("s",
				     "name: broken2\nID: 8\nformat:\n"
				     "\tfield:int a;\toffset:0;\tsize:4;\n\tfield:int;\n",
				     &ev),
			 TK_ERR_FORMAT);
	assert_non_null(ev);
	assert_int_equal(ev->n_common, 1);
	assert_int_equal(ev->n_fields, 1);
}

/* libtraceevent inserts after equal ids and glibc's bsearch probes the middle. */
static void events_sorted_and_duplicates(void **state)
{
	struct ftrace_event *a, *b, *c;

	(void) state;
	a = parse_event_ok("s", "name: a\nID: 5\nformat:\n\n\n");
	c = parse_event_ok("s", "name: c\nID: 5\nformat:\n\n\n");
	/* [a, c]: the probe (0 + 2) / 2 = 1 lands on c */
	assert_ptr_equal(ftrace_event_find(&ctx, 5), c);
	b = parse_event_ok("s", "name: b\nID: 3\nformat:\n\n\n");
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	/* [b, a, c]: the probe 1 lands on a */
	assert_ptr_equal(ctx.events[0], b);
	assert_ptr_equal(ctx.events[1], a);
	assert_ptr_equal(ctx.events[2], c);
	assert_ptr_equal(ftrace_event_find(&ctx, 5), a);
	assert_ptr_equal(ftrace_event_find(&ctx, 3), b);
	assert_null(ftrace_event_find(&ctx, 4));
	assert_null(ftrace_event_find(&ctx, 6));
	/* parsing after finish keeps the order */
	parse_event_ok("s", "name: d\nID: 4\nformat:\n\n\n");
	assert_string_equal(ftrace_event_find(&ctx, 4)->name, "d");
	assert_int_equal(ctx.events[2]->id, 5);
}

/* ---- real tracefs format files -------------------------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY);
	ssize_t r;

	assert_non_null(buf);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		r = read(fd, buf + n, cap - n);
		if (r <= 0)
			break;
		n += (size_t) r;
	}
	close(fd);
	*len = n;
	return buf;
}

static void remove_blanks(char *s)
{
	char *d = s;

	for (; *s; s++)
		if (*s != ' ' && *s != '\t')
			*d++ = *s;
	*d = '\0';
}

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/*
 * Check @ev against the file read line by line: id, field count, n_common (field lines before
 * the first empty line), each field's name, offset, size, signedness, array length and (blanks
 * aside) type, the array and dynamic flags, and the print fmt.
 */
static void check_real_format(const struct ftrace_event *ev, const char *path, char *text)
{
	uint32_t nfield = 0, ncommon = UINT32_MAX;
	char *pf, *line, *rest;
	unsigned int id;
	size_t n;

	pf = strstr(text, "\nprint fmt: ");
	assert_non_null(pf);
	n = strlen(pf + 12);
	while (n && pf[12 + n - 1] == '\n')
		n--;
	if (strlen(ev->print_fmt) != n || memcmp(ev->print_fmt, pf + 12, n)) {
		print_error("%s: print fmt differs\n", path);
		fail();
	}
	*pf = '\0';
	rest = text;
	while ((line = strsep(&rest, "\n")) != NULL) {
		char decl[512], want_type[512], got_type[512], *lb, *st;
		unsigned int off, size;
		const struct ftrace_field *f;
		size_t dl;
		int sgn;

		if (sscanf(line, "ID: %u", &id) == 1)
			assert_int_equal(ev->id, id);
		if (!*line && nfield && ncommon == UINT32_MAX)
			ncommon = nfield;
		if (strncmp(line, "\tfield:", 7) != 0)
			continue;
		assert_int_equal(sscanf(line, "\tfield:%511[^;];\toffset:%u;\tsize:%u;\tsigned:%d;",
					decl, &off, &size, &sgn),
				 4);
		assert_true(nfield < ev->n_fields);
		f = &ev->fields[nfield++];
		assert_int_equal(f->offset, off);
		assert_int_equal(f->size, size);
		assert_int_equal(!!(f->flags & FTRACE_FIELD_SIGNED), !!sgn);
		dl = strlen(decl);
		lb = strrchr(decl, '[');
		if (dl && decl[dl - 1] == ']' && lb) {
			/* "type name[N]": the type gets the brackets */
			for (st = lb; st > decl && is_ident(st[-1]); st--)
				;
			assert_int_equal(strlen(f->name), (size_t) (lb - st));
			assert_int_equal(strncmp(f->name, st, (size_t) (lb - st)), 0);
			snprintf(want_type, sizeof(want_type), "%.*s%s", (int) (st - decl), decl,
				 lb);
			assert_int_equal(f->arraylen, strtoul(lb + 1, NULL, 0));
		} else {
			/* "type name", "__data_loc char[] name" */
			for (st = decl + dl; st > decl && is_ident(st[-1]); st--)
				;
			assert_string_equal(f->name, st);
			snprintf(want_type, sizeof(want_type), "%.*s", (int) (st - decl), decl);
			assert_int_equal(f->arraylen, 0);
		}
		assert_int_equal(!!(f->flags & FTRACE_FIELD_ARRAY), strchr(decl, '[') != NULL);
		assert_int_equal(!!(f->flags & FTRACE_FIELD_DYNAMIC),
				 strncmp(decl, "__data_loc", 10) == 0 ||
					 strncmp(decl, "__rel_loc", 9) == 0);
		snprintf(got_type, sizeof(got_type), "%s", f->type);
		remove_blanks(want_type);
		remove_blanks(got_type);
		if (strcmp(want_type, got_type)) {
			print_error("%s: field %s: type '%s', want '%s'\n", path, f->name, f->type,
				    want_type);
			fail();
		}
	}
	assert_int_equal(ev->n_fields, nfield);
	assert_int_equal(ev->n_common, ncommon);
}

/* "MOUNT/events/@rel" of the tracefs tracekit uses (mounted when missing), or skip. */
static void events_path(char *buf, size_t size, const char *rel)
{
	const char *mount;

	if (tracefs_find_mount(&mount) < 0) {
		print_message("no tracefs: %s\n", tk_error_cause(0) ? tk_error_cause(0) : "?");
		skip();
	}
	snprintf(buf, size, "%s/events/%s", mount, rel);
}

static void format_all_tracefs_files(void **state)
{
	char pattern[4096];
	glob_t g;
	size_t i, parsed = 0, prefix;

	(void) state;
	events_path(pattern, sizeof(pattern), "*/*/format");
	prefix = strlen(pattern) - strlen("*/*/format");
	if (glob(pattern, 0, NULL, &g) != 0) {
		print_message("no %s\n", pattern);
		skip();
	}
	for (i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i];
		char system[256], *text, *copy, *buf;
		const char *s = path + prefix;
		struct ftrace_event *ev = NULL;
		enum tk_status st;
		size_t len;

		snprintf(system, sizeof(system), "%.*s", (int) (strchr(s, '/') - s), s);
		text = read_file(path, &len);
		if (!text)
			continue; /* permission or a vanished event */
		buf = exact(text, len);
		st = ftrace_event_parse(&ctx, system, buf, len, &ev);
		free(buf);
		if (st != TK_OK || ev->flags) {
			print_error("%s: %s\n", path,
				    tk_error_cause(0) ? tk_error_cause(0) : "flags");
			fail();
		}
		copy = malloc(len + 1);
		assert_non_null(copy);
		memcpy(copy, text, len);
		copy[len] = '\0';
		check_real_format(ev, path, copy);
		free(copy);
		free(text);
		parsed++;
	}
	globfree(&g);
	assert_true(parsed > 0);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	for (i = 0; i < ctx.n_events; i++)
		assert_int_equal(ftrace_event_find(&ctx, ctx.events[i]->id)->id, ctx.events[i]->id);
	print_message("parsed %zu tracefs format files\n", parsed);
}

/* ---- header_page ---------------------------------------------------------------------------- */

static enum tk_status parse_hp(const char *text, struct ftrace_page_layout *l)
{
	size_t len = strlen(text);
	char *buf = exact(text, len);
	enum tk_status st;

	error_reset(); /* internal calls add to the chain */
	st = ftrace_page_layout_parse(buf, len, l);

	free(buf);
	return st;
}

static void header_page_64_and_32_bit(void **state)
{
	struct ftrace_page_layout l;

	(void) state;
	assert_int_equal(parse_hp("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
				  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
				  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n",
				  &l),
			 TK_OK);
	assert_int_equal(l.ts_offset, 0);
	assert_int_equal(l.ts_size, 8);
	assert_int_equal(l.commit_offset, 8);
	assert_int_equal(l.commit_size, 8);
	assert_int_equal(l.data_offset, 16);
	assert_int_equal(l.data_size, 4080);

	/* 32-bit kernel, old kernel without "signed:" nor overwrite, no final newline */
	assert_int_equal(parse_hp("\tfield: u64 timestamp;\toffset:0;\tsize:8;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:4;\n"
				  "\tfield: char data;\toffset:12;\tsize:4084;",
				  &l),
			 TK_OK);
	assert_int_equal(l.commit_size, 4);
	assert_int_equal(l.data_offset, 12);
	assert_int_equal(l.data_size, 4084);

	ftrace_page_layout_default(&l, 4, 4096);
	assert_int_equal(l.ts_size, 8);
	assert_int_equal(l.commit_offset, 8);
	assert_int_equal(l.commit_size, 4);
	assert_int_equal(l.data_offset, 12);
	assert_int_equal(l.data_size, 4084);
}

static void header_page_errors(void **state)
{
	struct ftrace_page_layout l;

	(void) state;
	assert_int_equal(parse_hp("", &l), TK_ERR_FORMAT);
	assert_cause("field=timestamp");
	assert_int_equal(parse_hp("\tfield: u64 timestamp;\toffset:0;\tsize:8;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:8;\n",
				  &l),
			 TK_ERR_FORMAT);
	assert_cause("line=3, field=data");
	assert_int_equal(parse_hp("\tfield: u64 timestamp;\toffset:0;\tsize:4;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:8;\n"
				  "\tfield: char data;\toffset:16;\tsize:4080;\n",
				  &l),
			 TK_ERR_FORMAT);
	assert_cause("timestamp-size=4");
	assert_int_equal(parse_hp("\tfield: u64 timestamp;\toffset:0;\tsize:8;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:2;\n"
				  "\tfield: char data;\toffset:16;\tsize:4080;\n",
				  &l),
			 TK_ERR_FORMAT);
	assert_int_equal(parse_hp("\tfield: u64 timestamp;\toffset:0;\tsize:8;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:8;\n"
				  "\tfield: char data;\toffset:12;\tsize:4080;\n",
				  &l),
			 TK_ERR_FORMAT);
	assert_int_equal(parse_hp("\tfield: u64 timestamp;\toffset:0;\tsize:8;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:99999999999;\n",
				  &l),
			 TK_ERR_FORMAT);
	assert_cause("line=2, field=commit, reason=bad number");
}

static void header_page_real(void **state)
{
	struct ftrace_page_layout l;
	char path[4096];
	char *text;
	size_t len;

	(void) state;
	events_path(path, sizeof(path), "header_page");
	text = read_file(path, &len);
	if (!text) {
		print_message("no %s\n", path);
		skip();
	}
	{
		char *buf = exact(text, len);

		assert_int_equal(ftrace_page_layout_parse(buf, len, &l), TK_OK);
		free(buf);
	}
	assert_int_equal(l.commit_size, sizeof(long));
	assert_int_equal(l.data_offset, 8 + sizeof(long));
	assert_true(l.data_size >= 4096 - l.data_offset);
	free(text);
}

/* ---- kallsyms, printk_formats, saved_cmdlines ------------------------------------------------- */

static enum tk_status parse_table(enum tk_status (*fn)(struct ftrace_ctx *, const char *, size_t),
				  const char *text)
{
	size_t len = strlen(text);
	char *buf = exact(text, len);
	enum tk_status st;

	error_reset(); /* internal calls add to the chain */
	st = fn(&ctx, buf, len);

	free(buf);
	return st;
}

static void kallsyms_kept_and_lookups(void **state)
{
	const struct ftrace_sym *s;

	(void) state;
	assert_int_equal(parse_table(ftrace_kallsyms_parse, "ffffffff81000000 T _stext\n"
							    "ffffffff81000000 T _text\n"
							    "0000000000000000 A fixed_percpu_data\n"
							    "\n"
							    "ffffffff81000100 t $x.1\n"
							    "ffffffff81000200 t do_one\n"
							    "ffffffff81000300 a abs_sym\n"
							    "ffffffffc0a01000 t foo\t[mymod]\n"
							    "ffffffffc0a02000 T bar\t[other_mod]"),
			 TK_OK);
	assert_int_equal(ctx.n_syms, 5);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	/* newest first among equal addresses, then by address */
	assert_string_equal(ftrace_sym_at(&ctx, 0)->name, "_text");
	assert_string_equal(ftrace_sym_at(&ctx, 1)->name, "_stext");
	assert_string_equal(ftrace_sym_at(&ctx, 2)->name, "do_one");
	assert_null(ftrace_sym_at(&ctx, 2)->module);
	/* probe 2 (do_one) then 1 (_stext), which matches */
	assert_string_equal(ftrace_sym_find(&ctx, 0xffffffff81000000)->name, "_stext");
	assert_string_equal(ftrace_sym_find(&ctx, 0xffffffff81000050)->name, "_stext");
	assert_string_equal(ftrace_sym_find(&ctx, 0xffffffff81000250)->name, "do_one");
	s = ftrace_sym_find(&ctx, 0xffffffffc0a01500);
	assert_string_equal(s->name, "foo");
	assert_string_equal(s->module, "mymod");
	assert_int_equal(s->addr, 0xffffffffc0a01000);
	s = ftrace_sym_find(&ctx, 0xffffffffc0a02000);
	assert_string_equal(s->name, "bar");
	assert_string_equal(s->module, "other_mod");
	/* past the last symbol only its own address matches; below the first nothing */
	assert_null(ftrace_sym_find(&ctx, 0xffffffffc0a02001));
	assert_null(ftrace_sym_find(&ctx, 1));
}

/* Deferred kallsyms: the same table, parsed at the first lookup, and no cause left behind. */
static void kallsyms_deferred(void **state)
{
	static const char text[] = "ffffffff81000200 t do_one\n"
				   "ffffffff81000000 T _stext\n"
				   "ffffffff81000100 t\n" /* bad: the table ends before it */
				   "ffffffff81000300 t after_bad\n";
	(void) state;
	ftrace_kallsyms_defer(&ctx, text, sizeof(text) - 1);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	assert_int_equal(ctx.n_syms, 0); /* nothing parsed yet */
	tk_error_clear();
	(void) TK_FAIL(TK_ERR_IO, "an earlier cause");
	assert_string_equal(ftrace_sym_find(&ctx, 0xffffffff81000010)->name, "_stext");
	/* the bad line's cause was not added to the chain */
	assert_int_equal(tk_error_count(), 1);
	assert_string_equal(tk_error_cause(0), "an earlier cause");
	assert_int_equal(ftrace_syms_count(&ctx), 2);
	assert_string_equal(ftrace_sym_at(&ctx, 0)->name, "_stext");
	assert_string_equal(ftrace_sym_at(&ctx, 1)->name, "do_one");
	assert_null(ftrace_sym_find(&ctx, 0xffffffff81000300 + 1));
}

/* A kallsyms text handed out STREAM_STEP bytes more per call, as /proc/kallsyms is read. */
#define STREAM_STEP 10

struct stream {
	const char *text;
	size_t len, given;
};

static const char *stream_more(void *payload, size_t *len)
{
	struct stream *st = payload;

	st->given = st->given + STREAM_STEP < st->len ? st->given + STREAM_STEP : st->len;
	*len = st->given;
	return st->text;
}

/* Whether @a and @b are the same symbol, or both none. */
static void same_sym(const struct ftrace_sym *a, const struct ftrace_sym *b)
{
	if (!b) {
		assert_null(a);
		return;
	}
	assert_non_null(a);
	assert_int_equal(a->addr, b->addr);
	assert_string_equal(a->name, b->name);
}

/*
 * A streamed kallsyms answers every lookup as the whole table parsed at once does, reading
 * only up to a symbol above the address among the kernel's own: a lookup between two
 * symbols, at a symbol's own address; and the whole text for an address with several
 * symbols, for one past the kernel's symbols (a module's, which come in no order), for one
 * below the first symbol and for the count.
 */
static void kallsyms_streamed(void **state)
{
	static const char text[] = "ffffffff81000000 T _stext\n"
				   "ffffffff81000100 t one\n"
				   "ffffffff81000200 t twin_a\n" /* two at one address */
				   "ffffffff81000200 t twin_b\n"
				   "ffffffff81000300 t three\n"
				   "0000000000000000 A fixed_percpu_data\n" /* skipped */
				   "ffffffff81000400 t four\n"
				   "ffffffff81000500 t five\n"
				   "ffffffffc0a01000 t foo\t[mymod]\n"
				   "ffffffffa0a00000 t low\t[lowmod]\n" /* out of order */
				   "ffffffffc0a02000 T bar\t[other_mod]";
	static const uint64_t lookups[] = {0xffffffff81000150, 0xffffffff81000100,
					   0xffffffff81000250, 0xffffffff81000300};
	struct stream st = {text, sizeof(text) - 1, 0};
	struct ftrace_ctx ref;
	size_t i;

	(void) state;
	ftrace_ctx_init(&ref, TK_BYTE_ORDER_LE);
	assert_int_equal(ftrace_kallsyms_parse(&ref, text, sizeof(text) - 1), TK_OK);
	assert_int_equal(ftrace_ctx_finish(&ref), TK_OK);
	ftrace_kallsyms_defer_stream(&ctx, stream_more, &st);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	assert_int_equal(st.given, 0); /* nothing read before a lookup */
	for (i = 0; i < sizeof(lookups) / sizeof(lookups[0]); i++)
		same_sym(ftrace_sym_find(&ctx, lookups[i]), ftrace_sym_find(&ref, lookups[i]));
	/* the lookups needed the symbols up to "four": the text after it was not read */
	assert_true(st.given < (size_t) (strstr(text, "five") - text));
	/* twin_a and twin_b: which one a search finds depends on the whole table */
	same_sym(ftrace_sym_find(&ctx, 0xffffffff81000200),
		 ftrace_sym_find(&ref, 0xffffffff81000200));
	assert_int_equal(st.given, st.len);
	assert_null(ftrace_sym_find(&ctx, 1));
	for (i = 0; i < sizeof(lookups) / sizeof(lookups[0]); i++)
		same_sym(ftrace_sym_find(&ctx, lookups[i]), ftrace_sym_find(&ref, lookups[i]));
	assert_int_equal(ftrace_syms_count(&ctx), ftrace_syms_count(&ref));
	for (i = 0; i < ftrace_syms_count(&ref); i++)
		same_sym(ftrace_sym_at(&ctx, i), ftrace_sym_at(&ref, i));
	ftrace_ctx_fini(&ref);

	/* below the first symbol, or past the kernel's: the whole text, the whole table's answer */
	ftrace_ctx_fini(&ctx);
	ftrace_ctx_init(&ctx, TK_BYTE_ORDER_LE);
	ftrace_ctx_init(&ref, TK_BYTE_ORDER_LE);
	assert_int_equal(ftrace_kallsyms_parse(&ref, text, sizeof(text) - 1), TK_OK);
	assert_int_equal(ftrace_ctx_finish(&ref), TK_OK);
	st.given = 0;
	ftrace_kallsyms_defer_stream(&ctx, stream_more, &st);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	same_sym(ftrace_sym_find(&ctx, 0xffffffffa0a00010),
		 ftrace_sym_find(&ref, 0xffffffffa0a00010));
	assert_string_equal(ftrace_sym_find(&ctx, 0xffffffffa0a00010)->name, "low");
	assert_int_equal(st.given, st.len);
	ftrace_ctx_fini(&ctx);
	ftrace_ctx_init(&ctx, TK_BYTE_ORDER_LE);
	st.given = 0;
	ftrace_kallsyms_defer_stream(&ctx, stream_more, &st);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	assert_null(ftrace_sym_find(&ctx, 1));
	assert_int_equal(st.given, st.len);
	assert_null(ftrace_sym_find(&ctx, 0xffffffffc0a02001));
	ftrace_ctx_fini(&ref);
}

static void kallsyms_scanf_edges(void **state)
{
	(void) state;
	assert_int_equal(parse_table(ftrace_kallsyms_parse,
				     /* 17 digits: the 17th is the type, "T" the name */
				     "123456789abcdef01 T foo\n"
				     /* a space before '[': no module */
				     "ffff0010 t qux [m]\n"
				     /* '[' right after the tab, the word minus its last char */
				     "ffff0020 t baz\t[m]\n"
				     "ffff0030 t bad\t[ab\n"
				     "  0xffff0040   W   wk\n"),
			 TK_OK);
	assert_int_equal(ctx.n_syms, 5);
	assert_int_equal(ftrace_sym_at(&ctx, 0)->addr, 0x123456789abcdef0);
	assert_string_equal(ftrace_sym_at(&ctx, 0)->name, "T");
	assert_null(ftrace_sym_at(&ctx, 1)->module);
	assert_string_equal(ftrace_sym_at(&ctx, 2)->module, "m");
	assert_string_equal(ftrace_sym_at(&ctx, 3)->module, "a");
	assert_int_equal(ftrace_sym_at(&ctx, 4)->addr, 0xffff0040);
	assert_string_equal(ftrace_sym_at(&ctx, 4)->name, "wk");

	/* a bad line stops the parse; the lines before it stay */
	assert_int_equal(parse_table(ftrace_kallsyms_parse, "ffff0050 t one\n"
							    "ffff0060 t\n"
							    "ffff0070 t three\n"),
			 TK_ERR_FORMAT);
	assert_cause("Cannot parse kallsyms: line=2, reason=no symbol name");
	assert_int_equal(ctx.n_syms, 6);
	assert_int_equal(parse_table(ftrace_kallsyms_parse, "zzz T x\n"), TK_ERR_FORMAT);
	assert_cause("line=1, reason=no address");
	assert_int_equal(parse_table(ftrace_kallsyms_parse, "ffff\n"), TK_ERR_FORMAT);
	assert_cause("no symbol type");
}

/* The usual 16-digit lines and long names, which the reader takes a word at a time. */
static void kallsyms_long_lines(void **state)
{
	(void) state;
	assert_int_equal(
		parse_table(ftrace_kallsyms_parse,
			    "FFFFFFFF81000000 T UpperCaseAddress\n"
			    "ffffffff81000010 t exactly8\t[mod8]\n"
			    "ffffffff81000020 t exactly_sixteen!\t[m]\n"
			    "ffffffff81000030 t a_long_name\001with_a_control_char inside\n"
			    "ffffffff8100004g t not_hex_at_16\n"),
		TK_OK);
	assert_int_equal(ctx.n_syms, 5);
	assert_int_equal(ftrace_sym_at(&ctx, 0)->addr, 0xffffffff81000000);
	assert_string_equal(ftrace_sym_at(&ctx, 0)->name, "UpperCaseAddress");
	assert_string_equal(ftrace_sym_at(&ctx, 1)->name, "exactly8");
	assert_string_equal(ftrace_sym_at(&ctx, 1)->module, "mod8");
	assert_string_equal(ftrace_sym_at(&ctx, 2)->name, "exactly_sixteen!");
	assert_string_equal(ftrace_sym_at(&ctx, 2)->module, "m");
	assert_string_equal(ftrace_sym_at(&ctx, 3)->name, "a_long_name\001with_a_control_char");
	assert_null(ftrace_sym_at(&ctx, 3)->module);
	/* 15 digits, then 'g' is the type and "t" the name, as scanf("%16llx %c") reads it */
	assert_int_equal(ftrace_sym_at(&ctx, 4)->addr, 0xffffffff8100004);
	assert_string_equal(ftrace_sym_at(&ctx, 4)->name, "t");
}

/* Names are read from the text only when asked for: by address, by index and by name. */
static void kallsyms_names_when_asked(void **state)
{
	(void) state;
	assert_int_equal(parse_table(ftrace_kallsyms_parse, "ffffFFFF8100aBcD T mixed_case\n"
							    "ffffffff8100b000 t exactly8\t[mod8]\n"
							    "ffffffff8100c000 t exactly\n"
							    "ffffffff8100d000 t word then junk\n"
							    "\xff\xff\xff\xff"
							    "81000000 t high_bytes\n"),
			 TK_ERR_FORMAT);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	/* the last line is read the general way: no digit, no address, and the parse stops */
	assert_int_equal(ftrace_syms_count(&ctx), 4);
	assert_int_equal(ftrace_sym_addr(&ctx, "mixed_case"), 0xffffffff8100abcd);
	/* a name is a whole word: "exactly" is not "exactly8", "word" ends at the blank */
	assert_int_equal(ftrace_sym_addr(&ctx, "exactly"), 0xffffffff8100c000);
	assert_int_equal(ftrace_sym_addr(&ctx, "exactly8"), 0xffffffff8100b000);
	assert_int_equal(ftrace_sym_addr(&ctx, "word"), 0xffffffff8100d000);
	assert_int_equal(ftrace_sym_addr(&ctx, "word then"), 0);
	assert_int_equal(ftrace_sym_addr(&ctx, "mod8"), 0);
	assert_int_equal(ftrace_sym_addr(&ctx, ""), 0);
	assert_string_equal(ftrace_sym_find(&ctx, 0xffffffff8100b010)->module, "mod8");
	assert_string_equal(ftrace_sym_find(&ctx, 0xffffffff8100d000)->name, "word");
	assert_null(ftrace_sym_find(&ctx, 0xffffffff8100d000)->module);
	/* the same symbol twice is the same object */
	assert_ptr_equal(ftrace_sym_find(&ctx, 0xffffffff8100c000), ftrace_sym_at(&ctx, 2));
}

static void kallsyms_real(void **state)
{
	size_t len, i, want = 0, found = 0;
	char *text, *buf, *line, *save = NULL;

	(void) state;
	text = read_file("/proc/kallsyms", &len);
	if (!text || !len) {
		free(text);
		print_message("no /proc/kallsyms\n");
		skip();
	}
	buf = exact(text, len);
	assert_int_equal(ftrace_kallsyms_parse(&ctx, buf, len), TK_OK);
	free(buf);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	text = realloc(text, len + 1);
	text[len] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long addr;
		char type, name[512];
		const struct ftrace_sym *s;

		assert_int_equal(sscanf(line, "%llx %c %511s", &addr, &type, name), 3);
		if (type == 'A' || type == 'a' || name[0] == '$')
			continue;
		want++;
		s = ftrace_sym_find(&ctx, addr);
		assert_non_null(s);
		assert_int_equal(s->addr, addr);
		found++;
	}
	assert_int_equal(ctx.n_syms, want);
	assert_int_equal(found, want);
	for (i = 1; i < ctx.n_syms; i++)
		assert_true(ctx.syms[i - 1].addr <= ctx.syms[i].addr);
	free(text);
}

static void printk_formats(void **state)
{
	(void) state;
	assert_int_equal(parse_table(ftrace_printk_parse,
				     "0xffffffff8123abcd : \"format string\\n\"\n"
				     "0xffffffff81000010 : \"tab\\there \\\"quoted\\\"\\n\"\n"
				     "0xffffffff81000020 : \"no newline\"\n"
				     "0xffffffff81000030 : \"no closing quote\\n\n"
				     "0xffffffff81000040 : \"a:b:c\"\n"
				     "0xffffffff81000050 : \"\\n\"\n"),
			 TK_OK);
	assert_int_equal(ctx.n_printk, 6);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	assert_string_equal(ftrace_printk_find(&ctx, 0xffffffff8123abcd)->fmt, "format string");
	assert_string_equal(ftrace_printk_find(&ctx, 0xffffffff81000010)->fmt,
			    "tab\\there \\\"quoted\\\"");
	assert_string_equal(ftrace_printk_find(&ctx, 0xffffffff81000020)->fmt, "no newline");
	assert_string_equal(ftrace_printk_find(&ctx, 0xffffffff81000030)->fmt,
			    "no closing quote\\n");
	assert_string_equal(ftrace_printk_find(&ctx, 0xffffffff81000040)->fmt, "a:b:c");
	assert_string_equal(ftrace_printk_find(&ctx, 0xffffffff81000050)->fmt, "");
	assert_null(ftrace_printk_find(&ctx, 0xffffffff81000021));
}

static void printk_edges(void **state)
{
	(void) state;
	assert_int_equal(parse_table(ftrace_printk_parse,
				     "0x10 : \"first\"\n"
				     "0x10 : \"second\"\n"
				     "  20:xyz\n"
				     "::\n"
				     "0x30 : \"ignored after the colon line\"\n"),
			 TK_OK);
	assert_int_equal(ctx.n_printk, 3);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	/* sorted newest first among equals: [second, first, yz]; probe 1 is "first" */
	assert_string_equal(ftrace_printk_find(&ctx, 0x10)->fmt, "first");
	/* one character after the colon is skipped, whatever it is */
	assert_string_equal(ftrace_printk_find(&ctx, 0x20)->fmt, "yz");
	assert_null(ftrace_printk_find(&ctx, 0x30));
}

static void cmdlines(void **state)
{
	(void) state;
	assert_int_equal(parse_table(ftrace_cmdlines_parse, "1 systemd\n"
							    "42 kworker/0:1 H\n"
							    "\n"
							    "7  two  spaces  \n"
							    "100 x\n"
							    "42 dup\n"
							    "123abc\n"
							    "-5 neg\n"
							    "99999999999 big\n"),
			 TK_OK);
	assert_int_equal(ctx.n_comms, 8);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	/* sorted [-5, 1, 7, 42 dup, 42 kworker, 100, 123, 1215752191]: 42 is found at probe 4 */
	assert_string_equal(ftrace_comm_find(&ctx, 1), "systemd");
	assert_string_equal(ftrace_comm_find(&ctx, 7), "two  spaces  ");
	assert_string_equal(ftrace_comm_find(&ctx, 42), "kworker/0:1 H");
	assert_string_equal(ftrace_comm_find(&ctx, 100), "x");
	assert_string_equal(ftrace_comm_find(&ctx, 123), "abc");
	assert_string_equal(ftrace_comm_find(&ctx, -5), "neg");
	/* 99999999999 cut to 32 bits, as scanf's %d stores it */
	assert_string_equal(ftrace_comm_find(&ctx, 1215752191), "big");
	assert_null(ftrace_comm_find(&ctx, 5));
	assert_null(ftrace_comm_find(&ctx, 0));

	/* after finish: new pids go in order, known pids and pid 0 are left alone */
	assert_int_equal(ftrace_comm_register(&ctx, 42, "new", 3), TK_OK);
	assert_int_equal(ftrace_comm_register(&ctx, 5, "five", 4), TK_OK);
	assert_int_equal(ftrace_comm_register(&ctx, 0, "idle", 4), TK_OK);
	assert_int_equal(ctx.n_comms, 9);
	assert_int_equal(ctx.comms[2].pid, 5);
	assert_string_equal(ftrace_comm_find(&ctx, 5), "five");
	assert_null(ftrace_comm_find(&ctx, 0));
}

static void cmdlines_duplicates_probe(void **state)
{
	(void) state;
	assert_int_equal(parse_table(ftrace_cmdlines_parse, "42 a\n42 b\n"), TK_OK);
	assert_int_equal(ftrace_comm_register(&ctx, 42, "c", 1), TK_OK);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	/* newest first: [c, b, a]; probe 1 is b */
	assert_string_equal(ftrace_comm_find(&ctx, 42), "b");
}

static void cmdlines_errors(void **state)
{
	(void) state;
	assert_int_equal(parse_table(ftrace_cmdlines_parse, "1 a\nabc\n2 b\n"), TK_ERR_FORMAT);
	assert_cause("Cannot parse saved_cmdlines: line=2, reason=no pid");
	assert_int_equal(ctx.n_comms, 1);
	assert_int_equal(parse_table(ftrace_cmdlines_parse, "77\n"), TK_ERR_FORMAT);
	assert_cause("reason=no comm");
	assert_int_equal(parse_table(ftrace_cmdlines_parse, "77   \n"), TK_ERR_FORMAT);
	assert_int_equal(parse_table(ftrace_cmdlines_parse, "99999999999999999999 x\n"),
			 TK_ERR_FORMAT);
	assert_cause("pid out of range");
	/* LONG_MIN fits, one below does not */
	assert_int_equal(parse_table(ftrace_cmdlines_parse, "-9223372036854775808 m\n"), TK_OK);
	assert_int_equal(parse_table(ftrace_cmdlines_parse, "-9223372036854775809 m\n"),
			 TK_ERR_FORMAT);
	assert_int_equal(parse_table(ftrace_cmdlines_parse, "9223372036854775807 m\n"), TK_OK);
	assert_int_equal(parse_table(ftrace_cmdlines_parse, "9223372036854775808 m\n"),
			 TK_ERR_FORMAT);
	/* the text ends at a NUL, as the C string libtraceevent gets */
	{
		static const char t[] = "3 c\0"
					"4 d\n";
		char *buf = exact(t, sizeof(t) - 1);

		assert_int_equal(ftrace_cmdlines_parse(&ctx, buf, sizeof(t) - 1), TK_OK);
		free(buf);
	}
	assert_int_equal(ctx.n_comms, 4);
}

/* ---- field values --------------------------------------------------------------------------- */

static struct ftrace_field mkfield(uint32_t offset, uint32_t size, uint32_t flags)
{
	struct ftrace_field f = {"f", "t", offset, size, 0, size, flags};

	return f;
}

static void field_values_both_orders(void **state)
{
	static const uint8_t rec[16] = {0xfe, 0x80, 0x01, 0xff, 0xff, 0xff, 0x7f, 0x00,
					0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x88};
	struct ftrace_field f;

	(void) state;
	ctx.bo = TK_BYTE_ORDER_LE;
	f = mkfield(0, 1, 0);
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), 0xfe);
	f.flags = S;
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), (uint64_t) -2);
	f = mkfield(0, 2, 0);
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), 0x80fe);
	f.flags = S;
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), (uint64_t) (int16_t) 0x80fe);
	f = mkfield(4, 4, S);
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), 0x007fffff);
	f = mkfield(2, 4, S);
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), (uint64_t) (int32_t) 0xffffff01);
	f = mkfield(8, 8, S);
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), 0x8807060504030201);
	f = mkfield(8, 3, 0); /* not a scalar size */
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), 0);

	ctx.bo = TK_BYTE_ORDER_BE;
	f = mkfield(0, 2, 0);
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), 0xfe80);
	f.flags = S;
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), (uint64_t) (int16_t) 0xfe80);
	f = mkfield(4, 4, 0);
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), 0xffff7f00);
	f = mkfield(8, 8, 0);
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), 0x0102030405060788);
	f = mkfield(0, 1, S);
	assert_int_equal(ftrace_field_u64(&ctx, &f, rec), (uint64_t) -2);
}

static int dyn(struct ftrace_field *f, const uint8_t *rec, size_t size, uint32_t *off,
	       uint32_t *len)
{
	*off = *len = 0xdead;
	return ftrace_field_dynamic(&ctx, f, rec, size, off, len);
}

static void field_dynamic(void **state)
{
	uint8_t rec[32] = {0};
	struct ftrace_field f = mkfield(8, 4, D | A | STR), rel = mkfield(8, 4, D | A | STR | R);
	struct ftrace_field old = mkfield(8, 2, D | A | STR), far = mkfield(30, 4, D);
	uint32_t off, len;
	int bo;

	(void) state;
	for (bo = 0; bo < 2; bo++) {
		ctx.bo = bo ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE;
		tk_store_u32(rec + 8, 5u << 16 | 16, ctx.bo);
		assert_int_equal(dyn(&f, rec, 32, &off, &len), 0);
		assert_int_equal(off, 16);
		assert_int_equal(len, 5);
		/* exactly up to the end */
		tk_store_u32(rec + 8, 16u << 16 | 16, ctx.bo);
		assert_int_equal(dyn(&f, rec, 32, &off, &len), 0);
		/* one past: libtraceevent keeps the offset, drops the length */
		tk_store_u32(rec + 8, 5u << 16 | 30, ctx.bo);
		assert_int_equal(dyn(&f, rec, 32, &off, &len), -1);
		assert_int_equal(off, 30);
		assert_int_equal(len, 0);
		/* offset past the record: both 0 */
		tk_store_u32(rec + 8, 0u << 16 | 40, ctx.bo);
		assert_int_equal(dyn(&f, rec, 32, &off, &len), -1);
		assert_int_equal(off, 0);
		assert_int_equal(len, 0);
		/* __rel_loc counts from the end of the field (8 + 4) */
		tk_store_u32(rec + 8, 3u << 16 | 4, ctx.bo);
		assert_int_equal(dyn(&rel, rec, 32, &off, &len), 0);
		assert_int_equal(off, 16);
		assert_int_equal(len, 3);
		tk_store_u32(rec + 8, 4u << 16 | 18, ctx.bo);
		assert_int_equal(dyn(&rel, rec, 32, &off, &len), -1);
		assert_int_equal(off, 30);
		assert_int_equal(len, 4);
		/* legacy 2-byte location: the data runs to the end of the record */
		tk_store_u16(rec + 8, 20, ctx.bo);
		assert_int_equal(dyn(&old, rec, 32, &off, &len), 0);
		assert_int_equal(off, 20);
		assert_int_equal(len, 12);
		tk_store_u16(rec + 8, 33, ctx.bo);
		assert_int_equal(dyn(&old, rec, 32, &off, &len), -1);
		/* the location word itself outside the record */
		assert_int_equal(dyn(&far, rec, 32, &off, &len), -1);
		assert_int_equal(off, 0);
		assert_int_equal(len, 0);
		assert_int_equal(dyn(&f, rec, 11, &off, &len), -1);
	}
}

/* ftrace_ctx_fini() frees compiled print fmts (a leak shows under the sanitizers). */
static void fini_frees_compiled_print(void **state)
{
	struct ftrace_event *ev = parse_event_ok("test", all_forms);

	(void) state;
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	assert_int_equal(ftrace_print_compile(&ctx, ev), TK_OK);
	assert_non_null(ev->print);
}

static void finish_twice_and_fini_empty(void **state)
{
	struct ftrace_ctx c;

	(void) state;
	ftrace_ctx_init(&c, TK_BYTE_ORDER_BE);
	assert_int_equal(c.long_size, 8);
	assert_int_equal(ftrace_ctx_finish(&c), TK_OK);
	assert_int_equal(ftrace_ctx_finish(&c), TK_OK);
	assert_null(ftrace_event_find(&c, 0));
	assert_null(ftrace_sym_find(&c, 0));
	assert_null(ftrace_printk_find(&c, 0));
	assert_null(ftrace_comm_find(&c, 0));
	ftrace_ctx_fini(&c);
	ftrace_ctx_fini(NULL);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(format_every_field_form),
		T(format_long_array_uses_context_long_size),
		T(format_every_prefix),
		T(format_ftrace_quirks),
		T(format_real_ftrace_function),
		T(format_print_fmt_forms),
		T(format_ids),
		T(format_errors_name_line),
		T(format_failed_event_is_kept),
		T(events_sorted_and_duplicates),
		T(format_all_tracefs_files),
		T(header_page_64_and_32_bit),
		T(header_page_errors),
		T(header_page_real),
		T(kallsyms_kept_and_lookups),
		T(kallsyms_deferred),
		T(kallsyms_streamed),
		T(kallsyms_scanf_edges),
		T(kallsyms_long_lines),
		T(kallsyms_names_when_asked),
		T(kallsyms_real),
		T(printk_formats),
		T(printk_edges),
		T(cmdlines),
		T(cmdlines_duplicates_probe),
		T(cmdlines_errors),
		T(field_values_both_orders),
		T(field_dynamic),
		T(fini_frees_compiled_print),
		T(finish_twice_and_fini_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
