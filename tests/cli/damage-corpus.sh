#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Damaged copies of every real trace of the shared corpus: the CTF traces (ctf/traces, but
# not ctf2/, which tracekit does not read) and the LTTng-UST sample, and the trace.dat files.
# The generated traces of cli-damage and cli-damage-dat cover each layout in depth; this test
# covers what real tracers wrote (many layouts, indexes, rotations, several domains, files
# from trace-cmd 2.9 to 3.1). A bounded, deterministic set of copies per trace (offsets from a
# generator seeded with the trace's name): files cut short, one bit flipped, a range zeroed.
# The contract (STYLE.md, 2.4) for each copy: no crash, hang, leak or sanitizer report (the
# ASan and UBSan build runs this script too); exit status 0, or 1 with one line on stderr
# that starts "tracekit: Cannot", names the damaged file and gives a place in it (offset= or
# line=); and stdout starts with every event the intact trace prints before the damage.
#
# The intact output is the reference tool's, stored in the corpus (babeltrace2 2.0.4's for
# CTF, trace-cmd report 3.1.6's for trace.dat), which tracekit must print for the intact copy.
# "Before the damage" is derived from where the damage is and the intact output, as
# cli-damage and cli-damage-dat do for generated traces:
#
#   CTF. The merge reads a stream's next packet only after returning the events before it,
#   so when a stream file F is damaged in its packet k, every line of the intact output up
#   to the last event of F before packet k must come first. Packets start where the LTTng
#   index says, or where the packet magic 0xC1FC1FC1 (either byte order) starts them, or at
#   0. The lines of F's events come from babeltrace2 (the oracle), on copies of the trace
#   where F is empty and where F ends at the start of packet k (valid traces), printed
#   without deltas: the lines the first lacks are F's events, those the second lacks are
#   F's events from packet k on. Streams made of several files are read in the begin-time
#   order of all their packets, which a flipped or zeroed time may change: there only cuts
#   are checked that way. Damage to an index file: exit 0 with the full output (the index
#   is ignored, or the damaged field unused), or exit 1 after the events of F before the
#   packet of the damaged entry; an index cut short is ignored. Damage to the metadata:
#   exit status and message. Traces babeltrace2 refuses (fail/) and the one it aborts on
#   (meta-ctx-sequence): exit status and message only.
#   trace.dat. The layout programs of damage-dat-lib.sh read the file: a cut or flip gets
#   the exit status and lines damage-dat.sh expects there; a range zeroed inside one page
#   (or one compressed chunk) the lines before that page. The pages of a zstd file are
#   those of its uncompressed twin in the corpus (the same recording, printed alike); for
#   x86_64-v7-zstd.dat, which has none, only the "cpus=" line is known to come first.
#
# Without babeltrace2, CTF damage is checked for exit status and message only (a note says
# so). Usage: damage-corpus.sh TRACEKIT CORPUS-DIR (exits 77 when the corpus is absent)
# shellcheck disable=SC2016 # the single-quoted strings are awk programs
set -u
LC_ALL=C
TZ=UTC
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=87"
export LC_ALL TZ ASAN_OPTIONS UBSAN_OPTIONS
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "${1:-${TRACEKIT:-}}")
corpus=${2:-${TRACEKIT_CORPUS:-}}
if [ ! -x "$tk" ]; then
	echo "FAIL: not an executable: $tk"
	exit 1
fi
if [ -z "$corpus" ] || [ ! -d "$corpus/ctf/traces" ] || [ ! -d "$corpus/tracedat" ]; then
	echo "skip: shared corpus not found at ${corpus:-(unset)}" >&2
	exit 77
fi
corpus=$(cd "$corpus" && pwd)
# the corpus's trace.dat files reach 6 MB: room for copies, still a bound on runaway output
DAMAGE_FSIZE=65536
# shellcheck source=../damage-lib.sh
. "$(dirname "$0")/../damage-lib.sh"
# shellcheck source=../damage-dat-lib.sh
. "$(dirname "$0")/../damage-dat-lib.sh"
prefixed=0
bt=
if command -v babeltrace2 >/dev/null 2>&1; then
	bt=babeltrace2
