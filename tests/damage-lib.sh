# SPDX-License-Identifier: MIT
#
# Sourced by the damaged-input tests (cli/damage.sh for CTF, cli/damage-dat.sh for trace.dat,
# cli/damage-corpus.sh for the shared corpus) after $tk is set: a scratch directory and
# file-size limit, the 256 byte values for bit flips, the checks every damaged run must pass
# (exit status 0, or 1 with exactly one "tracekit: Cannot ..." line; never a signal, hang or
# sanitizer report), and awk readers of integers and LTTng index files.

if ! command -v timeout >/dev/null 2>&1; then
	echo "skip: timeout(1) not found" >&2
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# no file written here is larger than a few MiB (DAMAGE_FSIZE blocks of 512 bytes when set),
# even a runaway tracekit's output
ulimit -f "${DAMAGE_FSIZE:-8192}" 2>/dev/null
failures=0
runs=0

# $tmp/bytes holds the 256 byte values, so that one dd can write any of them anywhere.
i=0
while [ $i -lt 256 ]; do
	# shellcheck disable=SC2059 # the format is the octal escape of byte $i
	printf "\\$(printf %o $i)"
	i=$((i + 1))
done >"$tmp/bytes"

# fail KIND MESSAGE: count a failure; show the first five of each kind, with stderr.
fail() {
	eval "n=\${nfail_$1:-0}"
	n=$((n + 1))
	eval "nfail_$1=$n"
	failures=$((failures + 1))
	if [ "$n" -le 5 ]; then
		echo "FAIL: $1: $2"
		if [ -s "$tmp/err" ]; then
			head -n 3 "$tmp/err" | cut -c 1-300 | sed 's/^/    stderr: /'
		fi
	elif [ "$n" -eq 6 ]; then
		echo "FAIL: $1: further failures of this kind are counted, not shown"
	fi
}

# run PATH [COMMAND]: tracekit COMMAND (default print) on PATH; sets rc, fills $tmp/out and
# $tmp/err.
run() {
	runs=$((runs + 1))
	timeout 10 "$tk" "${2:-print}" "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# status_ok KIND CASE: exit status 0 without an error on stderr, or 1 with exactly one line,
# "tracekit: Cannot ..."; anything else is a crash, a hang or a sanitizer report. Reports of
# lost events and packets ("WARNING: ...", babeltrace2's words) and warnings ("tracekit:
# warning: ...": damage that only costs symbol names is read past) may come besides.
status_ok() {
	# read stderr in the shell, not with a command per run: some tests make thousands
	others=0
	first=
	bad=
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		"WARNING: "* | "tracekit: warning: Cannot "*) continue ;;
		esac
		others=$((others + 1))
		[ "$others" -eq 1 ] && first=$line
		case $line in
		tracekit:* | *Sanitizer* | *"runtime error"*) bad=1 ;;
		esac
	done <"$tmp/err"
	case $rc in
	0)
		if [ -n "$bad" ]; then
			fail "$1" "$2: exit status 0 with an error on stderr"
			return 1
		fi
		;;
	1)
		if [ "$others" -ne 1 ]; then
			fail "$1" "$2: exit status 1 without exactly one line on stderr"
			return 1
		fi
		case $first in
		"tracekit: Cannot "*) ;;
		*)
			fail "$1" "$2: exit status 1 with a line not 'tracekit: Cannot ...' on stderr"
			return 1
			;;
		esac
		;;
	124)
		fail "$1" "$2: hangs (killed after 10 s)"
		return 1
		;;
	86)
		fail "$1" "$2: AddressSanitizer or LeakSanitizer report"
		return 1
		;;
	87)
		fail "$1" "$2: UndefinedBehaviorSanitizer report"
		return 1
		;;
	*)
		if [ "$rc" -gt 128 ]; then
			fail "$1" "$2: killed by signal $((rc - 128))"
		else
			fail "$1" "$2: exit status $rc"
		fi
		return 1
		;;
	esac
	return 0
}

# expect KIND CASE RC: status_ok, and the exit status is RC.
expect() {
	status_ok "$1" "$2" || return 1
	if [ "$rc" -ne "$3" ]; then
		fail "$1" "$2: exit status $rc, want $3"
		return 1
	fi
	return 0
}

# whole_lines KIND CASE: stdout is empty or ends with a newline.
whole_lines() {
	if [ -s "$tmp/out" ] && [ -n "$(tail -c 1 "$tmp/out")" ]; then
		fail "$1" "$2: stdout ends inside a line"
		return 1
	fi
	return 0
}

# flip FILE OFFSET VALUE: write the byte VALUE at OFFSET of FILE.
flip() {
	dd if="$tmp/bytes" of="$1" bs=1 skip="$3" seek="$2" count=1 conv=notrunc 2>/dev/null
}

# Shared by awk programs on bytes: the bytes of `od -An -v -tu1` in b[0..n-1], and num(),
# an unsigned integer of len bytes at o (be=1: big-endian).
NUM_AWK='
{ for (i = 1; i <= NF; i++) b[n++] = $i }
function num(o, len,   v, i) {
	v = 0
	for (i = 0; i < len; i++)
		v = v * 256 + (be ? b[o + i] : b[o + len - 1 - i])
	return v
}
'

# The packets an LTTng index file lists (input: od -An -v -tu1 of it), "offset size
# content-size" in bytes, one a line. Big-endian: magic 0xC1F1DCC1, major, minor, entry
# size; entries begin with offset, packet size and content size (in bits). Exits 1 when the
# file is no index.
INDEX_AWK="$NUM_AWK"'
END {
	if (n < 16 || num(0, 4) != 3253853377)
		exit 1
	es = num(12, 4)
	for (o = 16; o + es <= n; o += es)
		print num(o, 8), num(o + 8, 8) / 8, int((num(o + 16, 8) + 7) / 8)
}'
