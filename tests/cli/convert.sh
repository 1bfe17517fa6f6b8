#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `tracekit convert` to trace.dat and to JSON, on files from tests/tools/gen-dat. Expected outputs come
# from the input's own printout, filtered here with awk, not from the code under test.
#   1. Re-encoding: each input (v6, v7 zstd with lost events, v7 zlib big-endian with long
#      size 4, v7 with an instance) converted to v6, v7 none, v7 zstd and v7 zlib prints
#      (`tracekit print`, default and -t) exactly as the input; and `trace-cmd report` prints
#      the converted file as tracekit does, when trace-cmd is installed and reads it.
#   2. Event selection: -e sched, -e 'irq:*entry', -e sys_enter (an event name) and two
#      together keep exactly the input's lines of those events (systems taken from
#      `tracekit print --events`), in order.
#   3. Time window: --begin and --end, in nanoseconds (the ns unit) and in seconds with
#      decimals, keep exactly the events whose -t time is inside the window (both ends included).
#   4. Lost events: with a selection, every EVENTS DROPPED line of the input still shows
#      (moved to the next kept event of its CPU): the dropped counts add up the same, by CPU
#      in trace.dat and JSON lines, in all in CTF (where an unknown count is 1).
#   5. JSON lines (*.jsonl) and Chrome JSON (*.json): without a selection the file is byte
#      for byte what `tracekit print --style json|chrome` prints (those styles have their
#      own tests, tests/cli/json.sh); with -e sched the JSON lines are exactly print's sched
#      events, in order.
#   6. A damaged input (a cut file), to each format: exit 1, one line naming the CPU data
#      that could not be read, and nothing left at the output path.
#   7. Usage errors (exit 2): an unknown --to, no -o, --end before --begin, -o - for a file
#      format.
#   8. A full disk (as root, on a 64 KiB tmpfs): to CTF and to trace.dat, exit 1 with the
#      cause ("No space left on device") on one line, nothing left behind.
#   9. The user's files: converting onto the input (or a hard link to it) is refused and the
#      input is unchanged; a failed conversion leaves an existing output as it was and no
#      temporary file; -o /dev/null writes to the device.
#  10. Output names: an unknown extension is refused, *.ctf, no extension and an existing
#      directory make CTF, -o - needs --to json or chrome and writes to standard output.
#
# Usage: convert.sh TRACEKIT GEN_DAT
set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
gen=$(abspath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0
fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}
tc=0
command -v trace-cmd >/dev/null 2>&1 && tc=1

# same WHAT WANT GOT
same() {
	checks=$((checks + 1))
	if ! cmp -s "$2" "$3"; then
		fail "$1: $(diff "$2" "$3" | grep -c '^[<>]') lines differ"
		diff "$2" "$3" | head -n 4 | cut -c 1-160 | sed 's/^/    /'
	fi
}

# same_events WHAT WANT GOT: as same, without the task names, which trace-cmd learns from
# the sched events it prints (a selection without them prints <...> for tasks it names), and
# with runs of spaces as one (the function plugin indents by the call depth it saw so far).
same_events() {
	sed 's/^ *.*-\([0-9][0-9]*\) *\[/\1 [/' "$2" | tr -s ' ' >"$2.n"
	sed 's/^ *.*-\([0-9][0-9]*\) *\[/\1 [/' "$3" | tr -s ' ' >"$3.n"
	same "$1" "$2.n" "$3.n"
}

# convert ARGS...: tracekit convert, failing the test when it fails.
convert() {
	if ! "$tk" convert -q "$@" 2>"$tmp/err"; then
		fail "convert $*: $(head -n 1 "$tmp/err")"
		return 1
	fi
}

