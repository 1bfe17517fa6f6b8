#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The EventHeader output of the test provider (ust-tp.h): ust-eh-tp emits each event once
# through the real macros and writes it to an interceptor file; `tracekit print --style
# perf-decode` must print exactly the values ust-eh-tp.c gives, written below by hand (with
# the mapping of doc/ust.md: TIME as a plain integer in ns, enums as their integers, NULL
# strings as "(null)", a counted string of length 2 as its first 2 bytes).
# Usage: ust-eh-tp.sh UST-EH-TP TRACEKIT
set -u
prog=$1
tracekit=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

"$prog" "$tmp/eh.dat" || fail "ust-eh-tp exited with $?"
"$tracekit" print --style perf-decode "$tmp/eh.dat" >"$tmp/out" 2>"$tmp/err" ||
	fail "tracekit exited with $? ($(head -c 300 "$tmp/err"))"
[ -s "$tmp/err" ] && fail "tracekit wrote on stderr: $(head -c 300 "$tmp/err")"

# perf-decode's layout: a BOM, then "FILE": [ with one event per line
printf '\357\273\277\n"%s": [\n' "$tmp/eh.dat" >"$tmp/expected"
cat >>"$tmp/expected" <<'EOF'
  { "n": "tktest:ints", "s8": -8, "s16": -1600, "s32": -320000, "s64": -64000000000, "u8": 200, "u16": 60000, "u32": 4000000000, "u64": 18000000000000000000, "meta": { "level": 4, "keyword": "0x1" } },
  { "n": "tktest:formats", "x32": "0xC8", "x64": "0x1122334455667788", "ptr": "0x1000", "err": "EACCES(13)", "when": 123456789, "meta": { "level": 5, "keyword": "0x2" } },
  { "n": "tktest:floats", "f": 1.5, "d": -0.125, "flag": true, "meta": { "level": 4, "keyword": "0x4" } },
  { "n": "tktest:strings", "s": "hello", "nul": "(null)", "counted": "ab", "blob": "de ad 01", "meta": { "level": 3, "keyword": "0x8" } },
  { "n": "tktest:arrays", "arr": [ -1, 0, 300 ], "seq": [ 1, 2, 4000000000 ], "none": [ ], "meta": { "level": 4, "keyword": "0x10" } },
  { "n": "tktest:enums", "color": 2, "sign": -5, "meta": { "level": 2, "keyword": "0x20" } },
  { "n": "tktest:nested", "seg": { "from": { "x": 1, "y": -2 }, "to": { "x": 3, "y": 4 }, "label": "seg" }, "n": 7, "meta": { "level": 1, "keyword": "0x40" } },
  { "n": "tktest:tick", "meta": { } } ]
EOF
if ! cmp -s "$tmp/expected" "$tmp/out"; then
	diff "$tmp/expected" "$tmp/out" | head -20
	fail "tracekit print --style perf-decode differs from the values written"
fi
echo "8 events of the test provider read back through EventHeader"
