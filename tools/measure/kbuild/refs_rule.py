"""The rule that turns cc1refs.py's measurement into the compile jobs' reference parameters
(docs/kbuild-measured.md, "References inside a compile job"); table.py applies it.

A model step (kbuild.step, 1 ms of the 933 MHz PIII) holds W1 = instructions / (cc1_cpu_ms x
2.78) of a job's cc1 instructions (kbuild.cpu_scale = 278, the clock ratio). Each job was
measured in windows of W on a grid of 2^(k/2) instructions; its windows of the grid size
nearest W1 (within a factor 2^(1/4)) stand for its steps, their counts carried to W1 along
the job's own curve (distinct pages per window against W between the two grid sizes around
W1, a power law).

  heap_refs: the mean, over every full window of every job (each window is one step of a
             job, so the pool is weighted by CPU as a build is), of the distinct heap pages
             it referenced that were born before it (its growth the model touches apart).
  gaps:      the reuse gaps of those references, pooled over the jobs: for each, the steps
             since the window that last referenced the page (the grid windows' count times
             W / W1, rounded, at least 1), in bins of gap_lo.
  text:      every file-backed page (cc1 and its libraries) any sampled job referenced.
  text_refs: the mean, over the same windows, of draws(D, T): T = the text's pages, D = the
             window's distinct file-backed pages; n uniform draws with replacement from T pages
             reach T (1 - (1 - 1/T)^n) distinct on average, so D distinct are worth
             draws(D, T) = ln(1 - D/T) / ln(1 - 1/T) of them (the model draws the text so)."""
import collections
import csv
import math
import statistics

PAGE_KB = 4
# reuse-gap bins in steps: [1], [2], [3], [4], [5, 6], ..., [193, 255], [256 and more]
GAP_LO = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 256]


def draws(d, g):
    """uniform draws with replacement from g pages that give d distinct pages on average"""
    if g <= 1 or d <= 0:
        return float(d)
    d = min(d, g - 0.5)
    return math.log(1 - d / g) / math.log(1 - 1 / g)


def exponents(curve_csv, jobs):
    """per job: d ln(distinct) / d ln(W) of heap_old and text between the grid sizes around W1"""
    by = collections.defaultdict(dict)
    for c in csv.DictReader(open(curve_csv)):
        by[c["source"]][int(c["w"])] = (float(c["heap_old"]), float(c["text"]))
    out = {}
    for src, j in jobs.items():
        w1, ws = j["w1"], sorted(by[src])
        lo = max([w for w in ws if w <= w1] or ws[:1])
        hi = min([w for w in ws if w > w1] or ws[-1:])
        if hi == lo:
            out[src] = (1.0, 1.0)
            continue
        r = math.log(hi / lo)
        out[src] = tuple(math.log(max(by[src][hi][i], 1) / max(by[src][lo][i], 1)) / r
                         for i in (0, 1))
    return out


def derive(prefix):
    """heap_refs, text_refs, text kB, and the gap bins' reference counts, from the files
    cc1refs.py wrote as PREFIX-{jobs,windows,curve,gaps,text}.csv"""
    jobs = {r["source"]: dict(w1=int(r["step_instructions"]), wk=int(r["grid_w"]))
            for r in csv.DictReader(open(prefix + "-jobs.csv"))}
    text_pages = sum(1 for _ in csv.DictReader(open(prefix + "-text.csv")))
    ex = exponents(prefix + "-curve.csv", jobs)
    heap, text = [], []
    for w in csv.DictReader(open(prefix + "-windows.csv")):
        if w["full"] != "1":
            continue
        j = jobs[w["source"]]
        f = j["w1"] / int(w["w"])
        eh, et = ex[w["source"]]
        heap.append(int(w["heap_old"]) * f ** eh)
        text.append(draws(int(w["text"]) * f ** et, text_pages))
    bins = [0] * len(GAP_LO)
    for g in csv.DictReader(open(prefix + "-gaps.csv")):
        j = jobs[g["source"]]
        steps = max(1, round(int(g["gap_windows"]) * j["wk"] / j["w1"]))
        b = max(i for i, lo in enumerate(GAP_LO) if steps >= lo)
        bins[b] += int(g["references"])
    return round(statistics.mean(heap)), round(statistics.mean(text)), text_pages * PAGE_KB, bins
