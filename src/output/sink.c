// SPDX-License-Identifier: MIT
/*
 * The registry of sinks (sink.h): one row per style, numbered by its place (enum
 * tk_print_style names the first ones), with the name the command line uses and the output
 * extensions that choose it in tk_convert(). A sink added here is found by name
 * (tk_print_style_find()), by extension and by number, with no other table to change.
 */
#include <string.h>

#include <tracekit/print.h>

#include "../common/str.h"

#include "pretty.h"
#include "sink.h"

struct sink_row {
	const char *name;
	const char *const *exts; /* NULL-terminated, or NULL */
	const struct sink_ops *ops;
};

static const char *const json_exts[] = {".jsonl", ".ndjson", NULL};
static const char *const chrome_exts[] = {".json", NULL};
static const char *const csv_exts[] = {".csv", NULL};
static const char *const tsv_exts[] = {".tsv", ".tab", NULL};

/* The first rows in the order of enum tk_print_style; the others are found by name. */
static const struct sink_row sinks[] = {
	[TK_PRINT_STYLE_AUTO] = {"auto", NULL, &sink_auto},
	[TK_PRINT_STYLE_BABELTRACE] = {"babeltrace", NULL, &sink_babeltrace},
	[TK_PRINT_STYLE_TRACECMD] = {"trace-cmd", NULL, &sink_tracecmd},
	[TK_PRINT_STYLE_JSON] = {"json", json_exts, &sink_json},
	[TK_PRINT_STYLE_CHROME] = {"chrome", chrome_exts, &sink_chrome},
	{"csv", csv_exts, &sink_csv},
	{"tsv", tsv_exts, &sink_tsv},
	{"perf", NULL, &sink_perfscript},
	{"perf-decode", NULL, &sink_perf_decode},
	{"perf-decode-compact", NULL, &sink_perf_decode_compact},
};

#define N_SINKS (sizeof(sinks) / sizeof(sinks[0]))

const struct sink_ops *sink_for_style(unsigned int style)
{
	return style < N_SINKS ? sinks[style].ops : NULL;
}

int sink_style_for_path(const char *path)
{
	size_t i, k;

	for (i = 0; i < N_SINKS; i++)
		for (k = 0; sinks[i].exts && sinks[i].exts[k]; k++)
			if (str_ends_with(path, sinks[i].exts[k]))
				return (int) i;
	return -1;
}

int tk_print_style_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < N_SINKS; i++)
		if (!strcmp(name, sinks[i].name))
			return (int) i;
	return -1;
}

const char *tk_print_style_name(unsigned int style)
{
	return style < N_SINKS ? sinks[style].name : NULL;
}
