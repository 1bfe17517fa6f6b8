#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: the counts of `tracekit info` (tk_trace_count(), src/pipeline/count.c, which
# reads the streams on threads when there are cores for them) against what the peers print.
#   1. CTF: for every trace of the shared corpus that babeltrace2 reads (exit 0), for
#      lttng-ust-sample, and for generated traces of 1, 2 and 5 streams: the number of events
#      of each event name and in all, against the event lines of babeltrace2's
#      sink.text.details (compact: one line per message, the event's name between
#      backquotes);
#   2. trace.dat: for every trace.dat file of the corpus and generated files of 2 and 4 CPUs
#      with losses: the same against the lines of `trace-cmd report` (the name follows the
#      timestamp);
#   3. damage in the second stream or CPU (bytes overwritten): exit status 1, and the event
#      count is that of the events `tracekit print` prints before its error (a merged read
#      in time order, which print's tests check against the peers), not what the threads
#      had read of each stream.
# Generated traces need no corpus; each peer's part is skipped where the peer is missing,
# and the whole test exits 77 when neither is there.
#
# Usage: info-counts.sh TRACEKIT GEN_CTF GEN_DAT [CORPUS_DIR]
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
gen_ctf=$(abspath "$2")
gen_dat=$(abspath "$3")
corpus=${4:-}
have_bt=0
have_tc=0
command -v babeltrace2 >/dev/null 2>&1 && have_bt=1
command -v trace-cmd >/dev/null 2>&1 && have_tc=1
if [ $have_bt -eq 0 ] && [ $have_tc -eq 0 ]; then
	echo "skip: neither babeltrace2 nor trace-cmd found in PATH" >&2
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checked=0

fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}

# info_names: "name<TAB>count" lines of the class table of `tracekit info` in $tmp/info, summed
# by name (classes of several stream classes may share one), sorted; and the total.
info_names() {
	awk '/^  +events  name / { t = 1; next }
		t && $1 ~ /^[0-9]+$/ { c = $1; sub(/^ *[0-9]+  /, ""); sub(/ \([0-9]+, [0-9]+\)$/, "")
			n[$0] += c }
		END { for (k in n) if (n[k]) print k "\t" n[k] }' "$tmp/info" | sort
}
info_total() {
	sed -n 's/^Events: *\([0-9][0-9]*\).*/\1/p' "$tmp/info"
}

# same_counts NAME: compare $tmp/info with the "name<TAB>count" lines in $tmp/want.
same_counts() {
	checked=$((checked + 1))
	info_names >"$tmp/got"
	if ! cmp -s "$tmp/got" "$tmp/want"; then
		fail "$1: counts by event name differ from the peer's"
		diff "$tmp/want" "$tmp/got" | head -n 6 | sed 's/^/    /'
		return
	fi
	want_total=$(awk -F '\t' '{ s += $2 } END { print s + 0 }' "$tmp/want")
	if [ "$(info_total)" != "$want_total" ]; then
		fail "$1: info counts $(info_total) events, the peer $want_total"
	fi
}

# ctf_check NAME TRACE: tracekit info against babeltrace2, when babeltrace2 reads it whole.
ctf_check() {
	babeltrace2 "$2" -c sink.text.details -p compact=yes,with-metadata=no >"$tmp/bt" \
		2>/dev/null || return 0
	# one line per message; an event's: "[times] {ids} Event `NAME` (ID, digits grouped)"
	sed -n 's/^[^{]*{[0-9 ]*} Event `\(.*\)` ([0-9,]*)$/\1/p' "$tmp/bt" |
		awk '{ n[$0]++ } END { for (k in n) print k "\t" n[k] }' | sort >"$tmp/want"
	if ! "$tk" info "$2" >"$tmp/info" 2>"$tmp/err"; then
		fail "$1: tracekit info failed where babeltrace2 did not"
		head -n 3 "$tmp/err" | sed 's/^/    /'
		return
	fi
	same_counts "$1"
}

# dat_check NAME FILE: tracekit info against trace-cmd report.
# tc_names: "name<TAB>count" of the event lines of trace-cmd report in $tmp/tc (the name
# follows the timestamp), sorted, into $tmp/want.
tc_names() {
	awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			name = $(i + 1); sub(/:$/, "", name); n[name]++; break } }
		END { for (k in n) print k "\t" n[k] }' "$tmp/tc" | sort >"$tmp/want"
}

