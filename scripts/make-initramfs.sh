#!/bin/sh
# make-initramfs.sh - pack a target's initramfs.
#
# Usage: scripts/make-initramfs.sh <target> <busybox> <debug-exit> <out.cpio.gz> <tests-dir>...
#
# Starts from the target's skeleton in rootfs-<target>/ (its /init), adds
# busybox, the guest harness (scripts/guest/harness.sh and debug-exit) and
# each <tests-dir> as /tests/<basename>, then writes a gzip'd newc cpio.
# $INITRAMFS_INIT, when set, is the /init instead of the skeleton's (the
# upstream boots of make check-upstream).
set -eu
STEP=make-initramfs
. "$(dirname "$0")/lib.sh"

[ $# -ge 5 ] || die "usage: $0 <target> <busybox> <debug-exit> <out.cpio.gz> <tests-dir>..."
load_target "$1"
busybox=$2
debug_exit=$3
out=$4
shift 4

skeleton=$TOP/rootfs-$TARGET
init=${INITRAMFS_INIT:-$skeleton/init}
[ -x "$init" ] || die "$init is missing or not executable"
[ -x "$busybox" ] || die "busybox not found at $busybox"
[ -x "$debug_exit" ] || die "debug-exit not found at $debug_exit"

stage=$(dirname "$out")/rootfs
rm -rf "$stage"
mkdir -p "$stage"
cp -a "$skeleton/." "$stage/"
cp "$init" "$stage/init"
mkdir -p "$stage/bin" "$stage/dev" "$stage/proc" "$stage/sys" "$stage/tmp" \
	"$stage/lib/harness" "$stage/tests"
cp "$busybox" "$stage/bin/busybox"
ln -sf busybox "$stage/bin/sh"
cp "$TOP/scripts/guest/harness.sh" "$debug_exit" "$stage/lib/harness/"
# The kernel opens /dev/console for /init before devtmpfs is mounted.
mknod -m 600 "$stage/dev/console" c 5 1

for dir in "$@"; do
	[ -d "$dir" ] || die "test directory $dir does not exist"
	dest=$stage/tests/$(basename "$dir")
	mkdir -p "$dest"
	found=0
	for t in "$dir"/*; do
		if [ ! -f "$t" ] || [ ! -x "$t" ]; then
			continue
		fi
		cp "$t" "$dest/"
		found=$((found + 1))
	done
	[ "$found" -gt 0 ] || die "no test binaries in $dir"
done

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -n -9 > "$out.tmp"
mv "$out.tmp" "$out"
echo "  [$STEP] $out ($(stat -c %s "$out") bytes)"
