#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Compares `tracekit print --style perf-decode-compact` of a trace.dat file converted from a
# perf.data file (ACTUAL) with the reference decoder's JSON of that perf.data file (EXPECTED),
# event by event. Normalised, as eventheader-json.py does, are the member's name and the
# whitespace outside strings; then only what a trace.dat file cannot hold, each checked
# another way:
#
# - the order across CPUs: a trace.dat file keeps each CPU's records apart and its readers
#   merge them by time, while a perf.data file interleaves the CPUs as perf's buffers were
#   written out. The reference is put in time order (its times are unique, and each CPU's
#   events in it must already be in time order, so no CPU's order changes);
# - "meta"'s time: the reference has the sample's wall-clock time (perf.data's CLOCK_DATA),
#   the trace.dat file perf's clock, which trace-cmd prints; each event's difference must be
#   one and the same number of nanoseconds;
# - "meta"'s pid and tid: the reference has the sample's, in the pid namespace of perf (the
#   corpus files were recorded in a container), the trace.dat file only the record's
#   common_pid, in the kernel's (its pid and tid); each common_pid must stand for one sample
#   tid throughout (where perf had one: it has 0 for a task outside its namespace, -1 for
#   one exiting).
#
# Every other byte of every event, the decoded fields and the rest of "meta" (cpu, level,
# ...) included, must be identical.
#
# Usage: perf-dat-json.py ACTUAL EXPECTED
# Prints "N of M events match" and each difference; exit status 1 when anything differs.
import calendar
import importlib.util
import os
import re
import sys

spec = importlib.util.spec_from_file_location(
    "ehjson", os.path.join(os.path.dirname(os.path.abspath(__file__)), "eventheader-json.py"))
ehjson = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ehjson)

# the members of "meta" a sample has first (eventheader-json.c: time, cpu, pid, tid)
META = re.compile(rb'"meta":\{"time":("[^"]*"|[0-9.]+),"cpu":([0-9]+),"pid":([0-9]+),"tid":([0-9]+)')
ISO = re.compile(rb'^"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{9})Z"$')


def time_ns(text):
    """Nanoseconds of a "meta" time: ISO 8601 UTC (wall clock) or seconds with 9 decimals."""
    m = ISO.match(text)
    if m:
        y, mo, d, h, mi, s, ns = (int(x) for x in m.groups())
        return calendar.timegm((y, mo, d, h, mi, s)) * 10**9 + ns
    sec, _, frac = text.partition(b".")
    if len(frac) != 9:
        raise ValueError("time %r has not 9 decimals" % text)
    return int(sec) * 10**9 + int(frac)


def meta(event):
    """(time ns, cpu, pid, tid, event with those four replaced) of one event's bytes."""
    m = META.search(event)
    if not m:
        raise ValueError("no sample meta in %r" % event[:200])
    norm = event[:m.start()] + b'"meta":{"time":T,"cpu":' + m.group(2) + b',"pid":P,"tid":P' + \
        event[m.end():]
    return time_ns(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4)), norm


def main():
    with open(sys.argv[1], "rb") as f:
        actual = ehjson.split(f.read())
    with open(sys.argv[2], "rb") as f:
        expected = ehjson.split(f.read())
    bad = 0
    if actual[0] != expected[0] or actual[2] != expected[2]:
        print("FAIL head or tail: %r %r != %r %r" %
              (actual[0], actual[2], expected[0], expected[2]))
        bad += 1
    got = [meta(e) for e in actual[1]]
    want = [meta(e) for e in expected[1]]
    # each CPU's events in the reference are in time order: sorting moves none of them
    last = {}
    for t, cpu, _, _, _ in want:
        if t <= last.get(cpu, -1):
            print("FAIL reference: CPU %d goes back in time or repeats one, at %d ns" % (cpu, t))
            bad += 1
        last[cpu] = t
    if len(set(w[0] for w in want)) != len(want):
        print("FAIL reference: two events have one time; their order would be a guess")
        bad += 1
    want.sort(key=lambda w: w[0])
    if len(got) != len(want):
        print("FAIL event count: %d != %d" % (len(got), len(want)))
        bad += 1
    offset = None
    tids = {}
    same = 0
    for n, (g, w) in enumerate(zip(got, want)):
        why = []
        if offset is None:
            offset = w[0] - g[0]
        if w[0] - g[0] != offset:
            why.append("time %d ns is %d ns from the reference's, not %d" %
                       (g[0], w[0] - g[0], offset))
        if g[2] != g[3]:
            why.append("pid %d and tid %d differ (both are common_pid)" % (g[2], g[3]))
        # perf has no tid for a task outside its namespace (0) or already gone (-1)
        if w[3] not in (0, 0xFFFFFFFF) and tids.setdefault(g[3], w[3]) != w[3]:
            why.append("common_pid %d stands for sample tid %d, before for %d" %
                       (g[3], w[3], tids[g[3]]))
        if g[4] != w[4]:
            why.append("the event differs")
        if why:
            bad += 1
            print("FAIL event %d: %s\n  got:  %s\n  want: %s" %
                  (n + 1, "; ".join(why), g[4][:400].decode("utf-8", "replace"),
                   w[4][:400].decode("utf-8", "replace")))
        else:
            same += 1
    print("%d of %d events match (clock offset %s ns, %d tasks)" %
          (same, len(want), offset, len(tids)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