# 1. re-encoding
for spec in "v6:--file-version=6 -n 3000 -c 2 -S 1" \
	"zstd:--compression=zstd --missed -n 4000 -c 3 -S 2" \
	"zlib:--compression=zlib --byte-order=be --long-size=4 -n 3000 -c 2 -S 3" \
	"inst:--instance=foo -n 2000 -c 2 -S 4"; do
	name=${spec%%:*}
	# shellcheck disable=SC2086 # a list of options
	"$gen" ${spec#*:} "$tmp/$name.dat" >/dev/null || {
		fail "gen-dat ${spec#*:}"
		continue
	}
	"$tk" print "$tmp/$name.dat" >"$tmp/in.txt"
	"$tk" print -t "$tmp/$name.dat" >"$tmp/in.t.txt"
	for to in "6:none" "7:none" "7:zstd" "7:zlib"; do
		out=$tmp/$name-${to%%:*}-${to#*:}.dat
		convert "$tmp/$name.dat" -o "$out" --file-version "${to%%:*}" \
			--compression "${to#*:}" || continue
		"$tk" print "$out" >"$tmp/out.txt"
		same "$name to v$to" "$tmp/in.txt" "$tmp/out.txt"
		"$tk" print -t "$out" >"$tmp/out.txt"
		same "$name to v$to, -t" "$tmp/in.t.txt" "$tmp/out.txt"
		if [ $tc -eq 1 ] && [ "${to#*:}" != zlib ]; then
			trace-cmd report "$out" >"$tmp/tc.txt" 2>/dev/null
			"$tk" print "$out" >"$tmp/out.txt"
			same "$name to v$to, trace-cmd report" "$tmp/tc.txt" "$tmp/out.txt"
		fi
	done
done

# 2. event selection, on a file without losses
in=$tmp/v6.dat
"$tk" print "$in" >"$tmp/in.txt"
"$tk" print --events "$in" | awk '/^system: / { s = $2 } /^name: / { print $2, s }' \
	>"$tmp/systems"
# pick LINES SYSTEM-EVENT-PAIRS...: the lines of the printout whose event is among the
# "system:event" awk regular expressions given.
pick() {
	awk -v pats="$*" '
		FILENAME == ARGV[1] { sys[$1] = $2; next }
		FNR == 1 { print; next }
		{
			n = split(pats, p, " ")
			if (!match($0, /: [a-z_0-9]+: /))
				next
			ev = substr($0, RSTART + 2, RLENGTH - 4)
			for (i = 1; i <= n; i++)
				if ((sys[ev] ":" ev) ~ ("^" p[i] "$")) {
					print
					next
				}
		}' "$tmp/systems" "$tmp/in.txt"
}
# sel_case SPECS PATTERNS: convert with -e for each of SPECS, and compare with pick PATTERNS.
sel_case() {
	args=
	for s in $1; do
		args="$args -e $s"
	done
	# shellcheck disable=SC2086 # $args is a list of options
	convert "$in" -o "$tmp/sel.dat" $args || return
	# shellcheck disable=SC2086 # $2 is a list of patterns
	pick $2 >"$tmp/want.txt"
	"$tk" print "$tmp/sel.dat" >"$tmp/out.txt"
	same_events "-e $1" "$tmp/want.txt" "$tmp/out.txt"
	[ "$(wc -l <"$tmp/want.txt")" -gt 10 ] || fail "-e $1: too few events to mean much"
}
sel_case sched "sched:.*"
sel_case "irq:*entry" "irq:.*entry"
sel_case sys_enter ".*:sys_enter"
sel_case "sched timer" "sched:.* timer:.*"

# 3. time window, from the -t times of the 300th and 900th events
"$tk" print -t "$in" >"$tmp/in.t.txt"
t1=$(sed -n '301s/.*\] *\([0-9]*\)\.\([0-9]*\): .*/\1\2/p' "$tmp/in.t.txt")
t2=$(sed -n '901s/.*\] *\([0-9]*\)\.\([0-9]*\): .*/\1\2/p' "$tmp/in.t.txt")
awk -v a="$t1" -v b="$t2" 'NR == 1 { print; next }
	match($0, /\] *[0-9]+\.[0-9]+: /) {
		t = substr($0, RSTART + 1, RLENGTH - 3)
		gsub(/[ .]/, "", t)
		if (t + 0 >= a + 0 && t + 0 <= b + 0)
			print
	}' "$tmp/in.t.txt" >"$tmp/want.txt"
s1=$(echo "$t1" | sed 's/\(.........\)$/.\1/')
s2=$(echo "$t2" | sed 's/\(.........\)$/.\1/')
for w in "${t1}ns ${t2}ns" "$s1 $s2"; do
	convert "$in" -o "$tmp/win.dat" --begin "${w% *}" --end "${w#* }" || continue
	"$tk" print -t "$tmp/win.dat" >"$tmp/out.txt"
	same_events "--begin ${w% *} --end ${w#* }" "$tmp/want.txt" "$tmp/out.txt"
done
[ "$(wc -l <"$tmp/want.txt")" -gt 500 ] || fail "time window: too few events"

# 4. losses survive a selection
"$tk" print "$tmp/zstd.dat" >"$tmp/in.txt"
convert "$tmp/zstd.dat" -o "$tmp/lost.dat" -e sched -e irq
"$tk" print "$tmp/lost.dat" >"$tmp/out.txt"
for f in in out; do
	sed -n 's/^CPU:\([0-9]*\) \[\([0-9]*\) EVENTS DROPPED\]$/\1 \2/p' "$tmp/$f.txt" |
		awk '{ s[$1] += $2 } END { for (c in s) print c, s[c] }' | sort >"$tmp/$f.lost"
