/* SPDX-License-Identifier: MIT */
/*
 * Shared fixture of the CTF unit tests (test-ctf-meta.c, test-ctf-prog.c): one struct tk_source
 * built from a small metadata text per test, the integer aliases most texts start with, and
 * lookups of members by name. Both test files check what ctf_meta_build() makes of the text; a
 * failed build prints its causes so a broken fixture text is easy to spot.
 */
#ifndef TK_TESTS_UNIT_CTF_FIXTURE_H
#define TK_TESTS_UNIT_CTF_FIXTURE_H

#include <stddef.h>

#include "ctf/ctf.h"

#define INTS                                                                                       \
	"/* CTF 1.8 */\n"                                                                          \
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"                 \
	"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"               \
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"               \
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"               \
	"typealias integer { size = 8; align = 8; signed = true; } := int8_t;\n"                   \
	"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"

#define TRACE_LE "trace { major = 1; minor = 8; byte_order = le; };\n"
#define TRACE_BE "trace { major = 1; minor = 8; byte_order = be; };\n"

/* One event whose payload is the given structure body. */
#define EVENT(body) "event { name = e; fields := struct { " body " }; };\n"

/* The source under test; setup() and teardown() give each test a fresh one. */
extern struct tk_source src;

int setup(void **state);
int teardown(void **state);

/* Throw the current source away and start an empty one. */
void src_reset(void);

void print_causes(void);

/* Build @text into src, failing the test with the causes if it is refused. */
void build_ok(const char *text);

/* Build @text into a fresh src, failing the test if it is accepted or gives no cause. */
enum tk_status build_fails(const char *text);

const struct ctf_trace *trace_of(void);
struct tk_event_class *ec_at(size_t sc, size_t ec);

/* The payload structure of the first event class of the first stream class. */
struct model_fc *payload(void);

/* Member of structure @st by shown name; fails the test if there is none. */
const struct model_member *member_entry(const struct model_fc *st, const char *name);
struct model_fc *member(const struct model_fc *st, const char *name);

#endif /* TK_TESTS_UNIT_CTF_FIXTURE_H */
