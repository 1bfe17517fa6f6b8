#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Quick start, command 2 (and what CI runs): the whole test suite. Installs the Debian
# packages it needs when they are missing, then
#   1. builds with gcc, warnings as errors, and runs every suite (unit, cli, interop, fuzz)
#      but the VM harness;
#   2. builds with clang, warnings as errors, under AddressSanitizer and UndefinedBehavior-
#      Sanitizer, and runs the same suites again;
#   3. checks the formatting against .clang-format;
#   4. runs the VM harness with the gcc build, once: tracekit record in three other kernels
#      under qemu (tests/vm/README.md; the first run on a machine downloads two kernels and
#      builds one, about 6 minutes, kept in /var/cache/tracekit-vm). It comes last, so that
#      its minutes and its findings do not hold back those of the others.
# Tests that cannot run on this machine (no corpus, no LTTng) are reported as skipped.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh gcc clang meson ninja-build pkg-config libcmocka-dev libzstd-dev zlib1g-dev \
	g++ babeltrace2 trace-cmd \
	lttng-tools liblttng-ust-dev clang-format python3 linux-perf

setup() {
	dir=$1
	shift
	if [ -f "$dir/build.ninja" ]; then
		meson setup --reconfigure "$dir" "$@" >/dev/null
	else
		meson setup "$dir" "$@" >/dev/null
	fi
}

echo "== gcc, -Werror"
CC=gcc CXX=g++ setup build-check-gcc -Dwerror=true
ninja -C build-check-gcc
meson test -C build-check-gcc --print-errorlogs --num-processes 2 --no-suite vm

echo "== clang, -Werror, ASan + UBSan"
CC=clang CXX=clang++ setup build-check-asan -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false
ninja -C build-check-asan
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
	meson test -C build-check-asan --print-errorlogs --num-processes 2 --no-suite vm

echo "== clang-format"
ninja -C build-check-gcc clang-format-check

echo "== VM harness (tests/vm): tracekit record in Debian 6.1, Debian 6.12, minimal 6.12"
meson test -C build-check-gcc --suite vm --verbose
echo "all checks passed"
