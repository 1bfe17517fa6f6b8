#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The VM harness (tests/vm/README.md): tracekit record tested in other kernels than the
# host's, under qemu -- Debian 12's 6.1, bookworm-backports' 6.12, and a minimal 6.12 built
# with user_events, the function tracers, kprobes and uprobes (tests/vm/kernels.sh fetches
# and builds them once per machine, in a cache outside the clone).
#
# For each kernel: an initramfs with busybox, a statically linked tracekit, test-tracefs (with
# its shared libraries and loader), tests/tracefs-state.sh and the guest scripts is booted
# (software emulation: 2 vCPUs, 512 MiB; KVM first where /dev/kvm works) once per "fresh"
# case of tests/vm/cases; the guest runs the cases (tests/vm/guest.sh) and writes every file
# they made to a disk image as a tar archive. Here: sizes and SHA-256 of those files are
# checked, each guest-side failure is reported, and the .dat files are checked on this side --
# tracekit print against trace-cmd report (plain, -R, -t), the events expected, and the
# guest's own `trace` text against tracekit print (tests/vm/text-check.py).
#
# A qemu run is bounded in time; a guest that panics, oopses, warns or does not finish fails
# with the end of its console. Results stay in $TRACEKIT_BUILD/vm-results (or a temporary
# directory) until the next run.
#
# Usage: run.sh TRACEKIT-STATIC TEST-TRACEFS TRACEKIT [UST-EH-TP-STATIC]
#   UST-EH-TP-STATIC: tests/ust/ust-eh-tp linked statically, for the case ust-eh
#   TRACEKIT_VM_KERNELS="debian-6.1 ..."  a subset of the kernels (default: all three)
#   TRACEKIT_VM_CACHE=DIR                 the cache (default /var/cache/tracekit-vm)
#   TRACEKIT_VM_ACCEL=kvm|tcg             instead of KVM where /dev/kvm is usable, else TCG
#   TRACEKIT_VM_CASES="NAME ..."          only these cases of tests/vm/cases
# Exits 77 only when qemu is missing and cannot be installed.
set -u
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
# shellcheck source=../lib.sh
. "$src/tests/lib.sh"

skip() {
	echo "skip: $*" >&2
	exit 77
}
die() {
	echo "FAIL: $*"
	exit 1
}

