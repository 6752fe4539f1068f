#!/usr/bin/env python3
"""readme-costs.py - write the figures of README.md's Benchmarks section
from the bench results of both bases, so that none of them is typed.

Usage: scripts/series/readme-costs.py [--check] [<build-dir> [<readme>]]

<build-dir> (build/ of this checkout by default) holds <base>/bench of
each base, as scripts/bench-report.py writes it ("make bench-check" or
"make bench" with BASE=<base>): <target>-<abi>.tsv (the medians),
<target>-goals.tsv and <target>-figures.tsv. <readme> is README.md by
default.

The section is the text from "## Benchmarks" to the next "## " heading.
A table whose header names ABIs (x86-64 | ia32 compat | i386) gives the
figures of the base that the paragraph above it names ("BASE=6.12"); a
table whose header names bases (6.12 | 6.1) gives, in each column, the
ABIs that the paragraph above it lists ("AArch64 / AArch32 compat"),
joined by " / ". A row is anchored on its label (ROWS): its cells, and
the limit in its goal cell, are written from the results. A goal cell
says that the goal is met in every cell of its row, which is checked
against the goals files. KEEP keeps a figure that no result of this
version holds (no row has one now).

The prose is anchored on its words, which may wrap anywhere: FRAGMENTS
writes the figures between them, CLAIMS checks the sentences whose claim
depends on a verdict, and NOT_FROM_A_RUN names the numbers that no bench
run gives (of the code, of compilers, of runs of older builds). Any other
number in the section is an error: a typed figure. Each fragment and
claim must be found once. A second run changes nothing. The result files
are read with scripts/series/cover-costs.py's Results, imported.

Without --check the README is rewritten in place when it differs. With
--check nothing is written: the script prints a diff of the README
against the results and exits 1 if a figure disagrees. Either way a
claim that the results no longer bear out exits 1, saying what they say.
Figures whose result files are absent (a base not benched, an
architecture not booted) are left as they are, with "not
checked: no results for base <base>" ("not written"), and exit 0.
"""

import argparse
import difflib
import importlib.util
import math
import os
import re
import sys

STEP = "readme-costs"
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

_spec = importlib.util.spec_from_file_location(
    "cover_costs", os.path.join(HERE, "cover-costs.py"))
cover = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cover)
Missing, Wrong, places = cover.Missing, cover.Wrong, cover.places

ABI_NAMES = cover.ABI_NAMES          # "ia32 compat": ("x86_64", "ia32-compat")
COMPAT_NATIVE = {"ia32-compat": "x86_64", "aarch32-compat": "aarch64"}
ALL = list(ABI_NAMES.values())
X86 = [(t, a) for t, a in ALL if t != "arm64"]
X86_NATIVE = [(t, a) for t, a in X86 if a not in COMPAT_NATIVE]
TARGETS = sorted({t for t, _ in ALL})
X86_TARGETS = sorted({t for t, _ in X86})
LOOKUPS = ("openat", "fstatat", "mkdirat")
FIG = r"-?\d[\d,]*(?:\.\d+)?%?(?:\s+(?:to|/)\s+-?\d[\d,]*(?:\.\d+)?%?)*"
LONE_NUMBER_RE = cover.LONE_NUMBER_RE


class Absent(Exception):
    """A result file that is not there: (base, path)."""


class Results(cover.Results):
    """cover-costs.py's Results of one base; a file that is not there is
    Absent, not Missing."""

    def __init__(self, base, folder):
        super().__init__(folder)
        self.base = base

    def table(self, name, key_columns):
        if name not in self.tables and not os.path.isfile(self.path(name)):
            raise Absent(self.base, self.path(name))
        return super().table(name, key_columns)

    def goal_row(self, target, abi, goal):
        return self.table(target + "-goals.tsv", ("goal", "abi")).get(
            (goal, abi))


def whole(v):
    return "%d" % math.floor(v + 0.5)


def hundreds(v):
    return "{:,}".format(int(math.floor(v / 100 + 0.5)) * 100)


