#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The VM harness's downloads and builds, kept in a cache outside the clone so that a machine
# fetches and builds each of them once (tests/vm/README.md):
#
#   debian-6.1     vmlinuz of Debian 12's current linux-image-6.1.*-amd64 (what the
#                  linux-image-amd64 metapackage depends on), from the system's apt lists,
#                  and the modules of the virtio disk the guest writes its results to
#                  (virtio_pci, virtio_blk and what they depend on, uncompressed, with the
#                  order to load them in)
#   debian-6.12    the same of bookworm-backports' linux-image-6.12.*-amd64, through apt
#                  lists of its own in the cache (the system's sources and lists are not
#                  touched)
#   minimal-6.12   bzImage built from backports' linux-source-6.12: `make tinyconfig`, the
#                  lines of tests/vm/minimal.config, `make olddefconfig`, `make bzImage`
#   busybox        Debian 12's busybox-static binary (downloaded and unpacked, not installed,
#                  so the system's own busybox, if any, stays)
#
# Each lands in a directory named after the package version (and, for the minimal kernel, a
# hash of minimal.config), made complete in a temporary directory and renamed into place;
# older versions of the same item are removed then. A lock serialises concurrent runs.
# Packages are downloaded with `apt-get download` and unpacked with dpkg-deb; when a download
# fails (lists older than the mirror), the lists are updated and it is tried once more.
#
# Usage: kernels.sh CACHE-DIR MINIMAL-CONFIG
# Prints "NAME KERNEL MODULES-DIR" for each kernel ("-": none needed), then "busybox PATH";
# progress goes to stderr. The packages needed are installed when missing (scripts/deps.sh).
set -eu
LC_ALL=C
export LC_ALL
cache=$1
fragment=$2
src=$(cd "$(dirname "$0")/../.." && pwd)

say() {
	echo "vm: $*" >&2
}
die() {
	echo "vm: FAIL: $*" >&2
	exit 1
}

mkdir -p "$cache"
exec 9>"$cache/lock"
if ! flock -n 9; then
	say "waiting for another run's downloads and builds ($cache/lock)"
	flock 9
fi

# --- apt: the system's lists for bookworm, lists of our own for bookworm-backports ---------

apt_root="-o APT::Sandbox::User=root" # downloads into our directories, as root
bpo=$cache/apt
bpo_opts="-o Dir::Etc::sourcelist=$bpo/sources.list -o Dir::Etc::sourceparts=- \
	-o Dir::State::Lists=$bpo/lists -o Dir::Cache=$bpo/cache \
	-o Dir::Cache::pkgcache=$bpo/cache/pkgcache.bin -o Dir::Cache::srcpkgcache="
# apt-cache on the system's lists, with a package cache of our own: images that disable
# apt's (docker-clean) would rebuild it from the lists for each query, seconds each
sys_opts="-o Dir::Cache::pkgcache=$bpo/sys-pkgcache.bin -o Dir::Cache::srcpkgcache="

# The mirror the system gets bookworm from ("http://deb.debian.org/debian").
mirror() {
	apt_cache sys policy | awk '$3 ~ /^bookworm\/main$/ && $4 == "amd64" { print $2; exit }'
}

bpo_update() {
	mkdir -p "$bpo/lists/partial" "$bpo/cache/archives/partial"
	m=$(mirror)
	[ -n "$m" ] || m=http://deb.debian.org/debian
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	echo "deb [signed-by=$key] $m bookworm-backports main" >"$bpo/sources.list"
	# shellcheck disable=SC2086
	apt-get $apt_root $bpo_opts -qq update >&2 ||
		die "cannot update the bookworm-backports lists"
}

# apt_cache WHICH ARGS...: apt-cache on the system's lists (sys) or the backports lists (bpo).
apt_cache() {
	w=$1
	shift
	mkdir -p "$bpo/cache"
	if [ "$w" = bpo ]; then
		# shellcheck disable=SC2086
		apt-cache $bpo_opts "$@"
	else
		# shellcheck disable=SC2086
		apt-cache $sys_opts "$@"
	fi
}

# candidate WHICH PACKAGE: the version apt would download.
candidate() {
	apt_cache "$1" policy "$2" 2>/dev/null |
		awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }'
}

# depends_on WHICH METAPACKAGE PATTERN: the metapackage's dependency matching PATTERN.
depends_on() {
	apt_cache "$1" depends "$2" 2>/dev/null |
		awk -v pat="$3" '$1 == "Depends:" && $2 ~ pat { print $2; exit }'
}

