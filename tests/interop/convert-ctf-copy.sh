#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: CTF to CTF by copy (src/ctf/ctf-copy.c). With nothing selected, `tracekit
# convert IN -o OUT` copies each trace's metadata, stream files and sound LTTng index files as
# they are, once it has read them as the CTF writer's path reads them; `convert --generic`
# takes that path. The oracles are the input's own bytes, babeltrace2, and gen-ctf's count of
# the empty strings it wrote:
#   1. the copy is taken: OUT holds exactly the files of IN (empty stream files aside), byte
#      for byte, at the same paths: an LTTng-UST-like trace of two streams larger than the
#      copy's chunk, with packetized metadata, losses and index files; a kernel-like
#      big-endian trace without index files; a directory holding one of each; and, with the
#      shared corpus, its LTTng traces (several domains, rotated trace files, index files)
#      and other traces the copy takes;
#   2. `--generic` writes the trace itself (its metadata is not the input's), and babeltrace2
#      prints what it wrote as tracekit prints the input, but for babeltrace2's stale empty
#      strings (stale-empty.py: tracekit prints "" there, as many as gen-ctf wrote), with the
#      same WARNING lines as for the input; so does the copy; with
#      --clock-seconds --names=all --fields=all too;
#   3. the writer's path is taken for what a copy would not keep as the writer writes it: a
#      selection (-e), metadata without its "/ * CTF 1.8" signature (babeltrace2 2.0.4 cannot
#      read the input, and reads the output as tracekit reads the input), and, from the
#      corpus, LTTng session-rotation chunks and metadata babeltrace2 warns about;
#   4. an index file whose magic is damaged is not copied (the reader ignores it); the rest is;
#   5. damage: a packet near the end of a stream file larger than the chunk whose content size
#      exceeds its packet size, a stream file cut inside a packet, a file cut at a packet
#      boundary while its index lists the packets after it: exit status 1, the one line
#      `--generic` prints, and nothing left beside the output's name; a file cut at a packet
#      boundary without index: exit 0 and the cut file copied.
#
# Usage: convert-ctf-copy.sh TRACEKIT GEN_CTF [CORPUS_DIR]
#        (exits 77 without babeltrace2 or python3; the corpus part is left out without it)
set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ
if ! command -v babeltrace2 >/dev/null 2>&1; then
	echo "skip: babeltrace2 not found in PATH" >&2
	exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip: python3 not found in PATH (stale-empty.py)" >&2
	exit 77
fi
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tools_from_args "$1" "$2"
corpus=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checked=0
all="--clock-seconds --names=all --fields=all"

fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

# files DIR: the files a copy of the traces below DIR holds, one relative path a line: those
# of a directory with a metadata file, and of its index/ (empty and hidden files aside)
files() {
	(cd "$1" && find . -type f ! -empty ! -name '.*' | sort) | while read -r f; do
		d=${f%/*}
		if [ -f "$1/$d/metadata" ] ||
			{ [ "${d##*/}" = index ] && [ -f "$1/${d%/index}/metadata" ]; }; then
			echo "$f"
		fi
	done
}

# copied NAME IN OUT: OUT holds the files of IN, byte for byte, and nothing else
copied() {
	checked=$((checked + 1))
	files "$2" >"$tmp/in.list"
	files "$3" >"$tmp/out.list"
	if ! cmp -s "$tmp/in.list" "$tmp/out.list"; then
		fail "$1: not a copy: other files (< input, > output)"
		diff "$tmp/in.list" "$tmp/out.list" | grep '^[<>]' | head -n 4 | sed 's/^/    /'
		return
	fi
	while read -r f; do
		if ! cmp -s "$2/$f" "$3/$f"; then
			fail "$1: not a copy: $f differs"
			return
		fi
	done <"$tmp/in.list"
}

# rewritten NAME IN OUT: OUT is the writer's: its metadata files are not the input's
rewritten() {
	checked=$((checked + 1))
	find "$3" -name metadata | head -n 1 >"$tmp/meta"
	m=$(cat "$tmp/meta")
	if [ -z "$m" ]; then
		fail "$1: no metadata in the output"
	elif cmp -s "$2/${m#"$3"/}" "$m"; then
		fail "$1: the output's metadata is the input's: the copy was taken"
	fi
}

