#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check a trace.dat made from a CTF trace against that CTF trace, through their JSON lines.

Usage: ctf-dat-check.py CTF.jsonl DAT.jsonl

Both files are `tracekit print --style json` output. Every CTF event must be in the
trace.dat file once, with the same nanosecond time, and its values in the fields the
conversion promises (doc/format-tracedat.md section 9):
  - the CPU is the packet context's cpu_id (0 without one); the time is the CTF time (0 for
    events without a clock);
  - the name is the part after "provider:", other characters than letters, digits and '_'
    made '_';
  - the fields are the leaves of the stream event context, event context and payload, in
    that order, structures flattened as NAME_MEMBER, names made of letters, digits and '_'
    (a leading digit gets '_', a name met before gets _2, _3, ...); enumerations as their
    value; floats as their IEEE 754 bits (32 or 64);
  - a variant is every option flattened as VARIANT_OPTION: the selected option's value must
    be in one of them, fields nothing matches must hold nothing (0, "" or []);
  - common_pid is the context field tid, vtid, pid or vpid (the first present), else 0;
  - the events lost add up to the same number (CTF discarded events; losses of unknown size
    are not counted).
What cannot exist in the other format is left out of the comparison: the CTF stream paths,
stream class and ids (trace.dat numbers streams by CPU), raw clock cycles, packet context
fields other than cpu_id, common_type and the other common fields (made up for trace.dat).
Events of equal time come in an order each format chooses: events are compared as sorted
lists.
"""
import json
import re
import struct
import sys

COMMON = ["common_type", "common_flags", "common_preempt_count", "common_pid"]


def sanitize(name):
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not name:
        return "_"
    return "_" + name if name[0].isdigit() else name


def is_enum(v):
    return isinstance(v, dict) and set(v) == {"value", "labels"}


def leaves(prefix, value, out):
    if isinstance(value, dict) and not is_enum(value):
        for k, v in value.items():
            leaves(prefix + "_" + k if prefix else k, v, out)
    else:
        out.append((prefix, value["value"] if is_enum(value) else value))


def same(want, got):
    if isinstance(want, float) or want in ("NaN", "Infinity", "-Infinity"):
        d = float(want)
        bits = {struct.unpack("<Q", struct.pack("<d", d))[0]}
        try:
            bits.add(struct.unpack("<I", struct.pack("<f", d))[0])
        except OverflowError:
            pass
        return got in bits
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(same(a, b) for a, b in zip(want, got))
    return want == got


def empty(v):
    return v in (0, "", []) or v is None


def expected(ev):
    out = []
    for scope in ("common_context", "event_context", "fields"):
        if scope in ev:
            leaves("", ev[scope], out)
    names = list(COMMON)
    named = []
    for name, value in out:
        base = sanitize(name)
        n, k = base, 2
        while n in names:
            n = "%s_%d" % (base, k)
            k += 1
        names.append(n)
        named.append((n, value))
    return named


def pid_of(ev):
    for key in ("tid", "vtid", "pid", "vpid"):
        for scope in ("common_context", "event_context"):
            v = ev.get(scope, {}).get(key)
            if isinstance(v, int):
                return v
            if is_enum(v):
                return v["value"]
    return 0


def main():
    ctf = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8", errors="surrogateescape")]
    dat = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8", errors="surrogateescape")]
    errors = []
    lost_ctf = sum(e["lost"] for e in ctf if "lost" in e and e.get("kind") == "events" and e["lost"])
    lost_dat = sum(e["lost"] for e in dat if "lost" in e and e["lost"])
    if lost_ctf != lost_dat:
        errors.append("lost events: CTF %d, trace.dat %d" % (lost_ctf, lost_dat))
    want = []
    for ev in ctf:
        if "name" not in ev:
            continue
        name = ev["name"] or ""
        name = sanitize(name.split(":", 1)[1] if ":" in name else name) or "event"
        want.append((ev.get("ts", 0), ev.get("packet_context", {}).get("cpu_id", 0), name,
                     expected(ev), pid_of(ev)))
    got = [e for e in dat if "name" in e]
    if len(want) != len(got):
        errors.append("events: CTF %d, trace.dat %d" % (len(want), len(got)))
    key = lambda e: json.dumps(e, sort_keys=True)
    want.sort(key=lambda w: (w[0], w[1], w[2], key(w[3])))
    got.sort(key=lambda g: (g["ts"], g["cpu"], g["name"], key(list(g["fields"].items()))))
    # pair events by time, CPU and name; then values
    for w, g in zip(want, got):
        where = "event at %d on CPU %d (%s)" % (w[0], w[1], w[2])
        if (g["ts"], g["cpu"], g["name"]) != w[:3]:
            errors.append("%s: trace.dat has %s at %d on CPU %d" % (where, g["name"], g["ts"], g["cpu"]))
            continue
        if g["packet_context"].get("cpu_id") != w[1]:
            errors.append("%s: packet context %s" % (where, g["packet_context"]))
        if g["common_fields"].get("common_pid") != w[4]:
            errors.append("%s: common_pid %s, want %d" % (where, g["common_fields"].get("common_pid"), w[4]))
        fields = g["fields"]
        used = set()
        for name, value in w[3]:
            if name in fields and same(value, fields[name]):
                used.add(name)
                continue
            # a variant: the selected option is one of NAME_OPTION
            alt = [k for k in fields if k.startswith(name + "_") and k not in used and same(value, fields[k])]
            if name not in fields and alt:
                used.add(alt[0])
                continue
            errors.append("%s: field %s is %r in trace.dat, %r in CTF" % (where, name, fields.get(name), value))
        for k, v in fields.items():
            if k not in used and not empty(v):
                errors.append("%s: field %s=%r matches nothing in CTF" % (where, k, v))
        if len(errors) > 20:
            break
    for e in errors[:20]:
        print("  " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
