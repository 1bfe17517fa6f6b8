#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `tracekit record` loses nothing when the buffer is big enough, and reports exactly what the
# kernel lost when it is not.
#
# The workload, tests/tools/getppid-loop, makes exactly N = 1000000 getppid system calls.
# tracekit records raw_syscalls:sys_enter with the kernel filter "id == NR" (NR: getppid's
# number) and -F (only the command's pid), so the ring buffer sees exactly those N events.
#   1. With -b 131072 (128 MiB per CPU): `tracekit print` shows exactly N sys_enter events
#      with syscall number NR, all from one pid, whose task is getppid-loop; the summary
#      reports 0 events lost on every CPU; no "EVENTS DROPPED" line.
#   2. With -b 64 (64 KiB per CPU, far too small) and two copies of the workload at once (so
#      the readers compete with the load on both CPUs; up to three tries until events are
#      lost): the events missing (2N minus those printed) equal the sum of the counts in the "CPU:C [K EVENTS DROPPED]"
#      lines of `tracekit print`, and equal the total the summary reports as lost. The kernel
#      stores a page's loss count only when the page has room left after its data; pages
#      spliced whole rarely do, so most losses print as "CPU:C [EVENTS DROPPED]" without a
#      number (trace-cmd prints them alike). Then the print count is only a floor: the test
#      says so, checks that losses are marked where they happened (at least one line), and
#      holds the summary, which comes from the kernel's per-CPU counters, to the exact count.
#
# Usage: record-loss.sh TRACEKIT GETPPID_LOOP   (exits 77 when not root or without tracefs)
set -u
LC_ALL=C
export LC_ALL
n=1000000

skip() {
	echo "skip: $*" >&2
	exit 77
}

# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
need_tracefs "$tk"
[ -d "$tracefs/events/raw_syscalls" ] || skip "no raw_syscalls events under $tracefs"
loop=$(abspath "$2")
nr=$("$loop" --nr)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

# record KIB [PROCS]: record the workload with a buffer of KIB per CPU into $tmp/KIB.dat
# (PROCS processes of it at once, 1 by default, followed with -c); prints the events and
# summary into $tmp/KIB.txt and $tmp/KIB.err.
record() {
	if ! "$tk" record -b "$1" -e raw_syscalls:sys_enter -f "id == $nr" -F -c \
		-o "$tmp/$1.dat" -- "$loop" -P "${2:-1}" $n >"$tmp/$1.out" 2>"$tmp/$1.err"; then
		fail "-b $1: tracekit record fails: $(head -n 2 "$tmp/$1.err")"
		return 1
	fi
	if ! "$tk" print "$tmp/$1.dat" >"$tmp/$1.txt" 2>"$tmp/$1.perr"; then
		fail "-b $1: tracekit print fails: $(head -n 1 "$tmp/$1.perr")"
		return 1
	fi
}

# summary_lost KIB: the events lost, summed over the summary's CPU lines.
summary_lost() {
	awk '/^CPU [0-9]+: / { for (i = 1; i <= NF; i++) if ($i == "events" && $(i+1) == "lost")
		s += $(i - 1) } END { print s + 0 }' "$tmp/$1.err"
}

# 1. big enough
if record 131072; then
	found=$(grep -c ": *sys_enter: *NR $nr (" "$tmp/131072.txt")
	pids=$(grep ": *sys_enter: *NR $nr (" "$tmp/131072.txt" |
		sed 's/^ *\(.*\)-\([0-9][0-9]*\) *\[.*/\1 \2/' | sort -u)
	[ "$found" -eq $n ] || fail "-b 131072: $found sys_enter events with NR $nr, want $n"
	[ "$(echo "$pids" | wc -l)" -eq 1 ] || fail "-b 131072: events from several tasks: $pids"
	case $pids in
	"getppid-loop "*) ;;
	*) fail "-b 131072: the events are not getppid-loop's: $pids" ;;
	esac
	grep -q 'EVENTS DROPPED' "$tmp/131072.txt" && fail "-b 131072: EVENTS DROPPED lines"
	[ "$(summary_lost 131072)" -eq 0 ] ||
		fail "-b 131072: the summary reports $(summary_lost 131072) events lost"
	grep -q '^CPU [0-9]*: ' "$tmp/131072.err" || fail "-b 131072: no per-CPU summary"
	echo "-b 131072: $found of $n events, none lost"
fi

# 2. far too small: two copies at once, on both CPUs, so the readers compete with the load;
# a machine that still keeps up is given up to three tries
try=1
while :; do
	record 64 2 || break
	found=$(grep -c ": *sys_enter: *NR $nr (" "$tmp/64.txt")
	missing=$((2 * n - found))
	[ "$missing" -gt 0 ] || [ $try -ge 3 ] || {
		echo "note: try $try lost nothing; trying again"
		try=$((try + 1))
		continue
	}
	dropped=$(sed -n 's/^CPU:[0-9]* \[\([0-9]*\) EVENTS DROPPED\]$/\1/p' "$tmp/64.txt" |
		awk '{ s += $1 } END { print s + 0 }')
	unknown=$(grep -c '^CPU:[0-9]* \[EVENTS DROPPED\]$' "$tmp/64.txt")
	lost=$(summary_lost 64)
	echo "-b 64: $found of $((2 * n)) events, $missing missing; print: $dropped dropped" \
		"(+ $unknown uncounted losses); summary: $lost lost"
	[ "$missing" -gt 0 ] || fail "-b 64: nothing lost with a 64 KiB buffer in $try tries"
	[ "$missing" -eq 0 ] || [ "$(grep -c 'EVENTS DROPPED\]$' "$tmp/64.txt")" -gt 0 ] ||
		fail "-b 64: $missing events missing, and no EVENTS DROPPED line says so"
	[ "$lost" -eq "$missing" ] ||
		fail "-b 64: the summary reports $lost events lost, $missing are missing"
	if [ "$unknown" -eq 0 ]; then
		[ "$dropped" -eq "$missing" ] ||
			fail "-b 64: EVENTS DROPPED lines count $dropped, $missing are missing"
	else
		echo "note: $unknown pages lost events without a count; print's total is a floor"
		[ "$dropped" -le "$missing" ] ||
			fail "-b 64: EVENTS DROPPED lines count $dropped, more than $missing missing"
	fi
	[ "$missing" -eq 0 ] || grep -q 'events were lost' "$tmp/64.err" ||
		fail "-b 64: no warning about lost events"
	break
done

[ $failures -eq 0 ]
