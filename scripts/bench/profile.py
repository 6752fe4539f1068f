#!/usr/bin/env python3
"""profile.py - where a syscall path's guest instructions go, from QEMU's log.

Usage: scripts/bench/profile.py ranges --functions REGEX VMLINUX
       scripts/bench/profile.py report --vmlinux VMLINUX --calls N
                                --barriers REGEX --title TEXT
                                BASELINE_LOG:NAME SUBJECT_LOG:NAME

ranges prints QEMU's -dfilter list of the text symbols of VMLINUX whose
names match REGEX: each from its address to the next symbol's.

report reads two QEMU logs of "-d in_asm,exec,nochain" limited to those
ranges (scripts/bench/profile.sh): each of a boot that made N calls of
one benchmark variant, the baseline's (getppid(), say) and the
subject's (indirect(getppid)). in_asm gives each translated block's
instructions and exec each run of a block, so that every instruction's
count of runs is known. It prints, per call:
  - the instructions run in each function, in both boots, and the
    difference: what the subject costs over the baseline, where;
  - the instructions matching REGEX (serializing ones, and those that
    open and close the access window to user memory) in each boot, and
    what the subject runs more of them, which guest-instruction counts
    weigh as one each whatever they cost on a real CPU;
  - the subject's instructions, function by function, that ran at least
    once a call in the functions where the two boots differ, each with
    its runs per call.
The boot's own calls through the same functions add to both logs
alike, and the difference cancels them.
"""

import argparse
import bisect
import collections
import re
import subprocess
import sys

NM_RE = re.compile(r"^([0-9a-f]+) ([tTwW]) (\S+)$")
IN_RE = re.compile(r"^IN: ?(.*)$")
INSN_RE = re.compile(r"^0x([0-9a-f]+):\s+((?:[0-9a-f]{2} )+|[0-9a-f]{8}\s)\s*(.*)$")
# The bytes of a long instruction that do not fit on its line, alone on
# the next one.
CONTINUED_RE = re.compile(r"^0x[0-9a-f]+:\s+(?:[0-9a-f]{2} ?)+$")
EXEC_RE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


def text_symbols(vmlinux):
    """[(address, name)] of the text symbols of VMLINUX, sorted."""
    out = subprocess.run(["nm", "-n", vmlinux], check=True,
                         capture_output=True, text=True).stdout
    syms = []
    for line in out.splitlines():
        m = NM_RE.match(line)
        if m:
            syms.append((int(m.group(1), 16), m.group(3)))
    if not syms:
        sys.exit("profile.py: no text symbols in %s" % vmlinux)
    return syms


def ranges(args):
    syms = text_symbols(args.vmlinux)
    pattern = re.compile(args.functions)
    parts = []
    for i, (addr, name) in enumerate(syms[:-1]):
        size = syms[i + 1][0] - addr
        if pattern.match(name) and size > 0:
            parts.append("0x%x+0x%x" % (addr, size))
    if not parts:
        sys.exit("profile.py: no symbol of %s matches %s"
                 % (args.vmlinux, args.functions))
    print(",".join(parts))


def read_log(path):
    """({address: runs}, {address: instruction text}) of one QEMU log."""
    blocks = {}
    runs = collections.Counter()
    text = {}
    current = None
    with open(path, errors="replace") as f:
        for line in f:
            m = EXEC_RE.match(line)
            if m:
                pc = int(m.group(1), 16)
                for addr in blocks.get(pc, ()):
                    runs[addr] += 1
                continue
            m = IN_RE.match(line)
            if m:
                current = []
                continue
            if current is not None:
                m = INSN_RE.match(line)
                if m and not CONTINUED_RE.match(line.rstrip()):
                    addr = int(m.group(1), 16)
                    if not current:
                        blocks[addr] = current
                    current.append(addr)
                    text[addr] = " ".join(m.group(3).split())
                elif not line.strip():
                    current = None
    if not runs:
        sys.exit("profile.py: %s has no block that ran: was the boot "
                 "logged (-d in_asm,exec,nochain)?" % path)
    return runs, text


