#!/usr/bin/env python3
"""collect-results.py - per-test results of one upstream boot, as a TSV.

Usage: scripts/upstream/collect-results.py --target T --init INIT --log LOG
                                           --out RESULTS.tsv

Reads the console log of a make check-upstream boot (and LOG.status beside
it, from run-qemu.sh) and writes one row per test: test, result (pass,
fail or skip) and a detail. A test is named <abi>/<binary> or, for a
binary that prints KTAP of its own (seccomp_bpf, through
kselftest_harness.h), <abi>/<binary>/<case>:

  <abi>/<binary>          a binary without KTAP (the x86 tests), judged by
                          its exit status: 0 pass, 4 (KSFT_SKIP) skip,
                          anything else, a signal or the time limit fail.
  <abi>/<binary>/<case>   each "ok"/"not ok" line of a KTAP binary.
  <abi>/<binary>/(exit)   a KTAP binary's exit: fail when it was killed,
                          timed out or reported fewer cases than planned.
  <abi>/(suite)           fail only when a suite of INIT never ran.
  (boot)                  fail when the guest hung, panicked, oopsed or
                          warned, or stopped before the end-of-run line.

The guest's overall verdict is not a row: tests that fail on both kernels
make it fail. Exits 0 when the TSV was written, 2 on bad usage or a
missing log.
"""

import argparse
import os
import re
import sys

