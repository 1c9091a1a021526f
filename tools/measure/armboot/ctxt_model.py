#!/usr/bin/env python3
"""The guest's context switches in hackbench against the model's, at the guest's speed.

    tools/measure/armboot/ctxt_model.py MMSIM LOG... [-- KEY=VALUE...]

For each run.sh log of `hackbench G process 100` that did not reclaim (MEM=64, ICOUNT=N;
ctxt.py reads them), runs `MMSIM run scenarios/seed000-arm32m-noswap-5.conf` with
machine.ram=64M, hackbench.groups=G and every CPU cost of the profile (the `*_ns` figures of
the run's JSON "profile" object) multiplied by one factor k, chosen by iteration so that the
model's Time equals the guest's, except the ARMv5 mm switch (`switch_mm_ns`, the VIVT cache
and TLB flush), which is set to 1 ns: QEMU's CPU has no caches to flush, so the guest's
switches cost their instructions only. The guest's instruction-counted clock is a CPU of
another speed than the board's, so the comparison is made at equal Time: k is a device for
the comparison, not a model input. Prints, per log, the guest's and the model's reaped workers'
voluntary and involuntary context switches, receivers and senders apart (wait4's rusage;
the model's hackbench report prints the same sums; logs made before hackbench.c split them
by role print '-' for the guest). KEY=VALUE after `--` are passed to the model as --set (e.g. to try
another split of the message's cost: hw.sock_send_ns=..., hw.sock_recv_ns=..., which are
then scaled by k like the rest). Standard library only.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ctxt import row  # noqa: E402

SCENARIO = "scenarios/seed000-arm32m-noswap-5.conf"


def run_model(mmsim, groups, costs, k, extra, *opts, ram="64M"):
    """MMSIM run of the scenario with hackbench.groups, the costs x k, the flush at 1 ns and
    the extra KEY=VALUE settings (opts: more command-line options); its JSON document."""
    args = [mmsim, "run", SCENARIO, "--quiet", "--json", "-", *opts,
            "--set", "hackbench.groups=%d" % groups, "--set", "hw.switch_mm_ns=1"]
    if ram:
        args += ["--set", "machine.ram=" + ram]
    for kv in extra:
        args += ["--set", kv]
    for f, v in costs.items():
        args += ["--set", "hw.%s=%d" % (f, max(1, round(v * k)))]
    out = subprocess.run(args, capture_output=True, text=True, check=False)
    return json.loads(out.stdout)


def run(mmsim, groups, costs, k, extra):
    d = run_model(mmsim, groups, costs, k, extra)
    text = d["result"]["text"]
    t = re.search(r"Time: ([\d.]+)", text)
    m = re.search(r"context switches: \d+ voluntary, \d+ involuntary \(receivers (\d+) and "
                  r"(\d+), senders (\d+) and (\d+)\)", text)
    if not t or not m:
        sys.exit("ctxt_model.py: no Time or switch line in the model's report:\n" + text)
    rv, rn, sv, sn = (int(x) for x in m.groups())
    return float(t.group(1)), (rv, rn), (sv, sn), d


def profile_costs(mmsim, extra):
    _, _, _, d = run(mmsim, 1, {}, 1.0, extra)
    return {f: v for f, v in d["profile"].items()
            if f.endswith("_ns") and v > 0 and f != "switch_mm_ns"}


def main(argv):
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    if len(argv) < 2:
        sys.exit(__doc__)
    mmsim, logs = argv[0], argv[1:]
    costs = profile_costs(mmsim, extra)
    print("| log | groups | ICOUNT | guest Time s | k | model Time s | voluntary, guest / model "
          "| involuntary | receivers' voluntary | receivers' involuntary | senders' voluntary "
          "| senders' involuntary |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in logs:
        r = row(p)
        if (r.get("mem") != 64 or r["icount"] in ("default", "?") or "time" not in r
                or "nvcsw" not in r):
            continue
        g, want = r["groups"], r["time"]
        k = 1.0
        for _ in range(4):  # Time is nearly proportional to k
            t = run(mmsim, g, costs, k, extra)[0]
            k *= want / t
        t, mr, ms, _ = run(mmsim, g, costs, k, extra)
        gr, gs = r.get("receivers", ("-", "-")), r.get("senders", ("-", "-"))
        print("| %s | %d | %s | %.3f | %.2f | %.3f | %d / %d | %d / %d | %s / %d | %s / %d "
              "| %s / %d | %s / %d |" % (
                  r["log"], g, r["icount"], want, k, t, r["nvcsw"], mr[0] + ms[0], r["nivcsw"],
                  mr[1] + ms[1], gr[0], mr[0], gr[1], mr[1], gs[0], ms[0], gs[1], ms[1]))


if __name__ == "__main__":
    main(sys.argv[1:])
