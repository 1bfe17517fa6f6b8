# SPDX-License-Identifier: MIT
#
# Sourced by the shell tests that drive tracekit and the trace generator.

# abspath PATH: PATH made absolute (its directory must exist), so tests can change directory.
abspath() {
	echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}

# tools_from_args [TRACEKIT [GEN_CTF]]: set $tk and $gen to the executables under test, from
# the arguments meson passes or from the environment it sets; a missing one fails the test.
tools_from_args() {
	tk=$(abspath "${1:-${TRACEKIT:-}}")
	gen=$(abspath "${2:-${TRACEKIT_BUILD:-.}/tests/tools/gen-ctf}")
	for exe in "$tk" "$gen"; do
		if [ ! -x "$exe" ]; then
			echo "FAIL: not an executable: $exe"
			exit 1
		fi
	done
}

# need_tracefs TRACEKIT: $tracefs set to /sys/kernel/tracing, mounted by tracekit itself when
# it is missing (as root; `tracekit list` mounts it as trace-cmd would). Exits 77 when not
# root or when the kernel has no tracefs; fails when tracekit could not mount it.
need_tracefs() {
	tracefs=/sys/kernel/tracing
	if [ "$(id -u)" -ne 0 ]; then
		echo "skip: not root (recording needs tracefs write access)" >&2
		exit 77
	fi
	if ! grep -qw tracefs /proc/filesystems; then
		echo "skip: this kernel has no tracefs" >&2
		exit 77
	fi
	[ -d "$tracefs/events" ] || "$1" list 'sched:sched_switch' >/dev/null 2>&1
	if [ ! -d "$tracefs/events" ]; then
		echo "FAIL: tracefs is not mounted at $tracefs, and tracekit list did not mount it"
		exit 1
	fi
}
