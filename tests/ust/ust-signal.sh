#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Events from a signal handler interrupting the thread's own events (tests/ust/ust-signal.c):
# babeltrace2 reads the trace with exit status 0 and nothing on stderr but discarded-events
# warnings; `tracekit print` prints the same; the main thread's events are all there, 0 to
# EVENTS-1 in order (none written over); the handler's events read plus the losses reported
# equal the handler's count, and some were lost (a handler landed inside an event: the test
# exercised what it is for). With "eh", the EventHeader path runs too.
# Usage: ust-signal.sh UST-SIGNAL TRACEKIT [eh]
set -u
prog=$1
tracekit=$2
mode=${3:-}
events=200000
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_commands babeltrace2 # the oracle
scratch

if [ "$mode" = eh ]; then
	set -- "$tmp/trace" "$events" eh "$tmp/eh.dat"
else
	set -- "$tmp/trace" "$events"
fi
"$prog" "$@" >"$tmp/out" || fail "ust-signal exited with $?"
read -r emitted handled <"$tmp/out"
[ "$emitted" -ge "$events" ] || fail "ust-signal emitted $emitted main events of $events"
babeltrace2 "$tmp/trace" >"$tmp/bt.out" 2>"$tmp/bt.err" || {
	rc=$?
	head -5 "$tmp/bt.err"
	fail "babeltrace2 exited with $rc"
}
if grep -v '^WARNING: Tracer discarded [0-9]* events\{0,1\} between ' "$tmp/bt.err" >"$tmp/other"; then
	head -5 "$tmp/other"
	fail "babeltrace2 wrote more than discarded-events warnings"
fi
"$tracekit" print "$tmp/trace" >"$tmp/tk.out" 2>"$tmp/tk.err" || fail "tracekit exited with $?"
cmp -s "$tmp/bt.out" "$tmp/tk.out" || {
	diff "$tmp/bt.out" "$tmp/tk.out" | head -5
	fail "tracekit print differs from babeltrace2"
}
# u8 0: the main thread's numbers, 0, 1, ...; u8 1: the handler's, increasing
sed -n 's/.* s32 = \(-\{0,1\}[0-9]*\), .* u8 = \([0-9]*\), .*/\2 \1/p' "$tmp/bt.out" >"$tmp/ev"
[ "$(wc -l <"$tmp/ev")" -eq "$(wc -l <"$tmp/bt.out")" ] || fail "lines not understood"
awk -v E="$emitted" '
	$1 == 0 { if ($2 != m) { print "main event " $2 " where " m " was due"; bad = 1; exit } m++ }
	$1 == 1 { if (h != "" && $2 <= h) { print "handler event " $2 " after " h; bad = 1; exit } h = $2; nh++ }
	END { if (!bad && m != E) { print m " main events of " E; bad = 1 }
	      print nh + 0 > "/dev/stderr"; exit bad }' "$tmp/ev" 2>"$tmp/nh" || fail "events written over or lost"
read=$(cat "$tmp/nh")
lost=$(sum_lost "$tmp/bt.err")
[ "$(sum_lost "$tmp/tk.err")" -eq "$lost" ] || fail "tracekit reports other losses"
echo "main $emitted events, every one read; handler $handled events: read $read, lost $lost"
[ $((read + lost)) -eq "$handled" ] || fail "handler: read + lost = $((read + lost)), emitted $handled"
[ "$lost" -gt 0 ] || fail "no handler event landed inside another: nothing was tested"
if [ "$mode" = eh ]; then
	# every event of the main thread in the interceptor file, none of the handler's written over
	"$tracekit" print --style perf-decode "$tmp/eh.dat" >"$tmp/eh.out" 2>"$tmp/eh.err" ||
		fail "tracekit cannot read the interceptor file: $(head -3 "$tmp/eh.err")"
	n=$(grep -c '"u8": 0' "$tmp/eh.out")
	[ "$n" -eq "$emitted" ] || fail "$n main events in the interceptor file, $emitted emitted"
fi
