#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Bad input: truncated and bit-flipped copies of good traces. Real traces get cut short (a
# full disk, an interrupted copy, a killed tracer) and bits rot, and the reader meets them
# first. The contract (STYLE.md, 2.4): exit status 1, one "tracekit: Cannot ..." line, every
# event before the damage on stdout, and never a crash, hang or sanitizer report. The ASan and
# UBSan build runs this same script (scripts/check.sh), so each copy is also a memory-safety
# test.
#
# gen-ctf writes small single-stream traces: lttng LE and BE, compact, bitfield; with and
# without index files; one with packetized metadata. Expected values come from the generator
# and the bytes, not from the code under test alone: the event count is the one asked of
# gen-ctf; packet boundaries are read from the packet contexts here (and must match the index
# files); each packet's events are what tracekit prints for that packet alone, and the
# packets printed one by one must make the whole trace.
#
#   a. Stream files cut at and around every packet boundary, inside headers and events, and at
#      pseudo-random points. At a boundary, without an index: exit 0 and exactly the events of
#      the packets before it. Elsewhere, or at a boundary when the index lists the missing
#      packets: exit 1, and stdout is whole lines of the full output with at least the events
#      of the complete packets and no more than the cut packet adds.
#   b. Metadata cut inside a block: exit 1, no event. Cut after an event block: the events up
#      to the first one of a class cut off, then exit 1 (exit 0 and the full output when none
#      occurs). Packetized metadata cut inside a packet's header or content: exit 1, no event;
#      cut in the last packet's padding, where no text is lost: exit 0, full output.
#      Index files cut anywhere: ignored (exit 0, full output). One bit flipped in an index:
#      in the header, an offset or a packet size, the index no longer describes the file and
#      is ignored (exit 0, full output); in a content size that still fits its packet, it
#      contradicts the data: exit 1 after exactly the events of the packets before that
#      entry; in the other fields (times, counts, ids), unused: exit 0, full output.
#   c. One bit flipped in a stream file or the metadata: exit 0, or 1 with one line; stdout in
#      whole lines; the events of the packets before the flipped one printed unchanged. Every
#      fourth such copy is also converted to CTF (`tracekit convert`): exit status as print's,
#      with one line on failure and no output left behind; on success the converted trace
#      prints exactly what the damaged one printed.
#   d. Any other exit status fails: signals, a hang (`timeout`, 124), a runaway output (the
#      file-size limit), and sanitizer reports, whose exit statuses are set here to 86 (ASan,
#      LSan) and 87 (UBSan) so that they can never pass for exit status 1.
#
# Usage: damage.sh TRACEKIT GEN_CTF
# shellcheck disable=SC2016 # the single-quoted strings are awk programs
set -u
LC_ALL=C
TZ=UTC
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=87"
export LC_ALL TZ ASAN_OPTIONS UBSAN_OPTIONS
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tools_from_args "$@"
# shellcheck source=../damage-lib.sh
. "$(dirname "$0")/../damage-lib.sh"
EVENTS=50

# same KIND CASE FILE WHAT: stdout is FILE, described as WHAT.
same() {
	if ! cmp -s "$tmp/out" "$3"; then
		fail "$1" "$2: stdout is not $4"
	fi
}

# Reads `od -An -v -tu1 FILE` then a list of "offset bit ..." lines; prints each line with
# the byte at that offset and the byte with that bit flipped appended.
FLIPPED_AWK='
FNR == NR {
	for (i = 1; i <= NF; i++)
		b[n++] = $i
	next
}
$1 < n {
	v = b[$1]
	print $0, v, int(v / 2 ^ $2) % 2 ? v - 2 ^ $2 : v + 2 ^ $2
}'

# Pseudo-random "offset bit" pairs over a file of size bytes.
RANDOM_AWK='
BEGIN {
	x = seed
	for (i = 0; i < count; i++) {
		x = (x * 69069 + 1) % 4294967296
		print x % size, int(x / 65536) % 8
	}
}'

# The packets of a stream file, "offset size content-size" in bytes, read from the LTTng packet
# header (magic u32, uuid[16], stream_id u32, stream_instance_id u64: 32 bytes) and context
# (timestamp_begin u64, timestamp_end u64, then content_size and packet_size in bits, of w
# bytes; the content ends inside a byte in the bitfield layout). Input: od -An -v -tu1. be=1:
# big-endian. Exits 1 unless the packets tile the file exactly.
PACKETS_AWK="$NUM_AWK"'
END {
	off = 0
	while (off < n) {
		if (off + 48 + 2 * w > n || num(off, 4) != 3254525889)
			exit 1
		cs = num(off + 48, w)
		ps = num(off + 48 + w, w)
		if (ps % 8 || cs > ps || ps < 8 * (48 + 2 * w) || off + ps / 8 > n)
			exit 1
		print off, ps / 8, int((cs + 7) / 8)
		off += ps / 8
	}
}'

