#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Application-tracer benchmark (issue 14): the cost of one event, in ns, for tracekit's
# user-space tracer and its peers, measured in the same run by the same harness.
#
# Each tracer is bench/ust/driver.c compiled with one adapter file (bench/ust/adapter.h says
# what an adapter provides) into bench/out/ust/bench-NAME. The driver records an event with
# one u32 field and an event with four (u32, u64, s32, u16), on one thread and on two threads
# pinned to different CPUs, and prints per (threads, fields) pair the p50 and the min over
# batches of per-event means (batch time minus the empty loop, divided by the batch's
# events); with two threads, the figure is per thread. Tracers, one line each in TRACERS
# below:
#
#   tracekit-*          tracekit's tracer (<tracekit/tracepoint.h>, libtracekit-ust), when
#                       the tree has it and bench/ust has its adapters
#   lttng-ust           LTTng-UST 2.13, per-UID buffers, 8 x 8 MiB sub-buffers per CPU, in a
#                       session started by this script (lttng-sessiond too when none runs)
#   lttng-ust-lgpl      the same, built with _LGPL_SOURCE (liburcu's read lock inlined)
#   lttng-ust-disabled  lttng-ust with no session enabling its events
#   barectf, -tsc       a barectf 3 tracer generated from bench/ust/barectf.yaml, one context
#                       per thread, packets discarded at close; clock_gettime or the TSC
#
# Then it checks that the traces hold what was emitted: babeltrace2 counts the events of the
# LTTng session (a shortfall is events LTTng discarded, and the figures of a tracer that
# dropped events are not of its fast path alone: the output says so), and a short barectf
# run writing its packets to files.
#
# The output: a header (date, machine, versions, settings, notes), then, last, one line per
# measurement: TRACER THREADS FIELDS P50_NS MIN_NS. Progress goes to stderr.
#
# Usage: bench/ust.sh [--rounds N] [--batches N] [--batch-events K] [--warmup N] [--threads 1,2] [--fields 1,4] [--tracers 'NAME ...'] [--no-check] [--quick]
set -u

batches=2000
batch_events=1000
warmup=200
threads=1,2
fields=1,4
only=""
check=1
rounds=3

usage() {
	sed -n 's/^# Usage: //p' "$0"
}

while [ $# -gt 0 ]; do
	case $1 in
	--batches) batches=$2; shift 2 ;;
	--batch-events) batch_events=$2; shift 2 ;;
	--warmup) warmup=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	--fields) fields=$2; shift 2 ;;
	--tracers) only=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--no-check) check=0; shift ;;
	--quick) batches=200; warmup=20; rounds=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
case "$batches$batch_events$warmup$rounds" in
*[!0-9]* | "")
	echo "ust.sh: --batches, --batch-events, --warmup and --rounds take positive integers" >&2
	exit 2
	;;
esac
if [ "$rounds" -lt 1 ] || [ "$batches" -lt 1 ] || [ "$batch_events" -lt 1 ]; then
	echo "ust.sh: --rounds, --batches and --batch-events must be at least 1" >&2
	exit 2
fi

# The tracers: NAME ADAPTER KIND [LINK...]. KIND says what building and running need:
#   plain     nothing more than the adapter
#   tracekit  the tree's <tracekit/tracepoint.h> and libtracekit-ust (release build)
#   lttng     the provider object and liblttng-ust, and an LTTng session around the run
#   lttng-off the same, run with no session enabling its events
#   barectf   the tracer generated from bench/ust/barectf.yaml
# Adding a tracer: one adapter file in bench/ust/ and one line here.
TRACERS='
lttng-ust-disabled lttng-ust.c lttng-off
lttng-ust lttng-ust.c lttng
lttng-ust-lgpl lttng-ust-lgpl.c lttng -llttng-ust-common
barectf barectf.c barectf
barectf-tsc barectf-tsc.c barectf
tracekit-disabled tracekit-disabled.c tracekit
tracekit-clock tracekit.c tracekit
tracekit-tsc tracekit-tsc.c tracekit
'

note() {
	echo "ust.sh: $*" >&2
}

die() {
	note "$*"
	exit 1
}

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/out/ust
src=$root/bench/ust
build=$root/bench/out/build
cc=${CC:-cc}
cflags="-O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra"
mkdir -p "$out" || die "cannot create $out"
tmp=$(mktemp -d) || die "cannot create a temporary directory"
raw=$tmp/raw
: >"$raw"
results=$tmp/results
notes=$tmp/notes
: >"$notes"

