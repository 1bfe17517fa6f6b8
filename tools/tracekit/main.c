// SPDX-License-Identifier: MIT
/*
 * tracekit: one tool for Linux trace formats. main() dispatches to one cmd-<verb>.c per
 * subcommand through the table below.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"print", cmd_print, "print events as text (babeltrace2 layout for CTF)"},
	{"info", cmd_info, "summarise a trace: streams, event classes, clock, time range, losses"},
	{"record", cmd_record, "record kernel events through tracefs into a trace.dat file"},
	{"list", cmd_list, "list the events the running kernel offers"},
	{"convert", cmd_convert, "convert traces into trace.dat, CTF, JSON lines or Chrome JSON"},
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: tracekit COMMAND [OPTION]... [ARG]...\n\n"
		     "Read, print and convert Linux trace formats.\n\nCommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nRun 'tracekit COMMAND --help' for the options of a command.\n"
		     "Options: -h, --help  this help;  --version  print the version.\n");
}

char *cli_error_text(const char *context)
{
	size_t i, n = tk_error_count(), len = (context ? strlen(context) : 0) + 64;
	char *s;

	for (i = 0; i < n; i++)
		len += strlen(tk_error_cause(i)) + 2;
	s = malloc(len);
	if (!s)
		return NULL;
	len = (size_t) snprintf(s, len, "tracekit: %s", context ? context : "");
	for (i = 0; i < n; i++)
		len += (size_t) sprintf(s + len, "%s%s", i || context ? ": " : "",
					tk_error_cause(i));
	if (tk_error_dropped())
		sprintf(s + len, " (%zu more causes)", tk_error_dropped());
	return s;
}

int cli_fail(const char *context)
{
	char *s = cli_error_text(context);

	fprintf(stderr, "%s\n", s ? s : "tracekit: out of memory");
	free(s);
	return 1;
}

void cli_warn(const char *text, void *payload)
{
	(void) payload;
	fprintf(stderr, "tracekit: warning: %s\n", text);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tracekit %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'tracekit %s --help' for more information.\n", cmd);
	return 2;
}

int cli_parse_file_version(const char *cmd, const char *arg, unsigned int *out)
{
	if (strcmp(arg, "6") && strcmp(arg, "7"))
		return cli_usage_error(cmd, "invalid file version: %s (6 or 7)", arg);
	*out = (unsigned int) (arg[0] - '0');
	return 0;
}

int cli_parse_compression(const char *cmd, const char *arg, const char **out)
{
	if (strcmp(arg, "none") && strcmp(arg, "zstd") && strcmp(arg, "zlib"))
		return cli_usage_error(cmd, "invalid compression: %s (none, zstd or zlib)", arg);
	*out = arg;
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("tracekit %s\n", tk_version());
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "tracekit: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
