#!/usr/bin/env python3
"""idle.py compact RAWDIR DATADIR: idle.sh's raw output into DATADIR/idle.csv, per process
(each program, Xvfb, openbox) and idle period:
  - a row kind "a" (file "[anon]"): the period's seconds (from its push-out reading to its
    reading after the period), the CPU used (ms), the anonymous pages it had, watched
    (swapped at the push-out reading), stuck (still present then: not watched), touched
    (watched and present after the period) and new (absent at the push-out, present after),
    and the touched and new pages as ranges of virtual page numbers (hex); a row period
    "all" with every anonymous page the process had in any reading, whose address order
    gives the ranks the model uses (table.py);
  - a row per file mapping (kind x = executable, r = other, as table.py's kind) with the
    kB its smaps Referenced had after the period (its referenced bits cleared at the
    push-out), rows with 0 dropped.
idle.py summary DATADIR: the per-program table of docs/desktop-measured.md ("Background
activity")."""
import csv
import os
import statistics
import sys
from collections import defaultdict

import anonsets
import table


def compact(raw, data):
    snaps, order = anonsets.load(raw)
    cpu = {}
    for r in csv.DictReader(open(os.path.join(raw, "cpu.csv"))):
        cpu[(r["step"], r["program"], r["phase"])] = (float(r["time_s"]), float(r["cpu_ms"]))
    procs = []
    for step, prog, phase in order:
        if (step, prog) not in procs:
            procs.append((step, prog))
    files = defaultdict(lambda: defaultdict(int))
    for r in csv.DictReader(open(os.path.join(raw, "smaps.csv"))):
        k = table.kind(r["path"], r["perms"])
        if k == "a":
            continue
        files[(r["step"], r["program"], r["phase"][1:])][(r["path"], k)] += int(r["ref_kb"])
    with open(os.path.join(data, "idle.csv"), "w") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["step", "program", "period", "seconds", "cpu_ms", "file", "kind", "kb",
                    "anon_pages", "watched", "stuck", "touched", "new", "pages"])
        for step, prog in procs:
            every = set()
            for (st, pr, ph), v in snaps.items():
                if (st, pr) == (step, prog):
                    every.update(p for p, c in v.items() if c in "asw")
            w.writerow([step, prog, "all", "", "", "[anon]", "a", len(every) * 4, len(every),
                        "", "", "", "", anonsets.ranges(every)])
            ks = []
            while (step, prog, "p%d" % (len(ks) + 1)) in snaps:
                ks.append(str(len(ks) + 1))
            for k in ks + ["c"]:
                if (step, prog, "p" + k) not in snaps or (step, prog, "out" + k) not in snaps:
                    continue
                o, s = snaps[(step, prog, "out" + k)], snaps[(step, prog, "p" + k)]
                watched = {p for p, c in o.items() if c == "s"}
                stuck = {p for p, c in o.items() if c in "aw"}
                back = {p for p in watched if s.get(p) in ("a", "w")}
                new = {p for p, c in s.items() if c in "aw" and p not in o}
                t0, c0 = cpu[(step, prog, "out" + k)]
                t1, c1 = cpu[(step, prog, "p" + k)]
                per = "control" if k == "c" else k
                w.writerow([step, prog, per, "%.2f" % (t1 - t0), "%.0f" % (c1 - c0), "[anon]",
                            "a", (len(back) + len(new)) * 4,
                            sum(c in "asw" for c in s.values()), len(watched), len(stuck),
                            len(back), len(new), anonsets.ranges(back | new)])
                for (path, kd), kb in sorted(files[(step, prog, k)].items()):
                    if kb:
                        w.writerow([step, prog, per, "", "", path, kd, kb, "", "", "", "", "",
                                    ""])


def load(data, raw=False):
    """{program: {"all": pages, "periods": [{seconds, cpu_ms, pages (set), files {(file,
    kind): kb}}], "control": the same for the control period}} from idle.csv, or None if
    absent. Unless raw: each period's file kB less the control period's for the file (the
    page flags other processes set, idle.sh), and none in a period in which the process used
    no CPU (it did not run: what smaps shows is other processes' flags)."""
    path = os.path.join(data, "idle.csv")
    if not os.path.exists(path):
        return None
    out = {}
    for r in csv.DictReader(open(path)):
        d = out.setdefault(r["program"], {"all": [], "periods": [], "control": None})
        if r["period"] == "all":
            d["all"] = sorted(anonsets.unranges(r["pages"]))
            continue
        if r["period"] == "control":
            if d["control"] is None:
                d["control"] = {"seconds": 0.0, "cpu_ms": 0, "pages": set(), "files": {}}
            p = d["control"]
        else:
            k = int(r["period"]) - 1
            while len(d["periods"]) <= k:
                d["periods"].append({"seconds": 0.0, "cpu_ms": 0, "pages": set(),
                                     "files": {}})
            p = d["periods"][k]
        if r["kind"] == "a":
            p["seconds"] = float(r["seconds"])
            p["cpu_ms"] = int(r["cpu_ms"])
            p["pages"] = anonsets.unranges(r["pages"])
        else:
            p["files"][(r["file"], r["kind"])] = int(r["kb"])
    if not raw:
        for d in out.values():
            c = d["control"]["files"] if d["control"] else {}
            for p in d["periods"]:
                p["files"] = {k: kb - c.get(k, 0) for k, kb in p["files"].items()
                              if kb > c.get(k, 0)} if p["cpu_ms"] else {}
    return out


def summary(data):
    d = load(data)
    rawd = load(data, raw=True)
    print("| step | program | anon MB | anon KB/period (median; min–max) | in the previous "
          "period | union / median | file KB/period (x / r) | file KB stopped (x / r) | "
          "CPU ms/period (median; max) | period s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    steps = {}
    for r in csv.DictReader(open(os.path.join(data, "idle.csv"))):
        steps.setdefault(r["program"], r["step"])
    for prog, v in d.items():
        ps = v["periods"]
        sizes = [len(p["pages"]) * 4 for p in ps]
        sets = [p["pages"] for p in ps]
        prev = sum(len(sets[k] & sets[k - 1]) for k in range(1, len(sets)))
        tot = sum(len(x) for x in sets[1:])
        union = set().union(*sets) if sets else set()
        med = statistics.median(sizes) if sizes else 0
        fx = statistics.median(sum(kb for (f, kd), kb in p["files"].items() if kd == "x")
                               for p in ps) if ps else 0
        fr = statistics.median(sum(kb for (f, kd), kb in p["files"].items() if kd == "r")
                               for p in ps) if ps else 0
        cpus = [p["cpu_ms"] for p in ps]
        c = rawd[prog]["control"] or {"files": {}}
        cx = sum(kb for (f, kd), kb in c["files"].items() if kd == "x")
        cr = sum(kb for (f, kd), kb in c["files"].items() if kd == "r")
        secs = statistics.median(p["seconds"] for p in ps) if ps else 0
        print("| %s | %s | %.1f | %.0f; %d–%d | %s | %s | %.0f / %.0f | %d / %d | %.0f; %d | %.1f |" % (
            steps[prog], prog, len(v["all"]) * 4 / 1024, med, min(sizes, default=0),
            max(sizes, default=0), "%.0f %%" % (100 * prev / tot) if tot else "-",
            "%.2f" % (len(union) * 4 / med) if med else "-", fx, fr, cx, cr,
            statistics.median(cpus) if cpus else 0, max(cpus, default=0), secs))


if __name__ == "__main__":
    if sys.argv[1] == "compact":
        compact(sys.argv[2], sys.argv[3])
    else:
        summary(sys.argv[2])
