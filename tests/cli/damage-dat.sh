#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Bad input, trace.dat edition: truncated and bit-flipped copies of gen-dat files. The contract
# (STYLE.md, 2.4): exit status 1, one "tracekit: Cannot ..." line, every event before the
# damage on stdout, and never a crash, hang or sanitizer report. The ASan and UBSan build runs
# this same script, so each copy is also a memory-safety test.
#
# Traces: v6 LE; v6 BE with 4-byte longs and lost events; v6 on one CPU; v7 uncompressed; v7
# zstd; v7 zlib BE with 4-byte longs and lost events on one CPU (more than one 10-page chunk
# per CPU). Expected values come from the generator and the bytes, not from the code under
# test: the layout of each file (metadata parts or v7 sections, options, CPU table, per-CPU
# pages or chunks) is read here with od and awk, and so is every ring-buffer page: its records
# are counted from their headers (type_len 0 and 1-28 are events; padding and time records are
# not) and must add up to the events gen-dat was asked for, CPU by CPU, in the full output. A
# compressed file's pages are those of its uncompressed v7 twin (gen-dat encodes pages
# independently of the compression), which must print alike.
#
# What "before the damage" means. Events are merged by time over the CPUs, and the merge reads
# a CPU's next event only after returning its previous one; so when CPU c can give only its
# first N_c events, the output is the full output up to and including the N_c-th event of c
# (up to the "cpus=N" line when N_c is 0), taking the earliest such point over the damaged
# CPUs. Call it E_c(k) when N_c counts the events of the first k pages of c. Output is
# compared line for line with the full output (lost-event lines belong to the event after).
#
#   a. Files cut short, at and around every region boundary, inside every metadata part,
#      option list and CPU table, at and inside every page and chunk, and at pseudo-random
#      points. v6 keeps the CPU table before the data: cut before the end of the table,
#      exit 1 and no output; after it, every CPU has its whole pages before the cut and no
#      more (a page cut anywhere is lost whole), and the output is exactly the earliest
#      E_c(k) over the CPUs cut short (the "cpus=N" line alone when one of them has no whole
#      page), exit 1; a file cut at its end prints everything. v7 keeps the buffer options
#      after the data: a cut before the end of the last options section loses them, exit 1
#      and no output; a cut in the string table after it loses only section descriptions:
#      exit 0 and the full output. `tracekit info` on every third cut: the same exit status,
#      and its event count is that of the events print shows ("(before the error below)").
#   b. One bit flipped (targeted at header fields, the first bytes and middle of every
#      region, v7 section headers, the id, size and data of every option, the offsets and
#      sizes of the CPU tables and BUFFER options, page headers, commit words, record headers
#      and payloads, chunk counts, chunk headers and compressed data; and pseudo-random): exit 0,
#      or 1 with one line; stdout in whole lines. A flip in page k of CPU c, or in chunk j
#      (pages 10j on) of compressed data: stdout starts with E_c(k) (E_c(10j)). In zlib data,
#      whose Adler-32 check catches a flip: exit 1 and exactly E_c(10j), or exit 0 and the
#      full output (a flip in bits the decoder ignores). A flip in bytes no reader uses (the
#      padding before the first CPU's data, page bytes after the data and the lost-events
#      count, an uncompressed string table): exit 0, the full output. `tracekit info` on
#      every fourth flip: exit 0, or 1 with one line.
#   c. Any other exit status fails: signals, a hang (`timeout`, 124), a runaway output (the
#      file-size limit), and sanitizer reports, whose exit statuses are set here to 86 (ASan,
#      LSan) and 87 (UBSan) so that they can never pass for exit status 1.
#
# Usage: damage-dat.sh TRACEKIT GEN_DAT
# shellcheck disable=SC2016 # the single-quoted strings are awk programs
set -u
LC_ALL=C
TZ=UTC
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=87"
export LC_ALL TZ ASAN_OPTIONS UBSAN_OPTIONS
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tools_from_args "${1:-}" "${2:-${TRACEKIT_BUILD:-.}/tests/tools/gen-dat}"
# shellcheck source=../damage-lib.sh
. "$(dirname "$0")/../damage-lib.sh"
# shellcheck source=../damage-dat-lib.sh
. "$(dirname "$0")/../damage-dat-lib.sh"

