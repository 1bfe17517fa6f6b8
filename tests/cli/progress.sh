#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The progress line of long work, on stderr when it is a terminal (a pseudo-terminal here):
# - `tracekit convert` shows "converting: N events" while it works and a summary line;
# - `tracekit print` into a file shows "printing: N events" and "printed N events in T s";
#   into a pipe it shows none (a pager may share the screen), nor with -q, nor when stderr
#   is not a terminal; the printed text is the same either way.
# Usage: progress.sh TRACEKIT GEN-DAT
set -u
tk=$1
gen_dat=$2
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$gen_dat" -n 140000 "$tmp/t.dat" >/dev/null || exit 1

# on_pty OUT-FILE-OR-PIPE ARGS...: run tracekit with stderr on a pseudo-terminal, stdout into
# $tmp/out ("file") or through a pipe into it ("pipe"); the terminal's text into $tmp/tty
on_pty() {
	python3 - "$@" <<'PY'
import os, pty, subprocess, sys
how, args = sys.argv[1], sys.argv[2:]
tmp = os.environ["TMPD"]
master, slave = pty.openpty()
with open(os.path.join(tmp, "out"), "wb") as out:
    if how == "file":
        p = subprocess.Popen(args, stdout=out, stderr=slave)
    else:
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave)
        out.write(p.stdout.read())
    os.close(slave)
    tty = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        tty += chunk
    rc = p.wait()
with open(os.path.join(tmp, "tty"), "wb") as f:
    f.write(tty)
sys.exit(rc)
PY
}
export TMPD="$tmp"

"$tk" print "$tmp/t.dat" >"$tmp/plain" 2>/dev/null || { echo "FAIL: print"; exit 1; }

on_pty file "$tk" print "$tmp/t.dat" || { echo "FAIL: print on a terminal exits $?"; fail=1; }
if ! grep -q 'tracekit: printing: [0-9]* events' "$tmp/tty" ||
	! grep -q 'tracekit: printed 140000 events in ' "$tmp/tty"; then
	echo "FAIL: print into a file shows no progress or summary: $(tr '\r' '\n' <"$tmp/tty" | tail -n 2)"
	fail=1
fi
cmp -s "$tmp/out" "$tmp/plain" || { echo "FAIL: print's text changes with the progress line"; fail=1; }

on_pty pipe "$tk" print "$tmp/t.dat" || { echo "FAIL: print into a pipe exits $?"; fail=1; }
if grep -q 'tracekit:' "$tmp/tty"; then
	echo "FAIL: print into a pipe shows a progress line: $(head -c 200 "$tmp/tty")"
	fail=1
fi
cmp -s "$tmp/out" "$tmp/plain" || { echo "FAIL: print into a pipe prints other text"; fail=1; }

on_pty file "$tk" print -q "$tmp/t.dat" || { echo "FAIL: print -q exits $?"; fail=1; }
grep -q 'tracekit:' "$tmp/tty" && { echo "FAIL: print -q shows a progress line"; fail=1; }

"$tk" print "$tmp/t.dat" >"$tmp/out" 2>"$tmp/err"
[ -s "$tmp/err" ] && { echo "FAIL: progress without a terminal: $(head -c 200 "$tmp/err")"; fail=1; }

on_pty file "$tk" convert "$tmp/t.dat" -o "$tmp/t.ctf" || { echo "FAIL: convert exits $?"; fail=1; }
if ! grep -q 'tracekit: converting: ' "$tmp/tty" || ! grep -q 'tracekit: converted ' "$tmp/tty"; then
	echo "FAIL: convert shows no progress or summary: $(tr '\r' '\n' <"$tmp/tty" | tail -n 2)"
	fail=1
fi

[ $fail -eq 0 ] && echo "ok: progress lines where a terminal shows them, and nowhere else"
exit $fail
