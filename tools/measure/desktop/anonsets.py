#!/usr/bin/env python3
"""anonsets.py compact RAWDIR DATADIR: anonsets.sh's raw output into DATADIR/anonsets.csv
(per program and switch, the anonymous pages touched, as virtual page ranges; a row
"all" per program with every anonymous page it had in any reading) and
DATADIR/anonref.csv (per program the smaps view: anonymous Rss, Referenced after 1, 2, 4, 8
switches without clearing, shared memory; /proc/meminfo Shmem around the launch).
anonsets.py summary DATADIR: the per-program table of docs/desktop-measured.md ("Which
anonymous pages") from those two files.

A page is touched at switch k when it was swapped after the k-th push-out (outK) and is
present at swK, or absent at outK and present at swK (a first touch: new memory). Pages
still present at outK (the push-out could not take them: shared with another process,
locked) are not watched; their count is the "stuck" column."""
import csv
import os
import re
import statistics
import sys
from collections import defaultdict

import pageranges

RLE = re.compile(r"(\d+)([afsw.])")


def states(rle, start):
    """{virtual page number: state} of one VMA line"""
    out, p = {}, start // 4096
    for n, c in RLE.findall(rle):
        n = int(n)
        if c != ".":
            for i in range(p, p + n):
                out[i] = c
        p += n
    return out


def load(raw):
    snaps = defaultdict(dict)  # (step, program, phase) -> {page: state}
    order = []
    for line in open(os.path.join(raw, "pages.txt")):
        f = line.split()
        step, prog_, phase = f[0], f[1], f[2]
        # the program's name may hold spaces ("nautilus --browser"): the pid is the first
        # all-digit field after the step
        i = 1
        while not (f[i + 2].isdigit() and re.fullmatch(r"[0-9a-f]+", f[i + 3])):
            i += 1
        prog = " ".join(f[1:i + 1])
        phase, pid, start = f[i + 1], f[i + 2], int(f[i + 3], 16)
        key = (step, prog, phase)
        if key not in snaps:
            order.append(key)
        snaps[key].update(states(f[-1], start))
    return snaps, order


def ranges(pages):
    """pages as "a-b c ..." in hex (anonsets.csv's virtual page numbers)"""
    return " ".join("%x" % a if n == 1 else "%x-%x" % (a, a + n - 1)
                    for a, n in pageranges.runs(pages))


def unranges(s):
    out = set()
    for r in s.split():
        a, _, b = r.partition("-")
        out.update(range(int(a, 16), int(b or a, 16) + 1))
    return out


def compact(raw, data):
    snaps, order = load(raw)
    progs = []
    for step, prog, phase in order:
        if phase == "out1" and (step, prog) not in progs:
            progs.append((step, prog))
    with open(os.path.join(data, "anonsets.csv"), "w") as f:
        w = csv.writer(f, lineterminator="\n")
        # SOFTDIRTY=1 runs: how many of the touched pages were written (soft-dirty)
        sd = any(c == "w" for v in snaps.values() for c in v.values())
        w.writerow(["step", "program", "switch", "anon_pages", "watched", "stuck", "touched",
                    "new", "pages"] + (["written"] if sd else []))
        for step, prog in progs:
            # every anonymous page the program had in any reading: a switch's pages are
            # replayed by their rank among these (table.py)
            every = set()
            for (st, pr, ph), v in snaps.items():
                if (st, pr) == (step, prog):
                    every.update(p for p, c in v.items() if c in "asw")
            w.writerow([step, prog, "all", len(every), "", "", "", "", ranges(every)]
                       + ([""] if sd else []))
            idle = snaps.get((step, prog, "idle"))
            if idle is not None:
                stuck = {p for p, c in snaps[(step, prog, "out1")].items() if c in "aw"}
                t = {p for p, c in idle.items() if c in "aw"} - stuck
                w.writerow([step, prog, "idle", sum(c in "asw" for c in idle.values()),
                            "", len(stuck), len(t), "", ranges(t)] + ([""] if sd else []))
            k = 1
            while (step, prog, "sw%d" % k) in snaps:
                o, s = snaps[(step, prog, "out%d" % k)], snaps[(step, prog, "sw%d" % k)]
                watched = {p for p, c in o.items() if c == "s"}
                stuck = {p for p, c in o.items() if c in "aw"}
                back = {p for p in watched if s.get(p) in ("a", "w")}
                new = {p for p, c in s.items() if c in "aw" and p not in o}
                wr = sum(s[p] == "w" for p in back | new)
                w.writerow([step, prog, k, sum(c in "asw" for c in s.values()), len(watched),
                            len(stuck), len(back), len(new), ranges(back | new)]
                           + ([wr] if sd else []))
                k += 1
    smaps = list(csv.DictReader(open(os.path.join(raw, "smaps.csv"))))
    mem = defaultdict(dict)
    for r in csv.DictReader(open(os.path.join(raw, "meminfo.csv"))):
        mem[(r["step"], r["program"])][r["when"]] = r
    acc = defaultdict(lambda: defaultdict(int))
    for r in smaps:
        key = (r["step"], r["program"], r["phase"])
        path = r["path"]
        a = acc[key]
        if path in ("[anon]", "[stack]"):
            a["anon_kb"] += int(r["anon_kb"])
            a["anon_ref_kb"] += int(r["ref_kb"])
        elif "s" in r["perms"]:
            a["shared_kb"] += int(r["rss_kb"])
            if path.startswith(("/SYSV", "/memfd:", "/dev/shm")) or "(deleted)" in path:
                a["shm_kb"] += int(r["rss_kb"])
                a["shm_maps"] += 1
        else:
            a["anon_kb"] += int(r["anon_kb"])  # copy-on-write pages of private file mappings
    with open(os.path.join(data, "anonref.csv"), "w") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["step", "program", "phase", "anon_kb", "anon_ref_kb", "shm_kb", "shm_maps",
                    "meminfo_shmem_before_kb", "meminfo_shmem_after_kb"])
        for (step, prog, phase), a in acc.items():
            if prog == "Xvfb" and phase == "start":
                continue
            m = mem.get((step, prog), {})
            w.writerow([step, prog, phase, a["anon_kb"], a["anon_ref_kb"], a["shm_kb"],
                        a["shm_maps"], m.get("before", {}).get("shmem_kb", ""),
                        m.get("after", {}).get("shmem_kb", "")])


