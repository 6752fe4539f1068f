#!/bin/sh
# profile.sh - where a target's indirect() calls spend guest instructions.
#
# Usage: scripts/bench/profile.sh <target> <base> <kernel-build-dir> <initramfs> <out-dir>
#
# For each benchmark ABI of the target (its /init's bench_suite lines),
# boots the kernel twice in profile mode (scripts/boot/run-qemu.sh profile):
# PROFILE_CALLS calls of the direct getppid(), then as many of
# indirect(getppid) without contexts, each with QEMU logging every block
# of code that runs in the target's PROFILE_FUNCTIONS (the syscall path:
# its entry, its dispatch, indirect() itself). scripts/bench/profile.py
# turns the two logs into <out-dir>/<target>-<abi>.txt: the instructions
# per call in each function, the difference, the serializing and
# access-window instructions (the target's PROFILE_BARRIERS) on each
# path, and the listing of the instructions that indirect() runs.
# On x86 it boots the target's BENCH_SMAP_CPU, whose STAC and CLAC are
# instructions and not the NOPs of a CPU without SMAP.
set -eu
STEP=profile
. "$(dirname "$0")/../lib.sh"

[ $# -eq 5 ] || die "usage: $0 <target> <base> <kernel-build-dir> <initramfs> <out-dir>"
load_target "$1"
base=$2
kdir=$3
initramfs=$4
out=$(absdir "$5")
vmlinux=$kdir/vmlinux
calls=${PROFILE_CALLS:-2000}
[ -f "$vmlinux" ] || die "$vmlinux not found: build the kernel first (make kernel-$TARGET)"
: "${PROFILE_FUNCTIONS:?scripts/targets/$TARGET.conf has no PROFILE_FUNCTIONS}"
: "${PROFILE_BARRIERS:?scripts/targets/$TARGET.conf has no PROFILE_BARRIERS}"
mkdir -p "$out"

PROFILE_RANGES=$("$TOP/scripts/bench/profile.py" ranges \
	--functions "$PROFILE_FUNCTIONS" "$vmlinux") ||
	die "no -dfilter ranges for $vmlinux"
export PROFILE_RANGES
if [ -n "${BENCH_SMAP_CPU:-}" ]; then
	QEMU_CPU_MODEL=$BENCH_SMAP_CPU
	export QEMU_CPU_MODEL
fi

abis=$(sed -n 's/^bench_suite \([^ +]*\) .*/\1/p' "$TOP/rootfs-$TARGET/init" | sort -u)
[ -n "$abis" ] || die "rootfs-$TARGET/init has no bench_suite"
for abi in $abis; do
	for variant in getppid indirect_getppid_0; do
		log=$out/$TARGET-$abi-$variant
		PROFILE=$abi:$variant:$calls PROFILE_LOG=$log.qemu.log \
			"$TOP/scripts/boot/run-qemu.sh" profile "$TARGET" \
			"$kdir/$KIMAGE" "$initramfs" "$log.console"
		tr -d '\r' < "$log.console" | grep -qx "ok 1 $abi" ||
			die "the profile boot of $variant on $abi did not pass: see $log.console"
	done
	"$TOP/scripts/bench/profile.py" report --vmlinux "$vmlinux" \
		--calls "$calls" --barriers "$PROFILE_BARRIERS" \
		--title "base $base, $TARGET kernel, $abi ABI${QEMU_CPU_MODEL:+, CPU $QEMU_CPU_MODEL}" \
		"$out/$TARGET-$abi-getppid.qemu.log:getppid" \
		"$out/$TARGET-$abi-indirect_getppid_0.qemu.log:indirect" \
		> "$out/$TARGET-$abi.txt"
	rm -f "$out/$TARGET-$abi"-*.qemu.log
	echo "  [$STEP] $out/$TARGET-$abi.txt"
done
