#!/bin/sh
# check-numbering.sh - run check-numbering.py on the patched tree and builds.
#
# Usage: scripts/check-numbering.sh <tree-dir> <build-dir> <target>...
#
# Compares the patched syscall tables with the unpatched ones (the tree's
# "upstream" tag), with scripts/numbering/frozen-abi.txt and with the
# numbers upstream allocates up to its newest kernel (upstream-allocations.tsv
# and reserved-bands.tsv there), and checks the headers of each <target>'s
# build and its test binaries against them. <build-dir> is the base's:
# build/<base>.
# Set NUMBERING_SCRATCH to check copies of the inputs instead (the
# checker's own tests do); it must hold the same layout as made here.
set -eu
STEP=check-numbering
. "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] || die "usage: $0 <tree-dir> <build-dir> <target>..."
tree=$1
build=$2
shift 2

in=${NUMBERING_SCRATCH:-$build/numbering}
if [ -z "${NUMBERING_SCRATCH:-}" ]; then
	rm -rf "$in"
	mkdir -p "$in/base"
	for t in 32 64; do
		cp "$tree/arch/x86/entry/syscalls/syscall_$t.tbl" "$in/syscall_$t.tbl"
		git -C "$tree" show "upstream:arch/x86/entry/syscalls/syscall_$t.tbl" \
			> "$in/base/syscall_$t.tbl" ||
			die "cannot read the unpatched syscall_$t.tbl from $tree"
	done
	for f in frozen-abi.txt upstream-allocations.tsv reserved-bands.tsv; do
		cp "$TOP/scripts/numbering/$f" "$in/$f"
	done
	for target in "$@"; do
		hdr=$build/headers/$target/include/asm
		gen=$build/$target/kernel/arch/x86/include/generated
		mkdir -p "$in/$target"
		case $target in
		i386)	cp "$hdr/unistd_32.h" "$in/$target/uapi_32"
			cp "$gen/uapi/asm/unistd_32.h" "$in/$target/gen_32" ;;
		x86_64)	cp "$hdr/unistd_32.h" "$in/$target/uapi_32"
			cp "$hdr/unistd_64.h" "$in/$target/uapi_64"
			cp "$gen/uapi/asm/unistd_64.h" "$in/$target/gen_64"
			cp "$gen/asm/unistd_32_ia32.h" "$in/$target/ia32" ;;
		*)	die "unknown target '$target'" ;;
		esac
		# shellcheck source=/dev/null disable=SC2086
		for set in $(. "$TOP/scripts/targets/$target.conf" && echo $TEST_SETS); do
			bits=${set#m}
			mkdir -p "$in/bin$bits"
			cp "$build/tests/$set"/* "$in/bin$bits/"
		done
	done
fi

set -- --tbl32 "$in/syscall_32.tbl" --tbl64 "$in/syscall_64.tbl" \
	--base-tbl32 "$in/base/syscall_32.tbl" \
	--base-tbl64 "$in/base/syscall_64.tbl" --pinned "$in/frozen-abi.txt" \
	--upstream "$in/upstream-allocations.tsv" --reserved "$in/reserved-bands.tsv"
for h in "$in"/*/uapi_* "$in"/*/gen_* "$in"/*/ia32; do
	[ -f "$h" ] && set -- "$@" --header "$(basename "$h")=$h"
done
for bits in 32 64; do
	for b in "$in/bin$bits"/*; do
		[ -f "$b" ] && set -- "$@" --binary "$bits=$b"
	done
done
run "$TOP/scripts/check-numbering.py" "$@"
