#!/usr/bin/env python3
"""write_results.py - write docs/results.md from the last run's outputs.

Usage: scripts/results/write_results.py [--check] <build-dir> <results.md>

Every figure of the project's documents that a run measures is here, and
only here, generated from what that run left in <build-dir> (build/):

  <base>/matrix.txt          the test matrix of the base's last boots
  <base>/step-times.tsv      how long each step of the last run took
  <base>/bench/<t>-goals.tsv     the cost goals, each with its limit
  <base>/bench/<t>-figures.tsv   the other bench figures
  <base>/profile/<t>-<abi>.txt   the extra instructions per function
  cross-base/*/matrix.txt    each base's binaries on the other's kernels

The file shows one run; git keeps the earlier ones. A part whose inputs
are missing says so instead of a figure. With --check nothing is written:
exit 1, with a diff, when the file differs from what the inputs give.
Exits 2 on bad usage or when <build-dir> has no base at all.
"""

import argparse
import difflib
import os
import re
import sys

from series.cover_costs import Missing, Results

STEP = "results"


def fail(msg, status=2):
    print("%s: error: %s" % (STEP, msg), file=sys.stderr)
    sys.exit(status)


def read_tsv(folder, name, key_columns):
    """The rows of the bench report's TSV file <name>, in file order, read
    as the cover letters read them; [] if it is absent. A malformed file
    ends the run with its reason."""
    if not os.path.exists(os.path.join(folder, name)):
        return []
    try:
        return list(Results(folder).table(name, key_columns).values())
    except Missing as e:
        fail(str(e))


def figure(value):
    """A figure as the bench report prints it: integers without '.000'."""
    v = float(value)
    return "%d" % v if v == int(v) else "%.3f" % v


