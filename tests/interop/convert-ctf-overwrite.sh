#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: CTF to CTF of a trace shaped as an LTTng overwrite-mode (flight recorder)
# snapshot (tests/interop/ctf-overwrite.py): packets whose packet_seq_num skips and whose
# events_discarded grew at the same packet, so that babeltrace2 reports discarded events up
# to that packet's end and discarded packets, from the same time, up to its beginning.
# `tracekit convert ORIGINAL -o OUT` must succeed, and babeltrace2 prints OUT as it prints
# the original: stdout byte for byte, and the same WARNING lines on stderr (counts and time
# ranges; the stream paths aside); `tracekit print` of OUT prints what it prints for the
# original, WARNING lines included. babeltrace2's reading of the original is checked too: the
# seven WARNING lines the trace was written to give.
#
# Usage: convert-ctf-overwrite.sh TRACEKIT   (exits 77 without babeltrace2 or python3)
set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ
for tool in babeltrace2 python3; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "skip: $tool not found in PATH" >&2
		exit 77
	fi
done
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}
# the stream paths differ: keep what babeltrace2 says of the loss
losses() {
	sed -n 's/ within stream "[^"]*"/ within stream/p' "$1" | grep WARNING
}

cd "$tmp" || exit 1
python3 "$here/ctf-overwrite.py" orig || {
	echo "FAIL: ctf-overwrite.py"
	exit 1
}
babeltrace2 orig >bt-orig.txt 2>bt-orig.err || fail "babeltrace2 orig exits $?"
losses bt-orig.err >want-losses.txt
cat >hand.txt <<'HAND'
WARNING: Tracer may have discarded events between [22:13:20.000001500] and [22:13:20.000002500] in trace "" (no UUID) within stream (stream class ID: 0, stream ID: 1).
WARNING: Tracer discarded 10 events between [22:13:20.000002000] and [22:13:20.000006000] in trace "" (no UUID) within stream (stream class ID: 0, stream ID: 0).
WARNING: Tracer discarded 2 packets between [22:13:20.000002000] and [22:13:20.000005000] in trace "" (no UUID) within stream (stream class ID: 0, stream ID: 0).
WARNING: Tracer discarded 5 events between [22:13:20.000002500] and [22:13:20.000004500] in trace "" (no UUID) within stream (stream class ID: 0, stream ID: 1).
WARNING: Tracer discarded 2 packets between [22:13:20.000002500] and [22:13:20.000004000] in trace "" (no UUID) within stream (stream class ID: 0, stream ID: 1).
WARNING: Tracer discarded 5 events between [22:13:20.000007000] and [22:13:20.000009000] in trace "" (no UUID) within stream (stream class ID: 0, stream ID: 0).
WARNING: Tracer discarded 1 packet between [22:13:20.000007000] and [22:13:20.000008000] in trace "" (no UUID) within stream (stream class ID: 0, stream ID: 0).
HAND
cmp -s hand.txt want-losses.txt || fail "babeltrace2 reads the generated trace otherwise than it was written to: $(diff hand.txt want-losses.txt | head -5)"

if ! "$tk" convert orig -o out 2>conv.err; then
	fail "tracekit convert: $(cat conv.err)"
else
	babeltrace2 out >bt-out.txt 2>bt-out.err || fail "babeltrace2 out exits $?"
	cmp -s bt-orig.txt bt-out.txt || fail "babeltrace2 stdout differs: $(diff bt-orig.txt bt-out.txt | head -5)"
	losses bt-out.err >got-losses.txt
	cmp -s want-losses.txt got-losses.txt ||
		fail "babeltrace2 WARNING lines differ: $(diff want-losses.txt got-losses.txt | head -6)"
	"$tk" print orig 2>&1 | sed 's/ within stream "[^"]*"/ within stream/' >tk-orig.txt
	"$tk" print out 2>&1 | sed 's/ within stream "[^"]*"/ within stream/' >tk-out.txt
	cmp -s tk-orig.txt tk-out.txt || fail "tracekit print differs: $(diff tk-orig.txt tk-out.txt | head -6)"
fi

if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "ok: an overwrite-mode trace converted to CTF reads as the original in babeltrace2 and tracekit"
