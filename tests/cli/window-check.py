#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A time window read against a full read filtered by time, for tests/cli/window.sh.

Usage: window-check.py TRACEKIT TRACE

Reads TRACE whole (`tracekit print --style json`), then for windows at its start, middle
and end, one nanosecond wide on an event, and windows inside lost ranges, reads it again
with `--begin=Bns --end=Ens` and checks that the lines are exactly those of the full read
in the window: events whose time is in [B, E], and losses whose range meets it (a loss
with a range) or told with an event in it (ftrace's, told with the first event after it).
Exit status 0 when every window matches, 1 otherwise.
"""
import json
import subprocess
import sys


def run(tk, trace, *args):
    p = subprocess.run([tk, "print", "--style", "json", *args, trace],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if p.returncode != 0:
        sys.stderr.write(p.stderr.decode(errors="replace"))
        raise SystemExit(f"FAIL: tracekit print {' '.join(args)} {trace}: "
                         f"exit status {p.returncode}")
    return p.stdout.decode().splitlines(keepends=True)


def in_window(o, b, e):
    if "lost" in o and "begin_ts" in o:
        return o["end_ts"] >= b and o["begin_ts"] <= e
    return b <= o["ts"] <= e


def main():
    tk, trace = sys.argv[1], sys.argv[2]
    lines = run(tk, trace)
    objs = [json.loads(x) for x in lines]
    ts = [o["ts"] for o in objs if "lost" not in o]
    if len(ts) < 1000:
        raise SystemExit(f"FAIL: {trace}: {len(ts)} events, too few for the windows")
    n = len(ts)
    windows = [
        ("start", ts[0], ts[n // 50]),
        ("open start", ts[0] - 10**9, ts[n // 100]),
        ("middle", ts[n // 2], ts[n // 2 + n // 100]),
        ("one ns", ts[n // 3], ts[n // 3]),
        ("end", ts[n - n // 50], ts[-1]),
        ("past the end", ts[-1] - 1000, ts[-1] + 10**9),
        ("before the trace", 0, ts[0] - 1),
    ]
    # losses with a range: a window inside it, and one across its start
    ranged = [o for o in objs if "lost" in o and "begin_ts" in o and
              o["end_ts"] - o["begin_ts"] > 2]
    for k, o in enumerate(ranged[len(ranged) // 2:len(ranged) // 2 + 2]):
        windows.append((f"inside lost range {k}", o["begin_ts"] + 1, o["end_ts"] - 1))
        windows.append((f"across lost range {k}", o["begin_ts"] - 5000, o["begin_ts"] + 1))
    # ftrace losses, told with an event: the gap before that event, and the gap with it
    told = [i for i, o in enumerate(objs) if "lost" in o and "begin_ts" not in o]
    for k, i in enumerate(told[len(told) // 2:len(told) // 2 + 2]):
        t = objs[i]["ts"]
        windows.append((f"before lost events {k}", t - 20000, t - 1))
        windows.append((f"at lost events {k}", t, t + 20000))
    fail = 0
    for name, b, e in windows:
        want = [x for x, o in zip(lines, objs) if in_window(o, b, e)]
        got = run(tk, trace, f"--begin={b}ns", f"--end={e}ns")
        if got != want:
            fail = 1
            first = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w),
                         min(len(got), len(want)))
            print(f"FAIL: {trace}: window {name} [{b}, {e}]: {len(got)} lines, "
                  f"want {len(want)}; first difference at line {first + 1}")
            if first < len(want):
                print(f"  want: {want[first].rstrip()}")
            if first < len(got):
                print(f"  got:  {got[first].rstrip()}")
        elif not want and name not in ("before the trace",) and "lost" not in name:
            fail = 1
            print(f"FAIL: {trace}: window {name} [{b}, {e}] holds nothing: a useless check")
    if not told and not ranged:
        print(f"FAIL: {trace}: no losses to put a window in")
        fail = 1
    print(f"{trace}: {len(windows)} windows, {n} events" + (" FAILED" if fail else ""))
    return fail


if __name__ == "__main__":
    sys.exit(main())
