#!/usr/bin/env python3
"""console_verdict.py - turn a guest's console log into a verdict.

Usage: scripts/boot/console_verdict.py --target T --init rootfs-T/init --log LOG
                                [--summary OUT.tsv] [--mode test|bench]
                                [--expect-suite NAME]... [--kunit-dir DIR]
                                [--json OUT.json]

Reads the console log that run-qemu.sh captured (and LOG.status and
LOG.stderr beside it), parses the KTAP the guest printed with the kernel
tree's own parser, kunit_parser.py from --kunit-dir (default $KUNIT_DIR,
else the newest tree under build/: harness_ktap.py), and decides:

  PASS  every suite of the target's /init, and each --expect-suite (the
        kmemleak suite of a DEBUG=1 kernel), ran to the end-of-run line,
        no test failed or crashed, the KTAP was whole, the kernel neither
        panicked nor reported anything (scripts/boot/console-badness.txt),
        and the guest reported "pass" through its debug-exit tool (QEMU's
        isa-debug-exit device on x86, semihosting on arm64).
  FAIL  anything else, with one message per problem found.

Writes a per-ABI summary (tab-separated: target, abi, passed, failed,
skipped, seconds, result) to --summary, the parsed tests as KernelCI JSON
(the tree's kunit_json.py) to --json, prints the messages and exits 0 on
PASS, 1 on FAIL and 2 on bad usage.

The KTAP is the one scripts/boot/guest/harness.sh prints: top-level tests
are ABI suites, their subtests test binaries, and the binaries' own test
cases are nested in them. What is this harness's own, and no KTAP parser
knows, is judged here: the suites that /init runs, QEMU's exit status
against the guest's verdict, the time limits, and the harness's lines
that say which binary ran, how one died and how long a suite took.
"""

import argparse
import os
import re
import sys

from boot import console_badness, harness_ktap

# debug-exit: QEMU exits with (value << 1) | 1 on every target. harness.sh
# writes 0 for a passing run and 1 for a failing one.
STATUS_GUEST_PASS = (0 << 1) | 1
STATUS_GUEST_FAIL = (1 << 1) | 1
# timeout(1) returns 124 when it stopped QEMU, 137 when it had to kill it.
STATUS_TIMEOUTS = (124, 137)

# The harness's own lines: which binary runs (for a hang), how one died
# (with the signal's name, which the result line does not give), how long
# a suite took, and the guest's verdict.
RUNNING_RE = re.compile(r"^\s*# harness: running (\S+)")
CRASH_RE = re.compile(r"^\s*# harness: (\S+) killed by signal (\d+)(.*)")
ELAPSED_RE = re.compile(r"^\s*# harness: suite (\S+) elapsed_cs=(\d+)")
END_RE = re.compile(r"^# harness: end of run: (pass|fail)")
# KTAP's bail-out, which kunit_parser does not know; harness.sh prints one
# when /init cannot mount what it needs, before its run starts.
BAIL_OUT_RE = re.compile(r"^\s*Bail out!\s*(.*)")
SUITE_LINE_RE = re.compile(r"^(?:suite\s+(\S+)\s+\S+|kunit_suite\s+(\S+))\s*$")
BENCH_LINE_RE = re.compile(r"^bench_suite\s+(\S+)\s+\S+\s*$")
# A failure quotes at most this many of the last lines of its test's log:
# a binary without KTAP has no results to split its output.
LOG_LINES = 30


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return None


def read_status(path):
    fields = {}
    text = read_text(path)
    for line in (text or "").splitlines():
        key, _, value = line.partition("=")
        fields[key.strip()] = value.strip()
    return fields


def expected_suites(init_path, mode):
    """The suites /init runs in @mode, in order."""
    text = read_text(init_path)
    if text is None:
        raise SystemExit("console_verdict: cannot read %s" % init_path)
    if mode == "bench":
        return [m.group(1)
                for m in map(BENCH_LINE_RE.match, text.splitlines()) if m]
    return [m.group(1) or m.group(2)
            for m in map(SUITE_LINE_RE.match, text.splitlines()) if m]


