#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The usual field line of an event format ("field:TYPE NAME; offset:N; size:N; signed:N;")
# is read in one pass, without tokens (src/ftrace/ftrace-format.c, fast_field()). Every
# format must give the same events, fields, types, flags and errors as the general reader:
# the ftrace-format fuzz harness parses each input both ways and traps on a difference. Its
# replay runs here on real kernels' formats: every format of the corpus trace.dat files, of a
# gen-dat file, and of this machine's tracefs when it is mounted and readable (2,000 and more
# on a distribution kernel; the test never mounts it).
# Usage: format-lines.sh REPLAY-FTRACE-FORMAT DAT-FORMATS GEN-DAT CORPUS-DIR
set -u
replay=$1
dat_formats=$2
gen_dat=$3
corpus=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/seeds"

"$gen_dat" --events 200 --funcgraph --extra-events "$tmp/gen.dat" >/dev/null || exit 1
set -- "$tmp/gen.dat"
for f in "$corpus"/tracedat/*.dat; do
	[ -f "$f" ] && set -- "$@" "$f"
done
"$dat_formats" "$tmp/seeds" "$@" || exit 1
n=0
for d in /sys/kernel/tracing/events /sys/kernel/debug/tracing/events; do
	[ -r "$d/sched/sched_switch/format" ] || continue
	for f in "$d"/*/*/format; do
		sys=${f%/*/format}
		sys=${sys##*/}
		mode='\001'
		[ "$sys" = ftrace ] && mode='\000'
		{ printf "$mode"; cat "$f"; } >"$tmp/seeds/tracefs-$n" 2>/dev/null || continue
		n=$((n + 1))
	done
	echo "$n formats from $d"
	break
done
"$replay" "$tmp/seeds" || { echo "FAIL: a format reads differently the two ways"; exit 1; }
echo "ok: $(ls "$tmp/seeds" | wc -l) formats read alike both ways"
