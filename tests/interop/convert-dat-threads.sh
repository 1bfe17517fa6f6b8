#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: trace.dat to CTF with the CPUs on threads (src/pipeline/dat-to-ctf.c, the
# lanes of src/ctf/ctf-sink.c). With nothing selected, `tracekit convert FILE.dat -o OUT`
# converts each CPU on a thread of its own (one per core, four at most) and must write the
# bytes the CPUs one after the other give; `convert --generic` takes the CTF sink alone, CPU
# after CPU, whose bytes the shortcut's serial path gives too (convert-generic.sh). The
# oracle is that serial path:
#   1. the same files, byte for byte but for the random trace UUID (ctf-same.py), for gen-dat
#      files of 2, 3 and 4 CPUs, versions 6 and 7, uncompressed, zstd and zlib, with losses,
#      with an instance (two stream classes: the threads give way to the serial path), for
#      the corpus's trace.dat files when it is there, and for every file TRACEKIT_DAT_FILES
#      names (space-separated: traces of 31 classes or more, such as big recordings, take
#      the provisional IDs of src/ctf/ctf.h, which no generated file reaches);
#   2. a selection (-e, --cpu, --begin) takes the serial path and still gives its bytes;
#   3. damage in the second CPU's pages (a page overwritten with 0xff): exit status 1 and the
#      same message as --generic, and nothing left beside the output's name.
# On a machine of one core the threads are not used, and the test checks the serial path.
#
# Usage: convert-dat-threads.sh TRACEKIT GEN_DAT [CORPUS_DIR]   (exits 77 without python3)
set -u
LC_ALL=C
export LC_ALL
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip: python3 not found in PATH (ctf-same.py)" >&2
	exit 77
fi
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
gen_dat=$(abspath "$2")
corpus=${3:-}
same=$(cd "$(dirname "$0")" && pwd)/ctf-same.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
checked=0

fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

# pair NAME FILE [OPTION]...: the default and --generic conversions give the same bytes
pair() {
	name=$1
	in=$2
	shift 2
	convert "$name" "$in" "$tmp/par" "$@" || return
	convert "$name" "$in" "$tmp/ser" --generic "$@" || return
	if ! python3 "$same" "$tmp/par" "$tmp/ser" >"$tmp/same"; then
		fail "$name $*: the threads and the serial path write different bytes:"
		head -n 4 "$tmp/same"
	fi
}

gen() {
	out=$1
	shift
	"$gen_dat" "$@" "$out" >/dev/null || {
		echo "FAIL: gen-dat $*"
		exit 1
	}
}

gen g2-v7.dat -n 20000 -c 2
gen g2-v6.dat -n 20000 -c 2 --file-version 6
gen g2-zstd.dat -n 20000 -c 2 --compression zstd
gen g3-zlib.dat -n 15000 -c 3 --compression zlib -S 3
gen g4-v7.dat -n 40000 -c 4
gen g4-zstd.dat -n 40000 -c 4 --compression zstd -S 2
gen g4-missed.dat -n 20000 -c 4 --missed
gen g2-inst.dat -n 6000 -c 2 --instance=foo
gen g4-fg.dat -n 20000 -c 4 --funcgraph --file-version 6

for f in "$tmp"/g*.dat; do
	pair "$(basename "$f")" "$f"
done
pair g4-v7.dat-select "$tmp/g4-v7.dat" -e sched
pair g4-v7.dat-cpu "$tmp/g4-v7.dat" --cpu 2
pair g2-zstd.dat-window "$tmp/g2-zstd.dat" --begin 0.001
if [ -n "$corpus" ] && [ -d "$corpus/tracedat" ]; then
	for f in "$corpus"/tracedat/*.dat; do
		pair "corpus/$(basename "$f")" "$f"
	done
else
	echo "note: no corpus: its trace.dat files are left out"
fi
for f in ${TRACEKIT_DAT_FILES:-}; do
	if [ -r "$f" ]; then
		pair "$f" "$f"
	else
		echo "note: $f cannot be read: left out"
	fi
done

# damage in the second CPU's pages: the threads give way, and the serial path fails as it does
cp "$tmp/g2-v6.dat" "$tmp/bad.dat"
size=$(wc -c <"$tmp/bad.dat")
at=$((size * 3 / 4 / 4096 * 4096))
head -c 8192 /dev/zero | tr '\0' '\377' |
	dd of="$tmp/bad.dat" bs=4096 seek=$((at / 4096)) conv=notrunc 2>/dev/null
checked=$((checked + 1))
"$tk" convert -q "$tmp/bad.dat" -o "$tmp/bad-par" 2>"$tmp/bad-par.err"
rp=$?
"$tk" convert -q --generic "$tmp/bad.dat" -o "$tmp/bad-ser" 2>"$tmp/bad-ser.err"
rs=$?
sed 's/bad-par/OUT/' "$tmp/bad-par.err" >"$tmp/bad-par.msg"
sed 's/bad-ser/OUT/' "$tmp/bad-ser.err" >"$tmp/bad-ser.msg"
if [ $rp -ne 1 ] || [ $rs -ne 1 ]; then
	fail "damaged: exit status $rp (threads) and $rs (--generic), 1 expected"
elif ! grep -q "Cannot read page: cpu=1" "$tmp/bad-par.msg"; then
	fail "damaged: not the damaged page's message: $(head -c 300 "$tmp/bad-par.msg")"
elif ! cmp -s "$tmp/bad-par.msg" "$tmp/bad-ser.msg"; then
	fail "damaged: the messages differ:"
	diff "$tmp/bad-par.msg" "$tmp/bad-ser.msg" | head -n 4
fi
left=$(find "$tmp" -maxdepth 1 -name '*bad-*' ! -name '*.err' ! -name '*.msg' | wc -l)
if [ "$left" -ne 0 ]; then
	fail "damaged: something is left behind: $(find "$tmp" -maxdepth 1 -name '*bad-*')"
fi

echo "$checked conversions checked, $failures failures"
[ $failures -eq 0 ]
