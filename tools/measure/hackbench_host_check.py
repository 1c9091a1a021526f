#!/usr/bin/env python3
"""Does the model count hackbench's work per message right? A check on this host.

The seed-000 board's absolute time rests on two things: what the model does per message
(system calls, socket and skb work, wakeups, switches) and what each of those costs on
the board. The costs of the board are not measurable here, but the work is: this script
prices the model with this host's own costs (`mmsim calibrate`, its nine lmbench-style
figures) and runs it on a machine shaped like the measurement (one CPU, memory enough
that nothing reclaims), then runs the real hackbench (rt-tests) pinned to one CPU of
this host with the same groups and loops. If the model's Time is close to the host's,
the per-message accounting is right and a gap on the board lies in the board's costs.

Printed raw, one line per run: host Time (hackbench's own figure), system and user
seconds (/usr/bin/time), context switches (perf stat, when perf can count them); the
model's Time, system and user seconds and context switches. data/measured/
hackbench_host_check.txt is one run of it.

usage: tools/measure/hackbench_host_check.py [--mmsim PATH] [--runs N] [G:L ...]
       (default build/mmsim, 3 runs, 5:100 5:1000 5:2000 10:100 20:100)
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIO = os.path.join(ROOT, "scenarios", "seed000-arm32m-noswap-5.conf")
CPU = "1"  # the host CPU hackbench is pinned to (the board has one)


def calibrate(mmsim):
    out = subprocess.run([mmsim, "calibrate"], capture_output=True, text=True,
                         check=True).stdout
    print("".join("# " + line + "\n" for line in out.splitlines()), end="")
    return re.findall(r"^(hw\.\w+) = (\d+)", out, re.M)


def host_run(groups, loops):
    cmd = ["taskset", "-c", CPU, "hackbench", "-P", "-g", str(groups), "-l", str(loops)]
    perf = subprocess.call(["sh", "-c", "command -v perf >/dev/null"]) == 0
    if perf:
        cmd = ["perf", "stat", "-x,", "-e", "context-switches"] + cmd
    cmd = ["/usr/bin/time", "-f", "TIMES %S %U"] + cmd
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    text = p.stdout + p.stderr
    t = re.search(r"^Time: ([\d.]+)", text, re.M).group(1)
    sys_s, user_s = re.search(r"^TIMES ([\d.]+) ([\d.]+)", text, re.M).groups()
    cs = re.search(r"^(\d+),,context-switches", text, re.M)
    return t, sys_s, user_s, cs.group(1) if cs else "-"


def model_run(mmsim, costs, groups, loops):
    cmd = [mmsim, "run", SCENARIO, "--set", "machine.profile=x86_64-2008",
           "--set", "machine.ram=2G", "--set", "hackbench.groups=%d" % groups,
           "--set", "hackbench.loops=%d" % loops]
    for k, v in costs:
        cmd += ["--set", "%s=%s" % (k, v)]
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    t = re.search(r"^Time: ([\d.]+)", text, re.M).group(1)
    sys_s = re.search(r"System time \(seconds\): ([\d.]+)", text).group(1)
    user_s = re.search(r"User time \(seconds\): ([\d.]+)", text).group(1)
    cs = re.search(r"(\d+) context switches", text).group(1)
    return t, sys_s, user_s, cs


def main():
    args = sys.argv[1:]
    mmsim, runs = os.path.join(ROOT, "build", "mmsim"), 3
    while args and args[0].startswith("--"):
        if args[0] == "--mmsim" and len(args) > 1:
            mmsim, args = args[1], args[2:]
        elif args[0] == "--runs" and len(args) > 1:
            runs, args = int(args[1]), args[2:]
        else:
            sys.exit(__doc__.strip().splitlines()[-2])
    points = [tuple(int(x) for x in a.split(":")) for a in args] or \
        [(5, 100), (5, 1000), (5, 2000), (10, 100), (20, 100)]
    common.ensure_tool("hackbench", "rt-tests")
    print("# uname %s" % " ".join(os.uname()))
    costs = calibrate(mmsim)
    for g, loops in points:
        m = model_run(mmsim, costs, g, loops)
        print("model groups %d loops %d time %s sys %s user %s cs %s" % ((g, loops) + m))
        for _ in range(runs):
            h = host_run(g, loops)
            print("host groups %d loops %d time %s sys %s user %s cs %s" % ((g, loops) + h),
                  flush=True)


if __name__ == "__main__":
    main()