done
same "losses by CPU after -e sched -e irq" "$tmp/in.lost" "$tmp/out.lost"
[ -s "$tmp/in.lost" ] || fail "the lossy input has no losses"
# the same in JSON lines (an unknown count is null there, 0 in the sums)
convert "$tmp/zstd.dat" -o "$tmp/lost.jsonl" -e sched -e irq
sed -n 's/^{"lost":\([0-9]*\)[^}]*"cpu":\([0-9]*\),.*/\2 \1/p; s/^{"lost":null[^}]*"cpu":\([0-9]*\),.*/\1 0/p' \
	"$tmp/lost.jsonl" | awk '{ s[$1] += $2 } END { for (c in s) print c, s[c] }' | sort >"$tmp/json.lost"
same "losses by CPU after -e sched -e irq, to JSON lines" "$tmp/in.lost" "$tmp/json.lost"
# and in CTF, where an unknown count is written as 1: the total over all streams
rm -rf "$tmp/lost-ctf"
convert "$tmp/zstd.dat" -o "$tmp/lost-ctf" -e sched -e irq
sed -n 's/^CPU:[0-9]* \[\([0-9]*\) *EVENTS DROPPED\]$/\1/p' "$tmp/in.txt" |
	awk '{ s += ($1 == "" ? 1 : $1) } END { print s + 0 }' >"$tmp/in.total"
"$tk" print --style json "$tmp/lost-ctf" | sed -n 's/^{"lost":\([0-9]*\),.*/\1/p' |
	awk '{ s += $1 } END { print s + 0 }' >"$tmp/ctf.total"
same "lost events after -e sched -e irq, to CTF" "$tmp/in.total" "$tmp/ctf.total"

# 5. JSON lines and Chrome JSON: without a selection, the file is what print's styles print;
# with -e sched, the JSON lines are the sched events of print's JSON (losses aside), in order
for f in "$tmp/v6.dat" "$tmp/zstd.dat"; do
	for style in json:jsonl chrome:json; do
		convert "$f" -o "$tmp/out.${style#*:}" || continue
		"$tk" print --style "${style%%:*}" "$f" >"$tmp/want.txt"
		same "$(basename "$f") to ${style%%:*}" "$tmp/want.txt" "$tmp/out.${style#*:}"
	done
	convert "$f" -o "$tmp/sched.jsonl" -e sched || continue
	"$tk" print --style json "$f" | grep '"name":"sched_' >"$tmp/want.txt"
	grep -v '^{"lost"' "$tmp/sched.jsonl" >"$tmp/out.txt"
	same "$(basename "$f") to json, -e sched" "$tmp/want.txt" "$tmp/out.txt"
	[ -s "$tmp/want.txt" ] || fail "$(basename "$f"): no sched events in JSON"
done

# print events keep their text (a flexible "char buf[]" running to the end of the record):
# in JSON lines and in CTF, as trace-cmd's style prints it after the caller's name
"$tk" print "$tmp/zstd.dat" | sed -n 's/^.* print: *[^:]*: //p' >"$tmp/want.txt"
convert "$tmp/zstd.dat" -o "$tmp/print.jsonl" -e print
sed -n 's/.*"name":"print".*"buf":"\(.*\)"}}$/\1/p' "$tmp/print.jsonl" | sed 's/\\n$//' >"$tmp/out.txt"
same "print events' text, to JSON lines" "$tmp/want.txt" "$tmp/out.txt"
[ -s "$tmp/want.txt" ] || fail "no print events in $tmp/zstd.dat"
rm -rf "$tmp/print-ctf"
convert "$tmp/zstd.dat" -o "$tmp/print-ctf" -e print
"$tk" print --style json "$tmp/print-ctf" 2>/dev/null | sed -n 's/.*"name":"print".*"buf":"\(.*\)"}}$/\1/p' |
	sed 's/\\n$//' >"$tmp/out.txt"
same "print events' text, to CTF" "$tmp/want.txt" "$tmp/out.txt"

