#!/usr/bin/env python3
"""check_resolves.py - flag, by name, the syscalls that take a path name
from their caller, and check each ABI's list of the calls that a RESOLVE
context lets run against them and the reviewed data: a tripwire against
a reviewed baseline, as check_blacklist.py is, not a derivation.

Usage: scripts/blacklist/check_resolves.py --tree DIR --data DIR [--base X.Y]
           [--arches FILE] [--arch NAME]... [--inputs]
           [--overlay DIR] [--cache FILE] [--depth N]

A RESOLVE context of indirect() restricts the lookups of names that come
from user space, in path_init(); a syscall may run under one only when
its lookups of its caller's names all get there. The lists are in the
tree where arches.tsv says (list resolves; x86: indirect_x64_resolves[]
and indirect_ia32_resolves[] in arch/x86/kernel/indirect.c, arm64:
indirect_a64_resolves[] in arch/arm64/kernel/indirect.c and
indirect_a32_resolves[] in indirect32.c). This script uses the call graph
of check_blacklist.py (see there for what a graph by name sees and what
it misses) with other sinks: a function that calls one of
<data>/name-tokens.tsv, which take a user path name into the kernel
(getname(), user_path_at(), ...). Then, per ABI:

  flagged   an entry point that reaches a sink within --depth calls
            (default 4: the getname() of a path syscall is in its
            definition or one or two calls below); the output says
            "take a path name";
  fail      a flagged syscall that is neither listed nor named in
            <data>/refused.tsv (name, ABI, reason), the reviewed list of
            path-taking calls that a RESOLVE context refuses; a listed
            syscall that is not flagged, as it would run under the
            context with nothing restricted; a list entry that the ABI's
            table lacks;
  report    an entry of refused.tsv that is not flagged (stale).

--base, --arch, --inputs, --overlay and --cache are check_blacklist.py's
(one index serves both);
--arches defaults to check_blacklist.py's data, blacklist/arches.tsv
beside this script. refused.tsv is read with its parts for the base and
the architecture as check_blacklist.py reads its data; name-tokens.tsv
with its part for the base only.
Exits 0 when nothing fails, 1 otherwise, 2 on bad usage or bad input.
"""

import os
import sys

from blacklist import check_blacklist as cb


def main():
    # A call of the function, not of a member of that name (the getname
    # of a socket's proto_ops, say): the index keeps those apart.
    return cb.run_checker(
        "check-resolves", __doc__, 4, "name-tokens.tsv", "name token",
        lambda args: os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "data", "arches.tsv"),
        check_arch)


def check_arch(args, tree, base, arches, arch, view, tokens, heads, errors):
    """Derive and check the architecture's lists; prints its part of the
    output and returns 0, or 1 if anything fails."""
    print("check-blacklist: %d source files parsed" % view.nfiles)
    ref_rows, e = cb.read_data(args.data, base, "refused.tsv", 3,
                               "refused call", 2, arch.name)
    errors += e
    refused = {}
    known = cb.all_abis(arches)
    for where, (name, abi, reason) in ref_rows:
        if abi not in known:
            errors.append("%s: ABI %r is not one of %s" %
                          (where, abi, ", ".join(known)))
            continue
        if abi in arch.abis:
            refused[(name, abi)] = (where, reason)

    # Only the name tokens are sinks here, not a call that never returns.
    dist, step = cb.derive(view, heads, [], args.depth)
    cond = cb.cond_syscalls(tree)
    entries, rules, lists = cb.tables_and_lists(tree, arch, base, "resolves",
                                                errors, True)
    failures = []
    for abi in arch.abis:
        table = entries[abi]
        listed = lists.get(abi, {})
        rel = arch.lists[("resolves", abi)][0]
        derived = {}
        for name in sorted(table):
            for kind, entry, _ in table[name]:
                defs = cb.entry_defs(view, arch, entry, kind, rules)
                if not defs and entry in cond:
                    continue
                if not defs:
                    errors.append("entries: %s %s: entry point %s (%s) has "
                                  "no definition in the sources" %
                                  (abi, name, entry, kind))
                    continue
                best = min(defs, key=lambda v: (dist.get(v, args.depth + 1),
                                                view.where(v)))
                if best in dist:
                    path = cb.path_of(view, tokens, step, best)
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
                                (abi, name, rel, listed[name]))
        for (name, rabi), (where, _) in sorted(refused.items()):
            if rabi == abi and name not in derived:
                print("check-resolves: report: %s %s is refused (%s) but "
                      "takes no path name that the graph finds" %
                      (abi, name, where))
            if rabi == abi and name in listed:
                errors.append("%s: %s %s is refused and listed as well" %
                              (where, abi, name))
    return cb.print_verdict("check-resolves", errors, failures)


if __name__ == "__main__":
    sys.exit(main())
