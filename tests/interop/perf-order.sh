#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: the perf.data reader gives the samples perf script gives, in its order. Files
# recorded here with `perf record` of the sched, irq and timer tracepoints on every CPU during
# a busy workload: uncompressed and compressed (-z: COMPRESSED records, one zstd stream), in
# file mode and in pipe mode (-o -). For each, every sample's tid, CPU, time in ns and event
# name from `perf script --ns` must equal, line for line, those of `tracekit print --style
# json` (perf script sorts records by time round by round, as perf's ordered events do; so
# must tracekit). Then a file with cpu-clock samples: info counts them as perf script does.
# Exits 77 when perf is missing or cannot record tracepoints (not root, no tracefs).
#
# Usage: perf-order.sh TRACEKIT
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
command -v perf >/dev/null 2>&1 || { echo "skip: perf not found in PATH" >&2; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not found in PATH" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
events="-e sched:* -e irq:* -e timer:*"

load='ls -R /usr/lib >/dev/null; ls -R /usr/share >/dev/null'

# record NAME [-o] OPTIONS...: perf.data in $tmp/NAME.data (pipe mode with -o)
record() {
	name=$1
	out="$tmp/$name.data"
	shift
	if [ "${1:-}" = "-o" ]; then
		shift
		# shellcheck disable=SC2086
		perf record -q -a "$@" $events -o - -- sh -c "$load" >"$out" 2>"$tmp/$name.rec.err"
	else
		# shellcheck disable=SC2086
		perf record -q -a "$@" $events -o "$out" -- sh -c "$load" >/dev/null \
			2>"$tmp/$name.rec.err"
	fi
}

n=0
for mode in plain z pipe pipe-z; do
	case $mode in
	plain) record $mode ;;
	z) record $mode -z ;;
	pipe) record $mode -o ;;
	pipe-z) record $mode -o -z ;;
	esac
	if [ ! -s "$tmp/$mode.data" ]; then
		if [ $mode = plain ]; then
			echo "skip: perf record failed: $(head -c 300 "$tmp/$mode.rec.err")" >&2
			exit 77
		fi
		echo "FAIL $mode: perf record wrote nothing: $(head -c 300 "$tmp/$mode.rec.err")"
		failures=$((failures + 1))
		continue
	fi
	perf script --ns -F tid,cpu,time,event -i "$tmp/$mode.data" 2>/dev/null |
		awk '{ t = $3; sub(/:$/, "", t); e = $4; sub(/:$/, "", e); sub(/^[^:]*:/, "", e);
		       print $1, $2, t, e }' >"$tmp/$mode.want"
	if "$tk" print --style json "$tmp/$mode.data" >"$tmp/$mode.json" 2>"$tmp/$mode.err"; then
		python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    c = e["common_context"]
    print("%d [%03d] %d.%09d %s" % (c["tid"], e["cpu"], e["ts"] // 10**9, e["ts"] % 10**9,
                                   e["name"]))
' <"$tmp/$mode.json" >"$tmp/$mode.got"
	else
		echo "FAIL $mode: tracekit failed: $(head -c 300 "$tmp/$mode.err")"
		failures=$((failures + 1))
		continue
	fi
	lines=$(wc -l <"$tmp/$mode.want")
	if [ "$lines" -lt 100 ]; then
		echo "FAIL $mode: perf script printed only $lines samples"
		failures=$((failures + 1))
	elif ! cmp -s "$tmp/$mode.want" "$tmp/$mode.got"; then
		echo "FAIL $mode: samples differ from perf script's ($lines lines):"
		diff "$tmp/$mode.want" "$tmp/$mode.got" | head -n 6
		failures=$((failures + 1))
	else
		echo "$mode: $lines samples as perf script orders them"
		n=$((n + 1))
	fi
done
# samples of other events (a software clock) are counted by info, not dropped
perf record -q -a -e cpu-clock -e sched:sched_switch -o "$tmp/sw.data" -- sh -c "$load" \
	>/dev/null 2>&1
if [ -s "$tmp/sw.data" ]; then
	want=$(perf script -F event -i "$tmp/sw.data" 2>/dev/null | grep -c 'cpu-clock:')
	got=$("$tk" info "$tmp/sw.data" | awk '$2 == "cpu-clock" { print $1 }')
	if [ "$want" -gt 0 ] && [ "$want" = "$got" ]; then
		echo "cpu-clock: $got samples counted by info, as perf script has them"
	else
		echo "FAIL cpu-clock: info counts '$got' samples, perf script prints $want"
		failures=$((failures + 1))
	fi
else
	echo "note: perf could not record cpu-clock here; its count is not checked"
fi
[ $failures -eq 0 ] || exit 1
echo "PASS ($n files)"
