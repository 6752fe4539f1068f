#!/bin/sh
# build-tests.sh - build one set of test binaries with arch-tests/Makefile.
#
# Usage: scripts/build-tests.sh <set> <variable>=<value>...
#
# <set> is m32, m64 or mx32 (arch-tests/Makefile's goals); the variables
# (OUT, KSFT_DIR, HDRS_32, HDRS_64) go to that make. The binaries are jobs
# of the Makefile's parallel steps: this make keeps the job slots that the
# Makefile passed in MAKEFLAGS. While it runs, a progress line says how
# many binaries of the set it has built so far.
set -eu
steps_makeflags=${MAKEFLAGS:-}
STEP=build-tests
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 m32|m64|mx32 <variable>=<value>..."
set_name=$1
shift
case $set_name in
m32 | m64 | mx32) ;;
*) die "unknown set '$set_name': m32, m64 or mx32" ;;
esac
STEP_LABEL="$STEP $set_name"
out=
for arg in "$@"; do
	case $arg in
	OUT=*) out=${arg#OUT=} ;;
	esac
done
[ -n "$out" ] || die "OUT=<dir> is missing"
mkdir -p "$out"

total=$(make -s -C "$TOP/arch-tests" "$@" "count-$set_name")
begun=$out/.build-tests-$set_name.begun
touch "$begun"
built() {
	echo "$(find "$out" -type f -perm -u+x -newer "$begun" | wc -l) of $total binaries built"
}
progress_begin "$set_name" built
MAKEFLAGS=$steps_makeflags run make -C "$TOP/arch-tests" "$@" "$set_name" ||
	die "building the $set_name tests failed (above)"