# Packets of a packetized metadata file (CTF 1.8, 7.1: a 37-byte header with content_size and
# packet_size, in bits, at bytes 24 and 28), in the same form.
META_PACKETS_AWK="$NUM_AWK"'
END {
	for (o = 0; o + 37 <= n; o += ps) {
		ps = num(o + 28, 4) / 8
		if (ps < 37)
			exit 1
		print o, ps, num(o + 24, 4) / 8
	}
}'

# Cut points of a stream file, from its packets: "offset packet kind", kind "boundary" or
# "inside". h: bytes of header and context; size: the file size.
CUTS_AWK='
BEGIN { np = 0 }
{ o[np] = $1; s[np] = $2; c[np] = $3; np++ }
function emit(x, k) {
	if (x >= 0 && x < size)
		print x, k, x == o[k] ? "boundary" : "inside"
}
function packet_of(x,   k) {
	for (k = np - 1; k > 0 && o[k] > x; k--)
		;
	return k
}
END {
	for (k = 0; k < np; k++) {
		B = o[k]
		emit(B, k)
		emit(B + 1, k)
		if (k < 2 || k == np - 1) {
			emit(B + 3, k)		# magic
			emit(B + 17, k)		# uuid
			emit(B + 29, k)		# stream_instance_id
			emit(B + 37, k)		# timestamp_begin
			emit(B + 51, k)		# content_size
			emit(B + h - 1, k)	# the last byte of the context
			emit(B + h + 9, k)
			emit(B + s[k] - 1, k)	# the last byte of the packet
		}
		emit(B + h + 5, k)		# inside the first event
		mid = B + int((h + c[k]) / 2)
		emit(mid + 1 - mid % 2, k)
		emit(B + c[k] - 1, k)		# the last byte of the last event
		if (c[k] < s[k])
			emit(B + c[k], k)	# the padding
	}
	x = seed
	for (i = 0; i < 12; i++) {
		x = (x * 69069 + 1) % 4294967296
		r = x % size
		kr = packet_of(r)
		emit(r, kr)
	}
}'