# first_lines N: the first N lines of the full output (none for 0) into $tmp/want.
first_lines() {
	if [ "$1" -gt 0 ]; then
		head -n "$1" "$t/full" >"$tmp/want"
	else
		: >"$tmp/want"
	fi
}

# info_events: the event count `tracekit info` printed, or nothing.
info_events() {
	sed -n 's/^Events: *\([0-9][0-9]*\).*/\1/p' "$tmp/out"
}

# Cut points from the layout, "offset", one a line (sorted and made unique by the caller):
# around the boundaries and inside every region, page and chunk, and pseudo-random ones.
CUTS_AWK='
function emit(x) {
	if (x >= 0 && x < size)
		print x
}
$1 == "file" { size = $2; ls = $5; P = $6 }
$1 == "region" {
	emit($2)
	emit($2 + 1)
	emit(int(($2 + $3) / 2))
	emit($3 - 1)
}
$1 == "page" {
	emit($4 + 1)
	emit($4 + 8)
	emit($4 + 8 + ls + 3)
	emit(int(($4 + $6) / 2))
	emit($6 - 1)
	emit($4 + P - 1)
	emit($4 + P)
}
$1 == "chunk" {
	emit($4)
	emit($4 + 4)
	emit($4 + 8)
	emit($4 + 8 + int($5 / 2))
	emit($4 + 8 + $5 - 1)
}
END {
	x = seed
	for (i = 0; i < 12; i++) {
		x = (x * 69069 + 1) % 4294967296
		emit(x % size)
	}
}'

# Bit flips from the layout, "offset bit", one a line (sorted and made unique by the caller).
FLIPS_AWK='
function emit(x) {
	if (x >= 0 && x < size)
		print x, (x * 5 + k++) % 8
}
$1 == "file" { size = $2; ls = $5; P = $6 }
$1 == "region" && $4 !~ /^data:/ {
	for (d = 0; d < 16 && $2 + d < $3; d += 5)
		emit($2 + d)
	emit(int(($2 + $3) / 2))
	emit($3 - 1)
}
$1 == "region" && $4 ~ /^section_header:/ {
	emit($2 + 2)
	emit($2 + 8)
}
$1 == "option" {
	emit($3)
	emit($3 + 2)
	emit($3 + 6)
}
$1 == "entry" {
	emit($3)
	emit($3 + 1)
	emit($4)
	emit($4 + 1)
	emit($4 + 2)
}
$1 == "cpu" {
	emit($3)
	emit($3 + 3)
}
$1 == "page" {
	emit($4)
	emit($4 + 7)
	emit($4 + 8)
	emit($4 + 7 + ls)
	emit($4 + 8 + ls)
	emit($4 + 11 + ls)
	emit($4 + 14 + ls)
	emit(int(($4 + $6) / 2))
	emit($6 - 1)
	if ($6 < $4 + P) {
		emit($6)
		emit($4 + P - 1)
	}
}
$1 == "chunk" {
	emit($4)
	emit($4 + 3)
	emit($4 + 4)
	emit($4 + 7)
	emit($4 + 8)
	emit($4 + 9)
	emit($4 + 8 + int($5 / 2))
	emit($4 + 8 + $5 - 5)
	emit($4 + 8 + $5 - 1)
}
END {
	x = seed
	for (i = 0; i < 40; i++) {
		x = (x * 69069 + 1) % 4294967296
		print x % size, int(x / 65536) % 8
	}
}'

