#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: `tracekit convert` to trace.dat from CTF traces, and trace.dat -> CTF ->
# trace.dat round trips; trace-cmd report (Debian's 3.1.6) is the oracle for the files made.
#
# 1. Round trips. Inputs: every trace.dat file of the shared corpus, and gen-dat files in
#    several encodings (v6; zstd with losses; zlib, big-endian, 32-bit long; two instances;
#    16 KiB pages; a raw TSC clock with DATE; mono with DATE; TSC2NSEC with guest clock
#    samples and an OFFSET; --extra-events, the records conversions have lost). Each goes to CTF, then back to trace.dat as the input was (its
#    version and compression), as v6, as v7 zstd and as v7 zlib. Each file made back:
#    a. `tracekit print --style json` prints what it prints for the input: every event and
#       loss in order, ns times, CPUs, names, common fields and values. Left aside: the
#       stream path (the file's name); a loss of unknown size ("lost":null) comes back
#       as 1, since CTF counts discarded events and the conversion to CTF writes an unknown
#       count as 1; and for inputs with TSC2NSEC or TIME_SHIFT, the raw cycles, which the
#       CTF trace keeps only converted to nanoseconds;
#    b. `tracekit print` and `trace-cmd report` print exactly what they print for the input,
#       print events included (their flexible `char buf[]` travels as a CTF string), but
#       for "[EVENTS DROPPED]" becoming "[1 EVENTS DROPPED]" (as in a) and the lines of
#       bprint events whose format declares "u32 buf; size:0" without brackets (older
#       kernels): that field reads as the number 0, as trace-cmd -R shows it, so the binary
#       arguments past the record's fixed part do not travel through CTF;
#    c. trace-cmd report exits 0 and writes nothing on stderr (zlib files: where trace-cmd
#       has zlib);
#    d. tracekit info names the version and compression asked for.
# 2. CTF to trace.dat: every CTF trace of the corpus (traces/succeed and lttng-ust-sample):
#    trace-cmd report exits 0 and quiet, without "[FAILED TO PARSE]"; tests/interop/
#    ctf-dat-check.py finds every event of the CTF trace in the file, with its time, CPU
#    and values (it says what the comparison leaves out); the file is v7 zstd, as trace-cmd
#    records by default; a v6 twin prints the same JSON.
# 1e. The CTF trace of the --extra-events file, read by babeltrace2: fib_table_lookup's
#    `__u8 src[4]` is an array of bytes, not a string (the zeros inside 127.0.0.1 are data);
#    kernel_stack's `caller[8]` is a sequence of as many frames as the record holds (0 to 12).
# 3. Selection: -e, --begin and --end on a CTF input keep the events they keep in a
#    conversion to JSON lines.
# 4. Records larger than 4 KiB: a gen-ctf trace (strings of 3000 to 9000 bytes) becomes a file
#    of 8 or 16 KiB pages (the smallest power of two that holds its largest record), v7 and
#    v6, with one warning line saying so; trace-cmd report reads it quietly, every event, and
#    ctf-dat-check.py finds every event. (The --extra-events file of part 1 has
#    print records of 4072 bytes, the most a 4 KiB page holds, which round trip in 4 KiB pages.)
# 5. Task names: trace-cmd report of a CTF trace converted to trace.dat names each task (saved
#    command lines) rather than `<...>`: from the procname context (gen-ctf --procname: thread
#    N of pid 4242 + N is "tk-thread-N"), else from the trace's procname environment entry
#    (gen-ctf's "tk-demo"; the corpus's wk-heartbeat-u, "wk-heartbeat").
# 6. Losses: gen-ctf --lost traces (lttng and compact layouts: discarded events, lost packets,
#    first packets with a non-zero counter), whole and with an event selection (most packets
#    then keep no event), to trace.dat: tests/interop/ctf-dat-losses.py finds each loss the
#    CTF trace reports on the stream's next event kept, counted when the count is known, and
#    no other; trace-cmd report prints as many EVENTS DROPPED lines.
#
# Usage: convert-dat.sh TRACEKIT GEN_DAT CORPUS_DIR [GEN_CTF]
#        (exits 77 without trace-cmd or python3)
set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ
for tool in trace-cmd python3; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "skip: $tool not found in PATH" >&2
		exit 77
	fi
