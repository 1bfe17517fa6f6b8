#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: trace.dat files written by tests/tools/gen-dat, printed by `trace-cmd report`
# (the oracle: Debian's trace-cmd 3.1.6) and by `tracekit print`.
#
# gen-dat makes the same events whatever the encoding, so files are made in groups: one
# reference (v7, uncompressed, little-endian, 64-bit long, 4096-byte pages) and its twins in
# other encodings (v6, zstd, zlib, big-endian, 32-bit long, other page sizes). Checked:
#
#   1. trace-cmd reads every file (exit 0, nothing on stderr) and prints each twin exactly
#      as its reference, in the default, -t (nanoseconds) and, for twins of the same byte
#      order, -R (raw fields; raw arrays print in file byte order) modes. This validates the
#      generator: a wrong page, section or compressed chunk shows as a difference.
#      trace-cmd 3.1.6 as Debian builds it has no zlib: zlib twins are left to step 2.
#   2. tracekit prints every file, zlib included, byte for byte as trace-cmd prints it (or
#      its reference, which step 1 showed to be the same), in the default, -t and -R modes;
#      -R of a big-endian zlib twin, which has no oracle here, is left out.
#
# Content options cover the clock options too: DATE, OFFSET, TSC2NSEC and TIME_SHIFT (a
# guest's host-clock samples), and function_graph records (--funcgraph) in each kernel
# layout, whose funcgraph_entry lines follow trace-cmd's leaf rule; one such file must hold
# every case of that rule (fg_covered). gen-dat writing the same bytes twice is checked too.
#
# Usage: gen-dat.sh TRACEKIT GEN_DAT   (exits 77 when trace-cmd is not installed)
set -u
if ! command -v trace-cmd >/dev/null 2>&1; then
	echo "skip: trace-cmd not found in PATH" >&2
	exit 77
fi
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "${1:-${TRACEKIT:-}}")
gen=$(abspath "${2:-${TRACEKIT_BUILD:-.}/tests/tools/gen-dat}")
for exe in "$tk" "$gen"; do
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
checked=0
tk_runs=0
if trace-cmd list -c 2>/dev/null | grep -q zlib; then
	tc_zlib=1
else
	tc_zlib=0
fi

fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

# show_diff WANT GOT: the first differing lines, indented, cut to a readable width.
show_diff() {
	diff "$1" "$2" | grep '^[<>]' | head -n 6 | cut -c 1-220 | sed 's/^/    /'
}

# tc_report FILE OUT [OPTIONS...]: trace-cmd report into OUT; failure if it errs or warns.
tc_report() {
	f=$1
	out=$2
	shift 2
	checked=$((checked + 1))
	trace-cmd report "$@" "$f" >"$out" 2>"$out.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$f: trace-cmd report $* exit status $rc (bad file from gen-dat?)"
		head -n 3 "$out.err" | sed 's/^/    /'
		return 1
	fi
	if [ -s "$out.err" ]; then
		fail "$f: trace-cmd report $* printed on stderr"
		head -n 3 "$out.err" | sed 's/^/    /'
		return 1
	fi
	return 0
}

# tk_check FILE WANT [OPTION]: tracekit print [OPTION] FILE must print WANT byte for byte.
tk_check() {
	f=$1
	want=$2
	shift 2
	"$tk" print "$@" "$f" >tk.out 2>tk.err
	rc=$?
	tk_runs=$((tk_runs + 1))
	if [ $rc -ne 0 ]; then
		fail "$f: tracekit print $* exit status $rc"
		head -n 3 tk.err | sed 's/^/    /'
	elif ! cmp -s "$want" tk.out; then
		fail "$f: tracekit print $* and trace-cmd differ" \
			"($(diff "$want" tk.out | grep -c '^>') lines; < trace-cmd, > tracekit)"
		show_diff "$want" tk.out
	fi
}

