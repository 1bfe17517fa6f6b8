#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Writes a small pipe-mode perf.data file in the byte order asked for, as perf record writes
# one on a kernel of that order: one tracepoint attribute (sample_id_all; samples with tid,
# time, CPU and raw data), the tracing data in trace.dat's layout (perf's "0.6": a 4 KiB
# sub-buffer's header_page, one event format "tktest:tk_value" with ID 7), COMM records
# naming the tasks, a task renamed by exec, samples on CPUs 0 and 1 (one of them after 5
# lost samples), each raw record a whole ftrace record in that byte order. Both files hold
# the same events, so whatever reads them must print them alike.
#
# Usage: perf-dat-gen.py le|be OUTPUT
import struct
import sys

ORDER = {"le": "<", "be": ">"}[sys.argv[1]]
ID = 7
FORMAT = b"""name: tk_value
ID: 7
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:unsigned int value;\toffset:8;\tsize:4;\tsigned:0;
\tfield:char label[8];\toffset:12;\tsize:8;\tsigned:0;

print fmt: "value=%u label=%s", REC->value, REC->label
"""
HEADER_PAGE = (b"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
               b"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
               b"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
               b"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n")
HEADER_EVENT = (b"# compressed entry header\n\ttype_len    :    5 bits\n"
                b"\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n"
                b"\tpadding     : type == 29\n\ttime_extend : type == 30\n"
                b"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")


def p(fmt, *v):
    return struct.pack(ORDER + fmt, *v)


def record(rtype, body):
    return p("IHH", rtype, 0, 8 + len(body)) + body


def tracing_data():
    t = b"\x17\x08\x44tracing0.6\0" + bytes([ORDER == ">", 8]) + p("I", 4096)
    t += b"header_page\0" + p("Q", len(HEADER_PAGE)) + HEADER_PAGE
    t += b"header_event\0" + p("Q", len(HEADER_EVENT)) + HEADER_EVENT
    t += p("I", 0)  # no ftrace formats
    t += p("I", 1) + b"tktest\0" + p("I", 1) + p("Q", len(FORMAT)) + FORMAT
    t += p("I", 0)  # kallsyms: none, as perf record writes
    t += p("I", 0)  # printk formats
    t += p("Q", 0)  # saved command lines
    return t


def trailer(pid, tid, time, cpu):
    return p("IIQII", pid, tid, time, cpu, 0)


def comm(pid, name, time):
    return record(3, p("II", pid, pid) + name.ljust(16, b"\0") + trailer(pid, pid, time, 0))


def sample(pid, time, cpu, value, label):
    raw = p("HBBiI", ID, 0, 0, pid, value) + label.ljust(8, b"\0")  # 20 bytes: 4 + 20 = 24
    return record(9, p("IIQII", pid, pid, time, cpu, 0) + p("I", len(raw)) + raw)


def main():
    sample_type = 0x2 | 0x4 | 0x80 | 0x400  # TID, TIME, CPU, RAW
    flags = 1 << (63 - 18 if ORDER == ">" else 18)  # sample_id_all, a bit field
    attr = p("IIQQQQQ", 2, 72, ID, 1, sample_type, 0, flags) + bytes(72 - 48)
    out = b"PERFILE2" if ORDER == "<" else b"2ELIFREP"
    out += p("Q", 16)
    out += record(64, attr)
    td = tracing_data()
    out += record(66, p("I", len(td))) + td + bytes(-len(td) % 8)
    out += comm(100, b"alpha", 1000)
    out += comm(200, b"beta", 1000)
    out += sample(100, 2000, 0, 1, b"one")
    out += sample(200, 2500, 1, 2, b"two")
    out += sample(100, 3000, 0, 3, b"three")
    out += record(13, p("Q", 5) + trailer(200, 200, 3500, 1))  # 5 samples lost on CPU 1
    out += sample(200, 4000, 1, 4, b"four")
    out += comm(100, b"gamma", 4500)  # exec
    out += sample(100, 5000, 0, 5, b"five")
    out += sample(200, 6000, 1, 6, b"six")
    with open(sys.argv[2], "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
