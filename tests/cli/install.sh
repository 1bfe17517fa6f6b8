#!/bin/sh
# SPDX-License-Identifier: MIT
#
# What `meson install` puts in place for users: the tool, the man pages, the format notes the
# man pages point to (every share/doc/tracekit path a page names is installed), and the bash
# completion, which completes commands, a command's options (from its --help) and the values
# of --to and --style. Installs into a temporary DESTDIR; needs bash for the completion part.
# Usage: install.sh BUILD-DIR PREFIX DATADIR MANDIR
set -u
build=$1
prefix=$2
datadir=$3
mandir=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

case $datadir in /*) ;; *) datadir=$prefix/$datadir ;; esac
case $mandir in /*) ;; *) mandir=$prefix/$mandir ;; esac
if ! meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/root" >"$tmp/log" 2>&1; then
	echo "FAIL: meson install"
	cat "$tmp/log"
	exit 1
fi
root=$tmp/root
for f in "$prefix/bin/tracekit" "$mandir/man1/tracekit.1" "$mandir/man1/tracekit-convert.1" \
	"$mandir/man3/tracekit-tracepoint.3" "$datadir/doc/tracekit/ust.md" \
	"$datadir/doc/tracekit/format-ctf.md" "$datadir/doc/tracekit/format-tracedat.md" \
	"$datadir/doc/tracekit/record.md" "$datadir/bash-completion/completions/tracekit"; do
	if [ ! -s "$root$f" ]; then
		echo "FAIL: not installed: $f"
		fail=1
	fi
done

# every note a man page points to is installed (the pages say /usr; map to this prefix)
for page in "$root$mandir"/man1/tracekit*.1 "$root$mandir"/man3/tracekit*.3; do
	sed -n 's|^\.I /usr/share/doc/tracekit/\(.*\)$|\1|p' "$page" | tr -d '\\,' >"$tmp/named"
	if [ ! -s "$tmp/named" ]; then
		echo "FAIL: $(basename "$page") points to no format note"
		fail=1
	fi
	while read -r note; do
		if [ ! -s "$root$datadir/doc/tracekit/$note" ]; then
			echo "FAIL: $(basename "$page") names $note, which is not installed"
			fail=1
		fi
	done <"$tmp/named"
done

if ! command -v bash >/dev/null; then
	echo "SKIP: no bash for the completion checks"
	[ $fail -eq 0 ] && exit 77
	exit $fail
fi
# complete WORDS...: what the completion offers for the last word
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tracekit; echo "${COMPREPLY[*]}"' \
		sh "$root$datadir/bash-completion/completions/tracekit" "$@" 2>&1
}
check() {
	want=$1
	shift
	got=$(complete_words "$@")
	if [ "$got" != "$want" ]; then
		echo "FAIL: completion of '$*': got '$got', want '$want'"
		fail=1
	fi
}
tk=$root$prefix/bin/tracekit
export LD_LIBRARY_PATH="$root$prefix/lib:$root$prefix/lib/$(uname -m)-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
check "convert" "$tk" con
check "print" "$tk" help pr
check "--clock-cycles --clock-date --clock-gmt --clock-seconds" "$tk" print --clock
check "--file-version=" "$tk" convert --file-v
check "dat ctf json chrome csv tsv babeltrace trace-cmd" "$tk" convert x --to ""
check "json" "$tk" print --style j
exit $fail
