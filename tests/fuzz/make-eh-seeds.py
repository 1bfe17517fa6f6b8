#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Recipe of the seeds in corpus/eventheader, the input of fuzz-eventheader.c: a tracepoint
# name, a NUL, then an EventHeader event written here byte by byte from the layout
# (../../shared/reference/eventheader.md): the 8-byte header, extension blocks (activity IDs,
# metadata: event name, then per field its name, encoding, format, tag, constant count), then
# the payload. One event per group of encodings, both byte orders, arrays of each kind,
# nested structs, and a truncated event. crash-* seeds are fuzzer findings, diff-* ones
# fuzzer inputs on which the JSON once differed from the reference decoder's. Run from this
# directory:
#   python3 make-eh-seeds.py
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "eventheader")

(STRUCT, V8, V16, V32, V64, V128, Z8, Z16, Z32, S8, S16, S32, BIN) = range(1, 14)
CARRAY, VARRAY = 0x20, 0x40


def field(bo, name, enc, fmt=None, tag=None, count=None):
    b = name.encode() + b"\0"
    if fmt is None and tag is None:
        b += bytes([enc])
    else:
        b += bytes([enc | 0x80, (fmt or 0) | (0x80 if tag else 0)])
        if tag:
            b += struct.pack(bo + "H", tag)
    if count is not None:
        b += struct.pack(bo + "H", count)
    return b


def event(bo, level, fields, payload, name="Ev", activity=None, hdr=(0, 0, 0, 0)):
    version, eid, tag, opcode = hdr
    flags = 0x01 | 0x04 | (0x02 if bo == "<" else 0)
    b = struct.pack(bo + "BBHHBB", flags, version, eid, tag, opcode, level)
    if activity is not None:
        b += struct.pack(bo + "HH", len(activity), 0x8002) + activity
    meta = name.encode() + b"\0" + b"".join(fields)
    b += struct.pack(bo + "HH", len(meta), 1) + meta
    return b + payload


def seed(fname, tp, ev):
    with open(os.path.join(OUT, fname), "wb") as f:
        f.write(tp.encode() + b"\0" + ev)


def scalars(bo):
    f = [field(bo, "u8", V8), field(bo, "i8", V8, 2), field(bo, "h16", V16, 3, 0x12),
         field(bo, "b16", V16, 7), field(bo, "port", V16, 16), field(bo, "c16", V16, 11),
         field(bo, "errno", V32, 4), field(bo, "t32", V32, 6), field(bo, "f32", V32, 8),
         field(bo, "ip4", V32, 17), field(bo, "pid", V32, 5), field(bo, "c32", V32, 11),
         field(bo, "i64", V64, 2), field(bo, "t64", V64, 6), field(bo, "f64", V64, 8),
         field(bo, "hb64", V64, 9), field(bo, "uuid", V128, 15), field(bo, "ip6", V128, 18),
         field(bo, "raw", V128)]
    p = struct.pack(bo + "BbHH", 200, -5, 0xBEEF, 1) + struct.pack(">H", 80)  # port: network
    p += struct.pack(bo + "H", 0x263A)
    p += struct.pack(bo + "iifBBBBiI", 2, 2000000000, 3.14, 127, 0, 0, 1, 1234, 0x1F600)
    p += struct.pack(bo + "qqdQ", -9, 86400, 6.28, 0x0102030405060708)
    p += bytes(range(1, 17)) + bytes(15) + b"\1" + bytes(range(16))
    return event(bo, 5, f, p, name="Scalars;k=v", hdr=(3, 1000, 0x1234, 2))


