#!/bin/sh
# install-deps.sh - install the Debian packages the harness needs.
#
# Usage: scripts/install-deps.sh
#
# Checks each package with dpkg-query and installs only the missing ones,
# with apt-get (as root). The i386 foreign architecture is added because
# the i386 guest's busybox comes from busybox-static:i386, and the -m32
# build of the kernel's seccomp selftest (make check-upstream) links the
# static libcap of libcap-dev:i386. shellcheck, node and npm are for
# "make lint"; npm is installed only when no npm is on the PATH, as Node.js
# from elsewhere (NodeSource's package, say) brings its own.
set -eu
STEP=install-deps
. "$(dirname "$0")/lib.sh"

PACKAGES="linux-source-6.1 linux-source-6.12 gcc-multilib libc6-dev-x32 make qemu-system-x86
	busybox-static bc bison flex libelf-dev libssl-dev cpio xz-utils rsync
	python3 ccache git groff-base libcap-dev libcap-dev:i386 shellcheck nodejs"
# <command>=<package>: the package, if the command is missing.
COMMANDS="npm=npm"

missing=
for pkg in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null |
	     grep -q '^install ok installed$'; then
		missing="$missing $pkg"
	fi
done

for spec in $COMMANDS; do
	command -v "${spec%%=*}" >/dev/null 2>&1 || missing="$missing ${spec#*=}"
done

need_i386=
dpkg --print-foreign-architectures | grep -qx i386 || need_i386=yes

if [ -z "$missing" ] && [ -z "$need_i386" ]; then
	echo "  [$STEP] all packages present"
	exit 0
fi

[ "$(id -u)" -eq 0 ] ||
	die "missing packages:$missing; run as root or install them with apt-get"

export DEBIAN_FRONTEND=noninteractive
[ -z "$need_i386" ] || run dpkg --add-architecture i386
# A mirror in the middle of a sync serves an index of the wrong size for a
# minute or two: try again, then go on with what was fetched, as apt-get
# itself does; the install below says what it could not find.
tries=1
until run apt-get update -q; do
	[ "$tries" -lt 3 ] || {
		warn "apt-get update failed $tries times; installing from the package lists it has"
		break
	}
	tries=$((tries + 1))
	sleep 20
done
# shellcheck disable=SC2086
[ -z "$missing" ] ||
	run apt-get install -y -q --no-install-recommends $missing ||
	die "apt-get install failed for:$missing"
