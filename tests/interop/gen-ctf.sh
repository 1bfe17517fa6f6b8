#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: traces written by tests/tools/gen-ctf, printed by `tracekit print` and by
# babeltrace2. The shared corpus holds real traces but few layouts; the generator adds the
# combinations a reader gets wrong: each layout (lttng, compact, bitfield) in both byte
# orders, small and odd packet sizes (so events straddle packet ends and some packets grow),
# packetized metadata, with and without index files, and lost events and packets.
#
# For each trace, with default options and with `--clock-seconds --names=all --fields=all`,
# stdout must be byte-identical, both tools must exit 0, and the "WARNING: Tracer discarded
# ..." lines both print on stderr must be identical (and present when the trace has losses).
# A babeltrace2 failure means the generator wrote a bad trace, which fails the test too.
#
# One allowance: babeltrace2 2.0 may print an earlier event's text for an empty string
# (stale-empty.py explains it). Where tracekit prints "" and babeltrace2 other text, the rest
# of the line must still match, and the number of "" values tracekit prints must equal the
# number of empty text fields gen-ctf wrote.
#
# Usage: gen-ctf.sh TRACEKIT GEN_CTF     (exits 77 when babeltrace2 is not installed)
set -u
if ! command -v babeltrace2 >/dev/null 2>&1; then
	echo "skip: babeltrace2 not found in PATH" >&2
	exit 77
fi
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tools_from_args "$@"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# traces are named by relative paths: stream paths in WARNING lines must still be absolute
cd "$tmp" || exit 1
export TZ=UTC
failures=0
checked=0
stale=0

# show_diff WANT GOT: the first three differing hunks, indented; a changed line is shown
# from a little before its first differing character, so long lines stay readable.
show_diff() {
	diff "$1" "$2" | awk '
	function clip(x, s) {
		return (s > 1 ? "..." : "") substr(x, s, 240)
	}
	function flush(i, k, n) {
		n = na > nb ? na : nb
		for (i = 0; i < n; i++) {
			k = 1
			while (i < na && i < nb && k <= length(a[i]) &&
			       substr(a[i], k, 1) == substr(b[i], k, 1))
				k++
			k = k > 80 ? k - 80 : 1
			if (i < na)
				print "    < " clip(a[i], k)
			if (i < nb)
				print "    > " clip(b[i], k)
		}
		na = nb = 0
	}
	/^</ { a[na++] = substr($0, 3); next }
	/^>/ { b[nb++] = substr($0, 3); next }
	/^---/ { next }
	{
		flush()
		if (++hunks > 3)
			exit
		print "    line " $0
	}
	END { flush() }'
}

# run NAME MODE LOST DIR PRINT-OPTIONS...: one comparison of both tools on one trace.
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
		echo "FAIL $name ($mode): babeltrace2 exit status $brc (bad trace from gen-ctf?)"
		grep -v '^$' "$tmp/bt.err" | head -n 3 | cut -c 1-300 | sed 's/^/    /'
	fi
	if [ $trc -ne 0 ]; then
		ok=0
		echo "FAIL $name ($mode): tracekit exit status $trc"
		head -n 3 "$tmp/tk.err" | sed 's/^/    /'
	fi
	if ! cmp -s "$tmp/bt.out" "$tmp/tk.out"; then
		if python3 "$here/stale-empty.py" "$tmp/bt.out" "$tmp/tk.out" >"$tmp/cmp"; then
			stale=$((stale + $(cat "$tmp/cmp")))
		else
			ok=0
			echo "FAIL $name ($mode): stdout differs ($(diff "$tmp/bt.out" \
				"$tmp/tk.out" | grep -c '^>') lines; < babeltrace2, > tracekit)"
			show_diff "$tmp/bt.out" "$tmp/tk.out"
		fi
	fi
	got=$(grep -oE '(= |\{ )""' "$tmp/tk.out" | wc -l)
	if [ "$got" -ne "$empties" ]; then
		ok=0
		echo "FAIL $name ($mode): tracekit printed $got empty text values," \
			"gen-ctf wrote $empties"
	fi
	grep '^WARNING' "$tmp/bt.err" >"$tmp/bt.warn"
	grep '^WARNING' "$tmp/tk.err" >"$tmp/tk.warn"
	if ! cmp -s "$tmp/bt.warn" "$tmp/tk.warn"; then
		ok=0
		echo "FAIL $name ($mode): stderr WARNING lines differ (< babeltrace2, > tracekit)"
		show_diff "$tmp/bt.warn" "$tmp/tk.warn"
	fi
	if [ "$lost" -eq 1 ] && [ ! -s "$tmp/bt.warn" ]; then
		ok=0
		echo "FAIL $name ($mode): trace written with --lost, but no loss reported"
	fi
	[ $ok -eq 1 ] || failures=$((failures + 1))
}

