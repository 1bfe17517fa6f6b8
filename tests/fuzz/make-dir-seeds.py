#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Recipe of the seeds in corpus/ctf-dir: directory trees in the input layout of fuzz-ctf-dir.c
# (entries: u8 kind 0 directory / 1 file / 2 symbolic link, u8 name length, the name as bytes
# that pick path components from the harness's table, u16 LE data length, the data: a file's
# bytes or a link's target, as components too). The component table is read from
# fuzz-ctf-dir.c itself, so the two cannot disagree.
#
# Hand-made seeds: a trace without packet header whose events have no fields (LTTng compact
# event header), the same trace beside links to itself ("x -> .", "a -> ."), reached through a
# link to a sibling, and nested 8 levels deep; a directory without metadata. Given the path of
# the project's trace generator, small gen-ctf traces too: with their LTTng index files, two
# chunks of one trace in kernel/ and ust/uid/64-bit/, one whose index lists a packet its data
# file lacks, and one whose first packet is damaged (the index-table leak of issue 10).
# crash-* seeds are fuzzer findings, rebuilt small by hand. Given tracekit's path too, a trace
# of typed EventHeader classes: the hand-made interceptor seeds of corpus/trace-source
# converted to CTF, its one packet cut to 1 KiB (the events fit), for the perf-decode JSON
# written again from a CTF trace's values.
# Run from this directory:
#   python3 make-dir-seeds.py [../../build/tests/tools/gen-ctf [../../build/tools/tracekit/tracekit]]
import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "ctf-dir")

with open(os.path.join(HERE, "fuzz-ctf-dir.c")) as f:
    table = re.search(r"names\[\] = \{(.*?)\};", f.read(), re.S).group(1)
NAMES = re.findall(r'"([^"]*)"', table)
PLAIN = len(NAMES) - 2  # names of entries; "." and ".." only in link targets

DIR, FILE, LINK = 0, 1, 2


def path_bytes(path, plain=True):
    out = bytearray()
    for c in path.split("/"):
        i = NAMES.index(c)
        assert not plain or i < PLAIN, c
        out.append(i)
    return bytes(out)


def entry(kind, path, data=b""):
    name = path_bytes(path)
    if kind == LINK:
        data = path_bytes(data, plain=False)
    assert len(data) < 65536
    return bytes([kind, len(name)]) + name + struct.pack("<H", len(data)) + data


def write(name, entries):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(b"".join(entries))


NOFIELDS_META = b"""/* CTF 1.8 */
typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := uint27_c;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := uint64_c;
trace { major = 1; minor = 8; byte_order = le; };
clock { name = c; freq = 1000000000; };
stream {
	event.header := struct {
		enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
		variant <id> {
			struct { uint27_c timestamp; } compact;
			struct { uint32_t id; uint64_c timestamp; } extended;
		} v;
	} align(8);
};
event { name = "a"; id = 0; };
event { name = "b"; id = 1; };
"""
# compact headers: id in the low 5 bits, time in the next 27 (a at 1 ns, b at 2 ns, a at 5 ns)
NOFIELDS_DATA = bytes([0o40, 0, 0, 0, 0o101, 0, 0, 0, 0o240, 0, 0, 0])


def nofields(prefix):
    p = prefix + "/" if prefix else ""
    return [entry(FILE, p + "metadata", NOFIELDS_META), entry(FILE, p + "stream_0", NOFIELDS_DATA)]


def hand_seeds():
    write("nofields", nofields(""))
    write("links-to-self", nofields("a") + [entry(LINK, "x", "."), entry(LINK, "b", "."),
                                            entry(LINK, "a/x", "..")])
    write("link-to-sibling", nofields("kernel") + [entry(LINK, "ust", "kernel"),
                                                   entry(LINK, "uid", "ust/.")])
    write("nested", nofields("a/b/a/b/a/b/a"))
    write("no-metadata", [entry(DIR, "kernel"), entry(FILE, "kernel/stream_0", NOFIELDS_DATA)])


def gen(tool, opts):
    """The files of a gen-ctf trace, named as the harness can: channel0_K -> stream_K."""
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([tool] + opts + [d], check=True, stdout=subprocess.DEVNULL)
        files = {}
        for root, _, names in os.walk(d):
            for n in names:
                rel = os.path.relpath(os.path.join(root, n), d)
                with open(os.path.join(root, n), "rb") as f:
                    files[rel.replace("channel0_", "stream_")] = f.read()
        return files


def as_entries(files, prefix=""):
    p = prefix + "/" if prefix else ""
    return [entry(FILE, p + k, v) for k, v in sorted(files.items())]


def gen_seeds(tool):
    small = ["-n", "24", "-s", "2", "-p", "256"]
    lttng = gen(tool, small)
    write("gen-lttng-index", as_entries(lttng))
    write("gen-compact-be", as_entries(gen(tool, small + ["-l", "compact", "-b", "be"])))
    # two directories of one trace (the same UUID), as LTTng rotation chunks are
    write("gen-two-chunks", as_entries(lttng, "kernel") + as_entries(
        gen(tool, ["-n", "30", "-s", "2", "-p", "256", "--no-index"]), "ust/uid/64-bit"))
    # the index lists a packet more than the data file holds (a file cut at a boundary)
    cut = dict(lttng)
    cut["stream_0"] = cut["stream_0"][:512]
    write("gen-index-past-data", as_entries(cut))
    # the first packet's magic number damaged, with the index beside it
    bad = dict(lttng)
    bad["stream_1"] = b"\0" + bad["stream_1"][1:]
    write("gen-first-packet-bad", as_entries(bad) + [entry(LINK, "x", ".")])


def eventheader_seed(tracekit):
    """Typed EventHeader classes in CTF, from the interceptor seeds (mode byte dropped)."""
    src = os.path.join(HERE, "corpus", "trace-source")
    with tempfile.TemporaryDirectory() as d:
        ic = os.path.join(d, "ic.dat")
        with open(ic, "wb") as out:
            for kind in ("scalars", "strings", "arrays", "nested"):
                with open(os.path.join(src, "interceptor-hand-%s-le" % kind), "rb") as f:
                    out.write(f.read()[1:])
        ctf = os.path.join(d, "ctf")
        subprocess.run([tracekit, "convert", ic, "-o", ctf], check=True)
        with open(os.path.join(ctf, "metadata"), "rb") as f:
            meta = f.read()
        with open(os.path.join(ctf, "channel0_0"), "rb") as f:
            data = bytearray(f.read())
    size = struct.pack("<Q", len(data) * 8)
    at = data.find(size)
    assert 0 <= at < 64 and len(data.rstrip(b"\0")) <= 1024, "unexpected packet"
    data[at:at + 8] = struct.pack("<Q", 1024 * 8)
    write("eventheader-typed", [entry(FILE, "metadata", meta),
                                entry(FILE, "stream_0", bytes(data[:1024]))])


os.makedirs(OUT, exist_ok=True)
hand_seeds()
if len(sys.argv) > 1:
    gen_seeds(os.path.abspath(sys.argv[1]))
if len(sys.argv) > 2:
    eventheader_seed(os.path.abspath(sys.argv[2]))
