#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: `tracekit record` writes files that `trace-cmd report` (3.1.6, the oracle)
# prints exactly as `tracekit print` does, in every file variant, with the events of a known
# workload in them.
#
# For each variant -- v6 (--file-version 6), v7 none, v7 zstd (the default), v7 zlib, and v7
# zstd with --date (then the times printed are wall-clock seconds near the recording's) --
# tracekit records sched, irq, timer and raw_syscalls while a small shell workload runs; the
# workload starts /bin/true in the background and writes down its pid. Checked:
#   1. tracekit record exits 0 and prints its summary; the file's header says the version
#      and, for v7, the compression asked for.
#   2. `trace-cmd report F`, `-R F` and `-t F` exit 0 without warnings and print byte for byte
#      what `tracekit print F`, `-R` and `-t` print. Debian's trace-cmd cannot read zlib: the
#      zlib file is first rewritten uncompressed by tests/tools/dat-rewrite (which copies the
#      pages and metadata unchanged), and trace-cmd's output of that is the oracle.
#   3. The output has events of each recorded system, and the workload's /bin/true as
#      "sched_process_exec: filename=/bin/true pid=PID old_pid=PID".
#   4. Every tracefs setting is as before (tests/tracefs-state.sh); no instance is left.
#   5. Where the kernel has uprobe events: a uprobe and a uretprobe on tests/tools/
#      probe-target (see below).
#
# Usage: record.sh TRACEKIT DAT_REWRITE [PROBE_TARGET]
#   (exits 77 when not root, without tracefs or without trace-cmd)
set -u
LC_ALL=C
export LC_ALL

skip() {
	echo "skip: $*" >&2
	exit 77
}

