# shellcheck shell=sh
# Shared helpers for the scripts in scripts/. Source it after "set -eu" and
# after setting STEP to the script's one-word name.

# The repository's top directory (the one holding patches/ and the Makefile),
# found from the calling script's own path.
TOP=$(cd "$(dirname "$0")" &&
	while [ ! -d patches ] || [ ! -f Makefile ]; do
		[ "$PWD" != / ] || exit 1
		cd ..
	done && pwd) || { echo "$0: cannot find the repository's top" >&2; exit 1; }

# The harness's Python modules are packages under scripts/ (boot,
# numbering, blacklist, bench, series, upstream) and import each other
# by those names.
PYTHONPATH=$TOP/scripts${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH

# The makes that the scripts run (kbuild's above all) are makes of their
# own, with their own -j: not jobs of the Makefile's parallel steps, whose
# job slots, output sync and nesting level they would otherwise inherit.
unset MAKEFLAGS MFLAGS MAKELEVEL

# ccache keys an object by the paths under the repository as relative
# ones, and not by the folder it is compiled in, so that a second clone of
# the repository, in another folder, reuses the first one's objects.
CCACHE_BASEDIR=$TOP
CCACHE_NOHASHDIR=true
export CCACHE_BASEDIR CCACHE_NOHASHDIR

# The compilers of kbuild's runs: for the kernel (CC=, the target's
# CROSS_COMPILE prefix before gcc, set by load_target) and for its host
# programs (HOSTCC=: kconfig, fixdep, objtool, which every new build
# folder compiles again), through ccache when it is installed.
# For the scripts that source this file.
# shellcheck disable=SC2034
CCACHE=$(if command -v ccache >/dev/null 2>&1; then echo "ccache "; fi)
# shellcheck disable=SC2034
HOST_CC="${CCACHE}gcc"
# shellcheck disable=SC2034
KERNEL_CC="${CCACHE}gcc"

# The folder of what every clone of the repository shares, as ccache's
# objects are shared: the extracted kernel trees (prepare-tree.sh) and
# what check_blacklist.py parsed of them. HARNESS_CACHE= for none.
HARNESS_CACHE=${HARNESS_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/sys-indirect}

# Print the kernel base of the tree $1 (major.minor: 6.1, 6.12): from
# the package version that prepare-tree.sh recorded (6.12.118-1~deb12u1),
# as cheap as a file read, else from kbuild, for a tree that the harness
# did not prepare (the unpatched copy of check-upstream, say).
kernel_base() {
	kver=$(cat "$1/.git/harness-package-version" 2>/dev/null) ||
		kver=$(make -s -C "$1" kernelversion) ||
		die "$1: no kernel version"
	case $kver in
	[0-9]*.[0-9]*.*) echo "$kver" | cut -d. -f1,2 ;;
	*) die "$1: kernel version '$kver' is not major.minor.patch" ;;
	esac
}

# Print a command, then run it.
run() {
	printf '  [%s] %s\n' "$STEP" "$*" >&2
	"$@"
}

# Report which step failed and why, then exit.
die() {
	printf '%s: error: %s\n' "$STEP" "$*" >&2
	exit 1
}

warn() {
	printf '%s: warning: %s\n' "$STEP" "$*" >&2
}

# Load scripts/targets/<target>.conf, the only place where targets differ.
load_target() {
	conf="$TOP/scripts/targets/$1.conf"
	[ -f "$conf" ] || die "unknown target '$1' (no $conf)"
	# For the caller, like the variables of the file.
	# shellcheck disable=SC2034
	TARGET=$1
	# shellcheck source=/dev/null
	. "$conf"
	CROSS_COMPILE=${CROSS_COMPILE:-}
	# For the caller, like the variables of the file.
	# shellcheck disable=SC2034
	KERNEL_CC="${CCACHE}${CROSS_COMPILE}gcc"
	command -v "${CROSS_COMPILE}gcc" >/dev/null 2>&1 ||
		die "target $1 needs ${CROSS_COMPILE}gcc; install it with: apt-get install $CROSS_PACKAGE"
}

# Print the absolute path of a directory, creating it if needed.
absdir() {
	mkdir -p "$1" && (cd "$1" && pwd)
}

