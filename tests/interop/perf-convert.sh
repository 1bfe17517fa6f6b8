#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: perf.data converted to CTF and to trace.dat, read by the peers. A file
# recorded here (sched, irq and timer tracepoints on every CPU, file mode) and the corpus
# perf.data and pipe.data (sched_switch and user_events EventHeader samples): `tracekit
# convert` to a CTF directory that babeltrace2 reads with exit 0, no warning and one line per
# sample, and to a trace.dat file that trace-cmd report reads with one line per sample; for
# the recorded file, each sample's CPU, time (us) and event name in trace-cmd report's lines
# must be perf script's (compared sorted: trace-cmd merges the CPUs in its own order, with
# ties to the lower CPU; perf-order.sh checks perf's order), and trace-cmd report's text of
# the trace.dat file, which keeps perf's formats and records, must be tracekit's trace-cmd
# style of the perf.data file, line by line (perf-dat-text.py: kernel function names, task
# names and the order of lines of one time are the only things normalised, and why).
# perf-dat.sh checks the corpus files' conversions value by value.
# Exits 77 when babeltrace2, trace-cmd or python3 is missing; the recorded file is left out
# when perf cannot record (the corpus files are still checked), and the corpus when it is
# absent.
#
# Usage: perf-convert.sh TRACEKIT [CORPUS_DIR]
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
corpus=${2:-${TRACEKIT_CORPUS:-}}
command -v babeltrace2 >/dev/null 2>&1 || { echo "skip: babeltrace2 not found" >&2; exit 77; }
command -v trace-cmd >/dev/null 2>&1 || { echo "skip: trace-cmd not found" >&2; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not found in PATH" >&2; exit 77; }
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
inputs=

if command -v perf >/dev/null 2>&1 &&
	perf record -q -a -e 'sched:*' -e 'irq:*' -e 'timer:*' -o "$tmp/rec.data" -- \
		sh -c 'ls -R /usr/lib >/dev/null' >/dev/null 2>&1 && [ -s "$tmp/rec.data" ]; then
	inputs="$tmp/rec.data"
else
	echo "note: perf could not record here; only the corpus files are converted"
fi
if [ -n "$corpus" ] && [ -f "$corpus/eventheader/perf.data" ]; then
	inputs="$inputs $corpus/eventheader/perf.data $corpus/eventheader/pipe.data"
fi
[ -n "$inputs" ] || { echo "skip: no perf.data to convert" >&2; exit 77; }

n=0
for f in $inputs; do
	name=$(basename "$f")
	n=$((n + 1))
	want=$("$tk" info "$f" | awk '/^Events:/ { print $2 }')
	if ! "$tk" convert -q "$f" -o "$tmp/ctf$n" 2>"$tmp/err"; then
		echo "FAIL $name to CTF: $(head -c 300 "$tmp/err")"
		failures=$((failures + 1))
	else
		babeltrace2 "$tmp/ctf$n" >"$tmp/bt.txt" 2>"$tmp/bt.err"
		rc=$?
		got=$(wc -l <"$tmp/bt.txt")
		if [ $rc -ne 0 ] || [ -s "$tmp/bt.err" ] || [ "$got" -ne "$want" ]; then
			echo "FAIL $name to CTF: babeltrace2 exit $rc, $got lines of $want samples: $(head -c 300 "$tmp/bt.err")"
			failures=$((failures + 1))
		else
			echo "$name to CTF: babeltrace2 prints its $want samples"
		fi
	fi
	if ! "$tk" convert -q "$f" -o "$tmp/out$n.dat" 2>"$tmp/err"; then
		echo "FAIL $name to trace.dat: $(head -c 300 "$tmp/err")"
		failures=$((failures + 1))
		continue
	fi
	trace-cmd report -t "$tmp/out$n.dat" 2>"$tmp/tc.err" | tail -n +2 >"$tmp/tc.txt"
	got=$(wc -l <"$tmp/tc.txt")
	if [ "$got" -ne "$want" ]; then
		echo "FAIL $name to trace.dat: trace-cmd report prints $got lines of $want samples: $(head -c 300 "$tmp/tc.err")"
		failures=$((failures + 1))
		continue
	fi
	if [ "$f" = "$tmp/rec.data" ]; then
		# CPU, time in ns and event name, as perf script has them
		perf script --ns -F cpu,time,event -i "$f" 2>/dev/null |
			awk '{ t = $2; sub(/:$/, "", t); e = $3; sub(/:$/, "", e); sub(/^[^:]*:/, "", e);
			       print $1, t, e }' | sort >"$tmp/want.txt"
		sed -E 's/^.* (\[[0-9]+\]) +([0-9]+\.[0-9]+): ([^:]+):.*/\1 \2 \3/' "$tmp/tc.txt" |
			sort >"$tmp/got.txt"
		if ! cmp -s "$tmp/want.txt" "$tmp/got.txt"; then
			echo "FAIL $name to trace.dat: samples differ from perf script's:"
			diff "$tmp/want.txt" "$tmp/got.txt" | head -n 6
			failures=$((failures + 1))
			continue
		fi
		# the whole text, as tracekit prints the perf.data file in trace-cmd's layout
		trace-cmd report "$tmp/out$n.dat" >"$tmp/tc-full.txt" 2>"$tmp/tc.err"
		rc=$?
		"$tk" print --style trace-cmd "$f" >"$tmp/tk-full.txt" 2>"$tmp/tk.err" || rc=1
		printf '%s to trace.dat, trace-cmd report against tracekit print: ' "$name"
		if [ $rc -ne 0 ] ||
			! python3 "$here/perf-dat-text.py" "$tmp/tc-full.txt" "$tmp/tk-full.txt"; then
			echo "FAIL $name to trace.dat: $(head -c 300 "$tmp/tc.err" "$tmp/tk.err")"
			failures=$((failures + 1))
			continue
		fi
	fi
	echo "$name to trace.dat: trace-cmd report prints its $want samples"
done
[ $failures -eq 0 ] || exit 1
echo "PASS"