# gen_trace: the trace, its full output, its layout and where its events are. Returns 1 when
# it cannot.
gen_trace() {
	# shellcheck disable=SC2086 # $opts is a list of options
	if ! "$gen" $opts "$t/orig.dat" >/dev/null; then
		fail setup "$name: gen-dat $opts failed"
		return 1
	fi
	run "$t/orig.dat"
	if ! expect setup "$name: the undamaged trace" 0 || [ -s "$tmp/err" ]; then
		fail setup "$name: the undamaged trace does not print cleanly"
		return 1
	fi
	cp "$tmp/out" "$t/full"
	total=$(wc -l <"$t/full")
	awk "$EVENTS_AWK" "$t/full" >"$t/events"
	nevents=$(wc -l <"$t/events")
	if [ "$nevents" -ne "$events" ] || [ "$(head -n 1 "$t/full")" != "cpus=$cpus" ]; then
		fail setup "$name: the undamaged trace does not print cpus=$cpus and $events events"
		return 1
	fi
	if ! od -An -v -tu1 "$t/orig.dat" | awk "$LAYOUT_AWK" >"$t/layout" ||
		[ "$(awk '$1 == "file" { print $2 }' "$t/layout")" -ne \
			"$(wc -c <"$t/orig.dat")" ] ||
		! grep -q '^meta_end [1-9]' "$t/layout"; then
		fail setup "$name: cannot read the layout of the file"
		return 1
	fi
	pages=$t/layout
	if [ -n "$twin" ]; then
		# shellcheck disable=SC2086 # $twin is a list of options
		"$gen" $twin "$t/twin.dat" >/dev/null
		run "$t/twin.dat"
		if ! cmp -s "$tmp/out" "$t/full"; then
			fail setup "$name: the uncompressed twin does not print alike"
			return 1
		fi
		od -An -v -tu1 "$t/twin.dat" | awk "$LAYOUT_AWK" | grep '^page' >"$t/pages"
		pages=$t/pages
		# each CPU's chunks hold its twin's pages
		if ! awk '$1 == "chunk" { u[$2] += $6; nc[$2]++ } $1 == "file" { P = $6 }
			$1 == "page" { p[$2]++ }
			END {
				for (c in u)
					if (u[c] != p[c] * P || nc[c] < 2)
						exit 1
				for (c in p)
					if (!(c in u))
						exit 1
			}' "$t/layout" "$t/pages"; then
			fail setup "$name: the chunks are not the pages of the twin, or too few"
			return 1
		fi
	fi
	# the records counted in the pages are the events printed, CPU by CPU
	if ! awk 'FILENAME == ARGV[1] && $1 == "page" { r[$2] += $5 }
		FILENAME == ARGV[2] { e[$1]++ }
		END {
			for (c in e)
				if (r[c] != e[c])
					exit 1
			for (c in r)
				if (r[c] != e[c])
					exit 1
		}' "$pages" "$t/events"; then
		fail setup "$name: the records of the pages are not the events printed"
		return 1
	fi
	grep -v '^page' "$t/layout" >"$t/layout.x"
	grep '^page' "$pages" >>"$t/layout.x"
	run "$t/orig.dat" info
	if ! expect setup "$name: tracekit info" 0 || [ "$(info_events)" != "$events" ]; then
		fail setup "$name: tracekit info does not count $events events"
		return 1
	fi
	return 0
}

# a. the file cut short
check_cuts() {
	awk -v seed="$seed" "$CUTS_AWK" "$t/layout" | sort -n -u >"$t/cuts.in"
	awk -v total="$total" "$CUT_EXPECT_AWK" "$t/layout.x" "$t/events" "$t/cuts.in" \
		>"$t/cuts"
	# enough cuts, and (v6) some after the first events of the last CPU
	if ! awk -v ver="$ver" '$2 == 1 && $3 > 1 { some = 1 }
		END { exit NR < 50 || (ver == 6 && !some) }' "$t/cuts"; then
		fail setup "$name: too few cut points, or none after the first events"
	fi
	i=0
	while read -r x want_rc want_lines; do
		head -c "$x" "$t/orig.dat" >"$t/cut.dat"
		run "$t/cut.dat"
		c="$name: cut at $x, want exit $want_rc and $want_lines lines"
		first_lines "$want_lines"
		if expect trunc "$c" "$want_rc" && ! cmp -s "$tmp/out" "$tmp/want"; then
			fail trunc "$c: stdout has $(wc -l <"$tmp/out") lines, or not those"
		fi
		i=$((i + 1))
		[ $((i % 3)) -eq 0 ] || continue
		want_events=$(grep -c -e '-[0-9][0-9]* *\[[0-9]*\] ' "$tmp/want")
		run "$t/cut.dat" info
		c="$c, tracekit info"
		expect trunc_info "$c" "$want_rc" || continue
		if [ "$want_lines" -eq 0 ]; then
			[ -s "$tmp/out" ] && fail trunc_info "$c: prints a summary of no trace"
		elif [ "$(info_events)" != "$want_events" ]; then
			fail trunc_info "$c: counts $(info_events) events, want $want_events"
		fi
	done <"$t/cuts"
	rm -f "$t/cut.dat"
}

