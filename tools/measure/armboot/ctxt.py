#!/usr/bin/env python3
"""Context switches in hackbench's timed window, from run.sh console logs.

    tools/measure/armboot/ctxt.py data/measured/armboot/ctxt/*.log.zst

hackbench.c (HACKBENCH_PROC=1, as guest/measure.sh runs it) prints the
/proc/stat 'ctxt' count read right before the start signal and right after
the last worker is reaped ('=== ctxt start-signal N', '=== ctxt end N') and
the workers' summed rusage ('=== worker rusage nvcsw X nivcsw Y'). Prints a
Markdown table, one row per log: guest memory (the boot log's 'Memory: N MB
total'), groups, ICOUNT (from the file name: '-icN', '-noic' = QEMU's default
clock), Time, ctxt in the window (end - start-signal), messages (groups x 20
senders x 20 receivers x 100 loops), messages per switch, the workers' nvcsw
and nivcsw, OOM kills during the run and vmstat allocstall before and after
the run (pre-hackbench / post-hackbench dumps). Standard library only; reads
zstd-compressed logs through 'zstd -dc'.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import read_log, sections  # noqa: E402


def vm(sec, name, key):
    for line in sec.get(name, []):
        f = line.split()
        if len(f) == 2 and f[0] == key:
            return int(f[1])
    return None


def row(path):
    text = read_log(path)
    sec = sections(text)
    r = {"log": os.path.basename(path)}
    m = re.search(r"Memory: (\d+)MB = (\d+)MB total", text)
    r["mem"] = int(m.group(2)) if m else None
    m = re.search(r"-ic(\d+)", r["log"])
    r["icount"] = m.group(1) if m else ("default" if "-noic" in r["log"] else "?")
    for name in sec:
        m = re.match(r"^hackbench (\d+) process (\d+)", name)
        if m:
            r["groups"], r["loops"] = int(m.group(1)), int(m.group(2))
        m = re.match(r"^ctxt start-signal (-?\d+)", name)
        if m:
            r["c0"] = int(m.group(1))
        m = re.match(r"^ctxt end (-?\d+)", name)
        if m:
            r["c1"] = int(m.group(1))
        m = re.match(r"^worker rusage nvcsw (\d+) nivcsw (\d+)", name)
        if m:
            r["nvcsw"], r["nivcsw"] = int(m.group(1)), int(m.group(2))
        m = re.match(r"^rusage (senders|receivers) nvcsw (\d+) nivcsw (\d+)", name)
        if m:
            r[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        m = re.match(r"^hackbench exit (\d+)", name)
        if m:
            r["exit"] = int(m.group(1))
    for line in sec.get("run", []):
        m = re.match(r"^Time: ([\d.]+)", line)
        if m:
            r["time"] = float(m.group(1))
    r["kills"] = sum(x.startswith("Killed process") for x in sec.get("run", []))
    r["as0"] = vm(sec, "vmstat pre-hackbench", "allocstall")
    r["as1"] = vm(sec, "vmstat post-hackbench", "allocstall")
    return r


def main(paths):
    print("| log | mem MiB | groups | ICOUNT | Time s | ctxt in window | messages | messages/switch "
          "| worker nvcsw | worker nivcsw | OOM kills | allocstall pre/post | exit |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in paths:
        r = row(p)
        g = r.get("groups")
        msgs = g * 20 * 20 * r.get("loops", 100) if g else None
        d = r["c1"] - r["c0"] if "c0" in r and "c1" in r else None
        ratio = "%.2f" % (msgs / d) if msgs and d else "-"
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s/%s | %s |" % (
            r["log"], r["mem"], g, r["icount"],
            "%.3f" % r["time"] if "time" in r else "-",
            d if d is not None else "-", msgs, ratio,
            r.get("nvcsw", "-"), r.get("nivcsw", "-"), r["kills"], r["as0"], r["as1"],
            r.get("exit", "-")))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
