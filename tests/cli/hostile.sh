#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Hostile inputs (issue 10, part 6): each bug the fuzzers and the damaged corpus copies found,
# rebuilt here from a description (TSDL text, bytes written with printf, directory trees made
# with mkdir and ln), never copied from a finding. The ASan and UBSan build runs this same
# script, so a reproducer of a memory or undefined-behaviour bug fails there if it comes
# back. Each case says what tracekit must do, from the CTF and trace.dat specifications and
# the project's contract for bad input (exit status 1 and one line naming the cause and its
# place, every event before the damage printed; exit status 0 when the input is valid).
#
#   1. An event class without fields in a stream whose event header keeps no value (LTTng's
#      compact header) and a trace without packet header or context: valid, printed as
#      babeltrace2 prints it (times and names). The same class with no event header at all:
#      every event takes no room, which CTF forbids: exit 1 naming the stream file.
#   2. A trace with LTTng index files (from gen-ctf) whose first packet is damaged (its magic
#      number zeroed), in the first and in the second of two stream files: exit 1 naming the
#      file, and no leak of the index tables read before (LeakSanitizer in the ASan build).
#   3. A directory tree holding two symbolic links to itself (x -> ., y -> .), a trace in a
#      subdirectory, a link to that trace beside it, and a link to a trace outside the tree:
#      the search ends (babeltrace2 walks 2^33 paths there), each trace is read once, and the
#      one reached only through a link is read: their events, each exactly once.
#   4. Errors that name their cause: a trace.dat file without read permission (errno, not
#      "not a trace"); a tree whose only trace is in an unreadable directory (the directory
#      and errno as the cause of "no CTF trace found"); the same tree with a readable trace
#      too (exit 0, its events, and one "tracekit: warning:" line naming the unreadable
#      directory); a trace 40 directories deep (the directory below which the search stopped,
#      as the cause), and one 33 directories deep, the deepest searched (found). Permissions
#      do not stop root: as root, these cases run tracekit as nobody (setpriv).
#   5. A version 7 trace.dat file (gen-dat, uncompressed and zstd twins) whose kallsyms
#      section cannot be read: its length past the end of the section, its section id
#      changed, its compressed data zeroed. kallsyms only names function addresses, so the
#      file reads as the same file with an empty kallsyms (its length set to 0, a valid file
#      that trace-cmd report, when installed, prints alike): exit 0, that output, and one
#      "tracekit: warning:" line naming the file and the section. `info` and `convert` go on
#      too, and the converted file prints the same.
#   6. Errors that name their place. Two gen-dat files given together, the second (version
#      6) cut short in the data of its CPU 1: the line names that file, the CPU and the
#      offset, and no empty "buffer=" (the top buffer, which trace-cmd does not name either);
#      the commit word of the first page of a version 7 file's instance buffer "inst" made
#      too large: the line names the file, the buffer, the CPU, the page index and offset.
#      Hand-made CTF traces whose offsets are known from their bytes: an event id no class
#      has (the line names the file, the packet and the event's offset), and an event older
#      than the one before it in a stream's second packet (the line names the file, the
#      packet index and offset and the event's offset, after the events before it).
#      Metadata: an event class whose sequence length names no field (the line of its
#      event block), a trace block that is missing (the last line of the text), the second
#      packet of gen-ctf's packetized metadata with version 2.8 (its index and offset).
#   7. Two traces that share a UUID (gen-ctf's default seed) but not their layout (lttng and
#      bitfield): read as one trace, as LTTng's chunks are, the second's streams do not fit
#      the first's metadata. babeltrace2 fails there too; tracekit must fail with one line
#      naming the stream file, not free the trace it was building twice (a crash once, which
#      the ASan build would catch).
#
# Usage: hostile.sh TRACEKIT GEN_CTF [GEN_DAT]
set -u
LC_ALL=C
TZ=UTC
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=87"
export LC_ALL TZ ASAN_OPTIONS UBSAN_OPTIONS
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tools_from_args "$@"
gendat=$(abspath "${3:-$(dirname "$gen")/gen-dat}")
# shellcheck source=../damage-dat-lib.sh
. "$(dirname "$0")/../damage-dat-lib.sh"
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0

fail() {
	echo "FAIL: $*"
	if [ -s "$tmp/err" ]; then
		head -n 3 "$tmp/err" | cut -c 1-400 | sed 's/^/    stderr: /'
	fi
	failures=$((failures + 1))
}

