#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test (issue 13): EventHeader events of perf.data files survive the conversion to
# CTF as typed event classes. For the corpus perf.data and pipe.data captures: `tracekit
# convert FILE -o DIR` writes CTF that babeltrace2 reads with exit status 0, nothing on
# stderr and as many events as the reference JSON has; `tracekit print --style
# perf-decode-compact DIR` (the events written again from their typed values and the
# metadata each class keeps) must then equal the reference decoder's JSON of the original
# file, event by event (eventheader-convert.py: only "meta"'s time differs, by one constant
# offset, and sched_switch, not an EventHeader event, is compared by name). The interceptor
# file (374 events: every encoding and format) goes the same way, compared with its
# reference in the spaced layout with field tags (eventheader-json.py): every event equal,
# but for counted 8-bit text holding a NUL, which CTF text keeps up to that NUL
# (--text-to-nul: doc/format-eventheader.md says why). Event specs select typed classes by
# their names and by their tracepoint's.
#
# Usage: eventheader-convert.sh TRACEKIT [CORPUS_DIR]
#        (exits 77 when the corpus, babeltrace2 or python3 is missing)
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(dirname "$0")
tk=$(abspath "$1")
eventheader_corpus "${2:-}"
need_commands python3 babeltrace2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

for f in perf.data pipe.data; do
	ctf=$tmp/$f.ctf
	if ! "$tk" convert "$dir/$f" -o "$ctf" 2>"$tmp/err"; then
		echo "FAIL $f: tracekit convert failed: $(head -c 600 "$tmp/err")"
		failures=$((failures + 1))
		continue
	fi
	want=$(grep -c '^ {' "$dir/$f.linux.json")
	babeltrace2 "$ctf" >"$tmp/bt" 2>"$tmp/bt.err"
	rc=$?
	got=$(wc -l <"$tmp/bt")
	if [ $rc -ne 0 ] || [ -s "$tmp/bt.err" ] || [ "$got" -ne "$want" ]; then
		echo "FAIL $f: babeltrace2 exit $rc, $got events (want $want): $(head -c 600 "$tmp/bt.err")"
		failures=$((failures + 1))
	fi
	if ! "$tk" print --style perf-decode-compact "$ctf" >"$tmp/json" 2>"$tmp/err"; then
		echo "FAIL $f: tracekit print --style perf-decode-compact failed: $(head -c 600 "$tmp/err")"
		failures=$((failures + 1))
	fi
	echo "$f:"
	python3 "$here/eventheader-convert.py" --plain sched "$tmp/json" "$dir/$f.linux.json" ||
		failures=$((failures + 1))
done
# event specs select typed classes by their own names and by their tracepoint's
f=perf.data
for spec in 'user_events:*' 'TestProviderC:*'; do
	got=$("$tk" print -e "$spec" "$dir/$f" | wc -l)
	case $spec in
	user_events:*) want=$(grep '^ {' "$dir/$f.linux.json" | grep -c -v '^ {"n":"sched:') ;;
	*) want=$(grep -c '^ {"n":"TestProviderC:' "$dir/$f.linux.json") ;;
	esac
	if [ "$got" -ne "$want" ] || [ "$want" -eq 0 ]; then
		echo "FAIL $f: -e '$spec' printed $got events, the reference has $want"
		failures=$((failures + 1))
	fi
done

f=EventHeaderInterceptorLE64.dat
ctf=$tmp/$f.ctf
if ! "$tk" convert "$dir/$f" -o "$ctf" 2>"$tmp/err"; then
	echo "FAIL $f: tracekit convert failed: $(head -c 600 "$tmp/err")"
	failures=$((failures + 1))
else
	babeltrace2 "$ctf" >"$tmp/bt" 2>"$tmp/bt.err"
	rc=$?
	got=$(wc -l <"$tmp/bt")
	if [ $rc -ne 0 ] || [ -s "$tmp/bt.err" ] || [ "$got" -ne 374 ]; then
		echo "FAIL $f: babeltrace2 exit $rc, $got events (want 374): $(head -c 600 "$tmp/bt.err")"
		failures=$((failures + 1))
	fi
	"$tk" print --style perf-decode "$ctf" >"$tmp/json" 2>"$tmp/err" ||
		{ echo "FAIL $f: $(head -c 600 "$tmp/err")"; failures=$((failures + 1)); }
	echo "$f:"
	python3 "$here/eventheader-json.py" --text-to-nul "$tmp/json" "$dir/$f.linux.json" ||
		failures=$((failures + 1))
fi
[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "ok"
