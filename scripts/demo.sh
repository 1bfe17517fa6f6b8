#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Quick start, command 1: build tracekit, make a CTF trace with the project's generator
# (LTTng-UST layout, two per-CPU streams), and show it with `tracekit print` and
# `tracekit info`.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh gcc meson ninja-build pkg-config libzstd-dev zlib1g-dev
if [ ! -f build-release/build.ninja ]; then
	meson setup build-release -Dbuildtype=release -Dtests=false >/dev/null
fi
ninja -C build-release >/dev/null
tk=build-release/tools/tracekit/tracekit
trace=build-release/demo-trace
rm -rf "$trace"
build-release/tests/tools/gen-ctf --events 200000 --streams 2 "$trace"
echo "== tracekit print $trace | head -n 5"
"$tk" print "$trace" | head -n 5
echo "== tracekit info $trace"
"$tk" info "$trace"