session=""
started_sessiond=""
cleanup() {
	if [ -n "$session" ]; then
		lttng destroy "$session" >/dev/null 2>&1
	fi
	if [ -n "$started_sessiond" ]; then
		# Only the daemon this script started, by its pid; it takes its consumers along.
		kill "$started_sessiond" 2>/dev/null
		i=0
		while [ $i -lt 10 ] && kill -0 "$started_sessiond" 2>/dev/null; do
			sleep 1
			i=$((i + 1))
		done
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

# Write a line that ends up in the header of the output (and on stderr now).
remark() {
	note "$*"
	echo "- $*" >>"$notes"
}

# Which tracers to run: the TRACERS lines, less those --tracers leaves out.
selected() {
	echo "$TRACERS" | while read -r name adapter kind link; do
		[ -n "$name" ] || continue
		if [ -n "$only" ]; then
			case " $only " in
			*" $name "*) ;;
			*) continue ;;
			esac
		fi
		echo "$name $adapter $kind $link"
	done
}

# A --tracers name that no line knows would otherwise just be missing from the output.
for name in $only; do
	echo "$TRACERS" | grep -q "^$name " || die "unknown tracer $name (see TRACERS in $0)"
done

# A tree without tracekit's tracer (an older checkout): say so rather than print rows for it.
if [ ! -f "$root/include/tracekit/tracepoint.h" ]; then
	remark "tracekit's tracer is not built yet: include/tracekit/tracepoint.h is missing from this tree, so there are no tracekit-tsc, tracekit-clock or tracekit-disabled rows"
elif ! echo "$TRACERS" | grep -q '^tracekit'; then
	remark "tracekit's tracer is in this tree (include/tracekit/tracepoint.h) but bench/ust has no adapter for it yet: no tracekit rows"
fi

# Build steps shared by several tracers, done once.
built_kinds=""
prepare_kind() {
	case " $built_kinds " in *" $1 "*) return 0 ;; esac
	case $1 in
	plain) ;;
	lttng | lttng-off)
		if ! echo '#include <lttng/tracepoint.h>' | $cc -E - >/dev/null 2>&1; then
			remark "$1: no <lttng/tracepoint.h> (Debian liblttng-ust-dev): left out"
			return 1
		fi
		# shellcheck disable=SC2086
		if ! $cc $cflags -I"$src" -c "$src/lttng-ust-tp.c" -o "$out/lttng-ust-tp.o"; then
			remark "$1: the provider does not build: left out"
			return 1
		fi
		;;
	barectf)
		command -v barectf >/dev/null 2>&1 ||
			{ remark "barectf: not installed (Debian python3-barectf): left out"; return 1; }
		gen=$out/gen-barectf
		# The generated bk.c has helpers this configuration does not use.
		# shellcheck disable=SC2086
		if ! { mkdir -p "$gen" &&
			barectf generate --code-dir="$gen" --headers-dir="$gen" --metadata-dir="$gen" \
				"$src/barectf.yaml" >&2 &&
			$cc $cflags -Wno-unused-function -I"$gen" -c "$gen/bk.c" -o "$out/bk.o"; }; then
			remark "barectf: generating or building the tracer failed: left out"
			return 1
		fi
		;;
	tracekit)
		if [ ! -f "$build/build.ninja" ]; then
			note "configuring release build in $build"
			meson setup "$build" "$root" -Dbuildtype=release -Dtests=false >&2 ||
				{ remark "tracekit: meson setup failed: left out"; return 1; }
		fi
		ninja -C "$build" >&2 || { remark "tracekit: the build failed: left out"; return 1; }
		tk_lib=$(find "$build" -name 'libtracekit-ust.so' -o -name 'libtracekit-ust.a' | head -n 1)
		[ -n "$tk_lib" ] || { remark "tracekit: no libtracekit-ust in $build: left out"; return 1; }
		;;
	*) remark "unknown kind $1"; return 1 ;;
	esac
	built_kinds="$built_kinds $1"
}

# build NAME ADAPTER KIND LINK...: compile bench/out/ust/bench-NAME.
build() {
	name=$1 adapter=$2 kind=$3
	shift 3
	prepare_kind "$kind" || return 1
	inc="-I$src"
	objs=""
	case $kind in
	lttng | lttng-off) objs="$out/lttng-ust-tp.o"; set -- "$@" -llttng-ust -ldl ;;
	barectf) inc="$inc -I$out/gen-barectf"; objs="$out/bk.o" ;;
	tracekit)
		inc="$inc -I$root/include"
		set -- "$@" "$tk_lib" "-Wl,-rpath,$(dirname "$tk_lib")"
		;;
	esac
	# shellcheck disable=SC2086
	if ! { $cc $cflags $inc -include "$src/$adapter" -c "$src/driver.c" \
		-o "$out/bench-$name.o" &&
		$cc -o "$out/bench-$name" "$out/bench-$name.o" $objs "$@" -lpthread; }; then
		remark "$name: the build failed: left out"
		return 1
	fi
}

