#!/bin/sh
# run-qemu.sh - boot a target's kernel and initramfs under QEMU (TCG).
#
# Usage: scripts/boot/run-qemu.sh test  <target> <kernel> <initramfs> <console-log>
#        scripts/boot/run-qemu.sh bench <target> <kernel> <initramfs> <console-log>
#        scripts/boot/run-qemu.sh profile <target> <kernel> <initramfs> <console-log>
#        scripts/boot/run-qemu.sh shell <target> <kernel> <initramfs>
#
# test:  no display, no input, the serial console written to <console-log>,
#        bounded by a host-side timeout of $BOOT_TIMEOUT seconds (default
#        900). QEMU's exit status and the wall time go to <console-log>.status
#        and QEMU's own messages to <console-log>.stderr, for console_verdict.py.
# bench: as test, running the benchmark suites ($BENCH_SIZE: smoke or
#        full) under "-icount shift=0,sleep=off", so that guest time
#        counts guest instructions and the figures repeat exactly.
# profile: as test, running one benchmark variant ($PROFILE, the guest's
#        harness.profile=<abi>:<variant>:<calls>) untimed, with QEMU's
#        log of the code in $PROFILE_RANGES (a -dfilter list) written to
#        $PROFILE_LOG: scripts/bench/profile.sh.
# shell: the serial console on this terminal, for an interactive busybox
#        shell (Ctrl-A X quits QEMU).
# KVM is not used: it does not work on the machines this runs on.
# $KERNEL_APPEND adds kernel command-line arguments.
# $KERNEL_VARIANT=debug boots a kernel of "make test DEBUG=1": the guest gets
# the target's DEBUG_QEMU_MEM and DEBUG_APPEND, and the default timeout is
# its DEBUG_BOOT_TIMEOUT (scripts/targets/<target>.conf).
set -eu
STEP=run-qemu
. "$(dirname "$0")/../lib.sh"

[ $# -ge 4 ] || die "usage: $0 test|bench|profile|shell <target> <kernel> <initramfs> [<console-log>]"
mode=$1
load_target "$2"
kernel=$3
initramfs=$4
log=${5:-}
[ -f "$kernel" ] || die "kernel image $kernel not found"
[ -f "$initramfs" ] || die "initramfs $initramfs not found"
command -v "$QEMU" >/dev/null || die "$QEMU not found; install it with: apt-get install $QEMU_PACKAGE"

mem=$QEMU_MEM
# Another CPU model than the target's own, for a bench boot with SMAP.
QEMU_CPU=${QEMU_CPU_MODEL:-$QEMU_CPU}
variant_append=
default_timeout=900
case ${KERNEL_VARIANT:-} in
'')	;;
debug)	mem=$DEBUG_QEMU_MEM
	variant_append="$DEBUG_APPEND "
	default_timeout=$DEBUG_BOOT_TIMEOUT ;;
*)	die "unknown KERNEL_VARIANT '$KERNEL_VARIANT' (empty or debug)" ;;
esac

# panic=-1 turns a panic into a reset, and -no-reboot turns that into an exit.
append="console=$CONSOLE panic=-1 harness.mode=$mode $variant_append${KERNEL_APPEND:-}"
icount=
if [ "$mode" = bench ]; then
	append="$append harness.bench=${BENCH_SIZE:-smoke}"
	icount="-icount shift=0,sleep=off"
fi
# A profile boot (scripts/bench/profile.sh): one benchmark variant, and
# QEMU's log of each block of code in PROFILE_RANGES, when it is
# translated (its instructions) and each time it runs.
profile_log=
if [ "$mode" = profile ]; then
	: "${PROFILE:?profile mode needs PROFILE=<abi>:<variant>:<calls>}"
	: "${PROFILE_RANGES:?profile mode needs PROFILE_RANGES (QEMU -dfilter)}"
	: "${PROFILE_LOG:?profile mode needs PROFILE_LOG, the QEMU log file}"
	append="$append harness.profile=$PROFILE"
	profile_log="-d in_asm,exec,nochain -dfilter $PROFILE_RANGES -D $PROFILE_LOG"
fi
# $machine and $icount are empty or two words, $QEMU_EXIT_ARGS the
# target's words: split on purpose.
machine=${QEMU_MACHINE:+-M $QEMU_MACHINE}
# shellcheck disable=SC2086
set -- "$QEMU" $machine -nodefaults -display none -no-reboot -accel tcg \
	-cpu "$QEMU_CPU" -m "$mem" \
	-kernel "$kernel" -initrd "$initramfs" -append "$append" \
	$QEMU_EXIT_ARGS $icount $profile_log

# How far a boot is: the KTAP results in the console log so far, and the
# last suite or test named there.
boot_status() {
	results=$(grep -c '^ *\(not \)\?ok [0-9]' "$log" || true)
	failed=$(grep -c '^ *not ok [0-9]' "$log" || true)
	last=$(sed -n 's/^ *\(not \)\?ok [0-9]* \([^ #]*\).*/\2/p' "$log" | tail -n 1)
	printf '%s results, %s not ok%s' "$results" "$failed" "${last:+, last $last}"
}

case $mode in
shell)
	# The terminal is the guest's console: no progress lines in it.
	progress_end
	run "$@" -serial mon:stdio
	;;
test|bench|profile)
	[ -n "$log" ] || die "test mode needs a <console-log> path"
	timeout=${BOOT_TIMEOUT:-$default_timeout}
	rm -f "$log" "$log.status" "$log.stderr"
	STEP_LABEL="$STEP $mode $TARGET${KERNEL_VARIANT:+ $KERNEL_VARIANT}"
	progress_begin "$mode $TARGET" boot_status
	start=$(date +%s.%N)
	status=0
	run timeout -k 10 "$timeout" "$@" -serial "file:$log" \
		</dev/null 2>"$log.stderr" || status=$?
	end=$(date +%s.%N)
	seconds=$(echo "$end - $start" | bc)
	printf 'status=%s\nseconds=%.1f\ntimeout=%s\n' "$status" "$seconds" \
		"$timeout" > "$log.status"
	progress_end
	echo "  [$STEP] $TARGET: QEMU exited with status $status after ${seconds%.*} s"
	;;
*)
	die "unknown mode '$mode' (test, bench, profile or shell)"
	;;
esac
