#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The kernel's own text of events against tracekit's rendering of the same events.

In the guest, a mirror instance records the events of a "text" case (tests/vm/cases) while
tracekit records them in its own instance; the mirror's `trace` file is the kernel's text of
every event. Here each event of `tracekit print -t FILE` must be found in that text, and
every event of the text that happened while tracekit recorded must be in tracekit's output:
same CPU, same pid, same event name, same text after the name, in the same order on each CPU.

Why two buffers, and why the time is compared within a tolerance: tracekit consumes its
buffer (trace_pipe_raw), so the kernel can no longer print it; a second buffer sees every
event, but takes its own timestamp when it writes the event, a little earlier than
tracekit's instance (the mirror's probe is registered first, so it runs first): usually
microseconds, but under emulation the host may deschedule the virtual CPU between the two
writes (2.3 ms seen on a loaded machine). tracekit's time must therefore be the mirror's or up
to TOLERANCE_US later. Exact times are the business of the trace-cmd comparison (the "report"
check) made on the same file.

Why these events: the kernel's `trace` text is the event's print format, except for events
with an output function of their own (the syscalls:sys_enter_* family, ftrace's function
events) or pointers (%p, hashed in the kernel's text, raw in the file); and trace-cmd report,
which tracekit print follows byte for byte, renders some events through plugins (sched_switch,
sched_wakeup) instead of their print format. The cases list events with neither: sched process
events, sched_waking, raw_syscalls and softirqs.

Events of tracekit's own threads (comm "tracekit") are left out on both sides: tracekit may keep
them out of its instance while the mirror has them.

Usage: text-check.py MIRROR-TEXT TRACEKIT-PRINT-T EVENT[+EVENT...]
Exits 1 with one line per problem (at most a few of each kind), 0 when they agree.
"""
import re
import sys
from collections import defaultdict

TOLERANCE_US = 50000
SHOW = 5

# "  comm-pid  [cpu] flags  secs.usecs: event: text" (the kernel, irq-info on)
KERNEL = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d{6}): (\w+): ?(.*)$")
# "  comm-pid  [cpu]  secs.nsecs: event:   text" (trace-cmd report -t)
TRACEKIT = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}): (\w+):\s*(.*)$")


def parse(path, pattern, ns, events):
    """Per CPU, [time_us, pid, event, text, line] of the selected events, and tracekit's pids."""
    per_cpu = defaultdict(list)
    own = set()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = pattern.match(line)
            if not m:
                continue
            comm, pid, cpu, secs, frac, event, text = m.groups()
            if comm == "tracekit":
                own.add(int(pid))
            if event not in events:
                continue
            # the kernel prints microseconds rounded to the nearest: do the same
            us = int(secs) * 1000000 + ((int(frac) + 500) // 1000 if ns else int(frac))
            per_cpu[int(cpu)].append([us, int(pid), event, text.strip(), line.strip()])
    return per_cpu, own


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: text-check.py MIRROR-TEXT TRACEKIT-PRINT-T EVENT[+EVENT...]")
    events = set(sys.argv[3].split("+"))
    kernel, own_k = parse(sys.argv[1], KERNEL, False, events)
    tk, own_t = parse(sys.argv[2], TRACEKIT, True, events)
    own = own_k | own_t
    problems = defaultdict(list)
    matched = defaultdict(int)

    if not any(e[1] not in own for evs in tk.values() for e in evs):
        print("FAIL text: tracekit's file has none of the events " + sys.argv[3])
        return 1
    times = [e[0] for evs in tk.values() for e in evs]
    first, last = min(times), max(times)

    for cpu in sorted(set(kernel) | set(tk)):
        ks = [e + [False] for e in kernel.get(cpu, []) if e[1] not in own]
        start = 0
        for us, pid, event, text, line in (e for e in tk.get(cpu, []) if e[1] not in own):
            while start < len(ks) and ks[start][5]:
                start += 1
            # the closest one before it: an identical event shortly earlier may be one the
            # mirror saw before tracekit's instance was on
            found = None
            j = start
            while j < len(ks) and ks[j][0] <= us:
                k = ks[j]
                if (not k[5] and k[1] == pid and k[2] == event and k[3] == text
                        and us - k[0] <= TOLERANCE_US):
                    found = k
                j += 1
            if found is None:
                near = [k[4] for k in ks if abs(k[0] - us) <= TOLERANCE_US][:3]
                problems["not in the kernel's text"].append(
                    "CPU %d: %s\n        the kernel's, then: %s"
                    % (cpu, line, " | ".join(near) or "-"))
                continue
            found[5] = True
            matched[event] += 1
        # the kernel's events while tracekit recorded must all have been found: those after
        # its first event (its instance was on, and writes after the mirror), and before its
        # last event less the tolerance (it may have been off when writing the event)
        for k in ks:
            if not k[5] and first < k[0] < last - TOLERANCE_US:
                problems["missing from tracekit's file"].append("CPU %d: %s" % (cpu, k[4]))

    for event in sorted(events):
        if not matched[event]:
            problems["never seen on both sides"].append(event)
    for kind, lines in sorted(problems.items()):
        print("FAIL text: %d events %s:" % (len(lines), kind))
        for line in lines[:SHOW]:
            print("    " + line)
    if problems:
        return 1
    print("text: %d events agree (%s)" % (
        sum(matched.values()), ", ".join("%s %d" % (e, matched[e]) for e in sorted(matched))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
