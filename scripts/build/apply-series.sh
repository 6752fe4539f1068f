#!/bin/sh
# apply-series.sh - apply patches/series on top of the "upstream" tag.
#
# Usage: scripts/build/apply-series.sh <tree-dir> <patches-dir>
#
# The first time, the series is applied with "git am" in the build tree
# itself. After that it is applied in a second worktree (<tree-dir>.stage)
# and the build tree is then checked out at the result. Checkout rewrites
# only the files that differ, so an edit to one patch rebuilds only what
# that patch touches; a fresh tree has nothing built yet, and does without
# the 1.5 GB checkout of the second worktree. The applied commit is
# recorded so that local commits or edits in the build tree are never
# thrown away silently.
set -eu
STEP=apply-series
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: $0 <tree-dir> <patches-dir>"
tree=$(cd "$1" && pwd)
patches=$(cd "$2" && pwd)
stage=$tree.stage
applied_file=$tree/.git/harness-applied

git -C "$tree" rev-parse -q --verify upstream >/dev/null ||
	die "$tree has no 'upstream' tag; run scripts/build/prepare-tree.sh first"

if [ -f "$applied_file" ]; then
	applied=$(cat "$applied_file")
	head=$(git -C "$tree" rev-parse HEAD)
	if [ "$head" != "$applied" ] ||
	   [ -n "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
		die "$tree has commits or edits that are not in patches/;" \
		    "write them back with 'make refresh-patches', or drop them" \
		    "with 'git -C $tree reset --hard $applied'"
	fi
fi

base=$(cat "$patches/BASE")
# A rebase in the build tree keeps each commit's note (what its patch
# says below "---") on the rewritten commit.
git -C "$tree" config notes.rewriteRef refs/notes/commits

# Apply the series in the worktree $1, which is at "upstream"; $count is
# then the number of patches applied.
apply_series_in() {
	count=0
	# The series file lists patch names in order, one word each; '#'
	# starts a comment.
	# shellcheck disable=SC2013
	for name in $(sed -e 's/#.*//' "$patches/series"); do
		[ -f "$patches/$name" ] ||
			die "$patches/series names $name, which does not exist"
		if ! out=$(git -C "$1" -c user.name=harness -c user.email=harness@localhost \
				am -q --3way --keep-cr "$patches/$name" 2>&1); then
			git -C "$1" am --abort >/dev/null 2>&1 || true
			printf '%s\n' "$out" >&2
			die "patches/$name does not apply on top of $base" \
			    "(found $(cat "$tree/.git/harness-package-version"))"
		fi
		add_notes "$1" "$patches/$name"
		count=$((count + 1))
	done
}

# git am drops what a patch says below its "---" line; format-patch
# --notes wrote it there from a git note, so make it a note again, for
# refresh-patches.sh to write back.
add_notes() {
	notes=$(awk '
		/^---$/ && !dash { dash = 1; next }
		!dash { next }
		/^Notes:$/ { on = 1; next }
		on && (/^ [^ ].*[|] / || /^ [0-9]+ files? changed/ || /^diff --git/) { exit }
		on { sub(/^    /, ""); print }' "$2")
	[ -n "$notes" ] || return 0
	printf '%s\n' "$notes" | git -C "$1" -c user.name=harness -c user.email=harness@localhost \
		notes add -f -F - HEAD
}

if [ ! -f "$applied_file" ] &&
   [ "$(git -C "$tree" rev-parse HEAD)" = "$(git -C "$tree" rev-parse 'upstream^{commit}')" ] &&
   [ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
	echo "  [$STEP] fresh tree: git am in $tree"
	git -C "$tree" checkout -q --detach upstream
	apply_series_in "$tree"
	new=$(git -C "$tree" rev-parse HEAD)
else
	if [ ! -d "$stage" ]; then
		rm -rf "$stage"
		git -C "$tree" worktree prune
		run git -C "$tree" worktree add -q --detach "$stage" upstream
	fi
	git -C "$stage" am --abort >/dev/null 2>&1 || true
	git -C "$stage" checkout -q -f --detach upstream
	git -C "$stage" clean -q -f -d -x
	apply_series_in "$stage"
	new=$(git -C "$stage" rev-parse HEAD)
	run git -C "$tree" checkout -q -f --detach "$new"
fi
echo "$new" > "$applied_file"
echo "  [$STEP] applied $count patches; build tree at $(git -C "$tree" log -1 --format='%h %s')"
