#!/usr/bin/env python3
"""How full hackbench's sockets are over a run: skbs in flight sampled every ~2 ms.

hackbench_msg.py reads all of /proc/slabinfo per sample (tens of ms with thousands of
tasks), too slow to see the first milliseconds after the start signal, when every sender
may fill its sockets before the receivers run. This script reads only the SLUB sysfs
count of skbuff_head_cache objects in use (one small file) while `hackbench -P -g G -l L`
runs, and prints per run: the baseline, the peak and when it occurred (seconds after the
last worker was forked), and the fill per connection (skbs / (20 G)) at the peak, and at
the 50th and 90th percentiles of the samples taken after the workers were all forked.
With 100-byte writes each skb is one message, so the fill is also in messages; the
socket's limit is printed by skb.py (278 on this kernel). data/measured/hackbench_fill.txt
is one run.

usage: tools/measure/hackbench_fill.py [GROUPS ...]   (default 5 10 20 40 80)
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

OBJ = "/sys/kernel/slab/skbuff_head_cache/objects"
MESSAGES = 4_000_000


def objects():
    with open(OBJ) as f:
        return int(f.read().split()[0])


def run(groups):
    loops = max(100, MESSAGES // (groups * 400))
    time.sleep(1.0)
    base = min(objects() for _ in range(20))
    proc = subprocess.Popen(["hackbench", "-P", "-g", str(groups), "-l", str(loops)],
                            stdout=subprocess.PIPE, text=True)
    t_forked = None
    samples = []
    next_check = 0.0
    while proc.poll() is None:
        now = time.time()
        if t_forked is None and now >= next_check:
            next_check = now + 0.005
            if len(common.children(proc.pid)) >= 40 * groups:
                t_forked = now
        if t_forked is not None:
            samples.append((now - t_forked, objects() - base))
        time.sleep(0.002)
    out = proc.communicate()[0]
    conns = 20 * groups
    secs = [line.split()[1] for line in out.splitlines() if line.startswith("Time:")]
    if not samples:
        print("groups %d: no samples after fork" % groups)
        return
    peak_t, peak = max(samples, key=lambda s: s[1])
    vals = sorted(v for _, v in samples)
    p50 = vals[len(vals) // 2]
    p90 = vals[int(len(vals) * 0.9)]
    print("groups %d workers %d loops %d time %s samples %d baseline_objs %d peak_skbs %d "
          "at_s %.3f peak_per_connection %.1f p50_per_connection %.1f "
          "p90_per_connection %.1f" % (groups, 40 * groups, loops, secs[0] if secs else "-",
                                       len(samples), base, peak, peak_t, peak / conns,
                                       p50 / conns, p90 / conns))
    # the first 50 ms after the last fork, 5 ms apart: the start transient
    head = [(t, v) for t, v in samples if t < 0.05]
    shown, last = [], -1.0
    for t, v in head:
        if t - last >= 0.005:
            shown.append("%.3f:%.1f" % (t, v / conns))
            last = t
    print("groups %d first_50ms per_connection %s" % (groups, " ".join(shown)))
    sys.stdout.flush()


def main():
    common.need_root()
    common.ensure_tool("hackbench", "rt-tests")
    if not os.path.exists(OBJ):
        sys.exit("needs SLUB's sysfs (%s)" % OBJ)
    print("# uname %s" % " ".join(os.uname()))
    for g in [int(x) for x in sys.argv[1:]] or [5, 10, 20, 40, 80]:
        run(g)


if __name__ == "__main__":
    main()
