#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Before and after a change, in the same run: the ratios of tracekit to its peers for the
# work the other scripts measure one build at a time, with two release builds side by side
# (BEFORE, a commit, and the working tree), every command run in turn once per round so that
# load moves all of them alike, and the user+system CPU time of each kept (best of the
# rounds; CPU time moves less than wall time on a shared VM).
#
#   CTF to text       tracekit print CTF          babeltrace2 CTF
#   CTF decode        tracekit info CTF           babeltrace2 -o dummy CTF
#   trace.dat to text tracekit print DAT          trace-cmd report DAT
#   trace.dat to CTF  tracekit convert DAT -o D   babeltrace2 CTF -o ctf -w D (same events)
#
# The inputs are generated: gen-ctf (LTTng-UST layout, --ctf-events events) and gen-dat
# (--dat-events per CPU over 2 CPUs, v7 zstd), kept in bench/out/traces. Prints a Markdown
# section for RESULTS.md on stdout; progress on stderr.
#
# Usage: bench/before-after.sh [--before REV] [--runs N] [--ctf-events N] [--dat-events N]
set -u

before=521e0f9
runs=5
ctf_events=3000000
dat_events=1500000
while [ $# -gt 0 ]; do
	case $1 in
	--before) before=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--ctf-events) ctf_events=$2; shift 2 ;;
	--dat-events) dat_events=$2; shift 2 ;;
	-h | --help) sed -n 's/^# Usage: //p' "$0"; exit 0 ;;
	*) sed -n 's/^# Usage: //p' "$0" >&2; exit 2 ;;
	esac
done

note() { echo "before-after.sh: $*" >&2; }
die() { note "$*"; exit 1; }

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/out
for t in babeltrace2 trace-cmd meson ninja git; do
	command -v $t >/dev/null 2>&1 || die "$t is needed"
done
[ -x /usr/bin/time ] || apt-get install -y time >&2 || die "/usr/bin/time is needed (package time)"

# ---- builds: BEFORE from a worktree of that commit, after from this tree -----------------
rev=$(git -C "$root" rev-parse --short "$before") || die "no commit $before"
src_before=$out/src-$rev
if [ ! -d "$src_before" ]; then
	git -C "$root" worktree add --detach "$src_before" "$rev" >&2 || die "worktree failed"
fi
for b in "before:$src_before" "after:$root"; do
	name=${b%%:*}
	src=${b#*:}
	dir=$out/build-$name
	[ "$name" = before ] && dir=$out/build-$rev
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$src" -Dbuildtype=release -Dtests=false >&2 || die "setup $name"
	fi
	ninja -C "$dir" >&2 || die "build $name"
done
tk_before=$out/build-$rev/tools/tracekit/tracekit
tk_after=$out/build-after/tools/tracekit/tracekit
gen_ctf=$out/build-after/tests/tools/gen-ctf
gen_dat=$out/build-after/tests/tools/gen-dat

# ---- inputs ------------------------------------------------------------------------------
mkdir -p "$out/traces" "$out/scratch"
ctf=$out/traces/ba-ctf-$ctf_events
dat=$out/traces/ba-$dat_events.dat
[ -d "$ctf" ] || "$gen_ctf" --layout lttng --streams 2 --packet-size 262144 \
	--events "$ctf_events" "$ctf" >&2 || die "gen-ctf failed"
[ -s "$dat" ] || "$gen_dat" -n "$dat_events" -c 2 --compression zstd "$dat" >&2 ||
	die "gen-dat failed"
datctf=$out/traces/ba-$dat_events.ctf
[ -d "$datctf" ] || "$tk_after" convert "$dat" -o "$datctf" >&2 || die "convert failed"

# ---- measurements --------------------------------------------------------------------------
# cpu NAME CMD...: run CMD (output to /dev/null), keep the best user+system time of NAME
cpu() {
	name=$1
	shift
	rm -rf "$out/scratch/o"
	/usr/bin/time -f '%U %S' -o "$out/time.txt" "$@" >/dev/null 2>"$out/err.txt" ||
		die "failed: $* ($(head -n 1 "$out/err.txt"))"
	t=$(awk '{ print $1 + $2 }' "$out/time.txt")
	prev=$(sed -n "s/^$name //p" "$out/best.txt")
	if [ -z "$prev" ] || awk -v a="$t" -v b="$prev" 'BEGIN { exit !(a < b) }'; then
		sed -i "/^$name /d" "$out/best.txt"
		echo "$name $t" >>"$out/best.txt"
	fi
}
: >"$out/best.txt"
i=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	note "round $i of $runs"
	cpu bt_text babeltrace2 "$ctf"
	cpu b_print "$tk_before" print "$ctf"
	cpu a_print "$tk_after" print "$ctf"
	cpu bt_dummy babeltrace2 -o dummy "$ctf"
	cpu b_info "$tk_before" info "$ctf"
	cpu a_info "$tk_after" info "$ctf"
	cpu tc_report trace-cmd report "$dat"
	cpu b_dprint "$tk_before" print "$dat"
	cpu a_dprint "$tk_after" print "$dat"
	cpu bt_conv babeltrace2 "$datctf" -o ctf -w "$out/scratch/o"
	cpu b_conv "$tk_before" convert "$dat" -o "$out/scratch/o"
	cpu a_conv "$tk_after" convert "$dat" -o "$out/scratch/o"
done
rm -rf "$out/scratch/o"

get() { sed -n "s/^$1 //p" "$out/best.txt"; }
ratio() { awk -v p="$(get "$1")" -v t="$(get "$2")" 'BEGIN { printf "%.1f", p / t }'; }
change() {
	awk -v b="$(ratio "$1" "$2")" -v a="$(ratio "$1" "$3")" \
		'BEGIN { printf "%+.1f%%", (a - b) / b * 100 }'
}
row() { # LABEL PEER BEFORE AFTER
	echo "| $1 | $(get "$2") | $(get "$3") | $(get "$4") | $(ratio "$2" "$3")x | $(ratio "$2" "$4")x | $(change "$2" "$3" "$4") |"
}

cat <<EOT
### Before and after ($rev and $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo '+changes')), $(date +%Y-%m-%d)

- Machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), nproc $(nproc), Linux $(uname -r); shared, compare ratios only.
- Release builds of $rev (before) and of the working tree (after); $(babeltrace2 --version | head -n 1); trace-cmd $(trace-cmd --version 2>/dev/null | sed -n 's/.*version \([0-9.]*\).*/\1/p' | head -n 1).
- Inputs: \`gen-ctf --layout lttng --streams 2 --packet-size 262144 --events $ctf_events\`;
  \`gen-dat -n $dat_events -c 2 --compression zstd\` and its CTF conversion (babeltrace2's
  input for the conversion row). User+system CPU time, best of $runs rounds, each round running
  every command in turn. Script: \`bench/before-after.sh --runs $runs\`.

| Work | Peer (s) | Before (s) | After (s) | Ratio before | Ratio after | Change |
|---|---:|---:|---:|---:|---:|---:|
EOT
row "CTF to text (babeltrace2)" bt_text b_print a_print
row "CTF decode (babeltrace2 -o dummy)" bt_dummy b_info a_info
row "trace.dat to text (trace-cmd report)" tc_report b_dprint a_dprint
row "trace.dat to CTF (babeltrace2 CTF to CTF)" bt_conv b_conv a_conv
