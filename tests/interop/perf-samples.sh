#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: the perf.data container reader (src/perf/perfdata.c, through the perf-dump
# tool) against the peers.
#   1. perf.data files recorded here by `perf record` (file mode, and pipe mode with
#      `-o -`) of two tracepoints on every CPU, and the corpus pipe.data (EventHeader samples
#      recorded in 2024, which this machine's perf reads): every sample's pid, tid, CPU, time
#      in ns and event name (the ftrace format its attribute names in the file's tracing
#      data, read by tracedat_open_tracing_data(); perf-dump fails when that data does not
#      read) against `perf script --ns -F pid,tid,cpu,time,event`, sorted (perf script
#      orders samples by time, the dump keeps the file's order);
#   2. the corpus perf.data (a newer perf's file mode, which this perf refuses): the samples'
#      CPU, pid and tid against the "meta" of the reference decoder's JSON for it;
#   3. a recorded pipe-mode file less its last 100 bytes: exit status 1 with an error naming the
#      record, after the samples before the cut.
# Exits 77 when perf is missing or cannot record tracepoints (not root, no tracefs).
#
# Usage: perf-samples.sh PERF_DUMP [CORPUS_DIR]
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
dump=$(abspath "$1")
corpus=${2:-}
command -v perf >/dev/null 2>&1 || { echo "skip: perf not found in PATH" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}

perf record -q -o "$tmp/file.data" -e sched:sched_switch -e sched:sched_wakeup -a \
	-- sleep 0.3 >/dev/null 2>"$tmp/rec.err" || {
	echo "skip: perf record cannot record tracepoints here: $(head -c 300 "$tmp/rec.err")" >&2
	exit 77
}
perf record -q -o - -e sched:sched_switch -e sched:sched_wakeup -a -- sleep 0.3 \
	>"$tmp/pipe.data" 2>"$tmp/rec.err" || {
	fail "perf record -o - failed: $(head -c 300 "$tmp/rec.err")"
}

# perf script's lines as "pid tid cpu ns name", sorted
script_lines() {
	perf script --ns -F pid,tid,cpu,time,event -i "$1" 2>"$tmp/script.err" |
		sed -n 's|^ *\(-\{0,1\}[0-9]*\)/\(-\{0,1\}[0-9]*\) *\[\([0-9]*\)\] *\([0-9]*\)\.\([0-9]\{9\}\): *\([^ ]*\): *$|\1 \2 \3 \4\5 \6|p' |
		awk '{ $3 = $3 + 0; sub(/^0+/, "", $4); print }' | sort
}

check_script() {
	name=$1
	file=$2
	if ! "$dump" "$file" >"$tmp/dump.raw" 2>"$tmp/dump.err"; then
		fail "$name: perf-dump failed: $(cat "$tmp/dump.err")"
		return
	fi
	sed 's/:$//' "$tmp/dump.raw" | sort >"$tmp/dump.txt"
	script_lines "$file" | sed 's/:$//' >"$tmp/script.txt"
	n=$(wc -l <"$tmp/script.txt")
	if [ "$n" -eq 0 ]; then
		fail "$name: perf script printed no sample: $(head -c 300 "$tmp/script.err")"
		return
	fi
	if ! cmp -s "$tmp/dump.txt" "$tmp/script.txt"; then
		fail "$name: samples differ from perf script ($n lines):"
		diff "$tmp/script.txt" "$tmp/dump.txt" | head -10
		return
	fi
	echo "ok: $name: $n samples as perf script reads them"
}

check_script "perf record (file mode)" "$tmp/file.data"
[ -s "$tmp/pipe.data" ] && check_script "perf record -o - (pipe mode)" "$tmp/pipe.data"
if [ -n "$corpus" ] && [ -f "$corpus/eventheader/pipe.data" ]; then
	check_script "corpus pipe.data" "$corpus/eventheader/pipe.data"
else
	echo "note: corpus pipe.data not found: part 1 checks recorded files only" >&2
fi

# 2. the corpus perf.data against the reference decoder's JSON (one object per sample)
json="$corpus/eventheader/perf.data.linux.json"
if [ -n "$corpus" ] && [ -f "$json" ]; then
	sed -n 's/.*"meta":{[^}]*"cpu":\([0-9]*\),"pid":\([0-9]*\),"tid":\([0-9]*\).*/\2 \3 \1/p' \
		"$json" | sort >"$tmp/ref.txt"
	if "$dump" "$corpus/eventheader/perf.data" >"$tmp/dump.raw" 2>"$tmp/dump.err"; then
		# the reference prints pid and tid unsigned (-1 as 4294967295)
		awk '{ if ($1 < 0) $1 = sprintf("%.0f", $1 + 4294967296)
			if ($2 < 0) $2 = sprintf("%.0f", $2 + 4294967296)
			print $1, $2, $3 }' "$tmp/dump.raw" | sort >"$tmp/dump.txt"
		n=$(wc -l <"$tmp/ref.txt")
		if [ "$n" -lt 500 ]; then
			fail "corpus perf.data: the reference JSON gave $n samples, expected 539"
		elif ! cmp -s "$tmp/ref.txt" "$tmp/dump.txt"; then
			fail "corpus perf.data: samples differ from the reference decoder's:"
			diff "$tmp/ref.txt" "$tmp/dump.txt" | head -10
		else
			echo "ok: corpus perf.data: $n samples as the reference decoder reads them"
		fi
	else
		fail "corpus perf.data: perf-dump failed: $(cat "$tmp/dump.err")"
	fi
fi

# 3. a pipe-mode file cut in its data: the samples before the cut, then an error naming the
# record (a file-mode file cut so loses its feature index, which the reader then refuses)
size=$(wc -c <"$tmp/pipe.data")
head -c $((size - 100)) "$tmp/pipe.data" >"$tmp/cut.data"
"$dump" "$tmp/pipe.data" >"$tmp/full.txt" 2>/dev/null
"$dump" "$tmp/cut.data" >"$tmp/cut.txt" 2>"$tmp/cut.err"
rc=$?
n=$(wc -l <"$tmp/cut.txt")
if [ $rc -ne 1 ]; then
	fail "cut file: exit status $rc, expected 1"
elif ! grep -q "Cannot read perf.data record: offset=" "$tmp/cut.err"; then
	fail "cut file: no error naming the record: $(cat "$tmp/cut.err")"
elif [ "$n" -eq 0 ] || ! head -n "$n" "$tmp/full.txt" | cmp -s - "$tmp/cut.txt"; then
	fail "cut file: the $n samples before the cut are not the first ones of the whole file"
else
	echo "ok: cut file: exit 1 after the $n samples before the cut: $(grep "Cannot" "$tmp/cut.err")"
fi

[ $failures -eq 0 ] || exit 1
exit 0
