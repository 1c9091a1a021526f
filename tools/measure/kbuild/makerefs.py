#!/usr/bin/env python3
"""What make references between the jobs it starts (docs/kbuild-measured.md, "make's own
references"), from makerefs.sh's raw files.

usage: makerefs.py RAWDIR OUT.csv

RAWDIR holds make.PID.out (pagerefs --forks=yes of each make process: "X program args", then
per fork "K icount n" and its n pages "k class exec vpage", the last window "Z ...") and
make.PID.out.x (each forked child's exec: "P parent_pid window program args").

OUT.csv: one row per fork of a make, in each make's order: the make (pid, its obj= or "top"),
the window's number, what the child ran (compile: a shell or gcc compiling a .c; make: a
sub-make; other), and of the pages the make referenced since its previous fork: heap (brk +
anonymous mmap), of those referenced in the make's previous window and never before, stack,
file-backed (make's text and libraries), and the make's heap pages referenced so far.
A summary goes to stdout."""
import csv
import glob
import os
import re
import statistics
import sys

ANON = ("brk", "mmap")


def child_kind(prog, args):
    if prog.endswith("/make") or prog == "make":
        return "make"
    # Kbuild's quiet line opens each compile's command (the exec record keeps ~500 bytes)
    if prog.endswith("sh") and re.search(r"echo '  CC +\S+\.o'", args):
        return "compile"
    return "other"


def read_make(path):
    """(program args, [windows]); a window is (tag, icount at its end, {class: set(vpage)})."""
    head, wins, cur = None, [], None
    with open(path) as f:
        for line in f:
            t = line.split(" ", 1)
            if t[0] == "X":
                head = t[1].rstrip("\n")
            elif t[0] in ("K", "Z"):
                cur = {"anon": set(), "stack": set(), "file": set(), "other": set()}
                wins.append((t[0], int(line.split()[1]), cur))
            elif t[0] == "k":
                _, cls, _exec, vp = line.split()
                key = "anon" if cls in ANON else cls if cls in cur else "other"
                cur[key].add(int(vp, 16))
    return head, wins


def bits(pages, rank):
    v = 0
    for p in pages:
        v |= 1 << rank[p]
    return "%x" % v


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: makerefs.py RAWDIR OUT.csv")
    raw, out = sys.argv[1], sys.argv[2]
    execs = {}
    for x in glob.glob(os.path.join(raw, "make.*.out.x")):
        with open(x) as f:
            for line in f:
                p = line.rstrip("\n").split(" ", 4)
                if p[0] == "P":
                    execs[(int(p[1]), int(p[2]))] = (p[3], p[4] if len(p) > 4 else "")
    rows, makes = [], []
    for path in sorted(glob.glob(os.path.join(raw, "make.*.out"))):
        pid = int(os.path.basename(path).split(".")[1])
        head, wins = read_make(path)
        if not head or not re.match(r"\S*make( |$)", head.split(" ", 1)[0] + " "):
            continue
        m = re.search(r"obj=(\S+)", head)
        name = m.group(1) if m else "top"
        seen, prev, last = set(), set(), 0
        makes.append((pid, name, len(wins)))
        # the make's anonymous pages (heap and stack) and file pages, ranked by address
        anon_all = sorted(set().union(*(w["anon"] | w["stack"] for _, _, w in wins)))
        file_all = sorted(set().union(*(w["file"] for _, _, w in wins)))
        arank = {p: i for i, p in enumerate(anon_all)}
        frank = {p: i for i, p in enumerate(file_all)}
        for i, (tag, icount, w) in enumerate(wins):
            prog, args = execs.get((pid, i), ("", "")) if tag == "K" else ("", "")
            a = w["anon"]
            rows.append(
                {
                    "pid": pid,
                    "make": name,
                    "window": i,
                    "child": child_kind(prog, args) if tag == "K" else "exit",
                    "instructions": icount - last,
                    "heap_pages": len(a),
                    "heap_in_previous": len(a & prev),
                    "heap_new": len(a - seen),
                    "stack_pages": len(w["stack"]),
                    "file_pages": len(w["file"]),
                    "heap_seen": len(seen | a),
                    "make_anon": len(anon_all),
                    "make_file": len(file_all),
                    "anon_bits": bits(a | w["stack"], arank),
                    "file_bits": bits(w["file"], frank),
                }
            )
            seen |= a
            prev = a
            last = icount
    with open(out, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        wr.writeheader()
        wr.writerows(rows)
    jobs = [r for r in rows if r["child"] == "compile"]
    print(f"{len(makes)} makes, {len(rows)} fork windows, {len(jobs)} compile jobs started")

    def q(v):
        v = sorted(v)
        return "median %g, p90 %g, max %g" % (
            statistics.median(v), v[int(0.9 * (len(v) - 1))], v[-1]) if v else "-"

    print("heap pages before a compile job:", q([r["heap_pages"] for r in jobs]))
    print("  of them in the previous window:", q([r["heap_in_previous"] for r in jobs]))
    print("  never referenced before:       ", q([r["heap_new"] for r in jobs]))
    print("stack pages before a compile job:", q([r["stack_pages"] for r in jobs]))
    print("file pages before a compile job: ", q([r["file_pages"] for r in jobs]))
    print("instructions before a compile job:", q([r["instructions"] for r in jobs]))
    jm = {r["pid"] for r in jobs}
    print("makes that start compile jobs:    %d; their anonymous pages:" % len(jm),
          q([r["make_anon"] for r in rows if r["pid"] in jm and r["window"] == 0]))
    print("  their file pages:", q([r["make_file"] for r in rows if r["pid"] in jm and r["window"] == 0]))
    print("make's heap referenced in all:   ", q([max(r["heap_seen"] for r in rows if r["pid"] == p)
                                                for p, _, _ in makes]))


if __name__ == "__main__":
    main()
