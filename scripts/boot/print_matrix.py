#!/usr/bin/env python3
"""print_matrix.py - print the test matrix from the targets' summaries.

Usage: scripts/boot/print_matrix.py [--markdown] [--title TEXT] [--out FILE]
           build/<base>/<target>/summary.tsv...

Each summary is the one console_verdict.py wrote. Prints one row per target
and ABI (tests passed, failed and skipped, and the suite's time in the
guest), then each target's verdict and boot time, under --title (the
kernel base) if given; with --markdown, as a
Markdown table and list (for a CI job's summary). --out FILE writes the
same to FILE too. Exits 1 when a target failed or has no summary, else 0.
"""

import argparse
import os
import sys


def main(argv):
    ap = argparse.ArgumentParser(
        description="Print the test matrix from the targets' summaries.")
    ap.add_argument("--markdown", action="store_true",
                    help="a Markdown table, for a CI job's summary")
    ap.add_argument("--out", help="write the matrix to this file too")
    ap.add_argument("--title", help="a line above the table: the kernel base")
    ap.add_argument("paths", nargs="+", metavar="summary.tsv")
    args = ap.parse_args(argv)
    lines = []
    if args.title:
        lines.append(("### " if args.markdown else "") + args.title)
    failed = matrix(args.paths, args.markdown, lines)
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 1 if failed else 0


def matrix(paths, markdown, out):
    """Append the matrix's lines to out; return True if a target failed."""
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
    failed = False
    if markdown:
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "|".join(
            "---" if i < 2 or i == 6 else "---:" for i in range(len(header))) + "|")
        for row in table[1:]:
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    else:
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        out.append("")
        for n, row in enumerate(table):
            out.append("  " + "  ".join(
                cell.ljust(w) if i < 2 or i == 6 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
            if n == 0:
                out.append("  " + "  ".join("-" * w for w in widths))
        out.append("")
    for target, verdict, seconds, why in verdicts:
        boot = "" if seconds == "-" else ", boot and tests %s s wall" % seconds
        line = "%s: %s%s%s" % (target, verdict, boot, ": " + why if why else "")
        out.append(("- **%s**" % line) if markdown else "  " + line)
        failed |= verdict != "PASS"
    out.append("")
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
