#!/usr/bin/env python3
"""check-numbering.py - regression checks on the x86 syscall numbering.

Usage: scripts/check-numbering.py --tbl32 F --tbl64 F --base-tbl32 F
           --base-tbl64 F --pinned F [--header KIND=PATH]... [--binary BITS=PATH]...

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
  headers    each --header agrees with its table; KIND is uapi_32 or
             gen_32 (__NR_*, i386), uapi_64 or gen_64 (__NR_*, 64),
             ia32 (__NR_ia32_*, i386). gen_* and ia32 also define the
             table size (__NR_syscalls, __NR_ia32_syscalls), which must
             cover the highest number;
  binaries   each --binary (BITS 32 or 64) was built with the pinned
             number: it carries the string "indirect-nr=<n>".
Exits 0 when all pass, 1 otherwise, 2 on bad usage.
"""

import argparse
import os
import re
import sys

DEFINE_RE = re.compile(r"^#define\s+__NR_(\w+)\s+(\d+)\s*$")
TAG_RE = re.compile(rb"indirect-nr=(\d+)")

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
        self.compat = fields[4] if len(fields) > 4 else ""

    def where(self):
        return "%s:%d" % (self.table, self.lineno)


def read_table(path, table):
    entries = []
    try:
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                fields = line.split("#", 1)[0].split()
                if fields:
                    entries.append(Entry(table, lineno, fields))
    except (OSError, ValueError, IndexError) as e:
        raise SystemExit("check-numbering: cannot read %s: %s" % (path, e))
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
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) != 4 or fields[1] not in SPACES:
                raise SystemExit("check-numbering: %s:%d: want 'name table abi "
                                 "number'" % (path, lineno))
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
            elif (p.entry, p.compat) != (b.entry, b.compat):
                errors.append("additions: %s %s changed its entry points from "
                              "'%s %s' to '%s %s'"
                              % (table, b.name, b.entry, b.compat, p.entry,
                                 p.compat))


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
    ap.add_argument("--header", action="append", default=[],
                    metavar="KIND=PATH")
    ap.add_argument("--binary", action="append", default=[],
                    metavar="BITS=PATH")
    args = ap.parse_args()

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
          "%d headers, %d binaries"
          % (len(tables["syscall_32.tbl"]), len(tables["syscall_64.tbl"]),
             len(pinned), len(args.header), len(args.binary)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
