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

kunit_trees
scratch_dir
# The results TSV of one case, whatever collect_results.py's exit status.
collect() {
	status=0
	rm -f "$scratch/results.tsv"
	"$TOP/scripts/upstream/collect_results.py" "$@" --out "$scratch/results.tsv" \
		>/dev/null 2>&1 || status=$?
	cat "$scratch/results.tsv" 2>/dev/null || true
	return $status
}

cases_begin "$TOP/scripts/upstream/test_data"
for dir in $cases; do
	n=$((n + 1))
	name=$(basename "$dir")
	target=$(sed -n 's/^target=//p' "$dir/expect")
	with_each_kunit_tree collect --target "$target" --init "$dir/init" \
		--log "$dir/console.log"
	expect_case "$n" "$name" "$dir/expect" "$got_exit" "$out" || failed=1
done
[ "$failed" -eq 0 ] || die "collect_results.py failed on recorded logs (above)"
