#!/usr/bin/env python3
"""check_blacklist.py - flag, by name, the syscalls that may touch the
caller's register frame or never return, and check each ABI's blacklist
of indirect() against them and the reviewed data: a tripwire against a
reviewed baseline, not a derivation of what indirect() must refuse.

Usage: scripts/blacklist/check_blacklist.py --tree DIR --data DIR [--base X.Y]
           [--arches FILE] [--arch NAME]... [--inputs]
           [--overlay DIR] [--cache FILE] [--depth N]

indirect() calls syscall nr on a pt_regs of its own, not on the user
register frame of the task. A syscall must be refused when its entry point
reads or rewrites that frame (current_pt_regs(), task_pt_regs() and the
helpers over them, or code handed the frame, like start_thread() and
copy_thread()), or when it never returns (do_exit() and the other
functions the tree declares __noreturn). This script looks for such
syscalls, per architecture, with what <data>/arches.tsv says of it (its
ABIs, tables, lists and sources; x86: x86-64 and ia32, arm64: aarch64 and
aarch32).

What it is not. It reads the sources as text and finds calls by name: it
ignores the kernel configuration (every #if branch, every architecture's
variant of a generic file, every unwinder and sanitizer is in the graph),
follows no data (task_pt_regs(tsk) counts whatever tsk is, a pt_regs
pointer handed down is not followed), and cannot see through function
pointers (file operations, vm_ops, binfmt handlers) beyond the edges that
<data>/edges.tsv adds by hand. So it both over-flags, which the reviewed
data answers (reviewed-readers.tsv, diagnostics.tsv, noreturn-crash.tsv,
exceptions.tsv), and can miss a path that only a pointer or a
configuration shows. A pass means that nothing is flagged beyond what
was reviewed, and that nothing reviewed went stale: a tripwire for a new
kernel base, a new syscall or a changed list, not a proof that the
blacklists are complete.

  entries   from each ABI's syscall table (x86: syscall_64.tbl, ABIs
            common and 64, x32 does not reach indirect(); syscall_32.tbl,
            the i386 entry point and the compat one, which is the i386 one
            when the table names none or "-"), each syscall's entry
            points. An entry the table marks "noreturn" (6.12 on) is
            flagged as such, whatever the graph finds;
  graph     every C function and macro in the architecture's directory
            and the generic ones (arches.tsv: source), by name: a
            definition line, "{" at column 0, "}" at column 0. A call (or
            the use of an upper-case macro) resolves to the definitions in
            the caller's translation unit if there are any (static scope;
            a .c file that another #includes is part of its unit), else to
            every global one, and to both where the unit's own are __weak,
            as a name-based graph over-approximates. A call through a
            member (ops->fn()) is a call of no function: <data>/edges.tsv
            adds those that matter. The functions of
            <data>/diagnostics.tsv (reports: WARN, stack dumps) are not
            entered;
  sinks     a function that calls a token of <data>/frame-tokens.tsv (a
            function or macro of the frame, whatever its arguments),
            unless <data>/reviewed-readers.tsv names it with the reason
            its use is safe for an inner call, or that calls a function
            declared __noreturn in the sources, less the crashes of
            <data>/noreturn-crash.tsv;
  flagged   an entry point that reaches a sink within --depth calls
            (default 16). Each one is printed with the shortest path that
            made it so, for a reviewer to judge. SYSCALL32_DEFINEn defines
            sys_name on i386 and compat_sys_name on x86-64, so both; a
            definition in a file that arches.tsv excludes for a kind of
            kernel does not count for it (x86: an arch/x86 file named
            *_32.c counts for the compat entry points only when an arch/x86
            Makefile builds it for CONFIG_IA32_EMULATION; arm64: the files
            built for CONFIG_COMPAT count for AArch32 only).
The output calls a flagged syscall "derived", as it always has.

Then, per ABI, against the blacklists in the tree (arches.tsv: list
blacklist; x86: the designated initializers of indirect_x64_blocked[] and
indirect_ia32_blocked[] in arch/x86/kernel/indirect.c) and the reviewed
data (name, ABI, reason) of <data>/exceptions.tsv (flagged, but allowed)
and <data>/other-reasons.tsv (refused for a reason the graph cannot see):
  fail      a flagged syscall that is neither blacklisted nor an
            exception; a blacklisted one that is not flagged and that
            other-reasons.tsv does not name, or an exception that is not
            flagged (either may be a path that the graph lost: an edge of
            edges.tsv dropped, a reader reviewed too widely); a syscall of
            other-reasons.tsv that the blacklist lacks; an entry point
            with no definition found in the sources; a blacklist entry
            that the ABI's table lacks; a malformed data line or blacklist
            entry;
  report    an exception that is blacklisted as well; an edge whose callee
            reaches no sink (it adds nothing); a data line that names a
            function the sources lack.

--base X.Y: the tree's kernel version, major.minor; it chooses the tables
where they differ (arm64). Each data file <data>/NAME.tsv is read together
with <data>/X.Y/NAME.tsv, <data>/ARCH/NAME.tsv and <data>/ARCH/X.Y/NAME.tsv
where those exist: what only that base, architecture, or both need. A key
(a function, an edge, a syscall and ABI) may appear in one of them only.
The tokens (frame-tokens.tsv) are every architecture's: no ARCH/ part;
each is a call, NAME( or NAME(), as the graph keeps calls by name.
--arches FILE: the architectures' description (default
<data>/arches.tsv). --arch NAME: check that architecture (repeatable;
default: every one that the tree's series supports, arches.tsv: series).
With more than one, each one's output starts with a line naming it.
--inputs: print, for each of those that the series supports, "ARCH<TAB>
FILE" for each file of the tree that the checks read as input (tables,
lists), and check nothing; check-blacklist.sh copies them.
--overlay DIR: a file under DIR replaces (or adds to) the tree's file of
the same relative path; the checker's own tests change copies that way.
The overlay's files are parsed on every run, never cached.
--cache FILE keeps the index of the sources (Index): every definition
and, per name, who defines and who calls it, which a run loads in a
tenth of a second and reads only around the sinks. It is good for a
file of the same size and modification time, or else of the same content
(a fresh checkout of the same tree in another clone); FILE.parses keeps
each file's parse, so that a changed file is the only one parsed again.
One index serves every architecture and check_resolves.py as well.
Without it, or for a new tree, the sources are parsed: some 15 s of CPU.
Exits 0 when nothing fails, 1 otherwise, 2 on bad usage or bad input.
"""