# group NAME CONTENT-OPTIONS TWIN...: the reference file of the events CONTENT-OPTIONS make,
# then each twin, a "label:encoding options" word (options joined by commas).
group() {
	name=$1
	content=$2
	shift 2
	ref=$name-ref.dat
	# shellcheck disable=SC2086 # $content is a list of words
	if ! "$gen" $content "$ref" 2>gen.err; then
		fail "$name: gen-dat $content failed"
		head -n 3 gen.err | sed 's/^/    /'
		return
	fi
	tc_report "$ref" "$name.txt" || return
	tc_report "$ref" "$name.t.txt" -t || return
	tc_report "$ref" "$name.R.txt" -R || return
	if [ "$(wc -l <"$name.txt")" -lt 2 ] && [ "$content" = "${content#*-n 0}" ]; then
		fail "$name: trace-cmd printed no event"
	fi
	tk_check "$ref" "$name.txt"
	tk_check "$ref" "$name.t.txt" -t
	tk_check "$ref" "$name.R.txt" -R
	for twin in "$@"; do
		label=${twin%%:*}
		enc=$(echo "${twin#*:}" | tr , ' ')
		f=$name-$label.dat
		# shellcheck disable=SC2086 # $content and $enc are lists of words
		if ! "$gen" $content $enc "$f" 2>gen.err; then
			fail "$f: gen-dat $content $enc failed"
			head -n 3 gen.err | sed 's/^/    /'
			continue
		fi
		case " $enc " in
		*" zlib "*) [ $tc_zlib -eq 1 ] || {
			# no oracle for this file: its twin's output, -R only in the same byte order
			tk_check "$f" "$name.txt"
			tk_check "$f" "$name.t.txt" -t
			case " $enc " in *" be "*) ;; *) tk_check "$f" "$name.R.txt" -R ;; esac
			rm -f "$f"
			continue
		} ;;
		esac
		if tc_report "$f" twin.txt && ! cmp -s "$name.txt" twin.txt; then
			fail "$f ($enc): trace-cmd prints it unlike its reference"
			show_diff "$name.txt" twin.txt
		fi
		if tc_report "$f" twin.txt -t && ! cmp -s "$name.t.txt" twin.txt; then
			fail "$f ($enc): trace-cmd -t prints it unlike its reference"
			show_diff "$name.t.txt" twin.txt
		fi
		tk_check "$f" "$name.txt"
		tk_check "$f" "$name.t.txt" -t
		case " $enc " in
		*" be "*)
			# raw arrays print in file byte order: this file's own -R is the oracle
			tc_report "$f" twin.txt -R && tk_check "$f" twin.txt -R
			;;
		*)
			if tc_report "$f" twin.txt -R && ! cmp -s "$name.R.txt" twin.txt; then
				fail "$f ($enc): trace-cmd -R prints it unlike its reference"
				show_diff "$name.R.txt" twin.txt
			fi
			tk_check "$f" "$name.R.txt" -R
			;;
		esac
		rm -f "$f"
	done
	rm -f "$ref"
}

# Every encoding of one set of events; then the other content options, each with a few
# encodings; sizes and seeds vary so that pages, time extends and chunks fall differently.
group basic "-n 2000 -c 2 -S 1" \
	v6:--file-version,6 zstd:--compression,zstd zlib:--compression,zlib \
	be:--byte-order,be long4:--long-size,4 be-long4:--byte-order,be,--long-size,4 \
	v6-be-long4:--file-version,6,--byte-order,be,--long-size,4 \
	be-zstd:--byte-order,be,--compression,zstd \
	be-long4-zlib:--byte-order,be,--long-size,4,--compression,zlib \
	page64k-zstd:--page-size,65536,--compression,zstd page8k-v6:--page-size,8192,--file-version,6
group missed "-n 6000 -c 4 -S 7 --missed" \
	v6:--file-version,6 zstd:--compression,zstd be-long4:--byte-order,be,--long-size,4 \
	long4-page16k-zlib:--long-size,4,--page-size,16384,--compression,zlib
group cpus8 "-n 12000 -c 8 -S 12345" \
	v6-long4:--file-version,6,--long-size,4 be-zstd:--byte-order,be,--compression,zstd \
	page32k:--page-size,32768
group instances "-n 3000 -c 3 -S 4242 --instance foo --instance bar-baz" \
	v6:--file-version,6 be-zstd:--byte-order,be,--compression,zstd \
	long4-zlib:--long-size,4,--compression,zlib
group sparse "-n 3 -c 5 -S 99" v6:--file-version,6 zstd:--compression,zstd
group one "-n 1 -c 1 -S 2" v6-be:--file-version,6,--byte-order,be
group empty "-n 0 -c 2 -S 3" v6:--file-version,6 zstd:--compression,zstd
group clocks "-n 800 -c 2 -S 31337 --clock x86-tsc --date --missed" \
	v6-be-long4:--file-version,6,--byte-order,be,--long-size,4 zstd:--compression,zstd
group date "-n 800 -c 3 -S 65537 --clock mono --date" \
	v6:--file-version,6 be-zstd:--byte-order,be,--compression,zstd
group timeshift "-n 4000 -c 6 -S 11 --time-shift --instance foo" \
	v6:--file-version,6 be-long4-zstd:--byte-order,be,--long-size,4,--compression,zstd
group tsc2nsec "-n 3000 -c 3 -S 13 --clock x86-tsc --tsc2nsec --offset -123456789 --time-shift" \
	v6-be:--file-version,6,--byte-order,be zstd:--compression,zstd
group big "-n 200000 -c 4 -S 271828 --missed" \
	zstd:--compression,zstd v6-be:--file-version,6,--byte-order,be

