#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: perf.data to trace.dat in both byte orders. perf-dat-gen.py writes the same
# pipe-mode file little-endian and big-endian (a tracepoint's samples on two CPUs, tasks
# named by COMM records and one renamed by exec, 5 samples lost on CPU 1); each converted
# file must keep the input's byte order and perf's 4 KiB sub-buffer in its header, and
# trace-cmd report and tracekit print must both print it as written below: every sample's
# record on its CPU at its time, the loss before CPU 1's next sample, each pid's last name.
#
# Usage: perf-dat-orders.sh TRACEKIT
#        (exits 77 when trace-cmd or python3 is missing)
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(dirname "$0")
tk=$(abspath "$1")
command -v trace-cmd >/dev/null 2>&1 || { echo "skip: trace-cmd not found" >&2; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not found in PATH" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

cat >"$tmp/want.txt" <<'END'
cpus=2
           gamma-100   [000]     0.000002: tk_value:             value=1 label=one
            beta-200   [001]     0.000003: tk_value:             value=2 label=two
           gamma-100   [000]     0.000003: tk_value:             value=3 label=three
CPU:1 [5 EVENTS DROPPED]
            beta-200   [001]     0.000004: tk_value:             value=4 label=four
           gamma-100   [000]     0.000005: tk_value:             value=5 label=five
            beta-200   [001]     0.000006: tk_value:             value=6 label=six
END

for order in le be; do
	in=$tmp/$order.data
	out=$tmp/$order.dat
	before=$failures
	python3 "$here/perf-dat-gen.py" $order "$in" || { echo "FAIL $order: generator"; exit 1; }
	if ! "$tk" convert -q "$in" -o "$out" 2>"$tmp/err"; then
		echo "FAIL $order: convert: $(head -c 300 "$tmp/err")"
		failures=$((failures + 1))
		continue
	fi
	# the header: magic, "tracing", "7\0", then the endian byte, long size, page size
	head=$(od -A n -t x1 -j 12 -N 6 "$out" | tr -d ' \n')
	case $order in
	le) expect=000800100000 ;;
	be) expect=010800001000 ;;
	esac
	if [ "$head" != "$expect" ]; then
		echo "FAIL $order: header bytes $head, expected $expect (byte order, long, page size)"
		failures=$((failures + 1))
	fi
	if ! trace-cmd report "$out" >"$tmp/tc.txt" 2>"$tmp/tc.err" ||
		! cmp -s "$tmp/tc.txt" "$tmp/want.txt"; then
		echo "FAIL $order: trace-cmd report: $(head -c 300 "$tmp/tc.err")"
		diff "$tmp/want.txt" "$tmp/tc.txt" | head -n 10
		failures=$((failures + 1))
	fi
	if ! "$tk" print --style trace-cmd "$out" >"$tmp/tk.txt" 2>"$tmp/tk.err" ||
		! cmp -s "$tmp/tk.txt" "$tmp/want.txt"; then
		echo "FAIL $order: tracekit print: $(head -c 300 "$tmp/tk.err")"
		diff "$tmp/want.txt" "$tmp/tk.txt" | head -n 10
		failures=$((failures + 1))
	fi
	[ $failures -eq $before ] &&
		echo "$order: converted, read by trace-cmd report and tracekit print as written"
done
[ $failures -eq 0 ] || exit 1
echo "PASS"
