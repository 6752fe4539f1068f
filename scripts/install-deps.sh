#!/bin/sh
# install-deps.sh - install the Debian packages the harness needs.
#
# Usage: scripts/install-deps.sh
#
# Checks each package with dpkg-query and installs only the missing ones,
# with apt-get (as root). The i386 foreign architecture is added because
# the i386 guest's busybox comes from busybox-static:i386, and the -m32
# build of the kernel's seccomp selftest (make check-upstream) links the
# static libcap of libcap-dev:i386. shellcheck, pyflakes3, node and npm are for
# "make lint"; npm is installed only when no npm is on the PATH, as Node.js
# from elsewhere (NodeSource's package, say) brings its own.
set -eu
STEP=install-deps
. "$(dirname "$0")/lib.sh"

PACKAGES="linux-source-6.1 linux-source-6.12 make
	busybox-static bc bison flex libelf-dev libssl-dev cpio xz-utils rsync
	python3 ccache git groff-base libcap-dev libcap-dev:i386 shellcheck pyflakes3 pkgconf nodejs"
# What the targets and the test sets need, each named in its own file:
# cross compilers, C libraries and QEMU (the *_PACKAGE and *_PACKAGES
# variables of scripts/targets/*.conf and scripts/abis/*.conf).
for conf in "$TOP"/scripts/targets/*.conf "$TOP"/scripts/abis/*.conf; do
	[ -f "$conf" ] || continue
	# shellcheck source=/dev/null
	PACKAGES="$PACKAGES $(. "$conf" && set | sed -n "s/^[A-Z_]*_PACKAGES*='\{0,1\}\([^']*\)'\{0,1\}$/\1/p")"
done
# The foreign architectures whose packages are downloaded or installed:
# busybox-static:i386 and :arm64 for the guests, libcap-dev:i386.
BUSYBOX_DEBS=
for conf in "$TOP"/scripts/targets/*.conf; do
	# shellcheck source=/dev/null
	BUSYBOX_DEBS="$BUSYBOX_DEBS $(. "$conf" && echo "${BUSYBOX_DEB:-}")"
done
# Both are lists of package names: split on purpose.
# shellcheck disable=SC2086
FOREIGN_ARCHES=$(printf '%s\n' $PACKAGES $BUSYBOX_DEBS |
	sed -n 's/^[^:]*:\([a-z0-9]*\)$/\1/p' | sort -u)
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

new_arches=
for arch in $FOREIGN_ARCHES; do
	dpkg --print-foreign-architectures | grep -qx "$arch" ||
		new_arches="$new_arches $arch"
done

if [ -z "$missing" ] && [ -z "$new_arches" ]; then
	echo "  [$STEP] all packages present"
	exit 0
fi

[ "$(id -u)" -eq 0 ] ||
	die "missing packages:$missing; run as root or install them with apt-get"

export DEBIAN_FRONTEND=noninteractive
for arch in $new_arches; do
	run dpkg --add-architecture "$arch"
done
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
