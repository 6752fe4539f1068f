#!/bin/sh
# configure.sh - configure a target's kernel at one point of the series.
#
# Usage: scripts/series/configure.sh <target> <tree-dir> <out-dir>
#
# The harness's own fragments (scripts/kconfig/common.config and
# <target>.config, through scripts/configure-kernel.sh), less the options
# that the tree does not define yet: before the patch that adds an option,
# the kernel is built without it, and configure-kernel.sh would otherwise
# stop on an option that did not make it into .config. Those options are
# switched off in <out-dir>/series-undefined.config, the last fragment.
# Once the whole series is in, every option is defined and the .config is
# the one that "make" builds.
set -eu
STEP=series-configure
. "$(dirname "$0")/../lib.sh"
# sort and comm must agree on the order.
export LC_ALL=C

[ $# -eq 3 ] || die "usage: $0 <target> <tree-dir> <out-dir>"
load_target "$1"
tree=$(cd "$2" 2>/dev/null && pwd) || die "tree $2 not found"
out=$(absdir "$3")

# Every symbol that the tree's Kconfig files define.
symbols=$out/.series-kconfig-symbols
git -C "$tree" grep -h -E '^[[:space:]]*(menu)?config[[:space:]]+[A-Za-z0-9_]+' \
	-- '*Kconfig*' |
	sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\).*/CONFIG_\2/p' |
	sort -u > "$symbols"
[ -s "$symbols" ] || die "found no Kconfig symbols in $tree"

fragment=$out/series-undefined.config
undefined=$(cat "$TOP/scripts/kconfig/common.config" "$TOP/scripts/kconfig/$TARGET.config" |
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*$/\1/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' |
	sort -u | comm -23 - "$symbols")
{
	echo "# Options that the tree does not define yet: off."
	for sym in $undefined; do
		echo "# $sym is not set"
	done
} > "$fragment"
# shellcheck disable=SC2086
[ -z "$undefined" ] ||
	echo "  [$STEP] $TARGET: not defined yet, so left out:" $undefined

run "$TOP/scripts/configure-kernel.sh" "$TARGET" "$tree" "$out" "$fragment"
