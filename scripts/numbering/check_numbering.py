#!/usr/bin/env python3
"""check_numbering.py - regression checks on the syscall numbering.

Usage: scripts/numbering/check_numbering.py --tables F --kinds F
           --table NAME=PATH --base-table NAME=PATH [...] --pinned F
           [--upstream F --reserved F]
           [--header KIND=PATH]... [--binary SET=PATH]...
           [--built TABLE:SPACE]... [--tree DIR] [--host-cc CC]

--tables (scripts/numbering/data/tables.tsv) names the tables this checker
knows, the numbering spaces of each (the ABIs that share one set of
numbers), the rule for a pinned syscall's entry points, and how to read a
table that a base keeps as a C header; --kinds (kinds.tsv) what each
header kind and each set of test binaries follows. Each --table is a
patched table and its --base-table the unpatched one, by the name that
--tables gives it; the data files name tables that are not given too,
and the checks skip them.

The tables and headers are read as kbuild reads them, by
numbering/syscall_tables.py: a .tbl (6.1's "<number> <abi> <name> <entry
point> [<compat entry point>]", or 6.12's, which adds "-" for no compat
entry point and a sixth column, "noreturn") as scripts/syscalltbl.sh
reads it; a table kept as a C header (6.1's asm-generic/unistd.h, arm64's
unistd32.h) and a header of format c by the compiler of the target that
its view in --tables names, "$CC -E" with __SYSCALL() defined to print
each call, with the uapi headers of --tree (the kernel tree: its
asm/bitsperlong.h); a header of #defines by "$CC -dM -E" with --host-cc.

What the kernel build enforces is not checked again: scripts/syscalltbl.sh
(the same on 6.1 and 6.12) fails the build on a number that is used twice,
or is out of order, among the ABIs it is given. Each --built TABLE:SPACE
is a space that the build of a target checked runs through it
(data/inputs.tsv, column "systbl"): the x86 tables' i386, 64 and x32
spaces on both bases; on 6.12 also the generic 64 and AArch32 32 ones,
which 6.1 keeps in C headers that arm64's sys.c and sys32.c compile into
designated initializers ([nr] = sym), where a number given twice silently
takes the second call. The numbers of every other space (those, on 6.1;
the generic 32 space, which no target of ours builds; arm's EABI and OABI,
of which the arm64 target only installs headers, by scripts/syscallhdr.sh,
which checks nothing) are still checked here.

Checks, and reports every failure with what was expected and found:
  unique     every name appears once per numbering space (i386; 64 and
             common; x32 and common; ...), which no build checks, and
             every number is used once in each space that no --built
             names;
  frozen     the numbers in --pinned (name, table, ABI, number) are what
             the tables say: a released syscall number never changes;
  additions  the patched tables only add lines to the unpatched ones
             (--base-table): nothing is renumbered, renamed, removed
             or given another entry point;
  entries    a pinned syscall names the entry points its table's rule
             asks for: on i386 (and generic) compat_sys_<name> as its
             compat entry point; on x86-64 it is "64" (not "common"), so
             that x32 does not get it: x32 is refused; AArch32 tasks reach
             compat_sys_<name>; arm's is sys_<name>, with no compat;
  upstream   with --upstream (every number upstream has allocated, up to
             its newest table: table, number, ABI, name, since; written by
             upstream_allocations.py) and --reserved (bands upstream keeps
             empty for good: table, first, last, reason), each line the
             patched tables add, in each numbering space it joins, must use
             a number that
               - no upstream kernel allocates in that space (a collision:
                 a binary built for one base would run another call on a
                 newer kernel);
               - is not past upstream's last number in that space (the
                 next upstream syscall would take it); x32's legacy block,
                 512-547, closed upstream, does not count as the last;
               - when below it, lies in a reserved band (any other gap is
                 one a later kernel may fill);
             and the unpatched tables must agree with --upstream (else the
             data file does not describe the base). A table that numbers
             as another's space does (AArch32 as arm's EABI) is checked
             against that space's data. A malformed data line, a band
             that upstream has used or not yet reached, or a number given
             twice in a space is bad input;
  headers    each --header agrees with its table's space (--kinds): every
             call defined with its number, nothing else defined; some
             kinds also define the table size (__NR_syscalls,
             __NR_ia32_syscalls, ...), which must cover the highest
             number;
  binaries   each --binary (SET: a set of --kinds) was built with the
             pinned number: it carries the string "indirect-nr=<n>".
Exits 0 when all pass, 1 otherwise, 2 on bad usage or bad input files.
"""

