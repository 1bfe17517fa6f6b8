#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: live kernel traces recorded here with `trace-cmd record`, printed by
# `tracekit print` and by `trace-cmd report` (the oracle: trace-cmd 3.1.6).
#
# The corpus and gen-dat tests read files made once or made by our own generator; this one
# records the running kernel, so every event format this kernel has for the recorded systems
# (sched, irq, timer, workqueue, kmem, block, syscalls, signal, task, writeback, rcu, power,
# and more: those of `systems` below that this kernel has) meets tracekit as trace-cmd wrote it. A small shell workload
# makes those events fire: a file written with fsync and synced (block, writeback, ext4,
# jbd2), sleeps (timer, hrtimer), a child sent USR1 (ignored), checked with kill -0 and killed
# with TERM (signal), forks and execs (task, sched), and the system calls of all of it.
# Each recording lasts about a second. Files recorded:
#
#   v6       --file-version 6
#   v7-zstd  the default: version 7, compressed with what trace-cmd prefers (zstd)
#   v7-none  --compression none
#   v7-zlib  --compression zlib, only if `trace-cmd list -c` offers zlib (Debian's 3.1.6
#            offers only zstd: then this variant is left out with a note)
#   v7-all   the default format with every event of the kernel enabled (-e all)
#   lossy    -b 16 (a 16 KiB ring buffer per CPU) under a busy fork and syscall loop, so
#            that the kernel overwrites pages before the recorder reads them; trace-cmd
#            report then prints "CPU:N [K EVENTS DROPPED]" lines
#
# The v7-all file is also converted to CTF on threads and by the serial path (--generic):
# the same bytes, UUIDs aside (its many classes take the threads' provisional class IDs).
#
# For each file: the header says the version and compression asked for; `tracekit print F`,
# `tracekit print -R F` and `tracekit print -t F` print byte for byte what `trace-cmd report
# F`, `report -R F` and `report -t F` print, and both exit 0. The first differing lines are
# shown on failure. For the lossy file the EVENTS DROPPED lines are counted and compared too
# (a note says so when this machine lost nothing). Each file's size, event count and the
# systems asked for that fired no event are printed for the log.
#
# Recording where the kernel refuses what trace-cmd writes unconditionally (ftrace_enabled,
# set_ftrace_filter: "Can't enable ftrace") goes through trace-cmd-ns (../shared/tools), which
# runs trace-cmd in a private mount namespace over copies of those files.
#
# The machine is left as found. Before the first recording, the tracefs settings a recorder
# can change are read: tracing_on, buffer sizes (total and per CPU), current_tracer,
# trace_clock, saved_cmdlines_size, tracing_cpumask, tracing_thresh, buffer_percent,
# set_event and the pid filters, dynamic events, every options/* file, every event's enable,
# filter and trigger, the instances, and kernel.kptr_restrict (trace-cmd lowers it to read
# kallsyms) and kernel.ftrace_enabled. After each recording (and on any exit, a timeout's
# SIGTERM included: trace-cmd is then stopped first) they are read again. trace-cmd 3.1.6
# does not restore everything: it leaves buffer_size_kb at the -b value, it disables events
# that were enabled before it started and clears their filters, and when the kernel refuses
# it, it leaves tracing_on at 0. Such a change is written back and reported as a note (it is
# trace-cmd's doing, not tracekit's); a setting that cannot be written back fails the test.
# What cannot be restored is the ring buffer's content: trace-cmd clears it. Meson runs this
# test alone (is_parallel: false): the ring buffer is one per machine.
#
# Usage: tracedat-live.sh TRACEKIT [TRACE_CMD_NS]
#   (exits 77 when not root, when the kernel has no tracefs (tracekit mounts it), when
#   trace-cmd is missing, or when trace-cmd cannot record here even through trace-cmd-ns)
set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ

skip() {
	echo "skip: $*" >&2
	exit 77
}

