#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A trace written by the application tracer (tests/ust/ust-writer.c: every field kind, several
# threads, small packets so that each thread fills many; a provider in a C++ module loaded
# with dlopen() while the session runs and unloaded with dlclose(); a fork()ed child writing
# every kind from two threads into streams of its own) is read by babeltrace2 with exit
# status 0 and nothing on stderr; `tracekit print` prints it byte for byte as babeltrace2
# does; and the values babeltrace2 shows, thread by thread in order (the parent's threads,
# the module's events, the child's threads), are those the program says it wrote. The
# child's streams must carry its own vpid. Skips without babeltrace2.
# One more thread is alive at the stop with its packet open: its events must be there too.
# With "gap", an event comes 4.4 s after the previous one of its thread (the event header's
# extended form, 64-bit time), which babeltrace2 must show as such.
# With "eh", the EventHeader output writes every event to an interceptor file at the same
# time (TRACEKIT_UST_INTERCEPTOR): the CTF trace must be the same, and the file must hold, per
# event name, the events the parent wrote (the forked child does not write to it; and the
# idle thread's tick after the session's stop, which only the EventHeader output takes).
# MODULE is the module (tests/ust/ust-module.cc) or "none" where there is no C++ compiler of
# the C compiler's family: everything else is checked, then the test skips (77), saying so.
# Usage: ust-trace.sh UST-WRITER TRACEKIT MODULE|none [THREADS EVENTS SUBBUF-SIZE SUBBUF-COUNT
#        [CLOCK [gap [eh]]]]
set -u
writer=$1
tracekit=$2
module=$3
threads=${4:-4}
events=${5:-400}
size=${6:-4096}
count=${7:-64}
clock=${8:-monotonic}
gap=${9:-}
eh=${10:-}
# what ust-writer.c emits besides THREADS x EVENTS: the main thread's 3 and the idle thread's
# 5 rounds, the child's 2 threads x 20, and 3 module events per worker and child thread
child_events=20
module_events=3
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_commands babeltrace2 # the oracle
scratch

if [ -n "$eh" ]; then
	TRACEKIT_UST_INTERCEPTOR=$tmp/eh.dat
	export TRACEKIT_UST_INTERCEPTOR
fi
set --
[ "$module" = none ] || set -- -m "$module"
"$writer" "$@" "$tmp/trace" "$tmp/expected" "$threads" "$events" "$size" "$count" "$clock" \
	$gap || fail "ust-writer exited with $?"
# at most a stream per thread: a thread that starts once another has ended may take over its
# ring (the stream goes on under the new thread's vtid); the values are checked per vtid below
nfiles=$(ls "$tmp/trace" | grep -c '^channel0_')
[ "$nfiles" -ge 2 ] && [ "$nfiles" -le $((threads + 4)) ] ||
	fail "$nfiles stream files for $((threads + 4)) threads"

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
[ -f "$tmp/expected.child" ] || fail "the forked child said nothing of what it wrote"
cat "$tmp/expected" "$tmp/expected.child" | sort -s -n -k1,1 >"$tmp/want"
want=$(wc -l <"$tmp/want")
nmod=0
[ "$module" = none ] || nmod=$(((threads + 2) * module_events))
[ "$want" -eq $(((threads * events + 3 + 5 + 2 * child_events) * 9 + nmod)) ] ||
	fail "the program says it wrote $want events"
[ "$(grep -c '^[0-9]* tkmod:hello: ' "$tmp/want")" -eq "$nmod" ] ||
	fail "the program says it wrote other than $nmod module events"
if ! cmp -s "$tmp/want" "$tmp/got"; then
	diff "$tmp/want" "$tmp/got" | head -10
	fail "values read differ from those written"
fi
# the child's two threads are in streams of the child's vpid, which no parent thread has
LC_ALL=C sed -n 's/.*{ cpu_id = [0-9]*, vpid = \([0-9]*\), vtid = \([0-9]*\) }.*/\1 \2/p' \
	"$tmp/tk.out" | sort -u >"$tmp/vpids"
cut -d' ' -f1 "$tmp/expected.child" | sort -u >"$tmp/child.tids"
awk 'NR == FNR { child[$1] = 1; next }
	($2 in child) { cpid[$1] = 1; nc++ } !($2 in child) { ppid[$1] = 1 }
	END { for (p in cpid) { if (p in ppid) bad = 1; n++ }
	      exit !(nc == 2 && n == 1 && !bad) }' "$tmp/child.tids" "$tmp/vpids" ||
	fail "the child's threads are not 2 threads of a vpid of their own: $(tr '\n' ' ' <"$tmp/vpids")"
if [ -n "$gap" ] && ! grep -q '^\[[^]]*\] (+4\.[0-9]*) ' "$tmp/bt.out"; then
	fail "no event 4.x s after the previous one"
fi
if [ -n "$eh" ]; then
	"$tracekit" print --style perf-decode "$tmp/eh.dat" >"$tmp/eh.out" 2>"$tmp/eh.err" ||
		fail "tracekit print --style perf-decode exited with $? ($(head -c 300 "$tmp/eh.err"))"
	[ -s "$tmp/eh.err" ] && fail "perf-decode wrote on stderr: $(head -c 300 "$tmp/eh.err")"
	# per event name, the CTF count; one tick more (after the stop)
	LC_ALL=C sed -n 's/^[0-9]* \(tk[a-z]*:[a-z]*\):.*/\1/p' "$tmp/expected" | sort | uniq -c \
		>"$tmp/eh.want"
	awk '$2 == "tktest:tick" { $1 = $1 + 1 } { printf "%7d %s\n", $1, $2 }' "$tmp/eh.want" \
		>"$tmp/eh.want2"
	sed -n 's/^  { "n": "\(tk[a-z]*:[a-z]*\)".*/\1/p' "$tmp/eh.out" | sort | uniq -c |
		awk '{ printf "%7d %s\n", $1, $2 }' >"$tmp/eh.got"
	if ! cmp -s "$tmp/eh.want2" "$tmp/eh.got"; then
		diff "$tmp/eh.want2" "$tmp/eh.got" | head -10
		fail "the interceptor file's events differ from those written"
	fi
	echo "ok: and $(($(wc -l <"$tmp/eh.out") - 2)) EventHeader records at the same time"
fi
echo "ok: $want events of $((threads + 4)) threads (2 of a forked child) read back by babeltrace2 and tracekit"
if [ "$module" = none ]; then
	echo "skip: the dlopen()ed module's part: no C++ compiler of the C compiler's family (set CXX)" >&2
	exit 77
fi
echo "ok: $nmod events of the dlopen()ed C++ module among them"
