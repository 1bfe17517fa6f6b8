#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: user_events EventHeader records in trace.dat files. eh-dat writes the corpus
# interceptor file's 374 events (every encoding and format) as trace-cmd would record them
# from user_events tracepoints; then
#   1. trace-cmd report reads the file: one line per event;
#   2. `tracekit print --style perf-decode` decodes every event to the reference decoder's
#      JSON for that interceptor file (the members of a recorded sample's "meta" -- time,
#      cpu, pid, tid -- which the interceptor file has not, dropped), and so does a copy made
#      by `tracekit convert` (version 6, and version 7 with zstd);
#   3. trace-cmd's layout (`tracekit print`) shows each event's decoded fields after its
#      header (two lines checked against values written by hand from the reference JSON).
#
# Usage: eventheader-dat.sh TRACEKIT EH_DAT [CORPUS_DIR]
#        (exits 77 when the corpus, python3 or trace-cmd is missing)
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(dirname "$0")
tk=$(abspath "$1")
ehdat=$(abspath "$2")
corpus=${3:-${TRACEKIT_CORPUS:-}}
dat=$corpus/eventheader/EventHeaderInterceptorLE64.dat
if [ -z "$corpus" ] || [ ! -f "$dat.linux.json" ]; then
	echo "skip: corpus file eventheader/EventHeaderInterceptorLE64.dat not found" >&2
	exit 77
fi
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not found in PATH" >&2; exit 77; }
command -v trace-cmd >/dev/null 2>&1 || { echo "skip: trace-cmd not found in PATH" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

"$ehdat" "$dat" "$tmp/eh.dat" || { echo "FAIL eh-dat could not write the file"; exit 1; }
n=$(trace-cmd report "$tmp/eh.dat" 2>/dev/null | tail -n +2 | wc -l)
if [ "$n" -ne 374 ]; then
	echo "FAIL trace-cmd report prints $n events, not 374"
	failures=$((failures + 1))
fi

"$tk" convert -q --file-version 6 --compression none "$tmp/eh.dat" -o "$tmp/v6.dat" &&
	"$tk" convert -q --file-version 7 --compression zstd "$tmp/eh.dat" -o "$tmp/v7.dat" ||
	{ echo "FAIL tracekit convert"; failures=$((failures + 1)); }
for f in eh v6 v7; do
	[ -f "$tmp/$f.dat" ] || continue
	if ! "$tk" print --style perf-decode "$tmp/$f.dat" >"$tmp/$f.json" 2>"$tmp/$f.err"; then
		echo "FAIL $f.dat: tracekit exited $?: $(head -c 300 "$tmp/$f.err")"
		failures=$((failures + 1))
	fi
	echo "$f.dat:"
	python3 "$here/eventheader-json.py" --no-sample-meta "$tmp/$f.json" "$dat.linux.json" ||
		failures=$((failures + 1))
done

"$tk" print "$tmp/eh.dat" >"$tmp/eh.txt"
for want in ' TestProviderC_L4K85: *eventheader_flags=7 version=11 id=1000 tag=4660 opcode=3 level=4 Struct20={hi=hi ch10=\[H,o,w\]}$' \
	' TestProviderC_L5K0: *eventheader_flags=7 version=0 id=0 tag=0 opcode=0 level=5 i8=100 (-128)=-128$'; do
	if ! grep -a -q "$want" "$tmp/eh.txt"; then
		echo "FAIL trace-cmd layout: no line matches: $want"
		failures=$((failures + 1))
	fi
done
[ $failures -eq 0 ] || exit 1
echo "PASS"
