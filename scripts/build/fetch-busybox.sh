#!/bin/sh
# fetch-busybox.sh - extract a busybox-static .deb without installing it.
#
# Usage: scripts/build/fetch-busybox.sh <package[:arch]> <out-dir>
#
# Downloads the package with "apt-get download" and unpacks it with
# "dpkg-deb -x" into <out-dir>, leaving <out-dir>/bin/busybox. The host's
# own packages are not touched.
set -eu
STEP=fetch-busybox
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: $0 <package[:arch]> <out-dir>"
pkg=$1
out=$(absdir "$2")

cd "$out"
rm -f ./*.deb
if ! run apt-get download -q "$pkg" 2>/dev/null; then
	# A new foreign architecture needs fresh package lists once.
	run apt-get update -q >/dev/null ||
		die "apt-get update failed"
	run apt-get download -q "$pkg" ||
		die "cannot download $pkg; is its architecture added (dpkg --add-architecture)?"
fi
run dpkg-deb -x ./*.deb "$out/root"
[ -x "$out/root/bin/busybox" ] || die "$pkg has no /bin/busybox"
mkdir -p "$out/bin"
cp "$out/root/bin/busybox" "$out/bin/busybox"
echo "  [$STEP] $out/bin/busybox"
