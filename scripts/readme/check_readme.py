#!/usr/bin/env python3
"""check_readme.py - check that the README agrees with the repository.

Usage: scripts/readme/check_readme.py [--top DIR] README

What the README lists that the repository also says, compared both ways
so that neither can go stale without the other:

  layout     the "## Layout" block names every top-level folder that git
             tracks and every folder of scripts/, and each path it names
             exists;
  targets    the targets table lists scripts/targets/*.conf, and TARGETS
             in the Makefile, each naming its QEMU and CPU model;
  sets       the test sets table lists scripts/abis/*.conf, each with
             its compiler (TEST_CC), its headers (HEADERS_ARCH) and the
             targets whose TEST_SETS or TEST_ONLY_SETS name it;
  bases      the bases table lists patches/<base>/BASE, each with the
             package version that file names, and BASES in the Makefile;
  patches    every "N patches" of a series, and every "k/N" of the bases
             table, agrees with the patch count of each base's
             patches/<base>/series;
  goals      the "## Commands" section shows every goal of "make help"
             (the Makefile's "## <goal>:" lines), and every "make <goal>"
             in a command line or in backquotes, wrapped or not, is such
             a goal ("make -C <dir>" is another Makefile's);
  paths      every path in backquotes or in a link that starts with a
             tracked top-level name exists, a folder where it ends in "/"
             (<x> stands for any one name;
             build/ is generated and not looked for; a path right after
             "the tree's" or "the kernel's" is the kernel tree's).

Prints one line per problem, with the README's line, and exits 1 if
there is any; 2 on bad usage.
"""

import argparse
import glob
import os
import re
import subprocess
import sys

STEP = "check-readme"
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
         "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
         "twelve": 12, "thirteen": 13, "fourteen": 14}


class Readme:
    def __init__(self, path):
        with open(path) as f:
            self.lines = f.read().split("\n")
        self.path = path
        self.problems = []

    def problem(self, lineno, msg):
        self.problems.append("%s:%s: %s" % (self.path, lineno or "-", msg))

    def section(self, title):
        """(first line number, lines) of the section "## <title>"."""
        start = None
        for i, line in enumerate(self.lines):
            if start is None and re.match(r"## %s\b" % re.escape(title), line):
                start = i
            elif start is not None and line.startswith("## "):
                return start + 1, self.lines[start:i]
        if start is None:
            self.problem(None, "no section \"## %s\"" % title)
            return 0, []
        return start + 1, self.lines[start:]

    def table(self, title, header_word):
        """The rows of the first table in a section whose header's first
        cell is header_word: [(line number, [cells])]."""
        first, lines = self.section(title)
        rows, inside = [], False
        for i, line in enumerate(lines):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not line.startswith("|"):
                if inside:
                    break
                continue
            if not inside:
                inside = cells[0].strip("`") == header_word
                continue
            if set(line) <= set("|- "):
                continue
            # A cell's name is its first word: "`6.12` (default)" is 6.12.
            name = cells[0].split("`")[1] if cells[0].startswith("`") \
                else cells[0]
            rows.append((first + i, [name] + [c.strip("`")
                                              for c in cells[1:]]))
        if not rows:
            self.problem(first, "no table headed \"%s\" in \"## %s\""
                         % (header_word, title))
        return rows


def tracked(top):
    out = subprocess.run(["git", "-C", top, "ls-files"], check=True,
                         capture_output=True, text=True).stdout
    return out.split()


def conf_value(path, key):
    with open(path) as f:
        for line in f:
            m = re.match(r'%s=(?:"([^"]*)"|(\S*))' % key, line)
            if m:
                return m.group(1) if m.group(1) is not None else m.group(2)
    return None


def make_var(top, name):
    with open(os.path.join(top, "Makefile")) as f:
        for line in f:
            m = re.match(r"%s\s*:=\s*(.*)$" % name, line)
            if m:
                return m.group(1).split()
    return []


def compare(readme, lineno, what, listed, actual):
    for name in sorted(set(actual) - set(listed)):
        readme.problem(lineno, "%s %s is not listed" % (what, name))
    for name in sorted(set(listed) - set(actual)):
        readme.problem(lineno, "%s %s is listed but does not exist"
                       % (what, name))


def exists(top, path):
    """Whether path names something (<x> any one name); a path that ends
    in "/" must name a folder."""
    pattern = re.sub(r"<[^>]+>", "*", path.rstrip("/"))
    found = glob.glob(os.path.join(top, pattern))
    if path.endswith("/"):
        return any(os.path.isdir(f) for f in found)
    return bool(found)