# The kernel's own reports of trouble, its panic line and the harness's
# end-of-run line: those of the test boots' parser, scripts/parse-console.py,
# so that both judge a kernel alike; here a report may start with a printk
# timestamp.
def _console_parser():
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "parse-console.py")
    spec = importlib.util.spec_from_file_location("parse_console", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CONSOLE = _console_parser()
KERNEL_ERROR_RE = re.compile(
    r"^(?:\[\s*\d+\.\d+\]\s*)?(?:"
    + CONSOLE.KERNEL_ERROR_RE.pattern[1:] + ")")
PANIC_RE = CONSOLE.PANIC_RE
TARGET_RE = re.compile(r"^# harness: target .*?, kernel (\S+),")
END_RE = CONSOLE.END_RE
SUBTEST_RE = re.compile(r"^  # Subtest: (\S+)")
RUNNING_RE = re.compile(r"^  # harness: running (\S+?)/(\S+)")
BINARY_RE = re.compile(r"^  (not ok|ok) \d+ (\S+)\s*(?:#\s*(.*))?$")
# The binary's own output, indented by four spaces.
CASE_RE = re.compile(r"^    (not ok|ok) (\d+)\s*([^#]*?)\s*(?:#\s*(.*))?$")
CASE_PLAN_RE = re.compile(r"^    1\.\.(\d+)")
CASE_HEADER_RE = re.compile(r"^    (?:K?TAP version \d+)")
CASE_RUN_RE = re.compile(r"^    #\s+RUN\s+(\S+) \.\.\.")
CASE_DIAG_RE = re.compile(r"^    # (.*)")
SUITE_LINE_RE = re.compile(r"^suite\s+(\S+)\s+\S+\s*$")
# debug-exit: QEMU exits with (value << 1) | 1; the guest writes 0 or 1.
GUEST_EXITS = (1, 3)
TIMEOUTS = (124, 137)


def clean(text):
    """A detail fit for one TSV cell."""
    return re.sub(r"\s+", " ", text or "").strip()[:300]


class Binary:
    def __init__(self, abi, name):
        self.abi = abi
        self.name = name
        self.ktap = False
        self.plan = None
        self.cases = []        # (name, result, detail)
        self.last_run = None   # name from the latest "#  RUN  <name> ..."
        self.diags = []


def parse(lines):
    """Return (binaries, suites seen, events) from the console lines."""
    binaries = []
    suites = []
    events = {"panic": None, "kernel_errors": [], "end": None, "ktap": False,
              "last": "", "kernel": None}
    current = None
    for raw in lines:
        line = raw.rstrip("\r\n")
        if line.strip():
            events["last"] = line.strip()
        m = PANIC_RE.search(line)
        if m and events["panic"] is None:
            events["panic"] = m.group(1).strip() or "(no reason given)"
        if KERNEL_ERROR_RE.match(line):
            events["kernel_errors"].append(line.strip())
        m = TARGET_RE.match(line)
        if m:
            # A run starts (again): forget any earlier one.
            binaries, suites, current = [], [], None
            events.update(end=None, ktap=True, kernel=m.group(1))
            continue
        if not events["ktap"]:
            continue
        m = END_RE.match(line)
        if m:
            events["end"] = m.group(1)
            continue
        m = SUBTEST_RE.match(line)
        if m:
            suites.append(m.group(1))
            continue
        m = RUNNING_RE.match(line)
        if m:
            current = Binary(m.group(1), m.group(2))
            continue
        m = BINARY_RE.match(line)
        if m and current is not None:
            ok, name, directive = m.group(1) == "ok", m.group(2), m.group(3) or ""
            current.result = ("skip" if ok and directive.upper().startswith("SKIP")
                              else "pass" if ok else "fail")
            current.directive = directive
            binaries.append(current)
            current = None
            continue
        if current is None:
            continue
        if CASE_HEADER_RE.match(line):
            current.ktap = True
            continue
        m = CASE_PLAN_RE.match(line)
        if m and current.ktap and current.plan is None:
            current.plan = int(m.group(1))
            continue
        m = CASE_RUN_RE.match(line)
        if m:
            current.last_run = m.group(1)
            current.diags = []
            continue
        m = CASE_RE.match(line)
        if m and current.ktap:
            ok, num, desc, directive = (m.group(1) == "ok", int(m.group(2)),
                                        m.group(3), m.group(4) or "")
            # kselftest_harness.h prints "ok 36 # SKIP <why>" without the
            # name; the "#  RUN  <name> ..." line before it has it.
            name = desc or current.last_run or "#%d" % num
            if ok and directive.upper().startswith("SKIP"):
                result, detail = "skip", directive[4:].strip()
            elif ok:
                result, detail = "pass", ""
            else:
                result = "fail"
                detail = " | ".join(d for d in current.diags
                                    if not re.match(r"\s*(FAIL|OK)\s", d))
            current.cases.append((name, result, clean(detail)))
            current.last_run = None
            current.diags = []
            continue
        m = CASE_DIAG_RE.match(line)
        if m and current.ktap:
            current.diags.append(m.group(1))
    return binaries, suites, events


def rows_for(binaries, suites, wanted, events, status):
    rows = []
    for b in binaries:
        where = "%s/%s" % (b.abi, b.name)
        if not b.ktap:
            detail = "" if b.result == "pass" else b.directive
            rows.append((where, b.result, clean(detail)))
            continue
        seen = set()
        for name, result, detail in b.cases:
            test = "%s/%s" % (where, name)
            if test in seen:
                test += "#%d" % len(seen)
            seen.add(test)
            rows.append((test, result, detail))
        problems = []
        if b.plan is not None and b.plan != len(b.cases):
            problems.append("planned %d cases, reported %d" % (b.plan, len(b.cases)))
        # kselftest_harness.h exits 1 (KSFT_FAIL) when a case failed.
        failed = any(r == "fail" for _, r, _ in b.cases)
        if b.result == "fail" and b.directive != "exit status 1":
            problems.append(b.directive or "not ok")
        elif b.result == "fail" and not failed:
            problems.append("exit status 1 without a failing case")
        elif b.result != "fail" and failed:
            problems.append("exit status 0 with failing cases")
        rows.append((where + "/(exit)", "fail" if problems else "pass",
                     clean("; ".join(problems) or b.directive or "exit status 0")))
    for abi in wanted:
        if abi not in suites:
            rows.append(("%s/(suite)" % abi, "fail", "suite never ran"))

    problems = []
    code = status.get("status")
    if code is None:
        problems.append("no QEMU exit status recorded")
    elif int(code) in TIMEOUTS:
        problems.append("guest hung: stopped after %s s" % status.get("timeout", "?"))
    elif int(code) not in GUEST_EXITS:
        problems.append("QEMU exited with status %s, not from debug-exit" % code)
    if events["panic"]:
        problems.append("kernel panic: %s" % events["panic"])
    for err in events["kernel_errors"]:
        problems.append("kernel error: %s" % err)
    if not events["ktap"]:
        problems.append("the guest printed no harness KTAP (did /init run?)")
    elif events["end"] is None:
        problems.append("no end-of-run line; last console line: %s" % events["last"])
    rows.append(("(boot)", "fail" if problems else "pass",
                 clean("; ".join(problems) or "kernel %s" % events["kernel"])))
    return rows


def read_status(path):
    fields = {}
    try:
        with open(path) as f:
            for line in f:
                key, _, value = line.partition("=")
                fields[key.strip()] = value.strip()
    except OSError:
        pass
    return fields


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", required=True)
    ap.add_argument("--init", required=True, help="the upstream /init of the target")
    ap.add_argument("--log", required=True, help="console log of the boot")
    ap.add_argument("--out", required=True, help="results TSV to write")
    args = ap.parse_args()

    try:
        with open(args.log, "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
        with open(args.init) as f:
            wanted = [m.group(1) for m in map(SUITE_LINE_RE.match, f) if m]
    except OSError as e:
        print("collect-results: %s" % e, file=sys.stderr)
        return 2
    status = read_status(args.log + ".status")
    binaries, suites, events = parse(lines)
    rows = rows_for(binaries, suites, wanted, events, status)

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
