#!/bin/sh
# check.sh - test libindirect's installed copy on this machine.
#
# Usage: make -C libindirect check [O=<build dir>] [CHECK_CROSS=...]
#
# The Makefile has installed the library into STAGE (its DESTDIR, under
# O) and passes what it was built with in the environment: LIBINDIRECT_SRC,
# MANSRC, STAGE, CHECK_OUT (a folder for this script's own files),
# prefix, libdir, includedir, mandir, pkgconfigdir, VERSION, SONAME,
# SOFILE, CC, CFLAGS, PKG_CONFIG, ENABLE_SHARED, CHECK_CROSS, KERNEL_UAPI
# and MAKE. Everything is checked on the installed files, as a program
# outside the tree finds them through pkg-config:
#   - the files, the soname, the symbols that the .so exports and those
#     that the archive defines (both: the list of libindirect.map), the
#     flags that libindirect.pc gives, a manual page for each function,
#     each rendered by groff without a warning;
#   - include/indirect/uapi.h against the patched kernels' header, and
#     <indirect.h> with and without a <linux/indirect.h> of the system,
#     included before it or after;
#   - tests/api_test.c, built with pkg-config's flags, static and
#     dynamic (run from the stage with LD_LIBRARY_PATH), on the running
#     kernel, which must not have indirect(): every call fails with
#     ENOSYS and changes nothing. The calls reach syscall 387 (x86,
#     AArch64) or 402 (32-bit ARM), which upstream leaves unassigned and
#     says it will never assign, so the kernel answers ENOSYS and does
#     nothing else;
#   - examples/safe_extract.c, copied to a folder outside the tree and
#     built there with pkg-config's flags alone, then run (it skips);
#   - for each cross compiler of CHECK_CROSS that is installed: the
#     library built with it and installed into a stage of its own, and
#     safe_extract.c built static against that stage through pkg-config
#     (PKG_CONFIG_LIBDIR and PKG_CONFIG_SYSROOT_DIR).
# Output: TAP 13 on stdout, a line per check; a failed check is followed
# by "# expected:" and "# actual:" lines. The api_test's own TAP is
# indented under its line. Exits 1 if a check failed.
set -eu

fail_setup() {
	printf 'Bail out! check.sh: %s: %s\n' "$step" "$*"
	finished=1
	exit 1
}
# From the Makefile, each of them.
usage="is not set: run me with make -C libindirect check"
: "${LIBINDIRECT_SRC:?$usage}" "${MANSRC:?$usage}" "${STAGE:?$usage}"
: "${CHECK_OUT:?$usage}" "${prefix:?$usage}" "${libdir:?$usage}"
: "${includedir:?$usage}" "${mandir:?$usage}" "${pkgconfigdir:?$usage}"
: "${VERSION:?$usage}" "${SONAME:?$usage}" "${SOFILE:?$usage}" "${CC:?$usage}"
: "${PKG_CONFIG:?$usage}" "${ENABLE_SHARED:?$usage}" "${MAKE:?$usage}"
CFLAGS=${CFLAGS:-}
CHECK_CROSS=${CHECK_CROSS:-}
KERNEL_UAPI=${KERNEL_UAPI:-}
EXAMPLE=${EXAMPLE:-$LIBINDIRECT_SRC/../examples/safe_extract.c}

# What failed, should the script stop halfway: the step it was in.
step=setup
finished=
tmp=
# shellcheck disable=SC2317 # run by the trap
on_exit() {
	exit_status=$?
	[ -z "$tmp" ] || rm -rf "$tmp"
	if [ "$exit_status" -ne 0 ] && [ -z "$finished" ]; then
		printf 'Bail out! check.sh: stopped in step %s (exit status %s)\n' \
			"$step" "$exit_status"
	fi
}
trap on_exit EXIT
tmp=$(mktemp -d "${TMPDIR:-/tmp}/libindirect-check.XXXXXX")
rm -rf "$CHECK_OUT"
mkdir -p "$CHECK_OUT"
log=$CHECK_OUT/log

