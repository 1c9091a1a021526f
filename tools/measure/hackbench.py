#!/usr/bin/env python3
"""Footprint of hackbench (rt-tests) per task, after fork and while messaging.

For each group count: baseline snapshots of /proc/meminfo and /proc/slabinfo; start
`hackbench -P -g G -l L`; once all but one worker are forked, SIGSTOP the parent (it has
not yet written the start byte, so every forked worker sits in poll() after its
start-up writes); snapshot every worker's smaps_rollup, status and maps and the
machine's counters; clear every worker's referenced bits (clear_refs 1); SIGCONT; during
the messaging take samples of the machine counters (the peak skbs in flight) and, after
a while, the workers' Referenced pages (what the message loop touches). Prints raw
lines; data/measured/hackbench.txt is one run of it.

usage: tools/measure/hackbench.py [GROUPS ...]   (default 1 2 5 10 20)
"""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

ROLLUP = ("Rss", "Pss", "Pss_Anon", "Pss_File", "Shared_Clean", "Shared_Dirty",
          "Private_Clean", "Private_Dirty", "Referenced", "Anonymous")
STATUS = ("VmRSS", "RssAnon", "RssFile", "VmPTE", "VmStk", "VmData", "VmExe", "VmLib")
LOOPS = {1: 3000, 2: 2000, 5: 800, 10: 400, 20: 200}


def sum_workers(pids, path, keys):
    tot = dict.fromkeys(keys, 0)
    for p in pids:
        kv = common.read_kv(path % p)
        for k in keys:
            tot[k] += kv.get(k, 0)
    return tot


def wchans(pids):
    out = {}
    for p in pids:
        try:
            with open("/proc/%d/wchan" % p) as f:
                w = f.read().strip() or "running"
        except FileNotFoundError:
            w = "gone"
        out[w] = out.get(w, 0) + 1
    return out


def vma_lines(tag, pid):
    """Per-VMA Rss, Anonymous, Private_Dirty and Referenced of one worker (kB)."""
    keys = ("Rss", "Anonymous", "Private_Dirty", "Referenced")
    cur, vals = None, {}
    try:
        with open("/proc/%d/smaps" % pid) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return
    for line in lines + ["end"]:
        head = line.split()[0] if line.split() else ""
        if "-" in head or line == "end":
            if cur and vals.get("Rss", 0):
                print("%s vma %-40s %s" % (tag, cur, " ".join(
                    "%s %d" % (k, vals.get(k, 0)) for k in keys)))
            if line != "end":
                p = line.split()
                cur = "%s %s" % (p[1], os.path.basename(p[5]) if len(p) > 5 else "[anon]")
                vals = {}
        elif head.rstrip(":") in keys:
            vals[head.rstrip(":")] = int(line.split()[1])


def run(groups):
    loops = LOOPS.get(groups, 200)
    m0, s0 = common.meminfo(), common.slabinfo()
    proc = subprocess.Popen(["hackbench", "-P", "-g", str(groups), "-l", str(loops)],
                            stdout=subprocess.PIPE, text=True)
    want = 40 * groups - 1
    kids = []
    while proc.poll() is None:
        kids = common.children(proc.pid)
        if len(kids) >= want:
            os.kill(proc.pid, signal.SIGSTOP)
            break
    time.sleep(0.5)
    kids = common.children(proc.pid)
    n = len(kids)
    print("groups %d loops %d workers_forked %d" % (groups, loops, n))
    print("after_fork wchan %s" % sorted(wchans(kids).items()))
    m1, s1 = common.meminfo(), common.slabinfo()
    common.print_delta("after_fork", m0, m1, s0, s1, per=n)
    roll = sum_workers(kids, "/proc/%d/smaps_rollup", ROLLUP)
    st = sum_workers(kids, "/proc/%d/status", STATUS)
    for k in ROLLUP:
        print("after_fork smaps_rollup %s total_kB %d per_task_kB %.2f" % (k, roll[k],
                                                                        roll[k] / n))
    for k in STATUS:
        print("after_fork status %s total_kB %d per_task_kB %.2f" % (k, st[k], st[k] / n))
    maps = [common.nr_maps(p) for p in kids]
    print("after_fork maps per_task min %d max %d" % (min(maps), max(maps)))
    print("parent maps %d" % common.nr_maps(proc.pid))
    with open("/proc/%d/maps" % kids[-1]) as f:
        for line in f:
            print("worker_map " + line.rstrip())
    vma_lines("after_fork receiver", kids[0])
    vma_lines("after_fork sender", kids[20])
    for p in kids:
        try:
            with open("/proc/%d/clear_refs" % p, "w") as f:
                f.write("1")
        except (FileNotFoundError, ProcessLookupError):
            pass
    os.kill(proc.pid, signal.SIGCONT)
    peak = {}
    t0 = time.time()
    samples = 0
    ref = None
    while proc.poll() is None and samples < 40:
        time.sleep(0.05)
        m2, s2 = common.meminfo(), common.slabinfo()
        samples += 1
        d = (s2.get("skbuff_head_cache", (0,))[0] - s1.get("skbuff_head_cache", (0,))[0])
        if d > peak.get("skb", (-1,))[0]:
            peak["skb"] = (d, m2, s2)
        if ref is None and time.time() - t0 > 0.4:
            ref = sum_workers(kids, "/proc/%d/smaps_rollup", ROLLUP)
            alive = sum(1 for p in kids if os.path.exists("/proc/%d" % p))
            refst = sum_workers(kids, "/proc/%d/status", STATUS)
            vma_lines("messaging receiver", kids[0])
            vma_lines("messaging sender", kids[20])
    if "skb" in peak:
        d, m2, s2 = peak["skb"]
        print("messaging peak skbuff_head_cache_delta %d (samples %d)" % (d, samples))
        common.print_delta("messaging_vs_after_fork", m1, m2, s1, s2,
                           per=d if d > 0 else None)
    if ref is not None:
        print("messaging referenced sample: %d workers alive" % alive)
        for k in ("Referenced", "Anonymous", "Rss", "Private_Dirty"):
            print("messaging smaps_rollup %s total_kB %d per_task_kB %.2f" %
                  (k, ref[k], ref[k] / max(alive, 1)))
        for k in ("RssAnon", "RssFile"):
            print("messaging status %s total_kB %d per_task_kB %.2f" %
                  (k, refst[k], refst[k] / max(alive, 1)))
    out = proc.communicate()[0]
    for line in out.splitlines():
        print("hackbench_output " + line)
    print()


def main():
    common.need_root()
    common.ensure_tool("hackbench", "rt-tests")
    print("# uname %s" % " ".join(os.uname()))
    print("# page_size %d" % os.sysconf("SC_PAGE_SIZE"))
    for g in [int(x) for x in sys.argv[1:]] or [1, 2, 5, 10, 20]:
        run(g)


if __name__ == "__main__":
    main()
