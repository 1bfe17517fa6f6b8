#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Writes a perf.data file of N samples of user_events EventHeader tracepoints, the input of the
# EventHeader row of bench/perf.sh. This machine's kernel has no user_events, so nothing can
# record such a file here; this script lays one out as `perf record -e user_events:...` would
# (the corpus perf.data of LinuxTracepoints, recorded by a newer perf, shows the layout):
#
# - every sample has IDENTIFIER, IP, TID, TIME, CPU, PERIOD and RAW (sample_type 0x10587), and
#   each attribute has read_format ID|LOST, sample_id_all and use_clockid with CLOCK_MONOTONIC,
#   plus a dummy software event that tracks COMM, as perf record adds one;
# - the tracing data (version 0.6, little-endian, 8-byte longs, 4096-byte pages) holds one
#   user_events format per tracepoint, which declares only the 8-byte EventHeader
#   (eventheader_flags, version, id, tag, opcode, level) after the common fields; the rest of
#   the event (extensions and payload) follows it in the raw data, unnamed by the format;
# - the raw data is the 8 common bytes (type, flags, preempt count, pid), the event's bytes and
#   zeros up to 8-byte alignment of the raw size word and the data, as the kernel pads it;
# - feature sections (file mode): TRACING_DATA, HOSTNAME, OSRELEASE, ARCH, NRCPUS, EVENT_DESC,
#   SAMPLE_TIME, CLOCKID and CLOCK_DATA; in pipe mode the same as HEADER_FEATURE records, the
#   tracing data as a HEADER_TRACING_DATA record and the names as EVENT_UPDATE records.
#
# The events are those of an EventHeader interceptor file (records of u32 LE size including
# itself, the NUL-terminated tracepoint name, then the event from its EventHeader), cycled:
# by default LinuxTracepoints' EventHeaderInterceptorLE64.dat in the shared corpus, 374
# events of 10 tracepoints. Times grow by 0.4 to 1.6 us a sample; runs of samples alternate
# between CPUs 0 and 1, one thread each; a FINISHED_ROUND follows every --round samples.
# With --sched-every K, every K-th sample is a sched_switch (a kernel tracepoint) instead.
#
# Attributes are 128 bytes (perf_event_attr up to sig_data, as perf 6.1 writes and reads
# them); perf 6.3 and later write 136 (config3), which perf 6.1 refuses in file mode
# ("unsupported ABI"): --attr-size 136 makes such a file.
#
# Usage: gen-eh-perf.py [-n N] [-o FILE] [--pipe] [--sched-every K] [--round R]
#                       [--attr-size 128|136] [--events FILE.dat]
#   -n: samples (default 1000000); -o: output (default eh-N.data); --pipe: pipe mode
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import perfwrite as pw  # noqa: E402

BO = "<"
CORPUS_DAT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared",
                          "corpus", "eventheader", "EventHeaderInterceptorLE64.dat")
SAMPLE_TYPE = pw.S_IDENT | pw.S_IP | pw.S_TID | pw.S_TIME | pw.S_CPU | pw.S_PERIOD | pw.S_RAW
DUMMY_SAMPLE_TYPE = pw.S_IDENT | pw.S_IP | pw.S_TID | pw.S_TIME | pw.S_CPU
READ_FORMAT = 4 | 16  # ID | LOST
TP_FLAGS = (pw.A_DISABLED, pw.A_INHERIT, pw.A_SAMPLE_ID_ALL, pw.A_EXCLUDE_GUEST, pw.A_USE_CLOCKID)
DUMMY_FLAGS = (pw.A_INHERIT, pw.A_MMAP, pw.A_COMM, pw.A_TASK, pw.A_SAMPLE_ID_ALL, pw.A_MMAP2,
               pw.A_COMM_EXEC, pw.A_USE_CLOCKID, pw.A_KSYMBOL, pw.A_BPF_EVENT)
