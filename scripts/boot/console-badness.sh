#!/bin/sh
# console-badness.sh - print the lines of a console log that say the
# kernel went wrong, as console_verdict.py and collect_results.py find
# them: those that match scripts/boot/console-badness.txt, after the
# printk timestamp if any. Like rcutorture's console-badness.sh.
#
# Usage: scripts/boot/console-badness.sh < console.log
# Exits 0 if it printed any, 1 if none, as grep does.
set -eu
patterns=$(sed '/^#/d; /^$/d' "$(dirname "$0")/console-badness.txt")
tr -d '\r' | sed -E 's/^\[ *[0-9]+\.[0-9]+\] *//' | grep -E -e "$patterns"
