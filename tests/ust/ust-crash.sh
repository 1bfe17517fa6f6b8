#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Crash recovery (doc/ust.md): ust-crash keeps its rings in files (TRACEKIT_UST_SHM_DIR, under
# /dev/shm when there is one) and dies by SIGKILL; `tracekit ust-recover` must give a trace
# that babeltrace2 reads with exit status 0 and nothing on stderr, that `tracekit print`
# prints as babeltrace2 does, and in which each thread's events are exactly 0..M-1, M the
# events of its closed packets, computed here from the event's size alone:
#  - noconsumer: nothing written before the kill, everything from the rings (full, later
#    events dropped);
#  - flush: some packets written by a flush, the rest in the rings; recovered once into a
#    copy (-o, the original left as it was), then in place after a stream file was cut in the
#    middle of a packet (a consumer killed while writing);
#  - wait: the consumer running, the process killed from outside: left alone while it runs,
#    recovered once dead, nothing twice;
#  - consumer: the consumer running, SIGKILL right after the last event (what the consumer
#    wrote and what it had not yet, however the race goes);
#  - overwrite: overwrite mode, no consumer: the rings' closed packets become a trace of
#    their own, DIR/crash-PID (its metadata kept by the runtime); a clean end leaves neither
#    ring files nor that directory;
#  - clean: a normal exit leaves no ring file;
#  - damaged ring files fail with one line and status 1, the trace untouched.
# Usage: ust-crash.sh UST-CRASH TRACEKIT
set -u
prog=$1
tracekit=$2
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_commands babeltrace2 # the oracle
scratch
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	shm_base=$(mktemp -d /dev/shm/tk-ust-crash.XXXXXX)
	trap 'rm -rf "$tmp" "$shm_base"' EXIT
else
	shm_base=$tmp/shm
	mkdir "$shm_base"
fi

# the event: 6-byte header (16-bit ID, 32-bit time) + u32 + u64 + u8[50]; 92-byte packet
# header and context; 4096-byte packets
esize=$((6 + 4 + 8 + 50))
per=$(((4096 - 92) / esize))
full=$((92 + per * esize)) # a full packet's bytes in a stream file
p0=92                      # packet 0, without events, begins every stream file

# closed N: the events of the closed packets of a thread that emitted N (the packet holding
# event N-1 is still open)
closed() {
	echo $((($1 - 1) / per * per))
}

rings() {
	find "$1" -name '*.ring' | wc -l
}

# check NAME TRACE M [FIRST [LOST]]: babeltrace2 silent (or, with LOST, saying only that each
# thread's stream lost LOST packets), tracekit print the same, each thread's events FIRST
# (default 0)..M-1, each once
check() {
	name=$1
	ctrace=$2
	want=$3
	first=${4:-0}
	lost=${5:-}
	babeltrace2 "$ctrace" >"$tmp/bt.out" 2>"$tmp/bt.err" ||
		fail "$name: babeltrace2 exited with $? ($(head -c 300 "$tmp/bt.err"))"
	if [ -n "$lost" ]; then
		n=$(grep -c "^WARNING: Tracer discarded $lost packets\{0,1\} between " "$tmp/bt.err")
		[ "$n" -eq 2 ] && [ "$(wc -l <"$tmp/bt.err")" -eq 2 ] ||
			fail "$name: want $lost packets lost per thread, babeltrace2 said: $(head -c 300 "$tmp/bt.err")"
	else
		[ -s "$tmp/bt.err" ] && fail "$name: babeltrace2 said: $(head -c 300 "$tmp/bt.err")"
	fi
	"$tracekit" print "$ctrace" >"$tmp/tk.out" 2>"$tmp/tk.err" ||
		fail "$name: tracekit print exited with $? ($(head -c 300 "$tmp/tk.err"))"
	cmp -s "$tmp/bt.out" "$tmp/tk.out" || {
		diff "$tmp/bt.out" "$tmp/tk.out" | head -5
		fail "$name: tracekit print differs from babeltrace2"
	}
	cmp -s "$tmp/bt.err" "$tmp/tk.err" || fail "$name: tracekit reports other losses than babeltrace2"

	seq "$first" $((want - 1)) >"$tmp/want"
	for t in 0 1; do
		sed -n "s/.*{ thread = $t, n = \([0-9]*\),.*/\1/p" "$tmp/bt.out" >"$tmp/got"
		cmp -s "$tmp/got" "$tmp/want" ||
			fail "$name: thread $t: $(wc -l <"$tmp/got") events, $(head -n 1 "$tmp/got")..$(tail -n 1 "$tmp/got"); want $first..$((want - 1))"
	done
	echo "$name: 2 threads x events $first..$((want - 1))"
}