CLOCK_MONOTONIC = 1
FIRST_ID = 2000       # ftrace ids of the user_events tracepoints
SCHED_SWITCH_ID = 391
IP = 0xffffffff8928e33f  # a kernel address: where user_events writes the sample
PID = 4000            # the process that writes the events; its threads are PID + CPU
T0 = 12_000_000_000_000       # CLOCK_MONOTONIC ns of the first sample
WALL0 = 1_764_374_400_000_000_000  # wall clock at T0: 2025-11-29T00:00:00Z

COMMON = ("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
          "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
          "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
          "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")


def field(decl, off, size, signed):
    return "\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n" % (decl, off, size, signed)


def fmt_text(name, ident, fields, printf):
    return ("name: %s\nID: %d\nformat:\n%s%s\nprint fmt: %s\n" %
            (name, ident, COMMON, "".join(field(*f) for f in fields), printf)).encode()


def eventheader_format(name, ident):
    """The format the kernel gives a user_events tracepoint registered with EventHeader's
    declaration: the 8-byte header as six fields."""
    names = ["eventheader_flags", "version", "id", "tag", "opcode", "level"]
    types = ["u8", "u8", "u16", "u16", "u8", "u8"]
    fields, off = [], 8
    for n, t in zip(names, types):
        size = 1 if t == "u8" else 2
        fields.append(("%s %s" % (t, n), off, size, 0))
        off += size
    printf = '"%s", %s' % (" ".join(n + "=%u" for n in names),
                           ", ".join("REC->" + n for n in names))
    return fmt_text(name, ident, fields, printf)


def sched_switch_format():
    fields = [("char prev_comm[16]", 8, 16, 0), ("pid_t prev_pid", 24, 4, 1),
              ("int prev_prio", 28, 4, 1), ("long prev_state", 32, 8, 1),
              ("char next_comm[16]", 40, 16, 0), ("pid_t next_pid", 56, 4, 1),
              ("int next_prio", 60, 4, 1)]
    printf = ('"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s '
              'next_pid=%d next_prio=%d", REC->prev_comm, REC->prev_pid, REC->prev_prio, '
              '(REC->prev_state & 0xff) ? __print_flags(REC->prev_state & 0xff, "|", '
              '{ 0x01, "S" }, { 0x02, "D" }, { 0x04, "T" }, { 0x08, "t" }, { 0x10, "X" }, '
              '{ 0x20, "Z" }, { 0x40, "P" }, { 0x80, "I" }) : "R", REC->next_comm, '
              'REC->next_pid, REC->next_prio')
    return fmt_text("sched_switch", SCHED_SWITCH_ID, fields, printf)


HEADER_PAGE = (field("u64 timestamp", 0, 8, 0).replace("field:", "field: ") +
               field("local_t commit", 8, 8, 1).replace("field:", "field: ") +
               field("int overwrite", 8, 1, 1).replace("field:", "field: ") +
               field("char data", 16, 4080, 0).replace("field:", "field: ")).encode()
HEADER_EVENT = (b"# compressed entry header\n\ttype_len    :    5 bits\n"
                b"\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n"
                b"\tpadding     : type == 29\n\ttime_extend : type == 30\n"
                b"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")


def tracing_data(systems):
    """The tracing data perf keeps: magic, version 0.6, byte order, long size, page size, the
    ring buffer's header formats, no ftrace formats, each system's event formats, empty
    kallsyms, printk formats and saved command lines. @systems: [(name, [format bytes])]."""
    b = b"\x17\x08Dtracing0.6\x00" + bytes([0, 8]) + struct.pack("<I", 4096)
    for name, text in ((b"header_page", HEADER_PAGE), (b"header_event", HEADER_EVENT)):
        b += name + b"\x00" + struct.pack("<Q", len(text)) + text
    b += struct.pack("<II", 0, len(systems))
    for name, formats in systems:
        b += name.encode() + b"\x00" + struct.pack("<I", len(formats))
        for f in formats:
            b += struct.pack("<Q", len(f)) + f
    return b + struct.pack("<IIQ", 0, 0, 0)


