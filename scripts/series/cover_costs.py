#!/usr/bin/env python3
"""cover_costs.py - write the figures of a cover letter's Cost section from
the bench results of its base, so that none of them is typed by hand.

Usage: scripts/series/cover_costs.py [--check] [--if-results]
                                     <bench-dir> <cover-letter>

<bench-dir> is build/<base>/bench, as scripts/bench/bench_report.py writes it
("make bench" or "make bench-check" of that base): <target>-<abi>.tsv
(the medians), <target>-goals.tsv and <target>-figures.tsv.

The Cost section is the text between the heading "Cost" (underlined with
dashes) and the next heading. Each paragraph of it that names ABIs as a
list, "x86-64 / ia32 compat / i386" or "AArch64 / AArch32 compat", says
whose figures the paragraphs after it give, one per ABI in that order,
joined by " / ", as "204 / 254 / 298". The anchors are the text itself:
each FRAGMENTS entry below is the words around one or more figures, and
wherever the section has those words (its lines may wrap anywhere), the
figures between them are written from the results; a second run changes
nothing. A table row ("  label:   204 / 254 / 298") is aligned again
with the rows of its table; any other sentence whose figures change is
wrapped again at 72 columns, with its indent.

In the indented paragraphs (the figures), a number that no fragment
claims is an error: a typed figure, which no run wrote. The paragraphs
that explain the figures may hold numbers of the code (words to zero,
stores), which no run measures. A fragment may also check a claim of
its sentence against the results (a function after its words), and
fails with what the results say.

Without --check the letter is rewritten in place when it differs. With
--check nothing is written: the script prints a diff of the letter against
the results and exits 1 if they disagree. A result file that is missing
is an error naming it, and so is a figure that a file lacks; with
--if-results, when a result file that the section needs is missing, the
script says that the Cost figures are not written (or not checked) and
exits 0 (scripts/series/cover-figures.sh, "make check-cover").
"""

import argparse
import difflib
import math
import os
import re
import sys
import textwrap

STEP = "cover-costs"
WIDTH = 72

# The ABIs as the text names them: the target whose results hold them,
# and the ABI's name in the result files.
ABI_NAMES = {
    "x86-64": ("x86_64", "x86_64"),
    "ia32 compat": ("x86_64", "ia32-compat"),
    "i386": ("i386", "i386"),
    "AArch64": ("arm64", "aarch64"),
    "AArch32 compat": ("arm64", "aarch32-compat"),
}
_NAME = "|".join(re.escape(n)
                 for n in sorted(ABI_NAMES, key=len, reverse=True))
ABI_LIST_RE = re.compile(r"(?<![\w-])(?:%s)(?: / (?:%s))+(?![\w-])"
                         % (_NAME, _NAME))
ABI_NAME_RE = re.compile(_NAME)

# A figure as the text writes it (2,841, 0.98, -3), and a group of them.
NUMBER = r"-?\d+(?:,\d{3})*(?:\.\d+)?"
GROUP = r"%s(?: / %s)*" % (NUMBER, NUMBER)
# A number standing alone, not a part of x86-64, openat2, 6.12's or 10/12.
LONE_NUMBER_RE = re.compile(r"(?<![\w./,-])%s(?![\w/]|\.\d)" % NUMBER)
# A table row: "  label:" then two spaces or more, then its figures.
TABLE_ROW_RE = re.compile(r"^  (\S.*?:) {2,}(%s)$"
                          % GROUP.replace(" / ", r" +/ +"))


class Missing(Exception):
    """A result file, or a figure in one, that is not there."""


class Wrong(Exception):
    """The letter says what the results do not bear out."""


