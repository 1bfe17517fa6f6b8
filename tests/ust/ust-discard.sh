#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Discard mode: a ring of two 4 KiB packets and no consumer until a flush, so most events are
# dropped; babeltrace2 must read the trace (exit status 0), and the events it prints plus
# the losses it reports (its WARNING lines) must equal the events the program emitted, with
# losses reported; `tracekit print` must print the same events and report the same losses.
# With "nofd", the first flush finds no descriptor free (ust-discard.c), and nothing may be
# lost uncounted.
# Usage: ust-discard.sh UST-DISCARD TRACEKIT [nofd]
set -u
prog=$1
tracekit=$2
mode=${3:-}
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_commands babeltrace2 # the oracle
scratch

if [ "$mode" = nofd ]; then
	emitted=$(ulimit -n 64 && exec "$prog" "$tmp/trace" 2000 1500 nofd) ||
		fail "ust-discard exited with $?"
else
	emitted=$("$prog" "$tmp/trace" 2000 1500) || fail "ust-discard exited with $?"
fi
babeltrace2 "$tmp/trace" >"$tmp/bt.out" 2>"$tmp/bt.err" || fail "babeltrace2 exited with $?"
"$tracekit" print "$tmp/trace" >"$tmp/tk.out" 2>"$tmp/tk.err" || fail "tracekit exited with $?"
cmp -s "$tmp/bt.out" "$tmp/tk.out" || {
	diff "$tmp/bt.out" "$tmp/tk.out" | head -5
	fail "tracekit print differs from babeltrace2"
}
read=$(grep -c 'tktest:' "$tmp/bt.out")
lost=$(sum_lost "$tmp/bt.err")
tklost=$(sum_lost "$tmp/tk.err")
echo "emitted $emitted, read $read, lost $lost (tracekit: $tklost)"
[ "$lost" -gt 0 ] || fail "no loss reported (babeltrace2 stderr: $(head -c 300 "$tmp/bt.err"))"
[ "$read" -gt 0 ] || fail "no event read"
[ $((read + lost)) -eq "$emitted" ] || fail "read + lost = $((read + lost)), emitted $emitted"
[ "$tklost" -eq "$lost" ] || fail "tracekit reports $tklost lost, babeltrace2 $lost"
