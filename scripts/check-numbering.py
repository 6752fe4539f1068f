#!/usr/bin/env python3
"""check-numbering.py - regression checks on the x86 syscall numbering.

Usage: scripts/check-numbering.py --tbl32 F --tbl64 F --base-tbl32 F
           --base-tbl64 F --pinned F [--upstream F --reserved F]
           [--header KIND=PATH]... [--binary BITS=PATH]...

The tables are read in either format: 6.1's "<number> <abi> <name>
<entry point> [<compat entry point>]", and 6.12's, which adds "-" for no
compat entry point and a sixth column, "noreturn".

Checks, and reports every failure with what was expected and found:
  unique     every number is used once per ABI (i386; 64 and common; x32
             and common), and every name appears once per ABI;
  frozen     the numbers in --pinned (name, table, ABI, number) are what
             the tables say: a released syscall number never changes;
  additions  the patched tables only add lines to the unpatched ones
             (--base-tbl32/64): nothing is renumbered, renamed, removed
             or given another entry point;
  entries    a pinned i386 syscall names compat_sys_<name> as its compat
             entry point; a pinned x86-64 one is "64" (not "common"), so
             that x32 does not get it: x32 is refused on purpose;
  upstream   with --upstream (every number upstream has allocated, up to
             its newest table: table, number, ABI, name, since) and
             --reserved (bands upstream keeps empty for good: table,
             first, last, reason), each line the patched tables add, in
             each numbering space it joins, must use a number that
               - no upstream kernel allocates in that space (a collision:
                 a binary built for one base would run another call on a
                 newer kernel);
               - is not past upstream's last number in that space (the
                 next upstream syscall would take it); x32's legacy block,
                 512-547, closed upstream, does not count as the last;
               - when below it, lies in a reserved band (any other gap is
                 one a later kernel may fill);
             and the unpatched tables must agree with --upstream (else the
             data file does not describe the base). A malformed data
             line, a band that upstream has used or not yet reached, or a
             number given twice in a space is bad input;
  headers    each --header agrees with its table; KIND is uapi_32 or
             gen_32 (__NR_*, i386), uapi_64 or gen_64 (__NR_*, 64),
             ia32 (__NR_ia32_*, i386). gen_* and ia32 also define the
             table size (__NR_syscalls, __NR_ia32_syscalls), which must
             cover the highest number;
  binaries   each --binary (BITS 32 or 64) was built with the pinned
             number: it carries the string "indirect-nr=<n>".
Exits 0 when all pass, 1 otherwise, 2 on bad usage or bad input files.
"""

import argparse
import os
import re
import sys

DEFINE_RE = re.compile(r"^#define\s+__NR_(\w+)\s+(\d+)\s*$")
TAG_RE = re.compile(rb"indirect-nr=(\d+)")
NAME_RE = re.compile(r"^\w+$")
SINCE_RE = re.compile(r"^(<=)?\d+\.\d+$")

# The numbering spaces of each table: which ABIs share one space.
SPACES = {
    "syscall_32.tbl": {"i386": {"i386"}},
    "syscall_64.tbl": {"64": {"64", "common"}, "x32": {"x32", "common"}},
}


class Entry:
    def __init__(self, table, lineno, fields):
        self.table = table
        self.lineno = lineno
        self.nr = int(fields[0])
        self.abi = fields[1]
        self.name = fields[2]
        self.entry = fields[3] if len(fields) > 3 else ""
        # 6.12 writes "-" for no compat entry point, to reach "noreturn".
        self.compat = fields[4] if len(fields) > 4 and fields[4] != "-" else ""
        self.flags = fields[5:]

    def where(self):
        return "%s:%d" % (self.table, self.lineno)

    def points(self):
        return " ".join([self.entry, self.compat or "-"] + self.flags)


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


def read_table(path, table):
    entries = []
    try:
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                fields = line.split("#", 1)[0].split()
                if fields:
                    entries.append(Entry(table, lineno, fields))
    except (OSError, ValueError, IndexError) as e:
        bad_input("cannot read %s: %s" % (path, e))
    return entries


def space_entries(entries, table, space):
    return [e for e in entries if e.abi in SPACES[table][space]]


