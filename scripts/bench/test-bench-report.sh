#!/bin/sh
# test-bench-report.sh - test bench_report.py's verdicts on a recorded log.
#
# Usage: scripts/bench/test-bench-report.sh
#
# scripts/bench/test_data/x86_64-smoke.log holds the figures of a real
# "make bench-check" boot of x86_64 (its "# Subtest:", "# harness: cpu" and
# "# bench" lines). Each folder next to it is one case: an optional
# "mutate.sed" turns that log into the case's own (a figure raised, a line
# removed), and "expect" has the "args=" to add to bench_report.py's
# (where @CASE@ is the case's folder, for a file of its own)
# command line, the "exit=" status wanted and fixed strings that its
# output must contain (scripts/expect.sh). Each case also checks
# that --verdict's file exists exactly when the exit status is non-zero.
# Prints KTAP; exits 1 if any case fails.
set -eu
STEP=test-bench-report
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/expect.sh"

base=$TOP/scripts/bench/test_data/x86_64-smoke.log
[ -f "$base" ] || die "$base is missing"
scratch_dir

cases_begin "$TOP/scripts/bench/test_data"
for dir in $cases; do
	n=$((n + 1))
	name=$(basename "$dir")
	log=$scratch/$name.log
	if [ -f "$dir/mutate.sed" ]; then
		sed -f "$dir/mutate.sed" "$base" >"$log"
		! cmp -s "$base" "$log" || die "$name: mutate.sed changed nothing"
	else
		cp "$base" "$log"
	fi
	args=$(sed -n -e "s|@CASE@|$dir|g" -e 's/^args=//p' "$dir/expect")
	verdict=$scratch/$name.missed
	got_exit=0
	# $args is split into words on purpose.
	# shellcheck disable=SC2086
	out=$("$TOP/scripts/bench/bench_report.py" --target x86_64 --log "$log" \
		--out "$scratch/$name" --verdict "$verdict" $args 2>&1) || got_exit=$?
	if [ "$got_exit" -eq 0 ] && [ -e "$verdict" ]; then
		out="$out
verdict file written on success: $(cat "$verdict")"
		got_exit='verdict file'
	elif [ "$got_exit" -ne 0 ] && [ ! -s "$verdict" ]; then
		out="$out
no verdict file on failure"
		got_exit='no verdict file'
	fi
	expect_case "$n" "$name" "$dir/expect" "$got_exit" "$out" || failed=1
done
[ "$failed" -eq 0 ] || die "bench_report.py misjudged a case (above)"
