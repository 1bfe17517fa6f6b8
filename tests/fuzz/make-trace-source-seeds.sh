#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Seeds of fuzz-trace-source (corpus/trace-source), and two whole files for fuzz-perfdata: each perfdata seed behind the mode bytes 0
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

# Whole perf.data files with tracing data (bench/gen-eh-perf.py): samples of the eventheader
# seeds' tracepoints and of sched_switch, rounds of 5, file and pipe mode; then the pipe
# file's records from the first COMM on as zstd data in COMPRESSED records (type 81): whole
# in one, and cut across two (a record split between them, as perf's chunks may split one).
tail -c +2 "$all" >"$out/.events.dat"
python3 bench/gen-eh-perf.py -n 24 --sched-every 3 --round 5 --events "$out/.events.dat" \
	-o "$out/.file.data" >/dev/null
python3 bench/gen-eh-perf.py -n 24 --sched-every 3 --round 5 --events "$out/.events.dat" \
	--pipe -o "$out/.pipe.data" >/dev/null
{ printf '\000'; cat "$out/.file.data"; } >"$out/perf-eh-file"
{ printf '\002'; cat "$out/.file.data"; } >"$out/perf-stored-eh-file"
{ printf '\000'; cat "$out/.pipe.data"; } >"$out/perf-eh-pipe"
# the container harness reads the same files (no mode byte there)
cp "$out/.file.data" "$dir/perfdata/gen-eh-file"
cp "$out/.pipe.data" "$dir/perfdata/gen-eh-pipe"
python3 - "$out/.pipe.data" "$out" <<'PY'
import struct, subprocess, sys
src, out = sys.argv[1], sys.argv[2]
d = open(src, "rb").read()
pos = 16
while pos + 8 <= len(d):
    t, m, s = struct.unpack_from("<IHH", d, pos)
    if t == 3:
        break
    extra = (struct.unpack_from("<I", d, pos + 8)[0] + 7) & ~7 if t == 66 else 0
    pos += s + extra
head, body = d[:pos], d[pos:]

def comp(b):
    return subprocess.run(["zstd", "-q", "-c", "--no-check"], input=b,
                          capture_output=True, check=True).stdout

def record(z):
    return struct.pack("<IHH", 81, 0, 8 + len(z)) + z

with open(out + "/perf-compressed-pipe", "wb") as f:
    f.write(b"\0" + head + record(comp(body)))
cut = len(body) // 2 + 3
with open(out + "/perf-compressed-split-pipe", "wb") as f:
    f.write(b"\0" + head + record(comp(body[:cut])) + record(comp(body[cut:])))
PY
rm -f "$out/.events.dat" "$out/.file.data" "$out/.pipe.data"
