#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: `tracekit print FILE.data` against `perf script -i FILE.data`, the whole
# output byte for byte (the perf style, which the style "auto" picks for perf.data):
#   1. a file-mode perf.data recorded here with `perf record -e 'sched:*' -e 'irq:*'
#      -e 'timer:*' -a` around a small workload: perf names the kernel addresses of timer
#      events (hrtimer function=...) from the running kernel's /proc/kallsyms or its
#      build-id cache, and so must we;
#   2. the same recorded in pipe mode (`perf record -o - ... >FILE`), where perf 6.1 prints
#      those addresses in hex;
#   3. --style perf -t against perf script --ns (times with nanoseconds);
#   4. a file recorded with one-page buffers (-m 1) around a busier workload, which usually
#      loses samples (LOST and LOST_SAMPLES records): perf script prints nothing for them,
#      nor must we (the test says whether the file had losses);
#   5. the corpus pipe.data (sched_switch and user_events EventHeader samples): perf prints
#      only the EventHeader header fields through the print fmt, which we print alike, so
#      the whole output is compared too;
#   6. a file recorded with call chains (-g): the samples' lines as perf script prints them
#      (task names unpadded), without the chains, and a warning saying they are not read; a
#      cpu-clock file warns that its ip, symbol and period are not read; the files above,
#      none.
# perf record runs with HOME in the test's directory, so that the build-id cache it fills is
# the test's, and perf script and tracekit run with that HOME too.
# Exits 77 when perf is missing or cannot record tracepoints (not root, no tracefs).
#
# Usage: perf-script.sh TRACEKIT [CORPUS_DIR]
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
corpus=${2:-}
command -v perf >/dev/null 2>&1 || { echo "skip: perf not found in PATH" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
HOME=$tmp/home
export HOME
mkdir -p "$HOME"

fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}

# a little of everything: sleeps (hrtimers), forks and execs, some disk and CPU work
workload='i=0; while [ $i -lt 20 ]; do ls /proc >/dev/null; i=$((i + 1)); done; sleep 0.2'
perf record -q -o "$tmp/file.data" -e 'sched:*' -e 'irq:*' -e 'timer:*' -a \
	-- sh -c "$workload" >/dev/null 2>"$tmp/rec.err" || {
	echo "skip: perf record cannot record tracepoints here: $(head -c 300 "$tmp/rec.err")" >&2
	exit 77
}
perf record -q -o - -e 'sched:*' -e 'irq:*' -e 'timer:*' -a -- sh -c "$workload" \
	>"$tmp/pipe.data" 2>"$tmp/rec.err" || fail "perf record -o - failed: $(head -c 300 "$tmp/rec.err")"
busy='i=0; while [ $i -lt 30 ]; do ls -R /usr/include >/dev/null 2>&1; i=$((i + 1)); done'
perf record -q -m 1 -o "$tmp/lossy.data" -e 'sched:*' -e 'irq:*' -e 'timer:*' -a \
	-- sh -c "$busy" >/dev/null 2>"$tmp/rec.err" || fail "perf record -m 1 failed: $(head -c 300 "$tmp/rec.err")"