import argparse
import array
import ast
import bisect
import hashlib
import marshal
import os
import re
import sys

# COND_SYSCALL(name): sys_name is sys_ni_syscall() where nothing defines it.
SYS_NI_C = "kernel/sys_ni.c"
COND_RE = re.compile(r"^COND_SYSCALL(_COMPAT)?\((\w+)\)", re.M)
# Comments and string or character literals, removed before parsing. A
# comment keeps its newlines, so that line numbers stay right.
STRIP_RE = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|"
                      r"'(?:\\.|[^'\\\n])*'", re.S)
CALL_RE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
# A call, name(, in group 1; a call through a member, ops->fn( or
# ops.fn(, is a call through a pointer, not of a function of that name:
# it matches with group 1 empty. The possessive quantifiers keep the
# engine from trying every shorter prefix of a word that no "(" follows,
# which made this scan most of the parse's time.
CALL_OR_MEMBER_RE = re.compile(r"(?:->|\.)\s*+[A-Za-z_]\w*+\s*+\(|"
                               r"\b([A-Za-z_]\w*+)\s*+\(")
# A use of an object-like macro (upper case by convention) that is not a
# call: COMPAT_USE_64BIT_TIME reads the frame without parentheses. A
# whole word of capitals, digits and "_"; MACRO_NAME_RE then keeps those
# with a capital after the first character, as in one backtracking
# expression before, at a third of its cost.
MACRO_USE_RE = re.compile(r"(?<![\w.>])([A-Z_][A-Z0-9_]*+)(?!\w|\s*\()")
MACRO_NAME_RE = re.compile(r".[A-Z0-9_]*[A-Z]")
# The lines the parser looks at one by one: "#" or "{" at column 0.
EVENT_RE = re.compile(r"^[#{]", re.M)
# A directive and its continuation lines, from its "#".
DIRECTIVE_LINES_RE = re.compile(r"(?:[^\n]*\\\n)*[^\n]*")
# "#define a b": a( calls b(.
ALIAS_RE = re.compile(r"\s*[A-Za-z_]\w*\s*")
# A token of frame-tokens.tsv or name-tokens.tsv: a call, NAME( or NAME(),
# or a bare NAME.
CALL_TOKEN_RE = re.compile(r"([A-Za-z_]\w*)(?:\s*\(\s*\)?)?")
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
WEAK_RE = re.compile(r"\b__weak\b|__attribute__\s*\(\(\s*(?:__)?weak\b")
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
#
# The cached parses and the index depend on the code from the imports to
# the "data" section below, and on nothing else: index_key() hashes it, so
# that a change of the parser makes every cache stale and nothing else
# does (a change of the checks or the data reuses the index).

def strip_c(text):
    def repl(m):
        s = m.group(0)
        if s[0] != "/":
            return '""'
        if "\n" not in s:
            return " "
        # Keep the newlines, and the continuations of a macro's lines.
        lines = s.split("\n")
        return " " + "".join("\\\n" if l.endswith("\\") else "\n"
                             for l in lines[:-1])
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
    if "noreturn" not in text:
        return names           # the common case, and a whole file's scan
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


def calls_of(text, start, end):
    """The names that text[start:end] calls, and the object-like macros
    (upper case) it uses: a set."""
    calls = set(CALL_OR_MEMBER_RE.findall(text, start, end))
    calls.discard("")          # the calls through a member
    calls -= NOT_CALLS
    calls.update(w for w in MACRO_USE_RE.findall(text, start, end)
                 if MACRO_NAME_RE.match(w))
    return calls


