#!/bin/sh
# Build one or more configured kernels side by side, each with
# build-kernel.sh.
#
# A kernel build leaves cores idle in its serial stretches (kconfig, the
# host tools, linking vmlinux three times for kallsyms, objtool, the
# compressed image); a second build running meanwhile fills them. Each
# build writes to a log of its own, <out-dir>/build.log, which is shown when
# it fails (the same with one kernel, so that a build's output is always in
# the same place).
#
# usage: build-kernels.sh <tree-dir> <target>=<out-dir> ...
set -eu
STEP=build-kernels
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 <tree-dir> <target>=<out-dir> ..."
tree=$1
shift

for spec in "$@"; do
	case $spec in
	?*=?*) ;;
	*) die "'$spec' is not <target>=<out-dir>" ;;
	esac
done

pids=
for spec in "$@"; do
	target=${spec%%=*}
	out=${spec#*=}
	mkdir -p "$out"
	log=$out/build.log
	printf '  [%s] %s: scripts/build-kernel.sh %s %s %s > %s\n' \
		"$STEP" "$target" "$target" "$tree" "$out" "$log" >&2
	"$TOP/scripts/build-kernel.sh" "$target" "$tree" "$out" >"$log" 2>&1 &
	pids="$pids $!"
done

failed=
for pid in $pids; do
	spec=$1
	shift
	target=${spec%%=*}
	log=${spec#*=}/build.log
	if wait "$pid"; then
		tail -n 1 "$log" >&2
	else
		printf '%s: %s: the last lines of %s:\n' "$STEP" "$target" "$log" >&2
		tail -n 40 "$log" >&2
		failed="$failed $target"
	fi
done
[ -z "$failed" ] || die "kernel build failed for:$failed (logs above)"
