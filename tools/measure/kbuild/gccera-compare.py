#!/usr/bin/env python3
"""Per-job ratios of an old gcc's cc1 anonymous peak to gcc 12's on the same sources
(docs/kbuild-measured.md, "gcc 3.3's memory against gcc 12's").

usage: gccera-compare.py GCC12_JOBS.csv OLD_JOBS.csv [CC1.csv ...]
GCC12_JOBS.csv, OLD_JOBS.csv: run.sh / gccera.sh samples (cc1_anon_peak_kb, cc1_maxrss_kb);
CC1.csv: gccera-cc1.py outputs (anon_peak_kb_64, anon_peak_kb_32). Prints, over the sources
in both, the median, 10th and 90th percentiles, min and max of the per-job ratio, and the
ratio of the sums, for each column against gcc 12's cc1_anon_peak_kb.
"""
import csv, statistics as st, sys

g12 = {r["source"]: r for r in csv.DictReader(open(sys.argv[1]))}


def summary(name, pairs):
    pairs = [(a, b) for a, b in pairs if a > 0 and b > 0]
    if len(pairs) < 3:
        return
    rat = sorted(b / a for a, b in pairs)
    q = st.quantiles(rat, n=10)
    print("%-34s n=%3d median %.3f  p10 %.3f  p90 %.3f  min %.3f  max %.3f  sum-ratio %.3f"
          "  (gcc12 median %.1f MB, this %.1f MB)" %
          (name, len(rat), st.median(rat), q[0], q[-1], rat[0], rat[-1],
           sum(b for a, b in pairs) / sum(a for a, b in pairs),
           st.median(a for a, b in pairs) / 1024, st.median(b for a, b in pairs) / 1024))


def anon12(s):
    return int(g12[s]["cc1_anon_peak_kb"] or 0)


old = {r["source"]: r for r in csv.DictReader(open(sys.argv[2]))}
common = [s for s in g12 if s in old and s.endswith(".c") and s != "scripts/mod/empty.c"]
summary("kbuild cc1 anon peak (64-bit host)",
        [(anon12(s), int(old[s]["cc1_anon_peak_kb"] or 0)) for s in common])
summary("kbuild cc1 file-backed at peak",
        [(int(g12[s]["cc1_maxrss_kb"]) - anon12(s),
          int(old[s]["cc1_maxrss_kb"] or 0) - int(old[s]["cc1_anon_peak_kb"] or 0))
         for s in common])
for f in sys.argv[3:]:
    rows = {r["source"]: r for r in csv.DictReader(open(f))}
    c = [s for s in g12 if s in rows and s != "scripts/mod/empty.c"]
    summary(f.rsplit("/", 1)[-1] + " 64-bit", [(anon12(s), int(rows[s]["anon_peak_kb_64"])) for s in c])
    summary(f.rsplit("/", 1)[-1] + " 32-bit", [(anon12(s), int(rows[s]["anon_peak_kb_32"])) for s in c])
    summary(f.rsplit("/", 1)[-1] + " 32/64", [(int(rows[s]["anon_peak_kb_64"]), int(rows[s]["anon_peak_kb_32"])) for s in c])
