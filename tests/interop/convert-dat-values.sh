#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: values of a CTF trace converted to trace.dat, as trace-cmd report (Debian's
# 3.1.6, libtraceevent 1.7.1) prints them from the formats tracekit makes for CTF event
# classes (doc/format-tracedat.md section 9):
#   - floats as C's "%.13a" (doubles) and "%.6a" (floats) show them: the exact value, since
#     libtraceevent prints no float; inf, -inf, nan, -0, a subnormal;
#   - signed integers of 8 and 16 bits, and the elements of signed arrays and sequences of
#     8 to 64 bits, signed (libtraceevent reads them unsigned: 255, not -1), sequences of
#     every length the trace has, empty ones included;
# against the values tests/interop/ctf-values.py wrote, here by hand; and `tracekit print`
# of the file prints what trace-cmd report prints, byte for byte.
#
# Usage: convert-dat-values.sh TRACEKIT   (exits 77 without trace-cmd or python3)
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
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

python3 "$here/ctf-values.py" "$tmp/ctf" || {
	echo "FAIL: ctf-values.py"
	exit 1
}
"$tk" convert "$tmp/ctf" -o "$tmp/v.dat" 2>"$tmp/conv.err" || fail "tracekit convert: $(cat "$tmp/conv.err")"
trace-cmd report "$tmp/v.dat" >"$tmp/tc.txt" 2>"$tmp/tc.err" || fail "trace-cmd report exits $?"
grep -v '^cpus=' "$tmp/tc.err" >"$tmp/tc.err2"
[ -s "$tmp/tc.err2" ] && fail "trace-cmd report complains: $(head -3 "$tmp/tc.err2")"

# the fields after "one:" and its padding
sed -n 's/^.*: one: *//p' "$tmp/tc.txt" >"$tmp/got.txt"
cat >"$tmp/want.txt" <<'WANT'
f=0x1.800000p+0 d=-0x1.2000000000000p+1 s8=-128 s16=-2 a8=-1 0 127 a16=-32768 5 a32=-2147483648 7 a64=-1 9223372036854775807 ad=0x1.999999999999ap-4 -0x0.0000000000000p+0 n=3 q8=-5 6 -128 q16=-300 0 300 q32=-70000 1 2 q64=-5000000000 0 1 qf=0x1.000000p-1 -0x1.000000p+0 0x1.a00000p+1
f=inf d=nan s8=127 s16=32767 a8=1 2 3 a16=32767 -1 a32=2147483647 -7 a64=-9223372036854775808 0 ad=0x0.0000000000001p-1022 0x1.1ccf385ebc8a0p+1023 n=0 q8= q16= q32= q64= qf=
f=-0x0.000000p+0 d=0x0.0000000000000p+0 s8=-1 s16=-32768 a8=-128 -127 -2 a16=-2 -3 a32=-4 -5 a64=-6 -7 ad=-0x1.0000000000000p+0 0x1.0000000000000p+1 n=9 q8=-1 -2 -3 -4 -5 -6 -7 -8 9 q16=-1 2 -3 4 -5 6 -7 8 -9 q32=-1 2 -3 4 -5 6 -7 8 -9 q64=-1 2 -3 4 -5 6 -7 8 -9 qf=-inf 0x1.000000p+0 0x1.000000p+1 0x1.800000p+1 0x1.000000p+2 0x1.400000p+2 0x1.800000p+2 0x1.c00000p+2 -0x1.100000p+3
WANT
if ! cmp -s "$tmp/want.txt" "$tmp/got.txt"; then
	fail "trace-cmd report values differ (- want, + got):"
	diff -u "$tmp/want.txt" "$tmp/got.txt" | sed -n '3,$p' | cut -c1-300
fi
# the hex floats are the values written: Python reads them back exactly
python3 - "$tmp/got.txt" <<'PY' || fail "a printed float is not the value written"
import math, sys
want = {"f": [1.5, float("inf"), -0.0], "d": [-2.25, float("nan"), 0.0]}
for i, line in enumerate(open(sys.argv[1])):
    fields = dict(w.split("=", 1) for w in line.split() if "=" in w)
    for k, vals in want.items():
        got = float.fromhex(fields[k]) if "0x" in fields[k] else float(fields[k])
        w = vals[i]
        if not (got == w and math.copysign(1, got) == math.copysign(1, w)) and not (
                math.isnan(got) and math.isnan(w)):
            sys.exit("event %d: %s=%s, want %r" % (i, k, fields[k], w))
PY

"$tk" print "$tmp/v.dat" >"$tmp/tk.txt" 2>"$tmp/tk.err" || fail "tracekit print exits $?"
if ! cmp -s "$tmp/tc.txt" "$tmp/tk.txt"; then
	fail "tracekit print differs from trace-cmd report (- trace-cmd, + tracekit):"
	diff -u "$tmp/tc.txt" "$tmp/tk.txt" | sed -n '3,12p' | cut -c1-300
fi

if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "ok: floats and signed arrays of a CTF trace in trace-cmd report and tracekit print"