def percent(v):
    return "%.1f%%" % ((v - 1) * 100)


# The cells: each a function of one ABI's results (r, target, abi) that
# gives its figure as the table writes it, or None for no figure.
def median(test, fmt=whole):
    return lambda r, t, a: fmt(r.median(t, a, test))


def goal(name, fmt=whole):
    return lambda r, t, a: fmt(r.goal(t, a, name))


def figure(name, fmt=whole):
    return lambda r, t, a: fmt(r.figure(t, a, name))


def native(get):
    """A figure of the native ABIs only (dispatch_ratio)."""
    return lambda r, t, a: None if a in COMPAT_NATIVE else get(r, t, a)


def compat(name, native_name):
    """A compat ABI's figure against its native ABI's: "108 vs 102"."""
    return lambda r, t, a: None if a not in COMPAT_NATIVE else "%s vs %s" % (
        whole(r.goal(t, a, name)), whole(r.goal(t, COMPAT_NATIVE[a],
                                               native_name)))


def armed_or(get, mark):
    """mark for a compat ABI, whose suite runs after the native one and
    finds the RESOLVE hook armed: its lookups cost nothing more armed."""
    def cell(r, t, a):
        if a not in COMPAT_NATIVE:
            return get(r, t, a)
        extra = [r.figure(t, a, "lookup_armed_extra_" + c) for c in LOOKUPS]
        if any(extra):
            raise Wrong("the table has %s for %s, whose suite would find the "
                        "hook armed; %s says that arming it adds %s to its "
                        "lookups (%s)" % (mark, a, r.path(t + "-figures.tsv"),
                                          ", ".join(whole(v) for v in extra),
                                          ", ".join(LOOKUPS)))
        return mark
    return cell


KEEP = "keep"       # a figure that no result of this version holds
ABSENT = object()   # a figure whose result file is absent, or wrong

# Each row: its label, the parts of each cell (joined by ", "), and the
# goal of its goal cell with how the limit is written (None: the cell's
# words stay, "within 10%", and only the verdict is checked).
ROWS = {
    "getppid": ((median("getppid"),), None),
    "`indirect(getppid)`, no context, extra":
        ((goal("dispatch_extra"),), ("dispatch_extra", whole)),
    "the same as a ratio":
        ((native(goal("dispatch_ratio", places(2))),),
         ("dispatch_ratio", places(1))),
    "the same as a ratio (AArch64)":
        ((native(goal("dispatch_ratio", places(2))),),
         ("dispatch_ratio", places(1))),
    "each context after the first, worst step":
        ((goal("per_context"),), ("per_context", whole)),
    "the first context": ((figure("first_context"),), None),
    "a blacklisted call, extra over ENOSYS":
        ((goal("refused_blacklisted"),), ("refused_blacklisted", whole)),
    "a call with too many contexts, extra over ENOSYS":
        ((goal("refused_too_many"),), ("refused_too_many", whole)),
    "a context of no known kind, extra over ENOSYS":
        ((goal("refused_unknown_ctx"),), ("refused_unknown_ctx", whole)),
    "socket + close, `SOCK_CLOEXEC`": ((median("socket_cloexec"),), None),
    "socket + fcntl + close": ((median("socket_fcntl"),), None),
    "`indirect(socket, OPENFLAGS)` extra over `SOCK_CLOEXEC`":
        ((goal("socket_extra"),), ("socket_extra", whole)),
    "`indirect(socket, OPENFLAGS)` / (socket + fcntl)":
        ((goal("socket_vs_fcntl", places(3)),),
         ("socket_vs_fcntl", places(2))),
    "`indirect(socket, OPENFLAGS)` / `socket(SOCK_CLOEXEC)`":
        ((figure("socket_vs_cloexec", places(3)),), None),
    "accept4 + close, `SOCK_CLOEXEC`": ((median("accept4_cloexec"),), None),
    "getppid, auditing on with no rule":
        ((median("getppid_audit_dummy"),), None),
    "`indirect(getppid)` extra, auditing on with no rule":
        ((figure("audit_dummy_extra"),), None),
    "the same, less the extra with auditing never on":
        ((goal("audit_dummy_added"),), ("audit_dummy_added", whole)),
    "compat against native, bare call":
        ((compat("compat_dispatch", "dispatch_extra"),),
         ("compat_dispatch", None)),
    "compat against native, per context":
        ((compat("compat_context", "per_context"),),
         ("compat_context", None)),
    "openat + close, direct": ((median("openat"),), None),
    "the same once RESOLVE armed the hook, extra":
        ((armed_or(figure("lookup_armed_extra_openat"), "(armed)"),), None),
    "fstatat, direct": ((median("fstatat"),), None),
    "mkdirat + unlinkat, direct": ((median("mkdirat"),), None),
    "`indirect(openat, RESOLVE_BENEATH)` / `openat2(RESOLVE_BENEATH)`":
        ((figure("resolve_openat_vs_openat2", places(3)),), None),
    "`indirect(openat, BENEATH)` / `openat2(BENEATH)`":
        ((figure("resolve_openat_vs_openat2", places(3)),), None),
    "`indirect(mkdirat, RESOLVE_BENEATH)` extra over mkdirat":
        ((figure("resolve_mkdirat_extra"),), None),
}


