#!/usr/bin/env python3
"""The real kernel's OOM kills at 32 MiB against the model's, at the guest's speed.

    tools/measure/armboot/oom_model.py MMSIM [SEEDS]

The real side: the instruction-counted runs of data/measured/armboot/throttle/ (vanilla and
the RFC throttle, `hackbench 5|6 process 100` on v2.6.25-rc1 with 32 MiB, ICOUNT = N, one
run each; the `-debug` kernels are left out), killed or not. The model's side:
`MMSIM run scenarios/seed000-arm32m-noswap-5.conf` with hackbench.groups = G, the throttle arm
with vm.max_reclaiming_tasks=2, the profile's CPU costs multiplied by k_N and the ARMv5 flush
at 1 ns (QEMU's CPU has none), SEEDS seeds (default 5), runs with an OOM kill counted.
k_5 makes the model's 5-group Time at 64 MiB equal the guest's at ICOUNT=5
(data/measured/armboot/ctxt/mem64-hb5-ic5.log.zst, as ctxt_model.py does), and k_N =
k_5 x 2^(N-5): each step of N halves the guest's instructions a second. Standard library only.
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from ctxt import row  # noqa: E402
from ctxt_model import profile_costs, run, run_model  # noqa: E402

DATA = os.path.join(here, "..", "..", "..", "data", "measured", "armboot")


def killed_model(mmsim, groups, costs, k, seed, extra):
    d = run_model(mmsim, groups, costs, k, extra, "--seed", str(seed), ram=None)
    return d["reclaim"]["oom_kills"] > 0


def main(argv):
    if not argv:
        sys.exit(__doc__)
    mmsim, seeds = argv[0], int(argv[1]) if len(argv) > 1 else 5
    costs = profile_costs(mmsim, [])
    want = row(os.path.join(DATA, "ctxt", "mem64-hb5-ic5.log.zst"))["time"]
    k5 = 1.0
    for _ in range(4):
        k5 *= want / run(mmsim, 5, costs, k5, [])[0]
    print("k_5 = %.3f (the model's 5-group Time at 64 MiB = the guest's %.3f s at ICOUNT=5)"
          % (k5, want))
    print("| arm | groups | ICOUNT | guest killed | model runs killed |")
    print("|---|---|---|---|---|")
    for arm, extra in (("vanilla", []), ("throttle", ["vm.max_reclaiming_tasks=2"])):
        for g in (5, 6):
            for n in range(1, 7):
                log = os.path.join(DATA, "throttle", "%s-slub-nofb-ic%d-hb%d-1.log.zst"
                                   % (arm, n, g))
                if not os.path.exists(log):
                    continue
                real = row(log)["kills"] > 0
                k = k5 * 2 ** (n - 5)
                got = sum(killed_model(mmsim, g, costs, k, s, extra)
                          for s in range(1, seeds + 1))
                print("| %s | %d | %d | %s | %d of %d |" % (
                    arm, g, n, "yes" if real else "no", got, seeds))


if __name__ == "__main__":
    main(sys.argv[1:])
