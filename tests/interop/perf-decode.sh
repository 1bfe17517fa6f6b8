#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: `tracekit print --style perf-decode` (and -compact) against the reference
# EventHeader decoder's JSON (LinuxTracepoints' formatter) for the three corpus files: the
# interceptor file (374 events, every encoding and format; the reference's spaced layout with
# field tags) and the perf.data and pipe.data captures (sched_switch and EventHeader samples;
# the formatter's default compact layout). eventheader-json.py normalises only the member
# name and whitespace outside strings, then every event must match byte for byte; each file
# must also equal its reference whole once the member's name is swapped, and tracekit must
# exit 0. A perf.data file cut short must then fail (exit 1) naming where, after the events
# before the cut; perf-decode-damage.py then cuts and flips bits of the three files.
#
# Usage: perf-decode.sh TRACEKIT [CORPUS_DIR]
#        (exits 77 when the corpus or python3 is missing)
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(dirname "$0")
tk=$(abspath "$1")
eventheader_corpus "${2:-}"
need_commands python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# check FILE STYLE: tracekit's output against FILE.linux.json
check() {
	f=$1
	style=$2
	out=$tmp/$(basename "$f").$style.json
	"$tk" print --style "$style" "$dir/$f" >"$out" 2>"$out.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $f ($style): tracekit exited $rc: $(head -c 600 "$out.err")"
		failures=$((failures + 1))
	fi
	echo "$f ($style):"
	python3 "$here/eventheader-json.py" "$out" "$dir/$f.linux.json" ||
		failures=$((failures + 1))
	# the whole file, once the member is named as the reference's harness names it
	name=$(sed -n '2s/^"\(.*\)": \[$/\1/p' "$dir/$f.linux.json")
	{
		head -n 1 "$out"
		printf '"%s": [\n' "$name"
		tail -n +3 "$out"
	} >"$out.renamed"
	if ! cmp -s "$out.renamed" "$dir/$f.linux.json"; then
		echo "FAIL $f ($style): not byte-identical to the reference once renamed"
		failures=$((failures + 1))
	fi
}

check EventHeaderInterceptorLE64.dat perf-decode
check perf.data perf-decode-compact
check pipe.data perf-decode-compact

# a file cut inside its data: the events before the cut, then an error naming the record
size=$(wc -c <"$dir/pipe.data")
head -c $((size - 5050)) "$dir/pipe.data" >"$tmp/cut.data"
"$tk" print --style perf-decode-compact "$tmp/cut.data" >"$tmp/cut.json" 2>"$tmp/cut.err"
rc=$?
n=$(grep -c '^ {"n"' "$tmp/cut.json")
if [ $rc -ne 1 ]; then
	echo "FAIL cut file: exit status $rc, not 1"
	failures=$((failures + 1))
elif ! grep -q 'offset=' "$tmp/cut.err"; then
	echo "FAIL cut file: the error names no offset: $(cat "$tmp/cut.err")"
	failures=$((failures + 1))
elif [ "$n" -lt 400 ]; then
	echo "FAIL cut file: $n events before the cut, expected most of the 551"
	failures=$((failures + 1))
else
	echo "cut file: $n events, then: $(head -n 1 "$tmp/cut.err")"
fi
# trace-cmd's layout: each EventHeader sample's header fields, then its decoded fields as
# name=value pairs (the values below are those of the reference JSON's events CScalars3 and
# i8); every one of the 254 EventHeader samples has its line
"$tk" print --style trace-cmd "$dir/perf.data" >"$tmp/tc.txt" 2>"$tmp/tc.err" ||
	{ echo "FAIL trace-cmd style: $(head -c 300 "$tmp/tc.err")"; failures=$((failures + 1)); }
for want in ' TestProviderC_L4K85: *eventheader_flags=7 version=11 id=1000 tag=4660 opcode=3 level=4 Struct20={hi=hi ch10=\[H,o,w\]}$' \
	' TestProviderC_L5K0: *eventheader_flags=7 version=0 id=0 tag=0 opcode=0 level=5 i8=100 (-128)=-128$'; do
	if ! grep -a -q "$want" "$tmp/tc.txt"; then
		echo "FAIL trace-cmd style: no line matches: $want"
		failures=$((failures + 1))
	fi
done
n=$(grep -a -c ' eventheader_flags=7 ' "$tmp/tc.txt")
if [ "$n" -ne 254 ]; then
	echo "FAIL trace-cmd style: $n EventHeader lines, expected 254"
	failures=$((failures + 1))
fi

# damaged copies: no crash, the events before the damage, a clear error
python3 "$here/perf-decode-damage.py" "$tk" perf-decode "$dir/EventHeaderInterceptorLE64.dat" \
	"$dir/EventHeaderInterceptorLE64.dat.linux.json" || failures=$((failures + 1))
for f in perf.data pipe.data; do
	python3 "$here/perf-decode-damage.py" "$tk" perf-decode-compact "$dir/$f" \
		"$dir/$f.linux.json" || failures=$((failures + 1))
done
[ $failures -eq 0 ] || exit 1
echo "PASS"
