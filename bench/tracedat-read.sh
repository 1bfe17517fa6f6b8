#!/bin/sh
# SPDX-License-Identifier: MIT
#
# trace.dat read benchmark: `tracekit print` against `trace-cmd report`, same file, same run.
#
# Records a real kernel trace with trace-cmd (through ../shared/tools/trace-cmd-ns where the
# kernel refuses trace-cmd's function-tracer writes): raw_syscalls events under a
# syscall-heavy load (dd copying one byte at a time: two syscalls per byte), once as trace-cmd
# 3.1's default (v7, zstd) and once converted to v6 (uncompressed). Then, best of N rounds
# with a warm page cache and output to /dev/null:
#
#   tracekit print FILE >/dev/null      against   trace-cmd report FILE >/dev/null
#
# for both files, with events/s, peak RSS (/usr/bin/time -v) and the ratio. Timings on a shared
# VM move by tens of percent; the ratio of two tools timed back to back is what we track.
# Then, to show that memory does not grow with the file, a recording four times larger
# (--big-bytes) is printed once by tracekit alone, in both versions, and its peak RSS is set
# next to that of the first file.
# Needs root (tracefs) and trace-cmd. The result is a Markdown section on stdout, ready for
# bench/RESULTS.md; progress goes to stderr. Files stay in bench/out/ (ignored by git).
#
# Usage: bench/tracedat-read.sh [--runs N] [--bytes N] [--big-bytes N]
#   --bytes: bytes dd copies one at a time (default 1300000: a read and a write per byte,
#            each an enter and an exit event: about 5.2M events)
#   --big-bytes: the same for the large file (default 4 times --bytes; 0 skips it)
set -u

runs=3
bytes=1300000
big_bytes=

usage() {
	sed -n 's/^# Usage: //p' "$0"
}

while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--bytes) bytes=$2; shift 2 ;;
	--big-bytes) big_bytes=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
[ -n "$big_bytes" ] || big_bytes=$((bytes * 4))
case "$runs$bytes$big_bytes" in
*[!0-9]*)
	echo "tracedat-read.sh: --runs, --bytes and --big-bytes take positive integers" >&2
	exit 2
	;;
esac

note() {
	echo "tracedat-read.sh: $*" >&2
}

die() {
	note "$*"
	exit 1
}

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/out
build=$out/build
tk=$build/tools/tracekit/tracekit
tcns=$root/../shared/tools/trace-cmd-ns

command -v trace-cmd >/dev/null 2>&1 || die "trace-cmd is needed (Debian package trace-cmd)"
command -v meson >/dev/null 2>&1 || die "meson is needed to build tracekit"
[ -x /usr/bin/time ] || die "/usr/bin/time is needed (Debian package time)"
[ "$(id -u)" -eq 0 ] || die "recording needs root"
[ -d /sys/kernel/tracing/events/raw_syscalls ] || die "no raw_syscalls events in tracefs"
if [ -x "$tcns" ]; then
	recorder=$tcns
else
	recorder=trace-cmd
fi

if [ ! -f "$build/build.ninja" ]; then
	note "configuring release build in $build"
	meson setup "$build" "$root" -Dbuildtype=release -Dtests=false >&2 ||
		die "meson setup failed"
fi
ninja -C "$build" >&2 || die "build failed"

mkdir -p "$out/traces"

# traces N: record (once) the v7 zstd file for N bytes and convert it to v6; sets v7 and v6.
traces() {
	v7=$out/traces/syscalls-$1.v7-zstd.dat
	v6=$out/traces/syscalls-$1.v6.dat
	if [ ! -s "$v7" ]; then
		note "recording raw_syscalls while dd copies $1 bytes one at a time"
		"$recorder" record -b 65536 -e raw_syscalls -o "$v7" -- \
			dd if=/dev/zero of=/dev/null bs=1 count="$1" >&2 ||
			die "trace-cmd record failed"
		rm -f "$v6"
	fi
	if [ ! -s "$v6" ]; then
		note "converting to version 6"
		trace-cmd convert -i "$v7" -o "$v6" --file-version 6 --compression none >&2 ||
			die "trace-cmd convert failed"
	fi
}

once() {
	t0=$(date +%s%N)
	/usr/bin/time -v -o "$out/time.txt" "$@" >/dev/null 2>"$out/stderr.txt"
	st=$?
	t1=$(date +%s%N)
	[ $st -eq 0 ] || die "exit status $st: $* ($(head -n 1 "$out/stderr.txt"))"
	run_rss=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$out/time.txt")
	run_t=$(awk -v us="$(((t1 - t0) / 1000))" 'BEGIN { print us / 1e6 }')
}

