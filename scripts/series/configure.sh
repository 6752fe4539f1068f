#!/bin/sh
# configure.sh - configure a target's kernel at one point of the series.
#
# Usage: scripts/series/configure.sh <target> <tree-dir> <out-dir>
#
# The harness's own fragments (scripts/build/kconfig/common.config and
# <target>.config, through scripts/build/configure-kernel.sh), less the options
# that the tree does not define yet: before the patch that adds an option,
# the kernel is built without it, and configure-kernel.sh would otherwise
# stop on an option that did not make it into .config. Those options are
# switched off in <out-dir>/series-undefined.config, the last fragment.
# Once the whole series is in, every option is defined and the .config is
# the one that "make" builds.
set -eu
STEP=series-configure
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || die "usage: $0 <target> <tree-dir> <out-dir>"
load_target "$1"
tree=$(cd "$2" 2>/dev/null && pwd) || die "tree $2 not found"
out=$(absdir "$3")

fragment=$out/series-undefined.config
undefined=$(kconfig_off_fragment "$tree" "$fragment" \
	"Options that the tree does not define yet: off.")
# shellcheck disable=SC2086
[ -z "$undefined" ] ||
	echo "  [$STEP] $TARGET: not defined yet, so left out:" $undefined

run "$TOP/scripts/build/configure-kernel.sh" "$TARGET" "$tree" "$out" "$fragment"
