#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: CTF traces converted to CTF by `tracekit convert`, read by babeltrace2 2.0.4
# (the oracle) and by tracekit. The expected outputs are babeltrace2's own, stored with the
# shared corpus (expect-babeltrace2/T.txt, T.all.txt, T.stderr), never tracekit's.
#
# For every trace T of the corpus that babeltrace2 reads (succeed/, and the intersection/,
# packet-seq-num/ (lost packets), deterministic-ordering/ and live/ traces whose stored exit
# status is 0), and lttng-ust-sample (default output only):
#   1. `tracekit convert traces/T -o OUT` exits 0;
#   2. `babeltrace2 OUT` exits 0 and prints T.txt byte for byte; on stderr it prints nothing
#      but the "WARNING: Tracer discarded ..." lines it prints for the original (T.stderr),
#      the same but for the stream file's path, which is now in OUT;
#   3. `babeltrace2 --clock-seconds --names=all --fields=all OUT` prints T.all.txt, except
#      for one difference the conversion makes on purpose (below);
#   4. the round trip through tracekit's reader: `tracekit print OUT` prints what
#      `tracekit print traces/T` prints (every event, time and field), with the
#      default options and with --clock-seconds --names=all --fields=all.
# The one difference: session-rotation is an LTTng session rotated into chunk directories
# (3/, a/1/, a/2/) whose traces share a UUID per process; babeltrace2 merges each group into
# one trace named HOSTNAME alone, where a trace found alone in a directory is named
# HOSTNAME/PATH. The conversion writes each merged trace once, into OUT/3/ust/pid/PID (its
# path in the input), so --names=all shows "trace = HOSTNAME/3/ust/pid/PID"; for that trace
# alone, step 3 and the --names=all round trip compare with that path taken out of the
# trace name. Everything else (names, times, fields, order) must match as it is.
# meta-ctx-sequence makes babeltrace2 abort (an assertion in 2.0.4, on the original as on the
# converted trace), so it only takes step 1 and the round trip of step 4.
#
# Then:
#   5. selection: lttng-tracefile-rotation converted with -e 'sched_wak*' -e sched_switch,
#      and with --begin and --end (the times of its 1000th and 5000th events): babeltrace2
#      prints exactly the lines of T.all.txt of those events, or in that window (both ends
#      included), deltas aside (they follow from the events kept); multi-domains converted
#      with -e sample_component:message prints its user-space events only;
#   6. damage: every trace of traces/fail and every other trace on which babeltrace2 fails,
#      and a copy of a good trace cut short, fail to convert with exit status 1, one
#      "tracekit: Cannot ..." line, and no output left; an output that exists and is not an
#      empty directory is refused and left as it was.
#
# Usage: convert-ctf-ctf.sh TRACEKIT CORPUS_DIR   (exits 77 without the corpus or babeltrace2)
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
corpus=${2:-}
if [ -z "$corpus" ] || [ ! -d "$corpus/ctf/traces/succeed" ]; then
	echo "skip: shared corpus not found at '$corpus/ctf'" >&2
	exit 77
fi
cd "$corpus/ctf" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checked=0
all="--clock-seconds --names=all --fields=all"

fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

# same WHAT WANT GOT
same() {
	checked=$((checked + 1))
	if ! cmp -s "$2" "$3"; then
		fail "$1: $(diff "$2" "$3" | grep -c '^>') lines differ (< expected, > got)"
		diff "$2" "$3" | grep '^[<>]' | head -n 4 | cut -c 1-200 | sed 's/^/    /'
	fi
}

# unchunk FILE: the trace names of --names=all lines without their path (session-rotation)
unchunk() {
	sed 's/, trace = \([^,/]*\)\/[^,]*, , /, trace = \1, , /' "$1"
}

# babeltrace NAME OUT [OPTIONS...]: babeltrace2 on the converted trace, into $tmp/bt.out and
# $tmp/bt.err; it must exit 0 and write only "Tracer discarded" warnings on stderr
babeltrace() {
	name=$1
	out=$2
	shift 2
	checked=$((checked + 1))
	babeltrace2 "$@" "$out" >"$tmp/bt.out" 2>"$tmp/bt.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$name: babeltrace2 $* exits $rc: $(head -n 1 "$tmp/bt.err" | cut -c 1-200)"
		return 1
	fi
	if grep -v '^WARNING: Tracer discarded ' "$tmp/bt.err" | grep -q .; then
		fail "$name: babeltrace2 $* writes on stderr:"
		grep -v '^WARNING: Tracer discarded ' "$tmp/bt.err" | head -n 3 | cut -c 1-200 |
			sed 's/^/    /'
	fi
	return 0
}