def parse_source(rel, raw):
    """Parse one file: (definitions, included .c files, __noreturn names).

    A definition is (name, line, flags, calls): flags of STATIC (a
    function of a .c file declared static, a macro of a .c file), MACRO
    and WEAK (declared __weak: another file may define it too), and the
    names its body calls, or, for a macro, its replacement. A definition is a
    "#define" line (with its continuations), or a body from a "{" at
    column 0 to the next "}" at column 0 under a header: the lines above
    the "{" up to a blank one, a directive other than a conditional, or
    one that ends a statement or a block. Only the lines that start with
    "#" or "{" are looked at one by one; the regular expressions scan the
    rest.
    """
    text = strip_c(raw)
    is_header = rel.endswith(".h")
    defs = []
    find = text.find
    rfind = text.rfind
    pos = 0                    # the start of what is not consumed yet
    line = 1                   # the line number at offset "counted"
    counted = 0
    for m in EVENT_RE.finditer(text):
        s = m.start()
        if s < pos:
            continue           # inside a body or a macro already read
        line += text.count("\n", counted, s)
        counted = s
        if text[s] == "#":
            dm = DIRECTIVE_LINES_RE.match(text, s)
            pos = dm.end() + 1
            md = DEFINE_RE.match(dm.group(0).replace("\\\n", " "))
            if not md:
                continue
            name, paren, rest = md.group(1), md.group(2), md.group(3)
            if paren:
                close = rest.find(")")
                body = rest[close + 1:] if close >= 0 else ""
            else:
                body = rest
            calls = calls_of(body, 0, len(body))
            if not paren and ALIAS_RE.fullmatch(body):
                calls.add(body.strip())   # #define a b: a( calls b(
            if calls:
                defs.append((name, line, MACRO | (0 if is_header else STATIC),
                             frozenset(calls)))
            continue
        # "{" at column 0: read its header upwards, line by line.
        hdr = []
        end = s - 1            # the newline that ends the line above
        first = line           # the header's first line
        while end >= 0:
            start = rfind("\n", 0, end) + 1
            ltxt = text[start:end]
            st = ltxt.strip()
            if COND_DIRECTIVE_RE.match(st):
                end = start - 1
                first -= 1
                continue
            if (not st or ltxt.startswith("#") or st.endswith(";") or
                    st.endswith("}") or st.endswith("{")):
                break
            hdr.append(ltxt)
            end = start - 1
            first -= 1
        # The body: up to the next line that starts with "}".
        k = find("\n}", s)
        if k < 0:
            k = pos = len(text)
        else:
            nl = find("\n", k + 1)
            pos = len(text) if nl < 0 else nl + 1
        if not hdr:
            continue
        hdr.reverse()
        htext = " ".join(hdr)
        names = header_names(htext)
        if not names:
            continue
        flags = 0
        if (not is_header and re.search(r"\bstatic\b", htext) and
                not SYSCALL_MACRO_RE.match(CALL_RE.search(htext).group(1))):
            flags |= STATIC
        if WEAK_RE.search(htext):
            flags |= WEAK
        calls = frozenset(calls_of(text, s, k))
        for name in names:
            defs.append((name, first, flags, calls))
    # From the text before strip_c(), which empties the string literals,
    # "idle.c" of kernel/sched/build_policy.c's #include among them.
    includes = INCLUDE_C_RE.findall(raw) if not is_header else []
    nr = noreturn_names(text)
    if is_header:
        nr = set((name, False) for name, _ in nr)
    return defs, includes, nr


def read_source(path):
    """A source file's bytes, and its text with universal newlines."""
    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("latin-1")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return raw, text


class Index:
    """The definitions of the sources and their calls, by name, in the
    shape the derivation reads: per definition (a node, numbered in the
    order of the files' paths, then of the definitions in a file) its
    name, file, line and flags; per name, the nodes that define it and
    the nodes that call it, as slices of two flat arrays of node numbers.
    Per file: its size, modification time and SHA-1 (whether the index is
    still good), the .c files it #includes and the names it declares
    __noreturn.

    Everything is a list of strings or an array of ints: marshal loads it
    in a tenth of a second, where the parses of the files that it is
    built from (load_index()) take a second, and parsing them fifteen.
    """

    FIELDS = ("key", "files", "stamps", "digests", "includes", "noreturn",
              "names", "node_name", "node_file", "node_line", "node_flags",
              "defs_start", "defs", "callers_start", "callers")
    ARRAYS = ("node_name", "node_file", "node_line", "defs_start", "defs",
              "callers_start", "callers")

    def __init__(self, key):
        self.key = key
        self.files = []            # paths, sorted
        self.stamps = []           # (size, mtime_ns) per file
        self.digests = []          # SHA-1 per file
        self.includes = {}         # file -> [the .c files it includes]
        self.noreturn = {}         # file -> [(name, is_static)]
        self.names = []            # every name defined or called, sorted
        self.node_name = array.array("i")  # per node, into names
        self.node_file = array.array("i")
        self.node_line = array.array("i")
        self.node_flags = bytearray()      # STATIC, MACRO, WEAK
        # The nodes that define names[i]: defs[defs_start[i]:
        # defs_start[i + 1]], in order; those that call it, likewise.
        self.defs_start = array.array("i")
        self.defs = array.array("i")
        self.callers_start = array.array("i")
        self.callers = array.array("i")

    @classmethod
    def build(cls, key, files, stamps, digests, parses):
        ix = cls(key)
        ix.files, ix.stamps, ix.digests = files, stamps, digests
        names = set()
        for rel in files:
            for name, _, _, calls in parses[rel][0]:
                names.add(name)
                names.update(calls)
        # Sorted, for a lookup by bisection: a dict of them would take
        # longer to build on each load than the rest of the load.
        ix.names = sorted(names)
        nid = {n: i for i, n in enumerate(ix.names)}.__getitem__
        defs = [[] for _ in ix.names]
        callers = [[] for _ in ix.names]
        for f, rel in enumerate(files):
            pdefs, includes, nr = parses[rel]
            if includes:
                ix.includes[f] = list(includes)
            if nr:
                ix.noreturn[f] = sorted(nr)
            for name, line, flags, calls in pdefs:
                v = len(ix.node_line)
                i = nid(name)
                ix.node_name.append(i)
                ix.node_file.append(f)
                ix.node_line.append(line)
                ix.node_flags.append(flags)
                defs[i].append(v)
                for c in calls:
                    callers[nid(c)].append(v)
        for lists, start, flat in ((defs, ix.defs_start, ix.defs),
                                   (callers, ix.callers_start, ix.callers)):
            for vs in lists:
                start.append(len(flat))
                flat.extend(vs)
            start.append(len(flat))
        return ix

    def dump(self, path):
        blob = {f: getattr(self, f) for f in self.FIELDS}
        for f in self.ARRAYS:
            blob[f] = blob[f].tobytes()
        blob["node_flags"] = bytes(self.node_flags)
        write_atomically(path, marshal.dumps(blob))

    @classmethod
    def load(cls, path, key):
        """The index in @path, or None if there is none of @key."""
        try:
            with open(path, "rb") as f:
                # One read: marshal.load() reads a file object piecemeal.
                blob = marshal.loads(f.read())
            if not isinstance(blob, dict) or blob.get("key") != key:
                return None
            ix = cls(key)
            for f in cls.FIELDS:
                setattr(ix, f, blob[f])
        except (OSError, EOFError, ValueError, TypeError, KeyError):
            return None
        for f in cls.ARRAYS:
            a = array.array("i")
            a.frombytes(getattr(ix, f))
            setattr(ix, f, a)
        ix.node_flags = bytearray(ix.node_flags)
        return ix

    def name_id(self, name):
        i = bisect.bisect_left(self.names, name)
        return i if i < len(self.names) and self.names[i] == name else None

    def defined_by(self, name):
        """The nodes that define @name."""
        i = self.name_id(name)
        if i is None:
            return ()
        return self.defs[self.defs_start[i]:self.defs_start[i + 1]]

    def called_by(self, name):
        """The nodes that call @name."""
        i = self.name_id(name)
        if i is None:
            return ()
        return self.callers[self.callers_start[i]:self.callers_start[i + 1]]


