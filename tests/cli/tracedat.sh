#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The trace.dat options of `tracekit print` and `tracekit info`, on files written by
# tests/tools/gen-dat (no root, no tracefs). The interop tests check the default, -R and -t
# output against trace-cmd; this one checks the rest of the command line:
#
#   1. --cpu=LIST prints exactly what `trace-cmd report --cpu LIST` prints (single CPUs,
#      ranges, repeats, unsorted lists, CPUs the file does not have; with -t and -R too), in
#      v6, v7 and v7 zstd twins with lost events, and in a file with an instance buffer,
#      whose events trace-cmd 3.1.6 leaves out (doc/format-tracedat.md, section 5). For that
#      file trace-cmd is asked only for the CPUs the file has: given another one, it prints
#      instance events of other CPUs (a trace-cmd bug tracekit does not copy). Every event
#      line printed must be on a listed CPU, whatever the oracle says; with
#      --style=babeltrace, every line must say that CPU.
#   2. Malformed CPU lists (which trace-cmd rejects too) are usage errors: exit status 2,
#      nothing on stdout, a message on stderr.
#   3. --events prints the event formats as `trace-cmd report --events` does for v6 files
#      (with and without an instance buffer), each with its name, ID, format and print fmt;
#      for the v7 twin, where trace-cmd 3.1.6 prints nothing, tracekit prints the same
#      formats as for the v6 twin.
#   4. --style=babeltrace prints one line per event, each starting with "[", and names the
#      events and their CPUs ("{ cpu_id = N }") in trace-cmd's order.
#   5. `tracekit info` exits 0 and shows the number of events (the lines of trace-cmd report
#      without the cpus= and EVENTS DROPPED lines), the lost events (the sum of the DROPPED
#      counts, plus "(and an unknown number more)" when a line has no count) and the CPUs.
#   6. Copies of v6, v7 and v7 zstd files cut after 100 bytes, at half and at three quarters:
#      exit status 1, one "tracekit: Cannot" line on stderr, and stdout a prefix of the full
#      output (the events before the damage).
#   7. A trace.dat file and a CTF trace (from gen-ctf, its clock made comparable: no UUID,
#      origin moved into the trace.dat time span) given together: exit 0; the trace.dat
#      events exactly as trace-cmd prints them, the CTF events exactly as tracekit prints
#      that trace alone (time deltas aside), interleaved in time order, whatever the order of
#      the arguments. With the clock's UUID kept, the clocks cannot be compared
#      (doc/format-ctf.md, section 4): exit 1 with one "tracekit: Cannot" line.
#   8. `tracekit print --help` mentions -R, -t, --cpu, --events and --style.
#
# The oracles are trace-cmd report (3.1.6) and babeltrace2. Without trace-cmd, expectations
# come from tracekit's own default output (which the interop tests check against
# trace-cmd): for --cpu, that output filtered on the [NNN] column and the CPU of the EVENTS
# DROPPED lines, except for the instance file (trace-cmd prints some instance events without
# their buffer's name, so no filter can leave them out). babeltrace2, when present, gives
# the CTF trace's first time and its event count.
#
# Usage: tracedat.sh TRACEKIT GEN_DAT      (gen-ctf is taken from GEN_DAT's directory)
set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "${1:-${TRACEKIT:-}}")
gen=$(abspath "${2:-${TRACEKIT_BUILD:-.}/tests/tools/gen-dat}")
genctf=$(dirname "$gen")/gen-ctf
for exe in "$tk" "$gen" "$genctf"; do
	if [ ! -x "$exe" ]; then
		echo "FAIL: not an executable: $exe"
		exit 1
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checked=0
if command -v trace-cmd >/dev/null 2>&1; then
	oracle=1
else
	oracle=0
	echo "note: trace-cmd not found; expectations come from tracekit's default output"
fi
if command -v babeltrace2 >/dev/null 2>&1; then
	bt2=1
else
	bt2=0
	echo "note: babeltrace2 not found; step 7 takes the CTF trace's first time from tracekit"
fi

fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

# show_diff WANT GOT: the first differing lines, indented.
show_diff() {
	diff -a "$1" "$2" | grep -a '^[<>]' | head -n 6 | cut -c 1-220 | sed 's/^/    /'
}