def summary(data):
    rows = list(csv.DictReader(open(os.path.join(data, "anonsets.csv"))))
    ref = defaultdict(dict)
    for r in csv.DictReader(open(os.path.join(data, "anonref.csv"))):
        ref[(r["step"], r["program"])][r["phase"]] = r
    by = defaultdict(list)
    for r in rows:
        by[(r["step"], r["program"])].append(r)
    print("| step | program | anon MB | Referenced 1 / 2 / 4 / 8 switches (MB) | idle MB | "
          "touched a switch MB (median) | in the previous switch | reuse distance 1 / 2 / 3+ / "
          "none | "
          "union of 8 / median one | anon growth KB/switch | stuck MB | shared memory MB "
          "(maps) | Shmem +MB at launch |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (step, prog), rs in by.items():
        idle = [r for r in rs if r["switch"] == "idle"]
        sw = [r for r in rs if r["switch"] not in ("idle", "all")]
        sets = [unranges(r["pages"]) for r in sw]
        sizes = [len(s) for s in sets]
        prev = [len(sets[k] & sets[k - 1]) / len(sets[k]) for k in range(1, len(sets)) if sets[k]]
        # reuse distance of the pages of switches 2, 3, ...: how many switches back the
        # latest one that touched the page was (1, 2, 3 or more), or none of them
        seen = set(sets[0]) if sets else set()
        last = {p: 0 for p in seen}
        dist = [0, 0, 0, 0]
        for k in range(1, len(sets)):
            for p in sets[k]:
                d = k - last[p] if p in last else 0
                dist[min(d, 3) if d else 0] += 1
            for p in sets[k]:
                last[p] = k
            seen |= sets[k]
        nd = max(1, sum(dist))
        rd = "%.1f / %.1f / %.1f / %.1f %%" % tuple(100 * x / nd for x in dist[1:] + dist[:1])
        rf = ref.get((step, prog), {})
        mb = lambda p: p * 4 / 1024
        rstr = " / ".join("%.1f" % (int(rf["ref%d" % k]["anon_ref_kb"]) / 1024)
                          if "ref%d" % k in rf else "-" for k in (1, 2, 4, 8))
        st = rf.get("start", {})
        shm = "%.1f (%s)" % (int(st["shm_kb"]) / 1024, st["shm_maps"]) if st else "-"
        dshm = "%.1f" % ((int(st["meminfo_shmem_after_kb"]) - int(st["meminfo_shmem_before_kb"]))
                         / 1024) if st and st.get("meminfo_shmem_after_kb") else "-"
        grow = (int(sw[-1]["anon_pages"]) - int(sw[0]["anon_pages"])) * 4 / max(len(sw) - 1, 1)
        print("| %s | %s | %.1f | %s | %.2f | %.2f | %s | %s | %s | %.0f | %.2f | %s | %s |" % (
            step, prog, mb(int(sw[-1]["anon_pages"])) if sw else 0, rstr,
            mb(int(idle[0]["touched"])) if idle else 0,
            mb(statistics.median(sizes)) if sizes else 0,
            "%.1f %%" % (100 * sum(len(sets[k] & sets[k - 1]) for k in range(1, len(sets)))
                         / max(1, sum(len(x) for x in sets[1:]))) if len(sets) > 1 else "-",
            rd if len(sets) > 1 else "-",
            "%.2f" % (len(seen) / statistics.median(sizes)) if sizes and statistics.median(sizes) else "-",
            grow, mb(statistics.median(int(r["stuck"]) for r in sw)) if sw else 0,
            shm if prog not in ("Xvfb", "openbox") else "-",
            dshm if prog not in ("Xvfb", "openbox") else "-")
            + (" written: %.1f %% |" % (100 * sum(int(r["written"]) for r in sw)
                                       / max(1, sum(int(r["touched"]) + int(r["new"])
                                                    for r in sw)))
               if sw and sw[0].get("written") else ""))


if __name__ == "__main__":
    if sys.argv[1] == "compact":
        compact(sys.argv[2], sys.argv[3])
    else:
        summary(sys.argv[2])
