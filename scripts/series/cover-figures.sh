#!/bin/sh
# cover-figures.sh - write into a cover letter the figures that come from
# the tree, so that none of them is typed by hand.
#
# Usage: scripts/series/cover-figures.sh [--check] <tree-dir> <cover-letter>
#
# <tree-dir> is build/<base>/linux with the series applied as commits on
# top of its "upstream" tag; the figures are those of upstream..HEAD:
#
#   the Subject     "[PATCH v7 00/12]": the number of commits, and the
#                   same denominator in every "k/12" of the text. Which
#                   patch a "k" names stays the author's to say: a changed
#                   count, or a "k" past it, is reported.
#   the sentence    "The port adds <N> lines, <M> of them <file>" (its
#                   words may wrap): N the lines that the series adds, M
#                   those that it adds to <file>.
#   the base        "package version <version> (Linux <x.y.z>)": the
#                   Debian package that prepare-tree.sh recorded in the
#                   tree, and the version of the tree's upstream Makefile.
#   the end         what "git format-patch --cover-letter" puts below the
#                   blurb: the shortlog (git shortlog -w72,2,4) and the
#                   diffstat (git diff --stat=72), everything from the
#                   shortlog's first line, or the diffstat's when there is
#                   no shortlog, to the end of the file.
#
# The anchors are the text itself, so that a second run changes nothing.
# Without --check the cover letter is rewritten in place when it differs.
# With --check nothing is written: the script prints a diff of the letter
# against the figures of the tree and exits 1 if they disagree.
#
# Then the figures of the "Cost" section, which come from the bench
# results of the tree's base, build/<base>/bench next to <tree-dir>, go
# the same way through scripts/series/cover_costs.py (see there): written,
# or compared with --check, when those results are there; when they are
# not, it says that the Cost figures are not written (or not checked).
# Neither is a failure here: a bench run's figures move a little from one
# run to the next (arm64's, some of i386's). "make cover-costs" writes
# them, and fails without results.
set -eu
STEP=cover-figures
. "$(dirname "$0")/../lib.sh"

check=
if [ "${1:-}" = --check ]; then
	check=yes
	shift