done
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
gen=$(abspath "$2")
corpus=${3:-}
gen_ctf=${4:+$(abspath "$4")}
check=$(abspath "$(dirname "$0")/ctf-dat-check.py")
check_losses=$(abspath "$(dirname "$0")/ctf-dat-losses.py")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checked=0
fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}
if trace-cmd list -c 2>/dev/null | grep -q zlib; then
	tc_zlib=1
else
	tc_zlib=0
fi

# show_diff WANT GOT
show_diff() {
	diff "$1" "$2" | grep '^[<>]' | head -n 4 | cut -c 1-200 | sed 's/^/    /'
}

# json FILE OUT [nocycles]: JSON lines without the stream path (and the cycles)
json() {
	if [ "${3:-}" = nocycles ]; then
		"$tk" print --style json "$1" | sed 's/,"stream":"[^"]*"//; s/,"cycles":[0-9]*//'
	else
		"$tk" print --style json "$1" | sed 's/,"stream":"[^"]*"//'
	fi >"$2"
}

# tc_report FILE OUT: trace-cmd report of FILE, as two runs that agree print it. trace-cmd 3.1.6
# prints raw timestamps in about one run in a hundred for v6 files that have no TRACECLOCK
# option (it reads memory it never set); status and stderr of the run kept go to OUT.rc and
# OUT.err.
tc_report() {
	trace-cmd report -i "$1" >"$2" 2>"$2.err"
	echo $? >"$2.rc"
	k=0
	while [ $k -lt 4 ]; do
		trace-cmd report -i "$1" >"$2.again" 2>/dev/null
		cmp -s "$2" "$2.again" && return
		mv "$2.again" "$2"
		k=$((k + 1))
	done
}


# only_bprint_lines A B: whether every line that differs between A and B is a bprint event's
# line (see b. above)
only_bprint_lines() {
	! diff "$1" "$2" | grep '^[<>]' | grep -v ' bprint: ' | grep -q .
}

# round_trip NAME IN [nocycles]: the checks of part 1 (nocycles: IN has TIME_SHIFT samples)
round_trip() {
	name=$1
	in=$2
	cyc=${3:-}
	if "$tk" info "$in" | grep -q 'tsc2nsec_mult'; then
		cyc=nocycles
	fi
	rm -rf "$tmp/ctf"
	if ! "$tk" convert -q "$in" -o "$tmp/ctf" 2>"$tmp/err"; then
		fail "$name: to CTF: $(head -n 1 "$tmp/err")"
		return
	fi
	json "$in" "$tmp/want.json" $cyc
	sed -i 's/^{"lost":null,/{"lost":1,/' "$tmp/want.json"
	"$tk" print "$in" | sed 's/\[EVENTS DROPPED\]/[1 EVENTS DROPPED]/' >"$tmp/want.txt"
	tc_report "$in" "$tmp/in.tc"
	sed 's/\[EVENTS DROPPED\]/[1 EVENTS DROPPED]/' "$tmp/in.tc" >"$tmp/want.tc"
	in_version=$("$tk" info "$in" | sed -n 's/^.* file_version = //p')
	in_comp=$("$tk" info "$in" | sed -n 's/^.* compression = "\(.*\)"/\1/p')
	for variant in "keep::" "v6:--file-version=6:" "zstd:--file-version=7:--compression=zstd" \
		"zlib:--compression=zlib:"; do
		vname=${variant%%:*}
		rest=${variant#*:}
		o1=${rest%%:*}
		o2=${rest#*:}
		out=$tmp/back.dat
		checked=$((checked + 1))
		rm -f "$out"
		# shellcheck disable=SC2086 # options, some empty
		if ! "$tk" convert -q "$tmp/ctf" -o "$out" $o1 $o2 2>"$tmp/err"; then
			fail "$name $vname: to trace.dat: $(head -n 1 "$tmp/err")"
			continue
		fi
		case $vname in
		keep) want_v=$in_version want_c=$in_comp ;;
		v6) want_v=6 want_c=none ;;
		zstd) want_v=7 want_c=zstd ;;
		zlib) want_v=7 want_c=zlib ;;
		esac
		got_v=$("$tk" info "$out" | sed -n 's/^.* file_version = //p')
		got_c=$("$tk" info "$out" | sed -n 's/^.* compression = "\(.*\)"/\1/p')
		[ -n "$got_v" ] && [ "$got_v $got_c" = "$want_v $want_c" ] ||
			fail "$name $vname: file is v$got_v $got_c, not v$want_v $want_c"
		json "$out" "$tmp/got.json" $cyc
		if ! cmp -s "$tmp/want.json" "$tmp/got.json"; then
			fail "$name $vname: JSON lines differ" \
				"($(diff "$tmp/want.json" "$tmp/got.json" | grep -c '^>') lines)"
			show_diff "$tmp/want.json" "$tmp/got.json"
		fi
		"$tk" print "$out" >"$tmp/got.txt"
		if ! only_bprint_lines "$tmp/want.txt" "$tmp/got.txt"; then
			fail "$name $vname: tracekit print differs"
			show_diff "$tmp/want.txt" "$tmp/got.txt"
		fi
		[ $vname = zlib ] && [ $tc_zlib -eq 0 ] && continue
		tc_report "$out" "$tmp/got.tc"
		rc=$(cat "$tmp/got.tc.rc")
		if [ "$rc" -ne 0 ] || [ -s "$tmp/got.tc.err" ]; then
			fail "$name $vname: trace-cmd report exits $rc: $(head -n 1 "$tmp/got.tc.err")"
		elif ! only_bprint_lines "$tmp/want.tc" "$tmp/got.tc"; then
			fail "$name $vname: trace-cmd report differs"
			show_diff "$tmp/want.tc" "$tmp/got.tc"
		fi
	done
	echo "$name: $(grep -c '"name"' "$tmp/want.json") events round trip"
}

