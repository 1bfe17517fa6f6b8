#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of `tracekit print --style json` and `--style chrome` (run by json.sh).

The expectations come from other printouts of the same trace, parsed here on their own
terms, never from the JSON writer:

  lines JSONL BT_SECONDS BT_CYCLES BT_STDERR
      JSON lines against the babeltrace style (--names=all --fields=none --no-delta, with
      --clock-seconds and with --clock-cycles): one event object per text line, in the same
      order, with the same name, time (ns and cycles), scopes, field names and values (hex,
      octal and binary integers, %g floats, escaped strings and enumeration labels decoded
      from the text); the loss objects equal the WARNING lines babeltrace2's style prints.
  tracecmd JSONL REPORT_T FORMATS
      JSON lines of a trace.dat file against `trace-cmd report -t` (or tracekit's copy of
      it): names, CPUs, nanosecond times, common_pid (the pid column) and the lost events
      ("CPU:N [K EVENTS DROPPED]" lines, just before the event); common_type against the
      event IDs of `print --events`.
  chrome CHROME JSONL BT_SECONDS [DAT]
      The Chrome document: valid JSON, ph/ts/pid/tid/name in every event, ts as exact
      microseconds, instant events for every event but sched_switch (same order, names,
      times; args the JSON lines fields), tracks per task (common_pid, or vtid/vpid), CPU
      slices from the sched_switch events of the babeltrace text (DAT: the file is a
      trace.dat file), track names from comms the trace holds.
  valid-lines JSONL COUNT / valid-chrome CHROME COUNT
      Output of a damaged trace: every line parses (JSON lines), the document parses
      (Chrome), and COUNT events (what the babeltrace style printed) are there.