# read_alike NAME IN OUT EMPTIES [OPTIONS...]: babeltrace2 prints OUT as tracekit prints IN,
# stale empty strings aside (EMPTIES of them), and its WARNING lines as for IN
read_alike() {
	name=$1
	in=$2
	out=$3
	empties=$4
	shift 4
	checked=$((checked + 1))
	"$tk" print "$@" "$in" >"$tmp/tk.out" 2>/dev/null
	if ! babeltrace2 "$@" "$out" >"$tmp/bt.out" 2>"$tmp/bt.err"; then
		fail "$name: babeltrace2 $* exits $?: $(grep -v '^$' "$tmp/bt.err" | head -n 1 |
			cut -c 1-200)"
		return
	fi
	if ! cmp -s "$tmp/bt.out" "$tmp/tk.out" &&
		! python3 "$here/stale-empty.py" "$tmp/bt.out" "$tmp/tk.out" >/dev/null; then
		fail "$name: babeltrace2 $* prints the output otherwise than tracekit the input"
		diff "$tmp/bt.out" "$tmp/tk.out" | grep '^[<>]' | head -n 4 | cut -c 1-200 |
			sed 's/^/    /'
	fi
	got=$(grep -oE '(= |\{ )""' "$tmp/tk.out" | wc -l)
	[ "$got" -eq "$empties" ] ||
		fail "$name: tracekit printed $got empty text values, gen-ctf wrote $empties"
	[ -s "$tmp/tk.out" ] || fail "$name: no events"
	babeltrace2 "$@" "$in" >/dev/null 2>"$tmp/bt.in.err"
	sed -n 's/ within stream "[^"]*" / within stream "S" /p' "$tmp/bt.in.err" |
		grep '^WARNING: ' >"$tmp/want.warn"
	sed -n 's/ within stream "[^"]*" / within stream "S" /p' "$tmp/bt.err" |
		grep '^WARNING: ' >"$tmp/got.warn"
	cmp -s "$tmp/want.warn" "$tmp/got.warn" ||
		fail "$name: babeltrace2 $* warns otherwise on the output than on the input"
	if grep -v '^WARNING: Tracer ' "$tmp/bt.err" | grep -q .; then
		fail "$name: babeltrace2 $* writes on stderr: $(grep -v '^WARNING: ' "$tmp/bt.err" |
			head -n 1 | cut -c 1-200)"
	fi
}

# damaged NAME IN: exit 1 with the one line --generic prints, nothing left
damaged() {
	checked=$((checked + 1))
	rm -rf "$tmp/bad"
	"$tk" convert -q --generic "$2" -o "$tmp/bad" >/dev/null 2>"$tmp/want.err"
	"$tk" convert -q "$2" -o "$tmp/bad" >/dev/null 2>"$tmp/bad.err"
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "$1: convert exits $rc, want 1"
	elif [ "$(wc -l <"$tmp/bad.err")" -ne 1 ] || ! grep -q '^tracekit: Cannot ' "$tmp/bad.err"
	then
		fail "$1: want one 'tracekit: Cannot ...' line on stderr"
		head -n 3 "$tmp/bad.err" | cut -c 1-200 | sed 's/^/    /'
	elif ! cmp -s "$tmp/want.err" "$tmp/bad.err"; then
		fail "$1: the copy fails otherwise than --generic"
		cat "$tmp/want.err" "$tmp/bad.err" | cut -c 1-300 | sed 's/^/    /'
	fi
	if [ -e "$tmp/bad" ] || ls -A "$tmp" | grep -q '^\.bad'; then
		fail "$1: output left after a failed conversion"
	fi
}

# last_packet FILE: the offset of the last packet of FILE, from its index
last_packet() {
	idx=$(dirname "$1")/index/$(basename "$1").idx
	elen=$(od -An -j 12 -N 4 -t u4 --endian=big "$idx" | tr -d ' ')
	n=$((($(wc -c <"$idx") - 16) / elen))
	od -An -j $((16 + (n - 1) * elen)) -N 8 -t u8 --endian=big "$idx" | tr -d ' '
}

# ---- 1, 2: generated traces ------------------------------------------------------------------
ust_empties=$("$gen" --count-empty -n 300000 -s 2 -p 65536 --packetized-metadata --lost \
	--procname ust) || { echo "FAIL: gen-ctf"; exit 1; }
kernel_empties=$("$gen" --count-empty -n 20000 -s 3 -l compact -b be --no-index -S 2 kernel) ||
	{ echo "FAIL: gen-ctf"; exit 1; }
[ "$(wc -c <ust/channel0_0)" -gt $((4 << 20)) ] || fail "ust: stream files too small"
# the two in one directory, read together: the kernel trace's clock is made the UST trace's
mkdir both && cp -R ust kernel both/ || exit 1
clock=$(grep -a -o 'uuid = "[^"]*"' ust/metadata | sed -n 2p)
sed -i "41s/uuid = \"[^\"]*\"/$clock/" both/kernel/metadata
grep -q "$clock" both/kernel/metadata || fail "both: cannot give both traces one clock"