# compare NAME FILE [PERF_OPTION TRACEKIT_OPTION...]: the whole outputs, byte for byte
compare() {
	name=$1
	file=$2
	shift 2
	perf_opts=
	tk_opts=
	while [ $# -gt 1 ]; do
		perf_opts="$perf_opts $1"
		tk_opts="$tk_opts $2"
		shift 2
	done
	# shellcheck disable=SC2086
	perf script $perf_opts -i "$file" >"$tmp/perf.txt" 2>"$tmp/perf.err"
	n=$(wc -l <"$tmp/perf.txt")
	if [ "$n" -eq 0 ]; then
		fail "$name: perf script printed nothing: $(head -c 300 "$tmp/perf.err")"
		return
	fi
	# shellcheck disable=SC2086
	if ! "$tk" print $tk_opts "$file" >"$tmp/tk.txt" 2>"$tmp/tk.err"; then
		fail "$name: tracekit print failed: $(cat "$tmp/tk.err")"
		return
	fi
	if ! cmp -s "$tmp/perf.txt" "$tmp/tk.txt"; then
		fail "$name: tracekit print differs from perf script ($n lines):"
		diff "$tmp/perf.txt" "$tmp/tk.txt" | head -10
		return
	fi
	echo "ok: $name: $n lines as perf script prints them"
}

compare "perf record (file mode)" "$tmp/file.data"
# the run must have had something to name: else part 1 proves less than it says
if ! grep -q 'function=[a-z_]' "$tmp/tk.txt"; then
	fail "file mode: no timer event with a named function= (kernel symbols not found?)"
fi
compare "perf record (file mode), --style perf" "$tmp/file.data" --ns "--style perf -t"
[ -s "$tmp/pipe.data" ] && compare "perf record -o - (pipe mode)" "$tmp/pipe.data"
if [ -s "$tmp/lossy.data" ]; then
	lost=$(perf report -i "$tmp/lossy.data" --stats 2>/dev/null | awk '$1 == "LOST" { print $3; exit }')
	compare "perf record -m 1 (LOST records: ${lost:-0})" "$tmp/lossy.data"
fi
if [ -n "$corpus" ] && [ -f "$corpus/eventheader/pipe.data" ]; then
	compare "corpus pipe.data" "$corpus/eventheader/pipe.data"
else
	echo "note: corpus pipe.data not found: recorded files only" >&2
fi

# 6. call chains (-g): perf script prints each chain after its sample's line, which then has
# the task name unpadded; tracekit prints those lines alike and no chain, and says so
perf record -q -g -o "$tmp/chains.data" -e sched:sched_switch -a -- sh -c "$workload" \
	>/dev/null 2>"$tmp/rec.err" || fail "perf record -g failed: $(head -c 300 "$tmp/rec.err")"
if [ -s "$tmp/chains.data" ]; then
	perf script -i "$tmp/chains.data" >"$tmp/perf.txt" 2>/dev/null
	grep -c '^	' "$tmp/perf.txt" >"$tmp/n" || fail "-g: perf script printed no call chain"
	grep -v '^	' "$tmp/perf.txt" | grep -v '^$' >"$tmp/perf.lines"
	"$tk" print "$tmp/chains.data" >"$tmp/tk.txt" 2>"$tmp/tk.err" || fail "-g: tracekit failed: $(cat "$tmp/tk.err")"
	if ! cmp -s "$tmp/perf.lines" "$tmp/tk.txt"; then
		fail "-g: the samples' lines differ from perf script's:"
		diff "$tmp/perf.lines" "$tmp/tk.txt" | head -6
	else
		echo "ok: perf record -g: $(wc -l <"$tmp/tk.txt") lines as perf script prints them, less $(cat "$tmp/n") call chain lines"
	fi
	grep -q '^tracekit: warning: .*call chains .* not read' "$tmp/tk.err" ||
		fail "-g: no warning that call chains are not printed: $(cat "$tmp/tk.err")"
fi
# samples of other events (cpu-clock): their ip, symbol and period are not printed, and said so
perf record -q -o "$tmp/clock.data" -e cpu-clock -- sh -c "$workload" >/dev/null 2>&1 &&
	"$tk" print "$tmp/clock.data" >/dev/null 2>"$tmp/tk.err"
grep -q '^tracekit: warning: .*not tracepoints (cpu-clock)' "$tmp/tk.err" ||
	fail "cpu-clock: no warning that the ip, symbol and period are not printed: $(cat "$tmp/tk.err")"
for f in file.data pipe.data; do
	[ -s "$tmp/$f" ] || continue
	"$tk" print "$tmp/$f" >/dev/null 2>"$tmp/tk.err"
	[ -s "$tmp/tk.err" ] && fail "$f: a warning for a file whose samples print whole: $(cat "$tmp/tk.err")"
done

# the other styles still read it: trace-cmd's layout, one line per sample
"$tk" print --style trace-cmd "$tmp/file.data" >"$tmp/tc.txt" 2>"$tmp/tc.err" ||
	fail "--style trace-cmd failed: $(cat "$tmp/tc.err")"
perf script -i "$tmp/file.data" >"$tmp/perf.txt" 2>/dev/null
if [ "$(($(wc -l <"$tmp/tc.txt") - 1))" -ne "$(wc -l <"$tmp/perf.txt")" ]; then
	fail "--style trace-cmd: $(wc -l <"$tmp/tc.txt") lines, expected cpus=N and one per sample"
fi

[ $failures -eq 0 ] || exit 1
exit 0
