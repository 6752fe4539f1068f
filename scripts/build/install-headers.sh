#!/bin/sh
# install-headers.sh - "make headers_install" for one kernel architecture.
#
# Usage: scripts/build/install-headers.sh <arch> <tree-dir> <obj-dir> <headers-dir>
#
# Installs the patched tree's uapi headers for kbuild's ARCH=<arch> (a
# set's HEADERS_ARCH, scripts/abis/<set>.conf: i386, x86_64, arm64, arm),
# which need no cross compiler; the tests
# compile against them, so syscall numbers come from the patched tables.
# headers_install needs no .config. It runs in its own O= folder so that it
# never races with a kernel build, and the result is copied into
# <headers-dir> by checksum: unchanged headers keep their time stamps and
# the tests that include them are not rebuilt for nothing.
set -eu
STEP=install-headers
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || die "usage: $0 <arch> <tree-dir> <obj-dir> <headers-dir>"
arch=$1
[ -d "$2/arch/$arch" ] || [ "$arch" = i386 ] || [ "$arch" = x86_64 ] ||
	die "no architecture '$arch' in $2"
STEP_LABEL="$STEP $arch"
tree=$(absdir "$2")
obj=$(absdir "$3")
headers=$(absdir "$4")

run make -s -C "$tree" O="$obj" ARCH="$arch" HOSTCC="$HOST_CC" headers_install \
	INSTALL_HDR_PATH="$obj/install" ||
	die "headers_install for ARCH=$arch failed"
run rsync -rlc --delete "$obj/install/include/" "$headers/include/"