# same WHAT WANT GOT: GOT must equal WANT byte for byte.
same() {
	checked=$((checked + 1))
	if ! cmp -s "$2" "$3"; then
		fail "$1 ($(diff -a "$2" "$3" | grep -a -c "^[<>]") lines differ; < want, > got)"
		show_diff "$2" "$3"
		return 1
	fi
	return 0
}

# run WANT_RC OUT TRACEKIT-ARGS...: tracekit into OUT (stderr in OUT.err), exit status checked.
run() {
	want_rc=$1
	out=$2
	shift 2
	"$tk" "$@" >"$out" 2>"$out.err"
	rc=$?
	if [ $rc -ne "$want_rc" ]; then
		fail "tracekit $*: exit status $rc, want $want_rc"
		head -n 3 "$out.err" | sed 's/^/    /'
		return 1
	fi
	return 0
}

# report FILE OUT [OPTIONS...]: trace-cmd report's output, or tracekit's without trace-cmd.
report() {
	f=$1
	out=$2
	shift 2
	if [ $oracle -eq 1 ]; then
		trace-cmd report "$@" "$f" >"$out" 2>"$out.err"
		rc=$?
		if [ $rc -ne 0 ]; then
			fail "trace-cmd report $* $f: exit status $rc"
			head -n 3 "$out.err" | sed 's/^/    /'
		fi
	else
		"$tk" print "$@" "$f" >"$out" 2>/dev/null
	fi
}

# cpu_set LIST: the CPUs of LIST ("0,2-3" gives "0 2 3 ").
cpu_set() {
	echo "$1" | awk -F , '{
		for (i = 1; i <= NF; i++) {
			if (split($i, r, "-") == 2) {
				for (c = r[1] + 0; c <= r[2] + 0; c++)
					printf "%d ", c
			} else {
				printf "%d ", $i
			}
		}
	}'
}

# cpu_filter LIST <IN >OUT: the lines of a full trace-cmd style output that belong to the
# CPUs of LIST: the cpus= line, events whose [NNN] column is listed, and "CPU:N [...EVENTS
# DROPPED]" lines of a listed N (an instance name may precede either).
cpu_filter() {
	awk -v set="$(cpu_set "$1")" '
		BEGIN {
			n = split(set, c, " ")
			for (i = 1; i <= n; i++)
				want[c[i]] = 1
		}
		/^cpus=/ { print; next }
		{
			cpu = -1
			if (match($0, /^ *([^ ]+: )?CPU:[0-9]+ \[/)) {
				m = substr($0, RSTART, RLENGTH)
				sub(/.*CPU:/, "", m)
				sub(/ .*/, "", m)
				cpu = m + 0
			} else if (match($0, /-[0-9]+ +\[[0-9]+\] /)) {
				m = substr($0, RSTART, RLENGTH)
				sub(/.*\[/, "", m)
				sub(/\].*/, "", m)
				cpu = m + 0
			}
			if (cpu in want)
				print
		}'
}

# cpus_below LIST N: the CPUs of LIST below N, as a list ("" if none).
cpus_below() {
	for c in $(cpu_set "$1"); do
		[ "$c" -lt "$2" ] && printf '%s\n' "$c"
	done | sort -n -u | paste -s -d , -
}

# event_cpus OUT: the distinct CPUs of the event lines of a trace-cmd style output.
event_cpus() {
	sed -n 's/.*-[0-9]* *\[\([0-9]*\)\] .*/\1/p' "$1" | sort -u | sed 's/^0*\(.\)/\1/' |
		tr '\n' ' '
}

# gen_dat OUT OPTIONS...: a gen-dat file; the test ends if gen-dat fails.
gen_dat() {
	out=$1
	shift
	if ! "$gen" "$@" "$out" 2>gen.err; then
		echo "FAIL: gen-dat $* $out failed"
		head -n 3 gen.err | sed 's/^/    /'
		exit 1
	fi
}

# Twins (same events, other encodings) with lost events; a file with an instance buffer; a
# plain file.
gen_dat a.dat -n 3000 -c 4 -S 11 --missed
gen_dat a6.dat -n 3000 -c 4 -S 11 --missed --file-version 6
gen_dat az.dat -n 3000 -c 4 -S 11 --missed --compression zstd
gen_dat inst.dat -n 2000 -c 3 -S 4242 --missed --instance foo
gen_dat b.dat -n 500 -c 3 -S 5
gen_dat b6.dat -n 500 -c 3 -S 5 --file-version 6

# 1. --cpu=LIST
for f in a.dat a6.dat az.dat inst.dat; do
	report "$f" "$f.full"
	for list in 0 3 1,3 0-2 2-3,0 1-1 0,0,1 0-7 5; do
		run 0 got print --cpu="$list" "$f" || continue
		if [ $oracle -eq 1 ] && [ "$f" != inst.dat ]; then
			report "$f" want --cpu "$list"
			same "$f: print --cpu=$list" want got
		elif [ $oracle -eq 1 ]; then
			# trace-cmd 3.1.6 given a CPU the file does not have prints instance events
			# of other CPUs (--cpu 3 on this 3-CPU file: the instance's CPU 2): ask it
			# for the CPUs of the list that the file has
			have=$(cpus_below "$list" "$(sed -n 's/^cpus=//p' "$f.full")")
			if [ -n "$have" ]; then
				report "$f" want --cpu "$have"
			else
				grep '^cpus=' "$f.full" >want
			fi
			same "$f: print --cpu=$list (trace-cmd: --cpu ${have:-(none)})" want got
		elif [ "$f" != inst.dat ]; then
			cpu_filter "$list" <"$f.full" >want
			same "$f: print --cpu=$list" want got
		fi
		# every event printed is on a listed CPU
		extra=
		for c in $(event_cpus got); do
			case " $(cpu_set "$list")" in
			*" $c "*) ;;
			*) extra="$extra $c" ;;
			esac
		done
		if [ -n "$extra" ]; then
			fail "$f: print --cpu=$list printed events of CPUs$extra"
		fi
		# a two-CPU list of a four- or three-CPU file keeps some lines, not all
		if [ "$list" = 1,3 ]; then
			n=$(wc -l <got)
			if [ "$n" -lt 10 ] || [ "$n" -ge "$(wc -l <"$f.full")" ]; then
				fail "$f: print --cpu=$list printed $n lines of $(wc -l <"$f.full")"
			fi
		fi
	done