# crash NAME MODE EVENTS [EVENTS-AFTER]: run ust-crash into $tmp/NAME/trace, rings in
# $shm_base/NAME ($trace and $shm set); its status in $rc (137: killed by SIGKILL)
crash() {
	name=$1
	mode=$2
	shift 2
	shm=$shm_base/$name
	trace=$tmp/$name/trace
	mkdir -p "$shm" "$tmp/$name"
	TRACEKIT_UST_SHM_DIR=$shm "$prog" "$mode" "$trace" "$@" >/dev/null 2>"$tmp/prog.err"
	rc=$?
	[ $rc -eq 137 ] || fail "$name: ust-crash exited with $rc, not by SIGKILL ($(cat "$tmp/prog.err"))"
}

# ---- noconsumer: everything from the rings ----
n=$((5 * per))
crash noconsumer noconsumer $n
[ "$(rings "$shm")" -eq 2 ] || fail "noconsumer: $(rings "$shm") ring files, want 2"
ls "$trace"/channel0_* >/dev/null 2>&1 && fail "noconsumer: stream files before the recovery"
"$tracekit" ust-recover "$shm" >"$tmp/rec.out" 2>"$tmp/rec.err" ||
	fail "noconsumer: ust-recover exited with $? ($(cat "$tmp/rec.err"))"
[ "$(rings "$shm")" -eq 0 ] || fail "noconsumer: ring files left after the recovery"
check noconsumer "$trace" $((4 * per)) # the ring holds 4 packets; the rest was dropped

# ---- flush: packets in stream files and in rings; -o; a stream file cut mid-packet ----
n1=$((2 * per + 10))
n2=$((2 * per))
crash flush flush $n1 $n2
for f in "$trace"/channel0_*; do
	[ "$(wc -c <"$f")" -eq $((p0 + 2 * full)) ] ||
		fail "flush: $f holds $(wc -c <"$f") bytes, want the 2 packets the flush wrote"
done
want=$(closed $((n1 + n2)))
(cd "$tmp/flush" && find trace -type f -exec md5sum {} + | sort) >"$tmp/before"
"$tracekit" ust-recover -o "$tmp/flush/copy" "$shm" >"$tmp/rec.out" 2>"$tmp/rec.err" ||
	fail "flush -o: ust-recover exited with $? ($(cat "$tmp/rec.err"))"
(cd "$tmp/flush" && find trace -type f -exec md5sum {} + | sort) >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || fail "flush -o: the original trace changed"
[ "$(rings "$shm")" -eq 2 ] || fail "flush -o: ring files removed"
check "flush -o" "$tmp/flush/copy/trace" "$want"
# the consumer killed in the middle of its second packet: cut back, then that packet again
f=$(ls "$trace"/channel0_* | head -n 1)
truncate -s $((p0 + full + 100)) "$f"
"$tracekit" ust-recover "$shm" >"$tmp/rec.out" 2>"$tmp/rec.err" ||
	fail "flush: ust-recover exited with $? ($(cat "$tmp/rec.err"))"
# the ring holds packets 1 to 3 (packet 4, open, took packet 0's sub-buffer)
grep -q "3 packets appended to $f (a partial packet of 100 bytes cut)" "$tmp/rec.out" ||
	fail "flush: want 3 packets appended to $f, 100 bytes cut: $(cat "$tmp/rec.out")"
grep -q "2 packets appended to .* (1 already there)" "$tmp/rec.out" ||
	fail "flush: want 2 packets appended, 1 there, for the whole stream: $(cat "$tmp/rec.out")"
ls -A "$trace" | grep -q '^\.' && fail "flush: temporary files left in the trace: $(ls -A "$trace")"
check flush "$trace" "$want"