def strings(bo):
    f = [field(bo, "z8", Z8), field(bo, "z16", Z16), field(bo, "z32", Z32),
         field(bo, "s8", S8), field(bo, "s16", S16), field(bo, "s32", S32),
         field(bo, "bin", BIN), field(bo, "latin1", Z8, 10), field(bo, "bom", S8, 12),
         field(bo, "json", Z16, 14), field(bo, "hex", Z32, 9), field(bo, "n0", BIN, 1),
         field(bo, "n4", S8, 8), field(bo, "n2", BIN, 16)]
    u16 = lambda s: s.encode("utf-16-le" if bo == "<" else "utf-16-be")
    u32 = lambda s: b"".join(struct.pack(bo + "I", ord(c)) for c in s)
    p = "h\u00e9\n\"".encode() + b"\0"
    p += u16("ab\U0001F600x") + struct.pack(bo + "H", 0xD800) + b"\0\0"
    p += u32("\U0010FFFF") + struct.pack(bo + "I", 0xFFFEFDFC) + bytes(4)
    p += struct.pack(bo + "H", 3) + b"a\xffb"
    p += struct.pack(bo + "H", 2) + u16("ok")
    p += struct.pack(bo + "H", 1) + u32("Z")
    p += struct.pack(bo + "H", 3) + b"\x01\x02\x03"
    p += b"\xfe\xe9\0"
    p += struct.pack(bo + "H", 5) + b"\xef\xbb\xbfhi"
    p += u16("{}") + b"\0\0"
    p += u32("q") + bytes(4)
    p += struct.pack(bo + "H", 0)
    p += struct.pack(bo + "H", 4) + struct.pack(bo + "f", -0.0)
    p += struct.pack(bo + "H", 2) + b"\x01\xbb"
    return event(bo, 4, f, p, name="Strings")


def arrays(bo):
    f = [field(bo, "c3", V32 | CARRAY, 3, count=3), field(bo, "v0", V8 | VARRAY),
         field(bo, "names", Z8 | VARRAY), field(bo, "pts", STRUCT | VARRAY, 2),
         field(bo, "x", V16), field(bo, "label", S8),
         field(bo, "none", STRUCT | VARRAY, 1), field(bo, "skipped", V8),
         field(bo, "tail", V8, 7)]
    p = struct.pack(bo + "III", 1, 0xFFFFFFFF, 0x80) + struct.pack(bo + "H", 0)
    p += struct.pack(bo + "H", 3) + b"ABC\0\0XYZ\0"
    p += struct.pack(bo + "H", 2)
    p += struct.pack(bo + "H", 7) + struct.pack(bo + "H", 2) + b"p1"
    p += struct.pack(bo + "H", 8) + struct.pack(bo + "H", 0)
    p += struct.pack(bo + "H", 0) + b"\x01"
    return event(bo, 5, f, p, name="Arrays")


def nested(bo):
    f = [field(bo, "outer", STRUCT, 2, 0xBEEF), field(bo, "a", V8),
         field(bo, "mid", STRUCT, 2), field(bo, "inner", STRUCT, 1),
         field(bo, "deep", Z8, tag=0x10), field(bo, "b", V16, 1),
         field(bo, "after", V64, 3)]
    p = b"\x07" + b"deep\0" + struct.pack(bo + "H", 9) + struct.pack(bo + "Q", 42)
    act = bytes(range(1, 17)) + bytes(range(17, 33))
    return event(bo, 3, f, p, name="Nested", activity=act, hdr=(1, 7, 0, 240))


def main():
    os.makedirs(OUT, exist_ok=True)
    for bo, tag in (("<", "le"), (">", "be")):
        seed("hand-scalars-" + tag, "Prov_L5K1", scalars(bo))
        seed("hand-strings-" + tag, "Prov_L4Kf00dGgrp", strings(bo))
        seed("hand-arrays-" + tag, "Prov_L5K0", arrays(bo))
        seed("hand-nested-" + tag, "Other_Prov_L3K8000000000000000Ga1Hb", nested(bo))
    ev = arrays("<")
    seed("hand-truncated", "Prov_L5K0", ev[:-3])
    seed("hand-no-metadata", "Prov_L5K0", struct.pack("<BBHHBB", 3, 0, 0, 0, 0, 5) + b"\1\2")
    seed("hand-bad-name", "NoLevel", ev)


if __name__ == "__main__":
    main()
