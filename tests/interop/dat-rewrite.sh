#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test of the trace.dat writer: files rewritten by tests/tools/dat-rewrite (tracekit's
# reader, then tracekit's writer) must print in `trace-cmd report` (Debian's trace-cmd 3.1.6,
# the oracle) exactly as the originals do, in the default, -R (raw fields) and -t
# (nanoseconds) modes, with exit status 0 and nothing on stderr.
#
# Sources: files from tests/tools/gen-dat in several encodings (v6 and v7, zstd and zlib, both
# byte orders, long size 4 and 8, other page sizes, lost events, instance buffers, CPUs
# without data, clock options), and every file of the shared corpus (trace-cmd 2.9 to 3.1,
# 32- and 64-bit, v7 files of `trace-cmd convert`). Each is rewritten as v6, v7 uncompressed,
# v7 zstd and v7 zlib.
#
# The originals' outputs: for gen-dat files, trace-cmd run here (a zlib original is printed
# through its uncompressed twin, which gen-dat makes with the same events); for the corpus,
# what trace-cmd printed when the corpus was made (expect-trace-cmd/). trace-cmd 3.1.6 as
# Debian builds it has no zlib: a zlib rewrite is checked with `tracekit print` (default, -R,
# -t) against those outputs instead. Every rewrite is also printed by tracekit once.
#
# Usage: dat-rewrite.sh TRACEKIT GEN_DAT DAT_REWRITE [CORPUS_DIR]
#        (exits 77 when trace-cmd is not installed; the corpus part is skipped without it)
set -u
if ! command -v trace-cmd >/dev/null 2>&1; then
	echo "skip: trace-cmd not found in PATH" >&2
	exit 77
fi
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "${1:-${TRACEKIT:-}}")
gen=$(abspath "${2:-${TRACEKIT_BUILD:-.}/tests/tools/gen-dat}")
rw=$(abspath "${3:-${TRACEKIT_BUILD:-.}/tests/tools/dat-rewrite}")
corpus=${4:-${TRACEKIT_CORPUS:-}}
for exe in "$tk" "$gen" "$rw"; do
	if [ ! -x "$exe" ]; then
		echo "FAIL: not an executable: $exe"
		exit 1
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export TZ=UTC
failures=0
tc_runs=0
tk_runs=0
rewrites=0
if trace-cmd list -c 2>/dev/null | grep -q zlib; then
	tc_zlib=1
else
	tc_zlib=0
fi

# The rewrites of every source: label and dat-rewrite options (words joined by commas).
variants="v6:--file-version,6 v7-none:--file-version,7,--compression,none
	v7-zstd:--compression,zstd v7-zlib:--compression,zlib"

fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

# show_diff WANT GOT: the first differing lines, indented, cut to a readable width.
show_diff() {
	diff "$1" "$2" | grep '^[<>]' | head -n 6 | cut -c 1-220 | sed 's/^/    /'
}

# tc_report FILE OUT [OPTIONS...]: trace-cmd report into OUT; failure if it errs or warns.
# (sh has no local variables: each helper has names of its own)
tc_report() {
	tc_f=$1
	tc_out=$2
	shift 2
	tc_runs=$((tc_runs + 1))
	trace-cmd report "$@" "$tc_f" >"$tc_out" 2>"$tc_out.err"
	tc_rc=$?
	if [ $tc_rc -ne 0 ] || [ -s "$tc_out.err" ]; then
		fail "$tc_f: trace-cmd report $* exit status $tc_rc$([ -s "$tc_out.err" ] &&
			echo ', wrote on stderr')"
		head -n 3 "$tc_out.err" | sed 's/^/    /'
		return 1
	fi
	return 0
}

# tk_print FILE OUT [OPTIONS...]: tracekit print into OUT; failure if it errs.
tk_print() {
	tk_f=$1
	tk_out=$2
	shift 2
	tk_runs=$((tk_runs + 1))
	if ! "$tk" print "$@" "$tk_f" >"$tk_out" 2>"$tk_out.err"; then
		fail "$tk_f: tracekit print $* failed"
		head -n 3 "$tk_out.err" | sed 's/^/    /'
		return 1
	fi
	return 0
}

# same WANT GOT WHAT: GOT must equal WANT byte for byte.
same() {
	if ! cmp -s "$1" "$2"; then
		fail "$3 ($(diff "$1" "$2" | grep -c '^>') lines differ; < original, > rewrite)"
		show_diff "$1" "$2"
	fi
}