# ---- wait: consumer running, killed from outside ----
n=$((12 * per + 7))
shm=$shm_base/wait
trace=$tmp/wait/trace
mkdir -p "$shm" "$tmp/wait"
TRACEKIT_UST_SHM_DIR=$shm "$prog" wait "$trace" $n >"$tmp/wait.out" 2>"$tmp/prog.err" &
pid=$!
i=0
until grep -q ready "$tmp/wait.out" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 600 ] || ! kill -0 $pid 2>/dev/null; then
		kill -9 $pid 2>/dev/null
		fail "wait: ust-crash not ready ($(cat "$tmp/prog.err"))"
	fi
	sleep 0.1
done
"$tracekit" ust-recover "$shm" >"$tmp/rec.out" 2>"$tmp/rec.err"
rc=$?
[ $rc -eq 0 ] || fail "wait: ust-recover of a live process exited with $rc ($(cat "$tmp/rec.err"))"
grep -q "process $pid is still running" "$tmp/rec.err" ||
	fail "wait: the live process is not said: $(cat "$tmp/rec.err")"
[ "$(rings "$shm")" -eq 2 ] || fail "wait: ring files of a live process removed"
kill -9 $pid
wait $pid 2>/dev/null
for f in "$trace"/channel0_*; do
	[ "$(wc -c <"$f")" -ge $((p0 + 10 * full)) ] ||
		fail "wait: $f holds $(wc -c <"$f") bytes: the consumer wrote less than it must have"
done
"$tracekit" ust-recover "$shm" >"$tmp/rec.out" 2>"$tmp/rec.err" ||
	fail "wait: ust-recover exited with $? ($(cat "$tmp/rec.err"))"
cat "$tmp/rec.out"
check wait "$trace" "$(closed $n)"
# again: nothing left to do, nothing twice
"$tracekit" ust-recover "$shm" >"$tmp/rec.out" 2>&1 || fail "wait: second ust-recover failed"
check "wait, recovered twice" "$trace" "$(closed $n)"

# ---- consumer: the consumer running, the process kills itself after its last event ----
n=$((8 * per + 3))
crash consumer consumer $n
"$tracekit" ust-recover "$shm" >"$tmp/rec.out" 2>"$tmp/rec.err" ||
	fail "consumer: ust-recover exited with $? ($(cat "$tmp/rec.err"))"
cat "$tmp/rec.out"
check consumer "$trace" "$(closed $n)"

# ---- overwrite mode: no stream files, the rings' newest closed packets go to DIR/crash-PID,
# whose metadata the runtime kept; packet 1 holds events 0..per-1 (0 is the snapshots'), the
# open packet 5 took packet 1's sub-buffer: packets 2 to 4 are recovered, after a packet 0
# that makes readers report packet 1 lost ----
n=$((5 * per))
export TRACEKIT_UST_MODE=overwrite
crash overwrite noconsumer $n
unset TRACEKIT_UST_MODE
crashdir=$(ls -d "$trace"/crash-* 2>/dev/null)
[ -n "$crashdir" ] && [ -f "$crashdir/metadata" ] || fail "overwrite: no crash-PID directory with metadata: $(ls -R "$trace")"
"$tracekit" ust-recover "$shm" >"$tmp/rec.out" 2>"$tmp/rec.err" ||
	fail "overwrite: ust-recover exited with $? ($(cat "$tmp/rec.err"))"
check overwrite "$crashdir" $((4 * per)) "$per" 1
# a clean end leaves neither ring files nor the crash directory
shm=$shm_base/overwrite-clean
mkdir -p "$shm" "$tmp/overwrite-clean"
TRACEKIT_UST_MODE=overwrite TRACEKIT_UST_SHM_DIR=$shm "$prog" clean "$tmp/overwrite-clean/trace" 100 2>"$tmp/prog.err" ||
	fail "overwrite clean: ust-crash exited with $? ($(cat "$tmp/prog.err"))"
[ "$(rings "$shm")" -eq 0 ] || fail "overwrite clean: ring files left by a normal exit"
ls -d "$tmp/overwrite-clean/trace"/crash-* >/dev/null 2>&1 && fail "overwrite clean: crash directory left"
ls -d "$tmp/overwrite-clean/trace"/snapshot-* >/dev/null 2>&1 || fail "overwrite clean: no snapshot at the end"

