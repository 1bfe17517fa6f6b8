#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: perf.data to trace.dat keeps perf's tracepoint records. The corpus perf.data
# and pipe.data (sched_switch and user_events EventHeader samples) converted by tracekit:
# trace-cmd report reads the file with exit 0 and one line per sample; the file's formats are
# perf's own (the user_events formats of eventheader_flags ... level, not made-up ones);
# and `tracekit print --style perf-decode-compact` of it decodes every event to the values
# of the reference decoder's JSON of the perf.data file, in order (perf-dat-json.py says the
# few things normalised, and why: order across CPUs, meta's clock and pid namespace).
#
# Usage: perf-dat.sh TRACEKIT [CORPUS_DIR]
#        (exits 77 when the corpus, trace-cmd or python3 is missing)
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(dirname "$0")
tk=$(abspath "$1")
eventheader_corpus "${2:-}"
need_commands trace-cmd python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

for f in perf.data pipe.data; do
	out=$tmp/$f.dat
	if ! "$tk" convert -q "$dir/$f" -o "$out" 2>"$tmp/err"; then
		echo "FAIL $f: convert: $(head -c 300 "$tmp/err")"
		failures=$((failures + 1))
		continue
	fi
	want=$("$tk" info "$dir/$f" | awk '/^Events:/ { print $2 }')
	trace-cmd report "$out" >"$tmp/tc.txt" 2>"$tmp/tc.err"
	rc=$?
	got=$(tail -n +2 "$tmp/tc.txt" | wc -l)
	if [ $rc -ne 0 ] || [ "$got" -ne "$want" ]; then
		echo "FAIL $f: trace-cmd report exit $rc, $got lines of $want samples: $(head -c 300 "$tmp/tc.err")"
		failures=$((failures + 1))
	else
		echo "$f: trace-cmd report prints its $want samples"
	fi
	# perf's user_events format, EventHeader header fields first, as trace-cmd prints them
	n=$(grep -a -c ': *eventheader_flags=7 version=[0-9]* id=[0-9]* tag=[0-9]* opcode=[0-9]* level=[0-9]*$' "$tmp/tc.txt")
	if [ "$n" -ne 254 ]; then
		echo "FAIL $f: $n EventHeader lines in trace-cmd report, expected 254"
		failures=$((failures + 1))
	fi
	if ! "$tk" print --style perf-decode-compact "$out" >"$tmp/got.json" 2>"$tmp/err"; then
		echo "FAIL $f: print: $(head -c 300 "$tmp/err")"
		failures=$((failures + 1))
		continue
	fi
	printf '%s: ' "$f"
	python3 "$here/perf-dat-json.py" "$tmp/got.json" "$dir/$f.linux.json" ||
		failures=$((failures + 1))
done
[ $failures -eq 0 ] || exit 1
echo "PASS"
