#!/usr/bin/env python3
"""check-blacklist.py - derive from the kernel tree which syscalls indirect()
must refuse, and check each ABI's blacklist against that.

Usage: scripts/check-blacklist.py --tree DIR --data DIR [--base X.Y]
           [--overlay DIR] [--cache FILE] [--depth N]

indirect() calls syscall nr on a pt_regs of its own, not on the user
register frame of the task. A syscall must be refused when its entry point
reads or rewrites that frame (current_pt_regs() and the helpers over it,
or code handed the frame, like start_thread() and copy_thread()), or when
it never returns (do_exit() and the other functions the tree declares
__noreturn). This script finds them:

  entries   from arch/x86/entry/syscalls/syscall_64.tbl (ABIs common and
            64; x32 does not reach indirect()) and syscall_32.tbl (the
            i386 entry point and the compat one, which is the i386 one
            when the table names none or "-"), each syscall's entry
            points. An entry the table marks "noreturn" (6.12 on) is
            derived as such, whatever the graph finds;
  graph     every C function and macro in arch/x86 and the generic
            directories (SOURCE_DIRS), by name: a definition line, "{" at
            column 0, "}" at column 0. A call (or the use of an upper-case
            macro) resolves to the definitions in the caller's translation
            unit if there are any (static scope), else to every global
            one, as a name-based graph over-approximates. Calls through
            function pointers are invisible to it; <data>/edges.tsv adds
            those that matter. The functions of <data>/diagnostics.tsv
            (reports: WARN, stack dumps) are not entered;
  sinks     a function whose body holds a token of <data>/frame-tokens.tsv
            (the frame), unless <data>/reviewed-readers.tsv names it (its
            read gives an inner call a direct call's answer), or a call to
            a function declared __noreturn in the sources, less the
            crashes of <data>/noreturn-crash.tsv;
  derived   an entry point that reaches a sink within --depth calls
            (default 16). Each one is printed with the shortest path that
            made it so, for a reviewer to judge. SYSCALL32_DEFINEn defines
            sys_name on i386 and compat_sys_name on x86-64, so both; an
            arch/x86 file named *_32.c counts for the compat entry points
            when an arch/x86 Makefile builds it for CONFIG_IA32_EMULATION.

Then, per ABI (x86-64; ia32, which is i386 native and ia32 compat), against
the blacklists in arch/x86/kernel/indirect.c (designated initializers of
indirect_x64_blocked[] and indirect_ia32_blocked[]) and the reviewed
exceptions of <data>/exceptions.tsv (name, ABI, reason):
  fail      a derived syscall that is neither blacklisted nor an exception;
            an entry point with no definition found in the sources; a
            blacklist entry that the ABI's table lacks; a malformed data
            line or blacklist entry;
  report    a blacklist entry that is not derived (it may have another
            reason: restart_syscall, indirect itself); an exception that
            is stale (not derived, or blacklisted as well).

--base X.Y: the tree's kernel version, major.minor. Each data file
<data>/NAME.tsv is read together with <data>/X.Y/NAME.tsv when that
exists: what only that base needs. A key (a function, an edge, a syscall
and ABI) may appear in one of the two only.
--overlay DIR: a file under DIR replaces (or adds to) the tree's file of
the same relative path; the checker's own tests change copies that way.
--cache FILE keeps what was parsed from each source file, keyed by its
size and modification time and else by its content, so that a second
run, or a first one on a fresh checkout of the same tree, takes seconds.
Exits 0 when nothing fails, 1 otherwise, 2 on bad usage.
"""

import argparse
import hashlib
import os
import pickle
import re
import sys

# The sources of the graph: x86 and the generic directories. No other
# architecture, and no drivers: a syscall reaches a driver only through a
# function pointer (file operations), which a name graph cannot follow.
SOURCE_DIRS = ["arch/x86", "kernel", "fs", "mm", "ipc", "net", "security",
               "block", "io_uring", "lib", "init", "include"]
