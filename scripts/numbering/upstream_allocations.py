#!/usr/bin/env python3
"""upstream_allocations.py - write data/upstream-allocations.tsv from the trees.

Usage: scripts/numbering/upstream_allocations.py [--check] [--data DIR] TREE...

Each TREE is a kernel tree of the harness, build/<base>/linux: its base
is the major.minor of its .git/harness-package-version, and its unpatched
tables are those at its "upstream" tag (git show upstream:<path>, the
paths of data/inputs.tsv). The tables are those of data/tables.tsv that
number on their own ("numbers" "-"), read by numbering/syscall_tables.py
as kbuild reads them.

upstream-allocations.tsv is, for each such table:
  - the lines of the newest base's unpatched table (6.12) whose ABI is in
    one of the table's numbering spaces; "since" is what
    data/later-allocations.tsv gives for the number, or "<=<oldest base>"
    (<=6.1) for a number it does not give;
  - the lines of later-allocations.tsv that the newest base does not
    have: the numbers upstream allocated after it, which no tree here
    holds (hand-maintained, each with its source).
It is then checked against every TREE: a base's unpatched table must
number exactly the lines of the file that are as old as the base or
older ("<=6.1", or a "since" not after the base): no fewer (a number
later-allocations.tsv dates wrongly, or the newest base lost) and no more
(a number that is neither in later-allocations.tsv nor in the oldest base,
labelled "<=6.1" wrongly). A table that a base keeps as a C header (6.1's
asm-generic/unistd.h) is compared by its numbers only: it numbers its
calls in a view (arm64's), not by ABI; it is read by the host's gcc, with
the uapi headers of the tree (its asm/bitsperlong.h, which the series does
not touch), since only the target's compiler would be a cross compiler
that a cell of the CI for another target does not install.

Writing needs the tree of every base (patches/<base>/): the newest for
the lines, the others to check them. --check writes nothing: with the
newest base's tree among the TREEs, it fails, with a diff, when the file
differs from what it would write; without it (the CI cell of an older
base), it checks the file against the TREEs given, and that its lines
after the oldest base are later-allocations.tsv's. check-numbering.sh
runs it with --check on the base it checks.
Exits 0 when the file is (or is now) right, 1 when it is not, 2 on bad
usage or bad input.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

from numbering import check_numbering as cn
from numbering.syscall_tables import (TOP, TableError, is_c_header,
                                      parse_tbl, read_c_numbers,
                                      target_compiler)

DATA = os.path.join(TOP, "scripts", "numbering", "data")
OUT = "upstream-allocations.tsv"
LATER = "later-allocations.tsv"
VERSION_RE = re.compile(r"^(\d+)\.(\d+)$")


def die(msg, status=2):
    print("upstream-allocations: %s" % msg)
    sys.exit(status)


def version(v):
    m = VERSION_RE.match(v)
    if not m:
        die("'%s' is not a kernel version (major.minor)" % v)
    return int(m.group(1)), int(m.group(2))


def project_bases():
    """The bases of the series, patches/<base>/BASE, oldest first."""
    pdir = os.path.join(TOP, "patches")
    bases = [d for d in os.listdir(pdir)
             if os.path.isfile(os.path.join(pdir, d, "BASE"))]
    if not bases:
        die("no patches/<base>/BASE in %s" % TOP)
    return sorted(bases, key=version)


def tree_base(tree):
    path = os.path.join(tree, ".git", "harness-package-version")
    try:
        with open(path) as f:
            kver = f.read().strip()
    except OSError as e:
        die("%s: not a tree of the harness (%s)" % (tree, e))
    return ".".join(kver.split(".")[:2])


def table_paths(data):
    """{(base or "*", table): path} of the tables inputs.tsv takes from a
    tree."""
    paths = {}
    for lineno, line in cn.read_data(os.path.join(data, "inputs.tsv")):
        f = line.split("\t")
        if len(f) >= 5 and f[3] == "tree":
            paths[(f[1], f[2])] = f[4]
    return paths


def read_later(path, oldest):
    """later-allocations.tsv: {(table, nr, abi): (name, since, lineno)}."""
    later = {}
    for lineno, line in cn.read_data(path):
        f = line.split("\t", 5)
        where = "%s:%d" % (path, lineno)
        if len(f) != 6 or not f[5].strip():
            die("%s: want 'table<TAB>number<TAB>abi<TAB>name<TAB>since<TAB>"
                "source'" % where)
        table, nr, abi, name, since, _ = f
        if table not in cn.TABLES or cn.TABLES[table].numbers:
            die("%s: '%s' is no table of tables.tsv that numbers on its own"
                % (where, table))
        if not any(abi in abis for abis in cn.SPACES[table].values()):
            die("%s: ABI '%s' is in no numbering space of %s"
                % (where, abi, table))
        if not nr.isdigit() or not cn.NAME_RE.match(name):
            die("%s: bad number '%s' or name '%s'" % (where, nr, name))
        if version(since) <= version(oldest):
            die("%s: since %s: not after the oldest base, %s"
                % (where, since, oldest))
        key = (table, int(nr), abi)
        if key in later:
            die("%s: %s %s %s is given twice (line %d)"
                % (where, table, nr, abi, later[key][2]))
        later[key] = (name, since, lineno)
    return later


class Tree:
    """A base's unpatched tables: {table: [(nr, abi, name)]} of the .tbl
    ones, in their order, {table: {nr}} of those it keeps as C headers."""

    def __init__(self, path, base, paths):
        self.path, self.base = path, base
        self.tbl, self.numbers, self.where = {}, {}, {}
        for table, t in cn.TABLES.items():
            if t.numbers:
                continue
            rel = paths.get((base, table), paths.get(("*", table)))
            if rel is None:
                die("data/inputs.tsv: no path of %s on base %s" % (table, base))
            self.where[table] = "%s: upstream:%s" % (path, rel)
            out = subprocess.run(["git", "-C", path, "show", "upstream:" + rel],
                                 capture_output=True, text=True)
            if out.returncode:
                die("%s: %s" % (self.where[table], out.stderr.strip()))
            try:
                if is_c_header(out.stdout):
                    self.numbers[table] = self.c_numbers(table, rel,
                                                         out.stdout)
                else:
                    self.tbl[table] = [
                        (c.nr, c.abi, c.name)
                        for c in parse_tbl(out.stdout, self.where[table])
                        if any(c.abi in abis
                               for abis in cn.SPACES[table].values())]
            except TableError as e:
                die(str(e))

    def c_numbers(self, table, rel, text):
        view = cn.TABLES[table].view
        if view is None:
            die("%s: a C header, but tables.tsv gives %s no view"
                % (self.where[table], table))
        target, _, macros = view
        _, karch = target_compiler(target)
        includes = [os.path.join(self.path, "arch", karch, "include", "uapi"),
                    os.path.join(self.path, "include", "uapi")]
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, os.path.basename(rel))
            with open(path, "w") as f:
                f.write(text)
            return read_c_numbers(path, self.where[table], "gcc", includes,
                                  macros)


def is_as_old(since, base):
    return since.startswith("<=") or version(since) <= version(base)


def check_tree(tree, lines, errors):
    """The lines as old as the tree's base are its unpatched tables'."""
    for table in list(tree.tbl) + list(tree.numbers):
        want = {(nr, abi, name): since for t, nr, abi, name, since in lines
                if t == table and is_as_old(since, tree.base)}
        later = {(nr, abi, name): since for t, nr, abi, name, since in lines
                 if t == table and not is_as_old(since, tree.base)}
        where = "%s (base %s)" % (tree.where[table], tree.base)
        if table in tree.tbl:
            have = set(tree.tbl[table])
            for k in sorted(have - set(want)):
                errors.append("%s has %d %s %s, but %s" % (
                    where, k[0], k[1], k[2],
                    "the allocations give it since %s" % later[k]
                    if k in later else "no line of the allocations has it "
                    "(if it came after the oldest base, add it to %s)"
                    % LATER))
            for k in sorted(set(want) - have):
                errors.append("%s has no %d %s %s, which the allocations "
                              "give %s" % (where, k[0], k[1], k[2],
                                           "as " + want[k]
                                           if want[k].startswith("<=")
                                           else "since " + want[k]))
        else:
            have = tree.numbers[table]
            wantn = {k[0] for k in want}
            for nr in sorted(have - wantn):
                errors.append("%s (a C header, by number) numbers %d, which "
                              "no line of the allocations as old as %s has"
                              % (where, nr, tree.base))
            for nr in sorted(wantn - have):
                errors.append("%s (a C header, by number) has no %d, which "
                              "the allocations give as of %s or older"
                              % (where, nr, tree.base))


def generate(newest, later, oldest, errors):
    """The lines: the newest base's, dated by later-allocations.tsv, then
    later-allocations.tsv's past it."""
    lines = []
    for table, calls in newest.tbl.items():
        for nr, abi, name in calls:
            got = later.get((table, nr, abi))
            if got and got[0] != name:
                errors.append("%s:%d: %s %d %s is %s, but %s names it %s"
                              % (LATER, got[2], table, nr, abi, got[0],
                                 newest.where[table], name))
            lines.append((table, nr, abi, name,
                          got[1] if got else "<=" + oldest))
    for (table, nr, abi), (name, since, _) in later.items():
        if table not in newest.tbl:
            errors.append("the newest base, %s, keeps %s as a C header: "
                          "write the allocations from a base that keeps it "
                          "as a .tbl" % (newest.base, table))
        elif not any(k[0] == nr and k[1] == abi for k in newest.tbl[table]):
            lines.append((table, nr, abi, name, since))
    return lines