bad_traces=
for rcfile in $(cd expect-babeltrace2 && find . -name '*.rc' ! -name '*.all.rc' | sort); do
	t=${rcfile#./}
	t=${t%.rc}
	case $t in
	fail/*) continue ;; # below, with the damaged inputs
	esac
	if [ "$(cat "expect-babeltrace2/$t.rc")" -ne 0 ] && [ "$t" != succeed/meta-ctx-sequence ]
	then
		bad_traces="$bad_traces $t"
		continue
	fi
	in=traces/$t
	out=$tmp/out/$(basename "$t")
	exp=expect-babeltrace2/$t
	convert "$t" "$in" "$out" || continue
	if [ "$t" != succeed/meta-ctx-sequence ]; then
		# 2. default output and warnings
		if babeltrace "$t" "$out"; then
			same "$t: babeltrace2" "$exp.txt" "$tmp/bt.out"
			sed -n 's/ within stream "[^"]*" / within stream "S" /p' "$exp.stderr" |
				grep '^WARNING: ' >"$tmp/want.warn"
			sed -n 's/ within stream "[^"]*" / within stream "S" /p' "$tmp/bt.err" \
				>"$tmp/got.warn"
			same "$t: babeltrace2 warnings" "$tmp/want.warn" "$tmp/got.warn"
		fi
		# 3. every field, time in seconds
		# shellcheck disable=SC2086 # $all is a list of options
		if babeltrace "$t (all)" "$out" $all; then
			if [ "$t" = succeed/session-rotation ]; then
				unchunk "$exp.all.txt" >"$tmp/want.all"
				unchunk "$tmp/bt.out" >"$tmp/got.all"
				same "$t: babeltrace2 $all" "$tmp/want.all" "$tmp/got.all"
			else
				same "$t: babeltrace2 $all" "$exp.all.txt" "$tmp/bt.out"
			fi
		fi
	fi
	# 4. the round trip through tracekit's reader
	"$tk" print "$in" >"$tmp/tk.in" 2>"$tmp/tk.in.err"
	rc_in=$?
	"$tk" print "$out" >"$tmp/tk.out" 2>"$tmp/tk.out.err"
	rc_out=$?
	[ $rc_in -eq $rc_out ] || fail "$t: tracekit print exits $rc_in on the input, $rc_out on the output"
	same "$t: tracekit print" "$tmp/tk.in" "$tmp/tk.out"
	# shellcheck disable=SC2086
	"$tk" print $all "$in" >"$tmp/tk.in" 2>/dev/null
	# shellcheck disable=SC2086
	"$tk" print $all "$out" >"$tmp/tk.out" 2>/dev/null
	if [ "$t" = succeed/session-rotation ]; then
		unchunk "$tmp/tk.in" >"$tmp/tk.in.u"
		unchunk "$tmp/tk.out" >"$tmp/tk.out.u"
		same "$t: tracekit print $all" "$tmp/tk.in.u" "$tmp/tk.out.u"
	else
		same "$t: tracekit print $all" "$tmp/tk.in" "$tmp/tk.out"
	fi
	case $t in
	succeed/succeed4 | succeed/meta-ctx-sequence | intersection/nostream) ;; # no events
	*) [ -s "$tmp/tk.in" ] || fail "$t: no events printed" ;;
	esac
	rm -rf "$out"
done
if [ -d lttng-ust-sample ] && convert lttng-ust-sample lttng-ust-sample "$tmp/ust" &&
	babeltrace lttng-ust-sample "$tmp/ust"; then
	same lttng-ust-sample lttng-ust-sample.expect-babeltrace2.txt "$tmp/bt.out"
	rm -rf "$tmp/ust"
fi

# 5. selection, against babeltrace2's lines for the original (deltas taken out)
nodelta() {
	sed 's/, delta = [^,]*, /, /' "$1"
}
t=lttng-tracefile-rotation
exp=expect-babeltrace2/succeed/$t.all.txt
if convert "$t -e" "traces/succeed/$t" "$tmp/sel" -e 'sched_wak*' -e sched_switch &&
	babeltrace "$t -e" "$tmp/sel" $all; then
	grep -E ', name = (sched_waking|sched_wakeup|sched_wakeup_new|sched_switch), ' "$exp" |
		nodelta /dev/stdin >"$tmp/want.sel"
	nodelta "$tmp/bt.out" >"$tmp/got.sel"
	[ "$(wc -l <"$tmp/want.sel")" -gt 1000 ] || fail "$t -e: too few events selected"
	same "$t -e" "$tmp/want.sel" "$tmp/got.sel"
fi
begin=$(sed -n '1000s/^timestamp = \([0-9.]*\),.*/\1/p' "$exp")
end=$(sed -n '5000s/^timestamp = \([0-9.]*\),.*/\1/p' "$exp")
if convert "$t --begin --end" "traces/succeed/$t" "$tmp/win" --begin="$begin" --end="$end" &&
	babeltrace "$t --begin --end" "$tmp/win" $all; then
	# the window by the timestamps' text: seconds, then nanoseconds (nine digits)
	awk -v b="$begin" -v e="$end" '
		function le(x, y,   xs, ys) {
			split(x, xs, "."); split(y, ys, ".")
			return xs[1] + 0 < ys[1] + 0 || (xs[1] == ys[1] && xs[2] <= ys[2])
		}
		{ ts = $3; sub(/,$/, "", ts); if (le(b, ts) && le(ts, e)) print }' "$exp" |
		nodelta /dev/stdin >"$tmp/want.win"
	nodelta "$tmp/bt.out" >"$tmp/got.win"
	[ "$(wc -l <"$tmp/want.win")" -ge 4000 ] || fail "$t --begin --end: window too small"
	same "$t --begin --end" "$tmp/want.win" "$tmp/got.win"
fi
t=multi-domains
if convert "$t -e" "traces/succeed/$t" "$tmp/md" -e sample_component:message &&
	babeltrace "$t -e" "$tmp/md" $all; then
	grep ', name = sample_component:message, ' "expect-babeltrace2/succeed/$t.all.txt" |
		nodelta /dev/stdin >"$tmp/want.md"
	nodelta "$tmp/bt.out" >"$tmp/got.md"
	same "$t -e" "$tmp/want.md" "$tmp/got.md"
fi

# 6. damaged inputs and outputs in the way
# damaged NAME IN: conversion fails cleanly and leaves nothing
damaged() {
	checked=$((checked + 1))
	rm -rf "$tmp/bad"
	"$tk" convert -q "$2" -o "$tmp/bad" >/dev/null 2>"$tmp/bad.err"
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "$1: convert exits $rc, want 1"
	elif [ "$(wc -l <"$tmp/bad.err")" -ne 1 ] || ! grep -q '^tracekit: Cannot ' "$tmp/bad.err"; then
		fail "$1: want one 'tracekit: Cannot ...' line on stderr"
		head -n 3 "$tmp/bad.err" | cut -c 1-200 | sed 's/^/    /'
	fi
	[ ! -e "$tmp/bad" ] || fail "$1: output left after a failed conversion"
}
for dir in traces/fail/*/; do
	damaged "fail/$(basename "$dir")" "$dir"
done
for t in $bad_traces; do
	damaged "$t" "traces/$t"
done
mkdir -p "$tmp/cut"
cp -R traces/succeed/trace-with-index "$tmp/cut/"
f=$tmp/cut/trace-with-index/ust_channel_1
head -c $(($(wc -c <"$f") / 2 + 5)) "$f" >"$f.part" && mv "$f.part" "$f"
rm -rf "$tmp/cut/trace-with-index/index" # a cut file does not match its index
damaged "trace-with-index cut in half" "$tmp/cut/trace-with-index"
checked=$((checked + 1))
mkdir -p "$tmp/busy" && echo keep >"$tmp/busy/file"
if "$tk" convert -q traces/succeed/smalltrace -o "$tmp/busy" 2>/dev/null; then
	fail "convert into a directory that is not empty succeeds"
fi
[ "$(cat "$tmp/busy/file" 2>/dev/null)" = keep ] && [ "$(ls "$tmp/busy")" = file ] ||
	fail "convert into a directory that is not empty changes it"

echo "checked $checked, $failures failed"
[ $failures -eq 0 ]
