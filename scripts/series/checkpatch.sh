#!/bin/sh
# checkpatch.sh - the tree's checkpatch.pl --strict on one patch, with the
# patch's own reasons for what it keeps.
#
# Usage: scripts/series/checkpatch.sh <tree-dir> <patch>
#
# An ERROR always fails. A WARNING or a CHECK fails unless the patch gives
# its reason below its "---" line (the notes that "git am" leaves out of the
# commit, before the first "diff --git"), one line per kind of message:
#
#     checkpatch: <TYPE or message text> -- <reason>
#
# The line may be indented, as "git format-patch --notes" writes a commit's
# git note there ("Notes:", then the note indented by four spaces).
# <TYPE> is checkpatch's name for the message, as --show-types prints it
# (OPEN_ENDED_LINE); the message text is what follows "WARNING: " or
# "CHECK: " (Lines should not end with a '('). One line covers every
# message of that type or text in the patch. A line without " -- " and a
# reason fails; one that matches no message is only reported.
#
# Prints the messages that fail, or those explained, and last a one-line
# verdict ("ok", "ok, 6 explained", "failed: ..."); exit status 1 on failure.
set -eu
STEP=series-checkpatch
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: $0 <tree-dir> <patch>"
tree=$(cd "$1" 2>/dev/null && pwd) || die "tree $1 not found"
patch=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
[ -f "$patch" ] || die "$2 not found"

report=$(mktemp)
errors=$(mktemp)
remove_reports() { rm -f "$report" "$errors"; }
at_exit remove_reports

# Its exit status says only whether there were messages; they are judged
# below.
cd "$tree"
printf '  [%s] %s\n' "$STEP" "perl scripts/checkpatch.pl --strict --show-types --color=never $patch" >&2
perl scripts/checkpatch.pl --strict --show-types --color=never "$patch" \
	>"$report" 2>"$errors" || true
# Without python3-ply, checkpatch's SPDX licence check dies with a
# traceback on each SPDX line, and checks nothing.
if grep -q "No module named 'ply'" "$errors"; then
	warn "python3-ply is not installed: SPDX licence lines not checked"
	grep -v -e '^Traceback' -e '^  File ' -e '^    ' \
		-e "No module named 'ply'" "$errors" >&2 || true
else
	cat "$errors" >&2
fi

awk -v patch="$patch" '
	# The patch: the reasons below its "---" line.
	FILENAME == patch {
		if (notes == 0 && $0 == "---") { notes = 1; next }
		if (notes == 1 && /^diff --git /) notes = 2
		if (notes != 1 || !/^[ \t]*checkpatch:/) next
		line = $0
		sub(/^[ \t]*checkpatch:[ \t]*/, "", line)
		i = index(line, " -- ")
		what = i ? substr(line, 1, i - 1) : ""
		reason = i ? substr(line, i + 4) : ""
		sub(/[ \t]+$/, "", what)
		sub(/^[ \t]+/, "", reason)
		if (what == "" || reason !~ /[^ \t]/) {
			malformed = malformed "  " $0 "\n"
			next
		}
		why[what] = reason
		order[++nwhy] = what
		next
	}
	# checkpatch: a message, then its lines up to a blank one.
	function judge() {
		if (level == "")
			return
		count[level]++
		if (level != "ERROR" && (type in why || text in why)) {
			key = type in why ? type : text
			if (!used[key]++)
				shown[key] = level ":" type ": " text
			nexplained++
		} else {
			if (type in why || text in why) {
				erred[type in why ? type : text] = 1
				block = block "\n(an ERROR fails whatever its reason)"
			}
			failed = failed block "\n\n"
			nfailed++
		}
		level = ""
	}
	/^(ERROR|WARNING|CHECK):[A-Z0-9_]+: / {
		judge()
		level = $0; sub(/:.*/, "", level)
		type = $0; sub(/^[A-Z]+:/, "", type); sub(/:.*/, "", type)
		text = $0; sub(/^[A-Z]+:[A-Z0-9_]+: /, "", text)
		block = $0
		next
	}
	level != "" && /^$/ { judge(); next }
	level != "" { block = block "\n" $0; next }
	/^total: [0-9]+ errors, [0-9]+ warnings, ([0-9]+ checks, )?[0-9]+ lines checked/ {
		total = $0
		split($0, f, " ")
		want = f[2] + f[4] + (f[7] == "checks," ? f[6] : 0)
	}
	END {
		judge()
		got = count["ERROR"] + count["WARNING"] + count["CHECK"]
		for (i = 1; i <= nwhy; i++)
			if (!(order[i] in used) && !(order[i] in erred))
				printf "stale reason (no such message): checkpatch: %s -- %s\n",
					order[i], why[order[i]]
		if (nexplained)
			print "explained below the ---:"
		for (i = 1; i <= nwhy; i++)
			if (order[i] in used)
				printf "  %d x %s -- %s\n", used[order[i]],
					shown[order[i]], why[order[i]]
		if (total == "") {
			print "failed: checkpatch.pl printed no \"total:\" line"
			exit 1
		}
		if (want != got) {
			printf "failed: checkpatch.pl counted %d messages (%s), read %d\n",
				want, total, got
			exit 1
		}
		if (malformed != "") {
			printf "reasons without \" -- <reason>\":\n%s", malformed
		}
		if (nfailed) {
			printf "%s", failed
			printf "failed: %d of %d messages are errors or have no reason below the --- (%s)\n",
				nfailed, got, total
			exit 1
		}
		if (malformed != "") {
			print "failed: malformed checkpatch: lines below the ---"
			exit 1
		}
		print nexplained ? "ok, " nexplained " explained" : "ok"
	}' "$patch" "$report"
