#!/bin/sh
# SPDX-License-Identifier: MIT
#
# perf.data read benchmark (issue 13): tracekit against the tools that read perf.data today,
# on the same machine, in the same run, as a ratio (STYLE.md section 2.8). Two rows:
#
#   a. tracepoint samples to text, on a real recording of at least a million samples:
#        tracekit print P.data                       against  perf script -i P.data
#   b. EventHeader decoding to the reference decoder's JSON, on a generated file
#      (bench/gen-eh-perf.py: this kernel has no user_events to record from):
#        tracekit print --style perf-decode E.data   against  perf-decode E.data
#
# perf-decode is LinuxTracepoints' decoder (libeventheader-decode-cpp/tools; decode-perf
# before v1.4.0). This script never builds it: give its path with --perf-decode or
# PERF_DECODE (README.md says how to build it); without one, row b says "peer not built"
# and keeps tracekit's own figures.
#
# P.data is recorded once (root, perf and tracefs needed) and kept in bench/out/traces:
#   perf record -q -m 8M -e 'sched:*' -e 'irq:*' -e 'timer:*' -a -c 1 --
#       perf bench sched pipe -l LOOPS
# (six to ten samples a loop: 200000 gave 1.3M; --perf-data FILE takes an existing recording).
# E.data is written again only when the generator or its options change.
#
# Every command runs once first and is checked: exit status 0, then its event count, the
# lines with "[cpu] seconds.fraction: " for text and the lines that open with {"n": for the
# JSON, against the peer's and the input's. A tracekit failure or a wrong count stops the
# run with the command and its first error lines; a failing peer leaves its cells out. That
# run also warms the page cache and gives peak RSS (/usr/bin/time -f %M). Then each of
# --runs rounds runs every command in turn (peer, tracekit), and the table keeps each one's
# best user+system CPU time (wait4() of a small Python helper) and best wall time; the
# speed-up is peer CPU time / tracekit CPU time. Markdown on stdout, ready for RESULTS.md;
# progress on stderr.
#
# --peers-only measures the peers alone (tracekit cells say "not run"): it tries the
# script's plumbing and inputs before tracekit reads perf.data.
#
# Usage: bench/perf.sh [--runs N] [--tracekit PATH] [--perf-decode PATH] [--perf-data FILE] [--loops N] [--eh-samples N] [--peers-only]
set -u

runs=3
tk=
perf_decode=${PERF_DECODE:-}
perf_data=
loops=200000
eh_samples=1000000
peers_only=0

usage() {
	sed -n 's/^# Usage: //p' "$0"
}

while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--tracekit) tk=$2; shift 2 ;;
	--perf-decode) perf_decode=$2; shift 2 ;;
	--perf-data) perf_data=$2; shift 2 ;;
	--loops) loops=$2; shift 2 ;;
	--eh-samples) eh_samples=$2; shift 2 ;;
	--peers-only) peers_only=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
case "$runs$loops$eh_samples" in
*[!0-9]* | '')
	echo "perf.sh: --runs, --loops and --eh-samples take positive integers" >&2
	exit 2
	;;
esac
[ "$runs" -ge 1 ] || { echo "perf.sh: --runs must be at least 1" >&2; exit 2; }

note() {
	echo "perf.sh: $*" >&2
}

die() {
	note "$*"
	exit 1
}

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/out
work=$out/perf
helper=$work/helper.py
gen=$root/bench/gen-eh-perf.py

for t in perf python3; do
	command -v $t >/dev/null 2>&1 || die "$t is needed"
done
if [ ! -x /usr/bin/time ]; then
	note "/usr/bin/time missing: installing Debian package 'time'"
	if [ "$(id -u)" -eq 0 ]; then
		apt-get install -y time >&2 || { apt-get update >&2 && apt-get install -y time >&2; }
	else
		sudo apt-get install -y time >&2
	fi
	[ -x /usr/bin/time ] || die "cannot install /usr/bin/time (Debian package 'time')"
