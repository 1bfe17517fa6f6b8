#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Recipe of the seeds in corpus/ust-eventheader, the input of fuzz-ust-eventheader.c: byte 0
# picks a fixed description of the harness (below 0x80: 0 every, 1 text, 2 many, 3 deep,
# 4 deeper, 5 fixed, 6 empty) or one built from the bytes after byte 1 (0x80 and up), byte 1
# the scratch buffer (0 the payload's size, 1 none, 2 one byte short, 3 larger), then the
# payload, written here in the inline serializer's layout (include/tracekit/tracepoint.h:
# host order, packed; a u32 length before counted text, blobs and sequences, a u32 count with
# the 0 unit before wide text), little-endian. Valid payloads of each description, and
# damaged ones: cut short at every field, lengths past the end, wide text without its 0
# unit or with one inside, bytes left over, counts over 65535. Run from this directory:
#   python3 make-ust-eh-seeds.py
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "ust-eventheader")

(INT, FLOAT, BOOL, STRING, COUNTED, BLOB, ARRAY, SEQUENCE, ENUM, STRUCT, WSTRING) = range(1, 12)
SIZES = [1, 2, 4, 8, 0, 3, 16, 255]  # the harness's size table


def z(s):
    return s.encode("latin-1") + b"\0"


def counted(units, fmt="B"):
    return struct.pack("<I", len(units)) + b"".join(struct.pack("<" + fmt, u) for u in units)


def wide(text, fmt):
    units = [ord(c) for c in text] + [0]
    return counted(units, fmt)


def point(x, y):
    return struct.pack("<ii", x, y)


def every(i):
    p = struct.pack("<bhIqIQiQiqIH", -i, 300 * i, i, -(i << 40), 0xDEADBEEF, 0x7F0000001000, 2,
                    1700000000000000000, 4242, 86400 * i, 0x1401A8C0, 8080)
    p += struct.pack("<fdBBh", 0.5, -1e6, i & 1, i % 12, -i)
    p += bytes(range(16)) + bytes(15) + b"\1" + bytes(range(255, 239, -1))
    p += z("thread 0 event %d" % i) + z("caf\xe9") + b"\xef\xbb\xbfbom\0" + z("<x/>") + z("[1]")
    p += counted(list(b"counted"[: i % 8]))
    p += wide("ab\u00e9" [: i % 4], "H") + wide("\U0001F600x"[: i % 3], "I")
    p += counted([0x41, 0x42][: i % 3], "H") + counted([0x1F600][: i % 2], "I")
    p += counted([1, 2, 3, 4, 5][: i % 6])
    p += struct.pack("<hhh", -i, 2 * i, 5)
    p += counted([1000 * i + k for k in range(i % 9)], "I") + counted([], "b")
    p += point(-7, 9) + point(3, -4) + z("label")
    return p + b"\x7f"


def text(i):
    return (z("s" * i) + counted(list(b"xy")) + wide("h\u00e9", "H") + wide("\U0010FFFF", "I")
            + counted([0xD800, 0x41], "H") + counted([0x1F600, 0], "I") + counted([0, 255]) + z(""))


def many():
    # a..p then A..P: seq16, blob, c8, port, seq64, w16, c32, port, seq8, blob, c8, port,
    # seq32, z, c16, port
    return 2 * (counted([1, 2], "H") + counted([9]) + counted(list(b"abc")) + struct.pack("<H", 80)
            + counted([-1, 1 << 40], "q") + wide("wide", "H") + counted([0x1F600], "I")
            + struct.pack("<H", 443) + counted([5, 6, 7]) + counted([]) + counted(list(b"k"))
            + struct.pack("<H", 22) + counted([7, 8], "I") + z("n") + counted([0x263A], "H")
            + struct.pack("<H", 53))


def nest(levels, i):
    # nK: seq16 "n", in (n(K-1) ... point), string "s"
    if levels == 0:
        return point(i, -i)
    return counted([levels] * (levels % 3), "H") + nest(levels - 1, i) + z("l%d" % levels)


def fixed():
    return struct.pack("<B5Iiid", 1, 1, 2, 3, 4, 5, -1, 1, 2.5)


def seed(name, pick, scratch, payload):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(bytes([pick, scratch]) + payload)