[ $# -eq 3 ] || [ $# -eq 4 ] || die "usage: run.sh TRACEKIT-STATIC TEST-TRACEFS TRACEKIT [UST-EH-TP-STATIC]"
tk_static=$(abspath "$1")
test_tracefs=$(abspath "$2")
tk=$(abspath "$3")
ust_eh=
[ $# -eq 4 ] && ust_eh=$(abspath "$4")
for exe in "$tk_static" "$test_tracefs" "$tk" $ust_eh; do
	[ -x "$exe" ] || die "not an executable: $exe"
done
ldd "$tk_static" 2>&1 | grep -q 'not a dynamic executable' ||
	die "$tk_static is not statically linked"

if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
	sh "$src/scripts/deps.sh" qemu-system-x86 >&2 ||
		skip "qemu is missing and cannot be installed (apt-get install qemu-system-x86)"
	command -v qemu-system-x86_64 >/dev/null 2>&1 || skip "qemu-system-x86_64 not found"
fi
sh "$src/scripts/deps.sh" trace-cmd python3 >&2 || die "cannot install trace-cmd and python3"

if [ -n "${TRACEKIT_VM_CACHE:-}" ]; then
	cache=$TRACEKIT_VM_CACHE
elif [ "$(id -u)" -eq 0 ]; then
	cache=/var/cache/tracekit-vm
else
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/tracekit-vm
fi
kernels=${TRACEKIT_VM_KERNELS:-debian-6.1 debian-6.12 minimal-6.12}
only=
[ -n "${TRACEKIT_VM_CASES:-}" ] && only=" tk.cases=$(echo $TRACEKIT_VM_CASES | tr ' ' ',')"

if [ -n "${TRACEKIT_BUILD:-}" ] && [ -d "$TRACEKIT_BUILD" ]; then
	res=$TRACEKIT_BUILD/vm-results
	rm -rf "$res"
	mkdir -p "$res"
else
	res=$(mktemp -d "${TMPDIR:-/tmp}/tracekit-vm.XXXXXX")
fi

t_start=$(date +%s)
echo "vm: kernels and busybox (cache: $cache)"
sh "$here/kernels.sh" "$cache" "$here/minimal.config" >"$res/kernels" ||
	die "kernels.sh failed"
t_kernels=$(date +%s)
# path_of NAME [FIELD]: the kernel (or busybox) path kernels.sh printed, or its modules (3).
path_of() {
	awk -v n="$1" -v f="${2:-2}" '$1 == n { print $f }' "$res/kernels"
}
busybox=$(path_of busybox)
[ -x "$busybox" ] || chmod +x "$busybox"

# --- the initramfs -------------------------------------------------------------------------

ir=$res/initramfs
mkdir -p "$ir/bin" "$ir/vm" "$ir/proc" "$ir/sys" "$ir/dev" "$ir/tmp" "$ir/out"
cp "$busybox" "$ir/bin/busybox"
cp "$here/init.sh" "$ir/init"
cp "$tk_static" "$ir/vm/tracekit"
cp "$test_tracefs" "$ir/vm/test-tracefs"
cp "$here/guest.sh" "$here/cases" "$here/load.sh" "$src/tests/tracefs-state.sh" "$ir/vm/"
# the application tracer's test program, linked statically (case ust-eh)
if [ -n "$ust_eh" ]; then
	cp "$ust_eh" "$ir/vm/ust-eh-tp"
	cp "$here/ust-eh.sh" "$ir/vm/"
fi
chmod 755 "$ir/init" "$ir/bin/busybox"
# test-tracefs is linked dynamically (cmocka): its libraries and loader, at the same paths
libs=$(ldd "$test_tracefs" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
for lib in $libs; do
	mkdir -p "$ir$(dirname "$lib")"
	cp -L "$lib" "$ir$lib"
done
# cpio_of DIR OUT: DIR as a gzip'd cpio archive (busybox's cpio: no host package needed)
cpio_of() {
	(cd "$1" && find . | "$busybox" cpio -o -H newc 2>/dev/null) | gzip -1 >"$2" ||
		die "cannot make an initramfs of $1"
}
cpio_of "$ir" "$res/initramfs.cpio.gz"
rm -rf "$ir"

# initrd_of NAME: the initramfs, plus a second archive with the kernel's modules when it has
# them (the kernel unpacks archives put one after the other).
initrd_of() {
	mods=$(path_of "$1" 3)
	if [ -z "$mods" ] || [ "$mods" = - ]; then
		echo "$res/initramfs.cpio.gz"
		return
	fi
	rm -rf "$res/mods"
	mkdir -p "$res/mods/vm"
	cp -r "$mods" "$res/mods/vm/modules"
	cpio_of "$res/mods" "$res/mods.cpio.gz"
	cat "$res/initramfs.cpio.gz" "$res/mods.cpio.gz" >"$res/initrd-$1"
	rm -rf "$res/mods" "$res/mods.cpio.gz"
	echo "$res/initrd-$1"
}

# --- booting -------------------------------------------------------------------------------

accel=${TRACEKIT_VM_ACCEL:-}
if [ -z "$accel" ]; then
	accel=tcg
	[ -r /dev/kvm ] && [ -w /dev/kvm ] && accel=kvm
fi

# qemu_run KERNEL-NAME KERNEL-PATH BOOT DIR: one boot, console and data in DIR.
qemu_run() {
	if [ "$accel" = kvm ]; then
		a="-accel kvm -cpu host"
	else
		a="-accel tcg,thread=single -cpu max"
	fi
	limit=1500
	[ "$3" -gt 1 ] && limit=400
	rm -f "$4/disk.img"
	: >"$4/console.log"
	truncate -s 512M "$4/disk.img"
	# shellcheck disable=SC2086 # $a is several options
	timeout -k 10 $limit qemu-system-x86_64 $a -m 512 -smp 2 -display none -vga none \
		-monitor none -serial "file:$4/console.log" -no-reboot -nic none \
		-drive "file=$4/disk.img,format=raw,if=virtio" \
		-kernel "$2" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 quiet tk.boot=$3 tk.kernel=$1$only" \
		</dev/null >"$4/qemu.out" 2>&1
	qrc=$?
	[ $qrc -eq 124 ] && echo "did not finish within $limit s (killed)" >>"$4/problems"
}

# boot KERNEL-NAME KERNEL-PATH BOOT: one boot (with TCG again when KVM fails: on these machines
# it aborts at once or hits "emulation failure" later), the console checked, the files unpacked
# into $res/NAME/bootN/files; problems with the boot itself in $res/NAME/bootN/problems.
boot() {
	boot_once "$@"
	if [ "$accel" = kvm ] && [ -s "$bd/problems" ]; then
		echo "vm: KVM fails here: $(head -n 1 "$bd/problems")"
		echo "vm: qemu says: $(head -c 200 "$bd/qemu.out" | tr '\n' ' ')"
		echo "vm: TCG from now on"
		accel=tcg
		boot_once "$@"
	fi
}

boot_once() {
	bd=$res/$1/boot$3
	rm -rf "$bd"
	mkdir -p "$bd/files"
	: >"$bd/problems"
	qemu_run "$@" "$bd"
	tr -d '\r' <"$bd/console.log" >"$bd/console.txt"
	unpack "$bd"
	grep '^tkvm-error' "$bd/console.txt" >>"$bd/problems"
	# the console shows a panic (the guest stops there); the log the guest sent, the rest
	for log in "$bd/console.txt" "$bd/files/dmesg.txt"; do
		[ -f "$log" ] || continue
		if grep -q -E "$kernel_trouble" "$log"; then
			echo "the kernel reported a problem ($(basename "$log")):" >>"$bd/problems"
			grep -E -A 3 "$kernel_trouble" "$log" | head -n 12 | sed 's/^/    /' \
				>>"$bd/problems"
		fi
	done
	grep -q '^tkvm-init' "$bd/console.txt" ||
		echo "the guest's /init never ran" >>"$bd/problems"
	grep -q '^tkvm-done' "$bd/console.txt" ||
		echo "the guest did not finish its cases" >>"$bd/problems"
	if [ -s "$bd/problems" ]; then
		echo "  console (last lines):" >>"$bd/problems"
		tail -n 15 "$bd/console.txt" | sed 's/^/    | /' >>"$bd/problems"
	fi
}
kernel_trouble='Kernel panic|BUG:|Oops|WARNING:|Call Trace:'

# unpack DIR: the guest's tar archive on DIR/disk.img into DIR/files; the files it lists in
# MANIFEST must all be there, with their sizes and checksums.
unpack() {
	tar -xf "$1/disk.img" -C "$1/files" 2>"$1/tar.err" ||
		echo "cannot read the guest's results: $(head -n 1 "$1/tar.err")" >>"$1/problems"
	rm -f "$1/disk.img" "$1/tar.err"
	sent=$(sed -n 's/^tkvm-sent \([0-9]*\) files.*/\1/p' "$1/console.txt")
	m=$1/files/MANIFEST
	if [ -z "$sent" ] || [ ! -f "$m" ]; then
		echo "the guest's results did not arrive (no tkvm-sent or MANIFEST)" >>"$1/problems"
		return
	fi
	[ "$sent" -eq "$(wc -l <"$m")" ] ||
		echo "the guest sent $sent files, MANIFEST lists $(wc -l <"$m")" >>"$1/problems"
	while read -r u_size u_sum u_path; do
		u_f=$1/files/$u_path
		if [ ! -f "$u_f" ] || [ "$(wc -c <"$u_f")" -ne "$u_size" ] ||
			[ "$(sha256sum <"$u_f" | cut -d ' ' -f 1)" != "$u_sum" ]; then
			echo "$u_path: not as sent ($u_size bytes, SHA-256 $u_sum)" >>"$1/problems"
		fi
	done <"$m"
}

# --- checks on this side -------------------------------------------------------------------

# report CASE-DIR DAT: tracekit print = trace-cmd report, plain, -R and -t.
report() {
	for mode in "" -R -t; do
		what="$mode $(basename "$2")"
		# shellcheck disable=SC2086 # $mode is empty or one option
		if ! trace-cmd report $mode "$2" >"$1/tc.txt" 2>"$1/tc.err"; then
			problem "trace-cmd report$what fails: $(head -n 1 "$1/tc.err")"
			continue
		fi
		[ -s "$1/tc.err" ] &&
			problem "trace-cmd report$what warns: $(head -n 1 "$1/tc.err")"
		# shellcheck disable=SC2086
		if ! "$tk" print $mode "$2" >"$1/tk.txt" 2>"$1/tk.err"; then
			problem "tracekit print$what fails: $(head -n 1 "$1/tk.err")"
			continue
		fi
		if ! cmp -s "$1/tc.txt" "$1/tk.txt"; then
			n=$(diff "$1/tc.txt" "$1/tk.txt" | grep -c '^>')
			problem "tracekit print$what differs from trace-cmd report in $n lines" \
				"(<: trace-cmd, >: tracekit):"
			diff "$1/tc.txt" "$1/tk.txt" | grep '^[<>]' | head -n 6 | cut -c 1-200 |
				sed 's/^/    /' >>"$case_problems"
		fi
	done
	rm -f "$1/tc.txt" "$1/tc.err" "$1/tk.txt" "$1/tk.err"
}

problem() {
	printf '%s\n' "$*" >>"$case_problems"
}

# check_case KERNEL-NAME CASE-DIR NAME END CHECKS
check_case() {
	cd_=$2
	case_problems=$cd_/host-problems
	: >"$case_problems"
	if [ -f "$cd_/skipped" ]; then
		echo "  $3: skipped here ($(cat "$cd_/skipped"))"
		return
	fi
	[ -f "$cd_/rc" ] || problem "the guest did not finish this case"
	for c in $(echo "$5" | tr ',' ' '); do
		case $c in
		report)
			for f in "$cd_"/*.dat; do
				[ -f "$f" ] || {
					problem "no .dat file"
					break
				}
				report "$cd_" "$f"
			done
			;;
		events=*)
			if [ -f "$cd_/$3.dat" ] &&
				"$tk" print "$cd_/$3.dat" >"$cd_/print.txt" 2>/dev/null; then
				for e in $(echo "${c#events=}" | tr '+' ' '); do
					grep -q " $e:" "$cd_/print.txt" ||
						problem "no $e event in $3.dat"
				done
			else
				problem "events: tracekit print $3.dat fails"
			fi
			rm -f "$cd_/print.txt"
			;;
		ustdecode)
			# the EventHeader records user_events took, as tests/ust/ust-eh-tp.sh wants
			# them from an interceptor file: the fields, without perf-decode's "meta"
			if [ -f "$cd_/$3.dat" ] &&
				"$tk" print --style perf-decode "$cd_/$3.dat" >"$cd_/decode.txt" \
					2>"$cd_/decode.err"; then
				# twice: the program and its forked child
				sed -n 's/^  \({ "n": "tktest:.*\), "meta": {.*$/\1/p' "$cd_/decode.txt" |
					sort >"$cd_/decode.got"
				sed -n 's/^  \({ "n": "tktest:.*\), "meta": {.*$/\1/p' \
					"$src/tests/ust/ust-eh-tp.json-lines" >"$cd_/decode.one"
				sort "$cd_/decode.one" "$cd_/decode.one" >"$cd_/decode.want"
				[ "$(wc -l <"$cd_/decode.want")" -eq 16 ] ||
					problem "ustdecode: tests/ust/ust-eh-tp.json-lines has not 8 events"
				[ "$(sed -n '/"n": "tktest:/s/.*"pid": \([0-9]*\),.*/\1/p' "$cd_/decode.txt" |
					sort -u | wc -l)" -eq 2 ] || problem "ustdecode: not two processes' events"
				cmp -s "$cd_/decode.want" "$cd_/decode.got" ||
					problem "ustdecode: $(diff "$cd_/decode.want" "$cd_/decode.got" | head -5)"
			else
				problem "ustdecode: tracekit print --style perf-decode $3.dat fails: $(head -c 200 "$cd_/decode.err")"
			fi
			;;
		tcread=*)
			# trace-cmd report reads the file (its text of EventHeader events is only
			# their header fields: no equality with tracekit's, which decodes them)
			n=${c#tcread=}
			if [ -f "$cd_/$3.dat" ] &&
				trace-cmd report "$cd_/$3.dat" >"$cd_/tc.txt" 2>"$cd_/tc.err"; then
				[ -s "$cd_/tc.err" ] &&
					problem "tcread: trace-cmd report warns: $(head -n 1 "$cd_/tc.err")"
				[ "$(grep -c ' tktest_L[0-9]*K[0-9a-f]*: ' "$cd_/tc.txt")" -eq "$n" ] ||
					problem "tcread: trace-cmd report shows $(grep -c ' tktest_' "$cd_/tc.txt") tktest events, not $n"
			else
				problem "tcread: trace-cmd report $3.dat fails: $(head -n 1 "$cd_/tc.err")"
			fi
			rm -f "$cd_/tc.txt" "$cd_/tc.err"
			;;
		text=*)
			if [ -f "$cd_/mirror.txt" ] &&
				"$tk" print -t "$cd_/$3.dat" >"$cd_/print-t.txt" 2>/dev/null; then
				python3 "$here/text-check.py" "$cd_/mirror.txt" "$cd_/print-t.txt" \
					"${c#text=}" >"$cd_/text-check.txt"
				grep '^FAIL' "$cd_/text-check.txt" >/dev/null &&
					problem "$(sed 's/^FAIL //' "$cd_/text-check.txt")"
			else
				problem "text: no mirror.txt or tracekit print -t $3.dat fails"
			fi
			rm -f "$cd_/print-t.txt"
			;;
		esac
	done
	t=$(cat "$cd_/seconds" 2>/dev/null || echo "?")
	if [ -s "$cd_/fail" ] || [ -s "$case_problems" ]; then
		failures=$((failures + 1))
		echo "  $3: FAIL ($t s in the guest)"
		cat "$cd_/fail" "$case_problems" 2>/dev/null | sed 's/^/    /'
		if [ -s "$cd_/err" ]; then
			echo "    stderr of: $(cat "$cd_/cmd")"
			head -n 5 "$cd_/err" | sed 's/^/      /'
		fi
	else
		extra=
		[ -f "$cd_/text-check.txt" ] && extra="; $(cat "$cd_/text-check.txt")"
		echo "  $3: ok ($t s in the guest$extra)"
	fi
}

grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$here/cases" >"$res/cases"
failures=0
ncases=0
summary=
for kname in $kernels; do
	kpath=$(path_of "$kname")
	[ -n "$kpath" ] || die "unknown kernel $kname (debian-6.1, debian-6.12, minimal-6.12)"
	initrd=$(initrd_of "$kname")
	kt0=$(date +%s)
	kfail=$failures
	kcases=$ncases
	bootno=1
	nboots=1
	while [ $bootno -le "$nboots" ]; do
		bt0=$(date +%s)
		boot "$kname" "$kpath" $bootno
		bdir=$res/$kname/boot$bootno
		info=$bdir/files/boot.txt
		if [ $bootno -eq 1 ]; then
			b=$(awk '$1 == "boots" { print $2 }' "$info" 2>/dev/null)
			[ -n "$b" ] && nboots=$b
			rel=$(awk '$1 == "release" { print $2 }' "$info" 2>/dev/null)
			echo "vm: $kname ($rel, $accel, 2 vCPUs): $nboots boots"
		fi
		echo "  boot $bootno: $(($(date +%s) - bt0)) s"
		if [ -s "$bdir/problems" ]; then
			failures=$((failures + 1))
			echo "  boot $bootno: FAIL"
			sed 's/^/    /' "$bdir/problems"
		fi
		for cname in $(awk '$1 == "cases" { $1 = ""; print }' "$info" 2>/dev/null); do
			read -r c_name c_end c_checks _ <<EOF
$(awk -v n="$cname" '$1 == n' "$res/cases")
EOF
			ncases=$((ncases + 1))
			check_case "$kname" "$bdir/files/$cname" "$c_name" "$c_end" "$c_checks"
		done
		bootno=$((bootno + 1))
	done
	summary="$summary
vm: $kname: $((ncases - kcases)) cases, $((failures - kfail)) failures, $(($(date +%s) - kt0)) s"
done
echo "vm: kernels and busybox ready in $((t_kernels - t_start)) s$summary"
echo "vm: $ncases cases run, $failures failures, $(($(date +%s) - t_start)) s in all;" \
	"results in $res"
[ $failures -eq 0 ]