fi
if [ -n "$perf_decode" ]; then
	case $perf_decode in */*) ;; *) perf_decode=$(command -v "$perf_decode") ;; esac
	[ -x "$perf_decode" ] || die "perf-decode is not an executable: $perf_decode"
fi
started=$(date +%s)
# the interpreter itself, not a wrapper (a pyenv shim costs a second per call)
py=$(python3 -c 'import sys; print(sys.executable)') || die "python3 does not run"
mkdir -p "$out/traces" "$work"
: >"$work/notes"

# Notes end up in the header of the output, and on stderr as they happen.
remark() {
	note "$*"
	echo "- $*" >>"$work/notes"
}

# ---- The timing helper ---------------------------------------------------------------------
# run ERR CMD...: CMD with stdout on /dev/null and stderr in ERR; prints "CPU WALL STATUS"
# (user+system seconds from wait4(), wall seconds, exit status).
cat >"$helper" <<'EOF'
import os, sys, time

err, cmd = sys.argv[1], sys.argv[2:]
fa = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
      (os.POSIX_SPAWN_OPEN, 2, err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
t0 = time.perf_counter()
pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=fa)
_, status, ru = os.wait4(pid, 0)
print("%.6f %.6f %d" % (ru.ru_utime + ru.ru_stime, time.perf_counter() - t0,
                        os.waitstatus_to_exitcode(status)))
EOF

# ---- tracekit ------------------------------------------------------------------------------
if [ $peers_only -eq 1 ]; then
	TK=tracekit
	tk_version="not run (--peers-only)"
elif [ -n "$tk" ]; then
	TK=$tk
	[ -x "$TK" ] || die "tracekit is not an executable: $TK"
	tk_version="$("$TK" --version | head -n 1) (\`$TK\`)"
else
	command -v meson >/dev/null 2>&1 || die "meson is needed to build tracekit"
	build=$out/build
	if [ ! -f "$build/build.ninja" ]; then
		note "configuring a release build in $build"
		meson setup "$build" "$root" -Dbuildtype=release -Dtests=false >&2 ||
			die "meson setup failed"
	fi
	ninja -C "$build" >&2 || die "build failed in $build"
	TK=$build/tools/tracekit/tracekit
	commit=$(git -C "$root" rev-parse --short HEAD)
	git -C "$root" diff --quiet HEAD -- || commit="$commit + uncommitted changes"
	tk_version="$("$TK" --version | head -n 1), $commit (\`bench/out/build\`, \`-Dbuildtype=release -Dtests=false\`)"
fi

# ---- The rows ------------------------------------------------------------------------------
# cmd_of ROW WHO: the command of a row (WHO: peer or tk), written with $P and $E (the inputs),
# $TK and $PERF_DECODE. It is evaluated to run it and printed, quotes removed, in the header:
# to measure another tracekit command, change it here.
# shellcheck disable=SC2016 # single quotes: expanded when evaluated
cmd_of() {
	case $1:$2 in
	text:peer) echo 'perf script -i "$P"' ;;
	text:tk) echo '"$TK" print "$P"' ;;
	json:peer) echo '"$PERF_DECODE" "$E"' ;;
	json:tk) echo '"$TK" print --style perf-decode "$E"' ;;
	*) die "no command for $1:$2" ;;
	esac
}

# count ROW: the events in a command's output on stdin, by what each row prints per event
count() {
	case $1 in
	text) grep -c -E '\[[0-9]+\] +[0-9]+\.[0-9]+: ' ;;
	json) grep -c -E '^[[:space:]]*\{ *"n" *:' ;;
	esac
}

# ---- Inputs --------------------------------------------------------------------------------
if [ -n "$perf_data" ]; then
	P=$perf_data
	[ -s "$P" ] || die "no such perf.data file: $P"
	p_recipe="given: \`$P\`"
else
	P=$out/traces/perf-sched-pipe-$loops.data
	rec="perf record -q -m 8M -e 'sched:*' -e 'irq:*' -e 'timer:*' -a -c 1 -- perf bench sched pipe -l $loops"
	if [ ! -s "$P" ]; then
		[ "$(id -u)" -eq 0 ] || die "recording P.data needs root (or give --perf-data FILE)"
		[ -d /sys/kernel/tracing/events/sched ] ||
			die "no tracefs with sched events to record P.data (or give --perf-data FILE)"
		note "recording $P: $rec"
		eval "perf record -q -m 8M -o \"\$P.tmp\" -e 'sched:*' -e 'irq:*' -e 'timer:*' -a -c 1 \
			-- perf bench sched pipe -l $loops" >"$work/record.log" 2>&1 ||
			die "perf record failed: $(tail -n 2 "$work/record.log")"
		mv "$P.tmp" "$P"
	fi
	p_recipe="recorded: \`$rec\`"
fi

E=$out/traces/eh-$eh_samples.data
stamp="$(cat "$gen" "$root/scripts/perfwrite.py" | cksum) -n $eh_samples"
if [ ! -s "$E" ] || [ ! -f "$E.stamp" ] || [ "$(cat "$E.stamp")" != "$stamp" ]; then
	note "writing $E (gen-eh-perf.py -n $eh_samples)"
	rm -f "$E" "$E.stamp"
	"$py" "$gen" -n "$eh_samples" -o "$E" || die "gen-eh-perf.py failed"
	echo "$stamp" >"$E.stamp"
fi
PERF_DECODE=$perf_decode

# ---- Checks, once before the rounds (they also warm the page cache) --------------------------
: >"$work/best"
# keep KEY CPU WALL RSS: the best CPU and wall times and the highest RSS of KEY so far
keep() {
	awk -v k="$1" -v c="$2" -v w="$3" -v r="$4" '
		function lo(a, b) { return a == "-" ? b : b == "-" ? a : (b + 0 < a + 0 ? b : a) }
		function hi(a, b) { return a == "-" ? b : b == "-" ? a : (b + 0 > a + 0 ? b : a) }
		$1 == k { c = lo($2, c); w = lo($3, w); r = hi($4, r); next }
		{ print }
		END { print k, c, w, r }' "$work/best" >"$work/best.new" &&
		mv "$work/best.new" "$work/best"
}

# check ROW WHO: run the command once, count the events of its output (in $n) and keep its
# peak RSS. /usr/bin/time forks it from a small process: a child of the Python helper would
# report the helper's own RSS. Returns 1 (stderr in $work/err) when the command fails.
check() {
	c=$(cmd_of "$1" "$2")
	note "checking: $(echo "$c" | tr -d '"')"
	n=$({
		eval "/usr/bin/time -f %M -o \"\$work/rss\" $c" 2>"$work/err"
		echo $? >"$work/rc"
	} | count "$1")
	st=$(cat "$work/rc")
	[ "$st" -eq 0 ] || { echo "exit status $st" >>"$work/err"; return 1; }
	keep "$1.$2" - - "$(tail -n 1 "$work/rss")"
}

# expanded ROW WHO: the command with its variables' values, for error messages
expanded() {
	(
		eval "set -- $(cmd_of "$1" "$2")"
		echo "$*"
	)
}

# tk_check ROW WANT: tracekit must run and print WANT events; anything else stops the run
tk_check() {
	[ $peers_only -eq 1 ] && return
	check "$1" tk || die "tracekit failed: $(expanded "$1" tk):
$(head -n 5 "$work/err")"
	[ "$n" = "$2" ] || die "$(expanded "$1" tk): $n events in its output, expected $2"
}

skip=
if check text peer; then
	p_events=$n
	[ "$p_events" -gt 0 ] || die "perf script prints no sample lines for $P"
	[ "$p_events" -ge 1000000 ] ||
		remark "P.data holds $p_events samples, fewer than the 1,000,000 issue 13 asks for (raise --loops)"
else
	die "perf script -i $P failed: $(head -n 3 "$work/err")"
fi
tk_check text "$p_events"

e_events=$eh_samples
if [ -z "$PERF_DECODE" ]; then
	skip="$skip json.peer"
	remark "row b: peer not built (give --perf-decode PATH or PERF_DECODE; README.md says how to build it)"
elif check json peer; then
	[ "$n" = "$e_events" ] || {
		remark "perf-decode prints $n events of the $e_events in E.data: its cells are left out"
		skip="$skip json.peer"
	}
else
	remark "perf-decode fails on E.data ($(head -n 1 "$work/err")): its cells are left out"
	skip="$skip json.peer"
fi
tk_check json "$e_events"

# ---- Rounds ---------------------------------------------------------------------------------
# measure ROW WHO: run the command once, timed, and keep its figures
measure() {
	key=$1.$2
	case " $skip " in *" $key "*) return ;; esac
	[ "$2" = tk ] && [ $peers_only -eq 1 ] && return
	c=$(cmd_of "$1" "$2")
	eval "set -- $c"
	"$py" "$helper" "$work/err" "$@" >"$work/t" || die "the timing helper failed: $*"
	read -r cpu wall st <"$work/t"
	[ "$st" = 0 ] || die "exit status $st: $* ($(head -n 1 "$work/err"))"
	keep "$key" "$cpu" "$wall" -
}

i=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	note "round $i of $runs, $(($(date +%s) - started)) s in"
	for w in text json; do
		for k in peer tk; do
			measure "$w" "$k"
		done
	done
done

# ---- Report ---------------------------------------------------------------------------------
get() { # KEY FIELD(2 cpu, 3 wall, 4 rss): the figure, or nothing
	awk -v k="$1" -v f="$2" '$1 == k && $f != "-" { print $f }' "$work/best"
}
secs() { [ -n "$1" ] && awk -v s="$1" 'BEGIN { printf "%.3f", s }' || echo "—"; }
mib() { [ -n "$1" ] && awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }' || echo "—"; }
rate() { # EVENTS SECONDS: events per second
	[ -n "$2" ] && awk -v n="$1" -v s="$2" 'BEGIN {
		r = n / s; if (r >= 1e6) printf "%.2f M", r / 1e6; else printf "%.0f k", r / 1e3 }' ||
		echo "—"
}
speedup() { # PEER TK: peer / tracekit
	[ -n "$1" ] && [ -n "$2" ] && awk -v p="$1" -v t="$2" 'BEGIN { printf "%.1fx", p / t }' ||
		echo "—"
}

tk_cell() { # FORMAT ARGS...: a tracekit cell
	if [ $peers_only -eq 1 ]; then echo "not run"; else "$@"; fi
}
peer_cell() { # ROW FORMAT ARGS...: a peer cell
	case " $skip " in *" $1.peer "*)
		if [ -z "$PERF_DECODE" ]; then echo "peer not built"; else echo "fails"; fi
		return ;;
	esac
	shift
	"$@"
}

# line ROW LABEL PEER-LABEL EVENTS
line() {
	pc=$(get "$1.peer" 2) tc=$(get "$1.tk" 2)
	echo "| $2 | $3 | $4 | $(peer_cell "$1" secs "$pc") | $(tk_cell secs "$tc") | $(peer_cell "$1" rate "$4" "$pc") | $(tk_cell rate "$4" "$tc") | $(peer_cell "$1" speedup "$pc" "$tc") | $(peer_cell "$1" secs "$(get "$1.peer" 3)") | $(tk_cell secs "$(get "$1.tk" 3)") | $(peer_cell "$1" mib "$(get "$1.peer" 4)") | $(tk_cell mib "$(get "$1.tk" 4)") |"
}

perf_version=$(perf version 2>/dev/null | head -n 1)
pd_version="not built"
if [ -n "$PERF_DECODE" ]; then
	pd_version="perf-decode (\`$PERF_DECODE\`)"
fi
echo "### perf.data read, $(date -u +%Y-%m-%d)"
echo
echo "- Machine: $(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1), nproc $(nproc), Linux $(uname -r); shared, compare ratios only."
echo "- tracekit: $tk_version."
echo "- Peers: $perf_version; $pd_version; $(cc --version 2>/dev/null | head -n 1)."
echo "- Script: \`bench/perf.sh --runs $runs --loops $loops --eh-samples $eh_samples$([ -n "$perf_data" ] && echo " --perf-data $perf_data")$([ $peers_only -eq 1 ] && echo ' --peers-only')\`."
echo "  Each of $runs rounds runs every command in turn; a command's CPU time is user+system"
echo "  (wait4()), best of the rounds, its wall time the best too; output to /dev/null. Peak RSS:"
echo "  \`/usr/bin/time -f %M\` in the check run before the rounds. Speed-up: peer CPU time /"
echo "  tracekit CPU time. The whole run took $(($(date +%s) - started)) s."
echo "- Inputs:"
echo "  - \`P\`: $p_recipe ($(du -m "$P" | cut -f1) MiB, $p_events samples as perf script prints them)."
echo "  - \`E\`: \`bench/gen-eh-perf.py -n $eh_samples\` ($(du -m "$E" | cut -f1) MiB, $e_events EventHeader samples of the 374 events of LinuxTracepoints' EventHeaderInterceptorLE64.dat, cycled)."
echo "- Commands (\`TK\`: the tracekit under test; \`PERF_DECODE\`: the perf-decode above):"
echo "  a. \`$(cmd_of text tk | tr -d '"')\` against \`$(cmd_of text peer | tr -d '"')\`"
echo "  b. \`$(cmd_of json tk | tr -d '"')\` against \`$(cmd_of json peer | tr -d '"')\`"
if [ -s "$work/notes" ]; then
	echo "- Notes:"
	sed 's/^/  /' "$work/notes"
fi
echo
echo "| Work | Peer | Events | Peer CPU (s) | tracekit CPU (s) | Peer events/s | tracekit events/s | Speed-up | Peer wall (s) | tracekit wall (s) | Peer RSS (MiB) | tracekit RSS (MiB) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
line text "a. tracepoints to text (\`P\`)" "perf script" "$p_events"
line json "b. EventHeader to JSON (\`E\`)" "perf-decode" "$e_events"