dat_check() {
	trace-cmd report "$2" >"$tmp/tc" 2>"$tmp/tc.err" || return 0
	tc_names
	if [ ! -s "$tmp/want" ]; then
		# under load, runs have printed no event line with exit status 0 (twice in CI,
		# the second time with other lines printed): ask again
		echo "note $1: trace-cmd report printed no event, run again" >&2
		head -n 3 "$tmp/tc.err" >&2
		trace-cmd report "$2" >"$tmp/tc" 2>"$tmp/tc.err" || return 0
		tc_names
	fi
	if ! "$tk" info "$2" >"$tmp/info" 2>"$tmp/err"; then
		fail "$1: tracekit info failed where trace-cmd report did not"
		head -n 3 "$tmp/err" | sed 's/^/    /'
		return
	fi
	same_counts "$1"
}

# damaged NAME TRACE PATTERN: exit 1, and the events counted are those print prints before
# failing (its lines matching PATTERN: trace-cmd's style has a "cpus=" line first).
damaged() {
	checked=$((checked + 1))
	"$tk" print "$2" >"$tmp/out" 2>/dev/null
	prc=$?
	"$tk" info "$2" >"$tmp/info" 2>"$tmp/err"
	rc=$?
	if [ $prc -ne 1 ] || [ $rc -ne 1 ]; then
		fail "$1: print exit $prc, info exit $rc, want 1 and 1"
		return
	fi
	if [ "$(grep -c '^tracekit: Cannot ' "$tmp/err")" -ne 1 ]; then
		fail "$1: want one 'tracekit: Cannot ...' line on stderr"
		head -n 3 "$tmp/err" | sed 's/^/    /'
	fi
	want=$(grep -c -e "$3" "$tmp/out")
	if [ "$(info_total)" != "$want" ]; then
		fail "$1: info counts $(info_total) events before the damage, print printed $want"
	fi
}

# overwrite FILE OFFSET COUNT: COUNT bytes of 0xff at OFFSET, in place.
overwrite() {
	head -c "$3" /dev/zero | tr '\0' '\377' |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# ---- 1. CTF ------------------------------------------------------------------------------
if [ $have_bt -eq 1 ]; then
	for n in 1 2 5; do
		"$gen_ctf" --layout lttng --streams $n --packet-size 4096 --events 20000 \
			"$tmp/g$n" >/dev/null 2>&1 || fail "gen-ctf --streams $n failed"
		ctf_check "gen-ctf, $n streams" "$tmp/g$n"
	done
	if [ -n "$corpus" ] && [ -d "$corpus/ctf/traces" ]; then
		for d in $(cd "$corpus/ctf/traces" && find . -name metadata | sort); do
			t=$(dirname "$d")
			ctf_check "corpus ${t#./}" "$corpus/ctf/traces/$t"
		done
		[ -d "$corpus/ctf/lttng-ust-sample" ] &&
			ctf_check lttng-ust-sample "$corpus/ctf/lttng-ust-sample"
	fi
fi

# ---- 2. trace.dat ------------------------------------------------------------------------
if [ $have_tc -eq 1 ]; then
	"$gen_dat" -n 20000 -c 2 "$tmp/d2.dat" >/dev/null 2>&1 || fail "gen-dat -c 2 failed"
	dat_check "gen-dat, 2 CPUs" "$tmp/d2.dat"
	"$gen_dat" -n 20000 -c 4 --missed "$tmp/d4.dat" >/dev/null 2>&1 ||
		fail "gen-dat -c 4 --missed failed"
	dat_check "gen-dat, 4 CPUs, losses" "$tmp/d4.dat"
	if [ -n "$corpus" ] && [ -d "$corpus/tracedat" ]; then
		for f in "$corpus"/tracedat/*.dat; do
			dat_check "corpus $(basename "$f")" "$f"
		done
	fi
fi

# ---- 3. damage on a thread ---------------------------------------------------------------
"$gen_ctf" --layout lttng --streams 2 --packet-size 4096 --events 20000 "$tmp/dmg" \
	>/dev/null 2>&1 || fail "gen-ctf for damage failed"
second=$(find "$tmp/dmg" -type f -name '*_1' | head -n 1)
if [ -n "$second" ]; then
	size=$(wc -c <"$second")
	overwrite "$second" $((size / 2)) 64
	damaged "CTF, second stream overwritten in its middle" "$tmp/dmg" '^\['
else
	fail "gen-ctf wrote no second stream file"
fi
"$gen_dat" -n 20000 -c 2 "$tmp/dmg.dat" >/dev/null 2>&1 ||
	fail "gen-dat for damage failed"
size=$(wc -c <"$tmp/dmg.dat")
overwrite "$tmp/dmg.dat" $((size - size / 4)) 4096
damaged "trace.dat, a page of the last CPU overwritten" "$tmp/dmg.dat" \
	'-[0-9][0-9]* *\[[0-9]*\] '

echo "checked $checked, $failures failed"
[ $failures -eq 0 ]