# ---- clean: a normal end removes the ring files ----
shm=$shm_base/clean
mkdir -p "$shm" "$tmp/clean"
n=$((3 * per + 5))
TRACEKIT_UST_SHM_DIR=$shm "$prog" clean "$tmp/clean/trace" $n 2>"$tmp/prog.err" ||
	fail "clean: ust-crash exited with $? ($(cat "$tmp/prog.err"))"
[ "$(rings "$shm")" -eq 0 ] || fail "clean: $(rings "$shm") ring files left by a normal exit"
check clean "$tmp/clean/trace" $n

# ---- damaged ring files: status 1, one line, the trace untouched, the rings kept ----
n=$((5 * per))
crash damage noconsumer $n
cp -r "$shm" "$tmp/damage/pristine"
(cd "$tmp/damage" && find trace -type f -exec md5sum {} + | sort) >"$tmp/before"
# damage NAME REASON COMMAND...: COMMAND damages $ring
damage() {
	name=$1
	reason=$2
	shift 2
	rm -rf "$shm"
	cp -r "$tmp/damage/pristine" "$shm"
	ring=$(ls "$shm"/*.ring | head -n 1)
	"$@"
	"$tracekit" ust-recover "$shm" >"$tmp/rec.out" 2>"$tmp/rec.err"
	rc=$?
	[ $rc -eq 1 ] || fail "damage $name: ust-recover exited with $rc, want 1 ($(cat "$tmp/rec.err"))"
	[ "$(wc -l <"$tmp/rec.err")" -eq 1 ] && grep -q "^tracekit: Cannot recover traces: .*$reason" "$tmp/rec.err" ||
		fail "damage $name: want one line saying '$reason': $(cat "$tmp/rec.err")"
	(cd "$tmp/damage" && find trace -type f -exec md5sum {} + | sort) >"$tmp/after"
	cmp -s "$tmp/before" "$tmp/after" || fail "damage $name: the trace changed"
	[ "$(rings "$shm")" -eq 2 ] || fail "damage $name: ring files removed"
	echo "damage $name: $(cat "$tmp/rec.err")"
}
# put OFFSET OCTAL-ESCAPES: bytes written over $ring at OFFSET
put() {
	# shellcheck disable=SC2059 # the bytes are the format
	printf "$2" | dd of="$ring" bs=1 seek="$1" conv=notrunc 2>/dev/null
}
# cut SIZE: $ring cut to SIZE bytes
cut() {
	truncate -s "$1" "$ring"
}
damage truncated "reason=sub-buffers beyond the file" cut 10000
damage short "reason=truncated" cut 100
damage magic "reason=bad magic" put 0 'X'
damage subbuf-size "reason=sizes out of range" put 24 '\377\377\377\377\377\377\377\177'
damage subbuf-count "reason=sizes out of range" put 20 '\377\377\000\000'
# packet_size of sub-buffer 0 (data at 8192 on 4 KiB pages: read the offset from the header)
data_off=$(od -An -tu4 -j16 -N4 "$tmp/damage/pristine/$(ls "$tmp/damage/pristine" | head -n 1)" | tr -d ' ')
damage packet-size "reason=sizes out of range" put $((data_off + 56)) '\000\000\001\000\000\000\000\000'
damage packet-magic "reason=bad magic" put $((data_off + 1)) 'Z'
damage packet-uuid "reason=UUID of another trace" put $((data_off + 4)) 'Z'
# and the pristine rings recover
rm -rf "$shm"
cp -r "$tmp/damage/pristine" "$shm"
"$tracekit" ust-recover -q "$shm" 2>"$tmp/rec.err" || fail "damage: pristine rings: $(cat "$tmp/rec.err")"
check damage "$trace" $((4 * per))

# usage errors
"$tracekit" ust-recover >/dev/null 2>&1
[ $? -eq 2 ] || fail "ust-recover without SHMDIR: want status 2"
"$tracekit" ust-recover "$tmp/no-such-dir" >/dev/null 2>"$tmp/rec.err"
[ $? -eq 1 ] && grep -q '^tracekit: Cannot recover traces: Cannot read ring directory' "$tmp/rec.err" ||
	fail "ust-recover of a missing directory: $(cat "$tmp/rec.err")"
exit 0
