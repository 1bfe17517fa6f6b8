#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Seeds of fuzz-trace-source (corpus/trace-source): each perfdata seed behind the mode bytes 0
# (perf's order) and 2 (stored order), and interceptor files (mode 1) made of the eventheader
# seeds, each a record of a u32 little-endian size counting itself, then the seed (tracepoint
# name, NUL, event bytes): one file per seed and one of all of them.
# Usage: sh tests/fuzz/make-trace-source-seeds.sh   (from the source root)
set -eu
dir=tests/fuzz/corpus
out=$dir/trace-source
mkdir -p "$out"
for f in "$dir"/perfdata/hand-*; do
	b=$(basename "$f")
	{ printf '\000'; cat "$f"; } >"$out/perf-$b"
	{ printf '\002'; cat "$f"; } >"$out/perf-stored-$b"
done
record() {
	python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); sys.stdout.buffer.write(struct.pack("<I", len(d) + 4) + d)' "$1"
}
all=$out/interceptor-all
printf '\001' >"$all"
for f in "$dir"/eventheader/hand-*; do
	b=$(basename "$f")
	{ printf '\001'; record "$f"; } >"$out/interceptor-$b"
	record "$f" >>"$all"
done