class Results:
    """The result files of one base, read when first asked for."""

    def __init__(self, folder):
        self.folder = folder
        self.tables = {}

    def path(self, name):
        return os.path.join(self.folder, name)

    def table(self, name, key_columns):
        """{key: row} of the TSV file <name>, keyed by key_columns."""
        if name not in self.tables:
            path = self.path(name)
            try:
                with open(path) as f:
                    lines = f.read().splitlines()
            except OSError as e:
                raise Missing("%s: %s" % (path, e.strerror)) from None
            if not lines:
                raise Missing("%s is empty" % path)
            header = lines[0].split("\t")
            rows = {}
            for n, line in enumerate(lines[1:], 2):
                cells = line.split("\t")
                if len(cells) != len(header):
                    raise Missing("%s:%d: %d cells, the header has %d"
                                  % (path, n, len(cells), len(header)))
                row = dict(zip(header, cells))
                rows[tuple(row[k] for k in key_columns)] = row
            self.tables[name] = rows
        return self.tables[name]

    def value(self, name, key_columns, key, column, what):
        row = self.table(name, key_columns).get(key)
        if row is None:
            raise Missing("%s has no %s" % (self.path(name), what))
        try:
            return float(row[column])
        except ValueError:
            raise Missing("%s: %s is %r, not a number"
                          % (self.path(name), what, row[column])) from None

    def median(self, target, abi, test):
        return self.value("%s-%s.tsv" % (target, abi), ("test",), (test,),
                          "median", "median of %s" % test)

    def goal(self, target, abi, goal, column="value"):
        return self.value("%s-goals.tsv" % target, ("goal", "abi"),
                          (goal, abi), column, "goal %s of %s" % (goal, abi))

    def verdict(self, target, abi, goal):
        row = self.table("%s-goals.tsv" % target, ("goal", "abi")).get(
            (goal, abi))
        if row is None:
            raise Missing("%s has no goal %s of %s"
                          % (self.path("%s-goals.tsv" % target), goal, abi))
        return row["verdict"]

    def figure(self, target, abi, figure):
        return self.value("%s-figures.tsv" % target, ("figure", "abi"),
                          (figure, abi), "value",
                          "figure %s of %s" % (figure, abi))

    def files(self, target, abi):
        """The files that the figures of one ABI come from."""
        return [self.path(n) for n in ("%s-%s.tsv" % (target, abi),
                                       "%s-goals.tsv" % target,
                                       "%s-figures.tsv" % target)]


def whole(v):
    """An instruction count: 18,728 from five digits on, as the text has."""
    n = int(math.floor(v + 0.5))
    return "{:,}".format(n) if abs(n) >= 10000 else str(n)


def places(k):
    return lambda v: "%.*f" % (k, v)


def per_context(r, t, a):
    """Each context after the first, over the steps from 1 to 16."""
    return (r.median(t, a, "indirect_getppid_16") -
            r.median(t, a, "indirect_getppid_1")) / 15


# The figures: how each one comes from the results of one ABI (r: the
# Results, t: the target, a: the ABI), and how the text writes it. A
# figure with "one" is written once for all the ABIs of its paragraph,
# which must agree on it.
FIGURES = {
    "getppid": (lambda r, t, a: r.median(t, a, "getppid"), whole),
    "dispatch_extra": (lambda r, t, a: r.goal(t, a, "dispatch_extra"), whole),
    "first_context": (lambda r, t, a: r.figure(t, a, "first_context"), whole),
    "per_context": (per_context, whole),
    "socket_vs_fcntl": (lambda r, t, a: r.goal(t, a, "socket_vs_fcntl"),
                        places(2)),
    "socket_vs_cloexec": (lambda r, t, a: r.figure(t, a, "socket_vs_cloexec"),
                          places(2)),
    "audit_extra": (lambda r, t, a: r.figure(t, a, "audit_dummy_extra"),
                    whole),
    "audit_added": (lambda r, t, a: r.goal(t, a, "audit_dummy_added"), whole),
    # What the dummy audit context costs getppid() itself.
    "audit_getppid": (lambda r, t, a: r.median(t, a, "getppid_audit_dummy") -
                      r.median(t, a, "getppid"), whole),
    "resolve_openat": (lambda r, t, a: r.figure(t, a,
                                                "resolve_openat_vs_openat2"),
                       places(3)),
    "resolve_mkdirat": (lambda r, t, a: r.figure(t, a,
                                                 "resolve_mkdirat_extra"),
                        whole),
    "mkdirat": (lambda r, t, a: r.median(t, a, "mkdirat"), whole),
    # Direct openat() and close(), with the RESOLVE hook off and armed;
    # and the difference, that of one lookup.
    "openat": (lambda r, t, a: r.median(t, a, "openat"), whole),
    "openat_armed": (lambda r, t, a: r.median(t, a, "openat_armed"), whole),
    "lookup_armed_extra": (lambda r, t, a: r.figure(
        t, a, "lookup_armed_extra_openat"), whole),
    # The refused calls, over a direct call that returns ENOSYS.
    "refused_blacklisted": (lambda r, t, a: r.goal(t, a,
                                                   "refused_blacklisted"),
                            whole),
    "refused_too_many": (lambda r, t, a: r.goal(t, a, "refused_too_many"),
                         whole),
    "refused_unknown_ctx": (lambda r, t, a: r.goal(t, a,
                                                   "refused_unknown_ctx"),
                            whole),
}