else
	echo "note: babeltrace2 not found: CTF damage checked for exit status and message only" >&2
fi

# ---- shared ---------------------------------------------------------------------------------

# seed NAME: start the offset generator from NAME, so every run damages the same places.
seed() {
	x=$(printf '%s' "$1" | cksum | cut -d ' ' -f 1)
}

# rnd N: $r, the generator's next number below N (N > 0).
rnd() {
	x=$(((x * 69069 + 1) % 4294967296))
	r=$(((x / 256) % $1))
}

# zero FILE OFFSET LENGTH: write LENGTH zero bytes at OFFSET.
zero() {
	dd if=/dev/zero of="$1" bs=1 seek="$2" count="$3" conv=notrunc 2>/dev/null
}

# check KIND CASE NAME LINES FULL: the run of a damaged copy (rc, $tmp/out, $tmp/err) keeps
# the contract: status_ok; whole lines; on exit 1 the line names NAME (the damaged file, as
# it appears in paths) and a place; stdout starts with the first LINES lines of FULL (none
# checked when LINES is -1). Returns 1 after a failure.
check() {
	status_ok "$1" "$2" && whole_lines "$1" "$2" || return 1
	# a trace that fails intact (fail/) may fail for its own reason, elsewhere
	if [ "$rc" -eq 1 ] && { { [ "$strict" = 1 ] && ! grep -q -F -e "$3" "$tmp/err"; } ||
		! grep -q -E -e '(offset|line)=[0-9]' "$tmp/err"; }; then
		fail "$1" "$2: the message does not name $3 and a place in it"
		return 1
	fi
	if [ "$4" -gt 0 ]; then
		prefixed=$((prefixed + 1))
		head -n "$4" "$5" >"$tmp/want"
		if ! head -n "$4" "$tmp/out" | cmp -s - "$tmp/want"; then
			fail "$1" "$2: stdout does not start with the $4 lines before the damage"
			return 1
		fi
	fi
	return 0
}

# ---- CTF ------------------------------------------------------------------------------------

# deletions A B: the line numbers of A that B lacks, one a line, when B is A with lines
# deleted; exits 1 otherwise (lines added or changed).
deletions() {
	diff "$1" "$2" | awk '
		/^[0-9]/ {
			if ($0 !~ /^[0-9,]+d[0-9]+$/)
				bad = 1
			split($0, p, "d")
			n = split(p[1], r, ",")
			for (i = r[1]; i <= r[n]; i++)
				print i
		}
		END { exit bad }'
}

# oracle NAME: babeltrace2 --no-delta on the copy $ref into $t/NAME.nd, and the lines of
# the intact trace it lacks into $t/NAME.del; returns 1 when babeltrace2 fails or the
# output is not the intact one with lines deleted.
oracle() {
	"$bt" --no-delta "$ref" >"$t/$1.nd" 2>/dev/null &&
		deletions "$t/full.nd" "$t/$1.nd" >"$t/$1.del"
}

# packet_starts FILE INDEX: the offsets where the packets of stream file FILE start, one a
# line: from its LTTng index file when it has one that starts at 0, else where the packet
# magic starts them (when the file starts with it), else 0.
packet_starts() {
	if [ -f "$2" ] && od -An -v -tu1 "$2" | awk "$INDEX_AWK" >"$t/idx" &&
		[ "$(head -n 1 "$t/idx" | cut -d ' ' -f 1)" = 0 ]; then
		cut -d ' ' -f 1 "$t/idx"
		return
	fi
	od -An -v -tu1 "$1" | awk '
		{ for (i = 1; i <= NF; i++) b[n++] = $i }
		END {
			for (o = 0; o + 4 <= n; o++)
				if (b[o] == 193 && b[o + 3] == 193 &&
				    ((b[o + 1] == 31 && b[o + 2] == 252) ||
				     (b[o + 1] == 252 && b[o + 2] == 31)))
					print o
		}' >"$t/magic"
	if [ "$(head -n 1 "$t/magic")" = 0 ]; then
		cat "$t/magic"
	else
		echo 0
	fi
}

