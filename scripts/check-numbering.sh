#!/bin/sh
# check-numbering.sh - run check-numbering.py on the patched tree and builds.
#
# Usage: scripts/check-numbering.sh <tree-dir> <build-dir> <target>...
#
# Compares the patched syscall tables with the unpatched ones (the tree's
# "upstream" tag), with scripts/numbering/frozen-abi.txt and with the
# numbers upstream allocates up to its newest kernel (upstream-allocations.tsv
# and reserved-bands.tsv there), and checks the headers of each <target>'s
# build and its test binaries against them. Which tables, headers and test
# binaries a target has, on which base, is scripts/numbering/inputs.tsv;
# what each table numbers, and what each header and set of binaries must
# agree with, tables.tsv and kinds.tsv. <build-dir> is the base's:
# build/<base>.
# Set NUMBERING_SCRATCH to check copies of the inputs instead (the
# checker's own tests do); it must hold the same layout as made here:
# <table> and base/<table>, <target>/<header kind>, <folder>/<binary>.
set -eu
STEP=check-numbering
. "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] || die "usage: $0 <tree-dir> <build-dir> <target>..."
tree=$1
build=$2
shift 2
targets=$*
base=$(kernel_base "$tree")
data=$TOP/scripts/numbering
tab=$(printf '\t')

# The inputs.tsv lines of target $1 on this base, as "kind from path": a
# line for the base replaces the "*" line of its kind.
inputs() {
	own=
	while IFS=$tab read -r t b kind from path; do
		if [ "$t" = "$1" ] && [ "$b" = "$base" ]; then
			own="$own $kind "
		fi
	done < "$data/inputs.tsv"
	found=
	while IFS=$tab read -r t b kind from path; do
		[ "$t" = "$1" ] || continue
		case $b in
		"$base") ;;
		'*') case $own in *" $kind "*) continue ;; esac ;;
		*) continue ;;
		esac
		found=1
		[ "$from" = - ] || echo "$kind $from $path"
	done < "$data/inputs.tsv"
	[ -n "$found" ] || die "no inputs for target '$1' on base $base in $data/inputs.tsv"
}

in=${NUMBERING_SCRATCH:-$build/numbering}
if [ -z "${NUMBERING_SCRATCH:-}" ]; then
	rm -rf "$in"
	mkdir -p "$in/base"
	for f in frozen-abi.txt upstream-allocations.tsv reserved-bands.tsv \
		tables.tsv kinds.tsv; do
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
		while read -r kind from path; do
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

set -- --tables "$in/tables.tsv" --kinds "$in/kinds.tsv" \
	--pinned "$in/frozen-abi.txt" \
	--upstream "$in/upstream-allocations.tsv" --reserved "$in/reserved-bands.tsv"
seen=' '
for target in $targets; do
	rows=$(inputs "$target")
	while read -r kind from path; do
		case $from in
		tree)	case $seen in *" $kind "*) continue ;; esac
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
run "$TOP/scripts/check-numbering.py" "$@"