# check_flip: the output of a flip of kind $kind, beyond its exit status and whole lines.
check_flip() {
	case $kind in
	prefix)
		if ! head -c "$(wc -c <"$tmp/want")" "$tmp/out" | cmp -s - "$tmp/want"; then
			fail flip_prefix "$c: not all the lines before the damaged page are printed"
		fi
		;;
	zlib)
		if [ "$rc" -eq 0 ] && ! cmp -s "$tmp/out" "$t/full"; then
			fail flip_zlib "$c: exit status 0 without the full output"
		elif [ "$rc" -eq 1 ] && ! cmp -s "$tmp/out" "$tmp/want"; then
			fail flip_zlib "$c: stdout is not the lines before the chunk"
		fi
		;;
	unused)
		if [ "$rc" -ne 0 ] || ! cmp -s "$tmp/out" "$t/full"; then
			fail flip_unused "$c: a byte nothing uses changes the output"
		fi
		;;
	esac
}

# b. one bit flipped
check_flips() {
	cp "$t/orig.dat" "$t/flip.dat"
	awk -v seed="$seed" "$FLIPS_AWK" "$t/layout" | sort -n -u -k 1,1 >"$t/flips.in"
	od -An -v -tu1 "$t/orig.dat" | awk '
		FNR == NR { for (i = 1; i <= NF; i++) b[n++] = $i; next }
		$1 < n {
			v = b[$1]
			print $0, v, int(v / 2 ^ $2) % 2 ? v - 2 ^ $2 : v + 2 ^ $2
		}' - "$t/flips.in" >"$t/flips.old"
	awk -v zlib="$zlib" "$FLIP_EXPECT_AWK" "$t/layout.x" "$t/events" "$t/flips.old" \
		>"$t/flips"
	for k in prefix unused; do
		grep -q " $k [0-9]*\$" "$t/flips" ||
			fail setup "$name: no flip of kind $k"
	done
	i=0
	while read -r x bit old new kind lines; do
		flip "$t/flip.dat" "$x" "$new"
		run "$t/flip.dat"
		c="$name: bit $bit of byte $x flipped ($kind, $lines lines)"
		first_lines "$lines"
		if status_ok flip "$c" && whole_lines flip "$c"; then
			check_flip
		fi
		i=$((i + 1))
		if [ $((i % 4)) -eq 0 ]; then
			run "$t/flip.dat" info
			status_ok flip_info "$c, tracekit info" && whole_lines flip_info "$c, info"
		fi
		flip "$t/flip.dat" "$x" "$old"
	done <"$t/flips"
	if ! cmp -s "$t/flip.dat" "$t/orig.dat"; then
		fail setup "$name: the flipped bits were not restored"
	fi
	rm -f "$t/flip.dat"
}

# check_trace NAME EVENTS CPUS SEED "GEN-DAT OPTIONS" ["TWIN OPTIONS"]: a file with EVENTS
# events over CPUS CPUs; a compressed one names its uncompressed twin.
check_trace() {
	name=$1 events=$2 cpus=$3 seed=$4
	opts="-n $events -c $cpus -S $seed $5"
	twin=
	[ -n "${6:-}" ] && twin="-n $events -c $cpus -S $seed $6"
	zlib=0
	case $5 in *zlib*) zlib=1 ;; esac
	ver=7
	case $5 in *file-version=6*) ver=6 ;; esac
	t=$tmp/$name
	mkdir "$t"
	gen_trace || return
	check_cuts
	check_flips
	[ -n "${KEEP:-}" ] && cp -r "$t" "$KEEP/"
	rm -r "$t"
}

check_trace v6-le 600 2 1 "--file-version=6"
check_trace v6-be-l4-missed 600 2 2 "--file-version=6 --byte-order=be --long-size=4 --missed"
check_trace v6-1cpu 300 1 3 "--file-version=6"
check_trace v7-none 600 2 4 ""
check_trace v7-zstd 2400 2 5 "--compression=zstd" " "
check_trace v7-zlib-be-l4-missed 1600 1 6 "--compression=zlib --byte-order=be --long-size=4 \
--missed" "--byte-order=be --long-size=4 --missed"

if [ "$failures" -ne 0 ]; then
	echo "$failures failures in $runs runs of tracekit"
	exit 1
fi
echo "$runs runs of tracekit on damaged trace.dat files, all as expected"
exit 0
