#!/bin/sh
# check-numbering.sh - run check_numbering.py on the patched tree and builds.
#
# Usage: scripts/numbering/check-numbering.sh <tree-dir> <build-dir> <target>...
#
# Compares the patched syscall tables with the unpatched ones (the tree's
# "upstream" tag), with scripts/numbering/data/frozen-abi.txt and with the
# numbers upstream allocates up to its newest kernel (upstream-allocations.tsv
# and reserved-bands.tsv there), and checks the headers of each <target>'s
# build and its test binaries against them; and checks, with
# upstream_allocations.py --check, that upstream-allocations.tsv is what
# the unpatched tables and later-allocations.tsv give. Which tables,
# headers and test binaries a target has, on which base, is
# scripts/numbering/data/inputs.tsv;
# what each table numbers, and what each header and set of binaries must
# agree with, tables.tsv and kinds.tsv. <build-dir> is the base's:
# build/<base>.
# Set NUMBERING_SCRATCH to check copies of the inputs instead (the
# checker's own tests do); it must hold the same layout as made here:
# <table> and base/<table>, <target>/<header kind>, <folder>/<binary>.
set -eu
STEP=check-numbering
. "$(dirname "$0")/../lib.sh"

[ $# -ge 3 ] || die "usage: $0 <tree-dir> <build-dir> <target>..."
tree=$1
build=$2
shift 2
targets=$*
base=$(kernel_base "$tree")
data=$TOP/scripts/numbering/data
tab=$(printf '\t')

# The inputs.tsv lines of target $1 on this base, as "kind from path
# systbl": a line for the base replaces the "*" line of its kind.
inputs() {
	own=
	while IFS=$tab read -r t b kind from path systbl; do
		if [ "$t" = "$1" ] && [ "$b" = "$base" ]; then
			own="$own $kind "
		fi
	done < "$data/inputs.tsv"
	found=
	while IFS=$tab read -r t b kind from path systbl; do
		[ "$t" = "$1" ] || continue
		case $b in
		"$base") ;;
		'*') case $own in *" $kind "*) continue ;; esac ;;
		*) continue ;;
		esac
		found=1
		[ -n "$systbl" ] ||
			die "$data/inputs.tsv: $t $b $kind: no systbl column"
		[ "$from" = - ] || echo "$kind $from $path $systbl"
	done < "$data/inputs.tsv"
	[ -n "$found" ] || die "no inputs for target '$1' on base $base in $data/inputs.tsv"
}

in=${NUMBERING_SCRATCH:-$build/numbering}
if [ -z "${NUMBERING_SCRATCH:-}" ]; then
	rm -rf "$in"
	mkdir -p "$in/base"
	for f in frozen-abi.txt upstream-allocations.tsv reserved-bands.tsv \
		tables.tsv kinds.tsv inputs.tsv later-allocations.tsv; do
		cp "$data/$f" "$in/$f"
	done
	for target in $targets; do
		[ -f "$TOP/scripts/targets/$target.conf" ] || die "unknown target '$target'"
		rows=$(inputs "$target")
		# shellcheck source=/dev/null disable=SC2086
		sets=$(. "$TOP/scripts/targets/$target.conf" && echo $TEST_SETS)
		for set in $sets; do
			printf '%s\n' "$rows" | grep -q "^$set tests " ||
				die "test set $set of $target has no tests line in $data/inputs.tsv"
		done
		while read -r kind from path systbl; do
			case $from in
			tree)
				if [ -f "$in/$kind" ]; then continue; fi
				cp "$tree/$path" "$in/$kind"
				git -C "$tree" show "upstream:$path" > "$in/base/$kind" ||
					die "cannot read the unpatched $path from $tree" ;;
			headers/*|kernel)
				if [ "$from" = kernel ]; then
					src=$build/$target/kernel/$path
				else
					src=$build/$from/include/$path
				fi
				[ -f "$src" ] || die "no $src: build the $target kernel and the headers first"
				mkdir -p "$in/$target"
				cp "$src" "$in/$target/$kind" ;;
			tests)
				case " $sets " in *" $kind "*) ;; *) continue ;; esac
				mkdir -p "$in/$path"
				cp "$build/tests/$kind"/* "$in/$path/" ;;
			*)	die "$data/inputs.tsv: $target $kind: unknown source '$from'" ;;
			esac
		done <<EOF
$rows
EOF
	done
fi

# The tables kept as C headers are read by the compiler of the target
# that tables.tsv names, with the uapi headers of the tree; the headers of
# #defines by the host's.
set -- --tables "$in/tables.tsv" --kinds "$in/kinds.tsv" \
	--pinned "$in/frozen-abi.txt" \
	--upstream "$in/upstream-allocations.tsv" --reserved "$in/reserved-bands.tsv" \
	--tree "$tree" --host-cc gcc
seen=' '
for target in $targets; do
	rows=$(inputs "$target")
	while read -r kind from path systbl; do
		case $from in
		tree)	# The spaces that this target's kernel build ran
			# through scripts/syscalltbl.sh.
			if [ "$systbl" != - ]; then
				for space in $(echo "$systbl" | tr , ' '); do
					set -- "$@" --built "$kind:$space"
				done
			fi
			case $seen in *" $kind "*) continue ;; esac
			seen="$seen$kind "
			set -- "$@" --table "$kind=$in/$kind" \
				--base-table "$kind=$in/base/$kind" ;;
		tests)	case $seen in *" $path/ "*) continue ;; esac
			seen="$seen$path/ "
			for b in "$in/$path"/*; do
				if [ -f "$b" ]; then
					set -- "$@" --binary "$kind=$b"
				fi
			done ;;
		*)	if [ -f "$in/$target/$kind" ]; then
				set -- "$@" --header "$kind=$in/$target/$kind"
			fi ;;
		esac
	done <<EOF
$rows
EOF
done
# upstream-allocations.tsv is written by upstream_allocations.py from the
# trees and later-allocations.tsv: it must be what that would write from
# this base's tree (or, on an older base, agree with it). Both run, so
# that the report has all that fails; the checker's status comes first.
gen_status=0
run "$TOP/scripts/numbering/upstream_allocations.py" --check --data "$in" \
	"$tree" || gen_status=$?
status=0
run "$TOP/scripts/numbering/check_numbering.py" "$@" || status=$?
[ "$status" -ne 0 ] || status=$gen_status
exit "$status"