def harness_events(run):
    """What the harness's own lines in @run say."""
    events = {"running": None, "crashes": [], "seconds": {}, "end": None}
    for line in run:
        m = RUNNING_RE.match(line)
        if m:
            events["running"] = m.group(1)
        m = CRASH_RE.match(line)
        if m:
            events["crashes"].append("%s killed by signal %s%s" % m.groups())
        m = ELAPSED_RE.match(line)
        if m:
            events["seconds"][m.group(1)] = int(m.group(2)) / 100.0
        m = END_RE.match(line)
        if m:
            events["end"] = m.group(1)
    return events


def problems(test, parent="", depth=0):
    """Messages for what went wrong in @test (a suite at @depth 0, a test
    binary at 1, a test case below), named after its @parent, and in its
    subtests: the tests that failed, with the diagnostics before their
    result line (the test's expected and actual values), and the parser's
    complaints (a plan count not met, a result line missing, a test
    misnumbered)."""
    where = "%s/%s" % (parent, test.name) if parent else test.name
    msgs = ["%s: %s" % (where, c) for c in harness_ktap.complaints(test)]
    below = []
    for sub in test.subtests:
        # The parser puts a blank test for each one a plan has more.
        if not harness_ktap.placeholder(sub):
            below += problems(sub, where, depth + 1)
    msgs += below
    # A test whose result line says "not ok", with no failure below it to
    # say why. (The parser's status may be a failure without one: a test
    # with a subtest missing, which its complaint above says.)
    if getattr(test, "result", "ok") == "ok" or any(
            m.startswith("test failed: ") for m in below):
        return msgs
    if depth >= 2:
        # A test case: its name says what failed.
        head = "test failed: %s: %s" % (parent, test.name)
    else:
        # A binary's or suite's result says how: "exit status 1",
        # "killed by signal 9".
        head = "test failed: %s: %s" % (where, test.directive or "not ok")
    return msgs + [head + "".join("\n    " + line.strip()
                                  for line in test.log[-LOG_LINES:]
                                  if line.strip())]


