#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Cost of one application-tracer event (tests/ust/ust-bench.c): a disabled event, then an
# enabled one with CLOCK_MONOTONIC and with the TSC; median and 10th/90th percentiles of
# batches of 1000 events on one thread, 30 payload bytes. Issue 14's goals: disabled <= 1 ns,
# <= 30 ns with clock_gettime, <= 12 ns with the TSC; LTTng-UST 110-160 ns and barectf 34-39
# ns (clock_gettime) on this VM for scale (measured by others: see the issue).
# Usage: sh bench/ust.sh [BUILD-DIR] [BATCHES]   (BUILD-DIR made with -Dbuildtype=release)
set -eu
build=${1:-bench/out/build}
batches=${2:-4000}
exe=$build/tests/ust/ust-bench
[ -x "$exe" ] || { echo "no $exe: build with tests enabled" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), nproc $(nproc), $(uname -sr)"
echo "- Command: sh bench/ust.sh $build $batches"
for clock in monotonic tsc; do
	"$exe" "$tmp/$clock" "$clock" "$batches"
done
