#!/usr/bin/env python3
"""hackbench's memory while it messages, as a function of the group count.

For each group count G (and each mode: AF_UNIX sockets, the default, and pipes, -p):
a baseline snapshot of /proc/meminfo, every /proc/slabinfo cache and /proc/net/sockstat;
then `hackbench -P -g G -l L` runs while this script samples the same files every
SAMPLE_S seconds until it exits. Printed per run, raw:
  - `forked`: the counters once all 40*G workers exist (before most messages flow);
  - `peak`: each meminfo counter's largest excursion from the baseline during the run
    (MemFree: its largest drop), and the slab caches at the sample where
    skbuff_head_cache (sockets) or the pipe pages (AnonPages is not involved; pipes use
    whole pages, counted in MemFree only) peak;
  - per cache: objects and bytes (num_objs * objsize) deltas, so the in-flight skbs and
    any per-socket object are seen without assuming the cache names.
A summary at the end fits delta = a + b * workers by least squares over the group counts
for each counter, so b is the per-worker memory and 40 b the per-group memory; the
residuals show how far the host's other load disturbs the figures (the machine is
shared: MemFree is the noisiest, the slab and per-task counters the least).
data/measured/hackbench_msg.txt is one run.

usage: tools/measure/hackbench_msg.py [--loops-total M] [GROUPS ...]   (default 5 10 20 40 80)
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

SAMPLE_S = 0.02
KEYS = ("MemFree", "AnonPages", "KernelStack", "PageTables", "Slab", "SUnreclaim",
        "SReclaimable", "Percpu", "Cached", "Shmem", "VmallocUsed")
# messages per run (groups * 400 * loops): long enough to sample the steady state
MESSAGES = 8_000_000


def meminfo():
    return common.meminfo(KEYS)


def slabs():
    """every cache: name -> (num_objs, objsize)"""
    return {k: (v[1], v[2]) for k, v in common.slabinfo(None).items()}


def sockstat():
    out = {}
    with open("/proc/net/sockstat") as f:
        for line in f:
            k, rest = line.split(":", 1)
            v = rest.split()
            for i in range(0, len(v) - 1, 2):
                out["%s.%s" % (k, v[i])] = int(v[i + 1])
    return out


def slab_delta(s0, s1):
    out = {}
    for k, (n, size) in s1.items():
        n0 = s0.get(k, (0, size))[0]
        if n != n0:
            out[k] = (n - n0, (n - n0) * size, size)
    return out


def run(groups, pipes, total):
    loops = max(100, total // (groups * 400))
    argv = ["hackbench", "-P", "-g", str(groups), "-l", str(loops)] + (["-p"] if pipes else [])
    mode = "pipe" if pipes else "socket"
    time.sleep(1.0)  # let the previous run's memory settle
    m0, s0, k0 = meminfo(), slabs(), sockstat()
    t0 = time.time()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    want = 40 * groups
    forked = None
    peak = {k: 0 for k in KEYS}
    best = (-1, None, None, None)  # (skb objects or MemFree drop, meminfo, slabs, sockstat)
    samples = 0
    while proc.poll() is None:
        m, s = meminfo(), slabs()
        samples += 1
        for k in KEYS:
            d = (m0[k] - m[k]) if k == "MemFree" else (m[k] - m0[k])
            peak[k] = max(peak[k], d)
        if forked is None and len(common.children(proc.pid)) >= want:
            forked = (time.time() - t0, m, s, sockstat())
        key = (s.get("skbuff_head_cache", (0, 0))[0] - s0.get("skbuff_head_cache", (0, 0))[0]
               if not pipes else m0["MemFree"] - m["MemFree"])
        if forked is not None and key > best[0]:
            best = (key, m, s, sockstat())
        time.sleep(SAMPLE_S)
    out = proc.communicate()[0]
    secs = [line.split()[1] for line in out.splitlines() if line.startswith("Time:")]
    n = want
    print("run mode %s groups %d workers %d loops %d samples %d wall_s %.2f time %s" %
          (mode, groups, n, loops, samples, time.time() - t0, secs[0] if secs else "-"))
    for k in KEYS:
        print("peak %s %s groups %d delta_kB %d per_worker_kB %.2f" %
              (mode, k, groups, peak[k], peak[k] / n))
    for tag, snap in (("forked", forked), ("at_peak", best[1:] if best[1] else None)):
        if snap is None:
            print("%s %s groups %d: not sampled" % (tag, mode, groups))
            continue
        m, s, k = snap[-3], snap[-2], snap[-1]
        for key in KEYS:
            d = (m[key] - m0[key])
            print("%s %s meminfo %s groups %d delta_kB %d per_worker_kB %.2f" %
                  (tag, mode, key, groups, d, d / n))
        for name, (dn, db, size) in sorted(slab_delta(s0, s).items(), key=lambda x: -x[1][1]):
            if abs(db) >= 64 * 1024:
                print("%s %s slab %s groups %d objsize %d delta_objs %d delta_kB %d "
                      "per_worker_objs %.3f per_worker_kB %.3f" %
                      (tag, mode, name, groups, size, dn, db // 1024, dn / n, db / 1024 / n))
        for key in sorted(k):
            if k[key] != k0.get(key, 0):
                print("%s %s sockstat %s groups %d delta %d" %
                      (tag, mode, key, groups, k[key] - k0.get(key, 0)))
    if best[1] is not None and not pipes:
        print("at_peak %s skbs_in_flight groups %d %d per_connection %.1f" %
              (mode, groups, best[0], best[0] / (20 * groups)))
    for line in out.splitlines():
        print("hackbench_output %s groups %d %s" % (mode, groups, line))
    sys.stdout.flush()
    return peak


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    a = my - b * mx
    res = max(abs(y - (a + b * x)) for x, y in zip(xs, ys))
    return a, b, res


def main():
    common.need_root()
    common.ensure_tool("hackbench", "rt-tests")
    args = sys.argv[1:]
    total = MESSAGES
    if args[:1] == ["--loops-total"]:
        total, args = int(args[1]), args[2:]
    groups = [int(x) for x in args] or [5, 10, 20, 40, 80]
    print("# uname %s" % " ".join(os.uname()))
    print("# page_size %d" % os.sysconf("SC_PAGE_SIZE"))
    for f in ("/proc/sys/net/core/wmem_default", "/proc/sys/net/core/rmem_default"):
        with open(f) as fh:
            print("# %s %s" % (f, fh.read().strip()))
    results = {}
    for pipes in (False, True):
        for g in groups:
            results[(pipes, g)] = run(g, pipes, total)
    for pipes in (False, True):
        mode = "pipe" if pipes else "socket"
        xs = [40 * g for g in groups]
        for k in KEYS:
            ys = [results[(pipes, g)][k] for g in groups]
            a, b, res = fit(xs, ys)
            print("fit %s peak %s intercept_kB %.0f per_worker_kB %.2f per_group_kB %.1f "
                  "max_residual_kB %.0f" % (mode, k, a, b, 40 * b, res))


if __name__ == "__main__":
    main()
