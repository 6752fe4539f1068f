#!/bin/sh
# test-check-numbering.sh - test check-numbering.sh on broken inputs.
#
# Usage: scripts/numbering/test-check-numbering.sh <tree-dir> <build-dir> <target>...
#
# Each folder in scripts/numbering/test_data/ is one case: "mutate", a shell
# snippet run inside a copy of the real inputs (the tables by the names
# of scripts/numbering/data/tables.tsv: syscall_32.tbl, generic.tbl, arm.tbl...,
# base/ with the unpatched ones, frozen-abi.txt, upstream-allocations.tsv,
# reserved-bands.tsv, tables.tsv, kinds.tsv, inputs.tsv,
# later-allocations.tsv, <target>/<header kind>, and
# the test binaries in the folders of scripts/numbering/data/inputs.tsv: bin32/,
# bin64/, bin-aarch64/, bin-armhf/), and
# "expect": an "exit=<status>" line and then fixed strings the checker's
# output must contain. A mutate that exits 77 does not apply to the
# targets checked (its input is not there) and is reported as skipped.
# Run scripts/numbering/check-numbering.sh first, with the same <build-dir> (the
# base's, build/<base>): it collects the real inputs there. A case must hold
# on every base. Prints KTAP; exits 1 if any case fails.
set -eu
STEP=test-check-numbering
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/expect.sh"

[ $# -ge 3 ] || die "usage: $0 <tree-dir> <build-dir> <target>..."
tree=$1
build=$2
shift 2
real=$build/numbering
for f in frozen-abi.txt upstream-allocations.tsv reserved-bands.tsv \
	tables.tsv kinds.tsv inputs.tsv later-allocations.tsv; do
	[ -f "$real/$f" ] ||
		die "no $f in $real: run scripts/numbering/check-numbering.sh first"
done

cases_begin "$TOP/scripts/numbering/test_data"
for dir in $cases; do
	n=$((n + 1))
	name=$(basename "$dir")
	scratch=$build/numbering-test/$name
	rm -rf "$scratch"
	mkdir -p "$scratch"
	cp -a "$real/." "$scratch/"
	status=0
	(cd "$scratch" && sh -eu "$dir/mutate") || status=$?
	if [ "$status" -eq 77 ]; then
		echo "ok $n $name # SKIP its inputs are not among the targets checked"
		continue
	fi
	[ "$status" -eq 0 ] || die "$name: mutate failed with status $status"
	got_exit=0
	out=$(STEP_TIMES='' NUMBERING_SCRATCH=$scratch "$TOP/scripts/numbering/check-numbering.sh" \
		"$tree" "$build" "$@" 2>/dev/null) || got_exit=$?
	expect_case "$n" "$name" "$dir/expect" "$got_exit" "$out" || failed=1
done
[ "$failed" -eq 0 ] || die "check-numbering.sh misjudged a fixture (above)"
