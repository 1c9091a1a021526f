#!/usr/bin/env python3
"""Side-by-side speed of mmsim's replay and LRU curve, as a table of CPU-time ratios.

  bench/compare.py [--rev REV] [--libcachesim DIR] [--runs N] [--cache N] [TRACE ...]

For each TRACE (default: the ARC P12 trace of /work/shared/traces, if present) it times
  - `mmsim replay --policy lru` against bench/yardstick (decode, parse and map, nothing else);
  - `mmsim replay` and `mmsim mrc --policy lru` against the same commands of mmsim built at git
    revision REV (built into /tmp by this script; e.g. the previous release), and with --opt
    `mmsim mrc --policy opt` too;
  - with --libcachesim DIR (a libCacheSim source tree built in DIR/_build, see bench/README.md):
    `mmsim mrc --policy lru` against libCacheSim's one-pass LRU profiler and `mmsim replay`
    against its `cachesim ... lru`, both on the trace converted to its oracleGeneral format;
and prints bench_memory's bytes per simulated object. The two commands of a row run in turn,
A B A B ..., and the ratio is the median of the pairs' ratios of CPU time (user + system of the
child), so a drift in the machine's speed moves both. Times vary with the machine; the ratios
are what to compare. Benchmarks, not tests: nothing here passes or fails.
"""
import argparse
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TMP = os.path.join(tempfile.gettempdir(), "mmsim-bench")


