#!/bin/sh
# install-headers.sh - "make headers_install" for one target.
#
# Usage: scripts/install-headers.sh <target> <tree-dir> <obj-dir> <headers-dir>
#
# Installs the patched tree's uapi headers for the target's ARCH; the tests
# compile against them, so syscall numbers come from the patched tables.
# headers_install needs no .config. It runs in its own O= folder so that it
# never races with a kernel build, and the result is copied into
# <headers-dir> by checksum: unchanged headers keep their time stamps and
# the tests that include them are not rebuilt for nothing.
set -eu
STEP=install-headers
. "$(dirname "$0")/lib.sh"

[ $# -eq 4 ] || die "usage: $0 <target> <tree-dir> <obj-dir> <headers-dir>"
load_target "$1"
tree=$(absdir "$2")
obj=$(absdir "$3")
headers=$(absdir "$4")

run make -s -C "$tree" O="$obj" ARCH="$KARCH" HOSTCC="$KERNEL_CC" headers_install \
	INSTALL_HDR_PATH="$obj/install" ||
	die "headers_install for $TARGET failed"
run rsync -rlc --delete "$obj/install/include/" "$headers/include/"
