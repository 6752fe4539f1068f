#!/usr/bin/env python3
"""parse-console.py - turn a guest's console log into a verdict.

Usage: scripts/parse-console.py --target T --init rootfs-T/init --log LOG
                                [--summary OUT.tsv] [--mode test|bench]
                                [--expect-suite NAME]...

Reads the console log that run-qemu.sh captured (and LOG.status and
LOG.stderr beside it), parses the KTAP the guest printed and decides:

  PASS  every suite of the target's /init, and each --expect-suite (the
        kmemleak suite of a DEBUG=1 kernel), ran to the end-of-run line,
        no test failed or crashed, the kernel neither panicked nor oopsed
        nor reported anything, and the guest reported "pass" through its
        debug-exit tool (QEMU's isa-debug-exit device on x86, semihosting
        on arm64).
  FAIL  anything else, with one message per problem found.

Writes a per-ABI summary (tab-separated: target, abi, passed, failed,
skipped, seconds, result) to --summary, prints the messages and exits
0 on PASS, 1 on FAIL and 2 on bad usage.

The KTAP layout is the one scripts/guest/harness.sh prints: top-level tests
are ABI suites (depth 0), their subtests are test binaries (depth 1) and
the binaries' own test cases are at depth 2. Indentation is two spaces a
level, as in Documentation/dev-tools/ktap.rst.
"""

import argparse
import os
import re
import sys

# debug-exit: QEMU exits with (value << 1) | 1 on every target. harness.sh
# writes 0 for a passing run and 1 for a failing one.
STATUS_GUEST_PASS = (0 << 1) | 1
STATUS_GUEST_FAIL = (1 << 1) | 1
# timeout(1) returns 124 when it stopped QEMU, 137 when it had to kill it.
STATUS_TIMEOUTS = (124, 137)

PANIC_RE = re.compile(r"Kernel panic - not syncing: ?(.*)")
# Kernel reports that mean the kernel itself went wrong. They start at
# column 0; test output is always indented or starts with "#". "BUG: "
# covers KASAN ("BUG: KASAN: slab-out-of-bounds in ...") and
# DEBUG_ATOMIC_SLEEP ("BUG: sleeping function called from invalid
# context"); the lockdep headers are those of kernel/locking/lockdep.c;
# kmemleak says how many leaks a scan found, and its report (which the
# harness prints indented) starts with "unreferenced object".
KERNEL_ERROR_RE = re.compile(
    r"^(BUG: .*|Oops: .*|general protection fault.*|kernel BUG at .*|"
    r"WARNING: CPU: .*|UBSAN: .*|KASAN: .*|"
    r"unreferenced object .*|kmemleak: \d+ new suspected memory leaks.*|"
    r"WARNING: (possible .*|inconsistent lock state|"
    r".*-safe -> .*-unsafe lock order detected|chain_key collision|"
    r"Nested lock was not taken|bad unlock balance detected!|"
    r"bad contention detected!|held lock freed!|.* still has locks held!|"
    r"lock held when returning to user space!|suspicious RCU usage)|"
    r"INFO: trying to register non-static key.*)")
RESULT_RE = re.compile(r"^(not ok|ok)\s+(\d+)\s*(.*)$")
PLAN_RE = re.compile(r"^1\.\.(\d+)")
CRASH_RE = re.compile(r"^# harness: (\S+) killed by signal (\d+)(.*)")
ELAPSED_RE = re.compile(r"^# harness: suite (\S+) elapsed_cs=(\d+)")
RUNNING_RE = re.compile(r"^# harness: running (\S+)")
END_RE = re.compile(r"^# harness: end of run: (pass|fail)")
SUITE_LINE_RE = re.compile(r"^(?:suite\s+(\S+)\s+\S+|kunit_suite\s+(\S+))\s*$")
BENCH_LINE_RE = re.compile(r"^bench_suite\s+(\S+)\s+\S+\s*$")
BAIL_OUT_RE = re.compile(r"^Bail out!\s*(.*)")


class Result:
    """One KTAP result line."""

    def __init__(self, ok, num, rest):
        self.ok = ok
        self.num = num
        desc, _, directive = rest.partition("#")
        if rest.startswith("#"):
            desc, directive = "", rest[1:]
        self.name = desc.strip()
        self.directive = directive.strip()
        self.skip = ok and self.directive.upper().startswith("SKIP")
        if not self.name:
            # kselftest.h prints "ok 3 # SKIP <description>".
            self.name = re.sub(r"^(SKIP|XFAIL|error)\s*", "", self.directive,
                               flags=re.I) or "#%d" % num