def read_events(path):
    """The (tracepoint name, event bytes) records of an interceptor file."""
    with open(path, "rb") as f:
        d = f.read()
    out, p = [], 0
    while p < len(d):
        if len(d) - p < 4:
            sys.exit("gen-eh-perf.py: %s: a record cut at offset %d" % (path, p))
        n = struct.unpack_from("<I", d, p)[0]
        end = d.find(b"\x00", p + 4, p + n)
        if n < 5 or n > len(d) - p or end < 0:
            sys.exit("gen-eh-perf.py: %s: bad record at offset %d" % (path, p))
        out.append((d[p + 4:end].decode(), d[end + 1:p + n]))
        p += n
    if not out:
        sys.exit("gen-eh-perf.py: %s: no events" % path)
    return out


def raw_bytes(common_type, pid, event):
    """PERF_SAMPLE_RAW: u32 size, the common fields and the event, zero-padded so that the
    size word and the data end on 8 bytes (the size counts the padding)."""
    raw = struct.pack("<HBBi", common_type, 0, 1, pid) + event
    raw += bytes((8 - (4 + len(raw)) % 8) % 8)
    return struct.pack("<I", len(raw)) + raw


def comm(tid):
    """The command name of one of the writer threads, as sched_switch holds it."""
    return ("eh-writer-%d" % (tid - PID)).encode().ljust(16, b"\x00")


def sched_switch_raw(k):
    """A sched_switch from one of our two writer threads to the other (k: which)."""
    prev, nxt = PID + k % 2, PID + 1 - k % 2
    ev = (comm(prev) + struct.pack("<iiq", prev, 120, 1) + comm(nxt) +
          struct.pack("<ii", nxt, 120))
    return raw_bytes(SCHED_SWITCH_ID, prev, ev)


