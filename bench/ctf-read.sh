#!/bin/sh
# SPDX-License-Identifier: MIT
#
# CTF read benchmark: tracekit against babeltrace2 on the same machine, in the same run.
#
# Absolute timings on a shared VM are noise; the ratio between two tools timed back to back
# on the same trace is what we track (STYLE.md section 2.8). The script builds a release
# tracekit in its own build directory, writes an LTTng-UST-like trace with gen-ctf, then
# times, best of N rounds with a warm page cache:
#
#   tracekit print TRACE >/dev/null     against   babeltrace2 TRACE >/dev/null
#   tracekit info TRACE >/dev/null      against   babeltrace2 -o dummy TRACE
#
# and records peak RSS (/usr/bin/time -v) of every run, then of tracekit print and info on a
# generated trace of about 1 GiB (skip it with --no-1g). The result is a Markdown section on
# stdout, ready for bench/RESULTS.md; progress goes to stderr. Traces stay in bench/out/
# (ignored by git) and are written again only when the generator or its options change.
#
# Usage: bench/ctf-read.sh [--runs N] [--events N] [--packet-size BYTES] [--no-1g]
set -u

runs=3
events=5000000
packet_size=262144 # LTTng-like sub-buffer size
big=1

usage() {
	sed -n 's/^# Usage: //p' "$0"
}

while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--events) events=$2; shift 2 ;;
	--packet-size) packet_size=$2; shift 2 ;;
	--no-1g) big=0; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
case "$runs$events$packet_size" in
*[!0-9]*)
	echo "ctf-read.sh: --runs, --events and --packet-size take positive integers" >&2
	exit 2
	;;
esac
if [ "$runs" -lt 1 ]; then
	echo "ctf-read.sh: --runs must be at least 1" >&2
	exit 2
fi

note() {
	echo "ctf-read.sh: $*" >&2
}

die() {
	note "$*"
	exit 1
}

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/out
build=$out/build
tk=$build/tools/tracekit/tracekit
gen=$build/tests/tools/gen-ctf

command -v babeltrace2 >/dev/null 2>&1 || die "babeltrace2 is needed as the reference"
command -v meson >/dev/null 2>&1 || die "meson is needed to build tracekit"
if [ ! -x /usr/bin/time ]; then
	note "/usr/bin/time missing: installing Debian package 'time'"
	if [ "$(id -u)" -eq 0 ]; then
		apt-get install -y time >&2 ||
			{ apt-get update >&2 && apt-get install -y time >&2; }
	else
		sudo apt-get install -y time >&2
	fi
	[ -x /usr/bin/time ] || die "cannot install /usr/bin/time (Debian package 'time')"
fi

# ---- Build ------------------------------------------------------------------------------
if [ ! -f "$build/build.ninja" ]; then
	note "configuring release build in $build"
	meson setup "$build" "$root" -Dbuildtype=release -Dtests=false >&2 ||
		die "meson setup failed"
fi
note "building"
ninja -C "$build" >&2 || die "build failed"

# ---- Traces -----------------------------------------------------------------------------

# make_trace DIR GEN-CTF-OPTIONS...: write the trace unless DIR already holds one made by
# the same generator binary with the same options.
make_trace() {
	dir=$1
	shift
	stamp="$(cksum <"$gen") $*"
	if [ -f "$dir.stamp" ] && [ "$(cat "$dir.stamp")" = "$stamp" ] && [ -d "$dir" ]; then
		return
	fi
	note "writing $dir ($* )"
	rm -rf "$dir" "$dir.stamp"
	"$gen" "$@" "$dir" || die "gen-ctf failed"
	echo "$stamp" >"$dir.stamp"
}

trace_bytes() {
	du -sb "$1" | cut -f1
}

mkdir -p "$out/traces"
trap 'rm -f "$out/time.txt" "$out/stderr.txt"' EXIT
trace=$out/traces/lttng-$events
gen_opts="--layout lttng --streams 2 --packet-size $packet_size --events $events"
# shellcheck disable=SC2086 # word lists
make_trace "$trace" $gen_opts
bytes=$(trace_bytes "$trace")

# ---- Measurements -----------------------------------------------------------------------
now_ns() {
	date +%s%N
}

# once CMD...: run CMD once, output to /dev/null; set $run_t (wall time, seconds) and
# $run_rss (peak RSS, KiB).
once() {
	t0=$(now_ns)
	/usr/bin/time -v -o "$out/time.txt" "$@" >/dev/null 2>"$out/stderr.txt"
	st=$?
	t1=$(now_ns)
	[ $st -eq 0 ] || die "exit status $st: $* ($(head -n 1 "$out/stderr.txt"))"
	run_rss=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$out/time.txt")
	run_t=$(awk -v us="$(((t1 - t0) / 1000))" 'BEGIN { print us / 1e6 }')
}

min() { # A B: the smaller, A may be empty
	awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'
}

max() {
	awk -v a="$1" -v b="$2" 'BEGIN { print (b + 0 > a + 0) ? b : a }'
}

rate() { # events seconds -> events/s, human
	awk -v n="$1" -v s="$2" 'BEGIN {
		r = n / s
		if (r >= 1e6) printf "%.2f M", r / 1e6; else printf "%.0f k", r / 1e3 }'
}

