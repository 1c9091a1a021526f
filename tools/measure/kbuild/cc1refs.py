#!/usr/bin/env python3
"""Summarises cc1refs.sh's raw output (docs/kbuild-measured.md, "References inside a compile
job").

usage: cc1refs.py RAWDIR JOBS.csv OUTPREFIX
RAWDIR: cc1refs.sh's NAME.out/.gc/.time files (or gccera-text.sh's NAME.out alone: then the
collections and the native CPU are left blank and no window is marked as in a collection);
JOBS.csv: data/measured/kbuild/jobs-2.6.24-i386.csv (cc1's CPU of each job as the model
replays it). Writes
  OUTPREFIX-jobs.csv     one row per job: instructions, CPU, the model step's instructions,
                         pages, collections, and the window statistics at one model step
  OUTPREFIX-windows.csv  one row per window of one model step (each job's window size on the
                         2^(k/2) grid nearest its step), in order
  OUTPREFIX-curve.csv    per job and window size: mean distinct pages per window
  OUTPREFIX-gaps.csv     per job, at the same window size: the heap pages' re-references by
                         reuse gap (windows since the page's previous window)
  OUTPREFIX-text.csv     every file-backed page any job referenced, with how many jobs did
and prints what refs_rule.py (the rule table.py applies) makes of them, and checks of the
model's mechanism: how the draws per step vary with the heap's size, where in the heap (by
birth) the references fall, and how the distinct pages grow with the window against what
uniform draws would give."""
import collections
import csv
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refs_rule import GAP_LO, derive, draws, exponents  # noqa: E402

CPU_SCALE = 2.78  # kbuild.cpu_scale = 278: the 2596 MHz host against the 933 MHz PIII
raw, jobs_csv, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
jobs = {r["source"]: r for r in csv.DictReader(open(jobs_csv))}


def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return 0
    i = min(len(xs) - 1, max(0, int(round(p / 100 * (len(xs) - 1)))))
    return xs[i]


rows, wins, curve, gaps = [], [], [], []
text_jobs = collections.Counter()
pooled = {"heap": [], "text": [], "old": [], "G": [], "weight": []}
def opt(name, ext):
    """the lines of RAWDIR/NAME.EXT, or None if gccera-text.sh did not write it"""
    path = os.path.join(raw, name + ext)
    return open(path).read().splitlines() if os.path.exists(path) else None


