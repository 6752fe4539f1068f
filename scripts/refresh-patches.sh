#!/bin/sh
# refresh-patches.sh - write the build tree's commits back to patches/.
#
# Usage: scripts/refresh-patches.sh <tree-dir> <patches-dir>
#
# Edit the series in <tree-dir> with ordinary git (commit --amend, rebase -i,
# new commits), then run this: every commit since the "upstream" tag becomes
# patches/NNNN-<subject>.patch again (git format-patch, with zeroed commit
# ids so that unchanged patches stay byte-for-byte the same; a commit's git
# note, which apply-series.sh makes of what a patch says below its "---"
# line, goes back there). The series
# file keeps its comment lines; the i-th patch name is replaced by the new
# i-th patch, and extra patches are appended.
set -eu
STEP=refresh-patches
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: $0 <tree-dir> <patches-dir>"
tree=$(cd "$1" && pwd)
patches=$(cd "$2" && pwd)

[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes; commit them first"

out=$(mktemp -d)
remove_scratch() { rm -rf "$out"; }
at_exit remove_scratch
run git -C "$tree" format-patch -q -n --zero-commit --no-signature --notes \
	-o "$out" upstream..HEAD
new=$(cd "$out" && for f in *.patch; do [ ! -f "$f" ] || echo "$f"; done)

# Old patches go; the cover letter and other files stay.
# shellcheck disable=SC2013
for name in $(sed -e 's/#.*//' "$patches/series"); do
	rm -f "$patches/$name"
done
[ -z "$new" ] || cp "$out"/*.patch "$patches/"

printf '%s\n' "$new" | awk -v series="$patches/series" '
	{ new[++n] = $0 }
	END {
		i = 0
		while ((getline line < series) > 0) {
			name = line; sub(/#.*/, "", name); gsub(/[ \t]/, "", name)
			if (name == "") { print line; continue }
			if (++i <= n) print new[i]
		}
		for (i++; i <= n; i++) print new[i]
	}' > "$out/series"
mv "$out/series" "$patches/series"
git -C "$tree" rev-parse HEAD > "$tree/.git/harness-applied"
echo "  [$STEP] wrote $(printf '%s\n' "$new" | grep -c . || true) patches to $patches"