# prefix_ctf K: the number of lines of the intact output before the damage to packet K of
# the stream file $f (relative path $rel), or -1 when it cannot be known.
prefix_ctf() {
	if [ -z "$bt" ] || [ "$oracle_ok" != 1 ] || [ ! -s "$t/f.del" ]; then
		echo -1
		return
	fi
	if [ ! -f "$t/k$1.del" ]; then
		start=$(sed -n "$(($1 + 1))p" "$t/starts")
		rm -rf "$ref"
		cp -R "$w" "$ref"
		chmod -R u+w "$ref"
		head -c "$start" "$f" >"$ref/$rel"
		rm -f "$ref/$(dirname "$rel")/index/$(basename "$rel").idx"
		oracle "k$1" || : >"$t/k$1.bad"
	fi
	if [ -f "$t/k$1.bad" ]; then
		echo -1
		return
	fi
	# F's last event before packet K: the last of F's lines before the first one cut off
	awk 'FILENAME == ARGV[1] { if (!first || $1 < first) first = $1; next }
		!first || $1 < first { last = $1 }
		END { print last + 0 }' "$t/k$1.del" "$t/f.del"
}

# packet_of X: the index of the packet of $t/starts that holds offset X.
packet_of() {
	awk -v x="$1" '$1 <= x { k = NR - 1 } END { print k + 0 }' "$t/starts"
}

# restore REL: the copy's file REL as in the corpus.
restore() {
	cp "$src/$1" "$w/$1"
	chmod u+w "$w/$1"
}

# damage_data: cut, flip and zero the stream file $f of the copy $w, and check each run.
damage_data() {
	size=$(wc -c <"$f")
	idx=$(dirname "$f")/index/$(basename "$f").idx
	packet_starts "$f" "$idx" >"$t/starts"
	oracle_ok=0
	if [ -n "$bt" ] && [ "$strict" = 1 ]; then
		# F's events: the lines a copy with F empty (and without its index) lacks
		rm -rf "$ref"
		cp -R "$w" "$ref"
		chmod -R u+w "$ref"
		: >"$ref/$rel"
		rm -f "$ref/$(dirname "$rel")/index/$(basename "$rel").idx"
		oracle f && oracle_ok=1
		rm -f "$t"/k*.del "$t"/k*.bad
	fi
	for kind in cut flip zero; do
		rnd "$size"
		at=$r
		k=$(packet_of "$at")
		L=$(prefix_ctf "$k")
		[ "$kind" != cut ] && [ "$multi" = 1 ] && L=-1
		case $kind in
		cut)
			[ "$at" -gt 0 ] || at=1
			head -c "$at" "$src/$rel" >"$f"
			;;
		flip)
			rnd 8
			v=$(od -An -v -tu1 -j "$at" -N 1 "$f" | tr -d ' ')
			flip "$f" "$at" $((v ^ (1 << r)))
			;;
		zero)
			rnd 56
			len=$((8 + r))
			[ $((at + len)) -le "$size" ] || len=$((size - at))
			zero "$f" "$at" "$len"
			;;
		esac
		run "$w"
		check "ctf_$kind" "$name: $rel $kind at $at (packet $k, $L lines before)" \
			"/$(basename "$w")/$rel" "$L" "$t/full"
		restore "$rel"
	done
}

# damage_index: flip a bit of the index $i of stream file $f, and cut it short.
damage_index() {
	isize=$(wc -c <"$i")
	rnd "$isize"
	at=$r
	rnd 8
	v=$(od -An -v -tu1 -j "$at" -N 1 "$i" | tr -d ' ')
	flip "$i" "$at" $((v ^ (1 << r)))
	run "$w"
	c="$name: $irel bit $r of byte $at flipped"
	if check ctf_index "$c" "/$(basename "$w")/$rel" -1 "$t/full" && [ "$strict" = 1 ]; then
		if [ "$rc" -eq 0 ] && ! cmp -s "$tmp/out" "$t/full"; then
			fail ctf_index "$c: exit status 0 without the full output"
		elif [ "$rc" -eq 1 ] && [ "$at" -ge 16 ]; then
			es=$(od -An -v -tu4 --endian=big -j 12 -N 4 "$src/$irel" | tr -d ' ')
			e=$(((at - 16) / es))
			L=$(prefix_ctf "$e")
			check ctf_index "$c (entry $e, $L lines before)" "/$(basename "$w")/$rel" \
				"$L" "$t/full"
		fi
	fi
	restore "$irel"
	rnd "$isize"
	head -c "$r" "$src/$irel" >"$i"
	run "$w"
	c="$name: $irel cut at $r"
	if check ctf_index "$c" "$irel" -1 "$t/full" && [ "$strict" = 1 ] &&
		{ [ "$rc" -ne 0 ] || ! cmp -s "$tmp/out" "$t/full"; }; then
		fail ctf_index "$c: not ignored (want exit status 0 and the full output)"
	fi
	restore "$irel"
}

