#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test of the CTF writer: traces written through the public API by tests/tools/gen-ctfw
# (every field kind, renamed field names, compact and large event headers, both byte orders,
# packet sizes from the smallest to the default, events larger than a packet, clocks of
# several frequencies, losses, with and without index files; and with --nested, the kinds
# that nest, packet contexts of the caller's fields, event class contexts, given IDs and file
# names, losses over time ranges, and a stream class without a clock) are read by
# babeltrace2.
#
# For each trace, with default options and with `--clock-seconds --names=all --fields=all`:
#  - babeltrace2 exits 0 and prints nothing on stderr, except, for traces with losses, its
#    "WARNING: Tracer discarded ..." lines, which must equal those of `tracekit print`;
#  - its stdout is byte-identical to that of `tracekit print`, which exits 0.
# And babeltrace2 must use the index files: with --log-level=INFO it says "Building index
# from .idx file" for every non-empty stream file, never that it falls back to reading the
# stream, and logs no warning or error (streams without a clock have none: babeltrace2
# cannot use an index without times, so it reads those files through, at INFO level).
#
# Usage: ctf-write.sh TRACEKIT GEN_CTFW     (exits 77 when babeltrace2 is not installed)
set -u
if ! command -v babeltrace2 >/dev/null 2>&1; then
	echo "skip: babeltrace2 not found in PATH" >&2
	exit 77
fi
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "${1:-${TRACEKIT:-}}")
gen=$(abspath "${2:-${TRACEKIT_BUILD:-.}/tests/tools/gen-ctfw}")
for exe in "$tk" "$gen"; do
	if [ ! -x "$exe" ]; then
		echo "FAIL: not an executable: $exe"
		exit 1
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
failures=0
checked=0

# show FILE: its first lines, indented and cut, for a failure report
show() {
	head -n 4 "$1" | cut -c 1-300 | sed 's/^/    /'
}

# run NAME MODE LOST DIR PRINT-OPTIONS...: compare both tools on one trace
run() {
	name=$1
	mode=$2
	lost=$3
	dir=$4
	shift 4
	checked=$((checked + 1))
	ok=1
	babeltrace2 "$@" "$dir" >"$tmp/bt.out" 2>"$tmp/bt.err"
	brc=$?
	"$tk" print "$@" "$dir" >"$tmp/tk.out" 2>"$tmp/tk.err"
	trc=$?
	if [ $brc -ne 0 ]; then
		ok=0
		echo "FAIL $name ($mode): babeltrace2 exit status $brc"
		show "$tmp/bt.err"
	fi
	if [ $trc -ne 0 ]; then
		ok=0
		echo "FAIL $name ($mode): tracekit exit status $trc"
		show "$tmp/tk.err"
	fi
	if grep -v '^WARNING: Tracer discarded ' "$tmp/bt.err" | grep -q .; then
		ok=0
		echo "FAIL $name ($mode): babeltrace2 wrote on stderr"
		grep -v '^WARNING: Tracer discarded ' "$tmp/bt.err" | head -n 4 | cut -c 1-300 |
			sed 's/^/    /'
	fi
	grep '^WARNING' "$tmp/bt.err" >"$tmp/bt.warn"
	grep '^WARNING' "$tmp/tk.err" >"$tmp/tk.warn"
	if ! cmp -s "$tmp/bt.warn" "$tmp/tk.warn"; then
		ok=0
		echo "FAIL $name ($mode): WARNING lines differ (< babeltrace2, > tracekit)"
		diff "$tmp/bt.warn" "$tmp/tk.warn" | head -n 6 | cut -c 1-300 | sed 's/^/    /'
	fi
	if [ "$lost" -eq 1 ] && [ ! -s "$tmp/bt.warn" ]; then
		ok=0
		echo "FAIL $name ($mode): trace written with losses, none reported"
	fi
	if [ ! -s "$tmp/bt.out" ]; then
		ok=0
		echo "FAIL $name ($mode): babeltrace2 printed no event"
	elif ! cmp -s "$tmp/bt.out" "$tmp/tk.out"; then
		ok=0
		echo "FAIL $name ($mode): stdout differs ($(diff "$tmp/bt.out" "$tmp/tk.out" |
			grep -c '^>') lines; < babeltrace2, > tracekit)"
		diff "$tmp/bt.out" "$tmp/tk.out" | head -n 6 | cut -c 1-300 | sed 's/^/    /'
	fi
	[ $ok -eq 1 ] || failures=$((failures + 1))
}