# Parts of those that are not the x86 kernel proper: the boot loader and
# decompressor, host tools, the real-mode trampoline, kexec purgatory, and
# user-mode Linux (another architecture that borrows x86 files), the vDSO's
# host-side generator.
# Single files outside those that define a syscall: getrandom().
EXTRA_SOURCES = ["drivers/char/random.c"]
SKIP = ["arch/x86/boot", "arch/x86/tools", "arch/x86/realmode",
        "arch/x86/purgatory", "arch/x86/um", "arch/x86/entry/vdso/vdso2c.c",
        "include/dt-bindings", "lib/raid6/test"]

TBL64 = "arch/x86/entry/syscalls/syscall_64.tbl"
TBL32 = "arch/x86/entry/syscalls/syscall_32.tbl"
INDIRECT_C = "arch/x86/kernel/indirect.c"
# COND_SYSCALL(name): sys_name is sys_ni_syscall() where nothing defines it.
SYS_NI_C = "kernel/sys_ni.c"
COND_RE = re.compile(r"^COND_SYSCALL(_COMPAT)?\((\w+)\)", re.M)
# What the parser keeps per file depends on this and on the tokens.
PARSER_VERSION = "4"

ABIS = ("x86-64", "ia32")

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
    __counted_by __cleanup""".split())


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


def read_data(data, base, name, fields, what, keys=1):
    """A data file and its part for the base, <data>/<base>/<name>: the
    rows of both. The first @keys fields name what a row is about; a name
    given twice is an error, as one of the two would go unread."""
    rows, errors = read_tsv(os.path.join(data, name), name, fields, what)
    if base and os.path.exists(os.path.join(data, base, name)):
        more, e = read_tsv(os.path.join(data, base, name),
                           "%s/%s" % (base, name), fields, what)
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

    def sources(self):
        found = set()
        for top in SOURCE_DIRS:
            base = os.path.join(self.root, top)
            for d, dirs, files in os.walk(base):
                rel_d = os.path.relpath(d, self.root)
                dirs[:] = sorted(x for x in dirs
                                 if os.path.join(rel_d, x) not in SKIP)
                for f in files:
                    rel = os.path.join(rel_d, f)
                    if (f.endswith(".c") or f.endswith(".h")) and \
                            rel not in SKIP:
                        found.add(rel)
        for rel in EXTRA_SOURCES:
            if os.path.exists(self.path(rel)):
                found.add(rel)
        for rel in self.overlay_files:
            if (rel.endswith(".c") or rel.endswith(".h")) and any(
                    rel.startswith(t + "/") for t in SOURCE_DIRS) and not any(
                    rel.startswith(s + "/") or rel == s for s in SKIP):
                found.add(rel)
        arch = os.path.join(self.root, "arch/x86/include")
        if not os.path.isdir(arch):
            die("%s is not a kernel tree (no arch/x86/include)" % self.root)
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


BLOCKED_RE = {
    "x86-64": (re.compile(r"indirect_x64_blocked\s*\[[^]]*\]\s*=\s*\{(.*?)\};",
                          re.S),
               re.compile(r"^\[__NR_(\w+)\]\s*=\s*true$")),
    "ia32": (re.compile(r"indirect_ia32_blocked\s*\[[^]]*\]\s*=\s*\{(.*?)\};",
                        re.S),
             re.compile(r"^\[__NR_ia32\((\w+)\)\]\s*=\s*true$")),
}


def read_blacklists(tree, errors):
    """Each ABI's blacklist: {name: line} from indirect.c."""
    raw = tree.read(INDIRECT_C)
    lists = {}
    for abi, (block_re, entry_re) in BLOCKED_RE.items():
        m = block_re.search(raw)
        if not m:
            errors.append("blacklist: %s: no initializer of the %s table" %
                          (INDIRECT_C, abi))
            lists[abi] = {}
            continue
        body = strip_c(m.group(1))
        first_line = raw.count("\n", 0, m.start(1)) + 1
        names = {}
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
                              "form %s" % (INDIRECT_C, lineno, abi, entry,
                                           "[__NR_name] = true" if
                                           abi == "x86-64" else
                                           "[__NR_ia32(name)] = true"))
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


