#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Every public header compiles on its own (STYLE.md 2.2: self-contained, C and C++): as C11
# with -pedantic, and as C++, each in a file that includes only that header, so a header that
# leans on another one being included first, or on C-only syntax, fails here.
# Usage: headers.sh SOURCE-ROOT [CC [CXX]]
set -u
src=$1
cc=${2:-gcc}
cxx=${3:-g++}
for tool in "$cc" "$cxx"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "skip: $tool not found (scripts/check.sh installs it)" >&2
		exit 77
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for h in "$src"/include/tracekit/*.h; do
	name=$(basename "$h")
	printf '#include <tracekit/%s>\nint tk_header_test_%s;\n' "$name" "$n" >"$tmp/t.c"
	cp "$tmp/t.c" "$tmp/t.cc"
	if ! "$cc" -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I "$src/include" \
		"$tmp/t.c"; then
		echo "FAIL: $name does not compile alone as C11"
		fail=1
	fi
	if ! "$cxx" -std=c++11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I "$src/include" \
		"$tmp/t.cc"; then
		echo "FAIL: $name does not compile alone as C++"
		fail=1
	fi
	n=$((n + 1))
done
if [ "$n" -lt 10 ]; then
	echo "FAIL: only $n public headers found in $src/include/tracekit"
	fail=1
fi
echo "$n headers checked as C11 and C++"
exit $fail
