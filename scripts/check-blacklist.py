#!/usr/bin/env python3
"""check-blacklist.py - derive from the kernel tree which syscalls indirect()
must refuse, and check each ABI's blacklist against that.

Usage: scripts/check-blacklist.py --tree DIR --data DIR [--base X.Y]
           [--arches FILE] [--arch NAME]... [--inputs]
           [--overlay DIR] [--cache FILE] [--depth N]

indirect() calls syscall nr on a pt_regs of its own, not on the user
register frame of the task. A syscall must be refused when its entry point
reads or rewrites that frame (current_pt_regs() and the helpers over it,
or code handed the frame, like start_thread() and copy_thread()), or when
it never returns (do_exit() and the other functions the tree declares
__noreturn). This script finds them, per architecture, with what
<data>/arches.tsv says of it (its ABIs, tables, lists and sources; x86:
x86-64 and ia32, arm64: aarch64 and aarch32):

  entries   from each ABI's syscall table (x86: syscall_64.tbl, ABIs
            common and 64, x32 does not reach indirect(); syscall_32.tbl,
            the i386 entry point and the compat one, which is the i386 one
            when the table names none or "-"), each syscall's entry
            points. An entry the table marks "noreturn" (6.12 on) is
            derived as such, whatever the graph finds;
  graph     every C function and macro in the architecture's directory
            and the generic ones (arches.tsv: source), by name: a
            definition line, "{" at column 0, "}" at column 0. A call (or
            the use of an upper-case macro) resolves to the definitions in
            the caller's translation unit if there are any (static scope),
            else to every global one, as a name-based graph
            over-approximates. Calls through function pointers are
            invisible to it; <data>/edges.tsv adds those that matter. The
            functions of <data>/diagnostics.tsv (reports: WARN, stack
            dumps) are not entered;
  sinks     a function whose body holds a token of <data>/frame-tokens.tsv
            (the frame), unless <data>/reviewed-readers.tsv names it (its
            read gives an inner call a direct call's answer), or a call to
            a function declared __noreturn in the sources, less the
            crashes of <data>/noreturn-crash.tsv;
  derived   an entry point that reaches a sink within --depth calls
            (default 16). Each one is printed with the shortest path that
            made it so, for a reviewer to judge. SYSCALL32_DEFINEn defines
            sys_name on i386 and compat_sys_name on x86-64, so both; a
            definition in a file that arches.tsv excludes for a kind of
            kernel does not count for it (x86: an arch/x86 file named
            *_32.c counts for the compat entry points only when an arch/x86
            Makefile builds it for CONFIG_IA32_EMULATION; arm64: the files
            built for CONFIG_COMPAT count for AArch32 only).

Then, per ABI, against the blacklists in the tree (arches.tsv: list
blacklist; x86: the designated initializers of indirect_x64_blocked[] and
indirect_ia32_blocked[] in arch/x86/kernel/indirect.c) and the reviewed
exceptions of <data>/exceptions.tsv (name, ABI, reason):
  fail      a derived syscall that is neither blacklisted nor an exception;
            an entry point with no definition found in the sources; a
            blacklist entry that the ABI's table lacks; a malformed data
            line or blacklist entry;
  report    a blacklist entry that is not derived (it may have another
            reason: restart_syscall, indirect itself); an exception that
            is stale (not derived, or blacklisted as well).

--base X.Y: the tree's kernel version, major.minor; it chooses the tables
where they differ (arm64). Each data file <data>/NAME.tsv is read together
with <data>/X.Y/NAME.tsv, <data>/ARCH/NAME.tsv and <data>/ARCH/X.Y/NAME.tsv
where those exist: what only that base, architecture, or both need. A key
(a function, an edge, a syscall and ABI) may appear in one of them only.
The tokens (frame-tokens.tsv) are every architecture's: no ARCH/ part.
--arches FILE: the architectures' description (default
<data>/arches.tsv). --arch NAME: check that architecture (repeatable;
default: every one that the tree's series supports, arches.tsv: series).
With more than one, each one's output starts with a line naming it.
--inputs: print, for each of those that the series supports, "ARCH<TAB>
FILE" for each file of the tree that the checks read as input (tables,
lists), and check nothing; check-blacklist.sh copies them.
--overlay DIR: a file under DIR replaces (or adds to) the tree's file of
the same relative path; the checker's own tests change copies that way.
--cache FILE keeps what was parsed from each source file, keyed by its
size and modification time and else by its content, so that a second
run, or a first one on a fresh checkout of the same tree, takes seconds.
One cache serves every architecture: the generic files are parsed once.
Exits 0 when nothing fails, 1 otherwise, 2 on bad usage or bad input.
"""

import argparse
import ast
import hashlib
import os
import pickle
import re
import sys

# COND_SYSCALL(name): sys_name is sys_ni_syscall() where nothing defines it.
SYS_NI_C = "kernel/sys_ni.c"
COND_RE = re.compile(r"^COND_SYSCALL(_COMPAT)?\((\w+)\)", re.M)
# What the parser keeps per file depends on this and on the tokens.
PARSER_VERSION = "4"

# Comments and string or character literals, removed before parsing. A
# comment keeps its newlines, so that line numbers stay right.
STRIP_RE = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|"
                      r"'(?:\\.|[^'\\\n])*'", re.S)
CALL_RE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
# A call through a member, ops->fn( or ops.fn(, is a call through a
# pointer, not of a function of that name: group 1 is set for those.
MEMBER_CALL_RE = re.compile(r"(->\s*|\.\s*)?\b([A-Za-z_]\w*)\s*\(")
# A use of an object-like macro (upper case by convention) that is not a
# call: COMPAT_USE_64BIT_TIME reads the frame without parentheses.
MACRO_USE_RE = re.compile(r"(?<![\w.>])([A-Z_][A-Z0-9_]*[A-Z][A-Z0-9_]*)\b"
                          r"(?!\s*\()")
# Preprocessor directives with their continuation lines.
DIRECTIVE_RE = re.compile(r"^[ \t]*#(?:\\\n|[^\n])*", re.M)
DEFINE_RE = re.compile(r"^#\s*define\s+(\w+)(\()?(.*)$", re.S)
INCLUDE_C_RE = re.compile(r'^#\s*include\s+"([^"]+\.c)"', re.M)
# SYSCALL_DEFINEn(name, ...) defines sys_name, COMPAT_SYSCALL_DEFINEn
# compat_sys_name; SYSCALL32_DEFINEn is the one with CONFIG_COMPAT and the
# other without (an i386 kernel), so it defines both.
SYSCALL_MACRO_RE = re.compile(r"^(COMPAT_SYSCALL|SYSCALL32|SYSCALL)_DEFINE"
                              r"(\d|_MAXARGS)$")