command -v trace-cmd >/dev/null 2>&1 || skip "trace-cmd not found in PATH"
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
need_tracefs "$tk"
rewrite=$(abspath "$2")
target=
[ $# -ge 3 ] && target=$(abspath "$3")
[ -x "$tk" ] && [ -x "$rewrite" ] || {
	echo "FAIL: not executables: $tk $rewrite"
	exit 1
}

tmp=$(mktemp -d)
failures=0
fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}
note() {
	echo "note: $*"
}
# shellcheck source=../tracefs-state.sh
. "$(dirname "$0")/../tracefs-state.sh"
cleanup() {
	restore "the test ended"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

snapshot "$tmp/state.before"
grep -q '^tracing_on	' "$tmp/state.before" || skip "cannot read the tracefs settings"

cat >"$tmp/load.sh" <<'EOF'
i=0
while [ $i -lt 10 ]; do
	/bin/true
	i=$((i + 1))
done
/bin/true &
echo $! >"$1"
wait
sleep 0.2
EOF

# show_diff WANT GOT
show_diff() {
	diff "$1" "$2" | grep '^[<>]' | head -n 6 | cut -c 1-200 | sed 's/^/    /'
}

# compare FILE ORACLE-FILE: tracekit print FILE against trace-cmd report ORACLE-FILE.
compare() {
	for mode in "" -R -t; do
		# shellcheck disable=SC2086 # $mode is empty or one option
		if ! trace-cmd report $mode "$2" >"$tmp/tc.txt" 2>"$tmp/tc.err"; then
			fail "$1: trace-cmd report $mode exits $?: $(head -n 1 "$tmp/tc.err")"
			continue
		fi
		if [ -s "$tmp/tc.err" ]; then
			fail "$1: trace-cmd report $mode warns: $(head -n 1 "$tmp/tc.err")"
		fi
		# shellcheck disable=SC2086
		if ! "$tk" print $mode "$1" >"$tmp/tk.txt" 2>"$tmp/tk.err"; then
			fail "$1: tracekit print $mode fails: $(head -n 1 "$tmp/tk.err")"
			continue
		fi
		if ! cmp -s "$tmp/tc.txt" "$tmp/tk.txt"; then
			fail "$1: tracekit print $mode differs from trace-cmd report" \
				"($(diff "$tmp/tc.txt" "$tmp/tk.txt" | grep -c '^>') lines)"
			show_diff "$tmp/tc.txt" "$tmp/tk.txt"
		fi
	done
}

# header_is FILE VERSION COMPRESSION: the version string and (v7) the compression name.
header_is() {
	v=$(dd if="$1" bs=1 skip=10 count=1 2>/dev/null)
	[ "$v" = "$2" ] || {
		fail "$1: file version $v, want $2"
		return
	}
	[ "$2" = 7 ] || return
	c=$(dd if="$1" bs=1 skip=18 count=4 2>/dev/null)
	[ "$c" = "$3" ] || fail "$1: compression '$c', want '$3'"
}

runs=0
# v6 is asked for as trace-cmd users do, --file-version 6 alone: it means no compression
for variant in v6:6:none:-- v7-none:7:none: v7-zstd:7:zstd: v7-zlib:7:zlib: \
	v7-date:7:zstd:--date; do
	name=${variant%%:*}
	rest=${variant#*:}
	ver=${rest%%:*}
	rest=${rest#*:}
	comp=${rest%%:*}
	extra=${rest#*:}
	f=$tmp/$name.dat
	now=$(date +%s)
	copt="--compression=$comp"
	[ "$extra" = -- ] && copt= extra=
	# shellcheck disable=SC2086 # $copt and $extra are empty or one option
	if ! "$tk" record -e sched -e irq -e timer -e raw_syscalls --file-version "$ver" \
		$copt $extra -o "$f" -- sh "$tmp/load.sh" "$tmp/pid" \
		>"$tmp/rec.out" 2>"$tmp/rec.err"; then
		fail "$name: tracekit record fails: $(head -n 2 "$tmp/rec.err")"
		continue
	fi
	runs=$((runs + 1))
	grep -q "^Wrote $f: " "$tmp/rec.err" || fail "$name: no summary: $(head -n 1 "$tmp/rec.err")"
	header_is "$f" "$ver" "$comp"
	oracle=$f
	if [ "$comp" = zlib ] && ! trace-cmd list -c 2>/dev/null | grep -q zlib; then
		oracle=$tmp/$name.none.dat
		if ! "$rewrite" "$f" "$oracle" --file-version 7 --compression none 2>"$tmp/rw.err"; then
			fail "$name: dat-rewrite fails: $(head -n 1 "$tmp/rw.err")"
			continue
		fi
	fi
	compare "$f" "$oracle"
	"$tk" print "$f" >"$tmp/out.txt" 2>/dev/null
	# one event of each system (softirqs, unlike device interrupts, fire in any second)
	for sys in sched_switch: softirq_entry: hrtimer_start: sys_enter: sys_exit:; do
		grep -q " $sys" "$tmp/out.txt" || fail "$name: no $sys event"
	done
	pid=$(cat "$tmp/pid")
	if ! grep -q "sched_process_exec: *filename=/bin/true pid=$pid old_pid=$pid\$" \
		"$tmp/out.txt"; then
		fail "$name: the workload's /bin/true (pid $pid) is not in sched_process_exec"
	fi
	if [ -n "$extra" ]; then
		# --date: times are wall-clock seconds, within a few seconds of the recording
		t=$(sed -n '2s/.*\] *\([0-9][0-9]*\)\.[0-9]*: .*/\1/p' "$tmp/out.txt")
		if [ -z "$t" ] || [ $((t - now)) -lt -5 ] || [ $((t - now)) -gt 5 ]; then
			fail "$name: first event at '$t' s, the recording began at $now"
		fi
		grep -q 'print: *tracing_mark_write: tracekit-date-sync ' "$tmp/out.txt" ||
			fail "$name: no date marker"
	fi
	echo "$name: $(wc -l <"$tmp/out.txt") lines, $(wc -c <"$f") bytes"
	snapshot "$tmp/state.after"
	changes "$tmp/state.before" "$tmp/state.after" >"$tmp/state.diff"
	if [ -s "$tmp/state.diff" ]; then
		fail "$name: tracefs settings differ after tracekit record:"
		head -n 5 "$tmp/state.diff" | sed 's/^/    /'
		restore "$name"
	fi
	rm -f "$f" "$oracle"
done

# 5. probes: a uprobe and a uretprobe on probe-target's probe_point (at the file offset the
# program reads from its own mapping), with the argument as a signed integer: trace-cmd
# report prints the file as tracekit does, the N calls are there with arguments 1..N, and the
# probes are gone afterwards (the snapshot holds uprobe_events), also one of the same name
# made beforehand as a killed tracekit would leave it, and one of another name that the
# recording before, without probes, removes. Kernels without uprobe
# events (no uprobe_events file) leave this part out.
want_runs=5
if [ -n "$target" ] && [ -e "$tracefs/uprobe_events" ]; then
	want_runs=6
	off=$("$target" --offset)
	f=$tmp/uprobe.dat
	# probes a killed tracekit left (enabled in no buffer) go with the next recording, with
	# probes or without
	echo "p:tracekit/left $target:$off" >>"$tracefs/uprobe_events"
	"$tk" record -e sched:sched_switch -d 0.1 -o "$tmp/next.dat" >/dev/null 2>"$tmp/rec.err" ||
		fail "uprobe: tracekit record after a killed one fails: $(head -n 2 "$tmp/rec.err")"
	if grep -q 'tracekit/left ' "$tracefs/uprobe_events"; then
		fail "uprobe: the probe a killed tracekit left stays after the next tracekit record"
		echo "-:tracekit/left" >>"$tracefs/uprobe_events"
	fi
	# a probe of that name left by a killed tracekit (enabled in no buffer) is replaced
	echo "p:tracekit/pp $target:$off" >>"$tracefs/uprobe_events"
	if ! "$tk" record --uprobe "pp=$target:$off i=%di:s64" --uretprobe "ppr=$target:$off" \
		-o "$f" -- "$target" 7 >"$tmp/rec.out" 2>"$tmp/rec.err"; then
		fail "uprobe: tracekit record fails: $(head -n 2 "$tmp/rec.err")"
	else
		runs=$((runs + 1))
		compare "$f" "$f"
		"$tk" print "$f" >"$tmp/out.txt" 2>/dev/null
		got=$(sed -n 's/.* pp: .*) i=\([0-9-]*\)$/\1/p' "$tmp/out.txt" | tr '\n' ' ')
		[ "$got" = "1 2 3 4 5 6 7 " ] || fail "uprobe: arguments '$got', want 1 to 7"
		[ "$(grep -c ' ppr: ' "$tmp/out.txt")" -eq 7 ] || fail "uprobe: not 7 returns"
		echo "uprobe: $(wc -l <"$tmp/out.txt") lines"
		snapshot "$tmp/state.after"
		changes "$tmp/state.before" "$tmp/state.after" >"$tmp/state.diff"
		if [ -s "$tmp/state.diff" ]; then
			fail "uprobe: tracefs settings differ after tracekit record:"
			head -n 5 "$tmp/state.diff" | sed 's/^/    /'
			restore uprobe
		fi
	fi
else
	echo "note: no uprobe events in this kernel (or no probe-target): probes left out"
fi

echo "$runs recordings compared with trace-cmd report, $failures failures"
[ $failures -eq 0 ] && [ $runs -eq $want_runs ]
