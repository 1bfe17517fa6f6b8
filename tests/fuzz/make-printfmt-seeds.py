#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Recipe of the fast-*.seed files in corpus/printfmt, in the input layout of fuzz-printfmt.c
# (a mode byte, the format text, a NUL, the record): print fmts of the shapes the fast plans
# of src/ftrace/printfmt-fast.c take over from the general path, written by hand. Each comes
# with records that reach every branch: flags none / some / with bits left over, a negative
# and a positive zero-padded number, a symbol found and not, a pointer of 0, an empty and a
# cut string, a record cut short. The harness prints each both ways and traps on a
# difference. The other seeds of the directory are fuzzer finds and hand-written inputs.
# Run from this directory:  python3 make-printfmt-seeds.py
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "printfmt")

FIELDS = [
    ("unsigned short common_type", 0, 2, 0),
    ("unsigned char common_flags", 2, 1, 0),
    ("unsigned char common_preempt_count", 3, 1, 0),
    ("int common_pid", 4, 4, 1),
    (None, 0, 0, 0),
    ("unsigned long call_site", 8, 8, 0),
    ("const void * ptr", 16, 8, 0),
    ("__data_loc char[] name", 24, 4, 0),
    ("int node", 28, 4, 1),
    ("unsigned long gfp_flags", 32, 8, 0),
    ("char comm[16]", 40, 16, 0),
    ("unsigned short mode", 56, 2, 0),
]

PRINT = (
    '"site=%pS at=%ps p=%p name=%s gfp=%s node=%03d acc=%s x=%08lx X=%04X o=%o w=%080x '
    'dev=%d:%d comm=%s sym=%s m=%u wide=%-5d k=%d"'
    ", (void *)REC->call_site, REC->call_site, REC->ptr, __get_str(name), "
    "(REC->gfp_flags) ? __print_flags(REC->gfp_flags, \"|\", "
    "{( unsigned long)((((1UL))) << (10))|((((1UL))) << (11)), \"RECLAIM\"}, "
    "{( unsigned long)(((1UL)) << (0)), \"DMA\"}, {( unsigned long)(((1UL)) << (1)), \"HIGH\"}, "
    "{( unsigned long)(((1UL)) << (22)), \"ACCOUNT\"}) : \"none\", "
    "REC->node, (1 && (REC->gfp_flags & ( unsigned long)(((1UL)) << (22)))) ? \"true\" : \"false\", "
    "((unsigned long)(REC->gfp_flags)), REC->mode, REC->mode, REC->node, "
    "((unsigned int) ((REC->gfp_flags) >> 20)), ((unsigned int) ((REC->gfp_flags) & ((1U << 20) - 1))), "
    "REC->comm, __print_symbolic(REC->node, { 0, \"ZERO\" }, { 1, \"ONE\" }, { -1, \"MINUS\" }), "
    "REC->mode > 3 ? REC->mode : 0, REC->node, (0 ? 3 : REC->node)"
)


def format_text(name):
    lines = ["name: %s" % name, "ID: 42", "format:"]
    for decl, off, size, signed in FIELDS:
        if decl is None:
            lines.append("")
            continue
        lines.append("\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;" % (decl, off, size, signed))
    lines += ["", "print fmt: " + PRINT, ""]
    return "\n".join(lines).encode()


def record(order, call_site, ptr, name, node, gfp, comm, mode):
    body = bytearray(64)
    struct.pack_into(order + "HBBi", body, 0, 42, 0, 0, 1234)
    struct.pack_into(order + "QQ", body, 8, call_site, ptr)
    loc = (len(name) + 1) << 16 | 64
    struct.pack_into(order + "Ii", body, 24, loc, node)
    struct.pack_into(order + "Q", body, 32, gfp)
    body[40:40 + len(comm)] = comm
    struct.pack_into(order + "H", body, 56, mode)
    return bytes(body) + name + b"\0"


RECORDS = [
    (0xFFFFFFFF81000123, 0xFFFF888100CFC000, b"names_cache", 7, 0xC00, b"sh", 2),
    (0xFFFFFFFF81000300, 0, b"", -5, 0, b"a-sixteen-chars!", 77),
    (0x1234, 0xDEAD, b"kmalloc-64", 1, 0x400003 | 0x8000000, b"", 0xFFFF),
    (0xFFFFFFFF81000200, 1, b"x", -1, 0xFFFFFFFFFFFFFFFF, b"ksoftirqd/0", 4),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    n = 0
    # mode: system 0 ("test", no plugin) or 4 ("kmem": the call-site handler runs first);
    # 0x80 big-endian, 0x40 long size 4
    for mode, order in ((0x00, "<"), (0x04, "<"), (0x80, ">"), (0x40, "<")):
        for i, r in enumerate(RECORDS):
            rec = record(order, *r)
            if i == 3:
                rec = rec[:50]  # cut inside comm: fields past the end read as 0
            data = bytes([mode]) + format_text("kmem_cache_alloc") + b"\0" + rec
            with open(os.path.join(OUT, "fast-%02d.seed" % n), "wb") as f:
                f.write(data)
            n += 1
    print("%d seeds in %s" % (n, OUT))


if __name__ == "__main__":
    main()
