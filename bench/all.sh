#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The standing benchmark table: every comparison of tracekit with its peer tool, measured in
# one run and written as one Markdown table (stdout; progress on stderr), so that a single
# command gives the whole picture and two runs can be set side by side. The other scripts
# each measure one thing in depth; this one measures all of them alike:
#
#   - reading: CTF to text and CTF decoding against babeltrace2, trace.dat to text against
#     trace-cmd report, on a big raw_syscalls recording and on a fresh `-e all` recording;
#   - conversions in every direction, each against the nearest peer;
#   - the time until the first event line reaches a pipe (what `| head` waits for);
#   - a 1 ms --begin/--end window in the middle of traces of growing size (seek cost);
#   - peak RSS of every command.
#
# Each round runs every command once, in turn, so that a busy moment of the shared machine
# slows all of them alike (the two builds of --before take turns at going first); the table keeps each command's best user+system CPU time and best
# wall time over the rounds. CPU times come from wait4() of a small Python helper: the figures
# /usr/bin/time prints, at microsecond rather than 10 ms resolution (the window rows take
# milliseconds). Every command's output is checked once before the rounds (exit status,
# event counts against the input's and the peer's); a wrong tracekit output stops the run.
# That run also gives each command's peak RSS (/usr/bin/time -f %M). With --before REV, REV
# is built too (from `git archive` into bench/out/src-REV, release build in
# bench/out/build-REV) and measured in the same rounds, in its own columns.
#
# Usage: bench/all.sh [--runs N] [--before REV] [--quick] [--ctf-events N] [--dat-bytes N] [--eall-seconds N] [--seek-ctf-events N] [--seek-dat-events N] [--seek-scales 'A B C'] [--jobs N]
set -u

runs=
before=
quick=0
ctf_events=
dat_bytes=
eall_secs=
seek_ctf=
seek_dat=
scales="1 4 16"
jobs=

usage() {
	sed -n 's/^# Usage: //p' "$0"
}

while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--before) before=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--ctf-events) ctf_events=$2; shift 2 ;;
	--dat-bytes) dat_bytes=$2; shift 2 ;;
	--eall-seconds) eall_secs=$2; shift 2 ;;
	--seek-ctf-events) seek_ctf=$2; shift 2 ;;
	--seek-dat-events) seek_dat=$2; shift 2 ;;
	--seek-scales) scales=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
if [ $quick -eq 1 ]; then
	: "${runs:=1}" "${ctf_events:=100000}" "${dat_bytes:=25000}" "${eall_secs:=1}"
	: "${seek_ctf:=50000}" "${seek_dat:=25000}"
else
	: "${runs:=3}" "${ctf_events:=3000000}" "${dat_bytes:=1300000}" "${eall_secs:=3}"
	: "${seek_ctf:=1000000}" "${seek_dat:=500000}"
fi
case "$runs$ctf_events$dat_bytes$eall_secs$seek_ctf$seek_dat$jobs$(echo "$scales" | tr -d ' ')" in
*[!0-9]* | '')
	echo "all.sh: sizes, --runs and --jobs take positive integers" >&2
	exit 2
	;;
esac
[ "$runs" -ge 1 ] || { echo "all.sh: --runs must be at least 1" >&2; exit 2; }

note() {
	echo "all.sh: $*" >&2
}

die() {
	note "$*"
	exit 1
}

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/out
work=$out/all
scratch=$work/scratch
helper=$work/helper.py
tcns=$root/../shared/tools/trace-cmd-ns

for t in babeltrace2 trace-cmd meson ninja git python3; do
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
started=$(date +%s)
# the interpreter itself, not a wrapper (a pyenv shim costs a second per call)
py=$(python3 -c 'import sys; print(sys.executable)') || die "python3 does not run"
mkdir -p "$out/traces" "$work"
trap 'rm -rf "$scratch"' EXIT
: >"$work/notes"

# Notes end up in the header of the output, and on stderr as they happen.
remark() {
	note "$*"
	echo "- $*" >>"$work/notes"
}

# ---- The timing helper ---------------------------------------------------------------------
# run ERR CMD...: CMD with stdout on /dev/null and stderr in ERR; prints "CPU WALL - STATUS"
#   (user+system seconds from wait4(), wall seconds, exit status).
# first ERR CMD...: CMD with stdout on a pipe; prints "- WALL - 0", WALL the seconds until the
#   first event line (babeltrace2's "[time]" or trace-cmd's "[cpu] time:") arrives, then ends
#   CMD; exits 1 when no event line comes.
# table ROWS BEST BEFORE ROUNDS: the Markdown table (see report below); ROUNDS holds each
#   timed run as "KEY ROUND CPU WALL", for the per-round changes.
cat >"$helper" <<'EOF'
import math, os, re, signal, sys, time

