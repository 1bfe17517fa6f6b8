#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Threads that come and go (tests/ust/ust-churn.c), THREADS run one after the other.
# Overwrite mode: the stop's snapshot keeps the rings of the last 64 to end, each whole (its
# EVENTS events, in order), and no other (without the bound, every dead thread's ring stayed
# until the stop: memory without end for a process that starts threads all day). Discard mode
# ("discard"): each thread takes over the ring of the one before, so the trace is one stream
# holding every thread's events, whole, each thread under a vtid of its own (before, a stream
# file per thread ever run). Both: babeltrace2 reads the trace with exit status 0 and nothing
# on stderr, `tracekit print` prints the same.
# Usage: ust-churn.sh UST-CHURN TRACEKIT [discard]
set -u
prog=$1
tracekit=$2
mode=${3:-overwrite}
threads=300
events=5
kept=64
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_commands babeltrace2 # the oracle
scratch

if [ "$mode" = discard ]; then
	"$prog" "$tmp/trace" "$threads" "$events" discard >"$tmp/out" 2>"$tmp/err" ||
		fail "ust-churn exited with $?: $(head -3 "$tmp/err")"
	snap=$tmp/trace
	kept=$threads
	want_streams=1
else
	"$prog" "$tmp/trace" "$threads" "$events" >"$tmp/out" 2>"$tmp/err" ||
		fail "ust-churn exited with $?: $(head -3 "$tmp/err")"
	snap=$(ls -d "$tmp/trace"/snapshot-1-* 2>/dev/null)
	[ -n "$snap" ] || fail "no snapshot at the stop: $(ls "$tmp/trace")"
	want_streams=$kept
fi
n=$(ls "$snap" | grep -c '^channel0_')
[ "$n" -eq "$want_streams" ] || fail "$n streams, want $want_streams"
babeltrace2 "$snap" >"$tmp/bt.out" 2>"$tmp/bt.err" || {
	rc=$?
	head -5 "$tmp/bt.err"
	fail "babeltrace2 exited with $rc"
}
[ -s "$tmp/bt.err" ] && fail "babeltrace2 said: $(head -3 "$tmp/bt.err")"
"$tracekit" print "$snap" >"$tmp/tk.out" 2>"$tmp/tk.err" || fail "tracekit exited with $?"
cmp -s "$tmp/bt.out" "$tmp/tk.out" || {
	diff "$tmp/bt.out" "$tmp/tk.out" | head -5
	fail "tracekit print differs from babeltrace2"
}
# thread (s32) and event (u32): exactly threads-64 .. threads-1, each with 0..events-1 in order
sed -n 's/.* s32 = \([0-9]*\), .* u32 = \([0-9]*\), .*/\1 \2/p' "$tmp/bt.out" >"$tmp/ev"
[ "$(wc -l <"$tmp/ev")" -eq "$(wc -l <"$tmp/bt.out")" ] || fail "lines not understood"
awk -v T="$threads" -v E="$events" -v K="$kept" '
	{ if ($1 < T - K || $1 >= T) { print "thread " $1 " kept"; bad = 1 }
	  if ($2 != next_[$1] + 0) { print "thread " $1 ": event " $2 " where " next_[$1] + 0 " was due"; bad = 1 }
	  next_[$1] = $2 + 1 }
	END { for (t = T - K; t < T; t++) if (next_[t] + 0 != E) { print "thread " t ": " next_[t] + 0 " events"; bad = 1 }
	      exit bad }' "$tmp/ev" || fail "not the last $kept threads, whole"
# a vtid per thread
n=$(sed -n 's/.* vtid = \([0-9]*\) }.* s32 = \([0-9]*\), .*/\2 \1/p' "$tmp/bt.out" | sort -u | wc -l)
[ "$n" -eq "$kept" ] || fail "$n (thread, vtid) pairs for $kept threads"
echo "$mode: $threads threads one after the other: the last $kept kept whole in $want_streams streams; peak memory $(cat "$tmp/out") KiB"
