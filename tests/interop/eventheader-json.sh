#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Interop test: the EventHeader decoder and JSON formatter (src/eventheader, through the
# eh-decode tool) against the reference decoder's output for the corpus interceptor file
# (374 events covering every encoding and format). eventheader-json.py normalises only the
# member name and whitespace outside strings, then every event must match byte for byte;
# the compact layout (-c) must match the same reference too. eh-decode must also exit 0 (every
# event decoded).
#
# Usage: eventheader-json.sh EH_DECODE [CORPUS_DIR]
#        (exits 77 when the corpus or python3 is missing)
set -u
LC_ALL=C
export LC_ALL
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(dirname "$0")
dec=$(abspath "$1")
corpus=${2:-${TRACEKIT_CORPUS:-}}
dat=$corpus/eventheader/EventHeaderInterceptorLE64.dat
if [ -z "$corpus" ] || [ ! -f "$dat" ] || [ ! -f "$dat.linux.json" ]; then
	echo "skip: corpus file eventheader/EventHeaderInterceptorLE64.dat not found" >&2
	exit 77
fi
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not found in PATH" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

for layout in spaced compact; do
	opt=
	[ $layout = compact ] && opt=-c
	# shellcheck disable=SC2086
	"$dec" $opt -n renamed.dat "$dat" >"$tmp/$layout.json" 2>"$tmp/$layout.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $layout: eh-decode exited $rc: $(head -c 600 "$tmp/$layout.err")"
		failures=$((failures + 1))
	fi
	echo "$layout:"
	python3 "$here/eventheader-json.py" "$tmp/$layout.json" "$dat.linux.json" ||
		failures=$((failures + 1))
done
# the spaced layout under the file's own name is the reference's file itself
"$dec" "$dat" >"$tmp/same.json" 2>/dev/null
if ! cmp -s "$tmp/same.json" "$dat.linux.json"; then
	echo "FAIL spaced output is not byte-identical to the reference file"
	failures=$((failures + 1))
fi
[ $failures -eq 0 ] || exit 1
echo "PASS"
