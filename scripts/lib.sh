# Shared helpers for the scripts in scripts/. Source it after "set -eu" and
# after setting STEP to the script's one-word name.

# The repository's top directory (the one holding patches/ and the Makefile),
# found from the calling script's own path.
TOP=$(cd "$(dirname "$0")" &&
	while [ ! -d patches ] || [ ! -f Makefile ]; do
		[ "$PWD" != / ] || exit 1
		cd ..
	done && pwd) || { echo "$0: cannot find the repository's top" >&2; exit 1; }

# The makes that the scripts run (kbuild's above all) are makes of their
# own, with their own -j: not jobs of the Makefile's parallel steps, whose
# job slots, output sync and nesting level they would otherwise inherit.
unset MAKEFLAGS MFLAGS MAKELEVEL

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
	TARGET=$1
	# shellcheck source=/dev/null
	. "$conf"
}

# Print the absolute path of a directory, creating it if needed.
absdir() {
	mkdir -p "$1" && (cd "$1" && pwd)
}