# run NAME: the driver with this run's settings; its lines go to the round's results.
run() {
	rtag=""
	[ "$rounds" -eq 1 ] || rtag="round $round: "
	note "${rtag}measuring $1"
	"$out/bench-$1" --name "$1" --threads "$threads" --fields "$fields" \
		--batches "$batches" --batch-events "$batch_events" --warmup "$warmup" \
		</dev/null >"$tmp/$1.out" || { remark "$1: the driver failed: left out"; return 1; }
	grep -v '^#' "$tmp/$1.out" | tee -a "$raw" | sed "s/^/ust.sh: round $round: /" >&2
	d=$(awk '$1 == "#" && $2 == "discarded" && $6 > 0 { n += $6 } END { print n + 0 }' \
		"$tmp/$1.out")
	[ "$d" -eq 0 ] ||
		remark "${rtag}$1 discarded $d events: its figures are not of its fast path alone"
}

# Count the event records of a CTF trace with babeltrace2's counter sink.
count_events() {
	babeltrace2 "$1" -c sink.utils.counter -p step=+0 2>/dev/null |
		awk '/Event messages/ { n = $1 } END { print n + 0 }'
}

# LTTng needs a session daemon: use the one that runs, or start one and stop it at the end.
lttng_ready=""
lttng_daemon() {
	[ -n "$lttng_ready" ] && return "$lttng_ready"
	lttng_ready=1
	command -v lttng >/dev/null 2>&1 || { remark "lttng: not installed (Debian lttng-tools): left out"; return 1; }
	if ! pgrep -x lttng-sessiond >/dev/null 2>&1; then
		[ "$(id -u)" -eq 0 ] || { remark "lttng: no session daemon runs, and starting one here needs root: left out"; return 1; }
		note "starting lttng-sessiond"
		lttng-sessiond --daemonize </dev/null >&2 || { remark "lttng: lttng-sessiond does not start: left out"; return 1; }
		started_sessiond=$(cat /var/run/lttng/lttng-sessiond.pid 2>/dev/null)
		[ -n "$started_sessiond" ] || note "cannot read lttng-sessiond's pid: it will be left running"
	fi
	lttng_ready=0
}

# run_lttng NAME: run NAME in a fresh session recording tkbench:*, then count the events.
run_lttng() {
	lttng_daemon || return 1
	session=tkbench-ust-$$
	trace=$tmp/lttng-trace
	if ! { lttng create "$session" --output="$trace" >/dev/null &&
		lttng enable-channel -u -s "$session" --buffers-uid --subbuf-size=8M \
			--num-subbuf=8 bench >/dev/null &&
		lttng enable-event -u -s "$session" -c bench 'tkbench:*' >/dev/null &&
		lttng start "$session" >/dev/null; }; then
		remark "$1: cannot set up the LTTng session: left out"
		return 1
	fi
	run "$1"
	ok=$?
	lttng stop "$session" >"$tmp/lttng-stop" 2>&1
	cat "$tmp/lttng-stop" >&2
	lttng destroy "$session" >/dev/null 2>&1
	session=""
	[ "$ok" -eq 0 ] || return 1
	emitted=$(awk '$2 == "emitted-total" { print $4 }' "$tmp/$1.out")
	if [ "$check" -eq 1 ]; then
		recorded=$(count_events "$trace")
		echo "$1 $emitted $recorded" >>"$tmp/counts"
		if [ "$recorded" -eq "$emitted" ]; then
			note "${rtag}$1: babeltrace2 reads all $emitted events emitted (none discarded)"
		else
			remark "${rtag}$1: babeltrace2 reads $recorded of $emitted events emitted: $((emitted - recorded)) discarded, so its figures are not of its fast path alone"
		fi
	fi
	rm -rf "$trace"
}

# check_run NAME DIR WHAT: a short run of NAME with --out DIR (ready for it); babeltrace2
# must read every event emitted there.
check_run() {
	"$out/bench-$1" --name "$1" --threads "$threads" --fields "$fields" --batches 10 \
		--batch-events "$batch_events" --warmup 0 --pause-ms 0 --out "$2" \
		>"$tmp/check-$1.out" || { remark "$1: the check run failed"; return 1; }
	emitted=$(awk '$2 == "emitted-total" { print $4 }' "$tmp/check-$1.out")
	recorded=$(count_events "$2")
	if [ "$recorded" -eq "$emitted" ]; then
		remark "$1: a check run $3: babeltrace2 reads all $emitted events"
	else
		remark "$1: a check run $3: babeltrace2 reads $recorded of $emitted events"
	fi
	rm -rf "$2"
}

