#!/usr/bin/env python3
"""How far a result depends on the hardware profile's cost estimates.

One at a time, each chosen cost of the scenario's profile is multiplied by each factor
(hw.<field> overrides, docs/extending.md) and every arm is run with --runs seeds through
`mmsim sweep`, so the runs land in the results store and a rerun reuses them. The table
gives, per estimate and factor, how many runs OOM-killed a task (or, with --metric, the
mean of a result metric over the runs that finished), arm by arm, next to the profile's
own values.

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

DEFAULT_FIELDS = [
    "syscall_ns", "ctxsw_ns", "page_alloc_ns", "page_free_ns", "page_copy_ns",
    "scan_page_ns", "rmap_pte_ns", "isolate_ns", "lru_add_ns", "tick_ns",
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


def run(cmd, quiet=True):
    r = subprocess.run(cmd, stdout=subprocess.PIPE if quiet else None,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        die("command failed (%d): %s" % (r.returncode, " ".join(cmd)))
    return r.stdout


def arm_settings(arm):
    name, _, kv = arm.partition(":")
    return name, dict(x.split("=", 1) for x in kv.split(",") if x)


def main():
    a = parse_args()
    arms = [arm_settings(x) for x in a.arm]
    version = run([a.mmsim, "--version"]).split()[1]
    for scen in a.scenarios:
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
            cells[f] = [round(profile[f] * k) for k in factors]
            vals = sorted({v for v, k in zip(cells[f], factors) if k != 1.0 and v >= 1})
            run(base + ["--vary", "hw.%s=%s" % (f, ",".join(str(v) for v in vals))])
        with tempfile.NamedTemporaryFile("r", suffix=".json") as tmp:
            run([a.mmsim, "results", "--db", a.db, "--json", "-o", tmp.name])
            docs = json.load(open(tmp.name))
        docs = docs.get("runs", []) if isinstance(docs, dict) else docs
        table = {}
        for d in docs:
            d = d.get("run", d)
            if d.get("mmsim_version") != version or d["scenario"]["file"] != scen:
                continue
            ov = d.get("overrides", {})
            hw = [k for k in ov if k.startswith("hw.")]
            if len(hw) > 1 or d["seed"] > a.runs:
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
                hit = m.get(a.metric)
            table.setdefault(key, []).append(hit)
        print("%s (%s), %d seeds per cell; %s" % (
            scen, profile["name"], a.runs,
            "runs with an OOM kill" if a.metric == "oom" else
            "mean %s of the runs that have it" % a.metric))
        names = [n for n, _ in arms]
        print("%-14s %8s  %s" % ("estimate", "profile",
                                 "  ".join("%-*s" % (12 * len(names) - 1, "x%g" % k)
                                           for k in factors)))
        print("%-14s %8s  %s" % ("", "", "  ".join(
            " ".join("%-11s" % n[:11] for n in names) for _ in factors)))
        for f in a.fields:
            row = []
            for v, k in zip(cells[f], factors):
                out = []
                for n in names:
                    hits = table.get(("", 0, n) if k == 1.0 else (f, v, n), [])
                    if a.metric == "oom":
                        out.append("%d/%d" % (sum(hits), len(hits)))
                    else:
                        got = [h for h in hits if h is not None]
                        out.append("%.3f" % (sum(got) / len(got)) if got else "n/a")
                row.append(" ".join("%-11s" % o for o in out))
            print("%-14s %8d  %s" % (f, profile[f], "  ".join(row)))
        print()


if __name__ == "__main__":
    main()
