"""syscall_tables.py - read syscall tables and unistd headers as kbuild does.

The numbering check (check_numbering.py) and the generator of its
upstream data (upstream_allocations.py) read the kernel's syscall numbers
through this module, and through nothing of their own that could read a
table otherwise than the kernel does:

  .tbl files (arch/x86/entry/syscalls/syscall_{32,64}.tbl,
      arch/arm/tools/syscall.tbl, and from 6.11 on scripts/syscall.tbl and
      arch/arm64/tools/syscall_32.tbl): read_tbl() takes the lines that
      scripts/syscalltbl.sh takes (grep -E "^[0-9]+[[:space:]]+<abis>") and
      splits them into its columns, "nr abi name native compat noreturn"
      ("-" for no compat entry point and the noreturn column are 6.12's;
      6.1's script reads "nr abi name native compat"). Anything else in
      the file (comments, blank lines) is left out, as kbuild leaves it.
  C headers that number calls with __SYSCALL() (6.1's
      include/uapi/asm-generic/unistd.h and arch/arm64/include/asm/unistd32.h,
      and the asm-generic/unistd.h that headers_install still installs on
      6.12): read_c_table() runs the target's compiler, "$CC -E", with
      __SYSCALL(nr, sym) defined to print a line, as arm64's sys.c and
      sys32.c define it to fill their tables; once plainly and once with
      __SYSCALL_COMPAT defined, as a compat table of the generic numbers
      is built. The compiler decides every #if, expands __SC_COMP(),
      __SC_3264() and __SC_COMP_3264() (the header's own definitions) and
      gives each call's number; "-dD" gives the macros left defined
      (__NR_syscalls, and the __NR_<name> that names a __NR3264_<name>).
      The one thing the compiler cannot give is the __NR_ macro that a
      call passes, since __SC_COMP() expands it before __SYSCALL() sees
      it: that name is read at the line the compiler's line markers name.
  headers of #define __NR_<name> <n> lines (what scripts/syscallhdr.sh
      writes, installed by headers_install or generated in the build):
      read_nr_defines() takes the macros of "$CC -dM -E", with __KERNEL__
      defined for the headers of the kernel build, which only the kernel
      compiles.

What the kernel build itself enforces, this module does not check:
scripts/syscalltbl.sh stops the build ("syscall table is not sorted or
duplicates the same syscall number") when a number of the ABIs it is given
is not above the one before, on both bases (6.1's script is the same in
that), for every table and ABI set that a target's build runs through it;
data/inputs.tsv lists those, and check_numbering.py checks the numbers of
the others only (see its docstring).
"""

import functools
import os
import re
import subprocess

# The repository's top: scripts/numbering/ is two levels down.
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

# What scripts/syscalltbl.sh greps for, before it filters by ABI.
TBL_LINE_RE = re.compile(r"^[0-9]+[ \t\n\r\f\v]+")
# What __SYSCALL(nr, sym) prints: "@SYSCALL@ <nr as expanded> <sym> @".
SYSCALL_MARK = "@SYSCALL@"
SYSCALL_DEF = "__SYSCALL(nr,sym)=%s nr sym @" % SYSCALL_MARK
SYSCALL_OUT_RE = re.compile(r"%s\s+(.+?)\s+(\w+)\s+@" % SYSCALL_MARK)
# The numbering macros of asm-generic/unistd.h and unistd32.h, and the
# argument that names the call's number.
CALL_AT_RE = re.compile(r"\b(?:__SYSCALL|__SC_COMP|__SC_3264|__SC_COMP_3264)"
                        r"\s*\(\s*(\w+)\s*,")
LINEMARKER_RE = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"')
DEFINE_RE = re.compile(r"^#define (\w+)(\([^)]*\))? ?(.*)$")
NR_VALUE_RE = re.compile(r"^(?:(\d+)|\(__NR_SYSCALL_BASE\s*\+\s*(\d+)\))$")


class TableError(Exception):
    """A table or header that cannot be read: the message says where."""


