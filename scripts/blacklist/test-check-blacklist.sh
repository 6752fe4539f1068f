#!/bin/sh
# test-check-blacklist.sh - test check-blacklist.sh on changed inputs.
#
# Usage: scripts/blacklist/test-check-blacklist.sh <tree-dir> <build-dir>
#
# Each folder in scripts/blacklist/test_data/ is one case: "mutate", a shell
# snippet run inside a copy of the real inputs (tree/: the syscall tables
# and the lists of each architecture, arch/x86/kernel/indirect.c,
# arch/arm64/kernel/indirect.c and indirect32.c..., and any file added
# there, which the checker reads in place of the tree's or beside them;
# data/: those of scripts/blacklist/data/, arches.tsv among them;
# resolves/: those of scripts/blacklist/resolves/), and "expect": an "exit=<status>"
# line and then fixed strings the checker's output must contain. The cases
# in scripts/blacklist/test_data/<base>/ run only on a tree of that kernel base
# (6.1, 6.12): what only that base has. Those in
# scripts/blacklist/test_data/<arch>/ and <arch>/<base>/ (x86, arm64) check
# only that architecture, and run only when the tree's series supports it;
# the others check every architecture that it supports. Run
# scripts/blacklist/check-blacklist.sh first: it collects the real inputs, the base
# and the architectures. Prints KTAP; exits 1 if any case fails.
set -eu
STEP=test-check-blacklist
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/expect.sh"

[ $# -eq 2 ] || die "usage: $0 <tree-dir> <build-dir>"
tree=$1
build=$2
real=$build/blacklist/inputs
for f in base arches; do
	[ -f "$real/$f" ] ||
		die "no $f in $real: run scripts/blacklist/check-blacklist.sh first"
done
base=$(cat "$real/base")
arches=$(cat "$real/arches")

# A folder with a mutate file is a case; the others are the bases' and
# the architectures' folders. Not cases_begin: its plan would count those
# folders too.
top=$TOP/scripts/blacklist/test_data
cases=
count=0
for m in "$top"/*/mutate "$top/$base"/*/mutate; do
	[ -f "$m" ] || continue
	m=${m%/mutate}
	cases="$cases ${m#"$top"/}"
	count=$((count + 1))
done
for arch in $arches; do
	for m in "$top/$arch"/*/mutate "$top/$arch/$base"/*/mutate; do
		[ -f "$m" ] || continue
		m=${m%/mutate}
		cases="$cases ${m#"$top"/}"
		count=$((count + 1))
	done
done
[ "$count" -gt 0 ] || die "no cases in $top"
echo "KTAP version 1"
echo "1..$count"
n=0
failed=0
for name in $cases; do
	n=$((n + 1))
	dir=$top/$name
	scratch=$build/blacklist-test/$name
	rm -rf "$scratch"
	mkdir -p "$scratch"
	cp -R "$real/." "$scratch/"
	status=0
	(cd "$scratch" && sh -eu "$dir/mutate") || status=$?
	[ "$status" -eq 0 ] || die "$name: mutate failed with status $status"
	# A case of an architecture's folder checks that one only.
	case_arches=$arches
	for arch in $arches; do
		case $name in "$arch"/*) case_arches=$arch ;; esac
	done
	got_exit=0
	out=$(STEP_TIMES='' BLACKLIST_SCRATCH=$scratch \
		BLACKLIST_ARCHES=$case_arches "$TOP/scripts/blacklist/check-blacklist.sh" \
		"$tree" "$build" 2>/dev/null) || got_exit=$?
	expect_case "$n" "$name" "$dir/expect" "$got_exit" "$out" || failed=1
done
[ "$failed" -eq 0 ] || die "check-blacklist.sh misjudged a case (above)"
