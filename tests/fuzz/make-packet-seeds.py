#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Recipe of the seeds in corpus/ctf-packet: small traces in the input layout of
# fuzz-ctf-packet.c (u32 LE metadata length, metadata, u32 LE length of stream 0, stream 0,
# stream 1). hand-le and hand-be are written here byte by byte; given the path of the
# project's trace generator, the script also packs small gen-ctf traces (every layout, both
# byte orders, lost events, a single stream) into gen-* seeds, and copies gen-ctf metadata
# (each layout, and one packetized file) into corpus/ctf-metadata, so the fuzzers start from
# the layouts real tracers write. fixed-le and fixed-be are two small packets of
# tests/interop/ctf-fixed.py's traces (fixed-layout bodies the printer reads where they lie,
# in both byte orders). crash-* seeds are fuzzer findings, rebuilt small by hand.
# Run from this directory:
#   python3 make-packet-seeds.py [../../build/tests/tools/gen-ctf]
import os
import struct
import subprocess
import sys
import tempfile

META_LE = b"""/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := u8;
typealias integer { size = 16; align = 8; signed = false; } := u16;
typealias integer { size = 32; align = 8; signed = false; } := u32;
typealias integer { size = 64; align = 8; signed = false; } := u64;
trace { major = 1; minor = 8; byte_order = %s;
	packet.header := struct { u32 magic; u8 stream_id; u8 stream_instance_id; }; };
env { hostname = "seed"; domain = "ust"; vpid = 7; procname = "p"; };
clock { name = c; freq = 1000000; offset_s = 1000; offset = 1500000; };
typealias integer { size = 32; align = 8; signed = false; map = clock.c.value; } := ts32;
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts64;
stream {
	packet.context := struct { u32 content_size; u32 packet_size; ts64 timestamp_begin;
		ts64 timestamp_end; u32 events_discarded; u16 packet_seq_num; u8 cpu_id; };
	event.header := struct { u8 id; ts32 timestamp; };
	event.context := struct { integer { size = 16; align = 8; signed = true; } _tid; };
};
event { name = "a"; id = 1; loglevel = 4; fields := struct {
	string s; u16 n; enum : u8 { X, Y = 3 ... 9, Z } e;
	integer { size = 3; align = 1; signed = true; } b3;
	integer { size = 13; align = 1; base = 16; } b13; }; };
event { name = "b"; id = 2; fields := struct {
	u8 __len; integer { size = 32; align = 8; signed = true; } _v[__len];
	floating_point { exp_dig = 11; mant_dig = 53; align = 8; } d;
	u8 __tl; integer { size = 8; align = 8; encoding = UTF8; } _t[__tl];
	enum : u8 { A, B } tag; variant <tag> { u16 A; string B; } var; }; };
"""


