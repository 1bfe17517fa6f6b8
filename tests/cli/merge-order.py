# SPDX-License-Identifier: MIT
"""The check of tests/cli/record-ust*.sh: `tracekit print --style json` of a kernel recording
and a program's trace together (GOT) must hold the events the oracles list (WANT-K: the
kernel's, "SECONDS k" lines from trace-cmd report -t; WANT-U: the program's, "SECONDS u"
from babeltrace2 --clock-seconds) at their times, in time order.

Usage: python3 merge-order.py WANT-K WANT-U GOT
"""
import json
import sys


def ns(t):
    s, f = t.split(".")
    return int(s) * 10**9 + int((f + "000000000")[:9])


want = []
for path in sys.argv[1:3]:
    for line in open(path):
        t, k = line.split()
        want.append((ns(t), k))
got = []
for line in open(sys.argv[3]):
    e = json.loads(line)
    got.append((e["ts"], "u" if e["name"] == "hello:greeting" else "k"))
if len(got) != len(want):
    sys.exit("tracekit printed %d events, the oracles %d" % (len(got), len(want)))
if [t for t, _ in got] != sorted(t for t, _ in got):
    sys.exit("tracekit's times go back")
if sorted(got) != sorted(want):  # with the times in order: the oracles' merge
    sys.exit("the events' times differ from the oracles'")