Exit status 0 when everything matches; otherwise the first differences on stdout and 1.
"""
import json
import re
import sys

CPU_PID = 4194304
problems = []


def fail(msg):
    problems.append(msg)
    if len(problems) > 20:
        finish()


def finish():
    for p in problems[:20]:
        print("    " + p)
    sys.exit(1 if problems else 0)


# ---- babeltrace-style text ---------------------------------------------------------------

BT_ESCAPES = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11,
              ord("f"): 12, ord("r"): 13, ord("e"): 27, ord("\\"): 92, ord("'"): 39,
              ord('"'): 34, ord("?"): 63}
NUM = re.compile(rb"-?(0x[0-9A-F]+|0b[01]+|0[0-7]+|nan|inf|[0-9]+(\.[0-9]+)?(e[+-][0-9]+)?)")
MEMBER = re.compile(rb"([A-Za-z_][A-Za-z0-9_]*) = ")
INDEX = re.compile(rb"\[([0-9]+)\] = ")


class Text:
    """A recursive-descent reader of one babeltrace2-style line."""

    def __init__(self, b):
        self.b = b
        self.i = 0

    def peek(self, t):
        return self.b.startswith(t, self.i)

    def expect(self, t):
        if not self.peek(t):
            raise ValueError("want %r at %d: %r" % (t, self.i, self.b[self.i:self.i + 40]))
        self.i += len(t)

    def value(self):
        if self.peek(b"{"):
            return self.brace()
        if self.peek(b"["):
            return self.array()
        if self.peek(b"("):
            return self.enum()
        if self.peek(b'"'):
            return ("str", self.string())
        m = NUM.match(self.b, self.i)
        if not m:
            raise ValueError("no value at %d: %r" % (self.i, self.b[self.i:self.i + 40]))
        self.i = m.end()
        return ("num", m.group(0).decode())

    def brace(self):
        """A structure "{ a = 1, b = 2 }", "{ }", or a variant "{ VALUE }"."""
        self.expect(b"{ ")
        if self.peek(b"}"):
            self.i += 1
            return ("struct", [])
        if not MEMBER.match(self.b, self.i):
            v = self.value()
            self.expect(b" }")
            return ("variant", v)
        members = []
        while True:
            m = MEMBER.match(self.b, self.i)
            if not m:
                raise ValueError("no member name at %d" % self.i)
            self.i = m.end()
            members.append((m.group(1).decode(), self.value()))
            if self.peek(b", "):
                self.i += 2
                continue
            self.expect(b" }")
            return ("struct", members)

    def array(self):
        self.expect(b"[ ")
        if self.peek(b"]"):
            self.i += 1
            return ("array", [])
        items = []
        while True:
            m = INDEX.match(self.b, self.i)
            if not m or int(m.group(1)) != len(items):
                raise ValueError("bad array index at %d" % self.i)
            self.i = m.end()
            items.append(self.value())
            if self.peek(b", "):
                self.i += 2
                continue
            self.expect(b" ]")
            return ("array", items)

    def enum(self):
        self.expect(b"( ")
        labels = []
        if self.peek(b"<unknown>"):
            self.i += len(b"<unknown>")
        else:
            while True:
                labels.append(self.string().decode("utf-8", "replace"))
                if not self.peek(b", "):
                    break
                self.i += 2
        self.expect(b" : container = ")
        m = NUM.match(self.b, self.i)
        self.i = m.end()
        self.expect(b" )")
        return ("enum", labels, m.group(0).decode())

    def string(self):
        self.expect(b'"')
        out = bytearray()
        while True:
            c = self.b[self.i]
            self.i += 1
            if c == 34:
                return bytes(out)
            if c != 92:
                out.append(c)
                continue
            e = self.b[self.i]
            self.i += 1
            if e == ord("x"):
                out.append(int(self.b[self.i:self.i + 2], 16))
                self.i += 2
            else:
                out.append(BT_ESCAPES[e])


SCOPES = [("stream.packet.context", "packet_context"),
          ("stream.event.context", "common_context"),
          ("event.context", "event_context"),
          ("event.fields", "fields")]


def parse_bt_line(line):
    """{"ts": text or None, "name": str, scope key: parsed value} of one event line."""
    t = Text(line)
    ev = {"ts": None}
    if t.peek(b"timestamp = "):
        t.i += len(b"timestamp = ")
        m = re.compile(rb"-?[0-9]+(\.[0-9]+)?").match(line, t.i)
        ev["ts"] = m.group(0).decode()
        t.i = m.end()
        t.expect(b", ")
    t.expect(b"name = ")
    ends = [line.find(b", " + s.encode() + b" = ", t.i) for s, _ in SCOPES]
    ends = [e for e in ends if e >= 0]
    end = min(ends) if ends else len(line)
    if not ends and line.endswith(b", "):  # --names=header ends a line without scopes so
        end -= 2
    ev["name"] = line[t.i:end].decode("utf-8", "replace")
    t.i = end
    if not ends:
        t.i = len(line)
    for text_key, key in SCOPES:
        if t.peek(b", " + text_key.encode() + b" = "):
            t.i += len(text_key) + 5
            ev[key] = t.value()
    if t.i != len(line):
        raise ValueError("left over at %d: %r" % (t.i, line[t.i:t.i + 40]))
    return ev


def read_bt(path):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out = []
    for n, line in enumerate(lines, 1):
        try:
            out.append(parse_bt_line(line))
        except (ValueError, IndexError, KeyError) as e:
            fail("%s:%d: cannot parse the babeltrace text: %s" % (path, n, e))
            finish()
    return out


def seconds_to_ns(text):
    neg = text.startswith("-")
    s, _, frac = text.lstrip("-").partition(".")
    ns = int(s) * 1000000000 + int(frac.ljust(9, "0"))
    return -ns if neg else ns


def same_int(text, v, where):
    """An integer as babeltrace2 prints it against the exact JSON number."""
    if isinstance(v, bool) or not isinstance(v, int):
        fail("%s: want an integer for %s, got %r" % (where, text, v))
        return
    neg = text.startswith("-")
    t = text.lstrip("-")
    if t.startswith("0x") or t.startswith("0b") or (len(t) > 1 and t.startswith("0")):
        if t.startswith("0x"):
            digits, bits = t[2:], 4
            want = int(digits, 16)
        elif t.startswith("0b"):
            digits, bits = t[2:], 1
            want = int(digits, 2)
        else:
            digits, bits = t[1:], 3
            want = int(digits, 8)
        # babeltrace2 shows the bits of the value: negative numbers in two's complement,
        # cut to whole digits of the field's size (or to 64 bits)
        ok = v == want or (v < 0 and (v % (1 << bits * len(digits)) == want or
                                      v % (1 << 64) == want))
    else:
        ok = v == (-int(t) if neg else int(t))
    if not ok:
        fail("%s: babeltrace style shows %s, JSON %r" % (where, text, v))


def same_float(text, v, where):
    special = {"nan": "NaN", "-nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
    if text in special:
        ok = v == special[text]
    else:
        ok = isinstance(v, float) and ("%g" % v) == text
    if not ok:
        fail("%s: babeltrace style shows %s, JSON %r" % (where, text, v))


def same(bt, js, where):
    kind = bt[0]
    if kind == "struct":
        if not isinstance(js, dict) or list(js.keys()) != [k for k, _ in bt[1]]:
            fail("%s: fields %s, JSON %s" % (where, [k for k, _ in bt[1]],
                                             list(js.keys()) if isinstance(js, dict) else js))
            return
        for k, v in bt[1]:
            same(v, js[k], where + "." + k)
    elif kind == "variant":
        same(bt[1], js, where)
    elif kind == "array":
        if not isinstance(js, list) or len(js) != len(bt[1]):
            fail("%s: %d elements, JSON %r" % (where, len(bt[1]), js))
            return
        for i, v in enumerate(bt[1]):
            same(v, js[i], "%s[%d]" % (where, i))
    elif kind == "enum":
        if not isinstance(js, dict) or list(js.keys()) != ["value", "labels"]:
            fail("%s: want {value, labels}, JSON %r" % (where, js))
            return
        if js["labels"] != bt[1]:
            fail("%s: labels %r, JSON %r" % (where, bt[1], js["labels"]))
        same_int(bt[2], js["value"], where + ".value")
    elif kind == "str":
        if js != bt[1].decode("utf-8", "replace"):
            fail("%s: string %r, JSON %r" % (where, bt[1], js))
    else:
        text = bt[1]
        if re.fullmatch(r"-?(nan|inf|[0-9]+\.[0-9]+(e[+-][0-9]+)?|[0-9]+e[+-][0-9]+)", text) \
                or isinstance(js, (float, str)):
            same_float(text, js, where)
        else:
            same_int(text, js, where)


def read_jsonl(path):
    objs = []
    with open(path, "rb") as f:
        for n, line in enumerate(f, 1):
            try:
                objs.append(json.loads(line))
            except ValueError as e:
                fail("%s:%d: not JSON: %s: %r" % (path, n, e, line[:120]))
                finish()
    return objs


EVENT_KEYS = ["ts", "cycles", "cpu", "stream", "stream_class", "stream_id", "name",
              "common_fields", "packet_context", "common_context", "event_context", "fields"]


def check_keys(obj, where):
    keys = list(obj.keys())
    order = [k for k in EVENT_KEYS if k in obj]
    if keys != order:
        fail("%s: keys %s not in the documented order" % (where, keys))
    for k in ("stream", "stream_class", "stream_id", "name", "fields"):
        if k not in obj:
            fail("%s: no %r key" % (where, k))
    if ("ts" in obj) != ("cycles" in obj):
        fail("%s: ts and cycles go together" % where)


WARNING = re.compile(r"WARNING: Tracer (may have )?discarded (([0-9]+) )?(event|packet)s? "
                     r"(between \[(-?[0-9.]+)\] and \[(-?[0-9.]+)\]|\(unknown time range\)) "
                     r'in trace .* within stream "(.*)" \(stream class ID: ([0-9]+), '
                     r"stream ID: ([0-9]+)\)\.$")


def cmd_lines(jsonl, bt_sec, bt_cyc, bt_err):
    objs = read_jsonl(jsonl)
    events = [o for o in objs if "lost" not in o]
    # CTF notices (trace.dat losses, which carry the next event's time, are checked by
    # the tracecmd command)
    losses = [o for o in objs if "lost" in o and "ts" not in o]
    sec = read_bt(bt_sec)
    cyc = read_bt(bt_cyc)
    if len(events) != len(sec) or len(sec) != len(cyc):
        fail("%d JSON events, %d babeltrace-style lines (%d with --clock-cycles)" %
             (len(events), len(sec), len(cyc)))
        finish()
    for n, (js, b, c) in enumerate(zip(events, sec, cyc), 1):
        where = "event %d (%s)" % (n, b["name"])
        check_keys(js, where)
        want_name = None if b["name"] == "<unknown>" else b["name"]
        if js.get("name") != want_name:
            fail("%s: name %r, JSON %r" % (where, want_name, js.get("name")))
        if b["ts"] is None:
            if "ts" in js:
                fail("%s: no time in the text, JSON ts %r" % (where, js["ts"]))
        else:
            if js.get("ts") != seconds_to_ns(b["ts"]):
                fail("%s: time %s s, JSON ts %r" % (where, b["ts"], js.get("ts")))
            if js.get("cycles") != int(c["ts"]):
                fail("%s: clock value %s, JSON cycles %r" % (where, c["ts"], js.get("cycles")))
        for _, key in SCOPES:
            if key in b:
                same(b[key], js.get(key), where + "." + key)
            elif key == "fields":
                if js.get("fields") != {}:
                    fail("%s: no payload in the text, JSON fields %r" % (where, js.get(key)))
            elif key in js:
                fail("%s: no %s in the text, JSON has one" % (where, key))
        # the CPU is the packet context's cpu_id, which the text shows, in every format
        pc = b.get("packet_context")
        cpu_id = [v[1] for k, v in pc[1] if k == "cpu_id" and v[0] == "num"] if pc else []
        if cpu_id and str(js.get("cpu")) != cpu_id[0]:
            fail("%s: packet context cpu_id %s, JSON cpu %r" % (where, cpu_id[0], js.get("cpu")))
    want = []
    with open(bt_err, "r", errors="replace") as f:
        for line in f:
            if line.startswith("WARNING"):
                m = WARNING.match(line.rstrip("\n"))
                if not m:
                    fail("cannot parse the warning %r" % line)
                    continue
                want.append(m)
    if len(want) != len(losses):
        fail("%d WARNING lines, %d JSON loss objects" % (len(want), len(losses)))
        finish()
    for m, js in zip(want, losses):
        where = "loss %r" % js
        count = None if m.group(1) else int(m.group(3))
        if js["lost"] != count or js.get("kind") != m.group(4) + "s":
            fail("%s: want %s %ss" % (where, count, m.group(4)))
        if m.group(6) is not None:
            if js.get("begin_ts") != seconds_to_ns(m.group(6)) or \
                    js.get("end_ts") != seconds_to_ns(m.group(7)):
                fail("%s: want range %s .. %s" % (where, m.group(6), m.group(7)))
        elif "begin_ts" in js or "end_ts" in js:
            fail("%s: want no range" % where)
        if js.get("stream") != m.group(8) or js.get("stream_class") != int(m.group(9)) or \
                js.get("stream_id") != int(m.group(10)):
            fail("%s: want stream %s (%s, %s)" % (where, m.group(8), m.group(9), m.group(10)))
    return len(events)


# ---- trace-cmd report ----------------------------------------------------------------------

REPORT = re.compile(r"^\s*(.*)-(-?[0-9]+)\s+\[([0-9]+)\]\s+([0-9]+)\.([0-9]{9}): ([^:]+):")
DROPPED = re.compile(r"^CPU:([0-9]+) \[(([0-9]+) )?EVENTS DROPPED\]$")


def cmd_tracecmd(jsonl, report, formats):
    objs = read_jsonl(jsonl)
    ids = {}
    name = None
    with open(formats, "r", errors="replace") as f:
        for line in f:
            if line.startswith("name: "):
                name = line[6:].strip()
            elif line.startswith("ID: ") and name is not None:
                ids[name] = int(line[4:])
    with open(report, "r", errors="replace") as f:
        lines = [ln.rstrip("\n") for ln in f if not ln.startswith("cpus=")]
    k = 0
    for n, line in enumerate(lines, 1):
        where = "report line %d" % n
        if k >= len(objs):
            fail("%s: no JSON object left for %r" % (where, line))
            break
        js = objs[k]
        k += 1
        m = DROPPED.match(line)
        if m:
            count = int(m.group(3)) if m.group(3) else None
            if js.get("lost", "absent") != count or js.get("cpu") != int(m.group(1)) or \
                    js.get("kind") != "events":
                fail("%s: %r, JSON %r" % (where, line, js))
            elif k >= len(objs) or "lost" in objs[k] or objs[k].get("ts") != js.get("ts") or \
                    objs[k].get("cpu") != js.get("cpu"):
                fail("%s: the loss object does not carry the next event's time and CPU" % where)
            continue
        m = REPORT.match(line)
        if not m:
            fail("%s: cannot parse %r" % (where, line))
            continue
        ts = int(m.group(4)) * 1000000000 + int(m.group(5))
        want = (m.group(6), int(m.group(3)), ts, int(m.group(2)))
        got = (js.get("name"), js.get("cpu"), js.get("ts"),
               js.get("common_fields", {}).get("common_pid"))
        if want != got:
            fail("%s: (name, cpu, ts, pid) %r, JSON %r" % (where, want, got))
        if js.get("stream_id") != js.get("cpu") or \
                js.get("packet_context") != {"cpu_id": js.get("cpu")}:
            fail("%s: stream_id and packet_context.cpu_id must be the CPU: %r" % (where, js))
        if js.get("name") in ids and \
                js.get("common_fields", {}).get("common_type") != ids[js.get("name")]:
            fail("%s: common_type %r, the format's ID is %d" %
                 (where, js.get("common_fields", {}).get("common_type"), ids[js["name"]]))
    if k != len(objs):
        fail("%d report lines, %d JSON objects" % (len(lines), len(objs)))
    return len(lines)


# ---- Chrome --------------------------------------------------------------------------------

def us_text(ns):
    sign = "-" if ns < 0 else ""
    return "%s%d.%03d" % (sign, abs(ns) // 1000, abs(ns) % 1000)


TS_TEXT = re.compile(rb'"(ts|dur)":(-?[0-9]+\.[0-9]{3})[,}]')


def read_chrome(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        doc = json.loads(raw)
    except ValueError as e:
        fail("%s: not JSON: %s" % (path, e))
        finish()
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list) or \
            doc.get("displayTimeUnit") != "ns":
        fail("%s: want {traceEvents: [...], displayTimeUnit: ns}" % path)
        finish()
    # one element per line: the times as written
    lines = raw.split(b"\n")
    elems = [ln.rstrip(b",") for ln in lines if ln.startswith(b"{\"ph\"")]
    if len(elems) != len(doc["traceEvents"]):
        fail("%s: %d element lines, %d events" % (path, len(elems), len(doc["traceEvents"])))
        finish()
    for n, (ev, text) in enumerate(zip(doc["traceEvents"], elems), 1):
        for k in ("ph", "ts", "pid", "tid", "name"):
            if k not in ev:
                fail("%s: event %d has no %r: %r" % (path, n, k, ev))
        ev["_text"] = {m.group(1).decode(): m.group(2).decode() for m in TS_TEXT.finditer(text)}
    return doc["traceEvents"]


def cmd_chrome(chrome, jsonl, bt_sec, dat):
    evs = read_chrome(chrome)
    objs = read_jsonl(jsonl)
    bt = read_bt(bt_sec)
    events = [o for o in objs if "lost" not in o]
    losses = [o for o in objs if "lost" in o]
    meta = [e for e in evs if e["ph"] == "M"]
    lost = [e for e in evs if e["ph"] == "i" and e["pid"] == CPU_PID and
            e["name"] in ("lost events", "lost packets") and list(e["args"]) == ["count"]]
    lost_ids = {id(e) for e in lost}
    inst = [e for e in evs if e["ph"] == "i" and id(e) not in lost_ids]
    slices = [e for e in evs if e["ph"] == "X"]
    if len(meta) + len(inst) + len(lost) + len(slices) != len(evs):
        fail("events of other phases: %r" % sorted({e["ph"] for e in evs}))
    for e in meta:
        if e["ts"] != 0 or e["name"] not in ("process_name", "thread_name", "process_sort_index",
                                             "thread_sort_index"):
            fail("bad metadata event %r" % e)
    # instant events: every event but sched_switch, in order, with the JSON lines' fields
    want = [(b, js) for b, js in zip(bt, events) if b["name"] != "sched_switch"]
    if len(want) != len(inst):
        fail("%d events other than sched_switch, %d instant events" % (len(want), len(inst)))
        finish()
    names = {}  # tid -> thread name
    for e in meta:
        if e["name"] == "thread_name":
            names.setdefault(e["tid"], []).append(e["args"]["name"])
    for n, ((b, js), e) in enumerate(zip(want, inst), 1):
        where = "instant %d (%s)" % (n, b["name"])
        if e["name"] != (js["name"] if js["name"] is not None else "<unknown>") or \
                e.get("s") != "t":
            fail("%s: name %r, s %r" % (where, e["name"], e.get("s")))
        if b["ts"] is not None and e["_text"].get("ts") != us_text(seconds_to_ns(b["ts"])):
            fail("%s: ts %s, want %s" % (where, e["_text"].get("ts"),
                                         us_text(seconds_to_ns(b["ts"]))))
        args = {k: v for k, v in js.items() if k in EVENT_KEYS[7:]}
        if e.get("args") != args:
            fail("%s: args %r, want %r" % (where, e.get("args"), args))
        pid = tid = None
        if "common_fields" in js:
            pid = tid = js["common_fields"]["common_pid"]
        else:
            ctx = {}
            for scope in ("event_context", "common_context"):
                if isinstance(js.get(scope), dict):
                    ctx.update(js[scope])
            tid = ctx.get("tid", ctx.get("vtid"))
            pid = ctx.get("pid", ctx.get("vpid", tid))
        if tid is None or tid == 0:
            cpu = js.get("cpu", js.get("packet_context", {}).get("cpu_id"))
            pid, tid = CPU_PID, CPU_PID + 1 + cpu if cpu is not None else CPU_PID
        if (e["pid"], e["tid"]) != (pid, tid):
            fail("%s: pid/tid %r, want %r" % (where, (e["pid"], e["tid"]), (pid, tid)))
    # CPU tracks
    for tid, ns in names.items():
        if tid > CPU_PID and ns != ["CPU %d" % (tid - CPU_PID - 1)]:
            fail("CPU track %d named %r" % (tid, ns))
    # losses on their CPU's track
    if len(lost) != len(losses):
        fail("%d JSON loss objects, %d Chrome loss events" % (len(losses), len(lost)))
    else:
        for js, e in zip(losses, lost):
            cnt = e["args"].get("count")
            if cnt != js["lost"] or e["name"] != "lost " + js["kind"]:
                fail("loss %r: Chrome %r" % (js, e))
            if "cpu" in js and e["tid"] != CPU_PID + 1 + js["cpu"]:
                fail("loss %r: on track %r" % (js, e["tid"]))
    # slices: from one sched_switch to the next on the same CPU, the last to the end
    last = max((seconds_to_ns(b["ts"]) for b in bt if b["ts"] is not None), default=0)
    open_ = {}
    want_slices = []
    for b in bt:
        if not b["name"].endswith("sched_switch"):
            continue
        cpu = int(dict(b["packet_context"][1])["cpu_id"][1])
        f = dict(b["fields"][1])
        ts = seconds_to_ns(b["ts"])
        if cpu in open_:
            s = open_[cpu]
            want_slices.append((cpu, s[0], ts, s[1], s[2]))
        pid = f["next_pid"] if "next_pid" in f else f["next_tid"]
        open_[cpu] = (ts, f["next_comm"][1].decode("utf-8", "replace"), int(pid[1]))
    for cpu, s in open_.items():
        want_slices.append((cpu, s[0], last, s[1], s[2]))
    if want_slices or slices:
        got = []
        for e in slices:
            start = e["_text"].get("ts")
            dur = e["_text"].get("dur")
            got.append((e["tid"] - CPU_PID - 1, start, dur, e["name"], e["args"].get("pid")))
            if e["pid"] != CPU_PID:
                fail("slice %r not in the CPUs' process" % e)
        want_t = [(c, us_text(a), us_text(z - a), nm, p) for c, a, z, nm, p in want_slices]
        if sorted(got) != sorted(want_t):
            g, w = set(got), set(want_t)
            fail("%d slices, want %d; only in Chrome: %r; missing: %r" %
                 (len(got), len(want_t), sorted(g - w)[:3], sorted(w - g)[:3]))
    if dat and not want_slices:
        fail("no sched_switch events: the slices are not tested")
    if dat:
        # task names: comms the trace gives for that pid
        comms = {}
        for b in bt:
            f = dict(b.get("fields", ("struct", []))[1])
            for c, p in (("comm", "pid"), ("prev_comm", "prev_pid"), ("next_comm", "next_pid"),
                         ("child_comm", "child_pid"), ("parent_comm", "parent_pid"),
                         ("newcomm", "pid")):
                if c in f and p in f:
                    comms.setdefault(int(f[p][1]), set()).add(
                        f[c][1].decode("utf-8", "replace"))
            if b["name"] == "sched_process_exec" and "filename" in f and "pid" in f:
                base = f["filename"][1].rsplit(b"/", 1)[-1][:15]
                comms.setdefault(int(f["pid"][1]), set()).add(base.decode("utf-8", "replace"))
        with open(dat, "r", errors="replace") as fr:
            for line in fr:
                m = REPORT.match(line)
                if m:
                    comms.setdefault(int(m.group(2)), set()).add(m.group(1).strip())
        for tid, ns in names.items():
            if tid < CPU_PID:
                for nm in ns:
                    if nm not in comms.get(tid, ()):
                        fail("task %d named %r, not a comm of it (%r)" %
                             (tid, nm, sorted(comms.get(tid, ()))))
        tasks = {e["tid"] for e in inst if e["pid"] != CPU_PID}
        if tasks and not any(t in names for t in tasks):
            fail("no task track is named")
    return len(evs)


def cmd_valid_lines(jsonl, count):
    objs = read_jsonl(jsonl)
    n = len([o for o in objs if "lost" not in o])
    if n != int(count):
        fail("%d JSON events, the babeltrace style printed %s" % (n, count))
    return n


def cmd_valid_chrome(chrome, count):
    evs = read_chrome(chrome)
    n = len([e for e in evs if e["ph"] in ("i", "X") and
             e["name"] not in ("lost events", "lost packets")])
    if n > int(count) or (n == 0) != (int(count) == 0):
        fail("%d instant and slice events for %s events" % (n, count))
    return n


def cmd_carried(full, kept, name):
    """
    Losses with a selection: the JSON lines of the events named NAME (kept) against those of
    every event (full). Each kept event follows, in its stream, one loss object holding the
    losses of the full printout since the kept event before it in that stream (null when one
    of them is unknown), or none when there were none.
    """
    pending, want = {}, []
    for o in read_jsonl(full):
        key = (o["stream"], o["stream_id"])
        if "lost" in o:
            if o["kind"] == "events":
                p = pending.get(key, 0)
                pending[key] = None if p is None or o["lost"] is None else p + o["lost"]
        elif o["name"] == name:
            want.append((key, o["ts"], pending.pop(key, 0)))
    got, lost = [], {}
    for o in read_jsonl(kept):
        key = (o["stream"], o["stream_id"])
        if "lost" in o:
            lost[key] = o["lost"]
        else:
            got.append((key, o["ts"], lost.pop(key, 0)))
    if len(got) != len(want):
        fail("%d kept events, the full printout has %d named %s" % (len(got), len(want), name))
    shown = 0
    for g, w in zip(got, want):
        if g != w:
            fail("event at %s of stream %s: losses before it %r, want %r" % (g[1], g[0], g[2], w[2]))
            break
        shown += g[2] != 0
    if not shown:
        fail("no kept event follows losses: the check needs some")
    return shown


def main():
    cmds = {"lines": cmd_lines, "tracecmd": cmd_tracecmd, "chrome": cmd_chrome,
            "valid-lines": cmd_valid_lines, "valid-chrome": cmd_valid_chrome,
            "carried": cmd_carried}
    args = sys.argv[2:]
    if sys.argv[1] == "chrome" and len(args) == 3:
        args.append(None)
    n = cmds[sys.argv[1]](*args)
    if not problems:
        print(n)
    finish()


if __name__ == "__main__":
    main()
