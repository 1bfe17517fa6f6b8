#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: `tracekit print` against babeltrace2 2.0.4 on the shared CTF corpus.
# For every trace directory T under ctf/traces (except ctf2/), stdout must equal what
# babeltrace2 printed (expect-babeltrace2/T.txt), and with
# `--clock-seconds --names=all --fields=all` (T.all.txt); the exit status must be 0 where
# babeltrace2's was 0 and 1 elsewhere, with the cause on one stderr line ("tracekit: Cannot
# ...") after the events babeltrace2 printed before the damage. lttng-ust-sample is compared
# the same way.
# meta-ctx-sequence makes babeltrace2 abort, so it is checked by tests/cli instead.
#
# Usage: ctf-corpus.sh TRACEKIT CORPUS_DIR      (exits 77 when the corpus is absent)
set -u
tk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$2
if [ ! -d "$corpus/ctf/traces" ]; then
	echo "skip: shared corpus not found at $corpus/ctf" >&2
	exit 77
fi
cd "$corpus/ctf" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
failures=0
checked=0

# compare NAME EXPECTED_TXT EXPECTED_RC TRACEKIT-ARGS...
compare() {
	name=$1
	want_txt=$2
	want_rc=$3
	shift 3
	checked=$((checked + 1))
	"$tk" print "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ok=1
	if ! cmp -s "$tmp/out" "$want_txt"; then
		ok=0
		echo "FAIL $name: stdout differs from $(basename "$want_txt")"
		diff "$want_txt" "$tmp/out" | head -n 6 | sed 's/^/    /'
	fi
	if [ "$want_rc" -eq 0 ] && [ "$rc" -ne 0 ]; then
		ok=0
		echo "FAIL $name: exit status $rc, babeltrace2 succeeded"
		head -n 3 "$tmp/err" | sed 's/^/    /'
	elif [ "$want_rc" -ne 0 ] && [ "$rc" -eq 0 ]; then
		ok=0
		echo "FAIL $name: exit status 0, babeltrace2 failed with $want_rc"
	elif [ "$want_rc" -ne 0 ] &&
		{ [ "$(grep -vc '^WARNING: ' "$tmp/err")" -ne 1 ] ||
			! grep -v '^WARNING: ' "$tmp/err" | grep -q '^tracekit: Cannot '; }; then
		ok=0
		echo "FAIL $name: want one 'tracekit: Cannot ...' line on stderr (besides WARNINGs)"
		head -n 3 "$tmp/err" | sed 's/^/    /'
	fi
	if [ "$rc" -gt 1 ]; then
		ok=0
		echo "FAIL $name: exit status $rc (crash or usage error)"
		head -n 3 "$tmp/err" | sed 's/^/    /'
	fi
	[ $ok -eq 1 ] || failures=$((failures + 1))
}

for rcfile in $(cd expect-babeltrace2 && find . -name '*.rc' ! -name '*.all.rc' | sort); do
	t=${rcfile#./}
	t=${t%.rc}
	case $t in
	succeed/meta-ctx-sequence) continue ;;
	esac
	if [ ! -d "traces/$t" ]; then
		echo "FAIL $t: expected output without a trace"
		failures=$((failures + 1))
		continue
	fi
	compare "$t" "expect-babeltrace2/$t.txt" "$(cat "expect-babeltrace2/$t.rc")" "traces/$t"
	compare "$t (all)" "expect-babeltrace2/$t.all.txt" "$(cat "expect-babeltrace2/$t.all.rc")" \
		--clock-seconds --names=all --fields=all "traces/$t"
done
if [ -d lttng-ust-sample ]; then
	compare lttng-ust-sample lttng-ust-sample.expect-babeltrace2.txt 0 lttng-ust-sample
fi

echo "checked $checked runs, $failures failed"
[ $failures -eq 0 ]
