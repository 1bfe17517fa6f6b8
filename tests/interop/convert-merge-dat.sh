#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Several trace.dat files into one trace.dat file (issue 11: any input mix to any output):
# gen-dat files with instances and losses (two seeds, one compressed) and a corpus file of
# another kernel. Each event keeps its own `format` (renumbered where the files' formats
# differ, shared where they are the same), its buffer (instances by name), its task names
# (saved command lines), kernel symbols and printk formats, and its losses, so that
# `trace-cmd report` (the oracle) prints the merged file as it prints the inputs: the same
# lines, as many times each, but for two things trace-cmd itself decides per file:
#   - the indentation before a line (more when the file has instances), and
#   - the indentation of `function` events, which its function plugin derives from the
#     calls before on the same CPU, which the merge interleaves.
# A trace.dat file with a CTF trace into trace.dat: trace-cmd reads it with exit status 0
# and prints as many events as the inputs have.
# Usage: convert-merge-dat.sh TRACEKIT GEN-DAT CORPUS-DIR
set -u
tk=$1
gen_dat=$2
corpus=$3
other=$corpus/tracedat/x86_64-v7-zstd.dat
ctf=$corpus/ctf/traces/succeed/barectf-event-before-packet
command -v trace-cmd >/dev/null || { echo "SKIP: no trace-cmd"; exit 77; }
command -v babeltrace2 >/dev/null || { echo "SKIP: no babeltrace2"; exit 77; }
if [ ! -f "$other" ] || [ ! -d "$ctf" ]; then echo "SKIP: no corpus"; exit 77; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$gen_dat" -n 3000 -S 2 --instance=foo "$tmp/a.dat" >/dev/null || exit 1
"$gen_dat" -n 2000 -S 3 --compression zstd --instance=foo --instance=bar --missed \
	"$tmp/b.dat" >/dev/null || exit 1

# report FILE: trace-cmd report's event and loss lines, without what trace-cmd decides per file
report() {
	trace-cmd report "$1" 2>/dev/null | grep -v '^cpus=\|^version\|^CPU [0-9]* is empty' |
		sed 's/ function: */ function: /; s/^ *//'
}

for f in "$tmp/a.dat" "$tmp/b.dat" "$other"; do
	report "$f"
done | sort >"$tmp/want"
if ! "$tk" convert -q "$tmp/a.dat" "$tmp/b.dat" "$other" -o "$tmp/m.dat" 2>"$tmp/err"; then
	echo "FAIL: convert: $(cat "$tmp/err")"
	exit 1
fi
report "$tmp/m.dat" | sort >"$tmp/got"
n=$(wc -l <"$tmp/want")
if [ "$n" -lt 50000 ] || ! grep -q '^foo: ' "$tmp/got" || ! grep -q 'DROPPED' "$tmp/got"; then
	echo "FAIL: the inputs are not what this test needs: $n lines, instances and losses"
	fail=1
elif ! cmp -s "$tmp/want" "$tmp/got"; then
	echo "FAIL: trace-cmd report prints the merged file otherwise than the inputs:"
	diff "$tmp/want" "$tmp/got" | head -n 6
	fail=1
fi
# tracekit prints it as trace-cmd does
trace-cmd report "$tmp/m.dat" >"$tmp/tc.txt" 2>/dev/null
"$tk" print "$tmp/m.dat" >"$tmp/tk.txt" 2>/dev/null
if ! cmp -s "$tmp/tc.txt" "$tmp/tk.txt"; then
	echo "FAIL: tracekit print and trace-cmd report differ on the merged file:"
	diff "$tmp/tc.txt" "$tmp/tk.txt" | head -n 6
	fail=1
fi

# trace.dat and CTF into trace.dat
want=$(($(trace-cmd report "$tmp/a.dat" 2>/dev/null | grep -c ': *[a-z_0-9]*: ') +
	$(babeltrace2 "$ctf" 2>/dev/null | wc -l)))
if ! "$tk" convert -q "$tmp/a.dat" "$ctf" -o "$tmp/mixed.dat" 2>"$tmp/err"; then
	echo "FAIL: convert trace.dat and CTF: $(cat "$tmp/err")"
	fail=1
elif ! trace-cmd report "$tmp/mixed.dat" >"$tmp/mixed.txt" 2>/dev/null; then
	echo "FAIL: trace-cmd report cannot read the trace.dat and CTF merge"
	fail=1
elif [ "$(grep -c ': *[a-z_0-9]*: ' "$tmp/mixed.txt")" -ne "$want" ]; then
	echo "FAIL: the trace.dat and CTF merge has $(grep -c ': *[a-z_0-9]*: ' "$tmp/mixed.txt") events, not $want"
	fail=1
fi

[ $fail -eq 0 ] && echo "ok: $n lines of 3 trace.dat files in one, as trace-cmd report prints them"
exit $fail
