#!/usr/bin/env python3
"""bench_report.py - tables, result files and goal checks from a bench boot.

Usage: scripts/bench/bench_report.py --target T [--cpu NAME] [--smap on|off]
                               --log LOG --out DIR [--check] [--verdict FILE]

Reads the "# bench" lines that arch-tests/bench/indirect_bench.c printed
in each ABI suite of a bench boot (see run-qemu.sh bench), and:
  - prints a table per ABI: each measurement's median and spread per call
    (guest instructions under icount), and its ratio to its baseline;
  - writes DIR/<name>-<abi>.tsv (test, median, spread, baseline, ratio),
    DIR/<name>-goals.tsv (goal, abi, value, limit, verdict) and
    DIR/<name>-figures.tsv (figure, abi, value) for the figures that
    have no goal, where <name> is the target, or <target>-<cpu> with
    --cpu (a boot on another CPU model than the target's own);
  - checks the goals below, printing each one missed with its figure, its
    limit and its ABI; with --check, exits 1 if one is missed;
  - with --smap, checks that the guest's "# harness: cpu" line says that
    SMAP was on (or off): a CPU model that QEMU or the host cannot give
    would measure the other case under the wrong name.
A log without results, or without the measurement that a goal needs,
exits 1 with or without --check. --verdict FILE gets one line for each
reason of a non-zero exit, naming "no results" apart from "goal missed",
and is removed when there is none, for "make bench-check" to gather.
Every goal holds on every ABI: a miss has no excuse.

Goals, for each ABI:
  dispatch_extra     indirect(getppid) with 0 contexts minus getppid <= 120
  dispatch_ratio     the same as a ratio, natively                   <= 1.6
  per_context        cost of each extra OPENFLAGS context: the worst of
                     the steps 1-2, 2-4, 4-8 and 8-16 contexts, per
                     context, so that it also shows a page allocation <= 50
  socket_extra       indirect(socket, OPENFLAGS) minus socket(SOCK_CLOEXEC)
                     <= dispatch_extra + first_context + SOCKET_NOISE:
                     the descriptor path itself adds nothing; the
                     medians of a call that allocates (an AF_UNIX
                     socket and its close()) move by a few instructions
                     from boot to boot
  socket_vs_fcntl    indirect(socket, OPENFLAGS) / (socket + fcntl)   < 1.00
  audit_dummy_added  with auditing on and no rule (a dummy audit context),
                     dispatch_extra again, less dispatch_extra: what
                     naming the inner call to audit costs a task that
                     audit records only if something logs in its
                     context                                          <= 72
                     (when the log has it: a kernel with CONFIG_AUDIT)
  refused_blacklisted  indirect(execve), which the blacklist refuses,
                     minus a direct call that returns ENOSYS (a number in
                     a hole of the table): <= dispatch_extra
  refused_too_many   indirect() with 17 contexts (E2BIG), likewise
                                                       <= dispatch_extra
  refused_unknown_ctx  indirect() with one context of no known kind
                     (EINVAL), likewise, <= the same over getppid with
                     one OPENFLAGS context: a refused call costs no more
                     than the successful call of its shape
The first context also pays once for what any context needs (reading the
pointer array, the loops); that is first_context, and socket_extra
measures it again in a real call. (indirect(socket, OPENFLAGS) /
socket(SOCK_CLOEXEC) is a figure, not a goal: the fcntl() that OPENFLAGS
saves is small next to an AF_UNIX socket() and close().) And for each
compat ABI against the native one of its kernel (ia32 compat against
x86_64, AArch32 compat against aarch64: COMPAT_NATIVE):
  compat_dispatch    compat dispatch_extra within 10% of native's
  compat_context     compat per_context within 10% of native's (or 5 insns)
"""

import argparse
import os
import re
import sys

SUBTEST_RE = re.compile(r"^  # Subtest: (\S+)")
BENCH_RE = re.compile(r"^\s*# bench\t(\S+)\t([\d.]+)\t([\d.]+)\t(\S+)")
CONTEXT_COUNTS = (1, 2, 4, 8, 16)
# Naming the inner call to audit, which a dummy context needs too: the
# call of __audit_indirect_call(), the arguments read in the caller's
# ABI, the numbers and arguments swapped (66 to 69 instructions on both
# bases). A helper that zeroes its buffer or takes its arguments on the
# stack costs 8 or more above that.
AUDIT_DUMMY_LIMIT = 72