# The prose: functions of the results of every base, R ({base: Results}).
def each(R, abis, get):
    return [get(r, t, a) for r in R.values() for t, a in abis]


def one(values, what):
    """The figure that the text gives once, for all that it names."""
    if len(set(values)) != 1:
        raise Wrong("the text gives one %s; the results give %s"
                    % (what, ", ".join(sorted(set(values)))))
    return values[0]


def span(values, fmt):
    low, high = fmt(min(values)), fmt(max(values))
    return low if low == high else "%s to %s" % (low, high)


def limit(name, fmt):
    """The limit of a goal, the same for every ABI that has it, on both
    bases ("The goals, per ABI, ..., the same on both bases")."""
    def get(R):
        return one([fmt(float(r.goal_row(t, a, name)["limit"]))
                    for r in R.values() for t, a in ALL
                    if r.goal_row(t, a, name)], "limit of " + name)
    return get


FRAGMENTS = [
    ("costs at most {} more than getppid (natively also as a ratio, at most "
     "{});", limit("dispatch_extra", whole), limit("dispatch_ratio",
                                                   places(1))),
    ("after the first costs at most {}, the worst of the steps",
     limit("per_context", whole)),
    ("dispatch_extra grows by at most {}: naming",
     limit("audit_dummy_added", whole)),
    ("socket() and close() cost about {} instructions and the fcntl() that "
     "OPENFLAGS saves {},",
     lambda R: span(each(R, X86, lambda r, t, a: r.median(
         t, a, "socket_cloexec")), hundreds),
     lambda R: span(each(R, X86, lambda r, t, a: r.median(
         t, a, "socket_fcntl") - r.median(t, a, "socket_cloexec")), whole)),
]


def expect(R, targets, ok, claim):
    """Every verdict of targets is ok(goal, abi, verdict)."""
    for r in R.values():
        for t in targets:
            for (g, a), row in r.table(t + "-goals.tsv",
                                       ("goal", "abi")).items():
                if not ok(g, a, row["verdict"]):
                    raise Wrong("the text says %r; %s says of %s on %s: %s"
                                % (claim, r.path(t + "-goals.tsv"), g, a,
                                   row["verdict"]))


def met(g, a, verdict):
    return verdict == "met"


def same_per_context(R):
    """On x86, whose clock resolves one instruction in every sample; on
    arm64 a step of 16 contexts may come out half an instruction apart."""
    for r in R.values():
        for t, a in X86:
            steps = [whole(r.figure(t, a, "per_context_%d_%d" % s)) for s in
                     ((1, 2), (2, 4), (4, 8), (8, 16))]
            if len(set(steps)) != 1:
                raise Wrong("the text says that a context costs the same "
                            "from 1 to 16; on %s of base %s the steps cost "
                            "%s" % (a, r.base, ", ".join(steps)))


