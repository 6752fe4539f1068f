#!/bin/sh
# test-parse-console.sh - test parse-console.py on recorded console logs.
#
# Usage: scripts/tests/test-parse-console.sh
#
# Each folder in scripts/tests/console/ is one recorded boot: console.log,
# console.log.status (and console.log.stderr) as run-qemu.sh writes them,
# plus "init", the /init the guest ran (it lists the suites expected),
# and "expect": a "target=<t>" line, an "exit=<status>" line and then
# lines that the parser's output must contain, one fixed string each.
# Prints KTAP; exits 1 if any case fails.
set -eu
STEP=test-parse-console
. "$(dirname "$0")/../lib.sh"

cases=$(ls -d "$TOP"/scripts/tests/console/*/)
echo "KTAP version 1"
echo "1..$(echo "$cases" | wc -l)"
n=0
failed=0
for dir in $cases; do
	n=$((n + 1))
	name=$(basename "$dir")
	target=$(sed -n 's/^target=//p' "$dir/expect")
	want_exit=$(sed -n 's/^exit=//p' "$dir/expect")
	got_exit=0
	out=$("$TOP/scripts/parse-console.py" --target "$target" \
		--init "$dir/init" --log "$dir/console.log" 2>&1) ||
		got_exit=$?
	bad=
	[ "$got_exit" = "$want_exit" ] ||
		bad="expected exit $want_exit, got $got_exit"
	while IFS= read -r want; do
		case $want in target=*|exit=*|'') continue ;; esac
		printf '%s\n' "$out" | grep -qF -- "$want" ||
			bad="${bad:+$bad; }expected output to contain: $want"
	done < "$dir/expect"
	if [ -z "$bad" ]; then
		echo "ok $n $name"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		echo "# $name: $bad"
		echo "not ok $n $name"
		failed=1
	fi
done
[ "$failed" -eq 0 ] || die "parse-console.py failed on recorded logs (above)"
