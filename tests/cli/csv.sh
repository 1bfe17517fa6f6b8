#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The text sinks as convert outputs (--to trace-cmd and --to babeltrace against the stored
# reference text), and the CSV and TSV sinks (print --style csv|tsv, convert -o *.csv|*.tsv):
# on corpus trace.dat files, every sched_switch row against trace-cmd report's -R and -t text (CPU, time, each
# field); on the LTTng-UST sample, the columns against babeltrace2's text; the quoting of
# CSV and the escapes of TSV on a string holding a comma, a quote, a tab and a line break.
# Usage: csv.sh TRACEKIT CORPUS-DIR GEN-CTF
set -u
tk=$1
corpus=$2
gen_ctf=$3
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ran=0

for dat in "$corpus"/tracedat/lisa_sched_load_trace.dat "$corpus"/tracedat/hebel23-driver_trace.dat; do
	base=$(basename "$dat" .dat)
	exp=$corpus/tracedat/expect-trace-cmd/$base
	[ -f "$dat" ] && [ -f "$exp.raw.txt" ] && [ -f "$exp.ns.txt" ] || continue
	ran=1
	for kind in csv tsv; do
		if ! "$tk" convert "$dat" -e sched_switch -o "$tmp/$base.$kind" 2>"$tmp/err"; then
			echo "FAIL: convert $base to $kind"
			cat "$tmp/err"
			fail=1
			continue
		fi
		python3 "$here/csv-check.py" "$kind" "$tmp/$base.$kind" sched_switch \
			"$exp.raw.txt" "$exp.ns.txt" || fail=1
	done
	# print --style csv writes the same as convert, with every event class's columns
	"$tk" print --style csv "$dat" >"$tmp/all.csv" || fail=1
	python3 "$here/csv-check.py" csv "$tmp/all.csv" sched_switch "$exp.raw.txt" "$exp.ns.txt" ||
		fail=1
done

# LTTng-UST sample: columns in babeltrace2's field order, values as babeltrace2 shows them
ust=$corpus/ctf/lttng-ust-sample
if [ -d "$ust" ] && [ -f "$ust.expect-babeltrace2.txt" ]; then
	ran=1
	"$tk" print --style csv "$ust" >"$tmp/ust.csv" || fail=1
	python3 - "$tmp/ust.csv" "$ust.expect-babeltrace2.txt" <<'PY' || fail=1
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
lines = [l for l in open(sys.argv[2]) if "bench:simple" in l]
simple = [r for r in rows if r["event"] == "bench:simple"]
if len(simple) != len(lines) or not lines:
    sys.exit(f"FAIL: {len(simple)} bench:simple rows, babeltrace2 shows {len(lines)}")
for r, l in zip(simple, lines):
    m = re.search(r'vpid = (\d+), vtid = (\d+), procname = "([^"]*)" \}, \{ i = (\d+), v = 0x([0-9A-F]+), s = "([^"]*)"', l)
    want = {"vpid": m[1], "vtid": m[2], "procname": m[3], "i": m[4], "v": str(int(m[5], 16)), "s": m[6]}
    got = {k: r[k] for k in want}
    if got != want:
        sys.exit(f"FAIL: {got} != babeltrace2's {want}")
print(f"ok: {len(simple)} bench:simple rows match babeltrace2")
PY
fi

# every text sink is an output of convert too: trace-cmd's text and babeltrace2's, whole
for dat in "$corpus"/tracedat/lisa_sched_load_trace.dat; do
	exp=$corpus/tracedat/expect-trace-cmd/lisa_sched_load_trace.report.txt
	[ -f "$dat" ] && [ -f "$exp" ] || continue
	"$tk" convert "$dat" --to trace-cmd -o "$tmp/report.txt" || fail=1
	if ! cmp -s "$exp" "$tmp/report.txt"; then
		echo "FAIL: convert --to trace-cmd differs from trace-cmd report's stored text"
		fail=1
	fi
done
if [ -d "$ust" ] && [ -f "$ust.expect-babeltrace2.txt" ]; then
	"$tk" convert "$ust" --to babeltrace -o "$tmp/ust.txt" || fail=1
	if ! cmp -s "$ust.expect-babeltrace2.txt" "$tmp/ust.txt"; then
		echo "FAIL: convert --to babeltrace differs from babeltrace2's stored text"
		fail=1
	fi
fi

# quoting: gen-ctf writes the path /tmp/tk-"quoted" name; CSV readers must get it back whole,
# and every row must have as many cells as the header
if "$gen_ctf" -l compact -n 3000 "$tmp/gen" >/dev/null 2>&1; then
	ran=1
	for kind in csv tsv; do
		"$tk" print --style "$kind" "$tmp/gen" >"$tmp/gen.$kind" || fail=1
		python3 - "$kind" "$tmp/gen.$kind" <<'PY' || fail=1
import csv, sys
kind, path = sys.argv[1:3]
rows = list(csv.reader(open(path, newline=""), delimiter="\t" if kind == "tsv" else ",",
                       quoting=csv.QUOTE_NONE if kind == "tsv" else csv.QUOTE_MINIMAL))
bad = [i for i, r in enumerate(rows) if len(r) != len(rows[0])]
if bad:
    sys.exit(f"FAIL: {kind}: row {bad[0]} has {len(rows[bad[0]])} cells, the header {len(rows[0])}")
if not any('/tmp/tk-"quoted" name' in r for r in rows):
    sys.exit(f"FAIL: {kind}: no cell reads back as the quoted path")
print(f"ok: {kind}: {len(rows) - 1} rows, quoting read back")
PY
	done
fi

[ $ran -eq 1 ] || exit 77
exit $fail
