#!/bin/sh
# check-man.sh - render each man page with groff and fail on any warning.
#
# Usage: scripts/check-man.sh [<page>...]
#
# "groff -man -ww -z" formats the page without output and enables every
# warning: a bad macro, an unknown escape or a line that cannot break
# all show up here before a reader sees them. Without a page, every page
# of man/: indirect.2 and libindirect's pages in section 3.
set -eu
STEP=check-man
. "$(dirname "$0")/lib.sh"

if [ $# -eq 0 ]; then
	cd "$TOP"
	set -- man/*.[1-9]
	[ -f "$1" ] || die "no man page in $TOP/man"
fi
command -v groff >/dev/null ||
	die "groff is missing: apt-get install groff-base (or make deps)"

failed=0
for page in "$@"; do
	[ -f "$page" ] || die "$page: no such man page"
	printf '  [%s] groff -man -ww -z %s\n' "$STEP" "$page" >&2
	if ! warnings=$(groff -man -ww -z "$page" 2>&1) || [ -n "$warnings" ]; then
		printf '%s\n' "$warnings"
		echo "check-man: FAIL: $page: groff warned"
		failed=1
	else
		echo "check-man: $page: ok"
	fi
done
exit $failed
