#!/usr/bin/env python3
"""check-resolves.py - derive from the kernel tree which syscalls resolve
a path name that their caller gives, and check each ABI's list of the
calls that a RESOLVE context lets run against that.

Usage: scripts/check-resolves.py --tree DIR --data DIR [--base X.Y]
           [--overlay DIR] [--cache FILE] [--depth N]

A RESOLVE context of indirect() restricts the lookups of names that come
from user space, in path_init(); a syscall may run under one only when
its lookups of its caller's names all get there. The lists are in
arch/x86/kernel/indirect.c (indirect_x64_resolves[] and
indirect_ia32_resolves[]). This script uses the call graph of
check-blacklist.py (see there) with other sinks: a function whose body
takes a user path name into the kernel, <data>/name-tokens.tsv
(getname(), user_path_at(), ...). Then, per ABI:

  derived   an entry point that reaches a sink within --depth calls
            (default 4: the getname() of a path syscall is in its
            definition or one or two calls below);
  fail      a derived syscall that is neither listed nor named in
            <data>/refused.tsv (name, ABI, reason), the reviewed list of
            path-taking calls that a RESOLVE context refuses; a listed
            syscall that is not derived, as it would run under the
            context with nothing restricted; a list entry that the ABI's
            table lacks;
  report    an entry of refused.tsv that is not derived (stale).

--base, --overlay and --cache are check-blacklist.py's.
Exits 0 when nothing fails, 1 otherwise, 2 on bad usage.
"""

import argparse
import importlib.util
import os
import re
import sys

spec = importlib.util.spec_from_file_location(
    "check_blacklist", os.path.join(os.path.dirname(__file__),
                                    "check-blacklist.py"))
cb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cb)

LIST_RES = {
    "x86-64": re.compile(r"indirect_x64_resolves\s*\[[^]]*\]\s*=\s*\{(.*?)\};",
                         re.S),
    "ia32": re.compile(r"indirect_ia32_resolves\s*\[[^]]*\]\s*=\s*\{(.*?)\};",
                       re.S),
}
ENTRY_RES = {
    "x86-64": re.compile(r"^\s*\[__NR_(\w+)\]\s*=\s*true,\s*$"),
    "ia32": re.compile(r"^\s*\[__NR_ia32\((\w+)\)\]\s*=\s*true,\s*$"),
}


