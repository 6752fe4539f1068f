#!/bin/sh
# configure-unpatched.sh - configure an unpatched kernel like the patched one.
#
# Usage: scripts/upstream/configure-unpatched.sh <target> <unpatched-tree> \
#            <out-dir> <patched .config>
#
# The unpatched kernel gets the patched kernel's fragments
# (scripts/build/kconfig/common.config and <target>.config) minus the options
# that only the series defines (CONFIG_INDIRECT_SYSCALL). They are found
# by looking each fragment option up in the unpatched tree's Kconfig
# files, and switched off in <out-dir>/series-only.config, the last
# fragment handed to scripts/build/configure-kernel.sh, whose own checks then
# run unchanged.
# Afterwards the two .config files must agree on every option that the
# unpatched tree knows; any other difference is an error.
set -eu
STEP=configure-unpatched
. "$(dirname "$0")/../lib.sh"
# sort and comm must agree on the order.
export LC_ALL=C

[ $# -eq 4 ] || die "usage: $0 <target> <unpatched-tree> <out-dir> <patched .config>"
load_target "$1"
tree=$(cd "$2" 2>/dev/null && pwd) || die "unpatched tree $2 not found"
out=$(absdir "$3")
patched_config=$4
[ -f "$patched_config" ] ||
	die "$patched_config missing: configure the patched $TARGET kernel first"

fragment=$out/series-only.config
missing=$(kconfig_off_fragment "$tree" "$fragment" \
	"Options that only the series defines: off in the unpatched kernel.")
# shellcheck disable=SC2086
echo "  [$STEP] $TARGET: left out, as only the series has them:" $missing

run "$TOP/scripts/build/configure-kernel.sh" "$TARGET" "$tree" "$out" "$fragment" ||
	die "configuring the unpatched $TARGET kernel failed"

# SYM=value for every option of a .config that the unpatched tree knows.
known_options() {
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' "$1" |
		awk -F= 'NR == FNR { known[$0] = 1; next } $1 in known' "$symbols" - |
		sort
}
known_options "$out/.config" > "$out/.config-known"
known_options "$patched_config" > "$out/.config-known-patched"
if ! differ=$(diff "$out/.config-known-patched" "$out/.config-known"); then
	die "the unpatched $TARGET .config differs from $patched_config in" \
	    "options that are not the series' own (< patched, > unpatched):
$differ"
fi
echo "  [$STEP] $TARGET: same options as $patched_config, but for the series' own"