# The flags of a definition.
STATIC = 1
MACRO = 2
WEAK = 4


def write_atomically(path, data):
    """Write @data to @path through a file of its own: another clone's run
    may read or write the same cache at the same time."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def index_key():
    """What the cached parses and index depend on: the parser's code (see
    the top of this section)."""
    with open(__file__, encoding="utf-8") as f:
        src = f.read()
    start = src.index("\nimport ")
    end = src.index("\n# " + "-" * 64 + " data")
    return hashlib.sha256(src[start:end].encode()).hexdigest()


def load_index(tree, files, cache_path):
    """The index of @files (paths in the tree, not the overlay), from
    @cache_path where it is still good for them.

    The index there is good for a file of the same size and modification
    time, or else of the same content (a fresh checkout of the same tree
    in another clone has new times); it may hold more files than asked
    for (another architecture's), which the views leave out. Otherwise
    the files that changed are parsed again, with the parses of the others
    from @cache_path.parses (per file, by content), and the index is built
    again and stored, for the files asked for and those it held that are
    still in the tree.
    """
    key = index_key()
    stamps = {}
    for rel in files:
        st = os.stat(tree.root_path(rel))
        stamps[rel] = (st.st_size, st.st_mtime_ns)
    ix = Index.load(cache_path, key) if cache_path else None
    if ix is not None:
        fid = {rel: f for f, rel in enumerate(ix.files)}
        stale = [rel for rel in files if rel not in fid or
                 tuple(ix.stamps[fid[rel]]) != stamps[rel]]
        retimed = False
        for rel in list(stale):
            if rel in fid and ix.stamps[fid[rel]][0] == stamps[rel][0]:
                raw, _ = read_source(tree.root_path(rel))
                if hashlib.sha1(raw).digest() == ix.digests[fid[rel]]:
                    ix.stamps[fid[rel]] = stamps[rel]
                    stale.remove(rel)
                    retimed = True
        if not stale:
            if retimed:
                ix.dump(cache_path)
            return ix
        # Keep what the index held of the tree besides: another
        # architecture's files.
        for rel in ix.files:
            if rel not in stamps:
                try:
                    st = os.stat(tree.root_path(rel))
                except OSError:
                    continue
                stamps[rel] = (st.st_size, st.st_mtime_ns)
    parses = {}
    if cache_path:
        try:
            with open(cache_path + ".parses", "rb") as f:
                stored = marshal.loads(f.read())
            if isinstance(stored, dict) and stored.get("key") == key:
                parses = stored["files"]
        except (OSError, EOFError, ValueError, TypeError, KeyError):
            parses = {}
    order = sorted(stamps)
    digests = []
    changed = False
    for rel in order:
        hit = parses.get(rel)
        if hit and tuple(hit[0]) == stamps[rel]:
            digests.append(hit[1])
            continue
        raw, text = read_source(tree.root_path(rel))
        digest = hashlib.sha1(raw).digest()
        digests.append(digest)
        if not hit or hit[1] != digest:
            hit = (None, digest, parse_source(rel, text))
        parses[rel] = (stamps[rel], digest, hit[2])
        changed = True
    ix = Index.build(key, order, [stamps[rel] for rel in order], digests,
                     {rel: parses[rel][2] for rel in order})
    if cache_path:
        if changed or len(parses) != len(order):
            # Only the files of the index: those gone from the tree go.
            keep = {rel: parses[rel] for rel in order}
            write_atomically(cache_path + ".parses",
                             marshal.dumps({"key": key, "files": keep}))
        ix.dump(cache_path)
    return ix


# ---------------------------------------------------------------- data

def data_lines(path, label):
    """The lines of a data file, tab-separated, less '#' comments and
    blank lines: ("label:line", fields, line) each."""
    try:
        f = open(path)
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    with f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            yield ("%s:%d" % (label, lineno),
                   [c.strip() for c in re.split(r"\t+", line)], line)


def read_tsv(path, label, fields, what):
    """The rows of a data file, ("label:line", fields), each with @fields
    fields; the lines that have not, as errors."""
    rows = []
    errors = []
    for where, cols, line in data_lines(path, label):
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
    label = os.path.basename(path)
    for where, cols, line in data_lines(path, label):
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
        self._scans = {}
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

    def root_path(self, rel):
        """The tree's own file, whatever the overlay holds."""
        return os.path.join(self.root, rel)

    def read(self, rel):
        with open(self.path(rel), encoding="latin-1") as f:
            return f.read()

    def scan(self, top, skips):
        """The .c and .h files under @top, less those and the folders that
        @skips names; symbolic links to folders are not followed. Each
        architecture's scan of the generic folders is the same one: it is
        done once."""
        skips = frozenset(s for s in skips if s.startswith(top + "/"))
        if (top, skips) in self._scans:
            return self._scans[(top, skips)]
        found = []
        todo = [top]
        while todo:
            d = todo.pop()
            try:
                it = os.scandir(os.path.join(self.root, d))
            except OSError:
                continue
            with it:
                for e in it:
                    rel = d + "/" + e.name
                    if rel in skips:
                        continue
                    if e.is_dir():
                        if not e.is_symlink():
                            todo.append(rel)
                    elif e.name.endswith((".c", ".h")):
                        found.append(rel)
        self._scans[(top, skips)] = found
        return found

    def sources(self, arch):
        """The source files of the architecture's graph."""
        found = set()
        for top in arch.sources:
            found.update(self.scan(top, arch.skips))
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
    line, "form," (check_resolves.py); else the initializer's comma-
    separated pieces (check_blacklist.py)."""
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

class View:
    """The call graph of one architecture: the nodes of the index in its
    source files, those of the tree's files that the overlay replaces left
    out, and the definitions of the overlay's files (parsed on each run,
    never cached) after them, numbered from the index's count on.

    A call resolves by name: to the definitions in the caller's
    translation unit if there are any (static scope), else to every
    global one; and to both where the unit's are all __weak (the default
    of kernel/sys.c's arch_prctl_spec_ctrl_set(), which arm64's
    proton-pack.c overrides). A node's unit is its .c file, or the .c
    file that #includes it; a header's nodes have none.
    """

    def __init__(self, ix, files, overlay):
        """@files: the architecture's sources; @overlay: {path: parse} of
        those of them that the overlay holds."""
        self.ix = ix
        n = len(ix.files)
        self.base = len(ix.node_line)
        fid = {rel: f for f, rel in enumerate(ix.files)}
        self.live = bytearray(n)
        for rel in files:
            if rel not in overlay:
                self.live[fid[rel]] = 1
        # The overlay's nodes: their files get numbers after the index's.
        self.files = list(ix.files)
        self.extra_name = []
        self.extra_file = []
        self.extra_line = []
        self.extra_flags = []
        self.extra_defs = {}
        self.extra_callers = {}
        includes = {f: inc for f, inc in ix.includes.items() if self.live[f]}
        self.noreturn_decls = {f: nr for f, nr in ix.noreturn.items()
                               if self.live[f]}
        for rel in sorted(overlay):
            defs, inc, nr = overlay[rel]
            f = len(self.files)
            self.files.append(rel)
            self.live.append(1)
            if inc:
                includes[f] = inc
            if nr:
                self.noreturn_decls[f] = sorted(nr)
            for name, line, flags, calls in defs:
                v = self.base + len(self.extra_line)
                self.extra_name.append(name)
                self.extra_file.append(f)
                self.extra_line.append(line)
                self.extra_flags.append(flags)
                self.extra_defs.setdefault(name, []).append(v)
                for c in calls:
                    self.extra_callers.setdefault(c, []).append(v)
        self.nfiles = sum(self.live)
        # A .c file that another one #includes is part of that one's unit.
        live_rel = {self.files[f]: f for f in range(len(self.files))
                    if self.live[f]}
        unit = {rel: rel for rel in live_rel if rel.endswith(".c")}
        for rel in sorted(live_rel):
            for inc in includes.get(live_rel[rel], ()):
                target = os.path.normpath(os.path.join(os.path.dirname(rel),
                                                       inc))
                if target in unit:
                    unit[target] = rel
        for rel in unit:
            seen = set()
            while unit[unit[rel]] != unit[rel] and unit[rel] not in seen:
                seen.add(unit[rel])
                unit[rel] = unit[unit[rel]]
        self.unit_of_file = {live_rel[rel]: u for rel, u in unit.items()}
        self.unit_by_file = [self.unit_of_file.get(f)
                             for f in range(len(self.files))]
        self._defs = {}
        self._callers = {}

    # Per node.
    def file(self, v):
        if v < self.base:
            return self.ix.node_file[v]
        return self.extra_file[v - self.base]

    def name(self, v):
        if v < self.base:
            return self.ix.names[self.ix.node_name[v]]
        return self.extra_name[v - self.base]

    def where(self, v):
        line = (self.ix.node_line[v] if v < self.base
                else self.extra_line[v - self.base])
        return "%s:%d" % (self.files[self.file(v)], line)

    def flags(self, v):
        return (self.ix.node_flags[v] if v < self.base
                else self.extra_flags[v - self.base])

    def static(self, v):
        return bool(self.flags(v) & STATIC)

    def weak(self, v):
        return bool(self.flags(v) & WEAK)

    def unit(self, v):
        if v < self.base:
            return self.unit_by_file[self.ix.node_file[v]]
        return self.unit_by_file[self.extra_file[v - self.base]]

    def order(self, v):
        """The order of the nodes: by path, then in the file, the index's
        numbering. The derivation breaks ties by it, so that a printed path
        does not depend on which files the overlay holds: an overlay's
        file sorts under the path of the index's file it replaces, which
        is never live beside it."""
        return (self.files[self.file(v)], v)

    # Per name.
    def _lookup(self, cache, base, extra, name):
        nodes = cache.get(name)
        if nodes is None:
            live, file = self.live, self.ix.node_file
            nodes = [v for v in base(name) if live[file[v]]]
            more = extra.get(name)
            if more:
                nodes = sorted(nodes + more, key=self.order)
            cache[name] = nodes
        return nodes

    def defs(self, name):
        """The nodes that define @name."""
        return self._lookup(self._defs, self.ix.defined_by, self.extra_defs,
                            name)

    def glob(self, name):
        """The global (not static) ones."""
        return [v for v in self.defs(name) if not self.static(v)]

    def callers(self, name):
        """The nodes whose body or replacement calls @name."""
        return self._lookup(self._callers, self.ix.called_by,
                            self.extra_callers, name)

    def noreturn(self, crash):
        """The names the sources declare __noreturn, less @crash: (the
        global ones, {(unit, name)} of the static ones)."""
        glob, local = set(), set()
        for f, decls in self.noreturn_decls.items():
            for name, static in decls:
                if name in crash:
                    continue
                if static:
                    local.add((self.unit_of_file.get(f), name))
                else:
                    glob.add(name)
        return glob, local

    def declared(self):
        """Every name the sources declare __noreturn."""
        return set(name for decls in self.noreturn_decls.values()
                   for name, _ in decls)


def derive(view, heads, edges, max_depth, crash=None, diagnostics=(),
           readers=()):
    """Shortest distance (in calls) from each node that reaches a sink
    within @max_depth calls, and the next step on that path: a node,
    ("token", i) or ("noreturn", name). The sinks: a node that calls
    heads[i] (frame-tokens.tsv, name-tokens.tsv), and, unless @crash is
    None, one that calls a function declared __noreturn that @crash does
    not name. The nodes of the functions @diagnostics names call nothing;
    those of @readers do not call the heads. @edges: (caller, callee)
    names, calls that the names do not show.

    Breadth first from the sinks over the callers, which the index keeps
    per name: only the part of the graph within @max_depth calls of a sink
    is read (some 2,700 nodes of 400,000 on the real trees), where the
    checker once built the reverse edges of every node on every run. Ties
    go to the node first in View.order(), which gives the paths that the
    graph of every node gave.
    """
    INF = max_depth + 1
    diag = set(v for name in diagnostics for v in view.defs(name))
    reader = set(v for name in readers for v in view.defs(name))
    head_set = set(heads)

    def callers_of(c):
        skip = diag | reader if c in head_set else diag
        return [v for v in view.callers(c) if v not in skip]

    if crash is None:
        nr_glob, nr_local = set(), set()
    else:
        nr_glob, nr_local = view.noreturn(crash)
    nr_local_names = set(n for _, n in nr_local)

    def is_noreturn(v, c):
        return c in nr_glob or (view.unit(v), c) in nr_local

    dist = {}
    step = {}
    for i, h in enumerate(heads):
        if h is None:
            continue           # not a call: call_heads() said so
        for v in callers_of(h):
            if v not in dist:
                dist[v] = 0
                step[v] = ("token", i)
    for c in sorted(nr_glob | nr_local_names):
        for v in callers_of(c):
            if dist.get(v, INF) > 1 and is_noreturn(v, c):
                dist[v] = 1
                step[v] = ("noreturn", c)
    # The callers of a callee by an edge: every node named as the caller.
    by_callee = {}
    for caller, callee in edges:
        by_callee.setdefault(callee, []).append(caller)

    unit = view.unit
    resolved = {}

    def resolve(c):
        """{definition of @c: the nodes whose calls of @c resolve to it},
        each in View.order(): once per name, for all its definitions."""
        targets = view.defs(c)
        res = {x: [] for x in targets}
        glob = [x for x in targets if not view.static(x)]
        in_unit = {}
        for x in targets:
            if unit(x) is not None:
                in_unit.setdefault(unit(x), []).append(x)
        weak = {u: all(view.weak(x) for x in xs) for u, xs in in_unit.items()}
        local_nr = c in nr_local_names
        # A call that never returns is a sink itself, not a way to @c.
        for v in (callers_of(c) if c not in nr_glob else ()):
            u = unit(v)
            if local_nr and (u, c) in nr_local:
                continue
            loc = in_unit.get(u) if u is not None else None
            if loc:
                for x in loc:
                    res[x].append(v)
                if not weak[u]:
                    continue   # the unit's own definition only
                # Only __weak ones in the unit, which a global definition
                # elsewhere overrides where the kernel has one.
            for x in glob:
                if not loc or x not in loc:
                    res[x].append(v)
        # The callers by an edge: every node named as the caller.
        if c in by_callee:
            edge_targets = glob or [x for x in targets if unit(x) is not None]
            extra = [v for caller in by_callee[c] for v in view.defs(caller)]
            for x in edge_targets:
                res[x] = sorted(set(res[x] + extra), key=view.order)
        return res

    def reverse(w):
        """The nodes whose calls resolve to @w."""
        c = view.name(w)
        if c not in resolved:
            resolved[c] = resolve(c)
        return resolved[c][w]

    level = {d: sorted((v for v in dist if dist[v] == d), key=view.order)
             for d in (0, 1)}
    for d in range(0, max_depth):
        for w in level.get(d, []):
            if dist[w] != d:
                continue
            for v in reverse(w):
                if dist.get(v, INF) > d + 1:
                    dist[v] = d + 1
                    step[v] = w
                    level.setdefault(d + 1, []).append(v)
    return dist, step


def path_of(view, tokens, step, v):
    parts = []
    while True:
        parts.append("%s (%s)" % (view.name(v), view.where(v)))
        s = step[v]
        if isinstance(s, tuple):
            if s[0] == "token":
                parts.append("[frame: %s]" % tokens[s[1]][0])
            else:
                parts.append("[no return: %s]" % s[1])
            return " -> ".join(parts)
        v = s


def call_heads(rows, what, errors):
    """The function each token of @rows names: a token is a call, NAME(
    or NAME() (the index keeps calls by name, not the text around them),
    or a bare NAME."""
    heads = []
    for where, cols in rows:
        m = CALL_TOKEN_RE.fullmatch(cols[0])
        if not m:
            errors.append("%s: %r is not a call, NAME( or NAME(): the "
                          "checker finds %ss as calls by name" %
                          (where, cols[0], what))
            heads.append(None)
            continue
        heads.append(m.group(1))
    return heads


def load_graph(tree, chosen, cache):
    """{arch: View} of the architectures @chosen, over one index."""
    files = {a.name: tree.sources(a) for a in chosen}
    every = sorted(set(f for a in chosen for f in files[a.name]))
    overlay = {}
    for rel in every:
        if rel in tree.overlay_files:
            overlay[rel] = parse_source(rel, read_source(tree.path(rel))[1])
    ix = load_index(tree, [rel for rel in every
                           if rel not in tree.overlay_files or
                           os.path.exists(tree.root_path(rel))], cache)
    return {a.name: View(ix, files[a.name],
                         {rel: overlay[rel] for rel in files[a.name]
                          if rel in overlay})
            for a in chosen}


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


def entry_defs(view, arch, entry, kind, rules):
    """The definitions of an entry point that the kernel of @kind builds:
    not those in the files that arches.tsv excludes for it (x86: arch/x86
    files named *_32.c only on i386 and, for the compat entry points,
    those an arch/x86 Makefile builds for CONFIG_IA32_EMULATION; *_64.c
    only on x86-64)."""
    out = []
    for v in view.glob(arch.aliases.get((kind, entry), entry)):
        path = view.files[view.file(v)]
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


def run_checker(step, doc, depth, tokens_file, what, arches_path,
                check_arch):
    """The main of both checkers: parse the arguments, read the tree's
    index and the sinks (<tokens_file>, each a <what>), and run
    check_arch() on each architecture. Returns the exit status."""
    ap = argparse.ArgumentParser(
        description=doc.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    common_args(ap, depth)
    args = ap.parse_args()
    tree, base, arches, chosen = setup(args, step, arches_path(args))
    tok_rows, tok_errors = read_data(args.data, base, tokens_file, 2, what)
    tokens = [tuple(c) for _, c in tok_rows]
    heads = call_heads(tok_rows, what, tok_errors)
    views = load_graph(tree, chosen, args.cache)
    status = 0
    for a in chosen:
        if len(chosen) > 1:
            print("%s: arch %s (%s)" % (step, a.name, ", ".join(a.abis)))
        status |= check_arch(args, tree, base, arches, a, views[a.name],
                             tokens, heads, list(tok_errors))
    return status


def main():
    # The tokens serve every architecture.
    return run_checker("check-blacklist", __doc__, 16, "frame-tokens.tsv",
                       "frame token",
                       lambda args: os.path.join(args.data, "arches.tsv"),
                       check_arch)


def tables_and_lists(tree, arch, base, kind, errors, *read_args):
    """The entry points of each ABI's table, the exclusion rules and the
    ABIs' lists of <kind> (blacklist, resolves), with an error for each
    list entry that names no syscall of its ABI's table."""
    entries = entry_points(tree, arch, base)
    rules = exclude_rules(tree, arch)
    lists = read_lists(tree, arch, kind, errors, *read_args)
    for abi in arch.abis:
        rel = arch.lists[(kind, abi)][0]
        listed = lists.get(abi, {})
        for name, lineno in sorted(listed.items(), key=lambda x: x[1]):
            if name not in entries[abi]:
                errors.append("%s: %s:%d: %s names %s, which is not an %s "
                              "syscall in the tables" %
                              (kind, rel, lineno, abi, name, abi))
    return entries, rules, lists


def check_arch(args, tree, base, arches, arch, view, tokens, heads, errors):
    """Derive and check the architecture's ABIs; prints its part of the
    output and returns 0, or 1 if anything fails."""
    print("check-blacklist: %d source files parsed" % view.nfiles)
    abis = arch.abis

    def data(name, fields, what, keys=1):
        rows, e = read_data(args.data, base, name, fields, what, keys,
                            arch.name)
        errors.extend(e)
        return rows
    crash_rows = data("noreturn-crash.tsv", 2, "no-return crash")
    edge_rows = data("edges.tsv", 3, "edge", 2)
    exc_rows = data("exceptions.tsv", 3, "exception", 2)
    other_rows = data("other-reasons.tsv", 3, "other reason", 2)
    reader_rows = data("reviewed-readers.tsv", 2, "reviewed reader")
    diag_rows = data("diagnostics.tsv", 2, "diagnostic")
    readers = [(w, c[0]) for w, c in reader_rows]
    diagnostics = [(w, c[0]) for w, c in diag_rows]
    crash = [c[0] for _, c in crash_rows]
    edges = [(w,) + tuple(c) for w, c in edge_rows]
    known = all_abis(arches)

    def by_abi(rows):
        """{(syscall, ABI): (where, reason)} of this architecture's ABIs."""
        out = {}
        for where, (name, abi, reason) in rows:
            if abi not in known:
                errors.append("%s: ABI %r is not one of %s" %
                              (where, abi, ", ".join(known)))
            elif abi in abis:
                out[(name, abi)] = (where, reason)
        return out
    exceptions = by_abi(exc_rows)
    others = by_abi(other_rows)

    declared = view.declared()
    for where, c in crash_rows:
        if c[0] not in declared:
            print("check-blacklist: report: %s names %s, which no source "
                  "declares __noreturn" % (where, c[0]))
    for where, caller, callee, _ in edges:
        for fn in (caller, callee):
            if not view.defs(fn):
                errors.append("%s: %s is defined nowhere in the sources" %
                              (where, fn))
    diag = set()
    for where, name in diagnostics:
        nodes = view.defs(name)
        if not nodes:
            print("check-blacklist: report: %s names %s, which is defined "
                  "nowhere in the sources" % (where, name))
        diag.update(nodes)
    # A reader's use of the frame is its calls of the functions that the
    # tokens name (current_pt_regs(), task_pt_regs(), ...).
    callers_of_heads = set(v for h in heads if h for v in view.callers(h))
    for where, name in readers:
        if not any(v in callers_of_heads and v not in diag
                   for v in view.defs(name)):
            print("check-blacklist: report: %s names %s, which holds no "
                  "frame token in the sources" % (where, name))
    nr_glob, nr_local = view.noreturn(crash)
    print("check-blacklist: no-return functions (declared __noreturn, less "
          "noreturn-crash.tsv): %s" % " ".join(sorted(
              nr_glob | set("%s (%s)" % (n, u) for u, n in nr_local))))
    INF = args.depth + 1
    dist, step = derive(view, heads, [e[1:3] for e in edges], args.depth,
                        crash=crash,
                        diagnostics=[n for _, n in diagnostics],
                        readers=[n for _, n in readers])
    # An edge whose callee reaches nothing adds nothing here (move_vma()'s
    # to special_mapping_mremap() on arm64, whose vDSO's mremap hook
    # leaves the frame alone): worth a look, not an error, as the edges
    # serve every architecture.
    for where, caller, callee, _ in edges:
        if view.defs(callee) and not any(v in dist
                                         for v in view.defs(callee)):
            print("check-blacklist: report: %s: %s reaches no sink within "
                  "%d calls here: the edge from %s adds nothing" %
                  (where, callee, args.depth, caller))
    cond = cond_syscalls(tree)

    entries, rules, blacklists = tables_and_lists(tree, arch, base,
                                                  "blacklist", errors, False)
    failures = []
    for abi in abis:
        table = entries[abi]
        bl = blacklists.get(abi, {})
        rel = arch.lists[("blacklist", abi)][0]
        derived = {}
        for name in sorted(table):
            paths = {}         # path -> the entry kinds that take it
            for kind, entry, noret in table[name]:
                if noret:
                    paths.setdefault("%s [no return: the table marks it "
                                     "noreturn, %s]" % (entry, noret),
                                     []).append(kind)
                defs = entry_defs(view, arch, entry, kind, rules)
                if not defs and entry in cond:
                    continue   # not built: sys_ni_syscall(), which returns
                if not defs:
                    errors.append("entries: %s %s: entry point %s (%s) has "
                                  "no definition in the sources" %
                                  (abi, name, entry, kind))
                    continue
                best = min(defs, key=lambda v: (dist.get(v, INF),
                                                view.where(v)))
                if best in dist:
                    p = path_of(view, tokens, step, best)
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
        # What the blacklist holds and nothing derives must have its
        # reason in other-reasons.tsv: else a path that the derivation
        # lost (an edge of edges.tsv dropped, a reader reviewed too
        # widely) would go unnoticed behind the entry still there.
        for name in sorted(bl, key=lambda x: bl[x]):
            if name in derived:
                continue
            if (name, abi) in others:
                print("  %s %s: blacklisted, not derived: other reason "
                      "(%s): %s" % ((abi, name) + others[(name, abi)]))
            else:
                failures.append("%s: %s is blacklisted (%s:%d) but not "
                                "derived, and other-reasons.tsv gives no "
                                "reason: has the derivation lost its path "
                                "(an edge of edges.tsv)?" %
                                (abi, name, rel, bl[name]))
        for (name, oabi), (where, _) in sorted(others.items()):
            if oabi == abi and name not in bl:
                failures.append("%s: %s must be refused (%s), but the %s "
                                "blacklist lacks it" % (abi, name, where, abi))
        # An exception that nothing derives any more is a path lost as
        # well (the vDSO's edges of edges.tsv, for mremap).
        for (name, eabi), (where, _) in sorted(exceptions.items()):
            if eabi != abi:
                continue
            if name in bl:
                print("check-blacklist: report: %s %s is an exception (%s) "
                      "and blacklisted as well" % (abi, name, where))
            elif name not in derived:
                failures.append("%s: %s is an exception (%s) but not "
                                "derived: the exception is stale, or the "
                                "derivation has lost its path (an edge of "
                                "edges.tsv?)" % (abi, name, where))

    return print_verdict("check-blacklist", errors, failures)


def print_verdict(step, errors, failures):
    """Print the errors and failures of one architecture and the verdict;
    return the exit status, 1 if there is any."""
    for e in errors:
        print("%s: error: %s" % (step, e))
    for f in failures:
        print("%s: FAIL: %s" % (step, f))
    if errors or failures:
        print("%s: FAILED (%d errors, %d failures)" %
              (step, len(errors), len(failures)))
        return 1
    print("%s: OK" % step)
    return 0


if __name__ == "__main__":
    sys.exit(main())