min() {
	awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'
}

max() {
	awk -v a="$1" -v b="$2" 'BEGIN { print (b + 0 > a + 0) ? b : a }'
}

row() { # COMMAND SECONDS EVENTS RSS_KIB
	awk -v c="$1" -v s="$2" -v n="$3" -v k="$4" 'BEGIN {
		r = n / s
		rate = r >= 1e6 ? sprintf("%.2f M", r / 1e6) : sprintf("%.0f k", r / 1e3)
		printf "| `%s` | %.3f | %s | %.1f |\n", c, s, rate, k / 1024 }'
}

trap 'rm -f "$out/time.txt" "$out/stderr.txt"' EXIT
if [ "$big_bytes" -gt 0 ]; then
	traces "$big_bytes"
	big_v7=$v7 big_v6=$v6
fi
traces "$bytes"
events=$(($("$tk" print "$v7" | wc -l) - 1))
[ "$events" -gt 0 ] || die "no events in $v7"
cat "$v7" "$v6" >/dev/null

report=""
for f in "$v7" "$v6"; do
	tk_t='' tc_t='' tk_rss=0 tc_rss=0
	round=1
	while [ $round -le "$runs" ]; do
		note "$(basename "$f"): round $round of $runs"
		once "$tk" print "$f"
		tk_t=$(min "$tk_t" "$run_t") tk_rss=$(max "$tk_rss" "$run_rss")
		once trace-cmd report "$f"
		tc_t=$(min "$tc_t" "$run_t") tc_rss=$(max "$tc_rss" "$run_rss")
		round=$((round + 1))
	done
	mb=$(du -m "$f" | cut -f1)
	eval "rss_$(basename "$f" .dat | tr -c 'a-z0-9\n' _)=$tk_rss"
	report="$report
File: \`$(basename "$f")\` ($mb MiB, $events events)

| Command | Best wall time (s) | Events/s | Peak RSS (MiB) |
|---|---:|---:|---:|
$(row "tracekit print FILE >/dev/null" "$tk_t" "$events" "$tk_rss")
$(row "trace-cmd report FILE >/dev/null" "$tc_t" "$events" "$tc_rss")

Speed-up (same run): $(awk -v a="$tc_t" -v b="$tk_t" 'BEGIN { printf "%.1f", a / b }')×
"
done

if [ "$big_bytes" -gt 0 ]; then
	big_events=$(($("$tk" print "$big_v7" | wc -l) - 1))
	report="$report
Peak RSS against file size (\`tracekit print FILE >/dev/null\`, one run on the large file):

| File | Size (MiB) | Events | Peak RSS (MiB) |
|---|---:|---:|---:|"
	for f in "$v7" "$big_v7" "$v6" "$big_v6"; do
		key=$(basename "$f" .dat | tr -c 'a-z0-9\n' _)
		eval "rss=\${rss_$key:-}"
		if [ -z "$rss" ]; then
			note "$(basename "$f"): one run for its peak RSS"
			once "$tk" print "$f"
			rss=$run_rss
		fi
		n=$events
		[ "$f" = "$big_v7" ] || [ "$f" = "$big_v6" ] && n=$big_events
		report="$report
| \`$(basename "$f")\` | $(du -m "$f" | cut -f1) | $n | $(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }') |"
	done
	report="$report
"
fi

cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit + uncommitted changes"
fi
cat <<EOF
### trace.dat read, $(date -u +%Y-%m-%d)

- Machine: $cpu, nproc $(nproc), Linux $(uname -r); shared and noisy, compare ratios only.
- tracekit $("$tk" --version | awk '{ print $2 }') ($commit), release build
  (\`meson setup bench/out/build -Dbuildtype=release -Dtests=false\`);
  $(trace-cmd --version 2>/dev/null | sed -n 's/^trace-cmd version //p' | head -n 1 |
	sed 's/^/trace-cmd /').
- Files: \`trace-cmd record -b 65536 -e raw_syscalls -- dd if=/dev/zero of=/dev/null bs=1
  count=$bytes\` (trace-cmd's default v7 + zstd), and \`trace-cmd convert --file-version 6
  --compression none\` of it; best of $runs rounds, page cache warm, output to /dev/null.
  Script: \`bench/tracedat-read.sh\`.
$report
EOF
