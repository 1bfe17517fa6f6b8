#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The programs of examples/ as a user builds them: the build is installed into a temporary
# DESTDIR with `meson install`, each example is compiled with nothing but what pkg-config
# says about the installed tracekit.pc, and run against the installed shared library.
# examples/sched-pids.c prints "PREV NEXT" per sched_switch event; its numbers are checked
# against the reference tools' own text, parsed here:
#   - trace-cmd report -R of a gen-dat trace.dat file and of a corpus trace.dat file;
#   - babeltrace2 of the corpus LTTng kernel trace (prev_tid / next_tid).
# examples/hello.c, built with the installed tracekit-ust.pc, writes a trace under
# TRACEKIT_UST_DIR; babeltrace2 must print its three events with their values.
# Parts whose tool or corpus file is missing are skipped; with none left the test skips.
# Usage: examples.sh BUILD-DIR SOURCE-ROOT GEN-DAT CORPUS [MESON]
set -u
build=$1
src=$2
gen_dat=$3
corpus=$4
meson=${5:-meson}
cc=${CC:-cc}

for tool in "$cc" pkg-config; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "skip: $tool not found" >&2
		exit 77
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest

if ! "$meson" install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$tmp/install.log" 2>&1; then
	echo "FAIL: meson install --destdir failed:"
	cat "$tmp/install.log"
	exit 1
fi
pc=$(find "$dest" -name tracekit.pc | head -n 1)
if [ -z "$pc" ]; then
	echo "FAIL: meson install did not install tracekit.pc"
	exit 1
fi
for h in "$src"/include/tracekit/*.h; do
	if [ -z "$(find "$dest" -path "*/include/tracekit/$(basename "$h")")" ]; then
		echo "FAIL: public header not installed: include/tracekit/$(basename "$h")"
		exit 1
	fi
done
# the installed tracekit.pc first (its private requirements are system ones), with its paths
# taken inside DESTDIR
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$dest \
	pkg-config --cflags --libs tracekit) || {
	echo "FAIL: pkg-config cannot read the installed tracekit.pc"
	exit 1
}
libdir=$(dirname "$(find "$dest" -name 'libtracekit.so*' | head -n 1)")
if [ ! -e "$libdir/libtracekit.so" ]; then
	echo "FAIL: the shared library is not installed (libtracekit.so under $dest)"
	exit 1
fi
# a library built with sanitizers needs their runtime in the program too
case ${TK_SANITIZE:-none} in
none | '') ;;
*) flags="-fsanitize=$TK_SANITIZE $flags" ;;
esac
# shellcheck disable=SC2086
if ! "$cc" -std=c11 -Wall -Wextra -Werror -o "$tmp/sched-pids" "$src/examples/sched-pids.c" \
	$flags; then
	echo "FAIL: examples/sched-pids.c does not build with: $flags"
	exit 1
fi

fail=0
ran=0

# the application tracer's example, with the installed tracekit-ust.pc
ustflags=$(PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$dest \
	pkg-config --cflags --libs tracekit-ust) || {
	echo "FAIL: pkg-config cannot read the installed tracekit-ust.pc"
	exit 1
}
case ${TK_SANITIZE:-none} in
none | '') ;;
*) ustflags="-fsanitize=$TK_SANITIZE $ustflags" ;;
esac
# shellcheck disable=SC2086
if ! "$cc" -std=c11 -Wall -Wextra -Werror -I "$src/examples" -o "$tmp/hello" \
	"$src/examples/hello.c" $ustflags; then
	echo "FAIL: examples/hello.c does not build with: $ustflags"
	exit 1
fi
if ! TRACEKIT_UST_DIR=$tmp/hello-trace LD_LIBRARY_PATH=$libdir "$tmp/hello" tracekit; then
	echo "FAIL: examples/hello.c failed"
	exit 1
fi
if command -v babeltrace2 >/dev/null 2>&1; then
	babeltrace2 "$tmp/hello-trace" 2>&1 | sed -n 's/.* hello:greeting: .*}, { \(.*\) }$/\1/p' \
		>"$tmp/got"
	printf 'count = %d, name = "tracekit"\n' 0 1 2 >"$tmp/want"
	if cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok: examples/hello.c: 3 events read by babeltrace2"
		ran=$((ran + 1))
	else
		echo "FAIL: examples/hello.c: babeltrace2 reads:"
		babeltrace2 "$tmp/hello-trace" 2>&1 | head -n 5
		fail=1
	fi
else
	echo "skip part: babeltrace2 not found (examples/hello.c)" >&2
fi

# check NAME EXPECTED-FILE TRACE: sched-pids on TRACE prints EXPECTED-FILE (not empty)
check() {
	if [ ! -s "$2" ]; then
		echo "FAIL: $1: the reference tool printed no sched_switch event"
		fail=1
		return
	fi
	if ! LD_LIBRARY_PATH=$libdir "$tmp/sched-pids" "$3" >"$tmp/got" 2>"$tmp/err"; then
		echo "FAIL: $1: sched-pids failed:"
		cat "$tmp/err"
		fail=1
		return
	fi
	if ! cmp -s "$2" "$tmp/got"; then
		echo "FAIL: $1: sched-pids differs from the reference ($(wc -l <"$2") lines):"
		diff "$2" "$tmp/got" | head -n 10
		fail=1
		return
	fi
	echo "ok: $1: $(wc -l <"$2") sched_switch events"
	ran=$((ran + 1))
}

# trace-cmd report -R prints "... sched_switch: prev_comm=A prev_pid=1 ... next_pid=2 ..."
tc_pids() {
	trace-cmd report -R "$1" 2>/dev/null |
		sed -n 's/.* sched_switch: .* prev_pid=\(-\{0,1\}[0-9]*\) .* next_pid=\(-\{0,1\}[0-9]*\) .*/\1 \2/p'
}

if command -v trace-cmd >/dev/null 2>&1; then
	"$gen_dat" --events=3000 --cpus=4 "$tmp/gen.dat" || exit 1
	tc_pids "$tmp/gen.dat" >"$tmp/want"
	check "gen-dat trace.dat" "$tmp/want" "$tmp/gen.dat"
	if [ -f "$corpus/tracedat/x86_64-v7-zstd.dat" ]; then
		tc_pids "$corpus/tracedat/x86_64-v7-zstd.dat" >"$tmp/want"
		check "corpus x86_64-v7-zstd.dat" "$tmp/want" "$corpus/tracedat/x86_64-v7-zstd.dat"
	else
		echo "skip part: no corpus trace.dat file" >&2
	fi
else
	echo "skip part: trace-cmd not found" >&2
fi

lttng=$corpus/ctf/traces/succeed/lttng-tracefile-rotation
if command -v babeltrace2 >/dev/null 2>&1 && [ -d "$lttng" ]; then
	# babeltrace2 prints "... sched_switch: { cpu_id = 2 }, { ..., prev_tid = 0, ..., next_tid = 3, ..."
	TZ=UTC babeltrace2 "$lttng" 2>/dev/null |
		sed -n 's/.* sched_switch: .* prev_tid = \(-\{0,1\}[0-9]*\),.* next_tid = \(-\{0,1\}[0-9]*\),.*/\1 \2/p' \
			>"$tmp/want"
	check "corpus LTTng kernel trace (CTF)" "$tmp/want" "$lttng"
else
	echo "skip part: babeltrace2 or the corpus LTTng kernel trace not found" >&2
fi

if [ "$fail" -eq 0 ] && [ "$ran" -eq 0 ]; then
	echo "skip: neither trace-cmd nor babeltrace2 with the corpus to compare with" >&2
	exit 77
fi
exit $fail
