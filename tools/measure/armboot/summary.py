#!/usr/bin/env python3
"""Summarise armboot console logs (tools/measure/armboot/run.sh output).

    tools/measure/armboot/summary.py data/measured/armboot/*.log
    tools/measure/armboot/summary.py --table data/measured/armboot/throttle/*.log

Prints, per log: the boot log's memory line, the reserved memory it implies,
/proc/meminfo and /proc/zoneinfo figures after boot (and right before
hackbench in the hb modes), the largest slab caches, and the hackbench
outcome (time printed, exit status, OOM kills in the kernel log).
With --table, prints instead two Markdown tables of the hackbench runs:
one row per log (kernel, groups, run, OOM kills, Time, exit status, free
pages and page cache right before hackbench, direct reclaim counters after
it, with patches/debug the most tasks in shrink_zone at once), and per kernel and group count the runs, how many had an OOM kill, and
the Time median/min/max (all runs that printed one, and those without a
kill). The kernel is the log's name before '-hbG-N.log'. Logs may be
compressed with zstd (NAME.log.zst; needs the zstd program).
Standard library only.
"""
import re
import statistics
import subprocess
import sys

MEMINFO_KEYS = ["MemTotal", "MemFree", "Buffers", "Cached", "Active", "Inactive",
                "AnonPages", "Mapped", "Slab", "SReclaimable", "SUnreclaim",
                "PageTables", "KernelStack", "Dirty", "VmallocUsed", "Committed_AS"]
VMSTAT_KEYS = ["pgmajfault", "allocstall", "pgscan_direct_dma", "pgscan_kswapd_dma",
               "pgsteal_dma", "kswapd_steal", "pageoutrun", "slabs_scanned",
               "kswapd_inodesteal", "pginodesteal"]
ZONE_KEYS = ["pages free", "min", "low", "high", "spanned", "present",
             "nr_free_pages", "nr_inactive", "nr_active", "nr_anon_pages",
             "nr_mapped", "nr_file_pages", "nr_slab_reclaimable",
             "nr_slab_unreclaimable", "nr_page_table_pages"]


def read_log(path):
    """A console log; one compressed with zstd (NAME.log.zst) through 'zstd -dc'."""
    if path.endswith(".zst"):
        raw = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
    else:
        with open(path, "rb") as f:
            raw = f.read()
    # as open() in text mode: universal newlines
    return raw.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


def sections(text):
    """Split a console log into {name: [lines]} at '=== name' markers; the
    lines from '=== hackbench G process L' to '=== hackbench exit' (the
    start-signal dumps and the run's console) are also kept whole as 'run'."""
    out = {"console": []}
    cur = "console"
    in_run = False
    for line in text.split("\n"):
        line = line.replace("\0", "").rstrip("\r")
        m = re.match(r"^\s*=== (.*)$", line)
        if m:
            cur = m.group(1).strip()
            out.setdefault(cur, [])
            if re.match(r"^hackbench \d+ process", cur):
                in_run = True
                out["run"] = []
            elif cur.startswith("hackbench exit"):
                in_run = False
            continue
        out[cur].append(line)
        if in_run:
            out["run"].append(line)
    return out


def memory_line(lines):
    for line in lines:
        m = re.search(r"Memory: (\d+)KB available \((\d+)K code, (\d+)K data, (\d+)K init\)", line)
        if m:
            return dict(zip(["available", "code", "data", "init"], map(int, m.groups())))
    return None


def memory_total(lines):
    for line in lines:
        m = re.search(r"Memory: (\d+)MB = (\d+)MB total", line)
        if m:
            return int(m.group(2)) * 1024
    return None


def meminfo(lines):
    d = {}
    for line in lines:
        m = re.match(r"^(\w+):\s+(\d+) kB", line)
        if m:
            v = int(m.group(2))
            if v >= 2**31:  # a negative counter printed as unsigned long
                v -= 2**32
            d[m.group(1)] = v
    return d


def zoneinfo(lines):
    d = {}
    for line in lines:
        s = line.strip()
        m = re.match(r"^(pages free|min|low|high|spanned|present)\s+(\d+)$", s)
        if not m:
            m = re.match(r"^(nr_\w+)\s+(\d+)$", s)
        if m and m.group(1) not in d:
            v = int(m.group(2))
            if v >= 2**31:
                v -= 2**32
            d[m.group(1)] = v
    return d


