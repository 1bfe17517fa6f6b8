#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The VM harness inside the guest (busybox sh): runs this boot's cases of tests/vm/cases and
# writes every file they made, as a tar archive, to the disk /dev/vda for the host.
#
# Which cases: the host boots each kernel once per "fresh" case (at least once), passing
# tk.boot=N on the kernel command line. Boot 1 runs the first fresh case, then every case
# that is not fresh; boot N runs the N-th fresh case alone. A fresh case thus always runs
# first after boot, on a top-level buffer not yet expanded. The number of boots needed is
# written to boot.txt, so the host learns it from boot 1.
#
# One case (see tests/vm/cases for the columns and checks): in /out/NAME, tracefs mounted at
# /sys/kernel/tracing (unmounted for "notracefs"), snapshot of every readable tracefs file
# (state), the mirror instance started (text), the command run and ended as the case says,
# the mirror stopped and its `trace` text saved, the snapshot taken again and compared.
# What fails here is written to /out/NAME/fail, one line each; the host adds its own checks
# of the .dat files. Files a case leaves in /out/NAME: cmd, rc, out, err, seconds, fail,
# state.diff, mirror.txt, mirror.stats, and what the command wrote.
set -u
LC_ALL=C
export LC_ALL
PATH=/vm:/bin
export PATH
tracefs=/sys/kernel/tracing
out=/out
mirror=tkvm-mirror
# shellcheck source=../tracefs-state.sh
. /vm/tracefs-state.sh

param() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^tk\\.$1=//p"
}
boot=$(param boot)
kernel=$(param kernel)

uptime_s() {
	cut -d ' ' -f 1 /proc/uptime
}

mounted() {
	awk -v d="$tracefs" '$2 == d && $3 == "tracefs" { f = 1 } END { exit !f }' /proc/mounts
}

# snap OUT: snapshot_all of tracefs -- read through a mount in a private mount namespace when
# it is not mounted, so that nobody else sees that mount -- plus whether it is mounted.
snap() {
	if mounted; then
		snapshot_all "$tracefs" "$1"
		m=mounted
	else
		unshare -m --propagation private sh -c '
			mount -t tracefs nodev "$1" || exit 1
			. /vm/tracefs-state.sh
			snapshot_all "$1" "$2"' sh "$tracefs" "$1"
		m=unmounted
	fi
	printf 'mount %s\t%s\n' "$tracefs" "$m" >>"$1"
}

# fail MESSAGE: a failure of the current case.
fail() {
	echo "$*" >>"$dir/fail"
}

# mirror_start EVENTS: an instance of the harness's own recording EVENTS (names joined by
# "+") in a buffer big enough to lose nothing, enabled before tracekit starts.
mirror_start() {
	m=$tracefs/instances/$mirror
	mkdir "$m" || {
		fail "cannot make the mirror instance"
		return
	}
	echo 8192 >"$m/buffer_size_kb"
	for e in $(echo "$1" | tr '+' ' '); do
		f=$(ls -d "$m"/events/*/"$e" 2>/dev/null | head -n 1)
		if [ -n "$f" ]; then
			echo 1 >"$f/enable"
		else
			fail "text: no event $e in this kernel"
		fi
	done
}

# mirror_stop: its text, its losses (none allowed), and the instance removed.
mirror_stop() {
	m=$tracefs/instances/$mirror
	[ -d "$m" ] || return
	echo 0 >"$m/tracing_on"
	cat "$m/trace" >"$dir/mirror.txt"
	for c in "$m"/per_cpu/cpu*; do
		echo "${c##*/}"
		cat "$c/stats"
	done >"$dir/mirror.stats"
	grep -q -E '^(overrun|dropped events): [1-9]' "$dir/mirror.stats" &&
		fail "text: the mirror instance lost events (mirror.stats)"
	rmdir "$m" || fail "cannot remove the mirror instance"
}

