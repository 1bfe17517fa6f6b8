#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Any input mix to one output (issue 11): two trace.dat files (gen-dat, two seeds) and one
# CTF trace (the corpus's barectf trace, whose clock, like trace.dat's, is neither absolute
# nor identified by a UUID, so the three can be merged) converted into one CTF trace and into
# one JSON lines file. babeltrace2 must read the CTF trace with exit status 0, and the events
# it prints -- their times in nanoseconds and their names -- must be those of the inputs as
# trace-cmd report -t (trace.dat) and babeltrace2 --clock-seconds (CTF) print them, merged.
# The trace.dat events keep their ftrace common fields: common_pid, as babeltrace2 prints it
# in the merged trace, is the pid trace-cmd report shows for the same event. The JSON file
# holds one line per event, with the same count.
# Usage: convert-merge.sh TRACEKIT GEN-DAT CORPUS-DIR
set -u
tk=$1
gen_dat=$2
corpus=$3
ctf=$corpus/ctf/traces/succeed/barectf-event-before-packet
command -v babeltrace2 >/dev/null || { echo "SKIP: no babeltrace2"; exit 77; }
command -v trace-cmd >/dev/null || { echo "SKIP: no trace-cmd"; exit 77; }
[ -d "$ctf" ] || { echo "SKIP: no corpus"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$gen_dat" -n 3000 "$tmp/a.dat" >/dev/null || exit 1
"$gen_dat" -n 2000 -S 7 --compression zstd "$tmp/b.dat" >/dev/null || exit 1

# (time in ns, name) of every input event, from the reference tools
for f in a b; do
	trace-cmd report -t "$tmp/$f.dat" >"$tmp/$f.txt" 2>/dev/null || { echo "FAIL: trace-cmd report $f.dat"; exit 1; }
	sed -n 's/^.*\] *\([0-9]*\)\.\([0-9]\{9\}\): \([^:]*\):.*$/\1\2 \3/p' "$tmp/$f.txt"
	# (time, name, pid): the task column is COMM-PID
	sed -n 's/^.*-\([0-9]*\) *\[[0-9]*\] *\([0-9]*\)\.\([0-9]\{9\}\): \([^:]*\):.*$/\2\3 \4 \1/p' \
		"$tmp/$f.txt" >>"$tmp/want.pid"
done >"$tmp/want"
babeltrace2 --clock-seconds "$ctf" 2>/dev/null |
	sed -n 's/^\[\([0-9]*\)\.\([0-9]\{9\}\)\] ([^)]*) \([^:]*\):.*$/\1\2 \3/p' >>"$tmp/want"
sort "$tmp/want" >"$tmp/want.sorted"
n=$(wc -l <"$tmp/want.sorted")
if [ "$n" -lt 5000 ]; then
	echo "FAIL: only $n input events read by the reference tools"
	exit 1
fi

if ! "$tk" convert "$tmp/a.dat" "$tmp/b.dat" "$ctf" -o "$tmp/merged" 2>"$tmp/err"; then
	echo "FAIL: convert to CTF: $(cat "$tmp/err")"
	exit 1
fi
if [ "$(find "$tmp/merged" -name metadata | wc -l)" -ne 1 ]; then
	echo "FAIL: the output is not one CTF trace: $(find "$tmp/merged" -name metadata)"
	fail=1
fi
babeltrace2 --clock-seconds "$tmp/merged" >"$tmp/merged.txt" 2>"$tmp/bt.err"
rc=$?
if [ $rc -ne 0 ] || [ -s "$tmp/bt.err" ]; then
	echo "FAIL: babeltrace2 on the merged trace: exit $rc"
	head -n 5 "$tmp/bt.err"
	fail=1
fi
sed -n 's/^\[\([0-9]*\)\.\([0-9]\{9\}\)\] ([^)]*) \([^:]*\):.*$/\1\2 \3/p' "$tmp/merged.txt" |
	sort >"$tmp/got.sorted"
if ! cmp -s "$tmp/want.sorted" "$tmp/got.sorted"; then
	echo "FAIL: babeltrace2's events of the merged trace differ from the inputs' ($n events):"
	diff "$tmp/want.sorted" "$tmp/got.sorted" | head -n 6
	fail=1
fi
# common_pid of every trace.dat event, as trace-cmd shows its task
sed -n 's/^\[\([0-9]*\)\.\([0-9]\{9\}\)\] ([^)]*) \([^:]*\):.*common_pid = \([0-9]*\).*$/\1\2 \3 \4/p' \
	"$tmp/merged.txt" | sort >"$tmp/got.pid"
sort "$tmp/want.pid" >"$tmp/want.pid.sorted"
npid=$(wc -l <"$tmp/want.pid.sorted")
if [ "$npid" -lt 4000 ] || ! cmp -s "$tmp/want.pid.sorted" "$tmp/got.pid"; then
	echo "FAIL: common_pid in the merged trace differs from trace-cmd's pids ($npid events):"
	diff "$tmp/want.pid.sorted" "$tmp/got.pid" | head -n 6
	fail=1
fi
# in time order, as babeltrace2 merged them
sed -n 's/^\[\([0-9]*\)\.\([0-9]\{9\}\)\].*/\1\2/p' "$tmp/merged.txt" >"$tmp/times"
if ! sort -n -c "$tmp/times" 2>/dev/null; then
	echo "FAIL: the merged trace's events are not in time order"
	fail=1
fi

if ! "$tk" convert "$tmp/a.dat" "$tmp/b.dat" "$ctf" -o "$tmp/merged.jsonl" 2>"$tmp/err"; then
	echo "FAIL: convert to JSON lines: $(cat "$tmp/err")"
	exit 1
fi
got=$(grep -c '"name":' "$tmp/merged.jsonl")
if [ "$got" -ne "$n" ] || ! python3 -c '
import json, sys
for line in open(sys.argv[1]):
    json.loads(line)
' "$tmp/merged.jsonl"; then
	echo "FAIL: JSON lines: $got events (want $n), or a line that is not JSON"
	fail=1
fi
[ $fail -eq 0 ] && echo "ok: $n events of 3 inputs in one CTF trace and one JSON lines file"
exit $fail
