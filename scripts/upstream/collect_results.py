#!/usr/bin/env python3
"""collect_results.py - per-test results of one upstream boot, as a TSV.

Usage: scripts/upstream/collect_results.py --target T --init INIT --log LOG
                                           --out RESULTS.tsv [--kunit-dir DIR]

Reads the console log of a make check-upstream boot (and LOG.status beside
it, from run-qemu.sh), parses its KTAP with the kernel tree's own parser
as console_verdict.py does (--kunit-dir, default $KUNIT_DIR, else the
newest tree under build/) and writes one row per test: test, result
(pass, fail or skip) and a detail. A test is named <abi>/<binary> or, for
a binary that prints KTAP of its own (seccomp_bpf, through
kselftest_harness.h), <abi>/<binary>/<case>:

  <abi>/<binary>          a binary without KTAP (the x86 tests), judged by
                          its exit status: 0 pass, 4 (KSFT_SKIP) skip,
                          anything else, a signal or the time limit fail.
  <abi>/<binary>/<case>   each "ok"/"not ok" line of a KTAP binary.
  <abi>/<binary>/(exit)   a KTAP binary's exit: fail when it was killed,
                          timed out, reported fewer cases than planned or
                          its KTAP was broken.
  <abi>/(suite)           fail only when a suite of INIT never ran.
  (boot)                  fail when the guest hung, panicked or reported
                          anything (scripts/boot/console-badness.txt), the
                          KTAP above the binaries was broken, or the guest
                          stopped before the end-of-run line.

The guest's overall verdict is not a row: tests that fail on both kernels
make it fail. Exits 0 when the TSV was written, 2 on bad usage or a
missing log.
"""

import argparse
import os
import re
import sys

from boot import console_badness, harness_ktap
from boot.console_verdict import (END_RE, STATUS_GUEST_FAIL, STATUS_GUEST_PASS,
                                  STATUS_TIMEOUTS, SUITE_LINE_RE, read_status)

TARGET_RE = re.compile(r"^# harness: target .*?, kernel (\S+),")
# kselftest_harness.h's " RUN  <name> ..." before a case, and its
# " OK  <name>" or " FAIL  <name>" after, in "#" lines.
CASE_RUN_RE = re.compile(r"^RUN\s+\S+ \.\.\.")
CASE_END_RE = re.compile(r"^(FAIL|OK)\s")


def clean(text):
    """A detail fit for one TSV cell."""
    return re.sub(r"\s+", " ", text or "").strip()[:300]


def result(test):
    """pass, fail or skip, from @test's own result line."""
    if getattr(test, "result", None) != "ok":
        return "fail"
    return "skip" if test.directive.upper().startswith("SKIP") else "pass"


def case_detail(case):
    """Why a case failed: its "#" lines since its RUN line, less its
    FAIL line."""
    diags = [line.strip()[1:].strip() for line in case.log
             if line.strip().startswith("#")]
    runs = [i for i, d in enumerate(diags) if CASE_RUN_RE.match(d)]
    return " | ".join(d for d in diags[runs[-1] + 1 if runs else 0:]
                      if not CASE_END_RE.match(d))


def ktap(binary):
    """Whether @binary printed KTAP: a test without a header of its own has
    no subtests and no plan (0, not None)."""
    return binary.subtests or binary.expected_count != 0


def binary_rows(abi, b):
    """The rows of test binary @b of suite @abi."""
    where = "%s/%s" % (abi, b.name)
    directive = getattr(b, "directive", "")
    if not ktap(b):
        return [(where, result(b), clean("" if result(b) == "pass" else directive))]
    rows = []
    seen = set()
    for case in b.subtests:
        if harness_ktap.placeholder(case):
            continue
        test = "%s/%s" % (where, case.name)
        if test in seen:
            test += "#%d" % len(seen)
        seen.add(test)
        res = result(case)
        detail = (case.directive[4:].strip() if res == "skip"
                  else case_detail(case) if res == "fail" else "")
        rows.append((test, res, clean(detail)))
    problems = harness_ktap.complaints(b) + [
        "%s: %s" % (case.name, c) for case in b.subtests
        for c in harness_ktap.complaints(case)]
    # kselftest_harness.h exits 1 (KSFT_FAIL) when a case failed.
    failed = any(res == "fail" for _, res, _ in rows)
    if not hasattr(b, "result"):
        pass  # the guest stopped in it: complaints() says so
    elif result(b) == "fail" and directive != "exit status 1":
        problems.append(directive or "not ok")
    elif result(b) == "fail" and not failed:
        problems.append("exit status 1 without a failing case")
    elif result(b) != "fail" and failed:
        problems.append("exit status 0 with failing cases")
    rows.append((where + "/(exit)", "fail" if problems else "pass",
                 clean("; ".join(problems) or directive or "exit status 0")))
    return rows


