#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `tracekit record -C x86-tsc`: the kernel stamps events with the raw TSC and the file says how
# to turn it into nanoseconds (TSC2NSEC, as `trace-cmd record -C tsc2nsec` writes it); with
# `--ust DIR` the command's tracer reads the TSC and is handed that conversion and the DATE
# offset, so both recordings give the same times:
#   1. the command sees TRACEKIT_UST_CLOCK=tsc, TRACEKIT_UST_TSC_MULT and _SHIFT (shift at
#      most 32) and an offset of whole microseconds; trace-cmd dump --options shows a
#      TSC2NSEC option with that multiplier and shift (offset 0), the clock tsc2nsec and the
#      offset as DATE;
#   2. trace-cmd report (the oracle) prints seconds since the epoch: the exec of each of two
#      `date` commands a second apart is at most 50 ms before the time the command printed,
#      so the conversion's rate and DATE are both right; the same without --ust in a version
#      6 file with --date;
#   3. with an instrumented program (examples/hello.c, HELLO): babeltrace2 --clock-seconds
#      puts its three greetings between the exec of the program and its threads' exit in
#      trace-cmd report -t, and `tracekit print trace.dat DIR` merges both recordings in the
#      order of the times those two oracles give.
#
# Usage: record-ust-tsc.sh TRACEKIT [HELLO]   (exits 77 when not root, without tracefs,
# trace-cmd, an x86 machine or the kernel's x86-tsc trace clock, or when tracekit finds no
# TSC-to-nanosecond conversion; part 3 skips without HELLO or babeltrace2)
set -u
LC_ALL=C
export LC_ALL

# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(abspath "$(dirname "$0")")
tk=$(abspath "$1")
hello=${2:+$(abspath "$2")}
need_tracefs "$tk"
need_commands trace-cmd python3
case $(uname -m) in
x86_64 | i?86) ;;
*)
	echo "skip: not an x86 machine (no TSC)" >&2
	exit 77
	;;
esac
grep -qw x86-tsc "$tracefs/trace_clock" 2>/dev/null || {
	echo "skip: the kernel has no x86-tsc trace clock" >&2
	exit 77
}
scratch
cd "$tmp" || exit 1

# two dates a second apart: their execs, in the trace, come just before what they print
cmd='echo "$TRACEKIT_UST_DIR $TRACEKIT_UST_CLOCK $TRACEKIT_UST_TSC_MULT $TRACEKIT_UST_TSC_SHIFT $TRACEKIT_UST_CLOCK_OFFSET"; date +%s.%N; sleep 1; date +%s.%N'
if ! "$tk" record -q -e sched:sched_process_exec -C x86-tsc --ust app -o k.dat -- \
	sh -c "$cmd" >out.txt 2>err.txt; then
	if grep -q 'Cannot use the x86-tsc clock' err.txt; then
		echo "skip: $(grep -o 'reason=.*' err.txt)" >&2
		exit 77
	fi
	fail "record -C x86-tsc --ust failed: $(cat err.txt)"
fi
read -r dir clock mult shift off <out.txt
[ "$dir" = app ] || fail "TRACEKIT_UST_DIR is '$dir', not app"
[ "$clock" = tsc ] || fail "TRACEKIT_UST_CLOCK is '$clock', not tsc"
[ "${mult:-0}" -gt 0 ] || fail "TRACEKIT_UST_TSC_MULT is '$mult'"
[ -n "$shift" ] && [ "$shift" -le 32 ] || fail "TRACEKIT_UST_TSC_SHIFT is '$shift'"
[ -n "$off" ] && [ $((off % 1000)) -eq 0 ] || fail "offset '$off' is not whole microseconds"

trace-cmd dump --options k.dat >dump.txt 2>/dev/null || fail "trace-cmd dump failed"
grep -A1 'Option TSC2NSEC' dump.txt | grep -q "^$mult $shift 0 \[multiplier, shift, offset\]" ||
	fail "trace-cmd dump shows no TSC2NSEC option $mult $shift 0: $(grep -A1 TSC2NSEC dump.txt)"
grep -q '^"tsc2nsec" \[clock\]' dump.txt || fail "trace-cmd dump shows another clock than tsc2nsec"
date_us=$(grep -A1 'Option DATE' dump.txt | tail -1)
[ "$(printf '%d' "$date_us")" = "$((off / 1000))" ] ||
	fail "the DATE option $date_us is not the offset handed to the command ($off ns)"