# function_graph records (trace-cmd's leaf rule: an entry whose next record in its buffer is
# its exit on the same CPU prints as one "func();" line) in each kernel layout gen-dat knows,
# mixed with the other events, with lost events and with instance buffers
group fgraph "-n 20000 -c 4 -S 2024 --funcgraph" \
	v6:--file-version,6 be-long4:--byte-order,be,--long-size,4 zstd:--compression,zstd
group fgraph612 "-n 6000 -c 3 -S 612 --funcgraph=6.12 --missed" \
	v6-be:--file-version,6,--byte-order,be zlib:--compression,zlib
group fgraph61 "-n 5000 -c 2 -S 61 --funcgraph=6.1 --instance foo" \
	long4-zstd:--long-size,4,--compression,zstd
group fgraph414 "-n 3000 -c 1 -S 414 --funcgraph=4.14" be:--byte-order,be
group fgraph-instances "-n 6000 -c 3 -S 77 --funcgraph --instance foo --instance bar" \
	v6:--file-version,6

# fg_covered NAME: the fgraph group's file holds every case the leaf rule has, as trace-cmd
# prints them (NAME.txt) and as its raw fields show them (NAME.R.txt).
fg_covered() {
	checked=$((checked + 1))
	missing=$(awk -v txt="$1.txt" '
	function cover(what) { seen[what] = 1 }
	# default output: marks of leaves and exits, nesting, depth, a name kallsyms lacks
	FILENAME == txt && /funcgraph_(entry|exit): / {
		# the text after the event name, padded to 20 columns, and ": "
		m = substr($0, index($0, "funcgraph_") + 22)
		if (m ~ /^[ +!#$] [0-9]/ && (/funcgraph_exit: / || /\(\);$/))
			cover((/funcgraph_exit: / ? "exit" : "leaf") "-mark[" substr(m, 1, 1) "]")
		if (/\(\);$/)
			cover("leaf")
		if (/\(\) \{$/)
			cover("nested")
		if (/\|      [a-z_]/)
			cover("depth>1")
		if (/\|  +ffffffff8000/)
			cover("hex-name")
	}
	FILENAME == txt && /sched_switch: / { cover("sched") }
	# raw output: what followed each entry, on its CPU and in the whole buffer
	FILENAME != txt && /funcgraph_(entry|exit): / {
		if (!match($0, /-[0-9]+ +\[[0-9]+\]/))
			next
		split(substr($0, RSTART + 1, RLENGTH - 1), a, /[ \[\]]+/)
		pid = a[1]; cpu = a[2] + 0
		f = $0; sub(/.*func=/, "", f); sub(/ .*/, "", f)
		exit_rec = /funcgraph_exit: /
		if (exit_rec && last_entry) {
			if (ecpu == cpu && epid == pid && efunc == f)
				cover("exit-next")
			if (ecpu == cpu && epid != pid && efunc == f)
				cover("exit-next-other-pid")
			if (ecpu == cpu && epid == pid && efunc != f)
				cover("exit-next-other-func")
		}
		if (exit_rec && open[cpu] && other[cpu] && opid[cpu] == pid && ofunc[cpu] == f)
			cover("exit-after-other-cpu")
		last_entry = !exit_rec; ecpu = cpu; epid = pid; efunc = f
		for (c in open)
			if (c != cpu)
				other[c] = 1
		open[cpu] = !exit_rec; other[cpu] = 0; opid[cpu] = pid; ofunc[cpu] = f
		next
	}
	FILENAME != txt && match($0, /\[[0-9]+\]/) {
		cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0
		last_entry = 0
		for (c in open)
			if (c != cpu)
				other[c] = 1
		open[cpu] = 0
	}
	END {
		n = split("leaf nested depth>1 hex-name sched exit-next exit-next-other-pid " \
			  "exit-next-other-func exit-after-other-cpu", want, " ")
		for (i = 1; i <= n; i++)
			if (!(want[i] in seen))
				printf " %s", want[i]
		n = split("+ ! # $", marks, " ")
		marks[++n] = " "
		for (i = 1; i <= n; i++) {
			if (!(("leaf-mark[" marks[i] "]") in seen))
				printf " leaf-mark[%s]", marks[i]
			if (!(("exit-mark[" marks[i] "]") in seen))
				printf " exit-mark[%s]", marks[i]
		}
	}' "$1.txt" "$1.R.txt")
	if [ -n "$missing" ]; then
		fail "$1: gen-dat --funcgraph made no record for:$missing"
	fi
}
fg_covered fgraph

# the same options write the same bytes
checked=$((checked + 1))
"$gen" -n 3000 -c 3 -S 5 --missed --compression zstd --instance x a.dat &&
	"$gen" -n 3000 -c 3 -S 5 --missed --compression zstd --instance x b.dat
if ! cmp -s a.dat b.dat; then
	fail "gen-dat wrote different bytes for the same options"
fi

echo "checked $checked trace-cmd runs and $tk_runs tracekit runs, $failures failed"
[ $failures -eq 0 ] || exit 1
exit 0