def spawn(cmd, out_fd, err):
    fa = [(os.POSIX_SPAWN_OPEN, 2, err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
    if out_fd is None:
        fa.append((os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0))
    else:
        fa.append((os.POSIX_SPAWN_DUP2, out_fd, 1))
    return os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=fa)

def run(err, cmd):
    t0 = time.perf_counter()
    pid = spawn(cmd, None, err)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    print("%.6f %.6f - %d" % (ru.ru_utime + ru.ru_stime, wall, os.waitstatus_to_exitcode(status)))

def first(err, cmd):
    event = re.compile(rb"^\[[0-9]|\[[0-9]+\] +[0-9]+\.[0-9]+: ")
    r, w = os.pipe()
    t0 = time.perf_counter()
    pid = spawn(cmd, w, err)
    os.close(w)
    wall = None
    with os.fdopen(r, "rb") as f:
        for line in f:
            if event.search(line):
                wall = time.perf_counter() - t0
                break
        os.kill(pid, signal.SIGKILL)
    os.wait4(pid, 0)
    if wall is None:
        sys.exit(1)
    print("- %.6f - 0" % wall)

def table(rows_path, best_path, with_before, rounds_path):
    best = {}
    for line in open(best_path):
        k, cpu, wall, rss = line.split()
        best[k] = (cpu, wall, rss)
    by_round = {}
    for line in open(rounds_path):
        k, r, cpu, wall = line.split()
        by_round[(k, r)] = (float(cpu), float(wall))
    def spread(wid, i):
        # the change of each round, the two builds having run one after the other in it
        ch = []
        for (k, r), v in by_round.items():
            if k == wid + ".after" and (wid + ".before", r) in by_round and v[i] > 0:
                ch.append((by_round[(wid + ".before", r)][i] - v[i]) / v[i] * 100)
        if len(ch) < 2:
            return "—"
        lo, hi = min(ch), max(ch)
        return "%+.1f%% to %+.1f%%%s" % (lo, hi, " (noise)" if lo <= 0 <= hi else "")
    def get(key, i):
        v = best.get(key, ("-", "-", "-"))
        return None if v[0] == "fail" or v[i] == "-" else float(v[i])
    def secs(v):
        return "—" if v is None else "%.3f" % v
    def mib(v):
        return "—" if v is None else "%.1f" % (v / 1024)
    def ratio(p, t):
        return None if p is None or t is None or t <= 0 else p / t
    def x(r, kind):
        if r is None:
            return "—"
        # cut, not rounded, to a tenth: a target of 15x is met only by a printed 15.0x
        return "%.1fx%s" % (math.floor(r * 10) / 10, " (wall)" if kind == "first" else "")
    cols = ["#", "Work", "Peer", "Peer CPU (s)"]
    if with_before:
        cols += ["Before CPU (s)", "After CPU (s)", "Speed-up before", "Speed-up after",
                 "Change", "Change by round", "Peer wall (s)", "Before wall (s)",
                 "After wall (s)",
                 "Peer RSS (MiB)", "Before RSS (MiB)", "After RSS (MiB)"]
    else:
        cols += ["tracekit CPU (s)", "Speed-up", "Peer wall (s)", "tracekit wall (s)",
                 "Peer RSS (MiB)", "tracekit RSS (MiB)"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "|".join(["---:", "---", "---"] + ["---:"] * (len(cols) - 3)) + "|")
    for n, line in enumerate(open(rows_path), 1):
        wid, label, peer, peer_key, kind = line.rstrip("\n").split("\t")
        i = 1 if kind == "first" else 0
        p = get(peer_key, i) if peer_key != "-" else None
        a = get(wid + ".after", i)
        cells = [str(n), label, peer, secs(get(peer_key, 0)) if peer_key != "-" else "—"]
        ra = x(ratio(p, a), kind)
        if with_before:
            b = get(wid + ".before", i)
            failed = best.get(wid + ".before", ("-",))[0] == "fail"
            bcpu = "fails" if failed else secs(get(wid + ".before", 0))
            rb = ratio(p, b)
            change = "—"
            if rb is not None and ratio(p, a) is not None:
                change = "%+.1f%%" % ((ratio(p, a) - rb) / rb * 100)
            elif p is None and a is not None and b is not None and a > 0:
                change = "%+.1f%% (time)" % ((b - a) / a * 100)
            cells += [bcpu, secs(get(wid + ".after", 0)), x(rb, kind), ra, change,
                      spread(wid, i), secs(get(peer_key, 1)) if peer_key != "-" else "—",
                      secs(get(wid + ".before", 1)), secs(get(wid + ".after", 1)),
                      mib(get(peer_key, 2)) if peer_key != "-" else "—",
                      mib(get(wid + ".before", 2)), mib(get(wid + ".after", 2))]
        else:
            cells += [secs(get(wid + ".after", 0)), ra,
                      secs(get(peer_key, 1)) if peer_key != "-" else "—",
                      secs(get(wid + ".after", 1)),
                      mib(get(peer_key, 2)) if peer_key != "-" else "—",
                      mib(get(wid + ".after", 2))]
        print("| " + " | ".join(cells) + " |")

if sys.argv[1] == "run":
    run(sys.argv[2], sys.argv[3:])
elif sys.argv[1] == "first":
    first(sys.argv[2], sys.argv[3:])
else:
    table(sys.argv[2], sys.argv[3], sys.argv[4] == "1", sys.argv[5])
EOF

# ---- Builds: the working tree in bench/out/build, REV in bench/out/build-REV ---------------
build() { # SRC DIR
	if [ ! -f "$2/build.ninja" ]; then
		note "configuring a release build in $2"
		meson setup "$2" "$1" -Dbuildtype=release -Dtests=false >&2 || die "meson setup failed"
	fi
	ninja -C "$2" ${jobs:+-j "$jobs"} >&2 || die "build failed in $2"
}
build "$root" "$out/build"
tk_after=$out/build/tools/tracekit/tracekit
gen_ctf=$out/build/tests/tools/gen-ctf
gen_dat=$out/build/tests/tools/gen-dat
tk_before=
if [ -n "$before" ]; then
	rev=$(git -C "$root" rev-parse --short "$before^{commit}") || die "no commit $before"
	if [ ! -f "$out/src-$rev/meson.build" ]; then
		note "extracting $rev into $out/src-$rev"
		rm -rf "$out/src-$rev"
		mkdir -p "$out/src-$rev"
		git -C "$root" archive "$rev" | tar -x -C "$out/src-$rev" || die "git archive failed"
	fi
	build "$out/src-$rev" "$out/build-$rev"
	tk_before=$out/build-$rev/tools/tracekit/tracekit
fi

# ---- Inputs ----------------------------------------------------------------------------------
# make_input PATH GENERATOR OPTIONS...: write PATH with the generator unless it holds a file
# made by the same generator binary with the same options (as bench/ctf-read.sh does).
make_input() {
	path=$1 gen=$2
	shift 2
	stamp="$(cksum <"$gen") $*"
	if [ -e "$path" ] && [ -f "$path.stamp" ] && [ "$(cat "$path.stamp")" = "$stamp" ]; then
		return
	fi
	note "writing $path ($(basename "$gen") $*)"
	rm -rf "$path" "$path.stamp"
	"$gen" "$@" "$path" >&2 || die "$(basename "$gen") failed"
	echo "$stamp" >"$path.stamp"
}

events_of() { # TRACE [TRACEKIT]: the event count tracekit info gives
	"${2:-$tk_after}" info "$1" 2>/dev/null | sed -n 's/^Events: *\([0-9]*\).*/\1/p'
}

ctf_opts="--layout lttng --streams 2 --packet-size 262144"
CTF=$out/traces/lttng-$ctf_events
# shellcheck disable=SC2086 # word lists
make_input "$CTF" "$gen_ctf" $ctf_opts --events "$ctf_events"
ctf_recipe="\`gen-ctf $ctf_opts --events $ctf_events\`"

can_record=1
why_not=
if [ "$(id -u)" -ne 0 ]; then
	can_record=0 why_not="not root"
elif [ ! -d /sys/kernel/tracing/events/raw_syscalls ]; then
	can_record=0 why_not="no tracefs with raw_syscalls events"
fi
recorder=trace-cmd
[ -x "$tcns" ] && recorder=$tcns

# The big trace.dat: recorded as bench/tracedat-read.sh records it, else generated.
DAT=$out/traces/syscalls-$dat_bytes.v7-zstd.dat
if [ $can_record -eq 1 ] && [ ! -s "$DAT" ]; then
	note "recording raw_syscalls while dd copies $dat_bytes bytes one at a time"
	if ! "$recorder" record -b 65536 -e raw_syscalls -o "$DAT" -- \
		dd if=/dev/zero of=/dev/null bs=1 count="$dat_bytes" >"$work/record.log" 2>&1; then
		rm -f "$DAT"
		can_record=0 why_not="trace-cmd record failed: $(tail -n 1 "$work/record.log")"
	fi
fi
if [ -s "$DAT" ]; then
	dat_recipe="recorded: \`$(basename "$recorder") record -b 65536 -e raw_syscalls -- dd if=/dev/zero of=/dev/null bs=1 count=$dat_bytes\` (v7, zstd)"
else
	DAT=$out/traces/gen-dat-$((dat_bytes * 4)).dat
	make_input "$DAT" "$gen_dat" -n $((dat_bytes * 4)) -c 2 --compression zstd
	dat_recipe="generated, as recording is impossible here ($why_not): \`gen-dat -n $((dat_bytes * 4)) -c 2 --compression zstd\`"
	remark "trace.dat rows use a gen-dat file: $why_not"
fi

# babeltrace2's input for trace.dat to CTF: tracekit's CTF of DAT, less the ftrace
# environment kept for the way back to trace.dat (an LTTng trace has none), as in convert.sh
DATCTF=$work/dat-ctf
rm -rf "$DATCTF"
"$tk_after" convert -q "$DAT" -o "$DATCTF" 2>"$work/err" ||
	die "tracekit convert $DAT failed: $(head -n 2 "$work/err")"
sed -i '/^\t\(tracekit_\)\{0,1\}ftrace_[A-Za-z0-9_]* = /d' "$DATCTF/metadata"

# A fresh -e all recording of a busy workload: forks, execs, file reads and pipes.
EALL=$work/eall.dat
rm -f "$EALL"
eall_recipe=
if [ $can_record -eq 1 ]; then
	note "recording -e all for $eall_secs s of a busy workload"
	# shellcheck disable=SC2016 # the workload's own script
	busy='end=$(($(date +%s) + $1)); while [ "$(date +%s)" -lt "$end" ]; do
		ls -l /usr/bin >/dev/null; cat /proc/meminfo /proc/stat >/dev/null
		dd if=/dev/zero of=/dev/null bs=4096 count=64 2>/dev/null; done'
	if "$recorder" record -e all -o "$EALL" -- sh -c "$busy" sh "$eall_secs" \
		>"$work/record.log" 2>&1 && [ -s "$EALL" ]; then
		eall_recipe="\`$(basename "$recorder") record -e all -- sh -c 'loop for $eall_secs s: ls -l /usr/bin; cat /proc/meminfo /proc/stat; dd bs=4096 count=64'\` (v7, zstd), recorded by this run"
	else
		remark "no -e all rows: trace-cmd record -e all failed ($(tail -n 1 "$work/record.log"))"
		rm -f "$EALL"
	fi
else
	remark "no -e all rows: cannot record ($why_not)"
fi

# Seek inputs: SCTF_s and SDAT_s, s times the base size, with a 1 ms window (_B, _E) that
# starts at the first event at or after the middle of the trace's time range.
# window VAR TRACE: set VAR_B and VAR_E, and win_b and win_e to the same.
window() {
	mid=$("$tk_after" info "$2" | awk '
		/^Earliest event:/ { split($3, a, "."); b = a[1]; bn = a[2] }
		/^Latest event:/ { split($3, a, "."); e = a[1]; en = a[2] }
		END {
			# seconds and nanoseconds apart: double precision cannot hold the sum
			s = (b + e) / 2; ns = (bn + en) / 2
			if (s != int(s)) { s = int(s); ns += 500000000 }
			if (ns >= 1e9) { s++; ns -= 1e9 }
			printf "%d.%09d", s, ns }')
	ts=$("$tk_after" print --style json --begin "$mid" "$2" | head -n 1 |
		sed -n 's/^{"ts":\([0-9]*\),.*/\1/p')
	[ -n "$ts" ] || die "no event after the middle ($mid) of $2"
	win_b=$(echo "$ts" | sed 's/\(.........\)$/.\1/')
	win_e=$(echo "$ts" | awk '{ s = substr($0, 1, length($0) - 9); ns = substr($0, length($0) - 8) + 1000000
		if (ns >= 1e9) { s++; ns -= 1e9 }
		printf "%s.%09d", s, ns }')
	eval "${1}_B=\$win_b ${1}_E=\$win_e"
}
seek_recipe=
for s in $scales; do
	n=$((seek_ctf * s))
	p=$out/traces/lttng-$n
	# shellcheck disable=SC2086 # word lists
	make_input "$p" "$gen_ctf" $ctf_opts --events "$n"
	eval "SCTF_$s=\$p"
	window "SCTF_$s" "$p"
	wb=$win_b we=$win_e
	n=$((seek_dat * s))
	p=$out/traces/gen-dat-$n.dat
	make_input "$p" "$gen_dat" -n "$n" -c 2 --compression zstd
	eval "SDAT_$s=\$p"
	window "SDAT_$s" "$p"
	seek_recipe="$seek_recipe
  - \`SCTF_$s\`: \`gen-ctf $ctf_opts --events $((seek_ctf * s))\`
    ($(du -sm "$out/traces/lttng-$((seek_ctf * s))" | cut -f1) MiB), window $wb to $we;
    \`SDAT_$s\`: \`gen-dat -n $n -c 2 --compression zstd\` ($(du -m "$p" | cut -f1) MiB),
    window $win_b to $win_e."
done

# ---- The rows --------------------------------------------------------------------------------
# cmd_of WORK WHO: the command of a row (WHO: peer or tk), written with the input variables
# above, $TK (the tracekit under test) and $O (a fresh scratch path). It is evaluated to run
# it and printed, quotes removed, in the header.
# shellcheck disable=SC2016 # single quotes: expanded when evaluated
cmd_of() {
	case $1:$2 in
	ctf_text:peer | ttfe_ctf:peer) echo 'babeltrace2 "$CTF"' ;;
	ctf_text:tk | ttfe_ctf:tk) echo '"$TK" print "$CTF"' ;;
	ctf_decode:peer) echo 'babeltrace2 -o dummy "$CTF"' ;;
	ctf_decode:tk) echo '"$TK" info "$CTF"' ;;
	dat_text:peer | ttfe_dat:peer) echo 'trace-cmd report "$DAT"' ;;
	dat_text:tk | ttfe_dat:tk) echo '"$TK" print "$DAT"' ;;
	eall_text:peer | ttfe_eall:peer) echo 'trace-cmd report "$EALL"' ;;
	eall_text:tk | ttfe_eall:tk) echo '"$TK" print "$EALL"' ;;
	dat_ctf:peer) echo 'babeltrace2 "$DATCTF" -o ctf -w "$O"' ;;
	dat_ctf:tk) echo '"$TK" convert -q "$DAT" -o "$O"' ;;
	ctf_ctf:peer) echo 'babeltrace2 "$CTF" -o ctf -w "$O"' ;;
	ctf_ctf:tk) echo '"$TK" convert -q "$CTF" -o "$O"' ;;
	ctf_dat:tk) echo '"$TK" convert -q "$CTF" -o "$O.dat"' ;;
	dat_dat:peer) echo 'trace-cmd convert -i "$DAT" -o "$O.dat" --file-version 6 --compression none' ;;
	dat_dat:tk) echo '"$TK" convert -q "$DAT" -o "$O.dat" --file-version 6 --compression none' ;;
	dat_json:tk) echo '"$TK" convert -q "$DAT" --to json -o -' ;;
	seek_ctf_*:peer) s=${1#seek_ctf_}; echo "babeltrace2 \"\$SCTF_$s\" --begin=\"\$SCTF_${s}_B\" --end=\"\$SCTF_${s}_E\"" ;;
	seek_ctf_*:tk) s=${1#seek_ctf_}; echo "\"\$TK\" print \"\$SCTF_$s\" --begin \"\$SCTF_${s}_B\" --end \"\$SCTF_${s}_E\"" ;;
	seek_dat_*:peer) s=${1#seek_dat_}; echo "trace-cmd split -i \"\$SDAT_$s\" -o \"\$O.dat\" \"\$SDAT_${s}_B\" \"\$SDAT_${s}_E\"" ;;
	seek_dat_*:tk) s=${1#seek_dat_}; echo "\"\$TK\" print \"\$SDAT_$s\" --begin \"\$SDAT_${s}_B\" --end \"\$SDAT_${s}_E\"" ;;
	*) die "no command for $1:$2" ;;
	esac
}

# row WORK LABEL PEER-LABEL PEER-KEY KIND: a line of the table. PEER-KEY names the
# measurement of the peer (WORK.peer, another row's, or - for none); KIND is cpu (CPU time
# decides the speed-up) or first (the wall time to the first event line does).
: >"$work/rows"
row() {
	printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$work/rows"
}
row ctf_text "CTF to text (\`CTF\`)" "babeltrace2 (text)" ctf_text.peer cpu
row ctf_decode "CTF decode (\`CTF\`)" "babeltrace2 -o dummy" ctf_decode.peer cpu
row dat_text "trace.dat to text (\`DAT\`)" "trace-cmd report" dat_text.peer cpu
[ -s "$EALL" ] && row eall_text "trace.dat to text, -e all (\`EALL\`)" "trace-cmd report" eall_text.peer cpu
row dat_ctf "trace.dat to CTF (\`DAT\`)" "babeltrace2 CTF to CTF, same events" dat_ctf.peer cpu
row ctf_ctf "CTF to CTF (\`CTF\`)" "babeltrace2 -o ctf" ctf_ctf.peer cpu
row ctf_dat "CTF to trace.dat (\`CTF\`)" "babeltrace2 -o ctf (row $(grep -c '' "$work/rows")'s run)" ctf_ctf.peer cpu
row dat_dat "trace.dat v7 zstd to v6 (\`DAT\`)" "trace-cmd convert" dat_dat.peer cpu
row dat_json "trace.dat to JSON lines (\`DAT\`)" "none: trace-cmd report text (row 3's run)" dat_text.peer cpu
row ttfe_ctf "First event, CTF (\`CTF\`)" "babeltrace2" ttfe_ctf.peer first
row ttfe_dat "First event, trace.dat (\`DAT\`)" "trace-cmd report" ttfe_dat.peer first
[ -s "$EALL" ] && row ttfe_eall "First event, -e all (\`EALL\`)" "trace-cmd report" ttfe_eall.peer first
for s in $scales; do
	row "seek_ctf_$s" "1 ms window, CTF ${s}x (\`SCTF_$s\`)" "babeltrace2 --begin --end" "seek_ctf_$s.peer" cpu
done
for s in $scales; do
	row "seek_dat_$s" "1 ms window, trace.dat ${s}x (\`SDAT_$s\`)" "trace-cmd split" "seek_dat_$s.peer" cpu
done

# ---- Checks, once before the rounds (they also warm the page cache) --------------------------
O=$scratch/o
fresh() {
	rm -rf "$scratch"
	mkdir -p "$scratch"
}

# rss WORK WHO: run the command once (WHO: peer or tk), its peak RSS in $work/rss.
# /usr/bin/time forks it from a small process: a child of the Python helper would report the
# helper's own RSS (Linux carries the largest RSS of a process across exec()).
rss() {
	fresh
	c=$(cmd_of "$1" "$2")
	eval "/usr/bin/time -f %M -o \"\$work/rss\" $c"
}

# lines WORK WHO: run the command once, print the number of lines of its output; fails (status
# 1, first lines of stderr in $work/err) when the command does.
lines() {
	n=$({
		rss "$1" "$2" 2>"$work/err"
		echo $? >"$work/rc"
	} | wc -l)
	[ "$(cat "$work/rc")" = 0 ] || return 1
	echo "$n"
}

# expect WHO WHAT GOT WANT: a wrong tracekit (after) output stops the run; a wrong output of
# BEFORE or of a peer leaves its cells out with a note.
bad=
expect() {
	[ "$3" = "$4" ] && return 0
	case $1 in
	after) die "$2: got $3, expected $4" ;;
	*) remark "$2: got $3, expected $4"; bad="$bad $1" ;;
	esac
	return 1
}

n_ctf=$(events_of "$CTF")
n_dat=$(events_of "$DAT")
[ "${n_ctf:-0}" -gt 0 ] || die "tracekit info finds no events in $CTF"
[ "${n_dat:-0}" -gt 0 ] || die "tracekit info finds no events in $DAT"
n_eall=
[ -s "$EALL" ] && n_eall=$(events_of "$EALL")

nonzero() { # N: "at least 1" when N is a positive number, else N
	case $1 in '' | *[!0-9]* | 0) echo "$1" ;; *) echo "at least 1" ;; esac
}

# check WORK WHO: check one command's output; WHO is peer, before or after.
check() {
	w=$1 who=$2 k=tk
	[ "$who" = peer ] && k=peer
	TK=$tk_after
	[ "$who" = before ] && TK=$tk_before
	what="$w ($who: $(cmd_of "$w" $k | tr -d '"'))"
	case $w:$k in
	ctf_text:*)
		n=$(lines "$w" $k) || n="exit status $(cat "$work/rc")"
		expect "$who" "$what, lines" "$n" "$n_ctf"
		;;
	dat_text:* | eall_text:*)
		n=$(lines "$w" $k) || n="exit status $(cat "$work/rc")"
		want=$tc_lines
		[ "$w" = eall_text ] && want=$tc_eall_lines
		expect "$who" "$what, lines (trace-cmd report's)" "$n" "$want"
		;;
	ttfe_*:*)
		eval "set -- $(cmd_of "$w" $k)"
		if "$py" "$helper" first "$work/err" "$@" >/dev/null; then
			expect "$who" "$what" ok ok
		else
			expect "$who" "$what" "no event line ($(head -n 1 "$work/err"))" ok
		fi
		;;
	ctf_decode:* | seek_dat_*:peer)
		if rss "$w" $k >/dev/null 2>"$work/err"; then
			expect "$who" "$what" ok ok
		else
			expect "$who" "$what" "exit status $? ($(head -n 1 "$work/err"))" ok
		fi
		;;
	dat_ctf:* | ctf_ctf:* | ctf_dat:* | dat_dat:*)
		o=$O
		case $w in ctf_dat | dat_dat) o=$O.dat ;; esac
		want=$n_ctf
		case $w in dat_*) want=$n_dat ;; esac
		if rss "$w" $k >/dev/null 2>"$work/err"; then
			n=$(events_of "$o")
		else
			n="exit status $? ($(head -n 1 "$work/err"))"
		fi
		expect "$who" "$what, events in the output" "$n" "$want" || return
		# trace-cmd must read tracekit's trace.dat files as tracekit does
		if [ $k = tk ] && [ "${o%.dat}" != "$o" ]; then
			a=$("$tk_after" print "$o" | wc -l)
			b=$(trace-cmd report "$o" 2>/dev/null | wc -l)
			expect "$who" "$what, trace-cmd report lines of the output" "$b" "$a"
		fi
		;;
	dat_json:*)
		n=$(lines "$w" $k) || n="exit status $(cat "$work/rc")"
		expect "$who" "$what, JSON lines" "$n" "$n_dat"
		;;
	seek_ctf_*:*)
		# the window holds at least the event it starts at, and as many events as
		# babeltrace2 prints for it
		n=$(lines "$w" $k) || n="exit status $(cat "$work/rc")"
		if [ $k = peer ]; then
			seek_want=
			expect "$who" "$what, events in the window" "$(nonzero "$n")" "at least 1" &&
				seek_want=$n
		else
			expect "$who" "$what, events in the window" "$(nonzero "$n")" "at least 1" &&
				[ -n "$seek_want" ] &&
				expect "$who" "$what, events in the window (babeltrace2's)" "$n" "$seek_want"
		fi
		;;
	seek_dat_*:tk)
		n=$(lines "$w" $k) || n="exit status $(cat "$work/rc")"
		# the cpus=N line, then at least the event the window starts at
		[ "$n" -ge 2 ] 2>/dev/null || expect "$who" "$what, lines printed" "$n" "at least 2"
		;;
	esac
}

note "inputs ready after $(($(date +%s) - started)) s; checking every command once (also warms the page cache)"
: >"$work/best"
: >"$work/rounds"
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
keep_rss() { # KEY: the peak RSS of the last check run
	[ -s "$work/rss" ] && keep "$1" - - "$(tail -n 1 "$work/rss")"
	rm -f "$work/rss"
}
rm -f "$work/rss"
tc_lines=$(lines dat_text peer) || die "trace-cmd report $DAT failed: $(head -n 1 "$work/err")"
keep_rss dat_text.peer
tc_eall_lines=
if [ -s "$EALL" ]; then
	tc_eall_lines=$(lines eall_text peer) ||
		die "trace-cmd report $EALL failed: $(head -n 1 "$work/err")"
	keep_rss eall_text.peer
fi
skip=
while IFS="	" read -r w _ _ pk _ <&3; do
	for who in peer before after; do
		[ $who = peer ] && [ "$pk" != "$w.peer" ] && continue
		[ $who = before ] && [ -z "$tk_before" ] && continue
		case $w:$who in dat_text:peer | eall_text:peer) continue ;; esac
		note "checking $w ($who)"
		bad=
		check "$w" $who
		keep_rss "$w.$who"
		[ -n "$bad" ] && skip="$skip $w.$who"
	done
done 3<"$work/rows"

# ---- Rounds ---------------------------------------------------------------------------------

# measure WORK WHO: run the command once, timed, and keep its figures as WORK.WHO
# shellcheck disable=SC2034 # TK is used by the evaluated command
measure() {
	w=$1 who=$2 k=tk mode=run
	[ "$who" = peer ] && k=peer
	case " $skip " in *" $w.$who "*) keep "$w.$who" fail - -; return ;; esac
	case $w in ttfe_*) mode=first ;; esac
	TK=$tk_after
	[ "$who" = before ] && TK=$tk_before
	fresh
	c=$(cmd_of "$w" $k)
	eval "set -- $c"
	"$py" "$helper" $mode "$work/err" "$@" >"$work/t" ||
		die "no event line from: $* ($(head -n 1 "$work/err"))"
	read -r cpu wall _ st <"$work/t"
	[ "$st" = 0 ] || die "exit status $st: $* ($(head -n 1 "$work/err"))"
	keep "$w.$who" "$cpu" "$wall" -
	[ "$cpu" = - ] && cpu=0 # first-event runs have a wall time only
	echo "$w.$who $i $cpu $wall" >>"$work/rounds"
}

i=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	note "round $i of $runs, $(($(date +%s) - started)) s in"
	while IFS="	" read -r w _ _ pk _ <&3; do
		[ "$pk" = "$w.peer" ] && measure "$w" peer
		# the two builds take turns at going first: the one that follows another's run
		# (its output just deleted, its caches just filled) is not always the same
		if [ -n "$tk_before" ] && [ $((i % 2)) = 1 ]; then
			measure "$w" before
			measure "$w" after
		elif [ -n "$tk_before" ]; then
			measure "$w" after
			measure "$w" before
		else
			measure "$w" after
		fi
	done 3<"$work/rows"
done

# ---- Report ---------------------------------------------------------------------------------
commit=$(git -C "$root" rev-parse --short HEAD)
git -C "$root" diff --quiet HEAD -- || commit="$commit + uncommitted changes"
bt_version=$(babeltrace2 --version | head -n 1)
tc_version=$(trace-cmd --version 2>/dev/null | sed -n 's/^trace-cmd version \([^ ]*\).*/\1/p' | head -n 1)
mib() { du -sm "$1" | cut -f1; }
ctf_mib=$(mib "$CTF")
dat_mib=$(mib "$DAT")

echo "### All comparisons, $(date -u +%Y-%m-%d)"
echo
echo "- Machine: $(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1), nproc $(nproc), Linux $(uname -r); shared, compare ratios only."
if [ -n "$tk_before" ]; then
	echo "- Builds: before = $rev (\`bench/out/build-$rev\`), after = $commit (\`bench/out/build\`), both \`-Dbuildtype=release -Dtests=false\`; $("$tk_after" --version | head -n 1)."
else
	echo "- Build: $commit (\`bench/out/build\`, \`-Dbuildtype=release -Dtests=false\`); $("$tk_after" --version | head -n 1)."
fi
echo "- Peers: $bt_version; trace-cmd $tc_version; $(cc --version | head -n 1)."
echo "- Script: \`bench/all.sh --runs $runs$([ $quick -eq 1 ] && echo ' --quick')${before:+ --before $before} --ctf-events $ctf_events --dat-bytes $dat_bytes --eall-seconds $eall_secs --seek-ctf-events $seek_ctf --seek-dat-events $seek_dat --seek-scales '$scales'\`."
echo "  Each of $runs rounds runs every command in turn (with --before, the two builds take turns"
echo "  at going first); a command's CPU time is user+system"
echo "  (wait4()), best of the rounds, its wall time the best too. Peak RSS: \`/usr/bin/time -f %M\`"
echo "  in the check run before the rounds. Speed-up: peer time / tracekit time, CPU time except"
echo "  in the first-event rows (wall time until the first event line reaches a pipe, as"
echo "  \`| head\` sees it; the command is then killed), cut to a tenth (14.96 prints 14.9x)."
echo "  Outputs go to /dev/null or to files"
echo "  under bench/out/all/scratch. The whole run took $(($(date +%s) - started)) s."
if [ -n "$tk_before" ]; then
	echo "  Change: of the speed-up, after against before (the best times). Change by round: the"
	echo "  least and the most of the rounds' own changes, before and after having run one after"
	echo "  the other in each; (noise) when they are of both signs, so that the change is"
	echo "  within what the machine moves from one run to the next."
fi
echo "- Inputs:"
echo "  - \`CTF\`: $ctf_recipe ($ctf_mib MiB, $n_ctf events)."
echo "  - \`DAT\`: $dat_recipe ($dat_mib MiB, $n_dat events)."
echo "  - \`DATCTF\`: \`tracekit convert DAT -o DATCTF\`, less the ftrace_* environment entries (babeltrace2's input for trace.dat to CTF)."
if [ -s "$EALL" ]; then
	echo "  - \`EALL\`: $eall_recipe ($(mib "$EALL") MiB, $n_eall events)."
fi
echo "  - Seek: a 1 ms window from the first event at or after the middle of the time range:$seek_recipe"
echo "- Commands (\`TK\`: the tracekit under test; \`O\`: a fresh scratch path):"
n=0
while IFS="	" read -r w _ _ pk _; do
	n=$((n + 1))
	tkc=$(cmd_of "$w" tk | tr -d '"')
	case $w in ttfe_*) tkc="time to the first event line of $tkc" ;; esac
	if [ "$pk" = "$w.peer" ]; then
		echo "  $n. \`$tkc\` against \`$(cmd_of "$w" peer | tr -d '"')\`"
	else
		echo "  $n. \`$tkc\`"
	fi
done <"$work/rows"
if [ -s "$work/notes" ]; then
	echo "- Notes:"
	sed 's/^/  /' "$work/notes"
fi
echo
"$py" "$helper" table "$work/rows" "$work/best" "$([ -n "$tk_before" ] && echo 1 || echo 0)" \
	"$work/rounds"
