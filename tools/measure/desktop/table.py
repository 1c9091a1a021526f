#!/usr/bin/env python3
"""The desktop measurement (run.sh) compacted, and the model's table generated from it.

table.py compact RAWDIR OUTDIR   RAWDIR/{programs,mappings}.csv -> OUTDIR/{programs,mappings}.csv:
    mappings summed per (step, program, phase, file, kind), kind x = executable file mapping,
    r = other file mapping (read-only data, fonts, caches), a = anonymous (heap, stack,
    anonymous pages of private file mappings, shared memory); rows touching nothing dropped.
table.py remote RAWDIR OUTDIR   remote.sh's RAWDIR/remote.csv and remote-time.txt, compacted the
    same way, -> OUTDIR/remote.csv (the `firefox URL` client, one step per run)
table.py pages RAWDIR OUTDIR [RAWDIR2...]   pages.sh's RAWDIR/pages.csv (present pages per
    file VMA; a program in a further RAWDIR, measured again alone, replaces its rows) ->
    OUTDIR/pages.csv: per (step, program, phase, file, kind) the file pages touched, as ranges
    of file page indices (offset / 4096): at start, every VMA of the kind (a row with 0 pages
    when the file was mapped and nothing touched); at a switch, the VMAs zapped before it
    (touchmap.c: not the writable ones nor those holding copy-on-write pages, whose switch
    part is not measured); and OUTDIR/layout.csv: per (file, kind) the file pages mapped by
    any program, whose order the model's page index follows. A summary goes to stderr.
table.py verify DATADIR SRCDIR   decodes the page sets compiled into SRCDIR (src/workloads)
    and compares each measured program's with DATADIR/pages.csv
table.py c DATADIR MAPS.c [PAGES.c [ANON.c [IDLE.c]]] > src/workloads/desktop_measured.c   the model's tables
    (docs/desktop-measured.md): files and programs on stdout, each program's rows in MAPS.c
    (src/workloads/desktop_measured_maps.c), the measured page sets (DATADIR/pages.csv, if
    there) in PAGES.c (src/workloads/desktop_measured_pages.c), the anonymous pages each
    measured switch touched (DATADIR/anonsets.csv, anonsets.py) in ANON.c
    (src/workloads/desktop_measured_anon.c), the background activity of each program
    (DATADIR/idle.csv, idle.py) in IDLE.c (src/workloads/desktop_measured_idle.c)
"""
import csv
import os
import re
import statistics
import sys
from collections import OrderedDict, defaultdict
import pageranges

THREAD = ["xeyes", "firefox", "nautilus", "nautilus --browser", "gthumb", "gedit", "xpdf",
          "xterm", "mlterm", "gnome-terminal", "urxvt", "gnome-system-monitor", "gnome-help",
          "gnome-dictionary", "sol", "gnometris", "gnect", "gtali", "iagno", "gnotravex",
          "mahjongg", "gnome-sudoku", "glines", "glchess", "gnomine", "gnotski", "gnibbles",
          "gnobots2", "blackjack", "same-gnome", "gnome-window-properties",
          "gnome-default-applications-properties", "gnome-at-properties",
          "gnome-typing-monitor", "gnome-at-visual", "gnome-sound-properties",
          "gnome-at-mobility", "gnome-keybinding-properties", "gnome-about-me",
          "gnome-display-properties", "gnome-network-preferences", "gnome-mouse-properties",
          "gnome-appearance-properties", "gnome-control-center", "gnome-keyboard-properties"]
# programs Debian 12 no longer ships (or that did not open a window under Xvfb) and the measured
# program that stands in for each: blackjack was an Aisleriot-style card game like sol; the
# 2009 gnome-*-properties capplets were small single-window GTK programs like gnome-dictionary
STAND_IN = {"blackjack": "sol"}
CAPPLET = "gnome-dictionary"


def kind(path, perms):
    if path in ("[anon]", "[stack]") or path.startswith(("/memfd:", "/dev/shm", "/SYSV")) \
            or "(deleted)" in path:
        return "a"
    return "x" if "x" in perms else "r"


def compact(raw, out):
    os.makedirs(out, exist_ok=True)
    progs = list(csv.DictReader(open(os.path.join(raw, "programs.csv"))))
    with open(os.path.join(out, "programs.csv"), "w") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["step", "program", "command", "window_s", "cpu_ms_to_window", "rchar",
                    "cpu_ms_settled", "pid"])
        for p in progs:
            w.writerow([p["step"], p["program"], p["command"], "%.2f" % float(p["window_s"]),
                        p["cpu_ms_to_window"], p["rchar"], p["cpu_ms_settled"], p["pid"]])
    acc, extra = compact_rows(csv.DictReader(open(os.path.join(raw, "mappings.csv"))))
    write_mappings(os.path.join(out, "mappings.csv"), acc, extra)


