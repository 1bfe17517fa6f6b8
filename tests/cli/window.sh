#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Reading a time window (print --begin/--end), which goes straight to the window's pages or
# packets:
#   1. on generated CTF traces (with and without LTTng index files, LTTng kernel layout)
#      and trace.dat files (v6, v7 with zstd and zlib, an instance buffer, big-endian 32-bit,
#      guest times shifted to the host with TSC scaling and an offset, 64 KiB pages),
#      all with lost events, a window read gives exactly the lines of a full read that fall
#      in the window, at the start, middle and end, one nanosecond wide, inside and across
#      lost ranges (window-check.py);
#   2. a window read does not read what lies before the window: with an early packet, page
#      or compressed chunk damaged, the full read fails and a window at the end reads
#      without error the events a full read of the intact trace has there;
#   3. `convert --begin/--end` to trace.dat reads from the window's pages as well: the copy
#      prints what a window read of the original prints, losses before the window left out,
#      and a damaged page or chunk before the window is not read.
# Usage: window.sh TRACEKIT GEN-CTF GEN-DAT
set -u
tk=$1
gen_ctf=$2
gen_dat=$3
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }

gen() { # gen TOOL OUT ARGS...
	t=$1
	o=$2
	shift 2
	if ! "$t" "$@" "$o" >/dev/null 2>"$tmp/gen.err"; then
		echo "FAIL: $(basename "$t") $* $o"
		cat "$tmp/gen.err"
		exit 1
	fi
}

gen "$gen_ctf" "$tmp/ctf-index" --events 60000 --lost
gen "$gen_ctf" "$tmp/ctf-noindex" --events 60000 --lost --no-index --packet-size 8192
gen "$gen_ctf" "$tmp/ctf-compact" --events 60000 --lost --layout compact --byte-order be
gen "$gen_dat" "$tmp/v6.dat" --events 30000 --missed --file-version 6
gen "$gen_dat" "$tmp/v7-zstd.dat" --events 30000 --missed --compression zstd
gen "$gen_dat" "$tmp/v7-zlib.dat" --events 30000 --missed --compression zlib --instance one
gen "$gen_dat" "$tmp/v6-be32.dat" --events 30000 --missed --file-version 6 --byte-order be \
	--long-size 4
gen "$gen_dat" "$tmp/v7-shift.dat" --events 30000 --missed --compression zstd --cpus 4 \
	--time-shift --tsc2nsec --offset=-5000000000
gen "$gen_dat" "$tmp/v6-64k.dat" --events 30000 --missed --file-version 6 --page-size 65536

# 1. every window against the full read
for t in ctf-index ctf-noindex ctf-compact v6.dat v7-zstd.dat v7-zlib.dat v6-be32.dat \
	v7-shift.dat v6-64k.dat; do
	python3 "$here/window-check.py" "$tk" "$tmp/$t" || fail=1
done

# 2. damage before the window is never read
python3 - "$tmp" <<'EOF' || fail=1
import os, shutil, sys
tmp = sys.argv[1]
# CTF: 64 bytes of 0xff inside the fourth packet of a stream (event ids no class has)
shutil.copytree(f"{tmp}/ctf-index", f"{tmp}/bad-ctf")
with open(f"{tmp}/bad-ctf/channel0_0", "r+b") as f:
    f.seek(3 * 4096 + 256)
    f.write(b"\xff" * 64)
# trace.dat v6: the commit word of an early page larger than the page
data = bytearray(open(f"{tmp}/v6.dat", "rb").read())
pages = [o for o in range(0, len(data) - 4096, 4096)
         if 0 < int.from_bytes(data[o + 8:o + 16], "little") <= 4096 - 16 and
         10**12 < int.from_bytes(data[o:o + 8], "little") < 10**15]
if len(pages) < 100:
    raise SystemExit(f"FAIL: found {len(pages)} pages in v6.dat")
data[pages[3] + 8:pages[3] + 16] = (1 << 20).to_bytes(8, "little")
open(f"{tmp}/bad-v6.dat", "wb").write(data)
# trace.dat v7 zstd: the third chunk of CPU data (a zstd frame after a chunk header saying
# 10 pages) made garbage
data = bytearray(open(f"{tmp}/v7-zstd.dat", "rb").read())
frames, at = [], data.find(b"\x28\xb5\x2f\xfd")
while at >= 0:
    if int.from_bytes(data[at - 4:at], "little") == 10 * 4096:
        frames.append(at)
    at = data.find(b"\x28\xb5\x2f\xfd", at + 4)