def main():
    ap = argparse.ArgumentParser(description="Write a perf.data file of EventHeader samples.")
    ap.add_argument("-n", type=int, default=1000000, help="samples (default 1000000)")
    ap.add_argument("-o", help="output file (default eh-N.data)")
    ap.add_argument("--pipe", action="store_true", help="pipe mode (perf record -o -)")
    ap.add_argument("--sched-every", type=int, default=0, metavar="K",
                    help="every K-th sample a sched_switch (default 0: none)")
    ap.add_argument("--round", type=int, default=10000, metavar="R",
                    help="a FINISHED_ROUND every R samples (default 10000)")
    ap.add_argument("--attr-size", type=int, default=128, choices=(128, 136))
    ap.add_argument("--events", default=CORPUS_DAT, metavar="FILE.dat",
                    help="interceptor file of the events (default: the shared corpus's)")
    args = ap.parse_args()
    if args.n < 1 or args.round < 1 or args.sched_every < 0:
        sys.exit("gen-eh-perf.py: -n and --round take positive numbers, --sched-every >= 0")
    out_path = args.o or "eh-%d.data" % args.n
    events = read_events(args.events)

    # one tracepoint, attribute and pair of ids (CPU 0, CPU 1) per name, in order of appearance
    names = []
    for name, _ in events:
        if name not in names:
            names.append(name)
    tp = {name: k for k, name in enumerate(names)}
    n_tp = len(names) + (1 if args.sched_every else 0)
    ids = [[100 + 2 * k, 101 + 2 * k] for k in range(n_tp + 1)]  # the last: the dummy event
    attrs = [pw.attr(BO, FIRST_ID + k, SAMPLE_TYPE, READ_FORMAT, args.attr_size, 2, TP_FLAGS,
                     CLOCK_MONOTONIC) for k in range(len(names))]
    ev_names = ["user_events:" + n for n in names]
    formats = [eventheader_format(n, FIRST_ID + k) for k, n in enumerate(names)]
    systems = [("user_events", formats)]
    if args.sched_every:
        attrs.append(pw.attr(BO, SCHED_SWITCH_ID, SAMPLE_TYPE, READ_FORMAT, args.attr_size, 2,
                             TP_FLAGS, CLOCK_MONOTONIC))
        ev_names.append("sched:sched_switch")
        systems.append(("sched", [sched_switch_format()]))
    attrs.append(pw.attr(BO, 9, DUMMY_SAMPLE_TYPE, READ_FORMAT, args.attr_size, 1, DUMMY_FLAGS,
                         CLOCK_MONOTONIC))
    ev_names.append("dummy:HG")
    dummy_ids = ids[-1]

    # the raw data of each event, per CPU (each CPU's thread is the event's common_pid)
    raws = [[raw_bytes(FIRST_ID + tp[name], PID + cpu, ev) for name, ev in events]
            for cpu in (0, 1)]
    sched_raws = [sched_switch_raw(k) for k in (0, 1)]
    head = struct.Struct("<IHHQQIIQIIQ")  # record header, then the sample fields before RAW
    round_rec = pw.record(BO, pw.R_FINISHED_ROUND, b"")

    recs = []
    for cpu in (0, 1):
        tid = PID + cpu
        body = struct.pack("<II", PID, tid) + pw.pad8(comm(tid).rstrip(b"\x00") + b"\x00")
        trailer = struct.pack("<IIQIIQ", PID, tid, T0 - 1000, cpu, 0, dummy_ids[cpu])
        recs.append(pw.record(BO, pw.R_COMM, body + trailer))
    t = T0
    k = 0  # the next interceptor event
    for i in range(args.n):
        cpu = (i // 7) % 2
        if args.sched_every and i % args.sched_every == args.sched_every - 1:
            raw = sched_raws[cpu]
            ident = ids[n_tp - 1][cpu]
        else:
            raw = raws[cpu][k]
            ident = ids[tp[events[k][0]]][cpu]
            k = k + 1 if k + 1 < len(events) else 0
        recs.append(head.pack(pw.R_SAMPLE, 1, head.size + len(raw), ident, IP, PID, PID + cpu,
                              t, cpu, 0, 1))
        recs.append(raw)
        if i % args.round == args.round - 1 or i == args.n - 1:
            recs.append(round_rec)
        t += 400 + (i * 7919) % 1200
    last = t - (400 + ((args.n - 1) * 7919) % 1200)
    data = b"".join(recs)
    del recs

    tracing = tracing_data(systems)
    feats = [(pw.F_HOSTNAME, pw.string_feature(BO, "tracekit-bench")),
             (pw.F_OSRELEASE, pw.string_feature(BO, "6.6.0-user-events")),
             (pw.F_ARCH, pw.string_feature(BO, "x86_64")),
             (pw.F_NRCPUS, struct.pack("<II", 2, 2)),
             (pw.F_SAMPLE_TIME, struct.pack("<QQ", T0, last)),
             (pw.F_CLOCKID, struct.pack("<Q", 1)),  # the clock's resolution, in ns
             (pw.F_CLOCK_DATA, struct.pack("<IIQQ", 1, CLOCK_MONOTONIC, WALL0, T0))]
    with open(out_path, "wb") as f:
        if args.pipe:
            f.write(pw.pipe_header(BO))
            for a, i in zip(attrs, ids):
                f.write(pw.pipe_attr(BO, a, i))
            for feat, blob in feats:
                f.write(pw.pipe_feature(BO, feat, blob))
            f.write(pw.pipe_tracing(BO, tracing))
            for name, i in zip(ev_names, ids):
                f.write(pw.pipe_name(BO, i[0], name))
        else:
            feats.insert(0, (pw.F_TRACING_DATA, tracing))
            feats.insert(5, (pw.F_EVENT_DESC, pw.event_desc(BO, attrs, ev_names, ids)))
            f.write(pw.file_layout(BO, attrs, ids, data, feats))
        if args.pipe:
            f.write(data)
    print("gen-eh-perf.py: %s: %d samples, %d tracepoints, %s mode, %d bytes" %
          (out_path, args.n, n_tp, "pipe" if args.pipe else "file", os.path.getsize(out_path)),
          file=sys.stderr)


main()