# extra_checks: the checks of 1e on the CTF trace round_trip left in $tmp/ctf
extra_checks() {
	checked=$((checked + 1))
	if ! command -v babeltrace2 >/dev/null 2>&1; then
		echo "note: no babeltrace2: 1e left out"
		return
	fi
	babeltrace2 "$tmp/ctf" >"$tmp/bt.txt" 2>"$tmp/bt.err" || fail "1e: babeltrace2 fails"
	grep ' fib_table_lookup: ' "$tmp/bt.txt" >"$tmp/fib.txt"
	[ -s "$tmp/fib.txt" ] || fail "1e: no fib_table_lookup event"
	grep -v 'src = \[ \[0\] = 0x[0-9A-F]*, \[1\] = 0x[0-9A-F]*, \[2\] = 0x[0-9A-F]*, \[3\] = 0x[0-9A-F]* \]' \
		"$tmp/fib.txt" | head -n 1 | grep . && fail "1e: src is not 4 bytes"
	grep -q 'dst = \[ \[0\] = 0x7F, \[1\] = 0x0, \[2\] = 0x0, \[3\] = 0x1 \]' "$tmp/fib.txt" ||
		fail "1e: no dst 127.0.0.1 as bytes"
	grep ' kernel_stack: ' "$tmp/bt.txt" >"$tmp/stack.txt"
	grep -q 'size = 0, .*caller = \[ \]' "$tmp/stack.txt" || fail "1e: no stack of 0 frames"
	grep -q 'size = 12, .*caller = \[ .*\[11\] = 0x[0-9A-F]* \]' "$tmp/stack.txt" ||
		fail "1e: no stack of 12 frames"
}