import argparse
import os
import re
import sys

from numbering.syscall_tables import (TableError, is_c_header, parse_tbl,
                                      read_c_table, read_nr_defines,
                                      read_text, target_compiler)

TAG_RE = re.compile(rb"indirect-nr=(\d+)")
NAME_RE = re.compile(r"^\w+$")
SINCE_RE = re.compile(r"^(<=)?\d+\.\d+$")
HEADER_FORMATS = ("flat", "kernel", "c")

# The numbering spaces of each table, from --tables: which ABIs share one
# space.
SPACES = {}
# The other columns of --tables, by table.
TABLES = {}
ENTRY_RULES = ("compat", "x86-64", "aarch32", "native", "-")


class Table:
    def __init__(self, name, label, spaces, rule, numbers, view):
        self.name = name
        self.label = label
        self.spaces = spaces
        self.rule = rule
        self.numbers = numbers      # (table, space) or None
        self.view = view            # (target, abi, [macro]) or None


# On stdout, with the failures: it is the report, not a usage error.
def bad_input(msg):
    print("check-numbering: BAD INPUT: %s" % msg)
    sys.exit(2)


def read_data(path):
    try:
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                if line.split("#", 1)[0].strip():
                    yield lineno, line.rstrip("\n")
    except OSError as e:
        bad_input("cannot read %s: %s" % (path, e))


def read_tables_data(path):
    for lineno, line in read_data(path):
        fields = line.split("\t")
        where = "%s:%d" % (path, lineno)
        if len(fields) != 6:
            bad_input("%s: want 'table<TAB>label<TAB>spaces<TAB>entries<TAB>"
                      "numbers<TAB>view'" % where)
        name, label, spaces, rule, numbers, view = fields
        if name in TABLES:
            bad_input("%s: table %s is given twice" % (where, name))
        if rule not in ENTRY_RULES:
            bad_input("%s: entries '%s' is not one of %s"
                      % (where, rule, ", ".join(ENTRY_RULES)))
        sp = {}
        for word in spaces.split():
            space, _, abis = word.partition("=")
            if not space or not abis or space in sp:
                bad_input("%s: bad space '%s': want space=ABI,ABI..."
                          % (where, word))
            sp[space] = set(abis.split(","))
        if not sp:
            bad_input("%s: %s has no numbering space" % (where, name))
        if numbers == "-":
            numbers = None
        else:
            numbers = tuple(numbers.split(":"))
            if len(numbers) != 2:
                bad_input("%s: numbers '%s': want '-' or table:space"
                          % (where, ":".join(numbers)))
        if view == "-":
            view = None
        else:
            words = view.split()
            if len(words) < 2:
                bad_input("%s: view '%s': want '-' or 'target ABI [macro]...'"
                          % (where, view))
            if not any(words[1] in abis for abis in sp.values()):
                bad_input("%s: view ABI '%s' is in no space of %s"
                          % (where, words[1], name))
            view = (words[0], words[1], words[2:])
        TABLES[name] = Table(name, label, sp, rule, numbers, view)
        SPACES[name] = sp
    for name, t in TABLES.items():
        if t.numbers and (t.numbers[0] not in SPACES or
                          t.numbers[1] not in SPACES[t.numbers[0]]):
            bad_input("%s: %s numbers as %s, which is no table and space "
                      "of it" % (path, name, ":".join(t.numbers)))
    if not TABLES:
        bad_input("%s: no tables" % path)