for name in sorted(f[:-4] for f in os.listdir(raw) if f.endswith(".out")):
    cmd, gc_lines, time_lines = opt(name, ".cmd"), opt(name, ".gc"), opt(name, ".time")
    wsize, W, files, pages, E, Q = {}, {}, {}, [], None, {}
    for line in open(os.path.join(raw, name + ".out")):
        f = line.split()
        if f[0] == "X" and cmd is None:  # the command pagerefs ran
            cmd = [line[2:]]
        elif f[0] == "S":
            wsize[int(f[1])] = int(f[2])
        elif f[0] == "W":
            W.setdefault(int(f[1]), []).append([int(x) for x in f[1:]])
        elif f[0] == "E":
            E = int(f[1])
        elif f[0] == "F":
            files[int(f[1])] = f[2]
        elif f[0] == "P":
            pages.append(f[1:])
        elif f[0] == "Q":
            Q[int(f[1])] = (int(f[2]), [tuple(map(int, x.split(":"))) for x in f[3:]])
    src = next(a for a in " ".join(cmd).split() if a.endswith(".c") and "/" in a)
    rec = jobs[src]
    gcs, loud_E, start = [], None, None
    for line in gc_lines or []:
        f = line.split(None, 2)
        if f[0] == "G":
            start = int(f[1])
            text = f[2].strip()
        elif f[0] == "g" and start is not None:
            gcs.append((start, int(f[1]), text))
            start = None
        elif f[0] == "E":
            loud_E = int(f[1])
    # the -quiet run's instructions for the loud run's collections: proportional position
    scale = E / loud_E if loud_E else 1.0
    gcs = [(a * scale, b * scale, t) for a, b, t in gcs]
    times = [float(l.split()[0]) for l in time_lines or [] if l.strip()]
    cc1_ms = int(rec["cc1_cpu_ms"])
    steps = cc1_ms * CPU_SCALE
    w1 = E / steps
    k1 = min(wsize, key=lambda k: abs(math.log(wsize[k] / w1)))
    per = w1 / wsize[k1]  # windows of W_k1 scaled to one step (draws are linear in time)

    def window_stats(k):
        out, prev_res = [], 0
        for v in W.get(k, []):
            kk, idx, end, fil, filx, brk, mm, stk, oth, born, res, births, gc = v[:13]
            hist = v[13:29]
            full = end - idx * wsize[k] >= wsize[k]
            lo, hi = idx * wsize[k], end
            in_gc = any(a < hi and b > lo for a, b, _ in gcs)
            old = sum(hist)
            out.append(dict(idx=idx, full=full, gc=in_gc, file=fil, filex=filx, heap=brk + mm,
                            old=old, born=born, G=prev_res, res=res, stack=stk, hist=hist))
            prev_res = res
        return out

    ws = window_stats(k1)
    steady = [w for w in ws if w["full"] and not w["gc"] and w["G"] >= 64]
    text_union = sum(1 for p in pages if p[0] == "file")
    text_jobs.update((os.path.basename(files[int(p[5])]), int(p[6])) for p in pages
                     if p[0] == "file" and "valgrind" not in files[int(p[5])])
    exec_union = sum(1 for p in pages if p[0] == "file" and p[1] == "1")
    cc1_text = sum(1 for p in pages if p[0] == "file" and files[int(p[5])].endswith("/cc1"))
    heap_pages = sum(1 for p in pages if p[0] in ("brk", "mmap"))
    max_res = max((w["res"] for w in ws), default=0)
    hd = [draws(w["old"], w["G"]) * per for w in steady]
    td = [draws(w["file"], text_union) * per for w in steady]
    frac = [w["old"] / w["G"] for w in steady]
    tot = [sum(w["hist"]) for w in steady]
    newest_q = sum(sum(w["hist"][12:]) for w in steady) / max(1, sum(tot))
    oldest_q = sum(sum(w["hist"][:4]) for w in steady) / max(1, sum(tot))
    gc_windows = [w for w in ws if w["gc"] and w["full"]]
    gc_frac = [w["old"] / w["G"] for w in gc_windows if w["G"]]
    gc_len = [(b - a) / w1 for a, b, _ in gcs]
    rows.append(dict(
        source=src, instructions=E, instructions_loud=loud_E, cc1_cpu_ms=cc1_ms,
        job_cpu_ms=rec["job_cpu_ms"], native_cpu_ms_here=round(statistics.median(times), 1) if times else "",
        model_steps=round(steps), step_instructions=round(w1), grid_k=k1, grid_w=wsize[k1],
        anon_peak_kb=rec["cc1_anon_peak_kb"], heap_pages_referenced=heap_pages,
        heap_resident_max=max_res, text_pages_referenced=text_union, exec_pages=exec_union,
        cc1_file_pages=cc1_text, collections=len(gcs) if gc_lines is not None else "",
        collection_steps=":".join("%.1f" % x for x in gc_len),
        collections_kb=":".join(t.replace(" ", "") for _, _, t in gcs),
        steady_windows=len(steady),
        heap_distinct_median=round(statistics.median(w["old"] + w["born"] for w in steady) * 1, 1)
        if steady else 0,
        heap_old_distinct_median=round(statistics.median(w["old"] for w in steady), 1) if steady else 0,
        heap_old_fraction_median=round(statistics.median(frac), 3) if steady else 0,
        heap_draws_median=round(statistics.median(hd), 1) if hd else 0,
        text_distinct_median=round(statistics.median(w["file"] for w in steady), 1) if steady else 0,
        exec_distinct_median=round(statistics.median(w["filex"] for w in steady), 1) if steady else 0,
        text_draws_median=round(statistics.median(td), 1) if td else 0,
        newest_quarter_share=round(newest_q, 3), oldest_quarter_share=round(oldest_q, 3),
        gc_window_old_fraction_median=round(statistics.median(gc_frac), 3) if gc_frac else "",
    ))
    for w in ws:
        wins.append(dict(source=src, w=wsize[k1], idx=w["idx"], full=int(w["full"]), gc=int(w["gc"]),
                         text=w["file"], exec=w["filex"], heap=w["heap"], heap_old=w["old"],
                         born=w["born"], stack=w["stack"], heap_at_start=w["G"],
                         oldest_q=sum(w["hist"][:4]), q2=sum(w["hist"][4:8]),
                         q3=sum(w["hist"][8:12]), newest_q=sum(w["hist"][12:])))
    gaps += [dict(source=src, gap_windows=g, references=c) for g, c in Q[k1][1]]
    for k in sorted(W):
        st = [w for w in window_stats(k) if w["full"]]
        if not st:
            continue
        curve.append(dict(source=src, k=k, w=wsize[k], steps=round(wsize[k] / w1, 3), windows=len(st),
                          text=round(statistics.mean(w["file"] for w in st), 1),
                          heap=round(statistics.mean(w["heap"] for w in st), 1),
                          heap_old=round(statistics.mean(w["old"] for w in st), 1),
                          heap_at_start=round(statistics.mean(w["G"] for w in st), 1)))


