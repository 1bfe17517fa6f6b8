#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `tracekit record` leaves the kernel as it found it, however the recording ends, and fails
# clearly. Before each case a snapshot of every tracefs setting is taken
# (tests/tracefs-state.sh: enable, filter and trigger files of every event, buffer sizes,
# clock, tracing_on, pid filters, options, instances, ...); after it, the snapshot must be
# the same. Cases:
#
#   command          -- COMMAND: records while it runs, exit 0, a file tracekit prints
#   sigint, sigterm, sighup
#                    no command; the signal ends the recording: exit 0 and a good file
#   top              --top -b -C -f -P -c on the top-level buffer, ended by SIGINT: the
#                    top-level settings it changed are all back
#   named            -B NAME of a new instance: made, recorded in, removed
#   sigint-command   SIGINT to tracekit while COMMAND runs: passed on, COMMAND ends, exit 0
#   kill-command     SIGKILL of the traced command: the recording ends normally, exit 0,
#                    and the summary says the command was killed by signal 9
#   bad-filter       a filter the kernel refuses: exit 1, one line quoting the kernel's
#                    error_log ("Field not found")
#   bad-quote        an unbalanced quote, which the kernel refuses with ESRCH: the same,
#                    "Missing matching quote"
#   output-dir       -o naming a directory: exit 1 before recording, one line saying so
#   unknown-event    -e nosuchsystem: exit 1, one line naming the spec
#   not-root         as user nobody (setpriv): exit 1, one line with the errno
#   no-tracefs       in a private mount namespace without tracefs (unshare -m, both mount
#                    points unmounted there): tracekit mounts it and records, exit 0
#   no-tracefs-not-root
#                    the same as user nobody: exit 1, one line saying how to mount it
#   disk-full        -o on a 1 MiB tmpfs under a busy workload: exit 1, one line saying
#                    "No space left on device", no file left behind
#   kill-tracekit    SIGKILL of tracekit itself: its instance stays (nothing can remove it),
#                    and the next tracekit record removes it; no file is left in the output's
#                    directory
#   own-threads      tracekit's own threads' events are not recorded (notrace pid lists)
#   function         -p function: refused by the kernel (exit 1, its errno on one line,
#                    no file) or, where allowed, a file with function records
#   usage            -l, -n, -g without -p, a zero graph depth or buffer size: exit 2
#
# Usage: record-state.sh TRACEKIT   (exits 77 when not root or without tracefs)
set -u
LC_ALL=C
export LC_ALL

skip() {
	echo "skip: $*" >&2
	exit 77
}

# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
need_tracefs "$tk"