def sort_lines(lines):
    """By table (tables.tsv) and number; the lines of one number in the
    order that they come in (the newest base's table's)."""
    order = list(cn.TABLES)
    return sorted(lines, key=lambda l: (order.index(l[0]), l[1]))


def render(lines, bases, paths):
    oldest, newest = bases[0], bases[-1]
    out = [
        "# upstream-allocations.tsv -- written by "
        "scripts/numbering/upstream_allocations.py: do not edit.",
        "# Every syscall number that upstream Linux has allocated, in the "
        "tables of data/tables.tsv",
        "# that number on their own, up to the newest release of "
        "data/%s." % LATER,
        "# Columns: table<TAB>number<TAB>abi<TAB>name<TAB>since   "
        "('#' lines are comments)",
        "# since: \"<=%s\": in the unpatched tables of the oldest base, %s "
        "(its tree's \"upstream\"" % (oldest, oldest),
        "#   tag); a release: the first whose table has the number, from "
        "data/%s, which" % LATER,
        "#   gives its source.",
        "# The lines: those of the unpatched tables of the newest base, %s, "
        "whose ABI is in one of" % newest,
        "#   the table's numbering spaces, then those of data/%s that %s "
        "does not have." % (LATER, newest),
        "#   The other bases' tables are checked against them.",
        "# Rewrite: scripts/numbering/upstream_allocations.py %s"
        % " ".join("build/%s/linux" % b for b in bases),
        "# check-numbering.sh runs it with --check on the base it checks.",
    ]
    current = None
    for table, nr, abi, name, since in sort_lines(lines):
        if table != current:
            current = table
            path = paths.get((newest, table), paths.get(("*", table)))
            out.append("#")
            out.append("# %s: %s of %s, then %s" % (table, path, newest, LATER))
        out.append("%s\t%d\t%s\t%s\t%s" % (table, nr, abi, name, since))
    return "\n".join(out) + "\n"


