// SPDX-License-Identifier: MIT
/*
 * The selection options `tracekit print` and `tracekit convert` share (-e, -F, --begin, --end,
 * --timerange, --pid, --comm, --cpu), read into a struct tk_filter_opts for the library's
 * filter stage, so that both commands accept exactly the same words.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* "0,2-3" into @sel's CPU list; -1 on a bad list. */
static int parse_cpus(struct cli_filter *sel, const char *arg)
{
	const char *p = arg;

	for (;;) {
		char *end;
		unsigned long a, b;

		if (*p < '0' || *p > '9')
			return -1;
		a = strtoul(p, &end, 10);
		if (end == p || a >= CLI_MAX_CPUS)
			return -1;
		b = a;
		p = end;
		if (*p == '-') {
			if (p[1] < '0' || p[1] > '9')
				return -1;
			b = strtoul(p + 1, &end, 10);
			if (end == p + 1 || b >= CLI_MAX_CPUS || b < a)
				return -1;
			p = end;
		}
		for (; a <= b; a++)
			if (sel->n_cpus < CLI_MAX_CPUS)
				sel->cpus[sel->n_cpus++] = (unsigned int) a;
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

/* "12,345" into @sel's pid list; -1 on a bad list. */
static int parse_pids(struct cli_filter *sel, const char *arg)
{
	const char *p = arg;

	for (;;) {
		char *end;
		long long v;

		if (!((*p >= '0' && *p <= '9') || *p == '-'))
			return -1;
		errno = 0;
		v = strtoll(p, &end, 10);
		if (errno || end == p || sel->n_pids == CLI_MAX_ITEMS)
			return -1;
		sel->pids[sel->n_pids++] = v;
		p = end;
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

static int parse_time(const char *cmd, const char *arg, unsigned int flags, struct tk_time *out)
{
	if (tk_time_parse(out, arg, flags) < 0)
		return cli_usage_error(cmd,
				       "invalid time '%s' (SECONDS[.FRACTION], NUMBER with s, ms, "
				       "us or ns, YYYY-MM-DD hh:mm[:ss[.n]] or hh:mm[:ss[.n]])",
				       arg);
	return 0;
}

int cli_filter_option(struct cli_filter *sel, const char *cmd, int opt, const char *arg)
{
	switch (opt) {
	case 'e':
		if (sel->n_events == CLI_MAX_ITEMS)
			return cli_usage_error(cmd, "too many -e options");
		sel->events[sel->n_events++] = arg;
		return 0;
	case 'F':
		if (sel->n_predicates == CLI_MAX_ITEMS)
			return cli_usage_error(cmd, "too many -F options");
		sel->predicates[sel->n_predicates++] = arg;
		return 0;
	case CLI_OPT_BEGIN:
		sel->begin = arg;
		return 0;
	case CLI_OPT_END:
		sel->end = arg;
		return 0;
	case CLI_OPT_TIMERANGE:
		sel->timerange = arg;
		return 0;
	case CLI_OPT_PID:
		if (parse_pids(sel, arg))
			return cli_usage_error(cmd, "bad pid list '%s' (example: 12,345)", arg);
		return 0;
	case CLI_OPT_COMM:
		if (sel->n_comms == CLI_MAX_ITEMS)
			return cli_usage_error(cmd, "too many --comm options");
		sel->comms[sel->n_comms++] = arg;
		return 0;
	case CLI_OPT_CPU:
		if (parse_cpus(sel, arg))
			return cli_usage_error(cmd, "bad CPU list '%s' (example: 0,2-3)", arg);
		sel->has_cpus = 1;
		return 0;
	}
	return cli_usage_error(cmd, "invalid option");
}

int cli_filter_finish(struct cli_filter *sel, const char *cmd, unsigned int flags,
		      struct tk_filter_opts *out)
{
	struct tk_filter_opts o = TK_FILTER_OPTS_INIT;

	o.flags = flags;
	if (sel->timerange) {
		/* BEGIN,END or [BEGIN,END], as babeltrace2 takes it */
		char buf[256], *comma;
		size_t n = strlen(sel->timerange);
		const char *s = sel->timerange;

		if (sel->begin || sel->end)
			return cli_usage_error(cmd, "--timerange cannot go with --begin or --end");
		if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
			s++;
			n -= 2;
		}
		if (n >= sizeof(buf))
			return cli_usage_error(cmd, "--timerange too long");
		memcpy(buf, s, n);
		buf[n] = '\0';
		comma = strchr(buf, ',');
		if (!comma)
			return cli_usage_error(cmd, "--timerange takes BEGIN,END");
		*comma = '\0';
		if (parse_time(cmd, buf, flags, &o.begin) ||
		    parse_time(cmd, comma + 1, flags, &o.end))
			return 2;
	} else {
		if (sel->begin && parse_time(cmd, sel->begin, flags, &o.begin))
			return 2;
		if (sel->end && parse_time(cmd, sel->end, flags, &o.end))
			return 2;
	}
	if (o.begin.kind == TK_TIME_FROM_ORIGIN && o.end.kind == TK_TIME_FROM_ORIGIN &&
	    o.end.ns < o.begin.ns)
		return cli_usage_error(cmd, "--end is before --begin");
	o.events = sel->events;
	o.n_events = sel->n_events;
	o.pids = sel->pids;
	o.n_pids = sel->n_pids;
	o.comms = sel->comms;
	o.n_comms = sel->n_comms;
	o.cpus = sel->cpus;
	o.n_cpus = sel->has_cpus ? sel->n_cpus : 0;
	o.predicates = sel->predicates;
	o.n_predicates = sel->n_predicates;
	*out = o;
	return 0;
}