# started PID: wait until tracekit PID has its reader threads (one per CPU; tracing goes on
# right after they report), at most 60 s; status 1 if it never got there.
started() {
	n=0
	while [ $n -lt 300 ]; do
		[ "$(ls /proc/"$1"/task 2>/dev/null | wc -l)" -gt 1 ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.2
		n=$((n + 1))
	done
	return 1
}

# run_case NAME END CHECKS COMMAND
run_case() {
	name=$1
	end=$2
	checks=$3
	cmd=$4
	dir=$out/$name
	mkdir -p "$dir"
	cd "$dir" || return
	echo "$cmd" >cmd
	want_rc=0
	state=
	text=
	notracefs=
	for c in $(echo "$checks" | tr ',' ' '); do
		case $c in
		state) state=1 ;;
		text=*) text=${c#text=} ;;
		notracefs) notracefs=1 ;;
		rc=*) want_rc=${c#rc=} ;;
		only=*)
			if [ "${c#only=}" != "$kernel" ]; then
				echo "only on ${c#only=}" >skipped
				echo "tkvm-case $name skipped (only on ${c#only=})"
				return
			fi
			;;
		esac
	done
	t0=$(uptime_s)
	if [ -n "$notracefs" ]; then
		! mounted || umount "$tracefs" || fail "cannot unmount tracefs"
	else
		mounted || mount -t tracefs nodev "$tracefs" || fail "cannot mount tracefs"
	fi
	[ -n "$state" ] && snap state.before
	[ -n "$text" ] && mirror_start "$text"

	case $end in
	exit)
		timeout -s KILL 300 sh -c "exec $cmd" >out 2>err
		rc=$?
		[ $rc -eq 137 ] && fail "still running after 300 s: killed"
		;;
	SIGINT | SIGTERM | SIGHUP | SIGKILL)
		sh -c "exec $cmd" >out 2>err &
		pid=$!
		if started $pid; then
			sleep 1
		else
			fail "tracekit did not start recording within 60 s"
		fi
		kill -"${end#SIG}" $pid
		# a tracekit that does not end is killed, so that the next cases still run
		(
			sleep 120
			kill -KILL $pid 2>/dev/null && echo "still running 120 s after $end: killed" >>fail
		) &
		watchdog=$!
		wait $pid
		rc=$?
		kill $watchdog 2>/dev/null
		;;
	*)
		fail "unknown end '$end' in tests/vm/cases"
		rc=0
		;;
	esac
	echo $rc >rc
	if [ "$end" = SIGKILL ]; then
		# nothing can remove what a killed tracekit leaves: its instance (unless it
		# recorded elsewhere); the next tracekit record removes it
		case " $cmd " in
		*" --top "* | *" -B "* | *" --instance"*) ;;
		*)
			[ -d "$tracefs/instances/tracekit-$pid" ] ||
				fail "no instance tracekit-$pid after SIGKILL (named otherwise?)"
			;;
		esac
		tracekit record -e sched -d 0.3 -o next.dat >next.out 2>next.err
		rc=$?
		[ $rc -eq 0 ] || fail "the next tracekit record exits $rc: $(head -n 2 next.err)"
		[ -d "$tracefs/instances/tracekit-$pid" ] &&
			fail "the next tracekit record left the instance tracekit-$pid"
	elif [ "$rc" != "$want_rc" ]; then
		fail "exit status $rc, want $want_rc: $(head -n 2 err)"
	fi
	# whatever ended it, tracekit leaves no temporary file (its files have no name)
	left=$(find "$dir" -name '*.tmp-*' | tr '\n' ' ')
	[ -n "$left" ] && fail "files left behind: $left"

	[ -n "$text" ] && mirror_stop
	if [ -n "$notracefs" ]; then
		# tracekit mounts tracefs where it is missing and leaves it mounted, as trace-cmd
		# (libtracefs) does: the one change of state it may make
		mounted || fail "tracefs is not mounted at $tracefs after tracekit ran"
		[ -f state.before ] && sed -i "s|^mount $tracefs	unmounted\$|mount $tracefs	mounted|" \
			state.before
	fi
	if [ -n "$state" ]; then
		snap state.after
		changes state.before state.after >state.diff
		if [ -s state.diff ]; then
			fail "$(wc -l <state.diff) tracefs files differ after the case (state.diff)"
			head -n 8 state.diff | cut -c 1-300 | sed 's/^/    /' >>fail
		else
			rm -f state.diff
		fi
		rm -f state.before state.after
	fi
	t1=$(uptime_s)
	echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }' >seconds
	if [ -s fail ]; then
		echo "tkvm-case $name FAIL ($(cat seconds) s)"
		sed 's/^/    /' fail
	else
		echo "tkvm-case $name ok ($(cat seconds) s)"
	fi
	cd /
}

# The cases: "NAME END CHECKS COMMAND...", comments and blank lines aside.
grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' /vm/cases >/tmp/cases
only=$(param cases)
if [ -n "$only" ]; then # TRACEKIT_VM_CASES on the host: these cases only
	echo "$only" | tr ',' '\n' >/tmp/only
	awk 'NR == FNR { want[$1] = 1; next } want[$1]' /tmp/only /tmp/cases >/tmp/cases.only
	mv /tmp/cases.only /tmp/cases
fi
awk '("," $3 ",") ~ /,fresh,/ { print $1 }' /tmp/cases >/tmp/fresh
awk '("," $3 ",") !~ /,fresh,/ { print $1 }' /tmp/cases >/tmp/plain
boots=$(wc -l </tmp/fresh)
[ "$boots" -ge 1 ] || boots=1
if [ "$boot" = 1 ]; then
	{
		head -n 1 /tmp/fresh
		cat /tmp/plain
	} >/tmp/run
else
	sed -n "${boot}p" /tmp/fresh >/tmp/run
fi
{
	echo "boots $boots"
	echo "kernel $kernel"
	echo "release $(uname -r)"
	echo "cpus $(nproc)"
	echo "cases $(tr '\n' ' ' </tmp/run)"
} >"$out/boot.txt"

while read -r want; do
	while read -r name end checks cmd; do
		# stdin: the cases stay this loop's, not the commands'
		[ "$name" = "$want" ] && run_case "$name" "$end" "$checks" "$cmd" </dev/null
	done </tmp/cases
done </tmp/run

# the kernel's log, for the host to look for warnings and oopses
dmesg >"$out/dmesg.txt"

# Every file made, to the host: a tar archive written over the disk /dev/vda, with MANIFEST
# ("SIZE SHA256 PATH" of each other file) for the host to check what arrived. (A serial port
# moves about 100 KB/s under emulation: minutes for the files of one boot.)
n=0
while [ ! -b /dev/vda ] && [ $n -lt 50 ]; do
	sleep 0.2
	n=$((n + 1))
done
cd "$out" || exit 1
find . -type f | sed 's|^\./||' | sort | while read -r f; do
	echo "$(wc -c <"$f") $(sha256sum <"$f" | cut -d ' ' -f 1) $f"
done >/tmp/MANIFEST
mv /tmp/MANIFEST MANIFEST
if tar -cf /dev/vda . && sync; then
	bytes=$(awk '{ s += $1 } END { print s + 0 }' MANIFEST)
	echo "tkvm-sent $(wc -l <MANIFEST) files, $bytes bytes"
else
	echo "tkvm-error cannot write the results to /dev/vda"
fi