# damage_metadata: cut and flip the metadata $m (relative path $mrel).
damage_metadata() {
	msize=$(wc -c <"$m")
	rnd "$msize"
	head -c "$r" "$src/$mrel" >"$m"
	run "$w"
	# a metadata still valid may describe the data otherwise: then a stream file is named
	check ctf_meta "$name: $mrel cut at $r" "/$(basename "$w")/" -1 "$t/full"
	restore "$mrel"
	rnd "$msize"
	at=$r
	rnd 8
	v=$(od -An -v -tu1 -j "$at" -N 1 "$m" | tr -d ' ')
	flip "$m" "$at" $((v ^ (1 << r)))
	run "$w"
	check ctf_meta "$name: $mrel bit $r of byte $at flipped" "/$(basename "$w")/" -1 "$t/full"
	restore "$mrel"
}

# check_ctf NAME SOURCE-DIR EXPECTED-TXT EXPECTED-RC
check_ctf() {
	name=$1 src=$2
	seed "$name"
	t=$tmp/t
	w=$tmp/w/trace
	ref=$tmp/ref/trace
	rm -rf "$t" "$tmp/w" "$tmp/ref"
	mkdir -p "$t" "$tmp/w" "$tmp/ref"
	cp -R "$src" "$w"
	chmod -R u+w "$w"
	run "$w"
	strict=0
	if [ "$4" = 0 ] && [ "$name" != succeed/meta-ctx-sequence ]; then
		if [ "$rc" -ne 0 ] || ! cmp -s "$tmp/out" "$3"; then
			fail setup "$name: the intact copy does not print as babeltrace2 printed it"
			return
		fi
		strict=1
	fi
	cp "$tmp/out" "$t/full"
	multi=0
	if [ "$strict" = 1 ] && [ -n "$bt" ]; then
		"$bt" --no-delta "$w" >"$t/full.nd" 2>/dev/null || strict=0
		# several files in one stream: fewer streams than non-empty stream files
		streams=$("$bt" -c sink.text.details --params=compact=true "$w" 2>/dev/null |
			grep -c 'Stream beginning')
		files=$(find "$w" -type f -size +0 ! -name metadata ! -name '.*' ! -path '*/index/*' |
			wc -l)
		[ "$streams" -lt "$files" ] && multi=1
	fi
	find "$w" -type f -size +0 ! -name metadata ! -name '.*' ! -path '*/index/*' |
		sort >"$t/data"
	n=$(wc -l <"$t/data")
	# at most two stream files: the first and the last (one for a trace that fails intact)
	last=$n
	[ "$strict" = 1 ] || last=1
	for j in 1 "$last"; do
		[ "$j" -ge 1 ] || continue
		f=$(sed -n "${j}p" "$t/data")
		[ -n "$f" ] && [ ! -f "$t/done.$j" ] || continue
		: >"$t/done.$j"
		rel=${f#"$w"/}
		damage_data
	done
	m=$(find "$w" -type f -name metadata | sort | head -n 1)
	if [ -n "$m" ]; then
		mrel=${m#"$w"/}
		damage_metadata
	fi
	i=$(find "$w" -type f -path '*/index/*.idx' | sort | head -n 1)
	if [ -n "$i" ] && [ "$strict" = 1 ]; then
		irel=${i#"$w"/}
		f=$(dirname "$(dirname "$i")")/$(basename "$i" .idx)
		rel=${f#"$w"/}
		if [ -s "$f" ]; then
			damage_index_prepare
			damage_index
		fi
	fi
}

# damage_index_prepare: the oracle lines of the index's data file $f, as damage_data makes them.
damage_index_prepare() {
	idx=$(dirname "$f")/index/$(basename "$f").idx
	packet_starts "$f" "$idx" >"$t/starts"
	oracle_ok=0
	rm -f "$t"/k*.del "$t"/k*.bad
	if [ -n "$bt" ] && [ "$strict" = 1 ] && [ "$multi" = 0 ]; then
		rm -rf "$ref"
		cp -R "$w" "$ref"
		chmod -R u+w "$ref"
		: >"$ref/$rel"
		rm -f "$ref/$irel"
		oracle f && oracle_ok=1
	fi
}

ctfx=$corpus/ctf/expect-babeltrace2
for rcfile in $(cd "$ctfx" && find . -name '*.rc' ! -name '*.all.rc' | sort); do
	T=${rcfile#./}
	T=${T%.rc}
	[ -d "$corpus/ctf/traces/$T" ] || continue
	check_ctf "$T" "$corpus/ctf/traces/$T" "$ctfx/$T.txt" "$(cat "$ctfx/$T.rc")"
done
if [ -d "$corpus/ctf/lttng-ust-sample" ]; then
	check_ctf lttng-ust-sample "$corpus/ctf/lttng-ust-sample" \
		"$corpus/ctf/lttng-ust-sample.expect-babeltrace2.txt" 0
fi

# ---- trace.dat ------------------------------------------------------------------------------

# expect_dat KIND CASE AWK-PROGRAM INPUT-LINE: the expectation of one damage from the layout
# programs (CUT_EXPECT_AWK: "offset rc lines"; FLIP_EXPECT_AWK: "... kind lines").
expect_dat() {
	echo "$3" >"$t/one"
	awk -v total="$total" -v zlib=0 "$2" "$t/layout.x" "$t/events" "$t/one"
}

# check_dat NAME FILE: damaged copies of the trace.dat file FILE.
check_dat() {
	name=$1 src=$2 strict=1
	seed "$name"
	t=$tmp/t
	rm -rf "$t" "$tmp/w"
	mkdir -p "$t" "$tmp/w"
	d=$tmp/w/$name
	cp "$src" "$d"
	chmod u+w "$d"
	run "$d"
	want=$corpus/tracedat/expect-trace-cmd/${name%.dat}.report.txt
	if [ "$rc" -ne 0 ] || ! cmp -s "$tmp/out" "$want"; then
		fail setup "$name: the intact copy does not print as trace-cmd report printed it"
		return
	fi
	cp "$tmp/out" "$t/full"
	total=$(wc -l <"$t/full")
	awk "$EVENTS_AWK" "$t/full" >"$t/events"
	# the commit word's size, from the header_page text (of the twin for a compressed file)
	twin=${src%.v7-zstd.dat}.v7-none.dat
	[ "$twin" != "$src" ] && [ -f "$twin" ] || twin=
	commit=$(grep -a -o 'commit;[[:space:]]*offset:[0-9]*;[[:space:]]*size:[0-9]*' \
		"${twin:-$src}" | head -n 1 | sed 's/.*size://')
	od -An -v -tu1 "$d" | awk -v commit="${commit:-0}" "$LAYOUT_AWK" >"$t/layout"
	read -r _ size _ _ _ P compressed <<-EOF
		$(grep '^file ' "$t/layout")
	EOF
	pages=$t/layout
	if [ "$compressed" = 1 ] && [ -n "$twin" ]; then
		od -An -v -tu1 "$twin" | awk -v commit="${commit:-0}" "$LAYOUT_AWK" |
			grep '^page' >"$t/pages"
		pages=$t/pages
	fi
	# the records counted in the pages are the events printed, CPU by CPU (no pages known
	# for a compressed file without twin: then only the "cpus=" line is known to come first)
	if grep -q '^page' "$pages" && ! awk 'FILENAME == ARGV[1] && $1 == "page" { r[$2] += $5 }
		FILENAME == ARGV[2] { e[$1]++ }
		END {
			for (c in e)
				if (r[c] != e[c])
					exit 1
			for (c in r)
				if (r[c] != e[c])
					exit 1
		}' "$pages" "$t/events"; then
		fail setup "$name: the records of the pages are not the events printed"
		return
	fi
	grep -v '^page' "$t/layout" >"$t/layout.x"
	grep '^page' "$pages" >>"$t/layout.x"
	grep '^cpu ' "$t/layout" >"$t/cpus"
	ncpu=$(wc -l <"$t/cpus")

	# cuts: one anywhere, one in the data of a CPU
	rnd "$size"
	c1=$r
	rnd "$ncpu"
	read -r _ _ coff csize <<-EOF
		$(sed -n "$((r + 1))p" "$t/cpus")
	EOF
	rnd "$csize"
	for at in "$c1" $((coff + r)); do
		set -- $(expect_dat cut "$CUT_EXPECT_AWK" "$at")
		head -c "$at" "$src" >"$d"
		run "$d"
		if expect dat_cut "$name: cut at $at, want exit $2 and $3 lines" "$2"; then
			head -n "$3" "$t/full" >"$tmp/want"
			cmp -s "$tmp/out" "$tmp/want" ||
				fail dat_cut "$name: cut at $at: stdout is not the $3 lines before the cut"
			check dat_cut "$name: cut at $at" "$name" -1 "$t/full"
		fi
	done
	cp "$src" "$d"

	# flips: one anywhere, two in pages or chunks; zeroed: one range anywhere, two inside
	# one page or one chunk's compressed bytes
	for what in flip-any flip-data flip-data zero-any zero-data zero-data; do
		case $what in
		*-any)
			rnd "$size"
			at=$r
			end=$size
			;;
		*-data)
			if [ "$compressed" = 1 ]; then
				n=$(grep -c '^chunk' "$t/layout")
				rnd "$n"
				read -r _ _ _ co cz _ <<-EOF
					$(grep '^chunk' "$t/layout" | sed -n "$((r + 1))p")
				EOF
				start=$((co + 8)) end=$((co + 8 + cz))
			else
				n=$(grep -c '^page' "$t/layout")
				rnd "$n"
				read -r _ _ _ start _ end <<-EOF
					$(grep '^page' "$t/layout" | sed -n "$((r + 1))p")
				EOF
			fi
			rnd $((end - start))
			at=$((start + r))
			;;
		esac
		rnd 8
		bit=$r
		old=$(od -An -v -tu1 -j "$at" -N 1 "$d" | tr -d ' ')
		set -- $(expect_dat flip "$FLIP_EXPECT_AWK" "$at $bit $old $((old ^ (1 << bit)))")
		kind=$5 lines=$6
		case $what in
		flip-*)
			flip "$d" "$at" $((old ^ (1 << bit)))
			c="$name: bit $bit of byte $at flipped ($kind, $lines lines)"
			;;
		zero-*)
			rnd 56
			len=$((8 + r))
			[ $((at + len)) -le "$end" ] || len=$((end - at))
			zero "$d" "$at" "$len"
			# a range from a byte nothing uses may reach bytes something uses
			[ "$what" = zero-any ] && [ "$kind" != prefix ] && kind=status
			[ "$kind" = unused ] && [ "$what" = zero-data ] && kind=status
			c="$name: $len bytes zeroed at $at ($kind, $lines lines)"
			;;
		esac
		run "$d"
		case $kind in
		prefix) check "dat_$what" "$c" "$name" "$lines" "$t/full" ;;
		unused)
			check "dat_$what" "$c" "$name" -1 "$t/full" &&
				{ [ "$rc" -eq 0 ] && cmp -s "$tmp/out" "$t/full" ||
					fail "dat_$what" "$c: a byte nothing uses changes the output"; }
			;;
		*) check "dat_$what" "$c" "$name" -1 "$t/full" ;;
		esac
		cp "$src" "$d"
	done
}

for src in "$corpus"/tracedat/*.dat; do
	check_dat "$(basename "$src")" "$src"
done

if [ "$failures" -ne 0 ]; then
	echo "$failures failures in $runs runs of tracekit"
	exit 1
fi
echo "$runs runs of tracekit on damaged copies of the corpus traces, all as expected" \
	"($prefixed with the lines before the damage known)"
exit 0