# index_used NAME DIR: babeltrace2 builds every stream's packet index from its .idx file
index_used() {
	checked=$((checked + 1))
	babeltrace2 --log-level=INFO -o dummy "$2" >/dev/null 2>"$tmp/log"
	want=$(find "$2" -maxdepth 1 -type f ! -name metadata -size +0 | wc -l)
	got=$(grep -c 'Building index from .idx file' "$tmp/log")
	if [ "$got" -ne "$want" ] || grep -q 'Failed to build index' "$tmp/log" ||
		awk '$5 ~ /^[WEF]$/ { bad = 1 } END { exit !bad }' "$tmp/log"; then
		failures=$((failures + 1))
		echo "FAIL $1: babeltrace2 did not use the index files ($got of $want):"
		grep -E 'idx|index| [WEF] ' "$tmp/log" | head -n 4 | cut -c 1-300 | sed 's/^/    /'
	fi
}

# check NAME GEN-CTFW-OPTIONS...: write a trace, then compare both tools in both modes
check() {
	name=$1
	shift
	dir=$tmp/$name
	lost=0
	case " $* " in
	*" --lost "*) lost=1 ;;
	esac
	if ! "$gen" "$@" "$dir" 2>"$tmp/gen.err"; then
		checked=$((checked + 1))
		failures=$((failures + 1))
		echo "FAIL $name: gen-ctfw $* failed"
		show "$tmp/gen.err"
		return
	fi
	run "$name" default "$lost" "$dir"
	run "$name" all "$lost" "$dir" --clock-seconds --names=all --fields=all
	case " $* " in
	*" --no-clock "*) ;;
	*" --no-index "*)
		if [ -e "$dir/index" ]; then
			failures=$((failures + 1))
			echo "FAIL $name: index files written with --no-index"
		fi
		;;
	*) index_used "$name" "$dir" ;;
	esac
	rm -rf "$dir"
}

# Both byte orders, compact (< 31 classes) and large headers, packet sizes from the smallest
# (most events take a packet of their own) to the default; losses, no index, big events and
# other clock frequencies in turn.
i=0
for order in le be; do
	for header in compact large; do
		for size in 128 333 4096 0; do
			opts="--byte-order $order --seed $((i + 1)) --events $((500 + i * 337 % 2500))"
			opts="$opts --streams $((2 + i % 4))"
			[ "$header" = large ] && opts="$opts --large"
			[ "$size" -ne 0 ] && opts="$opts --packet-size $size"
			[ $((i % 3)) -eq 0 ] && opts="$opts --lost"
			[ $((i % 4)) -eq 1 ] && opts="$opts --no-index"
			[ $((i % 2)) -eq 1 ] && opts="$opts --big"
			[ $((i % 5)) -eq 2 ] && opts="$opts --frequency 2400000000"
			[ $((i % 5)) -eq 4 ] && opts="$opts --frequency 1000000"
			# shellcheck disable=SC2086 # $opts is a list of words
			check "$order-$header-$size-$i" $opts
			i=$((i + 1))
		done
	done
done
# Many events in default (256 KiB) packets, and many streams in host byte order.
check many-events --events 40000 --streams 4 --seed 99 --lost
check many-streams --events 5000 --streams 16 --seed 100 --packet-size 4096 --byte-order host
# Streams without events (empty files), one with losses only after its event.
check sparse --events 3 --streams 16 --seed 5 --lost
# The kinds that nest, in both byte orders, packets from small to the default, losses over
# time ranges; then without a clock (events without time, no UUID, count-only losses).
check nested-le --nested --byte-order le --packet-size 333 --events 3000 --seed 7 --lost
check nested-be --nested --byte-order be --packet-size 4096 --events 3000 --seed 8 --lost \
	--frequency 2400000000
check nested-default --nested --events 2000 --seed 9 --streams 5
check nested-no-clock --nested --no-clock --byte-order be --packet-size 200 --events 1000 \
	--seed 10 --lost

echo "checked $checked runs, $failures failed"
[ $failures -eq 0 ]
