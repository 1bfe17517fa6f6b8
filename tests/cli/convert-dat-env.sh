#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `tracekit convert` from CTF to trace.dat when the ftrace metadata a CTF trace carries in its
# environment (doc/format-tracedat.md section 9) is damaged: each damage, made by editing one
# entry of the `env` block of the metadata of a CTF trace converted from a gen-dat file, must
# fail with exit status 1, one line on stderr whose causes name what is wrong (the expected
# words below), no output file left, and no crash (the sanitizer build runs this too).
# The undamaged trace converts back to a file that prints as the gen-dat file does.
#
# Usage: convert-dat-env.sh TRACEKIT GEN_DAT
set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tk=$(abspath "$1")
gen=$(abspath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0
fail() {
	failures=$((failures + 1))
	echo "FAIL $*"
}

"$gen" -n 800 -c 2 -S 11 "$tmp/in.dat" >/dev/null || {
	echo "FAIL gen-dat"
	exit 1
}
if ! "$tk" convert -q "$tmp/in.dat" -o "$tmp/ctf" 2>"$tmp/err"; then
	echo "FAIL to CTF: $(head -n 1 "$tmp/err")"
	exit 1
fi
meta=$tmp/ctf/metadata

# the undamaged trace goes back
checks=$((checks + 1))
if "$tk" convert -q "$tmp/ctf" -o "$tmp/back.dat" 2>"$tmp/err"; then
	"$tk" print --style json "$tmp/in.dat" | sed 's/,"stream":"[^"]*"//' >"$tmp/want"
	"$tk" print --style json "$tmp/back.dat" | sed 's/,"stream":"[^"]*"//' >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" || fail "undamaged: JSON lines differ"
else
	fail "undamaged: $(head -n 1 "$tmp/err")"
fi

# damage NAME SED_SCRIPT EXPECTED_WORDS: edit the metadata, convert, check the failure
damage() {
	checks=$((checks + 1))
	rm -rf "$tmp/bad" "$tmp/out.dat"
	cp -r "$tmp/ctf" "$tmp/bad"
	sed -i "$2" "$tmp/bad/metadata"
	if cmp -s "$meta" "$tmp/bad/metadata"; then
		fail "$1: the edit changed nothing"
		return
	fi
	"$tk" convert -q "$tmp/bad" -o "$tmp/out.dat" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "$1: exit status $rc, not 1: $(head -n 1 "$tmp/err")"
		return
	fi
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$1: $(wc -l <"$tmp/err") lines on stderr"
	grep -q "^tracekit: Cannot convert: .*$3" "$tmp/err" ||
		fail "$1: the message does not say '$3': $(head -c 300 "$tmp/err")"
	[ ! -e "$tmp/out.dat" ] || fail "$1: an output file was left behind"
	[ ! -s "$tmp/out" ] || fail "$1: output on stdout"
}

# entry KEY VALUE: a sed script giving the env entry KEY the raw TSDL value VALUE
entry() {
	printf 's/^\\t%s = .*;$/\\t%s = %s;/' "$1" "$1" "$2"
}

damage "format text garbage" "$(entry ftrace_event_372_format '"garbage"')" \
	"key=ftrace_event_372_format"
damage "format with another ID" \
	"$(entry ftrace_event_372_format '"name: sched_switch\\nID: 9\\nformat:\\n\\tfield:int x;\\toffset:0;\\tsize:4;\\tsigned:1;\\n\\n\\nprint fmt: \\"\\"\\n"')" \
	"reason=its ID line says another id"
damage "format missing a field" \
	"/^\\tftrace_event_372_format = /s/\\\\tfield:pid_t next_pid;[^\\\\]*\\\\toffset:[0-9]*;\\\\tsize:4;\\\\tsigned:1;\\\\n//" \
	"event=sched_switch, field=next_pid, reason=the format has another field there"
damage "format with a string where a number was" \
	"/^\\tftrace_event_372_format = /s/\\\\tfield:pid_t prev_pid;/\\\\tfield:__data_loc char[] prev_pid;/" \
	"event=sched_switch, field=prev_pid, reason="
damage "no system for a format" "/^\\tftrace_event_374_system = /d" "key=ftrace_event_374_format\\|common-type=374"
damage "header_page garbage" "$(entry ftrace_header_page '"field: nothing\\n"')" \
	"key=ftrace_header_page"
damage "no header_page" "/^\\tftrace_header_page = /d" "key=ftrace_header_page, reason=missing"
damage "no byte order" "/^\\tftrace_byte_order = /d" "key=ftrace_byte_order, reason=missing"
damage "bad byte order" "$(entry ftrace_byte_order '"middle"')" "key=ftrace_byte_order"
damage "page size not a power of two" "$(entry ftrace_page_size 5000)" "key=ftrace_page_size"
damage "long size a string" "$(entry ftrace_long_size '"8"')" "key=ftrace_long_size"
damage "later layout" "$(entry tracekit_ftrace 2)" "tracekit_ftrace=2"
damage "option not hex" "$(entry ftrace_option_1 '"5 hex 4x"')" "key=ftrace_option_1, reason="
damage "option odd hex" "$(entry ftrace_option_1 '"5 hex 414"')" "key=ftrace_option_1, reason="
damage "option neither text nor hex" "$(entry ftrace_option_1 '"5 base64 QQ=="')" \
	"key=ftrace_option_1, reason="
damage "option the writer makes" "$(entry ftrace_option_1 '"3 hex 00"')" \
	"key=ftrace_option_1, option=3"
damage "option without an id" "$(entry ftrace_option_1 '"text foo"')" \
	"key=ftrace_option_1, reason=no option id"
damage "text in parts with a gap" "s/^\\tftrace_printk = /\\tftrace_printk_3 = /" \
	"key=ftrace_printk, part=1"
damage "no buffer" "/^\\tftrace_buffer_0_name = /d" "ftrace_buffer_0_name"
damage "buffer of another stream class" "$(entry ftrace_buffer_0_stream_class 7)" \
	"stream-class=0, reason=no ftrace buffer"
damage "version 8" "$(entry ftrace_file_version 8)" "key=ftrace_file_version"
damage "compression unknown" "$(entry ftrace_compression '"lz4"')" "compression=lz4"

# an option asked for that the file cannot have
checks=$((checks + 1))
rm -f "$tmp/out.dat"
if "$tk" convert -q "$tmp/ctf" -o "$tmp/out.dat" --file-version=6 --compression=zstd \
	2>"$tmp/err"; then
	fail "v6 with zstd: accepted"
elif [ -e "$tmp/out.dat" ]; then
	fail "v6 with zstd: an output file was left behind"
fi

echo "$checks checks, $failures failures"
[ $failures -eq 0 ]
