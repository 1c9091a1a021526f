#!/usr/bin/env python3
"""The program text hackbench executes, in 4 KiB pages per object: the pages the whole
program (the parent's start-up and forks, every worker) runs instructions from, and the pages
one worker runs after its fork. Host page-cache counts cannot give this: the kernel maps file
pages around each fault (fault_around_bytes, 64 KiB), so RssFile counts pages never run.

Runs rt-tests' hackbench under valgrind's callgrind with --dump-instr=yes (every executed
instruction's address and count, per object), --trace-children=yes (the forked workers)
and --dump-after='*fork*' (a worker's costs from before its fork are dumped at once, so its
files hold what it ran after the fork, but for the few instructions its parent ran since
the previous fork). Run again with ten times the loops, the pages whose instructions grow
tenfold are the ones a message runs. --dump-before=exit splits what a worker runs into
its start-up and message loop (fork to its call of exit()) and its exit path; a page is
also given as its rank among the program's executed pages of its object, as the model's
text holds them (hackbench_text_pages). valgrind's own objects (its
preload library and generated code, "???") are left out. Under valgrind glibc picks its
string functions for valgrind's CPU, which may differ from the host's choice (IFUNC); the
pages' count, not their addresses, is the figure.

usage: tools/measure/hackbench_text.py [GROUPS] [LOOPS]   (default 1 20)
Needs valgrind and rt-tests (Debian packages). data/measured/hackbench_text.txt is two runs
(1 20, then 2 100); tools/measure/hackbench_text_table.py makes src/workloads/hackbench_text.c
of the first.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

IGNORE = ("???", "vgpreload_core-amd64-linux.so")


def executed_pages(path):
    """{object basename: {4 KiB page number: instructions run}} from one callgrind output
    file. The cost line after a calls= line is the call's inclusive cost, at the call site:
    the page counts as run, its instructions are not added."""
    names, pages, cur, last, incall = {}, {}, None, 0, False
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            m = re.match(r"c?ob=\((\d+)\)(?: (.*))?$", line)
            if m:
                if m.group(2):
                    names[m.group(1)] = os.path.basename(m.group(2))
                if line.startswith("ob="):
                    cur = names.get(m.group(1))
                continue
            if line.startswith("ob="):
                cur = os.path.basename(line[3:])
                continue
            if line.startswith("calls="):
                incall = True
                continue
            fields = line.split()
            tok = fields[0]
            if tok.startswith("0x"):
                addr = int(tok, 16)
            elif tok[0] in "+-" and tok[1:].isdigit():
                addr = last + int(tok)
            elif tok == "*":
                addr = last
            else:
                continue
            last = addr
            ir = int(fields[2]) if len(fields) > 2 and fields[2].isdigit() else 0
            obj = pages.setdefault(cur or "?", {})
            obj[addr >> 12] = obj.get(addr >> 12, 0) + (0 if incall else ir)
            incall = False
    return pages


def merge(into, pages):
    for k, v in pages.items():
        o = into.setdefault(k, {})
        for page, ir in v.items():
            o[page] = o.get(page, 0) + ir


def show(label, pages):
    keep = {k: len(v) for k, v in sorted(pages.items()) if k not in IGNORE and v}
    print("%s: %s; total %d pages (%d KiB)" % (label, ", ".join(
        "%s %d" % kv for kv in keep.items()), sum(keep.values()), 4 * sum(keep.values())))


def run(groups, loops, d):
    """The program's pages (all processes) and each worker's, split at its call of exit():
    (what it ran from its fork up to exit(), what it ran from there; a worker's first dump
    also holds the few instructions its parent ran since its last fork), from one run under
    callgrind."""
    subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=yes",
                    "--trace-children=yes", "--dump-after=*fork*", "--dump-before=exit",
                    "--callgrind-out-file=%s/cg.%%p" % d,
                    "hackbench", "-g", groups, "-l", loops],
                   check=True, capture_output=True)
    files = glob.glob(d + "/cg.*")
    pid = lambda f: int(f.split("cg.")[1].split(".")[0])
    pids = sorted({pid(f) for f in files})
    by_pid = {p: [f for f in files if pid(f) == p] for p in pids}
    parent = max(pids, key=lambda p: len(by_pid[p]))  # one dump per fork
    program, workers = {}, []
    for p in pids:
        before, after, seen_exit = {}, {}, False
        for f in sorted(by_pid[p], key=dump_part):
            pages = executed_pages(f)
            merge(program, pages)
            merge(after if seen_exit else before, pages)
            seen_exit = seen_exit or "--dump-before=exit" in dump_trigger(f)
            os.unlink(f)
        if p != parent:
            workers.append((before, after))
    return program, workers


def dump_part(path):
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("part:"):
                return int(line.split()[1])
    return 0


def dump_trigger(path):
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("desc: Trigger:"):
                return line
    return ""


def both(worker):
    out = {}
    merge(out, worker[0])
    merge(out, worker[1])
    return out


def minus(a, b):
    return {k: {pg: ir for pg, ir in v.items() if pg not in b.get(k, {})} for k, v in a.items()}


def ranks(pages, program):
    """Each page as its rank among the program's executed pages of its object, in address
    order: the model's text holds only executed pages, object by object."""
    return "; ".join("%s: %s" % (obj, ", ".join(
        str(sorted(program[obj]).index(pg)) for pg in sorted(v)))
        for obj, v in sorted(pages.items()) if obj not in IGNORE and v)


