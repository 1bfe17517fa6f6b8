#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write CTF 2 test traces and, where CTF 1.8 can say the same, their CTF 1.8 twins.

Usage: ctf2-make.py OUTDIR

Each case is OUTDIR/CASE/ctf2 (JSON metadata) and, for the cases CTF 1.8 can express,
OUTDIR/CASE/ctf18 (TSDL metadata), both with the same data stream file, so that babeltrace2
2.0.4 reading the twin is the oracle of tracekit reading the CTF 2 trace
(tests/interop/ctf2-make.sh). The CTF 2 metadata uses what CTF 1.8 cannot name alike: roles
on members named otherwise than CTF 1.8's special fields, field class aliases, big-endian
and mixed byte orders, signed mappings with several ranges, overlapping labels, static and
dynamic strings and blobs, structures with a minimum alignment, variants selected by ranges.

  main        every kind above, plain metadata
  packetized  the same metadata in LTTng's packets, with version 2.0 in their headers
  ctf2only    what only CTF 2 can say (no twin): a variant selected by a plain integer
              (shown as a number, not as an enumeration), an array with a minimum alignment
              larger than its elements'; its expected text is written here by hand
  bad-*       metadata tracekit must refuse with one cause line (no twin)
"""
import json
import os
import struct
import sys

UUID = bytes(range(0x10, 0x20))
UUID_TEXT = "10111213-1415-1617-1819-1a1b1c1d1e1f"
CLOCK_UID = "c1c2c3c4-d1d2-e1e2-f1f2-a1a2a3a4a5a6"
OFFSET_S = 1700000000


class Bits:
    """Little byte-aligned writer: every field here is whole bytes."""

    def __init__(self):
        self.b = bytearray()

    def align(self, nbits):
        n = nbits // 8
        while n > 1 and len(self.b) % n:
            self.b.append(0)

    def put(self, fmt, value, align):
        self.align(align)
        self.b += struct.pack(fmt, value)

    def raw(self, data, align=8):
        self.align(align)
        self.b += data


def fl(length, signed=False, bo="little-endian", align=8, base=None, mappings=None, roles=None):
    fc = {
        "type": "fixed-length-signed-integer" if signed else "fixed-length-unsigned-integer",
        "length": length,
        "byte-order": bo,
        "alignment": align,
    }
    if base:
        fc["preferred-display-base"] = base
    if mappings:
        fc["mappings"] = mappings
    if roles:
        fc["roles"] = roles
    return fc


def member(name, fc):
    return {"name": name, "field-class": fc}


def struct_fc(members, min_align=None):
    fc = {"type": "structure", "member-classes": members}
    if min_align:
        fc["minimum-alignment"] = min_align
    return fc


def loc(origin, *path):
    return {"origin": origin, "path": list(path)}


def header_fcs():
    """Packet header, packet context and event header, with roles under other names."""
    ph = struct_fc([
        member("m", fl(32, roles=["packet-magic-number"])),
        member("u", {"type": "static-length-blob", "length": 16,
                     "roles": ["metadata-stream-uuid"]}),
        member("s", fl(32, roles=["data-stream-class-id"])),
    ])
    pc = struct_fc([
        member("begin", fl(64, roles=["default-clock-timestamp"])),
        member("end", fl(64, roles=["packet-end-default-clock-timestamp"])),
        member("total", fl(64, roles=["packet-total-length"])),
        member("content", fl(64, roles=["packet-content-length"])),
        member("lost", fl(64, roles=["discarded-event-record-counter-snapshot"])),
        member("cpu_id", fl(32)),
    ])
    eh = struct_fc([
        member("cls", fl(16, roles=["event-record-class-id"])),
        member("ts", "ts64"),  # an alias, whose role comes with it
    ])
    return ph, pc, eh


TSDL_HEAD = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 64; align = 8; signed = false; map = clock.mono.value; } := clk64;
trace {
	major = 1; minor = 8; uuid = "%s"; byte_order = le;
	packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; };
};
env { hostname = "ctf2host"; domain = "ust"; };
clock { name = mono; uuid = "%s"; freq = 1000000000; offset_s = %d; offset = 0; };
stream {
	id = 0;
	packet.context := struct {
		clk64 timestamp_begin; clk64 timestamp_end; uint64_t packet_size;
		uint64_t content_size; uint64_t events_discarded; uint32_t cpu_id;
	};
	event.header := struct { uint16_t id; clk64 timestamp; };
};
""" % (UUID_TEXT, CLOCK_UID, OFFSET_S)