# The words around the figures, {figure} for each group of them; spaces
# match any white space, line ends too. A fragment may hold several
# groups, and may come in both letters or in one; and a check of what
# its words claim.
FRAGMENTS = [
    ("getppid(), direct: {getppid}",),
    ("indirect(getppid), no context, extra: {dispatch_extra}",),
    ("the first context: {first_context}",),
    ("each further one, from 1 to 16: {per_context}",),
    ("fcntl(F_SETFD), with close(): {socket_vs_fcntl}",),
    ("against socket(SOCK_CLOEXEC): {socket_vs_cloexec}",),
    ("auditing on with no rule: {audit_extra}, {audit_added} of them to name "
     "the call to audit",),
    ("context costs getppid() itself {audit_getppid}",),
    ("openat2(RESOLVE_BENEATH), with close(): {resolve_openat}",),
    ("over a plain mkdirat(): {resolve_mkdirat}, of {mkdirat} with an "
     "unlinkat()",),
    ("Direct openat() and close() with the hook off: {openat}, and armed by a "
     "first RESOLVE context: {openat_armed}",),
    ("once a RESOLVE context has armed the hook: {lookup_armed_extra} more "
     "per lookup",),
    ("A refused call over a direct call that returns ENOSYS: blacklisted "
     "{refused_blacklisted}, too many contexts {refused_too_many}, a context "
     "of no known kind {refused_unknown_ctx}",),
]


def fragment_re(text):
    """The regular expression of a fragment, on text whose white space is
    single spaces: a group of figures for each {name}."""
    out, names = "", []
    for literal, name in re.findall(r"([^{]*)(?:\{(\w+)\})?", text):
        out += re.escape(literal).replace(r"\ ", " ")
        if name:
            if name not in FIGURES:
                raise SystemExit("%s: fragment %r: no figure %s"
                                 % (STEP, text, name))
            out += "(%s)" % GROUP
            names.append(name)
    return re.compile(out), names


COMPILED = [(fragment_re(f[0]), f[1:]) for f in FRAGMENTS]


def fail(where, msg):
    print("%s: error: %s: %s" % (STEP, where, msg), file=sys.stderr)
    sys.exit(1)


def cost_section(lines, where):
    """(first, end): the lines of the Cost section's body, lines[first:end]."""
    def heading(i):
        return (i + 1 < len(lines) and lines[i].strip() and
                re.fullmatch(r"-{3,}", lines[i + 1]) and
                len(lines[i + 1]) == len(lines[i]))
    starts = [i for i in range(len(lines))
              if lines[i] == "Cost" and heading(i)]
    if len(starts) != 1:
        fail(where, "%s \"Cost\" heading (a line \"Cost\", then \"----\")"
             % ("no" if not starts else "more than one"))
    first = starts[0] + 2
    end = next((i for i in range(first, len(lines)) if heading(i)), len(lines))
    return first, end