# rewrite_all NAME SRC WANT WANT_RAW WANT_NS: rewrite SRC in every variant and compare each
# rewrite's output with the original's (files WANT, WANT_RAW, WANT_NS).
rewrite_all() {
	name=$1
	src=$2
	want=$3
	want_raw=$4
	want_ns=$5
	for v in $variants; do
		label=${v%%:*}
		opts=$(echo "${v#*:}" | tr , ' ')
		out=$name.$label.dat
		rewrites=$((rewrites + 1))
		# shellcheck disable=SC2086 # $opts is a list of words
		if ! "$rw" "$src" "$out" $opts 2>rw.err; then
			fail "$name: dat-rewrite $opts failed"
			head -n 4 rw.err | sed 's/^/    /'
			continue
		fi
		if [ "$label" = v7-zlib ] && [ $tc_zlib -eq 0 ]; then
			# no oracle reads this file: tracekit must print what trace-cmd printed
			tk_print "$out" got.txt &&
				same "$want" got.txt "$name $label: tracekit print"
			tk_print "$out" got.txt -R &&
				same "$want_raw" got.txt "$name $label: tracekit print -R"
			tk_print "$out" got.txt -t &&
				same "$want_ns" got.txt "$name $label: tracekit print -t"
			rm -f "$out"
			continue
		fi
		tc_report "$out" got.txt && same "$want" got.txt "$name $label: trace-cmd report"
		tc_report "$out" got.txt -R &&
			same "$want_raw" got.txt "$name $label: trace-cmd report -R"
		tc_report "$out" got.txt -t &&
			same "$want_ns" got.txt "$name $label: trace-cmd report -t"
		tk_print "$out" got.txt && same "$want" got.txt "$name $label: tracekit print"
		rm -f "$out"
	done
}

# gen_source NAME CONTENT ENCODING: a gen-dat file (options as words joined by commas), its
# trace-cmd outputs, and its rewrites. A zlib original is printed through its uncompressed
# twin (same events and byte order).
gen_source() {
	name=$1
	content=$(echo "$2" | tr , ' ')
	enc=$(echo "$3" | tr , ' ')
	src=$name.dat
	# shellcheck disable=SC2086 # lists of words
	if ! "$gen" $content $enc "$src" 2>gen.err; then
		fail "$name: gen-dat $content $enc failed"
		head -n 3 gen.err | sed 's/^/    /'
		return
	fi
	oracle=$src
	case " $enc " in
	*" zlib "*)
		if [ $tc_zlib -eq 0 ]; then
			oracle=$name.twin.dat
			twin=$(echo " $enc " | sed 's/ zlib / none /')
			# shellcheck disable=SC2086 # lists of words
			"$gen" $content $twin "$oracle" ||
				{ fail "$name: gen-dat twin failed" && return; }
		fi
		;;
	esac
	tc_report "$oracle" "$name.txt" && tc_report "$oracle" "$name.raw.txt" -R &&
		tc_report "$oracle" "$name.ns.txt" -t || return
	if [ "$(wc -l <"$name.txt")" -lt 2 ] && [ "$content" = "${content#*-n 0}" ]; then
		fail "$name: trace-cmd printed no event"
	fi
	rewrite_all "$name" "$src" "$name.txt" "$name.raw.txt" "$name.ns.txt"
	rm -f "$src" "$name.twin.dat"
}

gen_source instances -n,3000,-c,3,-S,21,--missed,--instance,foo,--instance,bar-baz \
	--file-version,7
gen_source v6-be-long4 -n,2000,-c,2,-S,22 --file-version,6,--byte-order,be,--long-size,4
gen_source zstd-page16k-date -n,2500,-c,4,-S,23,--date --compression,zstd,--page-size,16384
gen_source zlib-be-instance -n,1500,-c,2,-S,24,--instance,inst \
	--compression,zlib,--byte-order,be
gen_source sparse -n,5,-c,6,-S,25 --file-version,6
gen_source empty -n,0,-c,2,-S,26 --compression,zstd
gen_source tsc-guest \
	-n,3000,-c,3,-S,27,--clock,x86-tsc,--tsc2nsec,--offset,-5000,--time-shift,--instance,g \
	--file-version,6
gen_source long4-page8k -n,2000,-c,2,-S,28,--missed,--instance,a,--instance,b \
	--long-size,4,--page-size,8192,--file-version,6
gen_source big-be -n,60000,-c,4,-S,29 --byte-order,be,--compression,zstd

# The shared corpus: the originals' outputs are the ones stored with it.
if [ -n "$corpus" ] && [ -d "$corpus/tracedat/expect-trace-cmd" ]; then
	for f in "$corpus"/tracedat/*.dat; do
		b=$(basename "$f" .dat)
		e=$corpus/tracedat/expect-trace-cmd/$b
		if [ ! -f "$e.report.txt" ] || [ ! -f "$e.raw.txt" ] || [ ! -f "$e.ns.txt" ]; then
			fail "$b: no stored trace-cmd output for this file"
			continue
		fi
		rewrite_all "$b" "$f" "$e.report.txt" "$e.raw.txt" "$e.ns.txt"
	done
else
	echo "note: shared corpus not found at '$corpus', its files were not rewritten" >&2
fi

echo "checked $rewrites rewrites with $tc_runs trace-cmd runs and $tk_runs tracekit runs," \
	"$failures failed"
[ $failures -eq 0 ] || exit 1
exit 0