# A header may hold alternatives under #if, as SYSCALL_DEFINE5(clone, ...)
# does; a conditional line does not end it, any other directive does.
COND_DIRECTIVE_RE = re.compile(r"^#\s*(if|ifdef|ifndef|elif|else|endif)\b")
FIRST_ARG_RE = re.compile(r"\(\s*([A-Za-z_]\w*)")
NORETURN_RE = re.compile(r"\b__noreturn\b|__attribute__\s*\(\(\s*"
                         r"(?:__)?noreturn(?:__)?\s*\)\)")
ATTR_PAREN_RE = re.compile(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)")
# Words followed by "(" that are not calls, or that head a definition
# without naming it.
NOT_CALLS = frozenset("""if for while switch return sizeof typeof __typeof__
    __typeof alignof _Alignof __alignof__ defined asm __asm__ volatile
    __volatile__ _Static_assert static_assert __attribute__ case do else
    _Generic offsetof __builtin_offsetof __builtin_expect likely unlikely
    __builtin_constant_p""".split())
HEADER_ATTRS = frozenset("""__printf __scanf __section __aligned __alloc_size
    __realloc_size __assume_aligned __must_hold __acquires __releases
    __cond_acquires __cond_lock __diag_ignore __diag_ignore_all __alias
    __attribute__ __no_sanitize_or_inline typeof __typeof__ __nocfi
    __counted_by __cleanup __noreturn""".split())


