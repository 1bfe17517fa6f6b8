// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the reader of the ftrace metadata a CTF trace carries in its environment
 * (src/tracedat/tracedat-env.c, convert_env_read()), followed by what the conversion to
 * trace.dat does with what it read: the header_page and every format through the ftrace
 * parsers, the options and buffers walked.
 *
 *	entry NUL entry NUL ...      entry: KEY=VALUE for a string, KEY#DECIMAL for an integer
 *
 * At most 4096 entries. It must never crash, hang or leak, whatever the keys and values.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat/tracedat-env.h"
#include "common/error.h"
#include "ftrace/ftrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ENTRIES 4096

static volatile uint64_t sink;

static void use(const struct convert_env *e)
{
	struct ftrace_ctx ctx;
	struct ftrace_page_layout layout;
	uint64_t acc = e->kallsyms.len + e->printk.len + e->cmdlines.len + e->trace_clock.len +
		       e->header_event.len + e->cpus + e->page_size + e->long_size;
	size_t i;

	if (strlen(e->kallsyms.data) != e->kallsyms.len || strlen(e->printk.data) != e->printk.len)
		__builtin_trap(); /* texts are NUL-terminated at their length */
	if (ftrace_page_layout_parse(e->header_page.data, e->header_page.len, &layout) >= 0)
		acc += layout.data_offset;
	ftrace_ctx_init(&ctx, e->bo);
	for (i = 0; i < e->n_formats; i++) {
		struct ftrace_event *ev = NULL;

		if (i && e->formats[i].id <= e->formats[i - 1].id)
			__builtin_trap(); /* sorted, unique */
		if (ftrace_event_parse(&ctx, e->formats[i].system, e->formats[i].text.data,
				       e->formats[i].text.len, &ev) >= 0)
			acc += ev->n_fields;
	}
	(void) ftrace_ctx_finish(&ctx);
	ftrace_ctx_fini(&ctx);
	for (i = 0; i < e->n_options; i++) {
		acc += e->options[i].id;
		if (e->options[i].size)
			acc += e->options[i].data[e->options[i].size - 1];
	}
	for (i = 0; i < e->n_buffers; i++)
		acc += strlen(e->buffers[i].name) + e->buffers[i].sc_id +
		       (e->buffers[i].clock ? strlen(e->buffers[i].clock) : 0);
	sink = acc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model_env *env = calloc(MAX_ENTRIES, sizeof(*env));
	char *text = malloc(size + 1);
	struct convert_env e;
	size_t n = 0, at = 0;

	if (!env || !text) {
		free(env);
		free(text);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = '\0';
	while (at < size && n < MAX_ENTRIES) {
		char *entry = text + at, *sep = entry + strcspn(entry, "=#");

		at += strlen(entry) + 1;
		if (!*sep)
			continue;
		env[n].key = entry;
		if (*sep == '#')
			env[n].integer = strtoll(sep + 1, NULL, 10);
		else
			env[n].str = sep + 1;
		*sep = '\0';
		n++;
	}
	if (convert_env_read(&e, env, n) >= 0 && e.present)
		use(&e);
	convert_env_fini(&e);
	error_reset();
	free(env);
	free(text);
	return 0;
}
