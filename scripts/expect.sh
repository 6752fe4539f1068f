# shellcheck shell=sh
# expect.sh - judge one recorded case against its "expect" file.
# Sourced by the checks' test scripts, scripts/*/test-*.sh.
#
# cases_begin <folder>
#   Sets $cases to the case folders in <folder>, prints the KTAP header
#   and plan, and zeroes the counters $n and $failed.
cases_begin() {
	cases=$(ls -d "$1"/*/) || die "no cases in $1"
	echo "KTAP version 1"
	echo "1..$(echo "$cases" | wc -l)"
	# The caller's counters.
	# shellcheck disable=SC2034
	n=0
	# shellcheck disable=SC2034
	failed=0
}

# expect_case <num> <name> <expect-file> <exit-status> <output>
#   The expect file holds an "exit=<status>" line, optional
#   "target=<target>" and "args=<arguments>" lines for the caller, and
#   fixed strings the output must contain.
#   Prints the output as KTAP diagnostics, then the case's result line
#   and, on failure, what differed; returns 1 if the case failed.
expect_case() {
	num=$1 name=$2 expect=$3 got_exit=$4 out=$5
	want_exit=$(sed -n 's/^exit=//p' "$expect")
	bad=
	[ "$got_exit" = "$want_exit" ] ||
		bad="expected exit $want_exit, got $got_exit"
	while IFS= read -r want; do
		case $want in exit=*|target=*|args=*|'') continue ;; esac
		printf '%s\n' "$out" | grep -qF -- "$want" ||
			bad="${bad:+$bad; }expected output to contain: $want"
	done < "$expect"
	printf '%s\n' "$out" | sed 's/^/# /'
	if [ -z "$bad" ]; then
		echo "ok $num $name"
		return 0
	fi
	echo "# $name: $bad"
	echo "not ok $num $name"
	return 1
}
