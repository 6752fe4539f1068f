"""harness_ktap.py - the harness's KTAP in a console log, parsed by the
kernel's own KTAP parser.

The parser is tools/testing/kunit/kunit_parser.py of a kernel tree, which
kunit.py uses on KUnit's output; the tree is chosen by kunit_dir(). It
works out the nesting from the headers, plans and result names, not from
the indentation. harness_lines() hands it the harness's run only, made
into the KTAP it reads; parse() returns its Test tree (name, status,
counts, expected_count, subtests, log), with two attributes that the
tree does not keep and the verdicts need: "result" ("ok" or "not ok") and
"directive", the text after "#" ("killed by signal 11"), of the test's
result line (neither attribute if it has none), and "errors", the
parser's complaints about the test ("missing expected subtest!"; no
attribute if none), which complaints() words.
"""

import glob
import io
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The first line of the harness's run, after its "KTAP version 1".
TARGET_RE = re.compile(r"^# harness: target ")
# The harness names the binary it runs; kselftest's TAP does not.
RUNNING_RE = re.compile(r"^\s*# harness: running \S+?/(\S+)")
VERSION_RE = re.compile(r"^(\s*)K?TAP version \d+$")
SUBTEST_RE = re.compile(r"^\s*# Subtest: ")
PLAN_RE = re.compile(r"^(\s*)(1\.\.\d+.*)")
# kselftest_harness.h's "#  RUN           fixture.name ..." before a case.
RUN_RE = re.compile(r"^\s*#\s+RUN\s+(\S+) \.\.\.")
RESULT_RE = re.compile(r"^\s*(not )?ok \d+")
# kselftest.h prints "ok 3 # SKIP <why>" and "not ok 4 # error <why>",
# with no name.
UNNAMED_RE = re.compile(
    r"^(\s*(?:not )?ok \d+) (#\s*(?:(?:SKIP|XFAIL|XPASS|TODO|error)\b)?\s*(.*))$")


def kunit_dir(path=None):
    """The folder of kunit_parser.py: @path (--kunit-dir), else $KUNIT_DIR,
    else that of the newest kernel tree under build/."""
    path = path or os.environ.get("KUNIT_DIR")
    if not path:
        found = glob.glob(os.path.join(TOP, "build", "*", "linux", "tools",
                                       "testing", "kunit", "kunit_parser.py"))
        # build/6.12 is newer than build/6.1.
        found.sort(key=lambda p: [int(n) for n in re.findall(
            r"\d+", os.path.relpath(p, TOP).split(os.sep)[1])])
        path = os.path.dirname(found[-1]) if found else None
    if not path or not os.path.isfile(os.path.join(path, "kunit_parser.py")):
        print("%s: no kunit_parser.py in %s: give a kernel tree's "
              "tools/testing/kunit with --kunit-dir or KUNIT_DIR, or extract "
              "one under build/ (make kernels)"
              % (os.path.basename(sys.argv[0]), path or os.path.join(
                  TOP, "build/*/linux/tools/testing/kunit")), file=sys.stderr)
        sys.exit(2)  # bad usage, not a verdict
    return path


def load(path):
    """Import kunit_parser from @path, quiet, keeping what Test drops."""
    sys.path.insert(0, path)
    import kunit_parser
    import kunit_printer
    # Its progress report is kunit.py's, not ours.
    kunit_parser.stdout = kunit_printer.Printer(io.StringIO())
    add_error = kunit_parser.Test.add_error
    parse_test_result = kunit_parser.parse_test_result

    def keep_error(test, message):
        test.__dict__.setdefault("errors", []).append(message)
        add_error(test, message)

    def keep_directive(lines, test, expected_num):
        m = kunit_parser.TEST_RESULT.match(lines.peek()) if lines else None
        if m:
            test.result = m.group(1)
            test.directive = (m.group(5) or "").strip()[1:].strip()
        parsed = parse_test_result(lines, test, expected_num)
        # ktap.rst lets "not ok 3 name # SKIP" be a skip; no binary of ours
        # prints one, so here it is a failure, as it always was.
        if m and m.group(1) == "not ok":
            test.status = kunit_parser.TestStatus.FAILURE
        return parsed

    kunit_parser.Test.add_error = keep_error
    kunit_parser.parse_test_result = keep_directive
    return kunit_parser