# run CASE [TRACEKIT-ARGS...]: tracekit with a time limit; sets rc, fills $tmp/out, $tmp/err.
run() {
	case_name=$1
	shift
	timeout 20 "$tk" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# ok: exit status 0, nothing on stderr.
ok() {
	if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
		fail "$case_name: exit status $rc, want 0 and a quiet stderr"
		return 1
	fi
	return 0
}

# error PATTERN...: exit status 1 and one line on stderr, "tracekit: Cannot ...", that
# matches every PATTERN (grep -E).
error() {
	if [ "$rc" -ne 1 ]; then
		fail "$case_name: exit status $rc, want 1"
		return 1
	fi
	if [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q '^tracekit: Cannot ' "$tmp/err"; then
		fail "$case_name: want one 'tracekit: Cannot ...' line on stderr"
		return 1
	fi
	for p in "$@"; do
		if ! grep -q -E -e "$p" "$tmp/err"; then
			fail "$case_name: the message does not match '$p'"
			return 1
		fi
	done
	return 0
}

# same_out FILE: stdout is FILE.
same_out() {
	if ! cmp -s "$tmp/out" "$1"; then
		fail "$case_name: stdout is not as expected"
		diff "$1" "$tmp/out" | head -n 6 | sed 's/^/    /'
		return 1
	fi
	return 0
}

# ---- 1. events without fields and without any value decoded -------------------------------
t=$tmp/nofields
mkdir -p "$t/compact" "$t/none"
cat >"$t/compact/metadata" <<'EOF'
/* CTF 1.8 */
typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := uint27_c;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := uint64_c;
trace { major = 1; minor = 8; byte_order = le; };
clock { name = c; freq = 1000000000; };
stream {
	event.header := struct {
		enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
		variant <id> {
			struct { uint27_c timestamp; } compact;
			struct { uint32_t id; uint64_c timestamp; } extended;
		} v;
	} align(8);
};
event { name = "a"; id = 0; };
event { name = "b"; id = 1; };
EOF
# compact headers, little-endian: id in the low 5 bits, the time in the next 27 bits
# (id 0 at 1 ns, id 1 at 2 ns, id 0 at 5 ns)
printf '\040\0\0\0\101\0\0\0\240\0\0\0' >"$t/compact/stream"
cat >"$t/compact.want" <<'EOF'
[00:00:00.000000001] (+?.?????????) a: 
[00:00:00.000000002] (+0.000000001) b: 
[00:00:00.000000005] (+0.000000003) a: 
EOF
run "no fields, compact header" print "$t/compact"
ok && same_out "$t/compact.want"
run "no fields, compact header, JSON" print --style=json "$t/compact"
if ok && [ "$(grep -c '"fields":{}' "$tmp/out")" -ne 3 ]; then
	fail "$case_name: want three events with empty fields"
fi

cat >"$t/none/metadata" <<'EOF'
/* CTF 1.8 */
trace { major = 1; minor = 8; byte_order = le; };
event { name = "e"; };
EOF
printf 'abcd' >"$t/none/stream"
run "no fields, no event header" print "$t/none"
error "file=$t/none/stream" 'offset-bits=0' 'takes no room' && same_out /dev/null

# ---- 2. the index of a stream file whose first packet cannot be read ----------------------
t=$tmp/index
for k in 0 1; do
	rm -rf "$t"
	"$gen" -n 40 -s 2 -p 256 "$t" >/dev/null || fail "gen-ctf failed"
	[ -f "$t/index/channel0_$k.idx" ] || fail "gen-ctf wrote no index for stream $k"
	# the packet header starts with the magic number 0xC1FC1FC1: zero its first byte
	printf '\0' | dd of="$t/channel0_$k" bs=1 seek=0 conv=notrunc 2>/dev/null
	run "first packet of indexed stream file $k damaged" print "$t"
	error "Cannot read first packet of stream file: path=$t/channel0_$k, offset=0: " 'magic=' &&
		same_out /dev/null
done

# ---- 3. symbolic links: loops, a second path to a trace, a trace outside the tree ----------
t=$tmp/links
mkdir -p "$t/tree/a" "$t/outside"
cp -r "$tmp/nofields/compact" "$t/tree/a/trace"
# the outside trace: the same layout, one event "b" at 3 ns
cp "$tmp/nofields/compact/metadata" "$t/outside/"
printf '\141\0\0\0' >"$t/outside/stream"
ln -s . "$t/tree/x"
ln -s . "$t/tree/y"
ln -s a/trace "$t/tree/b"
ln -s ../outside "$t/tree/c"
cat >"$t/want" <<'EOF'
[00:00:00.000000001] (+?.?????????) a: 
[00:00:00.000000002] (+0.000000001) b: 
[00:00:00.000000003] (+0.000000001) b: 
[00:00:00.000000005] (+0.000000002) a: 
EOF
run "symbolic links to the tree itself" print "$t/tree"
if [ "$rc" -eq 124 ]; then
	fail "$case_name: still searching after 20 s"
else
	ok && same_out "$t/want"
fi

# ---- 4. unreadable files and directories, traces too deep ---------------------------------
# as_user CASE ARGS...: run, as nobody when root (permissions do not apply to root)
as_user() {
	if [ "$(id -u)" -ne 0 ]; then
		run "$@"
		return
	fi
	case_name=$1
	shift
	timeout 20 setpriv --reuid=65534 --regid=65534 --clear-groups "$tk" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
}
t=$tmp/perm
mkdir -p "$t/only/locked" "$t/both/locked" "$t/both/open" "$t/dat"
chmod 755 "$tmp"
cp -r "$tmp/nofields/compact" "$t/only/locked/trace"
cp -r "$tmp/nofields/compact" "$t/both/locked/trace"
cp -r "$tmp/links/outside" "$t/both/open/trace"
# the smallest trace.dat start: its magic, then nothing (unreadable anyway)
printf '\027\010\104tracing6' >"$t/dat/trace.dat"
chmod -R a+rX "$t"
chmod 0 "$t/only/locked" "$t/both/locked" "$t/dat/trace.dat"
if [ "$(id -u)" -eq 0 ] && { ! command -v setpriv >/dev/null 2>&1 ||
	! setpriv --reuid=65534 --regid=65534 --clear-groups "$tk" --version >/dev/null 2>&1; }
then
	echo "note: root, and nobody cannot run $tk: unreadable files not checked" >&2
else
	as_user "unreadable trace.dat file" print "$t/dat/trace.dat"
	error "Cannot read file: path=$t/dat/trace.dat, errno=Permission denied" &&
		same_out /dev/null
	as_user "only trace in an unreadable directory" print "$t/only"
	error "no CTF trace .*found: Cannot search directory: path=$t/only/locked, errno=Permission denied" &&
		same_out /dev/null
	as_user "a trace beside an unreadable directory" print "$t/both"
	if [ "$rc" -ne 0 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
		! grep -q "^tracekit: warning: Cannot search directory: path=$t/both/locked, errno=Permission denied\$" \
			"$tmp/err"; then
		fail "$case_name: want exit 0 and one warning naming the directory"
	else
		echo '[00:00:00.000000003] (+?.?????????) b: ' >"$t/want"
		same_out "$t/want"
	fi
fi
chmod 755 "$t/only/locked" "$t/both/locked"

# nest ROOT N: the path ROOT/d1/d2/.../dN
nest() {
	p=$1
	i=1
	while [ $i -le "$2" ]; do
		p=$p/d$i
		i=$((i + 1))
	done
	echo "$p"
}
# deep/d1/.../d39/trace: 40 levels below deep; deep33/d1/.../d32/trace: 33 levels
for d in "$(nest "$tmp/deep" 39)" "$(nest "$tmp/deep33" 32)"; do
	mkdir -p "$d"
	cp -r "$tmp/nofields/compact" "$d/trace"
done
run "a trace 40 directories deep" print "$tmp/deep"
error "no CTF trace .*found: Cannot search directory: path=$tmp/deep(/d[0-9]+){33}/d34, reason=more than 33 levels below" &&
	same_out /dev/null
run "a trace 33 directories deep" print "$tmp/deep33"
ok && same_out "$tmp/nofields/compact.want"

# ---- 5. a v7 kallsyms section that cannot be read -----------------------------------------
t=$tmp/kallsyms
mkdir "$t"
"$gendat" -n 300 -c 2 "$t/none.dat" >/dev/null &&
	"$gendat" -n 300 -c 2 --compression=zstd "$t/zstd.dat" >/dev/null ||
	fail "gen-dat failed"
# section_start FILE ID: the offset of the header of the v7 section of id ID
section_start() {
	od -An -v -tu1 "$1" | awk "$LAYOUT_AWK" |
		awk -v id="$2" '$1 == "region" && $4 == "section_header:" id { print $2 }'
}
# put FILE OFFSET OCTAL-ESCAPES: write those bytes at OFFSET
put() {
	# shellcheck disable=SC2059 # the bytes are given as octal escapes
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
kn=$(section_start "$t/none.dat" 19)
kz=$(section_start "$t/zstd.dat" 19)
if [ -z "$kn" ] || [ -z "$kz" ]; then
	fail "no kallsyms section (id 19) found in the gen-dat files"
else
	"$tk" print "$t/none.dat" >"$t/full"
	# the reference: the u32 length after the 16-byte section header set to 0
	cp "$t/none.dat" "$t/empty.dat"
	put "$t/empty.dat" $((kn + 16)) '\0\0\0\0'
	run "v7 kallsyms emptied (valid)" print "$t/empty.dat"
	ok && cp "$tmp/out" "$t/want"
	if cmp -s "$t/want" "$t/full" || ! grep -q ' function=0xffffffff' "$t/want"; then
		fail "$case_name: the output does not lose the function names"
	fi
	if command -v trace-cmd >/dev/null 2>&1; then
		trace-cmd report "$t/empty.dat" >"$t/oracle" 2>/dev/null
		cmp -s "$t/oracle" "$t/want" ||
			fail "$case_name: trace-cmd report prints it otherwise"
	fi
	cp "$t/none.dat" "$t/length.dat"
	put "$t/length.dat" $((kn + 16)) '\360\377\377\377'
	cp "$t/none.dat" "$t/id.dat"
	put "$t/id.dat" "$kn" '\024'
	cp "$t/zstd.dat" "$t/zdata.dat"
	dd if=/dev/zero of="$t/zdata.dat" bs=1 seek=$((kz + 16 + 8 + 20)) count=64 \
		conv=notrunc 2>/dev/null
	for f in length id zdata; do
		run "v7 kallsyms section damaged ($f)" print "$t/$f.dat"
		if [ "$rc" -ne 0 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
			! grep -q "^tracekit: warning: Cannot read trace.dat kallsyms: path=$t/$f.dat, .*section: id=19 (KALLSYMS), offset=" \
				"$tmp/err"; then
			fail "$case_name: want exit 0 and one warning naming the file and section"
		else
			same_out "$t/want"
		fi
		run "v7 kallsyms section damaged ($f), info" info "$t/$f.dat"
		[ "$rc" -eq 0 ] || fail "$case_name: exit status $rc, want 0"
		rm -f "$t/conv.dat"
		run "v7 kallsyms section damaged ($f), convert" convert "$t/$f.dat" -o "$t/conv.dat"
		if [ "$rc" -ne 0 ]; then
			fail "$case_name: exit status $rc, want 0"
		else
			run "v7 kallsyms section damaged ($f), converted" print "$t/conv.dat"
			ok && same_out "$t/want"
		fi
	done
fi

# ---- 6. errors that name their place ------------------------------------------------------
t=$tmp/place
mkdir "$t"
"$gendat" -n 200 -c 2 -S 1 "$t/a.dat" >/dev/null &&
	"$gendat" -n 200 -c 2 -S 2 --file-version=6 "$t/b.dat" >/dev/null &&
	"$gendat" -n 200 -c 2 -S 3 --instance=inst "$t/inst.dat" >/dev/null ||
	fail "gen-dat failed"
# the v6 file keeps its CPUs' data last: its last 5000 bytes are in the data of CPU 1
head -c $(($(wc -c <"$t/b.dat") - 5000)) "$t/b.dat" >"$t/b-cut.dat"
run "trace.dat cut short, second of two files" print "$t/a.dat" "$t/b-cut.dat"
if error "Cannot read stream: path=$t/b-cut.dat, id=1: Cannot read trace.dat CPU data: cpu=1, offset=[0-9]+, reason=data runs past the end of the file"; then
	grep -q 'buffer=' "$tmp/err" && fail "$case_name: an empty buffer= in the message"
fi
# data_offset FILE BUFFER CPU: where the data of that CPU of that buffer starts, read from the
# file's v7 BUFFER options (option 3: u64 section offset, then the buffer's name)
data_offset() {
	od -An -v -tu1 "$1" | awk "$LAYOUT_AWK" | awk '
		$1 == "option" { o = $2 == 3 ? $3 : -1 }
		$1 == "entry" && o >= 0 { print o, $2, $3 }' |
		while read -r o c at; do
			name=$(dd if="$1" bs=1 skip=$((o + 14)) count=64 2>/dev/null | tr '\0' '\n' |
				head -n 1)
			if [ "$name" = "$2" ] && [ "$c" = "$3" ]; then
				od -An -v -tu8 -j "$at" -N 8 "$1" | tr -d ' '
			fi
		done
}
i0=$(data_offset "$t/inst.dat" inst 0)
if [ -z "$i0" ]; then
	fail "cannot find the data of the instance in the gen-dat file"
else
	# the 8-byte commit word after the page's 8-byte time stamp: far more than a page holds
	put "$t/inst.dat" $((i0 + 8)) '\0\0\0\1\0\0\0\0'
	run "trace.dat page damaged in an instance" print "$t/inst.dat"
	error "Cannot read stream: path=$t/inst.dat, id=0: Cannot read page: buffer=inst, cpu=0, index=0, offset=$i0: "
fi

# CTF: one stream, each packet a context (packet_size, content_size: u32 LE, in bits) and
# events of 9 bytes (u8 id, u64 LE time stamp)
t=$tmp/place/ctf
mkdir -p "$t/ids" "$t/back"
cat >"$t/ids/metadata" <<'EOF'
/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := uint64_c;
trace { major = 1; minor = 8; byte_order = le; };
clock { name = c; freq = 1000000000; };
stream {
	packet.context := struct { uint32_t packet_size; uint32_t content_size; };
	event.header := struct { uint8_t id; uint64_c timestamp; };
};
event { name = "a"; id = 0; };
event { name = "b"; id = 1; };
EOF
cp "$t/ids/metadata" "$t/back/"
# packet 0 (bytes 0-16): a at 5 ns; packet 1 (bytes 17-42): a at 7 ns, then b at 6 ns at 34
{
	printf '\210\0\0\0\210\0\0\0'
	printf '\0\5\0\0\0\0\0\0\0'
	printf '\320\0\0\0\320\0\0\0'
	printf '\0\7\0\0\0\0\0\0\0'
	printf '\1\6\0\0\0\0\0\0\0'
} >"$t/back/stream"
# the same, the second event of packet 1 with id 9, which no class has
{
	head -c 34 "$t/back/stream"
	printf '\11\10\0\0\0\0\0\0\0'
} >"$t/ids/stream"
cat >"$t/want" <<'EOF'
[00:00:00.000000005] (+?.?????????) a: 
[00:00:00.000000007] (+0.000000002) a: 
EOF
run "CTF event of no class" print "$t/ids"
error "Cannot read event: file=$t/ids/stream, packet-index=1, packet-offset=17, offset=34: Cannot read event: id=9, offset-bits=136, reason=no such event class" &&
	same_out "$t/want"
run "CTF time going backwards" print "$t/back"
error "Cannot order events: stream=$t/back/stream, file=$t/back/stream, packet-index=1, packet-offset=17, offset=34, time-ns=6, previous-time-ns=7, reason=time goes backwards" &&
	same_out "$t/want"

t=$tmp/place/meta
mkdir -p "$t/class" "$t/notrace"
cat >"$t/class/metadata" <<'EOF'
/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
trace { major = 1; minor = 8; byte_order = le; };
event { name = "s";
	fields := struct { uint8_t x[nolen]; }; };
EOF
printf '\0' >"$t/class/stream"
run "metadata: a sequence length that names no field" print "$t/class"
error "Cannot read metadata: path=$t/class/metadata: .*Cannot read event class: name=s, line=4: .*nolen" &&
	same_out /dev/null
head -n 2 "$t/class/metadata" >"$t/notrace/metadata"
cp "$t/class/stream" "$t/notrace/"
run "metadata without a trace block" print "$t/notrace"
error "Cannot read metadata: path=$t/notrace/metadata: Cannot read metadata: end-line=3, reason=no trace block" &&
	same_out /dev/null
rm -rf "$t/packets"
"$gen" -n 10 -s 1 --packetized-metadata "$t/packets" >/dev/null || fail "gen-ctf failed"
if [ "$(wc -c <"$t/packets/metadata")" -le 4096 ]; then
	fail "gen-ctf wrote one metadata packet only"
else
	# the 37-byte header ends with the major and minor version numbers
	put "$t/packets/metadata" $((4096 + 35)) '\2'
	run "metadata packet of another version" print "$t/packets"
	error "Cannot read metadata packet: path=$t/packets/metadata, packet=1, offset=4096, version=2.8" &&
		same_out /dev/null
fi

# 7. one UUID, two layouts
rm -rf "$t/uuid-a" "$t/uuid-b"
if "$gen" --layout lttng -n 2000 "$t/uuid-a" >/dev/null && "$gen" --layout bitfield -n 500 "$t/uuid-b" >/dev/null; then
	run "two layouts under one UUID" print "$t/uuid-a" "$t/uuid-b"
	error "Cannot open trace: .*path=$t/uuid-(a|b)/" && same_out /dev/null
else
	fail "gen-ctf failed"
fi

if [ "$failures" -ne 0 ]; then
	echo "$failures failures"
	exit 1
fi
echo "all hostile-input cases as expected"
exit 0
