#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Damaged copies of a corpus file through `tracekit print --style STYLE`: cut at 12 places
# and with one bit flipped at 40 places (fixed seed). Each run must end with exit status 0 or
# 1 (no crash, no other status) within 20 s. A cut copy must print a prefix of the reference
# events (every whole event before the cut, as the reference file has it) and, unless the
# cut falls between records, fail with exit 1 and an error naming where (offset= or
# record=). A flipped copy read whole (exit 0) must print every event as the reference has
# it except the one the flip is in, which may differ or be missing (a flip can make a sample
# another valid kind of record, as perf would read it too); when it fails (exit 1) the error
# must name where, and what came before it must match.
#
# Usage: perf-decode-damage.py TRACEKIT STYLE FILE REFERENCE_JSON
import os
import random
import subprocess
import sys
import tempfile


def events(data):
    """The event lines of the formatter's framing (one event per line)."""
    out = []
    for line in data.split(b"\n")[2:]:
        line = line.strip()
        if line.endswith(b" ]"):
            line = line[:-2].rstrip()
        if line.endswith(b","):
            line = line[:-1]
        if line.startswith(b"{"):
            out.append(line)
    return out


def run(tk, style, path):
    try:
        p = subprocess.run([tk, "print", "--style", style, path], capture_output=True,
                           timeout=20)
    except subprocess.TimeoutExpired:
        return None, b"", b"timeout"
    return p.returncode, p.stdout, p.stderr


def main():
    tk, style, path, ref = sys.argv[1:5]
    data = open(path, "rb").read()
    want = events(open(ref, "rb").read())
    bad = 0
    tmp = tempfile.mkdtemp()
    copy = os.path.join(tmp, os.path.basename(path))
    rng = random.Random(13)
    cuts = [len(data) * k // 13 for k in range(1, 13)]
    flips = sorted(rng.randrange(len(data)) for _ in range(40))
    for kind, where in [("cut", c) for c in cuts] + [("flip", f) for f in flips]:
        if kind == "cut":
            damaged = data[:where]
        else:
            damaged = bytearray(data)
            damaged[where] ^= 1 << rng.randrange(8)
        with open(copy, "wb") as f:
            f.write(damaged)
        rc, out, err = run(tk, style, copy)
        got = events(out)
        what = "%s at %d" % (kind, where)
        if rc not in (0, 1):
            print("FAIL %s: exit status %s: %s" % (what, rc, err[:300]))
            bad += 1
            continue
        if rc == 1 and b"offset=" not in err and b"record=" not in err:
            print("FAIL %s: the error names no place: %s" % (what, err[:300]))
            bad += 1
        if kind == "cut":
            ok = got == want[:len(got)]
            if rc == 0 and len(got) == len(want):
                ok = False  # a cut file that reads whole
        elif rc == 0:
            # all of it read: the reference's events, but the damaged one may differ or, when
            # the flip made its record another valid kind, be missing
            diff = [i for i, (x, y) in enumerate(zip(got, want)) if x != y]
            ok = (len(got) == len(want) and len(diff) <= 1) or (
                len(got) == len(want) - 1 and
                any(got == want[:i] + want[i + 1:] for i in range(len(want))))
        else:
            # a failure: what came before it as the reference has it, but the last event
            diff = [i for i, (x, y) in enumerate(zip(got, want)) if x != y]
            ok = len(got) <= len(want) and (not diff or diff == [len(got) - 1])
        if not ok:
            print("FAIL %s: exit %d, %d events (reference %d), not the reference's" %
                  (what, rc, len(got), len(want)))
            bad += 1
    print("%s: %d cut and %d flipped copies checked, %d failures" %
          (os.path.basename(path), len(cuts), len(flips), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
