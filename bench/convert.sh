#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Conversion benchmark: `tracekit convert` of a trace.dat file to CTF, next to babeltrace2's
# CTF-to-CTF conversion (`babeltrace2 TRACE -o ctf -w DIR`) of a trace of the same size, in
# the same run.
#
# The trace.dat file is the one bench/tracedat-read.sh records (about 5.2M raw_syscalls
# events, v7 zstd; run that script first, or pass --file). Its CTF conversion by tracekit is
# also the CTF trace babeltrace2 converts (less the ftrace environment kept for the way back
# to trace.dat, which an LTTng trace would not have), so both tools handle the same events. Best of N
# rounds, page cache warm, outputs written to a scratch directory next to bench/out.
#
# Usage: bench/convert.sh [--runs N] [--file TRACE.dat]
set -u

runs=3
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/out
file=$out/traces/syscalls-1300000.v7-zstd.dat

while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--file) file=$2; shift 2 ;;
	-h | --help) sed -n 's/^# Usage: //p' "$0"; exit 0 ;;
	*) sed -n 's/^# Usage: //p' "$0" >&2; exit 2 ;;
	esac
done

note() {
	echo "convert.sh: $*" >&2
}

die() {
	note "$*"
	exit 1
}

build=$out/build
tk=$build/tools/tracekit/tracekit
command -v babeltrace2 >/dev/null 2>&1 || die "babeltrace2 is needed (Debian package babeltrace2)"
[ -s "$file" ] || die "no trace.dat at $file: run bench/tracedat-read.sh first, or pass --file"
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$root" -Dbuildtype=release -Dtests=false >&2 ||
		die "meson setup failed"
fi
ninja -C "$build" tools/tracekit/tracekit >&2 || die "build failed"
scratch=$out/convert
rm -rf "$scratch"
mkdir -p "$scratch"

# timed CMD...: wall time of one run in $t (seconds), peak RSS in $rss (KiB)
timed() {
	t0=$(date +%s%N)
	/usr/bin/time -f '%M' -o "$scratch/rss" "$@" >/dev/null 2>"$scratch/err" ||
		die "failed: $* ($(head -n 1 "$scratch/err"))"
	t1=$(date +%s%N)
	t=$(awk -v ns="$((t1 - t0))" 'BEGIN { print ns / 1e9 }')
	rss=$(cat "$scratch/rss")
}

min() {
	awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'
}

"$tk" convert -q "$file" -o "$scratch/ctf" || die "tracekit convert failed"
# babeltrace2's input without the ftrace environment tracekit keeps for the way back to
# trace.dat (kallsyms and formats, megabytes of metadata text an LTTng trace does not have)
sed -i '/^\t\(tracekit_\)\{0,1\}ftrace_[A-Za-z0-9_]* = /d' "$scratch/ctf/metadata"
events=$("$tk" info "$scratch/ctf" | sed -n 's/^Events: *\([0-9]*\).*/\1/p')
cat "$file" >/dev/null
tk_t='' bt_t=''
round=1
while [ $round -le "$runs" ]; do
	note "round $round of $runs"
	rm -rf "$scratch/tk"
	timed "$tk" convert -q "$file" -o "$scratch/tk"
	tk_t=$(min "$tk_t" "$t") tk_rss=$rss
	rm -rf "$scratch/bt"
	timed babeltrace2 "$scratch/ctf" -o ctf -w "$scratch/bt"
	bt_t=$(min "$bt_t" "$t") bt_rss=$rss
	round=$((round + 1))
done
mb=$(du -m "$file" | cut -f1)
ctf_mb=$(du -sm "$scratch/ctf" | cut -f1)
rm -rf "$scratch"

row() {
	awk -v c="$1" -v s="$2" -v n="$events" -v k="$3" 'BEGIN {
		printf "| `%s` | %.3f | %.2f M | %.1f |\n", c, s, n / s / 1e6, k / 1024 }'
}

cat <<EOF
### trace.dat to CTF, $(date -u +%Y-%m-%d)

- Machine: $(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1), nproc $(nproc), Linux $(uname -r); shared and noisy, compare ratios only.
- tracekit $("$tk" --version | awk '{ print $2 }') ($(git -C "$root" rev-parse --short HEAD 2>/dev/null)), release build; $(babeltrace2 --version | head -n 1).
- Input: \`$(basename "$file")\` ($mb MiB, $events events, from bench/tracedat-read.sh); its CTF
  conversion ($ctf_mb MiB) is babeltrace2's input. Best of $runs rounds. Script: \`bench/convert.sh\`.

| Command | Best wall time (s) | Events/s | Peak RSS (MiB) |
|---|---:|---:|---:|
$(row "tracekit convert FILE.dat -o DIR" "$tk_t" "$tk_rss")
$(row "babeltrace2 CTF -o ctf -w DIR" "$bt_t" "$bt_rss")

Speed-up (same run): $(awk -v a="$bt_t" -v b="$tk_t" 'BEGIN { printf "%.1f", a / b }')×
EOF
