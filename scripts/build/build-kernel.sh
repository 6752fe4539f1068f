#!/bin/sh
# build-kernel.sh - build a target's kernel image.
#
# Usage: scripts/build/build-kernel.sh <target> <tree-dir> <out-dir>
#
# An out-of-tree (O=) kbuild run, so it is as incremental as kbuild itself;
# ccache is used when it is installed (KERNEL_CC, scripts/lib.sh). $JOBS
# sets the parallelism (default: every core).
set -eu
STEP=build-kernel
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || die "usage: $0 <target> <tree-dir> <out-dir>"
load_target "$1"
tree=$(absdir "$2")
out=$(absdir "$3")

[ -f "$out/.config" ] || die "$out/.config missing; run scripts/build/configure-kernel.sh"

jobs=${JOBS:-$(nproc)}

run make -C "$tree" O="$out" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" CC="$KERNEL_CC" HOSTCC="$HOST_CC" -j"$jobs" \
	"$(basename "$KIMAGE")" ||
	die "kernel build for $TARGET failed (log above)"
echo "  [$STEP] $TARGET: $out/$KIMAGE ($(stat -c %s "$out/$KIMAGE") bytes)"