def compact_rows(reader):
    acc = OrderedDict()
    extra = []
    for r in reader:
        if r["phase"] in ("switch-cpu", "newtab-anon-kb"):
            extra.append([r["step"], r["program"], r["phase"], "-", "-", r["size_kb"], 0, 0, 0])
            continue
        k = kind(r["path"], r["perms"])
        anon, rss = int(r["anon_kb"]), int(r["rss_kb"])
        if k == "a" and anon == 0:
            anon = rss  # shared memory: swap-backed, though not counted as Anonymous
        key = (r["step"], r["program"], r["phase"], "[anon]" if k == "a" else r["path"], k)
        v = acc.setdefault(key, [0, 0, 0, 0])
        v[0] += int(r["size_kb"])
        v[1] += rss
        v[2] += int(r["ref_kb"])
        v[3] += anon if k == "a" else int(r["anon_kb"])
    return acc, extra


def write_mappings(path, acc, extra):
    with open(path, "w") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["step", "program", "phase", "file", "kind", "size_kb", "rss_kb", "ref_kb",
                    "anon_kb"])
        for key, v in acc.items():
            if v[1] or v[2] or v[3]:
                w.writerow(list(key) + v)
        for e in extra:
            w.writerow(e)


def remote(raw, out):
    """The `firefox URL` runs (remote.sh): mappings compacted as compact() does, and each
    run's CPU (user + sys from /usr/bin/time) as a switch-cpu-like row in ms."""
    # the LD_PRELOAD helper that saved the mappings is not firefox's
    acc, extra = compact_rows(r for r in csv.DictReader(open(os.path.join(raw, "remote.csv")))
                              if not r["path"].endswith("/smaps_at_exit.so"))
    for line in open(os.path.join(raw, "remote-time.txt")):
        t = line.split()
        run = t[1].rstrip(":")
        cpu = float(t[t.index("user,") - 2]) + float(t[t.index("sys,") - 2])
        extra.append([run, "firefox", "remote-cpu", "-", "-", int(round(cpu * 1000)), 0, 0, 0])
    write_mappings(os.path.join(out, "remote.csv"), acc, extra)


def parse_ranges(text):
    out = set()
    for part in text.split():
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def runs_of(pages):
    """lengths of the runs of consecutive pages"""
    pages = sorted(pages)
    out, n = [], 0
    for i, p in enumerate(pages):
        n += 1
        if i + 1 == len(pages) or pages[i + 1] != p + 1:
            out.append(n)
            n = 0
    return out


def pages(raw, out, extra=()):
    acc = OrderedDict()  # (step, program, phase, file, kind) -> set of file pages
    layout = OrderedDict()  # (file, kind) -> set of file pages mapped
    unmeasured = defaultdict(int)  # (step, program, phase) -> file pages present in VMAs not
    # zapped before a switch (writable ones, RELRO: most of their pages are copy-on-write)
    unreg = defaultdict(int)  # (step, program, phase) -> pages present in VMAs fault-around
    # was on for (not registered: touchmap.c)
    rows = list(csv.DictReader(open(os.path.join(raw, "pages.csv"))))
    known = {r["program"] for r in rows}
    for x in extra:  # a program measured again, or in another phase (remote_pages.sh),
        # replaces its rows of those phases (not X's, the manager's, nor a program's that
        # only opened a window to switch away from)
        again = [r for r in csv.DictReader(open(os.path.join(x, "pages.csv")))
                 if r["program"] in known and r["program"] not in ("Xvfb", "openbox")]
        phases = {(r["program"], r["phase"]) for r in again}
        rows = [r for r in rows if (r["program"], r["phase"]) not in phases] + again
    for r in rows:
        path = r["path"].replace("%2C", ",")
        k = kind(path, r["perms"])
        if k == "a":
            continue
        pgoff, n = int(r["pgoff"]), int(r["pages"])
        layout.setdefault((path, k), set()).update(range(pgoff, pgoff + n))
        key = (r["step"], r["program"], r["phase"], path, k)
        if r["phase"] in ("idle", "switch") and r["zapped"] != "1":
            unmeasured[key[:3]] += int(r["present"]) - int(r["anon_present"])
            continue
        if r["uw"] != "1":
            unreg[key[:3]] += int(r["present"])
        acc.setdefault(key, set()).update(parse_ranges(r["ranges"]))
    with open(os.path.join(out, "pages.csv"), "w") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["step", "program", "phase", "file", "kind", "pages", "ranges"])
        for key, v in acc.items():
            if key[2] in ("start", "switch", "remote"):
                w.writerow(list(key) + [len(v), pageranges.fmt(v)])
    with open(os.path.join(out, "layout.csv"), "w") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["file", "kind", "pages", "ranges"])
        for key, v in layout.items():
            w.writerow(list(key) + [len(v), pageranges.fmt(v)])
    # the summary (docs/desktop-measured.md)
    tot = defaultdict(lambda: defaultdict(int))
    runlens = defaultdict(list)
    for (step, prog, phase, path, k), v in acc.items():
        tot[(step, prog, phase)][k] += len(v)
        if v:
            runlens[(step, prog, phase)].extend(runs_of(v))
    err = sys.stderr.write
    err("step program phase: pages touched in executable and other file mappings, runs of "
        "consecutive pages and their median length, file pages present in VMAs not zapped (at "
        "a switch: not measured), pages present where fault-around was on\n")
    for (step, prog, phase), t in tot.items():
        rl = runlens[(step, prog, phase)]
        err("%s %s %s: x %d KiB, r %d KiB, %d runs, median %s, unmeasured %d KiB, "
            "unregistered %d KiB\n" % (step, prog, phase, 4 * t["x"], 4 * t["r"], len(rl),
                                       statistics.median(rl) if rl else "-",
                                       4 * unmeasured[(step, prog, phase)],
                                       4 * unreg[(step, prog, phase)]))


