#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a small CTF 1.8 trace, by hand, of the values trace.dat formats find hard to show.

Usage: ctf-values.py DIR

One little-endian stream of one packet with three events of class "vals:one": a float, a
double, signed 8 and 16-bit integers, fixed arrays of signed 8/16/32/64-bit integers and of
doubles, and sequences (one length) of signed 8/16/32/64-bit integers and of floats, with
negative values, the extremes, -0.0, infinity, NaN, a subnormal and an empty sequence.
Every value is written here from the literals below, so a test can hold them against what
a reader prints (tests/interop/convert-dat-values.sh).
"""
import os
import struct
import sys

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 8; align = 8; signed = true; } := int8_t;
typealias integer { size = 16; align = 8; signed = true; } := int16_t;
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
typealias integer { size = 64; align = 8; signed = true; } := int64_t;
typealias floating_point { exp_dig = 8; mant_dig = 24; align = 8; } := float;
typealias floating_point { exp_dig = 11; mant_dig = 53; align = 8; } := double;

trace {
	major = 1;
	minor = 8;
	byte_order = le;
	packet.header := struct { uint32_t magic; uint32_t stream_id; };
};

clock {
	name = monotonic;
	freq = 1000000000;
	offset_s = 1700000000;
};

typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := ts_t;

stream {
	id = 0;
	packet.context := struct {
		ts_t timestamp_begin;
		ts_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint32_t cpu_id;
	};
	event.header := struct { uint32_t id; ts_t timestamp; };
};

event {
	name = "vals:one";
	id = 0;
	stream_id = 0;
	fields := struct {
		float f;
		double d;
		int8_t s8;
		int16_t s16;
		int8_t a8[3];
		int16_t a16[2];
		int32_t a32[2];
		int64_t a64[2];
		double ad[2];
		uint32_t n;
		int8_t q8[n];
		int16_t q16[n];
		int32_t q32[n];
		int64_t q64[n];
		float qf[n];
	};
};
"""

INF = float("inf")
NAN = float("nan")

# (timestamp, f, d, s8, s16, a8, a16, a32, a64, ad, q8, q16, q32, q64, qf)
EVENTS = [
    (1000, 1.5, -2.25, -128, -2, [-1, 0, 127], [-32768, 5], [-2147483648, 7],
     [-1, 9223372036854775807], [0.1, -0.0],
     [-5, 6, -128], [-300, 0, 300], [-70000, 1, 2], [-5000000000, 0, 1], [0.5, -1.0, 3.25]),
    (2000, INF, NAN, 127, 32767, [1, 2, 3], [32767, -1], [2147483647, -7],
     [-9223372036854775808, 0], [5e-324, 1e308],
     [], [], [], [], []),
    (3000, -0.0, 0.0, -1, -32768, [-128, -127, -2], [-2, -3], [-4, -5], [-6, -7], [-1.0, 2.0],
     [-1, -2, -3, -4, -5, -6, -7, -8, 9], [-1, 2, -3, 4, -5, 6, -7, 8, -9],
     [-1, 2, -3, 4, -5, 6, -7, 8, -9], [-1, 2, -3, 4, -5, 6, -7, 8, -9],
     [-INF, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, -8.5]),
]


def event(e):
    ts, f, d, s8, s16, a8, a16, a32, a64, ad, q8, q16, q32, q64, qf = e
    n = len(q8)
    b = struct.pack("<IQ", 0, ts)
    b += struct.pack("<fdbh", f, d, s8, s16)
    b += struct.pack("<3b2h2i2q2d", *a8, *a16, *a32, *a64, *ad)
    b += struct.pack("<I", n)
    b += struct.pack("<%db%dh%di%dq%df" % (n, n, n, n, n), *q8, *q16, *q32, *q64, *qf)
    return b


def main():
    out = sys.argv[1]
    os.makedirs(out)
    with open(os.path.join(out, "metadata"), "w") as m:
        m.write(METADATA)
    body = b"".join(event(e) for e in EVENTS)
    head_size = 8 + 36
    size = head_size + len(body)
    head = struct.pack("<II", 0xC1FC1FC1, 0)
    head += struct.pack("<QQQQI", EVENTS[0][0], EVENTS[-1][0], size * 8, size * 8, 0)
    with open(os.path.join(out, "stream_0"), "wb") as s:
        s.write(head + body)


main()