# check_tracekit NAME: into a trace directory of its own (tracekit's drops are counted in
# the trace, not in-process).
check_tracekit() {
	rm -rf "$tmp/check-$1"
	check_run "$1" "$tmp/check-$1" "into a trace directory"
}

# check_barectf NAME: its packets written to files beside barectf's metadata.
check_barectf() {
	mkdir -p "$tmp/check-$1" && cp "$out/gen-barectf/metadata" "$tmp/check-$1/" || return 1
	check_run "$1" "$tmp/check-$1" "writing its packets to files"
}

if [ "$check" -eq 1 ] && ! command -v babeltrace2 >/dev/null 2>&1; then
	remark "babeltrace2 is missing (Debian babeltrace2): the traces are not checked"
	check=0
fi

start=$(date +%s)
load=$(cut -d' ' -f1-3 /proc/loadavg)
selected >"$tmp/tracers"
: >"$tmp/built"
while read -r name adapter kind link; do
	# shellcheck disable=SC2086
	build "$name" "$adapter" "$kind" $link && echo "$name $kind" >>"$tmp/built"
done <"$tmp/tracers"
# The cost of a timestamp alone: no tracer that reads one per event can cost less.
# shellcheck disable=SC2086
if $cc $cflags "$src/clocks.c" -o "$out/clocks" -lpthread; then
	note "timing the clocks"
	"$out/clocks" >"$tmp/clocks" || : >"$tmp/clocks"
else
	remark "bench/ust/clocks.c does not build: no clock costs"
	: >"$tmp/clocks"
fi
round=1
while [ "$round" -le "$rounds" ]; do
	while read -r name kind; do
		case $kind in
		lttng) run_lttng "$name" ;;
		lttng-off)
			# Started, registered with the daemon, but no session enables tkbench:*.
			lttng_daemon && run "$name"
			;;
		barectf)
			run "$name" && [ "$check" -eq 1 ] && [ "$round" -eq 1 ] &&
				check_barectf "$name"
			;;
		tracekit)
			run "$name" && [ "$check" -eq 1 ] && [ "$round" -eq 1 ] &&
				[ "$name" != tracekit-disabled ] && check_tracekit "$name"
			;;
		*) run "$name" ;;
		esac
	done <"$tmp/built"
	round=$((round + 1))
done
elapsed=$(($(date +%s) - start))

# One line per LTTng tracer whose rounds all recorded every event (the others have theirs).
counted() {
	[ -f "$tmp/counts" ] || return 0
	awk '
	{
		if (!($1 in n))
			order[++m] = $1
		n[$1]++
		if ($2 != $3)
			bad[$1] = 1
		ev[$1] = $2
	}
	END {
		for (i = 1; i <= m; i++) {
			t = order[i]
			if (!(t in bad))
				printf "- %s: babeltrace2 read all %s events emitted in each of %d rounds (none discarded)\n",
					t, ev[t], n[t]
		}
	}' "$tmp/counts"
}

# Over the rounds, per tracer, threads and fields: the median of the P50s, the least MIN,
# in the order the rows were first measured.
awk '
{
	k = $1 " " $2 " " $3
	if (!(k in n)) {
		order[++m] = k
		lo[k] = $5
	}
	v[k, ++n[k]] = $4
	if ($5 + 0 < lo[k] + 0)
		lo[k] = $5
}
END {
	for (i = 1; i <= m; i++) {
		k = order[i]
		c = n[k]
		for (a = 1; a <= c; a++)
			s[a] = v[k, a] + 0
		for (a = 2; a <= c; a++) {
			x = s[a]
			for (b = a - 1; b >= 1 && s[b] > x; b--)
				s[b + 1] = s[b]
			s[b + 1] = x
		}
		med = c % 2 ? s[(c + 1) / 2] : (s[c / 2] + s[c / 2 + 1]) / 2
		printf "%s %.2f %.2f\n", k, med, lo[k]
	}
}' "$raw" >"$results"

# The P50 of each round, to show the spread.
per_round() {
	awk '
	{
		k = $1 " " $2 " " $3
		if (k in r) {
			r[k] = r[k] ", " $4
		} else {
			order[++m] = k
			r[k] = $4
		}
	}
	END {
		for (i = 1; i <= m; i++)
			print "  - " order[i] ": " r[order[i]]
	}' "$raw"
}

