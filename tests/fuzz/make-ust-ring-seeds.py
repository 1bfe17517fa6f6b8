#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Recipe of the seeds in corpus/ust-ring, the input of fuzz-ust-ring.c: ring files as
# libtracekit-ust leaves them in TRACEKIT_UST_SHM_DIR (src/ust/ust-ring.h: a 4256-byte header,
# then the sub-buffers, each a CTF packet with the 92-byte header and context of ust-priv.h),
# written here from that layout with two 4 KiB sub-buffers, and a stream file. Run from this
# directory:
#   python3 make-ust-ring-seeds.py
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "ust-ring")
UUID = bytes(range(0x10, 0x20))
HEADER = 160 + 4096
SUBBUF = 4096
INSTANCE = 1234 << 32 | 1


def header(order="<", count=2, size=SUBBUF, data_off=HEADER, magic=b"TKUSTRNG",
           stream=b"channel0_1234_1", trace=b"/tmp/trace"):
    h = magic + struct.pack(order + "IIIIQQiiQ", 1, 0x01020304, data_off, count, size,
                            INSTANCE, 1234, 1235, 99)
    h += UUID + bytes(16)
    h += stream.ljust(64, b"\0") + struct.pack(order + "Q", 100) + trace.ljust(4096, b"\0")
    assert len(h) == HEADER
    return h + bytes(data_off - HEADER)


def packet(seq, events, order="<", closed=True, room=SUBBUF, uuid=UUID):
    # an event: 16-bit ID, 32-bit time, then a u32 payload
    body = b"".join(struct.pack(order + "HII", 0, 100 + i, i) for i in range(events))
    size = (92 + len(body)) * 8
    p = struct.pack(order + "I", 0xC1FC1FC1) + uuid + struct.pack(
        order + "IQQQQQQQIii", 0, INSTANCE, 100, 100 + events, size, size if closed else 0,
        seq, 0, 0, 1234, 1235)
    assert len(p) == 92
    return (p + body).ljust(room, b"\0")


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    write("two-closed", header() + packet(5, 10) + packet(4, 3))
    write("one-open", header() + packet(6, 10) + packet(7, 2, closed=False))
    write("unused", header() + bytes(2 * SUBBUF))
    write("big-endian", header(">") + packet(0, 4, ">") + packet(1, 4, ">"))
    write("truncated", (header() + packet(0, 1) + packet(1, 1))[:HEADER + SUBBUF + 100])
    bad = bytearray(header() + packet(0, 1) + packet(1, 1))
    struct.pack_into("<Q", bad, HEADER + 56, 1 << 40)
    write("packet-size-beyond", bytes(bad))
    write("other-uuid", header() + packet(0, 1) + packet(1, 1, uuid=bytes(16)))
    write("same-seq", header() + packet(3, 1) + packet(3, 2))
    write("bad-magic", header(magic=b"TKUSTRNX") + packet(0, 1) + packet(1, 1))
    write("stream-name", header(stream=b"../x") + packet(0, 1) + packet(1, 1))
    # a stream file: whole packets, the last cut short
    whole = packet(0, 3)[:92 + 30] + packet(1, 2)[:92 + 20]
    write("stream-file", whole + packet(2, 5)[:100])


if __name__ == "__main__":
    main()