done
for opt in -t -R; do
	if [ $oracle -eq 1 ]; then
		report a.dat want --cpu 2,0 "$opt"
	else
		report a.dat want.full "$opt"
		cpu_filter 2,0 <want.full >want
	fi
	run 0 got print "$opt" --cpu=2,0 a.dat && same "a.dat: print $opt --cpu=2,0" want got
done
# a single-CPU listing in babeltrace style: that CPU only
if run 0 got print --style=babeltrace --cpu=2 a.dat; then
	if [ ! -s got ] || grep -v -q '{ cpu_id = 2 }' got; then
		fail "a.dat: print --style=babeltrace --cpu=2 printed other CPUs or nothing"
	fi
fi

# 2. bad CPU lists
for list in a '' 1- -1 3-1 1,,2 ,1 0x1 1a 1-2-3 cpu1; do
	if [ $oracle -eq 1 ] && trace-cmd report --cpu "$list" a.dat >/dev/null 2>&1; then
		fail "'$list' is accepted by trace-cmd report --cpu: not a bad list"
	fi
	checked=$((checked + 1))
	if run 2 got print --cpu="$list" a.dat; then
		if [ -s got ] || [ ! -s got.err ]; then
			fail "print --cpu='$list': want nothing on stdout and a message on stderr"
		fi
	fi
done

# 3. --events
if run 0 ev6 print --events b6.dat; then
	checked=$((checked + 1))
	if ! grep -q '^name: sched_switch$' ev6 || ! grep -q '^print fmt: ' ev6; then
		fail "b6.dat: print --events shows no sched_switch format"
	fi
	# each format has its name, ID, format: and print fmt: lines
	for key in 'ID: ' 'format:$' 'print fmt: '; do
		if [ "$(grep -c "^$key" ev6)" -ne "$(grep -c '^name: ' ev6)" ]; then
			fail "b6.dat: print --events: not one '$key' line per 'name:' line"
		fi
	done
	if [ $oracle -eq 1 ]; then
		report b6.dat want --events
		same "b6.dat: print --events" want ev6
	fi
	if run 0 ev7 print --events b.dat; then
		want7=ev6
		if [ $oracle -eq 1 ]; then
			report b.dat tc7 --events
			# trace-cmd 3.1.6 prints nothing for v7; a later one may print the formats
			[ -s tc7 ] && want7=tc7
		fi
		same "b.dat (v7): print --events" "$want7" ev7
	fi
	# the instance file's formats, v6 against trace-cmd
	if [ $oracle -eq 1 ]; then
		gen_dat inst6.dat -n 2000 -c 3 -S 4242 --missed --instance foo --file-version 6
		report inst6.dat want --events
		run 0 got print --events inst6.dat && same "inst6.dat: print --events" want got
	fi
