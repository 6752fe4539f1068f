#!/bin/sh
# check-blacklist.sh - run check-blacklist.py on the patched tree.
#
# Usage: scripts/check-blacklist.sh <tree-dir> <build-dir>
#
# Derives from the tree which syscalls indirect() must refuse on each ABI
# and checks the blacklists in arch/x86/kernel/indirect.c against that,
# then which syscalls resolve a path name of their caller's, against the
# lists there of the calls that a RESOLVE context lets run
# (check-resolves.py, data in scripts/resolves/),
# with the data in scripts/blacklist/ (see check-blacklist.py) and, for
# the tree's kernel base (major.minor: 6.1, 6.12), what only that base
# needs, in scripts/blacklist/<base>/. No kernel build is needed. The
# inputs that the checker's own tests change (the syscall tables,
# indirect.c and the data files) are copied to
# <build-dir>/blacklist/inputs first, with the base in a file "base".
# What it parsed of the sources is kept, per version of the tree, in
# $HARNESS_CACHE (scripts/lib.sh), where another clone's run finds it,
# else in <build-dir>/blacklist/.
# Set BLACKLIST_SCRATCH to check a changed copy of the inputs instead: its
# tree/ holds files that replace or add to the tree's, its data/ the data
# files.
set -eu
STEP=check-blacklist
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: $0 <tree-dir> <build-dir>"
tree=$1
build=$2

in=${BLACKLIST_SCRATCH:-$build/blacklist/inputs}
if [ -z "${BLACKLIST_SCRATCH:-}" ]; then
	rm -rf "$in"
	mkdir -p "$in/tree/arch/x86/entry/syscalls" "$in/tree/arch/x86/kernel"
	for f in arch/x86/entry/syscalls/syscall_32.tbl \
		arch/x86/entry/syscalls/syscall_64.tbl arch/x86/kernel/indirect.c; do
		cp "$tree/$f" "$in/tree/$f" || die "no $f in $tree: is the series applied?"
	done
	cp -R "$TOP/scripts/blacklist" "$in/data"
	cp -R "$TOP/scripts/resolves" "$in/resolves"
fi
if [ ! -d "$in/tree" ] || [ ! -d "$in/data" ] || [ ! -d "$in/resolves" ]; then
	die "no inputs in $in"
fi

version=$(cat "$tree/.git/harness-package-version" 2>/dev/null) || version=unknown
base=$(kernel_base "$tree")
# For the tests' cases that apply to one base only.
[ -n "${BLACKLIST_SCRATCH:-}" ] || echo "$base" > "$in/base"
cache=${HARNESS_CACHE:-$build/blacklist}/blacklist-sources-$version.cache
run python3 "$TOP/scripts/check-blacklist.py" --tree "$tree" --base "$base" \
	--overlay "$in/tree" --data "$in/data" --cache "$cache"
# The same graph with other sinks: the calls that resolve their caller's
# path names, against the lists of what may run under a RESOLVE context.
run python3 "$TOP/scripts/check-resolves.py" --tree "$tree" --base "$base" \
	--overlay "$in/tree" --data "$in/resolves" --cache "$cache.resolves"