def read_kinds(path):
    headers, binaries = {}, {}
    for lineno, line in read_data(path):
        fields = line.split("\t")
        where = "%s:%d" % (path, lineno)
        if len(fields) > 1 and (fields[1] in headers or
                                fields[1] in binaries):
            bad_input("%s: %s is given twice" % (where, fields[1]))
        if fields[0] == "header" and len(fields) == 7:
            _, kind, table, space, prefix, size, fmt = fields
            if size not in ("yes", "no") or fmt not in HEADER_FORMATS:
                bad_input("%s: size is yes or no, format one of %s"
                          % (where, ", ".join(HEADER_FORMATS)))
            headers[kind] = (table, space, "" if prefix == "-" else prefix,
                             size == "yes", fmt, len(headers))
        elif fields[0] == "binary" and len(fields) == 5:
            _, kind, table, space, label = fields
            binaries[kind] = (table, space, label, len(binaries))
        else:
            bad_input("%s: want 'header<TAB>kind<TAB>table<TAB>space<TAB>"
                      "prefix<TAB>size<TAB>format' or 'binary<TAB>set<TAB>"
                      "table<TAB>space<TAB>label'" % where)
        if table not in SPACES or space not in SPACES[table]:
            bad_input("%s: %s ABI %s is not a numbering space of tables.tsv"
                      % (where, table, space))
        if fields[0] == "header" and fmt == "c" and not TABLES[table].view:
            bad_input("%s: format c, but tables.tsv gives %s no view"
                      % (where, table))
    return headers, binaries


# The kernel tree whose uapi headers a table kept as a C header includes
# (asm/bitsperlong.h), and the compiler of the headers of #defines.
CPP = {"tree": None, "host_cc": "gcc"}


def read_c_view(path, table):
    """A table or header kept as a C header, read through the table's view
    (tables.tsv): the target's compiler, and the uapi include folders of
    the target's kernel ARCH in --tree, as its kernel build has them."""
    target, abi, macros = TABLES[table].view
    if CPP["tree"] is None:
        bad_input("%s is a C header, read by the compiler with the uapi "
                  "headers of a kernel tree: give --tree" % path)
    cc, karch = target_compiler(target)
    includes = [os.path.join(CPP["tree"], "arch", karch, "include", "uapi"),
                os.path.join(CPP["tree"], "include", "uapi")]
    return read_c_table(path, table, abi, cc, includes, macros)


def read_table(path, table):
    """The calls of a table, as kbuild reads it: a .tbl as
    scripts/syscalltbl.sh does, a C header through the compiler."""
    try:
        text = read_text(path)
        if not is_c_header(text):
            return parse_tbl(text, table), False
        if TABLES[table].view is None:
            bad_input("%s: a C header, but tables.tsv gives %s no view"
                      % (path, table))
        return read_c_view(path, table)[0], True
    except TableError as e:
        bad_input(str(e))


def space_entries(entries, table, space):
    return [e for e in entries if e.abi in SPACES[table][space]]


def check_unique(tables, built, errors):
    """Every name once in each space, and every number once in each space
    that no build of the targets checked runs through scripts/syscalltbl.sh
    (built: {(table, space)}): that script fails the build on a number
    used twice, or out of order, in the others."""
    for table, entries in tables.items():
        for space in SPACES[table]:
            by_nr, by_name = {}, {}
            numbers = (table, space) not in built
            for e in space_entries(entries, table, space):
                if numbers and e.nr in by_nr:
                    errors.append("unique: %s ABI %s: number %d is used by both "
                                  "%s (%s) and %s (%s)"
                                  % (table, space, e.nr, by_nr[e.nr].name,
                                     by_nr[e.nr].where(), e.name, e.where()))
                else:
                    by_nr.setdefault(e.nr, e)
                if e.name in by_name:
                    errors.append("unique: %s ABI %s: %s appears twice (%s, %s)"
                                  % (table, space, e.name,
                                     by_name[e.name].where(), e.where()))
                else:
                    by_name[e.name] = e


def read_pinned(path):
    pinned = []
    for lineno, line in read_data(path):
        fields = line.split("#", 1)[0].split()
        if (len(fields) != 4 or fields[1] not in SPACES
                or fields[2] not in SPACES[fields[1]]
                or not fields[3].isdigit()):
            bad_input("%s:%d: want 'name table abi number'" % (path, lineno))
        pinned.append((fields[0], fields[1], fields[2], int(fields[3])))
    return pinned


def find(entries, table, space, name):
    return [e for e in space_entries(entries, table, space) if e.name == name]


