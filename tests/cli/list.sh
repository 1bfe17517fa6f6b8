#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `tracekit list`: the events of the running kernel, checked against the tracefs directory
# tree read here with ls, not through tracekit's code.
#   1. Without SPEC: one SYSTEM:EVENT per line for every events/SYSTEM/EVENT directory, sorted.
#   2. SPEC forms: "sched" (the system), "sched:sched_switch", "sched_switch" (an event name in
#      any system), "sched:*wak*" and "*:sys_enter" (globs) select exactly the matching ones.
#   3. -F prints each name followed by its format file, byte for byte, and an empty line.
#   4. A SPEC that matches nothing: exit 1 and one line; a usage error: exit 2.
#
# Usage: list.sh TRACEKIT   (exits 77 when not root or the kernel has no tracefs)
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
need_tracefs "$tk"
ev=$tracefs/events
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

# want GLOB-SYSTEM GLOB-EVENT: the SYSTEM:EVENT directories matching, sorted.
want() {
	for d in "$ev"/$1/$2; do
		[ -d "$d" ] || continue
		e=${d##*/}
		s=${d%/*}
		echo "${s##*/}:$e"
	done | sort -t : -k 1,1 -k 2,2
}

# check ARGS -- GLOB-SYSTEM GLOB-EVENT
check() {
	spec=$1
	want "$2" "$3" >"$tmp/want"
	if ! "$tk" list $spec >"$tmp/got" 2>"$tmp/err"; then
		fail "list $spec: exit status $?: $(head -n 1 "$tmp/err")"
	elif ! cmp -s "$tmp/want" "$tmp/got"; then
		fail "list $spec: $(wc -l <"$tmp/got") lines, want $(wc -l <"$tmp/want")"
		diff "$tmp/want" "$tmp/got" | head -n 4 | sed 's/^/    /'
	fi
}

check "" "*" "*"
[ "$(wc -l <"$tmp/got")" -gt 100 ] || fail "list: fewer than 100 events"
check sched sched "*"
check sched:sched_switch sched sched_switch
check sched_switch "*" sched_switch
check "sched:*wak*" sched "*wak*"
check "*:sys_enter" "*" sys_enter

# -F: name, format, empty line
"$tk" list -F sched:sched_switch >"$tmp/got" 2>"$tmp/err" || fail "list -F: $(cat "$tmp/err")"
{
	echo sched:sched_switch
	cat "$ev/sched/sched_switch/format"
	echo
} >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" || fail "list -F sched:sched_switch is not the name, format, blank"

"$tk" list nosuchsystem_x >"$tmp/got" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/got" ] ||
	fail "list nosuchsystem_x: exit $rc, want 1 and one line on stderr"
"$tk" list --nosuchoption >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || fail "list --nosuchoption: exit $rc, want 2"

[ $failures -eq 0 ] && echo "tracekit list: all as expected"
[ $failures -eq 0 ]