# Seconds as "1m05s".
format_seconds() {
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

# The progress stream: fd 9 when the Makefile opened it for its steps
# (a parallel make with -Otarget shows a step's own output only when the
# step ends, and a long step would look hung), else stderr. One printf per
# line, so that the lines of steps running side by side never mix.
progress_say() {
	if { true >&9; } 2>/dev/null; then
		printf '%s\n' "$*" >&9
	else
		printf '%s\n' "$*" >&2
	fi
}

# progress_begin <label> [<command>]
#   Until progress_end, or the script's exit, print every
#   $PROGRESS_SECONDS (default 20) seconds one line
#       [<step>] <label>: <what <command> prints>, <elapsed>
#   (without the colon part when there is no command) on the progress
#   stream. The same plain lines with or without a tty. The loop holds
#   no stdout of the script's, and its sleep no file at all, so that a
#   $(...) reading the script ends when the script does; and it ends
#   itself within a line's time when the script is gone without running
#   progress_end (killed, or a zombie that its parent has not yet waited
#   for), as it asks /proc, not kill -0, which a zombie passes.
progress_pid=
progress_begin() {
	progress_end
	(
		exec >/dev/null
		begun=$(date +%s)
		while sleep "${PROGRESS_SECONDS:-20}" >/dev/null 2>&1 9>&- &&
			case $(sed -n 's/^State:[[:space:]]*//p' "/proc/$$/status" 2>/dev/null) in
			'' | Z*) false ;;
			esac; do
			progress_say "  [$STEP] $1${2:+: $($2 2>/dev/null || true)}," \
				"$(format_seconds $(($(date +%s) - begun)))"
		done
	) &
	progress_pid=$!
}

progress_end() {
	[ -n "$progress_pid" ] || return 0
	# KILL, which no trap can catch or defer: a TERM that came while the
	# loop was still the script's copy, with its traps, would be lost.
	kill -KILL "$progress_pid" 2>/dev/null || true
	wait "$progress_pid" 2>/dev/null || true
	progress_pid=
}

# at_exit <function>: run <function> when the script exits, after what the
# script asked before it, and before the step's time is recorded.
exit_commands=
at_exit() {
	exit_commands="$exit_commands
$1"
}

# scratch_dir
#   Sets $scratch to a new temporary folder, which the script removes when
#   it exits, however it exits.
scratch_dir() {
	# For the scripts that source this file.
	# shellcheck disable=SC2034
	scratch=$(mktemp -d) || die "cannot make a temporary folder"
	# Expanded when the script exits, as the other exit commands.
	# shellcheck disable=SC2016
	at_exit 'rm -rf "$scratch"'
}

# kconfig_off_fragment <tree> <fragment> <heading>
#   Writes <fragment>: the options that the harness's fragments for
#   $TARGET (scripts/build/kconfig/common.config and <target>.config) set
#   but that no Kconfig file of <tree> defines, each "is not set", under
#   the comment <heading>; and prints their names. A fragment that
#   merge_config.sh applies last turns them off, so that
#   configure-kernel.sh's check that every option made it into .config
#   holds on a tree without them: a point of the series before the patch
#   that adds one (series/configure.sh), or the unpatched tree
#   (upstream/configure-unpatched.sh).
kconfig_off_fragment() {
	symbols=$2.symbols
	find "$1" -name 'Kconfig*' -type f -exec sed -n \
		's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\).*/CONFIG_\2/p' \
		{} + | LC_ALL=C sort -u > "$symbols"
	[ -s "$symbols" ] || die "found no Kconfig symbols in $1"
	off=$(cat "$TOP/scripts/build/kconfig/common.config" \
		"$TOP/scripts/build/kconfig/$TARGET.config" |
		sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*$/\1/p' \
			-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' |
		LC_ALL=C sort -u | LC_ALL=C comm -23 - "$symbols")
	{
		echo "# $3"
		for sym in $off; do
			echo "# $sym is not set"
		done
	} > "$2"
	# One name a word, for the callers' messages.
	# shellcheck disable=SC2086
	echo $off
}

# When the Makefile sets STEP_TIMES, every step adds a line to that file:
# "<label>\t<seconds>\t<exit status>", which the Makefile prints at the
# end of "make" and "make test" (scripts/build/print-step-times.sh). The label
# is $STEP_LABEL if the script sets it, else the step and its target. The
# file is the Makefile's to create: a step run outside "make", "make test",
# "make boot" or "make matrix" records nothing.
step_begun=$(date +%s)
on_exit() {
	status=$?
	progress_end
	eval "$exit_commands" || :
	if [ -n "${STEP_TIMES:-}" ] && [ -f "$STEP_TIMES" ]; then
		printf '%s\t%s\t%s\n' "${STEP_LABEL:-$STEP${TARGET:+ $TARGET}}" \
			$(($(date +%s) - step_begun)) "$status" >>"$STEP_TIMES" || true
	fi
	exit "$status"
}
trap on_exit EXIT

# Every step says, while it runs long, that it is still running; a step
# with something better to say (a count, the current file) replaces this
# line with its own progress_begin. Steps that a step runs stay quiet:
# their output is their caller's.
if [ -z "${PROGRESS_STEP:-}" ]; then
	PROGRESS_STEP=$STEP
	export PROGRESS_STEP
	progress_begin running
fi
