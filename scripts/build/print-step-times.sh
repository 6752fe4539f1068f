#!/bin/sh
# print-step-times.sh - print how long each step of a run took.
#
# Usage: scripts/build/print-step-times.sh [--end] <step-times.tsv>
#
# --end: the run ends here; add a "# ended <epoch>" line to the file, from
# which "whole run" is counted then and later (scripts/results/).
# The file is the one the Makefile names in STEP_TIMES: a "# begun <epoch>"
# line written when "make", "make test", "make boot" or "make matrix"
# starts, then one "<step>\t<seconds>\t<exit status>" line per step, added
# by scripts/lib.sh when the step ends. Steps that ran side by side
# overlap, so their times add up to more than the whole run.
set -eu
STEP=print-step-times
. "$(dirname "$0")/../lib.sh"
# Not a step of the run: it records no time of its own.
STEP_TIMES=

end=
[ "${1:-}" != --end ] || { end=yes; shift; }
[ $# -eq 1 ] || die "usage: $0 [--end] <step-times.tsv>"
[ -f "$1" ] || die "$1 not found: no step has recorded its time"
now=$(date +%s)
[ -z "$end" ] || echo "# ended $now" >>"$1"
awk -F '\t' -v now="$now" '
	function t(s) { return sprintf("%dm%02ds", s / 60, s % 60) }
	/^# begun / { begun = $0; sub(/^# begun /, "", begun); next }
	/^# ended / { ended = $0; sub(/^# ended /, "", ended); next }
	{
		n++; step[n] = $1; secs[n] = $2
		verdict[n] = $3 == 0 ? "" : "failed (exit status " $3 ")"
		if (length($1) > w) w = length($1)
	}
	END {
		print ""
		print "  step times (steps side by side overlap):"
		for (i = 1; i <= n; i++)
			printf "    %-" w "s  %7s  %s\n", step[i], t(secs[i]), verdict[i]
		if (begun != "")
			printf "    %-" w "s  %7s\n", "whole run", t((ended != "" ? ended : now) - begun)
		print ""
	}' "$1"
