#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The EventHeader output of the test provider (ust-tp.h): ust-eh-tp emits each event once
# through the real macros and the runtime, which writes it to the interceptor file
# TRACEKIT_UST_INTERCEPTOR names; `tracekit print --style perf-decode` must print exactly the
# values ust-eh-tp.c gives, written below by hand (with the mapping of doc/ust.md: TIME as a
# plain integer in ns, enums as their integers, NULL strings as "(null)", a counted string of
# length 2 as its first 2 bytes). Twice: without a CTF session (bit 0 clear), then with one
# at the same time, whose trace babeltrace2 must read without a word, with the same values
# (written below by hand too), and `tracekit print` print as babeltrace2 does (that half is
# skipped without babeltrace2).
# Usage: ust-eh-tp.sh UST-EH-TP TRACEKIT
set -u
prog=$1
tracekit=$2
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
scratch

# perf-decode's layout: a BOM, then "FILE": [ with one event per line: those of
# ust-eh-tp.json-lines, written by hand (also used by the VM harness's user_events case), then
# tktest:every, with every EventHeader encoding and format, as the reference decoder shows
# them: errno "NAME(n)", time in seconds as a UTC date without Z, uuid 8-4-4-4-12 lowercase,
# IPv4 dotted, IPv6 as inet_ntop writes it, port in decimal (ust-eh-tp.c gives it in host
# order, EventHeader holds it in network order), 16 bytes as lowercase hex pairs, Latin-1
# read into UTF-8, the byte order mark of UTF-8 text dropped, UTF-16 and UTF-32 as UTF-8
sed '$s/ ]$/,/' "$TRACEKIT_SRC/tests/ust/ust-eh-tp.json-lines" >"$tmp/events"
cat >>"$tmp/events" <<'EOF'
  { "n": "tktest:every", "color": 2, "s16": -300, "x32": "0xC8", "err": "ENOENT(2)", "pid": 4242, "t": "2033-05-18T03:33:20", "flag": true, "d": -0.125, "u64": 18000000000000000000, "uuid": "01020304-0506-0708-090a-0b0c0d0e0f10", "ip4": "192.168.1.20", "ip6": "2001:db8::1", "port": 8080, "raw": "00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff", "s": "plain", "l1": "café", "bom": "bom", "xml": "<a x=\"1\"/>", "json": "{\"k\":[1,2]}", "c8": "abc", "w16": "hé", "w32": "😀x", "c16": "ab", "c32": "xyz", "blob": "de ad 01", "arr": [ -1, 0, 300 ], "seq": [ 1, 2 ], "pt": { "x": -7, "y": 9 }, "meta": { "level": 4, "keyword": "0x80" } } ]
EOF

# check_eh FILE: perf-decode of FILE must be the events above
check_eh() {
	"$tracekit" print --style perf-decode "$1" >"$tmp/out" 2>"$tmp/err" ||
		fail "tracekit exited with $? ($(head -c 300 "$tmp/err"))"
	[ -s "$tmp/err" ] && fail "tracekit wrote on stderr: $(head -c 300 "$tmp/err")"
	{
		printf '\357\273\277\n"%s": [\n' "$1"
		cat "$tmp/events"
	} >"$tmp/expected"
	if ! cmp -s "$tmp/expected" "$tmp/out"; then
		diff "$tmp/expected" "$tmp/out" | head -20
		fail "tracekit print --style perf-decode differs from the values written ($1)"
	fi
}

# A program that did not ask for EventHeader output prints nothing, whatever the kernel; one
# that asked (TRACEKIT_UST_EVENTHEADER=1) is told once that this kernel has no user_events
# (when it has them, registering is allowed or refused: not checked here)
env -u TRACEKIT_UST_INTERCEPTOR -u TRACEKIT_UST_EVENTHEADER "$prog" 2>"$tmp/prog.err" ||
	fail "ust-eh-tp (no output asked for) exited with $?"
[ -s "$tmp/prog.err" ] && fail "ust-eh-tp wrote on stderr unasked: $(head -c 300 "$tmp/prog.err")"
if [ ! -e /sys/kernel/tracing/user_events_data ] &&
	[ ! -e /sys/kernel/debug/tracing/user_events_data ]; then
	TRACEKIT_UST_EVENTHEADER=1 "$prog" 2>"$tmp/prog.err" ||
		fail "ust-eh-tp (TRACEKIT_UST_EVENTHEADER=1) exited with $?"
	n=$(grep -c '^tracekit-ust: Cannot write EventHeader events$' "$tmp/prog.err")
	[ "$n" -eq 1 ] || fail "$n messages on a kernel without user_events, not 1: $(cat "$tmp/prog.err")"
	grep -q 'no user_events' "$tmp/prog.err" || fail "the message does not say why"
	echo "no user_events here: said once, and only when asked"
fi

# EventHeader only: no session
TRACEKIT_UST_INTERCEPTOR="$tmp/eh.dat" "$prog" 2>"$tmp/prog.err" || fail "ust-eh-tp exited with $?"
[ -s "$tmp/prog.err" ] && fail "ust-eh-tp wrote on stderr: $(head -c 300 "$tmp/prog.err")"
check_eh "$tmp/eh.dat"
echo "9 events of the test provider read back through EventHeader"

# both outputs at once
TRACEKIT_UST_INTERCEPTOR="$tmp/eh2.dat" "$prog" "$tmp/trace" 2>"$tmp/prog.err" ||
	fail "ust-eh-tp (with a session) exited with $?"
