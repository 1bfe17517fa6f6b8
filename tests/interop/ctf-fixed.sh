#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: event classes of fixed layout, whose bodies the CTF reader skips and the
# babeltrace2-style printer reads where they lie (tk_event.body, plan_fuse() in
# src/output/pretty-plan.c) instead of from decoded values. ctf-fixed.py writes traces of
# every integer size, signedness, base and byte order, enumerations, floats, text arrays,
# hidden fields, and layouts that must not take that path (fixed arrays, bit fields, bodies
# starting unaligned); `tracekit print` must print them as babeltrace2 does, byte for byte,
# with the default options and with `--clock-seconds --names=all --fields=all`.
#
# Usage: ctf-fixed.sh TRACEKIT     (exits 77 when babeltrace2 or python3 is not installed)
set -u
for tool in babeltrace2 python3; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "skip: $tool not found in PATH" >&2
		exit 77
	fi
done
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tools_from_args "$1" "$1"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
failures=0

for order in le be; do
	for seed in 1 2 3; do
		dir=$tmp/$order-$seed
		if ! python3 "$here/ctf-fixed.py" "$dir" "$order" "$seed"; then
			echo "FAIL $order-$seed: ctf-fixed.py failed"
			failures=$((failures + 1))
			continue
		fi
		for mode in default all; do
			set --
			[ "$mode" = all ] && set -- --clock-seconds --names=all --fields=all
			if ! babeltrace2 "$@" "$dir" >"$tmp/bt.out" 2>"$tmp/bt.err"; then
				echo "FAIL $order-$seed ($mode): babeltrace2 failed (bad trace?)"
				head -n 3 "$tmp/bt.err" | sed 's/^/    /'
				failures=$((failures + 1))
				continue
			fi
			if ! "$tk" print "$@" "$dir" >"$tmp/tk.out" 2>"$tmp/tk.err"; then
				echo "FAIL $order-$seed ($mode): tracekit failed"
				head -n 3 "$tmp/tk.err" | sed 's/^/    /'
				failures=$((failures + 1))
				continue
			fi
			if ! cmp -s "$tmp/bt.out" "$tmp/tk.out"; then
				echo "FAIL $order-$seed ($mode): stdout differs (< babeltrace2, > tracekit)"
				diff "$tmp/bt.out" "$tmp/tk.out" | head -n 6 | cut -c 1-400
				failures=$((failures + 1))
			fi
		done
	done
done
[ $failures -eq 0 ] || exit 1
echo "ok: fixed-layout traces print as babeltrace2 prints them"
