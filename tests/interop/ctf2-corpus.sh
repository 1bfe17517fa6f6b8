#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: CTF 2 (JSON metadata) traces of the shared corpus, ctf/traces/ctf2/, whose data
# streams are those of their CTF 1.8 twins and which babeltrace2 2.1 prints exactly as the twins
# (corpus README). For every twin T that babeltrace2 2.0.4's stored output covers:
#   1. `tracekit print traces/ctf2/T` prints expect-babeltrace2/T.txt, and with
#      `--clock-seconds --names=all --fields=all` T.all.txt, with babeltrace2's exit status class
#      (the oracle: babeltrace2 on the twin);
#   2. its output, stderr and exit status are the same as `tracekit print traces/T`'s in four
#      option sets (the CTF 2 reader gives the model the CTF 1.8 reader gives, which tests/interop
#      checks against babeltrace2 on its own), which also covers meta-ctx-sequence, on which
#      babeltrace2 2.0.4 aborts;
#   3. a CTF 2 trace without a twin (meta-clk-cls-before-trace-cls: metadata only) reads;
#   4. the traces under ctf2/fail are refused: exit status 1, one "tracekit: Cannot" line;
#   5. `tracekit info` names the format "CTF 2".
#
# Usage: ctf2-corpus.sh TRACEKIT CORPUS_DIR      (exits 77 when the corpus is absent)
set -u
tk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$2
if [ ! -d "$corpus/ctf/traces/ctf2" ]; then
	echo "skip: shared corpus CTF 2 traces not found at $corpus/ctf/traces/ctf2" >&2
	exit 77
fi
cd "$corpus/ctf" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
failures=0
checked=0

fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}

# oracle NAME WANT_TXT WANT_RC ARGS...
oracle() {
	name=$1
	want_txt=$2
	want_rc=$3
	shift 3
	checked=$((checked + 1))
	"$tk" print "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if ! cmp -s "$tmp/out" "$want_txt"; then
		fail "$name: stdout differs from $want_txt"
		diff "$want_txt" "$tmp/out" | head -n 6 | sed 's/^/    /'
		head -n 3 "$tmp/err" | sed 's/^/    /'
	fi
	if { [ "$want_rc" -eq 0 ] && [ "$rc" -ne 0 ]; } || { [ "$want_rc" -ne 0 ] && [ "$rc" -ne 1 ]; }; then
		fail "$name: exit status $rc, babeltrace2's on the twin $want_rc"
		head -n 3 "$tmp/err" | sed 's/^/    /'
	fi
}

# twin NAME ARGS...: traces/ctf2/NAME and traces/NAME print the same
twin() {
	name=$1
	shift
	checked=$((checked + 1))
	"$tk" print "$@" "traces/ctf2/$name" >"$tmp/o2" 2>"$tmp/e2"
	rc2=$?
	"$tk" print "$@" "traces/$name" >"$tmp/o1" 2>"$tmp/e1"
	rc1=$?
	# causes and JSON lines name the trace's path, which differs by "ctf2/"
	sed 's|traces/ctf2/|traces/|g' "$tmp/e2" >"$tmp/e2n"
	sed 's|traces/ctf2/|traces/|g' "$tmp/o2" >"$tmp/o2n"
	if [ $rc1 -ne $rc2 ] || ! cmp -s "$tmp/o1" "$tmp/o2n" || ! cmp -s "$tmp/e1" "$tmp/e2n"; then
		fail "$name ($*): CTF 2 twin prints otherwise (exit $rc2, CTF 1.8 exit $rc1)"
		diff "$tmp/o1" "$tmp/o2n" | head -n 4 | sed 's/^/    /'
		diff "$tmp/e1" "$tmp/e2n" | head -n 4 | sed 's/^/    /'
	fi
}

n_twins=0
for dir in $(cd traces/ctf2 && find succeed intersection -mindepth 1 -maxdepth 1 -type d | sort); do
	n_twins=$((n_twins + 1))
	if [ ! -d "traces/$dir" ]; then # a CTF 2 case of its own (metadata only): must read
		checked=$((checked + 1))
		"$tk" print "traces/ctf2/$dir" >"$tmp/out" 2>"$tmp/err" ||
			fail "$dir (no twin): exit status $?: $(head -n 2 "$tmp/err")"
		continue
	fi
	if [ "$dir" = succeed/meta-ctx-sequence ]; then
		: # babeltrace2 2.0.4 aborts on the twin: no oracle but the CTF 1.8 reader
	elif [ -f "expect-babeltrace2/$dir.rc" ]; then
		oracle "$dir" "expect-babeltrace2/$dir.txt" "$(cat "expect-babeltrace2/$dir.rc")" \
			"traces/ctf2/$dir"
		oracle "$dir (all)" "expect-babeltrace2/$dir.all.txt" \
			"$(cat "expect-babeltrace2/$dir.all.rc")" \
			--clock-seconds --names=all --fields=all "traces/ctf2/$dir"
	else
		fail "$dir: no stored babeltrace2 output for its twin"
	fi
	twin "$dir"
	twin "$dir" --clock-seconds --names=all --fields=all
	twin "$dir" --clock-cycles --no-delta
	twin "$dir" --style json
done
[ "$n_twins" -ge 25 ] || fail "only $n_twins CTF 2 traces found"

for dir in traces/ctf2/fail/*/; do
	checked=$((checked + 1))
	"$tk" print "$dir" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q '^tracekit: Cannot ' "$tmp/err"; then
		fail "$dir: want exit status 1 and one 'tracekit: Cannot' line, got $rc:"
		head -n 3 "$tmp/err" | sed 's/^/    /'
	fi
done

checked=$((checked + 1))
"$tk" info traces/ctf2/succeed/smalltrace >"$tmp/info" 2>&1 || fail "info on a CTF 2 trace failed"
grep -q 'CTF 2' "$tmp/info" || fail "info does not say CTF 2: $(head -n 5 "$tmp/info")"

echo "checked $checked runs of $n_twins CTF 2 traces, $failures failed"
[ $failures -eq 0 ]
