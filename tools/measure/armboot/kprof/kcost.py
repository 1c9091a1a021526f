#!/usr/bin/python3
"""Read a kcost run (run.sh kcost: the console log and its .kprof dumps) and
print, per phase, the instructions by kernel function with the calls into
each (blocks entered at the function's first address), and the /proc/vmstat
differences of the phase.

Usage: kcost.py LOG SYSTEM.MAP [--top N] [--phase NAME]
(LOG.kprof and SYSTEM.MAP may be stored zstd-compressed, as NAME.zst.)
The phases are kcost.c's; dump 2i+1 of LOG.kprof is phase i (the dumps
between are the set-up around the markers).
"""
import bisect
import collections
import io
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from summary import read_log  # noqa: E402


def open_text(path):
    """PATH, or PATH.zst when only that exists (summary.read_log decompresses it)."""
    if not os.path.exists(path) and os.path.exists(path + ".zst"):
        path += ".zst"
    return io.StringIO(read_log(path))


def load_symbols(path):
    syms = []
    with open_text(path) as f:
        for line in f:
            a, t, name = line.split()[:3]
            if t in "tTwW":
                syms.append((int(a, 16), name))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def load_dumps(path):
    dumps, cur = [], None
    with open_text(path) as f:
        for line in f:
            w = line.split()
            if w[0] == "dump":
                cur = []
            elif w[0] == "end":
                dumps.append(cur)
            else:
                cur.append((int(w[0], 16), int(w[1]), int(w[2])))
    return dumps


def load_phases(path):
    """[(name, vmstat before, vmstat after)] from the console log."""
    phases, cur, stats = [], None, {}
    with open_text(path) as f:
        for line in f:
            if line.startswith("=== kcost vmstat "):
                _, _, _, name, when = line.split()
                cur = {}
                stats[(name, when)] = cur
                if when == "before":
                    phases.append(name)
                continue
            if line.startswith("==="):
                cur = None
                continue
            if cur is not None:
                w = line.split()
                if len(w) == 2 and w[1].lstrip("-").isdigit():
                    cur[w[0]] = int(w[1])
    out = []
    for name in phases:
        b, a = stats[(name, "before")], stats.get((name, "after"), {})
        out.append((name, {k: a[k] - b[k] for k in a if k in b}))
    return out


class Profile:
    """Instructions and calls by kernel function of one dump."""

    def __init__(self, blocks, addrs, names):
        self.blocks = blocks  # (address, instructions, times executed) of every block
        self.insns = collections.Counter()
        self.calls = collections.Counter()
        self.user = 0
        for vaddr, n, count in blocks:
            if vaddr < 0xC0000000:
                self.user += n * count
                continue
            i = bisect.bisect_right(addrs, vaddr) - 1
            name = names[i] if i >= 0 else "?"
            self.insns[name] += n * count
            if i >= 0 and addrs[i] == vaddr:
                self.calls[name] += count
        self.kernel = sum(self.insns.values())

    def sum(self, funcs):
        return sum(self.insns[f] for f in funcs)


def read_run(log, sysmap):
    addrs, names = load_symbols(sysmap)
    dumps = load_dumps(log + ".kprof")
    runs = []
    for i, (name, vm) in enumerate(load_phases(log)):
        if 2 * i + 1 >= len(dumps):
            break
        runs.append((name, vm, Profile(dumps[2 * i + 1], addrs, names)))
    return runs


def main(argv):
    top, only = 25, None
    args = []
    it = iter(argv[1:])
    for a in it:
        if a == "--top":
            top = int(next(it))
        elif a == "--phase":
            only = next(it)
        else:
            args.append(a)
    if len(args) != 2:
        sys.exit(__doc__)
    for name, vm, p in read_run(*args):
        if only and name != only:
            continue
        print(f"== {name}: kernel {p.kernel} user {p.user} instructions")
        moved = {k: v for k, v in vm.items() if v}
        print("   vmstat: " + " ".join(f"{k}={v}" for k, v in sorted(moved.items())))
        for f, n in p.insns.most_common(top):
            print(f"   {n:12d} {p.calls[f]:9d}  {f}")


if __name__ == "__main__":
    main(sys.argv)
