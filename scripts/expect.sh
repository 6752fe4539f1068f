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

# kunit_trees
#   Sets $kunit_dirs to the tools/testing/kunit of $KUNIT_DIR, else of every
#   kernel tree under build/: the KTAP readers take the kernel's parser,
#   whose versions differ, and a recorded case must read alike with each.
kunit_trees() {
	kunit_dirs=${KUNIT_DIR:-$(ls -d "$TOP"/build/*/linux/tools/testing/kunit 2>/dev/null || true)}
	[ -n "$kunit_dirs" ] ||
		die "no kernel tree with tools/testing/kunit under build/ (make kernels), and no KUNIT_DIR"
}

# with_each_kunit_tree <command> [<argument>...]
#   Runs the command once with each of $kunit_dirs as KUNIT_DIR and sets
#   $out and $got_exit to its output and exit status with the first; when
#   another gives something else, $got_exit says so, and the case fails.
with_each_kunit_tree() {
	first=
	for kunit in $kunit_dirs; do
		this_exit=0
		this=$(KUNIT_DIR=$kunit && export KUNIT_DIR && "$@" 2>&1) ||
			this_exit=$?
		if [ -z "$first" ]; then
			first=$kunit out=$this got_exit=$this_exit
		elif [ "$this" != "$out" ] || [ "$this_exit" != "$got_exit" ]; then
			got_exit="$got_exit with $first, $this_exit (or another output) with $kunit"
		fi
	done
}
