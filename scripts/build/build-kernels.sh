#!/bin/sh
# Build one or more configured kernels side by side, each with
# build-kernel.sh.
#
# A kernel build leaves cores idle in its serial stretches (kconfig, the
# host tools, linking vmlinux three times for kallsyms, objtool, the
# compressed image); a second build running meanwhile fills them. Each
# build writes to a log of its own, <out-dir>/build.log, which is shown when
# it fails (the same with one kernel, so that a build's output is always in
# the same place). While they run, a progress line every 20 seconds says,
# for each, how many objects its build folder has of the number a whole
# build has, how many of them this run compiled, and in which folder the
# last one was.
#
# usage: build-kernels.sh <tree-dir> <target>=<out-dir> ...
set -eu
STEP=build-kernels
. "$(dirname "$0")/../lib.sh"

[ $# -ge 2 ] || die "usage: $0 <tree-dir> <target>=<out-dir> ..."
tree=$1
shift

for spec in "$@"; do
	case $spec in
	?*=?*) ;;
	*) die "'$spec' is not <target>=<out-dir>" ;;
	esac
done

# The objects of a whole build: as counted after this folder's last good
# build, else the target's KERNEL_OBJECTS.
objects_total() {
	cat "$2/.objects-total" 2>/dev/null ||
		(load_target "$1" && echo "${KERNEL_OBJECTS:-?}")
}

# One progress line's worth for each kernel: "i386 412/695 objects, 380
# compiled, in fs/ext4;" the compiled ones being newer than the build's
# start.
build_status() {
	line=
	for spec in $specs; do
		target=${spec%%=*}
		out=${spec#*=}
		present=$(find "$out" -name '*.o' | wc -l)
		compiled=$(find "$out" -name '*.o' -newer "$out/.build-begun" | wc -l)
		last=$(find "$out" -name '*.o' -newer "$out/.build-begun" -printf '%T@ %h\n' |
			sort -n | tail -n 1 | cut -d ' ' -f 2)
		last=${last#"$out"}
		line="$line; $target $present/$(objects_total "$target" "$out") objects,"
		line="$line $compiled compiled${last:+, in ${last#/}/}"
	done
	echo "${line#; }"
}

specs="$*"
pids=
for spec in "$@"; do
	target=${spec%%=*}
	out=${spec#*=}
	mkdir -p "$out"
	touch "$out/.build-begun"
	log=$out/build.log
	printf '  [%s] %s: scripts/build/build-kernel.sh %s %s %s > %s\n' \
		"$STEP" "$target" "$target" "$tree" "$out" "$log" >&2
	"$TOP/scripts/build/build-kernel.sh" "$target" "$tree" "$out" >"$log" 2>&1 &
	pids="$pids $!"
done
progress_begin "$(for spec in "$@"; do echo "${spec%%=*}"; done | paste -s -d ' ')" build_status

failed=
for pid in $pids; do
	spec=$1
	shift
	target=${spec%%=*}
	log=${spec#*=}/build.log
	if wait "$pid"; then
		tail -n 1 "$log" >&2
		find "${spec#*=}" -name '*.o' | wc -l >"${spec#*=}/.objects-total"
	else
		printf '%s: %s: the last lines of %s:\n' "$STEP" "$target" "$log" >&2
		tail -n 40 "$log" >&2
		failed="$failed $target"
	fi
done
[ -z "$failed" ] || die "kernel build failed for:$failed (logs above)"
