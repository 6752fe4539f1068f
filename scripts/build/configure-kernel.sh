#!/bin/sh
# configure-kernel.sh - write a target's .config: tinyconfig plus fragments.
#
# Usage: scripts/build/configure-kernel.sh <target> <tree-dir> <out-dir> [fragment...]
#
# Runs "make tinyconfig" in <out-dir> (an O= build folder), merges
# scripts/build/kconfig/common.config, scripts/build/kconfig/<target>.config and any extra
# fragments, each with its scripts/build/kconfig/<base>/ part, with the tree's own
# merge_config.sh, then checks that every
# option the fragments ask for made it into the final .config. The .config
# is replaced only when it changed, so that kbuild does not redo work.
set -eu
STEP=configure-kernel
. "$(dirname "$0")/../lib.sh"

[ $# -ge 3 ] || die "usage: $0 <target> <tree-dir> <out-dir> [fragment...]"
load_target "$1"
tree=$(absdir "$2")
out=$(absdir "$3")
shift 3
# Each fragment F is followed by scripts/build/kconfig/<base>/F when that
# exists: what one base needs and the others do not define.
base=$(kernel_base "$tree")
fragments=
for fragment in "$TOP/scripts/build/kconfig/common.config" "$TOP/scripts/build/kconfig/$TARGET.config" "$@"; do
	fragments="$fragments $fragment"
	for_base=$TOP/scripts/build/kconfig/$base/$(basename "$fragment")
	[ ! -f "$for_base" ] || fragments="$fragments $for_base"
done

scratch=$out/.config-scratch
rm -rf "$scratch"
mkdir -p "$scratch"
run make -s -C "$tree" O="$scratch" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" CC="$KERNEL_CC" HOSTCC="$HOST_CC" tinyconfig >/dev/null
# $fragments is a list of paths without spaces: split on purpose.
# shellcheck disable=SC2086
run env ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" "$tree/scripts/kconfig/merge_config.sh" -m -O "$scratch" \
	"$scratch/.config" $fragments >/dev/null
run make -s -C "$tree" O="$scratch" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" CC="$KERNEL_CC" HOSTCC="$HOST_CC" olddefconfig >/dev/null

# merge_config.sh -m cannot check the result, so check it here: an option
# whose dependencies are missing is silently dropped by olddefconfig.
# A later fragment overrides an earlier one, as in merge_config.sh.
# shellcheck disable=SC2086
bad=$(cat $fragments | sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' \
	-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' |
	awk -F= '{ last[$1] = $0; order[$1] = NR }
		END { for (s in last) print order[s] "\t" last[s] }' |
	sort -n | cut -f2- |
	while IFS='=' read -r sym want; do
		got=$(sed -n -e "s/^$sym=//p" -e "s/^# $sym is not set\$/n/p" "$scratch/.config")
		[ -n "$got" ] || got=n
		[ "$got" = "$want" ] || echo "$sym: wanted $want, got $got"
	done)
[ -z "$bad" ] || die "these fragment options did not make it into .config" \
	"(missing dependency?):
$bad"

mkdir -p "$out"
if cmp -s "$scratch/.config" "$out/.config"; then
	echo "  [$STEP] $TARGET .config unchanged"
else
	cp "$scratch/.config" "$out/.config"
	echo "  [$STEP] $TARGET .config written"
fi
rm -rf "$scratch"
