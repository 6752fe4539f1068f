#!/bin/sh
# check-series.sh - apply the series patch by patch to a fresh tree, and
# check that each patch builds, adds no W=1 warning and passes checkpatch.
#
# Usage: scripts/series/check-series.sh [--upto N] <tree-dir> <patches-dir> <out-dir>
#
# <out-dir>/linux is a git worktree of <tree-dir> (the extracted tree,
# whose first commit is tagged "upstream"), reset to "upstream" at the
# start of every run, so the patches go onto a fresh tree and <tree-dir>'s
# own checkout is left alone. The patches of <patches-dir>/series (the
# first N with --upto N) are applied one at a time with "git am", and after
# each one:
#
#   checkpatch  the tree's scripts/checkpatch.pl --strict on the patch file.
#               An ERROR fails. A WARNING or CHECK fails unless the patch
#               gives its reason below its "---" line, where "git am"
#               leaves it out of the commit, one line per kind of message:
#                   checkpatch: <TYPE or message text> -- <reason>
#               for example
#                   checkpatch: OPEN_ENDED_LINE -- the layout of TRACE_EVENT()
#               (scripts/series/checkpatch.sh). It runs first, as it is
#               the cheapest step.
#   build       both kernels, i386 and x86_64, configured as "make" does
#               from scripts/build/kconfig (less the options the tree does not
#               define yet; scripts/series/configure.sh, again after a patch
#               that changes a Kconfig file) and built side by side by
#               scripts/build/build-kernels.sh in <out-dir>/<target>, kbuild's
#               incremental O= folders, with ccache when it is installed.
#   W=1         every .c file that the series changes so far (git diff
#               upstream..HEAD) and whose object is in the target's build
#               folder is compiled again with W=1 (scripts/series/
#               w1-warnings.sh); a warning that the same object did not
#               have at "upstream" fails. This baseline is taken before the
#               first patch, for the .c files that the patches change, and
#               a warning is known by its file and text, not its line.
#
# The first failure stops the run: it names the patch, the step and why
# (the build errors, the new warnings, the checkpatch messages), exits 1
# and leaves the worktree at that patch (before it, if it does not apply).
# Nothing is stamped: a second run starts again from "upstream", and kbuild
# rebuilds only what changed.
# The lists here ($all, $names, $files, $specs, $TARGETS) are of words
# without spaces: they are split on purpose.
# shellcheck disable=SC2086
set -eu
STEP=check-series
. "$(dirname "$0")/../lib.sh"

TARGETS="i386 x86_64"

upto=
if [ "${1:-}" = --upto ]; then
	[ $# -ge 2 ] || die "--upto needs a number"
	upto=$2
	shift 2
	case $upto in
	'' | *[!0-9]* | 0) die "--upto wants a number of patches, not '$upto'" ;;
	esac