def start(lines):
    """The index in @lines of the harness's run, its target line (the one
    after its "KTAP version 1"), or None if it printed none. A guest that
    ran the harness twice is judged on the last run."""
    starts = [i for i, line in enumerate(lines) if TARGET_RE.match(line)]
    return starts[-1] if starts else None


def harness_lines(run):
    """@run, the harness's run from its target line on, made into the KTAP
    that the kernel's parser reads. Four changes, each for what the
    parser would get wrong:
    - the run's own "KTAP version 1" line is put back right before the
      target line, so that the KUnit report that the kernel prints at boot
      and a kernel message printed between the two lines are cut off: the
      parser takes the first version line of its input for the start of
      the one run that it parses;
    - a binary's TAP gets a "# Subtest: <name>" header, the name from the
      harness's "running" line: kselftest prints none, and the parser
      can only end a test it has no name for at its plan's count, so a
      binary that crashed would take the next result line for its own;
    - the plan goes right after the header lines, before the diagnostics
      that may come first ("# harness: target ...", "# 14 blacklisted
      syscalls"), and a second plan of a test becomes a diagnostic:
      6.1's parser looks for the plan right after the header only, and
      6.12's would loop for ever on a plan line that it does not expect;
    - a nameless result ("ok 3 # SKIP <why>") gets a name, that of
      kselftest_harness.h's "RUN" line before it, else the text of its
      directive: the parser takes it for no result at all.
    """
    out = ["KTAP version 1"]
    plan_at = len(out)  # where the current test's plan goes; None once placed
    binary = None
    case = None
    for line in run:
        line = line.rstrip()
        m = RUNNING_RE.match(line)
        if m:
            binary, plan_at = m.group(1), None
        m = VERSION_RE.match(line)
        if m:
            out.append(line)
            if binary:
                out.append("%s# Subtest: %s" % (m.group(1), binary))
                binary = None
            plan_at = len(out)
            continue
        if SUBTEST_RE.match(line):
            out.append(line)
            plan_at = len(out)
            continue
        m = PLAN_RE.match(line)
        if m:
            if plan_at is None:
                out.append("%s# %s" % m.groups())
            else:
                out.insert(plan_at, line)
                plan_at = None
            continue
        m = RUN_RE.match(line)
        if m:
            case = m.group(1)
        m = UNNAMED_RE.match(line)
        if m:
            prefix, directive, why = m.groups()
            name = case or why.replace("#", "") or "test " + prefix.split()[-1]
            line = "%s %s %s" % (prefix, name, directive)
        if RESULT_RE.match(line):
            case = binary = None
        out.append(line)
    return out


def parse(run, kunit_parser):
    """The Test tree of @run, the harness's run from its target line on."""
    return kunit_parser.parse_run_tests(harness_lines(run))


MISSING = "missing expected subtest!"
NO_RESULT = "missing subtest result line!"


def complaints(test):
    """The parser's complaints about @test, in words."""
    errors = getattr(test, "errors", [])
    words = []
    if MISSING in errors:
        words.append("planned %d tests, %d reported" % (
            test.expected_count, test.expected_count - errors.count(MISSING)))
    if NO_RESULT in errors:
        # The parser looks for it where the plan's count of tests ends: a
        # test with more than it planned has none there.
        planned = MISSING not in errors and test.subtests and all(
            hasattr(t, "result") for t in test.subtests)
        words.append("no result line" + (" after the %d tests it planned"
                                          % test.expected_count if planned else ""))
    # "Expected test number 2 but found 3", "0 tests run!"
    return words + [e for e in errors if e not in (MISSING, NO_RESULT)]


def placeholder(test):
    """Whether @test stands for a subtest that never reported: the parser
    adds a blank one, never counted, for each that its parent's plan has
    more (and counts it as crashed in the parent)."""
    return test.status.name == "TEST_CRASHED" and not test.counts.total()