def judge(target, wanted, tree, events, badness, bail_outs, status, stderr,
          lines):
    """Return (messages, rows): every problem found and the per-ABI rows."""
    msgs = []
    code = status.get("status")
    last = next((l.strip() for l in reversed(lines) if l.strip()), "")
    if code is None:
        msgs.append("no QEMU exit status recorded (run-qemu.sh did not finish)")
    elif int(code) in STATUS_TIMEOUTS:
        during = (" while %s ran" % events["running"]
                  if events["running"] and events["end"] is None else "")
        msgs.append("guest hung%s: QEMU was still running after %s s and "
                    "was stopped; last console line: %r"
                    % (during, status.get("timeout", "?"), last))
    if not lines:
        why = (stderr or "").strip().splitlines()
        msgs.append("no console output from the guest%s"
                    % (": QEMU said %r" % why[0] if why else ""))
    panic, reports = badness
    if panic:
        msgs.append("kernel panic: %s" % panic)
    msgs += ["kernel error in the log: %s" % r for r in reports]
    msgs += ["the guest bailed out: %s" % why for why in bail_outs]
    if lines and tree is None:
        msgs.append("the guest printed no harness KTAP (did /init run?)")
    if events["end"] is None:
        msgs.append("missing end-of-run line: the guest stopped before the "
                    "tests finished; last console line: %r" % last)
    msgs += ["test binary crashed: %s" % c for c in events["crashes"]]

    suites = {}
    for suite in tree.subtests if tree else []:
        # The first: after a result line too many, the parser may take
        # later lines for more suites.
        suites.setdefault(suite.name, suite)
    rows = []
    for abi in wanted:
        suite = suites.get(abi)
        if suite is None:
            msgs.append("%s/%s: suite never ran" % (target, abi))
            rows.append((abi, None, None, None, None, "not run"))
            continue
        msgs += problems(suite)
        # Per binary, its cases (the parser counts a case that never
        # reported as crashed: a failure here), or the binary itself if it
        # has none; a binary that said "not ok", or nothing, with no case
        # failing is one failure more.
        passed = failed = skipped = 0
        for binary in suite.subtests:
            counts = binary.counts
            passed += counts.passed
            skipped += counts.skipped
            failed += counts.failed + counts.crashed
            if getattr(binary, "result", "not ok") == "not ok" and not (
                    counts.failed or counts.crashed
                    or harness_ktap.placeholder(binary)):
                failed += 1
        reported = [b for b in suite.subtests
                    if not harness_ktap.placeholder(b)]
        ok = (suite.ok_status() and not failed and not suite.counts.errors
              and suite.expected_count == len(reported))
        rows.append((abi, passed, failed, skipped,
                     events["seconds"].get(abi), "pass" if ok else "FAIL"))
    for name in suites:
        if name and name not in wanted:
            msgs.append("unexpected suite %r in the log" % name)
    top = tree.expected_count if tree else None
    if top is not None and top != len(wanted):
        msgs.append("top-level plan is 1..%d, but /init lists %d suites"
                    % (top, len(wanted)))

    # The guest's own verdict must agree with what QEMU's exit says.
    if code is not None and int(code) not in STATUS_TIMEOUTS:
        code = int(code)
        if events["end"] == "pass" and code != STATUS_GUEST_PASS:
            msgs.append("the guest printed 'pass' but QEMU exited with status "
                        "%d, not %d from debug-exit" % (code, STATUS_GUEST_PASS))
        elif events["end"] == "fail" and code != STATUS_GUEST_FAIL:
            msgs.append("the guest printed 'fail' but QEMU exited with status "
                        "%d, not %d from debug-exit" % (code, STATUS_GUEST_FAIL))
        elif events["end"] == "fail" and not msgs:
            msgs.append("the guest reported failure without a failing test")
    return msgs, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", required=True)
    ap.add_argument("--init", required=True, help="the target's /init")
    ap.add_argument("--log", required=True, help="console log")
    ap.add_argument("--summary", help="per-ABI summary to write (TSV)")
    ap.add_argument("--json", help="the parsed tests to write (KernelCI JSON)")
    ap.add_argument("--mode", choices=("test", "bench"), default="test",
                    help="which suites of /init the guest ran")
    ap.add_argument("--expect-suite", action="append", default=[],
                    metavar="NAME",
                    help="a suite the guest adds after those of /init "
                    "(the kmemleak scan of a debug kernel)")
    ap.add_argument("--kunit-dir", metavar="DIR",
                    help="a kernel tree's tools/testing/kunit (default "
                    "$KUNIT_DIR, else the newest tree under build/)")
    args = ap.parse_args()
    kunit_parser = harness_ktap.load(harness_ktap.kunit_dir(args.kunit_dir))

    text = read_text(args.log)
    lines = text.splitlines() if text else []
    status = read_status(args.log + ".status")
    stderr = read_text(args.log + ".stderr")
    wanted = expected_suites(args.init, args.mode) + args.expect_suite

    start = harness_ktap.start(lines)
    run = lines[start:] if start is not None else []
    tree = harness_ktap.parse(run, kunit_parser) if run else None
    bail_outs = [m.group(1).strip() for m in map(BAIL_OUT_RE.match, lines) if m]
    msgs, rows = judge(args.target, wanted, tree, harness_events(run),
                       console_badness.scan(lines), bail_outs, status, stderr,
                       lines)
    verdict = "FAIL" if msgs else "PASS"

    if args.summary:
        tmp = args.summary + ".tmp"
        with open(tmp, "w") as f:
            f.write("target\tabi\tpassed\tfailed\tskipped\tseconds\tresult\n")
            for abi, p, fl, s, secs, res in rows:
                cells = [args.target, abi] + [
                    "-" if v is None else str(v) for v in (p, fl, s)]
                cells.append("-" if secs is None else "%.2f" % secs)
                cells.append(res)
                f.write("\t".join(cells) + "\n")
            f.write("# boot\t%s\t%s\n" % (status.get("seconds", "-"), verdict))
        os.replace(tmp, args.summary)
    if args.json and tree:
        import kunit_json
        with open(args.json, "w") as f:
            f.write(kunit_json.get_json_result(
                tree, kunit_json.Metadata(arch=args.target)))

    print("%s: %s (%s)" % (args.target, verdict, args.log))
    for msg in msgs:
        print("  %s: %s" % (args.target, msg))
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