class Call:
    """One numbered call: a line of a .tbl, or a __SYSCALL() of a header."""

    def __init__(self, where, lineno, nr, abi, name, entry="", compat="",
                 flags=()):
        self.table = where      # what where() names: the table's label
        self.lineno = lineno
        self.nr = nr
        self.abi = abi
        self.name = name
        self.entry = entry
        self.compat = compat    # "" for none (6.12 writes "-")
        self.flags = list(flags)

    def where(self):
        return "%s:%d" % (self.table, self.lineno)

    def points(self):
        return " ".join([self.entry, self.compat or "-"] + self.flags)


def parse_tbl(text, label):
    """The calls of a .tbl's text, as scripts/syscalltbl.sh reads them;
    label names the table in Call.where()."""
    calls = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not TBL_LINE_RE.match(line):
            continue
        # The script's "read nr abi name native compat noreturn": split
        # at blanks; a sixth field and more are the noreturn column.
        fields = line.split()
        if len(fields) < 3:
            raise TableError("%s:%d: '%s': a numbered line needs a number, "
                             "an ABI and a name" % (label, lineno, line))
        compat = fields[4] if len(fields) > 4 and fields[4] != "-" else ""
        calls.append(Call(label, lineno, int(fields[0]), fields[1],
                          fields[2], fields[3] if len(fields) > 3 else "",
                          compat, fields[5:]))
    return calls


def read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        raise TableError("cannot read %s: %s" % (path, e))


def read_tbl(path, label=None):
    return parse_tbl(read_text(path), label or os.path.basename(path))


def is_c_header(text):
    """A table kept as a C header (6.1's unistd.h, unistd32.h), not a .tbl."""
    return re.search(r"^\s*#\s*define\s+__NR_", text, re.M) is not None


@functools.lru_cache(maxsize=None)
def target_compiler(target):
    """The C compiler and kernel ARCH of scripts/targets/<target>.conf: the
    compiler its kernel and test binaries are built with."""
    conf = os.path.join(TOP, "scripts", "targets", target + ".conf")
    if not os.path.isfile(conf):
        raise TableError("no target '%s': %s is missing" % (target, conf))
    out = subprocess.run(
        ["sh", "-c", '. "$1" && printf "%s\\n%s\\n" "${CROSS_COMPILE:-}" '
         '"$KARCH"', "sh", conf],
        capture_output=True, text=True)
    lines = out.stdout.split("\n")
    if out.returncode or len(lines) < 2 or not lines[1]:
        raise TableError("%s: cannot read CROSS_COMPILE and KARCH: %s"
                         % (conf, out.stderr.strip()))
    return lines[0] + "gcc", lines[1]


def run_cc(cc, args, path):
    cmd = cc.split() + args + ["-x", "c", path]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise TableError("%s: cannot run %s: %s" % (path, cmd[0], e))
    if out.returncode:
        raise TableError("%s: the compiler failed (exit %d) on it: %s\n"
                         "  command: %s"
                         % (path, out.returncode, out.stderr.strip(),
                            " ".join(cmd)))
    return out.stdout


def read_nr_defines(path, cc="gcc", kernel=False):
    """{name: number} of the __NR_<name> macros a header leaves defined,
    by "$CC -dM -E": plain numbers and arm's (__NR_SYSCALL_BASE + n). With
    kernel, __KERNEL__ is defined, as for every file the kernel compiles
    (the table size, __NR_syscalls, is #ifdef __KERNEL__)."""
    out = run_cc(cc, ["-E", "-dM", "-nostdinc"] +
                 (["-D__KERNEL__"] if kernel else []), path)
    defines = {}
    for line in out.splitlines():
        m = DEFINE_RE.match(line)
        if not m or m.group(2) or not m.group(1).startswith("__NR_"):
            continue
        v = NR_VALUE_RE.match(m.group(3).strip())
        if v:
            defines[m.group(1)[len("__NR_"):]] = int(v.group(1) or v.group(2))
    return defines


