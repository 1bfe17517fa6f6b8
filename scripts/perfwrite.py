# SPDX-License-Identifier: MIT
#
# perf.data writing helpers, shared by the scripts that make perf.data files field by field:
# tests/fuzz/make-perf-seeds.py (small seeds) and bench/gen-eh-perf.py (a million samples).
# Written from the layout of perf_event_attr (linux/perf_event.h) and of perf's file and pipe
# modes (tools/perf/Documentation/perf.data-file-format.txt). Byte order is an argument
# everywhere ("<" or ">", as struct spells it), so both orders come from the same code.
#
#   import perfwrite as pw
#   a = pw.attr("<", config, pw.S_TID | pw.S_TIME | pw.S_RAW)
#   blob = pw.file_layout("<", [a], [[11]], data, [(pw.F_TRACING_DATA, tracing)])
import struct

# perf_event_attr.sample_type bits
S_IP, S_TID, S_TIME, S_READ, S_CALLCHAIN, S_ID, S_CPU, S_PERIOD, S_RAW, S_IDENT = (
    1, 2, 4, 16, 32, 64, 128, 256, 1024, 65536)

# perf_event_attr flag bits (numbered from the low bit of a little-endian word)
A_DISABLED, A_INHERIT, A_MMAP, A_COMM, A_TASK, A_SAMPLE_ID_ALL = 0, 1, 8, 9, 13, 18
A_EXCLUDE_GUEST, A_MMAP2, A_COMM_EXEC, A_USE_CLOCKID = 20, 23, 24, 25
A_KSYMBOL, A_BPF_EVENT = 29, 30

# record types
R_LOST, R_COMM, R_SAMPLE = 2, 3, 9
R_HEADER_ATTR, R_HEADER_TRACING_DATA, R_FINISHED_ROUND = 64, 66, 68
R_EVENT_UPDATE, R_HEADER_FEATURE = 78, 80

# feature bits of the file header (and of HEADER_FEATURE records in pipe mode)
F_TRACING_DATA, F_HOSTNAME, F_OSRELEASE, F_VERSION, F_ARCH, F_NRCPUS = 1, 3, 4, 5, 6, 7
F_CMDLINE, F_EVENT_DESC, F_SAMPLE_TIME, F_CLOCKID, F_CLOCK_DATA = 11, 12, 21, 23, 29

FILE_HEADER_SIZE = 104
PIPE_HEADER_SIZE = 16


def magic(bo):
    return b"PERFILE2" if bo == "<" else b"2ELIFREP"


def attr(bo, config, sample_type, read_format=0, size=136, type_=2,
         flags=(A_SAMPLE_ID_ALL,), clockid=None):
    """A perf_event_attr of @size bytes: a tracepoint (type 2) unless said otherwise, period 1.
    Bit fields count from the low bit of a little-endian word, the high bit of a big one."""
    word = 0
    for bit in flags:
        word |= 1 << (bit if bo == "<" else 63 - bit)
    a = struct.pack(bo + "IIQQQQQ", type_, size, config, 1, sample_type, read_format, word)
    a += bytes(size - len(a))
    if clockid is not None:  # at offset 92, after sample_stack_user
        a = a[:92] + struct.pack(bo + "i", clockid) + a[96:]
    return a


def record(bo, rtype, body, misc=0):
    return struct.pack(bo + "IHH", rtype, misc, 8 + len(body)) + body


def pad8(b):
    return b + bytes((8 - len(b) % 8) % 8)


def string_feature(bo, s):
    """A string feature (HOSTNAME, ARCH, ...): u32 length, then the string NUL-padded to 64."""
    b = s.encode() + b"\x00"
    b += bytes((64 - len(b) % 64) % 64)
    return struct.pack(bo + "I", len(b)) + b


def event_desc(bo, attrs, names, ids):
    """EVENT_DESC: per attribute its bytes, id count, NUL-padded name and ids (@ids: one id or
    a list per attribute)."""
    b = struct.pack(bo + "II", len(attrs), len(attrs[0]))
    for a, name, i in zip(attrs, names, ids):
        i = [i] if isinstance(i, int) else i
        nm = pad8(name.encode() + b"\x00")
        b += a + struct.pack(bo + "II", len(i), len(nm)) + nm
        b += b"".join(struct.pack(bo + "Q", x) for x in i)
    return b


def file_layout(bo, attrs, ids, data, feats):
    """A file-mode perf.data: the header, the attributes (each with the section of its ids), the
    ids, the data records, then the feature index and sections. @ids: a list of ids per
    attribute; @feats: (feature bit, bytes) in increasing bit order."""
    attr_entry = len(attrs[0]) + 16
    attrs_off = FILE_HEADER_SIZE
    ids_off = attrs_off + attr_entry * len(attrs)
    data_off = ids_off + 8 * sum(len(i) for i in ids)
    feat_index_off = data_off + len(data)
    feat_data_off = feat_index_off + 16 * len(feats)
    index = b""
    blobs = b""
    for _, blob in feats:
        index += struct.pack(bo + "QQ", feat_data_off + len(blobs), len(blob))
        blobs += blob
    bits = [0, 0, 0, 0]
    for f, _ in feats:
        bits[f // 64] |= 1 << (f % 64)
    out = magic(bo) + struct.pack(bo + "QQQQQQQQ", FILE_HEADER_SIZE, attr_entry, attrs_off,
                                  attr_entry * len(attrs), data_off, len(data), 0, 0)
    out += struct.pack(bo + "QQQQ", *bits)
    at = ids_off
    for a, i in zip(attrs, ids):
        out += a + struct.pack(bo + "QQ", at, 8 * len(i))
        at += 8 * len(i)
    out += b"".join(struct.pack(bo + "Q", x) for i in ids for x in i)
    return out + data + index + blobs


def pipe_header(bo):
    return magic(bo) + struct.pack(bo + "Q", PIPE_HEADER_SIZE)


def pipe_attr(bo, a, ids):
    """HEADER_ATTR: the attribute, then its ids."""
    return record(bo, R_HEADER_ATTR, a + b"".join(struct.pack(bo + "Q", i) for i in ids))


def pipe_name(bo, ident, name):
    """EVENT_UPDATE of type NAME (1): the name of the attribute that has sample id @ident."""
    return record(bo, R_EVENT_UPDATE, struct.pack(bo + "QQ", 1, ident) +
                  pad8(name.encode() + b"\x00\x00"))


def pipe_tracing(bo, tracing, extra_word=False):
    """HEADER_TRACING_DATA: a 12-byte record of one u32, the size of the tracing data that
    follows it outside the record, padded to 8; the size counts the padding, as perf writes it
    (perf checks it, and LinuxTracepoints reads the data right after the u32). @extra_word: a
    zero u32 after the size (a 16-byte record), which readers that skip the record by its
    header's size accept too; the fuzz seeds have it."""
    blob = pad8(tracing)
    body = struct.pack(bo + "I", len(blob)) + (bytes(4) if extra_word else b"")
    return record(bo, R_HEADER_TRACING_DATA, body) + blob


def pipe_feature(bo, feat, blob):
    """HEADER_FEATURE: u64 feature bit, then the feature's bytes as in file mode."""
    return record(bo, R_HEADER_FEATURE, struct.pack(bo + "Q", feat) + blob)
