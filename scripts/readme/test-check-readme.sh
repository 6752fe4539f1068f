#!/bin/sh
# test-check-readme.sh - test check_readme.py on broken copies of README.md.
#
# Usage: scripts/readme/test-check-readme.sh
#
# Each folder in scripts/readme/test_data/ is one case: "mutate.sed"
# breaks a copy of the README as a stale edit would (a folder left out of
# the layout, a target or base not listed, a patch count or a goal that
# no longer holds, a path that moved), and "expect" holds the exit status
# and the message that check_readme.py must give (scripts/expect.sh).
# The README itself must pass first. Prints KTAP; exits 1 if any case
# fails.
set -eu
STEP=test-check-readme
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/expect.sh"

check=$TOP/scripts/readme/check_readme.py
run "$check" --top "$TOP" "$TOP/README.md" ||
	die "README.md itself fails the check (above)"
scratch_dir

cases_begin "$TOP/scripts/readme/test_data"
for dir in $cases; do
	n=$((n + 1))
	name=$(basename "$dir")
	sed -f "$dir/mutate.sed" "$TOP/README.md" >"$scratch/README.md"
	! cmp -s "$TOP/README.md" "$scratch/README.md" ||
		die "$name: mutate.sed changed nothing"
	got_exit=0
	out=$("$check" --top "$TOP" "$scratch/README.md" 2>&1) || got_exit=$?
	expect_case "$n" "$name" "$dir/expect" "$got_exit" "$out" || failed=1
done
[ "$failed" -eq 0 ] || die "check_readme.py misjudged a case (above)"