class Binary:
    """A test binary: a depth-1 subtest with its depth-2 cases."""

    def __init__(self):
        self.cases = []       # (Result, [diagnostic lines])
        self.diags = []       # diagnostics since the last case result
        self.result = None
        self.plan = None


class Suite:
    """An ABI suite: a top-level test."""

    def __init__(self):
        self.binaries = []
        self.current = Binary()
        self.result = None
        self.plan = None
        self.seconds = None
        self.crashes = []


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
        raise SystemExit("parse-console: cannot read %s" % init_path)
    if mode == "bench":
        return [m.group(1)
                for m in map(BENCH_LINE_RE.match, text.splitlines()) if m]
    return [m.group(1) or m.group(2)
            for m in map(SUITE_LINE_RE.match, text.splitlines()) if m]


def parse(lines):
    """Parse console lines into suites plus kernel and harness events."""
    suites = {}
    order = []
    events = {"panic": None, "kernel_errors": [], "end": None,
              "top_plan": None, "ktap": False, "bail_out": [], "running": None,
              "misnumbered": []}
    suite = None
    pending_name = None
    for raw in lines:
        line = raw.rstrip("\r\n")
        m = PANIC_RE.search(line)
        if m and not events["panic"]:
            events["panic"] = m.group(1).strip() or "(no reason given)"
        if KERNEL_ERROR_RE.match(line):
            events["kernel_errors"].append(line.strip())
        stripped = line.lstrip(" ")
        depth = (len(line) - len(stripped)) // 2
        m = BAIL_OUT_RE.match(stripped)
        if m:
            events["bail_out"].append(m.group(1).strip())
            continue
        if stripped.startswith("KTAP version") and depth == 0:
            # KUnit prints KTAP of its own on the console at boot; only
            # the harness's, which names its target next, is judged.
            events["ktap"] = False
            continue
        if stripped.startswith("# harness: target") and depth == 0:
            suites.clear()
            del order[:]
            events.update(ktap=True, top_plan=None, end=None,
                          misnumbered=[])
            suite = None
            pending_name = None
            continue
        if not events["ktap"]:
            continue
        m = END_RE.match(stripped)
        if m and depth == 0:
            events["end"] = m.group(1)
            continue
        if depth == 0:
            m = PLAN_RE.match(stripped)
            if m:
                events["top_plan"] = int(m.group(1))
                continue
            m = RESULT_RE.match(stripped)
            if m:
                res = Result(m.group(1) == "ok", int(m.group(2)), m.group(3))
                if suite is None:
                    suite = Suite()
                if pending_name is None:
                    suites[res.name] = suite
                    order.append(res.name)
                suite.result = res
                if res.num != len(order):
                    events["misnumbered"].append(
                        "%s is test %d at the top level, numbered %d"
                        % (res.name, len(order), res.num))
                suite = None
                pending_name = None
            continue
        if depth == 1:
            if stripped.startswith("KTAP version"):
                suite = Suite()
                pending_name = None
                continue
            if suite is None:
                continue
            if stripped.startswith("# Subtest:"):
                pending_name = stripped.split(":", 1)[1].strip()
                suites[pending_name] = suite
                order.append(pending_name)
                continue
            m = PLAN_RE.match(stripped)
            if m:
                suite.plan = int(m.group(1))
                continue
            m = CRASH_RE.match(stripped)
            if m:
                suite.crashes.append("%s killed by signal %s%s" % m.groups())
                continue
            m = RUNNING_RE.match(stripped)
            if m:
                events["running"] = m.group(1)
                continue
            m = ELAPSED_RE.match(stripped)
            if m:
                suite.seconds = int(m.group(2)) / 100.0
                continue
            m = RESULT_RE.match(stripped)
            if m:
                binary = suite.current
                binary.result = Result(m.group(1) == "ok", int(m.group(2)),
                                       m.group(3))
                suite.binaries.append(binary)
                if binary.result.num != len(suite.binaries):
                    events["misnumbered"].append(
                        "%s is test %d of its suite, numbered %d"
                        % (binary.result.name, len(suite.binaries),
                           binary.result.num))
                suite.current = Binary()
            continue
        if suite is None:
            continue
        # depth >= 2: the binary's own output.
        binary = suite.current
        if depth == 2:
            m = PLAN_RE.match(stripped)
            if m:
                binary.plan = int(m.group(1))
                continue
            m = RESULT_RE.match(stripped)
            if m:
                res = Result(m.group(1) == "ok", int(m.group(2)), m.group(3))
                binary.cases.append((res, binary.diags))
                binary.diags = []
                continue
        # Diagnostics: "#" lines, and the lines KUnit prints under an
        # expectation that failed ("Expected a == b, but ...").
        if stripped.startswith("#") or (binary.diags and not
                                        stripped.startswith("KTAP version")):
            binary.diags.append(stripped)
    return suites, order, events


