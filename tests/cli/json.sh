#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `tracekit print --style json` (JSON lines) and `--style chrome` (Chrome trace-event JSON),
# on CTF traces from tests/tools/gen-ctf (every layout, both byte orders, lost events and
# packets, floats with NaN and infinities, strings with tabs and quotes) and trace.dat files
# from tests/tools/gen-dat (v6, v7, zstd, big-endian, 32-bit long, lost events, an instance
# buffer). json-check.py does the comparing; the expectations come from other printouts of
# the same trace, parsed there:
#
#   1. JSON lines against the babeltrace style (--names=all --fields=none --no-delta, once
#      with --clock-seconds, once with --clock-cycles): as many event objects as text lines,
#      same order, names, times and raw clock values, same scopes and field names, values
#      equal to the text's (hex, octal, binary, %g, escapes and enumeration labels decoded);
#      CTF loss objects equal to the WARNING lines of stderr.
#   2. trace.dat JSON lines against `trace-cmd report -t`: names, CPUs, nanosecond times, common_pid against the pid column, each "EVENTS
#      DROPPED" line as a loss object just before its event; common_type against the event
#      IDs `trace-cmd report --events` gives for the file's v6 twin.
#   3. Chrome: the document parses; every event has ph, ts, pid, tid and name; times are
#      the events' nanoseconds / 1000 written with three decimals; an instant event per
#      event other than sched_switch with the JSON lines fields as args, on its task's track
#      (trace.dat common_pid, CTF vtid/vpid) or its CPU's; for trace.dat files, CPU slices
#      exactly from each sched_switch to the next on that CPU (the last to the latest
#      time), named after next_comm, and task tracks named after comms the trace holds.
#   5. Losses with a selection (-e sched_switch on a trace.dat file with losses): JSON lines
#      give each kept event the losses since the kept event before it in its stream, as
#      the full printout shows them, and `convert --to json -o -` writes the same bytes as
#      print (one pipeline); the trace-cmd style leaves them out with the dropped events,
#      as `trace-cmd report -F` does (compared when trace-cmd is installed).
#   4. Damaged traces (cut trace.dat and CTF stream files): exit status 1, one cause line,
#      every JSON line parses and holds the events the babeltrace style printed; the Chrome
#      document still parses (it is closed after the error). A --cpu filter that leaves no
#      event still gives a valid Chrome document.
#
# Usage: json.sh TRACEKIT GEN_CTF GEN_DAT     (exits 77 without python3)
set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "${1:-${TRACEKIT:-}}")
genctf=$(abspath "${2:-${TRACEKIT_BUILD:-.}/tests/tools/gen-ctf}")
gendat=$(abspath "${3:-${TRACEKIT_BUILD:-.}/tests/tools/gen-dat}")
for exe in "$tk" "$genctf" "$gendat"; do
	if [ ! -x "$exe" ]; then
		echo "FAIL: not an executable: $exe"
		exit 1
	fi
done
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip: python3 not found in PATH (it parses the JSON)" >&2
	exit 77
fi
check="$(cd "$(dirname "$0")" && pwd)/json-check.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checked=0
skipped=0
if command -v trace-cmd >/dev/null 2>&1; then
	oracle=1
else
	oracle=0
	echo "note: trace-cmd not found; the checks against it are skipped (exit 77 at the end)"
fi

fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

# run WANT_RC OUT TRACEKIT-ARGS...: tracekit into OUT (stderr in OUT.err), exit status checked.
run() {
	want_rc=$1
	out=$2
	shift 2
	"$tk" "$@" >"$out" 2>"$out.err"
	rc=$?
	if [ $rc -ne "$want_rc" ]; then
		fail "tracekit $*: exit status $rc, want $want_rc"
		head -n 3 "$out.err" | sed 's/^/    /'
		return 1
	fi
	return 0
}

# verify WHAT CHECK-ARGS...: one json-check.py command.
verify() {
	what=$1
	shift
	checked=$((checked + 1))
	if ! python3 "$check" "$@" >check.out 2>&1; then
		fail "$what"
		head -n 12 check.out
	fi
}

# report FILE OUT [OPTIONS...]: trace-cmd report's output; 1 (and the check skipped) without
# trace-cmd: tracekit's own trace-cmd style is not an oracle for tracekit.
report() {
	f=$1
	out=$2
	shift 2
	if [ $oracle -eq 0 ]; then
		skipped=$((skipped + 1))
		return 1
	fi
	trace-cmd report "$@" "$f" >"$out" 2>/dev/null || fail "trace-cmd report $* $f"
}

BT="--style=babeltrace --names=all --fields=none --no-delta"

# both NAME PATH: steps 1 and 3 for one trace (PATH a CTF directory or a trace.dat file).
both() {
	name=$1
	path=$2
	run 0 j print --style json "$path" || return
	# shellcheck disable=SC2086 # $BT is a list of options
	run 0 s print $BT --clock-seconds "$path" || return
	# shellcheck disable=SC2086
	run 0 c print $BT --clock-cycles "$path" || return
	verify "$name: JSON lines against the babeltrace style" lines j s c s.err
	run 0 ch print --style chrome "$path" || return
	case $path in
	*.dat)
		report "$path" r.t -t && verify "$name: Chrome" chrome ch j s r.t
		;;
	*)
		verify "$name: Chrome" chrome ch j s
		;;
	esac
}

# ctf NAME GEN-CTF-OPTIONS...
ctf() {
	name=$1
	shift
	if ! "$genctf" "$@" "$name" >/dev/null 2>gen.err; then
		fail "gen-ctf $* $name"
		head -n 3 gen.err | sed 's/^/    /'
		return
	fi
	both "$name" "$name"
}