if [ $# -lt 1 ]; then
	echo "usage: tracedat-live.sh TRACEKIT [TRACE_CMD_NS]" >&2
	exit 2
fi
tk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if [ ! -x "$tk" ]; then
	echo "FAIL: not an executable: $tk"
	exit 1
fi
ns=${2:-}
if [ -z "$ns" ] && [ -n "${TRACEKIT_SRC:-}" ]; then
	ns=$TRACEKIT_SRC/../shared/tools/trace-cmd-ns
fi
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_tracefs "$tk"
command -v trace-cmd >/dev/null 2>&1 || skip "trace-cmd not found in PATH"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tk-tracedat-live.XXXXXX") || exit 1
failures=0
notes=0
checked=0

fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

note() {
	notes=$((notes + 1))
	echo "note: $*"
}

# shellcheck source=../tracefs-state.sh
. "$(dirname "$0")/../tracefs-state.sh"

# On every exit: restore, clean up, and fail (whatever the status was) if a setting could not
# be written back.
cleanup() {
	status=$?
	restore "the test ended"
	rm -rf "$tmp"
	[ -n "${work:-}" ] && rm -rf "$work"
	if [ $failures -ne 0 ] && { [ $status -eq 0 ] || [ $status -eq 77 ]; }; then
		status=1
	fi
	exit $status
}
# on_signal STATUS: stop our trace-cmd, give it 0.2 s to reset what it set, and exit (which
# restores the settings).
on_signal() {
	if [ -n "$rec_pid" ]; then
		kill -TERM "$rec_pid" 2>/dev/null
		i=0
		while kill -0 "$rec_pid" 2>/dev/null && [ $i -lt 4 ]; do
			sleep 0.05
			i=$((i + 1))
		done
	fi
	exit "$1"
}
rec_pid=
trap cleanup EXIT
trap 'on_signal 143' TERM
trap 'on_signal 130' INT
trap 'on_signal 129' HUP

snapshot "$tmp/state.before"
if ! grep -q '^tracing_on	' "$tmp/state.before" ||
	! grep -q '^events/sched/sched_switch/enable	' "$tmp/state.before"; then
	rm -f "$tmp/state.before"
	skip "cannot read the tracefs settings under $tracefs"
fi

# The workload. Its own output goes to /dev/null: "Terminated" and the like are expected.
work=$(mktemp -d /var/tmp/tk-tracedat-live.XXXXXX 2>/dev/null || mktemp -d "$tmp/work.XXXXXX")
cat >"$tmp/load.sh" <<'EOF'
d=$1
dd if=/dev/urandom of="$d/data" bs=64k count=32 conv=fsync 2>/dev/null
sync
cat "$d/data" >/dev/null
sh -c 'trap "" USR1; sleep 0.3' &
c=$!
sleep 0.05
kill -USR1 $c
kill -0 $c
kill -TERM $c
wait $c
sleep 0.1 &
wait
i=0
while [ $i -lt 20 ]; do
	/bin/true
	ls "$d" >/dev/null
	i=$((i + 1))
done
sleep 0.2
rm -f "$d/data"
sync
EOF
cat >"$tmp/heavy.sh" <<'EOF'
i=0
while [ $i -lt 300 ]; do
	ls /proc/self >/dev/null
	i=$((i + 1))
done &
i=0
while [ $i -lt 300 ]; do
	cat /proc/self/stat >/dev/null
	i=$((i + 1))
done
wait
EOF

# tc_record NAME TRACE-CMD-RECORD-ARGS...: run trace-cmd record (the arguments name the output
# file and end with the command to trace), then restore the settings; status 1 when trace-cmd
# fails or writes no file (its output is in $tmp/NAME.log).
# trace-cmd runs in the background so that a signal interrupts `wait` and runs its trap at
# once (meson sends SIGTERM to the whole process group and SIGKILL half a second later).
tc_record() {
	name=$1
	shift
	"$tc" record "$@" >"$tmp/$name.log" 2>&1 &
	rec_pid=$!
	wait $rec_pid
	rc=$?
	rec_pid=
	restore "recording $name"
	[ $rc -eq 0 ] && [ -s "$tmp/$name.dat" ]
}

# Plain trace-cmd first; through trace-cmd-ns if the kernel refuses it.
tc=trace-cmd
if ! tc_record probe -e sched:sched_switch -o "$tmp/probe.dat" true; then
	why=$(grep -v '^ *$' "$tmp/probe.log" | tail -n 1)
	if [ -z "$ns" ] || [ ! -x "$ns" ]; then
		skip "trace-cmd record fails here ($why) and trace-cmd-ns was not found (${ns:-unset})"
	fi
	tc=$ns
	if ! tc_record probe -e sched:sched_switch -o "$tmp/probe.dat" true; then
		skip "trace-cmd record fails here, even through $ns:" \
			"$(grep -v '^ *$' "$tmp/probe.log" | tail -n 1)"
	fi
	echo "recording through $ns (plain trace-cmd: $why)"
fi
[ $failures -eq 0 ] || exit 1

systems=
for s in sched irq irq_vectors timer workqueue kmem block syscalls signal task writeback rcu \
	power filemap ipi exceptions ext4 jbd2 mmap pagemap percpu tlb x86_fpu rseq capability; do
	[ -d "$tracefs/events/$s" ] && systems="$systems -e $s"
done
echo "systems:$systems" | sed 's/ -e / /g'

# check_header NAME VERSION COMPRESSION: the file's version and, for v7, compression name.
check_header() {
	f=$tmp/$1.dat
	v=$(dd if="$f" bs=1 skip=10 count=1 2>/dev/null)
	if [ "$v" != "$2" ]; then
		fail "$1: file version '$v', want '$2'"
	fi
	[ "$2" = 7 ] || return 0
	# v7 header: magic (3), "tracing" (7), "7\0", endianness (1), long size (1), page size
	# (4), then the compression name and its version, NUL-terminated
	c=$(dd if="$f" bs=1 skip=18 count=16 2>/dev/null | tr '\0' '\n' | head -n 1)
	if [ "$c" != "$3" ]; then
		fail "$1: compression '$c', want '$3'"
	fi
}

# compare NAME [OPTION]: tracekit print [OPTION] and trace-cmd report [OPTION] on NAME.dat.
compare() {
	f=$tmp/$1.dat
	shift
	opts=${*:+ $*}
	checked=$((checked + 1))
	trace-cmd report "$@" "$f" >"$tmp/tc.out" 2>"$tmp/tc.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$(basename "$f"): trace-cmd report$opts exit status $rc"
		head -n 3 "$tmp/tc.err" | sed 's/^/    /'
		return
	fi
	"$tk" print "$@" "$f" >"$tmp/tk.out" 2>"$tmp/tk.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$(basename "$f"): tracekit print$opts exit status $rc"
		head -n 3 "$tmp/tk.err" | sed 's/^/    /'
	fi
	if ! cmp -s "$tmp/tc.out" "$tmp/tk.out"; then
		fail "$(basename "$f"): tracekit print$opts differs from trace-cmd report$opts" \
			"($(diff -a "$tmp/tc.out" "$tmp/tk.out" | grep -a -c '^[<>]') lines differ;" \
			"< trace-cmd, > tracekit)"
		diff -a "$tmp/tc.out" "$tmp/tk.out" | grep -a '^[<>]' | head -n 6 | cut -c 1-240 |
			sed 's/^/    /'
	fi
}

# variant NAME VERSION COMPRESSION RECORD-OPTIONS...: record NAME.dat under the workload and
# compare the three printing modes.
variant() {
	name=$1
	version=$2
	compression=$3
	shift 3
	# shellcheck disable=SC2086 # $systems is a list of words
	if ! tc_record "$name" "$@" -o "$tmp/$name.dat" sh "$tmp/load.sh" "$work"; then
		fail "$name: trace-cmd record $* failed"
		grep -v '^ *$' "$tmp/$name.log" | tail -n 3 | sed 's/^/    /'
		return 1
	fi
	check_header "$name" "$version" "$compression"
	trace-cmd report "$tmp/$name.dat" >"$tmp/$name.txt" 2>/dev/null
	n=$(($(wc -l <"$tmp/$name.txt") - 1))
	sed -n 's/^.* [0-9]*\.[0-9]*: \([^ :]*\): .*/\1/p' "$tmp/$name.txt" | sort -u \
		>"$tmp/names"
	echo "$name: $(wc -c <"$tmp/$name.dat") bytes, $n events of $(wc -l <"$tmp/names") kinds"
	if [ "$n" -lt 100 ]; then
		fail "$name: only $n events recorded: the workload or the recording did not work"
	fi
	# the systems asked for whose events did not fire (power on some VMs, block on tmpfs)
	quiet=
	for s in $systems; do
		[ "$s" = -e ] && continue
		for e in "$tracefs/events/$s"/*/; do
			e=${e%/}
			grep -F -x -q "${e##*/}" "$tmp/names" && continue 2
		done
		quiet="$quiet $s"
	done
	[ "$name" = v7-all ] || [ -z "$quiet" ] || echo "$name: no event fired of:$quiet"
	compare "$name"
	compare "$name" -R
	compare "$name" -t
	rm -f "$tmp/$name.txt"
	return 0
}