def check_unique(tables, errors):
    for table, entries in tables.items():
        for space in SPACES[table]:
            by_nr, by_name = {}, {}
            for e in space_entries(entries, table, space):
                if e.nr in by_nr:
                    errors.append("unique: %s ABI %s: number %d is used by both "
                                  "%s (%s) and %s (%s)"
                                  % (table, space, e.nr, by_nr[e.nr].name,
                                     by_nr[e.nr].where(), e.name, e.where()))
                else:
                    by_nr[e.nr] = e
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
        for e in find(tables[table], table, abi, name):
            if table == "syscall_32.tbl":
                want = "compat_sys_" + name
                if e.compat != want:
                    errors.append("entries: %s: %s must name %s as its compat "
                                  "entry point, found '%s'"
                                  % (e.where(), name, want, e.compat or "none"))
            else:
                if e.abi != "64":
                    errors.append("entries: %s: %s is '%s', but must be '64': "
                                  "x32 is refused (it would need compat "
                                  "pointers with native numbers)"
                                  % (e.where(), name, e.abi))
                if e.entry != "sys_" + name or e.compat:
                    errors.append("entries: %s: %s must be 'sys_%s' with no "
                                  "compat entry, found '%s %s'"
                                  % (e.where(), name, name, e.entry, e.compat))
    for e in tables["syscall_64.tbl"]:
        if e.abi == "x32" and any(e.name == p[0] for p in pinned):
            errors.append("entries: %s: %s has an x32 entry; x32 is refused"
                          % (e.where(), e.name))


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
            nrs, last = up.nrs[table][space], up.last[table][space]
            for b in space_entries(bases[table], table, space):
                if b.nr not in nrs or nrs[b.nr][0] != b.name:
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
                elif not any(f <= e.nr <= l for f, l, _ in bands[table]):
                    near = [describe(nrs, n) for n in
                            (max((n for n in nrs if n < e.nr), default=None),
                             min(n for n in nrs if n > e.nr)) if n is not None]
                    errors.append("%s is an unexplained gap: below upstream's "
                                  "last number, %d, next to %s, and in no "
                                  "reserved band, so a later kernel may "
                                  "fill it" % (what, last, " and ".join(near)))
    return added


# Which table, numbering space and macro prefix each header kind follows.
HEADER_KINDS = {
    "uapi_32": ("syscall_32.tbl", "i386", "", False),
    "gen_32": ("syscall_32.tbl", "i386", "", True),
    "uapi_64": ("syscall_64.tbl", "64", "", False),
    "gen_64": ("syscall_64.tbl", "64", "", True),
    "ia32": ("syscall_32.tbl", "i386", "ia32_", True),
}


def check_header(kind, path, tables, pinned, errors):
    table, space, prefix, has_size = HEADER_KINDS[kind]
    defines = {}
    try:
        with open(path) as f:
            for line in f:
                m = DEFINE_RE.match(line)
                if m:
                    defines[m.group(1)] = int(m.group(2))
    except OSError as e:
        errors.append("headers: cannot read %s: %s" % (path, e))
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
            errors.append("headers: %s: __NR_%s%s is %s, not the pinned %d"
                          % (label, prefix, name, defines.get(prefix + name), nr))


def check_binary(bits, path, pinned, errors):
    table, abi = (("syscall_32.tbl", "i386") if bits == "32"
                  else ("syscall_64.tbl", "64"))
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
        errors.append("binaries: %s (-m%s) was built with __NR_indirect %s, "
                      "but the headers and the pinned ABI say %d"
                      % (path, bits, "/".join(map(str, sorted(tags))), want[0]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("tbl32", "tbl64", "base-tbl32", "base-tbl64", "pinned"):
        ap.add_argument("--" + opt, required=True)
    ap.add_argument("--upstream", metavar="ALLOCATIONS_TSV")
    ap.add_argument("--reserved", metavar="BANDS_TSV")
    ap.add_argument("--header", action="append", default=[],
                    metavar="KIND=PATH")
    ap.add_argument("--binary", action="append", default=[],
                    metavar="BITS=PATH")
    args = ap.parse_args()
    if (args.upstream is None) != (args.reserved is None):
        ap.error("--upstream and --reserved go together")

    tables = {"syscall_32.tbl": read_table(args.tbl32, "syscall_32.tbl"),
              "syscall_64.tbl": read_table(args.tbl64, "syscall_64.tbl")}
    bases = {"syscall_32.tbl": read_table(args.base_tbl32, "syscall_32.tbl"),
             "syscall_64.tbl": read_table(args.base_tbl64, "syscall_64.tbl")}
    pinned = read_pinned(args.pinned)

    errors = []
    check_unique(tables, errors)
    check_frozen(tables, pinned, errors)
    check_additions(tables, bases, errors)
    check_entries(tables, pinned, errors)
    if args.upstream:
        up = read_upstream(args.upstream)
        added = check_upstream(tables, bases, up,
                               read_bands(args.reserved, up), errors)
    for spec in args.header:
        kind, _, path = spec.partition("=")
        if kind not in HEADER_KINDS or not path:
            ap.error("bad --header %r: KIND=PATH, KIND one of %s"
                     % (spec, ", ".join(HEADER_KINDS)))
        check_header(kind, path, tables, pinned, errors)
    for spec in args.binary:
        bits, _, path = spec.partition("=")
        if bits not in ("32", "64") or not path:
            ap.error("bad --binary %r: BITS=PATH, BITS 32 or 64" % spec)
        check_binary(bits, path, pinned, errors)

    for err in errors:
        print("check-numbering: FAIL: %s" % err)
    if errors:
        return 1
    print("check-numbering: OK: %d i386 and %d x86-64 entries, %d pinned, "
          "%s, %d headers, %d binaries"
          % (len(tables["syscall_32.tbl"]), len(tables["syscall_64.tbl"]),
             len(pinned), "%d additions checked against upstream" % added
             if args.upstream else "no upstream data",
             len(args.header), len(args.binary)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