if [ -n "$corpus" ] && [ -d "$corpus/tracedat" ]; then
	for f in "$corpus"/tracedat/*.dat; do
		round_trip "corpus $(basename "$f")" "$f"
	done
else
	echo "note: no shared corpus at '$corpus': corpus files left out"
fi

for spec in "v6:--file-version=6 -n 3000 -c 2 -S 1" \
	"zstd-lost:--compression=zstd --missed -n 6000 -c 3 -S 2" \
	"zlib-be-l4:--compression=zlib --byte-order=be --long-size=4 -n 3000 -c 2 -S 3" \
	"instances:--instance=foo --instance=bar -n 3000 -c 3 -S 4" \
	"page16k:--page-size=16384 -n 2000 -c 2 -S 8" \
	"tsc-date:--clock=x86-tsc --date -n 2000 -c 2 -S 5" \
	"mono-date:--clock=mono --date -n 2000 -c 2 -S 6" \
	"tsc2nsec-guest:--clock=x86-tsc --tsc2nsec --time-shift --offset=-5000 -n 2000 -c 3 -S 7" \
	"extra:--extra-events -n 3000 -c 2 -S 9"; do
	name=${spec%%:*}
	# shellcheck disable=SC2086 # a list of options
	if ! "$gen" ${spec#*:} "$tmp/in.dat" >/dev/null; then
		fail "gen-dat ${spec#*:}"
		continue
	fi
	case $name in
	zlib-*) [ $tc_zlib -eq 1 ] || {
		# no oracle for the input: its report is tracekit's, checked by gen-dat.sh
		"$tk" convert -q "$tmp/in.dat" -o "$tmp/in-zstd.dat" --compression=zstd &&
			cp "$tmp/in-zstd.dat" "$tmp/in.dat"
	} ;;
	esac
	case $spec in
	*--time-shift*) round_trip "gen-dat $name" "$tmp/in.dat" nocycles ;;
	*) round_trip "gen-dat $name" "$tmp/in.dat" ;;
	esac
	case $spec in *--extra-events*) extra_checks ;; esac
done

# ctf_to_dat NAME DIR: the checks of part 2
ctf_to_dat() {
	name=$1
	in=$2
	out=$tmp/ctf.dat
	checked=$((checked + 1))
	rm -f "$out" "$tmp/ctf6.dat"
	if ! "$tk" convert -q "$in" -o "$out" 2>"$tmp/err"; then
		fail "$name: to trace.dat: $(head -n 1 "$tmp/err")"
		return
	fi
	trace-cmd report -i "$out" >"$tmp/got.tc" 2>"$tmp/tc.err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$tmp/tc.err" ]; then
		fail "$name: trace-cmd report exits $rc: $(head -n 1 "$tmp/tc.err")"
	elif grep -q 'FAILED TO PARSE' "$tmp/got.tc"; then
		fail "$name: trace-cmd report: $(grep -m 1 'FAILED TO PARSE' "$tmp/got.tc")"
	fi
	"$tk" print --style json "$in" >"$tmp/ctf.json" 2>/dev/null
	"$tk" print --style json "$out" >"$tmp/dat.json"
	if ! python3 "$check" "$tmp/ctf.json" "$tmp/dat.json" >"$tmp/check.txt"; then
		fail "$name: the trace.dat events are not the CTF trace's"
		head -n 4 "$tmp/check.txt"
	fi
	[ "$("$tk" info "$out" | sed -n 's/^.* file_version = //p; s/^.* compression = //p' |
		tr '\n' ' ')" = '7 "zstd" ' ] || fail "$name: not v7 zstd by default"
	"$tk" convert -q "$in" -o "$tmp/ctf6.dat" --file-version=6 2>/dev/null &&
		"$tk" print --style json "$tmp/ctf6.dat" | sed 's/,"stream":"[^"]*"//' >"$tmp/dat6.json"
	sed 's/,"stream":"[^"]*"//' "$tmp/dat.json" >"$tmp/dat7.json"
	cmp -s "$tmp/dat6.json" "$tmp/dat7.json" || fail "$name: the v6 file prints otherwise"
	echo "$name: $(grep -c '"name"' "$tmp/dat.json") events"
}

if [ -n "$corpus" ] && [ -d "$corpus/ctf/traces/succeed" ]; then
	for d in "$corpus"/ctf/traces/succeed/*/ "$corpus"/ctf/lttng-ust-sample/; do
		ctf_to_dat "ctf $(basename "$d")" "$d"
	done
	# 3. selection, on the LTTng-UST sample
	ust=$corpus/ctf/lttng-ust-sample
	first=$("$tk" print --style json "$ust" | sed -n '100s/^{"ts":\([0-9]*\),.*/\1/p')
	last=$("$tk" print --style json "$ust" | sed -n '1500s/^{"ts":\([0-9]*\),.*/\1/p')
	for sel in "-e bench:arrays" "--begin=${first}ns --end=${last}ns" "-e bench:simple --begin=${first}ns"; do
		checked=$((checked + 1))
		rm -f "$tmp/sel.dat" "$tmp/sel.jsonl"
		# shellcheck disable=SC2086 # options
		if "$tk" convert -q "$ust" -o "$tmp/sel.dat" $sel &&
			"$tk" convert -q "$ust" -o "$tmp/sel.jsonl" $sel; then
			"$tk" print --style json "$tmp/sel.dat" >"$tmp/dat.json"
			n=$(grep -c '"name"' "$tmp/dat.json")
			python3 "$check" "$tmp/sel.jsonl" "$tmp/dat.json" >"$tmp/check.txt" ||
				fail "selection '$sel': $(head -n 1 "$tmp/check.txt")"
			[ "$n" -gt 0 ] && [ "$n" -lt 2000 ] ||
				fail "selection '$sel': $n events kept"
			echo "selection '$sel': $n events"
		else
			fail "selection '$sel': convert fails"
		fi
	done
