#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Recipe of the seeds in corpus/eventheader-tracefs, the input of fuzz-eventheader-tracefs.c:
# a flags byte (bit 0 big-endian, bit 1 4-byte long, bits 2-3 signed: 1/0/none, bit 4 spaced
# layout), the field's offset and size (u16 little-endian), its normalised type string and a
# NUL, then the record. The sched_switch record is the first sample of the corpus perf.data
# (shared/corpus/eventheader); the others are written here by hand. Run from this directory:
#   python3 make-eht-seeds.py
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "eventheader-tracefs")

SCHED_SWITCH = bytes.fromhex(
    "870101035009000070657266000000000000000000000000500900007800000002000000000000"
    "006d6967726174696f6e2f300000000000110000000000000000000000")


def seed(fname, flags, offset, size, typ, rec):
    with open(os.path.join(OUT, fname), "wb") as f:
        f.write(bytes([flags]) + struct.pack("<HH", offset, size) + typ.encode() + b"\0" + rec)


def main():
    os.makedirs(OUT, exist_ok=True)
    seed("sched-comm", 0x04, 8, 16, "char[16]", SCHED_SWITCH)
    seed("sched-pid", 0x00, 24, 4, "pid_t", SCHED_SWITCH)
    seed("sched-state", 0x00, 32, 8, "long", SCHED_SWITCH)
    common = bytes(8)
    # __data_loc char[] at 8: 6 bytes at 16
    rec = common + struct.pack("<I", 6 << 16 | 16) + bytes(4) + b"hello\0"
    seed("data-loc-string", 0x04, 8, 4, "__data_loc char[]", rec)
    # __rel_loc u32[] at 8, big-endian: 12 bytes 4 after the field's end
    rec = common + struct.pack(">I", 12 << 16 | 4) + bytes(4) + struct.pack(">III", 1, 2, 3)
    seed("rel-loc-u32-be", 0x11, 8, 4, "__rel_loc u32[]", rec)
    # the 2-byte form: an offset to a NUL-terminated string
    rec = common[:6] + struct.pack("<H", 8) + b"abc\0"
    seed("data-loc-2", 0x04, 6, 2, "__data_loc char[]", rec)
    # arrays: unsigned long[3] cut short, pid_t[2], struct bytes
    seed("ulong-array-cut", 0x12, 8, 24, "unsigned long[3]", common + bytes(range(1, 11)))
    seed("pid-array", 0x00, 0, 8, "pid_t[2]", struct.pack("<ii", -1, 7))
    seed("struct", 0x04, 2, 5, "struct foo", bytes(range(9)))
    seed("attribute-ptr", 0x00, 0, 8, "char __attribute__((user)) *", bytes(range(8)))
    seed("rest-of-record", 0x04, 4, 0, "u8[]", bytes(range(12)))


if __name__ == "__main__":
    main()
