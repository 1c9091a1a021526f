#!/usr/bin/env python3
"""Socket buffers in flight: the real kernel's slab during hackbench against the model's.

    tools/measure/armboot/slab_model.py MMSIM LOG [-- KEY=VALUE...]

LOG is a run.sh log of MODE hbsnap:G:MS:m (meminfo's Slab: every MS ms while hackbench G
process 100 runs; MEM=64 and ICOUNT=N, so nothing reclaims and the guest's speed is fixed).
The guest's figure is Slab: less the slab it held before hackbench started (the first
snapshot's, the workers' task structures not yet made) and less the workers' task slab at
the model's size: what is left is the skbs in flight. The model's side: MMSIM run
scenarios/seed000-arm32m-noswap-5.conf with 64 MiB, hackbench.groups=G, the profile's CPU
costs x k (k makes the model's Time the guest's, as ctxt_model.py finds it) and the ARMv5
flush at 1 ns, sampled every MS ms: slab pages less those at the start signal's sample.
Prints the median, 90th percentile and maximum of each over the samples taken while the
skbs were more than 64 KiB. KEY=VALUE after `--` are passed to the model as --set.
"""
import os
import re
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from ctxt_model import profile_costs, run_model  # noqa: E402
from summary import read_log  # noqa: E402

def model(mmsim, groups, costs, k, ms, extra):
    d = run_model(mmsim, groups, costs, k, extra, "--sample", "%dms" % ms)
    text = d["result"]["text"]
    t = float(re.search(r"Time: ([\d.]+)", text).group(1))
    per = re.search(r"task slab (\d+) pages", text)
    slab = [(r["nr_slab_unreclaimable"] + r["nr_slab_reclaimable"]) * 4 for r in d["samples"]]
    return t, slab, int(per.group(1)) * 4 if per else 0


def stats(v):
    v = [x for x in v if x > 64]
    if not v:
        return "no samples"
    s = sorted(v)
    return "median %d kB, p90 %d kB, max %d kB (%d samples)" % (
        statistics.median(s), s[int(0.9 * (len(s) - 1))], s[-1], len(s))


def main(argv):
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    if len(argv) != 2:
        sys.exit(__doc__)
    mmsim, log = argv
    text = read_log(log)
    m = re.search(r"hackbench (\d+) process 100 \(with schedsnap every (\d+) ms", text)
    g, ms = int(m.group(1)), int(m.group(2))
    want = float(re.findall(r"^Time: ([\d.]+)$", text, re.M)[-1])
    guest = [int(x) for x in re.findall(r"=== snap [\d.]+\n(?:MemFree:.*\n)?Slab:\s+(\d+) kB",
                                        text)]
    costs = profile_costs(mmsim, extra)
    k = 1.0
    for _ in range(4):
        k *= want / model(mmsim, g, costs, k, ms, extra)[0]
    t, slab, task = model(mmsim, g, costs, k, ms, extra)
    base_model = slab[0] + task
    base_guest = guest[0] + task
    print("guest: %d groups, Time %.3f s; model: k %.3f, Time %.3f s; task slab %d kB"
          % (g, want, k, t, task))
    print("skbs in flight, guest: " + stats([x - base_guest for x in guest]))
    print("skbs in flight, model: " + stats([x - base_model for x in slab]))


if __name__ == "__main__":
    main(sys.argv[1:])