def slabinfo(lines):
    """[(pages, name, active_objs, num_objs, objsize)] largest first."""
    out = []
    for line in lines:
        if line.startswith("#") or line.startswith("slabinfo") or ":" not in line:
            continue
        f = line.split()
        try:
            name, active, num, size, _perslab, pps = f[0], *map(int, f[1:6])
            i = f.index("slabdata")
            num_slabs = int(f[i + 2])
        except (ValueError, IndexError):
            continue
        out.append((num_slabs * pps, name, active, num, size))
    out.sort(key=lambda t: (-t[0], t[1]))
    return out


def hackbench(sec):
    """The run's outcome. OOM reports are counted in the console output
    between the hackbench markers (the kernel prints them there as they
    happen); the 16 KiB log buffer dumped afterwards keeps only the last."""
    res = {}
    for name in sec:
        if re.match(r"^hackbench \d+ process", name):
            res["cmd"] = name
            lines = sec["run"]
            for line in lines:
                m = re.match(r"^Time: ([\d.]+)", line)
                if m:
                    res["time"] = float(m.group(1))
            # the report's header is rate-limited; every kill prints its line
            res["kills"] = sum(x.startswith("Killed process") for x in lines)
            first = next((i for i, x in enumerate(lines) if "invoked oom-killer" in x), None)
            if first is not None:
                res["first_oom"] = lines[first].strip()
                for x in lines[first:first + 60]:
                    if x.startswith("Active:") or x.lstrip().startswith("free:") \
                            or re.match(r"^\d+ (pages of RAM|free pages|reserved pages|slab pages|total pagecache pages)", x):
                        res.setdefault("first_oom_meminfo", []).append(x.strip())
                    if x.startswith("Out of memory"):
                        break
    for name in sec:
        m = re.match(r"^hackbench exit (\d+)", name)
        if m:
            res["exit"] = int(m.group(1))
    return res


def summarise(path, nslab):
    text = read_log(path)
    sec = sections(text)
    print(f"## {path}")
    total = memory_total(sec["console"])
    ml = memory_line(sec["console"])
    if ml:
        print(f"boot: Memory: {total}K total, {ml['available']}K available "
              f"({ml['code']}K code, {ml['data']}K data, {ml['init']}K init); "
              f"reserved at that point {total - ml['available']}K, "
              f"after freeing init {total - ml['available'] - ml['init']}K")
    for phase in ("boot", "pre-hackbench", "start-signal", "post-hackbench"):
        if f"meminfo {phase}" not in sec:
            continue
        mi = meminfo(sec[f"meminfo {phase}"])
        print(f"meminfo {phase}: " + ", ".join(f"{k} {mi[k]}" for k in MEMINFO_KEYS if k in mi)
              + " (kB)")
        if "MemTotal" in mi and total:
            print(f"  not in MemTotal: {total - mi['MemTotal']}K")
        zi = zoneinfo(sec.get(f"zoneinfo {phase}", []))
        if zi:
            print(f"zoneinfo {phase}: " + ", ".join(f"{k} {zi[k]}" for k in ZONE_KEYS if k in zi)
                  + " (pages)")
        vm = {}
        for x in sec.get(f"vmstat {phase}", []):
            f = x.split()
            if len(f) == 2 and f[1].isdigit():
                vm[f[0]] = int(f[1])
        if vm:
            print(f"vmstat {phase}: " + ", ".join(f"{k} {vm[k]}" for k in VMSTAT_KEYS if k in vm))
        sl = slabinfo(sec.get(f"slabinfo {phase}", []))
        if sl:
            print(f"slab {phase}: {sum(t[0] for t in sl)} pages in {len(sl)} caches; largest:")
            for pages, name, active, num, size in sl[:nslab]:
                print(f"  {name:22s} {pages:4d} pages  {active:5d}/{num:5d} objs x {size} B")
    pre = meminfo(sec.get("meminfo pre-hackbench", []))
    start = meminfo(sec.get("meminfo start-signal", []))
    groups = re.search(r"armboot mode hb:(\d+)", text)
    if pre and start and groups:
        n = int(groups.group(1)) * 40
        d = {k: (start[k] - pre[k]) / 4 for k in ("MemFree", "AnonPages", "PageTables",
                                                  "Slab", "Cached", "Buffers")}
        rest = -d["MemFree"] - d["AnonPages"] - d["PageTables"] - d["Slab"] - d["Cached"] \
            - d["Buffers"]
        print(f"forking {n} workers (pre-hackbench -> start-signal, pages): free "
              f"{pre['MemFree'] // 4} -> {start['MemFree'] // 4} "
              f"({-d['MemFree'] / n:.2f} per worker): anon {d['AnonPages'] / n:.2f}, "
              f"PageTables counter {d['PageTables'] / n:.2f}, slab {d['Slab'] / n:.2f}, "
              f"page cache {(d['Cached'] + d['Buffers']) / n:.2f}, "
              f"no counter (stacks, pgds) {rest / n:.2f} per worker")
    hb = hackbench(sec)
    if hb:
        mem = hb.pop("first_oom_meminfo", [])
        print("hackbench: " + ", ".join(f"{k} {v}" for k, v in hb.items()))
        for x in mem:
            print(f"  at the first OOM: {x}")
    print()