# The top-level blocks of TSDL text: "kind start end name", byte offsets, end just past "};".
BLOCKS_AWK='
/^(trace|env|clock|stream|event) \{/ {
	kind = $1
	start = pos
	name = ""
}
kind != "" && /^[ \t]*name = "/ && name == "" {
	name = $0
	sub(/^[^"]*"/, "", name)
	sub(/".*/, "", name)
}
kind != "" && /^\};/ {
	print kind, start, pos + 2, name == "" ? "-" : name
	kind = ""
}
{ pos += length($0) + 1 }'

# The lines of the output before the first event of a class named in missing (names between
# spaces). Exits 1 when there is none.
UNTIL_AWK='
{
	for (i = 3; i <= NF; i++)
		if ($i ~ /:$/ && $i !~ /[()]/)
			break
	if (index(missing, " " substr($i, 1, length($i) - 1) " ")) {
		found = 1
		exit
	}
	print
}
END { exit !found }'

# gen_trace: the trace, its whole output, its packets and each packet's events (N_k: the
# events of the first k packets, $t/full.k: their lines). Returns 1 when it cannot.
gen_trace() {
	opts="-n $EVENTS -s 1 -p 256 -S $seed -l $layout -b $order"
	[ "$index" = yes ] || opts="$opts --no-index"
	[ "$meta" = plain ] || opts="$opts --packetized-metadata"
	# shellcheck disable=SC2086 # $opts is a list of options
	if ! "$gen" $opts "$t/orig" >/dev/null; then
		fail setup "$name: gen-ctf $opts failed"
		return 1
	fi
	run "$t/orig"
	if ! expect setup "$name: the undamaged trace" 0 || [ -s "$tmp/err" ] ||
		[ "$(wc -l <"$tmp/out")" -ne $EVENTS ]; then
		fail setup "$name: the undamaged trace does not print its $EVENTS events cleanly"
		return 1
	fi
	cp "$tmp/out" "$t/full"
	be=0
	[ "$order" = be ] && be=1
	if [ "$meta" = plain ]; then
		text=$t/orig/metadata
	else
		text=$t/text
		if ! od -An -v -tu1 "$t/orig/metadata" |
			awk -v be=$be "$META_PACKETS_AWK" >"$t/meta-packets"; then
			fail setup "$name: cannot find the packets of the metadata"
			return 1
		fi
		while read -r mo ms mc; do
			tail -c +$((mo + 38)) "$t/orig/metadata" | head -c $((mc - 37))
		done <"$t/meta-packets" >"$text"
	fi
	if grep -q '^[[:space:]]*uint64_t content_size;' "$text" &&
		grep -q '^[[:space:]]*uint64_t packet_size;' "$text"; then
		w=8 h=84
	elif grep -q '^[[:space:]]*uint32_t content_size;' "$text" &&
		grep -q '^[[:space:]]*uint32_t packet_size;' "$text"; then
		w=4 h=66
	else
		fail setup "$name: gen-ctf's packet context is not the one this test knows"
		return 1
	fi
	if ! od -An -v -tu1 "$data" | awk -v be=$be -v w=$w "$PACKETS_AWK" >"$t/packets" ||
		[ "$(wc -l <"$t/packets")" -lt 5 ]; then
		fail setup "$name: cannot find the packets of $data"
		return 1
	fi
	np=$(wc -l <"$t/packets")
	if [ "$index" = yes ] && ! od -An -v -tu1 "$t/orig/index/channel0_0.idx" |
		awk -v be=1 "$INDEX_AWK" | cmp -s - "$t/packets"; then
		fail setup "$name: the packets in the data are not those of the index"
		return 1
	fi

	mkdir "$t/one"
	cp "$t/orig/metadata" "$t/one/"
	"$tk" print --no-delta "$t/orig" >"$t/full-nodelta"
	: >"$t/parts"
	: >"$t/full.0"
	eval "N_0=0"
	k=0
	while read -r off psize _; do
		tail -c +$((off + 1)) "$data" | head -c "$psize" >"$t/one/channel0_0"
		if ! "$tk" print --no-delta "$t/one" >"$t/part" 2>/dev/null; then
			fail setup "$name: packet $k alone does not print"
			return 1
		fi
		cat "$t/part" >>"$t/parts"
		eval "n=\$N_$k"
		n=$((n + $(wc -l <"$t/part")))
		k=$((k + 1))
		eval "N_$k=$n"
		head -n "$n" "$t/full" >"$t/full.$k"
	done <"$t/packets"
	if ! cmp -s "$t/parts" "$t/full-nodelta"; then
		fail setup "$name: the packets printed one by one do not make the whole trace"
		return 1
	fi
	return 0
}

# a. the stream file cut short
check_stream_cuts() {
	mkdir "$t/cut"
	cp "$t/orig/metadata" "$t/cut/"
	[ "$index" = yes ] && cp -r "$t/orig/index" "$t/cut/"
	awk -v h="$h" -v size="$(wc -c <"$data")" -v seed="$seed" "$CUTS_AWK" "$t/packets" |
		sort -n -u -k 1,1 >"$t/cuts"
	while read -r x k kind; do
		head -c "$x" "$data" >"$t/cut/channel0_0"
		run "$t/cut"
		lo=0 hi=0
		eval "lo=\$N_$k hi=\$N_$((k + 1))"
		if [ "$kind" = boundary ]; then
			c="$name: stream cut at $x (start of packet $k of $np)"
		else
			c="$name: stream cut at $x (inside packet $k of $np)"
		fi
		if [ "$kind" = boundary ] && [ "$index" = no ]; then
			expect trunc "$c" 0 && same trunc "$c" "$t/full.$k" "the $lo events before"
		elif [ "$kind" = boundary ]; then
			c="$c, the index lists all"
			expect trunc_index "$c" 1 &&
				same trunc_index "$c" "$t/full.$k" "the $lo events before"
		elif expect trunc "$c" 1; then
			L=$(wc -l <"$tmp/out")
			if ! head -n "$L" "$t/full" | cmp -s - "$tmp/out"; then
				fail trunc "$c: stdout is not whole lines of the full output"
			elif [ "$L" -lt "$lo" ] || [ "$L" -gt "$hi" ]; then
				fail trunc "$c: $L events printed, want $lo to $hi"
			fi
		fi
	done <"$t/cuts"
	rm -r "$t/cut"
}

# b. the metadata cut short
check_metadata_cuts() {
	mkdir "$t/cut"
	cp "$data" "$t/cut/"
	if [ "$meta" = plain ]; then
		awk "$BLOCKS_AWK" "$text" >"$t/blocks"
		if [ "$(grep -c '^event ' "$t/blocks")" -lt 3 ]; then
			fail setup "$name: cannot find the event blocks of the metadata"
			return
		fi
		{
			echo "0 inside"
			echo "7 inside"
			while read -r kind start end _; do
				echo "$(((start + end) / 2)) inside"
				[ "$kind" = event ] && echo "$end after" && echo "$((end + 1)) after"
			done <"$t/blocks"
		} >"$t/meta-cuts"
	else
		while read -r mo ms mc; do
			for x in $((mo + 1)) $((mo + 20)) $((mo + 36)) $((mo + 37)) \
				$((mo + (37 + mc) / 2)) $((mo + mc - 1)); do
				echo "$x inside"
			done
		done <"$t/meta-packets" >"$t/meta-cuts"
		read -r mo ms mc <<-EOF
			$(tail -n 1 "$t/meta-packets")
		EOF
		if [ "$mc" -lt "$ms" ]; then
			echo "$((mo + mc)) padding" >>"$t/meta-cuts"
			echo "$((mo + ms - 1)) padding" >>"$t/meta-cuts"
		fi
	fi
	while read -r x what; do
		head -c "$x" "$t/orig/metadata" >"$t/cut/metadata"
		run "$t/cut"
		c="$name: metadata cut at $x ($what)"
		case $what in
		inside)
			expect meta "$c" 1 && same meta "$c" "$t/full.0" "empty"
			;;
		padding)
			expect meta "$c" 0 && same meta "$c" "$t/full" "the full output"
			;;
		after)
			missing=" $(awk -v x="$x" '$1 == "event" && $2 >= x { print $4 }' \
				"$t/blocks" | tr '\n' ' ')"
			c="$c, classes cut off:$missing"
			if awk -v missing="$missing" "$UNTIL_AWK" "$t/full" >"$t/want"; then
				expect meta "$c" 1 &&
					same meta "$c" "$t/want" "the events before the first one cut off"
			else
				expect meta "$c" 0 && same meta "$c" "$t/full" "the full output"
			fi
			;;
		esac
	done <"$t/meta-cuts"
	rm -r "$t/cut"
}

