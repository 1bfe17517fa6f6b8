// SPDX-License-Identifier: MIT
/*
 * tracekit: one tool for Linux trace formats. main() dispatches to one cmd-<verb>.c per
 * subcommand through the table below.
 */
#include <getopt.h>
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
	{"ust-recover", cmd_ust_recover,
	 "append a killed traced program's last packets (ring files) to its trace"},
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: tracekit COMMAND [OPTION]... [ARG]...\n\n"
		     "Read, print and convert Linux trace formats.\n\nCommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\nRun 'tracekit help COMMAND' (or 'tracekit COMMAND --help') for the options of\n"
		"a command, 'man tracekit-COMMAND' for the manual page.\n"
		"Options: -h, --help  this help;  --version  print the version.\n");
}

/*
 * Whether cause @a only repeats the start of cause @b ("Cannot write output" before "Cannot
 * write output: fd=1, ..."), as when a caller adds its own context to a callee's cause.
 */
static int repeats(const char *a, const char *b)
{
	size_t n = strlen(a);

	return !strncmp(a, b, n) && (b[n] == '\0' || b[n] == ':' || b[n] == ',');
}

char *cli_error_text(const char *context)
{
	size_t i, n = tk_error_count(), len = (context ? strlen(context) : 0) + 64;
	const char *first = n ? tk_error_cause(0) : "";
	char *s;

	for (i = 0; i < n; i++)
		len += strlen(tk_error_cause(i)) + 2;
	s = malloc(len);
	if (!s)
		return NULL;
	if (context && *context && !repeats(context, first))
		len = (size_t) snprintf(s, len, "tracekit: %s%s", context, n ? ": " : "");
	else
		len = (size_t) snprintf(s, len, "tracekit: ");
	for (i = 0; i < n; i++) {
		const char *c = tk_error_cause(i);

		if (i + 1 < n && repeats(c, tk_error_cause(i + 1)))
			continue;
		len += (size_t) sprintf(s + len, "%s%s", c, i + 1 < n ? ": " : "");
	}
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
	fprintf(stderr, " (see 'tracekit help %s')\n", cmd);
	return 2;
}

void cli_style_names(char *buf, size_t size, const char *first)
{
	const char *name;
	size_t len = (size_t) snprintf(buf, size, "%s", first);
	unsigned int i;

	for (i = 0; (name = tk_print_style_name(i)) != NULL && len < size; i++)
		if (strcmp(name, "auto"))
			len += (size_t) snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
						 name);
}

int cli_bad_option(const char *cmd, const char *shortopts, char **argv)
{
	const char *arg = argv[optind - 1];
	size_t n = strcspn(arg, "=");

	if (optopt == 0) /* a long option getopt does not know */
		return cli_usage_error(cmd, "unknown option '%.*s'", (int) n, arg);
	if (optopt >= 256 || strchr(shortopts, optopt)) {
		if (arg[0] == '-' && arg[1] == '-')
			return cli_usage_error(cmd, "option '%.*s' needs a value", (int) n, arg);
		return cli_usage_error(cmd, "option '-%c' needs a value", optopt);
	}
	return cli_usage_error(cmd, "unknown option '-%c'", optopt);
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
	opterr = 0; /* the commands say what is wrong, on one line (cli_bad_option()) */
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* "tracekit help CMD" is "tracekit CMD --help" */
		char *args[] = {argv[2], "--help", NULL};

		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[2], commands[i].name))
				return commands[i].run(2, args);
		fprintf(stderr, "tracekit: unknown command '%s' (see 'tracekit help')\n", argv[2]);
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
	fprintf(stderr, "tracekit: unknown command '%s' (see 'tracekit help')\n", argv[1]);
	return 2;
}