tmp=$(mktemp -d)
failures=0
cases=0
bg=
fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}
note() {
	echo "note: $*"
}
# shellcheck source=../tracefs-state.sh
. "$(dirname "$0")/../tracefs-state.sh"
cleanup() {
	[ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null
	mountpoint -q "$tmp/small" 2>/dev/null && umount "$tmp/small"
	for i in "$tracefs"/instances/tracekit-* "$tracefs"/instances/tk-state-test; do
		[ -d "$i" ] && rmdir "$i" 2>/dev/null
	done
	restore "the test ended"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

snapshot "$tmp/state.before"
grep -q '^tracing_on	' "$tmp/state.before" || skip "cannot read the tracefs settings"

# same CASE: the settings are those of the first snapshot; if not, say what differs and put
# them back for the next case.
same() {
	snapshot "$tmp/state.after"
	changes "$tmp/state.before" "$tmp/state.after" >"$tmp/state.diff"
	if [ -s "$tmp/state.diff" ]; then
		fail "$1: tracefs settings differ after tracekit record:"
		head -n 5 "$tmp/state.diff" | sed 's/^/    /'
		restore "$1"
	fi
}

# one_line CASE PATTERN: stderr is one line starting "tracekit: " and matching PATTERN.
one_line() {
	if [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q '^tracekit: ' "$tmp/err"; then
		fail "$1: stderr is not one 'tracekit: ' line:"
		head -n 3 "$tmp/err" | sed 's/^/    /'
	elif ! grep -q -e "$2" "$tmp/err"; then
		fail "$1: stderr does not say '$2': $(cat "$tmp/err")"
	fi
}

# good_file CASE FILE: tracekit prints it, with at least one event.
good_file() {
	if ! "$tk" print "$2" >"$tmp/print.txt" 2>"$tmp/print.err"; then
		fail "$1: tracekit print fails: $(head -n 1 "$tmp/print.err")"
	elif [ "$(wc -l <"$tmp/print.txt")" -lt 2 ]; then
		fail "$1: no events in the file"
	fi
}

# start CASE ARGS...: tracekit record in the background (its pid in $bg), given time to start.
start() {
	c=$1
	shift
	"$tk" record "$@" >"$tmp/out" 2>"$tmp/err" &
	bg=$!
	sleep 0.7
}

# finish: wait for the background tracekit; its exit status in $rc.
finish() {
	wait "$bg"
	rc=$?
	bg=
}

expect_rc() {
	[ "$rc" -eq "$2" ] || fail "$1: exit status $rc, want $2: $(head -n 2 "$tmp/err")"
}

run_case() {
	cases=$((cases + 1))
	echo "case $1"
}

run_case command
"$tk" record -e sched -o "$tmp/a.dat" -- sleep 0.3 >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc command 0
good_file command "$tmp/a.dat"
same command

for sig in INT TERM HUP; do
	name=sig$(echo $sig | tr 'A-Z' 'a-z')
	run_case $name
	start $name -e sched -e irq -o "$tmp/$name.dat"
	kill -$sig "$bg"
	finish
	expect_rc $name 0
	good_file $name "$tmp/$name.dat"
	same $name
done

run_case top
start top --top -b 2048 -C global -e sched:sched_switch -f 'prev_pid > 0' -P $$ -c \
	-o "$tmp/top.dat"
kill -INT "$bg"
finish
expect_rc top 0
[ -s "$tmp/top.dat" ] || fail "top: no file"
same top

run_case named
[ -e "$tracefs/instances/tk-state-test" ] && rmdir "$tracefs/instances/tk-state-test"
"$tk" record -B tk-state-test -e sched -o "$tmp/n.dat" -- sleep 0.2 >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc named 0
good_file named "$tmp/n.dat"
[ -e "$tracefs/instances/tk-state-test" ] && fail "named: the instance is still there"
same named

run_case sigint-command
start sigint-command -e sched -o "$tmp/sc.dat" -- sleep 30
kill -INT "$bg"
finish
expect_rc sigint-command 0
good_file sigint-command "$tmp/sc.dat"
pgrep -f 'sleep 30$' >/dev/null && fail "sigint-command: the command still runs"
same sigint-command

run_case kill-command
start kill-command -e sched -o "$tmp/kc.dat" -- sh -c "echo \$\$ >'$tmp/kc.pid'; exec sleep 30"
kill -KILL "$(cat "$tmp/kc.pid")"
finish
expect_rc kill-command 0
good_file kill-command "$tmp/kc.dat"
grep -q 'killed by signal 9' "$tmp/err" || fail "kill-command: the summary does not say signal 9"
same kill-command

# bad_filter NAME FILTER CAUSE: a sched_switch filter the kernel refuses: exit 1, one line
# quoting CAUSE, and nothing changed
bad_filter() {
	run_case "$1"
	"$tk" record -e sched:sched_switch -f "$2" -o "$tmp/bf.dat" -- true >"$tmp/out" 2>"$tmp/err"
	rc=$?
	expect_rc "$1" 1
	one_line "$1" "$3"
	same "$1"
}

bad_filter bad-filter 'prev_pidd > 0' 'Field not found'

# -p function: where the kernel refuses it (lockdown, as on this project's hosts), exit 1
# with the kernel's errno on one line and nothing changed; where it allows it, a good file
# with function records
run_case function
"$tk" record -p function -l 'vfs_*' -o "$tmp/fn.dat" -- cat /proc/self/stat \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ]; then
	one_line function 'errno=\(Operation not permitted\|Permission denied\).*refuses function tracing'
	[ -e "$tmp/fn.dat" ] && fail "function: refused, yet $tmp/fn.dat was written"
elif [ $rc -eq 0 ]; then
	good_file function "$tmp/fn.dat"
	grep -q ' function: ' "$tmp/print.txt" || fail "function: no function records"
else
	expect_rc function 1
fi
same function

run_case usage
for args in "-l vfs_read -e sched" "-g vfs_read -e sched" "--max-graph-depth 0 -p function" \
	"-n vfs_read" "-b 0 -p function"; do
	# shellcheck disable=SC2086 # one word per option
	"$tk" record $args -o "$tmp/u.dat" -- true >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "usage: record $args: exit $rc, want 2: $(head -n 1 "$tmp/err")"
done
same usage

bad_filter bad-quote 'prev_comm ~ "bash' 'Missing matching quote'

run_case output-dir
"$tk" record -e sched -o "$tmp" -- true >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc output-dir 1
one_line output-dir 'not a regular file'
same output-dir

run_case unknown-event
"$tk" record -e nosuchsystem -o "$tmp/ue.dat" -- true >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc unknown-event 1
one_line unknown-event 'spec=nosuchsystem'
same unknown-event

if command -v setpriv >/dev/null 2>&1; then
	run_case not-root
	setpriv --reuid=65534 --regid=65534 --clear-groups "$tk" record -e sched \
		-o /tmp/tk-not-root.dat -- true >"$tmp/out" 2>"$tmp/err"
	rc=$?
	expect_rc not-root 1
	one_line not-root 'errno=\(Permission denied\|Operation not permitted\)'
	same not-root
else
	note "setpriv not found: the not-root case is left out"
fi

if command -v unshare >/dev/null 2>&1; then
	# in a private mount namespace, so the host's mounts are not touched
	run_case no-tracefs
	unshare -m sh -c '
		umount -l /sys/kernel/tracing 2>/dev/null
		umount -l /sys/kernel/debug/tracing 2>/dev/null
		umount -l /sys/kernel/debug 2>/dev/null
		"$1" record -e sched -o "$2" -- true || exit
		awk "\$2 == \"/sys/kernel/tracing\" && \$3 == \"tracefs\"" /proc/self/mounts' \
		sh "$tk" "$tmp/nt.dat" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	expect_rc no-tracefs 0
	grep -q tracefs "$tmp/out" || fail "no-tracefs: tracekit did not mount tracefs"
	good_file no-tracefs "$tmp/nt.dat"
	same no-tracefs

	if command -v setpriv >/dev/null 2>&1; then
		run_case no-tracefs-not-root
		unshare -m sh -c '
			umount -l /sys/kernel/tracing 2>/dev/null
			umount -l /sys/kernel/debug/tracing 2>/dev/null
			umount -l /sys/kernel/debug 2>/dev/null
			exec setpriv --reuid=65534 --regid=65534 --clear-groups \
				"$1" record -e sched -o /tmp/tk-not-root.dat -- true' sh "$tk" \
			>"$tmp/out" 2>"$tmp/err"
		rc=$?
		expect_rc no-tracefs-not-root 1
		one_line no-tracefs-not-root 'needs root.*mount -t tracefs'
		same no-tracefs-not-root
	fi
else
	note "unshare not found: the no-tracefs cases are left out"
fi

run_case disk-full
mkdir "$tmp/small"
if mount -t tmpfs -o size=1m tk-state-test "$tmp/small" 2>/dev/null; then
	"$tk" record -b 4096 -e sched -e raw_syscalls -o "$tmp/small/f.dat" -- sh -c \
		'i=0; while [ $i -lt 3000 ]; do cat /proc/self/stat >/dev/null; i=$((i+1)); done' \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	expect_rc disk-full 1
	one_line disk-full 'No space left on device'
	[ -z "$(ls "$tmp/small")" ] || fail "disk-full: files left behind: $(ls "$tmp/small")"
	umount "$tmp/small"
	same disk-full
else
	note "cannot mount a tmpfs: the disk-full case is left out"
fi

run_case kill-tracekit
mkdir "$tmp/kt"
start kill-tracekit -e sched -o "$tmp/kt/kt.dat"
victim=$bg
kill -KILL "$bg"
finish
[ -d "$tracefs/instances/tracekit-$victim" ] ||
	fail "kill-tracekit: no instance tracekit-$victim left (was it named otherwise?)"
# the per-CPU pages wait in files with no name: nothing to leave behind
[ -z "$(ls -A "$tmp/kt")" ] || fail "kill-tracekit: files left behind: $(ls -A "$tmp/kt")"
"$tk" record -e sched -d 0.2 -o "$tmp/kt2.dat" >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc kill-tracekit 0
[ -d "$tracefs/instances/tracekit-$victim" ] &&
	fail "kill-tracekit: the next tracekit record left tracekit-$victim"
same kill-tracekit

# tracekit's own threads (the main one and one reader per CPU, named while it runs) are
# left out by the kernel, as trace-cmd leaves its own out; the workload's events are in
run_case own-threads
start own-threads -e raw_syscalls -d 1.5 -o "$tmp/self.dat"
tids=$(ls "/proc/$bg/task" 2>/dev/null)
finish
expect_rc own-threads 0
if [ "$(echo "$tids" | wc -w)" -lt 2 ]; then
	fail "own-threads: could not see tracekit's threads while it ran ($tids)"
elif ! "$tk" print "$tmp/self.dat" >"$tmp/self.txt" 2>"$tmp/print.err"; then
	fail "own-threads: tracekit print fails: $(head -n 1 "$tmp/print.err")"
else
	for t in $tids; do
		# "COMM-TID [CPU]" starts each line: the task the event happened in
		if grep -E -q -- "-$t +\[[0-9]+\] " "$tmp/self.txt"; then
			fail "own-threads: events of tracekit's thread $t were recorded:"
			grep -E -m 3 -- "-$t +\[[0-9]+\] " "$tmp/self.txt" | sed 's/^/    /'
		fi
	done
	[ "$(wc -l <"$tmp/self.txt")" -gt 2 ] || fail "own-threads: no other events recorded"
fi
same own-threads

echo "$cases cases, $failures failures"
[ $failures -eq 0 ]
