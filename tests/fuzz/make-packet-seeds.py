#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Recipe of the hand-made seeds in corpus/ctf-packet: small traces in the input layout of
# fuzz-ctf-packet.c (u32 LE metadata length, metadata, u32 LE length of stream 0, stream 0,
# stream 1). Run from this directory: python3 make-packet-seeds.py
import struct

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


seed("le", "hand-le")
seed("be", "hand-be")
