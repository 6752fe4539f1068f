"""console_badness.py - the console lines that say the kernel went wrong.

The patterns are those of scripts/boot/console-badness.txt, one filter
for every boot: console_verdict.py's (test and bench boots) and
upstream/collect_results.py's (make check-upstream).
"""

import os
import re

PATTERNS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "console-badness.txt")
# printk's timestamp, with CONFIG_PRINTK_TIME.
TIMESTAMP_RE = re.compile(r"^\[\s*\d+\.\d+\]\s*")
# The reason of a panic line, which console-badness.txt names.
PANIC_RE = re.compile(r"Kernel panic - not syncing: ?(.*)")


def patterns(path=PATTERNS_FILE):
    with open(path) as f:
        return [re.compile(line.rstrip()) for line in f
                if line.strip() and not line.startswith("#")]


def scan(lines, path=PATTERNS_FILE):
    """Return (panic, reports): the reason of the first panic line (None
    if none) and the other bad lines of @lines, stripped, in order."""
    regexes = patterns(path)
    panic = None
    reports = []
    for line in lines:
        line = TIMESTAMP_RE.sub("", line.strip("\r\n"))
        if not any(r.search(line) for r in regexes):
            continue
        m = PANIC_RE.search(line)
        if m is None:
            reports.append(line.strip())
        elif panic is None:
            panic = m.group(1).strip() or "(no reason given)"
    return panic, reports