fi
[ $# -eq 2 ] || die "usage: $0 [--check] <tree-dir> <cover-letter>"
tree=$(cd "$1" 2>/dev/null && pwd -P) || die "tree $1 not found"
letter=$2
[ -f "$letter" ] || die "cover letter $letter not found"

[ "$(git -C "$tree" rev-parse --show-toplevel 2>/dev/null)" = "$tree" ] ||
	die "$tree is not the top of a git tree; give build/<base>/linux"
git -C "$tree" rev-parse -q --verify 'upstream^{commit}' >/dev/null ||
	die "$tree has no 'upstream' tag; run scripts/build/prepare-tree.sh first"
count=$(git -C "$tree" rev-list --count upstream..HEAD) ||
	die "git rev-list upstream..HEAD failed in $tree"
[ "$count" -gt 0 ] ||
	die "$tree has no commits on top of 'upstream'; apply the series first"
if [ -f "$tree/.git/harness-applied" ] &&
   [ "$(cat "$tree/.git/harness-applied")" != "$(git -C "$tree" rev-parse HEAD)" ]; then
	warn "$tree has commits that are not in patches/ (make refresh-patches);" \
	     "the figures are those of its HEAD"
fi

bench=$(dirname "$tree")/bench
costs="$(dirname "$0")/cover_costs.py"

scratch_dir
work=$scratch

# What the tree says: its base, the lines added per file, and the end of
# the letter.
package=$(cat "$tree/.git/harness-package-version") ||
	die "$tree has no package version; run scripts/build/prepare-tree.sh first"
linux=$(git -C "$tree" show upstream:Makefile | awk -F ' *= *' '
	$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
	$1 == "SUBLEVEL" { s = $2 } $1 == "EXTRAVERSION" { x = $2; exit }
	END { if (v != "") print v "." p "." s x }')
[ -n "$linux" ] || die "no VERSION in $tree's upstream Makefile"
git -C "$tree" diff --no-ext-diff --numstat upstream..HEAD >"$work/numstat" ||
	die "git diff --numstat upstream..HEAD failed in $tree"
{
	git -C "$tree" shortlog -w72,2,4 upstream..HEAD </dev/null &&
		git -C "$tree" diff --no-ext-diff --no-color --stat=72 upstream..HEAD
} >"$work/block" || die "git shortlog or git diff --stat failed in $tree"

# The letter with the tree's figures. Problems that no rewrite can mend go
# to $work/notes, one a line; an anchor that is missing stops the script.
awk -F '\t' -v count="$count" -v package="$package" -v linux="$linux" \
	-v notes="$work/notes" -v where="$STEP: $letter" '
	function fail(msg) { print where ": " msg > "/dev/stderr"; exit 2 }
	# 2549 as "2,549", as the text writes its figures.
	function commas(n,   s, r) {
		for (s = n ""; length(s) > 3; s = substr(s, 1, length(s) - 3))
			r = "," substr(s, length(s) - 2) r
		return s r
	}
	FILENAME == ARGV[1] { if ($1 != "-") added[$3] = $1; total += $1; next }
	FILENAME == ARGV[2] { block = block $0 "\n"; next }
	{ L[++n] = $0 }
	END {
		# The header: up to the first empty line.
		for (h = 1; h <= n && L[h] != ""; h++)
			if (L[h] ~ /^Subject: \[PATCH[^]]* [0-9]+\/[0-9]+\]/) subj = h
		if (!subj)
			fail("no \"Subject: [PATCH ... 00/<count>]\" line in the header")
		match(L[subj], /[0-9]+\/[0-9]+\]/)
		frac = substr(L[subj], RSTART, RLENGTH - 1)
		old = substr(frac, index(frac, "/") + 1)
		zeros = sprintf("%" length(count) "s", ""); gsub(/ /, "0", zeros)
		L[subj] = substr(L[subj], 1, RSTART - 1) zeros "/" count \
			substr(L[subj], RSTART + RLENGTH - 1)
		if (old != count)
			print "the series has " count " patches, the letter said " old \
				": check which patch each k/" count " of the text names" > notes

		# The end: the diffstat, and the shortlog blocks above it.
		for (e = n; e > h && L[e] == ""; e--) ;
		if (L[e] !~ /^ [0-9]+ files? changed/)
			fail("the letter does not end with a diffstat (\" N files changed, ...\")")
		for (s = e; s - 1 > h && L[s - 1] ~ /^ .*\|/; s--) ;
		while (s - 1 > h && L[s - 1] == "") {
			for (k = s - 2; k > h && L[k] ~ /^  /; k--) ;
			if (k > h && k < s - 2 && L[k] ~ /^[^ ].* \([0-9]+\):$/) s = k
			else break
		}
		for (e = s - 1; e > h && L[e] == ""; e--) ;

		# The text between: the sentence and the patch numbers.
		text = ""
		for (i = h + 1; i <= e; i++) text = text L[i] "\n"
		out = ""; found = 0
		re = "The[ \n]+port[ \n]+adds[ \n]+[0-9][0-9,]*[ \n]+lines,[ \n]+[0-9][0-9,]*[ \n]+of[ \n]+them[ \n]+[A-Za-z0-9_./-]*[A-Za-z0-9_]"
		while (match(text, re)) {
			m = substr(text, RSTART, RLENGTH)
			out = out substr(text, 1, RSTART - 1)
			text = substr(text, RSTART + RLENGTH)
			match(m, /[^ \n]+$/); file = substr(m, RSTART)
			if (!(file in added))
				fail("the series adds no lines to " file \
					", which \"The port adds ... of them " file "\" names")
			match(m, /[0-9][0-9,]*/)
			m = substr(m, 1, RSTART - 1) commas(total) substr(m, RSTART + RLENGTH)
			match(m, /lines,[ \n]+/); p = RSTART + RLENGTH
			rest = substr(m, p); match(rest, /[0-9][0-9,]*/)
			out = out substr(m, 1, p - 1) substr(rest, 1, RSTART - 1) \
				commas(added[file]) substr(rest, RSTART + RLENGTH)
			found++
		}
		text = out text
		if (!found)
			fail("no \"The port adds <N> lines, <M> of them <file>\" sentence in the text")
		out = ""; found = 0
		re = "package[ \n]+version[ \n]+[^ \n]+[ \n]+\\(Linux[ \n]+[^ \n)]+\\)"
		while (match(text, re)) {
			m = substr(text, RSTART, RLENGTH)
			out = out substr(text, 1, RSTART - 1)
			text = substr(text, RSTART + RLENGTH)
			match(m, /version[ \n]+/); p = RSTART + RLENGTH
			rest = substr(m, p); match(rest, /[^ \n]+/)
			m = substr(m, 1, p - 1) package substr(rest, RLENGTH + 1)
			match(m, /Linux[ \n]+/)
			out = out substr(m, 1, RSTART + RLENGTH - 1) linux ")"
			found++
		}
		text = out text
		if (!found)
			fail("no \"package version <version> (Linux <x.y.z>)\" in the text")
		out = ""
		while (match(text, /[0-9]+\/[0-9]+/)) {
			m = substr(text, RSTART, RLENGTH)
			before = substr(text, RSTART - 1, RSTART > 1)
			after = substr(text, RSTART + RLENGTH, 1)
			out = out substr(text, 1, RSTART - 1)
			text = substr(text, RSTART + RLENGTH)
			k = substr(m, 1, index(m, "/") - 1)
			# Not a part of 6.1/12 or 1/12/2007.
			if (substr(m, index(m, "/") + 1) == old && before !~ /[.\/]/ && after != "/") {
				m = k "/" count
				if (k + 0 > count + 0 || k + 0 < 1)
					print "the text names patch " m ", which the series does not have" > notes
			}
			out = out m
		}
		text = out text

		for (i = 1; i <= h; i++) print L[i]
		printf "%s\n%s", text, block
	}' "$work/numstat" "$work/block" "$letter" >"$work/letter" ||
	die "could not write the figures into $letter (above)"