# shellcheck disable=SC2086 # $systems is a list of words
variant v6 6 "" --file-version 6 $systems
# shellcheck disable=SC2086
variant v7-zstd 7 zstd $systems
# shellcheck disable=SC2086
variant v7-none 7 none --compression none $systems
if trace-cmd list -c 2>/dev/null | grep -q zlib; then
	# shellcheck disable=SC2086
	variant v7-zlib 7 zlib --compression zlib $systems
else
	note "v7-zlib not recorded: this trace-cmd offers no zlib ($(trace-cmd list -c 2>&1 |
		tail -n +2 | tr -d '\t' | tr '\n' ' '))"
fi
variant v7-all 7 zstd -e all

# The -e all file converted to CTF: its hundreds of event classes met on every CPU make the
# conversion on threads (src/pipeline/dat-to-ctf.c) take provisional class IDs and patch
# them (src/ctf/ctf.h), which no generated file reaches. It must write the bytes of the
# serial path (--generic), UUIDs aside (ctf-same.py).
if [ -s "$tmp/v7-all.dat" ] && command -v python3 >/dev/null 2>&1; then
	same=$(cd "$(dirname "$0")" && pwd)/ctf-same.py
	if ! "$tk" convert -q "$tmp/v7-all.dat" -o "$tmp/all-threads" 2>"$tmp/err" ||
		! "$tk" convert -q --generic "$tmp/v7-all.dat" -o "$tmp/all-serial" 2>>"$tmp/err"; then
		fail "v7-all: conversion to CTF failed: $(head -n 2 "$tmp/err")"
	elif ! python3 "$same" "$tmp/all-threads" "$tmp/all-serial" >"$tmp/same"; then
		fail "v7-all: CTF on threads differs from the serial path's:"
		head -n 4 "$tmp/same" | sed 's/^/    /'
	else
		ids=$(grep -c '^event {' "$tmp/all-serial/metadata")
		echo "v7-all: CTF on threads (nproc $(nproc)) = serial path, $ids event classes"
		[ "$ids" -gt 31 ] || note "v7-all: only $ids event classes: no provisional IDs"
	fi
	rm -rf "$tmp/all-threads" "$tmp/all-serial"