def rows_for(tree, wanted, kernel, end, badness, status, last):
    rows = []
    suites = [s for s in tree.subtests if not harness_ktap.placeholder(s)] \
        if tree else []
    for suite in suites:
        for b in suite.subtests:
            if not harness_ktap.placeholder(b):
                rows += binary_rows(suite.name, b)
    for abi in wanted:
        if abi not in [s.name for s in suites]:
            rows.append(("%s/(suite)" % abi, "fail", "suite never ran"))

    problems = []
    code = status.get("status")
    if code is None:
        problems.append("no QEMU exit status recorded")
    elif int(code) in STATUS_TIMEOUTS:
        problems.append("guest hung: stopped after %s s" % status.get("timeout", "?"))
    elif int(code) not in (STATUS_GUEST_PASS, STATUS_GUEST_FAIL):
        problems.append("QEMU exited with status %s, not from debug-exit" % code)
    panic, reports = badness
    if panic:
        problems.append("kernel panic: %s" % panic)
    problems += ["kernel error: %s" % r for r in reports]
    if tree is None:
        problems.append("the guest printed no harness KTAP (did /init run?)")
    elif end is None:
        problems.append("no end-of-run line; last console line: %s" % last)
    # The KTAP above the binaries' own: a suite with binaries missing, a
    # binary misnumbered.
    problems += ["%s: %s" % (suite.name, c) for suite in suites
                 for c in harness_ktap.complaints(suite)]
    problems += ["%s/%s: %s" % (suite.name, b.name, c) for suite in suites
                 for b in suite.subtests if not ktap(b)
                 for c in harness_ktap.complaints(b)]
    rows.append(("(boot)", "fail" if problems else "pass",
                 clean("; ".join(problems) or "kernel %s" % kernel)))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", required=True)
    ap.add_argument("--init", required=True, help="the upstream /init of the target")
    ap.add_argument("--log", required=True, help="console log of the boot")
    ap.add_argument("--out", required=True, help="results TSV to write")
    ap.add_argument("--kunit-dir", metavar="DIR",
                    help="a kernel tree's tools/testing/kunit (default "
                    "$KUNIT_DIR, else the newest tree under build/)")
    args = ap.parse_args()
    kunit_parser = harness_ktap.load(harness_ktap.kunit_dir(args.kunit_dir))

    try:
        with open(args.log, "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
        with open(args.init) as f:
            wanted = [m.group(1) for m in map(SUITE_LINE_RE.match, f)
                      if m and m.group(1)]
    except OSError as e:
        print("collect-results: %s" % e, file=sys.stderr)
        return 2
    start = harness_ktap.start(lines)
    run = lines[start:] if start is not None else []
    tree = harness_ktap.parse(run, kunit_parser) if run else None
    m = TARGET_RE.match(run[0]) if run else None
    kernel = m.group(1) if m else None
    end = next((m.group(1) for m in map(END_RE.match, run) if m), None)
    last = next((line.strip() for line in reversed(lines) if line.strip()), "")
    rows = rows_for(tree, wanted, kernel, end, console_badness.scan(lines),
                    read_status(args.log + ".status"), last)

    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("test\tresult\tdetail\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    os.replace(tmp, args.out)
    counts = {r: sum(1 for test, res, _ in rows if res == r and "(" not in test)
              for r in ("pass", "fail", "skip")}
    print("  [collect-results] %s: %d passed, %d failed, %d skipped -> %s"
          % (args.target, counts["pass"], counts["fail"], counts["skip"], args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
