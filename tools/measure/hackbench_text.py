#!/usr/bin/env python3
"""The program text hackbench executes, in 4 KiB pages per object: the pages the whole
program (the parent's start-up and forks, every worker) runs instructions from, and the pages
one worker runs after its fork. Host page-cache counts cannot give this: the kernel maps file
pages around each fault (fault_around_bytes, 64 KiB), so RssFile counts pages never run.

Runs rt-tests' hackbench under valgrind's callgrind with --dump-instr=yes (every executed
instruction's address, per object), --trace-children=yes (the forked workers) and
--dump-after='*fork*' (each process's costs before and after fork are dumped apart, so a
worker's last dump holds only what it ran after the fork). valgrind's own objects (its
preload library and generated code, "???") are left out. Under valgrind glibc picks its
string functions for valgrind's CPU, which may differ from the host's choice (IFUNC); the
pages' count, not their addresses, is the figure.

usage: tools/measure/hackbench_text.py [GROUPS] [LOOPS]   (default 1 20)
Needs valgrind and rt-tests (Debian packages). data/measured/hackbench_text.txt is one run.
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
    """{object basename: set of 4 KiB page numbers} from one callgrind output file."""
    names, pages, cur, last = {}, {}, None, 0
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
            tok = line.split()[0]
            if tok.startswith("0x"):
                addr = int(tok, 16)
            elif tok[0] in "+-" and tok[1:].isdigit():
                addr = last + int(tok)
            elif tok == "*":
                addr = last
            else:
                continue
            last = addr
            pages.setdefault(cur or "?", set()).add(addr >> 12)
    return pages


def merge(into, pages):
    for k, v in pages.items():
        into.setdefault(k, set()).update(v)


def show(label, pages):
    keep = {k: len(v) for k, v in sorted(pages.items()) if k not in IGNORE}
    print("%s: %s; total %d pages (%d KiB)" % (label, ", ".join(
        "%s %d" % kv for kv in keep.items()), sum(keep.values()), 4 * sum(keep.values())))


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
        print("# %s; hackbench -g %s -l %s (process mode, sockets)" % (
            ver.stdout.strip(), groups, loops))
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=yes",
                        "--trace-children=yes", "--dump-after=*fork*",
                        "--callgrind-out-file=%s/cg.%%p" % d,
                        "hackbench", "-g", groups, "-l", loops],
                       check=True, capture_output=True)
        files = glob.glob(d + "/cg.*")
        pids = sorted({int(f.split("cg.")[1].split(".")[0]) for f in files})
        by_pid = {p: [f for f in files if int(f.split("cg.")[1].split(".")[0]) == p]
                  for p in pids}
        parent = max(pids, key=lambda p: len(by_pid[p]))  # one dump per fork
        program, per_worker = {}, []
        for p in pids:
            for f in by_pid[p]:
                pages = executed_pages(f)
                if p == parent or f.endswith("cg.%d" % p):
                    merge(program, pages)
                if p != parent and f.endswith("cg.%d" % p):
                    per_worker.append(pages)
        show("program (parent and workers)", program)
        sizes = sorted(sum(len(v) for k, v in w.items() if k not in IGNORE) for w in per_worker)
        print("workers %d; pages each after fork: min %d, max %d" % (
            len(per_worker), sizes[0], sizes[-1]))
        union = {}
        for w in per_worker:
            merge(union, w)
        show("workers after fork (union)", union)
    finally:
        shutil.rmtree(d)


if __name__ == "__main__":
    main()