# check NAME GEN-CTF-OPTIONS...: write a trace, then compare both tools in both modes.
check() {
	name=$1
	shift
	dir=./$name/
	lost=0
	case " $* " in
	*" --lost "*) lost=1 ;;
	esac
	if ! empties=$("$gen" --count-empty "$@" "$dir" 2>"$tmp/gen.err"); then
		checked=$((checked + 1))
		failures=$((failures + 1))
		echo "FAIL $name: gen-ctf $* failed"
		head -n 3 "$tmp/gen.err" | sed 's/^/    /'
		return
	fi
	run "$name" default "$lost" "$dir"
	run "$name" all "$lost" "$dir" --clock-seconds --names=all --fields=all
	rm -rf "$dir"
}

# Every layout, byte order and packet size; the three on/off options take each of their
# eight combinations three times over the 24 traces; event and stream counts vary.
i=0
for layout in lttng compact bitfield; do
	for order in le be; do
		for size in 256 333 1000 4096; do
			opts=""
			[ $((i & 1)) -ne 0 ] && opts="$opts --packetized-metadata"
			[ $((i & 2)) -ne 0 ] && opts="$opts --no-index"
			[ $((i & 4)) -ne 0 ] && opts="$opts --lost"
			events=$((300 + i * 397 % 2700))
			streams=$((1 + i % 4))
			# shellcheck disable=SC2086 # $opts is a list of words
			check "$layout-$order-$size-$i" --layout "$layout" --byte-order "$order" \
				--packet-size "$size" --events "$events" --streams "$streams" \
				--seed "$((i + 1))" $opts
			i=$((i + 1))
		done
	done
done

# snapshots SRC A B: two overlapping copies of trace SRC, as two LTTng snapshots taken a
# little apart would be: A holds the first 60% of each stream's packets, B the last 60%.
# Read together (same UUID), packets present in both must be read once.
snapshots() {
	mkdir -p "$2" "$3" || return 1
	cp "$1/metadata" "$2/" && cp "$1/metadata" "$3/" || return 1
	for idx in "$1"/index/*.idx; do
		f=$(basename "$idx" .idx)
		elen=$(od -An -j 12 -N 4 -t u4 --endian=big "$idx" | tr -d ' ')
		n=$((($(wc -c <"$idx") - 16) / elen))
		a=$((n * 6 / 10))
		b=$((n * 4 / 10))
		cut_a=$(od -An -j $((16 + a * elen)) -N 8 -t u8 --endian=big "$idx" | tr -d ' ')
		cut_b=$(od -An -j $((16 + b * elen)) -N 8 -t u8 --endian=big "$idx" | tr -d ' ')
		head -c "$cut_a" "$1/$f" >"$2/$f" || return 1
		tail -c +"$((cut_b + 1))" "$1/$f" >"$3/$f" || return 1
	done
}
# (every event of the full trace once, so as many empty values as gen-ctf wrote)
if empties=$("$gen" --count-empty --events 4000 --packet-size 1000 --streams 3 --seed 7 \
	--lost full 2>"$tmp/gen.err") && snapshots full snaps/a snaps/b; then
	run snapshots default 1 ./snaps/
	run snapshots all 1 ./snaps/ --clock-seconds --names=all --fields=all
else
	checked=$((checked + 1))
	failures=$((failures + 1))
	echo "FAIL snapshots: cannot make overlapping snapshots"
fi
rm -rf full snaps

# The defaults (the README demo), the smallest packets (most events grow their packet),
# many streams, and losses in large LTTng-like packets.
check defaults
check tiny-packets-lttng --packet-size 128 --events 800 --byte-order be --lost
check tiny-packets-bitfield --layout bitfield --packet-size 129 --events 800 --lost
check many-streams --layout compact --streams 8 --events 3000 --packetized-metadata
check big-packets-lost --packet-size 65536 --events 20000 --lost --seed 99

echo "checked $checked runs, $failures failed;" \
	"$stale lines where babeltrace2 printed stale text for an empty value"
[ $failures -eq 0 ]
