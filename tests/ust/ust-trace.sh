#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A trace written by the application tracer (tests/ust/ust-writer.c: every field kind, several
# threads, small packets so that each thread fills many) is read by babeltrace2 with exit
# status 0 and nothing on stderr; `tracekit print` prints it byte for byte as babeltrace2 does;
# and the values babeltrace2 shows, thread by thread in order, are those the program says it
# wrote. Skips without babeltrace2.
# One more thread is alive at the stop with its packet open: its events must be there too.
# With "gap", an event comes 4.4 s after the previous one of its thread (the event header's
# extended form, 64-bit time), which babeltrace2 must show as such.
# With "eh", the EventHeader output writes every event to an interceptor file at the same
# time (TRACEKIT_UST_INTERCEPTOR): the CTF trace must be the same, and the file must hold, per
# event name, the events written (and the idle thread's tick after the session's stop,
# which only the EventHeader output takes).
# Usage: ust-trace.sh UST-WRITER TRACEKIT [THREADS EVENTS SUBBUF-SIZE SUBBUF-COUNT [CLOCK
#        [gap [eh]]]]
set -u
writer=$1
tracekit=$2
threads=${3:-4}
events=${4:-400}
size=${5:-4096}
count=${6:-64}
clock=${7:-monotonic}
gap=${8:-}
eh=${9:-}
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_commands babeltrace2 # the oracle
scratch

if [ -n "$eh" ]; then
	TRACEKIT_UST_INTERCEPTOR=$tmp/eh.dat
	export TRACEKIT_UST_INTERCEPTOR
fi
"$writer" "$tmp/trace" "$tmp/expected" "$threads" "$events" "$size" "$count" "$clock" $gap ||
	fail "ust-writer exited with $?"
nfiles=$(ls "$tmp/trace" | grep -c '^channel0_')
[ "$nfiles" -eq $((threads + 2)) ] || fail "$nfiles stream files for $((threads + 2)) threads"

babeltrace2 "$tmp/trace" >"$tmp/bt.out" 2>"$tmp/bt.err" || fail "babeltrace2 exited with $?"
if [ -s "$tmp/bt.err" ]; then
	head -5 "$tmp/bt.err"
	fail "babeltrace2 wrote on stderr"
fi
"$TRACEKIT" print "$tmp/trace" >"$tmp/tk.out" 2>"$tmp/tk.err" || {
	cat "$tmp/tk.err"
	fail "tracekit print exited with $?"
}
# byte for byte, but for babeltrace2 2.0's stale text in place of an empty string
# (doc/format-ctf.md section 5): the check of the values below finds any other ""
if ! python3 "$TRACEKIT_SRC/tests/interop/stale-empty.py" "$tmp/bt.out" "$tmp/tk.out" \
	>"$tmp/stale.out"; then
	cat "$tmp/stale.out"
	fail "tracekit print differs from babeltrace2"
fi

# "VTID NAME: { PAYLOAD }" per event, each thread's events in the order written; from
# tracekit's text, equal to babeltrace2's but for the allowance above (C locale: "." must
# match tktest:every's Latin-1 byte)
LC_ALL=C sed -n 's/^\[[^]]*\] ([^)]*) [^ ]* \([^ ]*\): { cpu_id = [0-9]*, vpid = [0-9]*, vtid = \([0-9]*\) }, \(.*\)$/\2 \1: \3/p' \
	"$tmp/tk.out" | sort -s -n -k1,1 >"$tmp/got"
sort -s -n -k1,1 "$tmp/expected" >"$tmp/want"
want=$(wc -l <"$tmp/want")
[ "$want" -eq $(((threads * events + 3 + 5) * 9)) ] || fail "the program says it wrote $want events"
if ! cmp -s "$tmp/want" "$tmp/got"; then
	diff "$tmp/want" "$tmp/got" | head -10
	fail "values read differ from those written"
fi
if [ -n "$gap" ] && ! grep -q '^\[[^]]*\] (+4\.[0-9]*) ' "$tmp/bt.out"; then
	fail "no event 4.x s after the previous one"
fi
if [ -n "$eh" ]; then
	"$tracekit" print --style perf-decode "$tmp/eh.dat" >"$tmp/eh.out" 2>"$tmp/eh.err" ||
		fail "tracekit print --style perf-decode exited with $? ($(head -c 300 "$tmp/eh.err"))"
	[ -s "$tmp/eh.err" ] && fail "perf-decode wrote on stderr: $(head -c 300 "$tmp/eh.err")"
	# per event name, the CTF count; one tick more (after the stop)
	LC_ALL=C sed -n 's/^[0-9]* tktest:\([a-z]*\):.*/\1/p' "$tmp/want" | sort | uniq -c >"$tmp/eh.want"
	awk '$2 == "tick" { $1 = $1 + 1 } { printf "%7d %s\n", $1, $2 }' "$tmp/eh.want" \
		>"$tmp/eh.want2"
	sed -n 's/^  { "n": "tktest:\([a-z]*\)".*/\1/p' "$tmp/eh.out" | sort | uniq -c |
		awk '{ printf "%7d %s\n", $1, $2 }' >"$tmp/eh.got"
	if ! cmp -s "$tmp/eh.want2" "$tmp/eh.got"; then
		diff "$tmp/eh.want2" "$tmp/eh.got" | head -10
		fail "the interceptor file's events differ from those written"
	fi
	echo "ok: and $(($(wc -l <"$tmp/eh.out") - 2)) EventHeader records at the same time"
fi
echo "ok: $want events of $((threads + 2)) threads read back by babeltrace2 and tracekit"