if len(frames) < 20:
    raise SystemExit(f"FAIL: found {len(frames)} chunks of CPU data in v7-zstd.dat")
data[frames[2]:frames[2] + 32] = b"\xee" * 32
open(f"{tmp}/bad-v7-zstd.dat", "wb").write(data)
EOF
for t in ctf-index:bad-ctf v6.dat:bad-v6.dat v7-zstd.dat:bad-v7-zstd.dat; do
	good=$tmp/${t%%:*}
	bad=$tmp/${t#*:}
	if "$tk" print "$bad" >/dev/null 2>"$tmp/err"; then
		echo "FAIL: ${t#*:}: the full read of a damaged trace succeeds"
		fail=1
		continue
	fi
	"$tk" print --style json "$good" >"$tmp/full.json" || fail=1
	set -- $(python3 -c '
import json, sys
ts = [o["ts"] for o in map(json.loads, open(sys.argv[1])) if "lost" not in o]
print(ts[len(ts) * 9 // 10], ts[-1])' "$tmp/full.json")
	"$tk" print --style json --begin="$1ns" --end="$2ns" "$good" >"$tmp/want" || fail=1
	# the stream paths name the damaged copy: named as the intact trace for the comparison
	if ! "$tk" print --style json --begin="$1ns" --end="$2ns" "$bad" >"$tmp/raw" 2>"$tmp/err"
	then
		echo "FAIL: ${t#*:}: a window after the damage reads the damage:"
		cat "$tmp/err"
		fail=1
	elif ! sed "s#${bad##*/}#${good##*/}#g" "$tmp/raw" | cmp -s "$tmp/want" - ||
		[ ! -s "$tmp/want" ]; then
		echo "FAIL: ${t#*:}: a window after the damage differs from the intact trace's"
		fail=1
	else
		echo "ok: ${t#*:}: damage before the window not read"
	fi
done
# 3. a window converted to trace.dat is read from where it begins too: printed, the copy
#    gives the lines a window read of the original gives (losses before the window left
#    out), and a copy of a window after damage does not read the damage
window_of() { # window_of TRACE FROM TO: the times at those fractions of the full read
	"$tk" print --style json "$1" >"$tmp/full.json" || return 1
	python3 -c '
import json, sys
ts = [o["ts"] for o in map(json.loads, open(sys.argv[1])) if "lost" not in o]
print(ts[int(len(ts) * float(sys.argv[2]))], ts[min(len(ts) - 1, int(len(ts) * float(sys.argv[3])))])
' "$tmp/full.json" "$2" "$3"
}
for t in v6.dat v7-zstd.dat v7-zlib.dat v6-be32.dat v7-shift.dat v6-64k.dat \
	v6.dat:bad-v6.dat v7-zstd.dat:bad-v7-zstd.dat; do
	good=$tmp/${t%%:*}
	src=$tmp/${t#*:}
	windows="0:0.1 0.4:0.6 0.93:1"
	[ "$good" = "$src" ] || windows="0.4:0.6 0.93:1" # the damage is in the first tenth
	before=$fail
	fail=0
	for w in $windows; do
		set -- $(window_of "$good" "${w%%:*}" "${w#*:}") || { fail=1; continue; }
		rm -f "$tmp/win.dat"
		if ! "$tk" convert -q --begin="$1ns" --end="$2ns" "$src" -o "$tmp/win.dat" \
			2>"$tmp/err"; then
			echo "FAIL: ${t#*:}: converting the window $w fails:"
			cat "$tmp/err"
			fail=1
			continue
		fi
		"$tk" print --begin="$1ns" --end="$2ns" "$good" >"$tmp/want" || fail=1
		"$tk" print "$tmp/win.dat" >"$tmp/got" || fail=1
		if ! cmp -s "$tmp/want" "$tmp/got" || [ "$(wc -l <"$tmp/want")" -lt 10 ]; then
			echo "FAIL: ${t#*:}: the window $w converted prints differently:"
			diff "$tmp/want" "$tmp/got" | head -n 5
			fail=1
		fi
	done
	[ $fail -eq 0 ] && echo "ok: ${t#*:}: windows converted to trace.dat"
	[ $before -eq 0 ] || fail=$before
done
exit $fail