# b. the index file cut short, or one bit flipped in it
check_index() {
	cp -r "$t/orig" "$t/cut"
	idx=$t/cut/index/channel0_0.idx
	isize=$(wc -c <"$idx")
	for x in 0 15 16 17 88 128 $((isize - 72)) $((isize - 1)); do
		head -c "$x" "$t/orig/index/channel0_0.idx" >"$idx"
		run "$t/cut"
		c="$name: index cut at $x of $isize"
		expect index "$c" 0 && same index "$c" "$t/full" "the full output"
	done
	cp "$t/orig/index/channel0_0.idx" "$idx"
	# "offset bit entry byte": entry -1 is the header, byte the offset in the entry
	{
		echo "0 0 -1 0"
		echo "7 0 -1 7"
		echo "11 1 -1 11"
		echo "15 3 -1 15"
		for e in 1 $((np - 1)); do
			for f in "7 3" "14 0" "15 3" "16 7" "22 1" "23 3" "23 6" "31 0" "47 0" "55 0" \
				"71 1"; do
				# shellcheck disable=SC2086 # two numbers
				set -- $f
				echo "$((16 + 72 * e + $1)) $2 $e $1"
			done
		done
	} >"$t/index-flips.in"
	od -An -v -tu1 "$idx" | awk "$FLIPPED_AWK" - "$t/index-flips.in" >"$t/index-flips"
	while read -r x bit e byte old new; do
		flip "$idx" "$x" "$new"
		run "$t/cut"
		flip "$idx" "$x" "$old"
		c="$name: index bit $bit of byte $x flipped"
		want=0
		if [ "$e" -ge 0 ] && [ "$byte" -ge 16 ] && [ "$byte" -lt 24 ]; then
			# a content size (in bits, big-endian) that still fits contradicts the data
			want=$(awk -v e="$e" -v p=$(((23 - byte) * 8 + bit)) 'NR == e + 1 {
				old = $3 * 8
				new = int(old / 2 ^ p) % 2 ? old - 2 ^ p : old + 2 ^ p
				print new <= $2 * 8 ? 1 : 0
			}' "$t/packets")
		fi
		expect index "$c" "$want" || continue
		if [ "$want" = 0 ]; then
			same index "$c" "$t/full" "the full output"
		else
			eval "n=\$N_$e"
			same index "$c" "$t/full.$e" "the $n events before packet $e"
		fi
	done <"$t/index-flips"
	rm -r "$t/cut"
}

