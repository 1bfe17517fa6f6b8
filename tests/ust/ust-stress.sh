#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Many threads on rings of three 4 KiB packets while the consumer writes: babeltrace2 reads
# the trace with exit status 0; `tracekit print` prints the same bytes and reports the same
# losses; events read plus events reported lost equal events emitted; and each thread's
# events come in the order it emitted them (its numbers increase). Skips without babeltrace2.
# Usage: ust-stress.sh UST-STRESS TRACEKIT [THREADS EVENTS]
set -u
prog=$1
tracekit=$2
threads=${3:-16}
events=${4:-20000}
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_commands babeltrace2 # the oracle
scratch

emitted=$("$prog" "$tmp/trace" "$threads" "$events") || fail "ust-stress exited with $?"
babeltrace2 "$tmp/trace" >"$tmp/bt.out" 2>"$tmp/bt.err" || {
	head -5 "$tmp/bt.err"
	fail "babeltrace2 exited with $?"
}
"$tracekit" print "$tmp/trace" >"$tmp/tk.out" 2>"$tmp/tk.err" || fail "tracekit exited with $?"
cmp -s "$tmp/bt.out" "$tmp/tk.out" || {
	diff "$tmp/bt.out" "$tmp/tk.out" | head -5
	fail "tracekit print differs from babeltrace2"
}
read=$(grep -c 'tktest:ints:' "$tmp/bt.out")
lost=$(sum_lost "$tmp/bt.err")
[ "$(sum_lost "$tmp/tk.err")" -eq "$lost" ] || fail "tracekit reports other losses"
echo "emitted $emitted, read $read, lost $lost"
[ $((read + lost)) -eq "$emitted" ] || fail "read + lost = $((read + lost)), emitted $emitted"
# per thread (u8), the numbers (s32) increase
sed -n 's/.* s32 = \(-\{0,1\}[0-9]*\), .* u8 = \([0-9]*\), .*/\2 \1/p' "$tmp/bt.out" |
	awk '{ if (($1 in last) && $2 <= last[$1]) { print "thread " $1 ": " $2 " after " last[$1]; bad = 1 }
	       last[$1] = $2 } END { exit bad }' || fail "a thread's events out of order"
