#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `tracekit record --ust DIR -- COMMAND` hands the command's application tracer the kernel
# recording's clock: TRACEKIT_UST_DIR=DIR, TRACEKIT_UST_CLOCK=monotonic and
# TRACEKIT_UST_CLOCK_OFFSET, CLOCK_REALTIME less CLOCK_MONOTONIC in whole microseconds, the
# same offset the trace.dat keeps as its DATE option, on the mono trace clock:
#   1. the command sees the three variables; the offset is a whole number of microseconds
#      and within a second of what python measures from the two clocks;
#   2. trace-cmd (the oracle) reads a mono recording whose DATE option is that offset, and
#      shows the events at wall-clock times: the first within seconds of the command's;
#   3. a DIR holding files is refused (status 1, nothing recorded), as are a clock other
#      than mono or x86-tsc (record-ust-tsc.sh tests x86-tsc) and a missing command
#      (status 2);
#   4. with an instrumented program (examples/hello.c, HELLO): `tracekit print trace.dat DIR`
#      merges both recordings, and in the order of the times the reference tools give each
#      event: trace-cmd report -t for the kernel's, babeltrace2 --clock-seconds for the
#      program's (its three greetings), the two lists merged by time here.
#
# Usage: record-ust.sh TRACEKIT [HELLO]   (exits 77 when not root, without tracefs or
# trace-cmd; part 4 skips without HELLO or babeltrace2)
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
scratch
cd "$tmp" || exit 1

"$tk" record -q -e sched:sched_switch --ust app -o k.dat -- \
	sh -c 'echo "$TRACEKIT_UST_DIR $TRACEKIT_UST_CLOCK $TRACEKIT_UST_CLOCK_OFFSET"; date +%s' \
	>env.txt || fail "record --ust failed"
read -r dir clock off now <<EOF2
$(tr '\n' ' ' <env.txt)
EOF2
[ "$dir" = app ] || fail "TRACEKIT_UST_DIR is '$dir', not app"
[ "$clock" = monotonic ] || fail "TRACEKIT_UST_CLOCK is '$clock', not monotonic"
[ -n "$off" ] && [ $((off % 1000)) -eq 0 ] || fail "offset '$off' is not whole microseconds"
python3 - "$off" <<'PY' || fail "the offset is not CLOCK_REALTIME less CLOCK_MONOTONIC"
import sys, time
off = int(sys.argv[1])
want = time.clock_gettime_ns(time.CLOCK_REALTIME) - time.clock_gettime_ns(time.CLOCK_MONOTONIC)
sys.exit(0 if abs(off - want) < 1000000000 else 1)
PY
[ ! -e app ] || fail "tracekit made app itself (the tracer makes it)"

trace-cmd report k.dat >report.txt 2>/dev/null || fail "trace-cmd report failed"
first=$(awk '/sched_switch:/ { sub(":", "", $3); print $3; exit }' report.txt)
[ -n "$first" ] || fail "trace-cmd shows no sched_switch"
python3 - "$first" "$now" <<'PY' || fail "trace-cmd's first time $first is not near the command's $now"
import sys
sys.exit(0 if abs(float(sys.argv[1]) - float(sys.argv[2])) < 5 else 1)
PY
trace-cmd dump --options k.dat >dump.txt 2>/dev/null || fail "trace-cmd dump failed"
grep -q '^"mono" \[clock\]' dump.txt || fail "trace-cmd dump shows another clock than mono"
date_us=$(grep -A1 'Option DATE' dump.txt | tail -1)
[ "$(printf '%d' "$date_us")" = "$((off / 1000))" ] ||
	fail "the DATE option $date_us is not the offset handed to the command ($off ns)"

mkdir full && : >full/x
"$tk" record -q -e sched:sched_switch --ust full -o k2.dat -- true 2>err.txt
[ $? -eq 1 ] || fail "a --ust directory with files was not refused with status 1"
grep -q 'not empty' err.txt || fail "the refusal does not say why: $(cat err.txt)"
[ ! -e k2.dat ] || fail "a refused recording left k2.dat"
"$tk" record -q -e sched:sched_switch --ust d -C global -- true 2>/dev/null
[ $? -eq 2 ] || fail "--ust with -C global was not a usage error"
"$tk" record -q -e sched:sched_switch --ust d 2>/dev/null
[ $? -eq 2 ] || fail "--ust without a command was not a usage error"
echo "ok: --ust hands the command the recording's clock and offset ($off ns)"

if [ -z "$hello" ] || ! command -v babeltrace2 >/dev/null 2>&1; then
	echo "skip part: no instrumented program or no babeltrace2" >&2
	exit 0
fi
"$tk" record -q -e sched:sched_switch -e sched:sched_process_exec --ust app -o m.dat -- \
	"$hello" there || fail "record --ust of the instrumented program failed"
trace-cmd report -t m.dat 2>/dev/null |
	awk '/ sched_(switch|process_exec): / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i, "k"; break } }' \
	>want-k.txt
babeltrace2 --clock-seconds app 2>bt-err.txt |
	sed -n 's/^\[\([0-9]*\.[0-9]*\)\] .* hello:greeting: .*/\1 u/p' >want-u.txt
[ -s bt-err.txt ] && fail "babeltrace2 complains about the program's trace: $(head -n 3 bt-err.txt)"
[ "$(wc -l <want-u.txt)" -eq 3 ] || fail "babeltrace2 reads $(wc -l <want-u.txt) greetings, not 3"
"$tk" print --style json m.dat app >got.json || fail "tracekit print m.dat app failed"
python3 "$here/merge-order.py" want-k.txt want-u.txt got.json ||
	fail "the merged order is not the oracles' times'"
echo "ok: tracekit print merges the kernel and program recordings in the oracles' time order"
