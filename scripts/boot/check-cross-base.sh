#!/bin/sh
# check-cross-base.sh - boot each base's test binaries on the kernels of
# the other bases.
#
# Usage: scripts/boot/check-cross-base.sh <build-dir> "<bases>" "<targets>"
#
# indirect() has the same number on every base (387, which no upstream
# kernel assigns: docs/checks.md, "Syscall numbering"), so a program built against
# one base's headers must run unchanged on a patched kernel of another,
# and never reach another syscall. For every target and every ordered pair
# of bases (A, B), this boots the kernel of <build-dir>/B/<target> with
# the initramfs of <build-dir>/A/<target> (A's test binaries, its /init
# and its library), with harness.cross_base=A, and judges the console as
# "make test" does; the only test that knows it is a cross-base run is the
# smoke test that checks the kernel's version against the headers'. The
# boots of one pair of bases run side by side, one per target. Results go
# to <build-dir>/cross-base/<A>-on-<B>/<target>/, and the matrix of each
# pair is printed. Both bases must have been built ("make test BASE=...").
set -eu
STEP=check-cross-base
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || die "usage: $0 <build-dir> \"<bases>\" \"<targets>\""
build=$1
bases=$2
targets=$3

# A list of words: split on purpose.
# shellcheck disable=SC2086
set -- $bases
[ $# -ge 2 ] || die "needs two bases or more, got '$bases'"

# Everything a boot needs, before any boot starts.
for bins in $bases; do
	for target in $targets; do
		load_target "$target"
		for f in "$build/$bins/$target/initramfs.cpio.gz" \
			"$build/$bins/$target/kernel/$KIMAGE" \
			"$build/$bins/linux/tools/testing/kunit/kunit_parser.py"; do
			[ -f "$f" ] || die "$f is missing: run 'make test BASE=$bins ARCH=$target' first"
		done
	done
done

status=0
for bins in $bases; do
	for kernel_base in $bases; do
		[ "$bins" != "$kernel_base" ] || continue
		out=$build/cross-base/$bins-on-$kernel_base
		pids=
		for target in $targets; do
			load_target "$target"
			mkdir -p "$out/$target"
			echo "  [$STEP] $target: the binaries of $bins on the kernel of $kernel_base"
			# rename_attack_test, the kernel's own, makes 800,000
			# openat2() calls, two minutes an ABI under TCG on arm64:
			# it tests the openat2() of the kernel it ran on, which
			# each base's own boots did; the tests of the series'
			# calls all run.
			KERNEL_APPEND="harness.cross_base=$bins harness.skip=rename_attack_test ${KERNEL_APPEND:-}" \
				"$TOP/scripts/boot/run-qemu.sh" test "$target" \
				"$build/$kernel_base/$target/kernel/$KIMAGE" \
				"$build/$bins/$target/initramfs.cpio.gz" \
				"$out/$target/console.log" &
			pids="$pids $!"
		done
		for pid in $pids; do
			wait "$pid" || true
		done
		summaries=
		for target in $targets; do
			"$TOP/scripts/boot/console_verdict.py" --target "$target" \
				--init "$TOP/rootfs-$target/init" \
				--log "$out/$target/console.log" \
				--kunit-dir "$build/$kernel_base/linux/tools/testing/kunit" \
				--summary "$out/$target/summary.tsv" || true
			summaries="$summaries $out/$target/summary.tsv"
		done
		# shellcheck disable=SC2086
		"$TOP/scripts/boot/print_matrix.py" --out "$out/matrix.txt" \
			--title "the binaries of base $bins on the kernel of base $kernel_base" \
			$summaries || {
			status=1
			echo "$STEP: the binaries of $bins fail on the kernel of $kernel_base" >&2
		}
	done
done
exit $status
