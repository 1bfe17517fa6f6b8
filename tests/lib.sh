# SPDX-License-Identifier: MIT
#
# Sourced by the shell tests that drive tracekit and the trace generator.

# abspath PATH: PATH made absolute (its directory must exist), so tests can change directory.
abspath() {
	echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}

# tools_from_args [TRACEKIT [GEN_CTF]]: set $tk and $gen to the executables under test, from
# the arguments meson passes or from the environment it sets; a missing one fails the test.
tools_from_args() {
	tk=$(abspath "${1:-${TRACEKIT:-}}")
	gen=$(abspath "${2:-${TRACEKIT_BUILD:-.}/tests/tools/gen-ctf}")
	for exe in "$tk" "$gen"; do
		if [ ! -x "$exe" ]; then
			echo "FAIL: not an executable: $exe"
			exit 1
		fi
	done
}