def die(msg):
    print("check-blacklist: error: %s" % msg, file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- parsing

def strip_c(text):
    def repl(m):
        s = m.group(0)
        if s[0] == "/":
            # Keep the newlines, and the continuations of a macro's lines.
            lines = s.split("\n")
            return " " + "".join("\\\n" if l.endswith("\\") else "\n"
                                 for l in lines[:-1])
        return '""'
    return STRIP_RE.sub(repl, text)


def header_name(hdr):
    """The name a definition header defines, or None."""
    names = header_names(hdr)
    return names[0] if names else None


def header_names(hdr):
    """The names a definition header defines: one, two for
    SYSCALL32_DEFINEn, none."""
    hdr = ATTR_PAREN_RE.sub(" ", hdr)
    depth = 0
    for ch in hdr:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "=" and depth == 0:
            return []          # an initializer, not a function
    for m in CALL_RE.finditer(hdr):
        word = m.group(1)
        if word in HEADER_ATTRS or word in NOT_CALLS:
            continue
        sm = SYSCALL_MACRO_RE.match(word)
        if sm or (word.upper() == word and any(c.isalpha() for c in word)):
            # SYSCALL_DEFINEn(name, ...) and other macros that define a
            # function named by their first argument (BPF_CALL_n, ...).
            am = FIRST_ARG_RE.match(hdr, m.end() - 1)
            if not am:
                return []
            if not sm:
                return [am.group(1)]
            prefixes = {"SYSCALL": ["sys_"], "COMPAT_SYSCALL": ["compat_sys_"],
                        "SYSCALL32": ["sys_", "compat_sys_"]}[sm.group(1)]
            return [p + am.group(1) for p in prefixes]
        return [word]
    return []


def noreturn_names(text):
    """The functions a file declares or defines __noreturn: a set of
    (name, is_static)."""
    names = set()
    spans = [(d.start(), d.end()) for d in DIRECTIVE_RE.finditer(text)]
    for m in NORETURN_RE.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue           # in a macro: not a declaration
        start = max(text.rfind(c, 0, m.start()) for c in ";{}") + 1
        # Skip whole preprocessor lines between the start and the match.
        chunk = "\n".join(l for l in text[start:m.start()].split("\n")
                          if not l.lstrip().startswith("#"))
        ends = [i for i in (text.find(";", m.end()), text.find("{", m.end()))
                if i >= 0]
        end = min(ends) if ends else len(text)
        decl = chunk + text[m.start():end]
        name = header_name(decl)
        if name:
            names.add((name, re.search(r"\bstatic\b", decl) is not None))
    return names


def parse_source(rel, raw, token_res):
    """Parse one file: (definitions, included .c files, __noreturn names).

    A definition is (name, line, is_static, is_macro, calls, tokens): the
    names it calls, and the indexes of the frame tokens its body holds.
    """
    text = strip_c(raw)
    lines = text.split("\n")
    is_header = rel.endswith(".h")
    defs = []

    def tokens_of(body):
        return tuple(i for i, r in enumerate(token_res) if r.search(body))

    def calls_of(body):
        calls = set(m.group(2) for m in MEMBER_CALL_RE.finditer(body)
                    if not m.group(1) and m.group(2) not in NOT_CALLS)
        calls.update(MACRO_USE_RE.findall(body))
        return frozenset(calls)

    n = len(lines)
    i = 0
    while i < n:
        line = lines[i]
        if line.startswith("#"):
            # A macro, with its continuation lines.
            start = i
            full = line
            while full.endswith("\\") and i + 1 < n:
                i += 1
                full = full[:-1] + " " + lines[i]
            m = DEFINE_RE.match(full)
            if m:
                name, paren, rest = m.group(1), m.group(2), m.group(3)
                if paren:
                    close = rest.find(")")
                    body = rest[close + 1:] if close >= 0 else ""
                else:
                    body = rest
                calls = set(calls_of(body))
                if not paren and re.fullmatch(r"\s*[A-Za-z_]\w*\s*", body):
                    calls.add(body.strip())   # #define a b: a( calls b(
                toks = tokens_of(body)
                if calls or toks:
                    defs.append((name, start + 1, not is_header, True,
                                 frozenset(calls), toks))
            i += 1
            continue
        if line.startswith("{"):
            j = i - 1
            hdr = []
            while j >= 0:
                s = lines[j].strip()
                if COND_DIRECTIVE_RE.match(s):
                    j -= 1
                    continue
                if (not s or lines[j].startswith("#") or s.endswith(";") or
                        s.endswith("}") or s.endswith("{")):
                    break
                hdr.append(lines[j])
                j -= 1
            k = i + 1
            while k < n and not lines[k].startswith("}"):
                k += 1
            if hdr:
                hdr.reverse()
                htext = " ".join(hdr)
                names = header_names(htext)
                if names:
                    body = "\n".join(lines[i:k])
                    static = (not is_header and
                              re.search(r"\bstatic\b", htext) is not None and
                              not SYSCALL_MACRO_RE.match(
                                  CALL_RE.search(htext).group(1)))
                    calls, toks = calls_of(body), tokens_of(body)
                    for name in names:
                        defs.append((name, j + 2, static, False, calls, toks))
            i = k + 1
            continue
        i += 1
    includes = INCLUDE_C_RE.findall(text) if not is_header else []
    nr = noreturn_names(text)
    if is_header:
        nr = set((name, False) for name, _ in nr)
    return defs, includes, nr


def token_regex(token):
    """A token of frame-tokens.tsv as a regex, spaces between words free."""
    parts = re.findall(r"\w+|\S", token)
    out = []
    for a, b in zip(parts, parts[1:] + [None]):
        out.append(re.escape(a))
        if b is not None:
            out.append(r"\s*")
    pat = "".join(out)
    if re.match(r"\w", token):
        pat = r"\b" + pat
    return re.compile(pat)


# ---------------------------------------------------------------- data

def read_tsv(path, label, fields, what):
    """Lines of a data file: tab-separated, '#' comments, blank lines.
    Each row is ("label:line", fields)."""
    rows = []
    errors = []
    try:
        f = open(path)
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    with f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = [c.strip() for c in re.split(r"\t+", line)]
            where = "%s:%d" % (label, lineno)
            if len(cols) != fields or not all(cols):
                errors.append("%s: a %s line needs %d tab-separated "
                              "fields, none empty: %r" %
                              (where, what, fields, line))
                continue
            rows.append((where, cols))
    return rows, errors


def read_data(data, base, name, fields, what, keys=1, arch=None):
    """A data file and its parts for the base, the architecture and both,
    <data>/<base>/<name>, <data>/<arch>/<name>, <data>/<arch>/<base>/<name>:
    the rows of all. The first @keys fields name what a row is about; a
    name given twice is an error, as one of the two would go unread."""
    rows, errors = read_tsv(os.path.join(data, name), name, fields, what)
    parts = []
    if base:
        parts.append(base)
    if arch:
        parts.append(arch)
        if base:
            parts.append(os.path.join(arch, base))
    for part in parts:
        if os.path.exists(os.path.join(data, part, name)):
            more, e = read_tsv(os.path.join(data, part, name),
                               "%s/%s" % (part, name), fields, what)
            rows += more
            errors += e
    seen = {}
    for where, cols in rows:
        key = tuple(cols[:keys])
        if key in seen:
            errors.append("%s: %s is given already at %s" %
                          (where, " ".join(key), seen[key]))
        seen.setdefault(key, where)
    return rows, errors


# ---------------------------------------------------------------- arches

# The keys of arches.tsv and how many fields each one takes after it.
ARCH_KEYS = {"series": 2, "arch": 1, "source": 1, "extra-source": 2,
             "skip": 2, "abi": 1, "table": 5, "entry": 3, "alias": 4,
             "exclude": 5, "list": 5}
TABLE_FORMATS = ("tbl", "unistd-h")
ENTRY_COLUMNS = ("entry", "compat-or-entry")
LIST_KINDS = ("blacklist", "resolves")
BASE_RE = re.compile(r"\d+\.\d+")


class Arch:
    """What arches.tsv says of one architecture."""

    def __init__(self, name):
        self.name = name
        self.series = None     # (Kconfig file, symbol)
        self.dir = None
        self.sources = []
        self.extra = []
        self.skips = []
        self.abis = []
        self.tables = {}       # abi -> [(bases, format, file, select, where)]
        self.entries = {}      # abi -> [(kind, column)]
        self.aliases = {}      # (kind, table's entry) -> the definition
        self.excludes = {}     # kind -> [(regex, mode, config)]
        self.lists = {}        # (which, abi) -> (file, array, form)

    def supported(self, tree):
        """Whether the tree's series supports the architecture."""
        rel, symbol = self.series
        try:
            text = tree.read(rel)
        except OSError:
            return False
        return re.search(r"^\s*select\s+%s\b" % re.escape(symbol), text,
                         re.M) is not None

    def table(self, abi, base):
        """(format, file, select) of the ABI's table on the base."""
        rows = [t for t in self.tables[abi]
                if t[0] == "*" or (base and base in t[0].split(","))]
        if len(rows) != 1:
            die("%s: %s has %s table for base %s in arches.tsv (%s)" %
                (self.name, abi, "no" if not rows else "more than one",
                 base or "(none given: --base)",
                 ", ".join(t[4] for t in self.tables[abi])))
        return rows[0][1:4]

    def inputs(self, base):
        """The files of the tree that the checks read as input."""
        out = []
        for abi in self.abis:
            fmt, rel, select = self.table(abi, base)
            out.append(rel)
            if fmt == "unistd-h":
                out += [s for s in select.split(",") if "/" in s]
        for which, abi in sorted(self.lists):
            out.append(self.lists[(which, abi)][0])
        return sorted(set(out))


def load_arches(path):
    """{name: Arch} from arches.tsv, in the order of the file. The lines of
    "*" go to every architecture. Bad input ends the run."""
    rows = []
    try:
        f = open(path)
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    label = os.path.basename(path)
    with f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = [c.strip() for c in re.split(r"\t+", line)]
            where = "%s:%d" % (label, lineno)
            if len(cols) < 2 or cols[1] not in ARCH_KEYS:
                die("%s: not an architecture, then one of the keys %s: %r" %
                    (where, " ".join(sorted(ARCH_KEYS)), line))
            if len(cols) != ARCH_KEYS[cols[1]] + 2 or not all(cols):
                die("%s: a %s line needs the architecture and %d "
                    "tab-separated fields, none empty: %r" %
                    (where, cols[1], ARCH_KEYS[cols[1]], line))
            rows.append((where, cols))
    arches = {}
    for where, cols in rows:
        if cols[0] != "*":
            arches.setdefault(cols[0], Arch(cols[0]))
    for where, cols in rows:
        for a in (arches.values() if cols[0] == "*" else [arches[cols[0]]]):
            add_arch_line(a, where, cols[1], cols[2:])
    if not arches:
        die("%s: no architecture" % label)
    all_abis = {}
    for a in arches.values():
        for what, value in (("series", a.series), ("arch", a.dir),
                            ("abi", a.abis)):
            if not value:
                die("%s: %s has no %s line" % (label, a.name, what))
        for abi in a.abis:
            if abi in all_abis:
                die("%s: ABI %s is %s's and %s's" %
                    (label, abi, all_abis[abi], a.name))
            all_abis[abi] = a.name
            for what, have in (("table", abi in a.tables),
                               ("entry", abi in a.entries)):
                if not have:
                    die("%s: %s ABI %s has no %s line" %
                        (label, a.name, abi, what))
        kinds = set(k for e in a.entries.values() for k, _ in e)
        for kind in set(a.excludes) | set(k for k, _ in a.aliases):
            if kind not in kinds:
                die("%s: %s has exclude or alias lines for kind %s, which no "
                    "entry line names" % (label, a.name, kind))
    return arches


def add_arch_line(a, where, key, f):
    def need_abi(abi):
        if abi not in a.abis:
            die("%s: %s is not an ABI of %s (an abi line first)" %
                (where, abi, a.name))
    if key == "series":
        a.series = tuple(f)
    elif key == "arch":
        a.dir = f[0]
    elif key == "source":
        a.sources.append(f[0])
    elif key == "extra-source":
        a.extra.append(f[0])
    elif key == "skip":
        a.skips.append(f[0])
    elif key == "abi":
        if f[0] in a.abis:
            die("%s: ABI %s is given twice" % (where, f[0]))
        a.abis.append(f[0])
    elif key == "table":
        need_abi(f[0])
        if f[2] not in TABLE_FORMATS:
            die("%s: table format %r is not one of %s" %
                (where, f[2], ", ".join(TABLE_FORMATS)))
        if f[1] != "*" and not all(BASE_RE.fullmatch(b)
                                   for b in f[1].split(",")):
            die("%s: %r is not \"*\" or major.minor[,major.minor...]" %
                (where, f[1]))
        a.tables.setdefault(f[0], []).append((f[1], f[2], f[3], f[4],
                                              where))
    elif key == "entry":
        need_abi(f[0])
        if f[2] not in ENTRY_COLUMNS:
            die("%s: entry column %r is not one of %s" %
                (where, f[2], ", ".join(ENTRY_COLUMNS)))
        a.entries.setdefault(f[0], []).append((f[1], f[2]))
    elif key == "alias":
        a.aliases[(f[0], f[1])] = f[2]
    elif key == "exclude":
        try:
            rx = re.compile(f[1])
        except re.error as e:
            die("%s: bad regular expression %r: %s" % (where, f[1], e))
        if f[2] not in ("-", "if", "unless") or (f[2] == "-") != (
                f[3] == "-"):
            die("%s: an exclude line has mode and config \"-\" and \"-\", "
                "or \"if\" or \"unless\" and a CONFIG_ symbol" % where)
        a.excludes.setdefault(f[0], []).append((rx, f[2], f[3]))
    elif key == "list":
        if f[0] not in LIST_KINDS:
            die("%s: list %r is not one of %s" %
                (where, f[0], ", ".join(LIST_KINDS)))
        need_abi(f[1])
        if "name" not in f[4]:
            die("%s: the form %r has no \"name\" in it" % (where, f[4]))
        if (f[0], f[1]) in a.lists:
            die("%s: %s's %s list is given twice" % (where, f[1], f[0]))
        a.lists[(f[0], f[1])] = (f[2], f[3], f[4])


def form_regex(form):
    """The regex of a list entry's form: "name" the group, spaces free."""
    def part(s):
        out = r"\s*".join(re.escape(w) for w in s.split())
        return (r"\s*" if s[:1].isspace() else "") + out + \
            (r"\s*" if s[-1:].isspace() else "")
    pre, _, post = form.partition("name")
    return part(pre) + r"(\w+)" + part(post)


def all_abis(arches):
    return [abi for a in arches.values() for abi in a.abis]


def choose_arches(arches, names, tree, what, inputs=False):
    """The architectures to check: @names, else every one that the tree's
    series supports."""
    for n in names or []:
        if n not in arches:
            die("no architecture %r in arches.tsv (%s)" %
                (n, ", ".join(arches)))
    chosen = []
    for n in (names or list(arches)):
        a = arches[n]
        if a.supported(tree):
            chosen.append(a)
        elif names and not inputs:
            die("%s: the tree's series does not support it (%s does not "
                "select %s)" % (n, a.series[0], a.series[1]))
        else:
            print("%s: %s: not checked: the tree's series does not support "
                  "it (%s does not select %s)" %
                  (what, n, a.series[0], a.series[1]), file=sys.stderr)
    if not chosen and not inputs:
        die("no architecture of arches.tsv that the tree's series supports")
    return chosen


class Tree:
    """The kernel tree, with --overlay files in front of it."""

    def __init__(self, root, overlay):
        self.root = root
        self.overlay = overlay
        self.overlay_files = set()
        if overlay:
            for d, _, files in os.walk(overlay):
                for f in files:
                    self.overlay_files.add(
                        os.path.relpath(os.path.join(d, f), overlay))

    def path(self, rel):
        if rel in self.overlay_files:
            return os.path.join(self.overlay, rel)
        return os.path.join(self.root, rel)

    def read(self, rel):
        with open(self.path(rel), encoding="latin-1") as f:
            return f.read()

    def sources(self, arch):
        """The source files of the architecture's graph."""
        found = set()
        for top in arch.sources:
            base = os.path.join(self.root, top)
            for d, dirs, files in os.walk(base):
                rel_d = os.path.relpath(d, self.root)
                dirs[:] = sorted(x for x in dirs
                                 if os.path.join(rel_d, x) not in arch.skips)
                for f in files:
                    rel = os.path.join(rel_d, f)
                    if (f.endswith(".c") or f.endswith(".h")) and \
                            rel not in arch.skips:
                        found.add(rel)
        for rel in arch.extra:
            if os.path.exists(self.path(rel)):
                found.add(rel)
        for rel in self.overlay_files:
            if (rel.endswith(".c") or rel.endswith(".h")) and any(
                    rel.startswith(t + "/") for t in arch.sources) and not any(
                    rel.startswith(s + "/") or rel == s for s in arch.skips):
                found.add(rel)
        inc = os.path.join(arch.dir, "include")
        if not os.path.isdir(os.path.join(self.root, inc)):
            die("%s is not a kernel tree (no %s)" % (self.root, inc))
        return sorted(found)


def read_table(tree, rel):
    """(line, abi, name, entry, compat entry, noreturn) of each table
    line. A compat entry of "-" is none: it only holds the column for the
    sixth, "noreturn", as scripts/syscalltbl.sh reads them."""
    rows = []
    for lineno, line in enumerate(tree.read(rel).split("\n"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        f = line.split()
        if len(f) < 3 or len(f) > 6 or not f[0].isdigit():
            die("%s:%d: a line needs a number, an ABI, a name and at most "
                "an entry point, a compat one and \"noreturn\"" %
                (rel, lineno))
        if len(f) == 6 and f[5] != "noreturn":
            die("%s:%d: %r in the noreturn column" % (rel, lineno, f[5]))
        compat = f[4] if len(f) > 4 and f[4] != "-" else ""
        rows.append((lineno, f[1], f[2], f[3] if len(f) > 3 else "",
                     compat, len(f) == 6))
    return rows


# ---------------------------------------------------------------- unistd.h

PP_DIRECTIVE_RE = re.compile(r"^\s*#\s*(\w*)(.*)$", re.S)
PP_IDENT_RE = re.compile(r"\b[A-Za-z_]\w*")
PP_DEFINED_RE = re.compile(r"\bdefined\s*(?:\(\s*(\w+)\s*\)|(\w+))")
PP_NODES = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp,
            ast.Not, ast.USub, ast.UAdd, ast.Invert, ast.BinOp, ast.Add,
            ast.Sub, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor,
            ast.LShift, ast.RShift, ast.Compare, ast.Eq, ast.NotEq, ast.Lt,
            ast.LtE, ast.Gt, ast.GtE, ast.Constant)


class Preprocessor:
    """Just enough of the C preprocessor for the syscall headers of the
    generic table (6.1's asm-generic/unistd.h, arm64's unistd32.h):
    object-like and function-like macros, #if/#ifdef/#ifndef/#elif/#else/
    #endif with defined() and integer expressions. Each expansion of
    RECORD(nr, entry), which is never defined itself, is a table line."""

    RECORD = "__SYSCALL"

    def __init__(self):
        self.macros = {}       # name -> (parameters or None, body)
        self.records = []      # (file, line, [arguments])

    def run(self, text, rel, record):
        lines = strip_c(text).split("\n")
        stack = []             # (the enclosing group's activity, taken)
        active = True
        i = 0
        while i < len(lines):
            start = i
            line = lines[i]
            while line.endswith("\\") and i + 1 < len(lines):
                i += 1
                line = line[:-1] + " " + lines[i]
            i += 1
            where = "%s:%d" % (rel, start + 1)
            m = PP_DIRECTIVE_RE.match(line)
            if m:
                d, rest = m.group(1), m.group(2).strip()
                if d in ("if", "ifdef", "ifndef"):
                    cond = False
                    if active and d == "if":
                        cond = self.eval(rest, where)
                    elif active:
                        name = rest.split()[0] if rest else ""
                        cond = self.defined(name) == (d == "ifdef")
                    stack.append((active, cond))
                    active = active and cond
                elif d in ("elif", "else", "endif"):
                    if not stack:
                        die("%s: #%s without #if" % (where, d))
                    outer, taken = stack[-1]
                    if d == "endif":
                        stack.pop()
                        active = outer
                    else:
                        active = outer and not taken and (
                            d == "else" or self.eval(rest, where))
                        stack[-1] = (outer, taken or active)
                elif active and d == "define":
                    self.define(rest, where)
                elif active and d == "undef":
                    self.macros.pop(rest.split()[0] if rest else "", None)
                continue
            if not active:
                continue
            # A macro's use may go on over the next lines.
            while line.count("(") > line.count(")") and i < len(lines):
                line += " " + lines[i]
                i += 1
            if record:
                self.expand(line, rel, start + 1, 0)
        if stack:
            die("%s: #if without #endif" % rel)

    def defined(self, name):
        return name == self.RECORD or name in self.macros

    def define(self, rest, where):
        m = re.match(r"(\w+)(\(([^)]*)\))?\s*(.*)$", rest, re.S)
        if not m:
            die("%s: a #define the checker cannot read: %r" % (where, rest))
        if m.group(1) == self.RECORD:
            return
        params = None
        if m.group(2):
            params = [p.strip() for p in m.group(3).split(",") if p.strip()]
        self.macros[m.group(1)] = (params, m.group(4).strip())

    def expand(self, text, rel, line, depth):
        if depth > 16:
            die("%s:%d: macros nest too deep" % (rel, line))
        pos = 0
        while True:
            m = CALL_RE.search(text, pos)
            if not m:
                return
            name = m.group(1)
            args, end = split_args(text, m.end() - 1)
            if args is None:
                die("%s:%d: unbalanced parentheses after %s" %
                    (rel, line, name))
            pos = end
            if name == self.RECORD:
                self.records.append((rel, line, args))
            elif name in self.macros and self.macros[name][0] is not None:
                params, body = self.macros[name]
                if len(params) != len(args):
                    die("%s:%d: %s takes %d arguments, given %d" %
                        (rel, line, name, len(params), len(args)))
                sub = dict(zip(params, args))
                body = PP_IDENT_RE.sub(lambda w: sub.get(w.group(0),
                                                         w.group(0)), body)
                self.expand(body, rel, line, depth + 1)

    def eval(self, expr, where):
        expr = PP_DEFINED_RE.sub(
            lambda m: "1" if self.defined(m.group(1) or m.group(2)) else "0",
            expr)
        for _ in range(16):
            new = PP_IDENT_RE.sub(
                lambda w: "(%s)" % (self.macros[w.group(0)][1] or "0")
                if w.group(0) in self.macros and
                self.macros[w.group(0)][0] is None else w.group(0), expr)
            if new == expr:
                break
            expr = new
        expr = PP_IDENT_RE.sub("0", expr)      # as C does
        expr = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", expr)
        expr = expr.replace("&&", " and ").replace("||", " or ")
        expr = re.sub(r"!(?!=)", " not ", expr)
        try:
            node = ast.parse(expr.strip() or "0", mode="eval")
        except SyntaxError:
            node = None
        if node is None or not all(isinstance(n, PP_NODES)
                                   for n in ast.walk(node)):
            die("%s: an #if the checker cannot evaluate: %r" % (where, expr))
        return bool(eval(compile(node, where, "eval"), {"__builtins__": {}}))


def split_args(text, open_paren):
    """The comma-separated arguments of the parenthesis at @open_paren,
    and the position after the closing one; None if it does not close."""
    depth = 0
    args = []
    cur = open_paren + 1
    for i in range(open_paren, len(text)):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                args.append(text[cur:i].strip())
                return ([] if args == [""] else args), i + 1
        elif c == "," and depth == 1:
            args.append(text[cur:i].strip())
            cur = i + 1
    return None, len(text)


def read_unistd_h(tree, rel, select):
    """The table lines of a header of __SYSCALL(__NR_name, entry) lines, in
    read_table()'s form (abi "-", no compat entry, no noreturn): after
    @select's macros (NAME=VALUE, NAME, or a file of the tree whose
    #defines count). A __NR3264_x is named by the __NR_name defined as it;
    a bare number, which has no name, is left out."""
    pp = Preprocessor()
    for item in select.split(","):
        item = item.strip()
        if item in ("-", ""):
            continue
        if "/" in item:
            pp.run(tree.read(item), item, False)
        else:
            name, _, value = item.partition("=")
            pp.macros[name] = (None, value or "1")
    pp.run(tree.read(rel), rel, True)
    alias = {}
    for name, (params, body) in pp.macros.items():
        if params is None and name.startswith("__NR_"):
            alias.setdefault(body, []).append(name[len("__NR_"):])
    rows = []
    for frel, line, args in pp.records:
        if len(args) != 2:
            die("%s:%d: __SYSCALL() with %d arguments, not 2" %
                (frel, line, len(args)))
        nr, entry = args
        if nr.isdigit():
            continue
        if nr.startswith("__NR_"):
            name = nr[len("__NR_"):]
        elif len(alias.get(nr, [])) == 1:
            name = alias[nr][0]
        else:
            die("%s:%d: %s has %s __NR_ name" %
                (frel, line, nr, "no" if nr not in alias else "more than one"))
        rows.append((line, "-", name, entry, "", False))
    return rows


def read_lists(tree, arch, which, errors, per_line):
    """Each ABI's list of @which (blacklist, resolves): {abi: {name: line}}
    from the designated initializers of its array. @per_line: one entry a
    line, "form," (check-resolves.py); else the initializer's comma-
    separated pieces (check-blacklist.py)."""
    lists = {}
    for abi in arch.abis:
        if (which, abi) not in arch.lists:
            die("arches.tsv: %s ABI %s has no %s list" %
                (arch.name, abi, which))
        rel, array, form = arch.lists[(which, abi)]
        raw = tree.read(rel)
        m = re.search(r"%s\s*\[[^]]*\]\s*=\s*\{(.*?)\};" % re.escape(array),
                      raw, re.S)
        if not m:
            if per_line:
                errors.append("%s: no %s list of calls that resolve" %
                              (rel, abi))
            else:
                errors.append("blacklist: %s: no initializer of the %s "
                              "table" % (rel, abi))
                lists[abi] = {}
            continue
        first_line = raw.count("\n", 0, m.start(1)) + 1
        names = {}
        if per_line:
            entry_re = re.compile(r"^\s*%s,\s*$" % form_regex(form))
            for i, line in enumerate(m.group(1).split("\n")):
                s = line.strip()
                if not s or s.startswith("/*") or s.startswith("*"):
                    continue
                e = entry_re.match(line)
                if not e:
                    errors.append("%s:%d: not an entry of the form [__NR...] "
                                  "= true,: %s" % (rel, first_line + i, s))
                    continue
                names[e.group(1)] = first_line + i
            lists[abi] = names
            continue
        entry_re = re.compile(r"^%s$" % form_regex(form))
        body = strip_c(m.group(1))
        pos = 0
        for piece in body.split(","):
            start = pos + len(piece) - len(piece.lstrip())
            pos += len(piece) + 1
            entry = " ".join(piece.split())
            if not entry:
                continue
            lineno = first_line + body.count("\n", 0, start)
            em = entry_re.match(entry)
            if not em:
                errors.append("blacklist: %s:%d: %s entry %r is not of the "
                              "form %s" % (rel, lineno, abi, entry, form))
                continue
            names[em.group(1)] = lineno
        lists[abi] = names
    return lists


# ---------------------------------------------------------------- graph

class Graph:
    def __init__(self):
        self.name = []
        self.where = []        # "file:line"
        self.unit = []         # translation unit of a .c file, None: global
        self.calls = []
        self.tokens = []
        self.local = {}        # (unit, name) -> [node]
        self.glob = {}         # name -> [node]
        self.noreturn = set()  # global names
        self.noreturn_local = set()  # (unit, name)

    def add(self, name, where, unit, static, calls, tokens):
        n = len(self.name)
        self.name.append(name)
        self.where.append(where)
        self.unit.append(unit)
        self.calls.append(calls)
        self.tokens.append(tokens)
        if unit is not None:
            self.local.setdefault((unit, name), []).append(n)
        if not static:
            self.glob.setdefault(name, []).append(n)
        return n

    def is_noreturn(self, node, name):
        return name in self.noreturn or \
            (self.unit[node], name) in self.noreturn_local

    def resolve(self, node, name):
        u = self.unit[node]
        if u is not None:
            loc = self.local.get((u, name))
            if loc:
                return loc
        return self.glob.get(name, ())


def load_sources(tree, files, token_res, token_key, cache_path):
    """Parse each of @files, from the cache where it is still good.

    A cached parse is good for a file of the same size and modification
    time, or else of the same content: a fresh checkout of the same tree
    in another clone has new times but reuses every parse. The cache keeps
    the files of other runs too (another architecture's), so that the
    checks of every architecture share it.
    """
    cache = {}
    key = hashlib.sha256((PARSER_VERSION + "\0" + token_key).encode() +
                         open(__file__, "rb").read()).hexdigest()
    if cache_path and os.path.exists(cache_path):
        try:
            with open(cache_path, "rb") as f:
                stored = pickle.load(f)
            if stored.get("key") == key:
                cache = stored["files"]
        except Exception:
            cache = {}
    parsed = {}
    changed = False
    for rel in files:
        path = tree.path(rel)
        st = os.stat(path)
        stamp = (st.st_size, st.st_mtime_ns)
        overlaid = rel in tree.overlay_files
        hit = None if overlaid else cache.get(rel)
        if hit and hit[0] == stamp:
            parsed[rel] = hit[2]
            continue
        with open(path, "rb") as f:
            raw = f.read()
        digest = hashlib.sha1(raw).digest()
        if hit and hit[1] == digest:
            parsed[rel] = hit[2]
        else:
            # As Tree.read(): text with universal newlines.
            text = raw.decode("latin-1").replace("\r\n", "\n")
            parsed[rel] = parse_source(rel, text.replace("\r", "\n"),
                                       token_res)
        if not overlaid:
            cache[rel] = (stamp, digest, parsed[rel])
            changed = True
    if cache_path and changed:
        tmp = "%s.%d.tmp" % (cache_path, os.getpid())
        os.makedirs(os.path.dirname(os.path.abspath(cache_path)), exist_ok=True)
        with open(tmp, "wb") as f:
            pickle.dump({"key": key, "files": cache}, f, protocol=4)
        os.replace(tmp, cache_path)
    return parsed


def build_graph(parsed, crash):
    g = Graph()
    # A .c file that another one #includes is part of that one's unit.
    unit = {rel: rel for rel in parsed if rel.endswith(".c")}
    for rel, (_, includes, _) in sorted(parsed.items()):
        for inc in includes:
            target = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
            if target in unit:
                unit[target] = rel
    for rel in unit:
        seen = set()
        while unit[unit[rel]] != unit[rel] and unit[rel] not in seen:
            seen.add(unit[rel])
            unit[rel] = unit[unit[rel]]

    for rel, (defs, _, noret) in sorted(parsed.items()):
        u = unit.get(rel)
        for name, static in noret:
            if name in crash:
                continue
            if static:
                g.noreturn_local.add((u, name))
            else:
                g.noreturn.add(name)
        for name, line, static, is_macro, calls, toks in defs:
            g.add(name, "%s:%d" % (rel, line), u, static, calls, toks)
    return g


def derive(g, edges, max_depth):
    """Shortest distance (in calls) from each node to a sink, and the next
    step on that path: a node, ("token", i) or ("noreturn", name)."""
    INF = max_depth + 1
    n = len(g.name)
    dist = [INF] * n
    step = [None] * n
    # Reverse edges, resolved once.
    extra = {}
    for caller, callee, _ in edges:
        extra.setdefault(caller, []).append(callee)
    radj = [[] for _ in range(n)]
    for v in range(n):
        if g.tokens[v]:
            dist[v] = 0
            step[v] = ("token", g.tokens[v][0])
    for v in range(n):
        names = g.calls[v]
        ext = extra.get(g.name[v])
        for c in sorted(names):
            if g.is_noreturn(v, c):
                if dist[v] > 1:
                    dist[v] = 1
                    step[v] = ("noreturn", c)
                continue
            for w in g.resolve(v, c):
                radj[w].append(v)
        if ext:
            for c in ext:
                for w in g.glob.get(c, ()) or [x for (u, nm), xs in
                                               g.local.items() if nm == c
                                               for x in xs]:
                    radj[w].append(v)
    # Breadth first from the sinks, one call per level.
    level = {}
    for v in range(n):
        if dist[v] <= 1:
            level.setdefault(dist[v], []).append(v)
    for d in range(0, max_depth):
        for w in level.get(d, []):
            if dist[w] != d:
                continue
            for v in radj[w]:
                if dist[v] > d + 1:
                    dist[v] = d + 1
                    step[v] = w
                    level.setdefault(d + 1, []).append(v)
    return dist, step


def path_of(g, tokens, dist, step, v):
    parts = []
    while True:
        parts.append("%s (%s)" % (g.name[v], g.where[v]))
        s = step[v]
        if isinstance(s, tuple):
            if s[0] == "token":
                parts.append("[frame: %s]" % tokens[s[1]][0])
            else:
                parts.append("[no return: %s]" % s[1])
            return " -> ".join(parts)
        v = s


# ---------------------------------------------------------------- checks

def entry_points(tree, arch, base):
    """{abi: {name: [(kind, entry, where the table marks it noreturn)]}}
    for the ABIs indirect() dispatches."""
    out = {abi: {} for abi in arch.abis}
    for abi in arch.abis:
        fmt, rel, select = arch.table(abi, base)
        if fmt == "tbl":
            rows = read_table(tree, rel)
            want = set(select.split(","))
        else:
            rows = read_unistd_h(tree, rel, select)
            want = None
        for lineno, tabi, name, entry, compat, noret in rows:
            if (want is not None and tabi not in want) or not entry:
                continue
            nr = "%s:%d" % (rel, lineno) if noret else None
            for kind, column in arch.entries[abi]:
                e = compat or entry if column == "compat-or-entry" else entry
                out[abi].setdefault(name, []).append((kind, e, nr))
    return out


def built_files(tree, top, config):
    """The .c files that a Makefile under @top builds for @config:
    "obj-$(CONFIG_IA32_EMULATION) += sys_ia32.o signal_32.o"."""
    obj_re = re.compile(r"^obj-\$\(%s\)\s*[:+]?=(.*)$" % re.escape(config),
                        re.M)
    found = set()
    for d, dirs, files in os.walk(os.path.join(tree.root, top)):
        dirs.sort()
        if "Makefile" not in files:
            continue
        rel_d = os.path.relpath(d, tree.root)
        with open(os.path.join(d, "Makefile"), encoding="latin-1") as f:
            text = f.read().replace("\\\n", " ")
        for m in obj_re.finditer(text):
            for obj in m.group(1).split():
                if obj.endswith(".o"):
                    found.add(os.path.join(rel_d, obj[:-2] + ".c"))
    return found


def exclude_rules(tree, arch):
    """{kind: [(regex, mode, files built for the rule's config)]}."""
    rules = {}
    for kind, rows in arch.excludes.items():
        rules[kind] = [(rx, mode, built_files(tree, arch.dir, config)
                        if mode != "-" else set())
                       for rx, mode, config in rows]
    return rules


def entry_defs(g, arch, entry, kind, rules):
    """The definitions of an entry point that the kernel of @kind builds:
    not those in the files that arches.tsv excludes for it (x86: arch/x86
    files named *_32.c only on i386 and, for the compat entry points,
    those an arch/x86 Makefile builds for CONFIG_IA32_EMULATION; *_64.c
    only on x86-64)."""
    out = []
    for v in g.glob.get(arch.aliases.get((kind, entry), entry), ()):
        path = g.where[v].rsplit(":", 1)[0]
        if any(rx.search(path) and (mode == "-" or
                                    (mode == "if") == (path in files))
               for rx, mode, files in rules.get(kind, ())):
            continue
        out.append(v)
    return out


def cond_syscalls(tree):
    """The entry points that kernel/sys_ni.c makes sys_ni_syscall()."""
    cond = set()
    for m in COND_RE.finditer(strip_c(tree.read(SYS_NI_C))):
        cond.add(("compat_sys_" if m.group(1) else "sys_") + m.group(2))
    return cond


def common_args(ap, depth):
    ap.add_argument("--tree", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--base")
    ap.add_argument("--arches")
    ap.add_argument("--arch", action="append")
    ap.add_argument("--inputs", action="store_true")
    ap.add_argument("--overlay")
    ap.add_argument("--cache")
    ap.add_argument("--depth", type=int, default=depth)


def setup(args, what, default_arches):
    """The tree, the base and the architectures to check; with --inputs,
    prints those of the inputs and exits."""
    tree = Tree(args.tree, args.overlay)
    base = args.base
    if base and not BASE_RE.fullmatch(base):
        die("--base %r is not major.minor" % base)
    arches = load_arches(args.arches or default_arches)
    chosen = choose_arches(arches, args.arch, tree, what, args.inputs)
    if args.inputs:
        for a in chosen:
            for rel in a.inputs(base):
                print("%s\t%s" % (a.name, rel))
        sys.exit(0)
    return tree, base, arches, chosen


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    common_args(ap, 16)
    args = ap.parse_args()
    tree, base, arches, chosen = setup(
        args, "check-blacklist", os.path.join(args.data, "arches.tsv"))
    # The tokens serve every architecture: the parse is shared.
    tok_rows, tok_errors = read_data(args.data, base, "frame-tokens.tsv", 2,
                                     "frame token")
    tokens = [tuple(c) for _, c in tok_rows]
    token_res = [token_regex(t) for t, _ in tokens]
    files = {a.name: tree.sources(a) for a in chosen}
    parsed = load_sources(tree, sorted(set(f for a in chosen
                                           for f in files[a.name])),
                          token_res, "\n".join(t for t, _ in tokens),
                          args.cache)
    status = 0
    for a in chosen:
        if len(chosen) > 1:
            print("check-blacklist: arch %s (%s)" % (a.name,
                                                      ", ".join(a.abis)))
        status |= check_arch(args, tree, base, arches, a,
                             {rel: parsed[rel] for rel in files[a.name]},
                             tokens, list(tok_errors))
    return status


def check_arch(args, tree, base, arches, arch, parsed, tokens, errors):
    """Derive and check the architecture's ABIs; prints its part of the
    output and returns 0, or 1 if anything fails."""
    print("check-blacklist: %d source files parsed" % len(parsed))
    abis = arch.abis

    def data(name, fields, what, keys=1):
        rows, e = read_data(args.data, base, name, fields, what, keys,
                            arch.name)
        errors.extend(e)
        return rows
    crash_rows = data("noreturn-crash.tsv", 2, "no-return crash")
    edge_rows = data("edges.tsv", 3, "edge", 2)
    exc_rows = data("exceptions.tsv", 3, "exception", 2)
    reader_rows = data("reviewed-readers.tsv", 2, "reviewed reader")
    diag_rows = data("diagnostics.tsv", 2, "diagnostic")
    readers = [(w, c[0]) for w, c in reader_rows]
    diagnostics = [(w, c[0]) for w, c in diag_rows]
    crash = [c[0] for _, c in crash_rows]
    edges = [(w,) + tuple(c) for w, c in edge_rows]
    exceptions = {}
    known = all_abis(arches)
    for where, (name, abi, reason) in exc_rows:
        if abi not in known:
            errors.append("%s: ABI %r is not one of %s" %
                          (where, abi, ", ".join(known)))
            continue
        if abi in abis:
            exceptions[(name, abi)] = (where, reason)

    g = build_graph(parsed, crash)
    declared = set(n for p in parsed.values() for n, _ in p[2])
    for where, c in crash_rows:
        if c[0] not in declared:
            print("check-blacklist: report: %s names %s, which no source "
                  "declares __noreturn" % (where, c[0]))
    for where, caller, callee, _ in edges:
        for fn in (caller, callee):
            if fn not in g.glob and not any(nm == fn for (_, nm) in g.local):
                errors.append("%s: %s is defined nowhere in the sources" %
                              (where, fn))
    by_name = {}
    for v, name in enumerate(g.name):
        by_name.setdefault(name, []).append(v)
    for where, name in diagnostics:
        nodes = by_name.get(name, [])
        if not nodes:
            print("check-blacklist: report: %s names %s, which is defined "
                  "nowhere in the sources" % (where, name))
        for v in nodes:
            g.calls[v] = frozenset()
            g.tokens[v] = ()
    # A reader's use of the frame is its tokens and its calls of the
    # functions that the tokens name (current_pt_regs(), which a macro
    # defines over task_pt_regs(current), say).
    heads = set(m.group(0) for m in (re.match(r"\w+(?=\s*\()", t)
                                     for t, _ in tokens) if m)
    for where, name in readers:
        nodes = by_name.get(name, [])
        if not any(g.tokens[v] for v in nodes):
            print("check-blacklist: report: %s names %s, which holds no "
                  "frame token in the sources" % (where, name))
        for v in nodes:
            g.tokens[v] = ()
            g.calls[v] = g.calls[v] - heads
    print("check-blacklist: no-return functions (declared __noreturn, less "
          "noreturn-crash.tsv): %s" % " ".join(sorted(
              g.noreturn | set("%s (%s)" % (n, u)
                               for u, n in g.noreturn_local))))
    dist, step = derive(g, [e[1:] for e in edges], args.depth)
    cond = cond_syscalls(tree)

    entries = entry_points(tree, arch, base)
    rules = exclude_rules(tree, arch)
    blacklists = read_lists(tree, arch, "blacklist", errors, False)
    failures = []
    for abi in abis:
        table = entries[abi]
        bl = blacklists.get(abi, {})
        rel = arch.lists[("blacklist", abi)][0]
        for name, lineno in sorted(bl.items(), key=lambda x: x[1]):
            if name not in table:
                errors.append("blacklist: %s:%d: %s names %s, which is not "
                              "an %s syscall in the tables" %
                              (rel, lineno, abi, name, abi))
        derived = {}
        for name in sorted(table):
            paths = {}         # path -> the entry kinds that take it
            for kind, entry, noret in table[name]:
                if noret:
                    paths.setdefault("%s [no return: the table marks it "
                                     "noreturn, %s]" % (entry, noret),
                                     []).append(kind)
                defs = entry_defs(g, arch, entry, kind, rules)
                if not defs and entry in cond:
                    continue   # not built: sys_ni_syscall(), which returns
                if not defs:
                    errors.append("entries: %s %s: entry point %s (%s) has "
                                  "no definition in the sources" %
                                  (abi, name, entry, kind))
                    continue
                best = min(defs, key=lambda v: (dist[v], g.where[v]))
                if dist[best] <= args.depth:
                    p = path_of(g, tokens, dist, step, best)
                    paths.setdefault(p, []).append(kind)
            if paths:
                derived[name] = paths
        print("check-blacklist: %s: %d syscalls derived (%d blacklisted)" %
              (abi, len(derived), len(bl)))
        for name in sorted(derived):
            if name in bl:
                verdict = "blacklisted"
            elif (name, abi) in exceptions:
                verdict = "exception (%s): %s" % exceptions[(name, abi)]
            else:
                verdict = "MISSING"
            print("  %s %s: %s" % (abi, name, verdict))
            for p, kinds in derived[name].items():
                kind = ", ".join(kinds)
                print("      %s: %s" % (kind, p))
                if verdict == "MISSING":
                    failures.append("%s: %s (%s) must be refused, but the "
                                    "%s blacklist lacks it and no exception "
                                    "names it: %s" %
                                    (abi, name, kind, abi, p))
        for name in sorted(bl, key=lambda x: bl[x]):
            if name not in derived:
                print("check-blacklist: report: %s %s is blacklisted (%s:%d) "
                      "but not derived: it needs another reason" %
                      (abi, name, rel, bl[name]))
        for (name, eabi), (where, _) in sorted(exceptions.items()):
            if eabi != abi:
                continue
            if name in bl:
                print("check-blacklist: report: %s %s is an exception (%s) "
                      "and blacklisted as well" % (abi, name, where))
            elif name not in derived:
                print("check-blacklist: report: %s %s is an exception (%s) "
                      "but not derived: the exception is stale" %
                      (abi, name, where))

    for e in errors:
        print("check-blacklist: error: %s" % e)
    for f in failures:
        print("check-blacklist: FAIL: %s" % f)
    if errors or failures:
        print("check-blacklist: FAILED (%d errors, %d derived paths neither "
              "blacklisted nor excepted)" %
              (len(errors), len(failures)))
        return 1
    print("check-blacklist: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
