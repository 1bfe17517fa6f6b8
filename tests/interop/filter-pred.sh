#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Field predicates (-F, src/model/filter-expr.c) through `tracekit print` and `tracekit
# convert`, on the shared corpus:
#   1. trace.dat: `tracekit print -F ...` prints byte for byte what `trace-cmd report -F ...`
#      prints, over numeric and string comparisons, =~ and !~, & tests, &&, || (one
#      precedence, grouped from the left), !, parentheses, hex numbers, common fields, COMM,
#      CPU, regular expressions and lists in the event part, and several -F.
#   2. trace.dat to trace.dat: `tracekit convert -F` writes a file that trace-cmd report
#      prints as trace-cmd report -F prints the input.
#   3. CTF by hand: on an LTTng kernel trace, print -F keeps exactly the lines of
#      babeltrace2's reference output whose field values pass the same condition written
#      in awk (the oracle's text, not tracekit's).
#   4. Errors, exit 1 and no output: an event pattern naming nothing, a field no selected
#      event has (both with the nearest name suggested; trace-cmd takes such a field as
#      false everywhere and may print nothing), a syntax error with its offset, a lone '~'
#      (trace-cmd takes it and prints nothing), a number compared with a text field.
# Usage: filter-pred.sh TRACEKIT CORPUS_DIR
set -u
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
corpus=$2
if [ ! -d "$corpus/ctf/expect-babeltrace2" ] || [ ! -d "$corpus/tracedat" ]; then
	echo "skip: shared corpus not found at $corpus" >&2
	exit 77
fi
if ! command -v trace-cmd >/dev/null; then
	echo "skip: trace-cmd not installed" >&2
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checked=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# same NAME WANT GOT: byte for byte, and more than the cpus= line
same() {
	checked=$((checked + 1))
	if [ "$(wc -l <"$2")" -le 1 ]; then
		fail "$1: the expected output has no event (the case proves nothing)"
	elif ! cmp -s "$2" "$3"; then
		fail "$1: output differs (< want, > tracekit)"
		diff "$2" "$3" | head -n 6 | cut -c 1-200 | sed 's/^/    /'
	fi
}

# 1. print -F against trace-cmd report -F; one predicate per line, several separated by " ;; "
cat >"$tmp/preds" <<'EOF'
sched_switch: prev_pid == 0
sched_switch: next_comm =~ "^kworker"
sched_switch: next_comm =~ "KWORKER"
sched_switch: prev_comm !~ "a"
sched_switch: prev_comm == "bash" || next_comm == 'bash'
sched_switch: prev_pid == 0 || next_pid == 0 && prev_prio == 0
sched_switch: prev_prio == 0 && next_pid == 0 || prev_pid == 0
sched_switch: (prev_pid == 0 || next_pid == 0) && prev_prio != 120
sched_switch: !(prev_pid < 100 || next_pid < 100) && prev_prio >= 100
sched_switch: prev_pid >= 0 && ! prev_pid == 0
sched_switch: prev_state & 0x1
sched_switch: prev_pid == 0x0 && prev_state <= 1
sched_switch: prev_pid == "0x0"
sched_switch,sched_wakeup: prev_pid == 0 || pid > 1000
sched/sched_wakeup: pid > 100 ;; irq
sched/sched_wakeup: pid > 100 ;; sched_wakeup: pid < 50
SCHED_W.*
sched_w.*,irq/softirq_.*: common_pid != 0
.*: common_pid == 0
.*: COMM =~ "^kworker" && CPU == 1
.*: common_flags & 1 && common_preempt_count > 0
sched_switch,sched_wakeup: !(pid > 1000) ;; timer
EOF
cd "$corpus/tracedat" || exit 1
for f in x86_64-v6.dat x86_64-v7-zstd.dat lisa_example_rtapp_trace.dat hebel23-driver_trace.dat; do
	while IFS= read -r line; do
		set --
		rest=$line
		while [ -n "$rest" ]; do
			case $rest in
			*" ;; "*) one=${rest%% ;; *} rest=${rest#* ;; } ;;
			*) one=$rest rest= ;;
			esac
			set -- "$@" -F "$one"
		done
		# a predicate naming what this file lacks is an error for both tools: not a case
		tc_report "$tmp/want" "$@" "$f" || continue
		[ "$(wc -l <"$tmp/want")" -gt 1 ] || continue
		"$tk" print "$@" "$f" >"$tmp/got" 2>"$tmp/err" || {
			fail "$f $line: $(cat "$tmp/err")"
			continue
		}
		same "$f: print $line" "$tmp/want" "$tmp/got"
	done <"$tmp/preds"
done
[ $checked -ge 50 ] || fail "too few trace.dat cases ran ($checked)"

