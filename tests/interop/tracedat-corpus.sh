#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: `tracekit print` against trace-cmd 3.1.6 on the shared trace.dat corpus. For
# every file F under tracedat/, stdout must equal what `trace-cmd report` printed
# (expect-trace-cmd/F.report.txt), with -R its `report -R` output (F.raw.txt) and with -t
# its `report -t` output (F.ns.txt), and the exit status must be 0 where trace-cmd's was 0.
# The corpus mixes v6 and v7 (none, zstd), 32- and 64-bit writers and kernels, and
# trace-cmd 2.9 to 3.1 files, some converted with 3.1's per-CPU size bug.
#
# Usage: tracedat-corpus.sh TRACEKIT CORPUS_DIR      (exits 77 when the corpus is absent)
set -u
tk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$2/tracedat
if [ ! -d "$corpus/expect-trace-cmd" ]; then
	echo "skip: shared corpus not found at $corpus" >&2
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checked=0

# compare NAME WANT_TXT WANT_RC TRACEKIT-ARGS...
compare() {
	name=$1
	want=$2
	want_rc=$3
	shift 3
	checked=$((checked + 1))
	"$tk" print "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ok=1
	if ! cmp -s "$tmp/out" "$want"; then
		ok=0
		echo "FAIL $name: stdout differs from $(basename "$want")" \
			"($(diff "$want" "$tmp/out" | grep -c '^>') lines; < trace-cmd, > tracekit)"
		diff "$want" "$tmp/out" | head -n 7 | cut -c 1-240 | sed 's/^/    /'
	fi
	if [ "$want_rc" -eq 0 ] && [ "$rc" -ne 0 ]; then
		ok=0
		echo "FAIL $name: exit status $rc, trace-cmd succeeded"
		head -n 3 "$tmp/err" | sed 's/^/    /'
	elif [ "$want_rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
		ok=0
		echo "FAIL $name: exit status $rc, want 1 (trace-cmd failed with $want_rc)"
	fi
	[ $ok -eq 1 ] || failures=$((failures + 1))
}

for f in "$corpus"/*.dat; do
	b=$(basename "$f" .dat)
	e=$corpus/expect-trace-cmd/$b
	if [ ! -f "$e.report.txt" ]; then
		echo "FAIL $b: no expected output for this file"
		failures=$((failures + 1))
		continue
	fi
	rc=$(cat "$e.report.rc" 2>/dev/null || echo 0)
	compare "$b" "$e.report.txt" "$rc" "$f"
	[ -f "$e.raw.txt" ] && compare "$b -R" "$e.raw.txt" "$rc" -R "$f"
	[ -f "$e.ns.txt" ] && compare "$b -t" "$e.ns.txt" "$rc" -t "$f"
done

echo "checked $checked runs, $failures failed"
[ $failures -eq 0 ]
