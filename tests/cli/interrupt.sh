#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Outputs that cannot hurt the user's files (issue 11):
#   - `convert X -o X` is refused before anything is opened for writing, whatever names X
#     (the same path, another path, a symbolic link, a hard link, a CTF directory): exit 1,
#     one line, X unchanged (sha256);
#   - SIGINT, SIGTERM or SIGHUP during a long conversion (to trace.dat, CTF, JSON, CSV, and
#     CTF to CTF, which copies files) stops it: the process dies of the signal, one line says
#     so, and neither the output nor a temporary is left in the output's directory.
# Usage: interrupt.sh TRACEKIT GEN-DAT
set -u
tk=$1
gen_dat=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$gen_dat" -n 20000 "$tmp/small.dat" >/dev/null || exit 1
sum() { sha256sum "$1" | cut -d' ' -f1; }

# the input named as the output, in every way
before=$(sum "$tmp/small.dat")
mkdir "$tmp/sub"
ln -s ../small.dat "$tmp/sub/link.dat"
ln "$tmp/small.dat" "$tmp/hard.dat"
for out in "$tmp/small.dat" "$tmp/sub/../small.dat" "$tmp/sub/link.dat" "$tmp/hard.dat"; do
	"$tk" convert "$tmp/small.dat" -o "$out" --file-version 6 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q 'is the input' "$tmp/err"; then
		echo "FAIL: convert X -o $out: exit $rc, want 1 and one line saying it is the input"
		cat "$tmp/err"
		fail=1
	fi
	if [ "$(sum "$tmp/small.dat")" != "$before" ]; then
		echo "FAIL: convert X -o $out changed X"
		exit 1
	fi
done
"$tk" convert "$tmp/small.dat" -o "$tmp/ctf" >/dev/null 2>&1 || fail=1
find "$tmp/ctf" -type f | sort | xargs cat | sha256sum >"$tmp/ctf.sum"
"$tk" convert "$tmp/ctf" -o "$tmp/ctf" >/dev/null 2>"$tmp/err"
if [ $? -ne 1 ] || ! grep -q 'is the input' "$tmp/err" ||
	! find "$tmp/ctf" -type f | sort | xargs cat | sha256sum | cmp -s - "$tmp/ctf.sum"; then
	echo "FAIL: convert CTF -o CTF: want exit 1, 'is the input', the trace unchanged"
	cat "$tmp/err"
	fail=1
fi

# a long conversion, stopped by a signal at several moments until one lands while it runs
# (the last case: CTF to CTF, which copies the files while it reads them)
"$gen_dat" -n 3000000 "$tmp/big.dat" >/dev/null || exit 1
"$tk" convert -q "$tmp/big.dat" -o "$tmp/big.ctf" || exit 1
mkdir "$tmp/o"
for case in "big.dat INT 2 out.json" "big.dat TERM 15 out.csv" "big.dat INT 2 out.ctf" \
	"big.dat HUP 1 out.jsonl" "big.dat INT 2 sel.dat -e sched" "big.ctf TERM 15 copy.ctf"; do
	set -- $case
	in=$1
	sig=$2
	num=$3
	out=$4
	shift 4
	landed=0
	for delay in 0.2 0.1 0.05 0.3 0.02 0.5 0.01; do
		rm -rf "$tmp/o" && mkdir "$tmp/o"
		"$tk" convert -q "$tmp/$in" -o "$tmp/o/$out" "$@" 2>"$tmp/err" &
		pid=$!
		sleep $delay
		kill -"$sig" $pid 2>/dev/null
		wait $pid
		rc=$?
		if [ -n "$(ls -A "$tmp/o")" ]; then
			if [ $rc -eq 0 ]; then
				continue # finished before the signal: try sooner
			fi
			echo "FAIL: SIG$sig during convert -o $out (exit $rc) left: $(ls -A "$tmp/o")"
			fail=1
			break
		fi
		if grep -q 'convert stopped by' "$tmp/err"; then
			landed=1
			want=$((128 + num))
			if [ $rc -ne $want ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
				echo "FAIL: SIG$sig during convert -o $out: exit $rc, want $want and one line"
				cat "$tmp/err"
				fail=1
			fi
			break
		fi
	done
	if [ $landed -eq 0 ] && [ $fail -eq 0 ]; then
		echo "FAIL: SIG$sig never landed while convert -o $out was running"
		fail=1
	fi
done
exit $fail
