#!/bin/sh
# make-initramfs.sh - pack a target's initramfs.
#
# Usage: scripts/build/make-initramfs.sh <target> <busybox> <debug-exit> <out.cpio.gz> <tests-dir>...
#
# Starts from the target's skeleton in rootfs-<target>/ (its /init), adds
# busybox, the guest harness (scripts/boot/guest/harness.sh and debug-exit) and
# each <tests-dir> as /tests/<basename>, with its sibling tools-<basename>
# (a set's programs that are no tests, arch-tests/Makefile's TOOLS_C_<set>)
# as /tests/tools-<basename> when there is one, then writes a gzip'd newc
# cpio. From scripts/targets/<target>.conf: GUEST_SCRIPT_SUITES, suites
# that are scripts, each scripts/boot/guest/suites/<name>/ as /tests/<name>;
# GUEST_HOST_TOOLS, programs of the host, each at its own path with the
# shared libraries and the dynamic loader that ldd lists for it.
# $INITRAMFS_INIT, when set, is the /init instead of the skeleton's (the
# upstream boots of make check-upstream), which runs the kernel's
# selftests only: the image then has no script suites and no host
# programs.
set -eu
STEP=make-initramfs
. "$(dirname "$0")/../lib.sh"

[ $# -ge 5 ] || die "usage: $0 <target> <busybox> <debug-exit> <out.cpio.gz> <tests-dir>..."
load_target "$1"
busybox=$2
debug_exit=$3
out=$4
shift 4

skeleton=$TOP/rootfs-$TARGET
init=${INITRAMFS_INIT:-$skeleton/init}
[ -x "$init" ] || die "$init is missing or not executable"
[ -x "$busybox" ] || die "busybox not found at $busybox"
[ -x "$debug_exit" ] || die "debug-exit not found at $debug_exit"

stage=$(dirname "$out")/rootfs
rm -rf "$stage"
mkdir -p "$stage"
cp -a "$skeleton/." "$stage/"
cp "$init" "$stage/init"
mkdir -p "$stage/bin" "$stage/dev" "$stage/proc" "$stage/sys" "$stage/tmp" \
	"$stage/lib/harness" "$stage/tests"
cp "$busybox" "$stage/bin/busybox"
ln -sf busybox "$stage/bin/sh"
cp "$TOP/scripts/boot/guest/harness.sh" "$debug_exit" "$stage/lib/harness/"
# The kernel opens /dev/console for /init before devtmpfs is mounted.
mknod -m 600 "$stage/dev/console" c 5 1

for dir in "$@"; do
	[ -d "$dir" ] || die "test directory $dir does not exist"
	dest=$stage/tests/$(basename "$dir")
	mkdir -p "$dest"
	found=0
	for t in "$dir"/*; do
		if [ ! -f "$t" ] || [ ! -x "$t" ]; then
			continue
		fi
		cp "$t" "$dest/"
		found=$((found + 1))
	done
	[ "$found" -gt 0 ] || die "no test binaries in $dir"
	tools=$(dirname "$dir")/tools-$(basename "$dir")
	if [ -d "$tools" ]; then
		mkdir -p "$stage/tests/tools-$(basename "$dir")"
		find "$tools" -maxdepth 1 -type f -perm -u+x \
			-exec cp {} "$stage/tests/tools-$(basename "$dir")/" \;
	fi
done

if [ -n "${INITRAMFS_INIT:-}" ]; then
	GUEST_SCRIPT_SUITES=
	GUEST_HOST_TOOLS=
fi

# Suites that are scripts: the scripts of the folder, as a set's binaries.
for name in ${GUEST_SCRIPT_SUITES:-}; do
	src=$TOP/scripts/boot/guest/suites/$name
	[ -d "$src" ] || die "GUEST_SCRIPT_SUITES names $name, but $src does not exist"
	mkdir -p "$stage/tests/$name"
	find "$src" -maxdepth 1 -type f -perm -u+x -exec cp {} "$stage/tests/$name/" \;
	[ -n "$(ls "$stage/tests/$name")" ] || die "no executable scripts in $src"
done

# Host programs, each with what the dynamic loader needs: ldd's list is
# the libraries (the "=> /path" lines) and the loader itself (the line
# that starts with a path); the vDSO is the kernel's. Each goes to the
# path ldd names, which the guest's loader searches as the host's does;
# symbolic links are followed, for a library's link name is its soname.
host_bytes=0
for tool in ${GUEST_HOST_TOOLS:-}; do
	[ -x "$tool" ] ||
		die "GUEST_HOST_TOOLS names $tool, which is not on this host; install it with: apt-get install ${GUEST_HOST_TOOLS_PACKAGE:-its package}"
	libs=$(ldd "$tool") || die "ldd $tool failed"
	case $libs in
	*"not found"*) die "ldd $tool: a library is missing: $(echo "$libs" | grep 'not found')" ;;
	esac
	for f in "$tool" $(echo "$libs" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
			$1 ~ /^\// { print $1 }'); do
		[ ! -e "$stage$f" ] || continue
		mkdir -p "$stage$(dirname "$f")"
		cp -L "$f" "$stage$f"
		host_bytes=$((host_bytes + $(stat -c %s "$stage$f")))
	done
done

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -n -9 > "$out.tmp"
mv "$out.tmp" "$out"
echo "  [$STEP] $out ($(stat -c %s "$out") bytes${GUEST_HOST_TOOLS:+; host programs $GUEST_HOST_TOOLS: $host_bytes bytes before gzip})"