secs() {
	awk -v s="$1" 'BEGIN { printf "%.3f", s }'
}

mib() {
	awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'
}

# row COMMAND SECONDS EVENTS RSS_KIB: one line of a results table.
row() {
	# shellcheck disable=SC2016 # the backquotes are Markdown
	printf '| `%s` | %s | %s | %s |\n' "$1" "$(secs "$2")" "$(rate "$3" "$2")" "$(mib "$4")"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'
}

# Check the event count once, so that events/s are right.
n=$("$tk" info "$trace" | sed -n 's/^Events: *//p')
[ "$n" = "$events" ] || die "tracekit info counts $n events, expected $events"

note "warming the page cache"
cat "$trace"/channel* >/dev/null

# Round by round, so that a noisy moment of the machine hits every command alike.
tk_print_t='' bt_text_t='' tk_info_t='' bt_dummy_t=''
tk_print_rss=0 bt_text_rss=0 tk_info_rss=0 bt_dummy_rss=0
round=1
while [ $round -le "$runs" ]; do
	note "round $round of $runs: tracekit print, babeltrace2, tracekit info, -o dummy"
	once "$tk" print "$trace"
	tk_print_t=$(min "$tk_print_t" "$run_t") tk_print_rss=$(max "$tk_print_rss" "$run_rss")
	once babeltrace2 "$trace"
	bt_text_t=$(min "$bt_text_t" "$run_t") bt_text_rss=$(max "$bt_text_rss" "$run_rss")
	once "$tk" info "$trace"
	tk_info_t=$(min "$tk_info_t" "$run_t") tk_info_rss=$(max "$tk_info_rss" "$run_rss")
	once babeltrace2 -o dummy "$trace"
	bt_dummy_t=$(min "$bt_dummy_t" "$run_t") bt_dummy_rss=$(max "$bt_dummy_rss" "$run_rss")
	round=$((round + 1))
done

if [ $big -eq 1 ]; then
	# about 1 GiB: scale the event count by the bytes per event of the first trace
	big_events=$(awk -v e="$events" -v b="$bytes" 'BEGIN { printf "%d", e * 1073741824 / b }')
	big_trace=$out/traces/lttng-1g
	# shellcheck disable=SC2086 # word lists
	make_trace "$big_trace" --layout lttng --streams 2 --packet-size "$packet_size" \
		--events "$big_events"
	big_bytes=$(trace_bytes "$big_trace")
	cat "$big_trace"/channel* >/dev/null
	note "tracekit print and info on the 1 GiB trace (1 run each)"
	once "$tk" print "$big_trace"
	big_print_t=$run_t big_print_rss=$run_rss
	once "$tk" info "$big_trace"
	big_info_t=$run_t big_info_rss=$run_rss
fi

# ---- Report -----------------------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit + uncommitted changes"
fi
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1048576 }')
tk_version=$("$tk" --version | awk '{ print $2 }')
bt_version=$(babeltrace2 --version | head -n 1)

cat <<EOF
### CTF read, $(date -u +%Y-%m-%d)

- Machine: $cpu, nproc $(nproc), Linux $(uname -r); shared and noisy, compare ratios only.
- tracekit $tk_version ($commit), release build
  (\`meson setup bench/out/build -Dbuildtype=release -Dtests=false\`); $bt_version.
- Trace: \`gen-ctf $gen_opts\` (LTTng-UST 2.13 layout, $mb MiB, $events events);
  best of $runs rounds (the four commands in turn), page cache warm, output to /dev/null.
  Script: \`bench/ctf-read.sh\`.

| Command | Best wall time (s) | Events/s | Peak RSS (MiB) |
|---|---:|---:|---:|
$(row 'tracekit print TRACE >/dev/null' "$tk_print_t" "$events" "$tk_print_rss")
$(row 'babeltrace2 TRACE >/dev/null' "$bt_text_t" "$events" "$bt_text_rss")
$(row 'tracekit info TRACE >/dev/null' "$tk_info_t" "$events" "$tk_info_rss")
$(row 'babeltrace2 -o dummy TRACE' "$bt_dummy_t" "$events" "$bt_dummy_rss")

| Ratio (same run) | Speed-up |
|---|---:|
| tracekit print vs babeltrace2 text | $(ratio "$bt_text_t" "$tk_print_t")× |
| tracekit info vs babeltrace2 \`-o dummy\` | $(ratio "$bt_dummy_t" "$tk_info_t")× |
EOF

if [ $big -eq 1 ]; then
	gib=$(awk -v b="$big_bytes" 'BEGIN { printf "%.2f", b / 1073741824 }')
	cat <<EOF

Large trace: \`gen-ctf --layout lttng --streams 2 --packet-size $packet_size --events $big_events\`
($gib GiB), one run each:

| Command | Wall time (s) | Events/s | Peak RSS (MiB) |
|---|---:|---:|---:|
$(row 'tracekit print TRACE >/dev/null' "$big_print_t" "$big_events" "$big_print_rss")
$(row 'tracekit info TRACE >/dev/null' "$big_info_t" "$big_events" "$big_info_rss")
EOF
fi
