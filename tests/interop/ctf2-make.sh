#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: CTF 2 traces made by tests/interop/ctf2-make.py, which says what each holds.
#   1. main and packetized (CTF 2 metadata, plain and in LTTng's 2.0 packets): `tracekit print`
#      prints what babeltrace2 2.0.4 prints for the CTF 1.8 twin (same data stream), with
#      default options and with `--clock-seconds --names=all --fields=all`;
#   2. ctf2only, which CTF 1.8 cannot say: the text written below by hand (a variant selected by
#      a plain signed integer, shown as a number, an unnamed option, an array aligned more than
#      its elements);
#   3. the bad-* traces are refused: exit status 1, one "tracekit: Cannot" line naming the
#      cause;
#   4. `tracekit convert` of main to CTF writes CTF 1.8, which babeltrace2 prints as the twin,
#      but for the member whose length is in the packet context (the writer refuses it, for
#      CTF 1.8 inputs too), so ctf2only is converted instead and checked by hand as in 2.
#
# Usage: ctf2-make.sh TRACEKIT SOURCE_DIR     (exits 77 without babeltrace2 or python3)
set -u
tk=$1
src=$2
for c in babeltrace2 python3; do
	command -v $c >/dev/null 2>&1 || { echo "skip: $c not found" >&2; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
failures=0

fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}

python3 "$src/tests/interop/ctf2-make.py" "$tmp/t" || { echo "FAIL ctf2-make.py"; exit 1; }

for case in main packetized; do
	for opts in "" "--clock-seconds --names=all --fields=all"; do
		# shellcheck disable=SC2086 # opts are words
		babeltrace2 $opts "$tmp/t/$case/ctf18" >"$tmp/bt" 2>"$tmp/bt.err" ||
			{ fail "$case: babeltrace2 cannot read the CTF 1.8 twin: $(tail -n 3 "$tmp/bt.err")"; continue; }
		[ "$(wc -l <"$tmp/bt")" -eq 13 ] || fail "$case: babeltrace2 printed $(wc -l <"$tmp/bt") lines"
		# shellcheck disable=SC2086
		"$tk" print $opts "$tmp/t/$case/ctf2" >"$tmp/tk" 2>"$tmp/tk.err" ||
			fail "$case $opts: exit status $?: $(head -n 2 "$tmp/tk.err")"
		cmp -s "$tmp/bt" "$tmp/tk" || {
			fail "$case $opts: differs from babeltrace2 on the twin"
			diff "$tmp/bt" "$tmp/tk" | head -n 6
		}
	done
done

cat >"$tmp/only.want" <<'EOF'
[22:13:20.000005000] (+?.?????????) ctf2host only: { cpu_id = 0 }, { sel = -4, v = { 200 }, a = [ [0] = 1, [1] = 2 ] }
[22:13:20.000005001] (+0.000000001) ctf2host only: { cpu_id = 0 }, { sel = 15, v = { "in range" }, a = [ [0] = 1, [1] = 2 ] }
[22:13:20.000005002] (+0.000000001) ctf2host only: { cpu_id = 0 }, { sel = 0, v = { "" }, a = [ [0] = 1, [1] = 2 ] }
EOF
"$tk" print "$tmp/t/ctf2only" >"$tmp/tk" 2>"$tmp/tk.err" || fail "ctf2only: exit status $?: $(head -n 2 "$tmp/tk.err")"
cmp -s "$tmp/only.want" "$tmp/tk" || { fail "ctf2only: not the text written by hand"; diff "$tmp/only.want" "$tmp/tk"; }

# bad case, and a word its cause must hold
while read -r case word; do
	"$tk" print "$tmp/t/$case" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q "^tracekit: Cannot .*$word" "$tmp/err"; then
		fail "$case: want exit status 1 and one cause naming '$word', got $rc: $(cat "$tmp/err")"
	fi
	[ -s "$tmp/out" ] && fail "$case: printed events"
done <<'EOF'
bad-bool fixed-length-boolean
bad-varint variable-length-unsigned-integer
bad-optional "optional"
bad-utf16 UTF-8
bad-alias nosuchalias
bad-role packet-magic-number
bad-overlap share selector values
bad-extension extensions
bad-json fragment=1, offset=
EOF

# conversion to CTF: CTF 1.8, read by babeltrace2 as the twin (main), or as written (ctf2only)
"$tk" convert "$tmp/t/ctf2only" -o "$tmp/conv" 2>"$tmp/conv.err" || fail "convert ctf2only: $(cat "$tmp/conv.err")"
head -c 12 "$tmp/conv/metadata" 2>/dev/null | grep -q 'CTF 1.8' || fail "convert ctf2only: the metadata is not CTF 1.8"
babeltrace2 "$tmp/conv" >"$tmp/bt" 2>"$tmp/bt.err" || fail "babeltrace2 cannot read the converted ctf2only: $(tail -n 3 "$tmp/bt.err")"
# babeltrace2 shows the converted variant's selector as an enumeration: compare the rest
sed 's/sel = [^,]*, v = /v = /' "$tmp/only.want" >"$tmp/only.cmp"
sed 's/sel = ( [^)]* ), v = /v = /' "$tmp/bt" >"$tmp/bt.cmp"
cmp -s "$tmp/only.cmp" "$tmp/bt.cmp" || { fail "converted ctf2only differs"; diff "$tmp/only.cmp" "$tmp/bt.cmp" | head -n 6; }

echo "$failures failed"
[ $failures -eq 0 ]
