#!/usr/bin/env python3
"""The desktop measurement (run.sh) compacted, and the model's table generated from it.

table.py compact RAWDIR OUTDIR   RAWDIR/{programs,mappings}.csv -> OUTDIR/{programs,mappings}.csv:
    mappings summed per (step, program, phase, file, kind), kind x = executable file mapping,
    r = other file mapping (read-only data, fonts, caches), a = anonymous (heap, stack,
    anonymous pages of private file mappings, shared memory); rows touching nothing dropped.
table.py remote RAWDIR OUTDIR   remote.sh's RAWDIR/remote.csv and remote-time.txt, compacted the
    same way, -> OUTDIR/remote.csv (the `firefox URL` client, one step per run)
table.py c DATADIR MAPS.c > src/workloads/desktop_measured.c   the model's tables
    (docs/desktop-measured.md): files and programs on stdout, each program's rows in MAPS.c
    (src/workloads/desktop_measured_maps.c)
"""
import csv
import os
import statistics
import sys
from collections import OrderedDict, defaultdict

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


def remote_record(data, fid):
    """The `firefox URL` client: per file the median over the runs of what it referenced."""
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
    maps, anon = [], 0
    for k, v in per.items():
        med = int(statistics.median([v.get(run, 0) for run in runs]))
        if k[1] == "a":
            anon += med
        elif med:
            maps.append((fid(sizes[k]), med, 0))
    cpu = [int(r["size_kb"]) for r in rows if r["phase"] == "remote-cpu"]
    return dict(anon=anon, anon_sw=0, maps=maps, cpu=int(statistics.median(cpu)) if cpu else 0,
                sw_cpu=0, same_as=-1, runs=len(runs))


def gen(data, maps_path):
    progs = {p["program"]: p for p in csv.DictReader(open(os.path.join(data, "programs.csv")))}
    rows = list(csv.DictReader(open(os.path.join(data, "mappings.csv"))))
    by = defaultdict(list)
    for r in rows:
        by[(r["program"], r["phase"])].append(r)
    files = OrderedDict()  # (file, kind) -> size_kb

    def fid(r):
        k = (r["file"], r["kind"])
        files[k] = max(files.get(k, 0), int(r["size_kb"]))
        return list(files).index(k)

    def record(name, same_as=-1, base=None):
        start = {(r["file"], r["kind"]): r for r in by[(name, "start")]}
        if base is not None:  # a further window of a running program: what it added
            old = {(r["file"], r["kind"]): r for r in by[(base, "start")]}
        sw = {(r["file"], r["kind"]): r for r in by[(name, "switch")]}
        maps, anon, anon_sw = [], 0, 0
        for k in OrderedDict.fromkeys(list(start) + list(sw)):
            r = start.get(k) or sw.get(k)
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
            if s_ref or w_ref:
                maps.append((fid(r), s_ref, w_ref))
        cpu = [int(r["size_kb"]) for r in by[(name, "switch-cpu")]]
        p = progs.get(name, {})
        return dict(anon=anon, anon_sw=min(anon_sw, anon) if anon else anon_sw, maps=maps,
                    cpu=int(p.get("cpu_ms_settled") or 0), sw_cpu=cpu[0] if cpu else 0,
                    same_as=same_as)

    def server(name):
        # the X server and the window manager: start-up once, a switch as the median over
        # every measured switch, file by file
        start = {(r["file"], r["kind"]): r for r in by[(name, "start")]}
        per = defaultdict(list)
        steps = sorted({r["step"] for r in by[(name, "switch")]})
        for r in by[(name, "switch")]:
            per[(r["file"], r["kind"])].append(int(r["ref_kb"]))
        maps, anon, anon_sw = [], 0, 0
        for k in OrderedDict.fromkeys(list(start) + list(per)):
            vals = per.get(k, []) + [0] * (len(steps) - len(per.get(k, [])))
            w_ref = int(statistics.median(vals)) if vals else 0
            s_ref = int(start[k]["ref_kb"]) if k in start else 0
            if k[1] == "a":
                anon += int(start[k]["anon_kb"]) if k in start else 0
                anon_sw += w_ref
                continue
            r = start.get(k) or {"file": k[0], "kind": k[1], "size_kb": "0"}
            if k not in start:
                r = dict(r, size_kb=max(int(x["size_kb"]) for x in by[(name, "switch")]
                                        if (x["file"], x["kind"]) == k))
            if s_ref or w_ref:
                maps.append((fid(r), s_ref, w_ref))
        return dict(anon=anon, anon_sw=anon_sw, maps=maps, cpu=0, sw_cpu=0, same_as=-1)

    recs, cache = [], {}
    for i, name in enumerate(THREAD):
        src, note = name, ""
        if name == "nautilus --browser":
            recs.append((name, record(name, same_as=THREAD.index("nautilus"), base="nautilus"),
                         "a second window of the running nautilus"))
            continue
        if name not in progs or not by[(name, "switch")]:
            src = STAND_IN.get(name, CAPPLET)
            note = "stand-in: %s's measurement" % src
        if src not in cache:
            cache[src] = record(src)
        recs.append((name, cache[src], note))
    recs.append(("Xorg", server("Xvfb"), "measured: Xvfb"))
    recs.append(("metacity", server("openbox"), "measured: openbox"))
    ff_remote = remote_record(data, fid)
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
    maps_out.append("/* Generated by tools/measure/desktop/table.py from data/measured/desktop/ (docs/\n"
                    " * desktop-measured.md); do not edit. Each program's rows: file, KiB referenced at\n"
                    " * start-up, KiB referenced by one switch. */\n/* clang-format off */\n"
                    '#include "workloads/desktop_measured.h"\n\n'
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
        rows_ = r["maps"]
        for i in range(0, len(rows_), 10):
            maps_out.append("   " + "".join(" {%d, %d, %d}," % m for m in rows_[i:i + 10]) + "\n")
        n += len(rows_)
    maps_out.append("};\n")
    with open(maps_path, "w") as f:
        f.write("".join(maps_out))
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


if __name__ == "__main__":
    if sys.argv[1] == "compact":
        compact(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "remote":
        remote(sys.argv[2], sys.argv[3])
    else:
        gen(sys.argv[2], sys.argv[3])
