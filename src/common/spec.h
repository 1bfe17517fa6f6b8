/* SPDX-License-Identifier: MIT */
/*
 * Event specs as -e takes them (tracekit record, print and convert). They live here, below
 * every folder, because the tracefs recorder (ftrace), the trace.dat copy (tracedat) and the
 * filter stage (model) all select events with them, and each must read them the same way.
 */
#ifndef TK_COMMON_SPEC_H
#define TK_COMMON_SPEC_H

/*
 * A spec is "all"; "SYS:EV", each part a glob and an empty part matching anything; or one
 * word, which names systems ("sched", "irq*") when it matches the system of any event of the
 * set it selects from, and event names ("sched_switch") otherwise, as trace-cmd's -e does.
 * The caller decides the word's reading once per set with spec_names_system() over the
 * set's systems:
 *
 *	by_system = 0;
 *	for (each event e of the set)
 *		by_system |= spec_names_system(spec, e.system);
 *	for (each event e of the set)
 *		if (spec_match(spec, by_system, e.system, e.name)) ...
 */
int spec_names_system(const char *spec, const char *system);
int spec_match(const char *spec, int by_system, const char *system, const char *name);

#endif /* TK_COMMON_SPEC_H */