def check_frozen(tables, pinned, errors):
    for name, table, abi, nr in pinned:
        found = find(tables[table], table, abi, name)
        if not found:
            errors.append("frozen: %s is pinned at %d in %s (ABI %s), but the "
                          "table has no %s: the ABI is frozen"
                          % (name, nr, table, abi, name))
        elif found[0].nr != nr:
            errors.append("frozen: %s is pinned at %d in %s (ABI %s), but %s "
                          "gives it %d: the ABI is frozen, a released syscall "
                          "number never changes"
                          % (name, nr, table, abi, found[0].where(), found[0].nr))


def check_additions(tables, bases, errors):
    for table, base in bases.items():
        patched = {(e.abi, e.name): e for e in tables[table]}
        for b in base:
            p = patched.get((b.abi, b.name))
            if p is None:
                errors.append("additions: %s %s (%d, ABI %s) was removed or "
                              "renamed" % (table, b.name, b.nr, b.abi))
            elif p.nr != b.nr:
                errors.append("additions: %s %s (ABI %s) was renumbered from %d "
                              "to %d (%s)" % (table, b.name, b.abi, b.nr, p.nr,
                                              p.where()))
            elif (p.entry, p.compat, p.flags) != (b.entry, b.compat, b.flags):
                errors.append("additions: %s %s changed its entry points from "
                              "'%s' to '%s'"
                              % (table, b.name, b.points(), p.points()))


def check_entries(tables, pinned, errors):
    for name, table, abi, nr in pinned:
        rule = TABLES[table].rule
        for e in find(tables[table], table, abi, name):
            if rule == "compat":
                want = "compat_sys_" + name
                if e.compat != want:
                    errors.append("entries: %s: %s must name %s as its compat "
                                  "entry point, found '%s'"
                                  % (e.where(), name, want, e.compat or "none"))
            elif rule == "aarch32":
                want = "compat_sys_" + name
                if (e.compat or e.entry) != want:
                    errors.append("entries: %s: an AArch32 task must reach "
                                  "%s through %s, which reads its 32-bit "
                                  "pointers, found '%s'"
                                  % (e.where(), name, want,
                                     e.compat or e.entry))
            elif rule in ("x86-64", "native"):
                if rule == "x86-64" and e.abi != "64":
                    errors.append("entries: %s: %s is '%s', but must be '64': "
                                  "x32 is refused (it would need compat "
                                  "pointers with native numbers)"
                                  % (e.where(), name, e.abi))
                if e.entry != "sys_" + name or e.compat:
                    errors.append("entries: %s: %s must be 'sys_%s' with no "
                                  "compat entry, found '%s %s'"
                                  % (e.where(), name, name, e.entry, e.compat))
    for table, entries in tables.items():
        if TABLES[table].rule != "x86-64":
            continue
        for e in entries:
            if e.abi == "x32" and any(e.name == p[0] for p in pinned):
                errors.append("entries: %s: %s has an x32 entry; x32 is "
                              "refused" % (e.where(), e.name))


class Upstream:
    """Upstream's allocations, by table and numbering space."""

    def __init__(self):
        self.nrs = {t: {s: {} for s in SPACES[t]} for t in SPACES}
        self.last = {t: {} for t in SPACES}


def read_upstream(path):
    up = Upstream()
    names = {t: {s: {} for s in SPACES[t]} for t in SPACES}
    for lineno, line in read_data(path):
        fields = line.split("#", 1)[0].split()
        where = "%s:%d" % (path, lineno)
        if len(fields) != 5:
            bad_input("%s: want 'table number abi name since', found %d "
                      "fields" % (where, len(fields)))
        table, nr, abi, name, since = fields
        if table not in SPACES:
            bad_input("%s: unknown table '%s'" % (where, table))
        if TABLES[table].numbers:
            bad_input("%s: %s numbers as %s: its numbers are that space's"
                      % (where, table, ":".join(TABLES[table].numbers)))
        spaces = [s for s in SPACES[table] if abi in SPACES[table][s]]
        if not spaces:
            bad_input("%s: ABI '%s' is not one of %s's" % (where, abi, table))
        if not nr.isdigit():
            bad_input("%s: number '%s' is not a number" % (where, nr))
        if not NAME_RE.match(name):
            bad_input("%s: bad name '%s'" % (where, name))
        if not SINCE_RE.match(since):
            bad_input("%s: since '%s' is not a version (6.5, <=6.1)"
                      % (where, since))
        nr = int(nr)
        for space in spaces:
            prev = up.nrs[table][space].get(nr)
            if prev:
                bad_input("%s: %s %d is given twice in ABI %s: %s (line %d) "
                          "and %s" % (where, table, nr, space, prev[0],
                                      prev[3], name))
            prev = names[table][space].get(name)
            if prev is not None:
                bad_input("%s: %s %s appears twice in ABI %s (lines %d, %d)"
                          % (where, table, name, space, prev, lineno))
            up.nrs[table][space][nr] = (name, since, abi, lineno)
            names[table][space][name] = lineno
    for table, spaces in up.nrs.items():
        if TABLES[table].numbers:
            continue
        for space, nrs in spaces.items():
            # x32's own numbers, 512-547, are a legacy block closed for
            # good ("Do not add new syscalls to this range"): the next
            # upstream call comes after the last common one.
            grow = [n for n, a in nrs.items() if a[2] != "x32"]
            if not grow:
                bad_input("%s: no %s numbers for ABI %s"
                          % (path, table, space))
            up.last[table][space] = max(grow)
    return up


