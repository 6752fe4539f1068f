#!/bin/sh
# test-console-verdict.sh - test console_verdict.py on recorded console logs.
#
# Usage: scripts/boot/test-console-verdict.sh
#
# Each folder in scripts/boot/test_data/ is one recorded boot: console.log,
# console.log.status (and console.log.stderr) as run-qemu.sh writes them,
# plus "init", the /init the guest ran (it lists the suites expected),
# and "expect": a "target=<t>" line, an "exit=<status>" line, an optional
# "args=<more arguments>" line (such as "--expect-suite kmemleak", for a
# DEBUG=1 boot) and then lines that the parser's output must contain, one
# fixed string each.
# console_verdict.py reads the KTAP with a kernel tree's kunit_parser.py:
# each case runs with that of every tree under build/ (or $KUNIT_DIR's
# only), as 6.1's and 6.12's differ, and their verdicts must agree.
# Prints KTAP; exits 1 if any case fails.
set -eu
STEP=test-console-verdict
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/expect.sh"

kunit_trees

cases_begin "$TOP/scripts/boot/test_data"
for dir in $cases; do
	n=$((n + 1))
	name=$(basename "$dir")
	target=$(sed -n 's/^target=//p' "$dir/expect")
	args=$(sed -n 's/^args=//p' "$dir/expect")
	# $args is split into words on purpose.
	# shellcheck disable=SC2086
	with_each_kunit_tree "$TOP/scripts/boot/console_verdict.py" \
		--target "$target" --init "$dir/init" --log "$dir/console.log" $args
	expect_case "$n" "$name" "$dir/expect" "$got_exit" "$out" || failed=1
done
[ "$failed" -eq 0 ] || die "console_verdict.py failed on recorded logs (above)"
