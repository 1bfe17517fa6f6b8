#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Compares `tracekit print --style trace-cmd IN.perf.data` (EXPECTED) with `trace-cmd report
# OUT.dat` of the trace.dat file tracekit converted it to (ACTUAL), line by line. Every line
# must be the same but for three things a trace.dat file holds otherwise, each checked
# another way:
#
# - a kernel function's name (`function=` of the timer events): tracekit names it as perf
#   script does, from the running kernel's symbols when it is the one the perf.data file
#   was recorded on, while perf record writes no kallsyms into its tracing data, so the
#   trace.dat file has none and trace-cmd prints the address. Each address must stand for
#   one name throughout;
# - the task's name: perf's thread table names a task as it was at each sample, while the
#   saved command lines of a trace.dat file have one name per pid (the last), which
#   trace-cmd's sched plugin changes as sched_switch events name tasks, and trace-cmd calls
#   pid 0 "<idle>" whatever the file says (perf: "swapper"). The pid must be the same, and
#   the name "<idle>" for pid 0, else one that tracekit shows for that pid somewhere; but
#   where perf has no tid for the sample (-1, ":-1": the task was exiting), trace-cmd's
#   task is the record's common_pid and its name, taken as they are;
# - the order of lines of one printed time: trace-cmd takes records of one nanosecond on
#   several CPUs lowest CPU first, perf in its file's order; such runs are compared sorted.
#
# Usage: perf-dat-text.py ACTUAL EXPECTED
# Prints the count of lines that match and each difference; exit status 1 when anything
# differs.
import re
import sys

LINE = re.compile(rb"^(?P<comm>.*?)-(?P<pid>-?\d+) +\[(?P<cpu>\d+)\] +(?P<time>[0-9.]+): (?P<rest>.*)$")
FUNC = re.compile(rb"function=(\S+)")


def parse(path):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    head, out = lines[:1], []
    for n, line in enumerate(lines[1:], 2):
        m = LINE.match(line)
        if not m:
            raise SystemExit("FAIL %s line %d is not a trace-cmd line: %r" % (path, n, line[:200]))
        out.append((m.group("time"), int(m.group("pid")), m.group("cpu"), m.group("comm").strip(),
                    m.group("rest")))
    return head, out


def by_time(lines):
    """The lines with each run of one printed time sorted."""
    out, i = [], 0
    while i < len(lines):
        j = i
        while j < len(lines) and lines[j][0] == lines[i][0]:
            j += 1
        out += sorted(lines[i:j], key=lambda x: (x[2], x[4]))
        i = j
    return out


def main():
    ahead, actual = parse(sys.argv[1])
    ehead, expected = parse(sys.argv[2])
    bad = 0
    if ahead != ehead:
        print("FAIL first line: %r != %r" % (ahead, ehead))
        bad += 1
    if len(actual) != len(expected):
        print("FAIL line count: %d != %d" % (len(actual), len(expected)))
        bad += 1
    names = {}
    for t, pid, cpu, comm, rest in expected:
        names.setdefault(pid, set()).add(comm)
    syms = {}
    same = 0
    for n, (a, e) in enumerate(zip(by_time(actual), by_time(expected))):
        why = []
        if a[0] != e[0] or a[2] != e[2] or (a[1] != e[1] and e[1] != -1):
            why.append("time, pid or CPU")
        if e[1] == -1:
            pass  # perf had no tid: any task trace-cmd names from common_pid
        elif a[3] not in names.get(a[1], ()) and (a[1], a[3]) != (0, b"<idle>"):
            why.append("name %r is none tracekit gives pid %d" % (a[3], a[1]))
        fa, fe = FUNC.findall(a[4]), FUNC.findall(e[4])
        if len(fa) != len(fe) or FUNC.sub(b"function=F", a[4]) != FUNC.sub(b"function=F", e[4]):
            why.append("text")
        for x, y in zip(fa, fe):
            if x != y and (not x.startswith(b"0x") or syms.setdefault(x, y) != y):
                why.append("function %r for %r (before: %r)" % (x, y, syms.get(x)))
        if why:
            bad += 1
            if bad <= 20:
                print("FAIL line %d: %s\n  got:  %r\n  want: %r" % (n + 2, "; ".join(why), a, e))
        else:
            same += 1
    print("%d of %d lines match (%d kernel addresses unnamed in the trace.dat file)" %
          (same, len(expected), len(syms)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
