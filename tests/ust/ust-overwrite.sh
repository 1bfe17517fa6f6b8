#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Overwrite (flight-recorder) mode under a burst (tests/ust/ust-overwrite.c): rings of four
# 4 KiB packets, thread 0 ended early, THREADS threads writing while snapshot 1 (the API) and
# snapshot 2 (SIGUSR1) are taken, snapshot 3 at the stop. For each snapshot: babeltrace2
# reads it with exit status 0 and nothing on stderr but its discarded-packets warnings;
# `tracekit print` prints the same bytes on stdout and the same warnings; each thread's events
# are whole packets in order (a packet holds K = (4096 - 92) / 36 of these 36-byte events:
# packet header and context, 6-byte event header, 30-byte payload), the last one possibly
# partial (the open packet); the packets overwritten, counted from the event numbers
# (packet of event n: n / K + 1, packet 0 being the snapshot's empty first one), are those
# babeltrace2 reports discarded, stream by stream (a stream's gaps summed: a packet torn while
# copied is a gap between two kept ones). Where the test knows the thread's last event (thread
# 0, and every thread at the stop) the events kept must be exactly the newest four packets'
# worth ending at it; elsewhere they must end between the events emitted before and after
# the snapshot. Skips without babeltrace2.
# Usage: ust-overwrite.sh UST-OVERWRITE TRACEKIT [THREADS EARLY]
set -u
prog=$1
tracekit=$2
threads=${3:-3}
early=${4:-1000}
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
need_commands babeltrace2 # the oracle
scratch

K=$(((4096 - 92) / 36))
TRACEKIT_UST_MODE=overwrite TRACEKIT_UST_SNAPSHOT_SIGNAL=USR1 \
	"$prog" "$tmp/trace" "$threads" "$early" >"$tmp/prog.out" || fail "ust-overwrite exited with $?"
n=$(ls "$tmp/trace" | wc -l)
[ "$n" -eq 3 ] || fail "$n entries in the session directory, 3 snapshots wanted: $(ls "$tmp/trace")"
for s in 1 2 3; do
	d=$(ls -d "$tmp/trace/snapshot-$s-"* 2>/dev/null)
	case $(basename "$d") in
	snapshot-$s-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9]) ;;
	*) fail "snapshot $s: no directory snapshot-$s-YYYYMMDD-HHMMSS ($(ls "$tmp/trace"))" ;;
	esac
	babeltrace2 "$d" >"$tmp/bt.out" 2>"$tmp/bt.err" || {
		rc=$?
		head -5 "$tmp/bt.err"
		fail "snapshot $s: babeltrace2 exited with $rc"
	}
	if grep -v '^WARNING: Tracer discarded [0-9]* packets\{0,1\} between ' "$tmp/bt.err" >"$tmp/other"; then
		head -5 "$tmp/other"
		fail "snapshot $s: babeltrace2 wrote more than discarded-packets warnings"
	fi
	"$tracekit" print "$d" >"$tmp/tk.out" 2>"$tmp/tk.err" || fail "snapshot $s: tracekit exited with $?"
	cmp -s "$tmp/bt.out" "$tmp/tk.out" || {
		diff "$tmp/bt.out" "$tmp/tk.out" | head -5
		fail "snapshot $s: tracekit print differs from babeltrace2"
	}
	cmp -s "$tmp/bt.err" "$tmp/tk.err" || {
		diff "$tmp/bt.err" "$tmp/tk.err" | head -5
		fail "snapshot $s: tracekit's warnings differ from babeltrace2's"
	}
	# per thread (u8) its numbers (s32); what the program said of this snapshot
	sed -n 's/.* s32 = \(-\{0,1\}[0-9]*\), .* u8 = \([0-9]*\), .*/\2 \1/p' "$tmp/bt.out" >"$tmp/ev"
	[ "$(wc -l <"$tmp/ev")" -eq "$(wc -l <"$tmp/bt.out")" ] || fail "snapshot $s: lines not understood"
	grep "^$s " "$tmp/prog.out" | cut -d' ' -f2- >"$tmp/exp"
	awk -v K="$K" -v R=4 -v S="$s" '
		function bad(m) { print "snapshot " S ", thread " t ": " m; err = 1 }
		FNR == NR { before[$1] = $2; after[$1] = $3; nthr++; next }
		{
			t = $1; n = $2; q = int(n / K)
			if (!(t in nk)) {
				nk[t] = 1; first[t] = n; cq[t] = q; cnt[t] = 1
				if (n != q * K) bad("starts at event " n ", not at a packet start")
			} else if (q == cq[t]) {
				if (n != last[t] + 1) bad("event " n " after " last[t])
				cnt[t]++
			} else {
				if (q < cq[t]) bad("event " n " after " last[t])
				if (cnt[t] != K) bad("packet " cq[t] + 1 " kept with " cnt[t] " events of " K)
				if (n != q * K) bad("packet " q + 1 " starts at event " n)
				nk[t]++; cq[t] = q; cnt[t] = 1
			}
			last[t] = n
		}
		END {
			for (t in before) {
				# a burst thread may overwrite its whole ring while a snapshot during the
				# burst copies it (the copier preempted): nothing of it kept, none reported
				if (!(t in nk)) { if (S == 3 || t == 0) bad("no event"); continue }
				disc = cq[t] + 1 - nk[t]
				if (S == 3 || t == 0) {
					c = after[t]; P = int((c + K - 1) / K); want = P > R ? P - R : 0
					if (first[t] != want * K || last[t] != c - 1)
						bad("events " first[t] " to " last[t] ", want " want * K " to " c - 1)
					if (disc != want) bad(disc " packets lost, want " want)
				} else {
					# one more event may be committed, its count not yet stored
					if (last[t] > after[t] || last[t] < before[t] - 1 - R * K)
						bad("last event " last[t] ", emitted " before[t] " to " after[t])
					if (nk[t] > R + 1) bad(nk[t] " packets kept")
				}
				if (disc) print disc
			}
			exit err
		}' "$tmp/exp" "$tmp/ev" >"$tmp/want" || {
		grep '^snapshot' "$tmp/want" | head -10
		fail "snapshot $s: the events kept are not the newest whole packets"
	}
	sort -n "$tmp/want" >"$tmp/want.s"
	# per stream, the sum of its gaps (a packet torn while copied is a gap between two kept)
	sed -n 's/^WARNING: Tracer discarded \([0-9]*\) packets\{0,1\} between .*stream ID: \([0-9]*\)).*/\2 \1/p' \
		"$tmp/bt.err" | awk '{ n[$1] += $2 } END { for (k in n) print n[k] }' | sort -n >"$tmp/got.s"
	cmp -s "$tmp/want.s" "$tmp/got.s" ||
		fail "snapshot $s: babeltrace2 reports $(tr '\n' ' ' <"$tmp/got.s")packets lost, want $(tr '\n' ' ' <"$tmp/want.s")"
	echo "ok: snapshot $s: $(wc -l <"$tmp/ev") events of $((threads + 1)) threads, packets lost: $(tr '\n' ' ' <"$tmp/got.s")"
done