def _preprocess(path, cc, includes, macros, compat):
    args = ["-E", "-dD", "-nostdinc"]
    for d in includes:
        args += ["-I", d]
    args += ["-D" + m for m in macros] + ["-D" + SYSCALL_DEF]
    if compat:
        args.append("-D__SYSCALL_COMPAT")
    out = run_cc(cc, args, path)
    calls, defines = [], {}
    src, lineno = path, 0
    for line in out.splitlines():
        m = LINEMARKER_RE.match(line)
        if m:
            src, lineno = m.group(2), int(m.group(1))
            continue
        d = DEFINE_RE.match(line)
        if d:
            # -dD's copy of a #define (ours of __SYSCALL() too): no call.
            if not d.group(2):
                defines[d.group(1)] = d.group(3).strip()
        elif line.startswith("#undef "):
            defines.pop(line.split()[1], None)
        else:
            for c in SYSCALL_OUT_RE.finditer(line):
                calls.append((src, lineno, c.group(1), c.group(2)))
        lineno += 1
    return calls, defines


def _calls(path, label, cc, includes, macros, compat):
    """One pass of the compiler over a C header: its calls as (source,
    line, number, name, entry point), holes left out, and its macros."""
    raw, defines = _preprocess(path, cc, includes, macros, compat)
    # __NR3264_<x> numbers take their name from the __NR_<name> defined
    # as __NR3264_<x>.
    alias = {v: k for k, v in defines.items() if k.startswith("__NR_")}
    sources = {}
    calls = []
    for src, lineno, nr, sym in raw:
        if src not in sources:
            sources[src] = read_text(src).splitlines()
        lines = sources[src]
        where = "%s:%d" % (label if src == path else src, lineno)
        # The call's own text: the __NR_ macro it passes, which __SC_*()
        # expands before __SYSCALL() sees it.
        text = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
        n = lineno
        while text.endswith("\\") and n < len(lines):
            text = text[:-1] + " " + lines[n]
            n += 1
        m = CALL_AT_RE.search(text)
        if not m:
            raise TableError("%s: the compiler puts a __SYSCALL() here, but "
                             "the line has no __SYSCALL(), __SC_COMP(), "
                             "__SC_3264() or __SC_COMP_3264() call" % where)
        ident = m.group(1)
        if ident.isdigit():
            continue        # a hole given sys_ni_syscall: no call
        if not nr.isdigit():
            raise TableError("%s: %s expands to '%s', not a number"
                             % (where, ident, nr))
        if ident.startswith("__NR3264_"):
            ident = alias.get(ident, ident)
        if not ident.startswith("__NR"):
            raise TableError("%s: the call's number is '%s', not an __NR_ "
                             "macro" % (where, ident))
        name = ident[len("__NR_"):] if ident.startswith("__NR_") else ident
        calls.append((src, lineno, int(nr), name, sym))
    return calls, defines


def read_c_table(path, label, abi, cc, includes=(), macros=()):
    """The calls a C header numbers with __SYSCALL(), as Call(abi), and
    the object-like macros it leaves defined ({name: body}).

    cc preprocesses it (-nostdinc: includes are the -I folders), with
    macros (NAME or NAME=VALUE) defined first, as the arch's own
    asm/unistd.h defines the __ARCH_WANT_* that choose its calls. A call's
    compat entry point is what the same line gives with __SYSCALL_COMPAT
    defined, when that differs."""
    native, defines = _calls(path, label, cc, includes, macros, False)
    compat = {(src, n): sym for src, n, _, _, sym in
              _calls(path, label, cc, includes, macros, True)[0]}
    calls = []
    for src, lineno, nr, name, sym in native:
        comp = compat.get((src, lineno), sym)
        calls.append(Call(label, lineno, nr, abi, name, sym,
                          comp if comp != sym else ""))
    return calls, defines


def read_c_numbers(path, label, cc, includes=(), macros=()):
    """Every number a C header gives a call, plainly or with
    __SYSCALL_COMPAT defined (the 32-bit calls of a 64-bit view: the
    time64 ones, 403-423)."""
    return {c[2] for compat in (False, True)
            for c in _calls(path, label, cc, includes, macros, compat)[0]}