def judge(target, wanted, suites, order, events, status, stderr, lines):
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
    if events["panic"]:
        msgs.append("kernel panic: %s" % events["panic"])
    for err in events["kernel_errors"]:
        msgs.append("kernel error in the log: %s" % err)
    for why in events["misnumbered"]:
        msgs.append("KTAP numbering: %s" % why)
    for why in events["bail_out"]:
        msgs.append("the guest bailed out: %s" % why)
    if lines and not events["ktap"]:
        msgs.append("the guest printed no harness KTAP (did /init run?)")
    if events["end"] is None:
        msgs.append("missing end-of-run line: the guest stopped before the "
                    "tests finished; last console line: %r" % last)

    rows = []
    for abi in wanted:
        suite = suites.get(abi)
        if suite is None:
            msgs.append("%s/%s: suite never ran" % (target, abi))
            rows.append((abi, None, None, None, None, "not run"))
            continue
        passed = failed = skipped = 0
        for crash in suite.crashes:
            msgs.append("test binary crashed: %s" % crash)
        for binary in suite.binaries:
            res = binary.result
            where = "%s/%s" % (abi, res.name)
            if binary.cases:
                for case, diags in binary.cases:
                    if case.skip:
                        skipped += 1
                    elif case.ok:
                        passed += 1
                    else:
                        failed += 1
                        msgs.append("test failed: %s: %s%s" % (
                            where, case.name,
                            "".join("\n    " + d for d in diags)))
                if binary.plan is not None and binary.plan != len(binary.cases):
                    msgs.append("%s: planned %d tests, ran %d"
                                % (where, binary.plan, len(binary.cases)))
                    failed += 1 if res.ok else 0
                if not res.ok and all(c.ok for c, _ in binary.cases):
                    msgs.append("test failed: %s: %s" % (where, res.directive
                                                         or "not ok"))
                    failed += 1
            elif res.skip:
                skipped += 1
            elif res.ok:
                passed += 1
            else:
                failed += 1
                msgs.append("test failed: %s: %s%s" % (
                    where, res.directive or "not ok",
                    "".join("\n    " + d for d in binary.diags)))
        if suite.plan is not None and suite.plan != len(suite.binaries):
            msgs.append("%s/%s: planned %d test binaries, %d reported"
                        % (target, abi, suite.plan, len(suite.binaries)))
        if suite.result is None:
            msgs.append("%s/%s: suite has no result line" % (target, abi))
        ok = (suite.result is not None and suite.result.ok and not failed
              and suite.plan == len(suite.binaries))
        rows.append((abi, passed, failed, skipped, suite.seconds,
                     "pass" if ok else "FAIL"))
    for abi in order:
        if abi not in wanted:
            msgs.append("unexpected suite %r in the log" % abi)
    top = events["top_plan"]
    if events["ktap"] and top is not None and top != len(wanted):
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
    ap.add_argument("--mode", choices=("test", "bench"), default="test",
                    help="which suites of /init the guest ran")
    ap.add_argument("--expect-suite", action="append", default=[],
                    metavar="NAME",
                    help="a suite the guest adds after those of /init "
                    "(the kmemleak scan of a debug kernel)")
    args = ap.parse_args()

    text = read_text(args.log)
    lines = text.splitlines() if text else []
    status = read_status(args.log + ".status")
    stderr = read_text(args.log + ".stderr")
    wanted = expected_suites(args.init, args.mode) + args.expect_suite

    suites, order, events = parse(lines)
    msgs, rows = judge(args.target, wanted, suites, order, events, status,
                       stderr, lines)
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

    print("%s: %s (%s)" % (args.target, verdict, args.log))
    for msg in msgs:
        print("  %s: %s" % (args.target, msg))
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