def read_bands(path, up):
    bands = {t: [] for t in SPACES}
    for lineno, line in read_data(path):
        fields = line.split("\t", 3)
        where = "%s:%d" % (path, lineno)
        if len(fields) != 4 or not fields[3].strip():
            bad_input("%s: want 'table<TAB>first<TAB>last<TAB>reason'" % where)
        table, first, last, reason = fields
        if table not in SPACES:
            bad_input("%s: unknown table '%s'" % (where, table))
        if TABLES[table].numbers:
            bad_input("%s: %s numbers as %s: its bands are that table's"
                      % (where, table, ":".join(TABLES[table].numbers)))
        if not first.isdigit() or not last.isdigit() or int(first) > int(last):
            bad_input("%s: '%s'..'%s' is not a band of numbers"
                      % (where, first, last))
        first, last = int(first), int(last)
        for f, l, n in bands[table]:
            if first <= l and f <= last:
                bad_input("%s: %s band %d-%d overlaps %d-%d (line %d)"
                          % (where, table, first, last, f, l, n))
        for space, nrs in up.nrs[table].items():
            used = sorted(n for n in nrs if first <= n <= last)
            if used:
                bad_input("%s: %s band %d-%d holds upstream's %s at %d (ABI "
                          "%s): upstream does not keep it empty"
                          % (where, table, first, last, nrs[used[0]][0],
                             used[0], space))
            if last > up.last[table][space]:
                bad_input("%s: %s band %d-%d ends past upstream's last number "
                          "in ABI %s, %d: nothing says upstream will skip it"
                          % (where, table, first, last, space,
                             up.last[table][space]))
        bands[table].append((first, last, lineno))
    return bands


def describe(nrs, nr):
    name, since = nrs[nr][0], nrs[nr][1]
    return "%s (%d, %s)" % (name, nr, "6.1 or older" if since == "<=6.1"
                            else "since " + since)


def check_upstream(tables, bases, up, bands, errors):
    added = 0
    for table, entries in tables.items():
        base = {(b.abi, b.name, b.nr) for b in bases[table]}
        for space in SPACES[table]:
            # A table that numbers as another's space: that space's data.
            src, src_space = TABLES[table].numbers or (table, space)
            nrs, last = up.nrs[src][src_space], up.last[src][src_space]
            for b in space_entries(bases[table], table, space):
                if TABLES[table].numbers:
                    # Its own names (6.1's unistd32.h has arm's
                    # arm_sync_file_range as sync_file_range2): the number.
                    if b.nr not in nrs:
                        errors.append("upstream: %s ABI %s: the unpatched "
                                      "table has %s at %d, but the upstream "
                                      "data of %s ABI %s has no such number: "
                                      "it does not describe this base"
                                      % (table, space, b.name, b.nr, src,
                                         src_space))
                elif b.nr not in nrs or nrs[b.nr][0] != b.name:
                    errors.append("upstream: %s ABI %s: the unpatched table "
                                  "has %s at %d, but the upstream data %s: it "
                                  "does not describe this base"
                                  % (table, space, b.name, b.nr,
                                     "gives %s" % describe(nrs, b.nr)
                                     if b.nr in nrs else "has no such number"))
            for e in space_entries(entries, table, space):
                if (e.abi, e.name, e.nr) in base:
                    continue
                added += 1
                what = "upstream: %s ABI %s: %s at %d" % (table, space,
                                                          e.name, e.nr)
                if e.nr in nrs:
                    errors.append("%s collides with upstream's %s"
                                  % (what, describe(nrs, e.nr)))
                elif e.nr > last:
                    errors.append("%s is past upstream's last number, %s: it "
                                  "would collide with the next upstream "
                                  "syscall" % (what, describe(nrs, last)))
                elif not any(f <= e.nr <= l for f, l, _ in bands[src]):
                    near = [describe(nrs, n) for n in
                            (max((n for n in nrs if n < e.nr), default=None),
                             min(n for n in nrs if n > e.nr)) if n is not None]
                    errors.append("%s is an unexplained gap: below upstream's "
                                  "last number, %d, next to %s, and in no "
                                  "reserved band, so a later kernel may "
                                  "fill it" % (what, last, " and ".join(near)))
    return added


