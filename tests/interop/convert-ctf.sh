#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: trace.dat files converted to CTF by `tracekit convert`, read by babeltrace2
# (2.0.4, the oracle).
#
# Inputs: every trace.dat of the shared corpus; gen-dat files in several encodings (v6, v7
# zstd and zlib, big-endian with 32-bit longs, lost events, an instance buffer, a raw clock
# with a DATE option, TSC2NSEC and guest samples); and, as root with tracefs, a fresh
# `tracekit record` of sched, irq, timer and raw_syscalls. For each:
#   1. `tracekit convert IN -o DIR` exits 0;
#   2. `babeltrace2 DIR` exits 0 and writes nothing on stderr, except, for inputs that lost
#      events, babeltrace2's "Tracer discarded N events" warnings ("1 event"), whose counts must add up to
#      the losses of the input (its EVENTS DROPPED lines, an uncounted one as 1);
#   3. every event babeltrace2 prints has the name, timestamp and field values that
#      `tracekit print --style babeltrace IN` prints for the input: the two texts are equal
#      once babeltrace2's extra parts are taken out (the hostname it prints from the CTF
#      environment, and the ftrace common fields the conversion keeps as event context), and
#      compared as sorted lines without the time deltas, since events of equal time on
#      several CPUs come in an order each tool chooses;
#   4. `tracekit print DIR` (tracekit's CTF reader) prints exactly what babeltrace2 prints.
#
# Usage: convert-ctf.sh TRACEKIT GEN_DAT CORPUS_DIR   (exits 77 without babeltrace2)
# TRACEKIT_NO_TRACEFS=1 in the environment leaves the recording out (tracefs is machine-wide:
# for runs beside other users of it).
set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ
if ! command -v babeltrace2 >/dev/null 2>&1; then
	echo "skip: babeltrace2 not found in PATH" >&2
	exit 77
fi
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
gen=$(abspath "$2")
corpus=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checked=0
fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

# show_diff WANT GOT
show_diff() {
	diff "$1" "$2" | grep '^[<>]' | head -n 4 | cut -c 1-200 | sed 's/^/    /'
}

# check NAME IN: the four checks above.
check() {
	name=$1
	in=$2
	out=$tmp/ctf
	rm -rf "$out"
	checked=$((checked + 1))
	if ! "$tk" convert -q "$in" -o "$out" 2>"$tmp/err"; then
		fail "$name: tracekit convert: $(head -n 1 "$tmp/err")"
		return
	fi
	babeltrace2 "$out" >"$tmp/bt.txt" 2>"$tmp/bt.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$name: babeltrace2 exits $rc: $(head -n 1 "$tmp/bt.err" | cut -c 1-200)"
		return
	fi
	"$tk" print "$in" >"$tmp/in.txt"
	want=$(sed -n 's/^CPU:[0-9]* \[\([0-9]*\) EVENTS DROPPED\]$/\1/p;
		s/^CPU:[0-9]* \[EVENTS DROPPED\]$/1/p' "$tmp/in.txt" | awk '{ s += $1 } END { print s + 0 }')
	got=$(sed -n 's/^WARNING: Tracer discarded \([0-9]*\) events\{0,1\} .*/\1/p' "$tmp/bt.err" |
		awk '{ s += $1 } END { print s + 0 }')
	if grep -v '^WARNING: Tracer discarded [0-9]* events\{0,1\} ' "$tmp/bt.err" | grep -q .; then
		fail "$name: babeltrace2 complains: $(grep -v '^WARNING: Tracer discarded' \
			"$tmp/bt.err" | head -n 1 | cut -c 1-200)"
	fi
	[ "$got" -eq "$want" ] ||
		fail "$name: babeltrace2 reports $got discarded events, the input lost $want"
	# 3. the input's events, as babeltrace2 prints them
	host=$("$tk" info "$in" | sed -n 's/^ *uname = "[^ ]* \([^ ]*\) .*/\1/p' | head -n 1)
	# events of equal time on several CPUs have no set order (trace-cmd and babeltrace2
	# break ties their own ways): compare without the delta, lines sorted
	"$tk" print --style babeltrace "$in" | sed 's/ (+[^)]*)//' | sort >"$tmp/want.txt"
	# (a sequence's length is a member of its own in CTF, "_NAME_length", which the
	# source's fields do not have)
	sed -e "s/^\(\[[^]]*\] ([^)]*)\) $host /\1 /" \
		-e 's/ }, { common_type = [^}]*}, / }, /' -e 's/ (+[^)]*)//' \
		-e 's/ _[A-Za-z0-9_]*_length = [0-9]*,//g' "$tmp/bt.txt" |
		sort >"$tmp/got.txt"
	if ! cmp -s "$tmp/want.txt" "$tmp/got.txt"; then
		fail "$name: babeltrace2's events are not the input's" \
			"($(diff "$tmp/want.txt" "$tmp/got.txt" | grep -c '^>') lines differ)"
		show_diff "$tmp/want.txt" "$tmp/got.txt"
	fi
	[ "$(wc -l <"$tmp/want.txt")" -gt 0 ] || fail "$name: no events"
	# 4. tracekit's CTF reader on the converted trace
	"$tk" print "$out" >"$tmp/tk.txt" 2>/dev/null
	if ! cmp -s "$tmp/bt.txt" "$tmp/tk.txt"; then
		fail "$name: tracekit print of the CTF differs from babeltrace2"
		show_diff "$tmp/bt.txt" "$tmp/tk.txt"
	fi
	echo "$name: $(wc -l <"$tmp/bt.txt") events, $got discarded"
}

if [ -n "$corpus" ] && [ -d "$corpus/tracedat" ]; then
	for f in "$corpus"/tracedat/*.dat; do
		check "corpus $(basename "$f")" "$f"
	done
else
	echo "note: no shared corpus at '$corpus': corpus files left out"
fi

for spec in "v6:--file-version=6 -n 3000 -c 2 -S 1" \
	"zstd-lost:--compression=zstd --missed -n 6000 -c 3 -S 2" \
	"zlib-be-l4:--compression=zlib --byte-order=be --long-size=4 -n 3000 -c 2 -S 3" \
	"instance:--instance=foo -n 2000 -c 2 -S 4" \
	"tsc-date:--clock=x86-tsc --date -n 2000 -c 2 -S 5" \
	"mono-date:--clock=mono --date -n 2000 -c 2 -S 6" \
	"tsc2nsec-guest:--clock=x86-tsc --tsc2nsec --time-shift --offset=-5000 -n 2000 -c 3 -S 7"; do
	name=${spec%%:*}
	# shellcheck disable=SC2086 # a list of options
	if ! "$gen" ${spec#*:} "$tmp/in.dat" >/dev/null; then
		fail "gen-dat ${spec#*:}"
		continue
	fi
	check "gen-dat $name" "$tmp/in.dat"
done

if [ -n "${TRACEKIT_NO_TRACEFS:-}" ]; then
	echo "note: TRACEKIT_NO_TRACEFS is set: the fresh recording is left out"
elif [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/events/sched ]; then
	if "$tk" record -q -e sched -e irq -e timer -e raw_syscalls -o "$tmp/rec.dat" -- \
		sh -c 'i=0; while [ $i -lt 20 ]; do /bin/true; i=$((i + 1)); done' \
		>/dev/null 2>"$tmp/rec.err"; then
		check "recording" "$tmp/rec.dat"
	else
		fail "tracekit record: $(head -n 1 "$tmp/rec.err")"
	fi
else
	echo "note: not root or no tracefs: the fresh recording is left out"
fi

echo "$checked conversions, $failures failures"
[ $failures -eq 0 ]
