#!/usr/bin/env python3
"""print-matrix.py - print the test matrix from the targets' summaries.

Usage: scripts/print-matrix.py build/<target>/summary.tsv...

Each summary is the one parse-console.py wrote. Prints one row per target
and ABI (tests passed, failed and skipped, and the suite's time in the
guest), then each target's verdict and boot time. Exits 1 when a target
failed or has no summary, else 0.
"""

import os
import sys


def main(paths):
    if not paths:
        print("usage: print-matrix.py <summary.tsv>...", file=sys.stderr)
        return 2
    rows = []
    verdicts = []
    for path in paths:
        target = os.path.basename(os.path.dirname(path))
        if not os.path.exists(path):
            verdicts.append((target, "FAIL", "-", "no summary: the target was not booted"))
            continue
        with open(path) as f:
            for line in f:
                cells = line.rstrip("\n").split("\t")
                if cells[0] == "target":
                    continue
                if cells[0] == "# boot":
                    verdicts.append((target, cells[2], cells[1], ""))
                    continue
                rows.append(cells)

    header = ("target", "ABI", "passed", "failed", "skipped", "time", "result")
    table = [header] + [
        (r[0], r[1], r[2], r[3], r[4],
         r[5] + " s" if r[5] != "-" else "-", r[6]) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    print()
    for n, row in enumerate(table):
        print("  " + "  ".join(
            cell.ljust(w) if i < 2 or i == 6 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
        if n == 0:
            print("  " + "  ".join("-" * w for w in widths))
    print()
    failed = False
    for target, verdict, seconds, why in verdicts:
        boot = "" if seconds == "-" else ", boot and tests %s s wall" % seconds
        print("  %s: %s%s%s" % (target, verdict, boot, ": " + why if why else ""))
        failed |= verdict != "PASS"
    print()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
