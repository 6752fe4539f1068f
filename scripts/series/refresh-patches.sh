#!/bin/sh
# refresh-patches.sh - write the build tree's commits back to patches/.
#
# Usage: scripts/series/refresh-patches.sh <tree-dir> <patches-dir>
#
# Edit the series in <tree-dir> with ordinary git (commit --amend, rebase -i,
# new commits), then run this: every commit since the "upstream" tag becomes
# <patches-dir>/NNNN-<subject>.patch again (git format-patch, with zeroed commit
# ids so that unchanged patches stay byte-for-byte the same; a commit's git
# note, which apply-series.sh makes of what a patch says below its "---"
# line, goes back there). The series
# file keeps its comment lines; the i-th patch name is replaced by the new
# i-th patch, and extra patches are appended.
set -eu
STEP=refresh-patches
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: $0 <tree-dir> <patches-dir>"
tree=$(cd "$1" && pwd)
patches=$(cd "$2" && pwd)

[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes; commit them first"

scratch_dir
out=$scratch
run git -C "$tree" format-patch -q -n --zero-commit --no-signature --notes \
	-o "$out" upstream..HEAD
new=$(cd "$out" && for f in *.patch; do [ ! -f "$f" ] || echo "$f"; done)

# Each new patch goes where the old one of its place in the series was:
# into <patches-dir>, or, for a patch that the series names as ../<name>
# (one that every base shares), into <patches-dir>/..; extra patches go
# into <patches-dir>. Old patches go; the cover letter and other files
# stay. A patch whose change is the old one's, where only the blob ids
# of its "index" lines and the line numbers and function names of its
# hunk headers differ, keeps the old file: refreshing one base leaves
# alone what the other base's series shares with it.
mkdir "$out/old"
# shellcheck disable=SC2013
for name in $(sed -e 's/#.*//' "$patches/series"); do
	[ ! -f "$patches/$name" ] || mv "$patches/$name" "$out/old/$(basename "$name")"
done
printf '%s\n' "$new" | awk -v series="$patches/series" '
	{ new[++n] = $0 }
	END {
		i = 0
		while ((getline line < series) > 0) {
			name = line; sub(/#.*/, "", name); gsub(/[ \t]/, "", name)
			if (name == "") { print line; continue }
			dir = name; if (!sub(/[^\/]*$/, "", dir)) dir = ""
			if (++i <= n) print dir new[i]
		}
		for (i++; i <= n; i++) print new[i]
	}' > "$out/series"
# The same change, but for where it applies.
change_of() {
	sed -e '/^index [0-9a-f]*\.\.[0-9a-f]*/d' \
		-e 's/^@@ -[0-9,]* +[0-9,]* @@.*/@@/' "$1"
}
# shellcheck disable=SC2013
for name in $(sed -e 's/#.*//' "$out/series"); do
	new_file=$out/$(basename "$name")
	old_file=$out/old/$(basename "$name")
	if [ -f "$old_file" ] && [ "$(change_of "$old_file")" = "$(change_of "$new_file")" ]; then
		cp "$old_file" "$patches/$name"
	else
		cp "$new_file" "$patches/$name"
	fi
done
mv "$out/series" "$patches/series"
git -C "$tree" rev-parse HEAD > "$tree/.git/harness-applied"
echo "  [$STEP] wrote $(printf '%s\n' "$new" | grep -c . || true) patches to $patches"