fi

# Lost events: a tiny buffer under a busy loop.
# shellcheck disable=SC2086
if tc_record lossy -b 16 -e sched -e syscalls -e kmem -o "$tmp/lossy.dat" sh "$tmp/heavy.sh"; then
	compare lossy
	compare lossy -R
	compare lossy -t
	trace-cmd report "$tmp/lossy.dat" 2>/dev/null | grep -a 'EVENTS DROPPED\]$' >"$tmp/drop.tc"
	"$tk" print "$tmp/lossy.dat" 2>/dev/null | grep -a 'EVENTS DROPPED\]$' >"$tmp/drop.tk"
	echo "lossy: $(wc -c <"$tmp/lossy.dat") bytes, $(wc -l <"$tmp/drop.tc") EVENTS DROPPED lines"
	if [ ! -s "$tmp/drop.tc" ]; then
		note "lossy: no event was lost on this machine; EVENTS DROPPED lines not exercised"
	elif ! cmp -s "$tmp/drop.tc" "$tmp/drop.tk"; then
		fail "lossy: EVENTS DROPPED lines differ ($(wc -l <"$tmp/drop.tc") from trace-cmd," \
			"$(wc -l <"$tmp/drop.tk") from tracekit)"
		diff -a "$tmp/drop.tc" "$tmp/drop.tk" | grep -a '^[<>]' | head -n 6 | sed 's/^/    /'
	fi
else
	fail "lossy: trace-cmd record -b 16 failed"
	grep -v '^ *$' "$tmp/lossy.log" | tail -n 3 | sed 's/^/    /'
fi
rm -rf "$work"

echo "checked $checked comparisons, $failures failed, $notes notes"
[ $failures -eq 0 ]
