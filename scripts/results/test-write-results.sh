#!/bin/sh
# test-write-results.sh - test write_results.py on recorded build folders.
#
# Usage: scripts/results/test-write-results.sh
#
# Each folder in scripts/results/test_data/ is one case: build/, the
# outputs that a run leaves (matrix.txt, step-times.tsv, bench/), and
# "expect": the exit status and fixed strings that the written
# results.md, or the error, must contain (scripts/expect.sh). Prints
# KTAP; exits 1 if any case fails.
set -eu
STEP=test-write-results
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/expect.sh"

scratch_dir
cases_begin "$TOP/scripts/results/test_data"
for dir in $cases; do
	n=$((n + 1))
	name=$(basename "$dir")
	got_exit=0
	out=$("$TOP/scripts/results/write_results.py" "$dir/build" \
		"$scratch/$name.md" 2>&1) || got_exit=$?
	[ ! -f "$scratch/$name.md" ] || out="$out
$(cat "$scratch/$name.md")"
	expect_case "$n" "$name" "$dir/expect" "$got_exit" "$out" || failed=1
done
[ "$failed" -eq 0 ] || die "write_results.py misjudged a case (above)"