# 2. convert -F, trace.dat to trace.dat
p1='sched_switch: prev_pid == 0 || next_comm =~ "^kworker"'
for f in x86_64-v6.dat x86_64-v7-zstd.dat; do
	tc_report "$tmp/want" -F "$p1" -F irq "$f"
	"$tk" convert -q -F "$p1" -F irq "$f" -o "$tmp/out.dat" 2>"$tmp/err" || fail "convert $f: $(cat "$tmp/err")"
	tc_report "$tmp/got" "$tmp/out.dat"
	same "$f: convert -F to trace.dat" "$tmp/want" "$tmp/got"
	rm -f "$tmp/out.dat"
done

# 3. CTF by hand: babeltrace2's lines, selected by awk on the printed field values
cd "$corpus/ctf" || exit 1
rot=traces/succeed/lttng-tracefile-rotation
exp=expect-babeltrace2/succeed/lttng-tracefile-rotation.txt
ctf_case() { # NAME AWK-CONDITION -F...
	name=$1 cond=$2
	shift 2
	awk -v OFS= '
	function has(f) { return val(f) != "\001" }
	function val(f,   m) { # the value of field f on this line, quotes removed
		if (!match($0, "[{,] " f " = (\"[^\"]*\"|[-0-9]+)")) return "\001"
		m = substr($0, RSTART, RLENGTH); sub(/^[{,] [a-z_]+ = /, "", m); gsub(/"/, "", m)
		return m
	}
	{ ev = $4; sub(/:$/, "", ev) }
	'"$cond"' { print }' "$exp" | sed 's/(+[0-9?.]*)//' >"$tmp/want"
	TZ=UTC "$tk" print "$@" "$rot" 2>"$tmp/err" | sed 's/(+[0-9?.]*)//' >"$tmp/got"
	same "lttng-tracefile-rotation: $name" "$tmp/want" "$tmp/got"
}
ctf_case "signed and equal" 'ev == "sched_switch" && val("prev_tid") == 0 && val("next_prio") + 0 < 20' \
	-F 'sched_switch: prev_tid == 0 && next_prio < 20'
ctf_case "regex or CPU" '(ev == "sched_waking" || ev == "sched_wakeup") && (val("comm") ~ /^kworker/ || val("cpu_id") == 3)' \
	-F 'sched_waking,sched_wakeup: comm =~ "^kworker" || CPU == 3'
ctf_case "two -F" '(ev == "sched_switch" && val("next_comm") == "lttng-consumerd") || ev == "sched_migrate_task"' \
	-F 'sched_switch: next_comm == "lttng-consumerd"' -F sched_migrate_task
# a field an event lacks (sched_process_fork has neither) makes its comparison false
ctf_case "not, parentheses, missing fields" 'ev ~ /^sched_process_/ && !((has("tid") && val("tid") + 0 > 6740) || (has("prio") && val("prio") != 20))' \
	-F 'sched_process_.*: !(tid > 6740 || prio != 20)'

# 4. errors
err_case() { # WANT-IN-STDERR ARGS...
	want=$1
	shift
	checked=$((checked + 1))
	"$tk" print "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 1 ] || [ -s "$tmp/out" ] || ! grep -qF -- "$want" "$tmp/err"; then
		fail "print $*: want exit 1, no output and '$want' (rc=$rc: $(cat "$tmp/err"))"
	fi
}
dat=$corpus/tracedat/x86_64-v6.dat
err_case "did you mean sched_switch" -F 'sched_swich: prev_pid == 0' "$dat"
err_case "field=prev_pdi, reason=no event it selects has this field; did you mean prev_pid" \
	-F 'sched_switch: prev_pdi == 0' "$dat"
err_case "offset=21, reason=expected && or ||" -F 'sched_switch: a == 1 prev_pid == 0' "$dat"
err_case "unknown operator '~'" -F 'sched_switch: next_comm ~ "bash*"' "$dat"
err_case "it holds text" -F 'sched_switch: prev_comm == 3' "$dat"
err_case "did you mean next_tid" -F 'sched_switch: next_tdi == 1' "$rot"
err_case "field=pid, reason=no event it selects has this field" -F 'sched_process_.*: pid > 1' "$rot"
checked=$((checked + 1))
"$tk" convert -q -F 'nosuch_event' "$dat" -o "$tmp/x.dat" 2>"$tmp/err"
rc=$?
if [ $rc -ne 1 ] || [ -e "$tmp/x.dat" ] || ! grep -q "nosuch_event" "$tmp/err"; then
	fail "convert -F nosuch_event: want exit 1, no output, the pattern named (rc=$rc)"
fi

if [ $failures -ne 0 ]; then
	echo "$failures of $checked checks failed"
	exit 1
fi
echo "all $checked checks passed"