else
	echo "note: no shared corpus at '$corpus': CTF traces left out"
fi

# 4. records larger than a 4 KiB page
if [ -n "$gen_ctf" ]; then
	rm -rf "$tmp/big"
	"$gen_ctf" --events 600 --streams 2 --seed 3 "$tmp/big" >/dev/null ||
		fail "gen-ctf for part 4"
	"$tk" print --style json "$tmp/big" >"$tmp/ctf.json" 2>/dev/null
	for v in 7 6; do
		checked=$((checked + 1))
		rm -f "$tmp/big.dat"
		if ! "$tk" convert "$tmp/big" -o "$tmp/big.dat" --file-version=$v 2>"$tmp/err"; then
			fail "large records v$v: $(head -n 1 "$tmp/err")"
			continue
		fi
		# the page: a power of two from 8 KiB that holds the largest record and its 24
		# bytes of page and record headers, and half of it would not
		page=$(sed -n 's/^tracekit: warning: Writing trace.dat in larger pages: page-size=\([0-9]*\), largest-record=[0-9]*, reason=records larger than a 4096-byte page$/\1/p' "$tmp/err")
		rec=$(sed -n 's/^.*largest-record=\([0-9]*\),.*$/\1/p' "$tmp/err")
		if [ "$(grep -c . "$tmp/err")" != 1 ] || [ -z "$page" ] || [ -z "$rec" ]; then
			fail "large records v$v: not one warning naming the page size: $(head -n 2 "$tmp/err")"
		elif [ "$page" != 8192 ] && [ "$page" != 16384 ] || [ $((rec + 24)) -gt "$page" ] ||
			[ $((rec + 24)) -le $((page / 2)) ] || [ "$rec" -le 4072 ]; then
			fail "large records v$v: page-size=$page for a record of $rec bytes"
		fi
		"$tk" info "$tmp/big.dat" | grep -q " page_size = $page\$" ||
			fail "large records v$v: the file does not say $page-byte pages"
		trace-cmd report -i "$tmp/big.dat" >"$tmp/got.tc" 2>"$tmp/tc.err"
		rc=$?
		if [ $rc -ne 0 ] || [ -s "$tmp/tc.err" ] || grep -q 'FAILED TO PARSE' "$tmp/got.tc"; then
			fail "large records v$v: trace-cmd report exits $rc: $(head -n 1 "$tmp/tc.err")"
		fi
		[ "$(grep -cE '^ *[^ ]+-[0-9]+ +\[[0-9]{3}\] +[0-9]+\.[0-9]{6}: ' "$tmp/got.tc")" = \
			"$(grep -c '"name"' "$tmp/ctf.json")" ] ||
			fail "large records v$v: trace-cmd report shows another number of events"
		"$tk" print --style json "$tmp/big.dat" >"$tmp/dat.json"
		python3 "$check" "$tmp/ctf.json" "$tmp/dat.json" >"$tmp/check.txt" ||
			fail "large records v$v: $(head -n 1 "$tmp/check.txt")"
		echo "large records v$v: $(grep -c '"name"' "$tmp/dat.json") events in $page-byte pages"
	done
else
	echo "note: no gen-ctf: part 4 left out"
fi