def minutes(seconds):
    seconds = int(seconds)
    return "%d min %02d s" % (seconds // 60, seconds % 60)


def bases(build):
    found = [d for d in os.listdir(build)
             if re.fullmatch(r"\d+\.\d+", d)
             and os.path.isdir(os.path.join(build, d))]
    return sorted(found, key=lambda b: [int(x) for x in b.split(".")],
                  reverse=True)


def matrix_part(path, what):
    if not os.path.exists(path):
        return ["No %s: `%s` is missing." % (what, path), ""]
    with open(path) as f:
        text = f.read().rstrip("\n")
    return ["```", text, "```", ""]


def step_times_part(path):
    """The steps of the last run, in the order they ended, and the whole
    run from its "# begun" to its "# ended" line (print-step-times.sh
    --end writes that when the run ends)."""
    if not os.path.exists(path):
        return ["No step times: `%s` is missing." % path, ""]
    begun = ended = None
    rows = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# begun "):
                begun = int(line.split()[2])
            elif line.startswith("# ended "):
                ended = int(line.split()[2])
            elif line and not line.startswith("#"):
                step, secs, status = line.split("\t")
                rows.append((step, int(secs), int(status)))
    out = ["| step | time | exit status |", "|---|---|---|"]
    out += ["| %s | %s | %d |" % (s, minutes(t), st) for s, t, st in rows
            if t > 0 or st]
    if begun is not None and ended is not None:
        out.append("| whole run (steps side by side overlap) | %s | |"
                   % minutes(ended - begun))
    else:
        out.append("| whole run | not recorded: the run did not end | |")
    return out + [""]


def abis_of(rows):
    seen = []
    for row in rows:
        if row["abi"] not in seen:
            seen.append(row["abi"])
    return seen


def abi_table(rows, key, abis, cell):
    """A table of one row per value of rows' column <key>, in first-seen
    order, and one column per ABI, each cell cell(row) or empty."""
    names = []
    for row in rows:
        if row[key] not in names:
            names.append(row[key])
    out = ["| %s | " % key + " | ".join(abis) + " |",
           "|---|" + "---|" * len(abis)]
    for name in names:
        cells = []
        for abi in abis:
            row = next((r for r in rows
                        if r[key] == name and r["abi"] == abi), None)
            cells.append("" if row is None else cell(row))
        out.append("| %s | %s |" % (name, " | ".join(cells)))
    return out + [""]


def goal_cell(row):
    verdict = "" if row["verdict"] == "met" else \
        " **%s**" % row["verdict"].upper()
    return "%s / %s%s" % (figure(row["value"]), figure(row["limit"]),
                          verdict)


def bench_part(bench_dir, target):
    goals = read_tsv(bench_dir, "%s-goals.tsv" % target, ("goal", "abi"))
    figures = read_tsv(bench_dir, "%s-figures.tsv" % target,
                       ("figure", "abi"))
    if not goals:
        return ["No bench results for %s." % target, ""]
    abis = abis_of(goals)
    out = ["Cost goals, %s (value / limit, guest instructions or ratios):"
           % target, ""]
    out += abi_table(goals, "goal", abis, goal_cell)
    if figures:
        out += ["Other figures, %s:" % target, ""]
        out += abi_table(figures, "figure", abis,
                         lambda row: figure(row["value"]))
    return out


def profile_part(profile_dir):
    """The extra instructions of indirect(getppid) per function, and the
    serializing and access-window instructions it adds, per ABI."""
    if not os.path.isdir(profile_dir):
        return ["No profile (`make profile` writes one).", ""]
    out = ["| target-ABI | extra instructions (filtered functions) "
           "| serializing and access-window instructions, extra |",
           "|---|---|---|"]
    for name in sorted(os.listdir(profile_dir)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(profile_dir, name)) as f:
            text = f.read()
        total = re.search(r"^all\s+\S+\s+\S+\s+(\S+)$", text, re.M)
        extra = re.search(r"^extra:\s+(.*)$", text, re.M)
        out.append("| %s | %s | %s |" % (
            name[:-4], total.group(1) if total else "?",
            extra.group(1) if extra else "none"))
    return out + [""]


def render(build):
    found = bases(build)
    if not found:
        fail("%s has no base (no build/<base>/ folder): run make test first"
             % build)
    out = ["# Results of the last run", "",
           "Written by `make results` (`scripts/results/write_results.py`)"
           " from what the last `make test` left in `build/`; nothing here "
           "is typed. Earlier runs are in git's history.", ""]
    for base in found:
        top = os.path.join(build, base)
        out += ["## Base %s" % base, "", "### Tests", ""]
        out += matrix_part(os.path.join(top, "matrix.txt"), "test matrix")
        out += ["### Step times", ""]
        out += step_times_part(os.path.join(top, "step-times.tsv"))
        out += ["### Cost", ""]
        bench = os.path.join(top, "bench")
        targets = sorted({n[:-len("-goals.tsv")]
                          for n in (os.listdir(bench)
                                    if os.path.isdir(bench) else [])
                          if n.endswith("-goals.tsv")})
        if not targets:
            out += ["No bench results (`make bench-check` writes them).", ""]
        for target in targets:
            out += bench_part(bench, target)
        out += ["### Where the instructions go", ""]
        out += profile_part(os.path.join(top, "profile"))
    cross = os.path.join(build, "cross-base")
    out += ["## Cross-base", ""]
    if os.path.isdir(cross):
        for pair in sorted(os.listdir(cross)):
            out += ["### %s" % pair, ""]
            out += matrix_part(os.path.join(cross, pair, "matrix.txt"),
                               "matrix for %s" % pair)
    else:
        out += ["No cross-base boots (`make check-cross-base`).", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 with a diff if it differs")
    ap.add_argument("build")
    ap.add_argument("results")
    args = ap.parse_args()
    if not os.path.isdir(args.build):
        fail("no build folder %s: run make test first" % args.build)
    text = render(args.build)
    old = ""
    if os.path.exists(args.results):
        with open(args.results) as f:
            old = f.read()
    if args.check:
        if old != text:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True),
                args.results, "from " + args.build))
            print("%s: %s differs from the results in %s: run make results"
                  % (STEP, args.results, args.build))
            sys.exit(1)
        print("%s: %s matches %s" % (STEP, args.results, args.build))
        return
    if old != text:
        with open(args.results, "w") as f:
            f.write(text)
        print("%s: wrote %s" % (STEP, args.results))
    else:
        print("%s: %s unchanged" % (STEP, args.results))


if __name__ == "__main__":
    main()