def check_layout(readme, top, files):
    first, lines = readme.section("Layout")
    listed, block = [], False
    for i, line in enumerate(lines):
        if line.startswith("    "):
            block = True
            path = line.split()[0]
            listed.append(path.rstrip("/"))
            if not path.startswith("build/") and not exists(top, path):
                readme.problem(first + i, "layout names %s, which does not "
                               "exist" % path)
        elif block and line.strip():
            break
    folders = {f.split("/")[0] for f in files if "/" in f}
    scripts = {"scripts/" + f.split("/")[1] for f in files
               if f.startswith("scripts/") and f.count("/") >= 2}
    for name in sorted(folders | scripts):
        if name not in listed and name not in (".ci", ".github"):
            readme.problem(first, "layout does not list %s/" % name)
    for name in (".ci/run", ".github/workflows"):
        if name not in listed:
            readme.problem(first, "layout does not list %s" % name)


def check_targets(readme, top):
    rows = readme.table("Targets and test sets", "target")
    confs = [os.path.basename(p)[:-5] for p in
             glob.glob(os.path.join(top, "scripts/targets/*.conf"))]
    line = rows[0][0] if rows else None
    compare(readme, line, "target", [r[1][0] for r in rows], confs)
    compare(readme, line, "Makefile TARGETS entry",
            [r[1][0] for r in rows], make_var(top, "TARGETS"))
    # The kernel cell names the target's QEMU and, where it says one, its
    # CPU model, as scripts/targets/<target>.conf has them.
    for lineno, cells in rows:
        conf = os.path.join(top, "scripts/targets/%s.conf" % cells[0])
        if not os.path.exists(conf) or len(cells) < 2:
            continue
        qemu = conf_value(conf, "QEMU")
        if qemu and qemu not in cells[1]:
            readme.problem(lineno, "target %s: its kernel cell does not name "
                           "%s, which scripts/targets/%s.conf runs"
                           % (cells[0], qemu, cells[0]))
        cpu = re.search(r"-cpu ([\w.-]+)", cells[1])
        want = conf_value(conf, "QEMU_CPU")
        if cpu and cpu.group(1) != want:
            readme.problem(lineno, "target %s: -cpu %s, but scripts/targets/"
                           "%s.conf says %s" % (cells[0], cpu.group(1),
                                                cells[0], want))


def check_sets(readme, top):
    rows = readme.table("Targets and test sets", "set")
    confs = glob.glob(os.path.join(top, "scripts/abis/*.conf"))
    sets = {os.path.basename(p)[:-5]: p for p in confs}
    line = rows[0][0] if rows else None
    compare(readme, line, "test set", [r[1][0] for r in rows], sets)
    runners = {}
    for conf in glob.glob(os.path.join(top, "scripts/targets/*.conf")):
        target = os.path.basename(conf)[:-5]
        for key in ("TEST_SETS", "TEST_ONLY_SETS"):
            for s in (conf_value(conf, key) or "").split():
                runners.setdefault(s, set()).add(target)
    for lineno, cells in rows:
        name = cells[0]
        if name not in sets or len(cells) < 4:
            continue
        cc = conf_value(sets[name], "TEST_CC")
        if cells[1] != cc:
            readme.problem(lineno, "set %s: compiler %s, but %s says %s"
                           % (name, cells[1], sets[name][len(top) + 1:], cc))
        hdrs = conf_value(sets[name], "HEADERS_ARCH")
        if cells[2] != hdrs:
            readme.problem(lineno, "set %s: headers of %s, but %s says %s"
                           % (name, cells[2], sets[name][len(top) + 1:],
                              hdrs))
        said = {t.strip(" `") for t in cells[3].split(",")}
        if said != runners.get(name, set()):
            readme.problem(lineno, "set %s: run by %s, but scripts/targets/ "
                           "say %s" % (name, ", ".join(sorted(said)),
                                       ", ".join(sorted(runners.get(name,
                                                                    [])))))


def check_bases(readme, top):
    rows = readme.table("Kernel bases", "BASE=")
    bases = {os.path.basename(os.path.dirname(p)): p for p in
             glob.glob(os.path.join(top, "patches/*/BASE"))}
    line = rows[0][0] if rows else None
    compare(readme, line, "base", [r[1][0] for r in rows], bases)
    compare(readme, line, "Makefile BASES entry", [r[1][0] for r in rows],
            make_var(top, "BASES"))
    for lineno, cells in rows:
        if cells[0] not in bases:
            continue
        with open(bases[cells[0]]) as f:
            package, version = f.read().split()[:2]
        said = re.sub(r"[`*]", "", cells[1]).split()[:2]
        if said != [package, version]:
            readme.problem(lineno, "base %s: %s, but %s says %s %s"
                           % (cells[0], " ".join(said),
                              bases[cells[0]][len(top) + 1:], package,
                              version))


