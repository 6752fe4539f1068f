#!/bin/sh
# export-unpatched.sh - write out the unpatched tree for the comparison kernels.
#
# Usage: scripts/upstream/export-unpatched.sh <tree-dir> <out-dir>
#
# Exports the build tree's "upstream" tag (its first commit: the Debian
# tree as extracted, before the series) into <out-dir>, through an index
# file of its own, so that the build tree's index, worktrees and status
# stay as they are. <out-dir>/.harness-commit records the commit; when it
# already matches, nothing is done.
set -eu
STEP=export-unpatched
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: $0 <tree-dir> <out-dir>"
tree=$(cd "$1" 2>/dev/null && pwd) || die "build tree $1 not found; run scripts/build/prepare-tree.sh"
out=$(absdir "$(dirname "$2")")/$(basename "$2")

commit=$(git -C "$tree" rev-parse -q --verify 'upstream^{commit}') ||
	die "$tree has no 'upstream' tag; run scripts/build/prepare-tree.sh first"
short=$(echo "$commit" | cut -c1-12)
if [ "$(cat "$out/.harness-commit" 2>/dev/null)" = "$commit" ]; then
	echo "  [$STEP] $out is already at upstream ($short)"
	exit 0
fi

rm -rf "$out" "$out.tmp" "$out.index"
mkdir -p "$out.tmp"
run env GIT_INDEX_FILE="$out.index" git -C "$tree" read-tree "$commit" ||
	die "cannot read commit $short of $tree"
run env GIT_INDEX_FILE="$out.index" git -C "$tree" checkout-index -a \
	--prefix="$out.tmp/" || die "cannot export commit $short into $out.tmp"
rm -f "$out.index"
{ [ -f "$out.tmp/Makefile" ] && [ -d "$out.tmp/arch/x86" ]; } ||
	die "$out.tmp does not look like a kernel tree after the export"
echo "$commit" > "$out.tmp/.harness-commit"
mv "$out.tmp" "$out"
echo "  [$STEP] unpatched tree (upstream, $short) in $out"