# Ratios of tracekit's rows to the peers', when both are there: peer p50 / tracekit p50.
ratios() {
	awk '
	{ p50[$1 " " $2 " " $3] = $4; tr[$1] = 1; pair[$2 " " $3] = 1 }
	END {
		for (t in tr) {
			if (t !~ /^tracekit-/ || t == "tracekit-disabled")
				continue
			for (q in tr) {
				if (q ~ /^tracekit-/ || q ~ /-disabled$/)
					continue
				for (p in pair) {
					a = p50[t " " p]; b = p50[q " " p]
					if (a > 0 && b > 0)
						printf "- %s against %s, %s threads, %s fields: %.1fx (p50 %s / %s ns)\n",
							t, q, substr(p, 1, index(p, " ") - 1),
							substr(p, index(p, " ") + 1), b / a, b, a
				}
			}
		}
	}' "$results" | sort
}

# What issue 14's goals ask of tracekit, in ns at P50, given the peers' rows of this run:
# at most 12 (TSC) or 30 (clock_gettime), a third of barectf's, a tenth of LTTng-UST's.
budgets() {
	awk '
	{
		k = $2 " " $3
		if (!(k in seen)) {
			seen[k] = 1
			order[++m] = k
		}
		p50[$1 " " k] = $4
	}
	END {
		for (i = 1; i <= m; i++) {
			k = order[i]
			line = ""
			if (("barectf " k) in p50)
				line = line sprintf(", barectf / 3 = %.1f", p50["barectf " k] / 3)
			if (("barectf-tsc " k) in p50)
				line = line sprintf(", barectf-tsc / 3 = %.1f", p50["barectf-tsc " k] / 3)
			if (("lttng-ust " k) in p50)
				line = line sprintf(", lttng-ust / 10 = %.1f", p50["lttng-ust " k] / 10)
			if (("lttng-ust-lgpl " k) in p50)
				line = line sprintf(", lttng-ust-lgpl / 10 = %.1f", p50["lttng-ust-lgpl " k] / 10)
			split(k, f, " ")
			if (line != "")
				printf "  - %s thread(s), %s field(s)%s\n", f[1], f[2], line
		}
	}' "$results"
}

echo "### Application tracers, ns per event: \`sh bench/ust.sh\`, $(date -u +%Y-%m-%d)"
echo
echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); run took ${elapsed} s."
echo "- Machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), nproc $(nproc), Linux $(uname -r); load average at the start: $load."
echo "- Commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet HEAD -- bench 2>/dev/null || echo ' (bench/ modified)'); $($cc --version | head -n 1)."
echo "- Peers: LTTng-UST $(dpkg-query -W -f='${Version}' liblttng-ust-dev 2>/dev/null || echo '?'), lttng-tools $(dpkg-query -W -f='${Version}' lttng-tools 2>/dev/null || echo '?'), $(barectf --version 2>/dev/null || echo 'barectf ?'), $(babeltrace2 --version 2>/dev/null | head -n 1 || true)."
echo "- Settings: $batches timed batches of $batch_events events per thread after $warmup warm-up batches; threads $threads; fields $fields (1: u32; 4: u32, u64, s32, u16). P50 and MIN over the per-event means of the batches of all threads, less the empty loop; with 2 threads, per-thread ns per event while both trace. Each round runs every tracer in turn; a row gives the median of the rounds' P50 and the least MIN (rounds: $rounds)."
echo "- Tracers: LTTng in a session of its own per round, per-UID buffers, 8 sub-buffers of 8 MiB per CPU, otherwise the defaults; lttng-consumerd writes the trace to a temporary directory, counted then removed. barectf: one context and 64 KiB packet per thread, packets discarded at close."
cat "$notes"
counted
if [ "$rounds" -gt 1 ]; then
	echo "- P50 of each round (ns), in round order:"
	per_round
fi
if [ -s "$tmp/clocks" ]; then
	echo "- One timestamp alone, timed the same way (P50 / MIN, ns): $(awk '{ printf "%s%s %s / %s", (NR > 1 ? ", " : ""), $3, $4, $5 }' "$tmp/clocks")."
fi
echo "- The P50 that issue 14's goals allow tracekit against these peers (ns; also at most 12 with the TSC, 30 with clock_gettime, and 1 disabled):"
budgets
ratios "$results"
echo
echo "TRACER THREADS FIELDS P50_NS MIN_NS"
cat "$results"
