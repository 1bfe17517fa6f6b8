#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Recipe of the seeds in corpus/ftrace-page, in the input layout of fuzz-ftrace-page.c
# (u8 mode: bit 0 big-endian, bit 1 32-bit long, bit 2 page claimed 4096 bytes; then the
# page). hand-* seeds are written here record by record in the four byte-order and long-size
# modes: every small type_len, array-length records, time extend, absolute time stamp,
# discarded events, end-of-page padding, missed-events counts, and records cut by the
# commit. Given the path of the project's trace.dat generator, the script also cuts the
# first pages of small gen-dat files (v6, each mode, lost events) into gen-* seeds, so the
# fuzzer starts from pages shaped like the kernel's. crash-* seeds are fuzzer findings.
# Run from this directory:
#   python3 make-page-seeds.py [../../build/tests/tools/gen-dat]
import os
import struct
import subprocess
import sys
import tempfile

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "ftrace-page")
MODES = {"le64": 0, "be64": 1, "le32": 2, "be32": 3}


class Page:
    def __init__(self, mode, ts, size=4096):
        self.bo = ">" if mode & 1 else "<"
        self.long = 4 if mode & 2 else 8
        self.mode = mode
        self.size = size
        self.buf = bytearray(size)
        struct.pack_into(self.bo + "Q", self.buf, 0, ts)
        self.data = 8 + self.long
        self.pos = self.data

    def u32(self, v):
        struct.pack_into(self.bo + "I", self.buf, self.pos, v & 0xFFFFFFFF)
        self.pos += 4

    def word(self, type_len, delta):
        if self.bo == "<":
            self.u32(type_len | delta << 5)
        else:
            self.u32(type_len << 27 | delta)

    def record(self, delta, n, big=False):
        padded = (n + 3) & ~3
        if padded <= 112 and n and not big:
            self.word(padded // 4, delta)
        else:
            self.word(0, delta)
            self.u32(padded + 4)
        for i in range(n):
            self.buf[self.pos + i] = (0x41 + i) & 0xFF
        self.pos += padded

    def commit(self, flags=0, missed=None, length=None):
        n = (self.pos - self.data if length is None else length) | flags
        fmt = self.bo + ("Q" if self.long == 8 else "I")
        struct.pack_into(fmt, self.buf, 8, n)
        if missed is not None:
            struct.pack_into(fmt, self.buf, self.pos, missed)

    def seed(self, name, cut=None):
        body = bytes(self.buf[:cut] if cut else self.buf)
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(bytes([self.mode]) + body)


def hand_seeds():
    for mname, mode in MODES.items():
        p = Page(mode, 1000)
        for t in range(1, 29):
            p.record(t, t * 4)
        p.commit()
        p.seed("hand-%s-small" % mname)

        p = Page(mode, 1 << 40)
        for n in (1, 5, 113, 200, 1000):
            p.record(3, n, big=True)
        p.word(30, 77)  # time extend
        p.u32(5)
        p.record(1, 8)
        p.word(31, 0x1234)  # absolute time stamp
        p.u32(0xABCDEF)
        p.record(0, 8)
        p.word(29, 4)  # discarded event
        p.u32(12)
        p.pos += 8
        p.record(2, 16)
        room = p.size - p.pos
        p.word(29, 1)  # padding to the end of the page
        p.u32(room - 4)
        p.pos = p.size
        p.commit()
        p.seed("hand-%s-kinds" % mname)

        p = Page(mode, 5)
        p.record(0, 12)
        p.record(9, 40)
        p.commit(flags=3 << 30, missed=4242)
        p.seed("hand-%s-missed" % mname, cut=p.pos + p.long + 16)
        p.commit(flags=1 << 31)
        p.seed("hand-%s-missed-unknown" % mname, cut=p.pos + 16)

        p = Page(mode, 5)
        p.record(1, 8)
        p.word(29, 0)  # null padding: the rest is ignored
        p.record(1, 8)
        p.commit()
        p.seed("hand-%s-null-padding" % mname, cut=p.pos)

        p = Page(mode, 5)
        p.record(1, 8)
        p.record(1, 64)
        p.commit(length=p.pos - p.data - 8)  # the last record runs past the commit
        p.seed("hand-%s-cut" % mname, cut=p.pos)
        # the page claims 4096 bytes but the input stops early
        p.mode |= 4
        p.seed("hand-%s-short-input" % mname, cut=p.pos - 4)


def gen_seeds(gen):
    with tempfile.TemporaryDirectory() as tmp:
        for mname, mode in MODES.items():
            path = os.path.join(tmp, "t.dat")
            args = [gen, "-n", "400", "-c", "1", "-S", str(mode + 11), "--missed",
                    "--file-version", "6", "--byte-order", "be" if mode & 1 else "le",
                    "--long-size", "4" if mode & 2 else "8", path]
            subprocess.run(args, check=True)
            data = open(path, "rb").read()
            bo = ">" if mode & 1 else "<"
            table = data.index(b"flyrecord\0") + 10
            off, size = struct.unpack_from(bo + "QQ", data, table)
            for i in range(min(size // 4096, 3)):
                page = data[off + 4096 * i: off + 4096 * (i + 1)]
                with open(os.path.join(OUT, "gen-%s-%d" % (mname, i)), "wb") as f:
                    f.write(bytes([mode]) + page)


os.makedirs(OUT, exist_ok=True)
hand_seeds()
if len(sys.argv) > 1:
    gen_seeds(sys.argv[1])
