#!/usr/bin/env python3
"""compare_results.py - the kernel's selftests, patched against unpatched.

Usage: scripts/upstream/compare_results.py --known KNOWN.tsv [--known KNOWN.tsv]... --dir DIR TARGET...

For each TARGET reads DIR/TARGET-unpatched.tsv and DIR/TARGET-patched.tsv
(written by collect_results.py) and prints the tests passed, failed and
skipped on each kernel, then:

  regressions       a test that passes unpatched and does not pass patched,
                    or is skipped unpatched and fails patched (a test that
                    did not run counts as failed). Each one fails the check.
  fail on both      with the reason from KNOWN.tsv, or, for a test that
                    KNOWN.tsv does not list, as unexplained: that fails the
                    check too, so that every failure left is explained.
  better patched    fails or skips unpatched, passes patched (for
                    information).
  stale entries     KNOWN.tsv lines that match no test failing on both (a
                    warning).

KNOWN.tsv: one line per known failure, tab-separated: target (or *), test
name (a shell-style pattern, as in the results TSV) and the reason; "#"
starts a comment. The counts leave out the (boot), (exit) and (suite)
checks, which are compared all the same.

Exits 0 when no target has a regression or an unexplained failure, 1 when
one has, 2 on bad usage or a missing results file.
"""

import argparse
import fnmatch
import os
import sys

RANK = {"pass": 2, "skip": 1, "fail": 0, None: 0}


def read_results(path):
    results = {}
    with open(path) as f:
        for n, line in enumerate(f):
            cells = line.rstrip("\n").split("\t")
            if n == 0 and cells[0] == "test":
                continue
            if len(cells) < 2:
                continue
            results[cells[0]] = (cells[1], cells[2] if len(cells) > 2 else "")
    return results


def read_known(path):
    known = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) != 3 or not all(c.strip() for c in cells):
                raise SystemExit("%s:%d: want <target>\\t<test>\\t<reason>, got %r"
                                 % (path, n, line))
            known.append([c.strip() for c in cells] + ["%s:%d" % (path, n), False])
    return known


def explain(known, target, test):
    for entry in known:
        if fnmatch.fnmatchcase(target, entry[0]) and fnmatch.fnmatchcase(test, entry[1]):
            entry[4] = True
            return entry[2]
    return None


def counts(results):
    c = {"pass": 0, "fail": 0, "skip": 0}
    for test, (res, _) in results.items():
        if "(" not in test and res in c:
            c[res] += 1
    return c


def result_of(results, test):
    return results[test][0] if test in results else None


def show(res):
    return res if res is not None else "not run"


def compare(target, unpatched, patched, known):
    """Print the comparison of one target; return (regressions, unexplained)."""
    print("%s: the kernel's selftests, unpatched and patched" % target)
    print("    %-10s %7s %7s %8s" % ("kernel", "passed", "failed", "skipped"))
    for name, results in (("unpatched", unpatched), ("patched", patched)):
        c = counts(results)
        print("    %-10s %7d %7d %8d" % (name, c["pass"], c["fail"], c["skip"]))

    regressions, both, better = [], [], []
    order = list(unpatched) + [t for t in patched if t not in unpatched]
    for test in order:
        u, p = result_of(unpatched, test), result_of(patched, test)
        detail = (patched.get(test) or unpatched.get(test))[1]
        if RANK[p] < RANK[u]:
            regressions.append((test, u, p, patched.get(test, ("", ""))[1]))
        elif u is None and p == "fail":
            regressions.append((test, u, p, detail))
        elif RANK[p] == 0 and RANK[u] == 0:
            both.append((test, detail))
        elif RANK[p] > RANK[u] and p == "pass":
            better.append((test, u))

    if regressions:
        print("  REGRESSIONS (%d): pass (or skip) unpatched, not patched:" % len(regressions))
        for test, u, p, detail in regressions:
            print("    %s: unpatched %s, patched %s%s"
                  % (test, show(u), show(p), ": " + detail if detail else ""))
    else:
        print("  regressions: none")

    explained, unexplained = [], []
    for test, detail in both:
        reason = explain(known, target, test)
        (explained if reason else unexplained).append((test, reason or detail))
    if explained:
        print("  fail on both kernels, known (%d):" % len(explained))
        for test, reason in explained:
            print("    %s: %s" % (test, reason))
    if unexplained:
        print("  FAIL ON BOTH KERNELS, NOT IN known-failures.tsv (%d):" % len(unexplained))
        for test, detail in unexplained:
            print("    %s%s" % (test, ": " + detail if detail else ""))
    if not both:
        print("  fail on both kernels: none")
    if better:
        print("  better patched (%d):" % len(better))
        for test, u in better:
            print("    %s: unpatched %s, patched pass" % (test, show(u)))
    return len(regressions), len(unexplained)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--known", required=True, action="append",
                    help="known failures (TSV); repeat it for more files")
    ap.add_argument("--dir", required=True, help="where the results TSVs are")
    ap.add_argument("targets", nargs="+")
    args = ap.parse_args()

    known = [entry for path in args.known for entry in read_known(path)]
    verdicts = []
    for target in args.targets:
        paths = [os.path.join(args.dir, "%s-%s.tsv" % (target, k))
                 for k in ("unpatched", "patched")]
        missing = [p for p in paths if not os.path.exists(p)]
        if missing:
            print("compare-results: %s: missing %s" % (target, ", ".join(missing)),
                  file=sys.stderr)
            return 2
        problems = compare(target, read_results(paths[0]), read_results(paths[1]),
                           known)
        verdicts.append((target, problems))
        print()

    for entry in known:
        target_pattern, test_pattern, _, line, used = entry
        applies = any(fnmatch.fnmatchcase(t, target_pattern) for t in args.targets)
        if applies and not used:
            print("warning: %s (%s %s) matches no test failing on both kernels;"
                  " drop it?" % (line, target_pattern, test_pattern))
    failed = False
    for target, (regressions, unexplained) in verdicts:
        if regressions or unexplained:
            print("check-upstream: %s: FAIL: %d regressions, %d unexplained failures"
                  " on both kernels" % (target, regressions, unexplained))
            failed = True
        else:
            print("check-upstream: %s: PASS: no regression, every failure on"
                  " both kernels explained" % target)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