fi
[ $# -eq 3 ] || die "usage: $0 [--upto N] <tree-dir> <patches-dir> <out-dir>"
tree=$(cd "$1" 2>/dev/null && pwd -P) || die "tree $1 not found; run scripts/build/prepare-tree.sh"
patches=$(cd "$2" 2>/dev/null && pwd) || die "patches folder $2 not found"
out=$(absdir "$3")
wt=$out/linux
logs=$out/logs
mkdir -p "$logs"
# The worktree is reset and cleaned at every run: never the tree itself.
{ [ ! -d "$wt/.git" ] && [ "$(cd "$wt" 2>/dev/null && pwd -P)" != "$tree" ]; } ||
	die "$wt is a repository of its own, not a worktree: choose another <out-dir>"

git -C "$tree" rev-parse -q --verify 'upstream^{commit}' >/dev/null ||
	die "$tree has no 'upstream' tag; run scripts/build/prepare-tree.sh first"

# The series file lists patch names in order; '#' starts a comment.
all=$(sed -e 's/#.*//' "$patches/series")
total=$(echo $all | wc -w)
[ "$total" -gt 0 ] || die "$patches/series lists no patches"
names=
count=0
for name in $all; do
	[ -f "$patches/$name" ] || die "$patches/series names $name, which does not exist"
	[ -z "$upto" ] || [ "$count" -lt "$upto" ] || break
	names="$names $name"
	count=$((count + 1))
done

# The progress lines say where the run is (build-kernels.sh says its own
# while it builds).
phase() { cat "$out/.phase" 2>/dev/null || true; }
set_phase() { echo "$1" >"$out/.phase"; }
set_phase "starting"
progress_begin "where" phase

# Print a command, then run it with its output in the file $1.
run_to() {
	log=$1
	shift
	printf '  [%s] %s > %s\n' "$STEP" "$*" "$log" >&2
	"$@" >"$log" 2>&1
}

# Seconds since $1, as "1m05s".
elapsed() {
	s=$(($(date +%s) - $1))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

# Stop the run: $1 says where, $2 which step, $3 why.
fail() {
	printf '\ncheck-series: FAILED at %s, step %s:\n%s\n' "$1" "$2" "$3"
	echo "check-series: $wt is left at $(git -C "$wt" log -1 --format='%h %s')"
	exit 1
}

# Configure every target for the tree as it is, side by side, as each is
# mostly one serial kconfig run; $1 says where in the series, for a failure.
configure_targets() {
	for t in $TARGETS; do
		printf '  [%s] %s > %s\n' "$STEP" "scripts/series/configure.sh $t $wt $out/$t" \
			"$logs/configure-$t.log" >&2
		"$TOP/scripts/series/configure.sh" "$t" "$wt" "$out/$t" \
			>"$logs/configure-$t.log" 2>&1 &
		eval "pid_$t=$!"
	done
	failed=
	for t in $TARGETS; do
		eval "wait \$pid_$t" || failed="$failed $t"
		grep '^  \[series-configure\] [^/]' "$logs/configure-$t.log" || true
	done
	[ -z "$failed" ] || fail "$1" "configure (${failed# })" \
		"$(for t in $failed; do tail -n 15 "$logs/configure-$t.log"; done)"
}

# The first lines of a build log that say what failed: the compiler's,
# the linker's, modpost's and objtool's errors, and make's for the target.
first_errors() {
	grep -E -m 15 -e ': (fatal )?error: |undefined reference|^ld: |^ERROR: ' \
		-e '\] Error 1$' "$1"
}

# The warnings of the result file $2 that the baseline $1 does not have,
# as printed, with the .c file they came from when they are in a header.
# A warning that an object now has twice and had once is new once.
new_warnings() {
	awk -F '\t' -v base="$1" 'FILENAME == base { seen[$1 FS $2]++; next }
		seen[$1 FS $2]-- > 0 { next }
		{
			c = $1
			sub(/\.o$/, ".c", c)
			print index($3, c ":") == 1 ? $3 : $3 " (compiling " c ")"
		}' "$1" "$2"
}

# The fresh tree: a worktree of $tree at "upstream". A worktree left by a
# tree since extracted again (prepare-tree.sh) is made anew.
run_start=$(date +%s)
common=$(cd "$wt" 2>/dev/null &&
	git rev-parse --path-format=absolute --git-common-dir 2>/dev/null) || common=
if [ -e "$wt" ] && [ "$common" != "$tree/.git" ]; then
	run rm -rf "$wt"
fi
if [ ! -e "$wt" ]; then
	run git -C "$tree" worktree prune
	run git -C "$tree" worktree add -q --detach "$wt" upstream
else
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	run git -C "$wt" checkout -q -f --detach upstream
	run git -C "$wt" clean -q -f -d -x
fi

echo "check-series: $count of the $total patches of $patches/series, on $(git -C "$wt" log -1 --format='upstream (%h %s)')"
echo "check-series: worktree $wt, builds in $out/<target>, logs in $logs"

# The baseline: the W=1 warnings, at "upstream", of the objects of the .c
# files that the patches change and that exist there. A file that the
# configuration does not build at "upstream" has none.
start=$(date +%s)
base_files=$(for name in $names; do
		sed -n 's|^diff --git a/.* b/\(.*\.c\)$|\1|p' "$patches/$name"
	done | sort -u | while read -r f; do
		[ ! -f "$wt/$f" ] || echo "$f"
	done)
set_phase "upstream: configure and the W=1 baseline"
configure_targets upstream
rm -f "$out"/w1-*
baseline=
for t in $TARGETS; do
	: > "$out/w1-$t-base.tsv"
	if [ -n "$base_files" ]; then
		"$TOP/scripts/series/w1-warnings.sh" "$t" "$wt" "$out/$t" "$out/w1-$t-base.tsv" \
			$base_files ||
			echo "  [$STEP] $t: some of these files are not built at upstream;" \
				"they have no baseline (see $out/w1-$t-base.tsv.log)"
	fi
	baseline="$baseline, $t $(wc -l < "$out/w1-$t-base.tsv")"
done
echo "check-series: upstream: W=1 baseline of $(echo $base_files | wc -w) files:" \
	"warnings${baseline#,}; $(elapsed "$start")"

n=0
for name in $names; do
	n=$((n + 1))
	at="patch $n/$total $name"
	start=$(date +%s)
	echo "check-series: $at"
	set_phase "$at: git am and checkpatch"

	run_to "$logs/am.log" git -C "$wt" -c user.name=check-series \
		-c user.email=check-series@localhost am --3way --keep-cr "$patches/$name" || {
		git -C "$wt" am --abort >/dev/null 2>&1 || true
		# Less git's advice on going on, as the run stops here.
		fail "$at" "git am" "$(grep -v -e '^hint: ' -e '^When you have resolved' \
			-e '^If you prefer to skip' -e '^To restore the original' "$logs/am.log")"
	}

	run_to "$logs/checkpatch.log" "$TOP/scripts/series/checkpatch.sh" "$wt" "$patches/$name" ||
		fail "$at" checkpatch "$(grep -v '^  \[series-checkpatch\] ' "$logs/checkpatch.log")"
	sed '$d' "$logs/checkpatch.log"
	checkpatch=$(tail -n 1 "$logs/checkpatch.log")

	# An option that the patch adds must be set as the fragments say.
	if git -C "$wt" diff --name-only HEAD~1 HEAD | grep -q 'Kconfig'; then
		configure_targets "$at"
	fi

	specs=
	for t in $TARGETS; do
		specs="$specs $t=$out/$t"
	done
	progress_end
	if ! run "$TOP/scripts/build/build-kernels.sh" "$wt" $specs; then
		why=
		for t in $TARGETS; do
			log=$out/$t/build.log
			grep -q '^build-kernel: error:' "$log" || continue
			why="$why$t, the first errors in $log:
$(first_errors "$log")
"
		done
		fail "$at" "build" "${why:-the messages above}"
	fi

	set_phase "$at: W=1"
	progress_begin "where" phase
	changed=$(git -C "$wt" diff --name-only --diff-filter=d upstream HEAD -- '*.c')
	new=
	checked=
	for t in $TARGETS; do
		files=
		for f in $changed; do
			[ ! -f "$out/$t/${f%.c}.o" ] || files="$files $f"
		done
		checked="$checked, $t $(echo $files | wc -w)"
		[ -n "$files" ] || continue
		"$TOP/scripts/series/w1-warnings.sh" "$t" "$wt" "$out/$t" "$out/w1-$t.tsv" $files ||
			fail "$at" "W=1 ($t)" "$(tail -n 20 "$out/w1-$t.tsv.log")"
		found=$(new_warnings "$out/w1-$t-base.tsv" "$out/w1-$t.tsv")
		[ -z "$found" ] || new="$new$(echo "$found" | sed "s/^/$t: /")
"
	done
	[ -z "$new" ] ||
		fail "$at" "W=1" "warnings that the files did not have at upstream:
$new(whole output: $out/w1-<target>.tsv.log)"

	echo "check-series: $at: checkpatch $checkpatch, build$(printf ' %s ok,' $TARGETS)" \
		"W=1 ok (files${checked#,}), $(elapsed "$start")"
done
echo "check-series: all $count patches pass; $(elapsed "$run_start")"
