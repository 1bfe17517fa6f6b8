#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write, by hand, a CTF 1.8 trace shaped as an LTTng snapshot of an overwrite-mode buffer.

Usage: ctf-overwrite.py DIR

In overwrite (flight recorder) mode the ring buffer drops its oldest sub-buffers, so a
snapshot holds packets whose packet_seq_num skips and whose events_discarded counter grew at
the same packet. For such a packet babeltrace2 reports discarded events from the previous
packet's end to this packet's end, and discarded packets from the previous packet's end to
this packet's beginning: two ranges where the second begins before the first ends. Two
streams (CPUs 0 and 1), every value from the literals below.
"""
import os
import struct
import sys

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;

trace {
	major = 1;
	minor = 8;
	byte_order = le;
	packet.header := struct { uint32_t magic; uint32_t stream_id; uint64_t stream_instance_id; };
};

clock {
	name = monotonic;
	freq = 1000000000;
	offset_s = 1700000000;
};

typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := ts_t;

stream {
	id = 0;
	packet.context := struct {
		ts_t timestamp_begin;
		ts_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint64_t packet_seq_num;
		uint64_t events_discarded;
		uint32_t cpu_id;
	};
	event.header := struct { uint32_t id; ts_t timestamp; };
};

event {
	name = "ow:tick";
	id = 0;
	stream_id = 0;
	fields := struct { uint32_t n; };
};
"""

# per CPU: packets (seq, begin, end, events_discarded, [event times])
STREAMS = {
    0: [(0, 1000, 2000, 0, [1100, 1900]),
        (3, 5000, 6000, 10, [5100, 5900]),
        (4, 6000, 7000, 10, [6500]),
        (6, 8000, 9000, 15, [8500, 8600])],
    1: [(2, 1500, 2500, 4, [1600]),
        (5, 4000, 4500, 9, [4100, 4400]),
        (6, 4500, 9500, 9, [9000])],
}


def main():
    out = sys.argv[1]
    os.makedirs(out)
    with open(os.path.join(out, "metadata"), "w") as m:
        m.write(METADATA)
    n = 0
    for cpu, packets in STREAMS.items():
        data = b""
        for seq, begin, end, disc, times in packets:
            body = b""
            for t in times:
                body += struct.pack("<IQI", 0, t, n)
                n += 1
            size = 16 + 52 + len(body)
            data += struct.pack("<IIQ", 0xC1FC1FC1, 0, cpu)
            data += struct.pack("<QQQQQQI", begin, end, size * 8, size * 8, seq, disc, cpu)
            data += body
        with open(os.path.join(out, "chan_%d" % cpu), "wb") as s:
            s.write(data)


main()