CLAIMS = [
    ("the same on both bases and both architecture families, with no "
     "exception", lambda R: expect(R, TARGETS, met, "the goals hold on both "
                                   "bases and both architecture families")),
    ("A context costs the same from 1 to 16 contexts", same_per_context),
]

# The numbers of the section that no bench run gives.
NOT_FROM_A_RUN = [
    "`-icount shift=0,sleep=off`",                  # QEMU's option
    "and 0 to 16 OPENFLAGS contexts",               # what the bench measures
    "in steps of 16 (its 62.5 MHz). A sample there times 16 calls",
    "missed on ia32-compat: 208.000, limit 202.000",  # a message, an example
    "the steps 1-2, 2-4, 4-8 and 8-16 contexts",    # bench-report.py's rules
    "with 5 instructions for the boot-to-boot noise",
    "a blacklisted number, 17 contexts",
    "within 10% of the native ABI's of the same kernel (per context: or 5 "
    "instructions)",
    "once making 2,000 direct getppid() calls",     # PROFILE_CALLS
    "`hint #0x14`",                                 # QEMU's disassembly
]


def words_re(text, group=None):
    """A regular expression of text whose spaces match any white space,
    with group for each {}."""
    parts = [re.escape(p).replace(r"\ ", r"\s+") for p in text.split("{}")]
    return re.compile(("(%s)" % group).join(parts) if group else parts[0])