# The ABIs whose "<abi>+audit" suite ran: their audit figures must be
# there, for a suite that skipped (no audit, a daemon running) would
# otherwise leave audit_dummy_added unchecked.
AUDIT_SUITES = set()


def parse(path):
    """{abi: {name: (median, spread, baseline)}} in log order."""
    results = {}
    abi = None
    with open(path, errors="replace") as f:
        for line in f:
            m = SUBTEST_RE.match(line)
            if m:
                # <abi>+audit: more results of <abi>, with auditing on.
                abi, _, part = m.group(1).partition("+")
                if part == "audit":
                    AUDIT_SUITES.add(abi)
                results.setdefault(abi, {})
                continue
            m = BENCH_RE.match(line)
            if m and abi:
                results[abi][m.group(1)] = (float(m.group(2)),
                                            float(m.group(3)), m.group(4))
    return results


# What the medians of socket() and close() move by from one boot to the
# next, with the same kernel: up to 5 instructions (x86-64, 6.12: 184 to
# 189 over four boots of one series).
SOCKET_NOISE = 5

# The refused calls, each against the direct call that returns ENOSYS.
REFUSALS = ("blacklisted", "too_many", "unknown_ctx")

# Direct calls that each make one lookup (mkdirat: and its unlinkat).
LOOKUP_CALLS = ("openat", "mkdirat", "fstatat")


def derived(abi, r):
    """The figures the goals are about, for one ABI."""
    d = {}
    base = r["indirect_getppid_0"][0]
    d["dispatch_extra"] = base - r["getppid"][0]
    d["dispatch_ratio"] = base / r["getppid"][0]
    cost = [r["indirect_getppid_%d" % n][0] for n in CONTEXT_COUNTS]
    d["first_context"] = cost[0] - base
    d["per_context_steps"] = [(cost[i + 1] - cost[i]) /
                              (CONTEXT_COUNTS[i + 1] - CONTEXT_COUNTS[i])
                              for i in range(len(cost) - 1)]
    d["per_context"] = max(d["per_context_steps"])
    d["socket_extra"] = r["indirect_socket"][0] - r["socket_cloexec"][0]
    d["socket_vs_cloexec"] = (r["indirect_socket"][0] /
                              r["socket_cloexec"][0])
    d["socket_vs_fcntl"] = r["indirect_socket"][0] / r["socket_fcntl"][0]
    d["accept_vs_accept4"] = (r["indirect_accept"][0] /
                              r["accept4_cloexec"][0])
    d["accept_vs_fcntl"] = r["indirect_accept"][0] / r["accept_fcntl"][0]
    if "openat" in r:
        # The RESOLVE hook in path_init(): each direct lookup again once
        # a RESOLVE context has armed it, and the confined calls.
        for call in LOOKUP_CALLS:
            d["lookup_armed_extra_" + call] = (r[call + "_armed"][0] -
                                               r[call][0])
        d["resolve_openat_vs_openat2"] = (r["indirect_openat_beneath"][0] /
                                          r["openat2_beneath"][0])
        d["resolve_mkdirat_extra"] = (r["indirect_mkdirat_beneath"][0] -
                                      r["mkdirat_armed"][0])
    nosys = r["nosys"][0]
    for name in REFUSALS:
        d["refused_%s" % name] = r["indirect_" + name][0] - nosys
    d["one_context_extra"] = (r["indirect_getppid_1"][0] -
                              r["getppid"][0])
    if abi in AUDIT_SUITES:
        d["audit_dummy_extra"] = (r["indirect_getppid_0_audit_dummy"][0] -
                                  r["getppid_audit_dummy"][0])
        d["audit_dummy_added"] = d["audit_dummy_extra"] - d["dispatch_extra"]
    return d


# Each compat ABI and the native ABI of the same kernel that it is held
# to: its dispatch and contexts may cost at most 10% more (or 5
# instructions a context), and it has no dispatch_ratio goal, as its
# direct getppid() pays the compat entry too.
COMPAT_NATIVE = {"ia32-compat": "x86_64", "aarch32-compat": "aarch64"}


