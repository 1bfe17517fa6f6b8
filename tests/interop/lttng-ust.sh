#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: a real LTTng-UST recording, printed by `tracekit print` and by babeltrace2.
#
# The corpus test reads traces recorded once, elsewhere; this one records its own, with the
# LTTng installed here, so each new LTTng-UST release meets tracekit in CI. It builds
# lttng-ust/tk-app (one tracepoint per LTTng-UST field macro, fired with edge-case values, see
# lttng-ust/tk-probes.h) and records it with a private session daemon in two sessions at once:
# per-user buffers with vpid, vtid and procname contexts, and per-process buffers with vpid,
# vtid, pthread_id, ip, vuid and net_ns. Then, with TZ=UTC, for each of the two traces and for
# the directory holding both (which the readers merge):
#   - `tracekit print TRACE` and `babeltrace2 TRACE`: same stdout byte for byte, both exit 0;
#   - the same with `--clock-seconds --names=all --fields=all`;
#   - babeltrace2 shows exactly the events tk-app says it fired, per event name and trace, so
#     a recording that silently lost events fails instead of comparing two short outputs.
# Then losses as LTTng makes them: tk-app fires everything 300 times into a flight recorder
# (an overwrite-mode channel of two 4 KiB sub-buffers per CPU and `lttng snapshot record` at
# the end: the snapshot holds the last packets, numbered from where the ring buffer was) and
# into a discard-mode channel as small, which the consumer empties only on a 0.5 s timer. For
# each:
#   - `tracekit print` and `babeltrace2`: same stdout, same WARNING lines on stderr, both exit
#     0 (babeltrace2 2.0.4 may print an earlier event's text for an empty string: such a line
#     passes when tracekit's payload is one the per-uid recording printed alike);
#   - `tracekit convert TRACE -o OUT`: babeltrace2 prints OUT as tracekit prints TRACE (with
#     the same allowance: its stale text differs from one packet layout to another), and its
#     WARNING lines are babeltrace2's for TRACE (stream paths aside);
#   - the snapshot holds fewer events than were fired, and babeltrace2 reports discarded
#     events in the discard-mode trace (else the case proves nothing).
#
# The session daemon must not meet any other one on the machine. LTTng 2.13 keeps a root
# daemon's sockets in /var/run/lttng whatever LTTNG_HOME says, so when run as root the daemon,
# the lttng client and tk-app run as "nobody" (setpriv), under a private LTTNG_HOME in a
# temporary directory; as any other user they run as that user, with the same private home.
# Every exit path stops that daemon and its consumer daemon and removes the temporary files.
#
# Usage: lttng-ust.sh TRACEKIT
#   (exits 77 when lttng, lttng-sessiond, babeltrace2, a C compiler or lttng-ust >= 2.13 is
#   missing, or when the session daemon cannot start)
set -u

skip() {
	echo "skip: $*" >&2
	exit 77
}