def by_function(runs, syms):
    """{function: runs} of {address: runs}."""
    addrs = [a for a, _ in syms]
    out = collections.Counter()
    for addr, n in runs.items():
        i = bisect.bisect_right(addrs, addr) - 1
        out[syms[i][1] if i >= 0 else "?"] += n
    return out


def function_of(addr, syms, addrs):
    i = bisect.bisect_right(addrs, addr) - 1
    return syms[i][1] if i >= 0 else "?"


def report(args):
    syms = text_symbols(args.vmlinux)
    addrs = [a for a, _ in syms]
    barrier = re.compile(args.barriers)
    (base_log, base_name), (subj_log, subj_name) = (
        spec.rsplit(":", 1) for spec in (args.baseline, args.subject))
    base_runs, _ = read_log(base_log)
    subj_runs, subj_text = read_log(subj_log)
    n = float(args.calls)
    base_f = by_function(base_runs, syms)
    subj_f = by_function(subj_runs, syms)

    print("# %s" % args.title)
    print("# %s over %s: guest instructions per call, of %d calls each"
          % (subj_name, base_name, args.calls))
    print("# (each column also counts the boot's own calls through these "
          "functions, spread over the %d; the difference does not)"
          % args.calls)
    print("%-36s %9s %9s %9s" % ("function", base_name[:9], subj_name[:9],
                                 "extra"))
    differ = []
    total_b = total_s = 0.0
    for fn in sorted(set(base_f) | set(subj_f),
                     key=lambda f: -(subj_f[f] - base_f[f])):
        b, s = base_f[fn] / n, subj_f[fn] / n
        total_b += b
        total_s += s
        if abs(s - b) < 0.5:
            continue
        differ.append(fn)
        print("%-36s %9.1f %9.1f %+9.1f" % (fn, b, s, s - b))
    print("%-36s %9.1f %9.1f %+9.1f" % ("all", total_b, total_s,
                                         total_s - total_b))

    print("\n# serializing and access-window instructions per call")
    per_path = []
    for name, runs_, text_ in ((base_name, base_runs, None),
                               (subj_name, subj_runs, subj_text)):
        if text_ is None:
            text_ = read_log(base_log)[1]
        kinds = collections.Counter()
        for addr, k in runs_.items():
            t = text_.get(addr, "")
            if barrier.search(t):
                # "hint #0x14" (csdb) is not every hint.
                kinds[t if t.startswith("hint") else t.split()[0]] += k / n
        per_path.append(kinds)
        print("%-12s %s" % (name + ":", ", ".join(
            "%s %.1f" % (k, v) for k, v in sorted(kinds.items()))
            or "none"))
    extra = {k: per_path[1][k] - per_path[0][k]
             for k in set(per_path[0]) | set(per_path[1])}
    print("%-12s %s" % ("extra:", ", ".join(
        "%s %+.1f" % (k, v) for k, v in sorted(extra.items())
        if abs(v) >= 0.5) or "none"))

    print("\n# %s: the instructions of the functions above that ran once "
          "a call or more (runs per call)" % subj_name)
    for fn in differ:
        lines = [(a, subj_runs[a] / n) for a in sorted(subj_runs)
                 if function_of(a, syms, addrs) == fn and
                 subj_runs[a] / n >= 0.5]
        if not lines:
            continue
        print("%s: %.1f" % (fn, sum(c for _, c in lines)))
        for a, c in lines:
            mark = "  <" if barrier.search(subj_text.get(a, "")) else ""
            print("  %5.1f  %x  %s%s" % (c, a, subj_text.get(a, "?"), mark))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("ranges")
    r.add_argument("--functions", required=True)
    r.add_argument("vmlinux")
    p = sub.add_parser("report")
    p.add_argument("--vmlinux", required=True)
    p.add_argument("--calls", type=int, required=True)
    p.add_argument("--barriers", required=True)
    p.add_argument("--title", required=True)
    p.add_argument("baseline")
    p.add_argument("subject")
    args = ap.parse_args()
    if args.cmd == "ranges":
        ranges(args)
    else:
        report(args)


if __name__ == "__main__":
    main()