echo "TAP version 13"
n=0
failed=0
ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}
# not_ok <name> <expected> <actual>: each may span lines.
not_ok() {
	n=$((n + 1))
	failed=1
	echo "not ok $n - $1"
	printf '%s\n' "$2" | sed '/./,$!d' | sed '1s/^/# expected: /; 2,$s/^/#   /'
	printf '%s\n' "$3" | sed '/./,$!d' | sed '1s/^/# actual: /; 2,$s/^/#   /'
}
# expect <name> <expected> <actual>
expect() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$@"; fi
}
# expect_set <name> <what> <expected lines> <actual lines>: the same
# lines, in any order; a failure names the lines missing and those extra.
expect_set() {
	printf '%s\n' "$3" | sort -u >"$tmp/want"
	printf '%s\n' "$4" | sort -u >"$tmp/have"
	if cmp -s "$tmp/want" "$tmp/have"; then
		ok "$1"
	else
		not_ok "$1" "$2 ($(grep -c . "$tmp/want"))" \
			"missing: $(comm -23 "$tmp/want" "$tmp/have" | tr '\n' ' ')
extra: $(comm -13 "$tmp/want" "$tmp/have" | tr '\n' ' ')"
	fi
}
# The last lines of the log, as the actual value of a failed step.
log_tail() {
	tail -n 15 "$log"
}

# pkg-config as a program outside the tree runs it against a staging
# root: only the stage's .pc files, and their paths under the stage.
# pc <stage> <pkgconfigdir> <args>...
pc() {
	pc_stage=$1 pc_dir=$2
	shift 2
	env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$pc_stage$pc_dir" \
		PKG_CONFIG_SYSROOT_DIR="$pc_stage" "$PKG_CONFIG" "$@"
}
# The same with no space at either end: pkgconf ends its output with one.
pc_trim() {
	pc "$@" | sed 's/^ *//; s/ *$//'
}

