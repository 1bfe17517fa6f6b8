#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Install the Debian packages given as arguments when they are missing (apt-get, as root).
# Used by demo.sh and check.sh so both work on a fresh Debian 12 machine.
set -eu
missing=""
for pkg in "$@"; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $pkg"
	fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "missing Debian packages:$missing" >&2
	echo "install them (apt-get install$missing) or run this script as root" >&2
	exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