# The event classes of "main": CTF 2 payload, CTF 1.8 payload, and a writer of one event.
SIGNED_MAPS = {"NEG": [[-10, -1]], "ZERO": [[0, 0]], "POS": [[1, 5], [7, 9]]}
LABEL_MAPS = {"A": [[0, 3]], "B": [[2, 5]]}
TAG_MAPS = {"one": [[1, 1]], "two": [[2, 2]]}

MAIN_CLASSES = [
    ("ints", struct_fc([
        member("a", fl(8, signed=True)),
        member("b", fl(16, bo="big-endian")),
        member("c", fl(32, signed=True, base=16)),
        member("d", fl(64, base=8)),
        member("e", fl(16, base=2)),
        member("f", {"type": "fixed-length-floating-point-number", "length": 32,
                     "byte-order": "little-endian", "alignment": 32}),
        member("g", {"type": "fixed-length-floating-point-number", "length": 64,
                     "byte-order": "big-endian", "alignment": 64}),
        member("h", "u32le"),
    ]), """
		integer { size = 8; align = 8; signed = true; } a;
		integer { size = 16; align = 8; signed = false; byte_order = be; } b;
		integer { size = 32; align = 8; signed = true; base = 16; } c;
		integer { size = 64; align = 8; signed = false; base = 8; } d;
		integer { size = 16; align = 8; signed = false; base = 2; } e;
		floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; byte_order = be; } g;
		uint32_t h;"""),
    ("enums", struct_fc([
        member("sel", fl(8, signed=True, mappings=SIGNED_MAPS)),
        member("two", fl(8, mappings=LABEL_MAPS)),
        member("big", fl(32, bo="big-endian", mappings={"X": [[100000, 100000]]})),
    ]), """
		enum : integer { size = 8; align = 8; signed = true; } {
			NEG = -10 ... -1, ZERO = 0, POS = 1 ... 5, POS = 7 ... 9 } sel;
		enum : uint8_t { A = 0 ... 3, B = 2 ... 5 } two;
		enum : integer { size = 32; align = 8; signed = false; byte_order = be; } {
			X = 100000 } big;"""),
    ("texts", struct_fc([
        member("s", {"type": "null-terminated-string"}),
        member("fs", {"type": "static-length-string", "length": 8}),
        member("len", fl(8)),
        member("ds", {"type": "dynamic-length-string",
                      "length-field-location": loc("event-record-payload", "len")}),
        member("blen", fl(16)),
        member("blob", {"type": "dynamic-length-blob",
                        "length-field-location": loc("event-record-payload", "blen")}),
        member("sblob", {"type": "static-length-blob", "length": 3}),
    ]), """
		string s;
		integer { size = 8; align = 8; signed = false; encoding = UTF8; } fs[8];
		uint8_t len;
		integer { size = 8; align = 8; signed = false; encoding = UTF8; } ds[len];
		uint16_t blen;
		uint8_t blob[blen];
		uint8_t sblob[3];"""),
    ("compound", struct_fc([
        member("n", fl(8)),
        member("arr", {"type": "dynamic-length-array",
                       "length-field-location": loc("event-record-payload", "n"),
                       "element-field-class": struct_fc([
                           member("x", fl(8)), member("y", fl(16, align=16))])}),
        member("tag", fl(8, mappings=TAG_MAPS)),
        member("v", {"type": "variant",
                     "selector-field-location": loc("event-record-payload", "tag"),
                     "options": [
                         {"name": "one", "selector-field-ranges": [[1, 1]],
                          "field-class": fl(32)},
                         {"name": "two", "selector-field-ranges": [[2, 2]],
                          "field-class": {"type": "null-terminated-string"}}]}),
        member("st", struct_fc([member("z", fl(8))], min_align=64)),
        member("sa", {"type": "static-length-array", "length": 2,
                      "element-field-class": fl(16, signed=True, align=16)}),
        member("ctx_cpu", {"type": "dynamic-length-array",
                           "length-field-location": loc("packet-context", "cpu_id"),
                           "element-field-class": fl(8)}),
    ]), """
		uint8_t n;
		struct { uint8_t x; integer { size = 16; align = 16; signed = false; } y; } arr[n];
		enum : uint8_t { one = 1, two = 2 } tag;
		variant <tag> { uint32_t one; string two; } v;
		struct { uint8_t z; } align(64) st;
		integer { size = 16; align = 16; signed = true; } sa[2];
		uint8_t ctx_cpu[stream.packet.context.cpu_id];"""),
]


