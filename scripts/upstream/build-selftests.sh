#!/bin/sh
# build-selftests.sh - build the kernel's own selftests for one bitness.
#
# Usage: scripts/upstream/build-selftests.sh <bits> <ksft-dir> <headers-dir> \
#            <obj-dir> <bin-dir>
#
# Builds, unmodified, with their own Makefiles and static so that they run
# on a busybox guest: seccomp/seccomp_bpf and every tools/testing/selftests/x86
# test of <bits> (32 or 64; the x86 Makefile names them *_32 and *_64).
# They compile against the uapi headers in <headers-dir>/include
# (KHDR_INCLUDES) and write only under <obj-dir> (OUTPUT=). The chosen
# binaries are then copied into <bin-dir> by checksum, and <bin-dir>.list
# (their names and checksums) is rewritten only when one of them changed,
# so that the initramfs is rebuilt only then.
set -eu
STEP=build-selftests
. "$(dirname "$0")/../lib.sh"

# Built, but not run: seccomp_benchmark is a benchmark whose verdict
# compares timings, meaningless under TCG.
SECCOMP_TESTS="seccomp_bpf"

[ $# -eq 5 ] || die "usage: $0 <bits> <ksft-dir> <headers-dir> <obj-dir> <bin-dir>"
bits=$1
case $bits in 32|64) ;; *) die "bits must be 32 or 64, not '$bits'" ;; esac
# The compiler of the test set of that bitness (scripts/abis/m<bits>.conf).
# shellcheck source=/dev/null
cc=$(. "$TOP/scripts/abis/m$bits.conf" && echo "$TEST_CC")
ksft=$(cd "$2" 2>/dev/null && pwd) || die "selftests directory $2 not found"
headers=$(cd "$3" 2>/dev/null && pwd) || die "headers directory $3 not found"
obj=$(absdir "$4")
bin=$(absdir "$5")
[ -f "$headers/include/asm/unistd.h" ] ||
	die "$headers holds no uapi headers; run scripts/build/install-headers.sh"

# The selftests' Makefiles do not know that their objects depend on the
# uapi headers: rebuild everything when the headers changed.
always=
stamp=$obj/.headers-stamp
if [ ! -f "$stamp" ] || [ -n "$(find "$headers/include" -newer "$stamp" -print -quit)" ]; then
	always=-B
fi

# run(), with the compiler's stderr (many warnings, for -m32) kept in <log>
# and shown only when the build fails.
run_quiet() {
	log=$1
	shift
	printf '  [%s] %s 2>%s\n' "$STEP" "$*" "$log" >&2
	"$@" 2>"$log" || { cat "$log" >&2; return 1; }
}

mkdir -p "$obj/seccomp" "$obj/x86"
# CC carries -m<bits> and -static: both Makefiles use it everywhere, while
# the x86 one resets CFLAGS. The x86 Makefile picks -m32 or -m64 by target.
for t in $SECCOMP_TESTS; do
	run_quiet "$obj/seccomp/$t.warnings" make -s $always -C "$ksft/seccomp" \
		OUTPUT="$obj/seccomp" CC="$cc -m$bits -static" \
		KHDR_INCLUDES="-isystem $headers/include" "$obj/seccomp/$t" ||
		die "building seccomp/$t (-m$bits) failed (compiler output above)"
done
run_quiet "$obj/x86/warnings" make -s $always -C "$ksft/x86" OUTPUT="$obj/x86" \
	CC="$cc -static" KHDR_INCLUDES="-isystem $headers/include" "all_$bits" ||
	die "building the x86 selftests (all_$bits) failed (compiler output above)"
touch "$stamp"

x86_tests=
for f in "$obj/x86/"*_"$bits"; do
	if [ -f "$f" ] && [ -x "$f" ]; then
		x86_tests="$x86_tests ${f##*/}"
	fi
done
[ -n "$x86_tests" ] || die "the x86 Makefile built no *_$bits test (no -m$bits toolchain?)"
for f in $x86_tests; do
	! readelf -l "$obj/x86/$f" | grep -q 'program interpreter' ||
		die "$obj/x86/$f is not statically linked; the guest has no shared libraries"
done

stage=$obj/bin
rm -rf "$stage"
mkdir -p "$stage"
for t in $SECCOMP_TESTS; do
	ln "$obj/seccomp/$t" "$stage/$t"
done
for f in $x86_tests; do
	ln "$obj/x86/$f" "$stage/$f"
done
run rsync -rlc --delete "$stage/" "$bin/"
rm -rf "$stage"

list=$bin.list
(cd "$bin" && sha256sum -- *) > "$list.tmp"
if cmp -s "$list.tmp" "$list"; then
	rm -f "$list.tmp"
	echo "  [$STEP] -m$bits: $(wc -l < "$list") tests in $bin, unchanged"
else
	mv "$list.tmp" "$list"
	# shellcheck disable=SC2012
	echo "  [$STEP] -m$bits: $(wc -l < "$list") tests in $bin:" \
		"$(cd "$bin" && ls | tr '\n' ' ')"
fi
