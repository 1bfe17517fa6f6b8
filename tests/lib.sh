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

# eventheader_corpus [CORPUS_DIR]: $dir set to the corpus's eventheader/ folder (the argument,
# else $TRACEKIT_CORPUS); exits 77 (skip) when it is not there.
eventheader_corpus() {
	corpus=${1:-${TRACEKIT_CORPUS:-}}
	dir=$corpus/eventheader
	if [ -z "$corpus" ] || [ ! -f "$dir/perf.data.linux.json" ]; then
		echo "skip: corpus folder eventheader/ not found" >&2
		exit 77
	fi
}

# need_commands NAME...: exits 77 (skip) when one of the commands is not in PATH.
need_commands() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || { echo "skip: $c not found in PATH" >&2; exit 77; }
	done
}

# scratch: $tmp, a directory removed when the test exits; fail MESSAGE ends the test.
scratch() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}
fail() {
	echo "FAIL: $*"
	exit 1
}

# sum_lost FILE: the events babeltrace2's (and tracekit's) "Tracer discarded N events"
# warnings in FILE add up to.
sum_lost() {
	sed -n 's/.*[Tt]racer discarded \([0-9][0-9]*\) events\{0,1\}.*/\1/p' "$1" |
		awk '{s += $1} END {print s + 0}'
}

# need_tracefs TRACEKIT: $tracefs set to the tracefs tracekit uses, mounted by tracekit itself
# when it is missing (as root; `tracekit list` mounts it as trace-cmd would). tracekit takes
# /sys/kernel/tracing, else the first tracefs in /proc/mounts, else mounts it at
# /sys/kernel/tracing (debugfs's tracing/ on kernels without that directory). Exits 77 when
# not root or when the kernel has no tracefs; fails when tracekit could not mount it.
need_tracefs() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "skip: not root (recording needs tracefs write access)" >&2
		exit 77
	fi
	if ! grep -qw tracefs /proc/filesystems; then
		echo "skip: this kernel has no tracefs" >&2
		exit 77
	fi
	find_tracefs || { "$1" list 'sched:sched_switch' >/dev/null 2>&1 && find_tracefs; } || {
		echo "FAIL: no tracefs at /sys/kernel/tracing, in /proc/mounts or under debugfs," \
			"and tracekit list did not mount it"
		exit 1
	}
}

# find_tracefs: $tracefs set to the tracefs tracekit would use (need_tracefs); status 1: none.
# /sys/kernel/debug/tracing is looked at only where /sys/kernel/tracing does not exist: a
# look there mounts tracefs, where debugfs is mounted.
find_tracefs() {
	debug=
	[ -d /sys/kernel/tracing ] || debug=/sys/kernel/debug/tracing
	for tracefs in /sys/kernel/tracing $(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts) \
		$debug; do
		[ -d "$tracefs/events" ] && return 0
	done
	return 1
}

# tc_report OUT ARGS...: `trace-cmd report ARGS...` into OUT, once two runs in a row agree (at
# most four runs). trace-cmd 3.1.6 now and then prints a run's times as raw counter values
# ("[001]259445107191160:") while other tests load the machine (seen once in check.sh's
# sanitizer pass); the reference is what it prints the same twice. Status 1 when it fails.
tc_report() {
	out=$1
	shift
	trace-cmd report "$@" >"$out" 2>/dev/null || return 1
	for _ in 1 2 3; do
		trace-cmd report "$@" >"$out.again" 2>/dev/null || return 1
		cmp -s "$out" "$out.again" && break
		mv "$out.again" "$out"
	done
	rm -f "$out.again"
	return 0
}

# convert NAME IN OUT [OPTIONS...]: `$tk convert -q OPTIONS IN -o OUT` must succeed; else
# fail() (the caller's) names NAME with the first line of the error. Counts in $checked, keeps
# stderr in $tmp/conv.err.
convert() {
	name=$1
	in=$2
	out=$3
	shift 3
	checked=$((checked + 1))
	rm -rf "$out"
	if ! "$tk" convert -q "$@" "$in" -o "$out" 2>"$tmp/conv.err"; then
		fail "$name: tracekit convert $*: $(head -n 1 "$tmp/conv.err" | cut -c 1-300)"
		return 1
	fi
	return 0
}
