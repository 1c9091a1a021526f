#!/usr/bin/env python3
"""The seed-002 progress timing: Wu Fengguang's table (2009-06-08, benchmarks.md §5) beside the
model's, step by step, before (vm.reclaim_exec_protect=0) and after (=1), the model's figures
the mean over seeds 1..RUNS.
usage: scripts/seed002_progress.py MMSIM RUNS SCENARIO [EXTRA]  (EXTRA: ",key=value..." for both)"""
import json
import re
import subprocess
import sys

# (before, after, program) as the thread prints them
THREAD = """0.02 0.02 xeyes|0.75 0.76 firefox|2.02 1.88 nautilus|3.36 3.17 nautilus --browser|
5.26 4.89 gthumb|7.12 6.47 gedit|9.22 8.16 xpdf|13.58 12.55 xterm|15.87 14.57 mlterm|
18.63 17.06 gnome-terminal|21.16 18.90 urxvt|26.24 23.48 gnome-system-monitor|
28.72 26.52 gnome-help|32.15 29.65 gnome-dictionary|39.66 36.12 sol|43.16 39.27 gnometris|
48.65 42.56 gnect|53.31 47.03 gtali|58.60 52.05 iagno|65.77 55.42 gnotravex|
70.76 61.47 mahjongg|76.15 67.11 gnome-sudoku|86.32 75.15 glines|92.21 79.70 glchess|
103.79 88.48 gnomine|113.84 96.51 gnotski|124.40 102.19 gnibbles|137.41 114.93 gnobots2|
155.53 125.02 blackjack|179.85 135.11 same-gnome|224.49 154.50 gnome-window-properties|
248.44 162.09 gnome-default-applications-properties|282.62 173.29 gnome-at-properties|
323.72 188.21 gnome-typing-monitor|363.99 199.93 gnome-at-visual|
394.21 206.95 gnome-sound-properties|435.14 224.49 gnome-at-mobility|
463.05 234.11 gnome-keybinding-properties|503.75 248.59 gnome-about-me|
554.00 276.27 gnome-display-properties|615.48 304.39 gnome-network-preferences|
693.03 342.01 gnome-mouse-properties|759.90 388.58 gnome-appearance-properties|
937.90 508.47 gnome-control-center|1109.75 587.57 gnome-keyboard-properties|
1399.05 758.16 : oocalc|1524.64 830.03 : oodraw|1684.31 900.03 : ooimpress|
1874.04 993.91 : oomath|2115.12 1081.89 : ooweb|2369.02 1161.99 : oowriter"""
thread = [r.strip().split(" ", 2) for r in THREAD.replace("\n", "").split("|")]


def steps(mmsim, scenario, protect, seed, extra):
    sets = ["--set", "vm.reclaim_exec_protect=%d" % protect]
    for kv in filter(None, extra.split(",")):  # SEED002_ARM: ",key=value,..."
        sets += ["--set", kv]
    out = subprocess.run([mmsim, "run", scenario, "--seed", str(seed), "--quiet", "--json", "-"] +
                         sets, check=True, capture_output=True, text=True).stdout
    text = json.loads(out)["result"]["text"]
    return [float(m.group(1)) for m in re.finditer(r"^ *([0-9.]+)    N ", text, re.M)]


def main():
    mmsim, runs, scenario = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    extra = sys.argv[4] if len(sys.argv) > 4 else ""
    model = {}
    for protect in (0, 1):
        per_seed = [steps(mmsim, scenario, protect, s, extra) for s in range(1, runs + 1)]
        n = min(len(x) for x in per_seed)
        model[protect] = [sum(x[k] for x in per_seed) / runs for k in range(n)]
    print("%-40s %9s %9s %9s %9s" % ("step", "thr.bef", "thr.aft", "mod.bef", "mod.aft"))
    for k, (b, a, name) in enumerate(thread):
        mb = "%9.2f" % model[0][k] if k < len(model[0]) else "%9s" % "-"
        ma = "%9.2f" % model[1][k] if k < len(model[1]) else "%9s" % "-"
        print("%-40s %9s %9s %s %s" % (name[:40], b, a, mb, ma))


main()