class Rewriter:
    """Writes the figures of the section; keeps the results of each base
    (R), the count of figures written and the errors."""

    def __init__(self, build):
        self.build, self.R, self.count, self.errors = build, {}, 0, []

    def value(self, get, keep, *args, line=None):
        """get(*args), or keep when a result file is absent (or an error,
        kept to say)."""
        try:
            return get(*args)
        except Absent:
            pass
        except (Wrong, Missing) as e:
            self.errors.append("line %d: %s" % (line, e) if line else str(e))
        return keep

    def table(self, lines, start, intro):
        """Writes the rows of the table at lines[start] (its header)."""
        header = [c.strip() for c in lines[start].strip("|").split("|")]
        columns, bases = [], set()
        base = re.search(r"BASE=(\d+(?:\.\d+)+)", intro)
        listed = cover.ABI_LIST_RE.search(intro)
        for name in header[1:]:
            if name == "goal":
                continue
            if name in ABI_NAMES and base:
                columns.append((base.group(1), [ABI_NAMES[name]]))
            elif re.fullmatch(r"\d+(?:\.\d+)+", name) and listed:
                columns.append((name, [ABI_NAMES[n] for n in
                                       cover.ABI_NAME_RE.findall(
                                           listed.group(0))]))
            else:
                self.errors.append("line %d: column %r: neither an ABI of the "
                                   "base that the paragraph above names "
                                   "(BASE=...) nor a base whose ABIs it lists"
                                   % (start + 1, name))
                return
            bases.add(columns[-1][0])
        has_goal = header[-1] == "goal"
        for base in bases:
            if base not in self.R:
                self.R[base] = Results(base, os.path.join(self.build, base,
                                                          "bench"))
        i = start + 2
        while i < len(lines) and lines[i].startswith("|"):
            self.row(lines, i, columns, has_goal)
            i += 1

    def row(self, lines, i, columns, has_goal):
        raw = lines[i].split("|")
        cells = [c.strip() for c in raw[1:-1]]
        label = cells[0]
        if label not in ROWS:
            self.errors.append("line %d: row %r: not in ROWS of %s, so that "
                               "its figures are typed; add it there"
                               % (i + 1, label, STEP))
            return
        parts, goal_spec = ROWS[label]
        new = list(cells)
        for j, (base, abis) in enumerate(columns, 1):
            kept, values = cells[j].split(", "), []
            for t, a in abis:
                got = [(kept[k] if len(abis) == 1 and k < len(kept) else "")
                       if part == KEEP else
                       self.value(part, ABSENT, self.R[base], t, a,
                                  line=i + 1)
                       for k, part in enumerate(parts)]
                if ABSENT in got:
                    values = None
                    break
                if None not in got:
                    values.append(", ".join(got))
                    self.count += sum(part != KEEP for part in parts)
            new[j] = cells[j] if values is None else " / ".join(values)
        if has_goal:
            new[-1] = self.goal_cell(i, cells[-1], goal_spec, columns)
        if new != cells:
            for j, (old, cell) in enumerate(zip(cells, new), 1):
                if old != cell:
                    raw[j] = " %s " % cell if cell else " "
            lines[i] = "|".join(raw)

    def goal_cell(self, i, cell, spec, columns):
        """The goal cell of row i: its limit written, its verdict checked."""
        if spec is None:
            if cell:
                self.errors.append("line %d: a goal, %r, in a row without "
                                   "one in ROWS" % (i + 1, cell))
            return cell
        name, fmt = spec
        head, _, said = cell.partition(": ")
        op = head.split(" ")[0]
        want = {"": "met"}.get(said)
        if want is None or fmt and op not in ("<", "<="):
            self.errors.append("line %d: goal cell %r: want '<= LIMIT' or "
                               "'< LIMIT', and nothing after it: every goal "
                               "is met" % (i + 1, cell))
            return cell

        def check(r, t, a):
            row = r.goal_row(t, a, name)
            if row and not row["verdict"].startswith(want):
                raise Wrong("the goal cell says %s: %s; %s says of %s: %s"
                            % (name, said or "met", r.path(t + "-goals.tsv"),
                               a, row["verdict"]))
            return row and fmt and fmt(float(row["limit"]))
        limits = [self.value(check, ABSENT, self.R[base], t, a, line=i + 1)
                  for base, abis in columns for t, a in abis]
        limits = [v for v in limits if v]
        if not fmt or ABSENT in limits or not limits:
            return cell
        if len(set(limits)) == 1:
            limits = limits[:1]
        self.count += len(limits)
        return "%s %s%s" % (op, ", ".join(limits), ": " + said if said else "")

    def prose(self, text, first):
        """text (from line first) with the figures of FRAGMENTS written,
        CLAIMS checked."""
        def line(m):
            return first + 1 + text.count("\n", 0, m.start())
        for words, *gets in FRAGMENTS:
            regex = words_re(words, FIG)
            found = list(regex.finditer(text))
            if len(found) != 1:
                self.errors.append("%d matches of the words %r (want 1): "
                                   "change FRAGMENTS of %s with them"
                                   % (len(found), words, STEP))
                continue
            m = found[0]
            out, last = "", m.start()
            for k, get in enumerate(gets, 1):
                out += text[last:m.start(k)]
                got = self.value(get, ABSENT, self.R, line=line(m))
                self.count += got is not ABSENT
                out += m.group(k) if got is ABSENT else got
                last = m.end(k)
            text = text[:m.start()] + out + text[last:]
        for words, check in CLAIMS:
            found = list(words_re(words).finditer(text))
            if len(found) != 1:
                self.errors.append("%d matches of the words %r (want 1): "
                                   "change CLAIMS of %s with them"
                                   % (len(found), words, STEP))
            else:
                self.value(check, None, self.R, line=line(found[0]))
        return text

    def typed(self, text, first_line):
        """The numbers of the prose that nothing here claims."""
        rest = list(text)
        for words in ([f[0] for f in FRAGMENTS], [c[0] for c in CLAIMS],
                      NOT_FROM_A_RUN):
            for w in words:
                for m in words_re(w, FIG).finditer(text):
                    rest[m.start():m.end()] = re.sub(r"[^\n]", "\0",
                                                     m.group(0))
        rest = "".join(rest)
        out = []
        for n, line in enumerate(rest.split("\n"), first_line + 1):
            if line.startswith("|"):
                continue
            out += ["line %d: %s, a typed figure: give it a fragment in %s, "
                    "or take it out" % (n, number, STEP)
                    for number in LONE_NUMBER_RE.findall(line)
                    if number not in self.R]
        return out


