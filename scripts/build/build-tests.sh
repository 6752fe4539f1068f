#!/bin/sh
# build-tests.sh - build one set of test binaries with arch-tests/Makefile.
#
# Usage: scripts/build/build-tests.sh <set> OUT=<dir> KSFT_DIR=<dir> HDRS=<dir>
#            [<variable>=<value>...]
#
# <set> is one of scripts/abis/*.conf (m32, m64, mx32, aarch64, armhf),
# which says the set's compiler, its flags and kind, and the kernel ARCH
# whose uapi headers it is compiled against: HDRS is that headers_install
# (the folder holding include/). The variables go to the make, after the
# set's own (SET, KIND, CC, ABI_CFLAGS), which they may override. The
# binaries go to OUT/<set> and OUT/bench-<set>. They are jobs of the
# Makefile's parallel steps: this make keeps the job slots that the
# Makefile passed in MAKEFLAGS. While it runs, a progress line says how
# many binaries of the set it has built so far. A full set also gets
# libindirect, installed with the set's compiler into OUT/stage-<set>,
# whose headers and libindirect.a its binaries use.
set -eu
steps_makeflags=${MAKEFLAGS:-}
STEP=build-tests
. "$(dirname "$0")/../lib.sh"

sets=$(cd "$TOP/scripts/abis" && for f in *.conf; do echo "${f%.conf}"; done | paste -sd ' ')
[ $# -ge 1 ] || die "usage: $0 <set> OUT=<dir> KSFT_DIR=<dir> HDRS=<dir>; sets: $sets"
set_name=$1
shift
conf=$TOP/scripts/abis/$set_name.conf
[ -f "$conf" ] || die "unknown set '$set_name' (no $conf); sets: $sets"
TEST_CFLAGS=
# shellcheck source=/dev/null
. "$conf"
STEP_LABEL="$STEP $set_name"
out=
hdrs=
for arg in "$@"; do
	case $arg in
	OUT=*) out=${arg#OUT=} ;;
	HDRS=*) hdrs=${arg#HDRS=} ;;
	esac
done
[ -n "$out" ] || die "OUT=<dir> is missing"
[ -n "$hdrs" ] || die "HDRS=<dir> is missing: the headers_install of ARCH=$HEADERS_ARCH"

# What the set needs, each missing piece in one line.
command -v "$TEST_CC" >/dev/null 2>&1 ||
	die "set $set_name needs $TEST_CC; install it with: apt-get install $TEST_CC_PACKAGE"
# shellcheck disable=SC2086 # TEST_CFLAGS is a list of flags
[ "$($TEST_CC $TEST_CFLAGS -print-file-name=libc.a)" != libc.a ] ||
	die "set $set_name needs a static C library for $TEST_CC $TEST_CFLAGS; install it with: apt-get install $TEST_LIBC_PACKAGE"
# A full set installs libindirect into a staging root of its own and
# builds examples/safe_extract.c through pkg-config against it
# (arch-tests/Makefile).
if [ "$TEST_KIND" = full ]; then
	command -v "${PKG_CONFIG:-pkg-config}" >/dev/null 2>&1 ||
		die "set $set_name needs ${PKG_CONFIG:-pkg-config}; install it with: apt-get install pkgconf"
fi
# asm/ or, on 6.1's arm64, asm-generic/; x32 takes unistd_64.h's.
grep -rqs 'define __NR_indirect\b' "$hdrs/include/asm" "$hdrs/include/asm-generic" ||
	die "$hdrs/include has no __NR_indirect: HDRS must be the patched tree's headers_install of ARCH=$HEADERS_ARCH"
mkdir -p "$out"

set -- SET="$set_name" KIND="$TEST_KIND" CC="$TEST_CC" ABI_CFLAGS="$TEST_CFLAGS" "$@"
total=$(make -s -C "$TOP/arch-tests" "$@" count)
begun=$out/.build-tests-$set_name.begun
touch "$begun"
built() {
	echo "$(find "$out/$set_name" "$out/bench-$set_name" -type f -perm -u+x \
		-newer "$begun" 2>/dev/null | wc -l) of $total binaries built"
}
progress_begin "$set_name" built
MAKEFLAGS=$steps_makeflags run make -C "$TOP/arch-tests" "$@" all ||
	die "building the $set_name tests failed (above)"