def paragraphs(lines, first, end):
    """[(start, stop)] of the paragraphs, runs of lines that are not blank."""
    out, start = [], None
    for i in range(first, end + 1):
        blank = i == end or not lines[i].strip()
        if blank and start is not None:
            out.append((start, i))
            start = None
        elif not blank and start is None:
            start = i
    return out


def items(lines, start, stop):
    """The items of a paragraph, [(start, stop, row)]: each table row on its
    own (row true); else sentences up to a line that ends one (an indented
    paragraph), or the whole paragraph."""
    if not lines[start].startswith("  "):
        return [(start, stop, False)]
    out, begin = [], start
    for i in range(start, stop):
        if TABLE_ROW_RE.match(lines[i]):
            if begin < i:
                out.append((begin, i, False))
            out.append((i, i + 1, True))
            begin = i + 1
        elif lines[i].endswith("."):
            out.append((begin, i + 1, False))
            begin = i + 1
    if begin < stop:
        out.append((begin, stop, False))
    return out


class Filler:
    """Writes the figures of one paragraph's ABIs into its text."""

    def __init__(self, results):
        self.results = results
        self.count = 0

    def group(self, name, abis):
        how = FIGURES[name]
        get, fmt = how[0], how[1]
        values = [fmt(get(self.results, t, a)) for _, (t, a) in abis]
        if len(how) > 2 and how[2] == "one":
            if len(set(values)) != 1:
                raise Wrong("the text gives one %s for %s; the results give "
                            "%s" % (name, " / ".join(n for n, _ in abis),
                                    " / ".join(values)))
            values = values[:1]
        self.count += len(values)
        return " / ".join(values)

    def fill(self, text, abis):
        """text with its figures written, and the text with each fragment
        left out (to find the numbers that none claims)."""
        rest = text
        for (regex, names), extra in COMPILED:
            def substitute(m):
                if abis is None:
                    raise Wrong("%r comes before any paragraph that names "
                                "the ABIs (\"x86-64 / ia32 compat / i386:\")"
                                % m.group(0))
                out, last = "", m.start()
                for k, name in enumerate(names, 1):
                    out += text_of(m, last, m.start(k))
                    out += self.group(name, abis)
                    last = m.end(k)
                for check in extra:
                    check(self.results, abis)
                return out + text_of(m, last, m.end())
            text = regex.sub(substitute, text)
            rest = regex.sub("\0", rest)
        return text, rest


def text_of(m, start, stop):
    return m.string[start:stop]


def wrap(text, indent):
    """text in lines of WIDTH columns at most, with indent; a line may end
    with the " /" of a group of figures, but not start with it."""
    glued = re.sub(r"(?<=\d) / (?=-?\d)", "\xa0/ ", text)
    return [line.replace("\xa0", " ") for line in textwrap.wrap(
        glued, WIDTH, initial_indent=indent, subsequent_indent=indent,
        break_long_words=False, break_on_hyphens=False)]


def render_table(rows):
    """Rows [(label, group)] aligned: the figures one column past the
    longest label, each as wide as the widest figure of the table."""
    column = max(len(label) for label, _ in rows) + 1
    cells = [group.split(" / ") for _, group in rows]
    width = max(len(c) for row in cells for c in row)
    return ["  %-*s  %s" % (column, label,
                            " / ".join(c.rjust(width) for c in row))
            for (label, _), row in zip(rows, cells)]


