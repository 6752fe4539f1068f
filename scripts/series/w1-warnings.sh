#!/bin/sh
# w1-warnings.sh - the W=1 warnings of some objects of a configured kernel.
#
# Usage: scripts/series/w1-warnings.sh <target> <tree-dir> <out-dir> <result> <file.c>...
#
# Compiles the object of each <file.c> again in the O= folder <out-dir>,
# with W=1: the compiler's extra warnings and kernel-doc's. The objects are
# removed first, so that each is compiled even when kbuild thinks it up to
# date; the next ordinary build compiles them again without W=1, as their
# command line differs. They build side by side, and make's -Otarget keeps
# each object's output together under its "CC <object>" line, which tells
# whose a warning is (one in a header counts for each object that
# includes it).
#
# <result> gets one line per warning or error, tab-separated: the object,
# the message without its line and column (they move as patches change a
# file; the text is what identifies a warning) and the message as printed,
# paths relative to the tree. <result>.log has make's output. Exit status:
# make's (non-zero when an object is not one that the configuration
# builds), once <result> is written.
set -eu
STEP=w1-warnings
. "$(dirname "$0")/../lib.sh"

[ $# -ge 4 ] || die "usage: $0 <target> <tree-dir> <out-dir> <result> <file.c>..."
load_target "$1"
tree=$(cd "$2" 2>/dev/null && pwd) || die "tree $2 not found"
out=$(cd "$3" 2>/dev/null && pwd) || die "build folder $3 not found"
result=$4
shift 4

objs=
for f in "$@"; do
	case $f in
	*.c) objs="$objs ${f%.c}.o" ;;
	*) die "$f is not a .c file" ;;
	esac
done

# The compilers that build-kernel.sh uses (KERNEL_CC, scripts/lib.sh), or
# kbuild would take the different command lines for a change and build the
# host tools and the objects again anyway.
jobs=${JOBS:-$(nproc)}

for o in $objs; do
	rm -f "$out/$o"
done
status=0
printf '  [%s] %s > %s\n' "$STEP" "make -C $tree O=$out ARCH=$KARCH CC=\"$KERNEL_CC\" HOSTCC=\"$HOST_CC\" W=1 -k -j$jobs -Otarget$objs" \
	"$result.log" >&2
# $objs: object names, split on purpose.
# shellcheck disable=SC2086
make -C "$tree" O="$out" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" CC="$KERNEL_CC" HOSTCC="$HOST_CC" W=1 V=0 -k -j"$jobs" -Otarget $objs \
	>"$result.log" 2>&1 || status=$?

awk -v objs="$objs" -v tree="$tree/" -v out="$out/" '
	BEGIN {
		n = split(objs, o, " ")
		for (i = 1; i <= n; i++)
			wanted[o[i]] = 1
	}
	function strip(s, prefix,    i) {
		while ((i = index(s, prefix)) > 0)
			s = substr(s, 1, i - 1) substr(s, i + length(prefix))
		return s
	}
	# Colours, should the compiler be asked for them.
	{ gsub(/\033\[[0-9;]*[mK]/, "") }
	# A kbuild progress line ("  CC      kernel/fork.o") starts the
	# output of its target.
	/^  [A-Z][A-Z0-9_]*( \[M\])? +[^ ]+$/ { cur = $NF; next }
	!(cur in wanted) { next }
	{
		line = strip(strip($0, tree), out)
		if (line !~ /^[^ :]+(:[0-9]+)*: (warning|error): /)
			next
		key = line
		if (match(key, /^[^ :]+(:[0-9]+)+: /)) {
			path = key
			sub(/:.*/, "", path)
			key = path ": " substr(key, RLENGTH + 1)
		}
		# objtool names places as function+offset.
		gsub(/\+0x[0-9a-f]+/, "", key)
		print cur "\t" key "\t" line
	}' "$result.log" > "$result"

echo "  [$STEP] $TARGET: $# files, $(wc -l < "$result") warnings or errors"
exit "$status"