# download WHICH PACKAGE VERSION DIR: the .deb into DIR; the lists are updated once on failure.
download() {
	(
		cd "$4"
		# shellcheck disable=SC2086
		if [ "$1" = bpo ]; then
			apt-get $apt_root $bpo_opts -qq download "$2=$3" >&2 && exit 0
			bpo_update
			apt-get $apt_root $bpo_opts -qq download "$2=$3" >&2
		else
			apt-get $apt_root -qq download "$2=$3" >&2 && exit 0
			apt-get -qq update >&2
			apt-get $apt_root -qq download "$2=$3" >&2
		fi
	) || die "cannot download $2 $3"
}

# Scratch space inside the cache (the same file system, so publish() can rename), removed on
# exit; what a killed run left is removed here, under the lock, when nobody can be using it.
rm -rf "$cache"/tmp.*
scratch=$(mktemp -d "$cache/tmp.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# fresh_tmp: a new empty directory in the scratch space.
fresh_tmp() {
	mktemp -d "$scratch/XXXXXX"
}

# publish TMP DIR: TMP becomes DIR; other versions of the same item (the same name up to the
# first "_") are removed.
publish() {
	rm -rf "$2"
	mv "$1" "$2"
	base=$(basename "$2")
	for old in "$(dirname "$2")/${base%%_*}"_*; do
		[ "$old" = "$2" ] || rm -rf "$old"
	done
}

# --- the items -----------------------------------------------------------------------------

# pick_modules TREE OUT NAME...: the modules NAME... of the unpacked package TREE and those
# they depend on, uncompressed, into OUT, with OUT/order listing them
# dependencies first. A dependency without a file must be built in (modules.builtin).
pick_modules() {
	tree=$1
	pm_out=$2
	shift 2
	for m in "$@"; do
		grep -qx "$m" "$pm_out/order" 2>/dev/null && continue
		f=$(find "$tree"/lib/modules/*/kernel -name "$m.ko" -o -name "$m.ko.xz" | head -n 1)
		if [ -z "$f" ]; then
			grep -q "/$m\.ko\$" "$tree"/lib/modules/*/modules.builtin ||
				die "module $m is neither in the package nor built in"
			continue
		fi
		case $f in
		*.xz) xz -dc "$f" >"$pm_out/$m.ko" ;;
		*) cp "$f" "$pm_out/$m.ko" ;;
		esac
		# the "depends=" string of the module's .modinfo section
		deps=$(tr '\0' '\n' <"$pm_out/$m.ko" | sed -n 's/^depends=//p' | head -n 1 |
			tr ',' ' ')
		# in a subshell, which keeps this call's variables
		# shellcheck disable=SC2086 # a list of names
		[ -z "$deps" ] || (pick_modules "$tree" "$pm_out" $deps) || exit 1
		echo "$m" >>"$pm_out/order"
	done
}

