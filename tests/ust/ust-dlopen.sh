#!/bin/sh
# SPDX-License-Identifier: MIT
#
# TRACEKIT_UST_DIR starts a session at load and exit() ends it; a provider in a C++ module
# loaded with dlopen() and unloaded with dlclose() writes events the trace declares; a
# forked child writes its events into streams of its own (its vpid in their packets), which
# babeltrace2 merges in time order with the parent's; a child that execs the program again
# writes a trace of its own beside the parent's (DIR/PROCNAME-PID-DATE each), which readers
# merge on the shared clock (its UUID is the boot ID). babeltrace2 reads the trace without
# a word, `tracekit print` prints the same bytes, and the values are those the program and
# the module say they wrote. Skips without babeltrace2.
# Usage: ust-dlopen.sh UST-DLOPEN MODULE TRACEKIT
set -u
prog=$1
module=$2
tracekit=$3
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_commands babeltrace2 # the oracle
scratch
TRACEKIT_UST_DIR=$tmp/trace "$prog" "$module" "$tmp/expected" || fail "ust-dlopen exited with $?"
babeltrace2 "$tmp/trace" >"$tmp/bt.out" 2>"$tmp/bt.err" || fail "babeltrace2 exited with $?"
[ -s "$tmp/bt.err" ] && fail "babeltrace2 wrote on stderr: $(head -c 300 "$tmp/bt.err")"
"$tracekit" print "$tmp/trace" >"$tmp/tk.out" 2>"$tmp/tk.err" || fail "tracekit exited with $?"
cmp -s "$tmp/bt.out" "$tmp/tk.out" || {
	diff "$tmp/bt.out" "$tmp/tk.out" | head -5
	fail "tracekit print differs from babeltrace2"
}
ntraces=$(ls -d "$tmp"/trace/ust-dlopen-[0-9]*-[0-9]*-[0-9]*/ | wc -l)
[ "$ntraces" -eq 2 ] || fail "$ntraces trace directories, not 2 (the parent's, the exec'd child's)"
[ "$(grep -l 'procname = "ust-dlopen"' "$tmp"/trace/*/metadata | wc -l)" -eq 2 ] ||
	fail "no procname in the metadata"
sed -n 's/^\[[^]]*\] ([^)]*) [^ ]* \([^ ]*\): { cpu_id = [0-9]*, vpid = [0-9]*, vtid = \([0-9]*\) }, \(.*\)$/\2 \1: \3/p' \
	"$tmp/bt.out" >"$tmp/got"
if ! cmp -s "$tmp/expected" "$tmp/got"; then
	diff "$tmp/expected" "$tmp/got" | head -10
	fail "values read differ from those written"
fi
child=$(sed -n 's/.* tktest:enums: { cpu_id = [0-9]*, vpid = \([0-9]*\), vtid = [0-9]*.*/\1/p' \
	"$tmp/bt.out" | sort -u | wc -l)
[ "$child" -eq 3 ] || fail "events of $child processes, not 3 (parent, fork, exec)"
echo "ok: $(wc -l <"$tmp/got") events, module events included, the children's in their streams"
