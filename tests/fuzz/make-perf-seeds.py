#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Recipe of the seeds in corpus/perfdata, the input of fuzz-perfdata.c: whole perf.data files
# written here field by field from the layout of perf_event_attr and of perf's file and pipe
# modes. Each mode in both byte orders; one or two tracepoint attributes with sample ids,
# the identifier first or the id at its place; samples with read values (one and a group),
# a call chain and raw data; event names from EVENT_DESC (file mode) and EVENT_UPDATE (pipe
# mode); a small tracing data blob; lost and comm records; a FINISHED_ROUND. crash-* seeds
# are fuzzer findings. Run from this directory:
#   python3 make-perf-seeds.py
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from perfwrite import (S_CALLCHAIN, S_CPU, S_ID, S_IDENT, S_IP, S_PERIOD, S_RAW,  # noqa: E402
                       S_READ, S_TID, S_TIME, attr, event_desc, file_layout, pipe_attr,
                       pipe_header, pipe_name, pipe_tracing, record)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "perfdata")


def sample(bo, st, rf, ident, pid, tid, t, cpu, raw, chain=0, group=False):
    b = b""
    if st & S_IDENT:
        b += struct.pack(bo + "Q", ident)
    if st & S_IP:
        b += struct.pack(bo + "Q", 0xffffffff81000000)
    if st & S_TID:
        b += struct.pack(bo + "II", pid, tid)
    if st & S_TIME:
        b += struct.pack(bo + "Q", t)
    if st & S_ID:
        b += struct.pack(bo + "Q", ident)
    if st & S_CPU:
        b += struct.pack(bo + "II", cpu, 0)
    if st & S_PERIOD:
        b += struct.pack(bo + "Q", 1)
    if st & S_READ:
        if group:
            b += struct.pack(bo + "QQQ", 2, 10, 20)  # nr, then value per member
        else:
            b += struct.pack(bo + "Q", 7)
    if st & S_CALLCHAIN:
        b += struct.pack(bo + "Q", chain) + b"".join(
            struct.pack(bo + "Q", 0xffffffff81000000 + i) for i in range(chain))
    if st & S_RAW:
        n = len(raw) + 4
        pad = (8 - n % 8) % 8
        b += struct.pack(bo + "I", len(raw) + pad) + raw + bytes(pad)
    return record(bo, 9, b)


def raw_record(bo, eid, pid):
    return struct.pack(bo + "HBBi", eid, 0, 1, pid) + b"\x05\x00\x00\x00"


TRACING = b"\x17\x08\x44tracing0.6\x00\x00\x08" + struct.pack("<I", 4096) + b"header_page\x00"


def data_records(bo, st, rf, ids, group=False, chain=0):
    recs = []
    recs.append(record(bo, 3, struct.pack(bo + "II", 100, 100) + b"worker\x00\x00"))
    for i in range(6):
        ident = ids[i % len(ids)]
        recs.append(sample(bo, st, rf, ident, 100 + i, 100 + i, 1000 + 10 * i, i % 2,
                           raw_record(bo, 300 + i % 2, 100 + i), chain, group))
    recs.append(record(bo, 2, struct.pack(bo + "QQ", ids[0], 3)))
    recs.append(record(bo, 68, b""))
    return b"".join(recs)


def file_mode(bo, st, rf=0, group=False, chain=0):
    ids = [11, 12]
    attrs = [attr(bo, 300, st, rf), attr(bo, 301, st, rf)]
    data = data_records(bo, st, rf, ids, group, chain)
    desc = event_desc(bo, attrs, ["sched:sched_switch", "sched:sched_wakeup"], ids)
    return file_layout(bo, attrs, [[i] for i in ids], data, [(1, TRACING), (12, desc)])


def pipe_mode(bo, st, rf=0, group=False, chain=0):
    ids = [21, 22]
    out = pipe_header(bo)
    for k, i in enumerate(ids):
        out += pipe_attr(bo, attr(bo, 300 + k, st, rf), [i])
    for k, i in enumerate(ids):
        out += pipe_name(bo, i, ["sched:sched_switch", "sched:sched_wakeup"][k])
    out += pipe_tracing(bo, TRACING, extra_word=True)
    return out + data_records(bo, st, rf, ids, group, chain)


def main():
    os.makedirs(OUT, exist_ok=True)
    base = S_IDENT | S_IP | S_TID | S_TIME | S_ID | S_CPU | S_PERIOD | S_RAW
    seeds = {
        "file-le": file_mode("<", base),
        "file-be": file_mode(">", base),
        "file-le-read-chain": file_mode("<", base | S_READ | S_CALLCHAIN, 0, False, 3),
        "file-le-group": file_mode("<", base | S_READ, 8, True),
        "file-le-id-in-place": file_mode("<", base & ~S_IDENT),
        "pipe-le": pipe_mode("<", base),
        "pipe-be": pipe_mode(">", base),
        "pipe-le-chain": pipe_mode("<", base | S_CALLCHAIN, 0, False, 2),
    }
    for name, blob in seeds.items():
        with open(os.path.join(OUT, "hand-" + name), "wb") as f:
            f.write(blob)


main()