notes=$( [ ! -f "$work/notes" ] || sort -u "$work/notes")
if [ -n "$check" ]; then
	fix="scripts/series/cover-figures.sh $tree $letter"
	[ ! -f "$tree/.git/harness-package-version" ] ||
		fix="make cover-letter BASE=$(kernel_base "$tree")"
	# Both checks run, and either fails the script.
	status=0
	if ! diff -u --label "$letter" --label "$letter, from $tree" \
			"$letter" "$work/letter"; then
		[ -z "$notes" ] || printf '%s\n' "$notes" | sed "s/^/$STEP: /" >&2
		printf '%s: error: figures of %s disagree with %s (diff above);' \
			"$STEP" "$letter" "$tree" >&2
		printf ' write them with: %s\n' "$fix" >&2
		status=1
	elif [ -n "$notes" ]; then
		printf '%s: error: %s\n' "$STEP" "$notes" >&2
		status=1
	else
		echo "  [$STEP] $letter: figures agree with $tree ($count patches)"
	fi
	# Advice, not a failure: arm64's figures and a few of i386's move by
	# an instruction or a few from one bench run to the next, so the
	# letter of one run disagrees with the results of the next. The
	# goals themselves are bench-check's.
	"$costs" --check --if-results "$bench" "$letter" ||
		echo "  [$STEP] $letter: the Cost figures differ from the last bench run in $bench (see above); write them with: make cover-costs"
	exit "$status"
fi
[ -z "$notes" ] || printf '%s\n' "$notes" | while IFS= read -r note; do warn "$note"; done
if cmp -s "$letter" "$work/letter"; then
	echo "  [$STEP] $letter: figures already agree with $tree ($count patches)"
else
	cat "$work/letter" >"$letter"
	echo "  [$STEP] $letter: figures written from $tree ($count patches)"
fi
"$costs" --if-results "$bench" "$letter" || exit 1
