#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Compares two outputs in the layout of the EventHeader reference decoder's tests (a UTF-8
# BOM, then a JSON member whose value is an array of events) event by event, after
# normalising only two things: the member's name (the file's name, which differs between
# harnesses) and whitespace outside strings (the spaced and compact layouts). Everything
# else, including bytes that are not valid UTF-8 (the reference writes code points above
# U+10FFFF as 5 to 7-byte sequences), must be identical, so the files are read as bytes.
#
# Usage: eventheader-json.py [--no-sample-meta] ACTUAL EXPECTED
# Prints "N of M events match" and each difference; exit status 1 when anything differs.
import re
import sys

WS = b" \t\r\n"


def split(data):
    """(head, [event bytes], tail) of a member-of-array document, whitespace dropped."""
    head = bytearray()
    events = []
    cur = bytearray()
    tail = bytearray()
    depth = 0
    in_str = False
    esc = False
    member_done = False
    part = head
    i = 0
    while i < len(data):
        c = data[i:i + 1]
        i += 1
        if in_str:
            if not member_done and depth == 0:
                pass  # the member name is replaced below
            else:
                part += c
            if esc:
                esc = False
            elif c == b"\\":
                esc = True
            elif c == b'"':
                in_str = False
                if depth == 0 and not member_done:
                    head += b'MEMBER"'
                    member_done = True
            continue
        if c in (b" ", b"\t", b"\r", b"\n"):
            continue
        if c == b'"':
            in_str = True
            if depth == 0 and not member_done:
                head += b'"'
            else:
                part += c
            continue
        if c in (b"{", b"["):
            depth += 1
            if depth == 1:
                head += c
                part = cur
                continue
        elif c in (b"}", b"]"):
            depth -= 1
            if depth == 0:
                if cur:
                    events.append(bytes(cur))
                part = tail
        elif c == b"," and depth == 1:
            events.append(bytes(cur))
            cur.clear()
            continue
        part += c
    return bytes(head), events, bytes(tail)


# --no-sample-meta: the actual output's "meta" members of a recorded sample (time, cpu, pid,
# tid), which an interceptor file has not, are dropped before comparing.
SAMPLE_META = re.compile(rb'"time":[0-9.]+,"cpu":[0-9]+,"pid":[0-9]+,"tid":[0-9]+,?')


# --text-to-nul: in both, text values end at their first NUL (\u0000): what a trace converted
# to CTF keeps of counted 8-bit text, since a CTF text field ends at its first NUL as
# babeltrace2 reads it (doc/format-eventheader.md). Hex bytes are not text.
TEXT_NUL = re.compile(rb'\\u0000(?:[^"\\]|\\.)*"')


def main():
    opts = ("--no-sample-meta", "--text-to-nul")
    args = [a for a in sys.argv[1:] if a not in opts]
    with open(args[0], "rb") as f:
        actual = split(f.read())
    if "--no-sample-meta" in sys.argv:
        actual = (actual[0], [SAMPLE_META.sub(b"", e) for e in actual[1]], actual[2])
    with open(args[1], "rb") as f:
        expected = split(f.read())
    if "--text-to-nul" in sys.argv:
        expected = (expected[0], [TEXT_NUL.sub(b'"', e) for e in expected[1]], expected[2])
        actual = (actual[0], [TEXT_NUL.sub(b'"', e) for e in actual[1]], actual[2])
    bad = 0
    if actual[0] != expected[0]:
        print("FAIL head: %r != %r" % (actual[0], expected[0]))
        bad += 1
    if actual[2] != expected[2]:
        print("FAIL tail: %r != %r" % (actual[2], expected[2]))
        bad += 1
    a, e = actual[1], expected[1]
    same = sum(1 for x, y in zip(a, e) if x == y)
    print("%d of %d events match" % (same, len(e)))
    if len(a) != len(e):
        print("FAIL event count: %d != %d" % (len(a), len(e)))
        bad += 1
    for n, (x, y) in enumerate(zip(a, e)):
        if x != y:
            bad += 1
            print("FAIL event %d:\n  got:  %s\n  want: %s" %
                  (n + 1, x[:400].decode("utf-8", "replace"), y[:400].decode("utf-8", "replace")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