def goals(target, results):
    """[(goal, abi, value, limit, ok)] for every goal that applies."""
    out = []
    figures = {abi: derived(abi, r) for abi, r in results.items()}
    for abi, d in figures.items():
        out.append(("dispatch_extra", abi, d["dispatch_extra"], 120,
                    d["dispatch_extra"] <= 120))
        if abi not in COMPAT_NATIVE:
            out.append(("dispatch_ratio", abi, d["dispatch_ratio"], 1.6,
                        d["dispatch_ratio"] <= 1.6))
        out.append(("per_context", abi, d["per_context"], 50,
                    d["per_context"] <= 50))
        limit = d["dispatch_extra"] + d["first_context"] + SOCKET_NOISE
        out.append(("socket_extra", abi, d["socket_extra"], limit,
                    d["socket_extra"] <= limit))
        out.append(("socket_vs_fcntl", abi, d["socket_vs_fcntl"], 1.00,
                    d["socket_vs_fcntl"] < 1.00))
        for name in REFUSALS:
            limit = (d["one_context_extra"] if name == "unknown_ctx"
                     else d["dispatch_extra"])
            value = d["refused_" + name]
            out.append(("refused_" + name, abi, value, limit, value <= limit))
        if "audit_dummy_added" in d:
            out.append(("audit_dummy_added", abi, d["audit_dummy_added"],
                        AUDIT_DUMMY_LIMIT,
                        d["audit_dummy_added"] <= AUDIT_DUMMY_LIMIT))
    for compat_abi, native_abi in COMPAT_NATIVE.items():
        if compat_abi not in figures or native_abi not in figures:
            continue
        for goal, key, slack in (("compat_dispatch", "dispatch_extra", 0),
                                 ("compat_context", "per_context", 5)):
            native = figures[native_abi][key]
            compat = figures[compat_abi][key]
            limit = max(native * 1.10, native + slack)
            out.append((goal, compat_abi, compat, limit, compat <= limit))
    return out, figures


HARNESS_CPU_RE = re.compile(r"^# harness: cpu (.*): smap (on|off), smep (on|off)")


def harness_cpu(path):
    """(model, smap, smep) from the guest's "# harness: cpu" line, or None."""
    with open(path, errors="replace") as f:
        for line in f:
            m = HARNESS_CPU_RE.match(line.strip())
            if m:
                return m.groups()
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", required=True)
    ap.add_argument("--cpu", help="the CPU model of a boot on another one "
                    "than the target's own; names the result files")
    ap.add_argument("--smap", choices=("on", "off"),
                    help="fail unless the guest says SMAP was so")
    ap.add_argument("--log", required=True)
    ap.add_argument("--out", required=True, help="folder for the result files")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when a goal is missed")
    ap.add_argument("--verdict", help="the file for the reasons of a "
                    "non-zero exit, removed when there is none")
    args = ap.parse_args()
    stem = args.target + ("-" + args.cpu if args.cpu else "")
    reasons = report(args, stem)
    for reason in reasons:
        print("bench-report: %s: %s" % (stem, reason))
    if args.verdict:
        if reasons:
            with open(args.verdict, "w") as f:
                f.writelines("%s: %s\n" % (stem, r) for r in reasons)
        elif os.path.exists(args.verdict):
            os.remove(args.verdict)
    return 1 if reasons else 0


