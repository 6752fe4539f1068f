#!/bin/sh
# check-blacklist.sh - run check_blacklist.py and check_resolves.py on the
# patched tree.
#
# Usage: scripts/blacklist/check-blacklist.sh <tree-dir> <build-dir>
#
# What this is: a tripwire against a reviewed baseline, not a derivation.
# The checkers read the sources as text and find calls by name; they
# ignore the kernel configuration, follow no data, and cannot see through
# function pointers beyond the edges added by hand in
# scripts/blacklist/data/edges.tsv. What they flag and the reviewed data
# (exceptions, readers, diagnostics, other reasons) must agree with the
# lists in the tree: a new kernel base, a new syscall, a changed list or
# a changed review trips it. A pass does not prove a list complete.
#
# For every architecture that the tree's series supports (those of
# scripts/blacklist/data/arches.tsv whose Kconfig selects
# ARCH_HAS_INDIRECT_SYSCALL: x86, arm64), flags the syscalls that may
# touch the caller's register frame or never return, on each ABI, and
# checks the blacklists that arches.tsv names (x86:
# arch/x86/kernel/indirect.c; arm64: arch/arm64/kernel/indirect.c and
# indirect32.c) against them, then the syscalls that take a path name of
# their caller's, against the lists there of the calls that a RESOLVE
# context lets run (check_resolves.py, data in
# scripts/blacklist/resolves/), with the data in scripts/blacklist/data/
# (see check_blacklist.py) and, for the tree's kernel base (major.minor:
# 6.1, 6.12) and architecture, what only those need, in its <base>/,
# <arch>/ and <arch>/<base>/. Both checks run, and the run fails if either
# does. No kernel build is needed. The inputs that the checker's own tests
# change (the syscall tables, the lists and the data files) are copied to
# <build-dir>/blacklist/inputs first, with the base in a file "base" and
# the architectures checked in "arches".
# The index of the sources (every definition, and who calls what) is kept,
# per version of the tree, in $HARNESS_CACHE (scripts/lib.sh), where
# another clone's run finds it, else in <build-dir>/blacklist/; one index
# serves every architecture and both checkers. Building it parses some
# 12,500 files (about 15 s of CPU); a run with it takes under a second.
# Set BLACKLIST_SCRATCH to check a changed copy of the inputs instead: its
# tree/ holds files that replace or add to the tree's, its data/ the data
# files. Set BLACKLIST_ARCHES to check only those of the architectures
# (space-separated).
set -eu
STEP=check-blacklist
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: $0 <tree-dir> <build-dir>"
tree=$1
build=$2

base=$(kernel_base "$tree")
in=${BLACKLIST_SCRATCH:-$build/blacklist/inputs}
if [ -z "${BLACKLIST_SCRATCH:-}" ]; then
	rm -rf "$in"
	mkdir -p "$in/tree"
	cp -R "$TOP/scripts/blacklist/data" "$in/data"
	cp -R "$TOP/scripts/blacklist/resolves" "$in/resolves"
	# The architectures of the series, each with the files of the tree
	# that its checks read: "<arch><TAB><file>" lines.
	run python3 "$TOP/scripts/blacklist/check_blacklist.py" --tree "$tree" \
		--base "$base" --data "$in/data" --inputs > "$in/inputs.tsv" ||
		die "cannot tell the inputs of $tree (above)"
	[ -s "$in/inputs.tsv" ] ||
		die "no architecture of arches.tsv in the series of $tree: is the series applied?"
	tab=$(printf '\t')
	while IFS=$tab read -r arch f; do
		mkdir -p "$in/tree/$(dirname "$f")"
		cp "$tree/$f" "$in/tree/$f" ||
			die "no $f in $tree for $arch: is the series applied?"
	done < "$in/inputs.tsv"
	cut -f1 "$in/inputs.tsv" | uniq | paste -s -d ' ' - > "$in/arches"
	# For the tests' cases that apply to one base only.
	echo "$base" > "$in/base"
fi
if [ ! -d "$in/tree" ] || [ ! -d "$in/data" ] || [ ! -d "$in/resolves" ] ||
	[ ! -f "$in/arches" ]; then
	die "no inputs in $in"
fi

arches=${BLACKLIST_ARCHES:-$(cat "$in/arches")}
set --
for arch in $arches; do
	set -- "$@" --arch "$arch"
done
[ $# -gt 0 ] || die "no architecture to check"

version=$(cat "$tree/.git/harness-package-version" 2>/dev/null) ||
	version=unknown-$base
# A name of its own: the pickled parses of earlier versions
# (blacklist-sources-*.cache) are no index.
cache=${HARNESS_CACHE:-$build/blacklist}/blacklist-index-$version
failed=
run python3 "$TOP/scripts/blacklist/check_blacklist.py" --tree "$tree" --base "$base" \
	--overlay "$in/tree" --data "$in/data" --arches "$in/data/arches.tsv" \
	--cache "$cache" "$@" || failed="check_blacklist.py"
# The same graph with other sinks: the calls that resolve their caller's
# path names, against the lists of what may run under a RESOLVE context.
run python3 "$TOP/scripts/blacklist/check_resolves.py" --tree "$tree" --base "$base" \
	--overlay "$in/tree" --data "$in/resolves" \
	--arches "$in/data/arches.tsv" --cache "$cache" "$@" ||
	failed="${failed:+$failed and }check_resolves.py"
[ -z "$failed" ] || die "$failed failed for $arches on $tree (above)"