def remote_record(data, fid, psets=None, prank=None, model=None):
    """The `firefox URL` client: per file the median over the runs of what it referenced,
    and the pages of the run (remote_pages.sh) whose page count is the median."""
    path = os.path.join(data, "remote.csv")
    if not os.path.exists(path):
        return None
    rows = list(csv.DictReader(open(path)))
    runs = sorted({r["step"] for r in rows if r["phase"] == "remote"})
    per, sizes = OrderedDict(), {}
    for r in rows:
        if r["phase"] != "remote":
            continue
        k = (r["file"], r["kind"])
        per.setdefault(k, {})[r["step"]] = int(r["anon_kb"] if k[1] == "a" else r["ref_kb"])
        sizes[k] = r
    tot = defaultdict(int)
    for (st, pr, ph, f, kd), v in (psets or {}).items():
        if (pr, ph) == ("firefox", "remote"):
            tot[st] += len(v)
    rep = sorted(tot, key=lambda st: (tot[st], int(st)))[(len(tot) - 1) // 2] if tot else None

    def pages(k):
        v = psets.get((rep, "firefox", "remote", canon(k[0]), k[1])) if rep else None
        return model(k, v) if v is not None else None
    maps, anon = [], 0
    seen = set()
    for k, v in per.items():
        med = int(statistics.median([v.get(run, 0) for run in runs]))
        if k[1] == "a":
            anon += med
            continue
        seen.add((canon(k[0]), k[1]))
        pg = pages(k)
        if med or pg:
            maps.append((fid(sizes[k]), med, 0, pg, None))
    for (st, pr, ph, f, kd), v in (psets or {}).items():
        if (st, pr, ph) == (rep, "firefox", "remote") and v and (f, kd) not in seen:
            maps.append((fid({"file": f, "kind": kd, "size_kb": str(4 * len(prank[(f, kd)]))}),
                         0, 0, model((f, kd), v), None))
    cpu = [int(r["size_kb"]) for r in rows if r["phase"] == "remote-cpu"]
    return dict(anon=anon, anon_sw=0, maps=maps, cpu=int(statistics.median(cpu)) if cpu else 0,
                sw_cpu=0, same_as=-1, runs=len(runs))


def canon(path):
    """firefox's profile is a new temporary directory in every run"""
    return re.sub(r"^/tmp/tmp\.[^/]+/", "/tmp/tmp.*/", path)


def load_pages(data):
    """pages.csv and layout.csv: ({(step, program, phase, file, kind): set of file pages},
    {(file, kind): {file page: the model's page index}}), files canonical; None if absent"""
    path = os.path.join(data, "pages.csv")
    if not os.path.exists(path):
        return None
    sets = {}
    for r in csv.DictReader(open(path)):
        sets[(r["step"], r["program"], r["phase"], canon(r["file"]), r["kind"])] = \
            parse_ranges(r["ranges"])
    rank = {}
    for r in csv.DictReader(open(os.path.join(data, "layout.csv"))):
        k = (canon(r["file"]), r["kind"])
        mapped = sorted(parse_ranges(r["ranges"]) | set(rank.get(k, {})))
        rank[k] = {p: i for i, p in enumerate(mapped)}
    return sets, rank


B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def uleb(v):
    """v as desktop_pages writes a number: 5 bits a character, the least significant first,
    each character the base64 digit of those bits plus 32 if more follow"""
    out = []
    while True:
        b = v & 0x1F
        v >>= 5
        out.append(B64[b | (0x20 if v else 0)])
        if not v:
            return out


def encode_pages(idx):
    """a set of model page indices as desktop_pages's characters: the number of runs, then
    per run the gap from the end of the previous one and its length less one"""
    runs = pageranges.runs(idx)
    out, end = uleb(len(runs)), 0
    for first, n in runs:
        out += uleb(first - end) + uleb(n - 1)
        end = first + n
    return out


def gen(data, maps_path, pages_path=None, anon_path=None, idle_path=None):
    progs = {p["program"]: p for p in csv.DictReader(open(os.path.join(data, "programs.csv")))}
    rows = list(csv.DictReader(open(os.path.join(data, "mappings.csv"))))
    by = defaultdict(list)
    for r in rows:
        by[(r["program"], r["phase"])].append(r)
    files = OrderedDict()  # (file, kind) -> size_kb
    pg = load_pages(data)
    psets, prank = pg if pg else ({}, {})

    def fid(r):
        k = (r["file"], r["kind"])
        files[k] = max(files.get(k, 0), int(r["size_kb"]))
        return list(files).index(k)

    def pset(step, name, phase, k):
        """the measured pages (file page indices) or None"""
        return psets.get((step, name, phase, canon(k[0]), k[1]))

    def model(k, pages):
        """file page indices -> the model's page indices (layout.csv's order)"""
        if pages is None:
            return None
        rank = prank[(canon(k[0]), k[1])]
        return {rank[p] for p in pages}

    def measured_only(step, name, known):
        """files whose pages the page measurement saw touched where smaps listed nothing"""
        seen = {(canon(f), kd) for f, kd in known}
        out = OrderedDict()
        for (st, pr, ph, f, kd), v in psets.items():
            if st == step and pr == name and v and (f, kd) not in seen:
                out[(f, kd)] = {"file": f, "kind": kd, "size_kb": str(4 * len(prank[(f, kd)]))}
        return out

    def record(name, same_as=-1, base=None):
        start = {(r["file"], r["kind"]): r for r in by[(name, "start")]}
        if base is not None:  # a further window of a running program: what it added
            old = {(r["file"], r["kind"]): r for r in by[(base, "start")]}
        sw = {(r["file"], r["kind"]): r for r in by[(name, "switch")]}
        step = progs.get(name, {}).get("step")
        extra = measured_only(step, name, list(start) + list(sw))
        maps, anon, anon_sw = [], 0, 0
        for k in OrderedDict.fromkeys(list(start) + list(sw) + list(extra)):
            r = start.get(k) or sw.get(k) or extra[k]
            s_ref = int(start[k]["ref_kb"]) if k in start else 0
            if base is not None and k in old:
                s_ref = max(0, s_ref - int(old[k]["ref_kb"]))
            w_ref = int(sw[k]["ref_kb"]) if k in sw else 0
            if k[1] == "a":
                a = int(start[k]["anon_kb"]) if k in start else 0
                if base is not None and k in old:
                    a = max(0, a - int(old[k]["anon_kb"]))
                anon += a
                anon_sw += w_ref
                continue
            s_set, w_set = pset(step, name, "start", k), pset(step, name, "switch", k)
            if base is not None and s_set is not None:
                # a further window: the pages it touched that the first one had not
                s_set = s_set - (pset(progs[base]["step"], base, "start", k) or set())
            if s_ref or w_ref or s_set or w_set:
                maps.append((fid(r), s_ref, w_ref, model(k, s_set), model(k, w_set)))
        cpu = [int(r["size_kb"]) for r in by[(name, "switch-cpu")]]
        p = progs.get(name, {})
        return dict(anon=anon, anon_sw=min(anon_sw, anon) if anon else anon_sw, maps=maps,
                    cpu=int(p.get("cpu_ms_settled") or 0), sw_cpu=cpu[0] if cpu else 0,
                    same_as=same_as)

    def server(name):
        # the X server and the window manager: start-up once, a switch as the median over
        # every measured switch, file by file; its pages those of the switch whose page
        # count is the median (the lower one of an even number)
        start = {(r["file"], r["kind"]): r for r in by[(name, "start")]}
        tot = defaultdict(int)
        for (st, pr, ph, f, kd), v in psets.items():
            if pr == name and ph == "switch":
                tot[st] += len(v)
        rep = sorted(tot, key=lambda st: (tot[st], int(st)))[(len(tot) - 1) // 2] if tot else None
        per = defaultdict(list)
        steps = sorted({r["step"] for r in by[(name, "switch")]})
        for r in by[(name, "switch")]:
            per[(r["file"], r["kind"])].append(int(r["ref_kb"]))
        seen = {(canon(f), kd) for f, kd in list(start) + list(per)}
        extra = OrderedDict()  # files only the page measurement saw touched
        for (st, pr, ph, f, kd), v in psets.items():
            if pr == name and v and (f, kd) not in seen and \
                    ((st, ph) == ("0", "start") or (st, ph) == (rep, "switch")):
                extra[(f, kd)] = {"file": f, "kind": kd, "size_kb": str(4 * len(prank[(f, kd)]))}
        maps, anon, anon_sw = [], 0, 0
        for k in OrderedDict.fromkeys(list(start) + list(per) + list(extra)):
            vals = per.get(k, []) + [0] * (len(steps) - len(per.get(k, [])))
            w_ref = int(statistics.median(vals)) if vals else 0
            s_ref = int(start[k]["ref_kb"]) if k in start else 0
            if k[1] == "a":
                anon += int(start[k]["anon_kb"]) if k in start else 0
                anon_sw += w_ref
                continue
            r = start.get(k) or extra.get(k) or {"file": k[0], "kind": k[1], "size_kb": "0"}
            if k not in start and k not in extra:
                r = dict(r, size_kb=max(int(x["size_kb"]) for x in by[(name, "switch")]
                                        if (x["file"], x["kind"]) == k))
            s_set = pset("0", name, "start", k)
            w_set = pset(rep, name, "switch", k) if rep else None
            if s_ref or w_ref or s_set or w_set:
                maps.append((fid(r), s_ref, w_ref, model(k, s_set), model(k, w_set)))
        return dict(anon=anon, anon_sw=anon_sw, maps=maps, cpu=0, sw_cpu=0, same_as=-1)

    recs, cache, srcs = [], {}, []
    for i, name in enumerate(THREAD):
        src, note = name, ""
        if name == "nautilus --browser":
            recs.append((name, record(name, same_as=THREAD.index("nautilus"), base="nautilus"),
                         "a second window of the running nautilus"))
            srcs.append(name)
            continue
        if name not in progs or not by[(name, "switch")]:
            src = STAND_IN.get(name, CAPPLET)
            note = "stand-in: %s's measurement" % src
        if src not in cache:
            cache[src] = record(src)
        recs.append((name, cache[src], note))
        srcs.append(src)
    recs.append(("Xorg", server("Xvfb"), "measured: Xvfb"))
    recs.append(("metacity", server("openbox"), "measured: openbox"))
    ff_remote = remote_record(data, fid, psets, prank, model)
    if ff_remote:
        recs.append(("firefox URL", ff_remote,
                     "measured: the remote firefox, median of %d runs" % ff_remote["runs"]))
    tabs = [int(r["size_kb"]) for r in rows if r["phase"] == "newtab-anon-kb"]
    # the X server's anonymous growth over the run, per window it gained
    xa = {ph: sum(int(r["anon_kb"]) for r in by[("Xvfb", ph)] if r["kind"] == "a")
          for ph in ("start", "end")}
    nwin = len([p for p in progs.values() if float(p["window_s"]) < 15 or p["cpu_ms_settled"] != "0"])
    out = sys.stdout.write
    out("/* Generated by tools/measure/desktop/table.py from data/measured/desktop/ (docs/\n"
        " * desktop-measured.md); do not edit. Sizes in KiB, as measured. */\n")
    out("/* clang-format off */\n")
    out('#include "workloads/desktop_measured.h"\n\n')
    out("const struct desktop_file desktop_files[] = {\n")
    items = list(files.items())
    for i in range(0, len(items), 3):  # three a line: the file stays under 800 lines
        out("   " + "".join(' {"%s", %d, %d},' % (
            f.replace("\\", "\\\\").replace('"', '\\"'), size, 1 if k == "x" else 0)
            for (f, k), size in items[i:i + 3]) + "\n")
    out("};\nconst int desktop_nr_files = %d;\n\n" % len(files))
    maps_out = []  # the maps go to their own file (desktop_measured_maps.c)
    page_bytes, page_at = [], {}  # desktop_pages's characters, where each distinct set starts

    def page_offset(idx):
        if idx is None:
            return "N"
        b = "".join(encode_pages(idx))
        if b not in page_at:
            page_at[b] = len(page_bytes)
            page_bytes.extend(b)
        return str(page_at[b])
    maps_out.append("/* Generated by tools/measure/desktop/table.py from data/measured/desktop/ (docs/\n"
                    " * desktop-measured.md); do not edit. Each program's rows: file, KiB referenced at\n"
                    " * start-up, KiB referenced by one switch, where in desktop_pages the pages\n"
                    " * touched at start-up and by one switch are. */\n/* clang-format off */\n"
                    '#include "workloads/desktop_measured.h"\n\n'
                    "#define N DESKTOP_NO_PAGES\n"
                    "const struct desktop_map desktop_maps[] = {\n")
    first, where = [], {}
    n = 0
    for name, r, note in recs:
        if id(r) in where:  # a stand-in shares its program's rows
            first.append(where[id(r)])
            continue
        where[id(r)] = n
        first.append(n)
        maps_out.append("    /* %s */\n" % name)
        rows_ = [m[:3] + (page_offset(m[3]), page_offset(m[4])) for m in r["maps"]]
        for i in range(0, len(rows_), 12):  # twelve a line: the file stays under 800 lines
            maps_out.append("   " + "".join(" {%d, %d, %d, %s, %s}," % m
                                            for m in rows_[i:i + 12]) + "\n")
        n += len(rows_)
    maps_out.append("};\n")
    with open(maps_path, "w") as f:
        f.write("".join(maps_out))
    if pages_path:
        with open(pages_path, "w") as f:
            f.write("/* Generated by tools/measure/desktop/table.py from data/measured/desktop/"
                    "pages.csv and\n * layout.csv (docs/desktop-measured.md); do not edit. The "
                    "measured page sets\n * (desktop_measured.h), %d of them in %d characters. */\n"
                    "/* clang-format off */\n#include \"workloads/desktop_measured.h\"\n\n"
                    "const char desktop_pages[] =\n" % (len(page_at), len(page_bytes)))
            b = "".join(page_bytes)
            for i in range(0, len(b), 150):
                f.write('    "%s"\n' % b[i:i + 150])
            f.write('    "";\n')
    def prog_entry(name, r, note, f):
        return '{"%s", %d, %d, %d, %d, %d, %d, %d}, /* %s */\n' % (
            name, r["same_as"], r["anon"], r["anon_sw"], r["cpu"], r["sw_cpu"], f,
            len(r["maps"]), note or "measured")

    nprog = len(THREAD) + 2
    out("const struct desktop_program desktop_programs[] = {\n")
    for (name, r, note), f in zip(recs[:nprog], first):
        out("    " + prog_entry(name, r, note, f))
    out("};\nconst int desktop_nr_programs = %d; /* the thread's %d, X, the window manager */\n"
        % (nprog, len(THREAD)))
    if ff_remote:
        out("const struct desktop_program desktop_firefox_remote =\n    "
            + prog_entry(*recs[nprog], first[nprog]).replace("}, /*", "}; /*"))
    out("const uint32_t desktop_firefox_tab_kb = %d; /* median of %d new tabs */\n"
        % (statistics.median(tabs) if tabs else 0, len(tabs)))
    out("const uint32_t desktop_x_window_kb = %d; /* Xvfb anon %d -> %d KiB over %d windows */\n"
        % (max(0, xa["end"] - xa["start"]) // max(nwin, 1), xa["start"], xa["end"], nwin))
    if anon_path:
        with open(anon_path, "w") as f:
            anon_tables(data, srcs, nprog, f.write)
    if idle_path:
        with open(idle_path, "w") as f:
            idle_tables(data, srcs, recs[:nprog], list(files), f.write)


def load_anonsets(data):
    """anonsets.csv (anonsets.py): {program: (its anonymous pages, [each switch's pages as
    ranks among them])}, or None if absent"""
    path = os.path.join(data, "anonsets.csv")
    if not os.path.exists(path):
        return None
    every, sets = {}, defaultdict(list)
    for r in csv.DictReader(open(path)):
        if r["program"] in ("Xvfb", "openbox"):
            continue
        if r["switch"] == "all":
            every[r["program"]] = sorted(parse_hex_ranges(r["pages"]))
        elif r["switch"] != "idle":
            sets[r["program"]].append(parse_hex_ranges(r["pages"]))
    out = {}
    for prog, pages in every.items():
        rank = {p: i for i, p in enumerate(pages)}
        out[prog] = (len(pages), [{rank[p] for p in s} for s in sets[prog]])
    return out


def parse_hex_ranges(text):
    out = set()
    for r in text.split():
        a, _, b = r.partition("-")
        out.update(range(int(a, 16), int(b or a, 16) + 1))
    return out


def anon_tables(data, srcs, nprog, out):
    """desktop_anon, desktop_anon_sets and desktop_anon_pages (desktop_measured.h): per
    program the anonymous pages each measured switch to it touched (anonsets.csv), as ranks
    among the program's anonymous pages, encoded as desktop_pages is"""
    sets = load_anonsets(data) or {}
    chars, at, offs = [], {}, []
    entries = []
    for i in range(nprog):
        src = srcs[i] if i < len(srcs) else None
        if src not in sets:
            entries.append((0, 0, 0, "not measured: the spread part of anon_sw_kb"))
            continue
        n, ss = sets[src]
        first = len(offs)
        for s in ss:
            b = "".join(encode_pages(s))
            offs.append(intern_set(b, at, chars))
        entries.append((n, len(ss), first, "measured" if src == THREAD[i] else
                        "stand-in: %s's measurement" % src))
    out("/* Generated by tools/measure/desktop/table.py from data/measured/desktop/anonsets.csv\n"
        " * (docs/desktop-measured.md, \"Which anonymous pages\"); do not edit. Per program: its\n"
        " * anonymous pages when measured, how many switches, the first one's entry in\n"
        " * desktop_anon_sets (offsets into desktop_anon_pages: ranks among those pages). */\n"
        "/* clang-format off */\n#include \"workloads/desktop_measured.h\"\n\n")
    out("const struct desktop_anon desktop_anon[] = {\n")
    for n, k, first, note in entries:
        out("    {%d, %d, %d}, /* %s */\n" % (n, k, first, note))
    out("};\nconst uint32_t desktop_anon_sets[] = {\n")
    for i in range(0, len(offs), 16):
        out("   " + "".join(" %d," % o for o in offs[i:i + 16]) + "\n")
    if not offs:
        out("    0,\n")
    out("};\n")
    out_set_chars(out, "desktop_anon_pages", chars)


def intern_set(b, at, chars):
    """The offset of the encoded page set b in chars, appended the first time it is seen."""
    if b not in at:
        at[b] = len(chars)
        chars.extend(b)
    return at[b]


def out_set_chars(out, name, chars):
    """The encoded page sets as one C string, 250 characters a line (the file stays under
    800 lines)."""
    out("const char %s[] =\n" % name)
    b = "".join(chars)
    for i in range(0, len(b), 250):
        out('    "%s"\n' % b[i:i + 250])
    out('    "";\n')


def idle_tables(data, srcs, recs, files, out):
    """desktop_idle, desktop_idle_periods, desktop_idle_maps and desktop_idle_pages
    (desktop_measured.h): per program its measured idle periods (idle.csv, idle.py): each
    period's length, CPU, anonymous pages touched (ranks among the program's anonymous pages
    in that run, encoded as desktop_pages is) and file kB referenced per mapping (an index
    among the program's desktop_maps rows). A program whose measurement stands in for
    another's (srcs) lends it its periods; a further window of a running process
    (nautilus --browser) has none (its process's are the whole process's). Files the
    program's rows do not hold are left out (their kB summed in a comment)."""
    import idle
    d = idle.load(data) or {}
    srv = {"Xorg": "Xvfb", "metacity": "openbox"}
    chars, at, periods, maps, entries = [], {}, [], [], []
    for i, (name, r, note) in enumerate(recs):
        src = srv.get(name) or (srcs[i] if i < len(srcs) else None)
        if r["same_as"] >= 0 or src not in d or not any(
                p["pages"] or p["cpu_ms"] or p["files"] for p in d[src]["periods"]):
            entries.append((0, 0, 0, "no background activity measured" if r["same_as"] < 0
                            else "its process's periods are the first window's"))
            continue
        v = d[src]
        rank = {p: j for j, p in enumerate(v["all"])}
        idx = {}
        for k, m in enumerate(r["maps"]):
            idx.setdefault((canon(files[m[0]][0]), files[m[0]][1]), k)
        first, lost = len(periods), 0
        for p in v["periods"]:
            b = "".join(encode_pages({rank[x] for x in p["pages"]}))
            off = intern_set(b, at, chars)
            fm = len(maps)
            for (f, kd), kb in sorted(p["files"].items(), key=lambda x: idx.get(
                    (canon(x[0][0]), x[0][1]), -1)):
                k = idx.get((canon(f), kd))
                if k is None:
                    lost += kb
                    continue
                maps.append((k, kb))
            periods.append((int(round(p["seconds"] * 1000)), p["cpu_ms"], off, fm,
                            len(maps) - fm))
        entries.append((len(v["all"]), len(v["periods"]), first,
                        ("measured" if src == name else "measured: %s" % src if name in srv
                         else "stand-in: %s's measurement" % src)
                        + ("; %d kB in files not in its rows left out" % lost if lost else "")))
    out("/* Generated by tools/measure/desktop/table.py from data/measured/desktop/idle.csv\n"
        " * (docs/desktop-measured.md, \"Background activity\"); do not edit. Per program: its\n"
        " * anonymous pages when measured, how many idle periods, the first one's entry in\n"
        " * desktop_idle_periods (length ms, CPU ms, offset into desktop_idle_pages: ranks among\n"
        " * those pages, first entry and count in desktop_idle_maps: the program's map, kB). */\n"
        "/* clang-format off */\n#include \"workloads/desktop_measured.h\"\n\n")
    out("const struct desktop_idle desktop_idle[] = {\n")
    for n, k, first, note in entries:
        out("    {%d, %d, %d}, /* %s */\n" % (n, k, first, note))
    out("};\nconst struct desktop_idle_period desktop_idle_periods[] = {\n")
    for i in range(0, len(periods), 4):
        out("   " + "".join(" {%d, %d, %d, %d, %d}," % p for p in periods[i:i + 4]) + "\n")
    if not periods:
        out("    {0, 0, 0, 0, 0},\n")
    out("};\nconst struct desktop_idle_map desktop_idle_maps[] = {\n")
    for i in range(0, len(maps), 10):
        out("   " + "".join(" {%d, %d}," % m for m in maps[i:i + 10]) + "\n")
    if not maps:
        out("    {0, 0},\n")
    out("};\n")
    out_set_chars(out, "desktop_idle_pages", chars)


def verify(data, src):
    """Decodes the compiled-in page sets (SRC/desktop_measured*.c) of every measured program
    and compares them, back in file pages through layout.csv, with pages.csv: the check of
    the encoding and of the page order that tests/cli/measured_tables.sh runs."""
    files = re.findall(r'\{"((?:[^"\\]|\\.)*)", (\d+), (\d)\}',
                       open(os.path.join(src, "desktop_measured.c")).read().split(
                           "desktop_files[] = {")[1].split("};")[0])
    files = [(f.replace('\\"', '"').replace("\\\\", "\\"), "x" if e == "1" else "r")
             for f, _, e in files]
    progs = re.findall(r'\{"([^"]*)", (-?\d+), \d+, \d+, \d+, \d+, (\d+), (\d+)\}[,;] /\* ([^*]*) \*/',
                       open(os.path.join(src, "desktop_measured.c")).read())
    maps = re.findall(r"\{(\d+), \d+, \d+, (\w+), (\w+)\}",
                      open(os.path.join(src, "desktop_measured_maps.c")).read())
    blob = open(os.path.join(src, "desktop_measured_pages.c")).read()
    stream = [B64.index(c) for c in "".join(re.findall(r'"([^"]*)"', blob.split(
        "desktop_pages[] =")[1]))]
    sets, rank = load_pages(data)
    order = {k: sorted(v, key=v.get) for k, v in rank.items()}
    pstep = {p["program"]: p["step"] for p in csv.DictReader(open(os.path.join(data, "programs.csv")))}

    def decode(at):
        pos = int(at)

        def leb():
            nonlocal pos
            v, sh = 0, 0
            while True:
                b = stream[pos]
                pos += 1
                v |= (b & 0x1F) << sh
                sh += 5
                if not b & 0x20:
                    return v
        out, page = set(), 0
        for _ in range(leb()):
            page += leb()
            n = leb() + 1
            out.update(range(page, page + n))
            page += n
        return out
    checked = bad = 0
    tot = defaultdict(int)  # the firefox URL client's runs: the median one is compiled in
    for (st, pr, ph, f, kd), v in sets.items():
        if (pr, ph) == ("firefox", "remote"):
            tot[st] += len(v)
    rep = sorted(tot, key=lambda st: (tot[st], int(st)))[(len(tot) - 1) // 2] if tot else None
    for name, same_as, first, n, note in progs:
        if name == "firefox URL" and rep:
            key, phases = (rep, "firefox"), ("remote", None)
        elif note == "measured" and name in pstep:
            key, phases = (pstep[name], name), ("start", "switch")
        else:
            continue
        for m in maps[int(first):int(first) + int(n)]:
            f = files[int(m[0])]
            k = (canon(f[0]), f[1])
            for phase, at in zip(phases, (m[1], m[2])):
                if phase is None:
                    continue
                want = sets.get(key + (phase,) + k)
                if at == "N":
                    bad += want is not None
                    continue
                got = {order[k][i] for i in decode(at)}
                checked += 1
                bad += got != want
    print("%d page sets of %d programs decoded, %d differ from pages.csv" % (
        checked, sum(1 for p in progs if p[4] == "measured" and p[0] in pstep) + bool(rep), bad))
    # the anonymous pages of each measured switch (anonsets.csv), program by program
    anon_c = os.path.join(src, "desktop_measured_anon.c")
    src_c = open(anon_c).read() if os.path.exists(anon_c) else ""
    anon = load_anonsets(data) if src_c else None
    achecked = abad = 0
    if anon is not None:
        entries = re.findall(r"\{(\d+), (\d+), (\d+)\}, /\* ([^*]*) \*/",
                             src_c.split("desktop_anon[] = {")[1].split("};")[0])
        offs = [int(x) for x in re.findall(r"\d+", src_c.split("desktop_anon_sets[] = {")[1]
                                            .split("};")[0])]
        stream = [B64.index(c) for c in "".join(re.findall(r'"([^"]*)"', src_c.split(
            "desktop_anon_pages[] =")[1]))]
        for (name, *_), (n, k, first, note) in zip(progs, entries):
            src_name = name if note == "measured" else note.split("stand-in: ")[-1].split("'s")[0]
            want = anon.get(src_name)
            if int(k) == 0:
                abad += want is not None and note == "measured"
                continue
            if want is None or want[0] != int(n) or len(want[1]) != int(k):
                abad += 1
                continue
            for j in range(int(k)):
                pos = offs[int(first) + j]
                got, page = set(), 0

                def leb():
                    nonlocal pos
                    v, sh = 0, 0
                    while True:
                        b = stream[pos]
                        pos += 1
                        v |= (b & 0x1F) << sh
                        sh += 5
                        if not b & 0x20:
                            return v
                for _ in range(leb()):
                    page += leb()
                    m = leb() + 1
                    got.update(range(page, page + m))
                    page += m
                achecked += 1
                abad += got != want[1][j]
        print("%d anonymous switch sets decoded, %d differ from anonsets.csv" % (achecked, abad))
    return bad == 0 and checked > 0 and abad == 0


if __name__ == "__main__":
    if sys.argv[1] == "compact":
        compact(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "verify":
        sys.exit(0 if verify(sys.argv[2], sys.argv[3]) else 1)
    elif sys.argv[1] == "pages":
        pages(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif sys.argv[1] == "remote":
        remote(sys.argv[2], sys.argv[3])
    else:
        gen(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None,
            sys.argv[5] if len(sys.argv) > 5 else None,
            sys.argv[6] if len(sys.argv) > 6 else None)