def section(lines):
    starts = [i for i, line in enumerate(lines) if line == "## Benchmarks"]
    if len(starts) != 1:
        raise SystemExit("%s: error: want one '## Benchmarks' heading, found "
                         "%d" % (STEP, len(starts)))
    end = next((i for i in range(starts[0] + 1, len(lines))
                if lines[i].startswith("## ")), len(lines))
    return starts[0] + 1, end


def rewrite(lines, build):
    """(lines with the figures written, the Rewriter)."""
    first, end = section(lines)
    lines = list(lines)
    w = Rewriter(build)
    for i in range(first, end - 1):
        if lines[i].startswith("|") and not lines[i - 1].startswith("|"):
            j = i - 1
            while j > first and not lines[j - 1].strip() == "":
                j -= 1
            intro = " ".join(" ".join(lines[j - 1:i]).split())
            w.table(lines, i, intro)
    text = w.prose("\n".join(lines[first:end]), first)
    w.errors += w.typed(text, first)
    return lines[:first] + text.split("\n") + lines[end:], w


def absent(R, done):
    """Lines that say which figures are not checked (done) for want of
    which result files of make bench-check."""
    out = []
    for base, r in sorted(R.items()):
        if not os.path.isdir(r.folder):
            out.append("not %s: no results for base %s (no %s: make "
                       "bench-check BASE=%s)" % (done, base, show(r.folder),
                                                 base))
            continue
        for smap, targets, run in (("", TARGETS, "bench-check"),):
            missing = []
            for t in targets:
                names = ["%s%s-%s.tsv" % (t, smap, k) for k in
                         [a for u, a in ALL if u == t] + ["goals", "figures"]]
                gone = [n for n in names if not os.path.isfile(r.path(n))]
                missing += ["%s%s-*.tsv" % (t, smap)] if gone == names \
                    else gone
            if missing:
                out.append("not %s: no results %sfor base %s (%s: no %s; "
                           "make %s BASE=%s)" % (
                               done, "of the SMAP run " if smap else "", base,
                               show(r.folder), ", ".join(missing), run, base))
    return out


def show(path):
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; print a diff, exit 1 if it differs")
    ap.add_argument("build", nargs="?", default=os.path.join(TOP, "build"),
                    help="the folder of <base>/bench (default: build/)")
    ap.add_argument("readme", nargs="?", default=os.path.join(TOP, "README.md"))
    args = ap.parse_args()
    try:
        with open(args.readme) as f:
            text = f.read()
    except OSError as e:
        raise SystemExit("%s: error: %s: %s" % (STEP, args.readme, e.strerror))
    new_lines, w = rewrite(text.split("\n"), args.build)
    new = "\n".join(new_lines)
    where = args.readme if args.readme != os.path.join(TOP, "README.md") \
        else "README.md"
    done = "checked" if args.check else "written"
    for line in absent(w.R, done):
        print("  [%s] %s: %s" % (STEP, where, line))
    for e in dict.fromkeys(w.errors):
        print("%s: error: %s: %s" % (STEP, where, e), file=sys.stderr)
    folders = " and ".join(show(r.folder) for _, r in sorted(w.R.items())
                           if os.path.isdir(r.folder))
    if args.check and new != text:
        sys.stdout.writelines(difflib.unified_diff(
            text.splitlines(True), new.splitlines(True), where,
            "%s, from %s" % (where, folders)))
        print("%s: error: %s: bench figures disagree with %s (diff above); "
              "write them with: make readme-costs" % (STEP, where, folders),
              file=sys.stderr)
        return 1
    if w.errors:
        return 1
    if args.check:
        print("  [%s] %s: %d bench figures agree with %s"
              % (STEP, where, w.count, folders))
    elif new == text:
        print("  [%s] %s: %d bench figures already agree with %s"
              % (STEP, where, w.count, folders))
    else:
        with open(args.readme, "w") as f:
            f.write(new)
        print("  [%s] %s: %d bench figures written from %s"
              % (STEP, where, w.count, folders))
    return 0


if __name__ == "__main__":
    sys.exit(main())
