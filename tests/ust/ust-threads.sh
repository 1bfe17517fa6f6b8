#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Thousands of threads alive at once, each writing a packet or two while all live, with 256
# file descriptors allowed (the consumer must not hold one per thread): every event reaches
# the trace (no loss: the rings are large enough), babeltrace2 reads it with exit status 0
# and an empty stderr, `tracekit print` prints the same bytes, each thread's events are its
# 0..EVENTS-1 in order. Then the memory: with 16 KiB sub-buffers, threads that use two
# sub-buffers of their ring of four must not hold the other two (peak resident memory below
# THREADS x (2 sub-buffers + 16 KiB) + 16 MiB; unchecked in sanitizer builds).
# Usage: ust-threads.sh UST-THREADS TRACEKIT [THREADS EVENTS]
set -u
prog=$1
tracekit=$2
threads=${3:-2000}
events=${4:-120}
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_commands babeltrace2 # the oracle
scratch

(ulimit -n 256 && exec "$prog" "$tmp/trace" "$threads" "$events" 4096) >"$tmp/out" 2>"$tmp/err" ||
	fail "ust-threads exited with $?: $(head -3 "$tmp/err")"
[ -s "$tmp/err" ] && fail "ust-threads said: $(head -3 "$tmp/err")"
files=$(find "$tmp/trace" -name 'channel0_*' | wc -l)
[ "$files" -eq "$threads" ] || fail "$files stream files for $threads threads"
babeltrace2 "$tmp/trace" >"$tmp/bt.out" 2>"$tmp/bt.err" || {
	rc=$?
	head -5 "$tmp/bt.err"
	fail "babeltrace2 exited with $rc"
}
[ -s "$tmp/bt.err" ] && fail "babeltrace2 said: $(head -3 "$tmp/bt.err")"
"$tracekit" print "$tmp/trace" >"$tmp/tk.out" 2>"$tmp/tk.err" || fail "tracekit exited with $?"
cmp -s "$tmp/bt.out" "$tmp/tk.out" || {
	diff "$tmp/bt.out" "$tmp/tk.out" | head -5
	fail "tracekit print differs from babeltrace2"
}
# per thread (u32), the numbers (s32) are 0, 1, ... EVENTS-1
sed -n 's/.* s32 = \([0-9]*\), .* u32 = \([0-9]*\), .*/\2 \1/p' "$tmp/bt.out" |
	awk -v n="$threads" -v e="$events" '
	{ if ($2 != next_[$1] + 0) { print "thread " $1 ": " $2 " where " next_[$1] + 0 " was due"; bad = 1 }
	  next_[$1] = $2 + 1 }
	END { for (i = 0; i < n; i++) if (next_[i] + 0 != e) { print "thread " i ": " next_[i] + 0 " events"; bad = 1 }
	      exit bad }' || fail "events lost, doubled or out of order"
echo "$threads threads, $(wc -l <"$tmp/bt.out") events, every one read"

# memory: 16 KiB sub-buffers, EVENTS2 events of 36 bytes fill two sub-buffers of the four
rm -rf "$tmp/trace"
events2=600
"$prog" "$tmp/trace" "$threads" "$events2" 16384 >"$tmp/out" 2>"$tmp/err" ||
	fail "ust-threads exited with $?: $(head -3 "$tmp/err")"
peak=$(sed -n 2p "$tmp/out")
if [ "$peak" -lt 0 ]; then
	echo "peak memory not checked (sanitizer build)"
	exit 0
fi
bound=$((threads * (2 * 16 + 16) + 16 * 1024))
echo "peak resident memory $peak KiB, bound $bound KiB"
[ "$peak" -le "$bound" ] || fail "peak resident memory $peak KiB above $bound KiB"
