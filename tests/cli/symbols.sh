#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Design rules the compiler cannot check (STYLE.md 2.1, 2.2):
#  - libtracekit exports only names starting with tk_ (hidden visibility by default);
#  - source folders include only their own folder or folders to their left:
#    common <- model <- ctf | ftrace <- tracedat <- output <- pipeline <- tools (format folders
#    never include each other, except tracedat -> ftrace and perf -> ftrace, tracedat (perf.data
#    carries ftrace metadata as a trace.dat file does; and eventheader), tracedat -> eventheader
#    and ctf -> eventheader (typed EventHeader classes written again); eventheader includes
#    common and model only; output includes no format folder:
#    what a format's own tool prints comes from its reader through the model's text hooks;
#    pipeline, the entry points that span formats and sinks, such as tk_convert(), sits above
#    output so it can use the printer without going through its public entry points, which
#    would start a new error chain);
#  - no folder includes another folder's private header (*-priv.h, *-int.h): what a folder
#    offers the others is in its own interface header (ctf.h, ftrace.h, ...);
#  - the CLI includes only the public header;
#  - src/ust (the application tracer's runtime, its own library) includes common and ctf
#    (the CTF writer makes its metadata), eventheader and ftrace (its EventHeader output:
#    metadata and header writers, interceptor records, user_events), and no folder
#    includes src/ust;
#  - libtracekit-ust, when given, exports only tk_ names too.
# Usage: symbols.sh LIBTRACEKIT.so SOURCE-ROOT [LIBTRACEKIT-UST.so]
set -u
lib=$1
src=$2
fail=0

if ! command -v nm >/dev/null; then
	echo "skip: nm not found" >&2
	exit 77
fi
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRW]$/ {print $3}' | grep -v '^tk_' || true)
if [ -n "$bad" ]; then
	echo "FAIL: libtracekit exports names without the tk_ prefix:"
	echo "$bad" | sed 's/^/    /'
	fail=1
fi
if [ -n "${3:-}" ]; then
	bad=$(nm -D --defined-only "$3" | awk '$2 ~ /^[TDBRW]$/ {print $3}' | grep -v '^tk_' || true)
	if [ -n "$bad" ]; then
		echo "FAIL: libtracekit-ust exports names without the tk_ prefix:"
		echo "$bad" | sed 's/^/    /'
		fail=1
	fi
	if ! nm -D --defined-only "$3" | grep -q ' T tk_ust_session_start$'; then
		echo "FAIL: tk_ust_session_start is not exported by libtracekit-ust"
		fail=1
	fi
fi
if ! nm -D --defined-only "$lib" | grep -q ' T tk_trace_open$'; then
	echo "FAIL: tk_trace_open is not exported"
	fail=1
fi

# allowed[folder] = folders it may include (besides itself and the public headers)
allowed() {
	case $1 in
	common) echo "" ;;
	model) echo "common" ;;
	ctf) echo "common model eventheader" ;;
	ftrace) echo "common model" ;;
	eventheader) echo "common model" ;;
	perf) echo "common model ftrace tracedat eventheader" ;;
	tracedat) echo "common model ftrace eventheader" ;;
	output) echo "common model" ;;
	pipeline) echo "common model ctf ftrace tracedat eventheader perf output" ;;
	ust) echo "common ctf eventheader ftrace" ;;
	esac
}
for dir in "$src"/src/*/; do
	folder=$(basename "$dir")
	ok=$(allowed "$folder")
	for f in "$dir"*.c "$dir"*.h; do
		[ -e "$f" ] || continue
		grep -o '#include "\.\./[a-z]*/' "$f" | sed 's|#include "\.\./||; s|/$||' | sort -u |
		while read -r inc; do
			case " $ok " in
			*" $inc "*) ;;
			*) echo "FAIL: $f includes ../$inc/ (not allowed for $folder)"; echo x >"$src/.layout-fail.$$" ;;
			esac
		done
	done
done
if ls "$src"/.layout-fail.$$ >/dev/null 2>&1; then
	rm -f "$src"/.layout-fail.$$
	fail=1
fi
if grep -n '#include "\.\./[a-z]*/[^"]*-\(priv\|int\)\.h"' "$src"/src/*/*.c "$src"/src/*/*.h; then
	echo "FAIL: a folder includes another folder's private header (above)"
	fail=1
fi
if grep -n '#include "' "$src"/tools/tracekit/*.c | grep -v '"cli.h"'; then
	echo "FAIL: the CLI includes private headers (only <tracekit/tracekit.h> is allowed)"
	fail=1
fi
exit $fail
