#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check tracekit's CSV/TSV of one event against trace-cmd report's text of the same file.

Usage: csv-check.py CSV|TSV OUTPUT EVENT REPORT-R REPORT-T

REPORT-R is `trace-cmd report -R` (fields as name=value), REPORT-T `trace-cmd report -t`
(times with nanoseconds). Every EVENT line of the report must be one row, in order, with the
same CPU, time, task (common_pid) and field values; the header must hold each field name
once.
"""
import csv
import re
import sys

kind, output, event, raw_path, ns_path = sys.argv[1:6]
delim = "\t" if kind == "tsv" else ","
line_re = re.compile(r"-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+):\s*(.*)$")


def report(path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = line_re.search(line.rstrip("\n"))
            if m and m.group(5) == event:
                out.append(m)
    return out


raw = report(raw_path)
ns = report(ns_path)
if not raw or len(raw) != len(ns):
    sys.exit(f"FAIL: the report has {len(raw)} {event} lines with -R and {len(ns)} with -t")
with open(output, newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f, delimiter=delim))
head, rows = rows[0], rows[1:]
if head[:4] != ["ts", "cpu", "event", "lost"] or len(set(head)) != len(head):
    sys.exit(f"FAIL: header {head[:8]}...")
rows = [dict(zip(head, r)) for r in rows if r[2] == event]
if len(rows) != len(raw):
    sys.exit(f"FAIL: {len(rows)} {event} rows, the report has {len(raw)}")
for i, (r, m, t) in enumerate(zip(rows, raw, ns)):
    want_ts = int(t.group(3)) * 10**9 + int(t.group(4).ljust(9, "0"))
    if int(r["cpu"]) != int(m.group(2)) or int(r["ts"]) != want_ts:
        sys.exit(f"FAIL: row {i}: cpu {r['cpu']} ts {r['ts']}, want {m.group(2)} {want_ts}")
    # the task trace-cmd shows before the CPU is the common fields' common_pid
    if r.get("common_pid") != m.group(1):
        sys.exit(f"FAIL: row {i}: common_pid {r.get('common_pid')!r}, trace-cmd shows {m.group(1)}")
    # name=value pairs; a value (a comm) may hold spaces, up to the next " name="
    fields = dict(p.split("=", 1) for p in re.split(r" (?=\w+=)", m.group(6).strip()))
    for k, v in fields.items():
        col = k if k not in ("ts", "cpu", "event", "lost") else "fields." + k
        if col not in r:
            sys.exit(f"FAIL: row {i}: no column {col}")
        got = r[col]
        # -R writes some integers in hexadecimal (0x2), CSV always in decimal
        same = got == v
        if not same and re.fullmatch(r"-?(0x[0-9a-fA-F]+|\d+)", v):
            same = re.fullmatch(r"-?\d+", got) is not None and int(got) == int(v, 0)
        if not same:
            sys.exit(f"FAIL: row {i}: {col}={got!r}, trace-cmd report -R says {v!r}")
print(f"ok: {len(rows)} {event} rows match trace-cmd report")
