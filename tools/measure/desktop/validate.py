#!/usr/bin/env python3
"""validate.sh's helper.
validate.py lackey MAPS PAGES   lackey_pages's distinct pages mapped to files through the
    valgrind process's MAPS, as pagemap.py rows (phase "lackey"; present = pages seen)
validate.py compare OUTDIR      per file and kind (x: executable mapping, r: other), the
    lackey set against touchmap's and plain's present sets: sizes, the pages both have,
    recall (share of lackey's pages present) and precision (share of the present pages
    lackey saw)"""
import csv
import os
import sys
from collections import defaultdict
import pageranges

HDR = "step,program,phase,pid,path,perms,pgoff,pages,uw,zapped,anon_kb,present,anon_present,ranges"


def lackey(maps, pages):
    seen = set(int(line.split()[0], 16) for line in open(pages) if line.strip())
    print(HDR)
    for line in open(maps):
        f = line.split(None, 5)
        if len(f) < 6 or not f[5].startswith("/") or f[4] == "0":
            continue
        path = f[5].strip()
        if "/valgrind/" in path:
            continue
        start, end = (int(x, 16) for x in f[0].split("-"))
        pgoff = int(f[2], 16) // 4096
        pres = [pgoff + p - start // 4096 for p in range(start // 4096, end // 4096) if p in seen]
        print("1,lackey,lackey,0,%s,%s,%d,%d,0,-,0,%d,0,%s" % (
            path.replace(",", "%2C"), f[1], pgoff, (end - start) // 4096, len(pres), pageranges.fmt(pres)))


def sets(path):
    """(file, kind) -> set of file pages present"""
    out = defaultdict(set)
    for r in csv.DictReader(open(path)):
        k = (r["path"], "x" if "x" in r["perms"] else "r")
        for part in r["ranges"].split():
            a, _, b = part.partition("-")
            out[k].update(range(int(a), int(b or a) + 1))
        out.setdefault(k, set())
    return out


def compare(d):
    lk, tm, pl = (sets(os.path.join(d, n + ".csv")) for n in ("lackey", "touchmap", "plain"))
    files = sorted(set(lk) | set(tm))
    tot = defaultdict(int)
    print("%-60s %4s %6s %6s %6s %6s %6s" % ("file", "kind", "lackey", "tm", "both", "plain",
                                             "both"))
    for k in files:
        L, T, P = lk.get(k, set()), tm.get(k, set()), pl.get(k, set())
        if not (L or T):
            continue
        tot["L" + k[1]] += len(L)
        tot["T" + k[1]] += len(T)
        tot["LT" + k[1]] += len(L & T)
        tot["P" + k[1]] += len(P)
        tot["LP" + k[1]] += len(L & P)
        print("%-60s %4s %6d %6d %6d %6d %6d" % (k[0][-60:], k[1], len(L), len(T), len(L & T),
                                                 len(P), len(L & P)))
    for kind in "xr":
        L, T, LT, P, LP = (tot[p + kind] for p in ("L", "T", "LT", "P", "LP"))
        print("kind %s: lackey %d pages; touchmap %d (recall %.1f %%, precision %.1f %%); "
              "plain %d (recall %.1f %%, precision %.1f %%)" % (
                  kind, L, T, 100.0 * LT / max(L, 1), 100.0 * LT / max(T, 1), P,
                  100.0 * LP / max(L, 1), 100.0 * LP / max(P, 1)))


if __name__ == "__main__":
    if sys.argv[1] == "lackey":
        lackey(sys.argv[2], sys.argv[3])
    else:
        compare(sys.argv[2])