def read_header(path, fmt, table, prefix):
    """The __NR_ numbers a header defines, without the __NR_."""
    if fmt != "c":
        # A header of #defines: what the compiler leaves defined in it,
        # with __KERNEL__ for one of the kernel's build.
        return read_nr_defines(path, CPP["host_cc"], kernel=fmt == "kernel")
    # A C header: the calls it wires up, and the table size.
    entries, macros = read_c_view(path, table)
    defines = {e.name: e.nr for e in entries}
    size = macros.get("__NR_" + prefix + "syscalls", "")
    if size.isdigit():
        defines[prefix + "syscalls"] = int(size)
    return defines


def check_header(kind, path, tables, pinned, kinds, errors):
    table, space, prefix, has_size, fmt, _ = kinds[kind]
    try:
        defines = read_header(path, fmt, table, prefix)
    except TableError as e:
        errors.append("headers: %s" % e)
        return
    label = "%s/%s" % (os.path.basename(os.path.dirname(path)),
                       os.path.basename(path))
    entries = space_entries(tables[table], table, space)
    for e in entries:
        got = defines.get(prefix + e.name)
        if got != e.nr:
            errors.append("headers: %s: __NR_%s%s is %s, but %s says %d"
                          % (label, prefix, e.name,
                             "missing" if got is None else got, table, e.nr))
    names = {prefix + e.name for e in entries} | {prefix + "syscalls"}
    for name in sorted(set(defines) - names):
        errors.append("headers: %s: __NR_%s = %d is in no table"
                      % (label, name, defines[name]))
    if has_size and entries:
        size = defines.get(prefix + "syscalls")
        top = max(e.nr for e in entries)
        if size is None or size <= top:
            errors.append("headers: %s: __NR_%ssyscalls is %s, which does not "
                          "cover the highest number %d"
                          % (label, prefix, size, top))
    for name, ptable, abi, nr in pinned:
        if ptable == table and abi == space and defines.get(prefix + name) != nr:
            got = defines.get(prefix + name)
            errors.append("headers: %s: __NR_%s%s is %s, not the pinned %d"
                          % (label, prefix, name,
                             "missing" if got is None else got, nr))


def check_binary(kind, path, pinned, binaries, errors):
    table, abi, label, _ = binaries[kind]
    want = [nr for name, t, a, nr in pinned
            if (name, t, a) == ("indirect", table, abi)]
    try:
        with open(path, "rb") as f:
            tags = {int(m.group(1)) for m in TAG_RE.finditer(f.read())}
    except OSError as e:
        errors.append("binaries: cannot read %s: %s" % (path, e))
        return
    if not tags:
        return      # a binary that does not call indirect()
    if want and tags != set(want):
        errors.append("binaries: %s (%s) was built with __NR_indirect %s, "
                      "but the headers and the pinned ABI say %d"
                      % (path, label, "/".join(map(str, sorted(tags))),
                         want[0]))