# debian_kernel WHICH PACKAGE NAME: vmlinuz and the virtio disk's modules of PACKAGE's
# candidate, kept as $cache/NAME_PACKAGE_VERSION/{vmlinuz,modules/}; prints both paths.
debian_kernel() {
	ver=$(candidate "$1" "$2")
	[ -n "$ver" ] || die "no candidate version for $2"
	dir=$cache/$3_$2_$ver
	if [ ! -s "$dir/vmlinuz" ] || [ ! -f "$dir/modules/order" ]; then
		say "downloading $2 $ver"
		t=$(fresh_tmp)
		download "$1" "$2" "$ver" "$t"
		mkdir -p "$t/x" "$t/item/modules"
		dpkg-deb --fsys-tarfile "$t"/*.deb |
			tar -x -C "$t/x" --wildcards './boot/vmlinuz-*' './lib/modules/*' ||
			die "cannot unpack $2 $ver"
		mv "$t"/x/boot/vmlinuz-* "$t/item/vmlinuz"
		: >"$t/item/modules/order"
		pick_modules "$t/x" "$t/item/modules" virtio_pci virtio_blk
		rm -rf "$t/x" "$t"/*.deb
		publish "$t/item" "$dir"
	fi
	echo "$dir/vmlinuz $dir/modules"
}

# deb_file WHICH PACKAGE PATH-IN-DEB NAME: the file PATH-IN-DEB of PACKAGE's candidate, kept
# as $cache/NAME_VERSION/(basename).
deb_file() {
	ver=$(candidate "$1" "$2")
	if [ -z "$ver" ] && [ "$1" = sys ]; then
		apt-get -qq update >&2
		ver=$(candidate "$1" "$2")
	fi
	[ -n "$ver" ] || die "no candidate version for $2"
	dir=$cache/$4_$2_$ver
	out=$dir/$(basename "$3")
	if [ ! -s "$out" ]; then
		say "downloading $2 $ver"
		t=$(fresh_tmp)
		download "$1" "$2" "$ver" "$t"
		mkdir "$t/x" "$t/item"
		dpkg-deb --fsys-tarfile "$t"/*.deb | tar -x -C "$t/x" "./$3" ||
			die "no $3 in $2 $ver"
		mv "$t/x/$3" "$t/item/"
		publish "$t/item" "$dir"
	fi
	echo "$out"
}

# minimal_kernel: the bzImage of the minimal kernel, built when the source version or the
# fragment changed.
minimal_kernel() {
	ver=$(candidate bpo linux-source-6.12)
	[ -n "$ver" ] || die "no linux-source-6.12 in bookworm-backports"
	hash=$(grep -v '^#' "$fragment" | sha256sum | cut -c 1-12)
	dir=$cache/minimal-6.12_${ver}_$hash
	if [ -s "$dir/bzImage" ]; then
		echo "$dir/bzImage"
		return
	fi
	sh "$src/scripts/deps.sh" gcc make flex bison bc libelf-dev xz-utils >&2
	t=$(fresh_tmp)
	start=$(date +%s)
	say "downloading linux-source-6.12 $ver"
	download bpo linux-source-6.12 "$ver" "$t"
	dpkg-deb --fsys-tarfile "$t"/linux-source-6.12_*.deb |
		tar -x -O ./usr/src/linux-source-6.12.tar.xz | xz -d | tar -x -C "$t" ||
		die "cannot unpack linux-source-6.12 $ver"
	rm -f "$t"/*.deb
	k=$t/linux-source-6.12
	[ -f "$k/Makefile" ] || die "no kernel tree in linux-source-6.12 $ver"
	say "configuring (tinyconfig + $(basename "$fragment"))"
	make -C "$k" -s tinyconfig >"$t/build.log" 2>&1 || die "make tinyconfig failed"
	grep '^CONFIG_' "$fragment" >>"$k/.config"
	make -C "$k" -s olddefconfig >>"$t/build.log" 2>&1 || die "make olddefconfig failed"
	# every line of the fragment must have survived (a dependency left unmet drops it)
	grep '^CONFIG_' "$fragment" >"$t/want"
	while read -r line; do
		grep -qx "$line" "$k/.config" ||
			die "$line of $(basename "$fragment") is not in the kernel's .config"
	done <"$t/want"
	say "building the minimal kernel (make -j$(nproc) bzImage, about 5 minutes on 2 cores)"
	if ! make -C "$k" -j"$(nproc)" bzImage >>"$t/build.log" 2>&1; then
		tail -n 30 "$t/build.log" >&2
		die "the minimal kernel does not build"
	fi
	mkdir "$t/item"
	cp "$k/arch/x86/boot/bzImage" "$k/.config" "$t/item/"
	rm -rf "$k"
	publish "$t/item" "$dir"
	say "minimal kernel built in $(($(date +%s) - start)) s"
	echo "$dir/bzImage"
}

# the backports lists: made on the first run, then updated only when a download fails
[ -d "$bpo/lists" ] && [ -s "$bpo/sources.list" ] || bpo_update

img61=$(depends_on sys linux-image-amd64 '^linux-image-6[.]1[.]')
if [ -z "$img61" ]; then
	apt-get -qq update >&2
	img61=$(depends_on sys linux-image-amd64 '^linux-image-6[.]1[.]')
fi
[ -n "$img61" ] || die "linux-image-amd64 does not depend on a linux-image-6.1 package"
img612=$(depends_on bpo linux-image-amd64 '^linux-image-6[.]12[.]')
[ -n "$img612" ] || die "no linux-image-6.12 in bookworm-backports"

sh "$src/scripts/deps.sh" xz-utils >&2 # 6.12's modules are xz'd
k61=$(debian_kernel sys "$img61" debian-6.1)
k612=$(debian_kernel bpo "$img612" debian-6.12)
kmin=$(minimal_kernel)
bb=$(deb_file sys busybox-static bin/busybox busybox)
echo "debian-6.1 $k61"
echo "debian-6.12 $k612"
echo "minimal-6.12 $kmin -"
echo "busybox $bb"