def field(kind, fmt=0, size=None, signed=0, name=0, array16=None, reuse=None):
    """The two bytes (k, c) of one field of a built description, as the harness reads them
    (size: an index in SIZES, None for any), then the struct's index when it reuses one."""
    k = next(k for k in range(256) if k % 13 == kind and (k >> 4) % 5 == name
             and (k >> 7) & 1 == signed)
    c = next(c for c in range(256) if c % 17 == fmt and (size is None or (c >> 5) & 7 == size)
             and (array16 is None or (c & 0x10 != 0) == bool(array16)) and (c & 1) == (reuse is not None))
    return bytes([k, c]) + (bytes([reuse]) if reuse is not None else b"")


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if not f.startswith("crash-"):
            os.remove(os.path.join(OUT, f))
    # valid payloads of each fixed description, with each kind of scratch buffer
    for i in range(4):
        seed("every-%d" % i, 0, i, every(i + 3))
    seed("text-0", 1, 0, text(0))
    seed("text-5", 1, 3, text(5))
    seed("many-0", 2, 0, many())
    seed("many-short-scratch", 2, 2, many())
    seed("many-no-scratch", 2, 1, many())
    seed("deep", 3, 0, nest(7, 1) + b"\1")
    seed("deeper", 4, 0, nest(8, 2) + b"\2")
    seed("fixed", 5, 0, fixed())
    seed("empty", 6, 0, b"")
    seed("empty-extra", 6, 0, b"\0")
    # damaged payloads: cut at every 7th byte, a byte left over
    ev = every(4)
    for n in range(0, len(ev), 7):
        seed("every-cut-%03d" % n, 0, 0, ev[:n])
    seed("every-extra", 0, 0, ev + b"\0")
    t = text(1)
    for n in range(0, len(t)):
        seed("text-cut-%02d" % n, 1, 0, t[:n])
    # lengths past the end; wide text without its 0 unit, with one inside, with no unit
    seed("text-len-huge", 1, 0, z("") + struct.pack("<I", 0xFFFFFFFF) + b"ab")
    seed("text-len-over", 1, 0, z("") + struct.pack("<I", 3) + b"ab")
    seed("text-w16-no0", 1, 0, z("") + counted([]) + struct.pack("<IHH", 2, 0x41, 0x42))
    seed("text-w16-inner0", 1, 0, z("") + counted([]) + struct.pack("<IHHH", 3, 0x41, 0, 0)
         + wide("", "I") + counted([], "H") + counted([], "I") + counted([]) + z(""))
    seed("text-w16-count0", 1, 0, z("") + counted([]) + struct.pack("<I", 0))
    seed("text-w32-odd", 1, 0, z("") + counted([]) + wide("", "H") + struct.pack("<I", 1) + b"\0\0")
    seed("text-no-nul", 1, 0, b"abc")
    # more than 65535 elements: the count cut to 65535, the rest left out
    seed("text-blob-70000", 1, 3, z("") + counted([]) + wide("", "H") + wide("", "I")
         + counted([], "H") + counted([], "I") + counted([7] * 65600) + z("end"))
    seed("many-seq-huge", 2, 0, counted([0] * 32000, "H") + many()[4 + 4:])
    # built descriptions (0x80 and up): a struct of int, string, seq16, w16, a nested struct
    # of counted text, then its payload
    desc = bytes([5]) + field(INT, size=2) + field(STRING, size=4) + field(SEQUENCE, size=1)
    desc += field(WSTRING, size=1) + field(STRUCT, size=4) + bytes([1]) + field(COUNTED, size=0)
    pay = struct.pack("<i", -5) + z("hi") + counted([1, 2], "H") + wide("w", "H")
    pay += counted(list(b"in"))
    seed("built-valid", 0x80, 0, desc + pay)
    seed("built-cut", 0x81, 0, desc + pay[:-1])
    # a struct that holds itself (the depth limits end the walk), odd sizes, wide arrays
    seed("built-cycle", 0x82, 0, bytes([2]) + field(INT, size=0) + field(STRUCT, reuse=0)
         + b"\1" * 64)
    seed("built-odd", 0x83, 0, bytes([6]) + field(INT, size=5) + field(ARRAY, size=7, array16=0)
         + bytes([39]) + field(ARRAY, fmt=7, size=0, array16=1) + field(ENUM, size=3)
         + field(BOOL, size=6) + field(12, size=0) + bytes(range(200)))
    seed("built-names", 0x84, 0, bytes([3]) + field(INT, size=0, name=2)
         + field(INT, size=0, name=3) + field(FLOAT, size=1, signed=1, name=4) + bytes(10))
    seed("built-wide4", 0x85, 0, bytes([2]) + field(WSTRING, size=2) + field(COUNTED, size=2)
         + wide("\U0001F600", "I") + counted([0x41, 0x42], "I"))


if __name__ == "__main__":
    main()