def report(args, stem):
    """Print the tables, write the files; the reasons to exit 1, if any."""
    try:
        results = parse(args.log)
    except OSError as e:
        return ["no results: cannot read %s: %s" % (args.log, e.strerror)]
    if not results or not all(results.values()):
        return ["no results: no benchmark results in %s" % args.log]
    cpu = harness_cpu(args.log)
    if cpu:
        print("  %s: cpu %s: smap %s, smep %s" % ((stem,) + cpu))
    if args.smap and (not cpu or cpu[1] != args.smap):
        return ["no results: this run is for SMAP %s, and the guest says %s"
                % (args.smap, "smap " + cpu[1] if cpu else
                   "nothing of its CPU (no '# harness: cpu' line)")]
    os.makedirs(args.out, exist_ok=True)
    for abi, r in results.items():
        path = os.path.join(args.out, "%s-%s.tsv" % (stem, abi))
        with open(path, "w") as f:
            f.write("test\tmedian\tspread\tbaseline\tratio\n")
            print("\n  %s / %s (guest instructions per call)" % (stem, abi))
            print("  %-22s %9s %7s  %-20s %6s" % ("test", "median", "spread",
                                                  "baseline", "ratio"))
            for name, (median, spread, baseline) in r.items():
                ratio = (median / r[baseline][0]) if baseline in r else None
                f.write("%s\t%.1f\t%.1f\t%s\t%s\n" % (
                    name, median, spread, baseline,
                    "-" if ratio is None else "%.3f" % ratio))
                print("  %-22s %9.1f %7.1f  %-20s %6s" % (
                    name, median, spread, baseline,
                    "-" if ratio is None else "%.3f" % ratio))

    try:
        checked, figures = goals(args.target, results)
    except KeyError as e:
        return ["no results: the measurement %s is missing" % e]
    for abi, d in figures.items():
        steps = zip(CONTEXT_COUNTS, CONTEXT_COUNTS[1:])
        print("  %s: the first context %.1f; each one after it, between "
              "%s contexts: %s" % (
                  abi, d["first_context"],
                  " ".join("%d-%d" % s for s in steps),
                  " ".join("%.1f" % v for v in d["per_context_steps"])))
        print("  %s: indirect(accept4, OPENFLAGS) / accept4(SOCK_CLOEXEC) "
              "%.3f, / (accept + fcntl) %.3f"
              % (abi, d["accept_vs_accept4"], d["accept_vs_fcntl"]))
        if "audit_dummy_extra" in d:
            print("  %s: indirect(getppid) minus getppid, auditing on with no "
                  "rule: %.1f (%.1f with auditing never on)"
                  % (abi, d["audit_dummy_extra"], d["dispatch_extra"]))
        if "resolve_mkdirat_extra" in d:
            print("  %s: direct lookups once RESOLVE armed the hook, extra: %s;"
                  " indirect(openat, BENEATH) / openat2(BENEATH) %.3f;"
                  " indirect(mkdirat, BENEATH) minus mkdirat %.1f"
                  % (abi, " ".join("%s %.1f" % (c, d["lookup_armed_extra_" + c])
                                   for c in LOOKUP_CALLS),
                     d["resolve_openat_vs_openat2"],
                     d["resolve_mkdirat_extra"]))
    path = os.path.join(args.out, "%s-figures.tsv" % stem)
    with open(path, "w") as f:
        f.write("figure\tabi\tvalue\n")
        for abi, d in figures.items():
            for figure in ("first_context", "socket_vs_cloexec",
                           "accept_vs_accept4", "accept_vs_fcntl"):
                f.write("%s\t%s\t%.3f\n" % (figure, abi, d[figure]))
            if "audit_dummy_extra" in d:
                f.write("audit_dummy_extra\t%s\t%.3f\n"
                        % (abi, d["audit_dummy_extra"]))
            if "resolve_mkdirat_extra" in d:
                for figure in (["lookup_armed_extra_" + c
                                for c in LOOKUP_CALLS] +
                               ["resolve_openat_vs_openat2",
                                "resolve_mkdirat_extra"]):
                    f.write("%s\t%s\t%.3f\n" % (figure, abi, d[figure]))
            for (a, b), v in zip(zip(CONTEXT_COUNTS, CONTEXT_COUNTS[1:]),
                                 d["per_context_steps"]):
                f.write("per_context_%d_%d\t%s\t%.3f\n" % (a, b, abi, v))
    path = os.path.join(args.out, "%s-goals.tsv" % stem)
    missed = 0
    print("\n  %-18s %-12s %9s %9s  %s" % ("goal", "ABI", "value", "limit",
                                           "verdict"))
    with open(path, "w") as f:
        f.write("goal\tabi\tvalue\tlimit\tverdict\n")
        for goal, abi, value, limit, ok in checked:
            verdict = "met" if ok else "MISSED"
            missed += not ok
            f.write("%s\t%s\t%.3f\t%.3f\t%s\n" % (goal, abi, value, limit,
                                                   verdict))
            print("  %-18s %-12s %9.3f %9.3f  %s" % (goal, abi, value, limit,
                                                     verdict))
    print("\n  bench %s: %d goals, %d missed; results in %s\n"
          % (stem, len(checked), missed, args.out))
    if not args.check:
        return []
    return ["goal %s missed on %s: %.3f, limit %.3f"
            % (goal, abi, value, limit)
            for goal, abi, value, limit, ok in checked if not ok]


if __name__ == "__main__":
    sys.exit(main())
