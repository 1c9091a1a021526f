#!/usr/bin/env python3
"""How far a result depends on the hardware profile's cost estimates.

One at a time, each chosen figure (by default the KPATH costs, touch_ns and the kernel's
reserved memory) of the scenario's profile is multiplied by each factor
(hw.<field> overrides, docs/extending.md) and every arm is run with --runs seeds through
`mmsim sweep`, so the runs land in the results store and a rerun reuses them. The table
gives, per estimate and factor, how many runs OOM-killed a task (or, with --metric, the
mean of a result metric over the runs that report it), arm by arm, next to the profile's
own values. Only runs of this scenario file's content, this model version and seeds
1..--runs are counted; a cell without exactly --runs of them is an error.

usage: scripts/sensitivity.py [--mmsim BIN] [--runs N] [--factors F,...] [--fields F,...]
                              [--metric NAME] [--db FILE] [-j N]
                              SCENARIO [SCENARIO...] --arm NAME[:k=v,...] [--arm ...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# The kernel paths priced by KPATH (counted instructions at a price per instruction taken
# from one anchor, docs/hardware.md: the anchor is an assumption), touch_ns (lmbench's L1
# latency, on ia64 the manual's L1D latency; that a reference is one cached load is an approximation),
# and the memory the kernel keeps from boot (an estimate on ia64; on ARM measured on a board
# of the class, on x86 read off one boot log of the era, not the threads' machines: still
# varied); the cited costs (syscall, context switch, fault, page zero/copy, socket message,
# fork, exec) and the disks' (disk.request_ns, disk.bandwidth_Bps) can be added with --fields.
DEFAULT_FIELDS = [
    "page_alloc_ns", "page_free_ns", "scan_page_ns", "rmap_pte_ns", "isolate_ns",
    "lru_add_ns", "tick_ns", "touch_ns", "swap_alloc_ns", "io_submit_ns", "copy_pte_ns",
    "zap_pte_ns", "kernel_reserved_kb",
]


def die(msg):
    print("sensitivity.py: " + msg, file=sys.stderr)
    sys.exit(2)


def parse_args():
    p = argparse.ArgumentParser(
        description="one-at-a-time sensitivity of a result to the profile's cost estimates")
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO")
    p.add_argument("--arm", action="append", required=True,
                   help="NAME[:k=v,...] as for mmsim sweep (at least one)")
    p.add_argument("--mmsim", default="build/mmsim")
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--factors", default="0.5,2")
    p.add_argument("--fields", default=",".join(DEFAULT_FIELDS))
    p.add_argument("--metric", default="oom",
                   help="oom (runs with an OOM kill, the default) or a result metric")
    p.add_argument("--db", default="mmsim-results.db")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    a = p.parse_args()
    if a.runs < 1:
        die("--runs must be at least 1")
    try:
        a.factors = [float(f) for f in a.factors.split(",")]
    except ValueError:
        die("--factors: expected numbers separated by commas, got '%s'" % a.factors)
    if any(f <= 0 for f in a.factors):
        die("--factors must be positive")
    a.fields = [f for f in a.fields.split(",") if f]
    return a


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        die("command failed (%d): %s" % (r.returncode, " ".join(cmd)))
    return r.stdout


def arm_settings(arm):
    name, _, kv = arm.partition(":")
    pairs = [x for x in kv.split(",") if x]
    if not name or any("=" not in x for x in pairs):
        die("--arm: expected NAME[:key=value,...], got '%s'" % arm)
    settings = dict(x.split("=", 1) for x in pairs)
    if any(k.startswith("hw.") for k in settings):
        die("--arm '%s': hw.* settings are what this script varies" % arm)
    return name, settings


def fnv1a64(path):
    """The results store's scenario key: FNV-1a 64 of the file's bytes (plan.c)."""
    h = 0xcbf29ce484222325
    with open(path, "rb") as f:
        for byte in f.read():
            h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def main():
    a = parse_args()
    arms = [arm_settings(x) for x in a.arm]
    names = [n for n, _ in arms]
    if len(set(names)) != len(names):
        die("--arm names must differ")
    version = run([a.mmsim, "--version"]).split()[1]
    for scen in a.scenarios:
        if not os.path.isfile(scen):
            die("%s: no such scenario file" % scen)
        doc = json.loads(run([a.mmsim, "run", scen, "--quiet", "--json", "-",
                              "--set", "run.time_limit=1ms"]))
        profile = doc["profile"]
        for f in a.fields:
            if f not in profile:
                die("unknown field '%s': expected one of %s" %
                    (f, " ".join(k for k in profile if k != "name")))
        base = [a.mmsim, "sweep", scen, "--runs", str(a.runs), "--db", a.db,
                "-j", str(a.jobs), "--no-progress"]
        for arm in a.arm:
            base += ["--arm", arm]
        compare = [a.mmsim, "compare", scen, "--runs", str(a.runs), "--db", a.db,
                   "-j", str(a.jobs), "--no-progress"]
        for arm in a.arm:
            compare += ["--arm", arm]
        run(compare)  # the profile's own values
        factors = sorted(set(a.factors + [1.0]))
        cells = {}
        for f in a.fields:
            # ns values; a factor that rounds to 0 (the "profile's value" marker) or to
            # the profile's own value has no runs of its own and prints "-"
            cells[f] = [int(profile[f] * k + 0.5) for k in factors]
            vals = sorted({v for v, k in zip(cells[f], factors)
                           if k != 1.0 and v >= 1 and v != profile[f]})
            if vals:
                run(base + ["--vary", "hw.%s=%s" % (f, ",".join(str(v) for v in vals))])
        scen_hash = fnv1a64(scen)
        with tempfile.NamedTemporaryFile("r", suffix=".json") as tmp:
            run([a.mmsim, "results", "--db", a.db, "--json", "-o", tmp.name])
            docs = json.load(open(tmp.name))["runs"]
        table, seen = {}, set()
        for entry in docs:
            d = entry["run"]
            if (entry["scenario_hash"] != scen_hash or
                    d.get("mmsim_version") != version or not 1 <= d["seed"] <= a.runs):
                continue
            ov = d.get("overrides", {})
            hw = [k for k in ov if k.startswith("hw.")]
            if len(hw) > 1 or (hw and not ov[hw[0]].isdigit()):
                continue
            rest = {k: v for k, v in ov.items() if not k.startswith("hw.")}
            arm = next((n for n, s in arms if s == rest), None)
            if arm is None:
                continue
            key = (hw[0][3:], int(ov[hw[0]]), arm) if hw else ("", 0, arm)
            if a.metric == "oom":
                hit = d["reclaim"]["oom_kills"] > 0
            else:
                m = {x["name"]: x["value"] for x in d["result"]["metrics"]}
                seen.update(m)
                hit = m.get(a.metric)
            table.setdefault(key, []).append(hit)
        if a.metric != "oom" and a.metric not in seen:
            die("--metric %s: no run reports it; the runs report %s" %
                (a.metric, " ".join(sorted(seen)) or "nothing"))
        print("%s (%s), %d seeds per cell; %s" % (
            scen, profile["name"], a.runs,
            "runs with an OOM kill" if a.metric == "oom" else
            "mean %s of the runs that have it" % a.metric))
        width = max(11, max(len(n) for n in names))
        print("%-14s %8s  %s" % ("estimate", "profile",
                                 "  ".join("%-*s" % ((width + 1) * len(names) - 1, "x%g" % k)
                                           for k in factors)))
        print("%-14s %8s  %s" % ("", "", "  ".join(
            " ".join("%-*s" % (width, n) for n in names) for _ in factors)))
        for f in a.fields:
            row = []
            for v, k in zip(cells[f], factors):
                out = []
                for n in names:
                    if k != 1.0 and (v < 1 or v == profile[f]):
                        out.append("-")  # rounds to nothing new: no runs of its own
                        continue
                    hits = table.get(("", 0, n) if k == 1.0 else (f, v, n), [])
                    if len(hits) != a.runs:
                        die("%s, %s x%g, arm %s: %d stored runs, expected %d" %
                            (scen, f, k, n, len(hits), a.runs))
                    if a.metric == "oom":
                        out.append("%d/%d" % (sum(hits), len(hits)))
                    else:
                        got = [h for h in hits if h is not None]
                        out.append("%.3f" % (sum(got) / len(got)) if got else "n/a")
                row.append(" ".join("%-*s" % (width, o) for o in out))
            print("%-14s %8d  %s" % (f, profile[f], "  ".join(row)))
        print()


if __name__ == "__main__":
    main()
