#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Shortcuts against the generic path (issue 11, "fast paths are capabilities"), for every
# trace.dat file of the corpus and gen-dat files (losses, instances, function graph records,
# the records conversions lost: --extra-events; v6, v7 zstd, big-endian with 32-bit longs):
#
# 1. To CTF: a lone trace.dat file goes by per-class copy plans (src/pipeline/dat-to-ctf.c)
#    unless `convert --generic` sends every decoded event through the CTF sink
#    (src/ctf/ctf-sink.c). Both conversions must succeed and give the same bytes: metadata,
#    data streams and index files, the random trace UUID aside (ctf-same.py), with and
#    without a filter (event selection, CPUs, time window). babeltrace2 (the oracle) must
#    read them with exit 0, and each must go back to a trace.dat file that trace-cmd report
#    prints alike: the generic path keeps the ftrace metadata in the environment too.
# 2. To trace.dat: pages are copied as they are unless --generic rebuilds every record from
#    its decoded values into new pages (src/tracedat/tracedat-sink.c). The two files must
#    print the same JSON lines (every event, loss, time, CPU and value; the stream's path
#    aside) and the same trace-cmd report text, but for the lines of bprint events whose
#    format declares "u32 buf; size:0" (older kernels): that field reads as 0, so the
#    binary arguments after the record's fixed part are not rebuilt (doc/format-tracedat.md
#    section 9).
#
# The page copy and the rebuilt trace.dat file are not compared byte for byte: where records
# fall in pages, and the time-extend records between them, are the kernel's doing, which
# the decoded events do not tell.
# Usage: convert-generic.sh TRACEKIT GEN-DAT CORPUS-DIR
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$1
gen_dat=$2
corpus=$3
command -v babeltrace2 >/dev/null || { echo "SKIP: no babeltrace2"; exit 77; }
command -v trace-cmd >/dev/null || { echo "SKIP: no trace-cmd"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
same=$(dirname "$0")/ctf-same.py
[ -d "$corpus/tracedat" ] || { echo "SKIP: no corpus"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

"$gen_dat" -n 3000 --missed --instance=foo "$tmp/gen-missed.dat" >/dev/null || exit 1
"$gen_dat" -n 2000 --extra-events --compression zstd "$tmp/gen-extra.dat" >/dev/null || exit 1
"$gen_dat" -n 2000 --funcgraph --file-version 6 "$tmp/gen-funcgraph.dat" >/dev/null || exit 1
"$gen_dat" -n 2000 -S 5 --byte-order be --long-size 4 "$tmp/gen-be32.dat" >/dev/null || exit 1

for f in "$corpus"/tracedat/*.dat "$tmp"/gen-*.dat; do
	b=$(basename "$f" .dat)
	rm -rf "$tmp/short" "$tmp/generic"
	if ! "$tk" convert -q "$f" --to ctf -o "$tmp/short" 2>"$tmp/err"; then
		echo "FAIL: $b: the shortcut: $(cat "$tmp/err")"
		fail=1
		continue
	fi
	if ! "$tk" convert -q --generic "$f" --to ctf -o "$tmp/generic" 2>"$tmp/err"; then
		echo "FAIL: $b: the generic path: $(cat "$tmp/err")"
		fail=1
		continue
	fi
	if ! python3 "$same" "$tmp/short" "$tmp/generic" >"$tmp/same"; then
		echo "FAIL: $b: the shortcut and the generic path write different bytes:"
		head -n 6 "$tmp/same"
		fail=1
	fi
	babeltrace2 "$tmp/short" >"$tmp/short.txt" 2>"$tmp/short.err"
	rs=$?
	babeltrace2 "$tmp/generic" >"$tmp/generic.txt" 2>"$tmp/generic.err"
	rg=$?
	lines=$(wc -l <"$tmp/generic.txt")
	if [ $rs -ne 0 ] || [ $rg -ne 0 ] || [ "$lines" -eq 0 ]; then
		echo "FAIL: $b: babeltrace2 exits $rs (shortcut) and $rg (generic), $lines lines"
		fail=1
	elif ! cmp -s "$tmp/short.txt" "$tmp/generic.txt"; then
		echo "FAIL: $b: babeltrace2 prints the two CTF traces differently:"
		diff "$tmp/short.txt" "$tmp/generic.txt" | head -n 6
		fail=1
	elif [ "$(grep -c WARNING "$tmp/short.err")" -ne "$(grep -c WARNING "$tmp/generic.err")" ]; then
		echo "FAIL: $b: babeltrace2 warns differently:"
		diff "$tmp/short.err" "$tmp/generic.err" | head -n 6
		fail=1
	fi
	# and back to trace.dat
	rm -f "$tmp/short.dat" "$tmp/generic.dat"
	if ! "$tk" convert -q "$tmp/short" -o "$tmp/short.dat" 2>"$tmp/err" ||
		! "$tk" convert -q "$tmp/generic" -o "$tmp/generic.dat" 2>>"$tmp/err"; then
		echo "FAIL: $b: back to trace.dat: $(cat "$tmp/err")"
		fail=1
		continue
	fi
	tc_report "$tmp/short.rep" "$tmp/short.dat"
	tc_report "$tmp/generic.rep" "$tmp/generic.dat"
	if ! cmp -s "$tmp/short.rep" "$tmp/generic.rep" || [ ! -s "$tmp/generic.rep" ]; then
		echo "FAIL: $b: trace-cmd report prints the two trace.dat files made back differently:"
		diff "$tmp/short.rep" "$tmp/generic.rep" | head -n 6
		fail=1
	fi
	# 2. trace.dat to trace.dat
	rm -f "$tmp/copy.dat" "$tmp/rebuilt.dat"
	if ! "$tk" convert -q "$f" -o "$tmp/copy.dat" 2>"$tmp/err" ||
		! "$tk" convert -q --generic "$f" -o "$tmp/rebuilt.dat" 2>>"$tmp/err"; then
		echo "FAIL: $b: to trace.dat: $(cat "$tmp/err")"
		fail=1
		continue
	fi
	"$tk" print --style json "$tmp/copy.dat" | sed 's/,"stream":"[^"]*"//' >"$tmp/copy.json"
	"$tk" print --style json "$tmp/rebuilt.dat" | sed 's/,"stream":"[^"]*"//' >"$tmp/rebuilt.json"
	if ! cmp -s "$tmp/copy.json" "$tmp/rebuilt.json" || [ ! -s "$tmp/rebuilt.json" ]; then
		echo "FAIL: $b: the page copy and the rebuilt file print different JSON lines:"
		diff "$tmp/copy.json" "$tmp/rebuilt.json" | head -n 6
		fail=1
	fi
	tc_report "$tmp/copy.rep" "$tmp/copy.dat"
	tc_report "$tmp/rebuilt.rep" "$tmp/rebuilt.dat"
	if cmp -s "$tmp/copy.rep" "$tmp/rebuilt.rep" && [ -s "$tmp/rebuilt.rep" ]; then
		:
	elif grep -aq 'field:u32 buf;.*size:0;' "$f" &&
		[ "$(wc -l <"$tmp/copy.rep")" -eq "$(wc -l <"$tmp/rebuilt.rep")" ] &&
		! diff "$tmp/copy.rep" "$tmp/rebuilt.rep" | grep '^[<>]' | grep -v ' bprint: ' | grep -q .; then
		: # the bprint lines of older formats, as above
	else
		echo "FAIL: $b: trace-cmd report prints the page copy and the rebuilt file differently:"
		diff "$tmp/copy.rep" "$tmp/rebuilt.rep" | head -n 6
		fail=1
	fi
	n=$((n + 1))
done
# filters go the same way through both
f=$tmp/gen-missed.dat
for filter in "-e sched_switch" "--cpu 1" "--begin 49800.5s --end 50000s" "-F"; do
	rm -rf "$tmp/short" "$tmp/generic"
	# shellcheck disable=SC2086 # the filter's words
	if [ "$filter" = -F ]; then set -- -F 'sched_switch: prev_pid > 100'; else set -- $filter; fi
	if ! "$tk" convert -q "$@" "$f" --to ctf -o "$tmp/short" 2>"$tmp/err" ||
		! "$tk" convert -q --generic "$@" "$f" --to ctf -o "$tmp/generic" 2>>"$tmp/err"; then
		echo "FAIL: $filter: $(cat "$tmp/err")"
		fail=1
	elif ! python3 "$same" "$tmp/short" "$tmp/generic" >"$tmp/same"; then
		echo "FAIL: $filter: the shortcut and the generic path write different bytes:"
		head -n 6 "$tmp/same"
		fail=1
	elif ! babeltrace2 "$tmp/short" >"$tmp/short.txt" 2>/dev/null || [ ! -s "$tmp/short.txt" ]; then
		echo "FAIL: $filter: babeltrace2 cannot read the filtered trace, or it is empty"
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "ok: $n trace.dat files print alike through the shortcuts and the generic paths"
exit $fail
