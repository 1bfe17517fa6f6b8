#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare babeltrace2 and tracekit text output, allowing one known babeltrace2 bug.

babeltrace2 2.0 clears a string field by setting its length to zero without terminating the
buffer, and recycles event objects, so an empty string (or zero-length text sequence, or text
array starting with NUL) may print the text of an earlier event. tracekit prints "" there.

Usage: stale-empty.py BABELTRACE2-OUT TRACEKIT-OUT [REFERENCE]

Lines must be identical, except that a string literal tracekit prints as "" may be any string
literal in babeltrace2's line; everything else on that line must match exactly. Prints the
number of lines that needed this allowance; exits 1 and shows the first differences when the
files differ in any other way. The caller checks the number of "" values against the count of
empty text fields the generator wrote (gen-ctf --count-empty), so an empty value printed in
place of real text cannot pass. Or it gives a REFERENCE: the text of a recording of the same
events in which babeltrace2 and tracekit agree; a line that needed the allowance must then
have tracekit's payload (its last top-level { ... } group) among the payloads REFERENCE has
for that event name.
"""
import re
import sys

STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def split(line):
    """Alternating [text, literal, text, literal, ..., text] pieces of one output line."""
    pieces = []
    pos = 0
    for m in STRING.finditer(line):
        pieces.append(line[pos:m.start()])
        pieces.append(m.group(0))
        pos = m.end()
    pieces.append(line[pos:])
    return pieces


def stale_only(want, got):
    """True when GOT differs from WANT only by "" literals where WANT has other literals."""
    a, b = split(want), split(got)
    if len(a) != len(b):
        return False
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y and not (i % 2 == 1 and y == b'""'):
            return False
    return True


def payload(line):
    """(event name, last top-level { ... } group) of a babeltrace2 line, or None."""
    name = re.search(rb'\) \S+ (\S+): ', line)
    depth, start, last = 0, None, None
    for m in re.finditer(rb'"(?:[^"\\]|\\.)*"|[{}]', line):
        t = m.group(0)
        if t == b'{':
            depth += 1
            if depth == 1:
                start = m.start()
        elif t == b'}':
            depth -= 1
            if depth == 0 and start is not None:
                last = line[start:m.end()]
    return (name.group(1), last) if name and last else None


def main():
    if len(sys.argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    with open(sys.argv[1], 'rb') as f:
        want = f.read().split(b'\n')
    with open(sys.argv[2], 'rb') as f:
        got = f.read().split(b'\n')
    known = None
    if len(sys.argv) == 4:
        with open(sys.argv[3], 'rb') as f:
            known = set(payload(x) for x in f.read().split(b'\n'))
    allowed = 0
    bad = []
    if len(want) != len(got):
        bad.append(b'line count: babeltrace2 %d, tracekit %d' % (len(want), len(got)))
    for n, (x, y) in enumerate(zip(want, got), 1):
        if x == y:
            continue
        if stale_only(x, y) and (known is None or payload(y) in known):
            allowed += 1
        else:
            bad.append(b'line %d\n    < %s\n    > %s' % (n, x[:300], y[:300]))
    if bad:
        for b in bad[:3]:
            sys.stdout.buffer.write(b'    ' + b + b'\n')
        return 1
    print(allowed)
    return 0


if __name__ == '__main__':
    sys.exit(main())