def pack_bits(fields, order):
    """fields: list of (value, bits); returns bytes (bit-packed, CTF layout)."""
    total = sum(b for _, b in fields)
    out = bytearray((total + 7) // 8)
    pos = 0
    for value, bits in fields:
        value &= (1 << bits) - 1
        for i in range(bits):
            bit = (value >> i) & 1 if order == "le" else (value >> (bits - 1 - i)) & 1
            byte, off = divmod(pos + i, 8)
            if order == "le":
                out[byte] |= bit << off
            else:
                out[byte] |= bit << (7 - off)
        pos += bits
    return bytes(out)


def packet(order, sid, seq, t0, events, discarded, size=256):
    e = "<" if order == "le" else ">"
    body = b""
    t = t0
    for ev in events:
        t += 5
        body += struct.pack(e + "BIh", ev[0], t & 0xffffffff, -3)
        body += ev[1]
    hdr_len = 4 + 2 + 4 + 4 + 8 + 8 + 4 + 2 + 1
    content = hdr_len + len(body)
    size = max(size, content)
    head = struct.pack(e + "IBBIIQQIHB", 0xC1FC1FC1, 0, sid, content * 8, size * 8, t0, t,
                       discarded, seq, sid)
    return (head + body).ljust(size, b"\0")


def ev_a(order, s, n, e, b3, b13):
    fmt = "<" if order == "le" else ">"
    return (1, s + b"\0" + struct.pack(fmt + "HB", n, e) + pack_bits([(b3, 3), (b13, 13)], order))


def ev_b(order, vals, d, text, tag):
    fmt = "<" if order == "le" else ">"
    data = struct.pack("B", len(vals)) + b"".join(struct.pack(fmt + "i", v) for v in vals)
    pad = (-(1 + 4 * len(vals))) % 8  # the double is 8-byte aligned in the packet
    # position of the event payload start varies; seeds only need to be plausible
    data += b"\0" * 0 + struct.pack(fmt + "d", d) + struct.pack("B", len(text)) + text
    data += struct.pack("B", tag) + (struct.pack(fmt + "H", 77) if tag == 0 else b"hi\0")
    return (2, data)


def seed(order, name):
    meta = META_LE % order.encode()
    s0 = packet(order, 0, 0, 100, [ev_a(order, b"hello", 1, 4, -2, 0x1abc),
                                    ev_a(order, b"", 2, 12, 3, 5)], 0)
    s0 += packet(order, 0, 2, 300, [ev_a(order, b"\t'q'?\\", 3, 0, 1, 1)], 4)
    s1 = packet(order, 1, 0, 150, [ev_b(order, [1, -2, 3], 2.5, b"txt", 0),
                                    ev_b(order, [], -0.0, b"", 1)], 0)
    data = struct.pack("<I", len(meta)) + meta + struct.pack("<I", len(s0)) + s0 + s1
    with open("corpus/ctf-packet/" + name, "wb") as f:
        f.write(data)


# gen-ctf traces packed as seeds: (name, gen-ctf options). The -S values are picked so that
# no large event grows a packet and each seed stays under 8 KiB.
GEN_PACKET_SEEDS = [
    ("gen-lttng-le", "-l lttng -b le -S 2"),
    ("gen-lttng-be", "-l lttng -b be -S 7"),
    ("gen-compact-le", "-l compact -b le -S 4"),
    ("gen-compact-be", "-l compact -b be -S 4"),
    ("gen-bitfield-le", "-l bitfield -b le -S 2"),
    ("gen-bitfield-be", "-l bitfield -b be -S 2"),
    ("gen-compact-le-lost", "-l compact -b le -S 4 --lost"),
    ("gen-compact-le-1stream", "-l compact -b le -S 12 -s 1 -n 20"),
]
GEN_METADATA_SEEDS = [
    ("gen-lttng.tsdl", "-l lttng -b le"),
    ("gen-compact.tsdl", "-l compact -b le"),
    ("gen-bitfield.tsdl", "-l bitfield -b be"),
    ("gen-compact-be-packetized", "-l compact -b be --packetized-metadata"),
]
SEED_MAX = 8192


def gen_trace(gen_ctf, opts, out):
    """Run gen-ctf: 30 events, 256-byte packets, two streams, unless opts say otherwise."""
    args = [gen_ctf, "-n", "30", "-p", "256", "-s", "2", "--no-index"] + opts.split() + [out]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write_seed(path, data):
    if len(data) > SEED_MAX:
        sys.exit("%s: %d bytes, more than %d: pick another -S" % (path, len(data), SEED_MAX))
    with open(path, "wb") as f:
        f.write(data)
    print("%6d %s" % (len(data), path))


def gen_seeds(gen_ctf):
    with tempfile.TemporaryDirectory() as tmp:
        for name, opts in GEN_PACKET_SEEDS:
            out = os.path.join(tmp, name)
            gen_trace(gen_ctf, opts, out)
            meta = read(os.path.join(out, "metadata"))
            s0 = read(os.path.join(out, "channel0_0"))
            s1 = b""
            if os.path.exists(os.path.join(out, "channel0_1")):
                s1 = read(os.path.join(out, "channel0_1"))
            write_seed("corpus/ctf-packet/" + name, struct.pack("<I", len(meta)) + meta +
                       struct.pack("<I", len(s0)) + s0 + s1)
        for name, opts in GEN_METADATA_SEEDS:
            out = os.path.join(tmp, name)
            gen_trace(gen_ctf, opts, out)
            write_seed("corpus/ctf-metadata/" + name, read(os.path.join(out, "metadata")))


def fixed_seeds():
    script = os.path.join("..", "interop", "ctf-fixed.py")
    with tempfile.TemporaryDirectory() as tmp:
        for order in ("le", "be"):
            out = os.path.join(tmp, order)
            subprocess.run([sys.executable, script, "--narrow", out, order, "5", "1024", "2"],
                           check=True)
            meta = read(os.path.join(out, "metadata"))
            s0 = read(os.path.join(out, "stream_0"))
            write_seed("corpus/ctf-packet/fixed-" + order, struct.pack("<I", len(meta)) + meta +
                       struct.pack("<I", len(s0)) + s0)


def crash_seeds():
    """Inputs that once broke the reader, made small by hand from hand-le."""
    meta = META_LE % b"le"
    streams = read("corpus/ctf-packet/hand-le")[4 + len(meta):]  # u32 length, stream 0, 1
    # a 61-bit hexadecimal field: its print mask was computed with a shift by 64
    hex61 = meta.replace(b"size = 13; align = 1; base = 16; } b13",
                         b"size = 61; align = 1; base = 16; } b13")
    with open("corpus/ctf-packet/crash-hex61-mask-shift", "wb") as f:
        f.write(struct.pack("<I", len(hex61)) + hex61 + streams)
    # metadata and one empty stream: no stream to sort, qsort() was given NULL
    with open("corpus/ctf-packet/crash-empty-stream-qsort", "wb") as f:
        f.write(struct.pack("<I", len(meta)) + meta + struct.pack("<I", 0))
    # no packet header or context, no event header and a class without fields: no value
    # decoded before the first event, whose scopes were set by adding 0 to NULL
    bare = b'/* CTF 1.8 */ trace { major = 1; minor = 8; byte_order = le; };' \
        b' event { name = "e"; };'
    with open("corpus/ctf-packet/crash-no-values-null-scope", "wb") as f:
        f.write(struct.pack("<I", len(bare)) + bare + struct.pack("<I", 4) + b"abcd")


seed("le", "hand-le")
seed("be", "hand-be")
crash_seeds()
fixed_seeds()
if len(sys.argv) > 1:
    gen_seeds(os.path.abspath(sys.argv[1]))
