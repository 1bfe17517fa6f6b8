// SPDX-License-Identifier: MIT
/*
 * The shared fixture of the CTF unit tests: see ctf-fixture.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/error.h"
#include "ctf-fixture.h"

struct tk_source src;

int setup(void **state)
{
	(void) state;
	memset(&src, 0, sizeof(src));
	arena_init(&src.arena);
	error_reset();
	return 0;
}

int teardown(void **state)
{
	(void) state;
	arena_fini(&src.arena);
	return 0;
}

void print_causes(void)
{
	size_t i;

	for (i = 0; i < tk_error_count(); i++)
		print_error("  cause: %s\n", tk_error_cause(i));
}

void build_ok(const char *text)
{
	enum tk_status st;

	error_reset();
	st = ctf_meta_build(&src, text, strlen(text));
	if (st != TK_OK) {
		print_error("ctf_meta_build() = %s for:\n%s\n", tk_status_str(st), text);
		print_causes();
		fail();
	}
}

void src_reset(void)
{
	arena_fini(&src.arena);
	memset(&src, 0, sizeof(src));
	arena_init(&src.arena);
}

/* A fresh source for each text, so one test can try several. */
enum tk_status build_fails(const char *text)
{
	enum tk_status st;

	src_reset();
	error_reset();
	st = ctf_meta_build(&src, text, strlen(text));
	if (st >= 0) {
		print_error("ctf_meta_build() accepted:\n%s\n", text);
		fail();
	}
	/* every refusal explains itself */
	assert_true(tk_error_count() >= 1);
	assert_memory_equal(tk_error_cause(0), "Cannot ", 7);
	return st;
}

const struct ctf_trace *trace_of(void)
{
	return src.fmt;
}

struct tk_event_class *ec_at(size_t sc, size_t ec)
{
	assert_true(sc < src.n_scs);
	assert_true(ec < src.scs[sc]->n_ecs);
	return src.scs[sc]->ecs[ec];
}

struct model_fc *payload(void)
{
	struct model_fc *fc = ec_at(0, 0)->payload;

	assert_non_null(fc);
	assert_int_equal(fc->kind, MODEL_FC_STRUCT);
	return fc;
}

const struct model_member *member_entry(const struct model_fc *st, const char *name)
{
	uint32_t i;

	assert_int_equal(st->kind, MODEL_FC_STRUCT);
	for (i = 0; i < st->u.st.count; i++)
		if (!strcmp(st->u.st.members[i].name, name))
			return &st->u.st.members[i];
	print_error("no member named \"%s\"\n", name);
	fail();
	return NULL;
}

struct model_fc *member(const struct model_fc *st, const char *name)
{
	return member_entry(st, name)->fc;
}
