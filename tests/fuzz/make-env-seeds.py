#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Recipe of the seeds in corpus/ftrace-env, in the input layout of fuzz-ftrace-env.c (entries
# KEY=STRING or KEY#INTEGER separated by NUL bytes): the environment a CTF trace converted
# from a trace.dat file carries (keys of src/tracedat/tracedat-env.c), written here by hand
# with two formats, texts in parts, text and hex options and two buffers, then one seed per
# kind of damage the reader must refuse. crash-* seeds are fuzzer findings.
# Run from this directory:  python3 make-env-seeds.py
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "ftrace-env")

HEADER_PAGE = ("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
               "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
               "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
               "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n")
COMMON = ("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
          "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
          "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
          "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")
FUNCTION = ("name: function\nID: 1\nformat:\n" + COMMON +
            "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
            "\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n\n"
            "print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n")
WAKEUP = ("name: sched_wakeup\nID: 374\nformat:\n" + COMMON +
          "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
          "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
          "\tfield:__data_loc char[] name;\toffset:28;\tsize:4;\tsigned:0;\n\n"
          "print fmt: \"comm=%s pid=%d name=%s\", REC->comm, REC->pid, __get_str(name)\n")


def valid():
    return [
        ("tracekit_ftrace", 1), ("ftrace_file_version", 7), ("ftrace_compression", "zstd"),
        ("ftrace_byte_order", "le"), ("ftrace_long_size", 8), ("ftrace_page_size", 4096),
        ("ftrace_cpus", 4), ("ftrace_header_page", HEADER_PAGE),
        ("ftrace_header_event", "# compressed entry header\n\ttype_len    :    5 bits\n"),
        ("ftrace_trace_clock", "[local] global counter\n"),
        ("ftrace_event_1_system", "ftrace"), ("ftrace_event_1_format", FUNCTION),
        ("ftrace_event_374_system", "sched"), ("ftrace_event_374_format", WAKEUP[:60]),
        ("ftrace_event_374_format_2", WAKEUP[60:]),
        ("ftrace_printk", "ffffffff81000000 : \"hello %d\\n\"\n"),
        ("ftrace_cmdlines", "1 init\n42 bash\n"),
        ("ftrace_kallsyms", "ffffffff81000000 T _text\n"),
        ("ftrace_kallsyms_2", "ffffffff81000100 t do_one\n"),
        ("ftrace_kallsyms_3", "ffffffff81000200 T do_two\t[mod]\n"),
        ("ftrace_option_1", "5 text Linux host 6.18 x86_64"),
        ("ftrace_option_2", "1 text 0x61a8b0e4c3"),
        ("ftrace_option_3", "11 hex 0102030405060708"),
        ("ftrace_option_4", "14 hex 01000000000000000000000000000000"),
        ("ftrace_buffer_0_name", ""), ("ftrace_buffer_0_clock", "local"),
        ("ftrace_buffer_0_stream_class", 0),
        ("ftrace_buffer_1_name", "foo"), ("ftrace_buffer_1_stream_class", 1),
        ("hostname", "host"),
    ]


def replace(entries, key, value):
    return [(k, value if k == key else v) for k, v in entries]


def drop(entries, key):
    return [(k, v) for k, v in entries if k != key]


def write(name, entries):
    out = bytearray()
    for k, v in entries:
        out += (k + ("#%d" % v if isinstance(v, int) else "=" + v)).encode() + b"\0"
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(out)


def main():
    os.makedirs(OUT, exist_ok=True)
    v = valid()
    write("valid", v)
    write("absent", [("hostname", "host"), ("ftrace_byte_order", "le")])
    write("later-layout", replace(v, "tracekit_ftrace", 2))
    write("missing-header-page", drop(v, "ftrace_header_page"))
    write("bad-byte-order", replace(v, "ftrace_byte_order", "pdp"))
    write("long-size-6", replace(v, "ftrace_long_size", 6))
    write("page-size-odd", replace(v, "ftrace_page_size", 5000))
    write("version-string", replace(v, "ftrace_file_version", "7"))
    write("part-gap", drop(v, "ftrace_kallsyms_2"))
    write("part-twice", v + [("ftrace_kallsyms_2", "again\n")])
    write("format-without-text", drop(drop(v, "ftrace_event_374_format"),
                                       "ftrace_event_374_format_2"))
    write("format-twice", v + [("ftrace_event_374_system", "sched")])
    write("option-bad-hex", replace(v, "ftrace_option_3", "11 hex 01zz"))
    write("option-odd-hex", replace(v, "ftrace_option_3", "11 hex 012"))
    write("option-reserved", replace(v, "ftrace_option_3", "3 hex 00"))
    write("option-no-id", replace(v, "ftrace_option_3", "hex 00"))
    write("option-big-id", replace(v, "ftrace_option_3", "70000 text x"))
    write("buffer-unnamed", replace(v, "ftrace_buffer_1_name", ""))
    write("buffer-bad-sc", replace(v, "ftrace_buffer_1_stream_class", "one"))
    write("garbage-format", replace(v, "ftrace_event_1_format", "name: \nID: x\n\tfield:"))


if __name__ == "__main__":
    main()
