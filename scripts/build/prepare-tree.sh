#!/bin/sh
# prepare-tree.sh - extract Debian's linux-source into a throwaway git repo.
#
# Usage: scripts/build/prepare-tree.sh <tarball> <tree-dir> <BASE-file>
#
# The tree is extracted once and committed as the "upstream" tag, so that
# apply-series.sh can "git am" the series on top of it and
# refresh-patches.sh can write edited commits back to patches/.
# The Debian package is the tarball's name (/usr/src/linux-source-6.12.tar.xz
# comes from linux-source-6.12). Prints the version found, and warns when it
# is not the tested one that <BASE-file> (patches/<base>/BASE) names.
#
# The first extraction of a package version also keeps the repository, bare,
# in $HARNESS_CACHE (scripts/lib.sh; empty: no cache), as
# ccache keeps objects: a second clone of this repository, or a "make
# distclean", then clones it (its objects hardlinked on the same file
# system) and checks it out, instead of decompressing the tarball and
# hashing its 75,000 files again.
set -eu
STEP=prepare-tree
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || die "usage: $0 <tarball> <tree-dir> <BASE-file>"
tarball=$1
tree=$2
pkg=$(basename "$tarball" .tar.xz)

[ -f "$tarball" ] ||
	die "$tarball not found; install Debian's $pkg package (make deps)"

pkg_version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) ||
	pkg_version=unknown
tested=$(cat "$3") || die "cannot read $3, which names the tested package version"

recorded=$(cat "$tree/.git/harness-package-version" 2>/dev/null) || recorded=
if [ -n "$recorded" ] && [ "$recorded" != "$pkg_version" ]; then
	echo "  [$STEP] linux-source changed from $recorded to $pkg_version: extracting again"
	recorded=
fi
cached=${HARNESS_CACHE:+$HARNESS_CACHE/${pkg}_$pkg_version.git}

# Extract the tarball into $tree and commit it as "upstream".
extract() {
	rm -rf "$tree" "$tree.extract"
	mkdir -p "$tree.extract"
	extracted() { echo "$(find "$tree.extract" -type f | wc -l) files extracted"; }
	progress_begin "tar" extracted
	run tar -C "$tree.extract" -xf "$tarball"
	top=$(ls "$tree.extract")
	[ "$(echo "$top" | wc -l)" -eq 1 ] || die "unexpected layout in $tarball"
	mv "$tree.extract/$top" "$tree"
	rmdir "$tree.extract"
	# Debian's .gitignore ignores the top level, hence "add -f".
	added() { echo "$(du -sm "$tree/.git" | cut -f1) MB of objects"; }
	progress_begin "git add and commit" added
	run git -C "$tree" init -q
	run git -C "$tree" add -f -A
	git -C "$tree" -c user.name=harness -c user.email=harness@localhost \
		commit -q -m "$pkg $pkg_version as extracted" ||
		die "could not commit the extracted tree"
	git -C "$tree" tag upstream
	progress_end
}

# Keep $tree's repository in the cache, bare; a clone running meanwhile
# may have done so first. Without a cache that can be written, only warn.
keep_in_cache() {
	[ -n "$cached" ] && [ ! -e "$cached" ] || return 0
	tmp=$cached.$$
	{ mkdir -p "$HARNESS_CACHE" &&
	  run git clone -q --bare --local "$tree" "$tmp" &&
	  echo "$pkg_version" >"$tmp/harness-package-version" &&
	  { mv -T "$tmp" "$cached" 2>/dev/null || [ -e "$cached" ]; }; } ||
		warn "could not keep the tree in $HARNESS_CACHE; the next clone extracts it again"
	rm -rf "$tmp"
}

# Clone $tree from the cache; false if the cache has no good copy.
clone_from_cache() {
	[ -n "$cached" ] &&
		[ "$(cat "$cached/harness-package-version" 2>/dev/null)" = "$pkg_version" ] &&
		git -C "$cached" rev-parse -q --verify 'upstream^{commit}' >/dev/null ||
		return 1
	rm -rf "$tree"
	checked_out() { echo "$(find "$tree" -path "$tree/.git" -prune -o -type f -print | wc -l) files checked out"; }
	progress_begin "git clone from $cached" checked_out
	run git clone -q --local "$cached" "$tree" || {
		warn "could not clone $cached; extracting the tarball"
		return 1
	}
	progress_end
}

if [ -z "$recorded" ] || ! git -C "$tree" rev-parse -q --verify upstream >/dev/null; then
	clone_from_cache || {
		extract
		keep_in_cache
	}
	echo "$pkg_version" > "$tree/.git/harness-package-version"
fi

kver=$(make -s -C "$tree" kernelversion)
found="$pkg $(cat "$tree/.git/harness-package-version")"
echo "  [$STEP] kernel source: $found (Linux $kver) in $tree"
[ "$found" = "$tested" ] ||
	warn "found $found, but the series is tested on $tested; expect trouble"