def main_events(w, cpu):
    """Write the events of "main"; yields (class id, time) in order."""
    def ev(cls, ts):
        w.put("<H", cls, 8)
        w.put("<Q", ts, 8)

    t = 1000
    # ints, twice
    for a, b, c, d, e, f, g, h in ((-5, 0x1234, -2, 8, 5, 1.5, -2.25, 70000),
                                   (127, 65535, 0x7fffffff, 2**64 - 1, 0, -0.0, 1e300, 0)):
        ev(0, t)
        w.align(64)  # the payload structure: its most aligned member's alignment (g)
        w.put("<b", a, 8)
        w.put(">H", b, 8)
        w.put("<i", c, 8)
        w.put("<Q", d, 8)
        w.put("<H", e, 8)
        w.put("<f", f, 32)
        w.put(">d", g, 64)
        w.put("<I", h, 8)
        t += 1111
    # enums: every label, none, both
    for sel, two, big in ((-3, 0, 100000), (0, 2, 5), (6, 4, 100000), (8, 9, 1), (-128, 3, 0)):
        ev(1, t)
        w.put("<b", sel, 8)
        w.put("<B", two, 8)
        w.put(">I", big, 8)
        t += 250
    # texts
    for s, fs, ds, blob, sblob in ((b"hello", b"fixed\0zz", b"dyn", b"\x01\x02", b"\xff\x00\x7f"),
                                   (b"", b"12345678", b"", b"", b"abc"),
                                   (b"tab\there \"q\"", b"\0" * 8, b"caf\xc3\xa9", b"\x00" * 5,
                                    b"\x00\x00\x00")):
        ev(2, t)
        w.raw(s + b"\0")
        w.raw(fs)
        w.put("<B", len(ds), 8)
        w.raw(ds)
        w.put("<H", len(blob), 8)
        w.raw(blob)
        w.raw(sblob)
        t += 3
    # compound
    for arr, tag, val in (([(1, 2), (3, 4)], 1, 77), ([], 2, b"opt two"), ([(9, 65535)], 1, 0)):
        ev(3, t)
        w.align(64)  # the payload structure: st's
        w.put("<B", len(arr), 8)
        w.align(16)  # the array, empty or not: its elements' alignment (y's)
        for x, y in arr:
            w.put("<B", x, 16)
            w.put("<H", y, 16)
        w.put("<B", tag, 8)
        if tag == 1:
            w.put("<I", val, 8)
        else:
            w.raw(val + b"\0")
        w.put("<B", 42, 64)
        w.put("<h", -7, 16)
        w.put("<h", 300, 16)
        for i in range(cpu):
            w.put("<B", i + 10, 8)
        t += 100000
    return t


def packet(events_writer, cpu, begin):
    """One packet: header, context, the events (written by events_writer(w) -> end time)."""
    w = Bits()
    w.put("<I", 0xC1FC1FC1, 8)
    w.raw(UUID)
    w.put("<I", 0, 8)
    ctx_at = len(w.b)
    for _ in range(5):
        w.put("<Q", 0, 8)
    w.put("<I", cpu, 8)
    end = events_writer(w)
    content = len(w.b) * 8
    w.align(64)
    while len(w.b) % 64:
        w.b.append(0)
    struct.pack_into("<QQQQQ", w.b, ctx_at, begin, end, len(w.b) * 8, content, 0)
    return bytes(w.b)


def ctf2_metadata(classes, aliases=None, preamble_extra=None):
    ph, pc, eh = header_fcs()
    frags = [{"type": "preamble", "version": 2, "uuid": list(UUID)}]
    if preamble_extra:
        frags[0].update(preamble_extra)
    frags.append({"type": "field-class-alias", "name": "ts64",
                  "field-class": fl(64, roles=["default-clock-timestamp"])})
    frags.append({"type": "field-class-alias", "name": "u32le", "field-class": fl(32)})
    for a in aliases or []:
        frags.append(a)
    frags.append({"type": "trace-class", "uid": UUID_TEXT,
                  "environment": {"hostname": "ctf2host", "domain": "ust"},
                  "packet-header-field-class": ph})
    frags.append({"type": "clock-class", "id": "mono", "name": "mono",
                  "frequency": 1000000000, "origin": "unix-epoch", "uid": CLOCK_UID,
                  "offset-from-origin": {"seconds": OFFSET_S, "cycles": 0}})
    frags.append({"type": "data-stream-class", "default-clock-class-id": "mono",
                  "packet-context-field-class": pc, "event-record-header-field-class": eh})
    for i, (name, payload) in enumerate(classes):
        frags.append({"type": "event-record-class", "id": i, "name": name,
                      "payload-field-class": payload,
                      "attributes": {"lttng.org,2009": {"log-level": "debug:line"}}})
    return "".join("\x1e" + json.dumps(f, indent=1) + "\n" for f in frags).encode()


def tsdl_metadata(classes):
    text = TSDL_HEAD
    for i, (name, body) in enumerate(classes):
        text += 'event {\n\tname = "%s"; id = %d; stream_id = 0; loglevel = 13;\n' % (name, i)
        text += "\tfields := struct {%s\n\t};\n};\n" % body
    return text.encode()