def series_counts(top):
    counts = {}
    for series in glob.glob(os.path.join(top, "patches/*/series")):
        with open(series) as f:
            n = sum(1 for line in f if line.strip()
                    and not line.startswith("#"))
        counts[os.path.basename(os.path.dirname(series))] = n
    return counts


def check_patch_count(readme, top):
    counts = series_counts(top)
    if len(set(counts.values())) != 1:
        readme.problem(None, "the series differ in length (%s): say each "
                       "base's count" % counts)
        return
    count = next(iter(counts.values()))
    found = False
    pattern = re.compile(r"\b(\d+|%s)\s+patches\b" % "|".join(WORDS), re.I)
    for i, line in enumerate(readme.lines):
        for m in pattern.finditer(line):
            said = m.group(1).lower()
            n = int(said) if said.isdigit() else WORDS[said]
            found = True
            if n != count:
                readme.problem(i + 1, "says %s patches; each series has %d"
                               % (m.group(1), count))
    if not found:
        readme.problem(None, "says nowhere how many patches a series has "
                       "(%d)" % count)
    # "k/N" names patch k of N in the bases table.
    first, lines = readme.section("Kernel bases")
    for i, line in enumerate(lines):
        for m in re.finditer(r"\b(\d+)/(\d+)\b", line):
            if int(m.group(2)) != count:
                readme.problem(first + i, "names patch %s; each series has "
                               "%d" % (m.group(0), count))


def check_goals(readme, top):
    goals = set()
    for mk in [os.path.join(top, "Makefile")] + glob.glob(
            os.path.join(top, "scripts/*/*.mk")):
        with open(mk) as f:
            goals |= set(re.findall(r"^## ([a-z][a-z0-9-]*):", f.read(),
                                    re.M))
    # The goal that prints the list is not in the list.
    goals.add("help")
    first, lines = readme.section("Commands")
    shown = set()
    for line in lines:
        m = re.match(r"\s+make(?: ([a-z][a-z0-9-]*))?(?:\s|$)", line)
        if m:
            shown.add(m.group(1) or "all")
    for goal in sorted(goals - shown):
        readme.problem(first, "\"## Commands\" does not show make %s" % goal)
    # Over the whole text, as a goal may wrap onto the next line.
    text = "\n".join(readme.lines)
    # One space, or a line break: "make" alone then a description is "all".
    for m in re.finditer(r"(?:^[ \t]+|`)make(?: |\n[ \t]*)([a-z][a-z0-9-]*)\b",
                         text, re.M):
        word = m.group(1)
        if word not in goals:
            readme.problem(text.count("\n", 0, m.start()) + 1,
                           "make %s is no goal of the Makefile" % word)


def check_paths(readme, top, files):
    roots = {f.split("/")[0] for f in files} | {"build"}
    seen = set()
    for i, line in enumerate(readme.lines):
        for m in re.finditer(r"`([^`\s]+)`|\]\(([^)\s]+)\)", line):
            path = (m.group(1) or m.group(2)).rstrip(".,:;")
            if re.search(r"(tree|kernel)'s\s*$", line[:m.start()]):
                continue
            head = path.split("/")[0]
            if head not in roots or head == "build" or path in seen:
                continue
            if "/" not in path and not os.path.exists(os.path.join(top,
                                                                   path)):
                continue
            seen.add(path)
            if not exists(top, path):
                readme.problem(i + 1, "names %s, which does not exist" % path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", default=None,
                    help="the repository (default: the README's folder)")
    ap.add_argument("readme")
    args = ap.parse_args()
    if not os.path.isfile(args.readme):
        print("%s: error: no %s" % (STEP, args.readme), file=sys.stderr)
        sys.exit(2)
    top = os.path.abspath(args.top or os.path.dirname(args.readme) or ".")
    files = tracked(top)
    readme = Readme(args.readme)
    check_layout(readme, top, files)
    check_targets(readme, top)
    check_sets(readme, top)
    check_bases(readme, top)
    check_patch_count(readme, top)
    check_goals(readme, top)
    check_paths(readme, top, files)
    for p in readme.problems:
        print("%s: %s" % (STEP, p))
    if readme.problems:
        sys.exit(1)
    print("%s: %s agrees with the repository (layout, targets, test sets, "
          "bases, %d patches a series, make goals, paths)"
          % (STEP, args.readme, next(iter(series_counts(top).values()))))


if __name__ == "__main__":
    main()