if convert ust ust out; then
	copied ust ust out
	read_alike "ust (copy)" ust out "$ust_empties"
fi
if convert "ust --generic" ust gout --generic; then
	rewritten "ust --generic" ust gout
	read_alike "ust --generic" ust gout "$ust_empties"
	# shellcheck disable=SC2086 # $all is a list of options
	read_alike "ust --generic" ust gout "$ust_empties" $all
fi
if convert kernel kernel out; then
	copied kernel kernel out
	[ ! -e out/index ] || fail "kernel: an index the input has not"
	read_alike "kernel (copy)" kernel out "$kernel_empties"
	# shellcheck disable=SC2086
	read_alike "kernel (copy)" kernel out "$kernel_empties" $all
fi
if convert "kernel --generic" kernel gout --generic; then
	rewritten "kernel --generic" kernel gout
	# shellcheck disable=SC2086
	read_alike "kernel --generic" kernel gout "$kernel_empties" $all
fi
if convert both both out; then
	copied both both out
	# shellcheck disable=SC2086
	read_alike "both (copy)" both out $((ust_empties + kernel_empties)) $all
fi
rm -rf out gout both

# ---- 3, 4: what is not copied ------------------------------------------------------------------
if convert "kernel -e" kernel out -e 'sched_*'; then
	rewritten "kernel -e" kernel out
fi
mkdir nosig && cp kernel/* nosig/ || exit 1
sed -i '1s|^/\* CTF 1\.8 \*/||' nosig/metadata
if cmp -s kernel/metadata nosig/metadata; then
	fail "nosig: no signature to remove"
elif convert nosig nosig out; then
	rewritten nosig nosig out
	# shellcheck disable=SC2086
	read_alike nosig nosig out "$kernel_empties" $all
fi
cp -R ust badidx || exit 1
printf '\000' | dd of=badidx/index/channel0_1.idx bs=1 seek=1 conv=notrunc 2>/dev/null
if convert badidx badidx out; then
	checked=$((checked + 1))
	[ ! -e out/index/channel0_1.idx ] || fail "badidx: the damaged index was copied"
	rm badidx/index/channel0_1.idx
	copied badidx badidx out
fi
rm -rf out nosig badidx

# ---- 5: damage --------------------------------------------------------------------------------
cp -R ust bad1 || exit 1
off=$(last_packet bad1/channel0_0)
printf '\377\377\377\377\377\377\377\377' |
	dd of=bad1/channel0_0 bs=1 seek=$((off + 48)) conv=notrunc 2>/dev/null
damaged "content size past the packet, at $off" bad1
rm -rf bad1
cp -R kernel bad2 || exit 1
f=bad2/channel0_1
head -c $(($(wc -c <"$f") / 2 + 5)) "$f" >"$f.part" && mv "$f.part" "$f"
damaged "file cut inside a packet" bad2
rm -rf bad2
cp -R ust bad3 || exit 1
f=bad3/channel0_1
off=$(last_packet "$f")
head -c "$off" "$f" >"$f.part" && mv "$f.part" "$f"
damaged "file cut before a packet its index lists" bad3
rm -rf bad3/index
if convert "file cut at a packet, no index" bad3 out; then
	copied "file cut at a packet, no index" bad3 out
fi
rm -rf out bad3

# ---- 1, 3: the corpus ---------------------------------------------------------------------------
if [ -n "$corpus" ] && [ -d "$corpus/ctf/traces/succeed" ]; then
	c=$corpus/ctf/traces
	for t in succeed/multi-domains succeed/lttng-tracefile-rotation succeed/trace-with-index \
		succeed/wk-heartbeat-u succeed/2packets succeed/lttng-crash \
		succeed/barectf-event-before-packet succeed/meta-ctx-sequence \
		packet-seq-num/7-lost-between-2-with-index intersection/nostream; do
		if convert "$t" "$c/$t" out; then
			copied "$t" "$c/$t" out
		fi
	done
	if [ -d "$corpus/ctf/lttng-ust-sample" ] &&
		convert lttng-ust-sample "$corpus/ctf/lttng-ust-sample" out; then
		copied lttng-ust-sample "$corpus/ctf/lttng-ust-sample" out
	fi
	for t in succeed/session-rotation succeed/warnings succeed/succeed3 succeed/succeed4; do
		if convert "$t" "$c/$t" out; then
			rewritten "$t" "$c/$t" out
		fi
	done
	rm -rf out
else
	echo "note: no corpus at '$corpus/ctf': its traces are left out" >&2
fi

echo "checked $checked, $failures failed"
[ $failures -eq 0 ]