def vmstat(lines):
    d = {}
    for x in lines:
        f = x.split()
        if len(f) == 2 and f[1].isdigit():
            d[f[0]] = int(f[1])
    return d


def run_row(path):
    """One hackbench log as a dict, or None if it is not a hackbench run."""
    text = read_log(path)
    sec = sections(text)
    groups = re.search(r"armboot mode hb:(\d+)", text)
    if not groups:
        return None
    base = path.rsplit("/", 1)[-1]
    m = re.match(r"^(.*)-hb\d+-(\d+)\.log(\.zst)?$", base)
    kernel, run = (m.group(1), int(m.group(2))) if m else (base, 0)
    hb = hackbench(sec)
    zi = zoneinfo(sec.get("zoneinfo pre-hackbench", []))
    pre = vmstat(sec.get("vmstat pre-hackbench", []))
    post = vmstat(sec.get("vmstat post-hackbench", []))
    delta = {k: post[k] - pre.get(k, 0) for k in ("allocstall", "pgscan_direct_dma",
                                                   "pgsteal_dma", "pgscan_kswapd_dma")
             if k in post}
    return {"kernel": kernel, "groups": int(groups.group(1)), "run": run,
            "kills": hb.get("kills"), "time": hb.get("time"), "exit": hb.get("exit"),
            "free": zi.get("nr_free_pages"), "file": zi.get("nr_file_pages"),
            "ended": "=== armboot end" in text, **delta,
            # patches/debug: the kernel prints each new high of tasks in shrink_zone
            "in_shrink_zone": max(map(int, re.findall(r"armboot: (\d+) tasks in shrink_zone",
                                                      text)), default=None)}


def fmt(v, spec=""):
    return "—" if v is None else format(v, spec)


def table(paths):
    rows = [r for r in map(run_row, paths) if r]
    rows.sort(key=lambda r: (r["kernel"], r["groups"], r["run"]))
    print("| kernel | groups | run | OOM kills | Time (s) | exit | free pages before "
          "| file pages before | allocstall | pgscan_direct | pgsteal | pgscan_kswapd "
          "| most in shrink_zone |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['kernel']} | {r['groups']} | {r['run']} | {fmt(r['kills'])} "
              f"| {fmt(r['time'], '.3f')} | {fmt(r['exit'])} | {fmt(r['free'])} "
              f"| {fmt(r['file'])} | {fmt(r.get('allocstall'))} "
              f"| {fmt(r.get('pgscan_direct_dma'))} | {fmt(r.get('pgsteal_dma'))} "
              f"| {fmt(r.get('pgscan_kswapd_dma'))} | {fmt(r['in_shrink_zone'])} |")
    print()

    def mmm(ts):
        if not ts:
            return "—"
        return f"{statistics.median(ts):.2f} ({min(ts):.2f}–{max(ts):.2f})"
    print("| kernel | groups | runs | OOM-killed | kills per killed run | Time median (min–max), "
          "all runs with a Time | the same, runs without a kill | most in shrink_zone |")
    print("|---|---|---|---|---|---|---|---|")
    keys = sorted({(r["kernel"], r["groups"]) for r in rows})
    for k, g in keys:
        rs = [r for r in rows if r["kernel"] == k and r["groups"] == g]
        killed = [r for r in rs if r["kills"]]
        ts = [r["time"] for r in rs if r["time"] is not None]
        ok = [r["time"] for r in rs if r["time"] is not None and not r["kills"]]
        kills = ", ".join(str(r["kills"]) for r in killed) or "—"
        ins = [r["in_shrink_zone"] for r in rs if r["in_shrink_zone"] is not None]
        inz = (f"{min(ins)}–{max(ins)}" if min(ins) != max(ins) else f"{ins[0]}") if ins else "—"
        print(f"| {k} | {g} | {len(rs)} | {len(killed)} of {len(rs)} | {kills} "
              f"| {mmm(ts)} | {mmm(ok)} | {inz} |")


def main(argv):
    nslab = 8
    paths = []
    as_table = False
    for a in argv[1:]:
        if a.startswith("--slab="):
            nslab = int(a.split("=", 1)[1])
        elif a == "--table":
            as_table = True
        else:
            paths.append(a)
    if not paths:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    if as_table:
        table(paths)
        return 0
    for p in paths:
        summarise(p, nslab)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
