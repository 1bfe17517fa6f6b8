#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check that two CTF trace directories hold the same bytes, their trace UUIDs aside.

Usage: ctf-same.py DIR-A DIR-B

Every file under either directory (metadata, data streams, index files) must exist in both
with the same bytes, once each trace's UUID -- random for every trace the writer makes, and
present in the metadata text and in every packet header -- is replaced by zeros. Exits 1 and
names the first differing byte of each file that differs; exits 2 when a directory has no
metadata.
"""
import os
import re
import sys
import uuid

UUID = re.compile(rb'\buuid = "([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})";')


def load(top):
    """{relative path: bytes} of every file of the trace in @top, its UUID zeroed."""
    try:
        with open(os.path.join(top, 'metadata'), 'rb') as f:
            meta = f.read()
    except OSError as e:
        print(f'{top}: no metadata: {e}')
        sys.exit(2)
    m = UUID.search(meta)
    text = m.group(1) if m else None
    raw = uuid.UUID(text.decode()).bytes if text else None
    files = {}
    for root, _, names in os.walk(top):
        for name in names:
            path = os.path.join(root, name)
            with open(path, 'rb') as f:
                data = f.read()
            if raw:
                data = data.replace(raw, bytes(16)).replace(text, b'0' * len(text))
            files[os.path.relpath(path, top)] = data
    return files


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    a, b = load(sys.argv[1]), load(sys.argv[2])
    bad = 0
    for name in sorted(set(a) | set(b)):
        x, y = a.get(name), b.get(name)
        if x == y:
            continue
        bad = 1
        if x is None or y is None:
            print(f'{name}: only in {sys.argv[1] if y is None else sys.argv[2]}')
            continue
        n = min(len(x), len(y))
        at = next((i for i in range(n) if x[i] != y[i]), n)
        print(f'{name}: differs at byte {at} (sizes {len(x)} and {len(y)})')
    return bad


if __name__ == '__main__':
    sys.exit(main())
