#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Compares the perf-decode JSON that tracekit writes for a converted trace (CTF: events in
# time order, times in seconds of the trace's clock) with the reference decoder's JSON of
# the original perf.data file (events in the file's order, times as UTC dates). Both are in
# the formatter's compact layout, one event per line. The reference's events are put in time
# order (a stable sort: perf's order, ties in file order, which the conversion keeps); then,
# event by event, everything but "meta"'s "time" must be byte-identical, and every event's
# time must differ from the reference's by one constant (the clocks' origins differ). Events
# of the --plain systems (tracefs events, such as sched:sched_switch) are not EventHeader
# events: for them only the event's name after its system is compared.
#
# Usage: eventheader-convert.py [--plain SYSTEM]... ACTUAL EXPECTED
import calendar
import re
import sys

TIME = re.compile(rb'"meta":\{"time":("[^"]*"|[0-9]+\.[0-9]+),?')


def ns_of(t):
    if t.startswith(b'"'):  # "2024-03-28T00:45:12.640913120Z"
        m = re.match(rb'"(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)\.(\d{9})Z"$', t)
        if not m:
            sys.exit("unexpected time %r" % t)
        g = [int(x) for x in m.groups()]
        return calendar.timegm(tuple(g[:6]) + (0, 0, 0)) * 10**9 + g[6]
    s, f = t.split(b'.')
    return int(s) * 10**9 + int(f.ljust(9, b'0')[:9])


def load(path):
    out = []
    for line in open(path, 'rb').read().split(b'\n'):
        if not line.startswith(b' {'):
            continue
        line = line.rstrip(b',')
        m = TIME.search(line)
        if not m:
            sys.exit("%s: an event without a time: %r" % (path, line[:200]))
        out.append((ns_of(m.group(1)), TIME.sub(b'"meta":{', line, count=1)))
    return out


def name(line):
    m = re.search(rb'"n":"([^"]*)"', line)
    return m.group(1) if m else b''


def main(argv):
    plain = []
    while len(argv) > 1 and argv[0] == '--plain':
        plain.append(argv[1].encode() + b':')
        argv = argv[2:]
    if len(argv) != 2:
        sys.exit(__doc__)
    got, ref = load(argv[0]), load(argv[1])
    ref.sort(key=lambda e: e[0])
    bad = 0
    if len(got) != len(ref):
        print("FAIL: %d events, the reference has %d" % (len(got), len(ref)))
        bad += 1
    offset = None
    compared = 0
    for i, ((gt, g), (rt, r)) in enumerate(zip(got, ref)):
        if offset is None:
            offset = rt - gt
        if rt - gt != offset:
            print("FAIL event %d: time %d ns, the reference's less %d ns" % (i + 1, gt, rt - offset))
            bad += 1
        n = name(r)
        if any(n.startswith(p) for p in plain):
            if name(g) != n.split(b':', 1)[1]:
                print("FAIL event %d: named %r, the reference %r" % (i + 1, name(g), n))
                bad += 1
            continue
        compared += 1
        if g != r:
            bad += 1
            if bad <= 10:
                print("FAIL event %d:\n  got %r\n  ref %r" % (i + 1, g[:600], r[:600]))
    print("%d events, %d EventHeader events compared whole, %d differences" %
          (len(got), compared, bad))
    return 1 if bad or not compared else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