# task_names NAME DIR RULE: part 5; RULE is "env:COMM", or "thread" (tk-thread-(pid - 4242))
task_names() {
	checked=$((checked + 1))
	rm -f "$tmp/names.dat"
	if ! "$tk" convert -q "$2" -o "$tmp/names.dat" 2>"$tmp/err"; then
		fail "$1: $(head -n 1 "$tmp/err")"
		return
	fi
	trace-cmd report -i "$tmp/names.dat" 2>/dev/null |
		sed -n 's/^ *\([^ ]*\)-\([0-9]*\) *\[[0-9]\{3\}\] *[0-9]*\.[0-9]\{6\}: .*/\1 \2/p' >"$tmp/tasks"
	n=$(grep -c . "$tmp/tasks")
	case $3 in
	env:*) bad=$(awk -v c="${3#env:}" '$1 != c' "$tmp/tasks" | head -n 1) ;;
	*) bad=$(awk '$1 != "tk-thread-" ($2 - 4242)' "$tmp/tasks" | head -n 1) ;;
	esac
	if [ "$n" -eq 0 ] || [ -n "$bad" ]; then
		fail "$1: task named otherwise: ${bad:-no events}"
	else
		echo "$1: $n events with their task's name"
	fi
}
if [ -n "$gen_ctf" ]; then
	rm -rf "$tmp/pn" "$tmp/env"
	"$gen_ctf" --procname --events 400 --streams 2 --seed 4 "$tmp/pn" >/dev/null &&
		task_names "procname context" "$tmp/pn" thread
	"$gen_ctf" --events 400 --streams 2 --seed 4 "$tmp/env" >/dev/null &&
		task_names "procname environment" "$tmp/env" env:tk-demo
fi
if [ -n "$corpus" ] && [ -d "$corpus/ctf/traces/succeed/wk-heartbeat-u" ]; then
	task_names "corpus wk-heartbeat-u" "$corpus/ctf/traces/succeed/wk-heartbeat-u" \
		env:wk-heartbeat
fi

# losses NAME DIR [EVENT]...: part 6, the events named EVENT kept (all without one)
losses() {
	name=$1
	dir=$2
	shift 2
	checked=$((checked + 1))
	sel=
	for ev in "$@"; do
		sel="$sel -e $ev"
	done
	rm -f "$tmp/loss.dat"
	# shellcheck disable=SC2086 # options
	if ! "$tk" convert -q "$dir" -o "$tmp/loss.dat" $sel 2>"$tmp/err"; then
		fail "$name: $(head -n 1 "$tmp/err")"
		return
	fi
	"$tk" print --style json "$dir" >"$tmp/loss-ctf.json"
	"$tk" print --style json "$tmp/loss.dat" >"$tmp/loss-dat.json"
	if ! python3 "$check_losses" "$tmp/loss-ctf.json" "$tmp/loss-dat.json" "$@" \
		>"$tmp/check.txt"; then
		fail "$name: $(head -n 1 "$tmp/check.txt")"
		return
	fi
	n=$(grep -c '"lost"' "$tmp/loss-dat.json")
	tc=$(trace-cmd report -i "$tmp/loss.dat" 2>/dev/null | grep -c 'EVENTS DROPPED\]$')
	if [ "$n" -eq 0 ] || [ "$tc" != "$n" ]; then
		fail "$name: $n losses, trace-cmd report prints $tc"
		return
	fi
	echo "$name: $(head -n 1 "$tmp/check.txt")"
}
if [ -n "$gen_ctf" ]; then
	for layout in lttng compact; do
		rm -rf "$tmp/lost"
		"$gen_ctf" --lost --layout $layout --events 3000 --streams 3 --packet-size 512 \
			"$tmp/lost" >/dev/null || {
			fail "losses $layout: gen-ctf fails"
			continue
		}
		case $layout in
		lttng) evs="tk_demo:tick tk_demo:message" ;;
		*) evs="kmem_kfree irq_handler_entry" ;;
		esac
		losses "losses $layout" "$tmp/lost"
		for ev in $evs; do
			losses "losses $layout -e $ev" "$tmp/lost" $ev
		done
	done
fi

echo "$checked conversions, $failures failures"
[ $failures -eq 0 ]