def read_lists(tree, errors):
    """Each ABI's list: {name: line} from indirect.c."""
    text = tree.read(cb.INDIRECT_C)
    lists = {}
    for abi, rx in LIST_RES.items():
        m = rx.search(text)
        if not m:
            errors.append("%s: no %s list of calls that resolve" %
                          (cb.INDIRECT_C, abi))
            continue
        first = text[:m.start(1)].count("\n") + 1
        names = {}
        for i, line in enumerate(m.group(1).split("\n")):
            s = line.strip()
            if not s or s.startswith("/*") or s.startswith("*"):
                continue
            e = ENTRY_RES[abi].match(line)
            if not e:
                errors.append("%s:%d: not an entry of the form [__NR...] = "
                              "true,: %s" % (cb.INDIRECT_C, first + i, s))
                continue
            names[e.group(1)] = first + i
        lists[abi] = names
    return lists


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--base")
    ap.add_argument("--overlay")
    ap.add_argument("--cache")
    ap.add_argument("--depth", type=int, default=4)
    args = ap.parse_args()
    tree = cb.Tree(args.tree, args.overlay)
    errors = []
    base = args.base
    if base and not re.fullmatch(r"\d+\.\d+", base):
        cb.die("--base %r is not major.minor" % base)
    tok_rows, e1 = cb.read_data(args.data, base, "name-tokens.tsv", 2,
                                "name token")
    ref_rows, e2 = cb.read_data(args.data, base, "refused.tsv", 3,
                                "refused call", 2)
    errors += e1 + e2
    tokens = [tuple(c) for _, c in tok_rows]
    # A call of the function, not of a member of that name (the getname
    # of a socket's proto_ops, say).
    token_res = [re.compile(r"(?<![\w.>])%s\s*\(" % re.escape(t))
                 for t, _ in tokens]
    refused = {}
    for where, (name, abi, reason) in ref_rows:
        if abi not in cb.ABIS:
            errors.append("%s: ABI %r is not one of %s" %
                          (where, abi, ", ".join(cb.ABIS)))
            continue
        refused[(name, abi)] = (where, reason)

    parsed = cb.load_sources(tree, token_res,
                             "calls:" + "\n".join(t for t, _ in tokens),
                             args.cache, True)
    g = cb.build_graph(parsed, [])
    # Only the name tokens are sinks here, not a call that never returns.
    g.noreturn = set()
    g.noreturn_local = set()
    dist, step = cb.derive(g, [], args.depth)
    cond = set()
    for m in cb.COND_RE.finditer(cb.strip_c(tree.read(cb.SYS_NI_C))):
        cond.add(("compat_sys_" if m.group(1) else "sys_") + m.group(2))
    entries = cb.entry_points(tree)
    compat_32 = cb.compat_32_files(tree)
    lists = read_lists(tree, errors)
    failures = []
    for abi in cb.ABIS:
        table = entries[abi]
        listed = lists.get(abi, {})
        for name, lineno in sorted(listed.items(), key=lambda x: x[1]):
            if name not in table:
                errors.append("%s:%d: %s names %s, which is not an %s "
                              "syscall in the tables" %
                              (cb.INDIRECT_C, lineno, abi, name, abi))
        derived = {}
        for name in sorted(table):
            for kind, entry, _ in table[name]:
                defs = cb.entry_defs(g, entry, kind, compat_32)
                if not defs and entry in cond:
                    continue
                if not defs:
                    errors.append("entries: %s %s: entry point %s (%s) has "
                                  "no definition in the sources" %
                                  (abi, name, entry, kind))
                    continue
                best = min(defs, key=lambda v: (dist[v], g.where[v]))
                if dist[best] <= args.depth:
                    path = cb.path_of(g, tokens, dist, step, best)
                    derived.setdefault(name, path.replace("[frame: ",
                                                          "[name: "))
        print("check-resolves: %s: %d syscalls take a path name (%d listed, "
              "%d refused)" % (abi, len(derived), len(listed),
                               sum(1 for (_, a) in refused if a == abi)))
        for name in sorted(derived):
            if name in listed:
                verdict = "listed"
            elif (name, abi) in refused:
                verdict = "refused (%s): %s" % refused[(name, abi)]
            else:
                verdict = "MISSING"
                failures.append("%s: %s takes a path name (%s), but it is "
                                "neither in the %s list nor refused" %
                                (abi, name, derived[name], abi))
            print("  %s %s: %s" % (abi, name, verdict))
        for name in sorted(listed, key=lambda x: listed[x]):
            if name not in derived and name in table:
                failures.append("%s: %s is listed (%s:%d) but takes no path "
                                "name that the graph finds: it would run "
                                "under RESOLVE with nothing restricted" %
                                (abi, name, cb.INDIRECT_C, listed[name]))
        for (name, rabi), (where, _) in sorted(refused.items()):
            if rabi == abi and name not in derived:
                print("check-resolves: report: %s %s is refused (%s) but "
                      "takes no path name that the graph finds" %
                      (abi, name, where))
            if rabi == abi and name in listed:
                errors.append("%s: %s %s is refused and listed as well" %
                              (where, abi, name))
    for e in errors:
        print("check-resolves: error: %s" % e)
    for f in failures:
        print("check-resolves: FAIL: %s" % f)
    if errors or failures:
        print("check-resolves: FAILED (%d errors, %d failures)" %
              (len(errors), len(failures)))
        return 1
    print("check-resolves: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