# check_convert CASE: after `run` printed the damaged copy $t/cut (rc, $tmp/out), convert it to
# CTF: the same outcome, nothing left on failure, and on success the same printout.
check_convert() {
	print_rc=$rc
	cp "$tmp/out" "$tmp/print.out"
	rm -rf "$tmp/conv"
	runs=$((runs + 1))
	timeout 10 "$tk" convert -q "$t/cut" -o "$tmp/conv" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	status_ok convert "$1, tracekit convert" || return
	if [ "$rc" -ne "$print_rc" ]; then
		fail convert "$1: tracekit convert exits $rc, tracekit print $print_rc"
	elif [ "$rc" -ne 0 ]; then
		[ ! -e "$tmp/conv" ] || fail convert "$1: output left after a failed conversion"
	else
		timeout 10 "$tk" print "$tmp/conv" >"$tmp/out" 2>"$tmp/err"
		cmp -s "$tmp/out" "$tmp/print.out" ||
			fail convert "$1: the converted trace does not print as the damaged one"
	fi
	rm -rf "$tmp/conv"
}

# c. one bit flipped in the stream file (pseudo-random, and in the headers of two packets) or
# in the metadata
check_flips() {
	cp -r "$t/orig" "$t/cut"
	{
		awk -v seed="$seed" -v count=30 -v size="$(wc -c <"$data")" "$RANDOM_AWK"
		for k in 1 $((np - 1)); do
			read -r off _ <<-EOF
				$(sed -n "$((k + 1))p" "$t/packets")
			EOF
			for d in 0 3 20 23 31 48 51 55 56 59 63 $h $((h + 1)) $((h + 2)); do
				echo "$((off + d)) $(((d + k) % 8))"
			done
		done
	} | sort -n -u | awk 'FNR == NR { o[n++] = $1; next }
		{ for (k = n - 1; k > 0 && o[k] > $1; k--); print $0, k }' "$t/packets" - \
		>"$t/flips.in"
	od -An -v -tu1 "$data" | awk "$FLIPPED_AWK" - "$t/flips.in" >"$t/flips"
	i=0
	while read -r x bit k old new; do
		flip "$t/cut/channel0_0" "$x" "$new"
		run "$t/cut"
		c="$name: stream bit $bit of byte $x flipped (packet $k)"
		if status_ok flip "$c" && whole_lines flip "$c"; then
			eval "n=\$N_$k"
			if ! head -n "$n" "$tmp/out" | cmp -s - "$t/full.$k"; then
				fail flip "$c: the $n events of the packets before it are not all printed"
			fi
		fi
		i=$((i + 1))
		if [ $((i % 4)) -eq 0 ]; then
			check_convert "$c"
			run "$t/cut" info
			status_ok flip "$c, tracekit info"
		fi
		flip "$t/cut/channel0_0" "$x" "$old"
	done <"$t/flips"

	awk -v seed="$((seed + 7))" -v count=10 -v size="$(wc -c <"$t/orig/metadata")" \
		"$RANDOM_AWK" | sort -n -u >"$t/meta-flips.in"
	od -An -v -tu1 "$t/orig/metadata" | awk "$FLIPPED_AWK" - "$t/meta-flips.in" \
		>"$t/meta-flips"
	while read -r x bit old new; do
		flip "$t/cut/metadata" "$x" "$new"
		c="$name: metadata bit $bit of byte $x flipped"
		run "$t/cut"
		status_ok flip "$c" && whole_lines flip "$c" && check_convert "$c"
		run "$t/cut" info
		status_ok flip "$c, tracekit info"
		flip "$t/cut/metadata" "$x" "$old"
	done <"$t/meta-flips"
	if ! cmp -s "$t/cut/channel0_0" "$data" || ! cmp -s "$t/cut/metadata" "$t/orig/metadata"
	then
		fail setup "$name: the flipped bits were not restored"
	fi
	rm -r "$t/cut"
}

# check_trace NAME LAYOUT ORDER INDEX(yes/no) METADATA(plain/packetized) SEED
check_trace() {
	name=$1 layout=$2 order=$3 index=$4 meta=$5 seed=$6
	t=$tmp/$name
	data=$t/orig/channel0_0
	mkdir "$t"
	gen_trace || return
	check_stream_cuts
	check_metadata_cuts
	[ "$index" = no ] || check_index
	check_flips
	rm -r "$t"
}

check_trace lttng-le lttng le yes plain 1
check_trace lttng-be lttng be no plain 2
check_trace compact-le compact le no plain 3
check_trace compact-be compact be yes packetized 4
check_trace bitfield-le bitfield le yes plain 5
check_trace bitfield-be bitfield be no plain 6

if [ "$failures" -ne 0 ]; then
	echo "$failures failures in $runs runs of tracekit"
	exit 1
fi
echo "$runs runs of tracekit on damaged traces, all as expected"
exit 0
