#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The command line contract: help on every command (COMMAND --help and help COMMAND), usage
# errors (status 2, one line naming the option), unreadable paths (status 1 with one line on
# stderr), an output that cannot be written (one line, no cause said twice), and the corpus trace babeltrace2 2.0.4 aborts on
# (meta-ctx-sequence: empty stream, sequences in the contexts) which must read cleanly.
# Usage: basics.sh TRACEKIT CORPUS-DIR
set -u
tk=$1
corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

expect_rc() {
	want=$1
	shift
	"$tk" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL: tracekit $*: exit status $rc, want $want"
		sed 's/^/    /' "$tmp/err" | head -n 3
		fail=1
		return 1
	fi
	return 0
}

for cmd in print info; do
	if expect_rc 0 "$cmd" --help && ! grep -q "^Usage: tracekit $cmd" "$tmp/out"; then
		echo "FAIL: tracekit $cmd --help does not show its usage"
		fail=1
	fi
	expect_rc 2 "$cmd"
	expect_rc 2 "$cmd" --no-such-option x
	if expect_rc 1 "$cmd" "$tmp/does-not-exist"; then
		if [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q '^tracekit: .*does-not-exist' "$tmp/err"; then
			echo "FAIL: tracekit $cmd on a missing path: want one line naming the path"
			cat "$tmp/err"
			fail=1
		fi
	fi
done
# one line per usage error, naming what is wrong and where the help is
one_line() {
	text=$1
	shift
	if expect_rc 2 "$@" && { [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qF -- "$text" "$tmp/err"; }; then
		echo "FAIL: tracekit $*: want one line with: $text"
		sed 's/^/    /' "$tmp/err"
		fail=1
	fi
}
one_line "tracekit print: unknown option '--stat' (see 'tracekit help print')" print --stat x
one_line "tracekit print: unknown option '--stat'" print --stat=3 x
one_line "tracekit info: unknown option '-Z'" info -Z x
one_line "tracekit convert: option '-o' needs a value" convert x -o
one_line "tracekit convert: option '--output' needs a value" convert --output
one_line "tracekit record: unknown option '--bogus'" record --bogus
one_line "tracekit list: unknown option '-x'" list -x
one_line "tracekit: unknown command 'no-such-command' (see 'tracekit help')" no-such-command
one_line "tracekit: unknown command 'bogus'" help bogus

# "tracekit help CMD" is "tracekit CMD --help"
for cmd in print info record list convert ust-recover; do
	if expect_rc 0 help "$cmd" && ! grep -q "^Usage: tracekit $cmd" "$tmp/out"; then
		echo "FAIL: tracekit help $cmd does not show the usage of $cmd"
		fail=1
	fi
done

# a write error is one line, each cause said once
dat=$(ls "$corpus"/tracedat/*.dat 2>/dev/null | head -n 1)
if [ -e /dev/full ] && [ -n "$dat" ]; then
	"$tk" print "$dat" >/dev/full 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
		[ "$(grep -o 'Cannot write output' "$tmp/err" | wc -l)" -ne 1 ]; then
		echo "FAIL: print to /dev/full: want status 1 and one line saying 'Cannot write output' once (status $rc)"
		cat "$tmp/err"
		fail=1
	fi
fi

expect_rc 0 --help
expect_rc 0 --version
expect_rc 2
expect_rc 2 print --names=bogus "$tmp"
expect_rc 2 print --names=all,none "$tmp"

# a directory without any trace is an error, not an empty success
mkdir "$tmp/empty"
expect_rc 1 print "$tmp/empty"

# metadata that is not CTF
mkdir "$tmp/notctf"
echo "hello" >"$tmp/notctf/metadata"
expect_rc 1 print "$tmp/notctf"

if [ -d "$corpus/ctf/traces/succeed/meta-ctx-sequence" ]; then
	if expect_rc 0 print "$corpus/ctf/traces/succeed/meta-ctx-sequence"; then
		if [ -s "$tmp/out" ]; then
			echo "FAIL: meta-ctx-sequence has no event but tracekit printed some"
			fail=1
		fi
	fi
	expect_rc 0 info "$corpus/ctf/traces/succeed/meta-ctx-sequence"
else
	echo "note: corpus absent, meta-ctx-sequence not checked" >&2
fi
exit $fail