def cpu_of(cmd, cwd=None):
    """CPU seconds (user + system) of one run of cmd; its output is thrown away."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("compare: failed: " + " ".join(cmd))
    return ru.ru_utime + ru.ru_stime


def pair(a, b, runs, cwd=None):
    cpu_of(a, cwd)  # warm the page cache for both
    cpu_of(b, cwd)
    ta, tb, r = [], [], []
    for _ in range(runs):
        x, y = cpu_of(a, cwd), cpu_of(b, cwd)
        ta.append(x)
        tb.append(y)
        r.append(x / y if y > 0 else float("inf"))
    return statistics.median(ta), statistics.median(tb), statistics.median(r)


def build_rev(rev):
    sha = subprocess.check_output(["git", "-C", ROOT, "rev-parse", rev], text=True).strip()
    src = os.path.join(TMP, "rev-" + sha[:12])
    exe = os.path.join(src, "build", "mmsim")
    if not os.path.exists(exe):
        os.makedirs(src, exist_ok=True)
        arch = subprocess.Popen(["git", "-C", ROOT, "archive", sha], stdout=subprocess.PIPE)
        subprocess.check_call(["tar", "-x", "-C", src], stdin=arch.stdout)
        arch.wait()
        b = os.path.join(src, "build")
        subprocess.check_call(["cmake", "-S", src, "-B", b, "-DCMAKE_BUILD_TYPE=RelWithDebInfo"],
                              stdout=subprocess.DEVNULL)
        subprocess.check_call(["cmake", "--build", b, "-j2", "--target", "mmsim"],
                              stdout=subprocess.DEVNULL)
    return exe, sha[:12]


def decompressed(path):
    with open(path, "rb") as f:
        magic = f.read(4)
    if magic == b"\x28\xb5\x2f\xfd":
        return subprocess.Popen(["zstd", "-dc", path], stdout=subprocess.PIPE).stdout
    if magic[:2] == b"\x1f\x8b":
        return subprocess.Popen(["gzip", "-dc", path], stdout=subprocess.PIPE).stdout
    return open(path, "rb")


def to_oracle(trace):
    """The trace as libCacheSim oracleGeneral records (u32 time, u64 id, u32 size, i64 next),
    one per page reference; cached in the temporary directory."""
    st = os.stat(trace)
    out = os.path.join(TMP, "%s.%d.oracleGeneral.bin" % (os.path.basename(trace), st.st_size))
    if os.path.exists(out):
        return out
    arc = ".lis" in os.path.basename(trace)
    rec = struct.Struct("<IQIq")
    buf, n = bytearray(), 0
    with open(out + ".part", "wb") as o:
        for line in decompressed(trace):
            f = line.split()
            if not f or f[0] == b"*":
                continue
            start, count = int(f[0]), int(f[1]) if arc else 1
            for i in range(count):
                buf += rec.pack(n & 0xFFFFFFFF, start + i, 1, -1)
                n += 1
            if len(buf) > 1 << 22:
                o.write(buf)
                buf = bytearray()
        o.write(buf)
    os.rename(out + ".part", out)
    return out


def build_lcs_profiler(lcs):
    exe = os.path.join(TMP, "lru_profile")
    inc = os.path.join(lcs, "libCacheSim", "include")
    glib = subprocess.check_output(["pkg-config", "--cflags", "--libs", "glib-2.0"],
                                   text=True).split()
    subprocess.check_call(["cc", "-O2", "-o", exe, os.path.join(ROOT, "bench", "libcachesim",
                           "lru_profile.c"), "-I" + inc, "-I" + os.path.join(inc, "libCacheSim"),
                           os.path.join(lcs, "_build", "liblibCacheSim.a")] + glib +
                          ["-lzstd", "-lm", "-lpthread", "-lstdc++"])
    return exe


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("traces", nargs="*")
    ap.add_argument("--rev", help="git revision of the mmsim to compare against")
    ap.add_argument("--libcachesim", help="libCacheSim source tree built in DIR/_build")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cache", type=int, default=65536, help="replay cache size in pages")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="mmsim build dir")
    ap.add_argument("--opt", action="store_true",
                    help="also time the OPT curve against the LRU curve of the same build")
    a = ap.parse_args()
    os.makedirs(TMP, exist_ok=True)
    traces = a.traces or [t for t in ["/work/shared/traces/arc/P12.lis.zst"] if os.path.exists(t)]
    if not traces:
        sys.exit("compare: no trace given")
    mmsim = os.path.join(a.build, "mmsim")
    yard = os.path.join(a.build, "yardstick")
    old = build_rev(a.rev) if a.rev else None
    lcs = os.path.abspath(a.libcachesim) if a.libcachesim else None
    prof = build_lcs_profiler(lcs) if lcs else None

    rows = []
    for t in traces:
        name = os.path.basename(t)
        rep = ["replay", t, "--policy", "lru", "--cache", str(a.cache)]
        mrc = ["mrc", t, "--policy", "lru", "--sizes", "1000"]
        info = json.loads(subprocess.check_output([mmsim] + rep + ["--json"]))
        ys = subprocess.check_output([yard, t], text=True).split()
        if int(ys[0]) != info["refs"] or int(ys[2]) != info["distinct"]:
            print("warning: %s: yardstick counts %s refs %s distinct, mmsim %d, %d" %
                  (name, ys[0], ys[2], info["refs"], info["distinct"]))
        rows.append(("replay lru %d" % a.cache, name, "yardstick") +
                    pair([mmsim] + rep, [yard, t], a.runs))
        if a.opt:
            opt = ["mrc", t, "--policy", "opt", "--sizes", "1000"]
            rows.append(("mrc opt", name, "mmsim mrc lru") +
                        pair([mmsim] + opt, [mmsim] + mrc, a.runs))
        if old and a.opt:
            rows.append(("mrc opt", name, "mmsim %s mrc opt" % old[1]) +
                        pair([mmsim] + opt, [old[0]] + opt, a.runs))
        if old:
            rows.append(("replay lru %d" % a.cache, name, "mmsim " + old[1]) +
                        pair([mmsim] + rep, [old[0]] + rep, a.runs))
            rows.append(("mrc lru", name, "mmsim " + old[1]) +
                        pair([mmsim] + mrc, [old[0]] + mrc, a.runs))
        if lcs:
            ora = to_oracle(t)
            rows.append(("mrc lru", name, "libCacheSim profiler") +
                        pair([mmsim] + mrc, [prof, ora, str(info["distinct"]), "1000"], a.runs))
            cs = [os.path.join(lcs, "_build", "bin", "cachesim"), ora, "oracleGeneral", "lru",
                  str(a.cache), "--ignore-obj-size", "1", "--num-thread", "1"]
            rows.append(("replay lru %d" % a.cache, name, "libCacheSim cachesim") +
                        pair([mmsim] + rep, cs, a.runs, cwd=TMP))

    print("CPU seconds, medians of %d alternated runs; A = mmsim at %s" % (a.runs, a.build))
    print("%-18s %-22s %-22s %9s %9s %8s" % ("command", "trace", "B", "A cpu s", "B cpu s",
                                              "A/B"))
    for r in rows:
        print("%-18s %-22s %-22s %9.3f %9.3f %8.3f" % r)
    print()
    sys.stdout.flush()
    mem = os.path.join(a.build, "bench_memory")
    if os.path.exists(mem):
        subprocess.call([mem] + traces)


if __name__ == "__main__":
    main()