fi

# 4. --style=babeltrace: one "[" line per event, the events and CPUs of trace-cmd's lines
for f in b.dat a.dat inst.dat; do
	report "$f" want.full
	grep -a -v -e '^cpus=' -e 'EVENTS DROPPED\]$' want.full |
		sed -n 's/^.*-[0-9]* *\[0*\([0-9][0-9]*\)\] *[0-9]*\.[0-9]*: \([^:]*\):.*/\2 \1/p' \
			>want
	run 0 got print --style=babeltrace "$f" || continue
	checked=$((checked + 1))
	if grep -a -q -v '^\[' got; then
		fail "$f: --style=babeltrace printed a line not starting with '['"
		grep -a -v '^\[' got | head -n 2 | cut -c 1-200 | sed 's/^/    /'
	fi
	sed -n 's/^\[[^]]*\] ([^)]*) \([^:]*\): { cpu_id = \([0-9]*\) }, .*/\1 \2/p' got >seq
	if [ "$(wc -l <got)" -ne "$(wc -l <want)" ]; then
		fail "$f: --style=babeltrace printed $(wc -l <got) lines for $(wc -l <want) events"
	fi
	same "$f: --style=babeltrace event names and CPUs" want seq
done

# 5. tracekit info: events, lost events, CPUs
for f in b.dat a.dat inst.dat; do
	report "$f" want.full
	events=$(grep -a -c -v -e '^cpus=' -e 'EVENTS DROPPED\]$' want.full)
	lost=$(sed -n 's/.*CPU:[0-9]* \[\([0-9][0-9]*\) EVENTS DROPPED\]$/\1/p' want.full |
		awk '{ s += $1 } END { print s + 0 }')
	if grep -a -q 'CPU:[0-9]* \[EVENTS DROPPED\]$' want.full; then
		lost="$lost (and an unknown number more)"
	fi
	cpus=$(sed -n 's/^cpus=//p' want.full | head -n 1)
	run 0 got info "$f" || continue
	checked=$((checked + 1))
	if ! grep -q "^Events: *$events\$" got; then
		fail "$f: info: want 'Events: $events', got '$(grep '^Events:' got)'"
	fi
	if ! grep -q "^Lost events: *$lost\$" got; then
		fail "$f: info: want 'Lost events: $lost', got '$(grep '^Lost events:' got)'"
	fi
	if ! grep -q "^ .* cpus = $cpus\$" got; then
		fail "$f: info: want 'cpus = $cpus', got '$(grep 'cpus =' got)'"
	fi
done

# 6. truncated copies
for f in a.dat a6.dat az.dat; do
	size=$(wc -c <"$f")
	run 0 full print "$f" || continue
	for cut in 100 $((size / 2)) $((size * 3 / 4)); do
		head -c "$cut" "$f" >cut.dat
		checked=$((checked + 1))
		run 1 got print cut.dat || continue
		if [ "$(wc -l <got.err)" -ne 1 ] || ! grep -q '^tracekit: Cannot ' got.err; then
			fail "$f cut at $cut: want one 'tracekit: Cannot' line on stderr, got:"
			head -n 3 got.err | sed 's/^/    /'
		fi
		if ! head -n "$(wc -l <got)" full | cmp -s - got; then
			fail "$f cut at $cut: stdout is not a prefix of the full output"
		fi
	done
done