def count(pages):
    return sum(len(v) for k, v in pages.items() if k not in IGNORE)


def main():
    groups = sys.argv[1] if len(sys.argv) > 1 else "1"
    loops = sys.argv[2] if len(sys.argv) > 2 else "20"
    for tool in ("valgrind", "hackbench"):
        if not shutil.which(tool):
            sys.exit("hackbench_text.py: %s not found (apt-get install valgrind rt-tests)" % tool)
    d = tempfile.mkdtemp()
    try:
        print("# uname %s" % " ".join(os.uname()))
        ver = subprocess.run(["valgrind", "--version"], capture_output=True, text=True)
        print("# %s; hackbench -g %s -l %s and -l %d (process mode, sockets)" % (
            ver.stdout.strip(), groups, loops, 10 * int(loops)))
        program, workers = run(groups, loops, d)
        show("program (parent and workers)", program)
        sizes = sorted(count(both(w)) for w in workers)
        print("workers %d; pages each after fork: min %d, max %d" % (
            len(workers), sizes[0], sizes[-1]))
        union = {}
        for w in workers:
            merge(union, both(w))
        show("workers after fork (union)", union)
        # the pages a message runs: those whose instructions grow with the loops
        _, workers10 = run(groups, str(10 * int(loops)), d)
        for label, i in (("receiver", 0), ("sender", len(workers) - 1)):
            loop = {}
            for obj, pages in both(workers10[i]).items():
                for page, ir in pages.items():
                    before = both(workers[i]).get(obj, {}).get(page, 0)
                    if ir >= 5 * max(before, 1):
                        loop.setdefault(obj, {})[page] = ir
            show("a %s's message loop (instructions x10 with the loops)" % label, loop)
            print("  its pages (object: page offset in the mapping's 4 KiB pages): %s" % "; ".join(
                "%s: %s" % (obj, ", ".join("%#x" % (pg - min(workers10[i][0][obj])) for pg in sorted(v)))
                for obj, v in sorted(loop.items())))
            print("  its pages (object: rank among the program's executed pages): %s" % ranks(
                loop, program))
            start, end = workers[i]
            show("  its start-up and loop (fork to exit())", start)
            print("    ranks: %s" % ranks(start, program))
            show("  its exit (from exit())", end)
            print("    ranks: %s" % ranks(end, program))
            show("  of which not run before exit()", minus(end, start))
            print("    ranks: %s" % ranks(minus(end, start), program))
    finally:
        shutil.rmtree(d)


if __name__ == "__main__":
    main()