def write(path, rs):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rs[0].keys()), lineterminator="\n")
        w.writeheader()
        w.writerows(rs)


write(prefix + "-curve.csv", curve)
# per job, at one step (W1): the means over its full windows, carried from the grid size along
# its own curve as refs_rule.py does
ex = exponents(prefix + "-curve.csv", {r["source"]: dict(w1=r["step_instructions"]) for r in rows})
for r in rows:
    eh, et = ex[r["source"]]
    f = r["step_instructions"] / r["grid_w"]
    full = [w for w in wins if w["source"] == r["source"] and w["full"]]
    r["heap_old_per_step"] = round(statistics.mean(w["heap_old"] for w in full) * f ** eh, 1)
    r["heap_born_per_step"] = round(statistics.mean(w["born"] for w in full) * f, 1)
    r["text_per_step"] = round(statistics.mean(w["text"] for w in full) * f ** et, 1)
write(prefix + "-jobs.csv", rows)
write(prefix + "-windows.csv", wins)
write(prefix + "-text.csv", [dict(file=f, page=pg, jobs=n) for (f, pg), n in sorted(text_jobs.items())])
write(prefix + "-gaps.csv", gaps)
heap_refs, text_refs, text_kb, bins = derive(prefix)
print("jobs %d; kbuild.heap_refs = %d, kbuild.text_refs = %d, kbuild.text = %d kB" % (
    len(rows), heap_refs, text_refs, text_kb))
print("reuse gaps (steps: share of re-references): " + ", ".join(
    "%d: %.3f" % (lo, b / sum(bins)) for lo, b in zip(GAP_LO, bins)))
print("text pages referenced by every job: %d of %d" % (
    sum(1 for n in text_jobs.values() if n == len(rows)), len(text_jobs)))
pool = [(draws(w["heap_old"], w["heap_at_start"]), w["heap_at_start"]) for w in wins
        if w["full"] and w["heap_at_start"] >= 64]
# the draws against the heap's size: a constant per step, or a share of the heap?
lx = [math.log(p[1]) for p in pool]
ly = [math.log(max(p[0], 1)) for p in pool]
mx, my = statistics.mean(lx), statistics.mean(ly)
slope = sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)
print("heap draws per window ~ G^%.2f (G = heap pages at the window's start, %d..%d)" % (
    slope, min(p[1] for p in pool), max(p[1] for p in pool)))
