#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Quick start, command 1: build tracekit and do its main job. As root with tracefs, record
# about two seconds of kernel activity (sched, irq, timer and system calls) while a small
# workload runs, then show the first events with `tracekit print` and a summary with
# `tracekit info`, and compare with `trace-cmd report` when trace-cmd is installed. tracekit
# mounts tracefs itself when it is missing. Without root or tracefs, say so and show a CTF
# trace made by the project's generator instead (LTTng-UST layout, two per-CPU streams).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh gcc meson ninja-build pkg-config libzstd-dev zlib1g-dev
if [ ! -f build-release/build.ninja ]; then
	meson setup build-release -Dbuildtype=release -Dtests=false >/dev/null
fi
ninja -C build-release >/dev/null
tk=build-release/tools/tracekit/tracekit

why=
if [ "$(id -u)" -ne 0 ]; then
	why="not root"
else
	# tracekit finds tracefs, or mounts it as trace-cmd does
	trace=build-release/demo.dat
	echo "== tracekit record -e sched -e irq -e timer -e raw_syscalls -o $trace -- (2 s of work)"
	# the workload: processes started and waited for, files read, timers slept on
	if "$tk" record -e sched -e irq -e timer -e raw_syscalls -o "$trace" -- sh -c '
		i=0
		while [ $i -lt 36 ]; do
			ls /proc >/dev/null
			cat /proc/self/stat >/dev/null
			sleep 0.05
			i=$((i + 1))
		done'; then
		echo "== tracekit print $trace | head -n 12"
		"$tk" print "$trace" | head -n 12
		echo "== tracekit info $trace | head -n 36"
		"$tk" info "$trace" | head -n 36
		# claim only what was checked
		if command -v trace-cmd >/dev/null 2>&1; then
			"$tk" print "$trace" >build-release/demo.tracekit.txt
			trace-cmd report "$trace" >build-release/demo.trace-cmd.txt 2>/dev/null
			if cmp -s build-release/demo.tracekit.txt build-release/demo.trace-cmd.txt; then
				echo "== checked: trace-cmd report $trace prints the same" \
					"$(wc -l <build-release/demo.tracekit.txt) lines, byte for byte"
			else
				echo "== trace-cmd report $trace differs from tracekit print:"
				diff build-release/demo.trace-cmd.txt build-release/demo.tracekit.txt |
					head -n 10
				exit 1
			fi
		else
			echo "== (trace-cmd is not installed: apt-get install trace-cmd to compare)"
		fi
		exit 0
	fi
	why="tracekit record failed (see above)"
fi

echo "== cannot record here ($why): showing a generated CTF trace instead"
trace=build-release/demo-trace
rm -rf "$trace"
build-release/tests/tools/gen-ctf --events 200000 --streams 2 "$trace"
echo "== tracekit print $trace | head -n 5"
"$tk" print "$trace" | head -n 5
echo "== tracekit info $trace"
"$tk" info "$trace"