# 7. a trace.dat file and a CTF trace together
if "$genctf" -n 300 -s 2 -S 3 ctf0 >/dev/null 2>gen.err; then
	# CTF clock: origin 0 and no UUID, to read the first event's time in seconds
	mkdir ctf
	cp ctf0/channel* ctf/
	awk '/^clock \{/ { c = 1 }
		c && /^[ \t]*(uuid|offset_s|offset) *=/ { next }
		/^\};/ { c = 0 }
		{ print }' ctf0/metadata >ctf/metadata
	if [ "$(grep -c 'freq = 1000000000;' ctf/metadata)" -ne 1 ]; then
		fail "gen-ctf's clock is not a 1 GHz clock: step 7 needs one"
	fi
	if [ $bt2 -eq 1 ]; then
		first_ctf=$(babeltrace2 --clock-seconds ctf | head -n 1)
	else
		first_ctf=$("$tk" print --clock-seconds ctf | head -n 1)
	fi
	first_ctf=$(echo "$first_ctf" | sed -n 's/^\[\([0-9]*\)\.\([0-9]*\)\].*/\1\2/p')
	report b.dat b.t -t
	first_dat=$(sed -n 's/^.*\] *\([0-9]*\)\.\([0-9]*\): .*/\1\2/p' b.t | head -n 1)
	# move the CTF events 10 ms after the first trace.dat event
	offset=$(awk -v d="$first_dat" -v c="$first_ctf" 'BEGIN { printf "%.0f", d - c + 1e7 }')
	awk -v off="$offset" '{ print } /freq = 1000000000;/ { print "\toffset = " off ";" }' \
		ctf/metadata >metadata.new && mv metadata.new ctf/metadata
	report b.dat want.dat
	# The CTF lines are compared with tracekit's output of the CTF trace alone, which the
	# gen-ctf-babeltrace2 interop test compares with babeltrace2's: babeltrace2 2.0 itself
	# prints stale text for some empty strings (tests/interop/stale-empty.py).
	"$tk" print ctf | sed 's/^\(\[[^]]*\]\) ([^)]*)/\1/' >want.ctf
	checked=$((checked + 1))
	if [ "$(wc -l <want.ctf)" -ne 300 ]; then
		fail "the CTF trace prints $(wc -l <want.ctf) events, gen-ctf made 300"
	fi
	if [ $bt2 -eq 1 ] && [ "$(babeltrace2 ctf | wc -l)" -ne 300 ]; then
		fail "babeltrace2 prints $(babeltrace2 ctf | wc -l) events of the CTF trace, not 300"
	fi
	if run 0 both print b.dat ctf; then
		grep -a -v '^\[' both >got.dat
		same "b.dat with a CTF trace: the trace.dat lines" want.dat got.dat
		grep -a '^\[' both | sed 's/^\(\[[^]]*\]\) ([^)]*)/\1/' >got.ctf
		same "b.dat with a CTF trace: the CTF lines (time deltas aside)" want.ctf got.ctf
		run 0 both2 print ctf b.dat && same "the CTF trace with b.dat" both both2
	fi
	# in time order: times of both kinds, with nanoseconds, never decrease; the kinds
	# alternate more than once
	if run 0 both print -t --clock-seconds b.dat ctf; then
		sed -n -e 's/^\[\([0-9]*\)\.\([0-9]*\)\].*/c \1 \2/p' \
			-e 's/^.*\] *\([0-9]*\)\.\([0-9]*\): .*/d \1 \2/p' both |
			awk '
				($2 < s || ($2 == s && $3 + 0 < ns)) && NR > 1 {
					print "back in time at line " NR ": " $0; bad = 1
				}
				{ s = $2; ns = $3 + 0 }
				NR > 1 && $1 != kind { changes++ }
				{ kind = $1 }
				END {
					if (changes < 2)
						print "the kinds change " changes + 0 " times"
					exit bad || changes < 2
				}' >order.err
		checked=$((checked + 1))
		if [ -s order.err ]; then
			fail "b.dat with a CTF trace, -t --clock-seconds: not interleaved in time order"
			head -n 3 order.err | sed 's/^/    /'
		fi
	fi
	# with its UUID, the CTF clock cannot be compared with the trace.dat one
	checked=$((checked + 1))
	if run 1 got print b.dat ctf0; then
		if [ "$(wc -l <got.err)" -ne 1 ] || ! grep -q '^tracekit: Cannot ' got.err; then
			fail "b.dat with a CTF trace with a clock UUID: want one 'tracekit: Cannot' line"
			head -n 3 got.err | sed 's/^/    /'
		fi
	fi
else
	fail "gen-ctf failed"
	head -n 3 gen.err | sed 's/^/    /'
fi

# 8. help
if run 0 help print --help; then
	for opt in -R -t --cpu --events --style; do
		checked=$((checked + 1))
		if ! grep -q -E -e "(^|[ ,])$opt([ ,=]|\$)" help; then
			fail "print --help does not mention $opt"
		fi
	done
fi

echo "checked $checked cases, $failures failed"
[ $failures -eq 0 ]