def packetize(meta, major, minor):
    """LTTng's metadata packets: 37-byte header, 4096-byte packets."""
    out = bytearray()
    room = 4096 - 37
    for at in range(0, len(meta), room):
        part = meta[at:at + room]
        hdr = struct.pack("<I16sIIIBBBBB", 0x75D11D57, UUID, 0, (37 + len(part)) * 8, 4096 * 8,
                          0, 0, 0, major, minor)
        out += (hdr + part).ljust(4096, b"\0")
    return bytes(out)


def write(path, name, data):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, name), "wb") as f:
        f.write(data)


def main():
    out = sys.argv[1]
    stream = packet(lambda w: main_events(w, 2), 2, 900)
    meta2 = ctf2_metadata([(n, p) for n, p, _ in MAIN_CLASSES])
    meta18 = tsdl_metadata([(n, b) for n, _, b in MAIN_CLASSES])
    for case, m in (("main", meta2), ("packetized", packetize(meta2, 2, 0))):
        write(os.path.join(out, case, "ctf2"), "metadata", m)
        write(os.path.join(out, case, "ctf2"), "stream0", stream)
        write(os.path.join(out, case, "ctf18"), "metadata", meta18)
        write(os.path.join(out, case, "ctf18"), "stream0", stream)

    # what CTF 1.8 cannot say: a plain integer selects the option; an array more aligned
    only = [("only", struct_fc([
        member("sel", fl(16, signed=True)),
        member("v", {"type": "variant",
                     "selector-field-location": loc("event-record-payload", "sel"),
                     "options": [
                         {"name": "neg", "selector-field-ranges": [[-100, -1]],
                          "field-class": fl(8)},
                         {"selector-field-ranges": [[0, 0], [10, 20]],
                          "field-class": {"type": "null-terminated-string"}}]}),
        member("a", {"type": "static-length-array", "length": 2, "minimum-alignment": 32,
                     "element-field-class": fl(8)}),
    ]))]

    def only_events(w):
        t = 5000
        for sel, val in ((-4, 200), (15, b"in range"), (0, b"")):
            w.put("<H", 0, 8)
            w.put("<Q", t, 8)
            w.put("<h", sel, 32)  # the payload structure: a's minimum alignment
            if sel < 0:
                w.put("<B", val, 8)
            else:
                w.raw(val + b"\0")
            w.put("<B", 1, 32)
            w.put("<B", 2, 8)
            t += 1
        return t
    write(os.path.join(out, "ctf2only"), "metadata", ctf2_metadata(only))
    write(os.path.join(out, "ctf2only"), "stream0", packet(only_events, 0, 4000))

    # refused: each with a cause
    bad = {
        "bad-bool": [("b", struct_fc([member("x", {"type": "fixed-length-boolean",
                                                   "length": 8, "byte-order": "little-endian"})]))],
        "bad-varint": [("b", struct_fc([member("x", {
            "type": "variable-length-unsigned-integer"})]))],
        "bad-optional": [("b", struct_fc([member("x", {
            "type": "optional", "selector-field-location": loc("event-record-payload", "x"),
            "field-class": fl(8)})]))],
        "bad-utf16": [("b", struct_fc([member("x", {
            "type": "null-terminated-string", "encoding": "utf-16le"})]))],
        "bad-alias": [("b", struct_fc([member("x", "nosuchalias")]))],
        "bad-role": [("b", struct_fc([member("x", fl(8, roles=["packet-magic-number"]))]))],
        "bad-overlap": [("b", struct_fc([member("s", fl(8)), member("v", {
            "type": "variant", "selector-field-location": loc("event-record-payload", "s"),
            "options": [{"name": "p", "selector-field-ranges": [[0, 5]], "field-class": fl(8)},
                        {"name": "q", "selector-field-ranges": [[5, 9]],
                         "field-class": fl(8)}]})]))],
    }
    for case, classes in bad.items():
        write(os.path.join(out, case), "metadata", ctf2_metadata(classes))
        write(os.path.join(out, case), "stream0", stream)
    write(os.path.join(out, "bad-extension"), "metadata",
          ctf2_metadata([("b", struct_fc([]))], preamble_extra={"extensions": {"x.org": {}}}))
    write(os.path.join(out, "bad-extension"), "stream0", stream)
    json_text = ctf2_metadata([("b", struct_fc([]))])
    write(os.path.join(out, "bad-json"), "metadata", json_text.replace(b'"version": 2', b'"version": 2,'))
    write(os.path.join(out, "bad-json"), "stream0", stream)


if __name__ == "__main__":
    main()