def rewrite(lines, results, where):
    """The letter's lines with the Cost figures of results; the count of
    figures written."""
    first, end = cost_section(lines, where)
    filler = Filler(results)
    out, pos, abis = lines[:first], first, None
    for p_start, p_stop in paragraphs(lines, first, end):
        out += lines[pos:p_start]
        pos = p_stop
        joined = " ".join(" ".join(lines[p_start:p_stop]).split())
        found = ABI_LIST_RE.search(joined)
        if found:
            abis = [(n, ABI_NAMES[n])
                    for n in ABI_NAME_RE.findall(found.group(0))]
        indented = lines[p_start].startswith("  ")
        table = []
        for start, stop, row in items(lines, p_start, p_stop):
            text = " ".join(" ".join(lines[start:stop]).split())
            try:
                new, rest = filler.fill(text, abis)
            except Wrong as e:
                fail(where, "%s (line %d)" % (e, start + 1))
            lone = LONE_NUMBER_RE.findall(rest) if indented else []
            if lone:
                fail(where, "line %d: %s in %r: a typed figure, which no "
                     "fragment of %s writes from the results; give it one, "
                     "or take it out" % (start + 1, ", ".join(lone), text,
                                         os.path.basename(sys.argv[0])))
            if row:
                label, group = new.rsplit(": ", 1)
                table.append((label + ":", group))
                continue
            if table:
                out += render_table(table)
                table = []
            if new == text:
                out += lines[start:stop]
            else:
                out += wrap(new, "  " if indented else "")
        if table:
            out += render_table(table)
    out += lines[pos:]
    if not filler.count:
        fail(where, "the Cost section has no figure that cover_costs.py "
             "knows (%s)" % ", ".join(sorted(FIGURES)))
    return out, filler.count


def needed_files(lines, results, where):
    """The result files of every ABI that the Cost section names."""
    first, end = cost_section(lines, where)
    text = " ".join(" ".join(lines[first:end]).split())
    files = []
    for found in ABI_LIST_RE.finditer(text):
        for name in ABI_NAME_RE.findall(found.group(0)):
            files += [f for f in results.files(*ABI_NAMES[name])
                      if f not in files]
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; print a diff, exit 1 if it differs")
    ap.add_argument("--if-results", action="store_true",
                    help="exit 0, saying so, when a result file is missing")
    ap.add_argument("bench_dir", help="build/<base>/bench")
    ap.add_argument("letter", help="patches/<base>/0000-cover-letter.patch")
    args = ap.parse_args()
    letter = args.letter
    base = os.path.basename(os.path.dirname(os.path.abspath(args.bench_dir)))
    make = "make cover-costs BASE=%s" % base
    try:
        with open(letter) as f:
            text = f.read()
    except OSError as e:
        fail(letter, "cannot read it: %s" % e.strerror)
    lines = text.split("\n")
    results = Results(args.bench_dir)

    absent = [os.path.basename(f) for f in needed_files(lines, results, letter)
              if not os.path.isfile(f)]
    if absent:
        msg = ("%s has no %s (make bench BASE=%s, or make bench-check "
               "BASE=%s, then %s)"
               % (args.bench_dir, ", ".join(absent), base, base, make))
        if not args.if_results:
            fail(letter, msg)
        print("  [%s] %s: Cost figures not %s: %s" % (
            STEP, letter, "checked" if args.check else "written", msg))
        return 0
    try:
        new_lines, count = rewrite(lines, results, letter)
    except Missing as e:
        fail(letter, "%s (the results of an older bench_report.py? run make "
             "bench BASE=%s again)" % (e, base))
    new = "\n".join(new_lines)

    if args.check:
        if new != text:
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(True), new.splitlines(True), letter,
                "%s, from %s" % (letter, args.bench_dir)))
            fail(letter, "Cost figures disagree with %s (diff above); write "
                 "them with: %s" % (args.bench_dir, make))
        print("  [%s] %s: Cost figures agree with %s (%d figures)"
              % (STEP, letter, args.bench_dir, count))
        return 0
    if new == text:
        print("  [%s] %s: Cost figures already agree with %s (%d figures)"
              % (STEP, letter, args.bench_dir, count))
    else:
        with open(letter, "w") as f:
            f.write(new)
        print("  [%s] %s: Cost figures written from %s (%d figures)"
              % (STEP, letter, args.bench_dir, count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
