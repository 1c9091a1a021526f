#!/usr/bin/env python3
"""Speed of mmsim's implementation over a stretch of history, with the model held fixed.

  bench/chain.py [--from REV] [--to REV] [--runs N] SCENARIO [--set KEY=VALUE ...]
  bench/chain.py --pairs OLD..NEW[,OLD..NEW...] [--runs N] SCENARIO [--set KEY=VALUE ...]

A speed-up is only measured when both builds give the same answer: between commits that move
results, a run's CPU time also changes with the work simulated. So the first-parent history
FROM..TO is cut into segments over which SCENARIO's line of tests/golden/run-json.sha256 (the
hash of its `run --json`) stays the same. For each segment the script builds its first and last
commit (bench/compare.py's build_rev), runs SCENARIO (each commit's own copy of the file, with
the --set options) under both, checks the two outputs are byte-identical past the version line,
and times them in turn, A B A B ... (the median of the pairs' CPU-time ratios). The product of
the segments' ratios is the implementation's speed-up over the stretch, the model's changes
left out. A segment whose outputs differ is reported and left out of the product. Benchmarks,
not tests: nothing here passes or fails.
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import ROOT, build_rev, pair  # noqa: E402

GOLDEN = "tests/golden/run-json.sha256"


def git(*args):
    return subprocess.check_output(["git", "-C", ROOT] + list(args), text=True)


def golden_line(rev, scenario):
    try:
        text = git("show", rev + ":" + GOLDEN)
    except subprocess.CalledProcessError:
        return None
    for line in text.splitlines():
        if line.endswith("scenarios/" + scenario):
            return line.split()[0]
    return None


def segments(first, last, scenario):
    revs = git("rev-list", "--first-parent", "--reverse", first + "^.." + last).split()
    segs, start, prev, prev_key = [], None, None, None
    for rev in revs:
        key = golden_line(rev, scenario)
        if key is None:
            continue
        if key != prev_key:
            if start is not None:
                segs.append((start, prev))
            start = rev
        prev, prev_key = rev, key
    if start is not None:
        segs.append((start, prev))
    return [s for s in segs if s[0] != s[1]]


def output_of(exe, src, scenario, sets):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [exe, "run", os.path.join(src, "scenarios", scenario), "--seed", "1", "--quiet",
               "--json", out.name] + sets
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # the version line names the build and "file" the copy read; the rest must match
        return [line for line in open(out.name) if '"mmsim_version"' not in line and '"file":' not in line]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenario", help="a file name under scenarios/, e.g. seed004-v1-fsmark.conf")
    ap.add_argument("--from", dest="first", default="0fe329b")
    ap.add_argument("--to", dest="last", default="HEAD")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--set", action="append", default=[], help="KEY=VALUE for every run")
    ap.add_argument("--pairs", help="OLD..NEW[,OLD..NEW...]: measure these pairs instead of the "
                    "first-parent segments (a speed-up made on a branch whose merge also moved "
                    "results); each is still checked byte-identical")
    a = ap.parse_args()
    sets = [x for kv in a.set for x in ("--set", kv)]
    product = 1.0
    print("| segment | commits | A CPU s | B CPU s | A/B |")
    print("|---|---|---|---|---|")
    segs = ([tuple(p.split("..")) for p in a.pairs.split(",")] if a.pairs
            else segments(a.first, a.last, a.scenario))
    for first, last in segs:
        n = len(git("rev-list", "--first-parent", first + ".." + last).split())
        ea, sa = build_rev(last)
        eb, sb = build_rev(first)
        srca, srcb = os.path.dirname(os.path.dirname(ea)), os.path.dirname(os.path.dirname(eb))
        oa, ob = output_of(ea, srca, a.scenario, sets), output_of(eb, srcb, a.scenario, sets)
        if not oa or oa != ob:
            print(f"| {sb[:8]}..{sa[:8]} | {n} | - | - | outputs differ: left out |")
            continue
        cmd = lambda exe, src: [exe, "run", os.path.join(src, "scenarios", a.scenario),
                                "--seed", "1"] + sets
        ta, tb, r = pair(cmd(ea, srca), cmd(eb, srcb), a.runs)
        product *= r
        print(f"| {sb[:8]}..{sa[:8]} | {n} | {ta:.2f} | {tb:.2f} | {r:.3f} |", flush=True)
    print(f"\nproduct of the ratios: {product:.3f} ({1 / product:.2f}x less CPU)")


if __name__ == "__main__":
    main()