# 6. a damaged input: exit 1, one line naming what could not be read, no output left
head -c 20000 "$tmp/v6.dat" >"$tmp/cut.dat"
for o in cut-out.dat cut-ctf cut.jsonl cut.json; do
	rm -rf "${tmp:?}/$o"
	"$tk" convert -q "$tmp/cut.dat" -o "$tmp/$o" >/dev/null 2>"$tmp/err"
	rc=$?
	checks=$((checks + 1))
	if [ $rc -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
		! grep -q 'Cannot read trace.dat CPU data' "$tmp/err"; then
		fail "damaged input to $o: exit $rc, stderr: $(head -n 2 "$tmp/err")"
	fi
	[ -e "$tmp/$o" ] && fail "damaged input to $o: output left behind"
done

# 8. a full disk (root, where a small tmpfs can be mounted): CTF packets are written by a
# background thread, whose failure must still end the conversion with exit 1, one line
# naming the cause, and no output left behind
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/full" && mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
	for o in ctf out.dat; do
		"$tk" convert -q "$tmp/v6.dat" -o "$tmp/full/$o" >/dev/null 2>"$tmp/err"
		rc=$?
		checks=$((checks + 1))
		if [ $rc -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
			! grep -q 'No space left on device' "$tmp/err"; then
			fail "full disk, to $o: exit $rc, stderr: $(head -n 2 "$tmp/err")"
		fi
		[ -e "$tmp/full/$o" ] && fail "full disk, to $o: output left behind"
	done
	umount "$tmp/full"
else
	echo "note: full-disk case skipped (needs root and tmpfs)"
fi

# 9. the user's files: an input is never written over (through a hard link either), an
# existing output is replaced only once the new file is whole, -o /dev/null stays a device
cp "$tmp/v6.dat" "$tmp/self.dat"
ln "$tmp/self.dat" "$tmp/self-link.dat"
sum_before=$(cksum <"$tmp/self.dat")
for o in self.dat self-link.dat; do
	"$tk" convert -q "$tmp/self.dat" -o "$tmp/$o" --file-version 7 >/dev/null 2>"$tmp/err"
	rc=$?
	checks=$((checks + 1))
	if [ $rc -ne 1 ] || ! grep -q 'it is the input' "$tmp/err"; then
		fail "convert onto its input ($o): exit $rc, stderr: $(head -n 2 "$tmp/err")"
	fi
done
[ "$(cksum <"$tmp/self.dat")" = "$sum_before" ] || fail "convert onto its input: input changed"
echo "not a trace" >"$tmp/old.dat"
cut_at=$(($(wc -c <"$tmp/v6.dat") / 2))
head -c "$cut_at" "$tmp/v6.dat" >"$tmp/cut.dat"
"$tk" convert -q "$tmp/cut.dat" -o "$tmp/old.dat" >/dev/null 2>&1
checks=$((checks + 1))
[ "$(cat "$tmp/old.dat")" = "not a trace" ] || fail "a failed convert changed the existing output"
[ -z "$(find "$tmp" -name '.*tmp-*')" ] || fail "a failed convert left temporary files"
if [ -c /dev/null ]; then
	"$tk" convert -q "$tmp/v6.dat" -o /dev/null --to dat >/dev/null 2>"$tmp/err" ||
		fail "convert -o /dev/null: $(head -n 1 "$tmp/err")"
	[ -c /dev/null ] || fail "convert -o /dev/null replaced the device"
fi

# 7. errors
"$tk" convert "$in" -o "$tmp/x" --to nosuch >/dev/null 2>&1
[ $? -eq 2 ] || fail "--to nosuch: not a usage error"
"$tk" convert "$in" >/dev/null 2>&1
[ $? -eq 2 ] || fail "no -o: not a usage error"
"$tk" convert "$in" -o "$tmp/x.dat" --begin 5 --end 4 >/dev/null 2>&1
[ $? -eq 2 ] || fail "--end before --begin: not a usage error"
"$tk" convert "$in" -o - >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q -- '--to json' "$tmp/err" ||
	fail "-o - without --to json or chrome: not a usage error naming them"
[ ! -e ./- ] || fail "-o - made a file named '-'"

# 10. Output names: an unknown extension is refused (exit 1, one line naming it and --to,
# nothing written); *.ctf, a name without extension and an existing directory are CTF; -o -
# with --to json writes to standard output what the *.jsonl file holds.
"$tk" convert -q "$in" -o "$tmp/named.txt" >/dev/null 2>"$tmp/err"
rc=$?
checks=$((checks + 1))
[ $rc -eq 1 ] || fail "-o named.txt: exit $rc, want 1"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'unknown extension .txt.*--to' "$tmp/err" ||
	fail "-o named.txt: not one line naming the extension and --to: $(head -n 2 "$tmp/err")"
[ ! -e "$tmp/named.txt" ] || fail "-o named.txt wrote something"
mkdir "$tmp/given.d"
for o in out.ctf outctf given.d; do
	checks=$((checks + 1))
	if ! "$tk" convert -q "$in" -o "$tmp/$o" >/dev/null 2>"$tmp/err"; then
		fail "-o $o: $(head -n 1 "$tmp/err")"
	elif [ ! -f "$tmp/$o/metadata" ]; then
		fail "-o $o: no CTF directory"
	fi
done
"$tk" convert -q "$in" -o "$tmp/std.jsonl"
checks=$((checks + 1))
"$tk" convert -q "$in" -o - --to json | cmp -s - "$tmp/std.jsonl" ||
	fail "-o - --to json differs from the *.jsonl file"

echo "$checks comparisons, $failures failures"
[ $failures -eq 0 ]