def pairs(ap, opt, specs, known, what):
    out = []
    for spec in specs:
        key, _, path = spec.partition("=")
        if key not in known or not path:
            ap.error("bad --%s %r: %s=PATH, %s one of %s"
                     % (opt, spec, what, what, ", ".join(known)))
        out.append((key, path))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("tables", "kinds", "pinned"):
        ap.add_argument("--" + opt, required=True)
    ap.add_argument("--table", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--base-table", action="append", default=[],
                    metavar="NAME=PATH")
    ap.add_argument("--upstream", metavar="ALLOCATIONS_TSV")
    ap.add_argument("--reserved", metavar="BANDS_TSV")
    ap.add_argument("--header", action="append", default=[],
                    metavar="KIND=PATH")
    ap.add_argument("--binary", action="append", default=[],
                    metavar="SET=PATH")
    ap.add_argument("--built", action="append", default=[],
                    metavar="TABLE:SPACE")
    ap.add_argument("--tree", metavar="DIR")
    ap.add_argument("--host-cc", default="gcc", metavar="CC")
    args = ap.parse_args()
    if (args.upstream is None) != (args.reserved is None):
        ap.error("--upstream and --reserved go together")
    CPP["tree"], CPP["host_cc"] = args.tree, args.host_cc

    read_tables_data(args.tables)
    header_kinds, binary_kinds = read_kinds(args.kinds)
    given = pairs(ap, "table", args.table, TABLES, "NAME")
    given_bases = dict(pairs(ap, "base-table", args.base_table, TABLES, "NAME"))
    if not given:
        ap.error("no --table")
    # In the order of --tables.
    order = list(TABLES)
    given.sort(key=lambda p: order.index(p[0]))
    tables, bases, c_headers = {}, {}, set()
    for name, path in given:
        if name in tables:
            ap.error("--table %s given twice" % name)
        if name not in given_bases:
            ap.error("--table %s has no --base-table" % name)
        tables[name], c_header = read_table(path, name)
        bases[name] = read_table(given_bases[name], name)[0]
        if c_header:
            c_headers.add(name)
    built = set()
    for spec in args.built:
        table, _, space = spec.partition(":")
        if table not in SPACES or space not in SPACES[table]:
            ap.error("bad --built %r: TABLE:SPACE, a table of --tables and "
                     "one of its spaces" % spec)
        if table in c_headers:
            ap.error("--built %s: %s is a C header here, which "
                     "scripts/syscalltbl.sh does not read" % (spec, table))
        built.add((table, space))
    headers = pairs(ap, "header", args.header, header_kinds, "KIND")
    binaries = pairs(ap, "binary", args.binary, binary_kinds, "SET")
    for opt, given_kinds, kinds in (("header", headers, header_kinds),
                                    ("binary", binaries, binary_kinds)):
        for kind, _ in given_kinds:
            if kinds[kind][0] not in tables:
                ap.error("--%s %s needs --table %s"
                         % (opt, kind, kinds[kind][0]))
    # The pins of the tables checked.
    pinned = [p for p in read_pinned(args.pinned) if p[1] in tables]

    errors = []
    check_unique(tables, built, errors)
    check_frozen(tables, pinned, errors)
    check_additions(tables, bases, errors)
    check_entries(tables, pinned, errors)
    if args.upstream:
        up = read_upstream(args.upstream)
        added = check_upstream(tables, bases, up,
                               read_bands(args.reserved, up), errors)
    # In the order of --kinds, then by path.
    headers.sort(key=lambda p: (header_kinds[p[0]][5], p[1]))
    for kind, path in headers:
        check_header(kind, path, tables, pinned, header_kinds, errors)
    binaries.sort(key=lambda p: (binary_kinds[p[0]][3], p[1]))
    for kind, path in binaries:
        check_binary(kind, path, pinned, binary_kinds, errors)

    for err in errors:
        print("check-numbering: FAIL: %s" % err)
    if errors:
        return 1
    counts = ["%d %s" % (len(entries), TABLES[name].label)
              for name, entries in tables.items()]
    if len(counts) > 1:
        counts = [", ".join(counts[:-1]), counts[-1]]
    print("check-numbering: OK: %s entries, %d pinned, %s, %d headers, "
          "%d binaries; the numbers of %d space%s left to the build's "
          "scripts/syscalltbl.sh"
          % (" and ".join(counts),
             len(pinned), "%d additions checked against upstream" % added
             if args.upstream else "no upstream data",
             len(headers), len(binaries), len(built),
             "" if len(built) == 1 else "s"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
