#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The filter stage (src/model/filter.c) through `tracekit print` and `tracekit convert`, on the
# shared corpus, against the reference tools or hand-checked expectations:
#   1. --begin, --end and --timerange on CTF traces print byte for byte what babeltrace2
#      prints with the same options: times of day in local time (TZ=UTC and
#      TZ=Europe/Paris) and with --clock-gmt, dates, seconds (bare integers are seconds),
#      [BEGIN,END].
#   2. --pid N on trace.dat files prints what `trace-cmd report -F '.*:common_pid == N'`
#      prints (a busy task, the idle task 0).
#   3. CTF by hand: --pid on wk-heartbeat-u keeps exactly the lines of the babeltrace2
#      reference output with that vtid, --cpu those with that cpu_id (grep of the oracle's
#      text, not tracekit's), and the ns unit selects as the seconds form does.
#   4. Errors, exit 1 with a message and no output: an event spec naming nothing (with the
#      nearest name suggested), --comm on a CTF trace without procname, convert -e of an
#      unknown event (no output file left); a --timerange without a comma is a usage error
#      (exit 2).
# Usage: filter.sh TRACEKIT CORPUS_DIR
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
corpus=$2
if [ ! -d "$corpus/ctf/expect-babeltrace2" ] || [ ! -d "$corpus/tracedat" ]; then
	echo "skip: shared corpus not found at $corpus" >&2
	exit 77
fi
for tool in babeltrace2 trace-cmd; do
	if ! command -v $tool >/dev/null; then
		echo "skip: $tool not installed" >&2
		exit 77
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checked=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# same NAME WANT GOT: byte for byte, and not empty
same() {
	checked=$((checked + 1))
	if [ ! -s "$2" ]; then
		fail "$1: the expected output is empty (the case proves nothing)"
	elif ! cmp -s "$2" "$3"; then
		fail "$1: output differs (< want, > tracekit)"
		diff "$2" "$3" | head -n 6 | cut -c 1-200 | sed 's/^/    /'
	fi
}

# 1. time windows against babeltrace2
cd "$corpus/ctf" || exit 1
hb=traces/succeed/wk-heartbeat-u
rot=traces/succeed/lttng-tracefile-rotation
for tz in UTC Europe/Paris; do
	h=17 r=21 # the traces' hours in local time (Paris: UTC+1 for one, UTC+2 for the other)
	[ $tz = UTC ] || h=18 r=23
	for args in "$hb --begin=$h:48:17.588 --end=$h:48:17.590" \
		"$hb --clock-gmt --begin=17:48:17.588 --end=17:48:17.5897" \
		"$hb --timerange=[2012-10-29 $h:48:17.588,1351532897.5897]" \
		"$hb --begin=1351532897 --end=1351532898" \
		"$hb --begin=1351532897.589 --clock-seconds --names=all" \
		"$hb --end=$h:48:17.588" \
		"$rot --timerange=$r:36:36,$r:36:37.5" \
		"$rot --begin=21:36:37.25 --clock-gmt"; do
		# shellcheck disable=SC2086 # $args is a list of arguments (the date has a space)
		set -- $args
		case $* in
		*2012-10-29*) set -- "$1" "--timerange=[2012-10-29 $h:48:17.588,1351532897.5897]" ;;
		esac
		TZ=$tz babeltrace2 "$@" >"$tmp/want" 2>/dev/null
		TZ=$tz "$tk" print "$@" >"$tmp/got" 2>"$tmp/err" || fail "TZ=$tz print $*: $(cat "$tmp/err")"
		same "TZ=$tz print $*" "$tmp/want" "$tmp/got"
	done
done

# 2. --pid on trace.dat against trace-cmd report -F
cd "$corpus/tracedat" || exit 1
for f in x86_64-v6.dat x86_64-v7-zstd.dat lisa_example_rtapp_trace.dat; do
	for pid in 15 2455 0; do
		tc_report "$tmp/want" -F ".*:common_pid == $pid" "$f"
		# a pid the file does not have prints the cpus= line only: not a case
		[ "$(wc -l <"$tmp/want")" -gt 1 ] || continue
		"$tk" print --pid "$pid" "$f" >"$tmp/got" 2>"$tmp/err" || fail "$f --pid $pid: $(cat "$tmp/err")"
		same "$f: print --pid $pid" "$tmp/want" "$tmp/got"
	done
done
[ $checked -ge 20 ] || fail "too few cases ran ($checked)"

# 3. CTF by hand, from the babeltrace2 reference output
cd "$corpus/ctf" || exit 1
exp=expect-babeltrace2/succeed/wk-heartbeat-u.txt
grep 'vtid = 3215,' "$exp" | sed 's/(+[0-9?.]*)//' >"$tmp/want"
TZ=UTC "$tk" print --pid 3215 "$hb" | sed 's/(+[0-9?.]*)//' >"$tmp/got"
same "wk-heartbeat-u --pid 3215" "$tmp/want" "$tmp/got"
grep '{ cpu_id = 2 }' "$exp" | sed 's/(+[0-9?.]*)//' >"$tmp/want"
TZ=UTC "$tk" print --cpu 2 "$hb" | sed 's/(+[0-9?.]*)//' >"$tmp/got"
same "wk-heartbeat-u --cpu 2" "$tmp/want" "$tmp/got"
[ "$(wc -l <"$tmp/got")" -lt "$(wc -l <"$exp")" ] || fail "--cpu 2 kept every event"
TZ=UTC "$tk" print --begin=1351532897589000000ns "$hb" >"$tmp/want"
TZ=UTC "$tk" print --begin=1351532897.589 "$hb" >"$tmp/got"
same "wk-heartbeat-u --begin with the ns unit" "$tmp/want" "$tmp/got"

# 4. errors
checked=$((checked + 1))
"$tk" print -e sched_swich "$corpus/tracedat/x86_64-v6.dat" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 1 ] || [ -s "$tmp/out" ] || ! grep -q "did you mean sched_switch" "$tmp/err"; then
	fail "-e sched_swich: want exit 1, no output and 'did you mean sched_switch' (rc=$rc: $(cat "$tmp/err"))"
fi
"$tk" print --comm bash "$hb" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 1 ] || [ -s "$tmp/out" ] || ! grep -q "procname" "$tmp/err"; then
	fail "--comm on a trace without procname: want exit 1 naming procname (rc=$rc: $(cat "$tmp/err"))"
fi
"$tk" convert -q -e nosuch_event "$corpus/tracedat/x86_64-v6.dat" -o "$tmp/x.dat" 2>"$tmp/err"
rc=$?
if [ $rc -ne 1 ] || [ -e "$tmp/x.dat" ] || ! grep -q "nosuch_event" "$tmp/err"; then
	fail "convert -e nosuch_event: want exit 1, no output, the spec named (rc=$rc)"
fi
"$tk" print --timerange=12 "$hb" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || fail "--timerange without a comma: not a usage error"

if [ $failures -ne 0 ]; then
	echo "$failures of $checked checks failed"
	exit 1
fi
echo "all $checked checks passed"
