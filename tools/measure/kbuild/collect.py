#!/usr/bin/env python3
"""Joins rsswatch's raw log with the tree's Kbuild dependency files into compact CSVs.

usage: collect.py SRCDIR RAW.csv LINKED.o JOBS.csv OTHER.csv
JOBS.csv: one row per finished compile job (the object exists): the translation unit, its
bytes, the headers it read (from the .cmd file fixdep writes from gcc's -MMD output, so every
file the preprocessor opened), their bytes, the object's bytes, cc1's and as's peak RSS and
CPU, the whole job's peak RSS/CPU/wall, and cc1's RSS at 10 %..100 % of its life.
OTHER.csv: make itself, each ar (built-in.a) step, the ld -r stand-in for the link, and the
bytes of every distinct header the jobs read (headers_union)."""
import csv
import os
import sys

src, raw, linked, jobs_out, other_out = sys.argv[1:6]
rows = [r for r in csv.reader(open(raw)) if len(r) >= 8]


def deps(obj):
    d, b = os.path.split(obj)
    cmd = os.path.join(src, d, "." + b + ".cmd")
    if not os.path.exists(cmd):
        return None
    out, on = [], False
    for line in open(cmd, errors="replace"):
        if line.startswith("deps_"):
            on = True
            continue
        if on:
            t = line.strip().rstrip("\\").strip()
            if not t:
                break
            if t.startswith("$(wildcard") or t.endswith(":"):
                continue
            out.append(t)
    return out


def size(p):
    q = p if os.path.isabs(p) else os.path.join(src, p)
    try:
        return os.path.getsize(q)
    except OSError:
        return 0


sub = {}
for r in rows:
    tag, prog, inp, maxrss, hwm, ut, st, wall, growth = r[:9]
    anon = r[9] if len(r) > 9 else ""
    if tag == "sub" and inp != "-":
        sub.setdefault((prog, inp), (int(maxrss), int(ut) + int(st), growth, anon))
w = csv.writer(open(jobs_out, "w"), lineterminator="\n")
w.writerow(["source", "source_bytes", "headers", "header_bytes", "object_bytes", "cc1_maxrss_kb",
            "cc1_cpu_ms", "job_maxrss_kb", "job_cpu_ms", "job_wall_ms",
            "cc1_rss_growth_kb", "cc1_anon_peak_kb"])
seen = set()
union = {}
for tag, prog, inp, maxrss, hwm, ut, st, wall, growth in (r[:9] for r in rows):
    if tag != "job" or inp == "-" or inp in seen:
        continue
    rel = os.path.relpath(inp if os.path.isabs(inp) else os.path.join(src, inp), src)
    obj = rel[:-2] + ".o"
    if not os.path.exists(os.path.join(src, obj)):
        continue
    dl = deps(obj)
    if dl is None:
        continue
    seen.add(inp)
    hdrs = [p for p in dl if os.path.normpath(p) != rel and not p.endswith((".c", ".S"))]
    for p in hdrs:
        union.setdefault(os.path.normpath(p), size(p))
    cc1 = sub.get(("cc1", inp), (0, 0, "", ""))
    w.writerow([rel, size(rel), len(hdrs), sum(size(p) for p in hdrs), size(obj), cc1[0], cc1[1],
                maxrss, int(ut) + int(st), wall, cc1[2], cc1[3]])
o = csv.writer(open(other_out, "w"), lineterminator="\n")
o.writerow(["step", "maxrss_kb", "own_hwm_kb", "cpu_ms", "wall_ms", "output_bytes"])
for tag, prog, inp, maxrss, hwm, ut, st, wall, growth in (r[:9] for r in rows):
    if tag in ("make", "link", "ar", "ld"):
        o.writerow([tag, maxrss, hwm, int(ut) + int(st), wall,
                    size(linked) if tag == "link" else ""])
# every distinct header the sample's jobs read, once: the hot include set
o.writerow(["headers_union", "", "", "", "", sum(union.values())])
