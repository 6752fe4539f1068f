#!/bin/sh
# test-parse-console.sh - test parse-console.py on recorded console logs.
#
# Usage: scripts/tests/test-parse-console.sh
#
# Each folder in scripts/tests/console/ is one recorded boot: console.log,
# console.log.status (and console.log.stderr) as run-qemu.sh writes them,
# plus "init", the /init the guest ran (it lists the suites expected),
# and "expect": a "target=<t>" line, an "exit=<status>" line, an optional
# "args=<more arguments>" line (such as "--expect-suite kmemleak", for a
# DEBUG=1 boot) and then lines that the parser's output must contain, one
# fixed string each.
# Prints KTAP; exits 1 if any case fails.
set -eu
STEP=test-parse-console
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/tests/expect.sh"

cases_begin "$TOP/scripts/tests/console"
for dir in $cases; do
	n=$((n + 1))
	name=$(basename "$dir")
	target=$(sed -n 's/^target=//p' "$dir/expect")
	args=$(sed -n 's/^args=//p' "$dir/expect")
	got_exit=0
	# $args is split into words on purpose.
	# shellcheck disable=SC2086
	out=$("$TOP/scripts/parse-console.py" --target "$target" \
		--init "$dir/init" --log "$dir/console.log" $args 2>&1) ||
		got_exit=$?
	expect_case "$n" "$name" "$dir/expect" "$got_exit" "$out" || failed=1
done
[ "$failed" -eq 0 ] || die "parse-console.py failed on recorded logs (above)"
