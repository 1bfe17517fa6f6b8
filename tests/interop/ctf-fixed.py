#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a CTF 1.8 trace of event classes with fixed layouts, the bodies a printer may read
where they lie instead of decoding them first (tk_event.body, plan_fuse()).

Usage: ctf-fixed.py [--narrow] DIR le|be [SEED [PACKET-SIZE [PACKETS]]]

One stream, PACKETS packets (120: the text passes the printer's 1 MiB buffer) of
PACKET-SIZE bytes (4096), events of these classes in a seeded random order:
  fx:ints     integers of 8, 16, 32 and 64 bits, signed and unsigned, in bases 10, 16, 8 and 2,
              some in the byte order opposite to the trace's
  fx:misc     a signed and an unsigned enumeration, a float and a double (one in the other
              byte order), a text array of 8 bytes (full, cut by a NUL, with escapes;
              never empty, as babeltrace2 2.0 may print an empty one as the text before,
              stale-empty.py), a field mapped to the clock (hidden by babeltrace2), a field
              after it, and a text array of 100 bytes holding 88 to 100 (around the length
              up to which a print plan escapes a string in place)
  fx:arr      a fixed array of integers (a fixed layout the fused plan does not take)
  fx:bits     bit fields (a fixed layout that is not whole bytes: never read where it lies)
  fx:align64  a field aligned to 64 bits, so the body sometimes starts unaligned (decoded by
              the general program then)
  fx:empty    no payload (only the stream's event context)
  fx:wide     150 64-bit integers in every base: lines of about 9 KiB, more than a print
              plan writes between two checks of room (plan_layout())
  fx:warr     a fixed array of 300 64-bit integers (a loop that checks room as it goes)
With --narrow, no fx:wide and fx:warr (small fuzzing seeds, make-packet-seeds.py).
Every event has the stream event context { int32 vtid }. Values include 0, -1 and each
size's extremes. The expected text is babeltrace2's (tests/interop/ctf-fixed.sh).
"""
import os
import random
import struct
import sys

OTHER = {"le": "be", "be": "le"}


WIDE = 150


def metadata(bo, narrow):
    ob = OTHER[bo]
    wide = "\n".join("\t\tinteger {{ size = 64; align = 8; signed = {}; base = {}; }} w{};"
                     .format("true" if k % 3 == 0 else "false", (2, 8, 10, 16)[k % 4], k)
                     for k in range(WIDE))
    text = f"""/* CTF 1.8 */
typealias integer {{ size = 8; align = 8; signed = false; }} := uint8_t;
typealias integer {{ size = 16; align = 8; signed = false; }} := uint16_t;
typealias integer {{ size = 32; align = 8; signed = false; }} := uint32_t;
typealias integer {{ size = 64; align = 8; signed = false; }} := uint64_t;
typealias integer {{ size = 64; align = 8; signed = false; map = clock.mono.value; }} := clk64_t;

trace {{
	major = 1;
	minor = 8;
	byte_order = {bo};
	packet.header := struct {{ uint32_t magic; uint32_t stream_id; }};
}};

env {{
	hostname = "fixhost";
	domain = "ust";
	procname = "fixproc";
	vpid = 77;
}};

clock {{
	name = mono;
	freq = 1000000000;
	offset_s = 1700000000;
}};

stream {{
	id = 0;
	packet.context := struct {{
		clk64_t timestamp_begin;
		clk64_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint32_t cpu_id;
	}};
	event.header := struct {{ uint32_t id; clk64_t timestamp; }};
	event.context := struct {{
		integer {{ size = 32; align = 8; signed = true; }} _vtid;
	}};
}};

event {{
	name = "fx:ints";
	id = 0;
	stream_id = 0;
	fields := struct {{
		integer {{ size = 8; align = 8; signed = false; }} u8;
		integer {{ size = 8; align = 8; signed = true; }} s8;
		integer {{ size = 16; align = 8; signed = false; }} u16;
		integer {{ size = 16; align = 8; signed = true; byte_order = {ob}; }} s16;
		integer {{ size = 32; align = 8; signed = false; byte_order = {ob}; }} u32;
		integer {{ size = 32; align = 8; signed = true; }} s32;
		integer {{ size = 64; align = 8; signed = false; }} u64;
		integer {{ size = 64; align = 8; signed = true; byte_order = {ob}; }} s64;
		integer {{ size = 8; align = 8; signed = false; base = 16; }} x8;
		integer {{ size = 8; align = 8; signed = true; base = 16; }} sx8;
		integer {{ size = 16; align = 8; signed = true; base = 16; byte_order = {ob}; }} sx16;
		integer {{ size = 16; align = 8; signed = false; base = 16; }} x16;
		integer {{ size = 32; align = 8; signed = true; base = 16; }} sx32;
		integer {{ size = 32; align = 8; signed = false; base = 16; byte_order = {ob}; }} x32;
		integer {{ size = 64; align = 8; signed = true; base = 16; }} sx64;
		integer {{ size = 64; align = 8; signed = false; base = 16; byte_order = {ob}; }} x64;
		integer {{ size = 8; align = 8; signed = true; base = 8; }} so8;
		integer {{ size = 16; align = 8; signed = false; base = 8; byte_order = {ob}; }} o16;
		integer {{ size = 32; align = 8; signed = true; base = 8; }} so32;
		integer {{ size = 64; align = 8; signed = false; base = 8; }} o64;
		integer {{ size = 8; align = 8; signed = false; base = 2; }} b8;
		integer {{ size = 16; align = 8; signed = true; base = 2; byte_order = {ob}; }} sb16;
	}};
}};

event {{
	name = "fx:misc";
	id = 1;
	stream_id = 0;
	loglevel = 4;
	fields := struct {{
		enum : integer {{ size = 32; align = 8; signed = true; }} {{
			"ZERO" = 0, "LOW" = 1 ... 5, "NEG" = -10 ... -1, "OVER" = 3 ... 8,
			"BIG" = 100000,
		}} state;
		enum : integer {{ size = 8; align = 8; signed = false; byte_order = {ob}; }} {{
			IDLE, RUN, "ST\\"OP" = 7 ... 9,
		}} phase;
		floating_point {{ exp_dig = 8; mant_dig = 24; align = 8; }} f;
		floating_point {{ exp_dig = 11; mant_dig = 53; align = 8; byte_order = {ob}; }} d;
		integer {{ size = 8; align = 8; signed = true; encoding = UTF8; }} tag[8];
		clk64_t when;
		integer {{ size = 16; align = 8; signed = false; }} after;
		integer {{ size = 8; align = 8; signed = false; encoding = UTF8; }} note[100];
	}};
}};

event {{
	name = "fx:arr";
	id = 2;
	stream_id = 0;
	fields := struct {{
		integer {{ size = 16; align = 8; signed = false; base = 16; }} vals[3];
		uint32_t tail;
	}};
}};

event {{
	name = "fx:bits";
	id = 3;
	stream_id = 0;
	fields := struct {{
		integer {{ size = 3; align = 1; signed = false; }} a;
		integer {{ size = 5; align = 1; signed = true; }} b;
		integer {{ size = 16; align = 8; signed = false; }} c;
	}};
}};

event {{
	name = "fx:align64";
	id = 4;
	stream_id = 0;
	fields := struct {{
		integer {{ size = 64; align = 64; signed = true; }} wide;
		uint8_t small;
	}};
}};

event {{
	name = "fx:empty";
	id = 5;
	stream_id = 0;
	fields := struct {{ }};
}};

event {{
	name = "fx:wide";
	id = 6;
	stream_id = 0;
	fields := struct {{
{wide}
	}};
}};

event {{
	name = "fx:warr";
	id = 7;
	stream_id = 0;
	fields := struct {{
		integer {{ size = 64; align = 8; signed = false; base = 16; }} vals[300];
	}};
}};
"""
    return text[:text.index('event {\n\tname = "fx:wide"')] if narrow else text


def ext(bits, signed, rnd):
    """A value of a field: the extremes, 0, -1 or random."""
    lo = -(1 << (bits - 1)) if signed else 0
    hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    pick = rnd.randrange(8)
    if pick == 0:
        return lo
    if pick == 1:
        return hi
    if pick == 2:
        return 0
    if pick == 3:
        return -1 if signed else 1
    return rnd.randint(lo, hi)


FMT = {(8, False): "B", (8, True): "b", (16, False): "H", (16, True): "h",
       (32, False): "I", (32, True): "i", (64, False): "Q", (64, True): "q"}


class Writer:
    def __init__(self, bo):
        self.bo = bo
        self.buf = bytearray()

    def align(self, nbytes):
        while len(self.buf) % nbytes:
            self.buf.append(0)

    def int(self, bits, signed, value, bo=None):
        e = "<" if (bo or self.bo) == "le" else ">"
        self.buf += struct.pack(e + FMT[(bits, signed)], value)

    def raw(self, b):
        self.buf += b


TAGS = [b"abcdefgh", b"abc\0xyzw", b"x", b"q\"\\\n\t?'z", b"\xc3\xa9t\xc3\xa9\0\0\0",
        b"\x01\x7f\x1bx\0yy\x02"]


def event_body(w, cls, rnd):
    ob = OTHER[w.bo]
    w.int(32, True, ext(32, True, rnd))  # vtid
    if cls == 0:
        w.int(8, False, ext(8, False, rnd))
        w.int(8, True, ext(8, True, rnd))
        w.int(16, False, ext(16, False, rnd))
        w.int(16, True, ext(16, True, rnd), ob)
        w.int(32, False, ext(32, False, rnd), ob)
        w.int(32, True, ext(32, True, rnd))
        w.int(64, False, ext(64, False, rnd))
        w.int(64, True, ext(64, True, rnd), ob)
        w.int(8, False, ext(8, False, rnd))
        w.int(8, True, ext(8, True, rnd))
        w.int(16, True, ext(16, True, rnd), ob)
        w.int(16, False, ext(16, False, rnd))
        w.int(32, True, ext(32, True, rnd))
        w.int(32, False, ext(32, False, rnd), ob)
        w.int(64, True, ext(64, True, rnd))
        w.int(64, False, ext(64, False, rnd), ob)
        w.int(8, True, ext(8, True, rnd))
        w.int(16, False, ext(16, False, rnd), ob)
        w.int(32, True, ext(32, True, rnd))
        w.int(64, False, ext(64, False, rnd))
        w.int(8, False, ext(8, False, rnd))
        w.int(16, True, ext(16, True, rnd), ob)
    elif cls == 1:
        w.int(32, True, rnd.choice([0, 1, 4, 5, 6, 9, -1, -10, -11, 100000, 7,
                                    ext(32, True, rnd)]))
        w.int(8, False, rnd.choice([0, 1, 2, 7, 8, 9, 10, 255]), ob)
        f = rnd.choice([0.0, -0.0, 1.5, -2.25e-3, 3.4e38, 1e-45, float("inf"),
                        float("-inf"), float("nan"), rnd.uniform(-1e6, 1e6)])
        w.raw(struct.pack(("<" if w.bo == "le" else ">") + "f", f))
        d = rnd.choice([0.0, -0.0, 1e300, -5e-324, 123456.789, float("nan"),
                        float("inf"), rnd.uniform(-1e12, 1e12), 1e16, 1e-5])
        w.raw(struct.pack(("<" if ob == "le" else ">") + "d", d))
        w.raw(rnd.choice(TAGS).ljust(8, b"\0"))
        w.int(64, False, ext(64, False, rnd))
        w.int(16, False, ext(16, False, rnd))
        note = bytes(rnd.choice(b"abcdefghij \"?\n") for _ in range(rnd.randint(88, 100)))
        w.raw(note.ljust(100, b"\0"))
    elif cls == 2:
        for _ in range(3):
            w.int(16, False, ext(16, False, rnd))
        w.int(32, False, ext(32, False, rnd))
    elif cls == 3:
        a = rnd.randrange(8)
        b = rnd.randrange(32)
        # bit fields fill a byte from its least significant bit (le) or most (be)
        w.raw(bytes([(a | b << 3) if w.bo == "le" else (a << 5 | b)]))
        w.int(16, False, ext(16, False, rnd))
    elif cls == 4:
        w.align(8)
        w.int(64, True, ext(64, True, rnd))
        w.int(8, False, ext(8, False, rnd))
    elif cls == 6:
        for k in range(WIDE):
            w.int(64, k % 3 == 0, ext(64, k % 3 == 0, rnd))
    elif cls == 7:
        for _ in range(300):
            w.int(64, False, ext(64, False, rnd))


def main():
    args = sys.argv[1:]
    narrow = args[:1] == ["--narrow"]
    if narrow:
        args = args[1:]
    out, bo = args[0], args[1]
    rnd = random.Random(int(args[2]) if len(args) > 2 else 1)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "metadata"), "w") as f:
        f.write(metadata(bo, narrow))
    size = int(args[3]) if len(args) > 3 else 4096
    count = int(args[4]) if len(args) > 4 else 120
    packets = []
    ts = 1000
    for _ in range(count):
        w = Writer(bo)
        w.int(32, False, 0xC1FC1FC1)
        w.int(32, False, 0)
        ctx = len(w.buf)
        w.raw(bytes(36))  # timestamps, sizes and cpu_id, filled in below
        begin = ts
        while True:
            cls = rnd.randrange(6)
            if not narrow and not rnd.randrange(12):
                cls = rnd.choice([6, 7])
            e = Writer(bo)
            e.buf = bytearray(w.buf)
            e.int(32, False, cls)
            ts += rnd.choice([0, 1, 7, 999, 123456])
            e.int(64, False, ts)
            event_body(e, cls, rnd)
            if len(e.buf) > size:
                break
            w.buf = e.buf
        content = len(w.buf) * 8
        w.buf = w.buf.ljust(size, b"\0")
        hdr = Writer(bo)
        hdr.int(64, False, begin)
        hdr.int(64, False, ts)
        hdr.int(64, False, content)
        hdr.int(64, False, size * 8)
        hdr.int(32, False, len(packets) % 3)
        w.buf[ctx:ctx + 36] = hdr.buf
        packets.append(bytes(w.buf))
    with open(os.path.join(out, "stream_0"), "wb") as f:
        for p in packets:
            f.write(p)


if __name__ == "__main__":
    main()
