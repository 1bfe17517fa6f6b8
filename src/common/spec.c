// SPDX-License-Identifier: MIT
/*
 * Event specs (spec.h): globs over an event's system and name, shared by every command that
 * selects events so that `-e sched` means the same thing when recording, printing and
 * converting.
 */
#include <fnmatch.h>
#include <string.h>

#include "spec.h"

int spec_names_system(const char *spec, const char *system)
{
	return !strchr(spec, ':') && strcmp(spec, "all") && !fnmatch(spec, system, 0);
}

int spec_match(const char *spec, int by_system, const char *system, const char *name)
{
	const char *colon = strchr(spec, ':');
	char sys_glob[256];
	size_t n;

	if (!strcmp(spec, "all"))
		return 1;
	if (!colon)
		return !fnmatch(spec, by_system ? system : name, 0);
	n = (size_t) (colon - spec);
	if (n >= sizeof(sys_glob))
		return 0;
	memcpy(sys_glob, spec, n);
	sys_glob[n] = '\0';
	return (!n || !fnmatch(sys_glob, system, 0)) &&
	       !fnmatch(colon[1] ? colon + 1 : "*", name, 0);
}
