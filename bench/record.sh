#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Recording benchmark: `tracekit record` against `trace-cmd record` on the same workload, in
# the same run.
#
# The workload is tests/tools/getppid-loop N: N getppid system calls as fast as one CPU
# makes them, each a sys_enter and a sys_exit event (raw_syscalls), about 2N events in well
# under a second per million calls. Each recorder records raw_syscalls of the workload only
# (-F) into its default format (version 7, zstd) with a 64 MiB buffer per CPU:
#
#   tracekit record -b 65536 -e raw_syscalls -F -c -o F -- time getppid-loop N
#   trace-cmd record -b 65536 -e raw_syscalls -F -c -o F time getppid-loop N
#
# (trace-cmd through ../shared/tools/trace-cmd-ns where the kernel refuses its function-tracer
# writes). For each round it reports the events in the file, the events lost (EVENTS DROPPED
# lines), the rate the workload produced them at (events / workload wall time: a rate
# sustained without loss when none were lost), and the CPU time the recorder used itself per
# million events: the CPU time of the whole recorder process tree (/usr/bin/time) minus that
# of the workload (timed inside it), so it covers reading the ring buffers and writing and
# compressing the file. Best of N rounds for each figure, the two tools interleaved.
#
# Usage: bench/record.sh [--runs N] [--calls N]
set -u

runs=3
calls=2000000

usage() {
	sed -n 's/^# Usage: //p' "$0"
}

while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--calls) calls=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
case "$runs$calls" in
*[!0-9]*)
	echo "record.sh: --runs and --calls take positive integers" >&2
	exit 2
	;;
esac

note() {
	echo "record.sh: $*" >&2
}

die() {
	note "$*"
	exit 1
}

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/out
build=$out/build
tk=$build/tools/tracekit/tracekit
loop=$out/getppid-loop
tcns=$root/../shared/tools/trace-cmd-ns

command -v trace-cmd >/dev/null 2>&1 || die "trace-cmd is needed (Debian package trace-cmd)"
[ -x /usr/bin/time ] || die "/usr/bin/time is needed (Debian package time)"
[ "$(id -u)" -eq 0 ] || die "recording needs root"
[ -d /sys/kernel/tracing/events/raw_syscalls ] || die "no raw_syscalls events in tracefs"
if trace-cmd record -e sched:sched_switch -o /dev/null true >/dev/null 2>&1; then
	tc="trace-cmd"
elif [ -x "$tcns" ]; then
	tc=$tcns
else
	die "trace-cmd record fails here and trace-cmd-ns was not found"
fi

if [ ! -f "$build/build.ninja" ]; then
	note "configuring release build in $build"
	meson setup "$build" "$root" -Dbuildtype=release -Dtests=false >&2 ||
		die "meson setup failed"
fi
ninja -C "$build" tools/tracekit/tracekit >&2 || die "build failed"
cc -O2 -o "$loop" "$root/tests/tools/getppid-loop.c" || die "cannot build getppid-loop"
mkdir -p "$out/record"
d=$out/record

# one TOOL: one recording; sets ev (events), lost, rate (events/s), cpu (recorder CPU s).
one() {
	rm -f "$d/$1.dat" "$d/wl.txt"
	case $1 in
	tracekit)
		/usr/bin/time -f '%U %S' -o "$d/all.txt" "$tk" record -q -b 65536 -e raw_syscalls -F -c \
			-o "$d/$1.dat" -- /usr/bin/time -f '%e %U %S' -o "$d/wl.txt" "$loop" "$calls" \
			>/dev/null 2>"$d/$1.err" || die "tracekit record failed: $(head -n 2 "$d/$1.err")"
		;;
	*)
		/usr/bin/time -f '%U %S' -o "$d/all.txt" $tc record -b 65536 -e raw_syscalls -F -c \
			-o "$d/$1.dat" /usr/bin/time -f '%e %U %S' -o "$d/wl.txt" "$loop" "$calls" \
			>/dev/null 2>"$d/$1.err" || die "trace-cmd record failed: $(tail -n 2 "$d/$1.err")"
		;;
	esac
	"$tk" print "$d/$1.dat" >"$d/$1.txt" || die "cannot print $d/$1.dat"
	ev=$(grep -c -E ': +sys_(enter|exit): ' "$d/$1.txt")
	lost=$(sed -n 's/^CPU:[0-9]* \[\([0-9]*\) EVENTS DROPPED\]$/\1/p' "$d/$1.txt" |
		awk '{ s += $1 } END { print s + 0 }')
	grep -q '^CPU:[0-9]* \[EVENTS DROPPED\]$' "$d/$1.txt" && lost="$lost+"
	read -r wl_e wl_u wl_s <"$d/wl.txt"
	read -r all_u all_s <"$d/all.txt"
	rate=$(awk -v n="$ev" -v s="$wl_e" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
	cpu=$(awk -v a="$all_u" -v b="$all_s" -v c="$wl_u" -v e="$wl_s" \
		'BEGIN { printf "%.3f", a + b - c - e }')
	rm -f "$d/$1.txt"
}

best_tk_cpu='' best_tc_cpu=''
rows=""
round=1
while [ $round -le "$runs" ]; do
	for tool in tracekit trace-cmd; do
		note "round $round of $runs: $tool"
		one $tool
		per=$(awk -v c="$cpu" -v n="$ev" 'BEGIN { printf "%.3f", (n ? c / (n / 1e6) : 0) }')
		rows="$rows
| $round | $tool | $ev | $lost | $(awk -v r="$rate" 'BEGIN { printf "%.2f M", r / 1e6 }') | $cpu | $per |"
		if [ $tool = tracekit ]; then
			best_tk_cpu=$(awk -v a="$best_tk_cpu" -v b="$per" \
				'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
		else
			best_tc_cpu=$(awk -v a="$best_tc_cpu" -v b="$per" \
				'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
		fi
	done
	round=$((round + 1))
done
rm -f "$d/all.txt" "$d/wl.txt"

cpu_model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit + uncommitted changes"
fi
cat <<EOF
### Recording, $(date -u +%Y-%m-%d)

- Machine: $cpu_model, nproc $(nproc), Linux $(uname -r); shared and noisy, compare ratios only.
- tracekit $("$tk" --version | awk '{ print $2 }') ($commit), release build; $(trace-cmd --version 2>/dev/null |
	sed -n 's/^trace-cmd version \([^ ]*\).*/trace-cmd \1/p' | head -n 1)$([ "$tc" = trace-cmd ] || echo " through trace-cmd-ns").
- Workload: \`getppid-loop $calls\` ($calls getppid calls, 2 raw_syscalls events each); both
  record \`-b 65536 -e raw_syscalls -F -c\` into their default format (v7, zstd); $runs rounds,
  interleaved. Script: \`bench/record.sh\`.
- Events/s: events recorded per second of the workload's wall time. Recorder CPU: user +
  system time of the recorder's process tree minus the workload's own, so reading the ring
  buffers, writing and compressing the file.

| Round | Recorder | Events | Lost | Events/s | Recorder CPU (s) | CPU s per M events |
|---:|---|---:|---:|---:|---:|---:|$rows

Best recorder CPU per million events: tracekit $best_tk_cpu s, trace-cmd $best_tc_cpu s
($(awk -v a="$best_tc_cpu" -v b="$best_tk_cpu" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')× less CPU for tracekit).
EOF