def read_written(path):
    lines = []
    for lineno, line in cn.read_data(path):
        f = line.split("\t")
        if len(f) != 5 or not f[1].isdigit():
            die("%s:%d: want 'table<TAB>number<TAB>abi<TAB>name<TAB>since'"
                % (path, lineno), 1)
        lines.append((f[0], int(f[1]), f[2], f[3], f[4]))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; fail if the file is not right")
    ap.add_argument("--data", default=DATA, metavar="DIR",
                    help="the folder of tables.tsv, inputs.tsv, %s and %s "
                    "(default: %s)" % (LATER, OUT, DATA))
    ap.add_argument("trees", nargs="+", metavar="TREE")
    args = ap.parse_args()

    cn.read_tables_data(os.path.join(args.data, "tables.tsv"))
    bases = project_bases()
    oldest, newest_base = bases[0], bases[-1]
    paths = table_paths(args.data)
    later = read_later(os.path.join(args.data, LATER), oldest)
    trees = {}
    for path in args.trees:
        base = tree_base(path)
        if base not in bases:
            die("%s: base %s is none of the series' (%s)"
                % (path, base, " ".join(bases)))
        if base in trees:
            die("two trees of base %s: %s and %s"
                % (base, trees[base].path, path))
        trees[base] = Tree(path, base, paths)
    out_path = os.path.join(args.data, OUT)

    errors = []
    if newest_base in trees:
        lines = generate(trees[newest_base], later, oldest, errors)
    elif not args.check:
        die("writing needs the tree of the newest base, %s" % newest_base)
    else:
        # An older base alone: check the file, not a rewrite of it.
        lines = read_written(out_path)
        dated = {(t, n, a, name, s) for t, n, a, name, s in lines
                 if not s.startswith("<=")}
        want = {(t, n, a, name, since)
                for (t, n, a), (name, since, _) in later.items()}
        for line in sorted(dated - want):
            errors.append("%s: %s %d %s %s since %s is not in %s"
                          % (OUT, line[0], line[1], line[2], line[3], line[4],
                             LATER))
        for line in sorted(want - dated):
            errors.append("%s: %s %d %s %s since %s (from %s) is missing"
                          % (OUT, line[0], line[1], line[2], line[3], line[4],
                             LATER))
    for base in sorted(trees, key=version):
        check_tree(trees[base], lines, errors)
    missing = [b for b in bases if b not in trees]
    if missing and not args.check:
        die("writing needs the tree of every base, to check the lines; "
            "missing: %s" % " ".join(missing))
    for err in errors:
        print("upstream-allocations: FAIL: %s" % err)
    if errors:
        return 1

    checked = "checked against the unpatched tables of %s" % " and ".join(
        sorted(trees, key=version))
    if newest_base not in trees:
        print("upstream-allocations: OK: %s %s (no tree of %s here: not "
              "rewritten)" % (out_path, checked, newest_base))
        return 0
    text = render(lines, bases, paths)
    try:
        with open(out_path) as f:
            old = f.read()
    except OSError:
        old = ""
    if text == old:
        print("upstream-allocations: OK: %s is what the trees and %s give, "
              "%s" % (out_path, LATER, checked))
        return 0
    if args.check:
        sys.stdout.writelines(difflib.unified_diff(
            old.splitlines(True), text.splitlines(True),
            out_path, "what upstream_allocations.py would write", n=1))
        print("upstream-allocations: FAIL: %s is stale (the diff above): "
              "rewrite it with scripts/numbering/upstream_allocations.py "
              "and the trees of every base" % out_path)
        return 1
    with open(out_path, "w") as f:
        f.write(text)
    print("upstream-allocations: wrote %s, %s" % (out_path, checked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