for lo, hi in ((64, 1024), (1024, 2048), (2048, 4096), (4096, 8192)):
    xs = [p[0] for p in pool if lo <= p[1] < hi]
    if xs:
        print("  G %4d..%4d pages: %5d windows, heap draws per window median %.0f, distinct/G median %.2f" % (
            lo, hi, len(xs), statistics.median(xs),
            statistics.median(w["heap_old"] / w["heap_at_start"] for w in wins
                              if w["full"] and lo <= w["heap_at_start"] < hi)))
# where in the heap: the windows' old heap pages by birth quarter (uniform: 0.25 each)
q = [sum(w[k] for w in wins if w["full"] and w["heap_at_start"] >= 64)
     for k in ("oldest_q", "q2", "q3", "newest_q")]
print("old heap pages referenced per window by birth quarter, oldest..newest: %s" % (
    " ".join("%.3f" % (x / sum(q)) for x in q)))
gcw = [w for w in wins if w["full"] and w["gc"] and w["heap_at_start"] >= 64]
ngw = [w for w in wins if w["full"] and not w["gc"] and w["heap_at_start"] >= 64]
if gcw:
    print("distinct/G per window: in a collection %.3f (%d windows), outside %.3f (%d)" % (
        statistics.median(w["heap_old"] / w["heap_at_start"] for w in gcw), len(gcw),
        statistics.median(w["heap_old"] / w["heap_at_start"] for w in ngw), len(ngw)))
# longer windows: measured distinct heap pages against uniform draws at heap_refs per step


def gap_model(g_pages, steps, n, seed=1):
    """the model's mechanism on a heap of g_pages: per step n re-references by reuse gap"""
    import random
    rnd = random.Random(seed)
    total = sum(bins)
    cum = [sum(bins[:i + 1]) for i in range(len(bins))]
    at = collections.defaultdict(list)
    last = [1] * g_pages  # grown at step 1
    at[1] = list(range(g_pages))
    hist = []
    for s in range(2, steps + 1):
        got = set()
        for _ in range(n):
            x = None
            r = rnd.randrange(total)
            b = next(i for i, c in enumerate(cum) if r < c)
            for _try in range(4):
                if b == len(bins) - 1:
                    y = rnd.randrange(g_pages)
                    if s - last[y] >= GAP_LO[b] and y not in got:
                        x = y
                else:
                    hi = GAP_LO[b + 1] - 1
                    g = rnd.randint(GAP_LO[b], hi)
                    lst = at[s - g] if g < s else []
                    while lst:
                        k = rnd.randrange(len(lst))
                        y = lst[k]
                        lst[k] = lst[-1]
                        lst.pop()
                        if last[y] == s - g:
                            x = y
                            break
                if x is not None:
                    break
            if x is None:
                y = rnd.randrange(g_pages)
                x = y if y not in got else None
            if x is not None:
                got.add(x)
                last[x] = s
                at[s].append(x)
        hist.append(got)
    return hist


g_sim = round(statistics.median(p[1] for p in pool))
sim = gap_model(g_sim, 400, heap_refs)
print("window (steps): measured distinct old heap / G; the gap model (G = %d, the windows' median,"
      " 100 steps in); uniform draws at heap_refs per step" % g_sim)
by = collections.defaultdict(list)
for c in curve:
    if c["heap_at_start"] >= 64:
        by[c["k"]].append(c)
for k in sorted(by):
    cs = by[k]
    st = statistics.median(c["steps"] for c in cs)
    meas = statistics.mean(c["heap_old"] / c["heap_at_start"] for c in cs)
    unif = statistics.mean(1 - (1 - 1 / c["heap_at_start"]) ** (heap_refs * c["steps"]) for c in cs)
    m = max(1, round(st))
    gm = statistics.mean(len(set().union(*sim[i:i + m])) / g_sim for i in range(100, 400 - m, m))
    print("  %7.2f  %.3f  %.3f  %.3f  (%d jobs)" % (st, meas, gm, unif, len(cs)))