if [ $# -lt 1 ]; then
	echo "usage: lttng-ust.sh TRACEKIT" >&2
	exit 2
fi
tk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$here/lttng-ust
export TZ=UTC

for tool in lttng lttng-sessiond babeltrace2; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not found"
done
cc=${CC:-cc}
command -v "${cc%% *}" >/dev/null 2>&1 || skip "no C compiler ($cc) found"
command -v pkg-config >/dev/null 2>&1 || skip "pkg-config not found"
pkg-config --exists lttng-ust || skip "lttng-ust development files not found (pkg-config lttng-ust)"
pkg-config --atleast-version=2.13 lttng-ust ||
	skip "lttng-ust $(pkg-config --modversion lttng-ust) is older than 2.13"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tk-lttng-ust.XXXXXX") || exit 1
home=$tmp/home
trace=$tmp/trace
sessiond_pid=
shm_new=
rundir_new=

# Stop our session daemon (by the pid it wrote) and its consumer daemons, then remove what
# we created. Safe to run at any point of the test, and more than once.
cleanup() {
	trap '' HUP INT TERM # a second signal must not cut the cleanup short
	[ -n "$sessiond_pid" ] || sessiond_pid=$(cat "$tmp/sessiond.pid" 2>/dev/null)
	if [ -n "$sessiond_pid" ] && kill -0 "$sessiond_pid" 2>/dev/null; then
		# Its consumer daemons are its children: find them before it goes.
		children=
		for stat in /proc/[0-9]*/stat; do
			ppid=$(sed -n 's/^.*) . \([0-9]*\) .*$/\1/p' "$stat" 2>/dev/null)
			[ "$ppid" = "$sessiond_pid" ] || continue
			pid=${stat#/proc/}
			children="$children ${pid%/stat}"
		done
		kill -TERM "$sessiond_pid" 2>/dev/null
		i=0
		while kill -0 "$sessiond_pid" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -0 "$sessiond_pid" 2>/dev/null && kill -KILL "$sessiond_pid"
		# A child still alive (its name checked, in case its pid was reused) is killed too.
		for pid in $children; do
			case $(cat "/proc/$pid/comm" 2>/dev/null) in
			lttng*) kill -KILL "$pid" 2>/dev/null ;;
			esac
		done
	fi
	sessiond_pid=
	for f in $shm_new; do
		rm -f "/dev/shm/$f"
	done
	shm_new=
	[ -z "$rundir_new" ] || rmdir "$rundir_new" 2>/dev/null
	rundir_new=
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' HUP INT TERM

# Choose who runs LTTng: "nobody" when we are root and can drop to it, else ourselves.
run_as=
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	nuid=$(id -u nobody)
	ngid=$(id -g nobody)
	chown "$nuid:$ngid" "$tmp"
	if setpriv --reuid="$nuid" --regid="$ngid" --clear-groups -- test -w "$tmp" 2>/dev/null; then
		run_as="setpriv --reuid=$nuid --regid=$ngid --clear-groups --"
	else
		chown 0:0 "$tmp"
	fi
fi
lt_uid=$(${run_as:+$run_as} id -u)

# as_lttng CMD...: run CMD as the LTTng user with the private LTTng home.
as_lttng() {
	${run_as:+$run_as} env LTTNG_HOME="$home" "$@"
}

# Files LTTng leaves behind outside $tmp; remember which ones did not exist yet. A root
# session daemon also creates /var/run/lttng.
for f in lttng-ust-wait-8 "lttng-ust-wait-8-$lt_uid"; do
	[ -e "/dev/shm/$f" ] || shm_new="$shm_new $f"
done
if [ "$lt_uid" -eq 0 ] && [ ! -e /var/run/lttng ]; then
	rundir_new=/var/run/lttng
fi

# Build the traced program.
# shellcheck disable=SC2046 # pkg-config output is a list of flags
if ! $cc -o "$tmp/tk-app" -I"$srcdir" "$srcdir/tk-app.c" "$srcdir/tk-probes.c" \
	$(pkg-config --cflags --libs lttng-ust) -ldl -lm >"$tmp/cc.log" 2>&1; then
	echo "FAIL: cannot build the LTTng-UST test program:"
	head -n 20 "$tmp/cc.log" | sed 's/^/    /'
	exit 1
fi
mkdir -p "$home" || exit 1
[ -z "$run_as" ] || chown -R "$nuid:$ngid" "$tmp"

# Start the private session daemon. --daemonize returns once it accepts commands.
if ! as_lttng lttng-sessiond --daemonize --no-kernel --pidfile="$tmp/sessiond.pid" \
	>"$tmp/sessiond.log" 2>&1; then
	skip "lttng-sessiond cannot start: $(head -n 1 "$tmp/sessiond.log")"
fi
sessiond_pid=$(cat "$tmp/sessiond.pid" 2>/dev/null)
[ -n "$sessiond_pid" ] || skip "lttng-sessiond cannot start: no pid file written"

# lttng_cmd ARGS...: run one lttng command, fail the test with its output if it fails.
lttng_cmd() {
	if ! as_lttng lttng --no-sessiond "$@" >"$tmp/lttng.log" 2>&1; then
		echo "FAIL: lttng $*:"
		head -n 10 "$tmp/lttng.log" | sed 's/^/    /'
		exit 1
	fi
}

# Two sessions record the same events: per-user buffers (the default) and per-process
# buffers, each with its own contexts. Each makes one trace; printed together, the readers
# must merge two traces whose events have nearly the same timestamps.
lttng_cmd create tk-uid --output="$trace/per-uid"
lttng_cmd enable-event -u 'tracekit_interop:*' -s tk-uid
lttng_cmd add-context -u -t vpid -t vtid -t procname -s tk-uid
lttng_cmd create tk-pid --output="$trace/per-pid"
lttng_cmd enable-channel -u --buffers-pid -s tk-pid pidchan
lttng_cmd enable-event -u 'tracekit_interop:*' -s tk-pid -c pidchan
lttng_cmd add-context -u -t vpid -t vtid -t pthread_id -t ip -t vuid -t net_ns -s tk-pid -c pidchan
lttng_cmd start tk-uid
lttng_cmd start tk-pid
# Wait for registration with the daemon before main() runs, so no early event is missed.
if ! as_lttng env LTTNG_UST_REGISTER_TIMEOUT=20000 "$tmp/tk-app" >"$tmp/fired.txt" \
	2>"$tmp/app.err"; then
	echo "FAIL: tk-app failed:"
	head -n 10 "$tmp/app.err" | sed 's/^/    /'
	exit 1
fi
for session in tk-uid tk-pid; do
	lttng_cmd stop "$session"
	lttng_cmd destroy "$session"
done

failures=0

# compare NAME ARGS...: tracekit print ARGS vs babeltrace2 ARGS, stdout and exit status.
compare() {
	name=$1
	shift
	babeltrace2 "$@" >"$tmp/bt.txt" 2>"$tmp/bt.err"
	bt_rc=$?
	"$tk" print "$@" >"$tmp/tk.txt" 2>"$tmp/tk.err"
	tk_rc=$?
	if [ $bt_rc -ne 0 ]; then
		echo "FAIL $name: babeltrace2 exited with $bt_rc"
		head -n 5 "$tmp/bt.err" | sed 's/^/    /'
		failures=$((failures + 1))
	fi
	if [ $tk_rc -ne 0 ]; then
		echo "FAIL $name: tracekit exited with $tk_rc"
		head -n 5 "$tmp/tk.err" | sed 's/^/    /'
		failures=$((failures + 1))
	fi
	if ! cmp -s "$tmp/bt.txt" "$tmp/tk.txt"; then
		echo "FAIL $name: stdout differs (< babeltrace2, > tracekit)"
		diff "$tmp/bt.txt" "$tmp/tk.txt" | head -n 20 | sed 's/^/    /'
		failures=$((failures + 1))
	fi
}

sort "$tmp/fired.txt" >"$tmp/fired-sorted.txt"
for t in per-uid per-pid; do
	compare "$t" "$trace/$t"

	# Each event babeltrace2 shows is one line: "[time] (+delta) host provider:event: ...".
	awk '{ sub(/:$/, "", $4); sub(/^tracekit_interop:/, "", $4); n[$4]++ }
		END { for (e in n) print e, n[e] }' "$tmp/bt.txt" | sort >"$tmp/seen.txt"
	if [ ! -s "$tmp/fired-sorted.txt" ] || ! cmp -s "$tmp/fired-sorted.txt" "$tmp/seen.txt"; then
		echo "FAIL $t: recorded events differ from fired ones (< fired by tk-app, > recorded)"
		diff "$tmp/fired-sorted.txt" "$tmp/seen.txt" | head -n 20 | sed 's/^/    /'
		failures=$((failures + 1))
	fi

	compare "$t (all)" --clock-seconds --names=all --fields=all "$trace/$t"
done
compare "both" "$trace"
compare "both (all)" --clock-seconds --names=all --fields=all "$trace"

# Losses as LTTng makes them. tk-app fires everything 300 times into two more sessions: a
# flight recorder (overwrite-mode buffers, a snapshot at the end) and a discard-mode channel
# whose small buffers the consumer empties only twice a second (its read timer, instead of
# being woken by the writer), so that they fill.
snap=$tmp/snapshot
lossy=$tmp/lossy
lttng_cmd create tk-snap --snapshot --output="$snap"
lttng_cmd enable-channel -u --overwrite --subbuf-size=4096 --num-subbuf=2 -s tk-snap snapchan
lttng_cmd enable-event -u 'tracekit_interop:*' -s tk-snap -c snapchan
lttng_cmd add-context -u -t vpid -t vtid -t procname -s tk-snap -c snapchan
lttng_cmd create tk-lossy --output="$lossy"
lttng_cmd enable-channel -u --discard --subbuf-size=4096 --num-subbuf=2 --read-timer=500000 \
	-s tk-lossy lossychan
lttng_cmd enable-event -u 'tracekit_interop:*' -s tk-lossy -c lossychan
lttng_cmd add-context -u -t vpid -t vtid -t procname -s tk-lossy -c lossychan
lttng_cmd start tk-snap
lttng_cmd start tk-lossy
if ! as_lttng env LTTNG_UST_REGISTER_TIMEOUT=20000 "$tmp/tk-app" 300 >"$tmp/fired-300.txt" \
	2>"$tmp/app.err"; then
	echo "FAIL: tk-app 300 failed:"
	head -n 10 "$tmp/app.err" | sed 's/^/    /'
	exit 1
fi
lttng_cmd snapshot record -s tk-snap
for session in tk-snap tk-lossy; do
	lttng_cmd stop "$session"
	lttng_cmd destroy "$session"
done
fired300=$(awk '{ n += $2 } END { print n + 0 }' "$tmp/fired-300.txt")

# The per-uid trace, where both printed the same, is the reference of every payload.
"$tk" print "$trace/per-uid" >"$tmp/reference.txt" 2>/dev/null
# warnings FILE: the WARNING lines of FILE, without the stream paths
warnings() {
	sed -n 's/ within stream "[^"]*"/ within stream/p' "$1" | grep WARNING
}
# lossy NAME TRACE: print and babeltrace2 alike (stdout, WARNING lines, exit status), and
# the trace converted to CTF printed by babeltrace2 as the original.
lossy() {
	name=$1
	dir=$2
	babeltrace2 "$dir" >"$tmp/bt.txt" 2>"$tmp/bt.err"
	bt_rc=$?
	"$tk" print "$dir" >"$tmp/tk.txt" 2>"$tmp/tk.err"
	tk_rc=$?
	if [ $bt_rc -ne 0 ] || [ $tk_rc -ne 0 ]; then
		echo "FAIL $name: exit status babeltrace2 $bt_rc, tracekit $tk_rc"
		head -n 3 "$tmp/bt.err" "$tmp/tk.err" | sed 's/^/    /'
		failures=$((failures + 1))
	fi
	# babeltrace2 2.0.4 may print an earlier event's text for an empty string
	if ! python3 "$here/stale-empty.py" "$tmp/bt.txt" "$tmp/tk.txt" "$tmp/reference.txt" \
		>"$tmp/cmp"; then
		echo "FAIL $name: stdout differs (< babeltrace2, > tracekit)"
		cat "$tmp/cmp"
		failures=$((failures + 1))
	fi
	warnings "$tmp/bt.err" >"$tmp/bt.warn"
	warnings "$tmp/tk.err" >"$tmp/tk.warn"
	if ! cmp -s "$tmp/bt.warn" "$tmp/tk.warn"; then
		echo "FAIL $name: WARNING lines differ (< babeltrace2, > tracekit)"
		diff "$tmp/bt.warn" "$tmp/tk.warn" | head -n 10 | sed 's/^/    /'
		failures=$((failures + 1))
	fi
	rm -rf "$tmp/conv"
	if ! "$tk" convert "$dir" -o "$tmp/conv" 2>"$tmp/conv.err"; then
		echo "FAIL $name: tracekit convert failed:"
		head -n 5 "$tmp/conv.err" | sed 's/^/    /'
		failures=$((failures + 1))
		return
	fi
	babeltrace2 "$tmp/conv" >"$tmp/conv.txt" 2>"$tmp/conv.bt.err"
	warnings "$tmp/conv.bt.err" >"$tmp/conv.warn"
	if ! python3 "$here/stale-empty.py" "$tmp/conv.txt" "$tmp/tk.txt" "$tmp/reference.txt" \
		>"$tmp/cmp" || ! cmp -s "$tmp/bt.warn" "$tmp/conv.warn"; then
		echo "FAIL $name: babeltrace2 prints the converted trace otherwise"
		cat "$tmp/cmp"
		diff "$tmp/bt.warn" "$tmp/conv.warn" | head -n 6 | sed 's/^/    /'
		failures=$((failures + 1))
	fi
	echo "$name: $(wc -l <"$tmp/bt.txt") of $fired300 events, $(wc -l <"$tmp/bt.warn") WARNING lines"
}
lossy snapshot "$snap"
n=$(wc -l <"$tmp/bt.txt")
if [ "$n" -eq 0 ] || [ "$n" -ge "$fired300" ]; then
	echo "FAIL snapshot: $n of $fired300 events: the flight recorder did not wrap"
	failures=$((failures + 1))
fi
lossy discard "$lossy"
if ! grep -q 'discarded [0-9]* *events' "$tmp/bt.warn"; then
	echo "FAIL discard: babeltrace2 reports no discarded event: the buffers kept up"
	failures=$((failures + 1))
fi

fired=$(awk '{ n += $2 } END { print n + 0 }' "$tmp/fired.txt")
echo "recorded $fired events of $(wc -l <"$tmp/fired.txt") tracepoints, $failures failures"
[ $failures -eq 0 ]
