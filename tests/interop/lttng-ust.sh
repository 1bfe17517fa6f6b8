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

fired=$(awk '{ n += $2 } END { print n + 0 }' "$tmp/fired.txt")
echo "recorded $fired events of $(wc -l <"$tmp/fired.txt") tracepoints, $failures failures"
[ $failures -eq 0 ]