# dat NAME.dat GEN-DAT-OPTIONS...: also step 2, with formats from a v6 twin (the same
# options but the compression, which version 6 files do not have)
dat() {
	name=$1
	shift
	twin=$(echo "$*" | sed 's/--compression [a-z]*//')
	# shellcheck disable=SC2086 # $twin is a list of options
	if ! "$gendat" "$@" "$name" 2>gen.err || ! "$gendat" $twin --file-version 6 v6.dat \
		2>>gen.err; then
		fail "gen-dat $* $name"
		head -n 3 gen.err | sed 's/^/    /'
		return
	fi
	both "$name" "$name"
	report v6.dat formats --events && report "$name" r.t -t &&
		run 0 j print --style json "$name" &&
		verify "$name: JSON lines against trace-cmd report -t" tracecmd j r.t formats
}

# 1-3. CTF: every layout in both byte orders, odd packet sizes, losses
ctf lttng-le -l lttng -b le -n 1500 -s 2 -S 1 --lost
ctf lttng-be -l lttng -b be -n 800 -s 3 -S 2 -p 333
ctf compact-le -l compact -b le -n 1200 -s 4 -S 3 -p 1000 --lost
ctf compact-be -l compact -b be -n 600 -s 1 -S 4
ctf bitfield-le -l bitfield -b le -n 900 -s 2 -S 5 -p 256 --lost
ctf bitfield-be -l bitfield -b be -n 700 -s 3 -S 6 --packetized-metadata
# trace.dat: losses, compression, byte order, long size; an instance buffer (no trace-cmd
# comparison: trace-cmd 3.1.6 prints some instance events without their buffer)
dat a.dat -n 3000 -c 4 -S 11 --missed
dat z.dat -n 1500 -c 2 -S 12 --missed --compression zstd
dat be.dat -n 1500 -c 3 -S 13 --byte-order be --long-size 4
"$gendat" -n 1500 -c 3 -S 14 --missed --instance foo inst.dat 2>gen.err || fail "gen-dat inst.dat"
both inst.dat inst.dat

# 4. damaged traces: valid JSON, the events before the damage. trace.dat: two pages near the
# end of a v6 file (the last CPU's data) overwritten with 0xff bytes, so that a page header
# is bad (a cut file fails when opened: no output at all)
"$gendat" -n 3000 -c 4 -S 11 --missed --file-version 6 cut.dat 2>gen.err || fail "gen-dat cut.dat"
size=$(wc -c <cut.dat)
head -c 8192 /dev/zero | tr '\0' '\377' |
	dd of=cut.dat bs=1 seek=$((size - 12288)) conv=notrunc 2>/dev/null
for style in json chrome; do
	run 1 cut.$style print --style $style cut.dat
done
# shellcheck disable=SC2086
"$tk" print $BT cut.dat >cut.bt 2>/dev/null
n=$(wc -l <cut.bt)
if [ "$n" -lt 10 ]; then
	fail "the cut trace.dat file prints $n events: the damage test needs some"
fi
verify "cut.dat: JSON lines" valid-lines cut.json "$n"
verify "cut.dat: Chrome" valid-chrome cut.chrome "$n"
for f in cut.json.err cut.chrome.err; do
	checked=$((checked + 1))
	if [ "$(wc -l <$f)" -ne 1 ] || ! grep -q '^tracekit: Cannot ' $f; then
		fail "$f: want one 'tracekit: Cannot' line"
		head -n 3 $f | sed 's/^/    /'
	fi
done
"$genctf" -n 2000 -s 2 -S 9 --no-index cutctf >/dev/null 2>&1 || fail "gen-ctf cutctf"
size=$(wc -c <cutctf/channel0_0)
head -c $((size / 2 + 7)) cutctf/channel0_0 >cutctf/part && mv cutctf/part cutctf/channel0_0
for style in json chrome; do
	run 1 cutctf.$style print --style $style cutctf
done
# shellcheck disable=SC2086
"$tk" print $BT cutctf >cutctf.bt 2>/dev/null
verify "cut CTF stream: JSON lines" valid-lines cutctf.json "$(wc -l <cutctf.bt)"
verify "cut CTF stream: Chrome" valid-chrome cutctf.chrome "$(wc -l <cutctf.bt)"
# no event at all
run 0 none print --style chrome --cpu=7 a.dat &&
	verify "no event: Chrome" valid-chrome none 0
run 0 none print --style json --cpu=7 a.dat && checked=$((checked + 1)) &&
	if [ -s none ]; then fail "--style json --cpu=7 of a 4-CPU file printed something"; fi

# 5. losses with a selection
run 0 full.json print --style json a.dat &&
	run 0 kept.json print --style json -e sched_switch a.dat &&
	verify "-e sched_switch: JSON losses" carried full.json kept.json sched_switch
run 0 conv.json convert --to json -e sched_switch -o - a.dat && checked=$((checked + 1)) &&
	if ! cmp -s kept.json conv.json; then fail "convert --to json -o - differs from print"; fi
if report a.dat want.txt -F sched_switch; then
	run 0 kept.txt print -e sched_switch a.dat && checked=$((checked + 1)) &&
		if ! cmp -s kept.txt want.txt || ! grep -q 'EVENTS DROPPED' want.txt; then
			fail "print -e sched_switch of a file with losses: not trace-cmd report -F's text"
		fi
fi

# the help names both styles; an unknown style is a usage error
run 0 help print --help && checked=$((checked + 1)) &&
	if ! grep -q 'json' help || ! grep -q 'chrome' help; then
		fail "print --help does not name the json and chrome styles"
	fi
run 2 bad print --style jsonl a.dat

echo "checked $checked cases, $failures failed, $skipped skipped for want of trace-cmd"
[ $failures -eq 0 ] || exit 1
[ $skipped -eq 0 ] || exit 77
