#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Shortcuts against the generic path (issue 11, "fast paths are capabilities"): a lone
# trace.dat file goes to CTF by per-class copy plans (src/pipeline/dat-to-ctf.c) unless
# `convert --generic` sends every decoded event through the CTF sink (src/ctf/ctf-sink.c).
# For every trace.dat file of the corpus and gen-dat files (losses, instances, function
# graph records, the records conversions lost: --extra-events; v6, v7 zstd, big-endian with
# 32-bit longs), both conversions must succeed and babeltrace2 (the oracle) must print the
# two CTF traces alike: the same lines, warnings and exit status.
#
# Known difference, left out of the comparison and not hidden: the generic path does not yet
# write the ftrace metadata and host names into the CTF environment (the shortcut does:
# hostname, sysname, kernel_release, domain, the ftrace_* keys), so babeltrace2's trace-name
# column ("vm" in "[time] (+delta) vm sched_switch: ...") is removed from the shortcut's
# lines before comparing. The output bytes of the two paths are not the same yet either.
# Usage: convert-generic.sh TRACEKIT GEN-DAT CORPUS-DIR
set -u
tk=$1
gen_dat=$2
corpus=$3
command -v babeltrace2 >/dev/null || { echo "SKIP: no babeltrace2"; exit 77; }
[ -d "$corpus/tracedat" ] || { echo "SKIP: no corpus"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

"$gen_dat" -n 3000 --missed --instance=foo "$tmp/gen-missed.dat" >/dev/null || exit 1
"$gen_dat" -n 2000 --extra-events --compression zstd "$tmp/gen-extra.dat" >/dev/null || exit 1
"$gen_dat" -n 2000 --funcgraph --file-version 6 "$tmp/gen-funcgraph.dat" >/dev/null || exit 1
"$gen_dat" -n 2000 -S 5 --byte-order be --long-size 4 "$tmp/gen-be32.dat" >/dev/null || exit 1

for f in "$corpus"/tracedat/*.dat "$tmp"/gen-*.dat; do
	b=$(basename "$f" .dat)
	rm -rf "$tmp/short" "$tmp/generic"
	if ! "$tk" convert -q "$f" --to ctf -o "$tmp/short" 2>"$tmp/err"; then
		echo "FAIL: $b: the shortcut: $(cat "$tmp/err")"
		fail=1
		continue
	fi
	if ! "$tk" convert -q --generic "$f" --to ctf -o "$tmp/generic" 2>"$tmp/err"; then
		echo "FAIL: $b: the generic path: $(cat "$tmp/err")"
		fail=1
		continue
	fi
	babeltrace2 "$tmp/short" >"$tmp/short.txt" 2>"$tmp/short.err"
	rs=$?
	babeltrace2 "$tmp/generic" >"$tmp/generic.txt" 2>"$tmp/generic.err"
	rg=$?
	# the trace name, from the shortcut's hostname entry (see above)
	host=$(sed -n 's/^	hostname = "\(.*\)";$/\1/p' "$tmp/short/metadata")
	if [ -n "$host" ]; then
		sed "s/^\(\[[^]]*\] ([^)]*)\) $host /\1 /" "$tmp/short.txt" >"$tmp/short.cmp"
	else
		cp "$tmp/short.txt" "$tmp/short.cmp"
	fi
	lines=$(wc -l <"$tmp/generic.txt")
	if [ $rs -ne 0 ] || [ $rg -ne 0 ] || [ "$lines" -eq 0 ]; then
		echo "FAIL: $b: babeltrace2 exits $rs (shortcut) and $rg (generic), $lines lines"
		fail=1
	elif ! cmp -s "$tmp/short.cmp" "$tmp/generic.txt"; then
		echo "FAIL: $b: babeltrace2 prints the two CTF traces differently:"
		diff "$tmp/short.cmp" "$tmp/generic.txt" | head -n 6
		fail=1
	elif [ "$(grep -c WARNING "$tmp/short.err")" -ne "$(grep -c WARNING "$tmp/generic.err")" ]; then
		echo "FAIL: $b: babeltrace2 warns differently:"
		diff "$tmp/short.err" "$tmp/generic.err" | head -n 6
		fail=1
	fi
	n=$((n + 1))
done
[ $fail -eq 0 ] && echo "ok: $n trace.dat files print alike through the shortcut and the generic path"
exit $fail
