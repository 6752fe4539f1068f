#!/bin/sh
# build-guest-tool.sh - compile a guest helper for a target's own userland.
#
# Usage: scripts/build/build-guest-tool.sh <target> <source.c> <output>
#
# Static, since the initramfs has no C library, and with the target's
# GUEST_CC and GUEST_CFLAGS, for the ABI of the busybox next to it.
set -eu
STEP=build-guest-tool
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || die "usage: $0 <target> <source.c> <output>"
load_target "$1"
mkdir -p "$(dirname "$3")"
command -v "$GUEST_CC" >/dev/null 2>&1 ||
	die "$GUEST_CC not found; install it with: apt-get install ${GUEST_CC_PACKAGE:-${CROSS_PACKAGE:-gcc}}"
# GUEST_CFLAGS is a list of flags: split on purpose.
# shellcheck disable=SC2086
run "$GUEST_CC" $GUEST_CFLAGS -static -O2 -Wall -Wextra -Werror -o "$3" "$2" ||
	die "cannot build $2 for $TARGET"