# check_dates DAT OUT: the execs of date in trace-cmd's report of DAT against the times in OUT
check_dates() {
	trace-cmd report "$1" 2>/dev/null |
		awk '/sched_process_exec:.*filename=[^ ]*\/date / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i } }' \
			>execs.txt
	grep '^[0-9]*\.[0-9]*$' "$2" >dates.txt
	python3 - execs.txt dates.txt <<'PY'
import sys
execs = [float(l) for l in open(sys.argv[1])]
dates = [float(l) for l in open(sys.argv[2])]
if len(execs) != 2 or len(dates) != 2:
    sys.exit("%d execs of date in the report, %d dates printed" % (len(execs), len(dates)))
for e, d in zip(execs, dates):
    if not 0 <= d - e < 0.05:
        sys.exit("exec at %.6f, date printed %.6f" % (e, d))
PY
}
check_dates k.dat out.txt || fail "trace-cmd's times of the -C x86-tsc --ust recording are wrong"

"$tk" record -q -e sched:sched_process_exec -C x86-tsc --date --file-version 6 -o k6.dat -- \
	sh -c 'date +%s.%N; sleep 1; date +%s.%N' >out6.txt || fail "record -C x86-tsc --date failed"
trace-cmd dump --options k6.dat 2>/dev/null | grep -q 'Option TSC2NSEC' ||
	fail "the version 6 file has no TSC2NSEC option"
check_dates k6.dat out6.txt || fail "trace-cmd's times of the version 6 -C x86-tsc recording are wrong"
echo "ok: -C x86-tsc saves TSC2NSEC ($mult >> $shift) and DATE; trace-cmd prints wall-clock times"

if [ -z "$hello" ] || ! command -v babeltrace2 >/dev/null 2>&1; then
	echo "skip part: no instrumented program or no babeltrace2" >&2
	exit 0
fi
"$tk" record -q -e sched:sched_switch -e sched:sched_process_exec -C x86-tsc --ust papp \
	-o m.dat -- "$hello" there || fail "record -C x86-tsc --ust of the instrumented program failed"
trace-cmd report -t m.dat 2>/dev/null |
	awk '/ sched_(switch|process_exec): / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i, "k"; break } }' \
		>want-k.txt
babeltrace2 --clock-seconds papp 2>bt-err.txt |
	sed -n 's/^\[\([0-9]*\.[0-9]*\)\] .* hello:greeting: .*/\1 u/p' >want-u.txt
[ -s bt-err.txt ] && fail "babeltrace2 complains about the program's trace: $(head -n 3 bt-err.txt)"
[ "$(wc -l <want-u.txt)" -eq 3 ] || fail "babeltrace2 reads $(wc -l <want-u.txt) greetings, not 3"
# causality, whatever the readers: the greetings come after the program's exec and before the
# last of its threads leaves the CPU for good (the kernel's times, through TSC2NSEC and DATE)
trace-cmd report -t m.dat 2>/dev/null | awk '
	/sched_process_exec:.*filename=[^ ]*hello-example / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print "exec", $i } }
	/sched_switch:.*hello-example:[0-9]+ \[[0-9]+\] X ==>/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print "exit", $i } }' \
	>bounds.txt
python3 - bounds.txt want-u.txt <<'PY' || fail "the program's greetings are not between its exec and its end"
import sys
b = [l.split() for l in open(sys.argv[1])]
execs = [float(t) for k, t in b if k == "exec"]
exits = [float(t) for k, t in b if k == "exit"]
greets = [float(l.split()[0]) for l in open(sys.argv[2])]
if len(execs) != 1 or not exits:
    sys.exit("%d execs and %d exits of hello-example in the report" % (len(execs), len(exits)))
if not execs[0] < min(greets) <= max(greets) < max(exits):
    sys.exit("exec %.9f, greetings %.9f..%.9f, end %.9f" % (execs[0], min(greets), max(greets), max(exits)))
PY
"$tk" print --style json m.dat papp >got.json || fail "tracekit print m.dat papp failed"
python3 "$here/merge-order.py" want-k.txt want-u.txt got.json ||
	fail "the merged order is not the oracles' times'"
echo "ok: on x86-tsc, tracekit print merges the kernel and program recordings in the oracles' time order"