[ -s "$tmp/prog.err" ] && fail "ust-eh-tp wrote on stderr: $(head -c 300 "$tmp/prog.err")"
check_eh "$tmp/eh2.dat"
echo "the same with a CTF session at the same time"
if ! command -v babeltrace2 >/dev/null 2>&1; then
	echo "skip: babeltrace2 not found (the oracle of the CTF half)" >&2
	exit 77
fi
babeltrace2 "$tmp/trace" >"$tmp/bt.out" 2>"$tmp/bt.err" || fail "babeltrace2 exited with $?"
[ -s "$tmp/bt.err" ] && fail "babeltrace2 wrote on stderr: $(head -c 300 "$tmp/bt.err")"
"$tracekit" print "$tmp/trace" >"$tmp/tk.out" 2>"$tmp/tk.err" ||
	fail "tracekit print exited with $?"
if ! python3 "$TRACEKIT_SRC/tests/interop/stale-empty.py" "$tmp/bt.out" "$tmp/tk.out" \
	>"$tmp/stale.out"; then
	cat "$tmp/stale.out"
	fail "tracekit print differs from babeltrace2"
fi
# "NAME PAYLOAD" of each event babeltrace2 shows
# C locale: the Latin-1 byte is no character in UTF-8, and "." would not match it
LC_ALL=C sed -n 's/^.* \(tktest:[a-z]*\): { [^}]* }, \(.*\)$/\1 \2/p' \
	"$tmp/bt.out" >"$tmp/bt.got"
cat >"$tmp/bt.want" <<'EOF'
tktest:ints { s8 = -8, s16 = -1600, s32 = -320000, s64 = -64000000000, u8 = 200, u16 = 60000, u32 = 4000000000, u64 = 18000000000000000000 }
tktest:formats { x32 = 0xC8, x64 = 0x1122334455667788, ptr = 0x1000, err = 13, when = 123456789 }
tktest:floats { f = 1.5, d = -0.125, flag = 1 }
tktest:strings { s = "hello", nul = "(null)", _counted_length = 2, counted = "ab", _blob_length = 3, blob = [ [0] = 0xDE, [1] = 0xAD, [2] = 0x1 ] }
tktest:arrays { arr = [ [0] = -1, [1] = 0, [2] = 300 ], _seq_length = 3, seq = [ [0] = 1, [1] = 2, [2] = 4000000000 ], _none_length = 0, none = [ ] }
tktest:enums { color = ( "warm" : container = 2 ), sign = ( "neg" : container = -5 ) }
tktest:nested { seg = { from = { x = 1, y = -2 }, to = { x = 3, y = 4 }, label = "seg" }, n = 7 }
tktest:tick { }
EOF
# the CTF forms (doc/ust.md): ip4 the integer of its network-order bytes read in the trace's
# (little-endian) order, port in host order, 16 bytes as u8[16] in hex, Latin-1 and the UTF-8
# BOM as the bytes written, UTF-16 and UTF-32 as code units (the NUL-terminated ones with
# their 0 unit)
{
	printf 'tktest:every { color = ( "warm" : container = 2 ), s16 = -300, x32 = 0xC8, err = 2, pid = 4242, t = 2000000000, flag = 1, d = -0.125, u64 = 18000000000000000000, '
	printf 'uuid = [ [0] = 0x1, [1] = 0x2, [2] = 0x3, [3] = 0x4, [4] = 0x5, [5] = 0x6, [6] = 0x7, [7] = 0x8, [8] = 0x9, [9] = 0xA, [10] = 0xB, [11] = 0xC, [12] = 0xD, [13] = 0xE, [14] = 0xF, [15] = 0x10 ], '
	printf 'ip4 = 0x1401A8C0, ip6 = [ [0] = 0x20, [1] = 0x1, [2] = 0xD, [3] = 0xB8, [4] = 0x0, [5] = 0x0, [6] = 0x0, [7] = 0x0, [8] = 0x0, [9] = 0x0, [10] = 0x0, [11] = 0x0, [12] = 0x0, [13] = 0x0, [14] = 0x0, [15] = 0x1 ], port = 8080, '
	printf 'raw = [ [0] = 0x0, [1] = 0x11, [2] = 0x22, [3] = 0x33, [4] = 0x44, [5] = 0x55, [6] = 0x66, [7] = 0x77, [8] = 0x88, [9] = 0x99, [10] = 0xAA, [11] = 0xBB, [12] = 0xCC, [13] = 0xDD, [14] = 0xEE, [15] = 0xFF ], '
	printf 's = "plain", l1 = "caf\351", bom = "\357\273\277bom", xml = "<a x=\\"1\\"/>", json = "{\\"k\\":[1,2]}", _c8_length = 3, c8 = "abc", '
	printf '_w16_length = 3, w16 = [ [0] = 104, [1] = 233, [2] = 0 ], _w32_length = 3, w32 = [ [0] = 128512, [1] = 120, [2] = 0 ], _c16_length = 2, c16 = [ [0] = 97, [1] = 98 ], _c32_length = 3, c32 = [ [0] = 120, [1] = 121, [2] = 122 ], '
	printf '_blob_length = 3, blob = [ [0] = 0xDE, [1] = 0xAD, [2] = 0x1 ], arr = [ [0] = -1, [1] = 0, [2] = 300 ], _seq_length = 2, seq = [ [0] = 1, [1] = 2 ], pt = { x = -7, y = 9 } }\n'
} >>"$tmp/bt.want"
if ! cmp -s "$tmp/bt.want" "$tmp/bt.got"; then
	diff "$tmp/bt.want" "$tmp/bt.got" | head -20
	fail "babeltrace2 shows other values than those written"
fi
echo "and babeltrace2 reads the same 9 events in the CTF trace"