def load_sources(tree, token_res, token_key, cache_path, verbose):
    """Parse every source file, from the cache where it is still good.

    A cached parse is good for a file of the same size and modification
    time, or else of the same content: a fresh checkout of the same tree
    in another clone has new times but reuses every parse.
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
    fresh = {}
    changed = False
    for rel in tree.sources():
        path = tree.path(rel)
        st = os.stat(path)
        stamp = (st.st_size, st.st_mtime_ns)
        overlaid = rel in tree.overlay_files
        hit = None if overlaid else cache.get(rel)
        if hit and hit[0] == stamp:
            digest, parsed[rel] = hit[1], hit[2]
        else:
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
            changed = changed or not overlaid
        if not overlaid:
            fresh[rel] = (stamp, digest, parsed[rel])
    if cache_path and (changed or len(fresh) != len(cache)):
        tmp = "%s.%d.tmp" % (cache_path, os.getpid())
        os.makedirs(os.path.dirname(os.path.abspath(cache_path)), exist_ok=True)
        with open(tmp, "wb") as f:
            pickle.dump({"key": key, "files": fresh}, f, protocol=4)
        os.replace(tmp, cache_path)
    if verbose:
        print("check-blacklist: %d source files parsed" % len(parsed))
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

def entry_points(tree):
    """{abi: {name: [(kind, entry, where the table marks it noreturn)]}}
    for the ABIs indirect() dispatches."""
    out = {abi: {} for abi in ABIS}
    for lineno, abi, name, entry, compat, noret in read_table(tree, TBL64):
        nr = "%s:%d" % (TBL64, lineno) if noret else None
        if abi in ("common", "64") and entry:
            out["x86-64"].setdefault(name, []).append(("x86-64", entry, nr))
    for lineno, abi, name, entry, compat, noret in read_table(tree, TBL32):
        nr = "%s:%d" % (TBL32, lineno) if noret else None
        if abi == "i386" and entry:
            out["ia32"].setdefault(name, []).append(("i386", entry, nr))
            out["ia32"][name].append(("compat", compat or entry, nr))
    return out


# An object that a Makefile builds for the compat entry points:
# "obj-$(CONFIG_IA32_EMULATION) += sys_ia32.o signal_32.o".
IA32_OBJ_RE = re.compile(r"^obj-\$\(CONFIG_IA32_EMULATION\)\s*[:+]?=(.*)$",
                         re.M)


def compat_32_files(tree):
    """The arch/x86 files named *_32.c that an x86-64 kernel builds for
    its ia32 compat entry points (6.12: signal_32.c)."""
    found = set()
    for d, dirs, files in os.walk(os.path.join(tree.root, "arch/x86")):
        dirs.sort()
        if "Makefile" not in files:
            continue
        rel_d = os.path.relpath(d, tree.root)
        with open(os.path.join(d, "Makefile"), encoding="latin-1") as f:
            text = f.read().replace("\\\n", " ")
        for m in IA32_OBJ_RE.finditer(text):
            for obj in m.group(1).split():
                if obj.endswith("_32.o"):
                    found.add(os.path.join(rel_d, obj[:-2] + ".c"))
    return found


def entry_defs(g, entry, kind, compat_32):
    """The definitions of an entry point the kernel of @kind builds:
    arch/x86 files named *_32.c only on i386 and, for the compat entry
    points, those of @compat_32; *_64.c only on x86-64."""
    skip = "_64.c:" if kind == "i386" else "_32.c:"
    out = []
    for v in g.glob.get(entry, ()):
        where = g.where[v]
        if where.startswith("arch/x86/") and skip in where and not (
                kind == "compat" and where.split(":")[0] in compat_32):
            continue
        out.append(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--base")
    ap.add_argument("--overlay")
    ap.add_argument("--cache")
    ap.add_argument("--depth", type=int, default=16)
    args = ap.parse_args()
    tree = Tree(args.tree, args.overlay)
    errors = []

    base = args.base
    if base and not re.fullmatch(r"\d+\.\d+", base):
        die("--base %r is not major.minor" % base)
    tok_rows, e1 = read_data(args.data, base, "frame-tokens.tsv", 2,
                             "frame token")
    crash_rows, e2 = read_data(args.data, base, "noreturn-crash.tsv", 2,
                               "no-return crash")
    edge_rows, e3 = read_data(args.data, base, "edges.tsv", 3, "edge", 2)
    exc_rows, e4 = read_data(args.data, base, "exceptions.tsv", 3,
                             "exception", 2)
    reader_rows, e5 = read_data(args.data, base, "reviewed-readers.tsv", 2,
                                "reviewed reader")
    diag_rows, e6 = read_data(args.data, base, "diagnostics.tsv", 2,
                              "diagnostic")
    errors += e1 + e2 + e3 + e4 + e5 + e6
    readers = [(w, c[0]) for w, c in reader_rows]
    diagnostics = [(w, c[0]) for w, c in diag_rows]
    tokens = [tuple(c) for _, c in tok_rows]
    token_res = [token_regex(t) for t, _ in tokens]
    crash = [c[0] for _, c in crash_rows]
    edges = [(w,) + tuple(c) for w, c in edge_rows]
    exceptions = {}
    for where, (name, abi, reason) in exc_rows:
        if abi not in ABIS:
            errors.append("%s: ABI %r is not one of %s" %
                          (where, abi, ", ".join(ABIS)))
            continue
        exceptions[(name, abi)] = (where, reason)

    parsed = load_sources(tree, token_res, "\n".join(t for t, _ in tokens),
                          args.cache, True)
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
    for where, name in diagnostics:
        nodes = [v for v in range(len(g.name)) if g.name[v] == name]
        if not nodes:
            print("check-blacklist: report: %s names %s, which is defined "
                  "nowhere in the sources" % (where, name))
        for v in nodes:
            g.calls[v] = frozenset()
            g.tokens[v] = ()
    for where, name in readers:
        nodes = [v for v in range(len(g.name)) if g.name[v] == name]
        if not any(g.tokens[v] for v in nodes):
            print("check-blacklist: report: %s names %s, which holds no "
                  "frame token in the sources" % (where, name))
        for v in nodes:
            g.tokens[v] = ()
    print("check-blacklist: no-return functions (declared __noreturn, less "
          "noreturn-crash.tsv): %s" % " ".join(sorted(
              g.noreturn | set("%s (%s)" % (n, u)
                               for u, n in g.noreturn_local))))
    dist, step = derive(g, [e[1:] for e in edges], args.depth)
    cond = set()
    for m in COND_RE.finditer(strip_c(tree.read(SYS_NI_C))):
        cond.add(("compat_sys_" if m.group(1) else "sys_") + m.group(2))

    entries = entry_points(tree)
    compat_32 = compat_32_files(tree)
    blacklists = read_blacklists(tree, errors)
    failures = []
    for abi in ABIS:
        table = entries[abi]
        bl = blacklists.get(abi, {})
        for name, lineno in sorted(bl.items(), key=lambda x: x[1]):
            if name not in table:
                errors.append("blacklist: %s:%d: %s names %s, which is not "
                              "an %s syscall in the tables" %
                              (INDIRECT_C, lineno, abi, name, abi))
        derived = {}
        for name in sorted(table):
            paths = {}         # path -> the entry kinds that take it
            for kind, entry, noret in table[name]:
                if noret:
                    paths.setdefault("%s [no return: the table marks it "
                                     "noreturn, %s]" % (entry, noret),
                                     []).append(kind)
                defs = entry_defs(g, entry, kind, compat_32)
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
                      (abi, name, INDIRECT_C, bl[name]))
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
