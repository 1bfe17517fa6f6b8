#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check where the losses of a CTF trace went in the trace.dat made from it.

Usage: ctf-dat-losses.py CTF.jsonl DAT.jsonl [NAME]...

Both files are `tracekit print --style json` output: CTF.jsonl of the whole CTF trace, with
its loss notices ({"lost":N,"kind":"events"|"packets",...}; N null when unknown), DAT.jsonl
of the trace.dat file converted from it, keeping only the events named NAME (every event
when no NAME is given). The rule (doc/format-tracedat.md section 9): the losses a stream
reports are flagged on the next event of that stream the conversion keeps, as the count of
discarded events when one is known, else as a loss of unknown size (lost packets, an unknown
count); packets without a kept event lose nothing. So each loss line of DAT.jsonl must be
the one this rule gives, at the time and CPU of its event (the packet context's cpu_id),
and no kept event may have another.
"""
import json
import sys


def main():
    ctf_path, dat_path = sys.argv[1:3]
    names = set(sys.argv[3:])
    pending = {}  # stream id -> [discarded events (None: unknown), packets lost]
    want = []
    with open(ctf_path) as f:
        for line in f:
            e = json.loads(line)
            p = pending.setdefault(e["stream_id"], [0, False])
            if "lost" in e:
                if e["kind"] == "packets":
                    p[1] = True
                elif e["lost"] is None or p[0] is None:
                    p[0] = None
                else:
                    p[0] += e["lost"]
                continue
            if names and e["name"] not in names:
                continue
            lost = p[0] if p[0] != 0 else (None if p[1] else 0)
            if lost != 0:
                cpu = e.get("packet_context", {}).get("cpu_id", 0)
                want.append((e["ts"], cpu, lost))
            pending[e["stream_id"]] = [0, False]
    got = []
    with open(dat_path) as f:
        for line in f:
            e = json.loads(line)
            if "lost" in e:
                got.append((e["ts"], e["cpu"], e["lost"]))
    want.sort(key=lambda x: (x[0], x[1]))
    got.sort(key=lambda x: (x[0], x[1]))
    if want != got:
        extra = [x for x in got if x not in want][:3]
        missing = [x for x in want if x not in got][:3]
        print("losses differ: %d expected, %d found; unexpected (ts, cpu, lost) %s; "
              "missing %s" % (len(want), len(got), extra, missing))
        return 1
    print("%d losses where expected" % len(want))
    return 0


if __name__ == "__main__":
    sys.exit(main())