# The global symbols of libindirect.map, each as <name>@@<version node>.
step=map
map_symbols=$(awk '
	{ sub(/#.*/, "") }
	/^\/\*/, /\*\// { next }
	/^[A-Za-z_][A-Za-z0-9_.]* *\{/ { node = $1; scope = ""; next }
	/global:/ { scope = "global"; next }
	/local:/ { scope = "local"; next }
	scope == "global" && /^[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*;/ { gsub(/[ \t;]/, ""); print $0 "@@" node }
' "$LIBINDIRECT_SRC/libindirect.map" | sort)
[ -n "$map_symbols" ] || fail_setup "no global symbol in libindirect.map"
map_names=$(printf '%s\n' "$map_symbols" | sed 's/@@.*//')

lib=$STAGE$libdir
inc=$STAGE$includedir
man=$STAGE$mandir

# ---------------------------------------------------------------------
step=installed_files
missing=
for f in "$inc/indirect.h" "$inc/indirect/uapi.h" "$lib/libindirect.a" \
	"$STAGE$pkgconfigdir/libindirect.pc" "$man/man2/indirect.2"; do
	[ -f "$f" ] || missing="$missing ${f#"$STAGE"}"
done
for page in "$MANSRC"/*.3; do
	[ -f "$man/man3/${page##*/}" ] || missing="$missing ${mandir}/man3/${page##*/}"
done
if [ "$ENABLE_SHARED" = 1 ]; then
	[ -f "$lib/$SOFILE" ] || missing="$missing $libdir/$SOFILE"
fi
want="every file in place"
expect installed_files "$want" "${missing:+missing:}${missing:-$want}"

if [ "$ENABLE_SHARED" = 1 ]; then
	step=shared_library_links
	expect shared_library_links "$SONAME -> $SOFILE, libindirect.so -> $SONAME" \
		"$SONAME -> $(readlink "$lib/$SONAME" || echo none), libindirect.so -> $(readlink "$lib/libindirect.so" || echo none)"

	# libindirect.so.<major>, whatever the Makefile says.
	step=soname
	expect soname "libindirect.so.${VERSION%%.*}" \
		"$(readelf -d "$lib/$SOFILE" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')"

	# nm -D lists the version node itself as an absolute symbol: not a
	# function.
	step=exported_symbols
	expect_set exported_symbols "the symbols of libindirect.map" "$map_symbols" \
		"$(nm -D --defined-only "$lib/$SOFILE" | awk '$2 != "A" { print $3 }')"
else
	skip shared_library_links "ENABLE_SHARED=$ENABLE_SHARED"
	skip soname "ENABLE_SHARED=$ENABLE_SHARED"
	skip exported_symbols "ENABLE_SHARED=$ENABLE_SHARED"
fi

# The archive has no version script: its global symbols must be the
# map's all the same, and nothing else.
step=archive_symbols
expect_set archive_symbols "the functions of libindirect.map" "$map_names" \
	"$(nm -g --defined-only "$lib/libindirect.a" | awk 'NF == 3 { print $3 }')"

step=pkg_config
expect pkg_config_modversion "$VERSION" \
	"$(pc_trim "$STAGE" "$pkgconfigdir" --modversion libindirect 2>&1)"
expect pkg_config_cflags "-I$inc" \
	"$(pc_trim "$STAGE" "$pkgconfigdir" --cflags libindirect 2>&1)"
expect pkg_config_libs "-L$lib -lindirect" \
	"$(pc_trim "$STAGE" "$pkgconfigdir" --libs libindirect 2>&1)"

# A page for each function of the map: indirect(2) for the system call's
# wrapper, a page in section 3 for each other one, and one for the
# macro indirect_call(); no page for a function that is not there.
step=man_pages
want=$(printf '%s\n' "$map_names" indirect_call | sed 's|^indirect$|man2/indirect.2|; s|^indirect_.*|man3/&.3|')
have=$({ cd "$man" && ls man2/*.2 man3/*.3; } 2>/dev/null || :)
expect_set man_pages_cover_the_api "a page for each function, and indirect_call" "$want" "$have"

# Each page as a reader gets it: groff with every warning, and a .TH that
# names the page.
step=man_pages_render
bad=
for page in "$man"/man2/*.2 "$man"/man3/*.3; do
	name=${page##*/}
	warnings=$(groff -man -ww -z "$page" 2>&1) || warnings="$warnings (groff failed)"
	[ -z "$warnings" ] || bad="$bad
$name: $warnings"
	th=$(sed -n 's/^\.TH \([^ ]*\) \([^ ]*\) .*/\1.\2/p' "$page")
	[ "$th" = "$(echo "${name%.*}" | tr '[:lower:]' '[:upper:]').${name##*.}" ] ||
		bad="$bad
$name: .TH says $th"
done
want="no groff warning, .TH of each page its name"
expect man_pages_render "$want" "${bad:-$want}"

# ---------------------------------------------------------------------
# The copy of the uapi header, between its marks, is the kernel's file
# less its first line (the SPDX tag, which the copy has at its top).
step=uapi_copy
if [ -z "$KERNEL_UAPI" ]; then
	skip uapi_copy_is_the_kernels "no patched kernel tree (KERNEL_UAPI)"
else
	copy=$(sed -n '/^\/\* --- begin: include\/uapi\/linux\/indirect.h --- \*\/$/,/^\/\* --- end: include\/uapi\/linux\/indirect.h --- \*\/$/p' \
		"$inc/indirect/uapi.h" | sed '1d;$d')
	diffs=
	for k in $KERNEL_UAPI; do
		if [ ! -f "$k" ]; then
			diffs="$diffs
$k: no such file"
			continue
		fi
		tail -n +2 "$k" >"$tmp/kernel_uapi"
		printf '%s\n' "$copy" | cmp -s - "$tmp/kernel_uapi" ||
			diffs="$diffs
$k: $(printf '%s\n' "$copy" | diff - "$tmp/kernel_uapi" | head -n 5 | tr '\n' ' ')"
	done
	want="identical to $(echo "$KERNEL_UAPI" | wc -w) kernel header(s)"
	expect uapi_copy_is_the_kernels "$want" "${diffs:-$want}"
fi

# <indirect.h> with the system's <linux/indirect.h>: a stand-in of the
# installed kernel header (headers_install's guard, _LINUX_INDIRECT_H,
# and a mark), included before <indirect.h>, after it, and not at all.
# Each must compile without a redefinition and define the types once;
# the system's header wins whenever the compiler finds it.
step=uapi_guard
sys=$tmp/sysinc
mkdir -p "$sys/linux"
{
	echo "#ifndef _LINUX_INDIRECT_H"
	echo "#define _LINUX_INDIRECT_H"
	echo "#define SYSTEM_INDIRECT_H_USED 1"
	sed -n '/^#include <linux\/types.h>/,/^#endif \/\* _UAPI_LINUX_INDIRECT_H \*\//p' \
		"$inc/indirect/uapi.h" | sed '$d'
	echo "#endif"
} >"$sys/linux/indirect.h"
# Without the stand-in, the copy answers, unless the compiler has a
# <linux/indirect.h> of its own (a patched kernel's headers installed).
alone=copy
if printf '#include <linux/indirect.h>\n' | $CC -E -x c - >/dev/null 2>&1; then
	alone=any
fi
guard_bad=
for order in system-first system-after library-alone-system-present library-alone; do
	case $order in
	system-first) src='#include <linux/indirect.h>
#include <indirect.h>' flags="-isystem $sys" want=used ;;
	system-after) src='#include <indirect.h>
#include <linux/indirect.h>' flags="-isystem $sys" want=used ;;
	library-alone-system-present) src='#include <indirect.h>' flags="-isystem $sys" want=used ;;
	library-alone) src='#include <indirect.h>' flags='' want=$alone ;;
	esac
	printf '%s\n%s\n' "$src" '
#ifdef SYSTEM_INDIRECT_H_USED
const char *which = "used";
#else
const char *which = "copy";
#endif
struct sysind_ctx_RESOLVE r = { SYSIND_CTX_RESOLVE, 0, 1 };
_Static_assert(sizeof(r) == 16, "RESOLVE is 16 bytes");' >"$tmp/guard.c"
	# shellcheck disable=SC2046,SC2086 # flags are lists
	if ! $CC -Wall -Wextra -Werror $flags $(pc "$STAGE" "$pkgconfigdir" --cflags libindirect) \
		-c -o "$tmp/guard.o" "$tmp/guard.c" >"$log" 2>&1; then
		guard_bad="$guard_bad
$order: does not compile: $(head -n 3 "$log" | tr '\n' ' ')"
	elif [ "$want" != any ] && ! strings "$tmp/guard.o" | grep -qx "$want"; then
		guard_bad="$guard_bad
$order: not the $want header"
	fi
done
want="compiles with the system header first, after and absent"
expect uapi_guard_either_order "$want" "${guard_bad:-$want}"
if [ "$alone" = any ]; then
	echo "# note: $CC has a <linux/indirect.h> of its own: the tests below use it, not the copy"
fi

# ---------------------------------------------------------------------
# api_test, built as a program of this machine would build it: only the
# flags of pkg-config; its TAP indented under the line of the check.
# run_api_test <name> <binary> [<env>...]
run_api_test() {
	name=$1 bin=$2
	shift 2
	rm -rf "$tmp/run"
	mkdir -p "$tmp/run"
	status=0
	env "$@" "$bin" "$tmp/run" >"$CHECK_OUT/$name.tap" 2>&1 || status=$?
	sed 's/^/    /' "$CHECK_OUT/$name.tap"
	if [ "$status" -eq 0 ]; then
		ok "$name"
	else
		not_ok "$name" "exit status 0, every line ok" \
			"exit status $status: $(grep -c '^not ok' "$CHECK_OUT/$name.tap") not ok"
	fi
}

step=api_test_static
cflags=$(pc "$STAGE" "$pkgconfigdir" --cflags libindirect)
libs_static=$(pc "$STAGE" "$pkgconfigdir" --libs --static libindirect)
# shellcheck disable=SC2086 # flags are lists
if $CC $CFLAGS -Werror $cflags -static -o "$CHECK_OUT/api_test_static" \
	"$LIBINDIRECT_SRC/tests/api_test.c" $libs_static >"$log" 2>&1; then
	if readelf -d "$CHECK_OUT/api_test_static" 2>&1 | grep -q 'There is no dynamic section'; then
		run_api_test api_test_static "$CHECK_OUT/api_test_static"
	else
		not_ok api_test_static "a static binary" \
			"a dynamic section: $(readelf -d "$CHECK_OUT/api_test_static" | grep NEEDED | tr -s ' ' | tr '\n' ' ')"
	fi
else
	not_ok api_test_static "api_test.c builds -static with the flags of pkg-config" "$(log_tail)"
fi

step=api_test_dynamic
if [ "$ENABLE_SHARED" != 1 ]; then
	skip api_test_dynamic "ENABLE_SHARED=$ENABLE_SHARED"
else
	libs=$(pc "$STAGE" "$pkgconfigdir" --libs libindirect)
	# shellcheck disable=SC2086 # flags are lists
	if $CC $CFLAGS -Werror $cflags -o "$CHECK_OUT/api_test_dynamic" \
		"$LIBINDIRECT_SRC/tests/api_test.c" $libs >"$log" 2>&1; then
		needed=$(readelf -d "$CHECK_OUT/api_test_dynamic" | sed -n 's/.*Shared library: \[\(libindirect[^]]*\)\]/\1/p')
		# The copy that the dynamic linker loads: that of the stage.
		loaded=$(LD_LIBRARY_PATH=$lib LD_TRACE_LOADED_OBJECTS=1 \
			"$CHECK_OUT/api_test_dynamic" | awk '$1 ~ /^libindirect/ { print $1, $3 }')
		expect api_test_dynamic_loads_the_stage "$SONAME $SONAME $lib/$SONAME" \
			"${needed:-(no NEEDED libindirect)} ${loaded:-(not loaded)}"
		run_api_test api_test_dynamic "$CHECK_OUT/api_test_dynamic" LD_LIBRARY_PATH="$lib"
	else
		not_ok api_test_dynamic "api_test.c builds with the flags of pkg-config" "$(log_tail)"
	fi
fi

# ---------------------------------------------------------------------
# safe_extract.c in a folder of its own outside the tree, with nothing
# but libindirect's flags, as its header comment says.
step=safe_extract
if [ ! -f "$EXAMPLE" ]; then
	skip safe_extract_builds_outside_the_tree "no $EXAMPLE"
else
	mkdir -p "$tmp/outside"
	cp "$EXAMPLE" "$tmp/outside/safe_extract.c"
	# shellcheck disable=SC2046,SC2086 # flags are lists
	if (cd "$tmp/outside" && $CC -Wall -Wextra -Werror $cflags \
		-o safe_extract safe_extract.c $(pc "$STAGE" "$pkgconfigdir" --libs libindirect)) >"$log" 2>&1; then
		ok safe_extract_builds_outside_the_tree
		# Without indirect() it skips (status 4) before it mounts
		# anything.
		status=0
		LD_LIBRARY_PATH=$lib "$tmp/outside/safe_extract" >"$log" 2>&1 || status=$?
		expect safe_extract_runs_and_skips "status 4, 1..0 # SKIP" \
			"status $status, $(grep -m 1 '^1\.\.' "$log" | cut -c 1-11)"
	else
		not_ok safe_extract_builds_outside_the_tree "cc \$(pkg-config --cflags --libs libindirect) builds it" "$(log_tail)"
		skip safe_extract_runs_and_skips "not built"
	fi
fi

# ---------------------------------------------------------------------
# Each cross compiler: the library with it, installed into a stage of
# its own, with the prefix and folders of this check; then safe_extract.c
# static against that stage, through pkg-config.
for entry in $CHECK_CROSS; do
	xcc=${entry%%:*}
	xflags=
	case $entry in *:*) xflags=$(echo "${entry#*:}" | tr ':' ' ') ;; esac
	label=$(echo "$xcc$xflags" | tr -c 'A-Za-z0-9_.\n-' '_')
	step=cross_$label
	if ! command -v "$xcc" >/dev/null 2>&1; then
		skip "cross_${label}_library" "$xcc is not installed"
		skip "cross_${label}_exported_symbols" "$xcc is not installed"
		skip "cross_${label}_safe_extract" "$xcc is not installed"
		continue
	fi
	xout=$CHECK_OUT/cross-$label
	xstage=$xout/stage
	if ! "$MAKE" -C "$LIBINDIRECT_SRC" --no-print-directory O="$xout/build" \
		DESTDIR="$xstage" CC="$xcc" CFLAGS="-O2 -g -Wall -Wextra -Werror $xflags" \
		CPPFLAGS= LDFLAGS= ENABLE_SHARED="$ENABLE_SHARED" install >"$log" 2>&1; then
		not_ok "cross_${label}_library" "make CC=$xcc install" "$(log_tail)"
		skip "cross_${label}_exported_symbols" "no library"
		skip "cross_${label}_safe_extract" "no library"
		continue
	fi
	xlib=$xstage$libdir
	machine=$(readelf -h "$xlib/libindirect.a" 2>/dev/null | sed -n 's/^ *Machine: *//p' | head -n 1)
	if [ "$ENABLE_SHARED" = 1 ]; then
		expect "cross_${label}_library" \
			"$machine, soname libindirect.so.${VERSION%%.*}" \
			"$(readelf -h "$xlib/$SOFILE" | sed -n 's/^ *Machine: *//p'), soname $(readelf -d "$xlib/$SOFILE" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')"
		# readelf, which reads any machine's ELF; the version as
		# nm -D writes it.
		expect_set "cross_${label}_exported_symbols" "the symbols of libindirect.map" \
			"$map_symbols" \
			"$(readelf -W --dyn-syms "$xlib/$SOFILE" |
				awk '$5 == "GLOBAL" && $7 != "UND" && $7 != "ABS" { print $8 }')"
	else
		ok "cross_${label}_library"
		skip "cross_${label}_exported_symbols" "ENABLE_SHARED=$ENABLE_SHARED"
	fi
	rm -rf "$tmp/cross"
	mkdir -p "$tmp/cross"
	cp "$EXAMPLE" "$tmp/cross/safe_extract.c"
	# shellcheck disable=SC2046,SC2086 # flags are lists
	if (cd "$tmp/cross" && $xcc $xflags -Wall -Wextra -Werror -static \
		$(pc "$xstage" "$pkgconfigdir" --cflags libindirect) -o safe_extract safe_extract.c \
		$(pc "$xstage" "$pkgconfigdir" --libs --static libindirect)) >"$log" 2>&1; then
		dynamic=$(readelf -d "$tmp/cross/safe_extract" 2>&1 | grep -c 'There is no dynamic section' || true)
		expect "cross_${label}_safe_extract" "$machine, static" \
			"$(readelf -h "$tmp/cross/safe_extract" | sed -n 's/^ *Machine: *//p'), $([ "$dynamic" = 1 ] && echo static || echo dynamic)"
	else
		not_ok "cross_${label}_safe_extract" "builds static through pkg-config" "$(log_tail)"
	fi
done

echo "1..$n"
finished=1
exit "$failed"
