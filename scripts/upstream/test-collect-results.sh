#!/bin/sh
# test-collect-results.sh - test collect_results.py on recorded console logs
# of upstream boots (make check-upstream).
#
# Usage: scripts/upstream/test-collect-results.sh
#
# Each folder in scripts/upstream/test_data/ is one boot: console.log and
# console.log.status as run-qemu.sh writes them, "init", the upstream /init
# the guest ran, and "expect": a "target=<t>" line, an "exit=<status>" line
# and then lines that the results TSV must hold, one fixed string each
# (test, result and detail, tab-separated). Each case runs with the
# kunit_parser.py of every kernel tree under build/ (or $KUNIT_DIR's only),
# whose results must agree, as in scripts/boot/test-console-verdict.sh.
# Prints KTAP; exits 1 if any case fails.
set -eu
STEP=test-collect-results
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/expect.sh"

kunit_dirs=${KUNIT_DIR:-$(ls -d "$TOP"/build/*/linux/tools/testing/kunit 2>/dev/null || true)}
[ -n "$kunit_dirs" ] ||
	die "no kernel tree with tools/testing/kunit under build/ (make kernels), and no KUNIT_DIR"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

cases_begin "$TOP/scripts/upstream/test_data"
for dir in $cases; do
	n=$((n + 1))
	name=$(basename "$dir")
	target=$(sed -n 's/^target=//p' "$dir/expect")
	first=
	for kunit in $kunit_dirs; do
		this_exit=0
		KUNIT_DIR=$kunit "$TOP/scripts/upstream/collect_results.py" \
			--target "$target" --init "$dir/init" \
			--log "$dir/console.log" --out "$tmp" >/dev/null 2>&1 ||
			this_exit=$?
		this=$(cat "$tmp" 2>/dev/null || true)
		if [ -z "$first" ]; then
			first=$kunit out=$this got_exit=$this_exit
		elif [ "$this" != "$out" ] || [ "$this_exit" != "$got_exit" ]; then
			got_exit="$got_exit with $first, $this_exit (or other results) with $kunit"
		fi
	done
	expect_case "$n" "$name" "$dir/expect" "$got_exit" "$out" || failed=1
done
[ "$failed" -eq 0 ] || die "collect_results.py failed on recorded logs (above)"
